/* Importers: the table of resource kinds (at the end of this file), one
 * writer per kind over the account tables, the natural keys that define a
 * conflict, and the import linkage. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/datetime.h"
#include "core/jsonx.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "db/account.h"
#include "db/runner_rows.h"
#include "importers/importer.h"
#include "providers/provider.h"

#define MAX_LIST           1000 /* entries of a contact, monitor or line list we keep */
#define MAX_INCIDENTS      50   /* a status page's history entries we keep (the adapters keep as many) */
#define MAX_UPDATES        50   /* updates of one history entry we keep (the same) */
#define MONITOR_INTERVAL_S 300  /* a monitor's check interval when the provider gives none */

/* ---- pure helpers ---- */

int
imp_date(const char *s, char out[11])
{
	/* 1000-01-01T00:00:00Z: DATE columns hold the years 1000 to 9999 */
	static const int64_t first = INT64_C(-30610224000);
	int64_t t;

	if (time_parse(s, TIME_ISO, NULL, &t) != 0 || t < first)
		return -1;
	return time_format_date(t, out);
}

int
imp_decimal(const char *s, char out[24])
{
	size_t i = 0, o = 0, ints = 0, decs = 0;

	if (s == NULL)
		return -1;
	if (s[i] == '-')
		out[o++] = s[i++];
	while (isdigit((unsigned char)s[i])) {
		if (++ints > 12)
			return -1;
		out[o++] = s[i++];
	}
	if (ints == 0)
		return -1;
	if (s[i] == '.') {
		i++;
		if (!isdigit((unsigned char)s[i]))
			return -1;
		out[o++] = '.';
		while (isdigit((unsigned char)s[i])) {
			if (decs < 2)
				out[o++] = s[i];
			decs++;
			i++;
		}
	}
	if (s[i] != '\0')
		return -1;
	out[o] = '\0';
	return 0;
}

/* ---- reading normalized data ---- */

/* Strings copied out of the JSON, freed together, and the values cut to
 * fit their account columns (fit), in words. */
struct bag {
	char **p;
	size_t n, cap;
	char cuts[IMP_CUTS_MAX];
};

static const char *
bag_keep(struct bag *b, char *s)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 32;
		b->p = xrealloc(b->p, b->cap * sizeof *b->p);
	}
	b->p[b->n++] = s;
	return s;
}

static void
bag_free(struct bag *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->p[i]);
	free(b->p);
	*b = (struct bag){ NULL, 0, 0, "" };
}

/* The raw string value of key ("" and blanks count as absent), or NULL. */
static const char *
raw_str(json_object *norm, const char *key)
{
	json_object *v;
	const char *s;

	if (!json_object_object_get_ex(norm, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	s = json_object_get_string(v);
	for (const char *p = s; *p; p++)
		if (!isspace((unsigned char)*p))
			return s;
	return NULL;
}

/* The one cut of a provider value to its account column: s cut to
 * max_chars characters (on a character boundary), kept in b. A cut is named
 * in b->cuts by its column, what, which importer_write hands to the run log. */
static const char *
fit(struct bag *b, const char *what, const char *s, size_t max_chars)
{
	size_t len = strlen(s), n = utf8_cut(s, len, max_chars, SIZE_MAX), at;
	char note[96];

	if (n < len) {
		utf8_format(note, sizeof note, "%s (to %zu characters)", what, max_chars);
		if (strstr(b->cuts, note) == NULL && (at = strlen(b->cuts)) < sizeof b->cuts)
			utf8_format(b->cuts + at, sizeof b->cuts - at, "%s%s", at ? ", " : "", note);
	}
	return bag_keep(b, xstrndup(s, n));
}

/* The string value of key cut to max_chars characters (fit), or NULL. */
static const char *
txt(struct bag *b, json_object *norm, const char *key, size_t max_chars)
{
	const char *s = raw_str(norm, key);

	return s != NULL ? fit(b, key, s, max_chars) : NULL;
}

/* Characters in the string value of key (0 when absent). */
static size_t
txt_chars(json_object *norm, const char *key)
{
	const char *s = raw_str(norm, key);
	size_t n = 0;

	for (; s != NULL && *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* An integer value (a JSON number or a numeric string) clamped to [lo, hi], else dflt. */
static int64_t
num(json_object *norm, const char *key, int64_t lo, int64_t hi, int64_t dflt)
{
	json_object *v;
	int64_t x;

	if (!json_object_object_get_ex(norm, key, &v) || v == NULL)
		return dflt;
	if (json_object_is_type(v, json_type_int))
		x = json_object_get_int64(v);
	else if (json_object_is_type(v, json_type_double))
		x = (int64_t)json_object_get_double(v);
	else if (json_object_is_type(v, json_type_string)) {
		if (parse_i64(json_object_get_string(v), INT64_MIN + 1, INT64_MAX, &x) != 0)
			return dflt;
	} else
		return dflt;
	return x < lo ? lo : x > hi ? hi : x;
}

static bool
flag(json_object *norm, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(norm, key, &v) || v == NULL)
		return false;
	if (json_object_is_type(v, json_type_boolean))
		return json_object_get_boolean(v);
	if (json_object_is_type(v, json_type_int))
		return json_object_get_int64(v) != 0;
	if (json_object_is_type(v, json_type_string))
		return strcmp(json_object_get_string(v), "true") == 0 ||
		    strcmp(json_object_get_string(v), "1") == 0;
	return false;
}

static const char *
date(struct bag *b, json_object *norm, const char *key)
{
	char d[11];

	if (imp_date(raw_str(norm, key), d) != 0)
		return NULL;
	return bag_keep(b, xstrdup(d));
}

/* A moment (ISO 8601) as a DATETIME in UTC, or NULL. */
static const char *
moment(struct bag *b, json_object *norm, const char *key)
{
	/* 1000-01-01T00:00:00Z: DATETIME columns hold the years 1000 to 9999 */
	static const int64_t first = INT64_C(-30610224000);
	const char *s = raw_str(norm, key);
	char out[21];
	int64_t t;

	if (s == NULL || time_parse(s, TIME_ISO, NULL, &t) != 0 || t < first ||
	    time_format_iso(t, false, out) != 0)
		return NULL;
	return bag_keep(b, xstrdup(out));
}

static const char *
decimal(struct bag *b, json_object *norm, const char *key)
{
	json_object *v;
	char d[24], buf[48];
	const char *s = raw_str(norm, key);

	if (s == NULL && json_object_object_get_ex(norm, key, &v) &&
	    (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))) {
		snprintf(buf, sizeof buf, "%.2f", json_object_get_double(v));
		s = buf;
	}
	if (imp_decimal(s, d) != 0)
		return NULL;
	return bag_keep(b, xstrdup(d));
}

/* A member that is an array of ids (strings or numbers), or NULL. */
static json_object *
id_list(json_object *norm, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(norm, key, &v) || !json_object_is_type(v, json_type_array))
		return NULL;
	return v;
}

/* The i-th id of a list as text into buf; -1 when it is neither string nor integer. */
static int
list_id(json_object *arr, size_t i, char *buf, size_t n)
{
	json_object *v = json_object_array_get_idx(arr, i);

	if (json_object_is_type(v, json_type_string) && json_object_get_string_len(v) > 0)
		return snprintf(buf, n, "%s", json_object_get_string(v)) < (int)n ? 0 : -1;
	if (json_object_is_type(v, json_type_int))
		return snprintf(buf, n, "%lld", (long long)json_object_get_int64(v)) < (int)n ? 0 : -1;
	return -1;
}

/* A JSON array or object member as compact text, or NULL when it is absent
 * or empty (the column stays NULL). */
static const char *
json_col(struct bag *b, json_object *norm, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(norm, key, &v) || v == NULL)
		return NULL;
	if (json_object_is_type(v, json_type_array) && json_object_array_length(v) == 0)
		return NULL;
	if (json_object_is_type(v, json_type_object) && json_object_object_length(v) == 0)
		return NULL;
	if (!json_object_is_type(v, json_type_array) && !json_object_is_type(v, json_type_object))
		return NULL;
	return bag_keep(b, xstrdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN)));
}

/* A yes/no/unknown member as 1, 0 or -1 (binds NULL with 'I'). */
static int64_t
tri(json_object *norm, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(norm, key, &v) || v == NULL)
		return -1;
	return flag(norm, key) ? 1 : 0;
}

/* One of list, else "other". */
static const char *
enum_or_other(const char *s, const char *const *list)
{
	for (size_t i = 0; s != NULL && list[i] != NULL; i++)
		if (strcmp(list[i], s) == 0)
			return list[i];
	return "other";
}

/* clang-format off */
static const char *const monitor_types[] = {
	"http", "keyword", "ping", "port", "dns", "tcp", "udp", "smtp", "pop3", "imap", "ssh", "api", "other", NULL
};
static const char *const contact_types[] = {
	"email", "sms", "voice", "webhook", "slack", "teams", "telegram", "discord", "pagerduty",
	"opsgenie", "pushover", "push", "other", NULL
};
/* clang-format on */
static const char *const recurrences[] = { "once", "daily", "weekly", "monthly", "other", NULL };
static const char *const subscriber_kinds[] = { "email", "sms", "webhook", "slack", "teams", "other", NULL };
static const char *const keyword_modes[] = { "present", "absent", NULL };

/* When a monitor with keyword is up: "present" (found; also when the
 * provider says nothing we know) or "absent"; NULL without a keyword. */
static const char *
keyword_mode(json_object *norm, const char *keyword)
{
	const char *m = keyword ? enum_or_other(raw_str(norm, "keyword_up_when"), keyword_modes) : NULL;

	return m != NULL && strcmp(m, "other") == 0 ? "present" : m;
}

/* An upper-case ASCII word of at most 15 letters and digits that starts with
 * a letter (an HTTP method, a DNS record type such as NSEC3), or NULL. */
static const char *
method(struct bag *b, json_object *norm, const char *key)
{
	const char *s = raw_str(norm, key);
	char m[16];
	size_t i;

	for (i = 0; s != NULL && s[i] != '\0' && i < sizeof m - 1; i++) {
		if (!(i == 0 ? isalpha((unsigned char)s[i]) : isalnum((unsigned char)s[i])))
			return NULL;
		m[i] = (char)toupper((unsigned char)s[i]);
	}
	if (s == NULL || s[i] != '\0' || i == 0)
		return NULL;
	m[i] = '\0';
	return bag_keep(b, xstrdup(m));
}

/* A sealed secret as discovery stored it (base64, at most 1400 characters),
 * or NULL. */
static const char *
sealed(json_object *norm, const char *key)
{
	const char *s = raw_str(norm, key);
	size_t n = s != NULL ? strlen(s) : 0;

	if (n == 0 || n > 1400 ||
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != n)
		return NULL;
	return s;
}

/* A three-letter currency code, or NULL. */
static const char *
currency(json_object *norm, const char *key)
{
	const char *s = raw_str(norm, key);

	if (s == NULL || strlen(s) != 3)
		return NULL;
	for (int i = 0; i < 3; i++)
		if (s[i] < 'A' || s[i] > 'Z')
			return NULL;
	return s;
}

/* ---- what the review shows ---- */

/* How the review shows one account column a kind writes (importer_preview):
 * the value as the writer turns the normalized key into it. */
enum shown_as {
	AS_TEXT,
	AS_INT,      /* dflt when absent (-1: null) */
	AS_BOOL,     /* dflt when absent (-1: null) */
	AS_AMOUNT,   /* decimal text, as stored */
	AS_CURRENCY, /* ISO 4217, or null */
	AS_DATE,     /* YYYY-MM-DD, or null */
	AS_ONE_OF,   /* one of the list, else "other" */
	AS_JSON,     /* a list or object as it is */
	AS_COUNT,    /* how many entries the list has */
	AS_KEYS,     /* an object's member names only (request headers: their values may be tokens) */
	AS_SECRET,   /* named, never shown: "(not shown)" when present */
	AS_ADDRESS,  /* shown for an email address or phone number, else a secret (a webhook URL) */
	AS_KEYWORD,  /* keyword_mode() of the kind's keyword */
	AS_PAUSED,   /* paused at the provider, or by the run's import_paused */
	AS_ALERTS,   /* who it alerts by name, and who not (alerts_shown); the column names the first */
};

struct shown {
	const char *column, *key;
	enum shown_as as;
	int64_t dflt;
	const char *const *one_of;
};

/* clang-format off */
#define SHOWN_END { NULL, NULL, AS_TEXT, 0, NULL }
static const struct shown monitor_shown[] = {
	{ "name", "name", AS_TEXT, 0, NULL }, { "type", "type", AS_ONE_OF, 0, monitor_types },
	{ "url", "url", AS_TEXT, 0, NULL }, { "port", "port", AS_INT, -1, NULL },
	{ "interval_s", "interval", AS_INT, MONITOR_INTERVAL_S, NULL }, { "timeout_s", "timeout", AS_INT, -1, NULL },
	{ "keyword", "keyword", AS_TEXT, 0, NULL }, { "keyword_up_when", "keyword", AS_KEYWORD, 0, NULL },
	{ "keyword_case_sensitive", "keyword_case_sensitive", AS_BOOL, -1, NULL },
	{ "http_method", "http_method", AS_TEXT, 0, NULL }, { "request_headers", "request_headers", AS_KEYS, 0, NULL },
	{ "request_body", "request_body", AS_SECRET, 0, NULL },
	{ "expected_status_codes", "expected_status_codes", AS_JSON, 0, NULL },
	{ "follow_redirects", "follow_redirects", AS_BOOL, -1, NULL }, { "verify_ssl", "verify_ssl", AS_BOOL, -1, NULL },
	{ "ssl_expiry_days", "ssl_expiry_days", AS_INT, -1, NULL }, { "regions", "regions", AS_JSON, 0, NULL },
	{ "alert_after_checks", "alert_after_checks", AS_INT, -1, NULL },
	{ "alert_after_s", "alert_after_s", AS_INT, -1, NULL }, { "recovery_s", "recovery_s", AS_INT, -1, NULL },
	{ "realert_s", "realert_s", AS_INT, -1, NULL }, { "muted_until", "muted_until", AS_TEXT, 0, NULL },
	{ "dns_record_type", "dns_record_type", AS_TEXT, 0, NULL }, { "dns_expected", "dns_expected", AS_JSON, 0, NULL },
	{ "dns_nameserver", "dns_nameserver", AS_TEXT, 0, NULL }, { "assertions", "assertions", AS_COUNT, 0, NULL },
	{ "auth_username", "auth_username", AS_TEXT, 0, NULL },
	{ "auth_password", "auth_password_sealed", AS_SECRET, 0, NULL },
	{ "paused", "paused", AS_PAUSED, 0, NULL }, { "alerts", "contact_ids", AS_ALERTS, 0, NULL }, SHOWN_END
};
static const struct shown heartbeat_shown[] = {
	{ "name", "name", AS_TEXT, 0, NULL }, { "interval_s", "interval", AS_INT, 0, NULL },
	{ "grace_s", "grace", AS_INT, 0, NULL }, { "schedule", "schedule", AS_TEXT, 0, NULL },
	{ "timezone", "timezone", AS_TEXT, 0, NULL }, { "ping_url", "ping_url", AS_SECRET, 0, NULL },
	{ "realert_s", "realert_s", AS_INT, -1, NULL },
	{ "paused", "paused", AS_PAUSED, 0, NULL }, { "alerts", "contact_ids", AS_ALERTS, 0, NULL }, SHOWN_END
};
static const struct shown contact_shown[] = {
	{ "name", "name", AS_TEXT, 0, NULL }, { "type", "type", AS_ONE_OF, 0, contact_types },
	{ "value", "value", AS_ADDRESS, 0, NULL }, { "needs_address", "needs_address", AS_BOOL, 0, NULL }, SHOWN_END
};
static const struct shown status_page_shown[] = {
	{ "name", "name", AS_TEXT, 0, NULL }, { "url", "url", AS_TEXT, 0, NULL }, { "public", "public", AS_BOOL, 1, NULL },
	{ "timezone", "timezone", AS_TEXT, 0, NULL }, { "entries", "items", AS_COUNT, 0, NULL },
	{ "incidents", "incidents", AS_COUNT, 0, NULL }, SHOWN_END
};
static const struct shown window_shown[] = {
	{ "name", "name", AS_TEXT, 0, NULL }, { "recurrence", "recurrence", AS_ONE_OF, 0, recurrences },
	{ "starts", "start", AS_TEXT, 0, NULL }, { "ends", "end", AS_TEXT, 0, NULL },
	{ "duration_min", "duration", AS_INT, -1, NULL }, { "days", "days", AS_JSON, 0, NULL },
	{ "timezone", "timezone", AS_TEXT, 0, NULL }, { "monitors", "monitor_ids", AS_COUNT, 0, NULL },
	{ "heartbeats", "heartbeat_ids", AS_COUNT, 0, NULL }, { "paused", "paused", AS_BOOL, 0, NULL }, SHOWN_END
};
static const struct shown subscriber_shown[] = {
	{ "kind", "kind", AS_ONE_OF, 0, subscriber_kinds }, { "address", "address", AS_ADDRESS, 0, NULL },
	{ "state", "state", AS_TEXT, 0, NULL }, { "components", "components", AS_COUNT, 0, NULL }, SHOWN_END
};
static const struct shown hosting_client_shown[] = {
	{ "first_name", "first_name", AS_TEXT, 0, NULL }, { "last_name", "last_name", AS_TEXT, 0, NULL },
	{ "company", "company", AS_TEXT, 0, NULL }, { "email", "email", AS_TEXT, 0, NULL },
	{ "status", "status", AS_TEXT, 0, NULL }, { "currency", "currency", AS_CURRENCY, 0, NULL },
	{ "credit", "credit", AS_AMOUNT, 0, NULL }, SHOWN_END
};
static const struct shown hosting_contact_shown[] = {
	{ "first_name", "first_name", AS_TEXT, 0, NULL }, { "last_name", "last_name", AS_TEXT, 0, NULL },
	{ "company", "company", AS_TEXT, 0, NULL }, { "email", "email", AS_TEXT, 0, NULL }, SHOWN_END
};
static const struct shown hosting_service_shown[] = {
	{ "product", "product", AS_TEXT, 0, NULL }, { "domain", "domain", AS_TEXT, 0, NULL },
	{ "status", "status", AS_TEXT, 0, NULL }, { "billing_cycle", "billing_cycle", AS_TEXT, 0, NULL },
	{ "amount", "amount", AS_AMOUNT, 0, NULL }, { "first_amount", "first_amount", AS_AMOUNT, 0, NULL },
	{ "currency", "currency", AS_CURRENCY, 0, NULL }, { "next_due", "next_due", AS_DATE, 0, NULL }, SHOWN_END
};
static const struct shown hosting_addon_shown[] = {
	{ "name", "name", AS_TEXT, 0, NULL }, { "status", "status", AS_TEXT, 0, NULL },
	{ "billing_cycle", "billing_cycle", AS_TEXT, 0, NULL }, { "amount", "amount", AS_AMOUNT, 0, NULL },
	{ "setup_fee", "setup_fee", AS_AMOUNT, 0, NULL }, { "currency", "currency", AS_CURRENCY, 0, NULL },
	{ "next_due", "next_due", AS_DATE, 0, NULL }, SHOWN_END
};
static const struct shown hosting_domain_shown[] = {
	{ "domain", "domain", AS_TEXT, 0, NULL }, { "registrar", "registrar", AS_TEXT, 0, NULL },
	{ "status", "status", AS_TEXT, 0, NULL }, { "expiry", "expiry", AS_DATE, 0, NULL },
	{ "next_due", "next_due", AS_DATE, 0, NULL }, { "amount", "amount", AS_AMOUNT, 0, NULL },
	{ "currency", "currency", AS_CURRENCY, 0, NULL }, { "period_years", "period", AS_INT, -1, NULL },
	{ "auto_renew", "auto_renew", AS_BOOL, -1, NULL }, SHOWN_END
};
static const struct shown invoice_shown[] = {
	{ "number", "number", AS_TEXT, 0, NULL }, { "status", "status", AS_TEXT, 0, NULL },
	{ "invoice_date", "date", AS_DATE, 0, NULL }, { "due", "due", AS_DATE, 0, NULL },
	{ "paid_at", "paid_at", AS_DATE, 0, NULL }, { "subtotal", "subtotal", AS_AMOUNT, 0, NULL },
	{ "tax", "tax", AS_AMOUNT, 0, NULL }, { "credit", "credit", AS_AMOUNT, 0, NULL },
	{ "total", "total", AS_AMOUNT, 0, NULL }, { "balance", "balance", AS_AMOUNT, 0, NULL },
	{ "currency", "currency", AS_CURRENCY, 0, NULL }, { "lines", "lines", AS_COUNT, 0, NULL }, SHOWN_END
};
static const struct shown payment_shown[] = {
	{ "paid_on", "date", AS_DATE, 0, NULL }, { "gateway", "gateway", AS_TEXT, 0, NULL },
	{ "transaction_id", "transaction_id", AS_TEXT, 0, NULL }, { "description", "description", AS_TEXT, 0, NULL },
	{ "amount_in", "amount_in", AS_AMOUNT, 0, NULL }, { "fees", "fees", AS_AMOUNT, 0, NULL },
	{ "amount_out", "amount_out", AS_AMOUNT, 0, NULL }, { "currency", "currency", AS_CURRENCY, 0, NULL },
	SHOWN_END
};
/* clang-format on */

/* ---- the kinds ---- */

struct kind {
	const char *type;      /* resource_type */
	const char *model;     /* the account table */
	const char *noun;      /* in messages */
	const char *key_words; /* what makes two of them the same, in words */
	const char *label[3];  /* the normalized keys that name one, first present wins */
	bool pausable;         /* it checks something and can be paused (option import_paused) */
	/* What importer_validate asks of the normalized data, in this order: no
	 * member of limits longer than its max characters, and one of need's
	 * members a non-blank string (else the message says which). */
	struct {
		const char *key;
		size_t max;
		const char *too_long;
	} limits[2];
	struct {
		const char *any_of[3];
		const char *missing;
	} need;
	enum account_table table;  /* the model's link lookup and any-row test (db/account.h) */
	const struct shown *shown; /* what the review shows of what it writes */
	int (*match)(struct imp_ctx *, struct bag *, json_object *norm, uint64_t *id);
	enum imp_result (*write)(struct imp_ctx *, struct bag *, json_object *norm, uint64_t target,
	    uint64_t *id, char *why, size_t n);
};

static const struct kind *kind_of(const char *type);

/* ---- validation ---- */

static int
why_set(char *why, size_t n, const char *msg)
{
	utf8_copy(why, n, msg);
	return -1;
}

int
importer_validate(const char *type, json_object *norm, char *why, size_t n)
{
	const struct kind *k = kind_of(type);

	if (k == NULL)
		return why_set(why, n, "This resource type is not supported by the importer.");
	if (norm == NULL || !json_object_is_type(norm, json_type_object))
		return why_set(why, n, "The provider data could not be read.");
	for (size_t i = 0; i < sizeof k->limits / sizeof k->limits[0] && k->limits[i].key; i++)
		if (txt_chars(norm, k->limits[i].key) > k->limits[i].max)
			return why_set(why, n, k->limits[i].too_long);
	for (size_t i = 0; i < sizeof k->need.any_of / sizeof k->need.any_of[0] && k->need.any_of[i]; i++)
		if (raw_str(norm, k->need.any_of[i]) != NULL)
			return 0;
	return why_set(why, n, k->need.missing);
}

/* ---- lookups ---- */

int
importer_batch_facts(struct imp_ctx *c, const char *type, uint64_t after, uint64_t last)
{
	const struct kind *k = kind_of(type);
	int links, objects;

	c->facts_type = NULL;
	if (k == NULL)
		return 0;
	if ((links = links_any_in_range(c->db, c->user_id, c->provider, c->run_id, type, after, last)) < 0 ||
	    (objects = account_has_any(c->db, k->table, c->user_id)) < 0)
		return -1;
	c->facts_type = k->type;
	c->no_link = links == 0;
	c->no_object = objects == 0;
	return 0;
}

int
importer_find_link(struct imp_ctx *c, const char *type, const char *external_id, uint64_t *id)
{
	const struct kind *k = kind_of(type);

	if (k == NULL || (c->facts_type == k->type && c->no_link))
		return 0;
	return link_find(c->db, k->table, c->user_id, c->provider, type, external_id, id);
}

enum ref { REF_NONE = 0, REF_OK = 1, REF_PENDING = 2 };

/* The local id of the run's resource (type, ext): its import target; while it
 * is pending, REF_PENDING (or, when planning, what it would update or conflict
 * with); else an earlier import's live target. -1 on a DB error. */
static int
resolve_ref(struct imp_ctx *c, const char *type, const char *ext, uint64_t *id)
{
	struct resource_row ref;
	char *norm_text;
	int rc, found;

	for (size_t i = 0; i < c->nrefs; i++)
		if (strcmp(c->refs[i].type, type) == 0 && strcmp(c->refs[i].ext, ext) == 0) {
			*id = c->refs[i].id;
			return REF_OK;
		}
	if ((found = resource_ref(c->db, c->run_id, type, ext, &ref)) < 0)
		return -1;
	norm_text = ref.norm;
	if (found == 1) {
		if (strcmp(ref.status, "imported") == 0 && ref.target_id != 0) {
			free(norm_text);
			*id = ref.target_id;
			if (kind_of(type) != NULL && strlen(ext) < sizeof c->refs[0].ext) {
				/* imported is final: remember it (when full, in place of an entry the id picks) */
				size_t max = sizeof c->refs / sizeof c->refs[0];
				struct imp_ref *m =
				    &c->refs[c->nrefs < max ? c->nrefs++ : (size_t)(ref.target_id % max)];
				m->type = kind_of(type)->type;
				utf8_copy(m->ext, sizeof m->ext, ext);
				m->id = ref.target_id;
			}
			return REF_OK;
		}
		if (!c->planning &&
		    (strcmp(ref.status, "pending") == 0 || strcmp(ref.status, "running") == 0)) {
			free(norm_text);
			return REF_PENDING;
		}
	}
	if ((rc = importer_find_link(c, type, ext, id)) != 0) {
		free(norm_text);
		return rc < 0 ? -1 : REF_OK;
	}
	/* Not imported by us: the object it matches, when it was kept (resolved
	 * "skip") or when we are still planning. */
	if (found == 1 && norm_text != NULL && (c->planning || strcmp(ref.status, "skipped") == 0)) {
		int ok;
		json_object *norm = jx_parse(norm_text, strlen(norm_text), &ok);
		rc = norm ? importer_find_conflict(c, type, norm, id) : 0;
		json_object_put(norm);
		free(norm_text);
		return rc < 0 ? -1 : rc == 1 ? REF_OK : REF_NONE;
	}
	free(norm_text);
	return REF_NONE;
}

/* The local object of the reference in member key (an external id of type):
 * REF_OK with *id, REF_NONE (*id 0), REF_PENDING, or -1. */
static int
member_ref(struct imp_ctx *c, json_object *norm, const char *key, const char *type, uint64_t *id)
{
	char ext[192];
	json_object *v;

	*id = 0;
	if (!json_object_object_get_ex(norm, key, &v) || v == NULL)
		return REF_NONE;
	if (json_object_is_type(v, json_type_string))
		utf8_copy(ext, sizeof ext, json_object_get_string(v));
	else if (json_object_is_type(v, json_type_int))
		snprintf(ext, sizeof ext, "%lld", (long long)json_object_get_int64(v));
	else
		return REF_NONE;
	if (ext[0] == '\0')
		return REF_NONE;
	return resolve_ref(c, type, ext, id);
}

static enum imp_result
defer(char *why, size_t n, const char *what)
{
	snprintf(why, n, "Waiting for %s of this run to be imported first.", what);
	return IMP_DEFER;
}

/* The reference in member key as a local id (0: none). IMP_OK, IMP_DEFER or IMP_DB. */
static enum imp_result
ref_or_defer(struct imp_ctx *c, json_object *norm, const char *key, const char *type, uint64_t *id, char *why,
    size_t n, const char *what)
{
	int rc = member_ref(c, norm, key, type, id);

	if (rc < 0)
		return IMP_DB;
	if (rc == REF_PENDING)
		return defer(why, n, what);
	if (rc != REF_OK)
		*id = 0;
	return IMP_OK;
}

/* ---- natural keys ---- */

static int
m_contact(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	const char *value = txt(b, norm, "value", 1024), *name = txt(b, norm, "name", 255);

	return contact_find(c->db, c->user_id, enum_or_other(raw_str(norm, "type"), contact_types), value,
	    name ? name : "", id);
}

static int
m_monitor(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	const char *url = txt(b, norm, "url", 2048);

	return monitor_find(c->db, c->user_id, enum_or_other(raw_str(norm, "type"), monitor_types),
	    url ? url : "", num(norm, "port", -1, 65535, -1), id);
}

static int
m_heartbeat(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	return heartbeat_find(c->db, c->user_id, txt(b, norm, "name", 255), txt(b, norm, "ping_url", 2048),
	    id);
}

static int
m_status_page(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	return status_page_find(c->db, c->user_id, txt(b, norm, "name", 255), id);
}

static int
m_window(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	return window_find(c->db, c->user_id, txt(b, norm, "name", 255),
	    enum_or_other(raw_str(norm, "recurrence"), recurrences), txt(b, norm, "start", 32), id);
}

/* A natural key that holds a reference: no match while the referenced
 * resource is new in this run (nothing can have it yet). */
static int
ref_for_match(struct imp_ctx *c, json_object *norm, const char *key, const char *type, uint64_t *id)
{
	int rc = member_ref(c, norm, key, type, id);

	return rc < 0 ? -1 : rc == REF_PENDING ? 0 : 1;
}

static int
m_subscriber(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	uint64_t page;
	int rc = ref_for_match(c, norm, "status_page_id", "status_page", &page);

	if (rc <= 0 || page == 0)
		return rc < 0 ? -1 : 0;
	return subscriber_find(c->db, c->user_id, page,
	    enum_or_other(raw_str(norm, "kind"), subscriber_kinds), txt(b, norm, "address", 1024), id);
}

static int
m_hosting_client(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	return hosting_client_find(c->db, c->user_id, txt(b, norm, "email", 255), id);
}

static int
m_hosting_contact(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	uint64_t client;
	int rc = ref_for_match(c, norm, "client_id", "hosting_client", &client);

	if (rc <= 0)
		return rc;
	return hosting_contact_find(c->db, c->user_id, client, txt(b, norm, "email", 255), id);
}

static int
m_hosting_service(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	const char *product = txt(b, norm, "product", 255), *domain = txt(b, norm, "domain", 255);
	uint64_t client;
	int rc = ref_for_match(c, norm, "client_id", "hosting_client", &client);

	if (rc <= 0)
		return rc;
	return hosting_service_find(c->db, c->user_id, client, product ? product : "", domain ? domain : "",
	    id);
}

static int
m_hosting_addon(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	uint64_t client, service;
	int rc = ref_for_match(c, norm, "client_id", "hosting_client", &client);

	if (rc > 0)
		rc = ref_for_match(c, norm, "service_id", "hosting_service", &service);
	if (rc <= 0)
		return rc;
	return hosting_addon_find(c->db, c->user_id, client, service, txt(b, norm, "name", 255), id);
}

static int
m_hosting_domain(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	return hosting_domain_find(c->db, c->user_id, txt(b, norm, "domain", 255), id);
}

static int
m_invoice(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	return invoice_find(c->db, c->user_id, txt(b, norm, "number", 64), id);
}

static int
m_payment(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t *id)
{
	return payment_find(c->db, c->user_id, txt(b, norm, "gateway", 64),
	    txt(b, norm, "transaction_id", 191), id);
}

int
importer_find_conflict(struct imp_ctx *c, const char *type, json_object *norm, uint64_t *id)
{
	const struct kind *k = kind_of(type);
	struct bag b = { NULL, 0, 0, "" };
	int rc;

	if (k == NULL || (c->facts_type == k->type && c->no_object))
		return 0;
	rc = k->match(c, &b, norm, id);
	bag_free(&b);
	return rc;
}

/* A provider as people write it ("Better Stack"), for messages. */
static const char *
provider_words(const char *id)
{
	const struct provider_def *def = provider_find(id);

	return def != NULL ? def->name : id;
}

/* Account object id of kind k as a person knows it: 'monitor "Shop" at
 * https://shop.example/ (no. 26)' into out[n]. 0, or -1 on a DB error. */
static int
object_words(struct imp_ctx *c, const struct kind *k, uint64_t id, char *out, size_t n)
{
	char name[128], detail[192];

	if (account_label(c->db, k->table, c->user_id, id, name, sizeof name, detail, sizeof detail) < 0)
		return -1;
	if (name[0] == '\0')
		utf8_format(out, n, "%s no. %llu", k->noun, (unsigned long long)id);
	else
		utf8_format(out, n, "%s \"%s\"%s%s (no. %llu)", k->noun, name, detail[0] ? " at " : "",
		    detail, (unsigned long long)id);
	return 0;
}

/* Why a resource conflicts with the account object id found by
 * importer_find_conflict, in words: which object, what is the same, where it
 * came from. 0, or -1 on a DB error. */
static int
importer_conflict_reason(struct imp_ctx *c, const struct kind *k, uint64_t id, char *out, size_t n)
{
	char origin[64], what[400];

	if (link_origin(c->db, k->model, id, c->user_id, origin, sizeof origin) != 0 ||
	    object_words(c, k, id, what, sizeof what) != 0)
		return -1;
	if (origin[0] != '\0')
		utf8_format(out, n, "Exists: %s, imported from %s, with the same %s.", what,
		    provider_words(origin), k->key_words);
	else
		utf8_format(out, n,
		    "Exists: %s, created in your account (not by an import), with the same %s.", what,
		    k->key_words);
	return 0;
}

void
importer_label(const char *type, json_object *norm, char *out, size_t n)
{
	const struct kind *k = kind_of(type);

	out[0] = '\0';
	for (size_t i = 0; k != NULL && i < sizeof k->label / sizeof k->label[0] && k->label[i] != NULL;
	     i++) {
		const char *s = raw_str(norm, k->label[i]), *host;
		size_t len;
		if (s == NULL)
			continue;
		len = utf8_cut(s, strlen(s), 255, n - 1);
		/* an address that is a URL (a webhook's) may hold a token in its path: its origin only */
		if ((strcmp(k->label[i], "value") == 0 || strcmp(k->label[i], "address") == 0) &&
		    (host = strstr(s, "://")) != NULL) {
			len = (size_t)(host + 3 - s) + strcspn(host + 3, "/?#");
			utf8_format(out, n, "%.*s/…", (int)(len < n - 8 ? len : n - 8), s);
			return;
		}
		memcpy(out, s, len);
		out[len] = '\0';
		return;
	}
}

int
importer_plan_reason(struct imp_ctx *c, const char *type, const char *action, uint64_t id, char *out,
    size_t n)
{
	const struct kind *k = kind_of(type);

	if (k == NULL || action == NULL)
		return 0;
	if (strcmp(action, "create") == 0)
		snprintf(out, n, "New: no %s in your account has the same %s.", k->noun, k->key_words);
	else if (strcmp(action, "update") == 0) {
		char what[400];
		if (object_words(c, k, id, what, sizeof what) != 0)
			return -1;
		utf8_format(out, n, "Imported before from this %s account as %s: it will be updated.",
		    provider_words(c->provider), what);
	} else if (strcmp(action, "conflict") == 0)
		return importer_conflict_reason(c, k, id, out, n);
	return 0;
}

/* ---- the preview of the review ---- */

#define NOT_SHOWN "(not shown)"

/* An address as the review shows it: an email address or phone number as it
 * is, anything else (a webhook or chat URL, which may hold a token) named
 * only. NULL when there is none. */
static json_object *
address_shown(const char *kind, const char *value)
{
	static const char *const plain[] = { "email", "sms", "voice", NULL };

	if (value == NULL)
		return NULL;
	for (size_t i = 0; kind != NULL && plain[i] != NULL; i++)
		if (strcmp(kind, plain[i]) == 0)
			return json_object_new_string(value);
	return json_object_new_string(NOT_SHOWN);
}

static json_object *
value_shown(struct bag *b, json_object *norm, const struct shown *f, bool import_paused)
{
	json_object *v, *out;
	const char *s;
	int64_t x;

	switch (f->as) {
	case AS_TEXT:
		s = txt(b, norm, f->key, 100000);
		return s ? json_object_new_string(s) : NULL;
	case AS_INT:
		x = num(norm, f->key, 0, INT64_MAX, f->dflt);
		return x < 0 ? NULL : json_object_new_int64(x);
	case AS_BOOL:
		x = json_object_object_get_ex(norm, f->key, &v) && v != NULL ? flag(norm, f->key) : f->dflt;
		return x < 0 ? NULL : json_object_new_boolean(x != 0);
	case AS_AMOUNT:
		s = decimal(b, norm, f->key);
		return s ? json_object_new_string(s) : NULL;
	case AS_CURRENCY:
		s = currency(norm, f->key);
		return s ? json_object_new_string(s) : NULL;
	case AS_DATE:
		s = date(b, norm, f->key);
		return s ? json_object_new_string(s) : NULL;
	case AS_ONE_OF:
		return json_object_new_string(enum_or_other(raw_str(norm, f->key), f->one_of));
	case AS_JSON: /* as json_col stores it: a list or object with members, else null */
		if (!json_object_object_get_ex(norm, f->key, &v) ||
		    !(json_object_is_type(v, json_type_array) ?
		            json_object_array_length(v) > 0 :
		            json_object_is_type(v, json_type_object) && json_object_object_length(v) > 0))
			return NULL;
		return json_object_get(v);
	case AS_COUNT:
		return json_object_new_int64(
		    (v = id_list(norm, f->key)) ? (int64_t)json_object_array_length(v) : 0);
	case AS_KEYS:
		if (!json_object_object_get_ex(norm, f->key, &v) ||
		    !json_object_is_type(v, json_type_object) || json_object_object_length(v) == 0)
			return NULL;
		out = json_object_new_array();
		json_object_object_foreach (v, k, ignored) {
			(void)ignored;
			json_object_array_add(out, json_object_new_string(k));
		}
		return out;
	case AS_SECRET:
		return json_object_object_get_ex(norm, f->key, &v) && v != NULL &&
		        (!json_object_is_type(v, json_type_string) || raw_str(norm, f->key) != NULL) ?
		    json_object_new_string(NOT_SHOWN) :
		    NULL;
	case AS_ADDRESS:
		return address_shown(raw_str(norm, "type") ? raw_str(norm, "type") : raw_str(norm, "kind"),
		    raw_str(norm, f->key));
	case AS_KEYWORD:
		s = keyword_mode(norm, raw_str(norm, f->key));
		return s ? json_object_new_string(s) : NULL;
	case AS_PAUSED:
		return json_object_new_boolean(flag(norm, f->key) || import_paused);
	case AS_ALERTS:
		break; /* importer_preview */
	}
	return NULL;
}

/* The alert recipients of a monitor or heartbeat into p: "alerts", the
 * contacts it will alert ({external_id, name, type, address}), and
 * "not_alerted", those it names that will not be ({external_id, name unless
 * the contact is not in the run, why}); alerts as importer_preview takes it. */
static void
alerts_shown(json_object *p, json_object *alerts)
{
	json_object *yes = json_object_new_array(), *no = json_object_new_array();

	if (!json_object_is_type(alerts, json_type_array))
		alerts = NULL;
	for (size_t i = 0; alerts != NULL && i < json_object_array_length(alerts); i++) {
		json_object *a = json_object_array_get_idx(alerts, i), *e = json_object_new_object();
		const char *status = raw_str(a, "status"), *name = raw_str(a, "name");
		if (status != NULL && strcmp(status, "excluded") != 0 && strcmp(status, "skipped") != 0 &&
		    strcmp(status, "failed") != 0) {
			jx_add_str(e, "external_id", raw_str(a, "external_id"));
			jx_add_str(e, "name", name);
			jx_add_str(e, "type", raw_str(a, "type"));
			json_object_object_add(e, "address",
			    address_shown(raw_str(a, "type"), raw_str(a, "address")));
			json_object_array_add(yes, e);
			continue;
		}
		jx_add_str(e, "external_id", raw_str(a, "external_id"));
		if (status != NULL)
			jx_add_str(e, "name", name);
		jx_add_str(e, "why",
		    status == NULL                      ? "The contact is not in this run." :
		        strcmp(status, "excluded") == 0 ? "The contact is left out of this run." :
		                                          "The contact was not imported.");
		json_object_array_add(no, e);
	}
	json_object_object_add(p, "alerts", yes);
	json_object_object_add(p, "not_alerted", no);
}

json_object *
importer_preview(const char *type, json_object *norm, json_object *alerts, bool import_paused)
{
	const struct kind *k = kind_of(type);
	struct bag b = { NULL, 0, 0, "" };
	json_object *p;

	if (k == NULL || norm == NULL)
		return NULL;
	p = json_object_new_object();
	for (const struct shown *f = k->shown; f->column != NULL; f++)
		if (f->as == AS_ALERTS)
			alerts_shown(p, alerts);
		else
			json_object_object_add(p, f->column, value_shown(&b, norm, f, import_paused));
	bag_free(&b);
	return p;
}

/* ---- what a run could not read ---- */

/* Whether this write keeps the object's own list of key: an update (the
 * object id written is the target) of a run that could not read it
 * (importer_write). A target gone meanwhile is created anew, with what the
 * run has. */
static bool
keeps(const struct imp_ctx *c, const char *key, uint64_t target, uint64_t id)
{
	for (size_t i = 0; id == target && c->unread != NULL && i < json_object_array_length(c->unread); i++)
		if (strcmp(json_object_get_string(json_object_array_get_idx(c->unread, i)), key) == 0)
			return true;
	return false;
}

/* The keys of norm's "unread" (prov_unread), or NULL; *u gets "unread". */
static json_object *
unread_keys(json_object *norm, json_object **u)
{
	json_object *keys;

	if (!json_object_object_get_ex(norm, "unread", u) || !json_object_object_get_ex(*u, "keys", &keys) ||
	    !json_object_is_type(keys, json_type_array) || json_object_array_length(keys) == 0)
		return NULL;
	return keys;
}

bool
importer_unread(json_object *norm, char *out, size_t n)
{
	json_object *u, *keys = unread_keys(norm, &u), *why;
	size_t at;

	out[0] = '\0';
	if (keys == NULL)
		return false;
	utf8_format(out, n, "%s: ",
	    json_object_object_get_ex(u, "why", &why) ? json_object_get_string(why) : "a read failed");
	for (size_t i = 0; i < json_object_array_length(keys); i++)
		if ((at = strlen(out)) < n - 1)
			utf8_format(out + at, n - at, "%s%s", i > 0 ? ", " : "",
			    json_object_get_string(json_object_array_get_idx(keys, i)));
	return true;
}

/* For an update of target: norm with the account object's values in place of
 * the keys the run could not read (c->unread, set here from norm's "unread"),
 * a new object, and those keys with the reason in c->kept; else a new
 * reference to norm. NULL on a database error. */
static json_object *
keep_unread(struct imp_ctx *c, const struct kind *k, json_object *norm, uint64_t target)
{
	json_object *u, *out = NULL, *now = NULL, *v;
	char *text;
	int rc, ok;

	c->unread = target != 0 ? unread_keys(norm, &u) : NULL;
	if (c->unread == NULL)
		return json_object_get(norm);
	importer_unread(norm, c->kept, sizeof c->kept);
	if ((rc = account_current(c->db, k->table, c->user_id, target, &text)) < 0) {
		c->unread = NULL;
		return NULL;
	}
	if (rc == 1)
		now = jx_parse(text, strlen(text), &ok);
	free(text);
	if (json_object_deep_copy(norm, &out, NULL) != 0) {
		json_object_put(now);
		c->unread = NULL;
		return NULL;
	}
	for (size_t i = 0; now != NULL && i < json_object_array_length(c->unread); i++) {
		const char *key = json_object_get_string(json_object_array_get_idx(c->unread, i));

		if (json_object_object_get_ex(now, key, &v))
			json_object_object_add(out, key, json_object_get(v));
	}
	json_object_put(now);
	return out;
}

/* ---- writing ---- */

/* A row save's result (0 or -1) as an import result. */
static enum imp_result
saved(int rc)
{
	return rc == 0 ? IMP_OK : IMP_DB;
}

/* A contact of the run named by its external id as the run log says it:
 * '"Ops" (12)', or the id alone when the run has no such contact, into
 * out[n]. 0, or -1 on a DB error. */
static int
contact_words(struct imp_ctx *c, const char *ext, char *out, size_t n)
{
	struct resource_row ref;
	json_object *norm;
	int found, ok;

	if ((found = resource_ref(c->db, c->run_id, "contact", ext, &ref)) < 0)
		return -1;
	norm = found == 1 && ref.norm != NULL ? jx_parse(ref.norm, strlen(ref.norm), &ok) : NULL;
	if (raw_str(norm, "name") != NULL)
		utf8_format(out, n, "\"%s\" (%s)", raw_str(norm, "name"), ext);
	else
		utf8_copy(out, n, ext);
	json_object_put(norm);
	free(ref.norm);
	return 0;
}

/* Contacts of a monitor or heartbeat: the links of contact_ids into links
 * (at most MAX_LIST), each with its timing from contact_timing, and those
 * not imported (not in the run, excluded, failed or skipped), by name and
 * external id, in c->unlinked. REF_PENDING when one of them is not imported
 * yet. */
static int
contact_list(struct imp_ctx *c, json_object *norm, struct contact_link *links, size_t *nlinks)
{
	json_object *arr = id_list(norm, "contact_ids"), *timing = NULL, *t;
	size_t n = arr ? json_object_array_length(arr) : 0, at;
	char ext[192], who[320];

	if (json_object_object_get_ex(norm, "contact_timing", &timing) &&
	    !json_object_is_type(timing, json_type_object))
		timing = NULL;
	*nlinks = 0;
	for (size_t i = 0; i < n && *nlinks < MAX_LIST; i++) {
		uint64_t id;
		int rc;
		if (list_id(arr, i, ext, sizeof ext) != 0)
			continue;
		if ((rc = resolve_ref(c, "contact", ext, &id)) < 0 || rc == REF_PENDING)
			return rc;
		if (rc == REF_NONE && (at = strlen(c->unlinked)) < sizeof c->unlinked - 1) {
			if (contact_words(c, ext, who, sizeof who) != 0)
				return -1;
			utf8_format(c->unlinked + at, sizeof c->unlinked - at, "%s%s", at ? ", " : "", who);
		}
		if (rc == REF_OK) {
			bool dup = false;
			for (size_t k = 0; k < *nlinks; k++)
				dup |= links[k].contact == id;
			if (dup)
				continue;
			t = NULL;
			if (timing != NULL && json_object_object_get_ex(timing, ext, &t) &&
			    !json_object_is_type(t, json_type_object))
				t = NULL;
			links[(*nlinks)++] = (struct contact_link){ id, num(t, "delay_s", -1, 100000000, -1),
				num(t, "repeat_s", -1, 100000000, -1) };
		}
	}
	return 0;
}

struct imp_rows {
	json_object *monitors;                 /* the new monitors' rows (monitor_row), in IMP_LATER order */
	uint64_t *ids;                         /* their ids once inserted (importer_rows_flush) */
	json_object *links;                    /* [[type, external id, model, target id], ...] */
	json_object *contacts[CONTACT_OWNERS]; /* [[object id, contact id], ...] */
};

/* [object id, contact id, delay_s, repeat_s] of a batch's link rows. */
static json_object *
link_row(uint64_t id, const struct contact_link *l)
{
	json_object *p = json_object_new_array_ext(4);

	json_object_array_add(p, json_object_new_uint64(id));
	json_object_array_add(p, json_object_new_uint64(l->contact));
	json_object_array_add(p, l->delay_s >= 0 ? json_object_new_int64(l->delay_s) : NULL);
	json_object_array_add(p, l->repeat_s >= 0 ? json_object_new_int64(l->repeat_s) : NULL);
	return p;
}

/* Replace the link rows of object id (clear, then add each contact); a row
 * just inserted (id is not target) has none to clear. In a batch the adds
 * are kept (and a clear drops those kept for the same object). */
static enum imp_result
link_contacts(struct imp_ctx *c, enum contact_owner t, uint64_t target, uint64_t id,
    const struct contact_link *links, size_t n)
{
	json_object *kept = c->rows ? c->rows->contacts[t] : NULL;

	if (id == target) {
		if (contacts_clear(c->db, t, id) < 0)
			return IMP_DB;
		for (size_t i = kept ? json_object_array_length(kept) : 0; i-- > 0;)
			if (json_object_get_uint64(
			        json_object_array_get_idx(json_object_array_get_idx(kept, i), 0)) == id)
				json_object_array_del_idx(kept, i, 1);
	}
	for (size_t i = 0; i < n; i++)
		if (kept != NULL)
			json_object_array_add(kept, link_row(id, &links[i]));
		else if (contact_link(c->db, t, id, &links[i]) < 0)
			return IMP_DB;
	return IMP_OK;
}

static enum imp_result
w_contact(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id, char *why,
    size_t n)
{
	const char *value = txt(b, norm, "value", 1024), *name = txt(b, norm, "name", 255);

	(void)why;
	(void)n;
	if (name == NULL)
		name = fit(b, "name", value, 255);
	return saved(contact_save(c->db, c->user_id, target,
	    &(struct contact_cols){ .name = name,
	        .type = enum_or_other(raw_str(norm, "type"), contact_types),
	        .value = value,
	        .needs_address = flag(norm, "needs_address") },
	    id));
}

static enum imp_result
w_monitor(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id, char *why,
    size_t n)
{
	const char *url = txt(b, norm, "url", 2048), *name = txt(b, norm, "name", 255);
	const char *keyword = txt(b, norm, "keyword", 1024), *up_when = keyword_mode(norm, keyword);
	struct contact_link contacts[MAX_LIST];
	size_t ncontacts;
	enum imp_result r;
	int rc;

	if ((rc = contact_list(c, norm, contacts, &ncontacts)) < 0)
		return IMP_DB;
	if (rc == REF_PENDING)
		return defer(why, n, "the monitor's contacts");
	if (url == NULL)
		url = "";
	if (name == NULL)
		name = fit(b, "name", url, 255);
	struct monitor_cols v = {
		.name = name,
		.type = enum_or_other(raw_str(norm, "type"), monitor_types),
		.url = url,
		.interval_s = num(norm, "interval", 0, 100000000, MONITOR_INTERVAL_S),
		.paused = flag(norm, "paused") || c->import_paused,
		.port = num(norm, "port", -1, 65535, -1),
		.keyword = keyword,
		.keyword_up_when = up_when,
		.keyword_case_sensitive = tri(norm, "keyword_case_sensitive"),
		.http_method = method(b, norm, "http_method"),
		.request_body = txt(b, norm, "request_body", 65535),
		.request_headers = json_col(b, norm, "request_headers"),
		.expected_status_codes = json_col(b, norm, "expected_status_codes"),
		.alert_status_codes = json_col(b, norm, "alert_status_codes"),
		.timeout_s = num(norm, "timeout", -1, 86400, -1),
		.follow_redirects = tri(norm, "follow_redirects"),
		.verify_ssl = tri(norm, "verify_ssl"),
		.ssl_expiry_days = num(norm, "ssl_expiry_days", -1, 3650, -1),
		.regions = json_col(b, norm, "regions"),
		.tags = json_col(b, norm, "tags"),
		.alert_after_checks = num(norm, "alert_after_checks", -1, 1000000, -1),
		.alert_after_s = num(norm, "alert_after_s", -1, 100000000, -1),
		.recovery_s = num(norm, "recovery_s", -1, 100000000, -1),
		.realert_s = num(norm, "realert_s", -1, 100000000, -1),
		.muted_until = moment(b, norm, "muted_until"),
		.dns_record_type = method(b, norm, "dns_record_type"),
		.dns_expected = json_col(b, norm, "dns_expected"),
		.dns_nameserver = txt(b, norm, "dns_nameserver", 255),
		.assertions = json_col(b, norm, "assertions"),
		.auth_username = txt(b, norm, "auth_username", 255),
		.auth_password_sealed = sealed(norm, "auth_password_sealed"),
	};
	if (target == 0 && c->rows != NULL) {
		/* a batch's new monitors: one INSERT of them all (importer_rows_flush) */
		json_object_array_add(c->rows->monitors, monitor_row(&v));
		*id = IMP_LATER + json_object_array_length(c->rows->monitors) - 1;
		r = IMP_OK;
	} else
		r = saved(monitor_save(c->db, c->user_id, target, &v, id));
	if (r != IMP_OK || keeps(c, "contact_ids", target, *id)) {
		c->unlinked[0] = '\0';
		return r;
	}
	return link_contacts(c, CONTACTS_OF_MONITOR, target, *id, contacts, ncontacts);
}

static enum imp_result
w_heartbeat(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id, char *why,
    size_t n)
{
	struct contact_link contacts[MAX_LIST];
	size_t ncontacts;
	enum imp_result r;
	int rc;

	if ((rc = contact_list(c, norm, contacts, &ncontacts)) < 0)
		return IMP_DB;
	if (rc == REF_PENDING)
		return defer(why, n, "the heartbeat's contacts");
	r = saved(heartbeat_save(c->db, c->user_id, target,
	    &(struct heartbeat_cols){ .name = txt(b, norm, "name", 255),
	        .interval_s = num(norm, "interval", 0, 100000000, 0),
	        .grace_s = num(norm, "grace", 0, 100000000, 0),
	        .paused = flag(norm, "paused") || c->import_paused,
	        .ping_url = txt(b, norm, "ping_url", 2048),
	        .schedule = txt(b, norm, "schedule", 255),
	        .timezone = txt(b, norm, "timezone", 64),
	        .tags = json_col(b, norm, "tags"),
	        .realert_s = num(norm, "realert_s", -1, 100000000, -1) },
	    id));
	if (r != IMP_OK || keeps(c, "contact_ids", target, *id)) {
		c->unlinked[0] = '\0';
		return r;
	}
	return link_contacts(c, CONTACTS_OF_HEARTBEAT, target, *id, contacts, ncontacts);
}

/* The local monitor or heartbeat of an external id into e: a monitor, else
 * (one id space at some providers) a heartbeat; heartbeat_only: a heartbeat.
 * REF_OK, REF_NONE, REF_PENDING or -1. */
static int
entry_target(struct imp_ctx *c, const char *ext, bool heartbeat_only, struct list_entry *e)
{
	uint64_t local;
	int rc;

	if (!heartbeat_only) {
		if ((rc = resolve_ref(c, "monitor", ext, &local)) == REF_OK)
			e->monitor = local;
		if (rc != REF_NONE)
			return rc;
	}
	if ((rc = resolve_ref(c, "heartbeat", ext, &local)) == REF_OK)
		e->heartbeat = local;
	return rc;
}

/* Append the entries of list key to *out: objects {monitor_id | heartbeat_id,
 * name, section} (status page items) or plain external ids (monitor_ids,
 * heartbeat_ids). An entry whose monitor is not in the account is kept only
 * when it has a name. */
static enum imp_result
entries(struct imp_ctx *c, struct bag *b, json_object *norm, const char *key, struct list_entry **out,
    size_t *nout, char *why, size_t n, const char *what)
{
	json_object *arr = id_list(norm, key);
	size_t total = arr ? json_object_array_length(arr) : 0;
	bool heartbeats = strcmp(key, "heartbeat_ids") == 0;
	char ext[192];

	*out = xrealloc(*out, (*nout + (total > MAX_LIST ? MAX_LIST : total) + 1) * sizeof **out);
	for (size_t i = 0; i < total && *nout < MAX_LIST; i++) {
		json_object *it = json_object_array_get_idx(arr, i);
		struct list_entry e = { 0, 0, NULL, NULL, i };
		int rc = REF_NONE;

		if (json_object_is_type(it, json_type_object)) {
			e.name = txt(b, it, "name", 255);
			e.section = txt(b, it, "section", 255);
			if (raw_str(it, "monitor_id") != NULL)
				rc = entry_target(c, raw_str(it, "monitor_id"), false, &e);
			else if (raw_str(it, "heartbeat_id") != NULL)
				rc = entry_target(c, raw_str(it, "heartbeat_id"), true, &e);
		} else if (list_id(arr, i, ext, sizeof ext) == 0)
			rc = entry_target(c, ext, heartbeats, &e);
		if (rc < 0)
			return IMP_DB;
		if (rc == REF_PENDING)
			return defer(why, n, what);
		if (rc == REF_OK || e.name != NULL)
			(*out)[(*nout)++] = e;
	}
	return IMP_OK;
}

/* A status page that shows every monitor (its "all_monitors"): a copy of
 * norm whose entries are every monitor and heartbeat of the run, in
 * discovery order. NULL on a database error. */
static json_object *
all_checks(struct imp_ctx *c, json_object *norm)
{
	json_object *out = NULL, *items;
	char *text;
	int ok, rc = resources_checks(c->db, c->run_id, &text);

	items = rc == 1 ? jx_parse(text, strlen(text), &ok) : NULL;
	free(text);
	if (rc < 0 || json_object_deep_copy(norm, &out, NULL) != 0) {
		json_object_put(items);
		return NULL;
	}
	json_object_object_add(out, "items", items != NULL ? items : json_object_new_array());
	return out;
}

/* clang-format off */
static const char *const incident_kinds[] = { "incident", "maintenance", NULL };
static const char *const incident_statuses[] = {
	"investigating", "identified", "monitoring", "resolved", "scheduled", "in_progress", "verifying",
	"completed", "other", NULL
};
static const char *const incident_impacts[] = {
	"none", "minor", "major", "critical", "maintenance", "operational", "degraded", "downtime", "other", NULL
};
/* clang-format on */

/* One of list, else "other"; NULL when s is. */
static const char *
word_or_other(const char *s, const char *const *list)
{
	return s == NULL ? NULL : enum_or_other(s, list);
}

/* Member key (ISO 8601) as DATETIME text in UTC, kept in b; NULL when it is
 * none or before 1970 (DATETIME holds years from 1000; history starts later). */
static const char *
datetime(struct bag *b, json_object *norm, const char *key)
{
	const char *s = raw_str(norm, key);
	char iso[21];
	int64_t t;

	if (s == NULL || time_parse(s, TIME_ISO, NULL, &t) != 0 || t < 0 ||
	    time_format_iso(t, true, iso) != 0)
		return NULL;
	iso[10] = ' ';
	iso[19] = '\0';
	return bag_keep(b, xstrdup(iso));
}

/* An entry's updates as the column holds them: [{at, status, body}] (at
 * most MAX_UPDATES, the newest), each member checked; NULL when none. */
static const char *
incident_updates(struct bag *b, json_object *inc)
{
	json_object *arr = id_list(inc, "updates"), *out;
	size_t n = arr ? json_object_array_length(arr) : 0;
	const char *text;

	if (n == 0)
		return NULL;
	out = json_object_new_array();
	for (size_t i = n > MAX_UPDATES ? n - MAX_UPDATES : 0; i < n; i++) {
		json_object *u = json_object_array_get_idx(arr, i), *o = json_object_new_object();

		jx_add_str(o, "at", datetime(b, u, "at") != NULL ? raw_str(u, "at") : NULL);
		jx_add_str(o, "status", word_or_other(raw_str(u, "status"), incident_statuses));
		jx_add_str(o, "body",
		    raw_str(u, "body") != NULL ? fit(b, "incident update", raw_str(u, "body"), 4000) : NULL);
		json_object_array_add(out, o);
	}
	text = bag_keep(b, xstrdup(json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN)));
	json_object_put(out);
	return text;
}

/* An entry's affected components as the positions of the page's entries
 * (items, as written: each knows its index in the normalized list), in the
 * page's order; NULL when none of them is on the page. */
static const char *
incident_components(struct bag *b, json_object *inc, const struct list_entry *items, size_t nitems)
{
	json_object *arr = id_list(inc, "components"), *out = json_object_new_array();
	size_t n = arr ? json_object_array_length(arr) : 0;
	const char *text = NULL;

	for (size_t p = 0; p < nitems; p++)
		for (size_t i = 0; i < n; i++) {
			json_object *v = json_object_array_get_idx(arr, i);

			if (json_object_is_type(v, json_type_int) &&
			    json_object_get_int64(v) == (int64_t)items[p].item) {
				json_object_array_add(out, json_object_new_int64((int64_t)p));
				break;
			}
		}
	if (json_object_array_length(out) > 0)
		text = bag_keep(b, xstrdup(json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN)));
	json_object_put(out);
	return text;
}

/* The status page's history (its "incidents") as rows, with the entries
 * items written; *nrows of them, a new array. */
static struct sp_incident_row *
incident_rows(struct bag *b, json_object *norm, const struct list_entry *items, size_t nitems, size_t *nrows)
{
	json_object *arr = id_list(norm, "incidents");
	size_t n = arr ? json_object_array_length(arr) : 0;
	struct sp_incident_row *rows = xcalloc(n + 1, sizeof *rows);

	*nrows = 0;
	for (size_t i = 0; i < n && *nrows < MAX_INCIDENTS; i++) {
		json_object *inc = json_object_array_get_idx(arr, i);
		const char *name = raw_str(inc, "name");

		if (!json_object_is_type(inc, json_type_object))
			continue;
		rows[(*nrows)++] = (struct sp_incident_row){
			.kind =
			    strcmp(enum_or_other(raw_str(inc, "kind"), incident_kinds), "maintenance") == 0 ?
			    "maintenance" :
			    "incident",
			.name = fit(b, "incident name", name != NULL ? name : "(untitled)", 255),
			.status = word_or_other(raw_str(inc, "status"), incident_statuses),
			.impact = word_or_other(raw_str(inc, "impact"), incident_impacts),
			.starts_at = datetime(b, inc, "starts_at"),
			.ends_at = datetime(b, inc, "ends_at"),
			.scheduled_until = datetime(b, inc, "scheduled_until"),
			.updates = incident_updates(b, inc),
			.components = incident_components(b, inc, items, nitems),
		};
	}
	return rows;
}

static enum imp_result
w_status_page(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id, char *why,
    size_t n)
{
	int64_t public_ = json_object_object_get_ex(norm, "public", NULL) ? flag(norm, "public") : 1;
	struct list_entry *items = NULL;
	size_t nitems = 0;
	json_object *page = flag(norm, "all_monitors") ? all_checks(c, norm) : json_object_get(norm);
	enum imp_result r = page == NULL ?
	    IMP_DB :
	    entries(c, b, page, "items", &items, &nitems, why, n, "the status page's monitors");

	json_object_put(page);
	if (r == IMP_OK)
		r = saved(status_page_save(c->db, c->user_id, target,
		    &(struct status_page_cols){ .name = txt(b, norm, "name", 255),
		        .url = txt(b, norm, "url", 2048),
		        .public_ = public_,
		        .timezone = txt(b, norm, "timezone", 64) },
		    id));
	if (r == IMP_OK && !keeps(c, "items", target, *id))
		r = saved(status_page_items_set(c->db, *id, items, nitems));
	if (r == IMP_OK && !keeps(c, "incidents", target, *id)) {
		size_t nrows;
		struct sp_incident_row *rows = incident_rows(b, norm, items, nitems, &nrows);

		r = saved(status_page_incidents_set(c->db, *id, rows, nrows));
		free(rows);
	}
	free(items);
	return r;
}

static enum imp_result
w_window(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id, char *why,
    size_t n)
{
	struct list_entry *mons = NULL;
	size_t nmons = 0;
	enum imp_result r =
	    entries(c, b, norm, "monitor_ids", &mons, &nmons, why, n, "the maintenance window's monitors");

	if (r == IMP_OK)
		r = entries(c, b, norm, "heartbeat_ids", &mons, &nmons, why, n,
		    "the maintenance window's heartbeats");

	if (r == IMP_OK)
		r = saved(window_save(c->db, c->user_id, target,
		    &(struct window_cols){ .name = txt(b, norm, "name", 255),
		        .recurrence = enum_or_other(raw_str(norm, "recurrence"), recurrences),
		        .starts = txt(b, norm, "start", 32),
		        .ends = txt(b, norm, "end", 32),
		        .duration_min = num(norm, "duration", -1, 100000000, -1),
		        .days = json_col(b, norm, "days"),
		        .timezone = txt(b, norm, "timezone", 64),
		        .paused = flag(norm, "paused") },
		    id));
	if (r == IMP_OK)
		r = saved(window_monitors_set(c->db, *id, mons, nmons));
	free(mons);
	return r;
}

/* The components subscriber norm follows (the provider's component ids)
 * as the positions of its page's entries, in its order, into *out (a JSON
 * text kept in b; NULL: it named none, so it follows every component; "[]":
 * none of them is on the page). Each id the page does not list goes to
 * c->unmapped. The page is the run's status page page_ext: each of its
 * entries carries its component's id ("ref"), and its i-th item is its
 * entry at position i (a page with such refs names every entry, so none is
 * left out). When that page could not read its entries, an update of
 * subscriber target keeps the account's components (said in c->kept).
 * 0, or -1 on a database error. */
static int
mapped_components(struct imp_ctx *c, struct bag *b, json_object *norm, const char *page_ext, uint64_t target,
    const char **out)
{
	json_object *ids = id_list(norm, "components"), *pos, *map = NULL;
	size_t n = ids ? json_object_array_length(ids) : 0, at;
	char *text = NULL, ext[192];
	int ok, rc;

	*out = NULL;
	if (n == 0)
		return 0;
	if (target != 0 && (rc = resources_sp_items_unread(c->db, c->run_id, page_ext)) != 0) {
		if (rc < 0 || (rc = subscriber_components(c->db, c->user_id, target, &text)) < 0)
			return -1;
		*out = text != NULL ? bag_keep(b, text) : NULL;
		utf8_copy(c->kept, sizeof c->kept,
		    "its status page's components could not be read: components");
		return 0;
	}
	if ((rc = resources_sp_refs(c->db, c->run_id, page_ext,
	         json_object_to_json_string_ext(ids, JSON_C_TO_STRING_PLAIN), &text)) < 0)
		return -1;
	if (rc == 1)
		map = jx_parse(text, strlen(text), &ok);
	free(text);
	pos = json_object_new_array();
	for (size_t i = 0; i < n && i < MAX_LIST; i++) {
		int64_t found = -1;

		if (list_id(ids, i, ext, sizeof ext) != 0)
			continue;
		for (size_t k = 0; map != NULL && k < json_object_array_length(map) && found < 0; k++) {
			json_object *pair = json_object_array_get_idx(map, k);

			if (strcmp(json_object_get_string(json_object_array_get_idx(pair, 0)), ext) == 0)
				found = json_object_get_int64(json_object_array_get_idx(pair, 1));
		}
		if (found >= 0 && found < MAX_LIST)
			json_object_array_add(pos, json_object_new_int64(found));
		else if ((at = strlen(c->unmapped)) < sizeof c->unmapped - 1)
			utf8_format(c->unmapped + at, sizeof c->unmapped - at, "%s%s", at ? ", " : "", ext);
	}
	*out = bag_keep(b, xstrdup(json_object_to_json_string_ext(pos, JSON_C_TO_STRING_PLAIN)));
	json_object_put(pos);
	json_object_put(map);
	return 0;
}

static enum imp_result
w_subscriber(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id, char *why,
    size_t n)
{
	const char *components;
	uint64_t page;
	enum imp_result r = ref_or_defer(c, norm, "status_page_id", "status_page", &page, why, n,
	    "the subscriber's status page");

	if (r != IMP_OK)
		return r;
	if (page == 0) {
		snprintf(why, n, "Its status page was not imported.");
		return IMP_INVALID;
	}
	if (mapped_components(c, b, norm, raw_str(norm, "status_page_id"), target, &components) != 0)
		return IMP_DB;
	return saved(subscriber_save(c->db, c->user_id, target,
	    &(struct subscriber_cols){ .status_page_id = page,
	        .kind = enum_or_other(raw_str(norm, "kind"), subscriber_kinds),
	        .address = txt(b, norm, "address", 1024),
	        .state = txt(b, norm, "state", 16),
	        .components = components,
	        .subscribed_on = date(b, norm, "created") },
	    id));
}

static enum imp_result
w_hosting_client(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id,
    char *why, size_t n)
{
	(void)why;
	(void)n;
	return saved(hosting_client_save(c->db, c->user_id, target,
	    &(struct hosting_client_cols){ .email = txt(b, norm, "email", 255),
	        .first_name = txt(b, norm, "first_name", 255),
	        .last_name = txt(b, norm, "last_name", 255),
	        .company = txt(b, norm, "company", 255),
	        .status = txt(b, norm, "status", 32),
	        .client_since = date(b, norm, "created"),
	        .address1 = txt(b, norm, "address1", 255),
	        .address2 = txt(b, norm, "address2", 255),
	        .city = txt(b, norm, "city", 255),
	        .state = txt(b, norm, "state", 255),
	        .postcode = txt(b, norm, "postcode", 32),
	        .country = txt(b, norm, "country", 64),
	        .phone = txt(b, norm, "phone", 64),
	        .currency = currency(norm, "currency"),
	        .credit = decimal(b, norm, "credit") },
	    id));
}

static enum imp_result
w_hosting_contact(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id,
    char *why, size_t n)
{
	uint64_t client;
	enum imp_result r =
	    ref_or_defer(c, norm, "client_id", "hosting_client", &client, why, n, "the contact's client");

	if (r != IMP_OK)
		return r;
	return saved(hosting_contact_save(c->db, c->user_id, target,
	    &(struct hosting_contact_cols){ .client_id = client,
	        .first_name = txt(b, norm, "first_name", 255),
	        .last_name = txt(b, norm, "last_name", 255),
	        .company = txt(b, norm, "company", 255),
	        .email = txt(b, norm, "email", 255),
	        .phone = txt(b, norm, "phone", 64),
	        .address1 = txt(b, norm, "address1", 255),
	        .address2 = txt(b, norm, "address2", 255),
	        .city = txt(b, norm, "city", 255),
	        .state = txt(b, norm, "state", 255),
	        .postcode = txt(b, norm, "postcode", 32),
	        .country = txt(b, norm, "country", 64) },
	    id));
}

static enum imp_result
w_hosting_service(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id,
    char *why, size_t n)
{
	const char *product = txt(b, norm, "product", 255), *domain = txt(b, norm, "domain", 255);
	uint64_t client;
	enum imp_result r =
	    ref_or_defer(c, norm, "client_id", "hosting_client", &client, why, n, "the record's client");

	if (r != IMP_OK)
		return r;
	return saved(hosting_service_save(c->db, c->user_id, target,
	    &(struct hosting_service_cols){ .client_id = client,
	        .product = product ? product : "",
	        .domain = domain ? domain : "",
	        .status = txt(b, norm, "status", 32),
	        .billing_cycle = txt(b, norm, "billing_cycle", 32),
	        .amount = decimal(b, norm, "amount"),
	        .next_due = date(b, norm, "next_due"),
	        .first_amount = decimal(b, norm, "first_amount"),
	        .registered = date(b, norm, "registered"),
	        .currency = currency(norm, "currency") },
	    id));
}

static enum imp_result
w_hosting_addon(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id, char *why,
    size_t n)
{
	uint64_t client, service;
	enum imp_result r =
	    ref_or_defer(c, norm, "client_id", "hosting_client", &client, why, n, "the addon's client");

	if (r == IMP_OK)
		r = ref_or_defer(c, norm, "service_id", "hosting_service", &service, why, n,
		    "the addon's service");
	if (r != IMP_OK)
		return r;
	return saved(hosting_addon_save(c->db, c->user_id, target,
	    &(struct hosting_addon_cols){ .client_id = client,
	        .service_id = service,
	        .name = txt(b, norm, "name", 255),
	        .status = txt(b, norm, "status", 32),
	        .billing_cycle = txt(b, norm, "billing_cycle", 32),
	        .amount = decimal(b, norm, "amount"),
	        .setup_fee = decimal(b, norm, "setup_fee"),
	        .next_due = date(b, norm, "next_due"),
	        .registered = date(b, norm, "registered"),
	        .currency = currency(norm, "currency") },
	    id));
}

static enum imp_result
w_hosting_domain(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id,
    char *why, size_t n)
{
	uint64_t client;
	enum imp_result r =
	    ref_or_defer(c, norm, "client_id", "hosting_client", &client, why, n, "the record's client");

	if (r != IMP_OK)
		return r;
	return saved(hosting_domain_save(c->db, c->user_id, target,
	    &(struct hosting_domain_cols){ .client_id = client,
	        .domain = txt(b, norm, "domain", 255),
	        .registrar = txt(b, norm, "registrar", 255),
	        .status = txt(b, norm, "status", 32),
	        .expiry = date(b, norm, "expiry"),
	        .next_due = date(b, norm, "next_due"),
	        .amount = decimal(b, norm, "amount"),
	        .registered = date(b, norm, "registered"),
	        .currency = currency(norm, "currency"),
	        .period_years = num(norm, "period", -1, 100, -1),
	        .auto_renew = tri(norm, "auto_renew") },
	    id));
}

/* The invoice's lines (each at its place in the list), replaced as a whole. */
static enum imp_result
invoice_lines(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t invoice)
{
	json_object *arr = id_list(norm, "lines");
	size_t total = arr ? json_object_array_length(arr) : 0, n = 0;
	struct invoice_line *lines = xcalloc(total < MAX_LIST ? total + 1 : MAX_LIST, sizeof *lines);
	enum imp_result r;

	for (size_t i = 0; i < total && i < MAX_LIST; i++) {
		json_object *line = json_object_array_get_idx(arr, i);
		if (json_object_is_type(line, json_type_object))
			lines[n++] = (struct invoice_line){ .position = (int64_t)i,
				.description = txt(b, line, "description", 65535),
				.amount = decimal(b, line, "amount"),
				.type = txt(b, line, "type", 32),
				.relid = txt(b, line, "relid", 64),
				.taxed = flag(line, "taxed") };
	}
	r = saved(invoice_items_set(c->db, invoice, lines, n));
	free(lines);
	return r;
}

static enum imp_result
w_invoice(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id, char *why,
    size_t n)
{
	uint64_t client;
	enum imp_result r =
	    ref_or_defer(c, norm, "client_id", "hosting_client", &client, why, n, "the record's client");

	if (r != IMP_OK)
		return r;
	r = saved(invoice_save(c->db, c->user_id, target,
	    &(struct invoice_cols){ .client_id = client,
	        .number = txt(b, norm, "number", 64),
	        .invoice_date = date(b, norm, "date"),
	        .due = date(b, norm, "due"),
	        .paid_at = date(b, norm, "paid_at"),
	        .total = decimal(b, norm, "total"),
	        .currency = currency(norm, "currency"),
	        .status = txt(b, norm, "status", 32),
	        .subtotal = decimal(b, norm, "subtotal"),
	        .tax = decimal(b, norm, "tax"),
	        .tax2 = decimal(b, norm, "tax2"),
	        .credit = decimal(b, norm, "credit"),
	        .balance = decimal(b, norm, "balance"),
	        .payment_method = txt(b, norm, "payment_method", 64) },
	    id));
	return r != IMP_OK || keeps(c, "lines", target, *id) ? r : invoice_lines(c, b, norm, *id);
}

static enum imp_result
w_payment(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id, char *why,
    size_t n)
{
	uint64_t client, invoice;
	enum imp_result r =
	    ref_or_defer(c, norm, "client_id", "hosting_client", &client, why, n, "the payment's client");

	if (r == IMP_OK)
		r = ref_or_defer(c, norm, "invoice_id", "invoice", &invoice, why, n, "the payment's invoice");
	if (r != IMP_OK)
		return r;
	return saved(payment_save(c->db, c->user_id, target,
	    &(struct payment_cols){ .client_id = client,
	        .invoice_id = invoice,
	        .paid_on = date(b, norm, "date"),
	        .gateway = txt(b, norm, "gateway", 64),
	        .transaction_id = txt(b, norm, "transaction_id", 191),
	        .description = txt(b, norm, "description", 1024),
	        .amount_in = decimal(b, norm, "amount_in"),
	        .fees = decimal(b, norm, "fees"),
	        .amount_out = decimal(b, norm, "amount_out"),
	        .currency = currency(norm, "currency") },
	    id));
}

void
importer_forget(struct imp_ctx *c)
{
	free(c->before);
	free(c->link_was);
	c->before = c->link_was = NULL;
	c->written = NULL;
}

enum imp_result
importer_write(struct imp_ctx *c, const char *type, const char *external_id, json_object *norm,
    uint64_t target, uint64_t *target_id, char *why, size_t n)
{
	const struct kind *k = kind_of(type);
	struct bag b = { NULL, 0, 0, "" };
	json_object *own;
	enum imp_result r;

	*target_id = 0;
	c->kept[0] = c->unlinked[0] = c->unmapped[0] = '\0';
	if (why != NULL && n > 0)
		why[0] = '\0';
	if (importer_validate(type, norm, why, n) != 0)
		return IMP_INVALID;
	c->written = NULL;
	c->before = c->link_was = NULL;
	if (target != 0) {
		int rc = account_image(c->db, k->table, c->user_id, target, &c->before);
		if (rc == 1)
			rc = link_before(c->db, c->user_id, c->provider, type, external_id, &c->link_was);
		if (rc < 0) {
			importer_forget(c);
			return IMP_DB;
		}
	}
	if ((own = keep_unread(c, k, norm, target)) == NULL) {
		importer_forget(c);
		return IMP_DB;
	}
	r = k->write(c, &b, own, target, target_id, why, n);
	utf8_copy(c->cuts, sizeof c->cuts, r == IMP_OK ? b.cuts : "");
	if (r != IMP_OK || *target_id != target)
		c->kept[0] = '\0'; /* not written, or created anew: nothing kept */
	if (r != IMP_OK)
		c->unlinked[0] = c->unmapped[0] = '\0';
	c->unread = NULL;
	json_object_put(own);
	bag_free(&b);
	if (r != IMP_OK) {
		importer_forget(c);
		return r;
	}
	/* the target, locked by account_image, was written over; without one, a new object */
	c->written = c->before != NULL ? "updated" : "created";
	if (c->rows != NULL) {
		json_object *row = json_object_new_array_ext(4);
		json_object_array_add(row, json_object_new_string(type));
		json_object_array_add(row, json_object_new_string(external_id));
		json_object_array_add(row, json_object_new_string(k->model));
		json_object_array_add(row, json_object_new_uint64(*target_id));
		json_object_array_add(c->rows->links, row);
		return IMP_OK;
	}
	if (link_upsert(c->db, c->user_id, c->provider, type, external_id, k->model, *target_id, c->run_id) <
	    0)
		return IMP_DB;
	return IMP_OK;
}

void
importer_rows_begin(struct imp_ctx *c)
{
	c->rows = xcalloc(1, sizeof *c->rows);
	c->rows->monitors = json_object_new_array();
	c->rows->links = json_object_new_array();
	for (int t = 0; t < CONTACT_OWNERS; t++)
		c->rows->contacts[t] = json_object_new_array();
}

void
importer_rows_resolve(const struct imp_ctx *c, json_object *rows, size_t col)
{
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *row = json_object_array_get_idx(rows, i);
		uint64_t id = json_object_get_uint64(json_object_array_get_idx(row, col));

		if (id >= IMP_LATER)
			json_object_array_put_idx(row, col,
			    json_object_new_uint64(c->rows->ids[id - IMP_LATER]));
	}
}

int
importer_rows_flush(struct imp_ctx *c)
{
	struct imp_rows *k = c->rows;
	size_t n = json_object_array_length(k->monitors);

	if (n > 0) {
		k->ids = xcalloc(n, sizeof *k->ids);
		if (monitors_insert_rows(c->db, c->user_id, jx_text(k->monitors), k->ids, n) < 0)
			return -1;
		importer_rows_resolve(c, k->links, 3);
		for (int t = 0; t < CONTACT_OWNERS; t++)
			importer_rows_resolve(c, k->contacts[t], 0);
	}
	if (json_object_array_length(k->links) > 0 &&
	    links_upsert_rows(c->db, c->user_id, c->provider, c->run_id, jx_text(k->links)) < 0)
		return -1;
	for (int t = 0; t < CONTACT_OWNERS; t++)
		if (json_object_array_length(k->contacts[t]) > 0 &&
		    contact_link_rows(c->db, (enum contact_owner)t, jx_text(k->contacts[t])) < 0)
			return -1;
	return 0;
}

size_t
importer_rows_pending(const struct imp_ctx *c)
{
	size_t n = json_object_array_length(c->rows->monitors) + json_object_array_length(c->rows->links);

	for (int t = 0; t < CONTACT_OWNERS; t++)
		n += json_object_array_length(c->rows->contacts[t]);
	return n;
}

void
importer_rows_end(struct imp_ctx *c)
{
	if (c->rows == NULL)
		return;
	json_object_put(c->rows->monitors);
	free(c->rows->ids);
	json_object_put(c->rows->links);
	for (int t = 0; t < CONTACT_OWNERS; t++)
		json_object_put(c->rows->contacts[t]);
	free(c->rows);
	c->rows = NULL;
}

/* The resource kinds, in import order: each after the kinds it refers to
 * (contacts before monitors, monitors before status pages and windows,
 * clients before their records, services before addons, invoices before
 * payments). resource_type names are documented in docs/resources.md. */
#define KIND_FNS(f) .match = m_##f, .write = w_##f, .shown = f##_shown
/* clang-format off */
static const struct kind kinds[] = {
	{ .type = "contact", .model = "contacts", .noun = "contact",
	  .key_words = "type and address", .label = { "name", "value" },
	  .need = { { "name", "value" }, "The contact has neither a name nor a value." },
	  .table = ACC_CONTACTS, KIND_FNS(contact) },
	{ .type = "hosting_client", .model = "hosting_clients", .noun = "hosting client",
	  .key_words = "email address", .label = { "company", "email" },
	  .limits = { { "email", 255, "The client's email address is longer than 255 characters." } },
	  .need = { { "email" }, "The client has no email address." },
	  .table = ACC_HOSTING_CLIENTS, KIND_FNS(hosting_client) },
	{ .type = "hosting_contact", .model = "hosting_contacts", .noun = "client contact",
	  .key_words = "client and email address", .label = { "email", "last_name" },
	  .need = { { "email", "first_name", "last_name" },
	      "The client contact has neither a name nor an email address." },
	  .table = ACC_HOSTING_CONTACTS, KIND_FNS(hosting_contact) },
	{ .type = "monitor", .model = "monitors", .noun = "monitor",
	  .key_words = "type and URL", .label = { "name", "url" }, .pausable = true,
	  .limits = { { "url", 2048, "The monitor URL is longer than 2048 characters." } },
	  .need = { { "url", "name" }, "The monitor has neither a name nor a URL." },
	  .table = ACC_MONITORS, KIND_FNS(monitor) },
	{ .type = "heartbeat", .model = "heartbeats", .noun = "heartbeat",
	  .key_words = "name and ping URL", .label = { "name" }, .pausable = true,
	  .limits = { { "name", 100000, "The heartbeat's name is longer than 100000 characters." } },
	  .need = { { "name" }, "The heartbeat has no name." },
	  .table = ACC_HEARTBEATS, KIND_FNS(heartbeat) },
	{ .type = "maintenance_window", .model = "maintenance_windows", .noun = "maintenance window",
	  .key_words = "name, recurrence and start", .label = { "name" },
	  .limits = { { "start", 32, "The maintenance window's start is not a date-time or a time of day." },
	      { "name", 100000, "The maintenance window's name is longer than 100000 characters." } },
	  .need = { { "name" }, "The maintenance window has no name." },
	  .table = ACC_MAINTENANCE_WINDOWS, KIND_FNS(window) },
	{ .type = "status_page", .model = "status_pages", .noun = "status page",
	  .key_words = "name", .label = { "name", "url" },
	  .limits = { { "name", 100000, "The status page's name is longer than 100000 characters." } },
	  .need = { { "name" }, "The status page has no name." },
	  .table = ACC_STATUS_PAGES, KIND_FNS(status_page) },
	{ .type = "status_page_subscriber", .model = "status_page_subscribers", .noun = "status page subscriber",
	  .key_words = "status page, kind and address", .label = { "address" },
	  .limits = { { "status_page_id", 191, "The subscriber's status page is longer than 191 characters." } },
	  .need = { { "status_page_id" }, "The subscriber has no status page." },
	  .table = ACC_SUBSCRIBERS, KIND_FNS(subscriber) },
	{ .type = "hosting_service", .model = "hosting_services", .noun = "hosting service",
	  .key_words = "client, product and domain", .label = { "product", "domain" },
	  .need = { { "product", "domain" }, "The service has neither a product nor a domain." },
	  .table = ACC_HOSTING_SERVICES, KIND_FNS(hosting_service) },
	{ .type = "hosting_addon", .model = "hosting_addons", .noun = "addon",
	  .key_words = "client, service and name", .label = { "name" },
	  .limits = { { "name", 100000, "The addon's name is longer than 100000 characters." } },
	  .need = { { "name" }, "The addon has no name." },
	  .table = ACC_HOSTING_ADDONS, KIND_FNS(hosting_addon) },
	{ .type = "hosting_domain", .model = "hosting_domains", .noun = "domain",
	  .key_words = "domain name", .label = { "domain" },
	  .limits = { { "domain", 255, "The domain record's domain name is longer than 255 characters." } },
	  .need = { { "domain" }, "The domain record has no domain name." },
	  .table = ACC_HOSTING_DOMAINS, KIND_FNS(hosting_domain) },
	{ .type = "invoice", .model = "invoices", .noun = "invoice",
	  .key_words = "number", .label = { "number" },
	  .limits = { { "number", 64, "The invoice number is longer than 64 characters." } },
	  .need = { { "number" }, "The invoice has no number." },
	  .table = ACC_INVOICES, KIND_FNS(invoice) },
	{ .type = "payment", .model = "payments", .noun = "payment",
	  .key_words = "gateway and transaction id", .label = { "transaction_id", "description" },
	  .limits = { { "transaction_id", 191, "The payment's transaction id is longer than 191 characters." } },
	  .need = { { "transaction_id", "amount_in", "amount_out" },
	      "The payment has neither a transaction id nor an amount." },
	  .table = ACC_PAYMENTS, KIND_FNS(payment) },
};
/* clang-format on */
static const size_t nkinds = sizeof kinds / sizeof kinds[0];

static const struct kind *
kind_of(const char *type)
{
	for (size_t i = 0; type != NULL && i < nkinds; i++)
		if (strcmp(kinds[i].type, type) == 0)
			return &kinds[i];
	return NULL;
}

const char *
importer_noun(const char *type)
{
	const struct kind *k = kind_of(type);

	return k != NULL ? k->noun : type;
}

const char *
importer_type_at(size_t i)
{
	return i < nkinds ? kinds[i].type : NULL;
}

int
importer_rank(const char *type)
{
	const struct kind *k = kind_of(type);

	return k == NULL ? -1 : (int)(k - kinds);
}

const char *
importer_model(const char *type)
{
	const struct kind *k = kind_of(type);

	return k == NULL ? NULL : k->model;
}

bool
importer_table(const char *type, enum account_table *t)
{
	const struct kind *k = kind_of(type);

	if (k != NULL)
		*t = k->table;
	return k != NULL;
}

bool
importer_pausable(const char *type)
{
	const struct kind *k = kind_of(type);

	return k != NULL && k->pausable;
}
