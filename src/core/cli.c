#include <stdarg.h>
#include <stdio.h>

#include "core/cli.h"

int
cli_help(const char *text)
{
	fputs(text, stdout);
	return 0;
}

int
cli_version(const char *prog)
{
	printf("%s (migrator) %s\n", prog, MIGRATOR_VERSION);
	return 0;
}

int
cli_misuse(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; see %s --help\n", prog);
	return 2;
}
