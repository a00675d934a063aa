/* updown.io (providers.md §5; docs/providers/updown.md).
 *
 * GET with "X-API-KEY: <api_key>"; the lists are not paged (one answer holds
 * them all), so each phase is one page. The check list carries every
 * setting, so there are no detail calls.
 * Cursor: "checks:0" → "recipients:0" → "status_pages:0" → end.
 * Checks of type pulse are push (cron) checks: they become heartbeats, whose
 * ping URL updown never shows again after creation. A later list refused
 * with 401/403 is skipped with a warning (providers.md §12). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "core/url.h"
#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"

#define UD "updown.io"

enum { PH_CHECKS, PH_RECIPIENTS, PH_STATUS_PAGES };
static const char *const phases[] = { "checks", "recipients", "status_pages", NULL };

/* Recipient types: the API's own (email, sms, webhook, slack_compatible,
 * msteams) and the UI-only integrations that have an equivalent. */
/* clang-format off */
static const struct prov_map recipient_types[] = {
	{ "email", "email" }, { "sms", "sms" }, { "webhook", "webhook" },
	{ "slack_compatible", "slack" }, { "msteams", "teams" }, { "slack", "slack" },
	{ "telegram", "telegram" }, { NULL, NULL }
};
/* clang-format on */

/* The probe locations disabled_locations names (updown.io/api "Can be any
 * of these"). */
static const char *const locations[] = { "lan", "mia", "bhs", "gra", "fra", "sin", "tok", "syd", NULL };

/* http_verb values (updown.io/api): "GET/HEAD" is updown's default. */
static const char *const verbs[] = { "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", NULL };

/* custom_headers as a name → string object (numbers kept as their text). */
static json_object *
headers_of(json_object *h)
{
	json_object *out = json_object_new_object();

	if (!json_object_is_type(h, json_type_object))
		return out;
	json_object_object_foreach (h, k, v) {
		const char *s;

		if (v == NULL || json_object_is_type(v, json_type_object) ||
		    json_object_is_type(v, json_type_array))
			continue;
		s = json_object_get_string(v);
		if (*k != '\0' && strlen(k) <= 255 && strlen(s) <= PROV_MAX_STR)
			json_object_object_add(out, k, json_object_new_string(s));
	}
	return out;
}

/* The enabled probe locations: every location but disabled_locations; []
 * (all, updown's default) when none is disabled. */
static json_object *
regions_of(json_object *c, const char *name, struct prov_page *page)
{
	json_object *dis = prov_str_list(prov_get(c, "disabled_locations"), ',');
	json_object *out = json_object_new_array();
	size_t nd = dis != NULL ? json_object_array_length(dis) : 0;

	for (size_t i = 0; i < nd; i++) {
		const char *d = json_object_get_string(json_object_array_get_idx(dis, i));
		size_t k = 0;
		char db[40];

		while (locations[k] != NULL && strcasecmp(locations[k], d) != 0)
			k++;
		if (locations[k] != NULL)
			continue;
		prov_copy_text(db, sizeof db, d);
		prov_page_warn(page, UD " check \"%s\" disables an unknown location %s; ignored", name, db);
	}
	for (size_t k = 0; nd > 0 && locations[k] != NULL; k++) {
		bool off = false;
		for (size_t i = 0; i < nd; i++)
			off |= strcasecmp(locations[k],
			           json_object_get_string(json_object_array_get_idx(dis, i))) == 0;
		if (!off)
			json_object_array_add(out, json_object_new_string(locations[k]));
	}
	json_object_put(dis);
	return out;
}

/* http_verb → method: "GET/HEAD" → GET; unknown → NULL with a warning. */
static const char *
method_of(json_object *c, const char *name, struct prov_page *page)
{
	const char *v = prov_get_text(c, "http_verb", 32);
	char vb[40];

	if (v == NULL || strcasecmp(v, "GET/HEAD") == 0)
		return v == NULL ? NULL : "GET";
	for (size_t i = 0; verbs[i] != NULL; i++)
		if (strcasecmp(v, verbs[i]) == 0)
			return verbs[i];
	prov_copy_text(vb, sizeof vb, v);
	prov_page_warn(page, UD " check \"%s\" uses an unknown HTTP verb %s; imported without a method", name,
	    vb);
	return NULL;
}

/* mute_until (updown.io/api: "Mute notifications until a time (ISO8601)",
 * or "recovery", or "forever"; doc/how-to-automate-check-disable) as an
 * ISO 8601 UTC time into out[21], or NULL: the account mutes until a time
 * only, so the other forms are warned. */
static const char *
muted_until(json_object *c, const char *name, char out[21], struct prov_page *page)
{
	const char *v = prov_get_text(c, "mute_until", 64);
	int64_t t;
	char vb[80];

	if (prov_get_time(c, "mute_until", TIME_ISO, NULL, &t) && time_format_iso(t, true, out) == 0)
		return out;
	if (v != NULL && (strcasecmp(v, "recovery") == 0 || strcasecmp(v, "forever") == 0))
		prov_page_warn(page,
		    UD " check \"%s\" has its alerts muted %s; the account mutes only until a time, so "
		       "the imported monitor alerts",
		    name, strcasecmp(v, "recovery") == 0 ? "until it recovers" : "for ever");
	else if (prov_get(c, "mute_until") != NULL) {
		prov_copy_text(vb, sizeof vb, v != NULL ? v : "(not text)");
		prov_page_warn(page,
		    UD " check \"%s\" is muted until \"%s\", which is not a time; not imported", name, vb);
	}
	return NULL;
}

/* The field tables (at the end) map the fields that are copied as they are. */
static const struct prov_field check_fields[], pulse_fields[], recipient_fields[], status_page_fields[];

/* A pulse (push) check: a heartbeat without its ping URL. */
static void
add_pulse(json_object *c, const char *id, struct prov_page *page)
{
	struct prov_heartbeat h = { 0 };

	prov_map(pulse_fields, c, &h);
	if (h.name == NULL)
		h.name = id;
	h.interval = prov_int_or(c, "period", 3600);
	h.grace = 0;
	h.paused = !prov_get_bool(c, "enabled", true);
	h.ping_url = NULL; /* redacted in every answer after creation (providers.md §5) */
	h.contact_ids = prov_id_list(prov_get_array(c, "recipients"), "id");
	prov_page_warn(page,
	    UD " pulse check \"%s\" was imported as a heartbeat without its ping URL (updown "
	       "never shows it after creation): change the job to call the new heartbeat's ping URL",
	    h.name);
	prov_page_add(page, "heartbeat", id, json_object_get(c), prov_norm_heartbeat(&h));
}

/* A login in a check's URL ("user:password@"), which updown's answers leave
 * out ("URLs returned here will not include basic auth credentials if any",
 * updown.io/api GET /api/checks): should one come, it is taken out of *url
 * (then *bare, malloc'd) into m and shows "[redacted]" in the stored copy,
 * rather than be kept in clear; one that does not fit the account is warned. */
static void
url_login(json_object *c, const char **url, char **bare, struct prov_monitor *m, char **user, char **password,
    const char *name, struct prov_page *page)
{
	const char *auth;
	char *shown;

	if (*url == NULL || url_take_login(*url, bare, user, password) == 0)
		return;
	*url = *bare;
	auth = strstr(*bare, "://") + 3;
	shown = xasprintf("%.*s[redacted]@%s", (int)(auth - *bare), *bare, auth);
	json_object_object_add(c, "url", json_object_new_string(shown));
	free(shown);
	if ((*user != NULL || *password != NULL) && (*user == NULL || strlen(*user) <= 255) &&
	    (*password == NULL || strlen(*password) <= 1000)) {
		m->auth_username = *user;
		m->auth_password = *password;
	} else
		prov_page_warn(page,
		    UD " check \"%s\" has a login in its URL that cannot be kept (empty, too long or with "
		       "control characters or not UTF-8); it was not imported: enter it again",
		    name);
}

static void
add_check(json_object *c, const char *id, struct prov_page *page)
{
	struct prov_monitor m = { 0 };
	const char *url = prov_get_text(c, "url", PROV_MAX_STR);
	const char *kind = prov_get_text(c, "type", 32), *host = NULL;
	char hbuf[256], mute[21], *bare = NULL, *user = NULL, *password = NULL;
	int64_t port = -1;
	struct url u;
	bool parsed;

	prov_map(check_fields, c, &m);
	url_login(c, &url, &bare, &m, &user, &password, m.name ? m.name : id, page);
	parsed = url != NULL &&
	    url_parse(&u, NULL, url, CURLU_NON_SUPPORT_SCHEME | CURLU_ALLOW_SPACE) == CURLUE_OK;

	if (parsed) {
		if (kind == NULL)
			kind = u.scheme; /* the check kind: the "type" field, else the URL's scheme */
		if (url_host_copy(&u, hbuf, sizeof hbuf) == 0)
			host = hbuf;
		if (u.port != NULL)
			port = u.port_num;
	}
	if (kind != NULL && strcasecmp(kind, "pulse") == 0)
		add_pulse(c, id, page);
	else {
		if (m.name == NULL)
			m.name = url ? url : id;
		m.url = url;
		m.interval = prov_int_or(c, "period", 60);
		m.paused = !prov_get_bool(c, "enabled", true);
		m.port = -1;
		m.contact_ids = prov_id_list(prov_get_array(c, "recipients"), "id");
		m.regions = regions_of(c, m.name, page);
		m.muted_until = muted_until(c, m.name, mute, page);
		if (kind != NULL && (strcasecmp(kind, "http") == 0 || strcasecmp(kind, "https") == 0)) {
			m.keyword = prov_get_text(c, "string_match", PROV_MAX_STR);
			m.keyword_up_when = m.keyword != NULL ? "present" : NULL;
			m.type = m.keyword != NULL ? "keyword" : "http";
			m.http_method = method_of(c, m.name, page);
			m.request_body = prov_get_text(c, "http_body", PROV_MAX_STR);
			m.request_headers = headers_of(prov_get(c, "custom_headers"));
		} else if (kind != NULL && strcasecmp(kind, "icmp") == 0) {
			m.type = "ping";
			m.url = host != NULL ? host : url;
		} else if (kind != NULL && (strcasecmp(kind, "tcp") == 0 || strcasecmp(kind, "tcps") == 0)) {
			m.type = "tcp";
			m.url = host != NULL ? host : url;
			m.port = port;
		} else {
			char kb[40];

			prov_copy_text(kb, sizeof kb, kind ? kind : "(none)");
			m.type = "other";
			prov_page_warn(page,
			    UD " check \"%s\" is of kind %s, which has no equivalent; kept as "
			       "other",
			    m.name, kb);
		}
		prov_page_add(page, "monitor", id, json_object_get(c), prov_norm_monitor(&m));
	}
	if (parsed)
		url_free(&u);
	free(bare);
	free(user);
	if (password != NULL)
		sodium_memzero(password, strlen(password));
	free(password);
}

/* The address of an e-mail value "Name <addr>" (else the value) into buf. */
static const char *
email_address(const char *v, char *buf, size_t size)
{
	const char *lt = v != NULL ? strrchr(v, '<') : NULL;
	const char *gt = lt != NULL ? strchr(lt, '>') : NULL;

	if (gt == NULL || gt - lt - 1 <= 0 || (size_t)(gt - lt - 1) >= size)
		return v;
	memcpy(buf, lt + 1, (size_t)(gt - lt - 1));
	buf[gt - lt - 1] = '\0';
	return buf;
}

static void
add_recipient(json_object *r, const char *id, struct prov_page *page)
{
	struct prov_contact ct = { 0 };
	const char *type = prov_get_text(r, "type", 32);
	char addr[512];

	prov_map(recipient_fields, r, &ct);
	ct.value = prov_get_text(r, "value", PROV_MAX_STR);
	if (ct.name == NULL)
		ct.name = ct.value ? ct.value : id;
	ct.type = prov_map_other(recipient_types, type, page, UD " recipient", ct.name, "type");
	if (strcmp(ct.type, "email") == 0)
		ct.value = email_address(ct.value, addr, sizeof addr);
	/* UI-only integrations show no value: the user must add the address. */
	ct.needs_address = ct.value == NULL;
	prov_page_add(page, "contact", id, json_object_get(r), prov_norm_contact(&ct));
}

static void
add_status_page(json_object *p, const char *id, struct prov_page *page)
{
	struct prov_status_page sp = { 0 };
	const char *vis = prov_get_str(p, "visibility", 32);

	prov_map(status_page_fields, p, &sp);
	if (sp.name == NULL)
		sp.name = id;
	/* Tokens of checks or pulses: one id space, the importer finds either. */
	sp.monitor_ids = prov_id_list(prov_get_array(p, "checks"), "token");
	sp.public_ = prov_sp_public(page, UD, sp.name, "visibility", vis);
	json_object_object_del(p, "access_key"); /* a protected page's secret: kept out of the stored copy */
	prov_page_add(page, "status_page", id, json_object_get(p), prov_norm_status_page(&sp));
}

/* The HTTP outcome of a page: PROV_OK to parse the body; a refused later
 * list is skipped (*skipped); else the error. */
static enum prov_status
classify(size_t ph, const struct httpc_resp *resp, struct prov_page *page, bool *skipped,
    struct prov_error *err)
{
	enum prov_status st;
	char text[160];

	*skipped = false;
	if (ph != PH_CHECKS && (resp->status == 401 || resp->status == 403)) {
		prov_skip_kind(page, UD, ph == PH_RECIPIENTS ? "recipients" : "status pages", resp->status);
		*skipped = true;
		return PROV_OK;
	}
	if ((st = httpc_classify(resp, UD, "API key", err)) != PROV_OK) {
		prov_body_message(resp, text, sizeof text);
		if (st == PROV_AUTH)
			prov_fail(err, PROV_AUTH, UD " rejected the API key%s%s%s", text[0] ? " (" : "", text,
			    text[0] ? ")" : "");
	}
	return st;
}

enum prov_status
updown_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	json_object *root = NULL;
	size_t ph, n = 0;
	int64_t pos;
	bool skipped;
	enum prov_status st;
	char id[160], text[160];

	if (prov_cursor_parse(cursor, phases, 0, &ph, &pos) != 0)
		return prov_bad_checkpoint(err, UD);
	if ((st = classify(ph, resp, page, &skipped, err)) != PROV_OK)
		return st;
	if (!skipped && (root = prov_parse_json(resp, UD, err)) == NULL)
		return err->status;
	if (!skipped && !json_object_is_type(root, json_type_array)) {
		prov_body_message(resp, text, sizeof text);
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, UD " sent an answer that is not a list%s%s",
		    text[0] ? ": " : "", text);
	}
	if (!skipped && (n = json_object_array_length(root)) > PROV_MAX_ITEMS) {
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
updown_fetch(struct prov_session *s, const char *cursor, struct prov_page *page, struct prov_error *err)
{
	const char *key = prov_cred(s, "api_key");
	char *hdr, *url;
	size_t ph;
	int64_t pos;

	if (prov_cursor_parse(cursor, phases, 0, &ph, &pos) != 0)
		return prov_bad_checkpoint(err, UD);
	if (key == NULL)
		return prov_no_cred(err, UD, "api_key");
	url = prov_url(s, "/api/%s", phases[ph]);
	hdr = xasprintf("X-API-KEY: %s", key);
	return prov_fetch_get(s, cursor, url, hdr, updown_parse, page, err);
}

const struct provider_ops updown_ops = { updown_fetch };

/* The fate of each field (providers/fields.h), and how the table maps those
 * it can: Check, Recipient and StatusPage of essentialkaos/updown updown.go,
 * updown.io/api (providers.md §5). A pulse is a check of type pulse, stored
 * whole; a status page is stored without its access_key. */
/* clang-format off */
#define UD_CHECK_STATE \
	{ "last_status", NULL, "State at updown (the last HTTP status), not a setting." }, \
	{ "uptime", NULL, "State at updown (uptime so far), not a setting." }, \
	{ "down", NULL, "State at updown (down now), not a setting." }, \
	{ "down_since", NULL, "State at updown, not a setting." }, \
	{ "up_since", NULL, "State at updown, not a setting." }, \
	{ "error", NULL, "State at updown (the last error), not a setting." }, \
	{ "last_check_at", NULL, "State at updown, not a setting." }, \
	{ "next_check_at", NULL, "State at updown, not a setting." }, \
	{ "created_at", NULL, "State at updown (when it was made), not a setting." }, \
	{ "favicon_url", NULL, "State at updown (the site's icon), not a setting." }, \
	{ "metrics", NULL, "State at updown (response time statistics), not a setting." }, \
	{ "domain", NULL, "State at updown (the domain's expiry), not a setting." }
static const struct prov_field check_fields[] = {
	{ "token", "`import_links`", "the external id" },
	{ "alias", "`monitors.name`", "else the URL, else the token", PROV_TEXT(monitor, name, PROV_MAX_STR) },
	{ "type", "`monitors.type`", "`http`, `https`: `http`, or `keyword` with a `string_match`; `icmp`: `ping`; `tcp`, `tcps`: `tcp`; absent: the URL's scheme decides; anything else `other`, with a warning; `pulse` is a heartbeat" },
	{ "url", "`monitors.url`, `monitors.port`, `monitors.auth_username`, `monitors.auth_password_sealed`", "HTTP checks: as given (scheme, host, port, path, query); `icmp`: the host; `tcp`, `tcps`: the host, and the port in `port`. updown leaves a check's basic-auth login out of every answer (updown.io/api): a check that had one must have it entered again; a `user:password@` that does come is taken out into the login, the password sealed (`[redacted]` in the stored copy)" },
	{ "period", "`monitors.interval_s`", "seconds; 60 when absent" },
	{ "enabled", "`monitors.paused`", "`false` pauses it" },
	{ "string_match", "`monitors.keyword`, `monitors.keyword_up_when`", "HTTP checks: the text must be present (`present`); updown does not say whether case counts: `keyword_case_sensitive` NULL" },
	{ "http_verb", "`monitors.http_method`", "HTTP checks: `GET/HEAD` (the default) → `GET`; `GET`, `HEAD`, `POST`, `PUT`, `PATCH`, `DELETE`, `OPTIONS` kept; anything else none, with a warning" },
	{ "http_body", "`monitors.request_body`", "HTTP checks" },
	{ "custom_headers", "`monitors.request_headers`", "HTTP checks; none: NULL" },
	{ "disabled_locations", "`monitors.regions`", "every location but these (`lan mia bhs gra fra sin tok syd`); none disabled: NULL (all, updown's default); an unknown name is ignored, with a warning" },
	{ "recipients", "`monitor_contacts`", "the recipients it alerts" },
	{ "mute_until", "`monitors.muted_until`", "a time; `recovery` (muted until it is up again) and `forever` have no equivalent (the account mutes until a time): NULL, with a warning" },
	{ "apdex_t", NULL, "The response time updown counts as satisfying (for its performance alert) has no place in the account." },
	{ "published", NULL, "The check's own public page at updown has no place in the account." },
	{ "ssl", NULL, "State at updown (the certificate's last test), not a setting; updown always verifies certificates and warns at fixed days: `verify_ssl` and `ssl_expiry_days` NULL." },
	UD_CHECK_STATE,
	{ NULL, NULL, NULL }
};
static const struct prov_field pulse_fields[] = {
	{ "token", "`import_links`", "the external id" },
	{ "alias", "`heartbeats.name`", "else the token", PROV_TEXT(heartbeat, name, PROV_MAX_STR) },
	{ "type", "`heartbeats`", "`pulse`: a heartbeat" },
	{ "period", "`heartbeats.interval_s`", "seconds; 3600 when absent; `grace_s` 0 (updown has none)" },
	{ "enabled", "`heartbeats.paused`", "`false` pauses it" },
	{ "recipients", "`heartbeat_contacts`", "the recipients it alerts" },
	{ "url", NULL, "The pulse URL is never shown after creation (a warning says so): change the job to call the new heartbeat's ping URL." },
	{ "string_match", NULL, "A check's setting; a pulse does not use it." },
	{ "http_verb", NULL, "A check's setting; a pulse does not use it." },
	{ "http_body", NULL, "A check's setting; a pulse does not use it." },
	{ "custom_headers", NULL, "A check's setting; a pulse does not use it." },
	{ "disabled_locations", NULL, "A check's setting; a pulse does not use it." },
	{ "apdex_t", NULL, "A check's setting; a pulse does not use it." },
	{ "published", NULL, "The check's own public page at updown has no place in the account." },
	{ "ssl", NULL, "A check's state; a pulse has none." },
	{ "mute_until", NULL, "A mute of its alerts has no place in the account's heartbeats: the moved one alerts at once." },
	UD_CHECK_STATE,
	{ NULL, NULL, NULL }
};
static const struct prov_field recipient_fields[] = {
	{ "id", "`import_links`", "the external id (`email:3719031852`)" },
	{ "name", "`contacts.name`", "else the value, else the id", PROV_TEXT(contact, name, PROV_MAX_STR) },
	{ "type", "`contacts.type`", "see the types below; anything else `other`, with a warning" },
	{ "value", "`contacts.value`", "e-mail: the address out of `Name <address>`; none (UI-only integrations): NULL and `needs_address` 1" },
	{ NULL, NULL, NULL }
};
static const struct prov_field status_page_fields[] = {
	{ "token", "`import_links`", "the external id" },
	{ "name", "`status_pages.name`", "else the token", PROV_TEXT(status_page, name, PROV_MAX_STR) },
	{ "url", "`status_pages.url`", NULL, PROV_TEXT(status_page, url, PROV_MAX_STR) },
	{ "visibility", "`status_pages.public`", "`public` → 1; `protected`, `private` → 0; anything else 0, with a warning" },
	{ "checks", "`status_page_monitors`", "in the page's order: checks and pulses (one id space)" },
	{ "description", NULL, "A status page's description has no place in the account." },
	{ "access_key", NULL, "A protected page's key is never read or kept (removed from the stored copy): the moved page is not public and needs access set again." },
	{ NULL, NULL, NULL }
};
#undef UD_CHECK_STATE
/* clang-format on */

const struct prov_fields updown_fields[] = {
	{ "monitor", "check (`GET /api/checks`)", check_fields },
	{ "heartbeat", "check of type `pulse` (`GET /api/checks`)", pulse_fields },
	{ "contact", "recipient (`GET /api/recipients`)", recipient_fields },
	{ "status_page", "status page (`GET /api/status_pages`)", status_page_fields },
	{ NULL, NULL, NULL },
};
