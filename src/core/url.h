/* URLs, read with curl's parser (CURLU): the one URL parser of the project.
 * The URL guard, httpc's redirect policy, the adapters' host and port splits
 * and a monitor's natural key all read URLs here, so that what they check is
 * what curl connects to. */
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
 * Location. Returns CURLUE_OK (0) with u filled (free it with url_free), or
 * curl's error code with u cleared when curl's parser refuses either text
 * (CURLUE_NO_HOST when the URL has no host). */
CURLUcode url_parse(struct url *u, const char *base, const char *text, unsigned int flags);
void url_free(struct url *u);

/* The host of u without the brackets of an IPv6 literal into out[size].
 * Returns 0, or -1 (out empty) when it does not fit. */
int url_host_copy(const struct url *u, char *out, size_t size);

/* text with its port set to port, written out again by curl; malloc'd, or
 * NULL when curl cannot read text (read with CURLU_ALLOW_SPACE). */
char *url_set_port(const char *text, long port);

/* The basic-auth login a URL holds in its authority
 * ("scheme://user:password@host/..."): *bare (malloc'd) is text without
 * "user:password@", as written otherwise; *user and *password (malloc'd,
 * percent-decoded) its parts, NULL when absent, empty or when they decode to
 * control characters. Returns 1 when text holds a login (the '@' that ends
 * the authority's user part), else 0 with the three NULL. The caller wipes
 * *password and *bare's source. */
int url_take_login(const char *text, char **bare, char **user, char **password);

/* "scheme://host[:port]" of u (the port only when given) for a message, never
 * its path or query: cleaned by utf8_clean into out[size]. */
void url_origin_text(const struct url *u, char *out, size_t size);

/* s with every letter lower-cased (Unicode case mapping; bytes that are not
 * UTF-8 kept as they are); malloc'd. */
char *url_lower(const char *s);

/* The natural key of a monitor's address (docs/resources.md), white space at
 * its end left out. A URL (scheme://host...) written plainly, its scheme and
 * host first as curl reads them (letter case aside): the scheme and host
 * lower-cased, the port when given and not the scheme's default, the path
 * without trailing slashes, then the query and fragment as written. Any
 * other URL (a user name or password, a slash too few or too many, a host
 * percent-encoded or an IP literal in another spelling, white space before
 * it) is its own key, as written. An address curl cannot read (the host of
 * ping, port and DNS checks): lower-cased without trailing dots, then ":port"
 * when port >= 0. malloc'd. When prefix is not NULL, *prefix (malloc'd) is a
 * text that every address with the same key starts with, letter case aside
 * (url_lower): what an index on the address can find them by. */
char *url_key(const char *address, int64_t port, char **prefix);

#endif
