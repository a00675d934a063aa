/* The runner's pure rules, apart from the database so that unit tests can
 * walk them: the planning decision for one resource, which jobs act on a run
 * in which state, the run state machine of design §4, backoff bounds, and
 * the shape of a run's stats. */
#ifndef MIGRATOR_RUNNER_RULES_H
#define MIGRATOR_RUNNER_RULES_H
#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

/* What planning knows about one resource. */
struct plan_facts {
	bool supported;         /* an importer handles the resource type */
	bool valid;             /* the normalized data can be stored */
	const char *resolution; /* skip|overwrite|duplicate from resolve-conflicts, or NULL */
	bool linked;            /* this user imported the same external resource before and
	                         * the target still exists */
	bool natural_match;     /* an account object with the same natural key exists that no
	                         * import created */
};

struct plan_decision {
	const char *action; /* create|update|skip|conflict */
	const char *status; /* pending|skipped|conflict */
	bool keep;          /* true: a resolution decided; planning leaves the row alone */
};

/* Decide a resource's action (design §4, issue 3.4):
 *   a resolution is kept as resolve-conflicts set it (skip -> skip/skipped,
 *   overwrite -> update/pending, duplicate -> create/pending) and never
 *   turned back into a conflict;
 *   unsupported type or unusable data -> skip;
 *   imported before by this user (live link) -> update;
 *   same natural key as an object no import created -> conflict;
 *   else create. */
void plan_decide(const struct plan_facts *, struct plan_decision *);

enum job_verdict {
	JOB_ACT, /* the run is in a state this job works on */
	JOB_DROP /* the run moved on (cancelled, failed, finished, paused): delete the job */
};

/* Whether a job of queue (discovery|planning|resources|revert) acts on a
 * run in status: discovery on pending or discovering; planning and resources
 * on executing; revert on reverting. */
enum job_verdict job_verdict(const char *queue, const char *status);
/* Whether a planning job for the review acts on a run in status: on
 * discovering, the state the run keeps until its plan for the review is
 * made. */
enum job_verdict review_plan_verdict(const char *status);
/* Whether a retry-failed job acts on a run in status: on executing (it then
 * queues the import), and on the states before it, whose later execute
 * imports what is pending (pending, discovering, awaiting_review,
 * paused_conflicts); not on a run that ended, was cancelled or is reverted. */
enum job_verdict retry_verdict(const char *status);

/* True when design §4 allows the run transition from -> to. */
bool run_transition_ok(const char *from, const char *to);

/* True for the states a run never leaves by itself. */
bool run_status_final(const char *status);

/* The final state of an execution: completed, or completed_with_errors when
 * at least one resource failed. */
const char *run_final_status(int64_t failed);

/* Progress 0..1 of an execution: finished resources (imported, skipped,
 * failed) over all resources; 1 when there are none. */
double run_progress(int64_t imported, int64_t skipped, int64_t failed, int64_t total);

/* A new stats object: {"discovered":{…},"planned":{…},"imported":n,
 * "skipped":n,"failed":n,"progress":x}: discovered and planned are taken
 * over when not NULL, else copied from old (the run's current stats text,
 * may be NULL or invalid). Returns a new object (caller puts). */
json_object *stats_compose(const char *old, json_object *discovered, json_object *planned, int64_t imported,
    int64_t skipped, int64_t failed, double progress);

/* The stats text old (may be NULL or invalid: {}) with its member "waiting"
 * set to waiting (taken over), or taken out when waiting is NULL: the
 * runner waiting out a provider's rate limit, {"reason":"rate_limit",
 * "provider":id,"until":ISO 8601 UTC} (docs/runner.md). Returns new text
 * (caller frees), or NULL when nothing changes (no waiting to take out). */
char *stats_waiting(const char *old, json_object *waiting);

/* The stats text old with imported and failed more resources (a job's counts, sql/020), when old
 * has an activity doing with its total (the count of the run's resources that took the counts in
 * last): new text (caller frees) without an activity, with the progress, and *failed_all,
 * *finished and *total as runner_stats counts them. NULL when old has no such activity: the run's
 * resources must be counted. */
char *stats_add(const char *old, const char *doing, int64_t imported, int64_t failed, int64_t *failed_all,
    int64_t *finished, int64_t *total);
/* The stats text old without its activity, so that stats_add finds no count to add to (new text,
 * caller frees); NULL when old has no activity. */
char *stats_uncounted(const char *old);

/* What the runner is doing, for the run's stats (docs/runner.md): the stats
 * text stats (may be NULL or invalid: {}) with its member "activity" set to
 * {"doing", "kind" (when not NULL), "done", "total" (when known, >= 0),
 * "since", "per_minute", "eta_s"}: doing is "discovering", "planning" or
 * "importing"; done is the count so far, or (add) what to add to the
 * previous activity's count when it is the same doing; since is when the
 * doing began (the previous activity's since when it is the same doing,
 * else now, Unix seconds); per_minute is done over the time since then (null
 * in its first second), eta_s the seconds left at that rate (null without a
 * total or a rate). The previous activity is the one in the stats text prev
 * (may be NULL: none). Returns new text (caller frees). */
char *stats_activity(const char *stats, const char *prev, const char *doing, const char *kind, int64_t done,
    bool add, int64_t total, int64_t now);

#endif
