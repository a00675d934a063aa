/* One error value for the whole program. Functions fill it and return -1;
 * only the transports (REST, tool interface) turn it into a response, through
 * the table in err.c that maps each code to its HTTP status, spec code and
 * JSON-RPC code. */
#ifndef MIGRATOR_ERR_H
#define MIGRATOR_ERR_H

enum err_code {
	ERR_NONE = 0,
	ERR_BAD_REQUEST,             /* 400 malformed request */
	ERR_MALFORMED_JSON,          /* 400 body is not JSON */
	ERR_UNAUTHENTICATED,         /* 401 */
	ERR_FORBIDDEN,               /* 403 token lacks the scope */
	ERR_FEATURE_DISABLED,        /* 403 features:migrator off */
	ERR_ORIGIN,                  /* 403 foreign Origin */
	ERR_NOT_FOUND,               /* 404 unknown path, or run not found/foreign */
	ERR_METHOD,                  /* 405 */
	ERR_CONFLICT,                /* 409 */
	ERR_RUN_CANCELLED,           /* 409 run_cancelled */
	ERR_RUN_NOT_CANCELLABLE,     /* 409 run_not_cancellable */
	ERR_TOO_LARGE,               /* 413 */
	ERR_URI_TOO_LONG,            /* 414 */
	ERR_UNSUPPORTED_MEDIA,       /* 415 */
	ERR_VALIDATION,              /* 422 with per-field errors */
	ERR_RUN_NOT_AWAITING_REVIEW, /* 422 */
	ERR_NO_FAILED_RESOURCES,     /* 422 */
	ERR_RUN_NOT_PAUSED,          /* 422 */
	ERR_CONFIRM_REQUIRED,        /* 422 migration-delete or -revert without confirm */
	ERR_RUN_NOT_REVERTIBLE,      /* 422 */
	ERR_RATE_LIMITED,            /* 429 */
	ERR_HEADERS_TOO_LARGE,       /* 431 */
	ERR_DISCOVERY_RATE_LIMITED,  /* 429 */
	ERR_INTERNAL,                /* 500 */
	ERR_UPSTREAM,                /* 502 */
	ERR_UNAVAILABLE,             /* 503 */
	ERR__COUNT
};

/* JSON-RPC 2.0 error codes of the tool interface. */
enum rpc_code {
	RPC_PARSE_ERROR = -32700,
	RPC_INVALID_REQUEST = -32600,
	RPC_NO_METHOD = -32601,
	RPC_INVALID_PARAMS = -32602,
	RPC_INTERNAL = -32603,
	RPC_SERVER_REFUSED = -32000 /* any other HTTP-level refusal (401, 403, 405, 413, 429, 5xx) */
};

#define ERR_MAX_FIELDS 8

struct err_field {
	char field[64];
	char msg[320]; /* room for the longest list of allowed values (the resource kinds) */
};

struct err {
	enum err_code code;
	char msg[256];    /* shown to the client; empty: the code's default text */
	char detail[512]; /* log only, never shown */
	const char *file;
	int line;
	int retry_after; /* seconds, for 429 (0: a minute) */
	int nfields;
	struct err_field fields[ERR_MAX_FIELDS];
};

struct err_info {
	int status;          /* HTTP status */
	const char *code;    /* machine code in the body, or NULL */
	const char *message; /* default client message */
	int rpc;             /* JSON-RPC error code when the tool interface refuses a
	                      * message with this error at the HTTP level */
};

/* The table row of a code. */
const struct err_info *err_info(enum err_code);
/* The seconds of e's Retry-After header: a rate limit's wait, a few for a database that cannot
 * serve now; 0 when e asks for none. */
int err_retry_after(const struct err *e);
/* The client-safe message of e (its own, or the code's default). */
const char *err_message(const struct err *e);

/* Set code and client message (printf-style; may be NULL for the default).
 * Returns -1 so callers can write `return err_set(...)`. */
int err_set_(struct err *, const char *file, int line, enum err_code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
#define err_set(e, code, ...) err_set_((e), __FILE__, __LINE__, (code), __VA_ARGS__)

/* An internal error: the client sees a generic message, detail goes to the log. */
int err_internal_(struct err *, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define err_internal(e, ...) err_internal_((e), __FILE__, __LINE__, __VA_ARGS__)

/* Add a per-field validation message; sets ERR_VALIDATION. Returns -1. */
int err_field(struct err *, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

void err_clear(struct err *);

#endif
