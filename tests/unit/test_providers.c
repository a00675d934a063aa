/* Unit tests of the shared provider layer: the URL guard, the HTTP client's
 * retry/limit headers and error mapping (against a local server), the common
 * helpers, session set-up, the guard on user-supplied URLs and the registry.
 * Each adapter has its own program, test_prov_<id>.c. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/config.h"
#include "core/jsonx.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"
#include "providers/fields.h"
#include "providers/httpc.h"
#include "providers/provider.h"
#include "providers/urlguard.h"

#include "provtest.h"

/* ---------------------------------------------------------- URL guard */

/* The ledger (providers/fields.h): what lands is silent, what the table
 * drops says why, what it does not know is listed as unknown, nothing
 * empty is listed, lists of objects are walked item by item, a field is
 * listed once, values never show, and a hostile object is bounded. */
/* prov_map: the fields a table maps are read into the normalized struct; a
 * field absent, null or of another form leaves the member as it was. */
static void
test_mapped_by_the_field_table(void **state)
{
	static const struct prov_field f[] = {
		{ "name", "`monitors.name`", NULL, PROV_TEXT(monitor, name, 8) },
		{ "config.url", "`monitors.url`", NULL, PROV_TEXT(monitor, url, 64) },
		{ "period", "`monitors.interval_s`", NULL, PROV_NONNEG(monitor, interval) },
		{ "port", "`monitors.port`", NULL, PROV_NONNEG(monitor, port) },
		{ "paused", "`monitors.paused`", NULL, PROV_BOOL(monitor, paused) },
		{ "tags", "`monitors.tags`", NULL, PROV_WORDS(monitor, tags) },
		{ "alerts", "`monitor_contacts`", NULL, PROV_CSV(monitor, contact_ids) },
		{ "keyword", "`monitors.keyword`", "mapped by the adapter" },
		{ "timeout", "`monitors.timeout_s`", NULL, PROV_INT(monitor, timeout) },
		{ NULL, NULL, NULL },
	};
	static const char sent[] =
	    "{\"name\":\"Shop\",\"config\":{\"url\":\"https://a.example/\"},\"period\":\"60\","
	    "\"port\":-1,\"paused\":\"true\",\"tags\":\"a b  c\",\"alerts\":\"1,2\","
	    "\"keyword\":\"x\",\"timeout\":{\"s\":5}}";
	static const char odd[] =
	    "{\"name\":\"much too long\",\"config\":\"flat\",\"period\":null,\"paused\":[],"
	    "\"tags\":7,\"alerts\":[3,\"4\"]}";
	struct prov_monitor m = { .name = "dflt", .url = "dflt", .interval = 300, .port = -1, .timeout = 9 };
	int ok;
	json_object *raw = jx_parse(sent, strlen(sent), &ok);

	(void)state;
	prov_map(f, raw, &m);
	assert_string_equal(m.name, "Shop");
	assert_string_equal(m.url, "https://a.example/");
	assert_int_equal(m.interval, 60);
	assert_int_equal(m.port, -1); /* negative: not taken */
	assert_true(m.paused);
	assert_string_equal(json_object_to_json_string_ext(m.tags, JSON_C_TO_STRING_PLAIN),
	    "[\"a\",\"b\",\"c\"]");
	assert_string_equal(json_object_to_json_string_ext(m.contact_ids, JSON_C_TO_STRING_PLAIN),
	    "[\"1\",\"2\"]");
	assert_null(m.keyword);         /* PF_CODE: the adapter's */
	assert_int_equal(m.timeout, 9); /* an object is no integer */
	json_object_put(m.tags);
	json_object_put(m.contact_ids);
	json_object_put(raw);

	m = (struct prov_monitor){ .name = "dflt", .url = "dflt", .interval = 300, .paused = true };
	raw = jx_parse(odd, strlen(odd), &ok);
	prov_map(f, raw, &m);
	assert_string_equal(m.name, "dflt"); /* longer than its 8 bytes */
	assert_string_equal(m.url, "dflt");  /* config is no object */
	assert_int_equal(m.interval, 300);
	assert_true(m.paused);
	assert_null(m.tags);
	assert_string_equal(json_object_to_json_string_ext(m.contact_ids, JSON_C_TO_STRING_PLAIN),
	    "[\"3\",\"4\"]");
	json_object_put(m.contact_ids);
	json_object_put(raw);
}

static void
test_dropped_by_the_field_table(void **state)
{
	static const struct prov_field f[] = {
		{ "name", "`monitors.name`", NULL },
		{ "alerts[].id", "`monitor_contacts`", NULL },
		{ "alerts[].threshold", NULL, "Per-contact timing is not imported." },
		{ "headers", "`monitors.request_headers`", NULL },
		{ "auth.password", prov_enter_again, "The password is not imported." },
		{ NULL, NULL, NULL },
	};
	static const struct prov_fields t[] = { { "monitor", "check", f }, { NULL, NULL, NULL } };
	int ok;
	static const char sent[] =
	    "{\"name\":\"Shop\",\"auth\":{\"user\":\"u\",\"password\":\"hunter2\"},"
	    "\"alerts\":[{\"id\":1,\"threshold\":3,\"via\":\"sms\"},{\"id\":2,\"threshold\":5}],"
	    "\"headers\":{\"X-Token\":\"t0k\"},\"paused\":false,\"note\":\"\",\"due\":\"0000-00-00\",\"fee\":\"0.00\",\"count\":0,"
	    "\"tags\":[],\"extra\":{\"deep\":{\"x\":1}},\"ids\":[1,2]}";
	static const char carried[] = "{\"name\":\"Shop\",\"headers\":{\"A\":\"b\"}}";
	json_object *raw = jx_parse(sent, strlen(sent), &ok);
	json_object *d;
	const char *text;

	(void)state;
	assert_ptr_equal(prov_fields_of(t, "monitor"), &t[0]);
	assert_null(prov_fields_of(t, "contact"));
	assert_null(prov_fields_of(NULL, "monitor"));
	d = prov_dropped(&t[0], raw);
	text = json_object_to_json_string_ext(d, JSON_C_TO_STRING_PLAIN);
	assert_string_equal(text,
	    "[{\"field\":\"auth.user\",\"reason\":\"Not known to this importer (the provider may have added it "
	    "since); it is not imported.\"},"
	    "{\"field\":\"auth.password\",\"reason\":\"The password is not imported.\",\"enter_again\":true},"
	    "{\"field\":\"alerts[].threshold\",\"reason\":\"Per-contact timing is not imported.\"},"
	    "{\"field\":\"alerts[].via\",\"reason\":\"Not known to this importer (the provider may have added it "
	    "since); it is not imported.\"},"
	    "{\"field\":\"extra.deep.x\",\"reason\":\"Not known to this importer (the provider may have added it "
	    "since); it is not imported.\"},"
	    "{\"field\":\"ids\",\"reason\":\"Not known to this importer (the provider may have added it since); it "
	    "is not imported.\"}]");
	assert_null(strstr(text, "hunter2"));
	assert_null(strstr(text, "t0k"));
	json_object_put(d);
	json_object_put(raw);
	/* everything carries: [] */
	raw = jx_parse(carried, strlen(carried), &ok);
	d = prov_dropped(&t[0], raw);
	assert_string_equal(json_object_to_json_string_ext(d, JSON_C_TO_STRING_PLAIN), "[]");
	json_object_put(d);
	json_object_put(raw);
	/* a provider answering with a thousand unknown fields: 64 listed, then how many more */
	raw = json_object_new_object();
	for (int i = 0; i < 1000; i++) {
		char k[16];
		snprintf(k, sizeof k, "f%d", i);
		json_object_object_add(raw, k, json_object_new_int(1));
	}
	d = prov_dropped(&t[0], raw);
	assert_int_equal(json_object_array_length(d), 65);
	assert_string_equal(json_object_get_string(
	                        json_object_object_get(json_object_array_get_idx(d, 64), "field")),
	    "936 more fields");
	json_object_put(d);
	json_object_put(raw);
}

/* A status page's history (common.h): ordered newest first by starts_at,
 * null last, the order given among equals, the newest PROV_SP_MAX_INCIDENTS
 * kept; an incident's newest PROV_SP_MAX_UPDATES updates kept; a body cut on
 * a character boundary. */
static void
test_status_page_history_helpers(void **state)
{
	json_object *list = json_object_new_array(), *ups = json_object_new_array();
	char name[32], *body;
	const char *got;

	(void)state;
	for (int i = 0; i < PROV_SP_MAX_INCIDENTS + 10; i++) {
		struct prov_sp_incident in = { 0 };

		snprintf(name, sizeof name, "i%d", i);
		in.kind = "incident";
		in.name = name;
		/* i % 7 == 3: no start; otherwise one day apart, i = 12 and 13 on the same day */
		in.starts_at = i % 7 == 3 ? -1 : INT64_C(1700000000) + (i == 13 ? 12 : i) * 86400;
		in.ends_at = in.scheduled_until = -1;
		json_object_array_add(list, prov_sp_incident(&in));
	}
	assert_int_equal(prov_sp_incidents_order(list), 10);
	assert_int_equal(json_object_array_length(list), PROV_SP_MAX_INCIDENTS);
	assert_string_equal(prov_get_str(json_object_array_get_idx(list, 0), "name", 32),
	    "i58"); /* 59 % 7 == 3: no start */
	assert_string_equal(prov_get_str(json_object_array_get_idx(list, 0), "starts_at", 32),
	    "2024-01-11T22:13:20Z");
	assert_null(prov_get(json_object_array_get_idx(list, 0), "ends_at"));
	/* 12 and 13 share a start: the order given */
	for (size_t i = 0; i + 1 < json_object_array_length(list); i++)
		if (strcmp(prov_get_str(json_object_array_get_idx(list, i), "name", 32), "i12") == 0)
			assert_string_equal(prov_get_str(json_object_array_get_idx(list, i + 1), "name", 32),
			    "i13");
	/* the ones without a start go last: of 60, the 51 with one lead, so one of them is cut too */
	assert_non_null(prov_get(json_object_array_get_idx(list, PROV_SP_MAX_INCIDENTS - 1), "starts_at"));
	json_object_put(list);

	for (int i = 0; i < PROV_SP_MAX_UPDATES + 5; i++) {
		snprintf(name, sizeof name, "u%d", i);
		prov_sp_update(ups, i, i % 2 ? "identified" : NULL, name);
	}
	assert_int_equal(prov_sp_updates_cap(ups), 5);
	assert_int_equal(json_object_array_length(ups), PROV_SP_MAX_UPDATES);
	assert_string_equal(prov_get_str(json_object_array_get_idx(ups, 0), "body", 32), "u5");
	assert_string_equal(prov_get_str(json_object_array_get_idx(ups, 0), "at", 32),
	    "1970-01-01T00:00:05Z");
	assert_string_equal(prov_get_str(json_object_array_get_idx(ups, 0), "status", 32), "identified");
	assert_int_equal(prov_sp_updates_cap(ups), 0);
	json_object_put(ups);

	/* "a" then 4000 three-byte characters: cut after 3999 of them, never inside one */
	ups = json_object_new_array();
	body = xmalloc(1 + 3 * 4000 + 1);
	body[0] = 'a';
	for (int i = 0; i < 4000; i++)
		memcpy(body + 1 + 3 * i, "\xe2\x9c\x93", 3);
	body[1 + 3 * 4000] = '\0';
	prov_sp_update(ups, -1, NULL, body);
	got = prov_get_str(json_object_array_get_idx(ups, 0), "body", 100000);
	assert_int_equal(strlen(got), 1 + 3 * (PROV_SP_MAX_BODY - 1));
	assert_null(prov_get(json_object_array_get_idx(ups, 0), "at"));
	assert_null(prov_get(json_object_array_get_idx(ups, 0), "status"));
	free(body);
	json_object_put(ups);
}

static void
test_urlguard_blocks_private_classes(void **state)
{
	static const struct {
		const char *ip, *cls;
	} blocked[] = {
		{ "127.0.0.1", "loopback" },
		{ "127.1.2.3", "loopback" },
		{ "::1", "loopback" },
		{ "10.0.0.1", "private" },
		{ "10.255.255.255", "private" },
		{ "192.168.1.1", "private" },
		{ "172.16.0.1", "private" },
		{ "172.31.255.254", "private" },
		{ "100.64.0.1", "shared (CGNAT)" },
		{ "100.127.255.255", "shared (CGNAT)" },
		{ "169.254.169.254", "link-local" },
		{ "169.254.0.1", "link-local" },
		{ "fe80::1", "link-local" },
		{ "febf::1", "link-local" },
		{ "0.0.0.0", "unspecified" },
		{ "0.1.2.3", "unspecified" },
		{ "::", "unspecified" },
		{ "224.0.0.1", "multicast" },
		{ "239.255.255.250", "multicast" },
		{ "ff02::1", "multicast" },
		{ "255.255.255.255", "reserved" },
		{ "240.0.0.1", "reserved" },
		{ "fc00::1", "unique-local" },
		{ "fd12:3456::1", "unique-local" },
		{ "::ffff:127.0.0.1", "loopback" },
		{ "::ffff:10.1.2.3", "private" },
		{ "::ffff:169.254.169.254", "link-local" },
		{ "::ffff:0.0.0.0", "unspecified" },
		{ "64:ff9b::7f00:1", "loopback" },  /* NAT64 of 127.0.0.1 */
		{ "2002:c0a8:0101::1", "private" }, /* 6to4 of 192.168.1.1 */
		{ "::127.0.0.1", "reserved" },      /* IPv4-compatible */
		{ "2001:db8::1", "reserved" },
		{ "192.0.2.1", "reserved" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof blocked / sizeof blocked[0]; i++) {
		const char *cls = urlguard_ip_class(blocked[i].ip);

		if (cls == NULL || strcmp(cls, blocked[i].cls) != 0)
			fail_msg("%s: expected %s, got %s", blocked[i].ip, blocked[i].cls,
			    cls ? cls : "public");
	}
}

static void
test_urlguard_allows_public(void **state)
{
	static const char *const ok[] = {
		"8.8.8.8",
		"1.1.1.1",
		"93.184.216.34",
		"172.15.255.255",
		"172.32.0.1",
		"100.63.255.255",
		"100.128.0.1",
		"169.253.1.1",
		"192.167.1.1",
		"11.0.0.1",
		"2606:4700:4700::1111",
		"2a00:1450:4001:81c::200e",
		"::ffff:8.8.8.8",
		"64:ff9b::808:808",
	};

	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		if (urlguard_ip_class(ok[i]) != NULL)
			fail_msg("%s should be public, got %s", ok[i], urlguard_ip_class(ok[i]));
	assert_string_equal(urlguard_ip_class("not-an-ip"), "invalid");
}

static void
test_urlguard_addr_allowed(void **state)
{
	struct sockaddr_in s4;
	struct urlguard strict = { false, false }, lax = { true, true };

	(void)state;
	memset(&s4, 0, sizeof s4);
	s4.sin_family = AF_INET;
	inet_pton(AF_INET, "127.0.0.1", &s4.sin_addr);
	assert_false(urlguard_addr_allowed(&strict, (struct sockaddr *)&s4, sizeof s4));
	assert_true(urlguard_addr_allowed(&lax, (struct sockaddr *)&s4, sizeof s4));
	inet_pton(AF_INET, "8.8.4.4", &s4.sin_addr);
	assert_true(urlguard_addr_allowed(&strict, (struct sockaddr *)&s4, sizeof s4));
	/* Not an internet address: never, even when private ones are allowed. */
	s4.sin_family = AF_UNIX;
	assert_false(urlguard_addr_allowed(&lax, (struct sockaddr *)&s4, sizeof s4));
}

static void
test_urlguard_check_url(void **state)
{
	static const char *const good[] = {
		"https://billing.example.com", "https://billing.example.com/",
		"https://x.example.com:8443/whmcs", "https://[2001:db8::1]/api", "https://10.0.0.5/whmcs",
		"HTTPS://Example.COM/a/b",
		"https://[::1]:8443/api", /* the address is judged at connect time */
		"https://[2001:DB8::1]/", "https://billing.example.com:443/",
		"https://billing.example.com/a%20b/%7Euser", "https://billing.example.com.",
		"https://ex%41mple.com/",       /* curl reads exAmple.com */
		"https://127.1/",               /* curl reads 127.0.0.1, judged when connecting */
		"https://[0:0::1]/",            /* curl reads [::1] */
		"https://[fe80::1%25eth0]/api", /* a zone */
	};
	static const struct {
		const char *url, *why;
	} bad[] = {
		{ "http://billing.example.com", "only https" },
		{ "ftp://example.com", "must start with https://" },
		{ "javascript:alert(1)", "must start with https://" },
		{ "https://user:pw@example.com/", "user name or password" },
		{ "https://example.com@evil.com/", "user name or password" },
		{ "https://example.com/?a=1", "query or fragment" },
		{ "https://example.com/#x", "query or fragment" },
		{ "https://exa mple.com/", "spaces" },
		{ "https://example.com\\@evil.com/", "spaces" },
		{ "https:///path", "no host" },
		{ "https://", "no host" },
		{ "https://example.com:0/", "invalid port" },
		{ "https://example.com:65536/", "invalid port" },
		{ "https://example.com:/", "invalid port" },
		{ "https://example.com:80a/", "invalid port" },
		{ "https://[::1/", "IPv6" },
		{ "https://[zz::1]/", "IPv6" },
		{ "https://ex..ample.com/", "invalid host" },
		{ "https://exa%2fmple.com/", "invalid host" },
		{ "https://ex%2e.com/", "invalid host" }, /* curl reads "ex..com" */
		{ "https://\xff\xfe.example/", "non-ASCII" },
		{ "https://[::1]:/", "invalid port" },
		{ "https://example.com:99999/", "invalid port" },
		{ "https://user@example.com/", "user name or password" },
		{ "https://:pw@example.com/", "user name or password" },
		{ "", "empty" },
	};
	char why[160], longurl[700];

	(void)state;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		if (urlguard_check_url(good[i], false, why, sizeof why) != 0)
			fail_msg("%s refused: %s", good[i], why);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (urlguard_check_url(bad[i].url, false, why, sizeof why) == 0)
			fail_msg("%s accepted", bad[i].url);
		if (strstr(why, bad[i].why) == NULL)
			fail_msg("%s: reason \"%s\" lacks \"%s\"", bad[i].url, why, bad[i].why);
	}
	assert_int_equal(urlguard_check_url("http://127.0.0.1:9000/whmcs", true, why, sizeof why), 0);
	memset(longurl, 'a', sizeof longurl - 1);
	memcpy(longurl, "https://", 8);
	longurl[sizeof longurl - 1] = '\0';
	assert_int_equal(urlguard_check_url(longurl, false, why, sizeof why), -1);
	assert_non_null(strstr(why, "too long"));
	assert_int_equal(urlguard_check_url(NULL, true, NULL, 0), -1);
}

/* ---------------------------------------------------- retry and limit headers */

static void
test_retry_after_seconds_and_dates(void **state)
{
	time_t now = time(NULL);
	char date[64];
	struct tm tm;
	int w;

	(void)state;
	assert_int_equal(httpc_parse_retry_after("120", now), 120);
	assert_int_equal(httpc_parse_retry_after("  7 ", now), 7);
	assert_int_equal(httpc_parse_retry_after("0", now), 0);
	assert_int_equal(httpc_parse_retry_after("99999999", now), HTTPC_MAX_WAIT);
	assert_int_equal(httpc_parse_retry_after("9999999999999999999999", now), HTTPC_MAX_WAIT);
	assert_int_equal(httpc_parse_retry_after("-5", now), -1);
	assert_int_equal(httpc_parse_retry_after("soon", now), -1);
	assert_int_equal(httpc_parse_retry_after("", now), -1);
	assert_int_equal(httpc_parse_retry_after(NULL, now), -1);
	assert_int_equal(httpc_parse_retry_after("1.5", now), -1);

	/* An HTTP date 90 s ahead. */
	time_t t = now + 90;
	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	w = httpc_parse_retry_after(date, now);
	assert_true(w >= 89 && w <= 90);
	/* A date in the past: retry now. */
	assert_int_equal(httpc_parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now), 0);
	/* A date years ahead: the cap. */
	assert_int_equal(httpc_parse_retry_after("Fri, 01 Jan 2100 00:00:00 GMT", now), HTTPC_MAX_WAIT);
	/* RFC 9110's three forms (the time_parse of src/core), blanks around */
	assert_int_equal(httpc_parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", 784111777 - 30), 30);
	assert_int_equal(httpc_parse_retry_after(" Sunday, 06-Nov-94 08:49:37 GMT\t", 784111777 - 30), 30);
	assert_int_equal(httpc_parse_retry_after("Sun Nov  6 08:49:37 1994", 784111777 - 30), 30);
	/* a date with the wrong weekday, out of range or followed by more: not a date */
	assert_int_equal(httpc_parse_retry_after("Mon, 06 Nov 1994 08:49:37 GMT", 784111777 - 30), -1);
	assert_int_equal(httpc_parse_retry_after("Sun, 31 Nov 1994 08:49:37 GMT", 784111777 - 30), -1);
	assert_int_equal(httpc_parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT+1", 784111777 - 30), -1);
}

static void
test_wait_hint_sources(void **state)
{
	struct httpc_resp r;
	time_t now = time(NULL);
	char epoch[32];
	long rem, reset;

	(void)state;
	/* Retry-After wins over the provider headers. */
	resp_text(&r, 429, "");
	httpc_resp_set_header(&r, "Retry-After", "12");
	httpc_resp_set_header(&r, "X-RateLimit-Reset", "50");
	assert_int_equal(httpc_wait_hint(&r, now), 12);
	httpc_resp_free(&r);

	/* UptimeRobot: X-RateLimit-Reset is an epoch time. */
	resp_text(&r, 429, "");
	snprintf(epoch, sizeof epoch, "%lld", (long long)now + 33);
	httpc_resp_set_header(&r, "x-ratelimit-reset", epoch);
	httpc_resp_set_header(&r, "x-ratelimit-remaining", "0");
	assert_int_equal(httpc_wait_hint(&r, now), 33);
	assert_true(httpc_quota_exhausted(&r));
	httpc_resp_free(&r);

	/* StatusCake: X-RateLimit-Reset is a number of seconds. */
	resp_text(&r, 429, "");
	httpc_resp_set_header(&r, "x-ratelimit-reset", "8");
	assert_int_equal(httpc_wait_hint(&r, now), 8);
	httpc_resp_free(&r);

	/* Pingdom: the exhausted window's reset time. */
	assert_int_equal(httpc_parse_req_limit("Remaining: 394 Time until reset: 3589", &rem, &reset), 0);
	assert_int_equal(rem, 394);
	assert_int_equal(reset, 3589);
	assert_int_equal(httpc_parse_req_limit("garbage", &rem, &reset), -1);
	resp_text(&r, 429, "");
	httpc_resp_set_header(&r, "Req-Limit-Short", "Remaining: 12 Time until reset: 5");
	httpc_resp_set_header(&r, "Req-Limit-Long", "Remaining: 0 Time until reset: 1800");
	assert_int_equal(httpc_wait_hint(&r, now), 1800);
	assert_true(httpc_quota_exhausted(&r));
	httpc_resp_free(&r);

	/* Both Pingdom windows used up: the later reset. */
	resp_text(&r, 429, "");
	httpc_resp_set_header(&r, "Req-Limit-Short", "Remaining: 0 Time until reset: 5");
	httpc_resp_set_header(&r, "Req-Limit-Long", "Remaining: 0 Time until reset: 1800");
	assert_int_equal(httpc_wait_hint(&r, now), 1800);
	httpc_resp_free(&r);

	/* X-RateLimit-Reset of a window with requests left is not the refusal's wait. */
	resp_text(&r, 429, "");
	httpc_resp_set_header(&r, "X-RateLimit-Remaining", "7");
	httpc_resp_set_header(&r, "X-RateLimit-Reset", "50");
	assert_int_equal(httpc_wait_hint(&r, now), -1);
	assert_false(httpc_quota_exhausted(&r));
	httpc_resp_free(&r);

	/* "Retry-After: 0" is a wait of 0 (now), not silence. */
	resp_text(&r, 429, "");
	httpc_resp_set_header(&r, "Retry-After", "0");
	assert_int_equal(httpc_wait_hint(&r, now), 0);
	httpc_resp_free(&r);

	/* Nothing said: -1 (the session backs off on its own). */
	resp_text(&r, 429, "");
	httpc_resp_set_header(&r, "Retry-After", "whenever");
	assert_int_equal(httpc_wait_hint(&r, now), -1);
	assert_false(httpc_quota_exhausted(&r));
	httpc_resp_free(&r);
}

/* ---------------------------------------------------------- rate limits */

static void
test_pace_refusal_waits(void **state)
{
	struct prov_pace p = { 0 };
	const int64_t t = INT64_C(1700000000000);

	(void)state;
	/* The provider's wait, at least provider_wait_min; the row starts at the first. */
	assert_int_equal(prov_pace_refusal(&p, 7, t, 1, 900), 7000);
	assert_int_equal(p.refusals, 1);
	assert_int_equal(p.refused_since, t);
	assert_int_equal(prov_pace_refusal(&p, 0, t + 7000, 2, 900), 2000);
	assert_int_equal(p.refusals, 2);
	assert_int_equal(p.refused_since, t);

	/* No wait named: provider_wait_min doubled for each refusal before it in the row. */
	memset(&p, 0, sizeof p);
	for (int i = 0; i < 6; i++)
		assert_int_equal(prov_pace_refusal(&p, -1, t + i, 1, 900), INT64_C(1000) << i);
	/* ... at most PROV_BACKOFF_MAX_S ... */
	memset(&p, 0, sizeof p);
	p.refusals = 40;
	p.refused_since = t;
	assert_int_equal(prov_pace_refusal(&p, -1, t, 1, 86400), PROV_BACKOFF_MAX_S * INT64_C(1000));
	/* ... and never past provider_wait_max: the last try comes when the time is
	 * up; refused then, the session gives up. */
	memset(&p, 0, sizeof p);
	assert_int_equal(prov_pace_refusal(&p, -1, t, 5, 12), 5000);
	assert_int_equal(prov_pace_refusal(&p, -1, t + 5000, 5, 12), 7000);
	assert_false(p.gave_up);
	assert_int_equal(prov_pace_refusal(&p, -1, t + 12000, 5, 12), -1);
	assert_true(p.gave_up);
	assert_int_equal(p.refusals, 3);

	/* A named wait that would end past provider_wait_max: it gives up at once. */
	memset(&p, 0, sizeof p);
	assert_int_equal(prov_pace_refusal(&p, 31, t, 1, 30), -1);
	assert_true(p.gave_up);
	memset(&p, 0, sizeof p);
	assert_int_equal(prov_pace_refusal(&p, 30, t, 1, 30), 30000);
	/* provider_wait_max 0: the first refusal ends it. */
	memset(&p, 0, sizeof p);
	assert_int_equal(prov_pace_refusal(&p, 0, t, 0, 0), -1);

	/* provider_wait_min 0 (the tests' knob): no wait named, none waited, 60 times. */
	memset(&p, 0, sizeof p);
	for (int i = 0; i < 60; i++)
		assert_int_equal(prov_pace_refusal(&p, -1, t + i, 0, 900), 0);
	assert_int_equal(p.refusals, 60);
	assert_false(p.gave_up);

	/* A row begun in another runner process (the job's payload) counts from its start. */
	memset(&p, 0, sizeof p);
	p.refusals = 3;
	p.refused_since = t - 899000;
	assert_int_equal(prov_pace_refusal(&p, 1, t, 1, 900), 1000);
	assert_int_equal(prov_pace_refusal(&p, 1, t + 1000, 1, 900), -1);
	/* A start in the future (a clock set back) starts the row now. */
	memset(&p, 0, sizeof p);
	p.refusals = 2;
	p.refused_since = t + 5000;
	assert_int_equal(prov_pace_refusal(&p, 4, t, 1, 900), 4000);
	assert_int_equal(p.refused_since, t);
}

/* GET /x of the local server for s. */
static enum prov_status
pace_get(struct prov_session *s, struct httpc_resp *resp, struct prov_error *e)
{
	struct httpc_req req = { 0 };
	char *url = prov_url(s, "/x");
	enum prov_status st;

	req.url = url;
	st = prov_http(s, &req, resp, e);
	free(url);
	return st;
}

/* How many requests for /x the local server saw. */
static int
requests_seen(const char *seen)
{
	int n = 0;

	for (const char *p = seen; (p = strstr(p, "GET /ur/x ")) != NULL; p++)
		n++;
	return n;
}

static void
test_http_waits_out_a_refusal_within_the_step(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_error e = { 0 };
	struct httpc_resp resp;
	struct mini m;
	char base[96],
	    *a[] = { answer("429 Too Many Requests", "Retry-After: 1\r\n", "{}"),
		    answer("200 OK", "", "{\"ok\":1}"), NULL };
	json_object *creds = json_tokener_parse("{\"api_key\":\"k-123456\"}");
	int64_t t0;

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("uptimerobot", "/ur", &s, &cfg, &m, base, sizeof base, creds);
	s.pace.deadline_ms = mono_ms() + 10000;
	t0 = mono_ms();
	assert_int_equal(pace_get(&s, &resp, &e), PROV_OK);
	assert_true(mono_ms() - t0 >= 1000);
	assert_int_equal(resp.status, 200);
	assert_int_equal(requests_seen(mini_finish(&m)), 2);
	/* the answer ended the row of refusals */
	assert_int_equal(s.pace.refusals, 0);
	assert_int_equal(s.pace.refused_since, 0);
	assert_false(s.pace.limited);
	httpc_resp_free(&resp);
	free_answers(a);
	json_object_put(creds);
}

static void
test_http_leaves_a_longer_wait_to_the_runner(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_error e = { 0 };
	struct httpc_resp resp;
	struct mini m;
	char base[96], *a[] = { answer("429 Too Many Requests", "Retry-After: 30\r\n", "{}"), NULL };
	json_object *creds = json_tokener_parse("{\"api_key\":\"k-123456\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("uptimerobot", "/ur", &s, &cfg, &m, base, sizeof base, creds);
	s.pace.deadline_ms = mono_ms() + 1000;
	/* The refusal comes back to the caller, the session knowing until when. */
	assert_int_equal(pace_get(&s, &resp, &e), PROV_OK);
	assert_int_equal(resp.status, 429);
	httpc_resp_free(&resp);
	assert_true(s.pace.limited);
	assert_in_range(prov_session_wait_ms(&s), 29000, 30000);
	assert_int_equal(s.pace.refusals, 1);
	assert_true(s.pace.refused_since > 0);
	/* Asked again meanwhile: nothing is sent. */
	assert_int_equal(pace_get(&s, &resp, &e), PROV_RATE_LIMITED);
	assert_string_equal(e.message, "waiting for UptimeRobot's rate limit");
	assert_int_equal(e.retry_after, 30);
	assert_int_equal(requests_seen(mini_finish(&m)), 1);
	free_answers(a);
	json_object_put(creds);
}

static void
test_http_gives_up_after_provider_wait_max(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_error e = { 0 };
	struct httpc_resp resp;
	struct mini m;
	char base[96],
	    *a[] = { answer("429 Too Many Requests", "Retry-After: 1\r\n", "{}"),
		    answer("429 Too Many Requests", "Retry-After: 1\r\n", "{}"), answer("200 OK", "", "{}"),
		    NULL };
	json_object *creds = json_tokener_parse("{\"api_key\":\"k-123456\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("uptimerobot", "/ur", &s, &cfg, &m, base, sizeof base, creds);
	cfg.provider_wait_max = 1;
	s.pace.deadline_ms = mono_ms() + 10000;
	/* Refused, waited 1 s, refused again: a second of refusals is all that is allowed. */
	assert_int_equal(pace_get(&s, &resp, &e), PROV_OK);
	assert_int_equal(resp.status, 429);
	httpc_resp_free(&resp);
	assert_true(s.pace.gave_up);
	assert_int_equal(s.pace.refusals, 2);
	assert_int_equal(pace_get(&s, &resp, &e), PROV_RATE_LIMITED);
	assert_string_equal(e.message, "UptimeRobot kept refusing requests for its rate limit");
	assert_int_equal(requests_seen(mini_finish(&m)), 2);
	free_answers(a);
	json_object_put(creds);
}

static void
test_http_paces_and_honours_a_used_up_quota(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_error e = { 0 };
	struct httpc_resp resp;
	struct mini m;
	char base[96],
	    *a[] = { answer("200 OK", "", "{}"),
		    answer("200 OK", "X-RateLimit-Remaining: 0\r\nX-RateLimit-Reset: 1\r\n", "{}"),
		    answer("200 OK", "X-RateLimit-Remaining: 0\r\nX-RateLimit-Reset: 20\r\n", "{}"), NULL };
	json_object *creds = json_tokener_parse("{\"api_key\":\"k-123456\"}");
	int64_t t0;

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("uptimerobot", "/ur", &s, &cfg, &m, base, sizeof base, creds);
	s.pace.interval_ms = 300; /* a provider's published rate */
	s.pace.deadline_ms = mono_ms() + 10000;
	t0 = mono_ms();
	assert_int_equal(pace_get(&s, &resp, &e), PROV_OK);
	httpc_resp_free(&resp);
	assert_false(s.pace.limited); /* pacing is not the rate limit's wait */
	/* The second request comes at least the interval after the first's answer... */
	assert_int_equal(pace_get(&s, &resp, &e), PROV_OK);
	httpc_resp_free(&resp);
	assert_true(mono_ms() - t0 >= 300);
	/* ... which says the quota is used up for a second: the third waits for it. */
	assert_true(s.pace.limited);
	assert_int_equal(pace_get(&s, &resp, &e), PROV_OK);
	httpc_resp_free(&resp);
	assert_true(mono_ms() - t0 >= 1300);
	/* Used up for 20 s, past the step: the next request is held back, unsent. */
	assert_in_range(prov_session_wait_ms(&s), 19000, 20000);
	assert_int_equal(pace_get(&s, &resp, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 20);
	assert_int_equal(s.pace.refusals, 0); /* a used-up quota is no refusal */
	assert_int_equal(requests_seen(mini_finish(&m)), 3);
	free_answers(a);
	json_object_put(creds);
}

static void
test_classify_statuses(void **state)
{
	static const struct {
		long status;
		enum prov_status st;
	} cases[] = {
		{ 200, PROV_OK },
		{ 204, PROV_OK },
		{ 429, PROV_RATE_LIMITED },
		{ 420, PROV_RATE_LIMITED },
		{ 401, PROV_AUTH },
		{ 403, PROV_AUTH },
		{ 500, PROV_TRANSIENT },
		{ 502, PROV_TRANSIENT },
		{ 503, PROV_TRANSIENT },
		{ 408, PROV_TRANSIENT },
		{ 404, PROV_FATAL },
		{ 400, PROV_FATAL },
		{ 301, PROV_FATAL },
		{ 422, PROV_FATAL },
	};
	struct httpc_resp r;
	struct prov_error err;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		resp_text(&r, cases[i].status, "");
		memset(&err, 0, sizeof err);
		if (httpc_classify(&r, "Prov", "API key", &err) != cases[i].st)
			fail_msg("HTTP %ld classified wrongly", cases[i].status);
		if (cases[i].st != PROV_OK)
			assert_int_equal(err.status, cases[i].st);
		httpc_resp_free(&r);
	}
	resp_text(&r, 429, "");
	httpc_resp_set_header(&r, "Retry-After", "45");
	memset(&err, 0, sizeof err);
	assert_int_equal(httpc_classify(&r, "Prov", "API key", &err), PROV_RATE_LIMITED);
	assert_int_equal(err.retry_after, 45);
	httpc_resp_free(&r);
	resp_text(&r, 401, "");
	httpc_classify(&r, "Prov", "API key", &err);
	assert_string_equal(err.message, "Prov rejected the API key (HTTP 401)");
	httpc_resp_free(&r);
}

static void
test_form_encoding(void **state)
{
	char *f = NULL;

	(void)state;
	httpc_form_add(&f, "api_key", "u1-a b&c=d/é");
	httpc_form_add(&f, "format", "json");
	assert_string_equal(f, "api_key=u1-a%20b%26c%3Dd%2F%C3%A9&format=json");
	free(f);
}

/* ------------------------------------------------- HTTP client */

static void
test_httpc_response_and_headers(void **state)
{
	struct mini m;
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };
	char url[128];
	const char *seen;

	(void)state;
	mini_start(&m,
	    (const char *const[]){ "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nRetry-After: 17\r\n"
	                           "X-RateLimit-Remaining: 0\r\nX-Secret-Header: no\r\nContent-Length: 11\r\n"
	                           "Connection: close\r\n\r\n{\"ok\":true}",
	        NULL });
	snprintf(url, sizeof url, "http://127.0.0.1:%d/v2/getMonitors", m.port);
	req.method = "POST";
	req.url = url;
	req.body = "api_key=k&format=json";
	req.body_len = strlen(req.body);
	req.content_type = "application/x-www-form-urlencoded";
	assert_int_equal(httpc_do(&req, &resp, &err), 0);
	seen = mini_finish(&m);
	assert_int_equal(resp.status, 200);
	assert_string_equal(resp.body, "{\"ok\":true}");
	assert_string_equal(httpc_header(&resp, "retry-after"), "17");
	assert_string_equal(httpc_header(&resp, "X-RATELIMIT-REMAINING"), "0");
	assert_null(httpc_header(&resp, "x-secret-header"));
	assert_non_null(strstr(seen, "POST /v2/getMonitors HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "User-Agent: migrator/"));
	assert_non_null(strstr(seen, "Accept-Encoding: "));
	assert_non_null(strstr(seen, "Content-Type: application/x-www-form-urlencoded"));
	assert_non_null(strstr(seen, "\r\n\r\napi_key=k&format=json"));
	httpc_resp_free(&resp);
}

/* httpc_do of req for /x on a local server that gives the one answer; returns
 * what httpc_do returned (req->url is left NULL). */
static int
do_one(const char *answer, struct httpc_req *req, struct httpc_resp *resp, struct prov_error *err)
{
	struct mini m;
	char url[128];
	int rc;

	mini_start(&m, (const char *const[]){ answer, NULL });
	snprintf(url, sizeof url, "http://127.0.0.1:%d/x", m.port);
	req->url = url;
	rc = httpc_do(req, resp, err);
	mini_finish(&m);
	req->url = NULL;
	return rc;
}

static void
test_httpc_truncated_body_is_transient(void **state)
{
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };

	(void)state;
	assert_int_equal(do_one("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{\"stat\":\"ok\",", &req,
	                     &resp, &err),
	    -1);
	assert_int_equal(err.status, PROV_TRANSIENT);
	assert_null(resp.body);
}

static void
test_httpc_body_cap_is_fatal(void **state)
{
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };
	char *big;

	(void)state;
	big = xmalloc(9000);
	snprintf(big, 9000, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n");
	memset(big + strlen(big), 'x', 5000);
	big[strlen("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n") + 5000] = '\0';
	req.max_body = 1000;
	assert_int_equal(do_one(big, &req, &resp, &err), -1);
	free(big);
	assert_int_equal(err.status, PROV_FATAL);
	assert_non_null(strstr(err.message, "larger than 1000 bytes"));
}

static void
test_httpc_timeout_is_transient(void **state)
{
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };

	(void)state;
	req.timeout_s = 1;
	assert_int_equal(do_one(MINI_SLOW "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", &req, &resp,
	                     &err),
	    -1);
	assert_int_equal(err.status, PROV_TRANSIENT);
	assert_non_null(strstr(err.message, "in time"));
}

static void
test_httpc_redirect_not_followed(void **state)
{
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };

	(void)state;
	assert_int_equal(do_one("HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/latest/meta-data/\r\n"
	                        "Content-Length: 0\r\n\r\n",
	                     &req, &resp, &err),
	    0);
	assert_int_equal(resp.status, 302);
	assert_int_equal(httpc_classify(&resp, "Prov", "API key", &err), PROV_FATAL);
	httpc_resp_free(&resp);
}

/* The server closes every connection, so each hop is a new connection. */
#define REDIRECT_TO(code, loc) \
	"HTTP/1.1 " code "\r\nLocation: " loc "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
#define OK_EMPTY "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"

/* providers.md §12: a POST follows 301/302/307/308 on the same host with the same body. */
static void
test_httpc_redirect_same_host_keeps_post_body(void **state)
{
	static const char *const codes[] = { "301 Moved Permanently", "302 Found", "307 Temporary Redirect",
		"308 Permanent Redirect" };

	(void)state;
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		char first[160], url[128];
		struct mini m;
		struct httpc_req req = { 0 };
		struct httpc_resp resp;
		struct prov_error err = { 0 };
		const char *seen, *second;

		snprintf(first, sizeof first,
		    "HTTP/1.1 %s\r\nLocation: /v2/includes/api.php\r\nContent-Length: 0\r\n\r\n", codes[i]);
		mini_start(&m, (const char *const[]){ first, OK_EMPTY, NULL });
		snprintf(url, sizeof url, "http://127.0.0.1:%d/includes/api.php", m.port);
		req.url = url;
		req.method = "POST";
		req.body = "action=GetClients&secret=s3";
		req.body_len = strlen(req.body);
		req.content_type = "application/x-www-form-urlencoded";
		req.max_redirects = HTTPC_MAX_REDIRECTS;
		assert_int_equal(httpc_do(&req, &resp, &err), 0);
		seen = mini_finish(&m);
		assert_int_equal(resp.status, 200);
		second = strstr(seen, "=====");
		assert_non_null(second);
		assert_non_null(strstr(second, "POST /v2/includes/api.php HTTP/1.1"));
		assert_non_null(strstr(second, "action=GetClients&secret=s3"));
		httpc_resp_free(&resp);
	}
}

/* Another host, https to http, a 303 for a POST and a sixth hop all end the call. */
static void
test_httpc_redirect_refusals(void **state)
{
	static const struct {
		const char *answer, *method, *needle;
	} cases[] = {
		{ REDIRECT_TO("301 Moved Permanently", "http://localhost:1/x"), NULL,
		    "another host (http://localhost:1)" },
		{ REDIRECT_TO("302 Found", "http://169.254.169.254/latest/meta-data/"), NULL,
		    "another host" },
		{ REDIRECT_TO("303 See Other", "/elsewhere"), "POST", "HTTP 303" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct httpc_req req = { 0 };
		struct httpc_resp resp;
		struct prov_error err = { 0 };

		req.max_redirects = HTTPC_MAX_REDIRECTS;
		if (cases[i].method != NULL) {
			req.method = cases[i].method;
			req.body = "a=1";
			req.body_len = 3;
		}
		assert_int_equal(do_one(cases[i].answer, &req, &resp, &err), -1);
		assert_int_equal(err.status, PROV_FATAL);
		if (strstr(err.message, cases[i].needle) == NULL)
			fail_msg("case %zu: %s", i, err.message);
		assert_null(resp.body);
	}
	{
		const char *hop = REDIRECT_TO("302 Found", "/again");
		struct mini m;
		struct httpc_req req = { 0 };
		struct httpc_resp resp;
		struct prov_error err = { 0 };
		char url[128];

		mini_start(&m, (const char *const[]){ hop, hop, hop, hop, hop, hop, OK_EMPTY, NULL });
		snprintf(url, sizeof url, "http://127.0.0.1:%d/x", m.port);
		req.url = url;
		req.max_redirects = HTTPC_MAX_REDIRECTS;
		assert_int_equal(httpc_do(&req, &resp, &err), -1);
		mini_finish(&m);
		assert_non_null(strstr(err.message, "redirected more than 5 times"));
	}
}

/* A GET follows a 303 and five hops in all. */
static void
test_httpc_redirect_get_follows_303_and_five_hops(void **state)
{
	const char *hop = REDIRECT_TO("302 Found", "/api/v3/checks/");
	struct mini m;
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };
	char url[128];
	const char *seen;

	(void)state;
	mini_start(&m,
	    (const char *const[]){ REDIRECT_TO("303 See Other", "/api/v3/checks/"), hop, hop, hop, hop,
	        OK_EMPTY, NULL });
	snprintf(url, sizeof url, "http://127.0.0.1:%d/api/v3/checks", m.port);
	req.url = url;
	req.max_redirects = HTTPC_MAX_REDIRECTS;
	assert_int_equal(httpc_do(&req, &resp, &err), 0);
	seen = mini_finish(&m);
	assert_int_equal(resp.status, 200);
	assert_non_null(strstr(seen, "GET /api/v3/checks HTTP/1.1"));
	assert_non_null(strstr(seen, "GET /api/v3/checks/ HTTP/1.1"));
	httpc_resp_free(&resp);
}

/* The redirect policy on its own: which hop from A to Location B is made
 * (providers.md §12). Credentials travel in headers and form bodies, so any
 * change of scheme, host or port ends the call. */
static void
test_redirect_policy(void **state)
{
	static const struct {
		const char *from, *loc;
		long status;
		bool body;
		const char *needle; /* NULL: followed */
	} cases[] = {
		{ "https://api.example.com/v2/x", "/v2/y", 301, true, NULL },
		{ "https://api.example.com/v2/x", "y?page=2", 302, false, NULL },
		{ "https://api.example.com/v2/x", "HTTPS://API.Example.COM:443/v3/", 308, true, NULL },
		{ "https://[::1]:8443/a", "https://[0:0::1]:8443/b", 307, true, NULL },
		{ "https://api.example.com/x", "/elsewhere", 303, false, NULL },
		{ "https://api.example.com/x", "/elsewhere", 303, true, "HTTP 303" },
		{ "https://api.example.com/x", "http://api.example.com/x", 301, false, "from https to http" },
		/* providers.md §12: the scheme upgrade on the same host, default ports only */
		{ "http://api.example.com/x", "https://api.example.com/x", 301, true, NULL },
		{ "http://api.example.com:80/x", "HTTPS://api.example.com:443/y", 307, true, NULL },
		{ "http://api.example.com:8080/x", "https://api.example.com/x", 301, false,
		    "another scheme or port" },
		{ "http://api.example.com/x", "https://api.example.com:8443/x", 301, false,
		    "another scheme or port" },
		{ "https://api.example.com/x", "https://api.example.com:8443/x", 302, false,
		    "another scheme or port of its host (https://api.example.com:8443)" },
		{ "https://[::1]:8443/a", "https://[::1]:8444/a", 307, false, "another scheme or port" },
		{ "https://api.example.com/x", "https://evil.example/x?api_key=k", 302, false,
		    "another host (https://evil.example)" },
		{ "https://api.example.com/x", "//evil.example/x", 302, false, "another host" },
		{ "https://api.example.com/x", "https://api.example.com@evil.example/", 302, false,
		    "another host (https://evil.example)" },
		{ "https://api.example.com/x", "https://api.example.com.evil.example/", 302, false,
		    "another host" },
		{ "https://api.example.com/x", "/y", 300, false, "HTTP 300" },
		{ "https://api.example.com/x", "/y", 304, false, "HTTP 304" },
		{ "https://api.example.com/x", "https://exa mple.com/", 302, false, "not a URL" },
		{ "https://api.example.com/x", "https://api.example.com:99999/", 302, false, "not a URL" },
	};
	struct prov_error err;
	char big[HTTPC_MAX_LOCATION + 2];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc;

		memset(&err, 0, sizeof err);
		rc = httpc_redirect_allowed(cases[i].from, cases[i].status, cases[i].body, cases[i].loc,
		    strlen(cases[i].loc), &err);
		if (cases[i].needle == NULL ? rc != 0 :
		                              rc != -1 || strstr(err.message, cases[i].needle) == NULL)
			fail_msg("%s -> %s (HTTP %ld): %d \"%s\"", cases[i].from, cases[i].loc,
			    cases[i].status, rc, err.message);
		if (rc != 0)
			assert_int_equal(err.status, PROV_FATAL);
		/* never the path or query of the target */
		assert_null(strstr(err.message, "api_key"));
	}
	/* A Location of HTTPC_MAX_LOCATION bytes is judged whole; one byte more is refused. */
	memset(big, 'a', sizeof big);
	big[0] = '/';
	assert_int_equal(httpc_redirect_allowed("https://a.example/", 302, false, big, HTTPC_MAX_LOCATION,
	                     &err),
	    0);
	assert_int_equal(httpc_redirect_allowed("https://a.example/", 302, false, big, HTTPC_MAX_LOCATION + 1,
	                     &err),
	    -1);
	assert_non_null(strstr(err.message, "longer than 8192 bytes"));
	/* A NUL inside the value is not a URL curl would follow the same way. */
	assert_int_equal(httpc_redirect_allowed("https://a.example/", 302, false, "/x\0@evil.example",
	                     sizeof "/x\0@evil.example" - 1, &err),
	    -1);
	assert_non_null(strstr(err.message, "not a URL"));
	/* Bytes that are not UTF-8 in the target's host come out as '?'. */
	assert_int_equal(httpc_redirect_allowed("https://a.example/", 302, false, "https://\xff\xfe.example/",
	                     strlen("https://\xff\xfe.example/"), &err),
	    -1);
	assert_non_null(strstr(err.message, "another host (https://??.example)"));
	assert_true(utf8_valid(err.message, strlen(err.message)));
}

/* A hop to another port of the same host is never made: the second server
 * receives nothing, neither the key in the header nor the form body nor the
 * Basic credentials. */
static void
test_httpc_redirect_to_another_port_carries_no_credentials(void **state)
{
	const char *const hdrs[] = { "X-Api-Key: key-0123456789", NULL };
	struct mini a, b;
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };
	char url[128], *hop, seen_a[4096];

	(void)state;
	mini_start(&b, (const char *const[]){ OK_EMPTY, NULL });
	hop = xasprintf(REDIRECT_TO("307 Temporary Redirect", "http://127.0.0.1:%d/v2/getMonitors"), b.port);
	mini_start(&a, (const char *const[]){ hop, OK_EMPTY, NULL });
	snprintf(url, sizeof url, "http://127.0.0.1:%d/v2/getMonitors", a.port);
	req.url = url;
	req.method = "POST";
	req.body = "api_key=key-0123456789&format=json";
	req.body_len = strlen(req.body);
	req.headers = hdrs;
	req.userpwd = "user:pw-0123456789";
	req.max_redirects = HTTPC_MAX_REDIRECTS;
	assert_int_equal(httpc_do(&req, &resp, &err), -1);
	snprintf(seen_a, sizeof seen_a, "%s", mini_finish(&a));
	assert_string_equal(mini_finish(&b), "");
	assert_int_equal(err.status, PROV_FATAL);
	assert_non_null(strstr(err.message, "another scheme or port"));
	assert_non_null(strstr(seen_a, "api_key=key-0123456789")); /* the first server had them */
	free(hop);
}

/* A Location of 300 and of 5,000 bytes is followed whole, never cut; one
 * over HTTPC_MAX_LOCATION ends the call before a second request. */
static void
test_httpc_redirect_long_location_is_whole(void **state)
{
	static const size_t sizes[] = { 300, 5000, HTTPC_MAX_LOCATION + 1 };

	(void)state;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		char *path = xmalloc(sizes[i] + 1), *hop, *line;
		struct mini m;
		struct httpc_req req = { 0 };
		struct httpc_resp resp;
		struct prov_error err = { 0 };
		char url[128];
		const char *seen;

		memset(path, 'p', sizes[i]);
		memcpy(path, "/v2/", 4);
		path[sizes[i]] = '\0';
		hop = xasprintf(REDIRECT_TO("302 Found", "%s"), path);
		mini_start(&m, (const char *const[]){ hop, OK_EMPTY, NULL });
		snprintf(url, sizeof url, "http://127.0.0.1:%d/x", m.port);
		req.url = url;
		req.max_redirects = HTTPC_MAX_REDIRECTS;
		line = xasprintf("GET %s HTTP/1.1\r\n", path);
		if (sizes[i] <= HTTPC_MAX_LOCATION) {
			assert_int_equal(httpc_do(&req, &resp, &err), 0);
			seen = mini_finish(&m);
			assert_int_equal(resp.status, 200);
			assert_non_null(strstr(seen, line));
			httpc_resp_free(&resp);
		} else {
			assert_int_equal(httpc_do(&req, &resp, &err), -1);
			seen = mini_finish(&m);
			assert_non_null(strstr(err.message, "longer than 8192 bytes"));
			assert_null(strstr(seen, "GET /v2/"));
		}
		free(line);
		free(hop);
		free(path);
	}
}

/* One timeout for the whole request: three hops of 0.9 s each pass a 2 s
 * timeout in all, though each alone is well within it. */
static void
test_httpc_redirect_chain_shares_one_timeout(void **state)
{
	struct mini m;
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };
	char url[128];

	(void)state;
	mini_start(&m,
	    (const char *const[]){ MINI_DELAY(900) REDIRECT_TO("302 Found", "/b"),
	        MINI_DELAY(900) REDIRECT_TO("302 Found", "/c"), MINI_DELAY(900) OK_EMPTY, NULL });
	snprintf(url, sizeof url, "http://127.0.0.1:%d/a", m.port);
	req.url = url;
	req.timeout_s = 2;
	req.max_redirects = HTTPC_MAX_REDIRECTS;
	assert_int_equal(httpc_do(&req, &resp, &err), -1);
	mini_finish(&m);
	assert_int_equal(err.status, PROV_TRANSIENT);
	assert_non_null(strstr(err.message, "did not answer in time"));
}

/* The guard checks the address of every connection, a redirect hop's too.
 * The hop stays on the host (the policy allows no other), so only DNS can
 * lead it elsewhere: the wrapper below plays a name that resolves to a
 * public address first and to a loopback one from the second connection on
 * (DNS rebinding), by judging those under a strict guard. */
static int rebind_from; /* 0: off; n: connection n onwards is judged strictly */
static int rebind_seen;

bool __real_urlguard_addr_allowed(const struct urlguard *, const struct sockaddr *, size_t);
bool __wrap_urlguard_addr_allowed(const struct urlguard *, const struct sockaddr *, size_t);

bool
__wrap_urlguard_addr_allowed(const struct urlguard *g, const struct sockaddr *sa, size_t salen)
{
	static const struct urlguard strict = { true, false };

	if (rebind_from > 0 && ++rebind_seen >= rebind_from)
		g = &strict;
	return __real_urlguard_addr_allowed(g, sa, salen);
}

static void
test_httpc_redirect_hop_address_is_guarded(void **state)
{
	struct urlguard g = { true, true };
	struct mini m;
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };
	char url[128];
	const char *seen;

	(void)state;
	mini_start(&m, (const char *const[]){ REDIRECT_TO("302 Found", "/next"), OK_EMPTY, NULL });
	snprintf(url, sizeof url, "http://127.0.0.1:%d/first", m.port);
	req.url = url;
	req.guard = &g;
	req.max_redirects = HTTPC_MAX_REDIRECTS;
	rebind_from = 2;
	rebind_seen = 0;
	assert_int_equal(httpc_do(&req, &resp, &err), -1);
	rebind_from = 0;
	seen = mini_finish(&m);
	assert_int_equal(rebind_seen, 2);
	assert_int_equal(err.status, PROV_FATAL);
	assert_non_null(strstr(err.message, "loopback address, which is not allowed"));
	assert_non_null(strstr(seen, "GET /first "));
	assert_null(strstr(seen, "GET /next "));
}

/* A redirect to a host that is not UTF-8 ends the call with a clean message
 * (it is stored as the run's error). */
static void
test_httpc_redirect_invalid_utf8_host_is_clean(void **state)
{
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };

	(void)state;
	req.max_redirects = HTTPC_MAX_REDIRECTS;
	assert_int_equal(do_one(REDIRECT_TO("301 Moved Permanently", "http://\xff\xfe.example/x"), &req,
	                     &resp, &err),
	    -1);
	assert_int_equal(err.status, PROV_FATAL);
	assert_true(utf8_valid(err.message, strlen(err.message)));
	assert_non_null(strstr(err.message, "another host (http://??.example)"));
}

static void
test_httpc_guard_refuses_resolved_loopback(void **state)
{
	struct urlguard g = { true, false };
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };
	struct mini m;
	char url[128];
	const char *seen;

	(void)state;
	/* A server is listening, yet no connection may reach it. */
	mini_start(&m, (const char *const[]){ "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", NULL });
	snprintf(url, sizeof url, "http://localhost:%d/x", m.port);
	req.url = url;
	req.guard = &g;
	assert_int_equal(httpc_do(&req, &resp, &err), -1);
	assert_int_equal(err.status, PROV_FATAL);
	assert_non_null(strstr(err.message, "loopback"));
	snprintf(url, sizeof url, "http://127.0.0.1:%d/x", m.port);
	assert_int_equal(httpc_do(&req, &resp, &err), -1);
	assert_non_null(strstr(err.message, "loopback"));
	snprintf(url, sizeof url, "http://[::ffff:127.0.0.1]:%d/x", m.port);
	assert_int_equal(httpc_do(&req, &resp, &err), -1);
	assert_int_equal(err.status, PROV_FATAL);

	/* The admin allows private addresses: the same request goes through. */
	g.allow_private = true;
	snprintf(url, sizeof url, "http://127.0.0.1:%d/x", m.port);
	assert_int_equal(httpc_do(&req, &resp, &err), 0);
	seen = mini_finish(&m);
	assert_int_equal(resp.status, 200);
	assert_non_null(strstr(seen, "GET /x "));
	httpc_resp_free(&resp);
}

static void
test_httpc_guard_https_only(void **state)
{
	struct urlguard g = { false, true };
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };

	(void)state;
	req.url = "http://127.0.0.1:9/x";
	req.guard = &g;
	assert_int_equal(httpc_do(&req, &resp, &err), -1);
	assert_int_equal(err.status, PROV_FATAL);
	assert_non_null(strstr(err.message, "scheme"));
}

/* ----------------------------------------------------------- common helpers */

/* Numbers a provider may send that do not fit, or are not whole: refused,
 * never wrapped or clamped (json-c stores any integer past int64 as
 * INT64_MIN/INT64_MAX, so those are refused too). */
/* prov_unread: keys add up once each, reasons join once each. */
static void
test_unread_adds_up(void **state)
{
	static const char *const a[] = { "url", "keyword", NULL },
	                         *const b[] = { "keyword", "contact_ids", NULL };
	json_object *norm = json_object_new_object();

	(void)state;
	prov_unread(norm, "its details could not be read (HTTP 503)", a);
	prov_unread(norm, "the contacts could not be read", b);
	prov_unread(norm, "the contacts could not be read", b);
	assert_string_equal(json_object_to_json_string_ext(norm, JSON_C_TO_STRING_PLAIN),
	    "{\"unread\":{\"keys\":[\"url\",\"keyword\",\"contact_ids\"],\"why\":\"its details could not "
	    "be read (HTTP 503); the contacts could not be read\"}}");
	json_object_put(norm);
}

static void
test_json_int_refuses_huge_fractional_and_exponent_numbers(void **state)
{
	json_object *o = json_tokener_parse(
	    "{\"huge\":99999999999999999999,\"u64\":18446744073709551615,"
	    "\"max\":9223372036854775807,\"min\":-9223372036854775808,\"neghuge\":-99999999999999999999,"
	    "\"near\":9223372036854775806,\"neg\":-5,\"frac\":1.5,\"exp\":1e3,\"expfrac\":1.5e-3,"
	    "\"inf\":1e400,\"bigdbl\":1e16,\"s_max\":\"9223372036854775807\",\"s_over\":\"9223372036854775808\","
	    "\"s_near\":\"-9223372036854775807\",\"s_frac\":\"1.5\",\"s_exp\":\"1e3\",\"s_neg\":\"-7\","
	    "\"s_plus\":\"+7\",\"s_hex\":\"0x10\"}");
	static const char *const refused[] = { "huge", "u64", "max", "min", "neghuge", "frac", "expfrac",
		"inf", "bigdbl", "s_max", "s_over", "s_frac", "s_exp", "s_plus", "s_hex" };
	char id[64];
	int64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		v = 12345;
		assert_false(prov_get_int(o, refused[i], &v));
		assert_int_equal(v, 12345); /* untouched */
		assert_int_equal(prov_int_or(o, refused[i], -1), -1);
	}
	/* two different huge ids are not one saturated id */
	assert_int_equal(prov_get_id(o, "huge", id, sizeof id), -1);
	assert_int_equal(prov_get_id(o, "u64", id, sizeof id), -1);
	assert_true(prov_get_int(o, "near", &v));
	assert_int_equal(v, INT64_MAX - 1);
	assert_true(prov_get_int(o, "s_near", &v));
	assert_int_equal(v, INT64_MIN + 1);
	assert_true(prov_get_int(o, "exp", &v)); /* an integral double */
	assert_int_equal(v, 1000);
	assert_true(prov_get_int(o, "neg", &v));
	assert_int_equal(v, -5);
	assert_true(prov_get_int(o, "s_neg", &v));
	assert_int_equal(v, -7);
	/* the range helper: in range, or the default */
	assert_true(prov_get_int_in(o, "exp", 0, 1000, &v));
	assert_false(prov_get_int_in(o, "exp", 0, 999, &v));
	assert_false(prov_get_int_in(o, "neg", 0, INT32_MAX, &v));
	assert_false(prov_get_int_in(o, "near", 0, INT32_MAX, &v));
	assert_false(prov_get_int_in(o, "huge", INT64_MIN, INT64_MAX, &v));
	assert_int_equal(prov_int_in_or(o, "near", 0, TIME_MAX, 7), 7);
	assert_int_equal(prov_int_in_or(o, "s_neg", -10, 10, 7), -7);
	assert_int_equal(prov_int_in_or(o, "absent", 0, 10, 7), 7);
	json_object_put(o);
}

/* Times in provider JSON: unix seconds as a number or a numeric string
 * (UptimeRobot create_datetime, Pingdom from/to: providers.md §1.2, §2.2),
 * or text the one parser reads. */
static void
test_json_times(void **state)
{
	json_object *o =
	    json_tokener_parse("{\"n\":1497520800,\"s\":\"1497520800\",\"neg\":-1,"
	                       "\"big\":253402300800,\"frac\":1.5,\"iso\":\"2026-12-01T01:00:00Z\","
	                       "\"bad\":\"2026-12-01T01:00:00Z!\",\"null\":null}");
	int64_t t = 42;

	(void)state;
	assert_true(prov_get_time(o, "n", TIME_EPOCH, NULL, &t));
	assert_int_equal(t, 1497520800);
	t = 0;
	assert_true(prov_get_time(o, "s", TIME_EPOCH, NULL, &t));
	assert_int_equal(t, 1497520800);
	assert_true(prov_get_time(o, "iso", TIME_OFFSET, NULL, &t));
	assert_int_equal(t, 1796086800);
	t = 42;
	assert_false(prov_get_time(o, "n", TIME_ISO, NULL, &t)); /* a number only as unix seconds */
	assert_false(prov_get_time(o, "s", TIME_ISO, NULL, &t));
	assert_false(prov_get_time(o, "iso", TIME_EPOCH, NULL, &t));
	assert_false(prov_get_time(o, "neg", TIME_EPOCH, NULL, &t));
	assert_false(prov_get_time(o, "big", TIME_EPOCH, NULL, &t));
	assert_false(prov_get_time(o, "frac", TIME_EPOCH, NULL, &t));
	assert_false(prov_get_time(o, "bad", TIME_ISO, NULL, &t));
	assert_false(prov_get_time(o, "null", TIME_EPOCH | TIME_ISO, NULL, &t));
	assert_false(prov_get_time(o, "absent", TIME_EPOCH | TIME_ISO, NULL, &t));
	assert_int_equal(t, 42);
	json_object_put(o);
}

static void
test_json_readers_tolerate_provider_quirks(void **state)
{
	json_object *o = json_tokener_parse(
	    "{\"a\":\"80\",\"b\":80,\"c\":\"\",\"d\":null,\"e\":80.0,"
	    "\"f\":80.5,\"g\":\" 80\",\"h\":\"true\",\"i\":1,\"j\":\"0993765\",\"k\":777749809,"
	    "\"l\":\"bad\\u0001id\",\"m\":[1,\"2\",{\"id\":\"3\"},null,true],\"n\":\"  \"}");
	json_object *ids;
	int64_t v;
	char id[64];

	(void)state;
	assert_true(prov_get_int(o, "a", &v));
	assert_int_equal(v, 80);
	assert_true(prov_get_int(o, "b", &v));
	assert_true(prov_get_int(o, "e", &v));
	assert_int_equal(v, 80);
	assert_false(prov_get_int(o, "c", &v));
	assert_false(prov_get_int(o, "d", &v));
	assert_false(prov_get_int(o, "f", &v));
	assert_false(prov_get_int(o, "g", &v));
	assert_false(prov_get_int(o, "zz", &v));
	assert_int_equal(prov_int_or(o, "c", 42), 42);
	assert_true(prov_get_bool(o, "h", false));
	assert_true(prov_get_bool(o, "i", false));
	assert_true(prov_get_bool(o, "zz", true));
	assert_int_equal(prov_get_id(o, "j", id, sizeof id), 0);
	assert_string_equal(id, "0993765"); /* leading zeros kept */
	assert_int_equal(prov_get_id(o, "k", id, sizeof id), 0);
	assert_string_equal(id, "777749809");
	assert_int_equal(prov_get_id(o, "l", id, sizeof id), -1);
	assert_int_equal(prov_get_id(o, "c", id, sizeof id), -1);
	assert_int_equal(prov_get_id(o, "k", id, 5), -1);
	assert_null(prov_get_text(o, "n", 100));
	assert_null(prov_get_text(o, "c", 100));
	assert_string_equal(prov_get_str(o, "c", 100), "");
	assert_null(prov_get_str(o, "j", 3));
	ids = prov_id_list(prov_get_array(o, "m"), "id");
	assert_string_equal(json_object_to_json_string(ids), "[ \"1\", \"2\", \"3\" ]");
	json_object_put(ids);
	json_object_put(o);
}

static void
test_cursor_parse_and_make(void **state)
{
	static const char *const phases[] = { "monitors", "contacts", NULL };
	size_t ph;
	int64_t pos;
	char *c;

	(void)state;
	assert_int_equal(prov_cursor_parse(NULL, phases, 1, &ph, &pos), 0);
	assert_int_equal(ph, 0);
	assert_int_equal(pos, 1);
	assert_int_equal(prov_cursor_parse("contacts:150", phases, 0, &ph, &pos), 0);
	assert_int_equal(ph, 1);
	assert_int_equal(pos, 150);
	assert_int_equal(prov_cursor_parse("contact:1", phases, 0, &ph, &pos), -1);
	assert_int_equal(prov_cursor_parse("contacts:-1", phases, 0, &ph, &pos), -1);
	assert_int_equal(prov_cursor_parse("contacts:1x", phases, 0, &ph, &pos), -1);
	assert_int_equal(prov_cursor_parse("contacts:", phases, 0, &ph, &pos), -1);
	assert_int_equal(prov_cursor_parse("contacts", phases, 0, &ph, &pos), -1);
	assert_int_equal(prov_cursor_parse("", phases, 0, &ph, &pos), -1);
	assert_int_equal(prov_cursor_parse("monitors:99999999999", phases, 0, &ph, &pos), -1);
	c = prov_cursor_make("monitors", 50);
	assert_string_equal(c, "monitors:50");
	free(c);
}

static void
test_scrub_removes_credentials(void **state)
{
	static const struct provider_def def = { .id = "x", .url_field = "url" };
	struct prov_session s = { 0 };
	char text[256], small[40];

	(void)state;
	s.def = &def;
	s.creds = json_tokener_parse("{\"api_key\":\"u12345-abcdef\",\"api_secret\":\"p@ss w/rd\","
	                             "\"url\":\"https://billing.example.com\",\"pin\":\"12\"}");
	snprintf(text, sizeof text,
	    "bad key u12345-abcdef at https://billing.example.com; "
	    "form api_secret=p%%40ss%%20w%%2Frd; again u12345-abcdef; pin 12");
	prov_scrub(&s, text, sizeof text);
	assert_null(strstr(text, "u12345-abcdef"));
	assert_null(strstr(text, "p%40ss"));
	assert_non_null(strstr(text, "bad key [redacted]"));
	assert_non_null(strstr(text, "https://billing.example.com")); /* the URL is not a secret */
	assert_non_null(strstr(text, "pin 12"));                      /* too short to scrub sanely */

	json_object_put(s.creds);

	/* The marker is longer than this secret: cutting the grown text to the
	 * buffer never leaves the start of a secret behind. */
	s.creds = json_tokener_parse("{\"api_key\":\"abcd1234\"}");
	snprintf(small, sizeof small, "abcd1234 abcd1234 abcd1234 abcd1234 xyz");
	prov_scrub(&s, small, sizeof small);
	assert_null(strstr(small, "abcd"));
	assert_int_equal(strncmp(small, "[redacted] [redacted] [redacted] [redac", 39), 0);
	json_object_put(s.creds);
}

static void
test_copy_text_and_body_message(void **state)
{
	struct httpc_resp r;
	char buf[64];

	(void)state;
	prov_copy_text(buf, sizeof buf, "  api_key\n\tnot\x01 found.\xc3\xa9 ");
	assert_string_equal(buf, "api_key not? found.é"); /* UTF-8 kept, control characters not */
	resp_text(&r, 401, "{\"error\":{\"statuscode\":401,\"errormessage\":\"Invalid token\"}}");
	prov_body_message(&r, buf, sizeof buf);
	assert_string_equal(buf, "Invalid token");
	httpc_resp_free(&r);
	resp_text(&r, 401, "{\"errors\":\"Invalid Team API token.\"}");
	prov_body_message(&r, buf, sizeof buf);
	assert_string_equal(buf, "Invalid Team API token.");
	httpc_resp_free(&r);
	resp_text(&r, 500, "<html>oops</html>");
	prov_body_message(&r, buf, sizeof buf);
	assert_string_equal(buf, "");
	httpc_resp_free(&r);
}

static struct config_kv testprov_kv[4];

/* A config for testprov with base_url and timeout (NULL: unset). */
static void
cfg_testprov(struct config *c, const char *base_url, const char *timeout)
{
	size_t n = 0;

	memset(c, 0, sizeof *c);
	if (base_url != NULL)
		testprov_kv[n++] = (struct config_kv){ "provider.testprov", "base_url", (char *)base_url };
	if (timeout != NULL)
		testprov_kv[n++] = (struct config_kv){ "provider.testprov", "timeout", (char *)timeout };
	c->kv = testprov_kv;
	c->nkv = n;
}

/* clang-format off */
static const struct provider_def testprov_url = {
	.id = "testprov", .name = "Testprov", .required = (const char *const[]){ "api_key", NULL }, .optional = (const char *const[]){ NULL },
	.url_field = "base_url", .imports = (const char *const[]){ "monitor", NULL }, .ops = &updown_ops };
static const struct provider_def testprov_default = {
	.id = "testprov", .name = "Testprov", .default_base_url = "https://api.example.com/",
	.required = (const char *const[]){ "api_key", NULL }, .optional = (const char *const[]){ NULL },
	.imports = (const char *const[]){ "monitor", NULL }, .ops = &updown_ops };

static void
test_session_init_sources(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_error err;
	json_object *creds = json_tokener_parse("{\"api_key\":\"k-1234\",\"base_url\":\"https://hc.example.org/\"}");
	json_object *http_creds = json_tokener_parse("{\"api_key\":\"k\",\"base_url\":\"http://hc.example.org\"}");

	(void)state;
	/* The admin's base_url wins, keeps its path prefix, loses trailing slashes. */
	cfg_testprov(&cfg, "http://127.0.0.1:9000/uptimerobot//", "5");
	assert_int_equal(prov_session_init(&s, &testprov_url, &cfg, creds, &err), 0);
	assert_string_equal(s.base_url, "http://127.0.0.1:9000/uptimerobot");
	assert_false(s.base_url_untrusted);
	assert_int_equal(s.timeout_s, 5);

	/* Else the user's URL field: untrusted. */
	cfg_testprov(&cfg, NULL, "bogus");
	assert_int_equal(prov_session_init(&s, &testprov_url, &cfg, creds, &err), 0);
	assert_string_equal(s.base_url, "https://hc.example.org");
	assert_true(s.base_url_untrusted);
	assert_int_equal(s.timeout_s, PROV_DEFAULT_TIMEOUT);

	/* An http URL from a user only when the admin allows it. */
	assert_int_equal(prov_session_init(&s, &testprov_url, &cfg, http_creds, &err), -1);
	assert_int_equal(err.status, PROV_FATAL);
	assert_non_null(strstr(err.message, "only https"));
	cfg.allow_http_urls = true;
	assert_int_equal(prov_session_init(&s, &testprov_url, &cfg, http_creds, &err), 0);

	/* Else the default. */
	cfg_testprov(&cfg, NULL, NULL);
	assert_int_equal(prov_session_init(&s, &testprov_default, &cfg, creds, &err), 0);
	assert_string_equal(s.base_url, "https://api.example.com");
	assert_false(s.base_url_untrusted);

	/* No URL anywhere. */
	json_object_object_del(creds, "base_url");
	assert_int_equal(prov_session_init(&s, &testprov_url, &cfg, creds, &err), -1);
	json_object_put(creds);
	json_object_put(http_creds);
}

static void
test_page_warn_and_free(void **state)
{
	struct prov_page p = { 0 };

	(void)state;
	for (int i = 0; i < PROV_MAX_WARNINGS + 20; i++)
		prov_page_warn(&p, "warning %d", i);
	assert_int_equal(p.nwarnings, PROV_MAX_WARNINGS + 1);
	assert_string_equal(p.warnings[0], "warning 0");
	assert_non_null(strstr(p.warnings[PROV_MAX_WARNINGS], "left out"));
	prov_page_add(&p, "monitor", "1", json_object_new_object(), json_object_new_object());
	prov_page_free(&p);
	assert_int_equal(p.n, 0);
	assert_null(p.items);
}

/* ------------------------------------------------- guarded fetches */

static void
test_fetch_untrusted_url_is_guarded(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	const char *seen;
	json_object *creds;

	(void)state;
	mini_start(&m, (const char *const[]){ "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n[]", NULL });
	snprintf(base, sizeof base, "{\"api_key\":\"k-123456\",\"base_url\":\"http://127.0.0.1:%d/hc\"}", m.port);
	creds = json_tokener_parse(base);
	cfg_testprov(&cfg, NULL, NULL);
	cfg.allow_http_urls = true;
	assert_int_equal(prov_session_init(&s, &testprov_url, &cfg, creds, &e), 0);
	assert_true(s.base_url_untrusted);
	/* A user's URL on the loopback address: refused at connect time. */
	assert_int_equal(testprov_url.ops->fetch(&s, NULL, &p, &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "loopback address, which is not allowed"));
	prov_page_free(&p);
	/* The test config allows private addresses (the fakes run on 127.0.0.1). */
	cfg.allow_private_urls = true;
	assert_int_equal(testprov_url.ops->fetch(&s, NULL, &p, &e), PROV_OK);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /hc/api/checks "));
	assert_non_null(strstr(seen, "X-API-KEY: k-123456"));
	prov_page_free(&p);
	json_object_put(creds);
}

static void
test_registry_wires_adapters(void **state)
{
	static const char *const done[] = { "uptimerobot", "pingdom", "statuscake", "better_stack", "updown" };

	(void)state;
	for (size_t i = 0; i < sizeof done / sizeof done[0]; i++) {
		const struct provider_def *d = provider_find(done[i]);

		assert_non_null(d);
		if (d->ops == NULL || d->ops->fetch == NULL)
			fail_msg("%s has no discovery ops", done[i]);
	}
}

#define HC_KEY "hc-test-key-0123456789abcdefghij" /* 32 characters, like a real key */


/* ------------------------------------------- user URLs, sessions, registry */

static enum prov_status
fetch_with(const char *id, const struct config *cfg, const char *credtext, struct prov_error *e)
{
	const struct provider_def *def = provider_find(id);
	struct prov_session s;
	struct prov_page p = { 0 };
	json_object *creds = json_tokener_parse(credtext);
	enum prov_status st;

	assert_non_null(creds);
	memset(e, 0, sizeof *e);
	if (prov_session_init(&s, def, cfg, creds, e) != 0) {
		json_object_put(creds);
		return e->status;
	}
	assert_true(s.base_url_untrusted);
	st = def->ops->fetch(&s, NULL, &p, e);
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	json_object_put(creds);
	return st;
}

static void
test_user_urls_are_guarded(void **state)
{
	struct config cfg;
	struct prov_error e;

	(void)state;
	cfg_init(&cfg, "whmcs", NULL);
	cfg.allow_http_urls = true;  /* only private addresses are refused here */

	/* Loopback (no server needed: the address is refused before connecting). */
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"http://127.0.0.1:9/billing\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "loopback address, which is not allowed"));
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"http://localhost:9/billing\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "loopback"));
	/* The cloud metadata address. */
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"https://169.254.169.254/\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "link-local address, which is not allowed"));
	assert_int_equal(fetch_with("healthchecks", &cfg, "{\"api_key\":\"" HC_KEY "\","
	    "\"base_url\":\"https://169.254.169.254/\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "link-local address, which is not allowed"));
	assert_int_equal(fetch_with("healthchecks", &cfg, "{\"api_key\":\"" HC_KEY "\","
	    "\"base_url\":\"http://10.1.2.3:8000\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "private address, which is not allowed"));

	/* http only when the admin allows it. */
	cfg.allow_http_urls = false;
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"http://billing.example.com\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "The url URL is not allowed: only https"));
	assert_int_equal(fetch_with("healthchecks", &cfg, "{\"api_key\":\"" HC_KEY "\","
	    "\"base_url\":\"http://127.0.0.1:8000\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "The base_url URL is not allowed: only https"));
	/* Nor user names, queries or fragments in a URL. */
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"https://admin:pw@billing.example.com\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"https://billing.example.com/?x=1\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
}

static void
test_sessions_without_user_urls(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_error e;
	json_object *hc = json_tokener_parse("{\"api_key\":\"" HC_KEY "\"}");
	json_object *wh = json_tokener_parse("{\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}");

	(void)state;
	/* Healthchecks without base_url: the SaaS, trusted. */
	cfg_init(&cfg, "healthchecks", NULL);
	assert_int_equal(prov_session_init(&s, provider_find("healthchecks"), &cfg, hc, &e), 0);
	assert_string_equal(s.base_url, "https://healthchecks.io");
	assert_false(s.base_url_untrusted);
	/* WHMCS has no default: the url credential is needed. */
	cfg_init(&cfg, "whmcs", NULL);
	assert_int_equal(prov_session_init(&s, provider_find("whmcs"), &cfg, wh, &e), -1);
	assert_int_equal(e.status, PROV_FATAL);
	assert_non_null(strstr(e.message, "needs the url credential field"));
	/* Unless the admin set one (an intranet installation): trusted. */
	cfg_init(&cfg, "whmcs", "http://10.0.0.5/whmcs/");
	assert_int_equal(prov_session_init(&s, provider_find("whmcs"), &cfg, wh, &e), 0);
	assert_string_equal(s.base_url, "http://10.0.0.5/whmcs");
	assert_false(s.base_url_untrusted);
	json_object_put(hc);
	json_object_put(wh);
}

static void
test_fetch_refuses_missing_credentials(void **state)
{
	static const struct {
		const char *id, *creds, *needle;
	} cases[] = {
		{ "healthchecks", "{\"api_key\":\"\"}", "no usable api_key" },
		{ "cronitor", "{\"api_key\":\"bad\\nkey\"}", "no usable api_key" },
		{ "statuspage", "{}", "no usable api_key" },
		{ "whmcs", "{\"url\":\"https://billing.example.com\",\"api_identifier\":\"id-1\"}",
		  "no usable api_identifier and api_secret" },
	};
	struct config cfg;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct provider_def *def = provider_find(cases[i].id);
		struct prov_session s;
		struct prov_page p = { 0 };
		struct prov_error e = { 0 };
		json_object *creds = json_tokener_parse(cases[i].creds);

		cfg_init(&cfg, cases[i].id, NULL);
		assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
		assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_AUTH);
		if (strstr(e.message, cases[i].needle) == NULL)
			fail_msg("%s: \"%s\"", cases[i].id, e.message);
		/* A checkpoint from another adapter is refused, not misread. */
		assert_int_equal(def->ops->fetch(&s, "psps:0", &p, &e), PROV_FATAL);
		prov_page_free(&p);
		json_object_put(creds);
	}
}

static void
test_registry_wires_all_adapters(void **state)
{
	(void)state;
	for (size_t i = 0; provider_list[i] != NULL; i++)
		if (provider_list[i]->ops == NULL || provider_list[i]->ops->fetch == NULL)
			fail_msg("%s has no discovery ops", provider_list[i]->id);
	assert_ptr_equal(provider_find("healthchecks")->ops, &healthchecks_ops);
	assert_ptr_equal(provider_find("cronitor")->ops, &cronitor_ops);
	assert_ptr_equal(provider_find("statuspage")->ops, &statuspage_ops);
	assert_ptr_equal(provider_find("whmcs")->ops, &whmcs_ops);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dropped_by_the_field_table),
		cmocka_unit_test(test_mapped_by_the_field_table),
		cmocka_unit_test(test_status_page_history_helpers),
		cmocka_unit_test(test_urlguard_blocks_private_classes),
		cmocka_unit_test(test_urlguard_allows_public),
		cmocka_unit_test(test_urlguard_addr_allowed),
		cmocka_unit_test(test_urlguard_check_url),
		cmocka_unit_test(test_retry_after_seconds_and_dates),
		cmocka_unit_test(test_wait_hint_sources),
		cmocka_unit_test(test_pace_refusal_waits),
		cmocka_unit_test(test_http_waits_out_a_refusal_within_the_step),
		cmocka_unit_test(test_http_leaves_a_longer_wait_to_the_runner),
		cmocka_unit_test(test_http_gives_up_after_provider_wait_max),
		cmocka_unit_test(test_http_paces_and_honours_a_used_up_quota),
		cmocka_unit_test(test_classify_statuses),
		cmocka_unit_test(test_form_encoding),
		cmocka_unit_test(test_httpc_response_and_headers),
		cmocka_unit_test(test_httpc_truncated_body_is_transient),
		cmocka_unit_test(test_httpc_body_cap_is_fatal),
		cmocka_unit_test(test_httpc_timeout_is_transient),
		cmocka_unit_test(test_httpc_redirect_not_followed),
		cmocka_unit_test(test_httpc_redirect_same_host_keeps_post_body),
		cmocka_unit_test(test_httpc_redirect_refusals),
		cmocka_unit_test(test_httpc_redirect_get_follows_303_and_five_hops),
		cmocka_unit_test(test_redirect_policy),
		cmocka_unit_test(test_httpc_redirect_to_another_port_carries_no_credentials),
		cmocka_unit_test(test_httpc_redirect_long_location_is_whole),
		cmocka_unit_test(test_httpc_redirect_chain_shares_one_timeout),
		cmocka_unit_test(test_httpc_redirect_hop_address_is_guarded),
		cmocka_unit_test(test_httpc_redirect_invalid_utf8_host_is_clean),
		cmocka_unit_test(test_httpc_guard_refuses_resolved_loopback),
		cmocka_unit_test(test_httpc_guard_https_only),
		cmocka_unit_test(test_json_times),
		cmocka_unit_test(test_json_readers_tolerate_provider_quirks),
		cmocka_unit_test(test_unread_adds_up),
		cmocka_unit_test(test_json_int_refuses_huge_fractional_and_exponent_numbers),
		cmocka_unit_test(test_cursor_parse_and_make),
		cmocka_unit_test(test_scrub_removes_credentials),
		cmocka_unit_test(test_copy_text_and_body_message),
		cmocka_unit_test(test_session_init_sources),
		cmocka_unit_test(test_page_warn_and_free),
		cmocka_unit_test(test_fetch_untrusted_url_is_guarded),
		cmocka_unit_test(test_registry_wires_adapters),
		cmocka_unit_test(test_user_urls_are_guarded),
		cmocka_unit_test(test_sessions_without_user_urls),
		cmocka_unit_test(test_fetch_refuses_missing_credentials),
		cmocka_unit_test(test_registry_wires_all_adapters),
	};

	return PROVTEST_RUN(tests);
}

/* clang-format on */