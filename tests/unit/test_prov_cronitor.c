/* Unit tests of the Cronitor adapter (src/providers/cronitor.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/cronitor/, each citing the published
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
test_cronitor_monitors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(cronitor_parse, NULL, 200, "cronitor/monitors_page1.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 4);
	/* page "1" (a string) * page_size 4 < 8 monitors: another page */
	assert_string_equal(p.next_cursor, "monitors:2");

	/* A cron job: a heartbeat with the schedule and no period. */
	it = page_find(&p, "heartbeat", "key1");
	assert_string_equal(nstr(it, "name"), "Nightly restore");
	assert_int_equal(nint(it, "interval"), 0);
	assert_string_equal(nstr(it, "schedule"), "0 3 * * *");
	assert_int_equal(nint(it, "grace"), 3600);
	assert_false(nbool(it, "paused"));
	assert_true(nnull(it, "ping_url"));
	assert_string_equal(nids(it, "contact_ids"), "default");

	/* A heartbeat "every 1 hour": a period, no schedule; disabled = paused. */
	it = page_find(&p, "heartbeat", "hb2");
	assert_int_equal(nint(it, "interval"), 3600);
	assert_true(nnull(it, "schedule"));
	assert_int_equal(nint(it, "grace"), 300);            /* "300" */
	assert_true(nbool(it, "paused"));
	assert_string_equal(nids(it, "contact_ids"), "default,contacts-2");

	/* A check with a body assertion: a keyword monitor. */
	it = page_find(&p, "monitor", "chk3");
	assert_string_equal(nstr(it, "type"), "keyword");
	assert_string_equal(nstr(it, "keyword"), "Add to cart");
	assert_string_equal(nstr(it, "url"), "https://shop.example.com/");
	assert_int_equal(nint(it, "interval"), 300);
	assert_true(nbool(it, "paused"));
	assert_true(nnull(it, "port"));

	it = page_find(&p, "heartbeat", "hb4");
	assert_int_equal(nint(it, "interval"), 0);
	assert_true(nnull(it, "schedule"));
	assert_int_equal(p.nwarnings, 0);
	prov_page_free(&p);

	assert_int_equal(run_parse(cronitor_parse, "monitors:2", 200, "cronitor/monitors_page2.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.next_cursor, "notifications:1"); /* 2 * 4 >= 8 */
	it = page_find(&p, "monitor", "site4");
	assert_string_equal(nstr(it, "type"), "http");
	assert_string_equal(nstr(it, "url"), "http://www.example.com/");
	assert_int_equal(nint(it, "interval"), 60);
	assert_true(nnull(it, "keyword"));
	/* Unknown type: a monitor of type other, warned. */
	it = page_find(&p, "monitor", "syn5");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "\"Login flow\" is of type synthetic, which is unknown"));
	assert_true(has_warning(&p, "\"Login flow\" runs on the schedule \"hourly on weekdays\""));
	/* Not a web address: other, warned; a cron-run check gets 60 s. */
	it = page_find(&p, "monitor", "tcp6");
	assert_string_equal(nstr(it, "type"), "other");
	assert_int_equal(nint(it, "interval"), 60);
	assert_true(has_warning(&p, "check monitor \"Mail port\" has no web address"));
	assert_true(has_warning(&p, "without a usable key; skipped"));
	prov_page_free(&p);

	/* The CLI's page_info shape; "@weekly" is cron, free text is kept but warned. */
	assert_int_equal(run_parse(cronitor_parse, "monitors:1", 200, "cronitor/monitors_page_info.json", &p,
	    &e), PROV_OK);
	assert_string_equal(p.next_cursor, "monitors:2"); /* 1 * 2 < 3 */
	assert_string_equal(nstr(page_find(&p, "heartbeat", "job7"), "schedule"), "@weekly");
	assert_false(has_warning(&p, "Weekly cleanup"));
	assert_string_equal(nstr(page_find(&p, "heartbeat", "job8"), "schedule"), "at 10:00 on weekdays");
	assert_true(has_warning(&p, "\"Odd schedule\" has the schedule \"at 10:00 on weekdays\", which is "
	    "neither a cron expression nor an interval"));
	prov_page_free(&p);

	/* The API ignored the page asked for: stop rather than loop. */
	assert_int_equal(run_parse(cronitor_parse, "monitors:3", 200, "cronitor/monitors_wrong_page.json", &p,
	    &e), PROV_OK);
	assert_string_equal(p.next_cursor, "notifications:1");
	assert_true(has_warning(&p, "answered page 1 when asked for page 3"));
	prov_page_free(&p);

	/* The last allowed page ends the phase. */
	assert_int_equal(run_parse_text(cronitor_parse, "monitors:10000", 200, "{\"monitors\":[{\"key\":\"a\","
	    "\"name\":\"A\",\"type\":\"job\"}],\"page_size\":1,\"total_monitor_count\":20000}", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "notifications:1");
	assert_true(has_warning(&p, "stopped after 10000 pages"));
	prov_page_free(&p);
}

static void
test_cronitor_notification_lists(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(cronitor_parse, "notifications:1", 200, "cronitor/notifications.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "statuspages:1");
	/* One contact per target; the first keeps the list's key. */
	it = page_find(&p, "contact", "default");
	assert_string_equal(nstr(it, "name"), "Default");
	assert_string_equal(nstr(it, "type"), "email");
	assert_string_equal(nstr(it, "value"), "ops@example.com");
	it = page_find(&p, "contact", "default:emails:1");
	assert_string_equal(nstr(it, "value"), "cto@example.com");
	it = page_find(&p, "contact", "default:slack:0");
	assert_string_equal(nstr(it, "type"), "slack");
	assert_string_equal(nstr(it, "value"), "https://hooks.slack.com/services/T0/B0/abc");
	assert_true(has_warning(&p, "\"Default\" has 3 targets: each became a contact"));

	it = page_find(&p, "contact", "contacts-2");
	assert_string_equal(nstr(it, "type"), "sms");
	assert_string_equal(nstr(it, "value"), "+15555550100");
	assert_string_equal(nstr(page_find(&p, "contact", "contacts-2:pagerduty:0"), "type"), "pagerduty");
	assert_string_equal(nstr(page_find(&p, "contact", "contacts-2:microsoft-teams:0"), "type"), "teams");
	assert_string_equal(nstr(page_find(&p, "contact", "contacts-2:victorops:0"), "type"), "other");
	assert_true(has_warning(&p, "has Splunk On-Call (VictorOps) targets, which have no equivalent"));
	it = page_find(&p, "contact", "contacts-2:carrier-pigeon:0");
	assert_string_equal(nstr(it, "type"), "other");
	assert_string_equal(nstr(it, "value"), "loft 7");
	assert_true(has_warning(&p, "has carrier-pigeon targets, which have no equivalent"));

	/* A list without targets: one contact of type other. */
	it = page_find(&p, "contact", "empty");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(nnull(it, "value"));
	assert_true(has_warning(&p, "\"Nobody\" has no targets"));
	assert_int_equal(p.n, 9);
	prov_page_free(&p);

	/* An empty page ends the phase even when the total says more. */
	assert_int_equal(run_parse(cronitor_parse, "notifications:2", 200, "cronitor/notifications_empty.json",
	    &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "statuspages:1");
	prov_page_free(&p);
}

static void
test_cronitor_status_pages(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(cronitor_parse, "statuspages:1", 200, "cronitor/statuspages.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 2);
	assert_null(p.next_cursor);
	it = page_find(&p, "status_page", "sp_public1");
	assert_string_equal(nstr(it, "name"), "Acme Status");
	assert_string_equal(nstr(it, "url"), "https://acme.cronitorstatus.com");
	assert_string_equal(nids(it, "items"), "chk3,hb2"); /* the components' monitors */
	assert_true(nbool(it, "public"));
	it = page_find(&p, "status_page", "sp_internal");
	assert_false(nbool(it, "public"));
	assert_string_equal(nids(it, "items"), "");
	prov_page_free(&p);
}

static void
test_cronitor_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	const char *msg;

	(void)state;
	msg = parse_fails(cronitor_parse, NULL, 403, "cronitor/invalid_key.json", PROV_AUTH);
	assert_string_equal(msg, "Cronitor rejected the API key (Invalid API key)");
	msg = parse_fails(cronitor_parse, "statuspages:1", 401, "cronitor/invalid_key.json", PROV_AUTH);
	assert_string_equal(msg, "Cronitor rejected the API key (Invalid API key)");
	parse_fails(cronitor_parse, NULL, 200, "cronitor/truncated.json", PROV_TRANSIENT);
	parse_fails(cronitor_parse, NULL, 502, "cronitor/invalid_key.json", PROV_TRANSIENT);
	parse_fails(cronitor_parse, "monitors:0", 200, "cronitor/monitors_page1.json", PROV_FATAL);
	parse_fails(cronitor_parse, "templates:1", 200, "cronitor/notifications.json", PROV_FATAL);
	/* The monitors list where the templates were expected. */
	parse_fails(cronitor_parse, "notifications:1", 200, "cronitor/monitors_page1.json", PROV_TRANSIENT);

	resp_text(&r, 429, "{\"detail\":\"Request was throttled.\"}");
	httpc_resp_set_header(&r, "Retry-After", "12");
	memset(&p, 0, sizeof p);
	assert_int_equal(cronitor_parse("monitors:3", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 12);
	httpc_resp_free(&r);
	prov_page_free(&p);
}

/* -------------------------------------------------------------- Statuspage */

static void
test_fetch_cronitor_request_and_scrubbed_error(void **state)
{
	const struct provider_def *def = provider_find("cronitor");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[3] = { answer_fixture("200 OK", "cronitor/statuspages.json"),
		answer("403 Forbidden", "", "{\"error\":\"Invalid API key: cr-key-123456\"}"), NULL };
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"cr-key-123456\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	snprintf(base, sizeof base, "http://127.0.0.1:%d/cr", m.port);
	cfg_init(&cfg, "cronitor", base);
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_int_equal(def->ops->fetch(&s, "statuspages:1", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	/* A bad key: fatal, and the key the provider echoed is not repeated. */
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_AUTH);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /cr/api/statuspages?page=1&withComponents=true HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /cr/api/monitors?page=1 HTTP/1.1\r\n"));
	/* HTTP Basic: the key as user, an empty password ("cr-key-123456:"). */
	assert_non_null(strstr(seen, "Authorization: Basic Y3Ita2V5LTEyMzQ1Njo=\r\n"));
	assert_non_null(strstr(seen, "Cronitor-Version: 2020-10-01\r\n"));
	assert_non_null(strstr(e.message, "Cronitor rejected the API key"));
	assert_null(strstr(e.message, "cr-key-123456"));
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	free(a[0]);
	free(a[1]);
	json_object_put(creds);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cronitor_monitors),
		cmocka_unit_test(test_cronitor_notification_lists),
		cmocka_unit_test(test_cronitor_status_pages),
		cmocka_unit_test(test_cronitor_errors),
		cmocka_unit_test(test_fetch_cronitor_request_and_scrubbed_error),
	};

	return PROVTEST_RUN(tests);
}
