#include <string.h>

#include "core/jsonx.h"
#include "db/runlog.h"

int
runlog_add(struct db *db, const char *run_id, const char *level, const char *message,
    json_object *context, struct err *e)
{
	char msg[2048];
	size_t n = strlen(message);

	/* Cut at the column size, on a UTF-8 boundary. */
	if (n >= sizeof msg) {
		n = sizeof msg - 1;
		while (n > 0 && ((unsigned char)message[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(msg, message, n);
	msg[n] = '\0';
	if (db_exec(db, ST_LOG_INSERT, "ssss", run_id, level, msg,
	        context ? jx_text(context) : "{}") < 0)
		return db_fail(db, e);
	return 0;
}
