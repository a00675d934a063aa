/* Unit tests of the updown adapter (src/providers/updown.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/updown/, each citing the published
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
test_updown_lists(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(updown_parse, NULL, 200, "updown/checks.json", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "recipients:0");
	assert_int_equal(p.n, 5);
	it = page_find(&p, "monitor", "ngg8");
	assert_string_equal(nstr(it, "name"), "https://updown.io");   /* alias "" */
	assert_string_equal(nstr(it, "type"), "http");                /* string_match "" */
	assert_int_equal(nint(it, "interval"), 15);
	assert_false(nbool(it, "paused"));
	assert_string_equal(nids(it, "contact_ids"), "email:1246848337,sms:231178295");
	it = page_find(&p, "monitor", "dmbe");
	assert_string_equal(nstr(it, "name"), "Shop");
	assert_string_equal(nstr(it, "type"), "keyword");
	assert_string_equal(nstr(it, "keyword"), "Add to cart");
	assert_true(nbool(it, "paused"));                             /* enabled false */
	assert_int_equal(nint(it, "interval"), 60);                   /* "period":"60" */
	it = page_find(&p, "monitor", "tc01");
	assert_string_equal(nstr(it, "type"), "tcp");
	assert_int_equal(nint(it, "port"), 5432);
	assert_string_equal(nstr(page_find(&p, "monitor", "ic01"), "type"), "ping");
	assert_string_equal(nstr(page_find(&p, "monitor", "pu01"), "type"), "other");
	assert_true(has_warning(&p, "kind pulse"));
	prov_page_free(&p);

	assert_int_equal(run_parse(updown_parse, "recipients:0", 200, "updown/recipients.json", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "status_pages:0");
	it = page_find(&p, "contact", "email:3719031852");
	assert_string_equal(nstr(it, "type"), "email");
	assert_string_equal(nstr(it, "value"), "Company <tech@example.com>");
	it = page_find(&p, "contact", "slack:1");
	assert_string_equal(nstr(it, "type"), "slack");
	assert_true(nnull(it, "value"));
	assert_string_equal(nstr(page_find(&p, "contact", "msteams:2"), "type"), "teams");
	assert_string_equal(nstr(page_find(&p, "contact", "carrier:3"), "type"), "other");
	assert_true(has_warning(&p, "unknown type carrier_pigeon"));
	prov_page_free(&p);

	assert_int_equal(run_parse(updown_parse, "status_pages:0", 200, "updown/status_pages.json", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	it = page_find(&p, "status_page", "3ji4k");
	assert_string_equal(nids(it, "items"), "ngg8,dmbe");
	assert_true(nbool(it, "public"));
	assert_string_equal(nstr(it, "url"), "https://updown.io/p/3ji4k");
	assert_false(nbool(page_find(&p, "status_page", "9xk2p"), "public"));
	prov_page_free(&p);
}

static void
test_updown_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse(updown_parse, NULL, 401, "updown/unauthorized.json", &p, &e), PROV_AUTH);
	assert_string_equal(e.message, "updown.io rejected the API key (Invalid API key)");
	prov_page_free(&p);
	assert_int_equal(run_parse(updown_parse, NULL, 200, "updown/unauthorized.json", &p, &e), PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(updown_parse, "checks:0", 200, "[{\"token\":\"a\"", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
}

/* -------------------------------------------- whole fetches against a local server */

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_updown_lists),
		cmocka_unit_test(test_updown_errors),
	};

	return PROVTEST_RUN(tests);
}
