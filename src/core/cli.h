/* What the three programs share on their command lines: --help on stdout
 * (exit 0), --version (exit 0), and a usage error as one line with a hint
 * (exit 2). Exit codes: 0 done, 1 failed (the message says why), 2 usage. */
#ifndef MIGRATOR_CLI_H
#define MIGRATOR_CLI_H

/* Print text on stdout; returns 0. */
int cli_help(const char *text);
/* Print "<prog> (migrator) <version>"; returns 0. */
int cli_version(const char *prog);
/* Print "<prog>: <message>; see <prog> --help" on stderr; returns 2. */
int cli_misuse(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
