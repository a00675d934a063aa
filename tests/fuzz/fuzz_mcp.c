/* libFuzzer target: the tool transport: the HTTP-level checks, the JSON-RPC
 * envelope (src/http/mcp.c), method dispatch, initialize, ping, tools/list
 * and tools/call with every tool's argument validation, through http_handle
 * and the real dispatcher into the handlers on the fake database of
 * fakeapi.h (the request text and its tail: see there).
 *
 * Checks: the status is one docs/openapi.yaml lists for /mcp, a 5xx only
 * when the fake database failed; a 202 has no body; every other answer is
 * UTF-8 JSON, a JSON-RPC 2.0 object with a result or an error (never both),
 * an error with an integer code and a message; a 200 carries the request's
 * id (equal, of the same type, and an integer as the request wrote it, never
 * clamped), a refusal carries it or none; a tool result has a text item,
 * whose text is the error body ({"message","code"}) when isError is set and
 * otherwise the same JSON as structuredContent; every tool listed has a name
 * and an object inputSchema; every log line UTF-8. */
// fuzz-ldflags: -Wl,--wrap=db_query,--wrap=db_next,--wrap=db_str,--wrap=db_strn,--wrap=db_len,--wrap=db_i64,--wrap=db_free,--wrap=db_exec,--wrap=db_vexec_tail,--wrap=db_insert_id,--wrap=db_scalar,--wrap=db_begin,--wrap=db_commit,--wrap=db_rollback,--wrap=db_error_class,--wrap=db_error,--wrap=db_fail_,--wrap=log_msg
#include "fakeapi.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fake_init();
	return 0;
}

/* A tool's result: one text item at least; an error's text is the REST
 * error body, a success's the JSON of structuredContent. */
static void
check_tool_result(json_object *res)
{
	json_object *content, *item, *sc, *text_json, *is_error;
	const char *text;
	int ok;

	FUZZ_CHECK(json_object_object_get_ex(res, "content", &content) &&
	        json_object_is_type(content, json_type_array) && json_object_array_length(content) > 0,
	    "a tool result without content");
	item = json_object_array_get_idx(content, 0);
	FUZZ_CHECK(jx_str(item, "type") != NULL && strcmp(jx_str(item, "type"), "text") == 0 &&
	        (text = jx_str(item, "text")) != NULL,
	    "a tool result whose first item is not text");
	text_json = jx_parse(text, strlen(text), &ok);
	FUZZ_CHECK(ok, "a tool result's text is not JSON: %s", text);
	if (json_object_object_get_ex(res, "isError", &is_error) && json_object_get_boolean(is_error)) {
		FUZZ_CHECK(jx_str(text_json, "message") != NULL && jx_str(text_json, "code") != NULL,
		    "a tool error's text is not an error body: %s", text);
	} else {
		FUZZ_CHECK(json_object_object_get_ex(res, "structuredContent", &sc),
		    "a tool success without structuredContent");
		FUZZ_CHECK(json_object_equal(sc, text_json),
		    "a tool result's text is not its structuredContent");
	}
	json_object_put(text_json);
}

static void
check_tools_list(json_object *res)
{
	json_object *tools, *schema;

	FUZZ_CHECK(json_object_object_get_ex(res, "tools", &tools) &&
	        json_object_is_type(tools, json_type_array),
	    "tools/list without tools");
	for (size_t i = 0; i < json_object_array_length(tools); i++) {
		json_object *t = json_object_array_get_idx(tools, i);

		FUZZ_CHECK(jx_str(t, "name") != NULL && op_by_tool(jx_str(t, "name")) != NULL,
		    "a tool without a name");
		FUZZ_CHECK(json_object_object_get_ex(t, "inputSchema", &schema) &&
		        jx_str(schema, "type") != NULL && strcmp(jx_str(schema, "type"), "object") == 0,
		    "tool %s: its inputSchema is not an object schema", jx_str(t, "name"));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fake_req f;
	struct http_resp resp;
	json_object *msg, *answer, *id = NULL, *got_id, *result, *error, *v;
	const char *method = NULL;
	bool has_id = false;
	int ok;

	fake_request(&f, data, size);
	/* the message as the client sent it: its id and method */
	msg = jx_parse(f.req.body, f.req.body_len, &ok);
	if (json_object_is_type(msg, json_type_object)) {
		has_id = json_object_object_get_ex(msg, "id", &id);
		method = jx_str(msg, "method");
	}
	memset(&resp, 0, sizeof resp);
	http_handle(&fake_app, &f.req, &resp);
	answer = fake_check_answer(&f, &resp);
	fake_check_headers(&resp);
	if (resp.status == 202)
		FUZZ_CHECK(answer == NULL, "a 202 with a body");
	if (answer != NULL && strcmp(f.req.path, "/mcp") == 0) {
		FUZZ_CHECK(jx_str(answer, "jsonrpc") != NULL && strcmp(jx_str(answer, "jsonrpc"), "2.0") == 0,
		    "an answer that is not JSON-RPC 2.0");
		FUZZ_CHECK(json_object_object_get_ex(answer, "result", &result) !=
		        json_object_object_get_ex(answer, "error", &error),
		    "an answer with both or neither of result and error");
		if (json_object_object_get_ex(answer, "error", &error)) {
			FUZZ_CHECK(json_object_object_get_ex(error, "code", &v) &&
			        json_object_is_type(v, json_type_int),
			    "an error without an integer code");
			FUZZ_CHECK(jx_str(error, "message") != NULL, "an error without a message");
		}
		if (json_object_object_get_ex(answer, "id", &got_id)) {
			const char *t = json_object_to_json_string(got_id);
			FUZZ_CHECK(has_id && json_object_equal(got_id, id),
			    "the answer's id is not the request's");
			/* and not a clamped reading of it (99999999999999999999 read as 2^64 - 1) */
			FUZZ_CHECK(!json_object_is_type(got_id, json_type_int) ||
			        memmem(f.req.body, f.req.body_len, t, strlen(t)) != NULL,
			    "the answer's id %s is not the one the request gave", t);
		}
		if (resp.status == 200) {
			FUZZ_CHECK(json_object_object_get_ex(answer, "id", NULL),
			    "a 200 without the request's id");
			FUZZ_CHECK(method != NULL, "a 200 to a message without a method");
			if (json_object_object_get_ex(answer, "result", &result) &&
			    strcmp(method, "tools/call") == 0)
				check_tool_result(result);
			if (json_object_object_get_ex(answer, "result", &result) &&
			    strcmp(method, "tools/list") == 0)
				check_tools_list(result);
		} else
			FUZZ_CHECK(!json_object_object_get_ex(answer, "result", NULL), "a %d with a result",
			    resp.status);
	}
	json_object_put(answer);
	json_object_put(msg);
	http_resp_free(&resp);
	fake_request_free(&f);
	return 0;
}
