/* Unit tests of the Pingdom adapter (src/providers/pingdom.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/pingdom/, each citing the published
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
test_pingdom_checks(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(pingdom_parse, NULL, 200, "pingdom/checks.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.next_cursor, "checks:3");
	it = page_find(&p, "monitor", "85975");
	assert_string_equal(nstr(it, "name"), "My check 1");
	assert_string_equal(nstr(it, "url"), "example.com");
	assert_string_equal(nstr(it, "type"), "http");
	assert_int_equal(nint(it, "interval"), 60);         /* resolution 1 minute */
	assert_false(nbool(it, "paused"));
	it = page_find(&p, "monitor", "161748");
	assert_string_equal(nstr(it, "type"), "tcp");
	assert_int_equal(nint(it, "interval"), 300);        /* "resolution":"5" */
	assert_true(nbool(it, "paused"));
	it = page_find(&p, "monitor", "208655");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "unknown type transaction"));
	prov_page_free(&p);

	assert_int_equal(run_parse(pingdom_parse, "checks:1000", 200, "pingdom/checks_last.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "contacts:0");
	assert_string_equal(nstr(page_find(&p, "monitor", "900001"), "type"), "ping");
	prov_page_free(&p);
}

static void
test_pingdom_contacts(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(pingdom_parse, "contacts:0", 200, "pingdom/contacts.json", &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	it = page_find(&p, "contact", "1:email:0");
	assert_string_equal(nstr(it, "type"), "email");
	assert_string_equal(nstr(it, "name"), "John Doe");
	assert_string_equal(nstr(it, "value"), "johndoe@teamrocket.com");
	it = page_find(&p, "contact", "1:sms:0");
	assert_string_equal(nstr(it, "type"), "sms");
	assert_string_equal(nstr(it, "value"), "111111111");       /* country code "00": none */
	it = page_find(&p, "contact", "1:sms:1");
	assert_string_equal(nstr(it, "value"), "+46700000000");
	it = page_find(&p, "contact", "2");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(nnull(it, "value"));
	it = page_find(&p, "contact", "3:carrier_pigeon:0");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "unknown kind carrier_pigeon"));
	assert_int_equal(p.n, 5);
	prov_page_free(&p);
}

static void
test_pingdom_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;

	(void)state;
	assert_int_equal(run_parse(pingdom_parse, NULL, 401, "pingdom/unauthorized.json", &p, &e), PROV_AUTH);
	assert_string_equal(e.message, "Pingdom rejected the API token (Invalid token)");
	prov_page_free(&p);

	memset(&p, 0, sizeof p);
	resp_fixture(&r, 429, "pingdom/rate_limited.json");
	httpc_resp_set_header(&r, "Req-Limit-Short", "Remaining: 0 Time until reset: 42");
	httpc_resp_set_header(&r, "Req-Limit-Long", "Remaining: 3000 Time until reset: 3000");
	assert_int_equal(pingdom_parse("checks:0", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 42);
	httpc_resp_free(&r);
	prov_page_free(&p);

	assert_int_equal(run_parse_text(pingdom_parse, NULL, 200, "{\"checks\":[{\"id\":1,", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
}

/* -------------------------------------------------------------- StatusCake */

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pingdom_checks),
		cmocka_unit_test(test_pingdom_contacts),
		cmocka_unit_test(test_pingdom_errors),
	};

	return PROVTEST_RUN(tests);
}
