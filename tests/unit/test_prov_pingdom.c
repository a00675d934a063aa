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
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>

#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"
#include "providers/httpc.h"
#include "providers/provider.h"

#include "provtest.h"

/* The check list alone (shape: Pingdom API 3.1 OpenAPI "Checks" /
 * CheckWithStringType, hack/API_3.1.yaml of karlderkaefer/pingdom-golang-client;
 * providers.md §2.2 list item): host names only. */
static void
test_pingdom_checks(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* pingdom/checks.json: the spec's list example plus a string id and resolution */
	assert_int_equal(run_parse(pingdom_parse, NULL, 200, "pingdom/checks.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.next_cursor, "checks:3");
	it = page_find(&p, "monitor", "85975");
	EXPECT_NORM(it, X_STR("name", "My check 1"), X_STR("url", "example.com"), X_STR("type", "http"),
	    X_INT("interval", 60), /* resolution 1 minute */
	    X_FALSE("paused"), X_IDS("tags", "apache"),
	    X_NULL("http_method")); /* unknown without the detail */
	it = page_find(&p, "monitor", "161748");
	EXPECT_NORM(it, X_STR("type", "tcp"), X_INT("interval", 300), /* "resolution":"5" */
	    X_TRUE("paused"));
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

/* Shape: spec "Contacts" example (hack/API_3.1.yaml, GET /alerting/contacts),
 * providers.md §2.2. */
static void
test_pingdom_contacts(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(pingdom_parse, "contacts:0", 200, "pingdom/contacts.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "maintenance:0");
	it = page_find(&p, "contact", "1:email:0");
	EXPECT_NORM(it, X_STR("type", "email"), X_STR("name", "John Doe"),
	    X_STR("value", "johndoe@teamrocket.com"));
	it = page_find(&p, "contact", "1:sms:0");
	assert_string_equal(nstr(it, "type"), "sms");
	assert_string_equal(nstr(it, "value"), "111111111"); /* country code "00": none */
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

	/* An empty list: on to the maintenance windows. */
	assert_int_equal(run_parse_text(pingdom_parse, "contacts:0", 200, "{\"contacts\":[]}", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "maintenance:0");
	prov_page_free(&p);
}

/* Shape: spec maintenance_resp_attrs (hack/API_3.1.yaml, GET /maintenance; the
 * first entry is its example) and go-pingdom MaintenanceResponse
 * (russellcardullo/go-pingdom pingdom/api_responses.go); the second entry sends
 * numbers as strings. */
static void
test_pingdom_maintenance(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(pingdom_parse, "maintenance:0", 200, "pingdom/maintenance.json", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor); /* fewer than asked for: the end */
	assert_int_equal(page_count(&p, "maintenance_window"), 5);
	it = page_find(&p, "maintenance_window", "1");
	EXPECT_NORM(it, X_STR("name", "Maintenance window from DB"), X_STR("recurrence", "weekly"),
	    X_STR("start", "2017-06-15T10:00:00Z"), X_STR("end", "2017-07-14T02:40:00Z"), /* effectiveto */
	    X_INT("duration", 900));                                                      /* 15 hours */
	assert_int_equal(json_object_get_int(json_object_array_get_idx(njson(it, "days"), 0)), 4);
	EXPECT_NORM(it, X_STR("timezone", "UTC"), X_FALSE("paused"), X_IDS("monitor_ids", "85975,85976"));
	it = page_find(&p, "maintenance_window", "2");
	EXPECT_NORM(it, X_STR("recurrence", "once"), X_STR("start", "2023-11-14T22:13:20Z"),
	    X_STR("end", "2023-11-14T23:13:20Z"), /* to */
	    X_INT("duration", 60));
	assert_int_equal(nids_len(it, "days"), 0);
	assert_string_equal(nids(it, "monitor_ids"), "161749");
	it = page_find(&p, "maintenance_window", "3");
	assert_string_equal(nstr(it, "recurrence"), "monthly");
	assert_int_equal(json_object_get_int(json_object_array_get_idx(njson(it, "days"), 0)), 26);
	assert_true(nnull(it, "end")); /* effectiveto 0: open */
	assert_true(has_warning(&p, "\"Patch Sunday\" repeats only every 2 monthly"));
	assert_true(has_warning(&p, "\"Patch Sunday\" also covers 1 transaction check,"));
	it = page_find(&p, "maintenance_window", "4");
	assert_string_equal(nstr(it, "name"), "4"); /* description "" */
	assert_string_equal(nstr(it, "recurrence"), "daily");
	assert_int_equal(nids_len(it, "monitor_ids"), 0);
	it = page_find(&p, "maintenance_window", "5");
	assert_string_equal(nstr(it, "recurrence"), "other");
	assert_true(has_warning(&p, "\"Yearly audit\" has an unknown recurrence year; kept as other"));
	assert_int_equal(nids_len(it, "monitor_ids"), 0); /* no "checks" at all */
	prov_page_free(&p);
}

/* Paging of the checks and maintenance lists. */
static void
test_pingdom_paging(void **state)
{
	struct prov_page p;
	struct prov_error e;
	char *body = xstrdup("{\"maintenance\":["), *list = xstrdup("{\"checks\":[");

	(void)state;
	for (int i = 0; i < 100; i++) {
		char *n =
		    xasprintf("%s%s{\"id\":%d,\"description\":\"w%d\",\"from\":1700000000,\"to\":1700003600,"
		              "\"recurrencetype\":\"none\"}",
		        body, i ? "," : "", i + 1, i);
		free(body);
		body = n;
	}
	for (int i = 0; i < 30; i++) {
		char *n = xasprintf("%s%s{\"id\":%d,\"name\":\"c%d\",\"type\":\"ping\",\"hostname\":\"h%d\"}",
		    list, i ? "," : "", 500 + i, i, i);
		free(list);
		list = n;
	}
	{
		char *n = xasprintf("%s]}", body), *l = xasprintf("%s],\"counts\":{\"total\":60}}", list);
		free(body);
		free(list);
		body = n;
		list = l;
	}
	assert_int_equal(run_parse_text(pingdom_parse, "maintenance:100", 200, body, &p, &e), PROV_OK);
	assert_int_equal(p.n, 100);
	assert_string_equal(p.next_cursor, "maintenance:200");
	prov_page_free(&p);
	/* More checks than asked for: 25 now, the rest from the next offset. */
	assert_int_equal(run_parse_text(pingdom_parse, "checks:0", 200, list, &p, &e), PROV_OK);
	assert_int_equal(p.n, 25);
	assert_string_equal(p.next_cursor, "checks:25");
	prov_page_free(&p);
	free(body);
	free(list);
}

/* Empty and missing lists. */
static void
test_pingdom_empty_lists(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse_text(pingdom_parse, NULL, 200,
	                     "{\"checks\":[],\"counts\":{\"total\":0,\"limited\":0,\"filtered\":0}}", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);
	/* A page that is empty although the total says more: stop. */
	assert_int_equal(run_parse_text(pingdom_parse, "checks:25", 200,
	                     "{\"checks\":[],\"counts\":{\"total\":90}}", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);
	assert_int_equal(run_parse_text(pingdom_parse, "maintenance:0", 200, "{\"maintenance\":[]}", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	/* A missing list is an empty one; a list that is not an array is an error. */
	assert_int_equal(run_parse_text(pingdom_parse, "maintenance:0", 200, "{}", &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(pingdom_parse, "contacts:0", 200, "{\"contacts\":{}}", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
}

/* A later list refused with 401/403 skips its kind (providers.md §12); the
 * first call's refusal is a bad key. Bodies: the §2.3 error envelope. */
static void
test_pingdom_refused_kinds(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse(pingdom_parse, "contacts:0", 403, "pingdom/forbidden.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_true(
	    has_warning(&p, "Pingdom refused the contacts list for this key (HTTP 403): contacts skipped"));
	assert_string_equal(p.next_cursor, "maintenance:0");
	prov_page_free(&p);
	assert_int_equal(run_parse(pingdom_parse, "maintenance:200", 403, "pingdom/forbidden.json", &p, &e),
	    PROV_OK);
	assert_true(has_warning(&p,
	    "Pingdom refused the maintenance windows list for this key (HTTP 403): "
	    "maintenance windows skipped"));
	assert_null(p.next_cursor);
	prov_page_free(&p);
	assert_int_equal(run_parse(pingdom_parse, "maintenance:0", 401, "pingdom/unauthorized.json", &p, &e),
	    PROV_OK);
	assert_true(has_warning(&p, "(HTTP 401)"));
	prov_page_free(&p);
	assert_string_equal(parse_fails(pingdom_parse, "checks:0", 403, "pingdom/forbidden.json", PROV_AUTH),
	    "Pingdom rejected the API token (Access to this resource is not allowed for this token)");
	/* A server error on a later list is retried, not skipped. */
	assert_int_equal(run_parse(pingdom_parse, "maintenance:0", 500, "pingdom/server_error.json", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
}

static void
test_pingdom_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;

	(void)state;
	/* unauthorized.json, rate_limited.json: the error envelope of providers.md §2.3 (spec "Error"
	 * responses {"error":{statuscode,statusdesc,errormessage}}; the exact 401 text is unverified, §11) */
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
	assert_int_equal(run_parse_text(pingdom_parse, "teams:0", 200, "{}", &p, &e), PROV_FATAL);
	prov_page_free(&p);
}

/* A whole page of checks: the list, the contacts and teams for the links,
 * and one detail per check. Shapes: list as above; details from the spec's
 * DetailedCheck (hack/API_3.1.yaml: HttpAttributesGet, TcpAttributes,
 * DnsAttributes, DetailedCheckAttributes) and go-pingdom CheckResponse
 * (pingdom/api_responses.go: userids, teams); teams from the spec's
 * AlertingTeams example (GET /alerting/teams). detail_absent.json sends
 * numbers as strings.
 * Long because: one fetch (eight answers) and each check it makes, checked in turn. */
static void
test_fetch_pingdom_details(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[] = { answer_fixture("200 OK", "pingdom/checks_fetch.json"),
		answer_fixture("200 OK", "pingdom/contacts.json"),
		answer_fixture("200 OK", "pingdom/teams.json"),
		answer_fixture("200 OK", "pingdom/detail_http.json"),
		answer_fixture("200 OK", "pingdom/detail_absent.json"),
		answer_fixture("500 Internal Server Error", "pingdom/server_error.json"),
		answer_fixture("200 OK", "pingdom/detail_tcp.json"),
		answer_fixture("200 OK", "pingdom/detail_dns.json"), NULL };
	json_object *creds = json_tokener_parse("{\"api_token\":\"pd-token-abcdef\"}");
	const struct prov_item *it;
	const char *seen;
	json_object *raw;

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("pingdom", "/pd", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(provider_find("pingdom")->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	seen = mini_finish(&m);
	assert_non_null(
	    strstr(seen, "GET /pd/api/3.1/checks?limit=25&offset=0&include_tags=true HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /pd/api/3.1/alerting/contacts HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /pd/api/3.1/alerting/teams HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /pd/api/3.1/checks/85975?include_teams=true HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /pd/api/3.1/checks/208656?include_teams=true HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "Authorization: Bearer pd-token-abcdef\r\n"));
	assert_int_equal(p.n, 5);
	assert_string_equal(p.next_cursor, "contacts:0");

	/* shouldcontain, https on a non-default port, path and query, headers. */
	it = page_find(&p, "monitor", "85975");
	EXPECT_NORM(it, X_STR("url", "https://shop.example.com:8443/health?x=1"), X_STR("type", "keyword"),
	    X_STR("keyword", "OK"), X_STR("keyword_up_when", "present"), X_STR("http_method", "GET"),
	    X_NULL("request_body"));
	assert_null(nheader(it, "User-Agent")); /* Pingdom's own: dropped */
	assert_string_equal(nheader(it, "X-Env"), "prod");
	EXPECT_NORM(it, X_INT("port", 8443), X_TRUE("verify_ssl"), X_INT("ssl_expiry_days", 7),
	    X_INT("timeout", 30), X_INT("interval", 60), X_IDS("regions", "EU"), X_IDS("tags", "prod"));
	/* userids [1] and team Oncall (members 1 and 3): every item of those contacts. */
	assert_string_equal(nids(it, "contact_ids"), "1:email:0,1:sms:0,1:sms:1,3:carrier_pigeon:0");
	assert_true(has_warning(&p, "\"Shop\" alerts 1 integration (webhooks)"));
	assert_true(nnull(it, "follow_redirects"));
	assert_int_equal(nids_len(it, "expected_status_codes"), 0);
	/* sendnotificationwhendown 2, notifyagainevery 0 (never again) */
	EXPECT_NORM(it, X_INT("alert_after_checks", 2), X_NULL("realert_s"), X_NULL("alert_after_s"),
	    X_NULL("dns_record_type"), X_NULL("auth_username"), X_NULL("auth_password"));
	assert_int_equal(nids_len(it, "assertions"), 0);

	/* shouldnotcontain, POST data, own User-Agent kept, numbers as strings. */
	it = page_find(&p, "monitor", "85976");
	EXPECT_NORM(it, X_STR("url", "http://api.example.com:8080/api/login"), X_STR("keyword", "Error"),
	    X_STR("keyword_up_when", "absent"), X_STR("http_method", "POST"),
	    X_STR("request_body", "user=demo&remember=1"));
	assert_string_equal(nheader(it, "User-Agent"), "ShopProbe/2.0");
	assert_string_equal(nheader(it, "Content-Type"), "application/x-www-form-urlencoded");
	EXPECT_NORM(it, X_FALSE("verify_ssl"), X_NULL("ssl_expiry_days"),
	    X_INT("timeout", 3), /* 2500 ms, rounded up */
	    X_INT("interval", 300), X_TRUE("paused"), X_IDS("regions", "NA,APAC"));
	assert_true(has_warning(&p, "probe filter \"probes: 12\" that is not a region"));
	assert_string_equal(nids(it, "tags"), "api,login");
	/* userids ["2"], team 7: members 2 (again) and 99, who is not a contact. */
	assert_string_equal(nids(it, "contact_ids"), "2");
	assert_true(has_warning(&p, "\"Login API\" alerts 1 contact that could not be read"));
	/* its basic-auth login: the password in the normalized object (discovery seals it), redacted
	 * in the stored copy; numbers as strings */
	EXPECT_NORM(it, X_STR("auth_username", "demo"), X_STR("auth_password", "s3cret-pw"),
	    X_INT("alert_after_checks", 3), X_NULL("realert_s"));
	assert_false(has_warning(&p, "\"Login API\" logs in to its target"));
	raw = it->raw;
	assert_null(strstr(json_object_to_json_string(raw), "s3cret-pw"));
	assert_string_equal(json_object_get_string(
	                        json_object_object_get(json_object_object_get(json_object_object_get(raw,
	                                                                          "type"),
	                                                   "http"),
	                            "password")),
	    "[redacted]");
	assert_non_null(strstr(json_object_to_json_string(raw), "shouldnotcontain"));

	/* A detail that failed: the list data stays, with a warning. */
	it = page_find(&p, "monitor", "161748");
	EXPECT_NORM(it, X_STR("url", "mail.example.com"), X_STR("type", "tcp"), X_NULL("port"));
	assert_true(has_warning(&p, "check \"Mail port\": its details could not be read"));

	it = page_find(&p, "monitor", "161749");
	EXPECT_NORM(it, X_STR("url", "relay.example.com"), X_INT("port", 2525),
	    X_STR("request_body", "EHLO migrator"), X_STR("keyword", "250"),
	    X_STR("keyword_up_when", "present"), X_NULL("http_method"));
	assert_int_equal(nids_len(it, "contact_ids"), 0);

	it = page_find(&p, "monitor", "208656");
	EXPECT_NORM(it, X_STR("type", "dns"), X_STR("url", "example.com"), X_NULL("port"),
	    X_IDS("contact_ids", "1:email:0,1:sms:0,1:sms:1"), X_INT("interval", 900));
	/* spec DnsAttributes: the name server asked and the address expected (IPv4: an A record) */
	EXPECT_NORM(it, X_STR("dns_nameserver", "8.8.8.8"), X_IDS("dns_expected", "104.20.90.241"),
	    X_STR("dns_record_type", "A"), X_NULL("alert_after_checks"), X_NULL("request_body"));
	prov_page_free(&p);
	free_answers(a);
	json_object_put(creds);
}

/* go-pingdom's recorded detail (pingdom/check_test.go TestCheckServiceRead):
 * plain http on port 80, path "/", only Pingdom's User-Agent. */
static void
test_fetch_pingdom_gopingdom_detail(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[] = {
		answer("200 OK", "",
		    "{\"checks\":[{\"id\":85975,\"name\":\"My check 7\",\"type\":\"http\","
		    "\"hostname\":\"s7.mydomain.com\",\"status\":\"up\",\"resolution\":1}],\"counts\":{\"total\":1}}"),
		answer_fixture("200 OK", "pingdom/contacts.json"),
		answer_fixture("200 OK", "pingdom/teams.json"),
		answer_fixture("200 OK", "pingdom/detail_gopingdom.json"), NULL
	};
	json_object *creds = json_tokener_parse("{\"api_token\":\"pd-token-abcdef\"}");
	const struct prov_item *it;

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("pingdom", "/pd", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(provider_find("pingdom")->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	mini_finish(&m);
	it = page_find(&p, "monitor", "85975");
	EXPECT_NORM(it, X_STR("url", "http://s7.mydomain.com/"), X_STR("type", "http"), X_NULL("keyword"),
	    X_NULL("keyword_up_when"));
	assert_int_equal(json_object_object_length(njson(it, "request_headers")), 0);
	EXPECT_NORM(it, X_INT("timeout", 3), /* 2300 ms */
	    X_NULL("verify_ssl"), X_IDS("contact_ids", "1:email:0,1:sms:0,1:sms:1,3:carrier_pigeon:0"));
	assert_true(has_warning(&p, "\"My check 7\" alerts 2 integrations"));
	prov_page_free(&p);
	free_answers(a);
	json_object_put(creds);
}

/* Alert timing, DNS expectations, a custom check's assertion and a login
 * from hostile details: counts out of range, not numbers or overflowing
 * notifyagainevery x resolution are left out with a warning; an expected
 * "IP" that is none, and a password too long to seal, too. */
static void
test_fetch_pingdom_alerting_hostile(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96], longpw[1101], *huge;
	json_object *creds = json_tokener_parse("{\"api_token\":\"pd-token-abcdef\"}");
	const struct prov_item *it;

	(void)state;
	memset(longpw, 'p', sizeof longpw - 1);
	longpw[sizeof longpw - 1] = '\0';
	huge = xasprintf("{\"check\":{\"id\":4,\"name\":\"Long\",\"hostname\":\"d.example\",\"resolution\":5,"
	                 "\"sendnotificationwhendown\":1000001,\"notifyagainevery\":100000000,"
	                 "\"type\":{\"http\":{\"url\":\"/\",\"username\":\"u\",\"password\":\"%s\"}}}}",
	    longpw);
	char *a[] = {
		answer("200 OK", "",
		    "{\"checks\":[{\"id\":1,\"name\":\"Custom\",\"type\":\"httpcustom\",\"hostname\":\"a.example\"},"
		    "{\"id\":2,\"name\":\"Resolver\",\"type\":\"dns\",\"hostname\":\"b.example\"},"
		    "{\"id\":3,\"name\":\"Six\",\"type\":\"dns\",\"hostname\":\"c.example\"},"
		    "{\"id\":4,\"name\":\"Long\",\"type\":\"http\",\"hostname\":\"d.example\"}],"
		    "\"counts\":{\"total\":4}}"),
		answer_fixture("200 OK", "pingdom/contacts.json"),
		answer_fixture("200 OK", "pingdom/teams.json"),
		answer("200 OK", "",
		    "{\"check\":{\"id\":1,\"name\":\"Custom\",\"hostname\":\"a.example\",\"resolution\":60,"
		    "\"sendnotificationwhendown\":0,\"notifyagainevery\":9223372036854775807,"
		    "\"type\":{\"httpcustom\":{\"url\":\"/status.xml\",\"encryption\":true,\"port\":443,"
		    "\"additionalurls\":\"https://a.example/b.xml\"}}}}"),
		answer("200 OK", "",
		    "{\"check\":{\"id\":2,\"name\":\"Resolver\",\"hostname\":\"b.example\",\"resolution\":15,"
		    "\"sendnotificationwhendown\":\"many\",\"notifyagainevery\":-1,"
		    "\"type\":{\"dns\":{\"nameserver\":\"ns.example\",\"expectedip\":\"not-an-ip\"}}}}"),
		answer("200 OK", "",
		    "{\"check\":{\"id\":3,\"name\":\"Six\",\"hostname\":\"c.example\",\"resolution\":1,"
		    "\"sendnotificationwhendown\":\"4\",\"notifyagainevery\":\"7\",\"type\":{\"dns\":"
		    "{\"nameserver\":\"2001:4860:4860::8888\",\"expectedip\":\"2001:db8::1\"}}}}"),
		answer("200 OK", "", huge), NULL
	};

	mini_start(&m, (const char *const *)a);
	session_on("pingdom", "/pd", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(provider_find("pingdom")->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	mini_finish(&m);
	/* httpcustom: type http, the XML status it reads as an assertion */
	it = page_find(&p, "monitor", "1");
	EXPECT_NORM(it, X_STR("type", "http"), X_STR("url", "https://a.example/status.xml"),
	    X_NULL("alert_after_checks"), X_NULL("realert_s"), X_NULL("keyword"));
	assert_string_equal(json_object_to_json_string_ext(njson(it, "assertions"), JSON_C_TO_STRING_PLAIN),
	    "[{\"source\":\"xml\",\"property\":\"\\/pingdom_http_custom_check\\/status\","
	    "\"comparison\":\"equals\",\"target\":\"OK\"}]");
	assert_true(
	    has_warning(&p, "\"Custom\" has a sendnotificationwhendown that is no count from 1 to 1000000"));
	assert_true(has_warning(&p, "\"Custom\" has a notifyagainevery that is no count of results within"));
	it = page_find(&p, "monitor", "2");
	EXPECT_NORM(it, X_NULL("dns_record_type"), X_STR("dns_nameserver", "ns.example"),
	    X_NULL("alert_after_checks"), X_NULL("realert_s"));
	assert_int_equal(nids_len(it, "dns_expected"), 0);
	assert_true(has_warning(&p, "\"Resolver\" expects an answer that is no IP address"));
	assert_true(has_warning(&p, "\"Resolver\" has a sendnotificationwhendown that is no count"));
	assert_true(has_warning(&p, "\"Resolver\" has a notifyagainevery that is no count"));
	/* numbers as strings; an IPv6 address: an AAAA record; again every 7 results of 1 minute */
	it = page_find(&p, "monitor", "3");
	EXPECT_NORM(it, X_IDS("dns_expected", "2001:db8::1"), X_STR("dns_record_type", "AAAA"),
	    X_STR("dns_nameserver", "2001:4860:4860::8888"), X_INT("alert_after_checks", 4),
	    X_INT("realert_s", 420));
	/* 100000000 results of 5 minutes: far past what the account keeps; a password too long to seal */
	it = page_find(&p, "monitor", "4");
	EXPECT_NORM(it, X_NULL("realert_s"), X_NULL("alert_after_checks"), X_STR("auth_username", "u"),
	    X_NULL("auth_password"));
	assert_true(
	    has_warning(&p, "\"Long\" logs in with a password that is not text of at most 1000 bytes"));
	assert_null(strstr(json_object_to_json_string(it->raw), "pppppppppppp"));
	for (size_t i = 0; i < p.nwarnings; i++)
		assert_null(strstr(p.warnings[i], "pppppppppppp"));
	prov_page_free(&p);
	free_answers(a);
	free(huge);
	json_object_put(creds);
}

/* A refusal part way (its wait past the step): the page ends at the last
 * check read, the cursor resumes at the next, and the session waits the
 * refusal's Req-Limit reset; asked again meanwhile, it sends nothing. Refused
 * at the first detail: the page is a rate limit. */
static void
test_fetch_pingdom_rate_limit(void **state)
{
	static const char limited[] = "Req-Limit-Short: Remaining: 0 Time until reset: 42\r\n"
	                              "Req-Limit-Long: Remaining: 100 Time until reset: 3000\r\n";
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96], *body = fixture_text("pingdom/rate_limited.json", NULL);
	char *a[] = { answer_fixture("200 OK", "pingdom/checks_fetch.json"),
		answer_fixture("200 OK", "pingdom/contacts.json"),
		answer_fixture("200 OK", "pingdom/teams.json"),
		answer_fixture("200 OK", "pingdom/detail_http.json"),
		answer("429 Too Many Requests", limited, body),
		answer_fixture("200 OK", "pingdom/checks_fetch.json"),
		answer_fixture("200 OK", "pingdom/contacts.json"),
		answer_fixture("200 OK", "pingdom/teams.json"),
		answer("429 Too Many Requests", limited, body), NULL };
	json_object *creds = json_tokener_parse("{\"api_token\":\"pd-token-abcdef\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("pingdom", "/pd", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(provider_find("pingdom")->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(nstr(page_find(&p, "monitor", "85975"), "url"),
	    "https://shop.example.com:8443/health?x=1");
	assert_string_equal(p.next_cursor, "checks:1");
	assert_true(s.pace.limited);
	assert_in_range(prov_session_wait_ms(&s), 41000, 42000);
	assert_int_equal(s.pace.refusals, 1);
	assert_false(has_warning(&p, "could not be read"));
	prov_page_free(&p);
	/* Within the wait: held back, no request. */
	assert_int_equal(provider_find("pingdom")->ops->fetch(&s, "checks:1", &p, &e), PROV_RATE_LIMITED);
	assert_string_equal(e.message, "waiting for Pingdom's rate limit");
	assert_int_equal(e.retry_after, 42);
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	/* The wait over: refused at the first detail. */
	s.pace.next_ms = 0;
	s.pace.limited = false;
	assert_int_equal(provider_find("pingdom")->ops->fetch(&s, "checks:1", &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 42);
	assert_int_equal(s.pace.refusals, 1); /* the list's answers before it ended the first row */
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	assert_non_null(
	    strstr(mini_finish(&m), "GET /pd/api/3.1/checks?limit=25&offset=1&include_tags=true "));
	free_answers(a);
	free(body);
	json_object_put(creds);
}

/* Contacts and teams refused while the checks are read: no links, warnings,
 * and the run goes on. An empty check list makes no further request. */
static void
test_fetch_pingdom_refused_links(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[] = { answer("200 OK", "",
		          "{\"checks\":[{\"id\":85975,\"name\":\"Shop\",\"type\":\"http\","
		          "\"hostname\":\"shop.example.com\"}],\"counts\":{\"total\":1}}"),
		answer_fixture("403 Forbidden", "pingdom/forbidden.json"),
		answer_fixture("403 Forbidden", "pingdom/forbidden.json"),
		answer_fixture("200 OK", "pingdom/detail_http.json"),
		answer("200 OK", "", "{\"checks\":[],\"counts\":{\"total\":0}}"),
		answer_fixture("401 Unauthorized", "pingdom/unauthorized.json"), NULL };
	json_object *creds = json_tokener_parse("{\"api_token\":\"pd-token-abcdef\"}");
	const struct prov_item *it;
	const char *seen;

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("pingdom", "/pd", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(provider_find("pingdom")->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	it = page_find(&p, "monitor", "85975");
	assert_string_equal(nstr(it, "keyword"), "OK");
	assert_int_equal(nids_len(it, "contact_ids"), 0);
	assert_true(has_warning(&p, "Pingdom refused the contacts list for this key (HTTP 403)"));
	assert_true(has_warning(&p, "Pingdom refused the teams list for this key (HTTP 403): teams skipped"));
	assert_true(has_warning(&p, "\"Shop\" alerts 1 contact that could not be read"));
	assert_true(has_warning(&p, "\"Shop\" alerts 1 team whose members could not be read"));
	prov_page_free(&p);
	/* Empty list: straight to the contacts, one request. */
	assert_int_equal(provider_find("pingdom")->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);
	/* The first call refused: a bad key, and the token is never repeated. */
	assert_int_equal(provider_find("pingdom")->ops->fetch(&s, NULL, &p, &e), PROV_AUTH);
	assert_string_equal(e.message, "Pingdom rejected the API token (Invalid token)");
	prov_page_free(&p);
	seen = mini_finish(&m);
	{
		size_t requests = 0;

		for (const char *q = seen; (q = strstr(q, "\n=====\n")) != NULL; q++)
			requests++;
		assert_int_equal(requests, 4 + 1 + 1);
	}
	free_answers(a);
	json_object_put(creds);
}

/* A detail without an answer (timeout) keeps the list data; two in a row
 * make the page a retry: Pingdom is not answering. */
static void
test_fetch_pingdom_silent_details(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96], *detail = fixture_text("pingdom/detail_http.json", NULL);
	char *slow = answer("200 OK", "", detail);
	char *a[] = { answer("200 OK", "",
		          "{\"checks\":[{\"id\":85975,\"name\":\"Shop\",\"type\":\"http\","
		          "\"hostname\":\"shop.example.com\"}],\"counts\":{\"total\":1}}"),
		answer_fixture("200 OK", "pingdom/contacts.json"),
		answer_fixture("200 OK", "pingdom/teams.json"), xasprintf("%s%s", MINI_SLOW, slow),
		answer_fixture("200 OK", "pingdom/checks_fetch.json"),
		answer_fixture("200 OK", "pingdom/contacts.json"),
		answer_fixture("200 OK", "pingdom/teams.json"), xasprintf("%s%s", MINI_SLOW, slow),
		xasprintf("%s%s", MINI_SLOW, slow), NULL };
	json_object *creds = json_tokener_parse("{\"api_token\":\"pd-token-abcdef\"}");
	const struct prov_item *it;

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("pingdom", "/pd", &s, &cfg, &m, base, sizeof base, creds);
	s.timeout_s = 1;
	assert_int_equal(provider_find("pingdom")->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	it = page_find(&p, "monitor", "85975");
	assert_string_equal(nstr(it, "url"), "shop.example.com");
	assert_true(has_warning(&p, "check \"Shop\": its details could not be read"));
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);
	sleep(2); /* the server is still sending the late answer */
	assert_int_equal(provider_find("pingdom")->ops->fetch(&s, NULL, &p, &e), PROV_TRANSIENT);
	assert_non_null(strstr(e.message, "Pingdom did not answer 2 check detail requests in a row"));
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	mini_finish(&m);
	free_answers(a);
	free(slow);
	free(detail);
	json_object_put(creds);
}

/* Numbers past what a field can mean (huge, negative, fractional, exponent)
 * fall back to the default instead of overflowing (resolution * 60,
 * to - from, the threshold rounded up to seconds). */
static void
test_pingdom_numbers_out_of_range(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(
	    run_parse_text(pingdom_parse, "checks:0", 200,
	        "{\"checks\":["
	        "{\"id\":1,\"name\":\"A\",\"type\":\"http\",\"hostname\":\"a.example\",\"resolution\":9223372036854775806},"
	        "{\"id\":2,\"name\":\"B\",\"type\":\"http\",\"hostname\":\"b.example\",\"resolution\":-3},"
	        "{\"id\":3,\"name\":\"C\",\"type\":\"http\",\"hostname\":\"c.example\",\"resolution\":1.5},"
	        "{\"id\":4,\"name\":\"D\",\"type\":\"http\",\"hostname\":\"d.example\",\"resolution\":1e1},"
	        "{\"id\":5,\"name\":\"E\",\"type\":\"http\",\"hostname\":\"e.example\",\"resolution\":99999999999999999999}],"
	        "\"counts\":{\"total\":5}}",
	        &p, &e),
	    PROV_OK);
	assert_int_equal(nint(page_find(&p, "monitor", "1"), "interval"), 300);
	assert_int_equal(nint(page_find(&p, "monitor", "2"), "interval"), 300);
	assert_int_equal(nint(page_find(&p, "monitor", "3"), "interval"), 300);
	assert_int_equal(nint(page_find(&p, "monitor", "4"), "interval"), 600);
	assert_int_equal(nint(page_find(&p, "monitor", "5"), "interval"), 300);
	prov_page_free(&p);

	assert_int_equal(
	    run_parse_text(pingdom_parse, "maintenance:0", 200,
	        "{\"maintenance\":["
	        "{\"id\":7,\"description\":\"Huge\",\"from\":1700000000,\"to\":9223372036854775806,"
	        "\"recurrencetype\":\"none\",\"checks\":{\"uptime\":[]}},"
	        "{\"id\":8,\"description\":\"Negative\",\"from\":-9223372036854775807,\"to\":1700000000,"
	        "\"recurrencetype\":\"none\",\"checks\":{\"uptime\":[]}}]}",
	        &p, &e),
	    PROV_OK);
	it = page_find(&p, "maintenance_window", "7");
	EXPECT_NORM(it, X_STR("start", "2023-11-14T22:13:20Z"), X_NULL("end"), X_NULL("duration"));
	it = page_find(&p, "maintenance_window", "8");
	assert_true(nnull(it, "start"));
	assert_true(nnull(it, "duration"));
	prov_page_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pingdom_checks),
		cmocka_unit_test(test_pingdom_contacts),
		cmocka_unit_test(test_pingdom_maintenance),
		cmocka_unit_test(test_pingdom_paging),
		cmocka_unit_test(test_pingdom_empty_lists),
		cmocka_unit_test(test_pingdom_refused_kinds),
		cmocka_unit_test(test_pingdom_errors),
		cmocka_unit_test(test_fetch_pingdom_details),
		cmocka_unit_test(test_fetch_pingdom_gopingdom_detail),
		cmocka_unit_test(test_fetch_pingdom_alerting_hostile),
		cmocka_unit_test(test_fetch_pingdom_rate_limit),
		cmocka_unit_test(test_fetch_pingdom_refused_links),
		cmocka_unit_test(test_fetch_pingdom_silent_details),
		cmocka_unit_test(test_pingdom_numbers_out_of_range),
	};

	return PROVTEST_RUN(tests);
}
