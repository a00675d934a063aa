/* Secrets out of outside texts (scrub.h). Each view of the text is decoded
 * once, from the text or from another view, each decoded byte remembering
 * the offset of the bytes of the text it came from. Each view is read once
 * (white space skipped, ASCII letters folded): the last 4 bytes read are the
 * key of the windows of the secret forms that may end there, a filter
 * refuses most keys with one load, and the text behind each window that
 * matches is marked.
 * The text with each marked run replaced by a NUL (which no form holds and
 * no escape spans) is searched again, until a pass finds nothing: cutting
 * out a match can join what was around it into a new one. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/scrub.h"
#include "core/util.h"
#include "core/xalloc.h"

#define MAX_SECRETS 16
#define FORMS       13 /* per secret: itself, and 12 of its base64 */
#define FILTER_BITS 18
#define MAX_PASSES  4 /* a text whose matches keep uncovering more after that is redacted whole */

static const char redacted[] = "[redacted]";

#define RING 16 /* the bytes find keeps: a power of two, at least SCRUB_RUN */
_Static_assert(SCRUB_RUN <= RING, "find keeps a window's bytes");
_Static_assert(SCRUB_MIN_SECRET == 4, "a window's key is its last SCRUB_MIN_SECRET bytes, in 32 bits");

struct window {
	const unsigned char *p; /* into a form */
	size_t len;
	uint32_t key; /* its last 4 bytes */
};

struct scrub {
	char *secrets[MAX_SECRETS];
	size_t nsecrets;
	unsigned char *forms[MAX_SECRETS * FORMS]; /* folded */
	size_t flen[MAX_SECRETS * FORMS];
	size_t nforms;
	struct window *windows; /* sorted by key */
	size_t nwindows;
	uint64_t filter[(1u << FILTER_BITS) / 64]; /* a bit per key hash: a window may have it */
};

struct scrub *
scrub_new(void)
{
	return xcalloc(1, sizeof(struct scrub));
}

static bool
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static unsigned char
fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 'a' - 'A') : c;
}

/* Keep p[0..n), folded, as a form (taking p), unless it is too short. */
static void
add_form(struct scrub *s, unsigned char *p, size_t n)
{
	if (n < SCRUB_MIN_SECRET || s->nforms == sizeof s->forms / sizeof s->forms[0]) {
		sodium_memzero(p, n);
		free(p);
		return;
	}
	for (size_t i = 0; i < n; i++)
		p[i] = fold(p[i]);
	s->forms[s->nforms] = p;
	s->flen[s->nforms++] = n;
}

static unsigned char *
dup_bytes(const char *p, size_t n)
{
	unsigned char *d = xmalloc(n ? n : 1);

	memcpy(d, p, n);
	return d;
}

/* The base64 of the secret after k other bytes (standard or URL alphabet):
 * the characters only its bytes decide; and, for a secret that ends the
 * data, those and the last character and padding. */
static void
add_base64(struct scrub *s, const char *sec, size_t n, int k, int variant)
{
	size_t len = (size_t)k + n, enc_len = sodium_base64_ENCODED_LEN(len, variant), end;
	unsigned char *raw = xcalloc(len, 1);
	char *enc = xmalloc(enc_len);
	size_t first = ((size_t)k * 8 + 5) / 6, last = len * 8 / 6; /* [first, last) */

	memcpy(raw + k, sec, n);
	sodium_bin2base64(enc, enc_len, raw, len, variant);
	end = strlen(enc);
	add_form(s, dup_bytes(enc + first, last - first), last - first);
	if (end > last)
		add_form(s, dup_bytes(enc + first, end - first), end - first);
	sodium_memzero(raw, len);
	sodium_memzero(enc, enc_len);
	free(raw);
	free(enc);
}

static int
by_key(const void *a, const void *b)
{
	uint32_t x = ((const struct window *)a)->key, y = ((const struct window *)b)->key;

	return x < y ? -1 : x > y;
}

static uint32_t
key_bit(uint32_t key)
{
	return (key * 2654435761u) >> (32 - FILTER_BITS);
}

/* Rebuild the windows of every form: every SCRUB_RUN-long run, or the
 * whole form when it is shorter; sorted by key, and their filter. */
static void
index_windows(struct scrub *s)
{
	size_t n = 0;

	free(s->windows);
	memset(s->filter, 0, sizeof s->filter);
	for (size_t i = 0; i < s->nforms; i++)
		n += s->flen[i] >= SCRUB_RUN ? s->flen[i] - SCRUB_RUN + 1 : 1;
	s->windows = xcalloc(n ? n : 1, sizeof *s->windows);
	s->nwindows = 0;
	for (size_t i = 0; i < s->nforms; i++) {
		size_t wl = s->flen[i] >= SCRUB_RUN ? SCRUB_RUN : s->flen[i];
		for (size_t off = 0; off + wl <= s->flen[i]; off++) {
			struct window *w = &s->windows[s->nwindows++];
			const unsigned char *e = s->forms[i] + off + wl;
			w->p = s->forms[i] + off;
			w->len = wl;
			w->key = (uint32_t)e[-4] << 24 | (uint32_t)e[-3] << 16 | (uint32_t)e[-2] << 8 | e[-1];
			s->filter[key_bit(w->key) / 64] |= 1ULL << (key_bit(w->key) % 64);
			if (wl < SCRUB_RUN)
				break;
		}
	}
	qsort(s->windows, s->nwindows, sizeof *s->windows, by_key);
}

void
scrub_add(struct scrub *s, const char *secret)
{
	size_t n = secret ? strlen(secret) : 0, c = 0;
	unsigned char *canon;

	if (n < SCRUB_MIN_SECRET || s->nsecrets == MAX_SECRETS)
		return;
	for (size_t i = 0; i < s->nsecrets; i++)
		if (strcmp(s->secrets[i], secret) == 0)
			return;
	s->secrets[s->nsecrets++] = xstrdup(secret);
	canon = xmalloc(n);
	for (size_t i = 0; i < n; i++)
		if (!is_space((unsigned char)secret[i]))
			canon[c++] = (unsigned char)secret[i];
	add_form(s, canon, c);
	for (int k = 0; k < 3; k++) {
		add_base64(s, secret, n, k, sodium_base64_VARIANT_ORIGINAL);
		add_base64(s, secret, n, k, sodium_base64_VARIANT_URLSAFE);
	}
	index_windows(s);
}

void
scrub_free(struct scrub *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->nsecrets; i++) {
		sodium_memzero(s->secrets[i], strlen(s->secrets[i]));
		free(s->secrets[i]);
	}
	for (size_t i = 0; i < s->nforms; i++) {
		sodium_memzero(s->forms[i], s->flen[i]);
		free(s->forms[i]);
	}
	free(s->windows);
	free(s);
}

/* The UTF-8 bytes of code point cp (at most 0x10FFFF, not a surrogate) into out;
 * returns their number. */
static size_t
utf8_put(unsigned char out[4], uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xC0 | cp >> 6);
		out[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xE0 | cp >> 12);
		out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (unsigned char)(0xF0 | cp >> 18);
	out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}

/* A decoder: the escape at t[i..n) decoded into out (at most 4 bytes), their
 * number into *nout; returns the escape's width, or 0 when none starts at i. */
typedef size_t decoder(const unsigned char *t, size_t i, size_t n, unsigned char out[4], size_t *nout);

static size_t
dec_pct(const unsigned char *t, size_t i, size_t n, unsigned char out[4], size_t *nout)
{
	int h, l;

	if (t[i] != '%' || i + 2 >= n || (h = hex_value(t[i + 1])) < 0 || (l = hex_value(t[i + 2])) < 0)
		return 0;
	out[0] = (unsigned char)(h * 16 + l);
	*nout = 1;
	return 3;
}

static size_t
dec_form(const unsigned char *t, size_t i, size_t n, unsigned char out[4], size_t *nout)
{
	if (t[i] != '+')
		return dec_pct(t, i, n, out, nout);
	out[0] = ' ';
	*nout = 1;
	return 1;
}

/* The 4 hex digits at t[i..n) as a number, or -1. */
static long
hex4(const unsigned char *t, size_t i, size_t n)
{
	long v = 0;

	if (i + 4 > n)
		return -1;
	for (size_t k = i; k < i + 4; k++) {
		int d = hex_value(t[k]);
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static size_t
dec_json(const unsigned char *t, size_t i, size_t n, unsigned char out[4], size_t *nout)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *p;
	long cp, lo;

	if (t[i] != '\\' || i + 1 >= n)
		return 0;
	if (t[i + 1] != '\0' && (p = strchr(from, t[i + 1])) != NULL) {
		out[0] = (unsigned char)to[p - from];
		*nout = 1;
		return 2;
	}
	if (t[i + 1] != 'u' || (cp = hex4(t, i + 2, n)) < 0 || (cp >= 0xDC00 && cp <= 0xDFFF))
		return 0;
	if (cp < 0xD800 || cp > 0xDBFF) {
		*nout = utf8_put(out, (uint32_t)cp);
		return 6;
	}
	/* a high surrogate, and its low one */
	if (i + 7 >= n || t[i + 6] != '\\' || t[i + 7] != 'u' || (lo = hex4(t, i + 8, n)) < 0xDC00 ||
	    lo > 0xDFFF)
		return 0;
	*nout = utf8_put(out, (uint32_t)(0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)));
	return 12;
}

/* HTML's names of ASCII characters (the WHATWG list); the first eight may
 * also stand without their ';'. */
/* clang-format off */
static const struct {
	const char *name;
	char c;
} html_names[] = {
	{ "quot", '"' }, { "QUOT", '"' }, { "amp", '&' }, { "AMP", '&' }, { "lt", '<' }, { "LT", '<' },
	{ "gt", '>' }, { "GT", '>' }, { "Tab", '\t' }, { "NewLine", '\n' }, { "excl", '!' }, { "num", '#' },
	{ "dollar", '$' }, { "percnt", '%' }, { "apos", '\'' }, { "lpar", '(' }, { "rpar", ')' },
	{ "ast", '*' }, { "midast", '*' }, { "plus", '+' }, { "comma", ',' }, { "period", '.' },
	{ "sol", '/' }, { "colon", ':' }, { "semi", ';' }, { "equals", '=' }, { "quest", '?' },
	{ "commat", '@' }, { "lsqb", '[' }, { "lbrack", '[' }, { "bsol", '\\' }, { "rsqb", ']' },
	{ "rbrack", ']' }, { "Hat", '^' }, { "lowbar", '_' }, { "UnderBar", '_' }, { "grave", '`' },
	{ "DiacriticalGrave", '`' }, { "lcub", '{' }, { "lbrace", '{' }, { "verbar", '|' }, { "vert", '|' },
	{ "VerticalLine", '|' }, { "rcub", '}' }, { "rbrace", '}' },
};
/* clang-format on */
#define HTML_LEGACY 8
#define HTML_NAME   16 /* the longest name */

static bool
is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The value of c as a digit in base 10 or 16, or -1. */
static int
digit(unsigned char c, int base)
{
	if (base == 16)
		return hex_value(c);
	return c >= '0' && c <= '9' ? c - '0' : -1;
}

static size_t
dec_html(const unsigned char *t, size_t i, size_t n, unsigned char out[4], size_t *nout)
{
	size_t j = i + 1, len;

	if (t[i] != '&' || j >= n)
		return 0;
	if (t[j] == '#') {
		/* &#DDD or &#xHHH, the ';' optional, any number of digits */
		uint32_t cp = 0;
		int base = 10, d;
		size_t start;

		if (++j < n && (t[j] == 'x' || t[j] == 'X')) {
			base = 16;
			j++;
		}
		for (start = j; j < n && (d = digit(t[j], base)) >= 0; j++)
			if (cp <= 0x10FFFF)
				cp = cp * (uint32_t)base + (uint32_t)d;
		if (j == start || cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
		*nout = utf8_put(out, cp);
		return j - i + (j < n && t[j] == ';');
	}
	for (len = 0; j + len < n && len <= HTML_NAME && is_alnum(t[j + len]); len++)
		;
	if (j + len < n && t[j + len] == ';')
		for (size_t k = 0; k < sizeof html_names / sizeof html_names[0]; k++)
			if (strlen(html_names[k].name) == len &&
			    memcmp(html_names[k].name, t + j, len) == 0) {
				out[0] = (unsigned char)html_names[k].c;
				*nout = 1;
				return len + 2;
			}
	/* a legacy name without its ';' */
	for (size_t k = 0; k < HTML_LEGACY; k++) {
		size_t l = strlen(html_names[k].name);
		if (l <= len && memcmp(html_names[k].name, t + j, l) == 0) {
			out[0] = (unsigned char)html_names[k].c;
			*nout = 1;
			return l + 1;
		}
	}
	return 0;
}

/* A view of the searched text: its bytes, and for each the offset of the
 * text's bytes it came from (at NULL: the text itself). A byte's text ends
 * where the next offset differs: the escapes tile the text. */
struct view {
	const unsigned char *c;
	uint32_t *at;
	size_t n;
};

static uint32_t
view_at(const struct view *v, size_t i)
{
	return v->at ? v->at[i] : (uint32_t)i;
}

/* A decoder, and the bytes its escapes start with. */
struct codec {
	decoder *dec;
	unsigned char start, start2;
};

static const struct codec pct_codec = { dec_pct, '%', '%' }, form_codec = { dec_form, '%', '+' },
                          json_codec = { dec_json, '\\', '\\' }, html_codec = { dec_html, '&', '&' };

/* The offset of the first escape at or after t[i] (n: none); its bytes
 * into b and *nb, its width into *w. */
static size_t
next_escape(const struct codec *cd, const unsigned char *t, size_t i, size_t n, unsigned char b[4],
    size_t *nb, size_t *w)
{
	for (;; i++) {
		if (cd->start == cd->start2) {
			const unsigned char *p = i < n ? memchr(t + i, cd->start, n - i) : NULL;
			i = p ? (size_t)(p - t) : n;
		} else {
			while (i < n && t[i] != cd->start && t[i] != cd->start2)
				i++;
		}
		if (i == n || (*w = cd->dec(t, i, n, b, nb)) > 0)
			return i;
	}
}

/* The view cd makes of src, into v; false (and no view) when no escape
 * of cd's is in src. */
static bool
view_decode(const struct view *src, const struct codec *cd, struct view *v)
{
	unsigned char *c, b[4];
	size_t lit = 0, o = 0, w, nb, n = src->n, i = next_escape(cd, src->c, 0, n, b, &nb, &w);

	if (i == n)
		return false;
	/* an escape decodes to fewer bytes than its own */
	c = xmalloc(n);
	v->at = xmalloc(n * sizeof *v->at);
	for (;;) {
		/* the bytes before the escape as they are, then the escape's */
		for (; lit < i; lit++) {
			c[o] = src->c[lit];
			v->at[o++] = view_at(src, lit);
		}
		if (i == n)
			break;
		for (size_t k = 0; k < nb; k++) {
			c[o] = b[k];
			v->at[o++] = view_at(src, i);
		}
		lit = i + w;
		i = next_escape(cd, src->c, lit, n, b, &nb, &w);
	}
	v->c = c;
	v->n = o;
	return true;
}

static void
view_free(struct view *v)
{
	sodium_memzero((unsigned char *)v->c, v->n);
	free((unsigned char *)v->c);
	free(v->at);
}

/* One pass: the searched text (len bytes; map[i] is the offset in the
 * original text of its byte i, NULL when it is the original), and the
 * marks, one flag per byte of the original. */
struct pass {
	size_t len;
	const uint32_t *map;
	unsigned char *red;
	bool found;
};

/* Mark the original text behind bytes [a, b] of view v. */
static void
mark(struct pass *p, const struct view *v, size_t a, size_t b)
{
	size_t from = view_at(v, a), to = p->len;

	for (size_t j = b + 1; j < v->n; j++)
		if (view_at(v, j) != view_at(v, b)) {
			to = view_at(v, j);
			break;
		}
	/* a match holds no NUL, so [from, to) holds no cut-out run */
	if (p->map != NULL) {
		to = p->map[to - 1] + 1;
		from = p->map[from];
	}
	memset(p->red + from, 1, to - from);
	p->found = true;
}

/* Mark every window of a form in view v. */
static void
find(const struct scrub *s, const struct view *v, struct pass *p)
{
	unsigned char ring[RING]; /* the last bytes read, and where */
	size_t pos[RING], k = 0;
	uint32_t key = 0;

	for (size_t i = 0; i < v->n; i++) {
		unsigned char c = v->c[i];
		size_t lo = 0, hi = s->nwindows;

		if (c <= ' ' && is_space(c))
			continue;
		c = fold(c);
		key = key << 8 | c;
		ring[k % RING] = c;
		pos[k++ % RING] = i;
		if (k < SCRUB_MIN_SECRET || !(s->filter[key_bit(key) / 64] >> (key_bit(key) % 64) & 1))
			continue;
		/* the first window with this key, then each of them */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (s->windows[mid].key < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < s->nwindows && s->windows[lo].key == key; lo++) {
			const struct window *w = &s->windows[lo];
			size_t j = 0;
			if (w->len > k)
				continue;
			while (j < w->len && w->p[j] == ring[(k - w->len + j) % RING])
				j++;
			if (j == w->len)
				mark(p, v, pos[(k - w->len) % RING], i);
		}
	}
	sodium_memzero(ring, sizeof ring);
}

/* Search the view cd makes of src (kept in *out when out is not NULL);
 * returns whether cd made one. */
static bool
find_decoded(const struct scrub *s, const struct view *src, const struct codec *cd, struct view *out,
    struct pass *p)
{
	struct view v;

	if (!view_decode(src, cd, &v))
		return false;
	find(s, &v, p);
	if (out != NULL)
		*out = v;
	else
		view_free(&v);
	return true;
}

/* Mark the matches in every view of text[0..len) (scrub.h); returns whether there was one. */
static bool
find_views(const struct scrub *s, const unsigned char *text, size_t len, struct pass *p)
{
	struct view plain = { text, NULL, len }, pct;

	p->len = len;
	p->found = false;
	find(s, &plain, p);
	if (find_decoded(s, &plain, &pct_codec, &pct, p)) {
		find_decoded(s, &pct, &pct_codec, NULL, p);
		find_decoded(s, &pct, &json_codec, NULL, p);
		view_free(&pct);
	}
	/* without a '+', the form view is the percent view */
	if (memchr(text, '+', len) != NULL)
		find_decoded(s, &plain, &form_codec, NULL, p);
	find_decoded(s, &plain, &json_codec, NULL, p);
	find_decoded(s, &plain, &html_codec, NULL, p);
	return p->found;
}

/* Mark, in red (one flag per byte of t), every match, pass after pass. */
static void
find_passes(const struct scrub *s, const unsigned char *t, size_t len, unsigned char *red)
{
	struct pass p = { .red = red };
	unsigned char *cut = NULL;
	uint32_t *map = NULL;
	size_t n = 0;

	for (int pass = 0; find_views(s, pass == 0 ? t : cut, pass == 0 ? len : n, &p); pass++) {
		if (pass + 1 == MAX_PASSES) {
			memset(red, 1, len);
			break;
		}
		/* the text with each marked run as one NUL */
		if (cut == NULL) {
			cut = xmalloc(len);
			map = xmalloc(len * sizeof *map);
		}
		n = 0;
		for (size_t i = 0; i < len; i++)
			if (!red[i] || i == 0 || !red[i - 1]) {
				cut[n] = red[i] ? '\0' : t[i];
				map[n++] = (uint32_t)i;
			}
		p.map = map;
	}
	if (cut != NULL)
		sodium_memzero(cut, len);
	free(cut);
	free(map);
}

char *
scrub_text(const struct scrub *s, const char *text, size_t len, size_t *outlen)
{
	unsigned char *red = xcalloc(len + 1, 1);
	size_t o = 0, nred = 0;
	char *out;

	if (len >= UINT32_MAX)
		memset(red, 1, len); /* offsets are 32-bit: a text this long is not shown at all */
	else if (s->nwindows > 0 && len > 0)
		find_passes(s, (const unsigned char *)text, len, red);
	for (const unsigned char *r = red; (r = memchr(r, 1, len - (size_t)(r - red))) != NULL; nred++)
		while (*r) /* red[len] is 0 */
			r++;
	out = xmalloc(len + nred * sizeof redacted + 1);
	/* each run that is not red as it is, each red one as [redacted] */
	for (size_t i = 0; i < len;) {
		const unsigned char *r = memchr(red + i, 1, len - i);
		size_t end = r ? (size_t)(r - red) : len;
		memcpy(out + o, text + i, end - i);
		o += end - i;
		if (end == len)
			break;
		memcpy(out + o, redacted, sizeof redacted - 1);
		o += sizeof redacted - 1;
		for (i = end; red[i]; i++)
			;
	}
	out[o] = '\0';
	*outlen = o;
	free(red);
	return out;
}

void
scrub_buf(const struct scrub *s, char *text, size_t size)
{
	size_t n;
	char *out;

	if (text == NULL || size == 0)
		return;
	out = scrub_text(s, text, strlen(text), &n);
	n = utf8_cut(out, n, SIZE_MAX, size - 1);
	memcpy(text, out, n);
	text[n] = '\0';
	free(out);
}
