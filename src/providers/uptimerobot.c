/* UptimeRobot, API v2 (providers.md §1; docs/providers/uptimerobot.md).
 *
 * Every call is a POST with a form body carrying api_key, format=json,
 * offset and limit (50, the maximum). Errors come in the body as
 * {"stat":"fail","error":{…}}, usually with HTTP 200.
 * Cursor: "monitors:<offset>" → "contacts:<offset>" → "psps:<offset>" → end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "providers/adapters.h"
#include "providers/common.h"

#define UR "UptimeRobot"
#define UR_LIMIT 50

enum { PH_MONITORS, PH_CONTACTS, PH_PSPS };
static const char *const phases[] = { "monitors", "contacts", "psps", NULL };
static const char *const methods[] = { "getMonitors", "getAlertContacts", "getPSPs" };
static const char *const list_keys[] = { "monitors", "alert_contacts", "psps" };

/* Alert contact types (official map; index = type). NULL: unknown. */
static const char *const contact_types[] = {
	NULL, "sms", "email", "other" /* Twitter */, "push" /* Boxcar */, "webhook",
	"push" /* Pushbullet */, "other" /* Zapier */, "sms" /* Pro SMS */, "pushover",
	"other" /* HipChat */, "slack", "push" /* iOS app */, "push" /* Android app */,
	"voice", "other" /* Splunk */, "pagerduty", "opsgenie", "telegram", NULL, "teams",
	"other" /* Google Chat */, NULL, "discord", "other" /* Mattermost */
};

/* Ports of the predefined port-monitor sub types (index = sub_type). */
static const int sub_type_ports[] = { 0, 80, 443, 21, 25, 110, 143 };

static bool
is_http_url(const char *s)
{
	return s != NULL && (strncmp(s, "https://", 8) == 0 || strncmp(s, "http://", 7) == 0);
}

static void
add_monitor(json_object *m, const char *id, struct prov_page *page)
{
	struct prov_monitor mon = { 0 };
	const char *name = prov_get_text(m, "friendly_name", PROV_MAX_STR);
	const char *url = prov_get_text(m, "url", PROV_MAX_STR);
	int64_t type = -1, sub = -1, port = -1;
	json_object *norm;

	prov_get_int(m, "type", &type);
	mon.name = name ? name : url ? url : id;
	mon.url = url;
	mon.interval = prov_int_or(m, "interval", 300);
	mon.paused = prov_int_or(m, "status", 1) == 0;
	mon.port = -1;
	mon.contact_ids = prov_id_list(prov_get_array(m, "alert_contacts"), "id");

	if (type == 5) {
		struct prov_heartbeat hb = { 0 };

		hb.name = mon.name;
		hb.interval = mon.interval;
		hb.grace = 0;
		hb.paused = mon.paused;
		hb.ping_url = is_http_url(url) ? url : NULL;
		hb.contact_ids = mon.contact_ids;
		norm = prov_norm_heartbeat(&hb);
		prov_page_add(page, "heartbeat", id, json_object_get(m), norm);
		return;
	}
	switch (type) {
	case 1:
		mon.type = "http";
		break;
	case 2:
		mon.type = "keyword";
		mon.keyword = prov_get_text(m, "keyword_value", PROV_MAX_STR);
		if (prov_int_or(m, "keyword_type", 1) == 2)
			prov_page_warn(page, UR " monitor \"%s\" alerts when the keyword is absent; it was "
			    "imported as a keyword check: review it", mon.name);
		break;
	case 3:
		mon.type = "ping";
		break;
	case 4:
		mon.type = "port";
		prov_get_int(m, "sub_type", &sub);
		prov_get_int(m, "port", &port);
		if (sub >= 1 && sub <= 6)
			mon.port = sub_type_ports[sub];
		else if (port > 0 && port <= 65535)
			mon.port = port;
		break;
	default:
		mon.type = "other";
		prov_page_warn(page, UR " monitor \"%s\" has an unknown type %lld; kept as other",
		    mon.name, (long long)type);
		break;
	}
	norm = prov_norm_monitor(&mon);
	prov_page_add(page, "monitor", id, json_object_get(m), norm);
}

static void
add_contact(json_object *c, const char *id, struct prov_page *page)
{
	struct prov_contact ct = { 0 };
	const char *value = prov_get_text(c, "value", PROV_MAX_STR);
	const char *name = prov_get_text(c, "friendly_name", PROV_MAX_STR);
	int64_t type = -1;

	prov_get_int(c, "type", &type);
	ct.name = name ? name : value ? value : id;
	ct.value = value;
	if (type >= 0 && (size_t)type < sizeof contact_types / sizeof contact_types[0] &&
	    contact_types[type] != NULL)
		ct.type = contact_types[type];
	else {
		ct.type = "other";
		prov_page_warn(page, UR " alert contact \"%s\" has an unknown type %lld; kept as other",
		    ct.name, (long long)type);
	}
	prov_page_add(page, "contact", id, json_object_get(c), prov_norm_contact(&ct));
}

static void
add_psp(json_object *p, const char *id, struct prov_page *page)
{
	struct prov_status_page sp = { 0 };
	const char *name = prov_get_text(p, "friendly_name", PROV_MAX_STR);
	const char *custom = prov_get_text(p, "custom_url", PROV_MAX_STR);
	json_object *mons = prov_get(p, "monitors");
	char mid[160];
	int64_t n;

	sp.name = name ? name : id;
	sp.url = custom ? custom : prov_get_text(p, "standard_url", PROV_MAX_STR);
	sp.public_ = prov_int_or(p, "status", 1) == 1;
	if (json_object_is_type(mons, json_type_array))
		sp.monitor_ids = prov_id_list(mons, "id");
	else {
		sp.monitor_ids = json_object_new_array();
		if (prov_json_int(mons, &n) && n == 0)
			prov_page_warn(page, UR " status page \"%s\" shows all monitors; its monitor list "
			    "was imported empty: add the monitors to it after the import", sp.name);
		else if (prov_json_id(mons, mid, sizeof mid) == 0)
			json_object_array_add(sp.monitor_ids, json_object_new_string(mid));
		else if (mons != NULL)
			prov_page_warn(page, UR " status page \"%s\" has an unreadable monitor list; "
			    "imported without monitors", sp.name);
	}
	prov_page_add(page, "status_page", id, json_object_get(p), prov_norm_status_page(&sp));
}

/* The in-body error of a "stat":"fail" answer. */
static enum prov_status
fail_answer(json_object *root, struct prov_error *err)
{
	json_object *e = prov_get_object(root, "error");
	const char *type = prov_get_str(e, "type", 64);
	const char *param = prov_get_str(e, "parameter_name", 64);
	const char *msg = prov_get_str(e, "message", 512);
	char text[160];

	prov_copy_text(text, sizeof text, msg ? msg : type ? type : "no details");
	if ((param != NULL && strcmp(param, "api_key") == 0) ||
	    (msg != NULL && strstr(msg, "api_key") != NULL))
		return prov_fail(err, PROV_AUTH, UR " rejected the API key (%s)", text);
	if (type != NULL && strcmp(type, "not_authorized") == 0)
		return prov_fail(err, PROV_AUTH, UR " refused the API key for this request; use the "
		    "main or read-only API key");
	if (type != NULL && strstr(type, "rate") != NULL)
		return prov_fail(err, PROV_RATE_LIMITED, UR " rate limit reached (%s)", text);
	return prov_fail(err, PROV_FATAL, UR " answered with an error: %s", text);
}

/* The pagination numbers: nested "pagination" (monitors, PSPs) or top level
 * (alert contacts); accept either everywhere. */
static int64_t
page_num(json_object *root, const char *key, int64_t dflt)
{
	int64_t v;

	if (prov_get_int(prov_get_object(root, "pagination"), key, &v) || prov_get_int(root, key, &v))
		return v;
	return dflt;
}

enum prov_status
uptimerobot_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	json_object *root, *list;
	const char *stat;
	size_t ph, n;
	int64_t off, total, limit;
	enum prov_status st;
	char id[192];

	if (prov_cursor_parse(cursor, phases, 0, &ph, &off) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " UR " discovery: bad checkpoint");
	if (resp->status == 401 || resp->status == 403)
		return prov_fail(err, PROV_AUTH, UR " rejected the API key (HTTP %ld)", resp->status);
	if ((st = httpc_classify(resp, UR, "API key", err)) != PROV_OK)
		return st;
	if ((root = prov_parse_json(resp, UR, err)) == NULL)
		return err->status;
	stat = prov_get_str(root, "stat", 16);
	if (stat != NULL && strcmp(stat, "fail") == 0) {
		st = fail_answer(root, err);
		json_object_put(root);
		return st;
	}
	if (stat == NULL || strcmp(stat, "ok") != 0 || !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, UR " sent an answer without \"stat\":\"ok\"");
	}

	total = page_num(root, "total", -1);
	limit = page_num(root, "limit", UR_LIMIT);
	list = prov_get_array(root, list_keys[ph]);
	if (list == NULL && prov_get(root, list_keys[ph]) != NULL) {
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, UR " sent \"%s\" that is not a list", list_keys[ph]);
	}
	n = list ? json_object_array_length(list) : 0;
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, UR " sent %zu %s in one page; only the first %d were kept", n,
		    list_keys[ph], PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);

		if (!json_object_is_type(it, json_type_object) || prov_get_id(it, "id", id, sizeof id) != 0) {
			prov_page_warn(page, UR " sent an entry of %s without a usable id; skipped",
			    list_keys[ph]);
			continue;
		}
		if (ph == PH_MONITORS)
			add_monitor(it, id, page);
		else if (ph == PH_CONTACTS)
			add_contact(it, id, page);
		else
			add_psp(it, id, page);
	}

	/* Another page of this phase when the total says so (or, without a
	 * total, when the page was full); never past the page cap. */
	if (n > 0 && (total >= 0 ? off + (int64_t)n < total : (int64_t)n >= limit)) {
		if ((off + (int64_t)n) / UR_LIMIT >= PROV_MAX_PAGES)
			prov_page_warn(page, UR " %s: stopped after %d pages", list_keys[ph], PROV_MAX_PAGES);
		else {
			page->next_cursor = prov_cursor_make(phases[ph], off + (int64_t)n);
			json_object_put(root);
			return PROV_OK;
		}
	}
	if (phases[ph + 1] != NULL)
		page->next_cursor = prov_cursor_make(phases[ph + 1], 0);
	json_object_put(root);
	return PROV_OK;
}

static enum prov_status
uptimerobot_fetch(struct prov_session *s, const char *cursor, struct prov_page *page,
    struct prov_error *err)
{
	const char *key = prov_cred(s, "api_key");
	char *form = NULL, *url, num[24];
	size_t ph;
	int64_t off;

	if (prov_cursor_parse(cursor, phases, 0, &ph, &off) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " UR " discovery: bad checkpoint");
	if (key == NULL)
		return prov_fail(err, PROV_AUTH, "the " UR " credentials have no usable api_key");
	httpc_form_add(&form, "api_key", key);
	httpc_form_add(&form, "format", "json");
	snprintf(num, sizeof num, "%lld", (long long)off);
	httpc_form_add(&form, "offset", num);
	snprintf(num, sizeof num, "%d", UR_LIMIT);
	httpc_form_add(&form, "limit", num);
	if (ph == PH_MONITORS)
		httpc_form_add(&form, "alert_contacts", "1");

	url = prov_url(s, "/v2/%s", methods[ph]);
	return prov_fetch_form(s, cursor, url, form, uptimerobot_parse, page, err);
}

const struct provider_ops uptimerobot_ops = { uptimerobot_fetch };
