/* The rows the queue, the runner and the importers read (sql_queue.def,
 * sql_runner.def), decoded here so that no file outside src/db reads a
 * column by its position. Each function runs one statement; strings are
 * copied out ("" for SQL NULL unless said otherwise), and what is marked
 * malloc'd belongs to the caller. */
#ifndef MIGRATOR_RUNNER_ROWS_H
#define MIGRATOR_RUNNER_ROWS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

/* A job as a claim reads it. */
struct job_row {
	uint64_t id;
	char run_id[37];
	uint64_t resource_id; /* 0: none */
	char *payload;        /* malloc'd, or NULL */
	int attempts;
};
/* Inside the claim's transaction: the oldest available job of queue, locked
 * (FOR UPDATE SKIP LOCKED). 1 with *out, 0 none, -1 error. */
int job_pick(struct db *, const char *queue, struct job_row *out);

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
/* Inside a transaction: lock the run (FOR UPDATE when exclusive, else in
 * share mode) and read its status (and, exclusive, checkpoint and stats).
 * 1 with *out, 0 gone, -1 error. */
int run_lock(struct db *, const char *run_id, bool exclusive, struct run_row *out);
void run_row_clear(struct run_row *);

/* A name -> count statement over the run's resources (ST_RN_COUNT_TYPE,
 * ST_RN_COUNT_ACTION, ST_RN_COUNT_IMPORTED_TYPE, ST_RUN_RESOURCE_COUNTS):
 * each group with a name to fn. 0 or -1. */
int run_count_groups(struct db *, enum stmt_id, const char *run_id,
    void (*fn)(void *arg, const char *name, int64_t n), void *arg);

/* Runs whose stored credentials are due to be wiped: up to max ids into ids.
 * The count, or -1. */
int runs_credentials_due(struct db *, char (*ids)[37], int max);

/* A resource of a run as planning and imports read it. */
struct resource_row {
	uint64_t id;
	char type[32];
	char ext[192];
	char action[16];     /* "" before planning */
	char resolution[16]; /* "" when resolve-conflicts chose none */
	char status[16];
	int attempts;
	uint64_t target_id; /* 0: none */
	char *norm;         /* normalized data; malloc'd, or NULL */
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

/* The first row's id of a lookup (a natural key, an import link) run by
 * db_query, which r is the result of (NULL: the query failed). Frees r.
 * 1 with *id, 0 none, -1 error. */
int lookup_id(struct db_res *r, uint64_t *id);
/* The provider an account object (model, id) of the user was last imported
 * from, into origin[n] ("" when none). 0 or -1. */
int link_origin(struct db *, const char *model, uint64_t id, uint64_t user_id, char *origin, size_t n);

#endif
