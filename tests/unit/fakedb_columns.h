/* The column readers of a database faked at link time (-Wl,--wrap= over
 * src/db/db.c): db_str, db_len and db_i64 read from the fake's own
 * __wrap_db_strn, as db.c reads them from db_strn. Included, after its
 * __wrap_db_strn, by tests/unit/test_handlers.c and tests/fuzz/fakeapi.h. */
#ifndef MIGRATOR_FAKEDB_COLUMNS_H
#define MIGRATOR_FAKEDB_COLUMNS_H
#include <stddef.h>
#include <stdint.h>

#include "core/util.h"
#include "db/db.h"

const char *__wrap_db_strn(struct db_res *r, int col, size_t *len);
const char *__wrap_db_str(struct db_res *r, int col);
size_t __wrap_db_len(struct db_res *r, int col);
int64_t __wrap_db_i64(struct db_res *r, int col);

const char *
__wrap_db_str(struct db_res *r, int col)
{
	size_t len;

	return __wrap_db_strn(r, col, &len);
}

size_t
__wrap_db_len(struct db_res *r, int col)
{
	size_t len;

	__wrap_db_strn(r, col, &len);
	return len;
}

/* its integer, 0 for NULL and for text that is none */
int64_t
__wrap_db_i64(struct db_res *r, int col)
{
	const char *s = __wrap_db_str(r, col);
	int64_t v;

	return s != NULL && parse_i64(s, INT64_MIN + 1, INT64_MAX, &v) == 0 ? v : 0;
}

#endif
