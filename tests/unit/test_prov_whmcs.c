/* Unit tests of the WHMCS adapter (src/providers/whmcs.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/whmcs/, each citing the published
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
test_whmcs_clients(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(whmcs_parse, NULL, 200, "whmcs/clients.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "clients:2"); /* limitstart += numreturned */
	it = page_find(&p, "hosting_client", "2");
	assert_string_equal(nstr(it, "email"), "price.ima@example.com");
	assert_string_equal(nstr(it, "first_name"), "Angelica");
	assert_string_equal(nstr(it, "last_name"), "Mohr");
	assert_true(nnull(it, "company"));                 /* "" */
	assert_string_equal(nstr(it, "status"), "active");
	assert_string_equal(nstr(it, "created"), "2016-01-15");
	it = page_find(&p, "hosting_client", "3");           /* "id":"3" */
	assert_string_equal(nstr(it, "company"), "Tran Hosting Ltd");
	assert_true(nnull(it, "created"));                 /* "0000-00-00" */
	assert_string_equal(nstr(it, "status"), "other");
	assert_true(has_warning(&p, "client \"bo@example.net\" has an unknown status \"Archived\""));
	prov_page_free(&p);

	/* Numbers as strings; 2 + 1 >= 3: the next list. */
	assert_int_equal(run_parse(whmcs_parse, "clients:2", 200, "whmcs/clients_last.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(nstr(page_find(&p, "hosting_client", "7"), "status"), "closed");
	assert_string_equal(p.next_cursor, "services:0");
	prov_page_free(&p);

	/* One client, not wrapped in a list. */
	assert_int_equal(run_parse(whmcs_parse, NULL, 200, "whmcs/clients_single.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(nstr(page_find(&p, "hosting_client", "9"), "status"), "inactive");
	assert_string_equal(nstr(page_find(&p, "hosting_client", "9"), "created"), "2020-02-29");
	assert_string_equal(p.next_cursor, "services:0");
	prov_page_free(&p);

	/* No clients: the key is missing altogether. */
	assert_int_equal(run_parse(whmcs_parse, NULL, 200, "whmcs/clients_empty.json", &p, &e), PROV_OK);
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
	assert_int_equal(run_parse(whmcs_parse, "services:0", 200, "whmcs/products.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_true(has_warning(&p, "entry of products without a usable id; skipped"));
	assert_string_equal(p.next_cursor, "domains:0");
	it = page_find(&p, "hosting_service", "101");
	assert_string_equal(nstr(it, "client_id"), "2");
	assert_string_equal(nstr(it, "product"), "Shared Hosting Plan 1");
	assert_string_equal(nstr(it, "domain"), "svc1.client1.example.com");
	assert_string_equal(nstr(it, "status"), "active");
	assert_string_equal(nstr(it, "billing_cycle"), "monthly");
	assert_string_equal(nstr(it, "amount"), "12.95");
	assert_string_equal(nstr(it, "next_due"), "2024-02-18");
	it = page_find(&p, "hosting_service", "102");
	assert_true(nnull(it, "domain"));
	assert_string_equal(nstr(it, "status"), "suspended");
	assert_string_equal(nstr(it, "billing_cycle"), "free");
	assert_string_equal(nstr(it, "amount"), "129.50");
	assert_true(nnull(it, "next_due"));               /* "0000-00-00" */
	prov_page_free(&p);

	/* No services: "products":"". */
	assert_int_equal(run_parse(whmcs_parse, "services:0", 200, "whmcs/products_empty.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "domains:0");
	prov_page_free(&p);

	assert_int_equal(run_parse(whmcs_parse, "domains:0", 200, "whmcs/domains.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "invoices:0");
	it = page_find(&p, "hosting_domain", "201");
	assert_string_equal(nstr(it, "client_id"), "2");
	assert_string_equal(nstr(it, "domain"), "example-shop.com");
	assert_string_equal(nstr(it, "registrar"), "enom");
	assert_string_equal(nstr(it, "status"), "active");
	assert_string_equal(nstr(it, "expiry"), "2024-05-01");
	assert_string_equal(nstr(it, "next_due"), "2024-04-17");
	assert_string_equal(nstr(it, "amount"), "12.95");
	it = page_find(&p, "hosting_domain", "202");
	assert_true(nnull(it, "client_id"));              /* "userid":"0" */
	assert_true(nnull(it, "registrar"));
	assert_true(nnull(it, "amount"));                 /* "abc" */
	assert_string_equal(nstr(it, "status"), "transferred_away");
	prov_page_free(&p);

	/* No domains: "domains":"". */
	assert_int_equal(run_parse(whmcs_parse, "domains:0", 200, "whmcs/domains_empty.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "invoices:0");
	prov_page_free(&p);
}

static void
test_whmcs_invoices(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(whmcs_parse, "invoices:100", 200, "whmcs/invoices.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	/* Only 2 came although 100 were asked for (a capped limitnum): go on
	 * from 102, never from 200. */
	assert_string_equal(p.next_cursor, "invoices:102");
	it = page_find(&p, "invoice", "301");
	assert_string_equal(nstr(it, "client_id"), "2");
	assert_string_equal(nstr(it, "number"), "INV-2024-0301");
	assert_string_equal(nstr(it, "date"), "2024-01-01");
	assert_string_equal(nstr(it, "due"), "2024-01-15");
	assert_string_equal(nstr(it, "paid_at"), "2024-01-03");
	assert_string_equal(nstr(it, "total"), "12.95");
	assert_string_equal(nstr(it, "currency"), "USD");
	assert_string_equal(nstr(it, "status"), "paid");
	it = page_find(&p, "invoice", "302");
	assert_string_equal(nstr(it, "number"), "302");   /* no invoicenum: the id */
	assert_true(nnull(it, "paid_at"));                /* "0000-00-00 00:00:00" */
	assert_string_equal(nstr(it, "total"), "129.50"); /* a JSON number */
	assert_string_equal(nstr(it, "currency"), "EUR");
	assert_string_equal(nstr(it, "status"), "payment_pending");
	prov_page_free(&p);

	/* No invoices: "invoices":[]; the last list ends discovery. */
	assert_int_equal(run_parse(whmcs_parse, "invoices:0", 200, "whmcs/invoices_empty.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);

	/* numreturned > 0 with nothing in the list: stop, do not loop. */
	assert_int_equal(run_parse_text(whmcs_parse, "invoices:0", 200, "{\"result\":\"success\","
	    "\"totalresults\":\"500\",\"numreturned\":\"25\",\"invoices\":{\"invoice\":[]}}", &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	prov_page_free(&p);
}

static void
test_whmcs_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	const char *msg;

	(void)state;
	msg = parse_fails(whmcs_parse, NULL, 403, "whmcs/auth_failed.json", PROV_AUTH);
	assert_string_equal(msg, "WHMCS rejected the API credentials (Authentication Failed)");
	/* The same error sent with HTTP 200 by some installations. */
	msg = parse_fails(whmcs_parse, NULL, 200, "whmcs/auth_failed.json", PROV_AUTH);
	assert_string_equal(msg, "WHMCS rejected the API credentials (Authentication Failed)");
	msg = parse_fails(whmcs_parse, NULL, 403, "whmcs/invalid_ip.json", PROV_AUTH);
	assert_non_null(strstr(msg, "refused this server's address (Invalid IP 203.0.113.9)"));
	assert_non_null(strstr(msg, "access_key"));
	msg = parse_fails(whmcs_parse, "invoices:0", 403, "whmcs/invalid_permissions.json", PROV_AUTH);
	assert_non_null(strstr(msg, "does not allow these API credentials to call GetInvoices"));
	msg = parse_fails(whmcs_parse, NULL, 200, "whmcs/command_not_found.json", PROV_FATAL);
	assert_string_equal(msg, "WHMCS answered GetClients with an error: Command Not Found");
	parse_fails(whmcs_parse, NULL, 200, "whmcs/truncated.json", PROV_TRANSIENT);
	parse_fails(whmcs_parse, NULL, 503, "whmcs/rate_limited.html", PROV_TRANSIENT);
	parse_fails(whmcs_parse, NULL, 404, "whmcs/rate_limited.html", PROV_FATAL);
	parse_fails(whmcs_parse, "products:0", 200, "whmcs/products.json", PROV_FATAL);
	assert_int_equal(run_parse_text(whmcs_parse, NULL, 200, "{\"result\":\"success\",\"clients\":5}", &p, &e),
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

/* ------------------------------------------- whole fetches against a local server */

static void
test_fetch_whmcs_request_and_scrubbed_error(void **state)
{
	const struct provider_def *def = provider_find("whmcs");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char credtext[256];
	char *a[3] = { answer_fixture("200 OK", "whmcs/invoices.json"),
		answer("403 Forbidden", "", "{\"result\":\"error\",\"message\":\"Authentication Failed for "
		    "wh-secret-98765\"}"), NULL };
	const char *seen;
	json_object *creds;

	(void)state;
	mini_start(&m, (const char *const *)a);
	snprintf(credtext, sizeof credtext, "{\"url\":\"http://127.0.0.1:%d/billing/\",\"api_identifier\":"
	    "\"wh-ident-1\",\"api_secret\":\"wh-secret-98765\",\"access_key\":\"ak & 1\"}", m.port);
	creds = json_tokener_parse(credtext);
	/* The test config allows http and private addresses (the fakes run on 127.0.0.1). */
	cfg_init(&cfg, "whmcs", NULL);
	cfg.allow_http_urls = true;
	cfg.allow_private_urls = true;
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_true(s.base_url_untrusted);
	assert_int_equal(def->ops->fetch(&s, "invoices:100", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "invoices:102");
	prov_page_free(&p);
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_AUTH);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "POST /billing/includes/api.php HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "Content-Type: application/x-www-form-urlencoded\r\n"));
	assert_non_null(strstr(seen, "\r\n\r\naction=GetInvoices&responsetype=json&identifier=wh-ident-1&"
	    "secret=wh-secret-98765&accesskey=ak%20%26%201&limitstart=100&limitnum=100"));
	assert_non_null(strstr(seen, "\r\n\r\naction=GetClients&responsetype=json&"));
	assert_non_null(strstr(seen, "&limitstart=0&limitnum=100"));
	assert_non_null(strstr(e.message, "WHMCS rejected the API credentials"));
	assert_null(strstr(e.message, "wh-secret-98765"));
	prov_page_free(&p);
	free(a[0]);
	free(a[1]);
	json_object_put(creds);
}

/* ----------------------------------------------- user-supplied URLs (§12) */

/* Fetch with creds under cfg; returns the status and leaves err in e. */

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whmcs_clients),
		cmocka_unit_test(test_whmcs_services_and_domains),
		cmocka_unit_test(test_whmcs_invoices),
		cmocka_unit_test(test_whmcs_errors),
		cmocka_unit_test(test_fetch_whmcs_request_and_scrubbed_error),
	};

	return PROVTEST_RUN(tests);
}
