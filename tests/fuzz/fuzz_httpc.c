/* libFuzzer target: httpc's reading of what a provider sends back, on any
 * bytes. Input: a byte choosing the part, then its text.
 *   0: response header lines ("\n"-separated, as curl hands them over) into a
 *      response, then the wait hint, the quota and the status class;
 *   1: one Retry-After value, and one Req-Limit-* value;
 *   2: the redirect policy: "<from URL>\n<Location value>", the status and
 *      whether the request has a body from the first byte.
 * Oracles: waits never negative nor past HTTPC_MAX_WAIT; a kept header holds
 * its value whole; every message is UTF-8; a redirect allowed keeps the
 * host and keeps the scheme and port as curl itself resolves the Location, or
 * is the one upgrade allowed: http on port 80 to https on 443 (providers.md
 * §12). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "core/util.h"
#include "providers/httpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const time_t now = 1767225600; /* 2026-01-01T00:00:00Z */

static void
check_wait(int w)
{
	if (w < 0 || w > HTTPC_MAX_WAIT)
		abort();
}

static void
headers(const char *text, size_t n, long status)
{
	static const char *const names[] = { "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining",
		"x-ratelimit-reset", "req-limit-short", "req-limit-long", "content-type" };
	struct httpc_resp r;
	struct prov_error err;
	size_t i = 0;

	memset(&r, 0, sizeof r);
	while (i < n) {
		const char *nl = memchr(text + i, '\n', n - i);
		size_t len = nl != NULL ? (size_t)(nl - text - i) + 1 : n - i;

		httpc_resp_add_line(&r, text + i, len);
		if (r.nhdrs > HTTPC_MAX_HEADERS)
			abort();
		i += len;
	}
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		const char *v = httpc_header(&r, names[k]);

		/* a kept value is whole: it appears in the input as it is */
		if (v != NULL &&
		    (strlen(v) >= sizeof r.hdrs[0].value || memmem(text, n, v, strlen(v)) == NULL))
			abort();
	}
	if (httpc_wait_hint(&r, now) != -1) /* -1: the headers name no wait */
		check_wait(httpc_wait_hint(&r, now));
	(void)httpc_quota_exhausted(&r);
	r.status = status;
	memset(&err, 0, sizeof err);
	if (httpc_classify(&r, "Prov", "API key", &err) != PROV_OK) {
		check_wait(err.retry_after);
		if (!utf8_valid(err.message, strlen(err.message)))
			abort();
	}
}

static void
values(const char *text)
{
	long rem = -1, reset = -1;
	int w = httpc_parse_retry_after(text, now);

	if (w != -1)
		check_wait(w);
	if (httpc_parse_req_limit(text, &rem, &reset) == 0 && (rem < 0 || reset < 0))
		abort();
}

/* Scheme, host (any case) and port of url as curl reads it, base given. */
static bool
origin_of(const char *base, const char *url, char **scheme, char **host, long *port)
{
	CURLU *h = curl_url();
	char *p = NULL;
	bool ok = h != NULL && (base == NULL || curl_url_set(h, CURLUPART_URL, base, 0) == CURLUE_OK) &&
	    curl_url_set(h, CURLUPART_URL, url, CURLU_URLENCODE | CURLU_ALLOW_SPACE) == CURLUE_OK &&
	    curl_url_get(h, CURLUPART_SCHEME, scheme, 0) == CURLUE_OK &&
	    curl_url_get(h, CURLUPART_HOST, host, 0) == CURLUE_OK &&
	    curl_url_get(h, CURLUPART_PORT, &p, CURLU_DEFAULT_PORT) == CURLUE_OK;

	*port = p != NULL ? strtol(p, NULL, 10) : -1;
	curl_free(p);
	curl_url_cleanup(h);
	return ok;
}

static void
redirect(const char *text, size_t n, long status, bool body)
{
	const char *nl = memchr(text, '\n', n);
	struct prov_error err;
	char *from, *s1 = NULL, *h1 = NULL, *s2 = NULL, *h2 = NULL;
	long p1, p2;
	int rc;

	if (nl == NULL)
		return;
	from = strndup(text, (size_t)(nl - text));
	memset(&err, 0, sizeof err);
	rc = httpc_redirect_allowed(from, status, body, nl + 1, n - (size_t)(nl - text) - 1, &err);
	if (rc != 0) {
		if (err.status != PROV_FATAL || !utf8_valid(err.message, strlen(err.message)))
			abort();
	} else {
		char *loc = strndup(nl + 1, n - (size_t)(nl - text) - 1);

		if (n - (size_t)(nl - text) - 1 > HTTPC_MAX_LOCATION ||
		    strlen(loc) != n - (size_t)(nl - text) - 1 || (status == 303 && body) ||
		    (status != 301 && status != 302 && status != 303 && status != 307 && status != 308))
			abort();
		if (!origin_of(NULL, from, &s1, &h1, &p1) || !origin_of(from, loc, &s2, &h2, &p2) ||
		    strcasecmp(h1, h2) != 0)
			abort(); /* a hop curl would make to another host */
		if ((strcmp(s1, s2) != 0 || p1 != p2) &&
		    !(strcmp(s1, "http") == 0 && p1 == 80 && strcmp(s2, "https") == 0 && p2 == 443))
			abort(); /* another scheme or port, not the upgrade */
		free(loc);
	}
	curl_free(s1);
	curl_free(h1);
	curl_free(s2);
	curl_free(h2);
	free(from);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const long statuses[] = { 301, 302, 303, 307, 308, 300, 304, 200, 429, 420, 500, 401 };
	char *text;

	if (size < 1)
		return 0;
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 3) {
	case 0:
		headers(text, size - 1, statuses[(data[0] >> 2) % (sizeof statuses / sizeof statuses[0])]);
		break;
	case 1:
		values(text);
		break;
	default:
		redirect(text, size - 1, statuses[(data[0] >> 2) % (sizeof statuses / sizeof statuses[0])],
		    (data[0] & 0x80) != 0);
	}
	free(text);
	return 0;
}
