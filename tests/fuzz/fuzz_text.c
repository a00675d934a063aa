/* libFuzzer target: the INI config reader, on any bytes. (The scrubber has
 * its own target with an oracle, fuzz_scrub.c.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config.h"
#include "core/err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/migrator-fuzz-conf-XXXXXX";
	struct config cfg;
	struct err e;
	int fd = mkstemp(path);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		err_clear(&e);
		memset(&cfg, 0, sizeof cfg);
		config_load(&cfg, path, &e);
		config_free(&cfg);
	}
	close(fd);
	unlink(path);
	return 0;
}
