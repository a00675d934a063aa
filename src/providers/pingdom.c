/* Pingdom, API 3.1 (providers.md §2 and §12; docs/providers/pingdom.md).
 *
 * GET with "Authorization: Bearer <api_token>". Cursors:
 *
 *   "checks:<offset>"       GET /checks?limit=25&offset=<offset>&include_tags=true,
 *                           then, in the same fetch, /alerting/contacts and
 *                           /alerting/teams (who the alert links name) and one
 *                           GET /checks/{id}?include_teams=true per check: the
 *                           list carries the host name only; scheme, port, path,
 *                           keyword, headers, body, recipients, alert timing, DNS
 *                           expectations and the login are in the detail.
 *   "contacts:0"            GET /alerting/contacts: one contact per notification target.
 *   "maintenance:<offset>"  GET /maintenance?limit=100&offset=<offset>; then the end.
 *
 * A fetch of checks is bounded: 3 + PD_LIMIT requests. When the rate limit
 * stops a detail part way (a refusal, or the quota used up until after the
 * step), the page ends at the last check read and the cursor resumes at the
 * next one. A failed detail keeps the list data with a warning; two in a
 * row without any answer (timeouts) make the page a retry. A refused
 * (401/403) contacts, teams or maintenance list after the first call skips
 * that kind with a warning; only the check list's refusal is a bad key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"

#define PD            "Pingdom"
#define PD_LIMIT      25        /* checks a page: each costs one detail request */
#define PD_MW_LIMIT   100       /* maintenance windows a page */
#define PD_MAX_LINKS  1000      /* contact item ids one check may name */
#define PD_MAX_SILENT 2         /* details in a row without an answer that make the page a retry */
#define PD_MAX_DOWNS  1000000   /* down results before an alert: the most the account keeps */
#define PD_MAX_TIME_S 100000000 /* seconds of alert timing: the most the account keeps (importer.c) */
#define PD_MAX_SECRET 1000      /* bytes of a password that sealed fit monitors.auth_password_sealed (1400) */

enum { PH_CHECKS, PH_CONTACTS, PH_MAINT };
static const char *const phases[] = { "checks", "contacts", "maintenance", NULL };

/* clang-format off */
static const struct prov_map check_types[] = {
	{ "http", "http" }, { "httpcustom", "http" }, { "tcp", "tcp" }, { "ping", "ping" },
	{ "dns", "dns" }, { "udp", "udp" }, { "smtp", "smtp" }, { "pop3", "pop3" },
	{ "imap", "imap" }, { NULL, NULL }
};
/* clang-format on */

/* clang-format off */
static const struct prov_map recurrences[] = {
	{ "none", "once" }, { "day", "daily" }, { "week", "weekly" }, { "month", "monthly" }, { NULL, NULL }
};
/* clang-format on */

/* The contact and team lists a page of checks resolves its alert links with. */
struct pd_links {
	json_object *contacts; /* the "contacts" array, NULL when it could not be read */
	json_object *teams;    /* the "teams" array, NULL when it could not be read */
};

/* ------------------------------------------------------------- contacts */

typedef void (*target_fn)(void *ctx, const char *xid, const char *type, json_object *target);

/* The contact type of a notification target kind, NULL when unknown. */
static const char *
target_type(const char *kind)
{
	if (strcmp(kind, "email") == 0 || strcmp(kind, "sms") == 0)
		return kind;
	if (strcmp(kind, "apns") == 0 || strcmp(kind, "agcm") == 0)
		return "push";
	return NULL;
}

/* Call fn for every contact item contact c becomes: one per notification
 * target, external id "<id>:<kind>:<index>", or "<id>" (target NULL) when it
 * has none. The contacts phase adds these items and alert links name the
 * same ids, so both go through here. Warnings only when page is given. */
static void
contact_targets(json_object *c, const char *id, struct prov_page *page, target_fn fn, void *ctx)
{
	json_object *targets = prov_get_object(c, "notification_targets");
	char xid[192];
	size_t added = 0;

	if (targets != NULL) {
		json_object_object_foreach (targets, kind, list) {
			const char *type = target_type(kind);
			char kb[48];

			prov_copy_text(kb, sizeof kb, kind);
			if (type == NULL) {
				if (page != NULL)
					prov_page_warn(page,
					    PD " contact %s has targets of unknown kind %s; "
					       "kept as other",
					    id, kb);
				type = "other";
			}
			if (!json_object_is_type(list, json_type_array))
				continue;
			for (size_t i = 0; i < json_object_array_length(list) && i < 100; i++) {
				if (snprintf(xid, sizeof xid, "%s:%s:%zu", id, kb, i) >= (int)sizeof xid)
					continue;
				fn(ctx, xid, type, json_object_array_get_idx(list, i));
				added++;
			}
		}
	}
	if (added == 0)
		fn(ctx, id, "other", NULL);
}

struct contact_add {
	json_object *c;
	const char *name;
	struct prov_page *page;
};

static void
contact_add_one(void *ctx, const char *xid, const char *type, json_object *t)
{
	struct contact_add *a = ctx;
	struct prov_contact ct = { .name = a->name, .type = type };
	char value[160];

	if (strcmp(type, "email") == 0)
		ct.value = prov_get_text(t, "address", PROV_MAX_STR);
	else if (strcmp(type, "sms") == 0) {
		const char *cc = prov_get_text(t, "country_code", 8);
		const char *num = prov_get_text(t, "number", 64);

		if (num != NULL) {
			while (cc != NULL && *cc == '0')
				cc++;
			snprintf(value, sizeof value, "%s%s%s", cc && *cc ? "+" : "", cc && *cc ? cc : "",
			    num);
			ct.value = value;
		}
	} else if (strcmp(type, "push") == 0) {
		/* A phone of the Pingdom app: the device name, if any, tells which. */
		ct.value = prov_get_text(t, "device_name", PROV_MAX_STR);
		if (ct.value == NULL)
			ct.value = prov_get_text(t, "name", PROV_MAX_STR);
		ct.needs_address = true;
	}
	prov_page_add(a->page, "contact", xid, json_object_get(a->c), prov_norm_contact(&ct));
}

static void
add_contact(json_object *c, const char *id, struct prov_page *page)
{
	struct contact_add a = { c, prov_get_text(c, "name", PROV_MAX_STR), page };

	if (a.name == NULL)
		a.name = id;
	contact_targets(c, id, page, contact_add_one, &a);
}

/* ---------------------------------------------------------- alert links */

static void
link_one(void *ctx, const char *xid, const char *type, json_object *t)
{
	json_object *ids = ctx;
	size_t n = json_object_array_length(ids);

	(void)type;
	(void)t;
	if (n >= PD_MAX_LINKS)
		return;
	for (size_t i = 0; i < n; i++)
		if (strcmp(json_object_get_string(json_object_array_get_idx(ids, i)), xid) == 0)
			return;
	json_object_array_add(ids, json_object_new_string(xid));
}

/* The entry of list whose "id" is id, or NULL. */
static json_object *
find_by_id(json_object *list, const char *id)
{
	char buf[64];

	for (size_t i = 0; list != NULL && i < json_object_array_length(list); i++) {
		json_object *e = json_object_array_get_idx(list, i);

		if (prov_get_id(e, "id", buf, sizeof buf) == 0 && strcmp(buf, id) == 0)
			return e;
	}
	return NULL;
}

/* Add the contact items of contact cid to ids; false when it is unknown. */
static bool
link_contact(const struct pd_links *l, json_object *cid, json_object *ids)
{
	json_object *c;
	char id[64];

	if (prov_json_id(cid, id, sizeof id) != 0 || (c = find_by_id(l->contacts, id)) == NULL)
		return false;
	contact_targets(c, id, NULL, link_one, ids);
	return true;
}

/* Add the members of team tid; -1 team unknown, else the unknown members. */
static int
link_team(const struct pd_links *l, json_object *tid, json_object *ids)
{
	json_object *t, *members;
	char id[64];
	int missing = 0;

	if (prov_json_id(tid, id, sizeof id) != 0 || (t = find_by_id(l->teams, id)) == NULL)
		return -1;
	members = prov_get_array(t, "members");
	for (size_t i = 0; members != NULL && i < json_object_array_length(members); i++)
		if (!link_contact(l, prov_get(json_object_array_get_idx(members, i), "id"), ids))
			missing++;
	return missing;
}

/* contact_ids of a check: its userids and every member of its teams;
 * *unread when the contacts or teams it names could not be read. */
static json_object *
check_links(json_object *d, const struct pd_links *l, const char *name, struct prov_page *page, bool *unread)
{
	json_object *ids = json_object_new_array();
	json_object *users = prov_get_array(d, "userids"), *teams = prov_get_array(d, "teams");
	json_object *integ = prov_get_array(d, "integrationids");
	size_t nu = users ? json_object_array_length(users) : 0;
	size_t nt = teams ? json_object_array_length(teams) : 0;
	size_t unknown = 0, lost_teams = 0;

	for (size_t i = 0; i < nu; i++)
		if (l->contacts == NULL || !link_contact(l, json_object_array_get_idx(users, i), ids))
			unknown++;
	for (size_t i = 0; i < nt; i++) {
		json_object *t = json_object_array_get_idx(teams, i);
		int r = l->contacts == NULL || l->teams == NULL ?
		    -1 :
		    link_team(l, json_object_is_type(t, json_type_object) ? prov_get(t, "id") : t, ids);

		if (r < 0)
			lost_teams++;
		else
			unknown += (size_t)r;
	}
	*unread = (nu > 0 && l->contacts == NULL) || lost_teams > 0;
	if (unknown > 0)
		prov_page_warn(page,
		    PD " check \"%s\" alerts %zu contact%s that could not be read; "
		       "not linked",
		    name, unknown, unknown == 1 ? "" : "s");
	if (lost_teams > 0)
		prov_page_warn(page,
		    PD " check \"%s\" alerts %zu team%s whose members could not be "
		       "read; not linked",
		    name, lost_teams, lost_teams == 1 ? "" : "s");
	if (integ != NULL && json_object_array_length(integ) > 0)
		prov_page_warn(page,
		    PD " check \"%s\" alerts %zu integration%s (webhooks); the API "
		       "cannot list integrations, so they were not imported",
		    name, json_object_array_length(integ), json_object_array_length(integ) == 1 ? "" : "s");
	return ids;
}

/* --------------------------------------------------------------- checks */

/* The check type: a string in the list, an object keyed by type in details. */
static const char *
check_type_name(json_object *c, json_object **settings)
{
	json_object *t = prov_get(c, "type");

	*settings = NULL;
	if (json_object_is_type(t, json_type_string))
		return json_object_get_string(t);
	if (json_object_is_type(t, json_type_object)) {
		json_object_object_foreach (t, key, val) {
			*settings = json_object_is_type(val, json_type_object) ? val : NULL;
			return key;
		}
	}
	return NULL;
}

/* Tag names of [{"name":…,"type":"a"|"u","count":n}] (or plain strings). */
static json_object *
tag_names(json_object *tags)
{
	json_object *out = json_object_new_array();

	for (size_t i = 0; tags != NULL && i < json_object_array_length(tags) && i < 100; i++) {
		json_object *t = json_object_array_get_idx(tags, i);
		const char *name = json_object_is_type(t, json_type_string) ? json_object_get_string(t) :
		                                                              prov_get_text(t, "name", 255);

		if (name != NULL && *name != '\0' && strlen(name) <= 255)
			json_object_array_add(out, json_object_new_string(name));
	}
	return out;
}

/* probe_filters ["region: EU", …] as region names. */
static json_object *
regions_of(json_object *filters, const char *name, struct prov_page *page)
{
	json_object *out = json_object_new_array();

	for (size_t i = 0; filters != NULL && i < json_object_array_length(filters) && i < 20; i++) {
		json_object *f = json_object_array_get_idx(filters, i);
		const char *s = json_object_is_type(f, json_type_string) ? json_object_get_string(f) : "";
		char buf[64];

		if (strncasecmp(s, "region:", 7) != 0) {
			prov_copy_text(buf, sizeof buf, s);
			prov_page_warn(page,
			    PD " check \"%s\" has a probe filter \"%s\" that is not a "
			       "region; dropped",
			    name, buf);
			continue;
		}
		for (s += 7; *s == ' '; s++)
			;
		prov_copy_text(buf, sizeof buf, s);
		if (buf[0] != '\0')
			json_object_array_add(out, json_object_new_string(buf));
	}
	return out;
}

/* One request header into h, unless it is Pingdom's own User-Agent. */
static void
header_add(json_object *h, const char *name, size_t nlen, const char *value)
{
	char *n;

	if (nlen == 0 || nlen > 255 || strlen(value) > PROV_MAX_STR)
		return;
	if (nlen == 10 && strncasecmp(name, "User-Agent", 10) == 0 &&
	    strncmp(value, "Pingdom.com_bot", 15) == 0)
		return;
	n = xstrndup(name, nlen);
	json_object_object_add(h, n, json_object_new_string(value));
	free(n);
}

/* requestheaders: a name → value object in answers ("Name:Value" strings
 * are the write form; both are read). */
static json_object *
headers_of(json_object *rh)
{
	json_object *h = json_object_new_object();

	if (json_object_is_type(rh, json_type_object)) {
		json_object_object_foreach (rh, key, val) {
			if (json_object_is_type(val, json_type_string))
				header_add(h, key, strlen(key), json_object_get_string(val));
		}
	} else if (json_object_is_type(rh, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(rh) && i < 100; i++) {
			json_object *e = json_object_array_get_idx(rh, i);
			const char *s =
			    json_object_is_type(e, json_type_string) ? json_object_get_string(e) : "";
			const char *colon = strchr(s, ':');

			if (colon != NULL)
				header_add(h, s, (size_t)(colon - s), colon + 1 + (colon[1] == ' '));
		}
	}
	return h;
}

/* The URL of an http/httpcustom check (§2.2): https when encryption, the
 * port unless the scheme's default, then the path and query. malloc'd. */
static char *
http_url(const char *host, json_object *t)
{
	bool tls = prov_get_bool(t, "encryption", false);
	int64_t port = prov_int_or(t, "port", 0);
	const char *path = prov_get_text(t, "url", PROV_MAX_STR);
	char pb[16] = "";

	if (port > 0 && port <= 65535 && port != (tls ? 443 : 80))
		snprintf(pb, sizeof pb, ":%lld", (long long)port);
	if (path == NULL)
		path = "/";
	return xasprintf("%s://%s%s%s%s", tls ? "https" : "http", host, pb, path[0] == '/' ? "" : "/", path);
}

/* The settings of an http/httpcustom check. *url is malloc'd. */
static void
fill_http(struct prov_monitor *m, json_object *t, const char *host, char **url)
{
	const char *yes = prov_get_text(t, "shouldcontain", PROV_MAX_STR);
	const char *no = prov_get_text(t, "shouldnotcontain", PROV_MAX_STR);
	const char *post = prov_get_str(t, "postdata", PROV_MAX_STR);

	if (host != NULL)
		m->url = *url = http_url(host, t);
	m->port = prov_int_or(t, "port", -1);
	if (yes != NULL || no != NULL) {
		m->type = "keyword";
		m->keyword = yes != NULL ? yes : no;
		m->keyword_up_when = yes != NULL ? "present" : "absent";
	}
	m->http_method = post != NULL && *post != '\0' ? "POST" : "GET";
	m->request_body = post != NULL && *post != '\0' ? post : NULL;
	m->request_headers = headers_of(prov_get(t, "requestheaders"));
	m->verify_ssl = prov_get(t, "verify_certificate") == NULL ? PROV_UNSET :
	    prov_get_bool(t, "verify_certificate", true)          ? PROV_YES :
	                                                            PROV_NO;
	m->ssl_expiry_days = prov_int_or(t, "ssl_down_days_before", 0);
}

/* The settings of a tcp, udp, smtp, pop3 or imap check: the port, what to
 * send and the answer that means up. */
static void
fill_port(struct prov_monitor *m, json_object *t)
{
	const char *expect = prov_get_text(t, "stringtoexpect", PROV_MAX_STR);

	m->port = prov_int_or(t, "port", -1);
	m->request_body = prov_get_text(t, "stringtosend", PROV_MAX_STR);
	if (expect != NULL) {
		m->keyword = expect;
		m->keyword_up_when = "present";
	}
}

/* The settings of a dns check (spec DnsAttributes: "nameserver" the server
 * asked, "expectedip" the address it must answer). Pingdom names no record
 * type: the expected address's family says it (A or AAAA). */
static void
fill_dns(struct prov_monitor *m, json_object *t, struct prov_page *page)
{
	size_t bad;

	m->dns_nameserver = prov_get_text(t, "nameserver", 255);
	m->dns_expected = prov_dns_ips(prov_get(t, "expectedip"), &m->dns_record_type, &bad);
	if (bad > 0)
		prov_page_warn(page, PD " check \"%s\" expects an answer that is no IP address; not imported",
		    m->name);
}

/* Alert timing (spec DetailedCheckAttributes and "Create new check":
 * sendnotificationwhendown "Send notification when down X times";
 * notifyagainevery "Notify again every n result. 0 means that no extra
 * notifications will be sent"): after that many down results, and again
 * every n results, each m->interval seconds apart. A value out of range is
 * left out, with a warning. */
static void
alert_timing(struct prov_monitor *m, json_object *d, struct prov_page *page)
{
	int64_t n;

	if (prov_get_int_in(d, "sendnotificationwhendown", 1, PD_MAX_DOWNS, &n))
		m->alert_after_checks = n;
	else if (prov_get(d, "sendnotificationwhendown") != NULL)
		prov_page_warn(page,
		    PD " check \"%s\" has a sendnotificationwhendown that is no count "
		       "from 1 to %d; when it alerts was not imported",
		    m->name, PD_MAX_DOWNS);
	/* n <= PD_MAX_TIME_S and interval <= INT32_MAX: the product fits */
	if (prov_get_int_in(d, "notifyagainevery", 0, PD_MAX_TIME_S, &n) && n * m->interval <= PD_MAX_TIME_S)
		m->realert_s = n * m->interval;
	else if (prov_get(d, "notifyagainevery") != NULL)
		prov_page_warn(page,
		    PD " check \"%s\" has a notifyagainevery that is no count of "
		       "results within %d s; how often it alerts again was not imported",
		    m->name, PD_MAX_TIME_S);
}

/* What a custom HTTP check tests (Pingdom's "HTTP Custom Check",
 * documentation.solarwinds.com/en/Success_Center/pingdom/content/topics/
 * http-custom-check.htm): the XML it reads,
 * <pingdom_http_custom_check><status>OK</status>..., is up only when the
 * status is OK. */
static json_object *
custom_check_assertions(void)
{
	json_object *a = json_object_new_array();

	json_object_array_add(a, prov_assertion("xml", "/pingdom_http_custom_check/status", "equals", "OK"));
	return a;
}

/* The settings only the detail has (d: its "check" object); *links_unread as
 * check_links says. */
static void
fill_detail(struct prov_monitor *m, json_object *d, const char *type, json_object *t,
    const struct pd_links *l, char **url, struct prov_page *page, bool *links_unread)
{
	int64_t ms = prov_int_in_or(d, "responsetime_threshold", 0, INT32_MAX, 0);
	bool http = type != NULL && strcmp(type, "http") == 0;

	if (http || (type != NULL && strcmp(type, "httpcustom") == 0))
		fill_http(m, t, m->url, url);
	else if (type != NULL && strcmp(type, "dns") == 0)
		fill_dns(m, t, page);
	else if (type != NULL && strcmp(type, "ping") != 0)
		fill_port(m, t);
	if (type != NULL && strcmp(type, "httpcustom") == 0)
		m->assertions = custom_check_assertions();
	if (http) {
		/* spec HttpAttributesGet: the target's basic-auth login; the password
		 * is sealed by discovery (prov_seal_keys) and redacted in check_raw */
		m->auth_username = prov_get_text(t, "username", 255);
		m->auth_password = prov_get_str(t, "password", PD_MAX_SECRET);
		if (m->auth_password == NULL && prov_get(t, "password") != NULL)
			prov_page_warn(page,
			    PD " check \"%s\" logs in with a password that is not text of "
			       "at most %d bytes; enter it again",
			    m->name, PD_MAX_SECRET);
	} else if (prov_get_text(t, "username", PROV_MAX_STR) != NULL)
		prov_page_warn(page,
		    PD " check \"%s\" logs in to its target; the user name and "
		       "password were not imported",
		    m->name);
	alert_timing(m, d, page);
	m->timeout = ms > 0 ? (ms + 999) / 1000 : 0;
	m->regions = regions_of(prov_get_array(d, "probe_filters"), m->name, page);
	m->contact_ids = check_links(d, l, m->name, page, links_unread);
}

/* Member key of the detail d, else of the list entry c. */
static json_object *
pick(json_object *d, json_object *c, const char *key)
{
	return prov_get(d, key) != NULL ? d : c;
}

/* The stored copy of a check: src, with "[redacted]" for the target's login
 * password. */
static json_object *
check_raw(json_object *src)
{
	json_object *raw = NULL, *t;

	check_type_name(src, &t);
	if (t == NULL || prov_get(t, "password") == NULL)
		return json_object_get(src);
	if (json_object_deep_copy(src, &raw, NULL) != 0)
		return json_object_new_object();
	check_type_name(raw, &t);
	json_object_object_add(t, "password", json_object_new_string("[redacted]"));
	return raw;
}

/* What only a check's detail gives (the list has its name, host name, type
 * without its keyword, interval, status and tags); the password by the name
 * of the account's column, as discovery seals it (prov_seal_keys). */
static const char *const detail_keys[] = { "type", "url", "port", "keyword", "keyword_up_when",
	"keyword_case_sensitive", "http_method", "request_body", "request_headers", "expected_status_codes",
	"alert_status_codes", "timeout", "follow_redirects", "verify_ssl", "ssl_expiry_days", "regions",
	"contact_ids", "alert_after_checks", "realert_s", "dns_record_type", "dns_expected", "dns_nameserver",
	"assertions", "auth_username", "auth_password_sealed", NULL };

/* Add check c (list entry) as a monitor; d is its detail ("check" object),
 * or NULL when only the list could be read (failed says why). */
static void
add_check(json_object *c, json_object *d, const char *failed, const char *id, const struct pd_links *l,
    struct prov_page *page)
{
	struct prov_monitor m = { 0 };
	json_object *t, *norm;
	bool links_unread = false;
	char why[300];
	const char *status = prov_get_str(pick(d, c, "status"), "status", 64), *type;
	char *url = NULL;

	m.name = prov_get_text(pick(d, c, "name"), "name", PROV_MAX_STR);
	m.url = prov_get_text(pick(d, c, "hostname"), "hostname", PROV_MAX_STR);
	if (m.name == NULL)
		m.name = m.url != NULL ? m.url : id;
	type = check_type_name(pick(d, c, "type"), &t);
	m.type = prov_map_other(check_types, type, page, PD " check", m.name, "type");
	m.interval = prov_int_in_or(pick(d, c, "resolution"), "resolution", 1, INT32_MAX / 60, 5) * 60;
	m.paused = status != NULL && strcmp(status, "paused") == 0;
	m.port = -1;
	m.tags = tag_names(prov_get_array(pick(d, c, "tags"), "tags"));
	if (d != NULL)
		fill_detail(&m, d, type, t, l, &url, page, &links_unread);
	norm = prov_norm_monitor(&m);
	if (d == NULL) {
		utf8_format(why, sizeof why, "its details could not be read (%s)", failed);
		prov_unread(norm, why, detail_keys);
	} else if (links_unread)
		prov_unread(norm, "the contacts or teams it alerts could not be read", prov_contact_keys);
	prov_page_add(page, "monitor", id, check_raw(d != NULL ? d : c), norm);
	free(url);
}

/* ---------------------------------------------------- maintenance windows */

/* The field table (at the end) maps the fields that are copied as they are. */
static const struct prov_field window_fields[];

static void
add_window(json_object *w, const char *id, struct prov_page *page)
{
	struct prov_maintenance_window mw = { 0 };
	json_object *checks = prov_get_object(w, "checks"), *tms = prov_get_array(checks, "tms");
	int64_t from = 0, to = 0, until = 0, last, every = prov_int_or(w, "repeatevery", 0);
	struct time_civil c;
	char start[21], end[21];

	prov_map(window_fields, w, &mw);
	if (mw.name == NULL)
		mw.name = id;
	mw.recurrence = prov_map_other(recurrences, prov_get_str(w, "recurrencetype", 32), page,
	    PD " maintenance window", mw.name, "recurrence");
	/* unix seconds (§2.2); 0: not set */
	prov_get_time(w, "from", TIME_EPOCH, NULL, &from);
	prov_get_time(w, "to", TIME_EPOCH, NULL, &to);
	prov_get_time(w, "effectiveto", TIME_EPOCH, NULL, &until);
	mw.start = from > 0 && time_format_iso(from, true, start) == 0 ? start : NULL;
	/* Once: the window's end; recurring: when the repetition ends. */
	last = strcmp(mw.recurrence, "once") == 0 ? to : until;
	mw.end = last > 0 && time_format_iso(last, true, end) == 0 ? end : NULL;
	mw.duration = from > 0 && to > from ? (to - from + 59) / 60 : 0;
	mw.days = json_object_new_array();
	time_civil_of(from, NULL, &c); /* days in UTC, the zone below */
	if (from > 0 && strcmp(mw.recurrence, "weekly") == 0)
		json_object_array_add(mw.days, json_object_new_int(c.weekday));
	else if (from > 0 && strcmp(mw.recurrence, "monthly") == 0)
		json_object_array_add(mw.days, json_object_new_int(c.day));
	mw.timezone = "UTC";
	mw.monitor_ids = prov_id_list(prov_get_array(checks, "uptime"), NULL);
	if (every > 1 && strcmp(mw.recurrence, "once") != 0)
		prov_page_warn(page,
		    PD " maintenance window \"%s\" repeats only every %lld %s; imported "
		       "as %s",
		    mw.name, (long long)every, mw.recurrence, mw.recurrence);
	if (tms != NULL && json_object_array_length(tms) > 0)
		prov_page_warn(page,
		    PD " maintenance window \"%s\" also covers %zu transaction check%s, "
		       "which are not imported",
		    mw.name, json_object_array_length(tms), json_object_array_length(tms) == 1 ? "" : "s");
	prov_page_add(page, "maintenance_window", id, json_object_get(w), prov_norm_maintenance_window(&mw));
}

/* ---------------------------------------------------------------- pages */

/* The error of a non-2xx answer, with Pingdom's own text when it sent one. */
static enum prov_status
answer_error(const struct httpc_resp *resp, struct prov_error *err)
{
	enum prov_status st = httpc_classify(resp, PD, "API token", err);
	char text[160];

	if (st == PROV_OK)
		return st;
	prov_body_message(resp, text, sizeof text);
	if (st == PROV_AUTH)
		prov_fail(err, PROV_AUTH, PD " rejected the API token%s%s%s", text[0] ? " (" : "", text,
		    text[0] ? ")" : "");
	else if (text[0] != '\0' && st != PROV_RATE_LIMITED) {
		size_t l = strlen(err->message);
		utf8_format(err->message + l, sizeof err->message - l, ": %s", text);
	}
	return st;
}

/* The answer's JSON and its list under key (*list NULL when absent). */
static json_object *
answer_list(const struct httpc_resp *resp, const char *key, json_object **list, struct prov_error *err)
{
	json_object *root = prov_parse_json(resp, PD, err);

	*list = NULL;
	if (root == NULL)
		return NULL;
	*list = prov_get_array(root, key);
	if (*list == NULL && prov_get(root, key) != NULL) {
		json_object_put(root);
		prov_fail(err, PROV_TRANSIENT, PD " sent a %s list that is not an array", key);
		return NULL;
	}
	return root;
}

/* An entry's id into id; false (with a warning) when it has none. */
static bool
entry_id(json_object *it, char *id, size_t size, struct prov_page *page)
{
	if (json_object_is_type(it, json_type_object) && prov_get_id(it, "id", id, size) == 0)
		return true;
	prov_page_warn(page, PD " sent an entry without a usable id; skipped");
	return false;
}

/* The cursor after n checks read at off: the next page, or the contacts. */
static void
checks_next(json_object *root, int64_t off, size_t n, size_t listed, struct prov_page *page)
{
	int64_t total = -1;

	prov_get_int(prov_get_object(root, "counts"), "total", &total);
	if (n > 0 && (n < listed || (total >= 0 ? off + (int64_t)n < total : n >= PD_LIMIT))) {
		page->next_cursor = prov_cursor_make("checks", off + (int64_t)n);
		return;
	}
	page->next_cursor = prov_cursor_make("contacts", 0);
}

/* The contacts or maintenance list: items and the next cursor. */
static void
parse_other(size_t ph, int64_t off, json_object *list, struct prov_page *page)
{
	size_t n = list ? json_object_array_length(list) : 0;
	char id[192];

	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, PD " sent %zu entries in one page; only the first %d were kept", n,
		    PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);

		if (!entry_id(it, id, 160, page))
			continue;
		if (ph == PH_CONTACTS)
			add_contact(it, id, page);
		else
			add_window(it, id, page);
	}
	if (ph == PH_CONTACTS)
		page->next_cursor = prov_cursor_make("maintenance", 0);
	else if (n >= PD_MW_LIMIT)
		page->next_cursor = prov_cursor_make("maintenance", off + (int64_t)n);
}

/* A refused contacts or maintenance list (providers.md §12): skip the kind. */
static bool
refused_kind(size_t ph, const struct httpc_resp *resp, struct prov_page *page)
{
	if (ph == PH_CHECKS || (resp->status != 401 && resp->status != 403))
		return false;
	prov_skip_kind(page, PD, ph == PH_CONTACTS ? "contacts" : "maintenance windows", resp->status);
	if (ph == PH_CONTACTS)
		page->next_cursor = prov_cursor_make("maintenance", 0);
	return true;
}

/* The checks list alone (no details: the fetch adds them, see the top). */
enum prov_status
pingdom_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	static const char *const keys[] = { "checks", "contacts", "maintenance" };
	json_object *root, *list;
	size_t ph, n, listed;
	int64_t off;
	enum prov_status st;
	char id[192];

	if (prov_cursor_parse(cursor, phases, 0, &ph, &off) != 0)
		return prov_bad_checkpoint(err, PD);
	if (refused_kind(ph, resp, page))
		return PROV_OK;
	if ((st = answer_error(resp, err)) != PROV_OK)
		return st;
	if ((root = answer_list(resp, keys[ph], &list, err)) == NULL)
		return err->status;
	if (ph != PH_CHECKS) {
		parse_other(ph, off, list, page);
		json_object_put(root);
		return PROV_OK;
	}
	listed = n = list ? json_object_array_length(list) : 0;
	if (n > PD_LIMIT)
		n = PD_LIMIT; /* more than asked for: the rest on the next page */
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);

		if (entry_id(it, id, 160, page))
			add_check(it, NULL, "only the checks list was read", id, NULL, page);
	}
	checks_next(root, off, n, listed, page);
	json_object_put(root);
	return PROV_OK;
}

/* ---------------------------------------------------------------- fetch */

struct pd_fetch {
	struct prov_session *s;
	const char *headers[2]; /* the Authorization header */
	struct httpc_resp resp; /* the last answer */
	int silent;             /* details in a row that got no answer (timeout, connection) */
	struct prov_error last; /* why the last of them failed */
};

/* GET one of the alerting lists for the links. *root NULL when refused or
 * not there (401, 403, 404; the caller warns); an error status when it must
 * be retried (rate limit, server error, bad answer). */
static enum prov_status
lookup_list(struct pd_fetch *f, const char *what, json_object **root, json_object **list,
    struct prov_error *err)
{
	enum prov_status st =
	    prov_get_into(f->s, f->headers, NULL, &f->resp, err, "/api/3.1/alerting/%s", what);

	*root = *list = NULL;
	if (st != PROV_OK)
		return st;
	if (f->resp.status == 401 || f->resp.status == 403 || f->resp.status == 404)
		return PROV_OK;
	if ((st = answer_error(&f->resp, err)) != PROV_OK)
		return st;
	*root = answer_list(&f->resp, what, list, err);
	return *root != NULL ? PROV_OK : err->status;
}

/* The contacts and teams that a page of checks links to. */
static enum prov_status
lookup_links(struct pd_fetch *f, int64_t off, json_object *roots[2], struct pd_links *l,
    struct prov_page *page, struct prov_error *err)
{
	enum prov_status st = lookup_list(f, "contacts", &roots[0], &l->contacts, err);
	long status = f->resp.status;

	if (st != PROV_OK)
		return st;
	if (roots[0] == NULL)
		prov_page_warn(page,
		    PD " refused the contacts list for this key (HTTP %ld): the checks' "
		       "alert recipients are not linked",
		    status);
	st = lookup_list(f, "teams", &roots[1], &l->teams, err);
	if (st == PROV_OK && roots[1] == NULL && off == 0)
		prov_skip_kind(page, PD, "teams", f->resp.status);
	return st;
}

/* The detail of check id: its "check" object (a new reference), or NULL
 * with a warning; or NULL with *limited when the rate limit stopped it (a
 * refusal, or the request held back while the session waits), e saying so. */
static json_object *
detail_of(struct pd_fetch *f, const char *id, const char *name, bool *limited, struct prov_error *e,
    struct prov_page *page)
{
	json_object *root, *d = NULL;
	enum prov_status st =
	    prov_get_into(f->s, f->headers, NULL, &f->resp, e, "/api/3.1/checks/%s?include_teams=true", id);

	*limited =
	    st == PROV_RATE_LIMITED || (st == PROV_OK && (f->resp.status == 429 || f->resp.status == 420));
	f->silent = st == PROV_OK || *limited ? 0 : f->silent + 1;
	if (*limited) {
		if (st == PROV_OK)
			answer_error(&f->resp, e);
		return NULL;
	}
	if (st != PROV_OK)
		f->last = *e;
	else if ((st = answer_error(&f->resp, e)) == PROV_OK &&
	    (root = prov_parse_json(&f->resp, PD, e)) != NULL) {
		d = json_object_get(prov_get_object(root, "check"));
		json_object_put(root);
		if (d == NULL)
			snprintf(e->message, sizeof e->message, "the answer has no check");
	}
	if (d == NULL)
		prov_page_warn(page,
		    PD " check \"%s\": its details could not be read (%s); imported "
		       "from the list only (host name, no path, keyword or recipients)",
		    name, e->message[0] ? e->message : "no answer");
	return d;
}

/* A page of checks with their details (see the top of the file). */
static enum prov_status
fetch_checks(struct pd_fetch *f, int64_t off, struct prov_page *page, struct prov_error *err)
{
	json_object *root, *list, *roots[2] = { NULL, NULL };
	struct pd_links l = { NULL, NULL };
	size_t n, listed, done = 0;
	enum prov_status st;
	char id[192];

	st = prov_get_into(f->s, f->headers, NULL, &f->resp, err,
	    "/api/3.1/checks?limit=%d&offset=%lld&include_tags=true", PD_LIMIT, (long long)off);
	if (st != PROV_OK || (st = answer_error(&f->resp, err)) != PROV_OK)
		return st;
	if ((root = answer_list(&f->resp, "checks", &list, err)) == NULL)
		return err->status;
	listed = n = list ? json_object_array_length(list) : 0;
	if (n > PD_LIMIT)
		n = PD_LIMIT; /* more than asked for: the rest on the next page */
	if (n > 0)
		st = lookup_links(f, off, roots, &l, page, err);
	for (; st == PROV_OK && done < n; done++) {
		json_object *it = json_object_array_get_idx(list, done), *d;
		struct prov_error e = { 0 };
		const char *name;
		bool limited;

		if (!entry_id(it, id, 160, page))
			continue;
		name = prov_get_text(it, "name", PROV_MAX_STR);
		d = detail_of(f, id, name != NULL ? name : id, &limited, &e, page);
		if (f->silent >= PD_MAX_SILENT) {
			/* Pingdom is not answering: retry the page later. */
			st = prov_fail(err, PROV_TRANSIENT,
			    PD " did not answer %d check detail requests in a "
			       "row (%s)",
			    f->silent, f->last.message);
			break;
		}
		if (limited) {
			/* The rate limit: this check starts the next page; at the first, the
			 * page itself waits. */
			if (done == 0) {
				*err = e;
				st = e.status;
			}
			break;
		}
		add_check(it, d, e.message[0] ? e.message : "no answer", id, &l, page);
		json_object_put(d);
	}
	if (st == PROV_OK)
		checks_next(root, off, done, listed, page);
	json_object_put(roots[0]);
	json_object_put(roots[1]);
	json_object_put(root);
	return st;
}

static enum prov_status
pingdom_fetch(struct prov_session *s, const char *cursor, struct prov_page *page, struct prov_error *err)
{
	const char *token = prov_cred(s, "api_token");
	struct pd_fetch f = { .s = s };
	char *auth, *url;
	size_t ph;
	int64_t off;
	enum prov_status st;

	if (prov_cursor_parse(cursor, phases, 0, &ph, &off) != 0)
		return prov_bad_checkpoint(err, PD);
	if (token == NULL)
		return prov_no_cred(err, PD, "api_token");
	auth = xasprintf("Authorization: Bearer %s", token);
	if (ph != PH_CHECKS) {
		if (ph == PH_CONTACTS)
			url = prov_url(s, "/api/3.1/alerting/contacts");
		else
			url = prov_url(s, "/api/3.1/maintenance?limit=%d&offset=%lld", PD_MW_LIMIT,
			    (long long)off);
		return prov_fetch_get(s, cursor, url, auth, pingdom_parse, page, err);
	}
	f.headers[0] = auth;
	st = fetch_checks(&f, off, page, err);
	return prov_fetch_done(s, st, &f.resp, auth, page, err);
}

const struct provider_ops pingdom_ops = { pingdom_fetch };

/* The fate of each field (providers/fields.h), and how the table maps those
 * it can: DetailedCheck*, the type attributes, ContactTargets and
 * maintenance_resp_attrs of the official API_3.1.yaml, and go-pingdom's
 * userids (providers.md §2.2). A check is stored as its detail, or as its
 * list entry when the detail failed: its fields are read in code, each from
 * the detail else the list entry, and a type's settings only under the
 * first (the only) member of `type`. */
/* clang-format off */
static const struct prov_field check_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "name", "`monitors.name`", "else `hostname`, else the id" },
	{ "hostname", "`monitors.url`", "the host; http and httpcustom checks add the scheme, port and path of `type.http.*` (list only: the host alone)" },
	{ "status", "`monitors.paused`", "`paused` pauses it; `up`, `down`, `unconfirmed_down`, `unknown` run" },
	{ "resolution", "`monitors.interval_s`", "minutes × 60; 5 minutes when missing or out of range" },
	{ "responsetime_threshold", "`monitors.timeout_s`", "milliseconds, rounded up to seconds" },
	{ "probe_filters", "`monitors.regions`", "the text after `region:`; any other filter is dropped with a warning" },
	{ "tags", "`monitors.tags`", "the names of auto (`a`) and user (`u`) tags alike" },
	{ "userids", "`monitor_contacts`", "every contact item (notification target) of each contact" },
	{ "teams", "`monitor_contacts`", "every contact item of each member of each team (`/alerting/teams`); `teamids` is never returned" },
	{ "type.http.url", "`monitors.url`", "the path and query (`/` when empty)" },
	{ "type.http.encryption", "`monitors.url`", "`https` when set, else `http`" },
	{ "type.http.port", "`monitors.port`, `monitors.url`", "in the URL unless the scheme's default (443, 80)" },
	{ "type.http.shouldcontain", "`monitors.keyword`", "type `keyword`, up when present" },
	{ "type.http.shouldnotcontain", "`monitors.keyword`", "type `keyword`, up when absent" },
	{ "type.http.postdata", "`monitors.request_body`, `monitors.http_method`", "set: `POST` with it as the body; else `GET`" },
	{ "type.http.requestheaders", "`monitors.request_headers`", "without Pingdom's own `User-Agent: Pingdom.com_bot…` (a User-Agent the user set is kept)" },
	{ "type.http.verify_certificate", "`monitors.verify_ssl`", NULL },
	{ "type.http.ssl_down_days_before", "`monitors.ssl_expiry_days`", NULL },
	{ "type.http.username", "`monitors.auth_username`", "the basic-auth user name the check sends" },
	{ "type.http.password", "`monitors.auth_password_sealed`", "sealed before it is stored; the stored copy of the check holds `[redacted]`; never shown; longer than 1000 bytes: not imported, with a warning" },
	{ "type.httpcustom.url", "`monitors.url`, `monitors.assertions`", "the path of the XML file Pingdom reads; type `http` with the assertion that the file's `/pingdom_http_custom_check/status` equals `OK` (Pingdom's rule: any other status is down)" },
	{ "type.httpcustom.encryption", "`monitors.url`", "`https` when set, else `http`" },
	{ "type.httpcustom.port", "`monitors.port`, `monitors.url`", "in the URL unless the scheme's default (443, 80)" },
	{ "type.httpcustom.verify_certificate", "`monitors.verify_ssl`", NULL },
	{ "type.httpcustom.ssl_down_days_before", "`monitors.ssl_expiry_days`", NULL },
	{ "type.httpcustom.additionalurls", NULL, "A custom check's further XML files (`;`-separated URLs) have no place in the account; only its main URL is checked." },
	{ "type.tcp.port", "`monitors.port`", NULL },
	{ "type.tcp.stringtosend", "`monitors.request_body`", NULL },
	{ "type.tcp.stringtoexpect", "`monitors.keyword`", "up when present" },
	{ "type.udp.port", "`monitors.port`", NULL },
	{ "type.udp.stringtosend", "`monitors.request_body`", NULL },
	{ "type.udp.stringtoexpect", "`monitors.keyword`", "up when present" },
	{ "type.dns.nameserver", "`monitors.dns_nameserver`", NULL },
	{ "type.dns.expectedip", "`monitors.dns_expected`, `monitors.dns_record_type`", "the address the answer must hold; Pingdom names no record type: `A` for an IPv4 address, `AAAA` for an IPv6 one; not an IP address: not imported, with a warning" },
	{ "type.smtp.port", "`monitors.port`", NULL },
	{ "type.smtp.stringtoexpect", "`monitors.keyword`", "up when present" },
	{ "type.smtp.encryption", NULL, "Whether an SMTP check uses TLS has no place in the account." },
	{ "type.smtp.username", prov_enter_again, "The login the check sends is not imported (its password neither): the moved check will fail until it is entered again." },
	{ "type.smtp.password", prov_enter_again, "A password is never imported (nor stored with the run): the moved check will fail until it is entered again." },
	{ "type.pop3.port", "`monitors.port`", NULL },
	{ "type.pop3.stringtoexpect", "`monitors.keyword`", "up when present" },
	{ "type.imap.port", "`monitors.port`", NULL },
	{ "type.imap.stringtoexpect", "`monitors.keyword`", "up when present" },
	{ "integrationids", NULL, "Pingdom's API cannot list integrations (webhooks), so they are not imported; a warning names how many the check alerts." },
	{ "sendnotificationwhendown", "`monitors.alert_after_checks`", "alert after this many down results in a row (1–1000000, else NULL with a warning)" },
	{ "notifyagainevery", "`monitors.realert_s`", "alert again every this many results: × `resolution` × 60 s; 0 (no repeat): NULL, the account's default; more than 100000000 s: NULL, with a warning" },
	{ "notifywhenbackup", NULL, "Whether to alert when the check is back up has no place in the account." },
	{ "custom_message", NULL, "The text Pingdom adds to its alerts has no place in the account." },
	{ "severity_level", NULL, "Pingdom's alert severity (high or low) has no place in the account." },
	{ "ipv6", NULL, "Testing over IPv6 instead of IPv4 has no place in the account." },
	{ "encryption", NULL, "The list's copy of the scheme (with `showencryption`); the URL takes it from the detail's `type.http.encryption`." },
	{ "created", NULL, "When the check was created at Pingdom: state, not a setting." },
	{ "lasttesttime", NULL, "State at Pingdom, not a setting." },
	{ "lasterrortime", NULL, "State at Pingdom, not a setting." },
	{ "lastresponsetime", NULL, "State at Pingdom, not a setting." },
	{ "lastdownstart", NULL, "State at Pingdom, not a setting." },
	{ "lastdownend", NULL, "State at Pingdom, not a setting." },
	{ NULL, NULL, NULL }
};
static const struct prov_field contact_fields[] = {
	{ "id", "`import_links`", "with the target: `<id>:<kind>:<index>`, one contact per notification target (a contact without targets: `<id>`, type `other`, no address)" },
	{ "name", "`contacts.name`", "else the id; the same for every target of the contact" },
	{ "notification_targets.email[].address", "`contacts.value`", "type `email`" },
	{ "notification_targets.sms[].country_code", "`contacts.value`", "type `sms`: `+<country_code><number>`, leading zeros of the code dropped (`00`: the number alone)" },
	{ "notification_targets.sms[].number", "`contacts.value`", "type `sms`" },
	{ "notification_targets.apns[].device_name", "`contacts.value`", "type `push`, `needs_address` 1: a phone of the Pingdom app cannot be carried over" },
	{ "notification_targets.email[].severity", NULL, "Which of Pingdom's alert severities reach this target has no place in the account." },
	{ "notification_targets.sms[].severity", NULL, "Which of Pingdom's alert severities reach this target has no place in the account." },
	{ "notification_targets.sms[].provider", NULL, "The SMS gateway Pingdom sends through; the account uses its own." },
	{ "notification_targets.apns[].severity", NULL, "Which of Pingdom's alert severities reach this target has no place in the account." },
	{ "notification_targets.apns[].apns_device", NULL, "A Pingdom app's device token works only with Pingdom: the contact needs an address." },
	{ "notification_targets.agcm[].agcm_id", NULL, "A Pingdom app's device token works only with Pingdom: the contact (type `push`) needs an address." },
	{ "notification_targets.agcm[].severity", NULL, "Which of Pingdom's alert severities reach this target has no place in the account." },
	{ "paused", NULL, "Alerts paused for this contact at Pingdom are not carried: the imported contact gets alerts." },
	{ "type", NULL, "Whether it is a Pingdom login (`user`) or a contact only has no place in the account." },
	{ "owner", NULL, "Whether it owns the Pingdom organization has no place in the account." },
	{ "teams", NULL, "Teams are not imported as such: the checks that alert a team are linked to each of its members." },
	{ NULL, NULL, NULL }
};
static const struct prov_field window_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "description", "`maintenance_windows.name`", "else the id", PROV_TEXT(maintenance_window, name, PROV_MAX_STR) },
	{ "recurrencetype", "`maintenance_windows.recurrence`", "`none`: `once`, `day`: `daily`, `week`: `weekly`, `month`: `monthly`; another: `other`, with a warning" },
	{ "repeatevery", "`maintenance_windows.recurrence`", "every 1 only: a window repeating every 2nd or later day, week or month is imported as every one, with a warning" },
	{ "from", "`maintenance_windows.starts`, `duration_min`, `days`", "unix seconds as ISO 8601 UTC (`timezone` `UTC`); weekly: its weekday, monthly: its day of the month" },
	{ "to", "`maintenance_windows.ends`, `duration_min`", "`to` − `from` in minutes, rounded up; a window once ends at `to`" },
	{ "effectiveto", "`maintenance_windows.ends`", "a recurring window ends when its repetition does (0: NULL)" },
	{ "checks.uptime", "`maintenance_window_monitors`", "the checks it silences, among those of the same run" },
	{ "checks.tms", NULL, "Transaction (TMS) checks are not imported, so the window does not silence them; a warning names how many." },
	{ NULL, NULL, NULL }
};
/* clang-format on */

const struct prov_fields pingdom_fields[] = {
	{ "monitor", "check (`GET /api/3.1/checks/{id}`, else its `GET /api/3.1/checks` entry)",
	    check_fields },
	{ "contact", "contact (`GET /api/3.1/alerting/contacts`), once per notification target",
	    contact_fields },
	{ "maintenance_window", "maintenance window (`GET /api/3.1/maintenance`)", window_fields },
	{ NULL, NULL, NULL },
};
