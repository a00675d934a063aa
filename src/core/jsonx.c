#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/jsonx.h"
#include "core/util.h"
#include "core/xalloc.h"

/* A strict reader of JSON syntax (RFC 8259; UTF-8 is checked before): what
 * jx_valid needs to pass stored text through as it is, and what jx_parse
 * checks before json-c reads a text. Each step advances p past one piece, or
 * fails. A number that no int64_t (an integer) or finite double (one with a
 * fraction or exponent) holds as written fails too, or, when mark is set, is
 * overwritten with mark ("null", "NaN") in a copy of the text, marked (made
 * at the first such number). */
struct scan {
	const unsigned char *start, *p, *end;
	int depth;
	const char *mark;
	char *marked;
};

static bool scan_value(struct scan *s);
static size_t plain_prefix(const char *s, size_t n);

static void
scan_ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static bool
scan_byte(struct scan *s, unsigned char c)
{
	scan_ws(s);
	if (s->p == s->end || *s->p != c)
		return false;
	s->p++;
	return true;
}

static bool
scan_digits(struct scan *s)
{
	const unsigned char *from = s->p;

	while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
		s->p++;
	return s->p > from;
}

/* Whether the number text t[0..n) (JSON's grammar) is one json-c reads
 * exactly as written: an integer within int64_t (json-c would clamp it, or
 * read it as an unsigned), or a fraction or exponent whose double is finite
 * (1e400 is infinite). */
static bool
number_in_range(const unsigned char *t, size_t n, bool integer)
{
	char small[64], *text = small;
	bool neg = t[0] == '-';
	double d;

	if (integer) {
		size_t digits = n - neg; /* no leading zeros in JSON */
		return digits < 19 ||
		    (digits == 19 &&
		        memcmp(t + neg, neg ? "9223372036854775808" : "9223372036854775807", 19) <= 0);
	}
	if (n >= sizeof small)
		text = xmalloc(n + 1);
	memcpy(text, t, n);
	text[n] = '\0';
	d = strtod(text, NULL);
	if (text != small)
		free(text);
	return isfinite(d);
}

static bool
scan_number(struct scan *s)
{
	const unsigned char *from = s->p;
	bool integer = true;
	size_t n;

	if (*s->p == '-')
		s->p++;
	if (s->p < s->end && *s->p == '0')
		s->p++;
	else if (!scan_digits(s))
		return false;
	if (s->p < s->end && *s->p == '.') {
		s->p++;
		integer = false;
		if (!scan_digits(s))
			return false;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		s->p++;
		integer = false;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (!scan_digits(s))
			return false;
	}
	n = (size_t)(s->p - from);
	if (number_in_range(from, n, integer))
		return true;
	if (s->mark == NULL)
		return false;
	if (s->marked == NULL) {
		s->marked = xmalloc((size_t)(s->end - s->start));
		memcpy(s->marked, s->start, (size_t)(s->end - s->start));
	}
	/* out of range: at least 5 characters (1e309), room for the mark */
	memset(s->marked + (from - s->start), ' ', n);
	memcpy(s->marked + (from - s->start), s->mark, strlen(s->mark));
	return true;
}

/* The marked copy, wiped (it may hold credentials) and freed. */
static void
scan_marked_free(struct scan *s)
{
	if (s->marked == NULL)
		return;
	sodium_memzero(s->marked, (size_t)(s->end - s->start));
	free(s->marked);
	s->marked = NULL;
}

/* A string, from its opening quote. A key may not hold \u0000: json-c
 * would end it there ({"a\u0000b":1} read as {"a":1}). */
static bool
scan_string(struct scan *s, bool key)
{
	for (s->p++; s->p < s->end; s->p++) {
		unsigned char c;

		/* to the next quote, backslash or control byte, sixteen at a time */
		s->p += plain_prefix((const char *)s->p, (size_t)(s->end - s->p));
		if (s->p == s->end)
			break;
		c = *s->p;

		if (c == '"') {
			s->p++;
			return true;
		}
		if (c < 0x20)
			return false;
		if (c != '\\')
			continue;
		if (++s->p == s->end)
			return false;
		if (*s->p == 'u') {
			if (key && s->end - s->p > 4 && memcmp(s->p, "u0000", 5) == 0)
				return false;
			for (int i = 0; i < 4; i++)
				if (++s->p == s->end || !isxdigit(*s->p))
					return false;
		} else if (strchr("\"\\/bfnrt", *s->p) == NULL || *s->p == '\0')
			return false;
	}
	return false;
}

/* An array or object, from its opening bracket: values (after a key and a
 * colon in an object) parted by commas. */
static bool
scan_container(struct scan *s, unsigned char close)
{
	if (++s->depth >= JSONX_MAX_DEPTH) /* as json-c's tokener counts it */
		return false;
	s->p++;
	if (scan_byte(s, close))
		goto done;
	do {
		if (close == '}') {
			scan_ws(s);
			if (s->p == s->end || *s->p != '"' || !scan_string(s, true) || !scan_byte(s, ':'))
				return false;
		}
		if (!scan_value(s))
			return false;
	} while (scan_byte(s, ','));
	if (!scan_byte(s, close))
		return false;
done:
	s->depth--;
	return true;
}

static bool
scan_literal(struct scan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return false;
	s->p += n;
	return true;
}

static bool
scan_value(struct scan *s)
{
	scan_ws(s);
	if (s->p == s->end)
		return false;
	switch (*s->p) {
	case '{':
		return scan_container(s, '}');
	case '[':
		return scan_container(s, ']');
	case '"':
		return scan_string(s, false);
	case 't':
		return scan_literal(s, "true");
	case 'f':
		return scan_literal(s, "false");
	case 'n':
		return scan_literal(s, "null");
	default:
		return *s->p == '-' || (*s->p >= '0' && *s->p <= '9') ? scan_number(s) : false;
	}
}

/* Free a tokener, wiping what it buffered: the last string it read may be a
 * credential. */
static void
tokener_free(json_tokener *tok)
{
	if (tok->pb != NULL && tok->pb->buf != NULL)
		sodium_memzero(tok->pb->buf, (size_t)tok->pb->size);
	json_tokener_free(tok);
}

/* json-c's tokener, strict, over exactly len bytes. NULL with *ok 0 when it
 * refuses them. */
static json_object *
tokener_parse(const char *buf, size_t len, int *ok)
{
	json_tokener *tok;
	json_object *v;
	size_t used;

	*ok = 0;
	if ((tok = json_tokener_new_ex(JSONX_MAX_DEPTH)) == NULL)
		return NULL;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	v = json_tokener_parse_ex(tok, buf, (int)len);
	if (json_tokener_get_error(tok) != json_tokener_success) {
		/* A complete number at the very end is only finished by EOF. */
		if (json_tokener_get_error(tok) == json_tokener_continue) {
			v = json_tokener_parse_ex(tok, "", 1);
			if (json_tokener_get_error(tok) != json_tokener_success) {
				tokener_free(tok);
				return NULL;
			}
			used = len;
		} else {
			tokener_free(tok);
			return NULL;
		}
	} else
		used = json_tokener_get_parse_end(tok);
	tokener_free(tok);
	for (; used < len; used++) {
		char c = buf[used];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			json_object_put(v);
			return NULL;
		}
	}
	*ok = 1;
	return v;
}

/* jx_parse and jx_parse_input: the text checked by the strict reader first
 * (json-c alone takes 'single quotes' and NaN, and clamps numbers), then
 * read by json-c, with each number out of range as mark. */
static json_object *
parse(const char *buf, size_t len, const char *mark, int *ok)
{
	const unsigned char *t = (const unsigned char *)buf;
	struct scan s = { .start = t, .p = t, .end = t + len, .mark = mark };
	json_object *v;
	bool good;

	*ok = 0;
	if (len > INT32_MAX || !utf8_valid(buf, len))
		return NULL;
	good = scan_value(&s);
	scan_ws(&s);
	if (!good || s.p != s.end) {
		scan_marked_free(&s);
		return NULL;
	}
	v = tokener_parse(s.marked != NULL ? s.marked : buf, len, ok);
	scan_marked_free(&s);
	return v;
}

json_object *
jx_parse(const char *buf, size_t len, int *ok)
{
	return parse(buf, len, "null", ok);
}

json_object *
jx_parse_input(const char *buf, size_t len, int *ok)
{
	return parse(buf, len, "NaN", ok);
}

bool
jx_out_of_range(json_object *v)
{
	return json_object_is_type(v, json_type_double) && isnan(json_object_get_double(v));
}

/* path[0..at) with seg appended ("." between): its new length, or size when
 * seg did not fit whole (the path is cut there, on a character boundary, and
 * grows no more). */
static size_t
path_add(char *path, size_t size, size_t at, const char *seg)
{
	size_t want = at + (at > 0) + strlen(seg);

	if (at >= size)
		return size;
	utf8_format(path + at, size - at, "%s%s", at > 0 ? "." : "", seg);
	return want < size ? want : size;
}

/* The path of the first number out of range under o, after the prefix
 * path[0..at) ("" at the top): keys and array positions. */
static bool
find_range(json_object *o, char *path, size_t size, size_t at)
{
	char pos[24];

	if (jx_out_of_range(o))
		return true;
	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			snprintf(pos, sizeof pos, "%zu", i);
			if (find_range(json_object_array_get_idx(o, i), path, size,
			        path_add(path, size, at, pos)))
				return true;
		}
	} else if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach (o, key, val) {
			if (find_range(val, path, size, path_add(path, size, at, key)))
				return true;
		}
	}
	if (at < size)
		path[at] = '\0';
	return false;
}

bool
jx_find_out_of_range(json_object *o, char *path, size_t size)
{
	if (size == 0)
		return false;
	path[0] = '\0';
	return find_range(o, path, size, 0);
}

void
jx_add_str(json_object *o, const char *key, const char *val)
{
	json_object_object_add(o, key, val ? json_object_new_string(val) : NULL);
}

void
jx_add_int(json_object *o, const char *key, int64_t val)
{
	json_object_object_add(o, key, json_object_new_int64(val));
}

void
jx_add_bool(json_object *o, const char *key, int val)
{
	json_object_object_add(o, key, json_object_new_boolean(val != 0));
}

json_object *
jx_new_rounded(double v, int places)
{
	char text[48];
	double scale = 1.0;
	int n;

	for (int i = 0; i < places; i++)
		scale *= 10.0;
	v = (double)(int64_t)(v * scale + 0.5) / scale;
	n = snprintf(text, sizeof text, "%.*f", places, v);
	while (places > 0 && n > 2 && text[n - 1] == '0' && text[n - 2] != '.')
		text[--n] = '\0';
	return json_object_new_double_s(v, text);
}

bool
jx_valid(const char *text, size_t len)
{
	const unsigned char *t = (const unsigned char *)text;
	struct scan s = { .start = t, .p = t, .end = t + len };

	if (!utf8_valid(text, len) || !scan_value(&s))
		return false;
	scan_ws(&s);
	return s.p == s.end;
}

const char *
jx_str(json_object *o, const char *key)
{
	json_object *v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

const char *
jx_text(json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
}

void
jx_wipe_strings(json_object *o)
{
	if (json_object_is_type(o, json_type_string))
		sodium_memzero((void *)json_object_get_string(o), (size_t)json_object_get_string_len(o));
	else if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			jx_wipe_strings(json_object_array_get_idx(o, i));
	} else if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach (o, key, val) {
			(void)key;
			jx_wipe_strings(val);
		}
	}
}

/* What json-c writes for each byte of a string: 0 the byte itself, else the
 * escape's second character ('u' for \u00XX). */
/* clang-format off */
static const char escapes[256] = {
	['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\f'] = 'f', ['\r'] = 'r', ['"'] = '"', ['\\'] = '\\',
	[0x00] = 'u', [0x01] = 'u', [0x02] = 'u', [0x03] = 'u', [0x04] = 'u', [0x05] = 'u', [0x06] = 'u',
	[0x07] = 'u', [0x0b] = 'u', [0x0e] = 'u', [0x0f] = 'u', [0x10] = 'u', [0x11] = 'u', [0x12] = 'u',
	[0x13] = 'u', [0x14] = 'u', [0x15] = 'u', [0x16] = 'u', [0x17] = 'u', [0x18] = 'u', [0x19] = 'u',
	[0x1a] = 'u', [0x1b] = 'u', [0x1c] = 'u', [0x1d] = 'u', [0x1e] = 'u', [0x1f] = 'u',
};
/* clang-format on */

int
jx_reserve(struct printbuf *pb, size_t need)
{
	size_t at = (size_t)pb->bpos, want = (size_t)pb->size * 2;
	char *grown;

	if ((size_t)pb->size - at > need)
		return 0;
	if (need >= (size_t)INT_MAX - at - 1)
		return -1;
	if (want < at + need + 1 || want > (size_t)INT_MAX)
		want = at + need + 1;
	if ((grown = realloc(pb->buf, want)) == NULL)
		return -1;
	pb->buf = grown;
	pb->size = (int)want;
	return 0;
}

/* n bytes of s escaped at o; returns the end. */
static char *
escape_bytes(char *o, const unsigned char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		char e = escapes[c];

		if (e == 0)
			*o++ = (char)c;
		else if (e != 'u') {
			o[0] = '\\';
			o[1] = e;
			o += 2;
		} else {
			memcpy(o, "\\u00", 4);
			o[4] = hex[c >> 4];
			o[5] = hex[c & 0xf];
			o += 6;
		}
	}
	return o;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* For each set of bytes among eight that need a backslash before them, the
 * byte shuffle that spreads the eight over sixteen with a gap (0x80, which
 * the shuffle turns into 0) before each of those bytes. */
static unsigned char spread[256][16];
static bool wide; /* the CPU has SSSE3 and POPCNT: escape_wide may run */

/* Before main, while the process has one thread (the runner starts others):
 * whether the CPU has SSSE3 and POPCNT (x86-64 CPUs made since about 2011
 * have both), and the table. */
__attribute__((constructor)) static void
wide_init(void)
{
	__builtin_cpu_init(); /* constructors may run before the compiler's own detection */
	wide = __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("popcnt");
	for (int m = 0; m < 256; m++) {
		int k = 0;

		for (int i = 0; i < 8; i++) {
			if (m >> i & 1)
				spread[m][k++] = 0x80;
			spread[m][k++] = (unsigned char)i;
		}
		while (k < 16)
			spread[m][k++] = 0x80;
	}
}

/* Eight bytes at a time: a '"' or '\\' gets its backslash from one shuffle;
 * eight bytes with a control byte among them go through escape_bytes. Each
 * step stores 16 bytes at o: the caller leaves room for six per byte. */
__attribute__((target("ssse3,popcnt"))) static char *
escape_wide(char *o, const unsigned char *s, size_t n)
{
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	const __m128i control = _mm_set1_epi8(0x1f), gap = _mm_set1_epi8((char)0x80);
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		__m128i in = _mm_loadl_epi64((const __m128i *)(const void *)(s + i)), how;
		__m128i marked = _mm_or_si128(_mm_cmpeq_epi8(in, quote), _mm_cmpeq_epi8(in, backslash));
		unsigned m = (unsigned)_mm_movemask_epi8(marked) & 0xff;

		if ((_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(in, control), in)) & 0xff) != 0) {
			o = escape_bytes(o, s + i, 8);
			continue;
		}
		how = _mm_loadu_si128((const __m128i *)(const void *)spread[m]);
		_mm_storeu_si128((__m128i *)(void *)o,
		    _mm_or_si128(_mm_shuffle_epi8(in, how),
		        _mm_and_si128(_mm_cmpeq_epi8(how, gap), backslash)));
		o += 8 + __builtin_popcount(m);
	}
	return escape_bytes(o, s + i, n - i);
}
#endif

/* How many bytes of s need no escape before the first that does: on x86-64
 * sixteen at a time (SSE2, which every x86-64 CPU has), the last few one by
 * one. */
static size_t
plain_prefix(const char *s, size_t n)
{
	size_t i = 0;
#if defined(__x86_64__) && defined(__GNUC__)
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	const __m128i control = _mm_set1_epi8(0x1f);

	for (; i + 16 <= n; i += 16) {
		__m128i in = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m128i marked = _mm_or_si128(_mm_cmpeq_epi8(in, quote), _mm_cmpeq_epi8(in, backslash));
		unsigned m = (unsigned)_mm_movemask_epi8(
		    _mm_or_si128(marked, _mm_cmpeq_epi8(_mm_min_epu8(in, control), in)));

		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	while (i < n && escapes[(unsigned char)s[i]] == 0)
		i++;
	return i;
}

/* Append n bytes escaped, from s, or when s is NULL from pb's own text at
 * offset at (read again after each growth of the buffer), a block at a time. */
static void
escape_blocks(struct printbuf *pb, const char *s, size_t at, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t end = n - i < 4096 ? n : i + 4096;
		const unsigned char *from;
		char *o;

		if (jx_reserve(pb, (end - i) * 6) != 0) /* every byte a \u00XX at most */
			return;
		from = (const unsigned char *)(s != NULL ? s : pb->buf + at) + i;
		o = pb->buf + pb->bpos;
#if defined(__x86_64__) && defined(__GNUC__)
		if (end - i >= 64 && wide)
			o = escape_wide(o, from, end - i);
		else
#endif
			o = escape_bytes(o, from, end - i);
		i = end;
		*o = '\0'; /* the text stays a C string, as after any append */
		pb->bpos = (int)(o - pb->buf);
	}
}

/* The bytes before the first escape are appended at once (the whole string,
 * for most values); the rest is escaped in place: the tool call escapes its
 * whole answer (hundreds of KB, a quote every few bytes), where one append
 * per run of plain bytes cost more than the rest of it. */
void
jx_put_str(struct printbuf *pb, const char *s, size_t n)
{
	size_t i;

	if (s == NULL) {
		jx_put_lit(pb, "null");
		return;
	}
	i = plain_prefix(s, n);
	if (jx_reserve(pb, i + 1) != 0)
		return;
	pb->buf[pb->bpos] = '"';
	memcpy(pb->buf + pb->bpos + 1, s, i);
	pb->bpos += (int)i + 1;
	escape_blocks(pb, s + i, 0, n - i);
	jx_put_lit(pb, "\"");
}

void
jx_put_own_str(struct printbuf *pb, size_t at, size_t n)
{
	jx_put_lit(pb, "\"");
	escape_blocks(pb, NULL, at, n);
	jx_put_lit(pb, "\"");
}

/* The printbuf of a splice: jx_splice is what sets userdata on an object. */
static const struct printbuf *
splice_of(json_object *o)
{
	return json_object_is_type(o, json_type_object) ? json_object_get_userdata(o) : NULL;
}

const char *
jx_splice_text(json_object *o, size_t *len)
{
	const struct printbuf *pb = splice_of(o);

	if (pb == NULL)
		return NULL;
	*len = (size_t)pb->bpos;
	return pb->buf;
}

void
jx_put_json(struct printbuf *pb, json_object *o)
{
	const struct printbuf *text = splice_of(o);
	const char *t;
	bool first = true;

	if (text != NULL) {
		printbuf_memappend(pb, text->buf, text->bpos);
		return;
	}
	switch (json_object_get_type(o)) {
	case json_type_string:
		jx_put_str(pb, json_object_get_string(o), (size_t)json_object_get_string_len(o));
		break;
	case json_type_array:
		jx_put_lit(pb, "[");
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			if (i > 0)
				jx_put_lit(pb, ",");
			jx_put_json(pb, json_object_array_get_idx(o, i));
		}
		jx_put_lit(pb, "]");
		break;
	case json_type_object:
		jx_put_lit(pb, "{");
		json_object_object_foreach (o, key, val) {
			if (!first)
				jx_put_lit(pb, ",");
			first = false;
			jx_put_str(pb, key, strlen(key));
			jx_put_lit(pb, ":");
			jx_put_json(pb, val);
		}
		jx_put_lit(pb, "}");
		break;
	default: /* null, a boolean or a number: json-c's own text */
		t = jx_text(o);
		printbuf_memappend(pb, t, (int)strlen(t));
	}
}

void
jx_put_int(struct printbuf *pb, int64_t v)
{
	if (jx_reserve(pb, 20) != 0)
		return;
	pb->bpos += (int)int_text(pb->buf + pb->bpos, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
	pb->buf[pb->bpos] = '\0';
}

void
jx_put_time(struct printbuf *pb, const char *mysql)
{
	char iso[23];

	iso[0] = '"';
	if (mysql == NULL || time_mysql_to_iso(mysql, iso + 1) != 0) {
		jx_put_lit(pb, "null");
		return;
	}
	iso[21] = '"';
	printbuf_memappend_fast(pb, iso, 22);
}

void
jx_put_cstr(struct printbuf *pb, const char *s)
{
	jx_put_str(pb, s, s != NULL ? strlen(s) : 0);
}

void
jx_put_object(struct printbuf *pb, const char *text)
{
	const unsigned char *t = (const unsigned char *)text;
	struct scan s;
	size_t n;

	if (text == NULL) { /* before any arithmetic on it: NULL + 0 is undefined */
		jx_put_lit(pb, "{}");
		return;
	}
	n = strlen(text);
	s = (struct scan){ .start = t, .p = t, .end = t + n };
	scan_ws(&s);
	if (s.p < s.end && *s.p == '{' && jx_valid(text, n))
		printbuf_memappend_fast(pb, text, (int)n);
	else
		jx_put_lit(pb, "{}");
}

static int
emit_splice(json_object *o, struct printbuf *pb, int level, int flags)
{
	struct printbuf *text = json_object_get_userdata(o);

	(void)level;
	(void)flags;
	return printbuf_memappend(pb, text->buf, text->bpos);
}

static void
free_splice(json_object *o, void *userdata)
{
	(void)o;
	printbuf_free(userdata);
}

json_object *
jx_splice(struct printbuf *pb)
{
	json_object *o = json_object_new_object();

	json_object_set_serializer(o, emit_splice, pb, free_splice);
	return o;
}
