/* Unit tests of the StatusCake adapter (src/providers/statuscake.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/statuscake/) and whole fetches (list, one
 * GET /uptime/{id} per check, contact groups, tag queries) against a local server.
 *
 * Fixture sources: every shape follows the official client StatusCakeDev/statuscake-go, which
 * is generated from StatusCake's OpenAPI document: model_uptime_test_overview.go (list
 * entries), model_uptime_test_.go (GET /uptime/{id}), model_heartbeat_test_.go,
 * model_ssl_test_.go (+ model_ssl_test_flags.go), model_contact_group.go,
 * model_maintenance_window.go (+ _repeat_interval.go, _state.go), model_metadata.go /
 * model_pagination.go (the "metadata" block), error.go (the {"message","errors"} error body);
 * the example values are those of providers.md §3. */
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

#define TOKEN "sc-token-0123456789"

/* A StatusCake session on a local server. */
struct sc_env {
	struct config cfg;
	struct prov_session s;
	struct mini m;
	json_object *creds;
	char base[96];
};

static void
env_start(struct sc_env *v, const char *const *answers)
{
	struct prov_error e = { 0 };

	mini_start(&v->m, answers);
	snprintf(v->base, sizeof v->base, "http://127.0.0.1:%d", v->m.port);
	cfg_init(&v->cfg, "statuscake", v->base);
	v->creds = json_tokener_parse("{\"api_token\":\"" TOKEN "\"}");
	assert_int_equal(prov_session_init(&v->s, provider_find("statuscake"), &v->cfg, v->creds, &e), 0);
}

/* Stop the server; the requests it saw. */
static const char *
env_finish(struct sc_env *v)
{
	json_object_put(v->creds);
	return mini_finish(&v->m);
}

/* ------------------------------------------------------------- list pages */

static void
test_uptime_list_pages(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* statuscake-go UptimeTestOverview entries; the pure parse makes no detail call. */
	assert_int_equal(run_parse(statuscake_parse, NULL, 200, "statuscake/uptime_page1.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "uptime:25"); /* offset of page 2 (limit 25) */
	assert_int_equal(p.n, 3);
	it = page_find(&p, "monitor", "1234");
	EXPECT_NORM(it, X_STR("type", "http"), X_STR("url", "https://example.com"), X_INT("interval", 300),
	    X_IDS("contact_ids", "77"), /* no groups read: the group's first address */
	    X_IDS("tags", "prod"));
	it = page_find(&p, "monitor", "1235");
	EXPECT_NORM(it, X_STR("type", "ping"), X_INT("interval", 60), /* "check_rate":"60" */
	    X_TRUE("paused"), X_NULL("http_method"));
	it = page_find(&p, "monitor", "1236"); /* numeric id */
	assert_string_equal(nstr(it, "type"), "other");
	assert_string_equal(nids(it, "contact_ids"), "77,78");
	assert_true(has_warning(&p, "unknown type GOPHER; kept as other"));
	prov_page_free(&p);

	assert_int_equal(run_parse(statuscake_parse, "uptime:25", 200, "statuscake/uptime_page2.json", &p,
	                     &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "heartbeat:0");
	it = page_find(&p, "monitor", "2001");
	assert_string_equal(nstr(it, "type"), "http");
	assert_string_equal(nstr(it, "http_method"), "HEAD");
	prov_page_free(&p);

	/* Resumed inside a page: the entries before the offset are not added again. */
	assert_int_equal(run_parse(statuscake_parse, "uptime:2", 200, "statuscake/uptime_page1.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.items[0].external_id, "1236");
	assert_string_equal(p.next_cursor, "uptime:25");
	prov_page_free(&p);

	EXPECT_EMPTY_PAGE(statuscake_parse, "uptime:0", "statuscake/empty.json", "heartbeat:0");
}

static void
test_heartbeats_ssl_groups(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* statuscake-go HeartbeatTest list. */
	assert_int_equal(run_parse(statuscake_parse, "heartbeat:0", 200, "statuscake/heartbeat.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "ssl:0");
	it = page_find(&p, "heartbeat", "5001");
	EXPECT_NORM(it, X_INT("interval", 1800),
	    X_STR("ping_url", "https://push.statuscake.com/?PK=abc&TestID=5001&time=0"),
	    X_IDS("contact_ids", "77"));
	prov_page_free(&p);

	/* statuscake-go SSLTest list (providers.md §3 example). */
	assert_int_equal(run_parse(statuscake_parse, "ssl:0", 200, "statuscake/ssl.json", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "contact-groups:0");
	it = page_find(&p, "monitor", "ssl:42");
	EXPECT_NORM(it, X_STR("name", "SSL https://shop.example.com"), X_STR("type", "http"),
	    X_STR("url", "https://shop.example.com"), X_INT("interval", 86400),
	    X_INT("ssl_expiry_days", 30), /* alert_at [7,14,30]: the first alert */
	    X_TRUE("verify_ssl"),         /* alert_broken */
	    X_FALSE("follow_redirects"), X_TEXT("request_headers", "{\"User-Agent\":\"CertBot/2\"}"),
	    X_IDS("contact_ids", "77"));
	it = page_find(&p, "monitor", "ssl:43");
	EXPECT_NORM(it, X_NULL("ssl_expiry_days"),                             /* alert_expiry false */
	    X_FALSE("verify_ssl"), X_TRUE("paused"), X_INT("interval", 3600)); /* "3600" */
	prov_page_free(&p);

	/* statuscake-go ContactGroup list. */
	assert_int_equal(run_parse(statuscake_parse, "contact-groups:0", 200,
	                     "statuscake/contact_groups.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "maintenance-windows:0");
	/* Every address is a contact; the first keeps the group's id. */
	it = page_find(&p, "contact", "77");
	EXPECT_NORM(it, X_STR("type", "email"), X_STR("name", "Ops"), X_STR("value", "ops@example.com"));
	assert_string_equal(nstr(page_find(&p, "contact", "77:email:1"), "value"), "oncall@example.com");
	it = page_find(&p, "contact", "77:sms:0");
	assert_string_equal(nstr(it, "type"), "sms");
	assert_string_equal(nstr(it, "value"), "+447700900000");
	it = page_find(&p, "contact", "77:webhook:0");
	assert_string_equal(nstr(it, "type"), "webhook");
	assert_string_equal(nstr(it, "value"), "https://hooks.example.com/sc");
	assert_true(has_warning(&p, "\"Ops\" uses 1 integration(s)"));
	it = page_find(&p, "contact", "78");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(nnull(it, "value"));
	assert_int_equal(p.n, 5);
	prov_page_free(&p);
}

static void
test_maintenance_windows(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* statuscake-go MaintenanceWindow list. */
	assert_int_equal(run_parse(statuscake_parse, "maintenance-windows:0", 200,
	                     "statuscake/maintenance_windows.json", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	it = page_find(&p, "maintenance_window", "9");
	EXPECT_NORM(it, X_STR("name", "Nightly"), X_STR("recurrence", "weekly"),
	    X_STR("start", "2026-12-01T01:00:00Z"), X_STR("end", "2026-12-01T03:00:00Z"),
	    X_INT("duration", 120), X_TEXT("days", "[2]"), /* a Tuesday in London */
	    X_STR("timezone", "Europe/London"), X_FALSE("paused"), X_IDS("monitor_ids", "1234,1235"));
	it = page_find(&p, "maintenance_window", "10");
	EXPECT_NORM(it, X_STR("recurrence", "monthly"),
	    X_TEXT("days", "[5]"),                    /* 03:30Z on the 6th is the 5th in New York */
	    X_INT("duration", 45), X_TRUE("paused")); /* state paused */
	it = page_find(&p, "maintenance_window", "11");
	assert_string_equal(nstr(it, "recurrence"), "once");
	assert_string_equal(ntext(it, "days"), "[]");
	assert_int_equal(nids_len(it, "monitor_ids"), 0);
	assert_true(has_warning(&p, "\"Release\": the checks with its tags are not resolved here"));
	it = page_find(&p, "maintenance_window", "12");
	assert_string_equal(nstr(it, "recurrence"), "other");
	assert_string_equal(ntext(it, "days"), "[1]");
	assert_true(has_warning(&p, "\"Fortnightly\" repeats every two weeks"));
	it = page_find(&p, "maintenance_window", "13");
	assert_string_equal(nstr(it, "recurrence"), "other");
	assert_true(has_warning(&p, "\"Odd\" has an unknown repeat interval 3d; kept as other"));
	assert_true(has_warning(&p, "\"Odd\" has an unknown state"));
	it = page_find(&p, "maintenance_window", "14"); /* offsets, fractions, numeric ids */
	EXPECT_NORM(it, X_INT("duration", 45), X_TEXT("days", "[1]"), X_IDS("monitor_ids", "1234"));
	prov_page_free(&p);
}

/* Window times read by the one parser (src/core/datetime.c): a time without
 * an offset is the window's zone's wall clock (the duration across a DST
 * change is real time), the day is the start's in that zone, a time that is
 * not RFC 3339 or a zone that is not one is said, never guessed. */
static void
test_window_times_in_their_zone(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(
	    run_parse_text(statuscake_parse, "maintenance-windows:0", 200,
	        "{\"data\":["
	        /* Berlin's clocks go from 02:00 to 03:00: 01:00 to 04:00 lasts two hours */
	        "{\"id\":\"1\",\"name\":\"Spring\",\"start_at\":\"2026-03-29T01:00:00\","
	        "\"end_at\":\"2026-03-29T04:00:00\",\"timezone\":\"Europe/Berlin\",\"repeat_interval\":\"1w\"},"
	        /* 23:30 on Monday in Kathmandu (18:00Z), not 23:30Z (Tuesday there) */
	        "{\"id\":\"2\",\"name\":\"Late\",\"start_at\":\"2026-12-07T23:30:00\","
	        "\"end_at\":\"2026-12-08T00:15:00\",\"timezone\":\"Asia/Kathmandu\",\"repeat_interval\":\"1w\"},"
	        "{\"id\":\"3\",\"name\":\"Garbage\",\"start_at\":\"2026-12-01T01:00:00Zjunk\","
	        "\"end_at\":\"2026-02-30T03:00:00Z\",\"timezone\":\"UTC\",\"repeat_interval\":\"1w\"},"
	        "{\"id\":\"4\",\"name\":\"Hostile\",\"start_at\":\"2026-12-07T23:30:00\","
	        "\"end_at\":\"2026-12-08T00:15:00Z\",\"timezone\":\"../../etc/passwd\",\"repeat_interval\":\"1m\"}],"
	        "\"metadata\":{\"page\":1,\"per_page\":25,\"page_count\":1,\"total_count\":4}}",
	        &p, &e),
	    PROV_OK);
	it = page_find(&p, "maintenance_window", "1");
	EXPECT_NORM(it, X_STR("start", "2026-03-29T01:00:00"), X_INT("duration", 120), X_TEXT("days", "[7]"),
	    X_STR("timezone", "Europe/Berlin"));
	it = page_find(&p, "maintenance_window", "2");
	EXPECT_NORM(it, X_INT("duration", 45), X_TEXT("days", "[1]"));
	it = page_find(&p, "maintenance_window", "3");
	EXPECT_NORM(it, X_NULL("start"), X_NULL("end"), X_TEXT("days", "[]"), X_NULL("duration"));
	assert_true(has_warning(&p, "\"Garbage\" has no readable start"));
	assert_true(has_warning(&p, "\"Garbage\" has an end that is not a date-time"));
	it = page_find(&p, "maintenance_window", "4"); /* read in UTC: 23:30Z, the 7th */
	EXPECT_NORM(it, X_INT("duration", 45), X_TEXT("days", "[7]"));
	assert_true(has_warning(&p,
	    "\"Hostile\" has the unknown time zone ../../etc/passwd; its times are "
	    "read in UTC"));
	prov_page_free(&p);
}

/* ------------------------------------------------ refused kinds and errors */

static void
test_refused_kinds(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	/* The first call (the uptime list) refused: a bad token, never repeated in the message. */
	assert_int_equal(run_parse(statuscake_parse, NULL, 401, "statuscake/unauthorized.json", &p, &e),
	    PROV_AUTH);
	assert_string_equal(e.message, "StatusCake rejected the API token (Unauthorised)");
	prov_page_free(&p);
	assert_int_equal(run_parse(statuscake_parse, "uptime:25", 403, "statuscake/forbidden.json", &p, &e),
	    PROV_AUTH);
	prov_page_free(&p);
	/* A later list refused: that kind is skipped with a warning, the run goes on. */
	assert_int_equal(run_parse(statuscake_parse, "heartbeat:0", 401, "statuscake/unauthorized.json", &p,
	                     &e),
	    PROV_OK);
	assert_true(has_warning(&p,
	    "StatusCake refused the heartbeats list for this key (HTTP 401): "
	    "heartbeats skipped"));
	assert_string_equal(p.next_cursor, "ssl:0");
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	assert_int_equal(run_parse(statuscake_parse, "ssl:100", 403, "statuscake/forbidden.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "contact-groups:0");
	prov_page_free(&p);
	assert_int_equal(run_parse(statuscake_parse, "maintenance-windows:0", 403,
	                     "statuscake/forbidden.json", &p, &e),
	    PROV_OK);
	assert_true(has_warning(&p, "refused the maintenance windows list for this key (HTTP 403)"));
	assert_null(p.next_cursor);
	prov_page_free(&p);
	/* Maintenance windows are an optional feature: any 4xx skips them. */
	assert_int_equal(run_parse_text(statuscake_parse, "maintenance-windows:0", 404,
	                     "{\"message\":\"No results found\",\"errors\":{}}", &p, &e),
	    PROV_OK);
	assert_true(has_warning(&p, "(HTTP 404): maintenance windows skipped"));
	prov_page_free(&p);
	/* ... but a 404 elsewhere is an error. */
	assert_int_equal(run_parse_text(statuscake_parse, "heartbeat:0", 404, "{\"message\":\"x\"}", &p, &e),
	    PROV_FATAL);
	prov_page_free(&p);
}

/* Rate limits, unreadable answers and bad checkpoints. */
static void
test_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;

	(void)state;
	memset(&p, 0, sizeof p);
	resp_text(&r, 429, "{\"message\":\"Too many requests\"}");
	httpc_resp_set_header(&r, "x-ratelimit-limit", "5, 60;w=60, 5;w=1");
	httpc_resp_set_header(&r, "x-ratelimit-remaining", "0");
	httpc_resp_set_header(&r, "x-ratelimit-reset", "7");
	assert_int_equal(statuscake_parse("uptime:50", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 7);
	httpc_resp_free(&r);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(statuscake_parse, NULL, 200, "{\"metadata\":{}}", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(statuscake_parse, NULL, 200, "{\"data\":[", &p, &e), PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(statuscake_parse, "uptime:x", 200, "{\"data\":[]}", &p, &e),
	    PROV_FATAL);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(statuscake_parse, "uptime:3", 200,
	                     "{\"data\":[{\"name\":\"no id\"}],\"metadata\":{\"page_count\":1}}", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
}

/* ------------------------------------------------------------ whole fetches */

static void
test_fetch_uptime_with_details_and_groups(void **state)
{
	struct sc_env v;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	const struct prov_item *it;
	const char *seen;
	char *a[] = { answer_fixture("200 OK", "statuscake/uptime_list_detail.json"),
		answer_fixture("200 OK", "statuscake/uptime_detail_http.json"),
		answer_fixture("200 OK", "statuscake/contact_groups.json"),
		answer_fixture("200 OK", "statuscake/uptime_detail_tcp.json"), NULL };

	(void)state;
	env_start(&v, (const char *const *)a);
	assert_int_equal(statuscake_ops.fetch(&v.s, NULL, &p, &e), PROV_OK);
	seen = env_finish(&v);
	assert_non_null(strstr(seen, "GET /v1/uptime?page=1&limit=25 "));
	assert_non_null(strstr(seen, "GET /v1/uptime/1234 "));
	assert_non_null(strstr(seen, "GET /v1/contact-groups?page=1&limit=100 "));
	assert_non_null(strstr(seen, "GET /v1/uptime/1235 "));
	assert_non_null(strstr(seen, "Authorization: Bearer " TOKEN));
	assert_string_equal(p.next_cursor, "heartbeat:0");
	assert_int_equal(p.n, 2);

	it = page_find(&p, "monitor", "1234");
	EXPECT_NORM(it, X_STR("type", "keyword"), X_STR("url", "https://shop.example.com/health?full=1"),
	    X_STR("keyword", "All systems go"), X_STR("keyword_up_when", "present"), /* do_not_find false */
	    X_STR("http_method", "POST"),                                            /* post_body */
	    X_STR("request_body", "{\"probe\":true}"));
	assert_string_equal(ntext(it, "request_headers"),
	    "{\"X-Env\":\"prod\",\"Accept\":\"application/json\",\"User-Agent\":\"ShopProbe/1.0\"}");
	EXPECT_NORM(it, X_TEXT("alert_status_codes", "[\"500\",\"502\",\"503\",\"504\"]"),
	    X_TEXT("expected_status_codes", "[]"), X_INT("timeout", 15), X_TRUE("follow_redirects"),
	    X_INT("ssl_expiry_days", 7), /* enable_ssl_alert */
	    X_IDS("regions", "london,frankfurt"), X_IDS("tags", "prod,shop"));
	/* Every address of group 77: two e-mails, a number, the ping_url webhook. */
	assert_string_equal(nids(it, "contact_ids"), "77,77:email:1,77:sms:0,77:webhook:0");
	assert_non_null(strstr(json_object_to_json_string(it->raw), "custom_header")); /* raw = detail */
	/* confirmation 2: the failed test and two confirming ones; trigger_rate 5 minutes */
	EXPECT_NORM(it, X_INT("alert_after_checks", 3), X_INT("alert_after_s", 300), X_NULL("realert_s"),
	    X_NULL("dns_record_type"), X_NULL("dns_nameserver"), X_NULL("auth_username"));
	assert_int_equal(nids_len(it, "dns_expected"), 0);

	it = page_find(&p, "monitor", "1235"); /* numbers as strings */
	EXPECT_NORM(it, X_STR("type", "tcp"), X_STR("url", "relay.example.com"), X_INT("port", 2525),
	    X_INT("interval", 60), X_INT("timeout", 30), X_TRUE("paused"), X_NULL("keyword"),
	    X_NULL("keyword_up_when"), X_NULL("http_method"),
	    X_IDS("contact_ids", "78"));  /* a group without addresses */
	assert_int_equal(p.nwarnings, 0); /* the integrations are reported with the groups */
	prov_page_free(&p);
	free_answers(a);
}

/* Alert timing and DNS expectations (statuscake-go model_uptime_test_.go
 * confirmation, trigger_rate, dns_ips, dns_server; list entries carrying
 * them, as uptime_detail_dns.json does, reach the pure parse), and hostile
 * values: out of range, not numbers, addresses that are none. */
static void
test_uptime_alerting_and_dns(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(
	    run_parse_text(statuscake_parse, "uptime:0", 200,
	        "{\"data\":["
	        "{\"id\":\"1238\",\"name\":\"Resolver\",\"test_type\":\"DNS\",\"website_url\":\"example.com\","
	        "\"confirmation\":1,\"trigger_rate\":0,\"dns_ips\":[\"192.0.2.1\"],\"dns_server\":\"1.1.1.1\"},"
	        "{\"id\":\"1239\",\"name\":\"Six\",\"test_type\":\"DNS\",\"website_url\":\"example.net\","
	        "\"confirmation\":\"0\",\"trigger_rate\":\"60\",\"dns_ips\":[\"2001:db8::1\",\"2001:db8::2\"]},"
	        "{\"id\":\"1240\",\"name\":\"Mixed\",\"test_type\":\"DNS\",\"website_url\":\"example.org\","
	        "\"confirmation\":-1,\"trigger_rate\":9223372036854775807,"
	        "\"dns_ips\":[\"192.0.2.7\",\"2001:db8::7\",\"mail.example.org\",\"192.0.2.999\",7]},"
	        "{\"id\":\"1241\",\"name\":\"Web\",\"test_type\":\"HTTP\",\"website_url\":\"https://w.example\","
	        "\"confirmation\":1001,\"trigger_rate\":1.5,\"dns_ips\":[\"192.0.2.1\"],\"dns_server\":\"x\"}],"
	        "\"metadata\":{\"page\":1,\"per_page\":25,\"page_count\":1,\"total_count\":4}}",
	        &p, &e),
	    PROV_OK);
	it = page_find(&p, "monitor", "1238");
	EXPECT_NORM(it, X_INT("alert_after_checks", 2), X_NULL("alert_after_s"),
	    X_IDS("dns_expected", "192.0.2.1"), X_STR("dns_record_type", "A"),
	    X_STR("dns_nameserver", "1.1.1.1"));
	it = page_find(&p, "monitor", "1239"); /* numbers as strings; IPv6 answers: AAAA */
	EXPECT_NORM(it, X_INT("alert_after_checks", 1), X_INT("alert_after_s", 3600),
	    X_IDS("dns_expected", "2001:db8::1,2001:db8::2"), X_STR("dns_record_type", "AAAA"),
	    X_NULL("dns_nameserver"));
	/* both families: no one record type; what is no address is left out */
	it = page_find(&p, "monitor", "1240");
	EXPECT_NORM(it, X_NULL("alert_after_checks"), X_NULL("alert_after_s"),
	    X_IDS("dns_expected", "192.0.2.7,2001:db8::7"), X_NULL("dns_record_type"));
	assert_true(has_warning(&p, "\"Mixed\" expects 3 DNS answers that are no IP address; not imported"));
	assert_true(has_warning(&p, "\"Mixed\" has a confirmation that is no count from 0 to 1000"));
	assert_true(has_warning(&p, "\"Mixed\" has a trigger_rate that is no count of minutes within"));
	/* an HTTP check's DNS fields mean nothing */
	it = page_find(&p, "monitor", "1241");
	EXPECT_NORM(it, X_NULL("alert_after_checks"), X_NULL("alert_after_s"), X_NULL("dns_record_type"),
	    X_NULL("dns_nameserver"));
	assert_int_equal(nids_len(it, "dns_expected"), 0);
	assert_true(has_warning(&p, "\"Web\" has a confirmation that is no count"));
	assert_true(has_warning(&p, "\"Web\" has a trigger_rate that is no count"));
	prov_page_free(&p);
}

static void
test_fetch_uptime_keyword_absent_head_constant(void **state)
{
	struct sc_env v;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	const struct prov_item *it;
	char *a[3] = { NULL };

	(void)state;
	/* Resumed at the second entry, a HEAD check with do_not_find and check_rate 0. */
	a[0] = answer("200 OK", "",
	    "{\"data\":[{\"id\":\"1236\"},{\"id\":\"1237\",\"name\":\"Status page\","
	    "\"website_url\":\"http://status.example.com/ping\",\"test_type\":\"HEAD\",\"check_rate\":0,"
	    "\"contact_groups\":[],\"paused\":false,\"status\":\"up\",\"tags\":[]}],"
	    "\"metadata\":{\"page\":1,\"per_page\":25,\"page_count\":1,\"total_count\":2}}");
	a[1] = answer_fixture("200 OK", "statuscake/uptime_detail_head.json");
	env_start(&v, (const char *const *)a);
	assert_int_equal(statuscake_ops.fetch(&v.s, "uptime:1", &p, &e), PROV_OK);
	env_finish(&v);
	assert_int_equal(p.n, 1);
	it = page_find(&p, "monitor", "1237");
	EXPECT_NORM(it, X_STR("type", "keyword"), X_STR("keyword", "Maintenance"),
	    X_STR("keyword_up_when", "absent"),                   /* do_not_find true */
	    X_STR("http_method", "HEAD"), X_NULL("request_body"), /* HEAD sends no body */
	    X_STR("url", "http://status.example.com:8080/ping"),  /* port put in */
	    X_INT("port", 8080), X_INT("interval", 30));          /* check_rate 0: constant */
	assert_true(
	    has_warning(&p, "\"Status page\" checks constantly (check_rate 0); imported with a 30 s"));
	assert_true(has_warning(&p, "custom headers that are not a JSON object"));
	EXPECT_NORM(it, X_TEXT("request_headers", "{}"), X_TEXT("alert_status_codes", "[\"404\",\"500\"]"),
	    X_IDS("tags", "edge,public"), /* a string, tolerated */
	    X_FALSE("follow_redirects"), X_NULL("ssl_expiry_days"));
	assert_int_equal(nids_len(it, "contact_ids"), 0);
	assert_string_equal(p.next_cursor, "heartbeat:0");
	prov_page_free(&p);
	free_answers(a);
}

static void
test_fetch_detail_failures(void **state)
{
	struct sc_env v;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	const struct prov_item *it;
	char *a[6] = { NULL };

	(void)state;
	/* A failed detail keeps the list data and warns; a failed group list links each
	 * group's first address only. */
	a[0] = answer_fixture("200 OK", "statuscake/uptime_list_detail.json");
	a[1] = answer("404 Not Found", "", "{\"message\":\"No results found\",\"errors\":{}}");
	a[2] = answer("500 Internal Server Error", "", "{\"message\":\"oops\",\"errors\":{}}");
	a[3] = answer_fixture("200 OK", "statuscake/uptime_detail_tcp.json");
	env_start(&v, (const char *const *)a);
	assert_int_equal(statuscake_ops.fetch(&v.s, NULL, &p, &e), PROV_OK);
	env_finish(&v);
	assert_int_equal(p.n, 2);
	it = page_find(&p, "monitor", "1234");
	EXPECT_NORM(it, X_STR("type", "http"), X_STR("url", "https://shop.example.com/health?full=1"),
	    X_IDS("tags", "prod,shop"), X_IDS("contact_ids", "77"));
	assert_true(has_warning(&p, "\"Shop\" (1234): its details could not be read (HTTP 404)"));
	assert_true(has_warning(&p,
	    "contact groups could not be read (HTTP 500): alerts link to the first "
	    "address of each group only"));
	assert_int_equal(nint(page_find(&p, "monitor", "1235"), "port"), 2525);
	prov_page_free(&p);
	free_answers(a);
}

/* Rate limits met while reading details. */
static void
test_fetch_details_rate_limited(void **state)
{
	struct sc_env v;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	char *a[6] = { NULL };

	(void)state;
	/* Rate limited on the first detail: the fetch is retried later, nothing kept. */
	a[0] = answer_fixture("200 OK", "statuscake/uptime_list_detail.json");
	a[1] = answer("429 Too Many Requests", "Retry-After: 9\r\n", "{\"message\":\"Too Many Requests\"}");
	env_start(&v, (const char *const *)a);
	assert_int_equal(statuscake_ops.fetch(&v.s, NULL, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 9);
	assert_int_equal(p.n, 0);
	env_finish(&v);
	prov_page_free(&p);
	free_answers(a);

	/* Rate limited on the second: the first is kept, the cursor resumes at the
	 * second, and the session waits Retry-After. */
	memset(a, 0, sizeof a);
	a[0] = answer_fixture("200 OK", "statuscake/uptime_list_detail.json");
	a[1] = answer_fixture("200 OK", "statuscake/uptime_detail_http.json");
	a[2] = answer_fixture("200 OK", "statuscake/contact_groups.json");
	a[3] = answer("429 Too Many Requests", "Retry-After: 9\r\n", "{\"message\":\"Too Many Requests\"}");
	env_start(&v, (const char *const *)a);
	assert_int_equal(statuscake_ops.fetch(&v.s, NULL, &p, &e), PROV_OK);
	env_finish(&v);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "uptime:1");
	assert_true(v.s.pace.limited);
	assert_in_range(prov_session_wait_ms(&v.s), 8000, 9000);
	prov_page_free(&p);
	free_answers(a);

	/* An answer saying the quota is used up (the groups, for the first check):
	 * the next detail is held back, unasked, so the page ends after the first
	 * check, and the session waits for the reset. */
	memset(a, 0, sizeof a);
	a[0] = answer_fixture("200 OK", "statuscake/uptime_list_detail.json");
	a[1] = answer_fixture("200 OK", "statuscake/uptime_detail_http.json");
	{
		char *body = fixture_text("statuscake/contact_groups.json", NULL);

		a[2] = answer("200 OK", "x-ratelimit-remaining: 0\r\nx-ratelimit-reset: 12\r\n", body);
		free(body);
	}
	env_start(&v, (const char *const *)a);
	assert_int_equal(statuscake_ops.fetch(&v.s, NULL, &p, &e), PROV_OK);
	assert_null(strstr(env_finish(&v), "/v1/uptime/1235"));
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "uptime:1");
	assert_true(v.s.pace.limited);
	assert_in_range(prov_session_wait_ms(&v.s), 11000, 12000);
	assert_int_equal(v.s.pace.refusals, 0);
	prov_page_free(&p);
	free_answers(a);
}

static void
test_fetch_heartbeats_and_windows_resolve(void **state)
{
	struct sc_env v;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	const struct prov_item *it;
	const char *seen;
	char *a[4] = { NULL };

	(void)state;
	a[0] = answer_fixture("200 OK", "statuscake/heartbeat.json");
	a[1] = answer_fixture("200 OK", "statuscake/contact_groups.json");
	env_start(&v, (const char *const *)a);
	assert_int_equal(statuscake_ops.fetch(&v.s, "heartbeat:0", &p, &e), PROV_OK);
	seen = env_finish(&v);
	assert_non_null(strstr(seen, "GET /v1/heartbeat?page=1&limit=100 "));
	it = page_find(&p, "heartbeat", "5001");
	assert_string_equal(nids(it, "contact_ids"), "77,77:email:1,77:sms:0,77:webhook:0");
	assert_string_equal(p.next_cursor, "ssl:0");
	prov_page_free(&p);
	free_answers(a);

	/* A window with tags: the checks so tagged are asked for and linked too. */
	memset(a, 0, sizeof a);
	a[0] = answer_fixture("200 OK", "statuscake/maintenance_windows.json");
	a[1] = answer_fixture("200 OK", "statuscake/uptime_tagged.json");
	env_start(&v, (const char *const *)a);
	assert_int_equal(statuscake_ops.fetch(&v.s, "maintenance-windows:0", &p, &e), PROV_OK);
	seen = env_finish(&v);
	assert_non_null(strstr(seen, "GET /v1/maintenance-windows?page=1&limit=25 "));
	assert_non_null(strstr(seen, "GET /v1/uptime?tags=prod&matchany=true&page=1&limit=100 "));
	it = page_find(&p, "maintenance_window", "11");
	assert_string_equal(nids(it, "monitor_ids"), "1234,1240");
	assert_false(has_warning(&p, "not resolved"));
	assert_null(p.next_cursor);
	prov_page_free(&p);
	free_answers(a);

	/* The maintenance window list refused over HTTP: the run ends discovery normally. */
	memset(a, 0, sizeof a);
	a[0] = answer_fixture("403 Forbidden", "statuscake/forbidden.json");
	env_start(&v, (const char *const *)a);
	assert_int_equal(statuscake_ops.fetch(&v.s, "maintenance-windows:0", &p, &e), PROV_OK);
	env_finish(&v);
	assert_true(
	    has_warning(&p, "StatusCake refused the maintenance windows list for this key (HTTP 403)"));
	assert_null(p.next_cursor);
	prov_page_free(&p);
	free_answers(a);

	/* A bad token on the first call. */
	memset(a, 0, sizeof a);
	a[0] = answer_fixture("401 Unauthorized", "statuscake/unauthorized.json");
	env_start(&v, (const char *const *)a);
	assert_int_equal(statuscake_ops.fetch(&v.s, NULL, &p, &e), PROV_AUTH);
	assert_null(strstr(e.message, TOKEN));
	env_finish(&v);
	prov_page_free(&p);
	free_answers(a);
}

/* The port of a check goes into its URL as curl writes it (core/url.h):
 * not when the URL has one, or credentials, or the port is the scheme's
 * default; IPv6 literals and upper case as written. */
static void
test_uptime_url_ports(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(
	    run_parse_text(statuscake_parse, "uptime:0", 200,
	        "{\"data\":["
	        "{\"id\":\"1\",\"name\":\"V6\",\"website_url\":\"https://[::1]/x\",\"test_type\":\"HTTP\",\"port\":8443},"
	        "{\"id\":\"2\",\"name\":\"Has\",\"website_url\":\"http://a.example.com:81/\",\"test_type\":\"HTTP\",\"port\":8080},"
	        "{\"id\":\"3\",\"name\":\"Dflt\",\"website_url\":\"HTTPS://A.Example.COM/p?q=1\",\"test_type\":\"HTTP\",\"port\":443},"
	        "{\"id\":\"4\",\"name\":\"Up\",\"website_url\":\"HTTPS://A.Example.COM/p%20q?q=1\",\"test_type\":\"HTTP\",\"port\":80},"
	        "{\"id\":\"5\",\"name\":\"Cred\",\"website_url\":\"https://u:pw@a.example.com/\",\"test_type\":\"HTTP\",\"port\":8443},"
	        "{\"id\":\"6\",\"name\":\"Bad\",\"website_url\":\"https://[::1/\",\"test_type\":\"HTTP\",\"port\":8443}"
	        "],\"metadata\":{\"page\":1,\"per_page\":25,\"page_count\":1,\"total_count\":6}}",
	        &p, &e),
	    PROV_OK);
	EXPECT_NORM(page_find(&p, "monitor", "1"), X_STR("url", "https://[::1]:8443/x"), X_INT("port", 8443));
	EXPECT_NORM(page_find(&p, "monitor", "2"), X_STR("url", "http://a.example.com:81/"),
	    X_INT("port", 8080));
	EXPECT_NORM(page_find(&p, "monitor", "3"), X_STR("url", "HTTPS://A.Example.COM/p?q=1"),
	    X_INT("port", 443));
	EXPECT_NORM(page_find(&p, "monitor", "4"), X_STR("url", "https://A.Example.COM:80/p%20q?q=1"),
	    X_INT("port", 80));
	EXPECT_NORM(page_find(&p, "monitor", "5"), X_STR("url", "https://u:pw@a.example.com/"));
	EXPECT_NORM(page_find(&p, "monitor", "6"), X_STR("url", "https://[::1/"));
	prov_page_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uptime_list_pages),
		cmocka_unit_test(test_uptime_url_ports),
		cmocka_unit_test(test_heartbeats_ssl_groups),
		cmocka_unit_test(test_maintenance_windows),
		cmocka_unit_test(test_window_times_in_their_zone),
		cmocka_unit_test(test_refused_kinds),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_uptime_alerting_and_dns),
		cmocka_unit_test(test_fetch_uptime_with_details_and_groups),
		cmocka_unit_test(test_fetch_uptime_keyword_absent_head_constant),
		cmocka_unit_test(test_fetch_detail_failures),
		cmocka_unit_test(test_fetch_details_rate_limited),
		cmocka_unit_test(test_fetch_heartbeats_and_windows_resolve),
	};

	return PROVTEST_RUN(tests);
}
