/* Unit tests of the WHMCS adapter (src/providers/whmcs.c): its parse function on
 * recorded-shape fixtures and whole fetches (the list plus the calls each page
 * makes for it) against a local server of canned answers.
 *
 * Fixtures (tests/unit/fixtures/whmcs/) are the example answers of the WHMCS
 * API reference, developers.whmcs.com/api-reference/<action>/ (kept as
 * api-reference/<action>.md in the WHMCS/developer-docs repository), nested as
 * responsetype=json sends them (providers.md §9), with more entries where a
 * case needs them. Each use below names its source. */
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

#define FORBIDDEN(action) \
	"{\"result\":\"error\",\"message\":\"Invalid Permissions: API action \\\"" action \
	"\\\" is not allowed\"}"

/* ------------------------------------------------------ list answers (pure) */

static void
test_whmcs_clients(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* source: docs GetClients example + providers.md §9.2 (ids as int and string) */
	assert_int_equal(run_parse(whmcs_parse, NULL, 200, "whmcs/clients.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "clients:2"); /* limitstart += numreturned */
	it = page_find(&p, "hosting_client", "2");
	EXPECT_NORM(it, X_STR("email", "price.ima@example.com"), X_STR("first_name", "Angelica"),
	    X_STR("last_name", "Mohr"), X_NULL("company"), /* "" */
	    X_STR("status", "active"), X_STR("created", "2016-01-15"),
	    X_NULL("address1"));                   /* the list has no address: the fetch adds it */
	it = page_find(&p, "hosting_client", "3"); /* "id":"3" */
	EXPECT_NORM(it, X_STR("company", "Tran Hosting Ltd"), X_NULL("created"), /* "0000-00-00" */
	    X_STR("status", "other"));
	assert_true(
	    has_warning(&p, "client \"bo@example.net\" has an unknown status Archived; kept as other"));
	prov_page_free(&p);

	/* source: docs GetClients, counters as strings; 2 + 1 >= 3: the next list. */
	assert_int_equal(run_parse(whmcs_parse, "clients:2", 200, "whmcs/clients_last.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(nstr(page_find(&p, "hosting_client", "7"), "status"), "closed");
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);

	/* One client, not wrapped in a list. */
	assert_int_equal(run_parse(whmcs_parse, NULL, 200, "whmcs/clients_single.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(nstr(page_find(&p, "hosting_client", "9"), "status"), "inactive");
	assert_string_equal(nstr(page_find(&p, "hosting_client", "9"), "created"), "2020-02-29");
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);

	/* Dates by the one parser (§9.2 "Y-m-d", "Y-m-d H:i:s", "0000-00-00"):
	 * a date that is not one is no date, never text a DATE column refuses */
	assert_int_equal(
	    run_parse_text(whmcs_parse, NULL, 200,
	        "{\"result\":\"success\",\"totalresults\":4,\"startnumber\":0,\"numreturned\":4,"
	        "\"clients\":{\"client\":["
	        "{\"id\":21,\"email\":\"a@example.com\",\"datecreated\":\"2016-13-45\",\"status\":\"Active\"},"
	        "{\"id\":22,\"email\":\"b@example.com\",\"datecreated\":\"2023-02-29 10:00:00\",\"status\":\"Active\"},"
	        "{\"id\":23,\"email\":\"c@example.com\",\"datecreated\":\"2024-02-29 23:59:59\",\"status\":\"Active\"},"
	        "{\"id\":24,\"email\":\"d@example.com\",\"datecreated\":\"2024-02-28 junk\",\"status\":\"Active\"}]}}",
	        &p, &e),
	    PROV_OK);
	assert_true(nnull(page_find(&p, "hosting_client", "21"), "created"));
	assert_true(nnull(page_find(&p, "hosting_client", "22"), "created"));
	assert_string_equal(nstr(page_find(&p, "hosting_client", "23"), "created"), "2024-02-29");
	assert_true(nnull(page_find(&p, "hosting_client", "24"), "created"));
	prov_page_free(&p);

	/* source: providers.md §9.2 "Empty results": GetClients leaves the key out. */
	EXPECT_EMPTY_PAGE(whmcs_parse, NULL, "whmcs/clients_empty.json", "contacts:0");

	/* The refused-details variant pages on, then goes to the contacts. */
	assert_int_equal(run_parse(whmcs_parse, "clients-plain:0", 200, "whmcs/clients.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "clients-plain:2");
	prov_page_free(&p);
}

static void
test_whmcs_contacts(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* source: docs GetContacts example (strings, password hash, e-mail flags) + a second
	 * contact with numbers as numbers and non-ASCII text */
	assert_int_equal(run_parse(whmcs_parse, "contacts:0", 200, "whmcs/contacts.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "contacts:2");
	expect_imported("whmcs", &p); /* the run's stats list the kind from the start (found by fuzz_fetch) */
	it = page_find(&p, "hosting_contact", "1");
	EXPECT_NORM(it, X_STR("client_id", "1"), X_STR("first_name", "Test"), X_STR("last_name", "Contact"),
	    X_NULL("company"), X_STR("email", "contact@example.com"), X_NULL("phone"),
	    X_STR("address1", "404 Street Not Found"), X_NULL("address2"), X_STR("city", "Test"),
	    X_STR("state", "Tester"), X_STR("postcode", "TE5 5ST"), X_STR("country", "GB"));
	/* the password hash is not kept, even in the raw copy */
	assert_null(json_object_object_get(it->raw, "password"));
	assert_non_null(json_object_object_get(it->raw, "invoiceemails"));
	it = page_find(&p, "hosting_contact", "2");
	assert_string_equal(nstr(it, "client_id"), "2");
	assert_string_equal(nstr(it, "first_name"), "Zo\xc3\xab"); /* UTF-8 kept whole */
	assert_string_equal(nstr(it, "last_name"),
	    "\xc3\x98"
	    "degaard");
	EXPECT_NORM(it, X_STR("company", "Nordlys AS"), X_STR("phone", "+47 22 00 00 00"),
	    X_STR("address2", "3. etasje"), X_NULL("state"));
	prov_page_free(&p);

	/* No contacts: the key is missing; the services come next. */
	assert_int_equal(run_parse_text(whmcs_parse, "contacts:0", 200,
	                     "{\"result\":\"success\","
	                     "\"totalresults\":\"0\",\"startnumber\":\"0\",\"numreturned\":\"0\"}",
	                     &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "services:0");
	prov_page_free(&p);
}

static void
test_whmcs_services_and_domains(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* source: docs GetClientsProducts example (products.product[]) + a third entry without id */
	assert_int_equal(run_parse(whmcs_parse, "services:0", 200, "whmcs/products.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_true(has_warning(&p, "entry of products without a usable id; skipped"));
	assert_string_equal(p.next_cursor, "addons:0");
	it = page_find(&p, "hosting_service", "101");
	EXPECT_NORM(it, X_STR("client_id", "2"), X_STR("product", "Shared Hosting Plan 1"),
	    X_STR("domain", "svc1.client1.example.com"), X_STR("status", "active"),
	    X_STR("billing_cycle", "monthly"), X_STR("amount", "12.95"), X_STR("first_amount", "12.95"),
	    X_STR("next_due", "2024-02-18"), X_STR("registered", "2023-01-18"),
	    X_NULL("currency")); /* the fetch adds the client's */
	it = page_find(&p, "hosting_service", "102");
	EXPECT_NORM(it, X_NULL("domain"), X_STR("status", "suspended"), X_STR("billing_cycle", "free"),
	    X_STR("amount", "129.50"), X_NULL("next_due")); /* "0000-00-00" */
	prov_page_free(&p);

	/* source: providers.md §9.2 "Empty results": "products":"" */
	EXPECT_EMPTY_PAGE(whmcs_parse, "services:0", "whmcs/products_empty.json", "addons:0");

	/* The addons phase walks the same list; its items come from GetClientsAddons. */
	EXPECT_EMPTY_PAGE(whmcs_parse, "addons:0", "whmcs/products.json", "domains:0");

	/* source: docs GetClientsDomains example (all strings) + a domain without client */
	assert_int_equal(run_parse(whmcs_parse, "domains:0", 200, "whmcs/domains.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "invoices:0");
	it = page_find(&p, "hosting_domain", "201");
	EXPECT_NORM(it, X_STR("client_id", "2"), X_STR("domain", "example-shop.com"),
	    X_STR("registrar", "enom"), X_STR("status", "active"), X_STR("expiry", "2024-05-01"),
	    X_STR("next_due", "2024-04-17"), X_STR("registered", "2023-05-01"), X_STR("amount", "12.95"),
	    X_INT("period", 1), X_TRUE("auto_renew")); /* donotrenew "0" */
	it = page_find(&p, "hosting_domain", "202");
	EXPECT_NORM(it, X_NULL("client_id"),        /* "userid":"0" */
	    X_NULL("registrar"), X_NULL("amount"),  /* "abc" */
	    X_NULL("period"), X_NULL("auto_renew"), /* not sent */
	    X_STR("status", "transferred_away"));
	prov_page_free(&p);

	/* source: providers.md §9.2 "Empty results": "domains":"" */
	EXPECT_EMPTY_PAGE(whmcs_parse, "domains:0", "whmcs/domains_empty.json", "invoices:0");
}

static void
test_whmcs_invoices(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* source: docs GetInvoices example (currencycode, currencyprefix, currencysuffix) */
	assert_int_equal(run_parse(whmcs_parse, "invoices:100", 200, "whmcs/invoices.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	/* Only 2 came although 25 were asked for (a capped limitnum): go on
	 * from 102, never from 125. */
	assert_string_equal(p.next_cursor, "invoices:102");
	it = page_find(&p, "invoice", "301");
	EXPECT_NORM(it, X_STR("client_id", "2"), X_STR("number", "INV-2024-0301"),
	    X_STR("date", "2024-01-01"), X_STR("due", "2024-01-15"), X_STR("paid_at", "2024-01-03"),
	    X_STR("total", "12.95"), X_STR("subtotal", "12.95"), X_STR("tax", "0.00"),
	    X_STR("payment_method", "paypal"), X_STR("currency", "USD"), X_STR("status", "paid"));
	assert_int_equal(nids_len(it, "lines"), 0); /* GetInvoice adds them */
	it = page_find(&p, "invoice", "302");
	EXPECT_NORM(it, X_STR("number", "302"), /* no invoicenum: the id */
	    X_NULL("paid_at"),                  /* "0000-00-00 00:00:00" */
	    X_STR("total", "129.5"),            /* a JSON number, as written */
	    X_STR("currency", "EUR"), X_STR("status", "payment_pending"));
	prov_page_free(&p);

	/* source: providers.md §9.2 "Empty results": "invoices":[] */
	EXPECT_EMPTY_PAGE(whmcs_parse, "invoices:0", "whmcs/invoices_empty.json", "payments:0");

	/* numreturned > 0 with nothing in the list: stop, do not loop. */
	assert_int_equal(run_parse_text(whmcs_parse, "invoices:0", 200,
	                     "{\"result\":\"success\","
	                     "\"totalresults\":\"500\",\"numreturned\":\"25\",\"invoices\":{\"invoice\":[]}}",
	                     &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "payments:0");
	prov_page_free(&p);

	/* A currency code that is not ISO 4217 is left empty, with a warning. */
	assert_int_equal(
	    run_parse_text(whmcs_parse, "invoices:0", 200,
	        "{\"result\":\"success\","
	        "\"totalresults\":1,\"numreturned\":1,\"invoices\":{\"invoice\":[{\"id\":\"5\",\"userid\":\"2\","
	        "\"total\":\"1.00\",\"status\":\"Paid\",\"currencycode\":\"US$\"}]}}",
	        &p, &e),
	    PROV_OK);
	assert_true(nnull(page_find(&p, "invoice", "5"), "currency"));
	assert_true(has_warning(&p, "invoice 5: currency code \"US$\" is not an ISO 4217 code; left empty"));
	prov_page_free(&p);

	/* The payments walk the clients; after them discovery ends. */
	EXPECT_EMPTY_PAGE(whmcs_parse, "payments:2", "whmcs/clients_last.json", NULL);
}

static void
test_whmcs_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	const char *msg;

	(void)state;
	/* source: providers.md §9.3, the bad-key answers (HTTP 403) */
	msg = parse_fails(whmcs_parse, NULL, 403, "whmcs/auth_failed.json", PROV_AUTH);
	assert_string_equal(msg, "WHMCS rejected the API credentials (Authentication Failed)");
	/* The same error sent with HTTP 200 by some installations. */
	msg = parse_fails(whmcs_parse, NULL, 200, "whmcs/auth_failed.json", PROV_AUTH);
	assert_string_equal(msg, "WHMCS rejected the API credentials (Authentication Failed)");
	msg = parse_fails(whmcs_parse, NULL, 403, "whmcs/invalid_ip.json", PROV_AUTH);
	assert_non_null(strstr(msg, "refused this server's address (Invalid IP 203.0.113.9)"));
	assert_non_null(strstr(msg, "access_key"));
	/* The first call refused for lack of permission is a bad key too. */
	assert_int_equal(run_parse_text(whmcs_parse, NULL, 403, FORBIDDEN("getclients"), &p, &e), PROV_AUTH);
	assert_non_null(strstr(e.message, "does not allow these API credentials to call GetClients"));
	prov_page_free(&p);
	/* A bad key on a later call (credentials revoked mid-run) still fails the run. */
	msg = parse_fails(whmcs_parse, "domains:0", 403, "whmcs/auth_failed.json", PROV_AUTH);
	assert_string_equal(msg, "WHMCS rejected the API credentials (Authentication Failed)");
	msg = parse_fails(whmcs_parse, NULL, 200, "whmcs/command_not_found.json", PROV_FATAL);
	assert_string_equal(msg, "WHMCS answered GetClients with an error: Command Not Found");
	parse_fails(whmcs_parse, NULL, 200, "whmcs/truncated.json", PROV_TRANSIENT);
	parse_fails(whmcs_parse, NULL, 503, "whmcs/rate_limited.html", PROV_TRANSIENT);
	parse_fails(whmcs_parse, NULL, 404, "whmcs/rate_limited.html", PROV_FATAL);
	parse_fails(whmcs_parse, "products:0", 200, "whmcs/products.json", PROV_FATAL);
	assert_int_equal(run_parse_text(whmcs_parse, NULL, 200, "{\"result\":\"success\",\"clients\":5}", &p,
	                     &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(whmcs_parse, NULL, 200, "{\"clients\":{\"client\":[]}}", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	/* A 403 without a body still says what happened. */
	assert_int_equal(run_parse_text(whmcs_parse, NULL, 403, "", &p, &e), PROV_AUTH);
	assert_string_equal(e.message, "WHMCS rejected the API credentials (HTTP 403, no details)");
	prov_page_free(&p);

	/* A web firewall's HTML 429 in front of WHMCS. */
	resp_fixture(&r, 429, "whmcs/rate_limited.html");
	httpc_resp_set_header(&r, "Retry-After", "60");
	memset(&p, 0, sizeof p);
	assert_int_equal(whmcs_parse("domains:200", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 60);
	httpc_resp_free(&r);
	prov_page_free(&p);
}

static void
test_whmcs_refused_lists(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	/* source: providers.md §9.3 "Invalid Permissions: API action "x" is not allowed" (403):
	 * after the first call, a refused kind: a warning and the next phase. */
	assert_int_equal(run_parse(whmcs_parse, "invoices:0", 403, "whmcs/invalid_permissions.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_true(
	    has_warning(&p, "WHMCS refused the invoices list for this key (HTTP 403): invoices skipped"));
	assert_string_equal(p.next_cursor, "payments:0");
	prov_page_free(&p);
	/* Some installations send it with HTTP 200. */
	assert_int_equal(run_parse(whmcs_parse, "contacts:25", 200, "whmcs/forbidden_contacts.json", &p, &e),
	    PROV_OK);
	assert_true(has_warning(&p, "refused the client contacts list for this key (HTTP 200)"));
	assert_string_equal(p.next_cursor, "services:0");
	prov_page_free(&p);
	/* A 403 without a known text (a firewall) on a later list: skipped too. */
	assert_int_equal(run_parse_text(whmcs_parse, "services:100", 403, "", &p, &e), PROV_OK);
	assert_true(has_warning(&p, "refused the services list for this key (HTTP 403): services skipped"));
	assert_string_equal(p.next_cursor, "addons:0");
	prov_page_free(&p);
	assert_int_equal(run_parse_text(whmcs_parse, "addons:0", 403, FORBIDDEN("getclientsproducts"), &p,
	                     &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "domains:0");
	prov_page_free(&p);
	/* The last phase refused: discovery ends. */
	assert_int_equal(run_parse_text(whmcs_parse, "payments:0", 403, FORBIDDEN("getclients"), &p, &e),
	    PROV_OK);
	assert_true(has_warning(&p, "transactions skipped"));
	assert_null(p.next_cursor);
	prov_page_free(&p);
}

/* ------------------------------------------- whole fetches against a local server */

struct run {
	struct prov_page p;
	struct prov_error e;
	enum prov_status st;
	char seen[65536];
	int port;
};

/* One fetch at cursor against a local server serving the answers (each
 * "<status line>|<fixture>" or "<status line>||<body>"), with a session
 * timeout of timeout_s (0: the default). */
static void
fetch_script(struct run *r, const char *cursor, long timeout_s, const char *const *script)
{
	const struct provider_def *def = provider_find("whmcs");
	struct config cfg;
	struct prov_session s;
	struct mini m;
	char *a[24] = { NULL }, credtext[256];
	json_object *creds;
	size_t n = 0;

	for (; script[n] != NULL && n < 23; n++) {
		const char *bar = strchr(script[n], '|');
		char *status = xstrndup(script[n], (size_t)(bar - script[n]));

		a[n] = bar[1] == '|' ? answer(status, "", bar + 2) : answer_fixture(status, bar + 1);
		free(status);
	}
	mini_start(&m, (const char *const *)a);
	r->port = m.port;
	snprintf(credtext, sizeof credtext,
	    "{\"url\":\"http://127.0.0.1:%d/billing/\",\"api_identifier\":"
	    "\"wh-ident-1\",\"api_secret\":\"wh-secret-98765\"}",
	    m.port);
	creds = json_tokener_parse(credtext);
	/* The test config allows http and private addresses (the fakes run on 127.0.0.1). */
	cfg_init(&cfg, "whmcs", NULL);
	cfg.allow_http_urls = true;
	cfg.allow_private_urls = true;
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &r->e), 0);
	if (timeout_s > 0)
		s.timeout_s = timeout_s;
	memset(&r->p, 0, sizeof r->p);
	memset(&r->e, 0, sizeof r->e);
	r->st = def->ops->fetch(&s, cursor, &r->p, &r->e);
	snprintf(r->seen, sizeof r->seen, "%s", mini_finish(&m));
	for (size_t i = 0; i < n; i++)
		free(a[i]);
	json_object_put(creds);
}

/* How many requests asked for action. */
static int
calls(const struct run *r, const char *action)
{
	char needle[64];
	int k = 0;

	snprintf(needle, sizeof needle, "\r\n\r\naction=%s&", action);
	for (const char *s = r->seen; (s = strstr(s, needle)) != NULL; s++)
		k++;
	return k;
}

/* Whether a request posted action with the test credentials, then params. */
static bool
posted(const struct run *r, const char *action, const char *params)
{
	char needle[256];

	snprintf(needle, sizeof needle,
	    "action=%s&responsetype=json&identifier=wh-ident-1&secret=wh-secret-98765&%s", action, params);
	return strstr(r->seen, needle) != NULL;
}

/* A page whose list WHMCS refused: nothing, the warning, and the next phase. */
static void
expect_skipped(struct run *r, const char *cursor, const char *const *script, const char *warning,
    const char *next)
{
	fetch_script(r, cursor, 0, script);
	assert_int_equal(r->st, PROV_OK);
	assert_int_equal(r->p.n, 0);
	assert_true(has_warning(&r->p, warning));
	if (next == NULL)
		assert_null(r->p.next_cursor);
	else
		assert_string_equal(r->p.next_cursor, next);
	prov_page_free(&r->p);
}

static void
test_fetch_whmcs_clients_with_details(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);
	const struct prov_item *it;
	json_object *raw;
	/* sources: docs GetClients; docs GetClientsDetails (client 2, currency_code lower
	 * case); an older GetClientsDetails with the fields at the top and only the
	 * currency id (client 3); docs GetCurrencies */
	const char *const script[] = { "200 OK|whmcs/clients.json", "200 OK|whmcs/client_details.json",
		"200 OK|whmcs/client_details_old.json", "200 OK|whmcs/currencies.json", NULL };

	(void)state;
	fetch_script(r, NULL, 0, script);
	assert_int_equal(r->st, PROV_OK);
	assert_string_equal(r->p.next_cursor, "clients:2");
	assert_non_null(strstr(r->seen, "POST /billing/includes/api.php HTTP/1.1\r\n"));
	assert_true(posted(r, "GetClients", "limitstart=0&limitnum=25"));
	assert_true(posted(r, "GetClientsDetails", "clientid=2"));
	assert_non_null(strstr(r->seen, "&clientid=3"));
	assert_int_equal(calls(r, "GetCurrencies"), 1);
	it = page_find(&r->p, "hosting_client", "2");
	EXPECT_NORM(it, X_STR("address1", "123 Test Street"), X_NULL("address2"), X_STR("city", "Test"),
	    X_STR("state", "Tester"), X_STR("postcode", "TE5 5ST"), X_STR("country", "GB"),
	    X_STR("phone", "+44.1234567890"), X_STR("credit", "12.50"), X_STR("currency", "USD"));
	raw = json_object_object_get(it->raw, "details");
	assert_non_null(raw);
	assert_null(json_object_object_get(raw, "password")); /* never kept */
	assert_null(json_object_object_get(raw, "securityqans"));
	it = page_find(&r->p, "hosting_client", "3");
	EXPECT_NORM(it, X_STR("address1", "Rue de la Paix 1"), X_STR("address2", "B\xc3\xa2timent B"),
	    X_STR("country", "FR"), /* "country" when no countrycode */
	    X_STR("phone", "+33 1 23 45 67 89"), X_NULL("state"), X_STR("credit", "0.00"),
	    X_STR("currency", "EUR"));       /* currency 2 by GetCurrencies */
	assert_int_equal(r->p.nwarnings, 1); /* the "Archived" status */
	prov_page_free(&r->p);
	free(r);
}

static void
test_fetch_whmcs_client_details_refused_or_failed(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);
	const struct prov_item *it;
	const char *const refused[] = { "200 OK|whmcs/clients.json",
		"403 Forbidden||" FORBIDDEN("getclientsdetails"), NULL };
	/* source: docs GetClientsDetails "Error Responses": Client Not Found; a bad
	 * currency code typed by the admin */
	const char *const failed[] = { "200 OK|whmcs/clients.json", "200 OK|whmcs/client_not_found.json",
		"200 OK|whmcs/client_details_badcode.json", NULL };

	(void)state;
	fetch_script(r, NULL, 0, refused);
	assert_int_equal(r->st, PROV_OK);
	assert_int_equal(r->p.n, 2);
	assert_int_equal(calls(r, "GetClientsDetails"), 1); /* not asked again */
	assert_true(has_warning(&r->p, "refused GetClientsDetails for these API credentials (HTTP 403)"));
	/* the next pages do not ask for details */
	assert_string_equal(r->p.next_cursor, "clients-plain:2");
	assert_true(nnull(page_find(&r->p, "hosting_client", "2"), "currency"));
	prov_page_free(&r->p);

	fetch_script(r, NULL, 0, failed);
	assert_int_equal(r->st, PROV_OK);
	assert_int_equal(r->p.n, 2);
	assert_true(has_warning(&r->p,
	    "client 2: its details could not be read (WHMCS answered "
	    "GetClientsDetails with an error: Client Not Found)"));
	it = page_find(&r->p, "hosting_client", "2");
	assert_string_equal(nstr(it, "email"), "price.ima@example.com"); /* the list data */
	assert_true(nnull(it, "address1"));
	it = page_find(&r->p, "hosting_client", "3");
	EXPECT_NORM(it, X_STR("address1", "1 Main St"),
	    X_STR("credit", "12.5"), /* a JSON number, as written */
	    X_NULL("currency"));
	assert_true(
	    has_warning(&r->p, "client 3: currency code \"US$\" is not an ISO 4217 code; left empty"));
	assert_int_equal(calls(r, "GetCurrencies"), 0); /* currency_code was there */
	prov_page_free(&r->p);
	free(r);
}

static void
test_fetch_whmcs_service_currencies(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);
	const struct prov_item *it;
	/* sources: docs GetClientsProducts; docs GetCurrencies (several, one not ISO);
	 * docs GetClientsDetails */
	const char *const several[] = { "200 OK|whmcs/products_rich.json", "200 OK|whmcs/currencies.json",
		"200 OK|whmcs/client_details.json", "200 OK|whmcs/client_details_badcode.json", NULL };
	const char *const one[] = { "200 OK|whmcs/products_rich.json", "200 OK|whmcs/currencies_one.json",
		NULL };

	(void)state;
	fetch_script(r, "services:0", 0, several);
	assert_int_equal(r->st, PROV_OK);
	assert_string_equal(r->p.next_cursor, "addons:0");
	assert_non_null(strstr(r->seen, "action=GetClientsProducts&"));
	assert_non_null(strstr(r->seen, "&limitstart=0&limitnum=100"));
	/* two clients on the page: one details call each (the third service is client 2's again) */
	assert_int_equal(calls(r, "GetClientsDetails"), 2);
	it = page_find(&r->p, "hosting_service", "101");
	EXPECT_NORM(it, X_STR("currency", "USD"), X_STR("first_amount", "17.95"), X_STR("amount", "12.95"),
	    X_STR("registered", "2023-01-18"));
	assert_true(nnull(page_find(&r->p, "hosting_service", "102"), "currency")); /* "US$" */
	assert_true(has_warning(&r->p, "client 3: currency code \"US$\" is not an ISO 4217 code"));
	it = page_find(&r->p, "hosting_service", "103");
	EXPECT_NORM(it, X_STR("currency", "USD"), X_STR("billing_cycle", "biennially"),
	    X_STR("status", "completed"));
	prov_page_free(&r->p);

	/* One currency configured: every client has it, no details needed. */
	fetch_script(r, "services:0", 0, one);
	assert_int_equal(r->st, PROV_OK);
	assert_int_equal(calls(r, "GetClientsDetails"), 0);
	for (size_t i = 0; i < r->p.n; i++)
		assert_string_equal(nstr(&r->p.items[i], "currency"), "GBP");
	prov_page_free(&r->p);
	free(r);
}

static void
test_fetch_whmcs_addons(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);
	const struct prov_item *it;
	/* sources: docs GetClientsProducts; docs GetClientsAddons (+ an addon without its
	 * name and an unknown billing cycle); docs GetCurrencies */
	const char *const script[] = { "200 OK|whmcs/products_rich.json", "200 OK|whmcs/addons.json",
		"200 OK|whmcs/currencies_one.json", NULL };
	const char *const refused[] = { "200 OK|whmcs/products_rich.json",
		"403 Forbidden||" FORBIDDEN("getclientsaddons"), NULL };

	(void)state;
	fetch_script(r, "addons:0", 0, script);
	assert_int_equal(r->st, PROV_OK);
	assert_string_equal(r->p.next_cursor, "domains:0");
	/* one call for the whole page: serviceid=101,102,103 */
	assert_true(posted(r, "GetClientsAddons", "serviceid=101%2C102%2C103"));
	assert_int_equal(page_count(&r->p, "hosting_service"), 0);
	assert_int_equal(page_count(&r->p, "hosting_addon"), 3);
	expect_imported("whmcs", &r->p);
	it = page_find(&r->p, "hosting_addon", "1");
	EXPECT_NORM(it, X_STR("client_id", "2"), X_STR("service_id", "101"), X_STR("name", "Addon 1"),
	    X_STR("status", "active"), X_STR("billing_cycle", "monthly"), X_STR("amount", "15.00"),
	    X_STR("setup_fee", "0.00"), X_STR("next_due", "2016-10-03"), X_STR("registered", "2015-12-03"),
	    X_STR("currency", "GBP"));
	it = page_find(&r->p, "hosting_addon", "2");
	assert_string_equal(nstr(it, "name"), "Addon 2");
	assert_true(has_warning(&r->p, "addon 2 has no name; imported as \"Addon 2\""));
	assert_string_equal(nstr(it, "billing_cycle"), "other");
	assert_true(
	    has_warning(&r->p, "addon \"Addon 2\" has an unknown billing cycle Fortnightly; kept as other"));
	assert_string_equal(nstr(it, "status"), "suspended");
	assert_true(nnull(it, "next_due"));
	it = page_find(&r->p, "hosting_addon", "3");
	assert_true(nnull(it, "setup_fee")); /* "" */
	assert_string_equal(nstr(it, "status"), "terminated");
	prov_page_free(&r->p);

	expect_skipped(r, "addons:0", refused,
	    "WHMCS refused the service addons list for this key (HTTP 403): service addons skipped",
	    "domains:0");
	free(r);
}

static void
test_fetch_whmcs_domains(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);
	const struct prov_item *it;
	/* sources: docs GetClientsDomains (regperiod, donotrenew as string and number);
	 * docs GetCurrencies; docs GetClientsDetails, new and old form */
	const char *const script[] = { "200 OK|whmcs/domains_rich.json", "200 OK|whmcs/currencies.json",
		"200 OK|whmcs/client_details.json", "200 OK|whmcs/client_details_old.json", NULL };

	(void)state;
	fetch_script(r, "domains:0", 0, script);
	assert_int_equal(r->st, PROV_OK);
	assert_string_equal(r->p.next_cursor, "invoices:0");
	assert_int_equal(calls(r, "GetCurrencies"), 1);
	it = page_find(&r->p, "hosting_domain", "201");
	EXPECT_NORM(it, X_INT("period", 2), X_FALSE("auto_renew"), /* donotrenew "1" */
	    X_STR("registered", "2023-05-01"), X_STR("currency", "USD"));
	it = page_find(&r->p, "hosting_domain", "202");
	EXPECT_NORM(it, X_INT("period", 3), X_TRUE("auto_renew"), /* donotrenew 0 */
	    X_STR("status", "pending_transfer"), X_STR("currency", "EUR"));
	prov_page_free(&r->p);
	free(r);
}

static void
test_fetch_whmcs_invoice_lines(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);
	const struct prov_item *it;
	json_object *lines, *l;
	/* sources: docs GetInvoices; docs GetInvoice (items.item[] with numbers as numbers,
	 * a manual line, transactions); docs GetInvoice "Error Responses" */
	const char *const script[] = { "200 OK|whmcs/invoices.json", "200 OK|whmcs/invoice_rich.json",
		"200 OK|whmcs/invoice_not_found.json", NULL };
	const char *const refused[] = { "200 OK|whmcs/invoices.json",
		"403 Forbidden||" FORBIDDEN("getinvoice"), NULL };

	(void)state;
	fetch_script(r, "invoices:100", 0, script);
	assert_int_equal(r->st, PROV_OK);
	assert_string_equal(r->p.next_cursor, "invoices:102");
	assert_non_null(strstr(r->seen, "&limitstart=100&limitnum=25"));
	assert_true(posted(r, "GetInvoice", "invoiceid=301"));
	assert_int_equal(calls(r, "GetCurrencies"), 0); /* both carry currencycode */
	it = page_find(&r->p, "invoice", "301");
	EXPECT_NORM(it, X_STR("subtotal", "25.90"), X_STR("tax", "2.59"), X_STR("tax2", "0.26"),
	    X_STR("credit", "2.50"), X_STR("balance", "0.00"), X_STR("total", "28.75"),
	    X_STR("payment_method", "stripe"), X_STR("currency", "USD"));
	lines = json_object_object_get(it->norm, "lines");
	assert_int_equal(json_object_array_length(lines), 3);
	l = json_object_array_get_idx(lines, 0);
	assert_string_equal(json_object_get_string(json_object_object_get(l, "description")),
	    "Shared Hosting Plan 1 - svc1.example.com (01/01/2024 - 31/01/2024)");
	assert_string_equal(json_object_get_string(json_object_object_get(l, "amount")), "12.95");
	assert_string_equal(json_object_get_string(json_object_object_get(l, "type")), "Hosting");
	assert_string_equal(json_object_get_string(json_object_object_get(l, "relid")), "101");
	assert_true(json_object_get_boolean(json_object_object_get(l, "taxed")));
	l = json_object_array_get_idx(lines, 1);
	assert_string_equal(json_object_get_string(json_object_object_get(l, "amount")),
	    "12.95"); /* number */
	assert_string_equal(json_object_get_string(json_object_object_get(l, "relid")), "201");
	assert_true(json_object_get_boolean(json_object_object_get(l, "taxed")));
	l = json_object_array_get_idx(lines, 2);
	assert_null(json_object_object_get(l, "type"));  /* "" */
	assert_null(json_object_object_get(l, "relid")); /* 0: no record */
	assert_false(json_object_get_boolean(json_object_object_get(l, "taxed")));
	/* a failed GetInvoice keeps the list data, with a warning */
	it = page_find(&r->p, "invoice", "302");
	assert_int_equal(nids_len(it, "lines"), 0);
	assert_string_equal(nstr(it, "subtotal"), "129.50");
	assert_true(nnull(it, "balance"));
	assert_true(has_warning(&r->p,
	    "invoice 302: its lines could not be read (WHMCS answered GetInvoice "
	    "with an error: Invoice ID Not Found); imported from the list only"));
	prov_page_free(&r->p);

	fetch_script(r, "invoices:100", 0, refused);
	assert_int_equal(r->st, PROV_OK);
	assert_int_equal(r->p.n, 2);
	assert_int_equal(calls(r, "GetInvoice"), 1);
	assert_true(has_warning(&r->p, "refused GetInvoice for these API credentials (HTTP 403)"));
	assert_string_equal(r->p.next_cursor, "invoices-plain:102");
	prov_page_free(&r->p);
	free(r);
}

static void
test_fetch_whmcs_invoice_client_currency(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);
	/* source: docs GetInvoice example (an older GetInvoices without currencycode) */
	const char *const script[] = {
		"200 OK||{\"result\":\"success\",\"totalresults\":1,\"numreturned\":1,"
		"\"invoices\":{\"invoice\":[{\"id\":\"1\",\"userid\":\"2361\",\"invoicenum\":\"\",\"total\":\"15.95\","
		"\"status\":\"Unpaid\"}]}}",
		"200 OK|whmcs/invoice.json", "200 OK|whmcs/currencies_one.json", NULL
	};
	const char *const plain[] = { script[0], script[2], NULL };

	(void)state;
	fetch_script(r, "invoices:0", 0, script);
	assert_int_equal(r->st, PROV_OK);
	assert_string_equal(nstr(page_find(&r->p, "invoice", "1"), "currency"), "GBP");
	assert_string_equal(nstr(page_find(&r->p, "invoice", "1"), "balance"), "15.95");
	assert_int_equal(nids_len(page_find(&r->p, "invoice", "1"), "lines"), 1);
	assert_string_equal(r->p.next_cursor, "payments:0");
	prov_page_free(&r->p);

	/* After a refused GetInvoice the plain variant asks only for the currency. */
	fetch_script(r, "invoices-plain:0", 0, plain);
	assert_int_equal(r->st, PROV_OK);
	assert_int_equal(calls(r, "GetInvoice"), 0);
	assert_string_equal(nstr(page_find(&r->p, "invoice", "1"), "currency"), "GBP");
	assert_true(nnull(page_find(&r->p, "invoice", "1"), "balance"));
	prov_page_free(&r->p);
	free(r);
}

static void
test_fetch_whmcs_payments(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);
	const struct prov_item *it;
	/* sources: docs GetClients; docs GetTransactions (+ an unallocated payment and a
	 * refund in another currency); docs GetCurrencies; docs GetClientsDetails */
	const char *const script[] = { "200 OK|whmcs/clients.json", "200 OK|whmcs/transactions.json",
		"200 OK|whmcs/currencies.json", "200 OK|whmcs/client_details.json",
		"200 OK|whmcs/transactions_empty.json", NULL };
	const char *const refused[] = { "200 OK|whmcs/clients.json",
		"403 Forbidden||" FORBIDDEN("gettransactions"), NULL };

	(void)state;
	fetch_script(r, "payments:0", 0, script);
	assert_int_equal(r->st, PROV_OK);
	assert_string_equal(r->p.next_cursor, "payments:2");
	assert_true(posted(r, "GetTransactions", "clientid=2"));
	assert_true(posted(r, "GetTransactions", "clientid=3"));
	assert_int_equal(page_count(&r->p, "hosting_client"), 0);
	assert_int_equal(page_count(&r->p, "payment"), 3);
	expect_imported("whmcs", &r->p);
	it = page_find(&r->p, "payment", "10");
	EXPECT_NORM(it, X_STR("client_id", "1"), /* the transaction's userid */
	    X_STR("invoice_id", "59"), X_STR("date", "2016-01-01"), X_STR("gateway", "paypal"),
	    X_STR("transaction_id", "1479732071aad259f3513ec"), X_STR("description", "Invoice Payment"),
	    X_STR("amount_in", "45.90"), X_STR("fees", "0.00"), X_STR("amount_out", "0.00"),
	    X_STR("currency", "USD")); /* "0": the client's */
	it = page_find(&r->p, "payment", "11");
	assert_true(nnull(it, "invoice_id")); /* "0": not tied to an invoice */
	assert_string_equal(nstr(it, "fees"), "0.50");
	it = page_find(&r->p, "payment", "12");
	EXPECT_NORM(it, X_STR("currency", "EUR"), /* currency 2 */
	    X_STR("fees", "-0.30"), X_STR("amount_out", "45.90"));
	prov_page_free(&r->p);

	expect_skipped(r, "payments:0", refused,
	    "WHMCS refused the transactions list for this key (HTTP 403): transactions skipped", NULL);
	free(r);
}

static void
test_fetch_whmcs_bad_key_and_scrubbed_error(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);
	const char *const script[] = {
		"403 Forbidden||{\"result\":\"error\",\"message\":\"Authentication Failed "
		"for wh-secret-98765\"}",
		NULL
	};
	const char *const later[] = { "200 OK|whmcs/clients.json",
		"403 Forbidden||{\"result\":\"error\",\"message\":\"Authentication Failed\"}", NULL };

	(void)state;
	fetch_script(r, NULL, 0, script);
	assert_int_equal(r->st, PROV_AUTH);
	assert_non_null(strstr(r->seen, "\r\n\r\naction=GetClients&responsetype=json&"));
	assert_non_null(strstr(r->seen, "Content-Type: application/x-www-form-urlencoded\r\n"));
	assert_non_null(strstr(r->e.message, "WHMCS rejected the API credentials"));
	assert_null(strstr(r->e.message, "wh-secret-98765"));
	assert_int_equal(r->p.n, 0);
	prov_page_free(&r->p);

	/* Credentials revoked between two calls of a page: the run fails, no partial page. */
	fetch_script(r, NULL, 0, later);
	assert_int_equal(r->st, PROV_AUTH);
	assert_int_equal(r->p.n, 0);
	prov_page_free(&r->p);
	free(r);
}

static void
test_fetch_whmcs_redirect_reposts(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);
	const char *seen2;
	char *a[3];
	struct mini m;

	(void)state;
	/* providers.md §12: a 301 from the web server in front; the same POST is sent again */
	a[0] = answer("301 Moved Permanently", "Location: /moved/includes/api.php\r\n", "");
	a[1] = answer_fixture("200 OK", "whmcs/clients_empty.json");
	a[2] = NULL;
	mini_start(&m, (const char *const *)a);
	{
		const struct provider_def *def = provider_find("whmcs");
		struct config cfg;
		struct prov_session s;
		char credtext[256];
		json_object *creds;

		snprintf(credtext, sizeof credtext,
		    "{\"url\":\"http://127.0.0.1:%d/billing\",\"api_identifier\":"
		    "\"wh-ident-1\",\"api_secret\":\"wh-secret-98765\"}",
		    m.port);
		creds = json_tokener_parse(credtext);
		cfg_init(&cfg, "whmcs", NULL);
		cfg.allow_http_urls = true;
		cfg.allow_private_urls = true;
		assert_int_equal(prov_session_init(&s, def, &cfg, creds, &r->e), 0);
		assert_int_equal(def->ops->fetch(&s, NULL, &r->p, &r->e), PROV_OK);
		json_object_put(creds);
	}
	seen2 = mini_finish(&m);
	assert_non_null(strstr(seen2, "POST /billing/includes/api.php HTTP/1.1\r\n"));
	assert_non_null(strstr(seen2, "POST /moved/includes/api.php HTTP/1.1\r\n"));
	/* the form went both times */
	assert_non_null(strstr(strstr(seen2, "POST /moved/"),
	    "\r\n\r\naction=GetClients&responsetype=json&"
	    "identifier=wh-ident-1&secret=wh-secret-98765&limitstart=0&limitnum=25"));
	assert_string_equal(r->p.next_cursor, "contacts:0");
	prov_page_free(&r->p);
	free(a[0]);
	free(a[1]);
	free(r);
}

static void
test_fetch_whmcs_silent_calls_retry_page(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);
	/* two GetClientsDetails in a row without an answer in time: the page is retried */
	const char *const script[] = { "200 OK|whmcs/clients.json",
		MINI_SLOW "200 OK|whmcs/client_details.json", MINI_SLOW "200 OK|whmcs/client_details.json",
		NULL };

	(void)state;
	fetch_script(r, NULL, 1, script);
	assert_int_equal(r->st, PROV_TRANSIENT);
	assert_non_null(strstr(r->e.message, "did not answer 2 calls in a row"));
	assert_int_equal(r->p.n, 0);
	prov_page_free(&r->p);
	free(r);
}

/* A numreturned past int32 (or negative, or fractional) is not trusted:
 * the next page starts after the entries that came, never at an overflowed
 * offset. */
static void
test_whmcs_numbers_out_of_range(void **state)
{
	static const char *const returned[] = { "9223372036854775806", "\"99999999999999999999\"", "-4",
		"1.5", "1e30" };
	struct prov_page p;
	struct prov_error e;
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof returned / sizeof returned[0]; i++) {
		snprintf(text, sizeof text,
		    "{\"result\":\"success\",\"totalresults\":\"500\",\"startnumber\":0,"
		    "\"numreturned\":%s,\"contacts\":{\"contact\":[{\"id\":\"3\",\"userid\":\"1\","
		    "\"email\":\"c@example.com\"}]}}",
		    returned[i]);
		assert_int_equal(run_parse_text(whmcs_parse, "contacts:25", 200, text, &p, &e), PROV_OK);
		assert_string_equal(p.next_cursor, "contacts:26");
		prov_page_free(&p);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whmcs_clients),
		cmocka_unit_test(test_whmcs_contacts),
		cmocka_unit_test(test_whmcs_services_and_domains),
		cmocka_unit_test(test_whmcs_invoices),
		cmocka_unit_test(test_whmcs_errors),
		cmocka_unit_test(test_whmcs_refused_lists),
		cmocka_unit_test(test_fetch_whmcs_clients_with_details),
		cmocka_unit_test(test_fetch_whmcs_client_details_refused_or_failed),
		cmocka_unit_test(test_fetch_whmcs_service_currencies),
		cmocka_unit_test(test_fetch_whmcs_addons),
		cmocka_unit_test(test_fetch_whmcs_domains),
		cmocka_unit_test(test_fetch_whmcs_invoice_lines),
		cmocka_unit_test(test_fetch_whmcs_invoice_client_currency),
		cmocka_unit_test(test_fetch_whmcs_payments),
		cmocka_unit_test(test_fetch_whmcs_bad_key_and_scrubbed_error),
		cmocka_unit_test(test_fetch_whmcs_redirect_reposts),
		cmocka_unit_test(test_fetch_whmcs_silent_calls_retry_page),
		cmocka_unit_test(test_whmcs_numbers_out_of_range),
	};

	return PROVTEST_RUN(tests);
}
