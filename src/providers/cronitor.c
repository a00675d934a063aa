/* Cronitor REST API (providers.md §7 and §12; docs/providers/cronitor.md).
 *
 * GET with HTTP Basic auth (the API key as user name, an empty password) and
 * "Cronitor-Version: 2020-10-01". Lists are paged by page (from 1); a phase
 * ends on an empty page, when page * page_size reaches the total, without a
 * total on a page shorter than the page size, or when the answer is for
 * another page than the one asked for ("page" may be a string). Cursors:
 *
 *   "monitors:<page>"       GET /api/monitors?page=<page>; then, in the same
 *                           fetch, GET /api/notifications?page=1.. (at most
 *                           CR_LIST_PAGES) when a monitor notifies a list, so
 *                           that a list key links every target of the list.
 *   "notifications:<page>"  GET /api/notifications: one contact per target.
 *   "statuspages:<page>"    GET /api/statuspages?withComponents=true
 *   "maintenance:<page>"    GET /api/maintenance_windows (shape unconfirmed:
 *                           read tolerantly, skipped with a warning if not).
 *
 * A contact's external id is what it reaches, "<kind>:<address>", so a list
 * target, the same address in another list and a direct "email:…"
 * destination in a monitor's notify are one contact; the address is hashed
 * when it is long, and always but for e-mail, SMS, Slack and Telegram: a
 * webhook URL or an integration key is a secret, and an external id is shown. Keys carry
 * per-resource scopes: 401/403 on the monitors list is a bad key, on a later
 * list it skips that kind with a warning and the run goes on. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "core/url.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"
#include "providers/fields.h"

#define CR             "Cronitor"
#define CR_PAGE_SIZE   50
#define CR_MAX_TARGETS 100 /* targets of one kind taken from one notification list */
#define CR_LIST_PAGES  20  /* notification list pages read to resolve a page of monitors */
#define CR_MAX_NOTIFY  100 /* notify entries read from one monitor */
#define CR_MAX_ID      160 /* longest "<kind>:<address>" kept as written; longer is hashed */

enum { PH_MONITORS, PH_NOTIFICATIONS, PH_STATUSPAGES, PH_MAINT };
static const char *const phases[] = { "monitors", "notifications", "statuspages", "maintenance", NULL };
static const char *const list_keys[] = { "monitors", "templates", "data", "data" };
/* The kind names of prov_skip_kind, per phase. */
static const char *const kind_names[] = { "monitors", "notifications", "status pages",
	"maintenance windows" };

/* Notification targets: the key under a list's "notifications", the tag of
 * the contact id (also the prefix of a direct notify destination), the
 * normalized type ("other": no equivalent, warned) and a label. */
static const struct cr_kind {
	const char *list, *tag, *norm, *label;
	/* clang-format off */
} kinds[] = {
	{ "emails", "email", "email", "e-mail" }, { "phones", "sms", "sms", "SMS" },
	{ "slack", "slack", "slack", "Slack" }, { "webhooks", "webhook", "webhook", "webhook" },
	{ "pagerduty", "pagerduty", "pagerduty", "PagerDuty" },
	{ "opsgenie", "opsgenie", "opsgenie", "Opsgenie" },
	{ "microsoft-teams", "microsoft-teams", "teams", "Microsoft Teams" },
	{ "telegram", "telegram", "telegram", "Telegram" }, { "discord", "discord", "discord", "Discord" },
	{ "victorops", "victorops", "other", "Splunk On-Call (VictorOps)" },
	{ "gchat", "gchat", "other", "Google Chat" }, { "larksuite", "larksuite", "other", "Lark" },
	{ NULL, NULL, NULL, NULL }
};
/* clang-format on */

/* The notification lists a page of monitors resolves its list keys with. */
struct cr_links {
	json_object *map; /* list key -> array of contact ids; NULL: not read */
	long refused;     /* HTTP status when the key may not read them, else 0 */
};

/* ------------------------------------------------------------- helpers */

/* The target kind whose list key or tag is s[0..n), or NULL. */
static const struct cr_kind *
kind_find(const char *s, size_t n)
{
	for (size_t i = 0; kinds[i].list != NULL; i++)
		if ((strlen(kinds[i].list) == n && strncmp(s, kinds[i].list, n) == 0) ||
		    (strlen(kinds[i].tag) == n && strncmp(s, kinds[i].tag, n) == 0))
			return &kinds[i];
	if (n == 5 && strncmp(s, "phone", 5) == 0)
		return &kinds[1];
	if (n == 5 && strncmp(s, "teams", 5) == 0)
		return &kinds[6];
	return NULL;
}

/* The contact id of a target: "<tag>:<value>" for an e-mail address, phone
 * number, Slack channel or Telegram chat, else (a secret), or when that is
 * long or holds control characters, "<tag>:#<hash>". */
static void
contact_xid(const char *tag, const char *value, char *out, size_t size)
{
	static const char *const shown[] = { "email", "sms", "slack", "telegram", NULL };
	size_t n = strlen(value);
	bool fits = strlen(tag) + 1 + n <= CR_MAX_ID && size > CR_MAX_ID, address = false;

	for (size_t i = 0; shown[i] != NULL; i++)
		address |= strcmp(tag, shown[i]) == 0;
	if (fits && address && !has_control(value, n)) {
		snprintf(out, size, "%s:%s", tag, value);
		return;
	}
	{
		unsigned char h[16];
		char hex[sizeof h * 2 + 1];

		crypto_generichash(h, sizeof h, (const unsigned char *)value, n, NULL, 0);
		sodium_bin2hex(hex, sizeof hex, h, sizeof h);
		snprintf(out, size, "%s:#%s", tag, hex);
	}
}

/* Append id to the array of ids unless it is there. */
static void
ids_add(json_object *ids, const char *id)
{
	for (size_t i = 0; i < json_object_array_length(ids); i++)
		if (strcmp(json_object_get_string(json_object_array_get_idx(ids, i)), id) == 0)
			return;
	if (json_object_array_length(ids) < PROV_MAX_ITEMS)
		json_object_array_add(ids, json_object_new_string(id));
}

static bool
page_has(const struct prov_page *page, const char *type, const char *id)
{
	for (size_t i = 0; i < page->n; i++)
		if (strcmp(page->items[i].resource_type, type) == 0 &&
		    strcmp(page->items[i].external_id, id) == 0)
			return true;
	return false;
}

/* A contact for one target, once a page (a later page refreshes it). */
static void
add_contact(struct prov_page *page, const char *xid, const char *name, const struct cr_kind *k,
    const char *value, json_object *raw)
{
	struct prov_contact ct = { .name = name, .type = k != NULL ? k->norm : "other", .value = value };

	if (page_has(page, "contact", xid)) {
		json_object_put(raw);
		return;
	}
	prov_page_add(page, "contact", xid, raw, prov_norm_contact(&ct));
}

/* A readable target string, or NULL. */
static const char *
target_text(json_object *e)
{
	const char *s;

	if (!json_object_is_type(e, json_type_string) || json_object_get_string_len(e) > PROV_MAX_STR)
		return NULL;
	s = json_object_get_string(e);
	while (isspace((unsigned char)*s))
		s++;
	return *s != '\0' ? s : NULL;
}

/* --------------------------------------------------- notification lists */

typedef void (*target_fn)(const struct cr_kind *k, const char *tag, const char *value, void *ctx);

/* Call fn for every target of notification list t; the number of targets.
 * An unknown kind has k NULL and its own name as tag. */
static size_t
list_targets(json_object *t, target_fn fn, void *ctx)
{
	json_object *notes = prov_get_object(t, "notifications");
	size_t n = 0;

	if (notes == NULL)
		return 0;
	json_object_object_foreach (notes, kind, list) {
		const struct cr_kind *k = kind_find(kind, strlen(kind));
		char tag[48];

		if (!json_object_is_type(list, json_type_array))
			continue;
		prov_copy_text(tag, sizeof tag, k != NULL ? k->tag : kind);
		for (size_t i = 0; i < json_object_array_length(list) && i < CR_MAX_TARGETS; i++) {
			const char *v = target_text(json_object_array_get_idx(list, i));

			if (v != NULL) {
				fn(k, tag, v, ctx);
				n++;
			}
		}
	}
	return n;
}

struct emit_ctx {
	json_object *t;
	const char *name;
	struct prov_page *page;
	char warned[8][48]; /* kinds without an equivalent already warned about */
	size_t nwarned;
};

static void
emit_target(const struct cr_kind *k, const char *tag, const char *value, void *arg)
{
	struct emit_ctx *c = arg;
	char xid[192];

	if (k == NULL || strcmp(k->norm, "other") == 0) {
		bool seen = false;

		for (size_t i = 0; i < c->nwarned; i++)
			seen |= strcmp(c->warned[i], tag) == 0;
		if (!seen && c->nwarned < 8) {
			snprintf(c->warned[c->nwarned++], sizeof c->warned[0], "%s", tag);
			prov_page_warn(c->page,
			    CR " notification list \"%s\" has %s targets, which have no "
			       "equivalent; kept as contacts of type other",
			    c->name, k != NULL ? k->label : tag);
		}
	}
	contact_xid(tag, value, xid, sizeof xid);
	add_contact(c->page, xid, c->name, k, value, json_object_get(c->t));
}

/* A notification list: one contact per target (email, SMS, Slack, webhook, ...). */
static void
add_template(json_object *t, const char *id, struct prov_page *page)
{
	struct emit_ctx c = { .t = t, .page = page, .nwarned = 0 };

	c.name = prov_get_text(t, "name", PROV_MAX_STR);
	if (c.name == NULL)
		c.name = id;
	if (list_targets(t, emit_target, &c) == 0)
		prov_page_warn(page, CR " notification list \"%s\" has no targets; nothing to import",
		    c.name);
}

static void
collect_target(const struct cr_kind *k, const char *tag, const char *value, void *arg)
{
	char xid[192];

	(void)k;
	contact_xid(tag, value, xid, sizeof xid);
	ids_add(arg, xid);
}

/* Add the lists of one answer of /api/notifications to map. */
static void
map_templates(json_object *list, json_object *map)
{
	char key[160];

	for (size_t i = 0; i < json_object_array_length(list) && i < PROV_MAX_ITEMS; i++) {
		json_object *t = json_object_array_get_idx(list, i), *ids;

		if (prov_get_id(t, "key", key, sizeof key) != 0)
			continue;
		ids = json_object_new_array();
		list_targets(t, collect_target, ids);
		json_object_object_add(map, key, ids);
	}
}

/* ------------------------------------------------------------- monitors */

/* Seconds of a length of time written "every <n> <unit>" ("every hour" = 1
 * hour), or when !every also "<n> <unit>" ("8 hours"), or -1 when s is not of
 * that form. */
static int64_t
span_seconds(const char *s, bool every)
{
	static const struct {
		const char *unit;
		int64_t secs;
	} units[] = { { "s", 1 }, { "sec", 1 }, { "secs", 1 }, { "second", 1 }, { "seconds", 1 }, { "m", 60 },
		{ "min", 60 }, { "mins", 60 }, { "minute", 60 }, { "minutes", 60 }, { "h", 3600 },
		{ "hr", 3600 }, { "hrs", 3600 }, { "hour", 3600 }, { "hours", 3600 }, { "d", 86400 },
		{ "day", 86400 }, { "days", 86400 }, { "w", 604800 }, { "week", 604800 }, { "weeks", 604800 },
		{ NULL, 0 } };
	int64_t n = 0;
	size_t ulen;

	if (s == NULL)
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	if (strncasecmp(s, "every", 5) == 0 && isspace((unsigned char)s[5])) {
		s += 5;
		while (isspace((unsigned char)*s))
			s++;
	} else if (every || !isdigit((unsigned char)*s))
		return -1;
	if (isdigit((unsigned char)*s)) {
		while (isdigit((unsigned char)*s)) {
			n = n * 10 + (*s++ - '0');
			if (n > 100000000)
				return -1;
		}
		while (isspace((unsigned char)*s))
			s++;
	} else
		n = 1;
	ulen = strcspn(s, " \t");
	if (n <= 0 || ulen == 0 || s[ulen + strspn(s + ulen, " \t")] != '\0')
		return -1;
	for (size_t i = 0; units[i].unit != NULL; i++)
		if (strlen(units[i].unit) == ulen && strncasecmp(s, units[i].unit, ulen) == 0)
			return n * units[i].secs;
	return -1;
}

/* True when s looks like a cron expression: 5 to 7 fields of cron
 * characters, or an @-macro such as "@daily". */
static bool
is_cron(const char *s)
{
	size_t fields = 0;

	if (s == NULL)
		return false;
	if (s[0] == '@')
		return strspn(s + 1, "abcdefghijklmnopqrstuvwxyz") == strlen(s + 1) && s[1] != '\0';
	while (*s != '\0') {
		size_t n;

		s += strspn(s, " \t");
		if (*s == '\0')
			break;
		for (n = 0; s[n] != '\0' && s[n] != ' ' && s[n] != '\t'; n++)
			if (!isalnum((unsigned char)s[n]) && strchr("*/,-?#", s[n]) == NULL)
				return false;
		fields++;
		s += n;
	}
	return fields >= 5 && fields <= 7;
}

/* The schedule: "schedule", else the first of "schedules" (more warned). */
static const char *
schedule_of(json_object *m, const char *name, struct prov_page *page)
{
	const char *s = prov_get_text(m, "schedule", 255);
	json_object *all = prov_get_array(m, "schedules");

	if (s == NULL && all != NULL && json_object_array_length(all) > 0 &&
	    json_object_is_type(json_object_array_get_idx(all, 0), json_type_string) &&
	    json_object_get_string_len(json_object_array_get_idx(all, 0)) <= 255)
		s = json_object_get_string(json_object_array_get_idx(all, 0));
	if (all != NULL && json_object_array_length(all) > 1)
		prov_page_warn(page, CR " monitor \"%s\" has %zu schedules; only the first was kept", name,
		    json_object_array_length(all));
	return s != NULL && *s != '\0' ? s : NULL;
}

/* Link one notify entry: a direct destination ("email:…", "slack:#…") is its
 * own contact; anything else names a list, which links all its targets.
 * False when it names a list and the lists could not be read. */
static bool
link_entry(const char *e, const char *name, const struct cr_links *l, json_object *ids,
    struct prov_page *page)
{
	const char *colon = strchr(e, ':');
	const struct cr_kind *k = colon != NULL ? kind_find(e, (size_t)(colon - e)) : NULL;
	json_object *targets;
	char xid[192], eb[80];

	if (k != NULL && colon[1] != '\0') {
		contact_xid(k->tag, colon + 1, xid, sizeof xid);
		add_contact(page, xid, colon + 1, k, colon + 1, json_object_new_string(e));
		ids_add(ids, xid);
		return true;
	}
	if (l == NULL || l->map == NULL)
		return l == NULL; /* lists not read: the caller warned */
	if (!json_object_object_get_ex(l->map, e, &targets)) {
		prov_copy_text(eb, sizeof eb, e);
		prov_page_warn(page,
		    CR " monitor \"%s\" notifies \"%s\", which is neither a notification "
		       "list nor a known destination; not linked",
		    name, eb);
		return true;
	}
	for (size_t i = 0; i < json_object_array_length(targets); i++)
		ids_add(ids, json_object_get_string(json_object_array_get_idx(targets, i)));
	return true;
}

/* contact_ids of monitor m from notify: a list of list keys and direct
 * destinations, or the map form {"alerts":[…],"events":{…}}; omitted: the
 * "default" list. *unread when it names a list that could not be read. */
static json_object *
notify_links(json_object *m, const char *name, const struct cr_links *l, struct prov_page *page, bool *unread)
{
	json_object *ids = json_object_new_array(), *notify = prov_get(m, "notify"), *list = NULL;

	*unread = false;
	if (notify == NULL) {
		*unread = !link_entry("default", name, l, ids, page);
		return ids;
	}
	if (json_object_is_type(notify, json_type_object))
		list = prov_get_array(notify, "alerts");
	else if (json_object_is_type(notify, json_type_array))
		list = notify;
	else if (target_text(notify) != NULL)
		*unread = !link_entry(target_text(notify), name, l, ids, page);
	for (size_t i = 0; list != NULL && i < json_object_array_length(list) && i < CR_MAX_NOTIFY; i++) {
		const char *e = target_text(json_object_array_get_idx(list, i));

		if (e != NULL && !link_entry(e, name, l, ids, page))
			*unread = true;
	}
	return ids;
}

/* norm with its alert links marked unread when unread (notify_links). */
static json_object *
links_read(json_object *norm, bool unread)
{
	if (unread)
		prov_unread(norm, "the notification lists were refused for this key", prov_contact_keys);
	return norm;
}

static void assertions_warn(json_object *m, const char *name, struct prov_page *page);

/* The longest alert delay or repeat the account keeps (importer.c). */
#define CR_MAX_SECONDS 100000000

/* realert_interval ("every 8 hours", "1 hour"; monitor-api, monitor-yaml:
 * how long Cronitor waits before repeating an alert) in seconds, or 0 when
 * absent; text that is no length of time is warned and 0. */
static int64_t
realert_of(json_object *m, const char *name, struct prov_page *page)
{
	const char *s = prov_get_text(m, "realert_interval", 64);
	int64_t secs = span_seconds(s, false);
	char sb[80];

	if (secs > 0 && secs <= CR_MAX_SECONDS)
		return secs;
	if (prov_get(m, "realert_interval") != NULL) {
		prov_copy_text(sb, sizeof sb, s != NULL ? s : "(not text)");
		prov_page_warn(page,
		    CR " monitor \"%s\" repeats its alerts at \"%s\", which is not a length of time; "
		       "the account's default applies",
		    name, sb);
	}
	return 0;
}

/* The field tables (at the end) map the fields that are copied as they are. */
static const struct prov_field check_fields[], job_fields[], page_fields[], window_fields[];

static void
add_heartbeat(json_object *m, const char *id, const char *name, const struct cr_links *l,
    struct prov_page *page)
{
	struct prov_heartbeat h = { 0 };
	const char *schedule = schedule_of(m, name, page);
	int64_t every = span_seconds(schedule, true), grace = 0;
	bool unread;

	prov_map(job_fields, m, &h);
	h.name = name;
	h.paused = h.paused || prov_get_bool(m, "disabled", false);
	h.contact_ids = notify_links(m, name, l, page, &unread);
	h.realert_s = realert_of(m, name, page);
	assertions_warn(m, name, page); /* metric.duration and the like have no equivalent */
	if (prov_get_int_in(m, "grace_seconds", 0, INT32_MAX, &grace))
		h.grace = grace;
	if (every > 0)
		h.interval = every;
	else if (schedule != NULL) {
		h.schedule = schedule;
		if (!is_cron(schedule)) {
			char sb[80];

			prov_copy_text(sb, sizeof sb, schedule);
			prov_page_warn(page,
			    CR " monitor \"%s\" has the schedule \"%s\", which is neither a "
			       "cron expression nor an interval; it was kept as written: review it",
			    name, sb);
		}
	}
	prov_page_add(page, "heartbeat", id, json_object_get(m), links_read(prov_norm_heartbeat(&h), unread));
}

/* What a check's assertions say: a keyword, expected codes and the
 * certificate's days where the account has columns for them, every other
 * assertion in the account's list; those not of Cronitor's form are warned. */
struct cr_assert {
	char *keyword;       /* malloc'd */
	const char *up_when; /* "present" | "absent" */
	json_object *codes;  /* expected status codes */
	int64_t ssl_days;
	json_object *list;   /* prov_assertion()s */
	size_t other;        /* assertions not read */
	const char *example; /* the first of them */
};

/* Cronitor's assertion subjects (monitor-api "assertions": "{assertion}
 * {operator} {value}", with a key after response.json and response.header)
 * and the source each is in the account's assertions. */
/* clang-format off */
static const struct prov_map subjects[] = {
	{ "response.code", "status" }, { "response.body", "body" }, { "response.header", "header" },
	{ "response.json", "json" }, { "response.time", "time" },
	{ "resource.last_modified", "last_modified" }, { "resource.item_count", "item_count" },
	{ "resource.public", "public" }, { "ssl_certificate.expires_in", "ssl_expires_in" }, { NULL, NULL }
};
/* Its operators, in words. */
static const struct prov_map operators[] = {
	{ "<", "less than" }, { "<=", "at most" }, { "=", "equals" }, { "==", "equals" },
	{ "!=", "does not equal" }, { ">=", "at least" }, { ">", "greater than" },
	{ "contains", "contains" }, { "!contains", "does not contain" }, { NULL, NULL }
};
/* clang-format on */

/* The to of the from that is the word s[0..n) in map, or NULL. */
static const char *
map_word(const struct prov_map *map, const char *s, size_t n)
{
	for (size_t i = 0; map[i].from != NULL; i++)
		if (strlen(map[i].from) == n && strncmp(map[i].from, s, n) == 0)
			return map[i].to;
	return NULL;
}

/* The value of an assertion after its operator: unquoted, malloc'd, or NULL. */
static char *
assert_value(const char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
		s++;
		n -= 2;
	}
	return n > 0 && n <= PROV_MAX_STR ? xstrndup(s, n) : NULL;
}

/* The next word of *s (its length; *s moved past it and the blanks after). */
static size_t
next_word(const char **s, const char **word)
{
	size_t n;

	*s += strspn(*s, " \t");
	*word = *s;
	n = strcspn(*s, " \t");
	*s += n;
	*s += strspn(*s, " \t");
	return n;
}

/* One assertion "<subject> [<key>] <operator> <value>" into r; false when it
 * is not of that form. */
static bool
read_assertion(const char *s, struct cr_assert *r)
{
	const char *subj, *key = NULL, *op, *source, *words;
	size_t ns = next_word(&s, &subj), nk = 0, no;
	char *v, *property, *src;
	long long days;
	int digits;

	source = map_word(subjects, subj, ns);
	if (ns == 0 || ns > 64)
		return false;
	if (source != NULL && (strcmp(source, "header") == 0 || strcmp(source, "json") == 0))
		nk = next_word(&s, &key);
	no = next_word(&s, &op);
	if ((words = map_word(operators, op, no)) == NULL || (key != NULL && (nk == 0 || nk > 255)) ||
	    (v = assert_value(s)) == NULL)
		return false;
	if (source != NULL && strcmp(source, "body") == 0 && r->keyword == NULL &&
	    strcmp(words, "contains") == 0) {
		r->up_when = "present";
		r->keyword = v;
		return true;
	}
	if (source != NULL && strcmp(source, "body") == 0 && r->keyword == NULL &&
	    strcmp(words, "does not contain") == 0) {
		r->up_when = "absent";
		r->keyword = v;
		return true;
	}
	if (source != NULL && strcmp(source, "status") == 0 && strcmp(words, "equals") == 0 &&
	    strlen(v) == 3 && strspn(v, "0123456789") == 3) {
		ids_add(r->codes, v);
		free(v);
		return true;
	}
	/* at most 5 digits: no conversion out of range */
	digits = (int)strspn(v, "0123456789");
	if (source != NULL && strcmp(source, "ssl_expires_in") == 0 && r->ssl_days == 0 && digits >= 1 &&
	    digits <= 5 && (days = strtoll(v, NULL, 10)) > 0 &&
	    strncasecmp(v + digits + strspn(v + digits, " "), "day", 3) == 0) {
		r->ssl_days = days;
		free(v);
		return true;
	}
	/* any other subject (one Cronitor adds) is its source as Cronitor names it */
	property = key != NULL ? xstrndup(key, nk) : NULL;
	src = xstrndup(subj, ns);
	json_object_array_add(r->list, prov_assertion(source != NULL ? source : src, property, words, v));
	free(src);
	free(property);
	free(v);
	return true;
}

static void
read_assertions(json_object *m, const char *name, struct cr_assert *r, struct prov_page *page)
{
	json_object *as = prov_get_array(m, "assertions");
	char eb[80];

	for (size_t i = 0; as != NULL && i < json_object_array_length(as) && i < 100; i++) {
		json_object *a = json_object_array_get_idx(as, i);
		const char *s = target_text(a);

		if (s == NULL || read_assertion(s, r))
			continue;
		if (r->other++ == 0)
			r->example = s;
	}
	if (r->other > 0) {
		prov_copy_text(eb, sizeof eb, r->example);
		prov_page_warn(page,
		    CR " monitor \"%s\" has %zu assertion%s not of the form \"<assertion> "
		       "<operator> <value>\" (e.g. \"%s\"); not imported",
		    name, r->other, r->other == 1 ? "" : "s", eb);
	}
}

/* A heartbeat's assertions: none has an equivalent (warned). */
static void
assertions_warn(json_object *m, const char *name, struct prov_page *page)
{
	json_object *all = prov_get_array(m, "assertions");
	const char *first = NULL;
	size_t n = 0;
	char eb[80];

	for (size_t i = 0; all != NULL && i < json_object_array_length(all) && i < 100; i++) {
		const char *s = target_text(json_object_array_get_idx(all, i));

		if (s != NULL && n++ == 0)
			first = s;
	}
	if (n == 0)
		return;
	prov_copy_text(eb, sizeof eb, first);
	prov_page_warn(page,
	    CR " monitor \"%s\" has %zu assertion%s without an equivalent (e.g. "
	       "\"%s\"); not imported",
	    name, n, n == 1 ? "" : "s", eb);
}

static enum prov_tri
tri(json_object *o, const char *key)
{
	if (prov_get(o, key) == NULL)
		return PROV_UNSET;
	return prov_get_bool(o, key, false) ? PROV_YES : PROV_NO;
}

/* A check's basic-auth login. Cronitor's request has no field of its own
 * for one (monitor-yaml "request": url, method, body, headers, cookies, ...):
 * it is a header "Authorization: Basic <base64 of user:password>" or a URL's
 * "user:password@". All malloc'd; the password is wiped. */
struct cr_login {
	char *user, *password;
	char *url; /* the check's URL without its login */
};

#define CR_MAX_USER     255  /* monitors.auth_username */
#define CR_MAX_PASSWORD 1000 /* what the account seals (importer.c: 1400 characters of base64) */

static void
login_clear(struct cr_login *l)
{
	free(l->user);
	if (l->password != NULL)
		sodium_memzero(l->password, strlen(l->password));
	free(l->password);
	l->user = l->password = NULL;
}

/* user and password (malloc'd, either may be NULL) into l when they fit the
 * account's columns; else freed. True when taken. */
static bool
login_set(struct cr_login *l, char *user, char *password)
{
	struct cr_login got = { user, password, NULL };

	if ((user == NULL && password == NULL) || (user != NULL && strlen(user) > CR_MAX_USER) ||
	    (password != NULL && strlen(password) > CR_MAX_PASSWORD)) {
		login_clear(&got);
		return false;
	}
	login_clear(l);
	l->user = user;
	l->password = password;
	return true;
}

/* The login of an Authorization header's value "Basic <base64>" into l; false
 * (l unchanged) when v is not one that fits. */
static bool
basic_login(const char *v, struct cr_login *l)
{
	unsigned char buf[CR_MAX_USER + 1 + CR_MAX_PASSWORD + 1];
	const unsigned char *colon;
	size_t n = 0;
	bool ok = strncasecmp(v, "Basic", 5) == 0 && (v[5] == ' ' || v[5] == '\t');

	if (ok) {
		v += 5 + strspn(v + 5, " \t");
		ok = sodium_base642bin(buf, sizeof buf - 1, v, strlen(v), " \t", &n, NULL,
		         sodium_base64_VARIANT_ORIGINAL) == 0;
	}
	ok = ok && utf8_plain((const char *)buf, n);
	colon = ok ? memchr(buf, ':', n) : NULL;
	if (colon != NULL)
		ok = login_set(l, colon > buf ? xstrndup((const char *)buf, (size_t)(colon - buf)) : NULL,
		    (size_t)(colon - buf) + 1 < n ?
		        xstrndup((const char *)colon + 1, n - (size_t)(colon - buf) - 1) :
		        NULL);
	sodium_memzero(buf, sizeof buf);
	return ok && colon != NULL;
}

/* The login of a check's URL (holder's member "url") taken out of it: *url
 * becomes login->url, and the stored copy shows "[redacted]" in its place. */
static void
url_login(json_object *holder, const char **url, struct cr_login *login, const char *name,
    struct prov_page *page)
{
	char *user, *password, *bare, *shown;
	const char *auth;

	if (*url == NULL || url_take_login(*url, &bare, &user, &password) == 0)
		return;
	*url = login->url = bare;
	auth = strstr(bare, "://") + 3;
	shown = xasprintf("%.*s[redacted]@%s", (int)(auth - bare), bare, auth);
	json_object_object_add(holder, "url", json_object_new_string(shown));
	free(shown);
	if (!login_set(login, user, password))
		prov_page_warn(page,
		    CR " check \"%s\" has a login in its URL that cannot be kept (empty, too long or "
		       "with control characters or not UTF-8); it was not imported: enter it again",
		    name);
}

/* Method, body, headers, timeout, redirects and TLS of a check's request; a
 * basic-auth Authorization header is its login (and "[redacted]" in the
 * stored copy), not a header. */
static void
read_request(json_object *rq, const char *name, struct prov_monitor *mon, char *method,
    struct cr_login *login, struct prov_page *page)
{
	static const char *const methods[] = { "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
		NULL };
	const char *mt = prov_get_text(rq, "method", 15);
	json_object *hdrs = prov_get_object(rq, "headers");
	int64_t timeout;

	if (mt != NULL) {
		size_t i;

		for (i = 0; mt[i] != '\0'; i++)
			method[i] = (char)toupper((unsigned char)mt[i]);
		method[i] = '\0';
		for (i = 0; methods[i] != NULL && strcmp(methods[i], method) != 0; i++)
			;
		if (methods[i] != NULL)
			mon->http_method = method;
		else
			prov_page_warn(page, CR " monitor \"%s\" uses an unknown request method; left unset",
			    name);
	}
	mon->request_body = prov_get_text(rq, "body", PROV_MAX_STR);
	if (hdrs != NULL) {
		size_t n = 0;

		char *basic = NULL;
		bool had = login->user != NULL || login->password != NULL;

		mon->request_headers = json_object_new_object();
		json_object_object_foreach (hdrs, hk, hv) {
			bool text = json_object_is_type(hv, json_type_string) ||
			    json_object_is_type(hv, json_type_int);

			if (basic == NULL && strcasecmp(hk, "Authorization") == 0 && text &&
			    basic_login(json_object_get_string(hv), login))
				basic = xstrdup(hk);
			else if (n < 100 && strlen(hk) <= 256 && text &&
			    strlen(json_object_get_string(hv)) <= PROV_MAX_STR) {
				json_object_object_add(mon->request_headers, hk,
				    json_object_new_string(json_object_get_string(hv)));
				n++;
			}
		}
		if (basic != NULL) {
			json_object_object_add(hdrs, basic, json_object_new_string("[redacted]"));
			free(basic);
			if (had)
				prov_page_warn(page,
				    CR " check \"%s\" has a login in its URL and in its Authorization "
				       "header; the header's was imported",
				    name);
		}
	}
	if (prov_get_int(rq, "timeout_seconds", &timeout) && timeout > 0 && timeout < 3600)
		mon->timeout = timeout;
	mon->follow_redirects = tri(rq, "follow_redirects");
	mon->verify_ssl = tri(rq, "verify_ssl");
}

/* A check's address: http(s) keeps the whole URL; tcp/udp the host and port
 * (host[size] holds it). An explicit port of the URL is the monitor's port. */
static void
check_address(const char *url, const char *name, struct prov_monitor *mon, char *host, size_t size,
    struct prov_page *page)
{
	struct url u;
	bool parsed = url != NULL &&
	    url_parse(&u, NULL, url, CURLU_NON_SUPPORT_SCHEME | CURLU_ALLOW_SPACE) == CURLUE_OK;

	host[0] = '\0';
	mon->port = -1;
	if (parsed) {
		url_host_copy(&u, host, size);
		if (u.port != NULL)
			mon->port = u.port_num;
	}
	if (parsed && (strcmp(u.scheme, "http") == 0 || strcmp(u.scheme, "https") == 0)) {
		mon->url = url;
		mon->type = "http";
	} else if (parsed && (strcmp(u.scheme, "tcp") == 0 || strcmp(u.scheme, "udp") == 0) &&
	    host[0] != '\0') {
		mon->url = host;
		mon->type = u.scheme[0] == 't' ? "tcp" : "udp";
	} else {
		mon->url = url;
		mon->type = "other";
		prov_page_warn(page, CR " check \"%s\" has no web or TCP/UDP address to check; kept as other",
		    name);
	}
	if (parsed)
		url_free(&u);
}

static void
add_check(json_object *m, const char *id, const char *name, bool known, const struct cr_links *l,
    struct prov_page *page)
{
	struct prov_monitor mon = { 0 };
	struct cr_assert as = { .codes = json_object_new_array(), .list = json_object_new_array() };
	struct cr_login login = { 0 };
	bool unread;
	json_object *rq = prov_get_object(m, "request");
	const char *url = prov_get_text(rq, "url", PROV_MAX_STR), *schedule = schedule_of(m, name, page);
	int64_t every = span_seconds(schedule, true), n;
	char host[256], method[16], sb[80];

	prov_map(check_fields, m, &mon);
	if (url != NULL)
		url_login(rq, &url, &login, name, page);
	else if ((url = prov_get_text(m, "url", PROV_MAX_STR)) != NULL)
		url_login(m, &url, &login, name, page);
	mon.name = name;
	mon.paused = mon.paused || prov_get_bool(m, "disabled", false);
	mon.interval = every > 0 ? every : 60;
	if (every <= 0 && schedule != NULL) {
		prov_copy_text(sb, sizeof sb, schedule);
		prov_page_warn(page,
		    CR " monitor \"%s\" runs on the schedule \"%s\", which is not an "
		       "interval; it was imported with a 60-second interval",
		    name, sb);
	}
	check_address(url, name, &mon, host, sizeof host, page);
	if (!known)
		mon.type = "other"; /* warned by the caller */
	read_request(rq != NULL ? rq : m, name, &mon, method, &login, page);
	mon.auth_username = login.user;
	mon.auth_password = login.password;
	read_assertions(m, name, &as, page);
	mon.assertions = as.list;
	/* alert timing: failures tolerated (monitor-yaml "failure_tolerance"), the
	 * wait before an alert (monitor-api "grace_seconds": "If the monitor
	 * recovers during the grace period no alert will be sent"), the repeat */
	if (prov_get_int_in(m, "failure_tolerance", 0, 999999, &n))
		mon.alert_after_checks = n + 1;
	if (prov_get_int_in(m, "grace_seconds", 0, CR_MAX_SECONDS, &n))
		mon.alert_after_s = n;
	mon.realert_s = realert_of(m, name, page);
	if (as.keyword != NULL && strcmp(mon.type, "http") == 0)
		mon.type = "keyword";
	mon.keyword = as.keyword;
	mon.keyword_up_when = as.up_when;
	mon.expected_status_codes = as.codes;
	mon.ssl_expiry_days = as.ssl_days;
	if (prov_get(m, "regions") == NULL)
		mon.regions = prov_str_list(prov_get(rq, "regions"), ',');
	mon.contact_ids = notify_links(m, name, l, page, &unread);
	prov_page_add(page, "monitor", id, json_object_get(m), links_read(prov_norm_monitor(&mon), unread));
	free(as.keyword);
	login_clear(&login);
	free(login.url);
}

static void
add_monitor(json_object *m, const char *id, const struct cr_links *l, struct prov_page *page)
{
	const char *name = prov_get_text(m, "name", PROV_MAX_STR);
	const char *type = prov_get_str(m, "type", 32);
	char tb[40];

	if (name == NULL)
		name = id;
	if (type != NULL && (strcmp(type, "job") == 0 || strcmp(type, "heartbeat") == 0)) {
		add_heartbeat(m, id, name, l, page);
		return;
	}
	if (type != NULL && strcmp(type, "check") == 0) {
		add_check(m, id, name, true, l, page);
		return;
	}
	if (type != NULL && strcmp(type, "site") == 0) {
		prov_page_warn(page,
		    CR " monitor \"%s\" is a site (real-user monitoring of a website, no "
		       "probe or schedule); it has no equivalent and was not imported",
		    name);
		return;
	}
	prov_copy_text(tb, sizeof tb, type ? type : "(none)");
	prov_page_warn(page,
	    CR " monitor \"%s\" is of type %s, which is unknown; imported as a "
	       "monitor of type other",
	    name, tb);
	add_check(m, id, name, false, l, page);
}

/* --------------------------------------------------------- status pages */

static void
add_statuspage(json_object *p, const char *id, struct prov_page *page)
{
	struct prov_status_page sp = { 0 };
	const char *domain = prov_get_text(p, "custom_domain", 253);
	const char *sub = prov_get_text(p, "hosted_subdomain", 63);
	const char *access = prov_get_str(p, "access", 32);
	json_object *comps = prov_get_array(p, "components");
	char *built = NULL;

	prov_map(page_fields, p, &sp);
	if (sp.name == NULL)
		sp.name = id;
	if (sp.url == NULL && domain != NULL)
		sp.url = built = xasprintf("https://%s", domain);
	else if (sp.url == NULL && sub != NULL)
		sp.url = built = xasprintf("https://%s.cronitorstatus.com", sub);
	sp.items = json_object_new_array();
	for (size_t i = 0; comps != NULL && i < json_object_array_length(comps) && i < PROV_MAX_ITEMS; i++) {
		json_object *c = json_object_array_get_idx(comps, i);
		char mid[160];
		bool has = prov_get_id(c, "monitor", mid, sizeof mid) == 0;

		/* A group (or other) component shows by its name alone. */
		if (has || prov_get_text(c, "name", 255) != NULL)
			prov_sp_item(sp.items, has ? mid : NULL, prov_get_text(c, "name", 255), NULL);
	}
	sp.public_ = prov_sp_public(page, CR, sp.name, "access setting", access);
	prov_page_add(page, "status_page", id, json_object_get(p), prov_norm_status_page(&sp));
	free(built);
}

/* -------------------------------------------------- maintenance windows */

/* The number of entries of array key of w. */
static size_t
count_of(json_object *w, const char *key)
{
	json_object *a = prov_get_array(w, key);

	return a != NULL ? json_object_array_length(a) : 0;
}

/* A maintenance window (shape unconfirmed, read tolerantly): one occurrence
 * from start to end, silencing the monitors it names (monitors and
 * heartbeats share Cronitor's key space). Groups and status pages warned. */
static void
add_window(json_object *w, const char *id, struct prov_page *page)
{
	struct prov_maintenance_window mw = { 0 };
	int64_t a, b, dur;
	bool got_a, got_b;
	json_object *mons = prov_get_array(w, "monitors");
	struct tz *zone;

	prov_map(window_fields, w, &mw);
	if (mw.name == NULL)
		mw.name = id;
	mw.recurrence = "once";
	/* ISO 8601 times; one without an offset is the window's zone's */
	zone = prov_zone_load(mw.timezone, page, CR " maintenance window", mw.name);
	got_a = prov_get_time(w, "start", TIME_WALL | TIME_OFFSET, zone, &a);
	got_b = prov_get_time(w, "end", TIME_WALL | TIME_OFFSET, zone, &b);
	tz_free(zone);
	mw.start = got_a ? prov_get_text(w, "start", 32) : NULL;
	mw.end = got_b ? prov_get_text(w, "end", 32) : NULL;
	if (got_a && got_b && b > a)
		mw.duration = (b - a + 59) / 60;
	else if (prov_get_int_in(w, "duration", 1, INT32_MAX, &dur))
		mw.duration = dur;
	if (mw.start == NULL)
		prov_page_warn(page, CR " maintenance window \"%s\" has no readable start", mw.name);
	if (mons == NULL)
		mons = prov_get_array(w, "affected_monitors");
	mw.monitor_ids = prov_id_list(mons, "key");
	if (count_of(w, "groups") > 0 && prov_get_array(w, "affected_monitors") == NULL)
		prov_page_warn(page,
		    CR " maintenance window \"%s\" silences %zu monitor group%s, whose "
		       "monitors are not listed; not linked",
		    mw.name, count_of(w, "groups"), count_of(w, "groups") == 1 ? "" : "s");
	if (count_of(w, "statuspages") > 0)
		prov_page_warn(page,
		    CR " maintenance window \"%s\" is shown on %zu status page%s; that "
		       "announcement has no equivalent",
		    mw.name, count_of(w, "statuspages"), count_of(w, "statuspages") == 1 ? "" : "s");
	if (prov_get_bool(w, "all_monitors", false))
		prov_page_warn(page,
		    CR " maintenance window \"%s\" silences every monitor; imported "
		       "without monitors: add them",
		    mw.name);
	prov_page_add(page, "maintenance_window", id, json_object_get(w), prov_norm_maintenance_window(&mw));
}

/* ---------------------------------------------------------------- parse */

/* A paging number from the top level or from page_info (CLI fixtures). */
static bool
page_num(json_object *root, const char *key, const char *info_key, int64_t *out)
{
	return prov_get_int(root, key, out) ||
	    (info_key != NULL && prov_get_int(prov_get_object(root, "page_info"), info_key, out));
}

/* Whether page pg (n entries) of phase ph has a next page; page NULL: no warnings. */
static bool
has_more(json_object *root, size_t ph, int64_t pg, size_t n, struct prov_page *page)
{
	int64_t size = CR_PAGE_SIZE, total = -1, echoed;
	bool more;

	if (!json_object_is_type(root, json_type_object))
		return false; /* a bare array: the whole list */
	if (!page_num(root, "page_size", "pageSize", &size) || size < 1 || size > INT32_MAX)
		size = CR_PAGE_SIZE; /* pg and size both within int32: pg * size cannot overflow */
	if (!page_num(root, ph == PH_MONITORS ? "total_monitor_count" : "total_count",
	        ph == PH_MONITORS ? "totalMonitorCount" : "totalCount", &total))
		total = -1;
	more = n > 0 && (total >= 0 ? pg * size < total : (int64_t)n >= size);
	if (more && page_num(root, "page", "page", &echoed) && echoed != pg) {
		if (page != NULL)
			prov_page_warn(page,
			    CR " answered page %lld when asked for page %lld of %s; the rest "
			       "of the list was not read",
			    (long long)echoed, (long long)pg, kind_names[ph]);
		more = false;
	}
	return more;
}

/* The list of an answer of phase ph: its list key; maintenance windows also
 * under "maintenance_windows" or as a bare array (shape unconfirmed). */
static json_object *
list_of(json_object *root, size_t ph)
{
	json_object *l = prov_get_array(root, list_keys[ph]);

	if (l == NULL && ph == PH_MAINT) {
		l = prov_get_array(root, "maintenance_windows");
		if (l == NULL && json_object_is_type(root, json_type_array))
			l = root;
	}
	return l;
}

/* The end of a list after a refusal or an unreadable maintenance answer. */
static enum prov_status
next_phase(size_t ph, struct prov_page *page)
{
	if (phases[ph + 1] != NULL)
		page->next_cursor = prov_cursor_make(phases[ph + 1], 1);
	return PROV_OK;
}

/* An error answer: a refused later list is skipped (PROV_OK, *done). */
static enum prov_status
answer_error(size_t ph, const struct httpc_resp *resp, struct prov_page *page, struct prov_error *err,
    bool *done)
{
	enum prov_status st;
	char text[160];

	*done = false;
	if (ph != PH_MONITORS &&
	    (resp->status == 401 || resp->status == 403 || (ph == PH_MAINT && resp->status == 404))) {
		*done = true;
		prov_skip_kind(page, CR, kind_names[ph], resp->status);
		return next_phase(ph, page);
	}
	if ((st = httpc_classify(resp, CR, "API key", err)) == PROV_AUTH) {
		prov_body_message(resp, text, sizeof text);
		prov_fail(err, PROV_AUTH, CR " rejected the API key%s%s%s", text[0] ? " (" : "", text,
		    text[0] ? ")" : "");
	}
	return st;
}

/* One page of phase ph; links resolve the monitors' list keys (NULL: not read). */
static enum prov_status
parse_page(const char *cursor, const struct httpc_resp *resp, const struct cr_links *l,
    struct prov_page *page, struct prov_error *err)
{
	json_object *root, *list;
	size_t ph, n;
	int64_t pg;
	enum prov_status st;
	char id[160], text[160];
	bool done;

	if (prov_cursor_parse(cursor, phases, 1, &ph, &pg) != 0 || pg < 1)
		return prov_bad_checkpoint(err, CR);
	if ((st = answer_error(ph, resp, page, err, &done)) != PROV_OK || done)
		return st;
	if ((root = prov_parse_json(resp, CR, err)) == NULL)
		return err->status;
	if ((list = list_of(root, ph)) == NULL) {
		json_object_put(root);
		if (ph == PH_MAINT) {
			prov_page_warn(page,
			    CR " sent maintenance windows in a form that could not be read; "
			       "maintenance windows skipped");
			return next_phase(ph, page);
		}
		prov_body_message(resp, text, sizeof text);
		return prov_fail(err, PROV_TRANSIENT, CR " sent an answer without a \"%s\" list%s%s",
		    list_keys[ph], text[0] ? ": " : "", text);
	}
	n = json_object_array_length(list);
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, CR " sent %zu %s in one page; only the first %d were kept", n,
		    kind_names[ph], PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);

		if (!json_object_is_type(it, json_type_object) ||
		    (prov_get_id(it, "key", id, sizeof id) != 0 &&
		        (ph != PH_MAINT || prov_get_id(it, "id", id, sizeof id) != 0))) {
			prov_page_warn(page, CR " sent an entry of %s without a usable key; skipped",
			    kind_names[ph]);
			continue;
		}
		if (ph == PH_MONITORS)
			add_monitor(it, id, l, page);
		else if (ph == PH_NOTIFICATIONS)
			add_template(it, id, page);
		else if (ph == PH_STATUSPAGES)
			add_statuspage(it, id, page);
		else
			add_window(it, id, page);
	}
	if (has_more(root, ph, pg, n, page))
		page->next_cursor = prov_cursor_make(phases[ph], pg + 1);
	else
		next_phase(ph, page);
	json_object_put(root);
	return PROV_OK;
}

/* The pure parse of one answer; monitors' list keys stay unresolved (the
 * fetch reads the lists, see the top of the file). */
enum prov_status
cronitor_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	return parse_page(cursor, resp, NULL, page, err);
}

/* ---------------------------------------------------------------- fetch */

struct cr_fetch {
	struct prov_session *s;
	const char *userpwd;
	struct httpc_resp resp; /* the last answer */
};

static const char *const cr_headers[] = { "Cronitor-Version: 2020-10-01", NULL };

/* Whether a page of monitors names a notification list (notify omitted
 * means the "default" list). */
static bool
needs_lists(const struct httpc_resp *resp)
{
	struct prov_error e;
	json_object *root = resp->status == 200 ? prov_parse_json(resp, CR, &e) : NULL;
	json_object *list = prov_get_array(root, "monitors");
	bool need = false;

	for (size_t i = 0; list != NULL && i < json_object_array_length(list) && !need; i++) {
		json_object *m = json_object_array_get_idx(list, i), *nf = prov_get(m, "notify");

		if (json_object_is_type(nf, json_type_object))
			nf = prov_get_array(nf, "alerts");
		need = prov_get(m, "notify") == NULL || json_object_is_type(nf, json_type_string);
		for (size_t k = 0; !need && json_object_is_type(nf, json_type_array) &&
		     k < json_object_array_length(nf) && k < CR_MAX_NOTIFY;
		     k++) {
			const char *s = target_text(json_object_array_get_idx(nf, k)), *c;

			/* Not a direct destination: a list key. */
			need = s != NULL &&
			    ((c = strchr(s, ':')) == NULL || kind_find(s, (size_t)(c - s)) == NULL);
		}
	}
	json_object_put(root);
	return need;
}

/* Read the notification lists into l (l->refused when the key may not). */
static enum prov_status
lookup_lists(struct cr_fetch *f, struct cr_links *l, struct prov_error *err)
{
	enum prov_status st = PROV_OK;
	bool more = true, done;
	struct prov_page scratch = { 0 };

	l->map = json_object_new_object();
	for (int64_t pg = 1; more && st == PROV_OK && pg <= CR_LIST_PAGES; pg++) {
		json_object *root, *list;

		if ((st = prov_get_into(f->s, cr_headers, f->userpwd, &f->resp, err,
		         "/api/notifications?page=%lld", (long long)pg)) != PROV_OK)
			break;
		if (f->resp.status == 401 || f->resp.status == 403 || f->resp.status == 404) {
			l->refused = f->resp.status;
			break;
		}
		if ((st = answer_error(PH_NOTIFICATIONS, &f->resp, &scratch, err, &done)) != PROV_OK)
			break;
		if ((root = prov_parse_json(&f->resp, CR, err)) == NULL)
			return err->status;
		if ((list = prov_get_array(root, "templates")) == NULL) {
			json_object_put(root);
			return prov_fail(err, PROV_TRANSIENT,
			    CR " sent notification lists without a "
			       "\"templates\" list");
		}
		map_templates(list, l->map);
		more = has_more(root, PH_NOTIFICATIONS, pg, json_object_array_length(list), NULL);
		json_object_put(root);
	}
	prov_page_free(&scratch);
	return st;
}

/* A page of monitors with the notification lists its list keys name. */
static enum prov_status
fetch_monitors(struct cr_fetch *f, const char *cursor, int64_t pg, struct prov_page *page,
    struct prov_error *err)
{
	struct cr_links l = { NULL, 0 };
	struct httpc_resp mresp;
	enum prov_status st = prov_get_into(f->s, cr_headers, f->userpwd, &f->resp, err,
	    "/api/monitors?page=%lld", (long long)pg);

	if (st != PROV_OK || !needs_lists(&f->resp))
		return st == PROV_OK ? parse_page(cursor, &f->resp, NULL, page, err) : st;
	mresp = f->resp;
	memset(&f->resp, 0, sizeof f->resp);
	st = lookup_lists(f, &l, err);
	if (st == PROV_OK && l.refused != 0) {
		json_object_put(l.map);
		l.map = NULL;
		prov_page_warn(page,
		    CR " refused the notification lists for this key (HTTP %ld): monitors "
		       "that notify a list are not linked to its targets",
		    l.refused);
	}
	if (st == PROV_OK)
		st = parse_page(cursor, &mresp, &l, page, err);
	json_object_put(l.map);
	httpc_resp_free(&mresp);
	return st;
}

static enum prov_status
cronitor_fetch(struct prov_session *s, const char *cursor, struct prov_page *page, struct prov_error *err)
{
	const char *key = prov_cred(s, "api_key");
	struct cr_fetch f = { .s = s };
	char *userpwd;
	size_t ph;
	int64_t pg;
	enum prov_status st;

	if (prov_cursor_parse(cursor, phases, 1, &ph, &pg) != 0 || pg < 1)
		return prov_bad_checkpoint(err, CR);
	if (key == NULL)
		return prov_no_cred(err, CR, "api_key");
	userpwd = xasprintf("%s:", key);
	f.userpwd = userpwd;
	if (ph == PH_MONITORS)
		st = fetch_monitors(&f, cursor, pg, page, err);
	else {
		if (ph == PH_NOTIFICATIONS)
			st = prov_get_into(f.s, cr_headers, f.userpwd, &f.resp, err,
			    "/api/notifications?page=%lld", (long long)pg);
		else if (ph == PH_STATUSPAGES)
			st = prov_get_into(f.s, cr_headers, f.userpwd, &f.resp, err,
			    "/api/statuspages?page=%lld&withComponents=true", (long long)pg);
		else
			st = prov_get_into(f.s, cr_headers, f.userpwd, &f.resp, err,
			    "/api/maintenance_windows?page=%lld", (long long)pg);
		if (st == PROV_OK)
			st = parse_page(cursor, &f.resp, NULL, page, err);
	}
	return prov_fetch_done(s, st, &f.resp, userpwd, page, err);
}

const struct provider_ops cronitor_ops = { cronitor_fetch };

/* The fate of each field (providers/fields.h), and how the table maps those
 * it can: the monitor of the monitors API (cronitor.io/docs/monitor-api,
 * monitor-yaml's attribute list, the CLI's and the fixtures' read-only
 * fields; providers.md §7), which is a check or a job or heartbeat by its
 * type; a notification list as each contact made from it keeps it (a direct
 * destination keeps its notify entry, a string: nothing to list); a status
 * page with its components; a maintenance window (shape unconfirmed). */
/* clang-format off */
#define CR_STATE  "State at Cronitor, not a setting."
#define CR_NO_COUNT "the account's heartbeats have no such count."
#define CR_THRESHOLD \
	{ "consecutive_alert_threshold", NULL, "Not described in Cronitor's published reference (a live answer shows 1000), so not carried." }
/* The fields a check and a job share that do not land: Cronitor's grouping, notes and state. */
#define CR_SHARED_FIELDS \
	{ "group", NULL, "The Cronitor group it belongs to; the account has no column for it." }, \
	{ "note", NULL, "Free text Cronitor shows with alerts; the account has no column for it." }, \
	{ "environments", NULL, "The Cronitor environments it reports in; the account has no column for them." }, \
	{ "metadata", NULL, "Cronitor's free-form metadata; the account has no column for it." }, \
	{ "passing", NULL, CR_STATE }, { "initialized", NULL, CR_STATE }, { "running", NULL, CR_STATE }, \
	{ "status", NULL, CR_STATE }, { "next_expected_at", NULL, CR_STATE }, \
	{ "latest_event", NULL, CR_STATE }, { "latest_issue", NULL, CR_STATE }, { "created", NULL, CR_STATE }
static const struct prov_field check_fields[] = {
	{ "key", "`import_links`", "the external id" },
	{ "name", "`monitors.name`", "else the key" },
	{ "type", "`monitors.type`", "`check`: the URL's scheme decides `http`, `tcp` or `udp`; an unknown type is imported as `other`, with a warning; a `site` is not imported" },
	{ "request.url", "`monitors.url`, `monitors.port`, `monitors.auth_username`, `monitors.auth_password_sealed`", "`http(s)://`: the whole URL; `tcp://`, `udp://`: the host, and the type `tcp`, `udp`; another scheme or none: type `other`, with a warning; an explicit port is the port; a login (`user:password@`) is taken out of it into the basic-auth login, the password sealed (`[redacted]` in the stored copy)" },
	{ "url", "`monitors.url`, `monitors.port`, `monitors.auth_username`, `monitors.auth_password_sealed`", "when there is no `request.url`; as it" },
	{ "request.method", "`monitors.http_method`", "upper-cased; not GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS: unset, with a warning" },
	{ "request.body", "`monitors.request_body`", NULL },
	{ "request.headers", "`monitors.request_headers`, `monitors.auth_username`, `monitors.auth_password_sealed`", "text and whole-number values, at most 100; `Authorization: Basic <base64>` is the basic-auth login instead (over a login in the URL, with a warning), the password sealed (`[redacted]` in the stored copy)" },
	{ "request.timeout_seconds", "`monitors.timeout_s`", NULL },
	{ "request.follow_redirects", "`monitors.follow_redirects`", NULL },
	{ "request.verify_ssl", "`monitors.verify_ssl`", NULL },
	{ "request.cookies", NULL, "Cookies sent with each request; the account has no column for them." },
	{ "regions", "`monitors.regions`", NULL, PROV_CSV(monitor, regions) },
	{ "request.regions", "`monitors.regions`", "when there is no top-level `regions`" },
	{ "schedule", "`monitors.interval_s`", "`every <n> <unit>` in seconds; anything else 60, with a warning; absent: 60" },
	{ "schedules", "`monitors.interval_s`", "the first, when there is no `schedule`; more: a warning" },
	{ "assertions", "`monitors.keyword`, `monitors.keyword_up_when`, `monitors.expected_status_codes`, `monitors.ssl_expiry_days`, `monitors.assertions`", "the first `response.body contains` (`present`) or `!contains` (`absent`) makes the type `keyword`; each `response.code = <code>` is an expected code; the first `ssl_certificate.expires_in <op> <n> days` the expiry alert; every other one, in order, an assertion: source `status`, `body`, `header`, `json`, `time`, `last_modified`, `item_count`, `public` or `ssl_expires_in` (another subject: as Cronitor names it), the key of `response.header` and `response.json` its property, the operator in words (`less than`, `at most`, `equals`, `does not equal`, `at least`, `greater than`, `contains`, `does not contain`), the value its target; one not of the form `<assertion> [<key>] <operator> <value>` is not imported, with a warning naming the count and the first" },
	{ "notify", "`monitor_contacts`", "each entry: a notification list's key links every target of the list; `email:…`, `slack:…` (and the other kinds) that destination as its own contact; anything else nothing, with a warning; omitted: the `default` list; the map form's `alerts` likewise, while its `events` (alerts on completion and the like) are not carried" },
	{ "tags", "`monitors.tags`", NULL, PROV_CSV(monitor, tags) },
	{ "paused", "`monitors.paused`", NULL, PROV_BOOL(monitor, paused) },
	{ "disabled", "`monitors.paused`", "a disabled check is imported paused" },
	{ "platform", NULL, "The URL's scheme decides the kind of check; a `browser` check is imported as a plain HTTP check." },
	{ "failure_tolerance", "`monitors.alert_after_checks`", "the failed requests tolerated, plus one: down after that many in a row" },
	{ "realert_interval", "`monitors.realert_s`", "`every <n> <unit>` or `<n> <unit>` in seconds; other text: NULL, with a warning" },
	{ "grace_seconds", "`monitors.alert_after_s`", "the seconds Cronitor waits after a failure before it alerts (monitor-api); 0: NULL" },
	{ "schedule_tolerance", NULL, "How many missed runs Cronitor allows before alerting (jobs and heartbeats only)." },
	CR_THRESHOLD,
	{ "timezone", NULL, "A check runs at an interval, so its time zone is not imported." },
	CR_SHARED_FIELDS,
	{ NULL, NULL, NULL }
};
static const struct prov_field job_fields[] = {
	{ "key", "`import_links`", "the external id" },
	{ "name", "`heartbeats.name`", "else the key" },
	{ "type", "`heartbeats`", "`job` and `heartbeat` both become a heartbeat; the account does not tell them apart" },
	{ "schedule", "`heartbeats.interval_s`, `heartbeats.schedule`", "`every <n> <unit>`: the interval in seconds; a cron expression or macro: the schedule as written, interval 0; other text (`at 14:30`): the schedule as written, with a warning to review it" },
	{ "schedules", "`heartbeats.interval_s`, `heartbeats.schedule`", "the first, when there is no `schedule`; more: a warning" },
	{ "timezone", "`heartbeats.timezone`", "the zone the schedule is read in", PROV_TEXT(heartbeat, timezone, 64) },
	{ "grace_seconds", "`heartbeats.grace_s`", NULL },
	{ "notify", "`heartbeat_contacts`", "as for checks: lists, direct destinations, the `default` list when omitted; the map form's `events` are not carried" },
	{ "tags", "`heartbeats.tags`", NULL, PROV_CSV(heartbeat, tags) },
	{ "paused", "`heartbeats.paused`", NULL, PROV_BOOL(heartbeat, paused) },
	{ "disabled", "`heartbeats.paused`", "a disabled job is imported paused" },
	{ "assertions", NULL, "Cronitor's rules on a job's runs (`metric.duration < 15min`, …); the account has none (a warning names the monitor)." },
	{ "realert_interval", "`heartbeats.realert_s`", "as for checks" },
	{ "schedule_tolerance", NULL, "How many missed runs Cronitor allows before alerting; " CR_NO_COUNT },
	{ "failure_tolerance", NULL, "How many failed runs Cronitor tolerates before alerting; " CR_NO_COUNT },
	CR_THRESHOLD,
	{ "platform", NULL, "Where the job runs (linux cron, kubernetes, …); the account has no column for it." },
	CR_SHARED_FIELDS,
	{ NULL, NULL, NULL }
};
static const struct prov_field list_fields[] = {
	{ "key", "`monitor_contacts`, `heartbeat_contacts`", "the key monitors' `notify` names: they link every target of the list" },
	{ "name", "`contacts.name`", "of every contact made from the list; else the key" },
	{ "notifications", "`contacts.type`, `contacts.value`", "every target of every kind is one contact (see the kinds below), its external id `<kind>:<target>` for an address, else `<kind>:#<hash>`; a kind without an equivalent, or unknown, is a contact of type `other`, with a warning; at most 100 of one kind" },
	{ "monitors", NULL, "Not read: the links come from each monitor's `notify`, which names the list." },
	{ "created", NULL, CR_STATE },
	{ NULL, NULL, NULL }
};
static const struct prov_field page_fields[] = {
	{ "key", "`import_links`", "the external id" },
	{ "name", "`status_pages.name`", "else the key", PROV_TEXT(status_page, name, PROV_MAX_STR) },
	{ "url", "`status_pages.url`", NULL, PROV_TEXT(status_page, url, PROV_MAX_STR) },
	{ "custom_domain", "`status_pages.url`", "`https://<custom_domain>` when there is no `url`" },
	{ "hosted_subdomain", "`status_pages.url`", "`https://<hosted_subdomain>.cronitorstatus.com` when there is neither" },
	{ "access", "`status_pages.public`", "`public` or absent: public; `private`, `protected`: not; an unknown one: not, with a warning" },
	{ "timezone", "`status_pages.timezone`", NULL, PROV_TEXT(status_page, timezone, 64) },
	{ "components[].monitor", "`status_page_monitors`", "the monitor or heartbeat the entry shows, in order (one not imported, such as a site: an entry by name only)" },
	{ "components[].name", "`status_page_monitors`", "the entry's name; a component without a monitor (a group) shows by its name alone" },
	{ "components[].key", NULL, "Cronitor's id of the component; the entry is known by its place." },
	{ "components[].type", NULL, "Not read: a component with a `monitor` shows it, any other its name." },
	{ "components[].group", NULL, "The group a group component shows; its monitors are not listed, so the entry shows the name only." },
	{ "components[].statuspage", NULL, "The page's own key again." },
	{ "components[].autopublish", NULL, "Cronitor's switch to publish the component's incidents by itself; the account has no column for it." },
	{ "components[].description", NULL, "A component's description has no place in the account." },
	{ "website_url", NULL, "The page's link to the company's website; the account has no column for it." },
	{ "support_url", NULL, "The page's link to support; the account has no column for it." },
	{ "logo_url", NULL, "The page's logo; the account has no column for it." },
	{ "environment", NULL, "The Cronitor environment the page shows; the account has no column for it." },
	{ "allow_search_index", NULL, "Cronitor's switch to let search engines index the page; the account has no column for it." },
	{ "enable_performance_metrics", NULL, "Cronitor's switch to show response times on the page; the account has no column for it." },
	{ "status", NULL, CR_STATE },
	{ "components_count", NULL, CR_STATE },
	{ "created", NULL, CR_STATE },
	{ "updated", NULL, CR_STATE },
	{ NULL, NULL, NULL }
};
static const struct prov_field window_fields[] = {
	{ "key", "`import_links`", "the external id" },
	{ "id", "`import_links`", "the external id when there is no key" },
	{ "name", "`maintenance_windows.name`", "else the key", PROV_TEXT(maintenance_window, name, PROV_MAX_STR) },
	{ "start", "`maintenance_windows.starts`", "ISO 8601; without an offset, a wall clock in `timezone` (else UTC); not a date-time: NULL, with a warning" },
	{ "end", "`maintenance_windows.ends`, `maintenance_windows.duration_min`", "the duration is end − start in real minutes, rounded up; not a date-time: NULL" },
	{ "duration", "`maintenance_windows.duration_min`", "when start and end do not give it" },
	{ "timezone", "`maintenance_windows.timezone`", "a name that is no zone is kept, the times read in UTC, with a warning", PROV_TEXT(maintenance_window, timezone, 64) },
	{ "monitors", "`maintenance_window_monitors`", "keys, or objects with a `key`: the monitors and heartbeats it silences" },
	{ "affected_monitors", "`maintenance_window_monitors`", "when there is no `monitors`; as it" },
	{ "groups", NULL, "Groups of monitors it silences; their monitors are not listed, so they are not linked (a warning says so)." },
	{ "statuspages", NULL, "The status pages that announce it; the account has no such announcement (a warning says so)." },
	{ "all_monitors", NULL, "It silences every monitor; it is imported with none, with a warning: add them." },
	{ "description", NULL, "A window's description has no place in the account." },
	{ "state", NULL, CR_STATE },
	{ "created", NULL, CR_STATE },
	{ NULL, NULL, NULL }
};
/* clang-format on */

const struct prov_fields cronitor_fields[] = {
	{ "monitor", "check (`type` `check`, `GET /api/monitors`)", check_fields },
	{ "heartbeat", "job or heartbeat (`type` `job`, `heartbeat`, `GET /api/monitors`)", job_fields },
	{ "contact", "notification list (`GET /api/notifications`)", list_fields },
	{ "status_page", "status page (`GET /api/statuspages?withComponents=true`)", page_fields },
	{ "maintenance_window", "maintenance window (`GET /api/maintenance_windows`)", window_fields },
	{ NULL, NULL, NULL },
};
