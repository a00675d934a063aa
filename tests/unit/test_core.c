/* Unit tests of the core helpers: strict parsing, UTF-8, ids, JSON,
 * config, sealing, tokens and scopes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>

#include "auth/auth.h"
#include "core/config.h"
#include "core/err.h"
#include "core/jsonx.h"
#include "core/url.h"
#include "core/util.h"
#include "crypto/seal.h"
#include "crypto/token.h"

static void
test_parse_i64(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(parse_i64("42", 1, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(parse_i64("-5", -10, 10, &v), 0);
	assert_int_equal(v, -5);
	assert_int_equal(parse_i64("9223372036854775807", 0, INT64_MAX, &v), 0);
	const char *bad[] = { "", "-", "+1", " 1", "1 ", "1e3", "0x10", "abc", "12a", "9223372036854775808",
		"99999999999999999999", NULL };
	for (int i = 0; bad[i]; i++)
		assert_int_equal(parse_i64(bad[i], INT64_MIN + 1, INT64_MAX, &v), -1);
	assert_int_equal(parse_i64("101", 1, 100, &v), -1);
	assert_int_equal(parse_i64("0", 1, 100, &v), -1);
}

/* A rounded number is written as its few decimals, never json-c's 17 digits. */
static void
test_rounded_numbers(void **state)
{
	static const struct {
		double v;
		int places;
		const char *text;
	} cases[] = {
		{ 0.3, 4, "0.3" },
		{ 0.30000001, 4, "0.3" },
		{ 0.33335, 4, "0.3334" },
		{ 1.0, 4, "1.0" },
		{ 0.0, 4, "0.0" },
		{ 0.99996, 4, "1.0" },
		{ 1234.56, 1, "1234.6" },
		{ 7.0, 1, "7.0" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_object *o = jx_new_rounded(cases[i].v, cases[i].places), *back;
		int ok;
		assert_string_equal(json_object_to_json_string(o), cases[i].text);
		back = jx_parse(cases[i].text, strlen(cases[i].text), &ok);
		assert_true(json_object_is_type(back, json_type_double));
		json_object_put(back);
		json_object_put(o);
	}
}

static void
test_parse_bool(void **state)
{
	bool b;

	(void)state;
	assert_int_equal(parse_bool("true", &b), 0);
	assert_true(b);
	assert_int_equal(parse_bool("0", &b), 0);
	assert_false(b);
	assert_int_equal(parse_bool("yes", &b), -1);
	assert_int_equal(parse_bool("TRUE", &b), -1);
	assert_int_equal(parse_bool("", &b), -1);
}

static void
test_utf8(void **state)
{
	(void)state;
	assert_true(utf8_valid("plain", 5));
	assert_true(utf8_valid("caf\xc3\xa9", 5));
	assert_true(utf8_valid("\xf0\x9f\x98\x80", 4));
	/* plain: UTF-8 without control characters */
	assert_false(has_control("caf\xc3\xa9 au lait ~", 15));
	assert_true(has_control("nul\0here", 8));
	assert_true(has_control("esc\x1b", 4));
	assert_true(has_control("del\x7f", 4));
	assert_false(has_control("del\x7f", 3)); /* only the first len bytes */
	assert_true(utf8_plain("caf\xc3\xa9 au lait", 13));
	assert_false(utf8_plain("tab\there", 8));
	assert_false(utf8_plain("del\x7f", 4));
	assert_false(utf8_plain("pr\311be", 5));     /* \311: 0xc9, a lead byte with no continuation */
	assert_false(utf8_valid("\xc3", 1));         /* truncated */
	assert_false(utf8_valid("\xc0\xaf", 2));     /* overlong */
	assert_false(utf8_valid("\xed\xa0\x80", 3)); /* surrogate */
	assert_false(utf8_valid("\xff", 1));
	assert_false(utf8_valid("a\0b", 3));             /* NUL */
	assert_false(utf8_valid("\xf4\x90\x80\x80", 4)); /* > U+10FFFF */
}

static void
test_uuid(void **state)
{
	char a[37], b[37];

	(void)state;
	uuid_v7(a);
	uuid_v7(b);
	assert_true(uuid_valid(a));
	assert_string_not_equal(a, b);
	assert_int_equal(a[14], '7');
	assert_true(a[19] == '8' || a[19] == '9' || a[19] == 'a' || a[19] == 'b');
	assert_true(uuid_valid("0192b8e4-5c1a-7c3e-9f00-aabbccddeeff"));
	assert_false(uuid_valid("0192b8e4-5c1a-7c3e-9f00-aabbccddeef"));
	assert_false(uuid_valid("0192b8e4x5c1a-7c3e-9f00-aabbccddeeff"));
	assert_false(uuid_valid("../../../etc/passwd-aaaaaaaaaaaaaaaaa"));
	assert_false(uuid_valid(""));
}

static void
test_json_parse(void **state)
{
	json_object *v;
	int ok;
	char deep[64];

	(void)state;
	v = jx_parse("{\"a\":1}  \n", 10, &ok);
	assert_true(ok);
	assert_true(json_object_is_type(v, json_type_object));
	json_object_put(v);
	v = jx_parse("123", 3, &ok);
	assert_true(ok);
	assert_int_equal(json_object_get_int(v), 123);
	json_object_put(v);
	v = jx_parse("{\"a\":1} x", 9, &ok);
	assert_false(ok);
	v = jx_parse("{\"a\":1}{}", 9, &ok);
	assert_false(ok);
	v = jx_parse("{\"a\":", 5, &ok);
	assert_false(ok);
	v = jx_parse("{'a':1}", 7, &ok);
	assert_false(ok);
	v = jx_parse("\"\xff\"", 3, &ok);
	assert_false(ok);
	memset(deep, '[', 40);
	memset(deep + 40, ']', 20);
	v = jx_parse(deep, 60, &ok); /* deeper than JSONX_MAX_DEPTH */
	assert_false(ok);
	v = jx_parse("null", 4, &ok);
	assert_true(ok);
	assert_null(v);
}

/* One nesting limit for every text (found by tests/fuzz/fuzz_jsonw.c): json-c
 * took 16 nested containers when the innermost was empty and refused them
 * when it held a value; now both are refused, 15 are taken, and jx_valid
 * agrees with jx_parse on each. */
static void
test_json_depth_limit(void **state)
{
	static const char *const inner[] = { "", "1", "{}", "{\"a\":1}" };
	char text[128];
	json_object *v;
	int ok;

	(void)state;
	for (int depth = JSONX_MAX_DEPTH - 1; depth <= JSONX_MAX_DEPTH; depth++) {
		for (size_t i = 0; i < sizeof inner / sizeof inner[0]; i++) {
			int n = 0, levels = depth - (inner[i][0] == '{');

			for (int k = 0; k < levels; k++)
				text[n++] = '[';
			n += snprintf(text + n, sizeof text - (size_t)n, "%s", inner[i]);
			for (int k = 0; k < levels; k++)
				text[n++] = ']';
			v = jx_parse(text, (size_t)n, &ok);
			assert_int_equal(ok, depth < JSONX_MAX_DEPTH);
			assert_int_equal(jx_valid(text, (size_t)n), depth < JSONX_MAX_DEPTH);
			json_object_put(v);
		}
	}
	/* brackets inside strings are text, not nesting */
	memset(text, '[', 40);
	memcpy(text, "[\"", 2);
	memcpy(text + 40, "\"]", 3);
	v = jx_parse(text, 42, &ok);
	assert_true(ok);
	json_object_put(v);
}

/* jx_valid accepts JSON and nothing else: fixed cases of each rule, then
 * 20,000 one-byte mutations of valid documents, each of which it accepts only
 * when jx_parse does too (a stored document it passes through must read back). */
static void
test_json_valid(void **state)
{
	static const char *const good[] = { "{}", " [ ] ", "0", "-0", "1.5e-3", "-12E+2", "true", "null",
		"\"\\u00e9\\/\\\"\\b\\f\\n\\r\\t\\\\\"", "\"Caf\xc3\xa9\"",
		"{\"a\":[1,{\"b\":null}],\"c\":\"x\"}", "[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]" };
	static const char *const bad[] = { "", " ", "{,}", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "1e",
		"NaN", "'x'", "{'a':1}", "\"a\x01\"", "\"\\x\"", "\"\\u12G4\"", "\"abc", "{\"a\" 1}", "{1:2}",
		"[1 2]", "tru", "true1", "{} {}", "\"\xff\"", "[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]" };
	static const char *const docs[] = { "{\"discovered\":{\"monitor\":20},\"planned\":{\"create\":20},"
		                            "\"imported\":0,\"skipped\":0,\"failed\":0,\"progress\":0.5}",
		"{\"page\":1,\"ids\":[-1,2e3,\"x\\\"y\"],\"ok\":true,\"no\":false,\"none\":null}" };
	static const char pieces[] = "{}[]\":,\\ -+.eE0123456789tfnul'ax\x01\xc3";
	struct printbuf *pb = printbuf_new();
	unsigned r = 1;
	char buf[256];
	int ok;

	(void)state;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		json_object_put(jx_parse(good[i], strlen(good[i]), &ok));
		if (!ok)
			fail_msg("jx_parse refused %s", good[i]);
		assert_true(jx_valid(good[i], strlen(good[i])));
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (jx_valid(bad[i], strlen(bad[i])))
			fail_msg("jx_valid accepted %s", bad[i]);
	for (int i = 0; i < 20000; i++) {
		const char *doc = docs[i % 2];
		size_t n = strlen(doc), at;
		json_object *v;

		memcpy(buf, doc, n);
		r = r * 1103515245 + 12345;
		at = (r >> 8) % n;
		switch ((r >> 4) % 3) {
		case 0: /* replace */
			buf[at] = pieces[(r >> 16) % (sizeof pieces - 1)];
			break;
		case 1: /* insert */
			memmove(buf + at + 1, buf + at, n - at);
			buf[at] = pieces[(r >> 16) % (sizeof pieces - 1)];
			n++;
			break;
		default: /* delete */
			memmove(buf + at, buf + at + 1, n - at - 1);
			n--;
		}
		v = jx_parse(buf, n, &ok);
		json_object_put(v);
		if (jx_valid(buf, n) && !ok)
			fail_msg("jx_valid accepted what jx_parse refuses: %.*s", (int)n, buf);
	}
	/* A stored object goes through as it is; anything else is {}. A NULL
	 * column is {} too, without arithmetic on NULL (clang's UBSan, unlike
	 * gcc's, reports NULL + 0: found by tests/fuzz/fuzz_rest.c). */
	jx_put_object(pb, "{\"a\": [1]}");
	jx_put_object(pb, NULL);
	jx_put_object(pb, "null");
	jx_put_object(pb, "[1]");
	jx_put_object(pb, "{\"a\":1");
	jx_put_time(pb, "2026-11-21 18:04:05.123456");
	jx_put_time(pb, NULL);
	jx_put_time(pb, "2026-11-21");
	assert_string_equal(pb->buf, "{\"a\": [1]}{}{}{}{}\"2026-11-21T18:04:05Z\"nullnull");
	printbuf_free(pb);
}

/* The buffer writer gives the text json-c gives: every ASCII byte, UTF-8, a
 * long text of every byte from 0x20 up with escapes between (across block
 * boundaries, sparse and dense), null, integers, and a spliced value inside
 * a json-c tree. */
static void
test_json_writer(void **state)
{
	char all[128 + 16], long_text[10007];
	const char *utf8 = "Caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 a/b";
	struct printbuf *pb = printbuf_new();
	json_object *tree, *s;

	(void)state;
	for (int i = 0; i < 128; i++)
		all[i] = (char)(i + 1 == 128 ? 0 : i + 1);
	memcpy(all + 128, "tail\x7f", 5);
	s = json_object_new_string_len(all, 133);
	jx_put_str(pb, all, 133);
	assert_int_equal(printbuf_length(pb), strlen(jx_text(s)));
	assert_memory_equal(pb->buf, jx_text(s), (size_t)printbuf_length(pb));
	json_object_put(s);
	printbuf_reset(pb);
	s = json_object_new_string(utf8);
	jx_put_str(pb, utf8, strlen(utf8));
	assert_int_equal(printbuf_length(pb), strlen(jx_text(s)));
	assert_memory_equal(pb->buf, jx_text(s), (size_t)printbuf_length(pb));
	json_object_put(s);
	printbuf_reset(pb);
	for (size_t at = 0; at < 48; at++) { /* the first escape at each place of a block and after */
		char text[48];

		for (size_t i = 0; i < sizeof text; i++)
			text[i] = i % 3 == 0 ? 'a' : i % 3 == 1 ? '\xc3' : '\xa9';
		text[at] = "\"\\\001\037\177"[at % 5];
		s = json_object_new_string_len(text, (int)sizeof text);
		jx_put_str(pb, text, sizeof text);
		assert_string_equal(pb->buf, jx_text(s));
		json_object_put(s);
		printbuf_reset(pb);
	}
	/* One byte in 13 escaped, control bytes among them; one in 3 a quote or
	 * a backslash (as in a JSON text: every set of them among eight); and a
	 * text shorter than a block. */
	for (size_t k = 0; k < 3; k++) {
		size_t every = k == 0 ? 13 : 3, len = k < 2 ? sizeof long_text : 61;

		for (size_t i = 0, r = k + 1; i < len; i++) {
			r = r * 1103515245 + 12345;
			long_text[i] = (r >> 16) % every == 0 ? "\"\\\001\037"[(r >> 8) % (k == 0 ? 4 : 2)] :
			                                        (char)(0x20 + (r >> 20) % 0xe0);
		}
		s = json_object_new_string_len(long_text, (int)len);
		jx_put_str(pb, long_text, len);
		assert_int_equal(printbuf_length(pb), strlen(jx_text(s)));
		assert_memory_equal(pb->buf, jx_text(s), (size_t)printbuf_length(pb));
		json_object_put(s);
		printbuf_reset(pb);
	}
	{
		char num[20];

		assert_int_equal(int_text(num, UINT64_MAX, false), 20);
		assert_memory_equal(num, "18446744073709551615", 20);
		assert_int_equal(int_text(num, 0, false), 1);
		assert_memory_equal(num, "0", 1);
	}
	for (int k = 0; k <= 19; k++) { /* every length of a number, either side of each power of ten */
		int64_t ten = 1, v[6];
		char want[32];

		for (int j = 0; j < k && j < 18; j++)
			ten *= 10;
		v[0] = ten - 1, v[1] = ten, v[2] = ten + 1, v[3] = -ten, v[4] = INT64_MAX - k,
		v[5] = INT64_MIN + k;
		for (int j = 0; j < 6; j++) {
			jx_put_int(pb, v[j]);
			snprintf(want, sizeof want, "%" PRId64, v[j]);
			assert_string_equal(pb->buf, want);
			printbuf_reset(pb);
		}
	}
	printbuf_strappend(pb, "[");
	jx_put_str(pb, NULL, 0);
	printbuf_strappend(pb, ",");
	jx_put_int(pb, INT64_MIN);
	printbuf_strappend(pb, ",");
	jx_put_int(pb, 42);
	printbuf_strappend(pb, "]");
	tree = json_object_new_object();
	jx_add_int(tree, "a", 1);
	json_object_object_add(tree, "b", jx_splice(pb));
	assert_string_equal(jx_text(tree), "{\"a\":1,\"b\":[null,-9223372036854775808,42]}");
	json_object_put(tree);
}

/* jx_put_json writes a tree as json-c does, splices as their text; and
 * jx_put_own_str escapes the buffer's own text as it grows under it. */
static void
test_json_tree_writer(void **state)
{
	json_object *tree = json_object_new_object(), *list = json_object_new_array(), *s;
	struct printbuf *pb = printbuf_new(), *text = printbuf_new();
	static const char unit[] = "{\"a\":\"\\\"\\x\\\\\"}"; /* 9 of every 14 bytes a quote or a backslash */
	char dense[9000];
	size_t at;

	(void)state;
	jx_add_str(tree, "s\"k\x01", "a\"b\\c\n\x01 Caf\xc3\xa9 /");
	json_object_object_add(tree, "i", json_object_new_int64(INT64_MIN));
	json_object_object_add(tree, "u", json_object_new_uint64(UINT64_MAX));
	json_object_object_add(tree, "d", json_object_new_double(0.1));
	json_object_object_add(tree, "t", json_object_new_boolean(1));
	json_object_object_add(tree, "f", json_object_new_boolean(0));
	json_object_object_add(tree, "n", NULL);
	json_object_array_add(list, json_object_new_int(7));
	json_object_array_add(list, json_object_new_array());
	json_object_array_add(list, json_object_new_object());
	json_object_array_add(list, NULL);
	json_object_object_add(tree, "a", list);
	printbuf_strappend(text, "[1,{\"x\":\"y\"}]");
	json_object_object_add(tree, "sp", jx_splice(text));
	jx_put_json(pb, tree);
	assert_string_equal(pb->buf, jx_text(tree));
	json_object_put(tree);
	printbuf_reset(pb);
	jx_put_json(pb, NULL);
	assert_string_equal(pb->buf, "null");
	printbuf_free(pb);

	for (size_t i = 0; i < sizeof dense; i++)
		dense[i] = unit[i % (sizeof unit - 1)];
	pb = printbuf_new(); /* small: the escaped text makes it grow many times */
	jx_put_lit(pb, "[");
	at = (size_t)pb->bpos;
	printbuf_memappend(pb, dense, (int)sizeof dense);
	jx_put_lit(pb, ",");
	jx_put_own_str(pb, at, sizeof dense);
	s = json_object_new_string_len(dense, (int)sizeof dense);
	assert_int_equal((size_t)pb->bpos, 2 + sizeof dense + strlen(jx_text(s)));
	assert_memory_equal(pb->buf + 2 + sizeof dense, jx_text(s), strlen(jx_text(s)));
	json_object_put(s);
	printbuf_free(pb);
}

static char *
write_tmp(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof path, "/tmp/migrator-test-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* URLs as curl reads them (core/url.c). */
static void
test_url_parse(void **state)
{
	struct url u;
	char buf[64];
	char *s;

	(void)state;
	/* upper-case scheme and host: the scheme lower-cased, the host as written */
	assert_int_equal(url_parse(&u, NULL, "HTTPS://Example.COM/a/b", 0), CURLUE_OK);
	assert_string_equal(u.scheme, "https");
	assert_string_equal(u.host, "Example.COM");
	assert_null(u.port);
	assert_int_equal(u.port_num, 443); /* the default port */
	assert_string_equal(u.path, "/a/b");
	assert_false(u.userinfo);
	url_free(&u);
	assert_int_equal(url_parse(&u, NULL, "http://a.example:80/", 0), CURLUE_OK);
	assert_string_equal(u.port, "80");
	assert_int_equal(u.port_num, 80);
	url_free(&u);
	/* an IPv6 literal with a port, in brackets; its host without them */
	assert_int_equal(url_parse(&u, NULL, "https://[::1]:8443/x?q=1#f", 0), CURLUE_OK);
	assert_string_equal(u.host, "[::1]");
	assert_int_equal(u.port_num, 8443);
	assert_string_equal(u.query, "q=1");
	assert_string_equal(u.fragment, "f");
	assert_int_equal(url_host_copy(&u, buf, sizeof buf), 0);
	assert_string_equal(buf, "::1");
	assert_int_equal(url_host_copy(&u, buf, 3), -1);
	assert_string_equal(buf, "");
	url_origin_text(&u, buf, sizeof buf);
	assert_string_equal(buf, "https://[::1]:8443");
	url_free(&u);
	/* user info noticed; a percent-encoded host decoded */
	assert_int_equal(url_parse(&u, NULL, "https://user:pw@ex%41mple.com/", 0), CURLUE_OK);
	assert_true(u.userinfo);
	assert_string_equal(u.host, "exAmple.com");
	url_free(&u);
	/* refused: no host, a bad port, a broken IPv6 literal */
	assert_int_equal(url_parse(&u, NULL, "https://", 0), CURLUE_NO_HOST);
	assert_null(u.host);
	assert_int_equal(url_parse(&u, NULL, "https://a.example:65536/", 0), CURLUE_BAD_PORT_NUMBER);
	assert_int_equal(url_parse(&u, NULL, "https://[::1/", 0), CURLUE_BAD_IPV6);
	assert_int_equal(url_parse(&u, NULL, NULL, 0), CURLUE_MALFORMED_INPUT);
	/* relative to a base, as a redirect's Location */
	assert_int_equal(url_parse(&u, "https://a.example/v2/x?k=1", "../y", 0), CURLUE_OK);
	assert_string_equal(u.path, "/y");
	assert_null(u.query);
	url_free(&u);
	/* a host that is not UTF-8: read, and named cleanly */
	assert_int_equal(url_parse(&u, NULL, "https://\xff\xfe.example:8443/", 0), CURLUE_OK);
	url_origin_text(&u, buf, sizeof buf);
	assert_string_equal(buf, "https://??.example:8443");
	url_free(&u);
	/* a port put in, the URL written by curl */
	s = url_set_port("HTTP://A.Example/p%20q?x=1", 8080);
	assert_string_equal(s, "http://A.Example:8080/p%20q?x=1");
	free(s);
	assert_null(url_set_port("not a url", 80));
}

/* A URL's basic-auth login taken out of it, the rest as written. */
static void
test_url_take_login(void **state)
{
	char *bare, *user, *pass;

	(void)state;
	assert_int_equal(url_take_login("https://probe:s%3Ac%40ret@Shop.example:8443/a@b?u=x@y#f", &bare,
	                     &user, &pass),
	    1);
	assert_string_equal(bare, "https://Shop.example:8443/a@b?u=x@y#f");
	assert_string_equal(user, "probe");
	assert_string_equal(pass, "s:c@ret");
	free(bare);
	free(user);
	free(pass);
	/* a user alone; the last '@' of the authority ends the login */
	assert_int_equal(url_take_login("http://a@b@host/", &bare, &user, &pass), 1);
	assert_string_equal(bare, "http://host/");
	assert_string_equal(user, "a@b");
	assert_null(pass);
	free(bare);
	free(user);
	/* parts that decode to control characters or to what is not UTF-8 are not taken, but leave the URL */
	assert_int_equal(url_take_login("http://%00:%0a@host", &bare, &user, &pass), 1);
	assert_string_equal(bare, "http://host");
	assert_null(user);
	assert_null(pass);
	free(bare);
	assert_int_equal(url_take_login("http://pr%C9be:s%FF@host", &bare, &user, &pass), 1);
	assert_string_equal(bare, "http://host");
	assert_null(user);
	assert_null(pass);
	free(bare);
	assert_int_equal(url_take_login("http://:@host/", &bare, &user, &pass), 1);
	assert_null(user);
	assert_null(pass);
	free(bare);
	/* none */
	assert_int_equal(url_take_login("https://host/p?mail=a@b", &bare, &user, &pass), 0);
	assert_null(bare);
	assert_int_equal(url_take_login("mailto:a@b", &bare, &user, &pass), 0);
	assert_int_equal(url_take_login(NULL, &bare, &user, &pass), 0);
}

/* A monitor's natural key: equal for the spellings of one site, different
 * for another site; every address with a key starts with that key's prefix
 * (letter case aside), so that monitor_find's index range finds them all. */
static void
test_url_key(void **state)
{
	static const struct {
		const char *address;
		int64_t port;
		const char *key, *prefix;
	} cases[] = {
		{ "HTTPS://Shop.Example.com:443/health/?x=1", -1, "https://shop.example.com/health?x=1",
		    "https://shop.example.com" },
		{ "https://shop.example.com/health?x=1", 80, "https://shop.example.com/health?x=1",
		    "https://shop.example.com" },
		{ "http://a.example.com:80", -1, "http://a.example.com", "http://a.example.com" },
		{ "HTTP://A.EXAMPLE.COM/", -1, "http://a.example.com", "http://a.example.com" },
		{ "http://a.example.com:8080/", -1, "http://a.example.com:8080", "http://a.example.com" },
		{ "http://A.example.com:08080", -1, "http://a.example.com:8080", "http://a.example.com" },
		{ "https://a.example.com:80/", -1, "https://a.example.com:80", "https://a.example.com" },
		{ "https://a.example.com/X//", -1, "https://a.example.com/X", "https://a.example.com" },
		{ "https://a.example.com/X \t\r\n", -1, "https://a.example.com/X", "https://a.example.com" },
		{ "https://a.example.com/p%20q/#top", -1, "https://a.example.com/p%20q#top",
		    "https://a.example.com" },
		{ "https://\xc3\x9c.example/\xc3\xa4/", -1, "https://\xc3\xbc.example/\xc3\xa4",
		    "https://\xc3\xbc.example" },
		{ "https://\xc3\xbc.example/\xc3\xa4", -1, "https://\xc3\xbc.example/\xc3\xa4",
		    "https://\xc3\xbc.example" },
		{ "https://\xc8\xba.example/", -1, "https://\xe2\xb1\xa5.example",
		    "https://\xe2\xb1\xa5.example" },
		{ "https://[2001:DB8::1]:8443/x/", -1, "https://[2001:db8::1]:8443/x",
		    "https://[2001:db8::1]" },
		{ "https://[2001:db8::1]:8443/x", -1, "https://[2001:db8::1]:8443/x",
		    "https://[2001:db8::1]" },
		{ "https://[::1]:443/", -1, "https://[::1]", "https://[::1]" },
		{ "tcp://DB.example.com:25", -1, "tcp://db.example.com:25", "tcp://db.example.com" },
		/* a URL not written plainly is its own key, as written: a user name or
		 * password, a slash too few or too many, a host percent-encoded or an IP
		 * address in another spelling, white space before it */
		{ "https://u:pw@a.example.com/", -1, "https://u:pw@a.example.com/",
		    "https://u:pw@a.example.com/" },
		{ "https://@a.example.com", -1, "https://@a.example.com", "https://@a.example.com" },
		{ "https:/a.example.com/x", -1, "https:/a.example.com/x", "https:/a.example.com/x" },
		{ "https:///a.example.com/x", -1, "https:///a.example.com/x", "https:///a.example.com/x" },
		{ "https://ex%41mple.com/", -1, "https://ex%41mple.com/", "https://ex%41mple.com/" },
		{ "https://127.1/", -1, "https://127.1/", "https://127.1/" },
		{ "https://[2001:db8:0::1]/", -1, "https://[2001:db8:0::1]/", "https://[2001:db8:0::1]/" },
		{ " https://a.example.com/X", -1, " https://a.example.com/x", " https://a.example.com/x" },
		/* a host (ping, port and DNS checks) */
		{ "Mail.Example.com. \n", 25, "mail.example.com:25", "mail.example.com" },
		{ "Mail.Example.com:25", -1, "mail.example.com:25", "mail.example.com" },
		{ "mail.example.com", 25, "mail.example.com:25", "mail.example.com" },
		{ "Mail.Example.com", -1, "mail.example.com", "mail.example.com" },
		{ " Mail.Example.com", 25, " mail.example.com:25", " mail.example.com" },
		{ "192.0.2.10", -1, "192.0.2.10", "192.0.2.10" },
		{ "2001:db8::10", 53, "2001:db8::10:53", "2001:db8:" },
		{ "", -1, "", "" },
		/* bytes that are not UTF-8 stay as they are */
		{ "HTTPS://\xff\xfe.EXAMPLE/", -1, "https://\xff\xfe.example", "https://\xff\xfe.example" },
	};
	size_t n = sizeof cases / sizeof cases[0];

	(void)state;
	for (size_t i = 0; i < n; i++) {
		char *prefix = NULL, *key = url_key(cases[i].address, cases[i].port, &prefix), *again;

		if (strcmp(key, cases[i].key) != 0 || strcmp(prefix, cases[i].prefix) != 0)
			fail_msg("%s: key \"%s\", prefix \"%s\"", cases[i].address, key, prefix);
		again = url_key(key, -1, NULL); /* a key is its own key */
		if (strcmp(again, key) != 0)
			fail_msg("%s: key \"%s\" has the key \"%s\"", cases[i].address, key, again);
		free(again);
		free(key);
		free(prefix);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			char *low = url_lower(cases[i].address);

			if (strcmp(cases[i].key, cases[j].key) == 0 &&
			    strncmp(low, cases[j].prefix, strlen(cases[j].prefix)) != 0)
				fail_msg("%s does not start with the prefix of %s", cases[i].address,
				    cases[j].address);
			free(low);
		}
	{
		char *l = url_lower("\xc4\xb0STANBUL \xc3\x84\xc3\x96 \xe1\xba\x9e\xff");

		assert_string_equal(l, "istanbul \xc3\xa4\xc3\xb6 \xc3\x9f\xff"); /* U+0130 -> i */
		free(l);
	}
}

static void
test_config(void **state)
{
	struct config c;
	struct err e;
	char *p;

	(void)state;
	err_clear(&e);
	p = write_tmp("# comment\n[database]\nsocket = /tmp/s.sock\nname=mig\n"
	              "[limits]\nrequests_per_minute = 30\n[features]\nmigrator = on\n"
	              "[provider.uptimerobot]\nbase_url = http://127.0.0.1:9/uptimerobot\n");
	assert_int_equal(config_load(&c, p, &e), 0);
	assert_string_equal(c.db_socket, "/tmp/s.sock");
	assert_string_equal(c.db_name, "mig");
	assert_int_equal(c.requests_per_minute, 30);
	assert_int_equal(c.starts_per_minute, 5); /* spec default */
	assert_int_equal(c.max_body, 65536);
	assert_true(c.migrator_default);
	assert_string_equal(config_get(&c, "provider.uptimerobot", "base_url"),
	    "http://127.0.0.1:9/uptimerobot");
	assert_null(config_get(&c, "provider.pingdom", "base_url"));
	config_free(&c);
	unlink(p);

	p = write_tmp("[limits]\nrequests_per_minute = lots\n");
	assert_int_equal(config_load(&c, p, &e), -1);
	assert_non_null(strstr(e.msg, "requests_per_minute"));
	config_free(&c);
	unlink(p);

	p = write_tmp("[database]\nsokcet = /x\n");
	assert_int_equal(config_load(&c, p, &e), -1);
	assert_non_null(strstr(e.msg, "unknown setting database.sokcet"));
	config_free(&c);
	unlink(p);

	/* Inline comments as in every INI dialect; quotes keep ';' and '#'. */
	p = write_tmp(
	    "[database]\nsocket = /run/my.sock   ; the socket\npassword = \"p;a#ss \\\"q\\\"\" # quoted\n"
	    "name = mig#1\n[limits]\nmax_body = 65536 ; bytes\n[http]\npublic_url =  ; none\n");
	assert_int_equal(config_load(&c, p, &e), 0);
	assert_string_equal(c.db_socket, "/run/my.sock");
	assert_string_equal(c.db_password, "p;a#ss \"q\"");
	assert_string_equal(c.db_name, "mig#1"); /* no white space before '#': part of the value */
	assert_int_equal(c.max_body, 65536);
	assert_string_equal(c.public_url, "");
	config_free(&c);
	unlink(p);
	p = write_tmp("[database]\npassword = \"open\n");
	assert_int_equal(config_load(&c, p, &e), -1);
	assert_non_null(strstr(e.msg, "quoted value"));
	config_free(&c);
	unlink(p);
	/* One server: the socket, else host and port. */
	p = write_tmp("[database]\nhost = db1\nport = 3307\n");
	assert_int_equal(config_load(&c, p, &e), 0);
	assert_int_equal(c.ndb_nodes, 1);
	assert_null(c.db_nodes[0].socket);
	assert_string_equal(c.db_nodes[0].host, "db1");
	assert_int_equal(c.db_nodes[0].port, 3307);
	config_free(&c);
	unlink(p);
	/* A list of servers replaces them, in its order. */
	p = write_tmp("[database]\nsocket = /x.sock\nhosts = db1:3307, /run/n2.sock  [fd00::3]:3308,db4\n");
	assert_int_equal(config_load(&c, p, &e), 0);
	assert_int_equal(c.ndb_nodes, 4);
	assert_string_equal(c.db_nodes[0].host, "db1");
	assert_int_equal(c.db_nodes[0].port, 3307);
	assert_string_equal(c.db_nodes[1].socket, "/run/n2.sock");
	assert_string_equal(c.db_nodes[2].host, "fd00::3");
	assert_int_equal(c.db_nodes[2].port, 3308);
	assert_string_equal(c.db_nodes[3].host, "db4");
	assert_int_equal(c.db_nodes[3].port, 3306);
	config_free(&c);
	unlink(p);
	{
		static const char *const bad[] = { "db1:0", "db1:http", "fd00::3", "[fd00::3", "[]:3306",
			":3306", " , " };
		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			char text[96];
			snprintf(text, sizeof text, "[database]\nhosts = %s\n", bad[i]);
			p = write_tmp(text);
			assert_int_equal(config_load(&c, p, &e), -1);
			assert_non_null(strstr(e.msg, "database.hosts"));
			config_free(&c);
			unlink(p);
		}
	}
	/* The shipped example loads as it is. */
	assert_int_equal(config_load(&c, TEST_SRCDIR "/migrator.conf.example.in", &e), 0);
	assert_int_equal(c.max_resources, 200000);
	assert_int_equal(c.lease_seconds, 120);
	config_free(&c);
}

static void
test_seal(void **state)
{
	const char *run = "0192b8e4-5c1a-7c3e-9f00-aabbccddeeff";
	const char *secret = "{\"api_key\":\"u123-secret\"}";
	char path[64], *plain;
	unsigned char *blob;
	size_t blen, plen;
	struct seal_key *k;
	struct err e;

	(void)state;
	err_clear(&e);
	snprintf(path, sizeof path, "/tmp/migrator-key-%d", (int)getpid());
	unlink(path);
	assert_int_equal(seal_key_generate(path, &e), 0);
	assert_int_equal(seal_key_generate(path, &e), -1); /* never overwrites */
	/* A key others could read, or its group change, is refused; 0640 is fine. */
	assert_int_equal(chmod(path, 0644), 0);
	assert_null(seal_key_load(path, &e));
	assert_non_null(strstr(e.msg, "only its owner and group can read"));
	assert_int_equal(chmod(path, 0660), 0);
	assert_null(seal_key_load(path, &e));
	assert_int_equal(chmod(path, 0640), 0);
	assert_non_null(k = seal_key_load(path, &e));
	assert_int_equal(strlen(seal_key_id(k)), SEAL_KEY_ID_LEN);
	assert_int_equal(seal(k, run, secret, strlen(secret), &blob, &blen), 0);
	assert_null(memmem(blob, blen, "u123-secret", 11));
	assert_int_equal(unseal(k, run, blob, blen, &plain, &plen), 0);
	assert_string_equal(plain, secret);
	seal_plain_free(plain, plen);
	/* seal_same: the same blob for the same secret and associated data, another for another */
	{
		unsigned char *b1, *b2, *b3;
		size_t n1, n2, n3;

		assert_int_equal(seal_same(k, "monitor-auth:7", "pw", 2, &b1, &n1), 0);
		assert_int_equal(seal_same(k, "monitor-auth:7", "pw", 2, &b2, &n2), 0);
		assert_true(n1 == n2 && memcmp(b1, b2, n1) == 0);
		assert_int_equal(unseal(k, "monitor-auth:7", b1, n1, &plain, &plen), 0);
		assert_string_equal(plain, "pw");
		seal_plain_free(plain, plen);
		free(b2);
		assert_int_equal(seal_same(k, "monitor-auth:8", "pw", 2, &b2, &n2), 0);
		assert_int_equal(seal_same(k, "monitor-auth:7", "pX", 2, &b3, &n3), 0);
		assert_true(memcmp(b1, b2, 24) != 0 && memcmp(b1, b3, 24) != 0);
		assert_int_equal(unseal(k, "monitor-auth:7", b2, n2, &plain, &plen), -1);
		free(b1);
		free(b2);
		free(b3);
	}
	/* Bound to the run id, and tamper-evident. */
	assert_int_equal(unseal(k, "0192b8e4-5c1a-7c3e-9f00-000000000000", blob, blen, &plain, &plen), -1);
	blob[blen - 1] ^= 1;
	assert_int_equal(unseal(k, run, blob, blen, &plain, &plen), -1);
	assert_int_equal(unseal(k, run, blob, 10, &plain, &plen), -1);
	free(blob);
	seal_key_free(k);
	unlink(path);
	/* A key file of the wrong shape is refused without echoing it. */
	{
		char *bad = write_tmp("not-a-key\n");
		assert_null(seal_key_load(bad, &e));
		assert_null(strstr(e.msg, "not-a-key"));
		unlink(bad);
	}
}

static void
test_token(void **state)
{
	char secret[TOKEN_SECRET_LEN + 1], tok[128];
	unsigned char h[TOKEN_HASH_LEN];
	const char *s;
	size_t n;
	uint64_t id;

	(void)state;
	token_secret_new(secret);
	assert_int_equal(strlen(secret), TOKEN_SECRET_LEN);
	token_hash(secret, strlen(secret), h);
	snprintf(tok, sizeof tok, "17|%s", secret);
	assert_int_equal(token_parse(tok, &id, &s, &n), 0);
	assert_int_equal(id, 17);
	assert_true(token_verify(s, n, h, sizeof h));
	secret[0] = secret[0] == 'a' ? 'b' : 'a';
	assert_false(token_verify(secret, strlen(secret), h, sizeof h));
	assert_false(token_verify(s, n, h, 5));
	const char *bad[] = { "", "|abc", "17", "17|short", "x|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"0|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"1|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa$",
		"-1|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL };
	for (int i = 0; bad[i]; i++)
		assert_int_equal(token_parse(bad[i], &id, &s, &n), -1);
}

static void
test_scopes(void **state)
{
	uint32_t m;
	char bad[80];
	struct principal p = { 0 };

	(void)state;
	assert_int_equal(scope_parse_list("account:read,mcp:use", &m, bad, sizeof bad), 0);
	p.scopes = m;
	assert_true(scope_has(&p, SC_ACCOUNT_READ));
	assert_true(scope_has(&p, SC_MCP_USE));
	assert_false(scope_has(&p, SC_ACCOUNT_WRITE));
	assert_true(scope_has(&p, SC_NONE));
	assert_int_equal(scope_parse_list("account:read,account:*", &m, bad, sizeof bad), -1);
	assert_string_equal(bad, "account:*");
	assert_int_equal(scope_parse_list("", &m, bad, sizeof bad), 0);
	assert_int_equal(m, 0);
}

static void
test_err_table(void **state)
{
	struct err e;

	(void)state;
	err_clear(&e);
	assert_int_equal(err_info(ERR_RUN_NOT_AWAITING_REVIEW)->status, 422);
	assert_string_equal(err_info(ERR_RUN_NOT_AWAITING_REVIEW)->code, "run_not_awaiting_review");
	assert_int_equal(err_info(ERR_NO_FAILED_RESOURCES)->status, 422);
	assert_int_equal(err_info(ERR_DISCOVERY_RATE_LIMITED)->status, 429);
	assert_string_equal(err_info(ERR_DISCOVERY_RATE_LIMITED)->code, "discovery_rate_limited");
	assert_int_equal(err_info(ERR_FEATURE_DISABLED)->status, 403);
	assert_int_equal(err_info(ERR_RUN_CANCELLED)->status, 409);
	/* JSON-RPC codes of a refusal (JSON-RPC 2.0 §5.1): parse error, invalid
	 * request, else the server-defined refusal. */
	assert_int_equal(err_info(ERR_MALFORMED_JSON)->rpc, -32700);
	assert_int_equal(err_info(ERR_BAD_REQUEST)->rpc, -32600);
	assert_int_equal(err_info(ERR_RATE_LIMITED)->rpc, -32000);
	for (int i = 1; i < ERR__COUNT; i++) {
		assert_true(err_info((enum err_code)i)->status >= 400);
		assert_non_null(err_info((enum err_code)i)->message);
		assert_true(
		    err_info((enum err_code)i)->rpc <= -32000 && err_info((enum err_code)i)->rpc >= -32768);
	}
	/* An internal error never shows its detail. */
	err_internal(&e, "mysql said: password=hunter2");
	assert_null(strstr(err_message(&e), "hunter2"));
	/* Per-field errors are bounded. */
	err_clear(&e);
	for (int i = 0; i < ERR_MAX_FIELDS + 5; i++)
		err_field(&e, "f", "m%d", i);
	assert_int_equal(e.nfields, ERR_MAX_FIELDS);
	assert_int_equal(e.code, ERR_VALIDATION);
}

static void
test_utf8_cut(void **state)
{
	const char *s = "aé€😀b"; /* 1, 2, 3, 4, 1 bytes */
	char buf[8];

	(void)state;
	assert_int_equal(utf8_cut(s, strlen(s), SIZE_MAX, SIZE_MAX), strlen(s));
	assert_int_equal(utf8_cut(s, strlen(s), 2, SIZE_MAX), 3);
	assert_int_equal(utf8_cut(s, strlen(s), SIZE_MAX, 5), 3); /* never half of the euro sign */
	assert_int_equal(utf8_cut(s, strlen(s), SIZE_MAX, 6), 6);
	assert_int_equal(utf8_cut(s, strlen(s), SIZE_MAX, 9), 6); /* nor of the emoji */
	utf8_copy(buf, sizeof buf, s);
	assert_string_equal(buf, "aé€");
	utf8_copy(buf, 1, s);
	assert_string_equal(buf, "");
}

/* ---- UTF-8 everywhere and numbers never clamped (issue 23, items 3 and 7) ---- */

/* utf8_copy cuts on a boundary and turns what is not UTF-8 into '?', in
 * place too; utf8_format does the same to whatever a format makes, however
 * long; utf8_dup copies whole. */
static void
test_utf8_copy_fixes_and_cuts(void **state)
{
	char buf[16], big[4096];
	char *d;

	(void)state;
	utf8_copy(buf, sizeof buf,
	    "a\xff"
	    "b\xc3(\xe2\x82\xf0\x9f\x98\x80"); /* bad, bad lead, cut 3-byte, emoji */
	assert_string_equal(buf, "a?b?(??\xf0\x9f\x98\x80");
	assert_true(utf8_valid(buf, strlen(buf)));
	utf8_copy(buf, sizeof buf, "\xed\xa0\x80\xc0\xaf"); /* a surrogate and an overlong form */
	assert_string_equal(buf, "?????");
	strcpy(buf, "ok\xff\xfe.example");
	utf8_copy(buf, sizeof buf, buf); /* in place */
	assert_string_equal(buf, "ok??.example");
	/* 15 bytes of room: three emoji (12) and not a fourth */
	utf8_copy(buf, sizeof buf, "\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80");
	assert_int_equal(strlen(buf), 12);
	/* a format longer than its buffer: cut on a boundary, never half an emoji */
	for (size_t room = 1; room <= 12; room++) {
		utf8_format(buf, room, "%s:%s", "\xf0\x9f\x98\x80", "x\xf0\x9f\x98\x80\xff");
		assert_true(utf8_valid(buf, strlen(buf)));
		assert_true(strlen(buf) < room);
	}
	utf8_format(buf, sizeof buf, "%s",
	    "\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80");
	assert_int_equal(strlen(buf), 12);
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	big[100] = (char)0xff;
	utf8_format(buf, sizeof buf, "%s", big);
	assert_string_equal(buf, "aaaaaaaaaaaaaaa");
	d = utf8_dup(big);
	assert_int_equal(strlen(d), sizeof big - 1);
	assert_int_equal(d[100], '?');
	free(d);
}

/* The error value: a field name or message past its buffer (the 64-byte cut
 * of a credential key of emoji once split one) is cut on a boundary. */
static void
test_err_cuts_on_boundaries(void **state)
{
	struct err e;
	char key[128] = "credentials.";

	(void)state;
	for (int i = 0; i < 15; i++)
		strcat(key, "\xf0\x9f\x98\x80");
	err_clear(&e);
	err_field(&e, key, "The %s field is unknown: %s.", key, key);
	assert_true(utf8_valid(e.fields[0].field, strlen(e.fields[0].field)));
	assert_int_equal(strlen(e.fields[0].field), 12 + 12 * 4); /* 63 bytes of room: 12 emoji */
	assert_true(utf8_valid(e.fields[0].msg, strlen(e.fields[0].msg)));
	err_set(&e, ERR_VALIDATION, "%s%s%s%s %s", key, key, key, key, "\xff");
	assert_true(utf8_valid(e.msg, strlen(e.msg)));
	err_internal(&e, "%s", "provider said \xff\xfe");
	assert_string_equal(e.detail, "provider said ??");
}

/* A number no int64_t or finite double holds is never clamped: jx_parse
 * reads it as null, jx_parse_input as a marker named by its path; numbers
 * within range (the int64 ends, -0, tiny doubles) read exactly. */
static void
test_json_numbers_never_clamped(void **state)
{
	static const char *const out[] = { "99999999999999999999", "-99999999999999999999",
		"9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
		"1e400", "-1e400", "1.8e308", "123456789012345678901234567890", "1E+309", NULL };
	static const char *const in[] = { "9223372036854775807", "-9223372036854775808", "-0", "0", "1e-400",
		"1.7e308", "-0.0", "12345678901234567890.5", "9007199254740993", NULL };
	char text[128], where[64];
	json_object *v, *x;
	int ok;

	(void)state;
	for (size_t i = 0; out[i] != NULL; i++) {
		snprintf(text, sizeof text, "{\"a\":[1,%s],\"b\":2}", out[i]);
		v = jx_parse(text, strlen(text), &ok);
		if (!ok)
			fail_msg("jx_parse refused %s", text);
		x = json_object_array_get_idx(json_object_object_get(v, "a"), 1);
		if (x != NULL)
			fail_msg("%s read as %s, not null", out[i], json_object_to_json_string(x));
		assert_false(jx_valid(text, strlen(text)));
		json_object_put(v);
		v = jx_parse_input(text, strlen(text), &ok);
		assert_true(ok);
		assert_true(jx_find_out_of_range(v, where, sizeof where));
		assert_string_equal(where, "a.1");
		json_object_put(v);
		/* alone, at the very end of the text */
		v = jx_parse_input(out[i], strlen(out[i]), &ok);
		assert_true(ok);
		assert_true(jx_out_of_range(v));
		json_object_put(v);
	}
	for (size_t i = 0; in[i] != NULL; i++) {
		snprintf(text, sizeof text, "{\"id\":%s}", in[i]);
		v = jx_parse_input(text, strlen(text), &ok);
		assert_true(ok);
		if (jx_find_out_of_range(v, where, sizeof where))
			fail_msg("%s called out of range", in[i]);
		assert_true(jx_valid(text, strlen(text)));
		json_object_put(v);
	}
	v = jx_parse("[9223372036854775807,-9223372036854775808,9007199254740993]", 59, &ok);
	assert_true(ok);
	assert_true(json_object_get_int64(json_object_array_get_idx(v, 0)) == INT64_MAX);
	assert_true(json_object_get_int64(json_object_array_get_idx(v, 1)) == INT64_MIN);
	assert_true(json_object_get_int64(json_object_array_get_idx(v, 2)) == 9007199254740993LL);
	json_object_put(v);
	/* the path names keys and positions however deep, cut on a boundary */
	strcpy(text, "{\"x\":{\"\xf0\x9f\x98\x80\":[[0,{\"k\":1e999}]]}}");
	v = jx_parse_input(text, strlen(text), &ok);
	assert_true(jx_find_out_of_range(v, where, sizeof where));
	assert_string_equal(where, "x.\xf0\x9f\x98\x80.0.1.k");
	assert_true(jx_find_out_of_range(v, where, 6));
	assert_string_equal(where, "x."); /* 5 bytes: never half the emoji */
	json_object_put(v);
	/* NaN is not JSON, whatever the marker is */
	v = jx_parse_input("[NaN]", 5, &ok);
	assert_false(ok);
	/* a key with \u0000 would be read cut short: refused; a value keeps its length */
	v = jx_parse("{\"a\\u0000b\":1}", 14, &ok);
	assert_false(ok);
	v = jx_parse("{\"a\":\"x\\u0000y\"}", 16, &ok);
	assert_true(ok);
	assert_int_equal(json_object_get_string_len(json_object_object_get(v, "a")), 3);
	json_object_put(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_i64),
		cmocka_unit_test(test_parse_bool),
		cmocka_unit_test(test_rounded_numbers),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_url_parse),
		cmocka_unit_test(test_url_take_login),
		cmocka_unit_test(test_url_key),
		cmocka_unit_test(test_utf8_cut),
		cmocka_unit_test(test_uuid),
		cmocka_unit_test(test_json_parse),
		cmocka_unit_test(test_json_depth_limit),
		cmocka_unit_test(test_json_valid),
		cmocka_unit_test(test_json_writer),
		cmocka_unit_test(test_json_tree_writer),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_seal),
		cmocka_unit_test(test_token),
		cmocka_unit_test(test_scopes),
		cmocka_unit_test(test_err_table),
		cmocka_unit_test(test_utf8_copy_fixes_and_cuts),
		cmocka_unit_test(test_err_cuts_on_boundaries),
		cmocka_unit_test(test_json_numbers_never_clamped),
	};

	if (sodium_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
