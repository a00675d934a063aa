#include <string.h>

#include "providers/adapters.h"
#include "providers/provider.h"

#define FIELDS(...) (const char *const[]){ __VA_ARGS__, NULL }
#define NOFIELDS (const char *const[]){ NULL }

/* Discovery implementations (ops) are wired in as each adapter lands
 * (src/providers/README.md); NULL ops: not implemented yet. */

static const struct provider_def p_uptimerobot = {
	"uptimerobot", "https://api.uptimerobot.com", FIELDS("api_key"), NOFIELDS, NULL,
	FIELDS("monitor", "heartbeat", "contact", "status_page"), &uptimerobot_ops };
static const struct provider_def p_pingdom = {
	"pingdom", "https://api.pingdom.com", FIELDS("api_token"), NOFIELDS, NULL,
	FIELDS("monitor", "contact"), &pingdom_ops };
static const struct provider_def p_statuscake = {
	"statuscake", "https://api.statuscake.com", FIELDS("api_token"), NOFIELDS, NULL,
	FIELDS("monitor", "heartbeat", "contact"), &statuscake_ops };
static const struct provider_def p_better_stack = {
	"better_stack", "https://uptime.betterstack.com", FIELDS("api_token"), FIELDS("team_name"), NULL,
	FIELDS("monitor", "heartbeat", "status_page", "contact"), &better_stack_ops };
static const struct provider_def p_updown = {
	"updown", "https://updown.io", FIELDS("api_key"), NOFIELDS, NULL,
	FIELDS("monitor", "contact", "status_page"), &updown_ops };
static const struct provider_def p_healthchecks = {
	"healthchecks", "https://healthchecks.io", FIELDS("api_key"), FIELDS("base_url"), "base_url",
	FIELDS("heartbeat", "contact"), &healthchecks_ops };
static const struct provider_def p_cronitor = {
	"cronitor", "https://cronitor.io", FIELDS("api_key"), NOFIELDS, NULL,
	FIELDS("heartbeat", "monitor", "contact", "status_page"), &cronitor_ops };
static const struct provider_def p_statuspage = {
	"statuspage", "https://api.statuspage.io", FIELDS("api_key"), FIELDS("page_id"), NULL,
	FIELDS("status_page", "monitor", "contact"), &statuspage_ops };
static const struct provider_def p_whmcs = {
	"whmcs", NULL, FIELDS("url", "api_identifier", "api_secret"), FIELDS("access_key"), "url",
	FIELDS("hosting_client", "hosting_service", "hosting_domain", "invoice"), &whmcs_ops };

const struct provider_def *const provider_list[] = {
	&p_uptimerobot, &p_pingdom, &p_statuscake, &p_better_stack, &p_updown,
	&p_healthchecks, &p_cronitor, &p_statuspage, &p_whmcs, NULL
};

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
