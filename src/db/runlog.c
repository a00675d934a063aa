#include <string.h>

#include "core/jsonx.h"
#include "core/util.h"
#include "db/runlog.h"

int
runlog_add(struct db *db, const char *run_id, const char *level, const char *message, json_object *context,
    struct err *e)
{
	char msg[RUNLOG_MAX_BYTES];

	utf8_copy(msg, sizeof msg, message); /* the column holds 2048 characters */
	if (db_exec(db, ST_LOG_INSERT, "ssss", run_id, level, msg, context ? jx_text(context) : "{}") < 0)
		return db_fail(db, e);
	return 0;
}
