#include "db/admin.h"

int
schema_migrations_init(struct db *db)
{
	return db_exec(db, ST_MIGRATIONS_TABLE, "") < 0 ? -1 : 0;
}

int
schema_migration_applied(struct db *db, const char *name)
{
	int64_t one;

	return db_scalar(db, &one, ST_MIGRATION_APPLIED, "s", name);
}

int
schema_migration_record(struct db *db, const char *name)
{
	return db_exec(db, ST_MIGRATION_RECORD, "s", name) < 0 ? -1 : 0;
}

int
rate_limits_engine(struct db *db, const char **now)
{
	/* The MEMORY table's room is fixed when it is altered: 256 MiB, about 1.6 million buckets
	 * (tokens and client addresses) in the 5 minutes the runner keeps; the purge reads
	 * window_start by range, hence a BTREE index. */
	static const char *const to_memory[] = { "SET SESSION max_heap_table_size = 268435456",
		"ALTER TABLE rate_limits DROP KEY rate_limits_window,"
		" ADD KEY rate_limits_window (window_start) USING BTREE, ENGINE=MEMORY" };
	static const char *const to_innodb[] = { "ALTER TABLE rate_limits ENGINE=InnoDB" };
	int64_t cluster = 0, memory = 0;
	bool want_memory;

	if (db_scalar(db, &cluster, ST_WSREP_ON, "") < 0 && db_error_class(db) != DB_OTHER)
		return -1;
	if (db_scalar(db, &memory, ST_RL_ENGINE, "") < 0)
		return -1;
	want_memory = cluster == 0;
	*now = want_memory ? "MEMORY" : "InnoDB";
	if ((memory != 0) == want_memory)
		return 0;
	for (size_t i = 0; i < (want_memory ? 2u : 1u); i++)
		if (db_run_script_stmt(db, want_memory ? to_memory[i] : to_innodb[i]) != 0)
			return -1;
	return 1;
}

int
user_add(struct db *db, const char *name, const char *email, uint64_t *id)
{
	if (db_exec(db, ST_USER_ADD, "ss", name, email) < 0)
		return -1;
	*id = db_insert_id(db);
	return 0;
}

int
user_exists(struct db *db, uint64_t user)
{
	int64_t id;

	return db_scalar(db, &id, ST_USER_EXISTS, "u", user);
}

/* The end of a row loop: free r, -1 when the loop ended on an error. */
static int
rows_end(struct db_res *r, int rc)
{
	db_free(r);
	return rc < 0 ? -1 : 0;
}

int
users_list(struct db *db, void (*row)(const struct admin_user *, void *), void *arg)
{
	struct db_res *r = db_query(db, ST_USER_LIST, "");
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1) {
		struct admin_user u = { .id = db_str(r, 0),
			.name = db_str(r, 1),
			.email = db_str(r, 2),
			.created = db_str(r, 3),
			.active_tokens = db_str(r, 4) };
		row(&u, arg);
	}
	return rows_end(r, rc);
}

int
token_add(struct db *db, uint64_t user, const char *name, const unsigned char *hash, size_t hash_len,
    const char *scopes, uint64_t *id)
{
	if (db_exec(db, ST_TOKEN_ADD, "usbs", user, name, hash, hash_len, scopes) < 0)
		return -1;
	*id = db_insert_id(db);
	return 0;
}

int
tokens_list(struct db *db, uint64_t user, void (*row)(const struct admin_token *, void *), void *arg)
{
	struct db_res *r = db_query(db, ST_TOKEN_LIST, "u", user);
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1) {
		struct admin_token t = { .id = db_str(r, 0),
			.name = db_str(r, 1),
			.scopes = db_str(r, 2),
			.last_used = db_str(r, 3),
			.created = db_str(r, 4),
			.revoked = db_str(r, 5) };
		row(&t, arg);
	}
	return rows_end(r, rc);
}

int
token_revoke(struct db *db, uint64_t id)
{
	int64_t n = db_exec(db, ST_TOKEN_REVOKE, "u", id);

	return n < 0 ? -1 : n > 0;
}

int
flag_set(struct db *db, const char *flag, uint64_t user, bool on)
{
	return db_exec(db, ST_FLAG_SET, "sui", flag, user, (int64_t)on) < 0 ? -1 : 0;
}

int
flag_get(struct db *db, const char *flag, uint64_t user, int *global, int *user_on)
{
	struct db_res *r = db_query(db, ST_FLAG_GET, "su", flag, user);
	int rc;

	*global = *user_on = -1;
	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1) {
		if (db_i64(r, 0) == 0)
			*global = db_i64(r, 1) != 0;
		else
			*user_on = db_i64(r, 1) != 0;
	}
	return rows_end(r, rc);
}

int
status_queues(struct db *db, void (*row)(const struct admin_queue *, void *), void *arg)
{
	struct db_res *r = db_query(db, ST_STATUS_QUEUES, "");
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1) {
		struct admin_queue q = { .queue = db_str(r, 0),
			.jobs = db_str(r, 1),
			.oldest_age_s = db_str(r, 2),
			.reserved = db_str(r, 3) != NULL ? db_str(r, 3) : "0" };
		row(&q, arg);
	}
	return rows_end(r, rc);
}

int
status_runs(struct db *db, void (*row)(const struct admin_run_count *, void *), void *arg)
{
	struct db_res *r = db_query(db, ST_STATUS_RUNS, "");
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1) {
		struct admin_run_count c = { .status = db_str(r, 0), .runs = db_str(r, 1) };
		row(&c, arg);
	}
	return rows_end(r, rc);
}
