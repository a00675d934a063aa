/* The importer's reads and writes of the account tables (sql/002_account.sql,
 * sql/004_fidelity.sql) and of import_links (sql_runner.def, "import linkage"
 * and "account tables"): each function runs its statements and returns what
 * they found or changed, so that the importer names no statement and binds
 * no value itself.
 *
 * In the column structs a string NULL stores SQL NULL, an id 0 stores NULL
 * (no referenced object) and a field marked "-1: NULL" stores NULL when
 * negative. A save updates row target of user (target 0: none) when it is
 * there, else inserts a new row; *id is the row written. Saves and the list
 * setters return 0, lookups 1 found (with *id) or 0 none, single writes the
 * rows they changed; all -1 on a database error. */
#ifndef MIGRATOR_DB_ACCOUNT_H
#define MIGRATOR_DB_ACCOUNT_H
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

/* The account tables an import writes. */
enum account_table {
	ACC_CONTACTS,
	ACC_MONITORS,
	ACC_HEARTBEATS,
	ACC_STATUS_PAGES,
	ACC_MAINTENANCE_WINDOWS,
	ACC_SUBSCRIBERS,
	ACC_HOSTING_CLIENTS,
	ACC_HOSTING_CONTACTS,
	ACC_HOSTING_SERVICES,
	ACC_HOSTING_ADDONS,
	ACC_HOSTING_DOMAINS,
	ACC_INVOICES,
	ACC_PAYMENTS,
};

/* ---- import linkage ---- */

/* The live target in table of an earlier import of (type, external id) by
 * user from provider (a link whose target row is gone is ignored). */
int link_find(struct db *, enum account_table, uint64_t user, const char *provider, const char *type,
    const char *external_id, uint64_t *id);
/* 1 when an import link of user and provider matches one of the run's
 * resources of type with ids in (after, last], 0 when none, -1. */
int links_any_in_range(struct db *, uint64_t user, const char *provider, const char *run_id, const char *type,
    uint64_t after, uint64_t last);
/* 1 when user has any row in table, 0 when none, -1. */
int account_has_any(struct db *, enum account_table, uint64_t user);
/* How a person knows object id of the user in table t: its name (a client's
 * company or name, an invoice's number, ...) into name[name_n] and what else
 * tells it apart (URL, address, ...; "" when nothing) into detail[detail_n],
 * both cut on a character boundary. 1, 0 when it is gone, -1 on error. */
int account_label(struct db *, enum account_table t, uint64_t user, uint64_t id, char *name, size_t name_n,
    char *detail, size_t detail_n);
/* The object id of the user in table t as the normalized keys an import of
 * it carries (providers/common.h), a JSON text the caller frees in *json: for
 * the values an update keeps when the run could not read them. Monitors,
 * heartbeats, hosting clients, services, addons, domains, invoices and
 * payments (no other kind has a key an adapter marks unread); 0 for other
 * tables and when the object is gone, 1, or -1 on error. */
int account_current(struct db *, enum account_table t, uint64_t user, uint64_t id, char **json);
/* Point the link (user, provider, type, external id) at (model, target), made by run_id. */
int64_t link_upsert(struct db *, uint64_t user, const char *provider, const char *type,
    const char *external_id, const char *model, uint64_t target, const char *run_id);
/* The same for a batch: rows is one JSON array [[type, external id, model, target], ...]. */
int64_t links_upsert_rows(struct db *, uint64_t user, const char *provider, const char *run_id,
    const char *rows);
/* The provider an account object (model, id) of the user was last imported
 * from, into origin[n] ("" when none). 0 or -1. */
int link_origin(struct db *, const char *model, uint64_t id, uint64_t user_id, char *origin, size_t n);

/* ---- natural keys: an object of the user with the same key, whoever created it ---- */

/* value NULL: a contact without value matches by name. */
int contact_find(struct db *, uint64_t user, const char *type, const char *value, const char *name,
    uint64_t *id);
/* The first monitor of the type whose address has the natural key of url and
 * port (url_key in core/url.h; port -1: none), compared among those whose URL
 * starts with the key's prefix (a range of an index). */
int monitor_find(struct db *, uint64_t user, const char *type, const char *url, int64_t port, uint64_t *id);
int heartbeat_find(struct db *, uint64_t user, const char *name, const char *ping_url, uint64_t *id);
int status_page_find(struct db *, uint64_t user, const char *name, uint64_t *id);
int window_find(struct db *, uint64_t user, const char *name, const char *recurrence, const char *starts,
    uint64_t *id);
int subscriber_find(struct db *, uint64_t user, uint64_t status_page, const char *kind, const char *address,
    uint64_t *id);
int hosting_client_find(struct db *, uint64_t user, const char *email, uint64_t *id);
int hosting_contact_find(struct db *, uint64_t user, uint64_t client, const char *email, uint64_t *id);
int hosting_service_find(struct db *, uint64_t user, uint64_t client, const char *product, const char *domain,
    uint64_t *id);
int hosting_addon_find(struct db *, uint64_t user, uint64_t client, uint64_t service, const char *name,
    uint64_t *id);
int hosting_domain_find(struct db *, uint64_t user, const char *domain, uint64_t *id);
int invoice_find(struct db *, uint64_t user, const char *number, uint64_t *id);
int payment_find(struct db *, uint64_t user, const char *gateway, const char *transaction_id, uint64_t *id);

/* ---- rows ---- */

struct contact_cols {
	const char *name, *type, *value;
	int64_t needs_address;
};
int contact_save(struct db *, uint64_t user, uint64_t target, const struct contact_cols *, uint64_t *id);

struct monitor_cols {
	const char *name, *type, *url;
	int64_t interval_s, paused;
	int64_t port; /* -1: NULL */
	const char *keyword, *keyword_up_when;
	int64_t keyword_case_sensitive; /* -1: NULL */
	const char *http_method, *request_body, *request_headers, *expected_status_codes, *alert_status_codes;
	int64_t timeout_s, follow_redirects, verify_ssl, ssl_expiry_days; /* -1: NULL */
	const char *regions, *tags;
	int64_t alert_after_checks, alert_after_s, recovery_s, realert_s; /* -1: NULL */
	const char *muted_until;                                          /* "YYYY-MM-DD HH:MM:SS" UTC */
	const char *dns_record_type, *dns_expected, *dns_nameserver, *assertions;
	const char *auth_username, *auth_password_sealed;
};
int monitor_save(struct db *, uint64_t user, uint64_t target, const struct monitor_cols *, uint64_t *id);
/* A new monitor's values as one row of monitors_insert_rows. */
json_object *monitor_row(const struct monitor_cols *);
/* Insert the new monitors of user in rows (a JSON array of monitor_row), their ids into ids[n] in
 * the rows' order. 0, or -1 on a database error or when the rows were not n. */
int monitors_insert_rows(struct db *, uint64_t user, const char *rows, uint64_t *ids, size_t n);

struct heartbeat_cols {
	const char *name;
	int64_t interval_s, grace_s, paused;
	const char *ping_url, *schedule, *timezone, *tags;
	int64_t realert_s; /* -1: NULL */
};
int heartbeat_save(struct db *, uint64_t user, uint64_t target, const struct heartbeat_cols *, uint64_t *id);

struct status_page_cols {
	const char *name, *url;
	int64_t public_;
	const char *timezone;
};
int status_page_save(struct db *, uint64_t user, uint64_t target, const struct status_page_cols *,
    uint64_t *id);

struct window_cols {
	const char *name, *recurrence, *starts, *ends;
	int64_t duration_min; /* -1: NULL */
	const char *days, *timezone;
	int64_t paused;
};
int window_save(struct db *, uint64_t user, uint64_t target, const struct window_cols *, uint64_t *id);

struct subscriber_cols {
	uint64_t status_page_id;
	const char *kind, *address, *state, *components, *subscribed_on;
};
int subscriber_save(struct db *, uint64_t user, uint64_t target, const struct subscriber_cols *,
    uint64_t *id);

struct hosting_client_cols {
	const char *email, *first_name, *last_name, *company, *status, *client_since, *address1, *address2,
	    *city, *state, *postcode, *country, *phone, *currency, *credit;
};
int hosting_client_save(struct db *, uint64_t user, uint64_t target, const struct hosting_client_cols *,
    uint64_t *id);

struct hosting_contact_cols {
	uint64_t client_id;
	const char *first_name, *last_name, *company, *email, *phone, *address1, *address2, *city, *state,
	    *postcode, *country;
};
int hosting_contact_save(struct db *, uint64_t user, uint64_t target, const struct hosting_contact_cols *,
    uint64_t *id);

struct hosting_service_cols {
	uint64_t client_id;
	const char *product, *domain, *status, *billing_cycle, *amount, *next_due, *first_amount, *registered,
	    *currency;
};
int hosting_service_save(struct db *, uint64_t user, uint64_t target, const struct hosting_service_cols *,
    uint64_t *id);

struct hosting_addon_cols {
	uint64_t client_id, service_id;
	const char *name, *status, *billing_cycle, *amount, *setup_fee, *next_due, *registered, *currency;
};
int hosting_addon_save(struct db *, uint64_t user, uint64_t target, const struct hosting_addon_cols *,
    uint64_t *id);

struct hosting_domain_cols {
	uint64_t client_id;
	const char *domain, *registrar, *status, *expiry, *next_due, *amount, *registered, *currency;
	int64_t period_years, auto_renew; /* -1: NULL */
};
int hosting_domain_save(struct db *, uint64_t user, uint64_t target, const struct hosting_domain_cols *,
    uint64_t *id);

struct invoice_cols {
	uint64_t client_id;
	const char *number, *invoice_date, *due, *paid_at, *total, *currency, *status, *subtotal, *tax, *tax2,
	    *credit, *balance, *payment_method;
};
int invoice_save(struct db *, uint64_t user, uint64_t target, const struct invoice_cols *, uint64_t *id);

struct payment_cols {
	uint64_t client_id, invoice_id;
	const char *paid_on, *gateway, *transaction_id, *description, *amount_in, *fees, *amount_out,
	    *currency;
};
int payment_save(struct db *, uint64_t user, uint64_t target, const struct payment_cols *, uint64_t *id);

/* ---- lists of a row, replaced as a whole ---- */

/* The objects with a contact list (monitor_contacts, heartbeat_contacts). */
enum contact_owner { CONTACTS_OF_MONITOR, CONTACTS_OF_HEARTBEAT, CONTACT_OWNERS };
/* Drop every contact link of object id. */
int64_t contacts_clear(struct db *, enum contact_owner, uint64_t id);
/* An alert link: the contact, alerted once down delay_s seconds and again
 * every repeat_s seconds (-1: NULL, at once and once). */
struct contact_link {
	uint64_t contact;
	int64_t delay_s, repeat_s;
};
/* Link a contact to object id (a link already there stays as it is). */
int64_t contact_link(struct db *, enum contact_owner, uint64_t id, const struct contact_link *);
/* The same for a batch: rows is one JSON array [[object id, contact id,
 * delay_s, repeat_s], ...]. */
int64_t contact_link_rows(struct db *, enum contact_owner, const char *rows);

/* An entry of a status page or maintenance window: a monitor or a heartbeat
 * of the account (both 0 for an entry without one), with its name and
 * section (NULL: none; a maintenance window keeps neither). */
struct list_entry {
	uint64_t monitor, heartbeat;
	const char *name, *section;
	size_t item; /* its index in the normalized list it came from */
};
/* The status page's entries, in order. */
int status_page_items_set(struct db *, uint64_t page, const struct list_entry *, size_t n);
/* One entry of a status page's history (sql/018): times are DATETIME text
 * (UTC) or NULL, updates and components JSON text or NULL. */
struct sp_incident_row {
	const char *kind, *name, *status, *impact;
	const char *starts_at, *ends_at, *scheduled_until;
	const char *updates, *components;
};
/* The components (JSON text, the caller frees; NULL: none) of subscriber id
 * of user. 1, 0 (no such subscriber, or NULL), -1 error. */
int subscriber_components(struct db *, uint64_t user, uint64_t id, char **json);
/* The status page's history, in order (newest first). */
int status_page_incidents_set(struct db *, uint64_t page, const struct sp_incident_row *, size_t n);
/* The maintenance window's monitors and heartbeats, in order. */
int window_monitors_set(struct db *, uint64_t window, const struct list_entry *, size_t n);

/* An invoice line at position; amount is DECIMAL(14,2) text or NULL. */
struct invoice_line {
	int64_t position;
	const char *description, *amount, *type, *relid;
	int64_t taxed;
};
/* The invoice's lines. */
int invoice_items_set(struct db *, uint64_t invoice, const struct invoice_line *, size_t n);

/* ---- revert (design §4): an object's image (sql_runner.def, IMAGE_OF) ---- */

/* Object id of the user in table t, locked: its image into *image (the
 * caller frees). 1, 0 when it is gone, -1 on error. */
int account_image(struct db *, enum account_table t, uint64_t user, uint64_t id, char **image);
/* Put image back into object id: its columns and lists. 0 or -1. */
int account_restore(struct db *, enum account_table t, uint64_t user, uint64_t id, const char *image);
/* The objects of ids (a JSON array of ids) of the user in table t, locked:
 * fn gets each one there with its image's SHA-256 in hex. 0 or -1. */
int account_hashes(struct db *, enum account_table t, uint64_t user, const char *ids,
    void (*fn)(uint64_t id, const char *hash, void *), void *arg);
/* Delete the objects of ids (a JSON array) of the user in table t (their
 * lists, and the entries and links that name them, go with them). The rows
 * deleted, or -1. */
int64_t account_delete_ids(struct db *, enum account_table t, uint64_t user, const char *ids);
/* The import link of (user, provider, type, external id), locked, as JSON
 * {"model","target","run","at"} into *json (the caller frees). 1, 0 none, -1. */
int link_before(struct db *, uint64_t user, const char *provider, const char *type, const char *external_id,
    char **json);
/* The link the run made for (user, provider, type, external id) as it was
 * before (link_before's JSON; NULL: none, so it goes), when the run is still
 * the one that last wrote it. The rows changed, or -1. */
int64_t link_put_back(struct db *, uint64_t user, const char *provider, const char *type,
    const char *external_id, const char *run_id, const char *before);
/* The links the run made for the external ids of type (a JSON array) of
 * user and provider, gone. The rows deleted, or -1. */
int64_t links_drop(struct db *, uint64_t user, const char *provider, const char *type, const char *run_id,
    const char *external_ids);
/* The objects of model among rows (a JSON array [[id, written_at], ...])
 * that another run than run_id imported after written_at: fn gets each with
 * that run. 0 or -1. */
int links_later(struct db *, const char *model, uint64_t user, const char *run_id, const char *rows,
    void (*fn)(uint64_t id, const char *run, void *), void *arg);

#endif
