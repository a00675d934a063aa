/* The service without its server, for the targets of the two transports
 * (fuzz_rest.c, fuzz_mcp.c): a request read from the fuzzer's text, the
 * config and credentials key of a deployment, and a database faked at link
 * time that answers every statement from the fuzzer's bytes, so that the
 * whole path past validation runs.
 *
 * Input: the request as text, then, after a NUL, the bytes the rest is read
 * from:
 *
 *   METHOD SP URI LF        "POST /api/v1/migrations"
 *   (Name: value LF)*       Authorization, Content-Type, Origin, MCP-Protocol-Version
 *   LF
 *   body                    up to the NUL (or the end)
 *
 * A request without an Authorization header carries the one token the fake
 * database knows; one without a Content-Type says application/json. The
 * bytes after the NUL choose, in order: the token's scopes (each bit set
 * takes one away), whether the database knows the token, the features flag,
 * the token's requests this minute, whether the body was over max_body; then
 * each statement's answer as it is asked (below). Zeros, and the end of the
 * input, choose a known token with every scope, the flag on, the first
 * request of the minute; a query with no rows, a write that changed none.
 *
 * The database fake: the target links with -Wl,--wrap= for every function of
 * src/db/db.c that the rest of src/db calls (the fuzz-ldflags line of
 * fuzz_rest.c and fuzz_mcp.c), as tests/Makemodule.am does for
 * tests/unit/test_auth.c. Each answer is one a MariaDB server could give:
 * text is UTF-8 without control characters (as every text the service
 * stores), a value shaped like a DATETIME is one, JSON columns hold JSON the
 * service writes, integers are ids and counts (0 to 2^40); a column's value
 * is chosen when it is first read and stays the same for the row; strings
 * live until the next row or db_free, as db.c's do (ASan sees any use after).
 * A statement may fail (then a 500 or 503 is the database's doing, not the
 * input's); the token statements (ST_AUTH_HIT, ST_AUTH_TOKEN) answer for
 * the harness's token as the real ones would.
 *
 * Also wrapped: log_msg, so that every log line is checked to be UTF-8
 * instead of written. With MIGRATOR_FUZZ_LOG set, log lines and answers are
 * written to stderr (to see why an input was answered as it was). */
#ifndef MIGRATOR_FAKEAPI_H
#define MIGRATOR_FAKEAPI_H
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <sodium.h>

#include "api/ops.h"
#include "auth/auth.h"
#include "core/config.h"
#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "crypto/seal.h"
#include "crypto/token.h"
#include "db/db.h"
#include "db/runs.h"
#include "http/http.h"
#include "importers/importer.h"
#include "providers/provider.h"
#include "fuzz.h"
#include "../unit/fakedb_columns.h"

#define FAKE_COLS     24 /* more than any statement selects */
#define FAKE_BOUND    4  /* bound strings a column may echo */
#define FAKE_INSERTED 8

/* The token of every request that brings none of its own. */
static const char fake_secret[TOKEN_SECRET_LEN + 1] = "FuzzFuzzFuzzFuzzFuzzFuzzFuzzFuzzFuzzFuzzFuzz0123";

/* One request's database. */
static struct {
	struct fz in;
	int failures;       /* statements that failed: a 5xx is then the database's */
	enum db_class last; /* the class of the last failure */
	uint64_t insert_id; /* of the last write */
	uint64_t token_id;  /* the harness's token, a new id per request (the owner cache misses) */
	unsigned char hash[TOKEN_HASH_LEN];
	bool token_known; /* ST_AUTH_HIT finds it */
	uint32_t scopes;
	int flag;                         /* ST_AUTH_HIT's flag code: 0 off, 1 on, 2 no row decides */
	int64_t hits;                     /* the token's requests this minute, this one included */
	char inserted[FAKE_INSERTED][64]; /* the first string each INSERT bound */
	int ninserted;
} fdb;

/* What a statement bound: its strings (copied), and for ST_AUTH_HIT whether
 * the token id and hash are the harness's token's. */
struct bound {
	char *s[FAKE_BOUND];
	int n;
	bool ours;
};

struct cell {
	bool set, null;
	char *s;
	size_t len;
};

/* A result: the rows still to come, the current row's cells, what the
 * statement bound (for columns that echo it). */
struct db_res {
	int rows;  /* rows still to come */
	bool fail; /* after them, db_next fails */
	bool auth; /* ST_AUTH_TOKEN: the token's row */
	struct cell cells[FAKE_COLS];
	struct bound bound;
};

struct db_res *__wrap_db_query(struct db *, enum stmt_id, const char *, ...);
int __wrap_db_next(struct db_res *);
void __wrap_db_free(struct db_res *);
int64_t __wrap_db_exec(struct db *, enum stmt_id, const char *, ...);
int64_t __wrap_db_vexec_tail(struct db *, enum stmt_id, const char *, va_list, const uint64_t *, size_t);
uint64_t __wrap_db_insert_id(struct db *);
int __wrap_db_scalar(struct db *, int64_t *, enum stmt_id, const char *, ...);
int __wrap_db_begin(struct db *);
int __wrap_db_commit(struct db *);
void __wrap_db_rollback(struct db *);
enum db_class __wrap_db_error_class(struct db *);
const char *__wrap_db_error(struct db *);
int __wrap_db_fail_(struct db *, struct err *, const char *, int);
void __wrap_log_msg(enum log_level, const char *, int, const char *, ...);

/* A failure of the statement now being run. */
static void
fake_fail(void)
{
	static const enum db_class classes[] = { DB_OTHER, DB_LOST, DB_RETRY, DB_DUPLICATE };

	fdb.failures++;
	fdb.last = classes[fz_byte(&fdb.in) % 4];
}

/* The values of ap, described by types as db.h lists them. */
static void
fake_bind(enum stmt_id id, const char *types, va_list ap, struct bound *b)
{
	uint64_t token = 0;

	memset(b, 0, sizeof *b);
	for (const char *t = types; *t; t++) {
		switch (*t) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (s != NULL && b->n < FAKE_BOUND)
				b->s[b->n++] = strdup(s);
			break;
		}
		case 'i':
		case 'I':
			(void)va_arg(ap, int64_t);
			break;
		case 'u':
		case 'U':
			token = va_arg(ap, uint64_t);
			break;
		case 'b': {
			const void *v = va_arg(ap, const void *);
			size_t n = va_arg(ap, size_t);
			b->ours = id == ST_AUTH_HIT && token == fdb.token_id && n == TOKEN_HASH_LEN &&
			    memcmp(v, fdb.hash, n) == 0;
			break;
		}
		default: /* 'n': SQL NULL, no argument */
			break;
		}
	}
}

static void
bound_free(struct bound *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->s[i]);
	b->n = 0;
}

/* Whether a statement looks for a row this request inserted (it binds the
 * first string the INSERT bound: a new run's id): the row is there. */
static bool
fake_wrote(const struct bound *b)
{
	for (int i = 0; i < b->n; i++)
		for (int k = 0; k < fdb.ninserted; k++)
			if (strcmp(b->s[i], fdb.inserted[k]) == 0)
				return true;
	return false;
}

/* How many rows a statement can give, from its SQL: an aggregate without
 * GROUP BY (or a SELECT of expressions) exactly one, a lookup by a primary
 * key (a whole-word "id = ?" outside parentheses) at most one, else any. */
enum fake_rows { ROWS_ANY, ROWS_ONE, ROWS_AT_MOST_ONE };

static enum fake_rows
fake_rows(enum stmt_id id)
{
	static signed char known[ST__COUNT]; /* 0: not yet read, else rule + 1 */
	const char *sql = db_sql[id];
	char top[4096];
	size_t n = 0;
	int depth = 0;

	if (known[id] != 0)
		return (enum fake_rows)(known[id] - 1);
	for (const char *p = sql; *p && n + 1 < sizeof top; p++) { /* the text outside parentheses */
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (depth == 0)
			top[n++] = *p;
	}
	top[n] = '\0';
	if (strstr(top, "GROUP BY") == NULL &&
	    (strncmp(sql, "SELECT COUNT(", 13) == 0 || strstr(top, " FROM ") == NULL))
		known[id] = ROWS_ONE + 1;
	else
		known[id] = ROWS_ANY + 1;
	for (const char *p = top; (p = strstr(p, "id = ?")) != NULL; p++)
		if (p > top && (p[-1] == ' ' || (p[-1] == '.' && p > top + 1 && p[-2] != '_')))
			known[id] = ROWS_AT_MOST_ONE + 1;
	return (enum fake_rows)(known[id] - 1);
}

struct db_res *
__wrap_db_query(struct db *db, enum stmt_id id, const char *types, ...)
{
	struct db_res *r;
	uint8_t q;
	va_list ap;

	(void)db;
	r = calloc(1, sizeof *r);
	va_start(ap, types);
	fake_bind(id, types, ap, &r->bound);
	va_end(ap);
	if (id == ST_AUTH_TOKEN) {
		r->auth = true;
		r->rows = 1;
		return r;
	}
	/* 0xff fails; 0xfe gives 501 rows (past a run detail's 500); 0xf0 to
	 * 0xfd up to 7 rows and then a failing fetch; else 0 to 7 rows; as
	 * many as the statement can give (fake_rows), and a row this request
	 * inserted is there. */
	q = fz_byte(&fdb.in);
	if (q == 0xff) {
		__wrap_db_free(r);
		fake_fail();
		return NULL;
	}
	r->rows = q == 0xfe ? 501 : q % 8;
	r->fail = q >= 0xf0 && q < 0xfe;
	if (r->rows == 0 && fake_wrote(&r->bound))
		r->rows = 1;
	if (fake_rows(id) == ROWS_ONE)
		r->rows = 1;
	else if (fake_rows(id) == ROWS_AT_MOST_ONE && r->rows > 1)
		r->rows = 1;
	return r;
}

static void
cells_clear(struct db_res *r)
{
	for (int i = 0; i < FAKE_COLS; i++)
		free(r->cells[i].s);
	memset(r->cells, 0, sizeof r->cells);
}

int
__wrap_db_next(struct db_res *r)
{
	cells_clear(r);
	if (r->rows == 0) {
		if (r->fail) {
			fake_fail();
			return -1;
		}
		return 0;
	}
	r->rows--;
	return 1;
}

/* A word the service itself stores in some column. */
static const char *
fake_word(uint8_t b)
{
	static const char *const other[] = { "info", "warning", "error", "api", "tool", NULL };
	const char *const *lists[] = { run_states, resource_statuses, resource_actions, other };
	size_t k = b % 64;

	for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
		for (const char *const *w = lists[l]; *w != NULL; w++)
			if (k-- == 0)
				return *w;
	for (size_t i = 0; provider_list[i] != NULL; i++)
		if (k-- == 0)
			return provider_list[i]->id;
	for (size_t i = 0; importer_type_at(i) != NULL; i++)
		if (k-- == 0)
			return importer_type_at(i);
	return "pending";
}

/* JSON the service writes into its JSON columns (a run's stats and options,
 * a log entry's context), or text that is none (jx_put_object's {}). */
static const char *
fake_json(uint8_t b)
{
	static const char *const texts[] = {
		"{\"discovered\":{},\"planned\":{},\"imported\":0,\"skipped\":0,\"failed\":0,\"progress\":0}",
		"{\"discovered\":{\"monitor\":12,\"contact\":3},\"planned\":{\"create\":10,\"skip\":2},"
		"\"imported\":5,\"skipped\":1,\"failed\":2,\"progress\":0.5}",
		"{\"provider\":\"uptimerobot\",\"via\":\"api\"}",
		"{\"retried\":3}",
		"{}",
		"",
		"[1,2]",
		"{\"truncated\":",
	};

	if (b % 10 >= 8)
		return run_options_text(b % 10 == 9);
	return texts[b % 10];
}

/* The value of column col of the current row, chosen now by one byte: NULL,
 * an integer (small, or up to 2^40), a DATETIME (with 0 or 6 digits of
 * fraction, as db.c writes one), a word the service stores, one of the
 * statement's bound strings (a run's own id), stored JSON, or text: UTF-8
 * from the input, cleaned as the service cleans what it stores, that neither
 * looks like a DATETIME nor starts a JSON object (those are the shapes
 * above). */
static void
fake_cell(struct db_res *r, int col, struct cell *c)
{
	char buf[512], raw[256];
	const uint8_t *p;
	size_t n;
	uint8_t b;

	c->set = true;
	if (r->auth) { /* user id, token hash, scopes, name, email */
		if (col == 1) {
			c->s = malloc(TOKEN_HASH_LEN);
			memcpy(c->s, fdb.hash, TOKEN_HASH_LEN);
			c->len = TOKEN_HASH_LEN;
			return;
		}
		if (col == 2) {
			buf[0] = '\0';
			for (int i = 0; i < SC__COUNT; i++)
				if (fdb.scopes >> i & 1)
					snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s",
					    buf[0] ? "," : "", scope_name((enum scope)i));
			c->s = strdup(buf);
			c->len = strlen(buf);
			return;
		}
		if (col == 0) {
			c->s = strdup("42");
			c->len = 2;
			return;
		}
	}
	b = fz_byte(&fdb.in);
	switch (b % 8) {
	case 0:
		c->null = true;
		return;
	case 1:
		snprintf(buf, sizeof buf, "%u", b >> 3);
		break;
	case 2:
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)fz_bits(&fdb.in, 5));
		break;
	case 3: {
		unsigned y = 1000 + (unsigned)fz_bits(&fdb.in, 2) % 9000, mo = 1 + fz_byte(&fdb.in) % 12;
		unsigned d = 1 + fz_byte(&fdb.in) % 28, h = fz_byte(&fdb.in) % 24, mi = fz_byte(&fdb.in) % 60;
		unsigned s = fz_byte(&fdb.in) % 60;
		snprintf(buf, sizeof buf, "%04u-%02u-%02u %02u:%02u:%02u%s", y, mo, d, h, mi, s,
		    b & 8 ? ".123456" : "");
		break;
	}
	case 4:
		snprintf(buf, sizeof buf, "%s", fake_word(fz_byte(&fdb.in)));
		break;
	case 5:
		if (r->bound.n > 0)
			snprintf(buf, sizeof buf, "%s", r->bound.s[(b >> 3) % r->bound.n]);
		else
			snprintf(buf, sizeof buf, "0192b8e4-5c1a-7c3e-9f00-aabbccddee%02x", b);
		break;
	case 6:
		snprintf(buf, sizeof buf, "%s", fake_json(fz_byte(&fdb.in)));
		break;
	default:
		n = fz_take(&fdb.in, fz_byte(&fdb.in), &p);
		memcpy(raw, p, n);
		raw[n] = '\0';
		utf8_clean(buf, sizeof buf, raw, 255);
		if (buf[0] == '{' || buf[0] == '[')
			buf[0] = '(';
		if (strlen(buf) >= 19 && buf[4] == '-' && buf[7] == '-' && buf[13] == ':' && buf[16] == ':')
			buf[13] = '.';
	}
	c->s = strdup(buf);
	c->len = strlen(buf);
}

const char *
__wrap_db_strn(struct db_res *r, int col, size_t *len)
{
	struct cell *c;

	*len = 0;
	if (col < 0 || col >= FAKE_COLS)
		return NULL;
	c = &r->cells[col];
	if (!c->set)
		fake_cell(r, col, c);
	if (c->null)
		return NULL;
	*len = c->len;
	return c->s;
}

void
__wrap_db_free(struct db_res *r)
{
	if (r == NULL)
		return;
	cells_clear(r);
	bound_free(&r->bound);
	free(r);
}

/* A write's rows changed: 0xff fails, else 0 to 3 (its insert id the byte),
 * but an INSERT inserts its row. */
static int64_t
fake_write(enum stmt_id id, const char *types, va_list ap)
{
	struct bound bound;
	uint8_t b;

	fake_bind(id, types, ap, &bound);
	if (id == ST_AUTH_HIT) {
		bound_free(&bound);
		if (!bound.ours || !fdb.token_known)
			return 0;
		fdb.insert_id = (uint64_t)fdb.hits * 4 + (uint64_t)fdb.flag;
		return 1;
	}
	b = fz_byte(&fdb.in);
	if (id == ST_RL_HIT) { /* the bucket's count this minute, this hit included */
		bound_free(&bound);
		fdb.insert_id = (uint64_t)b + 1;
		return 1;
	}
	if (b == 0xff) {
		bound_free(&bound);
		fake_fail();
		return -1;
	}
	fdb.insert_id = b;
	if (strncmp(db_sql[id], "INSERT", 6) == 0) {
		if (bound.n > 0 && fdb.ninserted < FAKE_INSERTED)
			snprintf(fdb.inserted[fdb.ninserted++], sizeof fdb.inserted[0], "%s", bound.s[0]);
		bound_free(&bound);
		return 1;
	}
	bound_free(&bound);
	return b % 4;
}

int64_t
__wrap_db_exec(struct db *db, enum stmt_id id, const char *types, ...)
{
	va_list ap;
	int64_t n;

	(void)db;
	va_start(ap, types);
	n = fake_write(id, types, ap);
	va_end(ap);
	return n;
}

int64_t
__wrap_db_vexec_tail(struct db *db, enum stmt_id id, const char *types, va_list ap, const uint64_t *tail,
    size_t ntail)
{
	va_list copy;
	int64_t n;

	(void)db;
	(void)tail;
	(void)ntail;
	va_copy(copy, ap);
	n = fake_write(id, types, copy);
	va_end(copy);
	return n;
}

uint64_t
__wrap_db_insert_id(struct db *db)
{
	(void)db;
	return fdb.insert_id;
}

int
__wrap_db_scalar(struct db *db, int64_t *out, enum stmt_id id, const char *types, ...)
{
	uint8_t b = fz_byte(&fdb.in);

	(void)db;
	(void)id;
	(void)types;
	if (b == 0xff) {
		fake_fail();
		return -1;
	}
	if (b % 2 == 0)
		return 0;
	*out = b >> 1;
	return 1;
}

/* Transactions: BEGIN and COMMIT fail on 0xff. */
static int
fake_simple(void)
{
	if (fz_byte(&fdb.in) != 0xff)
		return 0;
	fake_fail();
	return -1;
}

int
__wrap_db_begin(struct db *db)
{
	(void)db;
	return fake_simple();
}

int
__wrap_db_commit(struct db *db)
{
	(void)db;
	return fake_simple();
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
	return fdb.last;
}

const char *
__wrap_db_error(struct db *db)
{
	(void)db;
	return "the fake database failed";
}

int
__wrap_db_fail_(struct db *db, struct err *e, const char *file, int line)
{
	(void)db;
	e->code = fdb.last == DB_LOST ? ERR_UNAVAILABLE : ERR_INTERNAL;
	e->file = file;
	e->line = line;
	e->msg[0] = '\0';
	snprintf(e->detail, sizeof e->detail, "database: the fake database failed");
	return -1;
}

void
__wrap_log_msg(enum log_level lvl, const char *file, int line, const char *fmt, ...)
{
	va_list ap, again;
	char *text;
	int n;

	(void)lvl;
	va_start(ap, fmt);
	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	text = malloc((size_t)n + 1);
	vsnprintf(text, (size_t)n + 1, fmt, again);
	va_end(again);
	va_end(ap);
	FUZZ_CHECK(utf8_valid(text, (size_t)n), "a log line (%s:%d) is not UTF-8: %s", file, line, text);
	if (getenv("MIGRATOR_FUZZ_LOG") != NULL) /* to see why a run answered as it did */
		fprintf(stderr, "log: %s:%d: %s\n", file, line, text);
	free(text);
}

/* ---- the service: config, key, and one request ---- */

static struct config fake_cfg;
static struct app fake_app;
static char fake_db_handle; /* never read: every call on it is faked */

/* The documented statuses of each operation (docs/openapi.yaml), read once. */
struct documented {
	char method[8];
	char path[96];
	char statuses[160]; /* " 200 400 ..." */
};
static struct documented documented[32];
static size_t ndocumented;

/* The source tree's top, from where this file is ("" when it was given as a
 * relative path: run.sh builds and runs from the same folder). */
static void
fake_top(char *out, size_t size)
{
	const char *at = strstr(__FILE__, "tests/fuzz/");

	snprintf(out, size, "%.*s", at ? (int)(at - __FILE__) : 0, __FILE__);
}

/* Each operation's response statuses from docs/openapi.yaml: its paths are
 * the lines "  /path:", methods "    get:", statuses "        \"404\":". */
static void
fake_read_openapi(void)
{
	char top[1024], path[1200], line[512], cur[96] = "";
	FILE *f;

	fake_top(top, sizeof top);
	snprintf(path, sizeof path, "%sdocs/openapi.yaml", top);
	if ((f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "fakeapi: cannot read %s (run from the source tree's top)\n", path);
		abort();
	}
	while (fgets(line, sizeof line, f) != NULL && strncmp(line, "components:", 11) != 0) {
		char word[96];
		unsigned code;

		if (sscanf(line, "  %95[^: ]:", word) == 1 && line[2] == '/' && line[3] != ' ')
			snprintf(cur, sizeof cur, "%s", word);
		else if (cur[0] && strncmp(line, "    ", 4) == 0 && line[4] != ' ' &&
		    sscanf(line + 4, "%7[a-z]:", word) == 1 && ndocumented < 32) {
			struct documented *d = &documented[ndocumented++];
			for (size_t i = 0; word[i]; i++)
				word[i] = (char)(word[i] - 32);
			snprintf(d->method, sizeof d->method, "%s", word);
			snprintf(d->path, sizeof d->path, "%s", cur);
		} else if (ndocumented > 0 && sscanf(line, "        \"%3u\":", &code) == 1) {
			struct documented *d = &documented[ndocumented - 1];
			snprintf(d->statuses + strlen(d->statuses), sizeof d->statuses - strlen(d->statuses),
			    " %u", code);
		}
	}
	fclose(f);
	FUZZ_CHECK(ndocumented >= OP__COUNT, "docs/openapi.yaml lists %zu operations", ndocumented);
}

/* path against a documented path, whose "{run}" stands for one segment. */
static bool
fake_path_match(const char *tmpl, const char *path)
{
	while (*tmpl && *path) {
		if (strncmp(tmpl, "{run}", 5) == 0) {
			size_t n = strcspn(path, "/");
			if (n == 0)
				return false;
			path += n;
			tmpl += 5;
		} else if (*tmpl++ != *path++)
			return false;
	}
	return *tmpl == '\0' && *path == '\0';
}

/* Whether status is documented for a request of method to path: the
 * statuses of the operation; for a path with operations but not this method
 * those of any of them (a 405 among them); for another path what any request
 * may get before routing (400, 401, 404, 414, 429, 431, 500, 503). */
static bool
fake_documented(const char *method, const char *path, int status)
{
	char code[8];
	bool known = false, any = false;

	snprintf(code, sizeof code, " %d", status);
	for (size_t i = 0; i < ndocumented; i++) {
		const char *s = documented[i].statuses;
		const char *hit;

		if (!fake_path_match(documented[i].path, path))
			continue;
		hit = strstr(s, code);
		if (strcmp(documented[i].method, method) == 0)
			return hit != NULL && (hit[strlen(code)] == ' ' || hit[strlen(code)] == '\0');
		known = true;
		any = any || (hit != NULL && (hit[strlen(code)] == ' ' || hit[strlen(code)] == '\0'));
	}
	if (known)
		return any;
	return status == 400 || status == 401 || status == 404 || status == 414 || status == 429 ||
	    status == 431 || status == 500 || status == 503;
}

/* The config a deployment has (the example's defaults, a public URL, an
 * allowed origin, one provider whose URL the administrator set) and a
 * credentials key; the fake database; no log output. */
static void
fake_init(void)
{
	static const char conf[] = "[http]\npublic_url = https://migrator.example.test\n"
	                           "allowed_origins = https://app.example.test\n"
	                           "[provider.healthchecks]\nbase_url = https://hc.example.test\n";
	char path[] = "/tmp/migrator-fuzz-XXXXXX", key[64];
	struct err e;
	int fd;

	if (sodium_init() < 0 || (fd = mkstemp(path)) < 0)
		abort();
	FUZZ_CHECK(write(fd, conf, sizeof conf - 1) == (ssize_t)sizeof conf - 1, "cannot write %s", path);
	close(fd);
	err_clear(&e);
	FUZZ_CHECK(config_load(&fake_cfg, path, &e) == 0, "config: %s", e.msg);
	unlink(path);
	snprintf(key, sizeof key, "%s.key", path);
	FUZZ_CHECK(seal_key_generate(key, &e) == 0, "key: %s", e.msg);
	fake_app.key = seal_key_load(key, &e);
	unlink(key);
	FUZZ_CHECK(fake_app.key != NULL, "key: %s", e.msg);
	fake_app.cfg = &fake_cfg;
	fake_app.db = (struct db *)(void *)&fake_db_handle;
	token_hash(fake_secret, TOKEN_SECRET_LEN, fdb.hash);
	fake_read_openapi();
}

/* One request, read from the input (see the top of this file). */
struct fake_req {
	struct http_req req;
	char *text; /* the request's text (owned); req points into it */
	char path[HTTP_MAX_PATH + 1];
	char auth[128];
	const char *uri;
};

/* Header name: its value (in place, the line cut at its end), or NULL. */
static void
fake_header(struct fake_req *f, char *line)
{
	char *colon = strchr(line, ':'), *v;
	const char **to = NULL;

	if (colon == NULL)
		return;
	*colon = '\0';
	for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
		;
	if (strcasecmp(line, "Authorization") == 0)
		to = &f->req.authorization;
	else if (strcasecmp(line, "Content-Type") == 0)
		to = &f->req.content_type;
	else if (strcasecmp(line, "Origin") == 0)
		to = &f->req.origin;
	else if (strcasecmp(line, "MCP-Protocol-Version") == 0)
		to = &f->req.protocol_version;
	else if (strcasecmp(line, "Host") == 0)
		to = &f->req.host;
	if (to == NULL)
		return;
	*to = v;
	/* fcgi.c: a header we read over HTTP_MAX_HEADER bytes is a 431 */
	if (strlen(v) > HTTP_MAX_HEADER)
		f->req.refused = ERR_HEADERS_TOO_LARGE;
}

/* Read the request and set up the database for it. */
static void
fake_request(struct fake_req *f, const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t tlen = nul ? (size_t)(nul - data) : size, plen;
	char *line, *next, *q;
	uint8_t env;

	memset(f, 0, sizeof *f);
	memset(&fdb.in, 0, sizeof fdb.in);
	fdb.in = (struct fz){ nul ? nul + 1 : data + size, nul ? size - tlen - 1 : 0 };
	fdb.failures = 0;
	fdb.last = DB_OK;
	fdb.insert_id = 0;
	fdb.ninserted = 0;
	fdb.token_id++;
	fdb.scopes = ~(uint32_t)fz_bits(&fdb.in, 2) & ((1u << SC__COUNT) - 1);
	env = fz_byte(&fdb.in);
	fdb.token_known = (env & 1) == 0;
	fdb.flag = (env >> 1) % 3 == 0 ? 1 : (env >> 1) % 3 == 1 ? 0 : 2;
	env = fz_byte(&fdb.in);
	fdb.hits = env < 200 ? 1 : 230 + (env - 200); /* around the limit of 240 */

	f->text = strndup((const char *)data, tlen);
	line = f->text;
	next = strchr(line, '\n');
	if (next != NULL)
		*next++ = '\0';
	line[strcspn(line, "\r")] = '\0';
	f->req.method = line;
	f->uri = "";
	if ((q = strchr(line, ' ')) != NULL) {
		*q = '\0';
		f->uri = q + 1;
	}
	f->req.body = "";
	while (next != NULL) {
		line = next;
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		line[strcspn(line, "\r")] = '\0';
		if (line[0] == '\0') {
			f->req.body = next ? next : "";
			break;
		}
		fake_header(f, line);
	}
	f->req.body_len = strlen(f->req.body);
	/* as fcgi.c reads the URI and the body */
	q = strchr(f->uri, '?');
	plen = q ? (size_t)(q - f->uri) : strlen(f->uri);
	if (plen > HTTP_MAX_PATH || strlen(f->uri) > HTTP_MAX_URI) {
		f->req.refused = ERR_URI_TOO_LONG;
		plen = 0;
	}
	memcpy(f->path, f->uri, plen);
	f->path[plen] = '\0';
	f->req.path = f->path;
	f->req.query = q ? q + 1 : "";
	if ((fz_byte(&fdb.in) & 1) || f->req.body_len > (size_t)fake_cfg.max_body) {
		f->req.body_too_large = true;
		f->req.body = "";
		f->req.body_len = 0;
	}
	if (f->req.authorization == NULL) {
		snprintf(f->auth, sizeof f->auth, "Bearer %llu|%s", (unsigned long long)fdb.token_id,
		    fake_secret);
		f->req.authorization = f->auth;
	}
	if (f->req.content_type == NULL)
		f->req.content_type = "application/json";
	f->req.remote_addr = "192.0.2.7";
	snprintf(f->req.request_id, sizeof f->req.request_id, "00000000fuzzfuzz");
}

static void
fake_request_free(struct fake_req *f)
{
	free(f->text);
}

/* What every answer must be: a documented status (500 and 503 only when the
 * database failed), and for any status but 202 and 204 a body of UTF-8 JSON,
 * an object; an error body of REST ({"message","code"}, "errors" of field
 * messages on 422) or of JSON-RPC is checked by the target. Returns the body
 * parsed (the caller puts it), NULL for none. */
static json_object *
fake_check_answer(const struct fake_req *f, const struct http_resp *resp)
{
	json_object *o;
	int ok;

	if (getenv("MIGRATOR_FUZZ_LOG") != NULL)
		fprintf(stderr, "answer: %d %.*s\n", resp->status, resp->body ? (int)resp->body_len : 0,
		    resp->body ? resp->body : "");
	FUZZ_CHECK(fake_documented(f->req.method, f->req.path, resp->status),
	    "%s %s: status %d is not documented", f->req.method, f->req.path, resp->status);
	FUZZ_CHECK(resp->status < 500 || fdb.failures > 0, "%s %s: status %d without a database failure",
	    f->req.method, f->req.path, resp->status);
	if (resp->status == 202 && resp->body == NULL)
		return NULL;
	if (resp->status == 204) {
		FUZZ_CHECK(resp->body == NULL, "a 204 with a body");
		return NULL;
	}
	FUZZ_CHECK(resp->body != NULL, "status %d without a body", resp->status);
	FUZZ_CHECK(utf8_valid(resp->body, resp->body_len), "the body is not UTF-8: %.*s", (int)resp->body_len,
	    resp->body);
	if (resp->content_type != NULL) { /* a report as CSV: UTF-8 text, only on a 200 */
		FUZZ_CHECK(resp->status == 200 && strcmp(resp->content_type, "text/csv; charset=utf-8") == 0,
		    "a %d answer as %s", resp->status, resp->content_type);
		return NULL;
	}
	o = jx_parse(resp->body, resp->body_len, &ok);
	FUZZ_CHECK(ok && json_object_is_type(o, json_type_object), "the body is not a JSON object: %.*s",
	    (int)resp->body_len, resp->body);
	return o;
}

static const char *
fake_header_of(const struct http_resp *r, const char *name)
{
	for (int i = 0; i < r->nheaders; i++)
		if (strcasecmp(r->headers[i].name, name) == 0)
			return r->headers[i].value;
	return NULL;
}

/* The headers every answer has (nosniff, no-store), a 405's Allow and a
 * 429's Retry-After. */
static void
fake_check_headers(const struct http_resp *resp)
{
	const char *v = fake_header_of(resp, "X-Content-Type-Options");

	FUZZ_CHECK(v != NULL && strcmp(v, "nosniff") == 0, "no nosniff");
	v = fake_header_of(resp, "Cache-Control");
	FUZZ_CHECK(v != NULL && strcmp(v, "no-store") == 0, "no no-store");
	FUZZ_CHECK(resp->status != 405 || fake_header_of(resp, "Allow") != NULL, "a 405 without Allow");
	FUZZ_CHECK(resp->status != 429 || fake_header_of(resp, "Retry-After") != NULL,
	    "a 429 without Retry-After");
}

#endif
