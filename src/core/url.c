#include <ctype.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "core/url.h"
#include "core/util.h"
#include "core/xalloc.h"

/* Part p of h, or NULL when it is not there. */
static char *
part(CURLU *h, CURLUPart p, unsigned int flags)
{
	char *v = NULL;

	if (curl_url_get(h, p, &v, flags) != CURLUE_OK) {
		curl_free(v);
		return NULL;
	}
	return v;
}

CURLUcode
url_parse(struct url *u, const char *base, const char *text, unsigned int flags)
{
	CURLU *h = curl_url();
	CURLUcode rc = h == NULL ? CURLUE_OUT_OF_MEMORY : text == NULL ? CURLUE_MALFORMED_INPUT : CURLUE_OK;
	char *user, *pass, *port;

	memset(u, 0, sizeof *u);
	if (rc == CURLUE_OK && base != NULL)
		rc = curl_url_set(h, CURLUPART_URL, base, flags);
	if (rc == CURLUE_OK)
		rc = curl_url_set(h, CURLUPART_URL, text, flags);
	if (rc == CURLUE_OK && ((u->host = part(h, CURLUPART_HOST, 0)) == NULL || u->host[0] == '\0'))
		rc = CURLUE_NO_HOST;
	if (rc != CURLUE_OK) {
		curl_url_cleanup(h);
		url_free(u);
		return rc;
	}
	u->scheme = part(h, CURLUPART_SCHEME, 0);
	u->port = part(h, CURLUPART_PORT, 0);
	port = part(h, CURLUPART_PORT, CURLU_DEFAULT_PORT);
	u->port_num = port != NULL ? strtol(port, NULL, 10) : 0;
	curl_free(port);
	u->path = part(h, CURLUPART_PATH, 0);
	u->query = part(h, CURLUPART_QUERY, 0);
	u->fragment = part(h, CURLUPART_FRAGMENT, 0);
	user = part(h, CURLUPART_USER, 0);
	pass = part(h, CURLUPART_PASSWORD, 0);
	u->userinfo = user != NULL || pass != NULL;
	curl_free(user);
	curl_free(pass);
	curl_url_cleanup(h);
	if (u->scheme == NULL || u->path == NULL) {
		url_free(u);
		return CURLUE_MALFORMED_INPUT;
	}
	return CURLUE_OK;
}

void
url_free(struct url *u)
{
	curl_free(u->scheme);
	curl_free(u->host);
	curl_free(u->port);
	curl_free(u->path);
	curl_free(u->query);
	curl_free(u->fragment);
	memset(u, 0, sizeof *u);
}

int
url_host_copy(const struct url *u, char *out, size_t size)
{
	const char *h = u->host;
	size_t n = strlen(h);

	if (h[0] == '[' && n >= 2 && h[n - 1] == ']') {
		h++;
		n -= 2;
	}
	if (size == 0 || n >= size) {
		if (size > 0)
			out[0] = '\0';
		return -1;
	}
	memcpy(out, h, n);
	out[n] = '\0';
	return 0;
}

char *
url_set_port(const char *text, long port)
{
	CURLU *h = curl_url();
	char num[24], *got = NULL, *out = NULL;

	snprintf(num, sizeof num, "%ld", port);
	if (h != NULL && curl_url_set(h, CURLUPART_URL, text, CURLU_ALLOW_SPACE) == CURLUE_OK &&
	    curl_url_set(h, CURLUPART_PORT, num, 0) == CURLUE_OK &&
	    curl_url_get(h, CURLUPART_URL, &got, 0) == CURLUE_OK)
		out = xstrdup(got);
	curl_free(got);
	curl_url_cleanup(h);
	return out;
}

/* s[0..n) percent-decoded, or NULL when empty or when it holds a control
 * character or is not UTF-8 once decoded. */
static char *
login_part(const char *s, size_t n)
{
	int len = 0;
	char *d = n > 0 && n < 4096 ? curl_easy_unescape(NULL, s, (int)n, &len) : NULL, *out = NULL;

	if (d != NULL && len > 0 && utf8_plain(d, (size_t)len))
		out = xstrndup(d, (size_t)len);
	if (d != NULL) {
		memset(d, 0, (size_t)len);
		curl_free(d);
	}
	return out;
}

int
url_take_login(const char *text, char **bare, char **user, char **password)
{
	const char *auth = text != NULL ? strstr(text, "://") : NULL, *at = NULL, *colon;
	size_t i;

	*bare = *user = *password = NULL;
	if (auth == NULL)
		return 0;
	auth += 3;
	/* the authority ends at the path, query or fragment; its last '@' ends the login */
	for (i = 0; auth[i] != '\0' && strchr("/?#\\", auth[i]) == NULL; i++)
		if (auth[i] == '@')
			at = auth + i;
	if (at == NULL)
		return 0;
	colon = memchr(auth, ':', (size_t)(at - auth));
	*user = login_part(auth, (size_t)((colon != NULL ? colon : at) - auth));
	if (colon != NULL)
		*password = login_part(colon + 1, (size_t)(at - colon - 1));
	*bare = xasprintf("%.*s%s", (int)(auth - text), text, at + 1);
	return 1;
}

void
url_origin_text(const struct url *u, char *out, size_t size)
{
	char *o = xasprintf("%s://%s%s%s", u->scheme, u->host, u->port ? ":" : "", u->port ? u->port : "");

	utf8_clean(out, size, o, size);
	free(o);
}

/* ---- lower case ---- */

static locale_t utf8_locale;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void
utf8_locale_init(void)
{
	utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/* The code point of the UTF-8 character at s (n bytes, valid), and its encoding. */
static unsigned long
cp_decode(const unsigned char *s, size_t n)
{
	static const unsigned char lead_mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	unsigned long c = s[0] & lead_mask[n];

	for (size_t i = 1; i < n; i++)
		c = c << 6 | (s[i] & 0x3f);
	return c;
}

static size_t
cp_encode(unsigned long c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

char *
url_lower(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), o = 0;
	char *out = xmalloc(len * 2 + 1); /* a lower-case letter takes at most twice the bytes */

	pthread_once(&utf8_once, utf8_locale_init);
	while (*p) {
		size_t n = 1;

		if (*p >= 0x80)
			while (n < 4 && (p[n] & 0xc0) == 0x80)
				n++;
		if (*p < 0x80)
			out[o++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + ('a' - 'A') : *p);
		else if (utf8_locale != (locale_t)0 && utf8_valid((const char *)p, n)) {
			wint_t lc = towlower_l((wint_t)cp_decode(p, n), utf8_locale);

			o += cp_encode(lc <= 0x10ffff ? (unsigned long)lc : cp_decode(p, n), out + o);
		} else {
			n = utf8_valid((const char *)p, n) ? n : 1; /* a byte that is not UTF-8 as it is */
			memcpy(out + o, p, n);
			o += n;
		}
		p += n;
	}
	out[o] = '\0';
	return out;
}

/* ---- natural keys ---- */

/* The length of s without the white space at its end, and without the dots
 * there too when dots. */
static size_t
trimmed_len(const char *s, bool dots)
{
	size_t n = strlen(s);

	while (n > 0 && (isspace((unsigned char)s[n - 1]) || (dots && s[n - 1] == '.')))
		n--;
	return n;
}

/* The length of s without a port (":digits") at its end. */
static size_t
portless_len(const char *s)
{
	size_t n = strlen(s), d = n;

	while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
		d--;
	return d > 0 && d < n && s[d - 1] == ':' ? d - 1 : n;
}

/* The key of a URL u whose origin (its scheme, "://" and its host, lower
 * case) is written at its start. */
static char *
url_form_key(const struct url *u, const char *origin)
{
	bool default_port = u->port == NULL ||
	    ((strcmp(u->scheme, "http") == 0 && u->port_num == 80) ||
	        (strcmp(u->scheme, "https") == 0 && u->port_num == 443));
	size_t path = strlen(u->path);

	while (path > 0 && u->path[path - 1] == '/')
		path--;
	return xasprintf("%s%s%s%.*s%s%s%s%s", origin, default_port ? "" : ":", default_port ? "" : u->port,
	    (int)path, u->path, u->query ? "?" : "", u->query ? u->query : "", u->fragment ? "#" : "",
	    u->fragment ? u->fragment : "");
}

/* *prefix: for a URL written plainly, its origin; for any other address,
 * the address itself, lower-cased, without a port written at its end (so
 * that "host:25" and "host" with port 25 share it). */
char *
url_key(const char *address, int64_t port, char **prefix)
{
	char *text = xstrndup(address, trimmed_len(address, false)), *low = url_lower(text), *key;
	char *origin = NULL;
	struct url u;

	if (url_parse(&u, NULL, text, CURLU_NON_SUPPORT_SCHEME | CURLU_ALLOW_SPACE) == CURLUE_OK) {
		char *host = url_lower(u.host);

		origin = xasprintf("%s://%s", u.scheme, host);
		free(host);
		if (strncmp(low, origin, strlen(origin)) != 0) { /* not written plainly */
			free(origin);
			origin = NULL;
		}
		key = origin != NULL ? url_form_key(&u, origin) : xstrdup(text);
		url_free(&u);
	} else {
		low[trimmed_len(low, true)] = '\0';
		key = port >= 0 ? xasprintf("%s:%lld", low, (long long)port) : xstrdup(low);
	}
	if (prefix != NULL)
		*prefix = origin != NULL ? origin : xstrndup(low, portless_len(low));
	else
		free(origin);
	free(low);
	free(text);
	return key;
}
