/* Helpers shared by the provider adapters (see src/providers/README.md):
 * tolerant JSON readers, builders for the normalized objects of provider.h,
 * checkpoint cursors, error texts scrubbed of credentials, and the request
 * step that applies the session's timeout and URL guard. */
#ifndef MIGRATOR_PROV_COMMON_H
#define MIGRATOR_PROV_COMMON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/datetime.h"
#include "providers/httpc.h"
#include "providers/provider.h"

#define PROV_MAX_ITEMS       10000 /* items per page; more are dropped with a warning */
#define PROV_MAX_WARNINGS    100   /* warnings per page */
#define PROV_MAX_STR         4096  /* longest string taken from a provider */
#define PROV_MAX_CURSOR      256
#define PROV_DEFAULT_TIMEOUT 20

/* ---- reading provider JSON (all tolerate a NULL object) ---- */

/* The member key of o when present and not JSON null; borrowed. */
json_object *prov_get(json_object *o, const char *key);
/* The member as an array / object, else NULL. */
json_object *prov_get_array(json_object *o, const char *key);
json_object *prov_get_object(json_object *o, const char *key);
/* v as an integer: a JSON integer, an integral double within +-9e15, or a
 * string holding a whole decimal integer ("80"; " 80", "1e3", "1.0" are
 * refused). A JSON integer json-c may have saturated (INT64_MIN, INT64_MAX:
 * it stores any larger number as one of them) and a string out of int64's
 * range are refused too, so no value is silently wrapped or clamped. Returns
 * true with *out. */
bool prov_json_int(json_object *v, int64_t *out);
/* prov_json_int on member key. */
bool prov_get_int(json_object *o, const char *key, int64_t *out);
/* prov_json_int of member key, and only when min <= value <= max: the one
 * way an adapter takes a number it computes with (a sum, a product, a time). */
bool prov_get_int_in(json_object *o, const char *key, int64_t min, int64_t max, int64_t *out);
/* Member key as an integer, or dflt when absent, null, "" or not a number. */
int64_t prov_int_or(json_object *o, const char *key, int64_t dflt);
/* Member key as an integer within min..max, else dflt. */
int64_t prov_int_in_or(json_object *o, const char *key, int64_t min, int64_t max, int64_t dflt);
/* Member key as a time (seconds since 1970): a string time_parse reads as
 * one of forms (a wall clock in zone, NULL: UTC), or with TIME_EPOCH also a
 * JSON number prov_json_int takes, from 0 to TIME_MAX. True with *out. */
bool prov_get_time(json_object *o, const char *key, unsigned forms, const struct tz *zone, int64_t *out);
/* The IANA zone name that the times of what "label" are read in (tz_load;
 * the caller tz_frees it), or NULL (UTC): name NULL, or no zone, which is
 * warned on page. */
struct tz *prov_zone_load(const char *name, struct prov_page *page, const char *what, const char *label);
/* Member key as a string of at most max bytes (valid UTF-8 by construction),
 * else NULL (absent, null, another type, too long). Borrowed. */
const char *prov_get_str(json_object *o, const char *key, size_t max);
/* The same, but "" (or only spaces) also gives NULL. */
const char *prov_get_text(json_object *o, const char *key, size_t max);
/* Member as a bool: true/false, 0/1, "true"/"false"/"1"/"0"; else dflt. */
bool prov_get_bool(json_object *o, const char *key, bool dflt);
/* An identifier: a non-empty string (printable, no control characters) or an
 * integer, written into buf. Returns 0, or -1 when absent, malformed or too
 * long for buf. */
int prov_json_id(json_object *v, char *buf, size_t size);
int prov_get_id(json_object *o, const char *key, char *buf, size_t size);
/* A new JSON array of id strings from arr: its elements may be strings,
 * integers or objects carrying the id in member subkey (NULL: no objects).
 * Elements that are none of these are skipped. arr may be NULL (empty). */
json_object *prov_id_list(json_object *arr, const char *subkey);

/* ---- normalized objects (provider.h); every key is written ---- */

/* A yes/no that a provider may leave unsaid: unset is written as null. */
enum prov_tri { PROV_UNSET = 0, PROV_NO, PROV_YES };

/* json_object * members are taken over by the builder (NULL: empty). */
struct prov_monitor {
	const char *name, *url, *type; /* type: one of the normalized monitor types */
	int64_t interval;              /* seconds */
	bool paused;
	int64_t port;                /* < 0: null */
	const char *keyword;         /* NULL: null */
	const char *keyword_up_when; /* "present" | "absent"; NULL with a keyword: "present" */
	enum prov_tri keyword_case_sensitive;
	const char *http_method;      /* upper case: GET HEAD POST PUT PATCH DELETE OPTIONS; NULL: null */
	const char *request_body;     /* NULL: null */
	json_object *request_headers; /* object name -> string value */
	json_object *expected_status_codes; /* array of strings: codes that count as up */
	json_object *alert_status_codes;    /* array of strings: codes that count as down */
	int64_t timeout;                    /* seconds; <= 0: null */
	enum prov_tri follow_redirects, verify_ssl;
	int64_t ssl_expiry_days;  /* alert this many days before the certificate expires; <= 0: null */
	json_object *regions;     /* array of strings, the provider's region/location names */
	json_object *tags;        /* array of strings */
	json_object *contact_ids; /* array of external contact ids */
	/* alert timing (sql/017_alerting.sql); <= 0: null */
	int64_t alert_after_checks, alert_after_s, recovery_s, realert_s;
	const char *muted_until;     /* ISO 8601 UTC date-time, or NULL */
	json_object *contact_timing; /* prov_contact_timing(): per alert link */
	const char *dns_record_type; /* upper case (A, AAAA, CNAME, MX, NS, TXT, ...), or NULL */
	json_object *dns_expected;   /* array of strings: answers that count as up */
	const char *dns_nameserver;  /* NULL: the system's resolver */
	json_object *assertions;     /* array of prov_assertion() objects */
	const char *auth_username;   /* basic auth, or NULL */
	const char *auth_password;   /* sealed by discovery before it is stored (prov_seal_keys) */
};
struct prov_heartbeat {
	const char *name;
	int64_t interval, grace; /* seconds */
	bool paused;
	const char *ping_url, *schedule; /* NULL: null */
	const char *timezone;            /* IANA name the schedule is read in; NULL: null */
	json_object *tags;
	json_object *contact_ids;
	int64_t realert_s;           /* while late, alert again every this many seconds; <= 0: null */
	json_object *contact_timing; /* prov_contact_timing(): per alert link */
};
struct prov_contact {
	const char *name, *type, *value; /* value NULL: null */
	bool needs_address;              /* the provider does not reveal the address: the user must add it */
};
struct prov_status_page {
	const char *name, *url; /* url NULL: null */
	const char *timezone;
	bool public_;
	bool all_monitors;        /* it shows every monitor of the account (UptimeRobot v2 "monitors": 0):
	                           * its entries are then every monitor and heartbeat the run imports */
	json_object *items;       /* array of prov_sp_item() objects, in the page's order */
	json_object *monitor_ids; /* shorthand: each id becomes an item after items */
	json_object *incidents;   /* array of prov_sp_incident() objects, newest first */
};
/* A status page's incident or maintenance (its history). Times are seconds
 * since 1970; < 0: null. */
#define PROV_SP_MAX_INCIDENTS 50   /* a page's newest incidents and maintenances kept; more: warned */
#define PROV_SP_MAX_UPDATES   50   /* an incident's newest updates kept; more: warned */
#define PROV_SP_MAX_BODY      4000 /* characters of an update's text kept, cut on a character boundary */
struct prov_sp_incident {
	const char *kind;   /* incident | maintenance */
	const char *name;   /* NULL: "(untitled)" */
	const char *status; /* the provider's status word (already checked), or NULL */
	const char *impact; /* how bad (already checked), or NULL */
	int64_t starts_at, ends_at, scheduled_until;
	json_object *updates;    /* prov_sp_update() objects, oldest first; taken over (NULL: []) */
	json_object *components; /* indexes into the page's items of the entries it affects; taken over */
};
struct prov_maintenance_window {
	const char *name;
	const char *recurrence; /* once | daily | weekly | monthly | other */
	const char *start;      /* ISO 8601 date-time (once, or the first occurrence) or "HH:MM" */
	const char *end;        /* ISO 8601 date-time or NULL */
	int64_t duration;       /* minutes; <= 0: null */
	json_object *days;      /* array of integers: weekdays 1 = Monday .. 7, or days of the month */
	const char *timezone;   /* IANA name; NULL: null (UTC or the account's zone) */
	bool paused;
	json_object *monitor_ids;   /* external ids of the run's monitors (or heartbeats, where the
	                                 * provider numbers both alike) it silences */
	json_object *heartbeat_ids; /* external ids of the run's heartbeats it silences */
};
struct prov_subscriber {
	const char *status_page_id; /* external id of the status page of the same run */
	const char *kind;           /* email | sms | webhook | slack | teams | other */
	const char *address;        /* e-mail, phone number, URL, or workspace/channel */
	const char *state;          /* active | unconfirmed | quarantined | NULL */
	const char *created;        /* YYYY-MM-DD or NULL */
	json_object *components;    /* array of the provider's component ids; [] = all */
};
struct prov_hosting_client {
	const char *email, *first_name, *last_name, *company, *status, *created;
	const char *address1, *address2, *city, *state, *postcode, *country, *phone;
	const char *currency; /* ISO 4217 ([A-Z]{3}) or NULL */
	const char *credit;   /* decimal string or NULL */
};
struct prov_hosting_contact {
	const char *client_id, *first_name, *last_name, *company, *email, *phone;
	const char *address1, *address2, *city, *state, *postcode, *country;
};
struct prov_hosting_service {
	const char *client_id, *product, *domain, *status, *billing_cycle, *amount, *next_due;
	const char *first_amount, *registered, *currency;
};
struct prov_hosting_addon {
	const char *client_id, *service_id; /* external ids */
	const char *name, *status, *billing_cycle, *amount, *setup_fee, *next_due, *registered, *currency;
};
struct prov_hosting_domain {
	const char *client_id, *domain, *registrar, *status, *expiry, *next_due, *amount;
	const char *registered, *currency;
	int64_t period; /* registration period in years; <= 0: null */
	enum prov_tri auto_renew;
};
struct prov_invoice {
	const char *client_id, *number, *date, *due, *paid_at, *total, *currency, *status;
	const char *subtotal, *tax, *tax2, *credit, *balance, *payment_method;
	json_object *lines; /* array of prov_invoice_line() objects */
};
struct prov_payment {
	const char *client_id, *invoice_id; /* external ids; invoice_id NULL: not tied to an invoice */
	const char *date, *gateway, *transaction_id, *description;
	const char *amount_in, *fees, *amount_out, *currency;
};

/* Into *timing (made when NULL), an alert link's own timing: contact id
 * alerted only once down delay_s seconds, again every repeat_s seconds
 * (<= 0: not said). A monitor's or heartbeat's contact_timing is an object
 * {"<contact id>": {"delay_s": n|null, "repeat_s": n|null}}. */
void prov_contact_timing(json_object **timing, const char *contact_id, int64_t delay_s, int64_t repeat_s);
/* An assertion of an HTTP or API check (sql/017_alerting.sql): source
 * (status, body, header, json, time, ...), property (a header name, a JSON
 * path; NULL: none), comparison (the provider's operator in words), target
 * (the value as text; NULL: none). */
json_object *prov_assertion(const char *source, const char *property, const char *comparison,
    const char *target);
/* The addresses a DNS check expects, v (an array of strings, or one string
 * of them split on ','), as a new array of the IPv4 and IPv6 addresses among
 * them (at most 100), and in *record_type the record type they answer: "A"
 * when all are IPv4, "AAAA" when all are IPv6, else NULL. *bad counts the
 * values that are no address (left out). NULL (and *record_type NULL) when
 * there is no address. */
json_object *prov_dns_ips(json_object *v, const char **record_type, size_t *bad);
/* The normalized keys that hold a secret, which discovery seals before the
 * item is stored ("auth_password" becomes "auth_password_sealed"). */
extern const char *const prov_seal_keys[];

json_object *prov_norm_monitor(const struct prov_monitor *);
json_object *prov_norm_heartbeat(const struct prov_heartbeat *);
json_object *prov_norm_contact(const struct prov_contact *);
json_object *prov_norm_status_page(const struct prov_status_page *);
json_object *prov_norm_maintenance_window(const struct prov_maintenance_window *);
json_object *prov_norm_subscriber(const struct prov_subscriber *);
json_object *prov_norm_hosting_client(const struct prov_hosting_client *);
json_object *prov_norm_hosting_contact(const struct prov_hosting_contact *);
json_object *prov_norm_hosting_service(const struct prov_hosting_service *);
json_object *prov_norm_hosting_addon(const struct prov_hosting_addon *);
json_object *prov_norm_hosting_domain(const struct prov_hosting_domain *);
json_object *prov_norm_invoice(const struct prov_invoice *);
json_object *prov_norm_payment(const struct prov_payment *);

/* Mark keys of an item's normalized object norm that this run could not
 * read because a read that feeds them failed; why names the read in a short
 * phrase ("its details could not be read (HTTP 503)"). Kept in norm as
 * "unread": {"keys": [...], "why": "..."}; calls add up. An update of an
 * object imported before keeps the account's values of those keys and their
 * child rows (contact_ids: alert links, items, lines), so a failed read never
 * makes the account worse (importer.c); a first import writes what it has. */
void prov_unread(json_object *norm, const char *why, const char *const *keys);
/* { "contact_ids", NULL }: a monitor's or heartbeat's alert links. */
extern const char *const prov_contact_keys[];

/* Whether a status page whose setting (its name at the provider, e.g.
 * "visibility") says value is public: unset or "public" is, "protected" and
 * "private" are not, and any other value is not, with the warning "<who>
 * status page "<name>" has an unknown <setting> <value>; imported as not
 * public". */
bool prov_sp_public(struct prov_page *page, const char *who, const char *name, const char *setting,
    const char *value);
/* Append a status page entry to items: the external id of a monitor of the
 * same run (or of a heartbeat, where the provider numbers both alike; NULL
 * for an entry without one, e.g. a manually tracked component), the name it
 * shows on the page, and its section. */
void prov_sp_item(json_object *items, const char *monitor_id, const char *name, const char *section);
/* The same for an entry that shows a heartbeat of the same run. */
void prov_sp_heartbeat(json_object *items, const char *heartbeat_id, const char *name, const char *section);
/* A new status page incident object (prov_status_page.incidents):
 * {kind, name, status, impact, starts_at, ends_at, scheduled_until (ISO 8601
 * UTC or null), updates, components}. */
json_object *prov_sp_incident(const struct prov_sp_incident *);
/* Append an update to updates: {at (ISO 8601 UTC, or null when at < 0),
 * status, body}, body cut to PROV_SP_MAX_BODY characters on a character
 * boundary (status and body NULL: null). */
void prov_sp_update(json_object *updates, int64_t at, const char *status, const char *body);
/* Keep the PROV_SP_MAX_UPDATES newest updates of updates (oldest first),
 * dropping the oldest; the number dropped. */
size_t prov_sp_updates_cap(json_object *updates);
/* Sort incidents (prov_sp_incident objects) newest first by starts_at (null
 * last, the order given among equals) and keep PROV_SP_MAX_INCIDENTS of them;
 * the number dropped. */
size_t prov_sp_incidents_order(json_object *incidents);
/* A new invoice line. */
json_object *prov_invoice_line(const char *description, const char *amount, const char *type,
    const char *relid, bool taxed);
/* v (a JSON string or array of strings) as a new array of strings; a string is
 * split on sep (' ' or ','); blanks are dropped. NULL when v is neither. */
json_object *prov_str_list(json_object *v, char sep);
/* An ISO 4217 code as providers send it ("usd", " EUR") normalized to upper
 * case into out, or NULL when it is not three letters. */
const char *prov_currency(const char *s, char out[4]);

/* A list call that the key may not make (401/403 after the first call of the
 * run succeeded, providers.md §12): adds the warning "<provider> refused the
 * <kind> list for this key (HTTP <status>): <kind> skipped" to page. The
 * adapter then moves on to its next phase. */
void prov_skip_kind(struct prov_page *page, const char *provider, const char *kind, long status);

/* ---- cursors: "<phase>:<non-negative integer>" ---- */

/* Parse cursor against the NULL-terminated phase names. NULL cursor gives
 * phase 0, position dflt_pos. Returns 0, or -1 for anything malformed. */
int prov_cursor_parse(const char *cursor, const char *const *phases, int64_t dflt_pos, size_t *phase,
    int64_t *pos);
/* A new cursor text "<phase>:<pos>" (caller frees). */
char *prov_cursor_make(const char *phase, int64_t pos);

/* ---- errors and messages ---- */

/* Fill err (printf-style) and return st. */
enum prov_status prov_fail(struct prov_error *err, enum prov_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* prov_fail for a cursor that does not parse: PROV_FATAL, "cannot resume
 * <who> discovery: bad checkpoint". */
enum prov_status prov_bad_checkpoint(struct prov_error *err, const char *who);
/* prov_fail for missing credentials: PROV_AUTH, "the <who> credentials have
 * no usable <fields>". */
enum prov_status prov_no_cred(struct prov_error *err, const char *who, const char *fields);
/* A provider's value and its normalized form; a table of them ends with
 * { NULL, NULL }. */
struct prov_map {
	const char *from, *to;
};
/* The normalized form of value by map, compared without regard to case. When
 * value is NULL or not in map: "other", with the warning `<what> "<name>" has
 * an unknown <field> <value>; kept as other` (value as prov_copy_text makes
 * it, "(none)" when NULL). */
const char *prov_map_other(const struct prov_map *map, const char *value, struct prov_page *page,
    const char *what, const char *name, const char *field);
/* Copy a provider's text into dst: valid UTF-8 characters kept, control
 * characters and stray bytes as '?', runs of white space folded, cut to size
 * on a character boundary. (Credentials were already taken out of the whole
 * answer by prov_http.) */
void prov_copy_text(char *dst, size_t size, const char *src);
/* Replace every form of every credential value of s but the URL field in
 * text (core/scrub.h: verbatim, percent- or JSON-escaped, split by white
 * space, base64, any 12-character run of it) by "[redacted]", then cut to
 * size on a character boundary. Values shorter than 4 bytes are left alone. */
void prov_scrub(const struct prov_session *s, char *text, size_t size);
/* The body of resp as JSON, or NULL with err set to PROV_TRANSIENT ("who
 * sent a malformed or truncated answer"). Caller puts the value. */
json_object *prov_parse_json(const struct httpc_resp *resp, const char *who, struct prov_error *err);
/* The error text a provider put in an error body, copied with
 * prov_copy_text: the first string among error.errormessage, error.message,
 * message, errors (a string), errors[0].message, error (a string), detail.
 * buf is "" when there is none or the body is not JSON. */
void prov_body_message(const struct httpc_resp *resp, char *buf, size_t size);

/* ---- session helpers ---- */

/* The credential field as a non-empty string without control characters
 * (it goes into headers and forms), or NULL. Borrowed. */
const char *prov_cred(const struct prov_session *s, const char *field);
/* A new URL: the session's base URL followed by the formatted path. */
char *prov_url(const struct prov_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Perform req for s: sets the timeout, redirect following (providers.md §12)
 * and, for a user-supplied base URL, the URL guard from the config; paced by
 * s->pace (docs/runner.md, "Rate limits"): sent no earlier than pace.next_ms,
 * which each answer moves on by the provider's interval, by a used-up quota's
 * reset, or by the wait after a refusal (prov_session_refused), and a refusal
 * whose wait ends by pace.deadline_ms is waited out and the request sent
 * again. Returns PROV_OK with resp filled (any HTTP status; a refusal when
 * its wait ends later or the session gave up) and every credential of s
 * taken out of its body (as prov_scrub does); PROV_RATE_LIMITED without
 * asking when a rate-limit wait (pace.limited) ends after pace.deadline_ms
 * or the session gave up; or another error status with err set. */
enum prov_status prov_http(struct prov_session *s, struct httpc_req *req, struct httpc_resp *resp,
    struct prov_error *err);
/* GET the session's base URL followed by the formatted path into resp (its
 * previous answer freed first), sending headers ("Name: value" lines,
 * NULL-terminated, or NULL) and userpwd (HTTP Basic, or NULL). Returns as
 * prov_http. */
enum prov_status prov_get_into(struct prov_session *s, const char *const *headers, const char *userpwd,
    struct httpc_resp *resp, struct prov_error *err, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Last step of every fetch: on failure drop the partial page; scrub
 * credentials out of err and the warnings. Returns st. */
enum prov_status prov_finish(const struct prov_session *s, enum prov_status st, struct prov_page *page,
    struct prov_error *err);

/* The end of a fetch that made its own requests (prov_get_into): prov_finish,
 * then resp (the last answer) freed and secret (a string built from a
 * credential, or NULL) wiped and freed. Returns the status prov_finish
 * gives. */
enum prov_status prov_fetch_done(const struct prov_session *s, enum prov_status st, struct httpc_resp *resp,
    char *secret, struct prov_page *page, struct prov_error *err);

/* ---- rate limits (docs/runner.md, "Rate limits") ---- */

#define PROV_BACKOFF_MAX_S 900 /* the longest wait after a refusal that named none */

/* Count in p a refusal that arrived at wall_ms (ms since the epoch) and
 * asked for hint_s seconds (< 0: it named no wait). Returns the wait in ms
 * before the next request: the hint, at least min_s; without a hint, min_s
 * doubled for each refusal before it in the row, at most PROV_BACKOFF_MAX_S
 * and no later than max_s after the first. -1, with p->gave_up, when the
 * refusals in a row have lasted max_s seconds or the hint asks for a wait
 * that ends later. */
int64_t prov_pace_refusal(struct prov_pace *p, int hint_s, int64_t wall_ms, int min_s, int max_s);
/* prov_pace_refusal for s now, with [limits] provider_wait_min and
 * provider_wait_max, and s->pace.next_ms moved to the end of the wait
 * (pace.limited). Returns the wait in ms, or -1 when the session gave up. */
int64_t prov_session_refused(struct prov_session *s, int hint_s);
/* How many ms before s may send its next request (0: now). */
int64_t prov_session_wait_ms(const struct prov_session *s);

/* An adapter's pure parse step (adapters.h). */
typedef enum prov_status (*prov_parse_fn)(const char *cursor, const struct httpc_resp *resp,
    struct prov_page *page, struct prov_error *err);
/* The whole of a simple fetch: GET url with one header (which carries the
 * credential), parse the answer with parse, prov_finish. Takes ownership of
 * url and header (the header is wiped before it is freed). */
enum prov_status prov_fetch_get(struct prov_session *s, const char *cursor, char *url, char *header,
    prov_parse_fn parse, struct prov_page *page, struct prov_error *err);

#endif
