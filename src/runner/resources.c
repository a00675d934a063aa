/* Resource jobs: imports. Each resource is imported in one transaction that
 * writes the account row(s), the import link and the resource's status, so a
 * runner killed anywhere leaves each resource either fully imported or
 * untouched. A job without resource_id is the run's import chain: it walks
 * the pending resources type by type in import order (contacts and clients
 * before what refers to them), a batch of ids at a time, its position in its
 * payload. One whose payload is a retry (QUEUE_RETRY_PAYLOAD) sets the run's
 * failed resources pending again, then queues their import (retry_step). A
 * job with resource_id (queued by retry-failed before it worked in batches)
 * imports that one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "db/bounds.h"
#include "db/queue_rows.h"
#include "db/runlog.h"
#include "db/runner_rows.h"
#include "db/runs.h"
#include "importers/importer.h"
#include "runner/rules.h"
#include "runner/runner.h"

enum outcome {
	ONE_DONE,      /* imported, failed for good, or nothing to do */
	ONE_DEFER,     /* waits for a referenced resource of the same run */
	ONE_TRANSIENT, /* database busy or gone: try again later */
	ONE_LOST,      /* the lease was lost or the run deleted */
	ONE_MOVED      /* the run is no longer executing */
};

struct run_info {
	uint64_t user_id;
	char provider[33];
	bool import_paused; /* the run's option */
};

struct one {
	struct job *job;
	const struct run_info *run;
	uint64_t id;
	/* filled by the import */
	enum outcome outcome;
	bool imported_now; /* the resource became imported */
	bool failed_now;   /* the resource became failed */
	char type[32];
	char ext[192];
	char label[160]; /* a human name of the resource, for messages */
	char why[256];
	char dberr[256];
	int attempts;          /* consecutive transient failures, this one included */
	json_object *imported; /* in a batch: its rows of resources_imported_rows, written at its end */
};

static void
resource_context(struct one *o, json_object *ctx)
{
	jx_add_int(ctx, "resource_id", (int64_t)o->id);
	jx_add_str(ctx, "resource_type", o->type);
	jx_add_str(ctx, "external_id", o->ext);
}

/* The account object this import writes over (0: a new one) for action and
 * resolution. 0, or -1 on a database error. */
static int
find_target(struct imp_ctx *ic, const struct one *o, const char *action, const char *resolution,
    json_object *norm, uint64_t *target)
{
	int rc = 0;

	if (strcmp(action, "update") == 0) {
		/* The earlier import's target; with "overwrite", the object it conflicted
		 * with. A target deleted meanwhile is created again. */
		if ((rc = importer_find_link(ic, o->type, o->ext, target)) == 0 &&
		    strcmp(resolution, "overwrite") == 0)
			rc = importer_find_conflict(ic, o->type, norm, target);
	} else if (strcmp(resolution, "duplicate") != 0) {
		/* create: unless a copy was asked for, never a second one (another run of the
		 * same account may have imported it meanwhile). */
		rc = importer_find_link(ic, o->type, o->ext, target);
	}
	return rc;
}

/* The resource could not be imported (o->why): marked failed, and the run
 * log says which and why. 0, or -1 on a database error. */
static int
record_failure(struct runner *r, struct one *o)
{
	char msg[400];
	json_object *ctx;

	utf8_format(msg, sizeof msg, "Import failed: %s", o->why);
	if (resource_failed(r->db, o->id, msg) < 0)
		return -1;
	ctx = json_object_new_object();
	resource_context(o, ctx);
	runner_log(r, o->job->run_id, "error", ctx, "Import of %s \"%s\" (external id %s) failed: %s",
	    o->type, o->label, o->ext, o->why);
	json_object_put(ctx);
	o->failed_now = true;
	return 0;
}

/* The run-log warning "<verb> <type> "<label>" (external id <id>) <said>:
 * <what>." about resource o, when what is not "". */
static void
warn_if(struct runner *r, struct one *o, const char *verb, const char *said, const char *what)
{
	json_object *ctx;

	if (what[0] == '\0')
		return;
	ctx = json_object_new_object();
	resource_context(o, ctx);
	runner_log(r, o->job->run_id, "warning", ctx, "%s %s \"%s\" (external id %s) %s: %s.", verb, o->type,
	    o->label, o->ext, said, what);
	json_object_put(ctx);
}

/* The row of resources_imported_rows for resource o imported into target_id,
 * with what ic kept for a revert, which it takes over. */
static json_object *
imported_row(const struct one *o, struct imp_ctx *ic, uint64_t target_id)
{
	json_object *row = json_object_new_array_ext(6);

	json_object_array_add(row, json_object_new_uint64(o->id));
	json_object_array_add(row, json_object_new_string(importer_model(o->type)));
	json_object_array_add(row, json_object_new_uint64(target_id));
	json_object_array_add(row, json_object_new_string(ic->written));
	json_object_array_add(row, ic->before ? json_object_new_string(ic->before) : NULL);
	json_object_array_add(row, ic->link_was ? json_object_new_string(ic->link_was) : NULL);
	importer_forget(ic);
	return row;
}

/* The rows of resources_imported_rows in order, each given the hash of its object's image as the
 * import left it (a revert keeps an object whose image changed since). */
struct after_hashes {
	json_object *rows;
	size_t at; /* where the next hash is looked for: they come in the rows' order */
};

static void
found_after_hash(uint64_t id, const char *hash, void *arg)
{
	struct after_hashes *h = arg;
	size_t n = json_object_array_length(h->rows);

	for (size_t k = 0; k < n; k++) {
		json_object *row = json_object_array_get_idx(h->rows, (h->at + k) % n);

		if (json_object_array_length(row) == 6 &&
		    json_object_get_uint64(json_object_array_get_idx(row, 2)) == id) {
			json_object_array_add(row, json_object_new_string(hash));
			h->at = (h->at + k + 1) % n;
			return;
		}
	}
}

/* Inside the import transaction, after the lists are written: rows (of imported_row, every one of
 * type and user) recorded with the hashes of what they wrote. 0, or -1 on a database error. */
static int
imported_rows_write(struct runner *r, const char *type, uint64_t user, json_object *rows)
{
	struct after_hashes h = { rows, 0 };
	size_t n = json_object_array_length(rows);
	json_object *ids = json_object_new_array_ext((int)n);
	enum account_table t;
	int rc = -1;

	for (size_t i = 0; i < n; i++) {
		json_object *target = json_object_array_get_idx(json_object_array_get_idx(rows, i), 2);

		json_object_array_add(ids, json_object_get(target));
	}
	if (importer_table(type, &t) &&
	    account_hashes(r->db, t, user, jx_text(ids), found_after_hash, &h) == 0 &&
	    resources_imported_rows(r->db, jx_text(rows)) >= 0)
		rc = 0;
	json_object_put(ids);
	return rc;
}

/* Inside an import transaction: job j made imported and failed more of the run's resources,
 * counted in its row for its next progress report (finish_body). 0, or -1 on a database error. */
static int
job_counted(struct runner *r, const struct job *j, int64_t imported, int64_t failed)
{
	if (imported == 0 && failed == 0)
		return 0;
	return job_count_add(r->db, j->id, j->worker, imported, failed) < 0 ? -1 : 0;
}

/* Import the resource o->id, whose row (locked by the caller) is w. Writes the account row(s), the link and the
 * resource's status. TX_COMMIT (imported, failed for good, or nothing to do:
 * not pending any more), TX_ABORT with o->outcome ONE_DEFER, or TX_ERROR. */
static enum tx_result
import_row(struct runner *r, struct one *o, struct imp_ctx *ic, const struct resource_row *w)
{
	json_object *norm = NULL, *row, *one;
	enum imp_result ir;
	uint64_t target = 0, target_id = 0;
	int rc, ok;

	o->outcome = ONE_DONE;
	o->imported_now = o->failed_now = false;
	utf8_copy(o->type, sizeof o->type, w->type);
	utf8_copy(o->ext, sizeof o->ext, w->ext);
	if (strcmp(w->status, "pending") != 0)
		return TX_COMMIT; /* already done by someone else */
	if (w->norm != NULL)
		norm = jx_parse(w->norm, strlen(w->norm), &ok);
	importer_label(o->type, norm, o->label, sizeof o->label);
	rc = find_target(ic, o, w->action, w->resolution, norm, &target);
	if (rc < 0) {
		json_object_put(norm);
		goto db_error;
	}
	ir = importer_write(ic, o->type, o->ext, norm, target, &target_id, o->why, sizeof o->why);
	json_object_put(norm);
	switch (ir) {
	case IMP_OK:
		/* what the write could not carry as it was: a warning each */
		warn_if(r, o, "Imported", "with values cut to fit the account", ic->cuts);
		warn_if(r, o, "Imported",
		    "without its alert links to these contacts, which were not imported (not found at the "
		    "provider, excluded, failed or skipped)",
		    ic->unlinked);
		warn_if(r, o, "Imported",
		    "without these components it follows, which its status page does not list", ic->unmapped);
		warn_if(r, o, "Updated", "keeping its own values of what this run could not read", ic->kept);
		o->imported_now = true;
		row = imported_row(o, ic, target_id);
		if (o->imported != NULL) {
			json_object_array_add(o->imported, row);
			return TX_COMMIT;
		}
		one = json_object_new_array_ext(1);
		json_object_array_add(one, row);
		rc = imported_rows_write(r, o->type, o->run->user_id, one);
		json_object_put(one);
		if (rc != 0)
			goto db_error;
		return TX_COMMIT;
	case IMP_DEFER:
		o->outcome = ONE_DEFER;
		return TX_ABORT;
	case IMP_INVALID:
		if (record_failure(r, o) != 0)
			goto db_error;
		return TX_COMMIT;
	case IMP_DB:
		break;
	}
db_error:
	utf8_copy(o->dberr, sizeof o->dberr, db_error(r->db));
	return TX_ERROR;
}

/* One resource in its own transaction (retry-failed jobs, and the resources
 * of a batch whose transaction failed). */
static enum tx_result
import_body(struct runner *r, void *arg)
{
	struct one *o = arg;
	struct imp_ctx ic = { .db = r->db,
		.user_id = o->run->user_id,
		.provider = o->run->provider,
		.run_id = o->job->run_id,
		.import_paused = o->run->import_paused };
	char status[32];
	struct resource_row row;
	enum tx_result t;
	int rc;

	o->outcome = ONE_DONE;
	o->failed_now = false;
	if ((t = runner_lock(r, o->job, false, status, NULL, NULL)) != TX_COMMIT) {
		o->outcome = ONE_LOST;
		return t;
	}
	if (job_verdict(QUEUE_RESOURCES, status) != JOB_ACT) {
		o->outcome = ONE_MOVED;
		return TX_ABORT;
	}
	if ((rc = resource_lock(r->db, o->id, o->job->run_id, &row)) != 1)
		return rc < 0 ? TX_ERROR : TX_COMMIT; /* gone */
	t = import_row(r, o, &ic, &row);
	resource_rows_clear(&row, 1);
	if (t == TX_COMMIT && job_counted(r, o->job, o->imported_now, o->failed_now) != 0)
		t = TX_ERROR;
	return t;
}

/* After a failed import transaction: count the attempt and, when the error
 * cannot pass or the attempts are used up, fail the resource. */
struct after_error {
	struct one *o;
	bool transient;
	int64_t delay_ms;
};

static enum tx_result
error_body(struct runner *r, void *arg)
{
	struct after_error *a = arg;
	struct one *o = a->o;
	char status[32], msg[512];
	json_object *ctx;
	enum tx_result t;
	int64_t n;

	if ((t = runner_lock(r, o->job, false, status, NULL, NULL)) != TX_COMMIT)
		return t;
	if (job_verdict(QUEUE_RESOURCES, status) != JOB_ACT) {
		o->outcome = ONE_MOVED;
		return TX_ABORT;
	}
	ctx = json_object_new_object();
	resource_context(o, ctx);
	jx_add_int(ctx, "attempt", o->attempts);
	jx_add_int(ctx, "max_attempts", r->max_attempts);
	jx_add_str(ctx, "database_error", o->dberr);
	if (!a->transient || o->attempts >= r->max_attempts) {
		char why[200];
		if (a->transient)
			snprintf(why, sizeof why, "the database was busy or unreachable (%d attempts)",
			    o->attempts);
		else
			snprintf(why, sizeof why, "the %s could not be saved in your account", o->type);
		snprintf(msg, sizeof msg, "Import failed: %s.", why);
		n = resource_failed(r->db, o->id, msg);
		if (n > 0)
			runner_log(r, o->job->run_id, "error", ctx,
			    "Import of %s (external id %s) failed: %s.", o->type, o->ext, why);
		o->failed_now = n > 0;
		if (o->failed_now && job_counted(r, o->job, 0, 1) != 0)
			n = -1;
	} else {
		n = resource_attempt(r->db, o->id);
		if (n > 0) {
			jx_add_int(ctx, "retry_in_s", (a->delay_ms + 999) / 1000);
			runner_log(r, o->job->run_id, "warning", ctx,
			    "Import of %s (external id %s) hit a temporary database error; retrying "
			    "(attempt %d of %d).",
			    o->type, o->ext, o->attempts, r->max_attempts);
		}
	}
	json_object_put(ctx);
	return n < 0 ? TX_ERROR : TX_COMMIT;
}

/* Import resource id. attempts: the job's count of consecutive transient
 * failures before this try. */
static enum outcome
import_one(struct runner *r, struct job *j, const struct run_info *run, uint64_t id, int *attempts,
    int64_t *delay_ms)
{
	struct one o = { .job = j, .run = run, .id = id };
	struct after_error a = { .o = &o };
	enum tx_result t = runner_tx(r, import_body, &o);
	enum db_class cls;

	*delay_ms = 0;
	if (t == TX_COMMIT) {
		*attempts = 0;
		return ONE_DONE;
	}
	if (t == TX_ABORT) {
		if (o.outcome == ONE_DEFER)
			*delay_ms = RUNNER_DEFER_MS;
		return o.outcome;
	}
	cls = db_error_class(r->db);
	a.transient = cls == DB_RETRY || cls == DB_LOST || o.dberr[0] == '\0';
	o.attempts = *attempts + 1;
	a.delay_ms = queue_backoff_ms(o.attempts, 0, runner_random());
	if (runner_tx(r, error_body, &a) != TX_COMMIT)
		return o.outcome == ONE_MOVED ? ONE_MOVED : ONE_TRANSIENT;
	if (o.failed_now) {
		*attempts = 0;
		return ONE_DONE;
	}
	*attempts = o.attempts;
	*delay_ms = a.delay_ms;
	return ONE_TRANSIENT;
}

/* A batch: the next pending resources of one type in (after, last], locked
 * and imported in one transaction (max at most, up to IMPORT_TX_ROWS rows). */
struct batch {
	struct job *job;
	const struct run_info *run;
	const char *type;
	uint64_t after, last;
	int max;   /* rows to take: RUNNER_IMPORT_TX, or what is left of --step-resources */
	int limit; /* rows to take this time: max, or those before one that must wait */
	/* filled by the body (afresh on each try) */
	uint64_t ids[RUNNER_IMPORT_TX]; /* the rows taken, in id order */
	int n;
	int deferred;         /* index of the row that must wait, or -1 */
	enum outcome outcome; /* ONE_LOST or ONE_MOVED when the step must end */
};

static enum tx_result
batch_body(struct runner *r, void *arg)
{
	struct batch *b = arg;
	struct imp_ctx ic = { .db = r->db,
		.user_id = b->run->user_id,
		.provider = b->run->provider,
		.run_id = b->job->run_id,
		.import_paused = b->run->import_paused };
	struct resource_row rows[RUNNER_IMPORT_TX];
	char status[32];
	json_object *imported;
	enum tx_result t;
	int n, failed = 0;

	b->n = 0;
	b->deferred = -1;
	b->outcome = ONE_DONE;
	if ((t = runner_lock(r, b->job, false, status, NULL, NULL)) != TX_COMMIT) {
		b->outcome = ONE_LOST;
		return t;
	}
	if (job_verdict(QUEUE_RESOURCES, status) != JOB_ACT) {
		b->outcome = ONE_MOVED;
		return TX_ABORT;
	}
	if ((n = resources_to_import(r->db, b->job->run_id, b->type, b->after, b->last, b->limit, rows)) < 0)
		return TX_ERROR;
	for (int i = 0; i < n; i++)
		b->ids[i] = rows[i].id;
	t = TX_COMMIT;
	if (n > 0 && importer_batch_facts(&ic, b->type, b->after, b->ids[n - 1]) != 0)
		t = TX_ERROR;
	/* The rows' new monitors, links, contact links and statuses are written together at the end. */
	importer_rows_begin(&ic);
	imported = json_object_new_array();
	for (int i = 0; i < n && t == TX_COMMIT; i++) {
		struct one o = { .job = b->job, .run = b->run, .id = b->ids[i], .imported = imported };
		t = import_row(r, &o, &ic, &rows[i]);
		if (t == TX_ABORT)
			b->deferred = i; /* the only abort of import_row */
		failed += o.failed_now;
		b->n = i + 1;
		/* the rest to the next transaction once this one has written its share */
		if (db_tx_rows(r->db) +
		        (int64_t)(importer_rows_pending(&ic) + json_object_array_length(imported)) >=
		    IMPORT_TX_ROWS)
			break;
	}
	if (t == TX_COMMIT && importer_rows_flush(&ic) != 0)
		t = TX_ERROR;
	if (t == TX_COMMIT)
		importer_rows_resolve(&ic, imported, 2);
	if (t == TX_COMMIT && json_object_array_length(imported) > 0 &&
	    imported_rows_write(r, b->type, b->run->user_id, imported) != 0)
		t = TX_ERROR;
	if (t == TX_COMMIT &&
	    job_counted(r, b->job, (int64_t)json_object_array_length(imported), failed) != 0)
		t = TX_ERROR;
	importer_rows_end(&ic);
	json_object_put(imported);
	resource_rows_clear(rows, (size_t)n);
	return t;
}

/* Import the next batch of b's range. *done gets how many of its rows are
 * final now (their ids in b->ids, the last one is where the chain goes on
 * from); 0 with ONE_DONE means the range has no pending resource left.
 * attempts and delay_ms as for import_one. */
static enum outcome
import_batch(struct runner *r, struct batch *b, int *done, int *attempts, int64_t *delay_ms)
{
	enum tx_result t;

	*done = 0;
	*delay_ms = 0;
	b->limit = b->max;
	for (;;) {
		t = runner_tx(r, batch_body, b);
		if (t != TX_ABORT || b->deferred < 0)
			break;
		if (b->deferred == 0) {
			*delay_ms = RUNNER_DEFER_MS; /* the first must wait: nothing to save */
			return ONE_DEFER;
		}
		/* Save the rows before the one that must wait, then wait for it. */
		b->limit = b->deferred;
	}
	if (t == TX_COMMIT) {
		*done = b->n;
		if (b->limit < b->max) {
			*delay_ms = RUNNER_DEFER_MS;
			return ONE_DEFER;
		}
		*attempts = 0;
		return ONE_DONE;
	}
	if (t == TX_ABORT)
		return b->outcome;
	/* The transaction failed: each of its rows alone, so that a row that cannot
	 * be stored fails alone and busy-database attempts are counted per row. */
	for (int i = 0; i < b->n; i++) {
		enum outcome out = import_one(r, b->job, b->run, b->ids[i], attempts, delay_ms);
		if (out != ONE_DONE)
			return out;
		*done = i + 1;
	}
	if (b->n == 0) {
		log_error("run %s: %s", b->job->run_id, db_error(r->db));
		*delay_ms = queue_backoff_ms(1, 0, runner_random());
		return ONE_TRANSIENT;
	}
	return ONE_DONE;
}

struct finish {
	struct job *job;
	const struct run_info *run;
	bool moved_on, completed, delete_job;
};

struct paused {
	json_object *types;
	int64_t total;
};

static void
count_paused(const char *type, int64_t n, void *arg)
{
	struct paused *p = arg;

	if (importer_pausable(type)) {
		jx_add_int(p->types, type, n);
		p->total += n;
	}
}

/* The run option import_paused: say which targets were left paused. 0 or -1. */
static int
log_left_paused(struct runner *r, const char *run_id)
{
	struct paused p = { json_object_new_object(), 0 };
	json_object *ctx = json_object_new_object();
	int rc = run_count_imported_by_type(r->db, run_id, count_paused, &p);

	json_object_object_add(ctx, "left_paused", p.types);
	if (rc == 0)
		runner_log(r, run_id, "info", ctx,
		    "%lld imported monitor%s and heartbeat%s were left paused "
		    "(option import_paused): resume them when you switch over.",
		    (long long)p.total, p.total == 1 ? "" : "s", p.total == 1 ? "" : "s");
	json_object_put(ctx);
	return rc < 0 ? -1 : 0;
}

/* Refresh the stats; complete the run when nothing is left to import; delete the job if asked.
 * The job's report adds what it did since its last one (its counts, sql/020) to the stats. The
 * run's resources are counted instead when the run may end, and when the stats have no count to
 * add to (the import's first report, or after a retry-failed): every job's counts are then in
 * that count and go back to 0. No other job's transaction is open meanwhile: each takes the run
 * in share mode, this one exclusively. On Galera, where another node's share lock holds nothing
 * back here, a job's open transaction and this count both write the job's row when it has counts
 * (certification puts one after the other), and a job without counts has none to take twice. */
static enum tx_result
finish_body(struct runner *r, void *arg)
{
	struct finish *f = arg;
	char status[32], *old = NULL, *stats = NULL;
	struct work_counts counts = { 0, 0, 0 };
	enum tx_result t;
	int64_t n = 0, imported, failed;
	int done = 0;

	f->completed = false;
	if ((t = runner_lock(r, f->job, true, status, NULL, &old)) != TX_COMMIT)
		return t;
	if (job_verdict(QUEUE_RESOURCES, status) != JOB_ACT) {
		f->moved_on = true;
		free(old);
		return TX_ABORT;
	}
	t = TX_ERROR;
	if (job_counts_take(r->db, f->job->id, f->job->worker, &imported, &failed) != 0 ||
	    (f->delete_job && (done = run_done(r->db, f->job->run_id)) < 0))
		goto out;
	if (done ||
	    (stats = stats_add(old, "importing", imported, failed, &counts.failed, &counts.finished,
	         &counts.total)) == NULL) {
		stats = runner_stats(r, f->job->run_id, old, false, NULL, false, PROGRESS_COUNT, &counts);
		if (stats == NULL || jobs_counts_clear(r->db, f->job->run_id) < 0)
			goto out;
	}
	if (f->delete_job) {
		const char *final = run_final_status(counts.failed);
		if (done && (n = run_complete(r->db, f->job->run_id, final, stats)) < 0)
			goto out;
		if (n > 0) {
			int ok;
			json_object *ctx = jx_parse(stats, strlen(stats), &ok);
			if (ctx != NULL)
				json_object_object_del(ctx, "discovered");
			runner_log(r, f->job->run_id, counts.failed > 0 ? "warning" : "info", ctx, "Run %s.",
			    counts.failed > 0 ? "completed with errors; retry-failed imports the failed "
			                        "resources again" :
			                        "completed");
			json_object_put(ctx);
			f->completed = true;
			if (f->run->import_paused && log_left_paused(r, f->job->run_id) != 0)
				goto out;
		}
		if (queue_done(r->db, f->job) < 0)
			goto out;
	}
	if (n == 0) {
		/* still importing: what it does, how fast, how long still */
		char *with = stats_activity(stats, old, "importing", NULL, counts.finished, false,
		    counts.total, (int64_t)time(NULL));
		int64_t set = run_stats_set(r->db, f->job->run_id, with);
		free(with);
		if (set < 0)
			goto out;
	}
	t = TX_COMMIT;
out:
	free(stats);
	free(old);
	return t;
}

/* Position of an import job: a rank in the import order and the last id
 * done. A job with a bound (chunk) imports the ids (after, last] of its type
 * only; one without walks every type from its rank on. */
struct chain_pos {
	int type;
	uint64_t after;
	uint64_t last; /* 0: no bound */
};

static void
pos_parse(const char *payload, struct chain_pos *p)
{
	json_object *o, *v;
	int ok;

	p->type = 0;
	p->after = 0;
	p->last = 0;
	if (payload == NULL || (o = jx_parse(payload, strlen(payload), &ok)) == NULL)
		return;
	if (json_object_object_get_ex(o, "type", &v) && importer_rank(json_object_get_string(v)) >= 0)
		p->type = importer_rank(json_object_get_string(v));
	if (json_object_object_get_ex(o, "after", &v))
		p->after = (uint64_t)json_object_get_int64(v);
	if (json_object_object_get_ex(o, "last", &v))
		p->last = (uint64_t)json_object_get_int64(v);
	json_object_put(o);
}

static char *
pos_text(const struct chain_pos *p)
{
	const char *type = importer_type_at((size_t)p->type) ? importer_type_at((size_t)p->type) : "";

	if (p->last == 0)
		return xasprintf("{\"type\":\"%s\",\"after\":%llu}", type, (unsigned long long)p->after);
	return xasprintf("{\"type\":\"%s\",\"after\":%llu,\"last\":%llu}", type, (unsigned long long)p->after,
	    (unsigned long long)p->last);
}

/* 1 when a type before rank in the import order still has pending resources
 * in the run (a chunk of a later type waits for them), 0 when none, -1. */
static int
earlier_pending(struct runner *r, const char *run_id, int rank)
{
	for (int i = 0; i < rank; i++) {
		int rc = pending_any(r->db, run_id, importer_type_at((size_t)i));
		if (rc != 0)
			return rc;
	}
	return 0;
}

static void
finish(struct runner *r, struct job *j, const struct run_info *run, bool delete_job)
{
	struct finish f = { .job = j, .run = run, .delete_job = delete_job };

	if (runner_tx(r, finish_body, &f) != TX_COMMIT && f.moved_on)
		runner_drop(r, j, "run no longer executing");
}

/* Kinds import in order: a chunk of a later kind waits (its job released
 * for RUNNER_GATE_MS) while an earlier kind still has pending resources.
 * True when the chunk waits. */
static bool
gate_closed(struct runner *r, struct job *j, const struct chain_pos *p)
{
	int gate;
	char *payload;

	if (p->last == 0 || (gate = earlier_pending(r, j->run_id, p->type)) == 0)
		return false;
	payload = pos_text(p);
	queue_release(r->db, j, gate > 0 ? RUNNER_GATE_MS : queue_backoff_ms(1, 0, runner_random()),
	    j->attempts, payload);
	free(payload);
	return true;
}

static void
chain_step(struct runner *r, struct job *j, const struct run_info *run)
{
	struct chain_pos p;
	int64_t step_end = runner_step_end(r), delay = 0, next_stats = mono_ms() + RUNNER_STATS_MS;
	int attempts = j->attempts;
	char *payload;

	pos_parse(j->payload, &p);
	if (gate_closed(r, j, &p))
		return;
	while (importer_type_at((size_t)p.type) != NULL) {
		struct batch b = { .job = j,
			.run = run,
			.type = importer_type_at((size_t)p.type),
			.after = p.after,
			.last = p.last ? p.last : UINT64_MAX,
			.max = RUNNER_IMPORT_TX };
		int done;
		enum outcome out;

		if (r->step_resources > 0 && r->step_resources - r->step_done < RUNNER_IMPORT_TX)
			b.max =
			    r->step_done < r->step_resources ? (int)(r->step_resources - r->step_done) : 1;
		out = import_batch(r, &b, &done, &attempts, &delay);

		if (done > 0)
			p.after = b.ids[done - 1];
		r->step_done += done;
		switch (out) {
		case ONE_DONE:
			break;
		case ONE_DEFER:
		case ONE_TRANSIENT:
			goto release; /* this resource again, later */
		case ONE_LOST:
			return;
		case ONE_MOVED:
			runner_drop(r, j, "run no longer executing");
			return;
		}
		if (done == 0) {
			if (p.last != 0)
				break; /* the chunk is done */
			p.type++;
			p.after = 0;
			continue;
		}
		if (runner_out_of_time(r, step_end)) {
			delay = 0;
			goto release;
		}
		if (mono_ms() >= next_stats) {
			finish(r, j, run, false); /* progress shows while the import goes on */
			next_stats = mono_ms() + RUNNER_STATS_MS;
		}
	}
	finish(r, j, run, true); /* every type walked, or the chunk done */
	return;
release:
	finish(r, j, run, false); /* progress */
	payload = pos_text(&p);
	queue_release(r->db, j, delay, attempts, payload);
	free(payload);
}

int
resources_queue(struct runner *r, const char *run_id, struct err *e)
{
	int rc;

	if ((rc = run_pending_beyond(r->db, run_id, RUNNER_IMPORT_CHUNK)) < 0)
		return db_fail(r->db, e);
	if (rc == 0)
		return queue_push(r->db, QUEUE_RESOURCES, run_id, 0, NULL, e); /* one job walks it all */
	for (int t = 0; importer_type_at((size_t)t) != NULL; t++) {
		struct chain_pos p = { .type = t };
		for (;;) {
			uint64_t end;
			char *payload;
			/* the id RUNNER_IMPORT_CHUNK pending resources on, else the type's last */
			if ((rc = pending_nth_after(r->db, run_id, importer_type_at((size_t)t), p.after,
			         (int64_t)RUNNER_IMPORT_CHUNK - 1, &end)) == 0)
				rc = pending_last_after(r->db, run_id, importer_type_at((size_t)t), p.after,
				    &end);
			if (rc < 0)
				return db_fail(r->db, e);
			if (rc == 0 || end == 0)
				break;
			p.last = end;
			payload = pos_text(&p);
			rc = queue_push(r->db, QUEUE_RESOURCES, run_id, 0, payload, e);
			free(payload);
			if (rc != 0)
				return -1;
			p.after = p.last;
		}
	}
	return 0;
}

/* ---- retry-failed (api: h_retry) ----
 * The request counted the failed resources, moved the run to executing and
 * queued this job with the last failed id. The job sets them pending again
 * in id order, RETRY_BATCH a transaction (db/bounds.h), its position saved
 * with each batch; the last batch queues the import of what is pending and
 * ends the job, in one transaction. A crash repeats at most the batch that
 * was not committed, which sets the same failed rows pending: idempotent,
 * and each failed resource is retried once (the position never goes back).
 * While this job exists the run is not completed (ST_RN_COMPLETE): an import
 * chain that ends meanwhile cannot finish it with the failed ones left. */
struct retry {
	struct job *job;
	uint64_t after, last;
	int64_t done;
	/* set by the body, taken when it commits */
	uint64_t next;
	int64_t set;
	bool finished, moved_on;
};

static void
retry_parse(const char *payload, struct retry *t)
{
	json_object *o = payload ? jx_parse(payload, strlen(payload), &(int){ 0 }) : NULL, *p, *v;

	if (o != NULL && json_object_object_get_ex(o, "retry", &p)) {
		if (json_object_object_get_ex(p, "after", &v))
			t->after = (uint64_t)json_object_get_int64(v);
		if (json_object_object_get_ex(p, "last", &v))
			t->last = (uint64_t)json_object_get_int64(v);
		if (json_object_object_get_ex(p, "done", &v))
			t->done = json_object_get_int64(v);
	}
	json_object_put(o);
}

static void
retry_text(char *out, size_t n, uint64_t after, uint64_t last, int64_t done)
{
	snprintf(out, n, QUEUE_RETRY_PAYLOAD "{\"after\":%llu,\"last\":%llu,\"done\":%lld}}",
	    (unsigned long long)after, (unsigned long long)last, (long long)done);
}

static enum tx_result
retry_batch(struct runner *r, void *arg)
{
	struct retry *t = arg;
	char status[32], payload[128];
	enum tx_result res;
	struct err e;
	json_object *ctx;
	bool executing;
	char *old = NULL, *stats;
	int64_t set;
	int rc;

	t->finished = false;
	/* exclusive: the import's progress reports add to the stats this batch takes counts from */
	if ((res = runner_lock(r, t->job, true, status, NULL, &old)) != TX_COMMIT)
		return res;
	if (retry_verdict(status) != JOB_ACT) {
		t->moved_on = true;
		free(old);
		return TX_ABORT;
	}
	executing = strcmp(status, "executing") == 0;
	if ((t->set = resources_retry_batch(r->db, t->job->run_id, t->after, t->last, RETRY_BATCH,
	         &t->next)) < 0) {
		free(old);
		return TX_ERROR;
	}
	/* failed resources pending again while importing: the next progress report counts afresh */
	stats = executing && t->set > 0 ? stats_uncounted(old) : NULL;
	set = stats != NULL ? run_stats_set(r->db, t->job->run_id, stats) : 0;
	free(stats);
	free(old);
	if (set < 0)
		return TX_ERROR;
	if (t->set >= RETRY_BATCH && t->next < t->last) {
		/* a whole batch: more may follow, and the position goes with it */
		retry_text(payload, sizeof payload, t->next, t->last, t->done + t->set);
		return job_payload_set(r->db, t->job->id, t->job->worker, payload) < 0 ? TX_ERROR : TX_COMMIT;
	}
	/* Every failed resource up to the last is pending again: import them, or,
	 * before execute, leave them to it (the run's kept totals counted again). */
	err_clear(&e);
	if (executing)
		rc = resources_queue(r, t->job->run_id, &e);
	else
		rc = run_recount(r->db, t->job->run_id) < 0 ? -1 : 0;
	if (rc != 0 || queue_done(r->db, t->job) < 0)
		return TX_ERROR;
	ctx = json_object_new_object();
	jx_add_int(ctx, "pending_again", t->done + t->set);
	runner_log(r, t->job->run_id, "info", ctx, "%lld failed resource%s pending again; %s.",
	    (long long)(t->done + t->set), t->done + t->set == 1 ? " is" : "s are",
	    executing ? "importing" : "the run's execute imports them");
	json_object_put(ctx);
	t->finished = true;
	return TX_COMMIT;
}

static void
retry_step(struct runner *r, struct job *j)
{
	struct retry t = { .job = j };
	int64_t step_end = runner_step_end(r);
	char payload[128];

	retry_parse(j->payload, &t);
	for (;;) {
		enum tx_result res = runner_tx(r, retry_batch, &t);

		if (res == TX_ABORT && t.moved_on) {
			runner_drop(r, j, "run no longer executing");
			return;
		}
		if (res == TX_ABORT)
			return; /* the lease was lost */
		if (res == TX_ERROR) {
			retry_text(payload, sizeof payload, t.after, t.last, t.done);
			queue_release(r->db, j, queue_backoff_ms(j->attempts + 1, 0, runner_random()),
			    j->attempts + 1, payload);
			return;
		}
		if (t.finished)
			return;
		t.after = t.next;
		t.done += t.set;
		if (runner_out_of_time(r, step_end)) {
			retry_text(payload, sizeof payload, t.after, t.last, t.done);
			queue_release(r->db, j, 0, 0, payload); /* the continuation */
			return;
		}
	}
}

/* ---- bulk changes too large for their request (api: h_resolve, h_exclude,
 * h_include) ----
 * Every conflict resolved, or every resource a filter matches excluded or
 * included, BULK_BATCH a transaction (db/bounds.h) by the API's own batch
 * statement, which changes only rows still to change: no position is needed,
 * a crash repeats nothing, and the job ends when a statement changes fewer.
 * It acts while the run stays where the request found it (paused_conflicts,
 * awaiting_review; execute waits for it: ST_RUN_EXECUTE); its last batch
 * says what was done in the run log, as the request would have, and resumes
 * the review of a run without conflicts left. */
struct bulk {
	struct job *job;
	json_object *root, *spec; /* the payload, and its "bulk" object */
	bool resolve, exclude;
	int64_t done;
	/* set by the body, taken when it commits */
	int64_t set;
	bool finished, moved_on;
};

static const char *
spec_str(json_object *spec, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(spec, key, &v) && json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) :
	    NULL;
}

static int
bulk_finish(struct runner *r, struct bulk *b, int64_t total)
{
	const char *strategy = spec_str(b->spec, "resolution");
	json_object *ctx = json_object_new_object();
	struct err e;
	int rc = 0;

	err_clear(&e);
	if (b->resolve) {
		jx_add_str(ctx, "strategy", strategy);
		jx_add_int(ctx, "resolved", total);
		if (run_resume_review(r->db, b->job->run_id) < 0)
			rc = -1;
		else
			runner_log(r, b->job->run_id, "info", ctx,
			    "Resolved %lld conflict%s with strategy %s.", (long long)total,
			    total == 1 ? "" : "s", strategy ? strategy : "?");
	} else {
		jx_add_int(ctx, b->exclude ? "excluded" : "included", total);
		runner_log(r, b->job->run_id, "info", ctx, "%s %lld resource%s.",
		    b->exclude ? "Excluded" : "Included", (long long)total, total == 1 ? "" : "s");
		if (b->exclude && total > 0 && runlog_lost_links(r->db, b->job->run_id, &e) != 0)
			rc = -1;
	}
	json_object_put(ctx);
	return rc;
}

static enum tx_result
bulk_batch(struct runner *r, void *arg)
{
	struct bulk *b = arg;
	char status[32], *payload;
	enum tx_result res;
	struct resource_filter f = { spec_str(b->spec, "status"), spec_str(b->spec, "type"),
		spec_str(b->spec, "action"), spec_str(b->spec, "like") };

	b->finished = false;
	if ((res = runner_lock(r, b->job, false, status, NULL, NULL)) != TX_COMMIT)
		return res;
	if (strcmp(status, b->resolve ? "paused_conflicts" : "awaiting_review") != 0) {
		b->moved_on = true;
		return TX_ABORT;
	}
	b->set = b->resolve ?
	    conflicts_resolve_batch(r->db, b->job->run_id, spec_str(b->spec, "resolution"),
	        spec_str(b->spec, "action"), spec_str(b->spec, "set_status"), spec_str(b->spec, "reason")) :
	    resources_select_batch(r->db, b->job->run_id, &f, b->exclude);
	if (b->set < 0)
		return TX_ERROR;
	if (b->set >= BULK_BATCH) {
		/* more may follow: the count so far goes with the batch */
		jx_add_int(b->spec, "done", b->done + b->set);
		payload = xasprintf(QUEUE_BULK_PAYLOAD "%s}", jx_text(b->spec));
		res = job_payload_set(r->db, b->job->id, b->job->worker, payload) < 0 ? TX_ERROR : TX_COMMIT;
		free(payload);
		return res;
	}
	if (bulk_finish(r, b, b->done + b->set) != 0 || queue_done(r->db, b->job) < 0)
		return TX_ERROR;
	b->finished = true;
	return TX_COMMIT;
}

static void
bulk_step(struct runner *r, struct job *j)
{
	struct bulk b = { .job = j };
	int64_t step_end = runner_step_end(r);
	const char *op;
	char *payload;
	json_object *v;

	if ((b.root = jx_parse(j->payload, strlen(j->payload), &(int){ 0 })) == NULL ||
	    !json_object_object_get_ex(b.root, "bulk", &b.spec) || (op = spec_str(b.spec, "op")) == NULL) {
		json_object_put(b.root);
		runner_drop(r, j, "unreadable bulk job");
		return;
	}
	b.resolve = strcmp(op, "resolve") == 0;
	b.exclude = strcmp(op, "exclude") == 0;
	if (json_object_object_get_ex(b.spec, "done", &v))
		b.done = json_object_get_int64(v);
	for (;;) {
		enum tx_result res = runner_tx(r, bulk_batch, &b);

		if (res == TX_ABORT && b.moved_on)
			runner_drop(r, j, "the run moved on");
		else if (res == TX_ERROR) {
			jx_add_int(b.spec, "done", b.done);
			payload = xasprintf(QUEUE_BULK_PAYLOAD "%s}", jx_text(b.spec));
			queue_release(r->db, j, queue_backoff_ms(j->attempts + 1, 0, runner_random()),
			    j->attempts + 1, payload);
			free(payload);
		}
		if (res != TX_COMMIT || b.finished)
			break;
		b.done += b.set;
		if (runner_out_of_time(r, step_end)) {
			jx_add_int(b.spec, "done", b.done);
			payload = xasprintf(QUEUE_BULK_PAYLOAD "%s}", jx_text(b.spec));
			queue_release(r->db, j, 0, 0, payload); /* the continuation */
			free(payload);
			break;
		}
	}
	json_object_put(b.root);
}

void
resources_step(struct runner *r, struct job *j)
{
	struct run_info run = { 0 };
	struct run_row row;
	char status[32] = "";
	int rc;

	if ((rc = run_get(r->db, j->run_id, &row)) < 0)
		log_error("run %s: %s", j->run_id, db_error(r->db));
	if (rc == 1) {
		run.user_id = row.user_id;
		snprintf(run.provider, sizeof run.provider, "%s", row.provider);
		snprintf(status, sizeof status, "%s", row.status);
		run.import_paused = run_import_paused(row.options);
	}
	run_row_clear(&row);
	if (rc <= 0)
		return; /* deleted with its jobs (or a DB error: claimed again later) */
	if (j->resource_id == 0 && j->payload != NULL &&
	    strncmp(j->payload, QUEUE_BULK_PAYLOAD, strlen(QUEUE_BULK_PAYLOAD)) == 0) {
		bulk_step(r, j); /* its own verdict, in each batch */
		return;
	}
	if (j->resource_id == 0 && j->payload != NULL &&
	    strncmp(j->payload, QUEUE_RETRY_PAYLOAD, strlen(QUEUE_RETRY_PAYLOAD)) == 0) {
		if (retry_verdict(status) != JOB_ACT)
			runner_drop(r, j, status);
		else
			retry_step(r, j);
		return;
	}
	if (job_verdict(QUEUE_RESOURCES, status) != JOB_ACT) {
		runner_drop(r, j, status);
		return;
	}
	if (j->resource_id == 0) {
		chain_step(r, j, &run);
		return;
	}
	{
		int attempts = j->attempts;
		int64_t delay = 0;
		enum outcome out = import_one(r, j, &run, j->resource_id, &attempts, &delay);

		switch (out) {
		case ONE_DONE:
			finish(r, j, &run, true);
			break;
		case ONE_DEFER:
		case ONE_TRANSIENT:
			queue_release(r->db, j, delay, attempts, j->payload);
			break;
		case ONE_LOST:
			break;
		case ONE_MOVED:
			runner_drop(r, j, "run no longer executing");
			break;
		}
	}
}
