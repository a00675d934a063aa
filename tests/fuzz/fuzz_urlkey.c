/* libFuzzer target: a monitor's natural key (url_key), on any bytes. Input:
 * a byte choosing the port (below 128: none; else (byte - 128) * 500), then
 * the address.
 * Oracles: the address, lower-cased, starts with its key's prefix; and when
 * the key, read as an address, is its own key again (an incoming monitor
 * whose URL is written as that key), it starts with that key's prefix too:
 * monitor_find, which reads only the monitors whose URL starts with the
 * incoming key's prefix, finds this one. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/url.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *low, *prefix, *key, *prefix2, *key2;
	int64_t port;

	if (size < 1)
		return 0;
	port = data[0] < 128 ? -1 : (int64_t)(data[0] - 128) * 500;
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	low = url_lower(text);
	key = url_key(text, port, &prefix);
	if (!starts(low, prefix))
		abort();
	key2 = url_key(key, -1, &prefix2);
	if (strcmp(key2, key) == 0 && !starts(low, prefix2))
		abort();
	free(key2);
	free(prefix2);
	free(key);
	free(prefix);
	free(low);
	free(text);
	return 0;
}
