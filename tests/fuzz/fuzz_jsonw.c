/* libFuzzer target: the JSON writer of src/core/jsonx.c (jx_put_*) against
 * json-c. The input is a program that builds one value three ways at once: a
 * json-c tree (the reference), JSON text written with the jx_put_* functions,
 * and a json-c tree in which parts are splices of written text (jx_splice),
 * as the handlers build their answers. Values: null, booleans, integers of
 * every size, strings of any bytes (every escape, NULs, long runs that cross
 * the writer's 8-, 16-, 64- and 4096-byte steps), times, arrays, objects,
 * splices, and stored objects (jx_put_object), nested up to 20 deep.
 *
 * Checks, each an abort:
 * - the written text is byte for byte json-c's text of the reference, with
 *   the flags of every answer the project sends (http_json in src/http/http.c
 *   and jx_text: JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE; with
 *   NOSLASHESCAPE json-c leaves "/" as it is, as jx_put_str does, so nothing
 *   needs normalising);
 * - the spliced tree gives the same text written by json-c and by jx_put_json;
 * - jx_put_own_str of that text (escaped where it lies, as a tool answer's
 *   text item is) is json-c's text of it as a string;
 * - the text reads back as the reference with jx_parse and with json-c's own
 *   parser when every string was UTF-8 and fewer than JSONX_MAX_DEPTH
 *   containers are nested, and jx_valid and jx_parse both refuse it otherwise;
 * - a stored object (the app's own text) is passed through, or written as {}
 *   when jx_put_object may not pass it; the input's bytes as a stored object
 *   always give an object that reads back. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonx.h"
#include "core/util.h"
#include "fuzz.h"

#define MAX_NODES  3000
#define MAX_LEVEL  20         /* deeper than JSONX_MAX_DEPTH, so both sides of it are tried */
#define MAX_STRING 9000       /* long strings: past two of the writer's 4096-byte blocks */
#define MAX_BYTES  (32 << 10) /* all strings of one input */

static const int flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;

struct gen {
	struct fz in;
	int nodes;
	size_t bytes;
	bool utf8; /* every string so far is UTF-8 (NULs aside): the text must read back */
};

/* One value, three ways: ref is the reference (NULL for JSON null), mix the
 * same with splices; the text went to the printbuf. depth: how many
 * containers are nested in it (0 for a scalar). */
struct val {
	json_object *ref, *mix;
	int depth;
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* UTF-8 with NULs allowed (jx_put_str escapes them as \u0000). */
static bool
utf8_with_nuls(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		const char *nul = memchr(s + i, '\0', n - i);
		size_t end = nul ? (size_t)(nul - s) : n;

		if (!utf8_valid(s + i, end - i))
			return false;
		i = end + 1;
	}
	return true;
}

/* A string's bytes (malloc'd, NUL after them): a run of up to 223 bytes of
 * the input, or a pattern of up to 16 input bytes repeated into a long
 * string (the first byte says which, and how long). */
static char *
gen_bytes(struct gen *g, size_t *len)
{
	uint8_t how = fz_byte(&g->in);
	const uint8_t *src;
	size_t n, plen;
	char *s;

	if (how >= 0xe0) {
		plen = fz_take(&g->in, (size_t)(how & 15) + 1, &src);
		n = plen == 0 ? 0 : (size_t)fz_bits(&g->in, 2) % MAX_STRING;
		if (g->bytes + n > MAX_BYTES)
			n = 0;
		s = malloc(n + 1);
		for (size_t i = 0; i < n; i++)
			s[i] = (char)src[i % plen];
	} else {
		n = fz_take(&g->in, how, &src);
		s = malloc(n + 1);
		memcpy(s, src, n);
	}
	s[n] = '\0';
	g->bytes += n;
	*len = n;
	return s;
}

static struct val gen_value(struct gen *g, struct printbuf *pb, int level);

/* A null, written each way jx writes one. */
static struct val
gen_null(struct gen *g, struct printbuf *pb)
{
	switch (fz_byte(&g->in) % 4) {
	case 0:
		jx_put_lit(pb, "null");
		break;
	case 1:
		jx_put_str(pb, NULL, 0);
		break;
	case 2:
		jx_put_cstr(pb, NULL);
		break;
	default:
		jx_put_time(pb, NULL);
	}
	return (struct val){ NULL, NULL, 0 };
}

/* An integer of 1 to 8 bytes, sign-extended, or one of the extremes. */
static struct val
gen_int(struct gen *g, struct printbuf *pb)
{
	uint8_t how = fz_byte(&g->in);
	int n = how % 8 + 1;
	uint64_t u = fz_bits(&g->in, n);
	int64_t v;

	if (n < 8 && (u >> (8 * n - 1)) & 1)
		u |= ~UINT64_C(0) << (8 * n);
	v = (int64_t)u;
	if (how >> 3 == 1)
		v = INT64_MIN;
	else if (how >> 3 == 2)
		v = INT64_MAX;
	jx_put_int(pb, v);
	return (struct val){ json_object_new_int64(v), json_object_new_int64(v), 0 };
}

static struct val
gen_string(struct gen *g, struct printbuf *pb)
{
	size_t n;
	char *s = gen_bytes(g, &n);
	struct val v = { json_object_new_string_len(s, (int)n), json_object_new_string_len(s, (int)n), 0 };

	g->utf8 = g->utf8 && utf8_with_nuls(s, n);
	if ((fz_byte(&g->in) & 1) && strlen(s) == n)
		jx_put_cstr(pb, s);
	else
		jx_put_str(pb, s, n);
	free(s);
	return v;
}

/* A MySQL DATETIME in its range (with 0 to 6 digits of fraction), written as
 * ISO 8601 with Z. */
static struct val
gen_time(struct gen *g, struct printbuf *pb)
{
	unsigned year = 1000 + (unsigned)fz_bits(&g->in, 2) % 9000, month = 1 + fz_byte(&g->in) % 12;
	unsigned day = 1 + fz_byte(&g->in) % 28, hour = fz_byte(&g->in) % 24, min = fz_byte(&g->in) % 60;
	unsigned sec = fz_byte(&g->in) % 60, frac = fz_byte(&g->in) % 7;
	char mysql[40], iso[32];
	int n;

	n = snprintf(mysql, sizeof mysql, "%04u-%02u-%02u %02u:%02u:%02u", year, month, day, hour, min, sec);
	if (frac > 0)
		snprintf(mysql + n, sizeof mysql - (size_t)n, ".%.*s", (int)frac, "123456");
	snprintf(iso, sizeof iso, "%04u-%02u-%02uT%02u:%02u:%02uZ", year, month, day, hour, min, sec);
	jx_put_time(pb, mysql);
	return (struct val){ json_object_new_string(iso), json_object_new_string(iso), 0 };
}

static struct val
gen_array(struct gen *g, struct printbuf *pb, int level)
{
	struct val v = { json_object_new_array(), json_object_new_array(), 0 };
	int n = fz_byte(&g->in) % 16;

	jx_put_lit(pb, "[");
	for (int i = 0; i < n; i++) {
		struct val c;

		if (i > 0)
			jx_put_lit(pb, ",");
		c = gen_value(g, pb, level + 1);
		json_object_array_add(v.ref, c.ref);
		json_object_array_add(v.mix, c.mix);
		if (c.depth > v.depth)
			v.depth = c.depth;
	}
	jx_put_lit(pb, "]");
	v.depth++;
	return v;
}

/* An object; a key it already has is left out (json-c would replace the
 * value where the text holds both). */
static struct val
gen_object(struct gen *g, struct printbuf *pb, int level)
{
	struct val v = { json_object_new_object(), json_object_new_object(), 0 };
	int n = fz_byte(&g->in) % 16, written = 0;

	jx_put_lit(pb, "{");
	for (int i = 0; i < n; i++) {
		size_t len;
		char *key = gen_bytes(g, &len); /* a key is a C string: cut at a NUL */
		struct val c;

		if (json_object_object_get_ex(v.ref, key, NULL)) {
			free(key);
			continue;
		}
		g->utf8 = g->utf8 && utf8_valid(key, strlen(key));
		if (written++ > 0)
			jx_put_lit(pb, ",");
		jx_put_cstr(pb, key);
		jx_put_lit(pb, ":");
		c = gen_value(g, pb, level + 1);
		json_object_object_add(v.ref, key, c.ref);
		json_object_object_add(v.mix, key, c.mix);
		if (c.depth > v.depth)
			v.depth = c.depth;
		free(key);
	}
	jx_put_lit(pb, "}");
	v.depth++;
	return v;
}

/* A value written on its own and spliced into the tree (mix); its text is
 * copied into pb by jx_put_json, as a splice inside a larger answer is. A
 * splice counts as a level: each one copies all the text inside it. */
static struct val
gen_splice(struct gen *g, struct printbuf *pb, int level)
{
	struct printbuf *sub = printbuf_new();
	struct val v = gen_value(g, sub, level + 1);

	json_object_put(v.mix);
	v.mix = jx_splice(sub);
	jx_put_json(pb, v.mix);
	return v;
}

/* A stored object (a run's stats, a log entry's context): an object's text as
 * json-c wrote it when it was stored, written back with jx_put_object. It
 * must come through as it is, or as {} when it is not UTF-8 or nested too
 * deep to read back. */
static struct val
gen_stored(struct gen *g, struct printbuf *pb, int level)
{
	struct printbuf *scratch = printbuf_new();
	bool utf8 = g->utf8, readable;
	struct val v;

	g->utf8 = true;
	v = gen_object(g, scratch, level + 1);
	readable = g->utf8 && v.depth < JSONX_MAX_DEPTH;
	g->utf8 = utf8;
	printbuf_free(scratch);
	jx_put_object(pb, json_object_to_json_string_ext(v.ref, flags));
	json_object_put(v.mix);
	if (!readable) {
		json_object_put(v.ref);
		v.ref = json_object_new_object();
		v.depth = 1;
	}
	v.mix = json_object_get(v.ref);
	return v;
}

static struct val
gen_value(struct gen *g, struct printbuf *pb, int level)
{
	bool leaf = ++g->nodes > MAX_NODES || level >= MAX_LEVEL;
	uint8_t op = fz_byte(&g->in) % (leaf ? 5 : 9);

	switch (op) {
	case 0:
		return gen_null(g, pb);
	case 1: {
		bool b = fz_byte(&g->in) & 1;
		if (b)
			jx_put_lit(pb, "true");
		else
			jx_put_lit(pb, "false");
		return (struct val){ json_object_new_boolean(b), json_object_new_boolean(b), 0 };
	}
	case 2:
		return gen_int(g, pb);
	case 3:
		return gen_string(g, pb);
	case 4:
		return gen_time(g, pb);
	case 5:
		return gen_array(g, pb, level);
	case 6:
		return gen_object(g, pb, level);
	case 7:
		return gen_splice(g, pb, level);
	default:
		return gen_stored(g, pb, level);
	}
}

/* The text has to be want[0..len). */
static void
check_same(const char *what, const char *got, size_t got_len, const char *want, size_t len)
{
	FUZZ_CHECK(got_len == len && memcmp(got, want, len) == 0,
	    "%s differs from json-c's text\n got: %.*s\nwant: %.*s", what,
	    (int)(got_len < 2000 ? got_len : 2000), got, (int)(len < 2000 ? len : 2000), want);
}

/* jx_put_own_str of text, after some other text in the buffer: the text is
 * copied, then escaped from where it lies. */
static void
check_own_str(const char *text, size_t len)
{
	struct printbuf *pb = printbuf_new();
	json_object *s = json_object_new_string_len(text, (int)len);
	size_t at, want_len;
	const char *want = json_object_to_json_string_length(s, flags, &want_len);

	jx_put_lit(pb, "{\"structuredContent\":");
	at = (size_t)pb->bpos;
	printbuf_memappend(pb, text, (int)len);
	jx_put_own_str(pb, at, len);
	check_same("jx_put_own_str", pb->buf + at + len, (size_t)pb->bpos - at - len, want, want_len);
	json_object_put(s);
	printbuf_free(pb);
}

/* The bytes of the input as stored text: jx_put_object must give an object
 * that reads back, its very text when it is one. */
static void
check_stored_bytes(const uint8_t *data, size_t size)
{
	char *text = strndup((const char *)data, size);
	struct printbuf *pb = printbuf_new();
	json_object *o;
	int ok;

	jx_put_object(pb, text);
	FUZZ_CHECK(strcmp(pb->buf, text) == 0 || strcmp(pb->buf, "{}") == 0, "jx_put_object wrote %s",
	    pb->buf);
	o = jx_parse(pb->buf, (size_t)pb->bpos, &ok);
	FUZZ_CHECK(ok && json_object_is_type(o, json_type_object), "jx_put_object wrote %s, not an object",
	    pb->buf);
	json_object_put(o);
	o = json_tokener_parse(pb->buf);
	FUZZ_CHECK(json_object_is_type(o, json_type_object), "json-c cannot read %s back", pb->buf);
	json_object_put(o);
	printbuf_free(pb);
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gen g = { { data, size }, 0, 0, true };
	struct printbuf *pb = printbuf_new(), *again = printbuf_new();
	struct val v = gen_value(&g, pb, 0);
	size_t len, mixed_len;
	const char *want = json_object_to_json_string_length(v.ref, flags, &len);
	const char *mixed = json_object_to_json_string_length(v.mix, flags, &mixed_len);
	bool readable = g.utf8 && v.depth < JSONX_MAX_DEPTH;
	json_object *back;
	int ok;

	check_same("jx_put_*", pb->buf, (size_t)pb->bpos, want, len);
	check_same("json-c with splices", mixed, mixed_len, want, len);
	jx_put_json(again, v.mix);
	check_same("jx_put_json with splices", again->buf, (size_t)again->bpos, want, len);
	check_own_str(want, len);

	back = jx_parse(want, len, &ok);
	FUZZ_CHECK(ok == readable, "jx_parse %s text it wrote (UTF-8: %d, depth %d): %.*s",
	    ok ? "took" : "refused", g.utf8, v.depth, (int)(len < 2000 ? len : 2000), want);
	FUZZ_CHECK(jx_valid(want, len) == readable, "jx_valid and jx_parse disagree on text jx wrote");
	if (readable) {
		FUZZ_CHECK(json_object_equal(back, v.ref), "jx_parse gives another value back");
		json_object_put(back);
		back = json_tokener_parse(want);
		FUZZ_CHECK(json_object_equal(back, v.ref), "json-c reads another value back");
	}
	json_object_put(back);
	check_stored_bytes(data, size);

	json_object_put(v.ref);
	json_object_put(v.mix);
	printbuf_free(pb);
	printbuf_free(again);
	return 0;
}
