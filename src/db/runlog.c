#include <stdlib.h>
#include <string.h>

#include "core/jsonx.h"
#include "core/util.h"
#include "db/runlog.h"

int
runlog_add(struct db *db, const char *run_id, const char *level, const char *message, json_object *context,
    struct err *e)
{
	char msg[RUNLOG_MAX_BYTES];
	/* a provider's text in a string of the context: '?' for what is not UTF-8 */
	char *ctx = utf8_dup(context ? jx_text(context) : "{}");
	int64_t n;

	utf8_copy(msg, sizeof msg, message); /* the column holds 2048 characters */
	n = db_exec(db, ST_LOG_INSERT, "ssss", run_id, level, msg, ctx);
	free(ctx);
	return n < 0 ? db_fail(db, e) : 0;
}
