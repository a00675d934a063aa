#include <string.h>

#include "providers/adapters.h"
#include "providers/provider.h"

#define FIELDS(...) \
	(const char *const[]) \
	{ \
		__VA_ARGS__, NULL \
	}
#define NOFIELDS \
	(const char *const[]) \
	{ \
		NULL \
	}

/* The nine providers (providers.md §12): credential fields, the field that
 * holds a user's URL, the fields that name rather than unlock (never treated
 * as secrets when answers are scrubbed), what each imports, its adapter, and
 * the published request rate it is paced to (providers.md §1.4–§9.3; the
 * others publish none, or say it in their answers' headers, which prov_http
 * honours for every provider). */
/* clang-format off */
static const struct provider_def p_uptimerobot = {
	.id = "uptimerobot", .name = "UptimeRobot", .default_base_url = "https://api.uptimerobot.com",
	.required = FIELDS("api_key"), .optional = NOFIELDS, .plain = NOFIELDS,
	.imports = FIELDS("monitor", "heartbeat", "contact", "maintenance_window", "status_page"),
	.ops = &uptimerobot_ops, .fields = uptimerobot_fields };
static const struct provider_def p_pingdom = {
	.id = "pingdom", .name = "Pingdom", .default_base_url = "https://api.pingdom.com",
	.required = FIELDS("api_token"), .optional = NOFIELDS, .plain = NOFIELDS,
	.imports = FIELDS("monitor", "contact", "maintenance_window"), .ops = &pingdom_ops,
	.fields = pingdom_fields };
static const struct provider_def p_statuscake = {
	.id = "statuscake", .name = "StatusCake", .default_base_url = "https://api.statuscake.com",
	.required = FIELDS("api_token"), .optional = NOFIELDS, .plain = NOFIELDS,
	.imports = FIELDS("monitor", "heartbeat", "contact", "maintenance_window"), .ops = &statuscake_ops,
	.fields = statuscake_fields, .min_interval_ms = 200 /* §3.3: a burst limit of 5 requests a second on every plan */ };
static const struct provider_def p_better_stack = {
	.id = "better_stack", .name = "Better Stack", .default_base_url = "https://uptime.betterstack.com",
	.required = FIELDS("api_token"), .optional = FIELDS("team_name"), .plain = FIELDS("team_name"),
	.imports = FIELDS("monitor", "heartbeat", "status_page", "contact", "maintenance_window"),
	.ops = &better_stack_ops, .fields = better_stack_fields };
static const struct provider_def p_updown = {
	.id = "updown", .name = "updown.io", .default_base_url = "https://updown.io", .required = FIELDS("api_key"),
	.optional = NOFIELDS, .plain = NOFIELDS, .imports = FIELDS("monitor", "heartbeat", "contact", "status_page"),
	.ops = &updown_ops, .fields = updown_fields };
static const struct provider_def p_healthchecks = {
	.id = "healthchecks", .name = "Healthchecks", .default_base_url = "https://healthchecks.io",
	.required = FIELDS("api_key"), .optional = FIELDS("base_url"), .url_field = "base_url", .plain = NOFIELDS,
	.imports = FIELDS("heartbeat", "contact"), .ops = &healthchecks_ops, .fields = healthchecks_fields,
	.min_interval_ms = 600 /* §6.3: at most 100 requests a minute advised */ };
static const struct provider_def p_cronitor = {
	.id = "cronitor", .name = "Cronitor", .default_base_url = "https://cronitor.io", .required = FIELDS("api_key"),
	.optional = NOFIELDS, .plain = NOFIELDS,
	.imports = FIELDS("heartbeat", "monitor", "contact", "status_page", "maintenance_window"), .ops = &cronitor_ops,
	.fields = cronitor_fields };
static const struct provider_def p_statuspage = {
	.id = "statuspage", .name = "Statuspage", .default_base_url = "https://api.statuspage.io",
	.required = FIELDS("api_key"), .optional = FIELDS("page_id"), .plain = FIELDS("page_id"),
	.imports = FIELDS("status_page", "status_page_subscriber"), .ops = &statuspage_ops,
	.fields = statuspage_fields, .min_interval_ms = 1000 /* §8.3: 1 request a second per token */ };
static const struct provider_def p_whmcs = {
	.id = "whmcs", .name = "WHMCS", .required = FIELDS("url", "api_identifier", "api_secret"),
	.optional = FIELDS("access_key"), .url_field = "url", .plain = NOFIELDS,
	.imports = FIELDS("hosting_client", "hosting_contact", "hosting_service", "hosting_addon", "hosting_domain",
	    "invoice", "payment"), .ops = &whmcs_ops, .fields = whmcs_fields };

const struct provider_def *const provider_list[] = {
	&p_uptimerobot, &p_pingdom, &p_statuscake, &p_better_stack, &p_updown,
	&p_healthchecks, &p_cronitor, &p_statuspage, &p_whmcs, NULL
};
/* clang-format on */

const struct provider_def *
provider_find(const char *id)
{
	if (id == NULL)
		return NULL;
	for (size_t i = 0; provider_list[i] != NULL; i++)
		if (strcmp(provider_list[i]->id, id) == 0)
			return provider_list[i];
	return NULL;
}

bool
provider_has_field(const struct provider_def *def, const char *name)
{
	for (size_t i = 0; def->required[i] != NULL; i++)
		if (strcmp(def->required[i], name) == 0)
			return true;
	for (size_t i = 0; def->optional[i] != NULL; i++)
		if (strcmp(def->optional[i], name) == 0)
			return true;
	return false;
}
