#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/url.h"
#include "providers/urlguard.h"

static int
why_set(char *why, size_t size, const char *text)
{
	if (why != NULL && size > 0)
		snprintf(why, size, "%s", text);
	return -1;
}

static bool
host_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

/* A DNS name: labels of 1 to 63 characters, 253 in all, one trailing dot allowed. */
static bool
host_name_valid(const char *h)
{
	size_t label = 0, len = strlen(h);

	if (len == 0 || len > 254 || h[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!host_char(h[i]))
			return false;
		if (h[i] == '.') {
			if (label == 0)
				return false;
			label = 0;
		} else if (++label > 63)
			return false;
	}
	return h[len - 1] == '.' ? len <= 254 : len <= 253;
}

/* The parts curl read from url: a host that is an IP literal or a valid name
 * (an address in any spelling is judged at connect time), a port from 1 to
 * 65535, no user info, query or fragment. 0, or -1 with why. */
static int
check_parts(const struct url *u, char *why, size_t whysize)
{
	if (u->userinfo)
		return why_set(why, whysize, "the URL must not contain a user name or password");
	if (u->query != NULL || u->fragment != NULL)
		return why_set(why, whysize, "the URL must not contain a query or fragment");
	if (u->host[0] != '[' && !host_name_valid(u->host))
		return why_set(why, whysize, "the URL has an invalid host name");
	if (u->port != NULL && (u->port_num < 1 || u->port_num > 65535))
		return why_set(why, whysize, "the URL has an invalid port");
	return 0;
}

int
urlguard_check_url(const char *url, bool allow_http, char *why, size_t whysize)
{
	const char *auth, *end;
	struct url u;
	CURLUcode rc;
	size_t len;

	if (url == NULL || *url == '\0')
		return why_set(why, whysize, "the URL is empty");
	len = strlen(url);
	if (len > URLGUARD_MAX_URL)
		return why_set(why, whysize, "the URL is too long");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)url[i];
		if (c <= 0x20 || c >= 0x7f || c == '\\')
			return why_set(why, whysize,
			    "the URL contains spaces, control or non-ASCII characters");
	}
	if (strncasecmp(url, "https://", 8) == 0)
		auth = url + 8;
	else if (strncasecmp(url, "http://", 7) == 0) {
		if (!allow_http)
			return why_set(why, whysize, "only https URLs are allowed");
		auth = url + 7;
	} else
		return why_set(why, whysize,
		    allow_http ? "the URL must start with https:// or http://" :
		                 "the URL must start with https://");
	if (*auth == '\0' || *auth == '/')
		return why_set(why, whysize, "the URL has no host");
	end = auth + strcspn(auth, "/?#");
	if (end[-1] == ':')
		return why_set(why, whysize, "the URL has an invalid port"); /* a ':' and no port */
	rc = url_parse(&u, NULL, url, 0);
	if (rc == CURLUE_BAD_PORT_NUMBER)
		return why_set(why, whysize, "the URL has an invalid port");
	if (rc == CURLUE_BAD_IPV6)
		return why_set(why, whysize, "the URL has a malformed IPv6 address");
	if (rc == CURLUE_NO_HOST)
		return why_set(why, whysize, "the URL has no host");
	if (rc != CURLUE_OK)
		return why_set(why, whysize, "the URL has an invalid host name");
	if (check_parts(&u, why, whysize) != 0) {
		url_free(&u);
		return -1;
	}
	url_free(&u);
	if (why != NULL && whysize > 0)
		why[0] = '\0';
	return 0;
}

static const char *
class_v4(uint32_t a)
{
	if ((a >> 24) == 0)
		return "unspecified";
	if ((a >> 24) == 127)
		return "loopback";
	if ((a >> 24) == 10 || (a & 0xfff00000u) == 0xac100000u || (a & 0xffff0000u) == 0xc0a80000u)
		return "private";
	if ((a & 0xffc00000u) == 0x64400000u)
		return "shared (CGNAT)";
	if ((a & 0xffff0000u) == 0xa9fe0000u)
		return "link-local";
	if ((a & 0xf0000000u) == 0xe0000000u)
		return "multicast";
	if ((a & 0xf0000000u) == 0xf0000000u)
		return "reserved";
	if ((a & 0xffffff00u) == 0xc0000000u || (a & 0xffffff00u) == 0xc0000200u ||
	    (a & 0xffffff00u) == 0xc6336400u || (a & 0xffffff00u) == 0xcb007100u ||
	    (a & 0xfffe0000u) == 0xc6120000u)
		return "reserved";
	return NULL;
}

static uint32_t
v4_at(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static const char *
class_v6(const unsigned char *b)
{
	static const unsigned char zero[16];
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	static const unsigned char nat64[12] = { 0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0 };

	if (memcmp(b, zero, 16) == 0)
		return "unspecified";
	if (memcmp(b, zero, 15) == 0 && b[15] == 1)
		return "loopback";
	if (memcmp(b, mapped, 12) == 0)
		return class_v4(v4_at(b + 12));
	if (memcmp(b, zero, 12) == 0)
		return "reserved"; /* IPv4-compatible (deprecated) */
	if (memcmp(b, nat64, 12) == 0)
		return class_v4(v4_at(b + 12));
	if (b[0] == 0x20 && b[1] == 0x02)
		return class_v4(v4_at(b + 2)); /* 6to4 */
	if (b[0] == 0xff)
		return "multicast";
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
		return "link-local";
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0)
		return "private"; /* site-local (deprecated) */
	if ((b[0] & 0xfe) == 0xfc)
		return "unique-local";
	if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8)
		return "reserved"; /* documentation */
	if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0)
		return "reserved"; /* Teredo */
	if ((b[0] & 0xe0) != 0x20)
		return "reserved"; /* outside global unicast 2000::/3 */
	return NULL;
}

/* The family of sa, read without type punning (curl hands us a struct
 * sockaddr that is really a sockaddr_in or sockaddr_in6). */
static int
addr_family(const struct sockaddr *sa, size_t salen)
{
	sa_family_t fam;

	if (sa == NULL || salen < offsetof(struct sockaddr, sa_family) + sizeof fam)
		return -1;
	memcpy(&fam, (const char *)sa + offsetof(struct sockaddr, sa_family), sizeof fam);
	return fam;
}

const char *
urlguard_addr_class(const struct sockaddr *sa, size_t salen)
{
	int fam = addr_family(sa, salen);

	if (fam == AF_INET && salen >= sizeof(struct sockaddr_in)) {
		struct sockaddr_in s4;

		memcpy(&s4, sa, sizeof s4);
		return class_v4(ntohl(s4.sin_addr.s_addr));
	}
	if (fam == AF_INET6 && salen >= sizeof(struct sockaddr_in6)) {
		struct sockaddr_in6 s6;

		memcpy(&s6, sa, sizeof s6);
		return class_v6(s6.sin6_addr.s6_addr);
	}
	return "not an internet address";
}

const char *
urlguard_ip_class(const char *text)
{
	struct sockaddr_in s4;
	struct sockaddr_in6 s6;

	memset(&s4, 0, sizeof s4);
	memset(&s6, 0, sizeof s6);
	if (text != NULL && inet_pton(AF_INET, text, &s4.sin_addr) == 1) {
		s4.sin_family = AF_INET;
		return urlguard_addr_class((const struct sockaddr *)(const void *)&s4, sizeof s4);
	}
	if (text != NULL && inet_pton(AF_INET6, text, &s6.sin6_addr) == 1) {
		s6.sin6_family = AF_INET6;
		return urlguard_addr_class((const struct sockaddr *)(const void *)&s6, sizeof s6);
	}
	return "invalid";
}

bool
urlguard_addr_allowed(const struct urlguard *g, const struct sockaddr *sa, size_t salen)
{
	int fam = addr_family(sa, salen);

	if ((fam != AF_INET || salen < sizeof(struct sockaddr_in)) &&
	    (fam != AF_INET6 || salen < sizeof(struct sockaddr_in6)))
		return false;
	if (g != NULL && g->allow_private)
		return true;
	return urlguard_addr_class(sa, salen) == NULL;
}
