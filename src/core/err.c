#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/log.h"
#include "core/util.h"

/* clang-format off */
static const struct err_info table[ERR__COUNT] = {
	[ERR_NONE] = { 200, NULL, "OK", RPC_SERVER_REFUSED },
	[ERR_BAD_REQUEST] = { 400, "bad_request", "The request is malformed.", RPC_INVALID_REQUEST },
	[ERR_MALFORMED_JSON] = { 400, "malformed_json", "The request body is not valid JSON.", RPC_PARSE_ERROR },
	[ERR_UNAUTHENTICATED] = { 401, "unauthenticated", "Unauthenticated.", RPC_SERVER_REFUSED },
	[ERR_FORBIDDEN] = { 403, "forbidden", "This token lacks the scope required for this action.", RPC_SERVER_REFUSED },
	[ERR_FEATURE_DISABLED] = { 403, "feature_disabled", "The migrator module is disabled for this account.", RPC_SERVER_REFUSED },
	[ERR_ORIGIN] = { 403, "forbidden_origin", "Requests from this origin are not allowed.", RPC_SERVER_REFUSED },
	[ERR_NOT_FOUND] = { 404, "not_found", "Not found.", RPC_SERVER_REFUSED },
	[ERR_METHOD] = { 405, "method_not_allowed", "Method not allowed.", RPC_SERVER_REFUSED },
	[ERR_CONFLICT] = { 409, "conflict", "The request conflicts with the state of the resource.", RPC_SERVER_REFUSED },
	[ERR_RUN_CANCELLED] = { 409, "run_cancelled", "The run was cancelled.", RPC_SERVER_REFUSED },
	[ERR_RUN_NOT_CANCELLABLE] = { 409, "run_not_cancellable", "The run has already finished and cannot be cancelled.", RPC_SERVER_REFUSED },
	[ERR_TOO_LARGE] = { 413, "payload_too_large", "The request body is too large.", RPC_SERVER_REFUSED },
	[ERR_URI_TOO_LONG] = { 414, "uri_too_long", "The request path is too long.", RPC_SERVER_REFUSED },
	[ERR_UNSUPPORTED_MEDIA] = { 415, "unsupported_media_type", "Send the body as application/json.", RPC_SERVER_REFUSED },
	[ERR_VALIDATION] = { 422, "validation_failed", "The given data was invalid.", RPC_SERVER_REFUSED },
	[ERR_RUN_NOT_AWAITING_REVIEW] = { 422, "run_not_awaiting_review", "The run is not awaiting review.", RPC_SERVER_REFUSED },
	[ERR_NO_FAILED_RESOURCES] = { 422, "no_failed_resources", "The run has no failed resources to retry.", RPC_SERVER_REFUSED },
	[ERR_RUN_NOT_PAUSED] = { 422, "run_not_paused", "The run is not paused on conflicts.", RPC_SERVER_REFUSED },
	[ERR_CONFIRM_REQUIRED] = { 422, "confirmation_required", "Set confirm to true to delete the run.", RPC_SERVER_REFUSED },
	[ERR_RUN_NOT_REVERTIBLE] = { 422, "run_not_revertible", "Only a completed, failed or cancelled run can be reverted.", RPC_SERVER_REFUSED },
	[ERR_RATE_LIMITED] = { 429, "rate_limited", "Too many requests.", RPC_SERVER_REFUSED },
	[ERR_HEADERS_TOO_LARGE] = { 431, "headers_too_large", "A request header is too large.", RPC_SERVER_REFUSED },
	[ERR_DISCOVERY_RATE_LIMITED] = { 429, "discovery_rate_limited", "Too many migration starts; try again in a minute.", RPC_SERVER_REFUSED },
	[ERR_INTERNAL] = { 500, "internal_error", "Internal server error.", RPC_SERVER_REFUSED },
	[ERR_UPSTREAM] = { 502, "upstream_error", "An upstream dependency failed.", RPC_SERVER_REFUSED },
	[ERR_UNAVAILABLE] = { 503, "service_unavailable", "The service is temporarily unavailable; try again in a few seconds.", RPC_SERVER_REFUSED },
};
/* clang-format on */

const struct err_info *
err_info(enum err_code c)
{
	if ((int)c < 0 || c >= ERR__COUNT)
		c = ERR_INTERNAL;
	return &table[c];
}

int
err_retry_after(const struct err *e)
{
	switch (e->code) {
	case ERR_RATE_LIMITED:
	case ERR_DISCOVERY_RATE_LIMITED:
		return e->retry_after > 0 ? e->retry_after : 60;
	case ERR_UNAVAILABLE:
		return 5; /* a server restarting, or another node taking over */
	default:
		return 0;
	}
}

const char *
err_message(const struct err *e)
{
	return e->msg[0] ? e->msg : err_info(e->code)->message;
}

void
err_clear(struct err *e)
{
	memset(e, 0, sizeof *e);
}

int
err_set_(struct err *e, const char *file, int line, enum err_code code, const char *fmt, ...)
{
	va_list ap;

	e->code = code;
	e->file = file;
	e->line = line;
	e->msg[0] = '\0';
	if (fmt != NULL) {
		va_start(ap, fmt);
		utf8_vformat(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int
err_internal_(struct err *e, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	e->code = ERR_INTERNAL;
	e->file = file;
	e->line = line;
	e->msg[0] = '\0';
	va_start(ap, fmt);
	utf8_vformat(e->detail, sizeof e->detail, fmt, ap);
	va_end(ap);
	return -1;
}

int
err_field(struct err *e, const char *field, const char *fmt, ...)
{
	va_list ap;
	struct err_field *f;

	e->code = ERR_VALIDATION;
	if (e->nfields >= ERR_MAX_FIELDS)
		return -1;
	f = &e->fields[e->nfields++];
	utf8_copy(f->field, sizeof f->field, field);
	va_start(ap, fmt);
	utf8_vformat(f->msg, sizeof f->msg, fmt, ap);
	va_end(ap);
	return -1;
}
