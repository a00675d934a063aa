/* The tool view of the operation table: MCP (JSON-RPC 2.0) over Streamable
 * HTTP at POST /mcp, protocol revisions 2025-11-25 and 2025-06-18 (and
 * 2025-03-26 when a client asks for it), stateless, plain application/json
 * answers, no session id, no SSE stream (design §7, docs/mcp.md).
 *
 * HTTP-level checks, in order (each refusal is a JSON-RPC error without id):
 *   token 401 (and the IP's rate bucket) -> Origin 403 -> method 405 ->
 *   scope mcp:use 403 -> request rate 429 -> body size 413 -> media type 415 ->
 *   JSON 400/-32700 -> one JSON-RPC object 400/-32600 ->
 *   MCP-Protocol-Version (not on initialize) 400.
 * After that every request is answered with HTTP 200 (a result or a JSON-RPC
 * error echoing its id) and every notification or client response with 202.
 *
 * tools/call: an unknown tool, or one hidden by the features:migrator flag, is
 * -32602 like malformed params; everything the operation itself refuses
 * (scope, state, limits, argument values) is a result with isError:true whose
 * text is the REST error body, so a model can read the code and correct
 * itself. Success: structuredContent is the handler's body, and one text item
 * carries the same JSON. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "http/http.h"
#include "importers/importer.h"
#include "providers/provider.h"

#define MCP_LATEST "2025-11-25"

/* Revisions we speak: answered in initialize, accepted in MCP-Protocol-Version. */
static const char *const mcp_versions[] = { "2025-11-25", "2025-06-18", "2025-03-26", NULL };

static const char instructions[] =
    "Imports monitors, contacts, status pages and hosting data from another provider into this "
    "account. Start a run with migration-create, poll migration-get until its status is "
    "awaiting_review, inspect the discovered resources, then call migration-execute. Failed "
    "resources can be retried with migration-retry-failed; a run paused on conflicts continues "
    "after migration-resolve-conflicts. Errors are results with isError and a JSON text holding "
    "message and code.";

/* The one message for an unknown run and another user's run. */
static const char not_found_text[] = "Migration run not found or not accessible.";

/* A JSON-RPC error object; id is borrowed (NULL: no id member), data owned. */
static json_object *
rpc_error(json_object *id, int code, const char *msg, json_object *data)
{
	json_object *o = json_object_new_object(), *err = json_object_new_object();

	jx_add_str(o, "jsonrpc", "2.0");
	if (id != NULL)
		json_object_object_add(o, "id", json_object_get(id));
	json_object_object_add(err, "code", json_object_new_int(code));
	jx_add_str(err, "message", msg);
	if (data != NULL)
		json_object_object_add(err, "data", data);
	json_object_object_add(o, "error", err);
	return o;
}

/* An HTTP-level refusal for e: its status, Retry-After on 429, a JSON-RPC
 * error (the table's code) with data {status, code}, the request id and a log
 * line on 5xx. */
static void
refuse(struct http_resp *resp, const struct http_req *req, const struct err *e, json_object *id)
{
	const struct err_info *info = err_info(e->code);
	json_object *body = http_error_body(req, req->path, e), *data = json_object_new_object(), *v, *answer;

	json_object_object_add(data, "status", json_object_new_int(info->status));
	if (json_object_object_get_ex(body, "code", &v))
		json_object_object_add(data, "code", json_object_get(v));
	if (json_object_object_get_ex(body, "request_id", &v))
		json_object_object_add(data, "request_id", json_object_get(v));
	json_object_object_get_ex(body, "message", &v);
	answer = rpc_error(id, info->rpc, json_object_get_string(v), data);
	json_object_put(body);
	http_retry_after(resp, e);
	http_json(resp, info->status, answer);
}

static void
refuse_code(struct http_resp *resp, const struct http_req *req, enum err_code code, json_object *id,
    const char *msg)
{
	struct err e;

	err_clear(&e);
	err_set(&e, code, "%s", msg);
	refuse(resp, req, &e, id);
}

/* "http(s)://127.0.0.1|localhost|[::1]" with an optional numeric port, nothing else. */
static bool
origin_is_loopback(const char *o)
{
	static const char *const hosts[] = { "127.0.0.1", "localhost", "[::1]", NULL };
	const char *p;

	if (strncasecmp(o, "http://", 7) == 0)
		o += 7;
	else if (strncasecmp(o, "https://", 8) == 0)
		o += 8;
	else
		return false;
	for (size_t i = 0; hosts[i] != NULL; i++) {
		size_t n = strlen(hosts[i]);
		if (strncasecmp(o, hosts[i], n) != 0)
			continue;
		p = o + n;
		if (*p == '\0')
			return true;
		if (*p++ != ':' || *p == '\0' || strlen(p) > 5)
			return false;
		for (; *p; p++)
			if (*p < '0' || *p > '9')
				return false;
		return true;
	}
	return false;
}

/* Origin absent, loopback, or listed in [http] allowed_origins (space separated;
 * compared case-insensitively, a trailing '/' in the list is ignored). */
static bool
origin_allowed(const struct config *cfg, const char *origin)
{
	const char *p = cfg->allowed_origins;
	size_t olen;

	if (origin == NULL)
		return true;
	if (origin_is_loopback(origin))
		return true;
	olen = strlen(origin);
	while (p != NULL && *p) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (n == 0)
			break;
		if ((n == olen || (n == olen + 1 && p[n - 1] == '/')) && strncasecmp(p, origin, olen) == 0)
			return true;
		p += n;
	}
	return false;
}

static bool
tool_visible(const struct op *op, const struct principal *who)
{
	return op->tool != NULL && (!(op->flags & OPF_MODULE) || who->flag_on);
}

/* The text of the credentials property: which fields each provider takes. */
static char *
credentials_description(const struct param *p)
{
	size_t cap = 2048, len;
	char *s = xmalloc(cap);

	len = (size_t)snprintf(s, cap,
	    "%s Fields per provider (optional ones in brackets):", p->description ? p->description : "");
	for (size_t i = 0; provider_list[i] != NULL && len < cap; i++) {
		const struct provider_def *d = provider_list[i];
		len += (size_t)snprintf(s + len, cap - len, "%s %s:", i ? ";" : "", d->id);
		for (size_t k = 0; d->required[k] != NULL && len < cap; k++)
			len += (size_t)snprintf(s + len, cap - len, " %s", d->required[k]);
		for (size_t k = 0; d->optional[k] != NULL && len < cap; k++)
			len += (size_t)snprintf(s + len, cap - len, " [%s]", d->optional[k]);
	}
	if (len < cap)
		snprintf(s + len, cap - len, ".");
	return s;
}

/* The JSON Schema of one parameter in the tool view. Long: one case per
 * parameter kind, each a few lines, read best as one switch. */
static json_object *
param_schema(const struct param *p)
{
	json_object *s = json_object_new_object(), *list;
	char *desc = NULL;

	switch (p->kind) {
	case P_RUN_ID:
		jx_add_str(s, "type", "string");
		jx_add_str(s, "format", "uuid");
		break;
	case P_INT:
		jx_add_str(s, "type", "integer");
		jx_add_int(s, "minimum", p->min);
		jx_add_int(s, "maximum", p->tool_max ? p->tool_max : p->max);
		if (!(p->flags & PARAM_REQUIRED))
			jx_add_int(s, "default", p->dflt);
		break;
	case P_ENUM:
		jx_add_str(s, "type", "string");
		list = json_object_new_array();
		for (size_t i = 0; p->values[i] != NULL; i++)
			json_object_array_add(list, json_object_new_string(p->values[i]));
		json_object_object_add(s, "enum", list);
		break;
	case P_KIND:
		jx_add_str(s, "type", "string");
		list = json_object_new_array();
		for (size_t i = 0; importer_type_at(i) != NULL; i++)
			json_object_array_add(list, json_object_new_string(importer_type_at(i)));
		json_object_object_add(s, "enum", list);
		break;
	case P_TEXT:
		jx_add_str(s, "type", "string");
		jx_add_int(s, "minLength", 1);
		jx_add_int(s, "maxLength", p->max);
		break;
	case P_OPTIONS:
		jx_add_str(s, "type", "object");
		list = json_object_new_object();
		json_object_object_add(list, "import_paused", json_object_new_object());
		jx_add_str(json_object_object_get(list, "import_paused"), "type", "boolean");
		json_object_object_add(s, "properties", list);
		jx_add_bool(s, "additionalProperties", 0);
		break;
	case P_BOOL:
		jx_add_str(s, "type", "boolean");
		break;
	case P_PROVIDER:
		jx_add_str(s, "type", "string");
		list = json_object_new_array();
		for (size_t i = 0; provider_list[i] != NULL; i++)
			json_object_array_add(list, json_object_new_string(provider_list[i]->id));
		json_object_object_add(s, "enum", list);
		break;
	case P_CREDENTIALS:
		jx_add_str(s, "type", "object");
		list = json_object_new_object();
		jx_add_str(list, "type", "string");
		json_object_object_add(s, "additionalProperties", list);
		desc = credentials_description(p);
		break;
	case P_ID_LIST:
		jx_add_str(s, "type", "array");
		list = json_object_new_object();
		jx_add_str(list, "type", "integer");
		jx_add_int(list, "minimum", 1);
		json_object_object_add(s, "items", list);
		jx_add_int(s, "maxItems", ARGS_MAX_IDS);
		break;
	}
	if (desc != NULL || p->description != NULL)
		jx_add_str(s, "description", desc ? desc : p->description);
	free(desc);
	return s;
}

static bool
param_in_tool(const struct param *p)
{
	return !(p->flags & PARAM_REST_ONLY);
}

static json_object *
tool_input_schema(const struct op *op)
{
	json_object *s = json_object_new_object(), *props = json_object_new_object();
	json_object *req = json_object_new_array();

	for (const struct param *p = op->params; p->name != NULL; p++) {
		if (!param_in_tool(p))
			continue;
		json_object_object_add(props, p->name, param_schema(p));
		if (p->flags & PARAM_REQUIRED)
			json_object_array_add(req, json_object_new_string(p->name));
	}
	jx_add_str(s, "type", "object");
	json_object_object_add(s, "properties", props);
	if (json_object_array_length(req) > 0)
		json_object_object_add(s, "required", req);
	else
		json_object_put(req);
	jx_add_bool(s, "additionalProperties", 0);
	return s;
}

static json_object *
tool_json(const struct op *op)
{
	json_object *t = json_object_new_object(), *ann = json_object_new_object(), *out;
	int ok = 0;

	jx_add_str(t, "name", op->tool);
	jx_add_str(t, "title", op->title);
	jx_add_str(t, "description", op->description);
	json_object_object_add(t, "inputSchema", tool_input_schema(op));
	if (op->output_schema != NULL) {
		out = jx_parse(op->output_schema, strlen(op->output_schema), &ok);
		if (ok && json_object_is_type(out, json_type_object))
			json_object_object_add(t, "outputSchema", out);
		else {
			json_object_put(out);
			log_error("tool %s: its output_schema is not a JSON object; left out", op->tool);
		}
	}
	jx_add_str(ann, "title", op->title);
	jx_add_bool(ann, "readOnlyHint", (op->flags & OPF_READ_ONLY) != 0);
	jx_add_bool(ann, "destructiveHint", (op->flags & OPF_DESTRUCTIVE) != 0);
	jx_add_bool(ann, "idempotentHint", (op->flags & OPF_IDEMPOTENT) != 0);
	jx_add_bool(ann, "openWorldHint", (op->flags & OPF_OPEN_WORLD) != 0);
	json_object_object_add(t, "annotations", ann);
	return t;
}

/* A tool result with isError:true whose text is the REST error body. */
static json_object *
tool_error(const struct http_req *req, const struct op *op, const struct err *e)
{
	json_object *body = http_error_body(req, op->tool, e), *res, *content, *item;

	if (e->code == ERR_NOT_FOUND)
		jx_add_str(body, "message", not_found_text);
	if (err_retry_after(e) > 0)
		jx_add_int(body, "retry_after", err_retry_after(e));
	item = json_object_new_object();
	jx_add_str(item, "type", "text");
	jx_add_str(item, "text", jx_text(body));
	json_object_put(body);
	content = json_object_new_array();
	json_object_array_add(content, item);
	res = json_object_new_object();
	json_object_object_add(res, "content", content);
	jx_add_bool(res, "isError", 1);
	return res;
}

/* The tool view's schema rules that op_args leaves to the transport: no
 * unknown argument (additionalProperties:false) and every required one there
 * (op_args would call a missing run id "not found"). 0, or -1 with e holding
 * these problems and op_args' verdict on the values. */
static int
check_argument_names(const struct op *op, json_object *args, struct err *e)
{
	json_object_object_foreach (args, key, val) {
		const struct param *p;
		(void)val;
		for (p = op->params; p->name != NULL; p++)
			if (param_in_tool(p) && strcmp(p->name, key) == 0)
				break;
		if (p->name == NULL) {
			char field[64];
			utf8_clean(field, sizeof field, key, 60);
			err_field(e, field,
			    "Unknown argument %s; %s takes only the arguments in its inputSchema.", field,
			    op->tool);
		}
	}
	for (const struct param *p = op->params; p->name != NULL; p++) {
		json_object *v;
		if (param_in_tool(p) && (p->flags & PARAM_REQUIRED) &&
		    (!json_object_object_get_ex(args, p->name, &v) || v == NULL))
			err_field(e, p->name, "The %s field is required.", p->name);
	}
	if (e->nfields > 0) {
		/* Report what is wrong with the other values in the same answer. */
		struct args a;
		struct err more;

		err_clear(&more);
		op_args(op, args, TRANSPORT_TOOL, &a, &more);
		args_free(&a);
		for (int i = 0; i < more.nfields; i++) {
			bool dup = false;
			for (int k = 0; k < e->nfields; k++)
				dup = dup || strcmp(e->fields[k].field, more.fields[i].field) == 0;
			if (!dup)
				err_field(e, more.fields[i].field, "%s", more.fields[i].msg);
		}
		return -1;
	}
	return 0;
}

/* What a request method produces: a result, or a JSON-RPC error. */
struct answer {
	json_object *result;
	json_object *whole; /* instead of result: the whole answer (tool_answer) */
	int code;
	char msg[160];
};

static void
answer_error(struct answer *a, int code, const char *msg)
{
	a->code = code;
	utf8_copy(a->msg, sizeof a->msg, msg);
}

static void
do_initialize(json_object *params, struct answer *a)
{
	json_object *cap, *tools, *info;
	const char *v;

	if (params == NULL || (v = jx_str(params, "protocolVersion")) == NULL) {
		answer_error(a, RPC_INVALID_PARAMS, "initialize needs params.protocolVersion (a string).");
		return;
	}
	a->result = json_object_new_object();
	jx_add_str(a->result, "protocolVersion", str_in_list(mcp_versions, v) ? v : MCP_LATEST);
	cap = json_object_new_object();
	tools = json_object_new_object();
	json_object_object_add(cap, "tools", tools);
	json_object_object_add(a->result, "capabilities", cap);
	info = json_object_new_object();
	jx_add_str(info, "name", "migrator");
	jx_add_str(info, "version", PACKAGE_VERSION);
	json_object_object_add(a->result, "serverInfo", info);
	jx_add_str(a->result, "instructions", instructions);
}

static void
do_tools_list(const struct principal *who, json_object *params, struct answer *a)
{
	json_object *tools;

	if (params != NULL && json_object_object_get_ex(params, "cursor", NULL)) {
		/* We never hand out a cursor: the list always fits one page. */
		answer_error(a, RPC_INVALID_PARAMS, "Invalid cursor.");
		return;
	}
	tools = json_object_new_array();
	for (int i = 0; i < OP__COUNT; i++) {
		const struct op *op = &op_table[i];
		if (tool_visible(op, who) && scope_has(who, op->scope))
			json_object_array_add(tools, tool_json(op));
	}
	a->result = json_object_new_object();
	json_object_object_add(a->result, "tools", tools);
}

/* The whole answer to a tool call that succeeded: structuredContent is out
 * (taken), and one text item carries the same JSON. A run detail's answer is
 * hundreds of KB, so it is written once, in one buffer: out as text, then
 * that text escaped from where it lies. The buffer starts as large as the
 * largest answer so far (up to 1 MB), so that it seldom grows. The envelope
 * is the one dispatch builds for any other result. */
static json_object *
tool_answer(json_object *id, json_object *out)
{
	static size_t largest;
	struct printbuf *pb = printbuf_new();
	size_t at, len;

	jx_reserve(pb, largest); /* a failure leaves the appends to grow it */
	jx_put_lit(pb, "{\"jsonrpc\":\"2.0\",\"id\":");
	jx_put_json(pb, id);
	jx_put_lit(pb, ",\"result\":{\"structuredContent\":");
	at = (size_t)pb->bpos;
	jx_put_json(pb, out);
	len = (size_t)pb->bpos - at;
	json_object_put(out);
	jx_put_lit(pb, ",\"content\":[{\"type\":\"text\",\"text\":");
	jx_put_own_str(pb, at, len);
	jx_put_lit(pb, "}]}}");
	if ((size_t)pb->bpos > largest)
		largest = (size_t)pb->bpos < 1 << 20 ? (size_t)pb->bpos : 1 << 20;
	return jx_splice(pb);
}

static void
do_tools_call(struct app *app, const struct http_req *req, const struct principal *who, json_object *params,
    json_object *id, struct answer *a)
{
	json_object *args = NULL, *empty = NULL, *out = NULL;
	const struct op *op;
	const char *name;
	struct err e;

	if (params == NULL || (name = jx_str(params, "name")) == NULL) {
		answer_error(a, RPC_INVALID_PARAMS, "tools/call needs params.name (a string).");
		return;
	}
	if (json_object_object_get_ex(params, "arguments", &args) &&
	    !json_object_is_type(args, json_type_object)) {
		answer_error(a, RPC_INVALID_PARAMS, "params.arguments must be an object.");
		return;
	}
	op = op_by_tool(name);
	if (op == NULL || !tool_visible(op, who)) {
		char shown[128], tool[80];
		utf8_clean(tool, sizeof tool, name, 64);
		utf8_format(shown, sizeof shown, "Unknown tool: %s", tool);
		answer_error(a, RPC_INVALID_PARAMS, shown);
		return;
	}
	if (args == NULL)
		args = empty = json_object_new_object();
	err_clear(&e);
	/* The request rate was counted by the transport: rate NULL here. */
	if (op_check(app, op, who, NULL, &e) != 0 || check_argument_names(op, args, &e) != 0 ||
	    op_run(app, op, who, args, TRANSPORT_TOOL, &out, &e) != 0) {
		json_object_put(out);
		a->result = tool_error(req, op, &e);
	} else
		a->whole = tool_answer(id, out);
	json_object_put(empty);
}

/* The first number out of range (jx_parse_input) in params, as
 * "params.<path>" into where; those in a tools/call's arguments are left to
 * the tool, which refuses them as it refuses any bad argument value. */
static bool
params_out_of_range(const char *method, json_object *params, char *where, size_t size)
{
	char sub[64];

	json_object_object_foreach (params, key, val) {
		if (strcmp(method, "tools/call") == 0 && strcmp(key, "arguments") == 0 &&
		    json_object_is_type(val, json_type_object))
			continue;
		if (jx_find_out_of_range(val, sub, sizeof sub)) {
			utf8_format(where, size, "params.%s%s%s", key, sub[0] ? "." : "", sub);
			return true;
		}
	}
	return false;
}

/* The response object for a request (params and id borrowed). */
static json_object *
dispatch(struct app *app, const struct http_req *req, const struct principal *who, const char *method,
    bool has_params, json_object *params, json_object *id)
{
	struct answer a = { NULL, NULL, 0, "" };
	char where[96], shown[160];
	json_object *o;

	if (strcmp(method, "initialize") != 0 && strcmp(method, "ping") != 0 &&
	    strcmp(method, "tools/list") != 0 && strcmp(method, "tools/call") != 0) {
		char what[80];
		utf8_clean(what, sizeof what, method, 64);
		utf8_format(shown, sizeof shown, "Method not found: %s", what);
		answer_error(&a, RPC_NO_METHOD, shown);
	} else if (has_params && !json_object_is_type(params, json_type_object))
		answer_error(&a, RPC_INVALID_PARAMS, "params must be an object.");
	else if (has_params && params_out_of_range(method, params, where, sizeof where)) {
		utf8_format(shown, sizeof shown, "Invalid params: %s is a number out of range.", where);
		answer_error(&a, RPC_INVALID_PARAMS, shown);
	} else if (strcmp(method, "initialize") == 0)
		do_initialize(params, &a);
	else if (strcmp(method, "ping") == 0)
		a.result = json_object_new_object();
	else if (strcmp(method, "tools/list") == 0)
		do_tools_list(who, params, &a);
	else
		do_tools_call(app, req, who, params, id, &a);
	if (a.whole != NULL)
		return a.whole;
	if (a.result == NULL)
		return rpc_error(id, a.code ? a.code : RPC_INTERNAL, a.msg[0] ? a.msg : "Internal error",
		    NULL);
	o = json_object_new_object();
	jx_add_str(o, "jsonrpc", "2.0");
	json_object_object_add(o, "id", json_object_get(id));
	json_object_object_add(o, "result", a.result);
	return o;
}

/* Free a message, wiping its strings first: tool arguments may hold credentials. */
static void
msg_free(json_object *msg)
{
	jx_wipe_strings(msg);
	json_object_put(msg);
}

int
mcp_envelope(const char *body, size_t len, struct envelope *env, struct refusal *no)
{
	json_object *msg, *v;
	bool has_id, version_ok;
	int ok = 0;

	memset(env, 0, sizeof *env);
	*no = (struct refusal){ ERR_BAD_REQUEST, NULL, NULL };
	msg = jx_parse_input(body, len, &ok);
	if (!ok) {
		*no = (struct refusal){ ERR_MALFORMED_JSON, NULL, "Parse error" };
		return -1;
	}
	env->msg = msg;
	if (!json_object_is_type(msg, json_type_object)) {
		no->text = json_object_is_type(msg, json_type_array) ?
		    "Invalid Request: batches are not supported; send one message per POST." :
		    "Invalid Request: the body must be one JSON-RPC object.";
		return -1;
	}
	has_id = json_object_object_get_ex(msg, "id", &env->id);
	if (!has_id)
		env->id = NULL;
	if (has_id && jx_out_of_range(env->id)) {
		env->id = NULL;
		no->text = "Invalid Request: id is a number out of range (no 64-bit integer or finite "
		           "double holds it); send it as a string.";
		return -1;
	}
	if (has_id && !json_object_is_type(env->id, json_type_string) &&
	    !json_object_is_type(env->id, json_type_int) &&
	    !(json_object_is_type(env->id, json_type_double) && isfinite(json_object_get_double(env->id)))) {
		env->id = NULL;
		no->text = "Invalid Request: id must be a string or a number.";
		return -1;
	}
	if (json_object_object_get_ex(msg, "method", &v))
		env->method = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
	env->has_params = json_object_object_get_ex(msg, "params", &env->params);
	version_ok = json_object_object_get_ex(msg, "jsonrpc", &v) &&
	    json_object_is_type(v, json_type_string) && strcmp(json_object_get_string(v), "2.0") == 0;
	if (!version_ok || (json_object_object_get_ex(msg, "method", NULL) && env->method == NULL) ||
	    (env->method == NULL &&
	        (!has_id ||
	            (!json_object_object_get_ex(msg, "result", NULL) &&
	                !json_object_object_get_ex(msg, "error", NULL))))) {
		no->id = env->id;
		no->text = "Invalid Request: not a JSON-RPC 2.0 request, notification or response.";
		return -1;
	}
	return 0;
}

/* The HTTP-level checks before any message is read, in the order of the
 * contract: token (and its rate count), Origin, method, mcp:use, rate limit,
 * body size, media type. True when the request may go on; else resp holds
 * the refusal. */
static bool
admitted(struct app *app, const struct http_req *req, struct http_resp *resp, struct principal *who)
{
	struct rate rate;
	struct err e;
	bool counted;

	err_clear(&e);
	if (http_authenticate(app, req, who, &rate, &counted, &e) != 0) {
		if (counted)
			http_rate_headers(resp, &rate);
		if (e.code == ERR_UNAUTHENTICATED) {
			bool sent =
			    req->authorization != NULL && strncasecmp(req->authorization, "Bearer ", 7) == 0;
			http_header(resp, "WWW-Authenticate", "Bearer realm=\"mcp\"%s",
			    sent ? ", error=\"invalid_token\"" : "");
		}
		refuse(resp, req, &e, NULL);
		return false;
	}
	http_rate_headers(resp, &rate);
	if (!origin_allowed(app->cfg, req->origin)) {
		refuse_code(resp, req, ERR_ORIGIN, NULL, "Requests from this origin are not allowed.");
		return false;
	}
	if (strcmp(req->method, "POST") != 0) {
		/* No SSE stream and no sessions: GET and DELETE are not offered. */
		http_header(resp, "Allow", "POST");
		refuse_code(resp, req, ERR_METHOD, NULL,
		    "Method not allowed: the MCP endpoint takes POST only.");
		return false;
	}
	if (!scope_has(who, SC_MCP_USE)) {
		http_header(resp, "WWW-Authenticate",
		    "Bearer error=\"insufficient_scope\", scope=\"mcp:use\"");
		refuse_code(resp, req, ERR_FORBIDDEN, NULL, "This token lacks the mcp:use scope.");
		return false;
	}
	if (rate.exceeded) {
		e.retry_after = rate.retry_after;
		err_set(&e, ERR_RATE_LIMITED, NULL);
		refuse(resp, req, &e, NULL);
		return false;
	}
	if (req->body_too_large) {
		refuse_code(resp, req, ERR_TOO_LARGE, NULL, "The request body is too large.");
		return false;
	}
	if (!http_is_json(req->content_type)) {
		refuse_code(resp, req, ERR_UNSUPPORTED_MEDIA, NULL,
		    "Send one JSON-RPC message as application/json.");
		return false;
	}
	return true;
}

/* A message with an MCP-Protocol-Version header we do not speak: 400 with the
 * versions we do. */
static void
refuse_version(struct http_resp *resp, const struct http_req *req, json_object *id)
{
	json_object *data = json_object_new_object(), *sup = json_object_new_array();
	char shown[160], asked[80];

	for (size_t i = 0; mcp_versions[i] != NULL; i++)
		json_object_array_add(sup, json_object_new_string(mcp_versions[i]));
	json_object_object_add(data, "supported", sup);
	/* a header's bytes: shown only as clean UTF-8, cut */
	utf8_clean(asked, sizeof asked, req->protocol_version, 64);
	jx_add_str(data, "requested", asked);
	utf8_format(shown, sizeof shown, "Unsupported MCP-Protocol-Version: %s.", asked);
	http_json(resp, 400, rpc_error(id, RPC_INVALID_REQUEST, shown, data));
}

void
mcp_handle(struct app *app, struct http_req *req, struct http_resp *resp)
{
	struct principal who;
	struct envelope env;
	struct refusal no;

	if (!admitted(app, req, resp, &who))
		return;
	if (mcp_envelope(req->body, req->body_len, &env, &no) != 0)
		refuse_code(resp, req, no.code, no.id, no.text);
	else if ((env.method == NULL || strcmp(env.method, "initialize") != 0) &&
	    req->protocol_version != NULL && !str_in_list(mcp_versions, req->protocol_version))
		refuse_version(resp, req, env.id);
	else if (env.method == NULL || env.id == NULL)
		resp->status = 202; /* a notification or a response to us: accepted, nothing to say */
	else
		http_json(resp, 200,
		    dispatch(app, req, &who, env.method, env.has_params, env.params, env.id));
	msg_free(env.msg);
}
