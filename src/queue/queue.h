/* The job queue on the `jobs` table (design §5). Queues: discovery, planning,
 * resources, cleanup, revert. Enqueueing happens inside the caller's transaction.
 *
 * Delivery is at least once: a runner claims a job with a lease (the job's
 * available_at moves to the lease's end), works outside any transaction, and
 * records results in a transaction that starts with queue_hold, which checks
 * and extends the lease (WHERE id = ? AND reserved_by = ?) and locks the job
 * row. A runner that died leaves the job to be claimed again when its lease
 * runs out; one that lost its lease cannot commit. */
#ifndef MIGRATOR_QUEUE_H
#define MIGRATOR_QUEUE_H
#include <stdint.h>

#include "core/err.h"
#include "db/db.h"

#define QUEUE_DISCOVERY "discovery"
#define QUEUE_PLANNING  "planning"
#define QUEUE_RESOURCES "resources"
#define QUEUE_CLEANUP   "cleanup" /* a deleted run's rows, in batches */
#define QUEUE_REVERT    "revert"  /* a run's imports undone, in batches */

/* A resources job without resource_id whose payload starts so is a
 * retry-failed job (runner/resources.c), not an import chain: its payload is
 * {"retry":{"after":id,"last":id,"done":n}} (RETRY_JOB in db/sql_queue.def
 * matches the same text). */
#define QUEUE_RETRY_PAYLOAD "{\"retry\":"
/* One whose payload starts so is a bulk change of a run's resources too large
 * for its request (exclude or include by filter, resolve every conflict): its
 * payload is {"bulk":{"op":..., what to set or match, "done":n}} (BULK_JOB in
 * db/sql_core.def matches the same text). */
#define QUEUE_BULK_PAYLOAD "{\"bulk\":"

#define QUEUE_WORKER_MAX 96

/* Backoff for transient failures: BASE * 2^(attempt-1), capped, with jitter. */
#define QUEUE_BACKOFF_BASE_MS 5000
#define QUEUE_BACKOFF_MAX_MS  (15 * 60 * 1000)

/* A claimed job. payload is malloc'd (or NULL); free with job_clear. */
struct job {
	uint64_t id;
	char queue[17];
	char run_id[37];
	uint64_t user_id;     /* the run's */
	uint64_t resource_id; /* 0: none */
	char *payload;
	int attempts; /* failed tries so far (see the job kinds) */
	char worker[QUEUE_WORKER_MAX + 1];
	int lease_s;
};

/* Queue a job for run_id (resource_id 0 = none, payload may be NULL),
 * available now. 0 or -1 with e. */
int queue_push(struct db *, const char *queue, const char *run_id, uint64_t resource_id, const char *payload,
    struct err *e);

/* Claim for worker, with a lease of lease_s seconds, the available job of any queue that fair
 * share puts first (ST_JOB_CANDIDATES; docs/runner.md "Fair share"), in a short transaction of
 * its own (FOR UPDATE SKIP LOCKED). Returns 1 with *job filled, 0 when nothing is available (or
 * every try lost to another claimer), -1 when the database cannot serve. */
int queue_claim(struct db *, const char *worker, int lease_s, struct job *job);

/* Inside the caller's transaction: 1 when the job is still ours (its lease is
 * extended and its row locked until the transaction ends), 0 when the lease
 * was lost (another runner has it, or the job was deleted with its run), -1
 * on a database error. */
int queue_hold(struct db *, const struct job *);

/* Give the job back, claimable again after delay_ms, with new attempts and
 * payload (NULL clears it). 1 done, 0 lease lost, -1 error. */
int queue_release(struct db *, const struct job *, int64_t delay_ms, int attempts, const char *payload);

/* Delete the finished job while it is ours. 1 done, 0 lease lost, -1 error. */
int queue_done(struct db *, const struct job *);

void job_clear(struct job *);

/* The delay before the next try after the attempt-th consecutive failure
 * (1-based): retry_after_s seconds when the provider said (> 0; a little
 * jitter added, never less), else exponential backoff with jitter from rnd:
 * uniformly in [d/2, d] for d = BASE * 2^(attempt-1) capped at MAX. */
int64_t queue_backoff_ms(int attempt, int retry_after_s, uint32_t rnd);

#endif
