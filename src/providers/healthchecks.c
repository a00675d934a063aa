/* Healthchecks.io, Management API v3, SaaS or self-hosted (providers.md §6;
 * docs/providers/healthchecks.md).
 *
 * GET with "X-Api-Key: <api_key>" on the base URL (https://healthchecks.io,
 * or the user's own instance from the base_url credential, which the URL
 * guard checks). The lists are not paged: each phase is one request.
 * Cursor: "checks:0" → "channels:0" → end. A read-only key cannot list the
 * integrations: when the checks show such a key, the channels phase is
 * skipped with a warning instead of failing the run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"

#define HC "Healthchecks"

enum { PH_CHECKS, PH_CHANNELS };
static const char *const phases[] = { "checks", "channels", NULL };

/* Integration kinds (hc/api/models.py). norm NULL: known, no equivalent
 * (imported as other, with a warning naming it). */
static const struct {
	const char *hc, *norm, *label;
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

/* The comma-separated channel UUIDs of a check as a JSON array of ids. */
static json_object *
channel_ids(json_object *check)
{
	json_object *out = json_object_new_array();
	const char *s = prov_get_str(check, "channels", PROV_MAX_STR);
	json_object *arr = prov_get_array(check, "channels");
	char id[192];

	if (arr != NULL) {
		json_object_put(out);
		return prov_id_list(arr, "id");
	}
	while (s != NULL && *s != '\0') {
		size_t n;

		s += strspn(s, ", ");
		n = strcspn(s, ",");
		while (n > 0 && s[n - 1] == ' ')
			n--;
		if (n > 0 && n < sizeof id) {
			memcpy(id, s, n);
			id[n] = '\0';
			json_object_array_add(out, json_object_new_string(id));
		}
		s += strcspn(s, ",");
	}
	return out;
}

static void
add_check(json_object *c, const char *id, struct prov_page *page)
{
	struct prov_heartbeat h = { 0 };
	const char *name = prov_get_text(c, "name", PROV_MAX_STR);
	const char *slug = prov_get_text(c, "slug", PROV_MAX_STR);
	const char *status = prov_get_str(c, "status", 32);
	const char *schedule = prov_get_text(c, "schedule", 255);
	const char *tz = prov_get_text(c, "tz", 64);
	int64_t timeout = -1, grace = 0;

	h.name = name ? name : slug ? slug : id;
	h.paused = status != NULL && strcmp(status, "paused") == 0;
	h.ping_url = prov_get_text(c, "ping_url", PROV_MAX_STR);
	h.contact_ids = channel_ids(c);
	if (prov_get_int(c, "grace", &grace) && grace >= 0)
		h.grace = grace;
	if (schedule != NULL) {
		/* A cron (or OnCalendar) check: no fixed period. */
		h.interval = 0;
		h.schedule = schedule;
		if (tz != NULL && strcmp(tz, "UTC") != 0 && strcmp(tz, "Etc/UTC") != 0) {
			char tb[64];

			prov_copy_text(tb, sizeof tb, tz);
			prov_page_warn(page, HC " check \"%s\" runs on its schedule in time zone %s; the "
			    "schedule was imported without the time zone: review it", h.name, tb);
		}
	} else if (prov_get_int(c, "timeout", &timeout) && timeout > 0)
		h.interval = timeout;
	else {
		h.interval = 86400; /* the Healthchecks default period */
		prov_page_warn(page, HC " check \"%s\" has neither a period nor a schedule; imported "
		    "with a period of one day", h.name);
	}
	prov_page_add(page, "heartbeat", id, json_object_get(c), prov_norm_heartbeat(&h));
}

static void
add_channel(json_object *ch, const char *id, struct prov_page *page)
{
	struct prov_contact ct = { 0 };
	const char *name = prov_get_text(ch, "name", PROV_MAX_STR);
	const char *kind = prov_get_str(ch, "kind", 32);
	size_t i;

	ct.value = NULL; /* the API does not show an integration's target */
	for (i = 0; kind != NULL && channel_kinds[i].hc != NULL; i++)
		if (strcmp(kind, channel_kinds[i].hc) == 0)
			break;
	if (kind != NULL && channel_kinds[i].hc != NULL) {
		ct.name = name ? name : channel_kinds[i].label;
		ct.type = channel_kinds[i].norm != NULL ? channel_kinds[i].norm : "other";
		if (channel_kinds[i].norm == NULL)
			prov_page_warn(page, HC " integration \"%s\" is a %s integration, which has no "
			    "equivalent; kept as other", ct.name, channel_kinds[i].label);
	} else {
		char kb[40];

		ct.name = name ? name : id;
		ct.type = "other";
		prov_copy_text(kb, sizeof kb, kind ? kind : "(none)");
		prov_page_warn(page, HC " integration \"%s\" has an unknown kind %s; kept as other",
		    ct.name, kb);
	}
	prov_page_add(page, "contact", id, json_object_get(ch), prov_norm_contact(&ct));
}

enum prov_status
healthchecks_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	json_object *root, *list;
	size_t ph, n, readonly = 0;
	int64_t pos;
	enum prov_status st;
	char id[192], text[160];

	if (prov_cursor_parse(cursor, phases, 0, &ph, &pos) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " HC " discovery: bad checkpoint");
	if ((st = httpc_classify(resp, HC, "API key", err)) != PROV_OK) {
		prov_body_message(resp, text, sizeof text);
		if (st == PROV_AUTH && ph == PH_CHANNELS)
			prov_fail(err, PROV_AUTH, HC " rejected the API key for the integrations list%s%s%s; "
			    "a read-only key cannot list them: use the project's read-write API key",
			    text[0] ? " (" : "", text, text[0] ? ")" : "");
		else if (st == PROV_AUTH)
			prov_fail(err, PROV_AUTH, HC " rejected the API key%s%s%s", text[0] ? " (" : "",
			    text, text[0] ? ")" : "");
		return st;
	}
	if ((root = prov_parse_json(resp, HC, err)) == NULL)
		return err->status;
	list = prov_get_array(root, phases[ph]);
	if (list == NULL) {
		prov_body_message(resp, text, sizeof text);
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, HC " sent an answer without a \"%s\" list%s%s",
		    phases[ph], text[0] ? ": " : "", text);
	}
	n = json_object_array_length(list);
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, HC " sent %zu %s; only the first %d were kept", n, phases[ph],
		    PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(list, i);

		if (ph == PH_CHECKS) {
			bool ok = json_object_is_type(it, json_type_object);

			/* A read-only key shows unique_key instead of uuid. */
			if (ok && prov_get_id(it, "uuid", id, sizeof id) != 0) {
				ok = prov_get_id(it, "unique_key", id, sizeof id) == 0;
				readonly += ok;
			}
			if (!ok) {
				prov_page_warn(page, HC " sent a check without a usable uuid; skipped");
				continue;
			}
			add_check(it, id, page);
		} else {
			if (!json_object_is_type(it, json_type_object) ||
			    prov_get_id(it, "id", id, sizeof id) != 0) {
				prov_page_warn(page, HC " sent an integration without a usable id; skipped");
				continue;
			}
			add_channel(it, id, page);
		}
	}
	if (ph == PH_CHECKS && readonly > 0)
		prov_page_warn(page, "The " HC " API key is read-only: the checks were imported without "
		    "their ping URLs and integrations, and no contacts were imported (use the project's "
		    "read-write API key to import them too)");
	else if (phases[ph + 1] != NULL)
		page->next_cursor = prov_cursor_make(phases[ph + 1], 0);
	json_object_put(root);
	return PROV_OK;
}

static enum prov_status
healthchecks_fetch(struct prov_session *s, const char *cursor, struct prov_page *page,
    struct prov_error *err)
{
	const char *key = prov_cred(s, "api_key");
	char *hdr, *url;
	size_t ph;
	int64_t pos;

	if (prov_cursor_parse(cursor, phases, 0, &ph, &pos) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " HC " discovery: bad checkpoint");
	if (key == NULL)
		return prov_fail(err, PROV_AUTH, "the " HC " credentials have no usable api_key");
	url = prov_url(s, "/api/v3/%s/", phases[ph]);
	hdr = xasprintf("X-Api-Key: %s", key);
	return prov_fetch_get(s, cursor, url, hdr, healthchecks_parse, page, err);
}

const struct provider_ops healthchecks_ops = { healthchecks_fetch };
