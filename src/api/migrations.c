/* Handlers of the migration-run operations. Each takes validated arguments,
 * works through the statement table, and returns the response body. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api/ops.h"
#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "crypto/seal.h"
#include "db/runlog.h"
#include "providers/provider.h"
#include "queue/queue.h"

#define DETAIL_MAX_RESOURCES 500
#define DELETE_INLINE_MAX    5000 /* a run with more resources is deleted by the runner, in batches */

static const char initial_stats[] =
    "{\"discovered\":{},\"planned\":{},\"imported\":0,\"skipped\":0,\"failed\":0,\"progress\":0}";

/* "options" of a run from its stored text: every option with its value. */
static void
run_options_json(json_object *run, const char *text)
{
	json_object *o = json_object_new_object(), *stored = NULL, *v;
	int ok;

	if (text != NULL)
		stored = jx_parse(text, strlen(text), &ok);
	jx_add_bool(o, "import_paused",
	    json_object_object_get_ex(stored, "import_paused", &v) && json_object_get_boolean(v));
	json_object_put(stored);
	json_object_object_add(run, "options", o);
}

/* Add a new key (a string literal) to o: no copy of the key, no lookup. The
 * lists of hundreds of resources are built with these. */
static void
put_new(json_object *o, const char *key, json_object *v)
{
	json_object_object_add_ex(o, key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_KEY_IS_CONSTANT);
}

/* Column col of r as a JSON string, NULL for SQL NULL. */
static json_object *
col_str(struct db_res *r, int col)
{
	return db_null(r, col) ? NULL : json_object_new_string_len(db_str(r, col), (int)db_len(r, col));
}

/* A resource item from a row of RES_COLS (see db/sql_core.def). */
static json_object *
resource_json(struct db_res *r)
{
	json_object *o = json_object_new_object();

	put_new(o, "id", json_object_new_int64(db_i64(r, 0)));
	put_new(o, "resource_type", col_str(r, 1));
	put_new(o, "external_id", col_str(r, 2));
	put_new(o, "name", col_str(r, 3));
	put_new(o, "action", col_str(r, 4));
	put_new(o, "status", col_str(r, 5));
	put_new(o, "reason", col_str(r, 6));
	put_new(o, "attempts", json_object_new_int64(db_i64(r, 7)));
	put_new(o, "error_message", col_str(r, 8));
	return o;
}

/* A run object from a row of RUN_COLS (see db/sql_core.def). */
static json_object *
run_json(struct db_res *r)
{
	json_object *o = json_object_new_object();

	jx_add_str(o, "id", db_str(r, 0));
	jx_add_str(o, "provider", db_str(r, 1));
	jx_add_str(o, "status", db_str(r, 2));
	jx_add_json(o, "stats", db_str(r, 3), json_object_new_object());
	jx_add_int(o, "total_resources", db_i64(r, 9));
	jx_add_int(o, "failed_resources", db_i64(r, 10));
	jx_add_str(o, "error_message", db_str(r, 4));
	jx_add_time(o, "started_at", db_str(r, 5));
	jx_add_time(o, "finished_at", db_str(r, 6));
	jx_add_time(o, "created_at", db_str(r, 7));
	jx_add_time(o, "updated_at", db_str(r, 8));
	run_options_json(o, db_str(r, 11));
	return o;
}

/* The caller's run read with st (ST_RUN_GET or ST_RUN_GET_UNCOUNTED): 0 with
 * *run set (owned), or -1 with e (404 when absent). */
static int
load_run(struct ctx *c, enum stmt_id st, const char *id, json_object **run, struct err *e)
{
	struct db *db = c->app->db;
	struct db_res *r;
	int rc;

	*run = NULL;
	if ((r = db_query(db, st, "su", id, c->who->user_id)) == NULL)
		return db_fail(db, e);
	rc = db_next(r);
	if (rc == 1)
		*run = run_json(r);
	db_free(r);
	if (rc < 0)
		return db_fail(db, e);
	if (rc == 0)
		return err_set(e, ERR_NOT_FOUND, "Migration run not found.");
	return 0;
}

/* 404 when the caller has no such run, else 0 with its status in st. */
static int
run_status(struct ctx *c, const char *id, bool lock, char st[32], struct err *e)
{
	struct db *db = c->app->db;
	struct db_res *r;
	int rc;

	r = db_query(db, lock ? ST_RUN_LOCK : ST_RUN_STATUS, "su", id, c->who->user_id);
	if (r == NULL)
		return db_fail(db, e);
	rc = db_next(r);
	if (rc == 1)
		snprintf(st, 32, "%s", db_str(r, 0) ? db_str(r, 0) : "");
	db_free(r);
	if (rc < 0)
		return db_fail(db, e);
	if (rc == 0)
		return err_set(e, ERR_NOT_FOUND, "Migration run not found.");
	return 0;
}

static json_object *
ack(const char *message, const char *id, const char *status)
{
	json_object *o = json_object_new_object(), *d = json_object_new_object();

	jx_add_str(o, "message", message);
	jx_add_str(d, "id", id);
	jx_add_str(d, "status", status);
	json_object_object_add(o, "data", d);
	return o;
}

/* The list body {data, links, meta} of one page of a paginated list: path and
 * filter (a query prefix such as "status=failed&", already encoded) make the
 * links; total counts every row that matches. Takes data. */
static json_object *
page_body(const struct ctx *c, const char *path, const char *filter, const struct args *a, int64_t total,
    json_object *data)
{
	int64_t last = total == 0 ? 1 : (total + a->per_page - 1) / a->per_page;
	int64_t offset = (a->page - 1) * a->per_page, n = (int64_t)json_object_array_length(data);
	json_object *out = json_object_new_object(), *links = json_object_new_object();
	json_object *meta = json_object_new_object();
	const struct {
		const char *name;
		bool on;
		int64_t page;
	} rel[] = { { "first", true, 1 }, { "last", true, last }, { "prev", a->page > 1, a->page - 1 },
		{ "next", a->page < last, a->page + 1 } };

	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		char *url = rel[i].on ? xasprintf("%s%s?%sper_page=%lld&page=%lld", c->app->cfg->public_url,
		                            path, filter, (long long)a->per_page, (long long)rel[i].page) :
		                        NULL;
		jx_add_str(links, rel[i].name, url);
		free(url);
	}
	jx_add_int(meta, "current_page", a->page);
	jx_add_int(meta, "last_page", last);
	jx_add_int(meta, "per_page", a->per_page);
	jx_add_int(meta, "total", total);
	if (n > 0) {
		jx_add_int(meta, "from", offset + 1);
		jx_add_int(meta, "to", offset + n);
	} else {
		jx_add_str(meta, "from", NULL);
		jx_add_str(meta, "to", NULL);
	}
	json_object_object_add(out, "data", data);
	json_object_object_add(out, "links", links);
	json_object_object_add(out, "meta", meta);
	return out;
}

/* Append "name=value&" (value percent-encoded) to the filter buffer when value is set. */
static void
filter_add(char *buf, size_t n, const char *name, const char *value)
{
	size_t len = strlen(buf);

	if (value == NULL)
		return;
	len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s=", name);
	for (const unsigned char *p = (const unsigned char *)value; *p && len + 4 < n; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '_' || *p == '.' || *p == '~')
			buf[len++] = (char)*p;
		else
			len += (size_t)snprintf(buf + len, n - len, "%%%02X", *p);
	}
	if (len + 1 < n)
		buf[len++] = '&';
	buf[len < n ? len : n - 1] = '\0';
}

int
h_list(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	uint64_t uid = c->who->user_id;
	int64_t total = 0, offset = (a->page - 1) * a->per_page;
	char filter[128] = "";
	json_object *data;
	struct db_res *r;
	size_t n;
	int rc;

	if ((r = db_query(db, ST_RUN_LIST, "ussssii", uid, a->status, a->status, a->provider, a->provider,
	         a->per_page, offset)) == NULL)
		return db_fail(db, e);
	data = json_object_new_array();
	while ((rc = db_next(r)) == 1)
		json_object_array_add(data, run_json(r));
	db_free(r);
	if (rc < 0) {
		json_object_put(data);
		return db_fail(db, e);
	}
	/* A short page that is not past the end tells the total without counting. */
	n = json_object_array_length(data);
	if (n < (size_t)a->per_page && (n > 0 || offset == 0))
		total = offset + (int64_t)n;
	else if (db_scalar(db, &total, ST_RUN_COUNT, "ussss", uid, a->status, a->status, a->provider,
	             a->provider) < 0) {
		json_object_put(data);
		return db_fail(db, e);
	}
	filter_add(filter, sizeof filter, "status", a->status);
	filter_add(filter, sizeof filter, "provider", a->provider);
	*out = page_body(c, "/api/v1/migrations", filter, a, total, data);
	return 0;
}

static json_object *
log_json(struct db_res *r)
{
	json_object *o = json_object_new_object();

	jx_add_int(o, "id", db_i64(r, 0));
	jx_add_str(o, "level", db_str(r, 1));
	jx_add_str(o, "message", db_str(r, 2));
	jx_add_json(o, "context", db_str(r, 3), json_object_new_object());
	jx_add_time(o, "logged_at", db_str(r, 4));
	return o;
}

/* Up to limit+1 log rows from offset (the extra row tells whether a next page exists). */
static int
fetch_logs(struct db *db, const char *id, bool errors_only, int64_t limit, int64_t offset, json_object **arr,
    struct err *e)
{
	struct db_res *r;
	int rc;

	if ((r = db_query(db, ST_RUN_LOGS, "siii", id, (int64_t)errors_only, limit, offset)) == NULL)
		return db_fail(db, e);
	*arr = json_object_new_array();
	while ((rc = db_next(r)) == 1)
		json_object_array_add(*arr, log_json(r));
	db_free(r);
	if (rc < 0) {
		json_object_put(*arr);
		*arr = NULL;
		return db_fail(db, e);
	}
	return 0;
}

#define STATUS_MAX 16 /* bound of resource_statuses for per-status tallies */

/* The index of status in resource_statuses, or -1. */
static int
status_index(const char *status)
{
	for (int i = 0; status != NULL && i < STATUS_MAX && resource_statuses[i] != NULL; i++)
		if (strcmp(resource_statuses[i], status) == 0)
			return i;
	return -1;
}

/* The resource counts of a run per status into counts, and their sum into
 * *total, counted by the database. 0 or -1 (database error). */
static int
count_in_db(struct db *db, const char *id, json_object *counts, int64_t *total)
{
	struct db_res *r;
	int rc;

	*total = 0;
	if ((r = db_query(db, ST_RUN_RESOURCE_COUNTS, "s", id)) == NULL)
		return -1;
	while ((rc = db_next(r)) == 1) {
		*total += db_i64(r, 1);
		if (db_str(r, 0) != NULL)
			jx_add_int(counts, db_str(r, 0), db_i64(r, 1));
	}
	db_free(r);
	return rc < 0 ? -1 : 0;
}

int
h_get(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	json_object *run, *res, *counts, *meta, *logs;
	struct db_res *r;
	int64_t n[STATUS_MAX] = { 0 }, rows = 0, total = 0;
	bool counted = true; /* every row was read and had a known status: n holds the counts */
	int rc;

	if (load_run(c, ST_RUN_GET_UNCOUNTED, a->id, &run, e) != 0)
		return -1;
	/* One row past the limit tells whether the rows read are all of them. */
	if ((r = db_query(db, ST_RUN_RESOURCES, "si", a->id, (int64_t)DETAIL_MAX_RESOURCES + 1)) == NULL)
		goto fail;
	res = json_object_new_array();
	while ((rc = db_next(r)) == 1) {
		int i = status_index(db_str(r, 5));

		if (i < 0 || ++rows > DETAIL_MAX_RESOURCES)
			counted = false;
		else
			n[i]++;
		if (rows <= DETAIL_MAX_RESOURCES)
			json_object_array_add(res, resource_json(r));
	}
	db_free(r);
	json_object_object_add(run, "resources", res);
	if (rc < 0)
		goto fail;
	counts = json_object_new_object();
	for (size_t i = 0; i < STATUS_MAX && resource_statuses[i] != NULL; i++) {
		jx_add_int(counts, resource_statuses[i], counted ? n[i] : 0);
		total += n[i];
	}
	if (!counted && count_in_db(db, a->id, counts, &total) != 0) { /* a larger run */
		json_object_put(counts);
		goto fail;
	}
	/* The run's totals from the same counts, so the two always agree. */
	jx_add_int(run, "total_resources", total);
	jx_add_int(run, "failed_resources", json_object_get_int64(json_object_object_get(counts, "failed")));
	meta = json_object_new_object();
	json_object_object_add(meta, "resource_counts", counts);
	if (a->embed_logs > 0) {
		if (fetch_logs(db, a->id, false, a->embed_logs, 0, &logs, e) != 0) {
			json_object_put(meta);
			json_object_put(run);
			return -1;
		}
		json_object_object_add(run, "logs", logs);
	}
	*out = json_object_new_object();
	json_object_object_add(*out, "data", run);
	json_object_object_add(*out, "meta", meta);
	return 0;
fail:
	json_object_put(run);
	return db_fail(db, e);
}

int
h_logs(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	char st[32], path[80];
	json_object *data, *links, *meta;
	size_t n;

	if (run_status(c, a->id, false, st, e) != 0)
		return -1;
	if (fetch_logs(c->app->db, a->id, a->errors_only, a->per_page + 1, (a->page - 1) * a->per_page, &data,
	        e) != 0)
		return -1;
	n = json_object_array_length(data);
	if (n > (size_t)a->per_page)
		json_object_array_del_idx(data, n - 1, 1);
	snprintf(path, sizeof path, "/api/v1/migrations/%s/logs", a->id);
	links = json_object_new_object();
	for (int i = 0; i < 2; i++) {
		bool on = i == 0 ? a->page > 1 : n > (size_t)a->per_page;
		char *url = on ?
		    xasprintf("%s%s?errors_only=%s&per_page=%lld&page=%lld", c->app->cfg->public_url, path,
		        a->errors_only ? "true" : "false", (long long)a->per_page,
		        (long long)(i == 0 ? a->page - 1 : a->page + 1)) :
		    NULL;
		jx_add_str(links, i == 0 ? "prev" : "next", url);
		free(url);
	}
	meta = json_object_new_object();
	jx_add_int(meta, "current_page", a->page);
	jx_add_int(meta, "per_page", a->per_page);
	*out = json_object_new_object();
	json_object_object_add(*out, "data", data);
	json_object_object_add(*out, "links", links);
	json_object_object_add(*out, "meta", meta);
	return 0;
}

int
h_create(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	unsigned char *sealed = NULL;
	size_t sealed_len = 0, plain_len;
	json_object *none = NULL, *run, *ctxo;
	char id[37], *plain;
	int64_t n;

	if (c->app->key == NULL)
		return err_internal(e, "no credentials key: set [security] key_file (migratorctl keygen)");
	uuid_v7(id);
	if (a->credentials == NULL)
		none = json_object_new_object();
	plain = (char *)json_object_to_json_string_length(a->credentials ? a->credentials : none,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &plain_len);
	if (seal(c->app->key, id, plain, plain_len, &sealed, &sealed_len) != 0) {
		sodium_memzero(plain, plain_len);
		json_object_put(none);
		return err_internal(e, "sealing credentials failed");
	}
	sodium_memzero(plain, plain_len);
	json_object_put(none);
	n = db_exec(db, ST_RUN_INSERT, "susssbs", id, c->who->user_id, a->provider, initial_stats,
	    a->options.import_paused ? "{\"import_paused\":true}" : "{\"import_paused\":false}", sealed,
	    sealed_len, seal_key_id(c->app->key));
	free(sealed);
	if (n < 0)
		return db_fail(db, e);
	ctxo = json_object_new_object();
	jx_add_str(ctxo, "provider", a->provider);
	jx_add_str(ctxo, "via", a->via);
	n = runlog_add(db, id, "info", "Run started; discovery queued.", ctxo, e);
	json_object_put(ctxo);
	if (n != 0 || queue_push(db, QUEUE_DISCOVERY, id, 0, NULL, e) != 0)
		return -1;
	if (load_run(c, ST_RUN_GET, id, &run, e) != 0)
		return -1;
	*out = json_object_new_object();
	jx_add_str(*out, "message", "Migration run started; discovery is queued.");
	json_object_object_add(*out, "data", run);
	return 0;
}

int
h_execute(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	char st[32];
	int64_t n;

	if ((n = db_exec(db, ST_RUN_EXECUTE, "su", a->id, c->who->user_id)) < 0)
		return db_fail(db, e);
	if (n == 0) {
		if (run_status(c, a->id, false, st, e) != 0)
			return -1;
		return err_set(e, ERR_RUN_NOT_AWAITING_REVIEW,
		    "The run is %s, not awaiting review; only a run awaiting review can be executed.", st);
	}
	if (runlog_add(db, a->id, "info", "Execution requested; planning queued.", NULL, e) != 0 ||
	    queue_push(db, QUEUE_PLANNING, a->id, 0, NULL, e) != 0)
		return -1;
	*out = ack("Execution queued.", a->id, "executing");
	return 0;
}

int
h_retry(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	json_object *ctxo;
	char st[32], msg[96];
	int64_t n;

	if (run_status(c, a->id, true, st, e) != 0)
		return -1;
	if (strcmp(st, "cancelled") == 0)
		return err_set(e, ERR_RUN_CANCELLED, "The run was cancelled; nothing can be retried.");
	if ((n = db_exec(db, ST_RES_RETRY_ENQUEUE, "s", a->id)) < 0)
		return db_fail(db, e);
	if (n == 0)
		return err_set(e, ERR_NO_FAILED_RESOURCES, NULL);
	if (db_exec(db, ST_RES_RETRY_RESET, "s", a->id) < 0 ||
	    db_exec(db, ST_RUN_SET_EXECUTING_FROM_RETRY, "s", a->id) < 0 ||
	    db_exec(db, ST_RUN_RECOUNT, "s", a->id) < 0)
		return db_fail(db, e);
	ctxo = json_object_new_object();
	jx_add_int(ctxo, "retried", n);
	snprintf(msg, sizeof msg, "Retrying %lld failed resource%s.", (long long)n, n == 1 ? "" : "s");
	if (runlog_add(db, a->id, "info", msg, ctxo, e) != 0) {
		json_object_put(ctxo);
		return -1;
	}
	json_object_put(ctxo);
	if (run_status(c, a->id, false, st, e) != 0)
		return -1;
	*out = ack(msg, a->id, st);
	jx_add_int(*out, "retried", n);
	return 0;
}

int
h_delete(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	char st[32];
	int64_t n, size = 0;

	if (!a->confirm) {
		/* Unknown and foreign runs still look the same as to REST. */
		if (run_status(c, a->id, false, st, e) != 0)
			return -1;
		return err_set(e, ERR_CONFIRM_REQUIRED, NULL);
	}
	if ((n = run_status(c, a->id, true, st, e)) != 0)
		return -1;
	if (db_scalar(db, &size, ST_RUN_SIZE_UPTO, "si", a->id, (int64_t)DELETE_INLINE_MAX + 1) < 0)
		return db_fail(db, e);
	if (size <= DELETE_INLINE_MAX)
		n = db_exec(db, ST_RUN_DELETE, "su", a->id, c->who->user_id);
	else if ((n = db_exec(db, ST_RUN_MARK_DELETED, "su", a->id, c->who->user_id)) > 0 &&
	    (db_exec(db, ST_JOBS_DELETE_RUN, "s", a->id) < 0 ||
	        queue_push(db, QUEUE_CLEANUP, a->id, 0, NULL, e) != 0))
		return e->code != ERR_NONE ? -1 : db_fail(db, e);
	if (n < 0)
		return db_fail(db, e);
	if (n == 0)
		return err_set(e, ERR_NOT_FOUND, "Migration run not found.");
	*out = json_object_new_object();
	jx_add_str(*out, "message", "Migration run deleted with its resources and logs.");
	jx_add_bool(*out, "deleted", 1);
	jx_add_str(*out, "id", a->id);
	return 0;
}

int
h_cancel(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	json_object *run;
	char st[32];
	int64_t n;

	if ((n = db_exec(db, ST_RUN_CANCEL, "su", a->id, c->who->user_id)) < 0)
		return db_fail(db, e);
	if (n == 0) {
		if (run_status(c, a->id, false, st, e) != 0)
			return -1;
		return err_set(e, ERR_RUN_NOT_CANCELLABLE, "The run is %s and can no longer be cancelled.",
		    st);
	}
	if (db_exec(db, ST_JOBS_DELETE_RUN, "s", a->id) < 0)
		return db_fail(db, e);
	if (runlog_add(db, a->id, "warning", "Run cancelled; queued work dropped.", NULL, e) != 0)
		return -1;
	if (load_run(c, ST_RUN_GET, a->id, &run, e) != 0)
		return -1;
	*out = json_object_new_object();
	jx_add_str(*out, "message", "Migration run cancelled.");
	json_object_object_add(*out, "data", run);
	return 0;
}

/* Set the chosen action, status and reason on the conflicts of run a->id
 * (all, or those of a->ids, each of which must be a resource of the run);
 * *resolved counts them. 0 or -1 with e. */
static int
resolve_rows(struct db *db, const struct args *a, const char *action, const char *status, const char *reason,
    int64_t *resolved, struct err *e)
{
	int64_t n;

	for (size_t i = 0; i < a->ids.n; i++) {
		int64_t found;
		if ((n = db_scalar(db, &found, ST_RES_IN_RUN, "su", a->id, a->ids.v[i])) < 0)
			return db_fail(db, e);
		if (n == 0)
			return err_field(e, "resource_ids", "Resource %llu is not a resource of this run.",
			    (unsigned long long)a->ids.v[i]);
	}
	if (a->ids.v == NULL) {
		if ((n = db_exec(db, ST_RES_RESOLVE, "sssssnn", a->strategy, action, status, reason, a->id)) <
		    0)
			return db_fail(db, e);
		*resolved = n;
	} else {
		for (size_t i = 0; i < a->ids.n; i++) {
			n = db_exec(db, ST_RES_RESOLVE, "sssssuu", a->strategy, action, status, reason, a->id,
			    a->ids.v[i], a->ids.v[i]);
			if (n < 0)
				return db_fail(db, e);
			*resolved += n;
		}
	}
	return 0;
}

int
h_resolve(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	static const struct {
		const char *strategy, *action, *status, *reason;
	} map[] = {
		{ "skip", "skip", "skipped", "You chose skip: the object in your account stays as it is." },
		{ "overwrite", "update", "pending",
		    "You chose overwrite: the object in your account is updated "
		    "with the provider's data." },
		{ "duplicate", "create", "pending",
		    "You chose duplicate: a second object is created beside yours." },
	};
	struct db *db = c->app->db;
	const char *action = NULL, *status = NULL, *reason = NULL;
	json_object *ctxo;
	char st[32], msg[128];
	int64_t n, resolved = 0;

	if (run_status(c, a->id, true, st, e) != 0)
		return -1;
	if (strcmp(st, "paused_conflicts") != 0)
		return err_set(e, ERR_RUN_NOT_PAUSED,
		    "The run is %s; conflicts can only be resolved while it is paused on conflicts.", st);
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i].strategy, a->strategy) == 0) {
			action = map[i].action;
			status = map[i].status;
			reason = map[i].reason;
		}
	if (resolve_rows(db, a, action, status, reason, &resolved, e) != 0)
		return -1;
	if (db_exec(db, ST_RUN_RESUME_REVIEW, "ss", a->id, a->id) < 0)
		return db_fail(db, e);
	if (run_status(c, a->id, false, st, e) != 0)
		return -1;
	snprintf(msg, sizeof msg, "Resolved %lld conflict%s with strategy %s.", (long long)resolved,
	    resolved == 1 ? "" : "s", a->strategy);
	ctxo = json_object_new_object();
	jx_add_str(ctxo, "strategy", a->strategy);
	jx_add_int(ctxo, "resolved", resolved);
	n = runlog_add(db, a->id, "info", msg, ctxo, e);
	json_object_put(ctxo);
	if (n != 0)
		return -1;
	*out = ack(msg, a->id, st);
	jx_add_int(*out, "resolved", resolved);
	return 0;
}

int
h_resources(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	char path[80], filter[256] = "", *like = NULL;
	json_object *data;
	struct db_res *r;
	int64_t total = 0;
	int rc;

	if (a->q != NULL) {
		/* a substring of the name: LIKE with its wildcards escaped */
		size_t n = 0;
		like = xmalloc(2 * strlen(a->q) + 3);
		like[n++] = '%';
		for (const char *p = a->q; *p; p++) {
			if (*p == '%' || *p == '_' || *p == '\\')
				like[n++] = '\\';
			like[n++] = *p;
		}
		like[n++] = '%';
		like[n] = '\0';
	}
	rc = db_scalar(db, &total, ST_RES_COUNT, "sssssssssu", a->status, a->status, a->resource_type,
	    a->resource_type, a->action, a->action, like, like, a->id, c->who->user_id);
	if (rc == 0) {
		free(like);
		return err_set(e, ERR_NOT_FOUND, "Migration run not found.");
	}
	if (rc < 0 ||
	    (r = db_query(db, ST_RES_PAGE, "sssssssssii", a->id, a->status, a->status, a->resource_type,
	         a->resource_type, a->action, a->action, like, like, a->per_page,
	         (a->page - 1) * a->per_page)) == NULL) {
		free(like);
		return db_fail(db, e);
	}
	free(like);
	data = json_object_new_array();
	while ((rc = db_next(r)) == 1)
		json_object_array_add(data, resource_json(r));
	db_free(r);
	if (rc < 0) {
		json_object_put(data);
		return db_fail(db, e);
	}
	snprintf(path, sizeof path, "/api/v1/migrations/%s/resources", a->id);
	filter_add(filter, sizeof filter, "status", a->status);
	filter_add(filter, sizeof filter, "resource_type", a->resource_type);
	filter_add(filter, sizeof filter, "action", a->action);
	filter_add(filter, sizeof filter, "q", a->q);
	*out = page_body(c, path, filter, a, total, data);
	return 0;
}

/* Exclude or include the resources a->ids of a run awaiting review. */
static int
select_resources(struct ctx *c, const struct args *a, bool exclude, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	json_object *ctxo;
	char st[32], msg[128];
	int64_t n, changed = 0, found;

	if (run_status(c, a->id, true, st, e) != 0)
		return -1;
	if (strcmp(st, "awaiting_review") != 0)
		return err_set(e, ERR_RUN_NOT_AWAITING_REVIEW,
		    "The run is %s; resources can only be %s while it "
		    "awaits review.",
		    st, exclude ? "excluded" : "included");
	for (size_t i = 0; i < a->ids.n; i++) {
		if ((n = db_scalar(db, &found, ST_RES_IN_RUN, "su", a->id, a->ids.v[i])) < 0)
			return db_fail(db, e);
		if (n == 0)
			return err_field(e, "ids", "Resource %llu is not a resource of this run.",
			    (unsigned long long)a->ids.v[i]);
	}
	for (size_t i = 0; i < a->ids.n; i++) {
		if ((n = db_exec(db, exclude ? ST_RES_EXCLUDE : ST_RES_INCLUDE, "su", a->id, a->ids.v[i])) <
		    0)
			return db_fail(db, e);
		changed += n;
	}
	snprintf(msg, sizeof msg, "%s %lld resource%s.", exclude ? "Excluded" : "Included",
	    (long long)changed, changed == 1 ? "" : "s");
	ctxo = json_object_new_object();
	jx_add_int(ctxo, exclude ? "excluded" : "included", changed);
	n = runlog_add(db, a->id, "info", msg, ctxo, e);
	json_object_put(ctxo);
	if (n != 0)
		return -1;
	*out = ack(msg, a->id, st);
	jx_add_int(*out, "changed", changed);
	return 0;
}

int
h_exclude(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	return select_resources(c, a, true, out, e);
}

int
h_include(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	return select_resources(c, a, false, out, e);
}

int
h_me(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	json_object *d = json_object_new_object(), *scopes = json_object_new_array();

	(void)a;
	(void)e;
	jx_add_int(d, "id", (int64_t)c->who->user_id);
	jx_add_str(d, "name", c->who->name);
	jx_add_str(d, "email", c->who->email);
	for (int i = 0; i < SC__COUNT; i++)
		if (scope_has(c->who, (enum scope)i))
			json_object_array_add(scopes, json_object_new_string(scope_name((enum scope)i)));
	json_object_object_add(d, "scopes", scopes);
	*out = json_object_new_object();
	json_object_object_add(*out, "data", d);
	return 0;
}
