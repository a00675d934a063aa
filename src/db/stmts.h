/* Every SQL text of the program, in one table of literals with `?` for values
 * (values are only ever bound). The .def files hold the rows, one per layer:
 * STMT(ST_NAME, "SQL"). */
#ifndef MIGRATOR_STMTS_H
#define MIGRATOR_STMTS_H

enum stmt_id {
#define STMT(id, sql) id,
#include "db/sql_core.def"
#include "db/sql_queue.def"
#include "db/sql_runner.def"
#undef STMT
	ST__COUNT
};

extern const char *const db_sql[ST__COUNT];
extern const char *const db_stmt_names[ST__COUNT];

#endif
