/* Planning jobs: decide each resource's action in batches of
 * RUNNER_PLAN_BATCH, walking the run in id order (the position is the job's
 * payload, so a large run is planned over several steps and a crash repeats
 * at most one batch, which decides the same again). A run of more than
 * RUNNER_PLAN_CHUNK resources is first split into chunk jobs, id ranges
 * (after, last] in the payload, that several runners plan at once.
 *
 * A run is planned twice. When discovery ends, for the review ("review" in
 * the payload): each resource gets the action and reason the plan gives it
 * now, its status stays pending, and when the last planning job ends the
 * run goes to awaiting_review. On execute, afresh: the log names each
 * resource whose action changed since the review, and when the last
 * planning job ends the run pauses on conflicts, or the import is queued. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "db/queue_rows.h"
#include "db/runner_rows.h"
#include "importers/importer.h"
#include "runner/rules.h"
#include "runner/runner.h"

/* Why a job is dropped: the run is in a state the job does not act on. */
#define MOVED_ON         "the run moved on"
#define PLAN_PAYLOAD_MAX 128 /* {"after":…,"last":…,"total":…,"review":true} */

struct plan {
	struct job *job;
	uint64_t user_id;
	char provider[33];
	uint64_t after;
	uint64_t last; /* a chunk's last id; 0: no bound */
	bool review;   /* the plan for the review, not the one of execute */
	bool fresh;    /* no position yet: the job may split the run into chunks */
	bool done, moved_on, started, split;
	int batch;          /* resources the last committed batch planned */
	int64_t unreported; /* resources planned since the run's stats last said so */
	int64_t total;      /* the run's resources (-1: not counted yet), in the payload once counted */
};

/* Whether job p acts on a run in status. */
static enum job_verdict
verdict(const struct plan *p, const char *status)
{
	return p->review ? review_plan_verdict(status) : job_verdict(QUEUE_PLANNING, status);
}

/* Decide one resource and add the decision to decided (the batch's rows of
 * plan_set_rows); on execute, the log names a resource planned otherwise at
 * the review. 0 or -1 (DB error). */
static int
plan_one(struct runner *r, struct plan *p, struct imp_ctx *ic, const struct resource_row *w,
    json_object *decided)
{
	struct plan_facts f = { .resolution = w->resolution[0] ? w->resolution : NULL };
	struct plan_decision d;
	char why[448] = "", msg[512], unread[512];
	const char *message = NULL, *status;
	json_object *norm = NULL;
	uint64_t id = 0;
	int ok, rc;

	if (w->resolution[0] != '\0')
		return 0; /* decided by resolve-conflicts */
	if (strcmp(w->status, "pending") != 0 && strcmp(w->status, "skipped") != 0 &&
	    strcmp(w->status, "conflict") != 0)
		return 0; /* finished work is never planned again */
	f.supported = importer_rank(w->type) >= 0;
	if (w->norm != NULL)
		norm = jx_parse(w->norm, strlen(w->norm), &ok);
	f.valid = f.supported && importer_validate(w->type, norm, why, sizeof why) == 0;
	if (!f.supported)
		snprintf(why, sizeof why, "resources of type %s are not imported", w->type);
	if (f.supported && f.valid) {
		if ((rc = importer_find_link(ic, w->type, w->ext, &id)) < 0)
			goto fail;
		f.linked = rc == 1;
		if (!f.linked) {
			if ((rc = importer_find_conflict(ic, w->type, norm, &id)) < 0)
				goto fail;
			f.natural_match = rc == 1;
		}
	}
	plan_decide(&f, &d);
	if (strcmp(d.action, "skip") == 0) {
		utf8_format(msg, sizeof msg, "Skipped: %s", why);
		message = msg;
	} else {
		if (importer_plan_reason(ic, w->type, d.action, id, why, sizeof why) < 0)
			goto fail;
		if (strcmp(d.action, "conflict") == 0)
			utf8_format(msg, sizeof msg, "%s Resolve with skip, overwrite or duplicate.", why);
		else if (strcmp(d.action, "update") == 0 && importer_unread(norm, unread, sizeof unread))
			utf8_format(msg, sizeof msg,
			    "%s Keeps its own values of what this run could not read: %s.", why, unread);
		else
			utf8_copy(msg, sizeof msg, why);
		message = msg;
	}
	json_object_put(norm);
	if (!p->review && w->action[0] != '\0' && strcmp(w->action, d.action) != 0) {
		json_object *ctx = json_object_new_object();
		jx_add_int(ctx, "resource_id", (int64_t)w->id);
		jx_add_str(ctx, "reviewed", w->action);
		jx_add_str(ctx, "planned", d.action);
		runner_log(r, p->job->run_id, "warning", ctx,
		    "%s \"%s\" was planned as %s at the review, now as %s: %s", w->type,
		    w->name[0] ? w->name : w->ext, w->action, d.action, message);
		json_object_put(ctx);
	}
	/* the plan for the review leaves the status as it is: pending */
	status = p->review ? w->status : d.status;
	/* a decision the resource already holds is not written again (execute's plan, mostly: each
	 * row rewritten to what it held, its undo and redo, for nothing but updated_at) */
	if (strcmp(w->action, d.action) != 0 || strcmp(w->status, status) != 0 || w->reason == NULL ||
	    strcmp(w->reason, message) != 0) {
		json_object *row = json_object_new_array_ext(4);
		json_object_array_add(row, json_object_new_uint64(w->id));
		json_object_array_add(row, json_object_new_string(d.action));
		json_object_array_add(row, json_object_new_string(status));
		json_object_array_add(row, json_object_new_string(message));
		json_object_array_add(decided, row);
	}
	return 0;
fail:
	json_object_put(norm);
	return -1;
}

static enum tx_result
plan_batch(struct runner *r, void *arg)
{
	struct plan *p = arg;
	struct imp_ctx ic = { .db = r->db,
		.user_id = p->user_id,
		.provider = p->provider,
		.run_id = p->job->run_id,
		.planning = true };
	struct resource_row *rows = xcalloc(RUNNER_PLAN_BATCH, sizeof *rows);
	json_object *decided = json_object_new_array();
	enum tx_result t;
	char status[32];
	int n = 0;

	if ((t = runner_lock(r, p->job, false, status, NULL, NULL)) != TX_COMMIT)
		goto out;
	if (verdict(p, status) != JOB_ACT) {
		p->moved_on = true;
		t = TX_ABORT;
		goto out;
	}
	t = TX_ERROR;
	if (!p->started && p->after == 0 && !p->review)
		runner_log(r, p->job->run_id, "info", NULL, "Planning started.");
	if ((n = resources_to_plan(r->db, p->job->run_id, p->after, p->last ? p->last : UINT64_MAX,
	         RUNNER_PLAN_BATCH, rows)) < 0) {
		n = 0;
		goto out;
	}
	/* one look at the account for the batch's (first) type instead of one per resource */
	if (n > 0 && importer_batch_facts(&ic, rows[0].type, p->after, rows[n - 1].id) != 0)
		goto out;
	for (int i = 0; i < n; i++)
		if (plan_one(r, p, &ic, &rows[i], decided) != 0)
			goto out;
	if (json_object_array_length(decided) > 0 && plan_set_rows(r->db, jx_text(decided)) < 0)
		goto out;
	if (n > 0)
		p->after = rows[n - 1].id;
	p->batch = n;
	p->done = n < RUNNER_PLAN_BATCH;
	t = TX_COMMIT;
out:
	json_object_put(decided);
	resource_rows_clear(rows, (size_t)n);
	free(rows);
	return t;
}

/* "create 5, update 2, skip 1" from a planned-counts object. */
static void
describe(json_object *planned, char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	if (planned == NULL)
		return;
	json_object_object_foreach (planned, k, v) {
		if (len < n)
			len += (size_t)snprintf(out + len, n - len, "%s%s %lld", len ? ", " : "", k,
			    (long long)json_object_get_int64(v));
	}
}

/* The plan has conflicts: the run pauses on them (with stats) and the log
 * says how many. 0, or -1 on a database error. */
static int
pause_on_conflicts(struct runner *r, struct plan *p, const char *stats, int64_t conflicts, json_object *ctx,
    const char *summary)
{
	int64_t n;

	if ((n = run_pause_conflicts(r->db, p->job->run_id, stats)) < 0)
		return -1;
	jx_add_int(ctx, "conflicts", conflicts);
	if (n > 0)
		runner_log(r, p->job->run_id, "warning", ctx,
		    "Plan ready (%s). %lld resource%s conflict%s with objects already in your account; "
		    "resolve the conflicts, then execute again.",
		    summary, (long long)conflicts, conflicts == 1 ? "" : "s", conflicts == 1 ? "s" : "");
	return 0;
}

/* The plan is ready without conflicts: stats saved, the import queued (once),
 * and the log says what will be done. A new import's stats begin its
 * activity from the counts just made (counts, old: the stats before), so
 * that its jobs' first reports add to them instead of counting the run
 * again (finish_body). 0, or -1 on a database error. */
static int
start_import(struct runner *r, struct plan *p, const char *stats, const char *old,
    const struct work_counts *counts, json_object *ctx, const char *summary)
{
	char *begun = NULL;
	int found;
	int64_t n;

	if ((found = job_of_run(r->db, p->job->run_id, QUEUE_RESOURCES)) < 0)
		return -1;
	if (found == 0)
		begun = stats_activity(stats, old, "importing", NULL, counts->finished, false, counts->total,
		    (int64_t)time(NULL));
	n = run_stats_set(r->db, p->job->run_id, begun != NULL ? begun : stats);
	free(begun);
	if (n < 0)
		return -1;
	if (found == 0) {
		struct err e;
		err_clear(&e);
		if (resources_queue(r, p->job->run_id, &e) != 0)
			return -1;
	}
	runner_log(r, p->job->run_id, "info", ctx, "Plan ready (%s); importing.",
	    summary[0] ? summary : "nothing to do");
	return 0;
}

/* The plan for the review is made: the run awaits review with stats, and
 * the log says what the plan will do. 0, or -1 on a database error. */
static int
review_ready(struct runner *r, struct plan *p, const char *stats, json_object *planned, json_object *ctx,
    const char *summary)
{
	json_object *v;
	int64_t n, conflicts = 0;

	if ((n = run_review_ready(r->db, p->job->run_id, stats)) < 0)
		return -1;
	if (planned != NULL && json_object_object_get_ex(planned, "conflict", &v))
		conflicts = json_object_get_int64(v);
	if (n == 0)
		return 0;
	if (conflicts > 0)
		runner_log(r, p->job->run_id, "warning", ctx,
		    "Plan ready for review (%s). %lld resource%s conflict%s with objects already in your account: "
		    "exclude them, or execute and resolve the conflicts then.",
		    summary, (long long)conflicts, conflicts == 1 ? "" : "s", conflicts == 1 ? "s" : "");
	else
		runner_log(r, p->job->run_id, "info", ctx,
		    "Plan ready for review (%s). Review it, then execute the run.",
		    summary[0] ? summary : "nothing to do");
	return 0;
}

/* Inside the run's exclusive lock (old: its stats): the stats say how far the
 * plan is (stats.activity), this job's batches since its last report added to
 * what the other chunks' jobs said. 0, or -1 on a database error. */
static int
add_progress(struct runner *r, const struct plan *p, const char *old)
{
	char *stats =
	    stats_activity(old, old, "planning", NULL, p->unreported, true, p->total, (int64_t)time(NULL));
	int64_t set = run_stats_set(r->db, p->job->run_id, stats);

	free(stats);
	return set < 0 ? -1 : 0;
}

static enum tx_result
plan_finish(struct runner *r, void *arg)
{
	struct plan *p = arg;
	char status[32], *old = NULL, *stats = NULL, summary[256];
	json_object *all = NULL, *planned = NULL, *ctx = NULL;
	enum tx_result t;
	int64_t conflicts = 0, other;
	struct work_counts counts;
	int ok, rc;

	if ((t = runner_lock(r, p->job, true, status, NULL, &old)) != TX_COMMIT)
		goto out;
	if (verdict(p, status) != JOB_ACT) {
		p->moved_on = true;
		t = TX_ABORT;
		goto out;
	}
	t = TX_ERROR;
	if (jobs_other_count(r->db, p->job->run_id, QUEUE_PLANNING, p->job->id, &other) != 0)
		goto out;
	runner_pause_point("plan_finish");
	if (other > 0) {
		/* Another chunk of the plan is still at work: the last one ends the plan. This one's
		 * progress goes with its end, in the one exclusive lock (each waits for the other
		 * runners' batches). */
		if ((p->total >= 0 && add_progress(r, p, old) != 0) || queue_done(r->db, p->job) < 0)
			goto out;
		t = TX_COMMIT;
		goto out;
	}
	if (!p->review && run_conflict_count(r->db, p->job->run_id, &conflicts) != 0)
		goto out;
	if ((stats = runner_stats(r, p->job->run_id, old, false, NULL, true,
	         p->review ? PROGRESS_ZERO : PROGRESS_COUNT, &counts)) == NULL)
		goto out;
	all = jx_parse(stats, strlen(stats), &ok);
	if (all != NULL)
		json_object_object_get_ex(all, "planned", &planned);
	describe(planned, summary, sizeof summary);
	ctx = json_object_new_object();
	if (planned != NULL)
		json_object_object_add(ctx, "planned", json_object_get(planned));
	if (p->review)
		rc = review_ready(r, p, stats, planned, ctx, summary);
	else if (conflicts > 0)
		rc = pause_on_conflicts(r, p, stats, conflicts, ctx, summary);
	else
		rc = start_import(r, p, stats, old, &counts, ctx, summary);
	if (rc != 0)
		goto out;
	if (queue_done(r->db, p->job) < 0)
		goto out;
	t = TX_COMMIT;
out:
	json_object_put(ctx);
	json_object_put(all);
	free(stats);
	free(old);
	return t;
}

/* The plan's progress while it goes on (add_progress), in a transaction of its own. */
static enum tx_result
plan_report(struct runner *r, void *arg)
{
	struct plan *p = arg;
	char status[32], *old = NULL;
	enum tx_result t;
	int rc;

	/* counted once (by the split, else here), before the run is locked, and kept in the job's
	 * payload: a count of 100,000 rows under the lock held every other chunk's planner back for
	 * its length, each second; and once a step, it took each short step of a large plan a second
	 * or two on a busy box (fair share ends steps early) */
	if (p->total < 0 && run_resource_count(r->db, p->job->run_id, &p->total) != 0)
		return TX_ERROR;
	if ((t = runner_lock(r, p->job, true, status, NULL, &old)) != TX_COMMIT)
		return t;
	if (verdict(p, status) != JOB_ACT) {
		free(old);
		return TX_ABORT;
	}
	rc = add_progress(r, p, old);
	free(old);
	if (rc != 0)
		return TX_ERROR;
	p->unreported = 0;
	return TX_COMMIT;
}

/* A planning job's payload: its position, a chunk's last id (0: none),
 * whether it plans for the review, and the run's resources (-1: not counted
 * yet). */
static void
pos_text(char *out, size_t n, uint64_t after, uint64_t last, bool review, int64_t total)
{
	size_t len = (size_t)snprintf(out, n, "{\"after\":%llu", (unsigned long long)after);

	if (last != 0 && len < n)
		len += (size_t)snprintf(out + len, n - len, ",\"last\":%llu", (unsigned long long)last);
	if (total >= 0 && len < n)
		len += (size_t)snprintf(out + len, n - len, ",\"total\":%lld", (long long)total);
	if (len < n)
		snprintf(out + len, n - len, "%s}", review ? ",\"review\":true" : "");
}

int
planning_queue_review(struct runner *r, const char *run_id, struct err *e)
{
	return queue_push(r->db, QUEUE_PLANNING, run_id, 0, "{\"review\":true}", e);
}

/* Give the job back at the current position (after a DB error: with backoff). */
static void
release_at(struct runner *r, struct job *j, const struct plan *p, int64_t delay_ms)
{
	char payload[PLAN_PAYLOAD_MAX];

	pos_text(payload, sizeof payload, p->after, p->last, p->review, p->total);
	queue_release(r->db, j, delay_ms, 0, payload);
}

/* A large run's fresh planning job: queue one chunk job per RUNNER_PLAN_CHUNK
 * resources in id order and end this one (p->split), all in one transaction;
 * a smaller run is planned by this job itself. */
static enum tx_result
split_body(struct runner *r, void *arg)
{
	struct plan *p = arg;
	char status[32], payload[PLAN_PAYLOAD_MAX];
	enum tx_result t;
	uint64_t after = 0;
	int64_t total;
	uint64_t end;
	struct err e;
	int rc;

	p->split = false;
	if ((t = runner_lock(r, p->job, false, status, NULL, NULL)) != TX_COMMIT)
		return t;
	if (verdict(p, status) != JOB_ACT) {
		p->moved_on = true;
		return TX_ABORT;
	}
	if (run_resource_count(r->db, p->job->run_id, &total) != 0)
		return TX_ERROR;
	p->total = total;
	if (total <= RUNNER_PLAN_CHUNK)
		return TX_COMMIT;
	err_clear(&e);
	for (;;) {
		if ((rc = resource_nth_after(r->db, p->job->run_id, after, (int64_t)RUNNER_PLAN_CHUNK - 1,
		         &end)) < 0)
			return TX_ERROR;
		/* the last chunk has no bound: it takes whatever is left */
		pos_text(payload, sizeof payload, after, rc == 1 ? end : 0, p->review, total);
		if (queue_push(r->db, QUEUE_PLANNING, p->job->run_id, 0, payload, &e) != 0)
			return TX_ERROR;
		if (rc == 0)
			break;
		after = end;
	}
	if (queue_done(r->db, p->job) < 0)
		return TX_ERROR;
	p->split = true;
	return TX_COMMIT;
}

/* The run of planning job j (its user, provider and status into p and
 * status[n]) and what the job's payload says: the position and chunk (none:
 * fresh), and whether it plans for the review. 1, 0 when the run is gone,
 * -1 on a database error. */
static int
plan_load(struct runner *r, struct job *j, struct plan *p, char *status, size_t n)
{
	struct run_row run;
	int rc;

	if ((rc = run_get(r->db, j->run_id, &run)) < 0) {
		log_error("run %s: %s", j->run_id, db_error(r->db));
		return -1;
	}
	if (rc == 1) {
		p->user_id = run.user_id;
		snprintf(p->provider, sizeof p->provider, "%s", run.provider);
		snprintf(status, n, "%s", run.status);
	}
	run_row_clear(&run);
	if (j->payload != NULL) {
		int ok;
		json_object *o = jx_parse(j->payload, strlen(j->payload), &ok), *v;
		p->fresh = o == NULL || !json_object_object_get_ex(o, "after", &v);
		if (!p->fresh)
			p->after = (uint64_t)json_object_get_int64(v);
		if (o != NULL && json_object_object_get_ex(o, "last", &v))
			p->last = (uint64_t)json_object_get_int64(v);
		p->review =
		    o != NULL && json_object_object_get_ex(o, "review", &v) && json_object_get_boolean(v);
		if (o != NULL && json_object_object_get_ex(o, "total", &v) &&
		    json_object_is_type(v, json_type_int))
			p->total = json_object_get_int64(v);
		p->started = p->after > 0;
		json_object_put(o);
	}
	return rc;
}

void
planning_step(struct runner *r, struct job *j)
{
	struct plan p = { .job = j, .fresh = true, .total = -1 };
	char status[32] = "";
	int64_t step_end = runner_step_end(r), next_stats = mono_ms() + RUNNER_STATS_MS;

	if (plan_load(r, j, &p, status, sizeof status) <= 0)
		return; /* gone, or the lease runs out and the job is claimed again */
	if (verdict(&p, status) != JOB_ACT) {
		runner_drop(r, j, status);
		return;
	}
	if (p.fresh) {
		enum tx_result t = runner_tx(r, split_body, &p);
		if (t != TX_COMMIT || p.split) {
			if (p.moved_on)
				runner_drop(r, j, MOVED_ON);
			else if (t == TX_ERROR)
				queue_release(r->db, j, queue_backoff_ms(1, 0, runner_random()), 0, NULL);
			return;
		}
	}
	for (;;) {
		enum tx_result t = runner_tx(r, plan_batch, &p);

		if (t != TX_COMMIT) {
			if (p.moved_on)
				runner_drop(r, j, MOVED_ON);
			else if (t == TX_ERROR)
				release_at(r, j, &p, queue_backoff_ms(1, 0, runner_random()));
			return; /* TX_ABORT: the lease was lost, the job is someone else's */
		}
		p.started = true;
		r->step_done += p.batch;
		p.unreported += p.batch;
		/* a finished job reports with its end (plan_finish) */
		if (!p.done && (runner_out_of_time(r, step_end) || mono_ms() >= next_stats)) {
			runner_tx(r, plan_report, &p); /* a failure is no matter: the next one says it all */
			next_stats = mono_ms() + RUNNER_STATS_MS;
		}
		if (p.done)
			break;
		if (runner_out_of_time(r, step_end)) {
			release_at(r, j, &p, 0); /* the continuation */
			return;
		}
	}
	switch (runner_tx(r, plan_finish, &p)) {
	case TX_COMMIT:
		break;
	case TX_ABORT:
		if (p.moved_on)
			runner_drop(r, j, MOVED_ON);
		break;
	case TX_ERROR:
		release_at(r, j, &p, queue_backoff_ms(1, 0, runner_random()));
		break;
	}
}
