/* What migratorctl reads and writes: schema migrations, users, tokens, the
 * feature flag and the queue status, each behind a function named for what
 * it does, so the command line never sees a statement or a column number
 * (the statements are in sql_core.def).
 *
 * Functions return 0 (or what they say) or -1, and db_error(db) and
 * db_error_class(db) tell why. A row callback gets strings borrowed for the
 * length of the call. */
#ifndef MIGRATOR_DB_ADMIN_H
#define MIGRATOR_DB_ADMIN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

/* ---- schema migrations (table schema_migrations) ---- */

/* Create the table of applied migrations if it is not there. */
int schema_migrations_init(struct db *);
/* 1 when the migration file name was applied, 0 when not, -1 on error. */
int schema_migration_applied(struct db *, const char *name);
/* Record name as applied. */
int schema_migration_record(struct db *, const char *name);
/* Give the rate-limit counters the engine this server needs: MEMORY on one server (a request's
 * count costs no log flush), InnoDB on a Galera node (Galera replicates nothing else, and a
 * cluster in STRICT_REPLICATION mode refuses other engines). *now: the engine it has now, static.
 * 1 changed, 0 already so, -1 on error. */
int rate_limits_engine(struct db *, const char **now);

/* ---- users and tokens ---- */

struct admin_user {
	const char *id, *name, *email, *created;
	const char *active_tokens; /* tokens not revoked */
};
struct admin_token {
	const char *id, *name, *scopes;
	const char *last_used; /* NULL: never used */
	const char *created;
	const char *revoked; /* NULL: active */
};

/* Add a user; *id is its id. A taken email fails with DB_DUPLICATE. */
int user_add(struct db *, const char *name, const char *email, uint64_t *id);
/* 1 when user exists, 0 when not, -1 on error. */
int user_exists(struct db *, uint64_t user);
/* Call row for every user, by id. */
int users_list(struct db *, void (*row)(const struct admin_user *, void *), void *arg);
/* Add a token of user holding the hash (never the secret) and the scopes
 * ("a,b"); *id is its id. */
int token_add(struct db *, uint64_t user, const char *name, const unsigned char *hash, size_t hash_len,
    const char *scopes, uint64_t *id);
/* Call row for every token of user, revoked ones too, by id. */
int tokens_list(struct db *, uint64_t user, void (*row)(const struct admin_token *, void *), void *arg);
/* Revoke token id: 1 when it was active, 0 when it is unknown or already
 * revoked, -1 on error. */
int token_revoke(struct db *, uint64_t id);

/* ---- the feature flag (table feature_flags) ---- */

/* Set flag on or off for user (0: the global row). */
int flag_set(struct db *, const char *flag, uint64_t user, bool on);
/* The rows that decide flag for user (0: only the global one): *global and
 * *user_on are 1 (on), 0 (off) or -1 (no row). */
int flag_get(struct db *, const char *flag, uint64_t user, int *global, int *user_on);

/* ---- queue status ---- */

struct admin_queue {
	const char *queue, *jobs;
	const char *reserved;     /* jobs under a lease now */
	const char *oldest_age_s; /* seconds since the oldest job was queued */
};
struct admin_run_count {
	const char *status, *runs;
};

/* Call row for every queue that holds jobs, by name. */
int status_queues(struct db *, void (*row)(const struct admin_queue *, void *), void *arg);
/* Call row for every run status in use, with its number of runs, by status. */
int status_runs(struct db *, void (*row)(const struct admin_run_count *, void *), void *arg);

#endif
