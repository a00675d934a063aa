#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/ops.h"
#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "providers/provider.h"
#include "providers/urlguard.h"

const char *const run_states[] = { "pending", "discovering", "awaiting_review", "executing",
	"paused_conflicts", "completed", "completed_with_errors", "failed", "cancelled", NULL };
const char *const resource_statuses[] = { "pending", "running", "imported", "skipped", "conflict",
	"failed", NULL };
static const char *const strategies[] = { "skip", "overwrite", "duplicate", NULL };

/* JSON Schema fragments for the tools' outputSchema. */
#define S_STR_NULL "{\"type\":[\"string\",\"null\"]}"
#define S_RUN_PROPS \
	"\"id\":{\"type\":\"string\"},\"provider\":{\"type\":\"string\"},\"status\":{\"type\":\"string\"}," \
	"\"stats\":{\"type\":\"object\"},\"total_resources\":{\"type\":\"integer\"}," \
	"\"failed_resources\":{\"type\":\"integer\"},\"error_message\":" S_STR_NULL "," \
	"\"started_at\":" S_STR_NULL ",\"finished_at\":" S_STR_NULL ",\"created_at\":" S_STR_NULL "," \
	"\"updated_at\":" S_STR_NULL
#define S_RUN "{\"type\":\"object\",\"properties\":{" S_RUN_PROPS "},\"required\":[\"id\",\"provider\",\"status\"]}"
#define S_ACK \
	"{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"},\"data\":{\"type\":\"object\"," \
	"\"properties\":{\"id\":{\"type\":\"string\"},\"status\":{\"type\":\"string\"}},\"required\":[\"id\",\"status\"]}}," \
	"\"required\":[\"message\",\"data\"]}"

static const char out_list[] =
	"{\"type\":\"object\",\"properties\":{\"data\":{\"type\":\"array\",\"items\":" S_RUN "},"
	"\"links\":{\"type\":\"object\"},\"meta\":{\"type\":\"object\",\"properties\":{"
	"\"current_page\":{\"type\":\"integer\"},\"last_page\":{\"type\":\"integer\"},"
	"\"per_page\":{\"type\":\"integer\"},\"total\":{\"type\":\"integer\"}}}},\"required\":[\"data\",\"meta\"]}";
static const char out_get[] =
	"{\"type\":\"object\",\"properties\":{\"data\":{\"type\":\"object\",\"properties\":{" S_RUN_PROPS ","
	"\"resources\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}},"
	"\"logs\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}}},\"required\":[\"id\",\"status\",\"resources\"]},"
	"\"meta\":{\"type\":\"object\",\"properties\":{\"resource_counts\":{\"type\":\"object\"}}}},"
	"\"required\":[\"data\",\"meta\"]}";
static const char out_create[] =
	"{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"},\"data\":" S_RUN "},\"required\":[\"data\"]}";
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
static const char out_cancel[] =
	"{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"},\"data\":" S_RUN "},"
	"\"required\":[\"message\",\"data\"]}";

#define P_ID { "id", P_RUN_ID, SRC_PATH, PARAM_REQUIRED, 0, 0, 0, 0, NULL, "The run id (UUID)." }
#define P_END { NULL, 0, 0, 0, 0, 0, 0, 0, NULL, NULL }

static const struct param params_list[] = {
	{ "status", P_ENUM, SRC_QUERY, 0, 0, 0, 0, 0, run_states, "Only runs in this state." },
	{ "provider", P_PROVIDER, SRC_QUERY, 0, 0, 0, 0, 0, NULL, "Only runs from this provider." },
	{ "page", P_INT, SRC_QUERY, 0, 1, 1000000, 1, 0, NULL, "Page number, from 1." },
	{ "per_page", P_INT, SRC_QUERY, 0, 1, 100, 20, 50, NULL, "Runs per page." },
	P_END
};
static const struct param params_get[] = { P_ID, P_END };
static const struct param params_logs[] = {
	P_ID,
	{ "errors_only", P_BOOL, SRC_QUERY, 0, 0, 0, 0, 0, NULL, "Only error entries." },
	{ "page", P_INT, SRC_QUERY, 0, 1, 1000000, 1, 0, NULL, "Page number, from 1." },
	{ "per_page", P_INT, SRC_QUERY, 0, 1, 100, 20, 0, NULL, "Entries per page." },
	P_END
};
static const struct param params_create[] = {
	{ "provider", P_PROVIDER, SRC_BODY, PARAM_REQUIRED, 0, 0, 0, 0, NULL, "The source provider." },
	{ "credentials", P_CREDENTIALS, SRC_BODY, 0, 0, 0, 0, 0, NULL,
	  "The provider's credential fields (write-only; never returned)." },
	P_END
};
static const struct param params_delete[] = {
	P_ID,
	{ "confirm", P_BOOL, SRC_BODY, PARAM_TOOL_ONLY, 0, 0, 0, 0, NULL,
	  "Must be true: the run, its resources and logs are deleted permanently." },
	P_END
};
static const struct param params_resolve[] = {
	P_ID,
	{ "strategy", P_ENUM, SRC_BODY, PARAM_REQUIRED, 0, 0, 0, 0, strategies,
	  "skip: leave the existing object; overwrite: update it; duplicate: import a second copy." },
	{ "resource_ids", P_ID_LIST, SRC_BODY, 0, 0, 0, 0, 0, NULL,
	  "Only these conflicting resources (default: all)." },
	P_END
};
static const struct param params_none[] = { P_END };

const struct op op_table[OP__COUNT] = {
	[OP_LIST] = { OP_LIST, "GET", "/api/v1/migrations", 200, "migrations-list", "List migration runs",
	    "List your migration runs, newest first, with resource totals. Filters: status, provider.",
	    SC_ACCOUNT_READ, true, false, false, true, false, true, params_list, out_list, h_list },
	[OP_GET] = { OP_GET, "GET", "/api/v1/migrations/{run}", 200, "migration-get", "Get a migration run",
	    "A run with its resources (at most 500), its 50 most recent log entries and counts per resource status.",
	    SC_ACCOUNT_READ, true, false, false, true, false, true, params_get, out_get, h_get },
	[OP_LOGS] = { OP_LOGS, "GET", "/api/v1/migrations/{run}/logs", 200, NULL, NULL, NULL,
	    SC_ACCOUNT_READ, true, false, false, true, false, true, params_logs, NULL, h_logs },
	[OP_CREATE] = { OP_CREATE, "POST", "/api/v1/migrations", 201, "migration-create", "Start a migration run",
	    "Start importing from a provider: the run is created and discovery is queued. At most 5 starts per minute.",
	    SC_ACCOUNT_WRITE, true, true, true, false, false, false, params_create, out_create, h_create },
	[OP_EXECUTE] = { OP_EXECUTE, "POST", "/api/v1/migrations/{run}/execute", 202, "migration-execute",
	    "Execute a migration run",
	    "Plan and import a run that is awaiting review. Queued; read the run to follow progress.",
	    SC_ACCOUNT_WRITE, true, true, false, false, false, false, params_get, S_ACK, h_execute },
	[OP_RETRY] = { OP_RETRY, "POST", "/api/v1/migrations/{run}/retry-failed", 202, "migration-retry-failed",
	    "Retry failed resources", "Reset the run's failed resources to pending and import them again.",
	    SC_ACCOUNT_WRITE, true, true, false, false, false, false, params_get, out_retry, h_retry },
	[OP_DELETE] = { OP_DELETE, "DELETE", "/api/v1/migrations/{run}", 204, "migration-delete",
	    "Delete a migration run",
	    "Delete a run with its resources and logs, permanently. Imported objects stay. Requires confirm: true.",
	    SC_ACCOUNT_DELETE, true, true, false, false, true, true, params_delete, out_delete, h_delete },
	[OP_RESOLVE] = { OP_RESOLVE, "POST", "/api/v1/migrations/{run}/resolve-conflicts", 200,
	    "migration-resolve-conflicts", "Resolve conflicts",
	    "Decide what to do with resources that conflict with existing objects; the run returns to review when none is left.",
	    SC_ACCOUNT_WRITE, true, true, false, false, false, false, params_resolve, out_resolve, h_resolve },
	[OP_CANCEL] = { OP_CANCEL, "POST", "/api/v1/migrations/{run}/cancel", 200, "migration-cancel",
	    "Cancel a migration run", "Stop a run that has not finished; queued work is dropped.",
	    SC_ACCOUNT_WRITE, true, true, false, false, false, true, params_get, out_cancel, h_cancel },
	[OP_ME] = { OP_ME, "GET", "/api/v1/me", 200, NULL, NULL, NULL,
	    SC_NONE, false, false, false, true, false, true, params_none, NULL, h_me },
};

const struct op *
op_by_tool(const char *name)
{
	for (int i = 0; i < OP__COUNT; i++)
		if (op_table[i].tool != NULL && name != NULL && strcmp(op_table[i].tool, name) == 0)
			return &op_table[i];
	return NULL;
}

static int
check_credentials(const struct provider_def *def, json_object *creds, const struct config *cfg,
    struct err *e)
{
	char field[80], why[160];
	json_object *v;

	json_object_object_foreach(creds, key, val) {
		snprintf(field, sizeof field, "credentials.%.60s", key);
		if (!provider_has_field(def, key)) {
			err_field(e, field, "The %s provider has no credential field %.60s.", def->id, key);
			continue;
		}
		if (!json_object_is_type(val, json_type_string)) {
			err_field(e, field, "The %s field must be a string.", field);
			continue;
		}
		if (json_object_get_string_len(val) == 0 || json_object_get_string_len(val) > 2048) {
			err_field(e, field, "The %s field must be 1 to 2048 characters.", field);
			continue;
		}
		if (def->url_field != NULL && strcmp(def->url_field, key) == 0 &&
		    urlguard_check_url(json_object_get_string(val), cfg->allow_http_urls, why, sizeof why) != 0)
			err_field(e, field, "The %s field is not an allowed URL: %s", field, why);
	}
	for (size_t i = 0; def->required[i] != NULL; i++) {
		if (!json_object_object_get_ex(creds, def->required[i], &v)) {
			snprintf(field, sizeof field, "credentials.%s", def->required[i]);
			err_field(e, field, "The %s field is required.", field);
		}
	}
	return e->nfields > 0 ? -1 : 0;
}

int
op_args(const struct op *op, json_object *in, enum transport t, struct args *a, struct err *e)
{
	memset(a, 0, sizeof *a);
	for (const struct param *p = op->params; p->name != NULL; p++) {
		json_object *v = NULL;
		const char *s;
		int64_t iv;
		bool from_text;

		if ((t == TRANSPORT_REST && (p->flags & PARAM_TOOL_ONLY)) ||
		    (t == TRANSPORT_TOOL && (p->flags & PARAM_REST_ONLY)))
			continue;
		if (!json_object_object_get_ex(in, p->name, &v) || v == NULL ||
		    (p->src == SRC_QUERY && t == TRANSPORT_REST && json_object_is_type(v, json_type_string) &&
		     json_object_get_string_len(v) == 0))
			v = NULL;
		from_text = v != NULL && json_object_is_type(v, json_type_string) &&
		    (t == TRANSPORT_REST && p->src != SRC_BODY);
		if (v == NULL) {
			if (p->kind == P_RUN_ID)
				return err_set(e, ERR_NOT_FOUND, NULL);
			if (p->flags & PARAM_REQUIRED) {
				err_field(e, p->name, "The %s field is required.", p->name);
				continue;
			}
			if (p->kind == P_INT) {
				if (strcmp(p->name, "page") == 0)
					a->page = p->dflt;
				else
					a->per_page = p->dflt;
			}
			continue;
		}
		switch (p->kind) {
		case P_RUN_ID:
			s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
			if (s == NULL || !uuid_valid(s))
				return err_set(e, ERR_NOT_FOUND, NULL);
			for (int i = 0; i < 36; i++)
				a->id[i] = (char)((s[i] >= 'A' && s[i] <= 'F') ? s[i] + 32 : s[i]);
			a->id[36] = '\0';
			break;
		case P_INT: {
			int64_t max = (t == TRANSPORT_TOOL && p->tool_max) ? p->tool_max : p->max;
			if (from_text) {
				if (parse_i64(json_object_get_string(v), INT64_MIN + 1, INT64_MAX, &iv) != 0) {
					err_field(e, p->name, "The %s field must be an integer.", p->name);
					break;
				}
			} else if (json_object_is_type(v, json_type_int)) {
				iv = json_object_get_int64(v);
			} else {
				err_field(e, p->name, "The %s field must be an integer.", p->name);
				break;
			}
			if (iv < p->min || iv > max) {
				err_field(e, p->name, "The %s field must be between %lld and %lld.", p->name,
				    (long long)p->min, (long long)max);
				break;
			}
			if (strcmp(p->name, "page") == 0)
				a->page = iv;
			else
				a->per_page = iv;
			break;
		}
		case P_ENUM:
			s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
			if (s == NULL || !str_in_list(p->values, s)) {
				err_field(e, p->name, "The selected %s is invalid.", p->name);
				break;
			}
			if (strcmp(p->name, "status") == 0)
				a->status = s;
			else
				a->strategy = s;
			break;
		case P_BOOL: {
			bool b;
			if (json_object_is_type(v, json_type_boolean))
				b = json_object_get_boolean(v);
			else if (!from_text || parse_bool(json_object_get_string(v), &b) != 0) {
				err_field(e, p->name, "The %s field must be true or false.", p->name);
				break;
			}
			if (strcmp(p->name, "confirm") == 0)
				a->confirm = b;
			else
				a->errors_only = b;
			break;
		}
		case P_PROVIDER:
			s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
			if (s == NULL || (a->prov = provider_find(s)) == NULL) {
				err_field(e, p->name, "The selected %s is invalid.", p->name);
				break;
			}
			a->provider = a->prov->id;
			break;
		case P_CREDENTIALS:
			if (!json_object_is_type(v, json_type_object)) {
				err_field(e, p->name, "The %s field must be an object.", p->name);
				break;
			}
			a->credentials = v;
			break;
		case P_ID_LIST: {
			size_t n;
			if (!json_object_is_type(v, json_type_array) ||
			    (n = json_object_array_length(v)) > ARGS_MAX_IDS) {
				err_field(e, p->name, "The %s field must be an array of at most %d ids.", p->name,
				    ARGS_MAX_IDS);
				break;
			}
			a->resource_ids = xcalloc(n ? n : 1, sizeof *a->resource_ids);
			a->nresource_ids = n;
			for (size_t i = 0; i < n; i++) {
				json_object *x = json_object_array_get_idx(v, i);
				if (!json_object_is_type(x, json_type_int) || json_object_get_int64(x) < 1) {
					err_field(e, p->name, "The %s field must hold positive integer ids.", p->name);
					break;
				}
				a->resource_ids[i] = (uint64_t)json_object_get_int64(x);
			}
			break;
		}
		}
	}
	return e->nfields > 0 ? -1 : 0;
}

void
args_free(struct args *a)
{
	free(a->resource_ids);
	a->resource_ids = NULL;
}

static int
call_handler(struct ctx *c, const struct op *op, const struct args *a, json_object **out,
    struct err *e)
{
	struct db *db = c->app->db;

	if (!op->writes)
		return op->handler(c, a, out, e);
	for (int attempt = 0;; attempt++) {
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
		if (db_error_class(db) != DB_RETRY || attempt >= 2)
			return -1;
		log_warn("%s: %s; retrying the transaction", op->path, db_error(db));
		err_clear(e);
	}
}

int
op_check(struct app *app, const struct op *op, const struct principal *who,
    const struct rate *rate, struct err *e)
{
	if (op->module && !who->flag_on)
		return err_set(e, ERR_FEATURE_DISABLED, NULL);
	if (!scope_has(who, op->scope))
		return err_set(e, ERR_FORBIDDEN, "This token lacks the %s scope.", scope_name(op->scope));
	if (rate != NULL && rate->exceeded) {
		e->retry_after = rate->retry_after;
		return err_set(e, ERR_RATE_LIMITED, NULL);
	}
	if (op->start_limited) {
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

int
op_run(struct app *app, const struct op *op, const struct principal *who, json_object *in,
    enum transport t, json_object **out, struct err *e)
{
	struct ctx c = { app, who, t };
	struct args a;
	int rc;

	*out = NULL;
	op_args(op, in, t, &a, e);
	if (op->id == OP_CREATE && a.prov != NULL) {
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
