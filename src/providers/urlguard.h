/* The guard for URLs that come from users (providers.md §12, design §8).
 *
 * Two checks: urlguard_check_url() looks at the text of a URL (scheme, host,
 * no user info, no query or fragment) when a run is started; the address
 * check runs inside httpc on the address curl is about to connect to, for
 * every connection of a request, redirects included, so that DNS answers
 * (and DNS rebinding) cannot lead a request to a private address. */
#ifndef MIGRATOR_URLGUARD_H
#define MIGRATOR_URLGUARD_H
#include <stdbool.h>
#include <stddef.h>

#include <sys/socket.h>

/* What an untrusted request may reach ([security] settings). */
struct urlguard {
	bool allow_http;    /* http as well as https */
	bool allow_private; /* loopback, private, link-local, ... addresses too */
};

/* The longest URL the check accepts (it must fit prov_session.base_url). */
#define URLGUARD_MAX_URL 500

/* Check the text of url, read by curl's parser (core/url.h): an http(s)
 * scheme (http only when allow_http) written "https://", a host name or IP
 * literal as curl reads it, an optional port from 1 to 65535 and a path; no
 * user info, query, fragment, spaces or control characters. Returns 0, or -1
 * with a short reason in why (which may be NULL). Does not resolve the host:
 * the address of every connection is checked when it is made. */
int urlguard_check_url(const char *url, bool allow_http, char *why, size_t whysize);

/* Classify an address: returns NULL when it is a public unicast address, or
 * a static name of its class ("loopback", "private", "link-local", ...). */
const char *urlguard_addr_class(const struct sockaddr *sa, size_t salen);

/* The same for an address written as text (IPv4 dotted quad or IPv6).
 * Returns NULL for a public address, "invalid" when text is not an address. */
const char *urlguard_ip_class(const char *text);

/* True when a connection to sa is allowed under g. */
bool urlguard_addr_allowed(const struct urlguard *g, const struct sockaddr *sa, size_t salen);

#endif
