#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/url.h"
#include "core/util.h"
#include "core/xalloc.h"
#include "db/account.h"

/* The statements of each account table: the link lookup, "has the user any",
 * how a person knows one, (has_current) the object as an import's
 * normalized keys, and its image for a revert: lock one and read its image,
 * lock a batch and read their images' hashes, put an image back, delete a
 * batch. */
#define REVERT_STMTS(NAME) \
	.lock = ST_RV_##NAME##_LOCK, .hashes = ST_RV_##NAME##_HASHES, .restore = ST_RV_##NAME##_RESTORE, \
	.del = ST_RV_##NAME##_DELETE
static const struct {
	enum stmt_id link, any, label, current;
	bool has_current;
	enum stmt_id lock, hashes, restore, del;
} tables[] = {
	[ACC_CONTACTS] = { ST_RN_LINK_CONTACT, ST_ACC_CONTACT_ANY, ST_ACC_CONTACT_LABEL,
	    REVERT_STMTS(CONTACT) },
	[ACC_MONITORS] = { ST_RN_LINK_MONITOR, ST_ACC_MONITOR_ANY, ST_ACC_MONITOR_LABEL,
	    ST_ACC_MONITOR_CURRENT, true, REVERT_STMTS(MONITOR) },
	[ACC_HEARTBEATS] = { ST_RN_LINK_HEARTBEAT, ST_ACC_HEARTBEAT_ANY, ST_ACC_HEARTBEAT_LABEL,
	    ST_ACC_HEARTBEAT_CURRENT, true, REVERT_STMTS(HEARTBEAT) },
	[ACC_STATUS_PAGES] = { ST_RN_LINK_STATUS_PAGE, ST_ACC_STATUS_PAGE_ANY, ST_ACC_STATUS_PAGE_LABEL,
	    REVERT_STMTS(STATUS_PAGE) },
	[ACC_MAINTENANCE_WINDOWS] = { ST_RN_LINK_MAINTENANCE_WINDOW, ST_ACC_WINDOW_ANY, ST_ACC_WINDOW_LABEL,
	    REVERT_STMTS(WINDOW) },
	[ACC_SUBSCRIBERS] = { ST_RN_LINK_SUBSCRIBER, ST_ACC_SUBSCRIBER_ANY, ST_ACC_SUBSCRIBER_LABEL,
	    REVERT_STMTS(SUBSCRIBER) },
	[ACC_HOSTING_CLIENTS] = { ST_RN_LINK_HOSTING_CLIENT, ST_ACC_HOSTING_CLIENT_ANY,
	    ST_ACC_HOSTING_CLIENT_LABEL, ST_ACC_HOSTING_CLIENT_CURRENT, true, REVERT_STMTS(HOSTING_CLIENT) },
	[ACC_HOSTING_CONTACTS] = { ST_RN_LINK_HOSTING_CONTACT, ST_ACC_HOSTING_CONTACT_ANY,
	    ST_ACC_HOSTING_CONTACT_LABEL, REVERT_STMTS(HOSTING_CONTACT) },
	[ACC_HOSTING_SERVICES] = { ST_RN_LINK_HOSTING_SERVICE, ST_ACC_HOSTING_SERVICE_ANY,
	    ST_ACC_HOSTING_SERVICE_LABEL, ST_ACC_HOSTING_SERVICE_CURRENT, true,
	    REVERT_STMTS(HOSTING_SERVICE) },
	[ACC_HOSTING_ADDONS] = { ST_RN_LINK_HOSTING_ADDON, ST_ACC_HOSTING_ADDON_ANY,
	    ST_ACC_HOSTING_ADDON_LABEL, ST_ACC_HOSTING_ADDON_CURRENT, true, REVERT_STMTS(HOSTING_ADDON) },
	[ACC_HOSTING_DOMAINS] = { ST_RN_LINK_HOSTING_DOMAIN, ST_ACC_HOSTING_DOMAIN_ANY,
	    ST_ACC_HOSTING_DOMAIN_LABEL, ST_ACC_HOSTING_DOMAIN_CURRENT, true, REVERT_STMTS(HOSTING_DOMAIN) },
	[ACC_INVOICES] = { ST_RN_LINK_INVOICE, ST_ACC_INVOICE_ANY, ST_ACC_INVOICE_LABEL,
	    ST_ACC_INVOICE_CURRENT, true, REVERT_STMTS(INVOICE) },
	[ACC_PAYMENTS] = { ST_RN_LINK_PAYMENT, ST_ACC_PAYMENT_ANY, ST_ACC_PAYMENT_LABEL,
	    ST_ACC_PAYMENT_CURRENT, true, REVERT_STMTS(PAYMENT) },
};

/* The lists an image carries: cleared with the importer's statement, then
 * filled from the image. */
static const struct {
	enum account_table table;
	enum stmt_id clear, fill;
} image_lists[] = {
	{ ACC_MONITORS, ST_ACC_MONITOR_CONTACTS_CLEAR, ST_RV_MONITOR_CONTACTS_FILL },
	{ ACC_HEARTBEATS, ST_ACC_HEARTBEAT_CONTACTS_CLEAR, ST_RV_HEARTBEAT_CONTACTS_FILL },
	{ ACC_STATUS_PAGES, ST_ACC_STATUS_PAGE_ITEMS_CLEAR, ST_RV_STATUS_PAGE_ITEMS_FILL },
	{ ACC_STATUS_PAGES, ST_ACC_STATUS_PAGE_INCIDENTS_CLEAR, ST_RV_STATUS_PAGE_INCIDENTS_FILL },
	{ ACC_MAINTENANCE_WINDOWS, ST_ACC_WINDOW_MONITORS_CLEAR, ST_RV_WINDOW_MONITORS_FILL },
	{ ACC_INVOICES, ST_ACC_INVOICE_ITEMS_CLEAR, ST_RV_INVOICE_ITEMS_FILL },
};

/* The tables of contact links: clear an object's, add one, add a batch's. */
static const struct {
	enum stmt_id clear, add, add_rows;
} contact_tables[CONTACT_OWNERS] = {
	[CONTACTS_OF_MONITOR] = { ST_ACC_MONITOR_CONTACTS_CLEAR, ST_ACC_MONITOR_CONTACT_ADD,
	    ST_ACC_MONITOR_CONTACT_ROWS },
	[CONTACTS_OF_HEARTBEAT] = { ST_ACC_HEARTBEAT_CONTACTS_CLEAR, ST_ACC_HEARTBEAT_CONTACT_ADD,
	    ST_ACC_HEARTBEAT_CONTACT_ROWS },
};

/* The first row's id of lookup r (NULL: the query failed), which it frees.
 * 1 with *id, 0 none, -1 error. */
static int
first_id(struct db_res *r, uint64_t *id)
{
	int rc;

	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1)
		*id = (uint64_t)db_i64(r, 0);
	db_free(r);
	return rc;
}

/* The first row's text of lookup r (NULL: the query failed), which it frees,
 * into *text (the caller frees; NULL when none). 1, 0 none, -1 error. */
static int
first_text(struct db_res *r, char **text)
{
	int rc;

	*text = NULL;
	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1 && db_str(r, 0) != NULL)
		*text = xstrdup(db_str(r, 0));
	db_free(r);
	return rc < 0 ? -1 : *text != NULL;
}

int
link_find(struct db *db, enum account_table t, uint64_t user, const char *provider, const char *type,
    const char *external_id, uint64_t *id)
{
	return first_id(db_query(db, tables[t].link, "usss", user, provider, type, external_id), id);
}

int
links_any_in_range(struct db *db, uint64_t user, const char *provider, const char *run_id, const char *type,
    uint64_t after, uint64_t last)
{
	int64_t one;
	int rc = db_scalar(db, &one, ST_RN_LINK_ANY_OF_TYPE, "uss", user, provider, type);

	if (rc != 1)
		return rc;
	return db_scalar(db, &one, ST_RN_LINK_ANY_OF_RANGE, "usssuu", user, provider, run_id, type, after,
	    last);
}

int
account_has_any(struct db *db, enum account_table t, uint64_t user)
{
	int64_t one;

	return db_scalar(db, &one, tables[t].any, "u", user);
}

int
account_label(struct db *db, enum account_table t, uint64_t user, uint64_t id, char *name, size_t name_n,
    char *detail, size_t detail_n)
{
	struct db_res *r = db_query(db, tables[t].label, "uu", id, user);
	int rc;

	name[0] = detail[0] = '\0';
	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1) {
		utf8_copy(name, name_n, db_str(r, 0) ? db_str(r, 0) : "");
		utf8_copy(detail, detail_n, db_str(r, 1) ? db_str(r, 1) : "");
	}
	db_free(r);
	return rc;
}

int
account_current(struct db *db, enum account_table t, uint64_t user, uint64_t id, char **json)
{
	*json = NULL;
	if (!tables[t].has_current)
		return 0;
	return first_text(db_query(db, tables[t].current, "uu", id, user), json);
}

int64_t
link_upsert(struct db *db, uint64_t user, const char *provider, const char *type, const char *external_id,
    const char *model, uint64_t target, const char *run_id)
{
	return db_exec(db, ST_RN_LINK_UPSERT, "ussssus", user, provider, type, external_id, model, target,
	    run_id);
}

int64_t
links_upsert_rows(struct db *db, uint64_t user, const char *provider, const char *run_id, const char *rows)
{
	return db_exec(db, ST_RN_LINK_UPSERT_ROWS, "usss", user, provider, run_id, rows);
}

int
link_origin(struct db *db, const char *model, uint64_t id, uint64_t user_id, char *origin, size_t n)
{
	struct db_res *r = db_query(db, ST_RN_LINK_ORIGIN, "suu", model, id, user_id);
	int rc;

	origin[0] = '\0';
	if (r == NULL)
		return -1;
	if ((rc = db_next(r)) == 1)
		snprintf(origin, n, "%s", db_str(r, 0) ? db_str(r, 0) : "");
	db_free(r);
	return rc < 0 ? -1 : 0;
}

int
contact_find(struct db *db, uint64_t user, const char *type, const char *value, const char *name,
    uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_CONTACT_NATURAL, "usssss", user, type, value, value, value, name),
	    id);
}

/* The LIKE pattern (escape character '!') of the texts that start with
 * prefix up to its first character that is not ASCII, letter case aside:
 * utf8mb4_unicode_ci, the collation of monitors.url, equates the ASCII
 * letters of either case (and U+0130 and U+212A, which url_lower makes i and
 * k) but not every pair that url_lower does (U+023A and U+2C65, Georgian,
 * Cherokee, Deseret...), so what follows is left to the comparison of keys. */
static char *
like_prefix(const char *prefix)
{
	char *out = xmalloc(2 * strlen(prefix) + 2), *o = out;

	for (const char *p = prefix; *p != '\0' && (unsigned char)*p < 0x80; p++) {
		if (*p == '!' || *p == '%' || *p == '_')
			*o++ = '!';
		*o++ = *p;
	}
	*o++ = '%';
	*o = '\0';
	return out;
}

int
monitor_find(struct db *db, uint64_t user, const char *type, const char *url, int64_t port, uint64_t *id)
{
	char *prefix, *key = url_key(url, port, &prefix), *like = like_prefix(prefix);
	struct db_res *r = db_query(db, ST_ACC_MONITOR_NATURAL, "uss", user, type, like);
	int rc = -1;

	free(prefix);
	free(like);
	while (r != NULL && (rc = db_next(r)) == 1) {
		const char *u = db_str(r, 1);
		char *k = url_key(u != NULL ? u : "", db_str(r, 2) != NULL ? db_i64(r, 2) : -1, NULL);
		bool same = strcmp(k, key) == 0;

		free(k);
		if (same) {
			*id = (uint64_t)db_i64(r, 0);
			break;
		}
	}
	db_free(r);
	free(key);
	return rc;
}

int
heartbeat_find(struct db *db, uint64_t user, const char *name, const char *ping_url, uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_HEARTBEAT_NATURAL, "uss", user, name, ping_url), id);
}

int
status_page_find(struct db *db, uint64_t user, const char *name, uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_STATUS_PAGE_NATURAL, "us", user, name), id);
}

int
window_find(struct db *db, uint64_t user, const char *name, const char *recurrence, const char *starts,
    uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_WINDOW_NATURAL, "usss", user, name, recurrence, starts), id);
}

int
subscriber_find(struct db *db, uint64_t user, uint64_t status_page, const char *kind, const char *address,
    uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_SUBSCRIBER_NATURAL, "uuss", user, status_page, kind, address),
	    id);
}

int
hosting_client_find(struct db *db, uint64_t user, const char *email, uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_HOSTING_CLIENT_NATURAL, "us", user, email), id);
}

int
hosting_contact_find(struct db *db, uint64_t user, uint64_t client, const char *email, uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_HOSTING_CONTACT_NATURAL, "uUs", user, client, email), id);
}

int
hosting_service_find(struct db *db, uint64_t user, uint64_t client, const char *product, const char *domain,
    uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_HOSTING_SERVICE_NATURAL, "uUss", user, client, product, domain),
	    id);
}

int
hosting_addon_find(struct db *db, uint64_t user, uint64_t client, uint64_t service, const char *name,
    uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_HOSTING_ADDON_NATURAL, "uUUs", user, client, service, name), id);
}

int
hosting_domain_find(struct db *db, uint64_t user, const char *domain, uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_HOSTING_DOMAIN_NATURAL, "us", user, domain), id);
}

int
invoice_find(struct db *db, uint64_t user, const char *number, uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_INVOICE_NATURAL, "us", user, number), id);
}

int
payment_find(struct db *db, uint64_t user, const char *gateway, const char *transaction_id, uint64_t *id)
{
	return first_id(db_query(db, ST_ACC_PAYMENT_NATURAL, "uss", user, gateway, transaction_id), id);
}

/* UPDATE target (the values, then target and user) when it is set and still
 * there, else INSERT (the values, then user): the two statements of a table
 * take the same values in the same order, described by types. */
static int
save(struct db *db, enum stmt_id update, enum stmt_id insert, uint64_t user, uint64_t target, uint64_t *id,
    const char *types, ...)
{
	uint64_t tail[2] = { target, user };
	va_list ap;
	int64_t r;

	*id = 0;
	if (target != 0) {
		va_start(ap, types);
		r = db_vexec_tail(db, update, types, ap, tail, 2);
		va_end(ap);
		if (r < 0)
			return -1;
		if (r > 0) {
			*id = target;
			return 0;
		}
	}
	va_start(ap, types);
	r = db_vexec_tail(db, insert, types, ap, tail + 1, 1);
	va_end(ap);
	if (r < 0)
		return -1;
	*id = db_insert_id(db);
	return 0;
}

int
contact_save(struct db *db, uint64_t user, uint64_t target, const struct contact_cols *v, uint64_t *id)
{
	return save(db, ST_ACC_CONTACT_UPDATE, ST_ACC_CONTACT_INSERT, user, target, id, "sssi", v->name,
	    v->type, v->value, v->needs_address);
}

/* A monitor's values as monitor_save binds them, in the order of MONITOR_VALUES (sql_runner.def). */
#define MONITOR_ARGS(v) \
	"sssiiIssIsssssIIIIssIIIIsssssss", v->name, v->type, v->url, v->interval_s, v->paused, v->port, \
	    v->keyword, v->keyword_up_when, v->keyword_case_sensitive, v->http_method, v->request_body, \
	    v->request_headers, v->expected_status_codes, v->alert_status_codes, v->timeout_s, \
	    v->follow_redirects, v->verify_ssl, v->ssl_expiry_days, v->regions, v->tags, \
	    v->alert_after_checks, v->alert_after_s, v->recovery_s, v->realert_s, v->muted_until, \
	    v->dns_record_type, v->dns_expected, v->dns_nameserver, v->assertions, v->auth_username, \
	    v->auth_password_sealed

int
monitor_save(struct db *db, uint64_t user, uint64_t target, const struct monitor_cols *v, uint64_t *id)
{
	return save(db, ST_ACC_MONITOR_UPDATE, ST_ACC_MONITOR_INSERT, user, target, id, MONITOR_ARGS(v));
}

static json_object *
row_of(const char *types, ...)
{
	json_object *row;
	va_list ap;

	va_start(ap, types);
	row = db_vrow(types, ap);
	va_end(ap);
	return row;
}

json_object *
monitor_row(const struct monitor_cols *v)
{
	return row_of(MONITOR_ARGS(v));
}

int
monitors_insert_rows(struct db *db, uint64_t user, const char *rows, uint64_t *ids, size_t n)
{
	struct db_res *res = db_query(db, ST_ACC_MONITOR_INSERT_ROWS, "us", user, rows);
	size_t got = 0;
	int rc;

	if (res == NULL)
		return -1;
	while ((rc = db_next(res)) == 1 && got < n)
		ids[got++] = (uint64_t)db_i64(res, 0);
	db_free(res);
	return rc == 0 && got == n ? 0 : -1;
}

int
heartbeat_save(struct db *db, uint64_t user, uint64_t target, const struct heartbeat_cols *v, uint64_t *id)
{
	return save(db, ST_ACC_HEARTBEAT_UPDATE, ST_ACC_HEARTBEAT_INSERT, user, target, id, "siiissssI",
	    v->name, v->interval_s, v->grace_s, v->paused, v->ping_url, v->schedule, v->timezone, v->tags,
	    v->realert_s);
}

int
status_page_save(struct db *db, uint64_t user, uint64_t target, const struct status_page_cols *v,
    uint64_t *id)
{
	return save(db, ST_ACC_STATUS_PAGE_UPDATE, ST_ACC_STATUS_PAGE_INSERT, user, target, id, "ssis",
	    v->name, v->url, v->public_, v->timezone);
}

int
window_save(struct db *db, uint64_t user, uint64_t target, const struct window_cols *v, uint64_t *id)
{
	return save(db, ST_ACC_WINDOW_UPDATE, ST_ACC_WINDOW_INSERT, user, target, id, "ssssIssi", v->name,
	    v->recurrence, v->starts, v->ends, v->duration_min, v->days, v->timezone, v->paused);
}

int
subscriber_save(struct db *db, uint64_t user, uint64_t target, const struct subscriber_cols *v, uint64_t *id)
{
	return save(db, ST_ACC_SUBSCRIBER_UPDATE, ST_ACC_SUBSCRIBER_INSERT, user, target, id, "Usssss",
	    v->status_page_id, v->kind, v->address, v->state, v->components, v->subscribed_on);
}

int
hosting_client_save(struct db *db, uint64_t user, uint64_t target, const struct hosting_client_cols *v,
    uint64_t *id)
{
	return save(db, ST_ACC_HOSTING_CLIENT_UPDATE, ST_ACC_HOSTING_CLIENT_INSERT, user, target, id,
	    "sssssssssssssss", v->email, v->first_name, v->last_name, v->company, v->status, v->client_since,
	    v->address1, v->address2, v->city, v->state, v->postcode, v->country, v->phone, v->currency,
	    v->credit);
}

int
hosting_contact_save(struct db *db, uint64_t user, uint64_t target, const struct hosting_contact_cols *v,
    uint64_t *id)
{
	return save(db, ST_ACC_HOSTING_CONTACT_UPDATE, ST_ACC_HOSTING_CONTACT_INSERT, user, target, id,
	    "Usssssssssss", v->client_id, v->first_name, v->last_name, v->company, v->email, v->phone,
	    v->address1, v->address2, v->city, v->state, v->postcode, v->country);
}

int
hosting_service_save(struct db *db, uint64_t user, uint64_t target, const struct hosting_service_cols *v,
    uint64_t *id)
{
	return save(db, ST_ACC_HOSTING_SERVICE_UPDATE, ST_ACC_HOSTING_SERVICE_INSERT, user, target, id,
	    "Usssssssss", v->client_id, v->product, v->domain, v->status, v->billing_cycle, v->amount,
	    v->next_due, v->first_amount, v->registered, v->currency);
}

int
hosting_addon_save(struct db *db, uint64_t user, uint64_t target, const struct hosting_addon_cols *v,
    uint64_t *id)
{
	return save(db, ST_ACC_HOSTING_ADDON_UPDATE, ST_ACC_HOSTING_ADDON_INSERT, user, target, id,
	    "UUssssssss", v->client_id, v->service_id, v->name, v->status, v->billing_cycle, v->amount,
	    v->setup_fee, v->next_due, v->registered, v->currency);
}

int
hosting_domain_save(struct db *db, uint64_t user, uint64_t target, const struct hosting_domain_cols *v,
    uint64_t *id)
{
	return save(db, ST_ACC_HOSTING_DOMAIN_UPDATE, ST_ACC_HOSTING_DOMAIN_INSERT, user, target, id,
	    "UssssssssII", v->client_id, v->domain, v->registrar, v->status, v->expiry, v->next_due,
	    v->amount, v->registered, v->currency, v->period_years, v->auto_renew);
}

int
invoice_save(struct db *db, uint64_t user, uint64_t target, const struct invoice_cols *v, uint64_t *id)
{
	return save(db, ST_ACC_INVOICE_UPDATE, ST_ACC_INVOICE_INSERT, user, target, id, "Usssssssssssss",
	    v->client_id, v->number, v->invoice_date, v->due, v->paid_at, v->total, v->currency, v->status,
	    v->subtotal, v->tax, v->tax2, v->credit, v->balance, v->payment_method);
}

int
payment_save(struct db *db, uint64_t user, uint64_t target, const struct payment_cols *v, uint64_t *id)
{
	return save(db, ST_ACC_PAYMENT_UPDATE, ST_ACC_PAYMENT_INSERT, user, target, id, "UUssssssss",
	    v->client_id, v->invoice_id, v->paid_on, v->gateway, v->transaction_id, v->description,
	    v->amount_in, v->fees, v->amount_out, v->currency);
}

int64_t
contacts_clear(struct db *db, enum contact_owner o, uint64_t id)
{
	return db_exec(db, contact_tables[o].clear, "u", id);
}

int64_t
contact_link(struct db *db, enum contact_owner o, uint64_t id, const struct contact_link *l)
{
	return db_exec(db, contact_tables[o].add, "uuII", id, l->contact, l->delay_s, l->repeat_s);
}

int64_t
contact_link_rows(struct db *db, enum contact_owner o, const char *rows)
{
	return db_exec(db, contact_tables[o].add_rows, "s", rows);
}

int
status_page_items_set(struct db *db, uint64_t page, const struct list_entry *e, size_t n)
{
	if (db_exec(db, ST_ACC_STATUS_PAGE_ITEMS_CLEAR, "u", page) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (db_exec(db, ST_ACC_STATUS_PAGE_ITEM_ADD, "uiUUss", page, (int64_t)i, e[i].monitor,
		        e[i].heartbeat, e[i].name, e[i].section) < 0)
			return -1;
	return 0;
}

int
subscriber_components(struct db *db, uint64_t user, uint64_t id, char **json)
{
	return first_text(db_query(db, ST_ACC_SUBSCRIBER_COMPONENTS, "uu", id, user), json);
}

int
status_page_incidents_set(struct db *db, uint64_t page, const struct sp_incident_row *r, size_t n)
{
	if (db_exec(db, ST_ACC_STATUS_PAGE_INCIDENTS_CLEAR, "u", page) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (db_exec(db, ST_ACC_STATUS_PAGE_INCIDENT_ADD, "uisssssssss", page, (int64_t)i, r[i].kind,
		        r[i].name, r[i].status, r[i].impact, r[i].starts_at, r[i].ends_at,
		        r[i].scheduled_until, r[i].updates, r[i].components) < 0)
			return -1;
	return 0;
}

int
window_monitors_set(struct db *db, uint64_t window, const struct list_entry *e, size_t n)
{
	if (db_exec(db, ST_ACC_WINDOW_MONITORS_CLEAR, "u", window) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (db_exec(db, ST_ACC_WINDOW_MONITOR_ADD, "uiUU", window, (int64_t)i, e[i].monitor,
		        e[i].heartbeat) < 0)
			return -1;
	return 0;
}

int
invoice_items_set(struct db *db, uint64_t invoice, const struct invoice_line *l, size_t n)
{
	if (db_exec(db, ST_ACC_INVOICE_ITEMS_CLEAR, "u", invoice) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (db_exec(db, ST_ACC_INVOICE_ITEM_ADD, "uissssi", invoice, l[i].position, l[i].description,
		        l[i].amount, l[i].type, l[i].relid, l[i].taxed) < 0)
			return -1;
	return 0;
}

/* ---- revert ---- */

int
account_image(struct db *db, enum account_table t, uint64_t user, uint64_t id, char **image)
{
	return first_text(db_query(db, tables[t].lock, "uu", id, user), image);
}

int
account_restore(struct db *db, enum account_table t, uint64_t user, uint64_t id, const char *image)
{
	if (db_exec(db, tables[t].restore, "suu", image, id, user) < 0)
		return -1;
	for (size_t i = 0; i < sizeof image_lists / sizeof image_lists[0]; i++)
		if (image_lists[i].table == t &&
		    (db_exec(db, image_lists[i].clear, "u", id) < 0 ||
		        db_exec(db, image_lists[i].fill, "us", id, image) < 0))
			return -1;
	return 0;
}

/* Each row (id, text) of r (NULL: the query failed) to fn; r is freed. 0 or -1. */
static int
id_text_rows(struct db_res *r, void (*fn)(uint64_t id, const char *text, void *), void *arg)
{
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = db_next(r)) == 1)
		fn((uint64_t)db_i64(r, 0), db_str(r, 1) ? db_str(r, 1) : "", arg);
	db_free(r);
	return rc < 0 ? -1 : 0;
}

int
account_hashes(struct db *db, enum account_table t, uint64_t user, const char *ids,
    void (*fn)(uint64_t id, const char *hash, void *), void *arg)
{
	return id_text_rows(db_query(db, tables[t].hashes, "su", ids, user), fn, arg);
}

int64_t
account_delete_ids(struct db *db, enum account_table t, uint64_t user, const char *ids)
{
	return db_exec(db, tables[t].del, "su", ids, user);
}

int
link_before(struct db *db, uint64_t user, const char *provider, const char *type, const char *external_id,
    char **json)
{
	return first_text(db_query(db, ST_RV_LINK_BEFORE, "usss", user, provider, type, external_id), json);
}

int64_t
link_put_back(struct db *db, uint64_t user, const char *provider, const char *type, const char *external_id,
    const char *run_id, const char *before)
{
	if (before == NULL)
		return db_exec(db, ST_RV_LINK_DROP, "ussss", user, provider, type, external_id, run_id);
	return db_exec(db, ST_RV_LINK_PUT_BACK, "sussss", before, user, provider, type, external_id, run_id);
}

int64_t
links_drop(struct db *db, uint64_t user, const char *provider, const char *type, const char *run_id,
    const char *external_ids)
{
	return db_exec(db, ST_RV_LINKS_DROP, "susss", external_ids, user, provider, type, run_id);
}

int
links_later(struct db *db, const char *model, uint64_t user, const char *run_id, const char *rows,
    void (*fn)(uint64_t id, const char *run, void *), void *arg)
{
	return id_text_rows(db_query(db, ST_RV_LINKS_LATER, "ssus", rows, model, user, run_id), fn, arg);
}
