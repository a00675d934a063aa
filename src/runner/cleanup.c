/* Cleanup jobs: a deleted run too large to delete in its request (api:
 * h_delete) is removed here, its resources, log and queued jobs a batch of
 * CLEANUP_BATCH per transaction (db/bounds.h), then the run row, which has
 * nothing left to cascade to by then. A crash repeats at most one batch; the
 * job finishes when the run is gone. */
#include "core/log.h"
#include "db/bounds.h"
#include "db/runner_rows.h"
#include "runner/runner.h"

struct clean {
	struct job *job;
	/* a batch of the run's rows of one kind; NULL: the run row, last */
	int64_t (*batch)(struct db *, const char *run_id, int64_t batch);
	int64_t deleted;
};

static enum tx_result
clean_batch(struct runner *r, void *arg)
{
	struct clean *c = arg;

	if (queue_hold(r->db, c->job) <= 0)
		return TX_ABORT; /* the lease was lost: the job is someone else's */
	if (c->batch == NULL) {
		/* the job goes first: deleting the run would take its row along */
		if (queue_done(r->db, c->job) < 0)
			return TX_ERROR;
		c->deleted = run_row_delete(r->db, c->job->run_id);
	} else
		c->deleted = c->batch(r->db, c->job->run_id, CLEANUP_BATCH);
	return c->deleted < 0 ? TX_ERROR : TX_COMMIT;
}

void
cleanup_step(struct runner *r, struct job *j)
{
	static int64_t (*const order[])(struct db *, const char *, int64_t) = { run_resources_delete,
		run_resource_data_delete, run_logs_delete, run_jobs_delete };
	int64_t step_end = runner_step_end(r);
	struct clean c = { .job = j };

	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		c.batch = order[i];
		do {
			enum tx_result t = runner_tx(r, clean_batch, &c);
			if (t == TX_ABORT)
				return;
			if (t == TX_ERROR) {
				log_error("run %s: cleanup: %s", j->run_id, db_error(r->db));
				queue_release(r->db, j, queue_backoff_ms(1, 0, runner_random()), 0, NULL);
				return;
			}
			if (runner_out_of_time(r, step_end) && c.deleted > 0) {
				queue_release(r->db, j, 0, 0, NULL); /* the continuation */
				return;
			}
		} while (c.deleted > 0);
	}
	c.batch = NULL;
	if (runner_tx(r, clean_batch, &c) == TX_ERROR)
		queue_release(r->db, j, queue_backoff_ms(1, 0, runner_random()), 0, NULL);
}
