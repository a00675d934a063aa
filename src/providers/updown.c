/* updown.io (providers.md §5; docs/providers/updown.md).
 *
 * GET with "X-API-KEY: <api_key>"; the lists are not paged (one answer holds
 * them all), so each phase is one page.
 * Cursor: "checks:0" → "recipients:0" → "status_pages:0" → end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"

#define UD "updown.io"

enum { PH_CHECKS, PH_RECIPIENTS, PH_STATUS_PAGES };
static const char *const phases[] = { "checks", "recipients", "status_pages", NULL };

static const struct {
	const char *ud, *norm;
} recipient_types[] = {
	{ "email", "email" }, { "sms", "sms" }, { "slack", "slack" }, { "telegram", "telegram" },
	{ "webhook", "webhook" }, { "msteams", "teams" }, { "discord", "discord" },
	{ "pushover", "pushover" }, { "zapier", "other" }, { NULL, NULL }
};

/* The port of "scheme://host:port[/…]", or -1. */
static int64_t
url_port(const char *url)
{
	const char *h, *end, *colon;
	int64_t port = 0;

	if (url == NULL || (h = strstr(url, "://")) == NULL)
		return -1;
	h += 3;
	end = h + strcspn(h, "/?#");
	if (*h == '[') {
		const char *close = memchr(h, ']', (size_t)(end - h));
		if (close == NULL)
			return -1;
		h = close;
	}
	if ((colon = memchr(h, ':', (size_t)(end - h))) == NULL || colon + 1 == end || end - colon > 6)
		return -1;
	for (const char *p = colon + 1; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		port = port * 10 + (*p - '0');
	}
	return port > 0 && port <= 65535 ? port : -1;
}

/* The check kind: the "type" field when present, else the URL's scheme. */
static const char *
check_kind(json_object *c, const char *url, char *buf, size_t size)
{
	const char *t = prov_get_text(c, "type", 32);
	size_t n;

	if (t != NULL)
		return t;
	if (url == NULL || (n = strcspn(url, ":")) == 0 || url[n] != ':' || n >= size)
		return NULL;
	memcpy(buf, url, n);
	buf[n] = '\0';
	return buf;
}

static void
add_check(json_object *c, const char *id, struct prov_page *page)
{
	struct prov_monitor m = { 0 };
	const char *alias = prov_get_text(c, "alias", PROV_MAX_STR);
	const char *url = prov_get_text(c, "url", PROV_MAX_STR);
	const char *kind;
	char scheme[32];

	kind = check_kind(c, url, scheme, sizeof scheme);
	m.name = alias ? alias : url ? url : id;
	m.url = url;
	m.interval = prov_int_or(c, "period", 60);
	m.paused = !prov_get_bool(c, "enabled", true);
	m.port = -1;
	m.contact_ids = prov_id_list(prov_get_array(c, "recipients"), "id");
	if (kind != NULL && (strcasecmp(kind, "http") == 0 || strcasecmp(kind, "https") == 0)) {
		m.keyword = prov_get_text(c, "string_match", PROV_MAX_STR);
		m.type = m.keyword != NULL ? "keyword" : "http";
	} else if (kind != NULL && strcasecmp(kind, "icmp") == 0)
		m.type = "ping";
	else if (kind != NULL && (strcasecmp(kind, "tcp") == 0 || strcasecmp(kind, "tcps") == 0)) {
		m.type = "tcp";
		m.port = url_port(url);
	} else {
		char kb[40];

		prov_copy_text(kb, sizeof kb, kind ? kind : "(none)");
		m.type = "other";
		prov_page_warn(page, UD " check \"%s\" is of kind %s, which has no equivalent; kept as "
		    "other", m.name, kb);
	}
	prov_page_add(page, "monitor", id, json_object_get(c), prov_norm_monitor(&m));
}

static void
add_recipient(json_object *r, const char *id, struct prov_page *page)
{
	struct prov_contact ct = { 0 };
	const char *name = prov_get_text(r, "name", PROV_MAX_STR);
	const char *type = prov_get_text(r, "type", 32);

	ct.value = prov_get_text(r, "value", PROV_MAX_STR);
	ct.name = name ? name : ct.value ? ct.value : id;
	for (size_t i = 0; type != NULL && recipient_types[i].ud != NULL; i++)
		if (strcmp(type, recipient_types[i].ud) == 0)
			ct.type = recipient_types[i].norm;
	if (ct.type == NULL) {
		char tb[40];

		prov_copy_text(tb, sizeof tb, type ? type : "(none)");
		ct.type = "other";
		prov_page_warn(page, UD " recipient \"%s\" has an unknown type %s; kept as other",
		    ct.name, tb);
	}
	prov_page_add(page, "contact", id, json_object_get(r), prov_norm_contact(&ct));
}

static void
add_status_page(json_object *p, const char *id, struct prov_page *page)
{
	struct prov_status_page sp = { 0 };
	const char *name = prov_get_text(p, "name", PROV_MAX_STR);
	const char *vis = prov_get_str(p, "visibility", 32);

	sp.name = name ? name : id;
	sp.url = prov_get_text(p, "url", PROV_MAX_STR);
	sp.monitor_ids = prov_id_list(prov_get_array(p, "checks"), "token");
	sp.public_ = vis == NULL || strcmp(vis, "public") == 0;
	prov_page_add(page, "status_page", id, json_object_get(p), prov_norm_status_page(&sp));
}

enum prov_status
updown_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	json_object *root;
	size_t ph, n;
	int64_t pos;
	enum prov_status st;
	char id[160], text[160];

	if (prov_cursor_parse(cursor, phases, 0, &ph, &pos) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " UD " discovery: bad checkpoint");
	if ((st = httpc_classify(resp, UD, "API key", err)) != PROV_OK) {
		prov_body_message(resp, text, sizeof text);
		if (st == PROV_AUTH)
			prov_fail(err, PROV_AUTH, UD " rejected the API key%s%s%s", text[0] ? " (" : "",
			    text, text[0] ? ")" : "");
		return st;
	}
	if ((root = prov_parse_json(resp, UD, err)) == NULL)
		return err->status;
	if (!json_object_is_type(root, json_type_array)) {
		prov_body_message(resp, text, sizeof text);
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, UD " sent an answer that is not a list%s%s",
		    text[0] ? ": " : "", text);
	}
	n = json_object_array_length(root);
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, UD " sent %zu %s; only the first %d were kept", n, phases[ph],
		    PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(root, i);
		const char *key = ph == PH_RECIPIENTS ? "id" : "token";

		if (!json_object_is_type(it, json_type_object) || prov_get_id(it, key, id, sizeof id) != 0) {
			prov_page_warn(page, UD " sent an entry of %s without a usable %s; skipped",
			    phases[ph], key);
			continue;
		}
		if (ph == PH_CHECKS)
			add_check(it, id, page);
		else if (ph == PH_RECIPIENTS)
			add_recipient(it, id, page);
		else
			add_status_page(it, id, page);
	}
	if (phases[ph + 1] != NULL)
		page->next_cursor = prov_cursor_make(phases[ph + 1], 0);
	json_object_put(root);
	return PROV_OK;
}

static enum prov_status
updown_fetch(struct prov_session *s, const char *cursor, struct prov_page *page,
    struct prov_error *err)
{
	const char *key = prov_cred(s, "api_key");
	char *hdr, *url;
	size_t ph;
	int64_t pos;

	if (prov_cursor_parse(cursor, phases, 0, &ph, &pos) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " UD " discovery: bad checkpoint");
	if (key == NULL)
		return prov_fail(err, PROV_AUTH, "the " UD " credentials have no usable api_key");
	url = prov_url(s, "/api/%s", phases[ph]);
	hdr = xasprintf("X-API-KEY: %s", key);
	return prov_fetch_get(s, cursor, url, hdr, updown_parse, page, err);
}

const struct provider_ops updown_ops = { updown_fetch };
