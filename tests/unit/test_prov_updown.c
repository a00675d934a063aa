/* Unit tests of the updown adapter (src/providers/updown.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/updown/, each citing the published
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

#define UD_KEY "ud-test-key-0123456789"

/* Checks of every kind. Shapes: updown.io/api "GET /api/checks" example
 * (the first entry verbatim), fields and types from the official-docs
 * mirrors essentialkaos/updown updown.go (Check: http_verb, http_body,
 * custom_headers, disabled_locations, recipients) and
 * Nastaliss/terraform-provider-updown internal/updown/checks.go ("type":
 * https, http, icmp, pulse, tcp, tcps); the pulse entry follows providers.md
 * §5 (its url redacted).
 * Long because: one parse of the list and each check it makes, checked in turn. */
static void
test_updown_checks(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(updown_parse, NULL, 200, "updown/checks.json", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "recipients:0");
	assert_int_equal(page_count(&p, "monitor"), 6);
	assert_int_equal(page_count(&p, "heartbeat"), 1);
	assert_true(has_warning(&p, "entry of checks without a usable token; skipped"));

	/* The docs' example: alias "", string_match "", "GET/HEAD". */
	it = page_find(&p, "monitor", "ngg8");
	EXPECT_NORM(it, X_STR("name", "https://updown.io"), X_STR("url", "https://updown.io"),
	    X_STR("type", "http"), X_NULL("keyword"), X_NULL("keyword_up_when"), X_STR("http_method", "GET"),
	    X_NULL("request_body"));
	assert_int_equal(json_object_object_length(njson(it, "request_headers")), 0);
	EXPECT_NORM(it, X_INT("interval", 15), X_FALSE("paused"),
	    X_IDS("regions", ""), /* nothing disabled: every location */
	    X_IDS("contact_ids", "email:1246848337,sms:231178295"));

	/* Keyword, port, path and query, POST with a body and headers, regions. */
	it = page_find(&p, "monitor", "dmbe");
	EXPECT_NORM(it, X_STR("name", "Shop"),
	    X_STR("url", "https://shop.example.com:8443/api/health?deep=1"), X_STR("type", "keyword"),
	    X_STR("keyword", "All systems go"), X_STR("keyword_up_when", "present"),
	    X_NULL("keyword_case_sensitive"), X_STR("http_method", "POST"),
	    X_STR("request_body", "{\"probe\":true}"));
	assert_string_equal(nheader(it, "X-Env"), "prod");
	assert_string_equal(nheader(it, "Authorization"), "Bearer abc");
	EXPECT_NORM(it, X_TRUE("paused"), /* enabled false */
	    X_INT("interval", 60),        /* "period":"60" */
	    X_IDS("regions", "lan,mia,bhs,gra,fra,syd"),
	    X_IDS("contact_ids", "email:1246848337,slack_compatible:42"));

	/* tcps: host and port; icmp: the host of a bracketed IPv6 URL. */
	it = page_find(&p, "monitor", "tc01");
	EXPECT_NORM(it, X_STR("type", "tcp"), X_STR("url", "db.example.com"), X_INT("port", 5432),
	    X_NULL("http_method"), X_IDS("contact_ids", "msteams:7"));
	it = page_find(&p, "monitor", "ic01");
	EXPECT_NORM(it, X_STR("type", "ping"), X_STR("url", "2001:db8::1"), X_NULL("port"));

	/* pulse: a heartbeat, interval = period, grace 0, no ping URL. */
	it = page_find(&p, "heartbeat", "p3rl");
	EXPECT_NORM(it, X_STR("name", "Nightly backup"), X_INT("interval", 90000), X_INT("grace", 0),
	    X_NULL("ping_url"), X_FALSE("paused"), X_IDS("contact_ids", "email:1246848337"));
	assert_true(has_warning(&p,
	    "pulse check \"Nightly backup\" was imported as a heartbeat without its "
	    "ping URL"));

	/* Unknown kind, verb and location: other / no method / ignored, each warned. */
	assert_string_equal(nstr(page_find(&p, "monitor", "wd01"), "type"), "other");
	assert_true(has_warning(&p, "\"Socket\" is of kind websocket"));
	it = page_find(&p, "monitor", "vb01");
	assert_true(nnull(it, "http_method"));
	assert_true(has_warning(&p, "\"Verb\" uses an unknown HTTP verb BREW"));
	assert_string_equal(nids(it, "regions"), "mia,bhs,gra,fra,sin,tok,syd");
	assert_true(has_warning(&p, "\"Verb\" disables an unknown location xyz"));
	prov_page_free(&p);
}

/* Recipients: updown.io/api "GET /api/recipients" example (the e-mail
 * entry), types from Nastaliss/terraform-provider-updown
 * internal/updown/recipients.go (email, sms, webhook, slack_compatible,
 * msteams); "slack" is a UI-only integration without value (providers.md §5). */
static void
test_updown_recipients(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(updown_parse, "recipients:0", 200, "updown/recipients.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "status_pages:0");
	assert_int_equal(p.n, 7);
	it = page_find(&p, "contact", "email:3719031852");
	EXPECT_NORM(it, X_STR("type", "email"), X_STR("name", "tech@example.com"),
	    X_STR("value", "tech@example.com"), /* from "Company <…>" */
	    X_FALSE("needs_address"));
	assert_string_equal(nstr(page_find(&p, "contact", "sms:231178295"), "value"), "+33612345678");
	assert_string_equal(nstr(page_find(&p, "contact", "webhook:55"), "type"), "webhook");
	it = page_find(&p, "contact", "slack_compatible:42");
	assert_string_equal(nstr(it, "type"), "slack");
	assert_string_equal(nstr(it, "value"), "https://hooks.slack.com/services/T0/B0/x");
	it = page_find(&p, "contact", "msteams:7");
	assert_string_equal(nstr(it, "type"), "teams");
	assert_false(nbool(it, "needs_address"));
	it = page_find(&p, "contact", "slack:1");
	EXPECT_NORM(it, X_STR("type", "slack"), X_NULL("value"), X_TRUE("needs_address"));
	assert_string_equal(nstr(page_find(&p, "contact", "carrier:3"), "type"), "other");
	assert_true(has_warning(&p, "\"Bob\" has an unknown type carrier_pigeon; kept as other"));
	prov_page_free(&p);
}

/* Status pages: updown.io/api "GET /api/status_pages" example; fields of
 * essentialkaos/updown updown.go StatusPage (visibility, access_key, checks). */
static void
test_updown_status_pages(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(updown_parse, "status_pages:0", 200, "updown/status_pages.json", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	it = page_find(&p, "status_page", "3ji4k");
	EXPECT_NORM(it, X_STR("name", "Public page"),
	    X_IDS("items", "ngg8,dmbe,p3rl"), /* a pulse too: same id space */
	    X_TRUE("public"), X_STR("url", "https://updown.io/p/3ji4k"));
	assert_false(nbool(page_find(&p, "status_page", "9xk2p"), "public"));
	it = page_find(&p, "status_page", "zz01");
	assert_false(nbool(it, "public"));
	assert_string_equal(nids(it, "items"), "");
	assert_true(has_warning(&p, "\"Odd page\" has an unknown visibility friends-only"));
	prov_page_free(&p);
}

/* Empty lists, refused later lists, the bad key on the first call. The
 * error body is the {"error":"…"} of updown.io/api (providers.md §5.3, L). */
static void
test_updown_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	EXPECT_EMPTY_PAGE(updown_parse, "checks:0", "updown/empty.json", "recipients:0");
	assert_int_equal(run_parse(updown_parse, "status_pages:0", 200, "updown/empty.json", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	prov_page_free(&p);

	/* A later list refused: skipped with a warning, the run goes on. */
	assert_int_equal(run_parse(updown_parse, "recipients:0", 403, "updown/forbidden.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "status_pages:0");
	assert_true(has_warning(&p,
	    "updown.io refused the recipients list for this key (HTTP 403): "
	    "recipients skipped"));
	prov_page_free(&p);
	assert_int_equal(run_parse(updown_parse, "status_pages:0", 401, "updown/unauthorized.json", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "refused the status pages list for this key (HTTP 401)"));
	prov_page_free(&p);

	/* The first call refused: a bad key. */
	assert_int_equal(run_parse(updown_parse, NULL, 401, "updown/unauthorized.json", &p, &e), PROV_AUTH);
	assert_string_equal(e.message, "updown.io rejected the API key (Invalid API key)");
	prov_page_free(&p);
	assert_int_equal(run_parse(updown_parse, NULL, 403, "updown/forbidden.json", &p, &e), PROV_AUTH);
	prov_page_free(&p);
	assert_int_equal(run_parse(updown_parse, NULL, 200, "updown/unauthorized.json", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(updown_parse, "checks:0", 200, "[{\"token\":\"a\"", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse(updown_parse, "recipients:0", 500, "updown/forbidden.json", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse(updown_parse, "checks:x", 200, "updown/empty.json", &p, &e), PROV_FATAL);
	prov_page_free(&p);
}

/* -------------------------------------------- whole fetches against a local server */

/* The three phases in a row: the key only in the X-API-KEY header, a
 * refused recipients list skipped, discovery ends after the status pages. */
static void
test_updown_fetch(void **state)
{
	const struct provider_def *def = provider_find("updown");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[4] = { answer_fixture("200 OK", "updown/checks.json"),
		answer_fixture("403 Forbidden", "updown/forbidden.json"),
		answer_fixture("200 OK", "updown/status_pages.json"), NULL };
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"" UD_KEY "\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	snprintf(base, sizeof base, "http://127.0.0.1:%d/ud", m.port);
	cfg_init(&cfg, "updown", base);
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	assert_int_equal(p.n, 7);
	assert_string_equal(p.next_cursor, "recipients:0");
	prov_page_free(&p);
	assert_int_equal(def->ops->fetch(&s, "recipients:0", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "status_pages:0");
	assert_true(has_warning(&p, "recipients skipped"));
	prov_page_free(&p);
	assert_int_equal(def->ops->fetch(&s, "status_pages:0", &p, &e), PROV_OK);
	assert_int_equal(p.n, 3);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /ud/api/checks HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /ud/api/recipients HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /ud/api/status_pages HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "X-API-KEY: " UD_KEY "\r\n"));
	assert_null(strstr(seen, "api-key="));
	for (size_t i = 0; a[i] != NULL; i++)
		free(a[i]);
	json_object_put(creds);
}

/* A check's address as curl reads it (core/url.h): the kind from the URL's
 * scheme in any case, an IPv6 literal without brackets, the host
 * percent-decoded and without user info, an explicit port; a body that is not
 * UTF-8 is refused whole. */
static void
test_updown_check_addresses(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse_text(updown_parse, "checks:0", 200,
	                     "[{\"token\":\"i6\",\"url\":\"icmp://[::1]:8443\",\"alias\":\"V6\"},"
	                     "{\"token\":\"uc\",\"url\":\"TCP://DB.Example.COM:5432\",\"alias\":\"Upper\"},"
	                     "{\"token\":\"pc\",\"type\":\"tcp\",\"url\":\"tcp://d%62.example.com:5432\"},"
	                     "{\"token\":\"ui\",\"type\":\"tcps\",\"url\":\"tcps://u:pw@db.example.com:1\"},"
	                     "{\"token\":\"dp\",\"url\":\"HTTPS://Shop.Example.COM:443/x\"},"
	                     "{\"token\":\"bd\",\"url\":\"icmp://[::1\",\"alias\":\"Broken\"}]",
	                     &p, &e),
	    PROV_OK);
	EXPECT_NORM(page_find(&p, "monitor", "i6"), X_STR("type", "ping"), X_STR("url", "::1"),
	    X_NULL("port"));
	EXPECT_NORM(page_find(&p, "monitor", "uc"), X_STR("type", "tcp"), X_STR("url", "DB.Example.COM"),
	    X_INT("port", 5432));
	EXPECT_NORM(page_find(&p, "monitor", "pc"), X_STR("type", "tcp"), X_STR("url", "db.example.com"),
	    X_INT("port", 5432));
	EXPECT_NORM(page_find(&p, "monitor", "ui"), X_STR("type", "tcp"), X_STR("url", "db.example.com"),
	    X_INT("port", 1), X_STR("auth_username", "u"), X_STR("auth_password", "pw"));
	EXPECT_NORM(page_find(&p, "monitor", "dp"), X_STR("type", "http"),
	    X_STR("url", "HTTPS://Shop.Example.COM:443/x"));
	EXPECT_NORM(page_find(&p, "monitor", "bd"), X_STR("type", "other"), X_STR("url", "icmp://[::1"));
	assert_true(has_warning(&p, "\"Broken\" is of kind (none)"));
	prov_page_free(&p);
	assert_int_equal(run_parse_text(updown_parse, "checks:0", 200,
	                     "[{\"token\":\"x\",\"url\":\"icmp://\xff\xfe.example\"}]", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
}

/* mute_until (updown.io/api: a time, "recovery" or "forever") and a login
 * in a URL, which updown's answers leave out but which is never kept in
 * clear should one come. */
static void
test_updown_alerting(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(
	    run_parse_text(updown_parse, "checks:0", 200,
	        "[{\"token\":\"m1\",\"url\":\"https://a.example/\",\"alias\":\"Timed\","
	        "\"mute_until\":\"2021-10-05T22:26:12-04:00\"},"
	        "{\"token\":\"m2\",\"url\":\"https://b.example/\",\"alias\":\"Until up\","
	        "\"mute_until\":\"recovery\"},"
	        "{\"token\":\"m3\",\"url\":\"https://c.example/\",\"alias\":\"Always\","
	        "\"mute_until\":\"forever\"},"
	        "{\"token\":\"m4\",\"url\":\"https://d.example/\",\"alias\":\"Odd\","
	        "\"mute_until\":[1]},"
	        "{\"token\":\"m5\",\"url\":\"https://e.example/\",\"mute_until\":\"\"},"
	        "{\"token\":\"a1\",\"type\":\"https\",\"url\":\"https://probe:p%40ss@f.example/x?y=1\"},"
	        "{\"token\":\"a2\",\"url\":\"https://%01@g.example/\",\"alias\":\"Bad login\"},"
	        "{\"token\":\"p1\",\"type\":\"pulse\",\"alias\":\"Pulse\","
	        "\"mute_until\":\"2030-01-01T00:00:00Z\"}]",
	        &p, &e),
	    PROV_OK);
	EXPECT_NORM(page_find(&p, "monitor", "m1"), X_STR("muted_until", "2021-10-06T02:26:12Z"));
	EXPECT_NORM(page_find(&p, "monitor", "m2"), X_NULL("muted_until"));
	assert_true(has_warning(&p,
	    "\"Until up\" has its alerts muted until it recovers; the account mutes only "
	    "until a time, so the imported monitor alerts"));
	EXPECT_NORM(page_find(&p, "monitor", "m3"), X_NULL("muted_until"));
	assert_true(has_warning(&p, "\"Always\" has its alerts muted for ever"));
	EXPECT_NORM(page_find(&p, "monitor", "m4"), X_NULL("muted_until"));
	assert_true(has_warning(&p, "\"Odd\" is muted until \"(not text)\", which is not a time"));
	EXPECT_NORM(page_find(&p, "monitor", "m5"), X_NULL("muted_until"));
	/* the login out of the URL (and of the name it gives), sealed later, [redacted] in the stored copy */
	it = page_find(&p, "monitor", "a1");
	EXPECT_NORM(it, X_STR("url", "https://f.example/x?y=1"), X_STR("name", "https://f.example/x?y=1"),
	    X_STR("auth_username", "probe"), X_STR("auth_password", "p@ss"));
	assert_string_equal(json_object_get_string(json_object_object_get(it->raw, "url")),
	    "https://[redacted]@f.example/x?y=1");
	it = page_find(&p, "monitor", "a2");
	EXPECT_NORM(it, X_STR("url", "https://g.example/"), X_NULL("auth_username"), X_NULL("auth_password"));
	assert_true(has_warning(&p, "\"Bad login\" has a login in its URL that cannot be kept"));
	/* a pulse has no mute in the account */
	assert_false(json_object_object_get_ex(page_find(&p, "heartbeat", "p1")->norm, "muted_until", NULL));
	prov_page_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_updown_checks),
		cmocka_unit_test(test_updown_recipients),
		cmocka_unit_test(test_updown_status_pages),
		cmocka_unit_test(test_updown_errors),
		cmocka_unit_test(test_updown_fetch),
		cmocka_unit_test(test_updown_check_addresses),
		cmocka_unit_test(test_updown_alerting),
	};

	return PROVTEST_RUN(tests);
}
