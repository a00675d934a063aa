/* libFuzzer target: the URL guard, on any bytes. Input: a byte choosing the
 * part, then its bytes.
 *   0: an address as text (urlguard_ip_class);
 *   1: the bytes of a struct sockaddr (urlguard_addr_class and
 *      urlguard_addr_allowed under each guard);
 *   2: a user's URL (urlguard_check_url, http allowed or not by the first
 *      byte).
 * Oracles: a class is NULL or one of the known names; an IPv6 sockaddr
 * classifies as its text form does; a strict guard allows only a public
 * internet address, a lax one every internet address; a URL the check
 * accepts is one curl reads with an http(s) scheme (https unless allowed),
 * no user info, query or fragment, and a host that is an IP literal or made
 * of name characters, so that only the connect-time check can refuse it. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "providers/urlguard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
known_class(const char *cls)
{
	static const char *const names[] = { "unspecified", "loopback", "private", "shared (CGNAT)",
		"link-local", "multicast", "reserved", "unique-local", "not an internet address", "invalid" };

	if (cls == NULL)
		return;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(cls, names[i]) == 0)
			return;
	abort();
}

static void
ip_text(const char *text)
{
	const char *cls = urlguard_ip_class(text);
	unsigned char buf[16];

	known_class(cls);
	if ((inet_pton(AF_INET, text, buf) == 1 || inet_pton(AF_INET6, text, buf) == 1) !=
	    (cls == NULL || strcmp(cls, "invalid") != 0))
		abort(); /* "invalid" exactly when the text is no address */
}

static void
sockaddr_bytes(const uint8_t *data, size_t n)
{
	static const struct urlguard guards[] = { { false, false }, { true, false }, { false, true },
		{ true, true } };
	struct sockaddr_storage ss;
	const struct sockaddr *sa = (const struct sockaddr *)&ss;
	size_t len = n < sizeof ss ? n : sizeof ss;
	const char *cls;

	memset(&ss, 0, sizeof ss);
	memcpy(&ss, data, len);
	cls = urlguard_addr_class(sa, len);
	known_class(cls);
	for (size_t g = 0; g < sizeof guards / sizeof guards[0]; g++) {
		bool inet = (ss.ss_family == AF_INET && len >= sizeof(struct sockaddr_in)) ||
		    (ss.ss_family == AF_INET6 && len >= sizeof(struct sockaddr_in6));
		bool ok = urlguard_addr_allowed(&guards[g], sa, len);

		if (ok != (inet && (guards[g].allow_private || cls == NULL)))
			abort();
	}
	if (ss.ss_family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		struct sockaddr_in6 s6;
		char text[INET6_ADDRSTRLEN];
		const char *again;

		memcpy(&s6, &ss, sizeof s6);
		inet_ntop(AF_INET6, &s6.sin6_addr, text, sizeof text);
		again = urlguard_ip_class(text);
		if ((cls == NULL) != (again == NULL) || (cls != NULL && strcmp(cls, again) != 0))
			abort();
	}
}

/* The host curl reads from an accepted URL is an IP literal or a name. */
static bool
host_plain(const char *h)
{
	size_t n = strlen(h);
	unsigned char buf[16];

	if (h[0] == '[') {
		char inner[64];

		if (n < 3 || n - 2 >= sizeof inner || h[n - 1] != ']')
			return false;
		memcpy(inner, h + 1, n - 2);
		inner[n - 2] = '\0';
		return inet_pton(AF_INET6, inner, buf) == 1;
	}
	return n > 0 && strspn(h, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == n;
}

static void
user_url(const char *text, bool allow_http)
{
	char why[160], *scheme = NULL, *host = NULL, *part = NULL;
	CURLU *h;

	if (urlguard_check_url(text, allow_http, why, sizeof why) != 0)
		return;
	h = curl_url();
	if (curl_url_set(h, CURLUPART_URL, text, 0) != CURLUE_OK ||
	    curl_url_get(h, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(h, CURLUPART_HOST, &host, 0) != CURLUE_OK || !host_plain(host) ||
	    (strcmp(scheme, "https") != 0 && !(allow_http && strcmp(scheme, "http") == 0)))
		abort();
	if (curl_url_get(h, CURLUPART_USER, &part, 0) == CURLUE_OK ||
	    curl_url_get(h, CURLUPART_PASSWORD, &part, 0) == CURLUE_OK ||
	    curl_url_get(h, CURLUPART_QUERY, &part, 0) == CURLUE_OK ||
	    curl_url_get(h, CURLUPART_FRAGMENT, &part, 0) == CURLUE_OK)
		abort();
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(h);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 1)
		return 0;
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 3) {
	case 0:
		ip_text(text);
		break;
	case 1:
		sockaddr_bytes(data + 1, size - 1);
		break;
	default:
		user_url(text, (data[0] & 0x80) != 0);
	}
	free(text);
	return 0;
}
