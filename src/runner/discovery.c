/* Discovery jobs: page through the provider from the run's checkpoint. Each
 * page's resources and the next cursor are saved in one transaction, so a
 * runner killed anywhere resumes exactly there: a page saved twice is the
 * same rows (upsert on run, type, external id), a page never saved is
 * fetched again. At most two pages are in memory: the one being saved and
 * the next, fetched meanwhile (struct prefetch).
 *
 * Page cap: the pages read in a row from one list (a phase: the cursor's text
 * before its first ':', e.g. "monitors" of "monitors:50") are counted here,
 * for every provider, and kept in the job's payload with each saved page, so
 * the count survives steps and killed runners. A list that would go past
 * [limits] max_pages fails the run before that page is asked for.
 *
 * Rate limits (docs/runner.md): the session paces requests and waits out
 * refusals while the step has time (prov_http); a longer wait releases the
 * job with the wait as its delay (its available_at, which every runner's
 * claim honours), and the run's stats ("waiting") and log say until when.
 * The provider's refusals in a row are kept in the payload beside the page
 * count, so [limits] provider_wait_max counts them across steps and
 * runners. */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "crypto/seal.h"
#include "db/queue_rows.h"
#include "db/bounds.h"
#include "db/runner_rows.h"
#include "importers/importer.h"
#include "providers/common.h"
#include "providers/fields.h"
#include "providers/provider.h"
#include "runner/rules.h"
#include "runner/runner.h"

#define WARNINGS_PER_PAGE 10

/* Pages read in a row from the list named phase. */
struct page_count {
	char phase[PROV_MAX_CURSOR + 1];
	int64_t pages;
};

struct disc {
	struct job *job;
	const struct provider_def *def;
	struct prov_session *s;    /* once open */
	const char *cursor;        /* the cursor the page was fetched with (NULL: start) */
	struct page *page;         /* being saved */
	size_t saved;              /* the page's items saved by slices of their own (save_slice) */
	bool moved_on;             /* the run is no longer discovering (cancelled, …) */
	bool finished;             /* discovery ended with this page */
	bool over_limit;           /* the run holds more than [limits] max_resources */
	int64_t resources;         /* total so far (exact at the end) */
	const char *error_message; /* to fail the run with */
	const char *reason;        /* auth|fatal|rate_limited|transient|… for the log */
	int attempts;
	int64_t delay_ms;
	char log_message[512];
	struct page_count count;   /* as last committed */
	struct page_count counted; /* with the page being saved */
	uint64_t user;             /* the run's owner */
	int refusals;              /* the provider's refusals in a row (prov_pace), as the */
	int64_t refused_since;     /* payload keeps them; refused_since ms since the epoch */
};

static bool
same_cursor(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* The list a cursor reads: its text before the first ':' ("" for NULL). */
static void
cursor_phase(const char *cursor, char out[PROV_MAX_CURSOR + 1])
{
	size_t n = cursor != NULL ? strcspn(cursor, ":") : 0;

	if (n > PROV_MAX_CURSOR)
		n = PROV_MAX_CURSOR;
	memcpy(out, cursor != NULL ? cursor : "", n);
	out[n] = '\0';
}

/* The job's payload {"phase":…,"pages":n,"refusals":n,"refused_since":ms}
 * into d (what is absent or not that: none). */
static void
payload_load(const char *payload, struct disc *d)
{
	json_object *o, *phase, *pages, *v;
	int ok;

	memset(&d->count, 0, sizeof d->count);
	o = payload != NULL ? jx_parse(payload, strlen(payload), &ok) : NULL;
	if (json_object_object_get_ex(o, "phase", &phase) && json_object_is_type(phase, json_type_string) &&
	    json_object_object_get_ex(o, "pages", &pages) && json_object_is_type(pages, json_type_int) &&
	    (size_t)json_object_get_string_len(phase) <= PROV_MAX_CURSOR) {
		utf8_copy(d->count.phase, sizeof d->count.phase, json_object_get_string(phase));
		d->count.pages = json_object_get_int64(pages);
	}
	d->refusals = json_object_object_get_ex(o, "refusals", &v) && json_object_is_type(v, json_type_int) ?
	    json_object_get_int(v) :
	    0;
	d->refused_since =
	    json_object_object_get_ex(o, "refused_since", &v) && json_object_is_type(v, json_type_int) ?
	    json_object_get_int64(v) :
	    0;
	if (d->refusals < 0 || d->refused_since <= 0)
		d->refusals = 0, d->refused_since = 0;
	json_object_put(o);
}

/* The payload for count c and d's refusals (caller frees). */
static char *
payload_text(const struct disc *d, const struct page_count *c)
{
	json_object *o = json_object_new_object();
	char *text;

	jx_add_str(o, "phase", c->phase);
	jx_add_int(o, "pages", c->pages);
	if (d->refusals > 0) {
		jx_add_int(o, "refusals", d->refusals);
		jx_add_int(o, "refused_since", d->refused_since);
	}
	text = xstrdup(jx_text(o));
	json_object_put(o);
	return text;
}

/* The session's refusals in a row into d, for the payload. Only while no
 * prefetch is running (it uses the session). */
static void
refusals_take(struct disc *d)
{
	if (d->s != NULL) {
		d->refusals = d->s->pace.refusals;
		d->refused_since = d->s->pace.refused_since;
	}
}

/* Release the job with delay_ms, d->attempts and the payload of what is
 * committed. */
static void
release(struct runner *r, struct disc *d, int64_t delay_ms)
{
	char *payload = payload_text(d, &d->count);

	queue_release(r->db, d->job, delay_ms, d->attempts, payload);
	free(payload);
}

/* The count after a page read with cursor that gave next. The first page
 * (no cursor) counts toward the list its next cursor reads. */
static void
count_page(const struct page_count *old, const char *cursor, const char *next, struct page_count *out)
{
	char phase[PROV_MAX_CURSOR + 1];

	cursor_phase(cursor != NULL ? cursor : next, phase);
	if (cursor != NULL && strcmp(phase, old->phase) == 0) {
		*out = *old;
		out->pages++;
		return;
	}
	memcpy(out->phase, phase, sizeof out->phase);
	out->pages = 1;
}

/* "5 monitors, 1 contact, 2 maintenance windows" (the counts of a stats
 * text, in people's words) into out[n], and their sum into *total. */
static void
describe_discovered(const char *stats_text, char *out, size_t n, int64_t *total)
{
	json_object *stats, *disc;
	size_t len = 0;
	int ok;

	*total = 0;
	out[0] = '\0';
	stats = stats_text ? jx_parse(stats_text, strlen(stats_text), &ok) : NULL;
	if (stats == NULL || !json_object_object_get_ex(stats, "discovered", &disc)) {
		json_object_put(stats);
		return;
	}
	json_object_object_foreach (disc, k, v) {
		int64_t c = json_object_get_int64(v);
		*total += c;
		if (c > 0 && len < n)
			len += (size_t)snprintf(out + len, n - len, "%s%lld %s%s", len ? ", " : "",
			    (long long)c, importer_noun(k), c == 1 ? "" : "s");
	}
	json_object_put(stats);
}

/* The run's stats with the page's resources added to "discovered", so a
 * reader sees discovery advance (the last page recounts them exactly); *total
 * gets their sum. */
static char *
stats_count_page(const char *old_text, const struct prov_page *p, int64_t *total)
{
	json_object *old = NULL, *disc = json_object_new_object(), *prev, *stats;
	char *text;
	int ok;

	if (old_text != NULL)
		old = jx_parse(old_text, strlen(old_text), &ok);
	if (json_object_object_get_ex(old, "discovered", &prev) &&
	    json_object_is_type(prev, json_type_object)) {
		json_object_object_foreach (prev, k, v)
			jx_add_int(disc, k, json_object_get_int64(v));
	}
	json_object_put(old);
	for (size_t i = 0; i < p->n; i++) {
		json_object *v;
		int64_t n = json_object_object_get_ex(disc, p->items[i].resource_type, &v) ?
		    json_object_get_int64(v) :
		    0;
		jx_add_int(disc, p->items[i].resource_type, n + 1);
	}
	*total = 0;
	{
		json_object_object_foreach (disc, k, v) {
			(void)k;
			*total += json_object_get_int64(v);
		}
	}
	stats = stats_compose(old_text, disc, NULL, 0, 0, 0, 0.0);
	text = xstrdup(jx_text(stats));
	json_object_put(stats);
	return text;
}

/* The secrets of norm (prov_seal_keys) sealed for the account of user: each
 * "<key>" becomes "<key>_sealed", the base64 of the sealed blob, with the
 * associated data "monitor-auth:<user>" (sql/017_alerting.sql), so that
 * neither the stored resource nor the account holds it in clear. seal_same:
 * an unchanged secret is the same text at every run, so that a re-import
 * leaves it as it was. */
static void
seal_secrets(const struct runner *r, uint64_t user, json_object *norm)
{
	char ad[48], key[64];

	snprintf(ad, sizeof ad, "monitor-auth:%" PRIu64, user);
	for (size_t i = 0; prov_seal_keys[i] != NULL; i++) {
		json_object *v;
		unsigned char *blob;
		size_t n;

		if (!json_object_object_get_ex(norm, prov_seal_keys[i], &v) ||
		    !json_object_is_type(v, json_type_string))
			continue;
		snprintf(key, sizeof key, "%s_sealed", prov_seal_keys[i]);
		if (seal_same(r->key, ad, json_object_get_string(v), (size_t)json_object_get_string_len(v),
		        &blob, &n) == 0) {
			size_t len = sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_ORIGINAL);
			char *b64 = xmalloc(len);
			sodium_bin2base64(b64, len, blob, n, sodium_base64_VARIANT_ORIGINAL);
			json_object_object_add(norm, key, json_object_new_string(b64));
			free(b64);
			free(blob);
		}
		jx_wipe_strings(v);
		json_object_object_del(norm, prov_seal_keys[i]);
	}
}

/* A fetched page with the texts of save_items' two statements for each
 * slice of DISCOVERY_SAVE_BATCH of its items (keys[k]: their keys and names;
 * rows[k]: the same with their data, resources_upsert_rows), made by the
 * thread that fetched it (page_texts), so that the thread that saves pages
 * only sends them while the next page is fetched. */
struct page {
	struct prov_page p;
	size_t nslices;
	char **keys, **rows;
};

/* Items from..to-1 of p as save_items sends them: *keys their keys and
 * names, *rows the same with their data and what of it does not carry over
 * by the provider's field table (none: null), their secrets sealed. */
static void
slice_texts(const struct runner *r, uint64_t user, const struct provider_def *def, const struct prov_page *p,
    size_t from, size_t to, char **keys_text, char **rows_text)
{
	json_object *rows = json_object_new_array_ext((int)(to - from));
	json_object *keys = json_object_new_array_ext((int)(to - from));
	char name[256];

	for (size_t i = from; i < to; i++) {
		const struct prov_item *it = &p->items[i];
		const struct prov_fields *fields = prov_fields_of(def->fields, it->resource_type);
		json_object *row = json_object_new_array_ext(6), *key = json_object_new_array_ext(3);
		if (it->norm != NULL)
			seal_secrets(r, user, it->norm);
		importer_label(it->resource_type, it->norm, name, sizeof name);
		json_object_array_add(row, json_object_new_string(it->resource_type));
		json_object_array_add(row, json_object_new_string(it->external_id));
		json_object_array_add(row, name[0] ? json_object_new_string(name) : NULL);
		json_object_array_add(row, json_object_get(it->raw));
		json_object_array_add(row, it->norm ? json_object_get(it->norm) : json_object_new_object());
		json_object_array_add(row, fields ? prov_dropped(fields, it->raw) : NULL);
		json_object_array_add(rows, row);
		for (size_t k = 0; k < 3; k++)
			json_object_array_add(key, json_object_get(json_object_array_get_idx(row, k)));
		json_object_array_add(keys, key);
	}
	*keys_text = xstrdup(jx_text(keys));
	*rows_text = xstrdup(jx_text(rows));
	json_object_put(keys);
	json_object_put(rows);
}

/* pg's texts, a slice of DISCOVERY_SAVE_BATCH items at a time. */
static void
page_texts(const struct runner *r, uint64_t user, const struct provider_def *def, struct page *pg)
{
	size_t n = pg->p.n;

	pg->nslices = (n + DISCOVERY_SAVE_BATCH - 1) / DISCOVERY_SAVE_BATCH;
	pg->keys = xcalloc(pg->nslices, sizeof *pg->keys);
	pg->rows = xcalloc(pg->nslices, sizeof *pg->rows);
	for (size_t k = 0; k < pg->nslices; k++) {
		size_t from = k * DISCOVERY_SAVE_BATCH;
		slice_texts(r, user, def, &pg->p, from,
		    n - from > DISCOVERY_SAVE_BATCH ? from + DISCOVERY_SAVE_BATCH : n, &pg->keys[k],
		    &pg->rows[k]);
	}
}

static void
page_free(struct page *pg)
{
	for (size_t k = 0; k < pg->nslices; k++) {
		free(pg->keys[k]);
		free(pg->rows[k]);
	}
	free(pg->keys);
	free(pg->rows);
	prov_page_free(&pg->p);
	memset(pg, 0, sizeof *pg);
}

/* The page's slice that begins at its item from (page_texts). 0 or -1. */
static int
save_items(struct runner *r, const struct disc *d, size_t from)
{
	size_t k = from / DISCOVERY_SAVE_BATCH;

	if (k >= d->page->nslices)
		return 0;
	return resources_upsert_rows(r->db, d->job->run_id, d->page->keys[k], d->page->rows[k]) < 0 ? -1 : 0;
}

/* Inside save_page's transaction: the page count, with the checkpoint it
 * counts to, into the job's payload. Rows changed, or -1. */
static int64_t
save_count(struct runner *r, struct disc *d)
{
	char *payload;
	int64_t n;

	count_page(&d->count, d->cursor, d->page->p.next_cursor, &d->counted);
	payload = payload_text(d, &d->counted);
	n = job_payload_set(r->db, d->job->id, d->job->worker, payload);
	free(payload);
	return n;
}

/* The page's warnings into the run log (at most WARNINGS_PER_PAGE, then how
 * many more there were). */
static void
log_page_warnings(struct runner *r, struct disc *d, const struct prov_page *p)
{
	for (size_t i = 0; i < p->nwarnings && i < WARNINGS_PER_PAGE; i++) {
		json_object *ctx = json_object_new_object();
		jx_add_str(ctx, "checkpoint", d->cursor);
		runner_log(r, d->job->run_id, "warning", ctx, "%s", p->warnings[i]);
		json_object_put(ctx);
	}
	if (p->nwarnings > WARNINGS_PER_PAGE)
		runner_log(r, d->job->run_id, "warning", NULL, "%zu more warnings on this page not shown.",
		    p->nwarnings - WARNINGS_PER_PAGE);
}

/* After the last page, in save_page's transaction: the run keeps its final
 * stats, its plan for the review is queued, the job is done, and the log
 * says what was found. TX_ABORT when the run moved on meanwhile. */
static enum tx_result
finish_discovery(struct runner *r, struct disc *d, const char *old_stats)
{
	char *stats =
	    runner_stats(r, d->job->run_id, old_stats, true, d->def->imports, false, PROGRESS_ZERO, NULL);
	char summary[400];
	json_object *ctx, *all, *disc;
	struct err e;
	int64_t n;
	int ok;

	if (stats == NULL)
		return TX_ERROR;
	err_clear(&e);
	n = run_discovery_end(r->db, d->job->run_id, stats, (int64_t)r->cfg->credentials_retention);
	describe_discovered(stats, summary, sizeof summary, &d->resources);
	ctx = json_object_new_object();
	all = jx_parse(stats, strlen(stats), &ok);
	if (all != NULL && json_object_object_get_ex(all, "discovered", &disc))
		json_object_object_add(ctx, "discovered", json_object_get(disc));
	json_object_put(all);
	jx_add_int(ctx, "resources", d->resources);
	free(stats);
	if (n < 0 ||
	    (n > 0 && (planning_queue_review(r, d->job->run_id, &e) != 0 || queue_done(r->db, d->job) < 0))) {
		json_object_put(ctx);
		return TX_ERROR;
	}
	if (n > 0)
		runner_log(r, d->job->run_id, "info", ctx,
		    "Discovery finished: %lld resource%s%s%s%s; planning what each will become.",
		    (long long)d->resources, d->resources == 1 ? "" : "s", summary[0] ? " (" : "", summary,
		    summary[0] ? ")" : "");
	json_object_put(ctx);
	d->finished = n > 0;
	d->moved_on = n == 0;
	return n > 0 ? TX_COMMIT : TX_ABORT;
}

/* A large page's resources but its last slice, DISCOVERY_SAVE_BATCH a
 * transaction (db/bounds.h), under the checks save_page makes; save_page
 * saves the rest with the checkpoint. */
static enum tx_result
save_slice(struct runner *r, void *arg)
{
	struct disc *d = arg;
	char status[32], *checkpoint = NULL;
	enum tx_result t;

	d->moved_on = false;
	if ((t = runner_lock(r, d->job, true, status, &checkpoint, NULL)) != TX_COMMIT)
		goto out;
	t = TX_ABORT;
	if (strcmp(status, "discovering") != 0)
		d->moved_on = true;
	else if (!same_cursor(checkpoint, d->cursor))
		log_warn("run %s: checkpoint moved under us; step dropped", d->job->run_id);
	else if (save_items(r, d, d->saved) != 0)
		t = TX_ERROR;
	else
		t = TX_COMMIT;
out:
	free(checkpoint);
	return t;
}

static enum tx_result
save_page(struct runner *r, void *arg)
{
	struct disc *d = arg;
	const struct prov_page *p = &d->page->p;
	char status[32], *checkpoint = NULL, *old_stats = NULL;
	enum tx_result t;

	d->moved_on = false;
	d->finished = false;
	if ((t = runner_lock(r, d->job, true, status, &checkpoint, &old_stats)) != TX_COMMIT)
		goto out;
	if (strcmp(status, "discovering") != 0) {
		d->moved_on = true;
		t = TX_ABORT;
		goto out;
	}
	if (!same_cursor(checkpoint, d->cursor)) {
		/* Someone else saved this page meanwhile: their work stands. */
		log_warn("run %s: checkpoint moved under us; step dropped", d->job->run_id);
		t = TX_ABORT;
		goto out;
	}
	t = TX_ERROR;
	if (save_items(r, d, d->saved) != 0)
		goto out;
	log_page_warnings(r, d, p);
	{
		char *counted = stats_count_page(old_stats, p, &d->resources);
		/* what discovery reads now, how much so far, how fast */
		char *stats = stats_activity(counted, old_stats, "discovering",
		    p->n > 0 ? p->items[p->n - 1].resource_type : NULL, d->resources, false, -1,
		    (int64_t)time(NULL));
		int64_t n = run_checkpoint(r->db, d->job->run_id, p->next_cursor, stats);
		free(counted);
		free(stats);
		if (n < 0)
			goto out;
		/* Past the limit the run stops here, without reading the rest. */
		d->over_limit = d->resources > r->cfg->max_resources;
		if (d->over_limit || p->next_cursor != NULL) {
			t = save_count(r, d) < 0 ? TX_ERROR : TX_COMMIT;
			goto out;
		}
	}
	/* The last page: discovering -> awaiting_review. */
	t = finish_discovery(r, d, old_stats);
out:
	free(checkpoint);
	free(old_stats);
	return t;
}

/* Each step's start: pending -> discovering (logged), and a wait the run's
 * stats show is over. */
static enum tx_result
begin_discovery(struct runner *r, void *arg)
{
	struct disc *d = arg;
	char status[32], *stats = NULL, *done;
	enum tx_result t;
	json_object *ctx;
	int64_t n = 0;

	if ((t = runner_lock(r, d->job, true, status, NULL, &stats)) != TX_COMMIT)
		return t;
	if ((done = stats_waiting(stats, NULL)) != NULL)
		n = run_stats_set(r->db, d->job->run_id, done);
	free(done);
	free(stats);
	if (n < 0)
		return TX_ERROR;
	if (strcmp(status, "pending") != 0) {
		d->moved_on = strcmp(status, "discovering") != 0;
		return TX_COMMIT;
	}
	if ((n = run_discovery_begin(r->db, d->job->run_id)) < 0)
		return TX_ERROR;
	ctx = json_object_new_object();
	jx_add_str(ctx, "provider", d->def ? d->def->id : NULL);
	jx_add_str(ctx, "worker", r->worker);
	runner_log(r, d->job->run_id, "info", ctx, "Discovery started.");
	json_object_put(ctx);
	return TX_COMMIT;
}

static enum tx_result
fail_run(struct runner *r, void *arg)
{
	struct disc *d = arg;
	char status[32];
	enum tx_result t;
	json_object *ctx;
	int64_t n;

	if ((t = runner_lock(r, d->job, true, status, NULL, NULL)) != TX_COMMIT)
		return t;
	if ((n = run_fail(r->db, d->job->run_id, d->error_message)) < 0 || queue_done(r->db, d->job) < 0)
		return TX_ERROR;
	if (n > 0) {
		ctx = json_object_new_object();
		jx_add_str(ctx, "phase", "discovery");
		jx_add_str(ctx, "reason", d->reason);
		if (d->attempts > 0)
			jx_add_int(ctx, "attempts", d->attempts);
		if (d->refusals > 0)
			jx_add_int(ctx, "refusals", d->refusals);
		jx_add_str(ctx, "checkpoint", d->cursor);
		runner_log(r, d->job->run_id, "error", ctx, "%s", d->error_message);
		json_object_put(ctx);
	}
	return TX_COMMIT;
}

static enum tx_result
back_off(struct runner *r, void *arg)
{
	struct disc *d = arg;
	char status[32], *payload;
	enum tx_result t;
	json_object *ctx;
	int rc;

	if ((t = runner_lock(r, d->job, false, status, NULL, NULL)) != TX_COMMIT)
		return t;
	if (job_verdict(QUEUE_DISCOVERY, status) != JOB_ACT) {
		d->moved_on = true;
		return TX_ABORT;
	}
	ctx = json_object_new_object();
	jx_add_str(ctx, "phase", "discovery");
	jx_add_str(ctx, "reason", d->reason);
	jx_add_int(ctx, "attempt", d->attempts);
	jx_add_int(ctx, "max_attempts", r->max_attempts);
	jx_add_int(ctx, "retry_in_s", (d->delay_ms + 999) / 1000);
	jx_add_str(ctx, "checkpoint", d->cursor);
	runner_log(r, d->job->run_id, "warning", ctx, "%s", d->log_message);
	json_object_put(ctx);
	payload = payload_text(d, &d->count);
	rc = queue_release(r->db, d->job, d->delay_ms, d->attempts, payload);
	free(payload);
	return rc < 0 ? TX_ERROR : TX_COMMIT;
}

/* The job released for d->delay_ms (> 0) to wait out the provider's rate
 * limit: the run's stats say until when ("waiting"), and its log too. */
static enum tx_result
wait_out(struct runner *r, void *arg)
{
	struct disc *d = arg;
	char status[32], until[21], *stats = NULL, *next, *payload;
	enum tx_result t;
	json_object *waiting, *ctx;
	int64_t n;

	if ((t = runner_lock(r, d->job, true, status, NULL, &stats)) != TX_COMMIT)
		return t;
	if (job_verdict(QUEUE_DISCOVERY, status) != JOB_ACT) {
		free(stats);
		d->moved_on = true;
		return TX_ABORT;
	}
	time_format_iso((wall_ms() + d->delay_ms + 999) / 1000, true, until);
	waiting = json_object_new_object();
	jx_add_str(waiting, "reason", "rate_limit");
	jx_add_str(waiting, "provider", d->def->id);
	jx_add_str(waiting, "until", until);
	next = stats_waiting(stats, waiting);
	free(stats);
	n = run_stats_set(r->db, d->job->run_id, next);
	free(next);
	if (n < 0)
		return TX_ERROR;
	ctx = json_object_new_object();
	jx_add_str(ctx, "phase", "discovery");
	jx_add_str(ctx, "reason", "rate_limit");
	jx_add_str(ctx, "provider", d->def->id);
	jx_add_str(ctx, "until", until);
	jx_add_int(ctx, "retry_in_s", (d->delay_ms + 999) / 1000);
	if (d->refusals > 0)
		jx_add_int(ctx, "refusals", d->refusals);
	jx_add_str(ctx, "checkpoint", d->cursor);
	runner_log(r, d->job->run_id, d->refusals > 0 ? "warning" : "info", ctx,
	    "Waiting for %s's rate limit until %s.", d->def->name, until);
	json_object_put(ctx);
	payload = payload_text(d, &d->count);
	n = queue_release(r->db, d->job, d->delay_ms, d->attempts, payload);
	free(payload);
	return n < 0 ? TX_ERROR : TX_COMMIT;
}

/* The refusals the session waited out within the step, before the page
 * just fetched, into the run log (a longer wait is wait_out's). */
static void
log_waits(struct runner *r, const struct disc *d, struct prov_session *s)
{
	json_object *ctx;

	if (s->pace.waits == 0)
		return;
	ctx = json_object_new_object();
	jx_add_str(ctx, "phase", "discovery");
	jx_add_str(ctx, "reason", "rate_limit");
	jx_add_str(ctx, "provider", d->def->id);
	jx_add_int(ctx, "refusals", s->pace.waits);
	jx_add_int(ctx, "waited_ms", s->pace.waited_ms);
	jx_add_str(ctx, "checkpoint", d->cursor);
	runner_log(r, d->job->run_id, "info", ctx,
	    "%s refused %d request%s for its rate limit; waited %.1f s in all and asked again.", d->def->name,
	    s->pace.waits, s->pace.waits == 1 ? "" : "s", (double)s->pace.waited_ms / 1000.0);
	json_object_put(ctx);
	s->pace.waits = 0;
	s->pace.waited_ms = 0;
}

/* The step ends with the job released for its continuation, when the
 * session may ask again: at once, after the provider's interval, or (the
 * rate limit) after a wait that the run's stats and log show. After any
 * prefetch ended. */
static void
release_continuation(struct runner *r, struct disc *d)
{
	refusals_take(d);
	d->delay_ms = prov_session_wait_ms(d->s);
	if (d->s->pace.limited && d->delay_ms > 0) {
		if (runner_tx(r, wait_out, d) != TX_COMMIT && d->moved_on)
			runner_drop(r, d->job, "run no longer discovering");
		return;
	}
	release(r, d, d->delay_ms);
}

/* Fail the run (message already human and free of secrets). */
static void fail(struct runner *r, struct disc *d, const char *reason, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
fail(struct runner *r, struct disc *d, const char *reason, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	utf8_vformat(msg, sizeof msg, fmt, ap);
	va_end(ap);
	d->error_message = msg;
	d->reason = reason;
	runner_tx(r, fail_run, d);
	d->error_message = NULL;
}

/* When the page at cursor would be one more than [limits] max_pages in a row
 * from its list: fail the run, without asking for it, and return true. */
static bool
page_cap_reached(struct runner *r, struct disc *d, const char *cursor)
{
	char phase[PROV_MAX_CURSOR + 1];

	if (cursor == NULL)
		return false;
	cursor_phase(cursor, phase);
	if (strcmp(phase, d->count.phase) != 0 || d->count.pages < r->cfg->max_pages)
		return false;
	fail(r, d, "limit",
	    "The provider's %s list went on past %d pages, the most one list may take "
	    "([limits] max_pages); discovery stopped there without reading the rest. Raise the limit if "
	    "the account is really that large.",
	    d->count.phase, r->cfg->max_pages);
	return true;
}

/* The provider's rate limit stopped the fetch: wait it out (the job
 * released with the wait as its delay), or fail the run once the refusals
 * in a row have lasted [limits] provider_wait_max. */
static void
rate_limited(struct runner *r, struct disc *d, struct prov_session *s, const struct prov_error *pe)
{
	/* A refusal the adapter found in an answer prov_http took for another
	 * (an error in a 2xx body) is counted here. */
	if (!s->pace.limited && !s->pace.gave_up)
		prov_session_refused(s, pe->retry_after > 0 ? pe->retry_after : -1);
	refusals_take(d);
	if (s->pace.gave_up) {
		fail(r, d, "rate_limit",
		    "Discovery failed: %s kept refusing requests for its rate limit (%d in a row over %lld s); "
		    "waiting longer would pass [limits] provider_wait_max (%d s). Start a new run later.",
		    d->def->name, s->pace.refusals, (long long)((wall_ms() - s->pace.refused_since) / 1000),
		    r->cfg->provider_wait_max);
		return;
	}
	release_continuation(r, d);
}

/* A provider error: the rate limit is waited out; fatal ones fail the run,
 * others back off or, after max_attempts consecutive failures, fail it too. */
static void
provider_error(struct runner *r, struct disc *d, struct prov_session *s, struct prov_error *pe)
{
	log_waits(r, d, s);
	prov_scrub(s, pe->message, sizeof pe->message);
	if (pe->message[0] == '\0')
		snprintf(pe->message, sizeof pe->message, "no details");
	if (pe->status == PROV_AUTH) {
		fail(r, d, "auth", "Discovery failed: %s. Check the credentials and start a new run.",
		    pe->message);
		return;
	}
	if (pe->status == PROV_RATE_LIMITED) {
		rate_limited(r, d, s, pe);
		return;
	}
	if (pe->status != PROV_TRANSIENT) {
		fail(r, d, "fatal", "Discovery failed: %s.", pe->message);
		return;
	}
	refusals_take(d);
	d->attempts++;
	d->reason = "transient";
	if (d->attempts >= r->max_attempts) {
		fail(r, d, d->reason, "Discovery failed after %d attempt%s in a row: %s.", d->attempts,
		    d->attempts == 1 ? "" : "s", pe->message);
		return;
	}
	d->delay_ms =
	    queue_backoff_ms(d->attempts, pe->retry_after > 0 ? pe->retry_after : 0, runner_random());
	utf8_format(d->log_message, sizeof d->log_message, "%s; retrying in %lld s (attempt %d of %d).",
	    pe->message, (long long)((d->delay_ms + 999) / 1000), d->attempts, r->max_attempts);
	runner_tx(r, back_off, d);
}

/* The run's row as discovery needs it. 1 found, 0 gone, -1 error. */
static int
load_run(struct runner *r, const char *run_id, uint64_t *user, char status[32], char provider[33],
    unsigned char **creds, size_t *creds_len, char **checkpoint)
{
	struct run_row run;
	int rc = run_get(r->db, run_id, &run);

	*user = run.user_id;
	snprintf(provider, 33, "%s", run.provider);
	snprintf(status, 32, "%s", run.status);
	*creds = run.credentials;
	*creds_len = run.credentials_len;
	*checkpoint = run.checkpoint;
	run.credentials = NULL;
	run.checkpoint = NULL;
	run_row_clear(&run);
	return rc;
}

/* The run's provider session from its sealed credentials: 0, or -1 when the
 * run was failed (credentials gone, undecryptable or unreadable, or the
 * provider refused them at once). *creds is the parsed copy to wipe. */
static int
open_session(struct runner *r, struct disc *d, const unsigned char *sealed, size_t sealed_len,
    json_object **creds, struct prov_session *s)
{
	struct prov_error pe = { .status = PROV_OK };
	char *plain = NULL;
	size_t plain_len = 0;
	int ok;

	if (sealed == NULL) {
		fail(r, d, "credentials",
		    "Discovery failed: the run's credentials are no longer stored; start a new run.");
		return -1;
	}
	if (unseal(r->key, d->job->run_id, sealed, sealed_len, &plain, &plain_len) != 0) {
		fail(r, d, "credentials",
		    "Discovery failed: the stored credentials could not be decrypted (the credentials key was "
		    "changed); start a new run.");
		return -1;
	}
	*creds = jx_parse(plain, plain_len, &ok);
	seal_plain_free(plain, plain_len); /* the parsed copy is wiped by the caller */
	if (*creds == NULL || !json_object_is_type(*creds, json_type_object)) {
		fail(r, d, "credentials",
		    "Discovery failed: the stored credentials are unreadable; start a new run.");
		return -1;
	}
	if (prov_session_init(s, d->def, r->cfg, *creds, &pe) != 0) {
		if (pe.status == PROV_OK)
			pe.status = PROV_FATAL;
		provider_error(r, d, s, &pe);
		return -1;
	}
	return 0;
}

/* Whether the session must wait for the provider's rate limit past the end
 * of the step (then the job is released for the wait). */
static bool
wait_past(const struct prov_session *s, int64_t step_end)
{
	return s->pace.limited && mono_ms() + prov_session_wait_ms(s) > step_end;
}

/* The next page, fetched (and its texts made) by a thread of its own while
 * the current page is saved (the provider still sees one request at a time). */
struct prefetch {
	pthread_t thread;
	bool running;
	struct prov_session *s;
	const struct runner *r;
	const struct provider_def *def;
	uint64_t user;
	const char *cursor; /* the current page's next_cursor */
	struct page page;
	struct prov_error pe;
	enum prov_status st;
};

static void *
prefetch_main(void *arg)
{
	struct prefetch *f = arg;

	f->st = f->def->ops->fetch(f->s, f->cursor, &f->page.p, &f->pe);
	if (f->st == PROV_OK)
		page_texts(f->r, f->user, f->def, &f->page);
	return NULL;
}

/* After the page read with cursor (which gave next), fetch the next one now
 * when the step will surely want it: not the last of the step (by pages, by
 * --step-resources with this page, by time, or given up for fair share), no
 * wait for the rate limit past the step, and not past [limits] max_pages
 * (page_cap_reached would stop before it). A page fetched ahead is saved by
 * this step (next_page), so the provider is never asked twice for one. */
static void
prefetch_start(struct runner *r, struct disc *d, struct prefetch *f, const char *cursor,
    const struct prov_page *page, int pages, int64_t step_end)
{
	struct page_count next;
	char phase[PROV_MAX_CURSOR + 1];

	if (page->next_cursor == NULL || wait_past(d->s, step_end) || pages + 1 >= RUNNER_PAGES_PER_STEP ||
	    (r->step_resources > 0 && r->step_done + (long)page->n >= r->step_resources) ||
	    runner_out_of_time(r, step_end))
		return;
	count_page(&d->count, cursor, page->next_cursor, &next);
	cursor_phase(page->next_cursor, phase);
	if (strcmp(phase, next.phase) == 0 && next.pages >= r->cfg->max_pages)
		return;
	memset(&f->page, 0, sizeof f->page);
	memset(&f->pe, 0, sizeof f->pe);
	f->s = d->s;
	f->r = r;
	f->def = d->def;
	f->user = d->user;
	f->cursor = page->next_cursor;
	f->running = pthread_create(&f->thread, NULL, prefetch_main, f) == 0;
}

/* Wait for the prefetch; keep its page (*page, *pe, the status returned) when
 * keep, else drop it. PROV_FATAL when none was running. */
static enum prov_status
prefetch_end(struct prefetch *f, bool keep, struct page *page, struct prov_error *pe)
{
	if (!f->running)
		return PROV_FATAL;
	pthread_join(f->thread, NULL);
	f->running = false;
	if (!keep) {
		page_free(&f->page);
		return PROV_FATAL;
	}
	*page = f->page;
	*pe = f->pe;
	return f->st;
}

/* The page at cursor into *page: the prefetched one, else fetched now. False
 * when the step ends instead (the page cap reached, or the provider's error
 * handled). */
static bool
page_at(struct runner *r, struct disc *d, struct prov_session *s, const char *cursor, struct prefetch *f,
    struct page *page)
{
	struct prov_error pe;
	enum prov_status st;

	memset(page, 0, sizeof *page);
	memset(&pe, 0, sizeof pe);
	if (f->running)
		st = prefetch_end(f, true, page, &pe);
	else if (page_cap_reached(r, d, cursor))
		return false;
	else if ((st = d->def->ops->fetch(s, cursor, &page->p, &pe)) == PROV_OK)
		page_texts(r, d->user, d->def, page);
	if (st == PROV_OK && page->p.next_cursor != NULL && same_cursor(page->p.next_cursor, cursor)) {
		/* A cursor that does not move would page forever. */
		st = prov_fail(&pe, PROV_FATAL, "the provider's paging did not advance at %s",
		    cursor ? cursor : "the start");
	}
	if (st != PROV_OK) {
		page_free(page);
		provider_error(r, d, s, &pe);
		return false;
	}
	return true;
}

/* Fetch and save the page at *cursor. True when the loop goes on with the
 * next cursor (now in *cursor); false when the step ends (the job released,
 * dropped or finished, or the run failed). */
static bool
next_page(struct runner *r, struct disc *d, struct prov_session *s, char **cursor, int *pages,
    int64_t step_end, struct prefetch *f)
{
	struct page page;
	enum tx_result t;
	bool more = false, waits;

	d->cursor = *cursor;
	if (!page_at(r, d, s, *cursor, f, &page))
		return false;
	refusals_take(d); /* as the page leaves them: saved with it */
	log_waits(r, d, s);
	waits = wait_past(s, step_end);
	prefetch_start(r, d, f, *cursor, &page.p, *pages, step_end);
	d->page = &page;
	t = TX_COMMIT;
	for (d->saved = 0; t == TX_COMMIT && page.p.n - d->saved > DISCOVERY_SAVE_BATCH;
	     d->saved += DISCOVERY_SAVE_BATCH)
		t = runner_tx(r, save_slice, d);
	if (t == TX_COMMIT)
		t = runner_tx(r, save_page, d);
	d->page = NULL;
	d->saved = 0;
	(*pages)++;
	r->step_done += (long)page.p.n;
	if (t == TX_COMMIT && !d->over_limit && !d->finished) {
		d->attempts = 0; /* progress: failures are counted afresh */
		d->count = d->counted;
		free(*cursor);
		*cursor = page.p.next_cursor;
		d->cursor = *cursor; /* where the job goes on */
		page.p.next_cursor = NULL;
		/* A page fetched ahead is saved before the step ends, whatever the time: dropped, it
		 * would be asked for again by the next step (a request the provider and its rate
		 * limit see twice, and that max_pages does not count); a stop drops it. */
		more = !waits && *pages < RUNNER_PAGES_PER_STEP &&
		    (f->running ? !(r->stop != NULL && *r->stop) : !runner_out_of_time(r, step_end));
	}
	if (!more)
		prefetch_end(f, false, NULL, NULL);
	if (t == TX_COMMIT && d->over_limit) {
		fail(r, d, "limit",
		    "The provider listed more than %d resources, the most one run may hold "
		    "([limits] max_resources); discovery stopped there. Raise the limit, or import the "
		    "account in parts.",
		    r->cfg->max_resources);
	} else if (t != TX_COMMIT) {
		if (d->moved_on)
			runner_drop(r, d->job, "run no longer discovering");
		else if (t == TX_ERROR)
			release(r, d, queue_backoff_ms(1, 0, runner_random()));
	} else if (!d->finished && !more)
		release_continuation(r, d); /* the continuation, after the wait the session asks for */
	page_free(&page);
	return more;
}

void
discovery_step(struct runner *r, struct job *j)
{
	struct disc d = { .job = j, .attempts = j->attempts };
	char status[32], provider[33];
	unsigned char *sealed = NULL;
	size_t sealed_len = 0;
	char *cursor = NULL;
	json_object *creds = NULL;
	struct prov_session s;
	struct prefetch prefetch = { .running = false };
	int64_t step_end = runner_step_end(r);
	int rc, pages = 0;

	if ((rc = load_run(r, j->run_id, &d.user, status, provider, &sealed, &sealed_len, &cursor)) < 0) {
		log_error("run %s: %s", j->run_id, db_error(r->db));
		queue_release(r->db, j, queue_backoff_ms(1, 0, runner_random()), j->attempts, j->payload);
		return;
	}
	if (rc == 0)
		goto out; /* deleted: the job went with it */
	if (job_verdict(QUEUE_DISCOVERY, status) != JOB_ACT) {
		runner_drop(r, j, status);
		goto out;
	}
	d.def = provider_find(provider);
	payload_load(j->payload, &d);
	if (r->key == NULL) {
		/* An installation problem, not the run's: keep the job until a key is set. */
		log_error("run %s: no credentials key ([security] key_file); discovery waits", j->run_id);
		queue_release(r->db, j, RUNNER_NOKEY_DELAY_MS, j->attempts, j->payload);
		goto out;
	}
	if (runner_tx(r, begin_discovery, &d) != TX_COMMIT)
		goto out;
	if (d.moved_on) {
		runner_drop(r, j, "run no longer discovering");
		goto out;
	}
	if (d.def == NULL || d.def->ops == NULL || d.def->ops->fetch == NULL) {
		fail(r, &d, "unsupported",
		    "Discovery failed: importing from %s is not available on this "
		    "installation yet.",
		    provider);
		goto out;
	}
	if (open_session(r, &d, sealed, sealed_len, &creds, &s) == 0) {
		d.s = &s;
		s.pace.deadline_ms = step_end;
		s.pace.refusals = d.refusals;
		s.pace.refused_since = d.refused_since;
		while (next_page(r, &d, &s, &cursor, &pages, step_end, &prefetch))
			;
	}
out:
	free(cursor);
	free(sealed);
	jx_wipe_strings(creds);
	json_object_put(creds);
}
