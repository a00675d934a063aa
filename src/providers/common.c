#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
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
	utf8_vformat(err->message, sizeof err->message, fmt, ap);
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

enum prov_status
prov_bad_checkpoint(struct prov_error *err, const char *who)
{
	return prov_fail(err, PROV_FATAL, "cannot resume %s discovery: bad checkpoint", who);
}

enum prov_status
prov_no_cred(struct prov_error *err, const char *who, const char *fields)
{
	return prov_fail(err, PROV_AUTH, "the %s credentials have no usable %s", who, fields);
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
	s->pace.interval_ms = def->min_interval_ms;
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
	utf8_copy(it->external_id, sizeof it->external_id, external_id);
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
prov_get_int_in(json_object *o, const char *key, int64_t min, int64_t max, int64_t *out)
{
	int64_t n;

	if (!prov_json_int(prov_get(o, key), &n) || n < min || n > max)
		return false;
	*out = n;
	return true;
}

bool
prov_get_time(json_object *o, const char *key, unsigned forms, const struct tz *zone, int64_t *out)
{
	json_object *v = prov_get(o, key);
	int64_t n;

	if (json_object_is_type(v, json_type_string))
		return time_parse(json_object_get_string(v), forms, zone, out) == 0;
	if (!(forms & TIME_EPOCH) || !prov_json_int(v, &n) || n < 0 || n > TIME_MAX)
		return false;
	*out = n;
	return true;
}

struct tz *
prov_zone_load(const char *name, struct prov_page *page, const char *what, const char *label)
{
	struct tz *z = name != NULL ? tz_load(name) : NULL;
	char shown[72];

	if (name != NULL && z == NULL) {
		prov_copy_text(shown, sizeof shown, name);
		prov_page_warn(page, "%s \"%s\" has the unknown time zone %s; its times are read in UTC",
		    what, label, shown);
	}
	return z;
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
		if (len == 0 || len >= size || has_control(s, len))
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

/* How a member of a normalized struct is written. */
enum member_kind {
	MK_STR,    /* const char *; NULL: null */
	MK_KIND,   /* const char *; NULL: "other" */
	MK_INT,    /* int64_t */
	MK_NONNEG, /* int64_t; < 0: null */
	MK_POS,    /* int64_t; <= 0: null */
	MK_BOOL,   /* bool */
	MK_TRI,    /* enum prov_tri; unset: null */
	MK_LIST,   /* json_object * array, taken over; NULL: [] */
	MK_OBJECT, /* json_object * object, taken over; NULL: {} */
};

/* A member of a normalized struct: the key it is written under, its kind and
 * where it is. */
struct member {
	const char *key;
	enum member_kind kind;
	size_t off;
};
#define MEMBER(type, m, kind) \
	{ \
#m, kind, offsetof(struct type, m) \
	}
#define MEMBER_AS(key, type, m, kind) \
	{ \
		key, kind, offsetof(struct type, m) \
	}

/* Add the n members of obj that m describes to o, in order. */
static void
add_members(json_object *o, const void *obj, const struct member *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const void *at = (const char *)obj + m[i].off;
		const char *str = NULL;
		int64_t num = 0;
		json_object *v = NULL;

		if (m[i].kind == MK_STR || m[i].kind == MK_KIND)
			str = *(const char *const *)at;
		else if (m[i].kind == MK_INT || m[i].kind == MK_NONNEG || m[i].kind == MK_POS)
			num = *(const int64_t *)at;
		else if (m[i].kind == MK_LIST || m[i].kind == MK_OBJECT)
			v = *(json_object *const *)at;
		switch (m[i].kind) {
		case MK_STR:
			jx_add_str(o, m[i].key, str);
			break;
		case MK_KIND:
			jx_add_str(o, m[i].key, str != NULL ? str : "other");
			break;
		case MK_INT:
			jx_add_int(o, m[i].key, num);
			break;
		case MK_NONNEG:
		case MK_POS:
			if (num > 0 || (num == 0 && m[i].kind == MK_NONNEG))
				jx_add_int(o, m[i].key, num);
			else
				json_object_object_add(o, m[i].key, NULL);
			break;
		case MK_BOOL:
			jx_add_bool(o, m[i].key, *(const bool *)at);
			break;
		case MK_TRI:
			if (*(const enum prov_tri *)at == PROV_UNSET)
				json_object_object_add(o, m[i].key, NULL);
			else
				jx_add_bool(o, m[i].key, *(const enum prov_tri *)at == PROV_YES);
			break;
		case MK_LIST:
			json_object_object_add(o, m[i].key, v != NULL ? v : json_object_new_array());
			break;
		case MK_OBJECT:
			json_object_object_add(o, m[i].key, v != NULL ? v : json_object_new_object());
			break;
		}
	}
}

/* A new object of the members of obj that table describes. */
#define MEMBERS(obj, table) members_new(obj, table, sizeof table / sizeof table[0])

static json_object *
members_new(const void *obj, const struct member *m, size_t n)
{
	json_object *o = json_object_new_object();

	add_members(o, obj, m, n);
	return o;
}

/* clang-format off */
#define M(m, kind) MEMBER(prov_monitor, m, kind)
static const struct member monitor_members[] = {
	M(name, MK_STR), M(url, MK_STR), M(type, MK_KIND), M(interval, MK_INT), M(paused, MK_BOOL),
	M(port, MK_NONNEG), M(keyword, MK_STR), M(keyword_up_when, MK_STR),
	M(keyword_case_sensitive, MK_TRI), M(http_method, MK_STR), M(request_body, MK_STR),
	M(request_headers, MK_OBJECT), M(expected_status_codes, MK_LIST), M(alert_status_codes, MK_LIST),
	M(timeout, MK_POS), M(follow_redirects, MK_TRI), M(verify_ssl, MK_TRI), M(ssl_expiry_days, MK_POS),
	M(regions, MK_LIST), M(tags, MK_LIST), M(contact_ids, MK_LIST), M(alert_after_checks, MK_POS),
	M(alert_after_s, MK_POS), M(recovery_s, MK_POS), M(realert_s, MK_POS), M(muted_until, MK_STR),
	M(contact_timing, MK_OBJECT), M(dns_record_type, MK_STR), M(dns_expected, MK_LIST),
	M(dns_nameserver, MK_STR), M(assertions, MK_LIST), M(auth_username, MK_STR), M(auth_password, MK_STR),
};
#undef M
#define M(m, kind) MEMBER(prov_heartbeat, m, kind)
static const struct member heartbeat_members[] = {
	M(name, MK_STR), M(interval, MK_INT), M(grace, MK_INT), M(paused, MK_BOOL), M(ping_url, MK_STR),
	M(schedule, MK_STR), M(timezone, MK_STR), M(tags, MK_LIST), M(contact_ids, MK_LIST),
	M(realert_s, MK_POS), M(contact_timing, MK_OBJECT),
};
#undef M
#define M(m, kind) MEMBER(prov_contact, m, kind)
static const struct member contact_members[] = {
	M(name, MK_STR), M(type, MK_KIND), M(value, MK_STR), M(needs_address, MK_BOOL),
};
#undef M
#define M(m, kind) MEMBER(prov_status_page, m, kind)
static const struct member status_page_members[] = {
	M(name, MK_STR), M(url, MK_STR), M(timezone, MK_STR),
	MEMBER_AS("public", prov_status_page, public_, MK_BOOL), M(all_monitors, MK_BOOL),
};
#undef M
#define M(m, kind) MEMBER(prov_maintenance_window, m, kind)
static const struct member window_members[] = {
	M(name, MK_STR), M(recurrence, MK_KIND), M(start, MK_STR), M(end, MK_STR), M(duration, MK_POS),
	M(days, MK_LIST), M(timezone, MK_STR), M(paused, MK_BOOL), M(monitor_ids, MK_LIST),
	M(heartbeat_ids, MK_LIST),
};
#undef M
#define M(m, kind) MEMBER(prov_subscriber, m, kind)
static const struct member subscriber_members[] = {
	M(status_page_id, MK_STR), M(kind, MK_KIND), M(address, MK_STR), M(state, MK_STR),
	M(created, MK_STR), M(components, MK_LIST),
};
#undef M
#define S(m) MEMBER(prov_hosting_client, m, MK_STR)
static const struct member hosting_client_members[] = {
	S(email), S(first_name), S(last_name), S(company), S(status), S(created), S(address1),
	S(address2), S(city), S(state), S(postcode), S(country), S(phone), S(currency), S(credit),
};
#undef S
#define S(m) MEMBER(prov_hosting_contact, m, MK_STR)
static const struct member hosting_contact_members[] = {
	S(client_id), S(first_name), S(last_name), S(company), S(email), S(phone), S(address1),
	S(address2), S(city), S(state), S(postcode), S(country),
};
#undef S
#define S(m) MEMBER(prov_hosting_service, m, MK_STR)
static const struct member hosting_service_members[] = {
	S(client_id), S(product), S(domain), S(status), S(billing_cycle), S(amount), S(next_due),
	S(first_amount), S(registered), S(currency),
};
#undef S
#define S(m) MEMBER(prov_hosting_addon, m, MK_STR)
static const struct member hosting_addon_members[] = {
	S(client_id), S(service_id), S(name), S(status), S(billing_cycle), S(amount), S(setup_fee),
	S(next_due), S(registered), S(currency),
};
#undef S
#define S(m) MEMBER(prov_hosting_domain, m, MK_STR)
static const struct member hosting_domain_members[] = {
	S(client_id), S(domain), S(registrar), S(status), S(expiry), S(next_due), S(amount),
	S(registered), S(currency), MEMBER(prov_hosting_domain, period, MK_POS),
	MEMBER(prov_hosting_domain, auto_renew, MK_TRI),
};
#undef S
#define S(m) MEMBER(prov_invoice, m, MK_STR)
static const struct member invoice_members[] = {
	S(client_id), S(number), S(date), S(due), S(paid_at), S(total), S(currency), S(status),
	S(subtotal), S(tax), S(tax2), S(credit), S(balance), S(payment_method),
	MEMBER(prov_invoice, lines, MK_LIST),
};
#undef S
#define S(m) MEMBER(prov_payment, m, MK_STR)
static const struct member payment_members[] = {
	S(client_id), S(invoice_id), S(date), S(gateway), S(transaction_id), S(description),
	S(amount_in), S(fees), S(amount_out), S(currency),
};
#undef S
/* clang-format on */

json_object *
prov_norm_monitor(const struct prov_monitor *m)
{
	struct prov_monitor w = *m;

	/* A keyword check is up while the keyword is present unless it says. */
	w.keyword_up_when = m->keyword == NULL ? NULL :
	    m->keyword_up_when != NULL         ? m->keyword_up_when :
	                                         "present";
	return MEMBERS(&w, monitor_members);
}

const char *const prov_contact_keys[] = { "contact_ids", NULL };
const char *const prov_seal_keys[] = { "auth_password", NULL };

static void
add_pos(json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, v > 0 ? json_object_new_int64(v) : NULL);
}

void
prov_contact_timing(json_object **timing, const char *contact_id, int64_t delay_s, int64_t repeat_s)
{
	json_object *t;

	if (delay_s <= 0 && repeat_s <= 0)
		return;
	if (*timing == NULL)
		*timing = json_object_new_object();
	t = json_object_new_object();
	add_pos(t, "delay_s", delay_s);
	add_pos(t, "repeat_s", repeat_s);
	json_object_object_add(*timing, contact_id, t);
}

json_object *
prov_assertion(const char *source, const char *property, const char *comparison, const char *target)
{
	json_object *a = json_object_new_object();

	jx_add_str(a, "source", source);
	jx_add_str(a, "property", property);
	jx_add_str(a, "comparison", comparison);
	jx_add_str(a, "target", target);
	return a;
}

json_object *
prov_dns_ips(json_object *v, const char **record_type, size_t *bad)
{
	json_object *list = prov_str_list(v, ','), *out = json_object_new_array();
	size_t n = list != NULL ? json_object_array_length(list) : 0, v4 = 0, v6 = 0;
	unsigned char addr[16];

	*bad = 0;
	for (size_t i = 0; i < n && v4 + v6 < 100; i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(list, i));

		if (strlen(s) < 46 && inet_pton(AF_INET, s, addr) == 1)
			v4++;
		else if (strlen(s) < 46 && inet_pton(AF_INET6, s, addr) == 1)
			v6++;
		else {
			(*bad)++;
			continue;
		}
		json_object_array_add(out, json_object_new_string(s));
	}
	json_object_put(list);
	*record_type = v6 == 0 && v4 > 0 ? "A" : v4 == 0 && v6 > 0 ? "AAAA" : NULL;
	if (v4 + v6 == 0) {
		json_object_put(out);
		return NULL;
	}
	return out;
}

void
prov_unread(json_object *norm, const char *why, const char *const *keys)
{
	json_object *u = prov_get_object(norm, "unread"), *list;
	const char *was;
	char text[256];

	if (u == NULL) {
		u = json_object_new_object();
		json_object_object_add(u, "keys", json_object_new_array());
		json_object_object_add(u, "why", json_object_new_string(""));
		json_object_object_add(norm, "unread", u);
	}
	list = prov_get_array(u, "keys");
	for (size_t i = 0; keys[i] != NULL; i++) {
		bool have = false;
		for (size_t k = 0; k < json_object_array_length(list) && !have; k++)
			have =
			    strcmp(json_object_get_string(json_object_array_get_idx(list, k)), keys[i]) == 0;
		if (!have)
			json_object_array_add(list, json_object_new_string(keys[i]));
	}
	was = prov_get_str(u, "why", PROV_MAX_STR);
	if (was == NULL || was[0] == '\0')
		utf8_copy(text, sizeof text, why);
	else if (strstr(was, why) == NULL)
		utf8_format(text, sizeof text, "%s; %s", was, why);
	else
		return;
	json_object_object_add(u, "why", json_object_new_string(text));
}

json_object *
prov_norm_heartbeat(const struct prov_heartbeat *h)
{
	return MEMBERS(h, heartbeat_members);
}

json_object *
prov_norm_contact(const struct prov_contact *c)
{
	return MEMBERS(c, contact_members);
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

/* t as ISO 8601 UTC into o's member key, or null when t < 0 or out of range. */
static void
add_time(json_object *o, const char *key, int64_t t)
{
	char iso[21];

	jx_add_str(o, key, t >= 0 && time_format_iso(t, true, iso) == 0 ? iso : NULL);
}

json_object *
prov_sp_incident(const struct prov_sp_incident *in)
{
	json_object *o = json_object_new_object();

	jx_add_str(o, "kind", in->kind);
	jx_add_str(o, "name", in->name != NULL ? in->name : "(untitled)");
	jx_add_str(o, "status", in->status);
	jx_add_str(o, "impact", in->impact);
	add_time(o, "starts_at", in->starts_at);
	add_time(o, "ends_at", in->ends_at);
	add_time(o, "scheduled_until", in->scheduled_until);
	json_object_object_add(o, "updates", in->updates != NULL ? in->updates : json_object_new_array());
	json_object_object_add(o, "components",
	    in->components != NULL ? in->components : json_object_new_array());
	return o;
}

void
prov_sp_update(json_object *updates, int64_t at, const char *status, const char *body)
{
	json_object *u = json_object_new_object();

	add_time(u, "at", at);
	jx_add_str(u, "status", status);
	if (body != NULL)
		json_object_object_add(u, "body",
		    json_object_new_string_len(body,
		        (int)utf8_cut(body, strlen(body), PROV_SP_MAX_BODY, SIZE_MAX)));
	else
		json_object_object_add(u, "body", NULL);
	json_object_array_add(updates, u);
}

size_t
prov_sp_updates_cap(json_object *updates)
{
	size_t n = json_object_array_length(updates);

	if (n <= PROV_SP_MAX_UPDATES)
		return 0;
	json_object_array_del_idx(updates, 0, n - PROV_SP_MAX_UPDATES);
	return n - PROV_SP_MAX_UPDATES;
}

/* Newest first by starts_at (ISO 8601 UTC text, which sorts as time), null last. */
static int
incident_cmp(const void *x, const void *y)
{
	const char *a = prov_get_str(*(json_object *const *)x, "starts_at", 32);
	const char *b = prov_get_str(*(json_object *const *)y, "starts_at", 32);

	if (a == NULL || b == NULL)
		return (a == NULL) - (b == NULL);
	return -strcmp(a, b);
}

size_t
prov_sp_incidents_order(json_object *incidents)
{
	size_t n = json_object_array_length(incidents);
	json_object **v = xcalloc(n + 1, sizeof *v);

	/* a stable sort: insertion, the lists are short (PROV_SP_MAX_INCIDENTS per list read) */
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_get(json_object_array_get_idx(incidents, i));
		size_t j = i;

		for (; j > 0 && incident_cmp(&v[j - 1], &e) > 0; j--)
			v[j] = v[j - 1];
		v[j] = e;
	}
	json_object_array_del_idx(incidents, 0, n);
	for (size_t i = 0; i < n; i++) {
		if (i < PROV_SP_MAX_INCIDENTS)
			json_object_array_add(incidents, v[i]);
		else
			json_object_put(v[i]);
	}
	free(v);
	return n > PROV_SP_MAX_INCIDENTS ? n - PROV_SP_MAX_INCIDENTS : 0;
}

json_object *
prov_norm_status_page(const struct prov_status_page *p)
{
	json_object *o = MEMBERS(p, status_page_members);
	json_object *items = p->items != NULL ? p->items : json_object_new_array();
	size_t n = p->monitor_ids != NULL ? json_object_array_length(p->monitor_ids) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *id = json_object_array_get_idx(p->monitor_ids, i);
		if (json_object_is_type(id, json_type_string))
			prov_sp_item(items, json_object_get_string(id), NULL, NULL);
	}
	json_object_put(p->monitor_ids);
	json_object_object_add(o, "items", items);
	json_object_object_add(o, "incidents", p->incidents != NULL ? p->incidents : json_object_new_array());
	return o;
}

bool
prov_sp_public(struct prov_page *page, const char *who, const char *name, const char *setting,
    const char *value)
{
	char vb[40];

	if (value == NULL || strcmp(value, "public") == 0)
		return true;
	if (strcmp(value, "protected") != 0 && strcmp(value, "private") != 0) {
		prov_copy_text(vb, sizeof vb, value);
		prov_page_warn(page, "%s status page \"%s\" has an unknown %s %s; imported as not public",
		    who, name, setting, vb);
	}
	return false;
}

json_object *
prov_norm_maintenance_window(const struct prov_maintenance_window *w)
{
	return MEMBERS(w, window_members);
}

json_object *
prov_norm_subscriber(const struct prov_subscriber *s)
{
	return MEMBERS(s, subscriber_members);
}

json_object *
prov_norm_hosting_client(const struct prov_hosting_client *c)
{
	return MEMBERS(c, hosting_client_members);
}

json_object *
prov_norm_hosting_contact(const struct prov_hosting_contact *c)
{
	return MEMBERS(c, hosting_contact_members);
}

json_object *
prov_norm_hosting_service(const struct prov_hosting_service *v)
{
	return MEMBERS(v, hosting_service_members);
}

json_object *
prov_norm_hosting_addon(const struct prov_hosting_addon *a)
{
	return MEMBERS(a, hosting_addon_members);
}

json_object *
prov_norm_hosting_domain(const struct prov_hosting_domain *d)
{
	return MEMBERS(d, hosting_domain_members);
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
	return MEMBERS(i, invoice_members);
}

json_object *
prov_norm_payment(const struct prov_payment *p)
{
	return MEMBERS(p, payment_members);
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

const char *
prov_map_other(const struct prov_map *map, const char *value, struct prov_page *page, const char *what,
    const char *name, const char *field)
{
	char shown[64];

	for (size_t i = 0; value != NULL && map[i].from != NULL; i++)
		if (strcasecmp(value, map[i].from) == 0)
			return map[i].to;
	prov_copy_text(shown, sizeof shown, value ? value : "(none)");
	prov_page_warn(page, "%s \"%s\" has an unknown %s %s; kept as other", what, name, field, shown);
	return "other";
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
	/* Values go into headers and forms: no control characters (a NUL among them). */
	return has_control(str, (size_t)json_object_get_string_len(v)) ? NULL : str;
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

/* The refusal wait's ceiling: min_s doubled n times, at most cap_s, in ms. */
static int64_t
doubled_ms(int min_s, int n, int cap_s)
{
	int64_t w = (int64_t)min_s * 1000;

	for (int i = 0; i < n && w < (int64_t)cap_s * 1000; i++)
		w *= 2;
	return w < (int64_t)cap_s * 1000 ? w : (int64_t)cap_s * 1000;
}

int64_t
prov_pace_refusal(struct prov_pace *p, int hint_s, int64_t wall_ms, int min_s, int max_s)
{
	int64_t elapsed, left, wait;

	if (p->refusals == 0 || p->refused_since <= 0 || p->refused_since > wall_ms)
		p->refused_since = wall_ms;
	elapsed = wall_ms - p->refused_since;
	left = (int64_t)max_s * 1000 - elapsed;
	if (hint_s >= 0)
		wait = (int64_t)(hint_s > min_s ? hint_s : min_s) * 1000;
	else {
		wait = doubled_ms(min_s, p->refusals, PROV_BACKOFF_MAX_S);
		if (wait > left)
			wait = left; /* the last try comes when the time allowed is up */
	}
	if (p->refusals < INT_MAX)
		p->refusals++;
	if (left <= 0 || wait > left) {
		p->gave_up = true;
		return -1;
	}
	return wait;
}

int64_t
prov_session_refused(struct prov_session *s, int hint_s)
{
	int64_t w = prov_pace_refusal(&s->pace, hint_s, wall_ms(), s->cfg->provider_wait_min,
	    s->cfg->provider_wait_max);

	if (w >= 0 && mono_ms() + w > s->pace.next_ms)
		s->pace.next_ms = mono_ms() + w;
	s->pace.limited = w >= 0;
	return w;
}

int64_t
prov_session_wait_ms(const struct prov_session *s)
{
	int64_t w = s->pace.next_ms - mono_ms();

	return w > 0 ? w : 0;
}

/* After an answer that was not a refusal: a success ends the refusals in a
 * row; a quota used up (remaining 0) holds the next request until it resets. */
static void
pace_answer(struct prov_pace *p, const struct httpc_resp *resp)
{
	int hint;

	if (resp->status >= 200 && resp->status < 300) {
		p->refusals = 0;
		p->refused_since = 0;
	}
	if (httpc_quota_exhausted(resp) && (hint = httpc_wait_hint(resp, now_s())) > 0 &&
	    mono_ms() + (int64_t)hint * 1000 > p->next_ms) {
		p->next_ms = mono_ms() + (int64_t)hint * 1000;
		p->limited = true;
	}
}

/* When the next request may go at the published rate: the interval from now,
 * and a millisecond more, since mono_ms() drops the part of the one gone by
 * and a provider counts from its own answer, which came first. */
static int64_t
paced(const struct prov_pace *p)
{
	return p->interval_ms > 0 ? mono_ms() + p->interval_ms + 1 : mono_ms();
}

/* PROV_RATE_LIMITED for a request not sent: the session must wait first. */
static enum prov_status
held_back(const struct prov_session *s, struct prov_error *err)
{
	if (s->pace.gave_up)
		return prov_fail(err, PROV_RATE_LIMITED, "%s kept refusing requests for its rate limit",
		    s->def->name);
	prov_fail(err, PROV_RATE_LIMITED, "waiting for %s's rate limit", s->def->name);
	err->retry_after = (int)((prov_session_wait_ms(s) + 999) / 1000);
	return PROV_RATE_LIMITED;
}

/* One request of prov_http, guarded when the URL is the user's. 0 or -1. */
static int
http_once(const struct prov_session *s, struct httpc_req *req, struct httpc_resp *resp,
    struct prov_error *err)
{
	struct urlguard g;
	int rc;

	req->guard = NULL;
	if (s->base_url_untrusted) {
		g.allow_http = s->cfg != NULL && s->cfg->allow_http_urls;
		g.allow_private = s->cfg != NULL && s->cfg->allow_private_urls;
		req->guard = &g;
	}
	rc = httpc_do(req, resp, err);
	req->guard = NULL;
	return rc;
}

enum prov_status
prov_http(struct prov_session *s, struct httpc_req *req, struct httpc_resp *resp, struct prov_error *err)
{
	struct prov_pace *p = &s->pace;
	int64_t left;

	req->timeout_s = s->timeout_s;
	req->max_redirects = HTTPC_MAX_REDIRECTS; /* providers.md §12 */
	for (;;) {
		if (p->gave_up || (p->limited && p->next_ms > p->deadline_ms && prov_session_wait_ms(s) > 0))
			return held_back(s, err);
		while ((left = prov_session_wait_ms(s)) > 0)
			sleep_ms(left); /* a signal may end a sleep early: sleep the rest */
		p->limited = false;
		if (http_once(s, req, resp, err) != 0) {
			p->next_ms = paced(p);
			prov_scrub(s, err->message, sizeof err->message);
			return err->status != PROV_OK ? err->status : PROV_TRANSIENT;
		}
		p->next_ms = paced(p);
		if (resp->status != 429 && resp->status != 420) {
			pace_answer(p, resp);
			break;
		}
		/* A refusal: wait and ask again while the step has time for it. */
		if (prov_session_refused(s, httpc_wait_hint(resp, now_s())) < 0 ||
		    p->next_ms > p->deadline_ms)
			break;
		log_debug("%s refused a request for its rate limit (%d in a row); asking again in %lld ms",
		    s->def->name, p->refusals, (long long)prov_session_wait_ms(s));
		p->waits++;
		p->waited_ms += prov_session_wait_ms(s);
		httpc_resp_free(resp);
	}
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
prov_get_into(struct prov_session *s, const char *const *headers, const char *userpwd,
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
prov_finish(const struct prov_session *s, enum prov_status st, struct prov_page *page, struct prov_error *err)
{
	if (st != PROV_OK) {
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

enum prov_status
prov_fetch_done(const struct prov_session *s, enum prov_status st, struct httpc_resp *resp, char *secret,
    struct prov_page *page, struct prov_error *err)
{
	st = prov_finish(s, st, page, err);
	httpc_resp_free(resp);
	if (secret != NULL) {
		sodium_memzero(secret, strlen(secret));
		free(secret);
	}
	return st;
}

enum prov_status
prov_fetch_get(struct prov_session *s, const char *cursor, char *url, char *header, prov_parse_fn parse,
    struct prov_page *page, struct prov_error *err)
{
	struct httpc_req req = { 0 };
	struct httpc_resp resp = { 0 };
	const char *headers[2] = { header, NULL };
	enum prov_status st;

	req.url = url;
	req.headers = headers;
	st = prov_http(s, &req, &resp, err);
	if (st == PROV_OK)
		st = parse(cursor, &resp, page, err);
	st = prov_finish(s, st, page, err);
	httpc_resp_free(&resp);
	free(url);
	sodium_memzero(header, strlen(header));
	free(header);
	return st;
}
