/* Unit tests of the provider layer: the URL guard, the HTTP client's
 * retry/limit headers and error mapping (against a one-shot local server),
 * the common helpers and session set-up, and every adapter's parse function
 * on recorded-shape fixtures (tests/unit/fixtures/<provider>/). */
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
#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"
#include "providers/httpc.h"
#include "providers/provider.h"
#include "providers/urlguard.h"

#include "provtest.h"

/* ---------------------------------------------------------- URL guard */

static void
test_urlguard_blocks_private_classes(void **state)
{
	static const struct {
		const char *ip, *cls;
	} blocked[] = {
		{ "127.0.0.1", "loopback" }, { "127.1.2.3", "loopback" }, { "::1", "loopback" },
		{ "10.0.0.1", "private" }, { "10.255.255.255", "private" },
		{ "192.168.1.1", "private" }, { "172.16.0.1", "private" }, { "172.31.255.254", "private" },
		{ "100.64.0.1", "shared (CGNAT)" }, { "100.127.255.255", "shared (CGNAT)" },
		{ "169.254.169.254", "link-local" }, { "169.254.0.1", "link-local" },
		{ "fe80::1", "link-local" }, { "febf::1", "link-local" },
		{ "0.0.0.0", "unspecified" }, { "0.1.2.3", "unspecified" }, { "::", "unspecified" },
		{ "224.0.0.1", "multicast" }, { "239.255.255.250", "multicast" }, { "ff02::1", "multicast" },
		{ "255.255.255.255", "reserved" }, { "240.0.0.1", "reserved" },
		{ "fc00::1", "unique-local" }, { "fd12:3456::1", "unique-local" },
		{ "::ffff:127.0.0.1", "loopback" }, { "::ffff:10.1.2.3", "private" },
		{ "::ffff:169.254.169.254", "link-local" }, { "::ffff:0.0.0.0", "unspecified" },
		{ "64:ff9b::7f00:1", "loopback" },          /* NAT64 of 127.0.0.1 */
		{ "2002:c0a8:0101::1", "private" },        /* 6to4 of 192.168.1.1 */
		{ "::127.0.0.1", "reserved" },             /* IPv4-compatible */
		{ "2001:db8::1", "reserved" }, { "192.0.2.1", "reserved" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof blocked / sizeof blocked[0]; i++) {
		const char *cls = urlguard_ip_class(blocked[i].ip);

		if (cls == NULL || strcmp(cls, blocked[i].cls) != 0)
			fail_msg("%s: expected %s, got %s", blocked[i].ip, blocked[i].cls, cls ? cls : "public");
	}
}

static void
test_urlguard_allows_public(void **state)
{
	static const char *const ok[] = {
		"8.8.8.8", "1.1.1.1", "93.184.216.34", "172.15.255.255", "172.32.0.1",
		"100.63.255.255", "100.128.0.1", "169.253.1.1", "192.167.1.1", "11.0.0.1",
		"2606:4700:4700::1111", "2a00:1450:4001:81c::200e", "::ffff:8.8.8.8", "64:ff9b::808:808",
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
		"https://billing.example.com", "https://billing.example.com/", "https://x.example.com:8443/whmcs",
		"https://[2001:db8::1]/api", "https://10.0.0.5/whmcs", "HTTPS://Example.COM/a/b",
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

	/* Nothing said: 0 (the runner backs off on its own). */
	resp_text(&r, 429, "");
	httpc_resp_set_header(&r, "Retry-After", "whenever");
	assert_int_equal(httpc_wait_hint(&r, now), 0);
	assert_false(httpc_quota_exhausted(&r));
	httpc_resp_free(&r);
}

static void
test_classify_statuses(void **state)
{
	static const struct {
		long status;
		enum prov_status st;
	} cases[] = {
		{ 200, PROV_OK }, { 204, PROV_OK }, { 429, PROV_RATE_LIMITED }, { 420, PROV_RATE_LIMITED },
		{ 401, PROV_AUTH }, { 403, PROV_AUTH }, { 500, PROV_TRANSIENT }, { 502, PROV_TRANSIENT },
		{ 503, PROV_TRANSIENT }, { 408, PROV_TRANSIENT }, { 404, PROV_FATAL }, { 400, PROV_FATAL },
		{ 301, PROV_FATAL }, { 422, PROV_FATAL },
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

/* ------------------------------------------------- a one-shot local server */

struct mini {
	pid_t pid;
	int port;
	int rd; /* the request the server received */
};

enum mini_mode { MINI_NORMAL, MINI_SLOW };

static void
mini_start(struct mini *m, const char *response, enum mini_mode mode)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof a;
	int fd, p[2];

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true((fd = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(fd, 4), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &alen), 0);
	m->port = ntohs(a.sin_port);
	assert_int_equal(pipe(p), 0);
	m->pid = fork();
	assert_true(m->pid >= 0);
	if (m->pid == 0) {
		char buf[65536];
		size_t n = 0;
		ssize_t k;
		int c;

		close(p[0]);
		alarm(10);
		if ((c = accept(fd, NULL, NULL)) < 0)
			_exit(1);
		/* Read the head and a body of Content-Length bytes. */
		for (;;) {
			char *end, *cl;
			size_t need;

			k = read(c, buf + n, sizeof buf - 1 - n);
			if (k <= 0)
				break;
			n += (size_t)k;
			buf[n] = '\0';
			if ((end = strstr(buf, "\r\n\r\n")) == NULL)
				continue;
			need = (size_t)(end + 4 - buf);
			if ((cl = strcasestr(buf, "\ncontent-length:")) != NULL && cl < end)
				need += (size_t)strtoul(cl + 16, NULL, 10);
			if (n >= need || n == sizeof buf - 1)
				break;
		}
		if (write(p[1], buf, n) < 0)
			_exit(1);
		close(p[1]);
		if (mode == MINI_SLOW)
			sleep(2);
		if (write(c, response, strlen(response)) < 0)
			_exit(1);
		shutdown(c, SHUT_RDWR);
		close(c);
		_exit(0);
	}
	close(fd);
	close(p[1]);
	m->rd = p[0];
}

/* Wait for the server; returns the request it saw (static buffer). */
static const char *
mini_finish(struct mini *m)
{
	static char req[65536];
	size_t n = 0;
	ssize_t k;
	int status;

	while (n < sizeof req - 1 && (k = read(m->rd, req + n, sizeof req - 1 - n)) > 0)
		n += (size_t)k;
	req[n] = '\0';
	close(m->rd);
	waitpid(m->pid, &status, 0);
	return req;
}

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
	mini_start(&m, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nRetry-After: 17\r\n"
	    "X-RateLimit-Remaining: 0\r\nX-Secret-Header: no\r\nContent-Length: 11\r\n"
	    "Connection: close\r\n\r\n{\"ok\":true}", MINI_NORMAL);
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

static void
test_httpc_truncated_body_is_transient(void **state)
{
	struct mini m;
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };
	char url[128];

	(void)state;
	mini_start(&m, "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{\"stat\":\"ok\",", MINI_NORMAL);
	snprintf(url, sizeof url, "http://127.0.0.1:%d/x", m.port);
	req.url = url;
	assert_int_equal(httpc_do(&req, &resp, &err), -1);
	mini_finish(&m);
	assert_int_equal(err.status, PROV_TRANSIENT);
	assert_null(resp.body);
}

static void
test_httpc_body_cap_is_fatal(void **state)
{
	struct mini m;
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };
	char url[128], *big;

	(void)state;
	big = xmalloc(9000);
	snprintf(big, 9000, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n");
	memset(big + strlen(big), 'x', 5000);
	big[strlen("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n") + 5000] = '\0';
	mini_start(&m, big, MINI_NORMAL);
	free(big);
	snprintf(url, sizeof url, "http://127.0.0.1:%d/x", m.port);
	req.url = url;
	req.max_body = 1000;
	assert_int_equal(httpc_do(&req, &resp, &err), -1);
	mini_finish(&m);
	assert_int_equal(err.status, PROV_FATAL);
	assert_non_null(strstr(err.message, "larger than 1000 bytes"));
}

static void
test_httpc_timeout_is_transient(void **state)
{
	struct mini m;
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };
	char url[128];

	(void)state;
	mini_start(&m, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", MINI_SLOW);
	snprintf(url, sizeof url, "http://127.0.0.1:%d/x", m.port);
	req.url = url;
	req.timeout_s = 1;
	assert_int_equal(httpc_do(&req, &resp, &err), -1);
	mini_finish(&m);
	assert_int_equal(err.status, PROV_TRANSIENT);
	assert_non_null(strstr(err.message, "in time"));
}

static void
test_httpc_redirect_not_followed(void **state)
{
	struct mini m;
	struct httpc_req req = { 0 };
	struct httpc_resp resp;
	struct prov_error err = { 0 };
	char url[128];

	(void)state;
	mini_start(&m, "HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/latest/meta-data/\r\n"
	    "Content-Length: 0\r\n\r\n", MINI_NORMAL);
	snprintf(url, sizeof url, "http://127.0.0.1:%d/x", m.port);
	req.url = url;
	assert_int_equal(httpc_do(&req, &resp, &err), 0);
	mini_finish(&m);
	assert_int_equal(resp.status, 302);
	assert_string_equal(httpc_header(&resp, "location"), "http://169.254.169.254/latest/meta-data/");
	assert_int_equal(httpc_classify(&resp, "Prov", "API key", &err), PROV_FATAL);
	httpc_resp_free(&resp);
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
	mini_start(&m, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", MINI_NORMAL);
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

static void
test_json_readers_tolerate_provider_quirks(void **state)
{
	json_object *o = json_tokener_parse("{\"a\":\"80\",\"b\":80,\"c\":\"\",\"d\":null,\"e\":80.0,"
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
	static const struct provider_def def = { "x", NULL, NULL, NULL, "url", NULL, NULL };
	struct prov_session s = { 0 };
	char text[256], small[40];

	(void)state;
	s.def = &def;
	s.creds = json_tokener_parse("{\"api_key\":\"u12345-abcdef\",\"api_secret\":\"p@ss w/rd\","
	    "\"url\":\"https://billing.example.com\",\"pin\":\"12\"}");
	snprintf(text, sizeof text, "bad key u12345-abcdef at https://billing.example.com; "
	    "form api_secret=p%%40ss%%20w%%2Frd; again u12345-abcdef; pin 12");
	prov_scrub(&s, text, sizeof text);
	assert_null(strstr(text, "u12345-abcdef"));
	assert_null(strstr(text, "p%40ss"));
	assert_non_null(strstr(text, "bad key [redacted]"));
	assert_non_null(strstr(text, "https://billing.example.com")); /* the URL is not a secret */
	assert_non_null(strstr(text, "pin 12"));                    /* too short to scrub sanely */

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
	assert_string_equal(buf, "api_key not? found.??");
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

static struct config_kv test_kv[4];

static void
cfg_init(struct config *c, const char *base_url, const char *timeout)
{
	size_t n = 0;

	memset(c, 0, sizeof *c);
	if (base_url != NULL)
		test_kv[n++] = (struct config_kv){ "provider.testprov", "base_url", (char *)base_url };
	if (timeout != NULL)
		test_kv[n++] = (struct config_kv){ "provider.testprov", "timeout", (char *)timeout };
	c->kv = test_kv;
	c->nkv = n;
}

static const struct provider_def testprov_url = {
	"testprov", NULL, (const char *const[]){ "api_key", NULL }, (const char *const[]){ NULL },
	"base_url", (const char *const[]){ "monitor", NULL }, &updown_ops };
static const struct provider_def testprov_default = {
	"testprov", "https://api.example.com/", (const char *const[]){ "api_key", NULL },
	(const char *const[]){ NULL }, NULL, (const char *const[]){ "monitor", NULL }, &updown_ops };

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
	cfg_init(&cfg, "http://127.0.0.1:9000/uptimerobot//", "5");
	assert_int_equal(prov_session_init(&s, &testprov_url, &cfg, creds, &err), 0);
	assert_string_equal(s.base_url, "http://127.0.0.1:9000/uptimerobot");
	assert_false(s.base_url_untrusted);
	assert_int_equal(s.timeout_s, 5);

	/* Else the user's URL field: untrusted. */
	cfg_init(&cfg, NULL, "bogus");
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
	cfg_init(&cfg, NULL, NULL);
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

/* ------------------------------------------------------------- UptimeRobot */

static void
test_uptimerobot_monitors_page(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(uptimerobot_parse, NULL, 200, "uptimerobot/monitors_page1.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 6);
	/* 7 entries were read (one without id): the next offset is 7 of 53. */
	assert_string_equal(p.next_cursor, "monitors:7");

	it = page_find(&p, "monitor", "777749809");
	assert_string_equal(nstr(it, "name"), "Google");
	assert_string_equal(nstr(it, "url"), "http://www.google.com");
	assert_string_equal(nstr(it, "type"), "http");
	assert_int_equal(nint(it, "interval"), 300);
	assert_false(nbool(it, "paused"));
	assert_true(nnull(it, "port"));      /* "port":"" */
	assert_true(nnull(it, "keyword"));
	assert_string_equal(nids(it, "contact_ids"), "0993765,2145");
	assert_non_null(it->raw);
	assert_non_null(json_object_object_get(it->raw, "create_datetime"));

	it = page_find(&p, "monitor", "777712827");
	assert_string_equal(nstr(it, "type"), "keyword");   /* "type":"2" */
	assert_string_equal(nstr(it, "keyword"), "Error");
	assert_int_equal(nint(it, "interval"), 900);        /* "interval":"900" */
	assert_true(nbool(it, "paused"));                   /* status 0 */
	assert_string_equal(nids(it, "contact_ids"), "");
	assert_true(has_warning(&p, "\"Shop keyword\" alerts when the keyword is absent"));

	it = page_find(&p, "monitor", "777559666");
	assert_string_equal(nstr(it, "type"), "port");
	assert_int_equal(nint(it, "port"), 443);            /* sub_type 2 */
	it = page_find(&p, "monitor", "777559667");
	assert_int_equal(nint(it, "port"), 80);             /* sub_type 99, "port":"80" */

	it = page_find(&p, "heartbeat", "777559668");
	assert_string_equal(nstr(it, "name"), "Nightly backup");
	assert_int_equal(nint(it, "interval"), 86400);
	assert_int_equal(nint(it, "grace"), 0);
	assert_string_equal(nstr(it, "ping_url"), "https://heartbeat.uptimerobot.com/m777559668-abc");
	assert_true(nnull(it, "schedule"));
	assert_false(nbool(it, "paused"));
	assert_string_equal(nids(it, "contact_ids"), "0993765");

	it = page_find(&p, "monitor", "777559669");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "unknown type 7; kept as other"));
	assert_true(has_warning(&p, "without a usable id"));
	prov_page_free(&p);
}

static void
test_uptimerobot_phases_and_stop(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* Last page of monitors: on to contacts. */
	assert_int_equal(run_parse(uptimerobot_parse, "monitors:50", 200, "uptimerobot/monitors_last.json",
	    &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);

	/* Alert contacts: offset/limit/total at the top level. */
	assert_int_equal(run_parse(uptimerobot_parse, "contacts:0", 200, "uptimerobot/contacts.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.next_cursor, "psps:0");
	it = page_find(&p, "contact", "0993765");
	assert_string_equal(nstr(it, "type"), "email");
	assert_string_equal(nstr(it, "name"), "John Doe");
	assert_string_equal(nstr(it, "value"), "johndoe@gmail.com");
	it = page_find(&p, "contact", "2145");
	assert_string_equal(nstr(it, "type"), "slack");     /* "type":"11" */
	assert_true(nnull(it, "value"));
	it = page_find(&p, "contact", "2146");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "unknown type 42"));
	prov_page_free(&p);

	/* More contacts than one page: the top-level total drives the offset. */
	assert_int_equal(run_parse(uptimerobot_parse, "contacts:50", 200, "uptimerobot/contacts_more.json",
	    &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "contacts:51");
	prov_page_free(&p);

	/* Status pages: the last phase. */
	assert_int_equal(run_parse(uptimerobot_parse, "psps:0", 200, "uptimerobot/psps.json", &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	assert_int_equal(p.n, 3);
	it = page_find(&p, "status_page", "123456");
	assert_string_equal(nids(it, "monitor_ids"), "777749809,777712827");
	assert_string_equal(nstr(it, "url"), "https://stats.uptimerobot.com/asfF1XZb0M"); /* custom_url "" */
	assert_true(nbool(it, "public"));
	it = page_find(&p, "status_page", "123457");
	assert_string_equal(nids(it, "monitor_ids"), "");   /* "monitors":0 = all */
	assert_string_equal(nstr(it, "url"), "https://status.example.com");
	assert_true(has_warning(&p, "\"All of them\" shows all monitors"));
	it = page_find(&p, "status_page", "123458");
	assert_false(nbool(it, "public"));                  /* paused */
	assert_string_equal(nstr(it, "url"), "https://stats.uptimerobot.com/yyy");
	prov_page_free(&p);
}

static void
test_uptimerobot_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse(uptimerobot_parse, NULL, 200, "uptimerobot/bad_key.json", &p, &e), PROV_AUTH);
	assert_non_null(strstr(e.message, "UptimeRobot rejected the API key"));
	assert_null(strstr(e.message, "u123-secretkeyvalue")); /* passed_value is never copied */
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	assert_int_equal(run_parse(uptimerobot_parse, "psps:0", 200, "uptimerobot/missing_key.json", &p, &e),
	    PROV_AUTH);
	prov_page_free(&p);
	assert_int_equal(run_parse(uptimerobot_parse, "contacts:0", 200, "uptimerobot/not_authorized.json", &p,
	    &e), PROV_AUTH);
	prov_page_free(&p);
	assert_int_equal(run_parse(uptimerobot_parse, NULL, 200, "uptimerobot/truncated.json", &p, &e),
	    PROV_TRANSIENT);
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 200, "<html>maintenance</html>", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 200, "{\"stat\":\"ok\",\"monitors\":{}}", &p,
	    &e), PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 502, "bad gateway", &p, &e), PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 401, "{}", &p, &e), PROV_AUTH);
	assert_non_null(strstr(e.message, "UptimeRobot rejected the API key"));
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, "monitors:x", 200, "{}", &p, &e), PROV_FATAL);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(uptimerobot_parse, "logs:0", 200, "{}", &p, &e), PROV_FATAL);
	prov_page_free(&p);
}

static void
test_uptimerobot_rate_limited(void **state)
{
	struct httpc_resp r;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };

	(void)state;
	resp_text(&r, 429, "{\"stat\":\"fail\"}");
	httpc_resp_set_header(&r, "Retry-After", "60");
	assert_int_equal(uptimerobot_parse("contacts:0", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 60);
	httpc_resp_free(&r);
	prov_page_free(&p);
}

/* An empty account: every phase ends at once, discovery completes. */
static void
test_uptimerobot_empty_account(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse_text(uptimerobot_parse, NULL, 200,
	    "{\"stat\":\"ok\",\"pagination\":{\"offset\":0,\"limit\":50,\"total\":0},\"monitors\":[]}", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "contacts:0");
	prov_page_free(&p);
	/* A provider that claims more but sends nothing cannot keep us looping. */
	assert_int_equal(run_parse_text(uptimerobot_parse, "psps:100", 200,
	    "{\"stat\":\"ok\",\"pagination\":{\"offset\":100,\"limit\":50,\"total\":900},\"psps\":[]}", &p, &e),
	    PROV_OK);
	assert_null(p.next_cursor);
	prov_page_free(&p);
}

/* ----------------------------------------------------------------- Pingdom */

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

static void
test_better_stack_monitors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(better_stack_parse, NULL, 200, "better_stack/monitors_page1.json", &p, &e),
	    PROV_OK);
	/* The next page by number, whatever host the "next" link names. */
	assert_string_equal(p.next_cursor, "monitors:2");
	assert_int_equal(p.n, 4);
	it = page_find(&p, "monitor", "2");
	assert_string_equal(nstr(it, "name"), "Uptime homepage");
	assert_string_equal(nstr(it, "type"), "keyword");
	assert_string_equal(nstr(it, "keyword"), "We call you");
	assert_int_equal(nint(it, "interval"), 30);
	assert_false(nbool(it, "paused"));
	it = page_find(&p, "monitor", "3");
	assert_string_equal(nstr(it, "type"), "keyword");
	assert_true(nbool(it, "paused"));
	assert_int_equal(nint(it, "interval"), 60);
	assert_true(has_warning(&p, "\"Health\" alerts when the keyword is present"));
	it = page_find(&p, "monitor", "4");
	assert_string_equal(nstr(it, "type"), "tcp");
	assert_int_equal(nint(it, "port"), 5432);
	assert_true(nnull(it, "keyword"));
	it = page_find(&p, "monitor", "5");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "unknown type quantum_check"));
	assert_true(has_warning(&p, "without id or attributes"));
	prov_page_free(&p);
}

static void
test_better_stack_other_phases(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(better_stack_parse, "heartbeats:3", 200, "better_stack/heartbeats_last.json",
	    &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "status-pages:1");
	it = page_find(&p, "heartbeat", "12345");
	assert_int_equal(nint(it, "interval"), 3600);
	assert_int_equal(nint(it, "grace"), 300);
	assert_string_equal(nstr(it, "ping_url"), "https://uptime.betterstack.com/api/v1/heartbeat/abcd1234");
	prov_page_free(&p);

	assert_int_equal(run_parse(better_stack_parse, "status-pages:1", 200, "better_stack/status_pages.json",
	    &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "email-integrations:1");
	it = page_find(&p, "status_page", "123");
	assert_string_equal(nstr(it, "name"), "Acme");
	assert_string_equal(nstr(it, "url"), "https://acme.betteruptime.com");
	assert_true(nbool(it, "public"));
	it = page_find(&p, "status_page", "124");
	assert_string_equal(nstr(it, "url"), "https://status.acme.example");
	assert_false(nbool(it, "public"));                   /* password protected */
	assert_true(has_warning(&p, "resources are not imported"));
	prov_page_free(&p);

	assert_int_equal(run_parse(better_stack_parse, "slack-integrations:1", 200,
	    "better_stack/slack_integrations.json", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "outgoing-webhooks:1");
	it = page_find(&p, "contact", "slack:77");
	assert_string_equal(nstr(it, "type"), "slack");
	assert_string_equal(nstr(it, "value"), "#alerts");
	assert_string_equal(nstr(it, "name"), "Acme #alerts");
	prov_page_free(&p);

	assert_int_equal(run_parse(better_stack_parse, "outgoing-webhooks:1", 200,
	    "better_stack/outgoing_webhooks.json", &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	it = page_find(&p, "contact", "webhook:9");
	assert_string_equal(nstr(it, "type"), "webhook");
	assert_string_equal(nstr(it, "value"), "https://hooks.example.com/bs");
	assert_string_equal(nstr(it, "name"), "Ops hook");
	prov_page_free(&p);
}

static void
test_better_stack_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse(better_stack_parse, NULL, 401, "better_stack/unauthorized.json", &p, &e),
	    PROV_AUTH);
	assert_non_null(strstr(e.message, "Better Stack rejected the API token (HTTP 401)"));
	prov_page_free(&p);
	assert_int_equal(run_parse(better_stack_parse, NULL, 200, "better_stack/not_jsonapi.json", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(better_stack_parse, "monitors:2", 503, "", &p, &e), PROV_TRANSIENT);
	prov_page_free(&p);
}

/* ------------------------------------------------------------------ updown */

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
	assert_string_equal(nids(it, "monitor_ids"), "ngg8,dmbe");
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

static void
test_fetch_uptimerobot_request_and_scrubbed_error(void **state)
{
	const struct provider_def *def = provider_find("uptimerobot");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"u123-secretkeyvalue\"}");

	(void)state;
	mini_start(&m, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
	    "{\"stat\":\"fail\",\"error\":{\"type\":\"invalid_parameter\",\"parameter_name\":\"api_key\","
	    "\"passed_value\":\"u123-secretkeyvalue\",\"message\":\"api_key u123-secretkeyvalue not found.\"}}",
	    MINI_NORMAL);
	snprintf(base, sizeof base, "http://127.0.0.1:%d/uptimerobot/", m.port);
	memset(&cfg, 0, sizeof cfg);
	test_kv[0] = (struct config_kv){ "provider.uptimerobot", "base_url", base };
	cfg.kv = test_kv;
	cfg.nkv = 1;
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_AUTH);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "POST /uptimerobot/v2/getMonitors HTTP/1.1"));
	assert_non_null(strstr(seen, "api_key=u123-secretkeyvalue&format=json&offset=0&limit=50"));
	assert_non_null(strstr(e.message, "UptimeRobot rejected the API key"));
	assert_null(strstr(e.message, "secretkeyvalue"));
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	json_object_put(creds);
}

static void
test_fetch_better_stack_request(void **state)
{
	const struct provider_def *def = provider_find("better_stack");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_token\":\"bs-token-1234\",\"team_name\":\"Ops & Co\"}");

	(void)state;
	mini_start(&m, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-RateLimit-Remaining: 0\r\n"
	    "Retry-After: 30\r\nConnection: close\r\n\r\n"
	    "{\"data\":[{\"id\":\"1\",\"type\":\"heartbeat\",\"attributes\":{\"name\":\"hb\",\"period\":60,"
	    "\"grace\":0}}],\"pagination\":{\"next\":null}}", MINI_NORMAL);
	snprintf(base, sizeof base, "http://127.0.0.1:%d/bs", m.port);
	memset(&cfg, 0, sizeof cfg);
	test_kv[0] = (struct config_kv){ "provider.better_stack", "base_url", base };
	cfg.kv = test_kv;
	cfg.nkv = 1;
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_int_equal(def->ops->fetch(&s, "heartbeats:2", &p, &e), PROV_OK);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /bs/api/v2/heartbeats?page=2&per_page=250&team_name=Ops%20%26%20Co "));
	assert_non_null(strstr(seen, "Authorization: Bearer bs-token-1234\r\n"));
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "status-pages:1");
	assert_int_equal(p.pause_s, 30); /* quota used up: the runner should wait */
	prov_page_free(&p);
	json_object_put(creds);
}

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
	mini_start(&m, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n[]", MINI_NORMAL);
	snprintf(base, sizeof base, "{\"api_key\":\"k-123456\",\"base_url\":\"http://127.0.0.1:%d/hc\"}", m.port);
	creds = json_tokener_parse(base);
	cfg_init(&cfg, NULL, NULL);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_urlguard_blocks_private_classes),
		cmocka_unit_test(test_urlguard_allows_public),
		cmocka_unit_test(test_urlguard_addr_allowed),
		cmocka_unit_test(test_urlguard_check_url),
		cmocka_unit_test(test_retry_after_seconds_and_dates),
		cmocka_unit_test(test_wait_hint_sources),
		cmocka_unit_test(test_classify_statuses),
		cmocka_unit_test(test_form_encoding),
		cmocka_unit_test(test_httpc_response_and_headers),
		cmocka_unit_test(test_httpc_truncated_body_is_transient),
		cmocka_unit_test(test_httpc_body_cap_is_fatal),
		cmocka_unit_test(test_httpc_timeout_is_transient),
		cmocka_unit_test(test_httpc_redirect_not_followed),
		cmocka_unit_test(test_httpc_guard_refuses_resolved_loopback),
		cmocka_unit_test(test_httpc_guard_https_only),
		cmocka_unit_test(test_json_readers_tolerate_provider_quirks),
		cmocka_unit_test(test_cursor_parse_and_make),
		cmocka_unit_test(test_scrub_removes_credentials),
		cmocka_unit_test(test_copy_text_and_body_message),
		cmocka_unit_test(test_session_init_sources),
		cmocka_unit_test(test_page_warn_and_free),
		cmocka_unit_test(test_uptimerobot_monitors_page),
		cmocka_unit_test(test_uptimerobot_phases_and_stop),
		cmocka_unit_test(test_uptimerobot_errors),
		cmocka_unit_test(test_uptimerobot_rate_limited),
		cmocka_unit_test(test_uptimerobot_empty_account),
		cmocka_unit_test(test_pingdom_checks),
		cmocka_unit_test(test_pingdom_contacts),
		cmocka_unit_test(test_pingdom_errors),
		cmocka_unit_test(test_statuscake_uptime_and_heartbeats),
		cmocka_unit_test(test_statuscake_contact_groups),
		cmocka_unit_test(test_statuscake_errors),
		cmocka_unit_test(test_better_stack_monitors),
		cmocka_unit_test(test_better_stack_other_phases),
		cmocka_unit_test(test_better_stack_errors),
		cmocka_unit_test(test_updown_lists),
		cmocka_unit_test(test_updown_errors),
		cmocka_unit_test(test_fetch_uptimerobot_request_and_scrubbed_error),
		cmocka_unit_test(test_fetch_better_stack_request),
		cmocka_unit_test(test_fetch_untrusted_url_is_guarded),
		cmocka_unit_test(test_registry_wires_adapters),
	};

	/* Requests in these tests go to 127.0.0.1 directly, never via a proxy. */
	unsetenv("http_proxy");
	unsetenv("HTTP_PROXY");
	unsetenv("https_proxy");
	unsetenv("HTTPS_PROXY");
	unsetenv("all_proxy");
	unsetenv("ALL_PROXY");
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
