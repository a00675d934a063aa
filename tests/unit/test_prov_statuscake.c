/* Unit tests of the StatusCake adapter (src/providers/statuscake.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/statuscake/, each citing the published
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
test_statuscake_uptime_and_heartbeats(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(statuscake_parse, NULL, 200, "statuscake/uptime_page1.json", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "uptime:2");
	assert_int_equal(p.n, 3);
	it = page_find(&p, "monitor", "1234");
	assert_string_equal(nstr(it, "type"), "http");
	assert_string_equal(nstr(it, "url"), "https://example.com");
	assert_int_equal(nint(it, "interval"), 300);
	assert_string_equal(nids(it, "contact_ids"), "77");
	it = page_find(&p, "monitor", "1235");
	assert_string_equal(nstr(it, "type"), "ping");
	assert_int_equal(nint(it, "interval"), 60);          /* "check_rate":"60" */
	assert_true(nbool(it, "paused"));
	it = page_find(&p, "monitor", "1236");               /* numeric id */
	assert_string_equal(nstr(it, "type"), "other");
	assert_string_equal(nids(it, "contact_ids"), "77,78");
	assert_true(has_warning(&p, "unknown type GOPHER"));
	prov_page_free(&p);

	assert_int_equal(run_parse(statuscake_parse, "uptime:2", 200, "statuscake/uptime_page2.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "heartbeat:1");
	assert_string_equal(nstr(page_find(&p, "monitor", "2001"), "type"), "http"); /* HEAD */
	prov_page_free(&p);

	assert_int_equal(run_parse(statuscake_parse, "heartbeat:1", 200, "statuscake/heartbeat.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "contact-groups:1");
	it = page_find(&p, "heartbeat", "5001");
	assert_int_equal(nint(it, "interval"), 1800);
	assert_string_equal(nstr(it, "ping_url"), "https://push.statuscake.com/?PK=abc&TestID=5001&time=0");
	assert_string_equal(nids(it, "contact_ids"), "77");
	prov_page_free(&p);

	assert_int_equal(run_parse(statuscake_parse, "uptime:1", 200, "statuscake/empty.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "heartbeat:1");
	prov_page_free(&p);
}

static void
test_statuscake_contact_groups(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(statuscake_parse, "contact-groups:1", 200, "statuscake/contact_groups.json",
	    &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	/* The group's id goes to its first address, so monitors' contact_ids resolve. */
	it = page_find(&p, "contact", "77");
	assert_string_equal(nstr(it, "type"), "email");
	assert_string_equal(nstr(it, "name"), "Ops");
	assert_string_equal(nstr(it, "value"), "ops@example.com");
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
test_statuscake_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;

	(void)state;
	assert_int_equal(run_parse(statuscake_parse, NULL, 401, "statuscake/unauthorized.json", &p, &e),
	    PROV_AUTH);
	assert_string_equal(e.message, "StatusCake rejected the API token (Unauthorised)");
	prov_page_free(&p);
	memset(&p, 0, sizeof p);
	resp_text(&r, 429, "{\"message\":\"Too many requests\"}");
	httpc_resp_set_header(&r, "x-ratelimit-limit", "5, 60;w=60, 5;w=1");
	httpc_resp_set_header(&r, "x-ratelimit-remaining", "0");
	httpc_resp_set_header(&r, "x-ratelimit-reset", "7");
	assert_int_equal(statuscake_parse("uptime:3", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 7);
	httpc_resp_free(&r);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(statuscake_parse, NULL, 200, "{\"metadata\":{}}", &p, &e), PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(statuscake_parse, "uptime:0", 200, "{\"data\":[]}", &p, &e), PROV_FATAL);
	prov_page_free(&p);
}

/* ------------------------------------------------------------ Better Stack */

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statuscake_uptime_and_heartbeats),
		cmocka_unit_test(test_statuscake_contact_groups),
		cmocka_unit_test(test_statuscake_errors),
	};

	return PROVTEST_RUN(tests);
}
