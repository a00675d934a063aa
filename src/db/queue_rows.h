/* The jobs table as the queue and the job kinds read and write it
 * (sql_queue.def). A job is changed only while worker holds it (WHERE id = ?
 * AND reserved_by = ?): the writes return the rows they changed (0: the
 * lease was lost), or -1 on a database error. */
#ifndef MIGRATOR_QUEUE_ROWS_H
#define MIGRATOR_QUEUE_ROWS_H
#include <stdint.h>

#include "db/db.h"

/* A job as a claim reads it. */
struct job_row {
	uint64_t id;
	char queue[17];
	char run_id[37];
	uint64_t resource_id; /* 0: none */
	char *payload;        /* malloc'd, or NULL */
	int attempts;
};

/* A new job of queue for run_id (resource_id 0: none; payload may be NULL), available now. */
int64_t job_insert(struct db *, const char *queue, const char *run_id, uint64_t resource_id,
    const char *payload);
/* Claim candidate: an available job and its run's user. */
struct job_candidate {
	uint64_t id;
	uint64_t user_id;
};
/* Inside the claim's transaction: up to max available jobs in the order a claim takes them (fair
 * share: ST_JOB_CANDIDATES) into out; their count, or -1. */
int job_candidates(struct db *, struct job_candidate *out, int max);
/* Inside the claim's transaction: job id, locked, if it is still available and no other runner
 * holds its row (FOR UPDATE SKIP LOCKED). 1 with *out, 0 not, -1 error. */
int job_pick(struct db *, uint64_t id, struct job_row *out);
/* During a step of run_id (of user_id) that has taken ms so far: 1 when a job waits that the step
 * gives its runner up for (ST_JOB_WAITING), 0 when none, -1 error. */
int job_waiting(struct db *, const char *run_id, uint64_t user_id, int64_t ms);
/* A step of run_id (of user_id) took ms of a runner (runner_time). */
int64_t runner_time_add(struct db *, const char *run_id, uint64_t user_id, int64_t ms);
/* Delete the runner_time rows of runs not served lately (RUNNER_TIME_PURGE_BATCH a statement,
 * db_exec_batches). Rows deleted, or -1. */
int64_t runner_time_purge(struct db *);
/* Inside the claim's transaction: job id is worker's for lease_s seconds. */
int64_t job_reserve(struct db *, uint64_t id, const char *worker, int lease_s);
/* Extend worker's lease of job id to lease_s seconds from now (and lock the row). */
int64_t job_hold(struct db *, uint64_t id, const char *worker, int lease_s);
/* Give job id back, claimable again after delay_us microseconds, with its new
 * attempts and payload (NULL clears it). */
int64_t job_release(struct db *, uint64_t id, const char *worker, int64_t delay_us, int attempts,
    const char *payload);
/* Set the payload of job id (the state a step saves with its results). */
int64_t job_payload_set(struct db *, uint64_t id, const char *worker, const char *payload);
/* Delete the finished job id. */
int64_t job_done(struct db *, uint64_t id, const char *worker);
/* Inside an import step's transaction: job id of worker made imported and failed more resources. */
int64_t job_count_add(struct db *, uint64_t id, const char *worker, int64_t imported, int64_t failed);
/* What job id of worker made imported and failed since its last report, into *imported and
 * *failed, set back to 0. 0 or -1. */
int job_counts_take(struct db *, uint64_t id, const char *worker, int64_t *imported, int64_t *failed);
/* Set every job's counts of run_id back to 0 (its resources were counted). Rows, or -1. */
int64_t jobs_counts_clear(struct db *, const char *run_id);
/* 1 when the run has a job of queue without a resource, 0 when not, -1. */
int job_of_run(struct db *, const char *run_id, const char *queue);
/* How many other jobs than id the run has in queue, into *n. 0 or -1. */
int jobs_other_count(struct db *, const char *run_id, const char *queue, uint64_t id, int64_t *n);

#endif
