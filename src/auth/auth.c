#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

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
			utf8_format(bad, badlen, "%.*s", (int)n, p); /* the token whole, then cut to fit */
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

/* The owners of recently used tokens, per process, so that a request with a known token makes
 * one round trip (ST_AUTH_HIT) instead of two. An entry holds the token's user and scopes (no
 * command changes them) and the user's name and email, all read again after AUTH_CACHE_SECONDS; it is used
 * only after ST_AUTH_HIT has found the token valid with this very secret, in the same request, and
 * the flag always comes from that statement (docs/security.md). */
#define AUTH_CACHE_SLOTS   64
#define AUTH_CACHE_SECONDS 60

struct owner {
	uint64_t token_id; /* 0: empty slot */
	unsigned char hash[TOKEN_HASH_LEN];
	int64_t loaded_ms; /* mono_ms() when read from the database */
	uint64_t user_id;
	uint32_t scopes;
	char name[256], email[256];
};

static struct owner owners[AUTH_CACHE_SLOTS];

/* What the token lookup found, checked against the presented secret. */
struct presented {
	const char *secret;
	size_t secret_len;
	struct owner *o;
	bool ok;
};

static void
token_check(const struct token_row *t, void *arg)
{
	struct presented *x = arg;
	char bad[80];

	if (!token_verify(x->secret, x->secret_len, t->hash, t->hash_len) ||
	    scope_parse_list(t->scopes ? t->scopes : "", &x->o->scopes, bad, sizeof bad) != 0)
		return;
	x->ok = true;
	x->o->user_id = t->user_id;
	utf8_copy(x->o->name, sizeof x->o->name, t->name ? t->name : "");
	utf8_copy(x->o->email, sizeof x->o->email, t->email ? t->email : "");
}

/* The owner of token id with this hash: from the cache while fresh, else read and cached.
 * 1 found, 0 no such token, -1 database error. */
static int
owner_get(struct db *db, uint64_t id, const char *secret, size_t secret_len,
    const unsigned char hash[TOKEN_HASH_LEN], const struct owner **out)
{
	struct owner *o = &owners[id % AUTH_CACHE_SLOTS];
	struct presented x = { secret, secret_len, o, false };
	int rc;

	if (o->token_id == id && sodium_memcmp(o->hash, hash, TOKEN_HASH_LEN) == 0 &&
	    mono_ms() - o->loaded_ms < AUTH_CACHE_SECONDS * 1000) {
		*out = o;
		return 1;
	}
	if ((rc = token_lookup(db, id, token_check, &x)) <= 0 || !x.ok) {
		memset(o, 0, sizeof *o);
		return rc < 0 ? -1 : 0;
	}
	o->token_id = id;
	memcpy(o->hash, hash, TOKEN_HASH_LEN);
	o->loaded_ms = mono_ms();
	*out = o;
	return 1;
}

/* r from a bucket's count this minute. */
static void
rate_fill(struct rate *r, int64_t hits, int limit)
{
	r->limit = limit;
	r->remaining = hits >= limit ? 0 : (int)(limit - hits);
	r->exceeded = hits > limit;
	r->retry_after = (int)(60 - now_s() % 60);
	if (r->retry_after < 1)
		r->retry_after = 1;
}

int
auth_bearer(struct db *db, const struct config *cfg, const char *hdr, struct principal *p, struct rate *r,
    struct err *e)
{
	unsigned char hash[TOKEN_HASH_LEN];
	const struct owner *o;
	const char *secret;
	size_t secret_len;
	char bucket[48];
	int64_t hits;
	uint64_t id;
	int rc, flag;

	memset(p, 0, sizeof *p);
	if (hdr == NULL || strncasecmp(hdr, "Bearer ", 7) != 0)
		return err_set(e, ERR_UNAUTHENTICATED, NULL);
	hdr += 7;
	while (*hdr == ' ')
		hdr++;
	if (token_parse(hdr, &id, &secret, &secret_len) != 0)
		return err_set(e, ERR_UNAUTHENTICATED, NULL);
	/* The database compares the hash, never the secret: an unknown id, a revoked token and a
	 * wrong secret cost the same statement, and the comparison's time tells nothing of the
	 * stored hash that SHA-256 of a chosen secret would not. */
	token_hash(secret, secret_len, hash);
	snprintf(bucket, sizeof bucket, "token:%llu", (unsigned long long)id);
	rc = token_hit(db, id, hash, sizeof hash, bucket, &hits, &flag);
	if (rc > 0)
		rc = owner_get(db, id, secret, secret_len, hash, &o);
	sodium_memzero(hash, sizeof hash);
	if (rc < 0)
		return db_fail(db, e);
	if (rc == 0)
		return err_set(e, ERR_UNAUTHENTICATED, NULL);
	p->token_id = id;
	p->user_id = o->user_id;
	p->scopes = o->scopes;
	memcpy(p->name, o->name, sizeof p->name);
	memcpy(p->email, o->email, sizeof p->email);
	p->flag_on = flag < 0 ? cfg->migrator_default : flag != 0;
	rate_fill(r, hits, cfg->requests_per_minute);
	return 0;
}

int
rate_hit(struct db *db, const char *bucket, int limit, struct rate *r, struct err *e)
{
	int64_t hits;

	if ((hits = rate_count(db, bucket)) < 0)
		return db_fail(db, e);
	rate_fill(r, hits, limit);
	return 0;
}
