/* Importers: writing normalized resources (providers/provider.h) into the
 * account's own tables (sql/002_account.sql, sql/004_fidelity.sql), natural
 * keys and conflicts, and the durable linkage import_links(user, provider,
 * type, external id) -> (target_model, target_id) that makes a re-import
 * update instead of copy.
 *
 * One table of resource kinds (importer.c, `kinds`) holds every fact of a
 * type: its name, import order, target table, natural key and its validate,
 * match and write functions. No other file names a kind.
 *
 * Import order: a type is imported after the types it refers to (its rank),
 * and a reference to a resource of the same run that is not final yet
 * defers the import (IMP_DEFER), whatever order the jobs run in.
 *
 * These functions run inside the runner's transactions; they never begin or
 * commit. */
#ifndef MIGRATOR_IMPORTER_H
#define MIGRATOR_IMPORTER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "db/account.h"
#include "db/db.h"

/* Results of importer_write. */
enum imp_result {
	IMP_OK = 0,  /* written; *target_id set */
	IMP_DEFER,   /* a referenced resource of the same run is not imported yet */
	IMP_INVALID, /* the data cannot be stored (why says what); retrying cannot help */
	IMP_DB       /* database error: see db_error_class */
};

#define IMP_CUTS_MAX 512

struct imp_ctx {
	struct db *db;
	uint64_t user_id;
	const char *provider;
	const char *run_id;
	bool planning;      /* references to pending resources resolve to what they would update */
	bool import_paused; /* the run's option: monitors and heartbeats arrive paused */
	/* set by importer_batch_facts for one type: what cannot be there */
	const char *facts_type; /* the type they are about (NULL: none known) */
	bool no_link;           /* no import link matches a resource of the batch */
	bool no_object;         /* the user has no object of the type at all */
	/* set by importer_write: the values it cut to fit their account columns,
	 * in words ("name (to 255 characters)"); "" when none */
	char cuts[IMP_CUTS_MAX];
	/* set by importer_write: on an update, the keys this run could not read
	 * (normalized "unread", providers/common.h) whose account values it kept,
	 * and why, as importer_unread says them; "" when none */
	char kept[IMP_CUTS_MAX];
	json_object *unread; /* during importer_write: those keys (an update only), else NULL */
	/* set by importer_write: the external ids of the contacts a monitor or
	 * heartbeat alerts that are not imported (so not linked), ", "-separated;
	 * "" when none */
	char unlinked[IMP_CUTS_MAX];
	/* set by importer_write: the provider's ids of the components a status
	 * page subscriber follows that its page does not list (so not kept),
	 * ", "-separated; "" when none */
	char unmapped[IMP_CUTS_MAX];
	/* set by importer_write when it wrote, for a revert (design §4):
	 * "created" or "updated", and on an update the object's image and its
	 * import link as they were just before (account_image, link_before;
	 * NULL: none), which the caller takes over and frees */
	const char *written;
	char *before, *link_was;
	/* references already resolved to an imported resource of the run, so
	 * that a batch whose resources share contacts asks once per contact */
	struct imp_ref {
		const char *type;
		char ext[192];
		uint64_t id;
	} refs[8];
	size_t nrefs;
	/* between importer_rows_begin and importer_rows_end: the links and
	 * contact links importer_write makes, kept to be written together */
	struct imp_rows *rows;
};

/* The type at position i of the import order, or NULL past the last. */
const char *importer_type_at(size_t i);
/* The rank of type in the import order (0 first), or -1 when no importer
 * handles it. */
int importer_rank(const char *type);
/* The account table of type's objects into *t; false when no importer
 * handles type. */
bool importer_table(const char *type, enum account_table *t);
/* True when type checks something and is imported paused with the run option
 * import_paused (monitors, heartbeats). */
bool importer_pausable(const char *type);
/* The target table of type ("monitors", ...), or NULL. */
const char *importer_model(const char *type);

/* Check that norm (normalized data of type) can be stored. 0, or -1 with a
 * human reason in why. Pure. */
int importer_validate(const char *type, json_object *norm, char *why, size_t n);

/* Before a batch of the run's resources of type with ids in (after, last]:
 * learn, with two queries, whether any import link of this user and provider
 * matches one of them and whether the user has any object of the type, so
 * that importer_find_link and importer_find_conflict for that type answer 0
 * without a query of their own when there can be none (a first import into
 * a fresh account). Read-committed, like the per-resource queries it stands
 * for. 0, or -1 on a DB error (nothing is assumed then). */
int importer_batch_facts(struct imp_ctx *, const char *type, uint64_t after, uint64_t last);

/* The live target of an earlier import of this external resource by this user
 * (import_links, target row still there). 1 with *id, 0 none, -1 DB error. */
int importer_find_link(struct imp_ctx *, const char *type, const char *external_id, uint64_t *id);

/* An account object with the same natural key, whoever created it (another
 * provider's import, or the user). 1 with *id, 0 none, -1 DB error. */
int importer_find_conflict(struct imp_ctx *, const char *type, json_object *norm, uint64_t *id);

/* A short human name of a resource from its normalized data (its name at the
 * provider, or its URL or address; an address that is a URL, such as a
 * webhook's, by its origin only: "https://hooks.example.com/…"), at most 255
 * characters cut on a character boundary; "" when it has none. */
void importer_label(const char *type, json_object *norm, char *out, size_t n);

/* A resource type as people write it ("maintenance window"), the type
 * itself for one no importer handles; its plural adds an "s". */
const char *importer_noun(const char *type);

/* What a resource of type will write into the account, for the review
 * (docs/review.md): an object of account columns, secrets named, never
 * shown ("(not shown)"); for a monitor or heartbeat also "alerts" (the
 * contacts it will alert) and "not_alerted" (those it names that will not
 * be, and why), from alerts: the run's contacts it names, in its order,
 * [{"external_id", "name", "type", "address", "status"}] with status null
 * for one not in the run (NULL: none). import_paused: the run's option.
 * A new object, or NULL for a kind no importer handles. */
json_object *importer_preview(const char *type, json_object *norm, json_object *alerts, bool import_paused);

/* Why the plan chose action ("create", "update" or "conflict") for a resource
 * of type, in words; id is the object it updates or conflicts with. 0, or -1
 * on a DB error. */
int importer_plan_reason(struct imp_ctx *, const char *type, const char *action, uint64_t id, char *out,
    size_t n);

/* Why the run could not read some keys of norm and which (its "unread",
 * providers/common.h), in words into out ("its details could not be read
 * (HTTP 503): url, keyword"); false ("") when it read every one. */
bool importer_unread(json_object *norm, char *out, size_t n);

/* Write one resource: create a new account object (target 0) or update target,
 * with its lists (contacts of monitors and heartbeats, entries of status pages
 * and maintenance windows, invoice lines), then point the link at it. An
 * update whose target is gone creates instead. An update keeps the object's
 * values, and lists, of the keys the run could not read (norm's "unread").
 * Returns an enum imp_result; why gets a human text for IMP_INVALID and
 * IMP_DEFER; the values written cut to fit their columns are named in
 * ctx->cuts, those kept in ctx->kept and the alert links it could not make in
 * ctx->unlinked (for warnings in the run log), and what a revert needs in
 * ctx->written, before and link_was. */
enum imp_result importer_write(struct imp_ctx *, const char *type, const char *external_id, json_object *norm,
    uint64_t target, uint64_t *target_id, char *why, size_t n);
/* Free what importer_write kept for a revert (ctx->before, link_was). */
void importer_forget(struct imp_ctx *);

/* A batch: from here on importer_write keeps the new monitors, import links and contact links it
 * makes (multi-row statements instead of one or more per resource), until importer_rows_flush
 * writes them in the caller's transaction, the monitors first; it must run before that commits.
 * Until then a new monitor's id is IMP_LATER + its place among them, in the links and in what the
 * caller keeps (importer_rows_resolve). importer_rows_end frees them (written or not) and makes
 * importer_write write at once again. */
#define IMP_LATER (UINT64_C(1) << 63)
void importer_rows_begin(struct imp_ctx *);
int importer_rows_flush(struct imp_ctx *); /* 0, or -1 on a DB error */
/* After importer_rows_flush: the ids at column col of rows (a JSON array of arrays) that were
 * IMP_LATER + a place made the new monitors' ids. */
void importer_rows_resolve(const struct imp_ctx *, json_object *rows, size_t col);
/* The rows importer_rows_flush would write now. */
size_t importer_rows_pending(const struct imp_ctx *);
void importer_rows_end(struct imp_ctx *);

/* ---- pure helpers (exported for the unit tests) ---- */

/* The date "YYYY-MM-DD" of an ISO date or date-time (time_parse's TIME_ISO;
 * the UTC date of one with an offset), years 1000-9999. 0 with out, or -1. */
int imp_date(const char *s, char out[11]);
/* A decimal amount as DECIMAL(14,2) text ("12", "-3.5", "1234.567" cut to
 * two decimals). 0 with out, or -1. */
int imp_decimal(const char *s, char out[24]);

#endif
