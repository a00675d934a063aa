/* WHMCS External API, self-hosted (providers.md §9; docs/providers/whmcs.md).
 *
 * Every call is a POST of a form to <url>/includes/api.php with action,
 * responsetype=json, identifier and secret (the api_identifier/api_secret
 * credentials) and, when given, accesskey (access_key). The URL is the
 * user's: the session applies the URL guard to it. Lists are paged by
 * limitstart/limitnum; limitstart advances by numreturned until numreturned
 * is 0 or limitstart reaches totalresults (some versions cap limitnum, so
 * the requested size is never assumed). Items are wrapped twice
 * ("clients":{"client":[…]}); an empty list is a missing key, "" or [].
 * Errors come as {"result":"error","message":…}, with HTTP 403 for bad
 * credentials and usually HTTP 200 otherwise.
 * Cursor: "clients:<limitstart>" → "services:<…>" → "domains:<…>" →
 * "invoices:<…>" → end. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "providers/adapters.h"
#include "providers/common.h"

#define WH "WHMCS"
#define WH_LIMIT 100

enum { PH_CLIENTS, PH_SERVICES, PH_DOMAINS, PH_INVOICES };
static const char *const phases[] = { "clients", "services", "domains", "invoices", NULL };
static const char *const actions[] = { "GetClients", "GetClientsProducts", "GetClientsDomains",
	"GetInvoices" };
static const char *const plurals[] = { "clients", "products", "domains", "invoices" };
static const char *const singulars[] = { "client", "product", "domain", "invoice" };

/* WHMCS values (as shown in its admin area) and their normalized forms. */
struct map {
	const char *wh, *norm;
};
static const struct map client_statuses[] = {
	{ "Active", "active" }, { "Inactive", "inactive" }, { "Closed", "closed" }, { NULL, NULL }
};
static const struct map service_statuses[] = {
	{ "Pending", "pending" }, { "Active", "active" }, { "Suspended", "suspended" },
	{ "Terminated", "terminated" }, { "Cancelled", "cancelled" }, { "Fraud", "fraud" },
	{ "Completed", "completed" }, { NULL, NULL }
};
static const struct map domain_statuses[] = {
	{ "Pending", "pending" }, { "Pending Registration", "pending_registration" },
	{ "Pending Transfer", "pending_transfer" }, { "Active", "active" }, { "Grace", "grace" },
	{ "Redemption", "redemption" }, { "Expired", "expired" },
	{ "Transferred Away", "transferred_away" }, { "Cancelled", "cancelled" }, { "Fraud", "fraud" },
	{ NULL, NULL }
};
static const struct map invoice_statuses[] = {
	{ "Draft", "draft" }, { "Unpaid", "unpaid" }, { "Paid", "paid" }, { "Cancelled", "cancelled" },
	{ "Refunded", "refunded" }, { "Collections", "collections" },
	{ "Payment Pending", "payment_pending" }, { "Overdue", "overdue" }, { NULL, NULL }
};
static const struct map cycles[] = {
	{ "Free Account", "free" }, { "Free", "free" }, { "One Time", "one_time" },
	{ "Onetime", "one_time" }, { "Monthly", "monthly" }, { "Quarterly", "quarterly" },
	{ "Semi-Annually", "semi_annually" }, { "Annually", "annually" },
	{ "Biennially", "biennially" }, { "Triennially", "triennially" }, { NULL, NULL }
};

/* The normalized form of member key of o by table m: NULL when absent or "",
 * "other" (with a warning) when unknown. */
static const char *
map_value(json_object *o, const char *key, const struct map *m, const char *what,
    const char *name, struct prov_page *page)
{
	const char *v = prov_get_text(o, key, 64);
	char vb[48];

	if (v == NULL)
		return NULL;
	for (size_t i = 0; m[i].wh != NULL; i++)
		if (strcasecmp(v, m[i].wh) == 0)
			return m[i].norm;
	prov_copy_text(vb, sizeof vb, v);
	prov_page_warn(page, WH " %s \"%s\" has an unknown %s \"%s\"; kept as other", what, name,
	    strcmp(key, "billingcycle") == 0 ? "billing cycle" : "status", vb);
	return "other";
}

/* A date "YYYY-MM-DD[ hh:mm:ss]" as YYYY-MM-DD in buf, or NULL ("0000-00-00"
 * and anything else). */
static const char *
date_of(json_object *o, const char *key, char buf[11])
{
	const char *s = prov_get_text(o, key, 64);

	if (s == NULL || strlen(s) < 10 || (s[10] != '\0' && s[10] != ' ' && s[10] != 'T'))
		return NULL;
	for (int i = 0; i < 10; i++)
		if ((i == 4 || i == 7) ? s[i] != '-' : !isdigit((unsigned char)s[i]))
			return NULL;
	if (strncmp(s, "0000", 4) == 0 || strncmp(s + 5, "00", 2) == 0 || strncmp(s + 8, "00", 2) == 0)
		return NULL;
	memcpy(buf, s, 10);
	buf[10] = '\0';
	return buf;
}

/* An amount ("12.95", 12.95, "-1.00") as a decimal string in buf, or NULL. */
static const char *
amount_of(json_object *o, const char *key, char buf[32])
{
	json_object *v = prov_get(o, key);
	const char *s;
	size_t i = 0, digits = 0;

	if (json_object_is_type(v, json_type_int)) {
		snprintf(buf, 32, "%lld", (long long)json_object_get_int64(v));
		return buf;
	}
	if (json_object_is_type(v, json_type_double)) {
		snprintf(buf, 32, "%.2f", json_object_get_double(v));
		return strchr(buf, 'n') == NULL && strchr(buf, 'i') == NULL ? buf : NULL;
	}
	if ((s = prov_get_text(o, key, 30)) == NULL)
		return NULL;
	if (s[i] == '-')
		i++;
	for (; isdigit((unsigned char)s[i]); i++)
		digits++;
	if (s[i] == '.')
		for (i++; isdigit((unsigned char)s[i]); i++)
			;
	if (digits == 0 || s[i] != '\0')
		return NULL;
	snprintf(buf, 32, "%s", s);
	return buf;
}

/* The client id member key of o as text in buf, or NULL (absent, 0). */
static const char *
client_of(json_object *o, const char *key, char *buf, size_t size)
{
	if (prov_get_id(o, key, buf, size) != 0 || strcmp(buf, "0") == 0)
		return NULL;
	return buf;
}

static void
add_client(json_object *c, const char *id, struct prov_page *page)
{
	struct prov_hosting_client hc = { 0 };
	const char *email = prov_get_text(c, "email", 255);
	char created[11];

	hc.email = email;
	hc.first_name = prov_get_text(c, "firstname", 255);
	hc.last_name = prov_get_text(c, "lastname", 255);
	hc.company = prov_get_text(c, "companyname", 255);
	hc.status = map_value(c, "status", client_statuses, "client", email ? email : id, page);
	hc.created = date_of(c, "datecreated", created);
	prov_page_add(page, "hosting_client", id, json_object_get(c), prov_norm_hosting_client(&hc));
}

static void
add_service(json_object *v, const char *id, struct prov_page *page)
{
	struct prov_hosting_service hs = { 0 };
	const char *name = prov_get_text(v, "name", 255);
	char client[64], due[11], amount[32];

	hs.client_id = client_of(v, "clientid", client, sizeof client);
	hs.product = name ? name : prov_get_text(v, "groupname", 255);
	hs.domain = prov_get_text(v, "domain", 255);
	hs.status = map_value(v, "status", service_statuses, "service", hs.product ? hs.product : id, page);
	hs.billing_cycle = map_value(v, "billingcycle", cycles, "service", hs.product ? hs.product : id,
	    page);
	hs.amount = amount_of(v, "recurringamount", amount);
	hs.next_due = date_of(v, "nextduedate", due);
	prov_page_add(page, "hosting_service", id, json_object_get(v), prov_norm_hosting_service(&hs));
}

static void
add_domain(json_object *d, const char *id, struct prov_page *page)
{
	struct prov_hosting_domain hd = { 0 };
	char client[64], expiry[11], due[11], amount[32];

	hd.client_id = client_of(d, "userid", client, sizeof client);
	hd.domain = prov_get_text(d, "domainname", 255);
	hd.registrar = prov_get_text(d, "registrar", 255);
	hd.status = map_value(d, "status", domain_statuses, "domain", hd.domain ? hd.domain : id, page);
	hd.expiry = date_of(d, "expirydate", expiry);
	hd.next_due = date_of(d, "nextduedate", due);
	hd.amount = amount_of(d, "recurringamount", amount);
	prov_page_add(page, "hosting_domain", id, json_object_get(d), prov_norm_hosting_domain(&hd));
}

static void
add_invoice(json_object *v, const char *id, struct prov_page *page)
{
	struct prov_invoice in = { 0 };
	const char *num = prov_get_text(v, "invoicenum", 64);
	char client[64], date[11], due[11], paid[11], total[32];

	/* Without sequential numbering WHMCS shows the invoice id as its number. */
	in.number = num ? num : id;
	in.client_id = client_of(v, "userid", client, sizeof client);
	in.date = date_of(v, "date", date);
	in.due = date_of(v, "duedate", due);
	in.paid_at = date_of(v, "datepaid", paid);
	in.total = amount_of(v, "total", total);
	in.currency = prov_get_text(v, "currencycode", 8);
	in.status = map_value(v, "status", invoice_statuses, "invoice", in.number, page);
	prov_page_add(page, "invoice", id, json_object_get(v), prov_norm_invoice(&in));
}

/* An error answer ({"result":"error","message":…}, any HTTP status). */
static enum prov_status
error_answer(const char *msg, long http, size_t ph, struct prov_error *err)
{
	static const char *const auth[] = { "Authentication Failed", "Invalid or missing credentials",
		"Invalid IP", "Invalid Access Key", "IP Banned", "Access Denied", "Invalid Permissions",
		NULL };
	char text[160];
	bool is_auth = http == 401 || http == 403;

	if (msg != NULL && *msg != '\0')
		prov_copy_text(text, sizeof text, msg);
	else
		snprintf(text, sizeof text, "HTTP %ld, no details", http);
	for (size_t i = 0; !is_auth && msg != NULL && auth[i] != NULL; i++)
		if (strncasecmp(msg, auth[i], strlen(auth[i])) == 0)
			is_auth = true;
	if (!is_auth)
		return prov_fail(err, PROV_FATAL, WH " answered %s with an error: %s", actions[ph], text);
	if (strncasecmp(text, "Invalid IP", 10) == 0 || strncasecmp(text, "IP Banned", 9) == 0)
		return prov_fail(err, PROV_AUTH, WH " refused this server's address (%s): add it to the "
		    "API IP access list in WHMCS, or give the access_key credential", text);
	if (strncasecmp(text, "Invalid Access Key", 18) == 0)
		return prov_fail(err, PROV_AUTH, WH " rejected the access_key (%s)", text);
	if (strncasecmp(text, "Invalid Permissions", 19) == 0)
		return prov_fail(err, PROV_AUTH, WH " does not allow these API credentials to call %s "
		    "(%s): give their API role GetClients, GetClientsProducts, GetClientsDomains and "
		    "GetInvoices", actions[ph], text);
	return prov_fail(err, PROV_AUTH, WH " rejected the API credentials (%s)", text);
}

/* The items of a doubly wrapped list: root.<plural>.<singular>[]. Returns a
 * new array (empty for a missing key, "", [] or {}), or NULL when the shape
 * is something else. */
static json_object *
list_items(json_object *root, size_t ph)
{
	json_object *outer = prov_get(root, plurals[ph]), *inner, *out;

	out = json_object_new_array();
	if (outer == NULL)
		return out;
	switch (json_object_get_type(outer)) {
	case json_type_string:
		if (json_object_get_string_len(outer) == 0)
			return out;
		break;
	case json_type_array:
		/* [] when empty; tolerate a list given without the inner wrapper */
		for (size_t i = 0; i < json_object_array_length(outer); i++)
			json_object_array_add(out, json_object_get(json_object_array_get_idx(outer, i)));
		return out;
	case json_type_object:
		inner = prov_get(outer, singulars[ph]);
		if (inner == NULL)
			return out; /* {} */
		if (json_object_is_type(inner, json_type_array)) {
			for (size_t i = 0; i < json_object_array_length(inner); i++) {
				json_object *e = json_object_array_get_idx(inner, i);

				json_object_array_add(out, json_object_get(e));
			}
			return out;
		}
		if (json_object_is_type(inner, json_type_object)) {
			json_object_array_add(out, json_object_get(inner)); /* one item, unwrapped */
			return out;
		}
		break;
	default:
		break;
	}
	json_object_put(out);
	return NULL;
}

enum prov_status
whmcs_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	json_object *root, *items;
	const char *result;
	size_t ph, n;
	int64_t start, total = -1, returned = -1;
	enum prov_status st;
	char id[160], text[200];

	if (prov_cursor_parse(cursor, phases, 0, &ph, &start) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " WH " discovery: bad checkpoint");
	if ((st = httpc_classify(resp, WH, "API credentials", err)) != PROV_OK) {
		if (st == PROV_AUTH) {
			prov_body_message(resp, text, sizeof text);
			return error_answer(text, resp->status, ph, err);
		}
		return st;
	}
	if ((root = prov_parse_json(resp, WH, err)) == NULL)
		return err->status;
	result = prov_get_str(root, "result", 16);
	if (result != NULL && strcasecmp(result, "error") == 0) {
		st = error_answer(prov_get_str(root, "message", 1024), resp->status, ph, err);
		json_object_put(root);
		return st;
	}
	if (result == NULL || strcasecmp(result, "success") != 0) {
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, WH " sent an answer without \"result\":\"success\"");
	}
	if ((items = list_items(root, ph)) == NULL) {
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, WH " sent \"%s\" in a shape it does not use",
		    plurals[ph]);
	}
	n = json_object_array_length(items);
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, WH " sent %zu %s in one page; only the first %d were kept", n,
		    plurals[ph], PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(items, i);

		if (!json_object_is_type(it, json_type_object) || prov_get_id(it, "id", id, sizeof id) != 0) {
			prov_page_warn(page, WH " sent an entry of %s without a usable id; skipped",
			    plurals[ph]);
			continue;
		}
		if (ph == PH_CLIENTS)
			add_client(it, id, page);
		else if (ph == PH_SERVICES)
			add_service(it, id, page);
		else if (ph == PH_DOMAINS)
			add_domain(it, id, page);
		else
			add_invoice(it, id, page);
	}

	/* numbers may be strings; numreturned defaults to what came */
	if (!prov_get_int(root, "numreturned", &returned) || returned < 0)
		returned = (int64_t)json_object_array_length(items);
	if (!prov_get_int(root, "totalresults", &total))
		total = -1;
	json_object_put(items);
	json_object_put(root);
	if (n > 0 && returned > 0 && (total < 0 || start + returned < total)) {
		if (start + returned >= (int64_t)PROV_MAX_PAGES * WH_LIMIT)
			prov_page_warn(page, WH " %s: stopped after %lld records", plurals[ph],
			    (long long)(start + returned));
		else {
			page->next_cursor = prov_cursor_make(phases[ph], start + returned);
			return PROV_OK;
		}
	}
	if (phases[ph + 1] != NULL)
		page->next_cursor = prov_cursor_make(phases[ph + 1], 0);
	return PROV_OK;
}

static enum prov_status
whmcs_fetch(struct prov_session *s, const char *cursor, struct prov_page *page,
    struct prov_error *err)
{
	const char *ident = prov_cred(s, "api_identifier");
	const char *secret = prov_cred(s, "api_secret");
	const char *access = prov_cred(s, "access_key");
	char *form = NULL, *url, num[24];
	size_t ph;
	int64_t start;

	if (prov_cursor_parse(cursor, phases, 0, &ph, &start) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " WH " discovery: bad checkpoint");
	if (ident == NULL || secret == NULL)
		return prov_fail(err, PROV_AUTH, "the " WH " credentials have no usable api_identifier "
		    "and api_secret");
	httpc_form_add(&form, "action", actions[ph]);
	httpc_form_add(&form, "responsetype", "json");
	httpc_form_add(&form, "identifier", ident);
	httpc_form_add(&form, "secret", secret);
	if (access != NULL)
		httpc_form_add(&form, "accesskey", access);
	snprintf(num, sizeof num, "%lld", (long long)start);
	httpc_form_add(&form, "limitstart", num);
	snprintf(num, sizeof num, "%d", WH_LIMIT);
	httpc_form_add(&form, "limitnum", num);

	url = prov_url(s, "/includes/api.php");
	return prov_fetch_form(s, cursor, url, form, whmcs_parse, page, err);
}

const struct provider_ops whmcs_ops = { whmcs_fetch };
