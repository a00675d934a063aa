/* How many rows one transaction may write (issue 27): on MariaDB Galera a
 * transaction's write set is certified and replicated whole, so one of
 * 100,000 rows stalls the cluster (flow control) and can pass
 * wsrep_max_ws_rows or wsrep_max_ws_size. Every write path whose rows grow
 * with a run's size works in batches of the sizes below, each with room under
 * DB_TX_ROWS_MAX for the few rows its transaction writes besides (the job's
 * lease, the run row, a log entry). What is bounded elsewhere says so where
 * it is written (docs/runner.md, "Bounded transactions", lists them all);
 * tests/integration/test_bounded.py reads every transaction's rows from the
 * server's binary log. */
#ifndef MIGRATOR_BOUNDS_H
#define MIGRATOR_BOUNDS_H

#define DB_TX_ROWS_MAX 5000

/* An import transaction takes up to RUNNER_IMPORT_TX resources of one type and ends after the one
 * that brings the rows it changed (account rows and their lists, links, the resources' own rows, as
 * db_tx_rows counts them) to this many. One resource's lists (up to 1,000 entries each, cleared
 * and written again on an update) can take it past that: a status page's two, about 4,000. */
#define IMPORT_TX_ROWS 2500
/* retry-failed: failed resources the runner sets pending again per transaction. */
#define RETRY_BATCH 1000
/* A deleted run's resources, log entries or jobs the runner deletes per transaction (cleanup). */
#define CLEANUP_BATCH 4000
/* A run deleted in its request has at most this many rows (resources, their
 * data, log entries, jobs together); a larger one is left to the cleanup queue. */
#define DELETE_INLINE_MAX 4000
/* Queued jobs of a run that cancel or delete drop in the request; a runner
 * drops any further one when it claims it (the run moved on). */
#define JOBS_DROP_MAX 1000
/* A provider page's resources saved per transaction by discovery: a page may
 * hold up to PROV_MAX_ITEMS (10,000; a provider without paging lists
 * everything on one). The last slice is saved with the page's checkpoint; a
 * crash before it fetches the page again, whose rows an upsert refreshes. */
#define DISCOVERY_SAVE_BATCH 2000
/* Resources a statement of a bulk change (exclude or include by filter,
 * resolve every conflict) changes: the LIMIT 1000 of MATCHING and of
 * ST_RES_RESOLVE_BATCH (db/sql_core.def). */
#define BULK_BATCH 1000
/* Rate-limit counters of windows past the purge deletes per statement (its own transaction); the
 * runner's housekeeping repeats it until fewer are left (runner_housekeeping). */
#define RATE_PURGE_BATCH 4000
/* Fair share's runner_time rows of runs not served lately the runner's housekeeping deletes per
 * statement (its own transaction; repeated until fewer are left, as the rate-limit purge). */
#define RUNNER_TIME_PURGE_BATCH 4000
/* A bulk change of at most this many resources is made in its request
 * (BULK_BATCH a statement, one transaction); a larger one by the runner,
 * BULK_BATCH a transaction (runner/resources.c). */
#define BULK_INLINE_MAX 4000

_Static_assert(IMPORT_TX_ROWS + 10 <= DB_TX_ROWS_MAX, "an import batch and its job and run rows");
_Static_assert(RETRY_BATCH + 10 <= DB_TX_ROWS_MAX, "a retry batch and its job, run and log rows");
_Static_assert(CLEANUP_BATCH + 10 <= DB_TX_ROWS_MAX, "a cleanup batch and its job row");
_Static_assert(DELETE_INLINE_MAX + 10 <= DB_TX_ROWS_MAX, "an inline delete and its run row");
_Static_assert(JOBS_DROP_MAX + 10 <= DB_TX_ROWS_MAX, "the jobs dropped and the run row");
_Static_assert(BULK_INLINE_MAX + 10 <= DB_TX_ROWS_MAX, "a bulk change in its request");
_Static_assert(BULK_BATCH + 10 <= DB_TX_ROWS_MAX, "a bulk batch");
_Static_assert(RATE_PURGE_BATCH <= DB_TX_ROWS_MAX, "a rate-limit purge");
_Static_assert(RUNNER_TIME_PURGE_BATCH <= DB_TX_ROWS_MAX, "a runner time purge");
/* with the page's warnings (WARNINGS_PER_PAGE + 1 log rows), checkpoint, job and review jobs */
_Static_assert(DISCOVERY_SAVE_BATCH + 100 <= DB_TX_ROWS_MAX, "a discovery slice");

#endif
