/* libFuzzer target: each provider's whole discovery, page after page, on a
 * fake transport: httpc_do is replaced at link time by a fake that answers
 * each request with the next answer of the input. def->ops->fetch runs from
 * the cursor NULL through each next_cursor until discovery ends, fails, or
 * 50 pages have been read (the runner's own loop, without its database).
 *
 * Input: a byte choosing the provider (of the nine), a byte of session
 * choices (bit 0: the administrator set [provider.<id>] base_url; bit 1: the
 * optional credential fields are given; bit 2: discovery resumes at the
 * checkpoint given on the first line instead of the start), then the
 * answers, parted by a line "%%". An answer is its status line (the HTTP status; -1 a transport
 * failure that retrying may cure, -2 one it cannot), header lines
 * "name: value", an empty line, and the body. When the answers run out,
 * every further request fails as a refused connection would.
 *
 * Time is the fake's too: sleep_ms moves a clock that mono_ms and wall_ms
 * read, so the session's pacing and rate-limit waits (prov_http) cost
 * nothing. Each step has the runner's budget (RUNNER_STEP_MS); a fetch that
 * ends PROV_RATE_LIMITED is asked again, as the runner does, once its wait
 * is over, in a step of its own.
 *
 * Checks: every request goes to the session's base URL (no other host, or
 * port, ever gets the credentials); requests are at least the provider's
 * published interval apart (def->min_interval_ms), and no wait runs past the
 * step's end by more than one interval; every item is of a kind the provider
 * imports, has an external id, and its normalized and raw JSON serialise to
 * UTF-8 that reads back; a page has at most PROV_MAX_ITEMS items; warnings
 * and error messages are UTF-8, and a failure has a message; a rate-limit
 * wait is within [limits] provider_wait_max; a next cursor is NULL or not
 * empty; a page that
 * asked for nothing (a list skipped, a phase moved on) happens at most 20
 * times in a row, so the loop ends; no crash, leak or hang. With
 * MIGRATOR_FUZZ_LOG set, each request and each page's outcome are written
 * to stderr. */
// fuzz-ldflags: -Wl,--wrap=httpc_do,--wrap=sleep_ms,--wrap=mono_ms,--wrap=wall_ms
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config.h"
#include "core/jsonx.h"
#include "core/util.h"
#include "providers/common.h"
#include "providers/httpc.h"
#include "providers/provider.h"
#include "runner/runner.h"
#include "fuzz.h"

#define MAX_PAGES 50
#define MAX_IDLE  20

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int __wrap_httpc_do(const struct httpc_req *req, struct httpc_resp *resp, struct prov_error *err);
void __wrap_sleep_ms(int64_t ms);
int64_t __wrap_mono_ms(void);
int64_t __wrap_wall_ms(void);

/* The answers of one input, how many requests they served and when, and the
 * session they serve. */
static struct {
	const char *next, *end; /* the answers not served yet */
	const struct prov_session *s;
	size_t served;
	int64_t last_ms; /* the clock at the last request; < 0: none yet */
} transport;

/* The fake clock: monotonic milliseconds (wall_ms adds an epoch to it). */
static int64_t clock_ms;

void
__wrap_sleep_ms(int64_t ms)
{
	const struct prov_pace *p = &transport.s->pace;

	FUZZ_CHECK(ms > 0 && clock_ms + ms <= p->deadline_ms + p->interval_ms,
	    "a wait of %lld ms, %lld ms before the step's end", (long long)ms,
	    (long long)(p->deadline_ms - clock_ms));
	clock_ms += ms;
}

int64_t
__wrap_mono_ms(void)
{
	return clock_ms;
}

int64_t
__wrap_wall_ms(void)
{
	return INT64_C(1790000000000) + clock_ms;
}

/* The next answer: [at, end) of the input, parted by "\n%%\n". */
static bool
next_answer(const char **at, const char **stop)
{
	const char *sep;

	if (transport.next == NULL)
		return false;
	*at = transport.next;
	sep = memmem(transport.next, (size_t)(transport.end - transport.next), "\n%%\n", 4);
	*stop = sep != NULL ? sep : transport.end;
	transport.next = sep != NULL ? sep + 4 : NULL;
	return true;
}

int
__wrap_httpc_do(const struct httpc_req *req, struct httpc_resp *resp, struct prov_error *err)
{
	const char *base_url = transport.s->base_url;
	size_t base = strlen(base_url), max = req->max_body ? req->max_body : HTTPC_MAX_BODY;
	const char *at, *stop, *line, *body;
	char first[9];
	long status;

	FUZZ_CHECK(req->url != NULL && strncmp(req->url, base_url, base) == 0 &&
	        (req->url[base] == '/' || req->url[base] == '?' || req->url[base] == '\0'),
	    "a request to %s, not under the session's %s", req->url ? req->url : "(none)", base_url);
	FUZZ_CHECK(transport.last_ms < 0 || clock_ms - transport.last_ms >= transport.s->def->min_interval_ms,
	    "two %s requests %lld ms apart", transport.s->def->id, (long long)(clock_ms - transport.last_ms));
	transport.last_ms = clock_ms;
	memset(resp, 0, sizeof *resp);
	if (getenv("MIGRATOR_FUZZ_LOG") != NULL)
		fprintf(stderr, "request %s %s\n", req->method ? req->method : "GET", req->url);
	if (!next_answer(&at, &stop)) {
		prov_fail(err, PROV_TRANSIENT, "could not connect (the fake transport has no more answers)");
		return -1;
	}
	transport.served++;
	snprintf(first, sizeof first, "%.*s", (int)(stop - at < 8 ? stop - at : 8), at);
	status = strtol(first, NULL, 10);
	if (status < 0) {
		prov_fail(err, status == -1 ? PROV_TRANSIENT : PROV_FATAL, "the fake transport failed");
		return -1;
	}
	/* headers up to an empty line, then the body (all of it after the
	 * status line when there is no empty line) */
	line = memchr(at, '\n', (size_t)(stop - at));
	line = line != NULL ? line + 1 : stop;
	body = line;
	for (const char *eol; line < stop; line = eol + 1) {
		const char *colon;
		char name[64], value[256];

		eol = memchr(line, '\n', (size_t)(stop - line));
		if (eol == NULL || eol == line) {
			body = eol != NULL ? eol + 1 : body;
			break;
		}
		colon = memchr(line, ':', (size_t)(eol - line));
		if (colon == NULL || colon - line >= (long)sizeof name || eol - colon > (long)sizeof value)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(colon - line), line);
		snprintf(value, sizeof value, "%.*s", (int)(eol - colon - 1),
		    colon[1] == ' ' ? colon + 2 : colon + 1);
		httpc_resp_set_header(resp, name, value);
		body = eol + 1;
	}
	if ((size_t)(stop - body) > max) {
		prov_fail(err, PROV_FATAL, "the answer is over %zu bytes", max);
		return -1;
	}
	resp->status = status == 0 ? 200 : status;
	resp->len = (size_t)(stop - body);
	resp->body = malloc(resp->len + 1);
	memcpy(resp->body, body, resp->len);
	resp->body[resp->len] = '\0';
	return 0;
}

/* The config of a deployment that sets nothing: every default. */
static struct config defaults;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[] = "/tmp/migrator-fuzz-XXXXXX";
	int fd = mkstemp(path);
	struct err e;

	(void)argc;
	(void)argv;
	err_clear(&e);
	FUZZ_CHECK(fd >= 0 && config_load(&defaults, path, &e) == 0, "an empty config: %s", e.msg);
	close(fd);
	unlink(path);
	return 0;
}

/* JSON that serialises to UTF-8 and reads back. */
static void
check_json(const char *what, json_object *o)
{
	size_t len;
	const char *t = json_object_to_json_string_length(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	json_object *back;
	int ok;

	FUZZ_CHECK(utf8_valid(t, len), "%s is not UTF-8: %.300s", what, t);
	back = jx_parse(t, len, &ok);
	FUZZ_CHECK(ok, "%s does not read back: %.300s", what, t);
	json_object_put(back);
}

static void
check_page(const struct provider_def *def, const struct prov_page *page)
{
	FUZZ_CHECK(page->n <= PROV_MAX_ITEMS, "%zu items on a page", page->n);
	for (size_t i = 0; i < page->n; i++) {
		const struct prov_item *it = &page->items[i];
		bool imported = false;

		for (size_t k = 0; def->imports[k] != NULL; k++)
			imported = imported || strcmp(def->imports[k], it->resource_type) == 0;
		FUZZ_CHECK(imported, "%s gave a %s, which it does not import", def->id, it->resource_type);
		FUZZ_CHECK(it->external_id[0] != '\0' && utf8_valid(it->external_id, strlen(it->external_id)),
		    "a %s without a usable external id", it->resource_type);
		FUZZ_CHECK(json_object_is_type(it->norm, json_type_object),
		    "a %s whose norm is not an object", it->resource_type);
		check_json("an item's norm", it->norm);
		check_json("an item's raw", it->raw);
	}
	for (size_t i = 0; i < page->nwarnings; i++)
		FUZZ_CHECK(utf8_valid(page->warnings[i], strlen(page->warnings[i])),
		    "a warning is not UTF-8: %s", page->warnings[i]);
	FUZZ_CHECK(page->next_cursor == NULL || page->next_cursor[0] != '\0', "an empty next cursor");
}

/* The credentials of def: every required field, the optional ones when
 * asked; URL fields hold a public https URL, the others a key-like value. */
static json_object *
credentials(const struct provider_def *def, bool optional)
{
	json_object *c = json_object_new_object();

	for (int pass = 0; pass < (optional ? 2 : 1); pass++)
		for (const char *const *f = pass == 0 ? def->required : def->optional; *f != NULL; f++) {
			bool url = def->url_field != NULL && strcmp(*f, def->url_field) == 0;
			jx_add_str(c, *f,
			    url ? "https://provider.example.com/api" : "FuzzKey-4eC39HqLyjWDarjtT1zdp7dc");
		}
	return c;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct provider_def *def;
	struct config cfg = defaults;
	struct config_kv kv;
	char section[64], *cursor = NULL;
	struct prov_session s;
	struct prov_error err = { 0 };
	json_object *creds;
	int idle = 0;

	if (size < 2)
		return 0;
	def = provider_list[data[0] % 9];
	snprintf(section, sizeof section, "provider.%s", def->id);
	if (data[1] & 1) {
		kv = (struct config_kv){ section, "base_url", "https://admin.example.net/base/" };
		cfg.kv = &kv;
		cfg.nkv = 1;
	}
	creds = credentials(def, data[1] & 2);
	if (prov_session_init(&s, def, &cfg, creds, &err) != 0) {
		json_object_put(creds);
		return 0;
	}
	transport.next = (const char *)data + 2;
	transport.end = (const char *)data + size;
	if (data[1] & 4) { /* a stored checkpoint: any text */
		const char *nl = memchr(transport.next, '\n', size - 2);
		size_t n = nl != NULL ? (size_t)(nl - transport.next) : size - 2;
		cursor = strndup(transport.next, n);
		transport.next = nl != NULL ? nl + 1 : transport.end;
	}
	transport.s = &s;
	transport.served = 0;
	transport.last_ms = -1;
	clock_ms = 1000000;
	for (int pages = 0; pages < MAX_PAGES; pages++) {
		struct prov_page page = { 0 };
		size_t before = transport.served;
		enum prov_status st;

		memset(&err, 0, sizeof err);
		s.pace.deadline_ms = clock_ms + RUNNER_STEP_MS; /* a step of its own */
		st = def->ops->fetch(&s, cursor, &page, &err);
		if (getenv("MIGRATOR_FUZZ_LOG") != NULL) /* to see how an input was read */
			fprintf(stderr, "%s at %s: status %d, %zu items, next %s, %zu answers served: %s\n",
			    def->id, cursor ? cursor : "the start", st, page.n,
			    page.next_cursor ? page.next_cursor : "none", transport.served, err.message);
		if (st != PROV_OK) {
			FUZZ_CHECK(page.n == 0, "a failed fetch kept %zu items", page.n);
			FUZZ_CHECK(err.message[0] != '\0' && utf8_valid(err.message, strlen(err.message)),
			    "a failure's message is empty or not UTF-8: %s", err.message);
			prov_page_free(&page);
			if (st != PROV_RATE_LIMITED || s.pace.gave_up)
				break;
			/* as the runner: the same page again once the wait is over */
			FUZZ_CHECK(prov_session_wait_ms(&s) <= (int64_t)cfg.provider_wait_max * 1000,
			    "a wait of %lld ms", (long long)prov_session_wait_ms(&s));
			clock_ms += prov_session_wait_ms(&s);
			continue;
		}
		check_page(def, &page);
		idle = transport.served == before ? idle + 1 : 0;
		FUZZ_CHECK(idle <= MAX_IDLE, "%d pages in a row without a request (at %s)", idle, cursor);
		if (page.next_cursor == NULL || (cursor != NULL && strcmp(page.next_cursor, cursor) == 0)) {
			/* the end, or (as the runner sees it) paging that does not advance */
			prov_page_free(&page);
			break;
		}
		free(cursor);
		cursor = page.next_cursor;
		page.next_cursor = NULL;
		prov_page_free(&page);
	}
	free(cursor);
	json_object_put(creds);
	return 0;
}
