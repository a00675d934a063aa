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
#include "db/bounds.h"
#include "db/runlog.h"
#include "db/runs.h"
#include "importers/importer.h"
#include "providers/provider.h"
#include "queue/queue.h"
#include "runner/rules.h"

#define DETAIL_MAX_RESOURCES 500

static const char initial_stats[] =
    "{\"discovered\":{},\"planned\":{},\"imported\":0,\"skipped\":0,\"failed\":0,\"progress\":0}";

/* A list of items written as JSON text (hundreds of resources, dozens of
 * runs or log entries per answer: one json-c object per value would cost more
 * than the rest of the request). */
struct item_list {
	struct printbuf *pb;
	int64_t n;
	bool import_paused; /* resource items: the run's option, which their previews show */
};

static void
item_list_open(struct item_list *l)
{
	l->pb = printbuf_new();
	l->n = 0;
	jx_put_lit(l->pb, "[");
}

/* Before an item's text: the comma that parts it from the one before. */
static void
item_next(struct item_list *l)
{
	if (l->n++ > 0)
		jx_put_lit(l->pb, ",");
}

/* The list as a value for a json-c tree. Takes l's text. */
static json_object *
item_list_close(struct item_list *l)
{
	jx_put_lit(l->pb, "]");
	return jx_splice(l->pb);
}

/* The preview and dropped keys of a resource item: what it will write into
 * the account (importer_preview; null for a kind no importer handles), and
 * what of it will not carry over: the fields discovery listed by the
 * provider's table (null where it has none yet) and the alert links to
 * contacts that will not be imported. */
static void
extras_put(struct printbuf *pb, const struct resource_item *r, bool import_paused)
{
	char type[64];
	int ok;
	json_object *norm = r->norm.s ? jx_parse(r->norm.s, r->norm.len, &ok) : NULL;
	json_object *alerts = r->alerts.s ? jx_parse(r->alerts.s, r->alerts.len, &ok) : NULL, *p, *no;
	json_object *dropped = r->dropped.s ? jx_parse(r->dropped.s, r->dropped.len, &ok) : NULL;

	snprintf(type, sizeof type, "%.*s", (int)(r->type.len < 63 ? r->type.len : 63),
	    r->type.s ? r->type.s : "");
	p = importer_preview(type, norm, alerts, import_paused);
	jx_put_lit(pb, ",\"preview\":");
	if (p != NULL)
		jx_put_json(pb, p);
	else
		jx_put_lit(pb, "null");
	if (dropped != NULL && !json_object_is_type(dropped, json_type_array)) {
		json_object_put(dropped);
		dropped = NULL;
	}
	if (dropped != NULL && json_object_object_get_ex(p, "not_alerted", &no))
		for (size_t i = 0; i < json_object_array_length(no); i++) {
			json_object *n = json_object_array_get_idx(no, i), *e = json_object_new_object(),
			            *who;
			char field[256];
			if (!json_object_object_get_ex(n, "name", &who))
				json_object_object_get_ex(n, "external_id", &who);
			utf8_format(field, sizeof field, "alert contact %s",
			    who != NULL ? json_object_get_string(who) : "without an id");
			jx_add_str(e, "field", field);
			jx_add_str(e, "reason", json_object_get_string(json_object_object_get(n, "why")));
			json_object_array_add(dropped, e);
		}
	jx_put_lit(pb, ",\"dropped\":");
	if (dropped != NULL)
		jx_put_json(pb, dropped);
	else
		jx_put_lit(pb, "null");
	json_object_put(dropped);
	json_object_put(p);
	json_object_put(alerts);
	json_object_put(norm);
}

/* Append one resource item: the keys of the spec's resource object, in order. */
static void
resource_put(const struct resource_item *r, void *arg)
{
	struct item_list *l = arg;
	struct printbuf *pb = l->pb;

	item_next(l);
	jx_put_lit(pb, "{\"id\":");
	jx_put_int(pb, r->id);
	jx_put_lit(pb, ",\"resource_type\":");
	jx_put_str(pb, r->type.s, r->type.len);
	jx_put_lit(pb, ",\"external_id\":");
	jx_put_str(pb, r->external_id.s, r->external_id.len);
	jx_put_lit(pb, ",\"name\":");
	jx_put_str(pb, r->name.s, r->name.len);
	jx_put_lit(pb, ",\"action\":");
	jx_put_str(pb, r->action.s, r->action.len);
	jx_put_lit(pb, ",\"status\":");
	jx_put_str(pb, r->status.s, r->status.len);
	jx_put_lit(pb, ",\"reason\":");
	jx_put_str(pb, r->reason.s, r->reason.len);
	jx_put_lit(pb, ",\"attempts\":");
	jx_put_int(pb, r->attempts);
	jx_put_lit(pb, ",\"error_message\":");
	jx_put_str(pb, r->error_message.s, r->error_message.len);
	extras_put(pb, r, l->import_paused);
	jx_put_lit(pb, "}");
}

/* A run object, written as JSON text (a list page has dozens). */
static void
run_put(struct printbuf *pb, const struct run_view *r)
{
	const char *options;

	jx_put_lit(pb, "{\"id\":");
	jx_put_cstr(pb, r->id);
	jx_put_lit(pb, ",\"provider\":");
	jx_put_cstr(pb, r->provider);
	jx_put_lit(pb, ",\"status\":");
	jx_put_cstr(pb, r->status);
	jx_put_lit(pb, ",\"stats\":");
	jx_put_object(pb, r->stats);
	jx_put_lit(pb, ",\"total_resources\":");
	jx_put_int(pb, r->total_resources);
	jx_put_lit(pb, ",\"failed_resources\":");
	jx_put_int(pb, r->failed_resources);
	jx_put_lit(pb, ",\"error_message\":");
	jx_put_cstr(pb, r->error_message);
	jx_put_lit(pb, ",\"started_at\":");
	jx_put_time(pb, r->started_at);
	jx_put_lit(pb, ",\"finished_at\":");
	jx_put_time(pb, r->finished_at);
	jx_put_lit(pb, ",\"created_at\":");
	jx_put_time(pb, r->created_at);
	jx_put_lit(pb, ",\"updated_at\":");
	jx_put_time(pb, r->updated_at);
	jx_put_lit(pb, ",\"options\":"); /* every option with its value */
	options = run_options_text(run_import_paused(r->options));
	printbuf_memappend_fast(pb, options, (int)strlen(options));
	jx_put_lit(pb, "}");
}

/* run_view_fn: the run as a json-c tree in *(json_object **)arg, for a caller
 * that adds to it (NULL if the text did not read back, which valid UTF-8 in
 * the database rules out). */
static void
run_keep(const struct run_view *r, void *arg)
{
	struct printbuf *pb = printbuf_new();
	int ok;

	run_put(pb, r);
	*(json_object **)arg = jx_parse(pb->buf, (size_t)pb->bpos, &ok);
	printbuf_free(pb);
}

/* run_view_fn: the run appended to the item list arg. */
static void
run_append(const struct run_view *r, void *arg)
{
	struct item_list *l = arg;

	item_next(l);
	run_put(l->pb, r);
}

/* The caller's run (counted: with its totals, else both 0): 0 with *run set
 * (owned), or -1 with e (404 when absent). */
static int
load_run(struct ctx *c, bool counted, const char *id, json_object **run, struct err *e)
{
	int rc;

	*run = NULL;
	if ((rc = run_of_user(c->app->db, id, c->who->user_id, counted, run_keep, run)) < 0) {
		json_object_put(*run); /* a row read before the error */
		*run = NULL;
		return db_fail(c->app->db, e);
	}
	if (rc == 0)
		return err_set(e, ERR_NOT_FOUND, "Migration run not found.");
	if (*run == NULL)
		return err_set(e, ERR_INTERNAL, "The stored run did not read back as JSON.");
	return 0;
}

/* 404 when the caller has no such run, else 0 with its status in st. */
static int
status_of(struct ctx *c, const char *id, bool lock, char st[32], struct err *e)
{
	int rc = run_status(c->app->db, id, c->who->user_id, lock, st);

	if (rc < 0)
		return db_fail(c->app->db, e);
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

/* The list body {data, links, meta} of one page of a paginated list (data,
 * of n items): path and filter (a query prefix such as "status=failed&",
 * already encoded) make the links; total counts every row that matches.
 * Takes data. */
static json_object *
page_body(const struct ctx *c, const char *path, const char *filter, const struct args *a, int64_t total,
    json_object *data, int64_t n)
{
	int64_t last = total == 0 ? 1 : (total + a->per_page - 1) / a->per_page;
	int64_t offset = (a->page - 1) * a->per_page;
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
	int64_t total, offset = (a->page - 1) * a->per_page;
	char filter[128] = "";
	struct item_list runs;

	item_list_open(&runs);
	/* An empty page past the first is counted on its own. */
	if (runs_page(db, uid, a->status, a->provider, a->per_page, offset, &total, run_append, &runs) != 0 ||
	    (total < 0 && offset > 0 && runs_count(db, uid, a->status, a->provider, &total) != 0)) {
		json_object_put(item_list_close(&runs));
		return db_fail(db, e);
	}
	if (total < 0) /* an empty first page */
		total = 0;
	filter_add(filter, sizeof filter, "status", a->status);
	filter_add(filter, sizeof filter, "provider", a->provider);
	*out = page_body(c, "/api/v1/migrations", filter, a, total, item_list_close(&runs), runs.n);
	return 0;
}

/* Log entries written as text: the first max of the rows read (rows counts
 * them all). */
struct log_list {
	struct item_list list;
	int64_t max, rows;
};

static void
log_put(const struct log_row *r, void *arg)
{
	struct log_list *l = arg;
	struct printbuf *pb = l->list.pb;

	if (l->rows++ >= l->max)
		return;
	item_next(&l->list);
	jx_put_lit(pb, "{\"id\":");
	jx_put_int(pb, r->id);
	jx_put_lit(pb, ",\"level\":");
	jx_put_cstr(pb, r->level);
	jx_put_lit(pb, ",\"message\":");
	jx_put_cstr(pb, r->message);
	jx_put_lit(pb, ",\"context\":");
	jx_put_object(pb, r->context);
	jx_put_lit(pb, ",\"logged_at\":");
	jx_put_time(pb, r->logged_at);
	jx_put_lit(pb, "}");
}

/* The log entries from offset into l, the first max written: one more row is
 * read, so l->rows > max tells that a next page exists. 0 or -1 with e. */
static int
fetch_logs(struct db *db, const char *id, bool errors_only, int64_t max, int64_t offset, struct log_list *l,
    struct err *e)
{
	*l = (struct log_list){ .max = max };
	item_list_open(&l->list);
	if (run_logs(db, id, errors_only, max + 1, offset, log_put, l) != 0) {
		json_object_put(item_list_close(&l->list));
		return db_fail(db, e);
	}
	return 0;
}

#define STATUS_MAX 16 /* bound of resource_statuses and resource_actions for tallies */

/* The resource counts of a run per status (or action) into counts, and their
 * sum into *total, counted by the database. 0 or -1 (database error). */
struct tally {
	json_object *counts;
	int64_t total;
};

static void
tally_add(const char *status, int64_t n, void *arg)
{
	struct tally *t = arg;

	t->total += n;
	if (status != NULL)
		jx_add_int(t->counts, status, n);
}

static int
count_in_db(struct db *db, const char *id, json_object *counts, int64_t *total)
{
	struct tally t = { counts, 0 };
	int rc = resource_counts(db, id, tally_add, &t);

	*total = t.total;
	return rc;
}

/* The place of text t in the NULL-terminated list, or -1. */
static int
place_in(const char *const *list, const struct db_text *t)
{
	for (int k = 0; t->s != NULL && k < STATUS_MAX && list[k] != NULL; k++)
		if (strlen(list[k]) == t->len && memcmp(list[k], t->s, t->len) == 0)
			return k;
	return -1;
}

/* The resources of a run detail: the first DETAIL_MAX_RESOURCES written,
 * and counted per status, and per planned action of those not excluded,
 * while every row read has a known status. */
struct detail {
	struct item_list list;
	int64_t n[STATUS_MAX], acts[STATUS_MAX], rows;
	bool counted; /* every row was read and had a known status: n and acts hold the counts */
};

static void
detail_add(const struct resource_item *r, void *arg)
{
	struct detail *d = arg;
	int i = place_in(resource_statuses, &r->status), a = place_in(resource_actions, &r->action);

	if (i < 0 || ++d->rows > DETAIL_MAX_RESOURCES)
		d->counted = false;
	else {
		d->n[i]++;
		if (a >= 0 && strcmp(resource_statuses[i], "excluded") != 0)
			d->acts[a]++;
	}
	if (d->rows <= DETAIL_MAX_RESOURCES)
		resource_put(r, &d->list);
}

/* meta.action_counts: what the plan does with the resources not excluded,
 * per action, from d's counts or (a larger run) the database's. */
static json_object *
action_counts(struct db *db, const char *id, const struct detail *d)
{
	json_object *acts = json_object_new_object();
	struct tally t = { acts, 0 };

	for (size_t i = 0; i < STATUS_MAX && resource_actions[i] != NULL; i++)
		jx_add_int(acts, resource_actions[i], d->counted ? d->acts[i] : 0);
	if (!d->counted && planned_counts(db, id, tally_add, &t) != 0) {
		json_object_put(acts);
		return NULL;
	}
	return acts;
}

/* While a run is pending or discovering its resources are still being read. */
static bool
discovering(json_object *run)
{
	const char *st = json_object_get_string(json_object_object_get(run, "status"));

	return st == NULL || strcmp(st, "pending") == 0 || strcmp(st, "discovering") == 0;
}

static void
dropped_add(const char *type, const char *field, const char *reason, int64_t n, void *arg)
{
	json_object *e = json_object_new_object();

	jx_add_str(e, "resource_type", type);
	jx_add_str(e, "field", field);
	jx_add_str(e, "reason", reason);
	jx_add_int(e, "resources", n);
	json_object_array_add(arg, e);
}

int
h_get(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	json_object *run, *counts, *meta, *acts;
	struct detail d = { .counted = true };
	struct log_list logs;
	int64_t total = 0;
	int rc;

	if (load_run(c, false, a->id, &run, e) != 0)
		return -1;
	/* One row past the limit tells whether the rows read are all of them. */
	item_list_open(&d.list);
	d.list.import_paused = json_object_get_boolean(
	    json_object_object_get(json_object_object_get(run, "options"), "import_paused"));
	rc = run_resources(db, a->id, (int64_t)DETAIL_MAX_RESOURCES + 1, detail_add, &d);
	json_object_object_add(run, "resources", item_list_close(&d.list));
	if (rc < 0)
		goto fail;
	counts = json_object_new_object();
	for (size_t i = 0; i < STATUS_MAX && resource_statuses[i] != NULL; i++) {
		jx_add_int(counts, resource_statuses[i], d.counted ? d.n[i] : 0);
		total += d.n[i];
	}
	if (!d.counted && count_in_db(db, a->id, counts, &total) != 0) { /* a larger run */
		json_object_put(counts);
		goto fail;
	}
	/* The run's totals from the same counts, so the two always agree. */
	jx_add_int(run, "total_resources", total);
	jx_add_int(run, "failed_resources", json_object_get_int64(json_object_object_get(counts, "failed")));
	meta = json_object_new_object();
	json_object_object_add(meta, "resource_counts", counts);
	if ((acts = action_counts(db, a->id, &d)) == NULL) {
		json_object_put(meta);
		goto fail;
	}
	json_object_object_add(meta, "action_counts", acts);
	/* once discovery is over: what will not carry over, field by field */
	if (!discovering(run)) {
		json_object *dropped = json_object_new_array();
		json_object_object_add(meta, "dropped", dropped);
		if (dropped_summary(db, a->id, dropped_add, dropped) != 0) {
			json_object_put(meta);
			goto fail;
		}
	}
	if (a->embed_logs > 0) {
		if (fetch_logs(db, a->id, false, a->embed_logs, 0, &logs, e) != 0) {
			json_object_put(meta);
			json_object_put(run);
			return -1;
		}
		json_object_object_add(run, "logs", item_list_close(&logs.list));
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
	struct log_list logs;
	json_object *links, *meta;

	if (status_of(c, a->id, false, st, e) != 0)
		return -1;
	if (fetch_logs(c->app->db, a->id, a->errors_only, a->per_page, (a->page - 1) * a->per_page, &logs,
	        e) != 0)
		return -1;
	snprintf(path, sizeof path, "/api/v1/migrations/%s/logs", a->id);
	links = json_object_new_object();
	for (int i = 0; i < 2; i++) {
		bool on = i == 0 ? a->page > 1 : logs.rows > a->per_page;
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
	json_object_object_add(*out, "data", item_list_close(&logs.list));
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
	n = run_insert(db, id, c->who->user_id, a->provider, initial_stats,
	    run_options_text(a->options.import_paused), sealed, sealed_len, seal_key_id(c->app->key));
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
	if (load_run(c, true, id, &run, e) != 0)
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

	if ((n = run_execute(db, a->id, c->who->user_id)) < 0)
		return db_fail(db, e);
	if (n == 0) {
		if (status_of(c, a->id, false, st, e) != 0)
			return -1;
		if (strcmp(st, "awaiting_review") == 0) /* a bulk job is at work (ST_RUN_EXECUTE) */
			return err_set(e, ERR_CONFLICT,
			    "Resources of the run are still being excluded or included; execute it once the run log "
			    "says that is done.");
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
	char st[32], msg[96], payload[96];
	int64_t n;
	uint64_t last;

	if (status_of(c, a->id, true, st, e) != 0)
		return -1;
	if (strcmp(st, "cancelled") == 0)
		return err_set(e, ERR_RUN_CANCELLED, "The run was cancelled; nothing can be retried.");
	if (strcmp(st, "reverting") == 0 || strcmp(st, "reverted") == 0)
		return err_set(e, ERR_CONFLICT,
		    "The run is %s: its imports are undone, nothing can be retried.", st);
	/* The request counts the failed resources and queues one job; the runner
	 * sets them pending RETRY_BATCH a transaction and then queues their import
	 * (runner/resources.c), so that however many failed, no transaction writes
	 * them all (db/bounds.h). */
	if (failed_span(db, a->id, &n, &last) != 0)
		return db_fail(db, e);
	if (n == 0)
		return err_set(e, ERR_NO_FAILED_RESOURCES, NULL);
	/* executing again (from executing, completed_with_errors or failed); in a
	 * state before execute the job only sets them pending, for execute */
	if (run_retry_failed(db, a->id) < 0)
		return db_fail(db, e);
	snprintf(payload, sizeof payload, QUEUE_RETRY_PAYLOAD "{\"after\":0,\"last\":%llu,\"done\":0}}",
	    (unsigned long long)last);
	if (queue_push(db, QUEUE_RESOURCES, a->id, 0, payload, e) != 0)
		return -1;
	ctxo = json_object_new_object();
	jx_add_int(ctxo, "retried", n);
	snprintf(msg, sizeof msg, "Retrying %lld failed resource%s.", (long long)n, n == 1 ? "" : "s");
	if (runlog_add(db, a->id, "info", msg, ctxo, e) != 0) {
		json_object_put(ctxo);
		return -1;
	}
	json_object_put(ctxo);
	if (status_of(c, a->id, false, st, e) != 0)
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
		if (status_of(c, a->id, false, st, e) != 0)
			return -1;
		return err_set(e, ERR_CONFIRM_REQUIRED, NULL);
	}
	if ((n = status_of(c, a->id, true, st, e)) != 0)
		return -1;
	/* A small run goes at once; a larger one is hidden now and the runner deletes
	 * its rows CLEANUP_BATCH a transaction (db/bounds.h). */
	if (run_size_upto(db, a->id, (int64_t)DELETE_INLINE_MAX + 1, &size) != 0)
		return db_fail(db, e);
	if (size <= DELETE_INLINE_MAX)
		n = run_delete(db, a->id, c->who->user_id, (int64_t)DELETE_INLINE_MAX);
	else if ((n = run_mark_deleted(db, a->id, c->who->user_id)) > 0 &&
	    (run_jobs_drop(db, a->id, JOBS_DROP_MAX) < 0 ||
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

	if ((n = run_cancel(db, a->id, c->who->user_id)) < 0)
		return db_fail(db, e);
	if (n == 0) {
		if (status_of(c, a->id, false, st, e) != 0)
			return -1;
		return err_set(e, ERR_RUN_NOT_CANCELLABLE, "The run is %s and can no longer be cancelled.",
		    st);
	}
	/* At most JOBS_DROP_MAX: a runner drops any other when it claims it (the run moved on). */
	if (run_jobs_drop(db, a->id, JOBS_DROP_MAX) < 0)
		return db_fail(db, e);
	if (runlog_add(db, a->id, "warning", "Run cancelled; queued work dropped.", NULL, e) != 0)
		return -1;
	if (load_run(c, true, a->id, &run, e) != 0)
		return -1;
	*out = json_object_new_object();
	jx_add_str(*out, "message", "Migration run cancelled.");
	json_object_object_add(*out, "data", run);
	return 0;
}

int
h_revert(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	json_object *ctxo;
	char st[32], msg[160];
	int64_t n, objects = 0;

	if (!a->confirm) {
		if (status_of(c, a->id, false, st, e) != 0)
			return -1;
		return err_set(e, ERR_CONFIRM_REQUIRED, "Set confirm to true to revert the run.");
	}
	if ((n = run_revert(db, a->id, c->who->user_id)) < 0)
		return db_fail(db, e);
	if (n == 0) {
		if (status_of(c, a->id, false, st, e) != 0)
			return -1;
		if (strcmp(st, "reverting") == 0 || strcmp(st, "reverted") == 0)
			return err_set(e, ERR_RUN_NOT_REVERTIBLE, "The run is %s already.", st);
		if (!run_transition_ok(st, "reverting"))
			return err_set(e, ERR_RUN_NOT_REVERTIBLE,
			    "The run is %s: only a completed, failed or cancelled run can be reverted.", st);
		if ((n = run_unrecorded(db, a->id)) < 0)
			return db_fail(db, e);
		if (n > 0)
			return err_set(e, ERR_RUN_NOT_REVERTIBLE,
			    "The run imported before this version kept what an undo needs: it cannot be reverted.");
		return err_set(e, ERR_RUN_NOT_REVERTIBLE,
		    "The run failed before it wrote anything into your account: there is nothing to revert.");
	}
	if (run_written_count(db, a->id, &objects) != 0)
		return db_fail(db, e);
	if (queue_push(db, QUEUE_REVERT, a->id, 0, NULL, e) != 0)
		return -1;
	snprintf(msg, sizeof msg, "Reverting: %lld object%s the run wrote will be deleted or put back.",
	    (long long)objects, objects == 1 ? "" : "s");
	ctxo = json_object_new_object();
	jx_add_int(ctxo, "objects", objects);
	jx_add_str(ctxo, "via", a->via);
	if (runlog_add(db, a->id, "info", msg, ctxo, e) != 0) {
		json_object_put(ctxo);
		return -1;
	}
	json_object_put(ctxo);
	*out = ack(msg, a->id, "reverting");
	return 0;
}

/* 409 while a bulk change of the run (below) is under way: a selection or
 * resolution made meanwhile could be undone by it. 0 or -1 with e. */
static int
no_bulk_job(struct db *db, const char *run, struct err *e)
{
	int rc = bulk_job_of_run(db, run);

	if (rc < 0)
		return db_fail(db, e);
	if (rc > 0)
		return err_set(e, ERR_CONFLICT,
		    "A change of many resources of the run is still under way; try again once the run log says "
		    "it is done.");
	return 0;
}

/* A bulk change of more than BULK_INLINE_MAX resources (db/bounds.h): the
 * runner makes it, BULK_BATCH a transaction (runner/resources.c), from spec
 * (op and what to set or match; taken). The run log says it is under way
 * ("<doing> n resources.") and, at its end, what was done. 0 or -1 with e. */
static int
bulk_later(struct db *db, const char *run, json_object *spec, const char *doing, int64_t n, struct err *e)
{
	char *payload, msg[160];
	json_object *ctxo;
	int rc;

	jx_add_int(spec, "n", n);
	jx_add_int(spec, "done", 0);
	payload = xasprintf(QUEUE_BULK_PAYLOAD "%s}", jx_text(spec));
	json_object_put(spec);
	rc = queue_push(db, QUEUE_RESOURCES, run, 0, payload, e);
	free(payload);
	if (rc != 0)
		return -1;
	snprintf(msg, sizeof msg, "%s %lld resources, %d at a time; the log says when it is done.", doing,
	    (long long)n, BULK_BATCH);
	ctxo = json_object_new_object();
	jx_add_int(ctxo, "resources", n);
	rc = runlog_add(db, run, "info", msg, ctxo, e);
	json_object_put(ctxo);
	return rc;
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
		if ((n = resource_in_run(db, a->id, a->ids.v[i])) < 0)
			return db_fail(db, e);
		if (n == 0)
			return err_field(e, "resource_ids", "Resource %llu is not a resource of this run.",
			    (unsigned long long)a->ids.v[i]);
	}
	if (a->ids.v == NULL) {
		if ((n = conflicts_resolve_all(db, a->id, a->strategy, action, status, reason)) < 0)
			return db_fail(db, e);
		*resolved = n;
	} else {
		for (size_t i = 0; i < a->ids.n; i++) {
			n = conflicts_resolve(db, a->id, a->ids.v[i], a->strategy, action, status, reason);
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

	if (status_of(c, a->id, true, st, e) != 0)
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
	if (no_bulk_job(db, a->id, e) != 0)
		return -1;
	if (a->ids.v == NULL) {
		if (conflicts_count(db, a->id, &n) != 0)
			return db_fail(db, e);
		if (n > BULK_INLINE_MAX) {
			json_object *spec = json_object_new_object();
			jx_add_str(spec, "op", "resolve");
			jx_add_str(spec, "resolution", a->strategy);
			jx_add_str(spec, "action", action);
			jx_add_str(spec, "set_status", status);
			jx_add_str(spec, "reason", reason);
			if (bulk_later(db, a->id, spec, "Resolving the conflicts of", n, e) != 0)
				return -1;
			snprintf(msg, sizeof msg, "Resolving %lld conflicts with strategy %s.", (long long)n,
			    a->strategy);
			*out = ack(msg, a->id, st);
			jx_add_int(*out, "resolved", n);
			return 0;
		}
	}
	if (resolve_rows(db, a, action, status, reason, &resolved, e) != 0)
		return -1;
	if (run_resume_review(db, a->id) < 0)
		return db_fail(db, e);
	if (status_of(c, a->id, false, st, e) != 0)
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

/* The LIKE pattern of q, a substring of a resource's name (its wildcards
 * escaped; malloc'd), or NULL without q. */
static char *
like_of(const char *q)
{
	size_t n = 0;
	char *like;

	if (q == NULL)
		return NULL;
	like = xmalloc(2 * strlen(q) + 3);
	like[n++] = '%';
	for (const char *p = q; *p; p++) {
		if (*p == '%' || *p == '_' || *p == '\\')
			like[n++] = '\\';
		like[n++] = *p;
	}
	like[n++] = '%';
	like[n] = '\0';
	return like;
}

int
h_resources(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	/* the longest filter: q's 100 characters, 4 bytes each, 3 to a byte once
	 * encoded (1,200), and the other filters' names and values */
	char path[80], filter[1536] = "", *like = like_of(a->q);
	struct resource_filter f = { a->status, a->resource_type, a->action, like };
	struct item_list list;
	int64_t total = 0;
	int rc;

	item_list_open(&list);
	rc = run_paused_option(db, a->id, c->who->user_id, &list.import_paused);
	if (rc == 0)
		rc = resources_page(db, a->id, c->who->user_id, &f, a->per_page, (a->page - 1) * a->per_page,
		    &total, resource_put, &list);
	free(like);
	if (rc <= 0) {
		json_object_put(item_list_close(&list));
		return rc == 0 ? err_set(e, ERR_NOT_FOUND, "Migration run not found.") : db_fail(db, e);
	}
	snprintf(path, sizeof path, "/api/v1/migrations/%s/resources", a->id);
	filter_add(filter, sizeof filter, "status", a->status);
	filter_add(filter, sizeof filter, "resource_type", a->resource_type);
	filter_add(filter, sizeof filter, "action", a->action);
	filter_add(filter, sizeof filter, "q", a->q);
	*out = page_body(c, path, filter, a, total, item_list_close(&list), list.n);
	return 0;
}

/* Exclude or include the resources a->ids of a run awaiting review, or
 * every one its filters (status, resource_type, action, q) match. */
static int
select_resources(struct ctx *c, const struct args *a, bool exclude, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	bool filtered = a->status != NULL || a->resource_type != NULL || a->action != NULL || a->q != NULL;
	json_object *ctxo;
	char st[32], msg[128];
	int64_t n, changed = 0;

	if (a->ids.v == NULL && !filtered)
		return err_field(e, "ids",
		    "Give the ids of the resources, or filters (status, resource_type, action, "
		    "q) that select them.");
	if (a->ids.v != NULL && filtered)
		return err_field(e, "ids", "Give either ids or filters, not both.");
	if (status_of(c, a->id, true, st, e) != 0)
		return -1;
	if (strcmp(st, "awaiting_review") != 0)
		return err_set(e, ERR_RUN_NOT_AWAITING_REVIEW,
		    "The run is %s; resources can only be %s while it "
		    "awaits review.",
		    st, exclude ? "excluded" : "included");
	if (no_bulk_job(db, a->id, e) != 0)
		return -1;
	if (filtered) {
		char *like = like_of(a->q);
		struct resource_filter f = { a->status, a->resource_type, a->action, like };

		if (resources_matching_count(db, a->id, &f, exclude, &n) != 0)
			changed = -1;
		else if (n > BULK_INLINE_MAX) {
			json_object *spec = json_object_new_object();
			jx_add_str(spec, "op", exclude ? "exclude" : "include");
			jx_add_str(spec, "status", f.status);
			jx_add_str(spec, "type", f.type);
			jx_add_str(spec, "action", f.action);
			jx_add_str(spec, "like", f.like);
			free(like);
			if (bulk_later(db, a->id, spec, exclude ? "Excluding" : "Including", n, e) != 0)
				return -1;
			snprintf(msg, sizeof msg, "%s %lld resources.", exclude ? "Excluding" : "Including",
			    (long long)n);
			*out = ack(msg, a->id, st);
			jx_add_int(*out, "changed", n);
			return 0;
		} else
			changed = resources_exclude_matching(db, a->id, &f, exclude);
		free(like);
		if (changed < 0)
			return db_fail(db, e);
	}
	for (size_t i = 0; i < a->ids.n; i++) {
		if ((n = resource_in_run(db, a->id, a->ids.v[i])) < 0)
			return db_fail(db, e);
		if (n == 0)
			return err_field(e, "ids", "Resource %llu is not a resource of this run.",
			    (unsigned long long)a->ids.v[i]);
	}
	for (size_t i = 0; i < a->ids.n; i++) {
		if ((n = resource_exclude(db, a->id, a->ids.v[i], exclude)) < 0)
			return db_fail(db, e);
		changed += n;
	}
	snprintf(msg, sizeof msg, "%s %lld resource%s.", exclude ? "Excluded" : "Included",
	    (long long)changed, changed == 1 ? "" : "s");
	ctxo = json_object_new_object();
	jx_add_int(ctxo, exclude ? "excluded" : "included", changed);
	n = runlog_add(db, a->id, "info", msg, ctxo, e);
	json_object_put(ctxo);
	if (n != 0 || (exclude && changed > 0 && runlog_lost_links(db, a->id, e) != 0))
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

/* ---- the report of a run (docs/review.md, "After the run") ---- */

#define REPORT_BATCH 1000 /* resources read a statement */

struct report {
	const char *provider; /* as people write it */
	int64_t created, updated, skipped, failed, excluded, not_done, last;
	json_object *todo;    /* [{resource_id, resource_type, name, account_id, task, say}] */
	struct printbuf *csv; /* format=csv: the rows so far */
};

/* A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break;
 * a text a spreadsheet would read as a formula (=, +, -, @ first) starts
 * with a quote mark, so that no provider's text runs as one. */
static void
csv_cell(struct printbuf *pb, const char *s, bool last)
{
	bool quote = s != NULL && strpbrk(s, ",\"\r\n") != NULL;

	if (quote)
		printbuf_strappend(pb, "\"");
	if (s != NULL && strchr("=+-@\t", s[0]) != NULL && s[0] != '\0')
		printbuf_strappend(pb, "'");
	for (const char *p = s; p != NULL && *p; p++)
		if (*p == '"')
			printbuf_strappend(pb, "\"\"");
		else
			printbuf_memappend(pb, p, 1);
	if (quote)
		printbuf_strappend(pb, "\"");
	if (last)
		printbuf_strappend(pb, "\r\n");
	else
		printbuf_strappend(pb, ",");
}

static void
todo_add(struct report *rp, const struct report_row *r, const char *task, const char *say, char *all,
    size_t n)
{
	json_object *t = json_object_new_object();
	size_t at = strlen(all);

	jx_add_int(t, "resource_id", r->id);
	jx_add_str(t, "resource_type", r->type);
	jx_add_str(t, "name", r->name);
	json_object_object_add(t, "account_id", r->target_id ? json_object_new_int64(r->target_id) : NULL);
	jx_add_str(t, "task", task);
	jx_add_str(t, "say", say);
	json_object_array_add(rp->todo, t);
	if (at < n - 1)
		utf8_format(all + at, n - at, "%s%s", at ? " / " : "", say);
}

/* What is left to do about one resource, by its outcome and kind, into the
 * report's to-do list; all[n] gets the texts for its CSV row. */
static void
todo_of(struct report *rp, const struct report_row *r, const char *outcome, char *all, size_t n)
{
	const char *name = r->name ? r->name : r->external_id;
	bool done = strcmp(outcome, "created") == 0 || strcmp(outcome, "updated") == 0;
	char say[1024];
	int ok;

	if (done && strcmp(r->type, "heartbeat") == 0) {
		utf8_format(say, sizeof say,
		    "Point the job that pings \"%s\" at its new check, heartbeat no. %lld in your account; until then "
		    "%s gets its pings.",
		    name, (long long)r->target_id, rp->provider);
		todo_add(rp, r, "ping", say, all, n);
	}
	if (done && r->needs_address) {
		utf8_format(say, sizeof say,
		    "Add where \"%s\" sends: %s does not show it, and until it is added it alerts nobody.",
		    name, rp->provider);
		todo_add(rp, r, "add_address", say, all, n);
	}
	if (done && r->dropped != NULL) {
		json_object *d = jx_parse(r->dropped, strlen(r->dropped), &ok);
		for (size_t i = 0; json_object_is_type(d, json_type_array) && i < json_object_array_length(d);
		     i++) {
			json_object *f = json_object_array_get_idx(d, i);
			if (!json_object_get_boolean(json_object_object_get(f, "enter_again")))
				continue;
			utf8_format(say, sizeof say, "Enter %s of \"%s\" again: %s",
			    json_object_get_string(json_object_object_get(f, "field")), name,
			    json_object_get_string(json_object_object_get(f, "reason")));
			todo_add(rp, r, "enter_again", say, all, n);
		}
		json_object_put(d);
	}
	if (strcmp(outcome, "skipped") == 0) {
		utf8_format(say, sizeof say, "Not imported (%s); add it by hand if you need it.",
		    r->reason ? r->reason : "skipped");
		todo_add(rp, r, "add_by_hand", say, all, n);
	}
	if (strcmp(outcome, "failed") == 0) {
		utf8_format(say, sizeof say,
		    "The import failed (%s); retry the failed resources, or add it by hand.",
		    r->error_message ? r->error_message : "no reason given");
		todo_add(rp, r, "retry", say, all, n);
	}
}

static void
report_add(const struct report_row *r, void *arg)
{
	struct report *rp = arg;
	const char *st = r->status ? r->status : "";
	const char *outcome = strcmp(st, "imported") == 0 ?
	    (r->action && strcmp(r->action, "update") == 0 ? "updated" : "created") :
	    strcmp(st, "skipped") == 0  ? "skipped" :
	    strcmp(st, "failed") == 0   ? "failed" :
	    strcmp(st, "excluded") == 0 ? "excluded" :
	                                  "not_done";
	char all[4096] = "", id[24], target[24];

	rp->last = r->id;
	*(strcmp(outcome, "created") == 0        ? &rp->created :
	        strcmp(outcome, "updated") == 0  ? &rp->updated :
	        strcmp(outcome, "skipped") == 0  ? &rp->skipped :
	        strcmp(outcome, "failed") == 0   ? &rp->failed :
	        strcmp(outcome, "excluded") == 0 ? &rp->excluded :
	                                           &rp->not_done) += 1;
	todo_of(rp, r, outcome, all, sizeof all);
	if (rp->csv == NULL)
		return;
	snprintf(id, sizeof id, "%lld", (long long)r->id);
	snprintf(target, sizeof target, "%lld", (long long)r->target_id);
	csv_cell(rp->csv, id, false);
	csv_cell(rp->csv, r->type, false);
	csv_cell(rp->csv, r->external_id, false);
	csv_cell(rp->csv, r->name, false);
	csv_cell(rp->csv, outcome, false);
	csv_cell(rp->csv, r->target_id ? target : "", false);
	csv_cell(rp->csv, all, true);
}

int
h_report(struct ctx *c, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	const struct provider_def *def;
	struct report rp = { .todo = json_object_new_array() };
	json_object *run, *d, *o;
	int n;

	if (load_run(c, false, a->id, &run, e) != 0) {
		json_object_put(rp.todo);
		return -1;
	}
	def = provider_find(jx_str(run, "provider"));
	rp.provider = def ? def->name : "the provider";
	if (a->format != NULL && strcmp(a->format, "csv") == 0) {
		rp.csv = printbuf_new();
		printbuf_strappend(rp.csv,
		    "resource_id,resource_type,external_id,name,outcome,account_id,to_do\r\n");
	}
	do {
		if ((n = report_rows(db, a->id, rp.last, REPORT_BATCH, report_add, &rp)) < 0) {
			json_object_put(rp.todo);
			json_object_put(run);
			if (rp.csv)
				printbuf_free(rp.csv);
			return db_fail(db, e);
		}
	} while (n == REPORT_BATCH);
	*out = json_object_new_object();
	if (rp.csv != NULL) {
		json_object_object_add(*out, "csv", json_object_new_string_len(rp.csv->buf, rp.csv->bpos));
		printbuf_free(rp.csv);
		json_object_put(rp.todo);
		json_object_put(run);
		return 0;
	}
	d = json_object_new_object();
	jx_add_str(d, "id", a->id);
	jx_add_str(d, "provider", jx_str(run, "provider"));
	jx_add_str(d, "status", jx_str(run, "status"));
	json_object_object_add(d, "finished_at", json_object_get(json_object_object_get(run, "finished_at")));
	o = json_object_new_object();
	jx_add_int(o, "created", rp.created);
	jx_add_int(o, "updated", rp.updated);
	jx_add_int(o, "skipped", rp.skipped);
	jx_add_int(o, "failed", rp.failed);
	jx_add_int(o, "excluded", rp.excluded);
	jx_add_int(o, "not_done", rp.not_done);
	json_object_object_add(d, "outcomes", o);
	json_object_object_add(d, "todo", rp.todo);
	json_object_object_add(*out, "data", d);
	json_object_put(run);
	return 0;
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
