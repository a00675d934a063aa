/* Helpers shared by the provider unit tests: fixtures, recorded responses,
 * normalized-field readers, parse runners, a local HTTP server of N answers
 * and provider configs. Failures end the current test. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/xalloc.h"
#include "provtest.h"

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "tests/unit/fixtures"
#endif

char *
fixture_text(const char *rel, size_t *len)
{
	char path[512];
	FILE *fp;
	long n;
	char *buf;

	snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, rel);
	fp = fopen(path, "rb");
	if (fp == NULL)
		fail_msg("cannot open fixture %s", path);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = xmalloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	if (len != NULL)
		*len = (size_t)n;
	return buf;
}

void
resp_text(struct httpc_resp *r, long status, const char *text)
{
	memset(r, 0, sizeof *r);
	r->status = status;
	r->body = xstrdup(text);
	r->len = strlen(text);
}

void
resp_fixture(struct httpc_resp *r, long status, const char *rel)
{
	memset(r, 0, sizeof *r);
	r->status = status;
	r->body = fixture_text(rel, &r->len);
}

const struct prov_item *
page_find(const struct prov_page *p, const char *type, const char *id)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->items[i].resource_type, type) == 0 && strcmp(p->items[i].external_id, id) == 0)
			return &p->items[i];
	fail_msg("no %s item with external id %s in the page", type, id);
	return NULL;
}

size_t
page_count(const struct prov_page *p, const char *type)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += strcmp(p->items[i].resource_type, type) == 0;
	return n;
}

void
expect_imported(const char *provider, const struct prov_page *p)
{
	const struct provider_def *def = provider_find(provider);

	assert_non_null(def);
	for (size_t i = 0; i < p->n; i++) {
		size_t k = 0;

		while (def->imports[k] != NULL && strcmp(def->imports[k], p->items[i].resource_type) != 0)
			k++;
		if (def->imports[k] == NULL)
			fail_msg("%s gave a %s, which its registry row does not import", provider,
			    p->items[i].resource_type);
	}
}

const char *
nstr(const struct prov_item *it, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(it->norm, key, &v))
		fail_msg("normalized %s lacks key %s", it->external_id, key);
	return v == NULL ? NULL : json_object_get_string(v);
}

int64_t
nint(const struct prov_item *it, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(it->norm, key, &v) || !json_object_is_type(v, json_type_int))
		fail_msg("normalized %s: %s is not an integer", it->external_id, key);
	return json_object_get_int64(v);
}

bool
nbool(const struct prov_item *it, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(it->norm, key, &v) || !json_object_is_type(v, json_type_boolean))
		fail_msg("normalized %s: %s is not a boolean", it->external_id, key);
	return json_object_get_boolean(v);
}

bool
nnull(const struct prov_item *it, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(it->norm, key, &v))
		fail_msg("normalized %s lacks key %s", it->external_id, key);
	return v == NULL;
}

json_object *
njson(const struct prov_item *it, const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(it->norm, key, &v))
		fail_msg("normalized %s lacks key %s", it->external_id, key);
	return v;
}

const char *
ntext(const struct prov_item *it, const char *key)
{
	static char buf[8192];

	snprintf(buf, sizeof buf, "%s",
	    json_object_to_json_string_ext(njson(it, key),
	        JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	return buf;
}

const char *
nheader(const struct prov_item *it, const char *name)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(njson(it, "request_headers"), name, &v))
		return NULL;
	return json_object_get_string(v);
}

/* The id list under key as "a,b,c" (buffer). */
const char *
nids(const struct prov_item *it, const char *key)
{
	static char buf[4096];
	json_object *v;

	buf[0] = '\0';
	if (!json_object_object_get_ex(it->norm, key, &v) || !json_object_is_type(v, json_type_array))
		fail_msg("normalized %s: %s is not an array", it->external_id, key);
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *e = json_object_array_get_idx(v, i), *id = NULL;

		/* status page items: their monitor_id, "heartbeat:<id>", or "-" without either */
		if (i > 0)
			strcat(buf, ",");
		if (json_object_is_type(e, json_type_object) &&
		    json_object_object_get_ex(e, "heartbeat_id", &id) && id != NULL) {
			strcat(buf, "heartbeat:");
			strcat(buf, json_object_get_string(id));
			continue;
		}
		if (json_object_is_type(e, json_type_object)) {
			json_object_object_get_ex(e, "monitor_id", &id);
			e = id;
		}
		if (e == NULL && id == NULL &&
		    json_object_is_type(json_object_array_get_idx(v, i), json_type_object)) {
			strcat(buf, "-");
			continue;
		}
		assert_true(json_object_is_type(e, json_type_string));
		strcat(buf, json_object_get_string(e));
	}
	return buf;
}

size_t
nids_len(const struct prov_item *it, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(it->norm, key, &v) || !json_object_is_type(v, json_type_array))
		fail_msg("normalized %s: %s is not an array", it->external_id, key);
	return json_object_array_length(v);
}

/* Whether v is what x expects. */
static bool
expect_holds(const struct prov_item *it, json_object *v, const struct expect *x)
{
	switch (x->kind) {
	case EX_STR:
		return json_object_is_type(v, json_type_string) &&
		    strcmp(json_object_get_string(v), x->s) == 0;
	case EX_INT:
		return json_object_is_type(v, json_type_int) && json_object_get_int64(v) == x->i;
	case EX_BOOL:
		return json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v) == (x->i != 0);
	case EX_NULL:
		return v == NULL;
	case EX_TEXT:
		return strcmp(ntext(it, x->key), x->s) == 0;
	case EX_IDS:
		return strcmp(nids(it, x->key), x->s) == 0;
	}
	return false;
}

void
expect_norm_(const struct prov_item *it, const struct expect *x, size_t n, const char *file, int line)
{
	for (size_t i = 0; i < n; i++) {
		json_object *v = NULL;

		if (!json_object_object_get_ex(it->norm, x[i].key, &v)) {
			print_error("normalized %s lacks key %s\n", it->external_id, x[i].key);
			_fail(file, line);
		}
		if (!expect_holds(it, v, &x[i])) {
			char want[32];

			if (x[i].kind == EX_INT)
				snprintf(want, sizeof want, "%lld", (long long)x[i].i);
			else
				snprintf(want, sizeof want, "%s",
				    x[i].kind == EX_NULL ? "null" :
				        x[i].i != 0      ? "true" :
				                           "false");
			print_error("normalized %s: %s is %s, not %s\n", it->external_id, x[i].key,
			    json_object_to_json_string_ext(v,
			        JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
			    x[i].s != NULL ? x[i].s : want);
			_fail(file, line);
		}
	}
}

bool
has_warning(const struct prov_page *p, const char *needle)
{
	for (size_t i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], needle) != NULL)
			return true;
	return false;
}

/* Run parse on r (freed here) into page, with a fresh err. */
static enum prov_status
parse_resp(parse_fn fn, const char *cursor, struct httpc_resp *r, struct prov_page *page,
    struct prov_error *err)
{
	enum prov_status st;

	memset(err, 0, sizeof *err);
	st = fn(cursor, r, page, err);
	httpc_resp_free(r);
	return st;
}

/* Run parse on a fixture into a fresh page. */
enum prov_status
run_parse(parse_fn fn, const char *cursor, long status, const char *fixture, struct prov_page *page,
    struct prov_error *err)
{
	struct httpc_resp r;

	memset(page, 0, sizeof *page);
	resp_fixture(&r, status, fixture);
	return parse_resp(fn, cursor, &r, page, err);
}

/* The same into an existing page (a statuspage fetch fills one page twice). */
enum prov_status
run_parse_more(parse_fn fn, const char *cursor, long status, const char *fixture, struct prov_page *page,
    struct prov_error *err)
{
	struct httpc_resp r;

	free(page->next_cursor);
	page->next_cursor = NULL;
	resp_fixture(&r, status, fixture);
	return parse_resp(fn, cursor, &r, page, err);
}

enum prov_status
run_parse_text(parse_fn fn, const char *cursor, long status, const char *text, struct prov_page *page,
    struct prov_error *err)
{
	struct httpc_resp r;

	memset(page, 0, sizeof *page);
	resp_text(&r, status, text);
	return parse_resp(fn, cursor, &r, page, err);
}

void
expect_empty_page_(parse_fn fn, const char *cursor, const char *fixture, const char *next, const char *file,
    int line)
{
	struct prov_page p;
	struct prov_error e;
	enum prov_status st = run_parse(fn, cursor, 200, fixture, &p, &e);
	bool ok = st == PROV_OK && p.n == 0 &&
	    (next == NULL ? p.next_cursor == NULL :
	                    p.next_cursor != NULL && strcmp(p.next_cursor, next) == 0);

	if (!ok)
		print_error("%s at %s: status %d, %zu items, next cursor %s; expected no items, then %s\n",
		    fixture, cursor != NULL ? cursor : "the start", (int)st, p.n,
		    p.next_cursor ? p.next_cursor : "none", next != NULL ? next : "none");
	prov_page_free(&p);
	if (!ok)
		_fail(file, line);
}

/* A parse that must fail with st; returns err.message (copy). */
const char *
parse_fails(parse_fn fn, const char *cursor, long status, const char *fixture, enum prov_status st)
{
	static char msg[256];
	struct prov_page p;
	struct prov_error e;
	enum prov_status got = run_parse(fn, cursor, status, fixture, &p, &e);

	if (got != st)
		fail_msg("%s with %s (HTTP %ld): status %d, expected %d (%s)", fixture,
		    cursor ? cursor : "start", status, got, st, e.message);
	assert_int_equal(e.status, st);
	snprintf(msg, sizeof msg, "%s", e.message);
	prov_page_free(&p);
	return msg;
}

/* ------------------------------------------- a local server of N answers */

/* Read one request from c into buf (headers and the body Content-Length
 * announces, at most size - 1 bytes); its length. */
static size_t
read_request(int c, char *buf, size_t size)
{
	size_t n = 0;

	for (;;) {
		char *end, *cl;
		size_t need;
		ssize_t k = read(c, buf + n, size - 1 - n);

		if (k <= 0)
			return n;
		n += (size_t)k;
		buf[n] = '\0';
		if ((end = strstr(buf, "\r\n\r\n")) == NULL)
			continue;
		need = (size_t)(end + 4 - buf);
		if ((cl = strcasestr(buf, "\ncontent-length:")) != NULL && cl < end)
			need += (size_t)strtoul(cl + 16, NULL, 10);
		if (n >= need || n == size - 1)
			return n;
	}
}

/* Serve the answers in order, one connection each. */
void
mini_start(struct mini *m, const char *const *answers)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof a;
	int fd, p[2];

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true((fd = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(fd, 8), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &alen), 0);
	m->port = ntohs(a.sin_port);
	assert_int_equal(pipe(p), 0);
	m->pid = fork();
	assert_true(m->pid >= 0);
	if (m->pid == 0) {
		static char buf[65536];

		close(p[0]);
		alarm(20);
		for (size_t i = 0; answers[i] != NULL; i++) {
			const char *ans = answers[i];
			size_t n, off = 0, len;
			ssize_t k;
			int c;

			if ((c = accept(fd, NULL, NULL)) < 0)
				_exit(1);
			n = read_request(c, buf, sizeof buf);
			if (write(p[1], buf, n) < 0 || write(p[1], "\n=====\n", 7) < 0)
				_exit(1);
			if (ans[0] == '\001') {
				char *end;
				long ms = strtol(ans + 1, &end, 10);
				struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

				nanosleep(&ts, NULL);
				ans = end + 1;
			}
			len = strlen(ans);
			while (off < len && (k = write(c, ans + off, len - off)) > 0)
				off += (size_t)k;
			shutdown(c, SHUT_RDWR);
			close(c);
		}
		_exit(0);
	}
	close(fd);
	close(p[1]);
	m->rd = p[0];
}

/* Stop the server (it may still wait for a request that never came) and
 * return the requests it saw (static buffer). */
const char *
mini_finish(struct mini *m)
{
	static char req[262144];
	size_t n = 0;
	ssize_t k;
	int status;

	kill(m->pid, SIGTERM);
	while (n < sizeof req - 1 && (k = read(m->rd, req + n, sizeof req - 1 - n)) > 0)
		n += (size_t)k;
	req[n] = '\0';
	close(m->rd);
	waitpid(m->pid, &status, 0);
	return req;
}

/* An HTTP answer around a body (malloc'd). */
char *
answer(const char *status_line, const char *extra_headers, const char *body)
{
	return xasprintf("HTTP/1.1 %s\r\nContent-Type: application/json\r\n%sContent-Length: %zu\r\n"
	                 "Connection: close\r\n\r\n%s",
	    status_line, extra_headers, strlen(body), body);
}

char *
answer_fixture(const char *status_line, const char *rel)
{
	char *body = fixture_text(rel, NULL), *a = answer(status_line, "", body);

	free(body);
	return a;
}

static struct config_kv test_kv[4];

/* A config with [provider.<id>] base_url = base (NULL: none). */
void
cfg_init(struct config *c, const char *id, const char *base)
{
	static char section[64];

	memset(c, 0, sizeof *c);
	c->provider_wait_min = 1; /* the built-in defaults of [limits] */
	c->provider_wait_max = 900;
	snprintf(section, sizeof section, "provider.%s", id);
	c->kv = test_kv;
	c->nkv = 0;
	if (base != NULL) {
		test_kv[0] = (struct config_kv){ section, "base_url", (char *)base };
		c->nkv = 1;
	}
}

int
provtest_run(const struct CMUnitTest *tests, size_t n)
{
	/* Requests in these tests go to 127.0.0.1 directly, never via a proxy. */
	static const char *const proxies[] = { "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY",
		"all_proxy", "ALL_PROXY" };

	for (size_t i = 0; i < sizeof proxies / sizeof proxies[0]; i++)
		unsetenv(proxies[i]);
	signal(SIGPIPE, SIG_IGN);
	return _cmocka_run_group_tests("provider tests", tests, n, NULL, NULL);
}

void
session_on(const char *id, const char *prefix, struct prov_session *s, struct config *cfg,
    const struct mini *m, char *base, size_t size, json_object *creds)
{
	struct prov_error e = { 0 };

	snprintf(base, size, "http://127.0.0.1:%d%s", m->port, prefix);
	cfg_init(cfg, id, base);
	assert_int_equal(prov_session_init(s, provider_find(id), cfg, creds, &e), 0);
	assert_false(s->base_url_untrusted); /* the administrator's URL */
}

void
free_answers(char **answers)
{
	for (size_t i = 0; answers[i] != NULL; i++)
		free(answers[i]);
}

enum prov_status
fetch_served(const char *id, const char *prefix, const char *creds, const char *cursor, char **answers,
    struct prov_page *page, struct prov_error *err, const char **seen)
{
	json_object *c = json_tokener_parse(creds);
	struct prov_session s;
	struct config cfg;
	struct mini m;
	char base[96];
	const char *got;
	enum prov_status st;

	assert_non_null(c);
	memset(page, 0, sizeof *page);
	memset(err, 0, sizeof *err);
	mini_start(&m, (const char *const *)answers);
	session_on(id, prefix, &s, &cfg, &m, base, sizeof base, c);
	st = s.def->ops->fetch(&s, cursor, page, err);
	got = mini_finish(&m);
	if (seen != NULL)
		*seen = got;
	free_answers(answers);
	json_object_put(c);
	return st;
}
