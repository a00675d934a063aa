/* Helpers shared by the provider unit tests: fixtures, recorded responses,
 * normalized-field readers and parse runners. Failures end the current test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/xalloc.h"
#include "provtest.h"

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "tests/unit/fixtures"
#endif

char *
fixture_text(const char *rel, size_t *len)
{
	char path[512];
	FILE *fp;
	long n;
	char *buf;

	snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, rel);
	fp = fopen(path, "rb");
	if (fp == NULL)
		fail_msg("cannot open fixture %s", path);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = xmalloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	if (len != NULL)
		*len = (size_t)n;
	return buf;
}

void
resp_text(struct httpc_resp *r, long status, const char *text)
{
	memset(r, 0, sizeof *r);
	r->status = status;
	r->body = xstrdup(text);
	r->len = strlen(text);
}

void
resp_fixture(struct httpc_resp *r, long status, const char *rel)
{
	memset(r, 0, sizeof *r);
	r->status = status;
	r->body = fixture_text(rel, &r->len);
}

const struct prov_item *
page_find(const struct prov_page *p, const char *type, const char *id)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->items[i].resource_type, type) == 0 && strcmp(p->items[i].external_id, id) == 0)
			return &p->items[i];
	fail_msg("no %s item with external id %s in the page", type, id);
	return NULL;
}

size_t
page_count(const struct prov_page *p, const char *type)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += strcmp(p->items[i].resource_type, type) == 0;
	return n;
}

const char *
nstr(const struct prov_item *it, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(it->norm, key, &v))
		fail_msg("normalized %s lacks key %s", it->external_id, key);
	return v == NULL ? NULL : json_object_get_string(v);
}

int64_t
nint(const struct prov_item *it, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(it->norm, key, &v) || !json_object_is_type(v, json_type_int))
		fail_msg("normalized %s: %s is not an integer", it->external_id, key);
	return json_object_get_int64(v);
}

bool
nbool(const struct prov_item *it, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(it->norm, key, &v) || !json_object_is_type(v, json_type_boolean))
		fail_msg("normalized %s: %s is not a boolean", it->external_id, key);
	return json_object_get_boolean(v);
}

bool
nnull(const struct prov_item *it, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(it->norm, key, &v))
		fail_msg("normalized %s lacks key %s", it->external_id, key);
	return v == NULL;
}

/* The id list under key as "a,b,c" (buffer). */
const char *
nids(const struct prov_item *it, const char *key)
{
	static char buf[4096];
	json_object *v;

	buf[0] = '\0';
	if (!json_object_object_get_ex(it->norm, key, &v) || !json_object_is_type(v, json_type_array))
		fail_msg("normalized %s: %s is not an array", it->external_id, key);
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *e = json_object_array_get_idx(v, i);

		assert_true(json_object_is_type(e, json_type_string));
		if (i > 0)
			strcat(buf, ",");
		strcat(buf, json_object_get_string(e));
	}
	return buf;
}

size_t
nids_len(const struct prov_item *it, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(it->norm, key, &v) || !json_object_is_type(v, json_type_array))
		fail_msg("normalized %s: %s is not an array", it->external_id, key);
	return json_object_array_length(v);
}

bool
has_warning(const struct prov_page *p, const char *needle)
{
	for (size_t i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], needle) != NULL)
			return true;
	return false;
}

/* Run parse on a fixture into a fresh page. */
enum prov_status
run_parse(parse_fn fn, const char *cursor, long status, const char *fixture, struct prov_page *page,
    struct prov_error *err)
{
	struct httpc_resp r;
	enum prov_status st;

	memset(page, 0, sizeof *page);
	memset(err, 0, sizeof *err);
	resp_fixture(&r, status, fixture);
	st = fn(cursor, &r, page, err);
	httpc_resp_free(&r);
	return st;
}

/* The same into an existing page (a statuspage fetch fills one page twice). */
enum prov_status
run_parse_more(parse_fn fn, const char *cursor, long status, const char *fixture,
    struct prov_page *page, struct prov_error *err)
{
	struct httpc_resp r;
	enum prov_status st;

	free(page->next_cursor);
	page->next_cursor = NULL;
	memset(err, 0, sizeof *err);
	resp_fixture(&r, status, fixture);
	st = fn(cursor, &r, page, err);
	httpc_resp_free(&r);
	return st;
}

enum prov_status
run_parse_text(parse_fn fn, const char *cursor, long status, const char *text,
    struct prov_page *page, struct prov_error *err)
{
	struct httpc_resp r;
	enum prov_status st;

	memset(page, 0, sizeof *page);
	memset(err, 0, sizeof *err);
	resp_text(&r, status, text);
	st = fn(cursor, &r, page, err);
	httpc_resp_free(&r);
	return st;
}

/* A parse that must fail with st; returns err.message (copy). */
const char *
parse_fails(parse_fn fn, const char *cursor, long status, const char *fixture, enum prov_status st)
{
	static char msg[256];
	struct prov_page p;
	struct prov_error e;
	enum prov_status got = run_parse(fn, cursor, status, fixture, &p, &e);

	if (got != st)
		fail_msg("%s with %s (HTTP %ld): status %d, expected %d (%s)", fixture,
		    cursor ? cursor : "start", status, got, st, e.message);
	assert_int_equal(e.status, st);
	snprintf(msg, sizeof msg, "%s", e.message);
	prov_page_free(&p);
	return msg;
}
