/* The provider layer: the nine source providers, their credential fields
 * (providers.md §12), and the discovery interface the runner calls.
 *
 * Discovery is paged: the runner calls ops->fetch with the run's checkpoint
 * cursor (NULL at the start) and gets one page of items plus the cursor to
 * continue from (NULL when discovery is complete). The cursor format is the
 * adapter's own (e.g. "monitors:50"); it is stored in the run and must let a
 * crashed runner resume exactly there. Adapters never touch the database.
 *
 * Normalized data (prov_item.norm): one JSON object per resource_type, built
 * only with the prov_norm_* builders of common.h, whose structs say what each
 * key holds; every key is always present, and "unread" (prov_unread) too when
 * a read that feeds some of them failed. Unknown provider values map to
 * "other" (and a warning). The resource types and their builders:
 *   monitor, heartbeat, contact, status_page, maintenance_window,
 *   status_page_subscriber (prov_norm_subscriber), hosting_client,
 *   hosting_contact, hosting_service, hosting_addon, hosting_domain,
 *   invoice (with its lines), payment.
 * References to other resources of the same run are their external ids
 * (contact_ids, monitor_ids, items[].monitor_id, client_id, service_id,
 * invoice_id, status_page_id). A status page's item may carry "ref", the
 * provider's own id of the entry (a Statuspage component), which a
 * subscriber's "components" and an incident's affected components name; an
 * incident names entries by their index in items. Normalized monitor types: http keyword ping
 * port dns tcp udp smtp pop3 imap ssh api other; contact types: email sms voice
 * webhook slack teams telegram discord pagerduty opsgenie pushover push other.
 */
#ifndef MIGRATOR_PROVIDER_H
#define MIGRATOR_PROVIDER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/config.h"
#include "core/err.h"

struct provider_ops;
struct prov_fields;

struct provider_def {
	const char *id;               /* spec value, e.g. "uptimerobot" */
	const char *name;             /* as people write it, e.g. "UptimeRobot" (messages) */
	const char *default_base_url; /* scheme and host; NULL when the user must give one */
	const char *const *required;  /* credential fields, NULL-terminated */
	const char *const *optional;
	const char *url_field;            /* credential field holding an untrusted URL, or NULL */
	const char *const *plain;         /* credential fields that name, not unlock: not secrets */
	const char *const *imports;       /* resource types it imports */
	const struct provider_ops *ops;   /* discovery */
	int min_interval_ms;              /* the published request rate as the least time between two
	                      * requests of one account (providers.md §3.3, §6.3, §8.3); 0: none */
	const struct prov_fields *fields; /* the fate of each field it answers with (providers/fields.h),
	                                   * per resource type; NULL: not stated yet */
};

/* The nine providers, in the order the interface lists them; NULL-terminated. */
extern const struct provider_def *const provider_list[];
/* The provider with this id, or NULL. */
const struct provider_def *provider_find(const char *id);
/* True when name is one of def's required or optional credential fields. */
bool provider_has_field(const struct provider_def *def, const char *name);

struct prov_item {
	char resource_type[32];
	char external_id[192];
	json_object *raw;  /* provider object as received (external_data); owned */
	json_object *norm; /* normalized fields as above (normalized_data); owned */
};

struct prov_page {
	struct prov_item *items;
	size_t n, cap;
	char *next_cursor; /* malloc'd; NULL: discovery complete */
	char **warnings;   /* malloc'd human texts, e.g. unknown values kept as other */
	size_t nwarnings;
};

enum prov_status {
	PROV_OK = 0,
	PROV_AUTH,         /* bad or missing key: fatal for the run */
	PROV_RATE_LIMITED, /* 429/420, or a request held back: the session's pace says when to ask again */
	PROV_TRANSIENT,    /* 5xx, timeout, truncated or malformed answer: retry with backoff */
	PROV_FATAL         /* anything else that retrying cannot fix (bad URL, refused address) */
};

struct prov_error {
	enum prov_status status;
	int retry_after;   /* seconds the provider asked for (Retry-After, its limit headers); 0: none */
	char message[256]; /* human text, never containing a credential */
};

/* How one session spaces its requests and waits out the provider's rate
 * limit (docs/runner.md, "Rate limits"). prov_http keeps it; the runner sets
 * deadline_ms for each step and keeps refusals and refused_since across steps
 * and runner processes (in the discovery job's payload). */
struct prov_pace {
	int64_t interval_ms;   /* at least this between two requests (def->min_interval_ms) */
	int64_t deadline_ms;   /* monotonic: a rate-limit wait ending later is not waited in
	                        * prov_http but left to the runner (0: none is waited there) */
	int64_t next_ms;       /* monotonic: no request before this */
	bool limited;          /* next_ms is the rate limit's (a refusal, a quota used up), not the pace */
	int refusals;          /* refusals (HTTP 429 or 420) in a row */
	int64_t refused_since; /* wall clock (ms since the epoch) of the first of them; 0: none */
	bool gave_up;          /* they lasted, or would, past [limits] provider_wait_max */
	int waits;             /* refusals waited out in prov_http since the runner took them, */
	int64_t waited_ms;     /* and how long in all (the run log says so) */
};

struct prov_session {
	const struct provider_def *def;
	const struct config *cfg;
	json_object *creds;      /* unsealed credentials; borrowed */
	char base_url[512];      /* from [provider.<id>] base_url, the credentials, or the default */
	bool base_url_untrusted; /* it came from the user: the URL guard applies */
	long timeout_s;          /* [provider.<id>] timeout */
	struct prov_pace pace;
};

struct provider_ops {
	/* Fetch one page starting at cursor (NULL = from the start) into page.
	 * Returns PROV_OK or an error status with err filled. */
	enum prov_status (*fetch)(struct prov_session *, const char *cursor, struct prov_page *page,
	    struct prov_error *err);
};

/* Set up a session for def from the config and credentials. 0, or -1 with err. */
int prov_session_init(struct prov_session *, const struct provider_def *def, const struct config *cfg,
    json_object *creds, struct prov_error *err);
/* Append an item (takes ownership of raw and norm). */
struct prov_item *prov_page_add(struct prov_page *, const char *type, const char *external_id,
    json_object *raw, json_object *norm);
void prov_page_warn(struct prov_page *, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void prov_page_free(struct prov_page *);

#endif
