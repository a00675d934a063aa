#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "auth/auth.h"
#include "core/util.h"
#include "crypto/token.h"
#include "db/runs.h"

/* clang-format off */
static const char *const scope_names[SC__COUNT] = {
	"monitoring:read", "monitoring:write", "monitoring:delete",
	"alerting:read", "alerting:write", "alerting:delete",
	"infra:read", "infra:write", "infra:delete",
	"account:read", "account:write", "account:delete",
	"mcp:use",
};
/* clang-format on */

const char *
scope_name(enum scope s)
{
	return (int)s >= 0 && s < SC__COUNT ? scope_names[s] : "";
}

int
scope_parse_list(const char *list, uint32_t *mask, char *bad, size_t badlen)
{
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t n = strcspn(p, ", ");
		int found = -1;

		for (int i = 0; n > 0 && i < SC__COUNT; i++)
			if (strlen(scope_names[i]) == n && strncmp(scope_names[i], p, n) == 0)
				found = i;
		if (n > 0 && found < 0) {
			snprintf(bad, badlen, "%.*s", (int)(n > 64 ? 64 : n), p);
			return -1;
		}
		if (found >= 0)
			*mask |= 1u << found;
		p += n;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return 0;
}

bool
scope_has(const struct principal *p, enum scope s)
{
	if (s == SC_NONE)
		return true;
	return (p->scopes & (1u << s)) != 0;
}

/* What the token lookup found, checked against the presented secret. */
struct presented {
	const char *secret;
	size_t secret_len;
	const struct config *cfg;
	struct principal *p;
	bool ok;
};

static void
token_check(const struct token_row *t, void *arg)
{
	struct presented *x = arg;
	char bad[80];

	if (!token_verify(x->secret, x->secret_len, t->hash, t->hash_len) ||
	    scope_parse_list(t->scopes ? t->scopes : "", &x->p->scopes, bad, sizeof bad) != 0)
		return;
	x->ok = true;
	x->p->user_id = t->user_id;
	utf8_copy(x->p->name, sizeof x->p->name, t->name ? t->name : "");
	utf8_copy(x->p->email, sizeof x->p->email, t->email ? t->email : "");
	x->p->flag_on = t->flag < 0 ? x->cfg->migrator_default : t->flag != 0;
}

int
auth_bearer(struct db *db, const struct config *cfg, const char *hdr, struct principal *p, struct err *e)
{
	struct presented x = { NULL, 0, cfg, p, false };
	uint64_t id;
	int rc;

	memset(p, 0, sizeof *p);
	if (hdr == NULL || strncasecmp(hdr, "Bearer ", 7) != 0)
		return err_set(e, ERR_UNAUTHENTICATED, NULL);
	hdr += 7;
	while (*hdr == ' ')
		hdr++;
	if (token_parse(hdr, &id, &x.secret, &x.secret_len) != 0)
		return err_set(e, ERR_UNAUTHENTICATED, NULL);
	if ((rc = token_lookup(db, id, token_check, &x)) < 0)
		return db_fail(db, e);
	/* Unknown id and wrong secret give the same answer, after the same work. */
	if (rc == 0) {
		unsigned char dummy[TOKEN_HASH_LEN] = { 0 };
		(void)token_verify(x.secret, x.secret_len, dummy, sizeof dummy);
	}
	if (!x.ok) {
		memset(p, 0, sizeof *p);
		return err_set(e, ERR_UNAUTHENTICATED, NULL);
	}
	p->token_id = id;
	return 0;
}

int
rate_hit(struct db *db, const char *bucket, int limit, struct rate *r, struct err *e)
{
	int64_t hits;

	if ((hits = rate_count(db, bucket)) < 0)
		return db_fail(db, e);
	r->limit = limit;
	r->remaining = hits >= limit ? 0 : (int)(limit - hits);
	r->exceeded = hits > limit;
	r->retry_after = (int)(60 - now_s() % 60);
	if (r->retry_after < 1)
		r->retry_after = 1;
	return 0;
}
