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
 * resource_monitor.go `monitor` struct (providers.md §4.2), with numbers as strings, "" and nulls. */
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
	assert_string_equal(nstr(it, "name"), "Shop");
	assert_string_equal(nstr(it, "type"), "keyword");
	assert_string_equal(nstr(it, "url"), "https://shop.example.com:8443/health?deep=1");
	assert_string_equal(nstr(it, "keyword"), "All systems go");
	assert_string_equal(nstr(it, "keyword_up_when"), "present");
	assert_true(nnull(it, "keyword_case_sensitive"));
	assert_string_equal(nstr(it, "http_method"), "POST");
	assert_string_equal(nstr(it, "request_body"), "{\"ping\":1}");
	assert_string_equal(ntext(it, "request_headers"),
	    "{\"X-Env\":\"prod\",\"Accept\":\"application/json\"}");
	assert_int_equal(nint(it, "interval"), 30);
	assert_int_equal(nint(it, "timeout"), 15);
	assert_false(nbool(it, "follow_redirects"));
	assert_true(nbool(it, "verify_ssl"));
	assert_int_equal(nint(it, "ssl_expiry_days"), 14);
	assert_string_equal(nids(it, "regions"), "us,eu");
	assert_true(nnull(it, "port"));
	assert_string_equal(nids(it, "contact_ids"), ""); /* links need the context: fetch tests */
	assert_false(nbool(it, "paused"));
	/* The basic-auth password is not kept in the stored provider copy. */
	json_object_object_get_ex(it->raw, "attributes", &a);
	assert_string_equal(json_object_get_string(json_object_object_get(a, "auth_password")), "[redacted]");
	it = page_find(&p, "maintenance_window", "monitor-2");
	assert_string_equal(nstr(it, "name"), "Shop maintenance");
	assert_string_equal(nstr(it, "recurrence"), "weekly");
	assert_string_equal(nstr(it, "start"), "01:00");
	assert_int_equal(nint(it, "duration"), 150);
	assert_string_equal(ntext(it, "days"), "[6,7]");
	assert_string_equal(nstr(it, "timezone"), "Europe/Amsterdam");
	assert_string_equal(nids(it, "monitor_ids"), "2");

	it = page_find(&p, "monitor", "3");
	assert_string_equal(nstr(it, "type"), "keyword");
	assert_string_equal(nstr(it, "keyword"), "error");
	assert_string_equal(nstr(it, "keyword_up_when"), "absent");
	assert_true(nbool(it, "paused"));
	assert_int_equal(nint(it, "interval"), 60); /* "60" */
	assert_int_equal(nint(it, "timeout"), 30);  /* "30" */
	assert_false(nbool(it, "verify_ssl"));      /* "false" */
	assert_true(nbool(it, "follow_redirects")); /* "1" */
	assert_string_equal(nstr(it, "http_method"), "GET");
	assert_string_equal(nids(it, "regions"), "");
	it = page_find(&p, "maintenance_window", "monitor-3");
	assert_string_equal(nstr(it, "recurrence"), "daily"); /* no days: every day */
	assert_string_equal(nstr(it, "start"), "23:00");
	assert_int_equal(nint(it, "duration"), 180); /* overnight */
	assert_string_equal(nstr(it, "timezone"), "Europe/Prague");

	it = page_find(&p, "monitor", "4");
	assert_string_equal(nstr(it, "type"), "tcp");
	assert_string_equal(nstr(it, "url"), "db.example.com");
	assert_int_equal(nint(it, "port"), 5432);
	assert_int_equal(nint(it, "timeout"), 2); /* 2000 ms */
	assert_true(nnull(it, "keyword"));
	assert_true(nnull(it, "keyword_up_when"));
	assert_true(nnull(it, "follow_redirects"));

	it = page_find(&p, "monitor", "5");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(nnull(it, "http_method"));
	assert_true(has_warning(&p, "unknown type quantum_check; kept as other"));
	assert_true(has_warning(&p, "unknown HTTP method brew"));
	assert_true(has_warning(&p, "without id or attributes"));

	it = page_find(&p, "monitor", "7");
	assert_string_equal(nstr(it, "name"), "mail.example.com");
	assert_string_equal(nstr(it, "type"), "smtp");
	assert_int_equal(nint(it, "port"), 25);
	assert_int_equal(nint(it, "timeout"), 1);    /* 500 ms, rounded up */
	assert_int_equal(nint(it, "interval"), 180); /* "" */
	assert_true(has_warning(&p, "checks ports 25,465,587; only the first (25) was imported"));
	it = page_find(&p, "maintenance_window", "monitor-7");
	assert_string_equal(ntext(it, "days"), "[1]");
	assert_true(nnull(it, "timezone"));
	assert_true(has_warning(&p, "unknown time zone Mars/Olympus"));
	assert_true(has_warning(&p, "unknown maintenance day fun"));

	it = page_find(&p, "monitor", "8");
	assert_string_equal(nstr(it, "type"), "dns");
	assert_string_equal(nstr(it, "request_body"), "example.org");
	assert_int_equal(nint(it, "port"), 53);
	assert_int_equal(nint(it, "timeout"), 5);

	it = page_find(&p, "monitor", "9");
	assert_string_equal(nstr(it, "type"), "http");
	assert_string_equal(nids(it, "expected_status_codes"), "200,204");
	assert_string_equal(nstr(it, "http_method"), "HEAD");
	assert_true(nnull(it, "request_body"));
	assert_string_equal(ntext(it, "request_headers"), "{}");
	assert_true(nnull(it, "keyword_up_when"));
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
	assert_string_equal(nstr(it, "name"), "Cron backup");
	assert_int_equal(nint(it, "interval"), 3600);
	assert_int_equal(nint(it, "grace"), 300); /* "300" */
	assert_false(nbool(it, "paused"));
	assert_string_equal(nstr(it, "ping_url"), "https://uptime.betterstack.com/api/v1/heartbeat/abcd1234");
	it = page_find(&p, "maintenance_window", "heartbeat-12345");
	assert_string_equal(nstr(it, "name"), "Cron backup heartbeat maintenance");
	assert_string_equal(nstr(it, "recurrence"), "daily"); /* all seven days */
	assert_string_equal(ntext(it, "days"), "[]");
	assert_int_equal(nint(it, "duration"), 60);
	assert_string_equal(nstr(it, "timezone"), "Europe/Prague");
	assert_string_equal(nids(it, "monitor_ids"), "");
	assert_string_equal(nids(it, "heartbeat_ids"), "12345"); /* numbered apart from monitors */
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
	assert_string_equal(nstr(it, "name"), "Acme");
	assert_string_equal(nstr(it, "url"), "https://acme.betteruptime.com");
	assert_string_equal(nstr(it, "timezone"), "America/New_York");
	assert_true(nbool(it, "public"));
	it = page_find(&p, "status_page", "124");
	assert_string_equal(nstr(it, "url"), "https://status.acme.example");
	assert_false(nbool(it, "public")); /* password protected */
	assert_true(nnull(it, "timezone"));
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
	assert_int_equal(run_parse(better_stack_parse, "monitors:1", 200, "better_stack/empty.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "heartbeats:1");
	prov_page_free(&p);
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
 * relationships.on_call_users, included[] type on_call_user) + policies (docs escalation policy
 * example; TF resource_policy.go policyStep/policyStepMember). */
static void
test_fetch_monitor_links(void **state)
{
	char *ans[] = { answer_fixture("200 OK", "better_stack/monitors_page1.json"),
		answer_fixture("200 OK", "better_stack/on_calls.json"),
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
	assert_non_null(strstr(seen, "GET /bs/api/v3/policies?page=1&per_page=250 "));
	assert_null(strstr(seen, "evil.example.net"));
	assert_string_equal(f.p.next_cursor, "monitors:2");
	/* No policy: the default calendar's on-call users by each set flag (email, sms, call,
	 * critical_alert = push); Bob has no phone. The Weekend calendar is not the default. */
	it = page_find(&f.p, "monitor", "2");
	assert_string_equal(nids(it, "contact_ids"),
	    "user:2345:email,user:2346:email,user:2345:sms,"
	    "user:2345:voice,user:2345:push,user:2346:push");
	assert_true(
	    has_warning(&f.p, "monitor \"Shop\": on-call user Bob has no phone number for the SMS alert"));
	assert_true(has_warning(&f.p, "Bob has no phone number for the phone call alert"));
	/* A policy: its user members (by id, by e-mail, by id only); others warned about. */
	it = page_find(&f.p, "monitor", "3");
	assert_string_equal(nids(it, "contact_ids"),
	    "user:2345:email,user:email=carol@example.com:email,"
	    "user:7777:email");
	assert_true(has_warning(&f.p,
	    "monitor \"Health\": escalation policy \"Standard\" also notifies 2 "
	    "member(s) that are not users (e.g. current_on_call): not linked"));
	it = page_find(&f.p, "monitor", "4"); /* no flags */
	assert_string_equal(nids(it, "contact_ids"), "");
	assert_null(strstr(f.p.warnings[0], "bs-token-1234"));
	fx_end(&f, ans);
}

/* Nobody on call (on_calls_nobody.json) and a refused policy list (403, forbidden.json). */
static void
test_fetch_heartbeats_nobody_on_call(void **state)
{
	char *ans[] = { answer_fixture("200 OK", "better_stack/heartbeats_last.json"),
		answer_fixture("200 OK", "better_stack/on_calls_nobody.json"),
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
	it = page_find(&f.p, "heartbeat", "12346");
	assert_string_equal(nids(it, "contact_ids"), "");
	assert_true(has_warning(&f.p,
	    "heartbeat \"Nightly import\" alerts escalation policy 456789, but the "
	    "policies could not be read (HTTP 403)"));
	fx_end(&f, ans);
}

/* The contacts step: on-call users (one contact per channel) and policy user members. */
static void
test_fetch_contacts(void **state)
{
	char *ans[] = { answer_fixture("200 OK", "better_stack/on_calls.json"),
		answer_fixture("200 OK", "better_stack/policies.json"), NULL };
	struct fx f;
	const struct prov_item *it;
	const char *seen;

	(void)state;
	fx_start(&f, (const char *const *)ans, "{\"api_token\":\"bs-token-1234\",\"team_name\":\"Ops\"}");
	assert_int_equal(fx_fetch(&f, "contacts:0"), PROV_OK);
	seen = mini_finish(&f.m);
	assert_non_null(strstr(seen, "GET /bs/api/v2/on-calls?page=1&per_page=250&team_name=Ops "));
	assert_string_equal(f.p.next_cursor, "status-pages:1");
	assert_int_equal(page_count(&f.p, "contact"), 8);
	it = page_find(&f.p, "contact", "user:2345:email");
	assert_string_equal(nstr(it, "name"), "Ann Lee");
	assert_string_equal(nstr(it, "type"), "email");
	assert_string_equal(nstr(it, "value"), "ann@example.com");
	assert_false(nbool(it, "needs_address"));
	it = page_find(&f.p, "contact", "user:2345:sms");
	assert_string_equal(nstr(it, "name"), "Ann Lee (SMS)");
	assert_string_equal(nstr(it, "type"), "sms");
	assert_string_equal(nstr(it, "value"), "+420123456789");
	it = page_find(&f.p, "contact", "user:2345:voice");
	assert_string_equal(nstr(it, "type"), "voice");
	assert_string_equal(nstr(it, "value"), "+420123456789");
	it = page_find(&f.p, "contact", "user:2345:push");
	assert_string_equal(nstr(it, "type"), "push");
	assert_string_equal(nstr(it, "value"), "ann@example.com");
	it = page_find(&f.p, "contact", "user:2346:email");
	assert_string_equal(nstr(it, "name"), "Bob");
	page_find(&f.p, "contact", "user:2346:push");
	it = page_find(&f.p, "contact", "user:email=carol@example.com:email");
	assert_string_equal(nstr(it, "value"), "Carol@Example.com");
	it = page_find(&f.p, "contact", "user:7777:email");
	assert_string_equal(nstr(it, "name"), "Better Stack user 7777");
	assert_true(nnull(it, "value"));
	assert_true(nbool(it, "needs_address"));
	fx_end(&f, ans);
}

static void
test_fetch_contacts_refused(void **state)
{
	char *ans[] = { answer_fixture("403 Forbidden", "better_stack/forbidden.json"),
		answer_fixture("401 Unauthorized", "better_stack/unauthorized.json"), NULL };
	struct fx f;

	(void)state;
	fx_start(&f, (const char *const *)ans, TOKEN);
	assert_int_equal(fx_fetch(&f, "contacts:0"), PROV_OK);
	mini_finish(&f.m);
	assert_int_equal(f.p.n, 0);
	assert_true(has_warning(&f.p, "refused the on-call calendars list for this key (HTTP 403)"));
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
		answer_fixture("403 Forbidden", "better_stack/forbidden.json"), NULL };
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
	it = page_find(&f.p, "status_page", "124");
	assert_string_equal(nids(it, "items"), "");
	assert_true(
	    has_warning(&f.p, "refused the sections and resources of status page \"Internal\" (HTTP 403)"));
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
	assert_int_equal(f.p.pause_s, 30); /* quota used up: the runner should wait */
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
		cmocka_unit_test(test_fetch_contacts),
		cmocka_unit_test(test_fetch_contacts_refused),
		cmocka_unit_test(test_fetch_status_page_entries),
		cmocka_unit_test(test_fetch_bad_key_and_transient_context),
		cmocka_unit_test(test_fetch_request),
	};

	return PROVTEST_RUN(tests);
}
