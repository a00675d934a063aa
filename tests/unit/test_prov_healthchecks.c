/* Unit tests of the Healthchecks adapter (src/providers/healthchecks.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/healthchecks/, each citing the published
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
#define HC_KEY "hc-test-key-0123456789abcdefghij" /* 32 characters, like a real key */

/* Checks as a read-write key sees them. Shape: Check.to_dict of
 * healthchecks/healthchecks hc/api/models.py (the first entry is the
 * example of templates/docs/api.md "List existing checks"): "tags"
 * space-separated, "channels" comma-separated UUIDs, "timeout" for simple
 * checks, "schedule" + "tz" for cron and OnCalendar ones.
 * Long because: one parse of the list and each check it makes, checked in turn. */
static void
test_healthchecks_checks(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(healthchecks_parse, NULL, 200, "healthchecks/checks.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 6);
	assert_int_equal(page_count(&p, "heartbeat"), 6);
	assert_string_equal(p.next_cursor, "channels:0");
	assert_true(has_warning(&p, "without a usable uuid; skipped"));
	assert_false(has_warning(&p, "read-only"));

	/* A simple check: the period is its timeout; tags split on spaces. */
	it = page_find(&p, "heartbeat", "31365bce-8b8a-4bd0-9b7a-5c2e2a2d2f10");
	EXPECT_NORM(it, X_STR("name", "Filesystem Backup"), X_INT("interval", 3600), X_INT("grace", 600),
	    X_FALSE("paused"), X_STR("ping_url", "https://hc-ping.com/31365bce-8b8a-4bd0-9b7a-5c2e2a2d2f10"),
	    X_NULL("schedule"), X_NULL("timezone"), X_IDS("tags", "backup,fs"));
	assert_string_equal(nids(it, "contact_ids"),
	    "1bdea468-03e5-4ab4-a0b3-96b2a0c2a8f1,51c6eb2b-5c4d-4f2c-9a5c-7f3e6b7a9d02");
	assert_non_null(json_object_object_get(it->raw, "badge_url"));

	/* A cron check: interval 0, the schedule with its time zone; paused. */
	it = page_find(&p, "heartbeat", "5a1f0c1e-4ac2-4f61-8a2f-0c3b8e1d7e22");
	EXPECT_NORM(it, X_INT("interval", 0), X_STR("schedule", "0 3 * * *"),
	    X_STR("timezone", "Europe/Riga"), X_INT("grace", 300), /* "grace":"300" */
	    X_TRUE("paused"),                                      /* status paused */
	    X_IDS("contact_ids", ""),                              /* "channels":"" */
	    X_IDS("tags", ""));                                    /* "tags":"" */
	assert_false(has_warning(&p, "time zone"));

	/* No name: the slug; status grace and started are not paused. */
	it = page_find(&p, "heartbeat", "7c2d0e9f-1b3a-4c5d-8e6f-9a0b1c2d3e33");
	EXPECT_NORM(it, X_STR("name", "queue-worker"), X_STR("schedule", "*/5 * * * *"),
	    X_STR("timezone", "UTC"), X_FALSE("paused"));

	it = page_find(&p, "heartbeat", "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b44");
	assert_int_equal(nint(it, "interval"), 86400);    /* "timeout":"86400" */
	assert_string_equal(nids(it, "tags"), "ssl,ops"); /* " ssl  ops " */

	/* Neither timeout nor schedule: one day, with a warning. */
	it = page_find(&p, "heartbeat", "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a55");
	assert_int_equal(nint(it, "interval"), 86400);
	assert_true(has_warning(&p, "\"Odd\" has neither a period nor a schedule"));

	/* OnCalendar schedule kept as written; blanks around channel ids;
	 * an unknown status is warned about. */
	it = page_find(&p, "heartbeat", "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a66");
	assert_string_equal(nstr(it, "schedule"), "Mon..Fri *-*-* 09:00:00");
	assert_string_equal(nstr(it, "timezone"), "America/New_York");
	assert_string_equal(nids(it, "contact_ids"),
	    "1bdea468-03e5-4ab4-a0b3-96b2a0c2a8f1,51c6eb2b-5c4d-4f2c-9a5c-7f3e6b7a9d02");
	assert_false(nbool(it, "paused"));
	assert_true(has_warning(&p, "\"Weekday report\" has an unknown status sleeping"));
	prov_page_free(&p);

	/* A project without checks goes on to the integrations. */
	assert_int_equal(run_parse(healthchecks_parse, "checks:0", 200, "healthchecks/checks_empty.json", &p,
	                     &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "channels:0");
	prov_page_free(&p);
}

/* A read-only key (to_dict(readonly=True)): unique_key instead of uuid, no
 * ping_url and no channels. The integrations phase still runs; its 401 is
 * then skipped (test_healthchecks_errors). */
static void
test_healthchecks_readonly_key(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(healthchecks_parse, NULL, 200, "healthchecks/checks_readonly.json", &p,
	                     &e),
	    PROV_OK);
	assert_int_equal(p.n, 1);
	it = page_find(&p, "heartbeat", "a6c7b0a8a66bed0df66abfdab3c77736861703ee");
	EXPECT_NORM(it, X_STR("name", "Filesystem Backup"), X_NULL("ping_url"), X_IDS("contact_ids", ""),
	    X_IDS("tags", "backup,fs"));
	/* what the key is not shown: a re-import keeps the account's */
	assert_string_equal(json_object_to_json_string_ext(json_object_object_get(it->norm, "unread"),
	                        JSON_C_TO_STRING_PLAIN),
	    "{\"keys\":[\"ping_url\",\"contact_ids\"],\"why\":\"the API key is read-only: Healthchecks "
	    "shows it no ping URLs nor integrations\"}");
	assert_string_equal(p.next_cursor, "channels:0");
	assert_true(has_warning(&p,
	    "API key is read-only: the checks were imported without their ping URLs "
	    "and their integrations"));
	prov_page_free(&p);
}

/* Integrations: Channel.to_dict of hc/api/models.py ({"id","name","kind"}
 * only); kinds from CHANNEL_KINDS there. */
static void
test_healthchecks_channels(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(healthchecks_parse, "channels:0", 200, "healthchecks/channels.json", &p,
	                     &e),
	    PROV_OK);
	assert_int_equal(p.n, 6);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "integration without a usable id; skipped"));
	assert_true(has_warning(&p,
	    "never shows where an integration sends: 6 contacts were imported by name "
	    "and kind only"));

	it = page_find(&p, "contact", "1bdea468-03e5-4ab4-a0b3-96b2a0c2a8f1");
	EXPECT_NORM(it, X_STR("name", "My Work Email"), X_STR("type", "email"),
	    X_NULL("value"), /* the API does not show the address */
	    X_TRUE("needs_address"));
	it = page_find(&p, "contact", "51c6eb2b-5c4d-4f2c-9a5c-7f3e6b7a9d02");
	assert_string_equal(nstr(it, "type"), "slack");
	assert_true(nbool(it, "needs_address"));
	it = page_find(&p, "contact", "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c03");
	assert_string_equal(nstr(it, "type"), "pagerduty");
	assert_string_equal(nstr(it, "name"), "PagerDuty"); /* "name":"" */
	assert_string_equal(nstr(page_find(&p, "contact", "7b8c9d0e-1f2a-4b3c-9d4e-5f6a7b8c9d04"), "type"),
	    "pushover");
	/* Known without equivalent, and unknown: other, each with a warning. */
	assert_string_equal(nstr(page_find(&p, "contact", "8c9d0e1f-2a3b-4c4d-8e5f-6a7b8c9d0e05"), "type"),
	    "other");
	assert_true(has_warning(&p, "\"Dev chat\" is a Zulip integration, which has no equivalent"));
	assert_string_equal(nstr(page_find(&p, "contact", "9d0e1f2a-3b4c-4d5e-9f6a-7b8c9d0e1f06"), "type"),
	    "other");
	assert_true(has_warning(&p, "\"Future thing\" has an unknown kind hologram; kept as other"));
	prov_page_free(&p);

	/* No integrations: no address warning. */
	assert_int_equal(run_parse_text(healthchecks_parse, "channels:0", 200, "{\"channels\":[]}", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_int_equal(p.nwarnings, 0);
	prov_page_free(&p);
}

/* Error bodies: hc/api/decorators.py ({"error":"missing api key"},
 * {"error":"wrong api key"}). */
static void
test_healthchecks_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	const char *msg;

	(void)state;
	msg = parse_fails(healthchecks_parse, NULL, 401, "healthchecks/unauthorized.json", PROV_AUTH);
	assert_string_equal(msg, "Healthchecks rejected the API key (wrong api key)");
	msg = parse_fails(healthchecks_parse, NULL, 401, "healthchecks/missing_key.json", PROV_AUTH);
	assert_string_equal(msg, "Healthchecks rejected the API key (missing api key)");
	/* The integrations refused after the checks: skipped, the run goes on. */
	assert_int_equal(run_parse(healthchecks_parse, "channels:0", 401, "healthchecks/unauthorized.json",
	                     &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p,
	    "Healthchecks refused the integrations list for this key (HTTP 401): "
	    "integrations skipped"));
	assert_true(has_warning(&p, "use the project's read-write API key"));
	prov_page_free(&p);
	assert_int_equal(run_parse(healthchecks_parse, "channels:0", 403, "healthchecks/unauthorized.json",
	                     &p, &e),
	    PROV_OK);
	prov_page_free(&p);
	parse_fails(healthchecks_parse, NULL, 200, "healthchecks/truncated.json", PROV_TRANSIENT);
	parse_fails(healthchecks_parse, NULL, 503, "healthchecks/unauthorized.json", PROV_TRANSIENT);
	parse_fails(healthchecks_parse, "channels:0", 503, "healthchecks/unauthorized.json", PROV_TRANSIENT);
	parse_fails(healthchecks_parse, NULL, 404, "healthchecks/unauthorized.json", PROV_FATAL);
	parse_fails(healthchecks_parse, NULL, 301, "healthchecks/unauthorized.json", PROV_FATAL);
	parse_fails(healthchecks_parse, "checks:x", 200, "healthchecks/checks.json", PROV_FATAL);
	parse_fails(healthchecks_parse, "monitors:0", 200, "healthchecks/checks.json", PROV_FATAL);
	/* An answer without the list (a proxy's page, another API) is not "no checks". */
	assert_int_equal(run_parse_text(healthchecks_parse, NULL, 200, "{\"detail\":\"maintenance\"}", &p,
	                     &e),
	    PROV_TRANSIENT);
	assert_non_null(strstr(e.message, "without a \"checks\" list: maintenance"));
	prov_page_free(&p);

	resp_text(&r, 429, "{\"error\":\"rate limited\"}");
	httpc_resp_set_header(&r, "Retry-After", "30");
	memset(&p, 0, sizeof p);
	assert_int_equal(healthchecks_parse(NULL, &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 30);
	httpc_resp_free(&r);
	prov_page_free(&p);
}

/* -------------------------------------------- whole fetches against a local server */

static void
test_fetch_healthchecks_request(void **state)
{
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	const char *seen;

	(void)state;
	assert_int_equal(fetch_served("healthchecks", "/hc", "{\"api_key\":\"" HC_KEY "\"}", NULL,
	                     (char *[]){ answer_fixture("200 OK", "healthchecks/checks.json"), NULL }, &p, &e,
	                     &seen),
	    PROV_OK);
	assert_non_null(strstr(seen, "GET /hc/api/v3/checks/ HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "X-Api-Key: " HC_KEY "\r\n"));
	assert_int_equal(p.n, 6);
	assert_string_equal(p.next_cursor, "channels:0");
	prov_page_free(&p);
}

/* A self-hosted instance that moved (a path redirect, as a proxy or
 * Django's APPEND_SLASH answers): the 301 is followed on the same host with
 * the key, and the checks arrive. */
static void
test_fetch_healthchecks_redirect(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[3] = { answer("301 Moved Permanently", "Location: /new/api/v3/checks/\r\n", ""),
		answer_fixture("200 OK", "healthchecks/checks.json"), NULL };
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"" HC_KEY "\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("healthchecks", "/hc", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(s.def->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /hc/api/v3/checks/ HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /new/api/v3/checks/ HTTP/1.1\r\n"));
	assert_non_null(strstr(strstr(seen, "GET /new/"), "X-Api-Key: " HC_KEY "\r\n"));
	assert_int_equal(p.n, 6);
	prov_page_free(&p);
	for (size_t i = 0; a[i] != NULL; i++)
		free(a[i]);
	json_object_put(creds);
}

/* A read-only key end to end: checks without links, then the 401 on the
 * integrations is a skipped kind, not a failed run. */
static void
test_fetch_healthchecks_readonly(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[3] = { answer_fixture("200 OK", "healthchecks/checks_readonly.json"),
		answer_fixture("401 Unauthorized", "healthchecks/unauthorized.json"), NULL };
	json_object *creds = json_tokener_parse("{\"api_key\":\"" HC_KEY "\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("healthchecks", "/hc", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(s.def->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "channels:0");
	prov_page_free(&p);
	assert_int_equal(s.def->ops->fetch(&s, "channels:0", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "integrations skipped"));
	assert_non_null(strstr(mini_finish(&m), "GET /hc/api/v3/channels/ HTTP/1.1\r\n"));
	prov_page_free(&p);
	for (size_t i = 0; a[i] != NULL; i++)
		free(a[i]);
	json_object_put(creds);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthchecks_checks),
		cmocka_unit_test(test_healthchecks_readonly_key),
		cmocka_unit_test(test_healthchecks_channels),
		cmocka_unit_test(test_healthchecks_errors),
		cmocka_unit_test(test_fetch_healthchecks_request),
		cmocka_unit_test(test_fetch_healthchecks_redirect),
		cmocka_unit_test(test_fetch_healthchecks_readonly),
	};

	return PROVTEST_RUN(tests);
}
