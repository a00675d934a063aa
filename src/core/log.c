#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/datetime.h"
#include "core/log.h"
#include "core/util.h"

static const char *log_prog = "migrator";
static enum log_level log_max = LOG_LVL_INFO;
static const char *const level_names[] = { "error", "warning", "info", "debug" };

void
log_init(const char *prog, enum log_level max)
{
	const char *slash = strrchr(prog, '/');

	log_prog = slash ? slash + 1 : prog;
	log_max = max;
}

void
log_msg(enum log_level lvl, const char *file, int line, const char *fmt, ...)
{
	char line_buf[2048], ts[21];
	va_list ap;
	int n;

	if (lvl > log_max)
		return;
	time_format_iso(time(NULL), true, ts);
	n = snprintf(line_buf, sizeof line_buf, "%s %s[%ld] %s %s:%d: ", ts, log_prog, (long)getpid(),
	    level_names[lvl], file, line);
	if (n < 0 || (size_t)n >= sizeof line_buf)
		n = 0;
	va_start(ap, fmt);
	utf8_vformat(line_buf + n, sizeof line_buf - (size_t)n, fmt, ap); /* valid UTF-8, however long */
	va_end(ap);
	/* One write per line keeps lines whole when several processes log. */
	for (char *p = line_buf; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	fprintf(stderr, "%s\n", line_buf);
	fflush(stderr);
}
