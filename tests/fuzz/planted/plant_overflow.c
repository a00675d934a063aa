/* A planted fault for tests/fuzz/selftest.sh: a heap overflow on any input
 * that starts with 'B'. run.sh must fail on it (ASan). Never part of the suite. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *p = malloc(4);

	memset(p, 0, 4);
	if (size > 0 && data[0] == 'B')
		p[size + 4] = 1;
	free(p);
	return 0;
}
