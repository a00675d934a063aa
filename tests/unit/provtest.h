/* Helpers shared by the provider unit tests (provtest.c). */
#ifndef MIGRATOR_PROVTEST_H
#define MIGRATOR_PROVTEST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "core/config.h"
#include "providers/common.h"
#include "providers/httpc.h"
#include "providers/provider.h"

typedef prov_parse_fn parse_fn;

/* The fixture tests/unit/fixtures/<rel> (malloc'd, NUL-terminated); *len may be NULL. */
char *fixture_text(const char *rel, size_t *len);
/* A response with this status and body. */
void resp_text(struct httpc_resp *r, long status, const char *text);
void resp_fixture(struct httpc_resp *r, long status, const char *rel);
/* The item of this type and external id (fails the test when absent). */
const struct prov_item *page_find(const struct prov_page *p, const char *type, const char *id);
size_t page_count(const struct prov_page *p, const char *type);
/* Every item of the page is of a kind the registry says provider imports
 * (else the test fails, naming the kind). */
void expect_imported(const char *provider, const struct prov_page *p);
/* Normalized fields; each fails the test when the key is missing or of another type. */
const char *nstr(const struct prov_item *it, const char *key);
int64_t nint(const struct prov_item *it, const char *key);
bool nbool(const struct prov_item *it, const char *key);
bool nnull(const struct prov_item *it, const char *key);
/* The value under key (fails when missing), its compact JSON text with "/"
 * unescaped (static buffer), and one request header of request_headers (NULL
 * when absent). */
json_object *njson(const struct prov_item *it, const char *key);
const char *ntext(const struct prov_item *it, const char *key);
const char *nheader(const struct prov_item *it, const char *name);
/* The id list under key as "a,b,c" (static buffer), and its length. For a
 * list of objects (status page items) each one's monitor_id,
 * "heartbeat:<heartbeat_id>", or "-" without either. */
const char *nids(const struct prov_item *it, const char *key);
size_t nids_len(const struct prov_item *it, const char *key);
bool has_warning(const struct prov_page *p, const char *needle);
/* One expected normalized field of an item, for EXPECT_NORM: a string, an
 * integer, a boolean, null, the compact JSON text (as ntext) or the id list
 * (as nids). */
struct expect {
	const char *key;
	enum { EX_STR, EX_INT, EX_BOOL, EX_NULL, EX_TEXT, EX_IDS } kind;
	const char *s; /* EX_STR, EX_TEXT, EX_IDS */
	int64_t i;     /* EX_INT, EX_BOOL */
};
#define X_STR(k, v) \
	{ \
		k, EX_STR, v, 0 \
	}
#define X_INT(k, v) \
	{ \
		k, EX_INT, NULL, v \
	}
#define X_TRUE(k) \
	{ \
		k, EX_BOOL, NULL, 1 \
	}
#define X_FALSE(k) \
	{ \
		k, EX_BOOL, NULL, 0 \
	}
#define X_NULL(k) \
	{ \
		k, EX_NULL, NULL, 0 \
	}
#define X_TEXT(k, v) \
	{ \
		k, EX_TEXT, v, 0 \
	}
#define X_IDS(k, v) \
	{ \
		k, EX_IDS, v, 0 \
	}
/* Check each expected field of item it (a table of X_* rows); a difference
 * fails the test at the caller's line, naming the key and what it holds. */
#define EXPECT_NORM(it, ...) \
	expect_norm_((it), (const struct expect[]){ __VA_ARGS__ }, \
	    sizeof((const struct expect[]){ __VA_ARGS__ }) / sizeof(struct expect), __FILE__, __LINE__)
void expect_norm_(const struct prov_item *it, const struct expect *x, size_t n, const char *file, int line);

/* Run parse on a fixture (or text) into a fresh page; run_parse_more adds to page. */
enum prov_status run_parse(parse_fn fn, const char *cursor, long status, const char *fixture,
    struct prov_page *page, struct prov_error *err);
enum prov_status run_parse_more(parse_fn fn, const char *cursor, long status, const char *fixture,
    struct prov_page *page, struct prov_error *err);
enum prov_status run_parse_text(parse_fn fn, const char *cursor, long status, const char *text,
    struct prov_page *page, struct prov_error *err);
/* A parse of fixture (HTTP 200) at cursor that must give no items and the
 * next cursor next (NULL: discovery ends); else the test fails at the
 * caller's line. */
#define EXPECT_EMPTY_PAGE(fn, cursor, fixture, next) \
	expect_empty_page_((fn), (cursor), (fixture), (next), __FILE__, __LINE__)
void expect_empty_page_(parse_fn fn, const char *cursor, const char *fixture, const char *next,
    const char *file, int line);
/* A parse that must fail with st; returns err.message (static copy). */
const char *parse_fails(parse_fn fn, const char *cursor, long status, const char *fixture,
    enum prov_status st);

/* A local HTTP server on 127.0.0.1 that serves answers in order, one
 * connection each, and records each request it read. An answer that begins
 * with MINI_DELAY(ms) is sent ms milliseconds after its request was read
 * (without the marker); MINI_SLOW is 2 seconds. */
#define MINI_DELAY(ms) "\001" #ms "\001"
#define MINI_SLOW      MINI_DELAY(2000)
struct mini {
	pid_t pid;
	int port;
	int rd; /* the requests the server received, "\n=====\n" after each */
};
void mini_start(struct mini *m, const char *const *answers);
/* Stop the server and return the requests it saw (static buffer). */
const char *mini_finish(struct mini *m);
/* An HTTP answer (JSON, Connection: close) around body; malloc'd. */
char *answer(const char *status_line, const char *extra_headers, const char *body);
char *answer_fixture(const char *status_line, const char *rel);
/* A config with [provider.<id>] base_url = base (NULL: none); static storage. */
void cfg_init(struct config *c, const char *id, const char *base);
/* A session of provider id against the local server m: base (base[size])
 * becomes "http://127.0.0.1:<port><prefix>", the administrator's base_url. */
void session_on(const char *id, const char *prefix, struct prov_session *s, struct config *cfg,
    const struct mini *m, char *base, size_t size, json_object *creds);
/* One whole fetch against a local server: the server gives answers (a
 * NULL-terminated list, freed here), and provider id's fetch runs at cursor
 * with the credentials creds (a JSON object's text) and the administrator's
 * base URL "http://127.0.0.1:<port><prefix>", into a fresh page and err.
 * Returns the fetch's status; *seen (seen may be NULL) is what the server
 * received (static buffer, until the next fetch). */
enum prov_status fetch_served(const char *id, const char *prefix, const char *creds, const char *cursor,
    char **answers, struct prov_page *page, struct prov_error *err, const char **seen);
/* Free the malloc'd answers of a NULL-terminated list. */
void free_answers(char **answers);

struct CMUnitTest;
/* Run the tests with proxies unset and SIGPIPE ignored; cmocka's exit code. */
int provtest_run(const struct CMUnitTest *tests, size_t n);
#define PROVTEST_RUN(t) provtest_run((t), sizeof(t) / sizeof((t)[0]))

#endif
