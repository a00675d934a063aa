/* Transport-neutral HTTP request and response. fcgi.c fills a request from
 * the FastCGI environment; http_handle routes it to the REST router or the
 * tool transport; only these files turn errors into responses. */
#ifndef MIGRATOR_HTTP_H
#define MIGRATOR_HTTP_H
#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "api/ops.h"
#include "auth/auth.h"
#include "core/err.h"

#define HTTP_MAX_PATH   1024 /* a longer path is a 414, never cut */
#define HTTP_MAX_URI    8192 /* path and query string */
#define HTTP_MAX_HEADER 4096 /* a longer header we read is a 431 */

struct http_req {
	const char *method;
	const char *path;          /* REQUEST_URI up to '?' */
	const char *query;         /* after '?', or "" */
	const char *authorization; /* NULL when absent */
	const char *remote_addr;
	const char *origin; /* NULL when absent */
	const char *host;
	const char *content_type;
	const char *protocol_version; /* MCP-Protocol-Version */
	const char *body;
	size_t body_len;
	bool body_too_large;
	enum err_code refused; /* the transport could not read the request faithfully: answer this */
	char request_id[17];
};

#define HTTP_MAX_HEADERS 12

struct http_header {
	char name[40];
	char value[200];
};

struct http_resp {
	int status;
	int nheaders;
	struct http_header headers[HTTP_MAX_HEADERS];
	const char *body; /* the text of json (or of a string in it), NULL for none */
	size_t body_len;
	json_object *json;        /* owns body */
	const char *content_type; /* of the body; NULL: application/json */
};

/* Handle one request. resp must be zeroed; free it with http_resp_free. */
void http_handle(struct app *, struct http_req *, struct http_resp *);
void http_resp_free(struct http_resp *);

/* Helpers for the transports (http.c). */
void http_header(struct http_resp *, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Set status and body to the compact text of o, or to its text when o is a
 * splice (o is kept until http_resp_free). */
void http_json(struct http_resp *, int status, json_object *o);
/* Set status and body to the text of the string member key of o, sent as
 * content_type (a literal); o is kept until http_resp_free. */
void http_text(struct http_resp *, int status, json_object *o, const char *key, const char *content_type);
/* The spec's error body for e: {"message","code"[,"errors"][,"request_id"]};
 * a 5xx is logged with where (the path or the tool) and its detail, and shows
 * only the code's default message. Both transports build error bodies here. */
json_object *http_error_body(const struct http_req *, const char *where, const struct err *e);
/* Retry-After on a 429 for e (its retry_after, else 60 seconds). */
void http_retry_after(struct http_resp *, const struct err *e);
/* A REST error response: http_error_body, Retry-After, e's HTTP status. */
void http_error(struct http_resp *, const struct http_req *, const struct err *e);
/* Rate-limit headers (and Retry-After when exceeded). */
void http_rate_headers(struct http_resp *, const struct rate *);
/* Token (or IP bucket) authentication and counting, shared by REST and MCP.
 * Returns 0 with p and r set; -1 with e (401, 429 for an anonymous caller
 * over the limit, 503); r is set whenever the hit was counted. */
int http_authenticate(struct app *, const struct http_req *, struct principal *p, struct rate *r,
    bool *counted, struct err *e);
/* True when a Content-Type names application/json (parameters allowed). */
bool http_is_json(const char *content_type);
/* Parse a query string into an object of string values. 0 or -1 (malformed). */
int http_parse_query(const char *query, json_object **out);

/* The two transports. */
void rest_handle(struct app *, struct http_req *, struct http_resp *);
void mcp_handle(struct app *, struct http_req *, struct http_resp *);

/* One JSON-RPC message as MCP takes it (mcp.c; pure, a fuzz target). */
struct envelope {
	json_object *msg;    /* the parsed body; owned, put it even on failure */
	json_object *id;     /* borrowed from msg; NULL without one */
	json_object *params; /* borrowed; NULL without */
	const char *method;  /* NULL for a response to us */
	bool has_params;
};
/* Why a message is refused: the error (its row gives the HTTP status and
 * the JSON-RPC code). */
struct refusal {
	enum err_code code;
	json_object *id; /* the message's id when it has a usable one */
	const char *text;
};
/* Parse and check the envelope of body. 0 with env, or -1 with no. */
int mcp_envelope(const char *body, size_t len, struct envelope *env, struct refusal *no);

#endif
