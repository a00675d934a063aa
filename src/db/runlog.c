#include <stdlib.h>
#include <string.h>

#include "core/jsonx.h"
#include "core/util.h"
#include "db/runlog.h"
#include "db/runs.h"

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

int
runlog_lost_links(struct db *db, const char *run, struct err *e)
{
	char pairs[1024], msg[1200];
	json_object *ctxo;
	int64_t lost = resources_lost_links(db, run, pairs, sizeof pairs);
	int rc;

	if (lost <= 0)
		return lost < 0 ? db_fail(db, e) : 0;
	utf8_format(msg, sizeof msg,
	    "%lld alert link%s to contacts left out will not be imported; these monitors and heartbeats will not "
	    "alert them: %s%s.",
	    (long long)lost, lost == 1 ? "" : "s", pairs, lost > 10 ? ", …" : "");
	ctxo = json_object_new_object();
	jx_add_int(ctxo, "lost_alert_links", lost);
	rc = runlog_add(db, run, "warning", msg, ctxo, e);
	json_object_put(ctxo);
	return rc;
}
