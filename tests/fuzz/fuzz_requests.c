/* libFuzzer target: what a request brings before any handler sees it: the
 * query string (REST), a JSON body, every operation's argument validation in
 * both transports, and the JSON-RPC envelope (MCP). Input: a byte choosing
 * what to read, then the text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/ops.h"
#include "core/jsonx.h"
#include "http/http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
all_ops(json_object *in)
{
	for (int i = 0; i < OP__COUNT; i++)
		for (int t = 0; t < 2; t++) {
			struct args a;
			struct err e;

			err_clear(&e);
			op_args(&op_table[i], in, t == 0 ? TRANSPORT_REST : TRANSPORT_TOOL, &a, &e);
			args_free(&a);
		}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	json_object *in = NULL;
	int ok;

	if (size < 1)
		return 0;
	text = strndup((const char *)data + 1, size - 1);
	switch (data[0] % 3) {
	case 0:
		if (http_parse_query(text, &in) == 0) {
			json_object_object_add(in, "id",
			    json_object_new_string("0192b8e4-5c1a-7c3e-9f00-aabbccddeeff"));
			all_ops(in);
		}
		(void)http_is_json(text);
		break;
	case 1:
		in = jx_parse((const char *)data + 1, size - 1, &ok);
		if (in != NULL && json_object_is_type(in, json_type_object))
			all_ops(in);
		break;
	default: {
		struct envelope env;
		struct refusal no;
		mcp_envelope((const char *)data + 1, size - 1, &env, &no);
		json_object_put(env.msg);
		break;
	}
	}
	json_object_put(in);
	free(text);
	return 0;
}
