#include "queue/queue.h"

int
queue_push(struct db *db, const char *queue, const char *run_id, uint64_t resource_id,
    const char *payload, struct err *e)
{
	int64_t n = resource_id ? db_exec(db, ST_JOB_INSERT, "ssus", queue, run_id, resource_id, payload)
	                        : db_exec(db, ST_JOB_INSERT, "ssns", queue, run_id, payload);

	return n < 0 ? db_fail(db, e) : 0;
}
