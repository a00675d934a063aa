#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void
url_origin_text(const struct url *u, char *out, size_t size)
{
	char *o = xasprintf("%s://%s%s%s", u->scheme, u->host, u->port ? ":" : "", u->port ? u->port : "");

	utf8_clean(out, size, o, size);
	free(o);
}
