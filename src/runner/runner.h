/* migrator-runner (design §1, §5): claims jobs from its queues and
 * works through them in bounded steps until its time or job budget is spent.
 *
 * Job kinds (queue: what one step does):
 *   discovery  a few provider pages: each page's resources and the new
 *              checkpoint cursor in one transaction; continues itself; ends
 *              the run's discovery (awaiting_review) or fails the run
 *   planning   a few batches of resources: decide create/update/skip/conflict
 *              (a large run: split first into chunks that several runners
 *              plan at once); the last to end pauses on conflicts or queues
 *              the import
 *   resources  with resource_id: import that one resource (retry-failed);
 *              without: the run's import chain, type by type in import order,
 *              or (a large run) one chunk of it, so that several runners
 *              import one run at once; RUNNER_IMPORT_TX resources per
 *              transaction; the last to finish ends the run
 *   revert     a few batches of the objects a run wrote, deleted or put back
 *              (revert.c); continues itself; ends the run reverted
 *   cleanup    a deleted run's rows, a batch per transaction (cleanup.c)
 *
 * Every step records its results in a transaction that first locks the run
 * row (so cancel and delete are seen, and wait for it) and then checks and
 * extends the lease (queue_hold); a step that lost either writes nothing. */
#ifndef MIGRATOR_RUNNER_H
#define MIGRATOR_RUNNER_H
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/config.h"
#include "crypto/seal.h"
#include "db/db.h"
#include "queue/queue.h"

#define RUNNER_STEP_MS         10000 /* a step's time budget */
#define RUNNER_PAGES_PER_STEP  20    /* discovery pages per step */
#define RUNNER_PLAN_BATCH      500   /* resources per planning transaction */
#define RUNNER_PLAN_CHUNK      2500  /* a larger run's plan: chunk jobs of this many resources */
#define RUNNER_IMPORT_TX       500   /* resources imported per transaction, at most (IMPORT_TX_ROWS) */
#define RUNNER_IMPORT_CHUNK    2000  /* a larger run's import: chunk jobs of this many resources */
#define RUNNER_GATE_MS         250   /* a chunk waiting for the kinds before its own: look again */
#define RUNNER_DEFER_MS        2000  /* wait for a referenced resource of the same run */
#define RUNNER_STATS_MS        1000  /* a planning or import step refreshes the run's progress this often */
#define RUNNER_NOKEY_DELAY_MS  60000 /* discovery without a credentials key: try later */
#define RUNNER_HOUSEKEEPING_MS 30000 /* purges at most this often */
#define RUNNER_IDLE_POLL_MS    250   /* without --once: look for new jobs this often */
#define RUNNER_YIELD_MS        250   /* a step looks this often whether it gives its runner up (fair share) */

struct runner {
	const struct config *cfg;
	struct db *db;
	const struct seal_key *key; /* NULL: discovery jobs wait (no key configured) */
	char worker[QUEUE_WORKER_MAX + 1];
	int lease_s;
	int max_attempts;
	int64_t deadline;            /* mono_ms() after which no step starts or continues */
	long step_resources;         /* 0: none; else a step ends once it handled this many resources */
	long step_done;              /* resources discovered, planned or imported in the current step */
	volatile sig_atomic_t *stop; /* set by SIGTERM/SIGINT: finish the step, then exit */
	int64_t last_housekeeping;
	const struct job *job;    /* being worked on (its run for log lines, fair share); NULL between jobs */
	int64_t step_start;       /* mono_ms() when the step began */
	int64_t next_yield_check; /* mono_ms(): when the step looks again whether to give its runner up */
	bool yielding;            /* it does: the step ends at its next check of the time */
};

struct runner_opts {
	int max_seconds;     /* default 50 */
	long max_jobs;       /* 0: no limit */
	bool once;           /* one pass: stop when no job is available now */
	long step_resources; /* 0: no limit; else end each step after this many resources */
};

/* Work until the budget is spent (or, with once, the queues have nothing
 * available). Returns the number of steps run, or -1 when the database could
 * not be used at all. */
long runner_run(struct runner *, const struct runner_opts *);

/* Wipe credentials whose purge time has passed; purge old rate_limits rows.
 * 0 or -1 (database error, logged). */
int runner_housekeeping(struct runner *);

/* ---- internal: shared by the job kinds (runner.c) ---- */

/* The end of the current step: now + RUNNER_STEP_MS, no later than the deadline. */
int64_t runner_step_end(const struct runner *);
/* True when the step must stop now: its time or its resource budget
 * (step_resources) spent, asked to stop, or (fair share, looked at every
 * RUNNER_YIELD_MS) work waits that the step gives its runner up for: the
 * step then ends as when its time is spent, its job going back as a
 * continuation, and the runner's next claim takes that work first. */
bool runner_out_of_time(struct runner *, int64_t step_end);

/* Outcome of a transaction body. */
enum tx_result {
	TX_COMMIT = 1, /* commit */
	TX_ABORT = 0,  /* roll back: the lease was lost or the run is gone; drop the step */
	TX_ERROR = -1  /* roll back: database error (DB_RETRY retries the whole body) */
};
/* Run body(r, arg) in a transaction, retrying it on deadlock or lock timeout
 * (and once on a lost connection). Returns the body's verdict after commit,
 * TX_ABORT or TX_ERROR. */
enum tx_result runner_tx(struct runner *, enum tx_result (*body)(struct runner *, void *), void *arg);

/* Inside a transaction: lock the run row (FOR UPDATE when exclusive, else
 * shared), put its status in status[32] (and, exclusive only, its checkpoint
 * and stats into *checkpoint and *stats when not NULL: malloc'd or NULL),
 * then hold the job's lease. TX_COMMIT when both are there, TX_ABORT when the
 * run is gone or the lease lost, TX_ERROR on a DB error. */
enum tx_result runner_lock(struct runner *, const struct job *, bool exclusive, char status[32],
    char **checkpoint, char **stats);

/* Append to the run log (errors are logged to stderr, never fatal). */
void runner_log(struct runner *, const char *run_id, const char *level, json_object *context, const char *fmt,
    ...) __attribute__((format(printf, 5, 6)));

/* Delete a job whose run moved on (its own transaction). */
void runner_drop(struct runner *, struct job *, const char *why);

enum progress_mode { PROGRESS_ZERO, PROGRESS_COUNT, PROGRESS_DONE };
/* What runner_stats counted: failed resources, finished ones (imported,
 * skipped, failed) and all that are part of the work (not excluded). */
struct work_counts {
	int64_t failed, finished, total;
};
/* Recompute the run's stats from its resources and return them as new JSON
 * text (caller frees), or NULL on a DB error. discovered (seeded with 0 for
 * each of seed_types, NULL-terminated, may be NULL) and planned are counted
 * only when asked, else kept from old. *counts (may be NULL) gets the counts. */
char *runner_stats(struct runner *, const char *run_id, const char *old, bool discovered,
    const char *const *seed_types, bool planned, enum progress_mode, struct work_counts *counts);

/* A uniformly random number (jitter). */
uint32_t runner_random(void);
/* A test's pause point (tests/integration/test_galera.py): with MIGRATOR_PAUSE_AT=<point>:<dir> in
 * the environment, the runner at point makes the file <dir>/<point>.<pid> and waits until
 * <dir>/<point>.go exists (at most two minutes); without it, or once .go exists, it goes on. */
void runner_pause_point(const char *point);

/* The job kinds. */
void discovery_step(struct runner *, struct job *);
void planning_step(struct runner *, struct job *);
/* Inside discovery's last transaction: queue the run's plan for the review. 0 or -1. */
int planning_queue_review(struct runner *, const char *run_id, struct err *);
void resources_step(struct runner *, struct job *);
void cleanup_step(struct runner *, struct job *);
void revert_step(struct runner *, struct job *);

/* Inside the caller's transaction: queue the import of the run's pending
 * resources: one job for a run of up to RUNNER_IMPORT_CHUNK, else one job per
 * chunk of that many resources of one type, in import order (a chunk starts
 * when the types before its own have no pending resource left). 0 or -1 with e. */
int resources_queue(struct runner *, const char *run_id, struct err *e);

#endif
