#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/ops.h"
#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "importers/importer.h"
#include "providers/provider.h"
#include "providers/urlguard.h"

const char *const run_states[] = { "pending", "discovering", "awaiting_review", "executing",
	"paused_conflicts", "completed", "completed_with_errors", "failed", "cancelled", "reverting",
	"reverted", NULL };
const char *const resource_statuses[] = { "pending", "running", "imported", "skipped", "conflict", "failed",
	"excluded", NULL };
const char *const resource_actions[] = { "create", "update", "skip", "conflict", NULL };
static const char *const strategies[] = { "skip", "overwrite", "duplicate", NULL };
static const char *const report_formats[] = { "json", "csv", NULL };

/* JSON Schema fragments for the tools' outputSchema. */
#define S_STR_NULL "{\"type\":[\"string\",\"null\"]}"
#define S_RUN_PROPS \
	"\"id\":{\"type\":\"string\"},\"provider\":{\"type\":\"string\"},\"status\":{\"type\":\"string\"}," \
	"\"stats\":{\"type\":\"object\"},\"total_resources\":{\"type\":\"integer\"}," \
	"\"failed_resources\":{\"type\":\"integer\"},\"error_message\":" S_STR_NULL "," \
	"\"started_at\":" S_STR_NULL ",\"finished_at\":" S_STR_NULL ",\"created_at\":" S_STR_NULL "," \
	"\"updated_at\":" S_STR_NULL
#define S_RUN \
	"{\"type\":\"object\",\"properties\":{" S_RUN_PROPS "},\"required\":[\"id\",\"provider\",\"status\"]}"
#define S_ACK \
	"{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"},\"data\":{\"type\":\"object\"," \
	"\"properties\":{\"id\":{\"type\":\"string\"},\"status\":{\"type\":\"string\"}},\"required\":[\"id\",\"status\"]}}," \
	"\"required\":[\"message\",\"data\"]}"
#define S_PAGE_META \
	"\"links\":{\"type\":\"object\"},\"meta\":{\"type\":\"object\",\"properties\":{" \
	"\"current_page\":{\"type\":\"integer\"},\"last_page\":{\"type\":\"integer\"}," \
	"\"per_page\":{\"type\":\"integer\"},\"total\":{\"type\":\"integer\"}}}"

static const char out_list[] =
    "{\"type\":\"object\",\"properties\":{\"data\":{\"type\":\"array\",\"items\":" S_RUN "}," S_PAGE_META
    "},\"required\":[\"data\",\"meta\"]}";
static const char out_get[] =
    "{\"type\":\"object\",\"properties\":{\"data\":{\"type\":\"object\",\"properties\":{" S_RUN_PROPS ","
    "\"resources\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}},"
    "\"logs\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}}},\"required\":[\"id\",\"status\",\"resources\"]},"
    "\"meta\":{\"type\":\"object\",\"properties\":{\"resource_counts\":{\"type\":\"object\"},"
    "\"action_counts\":{\"type\":\"object\"},\"dropped\":{\"type\":\"array\"}}}},"
    "\"required\":[\"data\",\"meta\"]}";
static const char out_resources[] =
    "{\"type\":\"object\",\"properties\":{\"data\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
    "\"properties\":{\"id\":{\"type\":\"integer\"},\"resource_type\":{\"type\":\"string\"},"
    "\"external_id\":{\"type\":\"string\"},\"name\":" S_STR_NULL ",\"action\":" S_STR_NULL ","
    "\"status\":{\"type\":\"string\"},\"reason\":" S_STR_NULL ",\"attempts\":{\"type\":\"integer\"},"
    "\"error_message\":" S_STR_NULL "},\"required\":[\"id\",\"resource_type\",\"status\"]}}," S_PAGE_META
    "},\"required\":[\"data\",\"meta\"]}";
static const char out_create[] =
    "{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"},\"data\":" S_RUN
    "},\"required\":[\"data\"]}";
static const char out_retry[] =
    "{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"},\"retried\":{\"type\":\"integer\"},"
    "\"data\":{\"type\":\"object\"}},\"required\":[\"message\",\"retried\"]}";
static const char out_delete[] =
    "{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"},\"deleted\":{\"type\":\"boolean\"},"
    "\"id\":{\"type\":\"string\"}},\"required\":[\"deleted\",\"id\"]}";
static const char out_resolve[] =
    "{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"},\"resolved\":{\"type\":\"integer\"},"
    "\"data\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},\"status\":{\"type\":\"string\"}}}},"
    "\"required\":[\"message\",\"resolved\",\"data\"]}";
static const char out_select[] =
    "{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"},\"changed\":{\"type\":\"integer\"},"
    "\"data\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},\"status\":{\"type\":\"string\"}}}},"
    "\"required\":[\"message\",\"changed\",\"data\"]}";
static const char out_report[] =
    "{\"type\":\"object\",\"properties\":{\"data\":{\"type\":\"object\",\"properties\":{"
    "\"id\":{\"type\":\"string\"},\"status\":{\"type\":\"string\"},\"outcomes\":{\"type\":\"object\"},"
    "\"todo\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}}},\"required\":[\"id\",\"outcomes\",\"todo\"]},"
    "\"csv\":{\"type\":\"string\"}}}";
static const char out_cancel[] =
    "{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"},\"data\":" S_RUN "},"
    "\"required\":[\"message\",\"data\"]}";

#define ARG(field) offsetof(struct args, field)
/* clang-format off */
#define P_ID { .name = "id", .kind = P_RUN_ID, .src = SRC_PATH, .flags = PARAM_REQUIRED, .off = ARG(id), \
	.description = "The run id (UUID)." }
#define P_PAGE { .name = "page", .kind = P_INT, .src = SRC_QUERY, .min = 1, .max = 1000000, .dflt = 1, \
	.off = ARG(page), .description = "Page number, from 1." }
#define P_PER_PAGE(what, tool) { .name = "per_page", .kind = P_INT, .src = SRC_QUERY, .min = 1, .max = 100, \
	.dflt = 20, .tool_max = (tool), .off = ARG(per_page), .description = what " per page." }
#define P_END { .name = NULL }
/* clang-format on */

/* clang-format off */
static const struct param params_list[] = {
	{ .name = "status", .kind = P_ENUM, .src = SRC_QUERY, .values = run_states, .off = ARG(status),
	  .description = "Only runs in this state." },
	{ .name = "provider", .kind = P_PROVIDER, .src = SRC_QUERY, .off = ARG(provider),
	  .description = "Only runs from this provider." },
	P_PAGE, P_PER_PAGE("Runs", 50), P_END
};
/* clang-format on */
static const struct param params_get[] = { P_ID, P_END };
/* clang-format off */
static const struct param params_logs[] = {
	P_ID,
	{ .name = "errors_only", .kind = P_BOOL, .src = SRC_QUERY, .off = ARG(errors_only),
	  .description = "Only error entries." },
	P_PAGE, P_PER_PAGE("Entries", 0), P_END
};
/* The resource list's filters, in the query (the list) or the body (a
 * selection by filter); which: whom they keep, in words. */
#define RESOURCE_FILTERS(from, which) \
	{ .name = "status", .kind = P_ENUM, .src = from, .values = resource_statuses, .off = ARG(status), \
	  .description = which " with this status." }, \
	{ .name = "resource_type", .kind = P_KIND, .src = from, .off = ARG(resource_type), \
	  .description = which " of this type." }, \
	{ .name = "action", .kind = P_ENUM, .src = from, .values = resource_actions, .off = ARG(action), \
	  .description = which " the plan gave this action." }, \
	{ .name = "q", .kind = P_TEXT, .src = from, .max = 100, .off = ARG(q), \
	  .description = which " whose name contains this text (any case)." }
static const struct param params_resources[] = {
	P_ID,
	RESOURCE_FILTERS(SRC_QUERY, "Only resources"),
	P_PAGE, P_PER_PAGE("Resources", 50), P_END
};
static const struct param params_create[] = {
	{ .name = "provider", .kind = P_PROVIDER, .src = SRC_BODY, .flags = PARAM_REQUIRED, .off = ARG(provider),
	  .description = "The source provider." },
	{ .name = "credentials", .kind = P_CREDENTIALS, .src = SRC_BODY, .off = ARG(credentials),
	  .description = "The provider's credential fields (write-only; never returned)." },
	{ .name = "options", .kind = P_OPTIONS, .src = SRC_BODY, .off = ARG(options),
	  .description = "import_paused (boolean, default false): import monitors and heartbeats paused, so "
	  "the old and the new service do not both alert until the cut-over." },
	P_END
};
static const struct param params_delete[] = {
	P_ID,
	{ .name = "confirm", .kind = P_BOOL, .src = SRC_BODY, .flags = PARAM_TOOL_ONLY, .off = ARG(confirm),
	  .description = "Must be true: the run, its resources and logs are deleted permanently." },
	P_END
};
static const struct param params_revert[] = {
	P_ID,
	{ .name = "confirm", .kind = P_BOOL, .src = SRC_BODY, .flags = PARAM_TOOL_ONLY, .off = ARG(confirm),
	  .description = "Must be true: what the run created is deleted and what it overwrote is put back." },
	P_END
};
static const struct param params_resolve[] = {
	P_ID,
	{ .name = "strategy", .kind = P_ENUM, .src = SRC_BODY, .flags = PARAM_REQUIRED, .values = strategies,
	  .off = ARG(strategy),
	  .description = "skip: leave the existing object; overwrite: update it; duplicate: import a second copy." },
	{ .name = "resource_ids", .kind = P_ID_LIST, .src = SRC_BODY, .off = ARG(ids),
	  .description = "Only these conflicting resources (default: all)." },
	P_END
};
static const struct param params_select[] = {
	P_ID,
	{ .name = "ids", .kind = P_ID_LIST, .src = SRC_BODY, .off = ARG(ids),
	  .description = "Ids of resources of this run (the id field of each resource item); or, instead, "
	  "the filters below." },
	RESOURCE_FILTERS(SRC_BODY, "Every resource"),
	P_END
};
static const struct param params_report[] = {
	P_ID,
	{ .name = "format", .kind = P_ENUM, .src = SRC_QUERY, .values = report_formats, .off = ARG(format),
	  .description = "json (default), or csv: one row per resource with its outcome and what is left to do." },
	P_END
};
/* clang-format on */
static const struct param params_none[] = { P_END };

#define RO (OPF_MODULE | OPF_READ_ONLY | OPF_IDEMPOTENT)
#define RW (OPF_MODULE | OPF_WRITES)

/* clang-format off */
const struct op op_table[OP__COUNT] = {
	[OP_LIST] = { .id = OP_LIST, .method = "GET", .path = "/api/v1/migrations", .status = 200,
	    .tool = "migrations-list", .title = "List migration runs",
	    .description = "List your migration runs, newest first, with resource totals. Filters: status, provider.",
	    .scope = SC_ACCOUNT_READ, .flags = RO, .params = params_list, .output_schema = out_list,
	    .handler = h_list },
	[OP_GET] = { .id = OP_GET, .method = "GET", .path = "/api/v1/migrations/{run}", .status = 200,
	    .tool = "migration-get", .title = "Get a migration run",
	    .description = "A run with its resources (at most 500), its 50 most recent log entries and counts per "
	    "resource status.",
	    .scope = SC_ACCOUNT_READ, .flags = RO, .params = params_get, .output_schema = out_get, .handler = h_get },
	[OP_LOGS] = { .id = OP_LOGS, .method = "GET", .path = "/api/v1/migrations/{run}/logs", .status = 200,
	    .scope = SC_ACCOUNT_READ, .flags = RO, .params = params_logs, .handler = h_logs },
	[OP_RESOURCES] = { .id = OP_RESOURCES, .method = "GET", .path = "/api/v1/migrations/{run}/resources",
	    .status = 200, .tool = "migration-resources", .title = "List a run's resources",
	    .description = "Every resource of a run with its name, type, planned action, status and the reason "
	    "for the action; paginated and filtered by status, resource_type, action and q (name contains).",
	    .scope = SC_ACCOUNT_READ, .flags = RO, .params = params_resources, .output_schema = out_resources,
	    .handler = h_resources },
	[OP_CREATE] = { .id = OP_CREATE, .method = "POST", .path = "/api/v1/migrations", .status = 201,
	    .tool = "migration-create", .title = "Start a migration run",
	    .description = "Start importing from a provider: the run is created and discovery is queued. At most "
	    "5 starts per minute.",
	    .scope = SC_ACCOUNT_WRITE, .flags = RW | OPF_START_LIMITED | OPF_OPEN_WORLD | OPF_LOCATION,
	    .params = params_create, .output_schema = out_create, .handler = h_create },
	[OP_EXECUTE] = { .id = OP_EXECUTE, .method = "POST", .path = "/api/v1/migrations/{run}/execute",
	    .status = 202, .tool = "migration-execute", .title = "Execute a migration run",
	    .description = "Plan and import a run that is awaiting review. Queued; read the run to follow progress.",
	    .scope = SC_ACCOUNT_WRITE, .flags = RW, .params = params_get, .output_schema = S_ACK,
	    .handler = h_execute },
	[OP_RETRY] = { .id = OP_RETRY, .method = "POST", .path = "/api/v1/migrations/{run}/retry-failed",
	    .status = 202, .tool = "migration-retry-failed", .title = "Retry failed resources",
	    .description = "Reset the run's failed resources to pending and import them again.",
	    .scope = SC_ACCOUNT_WRITE, .flags = RW, .params = params_get, .output_schema = out_retry,
	    .handler = h_retry },
	[OP_DELETE] = { .id = OP_DELETE, .method = "DELETE", .path = "/api/v1/migrations/{run}", .status = 204,
	    .tool = "migration-delete", .title = "Delete a migration run",
	    .description = "Delete a run with its resources and logs, permanently. Imported objects stay. "
	    "Requires confirm: true.",
	    .scope = SC_ACCOUNT_DELETE, .flags = RW | OPF_DESTRUCTIVE | OPF_IDEMPOTENT, .params = params_delete,
	    .output_schema = out_delete, .handler = h_delete },
	[OP_RESOLVE] = { .id = OP_RESOLVE, .method = "POST", .path = "/api/v1/migrations/{run}/resolve-conflicts",
	    .status = 200, .tool = "migration-resolve-conflicts", .title = "Resolve conflicts",
	    .description = "Decide what to do with resources that conflict with existing objects; the run returns "
	    "to review when none is left.",
	    .scope = SC_ACCOUNT_WRITE, .flags = RW, .params = params_resolve, .output_schema = out_resolve,
	    .handler = h_resolve },
	[OP_CANCEL] = { .id = OP_CANCEL, .method = "POST", .path = "/api/v1/migrations/{run}/cancel", .status = 200,
	    .tool = "migration-cancel", .title = "Cancel a migration run",
	    .description = "Stop a run that has not finished; queued work is dropped.",
	    .scope = SC_ACCOUNT_WRITE, .flags = RW | OPF_IDEMPOTENT, .params = params_get,
	    .output_schema = out_cancel, .handler = h_cancel },
	[OP_EXCLUDE] = { .id = OP_EXCLUDE, .method = "POST", .path = "/api/v1/migrations/{run}/resources/exclude",
	    .status = 200, .tool = "migration-resources-exclude", .title = "Leave resources out",
	    .description = "While the run awaits review: mark these resources, or every one the filters match, "
	    "excluded, so they are never imported.",
	    .scope = SC_ACCOUNT_WRITE, .flags = RW | OPF_IDEMPOTENT, .params = params_select,
	    .output_schema = out_select, .handler = h_exclude },
	[OP_INCLUDE] = { .id = OP_INCLUDE, .method = "POST", .path = "/api/v1/migrations/{run}/resources/include",
	    .status = 200, .tool = "migration-resources-include", .title = "Take excluded resources back",
	    .description = "While the run awaits review: include excluded resources again, these or every one the "
	    "filters match, with the action planned for the review.",
	    .scope = SC_ACCOUNT_WRITE, .flags = RW | OPF_IDEMPOTENT, .params = params_select,
	    .output_schema = out_select, .handler = h_include },
	[OP_REPORT] = { .id = OP_REPORT, .method = "GET", .path = "/api/v1/migrations/{run}/report", .status = 200,
	    .tool = "migration-report", .title = "What a run did, and what is left to do",
	    .description = "How many resources were created, updated, skipped, failed or left out, and a to-do list "
	    "built from the run: heartbeats whose jobs must ping their new check, contacts whose address must be "
	    "added, credentials to enter again, resources skipped or failed. format=csv: one row per resource.",
	    .scope = SC_ACCOUNT_READ, .flags = RO | OPF_CSV, .params = params_report, .output_schema = out_report,
	    .handler = h_report },
	[OP_REVERT] = { .id = OP_REVERT, .method = "POST", .path = "/api/v1/migrations/{run}/revert", .status = 202,
	    .tool = "migration-revert", .title = "Undo a migration run",
	    .description = "Put the account back as it was before the run: what the run created is deleted, what "
	    "it overwrote is put back; objects changed since, or imported again by a later run, are left as they "
	    "are (and named in the log). From completed, "
	    "completed_with_errors, failed (with imports) or cancelled; queued, read the run to follow progress. "
	    "Requires confirm: true.",
	    .scope = SC_ACCOUNT_DELETE, .flags = RW | OPF_DESTRUCTIVE | OPF_IDEMPOTENT, .params = params_revert,
	    .output_schema = S_ACK, .handler = h_revert },
	[OP_ME] = { .id = OP_ME, .method = "GET", .path = "/api/v1/me", .status = 200, .scope = SC_NONE,
	    .flags = OPF_READ_ONLY | OPF_IDEMPOTENT, .params = params_none, .handler = h_me },
};
/* clang-format on */

const struct op *
op_by_tool(const char *name)
{
	for (int i = 0; i < OP__COUNT; i++)
		if (op_table[i].tool != NULL && name != NULL && strcmp(op_table[i].tool, name) == 0)
			return &op_table[i];
	return NULL;
}

/* The administrator set [provider.<id>] base_url, which wins over a user's URL field. */
static bool
admin_url(const struct provider_def *def, const struct config *cfg)
{
	char section[64];
	const char *v;

	if (def->url_field == NULL)
		return false;
	snprintf(section, sizeof section, "provider.%s", def->id);
	return (v = config_get(cfg, section, "base_url")) != NULL && *v != '\0';
}

/* The characters of the UTF-8 text s[0..len). */
static size_t
char_count(const char *s, size_t len)
{
	size_t chars = 0;

	for (size_t i = 0; i < len; i++)
		chars += ((unsigned char)s[i] & 0xc0) != 0x80;
	return chars;
}

/* The string value of v when it is a string without a NUL character in it
 * (\u0000: C would read it as shorter than it is), else NULL. Borrowed. */
static const char *
str_value(json_object *v)
{
	const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;

	return s != NULL && strlen(s) == (size_t)json_object_get_string_len(v) ? s : NULL;
}

static int
check_credentials(const struct provider_def *def, json_object *creds, const struct config *cfg, struct err *e)
{
	char field[80], why[160];
	json_object *v;

	json_object_object_foreach (creds, key, val) {
		char name[64];
		const char *s;
		size_t len;

		utf8_clean(name, sizeof name, key, 60);
		utf8_format(field, sizeof field, "credentials.%s", name);
		if (!provider_has_field(def, key)) {
			err_field(e, field, "The %s provider has no credential field %s.", def->id, name);
			continue;
		}
		if (!json_object_is_type(val, json_type_string)) {
			err_field(e, field, "The %s field must be a string.", field);
			continue;
		}
		s = json_object_get_string(val);
		len = (size_t)json_object_get_string_len(val);
		if (len == 0 || char_count(s, len) > CREDENTIAL_MAX_CHARS) {
			err_field(e, field, "The %s field must be 1 to %d characters.", field,
			    CREDENTIAL_MAX_CHARS);
			continue;
		}
		if (has_control(s, len)) /* a NUL (\u0000) too */
			err_field(e, field, "The %s field must not hold control characters.", field);
		if (def->url_field != NULL && strcmp(def->url_field, key) == 0 && admin_url(def, cfg))
			err_field(e, field,
			    "The administrator has set the %s address for this service "
			    "([provider.%s] base_url); leave %s out.",
			    def->id, def->id, field);
		else if (def->url_field != NULL && strcmp(def->url_field, key) == 0 &&
		    urlguard_check_url(json_object_get_string(val), cfg->allow_http_urls, why, sizeof why) !=
		        0)
			err_field(e, field, "The %s field is not an allowed URL: %s", field, why);
	}
	for (size_t i = 0; def->required[i] != NULL; i++) {
		if (admin_url(def, cfg) && strcmp(def->required[i], def->url_field) == 0)
			continue; /* the administrator's base_url is used instead */
		if (!json_object_object_get_ex(creds, def->required[i], &v)) {
			utf8_format(field, sizeof field, "credentials.%s", def->required[i]);
			err_field(e, field, "The %s field is required.", field);
		}
	}
	return e->nfields > 0 ? -1 : 0;
}

#define AT(a, p, type) ((type *)(void *)((char *)(a) + (p)->off))

/* "a, b, c" of a NULL-terminated list into buf. */
static const char *
list_text(const char *const *values, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; values[i] != NULL && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", values[i]);
	return buf;
}

static void
arg_enum(const struct param *p, json_object *v, struct args *a, struct err *e)
{
	const char *s = str_value(v);
	char allowed[256]; /* the longest list, the run states, is 139 characters */

	if (s == NULL || !str_in_list(p->values, s)) {
		err_field(e, p->name, "The %s field must be one of: %s.", p->name,
		    list_text(p->values, allowed, sizeof allowed));
		return;
	}
	*AT(a, p, const char *) = s;
}

static void
arg_kind(const struct param *p, json_object *v, struct args *a, struct err *e)
{
	const char *s = str_value(v);
	char allowed[256];
	size_t len = 0;

	if (s != NULL && importer_rank(s) >= 0) {
		*AT(a, p, const char *) = s;
		return;
	}
	allowed[0] = '\0';
	for (size_t i = 0; importer_type_at(i) != NULL && len < sizeof allowed; i++)
		len += (size_t)snprintf(allowed + len, sizeof allowed - len, "%s%s", i ? ", " : "",
		    importer_type_at(i));
	err_field(e, p->name, "The %s field must be one of: %s.", p->name, allowed);
}

static void
arg_int(const struct param *p, json_object *v, bool from_text, enum transport t, struct args *a,
    struct err *e)
{
	int64_t iv, max = (t == TRANSPORT_TOOL && p->tool_max) ? p->tool_max : p->max;
	const char *s = str_value(v), *digits = s != NULL && s[0] == '-' ? s + 1 : s;
	bool in_range = true;

	if (from_text) {
		if (s == NULL || parse_i64(s, INT64_MIN + 1, INT64_MAX, &iv) != 0) {
			/* digits that no int64_t holds are out of range, not a non-integer */
			if (s == NULL || *digits == '\0' || strspn(digits, "0123456789") != strlen(digits)) {
				err_field(e, p->name, "The %s field must be an integer.", p->name);
				return;
			}
			in_range = false;
		}
	} else if (json_object_is_type(v, json_type_int)) {
		iv = json_object_get_int64(v);
	} else {
		err_field(e, p->name, "The %s field must be an integer.", p->name);
		return;
	}
	if (!in_range || iv < p->min || iv > max) {
		err_field(e, p->name, "The %s field must be between %lld and %lld.", p->name,
		    (long long)p->min, (long long)max);
		return;
	}
	*AT(a, p, int64_t) = iv;
}

static void
arg_text(const struct param *p, json_object *v, struct args *a, struct err *e)
{
	const char *s = str_value(v);
	size_t len = s ? strlen(s) : 0;

	if (s == NULL || len == 0 || char_count(s, len) > (size_t)p->max || !utf8_valid(s, len)) {
		err_field(e, p->name, "The %s field must be text of 1 to %lld characters.", p->name,
		    (long long)p->max);
		return;
	}
	*AT(a, p, const char *) = s;
}

static void
arg_ids(const struct param *p, json_object *v, struct args *a, struct err *e)
{
	struct id_list *l = AT(a, p, struct id_list);
	size_t n;

	if (!json_object_is_type(v, json_type_array) || (n = json_object_array_length(v)) > ARGS_MAX_IDS) {
		err_field(e, p->name, "The %s field must be an array of at most %d ids.", p->name,
		    ARGS_MAX_IDS);
		return;
	}
	l->v = xcalloc(n ? n : 1, sizeof *l->v);
	l->n = n;
	for (size_t i = 0; i < n; i++) {
		json_object *x = json_object_array_get_idx(v, i);
		if (!json_object_is_type(x, json_type_int) || json_object_get_int64(x) < 1) {
			err_field(e, p->name, "The %s field must hold positive integer ids.", p->name);
			return;
		}
		l->v[i] = (uint64_t)json_object_get_int64(x);
	}
}

static void
arg_options(const struct param *p, json_object *v, struct args *a, struct err *e)
{
	struct run_options *o = AT(a, p, struct run_options);

	if (!json_object_is_type(v, json_type_object)) {
		err_field(e, p->name, "The %s field must be an object.", p->name);
		return;
	}
	json_object_object_foreach (v, key, val) {
		char name[64];
		utf8_clean(name, sizeof name, key, 60);
		if (strcmp(key, "import_paused") != 0)
			err_field(e, "options", "Unknown option %s; the options are: import_paused.", name);
		else if (!json_object_is_type(val, json_type_boolean))
			err_field(e, "options.import_paused",
			    "The options.import_paused field must be true or false.");
		else
			o->import_paused = json_object_get_boolean(val);
	}
}

/* One present value v of parameter p into a. */
static void
arg_one(const struct param *p, json_object *v, enum transport t, struct args *a, struct err *e)
{
	bool from_text =
	    json_object_is_type(v, json_type_string) && t == TRANSPORT_REST && p->src != SRC_BODY;
	const char *s = str_value(v);
	bool b;

	switch (p->kind) {
	case P_RUN_ID:
		break; /* op_args */
	case P_INT:
		arg_int(p, v, from_text, t, a, e);
		break;
	case P_ENUM:
		arg_enum(p, v, a, e);
		break;
	case P_KIND:
		arg_kind(p, v, a, e);
		break;
	case P_TEXT:
		arg_text(p, v, a, e);
		break;
	case P_BOOL:
		if (json_object_is_type(v, json_type_boolean))
			*AT(a, p, bool) = json_object_get_boolean(v);
		else if (from_text && parse_bool(s, &b) == 0)
			*AT(a, p, bool) = b;
		else
			err_field(e, p->name, "The %s field must be true or false.", p->name);
		break;
	case P_PROVIDER:
		if (s == NULL || (a->prov = provider_find(s)) == NULL) {
			char allowed[200];
			size_t len = 0;
			allowed[0] = '\0';
			for (size_t i = 0; provider_list[i] != NULL && len < sizeof allowed; i++)
				len += (size_t)snprintf(allowed + len, sizeof allowed - len, "%s%s",
				    i ? ", " : "", provider_list[i]->id);
			err_field(e, p->name, "The %s field must be one of: %s.", p->name, allowed);
			break;
		}
		*AT(a, p, const char *) = a->prov->id;
		break;
	case P_CREDENTIALS:
		if (!json_object_is_type(v, json_type_object))
			err_field(e, p->name, "The %s field must be an object.", p->name);
		else
			*AT(a, p, json_object *) = v;
		break;
	case P_ID_LIST:
		arg_ids(p, v, a, e);
		break;
	case P_OPTIONS:
		arg_options(p, v, a, e);
		break;
	}
}

int
op_args(const struct op *op, json_object *in, enum transport t, struct args *a, struct err *e)
{
	char where[64];

	memset(a, 0, sizeof *a);
	/* A number JSON holds but no int64_t or double does (jx_parse_input),
	 * wherever it is (a run id's place too): named, and nothing else read. */
	if (jx_find_out_of_range(in, where, sizeof where))
		return err_field(e, where,
		    "The %s field holds a number out of range: an integer must lie between "
		    "-9223372036854775808 and 9223372036854775807, and no number may be infinite.",
		    where);
	a->confirm = t == TRANSPORT_REST; /* a REST DELETE or revert is its own confirmation */
	a->via = t == TRANSPORT_TOOL ? "tool" : "api";
	/* A model gets the run's recent history with its state in one call. */
	a->embed_logs = t == TRANSPORT_TOOL ? 50 : 0;
	for (const struct param *p = op->params; p->name != NULL; p++) {
		json_object *v = NULL;
		const char *s;

		if ((t == TRANSPORT_REST && (p->flags & PARAM_TOOL_ONLY)) ||
		    (t == TRANSPORT_TOOL && (p->flags & PARAM_REST_ONLY)))
			continue;
		if (!json_object_object_get_ex(in, p->name, &v) || v == NULL ||
		    (p->src == SRC_QUERY && t == TRANSPORT_REST && json_object_is_type(v, json_type_string) &&
		        json_object_get_string_len(v) == 0))
			v = NULL;
		if (v == NULL) {
			if (p->kind == P_RUN_ID)
				return err_set(e, ERR_NOT_FOUND, NULL);
			if (p->flags & PARAM_REQUIRED)
				err_field(e, p->name, "The %s field is required.", p->name);
			else if (p->kind == P_INT)
				*AT(a, p, int64_t) = p->dflt;
			continue;
		}
		if (p->kind == P_RUN_ID) {
			s = str_value(v);
			if (s == NULL || !uuid_valid(s))
				return err_set(e, ERR_NOT_FOUND, NULL);
			for (int i = 0; i < 36; i++)
				a->id[i] = (char)((s[i] >= 'A' && s[i] <= 'F') ? s[i] + 32 : s[i]);
			a->id[36] = '\0';
			continue;
		}
		arg_one(p, v, t, a, e);
	}
	return e->nfields > 0 ? -1 : 0;
}

void
args_free(struct args *a)
{
	free(a->ids.v);
	a->ids.v = NULL;
}

static int
call_handler(struct ctx *c, const struct op *op, const struct args *a, json_object **out, struct err *e)
{
	struct db *db = c->app->db;
	bool moved = false;

	if (!(op->flags & OPF_WRITES))
		return op->handler(c, a, out, e);
	for (int attempt = 0;; attempt++) {
		enum db_class cls;
		int rc;

		if (db_begin(db) != 0)
			return db_fail(db, e);
		rc = op->handler(c, a, out, e);
		if (rc == 0 && db_commit(db) == 0)
			return 0;
		if (rc == 0) {
			db_fail(db, e);
			json_object_put(*out);
			*out = NULL;
		}
		db_rollback(db);
		/* Lost to another writer: again, after a pause. A server that could not serve
		 * before the commit: once more, on the next server (a commit whose answer was lost
		 * may have been done: never twice). */
		cls = db_error_class(db);
		if (!(cls == DB_RETRY && attempt < DB_ATTEMPTS - 1) && !(cls == DB_LOST && rc != 0 && !moved))
			return -1;
		log_warn("%s: %s; retrying the transaction", op->path, db_error(db));
		moved = moved || cls == DB_LOST;
		if (cls == DB_RETRY)
			db_retry_pause(attempt);
		err_clear(e);
	}
}

int
op_check(struct app *app, const struct op *op, const struct principal *who, const struct rate *rate,
    struct err *e)
{
	if ((op->flags & OPF_MODULE) && !who->flag_on)
		return err_set(e, ERR_FEATURE_DISABLED, NULL);
	if (!scope_has(who, op->scope))
		return err_set(e, ERR_FORBIDDEN, "This token lacks the %s scope.", scope_name(op->scope));
	if (rate != NULL && rate->exceeded) {
		e->retry_after = rate->retry_after;
		return err_set(e, ERR_RATE_LIMITED, NULL);
	}
	if (op->flags & OPF_START_LIMITED) {
		char bucket[48];
		struct rate starts;

		snprintf(bucket, sizeof bucket, "start:%llu", (unsigned long long)who->user_id);
		if (rate_hit(app->db, bucket, app->cfg->starts_per_minute, &starts, e) != 0)
			return -1;
		if (starts.exceeded) {
			e->retry_after = starts.retry_after;
			return err_set(e, ERR_DISCOVERY_RATE_LIMITED, NULL);
		}
	}
	return 0;
}

static bool
takes(const struct op *op, enum param_kind kind)
{
	for (const struct param *p = op->params; p->name != NULL; p++)
		if (p->kind == kind)
			return true;
	return false;
}

int
op_run(struct app *app, const struct op *op, const struct principal *who, json_object *in, enum transport t,
    json_object **out, struct err *e)
{
	struct ctx c = { app, who };
	struct args a;
	int rc;

	*out = NULL;
	op_args(op, in, t, &a, e);
	if (a.prov != NULL && takes(op, P_CREDENTIALS)) {
		/* Credential fields depend on the provider; report them with the rest. */
		json_object *none = json_object_new_object();
		check_credentials(a.prov, a.credentials ? a.credentials : none, app->cfg, e);
		json_object_put(none);
	}
	if (e->code != ERR_NONE) {
		args_free(&a);
		jx_wipe_strings(a.credentials);
		return -1;
	}
	rc = call_handler(&c, op, &a, out, e);
	args_free(&a);
	/* Credentials came with the request: wipe them however it ended. */
	jx_wipe_strings(a.credentials);
	return rc;
}
