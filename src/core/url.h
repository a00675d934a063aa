/* URLs, read with curl's parser (CURLU): the one URL parser of the project.
 * httpc's redirect policy reads URLs here, so that what it checks is what
 * curl connects to. */
#ifndef MIGRATOR_URL_H
#define MIGRATOR_URL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>

/* A URL's parts as curl reads them; every string owned by the struct. */
struct url {
	char *scheme;   /* lower case */
	char *host;     /* percent-decoded, IPv4 and IPv6 literals normalized, IPv6 in brackets */
	char *port;     /* the port as given, or NULL */
	long port_num;  /* the port given, else the scheme's default; 0 when neither is known */
	char *path;     /* at least "/" */
	char *query;    /* without the '?', or NULL */
	char *fragment; /* without the '#', or NULL */
	bool userinfo;  /* a user name or password was given */
};

/* Read text with curl_url_set's flags (CURLU_*); when base is not NULL, text
 * may be relative and is resolved against base as curl resolves a redirect's
 * Location. Returns 0 with u filled (free it with url_free), or -1 with u
 * cleared when curl's parser refuses either text or the URL has no host. */
int url_parse(struct url *u, const char *base, const char *text, unsigned int flags);
void url_free(struct url *u);

/* "scheme://host[:port]" of u (the port only when given) for a message, never
 * its path or query: cleaned by utf8_clean into out[size]. */
void url_origin_text(const struct url *u, char *out, size_t size);

#endif
