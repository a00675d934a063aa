/* Unit tests of the Cronitor adapter (src/providers/cronitor.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/cronitor/, the source of each named where
 * it is loaded) and whole fetches against a local server of canned answers. */
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

/* Jobs and heartbeats: schedule, timezone, grace, tags, paused; direct
 * destinations become their own contacts (the pure parse reads no lists). */
/* The external id the adapter gives a contact that is not an address: the
 * kind and a hash of the target (a webhook URL or key is a secret). */
static const char *
hashed(const char *tag, const char *value)
{
	static char out[4][96];
	static int k;
	unsigned char h[16];
	char hex[sizeof h * 2 + 1];

	crypto_generichash(h, sizeof h, (const unsigned char *)value, strlen(value), NULL, 0);
	sodium_bin2hex(hex, sizeof hex, h, sizeof h);
	k = (k + 1) % 4;
	snprintf(out[k], sizeof out[k], "%s:#%s", tag, hex);
	return out[k];
}

static void
test_cronitor_heartbeats(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* shape: gonace/Cronitor fixture (providers.md §7.2) with the monitors-api attributes of
	 * cronitorio/agent-skills cronitor/references/monitor-yaml.md (timezone, tags, notify forms,
	 * request, regions); "page" as a string as the official CLI sees it */
	assert_int_equal(run_parse(cronitor_parse, NULL, 200, "cronitor/monitors_page1.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "monitors:2"); /* page "1" * 4 < 9 */

	/* A cron job: the schedule and its time zone, no period. */
	it = page_find(&p, "heartbeat", "key1");
	EXPECT_NORM(it, X_STR("name", "Nightly restore"), X_INT("interval", 0),
	    X_STR("schedule", "0 3 * * *"), X_STR("timezone", "Europe/Stockholm"), X_INT("grace", 3600),
	    X_FALSE("paused"), X_NULL("ping_url"), X_TEXT("tags", "[\"database\",\"nightly\"]"),
	    X_IDS("contact_ids", "email:dba@example.com"));
	it = page_find(&p, "contact", "email:dba@example.com");
	EXPECT_NORM(it, X_STR("type", "email"), X_STR("value", "dba@example.com"), X_FALSE("needs_address"));
	assert_true(has_warning(&p,
	    "\"Nightly restore\" has 1 assertion without an equivalent (e.g. "
	    "\"metric.duration < 15min\")"));

	/* "every 1 hour": a period; "" time zone is null; grace "300"; disabled = paused. */
	it = page_find(&p, "heartbeat", "hb2");
	EXPECT_NORM(it, X_INT("interval", 3600), X_NULL("schedule"), X_NULL("timezone"), X_INT("grace", 300),
	    X_TRUE("paused"), X_TEXT("tags", "[]"),
	    X_IDS("contact_ids", "")); /* list keys only: resolved by the fetch */

	it = page_find(&p, "heartbeat", "hb4");
	assert_int_equal(nint(it, "interval"), 0);
	assert_true(nnull(it, "schedule"));
	assert_int_equal(page_count(&p, "heartbeat"), 3);
	prov_page_free(&p);

	/* The CLI's page_info shape; "@weekly" is cron, free text is kept but warned. */
	assert_int_equal(run_parse(cronitor_parse, "monitors:1", 200, "cronitor/monitors_page_info.json", &p,
	                     &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "monitors:2"); /* 1 * 2 < 3 */
	assert_string_equal(nstr(page_find(&p, "heartbeat", "job7"), "schedule"), "@weekly");
	assert_false(has_warning(&p, "Weekly cleanup"));
	assert_string_equal(nstr(page_find(&p, "heartbeat", "job8"), "schedule"), "at 10:00 on weekdays");
	assert_true(has_warning(&p,
	    "\"Odd schedule\" has the schedule \"at 10:00 on weekdays\", which is "
	    "neither a cron expression nor an interval"));
	prov_page_free(&p);
}

/* Checks: request URL with port, path and query; method, body, headers,
 * timeout, redirects, TLS, regions, tags; assertions to keyword, expected
 * codes and certificate days. */
static void
test_cronitor_checks(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* shape: as above (monitor-yaml.md "request" and "regions"; monitors-api assertions) */
	assert_int_equal(run_parse(cronitor_parse, NULL, 200, "cronitor/monitors_page1.json", &p, &e),
	    PROV_OK);
	it = page_find(&p, "monitor", "chk3");
	EXPECT_NORM(it, X_STR("type", "keyword"),
	    X_STR("url", "https://shop.example.com:8443/cart?probe=1&v=2"), X_INT("port", 8443),
	    X_STR("keyword", "Add to cart"), X_STR("keyword_up_when", "present"),
	    X_NULL("keyword_case_sensitive"), X_STR("http_method", "POST"),
	    X_STR("request_body", "{\"q\":1}"),
	    X_TEXT("request_headers", "{\"X-Env\":\"prod\",\"Accept\":\"text/html\"}"),
	    X_TEXT("expected_status_codes", "[\"200\",\"201\"]"), X_TEXT("alert_status_codes", "[]"),
	    X_INT("timeout", 10), /* "10" */
	    X_FALSE("follow_redirects"), X_TRUE("verify_ssl"), X_INT("ssl_expiry_days", 14),
	    X_TEXT("regions", "[\"us-east-1\",\"eu-central-1\"]"), X_TEXT("tags", "[\"shop\",\"prod\"]"),
	    X_INT("interval", 300), X_TRUE("paused"));
	/* Direct destinations: their own contacts, once a page. */
	assert_string_equal(nids(it, "contact_ids"), "slack:#ops,email:dba@example.com");
	assert_string_equal(nstr(page_find(&p, "contact", "slack:#ops"), "type"), "slack");
	assert_string_equal(nstr(page_find(&p, "contact", "slack:#ops"), "value"), "#ops");
	assert_int_equal(page_count(&p, "contact"), 2);
	/* an assertion without a column of its own is one of the account's assertions */
	EXPECT_NORM(it,
	    X_TEXT("assertions",
	        "[{\"source\":\"time\",\"property\":null,\"comparison\":\"less than\",\"target\":\"2s\"}]"));
	assert_false(has_warning(&p, "\"Shop front\" has"));
	prov_page_free(&p);

	assert_int_equal(run_parse(cronitor_parse, "monitors:2", 200, "cronitor/monitors_page2.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "monitors:3"); /* 2 * 4 < 9 */
	/* A site is real-user monitoring: not imported, said so. */
	assert_int_equal(page_count(&p, "monitor"), 3);
	assert_true(has_warning(&p, "\"Marketing site\" is a site (real-user monitoring"));
	/* Unknown type: other, warned. */
	it = page_find(&p, "monitor", "syn5");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "\"Login flow\" is of type synthetic, which is unknown"));
	assert_true(has_warning(&p, "\"Login flow\" runs on the schedule \"hourly on weekdays\""));
	/* TCP: the host and the port; a cron-run check gets 60 s. */
	it = page_find(&p, "monitor", "tcp6");
	EXPECT_NORM(it, X_STR("type", "tcp"), X_STR("url", "mail.example.com"), X_INT("port", 25),
	    X_INT("timeout", 5), X_INT("interval", 60));
	/* !contains: keyword absent; default port; unknown method warned; "" body null. */
	it = page_find(&p, "monitor", "neg7");
	EXPECT_NORM(it, X_STR("type", "keyword"), X_STR("url", "http://www.example.com/"), X_NULL("port"),
	    X_STR("keyword", "Internal Error"), X_STR("keyword_up_when", "absent"), X_NULL("http_method"),
	    X_NULL("request_body"), X_NULL("follow_redirects"), X_INT("interval", 30),
	    X_TEXT("expected_status_codes", "[]"), X_TEXT("tags", "[]"),
	    X_IDS("contact_ids", "")); /* notify []: nobody */
	assert_true(has_warning(&p, "\"Status absent\" uses an unknown request method"));
	EXPECT_NORM(it,
	    X_TEXT("assertions",
	        "[{\"source\":\"status\",\"property\":null,\"comparison\":"
	        "\"less than\",\"target\":\"400\"}]"));
	assert_true(has_warning(&p, "without a usable key; skipped"));
	prov_page_free(&p);
}

/* Alert timing (monitor-api grace_seconds, monitor-yaml failure_tolerance
 * and realert_interval), every assertion, and a basic-auth login from an
 * Authorization header or the URL: sealed later, "[redacted]" in the stored
 * copy. Wrong types and ranges are refused, never cut. */
static void
test_cronitor_alerting(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;
	const char *raw;

	(void)state;
	assert_int_equal(run_parse(cronitor_parse, NULL, 200, "cronitor/monitors_alerting.json", &p, &e),
	    PROV_OK);
	it = page_find(&p, "monitor", "alert1");
	EXPECT_NORM(it, X_INT("alert_after_checks", 3), X_INT("alert_after_s", 90), X_INT("realert_s", 28800),
	    X_NULL("recovery_s"), X_NULL("muted_until"), X_STR("type", "keyword"),
	    X_STR("keyword", "welcome"), X_TEXT("expected_status_codes", "[\"200\"]"),
	    X_NULL("ssl_expiry_days"), X_STR("url", "https://api.example.com/login"),
	    X_STR("auth_username", "probe"), X_STR("auth_password", "s3cr3t:part"),
	    X_TEXT("request_headers", "{\"X-Env\":\"prod\"}"),
	    X_TEXT("assertions",
	        "[{\"source\":\"json\",\"property\":\"user.status\",\"comparison\":\"equals\",\"target\":\"active\"},"
	        "{\"source\":\"header\",\"property\":\"X-App-Version\",\"comparison\":\"does not equal\","
	        "\"target\":\"1.2.3\"},"
	        "{\"source\":\"body\",\"property\":null,\"comparison\":\"contains\",\"target\":\"footer\"},"
	        "{\"source\":\"body\",\"property\":null,\"comparison\":\"equals\",\"target\":\"ok\"},"
	        "{\"source\":\"time\",\"property\":null,\"comparison\":\"at most\",\"target\":\"1.5s\"},"
	        "{\"source\":\"public\",\"property\":null,\"comparison\":\"equals\",\"target\":\"true\"},"
	        "{\"source\":\"metric.duration\",\"property\":null,\"comparison\":\"less than\",\"target\":\"5s\"},"
	        "{\"source\":\"status\",\"property\":null,\"comparison\":\"at least\",\"target\":\"500\"},"
	        "{\"source\":\"ssl_expires_in\",\"property\":null,\"comparison\":\"greater than\","
	        "\"target\":\"soon\"}]"));
	assert_true(has_warning(&p,
	    "\"Login API\" has 2 assertions not of the form \"<assertion> <operator> <value>\" (e.g. "
	    "\"response.time\"); not imported"));
	assert_true(has_warning(&p,
	    "\"Login API\" has a login in its URL and in its Authorization header; the "
	    "header's was imported"));
	/* the stored copy holds neither password */
	raw =
	    json_object_to_json_string_ext(it->raw, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	assert_null(strstr(raw, "cHJvYmU6czNjcjN0OnBhcnQ="));
	assert_null(strstr(raw, "old:pw"));
	assert_non_null(strstr(raw, "\"authorization\":\"[redacted]\""));
	assert_non_null(strstr(raw, "\"url\":\"https://[redacted]@api.example.com/login\""));

	/* a login in the URL, percent-decoded; a header that is not one stays a header */
	it = page_find(&p, "monitor", "alert2");
	EXPECT_NORM(it, X_STR("url", "https://www.example.com:8443/x?y=1"), X_INT("port", 8443),
	    X_STR("auth_username", "probe"), X_STR("auth_password", "p@ss"),
	    X_TEXT("request_headers", "{\"Authorization\":\"Basic !!not base64!!\"}"),
	    X_NULL("alert_after_checks"), X_NULL("alert_after_s"), X_NULL("realert_s"));
	assert_true(has_warning(&p,
	    "\"Odd timing\" repeats its alerts at \"never\", which is not a length of "
	    "time; the account's default applies"));
	/* wrong types and ranges: nothing; a login of control characters is taken out, not kept */
	it = page_find(&p, "monitor", "alert3");
	EXPECT_NORM(it, X_NULL("alert_after_checks"), X_NULL("alert_after_s"), X_NULL("realert_s"),
	    X_STR("url", "https://www.example.com/"), X_NULL("auth_username"), X_NULL("auth_password"),
	    X_TEXT("request_headers", "{\"Authorization\":\"Basic Og==\"}"));
	assert_true(has_warning(&p, "\"Hostile timing\" repeats its alerts at \"(not text)\""));
	assert_true(has_warning(&p, "\"Hostile timing\" has a login in its URL that cannot be kept"));
	assert_null(strstr(json_object_to_json_string(it->raw), "%00"));
	/* nor one that is not UTF-8 once decoded, from the URL or the header (which stays a header) */
	it = page_find(&p, "monitor", "alert4");
	EXPECT_NORM(it, X_STR("url", "https://www.example.com/"), X_NULL("auth_username"),
	    X_NULL("auth_password"), X_TEXT("request_headers", "{\"Authorization\":\"Basic cHLJYmU6eA==\"}"));
	assert_true(has_warning(&p, "\"Not UTF-8\" has a login in its URL that cannot be kept"));
	/* a job repeats too; its tolerances have no column */
	it = page_find(&p, "heartbeat", "job9");
	EXPECT_NORM(it, X_INT("realert_s", 7200), X_STR("schedule", "0 4 * * *"));
	prov_page_free(&p);
}

static void
test_cronitor_paging(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	/* The API ignored the page asked for: stop rather than loop. */
	assert_int_equal(run_parse(cronitor_parse, "monitors:3", 200, "cronitor/monitors_wrong_page.json", &p,
	                     &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "notifications:1");
	assert_true(has_warning(&p, "answered page 1 when asked for page 3"));
	prov_page_free(&p);

	/* The adapter pages on while the total says so; the runner caps pages
	 * ([limits] max_pages, tests/integration/test_security.py). */
	assert_int_equal(
	    run_parse_text(cronitor_parse, "monitors:10000", 200,
	        "{\"monitors\":[{\"key\":\"a\","
	        "\"name\":\"A\",\"type\":\"job\"}],\"page_size\":1,\"total_monitor_count\":20000}",
	        &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "monitors:10001");
	assert_int_equal(p.nwarnings, 0);
	prov_page_free(&p);

	/* An empty account. */
	assert_int_equal(run_parse_text(cronitor_parse, NULL, 200,
	                     "{\"monitors\":[],\"page\":\"1\","
	                     "\"page_size\":50,\"total_monitor_count\":\"0\"}",
	                     &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "notifications:1");
	prov_page_free(&p);

	/* An empty page ends the phase even when the total says more. */
	assert_int_equal(run_parse(cronitor_parse, "notifications:2", 200,
	                     "cronitor/notifications_empty.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "statuspages:1");
	prov_page_free(&p);
}

/* Notification lists: one contact per target, named by what it reaches. */
static void
test_cronitor_notification_lists(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* shape: providers.md §7.2 notification list ("templates", "notifications" by kind, "monitors"),
	 * the struct of cronitorio/cronitor-cli cmd/notification.go and its channel list (discord, ...) */
	assert_int_equal(run_parse(cronitor_parse, "notifications:1", 200, "cronitor/notifications.json", &p,
	                     &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "statuspages:1");
	it = page_find(&p, "contact", "email:ops@example.com");
	EXPECT_NORM(it, X_STR("name", "Default"), X_STR("type", "email"), X_STR("value", "ops@example.com"));
	assert_string_equal(nstr(page_find(&p, "contact", "email:cto@example.com"), "value"),
	    "cto@example.com");
	assert_string_equal(nstr(page_find(&p, "contact", "slack:#alerts"), "type"), "slack");
	assert_string_equal(nstr(page_find(&p, "contact",
	                             hashed("webhook", "https://hooks.example.com/cronitor")),
	                        "type"),
	    "webhook");
	it = page_find(&p, "contact", "sms:+15555550100");
	assert_string_equal(nstr(it, "type"), "sms");
	assert_string_equal(nstr(it, "name"), "On call");
	assert_string_equal(nstr(page_find(&p, "contact",
	                             hashed("pagerduty", "e93facc04764012d7bfb002500d5d1a6")),
	                        "type"),
	    "pagerduty");
	assert_string_equal(nstr(page_find(&p, "contact", hashed("opsgenie", "og-key-1")), "type"),
	    "opsgenie");
	assert_string_equal(nstr(page_find(&p, "contact",
	                             hashed("microsoft-teams",
	                                 "https://example.webhook.office.com/webhookb2/x")),
	                        "type"),
	    "teams");
	assert_string_equal(nstr(page_find(&p, "contact", "telegram:-100123"), "type"), "telegram");
	assert_string_equal(nstr(page_find(&p, "contact",
	                             hashed("discord", "https://discord.com/api/webhooks/1/x")),
	                        "type"),
	    "discord");
	/* No equivalent: other, warned. */
	assert_string_equal(nstr(page_find(&p, "contact", hashed("victorops", "routing-key-1")), "type"),
	    "other");
	assert_true(has_warning(&p, "has Splunk On-Call (VictorOps) targets, which have no equivalent"));
	it = page_find(&p, "contact", hashed("carrier-pigeon", "loft 7"));
	assert_string_equal(nstr(it, "type"), "other");
	assert_string_equal(nstr(it, "value"), "loft 7");
	assert_true(has_warning(&p, "has carrier-pigeon targets, which have no equivalent"));
	/* ops@ is in two lists: one contact. A list without targets: nothing. */
	assert_int_equal(p.n, 12);
	assert_true(has_warning(&p, "\"Nobody\" has no targets; nothing to import"));
	prov_page_free(&p);
}

/* A long target is hashed into a stable id. */
static void
test_cronitor_long_target_hashed(void **state)
{
	struct prov_page p;
	struct prov_error e;
	char body[700], id1[200];

	(void)state;
	snprintf(body, sizeof body,
	    "{\"templates\":[{\"key\":\"l\",\"name\":\"L\",\"notifications\":"
	    "{\"webhooks\":[\"https://hooks.example.com/%0300d\"]}}],\"page\":1,\"page_size\":50,"
	    "\"total_count\":1}",
	    7);
	assert_int_equal(run_parse_text(cronitor_parse, "notifications:1", 200, body, &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	snprintf(id1, sizeof id1, "%s", p.items[0].external_id);
	assert_int_equal(strncmp(id1, "webhook:#", 9), 0);
	assert_int_equal(strlen(id1), 9 + 32);
	prov_page_free(&p);
}

static void
test_cronitor_status_pages(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* shape: cronitor.io/docs/statuspages-api "List Status Pages" response; components as
	 * cronitorio/cronitor-cli cmd/statuspage.go lists them (key, name, type, statuspage,
	 * autopublish; monitor or group), their withComponents form unconfirmed (providers.md §7.2) */
	assert_int_equal(run_parse(cronitor_parse, "statuspages:1", 200, "cronitor/statuspages.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.next_cursor, "maintenance:1");
	it = page_find(&p, "status_page", "sp_public1");
	assert_string_equal(nstr(it, "name"), "Acme Status");
	assert_string_equal(nstr(it, "url"), "https://acme.cronitorstatus.com");
	/* Monitor components by key; a group component by its name alone. */
	assert_string_equal(nids(it, "items"), "chk3,hb2,-,site4");
	assert_true(nbool(it, "public"));
	it = page_find(&p, "status_page", "sp_internal");
	EXPECT_NORM(it, X_FALSE("public"), X_STR("url", "https://status.acme.example"), X_IDS("items", ""));
	assert_false(nbool(page_find(&p, "status_page", "sp_odd"), "public"));
	assert_true(has_warning(&p, "\"Odd\" has an unknown access setting members-only"));
	prov_page_free(&p);
}

static void
test_cronitor_maintenance_windows(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* shape (unconfirmed, providers.md §7.2): the list as cronitorio/cronitor-cli
	 * cmd/maintenance.go reads it ("data" of key, name, start, end, state) with the fields
	 * of cronitor.io/docs/maintenance-windows-api (monitors, groups, statuspages) */
	assert_int_equal(run_parse(cronitor_parse, "maintenance:1", 200, "cronitor/maintenance.json", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	expect_imported("cronitor",
	    &p); /* the run's stats list the kind from the start (found by fuzz_fetch) */
	it = page_find(&p, "maintenance_window", "mw_abc123def456");
	EXPECT_NORM(it, X_STR("name", "Database Maintenance"), X_STR("recurrence", "once"),
	    X_STR("start", "2023-12-01T02:00:00Z"), X_STR("end", "2023-12-01T04:00:00Z"),
	    X_INT("duration", 120), X_IDS("monitor_ids", "key1,chk3"));
	assert_true(has_warning(&p, "\"Database Maintenance\" is shown on 1 status page"));
	it = page_find(&p, "maintenance_window", "mw_group");
	assert_int_equal(nint(it, "duration"), 90); /* across midnight, with an offset */
	assert_string_equal(nids(it, "monitor_ids"), "hb2");
	assert_true(has_warning(&p, "\"Group window\" silences 1 monitor group"));
	prov_page_free(&p);

	/* A bare array, "id" for the key, a duration, no monitors list. */
	assert_int_equal(run_parse(cronitor_parse, "maintenance:1", 200, "cronitor/maintenance_bare.json", &p,
	                     &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	it = page_find(&p, "maintenance_window", "mw_bare");
	EXPECT_NORM(it, X_INT("duration", 45), X_NULL("end"), X_IDS("monitor_ids", ""));
	prov_page_free(&p);

	/* A shape we cannot read: skipped with a warning, the run goes on. */
	assert_int_equal(run_parse(cronitor_parse, "maintenance:1", 200,
	                     "cronitor/maintenance_unreadable.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "maintenance windows in a form that could not be read"));
	prov_page_free(&p);

	/* Times by the one parser: a wall clock in the window's zone (01:00 to
	 * 04:00 across Berlin's spring change is 2 hours), an offset as written,
	 * garbage and a zone that is no zone said */
	assert_int_equal(
	    run_parse_text(cronitor_parse, "maintenance:1", 200,
	        "{\"data\":["
	        "{\"key\":\"w1\",\"name\":\"Spring\",\"start\":\"2026-03-29T01:00\",\"end\":\"2026-03-29T04:00\","
	        "\"timezone\":\"Europe/Berlin\"},"
	        "{\"key\":\"w2\",\"name\":\"Junk\",\"start\":\"2023-12-01T02:00:00Zjunk\",\"end\":\"2023-12-01T04:00:00Z\"},"
	        "{\"key\":\"w3\",\"name\":\"Nowhere\",\"start\":\"2026-03-29T01:00:00\",\"end\":\"2026-03-29T04:00:00\","
	        "\"timezone\":\"Mars/Olympus_Mons\"}],"
	        "\"page\":1,\"page_size\":50,\"total_count\":3}",
	        &p, &e),
	    PROV_OK);
	it = page_find(&p, "maintenance_window", "w1");
	EXPECT_NORM(it, X_STR("start", "2026-03-29T01:00"), X_INT("duration", 120),
	    X_STR("timezone", "Europe/Berlin"));
	it = page_find(&p, "maintenance_window", "w2");
	EXPECT_NORM(it, X_NULL("start"), X_STR("end", "2023-12-01T04:00:00Z"), X_NULL("duration"));
	assert_true(has_warning(&p, "\"Junk\" has no readable start"));
	it = page_find(&p, "maintenance_window", "w3");
	EXPECT_NORM(it, X_INT("duration", 180), X_STR("timezone", "Mars/Olympus_Mons"));
	assert_true(has_warning(&p, "\"Nowhere\" has the unknown time zone Mars/Olympus_Mons"));
	prov_page_free(&p);
}

/* A bad key on the first call fails the run; a refused later list skips its kind. */
static void
test_cronitor_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	const char *msg;

	(void)state;
	/* shape: the official CLI's fixture 403 {"error":"Invalid API key"} (providers.md §7.3) */
	msg = parse_fails(cronitor_parse, NULL, 403, "cronitor/invalid_key.json", PROV_AUTH);
	assert_string_equal(msg, "Cronitor rejected the API key (Invalid API key)");
	msg = parse_fails(cronitor_parse, "monitors:2", 401, "cronitor/invalid_key.json", PROV_AUTH);
	assert_string_equal(msg, "Cronitor rejected the API key (Invalid API key)");

	/* shape: a scope refusal, 403 with one of the error forms of providers.md §7.3 (body unconfirmed) */
	assert_int_equal(run_parse(cronitor_parse, "notifications:1", 403, "cronitor/forbidden.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "statuspages:1");
	assert_true(has_warning(&p,
	    "Cronitor refused the notifications list for this key (HTTP 403): "
	    "notifications skipped"));
	prov_page_free(&p);
	assert_int_equal(run_parse(cronitor_parse, "statuspages:2", 401, "cronitor/forbidden.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "maintenance:1");
	assert_true(has_warning(&p, "refused the status pages list for this key (HTTP 401)"));
	prov_page_free(&p);
	assert_int_equal(run_parse(cronitor_parse, "maintenance:1", 403, "cronitor/forbidden.json", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "refused the maintenance windows list for this key (HTTP 403)"));
	prov_page_free(&p);

	parse_fails(cronitor_parse, NULL, 200, "cronitor/truncated.json", PROV_TRANSIENT);
	parse_fails(cronitor_parse, NULL, 502, "cronitor/invalid_key.json", PROV_TRANSIENT);
	parse_fails(cronitor_parse, "statuspages:1", 404, "cronitor/invalid_key.json", PROV_FATAL);
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

/* ------------------------------------------------------------- whole fetches */

/* A page of monitors reads the notification lists: a list key links every
 * target of the list; notify omitted links the default list. */
static void
test_fetch_cronitor_links_every_list_target(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96], want[512];
	char *a[] = { answer_fixture("200 OK", "cronitor/monitors_page1.json"),
		answer_fixture("200 OK", "cronitor/notifications.json"), NULL };
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"cr-key-123456\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("cronitor", "/cr", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(s.def->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /cr/api/monitors?page=1 HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /cr/api/notifications?page=1 HTTP/1.1\r\n"));
	/* HTTP Basic: the key as user, an empty password ("cr-key-123456:"). */
	assert_non_null(strstr(seen, "Authorization: Basic Y3Ita2V5LTEyMzQ1Njo=\r\n"));
	assert_non_null(strstr(seen, "Cronitor-Version: 2020-10-01\r\n"));
	assert_string_equal(p.next_cursor, "monitors:2");
	/* key1: the default list (two e-mails, Slack, webhook) and its direct e-mail. */
	snprintf(want, sizeof want, "email:ops@example.com,email:cto@example.com,slack:#alerts,%s",
	    hashed("webhook", "https://hooks.example.com/cronitor"));
	snprintf(want + strlen(want), sizeof want - strlen(want), ",email:dba@example.com");
	assert_string_equal(nids(page_find(&p, "heartbeat", "key1"), "contact_ids"), want);
	/* hb2, map form {"alerts":[...]}: default and contacts-2, ops@ once. */
	assert_int_equal(nids_len(page_find(&p, "heartbeat", "hb2"), "contact_ids"), 4 + 8);
	snprintf(want, sizeof want, "%s,sms:+15555550100,pagerduty:#",
	    hashed("webhook", "https://hooks.example.com/cronitor"));
	assert_non_null(strstr(nids(page_find(&p, "heartbeat", "hb2"), "contact_ids"), want));
	/* notify omitted: the default list. */
	snprintf(want, sizeof want, "email:ops@example.com,email:cto@example.com,slack:#alerts,%s",
	    hashed("webhook", "https://hooks.example.com/cronitor"));
	assert_string_equal(nids(page_find(&p, "heartbeat", "hb4"), "contact_ids"), want);
	assert_string_equal(nids(page_find(&p, "monitor", "chk3"), "contact_ids"),
	    "slack:#ops,email:dba@example.com");
	prov_page_free(&p);
	free_answers(a);
	json_object_put(creds);
}

/* The key may not read the lists: the monitors still import, linked to
 * their direct destinations; the notifications phase skips its kind. */
static void
test_fetch_cronitor_lists_refused(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[] = { answer_fixture("200 OK", "cronitor/monitors_page1.json"),
		answer_fixture("403 Forbidden", "cronitor/forbidden.json"),
		answer_fixture("403 Forbidden", "cronitor/forbidden.json"),
		answer("200 OK", "", "{\"data\":[],\"page\":1,\"page_size\":50,\"total_count\":0}"),
		answer_fixture("200 OK", "cronitor/maintenance.json"), NULL };
	json_object *creds = json_tokener_parse("{\"api_key\":\"cr-key-123456\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("cronitor", "/cr", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(s.def->ops->fetch(&s, "monitors:1", &p, &e), PROV_OK);
	assert_int_equal(page_count(&p, "heartbeat"), 3);
	assert_string_equal(nids(page_find(&p, "heartbeat", "key1"), "contact_ids"), "email:dba@example.com");
	assert_true(has_warning(&p,
	    "Cronitor refused the notification lists for this key (HTTP 403): monitors "
	    "that notify a list are not linked"));
	prov_page_free(&p);
	memset(&p, 0, sizeof p);
	assert_int_equal(s.def->ops->fetch(&s, "notifications:1", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "statuspages:1");
	assert_true(has_warning(&p, "Cronitor refused the notifications list for this key (HTTP 403)"));
	prov_page_free(&p);
	memset(&p, 0, sizeof p);
	assert_int_equal(s.def->ops->fetch(&s, "statuspages:1", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "maintenance:1");
	prov_page_free(&p);
	memset(&p, 0, sizeof p);
	assert_int_equal(s.def->ops->fetch(&s, "maintenance:1", &p, &e), PROV_OK);
	assert_int_equal(page_count(&p, "maintenance_window"), 2);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	assert_non_null(strstr(mini_finish(&m), "GET /cr/api/maintenance_windows?page=1 HTTP/1.1\r\n"));
	free_answers(a);
	json_object_put(creds);
}

/* A server error on the lists makes the monitors page a retry. */
static void
test_fetch_cronitor_lists_fail(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[] = { answer_fixture("200 OK", "cronitor/monitors_page1.json"),
		answer("503 Service Unavailable", "", "{\"error\":\"down\"}"), NULL };
	json_object *creds = json_tokener_parse("{\"api_key\":\"cr-key-123456\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("cronitor", "/cr", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(s.def->ops->fetch(&s, NULL, &p, &e), PROV_TRANSIENT);
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	mini_finish(&m);
	free_answers(a);
	json_object_put(creds);
}

static void
test_fetch_cronitor_request_and_scrubbed_error(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[] = { answer_fixture("200 OK", "cronitor/statuspages.json"),
		answer("403 Forbidden", "", "{\"error\":\"Invalid API key: cr-key-123456\"}"), NULL };
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"cr-key-123456\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("cronitor", "/cr", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(s.def->ops->fetch(&s, "statuspages:1", &p, &e), PROV_OK);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.next_cursor, "maintenance:1");
	prov_page_free(&p);
	/* A bad key on the first call: fatal, and the key the provider echoed is not repeated. */
	assert_int_equal(s.def->ops->fetch(&s, NULL, &p, &e), PROV_AUTH);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /cr/api/statuspages?page=1&withComponents=true HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /cr/api/monitors?page=1 HTTP/1.1\r\n"));
	assert_non_null(strstr(e.message, "Cronitor rejected the API key"));
	assert_null(strstr(e.message, "cr-key-123456"));
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	free_answers(a);
	json_object_put(creds);
}

/* Numbers past what a field can mean: a page size that would overflow
 * page * size, a huge certificate-days assertion (once read with sscanf,
 * undefined out of range), a huge window duration and grace. */
static void
test_cronitor_numbers_out_of_range(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(
	    run_parse_text(cronitor_parse, "monitors:3", 200,
	        "{\"monitors\":[{\"key\":\"a\","
	        "\"name\":\"A\",\"type\":\"check\",\"request\":{\"url\":\"https://a.example/\"},"
	        "\"assertions\":[\"ssl_certificate.expires_in < 99999999999999999999 days\"]},"
	        "{\"key\":\"b\",\"name\":\"B\",\"type\":\"check\",\"request\":{\"url\":\"https://b.example/\"},"
	        "\"assertions\":[\"ssl_certificate.expires_in < 30 days\"]},"
	        "{\"key\":\"h\",\"name\":\"H\",\"type\":\"heartbeat\",\"schedule\":\"every 1 hour\","
	        "\"grace_seconds\":9223372036854775806}],"
	        "\"page_size\":9223372036854775806,\"total_monitor_count\":20000}",
	        &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "monitors:4"); /* page_size unusable: 50 assumed */
	assert_true(nnull(page_find(&p, "monitor", "a"), "ssl_expiry_days"));
	assert_int_equal(nint(page_find(&p, "monitor", "b"), "ssl_expiry_days"), 30);
	assert_int_equal(nint(page_find(&p, "heartbeat", "h"), "grace"), 0);
	prov_page_free(&p);

	assert_int_equal(
	    run_parse_text(cronitor_parse, "maintenance:1", 200,
	        "{\"data\":["
	        "{\"key\":\"w1\",\"name\":\"W1\",\"start\":\"2023-12-01T02:00:00Z\",\"duration\":99999999999999999999},"
	        "{\"key\":\"w2\",\"name\":\"W2\",\"start\":\"2023-12-01T02:00:00Z\",\"duration\":-5},"
	        "{\"key\":\"w3\",\"name\":\"W3\",\"start\":\"2023-12-01T02:00:00Z\",\"duration\":\"45\"}],"
	        "\"page\":1,\"page_size\":50,\"total_count\":3}",
	        &p, &e),
	    PROV_OK);
	it = page_find(&p, "maintenance_window", "w1");
	assert_true(nnull(it, "duration"));
	assert_true(nnull(page_find(&p, "maintenance_window", "w2"), "duration"));
	assert_int_equal(nint(page_find(&p, "maintenance_window", "w3"), "duration"), 45);
	prov_page_free(&p);
}

/* A check's address as curl reads it (core/url.h): an IPv6 literal loses its
 * brackets, the host is kept as written (case too) and percent-decoded, user
 * info is left out of the host, an explicit port (a default one too) is the
 * monitor's port; a body that is not UTF-8 is refused whole. */
static void
test_cronitor_check_addresses(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(
	    run_parse_text(cronitor_parse, "monitors:1", 200,
	        "{\"monitors\":["
	        "{\"key\":\"v6\",\"name\":\"V6\",\"type\":\"check\",\"request\":{\"url\":\"tcp://[::1]:8443\"}},"
	        "{\"key\":\"up\",\"name\":\"Up\",\"type\":\"check\",\"request\":{\"url\":\"UDP://Ns.Example.COM:53\"}},"
	        "{\"key\":\"pc\",\"name\":\"Pc\",\"type\":\"check\",\"request\":{\"url\":\"tcp://m%61il.example.com:25\"}},"
	        "{\"key\":\"ui\",\"name\":\"Ui\",\"type\":\"check\",\"request\":{\"url\":\"tcp://u:pw@db.example.com:5432\"}},"
	        "{\"key\":\"dp\",\"name\":\"Dp\",\"type\":\"check\","
	        "\"request\":{\"url\":\"HTTPS://Shop.Example.COM:443/a%20b\"}},"
	        "{\"key\":\"np\",\"name\":\"Np\",\"type\":\"check\",\"request\":{\"url\":\"tcp://db.example.com\"}},"
	        "{\"key\":\"bad\",\"name\":\"Bad\",\"type\":\"check\",\"request\":{\"url\":\"tcp://[::1:25\"}}"
	        "],\"page_size\":50,\"total_monitor_count\":7}",
	        &p, &e),
	    PROV_OK);
	EXPECT_NORM(page_find(&p, "monitor", "v6"), X_STR("type", "tcp"), X_STR("url", "::1"),
	    X_INT("port", 8443));
	EXPECT_NORM(page_find(&p, "monitor", "up"), X_STR("type", "udp"), X_STR("url", "Ns.Example.COM"),
	    X_INT("port", 53));
	EXPECT_NORM(page_find(&p, "monitor", "pc"), X_STR("type", "tcp"), X_STR("url", "mail.example.com"),
	    X_INT("port", 25));
	EXPECT_NORM(page_find(&p, "monitor", "ui"), X_STR("type", "tcp"), X_STR("url", "db.example.com"),
	    X_INT("port", 5432));
	EXPECT_NORM(page_find(&p, "monitor", "dp"), X_STR("type", "http"),
	    X_STR("url", "HTTPS://Shop.Example.COM:443/a%20b"), X_INT("port", 443));
	EXPECT_NORM(page_find(&p, "monitor", "np"), X_STR("type", "tcp"), X_STR("url", "db.example.com"),
	    X_NULL("port"));
	EXPECT_NORM(page_find(&p, "monitor", "bad"), X_STR("type", "other"), X_STR("url", "tcp://[::1:25"),
	    X_NULL("port"));
	assert_true(has_warning(&p, "\"Bad\" has no web or TCP/UDP address to check"));
	prov_page_free(&p);
	assert_int_equal(run_parse_text(cronitor_parse, "monitors:1", 200,
	                     "{\"monitors\":[{\"key\":\"x\",\"name\":\"X\",\"type\":\"check\","
	                     "\"request\":{\"url\":\"tcp://\xff\xfe.example:25\"}}]}",
	                     &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cronitor_heartbeats),
		cmocka_unit_test(test_cronitor_checks),
		cmocka_unit_test(test_cronitor_alerting),
		cmocka_unit_test(test_cronitor_paging),
		cmocka_unit_test(test_cronitor_notification_lists),
		cmocka_unit_test(test_cronitor_long_target_hashed),
		cmocka_unit_test(test_cronitor_status_pages),
		cmocka_unit_test(test_cronitor_maintenance_windows),
		cmocka_unit_test(test_cronitor_errors),
		cmocka_unit_test(test_fetch_cronitor_links_every_list_target),
		cmocka_unit_test(test_fetch_cronitor_lists_refused),
		cmocka_unit_test(test_fetch_cronitor_lists_fail),
		cmocka_unit_test(test_fetch_cronitor_request_and_scrubbed_error),
		cmocka_unit_test(test_cronitor_numbers_out_of_range),
		cmocka_unit_test(test_cronitor_check_addresses),
	};

	return PROVTEST_RUN(tests);
}
