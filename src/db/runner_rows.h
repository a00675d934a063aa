/* Runs and their resources as the runner and the importers read and write
 * them (sql_runner.def), so that no file outside src/db names a statement or
 * reads a column by its position. Each function runs one statement unless
 * it says otherwise; strings are copied out ("" for SQL NULL unless said
 * otherwise), and what is marked malloc'd belongs to the caller. The writes
 * return the rows they changed (0: the guard did not match), or -1 on a
 * database error. Text from outside (messages, cursors, rows) is stored as
 * valid UTF-8 whatever it holds: '?' for each byte that is not (utf8_dup). */
#ifndef MIGRATOR_RUNNER_ROWS_H
#define MIGRATOR_RUNNER_ROWS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

/* A run as the job kinds read it. */
struct run_row {
	uint64_t user_id;
	char provider[33];
	char status[32];
	unsigned char *credentials; /* sealed; malloc'd, or NULL */
	size_t credentials_len;
	char *checkpoint, *stats, *options; /* malloc'd, or NULL */
};
/* The run id (user, provider, status, sealed credentials, checkpoint, options).
 * 1 with *out, 0 gone, -1 error. */
int run_get(struct db *, const char *run_id, struct run_row *out);
/* Inside a transaction: lock the run (exclusive: by writing it, so that on
 * Galera a concurrent decision on another node fails certification; else in
 * share mode) and read its status (and, exclusive, checkpoint and stats).
 * 1 with *out, 0 gone, -1 error. */
int run_lock(struct db *, const char *run_id, bool exclusive, struct run_row *out);
void run_row_clear(struct run_row *);

/* The run's resources counted by type, or, imported, by type: each group with
 * a name to fn. 0 or -1. (By status: resource_counts; by planned action:
 * planned_counts; both db/runs.h.) */
typedef void count_fn(const char *name, int64_t n, void *arg);
int run_count_by_type(struct db *, const char *run_id, count_fn *fn, void *arg);
int run_count_imported_by_type(struct db *, const char *run_id, count_fn *fn, void *arg);

/* ---- a run's state (the guards: sql_runner.def) ---- */

/* pending -> discovering. */
int64_t run_discovery_begin(struct db *, const char *run_id);
/* While discovering: the cursor to go on from and the stats counted so far. */
int64_t run_checkpoint(struct db *, const char *run_id, const char *cursor, const char *stats);
/* The last page read: stats kept, the cursor cleared, the credentials go after retention_s
 * seconds; the run stays discovering while it is planned for the review. */
int64_t run_discovery_end(struct db *, const char *run_id, const char *stats, int64_t retention_s);
/* The plan for the review made: discovering -> awaiting_review with stats. */
int64_t run_review_ready(struct db *, const char *run_id, const char *stats);
/* pending or discovering -> failed with message; the credentials go at once. */
int64_t run_fail(struct db *, const char *run_id, const char *message);
/* The run's stats, whatever its state. */
int64_t run_stats_set(struct db *, const char *run_id, const char *stats);
/* executing -> paused_conflicts with stats. */
int64_t run_pause_conflicts(struct db *, const char *run_id, const char *stats);
/* executing -> status (completed or completed_with_errors) with stats, only
 * when no resource is left to do and no retry-failed job is at work. */
int64_t run_complete(struct db *, const char *run_id, const char *status, const char *stats);
/* 1 when run_complete would find nothing left to do, 0 when not, -1 error. */
int run_done(struct db *, const char *run_id);
/* Wipe the run's stored credentials if they are still due. */
int64_t run_credentials_wipe(struct db *, const char *run_id);
/* Drop the rate-limit counters of windows long past, RATE_PURGE_BATCH a statement (db_exec_batches);
 * how many, or -1. */
int64_t rate_limits_purge(struct db *);

/* A deleted run, in batches: at most batch of its resources, of their data,
 * of its log entries, of its jobs (but the cleanup's own), then its row (only
 * once it is marked deleted). */
int64_t run_resources_delete(struct db *, const char *run_id, int64_t batch);
int64_t run_resource_data_delete(struct db *, const char *run_id, int64_t batch);
int64_t run_logs_delete(struct db *, const char *run_id, int64_t batch);
int64_t run_jobs_delete(struct db *, const char *run_id, int64_t batch);
int64_t run_row_delete(struct db *, const char *run_id);

/* Runs whose stored credentials are due to be wiped: up to max ids into ids.
 * The count, or -1. */
int runs_credentials_due(struct db *, char (*ids)[37], int max);

/* A resource of a run as planning and imports read it. */
struct resource_row {
	uint64_t id;
	char type[32];
	char ext[192];
	char action[16];     /* "" before planning */
	char name[256];      /* the resource's name (planning reads it; "" elsewhere) */
	char resolution[16]; /* "" when resolve-conflicts chose none */
	char status[16];
	int attempts;
	uint64_t target_id; /* 0: none */
	char *norm;         /* normalized data; malloc'd, or NULL */
	char *reason;       /* why the plan chose the action (planning reads it); malloc'd, or NULL */
};
void resource_rows_clear(struct resource_row *, size_t n);

/* Planning: the run's next resources in id order with ids in (after, last],
 * at most max into rows. The count, or -1. */
int resources_to_plan(struct db *, const char *run_id, uint64_t after, uint64_t last, int max,
    struct resource_row *rows);
/* Inside an import's transaction: the next pending resources of type with ids
 * in (after, last], locked, at most max into rows. The count, or -1. */
int resources_to_import(struct db *, const char *run_id, const char *type, uint64_t after, uint64_t last,
    int max, struct resource_row *rows);
/* Inside an import's transaction: resource id of the run, locked. 1 with
 * *out, 0 gone, -1 error. */
int resource_lock(struct db *, uint64_t id, const char *run_id, struct resource_row *out);
/* Another resource of the run named by type and external id (its status,
 * target and normalized data). 1 with *out, 0 none, -1 error. */
int resource_ref(struct db *, const char *run_id, const char *type, const char *ext,
    struct resource_row *out);
/* Every monitor and heartbeat of the run as status page entries
 * ([{"monitor_id": ext} or {"heartbeat_id": ext}, ...], discovery order, at
 * most 1000), a JSON text the caller frees in *json. 1, 0 none, -1 error. */
int resources_checks(struct db *, const char *run_id, char **json);
/* The entries of the run's status page page_ext whose provider id ("ref",
 * providers/provider.h) is in ids (a JSON array of strings), as a JSON text
 * [[ref, index in the page's items], ...] the caller frees in *json. 1, 0
 * none, -1 error. */
int resources_sp_refs(struct db *, const char *run_id, const char *page_ext, const char *ids, char **json);
/* Whether the run's status page page_ext could not read its entries (its
 * "items" unread, providers/common.h prov_unread): 1 yes, 0 no (or no such
 * page), -1 error. */
int resources_sp_items_unread(struct db *, const char *run_id, const char *page_ext);

/* ---- a run's resources ---- */

/* Discovery: a page's resources inserted or refreshed, then their data; keys
 * is one JSON array in page order [[type, external id, name], ...], rows the
 * same with the data [[type, external id, name, raw data or null, normalized
 * data, dropped or null], ...] (the server reads each once). */
int64_t resources_upsert_rows(struct db *, const char *run_id, const char *keys, const char *rows);
/* Planning: a batch's decisions, rows one JSON array [[id, action, status, reason], ...]
 * (never over one made by resolve-conflicts, never on finished work). */
int64_t plan_set_rows(struct db *, const char *rows);
/* How many resources the run has (all of them, in conflict) into *n. 0 or -1. */
int run_resource_count(struct db *, const char *run_id, int64_t *n);
int run_conflict_count(struct db *, const char *run_id, int64_t *n);
/* Whether the run has more than k pending resources: 1 yes, 0 no, -1 error. */
int run_pending_beyond(struct db *, const char *run_id, int64_t k);
/* The id of the resource k places after id after in the run (k = 0: the
 * next). 1 with *id, 0 none, -1. */
int resource_nth_after(struct db *, const char *run_id, uint64_t after, int64_t k, uint64_t *id);
/* The same over the run's pending resources of type. */
int pending_nth_after(struct db *, const char *run_id, const char *type, uint64_t after, int64_t k,
    uint64_t *id);
/* The last pending resource of type after id after: 1 with *id (0 when none), -1. */
int pending_last_after(struct db *, const char *run_id, const char *type, uint64_t after, uint64_t *id);
/* 1 when the run has a pending resource of type, 0 when none, -1. */
int pending_any(struct db *, const char *run_id, const char *type);

/* Pending resources imported: rows one JSON array [[resource id, model,
 * target, "created" or "updated", the object's image before or null, its
 * import link before or null], ...] (what a revert needs, design §4). */
int64_t resources_imported_rows(struct db *, const char *rows);
/* A pending resource tried once more, still pending. */
int64_t resource_attempt(struct db *, uint64_t id);
/* A pending resource tried once more and failed for good with message. */
int64_t resource_failed(struct db *, uint64_t id, const char *message);
/* Count the kept totals of the run again, if it keeps them. */
int64_t run_recount(struct db *, const char *run_id);
/* retry-failed: lock the next failed resources of the run in ids (after,
 * last], at most limit, and set them pending again. The count set (*end: the
 * last id locked, after when none), or -1. */
int64_t resources_retry_batch(struct db *, const char *run_id, uint64_t after, uint64_t last, int64_t limit,
    uint64_t *end);

/* ---- revert (design §4) ---- */

/* An object a run wrote, as its resource row keeps it (sql/014_revert.sql). */
struct revert_row {
	uint64_t id; /* the resource */
	char ext[192];
	char written[8]; /* created|updated */
	uint64_t target;
	char *before, *link_before; /* malloc'd or NULL */
	char after_hash[65];
	char written_at[32];
};
void revert_rows_clear(struct revert_row *, size_t n);
/* Inside a revert's transaction: the run's next objects of type not reverted
 * yet, newest first, their resources locked, at most max into rows. The
 * count, or -1. */
int revert_rows_next(struct db *, const char *run_id, const char *type, int max, struct revert_row *rows);
/* What the revert did to resources: rows one JSON array [[id, outcome], ...],
 * outcome reverted|kept|left|gone. */
int64_t revert_marks(struct db *, const char *rows);
/* The run's written objects by what was written and what the revert did
 * (NULL: not yet), each group to fn. 0 or -1. */
int revert_counts(struct db *, const char *run_id,
    void (*fn)(const char *written, const char *reverted, int64_t n, void *), void *arg);
/* reverting -> reverted with stats, once no object is left to revert. */
int64_t run_revert_done(struct db *, const char *run_id, const char *stats);

#endif
