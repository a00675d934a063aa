#include <stdio.h>
#include <string.h>

#include "core/xalloc.h"
#include "db/bounds.h"
#include "db/queue_rows.h"

int64_t
job_insert(struct db *db, const char *queue, const char *run_id, uint64_t resource_id, const char *payload)
{
	return db_exec(db, ST_JOB_INSERT, "ssUs", queue, run_id, resource_id, payload);
}

int
job_candidates(struct db *db, struct job_candidate *out, int max)
{
	struct db_res *r = db_query(db, ST_JOB_CANDIDATES, "");
	int n = 0, rc = 0;

	if (r == NULL)
		return -1;
	while (n < max && (rc = db_next(r)) == 1) {
		out[n].id = (uint64_t)db_i64(r, 0);
		out[n].user_id = (uint64_t)db_i64(r, 1);
		n++;
	}
	db_free(r);
	return rc < 0 ? -1 : n;
}

int
job_pick(struct db *db, uint64_t id, struct job_row *out)
{
	struct db_res *r = db_query(db, ST_JOB_PICK, "u", id);
	int rc;

	memset(out, 0, sizeof *out);
	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1) {
		out->id = (uint64_t)db_i64(r, 0);
		snprintf(out->run_id, sizeof out->run_id, "%s", db_str(r, 1) ? db_str(r, 1) : "");
		out->resource_id = (uint64_t)db_i64(r, 2);
		out->payload = db_str(r, 3) ? xstrdup(db_str(r, 3)) : NULL;
		out->attempts = (int)db_i64(r, 4);
		snprintf(out->queue, sizeof out->queue, "%s", db_str(r, 5) ? db_str(r, 5) : "");
	}
	db_free(r);
	return rc;
}

int
job_waiting(struct db *db, const char *run_id, uint64_t user_id, int64_t ms)
{
	int64_t one;

	return db_scalar(db, &one, ST_JOB_WAITING, "sui", run_id, user_id, ms);
}

int64_t
runner_time_add(struct db *db, const char *run_id, uint64_t user_id, int64_t ms)
{
	return db_exec(db, ST_RUNNER_TIME_ADD, "sui", run_id, user_id, ms);
}

int64_t
runner_time_purge(struct db *db)
{
	return db_exec_batches(db, ST_RUNNER_TIME_PURGE, RUNNER_TIME_PURGE_BATCH);
}

int64_t
job_reserve(struct db *db, uint64_t id, const char *worker, int lease_s)
{
	return db_exec(db, ST_JOB_RESERVE, "siiu", worker, (int64_t)lease_s, (int64_t)lease_s, id);
}

int64_t
job_hold(struct db *db, uint64_t id, const char *worker, int lease_s)
{
	return db_exec(db, ST_JOB_HOLD, "iius", (int64_t)lease_s, (int64_t)lease_s, id, worker);
}

int64_t
job_release(struct db *db, uint64_t id, const char *worker, int64_t delay_us, int attempts,
    const char *payload)
{
	return db_exec(db, ST_JOB_RELEASE, "iisus", delay_us, (int64_t)attempts, payload, id, worker);
}

int64_t
job_payload_set(struct db *db, uint64_t id, const char *worker, const char *payload)
{
	return db_exec(db, ST_JOB_PAYLOAD, "sus", payload, id, worker);
}

int64_t
job_done(struct db *db, uint64_t id, const char *worker)
{
	return db_exec(db, ST_JOB_DONE, "us", id, worker);
}

int64_t
job_count_add(struct db *db, uint64_t id, const char *worker, int64_t imported, int64_t failed)
{
	return db_exec(db, ST_JOB_COUNT_ADD, "iius", imported, failed, id, worker);
}

int
job_counts_take(struct db *db, uint64_t id, const char *worker, int64_t *imported, int64_t *failed)
{
	struct db_res *r = db_query(db, ST_JOB_COUNTS, "us", id, worker);
	int rc;

	*imported = *failed = 0;
	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1) {
		*imported = db_i64(r, 0);
		*failed = db_i64(r, 1);
	}
	db_free(r);
	if (rc < 0 ||
	    (rc == 1 && (*imported > 0 || *failed > 0) &&
	        db_exec(db, ST_JOB_COUNTS_CLEAR, "us", id, worker) < 0))
		return -1;
	return 0;
}

int64_t
jobs_counts_clear(struct db *db, const char *run_id)
{
	return db_exec(db, ST_JOB_COUNTS_CLEAR_RUN, "s", run_id);
}

int
job_of_run(struct db *db, const char *run_id, const char *queue)
{
	int64_t id;

	return db_scalar(db, &id, ST_JOB_EXISTS, "ss", run_id, queue);
}

int
jobs_other_count(struct db *db, const char *run_id, const char *queue, uint64_t id, int64_t *n)
{
	*n = 0;
	return db_scalar(db, n, ST_JOB_OTHERS, "ssu", run_id, queue, id) < 0 ? -1 : 0;
}
