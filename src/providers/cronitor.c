/* Cronitor REST API (providers.md §7; docs/providers/cronitor.md).
 *
 * GET with HTTP Basic auth (the API key as user name, an empty password) and
 * "Cronitor-Version: 2020-10-01". Lists are paged by page (from 1) with the
 * provider's page size (50); a phase ends on an empty page, when
 * page * page_size reaches the total, or, without a total, on a short page.
 * "page" may come back as a string; an answer for another page than the one
 * asked for ends the phase (the API ignored the parameter).
 * Cursor: "monitors:<page>" → "notifications:<page>" → "statuspages:<page>" → end. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"

#define CR "Cronitor"
#define CR_PAGE_SIZE 50
#define CR_MAX_TARGETS 100  /* targets of one kind taken from one notification list */

enum { PH_MONITORS, PH_NOTIFICATIONS, PH_STATUSPAGES };
static const char *const phases[] = { "monitors", "notifications", "statuspages", NULL };
static const char *const list_keys[] = { "monitors", "templates", "data" };

/* Notification list target kinds. norm NULL: known, no equivalent. */
static const struct {
	const char *cr, *norm, *label;
} target_kinds[] = {
	{ "emails", "email", "e-mail" }, { "phones", "sms", "SMS" }, { "slack", "slack", "Slack" },
	{ "webhooks", "webhook", "webhook" }, { "pagerduty", "pagerduty", "PagerDuty" },
	{ "opsgenie", "opsgenie", "Opsgenie" }, { "microsoft-teams", "teams", "Microsoft Teams" },
	{ "telegram", "telegram", "Telegram" }, { "discord", "discord", "Discord" },
	{ "victorops", NULL, "Splunk On-Call (VictorOps)" }, { NULL, NULL, NULL }
};

/* Seconds of a schedule written "every <n> <unit>" ("every hour" = 1 hour),
 * or -1 when s is not of that form. */
static int64_t
every_seconds(const char *s)
{
	static const struct {
		const char *unit;
		int64_t secs;
	} units[] = {
		{ "s", 1 }, { "sec", 1 }, { "secs", 1 }, { "second", 1 }, { "seconds", 1 },
		{ "m", 60 }, { "min", 60 }, { "mins", 60 }, { "minute", 60 }, { "minutes", 60 },
		{ "h", 3600 }, { "hr", 3600 }, { "hrs", 3600 }, { "hour", 3600 }, { "hours", 3600 },
		{ "d", 86400 }, { "day", 86400 }, { "days", 86400 },
		{ "w", 604800 }, { "week", 604800 }, { "weeks", 604800 }, { NULL, 0 }
	};
	int64_t n = 0;
	size_t ulen;

	if (s == NULL || strncasecmp(s, "every", 5) != 0 || !isspace((unsigned char)s[5]))
		return -1;
	s += 5;
	while (isspace((unsigned char)*s))
		s++;
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

/* The keyword of an assertion 'response.body contains "text"', malloc'd, or NULL. */
static char *
body_keyword(json_object *m)
{
	static const char pre[] = "response.body contains ";
	json_object *as = prov_get_array(m, "assertions");

	for (size_t i = 0; as != NULL && i < json_object_array_length(as) && i < 100; i++) {
		json_object *a = json_object_array_get_idx(as, i);
		const char *s;
		size_t n;

		if (!json_object_is_type(a, json_type_string))
			continue;
		s = json_object_get_string(a);
		if (strncasecmp(s, pre, sizeof pre - 1) != 0)
			continue;
		s += sizeof pre - 1;
		n = strlen(s);
		if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
			s++;
			n -= 2;
		}
		if (n == 0 || n > PROV_MAX_STR)
			continue;
		return xstrndup(s, n);
	}
	return NULL;
}

static void
add_heartbeat(json_object *m, const char *id, const char *name, struct prov_page *page)
{
	struct prov_heartbeat h = { 0 };
	const char *schedule = prov_get_text(m, "schedule", 255);
	int64_t every = every_seconds(schedule), grace = 0;

	h.name = name;
	h.paused = prov_get_bool(m, "paused", false) || prov_get_bool(m, "disabled", false);
	h.contact_ids = prov_id_list(prov_get_array(m, "notify"), NULL);
	if (prov_get_int(m, "grace_seconds", &grace) && grace >= 0)
		h.grace = grace;
	if (every > 0)
		h.interval = every;
	else if (schedule != NULL) {
		h.interval = 0;
		h.schedule = schedule;
		if (!is_cron(schedule)) {
			char sb[80];

			prov_copy_text(sb, sizeof sb, schedule);
			prov_page_warn(page, CR " monitor \"%s\" has the schedule \"%s\", which is neither a "
			    "cron expression nor an interval; it was kept as written: review it", name, sb);
		}
	}
	prov_page_add(page, "heartbeat", id, json_object_get(m), prov_norm_heartbeat(&h));
}

static void
add_check(json_object *m, const char *id, const char *name, const char *type, struct prov_page *page)
{
	struct prov_monitor mon = { 0 };
	const char *schedule = prov_get_text(m, "schedule", 255);
	const char *url = prov_get_text(prov_get_object(m, "request"), "url", PROV_MAX_STR);
	int64_t every = every_seconds(schedule);
	char *keyword = NULL;

	mon.name = name;
	mon.url = url;
	mon.paused = prov_get_bool(m, "paused", false) || prov_get_bool(m, "disabled", false);
	mon.port = -1;
	mon.contact_ids = prov_id_list(prov_get_array(m, "notify"), NULL);
	mon.interval = every > 0 ? every : 60;
	if (every <= 0 && schedule != NULL) {
		char sb[80];

		prov_copy_text(sb, sizeof sb, schedule);
		prov_page_warn(page, CR " monitor \"%s\" runs on the schedule \"%s\", which is not an "
		    "interval; it was imported with a 60-second interval", name, sb);
	}
	if (type == NULL)
		mon.type = "other"; /* warned by the caller */
	else if (url != NULL &&
	    (strncasecmp(url, "http://", 7) == 0 || strncasecmp(url, "https://", 8) == 0)) {
		keyword = body_keyword(m);
		mon.keyword = keyword;
		mon.type = keyword != NULL ? "keyword" : "http";
	} else {
		mon.type = "other";
		prov_page_warn(page, CR " %s monitor \"%s\" has no web address to check; kept as other",
		    type, name);
	}
	prov_page_add(page, "monitor", id, json_object_get(m), prov_norm_monitor(&mon));
	free(keyword);
}

static void
add_monitor(json_object *m, const char *id, struct prov_page *page)
{
	const char *name = prov_get_text(m, "name", PROV_MAX_STR);
	const char *type = prov_get_str(m, "type", 32);

	if (name == NULL)
		name = id;
	if (type != NULL && (strcmp(type, "job") == 0 || strcmp(type, "heartbeat") == 0))
		add_heartbeat(m, id, name, page);
	else if (type != NULL && (strcmp(type, "check") == 0 || strcmp(type, "site") == 0))
		add_check(m, id, name, type, page);
	else {
		char tb[40];

		prov_copy_text(tb, sizeof tb, type ? type : "(none)");
		prov_page_warn(page, CR " monitor \"%s\" is of type %s, which is unknown; imported as a "
		    "monitor of type other", name, tb);
		add_check(m, id, name, NULL, page);
	}
}

/* A notification list becomes one contact per target. The first keeps the
 * list's key, so that the monitors' notify lists (list keys) find it; the
 * others get "<key>:<kind>:<index>". A list without targets is one contact
 * of type other. */
static void
add_template(json_object *t, const char *id, struct prov_page *page)
{
	const char *name = prov_get_text(t, "name", PROV_MAX_STR);
	json_object *notes = prov_get_object(t, "notifications");
	char xid[192];
	size_t added = 0;

	if (name == NULL)
		name = id;
	if (notes == NULL)
		notes = json_object_new_object(); /* an empty list of targets */
	else
		json_object_get(notes);
	json_object_object_foreach(notes, kind, list) {
		size_t k;

		for (k = 0; target_kinds[k].cr != NULL; k++)
			if (strcmp(kind, target_kinds[k].cr) == 0)
				break;
		if (!json_object_is_type(list, json_type_array) || json_object_array_length(list) == 0)
			continue;
		if (target_kinds[k].cr == NULL || target_kinds[k].norm == NULL) {
			char kb[48];

			prov_copy_text(kb, sizeof kb, target_kinds[k].cr ? target_kinds[k].label : kind);
			prov_page_warn(page, CR " notification list \"%s\" has %s targets, which have no "
			    "equivalent; kept as contacts of type other", name, kb);
		}
		for (size_t i = 0; i < json_object_array_length(list) && i < CR_MAX_TARGETS; i++) {
			json_object *e = json_object_array_get_idx(list, i);
			struct prov_contact ct = { .name = name, .type = NULL, .value = NULL };

			if (!json_object_is_type(e, json_type_string) || json_object_get_string_len(e) == 0 ||
			    json_object_get_string_len(e) > PROV_MAX_STR) {
				prov_page_warn(page, CR " notification list \"%s\" has an unreadable target; "
				    "skipped", name);
				continue;
			}
			ct.type = target_kinds[k].norm != NULL ? target_kinds[k].norm : "other";
			ct.value = json_object_get_string(e);
			if (added == 0)
				snprintf(xid, sizeof xid, "%s", id);
			else if (snprintf(xid, sizeof xid, "%s:%.40s:%zu", id, kind, i) >= (int)sizeof xid)
				continue;
			prov_page_add(page, "contact", xid, json_object_get(t), prov_norm_contact(&ct));
			added++;
		}
	}
	json_object_put(notes);
	if (added == 0) {
		struct prov_contact ct = { .name = name, .type = "other", .value = NULL };

		prov_page_warn(page, CR " notification list \"%s\" has no targets; imported as a "
		    "contact of type other", name);
		prov_page_add(page, "contact", id, json_object_get(t), prov_norm_contact(&ct));
	} else if (added > 1)
		prov_page_warn(page, CR " notification list \"%s\" has %zu targets: each became a contact, "
		    "and the monitors that use the list were linked to its first target only", name, added);
}

static void
add_statuspage(json_object *p, const char *id, struct prov_page *page)
{
	struct prov_status_page sp = { 0 };
	const char *name = prov_get_text(p, "name", PROV_MAX_STR);
	const char *url = prov_get_text(p, "url", PROV_MAX_STR);
	const char *domain = prov_get_text(p, "custom_domain", 253);
	const char *sub = prov_get_text(p, "hosted_subdomain", 63);
	const char *access = prov_get_str(p, "access", 32);
	char *built = NULL;

	sp.name = name ? name : id;
	if (url == NULL && domain != NULL)
		url = built = xasprintf("https://%s", domain);
	else if (url == NULL && sub != NULL)
		url = built = xasprintf("https://%s.cronitorstatus.com", sub);
	sp.url = url;
	sp.monitor_ids = prov_id_list(prov_get_array(p, "components"), "monitor");
	if (access == NULL || strcmp(access, "public") == 0)
		sp.public_ = true;
	else if (strcmp(access, "private") != 0 && strcmp(access, "protected") != 0) {
		char ab[40];

		prov_copy_text(ab, sizeof ab, access);
		prov_page_warn(page, CR " status page \"%s\" has an unknown access setting %s; imported "
		    "as not public", sp.name, ab);
	}
	prov_page_add(page, "status_page", id, json_object_get(p), prov_norm_status_page(&sp));
	free(built);
}

/* A paging number from the top level or from page_info (CLI fixtures). */
static bool
page_num(json_object *root, const char *key, const char *info_key, int64_t *out)
{
	return prov_get_int(root, key, out) ||
	    (info_key != NULL && prov_get_int(prov_get_object(root, "page_info"), info_key, out));
}

enum prov_status
cronitor_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	json_object *root, *list;
	size_t ph, n;
	int64_t pg, size = CR_PAGE_SIZE, total = -1, echoed;
	enum prov_status st;
	char id[160], text[160];
	bool more;

	if (prov_cursor_parse(cursor, phases, 1, &ph, &pg) != 0 || pg < 1)
		return prov_fail(err, PROV_FATAL, "cannot resume " CR " discovery: bad checkpoint");
	if ((st = httpc_classify(resp, CR, "API key", err)) != PROV_OK) {
		prov_body_message(resp, text, sizeof text);
		if (st == PROV_AUTH)
			prov_fail(err, PROV_AUTH, CR " rejected the API key%s%s%s", text[0] ? " (" : "",
			    text, text[0] ? ")" : "");
		return st;
	}
	if ((root = prov_parse_json(resp, CR, err)) == NULL)
		return err->status;
	list = prov_get_array(root, list_keys[ph]);
	if (list == NULL) {
		prov_body_message(resp, text, sizeof text);
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, CR " sent an answer without a \"%s\" list%s%s",
		    list_keys[ph], text[0] ? ": " : "", text);
	}
	n = json_object_array_length(list);
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, CR " sent %zu %s in one page; only the first %d were kept", n,
		    phases[ph], PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);

		if (!json_object_is_type(it, json_type_object) ||
		    prov_get_id(it, "key", id, sizeof id) != 0) {
			prov_page_warn(page, CR " sent an entry of %s without a usable key; skipped",
			    phases[ph]);
			continue;
		}
		if (ph == PH_MONITORS)
			add_monitor(it, id, page);
		else if (ph == PH_NOTIFICATIONS)
			add_template(it, id, page);
		else
			add_statuspage(it, id, page);
	}

	if (!page_num(root, "page_size", "pageSize", &size) || size < 1)
		size = CR_PAGE_SIZE;
	if (!page_num(root, ph == PH_MONITORS ? "total_monitor_count" : "total_count",
	        ph == PH_MONITORS ? "totalMonitorCount" : "totalCount", &total))
		total = -1;
	more = n > 0 && (total >= 0 ? pg * size < total : (int64_t)n >= size);
	if (more && page_num(root, "page", "page", &echoed) && echoed != pg) {
		prov_page_warn(page, CR " answered page %lld when asked for page %lld of %s; the rest "
		    "of the list was not read", (long long)echoed, (long long)pg, phases[ph]);
		more = false;
	}
	if (more && pg >= PROV_MAX_PAGES) {
		prov_page_warn(page, CR " %s: stopped after %d pages", phases[ph], PROV_MAX_PAGES);
		more = false;
	}
	if (more)
		page->next_cursor = prov_cursor_make(phases[ph], pg + 1);
	else if (phases[ph + 1] != NULL)
		page->next_cursor = prov_cursor_make(phases[ph + 1], 1);
	json_object_put(root);
	return PROV_OK;
}

static enum prov_status
cronitor_fetch(struct prov_session *s, const char *cursor, struct prov_page *page,
    struct prov_error *err)
{
	static const char *const headers[] = { "Cronitor-Version: 2020-10-01", NULL };
	struct httpc_req req = { 0 };
	struct httpc_resp resp = { 0 };
	const char *key = prov_cred(s, "api_key");
	char *userpwd, *url;
	size_t ph;
	int64_t pg;
	enum prov_status st;

	if (prov_cursor_parse(cursor, phases, 1, &ph, &pg) != 0 || pg < 1)
		return prov_fail(err, PROV_FATAL, "cannot resume " CR " discovery: bad checkpoint");
	if (key == NULL)
		return prov_fail(err, PROV_AUTH, "the " CR " credentials have no usable api_key");
	url = prov_url(s, "/api/%s?page=%lld%s", phases[ph], (long long)pg,
	    ph == PH_STATUSPAGES ? "&withComponents=true" : "");
	userpwd = xasprintf("%s:", key);
	req.url = url;
	req.headers = headers;
	req.userpwd = userpwd;
	st = prov_http(s, &req, &resp, err);
	if (st == PROV_OK)
		st = cronitor_parse(cursor, &resp, page, err);
	st = prov_finish(s, st, &resp, page, err);
	httpc_resp_free(&resp);
	free(url);
	sodium_memzero(userpwd, strlen(userpwd));
	free(userpwd);
	return st;
}

const struct provider_ops cronitor_ops = { cronitor_fetch };
