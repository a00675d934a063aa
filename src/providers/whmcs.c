/* WHMCS External API, self-hosted (providers.md §9 and §12; docs/providers/whmcs.md).
 *
 * Every call is a POST of a form to <url>/includes/api.php with action,
 * responsetype=json, identifier and secret (the api_identifier/api_secret
 * credentials) and, when given, accesskey (access_key). The URL is the
 * user's: the session applies the URL guard to it and to every redirect hop
 * (prov_http follows them, re-posting the same form to the same host). Lists
 * are paged by limitstart/limitnum; limitstart advances by numreturned until
 * numreturned is 0 or limitstart reaches totalresults (some versions cap
 * limitnum, so the requested size is never assumed). Items are wrapped twice
 * ("clients":{"client":[…]}); an empty list is a missing key, "" or [].
 * Errors come as {"result":"error","message":…}, with HTTP 403 for bad
 * credentials and for actions the API role may not call.
 *
 * Cursors "<phase>:<limitstart>", in this order:
 *
 *   clients:<n>    GetClients (25) + GetClientsDetails per client: address,
 *                  phone, credit, currency (currency_code, else GetCurrencies
 *                  by the currency id).
 *   contacts:<n>   GetContacts (100), every client's contacts.
 *   services:<n>   GetClientsProducts (100).
 *   addons:<n>     GetClientsProducts (100) again, then one GetClientsAddons
 *                  for the page's service ids (serviceid=a,b,c).
 *   domains:<n>    GetClientsDomains (100).
 *   invoices:<n>   GetInvoices (25) + GetInvoice per invoice: lines, subtotal,
 *                  taxes, credit, balance, payment method.
 *   payments:<n>   GetClients (25) + GetTransactions per client; then the end.
 *
 * Services, addons, domains and payments carry the owning client's currency,
 * invoices their own currencycode, else the client's. Each page asks
 * GetCurrencies once (when it needs a currency); with a single currency
 * configured that is every client's, otherwise GetClientsDetails is asked
 * once per distinct client of the page. So a page costs at most 2 + its
 * entries requests (docs/providers/whmcs.md has the budget).
 *
 * The first call (GetClients) answering 401/403 is a bad key. A later list
 * refused ("Invalid Permissions: API action … is not allowed", or a 401/403
 * without a known message) skips its kind with a warning; a refused
 * GetClientsDetails or GetInvoice keeps the list data with one warning and
 * continues in the phase variant "clients-plain" / "invoices-plain" that no
 * longer asks for them. A failed per-entry call keeps the list data with a
 * warning; two in a row without an answer make the page a retry. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "core/util.h"
#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"
#include "providers/fields.h"

#define WH            "WHMCS"
#define WH_LIST       100 /* entries a page of a plain list */
#define WH_EACH       25  /* entries a page when each costs one more request */
#define WH_MAX_SILENT 2   /* calls in a row without an answer that make the page a retry */
#define WH_CACHE      128 /* client currencies remembered within a page */

enum {
	PH_CLIENTS,
	PH_CONTACTS,
	PH_SERVICES,
	PH_ADDONS,
	PH_DOMAINS,
	PH_INVOICES,
	PH_PAYMENTS,
	PH_CLIENTS_PLAIN,
	PH_INVOICES_PLAIN,
	PH_END
};
static const char *const phases[] = { "clients", "contacts", "services", "addons", "domains", "invoices",
	"payments", "clients-plain", "invoices-plain", NULL };

/* What each phase lists, what it is called when refused, and what follows. */
static const struct phase {
	const char *action, *plural, *singular, *kind;
	int limit, next, base;
	/* clang-format off */
} ph_info[] = {
	{ "GetClients", "clients", "client", "clients", WH_EACH, PH_CONTACTS, PH_CLIENTS },
	{ "GetContacts", "contacts", "contact", "client contacts", WH_LIST, PH_SERVICES, PH_CONTACTS },
	{ "GetClientsProducts", "products", "product", "services", WH_LIST, PH_ADDONS, PH_SERVICES },
	{ "GetClientsProducts", "products", "product", "service addons", WH_LIST, PH_DOMAINS, PH_ADDONS },
	{ "GetClientsDomains", "domains", "domain", "domains", WH_LIST, PH_INVOICES, PH_DOMAINS },
	{ "GetInvoices", "invoices", "invoice", "invoices", WH_EACH, PH_PAYMENTS, PH_INVOICES },
	{ "GetClients", "clients", "client", "transactions", WH_EACH, PH_END, PH_PAYMENTS },
	{ "GetClients", "clients", "client", "clients", WH_EACH, PH_CONTACTS, PH_CLIENTS },
	{ "GetInvoices", "invoices", "invoice", "invoices", WH_EACH, PH_PAYMENTS, PH_INVOICES },
};
/* clang-format on */

/* WHMCS values (as shown in its admin area) and their normalized forms. */
/* clang-format off */
static const struct prov_map client_statuses[] = {
	{ "Active", "active" }, { "Inactive", "inactive" }, { "Closed", "closed" }, { NULL, NULL }
};
static const struct prov_map service_statuses[] = {
	{ "Pending", "pending" }, { "Active", "active" }, { "Suspended", "suspended" },
	{ "Terminated", "terminated" }, { "Cancelled", "cancelled" }, { "Fraud", "fraud" },
	{ "Completed", "completed" }, { NULL, NULL }
};
static const struct prov_map domain_statuses[] = {
	{ "Pending", "pending" }, { "Pending Registration", "pending_registration" },
	{ "Pending Transfer", "pending_transfer" }, { "Active", "active" }, { "Grace", "grace" },
	{ "Redemption", "redemption" }, { "Expired", "expired" },
	{ "Transferred Away", "transferred_away" }, { "Cancelled", "cancelled" }, { "Fraud", "fraud" },
	{ NULL, NULL }
};
static const struct prov_map invoice_statuses[] = {
	{ "Draft", "draft" }, { "Unpaid", "unpaid" }, { "Paid", "paid" }, { "Cancelled", "cancelled" },
	{ "Refunded", "refunded" }, { "Collections", "collections" },
	{ "Payment Pending", "payment_pending" }, { "Overdue", "overdue" }, { NULL, NULL }
};
static const struct prov_map cycles[] = {
	{ "Free Account", "free" }, { "Free", "free" }, { "One Time", "one_time" },
	{ "Onetime", "one_time" }, { "Monthly", "monthly" }, { "Quarterly", "quarterly" },
	{ "Semi-Annually", "semi_annually" }, { "Annually", "annually" },
	{ "Biennially", "biennially" }, { "Triennially", "triennially" }, { NULL, NULL }
};
/* clang-format on */

/* ---------------------------------------------------------------- values */

/* The normalized form of member key of o by table m: NULL when absent or "",
 * else as prov_map_other. */
static const char *
map_value(json_object *o, const char *key, const struct prov_map *m, const char *what, const char *name,
    struct prov_page *page)
{
	const char *v = prov_get_text(o, key, 64);

	return v == NULL ? NULL :
	                   prov_map_other(m, v, page, what, name,
	                       strcmp(key, "billingcycle") == 0 ? "billing cycle" : "status");
}

/* A date "Y-m-d" or "Y-m-d H:i:s" (§9.2) as YYYY-MM-DD in buf, or NULL:
 * "0000-00-00[ 00:00:00]" (no date) and anything else. */
static const char *
date_of(json_object *o, const char *key, char buf[11])
{
	int64_t t;

	if (!prov_get_time(o, key, TIME_DATE | TIME_WALL | TIME_ZERO, NULL, &t) ||
	    time_format_date(t, buf) != 0)
		return NULL;
	return buf;
}

/* An amount ("12.95", 12.95, "-1.00") as a decimal string in buf, or NULL.
 * A JSON number is taken as it was written (json-c keeps the text of a
 * parsed number), never through a double. */
static const char *
amount_of(json_object *o, const char *key, char buf[32])
{
	json_object *v = prov_get(o, key);
	const char *s;
	size_t i = 0, digits = 0, frac = 0;

	if (json_object_is_type(v, json_type_string))
		s = json_object_get_string(v);
	else if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
		s = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
	else
		return NULL;
	while (s[i] == ' ')
		i++;
	if (s[i] == '-')
		i++;
	for (; isdigit((unsigned char)s[i]); i++)
		digits++;
	if (s[i] == '.')
		for (i++; isdigit((unsigned char)s[i]); i++)
			frac++;
	if (digits == 0 || s[i] != '\0' || i >= 32 || (s[i - 1] == '.' && frac == 0))
		return NULL;
	while (*s == ' ')
		s++;
	snprintf(buf, 32, "%s", s);
	return buf;
}

/* An id member of o as text in buf, or NULL (absent, malformed, 0). */
static const char *
ref_of(json_object *o, const char *key, char *buf, size_t size)
{
	if (prov_get_id(o, key, buf, size) != 0 || strcmp(buf, "0") == 0)
		return NULL;
	return buf;
}

/* Set norm[key] to the string v, or to null. */
static void
norm_set(json_object *norm, const char *key, const char *v)
{
	json_object_object_add(norm, key, v != NULL ? json_object_new_string(v) : NULL);
}

/* A copy of o without the members that hold secrets (password hashes,
 * reset keys, security answers, card details). */
static json_object *
raw_clean(json_object *o)
{
	static const char *const secret[] = { "password", "pwresetkey", "pwresetexpiry", "securityqid",
		"securityqans", "cctype", "cclastfour", "gatewayid", "ccexpirydate", "bankacct", "bankcode",
		"authdata", NULL };
	json_object *c = NULL;

	if (json_object_deep_copy(o, &c, NULL) != 0)
		return json_object_new_object();
	for (size_t i = 0; secret[i] != NULL; i++)
		json_object_object_del(c, secret[i]);
	return c;
}

/* -------------------------------------------------------- items from lists */

/* The field tables (at the end) map the fields that are copied as they are. */
static const struct prov_field client_fields[], contact_fields[], service_fields[], addon_fields[],
    domain_fields[], invoice_fields[], payment_fields[];

static void
add_client(json_object *c, const char *id, struct prov_page *page)
{
	struct prov_hosting_client hc = { 0 };
	char created[11];

	prov_map(client_fields, c, &hc);
	hc.status = map_value(c, "status", client_statuses, WH " client", hc.email ? hc.email : id, page);
	hc.created = date_of(c, "datecreated", created);
	prov_page_add(page, "hosting_client", id, raw_clean(c), prov_norm_hosting_client(&hc));
}

static void
add_contact(json_object *c, const char *id, struct prov_page *page)
{
	struct prov_hosting_contact hc = { 0 };
	char client[64];

	prov_map(contact_fields, c, &hc);
	hc.client_id = ref_of(c, "userid", client, sizeof client);
	prov_page_add(page, "hosting_contact", id, raw_clean(c), prov_norm_hosting_contact(&hc));
}

static void
add_service(json_object *v, const char *id, struct prov_page *page)
{
	struct prov_hosting_service hs = { 0 };
	char client[64], due[11], reg[11], amount[32], first[32];

	prov_map(service_fields, v, &hs);
	hs.client_id = ref_of(v, "clientid", client, sizeof client);
	if (hs.product == NULL)
		hs.product = prov_get_text(v, "groupname", 255);
	hs.status =
	    map_value(v, "status", service_statuses, WH " service", hs.product ? hs.product : id, page);
	hs.billing_cycle =
	    map_value(v, "billingcycle", cycles, WH " service", hs.product ? hs.product : id, page);
	hs.amount = amount_of(v, "recurringamount", amount);
	hs.first_amount = amount_of(v, "firstpaymentamount", first);
	hs.next_due = date_of(v, "nextduedate", due);
	hs.registered = date_of(v, "regdate", reg);
	prov_page_add(page, "hosting_service", id, raw_clean(v), prov_norm_hosting_service(&hs));
}

static void
add_domain(json_object *d, const char *id, struct prov_page *page)
{
	struct prov_hosting_domain hd = { 0 };
	char client[64], expiry[11], due[11], reg[11], amount[32];
	json_object *dnr = prov_get(d, "donotrenew");

	prov_map(domain_fields, d, &hd);
	hd.client_id = ref_of(d, "userid", client, sizeof client);
	hd.status = map_value(d, "status", domain_statuses, WH " domain", hd.domain ? hd.domain : id, page);
	hd.expiry = date_of(d, "expirydate", expiry);
	hd.next_due = date_of(d, "nextduedate", due);
	hd.registered = date_of(d, "regdate", reg);
	hd.amount = amount_of(d, "recurringamount", amount);
	/* donotrenew set: the domain does not renew by itself */
	if (dnr != NULL &&
	    !(json_object_is_type(dnr, json_type_string) && json_object_get_string_len(dnr) == 0))
		hd.auto_renew = prov_get_bool(d, "donotrenew", false) ? PROV_NO : PROV_YES;
	prov_page_add(page, "hosting_domain", id, raw_clean(d), prov_norm_hosting_domain(&hd));
}

/* A currency code as the admin typed it, checked: the code or NULL with a
 * warning naming whose it is. */
static const char *
currency_checked(const char *code, char out[4], const char *whose, struct prov_page *page)
{
	char cb[24], wb[96];

	if (code == NULL)
		return NULL;
	if (prov_currency(code, out) != NULL)
		return out;
	prov_copy_text(cb, sizeof cb, code);
	prov_copy_text(wb, sizeof wb, whose);
	prov_page_warn(page, WH " %s: currency code \"%s\" is not an ISO 4217 code; left empty", wb, cb);
	return NULL;
}

static void
add_invoice(json_object *v, const char *id, struct prov_page *page)
{
	struct prov_invoice in = { 0 };
	char client[64], date[11], due[11], paid[11], cur[4], whose[96];
	char total[32], sub[32], tax[32], tax2[32], credit[32];

	prov_map(invoice_fields, v, &in);
	/* Without sequential numbering WHMCS shows the invoice id as its number. */
	if (in.number == NULL)
		in.number = id;
	in.client_id = ref_of(v, "userid", client, sizeof client);
	in.date = date_of(v, "date", date);
	in.due = date_of(v, "duedate", due);
	in.paid_at = date_of(v, "datepaid", paid);
	in.total = amount_of(v, "total", total);
	in.subtotal = amount_of(v, "subtotal", sub);
	in.tax = amount_of(v, "tax", tax);
	in.tax2 = amount_of(v, "tax2", tax2);
	in.credit = amount_of(v, "credit", credit);
	snprintf(whose, sizeof whose, "invoice %s", in.number);
	in.currency = currency_checked(prov_get_text(v, "currencycode", 16), cur, whose, page);
	in.status = map_value(v, "status", invoice_statuses, WH " invoice", in.number, page);
	prov_page_add(page, "invoice", id, raw_clean(v), prov_norm_invoice(&in));
}

/* ------------------------------------------------------------- answers */

static bool
starts_with(const char *s, const char *prefix)
{
	return s != NULL && strncasecmp(s, prefix, strlen(prefix)) == 0;
}

/* True for WHMCS's texts of bad credentials (not of a missing permission). */
static bool
bad_key_text(const char *msg)
{
	static const char *const auth[] = { "Authentication Failed", "Invalid or missing credentials",
		"Invalid IP", "Invalid Access Key", "IP Banned", "Access Denied", NULL };

	for (size_t i = 0; auth[i] != NULL; i++)
		if (starts_with(msg, auth[i]))
			return true;
	return false;
}

/* The error of a refused or failed call of action: PROV_AUTH for bad
 * credentials (and for any refusal of the first list), else PROV_FATAL. */
static enum prov_status
error_answer(const char *msg, long http, const char *action, struct prov_error *err)
{
	char text[160];
	bool is_auth =
	    http == 401 || http == 403 || bad_key_text(msg) || starts_with(msg, "Invalid Permissions");

	if (msg != NULL && *msg != '\0')
		prov_copy_text(text, sizeof text, msg);
	else
		snprintf(text, sizeof text, "HTTP %ld, no details", http);
	if (!is_auth)
		return prov_fail(err, PROV_FATAL, WH " answered %s with an error: %s", action, text);
	if (starts_with(text, "Invalid IP") || starts_with(text, "IP Banned"))
		return prov_fail(err, PROV_AUTH,
		    WH " refused this server's address (%s): add it to the "
		       "API IP access list in WHMCS, or give the access_key credential",
		    text);
	if (starts_with(text, "Invalid Access Key"))
		return prov_fail(err, PROV_AUTH, WH " rejected the access_key (%s)", text);
	if (starts_with(text, "Invalid Permissions"))
		return prov_fail(err, PROV_AUTH,
		    WH " does not allow these API credentials to call %s "
		       "(%s): give their API role at least GetClients",
		    action, text);
	return prov_fail(err, PROV_AUTH, WH " rejected the API credentials (%s)", text);
}

enum wh_answer { WA_OK, WA_REFUSED, WA_FAILED };

/* Read the answer to action. WA_OK with *root (caller puts it); WA_REFUSED
 * when the API role may not call it (only when !first: the first call's
 * refusal is a bad key); WA_FAILED with err set. */
static enum wh_answer
answer_of(const struct httpc_resp *resp, const char *action, bool first, json_object **root,
    struct prov_error *err)
{
	const char *result, *msg;
	enum prov_status st;
	char text[200];

	*root = NULL;
	if ((st = httpc_classify(resp, WH, "API credentials", err)) != PROV_OK) {
		if (st != PROV_AUTH)
			return WA_FAILED;
		prov_body_message(resp, text, sizeof text);
		if (!first && !bad_key_text(text)) {
			memset(err, 0, sizeof *err);
			return WA_REFUSED;
		}
		error_answer(text, resp->status, action, err);
		return WA_FAILED;
	}
	if ((*root = prov_parse_json(resp, WH, err)) == NULL)
		return WA_FAILED;
	result = prov_get_str(*root, "result", 16);
	if (result != NULL && strcasecmp(result, "success") == 0)
		return WA_OK;
	msg = prov_get_str(*root, "message", 1024);
	if (result != NULL && strcasecmp(result, "error") == 0 && !first &&
	    starts_with(msg, "Invalid Permissions")) {
		json_object_put(*root);
		*root = NULL;
		return WA_REFUSED;
	}
	if (result != NULL && strcasecmp(result, "error") == 0)
		error_answer(msg, resp->status, action, err);
	else
		prov_fail(err, PROV_TRANSIENT, WH " sent an answer to %s without \"result\":\"success\"",
		    action);
	json_object_put(*root);
	*root = NULL;
	return WA_FAILED;
}

/* The entries of a doubly wrapped list: root.<plural>.<singular>[]. Returns
 * a new array (empty for a missing key, "", [] or {}), or NULL when the
 * shape is something else. */
static json_object *
list_items(json_object *root, const char *plural, const char *singular)
{
	json_object *outer = prov_get(root, plural), *inner = NULL, *out = json_object_new_array();

	if (outer == NULL)
		return out;
	switch (json_object_get_type(outer)) {
	case json_type_string:
		if (json_object_get_string_len(outer) == 0)
			return out;
		break;
	case json_type_array:
		inner = outer; /* [] when empty; a list without the inner wrapper */
		break;
	case json_type_object:
		inner = prov_get(outer, singular);
		if (inner == NULL)
			return out; /* {} */
		if (json_object_is_type(inner, json_type_object)) {
			json_object_array_add(out, json_object_get(inner)); /* one entry, unwrapped */
			return out;
		}
		break;
	default:
		break;
	}
	if (!json_object_is_type(inner, json_type_array)) {
		json_object_put(out);
		return NULL;
	}
	for (size_t i = 0; i < json_object_array_length(inner); i++)
		json_object_array_add(out, json_object_get(json_object_array_get_idx(inner, i)));
	return out;
}

/* The entries of root's list, at most PROV_MAX_ITEMS (warning), or NULL
 * with err set. */
static json_object *
entries_of(json_object *root, const char *plural, const char *singular, struct prov_page *page,
    struct prov_error *err)
{
	json_object *items = list_items(root, plural, singular);
	size_t n;

	if (items == NULL) {
		prov_fail(err, PROV_TRANSIENT, WH " sent \"%s\" in a shape it does not use", plural);
		return NULL;
	}
	n = json_object_array_length(items);
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, WH " sent %zu %s in one answer; only the first %d were kept", n, plural,
		    PROV_MAX_ITEMS);
		json_object_array_del_idx(items, PROV_MAX_ITEMS, n - PROV_MAX_ITEMS);
	}
	return items;
}

/* The id of entry it in id, or false with a warning. */
static bool
entry_id(json_object *it, const char *plural, char *id, size_t size, struct prov_page *page)
{
	if (json_object_is_type(it, json_type_object) && prov_get_id(it, "id", id, size) == 0)
		return true;
	prov_page_warn(page, WH " sent an entry of %s without a usable id; skipped", plural);
	return false;
}

/* The cursor after a list page of n entries at start. */
static char *
next_cursor(size_t ph, int64_t start, size_t n, json_object *root, size_t listed)
{
	int64_t total = -1, returned = -1;
	const struct phase *p = &ph_info[ph];

	/* numbers may be strings; numreturned defaults to what came (and within
	 * int32, start + returned cannot overflow) */
	if (!prov_get_int_in(root, "numreturned", 0, INT32_MAX, &returned))
		returned = (int64_t)listed;
	if (!prov_get_int(root, "totalresults", &total))
		total = -1;
	if (n > 0 && returned > 0 && (total < 0 || start + returned < total))
		return prov_cursor_make(phases[ph], start + returned);
	return p->next != PH_END ? prov_cursor_make(phases[p->next], 0) : NULL;
}

/* One list answer for the phase of cursor: the entries become items (the
 * addons and payments phases only walk the list: their items come from the
 * calls the fetch makes for it); next_cursor set. *entries (when not NULL)
 * gets the list's entries (NULL when the list was refused). */
static enum prov_status
parse_list(const char *cursor, const struct httpc_resp *resp, struct prov_page *page, struct prov_error *err,
    json_object **entries)
{
	json_object *root, *items;
	size_t ph, n;
	int64_t start;
	char id[160];

	if (entries != NULL)
		*entries = NULL;
	if (prov_cursor_parse(cursor, phases, 0, &ph, &start) != 0)
		return prov_bad_checkpoint(err, WH);
	switch (answer_of(resp, ph_info[ph].action, ph_info[ph].base == PH_CLIENTS, &root, err)) {
	case WA_FAILED:
		return err->status;
	case WA_REFUSED:
		prov_skip_kind(page, WH, ph_info[ph].kind, resp->status);
		if (ph_info[ph].next != PH_END)
			page->next_cursor = prov_cursor_make(phases[ph_info[ph].next], 0);
		return PROV_OK;
	case WA_OK:
		break;
	}
	if ((items = entries_of(root, ph_info[ph].plural, ph_info[ph].singular, page, err)) == NULL) {
		json_object_put(root);
		return err->status;
	}
	n = json_object_array_length(items);
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(items, i);
		int base = ph_info[ph].base;

		if (base == PH_ADDONS || base == PH_PAYMENTS ||
		    !entry_id(it, ph_info[ph].plural, id, sizeof id, page))
			continue;
		if (base == PH_CLIENTS)
			add_client(it, id, page);
		else if (base == PH_CONTACTS)
			add_contact(it, id, page);
		else if (base == PH_SERVICES)
			add_service(it, id, page);
		else if (base == PH_DOMAINS)
			add_domain(it, id, page);
		else
			add_invoice(it, id, page);
	}
	page->next_cursor = next_cursor(ph, start, n, root, n);
	if (entries != NULL)
		*entries = json_object_get(items);
	json_object_put(items);
	json_object_put(root);
	return PROV_OK;
}

/* The list step alone (pure: no further calls; see the top). */
enum prov_status
whmcs_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page, struct prov_error *err)
{
	return parse_list(cursor, resp, page, err, NULL);
}

/* ---------------------------------------------------------------- calls */

struct wh {
	struct prov_session *s;
	const char *ident, *secret, *access;
	struct httpc_resp resp; /* the last answer */
	int silent;             /* calls in a row without an answer */
	struct prov_error last; /* why the last of them failed */
	/* currencies (asked once a page, when needed) */
	bool cur_asked;
	json_object *cur_root, *cur_list;
	const char *single; /* the only currency configured ("" when unusable) */
	char single_buf[4];
	bool details_refused;
	struct {
		char client[24];
		char code[4]; /* "" when unknown */
	} cache[WH_CACHE];
	size_t ncache;
};

/* POST action with the credentials and the NULL-terminated name/value
 * pairs that follow into w->resp. */
static enum prov_status
wh_call(struct wh *w, struct prov_error *err, const char *action, ...)
{
	struct httpc_req req = { 0 };
	char *form = NULL, *url;
	const char *k, *v;
	va_list ap;
	enum prov_status st;

	httpc_form_add(&form, "action", action);
	httpc_form_add(&form, "responsetype", "json");
	httpc_form_add(&form, "identifier", w->ident);
	httpc_form_add(&form, "secret", w->secret);
	if (w->access != NULL)
		httpc_form_add(&form, "accesskey", w->access);
	va_start(ap, action);
	while ((k = va_arg(ap, const char *)) != NULL && (v = va_arg(ap, const char *)) != NULL)
		httpc_form_add(&form, k, v);
	va_end(ap);
	httpc_resp_free(&w->resp);
	url = prov_url(w->s, "/includes/api.php");
	req.method = "POST";
	req.url = url;
	req.body = form;
	req.body_len = strlen(form);
	req.content_type = "application/x-www-form-urlencoded";
	st = prov_http(w->s, &req, &w->resp, err);
	free(url);
	sodium_memzero(form, strlen(form));
	free(form);
	return st;
}

/* A call made for one entry (details, currencies, invoice, addons,
 * transactions): WA_OK with *root, WA_REFUSED, or WA_FAILED with e set.
 * Counts the calls in a row that got no answer. */
static enum wh_answer
entry_call(struct wh *w, const char *action, const char *key, const char *value, json_object **root,
    struct prov_error *e)
{
	enum prov_status st = wh_call(w, e, action, key, value, NULL);

	*root = NULL;
	if (st != PROV_OK) {
		w->silent++;
		w->last = *e;
		return WA_FAILED;
	}
	w->silent = 0;
	return answer_of(&w->resp, action, false, root, e);
}

/* Whether a failed entry call ends the page (returned status): rate
 * limited, credentials now rejected, or too many calls without an answer.
 * PROV_OK: keep the list data (the caller warns). */
static enum prov_status
entry_failure(struct wh *w, const struct prov_error *e, struct prov_error *err)
{
	if (e->status == PROV_RATE_LIMITED || e->status == PROV_AUTH) {
		*err = *e;
		return e->status;
	}
	if (w->silent >= WH_MAX_SILENT)
		return prov_fail(err, PROV_TRANSIENT, WH " did not answer %d calls in a row (%s)", w->silent,
		    w->last.message);
	return PROV_OK;
}

/* ----------------------------------------------------------- currencies */

/* GetCurrencies, once a page. Unavailable: the clients' details name theirs. */
static enum prov_status
currencies_load(struct wh *w, struct prov_page *page, struct prov_error *err)
{
	struct prov_error e = { 0 };
	enum wh_answer a;
	char code[4];

	if (w->cur_asked)
		return PROV_OK;
	w->cur_asked = true;
	a = entry_call(w, "GetCurrencies", NULL, NULL, &w->cur_root, &e);
	if (a == WA_FAILED && entry_failure(w, &e, err) != PROV_OK)
		return err->status;
	if (a != WA_OK) {
		prov_page_warn(page,
		    WH " did not list its currencies (%s); each client's currency is "
		       "read from its details",
		    a == WA_REFUSED ? "GetCurrencies is not allowed for these "
		                      "API credentials" :
		                      e.message);
		return PROV_OK;
	}
	w->cur_list = list_items(w->cur_root, "currencies", "currency");
	if (w->cur_list != NULL && json_object_array_length(w->cur_list) == 1) {
		/* one currency configured: every client has it */
		json_object *c = json_object_array_get_idx(w->cur_list, 0);
		const char *s =
		    currency_checked(prov_get_text(c, "code", 16), code, "the only currency", page);

		snprintf(w->single_buf, sizeof w->single_buf, "%s", s != NULL ? s : "");
		w->single = w->single_buf;
	}
	return PROV_OK;
}

/* The code of currency id as GetCurrencies lists it (unchecked), or NULL. */
static const char *
code_of_id(struct wh *w, json_object *idv)
{
	char id[24], cid[24];
	size_t n = w->cur_list != NULL ? json_object_array_length(w->cur_list) : 0;

	if (prov_json_id(idv, id, sizeof id) != 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(w->cur_list, i);

		if (prov_get_id(c, "id", cid, sizeof cid) == 0 && strcmp(cid, id) == 0)
			return prov_get_text(c, "code", 16);
	}
	return NULL;
}

/* The currency of a client's details in out ("" when unknown or not a
 * code, with a warning): currency_code, else its currency id through
 * GetCurrencies. */
static enum prov_status
details_currency(struct wh *w, json_object *d, const char *client, char out[4], struct prov_page *page,
    struct prov_error *err)
{
	const char *code = prov_get_text(d, "currency_code", 16);
	char whose[192];

	out[0] = '\0';
	snprintf(whose, sizeof whose, "client %s", client);
	if (code == NULL && prov_get(d, "currency") != NULL) {
		if (currencies_load(w, page, err) != PROV_OK)
			return err->status;
		code = code_of_id(w, prov_get(d, "currency"));
	}
	if (code == NULL)
		prov_page_warn(page, WH " %s: its currency is unknown; imported without one", whose);
	else if (currency_checked(code, out, whose, page) == NULL)
		out[0] = '\0';
	return PROV_OK;
}

static void
cache_put(struct wh *w, const char *client, const char *code)
{
	if (w->ncache >= WH_CACHE || strlen(client) >= sizeof w->cache[0].client)
		return;
	snprintf(w->cache[w->ncache].client, sizeof w->cache[0].client, "%s", client);
	snprintf(w->cache[w->ncache].code, sizeof w->cache[0].code, "%s", code);
	w->ncache++;
}

/* GetClientsDetails of client: its "client" object (a new reference; old
 * versions put the fields at the top), or NULL (refused: details_refused;
 * failed: warning). */
static enum prov_status
details_of(struct wh *w, const char *client, json_object **out, struct prov_page *page,
    struct prov_error *err)
{
	struct prov_error e = { 0 };
	json_object *root;
	enum wh_answer a;

	*out = NULL;
	if (w->details_refused)
		return PROV_OK;
	a = entry_call(w, "GetClientsDetails", "clientid", client, &root, &e);
	if (a == WA_REFUSED) {
		w->details_refused = true;
		prov_page_warn(page,
		    WH " refused GetClientsDetails for these API credentials (HTTP %ld): "
		       "client addresses, phones, credit and currencies are not imported",
		    w->resp.status);
		return PROV_OK;
	}
	if (a == WA_FAILED) {
		if (entry_failure(w, &e, err) != PROV_OK)
			return err->status;
		prov_page_warn(page, WH " client %s: its details could not be read (%s)", client, e.message);
		return PROV_OK;
	}
	*out = json_object_get(prov_get_object(root, "client") ? prov_get_object(root, "client") : root);
	json_object_put(root);
	return PROV_OK;
}

/* The currency of client in out ("" when unknown, with one warning a page);
 * *unread when it is unknown because the client's details could not be read
 * (kept in the cache as "?"). */
static enum prov_status
client_currency(struct wh *w, const char *client, char out[4], bool *unread, struct prov_page *page,
    struct prov_error *err)
{
	json_object *d;

	out[0] = '\0';
	*unread = false;
	if (client == NULL)
		return PROV_OK;
	if (currencies_load(w, page, err) != PROV_OK)
		return err->status;
	if (w->single != NULL) {
		snprintf(out, 4, "%s", w->single);
		return PROV_OK;
	}
	for (size_t i = 0; i < w->ncache; i++)
		if (strcmp(w->cache[i].client, client) == 0) {
			*unread = strcmp(w->cache[i].code, "?") == 0;
			snprintf(out, 4, "%s", *unread ? "" : w->cache[i].code);
			return PROV_OK;
		}
	if (details_of(w, client, &d, page, err) != PROV_OK)
		return err->status;
	if (d != NULL && details_currency(w, d, client, out, page, err) != PROV_OK) {
		json_object_put(d);
		return err->status;
	}
	*unread = d == NULL;
	json_object_put(d);
	cache_put(w, client, *unread ? "?" : out);
	return PROV_OK;
}

/* Mark an item's currency unread (norm NULL: none) when unread (client_currency). */
static void
currency_read(json_object *norm, bool unread)
{
	static const char *const keys[] = { "currency", NULL };

	if (unread && norm != NULL)
		prov_unread(norm, "the client's GetClientsDetails failed or was refused", keys);
}

/* The normalized object of the item added to page after its first n, or NULL. */
static json_object *
added(const struct prov_page *page, size_t n)
{
	return page->n > n ? page->items[page->n - 1].norm : NULL;
}

/* Set the currency of every item of type on the page whose own is null. */
static enum prov_status
fill_currencies(struct wh *w, const char *type, struct prov_page *page, struct prov_error *err)
{
	for (size_t i = 0; i < page->n; i++) {
		struct prov_item *it = &page->items[i];
		json_object *cid = prov_get(it->norm, "client_id");
		char code[4];
		bool unread;

		if (strcmp(it->resource_type, type) != 0 || prov_get(it->norm, "currency") != NULL ||
		    !json_object_is_type(cid, json_type_string))
			continue;
		if (client_currency(w, json_object_get_string(cid), code, &unread, page, err) != PROV_OK)
			return err->status;
		norm_set(it->norm, "currency", code[0] != '\0' ? code : NULL);
		currency_read(it->norm, unread);
	}
	return PROV_OK;
}

/* -------------------------------------------------------------- clients */

/* Fill a client item from its details. */
static enum prov_status
client_fill(struct wh *w, struct prov_item *it, json_object *d, struct prov_page *page,
    struct prov_error *err)
{
	const char *country = prov_get_text(d, "countrycode", 64), *phone;
	char cur[4], credit[32];

	phone = prov_get_text(d, "phonenumberformatted", 64);
	norm_set(it->norm, "address1", prov_get_text(d, "address1", 255));
	norm_set(it->norm, "address2", prov_get_text(d, "address2", 255));
	norm_set(it->norm, "city", prov_get_text(d, "city", 255));
	norm_set(it->norm, "state", prov_get_text(d, "state", 255));
	norm_set(it->norm, "postcode", prov_get_text(d, "postcode", 32));
	norm_set(it->norm, "country", country ? country : prov_get_text(d, "country", 64));
	norm_set(it->norm, "phone", phone ? phone : prov_get_text(d, "phonenumber", 64));
	norm_set(it->norm, "credit", amount_of(d, "credit", credit));
	if (details_currency(w, d, it->external_id, cur, page, err) != PROV_OK)
		return err->status;
	norm_set(it->norm, "currency", cur[0] != '\0' ? cur : NULL);
	json_object_object_add(it->raw, "details", raw_clean(d));
	return PROV_OK;
}

/* What only GetClientsDetails gives (GetClients lists the rest). */
static const char *const client_detail_keys[] = { "address1", "address2", "city", "state", "postcode",
	"country", "phone", "credit", "currency", NULL };

/* GetClientsDetails for every client of the page (unless refused before). */
static enum prov_status
clients_details(struct wh *w, size_t ph, struct prov_page *page, struct prov_error *err)
{
	for (size_t i = 0; i < page->n; i++) {
		struct prov_item *it = &page->items[i];
		json_object *d = NULL;
		enum prov_status st;

		if (ph == PH_CLIENTS && !w->details_refused &&
		    details_of(w, it->external_id, &d, page, err) != PROV_OK)
			return err->status;
		if (d == NULL) {
			prov_unread(it->norm,
			    ph == PH_CLIENTS && !w->details_refused ?
			        "GetClientsDetails failed" :
			        "GetClientsDetails was refused for these API credentials",
			    client_detail_keys);
			continue;
		}
		st = client_fill(w, it, d, page, err);
		json_object_put(d);
		if (st != PROV_OK)
			return st;
	}
	if (w->details_refused && page->next_cursor != NULL &&
	    strncmp(page->next_cursor, "clients:", 8) == 0) {
		/* go on without asking again */
		char *c =
		    prov_cursor_make(phases[PH_CLIENTS_PLAIN], strtoll(page->next_cursor + 8, NULL, 10));

		free(page->next_cursor);
		page->next_cursor = c;
	}
	return PROV_OK;
}

/* --------------------------------------------------------------- addons */

static void
add_addon(json_object *a, const char *id, const char *currency, struct prov_page *page)
{
	struct prov_hosting_addon ha = { 0 };
	char client[64], service[64], due[11], reg[11], amount[32], setup[32], name[192];

	prov_map(addon_fields, a, &ha);
	ha.client_id = ref_of(a, "userid", client, sizeof client);
	ha.service_id = ref_of(a, "serviceid", service, sizeof service);
	if (ha.name == NULL) {
		/* a predefined addon may come without its name */
		snprintf(name, sizeof name, "Addon %s", id);
		ha.name = name;
		prov_page_warn(page, WH " addon %s has no name; imported as \"%s\"", id, name);
	}
	ha.status = map_value(a, "status", service_statuses, WH " addon", ha.name, page);
	ha.billing_cycle = map_value(a, "billingcycle", cycles, WH " addon", ha.name, page);
	ha.amount = amount_of(a, "recurring", amount);
	ha.setup_fee = amount_of(a, "setupfee", setup);
	ha.next_due = date_of(a, "nextduedate", due);
	ha.registered = date_of(a, "regdate", reg);
	ha.currency = currency;
	prov_page_add(page, "hosting_addon", id, raw_clean(a), prov_norm_hosting_addon(&ha));
}

/* "a,b,c": the ids of the service entries (NULL when none). */
static char *
service_ids(json_object *entries)
{
	char *csv = NULL, id[64];
	size_t len = 0;

	for (size_t i = 0; i < json_object_array_length(entries); i++) {
		if (prov_get_id(json_object_array_get_idx(entries, i), "id", id, sizeof id) != 0)
			continue;
		csv = xrealloc(csv, len + strlen(id) + 2);
		len += (size_t)sprintf(csv + len, "%s%s", len > 0 ? "," : "", id);
	}
	return csv;
}

/* GetClientsAddons for the services listed on this page. */
static enum prov_status
addons_of(struct wh *w, json_object *entries, struct prov_page *page, struct prov_error *err)
{
	char *csv = service_ids(entries), id[160];
	json_object *root, *items;
	enum prov_status st = PROV_OK;
	enum wh_answer a;

	if (csv == NULL)
		return PROV_OK;
	a = entry_call(w, "GetClientsAddons", "serviceid", csv, &root, err);
	free(csv);
	if (a == WA_REFUSED) {
		prov_skip_kind(page, WH, "service addons", w->resp.status);
		free(page->next_cursor);
		page->next_cursor = prov_cursor_make(phases[PH_DOMAINS], 0);
		return PROV_OK;
	}
	if (a == WA_FAILED)
		return err->status;
	if ((items = entries_of(root, "addons", "addon", page, err)) == NULL) {
		json_object_put(root);
		return err->status;
	}
	for (size_t i = 0; i < json_object_array_length(items); i++) {
		json_object *it = json_object_array_get_idx(items, i);
		char client[64], code[4];
		bool unread;
		size_t n;

		if (!entry_id(it, "addons", id, sizeof id, page))
			continue;
		st =
		    client_currency(w, ref_of(it, "userid", client, sizeof client), code, &unread, page, err);
		if (st != PROV_OK)
			break;
		n = page->n;
		add_addon(it, id, code[0] != '\0' ? code : NULL, page);
		currency_read(added(page, n), unread);
	}
	json_object_put(items);
	json_object_put(root);
	return st;
}

/* ------------------------------------------------------------- invoices */

/* The lines of a GetInvoice answer ("items":{"item":[…]}, or ""). */
static json_object *
invoice_lines(json_object *root)
{
	json_object *items = list_items(root, "items", "item"), *lines = json_object_new_array();
	size_t n = items != NULL ? json_object_array_length(items) : 0;

	for (size_t i = 0; i < n && i < PROV_MAX_ITEMS; i++) {
		json_object *l = json_object_array_get_idx(items, i);
		char amount[32], relid[64];

		if (!json_object_is_type(l, json_type_object))
			continue;
		json_object_array_add(lines,
		    prov_invoice_line(prov_get_text(l, "description", 65535), amount_of(l, "amount", amount),
		        prov_get_text(l, "type", 32), ref_of(l, "relid", relid, sizeof relid),
		        prov_get_bool(l, "taxed", false)));
	}
	json_object_put(items);
	return lines;
}

/* Fill an invoice item from its GetInvoice answer. */
static void
invoice_fill(struct prov_item *it, json_object *d)
{
	static const char *const amounts[][2] = { { "subtotal", "subtotal" }, { "tax", "tax" },
		{ "tax2", "tax2" }, { "credit", "credit" }, { "balance", "balance" }, { "total", "total" } };
	const char *pm = prov_get_text(d, "paymentmethod", 64);
	json_object *keep;
	char buf[32];

	for (size_t i = 0; i < sizeof amounts / sizeof amounts[0]; i++)
		if (amount_of(d, amounts[i][0], buf) != NULL)
			norm_set(it->norm, amounts[i][1], buf);
	if (pm != NULL)
		norm_set(it->norm, "payment_method", pm);
	json_object_object_add(it->norm, "lines", invoice_lines(d));
	keep = raw_clean(d);
	json_object_object_del(keep, "result");
	json_object_object_add(it->raw, "detail", keep);
}

/* What only GetInvoice gives (GetInvoices lists the rest). */
static const char *const invoice_detail_keys[] = { "balance", "lines", NULL };

/* GetInvoice for every invoice of the page (unless refused before). */
static enum prov_status
invoices_detail(struct wh *w, size_t ph, struct prov_page *page, struct prov_error *err)
{
	bool refused = ph != PH_INVOICES;

	for (size_t i = 0; i < page->n; i++) {
		struct prov_item *it = &page->items[i];
		struct prov_error e = { 0 };
		json_object *root;
		enum wh_answer a;
		char why[300];

		if (refused) {
			prov_unread(it->norm, "GetInvoice was refused for these API credentials",
			    invoice_detail_keys);
			continue;
		}
		a = entry_call(w, "GetInvoice", "invoiceid", it->external_id, &root, &e);
		if (a == WA_OK) {
			invoice_fill(it, root);
			json_object_put(root);
		} else if (a == WA_REFUSED) {
			refused = true;
			prov_unread(it->norm, "GetInvoice was refused for these API credentials",
			    invoice_detail_keys);
			prov_page_warn(page,
			    WH " refused GetInvoice for these API credentials (HTTP %ld): "
			       "invoices are imported without their lines and balance",
			    w->resp.status);
			if (page->next_cursor != NULL && strncmp(page->next_cursor, "invoices:", 9) == 0) {
				char *c = prov_cursor_make(phases[PH_INVOICES_PLAIN],
				    strtoll(page->next_cursor + 9, NULL, 10));

				free(page->next_cursor);
				page->next_cursor = c;
			}
		} else if (entry_failure(w, &e, err) != PROV_OK) {
			return err->status;
		} else {
			prov_page_warn(page,
			    WH " invoice %s: its lines could not be read (%s); imported "
			       "from the list only",
			    it->external_id, e.message);
			utf8_format(why, sizeof why, "GetInvoice failed (%s)", e.message);
			prov_unread(it->norm, why, invoice_detail_keys);
		}
	}
	return fill_currencies(w, "invoice", page, err);
}

/* ------------------------------------------------------------- payments */

static void
add_payment(json_object *t, const char *id, const char *client, const char *currency, struct prov_page *page)
{
	struct prov_payment pm = { 0 };
	char cbuf[64], inv[64], date[11], in[32], fees[32], out[32];

	pm.client_id = ref_of(t, "userid", cbuf, sizeof cbuf);
	if (pm.client_id == NULL)
		pm.client_id = client;
	pm.invoice_id = ref_of(t, "invoiceid", inv, sizeof inv);
	prov_map(payment_fields, t, &pm);
	pm.date = date_of(t, "date", date);
	pm.amount_in = amount_of(t, "amountin", in);
	pm.fees = amount_of(t, "fees", fees);
	pm.amount_out = amount_of(t, "amountout", out);
	pm.currency = currency;
	prov_page_add(page, "payment", id, raw_clean(t), prov_norm_payment(&pm));
}

/* The transactions of one client. *refused when the role may not ask. */
static enum prov_status
payments_of(struct wh *w, const char *client, bool *refused, struct prov_page *page, struct prov_error *err)
{
	struct prov_error e = { 0 };
	json_object *root, *items;
	char id[160], cur[4], whose[192];
	enum prov_status st = PROV_OK;
	enum wh_answer a = entry_call(w, "GetTransactions", "clientid", client, &root, &e);

	*refused = a == WA_REFUSED;
	if (a == WA_FAILED && entry_failure(w, &e, err) != PROV_OK)
		return err->status;
	if (a == WA_FAILED)
		prov_page_warn(page, WH " client %s: its transactions could not be read (%s)", client,
		    e.message);
	if (a != WA_OK)
		return PROV_OK;
	if ((items = entries_of(root, "transactions", "transaction", page, err)) == NULL) {
		json_object_put(root);
		return err->status;
	}
	snprintf(whose, sizeof whose, "client %s", client);
	for (size_t i = 0; i < json_object_array_length(items) && st == PROV_OK; i++) {
		json_object *t = json_object_array_get_idx(items, i);
		json_object *cv = prov_get(t, "currency");
		int64_t cid = 0;
		bool unread;

		if (!entry_id(t, "transactions", id, sizeof id, page))
			continue;
		/* currency 0: the client's; another id: that currency */
		if (cv == NULL || (prov_json_int(cv, &cid) && cid == 0)) {
			if ((st = client_currency(w, client, cur, &unread, page, err)) == PROV_OK) {
				size_t n = page->n;

				add_payment(t, id, client, cur[0] != '\0' ? cur : NULL, page);
				currency_read(added(page, n), unread);
			}
		} else if ((st = currencies_load(w, page, err)) == PROV_OK) {
			add_payment(t, id, client, currency_checked(code_of_id(w, cv), cur, whose, page),
			    page);
		}
	}
	json_object_put(items);
	json_object_put(root);
	return st;
}

/* GetTransactions for every client of the page. */
static enum prov_status
payments_page(struct wh *w, json_object *entries, int64_t start, struct prov_page *page,
    struct prov_error *err)
{
	size_t n = json_object_array_length(entries);
	char id[64];

	for (size_t i = 0; i < n; i++) {
		bool refused = false;

		if (prov_get_id(json_object_array_get_idx(entries, i), "id", id, sizeof id) != 0)
			continue;
		if (payments_of(w, id, &refused, page, err) != PROV_OK)
			return err->status;
		if (refused) {
			prov_skip_kind(page, WH, "transactions", w->resp.status);
			free(page->next_cursor);
			page->next_cursor = NULL;
			return PROV_OK;
		}
		if (page->n >= PROV_MAX_ITEMS / 2 && i + 1 < n) {
			/* a full page: the next client starts the next one */
			free(page->next_cursor);
			page->next_cursor = prov_cursor_make(phases[PH_PAYMENTS], start + (int64_t)i + 1);
			return PROV_OK;
		}
	}
	return PROV_OK;
}

/* ---------------------------------------------------------------- fetch */

/* What a page needs beyond its list (see the top). */
static enum prov_status
page_more(struct wh *w, size_t ph, int64_t start, json_object *entries, struct prov_page *page,
    struct prov_error *err)
{
	switch (ph) {
	case PH_CLIENTS:
	case PH_CLIENTS_PLAIN:
		return clients_details(w, ph, page, err);
	case PH_SERVICES:
		return fill_currencies(w, "hosting_service", page, err);
	case PH_ADDONS:
		return addons_of(w, entries, page, err);
	case PH_DOMAINS:
		return fill_currencies(w, "hosting_domain", page, err);
	case PH_INVOICES:
	case PH_INVOICES_PLAIN:
		return invoices_detail(w, ph, page, err);
	case PH_PAYMENTS:
		return payments_page(w, entries, start, page, err);
	default:
		return PROV_OK;
	}
}

static enum prov_status
whmcs_fetch(struct prov_session *s, const char *cursor, struct prov_page *page, struct prov_error *err)
{
	struct wh w = { .s = s };
	json_object *entries = NULL;
	char ls[24], ln[24];
	size_t ph;
	int64_t start;
	enum prov_status st;

	if (prov_cursor_parse(cursor, phases, 0, &ph, &start) != 0)
		return prov_bad_checkpoint(err, WH);
	w.ident = prov_cred(s, "api_identifier");
	w.secret = prov_cred(s, "api_secret");
	w.access = prov_cred(s, "access_key");
	if (w.ident == NULL || w.secret == NULL)
		return prov_no_cred(err, WH, "api_identifier and api_secret");
	snprintf(ls, sizeof ls, "%lld", (long long)start);
	snprintf(ln, sizeof ln, "%d", ph_info[ph].limit);
	st = wh_call(&w, err, ph_info[ph].action, "limitstart", ls, "limitnum", ln, NULL);
	if (st == PROV_OK)
		st = parse_list(cursor, &w.resp, page, err, &entries);
	if (st == PROV_OK && entries != NULL)
		st = page_more(&w, ph, start, entries, page, err);
	st = prov_finish(s, st, page, err);
	json_object_put(entries);
	json_object_put(w.cur_list);
	json_object_put(w.cur_root);
	httpc_resp_free(&w.resp);
	return st;
}

const struct provider_ops whmcs_ops = { whmcs_fetch };

/* The fate of each field (providers/fields.h), of the objects as stored:
 * the list entries, a client's with its GetClientsDetails "client" object
 * as "details", an invoice's with its GetInvoice answer as "detail" (both
 * without the secrets raw_clean takes out, which the tables still name).
 * Fields: the WHMCS API reference (providers.md §9.2). */
/* clang-format off */
#define WH_SECRET "A secret: not imported, and left out of the stored copy."
#define WH_SAME(col, key) "`" col "`", "the same as `" key "`, which is the one read"
static const struct prov_field client_fields[] = {
	{ "id", "`import_links`", "the external id; contacts, services, addons, domains, invoices and payments link to it" },
	{ "email", "`hosting_clients.email`", "the natural key", PROV_TEXT(hosting_client, email, 255) },
	{ "firstname", "`hosting_clients.first_name`", NULL, PROV_TEXT(hosting_client, first_name, 255) },
	{ "lastname", "`hosting_clients.last_name`", NULL, PROV_TEXT(hosting_client, last_name, 255) },
	{ "companyname", "`hosting_clients.company`", "`\"\"`: NULL", PROV_TEXT(hosting_client, company, 255) },
	{ "datecreated", "`hosting_clients.client_since`", NULL },
	{ "status", "`hosting_clients.status`", "`Active`, `Inactive`, `Closed` in lower case; an unknown one is `other`, with a warning" },
	{ "groupid", NULL, "Client groups have no place in the account." },
	{ "details.address1", "`hosting_clients.address1`", NULL },
	{ "details.address2", "`hosting_clients.address2`", NULL },
	{ "details.city", "`hosting_clients.city`", NULL },
	{ "details.state", "`hosting_clients.state`", NULL },
	{ "details.postcode", "`hosting_clients.postcode`", NULL },
	{ "details.countrycode", "`hosting_clients.country`", "ISO 3166 alpha-2, as WHMCS stores it" },
	{ "details.country", "`hosting_clients.country`", "when there is no `countrycode`" },
	{ "details.phonenumberformatted", "`hosting_clients.phone`", "`+44.1234567890`" },
	{ "details.phonenumber", "`hosting_clients.phone`", "when there is no `phonenumberformatted`" },
	{ "details.credit", "`hosting_clients.credit`", NULL },
	{ "details.currency_code", "`hosting_clients.currency`", "also the currency of the client's services, addons, domains, payments, and invoices without their own; not ISO 4217: NULL, with a warning" },
	{ "details.currency", "`hosting_clients.currency`", "the currency id, through `GetCurrencies`, when there is no `currency_code`" },
	{ "details.id", WH_SAME("import_links", "id") },
	{ "details.userid", WH_SAME("import_links", "id") },
	{ "details.client_id", WH_SAME("import_links", "id") },
	{ "details.firstname", WH_SAME("hosting_clients.first_name", "firstname") },
	{ "details.lastname", WH_SAME("hosting_clients.last_name", "lastname") },
	{ "details.fullname", "`hosting_clients.first_name`, `hosting_clients.last_name`", "the same as `firstname` and `lastname`, which are the ones read" },
	{ "details.companyname", WH_SAME("hosting_clients.company", "companyname") },
	{ "details.email", WH_SAME("hosting_clients.email", "email") },
	{ "details.status", WH_SAME("hosting_clients.status", "status") },
	{ "details.datecreated", WH_SAME("hosting_clients.client_since", "datecreated") },
	{ "details.fullstate", WH_SAME("hosting_clients.state", "state") },
	{ "details.statecode", WH_SAME("hosting_clients.state", "state") },
	{ "details.countryname", WH_SAME("hosting_clients.country", "countrycode") },
	{ "details.telephoneNumber", WH_SAME("hosting_clients.phone", "phonenumberformatted") },
	{ "details.phonecc", WH_SAME("hosting_clients.phone", "phonenumberformatted") },
	{ "details.groupid", NULL, "Client groups have no place in the account." },
	{ "details.owner_user_id", NULL, "The WHMCS user who owns the client account; users are not imported." },
	{ "details.users", NULL, "The WHMCS users who may manage the client account are not imported." },
	{ "details.uuid", NULL, "WHMCS's own second id; the import links the client by its id." },
	{ "details.tax_id", NULL, "The client's tax id (VAT number) has no place in the account." },
	{ "details.taxexempt", NULL, "Tax exemption has no place in the account: invoices carry their own taxes." },
	{ "details.notes", NULL, "Staff notes on the client have no place in the account." },
	{ "details.language", NULL, "The client's language has no place in the account." },
	{ "details.defaultgateway", NULL, "The client's default payment gateway has no place in the account." },
	{ "details.billingcid", NULL, "The contact who gets the invoices is not marked in the account." },
	{ "details.customfields", NULL, "Custom client fields are not imported." },
	{ "details.email_preferences", NULL, "Which e-mails the client gets has no place in the account." },
	{ "details.emailoptout", NULL, "Which e-mails the client gets has no place in the account." },
	{ "details.marketing_emails_opt_in", NULL, "Which e-mails the client gets has no place in the account." },
	{ "details.isOptedInToMarketingEmails", NULL, "Which e-mails the client gets has no place in the account." },
	{ "details.email_verified", NULL, "Whether the address was verified is not carried." },
	{ "details.latefeeoveride", NULL, "WHMCS's own billing switch for this client has no place in the account." },
	{ "details.overideduenotices", NULL, "WHMCS's own billing switch for this client has no place in the account." },
	{ "details.separateinvoices", NULL, "WHMCS's own billing switch for this client has no place in the account." },
	{ "details.disableautocc", NULL, "WHMCS's own billing switch for this client has no place in the account." },
	{ "details.overrideautoclose", NULL, "WHMCS's own switch for this client has no place in the account." },
	{ "details.allowSingleSignOn", NULL, "WHMCS's own switch for this client has no place in the account." },
	{ "details.twofaenabled", NULL, "Two-factor login at WHMCS is not carried." },
	{ "details.lastlogin", NULL, "State at WHMCS, not a setting." },
	{ "details.password", NULL, WH_SECRET },
	{ "details.securityqid", NULL, WH_SECRET },
	{ "details.securityqans", NULL, WH_SECRET },
	{ "details.cctype", NULL, WH_SECRET },
	{ "details.cclastfour", NULL, WH_SECRET },
	{ "details.gatewayid", NULL, WH_SECRET },
	{ NULL, NULL, NULL }
};
#define WH_EMAILS "Which e-mails the contact gets has no place in the account."
static const struct prov_field contact_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "userid", "`hosting_contacts.client_id`", "the imported client" },
	{ "firstname", "`hosting_contacts.first_name`", NULL, PROV_TEXT(hosting_contact, first_name, 255) },
	{ "lastname", "`hosting_contacts.last_name`", NULL, PROV_TEXT(hosting_contact, last_name, 255) },
	{ "companyname", "`hosting_contacts.company`", NULL, PROV_TEXT(hosting_contact, company, 255) },
	{ "email", "`hosting_contacts.email`", NULL, PROV_TEXT(hosting_contact, email, 255) },
	{ "phonenumber", "`hosting_contacts.phone`", NULL, PROV_TEXT(hosting_contact, phone, 64) },
	{ "address1", "`hosting_contacts.address1`", NULL, PROV_TEXT(hosting_contact, address1, 255) },
	{ "address2", "`hosting_contacts.address2`", NULL, PROV_TEXT(hosting_contact, address2, 255) },
	{ "city", "`hosting_contacts.city`", NULL, PROV_TEXT(hosting_contact, city, 255) },
	{ "state", "`hosting_contacts.state`", NULL, PROV_TEXT(hosting_contact, state, 255) },
	{ "postcode", "`hosting_contacts.postcode`", NULL, PROV_TEXT(hosting_contact, postcode, 32) },
	{ "country", "`hosting_contacts.country`", NULL, PROV_TEXT(hosting_contact, country, 64) },
	{ "subaccount", NULL, "Whether the contact may log in to WHMCS is not carried." },
	{ "permissions", NULL, "What the contact may do at WHMCS is not carried." },
	{ "generalemails", NULL, WH_EMAILS },
	{ "invoiceemails", NULL, WH_EMAILS },
	{ "productemails", NULL, WH_EMAILS },
	{ "domainemails", NULL, WH_EMAILS },
	{ "supportemails", NULL, WH_EMAILS },
	{ "affiliateemails", NULL, WH_EMAILS },
	{ "created_at", NULL, "State at WHMCS, not a setting." },
	{ "updated_at", NULL, "State at WHMCS, not a setting." },
	{ "password", NULL, WH_SECRET },
	{ "pwresetkey", NULL, WH_SECRET },
	{ "pwresetexpiry", NULL, WH_SECRET },
	{ NULL, NULL, NULL }
};
#define WH_STATUS "in lower case with underscores; an unknown one is `other`, with a warning"
#define WH_SERVER "The server it runs on at WHMCS is not carried."
static const struct prov_field service_fields[] = {
	{ "id", "`import_links`", "the external id; addons and invoice lines link to it" },
	{ "clientid", "`hosting_services.client_id`", "the imported client" },
	{ "name", "`hosting_services.product`", NULL, PROV_TEXT(hosting_service, product, 255) },
	{ "groupname", "`hosting_services.product`", "only when there is no `name`" },
	{ "domain", "`hosting_services.domain`", NULL, PROV_TEXT(hosting_service, domain, 255) },
	{ "recurringamount", "`hosting_services.amount`", "a decimal string, taken as sent; the currency is the client's" },
	{ "firstpaymentamount", "`hosting_services.first_amount`", NULL },
	{ "regdate", "`hosting_services.registered`", NULL },
	{ "nextduedate", "`hosting_services.next_due`", "`0000-00-00`: NULL" },
	{ "status", "`hosting_services.status`", WH_STATUS },
	{ "billingcycle", "`hosting_services.billing_cycle`", "see the cycles below" },
	{ "qty", NULL, "How many of the product the client has is not carried." },
	{ "orderid", NULL, "The order it came from is not imported." },
	{ "ordernumber", NULL, "The order it came from is not imported." },
	{ "pid", NULL, "The product's id at WHMCS; the account keeps the product's name." },
	{ "translated_name", NULL, "The product's name in the client's language; the account keeps `name`." },
	{ "translated_groupname", NULL, "The product group's name in the client's language is not carried." },
	{ "username", NULL, "The hosting account's login is not imported: the account does not manage the service itself." },
	{ "password", NULL, WH_SECRET },
	{ "dedicatedip", NULL, "The service's IP addresses have no place in the account." },
	{ "assignedips", NULL, "The service's IP addresses have no place in the account." },
	{ "serverid", NULL, WH_SERVER },
	{ "servername", NULL, WH_SERVER },
	{ "serverip", NULL, WH_SERVER },
	{ "serverhostname", NULL, WH_SERVER },
	{ "ns1", NULL, "The service's name servers have no place in the account." },
	{ "ns2", NULL, "The service's name servers have no place in the account." },
	{ "paymentmethod", NULL, "How the client pays for this service has no place in the account." },
	{ "paymentmethodname", NULL, "How the client pays for this service has no place in the account." },
	{ "subscriptionid", NULL, "The payment gateway's subscription is not carried: renewals are not paid automatically." },
	{ "promoid", NULL, "The promotion it was bought with is not carried." },
	{ "overideautosuspend", NULL, "WHMCS's own suspension rule for this service is not carried." },
	{ "overidesuspenduntil", NULL, "WHMCS's own suspension rule for this service is not carried." },
	{ "suspensionreason", NULL, "Why the service was suspended has no place in the account." },
	{ "notes", NULL, "Staff notes on the service have no place in the account." },
	{ "customfields.customfield", NULL, "Custom fields of the product are not imported." },
	{ "configoptions.configoption", NULL, "The options the client chose (configurable options) are not imported." },
	{ "diskusage", NULL, "State at WHMCS, not a setting." },
	{ "disklimit", NULL, "The service's disk limit has no place in the account." },
	{ "bwusage", NULL, "State at WHMCS, not a setting." },
	{ "bwlimit", NULL, "The service's bandwidth limit has no place in the account." },
	{ "lastupdate", NULL, "State at WHMCS, not a setting." },
	{ NULL, NULL, NULL }
};
static const struct prov_field addon_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "userid", "`hosting_addons.client_id`", "the imported client" },
	{ "serviceid", "`hosting_addons.service_id`", "the imported service" },
	{ "name", "`hosting_addons.name`", "none (some predefined addons): `Addon <id>`, with a warning", PROV_TEXT(hosting_addon, name, 255) },
	{ "status", "`hosting_addons.status`", "as a service's" },
	{ "billingcycle", "`hosting_addons.billing_cycle`", "as a service's" },
	{ "recurring", "`hosting_addons.amount`", "the currency is the client's" },
	{ "setupfee", "`hosting_addons.setup_fee`", NULL },
	{ "regdate", "`hosting_addons.registered`", NULL },
	{ "nextduedate", "`hosting_addons.next_due`", NULL },
	{ "qty", NULL, "How many of the addon the client has is not carried." },
	{ "orderid", NULL, "The order it came from is not imported." },
	{ "addonid", NULL, "The addon's id in the WHMCS catalogue; the account keeps its name." },
	{ "tax", NULL, "Whether the addon is taxed has no place in the account." },
	{ "nextinvoicedate", NULL, "When WHMCS next invoices it has no place in the account." },
	{ "paymentmethod", NULL, "How the client pays for this addon has no place in the account." },
	{ "paymentmethodname", NULL, "How the client pays for this addon has no place in the account." },
	{ "notes", NULL, "Staff notes on the addon have no place in the account." },
	{ NULL, NULL, NULL }
};
static const struct prov_field domain_fields[] = {
	{ "id", "`import_links`", "the external id; invoice lines link to it" },
	{ "userid", "`hosting_domains.client_id`", "the imported client" },
	{ "domainname", "`hosting_domains.domain`", NULL, PROV_TEXT(hosting_domain, domain, 255) },
	{ "registrar", "`hosting_domains.registrar`", NULL, PROV_TEXT(hosting_domain, registrar, 255) },
	{ "regperiod", "`hosting_domains.period_years`", NULL, PROV_INT(hosting_domain, period) },
	{ "regdate", "`hosting_domains.registered`", NULL },
	{ "expirydate", "`hosting_domains.expiry`", NULL },
	{ "nextduedate", "`hosting_domains.next_due`", NULL },
	{ "recurringamount", "`hosting_domains.amount`", "the currency is the client's" },
	{ "donotrenew", "`hosting_domains.auto_renew`", "`1`: 0, `0`: 1; absent or `\"\"`: NULL" },
	{ "status", "`hosting_domains.status`", WH_STATUS },
	{ "orderid", NULL, "The order it came from is not imported." },
	{ "regtype", NULL, "Whether it was registered or transferred in has no place in the account." },
	{ "firstpaymentamount", NULL, "The first payment for the domain has no place in the account." },
	{ "paymentmethod", NULL, "How the client pays for this domain has no place in the account." },
	{ "paymentmethodname", NULL, "How the client pays for this domain has no place in the account." },
	{ "subscriptionid", NULL, "The payment gateway's subscription is not carried: renewals are not paid automatically." },
	{ "promoid", NULL, "The promotion it was bought with is not carried." },
	{ "dnsmanagement", NULL, "The DNS management addon of the domain is not carried." },
	{ "emailforwarding", NULL, "The e-mail forwarding addon of the domain is not carried." },
	{ "idprotection", NULL, "The ID protection addon of the domain is not carried." },
	{ "notes", NULL, "Staff notes on the domain have no place in the account." },
	{ NULL, NULL, NULL }
};
#define WH_LINE(key, col, note) { "detail.items.item[]." key, "`invoice_items." col "`", note }
static const struct prov_field invoice_fields[] = {
	{ "id", "`import_links`", "the external id; payments link to it" },
	{ "userid", "`invoices.client_id`", "the imported client" },
	{ "invoicenum", "`invoices.number`", "else the id (what WHMCS shows without sequential numbering)", PROV_TEXT(invoice, number, 64) },
	{ "date", "`invoices.invoice_date`", NULL },
	{ "duedate", "`invoices.due`", NULL },
	{ "datepaid", "`invoices.paid_at`", "`0000-00-00 00:00:00`: NULL" },
	{ "total", "`invoices.total`", "GetInvoice's when read, else the list's" },
	{ "subtotal", "`invoices.subtotal`", "GetInvoice's when read, else the list's" },
	{ "tax", "`invoices.tax`", "GetInvoice's when read, else the list's" },
	{ "tax2", "`invoices.tax2`", "GetInvoice's when read, else the list's" },
	{ "credit", "`invoices.credit`", "GetInvoice's when read, else the list's" },
	{ "paymentmethod", "`invoices.payment_method`", "GetInvoice's when read, else the list's", PROV_TEXT(invoice, payment_method, 64) },
	{ "status", "`invoices.status`", WH_STATUS },
	{ "currencycode", "`invoices.currency`", "else the client's currency; not ISO 4217: NULL, with a warning" },
	{ "firstname", "`hosting_clients.first_name`", "the client's, linked by `userid`" },
	{ "lastname", "`hosting_clients.last_name`", "the client's, linked by `userid`" },
	{ "companyname", "`hosting_clients.company`", "the client's, linked by `userid`" },
	{ "currencyprefix", NULL, "How WHMCS writes amounts in the currency; the account keeps its code." },
	{ "currencysuffix", NULL, "How WHMCS writes amounts in the currency; the account keeps its code." },
	{ "taxrate", NULL, "The tax rate has no place in the account; the tax amount is kept." },
	{ "taxrate2", NULL, "The tax rate has no place in the account; the tax amount is kept." },
	{ "notes", NULL, "Notes on the invoice have no place in the account." },
	{ "date_refunded", NULL, "When the invoice was refunded has no place in the account; its status says refunded." },
	{ "date_cancelled", NULL, "When the invoice was cancelled has no place in the account; its status says cancelled." },
	{ "last_capture_attempt", NULL, "State at WHMCS, not a setting." },
	{ "paymethodid", NULL, "The client's stored payment method is not imported." },
	{ "created_at", NULL, "State at WHMCS, not a setting." },
	{ "updated_at", NULL, "State at WHMCS, not a setting." },
	{ "detail.balance", "`invoices.balance`", "GetInvoice only" },
	{ "detail.total", "`invoices.total`", NULL },
	{ "detail.subtotal", "`invoices.subtotal`", NULL },
	{ "detail.tax", "`invoices.tax`", NULL },
	{ "detail.tax2", "`invoices.tax2`", NULL },
	{ "detail.credit", "`invoices.credit`", NULL },
	{ "detail.paymentmethod", "`invoices.payment_method`", NULL },
	WH_LINE("description", "description", "the lines in their order (`position`)"),
	WH_LINE("amount", "amount", NULL),
	WH_LINE("type", "type", "`Hosting`, `Addon`, `DomainRegister`, `DomainRenew`, `Item`, …; `\"\"`: NULL"),
	WH_LINE("relid", "relid", "the service, domain or addon id; `0`: NULL"),
	WH_LINE("taxed", "taxed", NULL),
	{ "detail.items.item[].id", NULL, "A line's own id: the lines are replaced as a whole." },
	{ "detail.transactions.transaction", "`payments`", "not read here: the same records come from GetTransactions, as payments" },
	{ "detail.invoiceid", WH_SAME("import_links", "id") },
	{ "detail.invoicenum", WH_SAME("invoices.number", "invoicenum") },
	{ "detail.userid", WH_SAME("invoices.client_id", "userid") },
	{ "detail.date", WH_SAME("invoices.invoice_date", "date") },
	{ "detail.duedate", WH_SAME("invoices.due", "duedate") },
	{ "detail.datepaid", WH_SAME("invoices.paid_at", "datepaid") },
	{ "detail.status", WH_SAME("invoices.status", "status") },
	{ "detail.taxrate", NULL, "The tax rate has no place in the account; the tax amount is kept." },
	{ "detail.taxrate2", NULL, "The tax rate has no place in the account; the tax amount is kept." },
	{ "detail.notes", NULL, "Notes on the invoice have no place in the account." },
	{ "detail.ccgateway", NULL, "Whether the gateway takes cards has no place in the account." },
	{ NULL, NULL, NULL }
};
#undef WH_LINE
static const struct prov_field payment_fields[] = {
	{ "id", "`import_links`", "the external id" },
	{ "userid", "`payments.client_id`", "else the client whose transactions were asked for" },
	{ "invoiceid", "`payments.invoice_id`", "the imported invoice; `0` (not tied to an invoice): NULL" },
	{ "date", "`payments.paid_on`", NULL },
	{ "gateway", "`payments.gateway`", NULL, PROV_TEXT(payment, gateway, 64) },
	{ "transid", "`payments.transaction_id`", "with `gateway` the natural key; optional in WHMCS: a payment without one is imported too, found again by its import link", PROV_TEXT(payment, transaction_id, 191) },
	{ "description", "`payments.description`", NULL, PROV_TEXT(payment, description, 1024) },
	{ "amountin", "`payments.amount_in`", NULL },
	{ "fees", "`payments.fees`", NULL },
	{ "amountout", "`payments.amount_out`", NULL },
	{ "currency", "`payments.currency`", "`0`: the client's currency; another id: that currency's code (`GetCurrencies`)" },
	{ "rate", NULL, "The exchange rate of the payment has no place in the account." },
	{ "refundid", NULL, "The payment a refund pays back is not linked." },
	{ NULL, NULL, NULL }
};
#undef WH_SAME
#undef WH_SECRET
/* clang-format on */

const struct prov_fields whmcs_fields[] = {
	{ "hosting_client", "client (`GetClients`, with `GetClientsDetails` as `details`)", client_fields },
	{ "hosting_contact", "client contact (`GetContacts`)", contact_fields },
	{ "hosting_service", "service (`GetClientsProducts`)", service_fields },
	{ "hosting_addon", "service addon (`GetClientsAddons`)", addon_fields },
	{ "hosting_domain", "domain (`GetClientsDomains`)", domain_fields },
	{ "invoice", "invoice (`GetInvoices`, with `GetInvoice` as `detail`)", invoice_fields },
	{ "payment", "transaction (`GetTransactions`)", payment_fields },
	{ NULL, NULL, NULL },
};
