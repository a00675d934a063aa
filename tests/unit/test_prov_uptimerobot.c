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

/* v2 getMonitors with every flag (shape: providers.md §1.2, from the
 * bitfield/uptimerobot testdata, louy/terraform-provider-uptimerobot
 * uptimerobot/api/monitor.go and Linuxfabrik/lfops plugins/module_utils/uptimerobot.py):
 * keyword modes both ways, method codes, bodies, headers, status overrides,
 * TLS, the port of a port monitor, heartbeats, numbers as strings.
 * Long because: one parse of the page and each monitor it makes, checked in turn. */
static void
test_v2_monitors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(uptimerobot_parse, "monitors:0", 200, "uptimerobot/v2_monitors_rich.json",
	                     &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 8);
	/* 9 entries were read (one without id): the next offset is 9 of 53. */
	assert_string_equal(p.next_cursor, "monitors:9");

	/* keyword_type 2 "not exists" alerts when it is missing: up while present. */
	it = page_find(&p, "monitor", "777712827");
	EXPECT_NORM(it, X_STR("type", "keyword"), X_STR("url", "https://shop.example.com:8443/health?x=1"),
	    X_STR("keyword", "All systems go"), X_STR("keyword_up_when", "present"),
	    X_FALSE("keyword_case_sensitive"),                    /* keyword_case_type 1 */
	    X_STR("http_method", "GET"), X_NULL("request_body")); /* post_value "" */
	assert_string_equal(nheader(it, "X-Env"), "prod");
	EXPECT_NORM(it, X_INT("timeout", 30), X_TRUE("verify_ssl"), /* ignore_errors 0 */
	    X_NULL("follow_redirects"), X_TEXT("expected_status_codes", "[]"),
	    X_IDS("contact_ids", "0993765"), X_NULL("port"), X_NULL("auth_username"),
	    X_NULL("auth_password"));
	assert_int_equal(json_object_object_length(njson(it, "contact_timing")),
	    0); /* threshold 0, recurrence 0 */

	/* keyword_type 1 "exists" alerts when found: up while absent; numbers as strings. */
	it = page_find(&p, "monitor", "777712828");
	EXPECT_NORM(it, X_STR("keyword_up_when", "absent"), X_TRUE("keyword_case_sensitive"), /* "0" */
	    X_STR("http_method", "HEAD"), X_INT("interval", 900), X_INT("timeout", 45), X_TRUE("paused"),
	    X_FALSE("verify_ssl"));                                                   /* ignore_errors 1 */
	assert_int_equal(json_object_object_length(njson(it, "request_headers")), 0); /* [] */
	assert_string_equal(ntext(it, "expected_status_codes"), "[\"404\"]");
	assert_string_equal(ntext(it, "alert_status_codes"), "[\"500\",\"503\"]");

	/* POST with a JSON body, its content type, headers; its basic-auth login
	 * (the password for discovery to seal, and out of the stored copy); the
	 * second contact alerted after 5 minutes down, every 30. */
	it = page_find(&p, "monitor", "777712829");
	EXPECT_NORM(it, X_STR("type", "http"), X_STR("url", "https://api.example.com/v1/orders?dry=1"),
	    X_STR("http_method", "POST"), X_STR("request_body", "{\"ping\":true}"));
	assert_string_equal(nheader(it, "Content-Type"), "application/json");
	assert_string_equal(nheader(it, "Authorization-Scope"), "read");
	assert_string_equal(nheader(it, "X-Retry"), "3");
	assert_string_equal(nids(it, "contact_ids"), "0993765,2145");
	assert_string_equal(ntext(it, "contact_timing"), "{\"2145\":{\"delay_s\":300,\"repeat_s\":1800}}");
	EXPECT_NORM(it, X_STR("auth_username", "probe"), X_STR("auth_password", "hunter2"));
	assert_false(has_warning(&p, "logs in"));
	assert_null(strstr(json_object_to_json_string(it->raw), "hunter2"));
	assert_non_null(strstr(json_object_to_json_string_ext(it->raw, JSON_C_TO_STRING_PLAIN),
	    "\"http_password\":\"[redacted]\""));
	assert_non_null(strstr(json_object_to_json_string(it->raw), "probe"));

	/* Port monitors: "port" wins over sub_type (1 for every port monitor). */
	it = page_find(&p, "monitor", "777559666");
	EXPECT_NORM(it, X_STR("type", "port"), X_STR("url", "db.example.com"), X_INT("port", 5432));
	it = page_find(&p, "monitor", "777559667");
	assert_int_equal(nint(it, "port"), 443); /* port "", sub_type 2 */

	it = page_find(&p, "heartbeat", "777559668");
	EXPECT_NORM(it, X_STR("name", "Nightly backup"), X_INT("interval", 86400),
	    X_STR("ping_url", "https://heartbeat.uptimerobot.com/m777559668-abc"), X_FALSE("paused"),
	    X_IDS("contact_ids", "0993765"));

	/* Unknown values: other, or no method, with a warning. */
	assert_string_equal(nstr(page_find(&p, "monitor", "777559669"), "type"), "other");
	assert_true(has_warning(&p, "unknown type 7; kept as other"));
	assert_true(nnull(page_find(&p, "monitor", "777559670"), "http_method"));
	assert_true(has_warning(&p, "unknown HTTP method 9"));
	assert_true(has_warning(&p, "without a usable id"));
	prov_page_free(&p);
}

/* v2 contacts (bitfield fixture, louy), windows and status pages (louy,
 * WileESpaghetti mock; providers.md §1.2): the phases in order. */
static void
test_v2_phases(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* Last page of monitors: on to contacts. */
	assert_int_equal(run_parse(uptimerobot_parse, "monitors:50", 200, "uptimerobot/monitors_last.json",
	                     &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);

	/* Alert contacts: offset/limit/total at the top level. */
	assert_int_equal(run_parse(uptimerobot_parse, "contacts:0", 200, "uptimerobot/contacts.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.next_cursor, "mwindows:0");
	it = page_find(&p, "contact", "0993765");
	EXPECT_NORM(it, X_STR("type", "email"), X_STR("name", "John Doe"),
	    X_STR("value", "johndoe@gmail.com"), X_FALSE("needs_address"));
	it = page_find(&p, "contact", "2145");
	EXPECT_NORM(it, X_STR("type", "slack"), /* "type":"11" */
	    X_NULL("value"), X_TRUE("needs_address"));
	it = page_find(&p, "contact", "2146");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "unknown type 42"));
	prov_page_free(&p);

	/* More contacts than one page: the top-level total drives the offset. */
	assert_int_equal(run_parse(uptimerobot_parse, "contacts:50", 200, "uptimerobot/contacts_more.json",
	                     &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "contacts:51");
	prov_page_free(&p);

	/* Status pages: the last phase. */
	assert_int_equal(run_parse(uptimerobot_parse, "psps:0", 200, "uptimerobot/psps.json", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	assert_int_equal(p.n, 3);
	it = page_find(&p, "status_page", "123456");
	EXPECT_NORM(it, X_IDS("items", "777749809,777712827"),
	    X_STR("url", "https://stats.uptimerobot.com/asfF1XZb0M"), /* custom_url "" */
	    X_TRUE("public"));
	it = page_find(&p, "status_page", "123457");
	assert_string_equal(nids(it, "items"), ""); /* "monitors":0 = all: the importer fills them */
	assert_true(nbool(it, "all_monitors"));
	assert_string_equal(nstr(it, "url"), "https://status.example.com");
	assert_true(has_warning(&p, "\"All of them\" shows all monitors"));
	it = page_find(&p, "status_page", "123458");
	assert_false(nbool(it, "public")); /* paused */
	assert_false(nbool(it, "all_monitors"));
	assert_string_equal(nstr(it, "url"), "https://stats.uptimerobot.com/yyy");
	prov_page_free(&p);
}

/* v2 getMWindows (shape: providers.md §1.2, Linuxfabrik/lfops
 * plugins/module_utils/uptimerobot.py MWINDOW_* maps): parsed alone, the
 * windows name no monitors (the fetch adds them, see test_fetch_v2_windows). */
static void
test_v2_windows(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(uptimerobot_parse, "mwindows:0", 200, "uptimerobot/v2_mwindows.json", &p,
	                     &e),
	    PROV_OK);
	assert_int_equal(p.n, 5);
	assert_string_equal(p.next_cursor, "psps:0");
	it = page_find(&p, "maintenance_window", "581");
	EXPECT_NORM(it, X_STR("name", "Weekly DB"), X_STR("recurrence", "weekly"), X_STR("start", "03:30"),
	    X_NULL("end"), X_INT("duration", 120), X_TEXT("days", "[1,3]"), X_FALSE("paused"),
	    X_IDS("monitor_ids", ""));
	it = page_find(&p, "maintenance_window", "582");
	EXPECT_NORM(it, X_STR("recurrence", "once"), X_STR("start", "2023-11-14T22:13:20Z"),
	    X_STR("end", "2023-11-14T23:43:20Z"), /* "duration":"90" */
	    X_TEXT("days", "[]"));
	it = page_find(&p, "maintenance_window", "583");
	assert_string_equal(nstr(it, "recurrence"), "daily");
	assert_true(nbool(it, "paused"));
	it = page_find(&p, "maintenance_window", "584");
	assert_string_equal(nstr(it, "recurrence"), "monthly");
	assert_string_equal(ntext(it, "days"), "[1,15]");
	assert_string_equal(nstr(page_find(&p, "maintenance_window", "585"), "recurrence"), "other");
	assert_true(has_warning(&p, "\"Strange\" has an unknown type 9"));
	prov_page_free(&p);
}

/* v3 /monitors (shape: providers.md §1.3 from the official
 * uptimerobot/terraform-provider-uptimerobot internal/client/monitor.go
 * Monitor and MonitorListResponse, and internal/provider/monitor/monitor_region_data.go
 * for the three region forms). */
static void
test_v3_monitors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(uptimerobot_parse, NULL, 200, "uptimerobot/v3_monitors.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 9);
	assert_string_equal(p.next_cursor, "v3-monitors:800123464"); /* cursor= of nextLink */

	it = page_find(&p, "monitor", "800123456");
	EXPECT_NORM(it, X_STR("type", "keyword"), X_STR("url", "https://shop.example.com:8443/health?x=1"),
	    X_STR("keyword_up_when", "present"), /* ALERT_NOT_EXISTS */
	    X_FALSE("keyword_case_sensitive"), X_STR("http_method", "GET"));
	assert_string_equal(nheader(it, "x-env"), "prod");
	EXPECT_NORM(it, X_TEXT("expected_status_codes", "[\"200\",\"201\"]"), X_TRUE("follow_redirects"),
	    X_TRUE("verify_ssl"), X_INT("ssl_expiry_days", 30), X_TEXT("regions", "[\"eu\"]"),
	    X_TEXT("tags", "[\"prod\"]"), X_IDS("contact_ids", "7012345,7012346"), X_INT("timeout", 30),
	    X_NULL("auth_username"), X_NULL("auth_password"), X_NULL("dns_record_type"));
	/* threshold 5, recurrence 30 (minutes) of the second link */
	assert_string_equal(ntext(it, "contact_timing"), "{\"7012346\":{\"delay_s\":300,\"repeat_s\":1800}}");

	it = page_find(&p, "monitor", "800123457");
	EXPECT_NORM(it, X_STR("keyword_up_when", "absent"), /* ALERT_EXISTS */
	    X_TRUE("keyword_case_sensitive"),               /* "0" */
	    X_TRUE("paused"), X_INT("interval", 600), X_FALSE("follow_redirects"), X_FALSE("verify_ssl"),
	    X_NULL("ssl_expiry_days"), X_TEXT("regions", "[\"na\",\"eu\"]"));

	/* API monitor: POST with a JSON body; tags; the group name needs the groups list. */
	it = page_find(&p, "monitor", "800123458");
	EXPECT_NORM(it, X_STR("type", "api"), X_STR("http_method", "POST"),
	    X_STR("request_body", "{\"ping\":true}"));
	assert_string_equal(nheader(it, "Content-Type"), "application/json");
	EXPECT_NORM(it, X_TEXT("expected_status_codes", "[\"2xx\"]"), X_TEXT("regions", "[\"as\",\"oc\"]"),
	    X_TEXT("tags", "[\"api\",\"billing\"]"), X_IDS("contact_ids", "7012399"),
	    X_STR("auth_username", "probe"), X_STR("auth_password", "hunter2"));
	assert_null(strstr(json_object_to_json_string(it->raw), "hunter2"));
	/* its assertions: a check without a property or with an unknown comparison
	 * is left out; numbers and booleans as text; no target for is_not_null;
	 * OR over several is imported as AND, with a warning */
	assert_string_equal(ntext(it, "assertions"),
	    "[{\"source\":\"json\",\"property\":\"$.status\",\"comparison\":\"equals\",\"target\":\"ok\"},"
	    "{\"source\":\"json\",\"property\":\"$.n\",\"comparison\":\"greater_than\",\"target\":\"2.5\"},"
	    "{\"source\":\"json\",\"property\":\"$.flag\",\"comparison\":\"equals\",\"target\":\"false\"},"
	    "{\"source\":\"json\",\"property\":\"$.gone\",\"comparison\":\"is_not_null\",\"target\":null}]");
	assert_true(has_warning(&p,
	    "\"Order API\" has 2 assertion(s) without a property, with an unknown comparison"));
	assert_true(has_warning(&p, "\"Order API\" is up when any one of its 4 assertions holds"));

	it = page_find(&p, "monitor", "800123459");
	EXPECT_NORM(it, X_STR("type", "port"), X_STR("url", "db.example.com"), X_INT("port", 5432));
	/* DNS: the first record type with answers (CNAME has none); answers that
	 * are not text are left out; the other types named in a warning */
	it = page_find(&p, "monitor", "800123460");
	EXPECT_NORM(it, X_STR("type", "dns"), X_STR("url", "example.org"), X_STR("dns_record_type", "A"),
	    X_TEXT("dns_expected", "[\"93.184.216.34\"]"), X_NULL("dns_nameserver"),
	    X_TEXT("assertions", "[]"));
	assert_true(has_warning(&p,
	    "DNS monitor \"Resolver\" also expects records of 2 other type(s) (MX, bad "
	    "type!); the account checks one type, A"));
	it = page_find(&p, "monitor", "800123461");
	EXPECT_NORM(it, X_STR("type", "udp"), X_INT("port", 514), /* "514" */
	    X_STR("request_body", "ping"));

	it = page_find(&p, "heartbeat", "800123462");
	EXPECT_NORM(it, X_INT("grace", 300), X_TRUE("paused"), X_TEXT("tags", "[\"cron\"]"),
	    X_STR("ping_url", "https://heartbeat.uptimerobot.com/m800123462-abc"),
	    X_IDS("contact_ids", "7012345"));

	assert_string_equal(nstr(page_find(&p, "monitor", "800123463"), "type"), "other");
	assert_true(has_warning(&p, "unknown type SMTP; kept as other"));
	it = page_find(&p, "monitor", "800123464");
	EXPECT_NORM(it, X_NULL("http_method"), X_NULL("auth_username"), X_NULL("auth_password"));
	assert_true(has_warning(&p, "uses the HTTP method QUERY"));
	assert_true(has_warning(&p,
	    "\"Query method\" logs in with DIGEST authentication, which the account does not "
	    "offer (basic only); its credentials are not imported: enter them again"));
	assert_null(strstr(json_object_to_json_string(it->raw), "hunter3"));
	assert_true(has_warning(&p, "without a usable id"));
	prov_page_free(&p);
}

/* v3 contacts: /user/alert-contacts is a bare array (official TF
 * internal/client/alert_contact.go UserAlertContact, ListAlertContacts), the
 * integrations data + nextLink (integration.go, integration_test.go). */
static void
test_v3_contacts(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(uptimerobot_parse, "v3-contacts:0", 200,
	                     "uptimerobot/v3_alert_contacts.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 5);
	assert_string_equal(p.next_cursor, "v3-integrations:0");
	it = page_find(&p, "contact", "7012345");
	EXPECT_NORM(it, X_STR("type", "email"), X_STR("value", "johndoe@example.com"),
	    X_FALSE("needs_address"));
	assert_string_equal(nstr(page_find(&p, "contact", "7012347"), "type"), "sms");
	it = page_find(&p, "contact", "7012348");
	assert_string_equal(nstr(it, "type"), "push");
	assert_true(nbool(it, "needs_address"));
	assert_string_equal(nstr(page_find(&p, "contact", "7012349"), "type"), "voice"); /* 14 */
	assert_string_equal(nstr(page_find(&p, "contact", "7012350"), "type"), "other");
	assert_true(has_warning(&p, "unknown type Pigeon"));
	prov_page_free(&p);

	assert_int_equal(run_parse(uptimerobot_parse, "v3-integrations:0", 200,
	                     "uptimerobot/v3_integrations.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.next_cursor, "v3-integrations:7012400");
	it = page_find(&p, "contact", "7012346");
	assert_string_equal(nstr(it, "type"), "slack");
	assert_string_equal(nstr(it, "value"), "https://hooks.slack.com/services/T000/B000/XXXX");
	it = page_find(&p, "contact", "7012399");
	assert_string_equal(nstr(it, "type"), "webhook");
	assert_string_equal(nstr(it, "value"), "https://hooks.example.com/ur");
	it = page_find(&p, "contact", "7012400");
	assert_string_equal(nstr(it, "type"), "pagerduty");
	assert_true(nbool(it, "needs_address"));
	prov_page_free(&p);

	/* The same cursor again (a provider that does not advance): next phase. */
	assert_int_equal(run_parse(uptimerobot_parse, "v3-integrations:7012400", 200,
	                     "uptimerobot/v3_integrations.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "v3-mwindows:0");
	prov_page_free(&p);
}

/* v3 windows (official TF internal/client/maintenance_window.go and
 * maintenance_window_test.go) and status pages (psp.go, psp_test.go). */
static void
test_v3_windows_and_pages(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(uptimerobot_parse, "v3-mwindows:0", 200, "uptimerobot/v3_mwindows.json",
	                     &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 4);
	assert_string_equal(p.next_cursor, "v3-psps:0");
	it = page_find(&p, "maintenance_window", "581");
	EXPECT_NORM(it, X_STR("recurrence", "weekly"), X_STR("start", "03:30"), X_TEXT("days", "[1,3]"));
	it = page_find(&p, "maintenance_window", "582");
	EXPECT_NORM(it, X_STR("recurrence", "once"), X_STR("start", "2026-12-24T22:30:00"),
	    X_STR("end", "2026-12-25T01:00:00"));
	it = page_find(&p, "maintenance_window", "583");
	assert_true(nbool(it, "paused"));
	assert_string_equal(nids(it, "monitor_ids"), "800123457,800123460"); /* its monitorIds */
	assert_true(has_warning(&p, "\"Daily backup\" is added to every new monitor"));
	assert_string_equal(nstr(page_find(&p, "maintenance_window", "584"), "recurrence"), "other");
	assert_true(has_warning(&p, "repeats in an unknown way (biweekly)"));
	prov_page_free(&p);

	/* one-off dates and times by the one parser: 30 February, a time with
	 * garbage or a date-time for a date are no start (never 2 March) */
	assert_int_equal(
	    run_parse_text(uptimerobot_parse, "v3-mwindows:0", 200,
	        "{\"data\":["
	        "{\"id\":1,\"name\":\"A\",\"interval\":\"once\",\"date\":\"2026-02-30\",\"time\":\"22:30:00\",\"duration\":10},"
	        "{\"id\":2,\"name\":\"B\",\"interval\":\"once\",\"date\":\"2026-02-28\",\"time\":\"22:30:00x\",\"duration\":10},"
	        "{\"id\":3,\"name\":\"C\",\"interval\":\"once\",\"date\":\"2026-02-28T00:00:00Z\",\"time\":\"22:30\","
	        "\"duration\":10},"
	        "{\"id\":4,\"name\":\"D\",\"interval\":\"once\",\"date\":\"2028-02-29\",\"time\":\"23:55:30\",\"duration\":10}],"
	        "\"nextCursorId\":null}",
	        &p, &e),
	    PROV_OK);
	assert_true(nnull(page_find(&p, "maintenance_window", "1"), "start"));
	assert_true(nnull(page_find(&p, "maintenance_window", "2"), "start"));
	assert_true(nnull(page_find(&p, "maintenance_window", "3"), "start"));
	EXPECT_NORM(page_find(&p, "maintenance_window", "4"), X_STR("start", "2028-02-29T23:55:30"),
	    X_STR("end", "2028-03-01T00:05:30"));
	prov_page_free(&p);

	assert_int_equal(run_parse(uptimerobot_parse, "v3-psps:0", 200, "uptimerobot/v3_psps.json", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	it = page_find(&p, "status_page", "101");
	EXPECT_NORM(it, X_STR("url", "https://stats.uptimerobot.com/AbCdEf123"), X_TRUE("public"),
	    X_IDS("items", "800123456,800123462"));
	it = page_find(&p, "status_page", "102");
	assert_string_equal(nstr(it, "url"), "https://status.example.com");
	assert_false(nbool(it, "public")); /* password set */
	it = page_find(&p, "status_page", "103");
	assert_false(nbool(it, "public")); /* paused */
	assert_true(has_warning(&p, "\"Paused page\" shows 4 monitors that the list does not name"));
	/* its entries were not read: a re-import keeps the account's; page 101's were */
	assert_string_equal(json_object_to_json_string_ext(json_object_object_get(it->norm, "unread"),
	                        JSON_C_TO_STRING_PLAIN),
	    "{\"keys\":[\"items\"],\"why\":\"the status page list does not name its monitors\"}");
	assert_null(json_object_object_get(page_find(&p, "status_page", "101")->norm, "unread"));
	prov_page_free(&p);
}

/* A later list refused for the key: skipped with a warning, on to the next
 * phase (providers.md §12). Only the monitor list's refusal is a bad key. */
static void
test_refused_kinds(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	/* v3: 403 (official TF errors.go; body shape of the v3 error answers). */
	assert_int_equal(run_parse(uptimerobot_parse, "v3-integrations:0", 403,
	                     "uptimerobot/v3_forbidden.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "v3-mwindows:0");
	assert_true(has_warning(&p, "UptimeRobot refused the integrations list for this key (HTTP 403)"));
	prov_page_free(&p);
	assert_int_equal(run_parse(uptimerobot_parse, "v3-psps:0", 401, "uptimerobot/v3_unauthorized.json",
	                     &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "status pages"));
	prov_page_free(&p);
	/* v2: "not_authorized" in the body (providers.md §1.4). */
	assert_int_equal(run_parse(uptimerobot_parse, "contacts:0", 200, "uptimerobot/not_authorized.json",
	                     &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "mwindows:0");
	assert_true(has_warning(&p,
	    "refused the alert contacts list for this key (not_authorized): alert contacts skipped"));
	prov_page_free(&p);
	assert_int_equal(run_parse(uptimerobot_parse, "mwindows:0", 200, "uptimerobot/not_authorized.json",
	                     &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "psps:0");
	assert_true(has_warning(&p, "maintenance windows"));
	prov_page_free(&p);
	/* The monitor list refused: a bad key, on either API and at any page. */
	assert_string_not_equal(parse_fails(uptimerobot_parse, "monitors:50", 200,
	                            "uptimerobot/not_authorized.json", PROV_AUTH),
	    "");
	assert_non_null(strstr(parse_fails(uptimerobot_parse, "v3-monitors:7", 401,
	                           "uptimerobot/v3_unauthorized.json", PROV_AUTH),
	    "rejected the API key (HTTP 401: Unauthorized)"));
}

static void
test_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse(uptimerobot_parse, "monitors:0", 200, "uptimerobot/bad_key.json", &p, &e),
	    PROV_AUTH);
	assert_non_null(strstr(e.message, "UptimeRobot rejected the API key"));
	assert_null(strstr(e.message, "u123-secretkeyvalue")); /* passed_value is never copied */
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	assert_int_equal(run_parse(uptimerobot_parse, "psps:0", 200, "uptimerobot/missing_key.json", &p, &e),
	    PROV_AUTH);
	prov_page_free(&p);
	assert_int_equal(run_parse(uptimerobot_parse, "monitors:0", 200, "uptimerobot/truncated.json", &p,
	                     &e),
	    PROV_TRANSIENT);
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, "monitors:0", 200, "<html>maintenance</html>", &p,
	                     &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, "monitors:0", 200,
	                     "{\"stat\":\"ok\",\"monitors\":{}}", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 200, "{\"data\":{}}", &p, &e),
	    PROV_TRANSIENT);
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
test_rate_limited(void **state)
{
	struct httpc_resp r;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };

	(void)state;
	resp_text(&r, 429, "{\"stat\":\"fail\"}");
	httpc_resp_set_header(&r, "Retry-After", "60");
	assert_int_equal(uptimerobot_parse("contacts:0", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 60);
	assert_int_equal(uptimerobot_parse("v3-psps:0", &r, &p, &e), PROV_RATE_LIMITED);
	httpc_resp_free(&r);
	prov_page_free(&p);
}

/* An empty account: every phase ends at once, discovery completes. */
static void
test_empty_account(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(
	    run_parse_text(uptimerobot_parse, "monitors:0", 200,
	        "{\"stat\":\"ok\",\"pagination\":{\"offset\":0,\"limit\":50,\"total\":0},\"monitors\":[]}",
	        &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);
	/* A provider that claims more but sends nothing cannot keep us looping. */
	assert_int_equal(
	    run_parse_text(uptimerobot_parse, "psps:100", 200,
	        "{\"stat\":\"ok\",\"pagination\":{\"offset\":100,\"limit\":50,\"total\":900},\"psps\":[]}",
	        &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 200, "{\"data\":[],\"nextLink\":null}", &p,
	                     &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "v3-contacts:0");
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, "v3-contacts:0", 200, "[]", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "v3-integrations:0");
	prov_page_free(&p);
	/* A cursor the shared checkpoint cannot hold ends the list with a warning. */
	assert_int_equal(run_parse_text(uptimerobot_parse, "v3-psps:0", 200,
	                     "{\"data\":[{\"id\":1,\"friendlyName\":\"A\"}],\"nextCursorId\":\"3000000000\"}",
	                     &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "cursor 3000000000 is out of range"));
	prov_page_free(&p);
	/* An empty page with a next cursor still ends the list. */
	assert_int_equal(run_parse_text(uptimerobot_parse, "v3-mwindows:0", 200,
	                     "{\"data\":[],\"nextCursorId\":55}", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "v3-psps:0");
	prov_page_free(&p);
}

/* ------------------------------------------------------------ whole fetches */

/* One whole fetch with the test key against a local server (fetch_served). */
static enum prov_status
ur_fetch(const char *cursor, char **answers, struct prov_page *p, struct prov_error *e, const char **seen)
{
	return fetch_served("uptimerobot", "/ur", "{\"api_key\":\"u123-secretkeyvalue\"}", cursor, answers, p,
	    e, seen);
}

/* The start: v3 first with the Bearer key; v3 refuses it (401), so the same
 * fetch reads the first page of v2 with every flag, and the cursor stays on v2. */
static void
test_fetch_falls_back_to_v2(void **state)
{
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	const char *seen;

	(void)state;
	assert_int_equal(ur_fetch(NULL,
	                     (char *[]){
	                         answer_fixture("401 Unauthorized", "uptimerobot/v3_unauthorized.json"),
	                         answer_fixture("200 OK", "uptimerobot/v2_monitors_rich.json"), NULL },
	                     &p, &e, &seen),
	    PROV_OK);
	assert_non_null(strstr(seen, "GET /ur/v3/monitors HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "Authorization: Bearer u123-secretkeyvalue\r\n"));
	assert_non_null(strstr(seen, "POST /ur/v2/getMonitors HTTP/1.1\r\n"));
	assert_non_null(strstr(seen,
	    "api_key=u123-secretkeyvalue&format=json&offset=0&limit=50&alert_contacts=1"
	    "&ssl=1&custom_http_headers=1&custom_http_statuses=1&mwindows=1"));
	assert_int_equal(p.n, 8);
	assert_string_equal(p.next_cursor, "monitors:9");
	assert_true(has_warning(&p, "API v3 refused this key (HTTP 401); the import uses API v2"));
	prov_page_free(&p);
}

/* Both APIs refuse the key: a bad key, and the message does not repeat it. */
static void
test_fetch_bad_key(void **state)
{
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };

	(void)state;
	assert_int_equal(
	    ur_fetch(NULL,
	        (char *[]){
	            answer("401 Unauthorized", "", "{\"statusCode\":401,\"message\":\"Unauthorized\"}"),
	            answer("200 OK", "",
	                "{\"stat\":\"fail\",\"error\":{\"type\":\"invalid_parameter\","
	                "\"parameter_name\":\"api_key\",\"passed_value\":\"u123-secretkeyvalue\","
	                "\"message\":\"api_key u123-secretkeyvalue not found.\"}}"),
	            NULL },
	        &p, &e, NULL),
	    PROV_AUTH);
	assert_non_null(strstr(e.message, "UptimeRobot rejected the API key"));
	assert_non_null(strstr(e.message, "API v3 answered HTTP 401"));
	assert_null(strstr(e.message, "secretkeyvalue"));
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
}

/* v3 accepts the key: its monitors, and the group names as tags (official TF
 * internal/client/monitor_group.go). */
static void
test_fetch_v3_with_groups(void **state)
{
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	const char *seen;

	(void)state;
	assert_int_equal(ur_fetch(NULL,
	                     (char *[]){ answer_fixture("200 OK", "uptimerobot/v3_monitors.json"),
	                         answer_fixture("200 OK", "uptimerobot/v3_monitor_groups.json"), NULL },
	                     &p, &e, &seen),
	    PROV_OK);
	assert_non_null(strstr(seen, "GET /ur/v3/monitor-groups HTTP/1.1\r\n"));
	assert_null(strstr(seen, "/v2/"));
	assert_string_equal(p.next_cursor, "v3-monitors:800123464");
	assert_string_equal(ntext(page_find(&p, "monitor", "800123458"), "tags"),
	    "[\"api\",\"billing\",\"group:Production\"]");
	assert_string_equal(ntext(page_find(&p, "monitor", "800123459"), "tags"), "[\"group:Production\"]");
	assert_string_equal(ntext(page_find(&p, "monitor", "800123456"), "tags"), "[\"prod\"]");
	prov_page_free(&p);

	/* The next page resumes at the cursor. */
	assert_int_equal(ur_fetch("v3-monitors:800123464",
	                     (char *[]){ answer("200 OK", "", "{\"data\":[],\"nextLink\":null}"), NULL }, &p,
	                     &e, &seen),
	    PROV_OK);
	assert_non_null(strstr(seen, "GET /ur/v3/monitors?cursor=800123464 HTTP/1.1\r\n"));
	assert_string_equal(p.next_cursor, "v3-contacts:0");
	prov_page_free(&p);
}

/* A page of v2 windows pages through the monitors (mwindows=1 only) for the
 * monitors that list each window; ids of other windows are ignored. */
static void
test_fetch_v2_windows(void **state)
{
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	const char *seen;

	(void)state;
	assert_int_equal(ur_fetch("mwindows:0",
	                     (char *[]){ answer_fixture("200 OK", "uptimerobot/v2_mwindows.json"),
	                         answer_fixture("200 OK", "uptimerobot/v2_monitors_scan1.json"),
	                         answer_fixture("200 OK", "uptimerobot/v2_monitors_scan2.json"), NULL },
	                     &p, &e, &seen),
	    PROV_OK);
	assert_non_null(strstr(seen, "POST /ur/v2/getMWindows HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "offset=0&limit=50&mwindows=1"));
	assert_non_null(strstr(seen, "offset=2&limit=50&mwindows=1"));
	assert_null(strstr(seen, "alert_contacts=1"));
	assert_string_equal(p.next_cursor, "psps:0");
	assert_string_equal(nids(page_find(&p, "maintenance_window", "581"), "monitor_ids"),
	    "777712827,777712829");
	assert_string_equal(nids(page_find(&p, "maintenance_window", "582"), "monitor_ids"),
	    "777712829,777559668");
	assert_string_equal(nids(page_find(&p, "maintenance_window", "583"), "monitor_ids"), "");
	prov_page_free(&p);
}

/* The same on v3: the plain monitor list, paged by its cursor. */
static void
test_fetch_v3_windows(void **state)
{
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	const char *seen;

	(void)state;
	assert_int_equal(ur_fetch("v3-mwindows:0",
	                     (char *[]){ answer_fixture("200 OK", "uptimerobot/v3_mwindows.json"),
	                         answer_fixture("200 OK", "uptimerobot/v3_monitors_scan1.json"),
	                         answer_fixture("200 OK", "uptimerobot/v3_monitors_scan2.json"), NULL },
	                     &p, &e, &seen),
	    PROV_OK);
	assert_non_null(strstr(seen, "GET /ur/v3/maintenance-windows HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /ur/v3/monitors HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /ur/v3/monitors?cursor=800123458 HTTP/1.1\r\n"));
	assert_string_equal(p.next_cursor, "v3-psps:0");
	assert_string_equal(nids(page_find(&p, "maintenance_window", "581"), "monitor_ids"),
	    "800123456,800123458");
	assert_string_equal(nids(page_find(&p, "maintenance_window", "582"), "monitor_ids"),
	    "800123458,800123462");
	/* a window that names its monitors keeps them (the scan lists 583 nowhere) */
	assert_string_equal(nids(page_find(&p, "maintenance_window", "583"), "monitor_ids"),
	    "800123457,800123460");
	prov_page_free(&p);

	/* Every window names its monitors: the monitors are not paged. */
	assert_int_equal(ur_fetch("v3-mwindows:0",
	                     (char *[]){ answer("200 OK", "",
	                                     "{\"data\":[{\"id\":9,\"name\":\"Nine\",\"interval\":\"daily\","
	                                     "\"time\":\"01:00:00\",\"duration\":5,\"monitorIds\":[1,2]},"
	                                     "{\"id\":10,\"name\":\"Ten\",\"interval\":\"daily\","
	                                     "\"time\":\"02:00:00\",\"duration\":5,\"monitorIds\":[]}],"
	                                     "\"nextCursorId\":null}"),
	                         NULL },
	                     &p, &e, &seen),
	    PROV_OK);
	assert_null(strstr(seen, "/v3/monitors"));
	assert_string_equal(nids(page_find(&p, "maintenance_window", "9"), "monitor_ids"), "1,2");
	assert_string_equal(nids(page_find(&p, "maintenance_window", "10"), "monitor_ids"), "");
	prov_page_free(&p);

	/* The monitor scan fails: the whole page of windows is retried later. */
	assert_int_equal(ur_fetch("v3-mwindows:0",
	                     (char *[]){ answer_fixture("200 OK", "uptimerobot/v3_mwindows.json"),
	                         answer("503 Service Unavailable", "",
	                             "{\"statusCode\":503,\"message\":\"busy\"}"),
	                         NULL },
	                     &p, &e, NULL),
	    PROV_TRANSIENT);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);

	/* Windows refused (403): skipped without paging the monitors. */
	assert_int_equal(ur_fetch("v3-mwindows:0",
	                     (char *[]){ answer_fixture("403 Forbidden", "uptimerobot/v3_forbidden.json"),
	                         NULL },
	                     &p, &e, &seen),
	    PROV_OK);
	assert_null(strstr(seen, "/v3/monitors"));
	assert_string_equal(p.next_cursor, "v3-psps:0");
	assert_true(has_warning(&p, "refused the maintenance windows list for this key (HTTP 403)"));
	prov_page_free(&p);
}

/* A window whose duration or start would overflow start + duration * 60
 * (v2) or timegm + duration * 60 (v3): the number is not used. */
static void
test_uptimerobot_window_numbers_out_of_range(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(
	    run_parse_text(uptimerobot_parse, "mwindows:0", 200,
	        "{\"stat\":\"ok\","
	        "\"pagination\":{\"offset\":0,\"limit\":50,\"total\":3},\"mwindows\":["
	        "{\"id\":1,\"type\":1,\"friendly_name\":\"Long\",\"start_time\":1700000000,\"duration\":9223372036854775806,\"status\":1},"
	        "{\"id\":2,\"type\":1,\"friendly_name\":\"Far\",\"start_time\":9223372036854775806,\"duration\":60,\"status\":1},"
	        "{\"id\":3,\"type\":1,\"friendly_name\":\"Fine\",\"start_time\":1700000000,\"duration\":1.5e2,\"status\":1}]}",
	        &p, &e),
	    PROV_OK);
	it = page_find(&p, "maintenance_window", "1");
	assert_true(nnull(it, "end"));
	assert_true(nnull(it, "duration"));
	it = page_find(&p, "maintenance_window", "2");
	assert_true(nnull(it, "start"));
	it = page_find(&p, "maintenance_window", "3");
	assert_string_equal(nstr(it, "end"), "2023-11-15T00:43:20Z");
	prov_page_free(&p);

	assert_int_equal(
	    run_parse_text(uptimerobot_parse, "v3-mwindows:0", 200,
	        "{\"data\":["
	        "{\"id\":4,\"name\":\"Long\",\"interval\":\"once\",\"date\":\"2023-11-14\",\"time\":\"22:13:99999999\","
	        "\"duration\":99999999999999999999},"
	        "{\"id\":5,\"name\":\"Fine\",\"interval\":\"once\",\"date\":\"2023-11-14\",\"time\":\"22:13:20\","
	        "\"duration\":90}],\"nextCursorId\":null}",
	        &p, &e),
	    PROV_OK);
	it = page_find(&p, "maintenance_window", "4");
	assert_true(nnull(it, "end"));
	assert_true(nnull(it, "duration"));
	it = page_find(&p, "maintenance_window", "5");
	assert_string_equal(nstr(it, "end"), "2023-11-14T23:43:20");
	prov_page_free(&p);
}

/* Alert timing from hostile links: a threshold or recurrence that is not a
 * whole number of minutes from 0 to 1000000 leaves that link's timing
 * unsaid (the link stays), with one warning; "" is unset (v2). A login that
 * is not text of at most 255 bytes is not imported. */
static void
test_uptimerobot_hostile_timing_and_login(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;
	char long_pw[300], body[1024];

	(void)state;
	assert_int_equal(
	    run_parse_text(uptimerobot_parse, NULL, 200,
	        "{\"data\":[{\"id\":1,\"friendlyName\":\"Hostile\",\"type\":\"HTTP\",\"url\":\"https://h.example.com/\","
	        "\"authType\":\"HTTP_BASIC\",\"httpUsername\":7,\"httpPassword\":\"pw\","
	        "\"assignedAlertContacts\":[{\"alertContactId\":\"1\",\"threshold\":-1},"
	        "{\"alertContactId\":\"2\",\"threshold\":\"5\",\"recurrence\":\"x\"},"
	        "{\"alertContactId\":\"3\",\"threshold\":2000000},{\"alertContactId\":\"4\",\"threshold\":[1]},"
	        "{\"alertContactId\":\"5\",\"threshold\":\"7\",\"recurrence\":1},"
	        "{\"alertContactId\":\"6\",\"threshold\":\"\",\"recurrence\":1.5e1},{\"threshold\":3}]},"
	        "{\"id\":2,\"friendlyName\":\"Beat\",\"type\":\"HEARTBEAT\",\"url\":\"https://hb.example.com/x\","
	        "\"assignedAlertContacts\":[{\"alertContactId\":9,\"threshold\":1,\"recurrence\":0}]}],"
	        "\"nextLink\":null}",
	        &p, &e),
	    PROV_OK);
	it = page_find(&p, "monitor", "1");
	assert_string_equal(nids(it, "contact_ids"), "1,2,3,4,5,6");
	assert_string_equal(ntext(it, "contact_timing"),
	    "{\"5\":{\"delay_s\":420,\"repeat_s\":60},\"6\":{\"delay_s\":null,\"repeat_s\":900}}");
	assert_true(has_warning(&p,
	    "monitor \"Hostile\" has 4 alert contact(s) whose threshold or recurrence is not "
	    "a number of minutes from 0 to 1000000; they are linked without their timing"));
	EXPECT_NORM(it, X_NULL("auth_username"), X_NULL("auth_password"));
	assert_true(has_warning(&p,
	    "\"Hostile\" logs in with a user name or password that is not text of at most "
	    "255 bytes"));
	assert_null(strstr(json_object_to_json_string(it->raw), "\"pw\""));
	/* a heartbeat's links carry their timing too */
	assert_string_equal(ntext(page_find(&p, "heartbeat", "2"), "contact_timing"),
	    "{\"9\":{\"delay_s\":60,\"repeat_s\":null}}");
	prov_page_free(&p);

	/* v2: a password of 300 bytes; a digest login */
	memset(long_pw, 'p', sizeof long_pw - 1);
	long_pw[sizeof long_pw - 1] = '\0';
	snprintf(body, sizeof body,
	    "{\"stat\":\"ok\",\"pagination\":{\"offset\":0,\"limit\":50,\"total\":2},\"monitors\":["
	    "{\"id\":1,\"friendly_name\":\"Long\",\"type\":1,\"url\":\"https://l.example.com/\","
	    "\"http_username\":\"u\",\"http_password\":\"%s\",\"http_auth_type\":\"\"},"
	    "{\"id\":2,\"friendly_name\":\"Digest\",\"type\":2,\"url\":\"https://d.example.com/\","
	    "\"keyword_value\":\"ok\",\"keyword_type\":2,\"http_username\":\"u\",\"http_password\":\"secret-d\","
	    "\"http_auth_type\":2}]}",
	    long_pw);
	assert_int_equal(run_parse_text(uptimerobot_parse, "monitors:0", 200, body, &p, &e), PROV_OK);
	EXPECT_NORM(page_find(&p, "monitor", "1"), X_NULL("auth_username"), X_NULL("auth_password"));
	assert_true(has_warning(&p, "\"Long\" logs in with a user name or password that is not text"));
	assert_null(strstr(json_object_to_json_string(page_find(&p, "monitor", "1")->raw), "pppp"));
	EXPECT_NORM(page_find(&p, "monitor", "2"), X_NULL("auth_username"), X_NULL("auth_password"));
	assert_true(has_warning(&p, "\"Digest\" logs in with digest authentication"));
	assert_null(strstr(json_object_to_json_string(page_find(&p, "monitor", "2")->raw), "secret-d"));
	prov_page_free(&p);
}

/* v3 contacts: the personal list, then the team and organization contacts
 * of /v3/user/all-alert-contacts (official TF internal/client/alert_contact.go
 * AllAlertContactGroup, alert_contact_test.go TestClient_ListAllAlertContacts)
 * that it leaves out, each once; refused: a warning; failing: the page is
 * read again later. */
static void
test_fetch_v3_team_contacts(void **state)
{
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	const struct prov_item *it;
	const char *seen;

	(void)state;
	assert_int_equal(ur_fetch("v3-contacts:0",
	                     (char *[]){ answer_fixture("200 OK", "uptimerobot/v3_alert_contacts.json"),
	                         answer_fixture("200 OK", "uptimerobot/v3_all_alert_contacts.json"), NULL },
	                     &p, &e, &seen),
	    PROV_OK);
	assert_non_null(strstr(seen, "GET /ur/v3/user/alert-contacts HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /ur/v3/user/all-alert-contacts HTTP/1.1\r\n"));
	assert_string_equal(p.next_cursor, "v3-integrations:0");
	assert_int_equal(page_count(&p, "contact"), 5 + 3);
	/* the personal contact is not added again */
	assert_string_equal(nstr(page_find(&p, "contact", "7012345"), "name"), "John Doe");
	it = page_find(&p, "contact", "501");
	EXPECT_NORM(it, X_STR("name", "Team phone"), X_STR("type", "push"), X_TRUE("needs_address"));
	it = page_find(&p, "contact", "502");
	EXPECT_NORM(it, X_STR("name", "Ops mail"), X_STR("type", "email"), X_STR("value", "ops@example.com"),
	    X_FALSE("needs_address"));
	EXPECT_NORM(page_find(&p, "contact", "503"), X_STR("type", "sms"), X_STR("value", "+15550199"));
	prov_page_free(&p);

	/* refused: the personal contacts, and a warning */
	assert_int_equal(ur_fetch("v3-contacts:0",
	                     (char *[]){ answer_fixture("200 OK", "uptimerobot/v3_alert_contacts.json"),
	                         answer_fixture("403 Forbidden", "uptimerobot/v3_forbidden.json"), NULL },
	                     &p, &e, NULL),
	    PROV_OK);
	assert_int_equal(page_count(&p, "contact"), 5);
	assert_true(has_warning(&p,
	    "refused the team and organization alert contacts for this key (HTTP 403): "
	    "alerts to them are not linked"));
	prov_page_free(&p);

	/* the personal list refused: the team list still brings its contacts */
	assert_int_equal(ur_fetch("v3-contacts:0",
	                     (char *[]){ answer_fixture("403 Forbidden", "uptimerobot/v3_forbidden.json"),
	                         answer_fixture("200 OK", "uptimerobot/v3_all_alert_contacts.json"), NULL },
	                     &p, &e, NULL),
	    PROV_OK);
	assert_int_equal(page_count(&p, "contact"), 4);
	assert_true(has_warning(&p, "refused the alert contacts list for this key (HTTP 403)"));
	prov_page_free(&p);

	/* failing: the whole page is retried */
	assert_int_equal(ur_fetch("v3-contacts:0",
	                     (char *[]){ answer_fixture("200 OK", "uptimerobot/v3_alert_contacts.json"),
	                         answer("503 Service Unavailable", "",
	                             "{\"statusCode\":503,\"message\":\"busy\"}"),
	                         NULL },
	                     &p, &e, NULL),
	    PROV_TRANSIENT);
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v2_monitors),
		cmocka_unit_test(test_v2_phases),
		cmocka_unit_test(test_v2_windows),
		cmocka_unit_test(test_v3_monitors),
		cmocka_unit_test(test_v3_contacts),
		cmocka_unit_test(test_v3_windows_and_pages),
		cmocka_unit_test(test_refused_kinds),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_rate_limited),
		cmocka_unit_test(test_empty_account),
		cmocka_unit_test(test_fetch_falls_back_to_v2),
		cmocka_unit_test(test_fetch_bad_key),
		cmocka_unit_test(test_fetch_v3_with_groups),
		cmocka_unit_test(test_fetch_v2_windows),
		cmocka_unit_test(test_fetch_v3_windows),
		cmocka_unit_test(test_uptimerobot_window_numbers_out_of_range),
		cmocka_unit_test(test_uptimerobot_hostile_timing_and_login),
		cmocka_unit_test(test_fetch_v3_team_contacts),
	};

	return PROVTEST_RUN(tests);
}
