/* Logging to stderr (the web server's error log for the FastCGI program, the
 * cron mail or journal for the runner), one line per message, with file:line.
 * Never pass a secret to these functions. */
#ifndef MIGRATOR_LOG_H
#define MIGRATOR_LOG_H

enum log_level { LOG_LVL_ERROR, LOG_LVL_WARN, LOG_LVL_INFO, LOG_LVL_DEBUG };

void log_init(const char *prog, enum log_level max);
void log_msg(enum log_level, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define log_error(...) log_msg(LOG_LVL_ERROR, __FILE__, __LINE__, __VA_ARGS__)
#define log_warn(...)  log_msg(LOG_LVL_WARN, __FILE__, __LINE__, __VA_ARGS__)
#define log_info(...)  log_msg(LOG_LVL_INFO, __FILE__, __LINE__, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_LVL_DEBUG, __FILE__, __LINE__, __VA_ARGS__)

#endif
