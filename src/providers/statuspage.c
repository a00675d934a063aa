/* Atlassian Statuspage, manage API v1 (providers.md §8, §12; docs/providers/statuspage.md).
 *
 * GET with "Authorization: OAuth <api_key>". The answers are bare JSON
 * arrays without paging metadata. Checkpoints:
 *
 *   "pages:<i>"                  GET /v1/pages (or /v1/pages/<page_id> when the
 *                                credentials name one page): the i-th page becomes a
 *                                status_page whose entries are its components (no
 *                                monitors: a component is set by hand), read in the
 *                                same fetch: "groups:<i>:<n>:<id>", then
 *                                "components:<i>:<n>:<id>", its history
 *                                "incidents:<i>:<n>:<id>" (GET .../incidents, page=n,
 *                                limit=100) and "maintenances:<i>:<n>:<id>" (GET
 *                                .../incidents/scheduled, page=n, per_page=100), never
 *                                stored: a checkpoint holding one starts its page again;
 *   "subscribers:<i>:<n>:<id>"   its active subscribers (page=n from 0, limit=100),
 *   "unconfirmed:<i>:<n>:<id>"   then the unconfirmed and
 *   "quarantined:<i>:<n>:<id>"   the quarantined ones, as status_page_subscriber
 *                                items (never contacts); then "pages:<i+1>".
 *
 * A list ends when an answer holds fewer entries than asked for. The base of
 * `page` for these four lists is not documented: they start at page 0;
 * an empty page 0 goes on with page 1 (numbering from 1, 0 refused), and a
 * page 1 that repeats page 0 is dropped (numbering from 1, 0 read as 1).
 * The raw object of a status page carries the groups, components,
 * incidents and scheduled maintenances as received ("component_groups",
 * "components", "incidents", "maintenances"; at most PROV_SP_MAX_INCIDENTS
 * of each history list, which come newest first); its entries and history
 * are built from them after the last of these pages: each component an entry,
 * each incident or maintenance (one listed in both once) a history entry
 * naming its components by their entries. A 4xx on component groups or
 * subscribers, and 401/403 on components, skips that kind with a warning; a
 * history list that cannot be read (any answer but a list, a rate limit
 * aside) leaves the page's history unread (prov_unread): a re-import keeps
 * the account's.
 * Cursors hold the page id (checked: letters and digits only), never a URL.
 * HTTP 420 and 429 are rate limits (1 request per second per key). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/jsonx.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"

#define SP               "Statuspage"
#define SP_PER_PAGE      100 /* per_page and limit: the documented maximum */
#define SP_STEP_REQUESTS 60  /* group and component requests in the fetch of one page */
#define SP_MAX_ID        64
#define RAW_GROUPS       "component_groups"
#define RAW_COMPONENTS   "components"
#define RAW_INCIDENTS    "incidents"
#define RAW_MAINTENANCES "maintenances"

enum {
	PH_PAGES,
	PH_GROUPS,
	PH_COMPONENTS,
	PH_INCIDENTS,
	PH_MAINTENANCES,
	PH_ACTIVE,
	PH_UNCONFIRMED,
	PH_QUARANTINED
};
/* clang-format off */
static const char *const phases[] = {
	"pages", "groups", "components", "incidents", "maintenances", "subscribers", "unconfirmed",
	"quarantined", NULL
};
/* clang-format on */
/* The `state` each subscriber phase asks for. */
static const char *const states[] = { NULL, NULL, NULL, NULL, NULL, "active", "unconfirmed", "quarantined" };
/* The kind a refused list skips. */
/* clang-format off */
static const char *const kinds[] = {
	"pages", "component groups", "components", "incidents", "scheduled maintenances", "subscribers",
	"unconfirmed subscribers", "quarantined subscribers"
};
/* The raw list each list phase of a page merges into. */
static const char *const raw_lists[] = {
	NULL, RAW_GROUPS, RAW_COMPONENTS, RAW_INCIDENTS, RAW_MAINTENANCES
};
/* clang-format on */
/* A status page's history, for prov_unread. */
static const char *const sp_history_keys[] = { "incidents", NULL };

struct sp_cursor {
	int ph;
	int64_t idx; /* index of the page in the /v1/pages list */
	int64_t n;   /* value of the `page` parameter */
	char pid[SP_MAX_ID + 1];
};

/* Subscriber modes. norm NULL: known, no equivalent. */
static const struct {
	const char *sp, *norm, *label;
	/* clang-format off */
} modes[] = {
	{ "email", "email", "e-mail" }, { "sms", "sms", "SMS" }, { "webhook", "webhook", "webhook" },
	{ "slack", "slack", "Slack" }, { "teams", "teams", "Microsoft Teams" },
	{ "msteams", "teams", "Microsoft Teams" },
	{ "integration_partner", NULL, "integration partner" }, { NULL, NULL, NULL }
};
/* clang-format on */

/* True when s is a Statuspage object id: 1 to 64 letters and digits. */
static bool
valid_page_id(const char *s)
{
	size_t n = 0;

	if (s == NULL)
		return false;
	for (; s[n] != '\0'; n++)
		if (!isalnum((unsigned char)s[n]) || n >= SP_MAX_ID)
			return false;
	return n > 0;
}

/* True when every byte of s is in the set allowed. */
static bool
only_chars(const char *s, const char *allowed)
{
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && strchr(allowed, *s) == NULL)
			return false;
	return true;
}

/* Parse a cursor (NULL: the start). 0, or -1 when malformed. */
static int
cursor_parse(const char *cursor, struct sp_cursor *c)
{
	char buf[PROV_MAX_CURSOR + 1], *f[4], *p;
	size_t nf = 0;

	memset(c, 0, sizeof *c);
	if (cursor == NULL)
		return 0;
	if (strlen(cursor) > PROV_MAX_CURSOR)
		return -1;
	strcpy(buf, cursor);
	for (p = buf; nf < 4; nf++) {
		f[nf] = p;
		if ((p = strchr(p, ':')) == NULL) {
			nf++;
			break;
		}
		*p++ = '\0';
	}
	if (p != NULL)
		return -1; /* more than four fields */
	for (c->ph = 0; phases[c->ph] != NULL; c->ph++)
		if (strcmp(phases[c->ph], f[0]) == 0)
			break;
	if (nf < 2 || phases[c->ph] == NULL || parse_i64(f[1], 0, INT32_MAX, &c->idx) != 0)
		return -1;
	if (c->ph == PH_PAGES)
		return nf == 2 ? 0 : -1;
	if (nf != 4 || parse_i64(f[2], 0, INT32_MAX, &c->n) != 0 || !valid_page_id(f[3]))
		return -1;
	strcpy(c->pid, f[3]);
	return 0;
}

static char *
cursor_make(int ph, int64_t idx, int64_t n, const char *pid)
{
	if (ph == PH_PAGES)
		return xasprintf("pages:%lld", (long long)idx);
	return xasprintf("%s:%lld:%lld:%s", phases[ph], (long long)idx, (long long)n, pid);
}

/* ---- status pages ---- */

/* The public address of page p (malloc'd), or NULL. `url` is the company's
 * website the page links to, not the page: its own domain, else its
 * statuspage.io subdomain. */
static char *
page_url(json_object *p)
{
	const char *domain = prov_get_text(p, "domain", 253);
	const char *sub = prov_get_text(p, "subdomain", 253);

	if (domain != NULL && only_chars(domain, ".-"))
		return xasprintf("https://%s", domain);
	if (sub != NULL && only_chars(sub, ".-"))
		return strchr(sub, '.') != NULL ? xasprintf("https://%s", sub) :
		                                  xasprintf("https://%s.statuspage.io", sub);
	return NULL;
}

/* The page's time_zone when it is an IANA name ("Etc/UTC", "America/New_York"). */
static const char *
page_timezone(json_object *p, const char *name, struct prov_page *page)
{
	const char *tz = prov_get_text(p, "time_zone", PROV_MAX_STR);
	char tb[40];

	if (tz == NULL || (strlen(tz) <= 64 && tz_name_valid(tz)))
		return tz;
	prov_copy_text(tb, sizeof tb, tz);
	prov_page_warn(page,
	    SP " page \"%s\" has the time zone \"%s\", which is not an IANA name; "
	       "imported without a time zone",
	    name, tb);
	return NULL;
}

static const struct prov_field page_fields[];

static void
add_page(json_object *p, const char *id, struct prov_page *page)
{
	struct prov_status_page sp = { 0 };
	char *url = page_url(p);

	prov_map(page_fields, p, &sp);
	if (sp.name == NULL)
		sp.name = id;
	sp.url = url;
	sp.timezone = page_timezone(p, sp.name, page);
	sp.public_ = !prov_get_bool(p, "viewers_must_be_team_members", false);
	sp.items = json_object_new_array();
	json_object_object_add(p, RAW_GROUPS, json_object_new_array());
	json_object_object_add(p, RAW_COMPONENTS, json_object_new_array());
	json_object_object_add(p, RAW_INCIDENTS, json_object_new_array());
	json_object_object_add(p, RAW_MAINTENANCES, json_object_new_array());
	prov_page_add(page, "status_page", id, json_object_get(p), prov_norm_status_page(&sp));
	free(url);
}

static enum prov_status
parse_pages(const struct sp_cursor *c, json_object *root, struct prov_page *page, struct prov_error *err)
{
	json_object *p;
	size_t count;
	char id[SP_MAX_ID + 1];

	if (json_object_is_type(root, json_type_object)) {
		/* GET /v1/pages/<page_id>: one page */
		count = 1;
		p = root;
	} else if (json_object_is_type(root, json_type_array)) {
		count = json_object_array_length(root);
		p = (size_t)c->idx < count ? json_object_array_get_idx(root, (size_t)c->idx) : NULL;
	} else
		return prov_fail(err, PROV_TRANSIENT, SP " sent a list of pages that is not a list");
	if ((size_t)c->idx >= count) {
		if (c->idx == 0)
			prov_page_warn(page, "The " SP " account has no pages");
		return PROV_OK; /* the end */
	}
	if (!json_object_is_type(p, json_type_object) || prov_get_id(p, "id", id, sizeof id) != 0 ||
	    !valid_page_id(id)) {
		prov_page_warn(page, SP " sent a page without a usable id; skipped");
		page->next_cursor = cursor_make(PH_PAGES, c->idx + 1, 0, NULL);
		return PROV_OK;
	}
	add_page(p, id, page);
	page->next_cursor = cursor_make(PH_GROUPS, c->idx, 0, id);
	return PROV_OK;
}

/* The status page pid already in page, or NULL. */
static struct prov_item *
page_item(struct prov_page *page, const char *pid)
{
	for (size_t i = 0; i < page->n; i++)
		if (strcmp(page->items[i].resource_type, "status_page") == 0 &&
		    strcmp(page->items[i].external_id, pid) == 0)
			return &page->items[i];
	return NULL;
}

/* ---- component groups and components: the page's entries ---- */

/* A list of ids as Statuspage sends it: a JSON array, or (as the OpenAPI
 * types it) a string holding one. A new array; [] when v is neither. */
static json_object *
id_list(json_object *v)
{
	json_object *parsed, *out;

	if (json_object_is_type(v, json_type_array))
		return prov_id_list(v, "id");
	if (!json_object_is_type(v, json_type_string))
		return json_object_new_array();
	parsed = json_tokener_parse(json_object_get_string(v));
	if (json_object_is_type(parsed, json_type_array))
		out = prov_id_list(parsed, "id");
	else if ((out = prov_str_list(v, ',')) == NULL)
		out = json_object_new_array();
	json_object_put(parsed);
	return out;
}

/* The entry of list whose id is id, or NULL. */
static json_object *
list_find(json_object *list, const char *id)
{
	size_t n = list ? json_object_array_length(list) : 0;
	char buf[SP_MAX_ID + 1];

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(list, i);

		if (prov_get_id(e, "id", buf, sizeof buf) == 0 && strcmp(buf, id) == 0)
			return e;
	}
	return NULL;
}

/* True for a phase that reads the page's history. */
static bool
history_phase(int ph)
{
	return ph == PH_INCIDENTS || ph == PH_MAINTENANCES;
}

/* Append to list the objects of answer (at most PROV_MAX_ITEMS; a history
 * list at most PROV_SP_MAX_INCIDENTS in all) that it does not hold yet; the
 * number added. *full: a history list reached its cap. */
static size_t
list_merge(json_object *list, json_object *answer, const struct sp_cursor *c, struct prov_page *page,
    bool *full)
{
	size_t n = json_object_array_length(answer), added = 0, bad = 0;
	char id[SP_MAX_ID + 1];

	*full = false;
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, SP " sent %zu %s in one page; only the first %d were kept", n,
		    kinds[c->ph], PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(answer, i);

		if (!json_object_is_type(e, json_type_object) || prov_get_id(e, "id", id, sizeof id) != 0)
			bad++;
		else if (history_phase(c->ph) && json_object_array_length(list) >= PROV_SP_MAX_INCIDENTS) {
			*full = true;
			break;
		} else if (list_find(list, id) == NULL) {
			json_object_array_add(list, json_object_get(e));
			added++;
		}
	}
	if (*full)
		prov_page_warn(page,
		    SP " page %s has more %s than the newest %d; the older ones were not imported", c->pid,
		    kinds[c->ph], PROV_SP_MAX_INCIDENTS);
	if (bad > 0)
		prov_page_warn(page, SP " page %s: %zu of its %s had no usable id; skipped", c->pid, bad,
		    kinds[c->ph]);
	return added;
}

/* The `page` to ask for after c->n answered len entries, added of them new;
 * -1 at the end of the list. */
static int64_t
list_next(const struct sp_cursor *c, size_t len, size_t added, struct prov_page *page)
{
	if (len == 0)
		return c->n == 0 ? 1 : -1; /* page 0 empty: the numbering may start at 1 */
	if (added == 0 && c->n == 1)
		return 2; /* page 1 repeated page 0: the numbering starts at 1 */
	if (added == 0) {
		prov_page_warn(page,
		    SP " page %s: page %lld of its %s repeated earlier entries; the "
		       "list ends there",
		    c->pid, (long long)c->n, kinds[c->ph]);
		return -1;
	}
	if (len < SP_PER_PAGE)
		return -1;
	return c->n + 1;
}

/* The name of group gid among the group list, then the group rows of the
 * component list; NULL when neither knows it. */
static const char *
group_name(json_object *groups, json_object *comps, const char *gid)
{
	json_object *g = list_find(groups, gid);

	if (g == NULL && (g = list_find(comps, gid)) != NULL && !prov_get_bool(g, "group", false))
		g = NULL;
	return g != NULL ? prov_get_text(g, "name", PROV_MAX_STR) : NULL;
}

/* The section (group name) of component c with id cid; NULL at the top
 * level. *unknown counts groups named by id that were not found. */
static const char *
component_section(json_object *c, const char *cid, json_object *groups, json_object *comps, size_t *unknown)
{
	size_t n = groups ? json_object_array_length(groups) : 0;
	char gid[SP_MAX_ID + 1];
	const char *name = NULL;

	if (prov_get_id(c, "group_id", gid, sizeof gid) == 0) {
		if ((name = group_name(groups, comps, gid)) == NULL)
			(*unknown)++;
		return name;
	}
	/* No group_id: a group that lists the component. */
	for (size_t i = 0; i < n && name == NULL; i++) {
		json_object *g = json_object_array_get_idx(groups, i);
		json_object *ids = id_list(prov_get(g, "components"));

		for (size_t j = 0; j < json_object_array_length(ids); j++)
			if (strcmp(json_object_get_string(json_object_array_get_idx(ids, j)), cid) == 0)
				name = prov_get_text(g, "name", PROV_MAX_STR);
		json_object_put(ids);
	}
	return name;
}

/* ---- incidents and scheduled maintenances: the page's history ---- */

/* The status words of an incident (OpenAPI Incident.status), and the
 * impacts (Incident.impact). */
static const char *const incident_statuses[] = { "investigating", "identified", "monitoring", "resolved",
	"scheduled", "in_progress", "verifying", "completed", NULL };
static const char *const maintenance_statuses[] = { "scheduled", "in_progress", "verifying", "completed",
	NULL };
static const char *const impacts[] = { "none", "minor", "major", "critical", "maintenance", NULL };

/* The member key of o when it is one of list; "other" with a warning when it
 * is another text; NULL when absent. */
static const char *
known_word(json_object *o, const char *key, const char *const *list, const char *what, const char *id,
    struct prov_page *page)
{
	const char *v = prov_get_text(o, key, 64);
	char vb[40];

	if (v == NULL && prov_get(o, key) == NULL)
		return NULL;
	for (size_t i = 0; v != NULL && list[i] != NULL; i++)
		if (strcmp(v, list[i]) == 0)
			return list[i];
	prov_copy_text(vb, sizeof vb, v ? v : "(not a word)");
	prov_page_warn(page, SP " %s %s has an unknown %s %s; kept as other", what, id, key, vb);
	return "other";
}

/* Member key of o as a time, or -1. */
static int64_t
when(json_object *o, const char *key)
{
	int64_t t;

	return prov_get_time(o, key, TIME_ISO, NULL, &t) ? t : -1;
}

/* The updates of incident e, oldest first (the API lists them newest first:
 * ordered here by their time, the order given among equals). */
static json_object *
incident_updates(json_object *e, const char *id, struct prov_page *page)
{
	json_object *list = prov_get_array(e, "incident_updates"), *out = json_object_new_array();
	size_t n = list ? json_object_array_length(list) : 0, dropped;
	struct {
		int64_t at;
		size_t i;
	} *v = xcalloc(n + 1, sizeof *v);
	size_t nv = 0;

	if (n > PROV_MAX_ITEMS)
		n = PROV_MAX_ITEMS;
	for (size_t i = 0; i < n; i++) {
		json_object *u = json_object_array_get_idx(list, i);
		int64_t at = when(u, "display_at");
		size_t j;

		if (!json_object_is_type(u, json_type_object))
			continue;
		if (at < 0)
			at = when(u, "created_at");
		for (j = nv++; j > 0 && v[j - 1].at > at; j--)
			v[j] = v[j - 1];
		v[j].at = at;
		v[j].i = i;
	}
	for (size_t k = 0; k < nv; k++) {
		json_object *u = json_object_array_get_idx(list, v[k].i);
		json_object *body = prov_get(u, "body");

		prov_sp_update(out, v[k].at,
		    known_word(u, "status", incident_statuses, "incident update of", id, page),
		    json_object_is_type(body, json_type_string) ? json_object_get_string(body) : NULL);
	}
	free(v);
	if ((dropped = prov_sp_updates_cap(out)) > 0)
		prov_page_warn(page,
		    SP " incident %s has %zu updates more than the newest %d; they were not imported", id,
		    dropped, PROV_SP_MAX_UPDATES);
	return out;
}

/* The index in items of the entry whose "ref" is component cid, or -1. */
static int64_t
entry_of(json_object *items, const char *cid)
{
	size_t n = json_object_array_length(items);

	for (size_t i = 0; i < n; i++) {
		const char *ref = prov_get_str(json_object_array_get_idx(items, i), "ref", SP_MAX_ID);

		if (ref != NULL && strcmp(ref, cid) == 0)
			return (int64_t)i;
	}
	return -1;
}

/* Incident or maintenance e (id) as a history entry of the page whose
 * entries are items. A maintenance is one scheduled for a time, or in a
 * maintenance's state or impact. */
static json_object *
incident(json_object *e, const char *id, json_object *items, const struct sp_cursor *c,
    struct prov_page *page)
{
	struct prov_sp_incident in = { 0 };
	const char *st = prov_get_text(e, "status", 64), *imp = prov_get_text(e, "impact_override", 64);
	json_object *comps = prov_get_array(e, "components");
	size_t n = comps ? json_object_array_length(comps) : 0, missing = 0;
	bool maint = prov_get(e, "scheduled_for") != NULL ||
	    (st != NULL && str_in_list(maintenance_statuses, st)) ||
	    (prov_get_text(e, "impact", 64) != NULL &&
	        strcmp(prov_get_text(e, "impact", 64), "maintenance") == 0);
	char cid[SP_MAX_ID + 1];

	in.kind = maint ? "maintenance" : "incident";
	in.name = prov_get_text(e, "name", PROV_MAX_STR);
	in.status = known_word(e, "status", incident_statuses, "incident", id, page);
	in.impact = known_word(e, imp != NULL ? "impact_override" : "impact", impacts, "incident", id, page);
	in.starts_at = maint ? when(e, "scheduled_for") : -1;
	if (in.starts_at < 0)
		in.starts_at = when(e, "started_at");
	if (in.starts_at < 0)
		in.starts_at = when(e, "created_at");
	in.ends_at = when(e, "resolved_at");
	in.scheduled_until = when(e, "scheduled_until");
	in.updates = incident_updates(e, id, page);
	in.components = json_object_new_array();
	for (size_t i = 0; i < n && i < PROV_MAX_ITEMS; i++) {
		json_object *ce = json_object_array_get_idx(comps, i);
		int64_t at;

		if (prov_get_id(ce, "id", cid, sizeof cid) != 0 && prov_json_id(ce, cid, sizeof cid) != 0)
			continue;
		if ((at = entry_of(items, cid)) >= 0)
			json_object_array_add(in.components, json_object_new_int64(at));
		else
			missing++;
	}
	if (missing > 0)
		prov_page_warn(page,
		    SP " incident %s names %zu component(s) page %s does not list; they were left out of its "
		       "components",
		    id, missing, c->pid);
	return prov_sp_incident(&in);
}

/* The page's history from its incidents and scheduled maintenances (one in
 * both lists once), newest first, into norm's "incidents". */
static void
history_build(struct prov_item *sp, json_object *items, const struct sp_cursor *c, struct prov_page *page)
{
	json_object *out = json_object_new_array(), *seen = json_object_new_array();
	const char *lists[] = { RAW_INCIDENTS, RAW_MAINTENANCES };
	size_t dropped;
	char id[SP_MAX_ID + 1];

	for (size_t l = 0; l < 2; l++) {
		json_object *list = prov_get_array(sp->raw, lists[l]);

		for (size_t i = 0; list != NULL && i < json_object_array_length(list); i++) {
			json_object *e = json_object_array_get_idx(list, i);

			if (prov_get_id(e, "id", id, sizeof id) != 0 || list_find(seen, id) != NULL)
				continue;
			json_object_array_add(seen, json_object_get(e));
			json_object_array_add(out, incident(e, id, items, c, page));
		}
	}
	if ((dropped = prov_sp_incidents_order(out)) > 0)
		prov_page_warn(page,
		    SP " page %s has %zu incidents and maintenances more than the newest %d; they were not "
		       "imported",
		    c->pid, dropped, PROV_SP_MAX_INCIDENTS);
	json_object_object_add(sp->norm, "incidents", out);
	json_object_put(seen);
}

/* The page's lists are all read: make its components its entries, in the
 * order received (the group rows give sections, they are no entries; each
 * entry's "ref" is its component's id), and its incidents and maintenances
 * its history; go on with its subscribers. */
static void
page_close(struct prov_item *sp, const struct sp_cursor *c, struct prov_page *page)
{
	json_object *items, *groups = prov_get_array(sp->raw, RAW_GROUPS);
	json_object *comps = prov_get_array(sp->raw, RAW_COMPONENTS);
	size_t n = comps ? json_object_array_length(comps) : 0, unknown = 0;
	char id[SP_MAX_ID + 1];

	if (json_object_object_get_ex(sp->norm, "items", &items)) {
		for (size_t i = 0; i < n; i++) {
			json_object *e = json_object_array_get_idx(comps, i);
			const char *name = prov_get_text(e, "name", PROV_MAX_STR);

			if (prov_get_bool(e, "group", false) || prov_get_id(e, "id", id, sizeof id) != 0)
				continue;
			prov_sp_item(items, NULL, name ? name : id,
			    component_section(e, id, groups, comps, &unknown));
			jx_add_str(json_object_array_get_idx(items, json_object_array_length(items) - 1),
			    "ref", id);
		}
		history_build(sp, items, c, page);
	}
	if (unknown > 0)
		prov_page_warn(page,
		    SP " page %s: %zu component(s) name a group it did not list; "
		       "imported without a section",
		    c->pid, unknown);
	free(page->next_cursor);
	page->next_cursor = cursor_make(PH_ACTIVE, c->idx, 0, c->pid);
}

/* One page of component groups, components, incidents or scheduled
 * maintenances, into the raw status page. */
static enum prov_status
parse_list(const struct sp_cursor *c, json_object *root, struct prov_page *page, struct prov_error *err)
{
	struct prov_item *sp = page_item(page, c->pid);
	json_object *list;
	size_t len = json_object_array_length(root), added;
	int64_t next;
	bool full;

	if (sp == NULL || (list = prov_get_array(sp->raw, raw_lists[c->ph])) == NULL)
		return prov_fail(err, PROV_FATAL, SP ": %s read without their page", kinds[c->ph]);
	added = list_merge(list, root, c, page, &full);
	next = full ? -1 : list_next(c, len, added, page);
	if (next >= 0)
		page->next_cursor = cursor_make(c->ph, c->idx, next, c->pid);
	else if (c->ph < PH_MAINTENANCES)
		page->next_cursor = cursor_make(c->ph + 1, c->idx, 0, c->pid);
	else
		page_close(sp, c, page);
	return PROV_OK;
}

/* ---- subscribers ---- */

static size_t
mode_find(const char *mode)
{
	size_t i;

	for (i = 0; mode != NULL && modes[i].sp != NULL; i++)
		if (strcmp(mode, modes[i].sp) == 0)
			break;
	return mode != NULL ? i : sizeof modes / sizeof modes[0] - 1;
}

/* A subscriber's phone: the formatted pair, else country and number. */
static char *
subscriber_phone(json_object *s)
{
	const char *shown = prov_get_text(s, "display_phone_number", 64);
	const char *num = prov_get_text(s, "phone_number", 64);
	const char *country = prov_get_text(s, "phone_country", 8);

	if (shown != NULL)
		return xstrdup(shown);
	if (num != NULL && country != NULL && num[0] != '+')
		return xasprintf("%s %s", country, num);
	return num != NULL ? xstrdup(num) : NULL;
}

/* Where subscriber s gets the updates (malloc'd), by kind; NULL when unsaid. */
static char *
subscriber_address(json_object *s, const char *kind)
{
	const char *email = prov_get_text(s, "email", 1024);
	const char *endpoint = prov_get_text(s, "endpoint", 1024);
	const char *ws = prov_get_text(s, "workspace_name", 255);
	const char *ch = prov_get_text(s, "obfuscated_channel_name", 255);
	char *phone = subscriber_phone(s);

	if (strcmp(kind, "sms") == 0 ||
	    (strcmp(kind, "other") == 0 && phone != NULL && email == NULL && endpoint == NULL))
		return phone;
	free(phone);
	if (strcmp(kind, "email") == 0)
		return email ? xstrdup(email) : NULL;
	if (strcmp(kind, "webhook") == 0 || strcmp(kind, "teams") == 0 ||
	    (strcmp(kind, "other") == 0 && endpoint != NULL))
		return endpoint ? xstrdup(endpoint) : NULL;
	if (ws != NULL || ch != NULL)
		return xasprintf("%s%s%s", ws ? ws : "", ws && ch ? "/" : "", ch ? ch : "");
	return email ? xstrdup(email) : NULL;
}

static void
add_subscriber(json_object *s, const char *id, const struct sp_cursor *c, struct prov_page *page)
{
	struct prov_subscriber sub = { 0 };
	const char *mode = prov_get_str(s, "mode", 32);
	int64_t created;
	size_t m = mode_find(mode);
	char day[11], mb[40], *addr;

	sub.status_page_id = c->pid;
	sub.kind = modes[m].norm != NULL ? modes[m].norm : "other";
	sub.address = addr = subscriber_address(s, sub.kind);
	/* A quarantined subscriber keeps quarantined_at whatever list it is in. */
	sub.state = prov_get_text(s, "quarantined_at", 64) != NULL ? "quarantined" : states[c->ph];
	if (prov_get_time(s, "created_at", TIME_ISO, NULL, &created) && time_format_date(created, day) == 0)
		sub.created = day; /* the UTC date */
	sub.components = id_list(prov_get(s, "components"));
	if (mode != NULL && modes[m].sp != NULL && modes[m].norm == NULL)
		prov_page_warn(page,
		    SP " subscriber %s is an %s subscription, which has no equivalent; "
		       "kept as other",
		    id, modes[m].label);
	else if (modes[m].sp == NULL) {
		prov_copy_text(mb, sizeof mb, mode ? mode : "(none)");
		prov_page_warn(page, SP " subscriber %s has an unknown mode %s; kept as other", id, mb);
	}
	prov_page_add(page, "status_page_subscriber", id, json_object_get(s), prov_norm_subscriber(&sub));
	free(addr);
}

static enum prov_status
parse_subscribers(const struct sp_cursor *c, json_object *root, struct prov_page *page)
{
	size_t len = json_object_array_length(root), n = len, bad = 0;
	char id[192];

	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, SP " sent %zu subscribers in one page; only the first %d were kept", n,
		    PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(root, i);

		if (!json_object_is_type(it, json_type_object) || prov_get_id(it, "id", id, sizeof id) != 0)
			bad++;
		else
			add_subscriber(it, id, c, page);
	}
	if (bad > 0)
		prov_page_warn(page, SP " page %s: %zu of its %s had no usable id; skipped", c->pid, bad,
		    kinds[c->ph]);
	if (len >= SP_PER_PAGE)
		page->next_cursor = cursor_make(c->ph, c->idx, c->n + 1, c->pid);
	if (page->next_cursor == NULL)
		page->next_cursor = c->ph == PH_QUARANTINED ? cursor_make(PH_PAGES, c->idx + 1, 0, NULL) :
		                                              cursor_make(c->ph + 1, c->idx, 0, c->pid);
	return PROV_OK;
}

/* ---- parse and fetch ---- */

/* A status page's entries (its components). */
static const char *const sp_item_keys[] = { "items", NULL };

/* A history list (incidents, scheduled maintenances) that could not be read
 * (answer: its HTTP status, or 0 for one that is no list): the page's
 * history is unread, with a warning; go on with the next list. */
static enum prov_status
history_unread(const struct sp_cursor *c, long answer, struct prov_page *page, struct prov_error *err)
{
	struct prov_item *sp = page_item(page, c->pid);
	char why[96];

	memset(err, 0, sizeof *err);
	if (sp == NULL)
		return prov_fail(err, PROV_FATAL, SP ": %s read without their page", kinds[c->ph]);
	if (answer != 0)
		snprintf(why, sizeof why, "its %s could not be read (HTTP %ld)", kinds[c->ph], answer);
	else
		snprintf(why, sizeof why, "its %s could not be read (the answer was no list)", kinds[c->ph]);
	prov_unread(sp->norm, why, sp_history_keys);
	prov_page_warn(page, SP " page %s: %s; its incident history was not imported", c->pid, why);
	if (c->ph == PH_INCIDENTS)
		page->next_cursor = cursor_make(PH_MAINTENANCES, c->idx, 0, c->pid);
	else
		page_close(sp, c, page);
	return PROV_OK;
}

/* A later list the key may not read (§12): warn and go on with what follows.
 * PROV_OK, or st when the answer is no refusal. */
static enum prov_status
skip_refused(const struct sp_cursor *c, enum prov_status st, long status, struct prov_page *page,
    struct prov_error *err)
{
	struct prov_item *sp;

	if (history_phase(c->ph))
		return st == PROV_RATE_LIMITED ? st : history_unread(c, status, page, err);
	/* components: 401/403; groups and subscribers: any 4xx (a plan without them) */
	if (st != PROV_AUTH && !(st == PROV_FATAL && status >= 400 && status < 500 && c->ph != PH_COMPONENTS))
		return st;
	prov_skip_kind(page, SP, kinds[c->ph], status);
	memset(err, 0, sizeof *err);
	if (c->ph == PH_GROUPS)
		page->next_cursor = cursor_make(PH_COMPONENTS, c->idx, 0, c->pid);
	else if (c->ph == PH_COMPONENTS) {
		if ((sp = page_item(page, c->pid)) == NULL)
			return prov_fail(err, PROV_FATAL, SP ": components read without their page");
		prov_unread(sp->norm, "its components were refused for this key", sp_item_keys);
		page->next_cursor = cursor_make(PH_INCIDENTS, c->idx, 0, c->pid);
	} else if (c->ph == PH_ACTIVE || c->ph == PH_QUARANTINED)
		page->next_cursor = cursor_make(PH_PAGES, c->idx + 1, 0, NULL);
	else
		page->next_cursor = cursor_make(PH_QUARANTINED, c->idx, 0, c->pid);
	return PROV_OK;
}

enum prov_status
statuspage_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	struct sp_cursor c;
	json_object *root;
	enum prov_status st;
	char text[160];

	if (cursor_parse(cursor, &c) != 0)
		return prov_bad_checkpoint(err, SP);
	if ((st = httpc_classify(resp, SP, "API key", err)) != PROV_OK) {
		prov_body_message(resp, text, sizeof text);
		if (c.ph != PH_PAGES)
			return skip_refused(&c, st, resp->status, page, err);
		if (st == PROV_AUTH)
			prov_fail(err, PROV_AUTH, SP " rejected the API key%s%s%s", text[0] ? " (" : "", text,
			    text[0] ? ")" : "");
		else if (resp->status == 404)
			prov_fail(err, PROV_FATAL,
			    SP " does not know the page: check the page_id "
			       "credential (HTTP 404)");
		return st;
	}
	if ((root = prov_parse_json(resp, SP, err)) == NULL)
		return history_phase(c.ph) ? history_unread(&c, 0, page, err) : err->status;
	if (c.ph == PH_PAGES)
		st = parse_pages(&c, root, page, err);
	else if (history_phase(c.ph) && !json_object_is_type(root, json_type_array))
		st = history_unread(&c, 0, page, err);
	else if (!json_object_is_type(root, json_type_array)) {
		prov_body_message(resp, text, sizeof text);
		st = prov_fail(err, PROV_TRANSIENT, SP " sent %s that are not a list%s%s", kinds[c.ph],
		    text[0] ? ": " : "", text);
	} else if (c.ph <= PH_MAINTENANCES)
		st = parse_list(&c, root, page, err);
	else
		st = parse_subscribers(&c, root, page);
	json_object_put(root);
	return st;
}

/* One request for cursor c into page. */
static enum prov_status
request(struct prov_session *s, const char *cursor, const struct sp_cursor *c, const char *auth,
    const char *page_id, struct prov_page *page, struct prov_error *err)
{
	struct httpc_req req = { 0 };
	struct httpc_resp resp = { 0 };
	const char *headers[2] = { auth, NULL };
	char *url;
	enum prov_status st;

	if (c->ph == PH_PAGES && page_id != NULL)
		url = prov_url(s, "/v1/pages/%s", page_id);
	else if (c->ph == PH_PAGES)
		url = prov_url(s, "/v1/pages");
	else if (c->ph == PH_GROUPS || c->ph == PH_COMPONENTS)
		url = prov_url(s, "/v1/pages/%s/%s?page=%lld&per_page=%d", c->pid,
		    c->ph == PH_GROUPS ? "component-groups" : "components", (long long)c->n, SP_PER_PAGE);
	else if (c->ph == PH_INCIDENTS)
		url = prov_url(s, "/v1/pages/%s/incidents?page=%lld&limit=%d", c->pid, (long long)c->n,
		    SP_PER_PAGE);
	else if (c->ph == PH_MAINTENANCES)
		url = prov_url(s, "/v1/pages/%s/incidents/scheduled?page=%lld&per_page=%d", c->pid,
		    (long long)c->n, SP_PER_PAGE);
	else
		url = prov_url(s, "/v1/pages/%s/subscribers?state=%s&page=%lld&limit=%d", c->pid,
		    states[c->ph], (long long)c->n, SP_PER_PAGE);
	req.url = url;
	req.headers = headers;
	st = prov_http(s, &req, &resp, err);
	if (st == PROV_OK)
		st = statuspage_parse(cursor, &resp, page, err);
	st = prov_finish(s, st, page, err);
	httpc_resp_free(&resp);
	free(url);
	return st;
}

/* True while page's next step is inside the fetch of a status page. */
static bool
in_page_step(const struct prov_page *page)
{
	const char *n = page->next_cursor;

	return n != NULL &&
	    (strncmp(n, "groups:", 7) == 0 || strncmp(n, "components:", 11) == 0 ||
	        strncmp(n, "incidents:", 10) == 0 || strncmp(n, "maintenances:", 13) == 0);
}

static enum prov_status
statuspage_fetch(struct prov_session *s, const char *cursor, struct prov_page *page, struct prov_error *err)
{
	const char *key = prov_cred(s, "api_key");
	const char *page_id = prov_cred(s, "page_id");
	struct sp_cursor c;
	char *auth, *cur;
	enum prov_status st;
	int k;

	if (cursor_parse(cursor, &c) != 0)
		return prov_bad_checkpoint(err, SP);
	if (key == NULL)
		return prov_no_cred(err, SP, "api_key");
	if (page_id != NULL && !valid_page_id(page_id))
		return prov_fail(err, PROV_FATAL,
		    "the " SP " page_id must be a page id (letters and "
		    "digits, as in manage.statuspage.io/pages/<page_id>)");
	if (c.ph >= PH_GROUPS && c.ph <= PH_MAINTENANCES)
		c.ph = PH_PAGES; /* read only with their page: start it again */
	if (c.ph == PH_PAGES && page_id != NULL && c.idx > 0)
		return PROV_OK; /* the one page is done */
	auth = xasprintf("Authorization: OAuth %s", key);
	cur = cursor_make(c.ph, c.idx, c.n, c.pid);
	st = request(s, cur, &c, auth, page_id, page, err);
	/* A page's groups and components come with it (see the top of the file). */
	for (k = 1; st == PROV_OK && in_page_step(page); k++) {
		free(cur);
		cur = page->next_cursor;
		page->next_cursor = NULL;
		if (cursor_parse(cur, &c) != 0) {
			st = prov_fail(err, PROV_FATAL, SP ": internal cursor error");
			break;
		}
		if (k == SP_STEP_REQUESTS && page_item(page, c.pid) != NULL) {
			prov_page_warn(page,
			    SP " page %s has more component groups, components and history than "
			       "%d requests read; the rest were not imported",
			    c.pid, SP_STEP_REQUESTS);
			/* its history, read in part or not at all, would replace the account's */
			prov_unread(page_item(page, c.pid)->norm, "its incidents were not read to the end",
			    sp_history_keys);
			page_close(page_item(page, c.pid), &c, page);
			break;
		}
		st = request(s, cur, &c, auth, page_id, page, err);
	}
	free(cur);
	sodium_memzero(auth, strlen(auth));
	free(auth);
	return st;
}

const struct provider_ops statuspage_ops = { statuspage_fetch };

/* The fate of each field (providers/fields.h): the schemas Page, Component,
 * GroupComponent, Incident, IncidentUpdate and Subscriber of the official
 * OpenAPI (providers.md §8.2). A status page is stored as the page object
 * with its component groups, components, incidents and scheduled
 * maintenances as received (RAW_GROUPS, RAW_COMPONENTS, RAW_INCIDENTS,
 * RAW_MAINTENANCES). */
/* clang-format off */
#define SP_HISTORY(L) \
	{ L "[].id", "`status_page_incidents`", "one entry each (one listed as an incident and a scheduled maintenance once), newest first by its start, the newest 50; the id itself is not kept" }, \
	{ L "[].name", "`status_page_incidents.name`", "else `(untitled)`" }, \
	{ L "[].status", "`status_page_incidents.status`, `status_page_incidents.kind`", "`scheduled`, `in_progress`, `verifying`, `completed`: a maintenance; unknown: `other`, with a warning" }, \
	{ L "[].scheduled_for", "`status_page_incidents.starts_at`, `status_page_incidents.kind`", "set: a maintenance, which starts then" }, \
	{ L "[].scheduled_until", "`status_page_incidents.scheduled_until`", NULL }, \
	{ L "[].started_at", "`status_page_incidents.starts_at`", "of an incident (a field the API sends beside the OpenAPI's)" }, \
	{ L "[].created_at", "`status_page_incidents.starts_at`", "of an incident without `started_at`" }, \
	{ L "[].resolved_at", "`status_page_incidents.ends_at`", NULL }, \
	{ L "[].impact", "`status_page_incidents.impact`, `status_page_incidents.kind`", "`maintenance`: a maintenance; unknown: `other`, with a warning" }, \
	{ L "[].impact_override", "`status_page_incidents.impact`", "when set, in place of `impact`" }, \
	{ L "[].components", "`status_page_incidents.components`", "each component by its entry's position on the page; one the page does not list is left out, with a warning" }, \
	{ L "[].incident_updates[].body", "`status_page_incidents.updates`", "`body`, at most 4000 characters (cut on a character boundary); the newest 50 updates, oldest first" }, \
	{ L "[].incident_updates[].status", "`status_page_incidents.updates`", "`status`" }, \
	{ L "[].incident_updates[].display_at", "`status_page_incidents.updates`", "`at` (UTC), by which the updates are ordered" }, \
	{ L "[].incident_updates[].created_at", "`status_page_incidents.updates`", "`at` of an update without `display_at`" }, \
	{ L "[].incident_updates[].affected_components", NULL, "Which components an update changed, from which state to which, is not carried: the incident's own components are." }, \
	{ L "[].incident_updates[].deliver_notifications", NULL, "Whether subscribers were told of the update is not carried." }, \
	{ L "[].incident_updates[].wants_twitter_update", NULL, "Posting updates to Twitter is not carried." }, \
	{ L "[].incident_updates[].custom_tweet", NULL, "Posting updates to Twitter is not carried." }, \
	{ L "[].incident_updates[].tweet_id", NULL, "Posting updates to Twitter is not carried." }, \
	{ L "[].incident_updates[].twitter_updated_at", NULL, "Posting updates to Twitter is not carried." }, \
	{ L "[].incident_updates[].id", NULL, "An update's own id is not kept." }, \
	{ L "[].incident_updates[].incident_id", NULL, "The incident's own id again: nothing is lost." }, \
	{ L "[].incident_updates[].updated_at", NULL, "State at Statuspage, not a setting." }, \
	{ L "[].postmortem_body", NULL, "The postmortem has no place in the account." }, \
	{ L "[].postmortem_body_last_updated_at", NULL, "The postmortem has no place in the account." }, \
	{ L "[].postmortem_published_at", NULL, "The postmortem has no place in the account." }, \
	{ L "[].postmortem_ignored", NULL, "The postmortem has no place in the account." }, \
	{ L "[].postmortem_notified_subscribers", NULL, "The postmortem has no place in the account." }, \
	{ L "[].postmortem_notified_twitter", NULL, "The postmortem has no place in the account." }, \
	{ L "[].monitoring_at", NULL, "When it entered the monitoring state shows in its updates; the time itself is not kept." }, \
	{ L "[].scheduled_remind_prior", NULL, "Reminding subscribers before a maintenance is not carried." }, \
	{ L "[].scheduled_reminded_at", NULL, "Reminding subscribers before a maintenance is not carried." }, \
	{ L "[].scheduled_auto_in_progress", NULL, "Moving a maintenance along by itself is not carried." }, \
	{ L "[].scheduled_auto_completed", NULL, "Moving a maintenance along by itself is not carried." }, \
	{ L "[].auto_transition_to_maintenance_state", NULL, "Moving a maintenance along by itself is not carried." }, \
	{ L "[].auto_transition_to_operational_state", NULL, "Moving a maintenance along by itself is not carried." }, \
	{ L "[].auto_transition_deliver_notifications_at_start", NULL, "Moving a maintenance along by itself is not carried." }, \
	{ L "[].auto_transition_deliver_notifications_at_end", NULL, "Moving a maintenance along by itself is not carried." }, \
	{ L "[].metadata", NULL, "Data other tools attached to the incident (e.g. a Jira issue) is not carried." }, \
	{ L "[].shortlink", NULL, "Statuspage's short link to the incident works only at Statuspage." }, \
	{ L "[].page_id", NULL, "The page's own id again: nothing is lost." }, \
	{ L "[].updated_at", NULL, "State at Statuspage, not a setting." }
static const struct prov_field page_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "name", "`status_pages.name`", "else the id", PROV_TEXT(status_page, name, PROV_MAX_STR) },
	{ "domain", "`status_pages.url`", "the page's own domain: `https://<domain>`" },
	{ "subdomain", "`status_pages.url`", "only without a `domain`: `https://<subdomain>.statuspage.io` (a subdomain holding a dot is taken as the host)" },
	{ "time_zone", "`status_pages.timezone`", "an IANA name; any other text (a Rails name such as \"Eastern Time (US & Canada)\"): NULL, with a warning" },
	{ "viewers_must_be_team_members", "`status_pages.public`", "an audience-specific page is not public" },
	{ "url", NULL, "The company's own website the page links back to, not the page's address; the account's status page has no column for it." },
	{ "page_description", NULL, "The page's description has no place in the account." },
	{ "headline", NULL, "The page's headline has no place in the account." },
	{ "support_url", NULL, "The page's link to the company's support site has no place in the account." },
	{ "branding", NULL, "Statuspage's branding plan (basic or premium) has no place in the account." },
	{ "hidden_from_search", NULL, "Hiding the page from search engines is not carried." },
	{ "ip_restrictions", NULL, "The network addresses the page is limited to are not carried." },
	{ "allow_page_subscribers", NULL, "Which subscriptions the page offers is not carried." },
	{ "allow_incident_subscribers", NULL, "Which subscriptions the page offers is not carried." },
	{ "allow_email_subscribers", NULL, "Which subscriptions the page offers is not carried." },
	{ "allow_sms_subscribers", NULL, "Which subscriptions the page offers is not carried." },
	{ "allow_webhook_subscribers", NULL, "Which subscriptions the page offers is not carried." },
	{ "allow_rss_atom_feeds", NULL, "Whether the page offers RSS and Atom feeds is not carried." },
	{ "notifications_from_email", NULL, "The sender of the page's notification e-mails is not carried." },
	{ "notifications_email_footer", NULL, "The footer of the page's notification e-mails is not carried." },
	{ "twitter_username", NULL, "The page's Twitter account has no place in the account." },
	{ "city", NULL, "The company's address has no place in the account." },
	{ "state", NULL, "The company's address has no place in the account." },
	{ "country", NULL, "The company's address has no place in the account." },
	{ "css_body_background_color", NULL, "The page's colours have no place in the account." },
	{ "css_font_color", NULL, "The page's colours have no place in the account." },
	{ "css_light_font_color", NULL, "The page's colours have no place in the account." },
	{ "css_greens", NULL, "The page's colours have no place in the account." },
	{ "css_yellows", NULL, "The page's colours have no place in the account." },
	{ "css_oranges", NULL, "The page's colours have no place in the account." },
	{ "css_blues", NULL, "The page's colours have no place in the account." },
	{ "css_reds", NULL, "The page's colours have no place in the account." },
	{ "css_border_color", NULL, "The page's colours have no place in the account." },
	{ "css_graph_color", NULL, "The page's colours have no place in the account." },
	{ "css_link_color", NULL, "The page's colours have no place in the account." },
	{ "css_no_data", NULL, "The page's colours have no place in the account." },
	{ "favicon_logo", NULL, "The page's images are not carried." },
	{ "transactional_logo", NULL, "The page's images are not carried." },
	{ "hero_cover", NULL, "The page's images are not carried." },
	{ "email_logo", NULL, "The page's images are not carried." },
	{ "twitter_logo", NULL, "The page's images are not carried." },
	{ "activity_score", NULL, "State at Statuspage, not a setting." },
	{ "created_at", NULL, "State at Statuspage, not a setting." },
	{ "updated_at", NULL, "State at Statuspage, not a setting." },
	{ "components[].name", "`status_page_monitors.name`", "one entry per component that is not a group's row, in the order listed; else its id" },
	{ "components[].group_id", "`status_page_monitors.section`", "the name of that group; a group no list names: NULL, with a warning" },
	{ "components[].group", "`status_page_monitors.section`", "`true`: the group's own row, which only names its section (no entry)" },
	{ "components[].id", "`status_page_subscribers.components`, `status_page_incidents.components`", "not kept itself: it names the component's entry (its position) for the subscribers and incidents that follow or affect it" },
	{ "components[].position", NULL, "The entries keep the order the components are listed in, not this number." },
	{ "components[].status", NULL, "The component's live state, not a setting." },
	{ "components[].description", NULL, "A component's description has no place in the account." },
	{ "components[].showcase", NULL, "Whether the page shows the component's uptime bar is not carried." },
	{ "components[].only_show_if_degraded", NULL, "Showing the component only while it is degraded is not carried." },
	{ "components[].start_date", NULL, "The day the component's history starts has no place in the account." },
	{ "components[].automation_email", NULL, "The address that sets the component's state by e-mail works only at Statuspage: tools that write to it must be pointed elsewhere." },
	{ "components[].page_id", NULL, "The page's own id again: nothing is lost." },
	{ "components[].created_at", NULL, "State at Statuspage, not a setting." },
	{ "components[].updated_at", NULL, "State at Statuspage, not a setting." },
	{ "component_groups[].id", "`status_page_monitors.section`", "the section of the components naming it in `group_id`" },
	{ "component_groups[].name", "`status_page_monitors.section`", NULL },
	{ "component_groups[].components", "`status_page_monitors.section`", "the section of a listed component without a `group_id`" },
	{ "component_groups[].description", NULL, "A group's description has no place in the account." },
	{ "component_groups[].position", NULL, "The entries keep the order the components are listed in, not the groups' order." },
	{ "component_groups[].page_id", NULL, "The page's own id again: nothing is lost." },
	{ "component_groups[].created_at", NULL, "State at Statuspage, not a setting." },
	{ "component_groups[].updated_at", NULL, "State at Statuspage, not a setting." },
	SP_HISTORY("incidents"),
	SP_HISTORY("maintenances"),
	{ NULL, NULL, NULL }
};
static const struct prov_field subscriber_fields[] = {
	{ "id", "`import_links`", "the external id; `status_page_id` is the page it was listed for" },
	{ "mode", "`status_page_subscribers.kind`", "see the modes below" },
	{ "email", "`status_page_subscribers.address`", "of an e-mail subscriber, or of a Slack or other one without a better address (a webhook subscriber's `email`, where Statuspage writes when the webhook fails, is not kept)" },
	{ "display_phone_number", "`status_page_subscribers.address`", "of an SMS subscriber" },
	{ "phone_country", "`status_page_subscribers.address`", "of an SMS subscriber without `display_phone_number`: `<phone_country> <phone_number>`" },
	{ "phone_number", "`status_page_subscribers.address`", "of an SMS subscriber without `display_phone_number`" },
	{ "endpoint", "`status_page_subscribers.address`", "of a webhook (or Teams) subscriber" },
	{ "workspace_name", "`status_page_subscribers.address`", "of a Slack subscriber: `<workspace_name>/<obfuscated_channel_name>`" },
	{ "obfuscated_channel_name", "`status_page_subscribers.address`", "of a Slack subscriber (Statuspage shows the channel only obfuscated)" },
	{ "components", "`status_page_subscribers.components`", "the positions of the components' entries on the page; none: every component (NULL); a component the page does not list is left out, with a warning" },
	{ "quarantined_at", "`status_page_subscribers.state`", "set: `quarantined` (the date is not kept); else the list it was read from, `active` or `unconfirmed`" },
	{ "created_at", "`status_page_subscribers.subscribed_on`", "its UTC date" },
	{ "purge_at", NULL, "When Statuspage would delete the quarantined subscriber: state at Statuspage, not kept." },
	{ "skip_confirmation_notification", NULL, "A switch for creating subscribers (no confirmation e-mail), not kept." },
	{ "page_access_user_id", NULL, "The viewer of an audience-specific page it belongs to; viewers are not imported." },
	{ NULL, NULL, NULL }
};
/* clang-format on */

const struct prov_fields statuspage_fields[] = {
	{ "status_page",
	    "page (`GET /v1/pages`) with its `component_groups`, `components`, `incidents` (`GET /v1/pages/{page_id}/incidents`) and `maintenances` (`GET /v1/pages/{page_id}/incidents/scheduled`)",
	    page_fields },
	{ "status_page_subscriber", "subscriber (`GET /v1/pages/{page_id}/subscribers`)", subscriber_fields },
	{ NULL, NULL, NULL },
};
