/* The job queue on the `jobs` table (design §5). Queues: discovery, planning,
 * resources. Enqueueing happens inside the caller's transaction. */
#ifndef MIGRATOR_QUEUE_H
#define MIGRATOR_QUEUE_H
#include <stdint.h>

#include "core/err.h"
#include "db/db.h"

#define QUEUE_DISCOVERY "discovery"
#define QUEUE_PLANNING "planning"
#define QUEUE_RESOURCES "resources"

/* Queue a job for run_id (resource_id 0 = none, payload may be NULL),
 * available now. 0 or -1 with e. */
int queue_push(struct db *, const char *queue, const char *run_id, uint64_t resource_id,
    const char *payload, struct err *e);

#endif
