/* Importers: writing normalized resources (providers/provider.h) into the
 * account's own tables (sql/002_account.sql), natural keys and conflicts, and
 * the durable linkage import_links(user, provider, type, external id) ->
 * (target_model, target_id) that makes a re-import update instead of copy.
 *
 * Import order: a type is imported after the types it refers to (rank), and a
 * reference to a resource of the same run that is not final yet defers the
 * import (IMP_DEFER), so status pages list the imported monitors whatever
 * order the jobs run in.
 *
 * These functions run inside the runner's transactions; they never begin or
 * commit. */
#ifndef MIGRATOR_IMPORTER_H
#define MIGRATOR_IMPORTER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "db/db.h"

#define IMPORTER_TYPES 8

/* Results of importer_write. */
enum imp_result {
	IMP_OK = 0,   /* written; *target_id set */
	IMP_DEFER,    /* a referenced resource of the same run is not imported yet */
	IMP_INVALID,  /* the data cannot be stored (why says what); retrying cannot help */
	IMP_DB        /* database error: see db_error_class */
};

struct imp_ctx {
	struct db *db;
	uint64_t user_id;
	const char *provider;
	const char *run_id;
	bool planning;  /* references to pending resources resolve to what they would update */
};

/* The resource types in import order (NULL-terminated). */
extern const char *const importer_order[];

/* The rank of type in the import order (0 first), or -1 when no importer
 * handles it. */
int importer_rank(const char *type);
/* The target table of type ("monitors", ...), or NULL. */
const char *importer_model(const char *type);

/* Check that norm (normalized data of type) can be stored. 0, or -1 with a
 * human reason in why. Pure. */
int importer_validate(const char *type, json_object *norm, char *why, size_t n);

/* The live target of an earlier import of this external resource by this user
 * (import_links, target row still there). 1 with *id, 0 none, -1 DB error. */
int importer_find_link(struct imp_ctx *, const char *type, const char *external_id, uint64_t *id);

/* An account object with the same natural key that no import created.
 * 1 with *id, 0 none, -1 DB error. */
int importer_find_conflict(struct imp_ctx *, const char *type, json_object *norm, uint64_t *id);

/* Write one resource: create a new account object (target 0) or update target,
 * with its lists (contacts of monitors and heartbeats, monitors of status
 * pages), then point the link at it. An update whose target is gone creates
 * instead. Returns an enum imp_result; why gets a human text for IMP_INVALID
 * and IMP_DEFER. */
enum imp_result importer_write(struct imp_ctx *, const char *type, const char *external_id,
    json_object *norm, uint64_t target, uint64_t *target_id, char *why, size_t n);

/* ---- pure helpers (exported for the unit tests) ---- */

/* Byte length of the longest prefix of s with at most max_chars characters
 * (UTF-8), cut on a character boundary. */
size_t imp_utf8_prefix(const char *s, size_t max_chars);
/* A valid calendar date "YYYY-MM-DD" (a longer ISO text is cut to its date). 0 with out, or -1. */
int imp_date(const char *s, char out[11]);
/* A decimal amount as DECIMAL(14,2) text ("12", "-3.5", "1234.567" cut to
 * two decimals). 0 with out, or -1. */
int imp_decimal(const char *s, char out[24]);

#endif
