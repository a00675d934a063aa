/* Unit tests of the UptimeRobot adapter (src/providers/uptimerobot.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/uptimerobot/, each citing the published
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
test_uptimerobot_monitors_page(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(uptimerobot_parse, NULL, 200, "uptimerobot/monitors_page1.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 6);
	/* 7 entries were read (one without id): the next offset is 7 of 53. */
	assert_string_equal(p.next_cursor, "monitors:7");

	it = page_find(&p, "monitor", "777749809");
	assert_string_equal(nstr(it, "name"), "Google");
	assert_string_equal(nstr(it, "url"), "http://www.google.com");
	assert_string_equal(nstr(it, "type"), "http");
	assert_int_equal(nint(it, "interval"), 300);
	assert_false(nbool(it, "paused"));
	assert_true(nnull(it, "port"));      /* "port":"" */
	assert_true(nnull(it, "keyword"));
	assert_string_equal(nids(it, "contact_ids"), "0993765,2145");
	assert_non_null(it->raw);
	assert_non_null(json_object_object_get(it->raw, "create_datetime"));

	it = page_find(&p, "monitor", "777712827");
	assert_string_equal(nstr(it, "type"), "keyword");   /* "type":"2" */
	assert_string_equal(nstr(it, "keyword"), "Error");
	assert_int_equal(nint(it, "interval"), 900);        /* "interval":"900" */
	assert_true(nbool(it, "paused"));                   /* status 0 */
	assert_string_equal(nids(it, "contact_ids"), "");
	assert_true(has_warning(&p, "\"Shop keyword\" alerts when the keyword is absent"));

	it = page_find(&p, "monitor", "777559666");
	assert_string_equal(nstr(it, "type"), "port");
	assert_int_equal(nint(it, "port"), 443);            /* sub_type 2 */
	it = page_find(&p, "monitor", "777559667");
	assert_int_equal(nint(it, "port"), 80);             /* sub_type 99, "port":"80" */

	it = page_find(&p, "heartbeat", "777559668");
	assert_string_equal(nstr(it, "name"), "Nightly backup");
	assert_int_equal(nint(it, "interval"), 86400);
	assert_int_equal(nint(it, "grace"), 0);
	assert_string_equal(nstr(it, "ping_url"), "https://heartbeat.uptimerobot.com/m777559668-abc");
	assert_true(nnull(it, "schedule"));
	assert_false(nbool(it, "paused"));
	assert_string_equal(nids(it, "contact_ids"), "0993765");

	it = page_find(&p, "monitor", "777559669");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "unknown type 7; kept as other"));
	assert_true(has_warning(&p, "without a usable id"));
	prov_page_free(&p);
}

static void
test_uptimerobot_phases_and_stop(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* Last page of monitors: on to contacts. */
	assert_int_equal(run_parse(uptimerobot_parse, "monitors:50", 200, "uptimerobot/monitors_last.json",
	    &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);

	/* Alert contacts: offset/limit/total at the top level. */
	assert_int_equal(run_parse(uptimerobot_parse, "contacts:0", 200, "uptimerobot/contacts.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.next_cursor, "psps:0");
	it = page_find(&p, "contact", "0993765");
	assert_string_equal(nstr(it, "type"), "email");
	assert_string_equal(nstr(it, "name"), "John Doe");
	assert_string_equal(nstr(it, "value"), "johndoe@gmail.com");
	it = page_find(&p, "contact", "2145");
	assert_string_equal(nstr(it, "type"), "slack");     /* "type":"11" */
	assert_true(nnull(it, "value"));
	it = page_find(&p, "contact", "2146");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "unknown type 42"));
	prov_page_free(&p);

	/* More contacts than one page: the top-level total drives the offset. */
	assert_int_equal(run_parse(uptimerobot_parse, "contacts:50", 200, "uptimerobot/contacts_more.json",
	    &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "contacts:51");
	prov_page_free(&p);

	/* Status pages: the last phase. */
	assert_int_equal(run_parse(uptimerobot_parse, "psps:0", 200, "uptimerobot/psps.json", &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	assert_int_equal(p.n, 3);
	it = page_find(&p, "status_page", "123456");
	assert_string_equal(nids(it, "items"), "777749809,777712827");
	assert_string_equal(nstr(it, "url"), "https://stats.uptimerobot.com/asfF1XZb0M"); /* custom_url "" */
	assert_true(nbool(it, "public"));
	it = page_find(&p, "status_page", "123457");
	assert_string_equal(nids(it, "items"), "");   /* "monitors":0 = all */
	assert_string_equal(nstr(it, "url"), "https://status.example.com");
	assert_true(has_warning(&p, "\"All of them\" shows all monitors"));
	it = page_find(&p, "status_page", "123458");
	assert_false(nbool(it, "public"));                  /* paused */
	assert_string_equal(nstr(it, "url"), "https://stats.uptimerobot.com/yyy");
	prov_page_free(&p);
}

static void
test_uptimerobot_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse(uptimerobot_parse, NULL, 200, "uptimerobot/bad_key.json", &p, &e), PROV_AUTH);
	assert_non_null(strstr(e.message, "UptimeRobot rejected the API key"));
	assert_null(strstr(e.message, "u123-secretkeyvalue")); /* passed_value is never copied */
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	assert_int_equal(run_parse(uptimerobot_parse, "psps:0", 200, "uptimerobot/missing_key.json", &p, &e),
	    PROV_AUTH);
	prov_page_free(&p);
	assert_int_equal(run_parse(uptimerobot_parse, "contacts:0", 200, "uptimerobot/not_authorized.json", &p,
	    &e), PROV_AUTH);
	prov_page_free(&p);
	assert_int_equal(run_parse(uptimerobot_parse, NULL, 200, "uptimerobot/truncated.json", &p, &e),
	    PROV_TRANSIENT);
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 200, "<html>maintenance</html>", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 200, "{\"stat\":\"ok\",\"monitors\":{}}", &p,
	    &e), PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 502, "bad gateway", &p, &e), PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 401, "{}", &p, &e), PROV_AUTH);
	assert_non_null(strstr(e.message, "UptimeRobot rejected the API key"));
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, "monitors:x", 200, "{}", &p, &e), PROV_FATAL);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, "logs:0", 200, "{}", &p, &e), PROV_FATAL);
	prov_page_free(&p);
}

static void
test_uptimerobot_rate_limited(void **state)
{
	struct httpc_resp r;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };

	(void)state;
	resp_text(&r, 429, "{\"stat\":\"fail\"}");
	httpc_resp_set_header(&r, "Retry-After", "60");
	assert_int_equal(uptimerobot_parse("contacts:0", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 60);
	httpc_resp_free(&r);
	prov_page_free(&p);
}

/* An empty account: every phase ends at once, discovery completes. */

/* An empty account: every phase ends at once, discovery completes. */
static void
test_uptimerobot_empty_account(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 200,
	    "{\"stat\":\"ok\",\"pagination\":{\"offset\":0,\"limit\":50,\"total\":0},\"monitors\":[]}", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);
	/* A provider that claims more but sends nothing cannot keep us looping. */
	assert_int_equal(run_parse_text(uptimerobot_parse, "psps:100", 200,
	    "{\"stat\":\"ok\",\"pagination\":{\"offset\":100,\"limit\":50,\"total\":900},\"psps\":[]}", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	prov_page_free(&p);
}

/* ----------------------------------------------------------------- Pingdom */

static void
test_fetch_uptimerobot_request_and_scrubbed_error(void **state)
{
	const struct provider_def *def = provider_find("uptimerobot");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"u123-secretkeyvalue\"}");

	(void)state;
	mini_start(&m, (const char *const[]){ "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
	    "{\"stat\":\"fail\",\"error\":{\"type\":\"invalid_parameter\",\"parameter_name\":\"api_key\","
	    "\"passed_value\":\"u123-secretkeyvalue\",\"message\":\"api_key u123-secretkeyvalue not found.\"}}", NULL });
	snprintf(base, sizeof base, "http://127.0.0.1:%d/uptimerobot/", m.port);
	cfg_init(&cfg, "uptimerobot", base);
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_AUTH);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "POST /uptimerobot/v2/getMonitors HTTP/1.1"));
	assert_non_null(strstr(seen, "api_key=u123-secretkeyvalue&format=json&offset=0&limit=50"));
	assert_non_null(strstr(e.message, "UptimeRobot rejected the API key"));
	assert_null(strstr(e.message, "secretkeyvalue"));
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	json_object_put(creds);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uptimerobot_monitors_page),
		cmocka_unit_test(test_uptimerobot_phases_and_stop),
		cmocka_unit_test(test_uptimerobot_errors),
		cmocka_unit_test(test_uptimerobot_rate_limited),
		cmocka_unit_test(test_uptimerobot_empty_account),
		cmocka_unit_test(test_fetch_uptimerobot_request_and_scrubbed_error),
	};

	return PROVTEST_RUN(tests);
}
