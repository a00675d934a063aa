/* One table row per operation (conventions: "one operation, written once").
 * The REST router and the tool interface are two views of these rows; one
 * dispatcher enforces token -> flag -> scope -> rate limit -> parameters and
 * then calls the handler, which returns the response body as JSON and never
 * writes HTTP. */
#ifndef MIGRATOR_OPS_H
#define MIGRATOR_OPS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "auth/auth.h"
#include "core/config.h"
#include "core/err.h"
#include "db/db.h"

struct seal_key;
struct provider_def;

/* Process-lifetime state shared by all requests. */
struct app {
	struct config *cfg;
	struct db *db;
	struct seal_key *key; /* credentials key; NULL when not configured */
};

enum transport { TRANSPORT_REST, TRANSPORT_TOOL };

enum param_kind {
	P_RUN_ID,      /* UUID of a run; malformed -> 404 like unknown */
	P_INT,         /* integer in [min, max] (tool view: [min, tool_max]) */
	P_ENUM,        /* one of values */
	P_BOOL,        /* JSON boolean, or "true|false|1|0" from a query string */
	P_PROVIDER,    /* one of the provider ids */
	P_CREDENTIALS, /* object of string values, fields checked against the provider */
	P_ID_LIST,     /* array of positive integers */
};

enum param_src { SRC_PATH, SRC_QUERY, SRC_BODY };

#define PARAM_REST_ONLY 0x1
#define PARAM_TOOL_ONLY 0x2
#define PARAM_REQUIRED  0x4

struct param {
	const char *name;
	enum param_kind kind;
	enum param_src src;  /* where REST finds it; tools read everything from arguments */
	int flags;
	int64_t min, max, dflt, tool_max;
	const char *const *values; /* P_ENUM */
	const char *description;   /* for the tool's inputSchema */
};

#define ARGS_MAX_IDS 1000

/* Validated, typed arguments. */
struct args {
	char id[37];
	const char *status;    /* NULL when absent */
	const char *provider;  /* NULL when absent */
	const struct provider_def *prov;
	int64_t page, per_page;
	bool errors_only;
	json_object *credentials; /* borrowed from the request */
	const char *strategy;
	uint64_t *resource_ids;   /* NULL when absent */
	size_t nresource_ids;
	bool confirm;
};

struct ctx {
	struct app *app;
	const struct principal *who;
	enum transport transport;
};

enum op_id {
	OP_LIST, OP_GET, OP_LOGS, OP_CREATE, OP_EXECUTE, OP_RETRY, OP_DELETE,
	OP_RESOLVE, OP_CANCEL, OP_ME, OP__COUNT
};

typedef int (*op_handler)(struct ctx *, const struct args *, json_object **out, struct err *);

struct op {
	enum op_id id;
	const char *method;
	const char *path;      /* "{run}" stands for the run id */
	int status;            /* REST success status */
	const char *tool;      /* tool name, or NULL when REST only */
	const char *title;
	const char *description;
	enum scope scope;
	bool module;           /* behind features:migrator */
	bool writes;           /* runs in a transaction */
	bool start_limited;    /* counts against the start limit */
	bool read_only, destructive, idempotent; /* tool annotations */
	const struct param *params;
	const char *output_schema; /* JSON Schema text for the tool */
	op_handler handler;
};

extern const struct op op_table[OP__COUNT];

/* The op for a tool name, or NULL. */
const struct op *op_by_tool(const char *name);

/* Validate raw inputs `in` (an object of name -> value; REST query values are
 * strings) against op's parameters for the given transport into a. Returns 0
 * or -1 with e (404 for a bad run id, 422 with per-field errors otherwise).
 * a borrows from in, except resource_ids which args_free releases. */
int op_args(const struct op *, json_object *in, enum transport, struct args *a, struct err *e);
void args_free(struct args *a);

/* The checks before arguments, in the design's order: flag (403), scope
 * (403), request rate (429, when rate is given), start limit (429; counts
 * every attempt that gets this far). 0 or -1 with e. */
int op_check(struct app *, const struct op *, const struct principal *, const struct rate *,
    struct err *e);
/* Validate in and run the handler (in a transaction when the op writes,
 * retried on deadlock). *out is the response body. 0 or -1 with e. */
int op_run(struct app *, const struct op *, const struct principal *, json_object *in,
    enum transport, json_object **out, struct err *e);

/* Handlers (api/migrations.c, api/me.c). */
int h_list(struct ctx *, const struct args *, json_object **, struct err *);
int h_get(struct ctx *, const struct args *, json_object **, struct err *);
int h_logs(struct ctx *, const struct args *, json_object **, struct err *);
int h_create(struct ctx *, const struct args *, json_object **, struct err *);
int h_execute(struct ctx *, const struct args *, json_object **, struct err *);
int h_retry(struct ctx *, const struct args *, json_object **, struct err *);
int h_delete(struct ctx *, const struct args *, json_object **, struct err *);
int h_resolve(struct ctx *, const struct args *, json_object **, struct err *);
int h_cancel(struct ctx *, const struct args *, json_object **, struct err *);
int h_me(struct ctx *, const struct args *, json_object **, struct err *);

/* Run states and resource statuses (design §4), NULL-terminated. */
extern const char *const run_states[];
extern const char *const resource_statuses[];

#endif
