/* UptimeRobot, API v3 and v2 (providers.md §1 and §12; docs/providers/uptimerobot.md).
 *
 * One credential, api_key, serves both APIs, so a run starts on v3 (the
 * current API: tags, groups, DNS/API/UDP monitors, integrations) with
 * "Authorization: Bearer <key>" and falls back to v2 in the same fetch when
 * v3 refuses the key (401/403) or is not there (404). The cursor names the
 * API from then on, so a resumed run stays on it:
 *
 *   v3: "v3-monitors:<c>" → "v3-contacts:0" → "v3-integrations:<c>" →
 *       "v3-mwindows:<c>" → "v3-psps:<c>" → end. GET, JSON, <c> = the cursor id
 *       of the next page (0: the first), from nextCursorId or nextLink. The
 *       contacts are the personal list and then, in the same fetch, the team
 *       and organization contacts of /v3/user/all-alert-contacts.
 *   v2: "monitors:<off>" → "contacts:<off>" → "mwindows:<off>" → "psps:<off>"
 *       → end. POST with a form (api_key, format=json, offset, limit=50);
 *       errors come in the body as {"stat":"fail",…}, usually with HTTP 200.
 *
 * v3 maintenance windows name their monitors ("monitorIds"); v2 windows, and
 * v3 windows of older answers without it, do not: the monitors name their
 * windows. A page of such windows therefore pages through the monitors again
 * (v2 with mwindows=1 only, v3 the plain list) and keeps, for the windows of
 * that page only, the ids of the monitors that list them: memory is bounded
 * by one page of windows, and nothing but the position is kept in the
 * cursor.
 *
 * Only the monitor list's refusal is a bad key; a later list refused for the
 * key (v3 401/403, v2 "not_authorized") is skipped with a warning. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "core/jsonx.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"

#define UR             "UptimeRobot"
#define UR_LIMIT       50    /* v2 page size (default and maximum) */
#define UR_SCAN_PAGES  400   /* monitor pages read to link one page of windows */
#define UR_MAX_LINKS   10000 /* monitor ids kept for one window */
#define UR_GROUP_PAGES 10    /* pages of monitor groups read for one page of monitors */
#define UR_MAX_HEADERS 100
#define UR_MAX_MINUTES 1000000 /* an alert link's threshold or recurrence (about two years) */
#define UR_MAX_CHECKS  100     /* assertions of an API monitor (the reference allows 5) */

enum {
	PH_MONITORS,
	PH_CONTACTS,
	PH_MWINDOWS,
	PH_PSPS,
	PH3_MONITORS,
	PH3_CONTACTS,
	PH3_INTEGRATIONS,
	PH3_MWINDOWS,
	PH3_PSPS
};
/* clang-format off */
static const char *const phases[] = {
	"monitors", "contacts", "mwindows", "psps",
	"v3-monitors", "v3-contacts", "v3-integrations", "v3-mwindows", "v3-psps", NULL
};
/* clang-format on */
/* v2 method and list key per v2 phase. */
static const char *const methods[] = { "getMonitors", "getAlertContacts", "getMWindows", "getPSPs" };
static const char *const list_keys[] = { "monitors", "alert_contacts", "mwindows", "psps" };
/* v3 path, list key before "data" was used, and kind (for warnings) per v3 phase. */
static const char *const v3_paths[] = { "monitors", "user/alert-contacts", "integrations",
	"maintenance-windows", "psps" };
static const char *const v3_keys[] = { "monitors", "alertContacts", "integrations", "maintenanceWindows",
	"psps" };
static const char *const kinds[] = { "monitors", "alert contacts", "maintenance windows", "status pages",
	"monitors", "alert contacts", "integrations", "maintenance windows", "status pages" };

/* What a fetch learned with extra requests (NULL members: not known). */
struct ur_ctx {
	json_object *groups; /* v3 monitor group id → name */
	json_object *links;  /* window id → array of monitor ids */
};

/* ------------------------------------------------------------ small helpers */

static bool
is_v3(size_t ph)
{
	return ph >= PH3_MONITORS;
}

static bool
is_http_url(const char *s)
{
	return s != NULL && (strncmp(s, "https://", 8) == 0 || strncmp(s, "http://", 7) == 0);
}

/* Lower-case copy of a short provider word into buf ("" when absent). */
static const char *
lower_word(const char *s, char *buf, size_t size)
{
	size_t i = 0;

	for (; s != NULL && s[i] != '\0' && i + 1 < size; i++)
		buf[i] = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] - 'A' + 'a' : s[i]);
	buf[i] = '\0';
	return buf;
}

/* A JSON string, or any other value as its JSON text (post bodies may be
 * objects); borrowed from v. NULL for null, "" and oversized text. */
static const char *
text_or_json(json_object *v)
{
	const char *s;

	if (v == NULL)
		return NULL;
	if (json_object_is_type(v, json_type_string)) {
		s = json_object_get_string(v);
		return s[0] != '\0' && strlen(s) <= PROV_MAX_STR ? s : NULL;
	}
	if (json_object_is_type(v, json_type_object) && json_object_object_length(v) == 0)
		return NULL;
	s = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
	return strlen(s) <= PROV_MAX_STR ? s : NULL;
}

/* The request headers of a monitor: an object of strings (numbers become
 * strings; an empty list, as v2 sends for none, gives {}). */
static json_object *
headers_of(json_object *h)
{
	json_object *out = json_object_new_object();
	size_t n = 0;
	char num[32];

	if (!json_object_is_type(h, json_type_object))
		return out;
	json_object_object_foreach (h, name, v) {
		const char *s = NULL;
		int64_t i;

		if (n >= UR_MAX_HEADERS || name[0] == '\0' || strlen(name) > 256)
			continue;
		if (json_object_is_type(v, json_type_string))
			s = json_object_get_string(v);
		else if (prov_json_int(v, &i) && snprintf(num, sizeof num, "%lld", (long long)i) > 0)
			s = num;
		if (s == NULL || strlen(s) > PROV_MAX_STR)
			continue;
		json_object_object_add(out, name, json_object_new_string(s));
		n++;
	}
	return out;
}

static bool
has_header(json_object *headers, const char *name)
{
	json_object_object_foreach (headers, k, v) {
		(void)v;
		if (strcasecmp(k, name) == 0)
			return true;
	}
	return false;
}

/* The ids of the windows a monitor lists (v2 "mwindows", v3 "maintenanceWindows"). */
static json_object *
windows_of(json_object *m)
{
	json_object *w = prov_get_array(m, "mwindows");

	return w != NULL ? w : prov_get_array(m, "maintenanceWindows");
}

/* Secrets a monitor may carry, kept out of the stored raw copy once the
 * normalized object is built: the monitored site's password (it lands
 * sealed, take_login) is replaced by "[redacted]", the monitor's own API key
 * (never read) removed. */
static void
drop_secrets(json_object *m)
{
	static const char *const passwords[] = { "http_password", "httpPassword" };
	static const char *const keys[] = { "apiKey", "api_key" };
	json_object *v;

	for (size_t i = 0; i < sizeof passwords / sizeof passwords[0]; i++) {
		if (!json_object_object_get_ex(m, passwords[i], &v) || v == NULL ||
		    (json_object_is_type(v, json_type_string) && json_object_get_string_len(v) == 0))
			continue;
		jx_wipe_strings(v);
		json_object_object_add(m, passwords[i], json_object_new_string("[redacted]"));
	}
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		json_object_object_del(m, keys[i]);
}

/* Each alert link's own timing, from v2 alert_contacts[] or v3
 * assignedAlertContacts[] (idkey names the contact): "threshold", the minutes
 * down before this contact is alerted, and "recurrence", every how many
 * minutes it is alerted again while down; 0 is at once, once. Minutes on
 * both APIs: the v3 reference's AlertContactSettings ("Delay of notification
 * in minutes, after the monitor is down", "Repeat notifications every X
 * minutes", uptimerobot.com/api/v3), and for v2 the announcement of the
 * fields ("if down for x minutes, alert once (or every y minutes)",
 * uptimerobot.com/blog/new-features-for-the-api). A value that is not a
 * number of minutes from 0 to UR_MAX_MINUTES leaves that link's timing
 * unsaid, with a warning. NULL when no link has one. */
static json_object *
link_timing(json_object *links, const char *idkey, const char *what, const char *name, struct prov_page *page)
{
	static const char *const keys[] = { "threshold", "recurrence" };
	json_object *timing = NULL;
	char cid[192];
	size_t bad = 0;

	for (size_t i = 0; links != NULL && i < json_object_array_length(links) && i < PROV_MAX_ITEMS; i++) {
		json_object *l = json_object_array_get_idx(links, i);
		int64_t min[2] = { 0, 0 };
		bool ok = true;

		if (!json_object_is_type(l, json_type_object) ||
		    prov_json_id(prov_get(l, idkey), cid, sizeof cid) != 0)
			continue;
		for (size_t k = 0; k < 2; k++) {
			json_object *v = prov_get(l, keys[k]);

			/* v2 writes an unset number as "" */
			if (v == NULL ||
			    (json_object_is_type(v, json_type_string) && json_object_get_string_len(v) == 0))
				continue;
			if (!prov_json_int(v, &min[k]) || min[k] < 0 || min[k] > UR_MAX_MINUTES)
				ok = false;
		}
		if (!ok) {
			bad++;
			continue;
		}
		prov_contact_timing(&timing, cid, min[0] * 60, min[1] * 60);
	}
	if (bad > 0)
		prov_page_warn(page,
		    UR " %s \"%s\" has %zu alert contact(s) whose threshold or recurrence is not a "
		       "number of minutes from 0 to %d; they are linked without their timing",
		    what, name, bad, UR_MAX_MINUTES);
	return timing;
}

/* Member key of a monitor's login: NULL when absent, null or ""; *bad when
 * it is not usable text (another type, a NUL byte, not UTF-8, or over 255
 * bytes: the v3 reference's maxLength is 255). */
static const char *
login_part(json_object *m, const char *key, bool *bad)
{
	json_object *v = prov_get(m, key);
	const char *s;
	size_t n;

	if (v == NULL || (json_object_is_type(v, json_type_string) && json_object_get_string_len(v) == 0))
		return NULL;
	if (!json_object_is_type(v, json_type_string)) {
		*bad = true;
		return NULL;
	}
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	if (strlen(s) != n || n > 255 || !utf8_valid(s, n)) {
		*bad = true;
		return NULL;
	}
	return s;
}

/* Whether the monitor has a user name or password (any value but null and ""). */
static bool
has_login(json_object *m, const char *user_key, const char *password_key)
{
	bool bad = false;

	return login_part(m, user_key, &bad) != NULL || login_part(m, password_key, &bad) != NULL || bad;
}

/* The basic-auth login of a monitor into mon (auth_username, auth_password;
 * discovery seals the password, drop_secrets keeps it out of the stored
 * copy). A part that login_part finds unusable: no login, with a warning. */
static void
take_login(json_object *m, const char *user_key, const char *password_key, struct prov_monitor *mon,
    struct prov_page *page)
{
	bool bad = false;
	const char *user = login_part(m, user_key, &bad), *password = login_part(m, password_key, &bad);

	if (bad) {
		prov_page_warn(page,
		    UR " monitor \"%s\" logs in with a user name or password that is not text of at "
		       "most 255 bytes; its login is not imported: enter it again",
		    mon->name);
		return;
	}
	mon->auth_username = user;
	mon->auth_password = password;
}

/* The warning for a login the account cannot make (it has basic auth only). */
static void
login_not_taken(const char *how, struct prov_monitor *mon, struct prov_page *page)
{
	prov_page_warn(page,
	    UR " monitor \"%s\" logs in with %s authentication, which the account does not "
	       "offer (basic only); its credentials are not imported: enter them again",
	    mon->name, how);
}

/* Add the item of monitor m (a monitor or a heartbeat) with its normalized
 * object norm, m's secrets then taken out of the copy that is stored. */
static void
add_norm(struct prov_page *page, const char *type, const char *id, json_object *m, json_object *norm)
{
	drop_secrets(m);
	prov_page_add(page, type, id, json_object_get(m), norm);
}

/* The field tables (at the end) map the fields that are copied as they are. */
static const struct prov_field monitor_fields[], contact_fields[];

/* ------------------------------------------------------------- v2 monitors */

static const char *
v2_method(json_object *m, const char *name, struct prov_page *page)
{
	static const char *const names[] = { NULL, "HEAD", "GET", "POST", "PUT", "PATCH", "DELETE",
		"OPTIONS" };
	int64_t code;

	if (!prov_get_int(m, "http_method", &code) || code == 0)
		return NULL;
	if (code > 0 && code < 8)
		return names[code];
	prov_page_warn(page, UR " monitor \"%s\" has an unknown HTTP method %lld; imported without one", name,
	    (long long)code);
	return NULL;
}

/* custom_http_statuses "404:1_500:0": 1 = counts as up (expected), 0 = down (alert). */
static void
v2_statuses(json_object *m, struct prov_monitor *mon)
{
	const char *s = prov_get_text(m, "custom_http_statuses", PROV_MAX_STR);
	char code[8];

	mon->expected_status_codes = json_object_new_array();
	mon->alert_status_codes = json_object_new_array();
	while (s != NULL && *s != '\0') {
		size_t n = strcspn(s, ":_");

		if (n > 0 && n < sizeof code && s[n] == ':' && (s[n + 1] == '0' || s[n + 1] == '1')) {
			memcpy(code, s, n);
			code[n] = '\0';
			json_object_array_add(s[n + 1] == '1' ? mon->expected_status_codes :
			                                        mon->alert_status_codes,
			    json_object_new_string(code));
		}
		s += strcspn(s, "_");
		if (*s == '_')
			s++;
	}
}

/* http_username and http_password; http_auth_type 1 basic, 2 digest (often
 * not returned: then basic, UptimeRobot's default; providers.md §1.2). */
static void
v2_login(json_object *m, struct prov_monitor *mon, struct prov_page *page)
{
	int64_t how = prov_int_or(m, "http_auth_type", 1);

	if (!has_login(m, "http_username", "http_password"))
		return;
	if (how == 1)
		take_login(m, "http_username", "http_password", mon, page);
	else
		login_not_taken(how == 2 ? "digest" : "an unknown kind of", mon, page);
}

/* Method, body (with its content type), headers, status codes, TLS, login. */
static void
v2_request(json_object *m, struct prov_monitor *mon, struct prov_page *page)
{
	json_object *ssl = prov_get_object(m, "ssl");
	int64_t ct = -1;

	mon->http_method = v2_method(m, mon->name, page);
	mon->request_body = text_or_json(prov_get(m, "post_value"));
	mon->request_headers = headers_of(prov_get(m, "custom_http_headers"));
	/* post_content_type 0 text/html, 1 application/json: what UptimeRobot sends. */
	if (mon->request_body != NULL && prov_get_int(m, "post_content_type", &ct) && (ct == 0 || ct == 1) &&
	    !has_header(mon->request_headers, "Content-Type"))
		json_object_object_add(mon->request_headers, "Content-Type",
		    json_object_new_string(ct == 1 ? "application/json" : "text/html"));
	v2_statuses(m, mon);
	mon->timeout = prov_int_or(m, "timeout", 0);
	if (prov_get(ssl, "ignore_errors") != NULL)
		mon->verify_ssl = prov_get_bool(ssl, "ignore_errors", false) ? PROV_NO : PROV_YES;
	v2_login(m, mon, page);
}

/* The port of a port monitor: "port" (sub_type is 1 for every port monitor
 * on reads), the predefined port of sub_type only when port is empty. */
static int64_t
v2_port(json_object *m, const char *name, struct prov_page *page)
{
	static const int sub_ports[] = { 0, 80, 443, 21, 25, 110, 143 };
	int64_t port = -1, sub = -1;

	if (prov_get_int(m, "port", &port) && port > 0 && port <= 65535)
		return port;
	if (prov_get_int(m, "sub_type", &sub) && sub >= 1 && sub <= 6)
		return sub_ports[sub];
	prov_page_warn(page, UR " port monitor \"%s\" has no usable port; imported without one", name);
	return -1;
}

static void
v2_heartbeat(json_object *m, const char *id, struct prov_monitor *mon, struct prov_page *page)
{
	struct prov_heartbeat hb = { 0 };

	hb.name = mon->name;
	hb.interval = mon->interval;
	hb.paused = mon->paused;
	hb.ping_url = is_http_url(mon->url) ? mon->url : NULL;
	hb.contact_ids = mon->contact_ids;
	hb.contact_timing = mon->contact_timing;
	add_norm(page, "heartbeat", id, m, prov_norm_heartbeat(&hb));
}

static void
add_v2_monitor(json_object *m, const char *id, struct prov_page *page)
{
	struct prov_monitor mon = { 0 };
	const char *name = prov_get_text(m, "friendly_name", PROV_MAX_STR);
	int64_t type = -1, kw;

	prov_map(monitor_fields, m, &mon);
	prov_get_int(m, "type", &type);
	mon.name = name ? name : mon.url ? mon.url : id;
	mon.interval = prov_int_or(m, "interval", 300);
	mon.paused = prov_int_or(m, "status", 1) == 0;
	mon.port = -1;
	mon.contact_ids = prov_id_list(prov_get_array(m, "alert_contacts"), "id");
	mon.contact_timing = link_timing(prov_get_array(m, "alert_contacts"), "id",
	    type == 5 ? "heartbeat" : "monitor", mon.name, page);
	if (type == 5) {
		v2_heartbeat(m, id, &mon, page);
		return;
	}
	if (type == 1 || type == 2)
		v2_request(m, &mon, page);
	switch (type) {
	case 1:
		mon.type = "http";
		break;
	case 2:
		mon.type = "keyword";
		mon.keyword = prov_get_text(m, "keyword_value", PROV_MAX_STR);
		/* 1 "exists" alerts when the keyword is found: up while it is absent. */
		kw = prov_int_or(m, "keyword_type", 2);
		mon.keyword_up_when = kw == 1 ? "absent" : "present";
		if (kw != 1 && kw != 2)
			prov_page_warn(page,
			    UR " monitor \"%s\" has an unknown keyword type %lld; imported as "
			       "alert when the keyword is missing",
			    mon.name, (long long)kw);
		if (prov_get_int(m, "keyword_case_type", &kw) && (kw == 0 || kw == 1))
			mon.keyword_case_sensitive = kw == 0 ? PROV_YES : PROV_NO;
		break;
	case 3:
		mon.type = "ping";
		break;
	case 4:
		mon.type = "port";
		mon.port = v2_port(m, mon.name, page);
		break;
	default:
		mon.type = "other";
		prov_page_warn(page, UR " monitor \"%s\" has an unknown type %lld; kept as other", mon.name,
		    (long long)type);
		break;
	}
	add_norm(page, "monitor", id, m, prov_norm_monitor(&mon));
}

/* ------------------------------------------------------------- v3 monitors */

static const char *
v3_type(const char *t)
{
	static const char *const map[][2] = { { "HTTP", "http" }, { "KEYWORD", "keyword" },
		{ "PING", "ping" }, { "PORT", "port" }, { "DNS", "dns" }, { "API", "api" },
		{ "UDP", "udp" } };

	for (size_t i = 0; t != NULL && i < sizeof map / sizeof map[0]; i++)
		if (strcasecmp(t, map[i][0]) == 0)
			return map[i][1];
	return NULL;
}

static const char *
v3_method(const char *m, const char *name, struct prov_page *page)
{
	static const char *const known[] = { "HEAD", "GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS" };

	if (m == NULL)
		return NULL;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcasecmp(m, known[i]) == 0)
			return known[i];
	prov_page_warn(page,
	    UR " monitor \"%s\" uses the HTTP method %s, which cannot be imported; "
	       "imported without a method",
	    name, m);
	return NULL;
}

/* A list of region names (strings), lower case, into out. */
static void
regions_add(json_object *out, json_object *v)
{
	char buf[32];

	if (json_object_is_type(v, json_type_string)) {
		if (json_object_get_string_len(v) > 0 && json_object_get_string_len(v) < (int)sizeof buf)
			json_object_array_add(out,
			    json_object_new_string(lower_word(json_object_get_string(v), buf, sizeof buf)));
		return;
	}
	for (size_t i = 0;
	     json_object_is_type(v, json_type_array) && i < json_object_array_length(v) && i < 32; i++)
		regions_add(out, json_object_array_get_idx(v, i));
}

/* regionalData "eu", {"REGION":[…]} or [{"type":"REGION","value":[…]}]; or regionData{REGION}. */
static json_object *
v3_regions(json_object *m)
{
	json_object *out = json_object_new_array(), *rd = prov_get(m, "regionalData");

	if (rd == NULL)
		rd = prov_get(m, "regionData");
	if (json_object_is_type(rd, json_type_string))
		regions_add(out, rd);
	else if (json_object_is_type(rd, json_type_object))
		regions_add(out, prov_get(rd, "REGION"));
	else if (json_object_is_type(rd, json_type_array))
		for (size_t i = 0; i < json_object_array_length(rd) && i < 32; i++) {
			json_object *e = json_object_array_get_idx(rd, i);
			const char *t = prov_get_str(e, "type", 32);

			if (t != NULL && strcasecmp(t, "REGION") == 0)
				regions_add(out, prov_get(e, "value"));
		}
	return out;
}

/* Tag names, plus "group:<name>" for a monitor in a group other than the default. */
static json_object *
v3_tags(json_object *m, const struct ur_ctx *ctx)
{
	json_object *out = json_object_new_array(), *tags = prov_get_array(m, "tags"), *g;
	char gid[32], buf[300];

	for (size_t i = 0; tags != NULL && i < json_object_array_length(tags) && i < 100; i++) {
		json_object *t = json_object_array_get_idx(tags, i);
		const char *name = json_object_is_type(t, json_type_string) ? json_object_get_string(t) :
		                                                              prov_get_text(t, "name", 255);

		if (name != NULL && name[0] != '\0' && strlen(name) <= 255)
			json_object_array_add(out, json_object_new_string(name));
	}
	if (prov_int_or(m, "groupId", 0) > 0 && prov_get_id(m, "groupId", gid, sizeof gid) == 0 &&
	    ctx != NULL && json_object_object_get_ex(ctx->groups, gid, &g)) {
		utf8_format(buf, sizeof buf, "group:%s", json_object_get_string(g));
		json_object_array_add(out, json_object_new_string(buf));
	}
	return out;
}

/* The earliest certificate reminder, in days before expiry. */
static int64_t
v3_ssl_days(json_object *m)
{
	json_object *days = prov_get_array(prov_get_object(m, "config"), "sslExpirationPeriodDays");
	int64_t best = -1, d;

	if (prov_get(m, "sslExpirationReminder") != NULL && !prov_get_bool(m, "sslExpirationReminder", false))
		return -1;
	for (size_t i = 0; days != NULL && i < json_object_array_length(days); i++)
		if (prov_json_int(json_object_array_get_idx(days, i), &d) && d > best && d <= 3650)
			best = d;
	return best;
}

static enum prov_tri
tri_of(json_object *o, const char *key)
{
	if (prov_get(o, key) == NULL)
		return PROV_UNSET;
	return prov_get_bool(o, key, false) ? PROV_YES : PROV_NO;
}

/* Method, body, headers, expected codes, redirects, TLS and login of an
 * HTTP-like monitor (authType NONE, HTTP_BASIC, DIGEST, BEARER: the v3
 * reference's CreateApiMonitorDto). */
static void
v3_request(json_object *m, struct prov_monitor *mon, struct prov_page *page)
{
	const char *pt = prov_get_str(m, "postValueType", 32);
	const char *auth = prov_get_text(m, "authType", 32);

	mon->http_method = v3_method(prov_get_text(m, "httpMethodType", 32), mon->name, page);
	mon->request_body = text_or_json(prov_get(m, "postValueData"));
	mon->request_headers = headers_of(prov_get(m, "customHttpHeaders"));
	if (mon->request_body != NULL && pt != NULL && strcasecmp(pt, "RAW_JSON") == 0 &&
	    !has_header(mon->request_headers, "Content-Type"))
		json_object_object_add(mon->request_headers, "Content-Type",
		    json_object_new_string("application/json"));
	mon->expected_status_codes = prov_id_list(prov_get_array(m, "successHttpResponseCodes"), NULL);
	mon->follow_redirects = tri_of(m, "followRedirections");
	mon->verify_ssl = tri_of(m, "checkSSLErrors");
	mon->ssl_expiry_days = v3_ssl_days(m);
	/* authType NONE: UptimeRobot sends no login, whatever httpUsername holds */
	if (auth == NULL || strcasecmp(auth, "HTTP_BASIC") == 0) {
		if (has_login(m, "httpUsername", "httpPassword"))
			take_login(m, "httpUsername", "httpPassword", mon, page);
	} else if (strcasecmp(auth, "NONE") != 0)
		login_not_taken(auth, mon, page);
}

/* A DNS monitor's expected answers, v3 config.dnsRecords: record type →
 * the answers that count as up ({"A": ["192.0.2.1"], "MX": ["10 mx."]}; the
 * reference's DnsRecordsDto: CNAME MX NS A AAAA TXT SRV PTR SOA SPF DNSKEY
 * DS NSEC NSEC3). The account checks one record type: the first with answers
 * becomes dns_record_type (upper case, into type) and dns_expected; the
 * others are named in a warning. The API names no name server. */
static void
v3_dns(json_object *m, struct prov_monitor *mon, char type[16], struct prov_page *page)
{
	json_object *recs = prov_get_object(prov_get_object(m, "config"), "dnsRecords");
	char others[200] = "";
	size_t nothers = 0, at;

	if (recs == NULL)
		return;
	json_object_object_foreach (recs, t, vals) {
		json_object *expected;
		size_t i, n = json_object_is_type(vals, json_type_array) ? json_object_array_length(vals) : 0;

		if (n == 0)
			continue;
		for (i = 0; t[i] != '\0' && i < 15 &&
		     ((t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= 'a' && t[i] <= 'z') ||
		         (t[i] >= '0' && t[i] <= '9'));
		     i++)
			;
		if (i == 0 || t[i] != '\0' || mon->dns_record_type != NULL) {
			char shown[24];

			prov_copy_text(shown, sizeof shown, t);
			if (nothers++ < 8 && (at = strlen(others)) < sizeof others - 1)
				utf8_format(others + at, sizeof others - at, "%s%s", at ? ", " : "", shown);
			continue;
		}
		expected = json_object_new_array();
		for (size_t k = 0; k < n && k < 100; k++) {
			json_object *v = json_object_array_get_idx(vals, k);

			if (json_object_is_type(v, json_type_string) && json_object_get_string_len(v) > 0 &&
			    json_object_get_string_len(v) <= 255)
				json_object_array_add(expected,
				    json_object_new_string(json_object_get_string(v)));
		}
		if (json_object_array_length(expected) == 0) {
			json_object_put(expected);
			continue;
		}
		for (i = 0; t[i] != '\0'; i++) /* at most 15 letters and digits */
			type[i] = (char)(t[i] >= 'a' && t[i] <= 'z' ? t[i] - 'a' + 'A' : t[i]);
		type[i] = '\0';
		mon->dns_record_type = type;
		mon->dns_expected = expected;
	}
	if (nothers > 0)
		prov_page_warn(page,
		    UR " DNS monitor \"%s\" also expects records of %zu other type(s) (%s); the account "
		       "checks one type, %s: add a check for each of the others by hand",
		    mon->name, nothers, others, mon->dns_record_type ? mon->dns_record_type : "none");
}

/* An API monitor's checks of the answer, v3 config.apiAssertions {"logic":
 * "AND"|"OR", "checks": [{"property": a JSONPath, "comparison", "target"}]}
 * (the reference's ApiAssertionsDto, AssertionCheckDto): each a "json"
 * assertion with the comparison as UptimeRobot names it, the target as text
 * (a string as it is, a number or true/false as JSON writes it; none for
 * is_null and is_not_null). A check without a property or with another
 * comparison is left out, with a warning. The account requires every
 * assertion: OR over more than one is imported as AND, with a warning. */
static json_object *
v3_assertions(json_object *m, const char *name, struct prov_page *page)
{
	static const char *const comparisons[] = { "equals", "not_equals", "contains", "not_contains",
		"greater_than", "less_than", "is_null", "is_not_null" };
	json_object *a = prov_get_object(prov_get_object(m, "config"), "apiAssertions");
	json_object *checks = prov_get_array(a, "checks"), *out = json_object_new_array();
	const char *logic = prov_get_str(a, "logic", 16);
	size_t n = checks != NULL ? json_object_array_length(checks) : 0, skipped = 0;

	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(checks, i), *target = prov_get(c, "target");
		const char *prop = prov_get_text(c, "property", 500),
		           *cmp = prov_get_str(c, "comparison", 32);
		const char *known = NULL, *text;

		for (size_t k = 0; cmp != NULL && k < sizeof comparisons / sizeof comparisons[0]; k++)
			if (strcasecmp(cmp, comparisons[k]) == 0)
				known = comparisons[k];
		if (prop == NULL || known == NULL || i >= UR_MAX_CHECKS) {
			skipped++;
			continue;
		}
		text = json_object_is_type(target, json_type_string) ? json_object_get_string(target) :
		                                                       text_or_json(target);
		if (strncmp(known, "is_", 3) == 0 || (text != NULL && strlen(text) > PROV_MAX_STR))
			text = NULL;
		json_object_array_add(out, prov_assertion("json", prop, known, text));
	}
	if (skipped > 0)
		prov_page_warn(page,
		    UR " API monitor \"%s\" has %zu assertion(s) without a property, with an unknown "
		       "comparison or past the first %d; they are not imported",
		    name, skipped, UR_MAX_CHECKS);
	if (json_object_array_length(out) > 1 && logic != NULL && strcasecmp(logic, "OR") == 0)
		prov_page_warn(page,
		    UR " API monitor \"%s\" is up when any one of its %zu assertions holds; the account "
		       "requires each of them: review them",
		    name, json_object_array_length(out));
	return out;
}

static void
v3_heartbeat(json_object *m, const char *id, struct prov_monitor *mon, const struct ur_ctx *ctx,
    struct prov_page *page)
{
	struct prov_heartbeat hb = { 0 };

	hb.name = mon->name;
	hb.interval = mon->interval;
	hb.grace = prov_int_or(m, "gracePeriod", 0);
	hb.paused = mon->paused;
	hb.ping_url = is_http_url(mon->url) ? mon->url : NULL;
	hb.tags = v3_tags(m, ctx);
	hb.contact_ids = mon->contact_ids;
	hb.contact_timing = mon->contact_timing;
	add_norm(page, "heartbeat", id, m, prov_norm_heartbeat(&hb));
}

static void
add_v3_monitor(json_object *m, const char *id, const struct ur_ctx *ctx, struct prov_page *page)
{
	struct prov_monitor mon = { 0 };
	const char *name = prov_get_text(m, "friendlyName", PROV_MAX_STR);
	const char *type = prov_get_text(m, "type", 32), *status = prov_get_text(m, "status", 32);
	char dns_type[16];
	int64_t kc;

	prov_map(monitor_fields, m, &mon);
	mon.name = name ? name : mon.url ? mon.url : id;
	mon.interval = prov_int_or(m, "interval", 300);
	mon.paused = status != NULL && strcasecmp(status, "PAUSED") == 0;
	mon.contact_ids = prov_id_list(prov_get_array(m, "assignedAlertContacts"), "alertContactId");
	mon.contact_timing = link_timing(prov_get_array(m, "assignedAlertContacts"), "alertContactId",
	    type != NULL && strcasecmp(type, "HEARTBEAT") == 0 ? "heartbeat" : "monitor", mon.name, page);
	if (type != NULL && strcasecmp(type, "HEARTBEAT") == 0) {
		v3_heartbeat(m, id, &mon, ctx, page);
		return;
	}
	if ((mon.type = v3_type(type)) == NULL) {
		mon.type = "other";
		prov_page_warn(page, UR " monitor \"%s\" has an unknown type %s; kept as other", mon.name,
		    type ? type : "(none)");
	}
	mon.port = -1;
	if (strcmp(mon.type, "port") == 0 || strcmp(mon.type, "udp") == 0)
		mon.port = prov_int_or(m, "port", -1);
	if (strcmp(mon.type, "http") == 0 || strcmp(mon.type, "keyword") == 0 || strcmp(mon.type, "api") == 0)
		v3_request(m, &mon, page);
	else if (strcmp(mon.type, "udp") == 0)
		mon.request_body = prov_get_text(prov_get_object(prov_get_object(m, "config"), "udp"),
		    "payload", PROV_MAX_STR);
	if (strcmp(mon.type, "keyword") == 0) {
		const char *kt = prov_get_str(m, "keywordType", 32);

		mon.keyword = prov_get_text(m, "keywordValue", PROV_MAX_STR);
		/* ALERT_EXISTS alerts when the keyword is found: up while it is absent. */
		mon.keyword_up_when =
		    kt != NULL && strcasecmp(kt, "ALERT_EXISTS") == 0 ? "absent" : "present";
		if (kt == NULL ||
		    (strcasecmp(kt, "ALERT_EXISTS") != 0 && strcasecmp(kt, "ALERT_NOT_EXISTS") != 0))
			prov_page_warn(page,
			    UR " monitor \"%s\" has an unknown keyword type %s; imported as "
			       "alert when the keyword is missing",
			    mon.name, kt ? kt : "(none)");
		if (prov_get_int(m, "keywordCaseType", &kc) && (kc == 0 || kc == 1))
			mon.keyword_case_sensitive = kc == 0 ? PROV_YES : PROV_NO;
	}
	if (strcmp(mon.type, "dns") == 0)
		v3_dns(m, &mon, dns_type, page);
	else if (strcmp(mon.type, "api") == 0)
		mon.assertions = v3_assertions(m, mon.name, page);
	mon.timeout = prov_int_or(m, "timeout", 0);
	mon.regions = v3_regions(m);
	mon.tags = v3_tags(m, ctx);
	add_norm(page, "monitor", id, m, prov_norm_monitor(&mon));
}

/* ---------------------------------------------------------------- contacts */

/* Alert contact types of v2 and of numeric v3 answers (official map; index =
 * type). NULL: unknown. */
/* clang-format off */
static const char *const contact_types[] = {
	NULL, "sms", "email", "other" /* Twitter */, "push" /* Boxcar */, "webhook",
	"push" /* Pushbullet */, "other" /* Zapier */, "sms" /* Pro SMS */, "pushover",
	"other" /* HipChat */, "slack", "push" /* iOS app */, "push" /* Android app */,
	"voice", "other" /* Splunk */, "pagerduty", "opsgenie", "telegram", NULL, "teams",
	"other" /* Google Chat */, NULL, "discord", "other" /* Mattermost */
};
/* clang-format on */

/* v3 type names (official TF alert_contact.go, integration.go), lower case. */
/* clang-format off */
static const char *const contact_names[][2] = {
	{ "email", "email" }, { "emailtosms", "sms" }, { "sms", "sms" }, { "prosms", "sms" },
	{ "voice", "voice" }, { "mobileappios", "push" }, { "mobileappandroid", "push" },
	{ "mobileapp", "push" }, { "mobileappold", "push" }, { "webhook", "webhook" }, { "slack", "slack" }, { "msteams", "teams" },
	{ "teams", "teams" }, { "telegram", "telegram" }, { "discord", "discord" },
	{ "pagerduty", "pagerduty" }, { "opsgenie", "opsgenie" }, { "pushover", "pushover" },
	{ "pushbullet", "push" }, { "zapier", "other" }, { "googlechat", "other" },
	{ "mattermost", "other" }, { "splunk", "other" }, { "twitter", "other" }, { "boxcar", "push" },
	{ "hipchat", "other" }
};
/* clang-format on */

/* The normalized type of a contact's "type" (number, numeric string or v3 name), or NULL. */
static const char *
contact_type(json_object *c, char *shown, size_t size)
{
	const char *s = prov_get_str(c, "type", 64);
	int64_t t;
	char low[64];

	if (prov_get_int(c, "type", &t)) {
		snprintf(shown, size, "%lld", (long long)t);
		if (t >= 0 && (size_t)t < sizeof contact_types / sizeof contact_types[0])
			return contact_types[t];
		return NULL;
	}
	prov_copy_text(shown, size, s ? s : "(none)");
	lower_word(s, low, sizeof low);
	for (size_t i = 0; s != NULL && i < sizeof contact_names / sizeof contact_names[0]; i++)
		if (strcmp(low, contact_names[i][0]) == 0)
			return contact_names[i][1];
	return NULL;
}

static void
add_contact(json_object *c, const char *id, struct prov_page *page)
{
	struct prov_contact ct = { 0 };
	char shown[48];

	/* friendly_name, and webhookURL: v3 integrations keep the address there. */
	prov_map(contact_fields, c, &ct);
	if (ct.name == NULL)
		ct.name = prov_get_text(c, "friendlyName", PROV_MAX_STR);
	if (ct.name == NULL) /* a team or organization contact (add_team_contacts) */
		ct.name = prov_get_text(c, "name", PROV_MAX_STR);
	if (ct.value == NULL)
		ct.value = prov_get_text(c, "value", PROV_MAX_STR);
	if (ct.name == NULL)
		ct.name = ct.value ? ct.value : id;
	if ((ct.type = contact_type(c, shown, sizeof shown)) == NULL) {
		ct.type = "other";
		prov_page_warn(page, UR " alert contact \"%s\" has an unknown type %s; kept as other",
		    ct.name, shown);
	}
	ct.needs_address = ct.value == NULL || strcmp(ct.type, "push") == 0;
	prov_page_add(page, "contact", id, json_object_get(c), prov_norm_contact(&ct));
}

/* ----------------------------------------------------- maintenance windows */

static const char *
recurrence_of(json_object *w, bool v3, const char *name, struct prov_page *page)
{
	static const char *const v2[] = { NULL, "once", "daily", "weekly", "monthly" };
	const char *s = prov_get_text(w, "interval", 32);
	int64_t t = -1;
	char low[32];

	if (v3) {
		lower_word(s, low, sizeof low);
		for (size_t i = 1; i < 5; i++)
			if (strcmp(low, v2[i]) == 0)
				return v2[i];
		prov_page_warn(page,
		    UR " maintenance window \"%s\" repeats in an unknown way (%s); kept as "
		       "other",
		    name, s ? s : "(none)");
		return "other";
	}
	if (prov_get_int(w, "type", &t) && t >= 1 && t <= 4)
		return v2[t];
	prov_page_warn(page, UR " maintenance window \"%s\" has an unknown type %lld; kept as other", name,
	    (long long)t);
	return "other";
}

/* Days: v2 "1-3" (weekdays 1 = Monday, or days of the month), v3 [1,3]. */
static json_object *
days_of(json_object *v)
{
	json_object *out = json_object_new_array();
	int64_t d;

	if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v) && i < 31; i++)
			if (prov_json_int(json_object_array_get_idx(v, i), &d) && d >= 1 && d <= 31)
				json_object_array_add(out, json_object_new_int((int)d));
	} else if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);

		while (*s != '\0' && json_object_array_length(out) < 31) {
			char *end;
			long n = strtol(s, &end, 10);

			if (end == s)
				break;
			if (n >= 1 && n <= 31)
				json_object_array_add(out, json_object_new_int((int)n));
			s = *end == '-' || *end == ',' ? end + 1 : end;
		}
	} else if (prov_json_int(v, &d) && d >= 1 && d <= 31)
		json_object_array_add(out, json_object_new_int((int)d));
	return out;
}

/* Seconds after midnight of a clock ("H:MM", "HH:MM", "HH:MM:SS") or of a
 * number of seconds (0-86399). */
static bool
clock_secs(json_object *v, int *secs)
{
	int64_t n;

	if (json_object_is_type(v, json_type_string) &&
	    time_parse_clock(json_object_get_string(v), secs) == 0)
		return true;
	if (!prov_json_int(v, &n) || n < 0 || n >= 86400)
		return false;
	*secs = (int)n;
	return true;
}

/* "HH:MM" of clock_secs(v) into buf, else NULL. */
static const char *
clock_of(json_object *v, char *buf, size_t size)
{
	int secs;

	if (!clock_secs(v, &secs))
		return NULL;
	snprintf(buf, size, "%02d:%02d", secs / 3600, secs / 60 % 60);
	return buf;
}

/* The monitor ids a fetch found for window id (a new array). */
static json_object *
links_of(const struct ur_ctx *ctx, const char *id)
{
	json_object *a;

	if (ctx != NULL && json_object_object_get_ex(ctx->links, id, &a))
		return json_object_get(a);
	return json_object_new_array();
}

/* v2 getMWindows: type 1 once (start_time unix seconds), 2 daily, 3 weekly,
 * 4 monthly ("HH:mm"); value "1-3"; duration minutes; status 0 paused. */
static void
add_v2_window(json_object *w, const char *id, const struct ur_ctx *ctx, struct prov_page *page)
{
	struct prov_maintenance_window mw = { 0 };
	const char *name = prov_get_text(w, "friendly_name", PROV_MAX_STR);
	char start[32], end[32], hm[8];
	int64_t t;

	mw.name = name ? name : id;
	mw.recurrence = recurrence_of(w, false, mw.name, page);
	/* minutes and a time within int32 and year 9999: t + duration * 60 cannot overflow */
	mw.duration = prov_int_in_or(w, "duration", 0, INT32_MAX, 0);
	mw.paused = prov_int_or(w, "status", 1) == 0;
	if (prov_get_time(w, "start_time", TIME_EPOCH, NULL, &t) && t >= 86400) {
		/* A point in time: the date of a one-off window, the clock of the others. */
		mw.start = time_format_iso(t, true, start) == 0 ? start : NULL;
		if (strcmp(mw.recurrence, "once") == 0 && mw.duration > 0)
			mw.end = time_format_iso(t + mw.duration * 60, true, end) == 0 ? end : NULL;
		else if (mw.start != NULL) {
			snprintf(hm, sizeof hm, "%.5s", start + 11);
			mw.start = hm;
		}
	} else
		mw.start = clock_of(prov_get(w, "start_time"), start, sizeof start);
	if (strcmp(mw.recurrence, "weekly") == 0 || strcmp(mw.recurrence, "monthly") == 0)
		mw.days = days_of(prov_get(w, "value"));
	mw.monitor_ids = links_of(ctx, id);
	prov_page_add(page, "maintenance_window", id, json_object_get(w), prov_norm_maintenance_window(&mw));
}

/* The one-off window of v3: "date" + "time" (the account's zone, which the
 * API does not say: written without one), and its end. */
static void
v3_once(json_object *w, struct prov_maintenance_window *mw, char start[21], char end[21])
{
	int64_t day;
	int secs;

	if (!prov_get_time(w, "date", TIME_DATE, NULL, &day) || !clock_secs(prov_get(w, "time"), &secs))
		return;
	mw->start = time_format_iso(day + secs, false, start) == 0 ? start : NULL;
	if (mw->start != NULL && mw->duration > 0)
		mw->end = time_format_iso(day + secs + mw->duration * 60, false, end) == 0 ? end : NULL;
}

/* The monitors (and heartbeats) a v3 window names in "monitorIds" (the
 * reference's MaintenanceWindowDto; official Terraform provider
 * internal/client/maintenance_window.go since 64857f5), at most
 * UR_MAX_LINKS. */
static json_object *
named_monitors(json_object *ids, const char *name, struct prov_page *page)
{
	json_object *out = prov_id_list(ids, NULL);

	if (json_object_array_length(out) > UR_MAX_LINKS) {
		json_object_array_del_idx(out, UR_MAX_LINKS, json_object_array_length(out) - UR_MAX_LINKS);
		prov_page_warn(page,
		    UR " maintenance window \"%s\" names more than %d monitors; only the first %d "
		       "were kept",
		    name, UR_MAX_LINKS, UR_MAX_LINKS);
	}
	return out;
}

/* v3 maintenance window: interval, date, time, duration, days, status,
 * autoAddMonitors, monitorIds (without it, as older answers have none, the
 * monitors that list the window: links_of). */
static void
add_v3_window(json_object *w, const char *id, const struct ur_ctx *ctx, struct prov_page *page)
{
	struct prov_maintenance_window mw = { 0 };
	const char *name = prov_get_text(w, "name", PROV_MAX_STR), *status = prov_get_text(w, "status", 32);
	char start[32], end[32];

	mw.name = name ? name : id;
	mw.recurrence = recurrence_of(w, true, mw.name, page);
	mw.duration = prov_int_in_or(w, "duration", 0, INT32_MAX, 0); /* v3_once adds it * 60 to a time */
	mw.paused = status != NULL && strcasecmp(status, "paused") == 0;
	if (strcmp(mw.recurrence, "once") == 0)
		v3_once(w, &mw, start, end);
	else
		mw.start = clock_of(prov_get(w, "time"), start, sizeof start);
	if (strcmp(mw.recurrence, "weekly") == 0 || strcmp(mw.recurrence, "monthly") == 0)
		mw.days = days_of(prov_get(w, "days"));
	if (prov_get_bool(w, "autoAddMonitors", false))
		prov_page_warn(page,
		    UR " maintenance window \"%s\" is added to every new monitor; that is not "
		       "imported: add new monitors to it by hand",
		    mw.name);
	mw.monitor_ids = prov_get_array(w, "monitorIds") != NULL ?
	    named_monitors(prov_get_array(w, "monitorIds"), mw.name, page) :
	    links_of(ctx, id);
	prov_page_add(page, "maintenance_window", id, json_object_get(w), prov_norm_maintenance_window(&mw));
}

/* ------------------------------------------------------------ status pages */

/* A status page's entries (its monitors). */
static const char *const sp_item_keys[] = { "items", NULL };

static void
add_v2_psp(json_object *p, const char *id, struct prov_page *page)
{
	struct prov_status_page sp = { 0 };
	const char *name = prov_get_text(p, "friendly_name", PROV_MAX_STR);
	const char *custom = prov_get_text(p, "custom_url", PROV_MAX_STR);
	json_object *mons = prov_get(p, "monitors"), *norm;
	char mid[160];
	int64_t n;
	bool unread = false;

	sp.name = name ? name : id;
	sp.url = custom ? custom : prov_get_text(p, "standard_url", PROV_MAX_STR);
	sp.public_ = prov_int_or(p, "status", 1) == 1;
	if (json_object_is_type(mons, json_type_array))
		sp.monitor_ids = prov_id_list(mons, "id");
	else {
		sp.monitor_ids = json_object_new_array();
		if (prov_json_int(mons, &n) && n == 0) {
			/* 0: every monitor of the account, new ones too (providers.md §1.2, getPSPs) */
			sp.all_monitors = true;
			prov_page_warn(page,
			    UR
			    " status page \"%s\" shows all monitors: it was imported with every monitor of "
			    "this run; monitors added later are not added to it",
			    sp.name);
		} else if (prov_json_id(mons, mid, sizeof mid) == 0)
			json_object_array_add(sp.monitor_ids, json_object_new_string(mid));
		else if (mons != NULL) {
			prov_page_warn(page,
			    UR " status page \"%s\" has an unreadable monitor list; "
			       "imported without monitors",
			    sp.name);
			unread = true;
		}
	}
	norm = prov_norm_status_page(&sp);
	if (unread)
		prov_unread(norm, "its monitor list could not be read", sp_item_keys);
	prov_page_add(page, "status_page", id, json_object_get(p), norm);
}

/* v3 /psps: friendlyName, customDomain or urlKey, monitorIds, status, isPasswordSet. */
static void
add_v3_psp(json_object *p, const char *id, struct prov_page *page)
{
	struct prov_status_page sp = { 0 };
	const char *name = prov_get_text(p, "friendlyName", PROV_MAX_STR);
	const char *domain = prov_get_text(p, "customDomain", 255), *key = prov_get_text(p, "urlKey", 255);
	const char *status = prov_get_text(p, "status", 32);
	char url[300];
	json_object *norm;
	bool unread;

	sp.name = name ? name : id;
	if (domain != NULL)
		utf8_format(url, sizeof url, "%s%s", is_http_url(domain) ? "" : "https://", domain);
	else if (key != NULL)
		utf8_format(url, sizeof url, "https://stats.uptimerobot.com/%s", key);
	sp.url = domain != NULL || key != NULL ? url : NULL;
	sp.public_ = !(status != NULL && strcasecmp(status, "PAUSED") == 0) &&
	    !prov_get_bool(p, "isPasswordSet", false);
	sp.monitor_ids = prov_id_list(prov_get_array(p, "monitorIds"), NULL);
	unread = json_object_array_length(sp.monitor_ids) == 0 && prov_int_or(p, "monitorsCount", 0) > 0;
	if (unread)
		prov_page_warn(page,
		    UR " status page \"%s\" shows %lld monitors that the list does not name; "
		       "imported without them",
		    sp.name, (long long)prov_int_or(p, "monitorsCount", 0));
	norm = prov_norm_status_page(&sp);
	if (unread)
		prov_unread(norm, "the status page list does not name its monitors", sp_item_keys);
	prov_page_add(page, "status_page", id, json_object_get(p), norm);
}

/* ----------------------------------------------------------------- answers */

/* The in-body error of a v2 "stat":"fail" answer; *refused for "not_authorized". */
static enum prov_status
fail_answer(json_object *root, bool *refused, struct prov_error *err)
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
	if (type != NULL && strcmp(type, "not_authorized") == 0) {
		*refused = true;
		return prov_fail(err, PROV_AUTH,
		    UR " refused the API key for this request; use the "
		       "main or read-only API key");
	}
	if (type != NULL && strstr(type, "rate") != NULL)
		return prov_fail(err, PROV_RATE_LIMITED, UR " rate limit reached (%s)", text);
	return prov_fail(err, PROV_FATAL, UR " answered with an error: %s", text);
}

/* The error of a non-2xx answer, with UptimeRobot's own text when it sent one. */
static enum prov_status
http_error(const struct httpc_resp *resp, struct prov_error *err)
{
	enum prov_status st = httpc_classify(resp, UR, "API key", err);
	char text[160];
	size_t l;

	if (st == PROV_OK || st == PROV_RATE_LIMITED)
		return st;
	prov_body_message(resp, text, sizeof text);
	if (st == PROV_AUTH)
		return prov_fail(err, PROV_AUTH, UR " rejected the API key (HTTP %ld%s%s)", resp->status,
		    text[0] ? ": " : "", text);
	l = strlen(err->message);
	if (text[0] != '\0' && l + 3 < sizeof err->message)
		utf8_format(err->message + l, sizeof err->message - l, ": %s", text);
	return st;
}

/* The answer's JSON and its list: v2 under key after "stat":"ok"; v3 the bare
 * array, "data", or key. NULL with err set for an error or a malformed answer
 * (*refused: v2 said not_authorized). *list is NULL when there is none. */
static json_object *
answer_list(const struct httpc_resp *resp, bool v3, const char *key, json_object **list, bool *refused,
    struct prov_error *err)
{
	json_object *root;
	const char *stat;

	*list = NULL;
	*refused = false;
	if (http_error(resp, err) != PROV_OK || (root = prov_parse_json(resp, UR, err)) == NULL)
		return NULL;
	if (!v3) {
		stat = prov_get_str(root, "stat", 16);
		if (stat != NULL && strcmp(stat, "fail") == 0) {
			fail_answer(root, refused, err);
			json_object_put(root);
			return NULL;
		}
		if (stat == NULL || strcmp(stat, "ok") != 0 || !json_object_is_type(root, json_type_object)) {
			json_object_put(root);
			prov_fail(err, PROV_TRANSIENT, UR " sent an answer without \"stat\":\"ok\"");
			return NULL;
		}
	}
	if (json_object_is_type(root, json_type_array))
		*list = root;
	else if (v3 && prov_get(root, "data") != NULL)
		key = "data";
	if (*list == NULL && (*list = prov_get_array(root, key)) == NULL && prov_get(root, key) != NULL) {
		json_object_put(root);
		prov_fail(err, PROV_TRANSIENT, UR " sent \"%s\" that is not a list", key);
		return NULL;
	}
	return root;
}

/* v2 pagination numbers: nested "pagination" (monitors, windows, PSPs) or top
 * level (alert contacts); either is accepted everywhere. */
static int64_t
page_num(json_object *root, const char *key, int64_t dflt)
{
	int64_t v;

	if (prov_get_int(prov_get_object(root, "pagination"), key, &v) || prov_get_int(root, key, &v))
		return v;
	return dflt;
}

/* v3: the cursor of the next page (nextCursorId, or cursor= of nextLink), or -1. */
static int64_t
v3_next(json_object *root)
{
	const char *link = prov_get_str(root, "nextLink", 2048), *c;
	int64_t n;

	if (prov_get_int(root, "nextCursorId", &n))
		return n;
	for (c = link; c != NULL && (c = strstr(c, "cursor=")) != NULL; c += 7)
		if (c > link && (c[-1] == '?' || c[-1] == '&')) {
			char *end;
			long long v = strtoll(c + 7, &end, 10);

			return end != c + 7 && (*end == '\0' || *end == '&') && v > 0 ? v : -1;
		}
	return -1;
}

/* The first page of the phase after ph, or the end. */
static void
next_phase(size_t ph, struct prov_page *page)
{
	if (ph != PH_PSPS && ph != PH3_PSPS)
		page->next_cursor = prov_cursor_make(phases[ph + 1], 0);
}

/* ------------------------------------------------------------------- parse */

/* The phase and position of cursor; NULL is the start: v3 monitors. */
static int
cursor_of(const char *cursor, size_t *ph, int64_t *pos)
{
	if (cursor == NULL) {
		*ph = PH3_MONITORS;
		*pos = 0;
		return 0;
	}
	return prov_cursor_parse(cursor, phases, 0, ph, pos);
}

static void
add_item(size_t ph, json_object *it, const char *id, const struct ur_ctx *ctx, struct prov_page *page)
{
	switch (ph) {
	case PH_MONITORS:
		add_v2_monitor(it, id, page);
		break;
	case PH3_MONITORS:
		add_v3_monitor(it, id, ctx, page);
		break;
	case PH_CONTACTS:
	case PH3_CONTACTS:
	case PH3_INTEGRATIONS:
		add_contact(it, id, page);
		break;
	case PH_MWINDOWS:
		add_v2_window(it, id, ctx, page);
		break;
	case PH3_MWINDOWS:
		add_v3_window(it, id, ctx, page);
		break;
	case PH_PSPS:
		add_v2_psp(it, id, page);
		break;
	default:
		add_v3_psp(it, id, page);
		break;
	}
}

/* The items of list; returns how many entries were read. */
static size_t
add_items(size_t ph, json_object *list, const struct ur_ctx *ctx, struct prov_page *page)
{
	size_t n = list ? json_object_array_length(list) : 0;
	char id[192];

	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, UR " sent %zu %s in one page; only the first %d were kept", n, kinds[ph],
		    PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);

		if (!json_object_is_type(it, json_type_object) || prov_get_id(it, "id", id, 160) != 0) {
			prov_page_warn(page, UR " sent an entry of the %s without a usable id; skipped",
			    kinds[ph]);
			continue;
		}
		add_item(ph, it, id, ctx, page);
	}
	return n;
}

/* The cursor after a page of n entries read at pos. */
static void
set_next(size_t ph, int64_t pos, size_t n, json_object *root, struct prov_page *page)
{
	int64_t next, total, limit;

	if (is_v3(ph)) {
		next = ph == PH3_CONTACTS ? -1 : v3_next(root);
		if (n > 0 && next > pos && next <= INT32_MAX) {
			page->next_cursor = prov_cursor_make(phases[ph], next);
			return;
		}
		if (n > 0 && next > INT32_MAX)
			prov_page_warn(page,
			    UR " %s: the next page's cursor %lld is out of range; the list "
			       "stops here",
			    kinds[ph], (long long)next);
		next_phase(ph, page);
		return;
	}
	/* v2: another page when the total says so (or, without one, when the
	 * page was full). */
	total = page_num(root, "total", -1);
	limit = page_num(root, "limit", UR_LIMIT);
	if (n > 0 && (total >= 0 ? pos + (int64_t)n < total : (int64_t)n >= limit)) {
		page->next_cursor = prov_cursor_make(phases[ph], pos + (int64_t)n);
		return;
	}
	next_phase(ph, page);
}

/* One answer of phase ph into page; ctx holds what the fetch learned besides. */
static enum prov_status
parse_page(const char *cursor, const struct httpc_resp *resp, const struct ur_ctx *ctx,
    struct prov_page *page, struct prov_error *err)
{
	json_object *root, *list;
	size_t ph, n;
	int64_t pos;
	bool refused, first;

	if (cursor_of(cursor, &ph, &pos) != 0)
		return prov_bad_checkpoint(err, UR);
	first = ph == PH_MONITORS || ph == PH3_MONITORS;
	if (!first && (resp->status == 401 || resp->status == 403)) {
		/* A later list refused for this key (providers.md §12): skip it. */
		prov_skip_kind(page, UR, kinds[ph], resp->status);
		next_phase(ph, page);
		return PROV_OK;
	}
	root = answer_list(resp, is_v3(ph), is_v3(ph) ? v3_keys[ph - PH3_MONITORS] : list_keys[ph], &list,
	    &refused, err);
	if (root == NULL) {
		if (!refused || first)
			return err->status;
		/* v2 refuses in the body, with HTTP 200. */
		prov_page_warn(page, UR " refused the %s list for this key (not_authorized): %s skipped",
		    kinds[ph], kinds[ph]);
		next_phase(ph, page);
		return PROV_OK;
	}
	n = add_items(ph, list, ctx, page);
	set_next(ph, pos, n, root, page);
	json_object_put(root);
	return PROV_OK;
}

enum prov_status
uptimerobot_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	return parse_page(cursor, resp, NULL, page, err);
}

/* ------------------------------------------------------------------- fetch */

struct ur_fetch {
	struct prov_session *s;
	const char *key;
	char *auth;             /* "Authorization: Bearer <key>" (wiped) */
	struct httpc_resp resp; /* the last answer */
};

/* POST the v2 method of phase ph at offset off; scan: monitors with only
 * their windows (mwindows=1), for linking windows. */
static enum prov_status
v2_call(struct ur_fetch *f, size_t ph, int64_t off, bool scan, struct prov_error *err)
{
	static const char *const flags[] = { "alert_contacts", "ssl", "custom_http_headers",
		"custom_http_statuses", "mwindows" };
	struct httpc_req req = { 0 };
	char *form = NULL, *url, num[24];
	enum prov_status st;

	httpc_form_add(&form, "api_key", f->key);
	httpc_form_add(&form, "format", "json");
	snprintf(num, sizeof num, "%lld", (long long)off);
	httpc_form_add(&form, "offset", num);
	snprintf(num, sizeof num, "%d", UR_LIMIT);
	httpc_form_add(&form, "limit", num);
	for (size_t i = scan ? 4 : 0; ph == PH_MONITORS && i < sizeof flags / sizeof flags[0]; i++)
		httpc_form_add(&form, flags[i], "1");
	url = prov_url(f->s, "/v2/%s", methods[ph]);
	req.url = url;
	req.method = "POST";
	req.body = form;
	req.body_len = strlen(form);
	req.content_type = "application/x-www-form-urlencoded";
	httpc_resp_free(&f->resp);
	st = prov_http(f->s, &req, &f->resp, err);
	sodium_memzero(form, strlen(form));
	free(form);
	free(url);
	return st;
}

/* GET /v3/<path>, from cursor (0: the first page). */
static enum prov_status
v3_call(struct ur_fetch *f, const char *path, int64_t cursor, struct prov_error *err)
{
	const char *headers[3] = { f->auth, "Accept: application/json", NULL };
	struct httpc_req req = { 0 };
	char *url;
	enum prov_status st;

	url = cursor > 0 ? prov_url(f->s, "/v3/%s?cursor=%lld", path, (long long)cursor) :
	                   prov_url(f->s, "/v3/%s", path);
	req.url = url;
	req.headers = headers;
	httpc_resp_free(&f->resp);
	st = prov_http(f->s, &req, &f->resp, err);
	free(url);
	return st;
}

/* The monitor group names (id → name) for the group tags of a page of v3
 * monitors. Refused or missing: a warning and no names. */
static enum prov_status
load_groups(struct ur_fetch *f, json_object *groups, struct prov_page *page, struct prov_error *err)
{
	json_object *root, *list;
	int64_t cur = 0, next;
	size_t got;
	bool refused;
	char id[32];

	for (int i = 0; i < UR_GROUP_PAGES; i++, cur = next) {
		enum prov_status st = v3_call(f, "monitor-groups", cur, err);

		if (st != PROV_OK)
			return st;
		if (f->resp.status == 401 || f->resp.status == 403 || f->resp.status == 404) {
			prov_page_warn(page,
			    UR " refused the monitor groups list for this key (HTTP %ld): the "
			       "monitors' groups are not kept as tags",
			    f->resp.status);
			return PROV_OK;
		}
		if ((root = answer_list(&f->resp, true, "monitorGroups", &list, &refused, err)) == NULL)
			return err->status;
		for (size_t j = 0; list != NULL && j < json_object_array_length(list) && j < PROV_MAX_ITEMS;
		     j++) {
			json_object *g = json_object_array_get_idx(list, j);
			const char *name = prov_get_text(g, "name", 255);

			if (name != NULL && prov_get_id(g, "id", id, sizeof id) == 0)
				json_object_object_add(groups, id, json_object_new_string(name));
		}
		next = v3_next(root);
		got = list != NULL ? json_object_array_length(list) : 0; /* list is root's: read it first */
		json_object_put(root);
		if (next <= cur || got == 0)
			break;
	}
	return PROV_OK;
}

/* True when a monitor of the answer is in a group other than the default. */
static bool
needs_groups(const struct httpc_resp *resp)
{
	struct prov_error e = { 0 };
	json_object *root, *list;
	bool refused, any = false;

	if (resp->status != 200 || (root = answer_list(resp, true, "monitors", &list, &refused, &e)) == NULL)
		return false;
	for (size_t i = 0; list != NULL && i < json_object_array_length(list) && !any; i++)
		any = prov_int_or(json_object_array_get_idx(list, i), "groupId", 0) > 0;
	json_object_put(root);
	return any;
}

/* A page of v3 monitors, with the names of their groups. */
static enum prov_status
fetch_v3_monitors(struct ur_fetch *f, const char *cursor, int64_t pos, bool called, struct prov_page *page,
    struct prov_error *err)
{
	struct ur_ctx ctx = { NULL, NULL };
	struct httpc_resp mresp;
	enum prov_status st = called ? PROV_OK : v3_call(f, "monitors", pos, err);

	if (st != PROV_OK)
		return st;
	if (!needs_groups(&f->resp))
		return parse_page(cursor, &f->resp, NULL, page, err);
	mresp = f->resp;
	memset(&f->resp, 0, sizeof f->resp);
	ctx.groups = json_object_new_object();
	st = load_groups(f, ctx.groups, page, err);
	if (st == PROV_OK)
		st = parse_page(cursor, &mresp, &ctx, page, err);
	json_object_put(ctx.groups);
	httpc_resp_free(&mresp);
	return st;
}

/* The start: v3 monitors, or v2 when v3 refuses the key or is not there. */
static enum prov_status
fetch_start(struct ur_fetch *f, struct prov_page *page, struct prov_error *err)
{
	enum prov_status st = v3_call(f, "monitors", 0, err);
	long v3_status = f->resp.status;

	if (st != PROV_OK)
		return st;
	if (v3_status != 401 && v3_status != 403 && v3_status != 404)
		return fetch_v3_monitors(f, NULL, 0, true, page, err);
	st = v2_call(f, PH_MONITORS, 0, false, err);
	if (st == PROV_OK)
		st = parse_page("monitors:0", &f->resp, NULL, page, err);
	if (st == PROV_AUTH) {
		size_t l = strlen(err->message);

		snprintf(err->message + l, sizeof err->message - l, "; API v3 answered HTTP %ld", v3_status);
	} else if (st == PROV_OK)
		prov_page_warn(page,
		    UR " API v3 refused this key (HTTP %ld); the import uses API v2, which "
		       "has no tags, monitor groups or integrations",
		    v3_status);
	return st;
}

/* The ids of the windows in a page of windows that do not name their
 * monitors (v2; v3 without "monitorIds"), each with an empty list; NULL
 * when the answer is not a usable list (parse_page then says why). */
static json_object *
window_ids(const struct httpc_resp *resp, bool v3)
{
	struct prov_error e = { 0 };
	json_object *root, *list, *ids;
	bool refused;
	char id[192];

	if ((root = answer_list(resp, v3, v3 ? "maintenanceWindows" : "mwindows", &list, &refused, &e)) ==
	    NULL)
		return NULL;
	ids = json_object_new_object();
	for (size_t i = 0; list != NULL && i < json_object_array_length(list) && i < PROV_MAX_ITEMS; i++) {
		json_object *w = json_object_array_get_idx(list, i);

		if (!(v3 && prov_get_array(w, "monitorIds") != NULL) && prov_get_id(w, "id", id, 160) == 0)
			json_object_object_add(ids, id, json_object_new_array());
	}
	json_object_put(root);
	return ids;
}

/* Add to links the monitors of a page of monitors that list one of its windows. */
static void
link_monitors(json_object *list, json_object *links, bool *full)
{
	char mid[192], wid[192];
	json_object *a;

	for (size_t i = 0; list != NULL && i < json_object_array_length(list) && i < PROV_MAX_ITEMS; i++) {
		json_object *m = json_object_array_get_idx(list, i), *ws = windows_of(m);

		if (ws == NULL || prov_get_id(m, "id", mid, 160) != 0)
			continue;
		for (size_t j = 0; j < json_object_array_length(ws) && j < 100; j++) {
			json_object *w = json_object_array_get_idx(ws, j);

			if (json_object_is_type(w, json_type_object))
				w = prov_get(w, "id");
			if (prov_json_id(w, wid, 160) != 0 || !json_object_object_get_ex(links, wid, &a))
				continue;
			if (json_object_array_length(a) >= UR_MAX_LINKS)
				*full = true;
			else
				json_object_array_add(a, json_object_new_string(mid));
		}
	}
}

/* Page through every monitor and record which of them list the windows in links. */
static enum prov_status
scan_links(struct ur_fetch *f, bool v3, json_object *links, struct prov_page *page, struct prov_error *err)
{
	json_object *root, *list;
	int64_t pos = 0, next;
	bool refused, full = false;
	size_t n;

	for (int pages = 0;; pages++) {
		enum prov_status st =
		    v3 ? v3_call(f, "monitors", pos, err) : v2_call(f, PH_MONITORS, pos, true, err);

		if (st != PROV_OK)
			return st;
		root = answer_list(&f->resp, v3, "monitors", &list, &refused, err);
		if (root == NULL)
			return err->status;
		link_monitors(list, links, &full);
		n = list ? json_object_array_length(list) : 0;
		next = v3 ? v3_next(root) : pos + (int64_t)n;
		if (!v3 && (n == 0 || next >= page_num(root, "total", next)))
			next = -1;
		json_object_put(root);
		if (n > 0 && next > INT32_MAX)
			prov_page_warn(page,
			    UR " monitors: a cursor out of range ended the list; the maintenance "
			       "windows name only the monitors read before it");
		if (n == 0 || next <= pos || next > INT32_MAX)
			break;
		if (pages + 1 >= UR_SCAN_PAGES) {
			prov_page_warn(page,
			    UR " has more than %d pages of monitors; the maintenance windows name "
			       "only the monitors of the first %d pages",
			    UR_SCAN_PAGES, UR_SCAN_PAGES);
			break;
		}
		pos = next;
	}
	if (full)
		prov_page_warn(page, UR " maintenance windows: at most %d monitors kept for one window",
		    UR_MAX_LINKS);
	return PROV_OK;
}

/* A page of maintenance windows, each with the monitors that list it. */
static enum prov_status
fetch_windows(struct ur_fetch *f, const char *cursor, size_t ph, int64_t pos, struct prov_page *page,
    struct prov_error *err)
{
	struct ur_ctx ctx = { NULL, NULL };
	struct httpc_resp wresp;
	enum prov_status st;
	bool scan;

	st = is_v3(ph) ? v3_call(f, "maintenance-windows", pos, err) :
	                 v2_call(f, PH_MWINDOWS, pos, false, err);
	if (st != PROV_OK)
		return st;
	wresp = f->resp;
	memset(&f->resp, 0, sizeof f->resp);
	ctx.links = window_ids(&wresp, is_v3(ph));
	scan = ctx.links != NULL && json_object_object_length(ctx.links) > 0;
	if (scan)
		st = scan_links(f, is_v3(ph), ctx.links, page, err);
	if (st == PROV_OK)
		st = parse_page(cursor, &wresp, &ctx, page, err);
	json_object_put(ctx.links);
	httpc_resp_free(&wresp);
	return st;
}

/* The contacts of the account's teams and organization that the personal
 * list leaves out: GET /v3/user/all-alert-contacts, "all alert contacts
 * including personal, notify-only, and organization members alert contacts"
 * (the reference's UserController_getAllAlertContacts), a bare array of
 * groups {notifyOnly, orgAlertContactId, user: {id, name}, alertContacts:
 * [{id, name, value, type, status, threshold, recurrence}]} (official
 * Terraform provider internal/client/alert_contact.go AllAlertContactGroup).
 * Each contact not on the page yet is added. Refused (401/403) or not there
 * (404): a warning, and alerts to those contacts are not linked. */
static enum prov_status
add_team_contacts(struct ur_fetch *f, struct prov_page *page, struct prov_error *err)
{
	enum prov_status st = v3_call(f, "user/all-alert-contacts", 0, err);
	json_object *root, *groups, *seen;
	size_t added = 0;
	bool refused;
	char id[192];

	if (st != PROV_OK)
		return st;
	if (f->resp.status == 401 || f->resp.status == 403 || f->resp.status == 404) {
		prov_page_warn(page,
		    UR " refused the team and organization alert contacts for this key (HTTP %ld): "
		       "alerts to them are not linked",
		    f->resp.status);
		return PROV_OK;
	}
	if ((root = answer_list(&f->resp, true, "data", &groups, &refused, err)) == NULL)
		return err->status;
	seen = json_object_new_object();
	for (size_t i = 0; i < page->n; i++)
		if (strcmp(page->items[i].resource_type, "contact") == 0)
			json_object_object_add(seen, page->items[i].external_id, NULL);
	for (size_t g = 0; groups != NULL && g < json_object_array_length(groups); g++) {
		json_object *list = prov_get_array(json_object_array_get_idx(groups, g), "alertContacts");

		for (size_t i = 0; list != NULL && i < json_object_array_length(list); i++) {
			json_object *c = json_object_array_get_idx(list, i);

			if (!json_object_is_type(c, json_type_object) || prov_get_id(c, "id", id, 160) != 0 ||
			    json_object_object_get_ex(seen, id, NULL))
				continue;
			if (added++ >= PROV_MAX_ITEMS) {
				prov_page_warn(page,
				    UR " sent more than %d team and organization alert contacts; "
				       "only the first %d were kept",
				    PROV_MAX_ITEMS, PROV_MAX_ITEMS);
				g = json_object_array_length(groups);
				break;
			}
			json_object_object_add(seen, id, NULL);
			add_contact(c, id, page);
		}
	}
	json_object_put(seen);
	json_object_put(root);
	return PROV_OK;
}

/* The v3 alert contacts: the personal list, then the team and organization
 * contacts it leaves out. */
static enum prov_status
fetch_v3_contacts(struct ur_fetch *f, const char *cursor, struct prov_page *page, struct prov_error *err)
{
	enum prov_status st = v3_call(f, v3_paths[PH3_CONTACTS - PH3_MONITORS], 0, err);

	if (st == PROV_OK)
		st = parse_page(cursor, &f->resp, NULL, page, err);
	if (st == PROV_OK)
		st = add_team_contacts(f, page, err);
	return st;
}

static enum prov_status
fetch_phase(struct ur_fetch *f, const char *cursor, struct prov_page *page, struct prov_error *err)
{
	size_t ph;
	int64_t pos;
	enum prov_status st;

	if (cursor == NULL)
		return fetch_start(f, page, err);
	if (cursor_of(cursor, &ph, &pos) != 0)
		return prov_bad_checkpoint(err, UR);
	if (ph == PH_MWINDOWS || ph == PH3_MWINDOWS)
		return fetch_windows(f, cursor, ph, pos, page, err);
	if (ph == PH3_MONITORS)
		return fetch_v3_monitors(f, cursor, pos, false, page, err);
	if (ph == PH3_CONTACTS)
		return fetch_v3_contacts(f, cursor, page, err);
	st = is_v3(ph) ? v3_call(f, v3_paths[ph - PH3_MONITORS], pos, err) : v2_call(f, ph, pos, false, err);
	if (st == PROV_OK)
		st = parse_page(cursor, &f->resp, NULL, page, err);
	return st;
}

static enum prov_status
uptimerobot_fetch(struct prov_session *s, const char *cursor, struct prov_page *page, struct prov_error *err)
{
	struct ur_fetch f = { .s = s, .key = prov_cred(s, "api_key") };
	size_t ph;
	int64_t pos;
	enum prov_status st;

	if (cursor_of(cursor, &ph, &pos) != 0)
		return prov_bad_checkpoint(err, UR);
	if (f.key == NULL)
		return prov_no_cred(err, UR, "api_key");
	f.auth = xasprintf("Authorization: Bearer %s", f.key);
	st = fetch_phase(&f, cursor, page, err);
	return prov_fetch_done(s, st, &f.resp, f.auth, page, err);
}

const struct provider_ops uptimerobot_ops = { uptimerobot_fetch };

/* The fate of each field (providers/fields.h), v2 and v3 names side by side
 * (one table per kind: a run reads one API): providers.md §1.2 and §1.3, the
 * official Terraform provider's internal/client Monitor, UserAlertContact,
 * AllAlertContactItem, Integration, MaintenanceWindow and PSP, and the v3
 * reference (uptimerobot.com/api/v3, the OpenAPI contract
 * cdn.uptimerobot.com/api/openapi.yaml). A monitor and a heartbeat are the
 * same object (type 5 / HEARTBEAT), stored whole but for its password and
 * API key (drop_secrets). */
/* clang-format off */
#define UR_ALERT_TIMING(links) \
	{ "alert_contacts[].threshold", "`" links ".delay_s`", "minutes down before this contact is alerted, × 60; 0: NULL (at once); not a number of minutes from 0 to 1000000: NULL, with a warning" }, \
	{ "alert_contacts[].recurrence", "`" links ".repeat_s`", "every how many minutes it is alerted again while down, × 60; 0: NULL (once)" }, \
	{ "assignedAlertContacts[].threshold", "`" links ".delay_s`", "minutes (the v3 reference: \"Delay of notification in minutes, after the monitor is down\"), × 60; 0: NULL (at once); not a number of minutes from 0 to 1000000: NULL, with a warning" }, \
	{ "assignedAlertContacts[].recurrence", "`" links ".repeat_s`", "minutes (\"Repeat notifications every X minutes\"), × 60; 0: NULL (once)" }
/* A monitor's login: basic auth lands, the password sealed; UptimeRobot's
 * digest and bearer logins do not (a warning says so). */
#define UR_CREDENTIALS \
	{ "http_username", "`monitors.auth_username`", "with `http_auth_type` 1 (basic) or none stated; over 255 bytes or not text: no login, with a warning" }, \
	{ "http_password", "`monitors.auth_password_sealed`", "as `http_username`, sealed (the stored copy holds `[redacted]`); never shown" }, \
	{ "http_auth_type", "`monitors.auth_username`, `monitors.auth_password_sealed`", "1 (basic): the login of `http_username` and `http_password`; 2 (digest) or another: not imported, with a warning: enter it again" }, \
	{ "authType", "`monitors.auth_username`, `monitors.auth_password_sealed`", "`HTTP_BASIC` (or none stated): the login of `httpUsername` and `httpPassword`; `NONE`: no login; `DIGEST`, `BEARER` or another: not imported, with a warning: enter it again" }, \
	{ "httpUsername", "`monitors.auth_username`", "with `authType` `HTTP_BASIC`; over 255 bytes or not text: no login, with a warning" }, \
	{ "httpPassword", "`monitors.auth_password_sealed`", "with `authType` `HTTP_BASIC`, sealed (the stored copy holds `[redacted]`); never shown" }, \
	{ "apiKey", NULL, "The monitor's own UptimeRobot API key is never read or kept (removed from the stored copy)." }
/* The same fields on a heartbeat. */
#define UR_NO_LOGIN \
	{ "http_username", NULL, "A monitor's setting; a heartbeat does not use it." }, \
	{ "http_password", NULL, "A monitor's setting; a heartbeat does not use it (the stored copy holds `[redacted]`)." }, \
	{ "http_auth_type", NULL, "A monitor's setting; a heartbeat does not use it." }, \
	{ "authType", NULL, "A monitor's setting; a heartbeat does not use it." }, \
	{ "httpUsername", NULL, "A monitor's setting; a heartbeat does not use it." }, \
	{ "httpPassword", NULL, "A monitor's setting; a heartbeat does not use it (the stored copy holds `[redacted]`)." }, \
	{ "apiKey", NULL, "The heartbeat's own UptimeRobot API key is never read or kept (removed from the stored copy)." }
#define UR_STATE \
	{ "create_datetime", NULL, "State at UptimeRobot (when it was made), not a setting." }, \
	{ "createDateTime", NULL, "State at UptimeRobot (when it was made), not a setting." }, \
	{ "logs", NULL, "State at UptimeRobot (its event log), not a setting." }, \
	{ "ssl.brand", NULL, "State at UptimeRobot (the certificate's issuer), not a setting." }, \
	{ "ssl.product", NULL, "State at UptimeRobot (the certificate's product), not a setting." }, \
	{ "ssl.expires", NULL, "State at UptimeRobot (when the certificate expires), not a setting." }, \
	{ "sslBrand", NULL, "State at UptimeRobot (the certificate's issuer), not a setting." }, \
	{ "sslExpiryDateTime", NULL, "State at UptimeRobot (when the certificate expires), not a setting." }, \
	{ "domainExpireDate", NULL, "State at UptimeRobot (when the domain expires), not a setting." }, \
	{ "currentStateDuration", NULL, "State at UptimeRobot (how long it has been up or down), not a setting." }, \
	{ "lastIncidentId", NULL, "State at UptimeRobot (its last incident), not a setting." }, \
	{ "lastIncident", NULL, "State at UptimeRobot (its last incident), not a setting." }, \
	{ "lastDayUptimes", NULL, "State at UptimeRobot (uptime statistics), not a setting." }, \
	{ "userId", NULL, "The UptimeRobot account it belongs to." }, \
	{ "psps", NULL, "The status pages that show it: each status page brings its own list of monitors." }, \
	{ "customFields", NULL, "Custom fields have no place in the account." }
static const struct prov_field monitor_fields[] = {
	{ "id", "`import_links`", "the external id (the same on v2 and v3)" },
	{ "friendly_name", "`monitors.name`", "else the URL, else the id" },
	{ "friendlyName", "`monitors.name`", "else the URL, else the id" },
	{ "type", "`monitors.type`", "v2 1 `http`, 2 `keyword`, 3 `ping`, 4 `port`; v3 `HTTP`, `KEYWORD`, `PING`, `PORT`, `DNS`, `API`, `UDP` in lower case; 5 or `HEARTBEAT` is a heartbeat; anything else `other`, with a warning" },
	{ "url", "`monitors.url`", "the full URL (scheme, host, port, path, query) of HTTP, keyword and API monitors; the host of ping, port, DNS and UDP monitors", PROV_TEXT(monitor, url, PROV_MAX_STR) },
	{ "port", "`monitors.port`", "port and UDP monitors" },
	{ "sub_type", "`monitors.port`", "v2 port monitors when `port` is empty: 1 → 80, 2 → 443, 3 → 21, 4 → 25, 5 → 110, 6 → 143 (v2 says 1 for every port monitor, so `port` wins); no usable port: NULL, with a warning" },
	{ "interval", "`monitors.interval_s`", "seconds; 300 when absent" },
	{ "timeout", "`monitors.timeout_s`", "seconds (v2: HTTP and keyword monitors)" },
	{ "status", "`monitors.paused`", "v2 0 or v3 `PAUSED` pauses it; every other state (not checked yet, up, seems down, down) runs" },
	{ "keyword_value", "`monitors.keyword`", "keyword monitors" },
	{ "keywordValue", "`monitors.keyword`", "keyword monitors" },
	{ "keyword_type", "`monitors.keyword_up_when`", "1 (\"exists\": alerts when found) → `absent`; 2 (alerts when missing) → `present`; anything else `present`, with a warning" },
	{ "keywordType", "`monitors.keyword_up_when`", "`ALERT_EXISTS` → `absent`; `ALERT_NOT_EXISTS` → `present`; anything else `present`, with a warning" },
	{ "keyword_case_type", "`monitors.keyword_case_sensitive`", "0 (case-sensitive) → 1; 1 → 0" },
	{ "keywordCaseType", "`monitors.keyword_case_sensitive`", "0 (case-sensitive) → 1; 1 → 0" },
	{ "http_method", "`monitors.http_method`", "HTTP and keyword monitors: 1 HEAD, 2 GET, 3 POST, 4 PUT, 5 PATCH, 6 DELETE, 7 OPTIONS; anything else none, with a warning" },
	{ "httpMethodType", "`monitors.http_method`", "HTTP, keyword and API monitors; a method the account does not know (`QUERY`): none, with a warning" },
	{ "post_value", "`monitors.request_body`", "HTTP and keyword monitors: text, or an object as compact JSON" },
	{ "postValueData", "`monitors.request_body`", "HTTP, keyword and API monitors: text, or an object as compact JSON" },
	{ "post_content_type", "`monitors.request_headers`", "with a body and no `Content-Type` header, 0 adds `Content-Type: text/html`, 1 `application/json` (what UptimeRobot sends)" },
	{ "postValueType", "`monitors.request_headers`", "with a body and no `Content-Type` header, `RAW_JSON` adds `Content-Type: application/json`; `KEY_VALUE`: the body is kept as given" },
	{ "post_type", NULL, "Whether the body is key-value pairs or raw text; the body itself is imported as written." },
	{ "custom_http_headers", "`monitors.request_headers`", "HTTP and keyword monitors; values as strings (v2 sends `[]` for none)" },
	{ "customHttpHeaders", "`monitors.request_headers`", "HTTP, keyword and API monitors; values as strings" },
	{ "custom_http_statuses", "`monitors.expected_status_codes`, `monitors.alert_status_codes`", "HTTP and keyword monitors. `404:1_500:0`: `:1` counts as up (expected), `:0` as down (alert); v2 lists only overrides of the default (2xx and 3xx up)" },
	{ "successHttpResponseCodes", "`monitors.expected_status_codes`", "HTTP, keyword and API monitors; as given (`2xx`, `404`)" },
	{ "ssl.ignore_errors", "`monitors.verify_ssl`", "HTTP and keyword monitors: 1 (errors ignored) → 0; 0 → 1" },
	{ "checkSSLErrors", "`monitors.verify_ssl`", "HTTP, keyword and API monitors" },
	{ "followRedirections", "`monitors.follow_redirects`", "HTTP, keyword and API monitors" },
	{ "sslExpirationReminder", "`monitors.ssl_expiry_days`", "HTTP, keyword and API monitors; off: NULL" },
	{ "config.sslExpirationPeriodDays", "`monitors.ssl_expiry_days`", "the earliest reminder (the most days before expiry); the later reminders are not kept" },
	{ "regionalData", "`monitors.regions`", "`\"eu\"`, `{\"REGION\":[…]}` or `[{\"type\":\"REGION\",\"value\":[…]}]`, in lower case (`na`, `eu`, `as`, `oc`)" },
	{ "regionData.REGION", "`monitors.regions`", "when there is no `regionalData`" },
	{ "regionData.MANUAL_SELECTED", NULL, "Whether the regions were picked by hand; the regions themselves are imported." },
	{ "regionData.THRESHOLD", NULL, "How many failures per region count as down has no place in the account." },
	{ "tags", "`monitors.tags`", "the names (a tag's colour is not kept)" },
	{ "groupId", "`monitors.tags`", "a group other than the default, as the tag `group:<name>` (`GET /v3/monitor-groups`): the account has no groups" },
	{ "alert_contacts[].id", "`monitor_contacts`", "the contacts it alerts (ids as strings, leading zeros kept)" },
	{ "assignedAlertContacts[].alertContactId", "`monitor_contacts`", "a personal contact or an integration: both are imported as contacts" },
	UR_ALERT_TIMING("monitor_contacts"),
	{ "mwindows", "`maintenance_window_monitors`", "v2 windows name no monitors: each window's monitors are read from here" },
	{ "maintenanceWindows", "`maintenance_window_monitors`", "the windows that silence it, read from here for a window without `monitorIds` (older answers)" },
	UR_CREDENTIALS,
	{ "gracePeriod", NULL, "A heartbeat's setting; the account's monitors have none." },
	{ "responseTimeThreshold", NULL, "The alert on slow answers has no place in the account: slow answers will not alert." },
	{ "domainExpirationReminder", NULL, "Domain expiry reminders have no place in the account." },
	{ "ssl.disable_notifications", NULL, "Certificate alerts switched off: no place in the account." },
	{ "config.dnsRecords", "`monitors.dns_record_type`, `monitors.dns_expected`", "DNS monitors: the first record type with answers (upper case) and its answers, any of which counts as up; the account checks one type, so further types are not imported (a warning names them). The API names no name server: `dns_nameserver` NULL" },
	{ "config.apiAssertions", "`monitors.assertions`", "API monitors: each check as `{\"source\": \"json\", \"property\": its JSONPath, \"comparison\": equals, not_equals, contains, not_contains, greater_than, less_than, is_null or is_not_null, \"target\": the value as text}`; a check without a property or with another comparison is left out, with a warning; `logic` OR over several checks is imported as AND (each must hold), with a warning" },
	{ "config.udp.payload", "`monitors.request_body`", "UDP monitors" },
	{ "config.udp.packetLossThreshold", NULL, "A UDP monitor's packet loss limit has no place in the account." },
	{ "config.ipVersion", NULL, "The IP version it checks over has no place in the account." },
	{ "config.applicationErrorRetries", NULL, "Retries on application errors have no place in the account." },
	UR_STATE,
	{ NULL, NULL, NULL }
};
static const struct prov_field heartbeat_fields[] = {
	{ "id", "`import_links`", "the external id (the same on v2 and v3)" },
	{ "friendly_name", "`heartbeats.name`", "else the URL, else the id" },
	{ "friendlyName", "`heartbeats.name`", "else the URL, else the id" },
	{ "type", "`heartbeats`", "5 or `HEARTBEAT`: a heartbeat" },
	{ "url", "`heartbeats.ping_url`", "when it is an http(s) URL" },
	{ "interval", "`heartbeats.interval_s`", "seconds; 300 when absent (UptimeRobot heartbeats have no schedule: `schedule` and `timezone` NULL)" },
	{ "status", "`heartbeats.paused`", "v2 0 or v3 `PAUSED` pauses it; every other state runs" },
	{ "gracePeriod", "`heartbeats.grace_s`", "v3 (v2: 0)" },
	{ "tags", "`heartbeats.tags`", "the names (a tag's colour is not kept)" },
	{ "groupId", "`heartbeats.tags`", "a group other than the default, as the tag `group:<name>`: the account has no groups" },
	{ "alert_contacts[].id", "`heartbeat_contacts`", "the contacts it alerts (ids as strings, leading zeros kept)" },
	{ "assignedAlertContacts[].alertContactId", "`heartbeat_contacts`", "a personal contact or an integration: both are imported as contacts" },
	UR_ALERT_TIMING("heartbeat_contacts"),
	{ "mwindows", "`maintenance_window_monitors`", "v2 windows name no heartbeats: each window's heartbeats are read from here" },
	{ "maintenanceWindows", "`maintenance_window_monitors`", "the windows that silence it, read from here for a window without `monitorIds` (older answers)" },
	{ "port", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "sub_type", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "timeout", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "keyword_value", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "keywordValue", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "keyword_type", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "keywordType", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "keyword_case_type", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "keywordCaseType", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "http_method", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "httpMethodType", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "post_value", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "postValueData", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "post_content_type", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "postValueType", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "post_type", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "custom_http_headers", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "customHttpHeaders", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "custom_http_statuses", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "successHttpResponseCodes", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "ssl.ignore_errors", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "ssl.disable_notifications", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "checkSSLErrors", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "followRedirections", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "sslExpirationReminder", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "domainExpirationReminder", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "responseTimeThreshold", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "regionalData", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "regionData", NULL, "A monitor's setting; a heartbeat does not use it." },
	{ "config", NULL, "A monitor's settings; a heartbeat does not use them." },
	UR_NO_LOGIN,
	UR_STATE,
	{ NULL, NULL, NULL }
};
static const struct prov_field contact_fields[] = {
	{ "id", "`import_links`", "the external id (v2 writes it as a string, possibly with a leading zero; the same contact on both APIs)" },
	{ "friendly_name", "`contacts.name`", "else the address, else the id", PROV_TEXT(contact, name, PROV_MAX_STR) },
	{ "friendlyName", "`contacts.name`", "else the address, else the id" },
	{ "name", "`contacts.name`", "team and organization contacts (`GET /v3/user/all-alert-contacts`), else the address, else the id" },
	{ "type", "`contacts.type`", "a v2 number or a v3 name, see the types below; anything else `other`, with a warning; app (push) contacts: `needs_address` 1" },
	{ "webhookURL", "`contacts.value`", "v3 integrations: the address, before `value`", PROV_TEXT(contact, value, PROV_MAX_STR) },
	{ "value", "`contacts.value`", "the address; none: NULL and `needs_address` 1" },
	{ "status", NULL, "Whether it is active, paused or not activated yet at UptimeRobot; the account's contacts have no such state." },
	{ "enableNotificationsFor", NULL, "Which changes it is alerted of (up, down or both) has no place in the account." },
	{ "sslExpirationReminder", NULL, "Certificate expiry reminders to this contact have no place in the account." },
	{ "customValue", NULL, "The text UptimeRobot adds to its messages has no place in the account." },
	{ "sendAsJSON", NULL, "A webhook's message format at UptimeRobot; the account sends its own." },
	{ "sendAsQueryString", NULL, "A webhook's message format at UptimeRobot; the account sends its own." },
	{ "postValue", NULL, "A webhook's message body at UptimeRobot; the account sends its own." },
	{ "mobileProviderId", NULL, "The SMS carrier at UptimeRobot has no place in the account." },
	{ "orgAlertContactId", NULL, "The organization contact it belongs to at UptimeRobot." },
	{ "threshold", NULL, "A delay UptimeRobot lists with a team or organization contact outside any monitor; each monitor's own delay for the contact (its `assignedAlertContacts[].threshold`) is what lands." },
	{ "recurrence", NULL, "A repeat UptimeRobot lists with a team or organization contact outside any monitor; each monitor's own repeat for the contact (its `assignedAlertContacts[].recurrence`) is what lands." },
	{ "config.android_push_up_channel", NULL, "A mobile app's notification setting; the app must be set up again." },
	{ "config.android_push_down_channel", NULL, "A mobile app's notification setting; the app must be set up again." },
	{ NULL, NULL, NULL }
};
static const struct prov_field window_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "friendly_name", "`maintenance_windows.name`", "else the id" },
	{ "name", "`maintenance_windows.name`", "else the id" },
	{ "type", "`maintenance_windows.recurrence`", "v2 1 `once`, 2 `daily`, 3 `weekly`, 4 `monthly`; anything else `other`, with a warning" },
	{ "interval", "`maintenance_windows.recurrence`", "v3 `once`, `daily`, `weekly`, `monthly`; anything else `other`, with a warning" },
	{ "start_time", "`maintenance_windows.starts`, `maintenance_windows.ends`", "v2: unix seconds for a one-off window (UTC; it ends after `duration`), `HH:mm` for the others" },
	{ "date", "`maintenance_windows.starts`, `maintenance_windows.ends`", "v3 one-off windows, with `time`: in the account's zone, which the API does not say (written without one); a date that does not exist: NULL" },
	{ "time", "`maintenance_windows.starts`", "v3 `HH:MM:SS`: the start of a repeating window as `HH:MM`, of a one-off one with `date`; neither API says the zone: `timezone` NULL, the account's zone applies" },
	{ "duration", "`maintenance_windows.duration_min`", "minutes; NULL outside 0..2147483647" },
	{ "value", "`maintenance_windows.days`", "v2 weekly (1 = Monday … 7) and monthly (days of the month) windows: `1-3`" },
	{ "days", "`maintenance_windows.days`", "v3 weekly and monthly windows" },
	{ "monitorIds", "`maintenance_window_monitors`", "v3: the monitors and heartbeats it silences (the reference's MaintenanceWindowDto); without it, as in older answers, those that list the window" },
	{ "status", "`maintenance_windows.paused`", "v2 0 or v3 `paused` pauses it" },
	{ "autoAddMonitors", NULL, "Adding every new monitor to the window has no place in the account (a warning says so): add new monitors to it by hand." },
	{ "user", NULL, "The UptimeRobot account it belongs to." },
	{ "userId", NULL, "The UptimeRobot account it belongs to." },
	{ "created", NULL, "State at UptimeRobot (when it was made), not a setting." },
	{ NULL, NULL, NULL }
};
static const struct prov_field psp_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "friendly_name", "`status_pages.name`", "else the id" },
	{ "friendlyName", "`status_pages.name`", "else the id" },
	{ "custom_url", "`status_pages.url`", "v2, before `standard_url`" },
	{ "standard_url", "`status_pages.url`", "v2, when there is no `custom_url`" },
	{ "customDomain", "`status_pages.url`", "v3, with `https://` added" },
	{ "urlKey", "`status_pages.url`", "v3 without a custom domain: `https://stats.uptimerobot.com/<urlKey>`" },
	{ "status", "`status_pages.public`", "v2 0 or v3 `PAUSED`: not public" },
	{ "isPasswordSet", "`status_pages.public`", "a page with a password is not public; the API never shows the password, so the page has none" },
	{ "monitors", "`status_page_monitors`", "v2, in the page's order; `0` (every monitor of the account): every monitor and heartbeat of the run, with a warning that monitors added later are not added" },
	{ "monitorIds", "`status_page_monitors`", "v3, in the page's order" },
	{ "monitorsCount", NULL, "How many monitors it shows: only a count (the monitors come from `monitorIds`; without them the page is imported empty, with a warning)." },
	{ "sort", NULL, "UptimeRobot's order of its monitors (a–z, z–a, by state); the account shows them in the listed order." },
	{ "subscription", NULL, "Whether visitors may subscribe to updates has no place in the account." },
	{ "homepageLink", NULL, "Presentation at UptimeRobot; no place in the account." },
	{ "gaCode", NULL, "Presentation at UptimeRobot (an analytics code); no place in the account." },
	{ "shareAnalyticsConsent", NULL, "Presentation at UptimeRobot; no place in the account." },
	{ "useSmallCookieConsentModal", NULL, "Presentation at UptimeRobot; no place in the account." },
	{ "showCookieBar", NULL, "Presentation at UptimeRobot; no place in the account." },
	{ "icon", NULL, "Presentation at UptimeRobot; no place in the account." },
	{ "logo", NULL, "Presentation at UptimeRobot; no place in the account." },
	{ "noIndex", NULL, "Presentation at UptimeRobot (hidden from search engines); no place in the account." },
	{ "hideUrlLinks", NULL, "Presentation at UptimeRobot; no place in the account." },
	{ "customSettings", NULL, "Presentation at UptimeRobot (fonts, colours, layout); no place in the account." },
	{ "pinnedAnnouncementId", NULL, "An announcement at UptimeRobot; announcements are not imported." },
	{ NULL, NULL, NULL }
};
#undef UR_ALERT_TIMING
#undef UR_CREDENTIALS
#undef UR_NO_LOGIN
#undef UR_STATE
/* clang-format on */

const struct prov_fields uptimerobot_fields[] = {
	{ "monitor", "monitor (`POST /v2/getMonitors`, `GET /v3/monitors`)", monitor_fields },
	{ "heartbeat", "monitor of type 5 or `HEARTBEAT` (`POST /v2/getMonitors`, `GET /v3/monitors`)",
	    heartbeat_fields },
	{ "contact",
	    "alert contact (`POST /v2/getAlertContacts`, `GET /v3/user/alert-contacts`, `GET /v3/user/all-alert-contacts`), integration (`GET /v3/integrations`)",
	    contact_fields },
	{ "maintenance_window", "maintenance window (`POST /v2/getMWindows`, `GET /v3/maintenance-windows`)",
	    window_fields },
	{ "status_page", "status page (`POST /v2/getPSPs`, `GET /v3/psps`)", psp_fields },
	{ NULL, NULL, NULL },
};
