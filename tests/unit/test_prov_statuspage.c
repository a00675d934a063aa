/* Unit tests of the Statuspage adapter (src/providers/statuspage.c): its parse function on
 * recorded-shape fixtures (tests/unit/fixtures/statuspage/) and whole fetches against a
 * local server.
 *
 * Fixture sources (JSON has no comments): every shape is the official OpenAPI of the
 * Statuspage manage API v1, as copied in sbecker59/statuspage-api-client-go
 * api/v1/statuspage/api/openapi.yaml, and providers.md §8.2:
 *   pages.json, page_one.json        schema Page (GET /pages, GET /pages/{page_id})
 *   component_groups.json            schema GroupComponent (GET /pages/{id}/component-groups);
 *                                    `components` once as the array the API sends, once as the
 *                                    JSON text the schema types it as; `position` as a string
 *   components_page0/last.json       schema Component (GET /pages/{id}/components); the
 *                                    `group: true` row is a group's own row
 *   subscribers_page0/last.json      schema Subscriber (GET /pages/{id}/subscribers); its
 *                                    example values (display_phone_number "+1 (202) 555-0105",
 *                                    obfuscated_channel_name "#*******an", workspace "Atlassian")
 *   unauthorized.json                401 "Could not authenticate" (providers.md §8.3)
 *   refused.json                     403 ErrorEntity "You are not authorized to access this
 *                                    resource." (the OpenAPI's 403 of GET /subscribers)
 *   not_found.json, rate_limited.json  404 and 420 ErrorEntity-style bodies
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sodium.h>

#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"
#include "providers/httpc.h"
#include "providers/provider.h"

#include "provtest.h"

#define PID "gytm4qzbx9t6"

/* The i-th entry of a status page: name and section ("" for null);
 * its monitor_id must be null (a component is no monitor). */
static void
entry_is(const struct prov_item *sp, size_t i, const char *name, const char *section)
{
	json_object *items, *e, *v;

	assert_true(json_object_object_get_ex(sp->norm, "items", &items));
	assert_true(i < json_object_array_length(items));
	e = json_object_array_get_idx(items, i);
	assert_true(json_object_object_get_ex(e, "monitor_id", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(e, "name", &v));
	assert_string_equal(json_object_get_string(v), name);
	assert_true(json_object_object_get_ex(e, "section", &v));
	assert_string_equal(v ? json_object_get_string(v) : "", section);
}

/* How many entries of sp are named name. */
static size_t
entries_named(const struct prov_item *sp, const char *name)
{
	json_object *items, *v;
	size_t n = 0;

	assert_true(json_object_object_get_ex(sp->norm, "items", &items));
	for (size_t i = 0; i < json_object_array_length(items); i++)
		if (json_object_object_get_ex(json_object_array_get_idx(items, i), "name", &v) &&
		    strcmp(json_object_get_string(v), name) == 0)
			n++;
	return n;
}

/* One more answer of a fetch into p: fixture, with HTTP status, for cursor at;
 * it must parse, and end with next as the next cursor (NULL: not checked). */
static void
more(struct prov_page *p, struct prov_error *e, const char *at, int status, const char *fixture,
    const char *next)
{
	assert_int_equal(run_parse_more(statuspage_parse, at, status, fixture, p, e), PROV_OK);
	if (next != NULL)
		assert_string_equal(p->next_cursor, next);
}

/* One more answer of a fetch into p: an empty list for cursor at; it must
 * parse and end with next as the next cursor. */
static void
more_empty(struct prov_page *p, struct prov_error *e, const char *at, const char *next)
{
	struct httpc_resp r;

	resp_text(&r, 200, "[]");
	free(p->next_cursor);
	p->next_cursor = NULL;
	assert_int_equal(statuspage_parse(at, &r, p, e), PROV_OK);
	assert_string_equal(p->next_cursor, next);
	httpc_resp_free(&r);
}

/* The page's incidents and scheduled maintenances answered empty (page 0,
 * then page 1 as the numbering may start there): on to its subscribers. */
static void
history_none(struct prov_page *p, struct prov_error *e)
{
	more_empty(p, e, "incidents:0:0:" PID, "incidents:0:1:" PID);
	more_empty(p, e, "incidents:0:1:" PID, "maintenances:0:0:" PID);
	more_empty(p, e, "maintenances:0:0:" PID, "maintenances:0:1:" PID);
	more_empty(p, e, "maintenances:0:1:" PID, "subscribers:0:0:" PID);
}

static void
test_statuspage_pages(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* pages.json: schema Page (openapi.yaml, see the top of the file) */
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "groups:0:0:" PID);
	it = page_find(&p, "status_page", PID);
	assert_string_equal(nstr(it, "name"), "Acme Status");
	/* its own domain; `url` is the company website the page links to */
	EXPECT_NORM(it, X_STR("url", "https://status.acme.example"), X_STR("timezone", "America/New_York"),
	    X_TRUE("public"));
	assert_int_equal(nids_len(it, "items"), 0);
	/* the raw page keeps room for its groups and components as received */
	assert_true(json_object_is_type(prov_get(it->raw, "component_groups"), json_type_array));
	assert_true(json_object_is_type(prov_get(it->raw, "components"), json_type_array));
	prov_page_free(&p);

	assert_int_equal(run_parse(statuspage_parse, "pages:1", 200, "statuspage/pages.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "groups:1:0:k8w2rd0q7n3m");
	it = page_find(&p, "status_page", "k8w2rd0q7n3m");
	EXPECT_NORM(it, X_STR("url", "https://acme-internal.statuspage.io"),
	    X_FALSE("public"), /* viewers must be team members */
	    X_NULL("timezone"));
	assert_true(has_warning(&p, "\"Eastern Time (US & Canada)\", which is not an IANA name"));
	prov_page_free(&p);

	/* No name: its id; a subdomain given as a host; "false" as a string; no time zone. */
	assert_int_equal(run_parse(statuspage_parse, "pages:2", 200, "statuspage/pages.json", &p, &e),
	    PROV_OK);
	it = page_find(&p, "status_page", "m2b91t7vwhzx");
	EXPECT_NORM(it, X_STR("name", "m2b91t7vwhzx"), X_STR("url", "https://legacy.statuspage.io"),
	    X_TRUE("public"), X_NULL("timezone"));
	prov_page_free(&p);

	/* Past the last page: the end. */
	EXPECT_EMPTY_PAGE(statuspage_parse, "pages:3", "statuspage/pages.json", NULL);

	/* GET /v1/pages/<page_id> answers one object (page_one.json: schema Page). */
	assert_int_equal(run_parse(statuspage_parse, "pages:0", 200, "statuspage/page_one.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "groups:0:0:" PID);
	prov_page_free(&p);

	assert_int_equal(run_parse_text(statuspage_parse, NULL, 200, "[]", &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "has no pages"));
	prov_page_free(&p);
}

static void
test_statuspage_components_are_page_entries(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *sp;

	(void)state;
	/* As in one fetch: the page, its groups, then its components into the same page. */
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	/* component_groups.json: schema GroupComponent */
	more(&p, &e, "groups:0:0:" PID, 200, "statuspage/component_groups.json",
	    "components:0:0:" PID); /* 2 < 100: the last */
	/* components_page0.json: schema Component, 100 rows = per_page: another page */
	more(&p, &e, "components:0:0:" PID, 200, "statuspage/components_page0.json", "components:0:1:" PID);
	/* page=1 answers page 0 again (numbering from 1, 0 read as 1): dropped, on to 2 */
	more(&p, &e, "components:0:1:" PID, 200, "statuspage/components_page0.json", "components:0:2:" PID);
	more(&p, &e, "components:0:2:" PID, 200, "statuspage/components_last.json", "incidents:0:0:" PID);
	history_none(&p, &e);

	/* Components are entries of the page, never monitors. */
	assert_int_equal(page_count(&p, "monitor"), 0);
	assert_int_equal(p.n, 1);
	sp = page_find(&p, "status_page", PID);
	assert_int_equal(nids_len(sp, "items"), 101); /* 99 + 2; the group row is no entry */
	assert_int_equal(strncmp(nids(sp, "items"), "-,-,-", 5), 0);
	entry_is(sp, 0, "API", "Backend services");      /* group_id -> the group list */
	entry_is(sp, 1, "Database", "Backend services"); /* "false" and "3" as strings */
	entry_is(sp, 2, "Webhooks", "Edge");             /* listed by a group (JSON text) */
	entry_is(sp, 3, "c00000000005", "");             /* no name: its id; no group */
	entry_is(sp, 4, "Billing", "");                  /* a group nobody lists */
	assert_true(has_warning(&p, "1 component(s) name a group it did not list"));
	entry_is(sp, 5, "Service 7", "Backend services");
	entry_is(sp, 6, "Service 8", "");
	entry_is(sp, 99, "CDN", "Edge");
	entry_is(sp, 100, "Search", "");
	assert_int_equal(entries_named(sp, "API"), 1); /* the repeated page added nothing */
	assert_int_equal(json_object_array_length(prov_get(sp->raw, "components")), 102);
	assert_int_equal(json_object_array_length(prov_get(sp->raw, "component_groups")), 2);
	prov_page_free(&p);
}

/* A group row of the component list names its members' section when the
 * group list is refused. */
static void
test_statuspage_sections_from_group_rows(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *sp;

	(void)state;
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	more(&p, &e, "groups:0:0:" PID, 403, "statuspage/refused.json", NULL);
	assert_true(has_warning(&p,
	    "Statuspage refused the component groups list for this key "
	    "(HTTP 403): component groups skipped"));
	assert_string_equal(p.next_cursor, "components:0:0:" PID);
	more(&p, &e, "components:0:0:" PID, 200, "statuspage/components_page0.json", NULL);
	more(&p, &e, "components:0:1:" PID, 200, "statuspage/components_last.json", "incidents:0:0:" PID);
	history_none(&p, &e);
	sp = page_find(&p, "status_page", PID);
	entry_is(sp, 0, "API", "Backend"); /* the `group: true` row's name */
	entry_is(sp, 2, "Webhooks", "");   /* only the group list knew it */
	entry_is(sp, 99, "CDN", "");
	assert_true(has_warning(&p, "2 component(s) name a group it did not list"));
	prov_page_free(&p);
}

/* The base of `page` for components and groups is not documented: every
 * reading keeps the first page. Numbering from 0: page 0, then page 1 holds
 * new entries. */
static void
test_statuspage_components_numbered_from_0(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *sp;

	(void)state;
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	more(&p, &e, "components:0:0:" PID, 200, "statuspage/components_page0.json", NULL);
	more(&p, &e, "components:0:1:" PID, 200, "statuspage/components_last.json", "incidents:0:0:" PID);
	history_none(&p, &e);
	sp = page_find(&p, "status_page", PID);
	assert_int_equal(nids_len(sp, "items"), 101);
	entry_is(sp, 0, "API", "Backend");
	prov_page_free(&p);
}

/* Numbering from 1, page 0 answered empty: page 1 is the first page. */
static void
test_statuspage_components_numbered_from_1(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *sp;

	(void)state;
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	more_empty(&p, &e, "components:0:0:" PID, "components:0:1:" PID);
	more(&p, &e, "components:0:1:" PID, 200, "statuspage/components_page0.json", "components:0:2:" PID);
	more(&p, &e, "components:0:2:" PID, 200, "statuspage/components_last.json", "incidents:0:0:" PID);
	history_none(&p, &e);
	sp = page_find(&p, "status_page", PID);
	assert_int_equal(nids_len(sp, "items"), 101);
	entry_is(sp, 0, "API", "Backend");
	prov_page_free(&p);
}

/* A later page that only repeats (a server ignoring `page`): the list ends. */
static void
test_statuspage_components_repeated_page_ends_the_list(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	more(&p, &e, "components:0:0:" PID, 200, "statuspage/components_page0.json", NULL);
	more(&p, &e, "components:0:1:" PID, 200, "statuspage/components_page0.json", NULL);
	more(&p, &e, "components:0:2:" PID, 200, "statuspage/components_page0.json", "incidents:0:0:" PID);
	history_none(&p, &e);
	assert_true(has_warning(&p, "page 2 of its components repeated earlier entries"));
	assert_int_equal(nids_len(page_find(&p, "status_page", PID), "items"), 99);
	prov_page_free(&p);
}

/* Empty lists: groups page 0 and page 1 empty, components page 1 empty, no
 * entries. */
static void
test_statuspage_components_empty(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	more_empty(&p, &e, "groups:0:0:" PID, "groups:0:1:" PID);
	more_empty(&p, &e, "groups:0:1:" PID, "components:0:0:" PID);
	more_empty(&p, &e, "components:0:1:" PID, "incidents:0:0:" PID);
	history_none(&p, &e);
	assert_int_equal(nids_len(page_find(&p, "status_page", PID), "items"), 0);
	prov_page_free(&p);
}

static void
test_statuspage_subscribers(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	/* subscribers_page0.json: schema Subscriber, 100 = limit: another page (from 0) */
	assert_int_equal(run_parse(statuspage_parse, "subscribers:0:0:" PID, 200,
	                     "statuspage/subscribers_page0.json", &p, &e),
	    PROV_OK);
	assert_int_equal(page_count(&p, "status_page_subscriber"), 100);
	assert_string_equal(p.next_cursor, "subscribers:0:1:" PID);
	prov_page_free(&p);

	assert_int_equal(run_parse(statuspage_parse, "subscribers:0:1:" PID, 200,
	                     "statuspage/subscribers_last.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 8);
	assert_int_equal(page_count(&p, "contact"), 0);             /* never contacts */
	assert_string_equal(p.next_cursor, "unconfirmed:0:0:" PID); /* then the unconfirmed ones */
	it = page_find(&p, "status_page_subscriber", "s00000000100");
	assert_string_equal(nstr(it, "status_page_id"), PID);
	EXPECT_NORM(it, X_STR("kind", "email"), X_STR("address", "ann@example.com"), X_STR("state", "active"),
	    X_STR("created", "2024-01-23"), X_IDS("components", "c00000000002,c00000000101"));
	it = page_find(&p, "status_page_subscriber", "s00000000101");
	EXPECT_NORM(it, X_STR("kind", "sms"), X_STR("address", "+1 (202) 555-0105"),
	    X_IDS("components", "c00000000003")); /* JSON text, as the schema types it */
	it = page_find(&p, "status_page_subscriber", "s00000000102");
	assert_string_equal(nstr(it, "address"), "DE 030 1234567"); /* no display form */
	it = page_find(&p, "status_page_subscriber", "s00000000103");
	assert_string_equal(nstr(it, "kind"), "webhook");
	assert_string_equal(nstr(it, "address"), "https://hooks.example.com/sp/1");
	it = page_find(&p, "status_page_subscriber", "s00000000104");
	EXPECT_NORM(it, X_STR("kind", "slack"), X_STR("address", "Atlassian/#*******an"),
	    X_IDS("components", "")); /* [] = every component */
	it = page_find(&p, "status_page_subscriber", "s00000000105");
	assert_string_equal(nstr(it, "kind"), "other");
	assert_true(nnull(it, "address"));
	assert_true(has_warning(&p,
	    "s00000000105 is an integration partner subscription, which has no "
	    "equivalent"));
	it = page_find(&p, "status_page_subscriber", "s00000000106");
	assert_string_equal(nstr(it, "kind"), "other");
	assert_string_equal(nstr(it, "address"), "pigeon@example.com");
	assert_true(has_warning(&p, "s00000000106 has an unknown mode carrier_pigeon; kept as other"));
	it = page_find(&p, "status_page_subscriber", "s00000000107");
	EXPECT_NORM(it, X_STR("state", "quarantined"), /* quarantined_at set */
	    X_NULL("created"), X_IDS("components", ""));
	assert_true(has_warning(&p, "1 of its subscribers had no usable id; skipped"));
	prov_page_free(&p);
}

/* The same shapes in the other state lists. */
static void
test_statuspage_subscriber_state_lists(void **state)
{
	struct prov_page p;
	struct prov_error e;

	(void)state;
	assert_int_equal(run_parse(statuspage_parse, "unconfirmed:0:0:" PID, 200,
	                     "statuspage/subscribers_last.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "quarantined:0:0:" PID);
	assert_string_equal(nstr(page_find(&p, "status_page_subscriber", "s00000000100"), "state"),
	    "unconfirmed");
	prov_page_free(&p);
	assert_int_equal(run_parse_text(statuspage_parse, "quarantined:3:0:" PID, 200, "[]", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "pages:4"); /* on to the next page */
	prov_page_free(&p);

	/* created_at by the one parser: the UTC date of an RFC 3339 time, and
	 * nothing for text that only starts like a date */
	assert_int_equal(run_parse_text(statuspage_parse, "quarantined:0:0:" PID, 200,
	                     "[{\"id\":\"a1\",\"mode\":\"email\",\"email\":\"a@example.com\","
	                     "\"created_at\":\"2024-01-23T01:00:00+02:00\"},"
	                     "{\"id\":\"a2\",\"mode\":\"email\",\"email\":\"b@example.com\","
	                     "\"created_at\":\"2024-99-99 and more\"}]",
	                     &p, &e),
	    PROV_OK);
	assert_string_equal(nstr(page_find(&p, "status_page_subscriber", "a1"), "created"), "2024-01-22");
	assert_true(nnull(page_find(&p, "status_page_subscriber", "a2"), "created"));
	prov_page_free(&p);
}

static void
test_statuspage_refused_kinds(void **state)
{
	static const struct {
		const char *cursor;
		long status;
		const char *kind, *next;
	} cases[] = {
		{ "groups:0:0:" PID, 404, "component groups", "components:0:0:" PID },
		{ "subscribers:0:0:" PID, 403, "subscribers", "pages:1" },
		{ "subscribers:0:2:" PID, 400, "subscribers", "pages:1" },
		{ "subscribers:0:0:" PID, 401, "subscribers", "pages:1" },
		{ "unconfirmed:0:0:" PID, 403, "unconfirmed subscribers", "quarantined:0:0:" PID },
		{ "quarantined:0:0:" PID, 422, "quarantined subscribers", "pages:1" },
	};
	struct prov_page p;
	struct prov_error e;
	char want[160];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e),
		    PROV_OK);
		assert_int_equal(run_parse_more(statuspage_parse, cases[i].cursor, cases[i].status,
		                     "statuspage/refused.json", &p, &e),
		    PROV_OK);
		snprintf(want, sizeof want,
		    "Statuspage refused the %s list for this key (HTTP %ld): %s "
		    "skipped",
		    cases[i].kind, cases[i].status, cases[i].kind);
		if (!has_warning(&p, want))
			fail_msg("case %zu: no warning \"%s\"", i, want);
		assert_string_equal(p.next_cursor, cases[i].next);
		prov_page_free(&p);
	}

	/* Components refused: the page keeps no entries and goes on. */
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	more(&p, &e, "components:0:0:" PID, 403, "statuspage/refused.json", NULL);
	assert_true(has_warning(&p, "refused the components list for this key (HTTP 403)"));
	assert_string_equal(p.next_cursor, "incidents:0:0:" PID);
	history_none(&p, &e);
	assert_int_equal(nids_len(page_find(&p, "status_page", PID), "items"), 0);
	prov_page_free(&p);

	/* Not refusals: a missing component list, a rate limit, a server error. */
	parse_fails(statuspage_parse, "components:0:0:" PID, 404, "statuspage/not_found.json", PROV_FATAL);
	parse_fails(statuspage_parse, "subscribers:0:0:" PID, 429, "statuspage/rate_limited.json",
	    PROV_RATE_LIMITED);
	parse_fails(statuspage_parse, "groups:0:0:" PID, 503, "statuspage/rate_limited.json", PROV_TRANSIENT);
}

/* The text of member key of the i-th history entry of sp as compact JSON. */
static const char *
history_at(const struct prov_item *sp, size_t i, const char *key)
{
	json_object *list = prov_get_array(sp->norm, "incidents"), *v = NULL;

	assert_non_null(list);
	assert_true(i < json_object_array_length(list));
	json_object_object_get_ex(json_object_array_get_idx(list, i), key, &v);
	return v != NULL ?
	    json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE) :
	    "null";
}

/* Incidents and scheduled maintenances (incidents.json, scheduled.json: schemas Incident and
 * IncidentUpdate) become the page's history, newest first, one listed in both once; their
 * components name the page's entries by index; entries carry their component's id. */
static void
test_statuspage_history(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *sp;
	json_object *list;
	const char *body;

	(void)state;
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	more(&p, &e, "components:0:0:" PID, 200, "statuspage/components_page0.json", "components:0:1:" PID);
	more(&p, &e, "components:0:1:" PID, 200, "statuspage/components_last.json", "incidents:0:0:" PID);
	more(&p, &e, "incidents:0:0:" PID, 200, "statuspage/incidents.json", "maintenances:0:0:" PID);
	assert_true(has_warning(&p, "1 of its incidents had no usable id; skipped"));
	more(&p, &e, "maintenances:0:0:" PID, 200, "statuspage/scheduled.json", "subscribers:0:0:" PID);
	sp = page_find(&p, "status_page", PID);
	assert_string_equal(history_at(sp, 0, "name"), "\"Network upgrade\"");
	assert_string_equal(history_at(sp, 0, "kind"), "\"maintenance\"");
	assert_string_equal(history_at(sp, 0, "status"), "\"scheduled\"");
	assert_string_equal(history_at(sp, 0, "starts_at"), "\"2024-03-01T01:00:00Z\"");
	assert_string_equal(history_at(sp, 0, "scheduled_until"), "\"2024-03-01T03:00:00Z\"");
	assert_string_equal(history_at(sp, 0, "components"), "[100]");
	/* started_at before created_at; impact_override over impact; updates oldest first */
	assert_string_equal(history_at(sp, 1, "name"), "\"Database latency\"");
	assert_string_equal(history_at(sp, 1, "kind"), "\"incident\"");
	assert_string_equal(history_at(sp, 1, "status"), "\"resolved\"");
	assert_string_equal(history_at(sp, 1, "impact"), "\"major\"");
	assert_string_equal(history_at(sp, 1, "starts_at"), "\"2024-02-10T08:55:00Z\"");
	assert_string_equal(history_at(sp, 1, "ends_at"), "\"2024-02-10T10:30:00Z\"");
	assert_string_equal(history_at(sp, 1, "scheduled_until"), "null");
	assert_string_equal(history_at(sp, 1, "updates"),
	    "[{\"at\":\"2024-02-10T09:00:00Z\",\"status\":\"investigating\",\"body\":\"Looking into it.\\nMore soon.\"},"
	    "{\"at\":\"2024-02-10T10:30:00Z\",\"status\":\"resolved\",\"body\":\"Fixed — “all” good ✓\"}]");
	/* c00000000003 is entry 1; the retired component is left out, with a warning */
	assert_string_equal(history_at(sp, 1, "components"), "[1]");
	assert_true(has_warning(&p, "incident i00000000001 names 1 component(s) page " PID " does not list"));
	/* listed by both calls: once, a maintenance by its schedule */
	assert_string_equal(history_at(sp, 2, "name"), "\"Disk swap\"");
	assert_string_equal(history_at(sp, 2, "kind"), "\"maintenance\"");
	assert_string_equal(history_at(sp, 2, "status"), "\"completed\"");
	assert_string_equal(history_at(sp, 2, "starts_at"), "\"2024-02-01T01:00:00Z\"");
	assert_string_equal(history_at(sp, 2, "ends_at"), "\"2024-02-01T02:45:00Z\"");
	assert_string_equal(history_at(sp, 2, "components"), "[99]");
	/* no name, an unknown status, a body cut to 4000 characters on a character boundary */
	assert_string_equal(history_at(sp, 3, "name"), "\"(untitled)\"");
	assert_string_equal(history_at(sp, 3, "status"), "\"other\"");
	assert_string_equal(history_at(sp, 3, "impact"), "null");
	assert_true(has_warning(&p, "incident i00000000003 has an unknown status postponed; kept as other"));
	list = prov_get_array(sp->norm, "incidents");
	assert_int_equal(json_object_array_length(list), 4);
	list = prov_get_array(json_object_array_get_idx(list, 3), "updates");
	body = prov_get_str(json_object_array_get_idx(list, 0), "body", 100000);
	assert_non_null(body);
	assert_int_equal(strlen(body), 8000); /* 4000 two-byte characters of 4001 */
	/* each entry names its component for subscribers */
	assert_string_equal(prov_get_str(json_object_array_get_idx(prov_get_array(sp->norm, "items"), 1),
	                        "ref", 64),
	    "c00000000003");
	/* the raw page holds both lists as received, for the ledger */
	assert_int_equal(json_object_array_length(prov_get(sp->raw, "incidents")), 3);
	assert_int_equal(json_object_array_length(prov_get(sp->raw, "maintenances")), 2);
	prov_page_free(&p);
}

/* A history list that cannot be read leaves the page's history unread (the
 * account keeps its own): a server error, a refusal, an answer that is no
 * list; a rate limit stops the fetch as anywhere. */
static void
test_statuspage_history_unread(void **state)
{
	static const struct {
		const char *cursor;
		int status;
		const char *body, *why, *next;
	} cases[] = {
		{ "incidents:0:0:" PID, 500, "{\"message\":\"Internal Server Error\"}",
		    "its incidents could not be read (HTTP 500)", "maintenances:0:0:" PID },
		{ "incidents:0:1:" PID, 403, "{\"message\":\"You are not authorized\"}",
		    "its incidents could not be read (HTTP 403)", "maintenances:0:0:" PID },
		{ "maintenances:0:0:" PID, 200, "{\"message\":\"no list\"}",
		    "its scheduled maintenances could not be read (the answer was no list)",
		    "subscribers:0:0:" PID },
		{ "maintenances:0:0:" PID, 200,
		    "[{\"id\":", "its scheduled maintenances could not be read (the answer was no list)",
		    "subscribers:0:0:" PID },
	};
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	json_object *u;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e),
		    PROV_OK);
		resp_text(&r, cases[i].status, cases[i].body);
		free(p.next_cursor);
		p.next_cursor = NULL;
		assert_int_equal(statuspage_parse(cases[i].cursor, &r, &p, &e), PROV_OK);
		httpc_resp_free(&r);
		assert_string_equal(p.next_cursor, cases[i].next);
		assert_true(json_object_object_get_ex(page_find(&p, "status_page", PID)->norm, "unread", &u));
		assert_string_equal(prov_get_str(u, "why", 200), cases[i].why);
		assert_string_equal(json_object_to_json_string_ext(prov_get(u, "keys"),
		                        JSON_C_TO_STRING_PLAIN),
		    "[\"incidents\"]");
		assert_true(has_warning(&p, "its incident history was not imported"));
		prov_page_free(&p);
	}
	parse_fails(statuspage_parse, "incidents:0:0:" PID, 429, "statuspage/rate_limited.json",
	    PROV_RATE_LIMITED);
}

static void
test_statuspage_errors(void **state)

{
	static const char *const bad_cursors[] = {
		"pages",
		"pages:-1",
		"pages:1:2",
		"components:0:-1:" PID,
		"components:0:1:",
		"components:0:1:../../v1/x",
		"components:0:1",
		"subscribers:0:0:a:b",
		"incidents:0",
		"subscribers:0:0:https://evil.example/x",
		"subscribers:0:x:" PID,
		"groups:0:0",
	};
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	const char *msg;

	(void)state;
	/* The first call refused: a bad key, fatal for the run. */
	msg = parse_fails(statuspage_parse, NULL, 401, "statuspage/unauthorized.json", PROV_AUTH);
	assert_string_equal(msg, "Statuspage rejected the API key (Could not authenticate)");
	parse_fails(statuspage_parse, NULL, 403, "statuspage/refused.json", PROV_AUTH);
	msg = parse_fails(statuspage_parse, NULL, 404, "statuspage/not_found.json", PROV_FATAL);
	assert_non_null(strstr(msg, "check the page_id credential"));
	parse_fails(statuspage_parse, "subscribers:0:1:" PID, 200, "statuspage/truncated.json",
	    PROV_TRANSIENT);
	parse_fails(statuspage_parse, "subscribers:0:1:" PID, 200, "statuspage/page_one.json",
	    PROV_TRANSIENT);
	/* Components without their page in the fetch. */
	parse_fails(statuspage_parse, "components:0:0:" PID, 200, "statuspage/components_last.json",
	    PROV_FATAL);
	for (size_t i = 0; i < sizeof bad_cursors / sizeof bad_cursors[0]; i++) {
		if (run_parse(statuspage_parse, bad_cursors[i], 200, "statuspage/pages.json", &p, &e) !=
		    PROV_FATAL)
			fail_msg("cursor %s accepted", bad_cursors[i]);
		prov_page_free(&p);
	}

	/* HTTP 420 "Enhance Your Calm" is Statuspage's rate limit. */
	resp_fixture(&r, 420, "statuspage/rate_limited.json");
	httpc_resp_set_header(&r, "Retry-After", "7");
	memset(&p, 0, sizeof p);
	assert_int_equal(statuspage_parse("subscribers:0:3:" PID, &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 7);
	httpc_resp_free(&r);
	prov_page_free(&p);
	parse_fails(statuspage_parse, NULL, 420, "statuspage/rate_limited.json", PROV_RATE_LIMITED);
	parse_fails(statuspage_parse, NULL, 429, "statuspage/rate_limited.json", PROV_RATE_LIMITED);
}

/* ------------------------------------------------------------ whole fetches */

static void
test_fetch_statuspage_page_with_its_entries(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	/* the page, its groups, then components page=0, page=1 (page 0 again), page=2 */
	char *a[10] = { answer_fixture("200 OK", "statuspage/pages.json"),
		answer_fixture("200 OK", "statuspage/component_groups.json"),
		answer_fixture("200 OK", "statuspage/components_page0.json"),
		answer_fixture("200 OK", "statuspage/components_page0.json"),
		answer_fixture("200 OK", "statuspage/components_last.json"),
		answer_fixture("200 OK", "statuspage/incidents.json"),
		answer_fixture("200 OK", "statuspage/scheduled.json"), NULL, NULL, NULL };
	const char *seen;
	const struct prov_item *sp;
	json_object *creds = json_tokener_parse("{\"api_key\":\"sp-key-abcdef\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("statuspage", "/sp", &s, &cfg, &m, base, sizeof base, creds);
	assert_int_equal(s.def->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /sp/v1/pages HTTP/1.1\r\n"));
	assert_non_null(
	    strstr(seen, "GET /sp/v1/pages/" PID "/component-groups?page=0&per_page=100 HTTP/1.1"));
	assert_non_null(strstr(seen, "GET /sp/v1/pages/" PID "/components?page=0&per_page=100 HTTP/1.1"));
	assert_non_null(strstr(seen, "GET /sp/v1/pages/" PID "/components?page=1&per_page=100 HTTP/1.1"));
	assert_non_null(strstr(seen, "GET /sp/v1/pages/" PID "/components?page=2&per_page=100 HTTP/1.1"));
	assert_non_null(strstr(seen, "Authorization: OAuth sp-key-abcdef\r\n"));
	assert_null(strstr(seen, "api_key="));
	/* One stored page: the status page with all its entries, the first page kept once. */
	assert_int_equal(p.n, 1);
	sp = page_find(&p, "status_page", PID);
	assert_int_equal(nids_len(sp, "items"), 101);
	entry_is(sp, 0, "API", "Backend services");
	assert_int_equal(entries_named(sp, "API"), 1);
	entry_is(sp, 100, "Search", "");
	/* then its history: incidents (limit) and scheduled maintenances (per_page), each from page 0 */
	assert_non_null(strstr(seen, "GET /sp/v1/pages/" PID "/incidents?page=0&limit=100 HTTP/1.1"));
	assert_non_null(
	    strstr(seen, "GET /sp/v1/pages/" PID "/incidents/scheduled?page=0&per_page=100 HTTP/1.1"));
	/* short lists: no page 1 of either */
	assert_null(strstr(seen, "incidents?page=1"));
	assert_int_equal(json_object_array_length(prov_get(sp->norm, "incidents")), 4);
	assert_string_equal(p.next_cursor, "subscribers:0:0:" PID);
	prov_page_free(&p);
	for (int i = 0; i < 7; i++)
		free(a[i]);
	json_object_put(creds);
}

static void
test_fetch_statuspage_refused_kind_and_page_id(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[9] = { answer_fixture("200 OK", "statuspage/page_one.json"),
		answer_fixture("403 Forbidden", "statuspage/refused.json"),
		answer_fixture("200 OK", "statuspage/components_last.json"), answer("200 OK", NULL, "[]"),
		answer("200 OK", NULL, "[]"), answer("200 OK", NULL, "[]"), answer("200 OK", NULL, "[]"),
		answer_fixture("403 Forbidden", "statuspage/refused.json"), NULL };
	const char *seen;
	const struct prov_item *sp;
	json_object *creds = json_tokener_parse("{\"api_key\":\"sp-key-abcdef\",\"page_id\":\"" PID "\"}");
	json_object *bad = json_tokener_parse("{\"api_key\":\"sp-key-abcdef\",\"page_id\":\"../../x\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("statuspage", "/sp", &s, &cfg, &m, base, sizeof base, creds);
	/* The page; its groups refused (warning), its components read all the same. */
	assert_int_equal(s.def->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	assert_true(has_warning(&p, "refused the component groups list for this key (HTTP 403)"));
	sp = page_find(&p, "status_page", PID);
	entry_is(sp, 0, "CDN", "");
	entry_is(sp, 1, "Search", "");
	assert_string_equal(p.next_cursor, "subscribers:0:0:" PID);
	prov_page_free(&p);
	/* Subscribers refused (a plan without them): the run goes on with the next page. */
	assert_int_equal(s.def->ops->fetch(&s, "subscribers:0:0:" PID, &p, &e), PROV_OK);
	assert_true(has_warning(&p,
	    "Statuspage refused the subscribers list for this key (HTTP 403): "
	    "subscribers skipped"));
	assert_string_equal(p.next_cursor, "pages:1");
	prov_page_free(&p);
	/* With page_id, the page after it is the end: no request needed. */
	assert_int_equal(s.def->ops->fetch(&s, "pages:1", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /sp/v1/pages/" PID " HTTP/1.1\r\n"));
	assert_non_null(
	    strstr(seen, "GET /sp/v1/pages/" PID "/subscribers?state=active&page=0&limit=100 HTTP/1.1"));
	assert_null(strstr(seen, "GET /sp/v1/pages HTTP"));
	assert_null(strstr(seen, "sp-key-abcdef&"));

	/* A page_id that is not an id never reaches a URL. */
	assert_int_equal(prov_session_init(&s, s.def, &cfg, bad, &e), 0);
	assert_int_equal(s.def->ops->fetch(&s, NULL, &p, &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "page_id must be a page id"));
	prov_page_free(&p);
	for (int i = 0; i < 8; i++)
		free(a[i]);
	json_object_put(creds);
	json_object_put(bad);
}

static void
test_fetch_statuspage_bad_key_rate_limit_and_restart(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[13] = { answer_fixture("401 Unauthorized", "statuspage/unauthorized.json"),
		answer_fixture("200 OK", "statuspage/pages.json"),
		answer("420 Enhance Your Calm", "Retry-After: 3\r\n", "{\"error\":\"Rate limit exceeded\"}"),
		answer_fixture("200 OK", "statuspage/pages.json"), answer("200 OK", NULL, "[]"),
		answer("200 OK", NULL, "[]"), answer("200 OK", NULL, "[]"), answer("200 OK", NULL, "[]"),
		answer("200 OK", NULL, "[]"), answer("200 OK", NULL, "[]"), answer("200 OK", NULL, "[]"),
		answer("200 OK", NULL, "[]"), NULL };
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"sp-key-abcdef\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	session_on("statuspage", "/sp", &s, &cfg, &m, base, sizeof base, creds);
	/* The first call refused: a bad key; the message never holds it. */
	assert_int_equal(s.def->ops->fetch(&s, NULL, &p, &e), PROV_AUTH);
	assert_string_equal(e.message, "Statuspage rejected the API key (Could not authenticate)");
	prov_page_free(&p);
	/* A rate limit inside the page's fetch: nothing of the step is kept. */
	assert_int_equal(s.def->ops->fetch(&s, NULL, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 3);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	s.pace.next_ms = 0; /* its wait over */
	s.pace.limited = false;
	/* A checkpoint inside a page's fetch (an older build's) starts the page again;
	 * both lists empty: the page has no entries. */
	assert_int_equal(s.def->ops->fetch(&s, "components:1:3:k8w2rd0q7n3m", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_int_equal(nids_len(page_find(&p, "status_page", "k8w2rd0q7n3m"), "items"), 0);
	assert_string_equal(p.next_cursor, "subscribers:1:0:k8w2rd0q7n3m");
	prov_page_free(&p);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "/k8w2rd0q7n3m/component-groups?page=0&per_page=100 HTTP"));
	/* page 0 empty: the numbering may start at 1, so page 1 is asked too */
	assert_non_null(strstr(seen, "/k8w2rd0q7n3m/component-groups?page=1&per_page=100 HTTP"));
	assert_non_null(strstr(seen, "/k8w2rd0q7n3m/components?page=0&per_page=100 HTTP"));
	assert_non_null(strstr(seen, "/k8w2rd0q7n3m/components?page=1&per_page=100 HTTP"));
	assert_null(strstr(seen, "/k8w2rd0q7n3m/components?page=2&"));
	for (int i = 0; i < 12; i++)
		free(a[i]);
	json_object_put(creds);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statuspage_pages),
		cmocka_unit_test(test_statuspage_components_are_page_entries),
		cmocka_unit_test(test_statuspage_sections_from_group_rows),
		cmocka_unit_test(test_statuspage_components_numbered_from_0),
		cmocka_unit_test(test_statuspage_components_numbered_from_1),
		cmocka_unit_test(test_statuspage_components_repeated_page_ends_the_list),
		cmocka_unit_test(test_statuspage_components_empty),
		cmocka_unit_test(test_statuspage_subscribers),
		cmocka_unit_test(test_statuspage_subscriber_state_lists),
		cmocka_unit_test(test_statuspage_refused_kinds),
		cmocka_unit_test(test_statuspage_history),
		cmocka_unit_test(test_statuspage_history_unread),
		cmocka_unit_test(test_statuspage_errors),
		cmocka_unit_test(test_fetch_statuspage_page_with_its_entries),
		cmocka_unit_test(test_fetch_statuspage_refused_kind_and_page_id),
		cmocka_unit_test(test_fetch_statuspage_bad_key_rate_limit_and_restart),
	};

	return PROVTEST_RUN(tests);
}
