/* Unit tests of the operation table and argument validation (no database). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "api/ops.h"
#include "core/jsonx.h"
#include "http/http.h"
#include "providers/provider.h"

static void
test_table_shape(void **state)
{
	int tools = 0;

	(void)state;
	for (int i = 0; i < OP__COUNT; i++) {
		const struct op *a = &op_table[i];
		assert_int_equal(a->id, i);
		assert_non_null(a->handler);
		assert_non_null(a->method);
		assert_int_equal(strncmp(a->path, "/api/v1/", 8), 0);
		/* Every migration operation is behind the flag and needs an account scope. */
		if (a->id != OP_ME) {
			assert_true(a->flags & OPF_MODULE);
			assert_true(a->scope == SC_ACCOUNT_READ || a->scope == SC_ACCOUNT_WRITE ||
			    a->scope == SC_ACCOUNT_DELETE);
		}
		assert_true(((a->flags & OPF_WRITES) != 0) == (strcmp(a->method, "GET") != 0));
		/* a tool that writes is never read-only */
		assert_false((a->flags & OPF_WRITES) && (a->flags & OPF_READ_ONLY));
		for (int j = i + 1; j < OP__COUNT; j++) {
			const struct op *b = &op_table[j];
			assert_false(strcmp(a->method, b->method) == 0 && strcmp(a->path, b->path) == 0);
			if (a->tool && b->tool)
				assert_string_not_equal(a->tool, b->tool);
		}
		if (a->tool != NULL) {
			json_object *s;
			int ok;
			tools++;
			assert_non_null(a->title);
			assert_non_null(a->description);
			assert_non_null(a->output_schema);
			s = jx_parse(a->output_schema, strlen(a->output_schema), &ok);
			assert_true(ok);
			assert_string_equal(jx_str(s, "type"), "object");
			json_object_put(s);
			assert_ptr_equal(op_by_tool(a->tool), a);
			for (const struct param *p = a->params; p->name; p++)
				assert_non_null(p->description);
		}
	}
	/* the spec's six, resolve-conflicts, cancel, the review step's resources, exclude, include, the
	 * report and revert */
	assert_int_equal(tools, 13);
	assert_null(op_by_tool("no-such-tool"));
	/* The spec's scope per operation. */
	assert_int_equal(op_table[OP_LIST].scope, SC_ACCOUNT_READ);
	assert_int_equal(op_table[OP_LOGS].scope, SC_ACCOUNT_READ);
	assert_int_equal(op_table[OP_CREATE].scope, SC_ACCOUNT_WRITE);
	assert_int_equal(op_table[OP_RETRY].scope, SC_ACCOUNT_WRITE);
	assert_int_equal(op_table[OP_DELETE].scope, SC_ACCOUNT_DELETE);
	assert_int_equal(op_table[OP_REVERT].scope, SC_ACCOUNT_DELETE);
	assert_int_equal(op_table[OP_RESOURCES].scope, SC_ACCOUNT_READ);
	assert_int_equal(op_table[OP_EXCLUDE].scope, SC_ACCOUNT_WRITE);
	assert_int_equal(op_table[OP_INCLUDE].scope, SC_ACCOUNT_WRITE);
	assert_int_equal(op_table[OP_REPORT].scope, SC_ACCOUNT_READ);
	/* only the report may answer with CSV */
	for (int i = 0; i < OP__COUNT; i++)
		assert_int_equal((op_table[i].flags & OPF_CSV) != 0, i == OP_REPORT);
	assert_true(op_table[OP_DELETE].flags & OPF_DESTRUCTIVE);
	assert_true(op_table[OP_LIST].flags & OPF_READ_ONLY);
	assert_false(op_table[OP_CREATE].flags & OPF_IDEMPOTENT);
	assert_true(op_table[OP_CREATE].flags & OPF_OPEN_WORLD);
}

static json_object *
J(const char *s)
{
	int ok;
	json_object *o = jx_parse(s, strlen(s), &ok);
	assert_true(ok);
	return o;
}

/* Validate in for op id. a borrows from the input, so the input lives until
 * the next call (or args_done). */
static json_object *last_input;

static void
args_done(void)
{
	json_object_put(last_input);
	last_input = NULL;
}

static int
args_for(enum op_id id, const char *in, enum transport t, struct args *a, struct err *e)
{
	int rc;

	args_done();
	last_input = J(in);
	err_clear(e);
	rc = op_args(&op_table[id], last_input, t, a, e);
	args_free(a);
	return rc;
}

static bool
has_field(const struct err *e, const char *f)
{
	for (int i = 0; i < e->nfields; i++)
		if (strcmp(e->fields[i].field, f) == 0)
			return true;
	return false;
}

static void
test_list_args(void **state)
{
	struct args a;
	struct err e;

	(void)state;
	assert_int_equal(args_for(OP_LIST, "{}", TRANSPORT_REST, &a, &e), 0);
	assert_int_equal(a.page, 1);
	assert_int_equal(a.per_page, 20);
	assert_null(a.status);
	assert_int_equal(args_for(OP_LIST,
	                     "{\"per_page\":\"100\",\"page\":\"3\",\"status\":\"failed\","
	                     "\"provider\":\"whmcs\"}",
	                     TRANSPORT_REST, &a, &e),
	    0);
	assert_int_equal(a.per_page, 100);
	assert_int_equal(a.page, 3);
	assert_string_equal(a.status, "failed");
	assert_string_equal(a.provider, "whmcs");
	/* Bounds: REST 1-100, tool 1-50. */
	assert_int_equal(args_for(OP_LIST, "{\"per_page\":\"101\"}", TRANSPORT_REST, &a, &e), -1);
	assert_true(has_field(&e, "per_page"));
	assert_int_equal(e.code, ERR_VALIDATION);
	assert_int_equal(args_for(OP_LIST, "{\"per_page\":\"0\"}", TRANSPORT_REST, &a, &e), -1);
	assert_int_equal(args_for(OP_LIST, "{\"per_page\":\"1.5\"}", TRANSPORT_REST, &a, &e), -1);
	assert_int_equal(args_for(OP_LIST, "{\"per_page\":51}", TRANSPORT_TOOL, &a, &e), -1);
	assert_int_equal(args_for(OP_LIST, "{\"per_page\":50}", TRANSPORT_TOOL, &a, &e), 0);
	/* A tool's integer must be a JSON number, not text. */
	assert_int_equal(args_for(OP_LIST, "{\"per_page\":\"5\"}", TRANSPORT_TOOL, &a, &e), -1);
	assert_int_equal(args_for(OP_LIST, "{\"page\":\"0\"}", TRANSPORT_REST, &a, &e), -1);
	assert_true(has_field(&e, "page"));
	assert_int_equal(args_for(OP_LIST, "{\"status\":\"running\"}", TRANSPORT_REST, &a, &e), -1);
	assert_true(has_field(&e, "status"));
	assert_int_equal(args_for(OP_LIST, "{\"provider\":\"nagios\"}", TRANSPORT_REST, &a, &e), -1);
	assert_true(has_field(&e, "provider"));
	/* Several bad fields are reported together. */
	assert_int_equal(args_for(OP_LIST, "{\"provider\":\"x\",\"page\":\"-1\"}", TRANSPORT_REST, &a, &e),
	    -1);
	assert_int_equal(e.nfields, 2);
	args_done();
}

static void
test_id_and_flags(void **state)
{
	struct args a;
	struct err e;

	(void)state;
	assert_int_equal(args_for(OP_GET, "{\"id\":\"0192B8E4-5C1A-7C3E-9F00-AABBCCDDEEFF\"}", TRANSPORT_REST,
	                     &a, &e),
	    0);
	assert_string_equal(a.id, "0192b8e4-5c1a-7c3e-9f00-aabbccddeeff");
	/* Malformed and missing ids are "not found", never a validation error. */
	assert_int_equal(args_for(OP_GET, "{\"id\":\"not-a-uuid\"}", TRANSPORT_REST, &a, &e), -1);
	assert_int_equal(e.code, ERR_NOT_FOUND);
	assert_int_equal(args_for(OP_GET, "{}", TRANSPORT_TOOL, &a, &e), -1);
	assert_int_equal(e.code, ERR_NOT_FOUND);
	assert_int_equal(args_for(OP_GET, "{\"id\":7}", TRANSPORT_TOOL, &a, &e), -1);
	assert_int_equal(e.code, ERR_NOT_FOUND);
	/* errors_only: true|false|1|0 only. */
	const char *id = "\"id\":\"0192b8e4-5c1a-7c3e-9f00-aabbccddeeff\"";
	char buf[160];
	snprintf(buf, sizeof buf, "{%s,\"errors_only\":\"1\"}", id);
	assert_int_equal(args_for(OP_LOGS, buf, TRANSPORT_REST, &a, &e), 0);
	assert_true(a.errors_only);
	snprintf(buf, sizeof buf, "{%s,\"errors_only\":\"yes\"}", id);
	assert_int_equal(args_for(OP_LOGS, buf, TRANSPORT_REST, &a, &e), -1);
	assert_true(has_field(&e, "errors_only"));
	/* confirm exists only for the tool. */
	snprintf(buf, sizeof buf, "{%s,\"confirm\":true}", id);
	assert_int_equal(args_for(OP_DELETE, buf, TRANSPORT_TOOL, &a, &e), 0);
	assert_true(a.confirm);
	snprintf(buf, sizeof buf, "{%s,\"confirm\":\"true\"}", id);
	assert_int_equal(args_for(OP_DELETE, buf, TRANSPORT_TOOL, &a, &e), -1);
	snprintf(buf, sizeof buf, "{%s}", id);
	assert_int_equal(args_for(OP_DELETE, buf, TRANSPORT_TOOL, &a, &e), 0);
	assert_false(a.confirm);
	/* over REST the DELETE itself confirms */
	assert_int_equal(args_for(OP_DELETE, buf, TRANSPORT_REST, &a, &e), 0);
	assert_true(a.confirm);
	/* resolve-conflicts */
	snprintf(buf, sizeof buf, "{%s,\"strategy\":\"merge\"}", id);
	assert_int_equal(args_for(OP_RESOLVE, buf, TRANSPORT_REST, &a, &e), -1);
	assert_true(has_field(&e, "strategy"));
	snprintf(buf, sizeof buf, "{%s,\"strategy\":\"skip\",\"resource_ids\":[1,\"2\"]}", id);
	assert_int_equal(args_for(OP_RESOLVE, buf, TRANSPORT_REST, &a, &e), -1);
	assert_true(has_field(&e, "resource_ids"));
	snprintf(buf, sizeof buf, "{%s,\"strategy\":\"skip\",\"resource_ids\":[1,2]}", id);
	assert_int_equal(args_for(OP_RESOLVE, buf, TRANSPORT_REST, &a, &e), 0);
	args_done();
}

/* The resource list's filters name the allowed values; q is bounded text. */
static void
test_resource_filters(void **state)
{
	const char *id = "\"id\":\"0192b8e4-5c1a-7c3e-9f00-aabbccddeeff\"";
	struct args a;
	struct err e;
	char buf[400];

	(void)state;
	snprintf(buf, sizeof buf,
	    "{%s,\"status\":\"excluded\",\"resource_type\":\"maintenance_window\","
	    "\"action\":\"conflict\",\"q\":\"Shop\",\"per_page\":\"100\"}",
	    id);
	assert_int_equal(args_for(OP_RESOURCES, buf, TRANSPORT_REST, &a, &e), 0);
	assert_string_equal(a.status, "excluded");
	assert_string_equal(a.resource_type, "maintenance_window");
	assert_string_equal(a.action, "conflict");
	assert_string_equal(a.q, "Shop");
	assert_int_equal(a.per_page, 100);
	snprintf(buf, sizeof buf, "{%s,\"status\":\"done\",\"resource_type\":\"widget\",\"action\":\"x\"}",
	    id);
	assert_int_equal(args_for(OP_RESOURCES, buf, TRANSPORT_REST, &a, &e), -1);
	assert_int_equal(e.nfields, 3);
	for (int i = 0; i < e.nfields; i++)
		assert_non_null(strstr(e.fields[i].msg, "must be one of: "));
	assert_non_null(
	    strstr(e.fields[0].msg, "pending, running, imported, skipped, conflict, failed, excluded"));
	assert_non_null(strstr(e.fields[1].msg, "monitor"));
	/* tools: per_page at most 50 */
	snprintf(buf, sizeof buf, "{%s,\"per_page\":60}", id);
	assert_int_equal(args_for(OP_RESOURCES, buf, TRANSPORT_TOOL, &a, &e), -1);
	assert_true(has_field(&e, "per_page"));
	snprintf(buf, sizeof buf, "{%s,\"q\":\"%0101d\"}", id, 0);
	assert_int_equal(args_for(OP_RESOURCES, buf, TRANSPORT_REST, &a, &e), -1);
	assert_true(has_field(&e, "q"));
	/* exclude/include: ids or the list's filters (the handler asks for one of them), each checked */
	snprintf(buf, sizeof buf, "{%s,\"status\":\"done\"}", id);
	assert_int_equal(args_for(OP_EXCLUDE, buf, TRANSPORT_REST, &a, &e), -1);
	assert_true(has_field(&e, "status"));
	snprintf(buf, sizeof buf, "{%s,\"resource_type\":\"maintenance_window\",\"q\":\"db\"}", id);
	assert_int_equal(args_for(OP_EXCLUDE, buf, TRANSPORT_TOOL, &a, &e), 0);
	args_done();
	snprintf(buf, sizeof buf, "{%s,\"ids\":[3,4]}", id);
	assert_int_equal(args_for(OP_INCLUDE, buf, TRANSPORT_TOOL, &a, &e), 0);
	args_done();
}

/* Start options: import_paused only, a boolean. */
static void
test_start_options(void **state)
{
	struct args a;
	struct err e;

	(void)state;
	assert_int_equal(args_for(OP_CREATE, "{\"provider\":\"updown\",\"options\":{\"import_paused\":true}}",
	                     TRANSPORT_REST, &a, &e),
	    0);
	assert_true(a.options.import_paused);
	assert_int_equal(args_for(OP_CREATE, "{\"provider\":\"updown\"}", TRANSPORT_REST, &a, &e), 0);
	assert_false(a.options.import_paused);
	assert_int_equal(args_for(OP_CREATE,
	                     "{\"provider\":\"updown\",\"options\":{\"import_paused\":1,"
	                     "\"dry_run\":true}}",
	                     TRANSPORT_REST, &a, &e),
	    -1);
	assert_true(has_field(&e, "options"));
	assert_true(has_field(&e, "options.import_paused"));
	args_done();
}

static void
test_create_args(void **state)
{
	struct args a;
	struct err e;

	(void)state;
	assert_int_equal(args_for(OP_CREATE, "{}", TRANSPORT_REST, &a, &e), -1);
	assert_true(has_field(&e, "provider"));
	assert_int_equal(args_for(OP_CREATE, "{\"provider\":\"uptimerobot\",\"credentials\":[]}",
	                     TRANSPORT_REST, &a, &e),
	    -1);
	assert_true(has_field(&e, "credentials"));
	assert_int_equal(args_for(OP_CREATE,
	                     "{\"provider\":\"uptimerobot\",\"credentials\":{\"api_key\":\"k\"}}",
	                     TRANSPORT_REST, &a, &e),
	    0);
	assert_ptr_equal(a.prov, provider_find("uptimerobot"));
	args_done();
}

static void
test_providers_registry(void **state)
{
	static const char *const ids[] = { "uptimerobot", "pingdom", "statuscake", "better_stack", "updown",
		"healthchecks", "cronitor", "statuspage", "whmcs" };
	size_t n = 0;

	(void)state;
	for (; provider_list[n] != NULL; n++)
		assert_string_equal(provider_list[n]->id, ids[n]);
	assert_int_equal(n, 9);
	assert_true(provider_has_field(provider_find("whmcs"), "api_secret"));
	assert_true(provider_has_field(provider_find("whmcs"), "access_key"));
	assert_false(provider_has_field(provider_find("whmcs"), "api_key"));
	assert_null(provider_find("UptimeRobot"));
}

static void
test_query(void **state)
{
	json_object *q;

	(void)state;
	assert_int_equal(http_parse_query("a=1&b=x%20y&c=&d", &q), 0);
	assert_string_equal(jx_str(q, "a"), "1");
	assert_string_equal(jx_str(q, "b"), "x y");
	assert_string_equal(jx_str(q, "c"), "");
	assert_string_equal(jx_str(q, "d"), "");
	json_object_put(q);
	assert_int_equal(http_parse_query("", &q), 0);
	json_object_put(q);
	assert_int_equal(http_parse_query("a=%zz", &q), -1);
	assert_int_equal(http_parse_query("a=%4", &q), -1);
	assert_int_equal(http_parse_query("a=%ff", &q), -1); /* not UTF-8 */
	assert_int_equal(http_parse_query("a=%00", &q), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_shape),
		cmocka_unit_test(test_list_args),
		cmocka_unit_test(test_id_and_flags),
		cmocka_unit_test(test_resource_filters),
		cmocka_unit_test(test_start_options),
		cmocka_unit_test(test_create_args),
		cmocka_unit_test(test_providers_registry),
		cmocka_unit_test(test_query),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
