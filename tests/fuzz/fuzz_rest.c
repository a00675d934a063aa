/* libFuzzer target: the REST transport with its query parser: method, path,
 * query, headers and body (fakeapi.h reads them from the input) through
 * http_handle, the router (src/http/rest.c), the operation table's checks
 * and argument validation (src/api/ops.c) and the handlers
 * (src/api/migrations.c) on the fake database of fakeapi.h.
 *
 * Checks: the status is one docs/openapi.yaml lists for the operation (or,
 * for a path with none, one any request may get); a 5xx only when the fake
 * database failed; every body UTF-8 JSON; an error body is the spec's
 * {"message","code"}, with "errors" (each field a list of messages) on a
 * 422 and "request_id" on a 5xx (but on /mcp, whose errors are JSON-RPC's:
 * fuzz_mcp.c checks those); a 405 says Allow, a 429 Retry-After; every
 * answer says nosniff and no-store; every log line is UTF-8. */
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

/* {"message","code"[,"errors"][,"request_id"]} */
static void
check_error_body(json_object *body, int status)
{
	json_object *errs;

	FUZZ_CHECK(jx_str(body, "message") != NULL && jx_str(body, "message")[0] != '\0',
	    "an error without a message");
	FUZZ_CHECK(jx_str(body, "code") != NULL, "an error without a code");
	FUZZ_CHECK((status >= 500) == (jx_str(body, "request_id") != NULL), "request_id on a %d", status);
	if (!json_object_object_get_ex(body, "errors", &errs))
		return;
	FUZZ_CHECK(status == 422 && json_object_is_type(errs, json_type_object), "errors on a %d", status);
	json_object_object_foreach (errs, field, list) {
		FUZZ_CHECK(json_object_is_type(list, json_type_array) && json_object_array_length(list) > 0,
		    "errors.%s is not a list of messages", field);
		for (size_t i = 0; i < json_object_array_length(list); i++)
			FUZZ_CHECK(json_object_is_type(json_object_array_get_idx(list, i), json_type_string),
			    "errors.%s holds a message that is not a string", field);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fake_req f;
	struct http_resp resp;
	json_object *body;

	fake_request(&f, data, size);
	memset(&resp, 0, sizeof resp);
	http_handle(&fake_app, &f.req, &resp);
	body = fake_check_answer(&f, &resp);
	if (resp.status >= 400 && strcmp(f.req.path, "/mcp") != 0) /* /mcp's are JSON-RPC (fuzz_mcp.c) */
		check_error_body(body, resp.status);
	fake_check_headers(&resp);
	json_object_put(body);
	http_resp_free(&resp);
	fake_request_free(&f);
	return 0;
}
