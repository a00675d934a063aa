/* The statements of runs.h: the only place that knows the column order of
 * RUN_COLS, RES_COLS, the log and token statements, and the values each of
 * the API's writes binds. */
#include <string.h>

#include "core/jsonx.h"
#include "core/util.h"
#include "db/bounds.h"
#include "db/runs.h"

static struct db_text
text(struct db_res *r, int col)
{
	struct db_text t;

	t.s = db_strn(r, col, &t.len);
	return t;
}

/* A caller's callback, of the kind the statement's rows decode to. */
struct sink {
	union {
		run_view_fn *run;
		resource_item_fn *resource;
		void (*count)(const char *status, int64_t n, void *arg);
		void (*log)(const struct log_row *, void *arg);
	} fn;
	void *arg;
	int64_t *total; /* ST_RUN_LIST, ST_RES_PAGE: the count on every row */
	struct db *db;  /* RUN_COLS: for the totals of a run that keeps none */
	bool failed;    /* a statement a row needed failed */
};

/* Every row of r to each(r, to), then r freed: 0, or -1 on a database error. */
static int
each_row(struct db_res *r, void (*each)(struct db_res *, struct sink *), struct sink *to)
{
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1 && !to->failed)
		each(r, to);
	db_free(r);
	return rc < 0 || to->failed ? -1 : 0;
}

/* A row of RUN_COLS (db/sql_core.def). A run that keeps no totals (NULL: they
 * are still changing) has them counted by a statement of their own, which
 * only such rows pay for. */
static void
run_row(struct db_res *r, struct sink *to)
{
	struct run_view row = {
		.id = db_str(r, 0),
		.provider = db_str(r, 1),
		.status = db_str(r, 2),
		.stats = db_str(r, 3),
		.error_message = db_str(r, 4),
		.started_at = db_str(r, 5),
		.finished_at = db_str(r, 6),
		.created_at = db_str(r, 7),
		.updated_at = db_str(r, 8),
		.total_resources = db_i64(r, 9),
		.failed_resources = db_i64(r, 10),
		.options = db_str(r, 11),
	};

	if (db_str(r, 9) == NULL) { /* still changing: counted now */
		struct db_res *live = db_query(to->db, ST_RUN_LIVE_TOTALS, "ss", row.id, row.id);

		if (live == NULL || db_next(live) != 1) {
			db_free(live);
			to->failed = true;
			return;
		}
		row.total_resources = db_i64(live, 0);
		row.failed_resources = db_i64(live, 1);
		db_free(live);
	}
	to->fn.run(&row, to->arg);
}

/* A row of ST_RUN_LIST: RUN_COLS and the count of all the user's runs that match. */
static void
run_list_row(struct db_res *r, struct sink *to)
{
	*to->total = db_i64(r, 12);
	run_row(r, to);
}

int
runs_page(struct db *db, uint64_t user, const char *status, const char *provider, int64_t limit,
    int64_t offset, int64_t *total, run_view_fn *fn, void *arg)
{
	*total = -1;
	return each_row(db_query(db, ST_RUN_LIST, "ussssussssii", user, status, status, provider, provider,
	                    user, status, status, provider, provider, limit, offset),
	    run_list_row, &(struct sink){ .fn.run = fn, .arg = arg, .total = total, .db = db });
}

int
runs_count(struct db *db, uint64_t user, const char *status, const char *provider, int64_t *n)
{
	*n = 0;
	return db_scalar(db, n, ST_RUN_COUNT, "ussss", user, status, status, provider, provider) < 0 ? -1 : 0;
}

/* Sets *found for each row, then passes it on. */
struct found {
	run_view_fn *fn;
	void *arg;
	int found;
};

static void
run_found(const struct run_view *row, void *arg)
{
	struct found *f = arg;

	f->found = 1;
	f->fn(row, f->arg);
}

int
run_of_user(struct db *db, const char *id, uint64_t user, bool counted, run_view_fn *fn, void *arg)
{
	struct found f = { fn, arg, 0 };

	if (each_row(db_query(db, counted ? ST_RUN_GET : ST_RUN_GET_UNCOUNTED, "su", id, user), run_row,
	        &(struct sink){ .fn.run = run_found, .arg = &f, .db = db }) != 0)
		return -1;
	return f.found;
}

const char *
run_options_text(bool import_paused)
{
	return import_paused ? "{\"import_paused\":true}" : "{\"import_paused\":false}";
}

bool
run_import_paused(const char *options)
{
	json_object *o, *v;
	bool on;
	int ok;

	if (options == NULL)
		return false;
	if (strcmp(options, run_options_text(true)) == 0)
		return true;
	if (strcmp(options, run_options_text(false)) == 0)
		return false;
	if ((o = jx_parse(options, strlen(options), &ok)) == NULL)
		return false;
	on = json_object_object_get_ex(o, "import_paused", &v) && json_object_get_boolean(v);
	json_object_put(o);
	return on;
}

int
run_status(struct db *db, const char *id, uint64_t user, bool lock, char st[32])
{
	struct db_res *r = db_query(db, lock ? ST_RUN_LOCK : ST_RUN_STATUS, "su", id, user);
	int rc;

	if (r == NULL)
		return -1;
	st[0] = '\0';
	if ((rc = db_next(r)) == 1 && db_str(r, 0) != NULL) {
		size_t n = db_len(r, 0) < 31 ? db_len(r, 0) : 31;
		memcpy(st, db_str(r, 0), n);
		st[n] = '\0';
	}
	db_free(r);
	return rc;
}

/* A row of RES_COLS (db/sql_core.def). */
static void
resource_row(struct db_res *r, struct sink *to)
{
	struct resource_item row = {
		.id = db_i64(r, 0),
		.type = text(r, 1),
		.external_id = text(r, 2),
		.name = text(r, 3),
		.action = text(r, 4),
		.status = text(r, 5),
		.reason = text(r, 6),
		.attempts = db_i64(r, 7),
		.error_message = text(r, 8),
		.norm = text(r, 9),
		.alerts = text(r, 10),
		.dropped = text(r, 11),
	};

	to->fn.resource(&row, to->arg);
}

int
run_resources(struct db *db, const char *run, int64_t limit, resource_item_fn *fn, void *arg)
{
	return each_row(db_query(db, ST_RUN_RESOURCES, "si", run, limit), resource_row,
	    &(struct sink){ .fn.resource = fn, .arg = arg });
}

/* A row of ST_RES_PAGE(_ALL): RES_COLS (resource_row reads its 12 columns) and the count of all the
 * run's resources that match. */
static void
resource_page_row(struct db_res *r, struct sink *to)
{
	*to->total = db_i64(r, 12);
	resource_row(r, to);
}

int
resources_page(struct db *db, const char *run, uint64_t user, const struct resource_filter *f, int64_t limit,
    int64_t offset, int64_t *total, resource_item_fn *fn, void *arg)
{
	bool all = f->status == NULL && f->type == NULL && f->action == NULL && f->like == NULL;
	struct sink to = { .fn.resource = fn, .arg = arg, .total = total };
	struct db_res *r = all ?
	    db_query(db, ST_RES_PAGE_ALL, "suii", run, user, limit, offset) :
	    db_query(db, ST_RES_PAGE, "sssssssssssssssssssuii", run, f->status, f->status, f->type, f->type,
	        f->action, f->action, f->like, f->like, run, f->status, f->status, f->type, f->type,
	        f->action, f->action, f->like, f->like, run, user, limit, offset);

	*total = -1;
	if (each_row(r, resource_page_row, &to) != 0)
		return -1;
	if (*total >= 0)
		return 1;
	/* An empty page: whether the run is the caller's, and how many match, from the count alone. */
	*total = 0;
	return db_scalar(db, total, ST_RES_COUNT, "sssssssssu", f->status, f->status, f->type, f->type,
	    f->action, f->action, f->like, f->like, run, user);
}

static void
count_row(struct db_res *r, struct sink *to)
{
	to->fn.count(db_str(r, 0), db_i64(r, 1), to->arg);
}

int
run_paused_option(struct db *db, const char *run, uint64_t user, bool *paused)
{
	struct db_res *r = db_query(db, ST_RUN_OPTIONS, "su", run, user);
	int rc;

	*paused = false;
	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1)
		*paused = run_import_paused(db_str(r, 0));
	db_free(r);
	return rc < 0 ? -1 : 0;
}

int
resource_counts(struct db *db, const char *run, void (*fn)(const char *status, int64_t n, void *arg),
    void *arg)
{
	return each_row(db_query(db, ST_RUN_RESOURCE_COUNTS, "s", run), count_row,
	    &(struct sink){ .fn.count = fn, .arg = arg });
}

int
dropped_summary(struct db *db, const char *run,
    void (*fn)(const char *type, const char *field, const char *reason, int64_t n, void *arg), void *arg)
{
	struct db_res *r = db_query(db, ST_RUN_DROPPED_SUMMARY, "s", run);
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1)
		fn(db_str(r, 0), db_str(r, 1), db_str(r, 2), db_i64(r, 3), arg);
	db_free(r);
	return rc < 0 ? -1 : 0;
}

int
report_rows(struct db *db, const char *run, int64_t after, int64_t limit,
    void (*fn)(const struct report_row *, void *arg), void *arg)
{
	struct db_res *r = db_query(db, ST_RES_REPORT, "sii", run, after, limit);
	int rc, n = 0;

	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1) {
		struct report_row row = {
			.id = db_i64(r, 0),
			.type = db_str(r, 1),
			.external_id = db_str(r, 2),
			.name = db_str(r, 3),
			.action = db_str(r, 4),
			.status = db_str(r, 5),
			.target_id = db_str(r, 6) ? db_i64(r, 6) : 0,
			.reason = db_str(r, 7),
			.error_message = db_str(r, 8),
			.needs_address = db_i64(r, 9) == 1,
			.dropped = db_str(r, 10),
		};
		fn(&row, arg);
		n++;
	}
	db_free(r);
	return rc < 0 ? -1 : n;
}

int
planned_counts(struct db *db, const char *run, void (*fn)(const char *action, int64_t n, void *arg),
    void *arg)
{
	return each_row(db_query(db, ST_RUN_ACTION_COUNTS, "ss", run, run), count_row,
	    &(struct sink){ .fn.count = fn, .arg = arg });
}

static void
log_row(struct db_res *r, struct sink *to)
{
	struct log_row row = {
		.id = db_i64(r, 0),
		.level = db_str(r, 1),
		.message = db_str(r, 2),
		.context = db_str(r, 3),
		.logged_at = db_str(r, 4),
	};

	to->fn.log(&row, to->arg);
}

int
run_logs(struct db *db, const char *run, bool errors_only, int64_t limit, int64_t offset,
    void (*fn)(const struct log_row *, void *arg), void *arg)
{
	return each_row(db_query(db, ST_RUN_LOGS, "siii", run, (int64_t)errors_only, limit, offset), log_row,
	    &(struct sink){ .fn.log = fn, .arg = arg });
}

int
token_lookup(struct db *db, uint64_t token_id, void (*fn)(const struct token_row *, void *arg), void *arg)
{
	struct db_res *r = db_query(db, ST_AUTH_TOKEN, "u", token_id);
	int rc;

	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1) {
		struct token_row row = {
			.user_id = (uint64_t)db_i64(r, 0),
			.hash = (const unsigned char *)db_str(r, 1),
			.hash_len = db_len(r, 1),
			.scopes = db_str(r, 2),
			.name = db_str(r, 3),
			.email = db_str(r, 4),
		};
		fn(&row, arg);
	}
	db_free(r);
	return rc;
}

int
token_hit(struct db *db, uint64_t token_id, const unsigned char *hash, size_t hash_len, const char *bucket,
    int64_t *hits, int *flag)
{
	int64_t n = db_exec(db, ST_AUTH_HIT, "sub", bucket, token_id, hash, hash_len);
	uint64_t v;

	*hits = 0;
	*flag = -1;
	if (n <= 0)
		return n < 0 ? -1 : 0;
	v = db_insert_id(db); /* 4 * hits + flag, see ST_AUTH_HIT */
	*hits = (int64_t)(v / 4);
	*flag = v % 4 == 2 ? -1 : (int)(v % 4);
	return 1;
}

int64_t
run_insert(struct db *db, const char *id, uint64_t user, const char *provider, const char *stats,
    const char *options, const void *sealed, size_t sealed_len, const char *key_id)
{
	return db_exec(db, ST_RUN_INSERT, "susssbs", id, user, provider, stats, options, sealed, sealed_len,
	    key_id);
}

int64_t
run_execute(struct db *db, const char *id, uint64_t user)
{
	return db_exec(db, ST_RUN_EXECUTE, "su", id, user);
}

int64_t
run_cancel(struct db *db, const char *id, uint64_t user)
{
	return db_exec(db, ST_RUN_CANCEL, "su", id, user);
}

int64_t
run_revert(struct db *db, const char *id, uint64_t user)
{
	return db_exec(db, ST_RUN_REVERT, "suss", id, user, id, id);
}

int
run_unrecorded(struct db *db, const char *id)
{
	int64_t one;

	return db_scalar(db, &one, ST_RUN_UNRECORDED, "s", id);
}

int
run_written_count(struct db *db, const char *id, int64_t *n)
{
	return db_scalar(db, n, ST_RUN_WRITTEN_COUNT, "s", id) < 0 ? -1 : 0;
}

int
failed_span(struct db *db, const char *id, int64_t *n, uint64_t *last)
{
	struct db_res *r = db_query(db, ST_RES_FAILED_SPAN, "s", id);
	int rc;

	*n = 0;
	*last = 0;
	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1) {
		*n = db_i64(r, 0);
		*last = (uint64_t)db_i64(r, 1);
	}
	db_free(r);
	return rc < 0 ? -1 : 0;
}

int64_t
run_retry_failed(struct db *db, const char *id)
{
	return db_exec(db, ST_RUN_SET_EXECUTING_FROM_RETRY, "s", id);
}

int
run_size_upto(struct db *db, const char *id, int64_t max, int64_t *size)
{
	int rc;

	*size = 0;
	rc = db_scalar(db, size, ST_RUN_SIZE_UPTO, "sisisisi", id, max, id, max, id, max, id, max);
	return rc < 0 ? -1 : 0;
}

int64_t
run_delete(struct db *db, const char *id, uint64_t user, int64_t max)
{
	if (db_exec(db, ST_JOBS_DELETE_RUN, "si", id, max) < 0 ||
	    db_exec(db, ST_RUN_DELETE_LOGS, "si", id, max) < 0 ||
	    db_exec(db, ST_RUN_DELETE_RESOURCES, "si", id, max) < 0 ||
	    db_exec(db, ST_RUN_DELETE_RESOURCE_DATA, "si", id, max) < 0)
		return -1;
	return db_exec(db, ST_RUN_DELETE, "su", id, user);
}

int64_t
run_mark_deleted(struct db *db, const char *id, uint64_t user)
{
	return db_exec(db, ST_RUN_MARK_DELETED, "su", id, user);
}

int64_t
run_jobs_drop(struct db *db, const char *id, int64_t max)
{
	return db_exec(db, ST_JOBS_DELETE_RUN, "si", id, max);
}

int64_t
run_resume_review(struct db *db, const char *id)
{
	return db_exec(db, ST_RUN_RESUME_REVIEW, "ss", id, id);
}

int
resource_in_run(struct db *db, const char *run, uint64_t resource)
{
	int64_t found;

	return db_scalar(db, &found, ST_RES_IN_RUN, "su", run, resource);
}

int64_t
conflicts_resolve(struct db *db, const char *run, uint64_t resource, const char *resolution,
    const char *action, const char *status, const char *reason)
{
	return db_exec(db, ST_RES_RESOLVE, "sssssUU", resolution, action, status, reason, run, resource,
	    resource);
}

int64_t
resource_exclude(struct db *db, const char *run, uint64_t resource, bool exclude)
{
	return db_exec(db, exclude ? ST_RES_EXCLUDE : ST_RES_INCLUDE, "su", run, resource);
}

int64_t
resources_lost_links(struct db *db, const char *run, char *out, size_t n)
{
	struct db_res *r = db_query(db, ST_RES_LOST_LINKS, "s", run);
	int64_t total = 0;
	size_t at;
	int rc;

	out[0] = '\0';
	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1) {
		total = db_i64(r, 2);
		if ((at = strlen(out)) < n - 1)
			utf8_format(out + at, n - at, "%s%s \u2192 %s", at ? ", " : "",
			    db_str(r, 0) ? db_str(r, 0) : "?", db_str(r, 1) ? db_str(r, 1) : "?");
	}
	db_free(r);
	return rc < 0 ? -1 : total;
}

int64_t
resources_select_batch(struct db *db, const char *run, const struct resource_filter *f, bool exclude)
{
	return db_exec(db, exclude ? ST_RES_EXCLUDE_MATCHING : ST_RES_INCLUDE_MATCHING, "sssssssss", run,
	    f->status, f->status, f->type, f->type, f->action, f->action, f->like, f->like);
}

int64_t
resources_exclude_matching(struct db *db, const char *run, const struct resource_filter *f, bool exclude)
{
	int64_t n, changed = 0;

	do {
		if ((n = resources_select_batch(db, run, f, exclude)) < 0)
			return -1;
		changed += n;
	} while (n == BULK_BATCH);
	return changed;
}

int
resources_matching_count(struct db *db, const char *run, const struct resource_filter *f, bool exclude,
    int64_t *n)
{
	*n = 0;
	return db_scalar(db, n, exclude ? ST_RES_EXCLUDABLE_COUNT : ST_RES_INCLUDABLE_COUNT, "sssssssss", run,
	           f->status, f->status, f->type, f->type, f->action, f->action, f->like, f->like) < 0 ?
	    -1 :
	    0;
}

int
conflicts_count(struct db *db, const char *run, int64_t *n)
{
	*n = 0;
	return db_scalar(db, n, ST_RES_CONFLICT_COUNT, "s", run) < 0 ? -1 : 0;
}

int64_t
conflicts_resolve_batch(struct db *db, const char *run, const char *resolution, const char *action,
    const char *status, const char *reason)
{
	return db_exec(db, ST_RES_RESOLVE_BATCH, "sssss", resolution, action, status, reason, run);
}

int64_t
conflicts_resolve_all(struct db *db, const char *run, const char *resolution, const char *action,
    const char *status, const char *reason)
{
	int64_t n, changed = 0;

	do {
		if ((n = conflicts_resolve_batch(db, run, resolution, action, status, reason)) < 0)
			return -1;
		changed += n;
	} while (n == BULK_BATCH);
	return changed;
}

int
bulk_job_of_run(struct db *db, const char *run)
{
	int64_t id;

	return db_scalar(db, &id, ST_JOB_BULK_OF_RUN, "s", run);
}

int64_t
token_touch(struct db *db, uint64_t token_id)
{
	return db_exec(db, ST_TOKEN_TOUCH, "u", token_id);
}

int64_t
rate_count(struct db *db, const char *bucket)
{
	if (db_exec(db, ST_RL_HIT, "s", bucket) < 0)
		return -1;
	return (int64_t)db_insert_id(db);
}
