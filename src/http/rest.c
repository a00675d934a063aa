/* The REST view of the operation table: route, authenticate, check, parse,
 * run, and shape the response. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/jsonx.h"
#include "core/xalloc.h"
#include "http/http.h"

/* Match path against a template with one "{run}" segment; the segment goes to run[]. */
static bool
path_match(const char *tmpl, const char *path, char *run, size_t runlen)
{
	while (*tmpl && *path) {
		if (strncmp(tmpl, "{run}", 5) == 0) {
			size_t n = strcspn(path, "/");
			if (n == 0)
				return false;
			if (n < runlen) {
				memcpy(run, path, n);
				run[n] = '\0';
			} else
				run[0] = '\0'; /* too long to be a run id: not found */
			path += n;
			tmpl += 5;
			continue;
		}
		if (*tmpl++ != *path++)
			return false;
	}
	return *tmpl == '\0' && *path == '\0';
}

/* Build the operation's raw inputs: body fields, then query, then the path id. */
static int
build_inputs(const struct op *op, const struct http_req *req, const char *run, json_object **in,
    struct err *e)
{
	json_object *q, *body = NULL;
	int ok;

	*in = NULL;
	if (strcmp(op->method, "POST") == 0 && req->body_too_large)
		return err_set(e, ERR_TOO_LARGE, NULL);
	if (strcmp(op->method, "POST") == 0 && req->body_len > 0) {
		if (!http_is_json(req->content_type))
			return err_set(e, ERR_UNSUPPORTED_MEDIA, NULL);
		body = jx_parse_input(req->body, req->body_len, &ok);
		if (!ok)
			return err_set(e, ERR_MALFORMED_JSON, NULL);
		if (!json_object_is_type(body, json_type_object)) {
			json_object_put(body);
			err_field(e, "body", "The request body must be a JSON object.");
			return err_set(e, ERR_VALIDATION, "The request body must be a JSON object.");
		}
	}
	if (http_parse_query(req->query, &q) != 0) {
		json_object_put(body);
		return err_set(e, ERR_BAD_REQUEST, "The query string is malformed.");
	}
	*in = body ? body : json_object_new_object();
	json_object_object_foreach (q, k, v)
		json_object_object_add(*in, k, json_object_get(v));
	json_object_put(q);
	if (run != NULL)
		json_object_object_add(*in, "id", json_object_new_string(run));
	return 0;
}

/* The operation for the request's method and path, with the run id of the
 * path in run; NULL when none. *known says whether any operation has this
 * path, and allow lists their methods (for a 405). */
static const struct op *
route(const struct http_req *req, char *run, size_t runlen, char *allow, size_t allowlen, bool *known)
{
	const struct op *op = NULL;

	*known = false;
	for (int i = 0; i < OP__COUNT; i++) {
		char cap[64] = "";
		if (!path_match(op_table[i].path, req->path, cap, sizeof cap))
			continue;
		*known = true;
		if (strstr(allow, op_table[i].method) == NULL)
			snprintf(allow + strlen(allow), allowlen - strlen(allow), "%s%s",
			    allow[0] ? ", " : "", op_table[i].method);
		if (strcmp(op_table[i].method, req->method) == 0) {
			op = &op_table[i];
			snprintf(run, runlen, "%s", cap);
		}
	}
	return op;
}

/* The success answer of op: its status and body (out is released), and
 * Location for a new run; a CSV answer (OPF_CSV) as text/csv. */
static void
answer(struct app *app, const struct op *op, json_object *out, struct http_resp *resp)
{
	json_object *d;

	if ((op->flags & OPF_LOCATION) && json_object_object_get_ex(out, "data", &d) &&
	    jx_str(d, "id") != NULL)
		http_header(resp, "Location", "%s/api/v1/migrations/%s", app->cfg->public_url,
		    jx_str(d, "id"));
	if (op->status == 204) {
		json_object_put(out);
		resp->status = 204;
		return;
	}
	if ((op->flags & OPF_CSV) && jx_str(out, "csv") != NULL) {
		http_text(resp, op->status, out, "csv", "text/csv; charset=utf-8");
		return;
	}
	http_json(resp, op->status, out);
}

void
rest_handle(struct app *app, struct http_req *req, struct http_resp *resp)
{
	const struct op *op = NULL;
	struct principal who;
	struct rate rate;
	struct err e;
	json_object *in = NULL, *out = NULL;
	char run[64] = "", allow[64] = "";
	bool counted, known = false, has_run = false;

	err_clear(&e);
	if (http_authenticate(app, req, &who, &rate, &counted, &e) != 0) {
		if (counted)
			http_rate_headers(resp, &rate);
		http_error(resp, req, &e);
		return;
	}
	http_rate_headers(resp, &rate);
	op = route(req, run, sizeof run, allow, sizeof allow, &known);
	has_run = op != NULL && strstr(op->path, "{run}") != NULL;
	/* Order (design §3): flag and scope of the operation, then the rate
	 * limit (op_check), then routing and validation. A path with no
	 * operation has no flag or scope to check. */
	if (op == NULL && rate.exceeded) {
		e.retry_after = rate.retry_after;
		err_set(&e, ERR_RATE_LIMITED, NULL);
	} else if (!known)
		err_set(&e, ERR_NOT_FOUND, NULL);
	else if (op == NULL) {
		http_header(resp, "Allow", "%s", allow);
		err_set(&e, ERR_METHOD, NULL);
	}
	if (e.code != ERR_NONE || op_check(app, op, &who, &rate, &e) != 0 ||
	    build_inputs(op, req, has_run ? run : NULL, &in, &e) != 0 ||
	    op_run(app, op, &who, in, TRANSPORT_REST, &out, &e) != 0) {
		jx_wipe_strings(in); /* the inputs may hold credentials, whatever went wrong */
		json_object_put(in);
		http_error(resp, req, &e);
		return;
	}
	jx_wipe_strings(in);
	json_object_put(in);
	answer(app, op, out, resp);
}
