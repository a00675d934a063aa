/* Secrets out of outside texts (scrub.h). The text is canonicalized once
 * (escapes decoded, white space dropped, each canonical byte remembering the
 * original bytes it came from); every window of every secret form is looked
 * for with a rolling hash, one pass per window length; then again in the
 * text as it is. */
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
#define HASH_BASE   1099511628211ULL

static const char redacted[] = "[redacted]";

struct window {
	const unsigned char *p; /* into a pattern */
	size_t len;
	uint64_t hash;
};

struct scrub {
	char *secrets[MAX_SECRETS];
	size_t nsecrets;
	unsigned char *patterns[MAX_SECRETS * 7]; /* canonical secret and its base64 forms */
	size_t plen[MAX_SECRETS * 7];
	size_t npatterns;
	struct window *windows;
	size_t nwindows;
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

static uint64_t
hash_of(const unsigned char *p, size_t n)
{
	uint64_t h = 0;

	for (size_t i = 0; i < n; i++)
		h = h * HASH_BASE + p[i];
	return h;
}

static void
add_pattern(struct scrub *s, unsigned char *p, size_t n)
{
	if (n < SCRUB_MIN_SECRET || s->npatterns == sizeof s->patterns / sizeof s->patterns[0]) {
		free(p);
		return;
	}
	s->patterns[s->npatterns] = p;
	s->plen[s->npatterns++] = n;
}

/* The base64 characters that only the secret's bytes decide when it follows
 * k other bytes in the encoded data (standard or URL alphabet). */
static void
add_base64(struct scrub *s, const unsigned char *sec, size_t n, int k, int variant)
{
	size_t len = (size_t)k + n, enc_len = sodium_base64_ENCODED_LEN(len, variant);
	unsigned char *raw = xcalloc(len, 1);
	char *enc = xmalloc(enc_len);
	size_t first = ((size_t)k * 8 + 5) / 6, last = len * 8 / 6; /* [first, last) */
	unsigned char *out;

	memcpy(raw + k, sec, n);
	sodium_bin2base64(enc, enc_len, raw, len, variant);
	out = xmalloc(last - first + 1);
	memcpy(out, enc + first, last - first);
	sodium_memzero(raw, len);
	sodium_memzero(enc, enc_len);
	free(raw);
	free(enc);
	add_pattern(s, out, last - first);
}

static int
by_hash(const void *a, const void *b)
{
	uint64_t x = ((const struct window *)a)->hash, y = ((const struct window *)b)->hash;

	return x < y ? -1 : x > y;
}

/* Rebuild the windows of every pattern: every SCRUB_RUN-long run, or the
 * whole pattern when it is shorter; sorted by hash. */
static void
index_windows(struct scrub *s)
{
	size_t n = 0;

	free(s->windows);
	for (size_t i = 0; i < s->npatterns; i++)
		n += s->plen[i] >= SCRUB_RUN ? s->plen[i] - SCRUB_RUN + 1 : 1;
	s->windows = xcalloc(n ? n : 1, sizeof *s->windows);
	s->nwindows = 0;
	for (size_t i = 0; i < s->npatterns; i++) {
		size_t wl = s->plen[i] >= SCRUB_RUN ? SCRUB_RUN : s->plen[i];
		for (size_t off = 0; off + wl <= s->plen[i]; off++) {
			struct window *w = &s->windows[s->nwindows++];
			w->p = s->patterns[i] + off;
			w->len = wl;
			w->hash = hash_of(w->p, wl);
			if (wl < SCRUB_RUN)
				break;
		}
	}
	qsort(s->windows, s->nwindows, sizeof *s->windows, by_hash);
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
	canon = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		if (!is_space((unsigned char)secret[i]))
			canon[c++] = (unsigned char)secret[i];
	for (int k = 0; k < 3; k++) {
		add_base64(s, canon, c, k, sodium_base64_VARIANT_ORIGINAL_NO_PADDING);
		add_base64(s, canon, c, k, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	}
	add_pattern(s, canon, c);
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
	for (size_t i = 0; i < s->npatterns; i++) {
		sodium_memzero(s->patterns[i], s->plen[i]);
		free(s->patterns[i]);
	}
	free(s->windows);
	free(s);
}

/* The canonical form of text: bytes, and for each the original offset and width. */
struct canon {
	unsigned char *c;
	uint32_t *at;
	uint8_t *width;
	size_t n;
};

/* One escape at t[i..len): its decoded byte into *out and its width, or 0. */
static size_t
escape_at(const unsigned char *t, size_t i, size_t len, unsigned char *out, bool *skip)
{
	int h, l;

	*skip = false;
	if (t[i] == '%' && i + 2 < len && (h = hex_value(t[i + 1])) >= 0 && (l = hex_value(t[i + 2])) >= 0) {
		*out = (unsigned char)(h * 16 + l);
		return 3;
	}
	if (t[i] != '\\' || i + 1 >= len)
		return 0;
	switch (t[i + 1]) {
	case '"':
	case '\\':
	case '/':
		*out = t[i + 1];
		return 2;
	case 'n':
	case 'r':
	case 't':
	case 'f':
	case 'b':
		*skip = true;
		return 2;
	case 'u':
		if (i + 5 < len && hex_value(t[i + 2]) == 0 && hex_value(t[i + 3]) == 0 &&
		    hex_value(t[i + 4]) >= 0 && hex_value(t[i + 5]) >= 0) {
			*out = (unsigned char)(hex_value(t[i + 4]) * 16 + hex_value(t[i + 5]));
			return 6;
		}
		return 0;
	default:
		return 0;
	}
}

/* decode: escapes decoded and white space left out; else the bytes as they are. */
static void
canonicalize(const unsigned char *t, size_t len, bool decode, struct canon *cv)
{
	cv->c = xmalloc(len + 1);
	cv->at = xmalloc((len + 1) * sizeof *cv->at);
	cv->width = xmalloc(len + 1);
	cv->n = 0;
	for (size_t i = 0; i < len;) {
		unsigned char b;
		bool skip = false;
		size_t w = decode ? escape_at(t, i, len, &b, &skip) : 0;

		if (w == 0) {
			w = 1;
			b = t[i];
		}
		if (!skip && !(decode && is_space(b))) {
			cv->c[cv->n] = b;
			cv->at[cv->n] = (uint32_t)i;
			cv->width[cv->n++] = (uint8_t)w;
		}
		i += w;
	}
}

/* Mark, in red (one flag per original byte), the original bytes of every
 * canonical match of a window of length wl. */
static void
find(const struct scrub *s, const struct canon *cv, size_t wl, unsigned char *red)
{
	uint64_t h = 0, top = 1;

	if (cv->n < wl)
		return;
	for (size_t i = 1; i < wl; i++)
		top *= HASH_BASE;
	for (size_t i = 0; i < cv->n; i++) {
		if (i >= wl)
			h -= top * cv->c[i - wl];
		h = h * HASH_BASE + cv->c[i];
		if (i + 1 < wl)
			continue;
		/* the first window with this hash, then each of them */
		size_t lo = 0, hi = s->nwindows, a = i + 1 - wl;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (s->windows[mid].hash < h)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < s->nwindows && s->windows[lo].hash == h; lo++) {
			const struct window *w = &s->windows[lo];
			if (w->len == wl && memcmp(w->p, cv->c + a, wl) == 0) {
				memset(red + cv->at[a], 1, cv->at[i] + cv->width[i] - cv->at[a]);
				break;
			}
		}
	}
}

char *
scrub_text(const struct scrub *s, const char *text, size_t len, size_t *outlen)
{
	const unsigned char *t = (const unsigned char *)text;
	unsigned char *red;
	struct canon cv;
	bool used[SCRUB_RUN + 1] = { false };
	size_t o = 0, nred = 0;
	char *out;

	red = xcalloc(len + 1, 1);
	for (size_t k = 0; k < s->nwindows; k++)
		used[s->windows[k].len] = true;
	/* the text decoded (an escaped secret), then as it is (a run that an
	 * escape would hide: "\u004e" ends in "4e") */
	for (int decode = 1; decode >= 0; decode--) {
		canonicalize(t, len, decode, &cv);
		/* one pass per window length: the runs, and each length of a short secret */
		for (size_t wl = SCRUB_MIN_SECRET; wl <= SCRUB_RUN; wl++)
			if (used[wl])
				find(s, &cv, wl, red);
		sodium_memzero(cv.c, cv.n);
		free(cv.c);
		free(cv.at);
		free(cv.width);
	}
	for (size_t i = 0; i < len; i++)
		nred += red[i] && (i == 0 || !red[i - 1]);
	out = xmalloc(len + nred * sizeof redacted + 1);
	for (size_t i = 0; i < len; i++) {
		if (!red[i])
			out[o++] = text[i];
		else if (i == 0 || !red[i - 1]) {
			memcpy(out + o, redacted, sizeof redacted - 1);
			o += sizeof redacted - 1;
		}
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
