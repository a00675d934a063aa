/* A planted fault for tests/fuzz/selftest.sh: a signed integer overflow on
 * any input that starts with 'U'. run.sh must fail on it: UBSan reports are
 * fatal there (-fno-sanitize-recover). Never part of the suite. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile int big = INT_MAX;

	if (size > 0 && data[0] == 'U')
		big += (int)size;
	return big == 0;
}
