/* Unit tests of the Better Stack adapter (src/providers/better_stack.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/better_stack/, each citing the published
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
test_better_stack_monitors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(better_stack_parse, NULL, 200, "better_stack/monitors_page1.json", &p, &e),
	    PROV_OK);
	/* The next page by number, whatever host the "next" link names. */
	assert_string_equal(p.next_cursor, "monitors:2");
	assert_int_equal(p.n, 4);
	it = page_find(&p, "monitor", "2");
	assert_string_equal(nstr(it, "name"), "Uptime homepage");
	assert_string_equal(nstr(it, "type"), "keyword");
	assert_string_equal(nstr(it, "keyword"), "We call you");
	assert_int_equal(nint(it, "interval"), 30);
	assert_false(nbool(it, "paused"));
	it = page_find(&p, "monitor", "3");
	assert_string_equal(nstr(it, "type"), "keyword");
	assert_true(nbool(it, "paused"));
	assert_int_equal(nint(it, "interval"), 60);
	assert_true(has_warning(&p, "\"Health\" alerts when the keyword is present"));
	it = page_find(&p, "monitor", "4");
	assert_string_equal(nstr(it, "type"), "tcp");
	assert_int_equal(nint(it, "port"), 5432);
	assert_true(nnull(it, "keyword"));
	it = page_find(&p, "monitor", "5");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "unknown type quantum_check"));
	assert_true(has_warning(&p, "without id or attributes"));
	prov_page_free(&p);
}

static void
test_better_stack_other_phases(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(better_stack_parse, "heartbeats:3", 200, "better_stack/heartbeats_last.json",
	    &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "status-pages:1");
	it = page_find(&p, "heartbeat", "12345");
	assert_int_equal(nint(it, "interval"), 3600);
	assert_int_equal(nint(it, "grace"), 300);
	assert_string_equal(nstr(it, "ping_url"), "https://uptime.betterstack.com/api/v1/heartbeat/abcd1234");
	prov_page_free(&p);

	assert_int_equal(run_parse(better_stack_parse, "status-pages:1", 200, "better_stack/status_pages.json",
	    &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "email-integrations:1");
	it = page_find(&p, "status_page", "123");
	assert_string_equal(nstr(it, "name"), "Acme");
	assert_string_equal(nstr(it, "url"), "https://acme.betteruptime.com");
	assert_true(nbool(it, "public"));
	it = page_find(&p, "status_page", "124");
	assert_string_equal(nstr(it, "url"), "https://status.acme.example");
	assert_false(nbool(it, "public"));                   /* password protected */
	assert_true(has_warning(&p, "resources are not imported"));
	prov_page_free(&p);

	assert_int_equal(run_parse(better_stack_parse, "slack-integrations:1", 200,
	    "better_stack/slack_integrations.json", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "outgoing-webhooks:1");
	it = page_find(&p, "contact", "slack:77");
	assert_string_equal(nstr(it, "type"), "slack");
	assert_string_equal(nstr(it, "value"), "#alerts");
	assert_string_equal(nstr(it, "name"), "Acme #alerts");
	prov_page_free(&p);

	assert_int_equal(run_parse(better_stack_parse, "outgoing-webhooks:1", 200,
	    "better_stack/outgoing_webhooks.json", &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	it = page_find(&p, "contact", "webhook:9");
	assert_string_equal(nstr(it, "type"), "webhook");
	assert_string_equal(nstr(it, "value"), "https://hooks.example.com/bs");
	assert_string_equal(nstr(it, "name"), "Ops hook");
	prov_page_free(&p);
}

static void
test_better_stack_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse(better_stack_parse, NULL, 401, "better_stack/unauthorized.json", &p, &e),
	    PROV_AUTH);
	assert_non_null(strstr(e.message, "Better Stack rejected the API token (HTTP 401)"));
	prov_page_free(&p);
	assert_int_equal(run_parse(better_stack_parse, NULL, 200, "better_stack/not_jsonapi.json", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(better_stack_parse, "monitors:2", 503, "", &p, &e), PROV_TRANSIENT);
	prov_page_free(&p);
}

/* ------------------------------------------------------------------ updown */

static void
test_fetch_better_stack_request(void **state)
{
	const struct provider_def *def = provider_find("better_stack");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_token\":\"bs-token-1234\",\"team_name\":\"Ops & Co\"}");

	(void)state;
	mini_start(&m, (const char *const[]){ "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-RateLimit-Remaining: 0\r\n"
	    "Retry-After: 30\r\nConnection: close\r\n\r\n"
	    "{\"data\":[{\"id\":\"1\",\"type\":\"heartbeat\",\"attributes\":{\"name\":\"hb\",\"period\":60,"
	    "\"grace\":0}}],\"pagination\":{\"next\":null}}", NULL });
	snprintf(base, sizeof base, "http://127.0.0.1:%d/bs", m.port);
	cfg_init(&cfg, "better_stack", base);
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_int_equal(def->ops->fetch(&s, "heartbeats:2", &p, &e), PROV_OK);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /bs/api/v2/heartbeats?page=2&per_page=250&team_name=Ops%20%26%20Co "));
	assert_non_null(strstr(seen, "Authorization: Bearer bs-token-1234\r\n"));
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "status-pages:1");
	assert_int_equal(p.pause_s, 30); /* quota used up: the runner should wait */
	prov_page_free(&p);
	json_object_put(creds);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_better_stack_monitors),
		cmocka_unit_test(test_better_stack_other_phases),
		cmocka_unit_test(test_better_stack_errors),
		cmocka_unit_test(test_fetch_better_stack_request),
	};

	return PROVTEST_RUN(tests);
}
