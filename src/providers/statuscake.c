/* StatusCake, API v1 (providers.md §3, §12; docs/providers/statuscake.md).
 *
 * GET with "Authorization: Bearer <api_token>"; lists paged by page (from 1)
 * and limit, until metadata.page_count. Phases: uptime checks (each with its
 * GET /uptime/{id}), heartbeats, SSL checks, contact groups, maintenance
 * windows. Alert links name every contact made from a group, so the phases
 * that link read the contact groups too (once per fetch).
 * Cursor "<phase>:<offset>": the index of the next entry of the phase's list,
 * so a fetch that the rate limit cut short resumes at the entry it did not
 * finish. */
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

#define SC                "StatusCake"
#define SC_LIMIT          100 /* list page size, the API's maximum */
#define SC_DETAIL_LIMIT   25  /* pages whose entries each need one more call */
#define SC_GROUP_PAGES    10  /* contact group pages read to resolve alert links */
#define SC_TAG_PAGES      5   /* pages of checks read per maintenance window tag query */
#define SC_CONSTANT_RATE  30  /* check_rate 0 ("constant"): the smallest listed rate */
#define SC_SSL_ALERT_DAYS 7   /* enable_ssl_alert states no day count; SSL checks' smallest default */
#define SC_MAX_HEADERS    50
#define SC_MAX_CONFIRM    1000      /* confirmation servers: far above any StatusCake offers */
#define SC_MAX_TIME_S     100000000 /* seconds of alert timing: the most the account keeps (importer.c) */
#define SC_WHY            sizeof(((struct prov_error *)0)->message) /* why an extra call failed */

enum { PH_UPTIME, PH_HEARTBEAT, PH_SSL, PH_GROUPS, PH_WINDOWS };
static const char *const phases[] = { "uptime", "heartbeat", "ssl", "contact-groups", "maintenance-windows",
	NULL };
static const char *const kinds[] = { "uptime checks", "heartbeats", "SSL checks", "contact groups",
	"maintenance windows" };

/* What one extra call (detail, groups, tag query) gave. */
enum sc_res { SCR_GOT, SCR_FAIL, SCR_LIMIT };

/* One fetch's extra calls. NULL in the pure parse: no calls, alert links name
 * the groups' ids (the first address of each). */
struct sc_ctx {
	struct prov_session *s;
	const char *auth;    /* "Authorization: Bearer ..." */
	json_object *groups; /* group id -> group, once read; NULL: unread or unreadable */
	bool groups_tried;
	struct prov_error limit; /* why the last SCR_LIMIT (PROV_RATE_LIMITED) */
};

/* clang-format off */
static const struct prov_map test_types[] = {
	{ "HTTP", "http" }, { "HEAD", "http" }, { "DNS", "dns" }, { "PING", "ping" },
	{ "SMTP", "smtp" }, { "SSH", "ssh" }, { "TCP", "tcp" }, { NULL, NULL }
};
/* clang-format on */

/* ---- extra calls ---- */

/* GET url (owned) for c. SCR_GOT with *out the parsed body; SCR_LIMIT when
 * the rate limit stops it (429/420, or the request held back while the
 * session waits), with c->limit; SCR_FAIL with why ("HTTP 404", a transport
 * error) otherwise. */
static enum sc_res
sc_get(struct sc_ctx *c, char *url, json_object **out, char *why, size_t whysize)
{
	struct httpc_req req = { 0 };
	struct httpc_resp resp = { 0 };
	struct prov_error e = { 0 };
	const char *headers[2] = { c->auth, NULL };
	enum prov_status st;
	enum sc_res r = SCR_FAIL;

	*out = NULL;
	req.url = url;
	req.headers = headers;
	st = prov_http(c->s, &req, &resp, &e);
	if (st == PROV_RATE_LIMITED) {
		c->limit = e;
		r = SCR_LIMIT;
	} else if (st != PROV_OK)
		utf8_copy(why, whysize, e.message);
	else if (resp.status == 429 || resp.status == 420) {
		httpc_classify(&resp, SC, "API token", &c->limit);
		r = SCR_LIMIT;
	} else if (resp.status < 200 || resp.status > 299)
		snprintf(why, whysize, "HTTP %ld", resp.status);
	else if ((*out = prov_parse_json(&resp, SC, &e)) == NULL)
		utf8_copy(why, whysize, e.message);
	else
		r = SCR_GOT;
	httpc_resp_free(&resp);
	free(url);
	return r;
}

/* The "data" member of a list answer, and whether more pages follow page. */
static json_object *
sc_list_data(json_object *root, int64_t page, size_t limit, bool *more)
{
	json_object *list = prov_get_array(root, "data");
	int64_t count = -1;
	size_t n = list ? json_object_array_length(list) : 0;

	prov_get_int(prov_get_object(root, "metadata"), "page_count", &count);
	*more = n > 0 && (count >= 0 ? page < count : n >= limit);
	return list;
}

/* Read every contact group into c->groups (at most SC_GROUP_PAGES pages). */
static enum sc_res
sc_groups_load(struct sc_ctx *c, struct prov_page *page)
{
	char why[SC_WHY];
	bool more = true;

	c->groups = json_object_new_object();
	for (int64_t pg = 1; more && pg <= SC_GROUP_PAGES; pg++) {
		json_object *root, *list;
		enum sc_res r = sc_get(c,
		    prov_url(c->s, "/v1/contact-groups?page=%lld&limit=%d", (long long)pg, SC_LIMIT), &root,
		    why, sizeof why);
		char id[160];

		if (r == SCR_LIMIT) {
			json_object_put(c->groups);
			c->groups = NULL;
			return r;
		}
		c->groups_tried = true;
		if (r == SCR_FAIL) {
			prov_page_warn(page,
			    SC " contact groups could not be read (%s): alerts link to the "
			       "first address of each group only",
			    why);
			if (pg == 1) {
				json_object_put(c->groups);
				c->groups = NULL;
			}
			return SCR_GOT;
		}
		list = sc_list_data(root, pg, SC_LIMIT, &more);
		for (size_t i = 0; list != NULL && i < json_object_array_length(list); i++) {
			json_object *g = json_object_array_get_idx(list, i);

			if (prov_get_id(g, "id", id, sizeof id) == 0)
				json_object_object_add(c->groups, id, json_object_get(g));
		}
		json_object_put(root);
	}
	if (more)
		prov_page_warn(page,
		    SC " has more than %d contact groups: alerts to the others link to "
		       "the first address of each group only",
		    SC_GROUP_PAGES * SC_LIMIT);
	return SCR_GOT;
}

/* ---- contact groups: one contact per address ---- */

/* Each address of group g as (external id, type, value): the first keeps the
 * group's id, so a link to the group id alone still reaches it; the others
 * are "<group>:<kind>:<index>". Adds contact items to page and/or appends
 * the ids to ids (either may be NULL). Returns how many there were. */
static size_t
sc_members(json_object *g, const char *gid, const char *name, struct prov_page *page, json_object *ids)
{
	static const struct {
		const char *key, *type;
	} lists[] = { { "email_addresses", "email" }, { "mobile_numbers", "sms" }, { "ping_url", "webhook" },
		{ NULL, NULL } };
	size_t added = 0;
	char xid[192];

	for (size_t k = 0; lists[k].key != NULL; k++) {
		json_object *v = prov_get(g, lists[k].key);
		size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 1;

		for (size_t i = 0; i < n && i < 100; i++) {
			json_object *e =
			    json_object_is_type(v, json_type_array) ? json_object_array_get_idx(v, i) : v;
			struct prov_contact ct = { .name = name, .type = lists[k].type };

			if (!json_object_is_type(e, json_type_string) || json_object_get_string_len(e) == 0 ||
			    json_object_get_string_len(e) > PROV_MAX_STR)
				continue;
			ct.value = json_object_get_string(e);
			if (added == 0)
				snprintf(xid, sizeof xid, "%s", gid);
			else if (snprintf(xid, sizeof xid, "%s:%s:%zu", gid, lists[k].type, i) >=
			    (int)sizeof xid)
				continue;
			if (page != NULL)
				prov_page_add(page, "contact", xid, json_object_get(g),
				    prov_norm_contact(&ct));
			if (ids != NULL)
				json_object_array_add(ids, json_object_new_string(xid));
			added++;
		}
	}
	return added;
}

static void
sc_group(json_object *g, const char *id, struct prov_page *page)
{
	const char *name = prov_get_text(g, "name", PROV_MAX_STR);
	json_object *integ = prov_get_array(g, "integrations");
	size_t ni = integ ? json_object_array_length(integ) : 0;

	if (name == NULL)
		name = id;
	if (ni > 0)
		prov_page_warn(page,
		    SC " contact group \"%s\" uses %zu integration(s), which the API "
		       "does not describe: not imported",
		    name, ni);
	if (sc_members(g, id, name, page, NULL) == 0) {
		/* Nothing to send to: kept so links to the group still land. */
		struct prov_contact ct = { .name = name, .type = "other", .needs_address = true };

		prov_page_add(page, "contact", id, json_object_get(g), prov_norm_contact(&ct));
	}
}

/* The contact ids for a list of group ids: every address of each group when
 * the groups could be read, else the group id (its first address). */
static enum sc_res
sc_links(struct sc_ctx *c, json_object *groups, const char *what, struct prov_page *page, json_object **out)
{
	json_object *gids = prov_id_list(groups, "id");
	size_t n = json_object_array_length(gids);

	*out = gids;
	if (c == NULL || n == 0)
		return SCR_GOT;
	if (!c->groups_tried && sc_groups_load(c, page) == SCR_LIMIT) {
		json_object_put(gids);
		*out = NULL;
		return SCR_LIMIT;
	}
	if (c->groups == NULL)
		return SCR_GOT;
	*out = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		const char *gid = json_object_get_string(json_object_array_get_idx(gids, i));
		json_object *g = NULL;

		if (json_object_object_get_ex(c->groups, gid, &g) && sc_members(g, gid, NULL, NULL, *out) > 0)
			continue;
		if (g == NULL)
			prov_page_warn(page,
			    SC " %s names contact group %s, which the group list does "
			       "not hold",
			    what, gid);
		json_object_array_add(*out, json_object_new_string(gid));
	}
	json_object_put(gids);
	return SCR_GOT;
}

/* norm (of an item whose contact ids sc_links gave as links) with its alert
 * links marked unread when the contact groups could not be read. */
static json_object *
sc_links_read(const struct sc_ctx *c, json_object *links, json_object *norm)
{
	if (c != NULL && c->groups_tried && c->groups == NULL && links != NULL &&
	    json_object_array_length(links) > 0)
		prov_unread(norm, "the contact groups could not be read (GET /v1/contact-groups)",
		    prov_contact_keys);
	return norm;
}

/* What only an uptime check's detail holds (GET /v1/uptime/{id}; the list
 * gives name, URL, type, interval, paused, tags and contact groups). */
static const char *const sc_detail_keys[] = { "port", "keyword", "keyword_up_when", "keyword_case_sensitive",
	"http_method", "request_body", "request_headers", "expected_status_codes", "alert_status_codes",
	"timeout", "follow_redirects", "verify_ssl", "ssl_expiry_days", "regions", "alert_after_checks",
	"alert_after_s", "dns_record_type", "dns_expected", "dns_nameserver", NULL };

/* ---- uptime checks ---- */

/* url with port put in when url has none and port is not the scheme's
 * default (malloc'd), or NULL to keep url as it is (also a URL with
 * credentials, which we leave alone). */
static char *
sc_url_port(const char *url, int64_t port)
{
	struct url u;
	char *out = NULL;

	if (port <= 0 || port > 65535 || url_parse(&u, NULL, url, CURLU_ALLOW_SPACE) != CURLUE_OK)
		return NULL;
	if (u.port == NULL && !u.userinfo && port != u.port_num)
		out = url_set_port(url, (long)port);
	url_free(&u);
	return out;
}

/* custom_header (a string holding a JSON object; an object tolerated) and
 * user_agent as one object of name -> string. */
static json_object *
sc_headers(json_object *t, const char *name, struct prov_page *page)
{
	json_object *v = prov_get(t, "custom_header"), *parsed = NULL, *out = json_object_new_object();
	const char *ua = prov_get_text(t, "user_agent", PROV_MAX_STR);
	bool have_ua = false;
	size_t n = 0;

	if (json_object_is_type(v, json_type_string) && json_object_get_string_len(v) > 0) {
		parsed = json_tokener_parse(json_object_get_string(v));
		if (!json_object_is_type(parsed, json_type_object))
			prov_page_warn(page,
			    SC " uptime check \"%s\" has custom headers that are not a "
			       "JSON object: not imported",
			    name);
		v = parsed;
	}
	if (json_object_is_type(v, json_type_object)) {
		json_object_object_foreach (v, key, val) {
			bool scalar = json_object_is_type(val, json_type_string) ||
			    json_object_is_type(val, json_type_int) ||
			    json_object_is_type(val, json_type_double) ||
			    json_object_is_type(val, json_type_boolean);
			const char *s = scalar ? json_object_get_string(val) : NULL;

			if (s == NULL || *key == '\0' || strlen(key) > 256 || strlen(s) > PROV_MAX_STR ||
			    n++ >= SC_MAX_HEADERS)
				continue;
			have_ua |= strcasecmp(key, "User-Agent") == 0;
			json_object_object_add(out, key, json_object_new_string(s));
		}
	}
	if (ua != NULL && !have_ua)
		json_object_object_add(out, "User-Agent", json_object_new_string(ua));
	json_object_put(parsed);
	return out;
}

/* servers[] -> region codes (else region names, descriptions). */
static json_object *
sc_regions(json_object *t)
{
	static const char *const keys[] = { "region_code", "region", "description", NULL };
	json_object *servers = prov_get_array(t, "servers"), *out = json_object_new_array();

	for (size_t i = 0; servers != NULL && i < json_object_array_length(servers) && i < 100; i++) {
		json_object *e = json_object_array_get_idx(servers, i);
		const char *s = json_object_is_type(e, json_type_string) ? json_object_get_string(e) : NULL;

		for (size_t k = 0; s == NULL && keys[k] != NULL; k++)
			s = prov_get_text(e, keys[k], 256);
		if (s != NULL && *s != '\0')
			json_object_array_add(out, json_object_new_string(s));
	}
	return out;
}

/* Type, method and body from test_type, post_body/post_raw. false when the
 * type is an HTTP one. */
static bool
sc_type(json_object *t, struct prov_monitor *m, struct prov_page *page)
{
	const char *type = prov_get_str(t, "test_type", 64);
	const char *raw = prov_get_str(t, "post_raw", PROV_MAX_STR);
	const char *body = prov_get_str(t, "post_body", PROV_MAX_STR);

	m->type = prov_map_other(test_types, type, page, SC " uptime check", m->name, "type");
	if (strcmp(m->type, "http") != 0)
		return false;
	m->request_body = raw != NULL && *raw != '\0' ? raw : body != NULL && *body != '\0' ? body : NULL;
	if (strcasecmp(type, "HEAD") == 0) {
		m->http_method = "HEAD";
		m->request_body = NULL;
	} else
		m->http_method = m->request_body != NULL ? "POST" : "GET";
	return true;
}

/* check_rate in seconds; 0 ("constant") becomes SC_CONSTANT_RATE. */
static int64_t
sc_interval(json_object *t, const char *what, const char *name, int64_t dflt, struct prov_page *page)
{
	int64_t rate = prov_int_or(t, "check_rate", dflt);

	if (rate == 0) {
		prov_page_warn(page,
		    SC " %s \"%s\" checks constantly (check_rate 0); imported with a "
		       "%d s interval",
		    what, name, SC_CONSTANT_RATE);
		return SC_CONSTANT_RATE;
	}
	return rate > 0 ? rate : dflt;
}

static enum prov_tri
sc_tri(json_object *t, const char *key)
{
	if (prov_get(t, key) == NULL)
		return PROV_UNSET;
	return prov_get_bool(t, key, false) ? PROV_YES : PROV_NO;
}

/* Alert timing of uptime check t (statuscake-go model_uptime_test_.go):
 * "confirmation", the "Number of confirmation servers to confirm downtime
 * before an alert is triggered", so a failed test and that many confirming
 * ones; "trigger_rate", "The number of minutes to wait before sending an
 * alert". A value out of range is left out, with a warning. */
static void
sc_timing(json_object *t, struct prov_monitor *m, struct prov_page *page)
{
	int64_t n;

	if (prov_get_int_in(t, "confirmation", 0, SC_MAX_CONFIRM, &n))
		m->alert_after_checks = n + 1;
	else if (prov_get(t, "confirmation") != NULL)
		prov_page_warn(page,
		    SC " uptime check \"%s\" has a confirmation that is no count from "
		       "0 to %d; when it alerts was not imported",
		    m->name, SC_MAX_CONFIRM);
	if (prov_get_int_in(t, "trigger_rate", 0, SC_MAX_TIME_S / 60, &n))
		m->alert_after_s = n * 60;
	else if (prov_get(t, "trigger_rate") != NULL)
		prov_page_warn(page,
		    SC " uptime check \"%s\" has a trigger_rate that is no count of "
		       "minutes within %d s; its alert delay was not imported",
		    m->name, SC_MAX_TIME_S);
}

/* The field tables (at the end) map the fields that are copied as they are. */
static const struct prov_field check_fields[], heartbeat_fields[], window_fields[];

/* Every monitor field of uptime check t but its links; *url_out is a URL
 * built here (caller frees). */
static void
sc_monitor(json_object *t, const char *id, struct prov_monitor *m, char **url_out, struct prov_page *page)
{
	const char *url = prov_get_text(t, "website_url", PROV_MAX_STR);
	json_object *codes = prov_get(t, "status_codes");
	int64_t port = -1;
	size_t bad = 0;
	bool http;

	prov_map(check_fields, t, m);
	if (m->name == NULL)
		m->name = url ? url : id;
	m->url = url;
	m->interval = sc_interval(t, "uptime check", m->name, 300, page);
	m->port = prov_get_int(t, "port", &port) && port > 0 && port <= 65535 ? port : -1;
	http = sc_type(t, m, page);
	m->tags = prov_str_list(prov_get(t, "tags"), ',');
	m->regions = sc_regions(t);
	m->timeout = prov_int_or(t, "timeout", 0);
	sc_timing(t, m, page);
	if (strcmp(m->type, "dns") == 0) {
		/* "dns_ips": "List of IP addresses to compare against returned DNS
		 * records"; "dns_server": "FQDN or IP address of the nameserver to
		 * query" (model_uptime_test_.go). No record type is published: the
		 * addresses' family says it. */
		m->dns_expected = prov_dns_ips(prov_get(t, "dns_ips"), &m->dns_record_type, &bad);
		m->dns_nameserver = prov_get_text(t, "dns_server", 255);
	}
	if (bad > 0)
		prov_page_warn(page,
		    SC " uptime check \"%s\" expects %zu DNS answer%s that %s no IP address; not imported",
		    m->name, bad, bad == 1 ? "" : "s", bad == 1 ? "is" : "are");
	if (!http)
		return;
	if (url != NULL && (*url_out = sc_url_port(url, m->port)) != NULL)
		m->url = *url_out;
	m->keyword = prov_get_text(t, "find_string", PROV_MAX_STR);
	if (m->keyword != NULL) {
		m->type = "keyword";
		m->keyword_up_when = prov_get_bool(t, "do_not_find", false) ? "absent" : "present";
	}
	m->request_headers = sc_headers(t, m->name, page);
	m->alert_status_codes = json_object_is_type(codes, json_type_array) ? prov_id_list(codes, NULL) :
	                                                                      prov_str_list(codes, ',');
	m->follow_redirects = sc_tri(t, "follow_redirects");
	if (prov_get_bool(t, "enable_ssl_alert", false))
		m->ssl_expiry_days = SC_SSL_ALERT_DAYS;
}

/* GET /uptime/{id}: *detail is the parsed answer (caller puts) or NULL when
 * it failed (warned: the list entry is used). */
static enum sc_res
sc_detail(struct sc_ctx *c, const char *id, json_object *it, struct prov_page *page, json_object **detail)
{
	char why[SC_WHY], *path = NULL, *url;
	enum sc_res r;

	httpc_urlencode_append(&path, id);
	url = prov_url(c->s, "/v1/uptime/%s", path);
	free(path);
	r = sc_get(c, url, detail, why, sizeof why);
	if (r == SCR_GOT && prov_get_object(*detail, "data") == NULL) {
		snprintf(why, sizeof why, "no \"data\" object");
		r = SCR_FAIL;
	}
	if (r == SCR_FAIL) {
		const char *name = prov_get_text(it, "name", PROV_MAX_STR);

		prov_page_warn(page,
		    SC " uptime check \"%s\" (%s): its details could not be read (%s); "
		       "imported from the list without its request settings",
		    name ? name : id, id, why);
	}
	if (r != SCR_GOT) {
		json_object_put(*detail);
		*detail = NULL;
	}
	return r;
}

static enum sc_res
sc_uptime(json_object *it, const char *id, struct prov_page *page, struct sc_ctx *c)
{
	struct prov_monitor m = { 0 };
	json_object *detail = NULL, *t = it, *links, *norm;
	char *url = NULL;
	enum sc_res r;

	if (c != NULL) {
		if ((r = sc_detail(c, id, it, page, &detail)) == SCR_LIMIT)
			return r;
		if (detail != NULL)
			t = prov_get_object(detail, "data");
	}
	if ((r = sc_links(c, prov_get(t, "contact_groups"), "uptime check", page, &links)) == SCR_LIMIT) {
		json_object_put(detail);
		return r;
	}
	sc_monitor(t, id, &m, &url, page);
	m.contact_ids = links;
	norm = sc_links_read(c, links, prov_norm_monitor(&m));
	if (c != NULL && detail == NULL)
		prov_unread(norm, "its details could not be read (GET /v1/uptime/{id})", sc_detail_keys);
	prov_page_add(page, "monitor", id, json_object_get(t), norm);
	free(url);
	json_object_put(detail);
	return SCR_GOT;
}

/* ---- heartbeats and SSL checks ---- */

static enum sc_res
sc_heartbeat(json_object *t, const char *id, struct prov_page *page, struct sc_ctx *c)
{
	struct prov_heartbeat h = { 0 };

	if (sc_links(c, prov_get(t, "contact_groups"), "heartbeat", page, &h.contact_ids) == SCR_LIMIT)
		return SCR_LIMIT;
	prov_map(heartbeat_fields, t, &h);
	if (h.name == NULL)
		h.name = id;
	prov_page_add(page, "heartbeat", id, json_object_get(t),
	    sc_links_read(c, h.contact_ids, prov_norm_heartbeat(&h)));
	return SCR_GOT;
}

/* An SSL check becomes an HTTP monitor of its URL that alerts before the
 * certificate expires (external id "ssl:<id>": its own id space). */
static enum sc_res
sc_ssl(json_object *t, const char *id, struct prov_page *page, struct sc_ctx *c)
{
	struct prov_monitor m = { .port = -1 };
	const char *url = prov_get_text(t, "website_url", PROV_MAX_STR);
	json_object *at = prov_get_array(t, "alert_at");
	char xid[192], *name;

	if (sc_links(c, prov_get(t, "contact_groups"), "SSL check", page, &m.contact_ids) == SCR_LIMIT)
		return SCR_LIMIT;
	prov_map(check_fields, t, &m);
	/* An SSL check has no name of its own: "SSL <website_url>". */
	name = xasprintf("SSL %s", url ? url : id);
	m.name = name;
	m.url = url;
	m.type = "http";
	m.interval = sc_interval(t, "SSL check", name, 86400, page);
	m.follow_redirects = sc_tri(t, "follow_redirects");
	m.verify_ssl = sc_tri(t, "alert_broken");
	m.request_headers = sc_headers(t, name, page);
	/* The first alert: the largest alert_at day count. */
	for (size_t i = 0;
	     prov_get_bool(t, "alert_expiry", true) && at != NULL && i < json_object_array_length(at); i++) {
		int64_t d;

		if (prov_json_int(json_object_array_get_idx(at, i), &d) && d > m.ssl_expiry_days && d < 10000)
			m.ssl_expiry_days = d;
	}
	snprintf(xid, sizeof xid, "ssl:%s", id);
	prov_page_add(page, "monitor", xid, json_object_get(t),
	    sc_links_read(c, m.contact_ids, prov_norm_monitor(&m)));
	free(name);
	return SCR_GOT;
}

/* ---- maintenance windows ---- */

/* Add to ids the checks that carry any of tags (GET /uptime?tags=&matchany=true). */
static enum sc_res
sc_tagged(struct sc_ctx *c, json_object *tags, json_object *ids, const char *name, struct prov_page *page)
{
	char *q = NULL, why[SC_WHY];
	bool more = true;
	enum sc_res r = SCR_GOT;

	for (size_t i = 0; i < json_object_array_length(tags); i++) {
		if (i > 0)
			httpc_urlencode_append(&q, ",");
		httpc_urlencode_append(&q, json_object_get_string(json_object_array_get_idx(tags, i)));
	}
	for (int64_t pg = 1; more && pg <= SC_TAG_PAGES && r == SCR_GOT; pg++) {
		json_object *root, *list;

		r = sc_get(c,
		    prov_url(c->s, "/v1/uptime?tags=%s&matchany=true&page=%lld&limit=%d", q, (long long)pg,
		        SC_LIMIT),
		    &root, why, sizeof why);
		if (r == SCR_FAIL)
			prov_page_warn(page,
			    SC " maintenance window \"%s\": the checks with its tags could "
			       "not be listed (%s); only the checks it names are linked",
			    name, why);
		if (r != SCR_GOT)
			break;
		list = sc_list_data(root, pg, SC_LIMIT, &more);
		for (size_t i = 0; list != NULL && i < json_object_array_length(list); i++) {
			char id[192];

			if (prov_get_id(json_object_array_get_idx(list, i), "id", id, sizeof id) == 0) {
				bool dup = false;

				for (size_t k = 0; k < json_object_array_length(ids); k++)
					dup |=
					    strcmp(json_object_get_string(json_object_array_get_idx(ids, k)),
					        id) == 0;
				if (!dup)
					json_object_array_add(ids, json_object_new_string(id));
			}
		}
		json_object_put(root);
	}
	free(q);
	return r == SCR_FAIL ? SCR_GOT : r;
}

/* recurrence, duration and days of window w. start_at and end_at are RFC
 * 3339 times; one without an offset is read in the window's time zone, and
 * the weekday or day of the month is the start's in that zone. */
static void
sc_window_times(json_object *w, struct prov_maintenance_window *mw, struct prov_page *page)
{
	static const struct prov_map reps[] = { { "never", "once" }, { "1d", "daily" }, { "1w", "weekly" },
		{ "2w", "other" }, { "1m", "monthly" }, { NULL, NULL } };
	const char *rep = prov_get_str(w, "repeat_interval", 64);
	struct tz *zone = prov_zone_load(mw->timezone, page, SC " maintenance window", mw->name);
	struct time_civil lc;
	int64_t a, b = 0;

	mw->recurrence =
	    prov_map_other(reps, rep, page, SC " maintenance window", mw->name, "repeat interval");
	if (rep != NULL && strcasecmp(rep, "2w") == 0)
		prov_page_warn(page,
		    SC " maintenance window \"%s\" repeats every two weeks; imported as "
		       "recurrence other on its weekday",
		    mw->name);
	if (mw->end != NULL && !prov_get_time(w, "end_at", TIME_WALL | TIME_OFFSET, zone, &b)) {
		prov_page_warn(page, SC " maintenance window \"%s\" has an end that is not a date-time",
		    mw->name);
		mw->end = NULL;
	}
	if (!prov_get_time(w, "start_at", TIME_WALL | TIME_OFFSET, zone, &a)) {
		if (mw->start != NULL)
			prov_page_warn(page, SC " maintenance window \"%s\" has no readable start", mw->name);
		mw->start = NULL;
		tz_free(zone);
		return;
	}
	if (mw->end != NULL && b > a)
		mw->duration = (b - a) / 60;
	time_civil_of(a, zone, &lc);
	tz_free(zone);
	if (strcmp(mw->recurrence, "weekly") == 0 || strcmp(mw->recurrence, "other") == 0) {
		mw->days = json_object_new_array();
		json_object_array_add(mw->days, json_object_new_int(lc.weekday));
	} else if (strcmp(mw->recurrence, "monthly") == 0) {
		mw->days = json_object_new_array();
		json_object_array_add(mw->days, json_object_new_int(lc.day));
	}
}

static enum sc_res
sc_window(json_object *w, const char *id, struct prov_page *page, struct sc_ctx *c)
{
	struct prov_maintenance_window mw = { 0 };
	const char *state = prov_get_str(w, "state", 64);
	json_object *tags = prov_str_list(prov_get(w, "tags"), ',');

	prov_map(window_fields, w, &mw);
	if (mw.name == NULL)
		mw.name = id;
	mw.start = prov_get_text(w, "start_at", 64);
	mw.end = prov_get_text(w, "end_at", 64);
	mw.monitor_ids = prov_id_list(prov_get_array(w, "tests"), NULL);
	if (tags != NULL && json_object_array_length(tags) > 0) {
		if (c == NULL)
			prov_page_warn(page,
			    SC " maintenance window \"%s\": the checks with its tags are not "
			       "resolved here",
			    mw.name);
		else if (sc_tagged(c, tags, mw.monitor_ids, mw.name, page) == SCR_LIMIT) {
			json_object_put(tags);
			json_object_put(mw.monitor_ids);
			return SCR_LIMIT;
		}
	}
	json_object_put(tags);
	if (state != NULL && strcasecmp(state, "paused") == 0)
		mw.paused = true;
	else if (state != NULL && strcasecmp(state, "active") != 0 && strcasecmp(state, "pending") != 0)
		prov_page_warn(page,
		    SC " maintenance window \"%s\" has an unknown state; imported as not "
		       "paused",
		    mw.name);
	sc_window_times(w, &mw, page);
	prov_page_add(page, "maintenance_window", id, json_object_get(w), prov_norm_maintenance_window(&mw));
	return SCR_GOT;
}

/* ---- pages ---- */

static size_t
sc_limit(size_t ph)
{
	return ph == PH_UPTIME || ph == PH_WINDOWS ? SC_DETAIL_LIMIT : SC_LIMIT;
}

static enum sc_res
sc_item(size_t ph, json_object *it, const char *id, struct prov_page *page, struct sc_ctx *c)
{
	switch (ph) {
	case PH_UPTIME:
		return sc_uptime(it, id, page, c);
	case PH_HEARTBEAT:
		return sc_heartbeat(it, id, page, c);
	case PH_SSL:
		return sc_ssl(it, id, page, c);
	case PH_WINDOWS:
		return sc_window(it, id, page, c);
	default:
		sc_group(it, id, page);
		return SCR_GOT;
	}
}

/* A list that was not answered with 2xx. The uptime list is the run's main
 * list: refused there, the token is bad. Any other list refused (401/403;
 * any 4xx for maintenance windows, an optional feature) skips its kind. */
static enum prov_status
sc_refused(size_t ph, const struct httpc_resp *resp, enum prov_status st, struct prov_page *page,
    struct prov_error *err)
{
	char text[160];
	bool client = resp->status >= 400 && resp->status < 500 && resp->status != 408 &&
	    resp->status != 429 && resp->status != 420;

	if (ph != PH_UPTIME && (st == PROV_AUTH || (ph == PH_WINDOWS && client))) {
		prov_skip_kind(page, SC, kinds[ph], resp->status);
		if (phases[ph + 1] != NULL)
			page->next_cursor = prov_cursor_make(phases[ph + 1], 0);
		return PROV_OK;
	}
	prov_body_message(resp, text, sizeof text);
	if (st == PROV_AUTH)
		prov_fail(err, PROV_AUTH, SC " rejected the API token%s%s%s", text[0] ? " (" : "", text,
		    text[0] ? ")" : "");
	return st;
}

/* The entries of one list page from offset pos on, with the extra calls of c. */
static enum prov_status
sc_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page, struct prov_error *err,
    struct sc_ctx *c)
{
	json_object *root, *list;
	size_t ph, n, limit;
	int64_t pos, pg, next = -1;
	enum prov_status st;
	bool more;
	char id[160];

	if (prov_cursor_parse(cursor, phases, 0, &ph, &pos) != 0)
		return prov_bad_checkpoint(err, SC);
	if ((st = httpc_classify(resp, SC, "API token", err)) != PROV_OK)
		return sc_refused(ph, resp, st, page, err);
	if ((root = prov_parse_json(resp, SC, err)) == NULL)
		return err->status;
	limit = sc_limit(ph);
	pg = pos / (int64_t)limit + 1;
	if ((list = sc_list_data(root, pg, limit, &more)) == NULL) {
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, SC " sent an answer without a \"data\" list");
	}
	n = json_object_array_length(list);
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, SC " sent %zu entries in one page; only the first %d were kept", n,
		    PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = (size_t)(pos % (int64_t)limit); i < n && next < 0; i++) {
		json_object *it = json_object_array_get_idx(list, i);
		int64_t here = (pg - 1) * (int64_t)limit + (int64_t)i;

		if (!json_object_is_type(it, json_type_object) || prov_get_id(it, "id", id, sizeof id) != 0) {
			prov_page_warn(page, SC " sent an entry without a usable id; skipped");
			continue;
		}
		if (sc_item(ph, it, id, page, c) == SCR_LIMIT) {
			/* The rate limit: this entry starts the next page; at the first,
			 * the page itself waits. */
			if (here == pos) {
				json_object_put(root);
				*err = c->limit;
				return PROV_RATE_LIMITED;
			}
			next = here;
		}
	}
	json_object_put(root);
	if (next >= 0)
		page->next_cursor = prov_cursor_make(phases[ph], next);
	else if (more)
		page->next_cursor = prov_cursor_make(phases[ph], pg * (int64_t)limit);
	else if (phases[ph + 1] != NULL)
		page->next_cursor = prov_cursor_make(phases[ph + 1], 0);
	return PROV_OK;
}

enum prov_status
statuscake_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	return sc_parse(cursor, resp, page, err, NULL);
}

static enum prov_status
statuscake_fetch(struct prov_session *s, const char *cursor, struct prov_page *page, struct prov_error *err)
{
	const char *token = prov_cred(s, "api_token");
	struct sc_ctx c = { .s = s };
	struct httpc_req req = { 0 };
	struct httpc_resp resp = { 0 };
	const char *headers[2] = { NULL, NULL };
	char *auth, *url;
	size_t ph;
	int64_t pos, limit;
	enum prov_status st;

	if (prov_cursor_parse(cursor, phases, 0, &ph, &pos) != 0)
		return prov_bad_checkpoint(err, SC);
	if (token == NULL)
		return prov_no_cred(err, SC, "api_token");
	limit = (int64_t)sc_limit(ph);
	url = prov_url(s, "/v1/%s?page=%lld&limit=%lld", phases[ph], (long long)(pos / limit + 1),
	    (long long)limit);
	auth = xasprintf("Authorization: Bearer %s", token);
	headers[0] = auth;
	c.auth = auth;
	req.url = url;
	req.headers = headers;
	st = prov_http(s, &req, &resp, err);
	if (st == PROV_OK)
		st = sc_parse(cursor, &resp, page, err, &c);
	st = prov_finish(s, st, page, err);
	httpc_resp_free(&resp);
	json_object_put(c.groups);
	free(url);
	sodium_memzero(auth, strlen(auth));
	free(auth);
	return st;
}

const struct provider_ops statuscake_ops = { statuscake_fetch };

/* The fate of each field (providers/fields.h), and how the table maps those
 * it can: the objects of statuscake-go's model_*.go (providers.md §3) as
 * each item keeps them, an uptime check's detail (else its list entry), an
 * SSL check, a heartbeat list entry, a contact group (every contact made
 * from it keeps the whole group) and a maintenance window. Uptime and SSL
 * checks both become monitors, so one table holds the fields of both, and
 * maps only those both read alike (a field only an uptime check reads, such
 * as `tags` or `timeout`, is read in code). */
/* clang-format off */
#define SC_STATE      "State at StatusCake, not a setting."
#define SC_CERT_STATE "State at StatusCake (what it found of the certificate), not a setting."
static const struct prov_field check_fields[] = {
	{ "id", "`import_links`", "the external id (an SSL check's: `ssl:<id>`)" },
	{ "name", "`monitors.name`", "else `website_url`, else the id; an SSL check has none (see `website_url`)", PROV_TEXT(monitor, name, PROV_MAX_STR) },
	{ "website_url", "`monitors.url`", "as given (the host for PING, DNS, TCP, SSH, SMTP); an HTTP check's URL gets its `port` when it has none and the port is not the scheme's default; an SSL check's is also its name, `SSL <website_url>`" },
	{ "test_type", "`monitors.type`, `monitors.http_method`", "see the types below; an SSL check has none and is an `http` monitor" },
	{ "check_rate", "`monitors.interval_s`", "seconds; 0 (\"constant\") becomes 30, with a warning; absent: 300 for an uptime check, 86400 for an SSL check" },
	{ "paused", "`monitors.paused`", NULL, PROV_BOOL(monitor, paused) },
	{ "contact_groups", "`monitor_contacts`", "every contact made from each group (see the contact groups); when the group list cannot be read, each group's first address only, with a warning" },
	{ "tags", "`monitors.tags`", NULL },
	{ "port", "`monitors.port`", "1–65535, else NULL" },
	{ "timeout", "`monitors.timeout_s`", "seconds" },
	{ "find_string", "`monitors.keyword`", "makes the type `keyword`; HTTP and HEAD checks only" },
	{ "do_not_find", "`monitors.keyword_up_when`", "false: `present` (down when the keyword is missing), true: `absent`; with a `find_string` only" },
	{ "post_raw", "`monitors.request_body`", "makes the method POST (a HEAD check drops it); HTTP checks only" },
	{ "post_body", "`monitors.request_body`", "when there is no `post_raw`; as `post_raw`" },
	{ "custom_header", "`monitors.request_headers`", "a string holding a JSON object; values kept as text, at most 50; not an object: not imported, with a warning; HTTP and HEAD checks only" },
	{ "user_agent", "`monitors.request_headers`", "as `User-Agent`, unless `custom_header` sets one; an uptime check's: HTTP and HEAD checks only" },
	{ "status_codes", "`monitors.alert_status_codes`", "the codes that raise an alert (not expected codes: `expected_status_codes` stays NULL); HTTP and HEAD checks only" },
	{ "follow_redirects", "`monitors.follow_redirects`", "an uptime check's: HTTP and HEAD checks only" },
	{ "enable_ssl_alert", "`monitors.ssl_expiry_days`", "7 days: StatusCake states no day count for it, and 7 is the smallest default of its SSL checks' `alert_at`; HTTP and HEAD checks only" },
	{ "servers[].region_code", "`monitors.regions`", "the check's locations" },
	{ "servers[].region", "`monitors.regions`", "for a location without `region_code`" },
	{ "servers[].description", "`monitors.regions`", "for a location with neither `region_code` nor `region`" },
	{ "servers[].status", NULL, SC_STATE },
	{ "servers[].ipv4", NULL, "The location's own address at StatusCake, not a setting." },
	{ "servers[].ipv6", NULL, "The location's own address at StatusCake, not a setting." },
	{ "confirmation", "`monitors.alert_after_checks`", "the servers that must confirm a failure before an alert: the failed test and each confirming one, `confirmation` + 1 (0–1000, else NULL with a warning)" },
	{ "trigger_rate", "`monitors.alert_after_s`", "minutes to wait before alerting, × 60 (0: NULL; more than 100000000 s: NULL, with a warning)" },
	{ "include_header", NULL, "StatusCake's switch to search the response headers for the keyword too; the account has no column for it." },
	{ "dns_ips", "`monitors.dns_expected`, `monitors.dns_record_type`", "DNS checks only: the addresses that count as up; StatusCake names no record type: `A` when all are IPv4, `AAAA` when all are IPv6, else NULL; a value that is no IP address is left out, with a warning" },
	{ "dns_server", "`monitors.dns_nameserver`", "DNS checks only" },
	{ "final_endpoint", NULL, "Where the redirect chain must end; the account has no column for it." },
	{ "use_jar", NULL, "StatusCake's switch to keep cookies between requests; the account has no column for it." },
	{ "basic_username", prov_enter_again, "Write-only (a parameter of creating and updating a check, absent from statuscake-go's `UptimeTest`): StatusCake never shows it, so basic auth is not imported and such a check fails until its credentials are entered again." },
	{ "basic_password", prov_enter_again, "Write-only (a parameter of creating and updating a check, absent from statuscake-go's `UptimeTest`): StatusCake never shows it, so basic auth is not imported and such a check fails until its credentials are entered again." },
	{ "regions", NULL, "Write-only: StatusCake never shows it; the locations come from `servers`." },
	{ "status", NULL, SC_STATE },
	{ "uptime", NULL, SC_STATE },
	{ "host", NULL, "State at StatusCake (the hosting provider it found), not a setting." },
	{ "last_tested_at", NULL, SC_STATE },
	{ "next_location", NULL, SC_STATE },
	{ "processing", NULL, SC_STATE },
	{ "processing_on", NULL, SC_STATE },
	{ "processing_state", NULL, SC_STATE },
	{ "alert_at", "`monitors.ssl_expiry_days`", "an SSL check's largest day count (its first alert), when `alert_expiry`; the later alerts have no column" },
	{ "alert_expiry", "`monitors.ssl_expiry_days`", "an SSL check's switch: off, no expiry alert (NULL)" },
	{ "alert_broken", "`monitors.verify_ssl`", "an SSL check's alert on a broken certificate" },
	{ "alert_mixed", NULL, "An SSL check's alert on mixed content; the account has no column for it." },
	{ "alert_reminder", NULL, "An SSL check's reminders after its first expiry alert; the account has no column for them." },
	{ "hostname", NULL, "The server an SSL check tests when it is not the URL's host; the account has no column for it." },
	{ "certificate_score", NULL, SC_CERT_STATE },
	{ "certificate_status", NULL, SC_CERT_STATE },
	{ "cipher", NULL, SC_CERT_STATE },
	{ "cipher_score", NULL, SC_CERT_STATE },
	{ "issuer_common_name", NULL, SC_CERT_STATE },
	{ "flags.follow_redirects", NULL, SC_CERT_STATE },
	{ "flags.has_mixed", NULL, SC_CERT_STATE },
	{ "flags.has_pfs", NULL, SC_CERT_STATE },
	{ "flags.is_broken", NULL, SC_CERT_STATE },
	{ "flags.is_expired", NULL, SC_CERT_STATE },
	{ "flags.is_extended", NULL, SC_CERT_STATE },
	{ "flags.is_missing", NULL, SC_CERT_STATE },
	{ "flags.is_revoked", NULL, SC_CERT_STATE },
	{ "mixed_content[].src", NULL, SC_CERT_STATE },
	{ "mixed_content[].type", NULL, SC_CERT_STATE },
	{ "valid_from", NULL, SC_CERT_STATE },
	{ "valid_until", NULL, SC_CERT_STATE },
	{ "last_reminder", NULL, SC_STATE },
	{ "updated_at", NULL, SC_STATE },
	{ NULL, NULL, NULL }
};
static const struct prov_field heartbeat_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "name", "`heartbeats.name`", "else the id", PROV_TEXT(heartbeat, name, PROV_MAX_STR) },
	{ "url", "`heartbeats.ping_url`", "the push URL", PROV_TEXT(heartbeat, ping_url, PROV_MAX_STR) },
	{ "period", "`heartbeats.interval_s`", "seconds; StatusCake has no grace period: `grace_s` 0", PROV_INT(heartbeat, interval) },
	{ "paused", "`heartbeats.paused`", NULL, PROV_BOOL(heartbeat, paused) },
	{ "tags", "`heartbeats.tags`", NULL, PROV_CSV(heartbeat, tags) },
	{ "contact_groups", "`heartbeat_contacts`", "every contact made from each group, as for checks" },
	{ "status", NULL, SC_STATE },
	{ "uptime", NULL, SC_STATE },
	{ "host", NULL, SC_STATE },
	{ "last_tested_at", NULL, SC_STATE },
	{ NULL, NULL, NULL }
};
static const struct prov_field group_fields[] = {
	{ "id", "`import_links`", "the external id of the group's first address; the others' are `<group>:email:<i>`, `<group>:sms:<i>`, `<group>:webhook:0`" },
	{ "name", "`contacts.name`", "of every contact made from the group; else the id" },
	{ "email_addresses", "`contacts.type`, `contacts.value`", "each one an `email` contact" },
	{ "mobile_numbers", "`contacts.type`, `contacts.value`", "each one an `sms` contact" },
	{ "ping_url", "`contacts.type`, `contacts.value`", "a `webhook` contact (StatusCake calls it with an HTTP GET on events); a group with no address at all is one contact of type `other` that needs one" },
	{ "integrations", NULL, "Ids only: no v1 call describes an integration, so none is imported (a warning names the group); add them again by hand." },
	{ NULL, NULL, NULL }
};
static const struct prov_field window_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "name", "`maintenance_windows.name`", "else the id", PROV_TEXT(maintenance_window, name, PROV_MAX_STR) },
	{ "start_at", "`maintenance_windows.starts`", "the first occurrence, as given (RFC 3339; without an offset, a wall clock in `timezone`); not a date-time: NULL, with a warning" },
	{ "end_at", "`maintenance_windows.ends`, `maintenance_windows.duration_min`", "the duration is end − start in real minutes; not a date-time: NULL, with a warning" },
	{ "repeat_interval", "`maintenance_windows.recurrence`, `maintenance_windows.days`", "see the repeats below" },
	{ "timezone", "`maintenance_windows.timezone`", "a name that is no zone is kept, the times read in UTC, with a warning", PROV_TEXT(maintenance_window, timezone, 64) },
	{ "state", "`maintenance_windows.paused`", "`paused` pauses it; `active`, `pending` do not; an unknown one does not, with a warning" },
	{ "tests", "`maintenance_window_monitors`", "the checks it names" },
	{ "tags", "`maintenance_window_monitors`", "every check carrying any of them (`GET /v1/uptime?tags=…&matchany=true`, at most 5 pages); the tags themselves have no column" },
	{ NULL, NULL, NULL }
};
/* clang-format on */

const struct prov_fields statuscake_fields[] = {
	{ "monitor",
	    "uptime check (`GET /v1/uptime/{id}`, else its entry in `GET /v1/uptime`) or SSL check (`GET /v1/ssl`)",
	    check_fields },
	{ "heartbeat", "heartbeat (`GET /v1/heartbeat`)", heartbeat_fields },
	{ "contact", "contact group (`GET /v1/contact-groups`)", group_fields },
	{ "maintenance_window", "maintenance window (`GET /v1/maintenance-windows`)", window_fields },
	{ NULL, NULL, NULL },
};
