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
	P_INT,         /* int64_t in [min, max] (tool view: [min, tool_max]) */
	P_ENUM,        /* const char *, one of values */
	P_TEXT,        /* const char *, valid UTF-8 of 1 to max characters */
	P_BOOL,        /* bool: JSON boolean, or "true|false|1|0" from a query string */
	P_PROVIDER,    /* const struct provider_def *, one of the provider ids */
	P_CREDENTIALS, /* json_object *: string values, fields checked against the provider */
	P_ID_LIST,     /* struct id_list: array of positive integers */
	P_OPTIONS,     /* struct run_options: object of the known start options */
	P_KIND,        /* const char *, a resource_type of the importers' table */
};

enum param_src { SRC_PATH, SRC_QUERY, SRC_BODY };

#define PARAM_REST_ONLY 0x1
#define PARAM_TOOL_ONLY 0x2
#define PARAM_REQUIRED  0x4

/* One parameter, described once: validation, the tool inputSchema and the
 * REST documentation all read it. The value lands at offset `off` of struct
 * args, in the type its kind names. */
struct param {
	const char *name;
	enum param_kind kind;
	enum param_src src; /* where REST finds it; tools read everything from arguments */
	unsigned flags;     /* PARAM_* */
	int64_t min, max, dflt, tool_max;
	const char *const *values; /* P_ENUM */
	size_t off;                /* offsetof(struct args, field) */
	const char *description;
};

#define ARGS_MAX_IDS 1000
/* The longest credential value, in characters. */
#define CREDENTIAL_MAX_CHARS 2048

struct id_list {
	uint64_t *v; /* NULL when absent; owned (args_free) */
	size_t n;
};

/* Options of a run given at start (docs: README "A migration, step by step"). */
struct run_options {
	bool import_paused; /* monitors and heartbeats arrive paused */
};

/* Validated, typed arguments (strings borrowed from the request). */
struct args {
	char id[37];
	const char *status; /* runs: run state; resources: resource status */
	const char *provider;
	const struct provider_def *prov;
	const char *resource_type;
	const char *action;
	const char *q;
	int64_t page, per_page;
	bool errors_only;
	const char *format; /* report: "json" or "csv" */
	json_object *credentials;
	struct run_options options;
	const char *strategy;
	struct id_list ids;
	bool confirm; /* REST: always (the DELETE itself confirms) */
	/* Set by op_args from the transport, so that handlers never look at it: */
	const char *via; /* "api" or "tool", for the run log */
	int embed_logs;  /* run detail: the newest log entries to include (tools: 50) */
};

struct ctx {
	struct app *app;
	const struct principal *who;
};

enum op_id {
	OP_LIST,
	OP_GET,
	OP_LOGS,
	OP_RESOURCES,
	OP_CREATE,
	OP_EXECUTE,
	OP_RETRY,
	OP_DELETE,
	OP_RESOLVE,
	OP_CANCEL,
	OP_EXCLUDE,
	OP_INCLUDE,
	OP_REPORT,
	OP_REVERT,
	OP_ME,
	OP__COUNT
};

typedef int (*op_handler)(struct ctx *, const struct args *, json_object **out, struct err *);

#define OPF_MODULE        0x01  /* behind features:migrator */
#define OPF_WRITES        0x02  /* runs in a transaction */
#define OPF_START_LIMITED 0x04  /* counts against the start limit */
#define OPF_READ_ONLY     0x08  /* tool annotations: readOnlyHint */
#define OPF_DESTRUCTIVE   0x10  /* destructiveHint */
#define OPF_IDEMPOTENT    0x20  /* idempotentHint */
#define OPF_OPEN_WORLD    0x40  /* openWorldHint: reaches a provider (through the runner) */
#define OPF_LOCATION      0x80  /* REST answers with Location: the new run */
#define OPF_CSV           0x100 /* REST answers with the text of the body's "csv" member, as text/csv */

struct op {
	enum op_id id;
	const char *method;
	const char *path; /* "{run}" stands for the run id */
	int status;       /* REST success status */
	const char *tool; /* tool name, or NULL when REST only */
	const char *title;
	const char *description;
	enum scope scope;
	unsigned flags; /* OPF_* */
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
 * a borrows from in, except the id list, which args_free releases. */
int op_args(const struct op *, json_object *in, enum transport, struct args *a, struct err *e);
void args_free(struct args *a);

/* The checks before arguments, in the design's order: flag (403), scope
 * (403), request rate (429, when rate is given), start limit (429; counts
 * every attempt that gets this far). 0 or -1 with e. */
int op_check(struct app *, const struct op *, const struct principal *, const struct rate *, struct err *e);
/* Validate in and run the handler (in a transaction when the op writes,
 * retried on deadlock). *out is the response body. 0 or -1 with e. */
int op_run(struct app *, const struct op *, const struct principal *, json_object *in, enum transport,
    json_object **out, struct err *e);

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
int h_resources(struct ctx *, const struct args *, json_object **, struct err *);
int h_report(struct ctx *, const struct args *, json_object **, struct err *);
int h_revert(struct ctx *, const struct args *, json_object **, struct err *);
int h_exclude(struct ctx *, const struct args *, json_object **, struct err *);
int h_include(struct ctx *, const struct args *, json_object **, struct err *);
int h_me(struct ctx *, const struct args *, json_object **, struct err *);

/* Run states, resource statuses and plan actions (design §4), NULL-terminated. */
extern const char *const run_states[];
extern const char *const resource_statuses[];
extern const char *const resource_actions[];

#endif
