#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "core/datetime.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "providers/httpc.h"

#define HTTPC_USER_AGENT      "migrator/" PACKAGE_VERSION
#define HTTPC_DEFAULT_TIMEOUT 20
#define HTTPC_CONNECT_TIMEOUT 10

/* Response headers worth keeping (lowercase). */
/* clang-format off */
static const char *const kept_headers[] = {
	"retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset",
	"req-limit-short", "req-limit-long", "content-type", "location", NULL
};
/* clang-format on */

struct xfer {
	struct httpc_resp *resp;
	size_t cap; /* allocated bytes of resp->body */
	size_t max; /* body cap */
	bool too_big;
	const struct urlguard *guard;
	const char *blocked; /* class of the refused address, or NULL */
};

static void
global_init(void)
{
	static bool done;

	if (!done) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		done = true;
	}
}

static int prov_err(struct prov_error *err, enum prov_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
prov_err(struct prov_error *err, enum prov_status st, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL) {
		err->status = st;
		err->retry_after = 0;
		va_start(ap, fmt);
		utf8_vformat(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static size_t
on_body(char *data, size_t size, size_t nmemb, void *arg)
{
	struct xfer *x = arg;
	struct httpc_resp *r = x->resp;
	size_t n = size * nmemb;

	if (n > x->max || r->len > x->max - n) {
		x->too_big = true;
		return 0;
	}
	if (r->len + n + 1 > x->cap) {
		size_t ncap = x->cap ? x->cap : 16384;
		while (ncap < r->len + n + 1)
			ncap *= 2;
		if (ncap > x->max + 1)
			ncap = x->max + 1;
		r->body = xrealloc(r->body, ncap);
		x->cap = ncap;
	}
	memcpy(r->body + r->len, data, n);
	r->len += n;
	r->body[r->len] = '\0';
	return n;
}

void
httpc_resp_set_header(struct httpc_resp *r, const char *name, const char *value)
{
	struct httpc_hdr *h = NULL;
	size_t i;

	for (i = 0; i < r->nhdrs; i++)
		if (strcasecmp(r->hdrs[i].name, name) == 0)
			h = &r->hdrs[i];
	if (h == NULL) {
		if (r->nhdrs == HTTPC_MAX_HEADERS)
			return;
		h = &r->hdrs[r->nhdrs++];
	}
	snprintf(h->name, sizeof h->name, "%s", name);
	for (char *p = h->name; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	snprintf(h->value, sizeof h->value, "%s", value);
}

static size_t
on_header(char *data, size_t size, size_t nmemb, void *arg)
{
	struct xfer *x = arg;
	size_t n = size * nmemb, nl, vl;
	char name[40], value[200];
	const char *colon, *v, *end;

	/* A status line starts a new response (a 1xx, or a redirect hop). */
	if (n >= 5 && strncmp(data, "HTTP/", 5) == 0) {
		x->resp->nhdrs = 0;
		return n;
	}
	colon = memchr(data, ':', n);
	if (colon == NULL)
		return n;
	nl = (size_t)(colon - data);
	if (nl == 0 || nl >= sizeof name)
		return n;
	memcpy(name, data, nl);
	name[nl] = '\0';
	for (size_t i = 0; kept_headers[i] != NULL; i++) {
		if (strcasecmp(kept_headers[i], name) != 0)
			continue;
		v = colon + 1;
		end = data + n;
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t'))
			end--;
		vl = (size_t)(end - v);
		if (vl >= sizeof value)
			vl = sizeof value - 1;
		memcpy(value, v, vl);
		value[vl] = '\0';
		httpc_resp_set_header(x->resp, kept_headers[i], value);
		break;
	}
	return n;
}

/* Runs for every socket curl wants for a connection: refuse addresses the
 * guard does not allow, before anything is sent. */
static curl_socket_t
on_opensocket(void *arg, curlsocktype purpose, struct curl_sockaddr *addr)
{
	struct xfer *x = arg;
	const char *cls;

	(void)purpose;
	if (!urlguard_addr_allowed(x->guard, &addr->addr, addr->addrlen)) {
		cls = urlguard_addr_class(&addr->addr, addr->addrlen);
		x->blocked = cls != NULL ? cls : "disallowed";
		return CURL_SOCKET_BAD;
	}
	return socket(addr->family, addr->socktype, addr->protocol);
}

static int
map_curl_error(CURLcode rc, const struct xfer *x, const struct httpc_req *req, const char *ebuf,
    struct prov_error *err)
{
	if (x->blocked != NULL)
		return prov_err(err, PROV_FATAL,
		    "the provider URL leads to a %s address, which is not allowed", x->blocked);
	if (x->too_big || rc == CURLE_FILESIZE_EXCEEDED)
		return prov_err(err, PROV_FATAL, "the provider's answer is larger than %zu bytes",
		    req->max_body ? req->max_body : (size_t)HTTPC_MAX_BODY);
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT:
		return prov_err(err, PROV_TRANSIENT, "the provider did not answer in time");
	case CURLE_COULDNT_RESOLVE_HOST:
		return prov_err(err, PROV_TRANSIENT, "the provider's host name does not resolve");
	case CURLE_COULDNT_CONNECT:
		return prov_err(err, PROV_TRANSIENT, "cannot connect to the provider");
	case CURLE_UNSUPPORTED_PROTOCOL:
		return prov_err(err, PROV_FATAL, "the provider URL's scheme is not allowed");
	case CURLE_URL_MALFORMAT:
		return prov_err(err, PROV_FATAL, "the provider URL is malformed");
	case CURLE_PEER_FAILED_VERIFICATION:
		return prov_err(err, PROV_FATAL, "the provider's TLS certificate does not verify");
	case CURLE_PARTIAL_FILE:
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
		return prov_err(err, PROV_TRANSIENT, "the connection to the provider broke off");
	default:
		return prov_err(err, PROV_TRANSIENT, "request to the provider failed: %s",
		    ebuf[0] ? ebuf : curl_easy_strerror(rc));
	}
}

/* How the transfer goes: the URL, timeouts, where the answer goes, the
 * protocols allowed (https only under a strict guard, redirects alike), the
 * address check of every connection, and Basic authentication. */
static void
set_transfer(CURL *c, const struct httpc_req *req, struct xfer *x, long timeout, char *ebuf)
{
	const char *protos = req->guard != NULL && !req->guard->allow_http ? "https" : "http,https";

	curl_easy_setopt(c, CURLOPT_URL, req->url);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, HTTPC_USER_AGENT);
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT,
	    timeout < HTTPC_CONNECT_TIMEOUT ? timeout : (long)HTTPC_CONNECT_TIMEOUT);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, ebuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, x);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)x->max);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, protos);
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, protos);
#else
	curl_easy_setopt(c, CURLOPT_PROTOCOLS,
	    strcmp(protos, "https") == 0 ? (long)CURLPROTO_HTTPS : (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS,
	    strcmp(protos, "https") == 0 ? (long)CURLPROTO_HTTPS : (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	if (req->guard != NULL) {
		curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, on_opensocket);
		curl_easy_setopt(c, CURLOPT_OPENSOCKETDATA, x);
		curl_easy_setopt(c, CURLOPT_PROXY, ""); /* a proxy would hide the real address */
	}
	if (req->userpwd != NULL) {
		curl_easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		curl_easy_setopt(c, CURLOPT_USERPWD, req->userpwd);
	}
}

/* The request's headers and body; the header list to free after the transfer. */
static struct curl_slist *
set_request(CURL *c, const struct httpc_req *req)
{
	struct curl_slist *hl = NULL;
	char line[160];

	hl = curl_slist_append(hl, "Accept: application/json");
	hl = curl_slist_append(hl, "Expect:");
	if (req->body != NULL && req->content_type != NULL) {
		snprintf(line, sizeof line, "Content-Type: %s", req->content_type);
		hl = curl_slist_append(hl, line);
	}
	for (size_t i = 0; req->headers != NULL && req->headers[i] != NULL; i++)
		hl = curl_slist_append(hl, req->headers[i]);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
	if (req->body != NULL) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body_len);
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, req->body);
	} else if (req->method != NULL && strcmp(req->method, "POST") == 0) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)0);
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, "");
	}
	return hl;
}

/* One request, no redirect followed. */
static int
perform(const struct httpc_req *req, struct httpc_resp *resp, struct prov_error *err)
{
	struct curl_slist *hl = NULL;
	struct xfer x;
	char ebuf[CURL_ERROR_SIZE] = "";
	long timeout = req->timeout_s > 0 ? req->timeout_s : HTTPC_DEFAULT_TIMEOUT;
	CURLcode rc;
	CURL *c;

	memset(resp, 0, sizeof *resp);
	memset(&x, 0, sizeof x);
	x.resp = resp;
	x.max = req->max_body ? req->max_body : HTTPC_MAX_BODY;
	x.guard = req->guard;
	global_init();
	if ((c = curl_easy_init()) == NULL)
		return prov_err(err, PROV_TRANSIENT, "cannot start an HTTP request");

	set_transfer(c, req, &x, timeout, ebuf);
	hl = set_request(c, req);

	rc = curl_easy_perform(c);
	if (rc == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &resp->status);
	curl_easy_cleanup(c);
	curl_slist_free_all(hl);
	if (rc != CURLE_OK) {
		log_debug("provider request failed: curl code %d", (int)rc);
		httpc_resp_free(resp);
		return map_curl_error(rc, &x, req, ebuf, err);
	}
	if (resp->body == NULL)
		resp->body = xstrdup("");
	return 0;
}

static bool
is_redirect(long status)
{
	return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

/* The scheme and the lower-cased host of url, or -1. */
static int
url_parts(const char *url, char *scheme, size_t ns, char *host, size_t nh)
{
	CURLU *u = curl_url();
	char *sc = NULL, *h = NULL;
	int rc = -1;

	if (u != NULL && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_SCHEME, &sc, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &h, 0) == CURLUE_OK) {
		for (char *p = h; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		rc = snprintf(scheme, ns, "%s", sc) < (int)ns && snprintf(host, nh, "%s", h) < (int)nh ? 0 :
		                                                                                         -1;
	}
	curl_free(sc);
	curl_free(h);
	curl_url_cleanup(u);
	return rc;
}

/* The absolute URL of location (maybe relative) against base; malloc'd or NULL. */
static char *
resolve_location(const char *base, const char *location)
{
	CURLU *u = curl_url();
	char *abs = NULL, *out = NULL;

	if (u != NULL && curl_url_set(u, CURLUPART_URL, base, 0) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_URL, location, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_URL, &abs, 0) == CURLUE_OK)
		out = xstrdup(abs);
	curl_free(abs);
	curl_url_cleanup(u);
	return out;
}

/* Where a redirect of req to next may go (providers.md §12): the same host
 * only (the credentials travel with the request; a scheme upgrade and another
 * path are fine), never from https to http, a POST only on 301/302/307/308.
 * 0, or -1 with err. The message names the new host, never its path. */
static int
hop_allowed(const struct httpc_req *req, long status, const char *next, struct prov_error *err)
{
	char s1[16], h1[256], s2[16], h2[256];

	if (next == NULL || url_parts(req->url, s1, sizeof s1, h1, sizeof h1) != 0 ||
	    url_parts(next, s2, sizeof s2, h2, sizeof h2) != 0)
		return prov_err(err, PROV_FATAL, "the provider redirected to an address that is not a URL");
	if (strcmp(s1, "https") == 0 && strcmp(s2, "https") != 0)
		return prov_err(err, PROV_FATAL, "the provider redirected from https to http (%s); refused",
		    h2);
	if (strcmp(h1, h2) != 0)
		return prov_err(err, PROV_FATAL,
		    "the provider redirected to another host (%s://%s); set the "
		    "base URL to that address if it is right",
		    s2, h2);
	if (status == 303 && req->body != NULL)
		return prov_err(err, PROV_FATAL,
		    "the provider answered with a redirect (HTTP 303) to "
		    "%s://%s; set the base URL to the address it names",
		    s2, h2);
	return 0;
}

int
httpc_do(const struct httpc_req *req, struct httpc_resp *resp, struct prov_error *err)
{
	struct httpc_req hop = *req;
	int max = req->max_redirects < HTTPC_MAX_REDIRECTS ? req->max_redirects : HTTPC_MAX_REDIRECTS;
	char *url = NULL, *next;

	for (int hops = 0;; hops++) {
		if (perform(&hop, resp, err) != 0)
			break;
		if (max <= 0 || !is_redirect(resp->status) || httpc_header(resp, "location") == NULL) {
			free(url);
			return 0;
		}
		if (hops == max) {
			prov_err(err, PROV_FATAL, "the provider redirected more than %d times", max);
			httpc_resp_free(resp);
			break;
		}
		next = resolve_location(hop.url, httpc_header(resp, "location"));
		if (hop_allowed(&hop, resp->status, next, err) != 0) {
			free(next);
			httpc_resp_free(resp);
			break;
		}
		if (resp->status == 303)
			hop.method = NULL; /* a GET stays a GET */
		httpc_resp_free(resp);
		free(url);
		hop.url = url = next;
	}
	free(url);
	return -1;
}

void
httpc_resp_free(struct httpc_resp *r)
{
	if (r == NULL)
		return;
	free(r->body);
	memset(r, 0, sizeof *r);
}

const char *
httpc_header(const struct httpc_resp *r, const char *name)
{
	for (size_t i = 0; i < r->nhdrs; i++)
		if (strcasecmp(r->hdrs[i].name, name) == 0)
			return r->hdrs[i].value;
	return NULL;
}

/* Leading decimal integer of s (after spaces), or -1. */
static long
lead_long(const char *s)
{
	long v = 0;
	int digits = 0;

	if (s == NULL)
		return -1;
	while (*s == ' ' || *s == '\t')
		s++;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (++digits > 12)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return digits ? v : -1;
}

static int
cap_wait(long v)
{
	if (v < 0)
		return 0;
	return v > HTTPC_MAX_WAIT ? HTTPC_MAX_WAIT : (int)v;
}

int
httpc_parse_retry_after(const char *value, time_t now)
{
	char buf[128];
	size_t n;
	int64_t t;
	const char *p;

	if (value == NULL)
		return -1;
	while (*value == ' ' || *value == '\t')
		value++;
	n = strlen(value);
	while (n > 0 && (value[n - 1] == ' ' || value[n - 1] == '\t'))
		n--;
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, value, n);
	buf[n] = '\0';
	for (p = buf; *p >= '0' && *p <= '9'; p++)
		;
	if (*p == '\0') {
		long v = lead_long(buf);
		return v < 0 ? HTTPC_MAX_WAIT : cap_wait(v); /* absurdly long: wait the cap */
	}
	if (time_parse(buf, TIME_HTTP, NULL, &t) != 0)
		return -1;
	return t <= now ? 0 : cap_wait((long)(t - now));
}

int
httpc_parse_req_limit(const char *value, long *remaining, long *reset_s)
{
	const char *p, *q;
	long r, s;

	if (value == NULL || (p = strcasestr(value, "remaining:")) == NULL ||
	    (q = strcasestr(value, "reset:")) == NULL)
		return -1;
	if ((r = lead_long(p + 10)) < 0 || (s = lead_long(q + 6)) < 0)
		return -1;
	*remaining = r;
	*reset_s = s;
	return 0;
}

int
httpc_wait_hint(const struct httpc_resp *r, time_t now)
{
	const char *names[] = { "req-limit-short", "req-limit-long" };
	const char *v;
	long rem, reset;
	int w;

	if ((v = httpc_header(r, "retry-after")) != NULL && (w = httpc_parse_retry_after(v, now)) >= 0)
		return w;
	if ((reset = lead_long(httpc_header(r, "x-ratelimit-reset"))) >= 0) {
		/* UptimeRobot sends an epoch time, StatusCake a number of seconds. */
		if (reset > 1000000000L)
			reset = reset > (long)now ? reset - (long)now : 0;
		return cap_wait(reset);
	}
	for (size_t i = 0; i < 2; i++)
		if (httpc_parse_req_limit(httpc_header(r, names[i]), &rem, &reset) == 0 && rem == 0)
			return cap_wait(reset);
	return 0;
}

bool
httpc_quota_exhausted(const struct httpc_resp *r)
{
	long rem, reset;

	if (lead_long(httpc_header(r, "x-ratelimit-remaining")) == 0)
		return true;
	if (httpc_parse_req_limit(httpc_header(r, "req-limit-short"), &rem, &reset) == 0 && rem == 0)
		return true;
	if (httpc_parse_req_limit(httpc_header(r, "req-limit-long"), &rem, &reset) == 0 && rem == 0)
		return true;
	return false;
}

enum prov_status
httpc_classify(const struct httpc_resp *r, const char *who, const char *what, struct prov_error *err)
{
	long st = r->status;

	if (st >= 200 && st < 300)
		return PROV_OK;
	if (st == 429 || st == 420) {
		prov_err(err, PROV_RATE_LIMITED, "%s rate limit reached (HTTP %ld)", who, st);
		if (err != NULL)
			err->retry_after = httpc_wait_hint(r, time(NULL));
		return PROV_RATE_LIMITED;
	}
	if (st == 401 || st == 403) {
		prov_err(err, PROV_AUTH, "%s rejected the %s (HTTP %ld)", who, what, st);
		return PROV_AUTH;
	}
	if (st == 408 || st >= 500) {
		prov_err(err, PROV_TRANSIENT, "%s answered HTTP %ld", who, st);
		if (err != NULL)
			err->retry_after = httpc_wait_hint(r, time(NULL));
		return PROV_TRANSIENT;
	}
	if (st >= 300 && st < 400) {
		prov_err(err, PROV_FATAL, "%s answered with a redirect (HTTP %ld); check the base URL", who,
		    st);
		return PROV_FATAL;
	}
	if (st == 404) {
		prov_err(err, PROV_FATAL, "%s answered HTTP 404; check the base URL", who);
		return PROV_FATAL;
	}
	prov_err(err, PROV_FATAL, "%s answered HTTP %ld", who, st);
	return PROV_FATAL;
}

void
httpc_urlencode_append(char **buf, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t old = *buf ? strlen(*buf) : 0, n = 0;
	char *p;

	for (const char *q = s; *q; q++)
		n += (isalnum((unsigned char)*q) || strchr("-._~", *q)) ? 1 : 3;
	*buf = xrealloc(*buf, old + n + 1);
	p = *buf + old;
	for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
		if (isalnum(*q) || strchr("-._~", *q))
			*p++ = (char)*q;
		else {
			*p++ = '%';
			*p++ = hex[*q >> 4];
			*p++ = hex[*q & 15];
		}
	}
	*p = '\0';
}

void
httpc_form_add(char **buf, const char *key, const char *value)
{
	size_t old = *buf ? strlen(*buf) : 0;

	if (old > 0) {
		*buf = xrealloc(*buf, old + 2);
		memcpy(*buf + old, "&", 2);
	}
	httpc_urlencode_append(buf, key);
	old = strlen(*buf);
	*buf = xrealloc(*buf, old + 2);
	memcpy(*buf + old, "=", 2);
	httpc_urlencode_append(buf, value);
}
