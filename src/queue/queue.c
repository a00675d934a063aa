#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "db/queue_rows.h"
#include "queue/queue.h"

int
queue_push(struct db *db, const char *queue, const char *run_id, uint64_t resource_id, const char *payload,
    struct err *e)
{
	return job_insert(db, queue, run_id, resource_id, payload) < 0 ? db_fail(db, e) : 0;
}

void
job_clear(struct job *j)
{
	free(j->payload);
	memset(j, 0, sizeof *j);
}

#define CLAIM_CANDIDATES 16 /* ST_JOB_CANDIDATES' LIMIT */

/* One claim attempt in its own transaction: the first of the candidates no other runner holds.
 * 1 claimed, 0 nothing available, 2 every candidate taken by another claimer, -1 error. */
static int
claim_once(struct db *db, const char *worker, int lease_s, struct job *j)
{
	struct job_candidate c[CLAIM_CANDIDATES];
	struct job_row row;
	int n, i, rc = 0;

	if (db_begin(db) != 0)
		return -1;
	if ((n = job_candidates(db, c, CLAIM_CANDIDATES)) < 0)
		goto fail;
	for (i = 0; i < n; i++) {
		if ((rc = job_pick(db, c[i].id, &row)) < 0)
			goto fail;
		if (rc == 1)
			break;
	}
	if (rc == 0) {
		db_rollback(db);
		return n > 0 ? 2 : 0;
	}
	j->id = row.id;
	snprintf(j->queue, sizeof j->queue, "%s", row.queue);
	snprintf(j->run_id, sizeof j->run_id, "%s", row.run_id);
	j->user_id = c[i].user_id;
	j->resource_id = row.resource_id;
	j->payload = row.payload;
	j->attempts = row.attempts;
	if (job_reserve(db, j->id, worker, lease_s) < 0)
		goto fail;
	if (db_commit(db) != 0)
		goto fail;
	snprintf(j->worker, sizeof j->worker, "%s", worker);
	j->lease_s = lease_s;
	return 1;
fail:
	db_rollback(db);
	job_clear(j);
	return -1;
}

int
queue_claim(struct db *db, const char *worker, int lease_s, struct job *j)
{
	enum db_class cls = DB_OK;
	bool moved = false;

	memset(j, 0, sizeof *j);
	for (int attempt = 0; attempt < DB_ATTEMPTS; attempt++) {
		int rc;

		if ((rc = claim_once(db, worker, lease_s, j)) == 0 || rc == 1)
			return rc;
		/* Lost to other claimers (every candidate taken; or, on Galera, SKIP LOCKED does not
		 * see another node's locks and the loser's commit fails certification): again, after
		 * a pause. A server that cannot serve: once more, on the next server. */
		cls = rc == 2 ? DB_RETRY : db_error_class(db);
		if (cls == DB_RETRY)
			db_retry_pause(attempt);
		else if (cls != DB_LOST || moved)
			return -1;
		moved = moved || cls == DB_LOST;
	}
	/* lost every race: nothing claimed this time, but the database is well */
	return cls == DB_RETRY ? 0 : -1;
}

int
queue_hold(struct db *db, const struct job *j)
{
	int64_t n = job_hold(db, j->id, j->worker, j->lease_s);

	return n < 0 ? -1 : n > 0;
}

int
queue_release(struct db *db, const struct job *j, int64_t delay_ms, int attempts, const char *payload)
{
	int64_t n;

	if (delay_ms < 0)
		delay_ms = 0;
	n = job_release(db, j->id, j->worker, delay_ms * 1000, attempts, payload);
	return n < 0 ? -1 : n > 0;
}

int
queue_done(struct db *db, const struct job *j)
{
	int64_t n = job_done(db, j->id, j->worker);

	return n < 0 ? -1 : n > 0;
}

int64_t
queue_backoff_ms(int attempt, int retry_after_s, uint32_t rnd)
{
	int64_t d;

	if (retry_after_s > 0) {
		/* Honour the provider: never earlier, up to 10% (at most 2 s) later. */
		int64_t base = (int64_t)retry_after_s * 1000, spread = base / 10;
		if (spread > 2000)
			spread = 2000;
		return base + (spread > 0 ? (int64_t)(rnd % (uint32_t)(spread + 1)) : 0);
	}
	if (attempt < 1)
		attempt = 1;
	d = QUEUE_BACKOFF_BASE_MS;
	for (int i = 1; i < attempt && d < QUEUE_BACKOFF_MAX_MS; i++)
		d *= 2;
	if (d > QUEUE_BACKOFF_MAX_MS)
		d = QUEUE_BACKOFF_MAX_MS;
	return d / 2 + (int64_t)(rnd % (uint32_t)(d / 2 + 1));
}
