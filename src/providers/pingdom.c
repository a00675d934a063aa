/* Pingdom, API 3.1 (providers.md §2; docs/providers/pingdom.md).
 *
 * GET with "Authorization: Bearer <api_token>". Checks are paged by
 * offset/limit (we ask 1000 a page, the API allows 25000, to keep each answer
 * far below the body cap); contacts come in one list.
 * Cursor: "checks:<offset>" → "contacts:0" → end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"

#define PD "Pingdom"
#define PD_LIMIT 1000

enum { PH_CHECKS, PH_CONTACTS };
static const char *const phases[] = { "checks", "contacts", NULL };

static const struct {
	const char *pingdom, *norm;
} check_types[] = {
	{ "http", "http" }, { "httpcustom", "http" }, { "tcp", "tcp" }, { "ping", "ping" },
	{ "dns", "dns" }, { "udp", "udp" }, { "smtp", "smtp" }, { "pop3", "pop3" },
	{ "imap", "imap" }, { NULL, NULL }
};

/* The check type: a string in the list, an object keyed by type in details. */
static const char *
check_type_name(json_object *c)
{
	json_object *t = prov_get(c, "type");

	if (json_object_is_type(t, json_type_string))
		return json_object_get_string(t);
	if (json_object_is_type(t, json_type_object)) {
		json_object_object_foreach(t, key, val) {
			(void)val;
			return key;
		}
	}
	return NULL;
}

static void
add_check(json_object *c, const char *id, struct prov_page *page)
{
	struct prov_monitor m = { 0 };
	const char *name = prov_get_text(c, "name", PROV_MAX_STR);
	const char *host = prov_get_text(c, "hostname", PROV_MAX_STR);
	const char *type = check_type_name(c);
	const char *status = prov_get_str(c, "status", 64);

	m.name = name ? name : host ? host : id;
	m.url = host;
	m.interval = prov_int_or(c, "resolution", 5) * 60;
	m.paused = status != NULL && strcmp(status, "paused") == 0;
	m.port = -1;
	m.type = NULL;
	for (size_t i = 0; type != NULL && check_types[i].pingdom != NULL; i++)
		if (strcmp(type, check_types[i].pingdom) == 0)
			m.type = check_types[i].norm;
	if (m.type == NULL) {
		char t[64];

		prov_copy_text(t, sizeof t, type ? type : "(none)");
		m.type = "other";
		prov_page_warn(page, PD " check \"%s\" has an unknown type %s; kept as other", m.name, t);
	}
	prov_page_add(page, "monitor", id, json_object_get(c), prov_norm_monitor(&m));
}

/* One contact item per notification target; a contact without targets
 * becomes one item of type other. External ids: "<id>:<kind>:<index>". */
static void
add_contact(json_object *c, const char *id, struct prov_page *page)
{
	json_object *targets = prov_get_object(c, "notification_targets");
	const char *name = prov_get_text(c, "name", PROV_MAX_STR);
	char xid[192];
	size_t added = 0;

	if (name == NULL)
		name = id;
	if (targets != NULL) {
		json_object_object_foreach(targets, kind, list) {
			const char *type;
			char kb[48];

			prov_copy_text(kb, sizeof kb, kind);
			if (strcmp(kind, "email") == 0)
				type = "email";
			else if (strcmp(kind, "sms") == 0)
				type = "sms";
			else if (strcmp(kind, "apns") == 0 || strcmp(kind, "agcm") == 0)
				type = "push";
			else {
				prov_page_warn(page, PD " contact \"%s\" has targets of unknown kind %s; "
				    "kept as other", name, kb);
				type = "other";
			}
			if (!json_object_is_type(list, json_type_array))
				continue;
			for (size_t i = 0; i < json_object_array_length(list) && i < 100; i++) {
				json_object *t = json_object_array_get_idx(list, i);
				struct prov_contact ct = { .name = name, .type = type };
				char value[160];

				if (strcmp(type, "email") == 0)
					ct.value = prov_get_text(t, "address", PROV_MAX_STR);
				else if (strcmp(type, "sms") == 0) {
					const char *cc = prov_get_text(t, "country_code", 8);
					const char *num = prov_get_text(t, "number", 64);

					if (num != NULL) {
						while (cc != NULL && *cc == '0')
							cc++;
						snprintf(value, sizeof value, "%s%s%s", cc && *cc ? "+" : "",
						    cc && *cc ? cc : "", num);
						ct.value = value;
					}
				} else if (strcmp(type, "push") == 0)
					ct.value = prov_get_text(t, "name", PROV_MAX_STR);
				if (snprintf(xid, sizeof xid, "%s:%s:%zu", id, kb, i) >= (int)sizeof xid)
					continue;
				prov_page_add(page, "contact", xid, json_object_get(c), prov_norm_contact(&ct));
				added++;
			}
		}
	}
	if (added == 0) {
		struct prov_contact ct = { .name = name, .type = "other" };

		prov_page_add(page, "contact", id, json_object_get(c), prov_norm_contact(&ct));
	}
}

enum prov_status
pingdom_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	json_object *root, *list;
	size_t ph, n;
	int64_t off, total = -1;
	enum prov_status st;
	char id[192], text[160];

	if (prov_cursor_parse(cursor, phases, 0, &ph, &off) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " PD " discovery: bad checkpoint");
	if ((st = httpc_classify(resp, PD, "API token", err)) != PROV_OK) {
		prov_body_message(resp, text, sizeof text);
		if (st == PROV_AUTH)
			prov_fail(err, PROV_AUTH, PD " rejected the API token%s%s%s", text[0] ? " (" : "",
			    text, text[0] ? ")" : "");
		else if (text[0] != '\0' && st != PROV_RATE_LIMITED) {
			size_t l = strlen(err->message);
			snprintf(err->message + l, sizeof err->message - l, ": %s", text);
		}
		return st;
	}
	if ((root = prov_parse_json(resp, PD, err)) == NULL)
		return err->status;
	list = prov_get_array(root, ph == PH_CHECKS ? "checks" : "contacts");
	if (list == NULL && prov_get(root, ph == PH_CHECKS ? "checks" : "contacts") != NULL) {
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, PD " sent a list that is not an array");
	}
	n = list ? json_object_array_length(list) : 0;
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, PD " sent %zu entries in one page; only the first %d were kept", n,
		    PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);

		if (!json_object_is_type(it, json_type_object) || prov_get_id(it, "id", id, 160) != 0) {
			prov_page_warn(page, PD " sent an entry without a usable id; skipped");
			continue;
		}
		if (ph == PH_CHECKS)
			add_check(it, id, page);
		else
			add_contact(it, id, page);
	}
	if (ph == PH_CHECKS) {
		prov_get_int(prov_get_object(root, "counts"), "total", &total);
		if (n > 0 && (total >= 0 ? off + (int64_t)n < total : n >= PD_LIMIT)) {
			if ((off + (int64_t)n) / PD_LIMIT >= PROV_MAX_PAGES)
				prov_page_warn(page, PD " checks: stopped after %d pages", PROV_MAX_PAGES);
			else {
				page->next_cursor = prov_cursor_make("checks", off + (int64_t)n);
				json_object_put(root);
				return PROV_OK;
			}
		}
		page->next_cursor = prov_cursor_make("contacts", 0);
	}
	json_object_put(root);
	return PROV_OK;
}

static enum prov_status
pingdom_fetch(struct prov_session *s, const char *cursor, struct prov_page *page,
    struct prov_error *err)
{
	const char *token = prov_cred(s, "api_token");
	char *auth, *url;
	size_t ph;
	int64_t off;

	if (prov_cursor_parse(cursor, phases, 0, &ph, &off) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " PD " discovery: bad checkpoint");
	if (token == NULL)
		return prov_fail(err, PROV_AUTH, "the " PD " credentials have no usable api_token");
	if (ph == PH_CHECKS)
		url = prov_url(s, "/api/3.1/checks?limit=%d&offset=%lld", PD_LIMIT, (long long)off);
	else
		url = prov_url(s, "/api/3.1/alerting/contacts");
	auth = xasprintf("Authorization: Bearer %s", token);
	return prov_fetch_get(s, cursor, url, auth, pingdom_parse, page, err);
}

const struct provider_ops pingdom_ops = { pingdom_fetch };
