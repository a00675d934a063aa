/* Unit tests of the handlers (src/api/migrations.c) through op_run, on a
 * scripted database: the db_* calls that src/db makes are replaced at link
 * time (-Wl,--wrap, see tests/Makemodule.am) by the fakes below. Each query
 * answers with the rows of the script, as text, and may then fail to fetch
 * the next one; writes change one row. The cases are what
 * tests/fuzz/fuzz_rest.c and fuzz_mcp.c found; run them under
 * --enable-sanitizers, where a leak fails the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "api/ops.h"
#include "auth/auth.h"
#include "core/config.h"
#include "core/err.h"
#include "core/util.h"
#include "db/db.h"

#include "fakedb_columns.h"

#define COLS 16

/* What every query gives: rows copies of the row cells (NULL: SQL NULL),
 * then, with fail_after, an error instead of the end. */
static struct {
	int rows;
	bool fail_after;
	const char *cells[COLS];
	int queries;
} script;

struct db_res {
	int left;
};

struct db_res *__wrap_db_query(struct db *, enum stmt_id, const char *, ...);
int __wrap_db_next(struct db_res *);
void __wrap_db_free(struct db_res *);
int64_t __wrap_db_exec(struct db *, enum stmt_id, const char *, ...);
int __wrap_db_begin(struct db *);
int __wrap_db_commit(struct db *);
void __wrap_db_rollback(struct db *);
enum db_class __wrap_db_error_class(struct db *);
const char *__wrap_db_error(struct db *);
int __wrap_db_fail_(struct db *, struct err *, const char *, int);

struct db_res *
__wrap_db_query(struct db *db, enum stmt_id id, const char *types, ...)
{
	struct db_res *r = test_malloc(sizeof *r);

	(void)db;
	(void)id;
	(void)types;
	script.queries++;
	r->left = script.rows;
	return r;
}

int
__wrap_db_next(struct db_res *r)
{
	if (r->left > 0) {
		r->left--;
		return 1;
	}
	return script.fail_after ? -1 : 0;
}

const char *
__wrap_db_strn(struct db_res *r, int col, size_t *len)
{
	(void)r;
	*len = col >= 0 && col < COLS && script.cells[col] ? strlen(script.cells[col]) : 0;
	return col >= 0 && col < COLS ? script.cells[col] : NULL;
}

void
__wrap_db_free(struct db_res *r)
{
	test_free(r);
}

int64_t
__wrap_db_exec(struct db *db, enum stmt_id id, const char *types, ...)
{
	(void)db;
	(void)id;
	(void)types;
	return 1;
}

int
__wrap_db_begin(struct db *db)
{
	(void)db;
	return 0;
}

int
__wrap_db_commit(struct db *db)
{
	(void)db;
	return 0;
}

void
__wrap_db_rollback(struct db *db)
{
	(void)db;
}

enum db_class
__wrap_db_error_class(struct db *db)
{
	(void)db;
	return DB_OTHER;
}

const char *
__wrap_db_error(struct db *db)
{
	(void)db;
	return "the fetch failed";
}

int
__wrap_db_fail_(struct db *db, struct err *e, const char *file, int line)
{
	(void)db;
	e->code = ERR_INTERNAL;
	e->file = file;
	e->line = line;
	snprintf(e->detail, sizeof e->detail, "database: the fetch failed");
	return -1;
}

static struct config cfg = { .public_url = "" };
static struct app app = { .cfg = &cfg };
static const struct principal who = { .user_id = 42, .scopes = ~0u, .flag_on = true };

/* A run as ST_RUN_GET and ST_RUN_GET_UNCOUNTED give it (RUN_COLS). */
static void
script_run(void)
{
	static const char *const run[] = { "0192b8e4-5c1a-7c3e-9f00-aabbccddeeff", "uptimerobot",
		"awaiting_review", "{}", NULL, NULL, NULL, "2026-01-02 03:04:05", "2026-01-02 03:04:05", "0",
		"0", NULL };

	memset(&script, 0, sizeof script);
	memcpy(script.cells, run, sizeof run);
	script.rows = 1;
}

/* A run's row was read (and turned into JSON) when the fetch after it failed:
 * a 500, and the run read is freed (the sanitizer build's leak check fails
 * the test otherwise). Found by tests/fuzz/fuzz_rest.c. */
static void
test_a_run_read_before_a_failed_fetch_is_freed(void **state)
{
	json_object *in = json_object_new_object(), *out = NULL;
	struct err e;

	(void)state;
	script_run();
	script.fail_after = true;
	json_object_object_add(in, "id", json_object_new_string("0192b8e4-5c1a-7c3e-9f00-aabbccddeeff"));
	for (int op = 0; op < OP__COUNT; op++) {
		if (op_table[op].id != OP_GET && op_table[op].id != OP_CANCEL)
			continue;
		err_clear(&e);
		script.queries = 0;
		assert_int_equal(op_run(&app, &op_table[op], &who, in, TRANSPORT_REST, &out, &e), -1);
		assert_int_equal(e.code, ERR_INTERNAL);
		assert_null(out);
		assert_true(script.queries > 0);
	}
	json_object_put(in);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_run_read_before_a_failed_fetch_is_freed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
