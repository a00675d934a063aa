#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/xalloc.h"
#include "db/bounds.h"
#include "db/runner_rows.h"

/* Column col of the current row into out[n] ("" for NULL), cut on a
 * character boundary should it not fit. */
static void
col_text(struct db_res *r, int col, char *out, size_t n)
{
	utf8_copy(out, n, db_str(r, col) ? db_str(r, col) : "");
}

/* Text from outside as it is stored: s itself when it is valid UTF-8, else
 * *copy, s with '?' for each byte that is not (utf8_dup), which the caller
 * frees; so that no provider's bytes can make a write fail (strict SQL mode
 * refuses them: error 1366) and leave its job to come back. */
static const char *
storable(const char *s, char **copy)
{
	*copy = NULL;
	if (s == NULL || utf8_valid(s, strlen(s)))
		return s;
	return *copy = utf8_dup(s);
}

/* Column col as a malloc'd string, or NULL for NULL. */
static char *
col_dup(struct db_res *r, int col)
{
	return db_str(r, col) ? xstrdup(db_str(r, col)) : NULL;
}

int
run_get(struct db *db, const char *run_id, struct run_row *out)
{
	struct db_res *r = db_query(db, ST_RN_RUN_GET, "s", run_id);
	int rc;

	memset(out, 0, sizeof *out);
	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1) {
		out->user_id = (uint64_t)db_i64(r, 0);
		col_text(r, 1, out->provider, sizeof out->provider);
		col_text(r, 2, out->status, sizeof out->status);
		if (db_str(r, 3) != NULL) {
			out->credentials_len = db_len(r, 3);
			out->credentials = xmalloc(out->credentials_len + 1);
			memcpy(out->credentials, db_str(r, 3), out->credentials_len);
		}
		out->checkpoint = col_dup(r, 4);
		out->stats = col_dup(r, 5);
		out->options = col_dup(r, 6);
	}
	db_free(r);
	return rc;
}

int
run_lock(struct db *db, const char *run_id, bool exclusive, struct run_row *out)
{
	struct db_res *r;
	int rc;

	memset(out, 0, sizeof *out);
	if (exclusive && db_exec(db, ST_RN_RUN_DECIDE, "s", run_id) < 0)
		return -1;
	r = exclusive ? db_query(db, ST_RN_RUN_LOCK, "s", run_id) :
	                db_query(db, ST_RN_RUN_SHARE, "s", run_id);
	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1) {
		col_text(r, 0, out->status, sizeof out->status);
		if (exclusive) {
			out->checkpoint = col_dup(r, 1);
			out->stats = col_dup(r, 2);
		}
	}
	db_free(r);
	return rc;
}

void
run_row_clear(struct run_row *row)
{
	free(row->credentials);
	free(row->checkpoint);
	free(row->stats);
	free(row->options);
	memset(row, 0, sizeof *row);
}

/* Each group of the name -> count statement st over the run's resources to fn. */
static int
count_groups(struct db *db, enum stmt_id st, const char *run_id, count_fn *fn, void *arg)
{
	struct db_res *r = db_query(db, st, "s", run_id);
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1)
		if (db_str(r, 0) != NULL)
			fn(db_str(r, 0), db_i64(r, 1), arg);
	db_free(r);
	return rc < 0 ? -1 : 0;
}

int
run_count_by_type(struct db *db, const char *run_id, count_fn *fn, void *arg)
{
	return count_groups(db, ST_RN_COUNT_TYPE, run_id, fn, arg);
}

int
run_count_imported_by_type(struct db *db, const char *run_id, count_fn *fn, void *arg)
{
	return count_groups(db, ST_RN_COUNT_IMPORTED_TYPE, run_id, fn, arg);
}

int64_t
run_discovery_begin(struct db *db, const char *run_id)
{
	return db_exec(db, ST_RN_DISCOVERY_BEGIN, "s", run_id);
}

int64_t
run_checkpoint(struct db *db, const char *run_id, const char *cursor, const char *stats)
{
	char *copy;
	int64_t n = db_exec(db, ST_RN_CHECKPOINT, "sss", storable(cursor, &copy), stats, run_id);

	free(copy);
	return n;
}

int64_t
run_discovery_end(struct db *db, const char *run_id, const char *stats, int64_t retention_s)
{
	return db_exec(db, ST_RN_DISCOVERY_END, "sis", stats, retention_s, run_id);
}

int64_t
run_review_ready(struct db *db, const char *run_id, const char *stats)
{
	return db_exec(db, ST_RN_REVIEW_READY, "ss", stats, run_id);
}

int64_t
run_fail(struct db *db, const char *run_id, const char *message)
{
	char *copy;
	int64_t n = db_exec(db, ST_RN_RUN_FAIL, "ss", storable(message, &copy), run_id);

	free(copy);
	return n;
}

int64_t
run_stats_set(struct db *db, const char *run_id, const char *stats)
{
	return db_exec(db, ST_RN_SET_STATS, "ss", stats, run_id);
}

int64_t
run_pause_conflicts(struct db *db, const char *run_id, const char *stats)
{
	return db_exec(db, ST_RN_PAUSE_CONFLICTS, "ss", stats, run_id);
}

int64_t
run_complete(struct db *db, const char *run_id, const char *status, const char *stats)
{
	return db_exec(db, ST_RN_COMPLETE, "sssss", status, stats, run_id, run_id, run_id);
}

int
run_done(struct db *db, const char *run_id)
{
	int64_t done;

	return db_scalar(db, &done, ST_RN_DONE, "ss", run_id, run_id) < 0 ? -1 : done != 0;
}

int64_t
run_credentials_wipe(struct db *db, const char *run_id)
{
	return db_exec(db, ST_RN_CREDS_WIPE, "s", run_id);
}

int64_t
rate_limits_purge(struct db *db)
{
	/* on Galera, InnoDB: a transaction each */
	return db_exec_batches(db, ST_RL_PURGE, RATE_PURGE_BATCH);
}

int64_t
run_resources_delete(struct db *db, const char *run_id, int64_t batch)
{
	return db_exec(db, ST_RN_CLEAN_RESOURCES, "si", run_id, batch);
}

int64_t
run_resource_data_delete(struct db *db, const char *run_id, int64_t batch)
{
	return db_exec(db, ST_RN_CLEAN_RESOURCE_DATA, "si", run_id, batch);
}

int64_t
run_logs_delete(struct db *db, const char *run_id, int64_t batch)
{
	return db_exec(db, ST_RN_CLEAN_LOGS, "si", run_id, batch);
}

int64_t
run_jobs_delete(struct db *db, const char *run_id, int64_t batch)
{
	return db_exec(db, ST_RN_CLEAN_JOBS, "si", run_id, batch);
}

int64_t
run_row_delete(struct db *db, const char *run_id)
{
	return db_exec(db, ST_RN_CLEAN_RUN, "s", run_id);
}

int
runs_credentials_due(struct db *db, char (*ids)[37], int max)
{
	struct db_res *r = db_query(db, ST_RN_CREDS_DUE, "");
	int n = 0, rc = 0;

	if (r == NULL)
		return -1;
	while (n < max && (rc = db_next(r)) == 1)
		col_text(r, 0, ids[n++], sizeof ids[0]);
	db_free(r);
	return rc < 0 ? -1 : n;
}

void
resource_rows_clear(struct resource_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].norm);
		free(rows[i].reason);
		memset(&rows[i], 0, sizeof rows[i]);
	}
}

/* The rows of r as ST_RN_IMPORT_LOCK_NEXT and ST_RN_RES_LOCK give them (the
 * id first only in the former: first is 1 there), at most max. The count, or -1. */
static int
import_rows(struct db_res *r, int first, int max, struct resource_row *rows)
{
	int n = 0, rc = 0;

	if (r == NULL)
		return -1;
	while (n < max && (rc = db_next(r)) == 1) {
		struct resource_row *w = &rows[n++];
		memset(w, 0, sizeof *w);
		if (first > 0)
			w->id = (uint64_t)db_i64(r, 0);
		col_text(r, first, w->type, sizeof w->type);
		col_text(r, first + 1, w->ext, sizeof w->ext);
		col_text(r, first + 2, w->action, sizeof w->action);
		col_text(r, first + 3, w->resolution, sizeof w->resolution);
		col_text(r, first + 4, w->status, sizeof w->status);
		w->attempts = (int)db_i64(r, first + 5);
		w->norm = col_dup(r, first + 6);
	}
	db_free(r);
	if (rc < 0) {
		resource_rows_clear(rows, (size_t)n);
		return -1;
	}
	return n;
}

int
resources_to_import(struct db *db, const char *run_id, const char *type, uint64_t after, uint64_t last,
    int max, struct resource_row *rows)
{
	return import_rows(db_query(db, ST_RN_IMPORT_LOCK_NEXT, "ssuui", run_id, type, after, last,
	                       (int64_t)max),
	    1, max, rows);
}

int
resource_lock(struct db *db, uint64_t id, const char *run_id, struct resource_row *out)
{
	int n = import_rows(db_query(db, ST_RN_RES_LOCK, "us", id, run_id), 0, 1, out);

	if (n == 1)
		out->id = id;
	return n;
}

int
resources_to_plan(struct db *db, const char *run_id, uint64_t after, uint64_t last, int max,
    struct resource_row *rows)
{
	struct db_res *r = db_query(db, ST_RN_PLAN_BATCH, "suui", run_id, after, last, (int64_t)max);
	int n = 0, rc = 0;

	if (r == NULL)
		return -1;
	while (n < max && (rc = db_next(r)) == 1) {
		struct resource_row *w = &rows[n++];
		memset(w, 0, sizeof *w);
		w->id = (uint64_t)db_i64(r, 0);
		col_text(r, 1, w->type, sizeof w->type);
		col_text(r, 2, w->ext, sizeof w->ext);
		col_text(r, 3, w->resolution, sizeof w->resolution);
		col_text(r, 4, w->status, sizeof w->status);
		w->norm = col_dup(r, 5);
		col_text(r, 6, w->action, sizeof w->action);
		col_text(r, 7, w->name, sizeof w->name);
		w->reason = col_dup(r, 8);
	}
	db_free(r);
	if (rc < 0) {
		resource_rows_clear(rows, (size_t)n);
		return -1;
	}
	return n;
}

int
resource_ref(struct db *db, const char *run_id, const char *type, const char *ext, struct resource_row *out)
{
	struct db_res *r = db_query(db, ST_RN_RES_REF, "sss", run_id, type, ext);
	int rc;

	memset(out, 0, sizeof *out);
	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1) {
		col_text(r, 0, out->status, sizeof out->status);
		out->target_id = (uint64_t)db_i64(r, 1);
		out->norm = col_dup(r, 2);
	}
	db_free(r);
	return rc;
}

/* The first row's text of lookup r (NULL: the query failed), which it frees,
 * into *json (the caller frees; NULL when none). 1, 0 none, -1 error. */
static int
first_json(struct db_res *r, char **json)
{
	int rc;

	*json = NULL;
	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1)
		*json = col_dup(r, 0);
	db_free(r);
	return rc < 0 ? -1 : *json != NULL;
}

int
resources_sp_refs(struct db *db, const char *run_id, const char *page_ext, const char *ids, char **json)
{
	return first_json(db_query(db, ST_RN_RES_SP_REFS, "sss", run_id, page_ext, ids), json);
}

int
resources_sp_items_unread(struct db *db, const char *run_id, const char *page_ext)
{
	struct db_res *r = db_query(db, ST_RN_RES_SP_ITEMS_UNREAD, "ss", run_id, page_ext);
	int rc;
	bool unread = false;

	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1)
		unread = db_i64(r, 0) == 1;
	db_free(r);
	return rc < 0 ? -1 : unread;
}

int
resources_checks(struct db *db, const char *run_id, char **json)
{
	return first_json(db_query(db, ST_RN_RES_CHECKS, "s", run_id), json);
}

int64_t
resources_upsert_rows(struct db *db, const char *run_id, const char *keys, const char *rows)
{
	char *kcopy, *copy = NULL;
	int64_t n = db_exec(db, ST_RN_RES_UPSERT_ROWS, "ss", run_id, storable(keys, &kcopy));

	if (n >= 0 && db_exec(db, ST_RN_RES_DATA_UPSERT_ROWS, "ss", storable(rows, &copy), run_id) < 0)
		n = -1;
	free(kcopy);
	free(copy);
	return n;
}

int64_t
plan_set_rows(struct db *db, const char *rows)
{
	char *copy;
	int64_t n = db_exec(db, ST_RN_PLAN_SET_ROWS, "s", storable(rows, &copy));

	free(copy);
	return n;
}

int
run_resource_count(struct db *db, const char *run_id, int64_t *n)
{
	*n = 0;
	return db_scalar(db, n, ST_RN_COUNT_ALL, "s", run_id) < 0 ? -1 : 0;
}

int
run_conflict_count(struct db *db, const char *run_id, int64_t *n)
{
	*n = 0;
	return db_scalar(db, n, ST_RN_COUNT_CONFLICTS, "s", run_id) < 0 ? -1 : 0;
}

int
run_pending_beyond(struct db *db, const char *run_id, int64_t k)
{
	int64_t v;

	return db_scalar(db, &v, ST_RN_PENDING_BEYOND, "si", run_id, k);
}

/* The id a scalar lookup found (rc 1: v; a NULL or no id reads 0) into *id. Returns rc. */
static int
scalar_id(int rc, int64_t v, uint64_t *id)
{
	if (rc == 1)
		*id = v > 0 ? (uint64_t)v : 0;
	return rc;
}

int
resource_nth_after(struct db *db, const char *run_id, uint64_t after, int64_t k, uint64_t *id)
{
	int64_t v = 0;
	int rc = db_scalar(db, &v, ST_RN_NTH_AFTER, "sui", run_id, after, k);

	return scalar_id(rc, v, id);
}

int
pending_nth_after(struct db *db, const char *run_id, const char *type, uint64_t after, int64_t k,
    uint64_t *id)
{
	int64_t v = 0;
	int rc = db_scalar(db, &v, ST_RN_PENDING_NTH, "ssui", run_id, type, after, k);

	return scalar_id(rc, v, id);
}

int
pending_last_after(struct db *db, const char *run_id, const char *type, uint64_t after, uint64_t *id)
{
	int64_t v = 0;
	int rc = db_scalar(db, &v, ST_RN_PENDING_LAST, "ssu", run_id, type, after);

	return scalar_id(rc, v, id);
}

int
pending_any(struct db *db, const char *run_id, const char *type)
{
	int64_t one;

	return db_scalar(db, &one, ST_RN_PENDING_ANY, "ss", run_id, type);
}

int64_t
resources_imported_rows(struct db *db, const char *rows)
{
	return db_exec(db, ST_RN_RES_IMPORTED_ROWS, "s", rows);
}

int64_t
resource_attempt(struct db *db, uint64_t id)
{
	return db_exec(db, ST_RN_RES_ATTEMPT, "u", id);
}

int64_t
resource_failed(struct db *db, uint64_t id, const char *message)
{
	char *copy;
	int64_t n = db_exec(db, ST_RN_RES_FAILED, "isu", (int64_t)1, storable(message, &copy), id);

	free(copy);
	return n;
}

int64_t
run_recount(struct db *db, const char *run_id)
{
	return db_exec(db, ST_RN_RUN_RECOUNT, "s", run_id);
}

int64_t
resources_retry_batch(struct db *db, const char *run_id, uint64_t after, uint64_t last, int64_t limit,
    uint64_t *end)
{
	struct db_res *r = db_query(db, ST_RN_RETRY_NEXT, "suui", run_id, after, last, limit);
	int64_t locked = 0;
	int rc;

	*end = after;
	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1) {
		*end = (uint64_t)db_i64(r, 0);
		locked++;
	}
	db_free(r);
	if (rc < 0)
		return -1;
	if (locked == 0)
		return 0;
	return db_exec(db, ST_RN_RETRY_RESET, "suu", run_id, after, *end);
}

/* ---- revert ---- */

void
revert_rows_clear(struct revert_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].before);
		free(rows[i].link_before);
		rows[i].before = rows[i].link_before = NULL;
	}
}

int
revert_rows_next(struct db *db, const char *run_id, const char *type, int max, struct revert_row *rows)
{
	struct db_res *r = db_query(db, ST_RV_NEXT, "ssi", run_id, type, (int64_t)max);
	int n = 0, rc = 0;

	if (r == NULL)
		return -1;
	while (n < max && (rc = db_next(r)) == 1) {
		struct revert_row *w = &rows[n++];
		w->id = (uint64_t)db_i64(r, 0);
		snprintf(w->ext, sizeof w->ext, "%s", db_str(r, 1) ? db_str(r, 1) : "");
		snprintf(w->written, sizeof w->written, "%s", db_str(r, 2) ? db_str(r, 2) : "");
		w->target = (uint64_t)db_i64(r, 3);
		w->before = db_str(r, 4) ? xstrdup(db_str(r, 4)) : NULL;
		w->link_before = db_str(r, 5) ? xstrdup(db_str(r, 5)) : NULL;
		snprintf(w->after_hash, sizeof w->after_hash, "%s", db_str(r, 6) ? db_str(r, 6) : "");
		snprintf(w->written_at, sizeof w->written_at, "%s", db_str(r, 7) ? db_str(r, 7) : "");
	}
	db_free(r);
	if (rc < 0) {
		revert_rows_clear(rows, (size_t)n);
		return -1;
	}
	return n;
}

int64_t
revert_marks(struct db *db, const char *rows)
{
	return db_exec(db, ST_RV_MARKS, "s", rows);
}

int
revert_counts(struct db *db, const char *run_id,
    void (*fn)(const char *written, const char *reverted, int64_t n, void *), void *arg)
{
	struct db_res *r = db_query(db, ST_RV_COUNTS, "s", run_id);
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1)
		fn(db_str(r, 0) ? db_str(r, 0) : "", db_str(r, 1), db_i64(r, 2), arg);
	db_free(r);
	return rc < 0 ? -1 : 0;
}

int64_t
run_revert_done(struct db *db, const char *run_id, const char *stats)
{
	return db_exec(db, ST_RN_REVERT_DONE, "sss", stats, run_id, run_id);
}
