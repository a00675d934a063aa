#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/jsonx.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "db/db.h"
#include "db/runs.h"
#include "http/http.h"

void
http_header(struct http_resp *r, const char *name, const char *fmt, ...)
{
	struct http_header *h;
	va_list ap;

	if (r->nheaders >= HTTP_MAX_HEADERS)
		return;
	h = &r->headers[r->nheaders++];
	utf8_copy(h->name, sizeof h->name, name);
	va_start(ap, fmt);
	utf8_vformat(h->value, sizeof h->value, fmt, ap);
	va_end(ap);
}

void
http_json(struct http_resp *r, int status, json_object *o)
{
	json_object_put(r->json);
	r->status = status;
	r->json = o;
	if ((r->body = jx_splice_text(o, &r->body_len)) == NULL)
		r->body = json_object_to_json_string_length(o,
		    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &r->body_len);
}

void
http_text(struct http_resp *r, int status, json_object *o, const char *key, const char *content_type)
{
	json_object *v = json_object_object_get(o, key);
	int len = json_object_get_string_len(v);

	json_object_put(r->json);
	r->status = status;
	r->json = o;
	r->body = json_object_get_string(v);
	r->body_len = len > 0 ? (size_t)len : 0;
	r->content_type = content_type;
}

json_object *
http_error_body(const struct http_req *req, const char *where, const struct err *e)
{
	const struct err_info *info = err_info(e->code);
	json_object *o = json_object_new_object();

	jx_add_str(o, "message", info->status >= 500 ? info->message : err_message(e));
	if (info->code != NULL)
		jx_add_str(o, "code", info->code);
	if (e->nfields > 0) {
		json_object *errs = json_object_new_object();
		for (int i = 0; i < e->nfields; i++) {
			json_object *list;
			if (!json_object_object_get_ex(errs, e->fields[i].field, &list)) {
				list = json_object_new_array();
				json_object_object_add(errs, e->fields[i].field, list);
			}
			json_object_array_add(list, json_object_new_string(e->fields[i].msg));
		}
		json_object_object_add(o, "errors", errs);
	}
	if (info->status >= 500) {
		jx_add_str(o, "request_id", req->request_id);
		log_error("request %s %s %s: %s (%s:%d)", req->request_id, req->method, where,
		    e->detail[0] ? e->detail : err_message(e), e->file ? e->file : "?", e->line);
	}
	return o;
}

void
http_retry_after(struct http_resp *r, const struct err *e)
{
	int s = err_retry_after(e);

	if (s > 0)
		http_header(r, "Retry-After", "%d", s);
}

void
http_error(struct http_resp *r, const struct http_req *req, const struct err *e)
{
	http_retry_after(r, e);
	http_json(r, err_info(e->code)->status, http_error_body(req, req->path, e));
}

void
http_rate_headers(struct http_resp *r, const struct rate *rate)
{
	http_header(r, "X-RateLimit-Limit", "%d", rate->limit);
	http_header(r, "X-RateLimit-Remaining", "%d", rate->remaining);
}

int
http_authenticate(struct app *app, const struct http_req *req, struct principal *p, struct rate *r,
    bool *counted, struct err *e)
{
	char bucket[96];

	*counted = false;
	if (auth_bearer(app->db, app->cfg, req->authorization, p, r, e) != 0) {
		if (e->code != ERR_UNAUTHENTICATED)
			return -1;
		/* No valid token: the caller's address pays, so guessing ends in 429s. */
		snprintf(bucket, sizeof bucket, "ip:%.80s", req->remote_addr ? req->remote_addr : "-");
		if (rate_hit(app->db, bucket, app->cfg->requests_per_minute, r, e) != 0)
			return -1;
		*counted = true;
		if (r->exceeded) {
			e->retry_after = r->retry_after;
			return err_set(e, ERR_RATE_LIMITED, NULL);
		}
		return err_set(e, ERR_UNAUTHENTICATED, NULL);
	}
	*counted = true;
	/* last_used_at: once per token per minute is precise enough and cheap. */
	if (r->remaining == r->limit - 1 && token_touch(app->db, p->token_id) < 0)
		log_warn("token last-use update failed: %s", db_error(app->db));
	return 0;
}

bool
http_is_json(const char *ct)
{
	size_t n = strlen("application/json");

	if (ct == NULL || strncasecmp(ct, "application/json", n) != 0)
		return false;
	return ct[n] == '\0' || ct[n] == ';' || ct[n] == ' ';
}

/* Percent-decode s[0..n) into a new string; NULL when malformed. */
static char *
url_decode(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '+')
			*o++ = ' ';
		else if (s[i] == '%') {
			int hi, lo;
			if (i + 2 >= n) {
				free(out);
				return NULL;
			}
			hi = hex_value(s[i + 1]);
			lo = hex_value(s[i + 2]);
			if (hi < 0 || lo < 0) {
				free(out);
				return NULL;
			}
			*o++ = (char)(hi * 16 + lo);
			i += 2;
		} else
			*o++ = s[i];
	}
	*o = '\0';
	if (!utf8_valid(out, (size_t)(o - out))) {
		free(out);
		return NULL;
	}
	return out;
}

int
http_parse_query(const char *q, json_object **out)
{
	int count = 0;

	*out = json_object_new_object();
	while (q != NULL && *q) {
		size_t n = strcspn(q, "&");
		const char *eq = memchr(q, '=', n);
		char *key, *val;

		/* at most 32 pairs, each as long as the URI allows (HTTP_MAX_URI): a
		 * q of 100 4-byte characters is 1,200 bytes percent-encoded */
		if (n > 0) {
			if (++count > 32)
				goto bad;
			key = url_decode(q, eq ? (size_t)(eq - q) : n);
			val = eq ? url_decode(eq + 1, n - (size_t)(eq - q) - 1) : xstrdup("");
			if (key == NULL || val == NULL) {
				free(key);
				free(val);
				goto bad;
			}
			json_object_object_add(*out, key, json_object_new_string(val));
			free(key);
			free(val);
		}
		q += n;
		if (*q == '&')
			q++;
	}
	return 0;
bad:
	json_object_put(*out);
	*out = NULL;
	return -1;
}

void
http_handle(struct app *app, struct http_req *req, struct http_resp *resp)
{
	struct err e;

	err_clear(&e);
	if (req->refused != ERR_NONE)
		http_error(resp, req, (err_set(&e, req->refused, NULL), &e));
	else if (strcmp(req->path, "/mcp") == 0)
		mcp_handle(app, req, resp);
	else if (strncmp(req->path, "/api/v1/", 8) == 0 || strcmp(req->path, "/api/v1") == 0)
		rest_handle(app, req, resp);
	else
		http_error(resp, req, (err_set(&e, ERR_NOT_FOUND, NULL), &e));
	http_header(resp, "X-Content-Type-Options", "nosniff");
	http_header(resp, "Cache-Control", "no-store");
}

void
http_resp_free(struct http_resp *r)
{
	json_object_put(r->json);
	memset(r, 0, sizeof *r);
}
