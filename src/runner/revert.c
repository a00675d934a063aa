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
 * run ends reverted in every case.
 *
 * What the revert did so far (struct tally) is kept in the job's payload,
 * {"revert":{"deleted":n,...,"todo":n}}, written by each batch in its own
 * transaction: the progress reported each second reads it, and the run is
 * counted only when the job has none yet and at the end (counted at every
 * report, a revert of 100,000 read its resources once a second). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "db/account.h"
#include "db/queue_rows.h"
#include "db/runner_rows.h"
#include "importers/importer.h"
#include "runner/rules.h"
#include "runner/runner.h"

#define REVERT_BATCH 100

struct rv_run {
	uint64_t user_id;
	char provider[33];
};

/* The objects by what the revert did with them; todo: not yet. */
enum { T_DELETED, T_RESTORED, T_KEPT, T_LEFT, T_GONE, T_TODO, TALLIES };
static const char *const tally_names[TALLIES] = { "deleted", "restored", "kept", "left", "gone", "todo" };

struct tally {
	int64_t n[TALLIES];
	bool counted;  /* n holds the run's counts (from the payload, or counted) */
	char *payload; /* n as the job's payload, as last committed (malloc'd) */
};

/* Where an object the run wrote (created or updated) counts once the revert
 * marked it reverted, kept, left or gone (NULL: not yet). */
static int
tally_of(const char *written, const char *reverted)
{
	if (reverted == NULL)
		return T_TODO;
	if (strcmp(reverted, "reverted") == 0)
		return strcmp(written, "created") == 0 ? T_DELETED : T_RESTORED;
	if (strcmp(reverted, "kept") == 0)
		return T_KEPT;
	return strcmp(reverted, "left") == 0 ? T_LEFT : T_GONE;
}

/* revert_counts' groups added to an int64_t[TALLIES]. */
static void
tally_add(const char *written, const char *reverted, int64_t n, void *arg)
{
	int64_t *t = arg;

	t[tally_of(written, reverted)] += n;
}

/* The tally of a job's payload into t; false (and t zero) when it holds none. */
static bool
tally_load(const char *payload, struct tally *t)
{
	json_object *o = payload != NULL ? jx_parse(payload, strlen(payload), &(int){ 0 }) : NULL, *rv, *v;
	bool ok = json_object_object_get_ex(o, "revert", &rv) && json_object_is_type(rv, json_type_object);

	for (int i = 0; ok && i < TALLIES; i++) {
		ok = json_object_object_get_ex(rv, tally_names[i], &v) &&
		    json_object_is_type(v, json_type_int) && json_object_get_int64(v) >= 0;
		if (ok)
			t->n[i] = json_object_get_int64(v);
	}
	json_object_put(o);
	if (!ok)
		memset(t->n, 0, sizeof t->n);
	return ok;
}

static char *
tally_text(const int64_t n[TALLIES])
{
	json_object *o = json_object_new_object(), *rv = json_object_new_object();
	char *text;

	for (int i = 0; i < TALLIES; i++)
		jx_add_int(rv, tally_names[i], n[i]);
	json_object_object_add(o, "revert", rv);
	text = xstrdup(jx_text(o));
	json_object_put(o);
	return text;
}

/* A batch of one kind's objects, or (one) a single object after a batch
 * failed. */
struct rv_batch {
	struct job *job;
	const struct rv_run *run;
	struct tally *done; /* as committed */
	const char *type;
	int limit;
	/* filled by the body */
	int n;
	int64_t add[TALLIES]; /* what it did, to add to done once committed */
	char *payload;        /* done with add, as written */
	bool counted;         /* done counted by the body */
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
		b->add[tally_of(w->written, outcome)]++;
		b->add[T_TODO]--;
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

/* Inside a batch's transaction, first: the run counted into add when the job
 * has no tally yet (the batch's own work is added to it). */
static int
batch_begin(struct runner *r, struct rv_batch *b)
{
	memset(b->add, 0, sizeof b->add);
	b->counted = !b->done->counted;
	return b->counted ? revert_counts(r->db, b->job->run_id, tally_add, b->add) : 0;
}

/* Inside a batch's transaction, last: the tally with what it did, into the
 * job's payload. */
static int
batch_save(struct runner *r, struct rv_batch *b)
{
	int64_t n[TALLIES];

	for (int i = 0; i < TALLIES; i++)
		n[i] = b->done->n[i] + b->add[i];
	free(b->payload);
	b->payload = tally_text(n);
	return job_payload_set(r->db, b->job->id, b->job->worker, b->payload) < 0 ? -1 : 0;
}

/* After a batch's commit: what it saved is the tally. */
static void
batch_done(struct rv_batch *b)
{
	if (b->payload == NULL)
		return; /* nothing saved: a kind without objects, the job's tally still to count */
	for (int i = 0; i < TALLIES; i++)
		b->done->n[i] += b->add[i];
	b->done->counted = true;
	free(b->done->payload);
	b->done->payload = b->payload;
	b->payload = NULL;
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
	free(b->payload);
	b->payload = NULL;
	if (!importer_table(b->type, &t))
		return TX_COMMIT;
	if (batch_begin(r, b) != 0 ||
	    (n = revert_rows_next(r->db, b->job->run_id, b->type, b->limit, rows)) < 0)
		return TX_ERROR;
	res = revert_rows(r, b, t, rows, n) == 0 && ((n == 0 && !b->counted) || batch_save(r, b) == 0) ?
	    TX_COMMIT :
	    TX_ERROR;
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
	free(b->payload);
	b->payload = NULL;
	if (batch_begin(r, b) != 0 || (n = revert_rows_next(r->db, b->job->run_id, b->type, 1, &w)) < 0)
		return TX_ERROR;
	if (n == 0)
		return b->counted && batch_save(r, b) != 0 ? TX_ERROR : TX_COMMIT;
	utf8_format(why, sizeof why, "could not be put back (%s): it is kept as it is", b->dberr);
	marks = json_object_new_array_ext(1);
	json_object_array_add(marks, pair(json_object_new_uint64(w.id), json_object_new_string("kept")));
	b->add[T_KEPT]++;
	b->add[T_TODO]--;
	res = warn_left(r, b, t, &w, "kept", why) != 0 || revert_marks(r->db, jx_text(marks)) < 0 ||
	        batch_save(r, b) != 0 ?
	    TX_ERROR :
	    TX_COMMIT;
	json_object_put(marks);
	revert_rows_clear(&w, 1);
	return res;
}

struct rv_finish {
	struct job *job;
	const struct tally *tally; /* as committed */
	bool done;                 /* every object handled: end the run */
	bool moved;
};

/* The run's stats with "revert" (what it did so far: the job's tally, or the
 * run counted at the end and while the job has none) and, while it goes on,
 * "activity"; at the end, the run reverted and the job done. */
static enum tx_result
finish_body(struct runner *r, void *arg)
{
	struct rv_finish *f = arg;
	int64_t t[TALLIES] = { 0 };
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
	if (f->done || !f->tally->counted) {
		if (revert_counts(r->db, f->job->run_id, tally_add, t) != 0) {
			free(old);
			return TX_ERROR;
		}
	} else
		memcpy(t, f->tally->n, sizeof t);
	total = 0;
	for (int i = 0; i < TALLIES; i++)
		total += t[i];
	stats = old != NULL ? jx_parse(old, strlen(old), &ok) : NULL;
	if (stats == NULL || !json_object_is_type(stats, json_type_object)) {
		json_object_put(stats);
		stats = json_object_new_object();
	}
	rv = json_object_new_object();
	jx_add_int(rv, "objects", total);
	for (int i = 0; i < T_TODO; i++)
		jx_add_int(rv, tally_names[i], t[i]);
	json_object_object_add(stats, "revert", rv);
	res = TX_ERROR;
	if (f->done && t[T_TODO] == 0) {
		json_object_object_del(stats, "activity");
		if ((n = run_revert_done(r->db, f->job->run_id, jx_text(stats))) < 0)
			goto out;
		if (n > 0) {
			ctx = json_object_get(rv);
			runner_log(r, f->job->run_id,
			    t[T_KEPT] + t[T_LEFT] + t[T_GONE] > 0 ? "warning" : "info", ctx,
			    "Run reverted: %lld object%s deleted, %lld put back as they were; %lld changed since "
			    "and kept, %lld left to later runs, %lld already gone.",
			    (long long)t[T_DELETED], t[T_DELETED] == 1 ? "" : "s", (long long)t[T_RESTORED],
			    (long long)t[T_KEPT], (long long)t[T_LEFT], (long long)t[T_GONE]);
			json_object_put(ctx);
		}
		if (queue_done(r->db, f->job) < 0)
			goto out;
	} else {
		text = stats_activity(jx_text(stats), old, "reverting", NULL, total - t[T_TODO], false, total,
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
finish(struct runner *r, struct job *j, const struct tally *tally, bool done)
{
	struct rv_finish f = { .job = j, .tally = tally, .done = done };

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
		batch_done(b);
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
		batch_done(b);
		*attempts = 0;
		return b->n;
	}
	cls = db_error_class(r->db);
	if (t == TX_ERROR && cls != DB_RETRY && cls != DB_LOST && b->dberr[0] != '\0' &&
	    runner_tx(r, give_up_body, b) == TX_COMMIT) {
		batch_done(b);
		return 1;
	}
	log_error("run %s: revert: %s", b->job->run_id, db_error(r->db));
	++*attempts;
	queue_release(r->db, b->job, queue_backoff_ms(*attempts, 0, runner_random()), *attempts,
	    b->done->payload);
	return -1;
}

void
revert_step(struct runner *r, struct job *j)
{
	struct rv_run run = { 0 };
	struct tally done = { .counted = false };
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
	if ((done.counted = tally_load(j->payload, &done)))
		done.payload = xstrdup(j->payload);
	while (importer_type_at((size_t)kinds) != NULL)
		kinds++;
	for (int k = kinds - 1; k >= 0; k--) {
		struct rv_batch b = { .job = j,
			.run = &run,
			.done = &done,
			.type = importer_type_at((size_t)k) };
		int n;

		while ((n = revert_batch(r, &b, &attempts)) > 0) {
			r->step_done += n;
			if (runner_out_of_time(r, step_end)) {
				finish(r, j, &done, false); /* progress, then the continuation */
				queue_release(r->db, j, 0, 0, done.payload);
				n = -1;
				break;
			}
			if (mono_ms() >= next_stats) {
				finish(r, j, &done, false);
				next_stats = mono_ms() + RUNNER_STATS_MS;
			}
		}
		free(b.payload);
		if (n < 0)
			goto out;
	}
	finish(r, j, &done, true);
out:
	free(done.payload);
}
