/* Unit tests of src/auth without a database: the db_* calls auth.c makes are
 * replaced at link time (-Wl,--wrap, see tests/Makemodule.am) by the fakes
 * below, which serve one prepared token row or fail like a lost connection:
 * ST_AUTH_HIT counts when the bound hash is the row's, ST_AUTH_TOKEN reads it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "auth/auth.h"
#include "core/config.h"
#include "crypto/token.h"
#include "db/db.h"

/* The row ST_AUTH_TOKEN returns: user id, secret hash, scopes, name, email;
 * and what ST_AUTH_HIT finds: the flag code and the count. */
static struct {
	bool lost;    /* db_query and db_exec fail as on a lost connection */
	bool present; /* the token id exists */
	uint64_t id;
	unsigned char hash[TOKEN_HASH_LEN];
	const char *scopes, *name, *email;
	int flag_code; /* 0 off, 1 on, 2 no row decides */
	uint64_t hits;
	int queries, hits_tried;
} row;

static struct db_res *const fake_res = (struct db_res *)&row;

struct db_res *__wrap_db_query(struct db *, enum stmt_id, const char *, ...);
int64_t __wrap_db_exec(struct db *, enum stmt_id, const char *, ...);
uint64_t __wrap_db_insert_id(struct db *);
int __wrap_db_next(struct db_res *);
const char *__wrap_db_str(struct db_res *, int);
size_t __wrap_db_len(struct db_res *, int);
int64_t __wrap_db_i64(struct db_res *, int);
void __wrap_db_free(struct db_res *);
int __wrap_db_fail_(struct db *, struct err *, const char *, int);

struct db_res *
__wrap_db_query(struct db *db, enum stmt_id id, const char *types, ...)
{
	(void)db;
	(void)types;
	assert_int_equal(id, ST_AUTH_TOKEN);
	row.queries++;
	return row.lost ? NULL : fake_res;
}

int64_t
__wrap_db_exec(struct db *db, enum stmt_id id, const char *types, ...)
{
	const unsigned char *hash;
	uint64_t token;
	size_t len;
	va_list ap;

	(void)db;
	assert_int_equal(id, ST_AUTH_HIT);
	assert_string_equal(types, "sub");
	row.hits_tried++;
	if (row.lost)
		return -1;
	va_start(ap, types);
	assert_string_equal(va_arg(ap, const char *), "token:7");
	token = va_arg(ap, uint64_t);
	hash = va_arg(ap, const unsigned char *);
	len = va_arg(ap, size_t);
	va_end(ap);
	if (!row.present || token != row.id || len != TOKEN_HASH_LEN || memcmp(hash, row.hash, len) != 0)
		return 0;
	row.hits++;
	return row.hits == 1 ? 1 : 2;
}

uint64_t
__wrap_db_insert_id(struct db *db)
{
	(void)db;
	return row.hits * 4 + (uint64_t)row.flag_code;
}

int
__wrap_db_next(struct db_res *r)
{
	assert_ptr_equal(r, fake_res);
	return row.present ? 1 : 0;
}

const char *
__wrap_db_str(struct db_res *r, int col)
{
	(void)r;
	switch (col) {
	case 1:
		return (const char *)row.hash;
	case 2:
		return row.scopes;
	case 3:
		return row.name;
	case 4:
		return row.email;
	default:
		fail_msg("column %d is not a string", col);
	}
	return NULL;
}

size_t
__wrap_db_len(struct db_res *r, int col)
{
	(void)r;
	assert_int_equal(col, 1);
	return sizeof row.hash;
}

int64_t
__wrap_db_i64(struct db_res *r, int col)
{
	(void)r;
	if (col != 0)
		fail_msg("column %d is not a number", col);
	return 42;
}

void
__wrap_db_free(struct db_res *r)
{
	assert_ptr_equal(r, fake_res);
}

int
__wrap_db_fail_(struct db *db, struct err *e, const char *file, int line)
{
	(void)db;
	e->code = ERR_UNAVAILABLE;
	e->file = file;
	e->line = line;
	snprintf(e->detail, sizeof e->detail, "database: lost");
	return -1;
}

static char secret[TOKEN_SECRET_LEN + 1];
static char header[128];

static int
setup(void **state)
{
	(void)state;
	memset(&row, 0, sizeof row);
	/* A new secret each test: what an earlier test left in the owner cache does not match. */
	token_secret_new(secret);
	token_hash(secret, strlen(secret), row.hash);
	snprintf(header, sizeof header, "Bearer 7|%s", secret);
	row.present = true;
	row.id = 7;
	row.scopes = "account:read mcp:use";
	row.name = "Ada";
	row.email = "ada@example.com";
	row.flag_code = 2;
	return 0;
}

static void
test_a_valid_token_gives_its_owner_scopes_flag_and_count(void **state)
{
	struct config cfg = { .migrator_default = true, .requests_per_minute = 240 };
	struct principal p;
	struct rate r;
	struct err e;

	(void)state;
	err_clear(&e);
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), 0);
	assert_int_equal(p.token_id, 7);
	assert_int_equal(p.user_id, 42);
	assert_string_equal(p.name, "Ada");
	assert_string_equal(p.email, "ada@example.com");
	assert_true(scope_has(&p, SC_ACCOUNT_READ));
	assert_true(scope_has(&p, SC_MCP_USE));
	assert_false(scope_has(&p, SC_ACCOUNT_WRITE));
	assert_true(p.flag_on); /* no flag row: the config default */
	assert_int_equal(r.limit, 240);
	assert_int_equal(r.remaining, 239);
	assert_false(r.exceeded);
	row.flag_code = 0;
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), 0);
	assert_false(p.flag_on);
	assert_int_equal(r.remaining, 238);
	row.flag_code = 1;
	cfg.migrator_default = false;
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), 0);
	assert_true(p.flag_on);
}

static void
test_a_known_token_makes_one_round_trip_and_the_flag_is_read_every_time(void **state)
{
	struct config cfg = { .migrator_default = true, .requests_per_minute = 2 };
	struct principal p;
	struct rate r;
	struct err e;

	(void)state;
	err_clear(&e);
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), 0);
	assert_int_equal(row.queries, 1);
	row.name = "changed";
	row.flag_code = 0;
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), 0);
	assert_int_equal(row.queries, 1); /* the owner came from the cache */
	assert_int_equal(row.hits_tried, 2);
	assert_string_equal(p.name, "Ada");
	assert_int_equal(p.user_id, 42);
	assert_false(p.flag_on); /* the flag did not */
	assert_int_equal(r.remaining, 0);
	assert_false(r.exceeded);
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), 0);
	assert_true(r.exceeded); /* the third of 2 per minute */
	/* Revoked (or the secret changed): the statement finds nothing, the cache is not asked. */
	row.present = false;
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), -1);
	assert_int_equal(e.code, ERR_UNAUTHENTICATED);
	assert_int_equal(p.user_id, 0);
	assert_int_equal(row.queries, 1);
}

static void
test_wrong_secret_unknown_id_and_bad_stored_scopes_are_401_alike(void **state)
{
	struct config cfg = { .requests_per_minute = 240 };
	struct principal p;
	struct rate r;
	struct err e;

	(void)state;
	err_clear(&e);
	header[strlen(header) - 1] ^= 1; /* one character of the secret differs */
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), -1);
	assert_int_equal(e.code, ERR_UNAUTHENTICATED);
	assert_int_equal(p.user_id, 0);
	assert_int_equal(row.hits, 0); /* nothing counted in the token's bucket */
	header[strlen(header) - 1] ^= 1;
	row.present = false;
	err_clear(&e);
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), -1);
	assert_int_equal(e.code, ERR_UNAUTHENTICATED);
	row.present = true;
	row.scopes = "account:read root:everything";
	err_clear(&e);
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), -1);
	assert_int_equal(e.code, ERR_UNAUTHENTICATED);
	assert_int_equal(p.user_id, 0);
}

static void
test_malformed_headers_are_401_without_a_query(void **state)
{
	static const char *const bad[] = { NULL, "", "Basic 7|x", "Bearer", "Bearer 7", "Bearer |abc",
		"Bearer x|abc", "Bearer 7|" };
	struct config cfg = { 0 };
	struct principal p;
	struct rate r;
	struct err e;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err_clear(&e);
		assert_int_equal(auth_bearer(NULL, &cfg, bad[i], &p, &r, &e), -1);
		assert_int_equal(e.code, ERR_UNAUTHENTICATED);
	}
	assert_int_equal(row.queries, 0);
	assert_int_equal(row.hits_tried, 0);
}

static void
test_a_lost_database_is_503_not_401(void **state)
{
	struct config cfg = { 0 };
	struct principal p;
	struct rate r;
	struct err e;

	(void)state;
	row.lost = true;
	err_clear(&e);
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), -1);
	assert_int_equal(e.code, ERR_UNAVAILABLE);
	assert_null(strstr(e.detail, secret));
}

static void
test_a_long_multibyte_name_is_cut_on_a_character_boundary(void **state)
{
	struct config cfg = { 0 };
	struct principal p;
	struct rate r;
	struct err e;
	char name[600];

	(void)state;
	for (size_t i = 0; i + 2 < sizeof name; i += 2)
		memcpy(name + i, "\xc3\xa9", 2); /* é, two bytes each */
	name[sizeof name - 2] = '\0';
	row.name = name;
	err_clear(&e);
	assert_int_equal(auth_bearer(NULL, &cfg, header, &p, &r, &e), 0);
	assert_true(strlen(p.name) > 0 && strlen(p.name) < sizeof p.name);
	assert_int_equal(strlen(p.name) % 2, 0); /* whole characters only */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_a_valid_token_gives_its_owner_scopes_flag_and_count, setup),
		cmocka_unit_test_setup(
		    test_a_known_token_makes_one_round_trip_and_the_flag_is_read_every_time, setup),
		cmocka_unit_test_setup(test_wrong_secret_unknown_id_and_bad_stored_scopes_are_401_alike,
		    setup),
		cmocka_unit_test_setup(test_malformed_headers_are_401_without_a_query, setup),
		cmocka_unit_test_setup(test_a_lost_database_is_503_not_401, setup),
		cmocka_unit_test_setup(test_a_long_multibyte_name_is_cut_on_a_character_boundary, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
