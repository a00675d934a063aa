/* The database connection: one per process, statements prepared once on first
 * use and reused, explicit reconnect (never MYSQL_OPT_RECONNECT).
 *
 * Bind types (the `types` string, one letter per `?`):
 *   'i' int64_t   'u' uint64_t   's' const char * (NULL binds SQL NULL)
 *   'b' const void *, size_t (binary)   'n' SQL NULL (no argument)
 *   'U' uint64_t, 0 binds NULL   'I' int64_t, negative binds NULL
 * Result columns are read back as text (db_str) or integers (db_i64).
 * Only one open result per statement at a time; db_free it before reuse. */
#ifndef MIGRATOR_DB_H
#define MIGRATOR_DB_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#include "core/config.h"
#include "core/err.h"
#include "db/stmts.h"

struct db;
struct db_res;

enum db_class {
	DB_OK = 0,
	DB_LOST,      /* this server cannot serve (connection gone, a Galera node outside the primary
	               * component, read-only): the next use connects again, to the next server */
	DB_RETRY,     /* deadlock or lock wait timeout: retry the transaction */
	DB_DUPLICATE, /* duplicate key */
	DB_FOREIGN,   /* foreign key: the parent row is gone */
	DB_OTHER
};

/* Connect (utf8mb4, UTC, strict sql_mode, timeouts). NULL on failure, e set. */
struct db *db_connect(const struct config *cfg, struct err *e);
/* A handle that connects on first use (for long-lived processes that must
 * start, and answer 503, while the database is down). */
struct db *db_new(const struct config *cfg);
void db_close(struct db *);

/* Run a statement that returns no rows. Returns affected rows (>= 0) or -1. */
int64_t db_exec(struct db *, enum stmt_id, const char *types, ...);
/* Run statement id, whose one value is its LIMIT, with batch until it changes fewer rows (a purge:
 * outside a transaction, each statement is one of its own), at most 100 times. Rows changed in
 * all, or -1. */
int64_t db_exec_batches(struct db *, enum stmt_id, int64_t batch);
/* db_exec with the values of ap (described by types) followed by ntail
 * uint64 values: one list of values serves an INSERT (values, user) and an
 * UPDATE (values, id, user) of the same row. */
int64_t db_vexec_tail(struct db *, enum stmt_id, const char *types, va_list ap, const uint64_t *tail,
    size_t ntail);
/* The values of ap described by types as one row of a JSON array that a statement reads with
 * JSON_TABLE (a batch's rows in one statement), NULL where they would bind NULL: types of
 * 's', 'i' and 'I' only (NULL for any other). */
json_object *db_vrow(const char *types, va_list ap);
/* The insert id (or LAST_INSERT_ID(expr) value) of the last db_exec. */
uint64_t db_insert_id(struct db *);
/* Run a query. NULL on error. Free with db_free. */
struct db_res *db_query(struct db *, enum stmt_id, const char *types, ...);
/* Advance to the next row: 1 row, 0 no more rows, -1 error. */
int db_next(struct db_res *);
const char *db_str(struct db_res *, int col); /* NULL for SQL NULL; borrowed */
size_t db_len(struct db_res *, int col);
/* db_str and db_len in one call. */
const char *db_strn(struct db_res *, int col, size_t *len);
int64_t db_i64(struct db_res *, int col); /* 0 for NULL */
void db_free(struct db_res *);
/* Run a query expected to give at most one integer: 1 found (*out set), 0 none, -1 error. */
int db_scalar(struct db *, int64_t *out, enum stmt_id, const char *types, ...);

/* Transactions. The dispatcher and the runner own them; entity code never begins or commits. */
int db_begin(struct db *);
int db_commit(struct db *);
void db_rollback(struct db *);
/* The rows the statements of the open transaction changed so far, as the server counts them (found
 * rows; an upsert that updates counts 2). */
int64_t db_tx_rows(const struct db *);

/* Run trusted SQL text (schema migrations from sql/). Returns 0 or -1. */
int db_run_script_stmt(struct db *, const char *sql);

/* How often a transaction (or a statement outside one) is tried when it loses to another writer
 * (DB_RETRY: a deadlock, a lock wait timeout, on Galera a write another node certified first),
 * each time after db_retry_pause(attempt): a random pause below DB_RETRY_PAUSE_MS << attempt, so
 * that the two do not meet again at once. */
#define DB_ATTEMPTS       4
#define DB_RETRY_PAUSE_MS 20
void db_retry_pause(int attempt);

/* Classification and text (log only) of the last error. */
enum db_class db_error_class(struct db *);
const char *db_error(struct db *);
/* Fill e from the last DB error (503 when the server cannot serve or a transaction kept losing to
 * others, else 500); returns -1. */
int db_fail_(struct db *, struct err *e, const char *file, int line);
#define db_fail(db, e) db_fail_((db), (e), __FILE__, __LINE__)

#endif
