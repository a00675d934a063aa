#include "db/stmts.h"

/* clang-format off */
const char *const db_sql[ST__COUNT] = {
#define STMT(id, sql) [id] = sql,
#include "db/sql_core.def"
#include "db/sql_queue.def"
#include "db/sql_runner.def"
#undef STMT
};
/* clang-format on */

/* clang-format off */
const char *const db_stmt_names[ST__COUNT] = {
#define STMT(id, sql) [id] = #id,
#include "db/sql_core.def"
#include "db/sql_queue.def"
#include "db/sql_runner.def"
#undef STMT
};
/* clang-format on */
