/* The run log (table migration_run_logs). Never pass a secret in message or context. */
#ifndef MIGRATOR_RUNLOG_H
#define MIGRATOR_RUNLOG_H
#include <json-c/json.h>

#include "core/err.h"
#include "db/db.h"

#define RUNLOG_MAX_BYTES 2048 /* a message longer than this is cut on a character boundary */

/* Append an entry; level is "info", "warning" or "error"; context may be
 * NULL (stored as {}). Borrowed. Whatever message and context hold, what is
 * stored is valid UTF-8 (utf8_copy). 0 or -1 with e. */
int runlog_add(struct db *, const char *run_id, const char *level, const char *message, json_object *context,
    struct err *e);

/* After an exclusion (the API's, or the runner's of a larger one): a warning
 * naming the monitors and heartbeats that alert a contact left out, which
 * will not alert it; nothing when there are none. 0 or -1 with e. */
int runlog_lost_links(struct db *, const char *run, struct err *e);

#endif
