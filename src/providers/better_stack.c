/* Better Stack Uptime, API v2 (providers.md §4; docs/providers/better_stack.md).
 *
 * GET with "Authorization: Bearer <api_token>" (and team_name in the query
 * when given, for global tokens). JSON:API lists paged by page (from 1) and
 * per_page (250, the maximum); a non-null pagination.next means another page.
 * The next URL itself is not followed: the cursor keeps the page number and
 * the request is rebuilt on the configured base URL, so a provider-supplied
 * URL can never send the token elsewhere.
 * Cursor: "monitors:<page>" → "heartbeats:<page>" → "status-pages:<page>" →
 * "email-integrations:<page>" → "slack-integrations:<page>" →
 * "outgoing-webhooks:<page>" → end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"

#define BS "Better Stack"
#define BS_PER_PAGE 250

enum { PH_MONITORS, PH_HEARTBEATS, PH_STATUS_PAGES, PH_EMAIL, PH_SLACK, PH_WEBHOOKS };
static const char *const phases[] = { "monitors", "heartbeats", "status-pages",
	"email-integrations", "slack-integrations", "outgoing-webhooks", NULL };

static const struct {
	const char *bs, *norm;
} monitor_types[] = {
	{ "status", "http" }, { "expected_status_code", "http" }, { "keyword", "keyword" },
	{ "keyword_absence", "keyword" }, { "ping", "ping" }, { "tcp", "tcp" }, { "udp", "udp" },
	{ "smtp", "smtp" }, { "pop", "pop3" }, { "imap", "imap" }, { "dns", "dns" },
	{ "playwright", "other" }, { NULL, NULL }
};

static bool
is_paused(json_object *a)
{
	const char *status = prov_get_str(a, "status", 64);

	return prov_get(a, "paused_at") != NULL || prov_get_bool(a, "paused", false) ||
	    (status != NULL && strcmp(status, "paused") == 0);
}

static void
add_monitor(json_object *item, json_object *a, const char *id, struct prov_page *page)
{
	struct prov_monitor m = { 0 };
	const char *name = prov_get_text(a, "pronounceable_name", PROV_MAX_STR);
	const char *url = prov_get_text(a, "url", PROV_MAX_STR);
	const char *type = prov_get_str(a, "monitor_type", 64);
	int64_t port = -1;

	m.name = name ? name : url ? url : id;
	m.url = url;
	m.interval = prov_int_or(a, "check_frequency", 180);
	m.paused = is_paused(a);
	m.port = prov_get_int(a, "port", &port) && port > 0 && port <= 65535 ? port : -1;
	m.keyword = prov_get_text(a, "required_keyword", PROV_MAX_STR);
	for (size_t i = 0; type != NULL && monitor_types[i].bs != NULL; i++)
		if (strcmp(type, monitor_types[i].bs) == 0)
			m.type = monitor_types[i].norm;
	if (m.type == NULL) {
		char tb[64];

		prov_copy_text(tb, sizeof tb, type ? type : "(none)");
		m.type = "other";
		prov_page_warn(page, BS " monitor \"%s\" has an unknown type %s; kept as other", m.name, tb);
	} else if (strcmp(type, "keyword_absence") == 0)
		prov_page_warn(page, BS " monitor \"%s\" alerts when the keyword is present; it was "
		    "imported as a keyword check: review it", m.name);
	if (strcmp(m.type, "keyword") != 0)
		m.keyword = NULL;
	prov_page_add(page, "monitor", id, json_object_get(item), prov_norm_monitor(&m));
}

static void
add_heartbeat(json_object *item, json_object *a, const char *id, struct prov_page *page)
{
	struct prov_heartbeat h = { 0 };
	const char *name = prov_get_text(a, "name", PROV_MAX_STR);

	h.name = name ? name : id;
	h.interval = prov_int_or(a, "period", 0);
	h.grace = prov_int_or(a, "grace", 0);
	h.paused = is_paused(a);
	h.ping_url = prov_get_text(a, "url", PROV_MAX_STR);
	prov_page_add(page, "heartbeat", id, json_object_get(item), prov_norm_heartbeat(&h));
}

static void
add_status_page(json_object *item, json_object *a, const char *id, struct prov_page *page)
{
	struct prov_status_page sp = { 0 };
	const char *name = prov_get_text(a, "company_name", PROV_MAX_STR);
	const char *domain = prov_get_text(a, "custom_domain", 253);
	const char *sub = prov_get_text(a, "subdomain", 253);
	char url[300];

	sp.name = name ? name : sub ? sub : id;
	if (domain != NULL)
		snprintf(url, sizeof url, "https://%s", domain);
	else if (sub != NULL)
		snprintf(url, sizeof url, "https://%s.betteruptime.com", sub);
	sp.url = domain != NULL || sub != NULL ? url : NULL;
	sp.public_ = !prov_get_bool(a, "password_enabled", false) && prov_get_bool(a, "published", true);
	prov_page_add(page, "status_page", id, json_object_get(item), prov_norm_status_page(&sp));
}

static void
add_contact(size_t ph, json_object *item, json_object *a, const char *id, struct prov_page *page)
{
	struct prov_contact ct = { 0 };
	const char *name = prov_get_text(a, "name", PROV_MAX_STR);
	char xid[192], label[300];

	if (ph == PH_EMAIL) {
		ct.type = "email";
		ct.value = prov_get_text(a, "email_address", PROV_MAX_STR);
		snprintf(xid, sizeof xid, "email:%s", id);
	} else if (ph == PH_SLACK) {
		const char *chan = prov_get_text(a, "slack_channel_name", 200);
		const char *team = prov_get_text(a, "slack_team_name", 80);

		ct.type = "slack";
		ct.value = chan;
		if (name == NULL && chan != NULL) {
			snprintf(label, sizeof label, "%s%s%s", team ? team : "", team ? " " : "", chan);
			name = label;
		}
		snprintf(xid, sizeof xid, "slack:%s", id);
	} else {
		ct.type = "webhook";
		ct.value = prov_get_text(a, "url", PROV_MAX_STR);
		snprintf(xid, sizeof xid, "webhook:%s", id);
	}
	ct.name = name ? name : ct.value ? ct.value : xid;
	prov_page_add(page, "contact", xid, json_object_get(item), prov_norm_contact(&ct));
}

enum prov_status
better_stack_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	json_object *root, *list, *next;
	size_t ph, n;
	int64_t pg;
	enum prov_status st;
	char id[160];

	if (prov_cursor_parse(cursor, phases, 1, &ph, &pg) != 0 || pg < 1)
		return prov_fail(err, PROV_FATAL, "cannot resume " BS " discovery: bad checkpoint");
	if ((st = httpc_classify(resp, BS, "API token", err)) != PROV_OK) {
		if (st == PROV_AUTH)
			prov_fail(err, PROV_AUTH, BS " rejected the API token (HTTP %ld); use a Team API "
			    "token, or give team_name with a global token", resp->status);
		return st;
	}
	if ((root = prov_parse_json(resp, BS, err)) == NULL)
		return err->status;
	if ((list = prov_get_array(root, "data")) == NULL) {
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, BS " sent an answer without a \"data\" list");
	}
	n = json_object_array_length(list);
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, BS " sent %zu entries in one page; only the first %d were kept", n,
		    PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);
		json_object *a = prov_get_object(it, "attributes");

		if (a == NULL || prov_get_id(it, "id", id, sizeof id) != 0) {
			prov_page_warn(page, BS " sent an entry of %s without id or attributes; skipped",
			    phases[ph]);
			continue;
		}
		switch (ph) {
		case PH_MONITORS:
			add_monitor(it, a, id, page);
			break;
		case PH_HEARTBEATS:
			add_heartbeat(it, a, id, page);
			break;
		case PH_STATUS_PAGES:
			add_status_page(it, a, id, page);
			break;
		default:
			add_contact(ph, it, a, id, page);
			break;
		}
	}
	if (ph == PH_STATUS_PAGES && n > 0)
		prov_page_warn(page, BS " status page sections and resources are not imported: add the "
		    "monitors to the imported status pages");

	next = prov_get(prov_get_object(root, "pagination"), "next");
	if (n > 0 && json_object_is_type(next, json_type_string) && json_object_get_string_len(next) > 0) {
		if (pg >= PROV_MAX_PAGES)
			prov_page_warn(page, BS " %s: stopped after %d pages", phases[ph], PROV_MAX_PAGES);
		else {
			page->next_cursor = prov_cursor_make(phases[ph], pg + 1);
			json_object_put(root);
			return PROV_OK;
		}
	}
	if (phases[ph + 1] != NULL)
		page->next_cursor = prov_cursor_make(phases[ph + 1], 1);
	json_object_put(root);
	return PROV_OK;
}

static enum prov_status
better_stack_fetch(struct prov_session *s, const char *cursor, struct prov_page *page,
    struct prov_error *err)
{
	const char *token = prov_cred(s, "api_token");
	const char *team = prov_cred(s, "team_name");
	char *auth, *url, *q = NULL;
	size_t ph;
	int64_t pg;

	if (prov_cursor_parse(cursor, phases, 1, &ph, &pg) != 0 || pg < 1)
		return prov_fail(err, PROV_FATAL, "cannot resume " BS " discovery: bad checkpoint");
	if (token == NULL)
		return prov_fail(err, PROV_AUTH, "the " BS " credentials have no usable api_token");
	if (team != NULL)
		httpc_form_add(&q, "team_name", team);
	url = prov_url(s, "/api/v2/%s?page=%lld&per_page=%d%s%s", phases[ph], (long long)pg,
	    BS_PER_PAGE, q ? "&" : "", q ? q : "");
	free(q);
	auth = xasprintf("Authorization: Bearer %s", token);
	return prov_fetch_get(s, cursor, url, auth, better_stack_parse, page, err);
}

const struct provider_ops better_stack_ops = { better_stack_fetch };
