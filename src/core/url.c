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

int
url_parse(struct url *u, const char *base, const char *text, unsigned int flags)
{
	CURLU *h = curl_url();
	char *user, *pass, *port;

	memset(u, 0, sizeof *u);
	if (h == NULL || text == NULL ||
	    (base != NULL && curl_url_set(h, CURLUPART_URL, base, flags) != CURLUE_OK) ||
	    curl_url_set(h, CURLUPART_URL, text, flags) != CURLUE_OK ||
	    (u->host = part(h, CURLUPART_HOST, 0)) == NULL || u->host[0] == '\0') {
		curl_url_cleanup(h);
		url_free(u);
		return -1;
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
		return -1;
	}
	return 0;
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

void
url_origin_text(const struct url *u, char *out, size_t size)
{
	char *o = xasprintf("%s://%s%s%s", u->scheme, u->host, u->port ? ":" : "", u->port ? u->port : "");

	utf8_clean(out, size, o, size);
	free(o);
}
