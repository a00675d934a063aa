/* Unit tests of the secret scrubber (src/core/scrub.c): a key that a provider
 * echoes back, in each encoding scrub.h lists, is taken out whole, and the
 * text around it is kept as it was. The encoders below are the tests' own. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "core/scrub.h"

/* A Stripe-like secret key, and a WHMCS API secret with the characters
 * every encoding changes. */
static const char stripe[] = "sk_live_51H8xKzLq4eC39HqLyjWDarjtT1zdp7dc";
static const char whmcs[] = "Wh7&cS3<cr3t>/+k3y&P@ss";

static struct scrub *
scrub_with(const char *secret)
{
	struct scrub *sc = scrub_new();

	scrub_add(sc, secret);
	return sc;
}

/* text scrubbed (a new string) */
static char *
scrubbed(const struct scrub *sc, const char *text)
{
	size_t n;
	char *out = scrub_text(sc, text, strlen(text), &n);

	assert_int_equal(strlen(out), n);
	return out;
}

/* before + enc + after, scrubbed, is before + "[redacted]" + after. */
static void
assert_redacted(const char *secret, const char *before, const char *enc, const char *after)
{
	struct scrub *sc = scrub_with(secret);
	char text[4096], want[4096], *out;

	snprintf(text, sizeof text, "%s%s%s", before, enc, after);
	snprintf(want, sizeof want, "%s[redacted]%s", before, after);
	out = scrubbed(sc, text);
	if (strcmp(out, want) != 0)
		fail_msg("scrubbing \"%s\"\n gave \"%s\"\n not   \"%s\"", text, out, want);
	free(out);
	scrub_free(sc);
}

/* No len-long run of needle is left in text. */
static void
assert_no_run_of(const char *text, const char *needle, size_t len)
{
	size_t n = strlen(needle);

	for (size_t i = 0; i + len <= n; i++) {
		char run[64];
		snprintf(run, sizeof run, "%.*s", (int)len, needle + i);
		if (strstr(text, run) != NULL)
			fail_msg("\"%s\" left in: %s", run, text);
	}
}

/* No SCRUB_RUN-long run of needle is left in text. */
static void
assert_no_run(const char *text, const char *needle)
{
	assert_no_run_of(text, needle, SCRUB_RUN);
}

/* %XX for every byte but the unreserved ones (RFC 3986), or for every byte. */
static void
pct(char *out, size_t size, const char *in, int all)
{
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p && o + 4 < size; p++) {
		if (!all && (isalnum(*p) || strchr("-._~", *p)))
			out[o++] = (char)*p;
		else
			o += (size_t)snprintf(out + o, size - o, "%%%02X", *p);
	}
	out[o] = '\0';
}

/* Every character as \u00XX, as some JSON writers do. */
static void
json_u(char *out, size_t size, const char *in)
{
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p && o + 7 < size; p++)
		o += (size_t)snprintf(out + o, size - o, "\\u%04x", *p);
	out[o] = '\0';
}

/* Every character as a numeric reference, in one of these forms. */
enum ref { DEC, DEC_NO_SEMI, DEC_ZEROS, HEX, HEX_UPPER_NO_SEMI, HEX_NO_SEMI };

static void
html_num(char *out, size_t size, const char *in, enum ref form)
{
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p && o + 10 < size; p++) {
		int c = *p;
		switch (form) {
		case DEC:
			o += (size_t)snprintf(out + o, size - o, "&#%d;", c);
			break;
		case DEC_NO_SEMI:
			o += (size_t)snprintf(out + o, size - o, "&#%d", c);
			break;
		case DEC_ZEROS:
			o += (size_t)snprintf(out + o, size - o, "&#000%d;", c);
			break;
		case HEX:
			o += (size_t)snprintf(out + o, size - o, "&#x%x;", c);
			break;
		case HEX_UPPER_NO_SEMI:
			o += (size_t)snprintf(out + o, size - o, "&#X%X", c);
			break;
		case HEX_NO_SEMI:
			o += (size_t)snprintf(out + o, size - o, "&#x%x", c);
			break;
		}
	}
	out[o] = '\0';
}

static void
test_scrub_json_escaped_then_url_encoded(void **state)
{
	char j[1024], u[4096];

	(void)state;
	json_u(j, sizeof j, stripe);
	pct(u, sizeof u, j, 0); /* \u0073 -> %5Cu0073 */
	assert_redacted(stripe, "error=", u, "&code=401");
	json_u(j, sizeof j, whmcs);
	pct(u, sizeof u, j, 1);
	assert_redacted(whmcs, "?msg=", u, "&x=1");
	/* a UTF-8 key, its characters as \u escapes, then URL-encoded */
	assert_redacted("clé-secrète-9f8e7d6c5b4a", "e=", "cl%5Cu00e9-secr%5Cu00e8te-9f8e7d6c5b4a", " end");
}

static void
test_scrub_html_named_entities(void **state)
{
	(void)state;
	/* htmlspecialchars() of the WHMCS secret, with &#39; or &apos; */
	assert_redacted(whmcs, "<p>Invalid secret: ", "Wh7&amp;cS3&lt;cr3t&gt;/+k3y&amp;P@ss", "</p>");
	/* the legacy names without ';', names of any ASCII character, and the
	 * issue's short key a&b<c */
	assert_redacted(whmcs, "<p>", "Wh7&ampcS3&LTcr3t&GT&sol;&plus;k3y&AMP;P&commat;ss", "</p>");
	assert_redacted("a&b<c", "<td>", "a&amp;b&lt;c", "</td>");
	assert_redacted("it's\"secret\"key", "<b>", "it&apos;s&quot;secret&QUOT;key", "</b>");
}

static void
test_scrub_html_decimal_entities(void **state)
{
	char h[2048];

	(void)state;
	html_num(h, sizeof h, whmcs, DEC);
	assert_redacted(whmcs, "<p>key ", h, " refused</p>");
	html_num(h, sizeof h, stripe, DEC_NO_SEMI); /* without ';' where HTML allows it */
	assert_redacted(stripe, "<p>key ", h, " refused</p>");
	html_num(h, sizeof h, stripe, DEC_ZEROS);
	assert_redacted(stripe, "<p>", h, "</p>");
	assert_redacted("clé-secrète-9f8e7d6c5b4a", "<p>", "cl&#233;-secr&#232;te-9f8e7d6c5b4a", "</p>");
}

static void
test_scrub_html_hex_entities(void **state)
{
	char h[2048];

	(void)state;
	html_num(h, sizeof h, whmcs, HEX);
	assert_redacted(whmcs, "<p>key ", h, " refused</p>");
	html_num(h, sizeof h, whmcs, HEX_UPPER_NO_SEMI);
	assert_redacted(whmcs, "<p>key ", h, " refused</p>");
	html_num(h, sizeof h, stripe, HEX_NO_SEMI);
	assert_redacted(stripe, "<p>key ", h, " refused</p>");
}

static void
test_scrub_upper_and_lower_case(void **state)
{
	char up[128], low[128];
	size_t i;

	(void)state;
	for (i = 0; stripe[i]; i++) {
		up[i] = (char)toupper((unsigned char)stripe[i]);
		low[i] = (char)tolower((unsigned char)stripe[i]);
	}
	up[i] = low[i] = '\0';
	assert_redacted(stripe, "INVALID API KEY: ", up, " (401)");
	assert_redacted(stripe, "invalid api key: ", low, " (401)");
	/* upper-cased, then URL-encoded */
	assert_redacted(whmcs, "ERR=", "WH7%26CS3%3CCR3T%3E%2F%2BK3Y%26P%40SS", ";");
}

static void
test_scrub_url_encoded_twice(void **state)
{
	char once[1024], twice[4096];

	(void)state;
	pct(once, sizeof once, whmcs, 0);
	pct(twice, sizeof twice, once, 0); /* & -> %26 -> %2526 */
	assert_redacted(whmcs, "next=https%3A%2F%2Fx.example%2F%3Fs%3D", twice, "&y=2");
	pct(once, sizeof once, stripe, 1);
	pct(twice, sizeof twice, once, 1);
	assert_redacted(stripe, "u=", twice, "&y=2");
}

static void
test_scrub_form_encoded(void **state)
{
	(void)state;
	/* a passphrase with spaces, as a form body writes it */
	assert_redacted("correct horse battery staple", "user=me&pass=", "correct+horse+battery%20staple",
	    "&x=1");
	assert_redacted(whmcs, "s=", "Wh7%26cS3%3Ccr3t%3E%2F%2Bk3y%26P%40ss", "&x=1");
}

/* The base64 of prefix + secret, in one of libsodium's variants. */
static void
b64(char *out, size_t size, const char *prefix, const char *secret, int variant)
{
	char raw[256];

	snprintf(raw, sizeof raw, "%s%s", prefix, secret);
	sodium_bin2base64(out, size, (const unsigned char *)raw, strlen(raw), variant);
}

static void
test_scrub_base64(void **state)
{
	const int variants[] = { sodium_base64_VARIANT_ORIGINAL, sodium_base64_VARIANT_ORIGINAL_NO_PADDING,
		sodium_base64_VARIANT_URLSAFE, sodium_base64_VARIANT_URLSAFE_NO_PADDING };
	const char *prefixes[] = { "", "u:", "api:" }; /* the key at each byte alignment */
	const char *secrets[] = { stripe, whmcs };
	char enc[512], text[1024], *out;

	(void)state;
	for (size_t s = 0; s < 2; s++) {
		struct scrub *sc = scrub_with(secrets[s]);
		for (size_t v = 0; v < 4; v++)
			for (size_t p = 0; p < 3; p++) {
				size_t n;
				b64(enc, sizeof enc, prefixes[p], secrets[s], variants[v]);
				n = strlen(enc);
				/* the whole echo, after a header name kept as it is */
				snprintf(text, sizeof text, "Authorization: Basic %s\r\nX: 1", enc);
				out = scrubbed(sc, text);
				assert_no_run(out, enc + (strlen(prefixes[p]) * 8 + 5) / 6);
				assert_non_null(strstr(out, "[redacted]"));
				assert_int_equal(strncmp(out, "Authorization: Basic ", 21), 0);
				assert_non_null(strstr(out, "\r\nX: 1"));
				free(out);
				/* its tail alone: the last 12 characters (7 bytes of the key
				 * when it ends in "==") */
				snprintf(text, sizeof text, "...%s end", enc + n - SCRUB_RUN);
				out = scrubbed(sc, text);
				assert_string_equal(out, "...[redacted] end");
				free(out);
			}
		scrub_free(sc);
	}
}

static void
test_scrub_base64_wrapped(void **state)
{
	/* PEM wraps at 64, MIME at 76; an account id of this length puts the
	 * first 6 characters of the key's base64 at the end of a line */
	const struct {
		size_t width;
		const char *eol, *account;
	} wraps[] = { { 64, "\n", "acct_1234567890" }, { 76, "\r\n", "acct_1234567890123456789" } };
	struct scrub *sc = scrub_with(stripe);
	char doc[512], enc[1024], text[2048], flat[2048], *out;

	(void)state;
	for (size_t w = 0; w < 2; w++) {
		size_t o = (size_t)snprintf(text, sizeof text, "-----BEGIN BLOB-----\n"), f = 0, off, first,
		       last;
		/* a document holding the key, base64-encoded and wrapped;
		 * enc[first..last) are the characters only the key's bytes decide */
		snprintf(doc, sizeof doc, "{\"account\":\"%s\",\"secret_key\":\"%s\",\"mode\":\"live\"}",
		    wraps[w].account, stripe);
		sodium_bin2base64(enc, sizeof enc, (const unsigned char *)doc, strlen(doc),
		    sodium_base64_VARIANT_ORIGINAL);
		off = (size_t)(strstr(doc, stripe) - doc);
		first = (off * 8 + 5) / 6;
		last = (off + strlen(stripe)) * 8 / 6;
		assert_int_equal(first, wraps[w].width - 6);
		for (size_t i = 0; enc[i]; i++) {
			if (i > 0 && i % wraps[w].width == 0)
				o += (size_t)snprintf(text + o, sizeof text - o, "%s", wraps[w].eol);
			text[o++] = enc[i];
		}
		snprintf(text + o, sizeof text - o, "%s-----END BLOB-----\n", wraps[w].eol);
		out = scrubbed(sc, text);
		/* the key's characters are gone, on both lines: not even the 6
		 * before the line break are left */
		for (size_t i = 0; out[i]; i++)
			if (out[i] != '\r' && out[i] != '\n')
				flat[f++] = out[i];
		flat[f] = '\0';
		enc[last] = '\0';
		assert_no_run_of(flat, enc + first, 6);
		assert_int_equal(strncmp(out, "-----BEGIN BLOB-----\n", 21), 0);
		assert_non_null(strstr(out, "-----END BLOB-----\n"));
		free(out);
	}
	scrub_free(sc);
}

static void
test_scrub_keeps_ordinary_text(void **state)
{
	/* text that shares runs of at most 11 characters with the keys, HTML
	 * with entities, base64 of something else, and escapes: kept as it is */
	const char *text = "{\"error\":\"sk_live_ keys start sk_live_51H; 4eC39HqLyjW is not one\","
	                   "\"html\":\"<p>Tom &amp; Jerry &lt;3 &#169; &#x2603; caf&eacute;</p>\","
	                   "\"url\":\"https:\\/\\/x.example\\/?a=1&b=%2F&c=Wh7%26cS3%3C\","
	                   "\"data\":\"c2tfbGl2ZV9oZWxsbw==\",\"note\":\"WH7&CS3<CR3\"}";
	struct scrub *sc = scrub_new();
	char *out;

	(void)state;
	scrub_add(sc, stripe);
	scrub_add(sc, whmcs);
	out = scrubbed(sc, text);
	assert_string_equal(out, text);
	free(out);
	scrub_free(sc);
}

/* found by fuzzing: cutting out one echo changes how the next decodes. In
 * the text as it came, the second echo's "&ampa" follows the first's '&'
 * and reads as "&amp" + 'a'; once the first echo is cut out, the second
 * reads as the key, and is found on the second pass. */
static void
test_scrub_searches_again_after_a_cut(void **state)
{
	(void)state;
	assert_redacted("ampa&csAY>\"d&", "<p>", "ampa&csAY>\\\"d&ampa&AMP;csAY&GT;&QUOT;d&AMP;", "</p>");
}

static void
test_scrub_every_form(void **state)
{
	const char *secret = "sk_live/4eC39HqLyjWDarjtT1zdp7dc";
	struct scrub *sc = scrub_new();
	char b64enc[128], userpass[80], text[1024];
	size_t n;
	char *out;

	(void)state;
	scrub_add(sc, secret);
	scrub_add(sc, "abc"); /* too short to be a secret */
	snprintf(userpass, sizeof userpass, "user:%s", secret);
	sodium_bin2base64(b64enc, sizeof b64enc, (const unsigned char *)userpass, strlen(userpass),
	    sodium_base64_VARIANT_ORIGINAL);
	snprintf(text, sizeof text,
	    "verbatim=%s; lower=sk_live%%2f4eC39HqLyjWDarjtT1zdp7dc; upper=sk_live%%2F4eC39HqLyjWDarjtT1zdp7dc; "
	    "json={\"k\":\"sk_live\\/4eC39HqLyjWDarjtT1zdp7dc\"}; split=sk_live/4eC3 9HqLyjW\nDarjtT1zdp7dc; "
	    "basic=Basic %s; tail=...yjWDarjtT1zd; short=HqLyjWDarjt abc",
	    secret, b64enc);
	out = scrub_text(sc, text, strlen(text), &n);
	assert_int_equal(strlen(out), n);
	assert_no_run(out, secret);
	assert_no_run(out, b64enc + 8);
	assert_null(strstr(out, "yjWDarjtT1zd")); /* a 12-character run, cut off the end of a page */
	assert_non_null(strstr(out, "verbatim=[redacted]; lower=[redacted]; upper=[redacted]; "));
	assert_non_null(strstr(out, "json={\"k\":\"[redacted]\"}; split=[redacted]; "));
	assert_non_null(strstr(out, "short=HqLyjWDarjt abc")); /* 11 characters give nothing away */
	free(out);
	/* found by fuzzing: a run hidden in an escape ("\u004e" ends in "4e") */
	strcpy(text, "a \\u004eC39HqLyjWD73k b");
	out = scrub_text(sc, text, strlen(text), &n);
	assert_null(strstr(out, "4eC39HqLyjWD"));
	free(out);

	/* in a buffer: scrubbed whole, then cut on a character boundary */
	strcpy(text, secret);
	strcat(text, " ééééééééé");
	scrub_buf(sc, text, 20);
	assert_string_equal(text, "[redacted] éééé");
	scrub_free(sc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scrub_every_form),
		cmocka_unit_test(test_scrub_json_escaped_then_url_encoded),
		cmocka_unit_test(test_scrub_html_named_entities),
		cmocka_unit_test(test_scrub_html_decimal_entities),
		cmocka_unit_test(test_scrub_html_hex_entities),
		cmocka_unit_test(test_scrub_upper_and_lower_case),
		cmocka_unit_test(test_scrub_url_encoded_twice),
		cmocka_unit_test(test_scrub_form_encoded),
		cmocka_unit_test(test_scrub_base64),
		cmocka_unit_test(test_scrub_base64_wrapped),
		cmocka_unit_test(test_scrub_keeps_ordinary_text),
		cmocka_unit_test(test_scrub_searches_again_after_a_cut),
	};

	if (sodium_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
