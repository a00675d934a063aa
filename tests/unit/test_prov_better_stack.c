/* Unit tests of the Better Stack adapter (src/providers/better_stack.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/better_stack/) and whole fetches (list + context
 * calls) against a local server. Each test names the published shape its fixture follows:
 * betterstack.com/docs/uptime/api/… and the official Terraform provider
 * BetterStackHQ/terraform-provider-better-uptime internal/provider/ (Go structs) (TF below). */
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

/* ---- pure parse ---- */

/* Fixture monitors_page1.json: monitor attributes as in the docs' monitor example and TF
 * resource_monitor.go `monitor` struct (providers.md §4.2), with numbers as strings, "" and nulls.
 * Long because: one parse of the page and each monitor it makes, checked in turn. */
static void
test_monitor_fields(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;
	json_object *a = NULL;

	(void)state;
	assert_int_equal(run_parse(better_stack_parse, NULL, 200, "better_stack/monitors_page1.json", &p, &e),
	    PROV_OK);
	/* The next page by number, whatever host the "next" link names. */
	assert_string_equal(p.next_cursor, "monitors:2");
	assert_int_equal(page_count(&p, "monitor"), 7);
	it = page_find(&p, "monitor", "2");
	EXPECT_NORM(it, X_STR("name", "Shop"), X_STR("type", "keyword"),
	    X_STR("url", "https://shop.example.com:8443/health?deep=1"), X_STR("keyword", "All systems go"),
	    X_STR("keyword_up_when", "present"), X_NULL("keyword_case_sensitive"),
	    X_STR("http_method", "POST"), X_STR("request_body", "{\"ping\":1}"));
	assert_string_equal(ntext(it, "request_headers"),
	    "{\"X-Env\":\"prod\",\"Accept\":\"application/json\"}");
	EXPECT_NORM(it, X_INT("interval", 30), X_INT("timeout", 15), X_FALSE("follow_redirects"),
	    X_TRUE("verify_ssl"), X_INT("ssl_expiry_days", 14), X_IDS("regions", "us,eu"), X_NULL("port"),
	    X_IDS("contact_ids", ""), /* links need the context: fetch tests */
	    X_FALSE("paused"));
	/* Alert timing (create-a-new-monitor: confirmation_period, recovery_period, seconds; 0: not said);
	 * the basic-auth login lands, its password for discovery to seal, never in the stored provider
	 * copy nor a warning. */
	EXPECT_NORM(it, X_INT("alert_after_s", 120), /* "120" */
	    X_NULL("recovery_s"), X_NULL("realert_s"), X_STR("auth_username", "probe"),
	    X_STR("auth_password", "hunter2-secret"), X_NULL("dns_nameserver"));
	json_object_object_get_ex(it->raw, "attributes", &a);
	assert_string_equal(json_object_get_string(json_object_object_get(a, "auth_password")), "[redacted]");
	for (size_t i = 0; i < p.nwarnings; i++)
		assert_null(strstr(p.warnings[i], "hunter2"));
	it = page_find(&p, "maintenance_window", "monitor-2");
	EXPECT_NORM(it, X_STR("name", "Shop maintenance"), X_STR("recurrence", "weekly"),
	    X_STR("start", "01:00"), X_INT("duration", 150), X_TEXT("days", "[6,7]"),
	    X_STR("timezone", "Europe/Amsterdam"), X_IDS("monitor_ids", "2"));

	it = page_find(&p, "monitor", "3");
	EXPECT_NORM(it, X_STR("type", "keyword"), X_STR("keyword", "error"),
	    X_STR("keyword_up_when", "absent"), X_TRUE("paused"), X_INT("interval", 60), /* "60" */
	    X_INT("timeout", 30),                                                        /* "30" */
	    X_FALSE("verify_ssl"),                                                       /* "false" */
	    X_TRUE("follow_redirects"),                                                  /* "1" */
	    X_STR("http_method", "GET"), X_IDS("regions", ""), X_NULL("alert_after_s"),
	    X_INT("recovery_s", 300), X_NULL("auth_username"), X_NULL("auth_password"));
	it = page_find(&p, "maintenance_window", "monitor-3");
	EXPECT_NORM(it, X_STR("recurrence", "daily"),        /* no days: every day */
	    X_STR("start", "23:00"), X_INT("duration", 180), /* overnight */
	    X_STR("timezone", "Europe/Prague"));

	it = page_find(&p, "monitor", "4");
	EXPECT_NORM(it, X_STR("type", "tcp"), X_STR("url", "db.example.com"), X_INT("port", 5432),
	    X_INT("timeout", 2), /* 2000 ms */
	    X_NULL("keyword"), X_NULL("keyword_up_when"), X_NULL("follow_redirects"));

	it = page_find(&p, "monitor", "5");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(nnull(it, "http_method"));
	/* wrong types and ranges: not said */
	EXPECT_NORM(it, X_NULL("alert_after_s"), X_NULL("recovery_s"), X_NULL("auth_username"),
	    X_NULL("auth_password"));
	assert_true(has_warning(&p, "unknown type quantum_check; kept as other"));
	assert_true(has_warning(&p, "unknown HTTP method brew"));
	assert_true(has_warning(&p, "without id or attributes"));

	it = page_find(&p, "monitor", "7");
	EXPECT_NORM(it, X_STR("name", "mail.example.com"), X_STR("type", "smtp"), X_INT("port", 25),
	    X_INT("timeout", 1),     /* 500 ms, rounded up */
	    X_INT("interval", 180)); /* "" */
	assert_true(has_warning(&p, "checks ports 25,465,587; only the first (25) was imported"));
	it = page_find(&p, "maintenance_window", "monitor-7");
	assert_string_equal(ntext(it, "days"), "[1]");
	assert_true(nnull(it, "timezone"));
	assert_true(has_warning(&p, "unknown time zone Mars/Olympus"));
	assert_true(has_warning(&p, "unknown maintenance day fun"));

	it = page_find(&p, "monitor", "8");
	/* DNS as published (create-a-new-monitor, monitor_type dns; TF resource.tf example): the server
	 * in url, the domain to query in request_body; no record type or expected answer. */
	EXPECT_NORM(it, X_STR("type", "dns"), X_STR("url", "example.org"), X_STR("dns_nameserver", "1.1.1.1"),
	    X_NULL("request_body"), X_NULL("dns_record_type"), X_IDS("dns_expected", ""), X_INT("port", 53),
	    X_INT("timeout", 5));

	it = page_find(&p, "monitor", "9");
	EXPECT_NORM(it, X_STR("type", "http"), X_IDS("expected_status_codes", "200,204"),
	    X_STR("http_method", "HEAD"), X_NULL("request_body"), X_TEXT("request_headers", "{}"),
	    X_NULL("keyword_up_when"));
	prov_page_free(&p);
}

/* Fixture heartbeats_last.json: heartbeat attributes per docs + TF resource_heartbeat.go. */
static void
test_heartbeats(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(better_stack_parse, "heartbeats:3", 200,
	                     "better_stack/heartbeats_last.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "contacts:0");
	it = page_find(&p, "heartbeat", "12345");
	EXPECT_NORM(it, X_STR("name", "Cron backup"), X_INT("interval", 3600),
	    X_INT("grace", 300), /* "300" */
	    X_FALSE("paused"), X_STR("ping_url", "https://uptime.betterstack.com/api/v1/heartbeat/abcd1234"));
	it = page_find(&p, "maintenance_window", "heartbeat-12345");
	EXPECT_NORM(it, X_STR("name", "Cron backup heartbeat maintenance"),
	    X_STR("recurrence", "daily"), /* all seven days */
	    X_TEXT("days", "[]"), X_INT("duration", 60), X_STR("timezone", "Europe/Prague"),
	    X_IDS("monitor_ids", ""), X_IDS("heartbeat_ids", "12345")); /* numbered apart from monitors */
	it = page_find(&p, "heartbeat", "12346");
	assert_true(nbool(it, "paused"));
	assert_int_equal(page_count(&p, "maintenance_window"), 1);
	prov_page_free(&p);
}

/* Fixture status_pages.json: status page attributes per docs + TF resource_status_page.go. */
static void
test_status_pages_parse(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(better_stack_parse, "status-pages:1", 200,
	                     "better_stack/status_pages.json", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	it = page_find(&p, "status_page", "123");
	EXPECT_NORM(it, X_STR("name", "Acme"), X_STR("url", "https://acme.betteruptime.com"),
	    X_STR("timezone", "America/New_York"), X_TRUE("public"));
	it = page_find(&p, "status_page", "124");
	EXPECT_NORM(it, X_STR("url", "https://status.acme.example"),
	    X_FALSE("public"), /* password protected */
	    X_NULL("timezone"));
	assert_true(has_warning(&p, "unknown time zone Atlantis"));
	prov_page_free(&p);
}

/* Fixtures unauthorized.json (providers.md §4.3: 401, "errors" a string), forbidden.json (403,
 * unconfirmed shape), empty.json (docs pagination, next null). */
static void
test_errors_and_refused_kinds(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse(better_stack_parse, NULL, 401, "better_stack/unauthorized.json", &p, &e),
	    PROV_AUTH);
	assert_non_null(strstr(e.message, "Better Stack rejected the API token (HTTP 401)"));
	prov_page_free(&p);
	assert_int_equal(run_parse(better_stack_parse, "monitors:2", 403, "better_stack/forbidden.json", &p,
	                     &e),
	    PROV_AUTH);
	prov_page_free(&p);
	/* A later list refused: a warning naming the kind, and on to the next phase. */
	assert_int_equal(run_parse(better_stack_parse, "heartbeats:1", 403, "better_stack/forbidden.json", &p,
	                     &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_true(has_warning(&p,
	    "Better Stack refused the heartbeats list for this key (HTTP 403): "
	    "heartbeats skipped"));
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);
	assert_int_equal(run_parse(better_stack_parse, "status-pages:2", 401,
	                     "better_stack/unauthorized.json", &p, &e),
	    PROV_OK);
	assert_true(has_warning(&p, "refused the status pages list"));
	assert_null(p.next_cursor);
	prov_page_free(&p);
	/* Empty lists end the phase. */
	EXPECT_EMPTY_PAGE(better_stack_parse, "monitors:1", "better_stack/empty.json", "heartbeats:1");
	assert_int_equal(run_parse(better_stack_parse, NULL, 200, "better_stack/not_jsonapi.json", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(better_stack_parse, "monitors:2", 503, "", &p, &e), PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(better_stack_parse, "monitors:2", 200,
	                     "{\"data\":[{\"id\":\"1\",\"att", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	parse_fails(better_stack_parse, "email-integrations:1", 200, "better_stack/empty.json", PROV_FATAL);
	parse_fails(better_stack_parse, "contacts:0", 200, "better_stack/empty.json", PROV_FATAL);
}

/* ---- whole fetches ---- */

struct fx {
	struct config cfg;
	struct prov_session s;
	struct prov_page p;
	struct prov_error e;
	struct mini m;
	json_object *creds;
	char base[96];
};

static void
fx_start(struct fx *f, const char *const *answers, const char *creds)
{
	memset(f, 0, sizeof *f);
	f->creds = json_tokener_parse(creds);
	mini_start(&f->m, answers);
	snprintf(f->base, sizeof f->base, "http://127.0.0.1:%d/bs", f->m.port);
	cfg_init(&f->cfg, "better_stack", f->base);
	assert_int_equal(prov_session_init(&f->s, provider_find("better_stack"), &f->cfg, f->creds, &f->e),
	    0);
}

static enum prov_status
fx_fetch(struct fx *f, const char *cursor)
{
	return provider_find("better_stack")->ops->fetch(&f->s, cursor, &f->p, &f->e);
}

static void
fx_end(struct fx *f, char **answers)
{
	prov_page_free(&f->p);
	json_object_put(f->creds);
	for (size_t i = 0; answers != NULL && answers[i] != NULL; i++)
		free(answers[i]);
}

#define TOKEN "{\"api_token\":\"bs-token-1234\"}"

/* Monitors page + on-calls (docs on-call-calendar-api-response-params: data[] with
 * relationships.on_call_users, included[] type on_call_user) + team members (docs team-members/list:
 * data[] of team_member and team_member_invitation) + policies (docs escalation policy example; TF
 * resource_policy.go policyStep/policyStepMember: wait_before since the step before, current_on_call
 * with a calendar id or none, entire_team). */
static void
test_fetch_monitor_links(void **state)
{
	char *ans[] = { answer_fixture("200 OK", "better_stack/monitors_page1.json"),
		answer_fixture("200 OK", "better_stack/on_calls.json"),
		answer_fixture("200 OK", "better_stack/team_members.json"),
		answer_fixture("200 OK", "better_stack/policies.json"), NULL };
	struct fx f;
	const char *seen;
	const struct prov_item *it;

	(void)state;
	fx_start(&f, (const char *const *)ans, TOKEN);
	assert_int_equal(fx_fetch(&f, NULL), PROV_OK);
	seen = mini_finish(&f.m);
	assert_non_null(strstr(seen, "GET /bs/api/v2/monitors?page=1&per_page=250 "));
	assert_non_null(strstr(seen, "GET /bs/api/v2/on-calls?page=1&per_page=250 "));
	/* on betterstack.com for Better Stack itself; here the configured base serves it */
	assert_non_null(strstr(seen, "GET /bs/api/v2/team-members?page=1&per_page=250 "));
	assert_non_null(strstr(seen, "GET /bs/api/v3/policies?page=1&per_page=250 "));
	assert_null(strstr(seen, "evil.example.net"));
	assert_string_equal(f.p.next_cursor, "monitors:2");
	/* No policy: the default calendar's on-call users by each set flag (email, sms, call,
	 * critical_alert = push) at once; Bob has no phone. The Weekend calendar is not the default.
	 * team_wait 180: then every team member's e-mail; Ann and Bob were alerted at once, Dave
	 * after 180 s; an invitation and a member without an address are nobody to alert. */
	it = page_find(&f.p, "monitor", "2");
	assert_string_equal(nids(it, "contact_ids"),
	    "user:2345:email,user:2346:email,user:2345:sms,"
	    "user:2345:voice,user:2345:push,user:2346:push,user:2347:email");
	assert_string_equal(ntext(it, "contact_timing"),
	    "{\"user:2347:email\":{\"delay_s\":180,\"repeat_s\":null}}");
	assert_true(
	    has_warning(&f.p, "monitor \"Shop\": on-call user Bob has no phone number for the SMS alert"));
	assert_true(has_warning(&f.p, "Bob has no phone number for the phone call alert"));
	/* A policy: step 1 (0 s) the default calendar's on-call users; step 2 (600 s) users by id, by
	 * e-mail, by id only and the Weekend calendar's on-call user; step 3 (900 s) the entire team
	 * (Dave is new) and an unknown calendar; step 4 waits until a time of day: the delay before it. */
	it = page_find(&f.p, "monitor", "3");
	assert_string_equal(nids(it, "contact_ids"),
	    "user:2345:email,user:2346:email,user:email=carol@example.com:email,"
	    "user:7777:email,user:9999:email,user:2347:email,user:7778:email");
	assert_string_equal(ntext(it, "contact_timing"),
	    "{\"user:email=carol@example.com:email\":{\"delay_s\":600,\"repeat_s\":null},"
	    "\"user:7777:email\":{\"delay_s\":600,\"repeat_s\":null},"
	    "\"user:9999:email\":{\"delay_s\":600,\"repeat_s\":null},"
	    "\"user:2347:email\":{\"delay_s\":900,\"repeat_s\":null},"
	    "\"user:7778:email\":{\"delay_s\":900,\"repeat_s\":null}}");
	assert_true(has_warning(&f.p,
	    "monitor \"Health\": escalation policy \"Standard\" also notifies 1 "
	    "member(s) that are not people (e.g. webhook): not linked"));
	assert_true(has_warning(&f.p, "alerts on-call calendar 999, which is not in the calendar list"));
	assert_true(has_warning(&f.p, "step 4 waits until a time of day"));
	assert_null(json_object_object_get(it->norm, "unread"));
	it = page_find(&f.p, "monitor", "4"); /* no flags */
	assert_string_equal(nids(it, "contact_ids"), "");
	assert_null(strstr(f.p.warnings[0], "bs-token-1234"));
	fx_end(&f, ans);
}

/* Nobody on call (on_calls_nobody.json) and a refused policy list (403, forbidden.json): the links
 * of what alerts the policy are marked unread, so a re-import keeps the account's. */
static void
test_fetch_heartbeats_nobody_on_call(void **state)
{
	char *ans[] = { answer_fixture("200 OK", "better_stack/heartbeats_last.json"),
		answer_fixture("200 OK", "better_stack/on_calls_nobody.json"),
		answer_fixture("200 OK", "better_stack/team_members.json"),
		answer_fixture("403 Forbidden", "better_stack/forbidden.json"), NULL };
	struct fx f;
	const struct prov_item *it;

	(void)state;
	fx_start(&f, (const char *const *)ans, TOKEN);
	assert_int_equal(fx_fetch(&f, "heartbeats:3"), PROV_OK);
	mini_finish(&f.m);
	assert_string_equal(f.p.next_cursor, "contacts:0");
	it = page_find(&f.p, "heartbeat", "12345");
	assert_string_equal(nids(it, "contact_ids"), "");
	assert_true(has_warning(&f.p,
	    "heartbeat \"Cron backup\" alerts the on-call person, but nobody is on "
	    "call now: not linked"));
	assert_null(json_object_object_get(it->norm, "unread"));
	it = page_find(&f.p, "heartbeat", "12346");
	assert_string_equal(nids(it, "contact_ids"), "");
	assert_true(has_warning(&f.p,
	    "heartbeat \"Nightly import\" alerts escalation policy 456789, but the "
	    "policies could not be read (HTTP 403)"));
	assert_non_null(strstr(ntext(it, "unread"), "contact_ids"));
	fx_end(&f, ans);
}

/* The team's members refused (403): a team_wait link and a policy's entire_team step are unread;
 * the on-call links still arrive. */
static void
test_fetch_team_refused(void **state)
{
	char *ans[] = { answer_fixture("200 OK", "better_stack/monitors_page1.json"),
		answer_fixture("200 OK", "better_stack/on_calls.json"),
		answer_fixture("403 Forbidden", "better_stack/forbidden.json"),
		answer_fixture("200 OK", "better_stack/policies.json"), NULL };
	struct fx f;
	const struct prov_item *it;

	(void)state;
	fx_start(&f, (const char *const *)ans, TOKEN);
	assert_int_equal(fx_fetch(&f, NULL), PROV_OK);
	mini_finish(&f.m);
	it = page_find(&f.p, "monitor", "2");
	assert_string_equal(nids(it, "contact_ids"),
	    "user:2345:email,user:2346:email,user:2345:sms,"
	    "user:2345:voice,user:2345:push,user:2346:push");
	assert_non_null(strstr(ntext(it, "unread"), "contact_ids"));
	assert_true(has_warning(&f.p,
	    "monitor \"Shop\" alerts the entire team after 180 s (team_wait), but the team's members could "
	    "not be read (HTTP 403): not linked"));
	/* ... and a member given only by e-mail is not linked under another key than a run that read
	 * the team would give it */
	it = page_find(&f.p, "monitor", "3");
	assert_non_null(strstr(ntext(it, "unread"), "contact_ids"));
	assert_null(strstr(nids(it, "contact_ids"), "email=carol"));
	it = page_find(&f.p, "monitor", "4"); /* alerts nobody: nothing unread */
	assert_null(json_object_object_get(it->norm, "unread"));
	fx_end(&f, ans);
}

/* The contacts step: on-call users (one contact per channel), the other calendars' on-call users
 * and the team's members (e-mail), and policy user members. */
static void
test_fetch_contacts(void **state)
{
	char *ans[] = { answer_fixture("200 OK", "better_stack/on_calls.json"),
		answer_fixture("200 OK", "better_stack/team_members.json"),
		answer_fixture("200 OK", "better_stack/policies.json"), NULL };
	struct fx f;
	const struct prov_item *it;
	const char *seen;

	(void)state;
	fx_start(&f, (const char *const *)ans, "{\"api_token\":\"bs-token-1234\",\"team_name\":\"Ops\"}");
	assert_int_equal(fx_fetch(&f, "contacts:0"), PROV_OK);
	seen = mini_finish(&f.m);
	assert_non_null(strstr(seen, "GET /bs/api/v2/on-calls?page=1&per_page=250&team_name=Ops "));
	assert_non_null(strstr(seen, "GET /bs/api/v2/team-members?page=1&per_page=250&team_name=Ops "));
	assert_string_equal(f.p.next_cursor, "status-pages:1");
	assert_int_equal(page_count(&f.p, "contact"), 11);
	it = page_find(&f.p, "contact", "user:2345:email");
	EXPECT_NORM(it, X_STR("name", "Ann Lee"), X_STR("type", "email"), X_STR("value", "ann@example.com"),
	    X_FALSE("needs_address"));
	it = page_find(&f.p, "contact", "user:2345:sms");
	EXPECT_NORM(it, X_STR("name", "Ann Lee (SMS)"), X_STR("type", "sms"),
	    X_STR("value", "+420123456789"));
	it = page_find(&f.p, "contact", "user:2345:voice");
	assert_string_equal(nstr(it, "type"), "voice");
	assert_string_equal(nstr(it, "value"), "+420123456789");
	it = page_find(&f.p, "contact", "user:2345:push");
	assert_string_equal(nstr(it, "type"), "push");
	assert_string_equal(nstr(it, "value"), "ann@example.com");
	it = page_find(&f.p, "contact", "user:2346:email");
	assert_string_equal(nstr(it, "name"), "Bob");
	page_find(&f.p, "contact", "user:2346:push");
	it = page_find(&f.p, "contact", "user:9999:email");
	EXPECT_NORM(it, X_STR("name", "Wes End"), X_STR("value", "weekend@example.com"));
	it = page_find(&f.p, "contact", "user:2347:email");
	EXPECT_NORM(it, X_STR("name", "Dave Kim"), X_STR("value", "dave@example.com"));
	it = page_find(&f.p, "contact", "user:email=carol@example.com:email");
	assert_string_equal(nstr(it, "value"), "Carol@Example.com");
	it = page_find(&f.p, "contact", "user:7777:email");
	EXPECT_NORM(it, X_STR("name", "Better Stack user 7777"), X_NULL("value"), X_TRUE("needs_address"));
	page_find(&f.p, "contact", "user:7778:email");
	fx_end(&f, ans);
}

static void
test_fetch_contacts_refused(void **state)
{
	char *ans[] = { answer_fixture("403 Forbidden", "better_stack/forbidden.json"),
		answer_fixture("404 Not Found", "better_stack/forbidden.json"),
		answer_fixture("401 Unauthorized", "better_stack/unauthorized.json"), NULL };
	struct fx f;

	(void)state;
	fx_start(&f, (const char *const *)ans, TOKEN);
	assert_int_equal(fx_fetch(&f, "contacts:0"), PROV_OK);
	mini_finish(&f.m);
	assert_int_equal(f.p.n, 0);
	assert_true(has_warning(&f.p, "refused the on-call calendars list for this key (HTTP 403)"));
	assert_true(has_warning(&f.p, "refused the team members list for this key (HTTP 404)"));
	assert_true(has_warning(&f.p, "refused the escalation policies list for this key (HTTP 401)"));
	assert_string_equal(f.p.next_cursor, "status-pages:1");
	fx_end(&f, ans);
}

/* Status pages with sections and resources (docs status-page-sections/-resources; TF
 * resource_status_page_section.go, resource_status_page_resource.go). */
static void
test_fetch_status_page_entries(void **state)
{
	char *ans[] = { answer_fixture("200 OK", "better_stack/status_pages.json"),
		answer_fixture("200 OK", "better_stack/sections.json"),
		answer_fixture("200 OK", "better_stack/resources.json"),
		answer_fixture("200 OK", "better_stack/status_reports.json"),
		answer_fixture("200 OK", "better_stack/status_updates_502.json"),
		answer_fixture("200 OK", "better_stack/status_updates_501.json"),
		answer_fixture("403 Forbidden", "better_stack/forbidden.json"),
		answer("500 Internal Server Error", "", "{\"errors\":\"Something went wrong on our side.\"}"),
		NULL };
	struct fx f;
	const struct prov_item *it;
	json_object *items = NULL;
	const char *seen;

	(void)state;
	fx_start(&f, (const char *const *)ans, TOKEN);
	assert_int_equal(fx_fetch(&f, "status-pages:1"), PROV_OK);
	seen = mini_finish(&f.m);
	assert_non_null(strstr(seen, "GET /bs/api/v2/status-pages?page=1&per_page=10 "));
	assert_non_null(strstr(seen, "GET /bs/api/v2/status-pages/123/sections?page=1&per_page=250 "));
	assert_non_null(strstr(seen, "GET /bs/api/v2/status-pages/123/resources?page=1&per_page=250 "));
	assert_non_null(strstr(seen, "GET /bs/api/v2/status-pages/124/sections?page=1&per_page=250 "));
	assert_null(strstr(seen, "124/resources"));
	assert_null(f.p.next_cursor);
	it = page_find(&f.p, "status_page", "123");
	/* Sections by position, then resources by position within each. */
	assert_string_equal(nids(it, "items"), "2,3,heartbeat:12345,-,-");
	json_object_object_get_ex(it->norm, "items", &items);
	assert_string_equal(json_object_to_json_string_ext(json_object_array_get_idx(items, 0),
	                        JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
	    "{\"monitor_id\":\"2\",\"name\":\"Public API\",\"section\":\"API\"}");
	assert_string_equal(json_object_to_json_string_ext(json_object_array_get_idx(items, 2),
	                        JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
	    "{\"heartbeat_id\":\"12345\",\"name\":\"Backups\",\"section\":\"Jobs\"}");
	assert_string_equal(json_object_to_json_string_ext(json_object_array_get_idx(items, 3),
	                        JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
	    "{\"monitor_id\":null,\"name\":\"Office network\",\"section\":\"Jobs\"}");
	assert_true(has_warning(&f.p, "status page \"Acme\" shows a resource of unknown type QuantumWidget"));
	/* Its status reports, newest first, each with its updates oldest first (docs
	 * list-existing-reports-on-a-status-page, list-all-existing-status-updates-...). */
	assert_non_null(strstr(seen, "GET /bs/api/v2/status-pages/123/status-reports?page=1&per_page=250 "));
	assert_non_null(
	    strstr(seen, "GET /bs/api/v2/status-pages/123/status-reports/502/status-updates?page=1"));
	assert_non_null(
	    strstr(seen, "GET /bs/api/v2/status-pages/123/status-reports/501/status-updates?page=1"));
	json_object_object_get_ex(it->norm, "incidents", &items);
	assert_string_equal(json_object_to_json_string_ext(items,
	                        JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
	    "[{\"kind\":\"maintenance\",\"name\":\"DB upgrade\",\"status\":null,\"impact\":\"maintenance\","
	    "\"starts_at\":\"2024-03-05T01:00:00Z\",\"ends_at\":\"2024-03-05T03:00:00Z\","
	    "\"scheduled_until\":\"2024-03-05T03:00:00Z\",\"updates\":[{\"at\":\"2024-03-05T01:00:00Z\","
	    "\"status\":null,\"body\":\"Starting the upgrade \u2014 \u201cWartung\u201d.\"},"
	    "{\"at\":\"2024-03-05T03:00:00Z\",\"status\":null,\"body\":\"Done \u2713\"}],\"components\":[2]},"
	    "{\"kind\":\"incident\",\"name\":\"API outage\",\"status\":null,\"impact\":\"downtime\","
	    "\"starts_at\":\"2024-03-01T10:00:00Z\",\"ends_at\":\"2024-03-01T12:00:00Z\",\"scheduled_until\":null,"
	    "\"updates\":[{\"at\":\"2024-03-01T10:05:00Z\",\"status\":null,"
	    "\"body\":\"The API answers 500.\\nWe are on it.\"}],\"components\":[0]}]");
	assert_true(
	    has_warning(&f.p, "status report 501 names 1 resource(s) status page \"Acme\" does not show"));
	/* stored with the page for the ledger */
	assert_non_null(prov_get_array(it->raw, "status_reports"));
	it = page_find(&f.p, "status_page", "124");
	assert_string_equal(nids(it, "items"), "");
	assert_true(
	    has_warning(&f.p, "refused the sections and resources of status page \"Internal\" (HTTP 403)"));
	/* its reports failed (HTTP 500): its history is unread, the account keeps its own */
	assert_true(
	    has_warning(&f.p, "status page \"Internal\": its status reports could not be read (HTTP 500)"));
	json_object_object_get_ex(it->norm, "unread", &items);
	assert_string_equal(json_object_to_json_string_ext(items, JSON_C_TO_STRING_PLAIN),
	    "{\"keys\":[\"incidents\"],\"why\":\"its status reports could not be read (HTTP 500)\"}");
	fx_end(&f, ans);
}

/* The first call refused = bad key; a context call failing = the step is retried whole. */
static void
test_fetch_bad_key_and_transient_context(void **state)
{
	char *ans[] = { answer_fixture("401 Unauthorized", "better_stack/unauthorized.json"), NULL };
	char *ans2[] = { answer_fixture("200 OK", "better_stack/monitors_page1.json"),
		answer("503 Service Unavailable", "", "<html>busy</html>"), NULL };
	struct fx f;

	(void)state;
	fx_start(&f, (const char *const *)ans, TOKEN);
	assert_int_equal(fx_fetch(&f, NULL), PROV_AUTH);
	mini_finish(&f.m);
	assert_non_null(strstr(f.e.message, "rejected the API token (HTTP 401)"));
	assert_null(strstr(f.e.message, "bs-token-1234"));
	fx_end(&f, ans);

	fx_start(&f, (const char *const *)ans2, TOKEN);
	assert_int_equal(fx_fetch(&f, "monitors:1"), PROV_TRANSIENT);
	mini_finish(&f.m);
	assert_int_equal(f.p.n, 0);
	assert_null(f.p.next_cursor);
	fx_end(&f, ans2);
}

static void
test_fetch_request(void **state)
{
	char *ans[] = {
		xstrdup(
		    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-RateLimit-Remaining: 0\r\n"
		    "Retry-After: 30\r\nConnection: close\r\n\r\n"
		    "{\"data\":[{\"id\":\"1\",\"type\":\"heartbeat\",\"attributes\":{\"name\":\"hb\",\"period\":60,"
		    "\"grace\":0}}],\"pagination\":{\"next\":null}}"),
		NULL
	};
	struct fx f;
	const char *seen;

	(void)state;
	fx_start(&f, (const char *const *)ans,
	    "{\"api_token\":\"bs-token-1234\",\"team_name\":\"Ops & Co\"}");
	assert_int_equal(fx_fetch(&f, "heartbeats:2"), PROV_OK);
	seen = mini_finish(&f.m);
	assert_non_null(
	    strstr(seen, "GET /bs/api/v2/heartbeats?page=2&per_page=250&team_name=Ops%20%26%20Co "));
	assert_non_null(strstr(seen, "Authorization: Bearer bs-token-1234\r\n"));
	assert_int_equal(f.p.n, 1); /* no flags: no context calls */
	assert_string_equal(f.p.next_cursor, "contacts:0");
	/* quota used up: the session waits Retry-After before its next request */
	assert_true(f.s.pace.limited);
	assert_in_range(prov_session_wait_ms(&f.s), 29000, 30000);
	fx_end(&f, ans);
	/* A checkpoint that is not ours. */
	fx_start(&f, (const char *const[]){ NULL }, TOKEN);
	assert_int_equal(fx_fetch(&f, "outgoing-webhooks:1"), PROV_FATAL);
	mini_finish(&f.m);
	fx_end(&f, NULL);
}

/* A request timeout past int32 (in ms for tcp checks, rounded up to
 * seconds) is not used: no overflow, the timeout is left unset. */
static void
test_monitor_numbers_out_of_range(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(
	    run_parse_text(better_stack_parse, "monitors:1", 200,
	        "{\"data\":["
	        "{\"id\":\"1\",\"type\":\"monitor\",\"attributes\":{\"url\":\"db.example.com\",\"monitor_type\":\"tcp\","
	        "\"port\":\"5432\",\"request_timeout\":9223372036854775806}},"
	        "{\"id\":\"2\",\"type\":\"monitor\",\"attributes\":{\"url\":\"db.example.com\",\"monitor_type\":\"tcp\","
	        "\"port\":\"5432\",\"request_timeout\":-2000}},"
	        "{\"id\":\"3\",\"type\":\"monitor\",\"attributes\":{\"url\":\"db.example.com\",\"monitor_type\":\"tcp\","
	        "\"port\":\"5432\",\"request_timeout\":2.5e3}}],"
	        "\"pagination\":{\"next\":null}}",
	        &p, &e),
	    PROV_OK);
	assert_true(nnull(page_find(&p, "monitor", "1"), "timeout"));
	assert_true(nnull(page_find(&p, "monitor", "2"), "timeout"));
	assert_int_equal(nint(page_find(&p, "monitor", "3"), "timeout"), 3); /* 2500 ms, rounded up */
	prov_page_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_monitor_fields),
		cmocka_unit_test(test_monitor_numbers_out_of_range),
		cmocka_unit_test(test_heartbeats),
		cmocka_unit_test(test_status_pages_parse),
		cmocka_unit_test(test_errors_and_refused_kinds),
		cmocka_unit_test(test_fetch_monitor_links),
		cmocka_unit_test(test_fetch_heartbeats_nobody_on_call),
		cmocka_unit_test(test_fetch_team_refused),
		cmocka_unit_test(test_fetch_contacts),
		cmocka_unit_test(test_fetch_contacts_refused),
		cmocka_unit_test(test_fetch_status_page_entries),
		cmocka_unit_test(test_fetch_bad_key_and_transient_context),
		cmocka_unit_test(test_fetch_request),
	};

	return PROVTEST_RUN(tests);
}
