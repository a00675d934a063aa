/* Revert jobs (design §4): a run's imports undone. One job walks the objects
 * the run wrote kind by kind, in the reverse of the import order (payments
 * before invoices, ..., contacts last) and newest first, REVERT_BATCH to a
 * transaction: the objects the run created are deleted (one statement for
 * the batch), each one it wrote over is put back as it was just before (its
 * image, kept by the import in its own transaction), their import links with
 * them, and their resources are marked. So a runner killed anywhere leaves
 * each object either reverted or untouched, and the next runner goes on from
 * the first one not marked.
 *
 * An object is left as it is, with a warning that names it, when it was
 * changed since the import or something of the user's came to use it (its
 * image's hash is not the one the import wrote: "kept"), when another run
 * imported it since ("left" to that run), or when it is gone ("gone"). The
 * run ends reverted in every case. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "db/account.h"
#include "db/runner_rows.h"
#include "importers/importer.h"
#include "runner/rules.h"
#include "runner/runner.h"

#define REVERT_BATCH 100

struct rv_run {
	uint64_t user_id;
	char provider[33];
};

/* A batch of one kind's objects, or (one) a single object after a batch
 * failed. */
struct rv_batch {
	struct job *job;
	const struct rv_run *run;
	const char *type;
	int limit;
	/* filled by the body */
	int n;
	bool moved;
	char dberr[256];
};

/* The warning that object target of kind t, which resource w became, is left
 * as it is: "<Noun> "<name>" (no. <id>) <why>" with its ids in the context. */
static int
warn_left(struct runner *r, struct rv_batch *b, enum account_table t, const struct revert_row *w,
    const char *outcome, const char *why)
{
	char name[160] = "", detail[160] = "", msg[600];
	json_object *ctx;
	int rc =
	    account_label(r->db, t, b->run->user_id, w->target, name, sizeof name, detail, sizeof detail);

	if (rc < 0)
		return -1;
	if (name[0] != '\0')
		utf8_format(msg, sizeof msg, "Not reverted: %s \"%s\" (no. %llu) %s.", importer_noun(b->type),
		    name, (unsigned long long)w->target, why);
	else
		utf8_format(msg, sizeof msg, "Not reverted: %s no. %llu %s.", importer_noun(b->type),
		    (unsigned long long)w->target, why);
	ctx = json_object_new_object();
	jx_add_int(ctx, "resource_id", (int64_t)w->id);
	jx_add_str(ctx, "resource_type", b->type);
	jx_add_str(ctx, "external_id", w->ext);
	jx_add_int(ctx, "object_id", (int64_t)w->target);
	jx_add_str(ctx, "reverted", outcome);
	runner_log(r, b->job->run_id, "warning", ctx, "%s", msg);
	json_object_put(ctx);
	return 0;
}

/* What a batch finds of each object now: there (with its image's hash), and
 * another run that imported it since. */
struct found {
	const struct revert_row *rows;
	int n;
	bool there[REVERT_BATCH];
	char hash[REVERT_BATCH][65];
	char later[REVERT_BATCH][37];
};

static void
found_hash(uint64_t id, const char *hash, void *arg)
{
	struct found *f = arg;

	for (int i = 0; i < f->n; i++)
		if (f->rows[i].target == id) {
			f->there[i] = true;
			snprintf(f->hash[i], sizeof f->hash[i], "%s", hash);
		}
}

static void
found_later(uint64_t id, const char *run, void *arg)
{
	struct found *f = arg;

	for (int i = 0; i < f->n; i++)
		if (f->rows[i].target == id)
			snprintf(f->later[i], sizeof f->later[i], "%s", run);
}

static json_object *
pair(json_object *a, json_object *b)
{
	json_object *p = json_object_new_array_ext(2);

	json_object_array_add(p, a);
	json_object_array_add(p, b);
	return p;
}

/* Revert the objects rows[n] of the batch's kind, with statements for the
 * whole batch (an object written over is put back alone, and a warning is
 * written for each one left as it is). 0 or -1 on a database error. */
static int
revert_rows(struct runner *r, struct rv_batch *b, enum account_table t, const struct revert_row *rows, int n)
{
	struct found f = { .rows = rows, .n = n };
	json_object *ids = json_object_new_array(), *seen = json_object_new_array(),
	            *gone = json_object_new_array(), *unlink = json_object_new_array(),
	            *marks = json_object_new_array();
	uint64_t user = b->run->user_id;
	int rc = -1;

	for (int i = 0; i < n; i++) {
		json_object_array_add(ids, json_object_new_uint64(rows[i].target));
		json_object_array_add(seen,
		    pair(json_object_new_uint64(rows[i].target), json_object_new_string(rows[i].written_at)));
	}
	if (account_hashes(r->db, t, user, jx_text(ids), found_hash, &f) != 0 ||
	    links_later(r->db, importer_model(b->type), user, b->job->run_id, jx_text(seen), found_later,
	        &f) != 0)
		goto out;
	for (int i = 0; i < n; i++) {
		const struct revert_row *w = &rows[i];
		bool created = strcmp(w->written, "created") == 0;
		const char *outcome = "reverted";
		char why[96];

		if (!f.there[i]) {
			/* Deleted since: nothing to delete, nothing to put back into. */
			outcome = "gone";
			if (!created &&
			    (link_put_back(r->db, user, b->run->provider, b->type, w->ext, b->job->run_id,
			         w->link_before) < 0 ||
			        warn_left(r, b, t, w, outcome, "was deleted since the import") != 0))
				goto out;
		} else if (f.later[i][0] != '\0') {
			outcome = "left";
			snprintf(why, sizeof why,
			    "was imported again since, by run %s: it is left to that run", f.later[i]);
			if (warn_left(r, b, t, w, outcome, why) != 0)
				goto out;
		} else if (strcmp(f.hash[i], w->after_hash) != 0) {
			outcome = "kept";
			if (warn_left(r, b, t, w, outcome,
			        "was changed since the import, or something changed since uses it: it is kept as it is") !=
			    0)
				goto out;
		} else if (created) {
			json_object_array_add(gone, json_object_new_uint64(w->target));
		} else if (w->before == NULL || account_restore(r->db, t, user, w->target, w->before) != 0 ||
		    link_put_back(r->db, user, b->run->provider, b->type, w->ext, b->job->run_id,
		        w->link_before) < 0)
			goto out;
		/* the link the run made goes with its object, deleted now or meanwhile */
		if (created && strcmp(outcome, "left") != 0 && strcmp(outcome, "kept") != 0)
			json_object_array_add(unlink, json_object_new_string(w->ext));
		json_object_array_add(marks,
		    pair(json_object_new_uint64(w->id), json_object_new_string(outcome)));
	}
	if ((json_object_array_length(gone) > 0 && account_delete_ids(r->db, t, user, jx_text(gone)) < 0) ||
	    (json_object_array_length(unlink) > 0 &&
	        links_drop(r->db, user, b->run->provider, b->type, b->job->run_id, jx_text(unlink)) < 0) ||
	    (n > 0 && revert_marks(r->db, jx_text(marks)) < 0))
		goto out;
	rc = 0;
out:
	json_object_put(ids);
	json_object_put(seen);
	json_object_put(gone);
	json_object_put(unlink);
	json_object_put(marks);
	return rc;
}

static enum tx_result
batch_body(struct runner *r, void *arg)
{
	struct rv_batch *b = arg;
	struct revert_row rows[REVERT_BATCH];
	enum account_table t;
	char status[32];
	enum tx_result res;
	int n;

	b->n = 0;
	b->moved = false;
	if ((res = runner_lock(r, b->job, false, status, NULL, NULL)) != TX_COMMIT)
		return res;
	if (job_verdict(QUEUE_REVERT, status) != JOB_ACT) {
		b->moved = true;
		return TX_ABORT;
	}
	if (!importer_table(b->type, &t))
		return TX_COMMIT;
	if ((n = revert_rows_next(r->db, b->job->run_id, b->type, b->limit, rows)) < 0)
		return TX_ERROR;
	res = revert_rows(r, b, t, rows, n) == 0 ? TX_COMMIT : TX_ERROR;
	revert_rows_clear(rows, (size_t)n);
	if (res == TX_ERROR)
		utf8_copy(b->dberr, sizeof b->dberr, db_error(r->db));
	b->n = n;
	return res;
}

/* After a single object could not be reverted for a reason that does not
 * pass: keep it, and say why. */
static enum tx_result
give_up_body(struct runner *r, void *arg)
{
	struct rv_batch *b = arg;
	struct revert_row w;
	enum account_table t;
	json_object *marks;
	char status[32], why[400];
	enum tx_result res;
	int n;

	if ((res = runner_lock(r, b->job, false, status, NULL, NULL)) != TX_COMMIT)
		return res;
	if (job_verdict(QUEUE_REVERT, status) != JOB_ACT || !importer_table(b->type, &t))
		return TX_ABORT;
	if ((n = revert_rows_next(r->db, b->job->run_id, b->type, 1, &w)) <= 0)
		return n < 0 ? TX_ERROR : TX_COMMIT;
	utf8_format(why, sizeof why, "could not be put back (%s): it is kept as it is", b->dberr);
	marks = json_object_new_array_ext(1);
	json_object_array_add(marks, pair(json_object_new_uint64(w.id), json_object_new_string("kept")));
	res = warn_left(r, b, t, &w, "kept", why) != 0 || revert_marks(r->db, jx_text(marks)) < 0 ? TX_ERROR :
	                                                                                            TX_COMMIT;
	json_object_put(marks);
	revert_rows_clear(&w, 1);
	return res;
}

struct tally {
	int64_t deleted, restored, kept, left, gone, todo;
};

static void
tally_add(const char *written, const char *reverted, int64_t n, void *arg)
{
	struct tally *t = arg;

	if (reverted == NULL)
		t->todo += n;
	else if (strcmp(reverted, "reverted") == 0 && strcmp(written, "created") == 0)
		t->deleted += n;
	else if (strcmp(reverted, "reverted") == 0)
		t->restored += n;
	else if (strcmp(reverted, "kept") == 0)
		t->kept += n;
	else if (strcmp(reverted, "left") == 0)
		t->left += n;
	else
		t->gone += n;
}

struct rv_finish {
	struct job *job;
	bool done; /* every object handled: end the run */
	bool moved;
};

/* The run's stats with "revert" (what it did so far) and, while it goes on,
 * "activity"; at the end, the run reverted and the job done. */
static enum tx_result
finish_body(struct runner *r, void *arg)
{
	struct rv_finish *f = arg;
	struct tally t = { 0 };
	json_object *stats, *rv, *ctx;
	char status[32], *old = NULL, *text = NULL;
	enum tx_result res;
	int ok;
	int64_t n = 0, total;

	if ((res = runner_lock(r, f->job, true, status, NULL, &old)) != TX_COMMIT)
		return res;
	if (job_verdict(QUEUE_REVERT, status) != JOB_ACT) {
		f->moved = true;
		free(old);
		return TX_ABORT;
	}
	if (revert_counts(r->db, f->job->run_id, tally_add, &t) != 0) {
		free(old);
		return TX_ERROR;
	}
	total = t.deleted + t.restored + t.kept + t.left + t.gone + t.todo;
	stats = old != NULL ? jx_parse(old, strlen(old), &ok) : NULL;
	if (stats == NULL || !json_object_is_type(stats, json_type_object)) {
		json_object_put(stats);
		stats = json_object_new_object();
	}
	rv = json_object_new_object();
	jx_add_int(rv, "objects", total);
	jx_add_int(rv, "deleted", t.deleted);
	jx_add_int(rv, "restored", t.restored);
	jx_add_int(rv, "kept", t.kept);
	jx_add_int(rv, "left", t.left);
	jx_add_int(rv, "gone", t.gone);
	json_object_object_add(stats, "revert", rv);
	res = TX_ERROR;
	if (f->done && t.todo == 0) {
		json_object_object_del(stats, "activity");
		if ((n = run_revert_done(r->db, f->job->run_id, jx_text(stats))) < 0)
			goto out;
		if (n > 0) {
			ctx = json_object_get(rv);
			runner_log(r, f->job->run_id, t.kept + t.left + t.gone > 0 ? "warning" : "info", ctx,
			    "Run reverted: %lld object%s deleted, %lld put back as they were; %lld changed since "
			    "and kept, %lld left to later runs, %lld already gone.",
			    (long long)t.deleted, t.deleted == 1 ? "" : "s", (long long)t.restored,
			    (long long)t.kept, (long long)t.left, (long long)t.gone);
			json_object_put(ctx);
		}
		if (queue_done(r->db, f->job) < 0)
			goto out;
	} else {
		text = stats_activity(jx_text(stats), old, "reverting", NULL, total - t.todo, false, total,
		    (int64_t)time(NULL));
		if (run_stats_set(r->db, f->job->run_id, text) < 0)
			goto out;
	}
	res = TX_COMMIT;
out:
	free(text);
	free(old);
	json_object_put(stats);
	return res;
}

static void
finish(struct runner *r, struct job *j, bool done)
{
	struct rv_finish f = { .job = j, .done = done };

	if (runner_tx(r, finish_body, &f) != TX_COMMIT && f.moved)
		runner_drop(r, j, "run no longer reverting");
}

/* One batch of b's kind: the objects handled (0: none left), or -1 when the
 * step must end (lease lost, run moved on, or the database failing: the job
 * is released or dropped here). */
static int
revert_batch(struct runner *r, struct rv_batch *b, int *attempts)
{
	enum tx_result t;
	enum db_class cls;

	b->limit = REVERT_BATCH;
	t = runner_tx(r, batch_body, b);
	if (t == TX_COMMIT) {
		*attempts = 0;
		return b->n;
	}
	if (t == TX_ABORT) {
		if (b->moved)
			runner_drop(r, b->job, "run no longer reverting");
		return -1;
	}
	/* The batch failed: one object alone, so that one that cannot be put
	 * back is kept alone, and a database that is down is waited for. */
	b->limit = 1;
	if ((t = runner_tx(r, batch_body, b)) == TX_COMMIT) {
		*attempts = 0;
		return b->n;
	}
	cls = db_error_class(r->db);
	if (t == TX_ERROR && cls != DB_RETRY && cls != DB_LOST && b->dberr[0] != '\0' &&
	    runner_tx(r, give_up_body, b) == TX_COMMIT)
		return 1;
	log_error("run %s: revert: %s", b->job->run_id, db_error(r->db));
	++*attempts;
	queue_release(r->db, b->job, queue_backoff_ms(*attempts, 0, runner_random()), *attempts, NULL);
	return -1;
}

void
revert_step(struct runner *r, struct job *j)
{
	struct rv_run run = { 0 };
	struct run_row row;
	int64_t step_end = runner_step_end(r), next_stats = mono_ms() + RUNNER_STATS_MS;
	int attempts = j->attempts, rc, kinds = 0;
	bool verdict;

	if ((rc = run_get(r->db, j->run_id, &row)) < 0)
		log_error("run %s: %s", j->run_id, db_error(r->db));
	verdict = rc == 1 && job_verdict(QUEUE_REVERT, row.status) == JOB_ACT;
	if (rc == 1) {
		run.user_id = row.user_id;
		snprintf(run.provider, sizeof run.provider, "%s", row.provider);
	}
	run_row_clear(&row);
	if (rc <= 0)
		return; /* deleted with its jobs (or a DB error: claimed again later) */
	if (!verdict) {
		runner_drop(r, j, "run no longer reverting");
		return;
	}
	while (importer_type_at((size_t)kinds) != NULL)
		kinds++;
	for (int k = kinds - 1; k >= 0; k--) {
		struct rv_batch b = { .job = j, .run = &run, .type = importer_type_at((size_t)k) };
		int n;

		while ((n = revert_batch(r, &b, &attempts)) > 0) {
			r->step_done += n;
			if (runner_out_of_time(r, step_end)) {
				finish(r, j, false); /* progress, then the continuation */
				queue_release(r->db, j, 0, 0, NULL);
				return;
			}
			if (mono_ms() >= next_stats) {
				finish(r, j, false);
				next_stats = mono_ms() + RUNNER_STATS_MS;
			}
		}
		if (n < 0)
			return;
	}
	finish(r, j, true);
}
