/* Unit tests of the Statuspage adapter (src/providers/statuspage.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/statuspage/, each citing the published
 * reference it was taken from) and whole fetches against a local server. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"
#include "providers/httpc.h"
#include "providers/provider.h"

#include "provtest.h"

static void
test_statuspage_pages(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "components:0:1:gytm4qzbx9t6");
	it = page_find(&p, "status_page", "gytm4qzbx9t6");
	assert_string_equal(nstr(it, "name"), "Acme Status");
	assert_string_equal(nstr(it, "url"), "https://status.acme.example"); /* its own domain */
	assert_true(nbool(it, "public"));
	assert_string_equal(nids(it, "items"), "");
	prov_page_free(&p);

	assert_int_equal(run_parse(statuspage_parse, "pages:1", 200, "statuspage/pages.json", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "components:1:1:k8w2rd0q7n3m");
	it = page_find(&p, "status_page", "k8w2rd0q7n3m");
	assert_string_equal(nstr(it, "url"), "https://acme-internal.statuspage.io");
	assert_false(nbool(it, "public")); /* viewers must be team members */
	prov_page_free(&p);

	/* Past the last page: the end. */
	assert_int_equal(run_parse(statuspage_parse, "pages:2", 200, "statuspage/pages.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);

	/* GET /v1/pages/<page_id> answers one object. */
	assert_int_equal(run_parse(statuspage_parse, "pages:0", 200, "statuspage/page_one.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "components:0:1:gytm4qzbx9t6");
	prov_page_free(&p);

	assert_int_equal(run_parse_text(statuspage_parse, NULL, 200, "[]", &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "has no pages"));
	prov_page_free(&p);
}

static void
test_statuspage_components_fill_the_page(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it, *sp;

	(void)state;
	/* As in one fetch: the page, then its components into the same page. */
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	assert_int_equal(run_parse_more(statuspage_parse, "components:0:1:gytm4qzbx9t6", 200,
	    "statuspage/components_page1.json", &p, &e), PROV_OK);
	/* 100 answered = per_page: another page. */
	assert_string_equal(p.next_cursor, "components:0:2:gytm4qzbx9t6");
	assert_int_equal(page_count(&p, "monitor"), 99); /* the group is not a monitor */
	assert_true(has_warning(&p, "1 component group(s) were not imported"));

	it = page_find(&p, "monitor", "c00000000002");
	assert_string_equal(nstr(it, "name"), "API");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(nnull(it, "url"));
	assert_int_equal(nint(it, "interval"), 0);
	assert_true(nbool(it, "paused"));                   /* under_maintenance */
	assert_true(nnull(it, "port"));
	assert_string_equal(nids(it, "contact_ids"), "");
	assert_false(nbool(page_find(&p, "monitor", "c00000000003"), "paused")); /* degraded */
	it = page_find(&p, "monitor", "c00000000004");
	assert_false(nbool(it, "paused"));
	assert_true(has_warning(&p, "\"Webhooks\" has an unknown status on_fire"));

	assert_int_equal(run_parse_more(statuspage_parse, "components:0:2:gytm4qzbx9t6", 200,
	    "statuspage/components_last.json", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "subscribers:0:0:gytm4qzbx9t6");
	assert_int_equal(page_count(&p, "monitor"), 101);
	/* The status page lists every component, in order. */
	sp = page_find(&p, "status_page", "gytm4qzbx9t6");
	assert_int_equal(nids_len(sp, "items"), 101);
	assert_int_equal(strncmp(nids(sp, "items"), "c00000000002,c00000000003,", 26), 0);
	assert_non_null(strstr(nids(sp, "items"), ",c00000000101,c00000000102"));
	assert_null(strstr(nids(sp, "items"), "c00000000001,"));
	prov_page_free(&p);

	/* Components read on their own (a resumed checkpoint) still parse. */
	assert_int_equal(run_parse(statuspage_parse, "components:1:3:k8w2rd0q7n3m", 200,
	    "statuspage/components_last.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "subscribers:1:0:k8w2rd0q7n3m");
	prov_page_free(&p);
}

static void
test_statuspage_subscribers(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(statuspage_parse, "subscribers:0:0:gytm4qzbx9t6", 200,
	    "statuspage/subscribers_page0.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 100);
	assert_string_equal(p.next_cursor, "subscribers:0:1:gytm4qzbx9t6"); /* pages from 0 */
	prov_page_free(&p);

	assert_int_equal(run_parse(statuspage_parse, "subscribers:0:1:gytm4qzbx9t6", 200,
	    "statuspage/subscribers_last.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 6);
	assert_string_equal(p.next_cursor, "pages:1"); /* on to the next page */
	it = page_find(&p, "contact", "s00000000100");
	assert_string_equal(nstr(it, "type"), "email");
	assert_string_equal(nstr(it, "value"), "ann@example.com");
	assert_string_equal(nstr(it, "name"), "ann@example.com");
	it = page_find(&p, "contact", "s00000000101");
	assert_string_equal(nstr(it, "type"), "sms");
	assert_string_equal(nstr(it, "value"), "+1 555-555-0101");
	it = page_find(&p, "contact", "s00000000102");
	assert_string_equal(nstr(it, "type"), "webhook");
	assert_string_equal(nstr(it, "value"), "https://hooks.example.com/sp/1");
	it = page_find(&p, "contact", "s00000000103");
	assert_string_equal(nstr(it, "type"), "slack");
	assert_string_equal(nstr(it, "name"), "Slack #o***s in Acme");
	assert_true(nnull(it, "value"));
	assert_string_equal(nstr(page_find(&p, "contact", "s00000000104"), "type"), "other");
	assert_true(has_warning(&p, "is an integration partner subscription, which has no equivalent"));
	it = page_find(&p, "contact", "s00000000105");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "\"pigeon@example.com\" has an unknown mode carrier_pigeon"));
	assert_true(has_warning(&p, "entry of subscribers without a usable id; skipped"));
	prov_page_free(&p);
}

static void
test_statuspage_errors(void **state)
{
	static const char *const bad_cursors[] = {
		"pages", "pages:-1", "pages:1:2", "components:0:0:gytm4qzbx9t6", "components:0:1:",
		"components:0:1:../../v1/x", "components:0:1", "subscribers:0:0:a:b", "incidents:0",
		"subscribers:0:0:https://evil.example/x", "subscribers:0:x:gytm4qzbx9t6",
	};
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	const char *msg;

	(void)state;
	msg = parse_fails(statuspage_parse, NULL, 401, "statuspage/unauthorized.json", PROV_AUTH);
	assert_string_equal(msg, "Statuspage rejected the API key (Could not authenticate)");
	msg = parse_fails(statuspage_parse, NULL, 404, "statuspage/not_found.json", PROV_FATAL);
	assert_non_null(strstr(msg, "check the page_id credential"));
	parse_fails(statuspage_parse, "components:0:1:gytm4qzbx9t6", 200, "statuspage/truncated.json",
	    PROV_TRANSIENT);
	parse_fails(statuspage_parse, "components:0:1:gytm4qzbx9t6", 200, "statuspage/page_one.json",
	    PROV_TRANSIENT);
	for (size_t i = 0; i < sizeof bad_cursors / sizeof bad_cursors[0]; i++) {
		if (run_parse(statuspage_parse, bad_cursors[i], 200, "statuspage/pages.json", &p, &e) != PROV_FATAL)
			fail_msg("cursor %s accepted", bad_cursors[i]);
		prov_page_free(&p);
	}

	/* HTTP 420 "Enhance Your Calm" is Statuspage's rate limit. */
	resp_fixture(&r, 420, "statuspage/rate_limited.json");
	httpc_resp_set_header(&r, "Retry-After", "7");
	memset(&p, 0, sizeof p);
	assert_int_equal(statuspage_parse("subscribers:0:3:gytm4qzbx9t6", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 7);
	httpc_resp_free(&r);
	prov_page_free(&p);
	parse_fails(statuspage_parse, NULL, 420, "statuspage/rate_limited.json", PROV_RATE_LIMITED);
	parse_fails(statuspage_parse, NULL, 429, "statuspage/rate_limited.json", PROV_RATE_LIMITED);
}

/* ------------------------------------------------------------------- WHMCS */

static void
test_fetch_statuspage_page_with_its_components(void **state)
{
	const struct provider_def *def = provider_find("statuspage");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[4] = { answer_fixture("200 OK", "statuspage/pages.json"),
		answer_fixture("200 OK", "statuspage/components_page1.json"),
		answer_fixture("200 OK", "statuspage/components_last.json"), NULL };
	const char *seen;
	const struct prov_item *sp;
	json_object *creds = json_tokener_parse("{\"api_key\":\"sp-key-abcdef\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	snprintf(base, sizeof base, "http://127.0.0.1:%d/sp", m.port);
	cfg_init(&cfg, "statuspage", base);
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /sp/v1/pages HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /sp/v1/pages/gytm4qzbx9t6/components?page=1&per_page=100 HTTP/1.1"));
	assert_non_null(strstr(seen, "GET /sp/v1/pages/gytm4qzbx9t6/components?page=2&per_page=100 HTTP/1.1"));
	assert_non_null(strstr(seen, "Authorization: OAuth sp-key-abcdef\r\n"));
	/* One stored page: the status page with its complete monitor list. */
	assert_int_equal(page_count(&p, "status_page"), 1);
	assert_int_equal(page_count(&p, "monitor"), 101);
	sp = page_find(&p, "status_page", "gytm4qzbx9t6");
	assert_int_equal(nids_len(sp, "items"), 101);
	assert_string_equal(p.next_cursor, "subscribers:0:0:gytm4qzbx9t6");
	prov_page_free(&p);
	for (int i = 0; i < 3; i++)
		free(a[i]);
	json_object_put(creds);
}

static void
test_fetch_statuspage_rate_limit_and_page_id(void **state)
{
	const struct provider_def *def = provider_find("statuspage");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[4] = { answer_fixture("200 OK", "statuspage/page_one.json"),
		answer("420 Enhance Your Calm", "Retry-After: 3\r\n", "{\"error\":\"Rate limit exceeded\"}"),
		answer_fixture("200 OK", "statuspage/subscribers_last.json"), NULL };
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"sp-key-abcdef\",\"page_id\":\"gytm4qzbx9t6\"}");
	json_object *bad = json_tokener_parse("{\"api_key\":\"sp-key-abcdef\",\"page_id\":\"../../x\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	snprintf(base, sizeof base, "http://127.0.0.1:%d/sp", m.port);
	cfg_init(&cfg, "statuspage", base);
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	/* The one page, then a rate limit on its components: nothing of the
	 * step is kept, and the runner is told how long to wait. */
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 3);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	assert_int_equal(def->ops->fetch(&s, "subscribers:0:1:gytm4qzbx9t6", &p, &e), PROV_OK);
	assert_int_equal(p.n, 6);
	assert_string_equal(p.next_cursor, "pages:1");
	prov_page_free(&p);
	/* With page_id, the page after it is the end: no request needed. */
	assert_int_equal(def->ops->fetch(&s, "pages:1", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /sp/v1/pages/gytm4qzbx9t6 HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /sp/v1/pages/gytm4qzbx9t6/subscribers?page=1&limit=100 HTTP/1.1"));
	assert_null(strstr(seen, "GET /sp/v1/pages HTTP"));

	/* A page_id that is not an id never reaches a URL. */
	assert_int_equal(prov_session_init(&s, def, &cfg, bad, &e), 0);
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "page_id must be a page id"));
	prov_page_free(&p);
	for (int i = 0; i < 3; i++)
		free(a[i]);
	json_object_put(creds);
	json_object_put(bad);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statuspage_pages),
		cmocka_unit_test(test_statuspage_components_fill_the_page),
		cmocka_unit_test(test_statuspage_subscribers),
		cmocka_unit_test(test_statuspage_errors),
		cmocka_unit_test(test_fetch_statuspage_page_with_its_components),
		cmocka_unit_test(test_fetch_statuspage_rate_limit_and_page_id),
	};

	return PROVTEST_RUN(tests);
}
