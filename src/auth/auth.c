#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "auth/auth.h"
#include "core/util.h"
#include "crypto/token.h"

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

int
auth_bearer(struct db *db, const struct config *cfg, const char *hdr, struct principal *p, struct err *e)
{
	const char *secret;
	size_t secret_len;
	uint64_t id;
	struct db_res *r;
	char bad[80];
	int rc;

	memset(p, 0, sizeof *p);
	if (hdr == NULL || strncasecmp(hdr, "Bearer ", 7) != 0)
		return err_set(e, ERR_UNAUTHENTICATED, NULL);
	hdr += 7;
	while (*hdr == ' ')
		hdr++;
	if (token_parse(hdr, &id, &secret, &secret_len) != 0)
		return err_set(e, ERR_UNAUTHENTICATED, NULL);
	if ((r = db_query(db, ST_AUTH_TOKEN, "u", id)) == NULL)
		return db_fail(db, e);
	rc = db_next(r);
	if (rc < 0) {
		db_free(r);
		return db_fail(db, e);
	}
	/* Unknown id and wrong secret give the same answer, after the same work. */
	if (rc == 0) {
		unsigned char dummy[TOKEN_HASH_LEN] = { 0 };
		(void)token_verify(secret, secret_len, dummy, sizeof dummy);
		db_free(r);
		return err_set(e, ERR_UNAUTHENTICATED, NULL);
	}
	if (!token_verify(secret, secret_len, (const unsigned char *)db_str(r, 1), db_len(r, 1)) ||
	    scope_parse_list(db_str(r, 2) ? db_str(r, 2) : "", &p->scopes, bad, sizeof bad) != 0) {
		db_free(r);
		return err_set(e, ERR_UNAUTHENTICATED, NULL);
	}
	p->token_id = id;
	p->user_id = (uint64_t)db_i64(r, 0);
	utf8_copy(p->name, sizeof p->name, db_str(r, 3) ? db_str(r, 3) : "");
	utf8_copy(p->email, sizeof p->email, db_str(r, 4) ? db_str(r, 4) : "");
	p->flag_on = db_null(r, 5) ? cfg->migrator_default : db_i64(r, 5) != 0;
	db_free(r);
	return 0;
}

int
rate_hit(struct db *db, const char *bucket, int limit, struct rate *r, struct err *e)
{
	int64_t hits;

	if (db_exec(db, ST_RL_HIT, "s", bucket) < 0)
		return db_fail(db, e);
	hits = (int64_t)db_insert_id(db);
	r->limit = limit;
	r->remaining = hits >= limit ? 0 : (int)(limit - hits);
	r->exceeded = hits > limit;
	r->retry_after = (int)(60 - now_s() % 60);
	if (r->retry_after < 1)
		r->retry_after = 1;
	return 0;
}
