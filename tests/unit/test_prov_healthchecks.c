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

static void
test_healthchecks_checks(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(healthchecks_parse, NULL, 200, "healthchecks/checks.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 5);
	assert_int_equal(page_count(&p, "heartbeat"), 5);
	assert_string_equal(p.next_cursor, "channels:0");
	assert_true(has_warning(&p, "without a usable uuid; skipped"));

	/* A simple check: the period is its timeout. */
	it = page_find(&p, "heartbeat", "31365bce-8b8a-4bd0-9b7a-5c2e2a2d2f10");
	assert_string_equal(nstr(it, "name"), "Filesystem Backup");
	assert_int_equal(nint(it, "interval"), 3600);
	assert_int_equal(nint(it, "grace"), 600);
	assert_false(nbool(it, "paused"));
	assert_string_equal(nstr(it, "ping_url"), "https://hc-ping.com/31365bce-8b8a-4bd0-9b7a-5c2e2a2d2f10");
	assert_true(nnull(it, "schedule"));
	assert_string_equal(nids(it, "contact_ids"),
	    "1bdea468-03e5-4ab4-a0b3-96b2a0c2a8f1,51c6eb2b-5c4d-4f2c-9a5c-7f3e6b7a9d02");
	assert_non_null(json_object_object_get(it->raw, "badge_url"));

	/* A cron check: interval 0 and the schedule; paused from its status;
	 * a time zone other than UTC is warned about. */
	it = page_find(&p, "heartbeat", "5a1f0c1e-4ac2-4f61-8a2f-0c3b8e1d7e22");
	assert_int_equal(nint(it, "interval"), 0);
	assert_string_equal(nstr(it, "schedule"), "0 3 * * *");
	assert_int_equal(nint(it, "grace"), 300);           /* "grace":"300" */
	assert_true(nbool(it, "paused"));                   /* status paused */
	assert_string_equal(nids(it, "contact_ids"), "");   /* "channels":"" */
	assert_true(has_warning(&p, "\"Nightly report\" runs on its schedule in time zone Europe/Riga"));

	/* No name: the slug; a UTC schedule is not warned about. */
	it = page_find(&p, "heartbeat", "7c2d0e9f-1b3a-4c5d-8e6f-9a0b1c2d3e33");
	assert_string_equal(nstr(it, "name"), "queue-worker");
	assert_string_equal(nstr(it, "schedule"), "*/5 * * * *");
	assert_false(nbool(it, "paused"));                  /* status grace */
	assert_false(has_warning(&p, "queue-worker"));

	it = page_find(&p, "heartbeat", "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b44");
	assert_int_equal(nint(it, "interval"), 86400);      /* "timeout":"86400" */

	/* Neither timeout nor schedule: one day, with a warning. */
	it = page_find(&p, "heartbeat", "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a55");
	assert_int_equal(nint(it, "interval"), 86400);
	assert_true(has_warning(&p, "\"Odd\" has neither a period nor a schedule"));
	prov_page_free(&p);

	/* A project without checks goes on to the integrations. */
	assert_int_equal(run_parse(healthchecks_parse, "checks:0", 200, "healthchecks/checks_empty.json", &p,
	    &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "channels:0");
	prov_page_free(&p);
}

static void
test_healthchecks_readonly_key(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(healthchecks_parse, NULL, 200, "healthchecks/checks_readonly.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 1);
	it = page_find(&p, "heartbeat", "a6c7b0a8a66bed0df66abfdab3c77736861703ee");
	assert_string_equal(nstr(it, "name"), "Filesystem Backup");
	assert_true(nnull(it, "ping_url"));
	assert_string_equal(nids(it, "contact_ids"), "");
	/* The integrations cannot be listed with this key: discovery ends here
	 * with a warning rather than failing the whole run. */
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "API key is read-only"));
	prov_page_free(&p);
}

static void
test_healthchecks_channels(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(healthchecks_parse, "channels:0", 200, "healthchecks/channels.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 6);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "integration without a usable id; skipped"));

	it = page_find(&p, "contact", "1bdea468-03e5-4ab4-a0b3-96b2a0c2a8f1");
	assert_string_equal(nstr(it, "name"), "My Work Email");
	assert_string_equal(nstr(it, "type"), "email");
	assert_true(nnull(it, "value"));  /* the API does not show the address */
	assert_string_equal(nstr(page_find(&p, "contact", "51c6eb2b-5c4d-4f2c-9a5c-7f3e6b7a9d02"), "type"),
	    "slack");
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
}

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
	/* A read-only key on the integrations: say what to do. */
	msg = parse_fails(healthchecks_parse, "channels:0", 401, "healthchecks/unauthorized.json", PROV_AUTH);
	assert_non_null(strstr(msg, "use the project's read-write API key"));
	parse_fails(healthchecks_parse, NULL, 200, "healthchecks/truncated.json", PROV_TRANSIENT);
	parse_fails(healthchecks_parse, NULL, 503, "healthchecks/unauthorized.json", PROV_TRANSIENT);
	parse_fails(healthchecks_parse, NULL, 404, "healthchecks/unauthorized.json", PROV_FATAL);
	parse_fails(healthchecks_parse, "checks:x", 200, "healthchecks/checks.json", PROV_FATAL);
	parse_fails(healthchecks_parse, "monitors:0", 200, "healthchecks/checks.json", PROV_FATAL);
	/* An answer without the list (a proxy's page, another API) is not "no checks". */
	assert_int_equal(run_parse_text(healthchecks_parse, NULL, 200, "{\"detail\":\"maintenance\"}", &p, &e),
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

/* ---------------------------------------------------------------- Cronitor */

static void
test_fetch_healthchecks_request(void **state)
{
	const struct provider_def *def = provider_find("healthchecks");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[2] = { answer_fixture("200 OK", "healthchecks/checks.json"), NULL };
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"" HC_KEY "\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	snprintf(base, sizeof base, "http://127.0.0.1:%d/hc", m.port);
	cfg_init(&cfg, "healthchecks", base);
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_false(s.base_url_untrusted); /* the admin's URL */
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /hc/api/v3/checks/ HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "X-Api-Key: " HC_KEY "\r\n"));
	assert_int_equal(p.n, 5);
	assert_string_equal(p.next_cursor, "channels:0");
	prov_page_free(&p);
	free(a[0]);
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
	};

	return PROVTEST_RUN(tests);
}
