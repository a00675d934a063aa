/* Healthchecks.io, Management API v3, SaaS or self-hosted (providers.md §6;
 * docs/providers/healthchecks.md).
 *
 * GET with "X-Api-Key: <api_key>" on the base URL (https://healthchecks.io,
 * or the user's own instance from the base_url credential, which the URL
 * guard checks). The lists are not paged: each phase is one request.
 * Cursor: "checks:0" → "channels:0" → end. Checks become heartbeats (with a
 * cron schedule and its tz), integrations contacts by name and kind (the API
 * never shows their address). A read-only key lists checks without ping URLs
 * and alert links, and gets 401 on the integrations: that list is skipped
 * with a warning (providers.md §12), the run goes on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"
#include "providers/fields.h"

#define HC "Healthchecks"

enum { PH_CHECKS, PH_CHANNELS };
static const char *const phases[] = { "checks", "channels", NULL };

/* Integration kinds (hc/api/models.py). norm NULL: known, no equivalent
 * (imported as other, with a warning naming it). */
static const struct {
	const char *hc, *norm, *label;
	/* clang-format off */
} channel_kinds[] = {
	{ "email", "email", "e-mail" }, { "sms", "sms", "SMS" }, { "call", "voice", "phone call" },
	{ "webhook", "webhook", "webhook" }, { "slack", "slack", "Slack" },
	{ "msteams", "teams", "Microsoft Teams" }, { "msteamsw", "teams", "Microsoft Teams" },
	{ "telegram", "telegram", "Telegram" }, { "discord", "discord", "Discord" },
	{ "pd", "pagerduty", "PagerDuty" }, { "opsgenie", "opsgenie", "Opsgenie" },
	{ "po", "pushover", "Pushover" }, { "pushbullet", "push", "Pushbullet" },
	{ "ntfy", "push", "ntfy" }, { "gotify", "push", "Gotify" },
	{ "whatsapp", NULL, "WhatsApp" }, { "signal", NULL, "Signal" },
	{ "mattermost", NULL, "Mattermost" }, { "rocketchat", NULL, "Rocket.Chat" },
	{ "zulip", NULL, "Zulip" }, { "matrix", NULL, "Matrix" }, { "googlechat", NULL, "Google Chat" },
	{ "victorops", NULL, "Splunk On-Call" }, { "pagertree", NULL, "PagerTree" },
	{ "spike", NULL, "Spike" }, { "trello", NULL, "Trello" }, { "linenotify", NULL, "LINE Notify" },
	{ "apprise", NULL, "Apprise" }, { "shell", NULL, "shell command" }, { "github", NULL, "GitHub" },
	{ "group", NULL, "integration group" }, { "zendesk", NULL, "Zendesk" },
	{ "hipchat", NULL, "HipChat" }, { "pagerteam", NULL, "Pager Team" },
	{ NULL, NULL, NULL }
};
/* clang-format on */

/* Check statuses (hc/api/models.py get_status). */
static const char *const statuses[] = { "new", "up", "grace", "down", "paused", "started", NULL };

static void
check_status(json_object *c, struct prov_heartbeat *h, struct prov_page *page)
{
	const char *status = prov_get_str(c, "status", 32);
	size_t i = 0;
	char sb[40];

	h->paused = status != NULL && strcmp(status, "paused") == 0;
	while (status != NULL && statuses[i] != NULL && strcmp(status, statuses[i]) != 0)
		i++;
	if (status == NULL || statuses[i] != NULL)
		return;
	prov_copy_text(sb, sizeof sb, status);
	prov_page_warn(page, HC " check \"%s\" has an unknown status %s; imported as not paused", h->name,
	    sb);
}

/* What a read-only key is not shown: the ping URL and the integrations. */
static const char *const readonly_keys[] = { "ping_url", "contact_ids", NULL };

static const struct prov_field check_fields[], channel_fields[];

static void
add_check(json_object *c, const char *id, bool readonly, struct prov_page *page)
{
	struct prov_heartbeat h = { 0 };
	json_object *norm;
	const char *slug = prov_get_text(c, "slug", PROV_MAX_STR);
	const char *schedule = prov_get_text(c, "schedule", 255);
	int64_t timeout = -1;

	prov_map(check_fields, c, &h);
	if (h.name == NULL)
		h.name = slug ? slug : id;
	check_status(c, &h, page);
	if (schedule != NULL) {
		/* A cron or OnCalendar check: no fixed period; tz reads the schedule. */
		h.interval = 0;
		h.schedule = schedule;
		h.timezone = prov_get_text(c, "tz", 64);
	} else if (prov_get_int(c, "timeout", &timeout) && timeout > 0)
		h.interval = timeout;
	else {
		h.interval = 86400; /* the Healthchecks default period */
		prov_page_warn(page,
		    HC " check \"%s\" has neither a period nor a schedule; imported "
		       "with a period of one day",
		    h.name);
	}
	if (!readonly && h.ping_url == NULL)
		prov_page_warn(page,
		    HC " check \"%s\" has no ping URL; the job must be changed to call the "
		       "new heartbeat's ping URL",
		    h.name);
	norm = prov_norm_heartbeat(&h);
	if (readonly)
		prov_unread(norm,
		    "the API key is read-only: Healthchecks shows it no ping URLs nor integrations",
		    readonly_keys);
	prov_page_add(page, "heartbeat", id, json_object_get(c), norm);
}

static void
add_channel(json_object *ch, const char *id, struct prov_page *page)
{
	struct prov_contact ct = { 0 };
	const char *name, *kind = prov_get_str(ch, "kind", 32);
	size_t i;

	/* The API never shows an integration's target (providers.md §6). */
	prov_map(channel_fields, ch, &ct);
	name = ct.name;
	ct.value = NULL;
	ct.needs_address = true;
	for (i = 0; kind != NULL && channel_kinds[i].hc != NULL; i++)
		if (strcmp(kind, channel_kinds[i].hc) == 0)
			break;
	if (kind != NULL && channel_kinds[i].hc != NULL) {
		ct.name = name ? name : channel_kinds[i].label;
		ct.type = channel_kinds[i].norm != NULL ? channel_kinds[i].norm : "other";
		if (channel_kinds[i].norm == NULL)
			prov_page_warn(page,
			    HC " integration \"%s\" is a %s integration, which has no "
			       "equivalent; kept as other",
			    ct.name, channel_kinds[i].label);
	} else {
		char kb[40];

		ct.name = name ? name : id;
		ct.type = "other";
		prov_copy_text(kb, sizeof kb, kind ? kind : "(none)");
		prov_page_warn(page, HC " integration \"%s\" has an unknown kind %s; kept as other", ct.name,
		    kb);
	}
	prov_page_add(page, "contact", id, json_object_get(ch), prov_norm_contact(&ct));
}

/* The HTTP outcome of a page: PROV_OK to parse the body; a refused
 * integrations list is skipped (*skipped, providers.md §12); else the error. */
static enum prov_status
classify(size_t ph, const struct httpc_resp *resp, struct prov_page *page, bool *skipped,
    struct prov_error *err)
{
	enum prov_status st;
	char text[160];

	*skipped = false;
	if (ph == PH_CHANNELS && (resp->status == 401 || resp->status == 403)) {
		prov_skip_kind(page, HC, "integrations", resp->status);
		prov_page_warn(page,
		    "A read-only " HC " API key cannot list the integrations: use the "
		    "project's read-write API key to import them as contacts");
		*skipped = true;
		return PROV_OK;
	}
	if ((st = httpc_classify(resp, HC, "API key", err)) != PROV_OK) {
		prov_body_message(resp, text, sizeof text);
		if (st == PROV_AUTH)
			prov_fail(err, PROV_AUTH, HC " rejected the API key%s%s%s", text[0] ? " (" : "", text,
			    text[0] ? ")" : "");
	}
	return st;
}

/* The items of list (checks or channels) into page; the number of checks
 * shown to a read-only key (unique_key instead of uuid). */
static size_t
add_items(size_t ph, json_object *list, struct prov_page *page)
{
	size_t n = json_object_array_length(list), readonly = 0;
	char id[192];

	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, HC " sent %zu %s; only the first %d were kept", n, phases[ph],
		    PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);
		bool ok = json_object_is_type(it, json_type_object), ro = false;

		if (ph == PH_CHANNELS && (!ok || prov_get_id(it, "id", id, sizeof id) != 0)) {
			prov_page_warn(page, HC " sent an integration without a usable id; skipped");
			continue;
		}
		if (ph == PH_CHANNELS) {
			add_channel(it, id, page);
			continue;
		}
		if (ok && prov_get_id(it, "uuid", id, sizeof id) != 0)
			ok = ro = prov_get_id(it, "unique_key", id, sizeof id) == 0;
		if (!ok) {
			prov_page_warn(page, HC " sent a check without a usable uuid; skipped");
			continue;
		}
		readonly += ro;
		add_check(it, id, ro, page);
	}
	return readonly;
}

enum prov_status
healthchecks_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	json_object *root, *list;
	size_t ph, readonly;
	int64_t pos;
	bool skipped;
	enum prov_status st;
	char text[160];

	if (prov_cursor_parse(cursor, phases, 0, &ph, &pos) != 0)
		return prov_bad_checkpoint(err, HC);
	if ((st = classify(ph, resp, page, &skipped, err)) != PROV_OK)
		return st;
	if (phases[ph + 1] != NULL)
		page->next_cursor = prov_cursor_make(phases[ph + 1], 0);
	if (skipped)
		return PROV_OK;
	if ((root = prov_parse_json(resp, HC, err)) == NULL)
		return err->status;
	if ((list = prov_get_array(root, phases[ph])) == NULL) {
		prov_body_message(resp, text, sizeof text);
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, HC " sent an answer without a \"%s\" list%s%s",
		    phases[ph], text[0] ? ": " : "", text);
	}
	readonly = add_items(ph, list, page);
	if (readonly > 0)
		prov_page_warn(page,
		    "The " HC " API key is read-only: the checks were imported without "
		    "their ping URLs and their integrations (alert links); use the project's read-write "
		    "API key to import them too");
	if (ph == PH_CHANNELS && page->n > 0)
		prov_page_warn(page,
		    HC " never shows where an integration sends: %zu contacts were imported "
		       "by name and kind only; add each one's address",
		    page->n);
	json_object_put(root);
	return PROV_OK;
}

static enum prov_status
healthchecks_fetch(struct prov_session *s, const char *cursor, struct prov_page *page, struct prov_error *err)
{
	const char *key = prov_cred(s, "api_key");
	char *hdr, *url;
	size_t ph;
	int64_t pos;

	if (prov_cursor_parse(cursor, phases, 0, &ph, &pos) != 0)
		return prov_bad_checkpoint(err, HC);
	if (key == NULL)
		return prov_no_cred(err, HC, "api_key");
	/* Trailing slashes as documented (Django's APPEND_SLASH would answer 301);
	 * prov_http follows redirects on the same scheme, host and port (a moved
	 * SITE_ROOT). */
	url = prov_url(s, "/api/v3/%s/", phases[ph]);
	hdr = xasprintf("X-Api-Key: %s", key);
	return prov_fetch_get(s, cursor, url, hdr, healthchecks_parse, page, err);
}

const struct provider_ops healthchecks_ops = { healthchecks_fetch };

/* The fate of each field (providers/fields.h), and how the table maps those
 * it can: Check.to_dict and Channel.to_dict of hc/api/models.py
 * (providers.md §6). */
/* clang-format off */
static const struct prov_field check_fields[] = {
	{ "uuid", "`import_links`", "the external id" },
	{ "unique_key", "`import_links`", "the external id when the key is read-only (no `uuid` then)" },
	{ "name", "`heartbeats.name`", "else `slug`, else the id", PROV_TEXT(heartbeat, name, PROV_MAX_STR) },
	{ "slug", "`heartbeats.name`", "only when there is no name (slug ping URLs need the project's ping key, which the API does not show)" },
	{ "timeout", "`heartbeats.interval_s`", "a simple check's period; with neither it nor a schedule 86400 (the Healthchecks default), with a warning" },
	{ "schedule", "`heartbeats.schedule`", "cron or OnCalendar, kept as written; `interval_s` 0" },
	{ "tz", "`heartbeats.timezone`", "the zone the schedule is read in" },
	{ "grace", "`heartbeats.grace_s`", NULL, PROV_NONNEG(heartbeat, grace) },
	{ "status", "`heartbeats.paused`", "`paused` pauses it; `new`, `up`, `grace`, `down`, `started` run; an unknown one runs, with a warning" },
	{ "tags", "`heartbeats.tags`", "split at spaces (a JSON array; none: NULL)", PROV_WORDS(heartbeat, tags) },
	{ "ping_url", "`heartbeats.ping_url`", "absent with a read-only key: NULL, with a warning", PROV_TEXT(heartbeat, ping_url, PROV_MAX_STR) },
	{ "channels", "`heartbeat_contacts`", "the integrations it alerts (comma-separated ids); absent with a read-only key", PROV_CSV(heartbeat, contact_ids) },
	{ "desc", NULL, "A check's description has no place in the account." },
	{ "methods", NULL, "Healthchecks' own ping filter (POST only); the account's heartbeats take any ping." },
	{ "manual_resume", NULL, "Healthchecks' own switch to stay down until resumed by hand." },
	{ "subject", NULL, "Healthchecks' e-mail ping filter; the account's heartbeats take any ping." },
	{ "subject_fail", NULL, "Healthchecks' e-mail ping filter; the account's heartbeats take any ping." },
	{ "start_kw", NULL, "Healthchecks' ping keyword filter; the account's heartbeats take any ping." },
	{ "success_kw", NULL, "Healthchecks' ping keyword filter; the account's heartbeats take any ping." },
	{ "failure_kw", NULL, "Healthchecks' ping keyword filter; the account's heartbeats take any ping." },
	{ "filter_subject", NULL, "Healthchecks' ping filter switch; the account's heartbeats take any ping." },
	{ "filter_body", NULL, "Healthchecks' ping filter switch; the account's heartbeats take any ping." },
	{ "filter_http_body", NULL, "Healthchecks' ping filter switch; the account's heartbeats take any ping." },
	{ "filter_default_fail", NULL, "Healthchecks' ping filter switch; the account's heartbeats take any ping." },
	{ "n_pings", NULL, "State at Healthchecks (pings so far), not a setting." },
	{ "started", NULL, "State at Healthchecks (a run in progress), not a setting." },
	{ "last_ping", NULL, "State at Healthchecks, not a setting." },
	{ "next_ping", NULL, "State at Healthchecks, not a setting." },
	{ "last_duration", NULL, "State at Healthchecks, not a setting." },
	{ "badge_url", NULL, "A Healthchecks badge; the account makes its own." },
	{ "update_url", NULL, "A Healthchecks API link." },
	{ "pause_url", NULL, "A Healthchecks API link." },
	{ "resume_url", NULL, "A Healthchecks API link." },
	{ NULL, NULL, NULL }
};
static const struct prov_field channel_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "name", "`contacts.name`", "else the kind's name", PROV_TEXT(contact, name, PROV_MAX_STR) },
	{ "kind", "`contacts.type`", "see the kinds below; the API never shows the address: `needs_address` 1" },
	{ NULL, NULL, NULL }
};
/* clang-format on */

const struct prov_fields healthchecks_fields[] = {
	{ "heartbeat", "check (`GET /api/v3/checks/`)", check_fields },
	{ "contact", "integration (`GET /api/v3/channels/`)", channel_fields },
	{ NULL, NULL, NULL },
};
