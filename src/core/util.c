#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include <sodium.h>

#include "core/datetime.h"
#include "core/util.h"
#include "core/xalloc.h"

int
parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	int64_t v = 0;
	bool neg = false;
	const char *p = s;

	if (s == NULL || *p == '\0')
		return -1;
	if (*p == '-') {
		neg = true;
		p++;
	}
	if (*p == '\0' || strlen(p) > 19)
		return -1;
	for (; *p; p++) {
		int d;
		if (*p < '0' || *p > '9')
			return -1;
		d = *p - '0';
		if (v > (INT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (neg)
		v = -v;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
parse_bool(const char *s, bool *out)
{
	if (s == NULL)
		return -1;
	if (strcmp(s, "true") == 0 || strcmp(s, "1") == 0)
		*out = true;
	else if (strcmp(s, "false") == 0 || strcmp(s, "0") == 0)
		*out = false;
	else
		return -1;
	return 0;
}

size_t
utf8_cut(const char *s, size_t len, size_t max_chars, size_t max_bytes)
{
	size_t i = 0, chars = 0;

	while (i < len) {
		size_t n = 1;
		while (i + n < len && ((unsigned char)s[i + n] & 0xc0) == 0x80 && n < 4)
			n++;
		if (chars == max_chars || i + n > max_bytes)
			break;
		chars++;
		i += n;
	}
	return i;
}

/* The length of the well-formed UTF-8 character at s[0..avail) (1 to 4), or
 * 0 when the bytes there are not one (a NUL is none either). */
static size_t
char_len(const unsigned char *s, size_t avail)
{
	size_t n = s[0] < 0x80    ? 1 :
	    (s[0] & 0xe0) == 0xc0 ? 2 :
	    (s[0] & 0xf0) == 0xe0 ? 3 :
	    (s[0] & 0xf8) == 0xf0 ? 4 :
	                            0;

	return n != 0 && n <= avail && utf8_valid((const char *)s, n) ? n : 0;
}

void
utf8_copy(char *dst, size_t size, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t len, i = 0, o = 0;

	if (size == 0)
		return;
	len = strlen(src);
	while (i < len) {
		size_t n = char_len(s + i, len - i);

		if (o + (n ? n : 1) >= size)
			break; /* never half a character */
		if (n == 0) {
			dst[o++] = '?';
			i++;
			continue;
		}
		memmove(dst + o, s + i, n); /* o <= i: in place too */
		o += n;
		i += n;
	}
	dst[o] = '\0';
}

char *
utf8_dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xmalloc(n);

	utf8_copy(d, n, s);
	return d;
}

char *
utf8_vformat(char *dst, size_t size, const char *fmt, va_list ap)
{
	va_list again;
	char *all;
	int n;

	if (size == 0)
		return dst;
	va_copy(again, ap);
	n = vsnprintf(dst, size, fmt, ap);
	if (n < 0)
		dst[0] = '\0';
	else if ((size_t)n < size)
		utf8_copy(dst, size, dst);
	else {
		/* cut blindly: format the whole text, then cut it on a boundary */
		all = xmalloc((size_t)n + 1);
		vsnprintf(all, (size_t)n + 1, fmt, again);
		utf8_copy(dst, size, all);
		sodium_memzero(all, (size_t)n); /* it may hold a provider's echo of a key */
		free(all);
	}
	va_end(again);
	return dst;
}

char *
utf8_format(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	utf8_vformat(dst, size, fmt, ap);
	va_end(ap);
	return dst;
}

void
utf8_clean(char *dst, size_t size, const char *src, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)(src ? src : "");
	size_t o = 0, chars = 0;
	bool space = false;

	if (size == 0)
		return;
	while (*p && o + 1 < size && chars < max_chars) {
		size_t n = 1;

		if (*p == ' ' || (*p >= '\t' && *p <= '\r')) {
			space = o > 0;
			p++;
			continue;
		}
		if (space && o + 2 < size) {
			dst[o++] = ' ';
			chars++;
		}
		space = false;
		if (*p >= 0x80 && (n = char_len(p, 4)) == 0)
			n = 1; /* a byte that is not part of a character: '?' below */
		if (*p < 0x20 || *p == 0x7f || (n == 1 && *p >= 0x80)) {
			dst[o++] = '?';
			chars++;
			p++;
			continue;
		}
		if (o + n >= size || chars == max_chars)
			break; /* never half a character */
		memcpy(dst + o, p, n);
		o += n;
		chars++;
		p += n;
	}
	dst[o] = '\0';
}

bool
utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		unsigned c = s[i];
		size_t n;
		uint32_t cp;

		if (c == 0)
			return false;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 1;
			cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2;
			cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3;
			cp = c & 0x07;
		} else
			return false;
		if (i + n >= len)
			return false;
		for (size_t k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += n + 1;
	}
	return true;
}

bool
has_control(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	return false;
}

bool
utf8_plain(const char *s, size_t len)
{
	return !has_control(s, len) && utf8_valid(s, len);
}

bool
uuid_valid(const char *s)
{
	static const int dash[] = { 8, 13, 18, 23 };

	if (s == NULL || strlen(s) != 36)
		return false;
	for (int i = 0, d = 0; i < 36; i++) {
		if (d < 4 && i == dash[d]) {
			if (s[i] != '-')
				return false;
			d++;
			continue;
		}
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		        (s[i] >= 'A' && s[i] <= 'F')))
			return false;
	}
	return true;
}

/* UUIDv7: 48 bits of Unix-epoch milliseconds (wall clock), then random bits. */
void
uuid_v7(char out[37])
{
	unsigned char b[16];
	struct timeval tv;
	uint64_t ms;

	gettimeofday(&tv, NULL);
	ms = (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;

	randombytes_buf(b, sizeof b);
	for (int i = 0; i < 6; i++)
		b[i] = (unsigned char)(ms >> (8 * (5 - i)));
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x70);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
	    b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

int
time_mysql_to_iso(const char *m, char out[21])
{
	int64_t t;

	/* 19 characters or more of a TIME_WALL text: the seconds are there */
	if (m == NULL || strlen(m) < 19 || m[10] != ' ' || time_parse(m, TIME_WALL, NULL, &t) != 0)
		return -1;
	return time_format_iso(t, true, out);
}

time_t
now_s(void)
{
	return time(NULL);
}

void
sleep_ms(int64_t ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
}

int64_t
wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

size_t
int_text(char out[20], uint64_t magnitude, bool negative)
{
	size_t n = negative ? 2 : 1, end;

	for (uint64_t m = magnitude; m >= 10; m /= 10)
		n++;
	end = n;
	do
		out[--n] = (char)('0' + magnitude % 10);
	while ((magnitude /= 10) != 0);
	if (negative)
		out[0] = '-';
	return end;
}

bool
str_in_list(const char *const *list, const char *s)
{
	for (size_t i = 0; s != NULL && list[i] != NULL; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

int
hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
