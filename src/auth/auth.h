/* Who is calling: bearer token lookup, scopes, the features:migrator flag,
 * and the per-minute counters that live in MySQL (so they hold across
 * processes and hosts). */
#ifndef MIGRATOR_AUTH_H
#define MIGRATOR_AUTH_H
#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "core/err.h"
#include "db/db.h"

enum scope {
	SC_MONITORING_READ,
	SC_MONITORING_WRITE,
	SC_MONITORING_DELETE,
	SC_ALERTING_READ,
	SC_ALERTING_WRITE,
	SC_ALERTING_DELETE,
	SC_INFRA_READ,
	SC_INFRA_WRITE,
	SC_INFRA_DELETE,
	SC_ACCOUNT_READ,
	SC_ACCOUNT_WRITE,
	SC_ACCOUNT_DELETE,
	SC_MCP_USE,
	SC__COUNT,
	SC_NONE = -1 /* an operation that needs only a valid token */
};

struct principal {
	uint64_t token_id;
	uint64_t user_id;
	char name[256];
	char email[256];
	uint32_t scopes; /* bit per enum scope */
	bool flag_on;    /* features:migrator, effective for this user */
};

struct rate {
	int limit;
	int remaining;
	int retry_after; /* seconds to the next window */
	bool exceeded;
};

const char *scope_name(enum scope);
/* Parse "a,b,c" (or space separated) into a mask. 0, or -1 naming the bad scope in bad[]. */
int scope_parse_list(const char *list, uint32_t *mask, char *bad, size_t badlen);
bool scope_has(const struct principal *, enum scope);

/* Authenticate "Bearer <id>|<secret>" and count the request in the token's bucket for the
 * current minute (limit: [limits] requests_per_minute), in one round trip when this process
 * knows the token's owner (docs/security.md). 0 with p and r filled, or -1 with e (401 for
 * anything wrong with the token: an unknown id, a revoked token or a wrong secret count nothing
 * in its bucket; 503 when the database is down). */
int auth_bearer(struct db *, const struct config *, const char *authorization, struct principal *p,
    struct rate *r, struct err *e);

/* Count one hit in bucket for the current minute (one round trip) and fill r. */
int rate_hit(struct db *, const char *bucket, int limit, struct rate *r, struct err *e);

#endif
