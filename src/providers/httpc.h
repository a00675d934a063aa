/* The one HTTP client of the provider layer, on libcurl.
 *
 * One call is one request, plus redirect hops when asked for (max_redirects),
 * followed by curl itself within the one timeout of the request: 301, 302,
 * 303, 307 and 308 only, to the same scheme, host and port only (credentials
 * travel in headers and form bodies), a POST re-sent with its body on
 * 301/302/307/308 and ended by a 303. Each Location is judged whole, before
 * curl sends anything to it. The response body is held in memory up to a
 * cap; a selected set of response headers is kept (rate-limit and retry
 * headers). When a request carries a URL guard, the address of every
 * connection curl opens, redirects included, is checked first, and proxies
 * from the environment are not used. */
#ifndef MIGRATOR_HTTPC_H
#define MIGRATOR_HTTPC_H
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "providers/provider.h"
#include "providers/urlguard.h"

#define HTTPC_MAX_BODY      (8u * 1024 * 1024) /* default response size cap */
#define HTTPC_MAX_HEADERS   16
#define HTTPC_MAX_REDIRECTS 5
#define HTTPC_MAX_WAIT      86400 /* cap on any Retry-After we honour, seconds */
#define HTTPC_MAX_LOCATION  8192  /* a longer Location ends the request */

struct httpc_hdr {
	char name[40];   /* lowercase */
	char value[200]; /* a longer value is not kept */
};

struct httpc_req {
	const char *method; /* "GET" (default when NULL) or "POST" */
	const char *url;
	const char *const *headers; /* "Name: value" lines, NULL-terminated, or NULL */
	const char *body;           /* request body or NULL */
	size_t body_len;
	const char *content_type; /* of body, e.g. "application/x-www-form-urlencoded" */
	const char *userpwd;      /* HTTP Basic "user:password", or NULL */
	long timeout_s;           /* whole request; 0: 20 s */
	size_t max_body;          /* response cap; 0: HTTPC_MAX_BODY */
	int max_redirects; /* hops to follow, at most HTTPC_MAX_REDIRECTS; 0: a 3xx is returned as is */
	const struct urlguard *guard; /* NULL: trusted URL, no address checks */
};

struct httpc_resp {
	long status; /* HTTP status of the final response */
	char *body;  /* NUL-terminated; owned */
	size_t len;
	struct httpc_hdr hdrs[HTTPC_MAX_HEADERS];
	size_t nhdrs;
};

/* Perform req. Returns 0 when an HTTP response (of any status) arrived, with
 * resp filled (free it with httpc_resp_free). Returns -1 with err set when no
 * usable response arrived: PROV_TRANSIENT for timeouts, connection and TLS
 * failures or a cut-off body; PROV_FATAL for a refused address or scheme, a
 * bad URL, a certificate that does not verify, a redirect refused
 * (httpc_redirect_allowed) or too many of them, or a body over the cap. resp
 * is cleared either way. */
int httpc_do(const struct httpc_req *req, struct httpc_resp *resp, struct prov_error *err);
void httpc_resp_free(struct httpc_resp *resp);

/* The value of a kept response header (name in any case), or NULL. Kept:
 * retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset,
 * req-limit-short, req-limit-long, content-type. */
const char *httpc_header(const struct httpc_resp *resp, const char *name);
/* Add a header to resp by hand (for tests and adapters' own use). */
void httpc_resp_set_header(struct httpc_resp *resp, const char *name, const char *value);
/* Take one response header line as curl hands it over into resp: a status
 * line ("HTTP/1.1 301 Moved") starts a new response (the kept headers
 * cleared); a kept header is stored. */
void httpc_resp_add_line(struct httpc_resp *resp, const char *line, size_t n);

/* Whether a redirect with this status from the URL from to the Location value
 * loc[0..len) may be followed (providers.md §12): a 301, 302, 303, 307 or 308
 * whose Location, at most HTTPC_MAX_LOCATION bytes and resolved against from
 * as curl resolves it, keeps the scheme, host and port (or upgrades http on
 * its default port to https on its default port, same host); a 303 only for a
 * request without a body (has_body). Returns 0, or -1 with err (PROV_FATAL)
 * whose message names the target's scheme, host and port as clean text,
 * never its path or query. */
int httpc_redirect_allowed(const char *from, long status, bool has_body, const char *loc, size_t len,
    struct prov_error *err);

/* Parse a Retry-After value: delta seconds or an HTTP date (time_parse's
 * TIME_HTTP), blanks around it allowed. Returns the
 * seconds to wait from now (0 for a date in the past, at most HTTPC_MAX_WAIT),
 * or -1 when the value is neither. */
int httpc_parse_retry_after(const char *value, time_t now);
/* Parse a Pingdom Req-Limit-* value "Remaining: 394 Time until reset: 3589".
 * Returns 0 with both numbers, or -1. */
int httpc_parse_req_limit(const char *value, long *remaining, long *reset_s);
/* How long the provider asks us to wait, from Retry-After, else
 * X-RateLimit-Reset (seconds, or an epoch time when it looks like one) when
 * X-RateLimit-Remaining is 0 or absent, else the latest reset of the used-up
 * Req-Limit-* windows. Returns seconds (0 included: "now"; at most
 * HTTPC_MAX_WAIT), or -1 when the headers say nothing. */
int httpc_wait_hint(const struct httpc_resp *resp, time_t now);
/* True when the headers say the quota is used up (remaining == 0). */
bool httpc_quota_exhausted(const struct httpc_resp *resp);

/* Classify the status of resp when it is not a success: 429 and 420 give
 * PROV_RATE_LIMITED, 401/403 PROV_AUTH ("<who> rejected the <what>"), 408
 * and 5xx PROV_TRANSIENT, anything else PROV_FATAL; for the first and the
 * third, err->retry_after is httpc_wait_hint's (0 when it says nothing).
 * Returns PROV_OK for 2xx without touching err. */
enum prov_status httpc_classify(const struct httpc_resp *resp, const char *who, const char *what,
    struct prov_error *err);

/* Append s percent-encoded (RFC 3986 unreserved kept) to *buf (malloc'd,
 * NUL-terminated; *buf may be NULL). */
void httpc_urlencode_append(char **buf, const char *s);
/* Append "&key=value" (no "&" when *buf is empty) with both parts encoded. */
void httpc_form_add(char **buf, const char *key, const char *value);

#endif
