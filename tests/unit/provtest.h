/* Helpers shared by the provider unit tests (provtest.c). */
#ifndef MIGRATOR_PROVTEST_H
#define MIGRATOR_PROVTEST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "providers/common.h"
#include "providers/httpc.h"
#include "providers/provider.h"

typedef prov_parse_fn parse_fn;

/* The fixture tests/unit/fixtures/<rel> (malloc'd, NUL-terminated); *len may be NULL. */
char *fixture_text(const char *rel, size_t *len);
/* A response with this status and body. */
void resp_text(struct httpc_resp *r, long status, const char *text);
void resp_fixture(struct httpc_resp *r, long status, const char *rel);
/* The item of this type and external id (fails the test when absent). */
const struct prov_item *page_find(const struct prov_page *p, const char *type, const char *id);
size_t page_count(const struct prov_page *p, const char *type);
/* Normalized fields; each fails the test when the key is missing or of another type. */
const char *nstr(const struct prov_item *it, const char *key);
int64_t nint(const struct prov_item *it, const char *key);
bool nbool(const struct prov_item *it, const char *key);
bool nnull(const struct prov_item *it, const char *key);
/* The id list under key as "a,b,c" (static buffer), and its length. */
const char *nids(const struct prov_item *it, const char *key);
size_t nids_len(const struct prov_item *it, const char *key);
bool has_warning(const struct prov_page *p, const char *needle);
/* Run parse on a fixture (or text) into a fresh page; run_parse_more adds to page. */
enum prov_status run_parse(parse_fn fn, const char *cursor, long status, const char *fixture,
    struct prov_page *page, struct prov_error *err);
enum prov_status run_parse_more(parse_fn fn, const char *cursor, long status, const char *fixture,
    struct prov_page *page, struct prov_error *err);
enum prov_status run_parse_text(parse_fn fn, const char *cursor, long status, const char *text,
    struct prov_page *page, struct prov_error *err);
/* A parse that must fail with st; returns err.message (static copy). */
const char *parse_fails(parse_fn fn, const char *cursor, long status, const char *fixture,
    enum prov_status st);

#endif
