/* libFuzzer target: the INI config reader and the secret scrubber, on any
 * bytes. Input: a byte choosing which, then the text. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config.h"
#include "core/err.h"
#include "core/scrub.h"
#include "core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
config_from(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/migrator-fuzz-conf-XXXXXX";
	struct config cfg;
	struct err e;
	int fd = mkstemp(path);

	if (fd < 0)
		return;
	if (write(fd, data, size) == (ssize_t)size) {
		err_clear(&e);
		memset(&cfg, 0, sizeof cfg);
		config_load(&cfg, path, &e);
		config_free(&cfg);
	}
	close(fd);
	unlink(path);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] % 2 == 0) {
		config_from(data + 1, size - 1);
	} else {
		struct scrub *s = scrub_new();
		char *out, buf[64];
		size_t n;

		scrub_add(s, "sk_live/4eC39HqLyjWDarjtT1zdp7dc");
		scrub_add(s, "demo-key");
		out = scrub_text(s, (const char *)data + 1, size - 1, &n);
		if (n > 0 && strstr(out, "4eC39HqLyjWD") != NULL)
			abort(); /* a 12-character run of a secret survived */
		utf8_clean(buf, sizeof buf, out, 40);
		free(out);
		scrub_free(s);
	}
	return 0;
}
