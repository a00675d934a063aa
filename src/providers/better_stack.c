/* Better Stack Uptime, API v2/v3 (providers.md §4, §12; docs/providers/better_stack.md).
 *
 * GET with "Authorization: Bearer <api_token>" (and team_name in the query
 * when given, for global tokens). JSON:API lists paged by page (from 1) and
 * per_page; a non-null pagination.next means another page. The next URL
 * itself is never followed: the cursor keeps the page number and every
 * request is rebuilt on the configured base URL, so a provider-supplied URL
 * can never send the token elsewhere.
 *
 * Better Stack has no per-monitor contacts: an incident alerts the current
 * on-call users of the default calendar by the monitor's email/sms/call/push
 * flags and the entire team team_wait seconds later, or, with policy_id, the
 * escalation policy's step members, each step wait_before seconds after the
 * one before (betterstack.com/docs/uptime/api/create-a-new-monitor/; TF
 * resource_policy.go). So a monitors or heartbeats step also reads the
 * on-call calendars, the team's members and the policies (the "context") to
 * link the users, each link with the delay after which it is alerted; the
 * contacts step reads the same context and emits one contact per user and
 * channel, under the same external ids.
 *
 * Cursor: "monitors:<page>" → "heartbeats:<page>" → "contacts:0" →
 * "status-pages:<page>" (10 pages a step: each also reads its sections,
 * resources and status reports, and the status updates of its newest
 * PROV_SP_MAX_INCIDENTS reports: its history) → end. */
#include <ctype.h>
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
#include "providers/fields.h"

#define BS             "Better Stack"
#define BS_PER_PAGE    250 /* the documented maximum */
#define BS_SP_PER_PAGE 10  /* status pages per step: each costs two more lists */
#define BS_CTX_PAGES   20  /* pages read of a list loaded inside a step */

enum { PH_MONITORS, PH_HEARTBEATS, PH_CONTACTS, PH_STATUS_PAGES };
static const char *const phases[] = { "monitors", "heartbeats", "contacts", "status-pages", NULL };
static const char *const kind_names[] = { "monitors", "heartbeats", "contacts", "status pages" };

/* What a step read besides its own list. A NULL member was not read: not
 * needed, or refused (then *_refused holds the HTTP status). */
struct bs_ctx {
	json_object *oncall;    /* the default calendar's on-call users: {key,name,email,phone} */
	json_object *calendars; /* calendar id -> its on-call users, every calendar (oncall included) */
	long oncall_refused;    /* HTTP status when the key may not read them */
	json_object *team;      /* the team's members: {key,name,email} */
	long team_refused;
	json_object *policies; /* policy id -> attributes */
	long policies_refused;
	/* status page id -> {"sections":[…],"resources":[…],"reports":[…]} (or "refused":N
	 * for the first two; "history_failed":N, an HTTP status or -1 for an answer that
	 * is no list, when its reports or their updates could not be read) */
	json_object *sp;
};

static const struct {
	const char *bs, *norm, *up_when;
	bool ms_timeout; /* request_timeout is in milliseconds (server and port checks) */
	                 /* clang-format off */
} monitor_types[] = {
	{ "status", "http", NULL, false }, { "expected_status_code", "http", NULL, false },
	{ "keyword", "keyword", "present", false }, { "keyword_absence", "keyword", "absent", false },
	{ "ping", "ping", NULL, true }, { "tcp", "tcp", NULL, true }, { "udp", "udp", "present", true },
	{ "smtp", "smtp", NULL, true }, { "pop", "pop3", NULL, true }, { "imap", "imap", NULL, true },
	{ "dns", "dns", NULL, true }, { "playwright", "other", NULL, false }, { NULL, NULL, NULL, false }
};
/* clang-format on */

/* Rails time zone names (ActiveSupport::TimeZone::MAPPING), which Better
 * Stack uses for maintenance_timezone and status page timezone, as IANA names. */
/* clang-format off */
static const char *const rails_zones[][2] = {
	{ "International Date Line West", "Pacific/Midway" }, { "Midway Island", "Pacific/Midway" },
	{ "American Samoa", "Pacific/Pago_Pago" }, { "Hawaii", "Pacific/Honolulu" },
	{ "Alaska", "America/Juneau" }, { "Pacific Time (US & Canada)", "America/Los_Angeles" },
	{ "Tijuana", "America/Tijuana" }, { "Mountain Time (US & Canada)", "America/Denver" },
	{ "Arizona", "America/Phoenix" }, { "Chihuahua", "America/Chihuahua" },
	{ "Mazatlan", "America/Mazatlan" }, { "Central Time (US & Canada)", "America/Chicago" },
	{ "Saskatchewan", "America/Regina" }, { "Guadalajara", "America/Mexico_City" },
	{ "Mexico City", "America/Mexico_City" }, { "Monterrey", "America/Monterrey" },
	{ "Central America", "America/Guatemala" }, { "Eastern Time (US & Canada)", "America/New_York" },
	{ "Indiana (East)", "America/Indiana/Indianapolis" }, { "Bogota", "America/Bogota" },
	{ "Lima", "America/Lima" }, { "Quito", "America/Lima" }, { "Atlantic Time (Canada)", "America/Halifax" },
	{ "Caracas", "America/Caracas" }, { "La Paz", "America/La_Paz" }, { "Santiago", "America/Santiago" },
	{ "Newfoundland", "America/St_Johns" }, { "Brasilia", "America/Sao_Paulo" },
	{ "Buenos Aires", "America/Argentina/Buenos_Aires" }, { "Montevideo", "America/Montevideo" },
	{ "Georgetown", "America/Guyana" }, { "Puerto Rico", "America/Puerto_Rico" },
	{ "Greenland", "America/Nuuk" }, { "Mid-Atlantic", "Atlantic/South_Georgia" },
	{ "Azores", "Atlantic/Azores" }, { "Cape Verde Is.", "Atlantic/Cape_Verde" },
	{ "Dublin", "Europe/Dublin" }, { "Edinburgh", "Europe/London" }, { "Lisbon", "Europe/Lisbon" },
	{ "London", "Europe/London" }, { "Casablanca", "Africa/Casablanca" }, { "Monrovia", "Africa/Monrovia" },
	{ "UTC", "Etc/UTC" }, { "Belgrade", "Europe/Belgrade" }, { "Bratislava", "Europe/Bratislava" },
	{ "Budapest", "Europe/Budapest" }, { "Ljubljana", "Europe/Ljubljana" }, { "Prague", "Europe/Prague" },
	{ "Sarajevo", "Europe/Sarajevo" }, { "Skopje", "Europe/Skopje" }, { "Warsaw", "Europe/Warsaw" },
	{ "Zagreb", "Europe/Zagreb" }, { "Brussels", "Europe/Brussels" }, { "Copenhagen", "Europe/Copenhagen" },
	{ "Madrid", "Europe/Madrid" }, { "Paris", "Europe/Paris" }, { "Amsterdam", "Europe/Amsterdam" },
	{ "Berlin", "Europe/Berlin" }, { "Bern", "Europe/Zurich" }, { "Zurich", "Europe/Zurich" },
	{ "Rome", "Europe/Rome" }, { "Stockholm", "Europe/Stockholm" }, { "Vienna", "Europe/Vienna" },
	{ "West Central Africa", "Africa/Algiers" }, { "Bucharest", "Europe/Bucharest" },
	{ "Cairo", "Africa/Cairo" }, { "Helsinki", "Europe/Helsinki" }, { "Kyiv", "Europe/Kyiv" },
	{ "Kyev", "Europe/Kyiv" }, { "Riga", "Europe/Riga" }, { "Sofia", "Europe/Sofia" },
	{ "Tallinn", "Europe/Tallinn" }, { "Vilnius", "Europe/Vilnius" }, { "Athens", "Europe/Athens" },
	{ "Istanbul", "Europe/Istanbul" }, { "Minsk", "Europe/Minsk" }, { "Jerusalem", "Asia/Jerusalem" },
	{ "Harare", "Africa/Harare" }, { "Pretoria", "Africa/Johannesburg" },
	{ "Kaliningrad", "Europe/Kaliningrad" }, { "Moscow", "Europe/Moscow" },
	{ "St. Petersburg", "Europe/Moscow" }, { "Volgograd", "Europe/Volgograd" },
	{ "Samara", "Europe/Samara" }, { "Kuwait", "Asia/Kuwait" }, { "Riyadh", "Asia/Riyadh" },
	{ "Nairobi", "Africa/Nairobi" }, { "Baghdad", "Asia/Baghdad" }, { "Tehran", "Asia/Tehran" },
	{ "Abu Dhabi", "Asia/Muscat" }, { "Muscat", "Asia/Muscat" }, { "Baku", "Asia/Baku" },
	{ "Tbilisi", "Asia/Tbilisi" }, { "Yerevan", "Asia/Yerevan" }, { "Kabul", "Asia/Kabul" },
	{ "Ekaterinburg", "Asia/Yekaterinburg" }, { "Islamabad", "Asia/Karachi" },
	{ "Karachi", "Asia/Karachi" }, { "Tashkent", "Asia/Tashkent" }, { "Chennai", "Asia/Kolkata" },
	{ "Kolkata", "Asia/Kolkata" }, { "Mumbai", "Asia/Kolkata" }, { "New Delhi", "Asia/Kolkata" },
	{ "Kathmandu", "Asia/Kathmandu" }, { "Astana", "Asia/Dhaka" }, { "Dhaka", "Asia/Dhaka" },
	{ "Sri Jayawardenepura", "Asia/Colombo" }, { "Almaty", "Asia/Almaty" },
	{ "Novosibirsk", "Asia/Novosibirsk" }, { "Rangoon", "Asia/Yangon" }, { "Bangkok", "Asia/Bangkok" },
	{ "Hanoi", "Asia/Bangkok" }, { "Jakarta", "Asia/Jakarta" }, { "Krasnoyarsk", "Asia/Krasnoyarsk" },
	{ "Beijing", "Asia/Shanghai" }, { "Chongqing", "Asia/Chongqing" }, { "Hong Kong", "Asia/Hong_Kong" },
	{ "Urumqi", "Asia/Urumqi" }, { "Kuala Lumpur", "Asia/Kuala_Lumpur" },
	{ "Singapore", "Asia/Singapore" }, { "Taipei", "Asia/Taipei" }, { "Perth", "Australia/Perth" },
	{ "Irkutsk", "Asia/Irkutsk" }, { "Ulaanbaatar", "Asia/Ulaanbaatar" }, { "Seoul", "Asia/Seoul" },
	{ "Osaka", "Asia/Tokyo" }, { "Sapporo", "Asia/Tokyo" }, { "Tokyo", "Asia/Tokyo" },
	{ "Yakutsk", "Asia/Yakutsk" }, { "Darwin", "Australia/Darwin" }, { "Adelaide", "Australia/Adelaide" },
	{ "Canberra", "Australia/Melbourne" }, { "Melbourne", "Australia/Melbourne" },
	{ "Sydney", "Australia/Sydney" }, { "Brisbane", "Australia/Brisbane" }, { "Hobart", "Australia/Hobart" },
	{ "Vladivostok", "Asia/Vladivostok" }, { "Guam", "Pacific/Guam" },
	{ "Port Moresby", "Pacific/Port_Moresby" }, { "Magadan", "Asia/Magadan" },
	{ "Srednekolymsk", "Asia/Srednekolymsk" }, { "Solomon Is.", "Pacific/Guadalcanal" },
	{ "New Caledonia", "Pacific/Noumea" }, { "Fiji", "Pacific/Fiji" }, { "Kamchatka", "Asia/Kamchatka" },
	{ "Marshall Is.", "Pacific/Majuro" }, { "Auckland", "Pacific/Auckland" },
	{ "Wellington", "Pacific/Auckland" }, { "Nuku'alofa", "Pacific/Tongatapu" },
	{ "Tokelau Is.", "Pacific/Fakaofo" }, { "Chatham Is.", "Pacific/Chatham" }, { "Samoa", "Pacific/Apia" },
};
/* clang-format on */

static const char *const iana_areas[] = { "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic",
	"Australia", "Etc", "Europe", "Indian", "Pacific", NULL };

/* A status page's history, for prov_unread. */
static const char *const sp_history_keys[] = { "incidents", NULL };

static const char *const known_resource_types[] = { "Monitor", "Heartbeat", "MonitorGroup", "HeartbeatGroup",
	"ManuallyTrackedItem", "WebhookIntegration", "EmailIntegration", "IncomingWebhook", "ResourceGroup",
	"LogsChart", "CatalogReference", NULL };

/* ---- small readers ---- */

/* The IANA name of a Rails or IANA time zone name, else NULL with a warning. */
static const char *
zone_iana(const char *zone, const char *what, struct prov_page *page)
{
	char zb[80];

	if (zone == NULL)
		return NULL;
	for (size_t i = 0; i < sizeof rails_zones / sizeof rails_zones[0]; i++)
		if (strcmp(zone, rails_zones[i][0]) == 0)
			return rails_zones[i][1];
	for (size_t i = 0; iana_areas[i] != NULL; i++) {
		size_t n = strlen(iana_areas[i]);

		if (strncmp(zone, iana_areas[i], n) == 0 && zone[n] == '/' && strchr(zone, ' ') == NULL)
			return zone; /* already an IANA name */
	}
	prov_copy_text(zb, sizeof zb, zone);
	prov_page_warn(page, BS " %s has an unknown time zone %s; left empty", what, zb);
	return NULL;
}

static bool
is_paused(json_object *a)
{
	const char *status = prov_get_str(a, "status", 64);

	return prov_get(a, "paused_at") != NULL || prov_get_bool(a, "paused", false) ||
	    (status != NULL && strcmp(status, "paused") == 0);
}

/* A bool the provider may leave out. */
static enum prov_tri
get_tri(json_object *a, const char *key)
{
	if (prov_get(a, key) == NULL)
		return PROV_UNSET;
	return prov_get_bool(a, key, false) ? PROV_YES : PROV_NO;
}

/* "HH:MM[:SS]" as minutes after midnight, or -1. */
static int
clock_minutes(const char *s)
{
	int secs;

	return time_parse_clock(s, &secs) == 0 ? secs / 60 : -1;
}

/* ---- the context: on-call users and policies ---- */

/* The user of the on-calls answer included[] with this id. */
static json_object *
included_user(json_object *root, const char *id)
{
	json_object *inc = prov_get_array(root, "included");
	char iid[64];

	for (size_t i = 0; inc != NULL && i < json_object_array_length(inc); i++) {
		json_object *u = json_object_array_get_idx(inc, i);

		if (prov_get_id(u, "id", iid, sizeof iid) == 0 && strcmp(iid, id) == 0)
			return prov_get_object(u, "attributes");
	}
	return NULL;
}

/* One on-call user as {key,name,email,phone}: the relationship entry (id,
 * meta.email) completed from included[] (names, email, first phone number). */
static json_object *
oncall_user(json_object *root, json_object *rel)
{
	json_object *u, *at, *phones;
	const char *email, *first, *last, *phone = NULL;
	char id[64], *name;

	if (prov_get_id(rel, "id", id, sizeof id) != 0)
		return NULL;
	at = included_user(root, id);
	email = prov_get_text(at, "email", 254);
	if (email == NULL)
		email = prov_get_text(prov_get_object(rel, "meta"), "email", 254);
	first = prov_get_text(at, "first_name", 200);
	last = prov_get_text(at, "last_name", 200);
	phones = prov_get_array(at, "phone_numbers");
	for (size_t i = 0; phones != NULL && phone == NULL && i < json_object_array_length(phones); i++) {
		json_object *p = json_object_array_get_idx(phones, i);

		if (json_object_is_type(p, json_type_string) && json_object_get_string_len(p) > 0 &&
		    json_object_get_string_len(p) <= 64)
			phone = json_object_get_string(p);
	}
	name = xasprintf("%s%s%s", first ? first : "", first && last ? " " : "", last ? last : "");
	u = json_object_new_object();
	jx_add_str(u, "key", id);
	jx_add_str(u, "name", name[0] ? name : email ? email : id);
	jx_add_str(u, "email", email);
	jx_add_str(u, "phone", phone);
	free(name);
	return u;
}

/* The on-call users of every calendar of this on-calls page into
 * ctx->calendars, and the default calendar's into ctx->oncall. */
static void
oncall_take(struct bs_ctx *ctx, json_object *root)
{
	json_object *list = prov_get_array(root, "data");
	char cid[64];

	for (size_t i = 0; list != NULL && i < json_object_array_length(list); i++) {
		json_object *cal = json_object_array_get_idx(list, i), *rels, *users;

		if (prov_get_id(cal, "id", cid, sizeof cid) != 0 ||
		    json_object_object_get_ex(ctx->calendars, cid, NULL))
			continue;
		users = json_object_new_array();
		rels = prov_get_array(prov_get_object(prov_get_object(cal, "relationships"), "on_call_users"),
		    "data");
		for (size_t k = 0; rels != NULL && k < json_object_array_length(rels); k++) {
			json_object *u = oncall_user(root, json_object_array_get_idx(rels, k));

			if (u != NULL)
				json_object_array_add(users, u);
		}
		json_object_object_add(ctx->calendars, cid, users);
		if (ctx->oncall == NULL &&
		    prov_get_bool(prov_get_object(cal, "attributes"), "default_calendar", false))
			ctx->oncall = json_object_get(users);
	}
}

/* The team's members. The official client (terraform-provider-better-uptime
 * internal/provider/client.go) lists them on betterstack.com; every request
 * of a session stays under its base URL (the token goes nowhere else, as
 * fuzz_fetch checks), so they are asked for there: a base URL that does not
 * serve them answers 404, a refusal (the team's links unread, warned). */
#define BS_TEAM_PATH "/api/v2/team-members"

static char *
list_url(const struct prov_session *s, const char *path, int64_t pg, int per_page)
{
	const char *team = prov_cred(s, "team_name");
	char *q = NULL, *url;

	if (team != NULL)
		httpc_form_add(&q, "team_name", team);
	url = prov_url(s, "%s?page=%lld&per_page=%d%s%s", path, (long long)pg, per_page, q ? "&" : "",
	    q ? q : "");
	free(q);
	return url;
}

/* GET one page of a list read inside a step. PROV_OK with *root (its "data"
 * is an array), or PROV_OK with *root NULL and *refused set when the key may
 * not read it (401, 403, 404), or an error status. */
static enum prov_status
ctx_get(struct prov_session *s, const char *auth, const char *path, int64_t pg, json_object **root,
    long *refused, struct prov_error *err)
{
	struct httpc_req req = { 0 };
	struct httpc_resp resp = { 0 };
	const char *headers[2] = { auth, NULL };
	enum prov_status st;

	*root = NULL;
	*refused = 0;
	req.url = list_url(s, path, pg, BS_PER_PAGE);
	req.headers = headers;
	st = prov_http(s, &req, &resp, err);
	if (st == PROV_OK && (resp.status == 401 || resp.status == 403 || resp.status == 404))
		*refused = resp.status;
	else if (st == PROV_OK && (st = httpc_classify(&resp, BS, "API token", err)) == PROV_OK) {
		if ((*root = prov_parse_json(&resp, BS, err)) == NULL)
			st = err->status;
		else if (prov_get_array(*root, "data") == NULL) {
			json_object_put(*root);
			*root = NULL;
			st = prov_fail(err, PROV_TRANSIENT, BS " sent an answer without a \"data\" list");
		}
	}
	httpc_resp_free(&resp);
	free((char *)req.url);
	return st;
}

static bool
has_next(json_object *root)
{
	json_object *next = prov_get(prov_get_object(root, "pagination"), "next");

	return json_object_is_type(next, json_type_string) && json_object_get_string_len(next) > 0 &&
	    json_object_array_length(prov_get_array(root, "data")) > 0;
}

/* Read every calendar's current on-call users into ctx. */
static enum prov_status
ctx_load_oncall(struct prov_session *s, const char *auth, struct bs_ctx *ctx, struct prov_error *err)
{
	json_object *root;
	long refused;
	enum prov_status st;
	bool more = true;

	ctx->calendars = json_object_new_object();
	for (int64_t pg = 1; more && pg <= BS_CTX_PAGES; pg++) {
		if ((st = ctx_get(s, auth, "/api/v2/on-calls", pg, &root, &refused, err)) != PROV_OK)
			return st;
		if (root == NULL) {
			json_object_put(ctx->calendars);
			json_object_put(ctx->oncall);
			ctx->calendars = ctx->oncall = NULL;
			ctx->oncall_refused = refused;
			return PROV_OK;
		}
		oncall_take(ctx, root);
		more = has_next(root);
		json_object_put(root);
	}
	if (ctx->oncall == NULL) /* no default calendar: nobody is on call by default */
		ctx->oncall = json_object_new_array();
	return PROV_OK;
}

/* Read the team's members (betterstack.com/docs/uptime/api/team-members/list:
 * data[] of type team_member, and team_member_invitation for a pending
 * invitation, who is nobody to alert yet) into ctx as {key,name,email}. */
static enum prov_status
ctx_load_team(struct prov_session *s, const char *auth, struct bs_ctx *ctx, struct prov_error *err)
{
	json_object *root, *list;
	long refused;
	enum prov_status st;
	bool more = true;
	char id[64];

	ctx->team = json_object_new_array();
	for (int64_t pg = 1; more && pg <= BS_CTX_PAGES; pg++) {
		if ((st = ctx_get(s, auth, BS_TEAM_PATH, pg, &root, &refused, err)) != PROV_OK)
			return st;
		if (root == NULL) {
			json_object_put(ctx->team);
			ctx->team = NULL;
			ctx->team_refused = refused;
			return PROV_OK;
		}
		list = prov_get_array(root, "data");
		for (size_t i = 0; i < json_object_array_length(list); i++) {
			json_object *m = json_object_array_get_idx(list, i), *u;
			json_object *a = prov_get_object(m, "attributes");
			const char *type = prov_get_str(m, "type", 64),
			           *email = prov_get_text(a, "email", 254);
			const char *first = prov_get_text(a, "first_name", 200),
			           *last = prov_get_text(a, "last_name", 200);
			char *name;

			if (type == NULL || strcmp(type, "team_member") != 0 || email == NULL ||
			    prov_get_id(m, "id", id, sizeof id) != 0)
				continue;
			name = xasprintf("%s%s%s", first ? first : "", first && last ? " " : "",
			    last ? last : "");
			u = json_object_new_object();
			jx_add_str(u, "key", id);
			jx_add_str(u, "name", name[0] ? name : email);
			jx_add_str(u, "email", email);
			json_object_array_add(ctx->team, u);
			free(name);
		}
		more = has_next(root);
		json_object_put(root);
	}
	return PROV_OK;
}

/* Read every escalation policy (id -> attributes) into ctx. */
static enum prov_status
ctx_load_policies(struct prov_session *s, const char *auth, struct bs_ctx *ctx, struct prov_error *err)
{
	json_object *root, *list;
	long refused;
	enum prov_status st;
	bool more = true;
	char id[64];

	ctx->policies = json_object_new_object();
	for (int64_t pg = 1; more && pg <= BS_CTX_PAGES; pg++) {
		if ((st = ctx_get(s, auth, "/api/v3/policies", pg, &root, &refused, err)) != PROV_OK)
			return st;
		if (root == NULL) {
			json_object_put(ctx->policies);
			ctx->policies = NULL;
			ctx->policies_refused = refused;
			return PROV_OK;
		}
		list = prov_get_array(root, "data");
		for (size_t i = 0; i < json_object_array_length(list); i++) {
			json_object *p = json_object_array_get_idx(list, i);
			json_object *a = prov_get_object(p, "attributes");

			if (a != NULL && prov_get_id(p, "id", id, sizeof id) == 0)
				json_object_object_add(ctx->policies, id, json_object_get(a));
		}
		more = has_next(root);
		json_object_put(root);
	}
	return PROV_OK;
}

static void
ctx_free(struct bs_ctx *ctx)
{
	json_object_put(ctx->oncall);
	json_object_put(ctx->calendars);
	json_object_put(ctx->team);
	json_object_put(ctx->policies);
	json_object_put(ctx->sp);
	memset(ctx, 0, sizeof *ctx);
}

/* ---- users and their contacts ---- */

/* The user with this e-mail address in users, or NULL. */
static json_object *
users_find(json_object *users, const char *email)
{
	for (size_t i = 0; users != NULL && i < json_object_array_length(users); i++) {
		json_object *u = json_object_array_get_idx(users, i);
		const char *e = prov_get_str(u, "email", 254);

		if (e != NULL && strcasecmp(e, email) == 0)
			return u;
	}
	return NULL;
}

/* The on-call user (of any calendar) or team member with this e-mail
 * address, or NULL. */
static json_object *
user_find(const struct bs_ctx *ctx, const char *email)
{
	json_object *u = users_find(ctx->team, email);

	if (u != NULL || ctx->calendars == NULL)
		return u;
	json_object_object_foreach (ctx->calendars, cid, users) {
		(void)cid;
		if ((u = users_find(users, email)) != NULL)
			return u;
	}
	return NULL;
}

/* What member_key found. */
enum member_found { MEMBER_NONE, MEMBER_KEY, MEMBER_UNREAD };

/* The user key of a policy "user" member into buf: its id, else the id of
 * the on-call user or team member with its e-mail, else "email=<address>"
 * (lower case). MEMBER_UNREAD for a member given only by an e-mail address
 * that no one read has when the team's members were not read: the key
 * would differ from that of a run that read them, and name a second
 * contact for the same person. MEMBER_NONE without an id or address. */
static enum member_found
member_key(const struct bs_ctx *ctx, json_object *m, char *buf, size_t size)
{
	const char *email = prov_get_text(m, "email", 254);
	json_object *u;
	size_t n;

	if (prov_get_id(m, "id", buf, size) == 0)
		return MEMBER_KEY;
	if (email == NULL)
		return MEMBER_NONE;
	if ((u = user_find(ctx, email)) != NULL)
		return snprintf(buf, size, "%s", prov_get_str(u, "key", 64)) < (int)size ? MEMBER_KEY :
		                                                                           MEMBER_NONE;
	if (ctx->team == NULL)
		return MEMBER_UNREAD;
	if ((n = (size_t)snprintf(buf, size, "email=%s", email)) >= size)
		return MEMBER_NONE;
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)tolower((unsigned char)buf[i]);
	return MEMBER_KEY;
}

/* The external id of a user's contact on channel (email, sms, voice, push). */
static void
contact_xid(char *buf, size_t size, const char *key, const char *channel)
{
	snprintf(buf, size, "user:%s:%s", key, channel);
}

/* The alert links of a monitor or heartbeat being built: contact ids and
 * their timing (prov_contact_timing), and whether a read they come from
 * failed. */
struct bs_links {
	json_object *ids, *timing;
	bool unread;
};

/* Link a user's contact on channel, alerted delay_s seconds into an incident
 * (0: at once). A contact already linked keeps its earlier delay: links are
 * added in the order Better Stack alerts them. */
static void
link_add(struct bs_links *l, const char *key, const char *channel, int64_t delay_s)
{
	char xid[192];

	contact_xid(xid, sizeof xid, key, channel);
	for (size_t i = 0; i < json_object_array_length(l->ids); i++)
		if (strcmp(json_object_get_string(json_object_array_get_idx(l->ids, i)), xid) == 0)
			return;
	json_object_array_add(l->ids, json_object_new_string(xid));
	prov_contact_timing(&l->timing, xid, delay_s, 0);
}

/* One contact of a user on a channel; name gets a channel suffix but e-mail. */
static void
contact_add(struct prov_page *page, const char *key, const char *channel, const char *type, const char *name,
    const char *value, json_object *raw)
{
	static const char *const suffix[][2] = { { "sms", " (SMS)" }, { "voice", " (call)" },
		{ "push", " (push)" }, { "email", "" } };
	struct prov_contact ct = { 0 };
	char xid[192], *label;
	const char *sfx = "";

	for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++)
		if (strcmp(channel, suffix[i][0]) == 0)
			sfx = suffix[i][1];
	label = xasprintf("%s%s", name, sfx);
	contact_xid(xid, sizeof xid, key, channel);
	ct.name = label;
	ct.type = type;
	ct.value = value;
	ct.needs_address = value == NULL;
	prov_page_add(page, "contact", xid, json_object_get(raw), prov_norm_contact(&ct));
	free(label);
}

/* ---- alert links ---- */

/* The alert flags of a monitor or heartbeat without a policy: the on-call
 * users get a message on each set flag's channel. */
static const struct {
	const char *flag, *channel, *label;
	bool phone;
	/* clang-format off */
} alert_flags[] = {
	{ "email", "email", "e-mail", false }, { "sms", "sms", "SMS", true },
	{ "call", "voice", "phone call", true }, { "push", "push", "push notification", false },
	{ "critical_alert", "push", "critical alert", false },
};
/* clang-format on */

/* Link the default calendar's on-call users by the set flags. */
static void
links_oncall(const struct bs_ctx *ctx, json_object *a, const char *what, const char *name, struct bs_links *l,
    struct prov_page *page)
{
	size_t nusers = ctx->oncall != NULL ? json_object_array_length(ctx->oncall) : 0;
	bool any = false;

	for (size_t f = 0; f < sizeof alert_flags / sizeof alert_flags[0]; f++)
		any |= prov_get_bool(a, alert_flags[f].flag, false);
	if (!any)
		return;
	if (ctx->oncall == NULL) {
		prov_page_warn(page,
		    BS " %s \"%s\" alerts the on-call person, but the on-call calendars could "
		       "not be read (HTTP %ld): not linked",
		    what, name, ctx->oncall_refused);
		l->unread = true;
		return;
	}
	if (nusers == 0) {
		prov_page_warn(page,
		    BS " %s \"%s\" alerts the on-call person, but nobody is on call now: "
		       "not linked",
		    what, name);
		return;
	}
	for (size_t f = 0; f < sizeof alert_flags / sizeof alert_flags[0]; f++) {
		if (!prov_get_bool(a, alert_flags[f].flag, false))
			continue;
		for (size_t i = 0; i < nusers; i++) {
			json_object *u = json_object_array_get_idx(ctx->oncall, i);
			const char *addr = prov_get_str(u, alert_flags[f].phone ? "phone" : "email", 254);

			if (addr != NULL)
				link_add(l, prov_get_str(u, "key", 64), alert_flags[f].channel, 0);
			else
				prov_page_warn(page,
				    BS " %s \"%s\": on-call user %s has no %s for the %s alert: "
				       "not linked",
				    what, name, prov_get_str(u, "name", PROV_MAX_STR),
				    alert_flags[f].phone ? "phone number" : "e-mail address",
				    alert_flags[f].label);
		}
	}
}

/* Link the e-mail contact of each user of users (NULL: not read, which
 * marks the links unread) delay_s seconds into an incident. */
static void
links_users(json_object *users, int64_t delay_s, struct bs_links *l)
{
	if (users == NULL) {
		l->unread = true;
		return;
	}
	for (size_t i = 0; i < json_object_array_length(users); i++) {
		json_object *u = json_object_array_get_idx(users, i);

		if (prov_get_str(u, "email", 254) != NULL)
			link_add(l, prov_get_str(u, "key", 64), "email", delay_s);
	}
}

/* The longest delay a link takes (the account's delay_s reaches 10^8 s). */
#define BS_MAX_DELAY 100000000

/* Link the step members of the escalation policy pid, each step wait_before
 * seconds after the one before it: a user's e-mail contact, the current
 * on-call users of the calendar a current_on_call member names (without an
 * id: the default calendar), every team member for entire_team. Other member
 * types only get a warning. */
static void
links_policy(const struct bs_ctx *ctx, const char *pid, const char *what, const char *name,
    struct bs_links *l, struct prov_page *page)
{
	json_object *pol, *steps;
	const char *other = NULL, *pname;
	size_t nother = 0;
	int64_t at = 0, wait;
	char key[160], cid[64];

	if (ctx->policies == NULL) {
		prov_page_warn(page,
		    BS " %s \"%s\" alerts escalation policy %s, but the policies could not "
		       "be read (HTTP %ld): not linked",
		    what, name, pid, ctx->policies_refused);
		l->unread = true;
		return;
	}
	if (!json_object_object_get_ex(ctx->policies, pid, &pol)) {
		prov_page_warn(page,
		    BS " %s \"%s\" alerts escalation policy %s, which is not in the policy "
		       "list: not linked",
		    what, name, pid);
		return;
	}
	pname = prov_get_str(pol, "name", PROV_MAX_STR) ? prov_get_str(pol, "name", PROV_MAX_STR) : pid;
	steps = prov_get_array(pol, "steps");
	for (size_t i = 0; steps != NULL && i < json_object_array_length(steps); i++) {
		json_object *step = json_object_array_get_idx(steps, i);
		json_object *mem = prov_get_array(step, "step_members");

		if (prov_get_int_in(step, "wait_before", 0, BS_MAX_DELAY, &wait))
			at = at + wait < BS_MAX_DELAY ? at + wait : BS_MAX_DELAY;
		else if (mem != NULL && prov_get(step, "wait_until_time") != NULL)
			prov_page_warn(page,
			    BS " %s \"%s\": escalation policy \"%s\" step %zu waits until a time of day; "
			       "its members are linked with the delay of the step before it",
			    what, name, pname, i + 1);
		for (size_t k = 0; mem != NULL && k < json_object_array_length(mem); k++) {
			json_object *m = json_object_array_get_idx(mem, k), *users = NULL;
			const char *type = prov_get_str(m, "type", 64);
			enum member_found found = MEMBER_NONE;

			if (type != NULL && strcmp(type, "user") == 0 &&
			    (found = member_key(ctx, m, key, sizeof key)) != MEMBER_NONE) {
				if (found == MEMBER_KEY)
					link_add(l, key, "email", at);
				else
					l->unread = true;
			} else if (type != NULL && strcmp(type, "current_on_call") == 0) {
				if (prov_get_id(m, "id", cid, sizeof cid) != 0)
					links_users(ctx->oncall, at, l);
				else if (ctx->calendars == NULL ||
				    json_object_object_get_ex(ctx->calendars, cid, &users))
					links_users(users, at, l);
				else
					prov_page_warn(page,
					    BS " %s \"%s\": escalation policy \"%s\" alerts on-call calendar "
					       "%s, which is not in the calendar list: not linked",
					    what, name, pname, cid);
			} else if (type != NULL && strcmp(type, "entire_team") == 0)
				links_users(ctx->team, at, l);
			else if (nother++ == 0)
				other = type != NULL ? type : "(none)";
		}
	}
	if (nother > 0) {
		char tb[64];

		prov_copy_text(tb, sizeof tb, other);
		prov_page_warn(page,
		    BS " %s \"%s\": escalation policy \"%s\" also notifies %zu member(s) "
		       "that are not people (e.g. %s): not linked",
		    what, name, pname, nother, tb);
	}
}

/* The alert links of a monitor or heartbeat (none without a context; the
 * caller owns ids and timing). */
static struct bs_links
alert_links(const struct bs_ctx *ctx, json_object *a, const char *what, const char *name,
    struct prov_page *page)
{
	struct bs_links l = { json_object_new_array(), NULL, false };
	char pid[64];
	int64_t wait;

	if (ctx == NULL)
		return l;
	if (prov_get_id(a, "policy_id", pid, sizeof pid) == 0)
		links_policy(ctx, pid, what, name, &l, page);
	else {
		links_oncall(ctx, a, what, name, &l, page);
		/* team_wait s after the on-call person, the entire team (null: never) */
		if (prov_get_int_in(a, "team_wait", 0, BS_MAX_DELAY, &wait)) {
			if (ctx->team == NULL)
				prov_page_warn(page,
				    BS " %s \"%s\" alerts the entire team after %lld s (team_wait), but the "
				       "team's members could not be read (HTTP %ld): not linked",
				    what, name, (long long)wait, ctx->team_refused);
			links_users(ctx->team, wait, &l);
		}
	}
	return l;
}

/* norm with its alert links marked unread when a read they come from
 * failed (alert_links). */
static json_object *
links_done(json_object *norm, const struct bs_links *l)
{
	if (l->unread)
		prov_unread(norm,
		    "the escalation policies, on-call calendars or team members could not be read",
		    prov_contact_keys);
	return norm;
}

/* ---- maintenance windows ---- */

static json_object *
window_days(json_object *a, const char *what, const char *name, struct prov_page *page)
{
	static const char *const names[] = { "mon", "tue", "wed", "thu", "fri", "sat", "sun" };
	json_object *v = prov_get(a, "maintenance_days"), *days = json_object_new_array();
	json_object *list =
	    json_object_is_type(v, json_type_array) ? json_object_get(v) : prov_str_list(v, ',');

	for (size_t i = 0; list != NULL && i < json_object_array_length(list); i++) {
		const char *d = json_object_get_string(json_object_array_get_idx(list, i));
		size_t k = 0;

		while (k < 7 && (d == NULL || strncasecmp(d, names[k], 3) != 0))
			k++;
		if (k < 7)
			json_object_array_add(days, json_object_new_int((int)k + 1));
		else {
			char db[32];

			prov_copy_text(db, sizeof db, d ? d : "(none)");
			prov_page_warn(page, BS " %s \"%s\" has an unknown maintenance day %s; ignored", what,
			    name, db);
		}
	}
	json_object_put(list);
	return days;
}

/* The daily maintenance window of a monitor or heartbeat as its own item
 * ("monitor-<id>" / "heartbeat-<id>"), when it has one. */
static void
add_window(json_object *a, const char *what, const char *id, const char *name, struct prov_page *page)
{
	static const char *const keys[] = { "maintenance_from", "maintenance_to", "maintenance_timezone",
		"maintenance_days" };
	struct prov_maintenance_window w = { 0 };
	const char *from = prov_get_text(a, "maintenance_from", 16),
	           *to = prov_get_text(a, "maintenance_to", 16);
	int fm = clock_minutes(from), tm = clock_minutes(to);
	json_object *raw;
	char start[16], xid[192], *label;

	if (from == NULL && to == NULL)
		return;
	if (fm < 0 || tm < 0) {
		prov_page_warn(page, BS " %s \"%s\" has an incomplete maintenance window; skipped", what,
		    name);
		return;
	}
	snprintf(start, sizeof start, "%02d:%02d", fm / 60, fm % 60);
	w.days = window_days(a, what, name, page);
	if (json_object_array_length(w.days) == 0 || json_object_array_length(w.days) == 7) {
		json_object_put(w.days);
		w.days = NULL;
	}
	/* Window names are the account's key: a heartbeat may share its monitor's name. */
	label =
	    xasprintf(strcmp(what, "heartbeat") == 0 ? "%s heartbeat maintenance" : "%s maintenance", name);
	w.name = label;
	w.recurrence = w.days != NULL ? "weekly" : "daily";
	w.start = start;
	w.duration = fm == tm ? 1440 : (tm - fm + 1440) % 1440; /* overnight windows wrap */
	w.timezone = prov_get_text(a, "maintenance_timezone", 80) != NULL ?
	    zone_iana(prov_get_text(a, "maintenance_timezone", 80), "maintenance window", page) :
	    "Etc/UTC";
	/* monitors and heartbeats are numbered apart: say which one it is */
	if (strcmp(what, "heartbeat") == 0)
		w.heartbeat_ids = json_object_new_array();
	else
		w.monitor_ids = json_object_new_array();
	json_object_array_add(w.heartbeat_ids ? w.heartbeat_ids : w.monitor_ids, json_object_new_string(id));
	raw = json_object_new_object();
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		json_object_object_add(raw, keys[i], json_object_get(prov_get(a, keys[i])));
	snprintf(xid, sizeof xid, "%s-%s", what, id);
	prov_page_add(page, "maintenance_window", xid, raw, prov_norm_maintenance_window(&w));
	free(label);
}

/* ---- monitors and heartbeats ---- */

/* The field tables (at the end) map the fields that are copied as they are. */
static const struct prov_field monitor_fields[], heartbeat_fields[];

/* request_headers [{name, value}] as an object name -> value. */
static json_object *
headers_object(json_object *arr)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; arr != NULL && i < json_object_array_length(arr); i++) {
		json_object *h = json_object_array_get_idx(arr, i), *v = prov_get(h, "value");
		const char *name = prov_get_text(h, "name", 256);

		if (name != NULL &&
		    (json_object_is_type(v, json_type_string) || json_object_is_type(v, json_type_int)))
			jx_add_str(o, name, json_object_get_string(v));
		else if (name != NULL && v == NULL)
			jx_add_str(o, name, "");
	}
	return o;
}

/* expected_status_codes (numbers or strings) as strings. */
static json_object *
codes_list(json_object *arr)
{
	json_object *out = json_object_new_array();
	int64_t code;
	char buf[24];

	for (size_t i = 0; arr != NULL && i < json_object_array_length(arr); i++)
		if (prov_json_int(json_object_array_get_idx(arr, i), &code) && code >= 100 && code <= 999) {
			snprintf(buf, sizeof buf, "%lld", (long long)code);
			json_object_array_add(out, json_object_new_string(buf));
		}
	return out;
}

/* port: a number, or a string of comma-separated ports ("25,465,587"): the
 * first one is kept (with a warning when there are more). -1 when none. */
static int64_t
first_port(json_object *a, const char *name, struct prov_page *page)
{
	json_object *v = prov_get(a, "port");
	const char *s;
	int64_t port = -1;
	char pb[64];

	if (prov_json_int(v, &port))
		return port > 0 && port <= 65535 ? port : -1;
	if (!json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	while (*s == ' ')
		s++;
	for (port = 0; isdigit((unsigned char)*s) && port <= 65535; s++)
		port = port * 10 + (*s - '0');
	if (port <= 0 || port > 65535)
		return -1;
	if (strchr(s, ',') != NULL) {
		prov_copy_text(pb, sizeof pb, json_object_get_string(v));
		prov_page_warn(page, BS " monitor \"%s\" checks ports %s; only the first (%lld) was imported",
		    name, pb, (long long)port);
	}
	return port;
}

/* The HTTP method in upper case when it is one the model knows. */
static const char *
http_method(json_object *a, char *buf, size_t size, const char *name, struct prov_page *page)
{
	static const char *const known[] = { "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
		NULL };
	const char *m = prov_get_text(a, "http_method", 16);
	size_t i;

	if (m == NULL)
		return NULL;
	for (i = 0; m[i] && i + 1 < size; i++)
		buf[i] = (char)toupper((unsigned char)m[i]);
	buf[i] = '\0';
	if (str_in_list(known, buf))
		return buf;
	prov_copy_text(buf, size, m);
	prov_page_warn(page, BS " monitor \"%s\" has an unknown HTTP method %s; left empty", name, buf);
	return NULL;
}

/* The monitor_types entry of a monitor, or NULL (unknown: a warning). */
static int
monitor_type(json_object *a, const char *name, struct prov_page *page)
{
	const char *type = prov_get_str(a, "monitor_type", 64);
	char tb[64];

	for (int i = 0; type != NULL && monitor_types[i].bs != NULL; i++)
		if (strcmp(type, monitor_types[i].bs) == 0) {
			if (strcmp(type, "playwright") == 0)
				prov_page_warn(page,
				    BS " monitor \"%s\" runs a Playwright scenario, which has no "
				       "equivalent here; imported as other without its script",
				    name);
			return i;
		}
	prov_copy_text(tb, sizeof tb, type ? type : "(none)");
	prov_page_warn(page, BS " monitor \"%s\" has an unknown type %s; kept as other", name, tb);
	return -1;
}

/* The longest basic-auth password carried: sealed and in base64 it must fit
 * the account's column (importer.c sealed(): 1400 characters). */
#define BS_MAX_PASSWORD 1000

/* Basic-auth passwords stay out of the stored provider copy. */
static void
redact_secret(json_object *a)
{
	if (prov_get_text(a, "auth_password", PROV_MAX_STR) != NULL)
		json_object_object_add(a, "auth_password", json_object_new_string("[redacted]"));
}

/* A DNS monitor asks the DNS server at url for the domain in request_body
 * (betterstack.com/docs/uptime/api/create-a-new-monitor/, monitor_type dns;
 * TF resource_monitor.go): the domain is what the account checks, the
 * server its nameserver. Better Stack publishes no record type or expected
 * answer for it, so those stay NULL (the account's default). */
static void
dns_target(struct prov_monitor *m, const char *name, struct prov_page *page)
{
	if (m->request_body == NULL) {
		prov_page_warn(page,
		    BS " DNS monitor \"%s\" names no domain to query; its server was imported as "
		       "its address",
		    name);
		return;
	}
	m->dns_nameserver = m->url;
	m->url = m->request_body;
	m->request_body = NULL;
}

static void
add_monitor(const struct bs_ctx *ctx, json_object *item, json_object *a, const char *id,
    struct prov_page *page)
{
	struct prov_monitor m = { 0 };
	struct bs_links l;
	json_object *norm, *pw = prov_get(a, "auth_password");
	char method[20];
	int t;
	int64_t timeout;

	prov_map(monitor_fields, item, &m);
	if (m.name == NULL)
		m.name = m.url ? m.url : id;
	t = monitor_type(a, m.name, page);
	m.type = t >= 0 ? monitor_types[t].norm : "other";
	m.interval = prov_int_or(a, "check_frequency", 180);
	m.paused = is_paused(a);
	m.port = first_port(a, m.name, page);
	if (t >= 0 && monitor_types[t].up_when != NULL) {
		m.keyword = prov_get_str(a, "required_keyword", PROV_MAX_STR);
		m.keyword_up_when = monitor_types[t].up_when;
	}
	m.http_method = http_method(a, method, sizeof method, m.name, page);
	m.request_body = prov_get_str(a, "request_body", PROV_MAX_STR);
	if (m.request_body != NULL && m.request_body[0] == '\0')
		m.request_body = NULL;
	if (strcmp(m.type, "dns") == 0)
		dns_target(&m, m.name, page);
	m.request_headers = headers_object(prov_get_array(a, "request_headers"));
	m.expected_status_codes = codes_list(prov_get_array(a, "expected_status_codes"));
	timeout = prov_int_in_or(a, "request_timeout", 0, INT32_MAX, 0); /* rounded up below: no overflow */
	m.timeout = t >= 0 && monitor_types[t].ms_timeout ? (timeout + 999) / 1000 : timeout;
	m.follow_redirects = get_tri(a, "follow_redirects");
	m.verify_ssl = get_tri(a, "verify_ssl");
	m.alert_after_s = prov_int_in_or(a, "confirmation_period", 0, BS_MAX_DELAY, 0);
	m.recovery_s = prov_int_in_or(a, "recovery_period", 0, BS_MAX_DELAY, 0);
	m.auth_password = prov_get_str(a, "auth_password", BS_MAX_PASSWORD);
	if (m.auth_password != NULL && m.auth_password[0] == '\0')
		m.auth_password = NULL;
	else if (m.auth_password == NULL && json_object_is_type(pw, json_type_string) &&
	    json_object_get_string_len(pw) > 0)
		prov_page_warn(page,
		    BS
		    " monitor \"%s\" logs in to its target with a password longer than %d bytes, which was "
		    "not imported: enter it again, or the moved monitor will report the site down",
		    m.name, BS_MAX_PASSWORD);
	l = alert_links(ctx, a, "monitor", m.name, page);
	m.contact_ids = l.ids;
	m.contact_timing = l.timing;
	add_window(a, "monitor", id, m.name, page);
	/* the normalized copy takes the password (discovery seals it); the stored provider copy must not */
	norm = prov_norm_monitor(&m);
	redact_secret(a);
	prov_page_add(page, "monitor", id, json_object_get(item), links_done(norm, &l));
}

static void
add_heartbeat(const struct bs_ctx *ctx, json_object *item, json_object *a, const char *id,
    struct prov_page *page)
{
	struct prov_heartbeat h = { 0 };
	struct bs_links l;

	prov_map(heartbeat_fields, item, &h);
	if (h.name == NULL)
		h.name = id;
	h.paused = is_paused(a);
	l = alert_links(ctx, a, "heartbeat", h.name, page);
	h.contact_ids = l.ids;
	h.contact_timing = l.timing;
	add_window(a, "heartbeat", id, h.name, page);
	prov_page_add(page, "heartbeat", id, json_object_get(item), links_done(prov_norm_heartbeat(&h), &l));
}

/* ---- status pages ---- */

struct sp_entry {
	int64_t section_pos, pos;
	size_t idx;
	json_object *a;      /* resource attributes */
	const char *section; /* section name or NULL */
};

static int
sp_entry_cmp(const void *x, const void *y)
{
	const struct sp_entry *p = x, *q = y;

	if (p->section_pos != q->section_pos)
		return p->section_pos < q->section_pos ? -1 : 1;
	if (p->pos != q->pos)
		return p->pos < q->pos ? -1 : 1;
	return p->idx < q->idx ? -1 : p->idx > q->idx;
}

/* The section of a resource: its name and position (sections without a
 * position, and resources without a known section, go last). */
static void
sp_section(json_object *sections, json_object *a, struct sp_entry *e)
{
	char want[64], sid[64];

	e->section_pos = INT32_MAX;
	if (prov_get_id(a, "status_page_section_id", want, sizeof want) != 0)
		return;
	for (size_t i = 0; sections != NULL && i < json_object_array_length(sections); i++) {
		json_object *sec = json_object_array_get_idx(sections, i);
		json_object *sa = prov_get_object(sec, "attributes");

		if (prov_get_id(sec, "id", sid, sizeof sid) == 0 && strcmp(sid, want) == 0) {
			e->section = prov_get_text(sa, "name", PROV_MAX_STR);
			e->section_pos = prov_int_or(sa, "position", INT32_MAX - 1);
			return;
		}
	}
}

/* One entry: a Monitor or Heartbeat resource names it; other resource types
 * are entries without a monitor, named by their public name. */
static void
sp_item_add(json_object *items, const struct sp_entry *e, const char *spname, struct prov_page *page)
{
	const char *type = prov_get_str(e->a, "resource_type", 64);
	const char *pub = prov_get_text(e->a, "public_name", PROV_MAX_STR);
	bool linked = type != NULL && (strcmp(type, "Monitor") == 0 || strcmp(type, "Heartbeat") == 0);
	char rid[64], tb[64];

	if (!linked && (type == NULL || !str_in_list(known_resource_types, type))) {
		prov_copy_text(tb, sizeof tb, type ? type : "(none)");
		prov_page_warn(page,
		    BS " status page \"%s\" shows a resource of unknown type %s; imported "
		       "without a monitor",
		    spname, tb);
	}
	if (linked && prov_get_id(e->a, "resource_id", rid, sizeof rid) == 0) {
		if (strcmp(type, "Heartbeat") == 0)
			prov_sp_heartbeat(items, rid, pub, e->section);
		else
			prov_sp_item(items, rid, pub, e->section);
	} else
		prov_sp_item(items, NULL, pub ? pub : type ? type : "Resource", e->section);
}

/* The page's entries from its sections and resources, in the page's order;
 * refs gets each resource's id -> the index of its entry. */
static json_object *
sp_items(const struct bs_ctx *ctx, const char *spid, const char *spname, json_object *refs,
    struct prov_page *page)
{
	json_object *items = json_object_new_array(), *d, *sections, *res;
	struct sp_entry *es;
	size_t n;
	char rid[64];

	if (ctx == NULL || ctx->sp == NULL || !json_object_object_get_ex(ctx->sp, spid, &d))
		return items;
	if (prov_get(d, "refused") != NULL) {
		prov_page_warn(page,
		    BS " refused the sections and resources of status page \"%s\" (HTTP "
		       "%lld): it was imported empty",
		    spname, (long long)prov_int_or(d, "refused", 0));
		return items;
	}
	sections = prov_get_array(d, "sections");
	res = prov_get_array(d, "resources");
	n = res != NULL ? json_object_array_length(res) : 0;
	es = xcalloc(n + 1, sizeof *es);
	for (size_t i = 0; i < n; i++) {
		es[i].a = prov_get_object(json_object_array_get_idx(res, i), "attributes");
		es[i].idx = i;
		es[i].pos = prov_int_or(es[i].a, "position", INT32_MAX);
		sp_section(sections, es[i].a, &es[i]);
	}
	qsort(es, n, sizeof *es, sp_entry_cmp);
	for (size_t i = 0; i < n; i++) {
		if (es[i].a == NULL)
			continue;
		if (prov_get_id(json_object_array_get_idx(res, es[i].idx), "id", rid, sizeof rid) == 0)
			jx_add_int(refs, rid, (int64_t)json_object_array_length(items));
		sp_item_add(items, &es[i], spname, page);
	}
	free(es);
	return items;
}

/* ---- status reports: a status page's history ---- */

/* The aggregate states of a report (status-page-reports-api-response-params). */
static const char *const report_states[] = { "operational", "degraded", "downtime", "maintenance", NULL };

/* Member key of o as a time, or -1. */
static int64_t
bs_when(json_object *o, const char *key)
{
	int64_t t;

	return prov_get_time(o, key, TIME_ISO, NULL, &t) ? t : -1;
}

/* The status updates of report r (read into its "status_updates"), oldest
 * first by published_at (the order given among equals). */
static json_object *
report_updates(json_object *r, const char *rid, struct prov_page *page)
{
	json_object *list = prov_get_array(r, "status_updates"), *out = json_object_new_array();
	size_t n = list ? json_object_array_length(list) : 0, nv = 0, dropped;
	struct {
		int64_t at;
		json_object *a;
	} *v = xcalloc(n + 1, sizeof *v);

	for (size_t i = 0; i < n; i++) {
		json_object *a = prov_get_object(json_object_array_get_idx(list, i), "attributes");
		int64_t at = bs_when(a, "published_at");
		size_t j;

		if (a == NULL)
			continue;
		for (j = nv++; j > 0 && v[j - 1].at > at; j--)
			v[j] = v[j - 1];
		v[j].at = at;
		v[j].a = a;
	}
	for (size_t k = 0; k < nv; k++) {
		json_object *msg = prov_get(v[k].a, "message");

		prov_sp_update(out, v[k].at, NULL,
		    json_object_is_type(msg, json_type_string) ? json_object_get_string(msg) : NULL);
	}
	free(v);
	if ((dropped = prov_sp_updates_cap(out)) > 0)
		prov_page_warn(page,
		    BS " status report %s has %zu updates more than the newest %d; they were not imported",
		    rid, dropped, PROV_SP_MAX_UPDATES);
	return out;
}

/* Status report r (JSON:API entry) as a history entry of a page whose
 * resources' entries refs names. */
static json_object *
report_entry(json_object *r, const char *rid, json_object *refs, const char *spname, struct prov_page *page)
{
	struct prov_sp_incident in = { 0 };
	json_object *a = prov_get_object(r, "attributes"), *aff = prov_get_array(a, "affected_resources");
	const char *type = prov_get_text(a, "report_type", 32),
	           *state = prov_get_text(a, "aggregate_state", 32);
	size_t n = aff ? json_object_array_length(aff) : 0, missing = 0;
	char tb[40], id[64];
	json_object *at;

	in.kind = type != NULL && strcasecmp(type, "maintenance") == 0 ? "maintenance" : "incident";
	if (type != NULL && strcasecmp(type, "maintenance") != 0 && strcasecmp(type, "manual") != 0 &&
	    strcasecmp(type, "automatic") != 0) {
		prov_copy_text(tb, sizeof tb, type);
		prov_page_warn(page,
		    BS " status report %s has an unknown report_type %s; imported as an incident", rid, tb);
	}
	in.name = prov_get_text(a, "title", PROV_MAX_STR);
	for (size_t i = 0; state != NULL && report_states[i] != NULL && in.impact == NULL; i++)
		if (strcasecmp(state, report_states[i]) == 0)
			in.impact = report_states[i];
	if (state != NULL && in.impact == NULL) {
		prov_copy_text(tb, sizeof tb, state);
		prov_page_warn(page, BS " status report %s has an unknown aggregate_state %s; kept as other",
		    rid, tb);
		in.impact = "other";
	}
	in.starts_at = bs_when(a, "starts_at");
	in.ends_at = bs_when(a, "ends_at");
	in.scheduled_until = strcmp(in.kind, "maintenance") == 0 ? in.ends_at : -1;
	in.updates = report_updates(r, rid, page);
	in.components = json_object_new_array();
	for (size_t i = 0; i < n && i < PROV_MAX_ITEMS; i++) {
		json_object *e = json_object_array_get_idx(aff, i);

		if (prov_get_id(e, "status_page_resource_id", id, sizeof id) != 0)
			continue;
		if (json_object_object_get_ex(refs, id, &at))
			json_object_array_add(in.components, json_object_get(at));
		else
			missing++;
	}
	if (missing > 0)
		prov_page_warn(page,
		    BS
		    " status report %s names %zu resource(s) status page \"%s\" does not show; they were left "
		    "out of its components",
		    rid, missing, spname);
	return prov_sp_incident(&in);
}

/* The page's history from its status reports, newest first, or NULL when
 * none were read. */
static json_object *
sp_history(const struct bs_ctx *ctx, const char *spid, const char *spname, json_object *refs,
    struct prov_page *page)
{
	json_object *d, *reports, *out;
	char rid[64];

	if (ctx == NULL || ctx->sp == NULL || !json_object_object_get_ex(ctx->sp, spid, &d) ||
	    (reports = prov_get_array(d, "reports")) == NULL)
		return NULL;
	out = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(reports); i++) {
		json_object *r = json_object_array_get_idx(reports, i);

		if (prov_get_id(r, "id", rid, sizeof rid) == 0)
			json_object_array_add(out, report_entry(r, rid, refs, spname, page));
	}
	prov_sp_incidents_order(out); /* read at most PROV_SP_MAX_INCIDENTS: nothing is dropped */
	return out;
}

static void
add_status_page(const struct bs_ctx *ctx, json_object *item, json_object *a, const char *id,
    struct prov_page *page)
{
	struct prov_status_page sp = { 0 };
	const char *name = prov_get_text(a, "company_name", PROV_MAX_STR);
	const char *domain = prov_get_text(a, "custom_domain", 253);
	const char *sub = prov_get_text(a, "subdomain", 253);
	json_object *refs, *norm, *d, *reports;
	int64_t failed;
	char *url = NULL, why[96];

	sp.name = name ? name : sub ? sub : id;
	if (domain != NULL)
		url = xasprintf("https://%s", domain);
	else if (sub != NULL)
		url = xasprintf("https://%s.betteruptime.com", sub);
	sp.url = url;
	sp.timezone = zone_iana(prov_get_text(a, "timezone", 80), "status page", page);
	sp.public_ = !prov_get_bool(a, "password_enabled", false) && prov_get_bool(a, "published", true);
	refs = json_object_new_object();
	sp.items = sp_items(ctx, id, sp.name, refs, page);
	sp.incidents = sp_history(ctx, id, sp.name, refs, page);
	norm = prov_norm_status_page(&sp);
	if (ctx != NULL && ctx->sp != NULL && json_object_object_get_ex(ctx->sp, id, &d)) {
		if ((failed = prov_int_or(d, "history_failed", 0)) != 0) {
			if (failed > 0)
				snprintf(why, sizeof why, "its status reports could not be read (HTTP %lld)",
				    (long long)failed);
			else
				snprintf(why, sizeof why,
				    "its status reports could not be read (the answer was no list)");
			prov_unread(norm, why, sp_history_keys);
			prov_page_warn(page,
			    BS " status page \"%s\": %s; its incident history was not imported", sp.name,
			    why);
		}
		/* stored with the page as read, for the ledger (fields.h) */
		if ((reports = prov_get_array(d, "reports")) != NULL)
			json_object_object_add(item, "status_reports", json_object_get(reports));
	}
	prov_page_add(page, "status_page", id, json_object_get(item), norm);
	json_object_put(refs);
	free(url);
}

/* ---- contacts: on-call users and policy user members ---- */

/* One contact per channel an on-call user of the default calendar can be
 * alerted on by a monitor's flags: e-mail and push (the address names the
 * user), SMS and call (the first phone number). */
static void
contacts_oncall(const struct bs_ctx *ctx, json_object *done, struct prov_page *page)
{
	for (size_t i = 0; ctx->oncall != NULL && i < json_object_array_length(ctx->oncall); i++) {
		json_object *u = json_object_array_get_idx(ctx->oncall, i);
		const char *key = prov_get_str(u, "key", 64), *name = prov_get_str(u, "name", PROV_MAX_STR);
		const char *email = prov_get_str(u, "email", 254), *phone = prov_get_str(u, "phone", 64);

		if (email != NULL) {
			contact_add(page, key, "email", "email", name, email, u);
			contact_add(page, key, "push", "push", name, email, u);
		}
		if (phone != NULL) {
			contact_add(page, key, "sms", "sms", name, phone, u);
			contact_add(page, key, "voice", "voice", name, phone, u);
		}
		json_object_object_add(done, key, json_object_new_boolean(1));
	}
}

/* The e-mail contact of each user of users not done yet: the people a
 * policy's current_on_call and entire_team members and team_wait alert. */
static void
contacts_email(json_object *users, json_object *done, struct prov_page *page)
{
	for (size_t i = 0; users != NULL && i < json_object_array_length(users); i++) {
		json_object *u = json_object_array_get_idx(users, i);
		const char *key = prov_get_str(u, "key", 64), *email = prov_get_str(u, "email", 254);

		if (email == NULL || json_object_object_get_ex(done, key, NULL))
			continue;
		contact_add(page, key, "email", "email", prov_get_str(u, "name", PROV_MAX_STR), email, u);
		json_object_object_add(done, key, json_object_new_boolean(1));
	}
}

/* The e-mail contact of every policy "user" member not done yet (without an
 * address when the member names only an id). */
static void
contacts_policies(const struct bs_ctx *ctx, json_object *done, struct prov_page *page)
{
	char key[160];

	if (ctx->policies == NULL)
		return;
	json_object_object_foreach (ctx->policies, pid, pol) {
		json_object *steps = prov_get_array(pol, "steps");

		(void)pid;
		for (size_t i = 0; steps != NULL && i < json_object_array_length(steps); i++) {
			json_object *mem =
			    prov_get_array(json_object_array_get_idx(steps, i), "step_members");

			for (size_t k = 0; mem != NULL && k < json_object_array_length(mem); k++) {
				json_object *m = json_object_array_get_idx(mem, k);
				const char *type = prov_get_str(m, "type", 64);
				const char *email = prov_get_text(m, "email", 254);
				char *label;

				if (type == NULL || strcmp(type, "user") != 0 ||
				    member_key(ctx, m, key, sizeof key) != MEMBER_KEY ||
				    json_object_object_get_ex(done, key, NULL))
					continue;
				label = email ? xstrdup(email) : xasprintf("Better Stack user %s", key);
				contact_add(page, key, "email", "email", label, email, m);
				json_object_object_add(done, key, json_object_new_boolean(1));
				free(label);
			}
		}
	}
}

static enum prov_status
step_contacts(struct prov_session *s, const char *auth, struct prov_page *page, struct prov_error *err)
{
	struct bs_ctx ctx = { 0 };
	json_object *done = json_object_new_object();
	enum prov_status st = ctx_load_oncall(s, auth, &ctx, err);

	if (st == PROV_OK)
		st = ctx_load_team(s, auth, &ctx, err);
	if (st == PROV_OK)
		st = ctx_load_policies(s, auth, &ctx, err);
	if (st == PROV_OK) {
		if (ctx.oncall == NULL)
			prov_skip_kind(page, BS, "on-call calendars", ctx.oncall_refused);
		if (ctx.team == NULL)
			prov_skip_kind(page, BS, "team members", ctx.team_refused);
		if (ctx.policies == NULL)
			prov_skip_kind(page, BS, "escalation policies", ctx.policies_refused);
		contacts_oncall(&ctx, done, page);
		if (ctx.calendars != NULL) {
			json_object_object_foreach (ctx.calendars, cid, users) {
				(void)cid;
				contacts_email(users, done, page);
			}
		}
		contacts_email(ctx.team, done, page);
		contacts_policies(&ctx, done, page);
		page->next_cursor = prov_cursor_make(phases[PH_STATUS_PAGES], 1);
	}
	json_object_put(done);
	ctx_free(&ctx);
	return st;
}

/* ---- the list steps ---- */

static char *
next_phase(size_t ph)
{
	if (phases[ph + 1] == NULL)
		return NULL;
	return prov_cursor_make(phases[ph + 1], ph + 1 == PH_CONTACTS ? 0 : 1);
}

/* The answer to a step's list request: PROV_OK with *root, or with *root NULL
 * when a later list was refused (the page then holds the warning and the next
 * phase's cursor), or an error. Only the monitors list is the bad-key test. */
static enum prov_status
list_answer(size_t ph, const struct httpc_resp *resp, json_object **root, struct prov_page *page,
    struct prov_error *err)
{
	enum prov_status st;

	*root = NULL;
	if (ph != PH_MONITORS && (resp->status == 401 || resp->status == 403)) {
		prov_skip_kind(page, BS, kind_names[ph], resp->status);
		page->next_cursor = next_phase(ph);
		return PROV_OK;
	}
	if ((st = httpc_classify(resp, BS, "API token", err)) != PROV_OK) {
		if (st == PROV_AUTH)
			prov_fail(err, PROV_AUTH,
			    BS " rejected the API token (HTTP %ld); use a Team API "
			       "token, or give team_name with a global token",
			    resp->status);
		return st;
	}
	if ((*root = prov_parse_json(resp, BS, err)) == NULL)
		return err->status;
	if (prov_get_array(*root, "data") == NULL) {
		json_object_put(*root);
		*root = NULL;
		return prov_fail(err, PROV_TRANSIENT, BS " sent an answer without a \"data\" list");
	}
	return PROV_OK;
}

/* The items of a list page and the cursor after it. */
static void
build_page(const struct bs_ctx *ctx, size_t ph, int64_t pg, json_object *root, struct prov_page *page)
{
	json_object *list = prov_get_array(root, "data");
	size_t n = json_object_array_length(list);
	char id[160];

	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, BS " sent %zu entries in one page; only the first %d were kept", n,
		    PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);
		json_object *a = prov_get_object(it, "attributes");

		if (a == NULL || prov_get_id(it, "id", id, sizeof id) != 0)
			prov_page_warn(page, BS " sent an entry of %s without id or attributes; skipped",
			    kind_names[ph]);
		else if (ph == PH_MONITORS)
			add_monitor(ctx, it, a, id, page);
		else if (ph == PH_HEARTBEATS)
			add_heartbeat(ctx, it, a, id, page);
		else
			add_status_page(ctx, it, a, id, page);
	}
	if (n > 0 && has_next(root)) {
		page->next_cursor = prov_cursor_make(phases[ph], pg + 1);
		return;
	}
	page->next_cursor = next_phase(ph);
}

enum prov_status
better_stack_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	json_object *root;
	size_t ph;
	int64_t pg;
	enum prov_status st;

	if (prov_cursor_parse(cursor, phases, 1, &ph, &pg) != 0 || ph == PH_CONTACTS || pg < 1)
		return prov_bad_checkpoint(err, BS);
	if ((st = list_answer(ph, resp, &root, page, err)) != PROV_OK || root == NULL)
		return st;
	build_page(NULL, ph, pg, root, page);
	json_object_put(root);
	return PROV_OK;
}

/* Which context a monitors or heartbeats page needs: the on-call calendars
 * for items without a policy that set a flag; the team's members for items
 * without a policy that wait team_wait; everything for items with a policy
 * (its members name calendars, the team, users by e-mail). */
static void
ctx_needs(json_object *list, bool *oncall, bool *team, bool *policies)
{
	char pid[64];

	*oncall = *team = *policies = false;
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *a = prov_get_object(json_object_array_get_idx(list, i), "attributes");

		if (prov_get_id(a, "policy_id", pid, sizeof pid) == 0)
			*policies = *oncall = *team = true;
		*team |= prov_get(a, "team_wait") != NULL;
		for (size_t f = 0; f < sizeof alert_flags / sizeof alert_flags[0]; f++)
			*oncall |= prov_get_bool(a, alert_flags[f].flag, false);
	}
}

/* All pages of /api/v2/status-pages/{id}/{which} appended to out. */
static enum prov_status
sp_load_list(struct prov_session *s, const char *auth, const char *enc_id, const char *which,
    json_object *out, long *refused, struct prov_error *err)
{
	char *path = xasprintf("/api/v2/status-pages/%s/%s", enc_id, which);
	enum prov_status st = PROV_OK;
	bool more = true;

	for (int64_t pg = 1; more && st == PROV_OK && pg <= BS_CTX_PAGES; pg++) {
		json_object *root, *list;

		if ((st = ctx_get(s, auth, path, pg, &root, refused, err)) != PROV_OK || root == NULL)
			break;
		list = prov_get_array(root, "data");
		for (size_t i = 0; i < json_object_array_length(list); i++)
			json_object_array_add(out, json_object_get(json_object_array_get_idx(list, i)));
		more = has_next(root);
		json_object_put(root);
	}
	free(path);
	return st;
}

/* GET one page of a status page's history list (path) into *root (its
 * "data" an array). PROV_OK, with *root NULL and *failed set when it could
 * not be read (the HTTP status, or -1 for an answer that is no list); a rate
 * limit or a failed request is an error status. */
static enum prov_status
history_get(struct prov_session *s, const char *auth, const char *path, int64_t pg, json_object **root,
    long *failed, struct prov_error *err)
{
	struct httpc_req req = { 0 };
	struct httpc_resp resp = { 0 };
	const char *headers[2] = { auth, NULL };
	enum prov_status st;

	*root = NULL;
	*failed = 0;
	req.url = list_url(s, path, pg, BS_PER_PAGE);
	req.headers = headers;
	st = prov_http(s, &req, &resp, err);
	if (st == PROV_OK && (st = httpc_classify(&resp, BS, "API token", err)) == PROV_OK) {
		if ((*root = prov_parse_json(&resp, BS, err)) == NULL ||
		    prov_get_array(*root, "data") == NULL) {
			json_object_put(*root);
			*root = NULL;
			*failed = -1;
		}
	} else if (st != PROV_RATE_LIMITED && resp.status != 0) {
		*failed = resp.status;
		st = PROV_OK;
	}
	if (*failed != 0)
		memset(err, 0, sizeof *err);
	httpc_resp_free(&resp);
	free((char *)req.url);
	return st;
}

/* All pages of history list path (at most BS_CTX_PAGES) appended to out. */
static enum prov_status
history_load(struct prov_session *s, const char *auth, const char *path, json_object *out, long *failed,
    struct prov_error *err)
{
	enum prov_status st = PROV_OK;
	bool more = true;

	for (int64_t pg = 1; more && st == PROV_OK && *failed == 0 && pg <= BS_CTX_PAGES; pg++) {
		json_object *root, *list;

		if ((st = history_get(s, auth, path, pg, &root, failed, err)) != PROV_OK || root == NULL)
			break;
		list = prov_get_array(root, "data");
		for (size_t i = 0; i < json_object_array_length(list) && i < PROV_MAX_ITEMS; i++)
			json_object_array_add(out, json_object_get(json_object_array_get_idx(list, i)));
		more = has_next(root);
		json_object_put(root);
	}
	return st;
}

/* Newest first by attributes.starts_at (unix seconds, -1 last). */
static int
report_cmp(const void *x, const void *y)
{
	int64_t a = bs_when(prov_get_object(*(json_object *const *)x, "attributes"), "starts_at");
	int64_t b = bs_when(prov_get_object(*(json_object *const *)y, "attributes"), "starts_at");

	return a < b ? 1 : a > b ? -1 : 0;
}

/* The status reports of page enc_id (URL-encoded) into d's "reports": the
 * newest PROV_SP_MAX_INCIDENTS, each with its updates read into its
 * "status_updates"; "history_failed" when a list could not be read. */
static enum prov_status
sp_load_history(struct prov_session *s, const char *auth, const char *enc_id, const char *spid,
    json_object *d, struct prov_page *page, struct prov_error *err)
{
	char *path = xasprintf("/api/v2/status-pages/%s/status-reports", enc_id);
	json_object *all = json_object_new_array(), *kept = json_object_new_array();
	size_t n;
	long failed = 0;
	enum prov_status st = history_load(s, auth, path, all, &failed, err);
	char rid[64];

	free(path);
	n = json_object_array_length(all);
	if (n > 1)
		json_object_array_sort(all, report_cmp);
	if (n > PROV_SP_MAX_INCIDENTS)
		prov_page_warn(page,
		    BS " status page %s has %zu status reports; only the newest %d were imported", spid, n,
		    PROV_SP_MAX_INCIDENTS);
	for (size_t i = 0; st == PROV_OK && failed == 0 && i < n && i < PROV_SP_MAX_INCIDENTS; i++) {
		json_object *r = json_object_array_get_idx(all, i), *ups;
		char *enc_r = NULL;

		if (!json_object_is_type(r, json_type_object) || prov_get_id(r, "id", rid, sizeof rid) != 0)
			continue;
		ups = json_object_new_array();
		httpc_urlencode_append(&enc_r, rid);
		path = xasprintf("/api/v2/status-pages/%s/status-reports/%s/status-updates", enc_id, enc_r);
		st = history_load(s, auth, path, ups, &failed, err);
		json_object_object_add(r, "status_updates", ups);
		json_object_array_add(kept, json_object_get(r));
		free(path);
		free(enc_r);
	}
	json_object_object_add(d, "reports", kept);
	if (failed != 0)
		jx_add_int(d, "history_failed", failed);
	json_object_put(all);
	return st;
}

/* The sections and resources of every status page of this list page. */
static enum prov_status
ctx_load_sp(struct prov_session *s, const char *auth, json_object *list, struct bs_ctx *ctx,
    struct prov_page *page, struct prov_error *err)
{
	enum prov_status st = PROV_OK;
	char id[160];

	ctx->sp = json_object_new_object();
	for (size_t i = 0; st == PROV_OK && i < json_object_array_length(list); i++) {
		json_object *d, *sec, *res;
		long refused = 0;
		char *enc = NULL;

		if (prov_get_id(json_object_array_get_idx(list, i), "id", id, sizeof id) != 0)
			continue;
		d = json_object_new_object();
		sec = json_object_new_array();
		res = json_object_new_array();
		httpc_urlencode_append(&enc, id);
		st = sp_load_list(s, auth, enc, "sections", sec, &refused, err);
		if (st == PROV_OK && refused == 0)
			st = sp_load_list(s, auth, enc, "resources", res, &refused, err);
		json_object_object_add(d, "sections", sec);
		json_object_object_add(d, "resources", res);
		if (refused != 0)
			jx_add_int(d, "refused", refused);
		if (st == PROV_OK)
			st = sp_load_history(s, auth, enc, id, d, page, err);
		json_object_object_add(ctx->sp, id, d);
		free(enc);
	}
	return st;
}

static enum prov_status
step_list(struct prov_session *s, const char *auth, size_t ph, int64_t pg, const struct httpc_resp *resp,
    struct prov_page *page, struct prov_error *err)
{
	struct bs_ctx ctx = { 0 };
	json_object *root, *list;
	bool oncall, team, policies;
	enum prov_status st = list_answer(ph, resp, &root, page, err);

	if (st != PROV_OK || root == NULL)
		return st;
	list = prov_get_array(root, "data");
	if (ph == PH_STATUS_PAGES)
		st = ctx_load_sp(s, auth, list, &ctx, page, err);
	else {
		ctx_needs(list, &oncall, &team, &policies);
		if (oncall)
			st = ctx_load_oncall(s, auth, &ctx, err);
		if (st == PROV_OK && team)
			st = ctx_load_team(s, auth, &ctx, err);
		if (st == PROV_OK && policies)
			st = ctx_load_policies(s, auth, &ctx, err);
	}
	if (st == PROV_OK)
		build_page(&ctx, ph, pg, root, page);
	ctx_free(&ctx);
	json_object_put(root);
	return st;
}

static enum prov_status
better_stack_fetch(struct prov_session *s, const char *cursor, struct prov_page *page, struct prov_error *err)
{
	static const char *const paths[] = { "/api/v2/monitors", "/api/v2/heartbeats", NULL,
		"/api/v2/status-pages" };
	const char *token = prov_cred(s, "api_token");
	struct httpc_req req = { 0 };
	struct httpc_resp resp = { 0 };
	const char *headers[2] = { NULL, NULL };
	char *auth;
	size_t ph;
	int64_t pg;
	enum prov_status st;

	if (prov_cursor_parse(cursor, phases, 1, &ph, &pg) != 0 || (ph != PH_CONTACTS && pg < 1))
		return prov_bad_checkpoint(err, BS);
	if (token == NULL)
		return prov_no_cred(err, BS, "api_token");
	auth = xasprintf("Authorization: Bearer %s", token);
	if (ph == PH_CONTACTS) {
		st = step_contacts(s, auth, page, err);
		st = prov_finish(s, st, page, err);
	} else {
		headers[0] = auth;
		req.url = list_url(s, paths[ph], pg, ph == PH_STATUS_PAGES ? BS_SP_PER_PAGE : BS_PER_PAGE);
		req.headers = headers;
		st = prov_http(s, &req, &resp, err);
		if (st == PROV_OK)
			st = step_list(s, auth, ph, pg, &resp, page, err);
		st = prov_finish(s, st, page, err);
		httpc_resp_free(&resp);
		free((char *)req.url);
	}
	sodium_memzero(auth, strlen(auth));
	free(auth);
	return st;
}

const struct provider_ops better_stack_ops = { better_stack_fetch };

/* The fate of each field (providers/fields.h), of the objects as stored:
 * the list entries of monitors, heartbeats and status pages whole (id, type,
 * attributes), a window's four maintenance_* members, and a contact's on-call
 * user or team member ({key,name,email,phone}, built above) or policy step
 * member. Fields: providers.md §4.2, betterstack.com/docs/uptime/api/
 * create-a-new-monitor/ and the Terraform provider's monitor, heartbeat and
 * statusPage structs. */
/* clang-format off */
#define BS_ALERTS(table) \
	{ "attributes.email", "`" table "`", "e-mail to the on-call users of the default calendar (without a policy)" }, \
	{ "attributes.sms", "`" table "`", "an SMS to the on-call users' first phone number (without a policy)" }, \
	{ "attributes.call", "`" table "`", "a call to the on-call users' first phone number (without a policy)" }, \
	{ "attributes.push", "`" table "`", "a push notification to the on-call users (without a policy)" }, \
	{ "attributes.critical_alert", "`" table "`", "linked as a push notification: breaking through Do Not Disturb is not carried" }, \
	{ "attributes.policy_id", "`" table "`, `" table ".delay_s`", "the escalation policy: the e-mail contact of each step member (a `user`; the current on-call users of a `current_on_call` calendar, the default one without an id; every team member for `entire_team`), `delay_s` the sum of the `wait_before` of its step and the steps before; integrations are not linked, with a warning" }, \
	{ "attributes.team_wait", "`" table "`, `" table ".delay_s`", "without a policy: the e-mail contact of every team member (`GET /api/v2/team-members`), alerted after this many seconds unless already alerted at once" }
#define BS_WINDOW \
	{ "attributes.maintenance_from", "`maintenance_windows`", "a maintenance window of its own (below)" }, \
	{ "attributes.maintenance_to", "`maintenance_windows`", "a maintenance window of its own (below)" }, \
	{ "attributes.maintenance_timezone", "`maintenance_windows`", "a maintenance window of its own (below)" }, \
	{ "attributes.maintenance_days", "`maintenance_windows`", "a maintenance window of its own (below)" }
static const struct prov_field monitor_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "type", "`monitors`", "the kind of object (`monitor`)" },
	{ "attributes.pronounceable_name", "`monitors.name`", "else `url`, else the id", PROV_TEXT(monitor, name, PROV_MAX_STR) },
	{ "attributes.url", "`monitors.url`, `monitors.dns_nameserver`", "the full URL for HTTP types, the host for server and port types; for `dns` the DNS server asked: `dns_nameserver`", PROV_TEXT(monitor, url, PROV_MAX_STR) },
	{ "attributes.monitor_type", "`monitors.type`, `monitors.keyword_up_when`", "see the types below; `playwright` and unknown types arrive as `other`, with a warning" },
	{ "attributes.required_keyword", "`monitors.keyword`", "keyword types, and `udp` (the expected answer); other types leave it out" },
	{ "attributes.expected_status_codes", "`monitors.expected_status_codes`", "numbers or strings" },
	{ "attributes.check_frequency", "`monitors.interval_s`", "seconds; absent: 180" },
	{ "attributes.paused", "`monitors.paused`", NULL },
	{ "attributes.paused_at", "`monitors.paused`", "set: paused" },
	{ "attributes.status", "`monitors.paused`", "`paused` pauses it; the other states are not settings" },
	{ "attributes.port", "`monitors.port`", "a number, or ports joined by commas (`\"25,465,587\"`): the first one, with a warning when there are more" },
	{ "attributes.http_method", "`monitors.http_method`", "upper-cased; an unknown one is left empty, with a warning" },
	{ "attributes.request_body", "`monitors.request_body`, `monitors.url`", "`\"\"`: NULL; for `dns` the domain to query: `url` (Better Stack publishes no record type or expected answer, so `dns_record_type` and `dns_expected` stay NULL)" },
	{ "attributes.request_headers", "`monitors.request_headers`", "`[{name, value}]` as `{name: value}`" },
	{ "attributes.request_timeout", "`monitors.timeout_s`", "seconds; milliseconds for server and port types, rounded up to seconds" },
	{ "attributes.follow_redirects", "`monitors.follow_redirects`", NULL },
	{ "attributes.verify_ssl", "`monitors.verify_ssl`", NULL },
	{ "attributes.ssl_expiration", "`monitors.ssl_expiry_days`", NULL, PROV_INT(monitor, ssl_expiry_days) },
	{ "attributes.regions", "`monitors.regions`", "`us`, `eu`, `as`, `au`", PROV_CSV(monitor, regions) },
	BS_ALERTS("monitor_contacts"),
	BS_WINDOW,
	{ "attributes.auth_username", "`monitors.auth_username`", "the login to the target (basic auth)", PROV_TEXT(monitor, auth_username, 255) },
	{ "attributes.auth_password", "`monitors.auth_password_sealed`", "sealed by discovery, never shown; the stored copy holds `[redacted]`; longer than 1000 bytes: not imported, with a warning" },
	{ "attributes.confirmation_period", "`monitors.alert_after_s`", "seconds a failure must last before an incident starts; 0: NULL" },
	{ "attributes.recovery_period", "`monitors.recovery_s`", "seconds the monitor must be up again before the incident ends; 0: NULL" },
	{ "attributes.domain_expiration", NULL, "The alert before the domain expires has no place in the account." },
	{ "attributes.expiration_policy_id", NULL, "Who hears of certificate and domain expiry is not carried." },
	{ "attributes.remember_cookies", NULL, "Keeping cookies across redirects has no place in the account." },
	{ "attributes.ip_version", NULL, "Checking over IPv4 or IPv6 only has no place in the account." },
	{ "attributes.playwright_script", NULL, "A Playwright scenario has no equivalent here: the monitor arrives as `other` without it." },
	{ "attributes.scenario_name", NULL, "A Playwright scenario has no equivalent here: the monitor arrives as `other` without it." },
	{ "attributes.monitor_group_id", NULL, "Monitor groups are not imported." },
	{ "attributes.team_name", NULL, "The Better Stack team it belongs to; the account has no teams." },
	{ "attributes.last_checked_at", NULL, "State at Better Stack, not a setting." },
	{ "attributes.created_at", NULL, "State at Better Stack, not a setting." },
	{ "attributes.updated_at", NULL, "State at Better Stack, not a setting." },
	{ NULL, NULL, NULL }
};
static const struct prov_field heartbeat_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "type", "`heartbeats`", "the kind of object (`heartbeat`)" },
	{ "attributes.name", "`heartbeats.name`", "else the id", PROV_TEXT(heartbeat, name, PROV_MAX_STR) },
	{ "attributes.url", "`heartbeats.ping_url`", "`https://uptime.betterstack.com/api/v1/heartbeat/<token>`", PROV_TEXT(heartbeat, ping_url, PROV_MAX_STR) },
	{ "attributes.period", "`heartbeats.interval_s`", "seconds; no cron schedule, so `schedule` and `timezone` stay NULL", PROV_INT(heartbeat, interval) },
	{ "attributes.grace", "`heartbeats.grace_s`", NULL, PROV_INT(heartbeat, grace) },
	{ "attributes.paused", "`heartbeats.paused`", NULL },
	{ "attributes.paused_at", "`heartbeats.paused`", "set: paused" },
	{ "attributes.status", "`heartbeats.paused`", "`paused` pauses it; the other states are not settings" },
	BS_ALERTS("heartbeat_contacts"),
	BS_WINDOW,
	{ "attributes.heartbeat_group_id", NULL, "Heartbeat groups are not imported." },
	{ "attributes.sort_index", NULL, "Its place in Better Stack's list is not kept." },
	{ "attributes.team_name", NULL, "The Better Stack team it belongs to; the account has no teams." },
	{ "attributes.created_at", NULL, "State at Better Stack, not a setting." },
	{ "attributes.updated_at", NULL, "State at Better Stack, not a setting." },
	{ NULL, NULL, NULL }
};
static const struct prov_field window_fields[] = {
	{ "maintenance_from", "`maintenance_windows.starts`", "`HH:MM:SS` as `HH:MM`; with only one of from and to, the window is skipped with a warning" },
	{ "maintenance_to", "`maintenance_windows.duration_min`", "minutes after the start; an overnight window wraps past midnight, equal times are 24 h" },
	{ "maintenance_timezone", "`maintenance_windows.timezone`", "a Rails name (`Amsterdam`) as its IANA name (`Europe/Amsterdam`), an IANA name kept; absent: UTC; unknown: NULL, with a warning" },
	{ "maintenance_days", "`maintenance_windows.recurrence`, `maintenance_windows.days`", "`mon` … `sun`: `weekly` on those days (1 = Monday); none or all seven: `daily`; an unknown day is left out, with a warning" },
	{ NULL, NULL, NULL }
};
static const struct prov_field contact_fields[] = {
	{ "key", "`import_links`", "an on-call user's or team member's id: external ids `user:<key>:email`, `:sms`, `:voice`, `:push`" },
	{ "name", "`contacts.name`", "an on-call user's or team member's first and last name (else the e-mail, else the id), with ` (SMS)`, ` (call)`, ` (push)` after it" },
	{ "email", "`contacts.value`", "the address of the e-mail and push contacts; of a policy member, also its name" },
	{ "phone", "`contacts.value`", "an on-call user's first phone number: the SMS and call contacts" },
	{ "type", "`contacts.type`", "a policy step member's kind: only `user` members become contacts (`email`)" },
	{ "id", "`import_links`", "a policy member's user id (`user:<id>:email`); without an e-mail it becomes `Better Stack user <id>`, `needs_address` 1" },
	{ NULL, NULL, NULL }
};
static const struct prov_field status_page_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "type", "`status_pages`", "the kind of object (`status_page`)" },
	{ "attributes.company_name", "`status_pages.name`", "else `subdomain`, else the id" },
	{ "attributes.custom_domain", "`status_pages.url`", "`https://<custom_domain>`" },
	{ "attributes.subdomain", "`status_pages.url`", "`https://<subdomain>.betteruptime.com` without a custom domain" },
	{ "attributes.timezone", "`status_pages.timezone`", "a Rails name as its IANA name, as for maintenance windows" },
	{ "attributes.password_enabled", "`status_pages.public`", "a page behind a password is not public" },
	{ "attributes.published", "`status_pages.public`", "an unpublished page is not public (absent: published)" },
	{ "attributes.password", NULL, "The page's password is not imported (the API does not show it)." },
	{ "attributes.company_url", NULL, "The link to the company's site has no place in the account." },
	{ "attributes.contact_url", NULL, "The contact link has no place in the account." },
	{ "attributes.logo_url", NULL, "The logo is not imported." },
	{ "attributes.custom_css", NULL, "The page's own style sheet is not imported." },
	{ "attributes.custom_javascript", NULL, "The page's own script is not imported." },
	{ "attributes.google_analytics_id", NULL, "Google Analytics on the page is not carried." },
	{ "attributes.announcement", NULL, "The announcement on the page is not imported." },
	{ "attributes.announcement_embed_visible", NULL, "The announcement on the page is not imported." },
	{ "attributes.announcement_embed_link", NULL, "The announcement on the page is not imported." },
	{ "attributes.announcement_embed_custom_css", NULL, "The announcement on the page is not imported." },
	{ "attributes.subscribable", NULL, "Subscribing to updates is not carried." },
	{ "attributes.hide_from_search_engines", NULL, "Hiding the page from search engines has no place in the account." },
	{ "attributes.min_incident_length", NULL, "The shortest incident the page shows has no place in the account." },
	{ "attributes.history", NULL, "How many days of history the page shows has no place in the account." },
	{ "attributes.design", NULL, "Better Stack's look of the page; the account's pages have their own." },
	{ "attributes.theme", NULL, "Better Stack's look of the page; the account's pages have their own." },
	{ "attributes.layout", NULL, "Better Stack's look of the page; the account's pages have their own." },
	{ "attributes.status_page_group_id", NULL, "Status page groups are not imported." },
	{ "attributes.team_name", NULL, "The Better Stack team it belongs to; the account has no teams." },
	{ "attributes.aggregate_state", NULL, "State at Better Stack, not a setting." },
	{ "attributes.created_at", NULL, "State at Better Stack, not a setting." },
	{ "attributes.updated_at", NULL, "State at Better Stack, not a setting." },
	{ "status_reports[].id", "`status_page_incidents`", "one entry each, newest first by its start, the newest 50; the id itself is not kept" },
	{ "status_reports[].attributes.title", "`status_page_incidents.name`", "else `(untitled)`" },
	{ "status_reports[].attributes.report_type", "`status_page_incidents.kind`", "`maintenance`: a maintenance; `manual` and `automatic`: an incident (unknown: an incident, with a warning); `status` stays NULL: Better Stack has no status word" },
	{ "status_reports[].attributes.starts_at", "`status_page_incidents.starts_at`", NULL },
	{ "status_reports[].attributes.ends_at", "`status_page_incidents.ends_at`, `status_page_incidents.scheduled_until`", "a maintenance's also its planned end" },
	{ "status_reports[].attributes.aggregate_state", "`status_page_incidents.impact`", "lower-cased: `operational`, `degraded`, `downtime`, `maintenance`; unknown: `other`, with a warning" },
	{ "status_reports[].attributes.affected_resources", "`status_page_incidents.components`", "each resource by its entry's position on the page; one the page does not show is left out, with a warning (their states are not carried)" },
	{ "status_reports[].attributes.status_page_id", NULL, "The page's own id again: nothing is lost." },
	{ "status_reports[].type", NULL, "The kind of object (`status_report`): nothing is lost." },
	{ "status_reports[].relationships", NULL, "The ids of its status updates, which are read with it (`status_updates`)." },
	{ "status_reports[].status_updates[].attributes.message", "`status_page_incidents.updates`", "`body`, at most 4000 characters (cut on a character boundary); the newest 50 updates, oldest first (`status` NULL)" },
	{ "status_reports[].status_updates[].attributes.published_at", "`status_page_incidents.updates`", "`at` (UTC), by which the updates are ordered" },
	{ "status_reports[].status_updates[].attributes.affected_resources", NULL, "Which resources an update changed, and to which state, is not carried: the report's own resources are." },
	{ "status_reports[].status_updates[].attributes.notify_subscribers", NULL, "Whether subscribers were told of the update is not carried." },
	{ "status_reports[].status_updates[].attributes.status_report_id", NULL, "The report's own id again: nothing is lost." },
	{ "status_reports[].status_updates[].id", NULL, "An update's own id is not kept." },
	{ "status_reports[].status_updates[].type", NULL, "The kind of object (`status_update`): nothing is lost." },
	{ NULL, NULL, NULL }
};
/* clang-format on */

const struct prov_fields better_stack_fields[] = {
	{ "monitor", "monitor (`GET /api/v2/monitors`, an entry of `data[]`)", monitor_fields },
	{ "heartbeat", "heartbeat (`GET /api/v2/heartbeats`, an entry of `data[]`)", heartbeat_fields },
	{ "maintenance_window", "a monitor's or heartbeat's `maintenance_*` attributes", window_fields },
	{ "contact",
	    "an on-call user (`GET /api/v2/on-calls`), a team member (`GET /api/v2/team-members`) or a policy step member (`GET /api/v3/policies`)",
	    contact_fields },
	{ "status_page",
	    "status page (`GET /api/v2/status-pages`, an entry of `data[]`) with its `status_reports` (`GET "
	    "/api/v2/status-pages/{id}/status-reports`), each with its `status_updates` (`GET "
	    "/api/v2/status-pages/{id}/status-reports/{report_id}/status-updates`)",
	    status_page_fields },
	{ NULL, NULL, NULL },
};
