/* libFuzzer target: the secret scrubber (src/core/scrub.c) against an oracle.
 *
 * From the input: a secret of SCRUB_MIN_SECRET..64 bytes (printable ASCII,
 * space included, and, when the input asks, UTF-8 characters of 2, 3 and 4
 * bytes), and a text made of fuzz-chosen bytes and encodings of the secret or
 * of a part of it (plain, %XX once and twice, form, JSON, JSON then %XX, HTML
 * named, decimal and hex references, base64 standard and URL-safe, padded or
 * not, wrapped or not, after 0-2 other bytes, upper and lower case). The text
 * is scrubbed with the secret and one more ("demo-key").
 *
 * THE ORACLE. s is the secret with white space (space, \t \n \v \f \r) left
 * out and ASCII letters lower-cased; when s is shorter than SCRUB_MIN_SECRET
 * nothing is checked. O is the scrubbed text with every "[redacted]" replaced
 * by the byte 0x01 (so that a secret made of the marker's own letters is not
 * found in the marker). Each of these views of O is made by this file's own
 * decoders (written for this oracle, sharing no code with the scrubber):
 *     O, pct(O), pct(pct(O)), form(O), json(O), json(pct(O)), html(O)
 *   pct: %XX (hex in either case) into the byte;
 *   form: '+' into a space, and pct;
 *   json: \" \\ \/ \b \f \n \r \t, \uXXXX into UTF-8 (a surrogate pair into
 *     one character; a lone surrogate is not an escape);
 *   html: &#DDD and &#xHHH / &#XHHH (any number of digits, then an optional
 *     ';'; code points 1..0x10FFFF but surrogates) into UTF-8; &NAME; for
 *     the WHATWG names of ASCII characters; &amp &lt &gt &quot (and upper
 *     case) also without the ';'.
 * Each view, with white space left out and ASCII letters lower-cased, must
 * not hold any SCRUB_RUN-byte run of s, nor s whole when s is shorter.
 * Base64, checked by encoding (a decoder cannot tell which characters of a
 * base64 text only the secret decided): for both alphabets and each byte
 * alignment k in 0..2, E = base64(k bytes + secret) padded; C = the
 * characters of E that only the secret's bytes decide, and T = C followed by
 * the rest of E (the last character computed as if the secret ended the
 * data, and the padding). O with white space left out must not hold a
 * SCRUB_RUN-character run of C or of T (of either whole when shorter).
 * A failed check aborts. (Why SCRUB_RUN and not SCRUB_MIN_SECRET characters:
 * the scrubber's contract is that SCRUB_RUN characters give a secret away and
 * shorter runs are ordinary text, "sk_live_" or "live" left readable.) */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/scrub.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SECRET 64
#define MAX_TEXT   65536

/* A growing byte string. */
struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void
put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (b->p == NULL)
			abort();
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void
putc_(struct buf *b, unsigned char c)
{
	put(b, &c, 1);
}

static void
putf(struct buf *b, const char *fmt, unsigned v)
{
	char t[32];
	int n = snprintf(t, sizeof t, fmt, v);

	put(b, t, (size_t)n);
}

static bool
white(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static unsigned char
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c | 0x20) : c;
}

static int
hexv(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static bool
alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (lower(c) >= 'a' && lower(c) <= 'z');
}

static void
put_utf8(struct buf *b, uint32_t cp)
{
	if (cp < 0x80) {
		putc_(b, (unsigned char)cp);
	} else if (cp < 0x800) {
		putc_(b, (unsigned char)(0xC0 | (cp >> 6)));
		putc_(b, (unsigned char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		putc_(b, (unsigned char)(0xE0 | (cp >> 12)));
		putc_(b, (unsigned char)(0x80 | ((cp >> 6) & 0x3F)));
		putc_(b, (unsigned char)(0x80 | (cp & 0x3F)));
	} else {
		putc_(b, (unsigned char)(0xF0 | (cp >> 18)));
		putc_(b, (unsigned char)(0x80 | ((cp >> 12) & 0x3F)));
		putc_(b, (unsigned char)(0x80 | ((cp >> 6) & 0x3F)));
		putc_(b, (unsigned char)(0x80 | (cp & 0x3F)));
	}
}

/* The code point of the UTF-8 character at p[0..n) and its length in *len,
 * or -1 (*len = 1) when it is not one. */
static long
utf8_at(const unsigned char *p, size_t n, size_t *len)
{
	size_t l = p[0] < 0x80    ? 1 :
	    (p[0] & 0xE0) == 0xC0 ? 2 :
	    (p[0] & 0xF0) == 0xE0 ? 3 :
	    (p[0] & 0xF8) == 0xF0 ? 4 :
	                            0;
	long cp;

	*len = 1;
	if (l == 0 || l > n)
		return -1;
	cp = l == 1 ? p[0] : l == 2 ? (p[0] & 0x1F) : l == 3 ? (p[0] & 0x0F) : (p[0] & 0x07);
	for (size_t i = 1; i < l; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return -1;
		cp = cp << 6 | (p[i] & 0x3F);
	}
	*len = l;
	return cp;
}

/* ---- the oracle's decoders ---- */

static struct buf
dec_pct(const struct buf *in, bool form)
{
	struct buf o = { 0 };

	put(&o, "", 0);
	for (size_t i = 0; i < in->n; i++) {
		if (form && in->p[i] == '+') {
			putc_(&o, ' ');
		} else if (in->p[i] == '%' && i + 2 < in->n && hexv(in->p[i + 1]) >= 0 &&
		    hexv(in->p[i + 2]) >= 0) {
			putc_(&o, (unsigned char)(hexv(in->p[i + 1]) * 16 + hexv(in->p[i + 2])));
			i += 2;
		} else {
			putc_(&o, in->p[i]);
		}
	}
	return o;
}

/* \uXXXX at p[i..n): its value, or -1 */
static long
u_escape(const unsigned char *p, size_t i, size_t n)
{
	long v = 0;

	if (i + 6 > n || p[i] != '\\' || p[i + 1] != 'u')
		return -1;
	for (size_t k = i + 2; k < i + 6; k++) {
		if (hexv(p[k]) < 0)
			return -1;
		v = v * 16 + hexv(p[k]);
	}
	return v;
}

static struct buf
dec_json(const struct buf *in)
{
	struct buf o = { 0 };
	const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";

	put(&o, "", 0);
	for (size_t i = 0; i < in->n; i++) {
		long u = u_escape(in->p, i, in->n), lo;
		const char *e;

		if (in->p[i] == '\\' && i + 1 < in->n && in->p[i + 1] != 0 &&
		    (e = strchr(from, in->p[i + 1])) != NULL) {
			putc_(&o, (unsigned char)to[e - from]);
			i++;
		} else if (u >= 0 && (u < 0xD800 || u > 0xDFFF)) {
			put_utf8(&o, (uint32_t)u);
			i += 5;
		} else if (u >= 0xD800 && u <= 0xDBFF && (lo = u_escape(in->p, i + 6, in->n)) >= 0xDC00 &&
		    lo <= 0xDFFF) {
			put_utf8(&o, (uint32_t)(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)));
			i += 11;
		} else {
			putc_(&o, in->p[i]);
		}
	}
	return o;
}

/* The WHATWG named references whose value is one ASCII character. */
/* clang-format off */
static const struct {
	const char *name;
	char c;
} names[] = {
	{ "AMP", '&' }, { "DiacriticalGrave", '`' }, { "GT", '>' }, { "Hat", '^' }, { "LT", '<' },
	{ "NewLine", '\n' }, { "QUOT", '"' }, { "Tab", '\t' }, { "UnderBar", '_' }, { "VerticalLine", '|' },
	{ "amp", '&' }, { "apos", '\'' }, { "ast", '*' }, { "bsol", '\\' }, { "colon", ':' }, { "comma", ',' },
	{ "commat", '@' }, { "dollar", '$' }, { "equals", '=' }, { "excl", '!' }, { "grave", '`' }, { "gt", '>' },
	{ "lbrace", '{' }, { "lbrack", '[' }, { "lcub", '{' }, { "lowbar", '_' }, { "lpar", '(' }, { "lsqb", '[' },
	{ "lt", '<' }, { "midast", '*' }, { "num", '#' }, { "percnt", '%' }, { "period", '.' }, { "plus", '+' },
	{ "quest", '?' }, { "quot", '"' }, { "rbrace", '}' }, { "rbrack", ']' }, { "rcub", '}' }, { "rpar", ')' },
	{ "rsqb", ']' }, { "semi", ';' }, { "sol", '/' }, { "verbar", '|' }, { "vert", '|' },
};
/* clang-format on */
#define NNAMES (sizeof names / sizeof names[0])
static const char *const legacy[] = { "amp", "AMP", "lt", "LT", "gt", "GT", "quot", "QUOT" };

static struct buf
dec_html(const struct buf *in)
{
	struct buf o = { 0 };
	const unsigned char *p = in->p;
	size_t n = in->n;

	put(&o, "", 0);
	for (size_t i = 0; i < n; i++) {
		size_t j = i + 1, len = 0;
		bool done = false;

		if (p[i] != '&' || j >= n) {
			putc_(&o, p[i]);
			continue;
		}
		if (p[j] == '#') {
			bool hex = j + 1 < n && (p[j + 1] == 'x' || p[j + 1] == 'X');
			uint64_t cp = 0;
			size_t k = j + 1 + hex, start = k;
			for (; k < n && (hex ? hexv(p[k]) >= 0 : (p[k] >= '0' && p[k] <= '9')); k++)
				if (cp < 0x1000000)
					cp = cp * (hex ? 16 : 10) + (uint64_t)hexv(p[k]);
			if (k > start && cp >= 1 && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
				put_utf8(&o, (uint32_t)cp);
				i = k < n && p[k] == ';' ? k : k - 1;
				continue;
			}
			putc_(&o, '&');
			continue;
		}
		while (j + len < n && alnum(p[j + len]))
			len++;
		if (j + len < n && p[j + len] == ';')
			for (size_t k = 0; k < NNAMES && !done; k++)
				if (strlen(names[k].name) == len && memcmp(names[k].name, p + j, len) == 0) {
					putc_(&o, (unsigned char)names[k].c);
					i = j + len;
					done = true;
				}
		for (size_t k = 0; k < 8 && !done; k++) {
			size_t l = strlen(legacy[k]);
			if (l <= len && memcmp(legacy[k], p + j, l) == 0) {
				putc_(&o, (unsigned char)(k < 2 ? '&' : k < 4 ? '<' : k < 6 ? '>' : '"'));
				i = j + l - 1;
				done = true;
			}
		}
		if (!done)
			putc_(&o, '&');
	}
	return o;
}

/* ---- the checks ---- */

/* text with white space left out, letters lower-cased when fold */
static struct buf
flat(const struct buf *in, bool fold)
{
	struct buf o = { 0 };

	put(&o, "", 0);
	for (size_t i = 0; i < in->n; i++)
		if (!white(in->p[i]))
			putc_(&o, fold ? lower(in->p[i]) : in->p[i]);
	return o;
}

/* Abort when text holds a SCRUB_RUN-long run of form (form whole when shorter). */
static void
check(const struct buf *text, const unsigned char *form, size_t n, const char *view)
{
	size_t w = n < SCRUB_RUN ? n : SCRUB_RUN;

	for (size_t a = 0; a + w <= n; a++)
		if (memmem(text->p, text->n, form + a, w) != NULL) {
			fprintf(stderr,
			    "fuzz_scrub: %zu bytes of the secret's form \"%.*s\" left in view %s: \"%.*s\"\n",
			    w, (int)n, (const char *)form, view, (int)(text->n > 2000 ? 2000 : text->n),
			    (const char *)text->p);
			abort();
		}
}

static void
check_view(struct buf *view, const unsigned char *s, size_t n, const char *name)
{
	struct buf f = flat(view, true);

	check(&f, s, n, name);
	free(f.p);
	free(view->p);
}

static const char b64std[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* base64 of p[0..n), padded */
static void
put_b64(struct buf *o, const unsigned char *p, size_t n, const char *abc, bool pad)
{
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
		    (i + 2 < n ? p[i + 2] : 0);
		size_t chars = i + 2 < n ? 4 : i + 1 < n ? 3 : 2;
		for (size_t k = 0; k < 4; k++)
			if (k < chars)
				putc_(o, (unsigned char)abc[(v >> (18 - 6 * k)) & 63]);
			else if (pad)
				putc_(o, '=');
	}
}

static void
check_base64(const struct buf *out, const unsigned char *sec, size_t n)
{
	struct buf f = flat(out, false);

	for (int a = 0; a < 2; a++)
		for (size_t k = 0; k < 3; k++) {
			unsigned char raw[MAX_SECRET + 2] = { 0 };
			struct buf e = { 0 };
			size_t first = (k * 8 + 5) / 6, last = (k + n) * 8 / 6;
			memcpy(raw + k, sec, n);
			put_b64(&e, raw, k + n, a ? b64url : b64std, true);
			check(&f, e.p + first, last - first, "base64 (decided characters)");
			check(&f, e.p + first, e.n - first, "base64 (with the tail)");
			free(e.p);
		}
	free(f.p);
}

static void
oracle(const char *out, size_t outlen, const unsigned char *secret, size_t n)
{
	struct buf o = { 0 }, s, p1, sec = { 0 };

	put(&sec, secret, n);
	s = flat(&sec, true);
	put(&o, "", 0);
	for (size_t i = 0; i < outlen; i++) {
		if (outlen - i >= 10 && memcmp(out + i, "[redacted]", 10) == 0) {
			putc_(&o, 0x01);
			i += 9;
		} else {
			putc_(&o, (unsigned char)out[i]);
		}
	}
	if (s.n >= SCRUB_MIN_SECRET) {
		struct buf v = { 0 };
		put(&v, o.p, o.n);
		check_view(&v, s.p, s.n, "plain");
		p1 = dec_pct(&o, false);
		v = dec_pct(&p1, false);
		check_view(&v, s.p, s.n, "pct(pct)");
		v = dec_json(&p1);
		check_view(&v, s.p, s.n, "json(pct)");
		check_view(&p1, s.p, s.n, "pct");
		v = dec_pct(&o, true);
		check_view(&v, s.p, s.n, "form");
		v = dec_json(&o);
		check_view(&v, s.p, s.n, "json");
		v = dec_html(&o);
		check_view(&v, s.p, s.n, "html");
	}
	check_base64(&o, secret, n);
	free(o.p);
	free(s.p);
	free(sec.p);
}

/* ---- the input: a secret, then a text ---- */

struct input {
	const uint8_t *p;
	size_t n;
};

static uint8_t
next(struct input *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

/* Byte 0: the length wanted; byte 1: bit 0, UTF-8 characters too; then one
 * byte per character (0x20..0x7E as it is). Returns the length, 0 when the
 * input ends first. */
static size_t
make_secret(struct input *in, unsigned char *sec)
{
	size_t want, n = 0;
	uint8_t flags;

	if (in->n < 2)
		return 0;
	want = SCRUB_MIN_SECRET + next(in) % (MAX_SECRET - SCRUB_MIN_SECRET + 1);
	flags = next(in);
	while (n < want) {
		uint8_t b;
		uint32_t cp;
		struct buf c = { 0 };
		if (in->n == 0)
			return 0;
		b = next(in);
		if ((flags & 1) && b >= 0x80)
			cp = b < 0xC0 ? 0xA0u + (b & 0x3F) :
			    b < 0xF0  ? 0x20ACu + (b & 0x2F) :
			                0x1F600u + (b & 0x0F);
		else
			cp = 0x20u + (b + 63u) % 95u;
		put_utf8(&c, cp);
		if (n + c.n <= want)
			memcpy(sec + n, c.p, c.n);
		n += c.n <= want - n ? c.n : want - n + 1;
		free(c.p);
	}
	return n == want ? n : 0;
}

static bool
unreserved(unsigned char c)
{
	return alnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

static void
enc_pct(struct buf *t, const unsigned char *p, size_t n, bool all, bool lowhex, bool form)
{
	for (size_t i = 0; i < n; i++)
		if (form && p[i] == ' ')
			putc_(t, '+');
		else if (all || !unreserved(p[i]))
			putf(t, lowhex ? "%%%02x" : "%%%02X", p[i]);
		else
			putc_(t, p[i]);
}

static void
enc_json(struct buf *t, const unsigned char *p, size_t n, uint8_t var)
{
	const char *fmt = var & 4 ? "\\u%04X" : "\\u%04x";

	for (size_t i = 0; i < n;) {
		size_t len;
		long cp = utf8_at(p + i, n - i, &len);
		if (cp < 0) {
			putc_(t, p[i]);
		} else if (cp == '"' || cp == '\\') {
			putc_(t, '\\');
			putc_(t, (unsigned char)cp);
		} else if (cp == '/') {
			put(t, "\\/", 2);
		} else if (cp < 0x20 || (cp < 0x80 && (var & 1)) || (cp >= 0x80 && (var & 2))) {
			if (cp >= 0x10000) {
				putf(t, fmt, (unsigned)(0xD800 + ((cp - 0x10000) >> 10)));
				putf(t, fmt, (unsigned)(0xDC00 + ((cp - 0x10000) & 0x3FF)));
			} else {
				putf(t, fmt, (unsigned)cp);
			}
		} else {
			put(t, p + i, len);
		}
		i += len;
	}
}

static void
enc_html_named(struct buf *t, const unsigned char *p, size_t n, uint8_t var)
{
	for (size_t i = 0; i < n; i++) {
		size_t cand[4], nc = 0;
		for (size_t k = 0; k < NNAMES && nc < 4; k++)
			if ((unsigned char)names[k].c == p[i] && p[i] != '\t' && p[i] != '\n')
				cand[nc++] = k;
		if (nc == 0) {
			putc_(t, p[i]);
			continue;
		}
		const char *name = names[cand[(var >> 2) % nc]].name;
		bool leg = false;
		for (size_t k = 0; k < 8; k++)
			leg = leg || strcmp(name, legacy[k]) == 0;
		putc_(t, '&');
		put(t, name, strlen(name));
		if (!(leg && (var & 1) && i + 1 < n && !alnum(p[i + 1]) && p[i + 1] != ';'))
			putc_(t, ';');
	}
}

static void
enc_html_num(struct buf *t, const unsigned char *p, size_t n, uint8_t var, bool hex)
{
	const char *fmt = hex ?
	    ((var & 2) ? ((var & 4) ? "&#X%X" : "&#X%x") : ((var & 4) ? "&#x%X" : "&#x%x")) :
	    ((var & 2) ? "&#00%u" : "&#%u");

	for (size_t i = 0; i < n;) {
		size_t len;
		long cp = utf8_at(p + i, n - i, &len);
		if (cp < 0) {
			putc_(t, p[i]);
		} else {
			putf(t, fmt, (unsigned)cp);
			if (!(var & 1) || i + len == n)
				putc_(t, ';');
		}
		i += len;
	}
}

/* base64 of 0-2 input bytes, the part, 0-2 input bytes */
static void
enc_base64(struct buf *t, const unsigned char *p, size_t n, uint8_t var, struct input *in)
{
	struct buf raw = { 0 }, e = { 0 };
	size_t pre = next(in) % 3, post = next(in) % 3, wrap = (var >> 2) % 4;

	for (size_t i = 0; i < pre; i++)
		putc_(&raw, next(in));
	put(&raw, p, n);
	for (size_t i = 0; i < post; i++)
		putc_(&raw, next(in));
	put_b64(&e, raw.p, raw.n, (var & 1) ? b64url : b64std, !(var & 2));
	for (size_t i = 0; i < e.n; i++) {
		if (wrap && i > 0 && i % (wrap == 1 ? 64 : 76) == 0)
			put(t, wrap == 2 ? "\r\n" : "\n", wrap == 2 ? 2 : 1);
		putc_(t, e.p[i]);
	}
	free(raw.p);
	free(e.p);
}

/* One piece of text: raw bytes, or an encoding of the secret or of a part. */
static void
piece(struct buf *t, const unsigned char *sec, size_t n, struct input *in)
{
	uint8_t op = next(in), var = op >> 4, f = next(in);
	const unsigned char *p = sec;
	size_t len = n;
	struct buf tmp = { 0 };

	if (f >= 0x80) { /* a part of the secret */
		size_t start = (f & 0x7F) % n;
		p = sec + start;
		len = 1 + next(in) % (n - start);
	}
	switch (op % 16) {
	case 1:
		put(t, p, len);
		break;
	case 2:
		enc_pct(t, p, len, var & 1, var & 2, false);
		break;
	case 3:
		enc_pct(&tmp, p, len, var & 1, var & 2, false);
		enc_pct(t, tmp.p, tmp.n, var & 4, var & 8, false);
		break;
	case 4:
		enc_pct(t, p, len, var & 1, var & 2, true);
		break;
	case 5:
		enc_json(t, p, len, var);
		break;
	case 6:
		enc_json(&tmp, p, len, var);
		enc_pct(t, tmp.p, tmp.n, var & 8, false, false);
		break;
	case 7:
		enc_html_named(t, p, len, var);
		break;
	case 8:
		enc_html_num(t, p, len, var, false);
		break;
	case 9:
		enc_html_num(t, p, len, var, true);
		break;
	case 10:
		enc_base64(t, p, len, var, in);
		break;
	case 11:
	case 12:
		for (size_t i = 0; i < len; i++)
			putc_(t,
			    op % 16 == 11 ? (unsigned char)(p[i] >= 'a' && p[i] <= 'z' ? p[i] - 32 : p[i]) :
			                    lower(p[i]));
		break;
	default: /* f raw bytes of the input */
		for (size_t i = 0; i < f && in->n > 0; i++)
			putc_(t, next(in));
	}
	free(tmp.p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	unsigned char secret[MAX_SECRET + 1];
	size_t n = make_secret(&in, secret), outlen;
	struct buf text = { 0 };
	struct scrub *s;
	char *out, small[48];

	if (n == 0)
		return 0;
	secret[n] = '\0';
	put(&text, "", 0);
	while (in.n > 0 && text.n < MAX_TEXT)
		piece(&text, secret, n, &in);
	s = scrub_new();
	scrub_add(s, (const char *)secret);
	scrub_add(s, "demo-key");
	out = scrub_text(s, (const char *)text.p, text.n, &outlen);
	if (strlen(out) > outlen)
		abort();
	oracle(out, outlen, secret, n);
	/* in a small buffer: scrubbed, then cut on a character boundary */
	snprintf(small, sizeof small, "%s", (const char *)text.p);
	scrub_buf(s, small, sizeof small);
	free(out);
	free(text.p);
	scrub_free(s);
	return 0;
}
