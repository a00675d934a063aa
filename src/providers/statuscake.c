/* StatusCake, API v1 (providers.md §3; docs/providers/statuscake.md).
 *
 * GET with "Authorization: Bearer <api_token>", lists paged by page (from 1)
 * and limit (100, the maximum); stop at metadata.page_count.
 * Cursor: "uptime:<page>" → "heartbeat:<page>" → "contact-groups:<page>" → end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"

#define SC "StatusCake"
#define SC_LIMIT 100

enum { PH_UPTIME, PH_HEARTBEAT, PH_GROUPS };
static const char *const phases[] = { "uptime", "heartbeat", "contact-groups", NULL };

static const struct {
	const char *sc, *norm;
} test_types[] = {
	{ "HTTP", "http" }, { "HEAD", "http" }, { "DNS", "dns" }, { "PING", "ping" },
	{ "SMTP", "smtp" }, { "SSH", "ssh" }, { "TCP", "tcp" }, { NULL, NULL }
};

static void
add_uptime(json_object *t, const char *id, struct prov_page *page)
{
	struct prov_monitor m = { 0 };
	const char *name = prov_get_text(t, "name", PROV_MAX_STR);
	const char *url = prov_get_text(t, "website_url", PROV_MAX_STR);
	const char *type = prov_get_str(t, "test_type", 64);
	int64_t port = -1;

	m.name = name ? name : url ? url : id;
	m.url = url;
	m.interval = prov_int_or(t, "check_rate", 300);
	m.paused = prov_get_bool(t, "paused", false);
	m.port = prov_get_int(t, "port", &port) && port > 0 && port <= 65535 ? port : -1;
	m.keyword = prov_get_text(t, "find_string", PROV_MAX_STR);
	m.contact_ids = prov_id_list(prov_get_array(t, "contact_groups"), "id");
	for (size_t i = 0; type != NULL && test_types[i].sc != NULL; i++)
		if (strcasecmp(type, test_types[i].sc) == 0)
			m.type = test_types[i].norm;
	if (m.type == NULL) {
		char tb[64];

		prov_copy_text(tb, sizeof tb, type ? type : "(none)");
		m.type = "other";
		prov_page_warn(page, SC " uptime test \"%s\" has an unknown type %s; kept as other",
		    m.name, tb);
	} else if (strcmp(m.type, "http") == 0 && m.keyword != NULL)
		m.type = "keyword";
	prov_page_add(page, "monitor", id, json_object_get(t), prov_norm_monitor(&m));
}

static void
add_heartbeat(json_object *t, const char *id, struct prov_page *page)
{
	struct prov_heartbeat h = { 0 };
	const char *name = prov_get_text(t, "name", PROV_MAX_STR);
	const char *url = prov_get_text(t, "url", PROV_MAX_STR);

	h.name = name ? name : id;
	h.interval = prov_int_or(t, "period", 0);
	h.grace = 0;
	h.paused = prov_get_bool(t, "paused", false);
	h.ping_url = url;
	h.contact_ids = prov_id_list(prov_get_array(t, "contact_groups"), "id");
	prov_page_add(page, "heartbeat", id, json_object_get(t), prov_norm_heartbeat(&h));
}

/* A contact group becomes one contact per address. The first keeps the
 * group's id, so that the monitors' contact_ids (group ids) find it; the
 * others get "<group>:<kind>:<index>". */
static void
add_group(json_object *g, const char *id, struct prov_page *page)
{
	static const struct {
		const char *key, *type;
	} kinds[] = { { "email_addresses", "email" }, { "mobile_numbers", "sms" }, { NULL, NULL } };
	const char *name = prov_get_text(g, "name", PROV_MAX_STR);
	const char *ping = prov_get_text(g, "ping_url", PROV_MAX_STR);
	json_object *integ = prov_get_array(g, "integrations");
	char xid[192];
	size_t added = 0;

	if (name == NULL)
		name = id;
	for (size_t k = 0; kinds[k].key != NULL; k++) {
		json_object *list = prov_get_array(g, kinds[k].key);

		for (size_t i = 0; list != NULL && i < json_object_array_length(list) && i < 100; i++) {
			json_object *e = json_object_array_get_idx(list, i);
			struct prov_contact ct = { .name = name, .type = kinds[k].type, .value = NULL };

			if (!json_object_is_type(e, json_type_string) || json_object_get_string_len(e) == 0)
				continue;
			ct.value = json_object_get_string(e);
			if (added == 0)
				snprintf(xid, sizeof xid, "%s", id);
			else if (snprintf(xid, sizeof xid, "%s:%s:%zu", id, kinds[k].type, i) >= (int)sizeof xid)
				continue;
			prov_page_add(page, "contact", xid, json_object_get(g), prov_norm_contact(&ct));
			added++;
		}
	}
	if (ping != NULL) {
		struct prov_contact ct = { .name = name, .type = "webhook", .value = ping };

		if (added == 0)
			snprintf(xid, sizeof xid, "%s", id);
		else if (snprintf(xid, sizeof xid, "%s:webhook:0", id) >= (int)sizeof xid)
			xid[0] = '\0';
		if (xid[0] != '\0') {
			prov_page_add(page, "contact", xid, json_object_get(g), prov_norm_contact(&ct));
			added++;
		}
	}
	if (integ != NULL && json_object_array_length(integ) > 0)
		prov_page_warn(page, SC " contact group \"%s\" uses %zu integration(s), which are not "
		    "imported", name, json_object_array_length(integ));
	if (added == 0) {
		struct prov_contact ct = { .name = name, .type = "other", .value = NULL };

		prov_page_add(page, "contact", id, json_object_get(g), prov_norm_contact(&ct));
	}
}

enum prov_status
statuscake_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	json_object *root, *list, *meta;
	size_t ph, n;
	int64_t pg, count = -1;
	enum prov_status st;
	char id[192], text[160];

	if (prov_cursor_parse(cursor, phases, 1, &ph, &pg) != 0 || pg < 1)
		return prov_fail(err, PROV_FATAL, "cannot resume " SC " discovery: bad checkpoint");
	if ((st = httpc_classify(resp, SC, "API token", err)) != PROV_OK) {
		prov_body_message(resp, text, sizeof text);
		if (st == PROV_AUTH)
			prov_fail(err, PROV_AUTH, SC " rejected the API token%s%s%s", text[0] ? " (" : "",
			    text, text[0] ? ")" : "");
		return st;
	}
	if ((root = prov_parse_json(resp, SC, err)) == NULL)
		return err->status;
	list = prov_get_array(root, "data");
	if (list == NULL) {
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, SC " sent an answer without a \"data\" list");
	}
	n = list ? json_object_array_length(list) : 0;
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, SC " sent %zu entries in one page; only the first %d were kept", n,
		    PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);

		if (!json_object_is_type(it, json_type_object) || prov_get_id(it, "id", id, 160) != 0) {
			prov_page_warn(page, SC " sent an entry without a usable id; skipped");
			continue;
		}
		if (ph == PH_UPTIME)
			add_uptime(it, id, page);
		else if (ph == PH_HEARTBEAT)
			add_heartbeat(it, id, page);
		else
			add_group(it, id, page);
	}
	meta = prov_get_object(root, "metadata");
	prov_get_int(meta, "page_count", &count);
	if (n > 0 && (count >= 0 ? pg < count : n >= SC_LIMIT)) {
		if (pg >= PROV_MAX_PAGES)
			prov_page_warn(page, SC " %s: stopped after %d pages", phases[ph], PROV_MAX_PAGES);
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
statuscake_fetch(struct prov_session *s, const char *cursor, struct prov_page *page,
    struct prov_error *err)
{
	const char *token = prov_cred(s, "api_token");
	char *auth, *url;
	size_t ph;
	int64_t pg;

	if (prov_cursor_parse(cursor, phases, 1, &ph, &pg) != 0 || pg < 1)
		return prov_fail(err, PROV_FATAL, "cannot resume " SC " discovery: bad checkpoint");
	if (token == NULL)
		return prov_fail(err, PROV_AUTH, "the " SC " credentials have no usable api_token");
	url = prov_url(s, "/v1/%s?page=%lld&limit=%d", phases[ph], (long long)pg, SC_LIMIT);
	auth = xasprintf("Authorization: Bearer %s", token);
	return prov_fetch_get(s, cursor, url, auth, statuscake_parse, page, err);
}

const struct provider_ops statuscake_ops = { statuscake_fetch };
