/* Importers: one writer per resource type over the account tables, the
 * natural keys that define a conflict, and the import linkage. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonx.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "importers/importer.h"

#define MAX_LIST 1000  /* entries of a contact or monitor list we keep */

const char *const importer_order[] = {
	"contact", "hosting_client", "monitor", "heartbeat", "hosting_service", "hosting_domain",
	"invoice", "status_page", NULL
};

static const struct {
	const char *type, *model;
	enum stmt_id link;
} types[IMPORTER_TYPES] = {
	{ "contact", "contacts", ST_RN_LINK_CONTACT },
	{ "hosting_client", "hosting_clients", ST_RN_LINK_HOSTING_CLIENT },
	{ "monitor", "monitors", ST_RN_LINK_MONITOR },
	{ "heartbeat", "heartbeats", ST_RN_LINK_HEARTBEAT },
	{ "hosting_service", "hosting_services", ST_RN_LINK_HOSTING_SERVICE },
	{ "hosting_domain", "hosting_domains", ST_RN_LINK_HOSTING_DOMAIN },
	{ "invoice", "invoices", ST_RN_LINK_INVOICE },
	{ "status_page", "status_pages", ST_RN_LINK_STATUS_PAGE },
};

int
importer_rank(const char *type)
{
	for (int i = 0; type != NULL && importer_order[i] != NULL; i++)
		if (strcmp(importer_order[i], type) == 0)
			return i;
	return -1;
}

static int
type_index(const char *type)
{
	for (int i = 0; type != NULL && i < IMPORTER_TYPES; i++)
		if (strcmp(types[i].type, type) == 0)
			return i;
	return -1;
}

const char *
importer_model(const char *type)
{
	int i = type_index(type);

	return i < 0 ? NULL : types[i].model;
}

/* ---- pure helpers ---- */

size_t
imp_utf8_prefix(const char *s, size_t max_chars)
{
	size_t i = 0, chars = 0;

	while (s[i] != '\0') {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (chars == max_chars)
				break;
			chars++;
		}
		i++;
	}
	return i;
}

int
imp_date(const char *s, char out[11])
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, m, d;

	if (s == NULL || strlen(s) < 10)
		return -1;
	for (int i = 0; i < 10; i++) {
		if (i == 4 || i == 7) {
			if (s[i] != '-')
				return -1;
		} else if (!isdigit((unsigned char)s[i]))
			return -1;
	}
	/* A longer text must be an ISO date-time ("…T…" or "… …"). */
	if (s[10] != '\0' && s[10] != 'T' && s[10] != ' ')
		return -1;
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (y < 1000 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return -1;
	if (m == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return -1;
	memcpy(out, s, 10);
	out[10] = '\0';
	return 0;
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

/* Strings copied out of the JSON, freed together. */
struct bag {
	char *p[24];
	int n;
};

static const char *
bag_keep(struct bag *b, char *s)
{
	if (b->n < (int)(sizeof b->p / sizeof b->p[0]))
		b->p[b->n++] = s;
	return s;
}

static void
bag_free(struct bag *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->p[i]);
	b->n = 0;
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

/* The string value of key cut to max_chars characters, or NULL. */
static const char *
txt(struct bag *b, json_object *norm, const char *key, size_t max_chars)
{
	const char *s = raw_str(norm, key);

	if (s == NULL)
		return NULL;
	return bag_keep(b, xstrndup(s, imp_utf8_prefix(s, max_chars)));
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
		return strcmp(json_object_get_string(v), "true") == 0 || strcmp(json_object_get_string(v), "1") == 0;
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

static const char *const monitor_types[] = {
	"http", "keyword", "ping", "port", "dns", "tcp", "udp", "smtp", "pop3", "imap", "ssh", "other", NULL
};
static const char *const contact_types[] = {
	"email", "sms", "voice", "webhook", "slack", "teams", "telegram", "discord", "pagerduty",
	"opsgenie", "pushover", "push", "other", NULL
};

/* s when it is one of list, else "other". */
static const char *
enum_or_other(const char *s, const char *const *list)
{
	for (size_t i = 0; s != NULL && list[i] != NULL; i++)
		if (strcmp(list[i], s) == 0)
			return list[i];
	return "other";
}

/* ---- validation ---- */

static int
why_set(char *why, size_t n, const char *msg)
{
	snprintf(why, n, "%s", msg);
	return -1;
}

int
importer_validate(const char *type, json_object *norm, char *why, size_t n)
{
	if (importer_rank(type) < 0)
		return why_set(why, n, "This resource type is not supported by the importer.");
	if (norm == NULL || !json_object_is_type(norm, json_type_object))
		return why_set(why, n, "The provider data could not be read.");
	if (strcmp(type, "monitor") == 0) {
		if (raw_str(norm, "url") == NULL && raw_str(norm, "name") == NULL)
			return why_set(why, n, "The monitor has neither a name nor a URL.");
		if (txt_chars(norm, "url") > 2048)
			return why_set(why, n, "The monitor URL is longer than 2048 characters.");
	} else if (strcmp(type, "heartbeat") == 0) {
		if (raw_str(norm, "name") == NULL)
			return why_set(why, n, "The heartbeat has no name.");
	} else if (strcmp(type, "contact") == 0) {
		if (raw_str(norm, "name") == NULL && raw_str(norm, "value") == NULL)
			return why_set(why, n, "The contact has neither a name nor a value.");
	} else if (strcmp(type, "status_page") == 0) {
		if (raw_str(norm, "name") == NULL)
			return why_set(why, n, "The status page has no name.");
	} else if (strcmp(type, "hosting_client") == 0) {
		if (raw_str(norm, "email") == NULL)
			return why_set(why, n, "The client has no email address.");
		if (txt_chars(norm, "email") > 255)
			return why_set(why, n, "The client's email address is longer than 255 characters.");
	} else if (strcmp(type, "hosting_service") == 0) {
		if (raw_str(norm, "product") == NULL && raw_str(norm, "domain") == NULL)
			return why_set(why, n, "The service has neither a product nor a domain.");
	} else if (strcmp(type, "hosting_domain") == 0) {
		if (raw_str(norm, "domain") == NULL)
			return why_set(why, n, "The domain record has no domain name.");
		if (txt_chars(norm, "domain") > 255)
			return why_set(why, n, "The domain name is longer than 255 characters.");
	} else if (strcmp(type, "invoice") == 0) {
		if (raw_str(norm, "number") == NULL)
			return why_set(why, n, "The invoice has no number.");
		if (txt_chars(norm, "number") > 64)
			return why_set(why, n, "The invoice number is longer than 64 characters.");
	}
	return 0;
}

/* ---- lookups ---- */

/* Run a query giving at most one id. 1 with *id, 0 none, -1 error. */
static int
one_id(struct db_res *r, uint64_t *id)
{
	int rc;

	if (r == NULL)
		return -1;
	rc = db_next(r);
	if (rc == 1)
		*id = (uint64_t)db_i64(r, 0);
	db_free(r);
	return rc;
}

int
importer_find_link(struct imp_ctx *c, const char *type, const char *external_id, uint64_t *id)
{
	int i = type_index(type);

	if (i < 0)
		return 0;
	return one_id(db_query(c->db, types[i].link, "usss", c->user_id, c->provider, type, external_id), id);
}

enum ref { REF_NONE = 0, REF_OK = 1, REF_PENDING = 2 };

/* The local id of the run's resource (type, ext): its import target; while it
 * is pending, REF_PENDING (or, when planning, what it would update or conflict
 * with); else an earlier import's live target. -1 on a DB error. */
static int
resolve_ref(struct imp_ctx *c, const char *type, const char *ext, uint64_t *id)
{
	struct db_res *r;
	char status[16] = "";
	char *norm_text = NULL;
	uint64_t target = 0;
	int rc, found;

	if ((r = db_query(c->db, ST_RN_RES_REF, "sss", c->run_id, type, ext)) == NULL)
		return -1;
	found = db_next(r);
	if (found == 1) {
		snprintf(status, sizeof status, "%s", db_str(r, 0) ? db_str(r, 0) : "");
		target = (uint64_t)db_i64(r, 1);
		norm_text = db_str(r, 2) ? xstrdup(db_str(r, 2)) : NULL;
	}
	db_free(r);
	if (found < 0)
		return -1;
	if (found == 1) {
		if (strcmp(status, "imported") == 0 && target != 0) {
			free(norm_text);
			*id = target;
			return REF_OK;
		}
		if (!c->planning && (strcmp(status, "pending") == 0 || strcmp(status, "running") == 0)) {
			free(norm_text);
			return REF_PENDING;
		}
	}
	if ((rc = importer_find_link(c, type, ext, id)) != 0) {
		free(norm_text);
		return rc < 0 ? -1 : REF_OK;
	}
	/* Not imported by us: the object it conflicts with, when it was kept
	 * (resolved "skip") or when we are still planning. */
	if (found == 1 && norm_text != NULL && (c->planning || strcmp(status, "skipped") == 0)) {
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

/* The local hosting client of a record's client_id, or 0. -1 error, 2 pending. */
static int
client_ref(struct imp_ctx *c, json_object *norm, uint64_t *client)
{
	char ext[192];
	json_object *v;

	*client = 0;
	if (!json_object_object_get_ex(norm, "client_id", &v) || v == NULL)
		return REF_NONE;
	if (json_object_is_type(v, json_type_string))
		snprintf(ext, sizeof ext, "%s", json_object_get_string(v));
	else if (json_object_is_type(v, json_type_int))
		snprintf(ext, sizeof ext, "%lld", (long long)json_object_get_int64(v));
	else
		return REF_NONE;
	if (ext[0] == '\0')
		return REF_NONE;
	return resolve_ref(c, "hosting_client", ext, client);
}

int
importer_find_conflict(struct imp_ctx *c, const char *type, json_object *norm, uint64_t *id)
{
	struct db *db = c->db;
	struct bag b = { .n = 0 };
	int rc = 0;

	if (strcmp(type, "monitor") == 0) {
		const char *url = txt(&b, norm, "url", 2048);
		rc = one_id(db_query(db, ST_ACC_MONITOR_NATURAL, "uss", c->user_id,
		    enum_or_other(raw_str(norm, "type"), monitor_types), url ? url : ""), id);
	} else if (strcmp(type, "contact") == 0) {
		const char *value = txt(&b, norm, "value", 1024), *name = txt(&b, norm, "name", 255);
		rc = one_id(db_query(db, ST_ACC_CONTACT_NATURAL, "usssss", c->user_id,
		    enum_or_other(raw_str(norm, "type"), contact_types), value, value, value,
		    name ? name : ""), id);
	} else if (strcmp(type, "heartbeat") == 0) {
		rc = one_id(db_query(db, ST_ACC_HEARTBEAT_NATURAL, "us", c->user_id,
		    txt(&b, norm, "name", 255)), id);
	} else if (strcmp(type, "status_page") == 0) {
		rc = one_id(db_query(db, ST_ACC_STATUS_PAGE_NATURAL, "us", c->user_id,
		    txt(&b, norm, "name", 255)), id);
	} else if (strcmp(type, "hosting_client") == 0) {
		rc = one_id(db_query(db, ST_ACC_HOSTING_CLIENT_NATURAL, "us", c->user_id,
		    txt(&b, norm, "email", 255)), id);
	} else if (strcmp(type, "hosting_domain") == 0) {
		rc = one_id(db_query(db, ST_ACC_HOSTING_DOMAIN_NATURAL, "us", c->user_id,
		    txt(&b, norm, "domain", 255)), id);
	} else if (strcmp(type, "invoice") == 0) {
		rc = one_id(db_query(db, ST_ACC_INVOICE_NATURAL, "us", c->user_id,
		    txt(&b, norm, "number", 64)), id);
	} else if (strcmp(type, "hosting_service") == 0) {
		const char *product = txt(&b, norm, "product", 255), *domain = txt(&b, norm, "domain", 255);
		uint64_t client = 0;
		int cr = client_ref(c, norm, &client);
		if (cr < 0)
			rc = -1;
		else if (cr == REF_PENDING)
			rc = 0; /* the client is new in this run: nothing to conflict with */
		else if (client != 0)
			rc = one_id(db_query(db, ST_ACC_HOSTING_SERVICE_NATURAL, "uuss", c->user_id, client,
			    product ? product : "", domain ? domain : ""), id);
		else
			rc = one_id(db_query(db, ST_ACC_HOSTING_SERVICE_NATURAL, "unss", c->user_id,
			    product ? product : "", domain ? domain : ""), id);
	}
	bag_free(&b);
	return rc;
}

/* ---- writers ---- */

/* After an UPDATE: -1 error, 0 the target is gone (create instead), 1 updated. */
static int
updated(int64_t n)
{
	return n < 0 ? -1 : n > 0;
}

/* Contacts of a monitor or heartbeat: local ids of contact_ids into ids (at
 * most MAX_LIST). REF_PENDING when one of them is not imported yet. */
static int
contact_list(struct imp_ctx *c, json_object *norm, uint64_t *ids, size_t *nids)
{
	json_object *arr = id_list(norm, "contact_ids");
	size_t n = arr ? json_object_array_length(arr) : 0;
	char ext[192];

	*nids = 0;
	for (size_t i = 0; i < n && *nids < MAX_LIST; i++) {
		uint64_t id;
		int rc;
		if (list_id(arr, i, ext, sizeof ext) != 0)
			continue;
		if ((rc = resolve_ref(c, "contact", ext, &id)) < 0 || rc == REF_PENDING)
			return rc;
		if (rc == REF_OK) {
			bool dup = false;
			for (size_t k = 0; k < *nids; k++)
				dup |= ids[k] == id;
			if (!dup)
				ids[(*nids)++] = id;
		}
	}
	return 0;
}

static enum imp_result
defer(char *why, size_t n, const char *what)
{
	snprintf(why, n, "Waiting for %s of this run to be imported first.", what);
	return IMP_DEFER;
}

static enum imp_result
w_contact(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id)
{
	const char *type = enum_or_other(raw_str(norm, "type"), contact_types);
	const char *value = txt(b, norm, "value", 1024), *name = txt(b, norm, "name", 255);

	if (name == NULL)
		name = bag_keep(b, xstrndup(value, imp_utf8_prefix(value, 255)));
	if (target != 0) {
		int u = updated(db_exec(c->db, ST_ACC_CONTACT_UPDATE, "sssuu", name, type, value, target,
		    c->user_id));
		if (u < 0)
			return IMP_DB;
		if (u > 0) {
			*id = target;
			return IMP_OK;
		}
	}
	if (db_exec(c->db, ST_ACC_CONTACT_INSERT, "usss", c->user_id, name, type, value) < 0)
		return IMP_DB;
	*id = db_insert_id(c->db);
	return IMP_OK;
}

static enum imp_result
w_monitor(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id,
    char *why, size_t n)
{
	const char *type = enum_or_other(raw_str(norm, "type"), monitor_types);
	const char *url = txt(b, norm, "url", 2048), *name = txt(b, norm, "name", 255);
	const char *keyword = txt(b, norm, "keyword", 1024);
	int64_t interval = num(norm, "interval", 0, 100000000, 300), port = num(norm, "port", -1, 65535, -1);
	int64_t paused = flag(norm, "paused");
	uint64_t contacts[MAX_LIST];
	size_t ncontacts;
	int rc;

	if ((rc = contact_list(c, norm, contacts, &ncontacts)) < 0)
		return IMP_DB;
	if (rc == REF_PENDING)
		return defer(why, n, "the monitor's contacts");
	if (url == NULL)
		url = "";
	if (name == NULL)
		name = bag_keep(b, xstrndup(url, imp_utf8_prefix(url, 255)));
	*id = 0;
	if (target != 0) {
		int u = updated(db_exec(c->db, ST_ACC_MONITOR_UPDATE, "sssiiIsuu", name, type, url,
		    interval, paused, port, keyword, target, c->user_id));
		if (u < 0)
			return IMP_DB;
		if (u > 0)
			*id = target;
	}
	if (*id == 0) {
		int64_t r = db_exec(c->db, ST_ACC_MONITOR_INSERT, "usssiiIs", c->user_id, name, type, url,
		    interval, paused, port, keyword);
		if (r < 0)
			return IMP_DB;
		*id = db_insert_id(c->db);
	}
	if (db_exec(c->db, ST_ACC_MONITOR_CONTACTS_CLEAR, "u", *id) < 0)
		return IMP_DB;
	for (size_t i = 0; i < ncontacts; i++)
		if (db_exec(c->db, ST_ACC_MONITOR_CONTACT_ADD, "uu", *id, contacts[i]) < 0)
			return IMP_DB;
	return IMP_OK;
}

static enum imp_result
w_heartbeat(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id,
    char *why, size_t n)
{
	const char *name = txt(b, norm, "name", 255), *ping = txt(b, norm, "ping_url", 2048);
	const char *schedule = txt(b, norm, "schedule", 255);
	int64_t interval = num(norm, "interval", 0, 100000000, 0), grace = num(norm, "grace", 0, 100000000, 0);
	int64_t paused = flag(norm, "paused");
	uint64_t contacts[MAX_LIST];
	size_t ncontacts;
	int rc;

	if ((rc = contact_list(c, norm, contacts, &ncontacts)) < 0)
		return IMP_DB;
	if (rc == REF_PENDING)
		return defer(why, n, "the heartbeat's contacts");
	*id = 0;
	if (target != 0) {
		int u = updated(db_exec(c->db, ST_ACC_HEARTBEAT_UPDATE, "siiissuu", name, interval, grace,
		    paused, ping, schedule, target, c->user_id));
		if (u < 0)
			return IMP_DB;
		if (u > 0)
			*id = target;
	}
	if (*id == 0) {
		if (db_exec(c->db, ST_ACC_HEARTBEAT_INSERT, "usiiiss", c->user_id, name, interval, grace,
		        paused, ping, schedule) < 0)
			return IMP_DB;
		*id = db_insert_id(c->db);
	}
	if (db_exec(c->db, ST_ACC_HEARTBEAT_CONTACTS_CLEAR, "u", *id) < 0)
		return IMP_DB;
	for (size_t i = 0; i < ncontacts; i++)
		if (db_exec(c->db, ST_ACC_HEARTBEAT_CONTACT_ADD, "uu", *id, contacts[i]) < 0)
			return IMP_DB;
	return IMP_OK;
}

struct page_item {
	uint64_t id;
	bool heartbeat;
};

static enum imp_result
w_status_page(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id,
    char *why, size_t n)
{
	const char *name = txt(b, norm, "name", 255), *url = txt(b, norm, "url", 2048);
	int64_t public_ = json_object_object_get_ex(norm, "public", NULL) ? flag(norm, "public") : 1;
	json_object *arr = id_list(norm, "monitor_ids");
	size_t total = arr ? json_object_array_length(arr) : 0, nitems = 0;
	struct page_item *items = xcalloc(total > MAX_LIST ? MAX_LIST : total + 1, sizeof *items);
	enum imp_result res = IMP_DB;
	char ext[192];

	/* Map each listed monitor (or heartbeat) to its local object first. */
	for (size_t i = 0; i < total && nitems < MAX_LIST; i++) {
		uint64_t local;
		int rc;
		if (list_id(arr, i, ext, sizeof ext) != 0)
			continue;
		if ((rc = resolve_ref(c, "monitor", ext, &local)) < 0)
			goto out;
		if (rc == REF_OK) {
			items[nitems++] = (struct page_item){ local, false };
			continue;
		}
		if (rc == REF_PENDING) {
			res = defer(why, n, "the status page's monitors");
			goto out;
		}
		if ((rc = resolve_ref(c, "heartbeat", ext, &local)) < 0)
			goto out;
		if (rc == REF_PENDING) {
			res = defer(why, n, "the status page's monitors");
			goto out;
		}
		if (rc == REF_OK)
			items[nitems++] = (struct page_item){ local, true };
	}
	*id = 0;
	if (target != 0) {
		int u = updated(db_exec(c->db, ST_ACC_STATUS_PAGE_UPDATE, "ssiuu", name, url, public_, target,
		    c->user_id));
		if (u < 0)
			goto out;
		if (u > 0)
			*id = target;
	}
	if (*id == 0) {
		if (db_exec(c->db, ST_ACC_STATUS_PAGE_INSERT, "ussi", c->user_id, name, url, public_) < 0)
			goto out;
		*id = db_insert_id(c->db);
	}
	if (db_exec(c->db, ST_ACC_STATUS_PAGE_ITEMS_CLEAR, "u", *id) < 0)
		goto out;
	for (size_t i = 0; i < nitems; i++) {
		int64_t r = db_exec(c->db, ST_ACC_STATUS_PAGE_ITEM_ADD, "uiUU", *id, (int64_t)i,
		    items[i].heartbeat ? (uint64_t)0 : items[i].id, items[i].heartbeat ? items[i].id : (uint64_t)0);
		if (r < 0)
			goto out;
	}
	res = IMP_OK;
out:
	free(items);
	return res;
}

static enum imp_result
w_hosting_client(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id)
{
	const char *email = txt(b, norm, "email", 255), *first = txt(b, norm, "first_name", 255);
	const char *last = txt(b, norm, "last_name", 255), *company = txt(b, norm, "company", 255);
	const char *status = txt(b, norm, "status", 32), *created = date(b, norm, "created");

	if (target != 0) {
		int u = updated(db_exec(c->db, ST_ACC_HOSTING_CLIENT_UPDATE, "ssssssuu", email, first, last,
		    company, status, created, target, c->user_id));
		if (u < 0)
			return IMP_DB;
		if (u > 0) {
			*id = target;
			return IMP_OK;
		}
	}
	if (db_exec(c->db, ST_ACC_HOSTING_CLIENT_INSERT, "ussssss", c->user_id, email, first, last,
	        company, status, created) < 0)
		return IMP_DB;
	*id = db_insert_id(c->db);
	return IMP_OK;
}

/* The client of a billing record: its local id (0 = none). */
static enum imp_result
record_client(struct imp_ctx *c, json_object *norm, uint64_t *client, char *why, size_t n)
{
	int rc = client_ref(c, norm, client);

	if (rc < 0)
		return IMP_DB;
	if (rc == REF_PENDING)
		return defer(why, n, "the record's client");
	if (rc != REF_OK)
		*client = 0;
	return IMP_OK;
}

static enum imp_result
w_hosting_service(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id,
    char *why, size_t n)
{
	const char *product = txt(b, norm, "product", 255), *domain = txt(b, norm, "domain", 255);
	const char *status = txt(b, norm, "status", 32), *cycle = txt(b, norm, "billing_cycle", 32);
	const char *amount = decimal(b, norm, "amount"), *due = date(b, norm, "next_due");
	uint64_t client;
	enum imp_result r;

	if ((r = record_client(c, norm, &client, why, n)) != IMP_OK)
		return r;
	if (product == NULL)
		product = "";
	if (domain == NULL)
		domain = "";
	*id = 0;
	if (target != 0) {
		int u = updated(db_exec(c->db, ST_ACC_HOSTING_SERVICE_UPDATE, "Ussssssuu", client, product,
		    domain, status, cycle, amount, due, target, c->user_id));
		if (u < 0)
			return IMP_DB;
		if (u > 0)
			*id = target;
	}
	if (*id == 0) {
		int64_t x = db_exec(c->db, ST_ACC_HOSTING_SERVICE_INSERT, "uUssssss", c->user_id, client,
		    product, domain, status, cycle, amount, due);
		if (x < 0)
			return IMP_DB;
		*id = db_insert_id(c->db);
	}
	return IMP_OK;
}

static enum imp_result
w_hosting_domain(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id,
    char *why, size_t n)
{
	const char *domain = txt(b, norm, "domain", 255), *registrar = txt(b, norm, "registrar", 255);
	const char *status = txt(b, norm, "status", 32), *expiry = date(b, norm, "expiry");
	const char *due = date(b, norm, "next_due"), *amount = decimal(b, norm, "amount");
	uint64_t client;
	enum imp_result r;

	if ((r = record_client(c, norm, &client, why, n)) != IMP_OK)
		return r;
	*id = 0;
	if (target != 0) {
		int u = updated(db_exec(c->db, ST_ACC_HOSTING_DOMAIN_UPDATE, "Ussssssuu", client, domain,
		    registrar, status, expiry, due, amount, target, c->user_id));
		if (u < 0)
			return IMP_DB;
		if (u > 0)
			*id = target;
	}
	if (*id == 0) {
		int64_t x = db_exec(c->db, ST_ACC_HOSTING_DOMAIN_INSERT, "uUssssss", c->user_id, client,
		    domain, registrar, status, expiry, due, amount);
		if (x < 0)
			return IMP_DB;
		*id = db_insert_id(c->db);
	}
	return IMP_OK;
}

static enum imp_result
w_invoice(struct imp_ctx *c, struct bag *b, json_object *norm, uint64_t target, uint64_t *id,
    char *why, size_t n)
{
	const char *number = txt(b, norm, "number", 64), *idate = date(b, norm, "date");
	const char *due = date(b, norm, "due"), *paid = date(b, norm, "paid_at");
	const char *total = decimal(b, norm, "total"), *currency = txt(b, norm, "currency", 8);
	const char *status = txt(b, norm, "status", 32);
	uint64_t client;
	enum imp_result r;

	if ((r = record_client(c, norm, &client, why, n)) != IMP_OK)
		return r;
	*id = 0;
	if (target != 0) {
		int u = updated(db_exec(c->db, ST_ACC_INVOICE_UPDATE, "Usssssssuu", client, number, idate,
		    due, paid, total, currency, status, target, c->user_id));
		if (u < 0)
			return IMP_DB;
		if (u > 0)
			*id = target;
	}
	if (*id == 0) {
		int64_t x = db_exec(c->db, ST_ACC_INVOICE_INSERT, "uUsssssss", c->user_id, client, number,
		    idate, due, paid, total, currency, status);
		if (x < 0)
			return IMP_DB;
		*id = db_insert_id(c->db);
	}
	return IMP_OK;
}

enum imp_result
importer_write(struct imp_ctx *c, const char *type, const char *external_id, json_object *norm,
    uint64_t target, uint64_t *target_id, char *why, size_t n)
{
	struct bag b = { .n = 0 };
	enum imp_result r;
	int i = type_index(type);

	*target_id = 0;
	if (why != NULL && n > 0)
		why[0] = '\0';
	if (i < 0 || importer_validate(type, norm, why, n) != 0) {
		if (i < 0)
			snprintf(why, n, "This resource type is not supported by the importer.");
		return IMP_INVALID;
	}
	if (strcmp(type, "contact") == 0)
		r = w_contact(c, &b, norm, target, target_id);
	else if (strcmp(type, "monitor") == 0)
		r = w_monitor(c, &b, norm, target, target_id, why, n);
	else if (strcmp(type, "heartbeat") == 0)
		r = w_heartbeat(c, &b, norm, target, target_id, why, n);
	else if (strcmp(type, "status_page") == 0)
		r = w_status_page(c, &b, norm, target, target_id, why, n);
	else if (strcmp(type, "hosting_client") == 0)
		r = w_hosting_client(c, &b, norm, target, target_id);
	else if (strcmp(type, "hosting_service") == 0)
		r = w_hosting_service(c, &b, norm, target, target_id, why, n);
	else if (strcmp(type, "hosting_domain") == 0)
		r = w_hosting_domain(c, &b, norm, target, target_id, why, n);
	else
		r = w_invoice(c, &b, norm, target, target_id, why, n);
	bag_free(&b);
	if (r != IMP_OK)
		return r;
	if (db_exec(c->db, ST_RN_LINK_UPSERT, "ussssus", c->user_id, c->provider, type, external_id,
	        types[i].model, *target_id, c->run_id) < 0)
		return IMP_DB;
	return IMP_OK;
}
