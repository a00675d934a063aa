/* libFuzzer target: every provider adapter's parse function on a hostile
 * answer. Input: a byte choosing the provider and the HTTP status, a cursor
 * line (empty: the start), then the body. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "providers/adapters.h"
#include "providers/common.h"

/* clang-format off */
static const prov_parse_fn parsers[] = {
	uptimerobot_parse, pingdom_parse, statuscake_parse, better_stack_parse, updown_parse,
	healthchecks_parse, cronitor_parse, statuspage_parse, whmcs_parse,
};
/* clang-format on */
static const long statuses[] = { 200, 200, 200, 200, 401, 403, 404, 429, 500 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct httpc_resp resp;
	struct prov_page page;
	struct prov_error err;
	const uint8_t *nl;
	char *cursor;
	size_t clen;

	if (size < 1)
		return 0;
	nl = memchr(data + 1, '\n', size - 1);
	clen = nl ? (size_t)(nl - data - 1) : 0;
	cursor = clen ? strndup((const char *)data + 1, clen) : NULL;
	memset(&resp, 0, sizeof resp);
	resp.status = statuses[(data[0] >> 4) % (sizeof statuses / sizeof statuses[0])];
	resp.len = nl ? size - (size_t)(nl - data) - 1 : 0;
	resp.body = malloc(resp.len + 1);
	memcpy(resp.body, nl ? nl + 1 : data, resp.len);
	resp.body[resp.len] = '\0';
	httpc_resp_set_header(&resp, "retry-after", "7");
	memset(&page, 0, sizeof page);
	memset(&err, 0, sizeof err);
	parsers[data[0] % (sizeof parsers / sizeof parsers[0])](cursor, &resp, &page, &err);
	prov_page_free(&page);
	httpc_resp_free(&resp);
	free(cursor);
	return 0;
}
