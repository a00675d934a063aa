/* The runner loop and what the job kinds share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <sodium.h>

#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "db/queue_rows.h"
#include "db/runlog.h"
#include "db/runner_rows.h"
#include "db/runs.h"
#include "runner/rules.h"
#include "runner/runner.h"

uint32_t
runner_random(void)
{
	return randombytes_random();
}

void
runner_pause_point(const char *point)
{
	const char *env = getenv("MIGRATOR_PAUSE_AT"), *dir;
	char go[PATH_MAX], here[PATH_MAX];
	size_t n = strlen(point);
	int fd;

	if (env == NULL || strncmp(env, point, n) != 0 || env[n] != ':')
		return;
	dir = env + n + 1;
	snprintf(go, sizeof go, "%s/%s.go", dir, point);
	if (access(go, F_OK) == 0)
		return;
	snprintf(here, sizeof here, "%s/%s.%ld", dir, point, (long)getpid());
	if ((fd = open(here, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) >= 0)
		close(fd);
	for (int i = 0; i < 1200 && access(go, F_OK) != 0; i++)
		sleep_ms(100);
}

int64_t
runner_step_end(const struct runner *r)
{
	int64_t end = mono_ms() + RUNNER_STEP_MS;

	return end < r->deadline ? end : r->deadline;
}

bool
runner_out_of_time(struct runner *r, int64_t step_end)
{
	int64_t now = mono_ms();

	if ((r->stop != NULL && *r->stop) || now >= step_end ||
	    (r->step_resources > 0 && r->step_done >= r->step_resources) || r->yielding)
		return true;
	if (r->job == NULL || now < r->next_yield_check)
		return false;
	r->next_yield_check = now + RUNNER_YIELD_MS;
	if (job_waiting(r->db, r->job->run_id, r->job->user_id, now - r->step_start) != 1)
		return false;
	log_debug("run %s: the step ends early: other work waits", r->job->run_id);
	r->yielding = true;
	return true;
}

enum tx_result
runner_tx(struct runner *r, enum tx_result (*body)(struct runner *, void *), void *arg)
{
	enum tx_result res = TX_ERROR;
	bool moved = false;

	for (int attempt = 0; attempt < DB_ATTEMPTS; attempt++) {
		enum db_class cls;

		if (db_begin(r->db) != 0) {
			log_error("run %s: begin: %s", r->job ? r->job->run_id : "-", db_error(r->db));
			return TX_ERROR;
		}
		res = body(r, arg);
		if (res == TX_COMMIT) {
			if (db_commit(r->db) == 0)
				return TX_COMMIT;
			res = TX_ERROR;
		} else
			db_rollback(r->db);
		if (res == TX_ABORT)
			return TX_ABORT;
		/* Lost to another writer: again, after a pause. A server that cannot serve: once
		 * more, on the next server (db_begin connects there). */
		cls = db_error_class(r->db);
		if (cls != DB_RETRY && !(cls == DB_LOST && !moved))
			break;
		moved = moved || cls == DB_LOST;
		log_warn("run %s: transaction retried (%s)", r->job ? r->job->run_id : "-", db_error(r->db));
		db_rollback(r->db);
		if (cls == DB_RETRY)
			db_retry_pause(attempt);
	}
	log_error("run %s: transaction failed: %s", r->job ? r->job->run_id : "-", db_error(r->db));
	return TX_ERROR;
}

enum tx_result
runner_lock(struct runner *r, const struct job *j, bool exclusive, char status[32], char **checkpoint,
    char **stats)
{
	struct run_row run;
	int rc, held;

	if (checkpoint != NULL)
		*checkpoint = NULL;
	if (stats != NULL)
		*stats = NULL;

	/* The run first, then the job: the order the API's cancel and delete use. */
	if ((rc = run_lock(r->db, j->run_id, exclusive, &run)) == 1) {
		snprintf(status, 32, "%s", run.status);
		if (checkpoint != NULL) {
			*checkpoint = run.checkpoint;
			run.checkpoint = NULL;
		}
		if (stats != NULL) {
			*stats = run.stats;
			run.stats = NULL;
		}
	}
	run_row_clear(&run);
	if (rc < 0)
		return TX_ERROR;
	if (rc == 0)
		return TX_ABORT; /* deleted: its jobs went with it */
	if ((held = queue_hold(r->db, j)) < 0)
		return TX_ERROR;
	return held ? TX_COMMIT : TX_ABORT;
}

void
runner_log(struct runner *r, const char *run_id, const char *level, json_object *context, const char *fmt,
    ...)
{
	char *msg;
	struct err e;
	va_list ap;

	/* whole, so that runlog_add cuts it on a character boundary */
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (msg == NULL)
		return;
	err_clear(&e);
	if (runlog_add(r->db, run_id, level, msg, context, &e) != 0)
		log_warn("run %s: log entry not written: %s", run_id, e.detail);
	free(msg);
}

struct drop_arg {
	struct job *job;
};

static enum tx_result
drop_body(struct runner *r, void *arg)
{
	struct drop_arg *a = arg;

	return queue_done(r->db, a->job) < 0 ? TX_ERROR : TX_COMMIT;
}

void
runner_drop(struct runner *r, struct job *j, const char *why)
{
	struct drop_arg a = { j };

	log_info("job %llu (%s, run %s) dropped: %s", (unsigned long long)j->id, j->queue, j->run_id, why);
	runner_tx(r, drop_body, &a);
}

static void
add_count(const char *name, int64_t n, void *o)
{
	jx_add_int(o, name, n);
}

/* The run's resources counted in groups by count (name -> count), as a JSON object. NULL on error. */
static json_object *
count_object(struct db *db, int (*count)(struct db *, const char *, count_fn *, void *), const char *run_id)
{
	json_object *o = json_object_new_object();

	if (count(db, run_id, add_count, o) != 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int64_t
member_int(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

char *
runner_stats(struct runner *r, const char *run_id, const char *old, bool discovered,
    const char *const *seed_types, bool planned, enum progress_mode mode, struct work_counts *counts)
{
	json_object *disc = NULL, *plan = NULL, *st, *stats;
	int64_t imported, skipped, failed, total = 0;
	char *text;

	if (discovered && (disc = count_object(r->db, run_count_by_type, run_id)) == NULL)
		return NULL;
	for (size_t i = 0; disc != NULL && seed_types != NULL && seed_types[i] != NULL; i++)
		if (!json_object_object_get_ex(disc, seed_types[i], NULL))
			jx_add_int(disc, seed_types[i], 0);
	if (planned && (plan = count_object(r->db, planned_counts, run_id)) == NULL) {
		json_object_put(disc);
		return NULL;
	}
	if ((st = count_object(r->db, resource_counts, run_id)) == NULL) {
		json_object_put(disc);
		json_object_put(plan);
		return NULL;
	}
	json_object_object_foreach (st, k, v) {
		(void)k;
		total += json_object_get_int64(v);
	}
	imported = member_int(st, "imported");
	skipped = member_int(st, "skipped");
	failed = member_int(st, "failed");
	total -= member_int(st, "excluded"); /* left out by the user: not part of the work */
	json_object_put(st);
	if (counts != NULL)
		*counts = (struct work_counts){ failed, imported + skipped + failed, total };
	stats = stats_compose(old, disc, plan, imported, skipped, failed,
	    mode == PROGRESS_DONE     ? 1.0 :
	        mode == PROGRESS_ZERO ? 0.0 :
	                                run_progress(imported, skipped, failed, total));
	text = xstrdup(jx_text(stats));
	json_object_put(stats);
	return text;
}

int
runner_housekeeping(struct runner *r)
{
	char ids[100][37];
	int n;

	r->last_housekeeping = mono_ms();
	if ((n = runs_credentials_due(r->db, ids, 100)) < 0) {
		log_error("credentials purge: %s", db_error(r->db));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		int64_t k = run_credentials_wipe(r->db, ids[i]);
		if (k < 0) {
			log_error("credentials purge: %s", db_error(r->db));
			return -1;
		}
		if (k > 0)
			runner_log(r, ids[i], "info", NULL,
			    "Stored provider credentials wiped (retention period ended).");
	}
	if (rate_limits_purge(r->db) < 0) {
		log_error("rate limit purge: %s", db_error(r->db));
		return -1;
	}
	if (runner_time_purge(r->db) < 0) {
		log_error("runner time purge: %s", db_error(r->db));
		return -1;
	}
	return 0;
}

/* Run one step of a claimed job. The job is deleted, released (continuation
 * or backoff) or, when the lease was lost, left alone. */
static void
runner_step(struct runner *r, struct job *j)
{
	r->job = j;
	r->step_done = 0;
	r->step_start = mono_ms();
	r->next_yield_check = r->step_start + RUNNER_YIELD_MS;
	r->yielding = false;
	if (strcmp(j->queue, QUEUE_DISCOVERY) == 0)
		discovery_step(r, j);
	else if (strcmp(j->queue, QUEUE_PLANNING) == 0)
		planning_step(r, j);
	else if (strcmp(j->queue, QUEUE_CLEANUP) == 0)
		cleanup_step(r, j);
	else if (strcmp(j->queue, QUEUE_REVERT) == 0)
		revert_step(r, j);
	else
		resources_step(r, j);
	r->job = NULL;
	/* fair share: the run's (and so its user's) runner time, that claims order by */
	if (runner_time_add(r->db, j->run_id, j->user_id, mono_ms() - r->step_start) < 0)
		log_warn("run %s: runner time not counted: %s", j->run_id, db_error(r->db));
}

long
runner_run(struct runner *r, const struct runner_opts *o)
{
	long steps = 0;
	bool db_down = false;

	r->deadline = mono_ms() + (int64_t)o->max_seconds * 1000;
	r->step_resources = o->step_resources;
	/* A server that cannot serve yet (a Galera node still joining) is tried again below, as a
	 * claim that fails is. */
	db_down = runner_housekeeping(r) != 0 && db_error_class(r->db) == DB_LOST;
	while (!(r->stop != NULL && *r->stop) && mono_ms() < r->deadline &&
	    (o->max_jobs <= 0 || steps < o->max_jobs)) {
		struct job j;
		int got;

		if (mono_ms() - r->last_housekeeping >= RUNNER_HOUSEKEEPING_MS)
			runner_housekeeping(r);
		if ((got = queue_claim(r->db, r->worker, r->lease_s, &j)) < 0) {
			log_error("claim: %s", db_error(r->db));
			/* The database is unusable (restarting?): try again each second until the
			 * budget is spent; the lease of a job we held lets another runner take it. */
			db_down = true;
			sleep_ms(1000);
			continue;
		}
		db_down = false;
		if (got == 0) {
			if (o->once)
				break;
			sleep_ms(RUNNER_IDLE_POLL_MS);
			continue;
		}
		log_debug("job %llu (%s, run %s) claimed", (unsigned long long)j.id, j.queue, j.run_id);
		runner_step(r, &j);
		job_clear(&j);
		steps++;
	}
	/* Tell cron that something is wrong when the database never answered. */
	return db_down && steps == 0 ? -1 : steps;
}
