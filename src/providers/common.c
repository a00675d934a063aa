#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <strings.h>

#include "core/jsonx.h"
#include "core/scrub.h"
#include "core/log.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "providers/common.h"
#include "providers/urlguard.h"

/* ---- provider.h ---- */

static void
set_err(struct prov_error *err, enum prov_status st, const char *fmt, va_list ap)
{
	if (err == NULL)
		return;
	err->status = st;
	err->retry_after = 0;
	vsnprintf(err->message, sizeof err->message, fmt, ap);
}

enum prov_status
prov_fail(struct prov_error *err, enum prov_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_err(err, st, fmt, ap);
	va_end(ap);
	return st;
}

static int
base_url_set(struct prov_session *s, const char *url, struct prov_error *err)
{
	size_t n = strlen(url);

	while (n > 0 && url[n - 1] == '/')
		n--;
	if (n == 0 || n >= sizeof s->base_url) {
		prov_fail(err, PROV_FATAL, "the %s base URL is empty or too long", s->def->id);
		return -1;
	}
	memcpy(s->base_url, url, n);
	s->base_url[n] = '\0';
	return 0;
}

int
prov_session_init(struct prov_session *s, const struct provider_def *def, const struct config *cfg,
    json_object *creds, struct prov_error *err)
{
	char section[64], why[160];
	const char *v;
	int64_t t;

	memset(s, 0, sizeof *s);
	s->def = def;
	s->cfg = cfg;
	s->creds = creds;
	s->timeout_s = PROV_DEFAULT_TIMEOUT;
	snprintf(section, sizeof section, "provider.%s", def->id);

	if ((v = config_get(cfg, section, "timeout")) != NULL) {
		if (parse_i64(v, 1, 600, &t) == 0)
			s->timeout_s = (long)t;
		else
			log_warn("[%s] timeout must be 1 to 600 seconds; using %d", section,
			    PROV_DEFAULT_TIMEOUT);
	}

	if ((v = config_get(cfg, section, "base_url")) != NULL && *v != '\0') {
		/* The admin's setting: trusted, but it must be an http(s) URL. */
		if (urlguard_check_url(v, true, why, sizeof why) != 0) {
			prov_fail(err, PROV_FATAL, "[%s] base_url is not usable: %s", section, why);
			return -1;
		}
		return base_url_set(s, v, err);
	}
	if (def->url_field != NULL && (v = prov_cred(s, def->url_field)) != NULL) {
		if (urlguard_check_url(v, cfg->allow_http_urls, why, sizeof why) != 0) {
			prov_fail(err, PROV_FATAL, "The %s URL is not allowed: %s", def->url_field, why);
			return -1;
		}
		s->base_url_untrusted = true;
		return base_url_set(s, v, err);
	}
	if (def->default_base_url == NULL) {
		prov_fail(err, PROV_FATAL, "the %s provider needs the %s credential field", def->id,
		    def->url_field != NULL ? def->url_field : "url");
		return -1;
	}
	return base_url_set(s, def->default_base_url, err);
}

struct prov_item *
prov_page_add(struct prov_page *p, const char *type, const char *external_id, json_object *raw,
    json_object *norm)
{
	struct prov_item *it;

	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->items = xrealloc(p->items, p->cap * sizeof *p->items);
	}
	it = &p->items[p->n++];
	memset(it, 0, sizeof *it);
	snprintf(it->resource_type, sizeof it->resource_type, "%s", type);
	snprintf(it->external_id, sizeof it->external_id, "%s", external_id);
	it->raw = raw;
	it->norm = norm;
	return it;
}

void
prov_page_warn(struct prov_page *p, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (p->nwarnings > PROV_MAX_WARNINGS)
		return;
	if (p->nwarnings == PROV_MAX_WARNINGS)
		s = xstrdup("further warnings for this page were left out");
	else {
		va_start(ap, fmt);
		if (vasprintf(&s, fmt, ap) < 0)
			s = NULL;
		va_end(ap);
		if (s == NULL)
			return;
	}
	p->warnings = xrealloc(p->warnings, (p->nwarnings + 1) * sizeof *p->warnings);
	p->warnings[p->nwarnings++] = s;
}

void
prov_page_free(struct prov_page *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->n; i++) {
		json_object_put(p->items[i].raw);
		json_object_put(p->items[i].norm);
	}
	free(p->items);
	free(p->next_cursor);
	for (size_t i = 0; i < p->nwarnings; i++)
		free(p->warnings[i]);
	free(p->warnings);
	memset(p, 0, sizeof *p);
}

/* ---- reading provider JSON ---- */

json_object *
prov_get(json_object *o, const char *key)
{
	json_object *v;

	if (o == NULL || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v; /* NULL for JSON null */
}

json_object *
prov_get_array(json_object *o, const char *key)
{
	json_object *v = prov_get(o, key);

	return json_object_is_type(v, json_type_array) ? v : NULL;
}

json_object *
prov_get_object(json_object *o, const char *key)
{
	json_object *v = prov_get(o, key);

	return json_object_is_type(v, json_type_object) ? v : NULL;
}

bool
prov_json_int(json_object *v, int64_t *out)
{
	double d;
	int64_t n;

	if (v == NULL)
		return false;
	switch (json_object_get_type(v)) {
	case json_type_int:
		n = json_object_get_int64(v);
		if (n == INT64_MIN || n == INT64_MAX)
			return false; /* either may be a saturated bigger number */
		*out = n;
		return true;
	case json_type_double:
		d = json_object_get_double(v);
		if (!isfinite(d) || d != floor(d) || d > 9.0e15 || d < -9.0e15)
			return false;
		*out = (int64_t)d;
		return true;
	case json_type_string:
		return parse_i64(json_object_get_string(v), INT64_MIN + 1, INT64_MAX - 1, out) == 0;
	default:
		return false;
	}
}

bool
prov_get_int(json_object *o, const char *key, int64_t *out)
{
	return prov_json_int(prov_get(o, key), out);
}

bool
prov_json_int_in(json_object *v, int64_t min, int64_t max, int64_t *out)
{
	int64_t n;

	if (!prov_json_int(v, &n) || n < min || n > max)
		return false;
	*out = n;
	return true;
}

bool
prov_get_int_in(json_object *o, const char *key, int64_t min, int64_t max, int64_t *out)
{
	return prov_json_int_in(prov_get(o, key), min, max, out);
}

int64_t
prov_int_or(json_object *o, const char *key, int64_t dflt)
{
	int64_t v;

	return prov_get_int(o, key, &v) ? v : dflt;
}

int64_t
prov_int_in_or(json_object *o, const char *key, int64_t min, int64_t max, int64_t dflt)
{
	int64_t v;

	return prov_get_int_in(o, key, min, max, &v) ? v : dflt;
}

const char *
prov_get_str(json_object *o, const char *key, size_t max)
{
	json_object *v = prov_get(o, key);

	if (!json_object_is_type(v, json_type_string) || (size_t)json_object_get_string_len(v) > max)
		return NULL;
	return json_object_get_string(v);
}

const char *
prov_get_text(json_object *o, const char *key, size_t max)
{
	const char *s = prov_get_str(o, key, max);

	if (s == NULL)
		return NULL;
	for (const char *p = s; *p; p++)
		if (!isspace((unsigned char)*p))
			return s;
	return NULL;
}

bool
prov_get_bool(json_object *o, const char *key, bool dflt)
{
	json_object *v = prov_get(o, key);
	bool b;

	switch (json_object_get_type(v)) {
	case json_type_boolean:
		return json_object_get_boolean(v);
	case json_type_int:
		if (json_object_get_int64(v) == 0 || json_object_get_int64(v) == 1)
			return json_object_get_int64(v) == 1;
		return dflt;
	case json_type_string:
		return parse_bool(json_object_get_string(v), &b) == 0 ? b : dflt;
	default:
		return dflt;
	}
}

int
prov_json_id(json_object *v, char *buf, size_t size)
{
	const char *s;
	int64_t n;
	size_t len;

	if (v == NULL || size == 0)
		return -1;
	if (json_object_is_type(v, json_type_string)) {
		s = json_object_get_string(v);
		len = (size_t)json_object_get_string_len(v);
		if (len == 0 || len >= size || strlen(s) != len)
			return -1;
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
				return -1;
		memcpy(buf, s, len + 1);
		return 0;
	}
	if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) {
		if (!prov_json_int(v, &n) || snprintf(buf, size, "%lld", (long long)n) >= (int)size)
			return -1;
		return 0;
	}
	return -1;
}

int
prov_get_id(json_object *o, const char *key, char *buf, size_t size)
{
	return prov_json_id(prov_get(o, key), buf, size);
}

json_object *
prov_id_list(json_object *arr, const char *subkey)
{
	json_object *out = json_object_new_array();
	char id[192];

	if (!json_object_is_type(arr, json_type_array))
		return out;
	for (size_t i = 0; i < json_object_array_length(arr) && i < PROV_MAX_ITEMS; i++) {
		json_object *e = json_object_array_get_idx(arr, i);

		if (subkey != NULL && json_object_is_type(e, json_type_object))
			e = prov_get(e, subkey);
		if (prov_json_id(e, id, sizeof id) == 0)
			json_object_array_add(out, json_object_new_string(id));
	}
	return out;
}

/* ---- normalized objects ---- */

static json_object *
ids_or_empty(json_object *ids)
{
	return ids != NULL ? ids : json_object_new_array();
}

static void
add_tri(json_object *o, const char *key, enum prov_tri v)
{
	if (v == PROV_UNSET)
		json_object_object_add(o, key, NULL);
	else
		jx_add_bool(o, key, v == PROV_YES);
}

/* A positive number, else null. */
static void
add_pos(json_object *o, const char *key, int64_t v)
{
	if (v > 0)
		jx_add_int(o, key, v);
	else
		json_object_object_add(o, key, NULL);
}

json_object *
prov_norm_monitor(const struct prov_monitor *m)
{
	json_object *o = json_object_new_object();

	jx_add_str(o, "name", m->name);
	jx_add_str(o, "url", m->url);
	jx_add_str(o, "type", m->type != NULL ? m->type : "other");
	jx_add_int(o, "interval", m->interval);
	jx_add_bool(o, "paused", m->paused);
	if (m->port >= 0)
		jx_add_int(o, "port", m->port);
	else
		json_object_object_add(o, "port", NULL);
	jx_add_str(o, "keyword", m->keyword);
	jx_add_str(o, "keyword_up_when",
	    m->keyword == NULL             ? NULL :
	        m->keyword_up_when != NULL ? m->keyword_up_when :
	                                     "present");
	add_tri(o, "keyword_case_sensitive", m->keyword_case_sensitive);
	jx_add_str(o, "http_method", m->http_method);
	jx_add_str(o, "request_body", m->request_body);
	json_object_object_add(o, "request_headers",
	    m->request_headers != NULL ? m->request_headers : json_object_new_object());
	json_object_object_add(o, "expected_status_codes", ids_or_empty(m->expected_status_codes));
	json_object_object_add(o, "alert_status_codes", ids_or_empty(m->alert_status_codes));
	add_pos(o, "timeout", m->timeout);
	add_tri(o, "follow_redirects", m->follow_redirects);
	add_tri(o, "verify_ssl", m->verify_ssl);
	add_pos(o, "ssl_expiry_days", m->ssl_expiry_days);
	json_object_object_add(o, "regions", ids_or_empty(m->regions));
	json_object_object_add(o, "tags", ids_or_empty(m->tags));
	json_object_object_add(o, "contact_ids", ids_or_empty(m->contact_ids));
	return o;
}

json_object *
prov_norm_heartbeat(const struct prov_heartbeat *h)
{
	json_object *o = json_object_new_object();

	jx_add_str(o, "name", h->name);
	jx_add_int(o, "interval", h->interval);
	jx_add_int(o, "grace", h->grace);
	jx_add_bool(o, "paused", h->paused);
	jx_add_str(o, "ping_url", h->ping_url);
	jx_add_str(o, "schedule", h->schedule);
	jx_add_str(o, "timezone", h->timezone);
	json_object_object_add(o, "tags", ids_or_empty(h->tags));
	json_object_object_add(o, "contact_ids", ids_or_empty(h->contact_ids));
	return o;
}

json_object *
prov_norm_contact(const struct prov_contact *c)
{
	json_object *o = json_object_new_object();

	jx_add_str(o, "name", c->name);
	jx_add_str(o, "type", c->type != NULL ? c->type : "other");
	jx_add_str(o, "value", c->value);
	jx_add_bool(o, "needs_address", c->needs_address);
	return o;
}

static void
sp_entry(json_object *items, const char *key, const char *id, const char *name, const char *section)
{
	json_object *it = json_object_new_object();

	jx_add_str(it, key, id);
	jx_add_str(it, "name", name);
	jx_add_str(it, "section", section);
	json_object_array_add(items, it);
}

void
prov_sp_item(json_object *items, const char *monitor_id, const char *name, const char *section)
{
	sp_entry(items, "monitor_id", monitor_id, name, section);
}

void
prov_sp_heartbeat(json_object *items, const char *heartbeat_id, const char *name, const char *section)
{
	sp_entry(items, "heartbeat_id", heartbeat_id, name, section);
}

json_object *
prov_norm_status_page(const struct prov_status_page *p)
{
	json_object *o = json_object_new_object(), *items = ids_or_empty(p->items);
	size_t n = p->monitor_ids != NULL ? json_object_array_length(p->monitor_ids) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *id = json_object_array_get_idx(p->monitor_ids, i);
		if (json_object_is_type(id, json_type_string))
			prov_sp_item(items, json_object_get_string(id), NULL, NULL);
	}
	json_object_put(p->monitor_ids);
	jx_add_str(o, "name", p->name);
	jx_add_str(o, "url", p->url);
	jx_add_str(o, "timezone", p->timezone);
	jx_add_bool(o, "public", p->public_);
	json_object_object_add(o, "items", items);
	return o;
}

json_object *
prov_norm_maintenance_window(const struct prov_maintenance_window *w)
{
	json_object *o = json_object_new_object();

	jx_add_str(o, "name", w->name);
	jx_add_str(o, "recurrence", w->recurrence != NULL ? w->recurrence : "other");
	jx_add_str(o, "start", w->start);
	jx_add_str(o, "end", w->end);
	add_pos(o, "duration", w->duration);
	json_object_object_add(o, "days", ids_or_empty(w->days));
	jx_add_str(o, "timezone", w->timezone);
	jx_add_bool(o, "paused", w->paused);
	json_object_object_add(o, "monitor_ids", ids_or_empty(w->monitor_ids));
	json_object_object_add(o, "heartbeat_ids", ids_or_empty(w->heartbeat_ids));
	return o;
}

json_object *
prov_norm_subscriber(const struct prov_subscriber *s)
{
	json_object *o = json_object_new_object();

	jx_add_str(o, "status_page_id", s->status_page_id);
	jx_add_str(o, "kind", s->kind != NULL ? s->kind : "other");
	jx_add_str(o, "address", s->address);
	jx_add_str(o, "state", s->state);
	jx_add_str(o, "created", s->created);
	json_object_object_add(o, "components", ids_or_empty(s->components));
	return o;
}

/* A string member of a normalized struct, written under its own name. */
struct str_member {
	const char *key;
	size_t off;
};
#define STR_MEMBER(type, m) \
	{ \
#m, offsetof(struct type, m) \
	}

/* A new object holding the n string members of obj that f names, in order. */
static json_object *
str_members(const void *obj, const struct str_member *f, size_t n)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < n; i++)
		jx_add_str(o, f[i].key, *(const char *const *)(const void *)((const char *)obj + f[i].off));
	return o;
}

/* clang-format off */
#define C(m) STR_MEMBER(prov_hosting_client, m)
static const struct str_member client_members[] = {
	C(email), C(first_name), C(last_name), C(company), C(status), C(created), C(address1),
	C(address2), C(city), C(state), C(postcode), C(country), C(phone), C(currency), C(credit),
};
#undef C
#define C(m) STR_MEMBER(prov_hosting_contact, m)
static const struct str_member contact_members[] = {
	C(client_id), C(first_name), C(last_name), C(company), C(email), C(phone), C(address1),
	C(address2), C(city), C(state), C(postcode), C(country),
};
#undef C
#define C(m) STR_MEMBER(prov_hosting_service, m)
static const struct str_member service_members[] = {
	C(client_id), C(product), C(domain), C(status), C(billing_cycle), C(amount), C(next_due),
	C(first_amount), C(registered), C(currency),
};
#undef C
#define C(m) STR_MEMBER(prov_hosting_addon, m)
static const struct str_member addon_members[] = {
	C(client_id), C(service_id), C(name), C(status), C(billing_cycle), C(amount), C(setup_fee),
	C(next_due), C(registered), C(currency),
};
#undef C
#define C(m) STR_MEMBER(prov_hosting_domain, m)
static const struct str_member domain_members[] = {
	C(client_id), C(domain), C(registrar), C(status), C(expiry), C(next_due), C(amount),
	C(registered), C(currency),
};
#undef C
#define C(m) STR_MEMBER(prov_invoice, m)
static const struct str_member invoice_members[] = {
	C(client_id), C(number), C(date), C(due), C(paid_at), C(total), C(currency), C(status),
	C(subtotal), C(tax), C(tax2), C(credit), C(balance), C(payment_method),
};
#undef C
#define C(m) STR_MEMBER(prov_payment, m)
static const struct str_member payment_members[] = {
	C(client_id), C(invoice_id), C(date), C(gateway), C(transaction_id), C(description),
	C(amount_in), C(fees), C(amount_out), C(currency),
};
#undef C
/* clang-format on */
#define STR_MEMBERS(obj, table) str_members(obj, table, sizeof table / sizeof table[0])

json_object *
prov_norm_hosting_client(const struct prov_hosting_client *c)
{
	return STR_MEMBERS(c, client_members);
}

json_object *
prov_norm_hosting_contact(const struct prov_hosting_contact *c)
{
	return STR_MEMBERS(c, contact_members);
}

json_object *
prov_norm_hosting_service(const struct prov_hosting_service *v)
{
	return STR_MEMBERS(v, service_members);
}

json_object *
prov_norm_hosting_addon(const struct prov_hosting_addon *a)
{
	return STR_MEMBERS(a, addon_members);
}

json_object *
prov_norm_hosting_domain(const struct prov_hosting_domain *d)
{
	json_object *o = STR_MEMBERS(d, domain_members);

	add_pos(o, "period", d->period);
	add_tri(o, "auto_renew", d->auto_renew);
	return o;
}

json_object *
prov_invoice_line(const char *description, const char *amount, const char *type, const char *relid,
    bool taxed)
{
	json_object *o = json_object_new_object();

	jx_add_str(o, "description", description);
	jx_add_str(o, "amount", amount);
	jx_add_str(o, "type", type);
	jx_add_str(o, "relid", relid);
	jx_add_bool(o, "taxed", taxed);
	return o;
}

json_object *
prov_norm_invoice(const struct prov_invoice *i)
{
	json_object *o = STR_MEMBERS(i, invoice_members);

	json_object_object_add(o, "lines", ids_or_empty(i->lines));
	return o;
}

json_object *
prov_norm_payment(const struct prov_payment *p)
{
	return STR_MEMBERS(p, payment_members);
}

json_object *
prov_str_list(json_object *v, char sep)
{
	json_object *out;

	if (json_object_is_type(v, json_type_array)) {
		size_t n = json_object_array_length(v);
		out = json_object_new_array();
		for (size_t i = 0; i < n && i < PROV_MAX_ITEMS; i++) {
			json_object *e = json_object_array_get_idx(v, i);
			const char *s =
			    json_object_is_type(e, json_type_string) ? json_object_get_string(e) : NULL;
			char num[24];
			int64_t x;
			if (s == NULL && prov_json_int(e, &x)) {
				snprintf(num, sizeof num, "%lld", (long long)x);
				s = num;
			}
			if (s != NULL && *s != '\0' && strlen(s) <= PROV_MAX_STR)
				json_object_array_add(out, json_object_new_string(s));
		}
		return out;
	}
	if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);
		out = json_object_new_array();
		while (*s != '\0') {
			const char *e = strchr(s, sep);
			size_t len = e != NULL ? (size_t)(e - s) : strlen(s);
			while (len > 0 && (*s == ' ' || *s == '\t')) {
				s++;
				len--;
			}
			while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
				len--;
			if (len > 0 && len <= PROV_MAX_STR)
				json_object_array_add(out, json_object_new_string_len(s, (int)len));
			if (e == NULL)
				break;
			s = e + 1;
		}
		return out;
	}
	return NULL;
}

const char *
prov_currency(const char *s, char out[4])
{
	size_t n = 0;

	if (s == NULL)
		return NULL;
	while (*s == ' ')
		s++;
	for (; n < 3 && ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')); s++)
		out[n++] = (char)(*s & ~0x20);
	while (*s == ' ')
		s++;
	if (n != 3 || *s != '\0')
		return NULL;
	out[3] = '\0';
	return out;
}

void
prov_skip_kind(struct prov_page *page, const char *provider, const char *kind, long status)
{
	prov_page_warn(page, "%s refused the %s list for this key (HTTP %ld): %s skipped", provider, kind,
	    status, kind);
}

/* ---- cursors ---- */

int
prov_cursor_parse(const char *cursor, const char *const *phases, int64_t dflt_pos, size_t *phase,
    int64_t *pos)
{
	const char *colon;
	size_t n;

	if (cursor == NULL) {
		*phase = 0;
		*pos = dflt_pos;
		return 0;
	}
	if (strlen(cursor) > PROV_MAX_CURSOR || (colon = strchr(cursor, ':')) == NULL)
		return -1;
	n = (size_t)(colon - cursor);
	for (size_t i = 0; phases[i] != NULL; i++) {
		if (strlen(phases[i]) != n || strncmp(phases[i], cursor, n) != 0)
			continue;
		if (parse_i64(colon + 1, 0, INT32_MAX, pos) != 0)
			return -1;
		*phase = i;
		return 0;
	}
	return -1;
}

char *
prov_cursor_make(const char *phase, int64_t pos)
{
	return xasprintf("%s:%lld", phase, (long long)pos);
}

/* ---- messages ---- */

void
prov_copy_text(char *dst, size_t size, const char *src)
{
	utf8_clean(dst, size, src, SIZE_MAX);
}

/* The secrets of a session: every credential value but the user's URL and
 * the plain fields. */
static struct scrub *
session_scrub(const struct prov_session *s)
{
	struct scrub *sc = scrub_new();

	if (s == NULL || !json_object_is_type(s->creds, json_type_object))
		return sc;
	json_object_object_foreach (s->creds, key, val) {
		if (s->def != NULL &&
		    ((s->def->url_field != NULL && strcmp(key, s->def->url_field) == 0) ||
		        (s->def->plain != NULL && str_in_list(s->def->plain, key))))
			continue;
		if (json_object_is_type(val, json_type_string))
			scrub_add(sc, json_object_get_string(val));
	}
	return sc;
}

void
prov_scrub_secret(char *text, size_t size, const char *secret)
{
	struct scrub *sc = scrub_new();

	scrub_add(sc, secret);
	scrub_buf(sc, text, size);
	scrub_free(sc);
}

void
prov_scrub(const struct prov_session *s, char *text, size_t size)
{
	struct scrub *sc = session_scrub(s);

	scrub_buf(sc, text, size);
	scrub_free(sc);
}

json_object *
prov_parse_json(const struct httpc_resp *resp, const char *who, struct prov_error *err)
{
	json_object *v;
	int ok;

	v = jx_parse(resp->body != NULL ? resp->body : "", resp->len, &ok);
	if (!ok || v == NULL) {
		json_object_put(v);
		prov_fail(err, PROV_TRANSIENT,
		    "%s sent a malformed or truncated answer (HTTP %ld, %zu bytes)", who, resp->status,
		    resp->len);
		return NULL;
	}
	return v;
}

void
prov_body_message(const struct httpc_resp *resp, char *buf, size_t size)
{
	json_object *root, *e, *errs;
	const char *msg;
	int ok;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (resp->body == NULL || (root = jx_parse(resp->body, resp->len, &ok)) == NULL)
		return;
	e = prov_get_object(root, "error");
	errs = prov_get(root, "errors");
	msg = prov_get_text(e, "errormessage", 1024);
	if (msg == NULL)
		msg = prov_get_text(e, "message", 1024);
	if (msg == NULL)
		msg = prov_get_text(root, "message", 1024);
	if (msg == NULL && json_object_is_type(errs, json_type_string))
		msg = json_object_get_string(errs);
	if (msg == NULL && json_object_is_type(errs, json_type_array) && json_object_array_length(errs) > 0)
		msg = prov_get_text(json_object_array_get_idx(errs, 0), "message", 1024);
	if (msg == NULL)
		msg = prov_get_text(root, "error", 1024);
	if (msg == NULL)
		msg = prov_get_text(root, "detail", 1024);
	if (msg != NULL)
		prov_copy_text(buf, size, msg);
	json_object_put(root);
}

/* ---- session helpers ---- */

const char *
prov_cred(const struct prov_session *s, const char *field)
{
	json_object *v = prov_get(s->creds, field);

	const char *str;

	if (!json_object_is_type(v, json_type_string) || json_object_get_string_len(v) == 0)
		return NULL;
	str = json_object_get_string(v);
	/* Values go into headers and forms: no control characters. */
	for (const char *p = str; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return NULL;
	if (strlen(str) != (size_t)json_object_get_string_len(v))
		return NULL;
	return str;
}

static char *
prov_vurl(const struct prov_session *s, const char *fmt, va_list ap)
{
	char *path, *url;

	if (vasprintf(&path, fmt, ap) < 0)
		return NULL;
	url = xasprintf("%s%s", s->base_url, path);
	free(path);
	return url;
}

char *
prov_url(const struct prov_session *s, const char *fmt, ...)
{
	va_list ap;
	char *url;

	va_start(ap, fmt);
	url = prov_vurl(s, fmt, ap);
	va_end(ap);
	return url;
}

enum prov_status
prov_http(const struct prov_session *s, struct httpc_req *req, struct httpc_resp *resp,
    struct prov_error *err)
{
	struct urlguard g;

	req->timeout_s = s->timeout_s;
	req->max_redirects = HTTPC_MAX_REDIRECTS; /* providers.md §12 */
	req->guard = NULL;
	if (s->base_url_untrusted) {
		g.allow_http = s->cfg != NULL && s->cfg->allow_http_urls;
		g.allow_private = s->cfg != NULL && s->cfg->allow_private_urls;
		req->guard = &g;
	}
	if (httpc_do(req, resp, err) != 0) {
		req->guard = NULL;
		prov_scrub(s, err->message, sizeof err->message);
		return err->status != PROV_OK ? err->status : PROV_TRANSIENT;
	}
	req->guard = NULL;
	/* A provider may echo a credential anywhere in its answer: take it out
	 * of the whole body before anything reads, cuts or stores a part of it. */
	{
		struct scrub *sc = session_scrub(s);
		size_t n;
		char *clean = scrub_text(sc, resp->body, resp->len, &n);

		scrub_free(sc);
		sodium_memzero(resp->body, resp->len);
		free(resp->body);
		resp->body = clean;
		resp->len = n;
	}
	return PROV_OK;
}

enum prov_status
prov_get_into(const struct prov_session *s, const char *const *headers, const char *userpwd,
    struct httpc_resp *resp, struct prov_error *err, const char *fmt, ...)
{
	struct httpc_req req = { 0 };
	va_list ap;
	enum prov_status st;
	char *url;

	httpc_resp_free(resp);
	va_start(ap, fmt);
	url = prov_vurl(s, fmt, ap);
	va_end(ap);
	if (url == NULL)
		return prov_fail(err, PROV_TRANSIENT, "out of memory building a request URL");
	req.url = url;
	req.headers = headers;
	req.userpwd = userpwd;
	st = prov_http(s, &req, resp, err);
	free(url);
	return st;
}

enum prov_status
prov_finish(const struct prov_session *s, enum prov_status st, const struct httpc_resp *resp,
    struct prov_page *page, struct prov_error *err)
{
	if (st == PROV_OK) {
		if (resp != NULL && httpc_quota_exhausted(resp))
			page->pause_s = httpc_wait_hint(resp, time(NULL));
	} else {
		char **w = page->warnings;
		size_t nw = page->nwarnings;

		/* Keep nothing of a failed page but its warnings. */
		page->warnings = NULL;
		page->nwarnings = 0;
		prov_page_free(page);
		page->warnings = w;
		page->nwarnings = nw;
		prov_scrub(s, err->message, sizeof err->message);
	}
	if (page->nwarnings > 0) {
		struct scrub *sc = session_scrub(s);
		for (size_t i = 0; i < page->nwarnings; i++) {
			size_t n;
			char *w = scrub_text(sc, page->warnings[i], strlen(page->warnings[i]), &n);
			free(page->warnings[i]);
			page->warnings[i] = w;
		}
		scrub_free(sc);
	}
	return st;
}

/* One request of a fetch: GET url with header, or POST form (urlencoded) when
 * form is given; parse; prov_finish. Owns url, header and form, and wipes the
 * two that may carry a secret. */
static enum prov_status
fetch_one(const struct prov_session *s, const char *cursor, char *url, char *header, char *form,
    prov_parse_fn parse, struct prov_page *page, struct prov_error *err)
{
	struct httpc_req req = { 0 };
	struct httpc_resp resp = { 0 };
	const char *headers[2] = { header, NULL };
	enum prov_status st;

	req.url = url;
	req.headers = headers;
	if (form != NULL) {
		req.method = "POST";
		req.body = form;
		req.body_len = strlen(form);
		req.content_type = "application/x-www-form-urlencoded";
	}
	st = prov_http(s, &req, &resp, err);
	if (st == PROV_OK)
		st = parse(cursor, &resp, page, err);
	st = prov_finish(s, st, &resp, page, err);
	httpc_resp_free(&resp);
	free(url);
	if (header != NULL) {
		sodium_memzero(header, strlen(header));
		free(header);
	}
	if (form != NULL) {
		sodium_memzero(form, strlen(form));
		free(form);
	}
	return st;
}

enum prov_status
prov_fetch_get(const struct prov_session *s, const char *cursor, char *url, char *header, prov_parse_fn parse,
    struct prov_page *page, struct prov_error *err)
{
	return fetch_one(s, cursor, url, header, NULL, parse, page, err);
}

enum prov_status
prov_fetch_form(const struct prov_session *s, const char *cursor, char *url, char *form, prov_parse_fn parse,
    struct prov_page *page, struct prov_error *err)
{
	return fetch_one(s, cursor, url, NULL, form, parse, page, err);
}
