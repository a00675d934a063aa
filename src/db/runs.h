/* Runs, their resources and logs, and tokens as the API reads them: each
 * function runs one statement of sql_core.def and hands back rows as structs,
 * so no caller outside src/db knows a column's position. Strings in a row are
 * borrowed for the callback (or until the next call) and NULL for SQL NULL.
 * Functions return 0 (or 1 found / 0 none) and -1 on a database error. */
#ifndef MIGRATOR_DB_RUNS_H
#define MIGRATOR_DB_RUNS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

struct db_text {
	const char *s; /* NULL for SQL NULL */
	size_t len;
};

struct run_view {
	const char *id, *provider, *status, *stats, *error_message, *options;
	const char *started_at, *finished_at, *created_at, *updated_at; /* MySQL DATETIME text */
	int64_t total_resources, failed_resources;
};
typedef void run_view_fn(const struct run_view *, void *arg);

/* One page of the user's runs (newest first), filtered by status and provider when not NULL;
 * *total: how many match in all, or -1 when the page is empty (runs_count tells). */
int runs_page(struct db *, uint64_t user, const char *status, const char *provider, int64_t limit,
    int64_t offset, int64_t *total, run_view_fn *fn, void *arg);
/* How many runs runs_page would list without limit and offset. */
int runs_count(struct db *, uint64_t user, const char *status, const char *provider, int64_t *n);
/* The user's run: 1 found (fn called once), 0 none. Uncounted: both totals are 0,
 * for a caller that counts the resources itself. */
int run_of_user(struct db *, const char *id, uint64_t user, bool counted, run_view_fn *fn, void *arg);
/* A run's stored options text (migration_runs.options) for its one option. */
const char *run_options_text(bool import_paused);
/* import_paused of a stored options text: the texts run_options_text writes
 * are read without parsing, any other is parsed (false when unreadable). */
bool run_import_paused(const char *options);
/* The status of the user's run into st: 1 found, 0 none; lock: FOR UPDATE. */
int run_status(struct db *, const char *id, uint64_t user, bool lock, char st[32]);

/* A resource item as the API shows it. */
struct resource_item {
	int64_t id, attempts;
	struct db_text type, external_id, name, action, status, reason, error_message;
	/* what the preview is made of (importer_preview): normalized data and the run's contacts it
	 * names; and what does not carry over, as discovery listed it */
	struct db_text norm, alerts, dropped;
};
typedef void resource_item_fn(const struct resource_item *, void *arg);

/* The first limit resources of a run in id order. */
int run_resources(struct db *, const char *run, int64_t limit, resource_item_fn *fn, void *arg);
/* What a resource page selects; NULL matches anything; like is a LIKE pattern on the name. */
struct resource_filter {
	const char *status, *type, *action, *like;
};
/* One page of the user's run's resources matching f, in id order, and *total: how many match in
 * all. 1 found, 0 no such run. One round trip, two for a page past the end. */
int resources_page(struct db *, const char *run, uint64_t user, const struct resource_filter *f,
    int64_t limit, int64_t offset, int64_t *total, resource_item_fn *fn, void *arg);
/* The option import_paused of the user's run into *paused (false when there is no such run). 0 or -1. */
int run_paused_option(struct db *, const char *run, uint64_t user, bool *paused);
/* A run's resource count per status (statuses in order). */
int resource_counts(struct db *, const char *run, void (*fn)(const char *status, int64_t n, void *arg),
    void *arg);
/* What will not carry over of the run's resources not excluded: fn per resource type, field and
 * reason, with how many resources lose it, the most first (at most 100). */
int dropped_summary(struct db *, const char *run,
    void (*fn)(const char *type, const char *field, const char *reason, int64_t n, void *arg), void *arg);
/* A resource as the run's report reads it. */
struct report_row {
	int64_t id, target_id; /* target_id 0: none */
	const char *type, *external_id, *name, *action, *status, *reason, *error_message, *dropped;
	bool needs_address;
};
/* The run's resources in id order after id after, at most limit, each to fn. The count, or -1. */
int report_rows(struct db *, const char *run, int64_t after, int64_t limit,
    void (*fn)(const struct report_row *, void *arg), void *arg);
/* A run's count of resources not excluded per planned action (actions in order). */
int planned_counts(struct db *, const char *run, void (*fn)(const char *action, int64_t n, void *arg),
    void *arg);

struct log_row {
	int64_t id;
	const char *level, *message, *context, *logged_at;
};
/* Log entries of a run, newest first; errors_only: level error. */
int run_logs(struct db *, const char *run, bool errors_only, int64_t limit, int64_t offset,
    void (*fn)(const struct log_row *, void *arg), void *arg);

/* A token that is not revoked, with its owner. */
struct token_row {
	uint64_t user_id;
	const unsigned char *hash;
	size_t hash_len;
	const char *scopes, *name, *email;
};
/* 1 found (fn called once), 0 none. */
int token_lookup(struct db *, uint64_t token_id, void (*fn)(const struct token_row *, void *arg), void *arg);
/* Count a request in bucket's current minute if token_id is a token that is not revoked and whose
 * stored hash is hash: 1 counted, with *hits the bucket's count this minute and *flag the owner's
 * features:migrator flag (1 on, 0 off, -1 when no row decides it); 0 no such token, nothing
 * counted; -1 on a database error. One round trip. */
int token_hit(struct db *, uint64_t token_id, const unsigned char *hash, size_t hash_len, const char *bucket,
    int64_t *hits, int *flag);

/* ---- the API's writes: each returns the rows it changed (>= 0), or -1 ---- */

/* A new pending run of user holding the sealed credentials. */
int64_t run_insert(struct db *, const char *id, uint64_t user, const char *provider, const char *stats,
    const char *options, const void *sealed, size_t sealed_len, const char *key_id);
/* awaiting_review -> executing. */
int64_t run_execute(struct db *, const char *id, uint64_t user);
/* A run not yet ended -> cancelled. */
int64_t run_cancel(struct db *, const char *id, uint64_t user);
/* completed | completed_with_errors | failed (with objects written) |
 * cancelled -> reverting, unless run_unrecorded. */
int64_t run_revert(struct db *, const char *id, uint64_t user);
/* 1 when the run imported a resource without keeping what a revert needs (an
 * import before sql/014), 0 when not, -1. */
int run_unrecorded(struct db *, const char *id);
/* How many account objects the run wrote (created or updated), into *n. 0 or -1. */
int run_written_count(struct db *, const char *id, int64_t *n);
/* How many of the run's resources failed (*n) and the last of them (*last,
 * 0 when none). 0 or -1. */
int failed_span(struct db *, const char *id, int64_t *n, uint64_t *last);
/* retry-failed: the run goes back to executing (from executing,
 * completed_with_errors or failed); 1, 0 when it is in no such state, -1.
 * The caller queues the job that sets the failed resources pending. */
int64_t run_retry_failed(struct db *, const char *id);
/* The run's rows (resources, log entries and jobs together) counted up to
 * max (*size); 0 or -1. */
int run_size_upto(struct db *, const char *id, int64_t max, int64_t *size);
/* Delete the run (whose owner the caller checked) with its rows, at most max
 * of each kind (run_size_upto counted them), each by a statement of its own.
 * The run rows deleted (0: not the user's), or -1. */
int64_t run_delete(struct db *, const char *id, uint64_t user, int64_t max);
/* Hide a large run from the API and wipe its credentials; the cleanup job deletes the rest. */
int64_t run_mark_deleted(struct db *, const char *id, uint64_t user);
/* Drop the run's queued jobs, at most max of them. */
int64_t run_jobs_drop(struct db *, const char *id, int64_t max);
/* paused_conflicts -> awaiting_review once no conflict is left. */
int64_t run_resume_review(struct db *, const char *id);
/* 1 when resource is one of the run's, 0 when not, -1 on error. */
int resource_in_run(struct db *, const char *run, uint64_t resource);
/* Resolve the run's conflicts (resource 0: all of them) with the chosen resolution. */
int64_t conflicts_resolve(struct db *, const char *run, uint64_t resource, const char *resolution,
    const char *action, const char *status, const char *reason);
/* Exclude a resource from the import (exclude) or include it again. */
int64_t resource_exclude(struct db *, const char *run, uint64_t resource, bool exclude);
/* The alert links the run's excluded contacts take with them, in words into
 * out ("Shop → Ops, Backup → Ops"; the first ten), and how many in all
 * (0: none). -1 on error. */
int64_t resources_lost_links(struct db *, const char *run, char *out, size_t n);
/* The same for every resource of the run that f matches, a thousand to a
 * statement: how many changed, or -1. */
int64_t resources_exclude_matching(struct db *, const char *run, const struct resource_filter *f,
    bool exclude);
/* How many resources of the run resources_exclude_matching would change (*n). 0 or -1. */
int resources_matching_count(struct db *, const char *run, const struct resource_filter *f, bool exclude,
    int64_t *n);
/* One statement of resources_exclude_matching: at most BULK_BATCH rows (db/bounds.h). The count, or -1. */
int64_t resources_select_batch(struct db *, const char *run, const struct resource_filter *f, bool exclude);
/* The run's conflicts (*n). 0 or -1. */
int conflicts_count(struct db *, const char *run, int64_t *n);
/* conflicts_resolve of every conflict, BULK_BATCH a statement (the caller
 * counted them: at most BULK_INLINE_MAX). The count, or -1. */
int64_t conflicts_resolve_all(struct db *, const char *run, const char *resolution, const char *action,
    const char *status, const char *reason);
/* conflicts_resolve of every conflict, at most BULK_BATCH of them. The count, or -1. */
int64_t conflicts_resolve_batch(struct db *, const char *run, const char *resolution, const char *action,
    const char *status, const char *reason);
/* 1 when a bulk job of the run is queued, 0 when none, -1. */
int bulk_job_of_run(struct db *, const char *run);
/* Record that the token was used now. */
int64_t token_touch(struct db *, uint64_t token_id);
/* Count a hit in bucket's current minute: the hits so far, or -1. */
int64_t rate_count(struct db *, const char *bucket);

#endif
