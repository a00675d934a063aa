/* migrator-runner: claims queued jobs and works through them (issue 3). */
#include <stdio.h>

int
main(void)
{
	fputs("migrator-runner: not built yet\n", stderr);
	return 1;
}
