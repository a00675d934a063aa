/* Atlassian Statuspage, manage API v1 (providers.md §8; docs/providers/statuspage.md).
 *
 * GET with "Authorization: OAuth <api_key>". The answers are bare JSON
 * arrays without paging metadata. Discovery walks the pages one by one:
 *
 *   "pages:<i>"                      GET /v1/pages (or /v1/pages/<page_id> when
 *                                    the credentials name one page): the i-th page
 *                                    becomes a status_page ...
 *   "components:<i>:<n>:<page id>"   ... and, in the same fetch, its components
 *                                    (page=n from 1, per_page=100) become monitors
 *                                    and the page's monitor_ids;
 *   "subscribers:<i>:<n>:<page id>"  its subscribers (page=n from 0, limit=100)
 *                                    become contacts; then "pages:<i+1>"; past the
 *                                    last page: end.
 *
 * A list ends when an answer holds fewer entries than asked for. The one
 * exception to "one fetch, one request" is the components of a page: they
 * are read in the fetch that reads the page (up to SP_STEP_PAGES requests),
 * because a status page and its monitor list must be stored together.
 * Cursors hold the page id (checked: letters and digits only), never a URL.
 * HTTP 420 and 429 are rate limits (1 request per second per key). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/util.h"
#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"

#define SP "Statuspage"
#define SP_PER_PAGE 100     /* components per_page and subscribers limit: the maximum */
#define SP_STEP_PAGES 50    /* component pages read in one fetch (5000 components) */
#define SP_MAX_ID 64

enum { PH_PAGES, PH_COMPONENTS, PH_SUBSCRIBERS };
static const char *const phases[] = { "pages", "components", "subscribers", NULL };

struct sp_cursor {
	int ph;
	int64_t idx;            /* index of the page in the /v1/pages list */
	int64_t n;              /* components: page from 1; subscribers: page from 0 */
	char pid[SP_MAX_ID + 1];
};

static const char *const component_statuses[] = {
	"operational", "degraded_performance", "partial_outage", "major_outage", "under_maintenance", NULL
};

/* Subscriber modes. norm NULL: known, no equivalent. */
static const struct {
	const char *sp, *norm, *label;
} modes[] = {
	{ "email", "email", "e-mail" }, { "sms", "sms", "SMS" }, { "webhook", "webhook", "webhook" },
	{ "slack", "slack", "Slack" }, { "teams", "teams", "Microsoft Teams" },
	{ "msteams", "teams", "Microsoft Teams" },
	{ "integration_partner", NULL, "integration partner" }, { NULL, NULL, NULL }
};

/* True when s is a Statuspage object id: 1 to 64 letters and digits. */
static bool
valid_page_id(const char *s)
{
	size_t n = 0;

	if (s == NULL)
		return false;
	for (; s[n] != '\0'; n++)
		if (!isalnum((unsigned char)s[n]) || n >= SP_MAX_ID)
			return false;
	return n > 0;
}

/* Parse a cursor (NULL: the start). 0, or -1 when malformed. */
static int
cursor_parse(const char *cursor, struct sp_cursor *c)
{
	char buf[PROV_MAX_CURSOR + 1], *f[4], *p;
	size_t nf = 0;

	memset(c, 0, sizeof *c);
	if (cursor == NULL)
		return 0;
	if (strlen(cursor) > PROV_MAX_CURSOR)
		return -1;
	strcpy(buf, cursor);
	for (p = buf; nf < 4; nf++) {
		f[nf] = p;
		if ((p = strchr(p, ':')) == NULL) {
			nf++;
			break;
		}
		*p++ = '\0';
	}
	if (p != NULL)
		return -1; /* more than four fields */
	for (c->ph = 0; phases[c->ph] != NULL; c->ph++)
		if (strcmp(phases[c->ph], f[0]) == 0)
			break;
	if (nf < 2 || phases[c->ph] == NULL || parse_i64(f[1], 0, INT32_MAX, &c->idx) != 0)
		return -1;
	if (c->ph == PH_PAGES)
		return nf == 2 ? 0 : -1;
	if (nf != 4 || parse_i64(f[2], c->ph == PH_COMPONENTS ? 1 : 0, INT32_MAX, &c->n) != 0 ||
	    !valid_page_id(f[3]))
		return -1;
	strcpy(c->pid, f[3]);
	return 0;
}

static char *
cursor_make(int ph, int64_t idx, int64_t n, const char *pid)
{
	if (ph == PH_PAGES)
		return xasprintf("pages:%lld", (long long)idx);
	return xasprintf("%s:%lld:%lld:%s", phases[ph], (long long)idx, (long long)n, pid);
}

static void
add_page(json_object *p, const char *id, struct prov_page *page)
{
	struct prov_status_page sp = { 0 };
	const char *name = prov_get_text(p, "name", PROV_MAX_STR);
	const char *domain = prov_get_text(p, "domain", 253);
	const char *url = prov_get_text(p, "url", PROV_MAX_STR);
	const char *sub = prov_get_text(p, "subdomain", 63);
	char *built = NULL;

	sp.name = name ? name : id;
	if (domain != NULL)
		url = built = xasprintf("https://%s", domain);
	else if (url == NULL && sub != NULL)
		url = built = xasprintf("https://%s.statuspage.io", sub);
	sp.url = url;
	sp.public_ = !prov_get_bool(p, "viewers_must_be_team_members", false);
	prov_page_add(page, "status_page", id, json_object_get(p), prov_norm_status_page(&sp));
	free(built);
}

static void
add_component(json_object *c, const char *id, json_object *monitor_ids, struct prov_page *page)
{
	struct prov_monitor m = { 0 };
	const char *name = prov_get_text(c, "name", PROV_MAX_STR);
	const char *status = prov_get_str(c, "status", 64);
	size_t i;

	m.name = name ? name : id;
	m.url = NULL;      /* a component is set by hand or by automation, never checked */
	m.type = "other";
	m.interval = 0;
	m.port = -1;
	for (i = 0; status != NULL && component_statuses[i] != NULL; i++)
		if (strcmp(status, component_statuses[i]) == 0)
			break;
	if (status == NULL || component_statuses[i] == NULL) {
		char sb[40];

		prov_copy_text(sb, sizeof sb, status ? status : "(none)");
		prov_page_warn(page, SP " component \"%s\" has an unknown status %s; imported as not "
		    "paused", m.name, sb);
	} else
		m.paused = strcmp(status, "under_maintenance") == 0;
	prov_page_add(page, "monitor", id, json_object_get(c), prov_norm_monitor(&m));
	if (monitor_ids != NULL)
		prov_sp_item(monitor_ids, id, NULL, NULL);
}

static void
add_subscriber(json_object *s, const char *id, struct prov_page *page)
{
	struct prov_contact ct = { 0 };
	const char *mode = prov_get_str(s, "mode", 32);
	const char *email = prov_get_text(s, "email", PROV_MAX_STR);
	const char *endpoint = prov_get_text(s, "endpoint", PROV_MAX_STR);
	const char *phone = prov_get_text(s, "display_phone_number", 64);
	const char *channel = prov_get_text(s, "obfuscated_channel_name", 255);
	const char *workspace = prov_get_text(s, "workspace_name", 255);
	char *built = NULL;
	size_t i;

	if (phone == NULL)
		phone = prov_get_text(s, "phone_number", 64);
	for (i = 0; mode != NULL && modes[i].sp != NULL; i++)
		if (strcmp(mode, modes[i].sp) == 0)
			break;
	ct.type = mode != NULL && modes[i].norm != NULL ? modes[i].norm : "other";
	if (strcmp(ct.type, "email") == 0)
		ct.value = email;
	else if (strcmp(ct.type, "sms") == 0)
		ct.value = phone;
	else if (strcmp(ct.type, "webhook") == 0 || strcmp(ct.type, "teams") == 0)
		ct.value = endpoint;
	else if (strcmp(ct.type, "slack") == 0 && (channel != NULL || workspace != NULL))
		ct.name = built = xasprintf("Slack %s%s%s%s", channel ? channel : "",
		    channel && workspace ? " " : "", workspace ? "in " : "", workspace ? workspace : "");
	if (ct.name == NULL)
		ct.name = ct.value ? ct.value : email ? email : endpoint ? endpoint : id;
	if (mode != NULL && modes[i].sp != NULL && modes[i].norm == NULL)
		prov_page_warn(page, SP " subscriber \"%s\" is an %s subscription, which has no "
		    "equivalent; kept as other", ct.name, modes[i].label);
	else if (mode == NULL || modes[i].sp == NULL) {
		char mb[40];

		prov_copy_text(mb, sizeof mb, mode ? mode : "(none)");
		prov_page_warn(page, SP " subscriber \"%s\" has an unknown mode %s; kept as other",
		    ct.name, mb);
	}
	prov_page_add(page, "contact", id, json_object_get(s), prov_norm_contact(&ct));
	free(built);
}

/* The norm items array of the status page pid already in page, or NULL. */
static json_object *
page_monitor_ids(struct prov_page *page, const char *pid)
{
	json_object *ids;

	for (size_t i = 0; i < page->n; i++)
		if (strcmp(page->items[i].resource_type, "status_page") == 0 &&
		    strcmp(page->items[i].external_id, pid) == 0 &&
		    json_object_object_get_ex(page->items[i].norm, "items", &ids) &&
		    json_object_is_type(ids, json_type_array))
			return ids;
	return NULL;
}

static enum prov_status
parse_pages(const struct sp_cursor *c, json_object *root, struct prov_page *page,
    struct prov_error *err)
{
	json_object *p;
	size_t count;
	char id[SP_MAX_ID + 1];

	if (json_object_is_type(root, json_type_object)) {
		/* GET /v1/pages/<page_id>: one page */
		count = 1;
		p = root;
	} else if (json_object_is_type(root, json_type_array)) {
		count = json_object_array_length(root);
		p = (size_t)c->idx < count ? json_object_array_get_idx(root, (size_t)c->idx) : NULL;
	} else
		return prov_fail(err, PROV_TRANSIENT, SP " sent a list of pages that is not a list");
	if ((size_t)c->idx >= count) {
		if (c->idx == 0)
			prov_page_warn(page, "The " SP " account has no pages");
		return PROV_OK; /* the end */
	}
	if (c->idx >= PROV_MAX_PAGES) {
		prov_page_warn(page, SP ": stopped after %d pages", PROV_MAX_PAGES);
		return PROV_OK;
	}
	if (!json_object_is_type(p, json_type_object) || prov_get_id(p, "id", id, sizeof id) != 0 ||
	    !valid_page_id(id)) {
		prov_page_warn(page, SP " sent a page without a usable id; skipped");
		page->next_cursor = cursor_make(PH_PAGES, c->idx + 1, 0, NULL);
		return PROV_OK;
	}
	add_page(p, id, page);
	page->next_cursor = cursor_make(PH_COMPONENTS, c->idx, 1, id);
	return PROV_OK;
}

enum prov_status
statuspage_parse(const char *cursor, const struct httpc_resp *resp, struct prov_page *page,
    struct prov_error *err)
{
	struct sp_cursor c;
	json_object *root, *ids = NULL;
	size_t n, len, groups = 0;
	enum prov_status st;
	char id[192], text[160];

	if (cursor_parse(cursor, &c) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " SP " discovery: bad checkpoint");
	if ((st = httpc_classify(resp, SP, "API key", err)) != PROV_OK) {
		prov_body_message(resp, text, sizeof text);
		if (st == PROV_AUTH)
			prov_fail(err, PROV_AUTH, SP " rejected the API key%s%s%s", text[0] ? " (" : "",
			    text, text[0] ? ")" : "");
		else if (resp->status == 404 && c.ph == PH_PAGES)
			prov_fail(err, PROV_FATAL, SP " does not know the page: check the page_id "
			    "credential (HTTP 404)");
		return st;
	}
	if ((root = prov_parse_json(resp, SP, err)) == NULL)
		return err->status;
	if (c.ph == PH_PAGES) {
		st = parse_pages(&c, root, page, err);
		json_object_put(root);
		return st;
	}
	if (!json_object_is_type(root, json_type_array)) {
		prov_body_message(resp, text, sizeof text);
		json_object_put(root);
		return prov_fail(err, PROV_TRANSIENT, SP " sent %s that are not a list%s%s", phases[c.ph],
		    text[0] ? ": " : "", text);
	}
	if (c.ph == PH_COMPONENTS)
		ids = page_monitor_ids(page, c.pid);
	len = n = json_object_array_length(root);
	if (n > PROV_MAX_ITEMS) {
		prov_page_warn(page, SP " sent %zu %s in one page; only the first %d were kept", n,
		    phases[c.ph], PROV_MAX_ITEMS);
		n = PROV_MAX_ITEMS;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *it = json_object_array_get_idx(root, i);

		if (!json_object_is_type(it, json_type_object) || prov_get_id(it, "id", id, sizeof id) != 0) {
			prov_page_warn(page, SP " sent an entry of %s without a usable id; skipped",
			    phases[c.ph]);
			continue;
		}
		if (c.ph == PH_SUBSCRIBERS)
			add_subscriber(it, id, page);
		else if (prov_get_bool(it, "group", false))
			groups++; /* a group only holds other components */
		else
			add_component(it, id, ids, page);
	}
	if (groups > 0)
		prov_page_warn(page, SP " page %s: %zu component group(s) were not imported (their "
		    "components were)", c.pid, groups);

	if (len >= SP_PER_PAGE && c.n + 1 < PROV_MAX_PAGES)
		page->next_cursor = cursor_make(c.ph, c.idx, c.n + 1, c.pid);
	else {
		if (len >= SP_PER_PAGE)
			prov_page_warn(page, SP " page %s: %s: stopped after %d pages", c.pid, phases[c.ph],
			    PROV_MAX_PAGES);
		if (c.ph == PH_COMPONENTS)
			page->next_cursor = cursor_make(PH_SUBSCRIBERS, c.idx, 0, c.pid);
		else
			page->next_cursor = cursor_make(PH_PAGES, c.idx + 1, 0, NULL);
	}
	json_object_put(root);
	return PROV_OK;
}

/* One request for cursor c into page. */
static enum prov_status
request(struct prov_session *s, const char *cursor, const struct sp_cursor *c, const char *auth,
    const char *page_id, struct httpc_resp *resp, struct prov_page *page, struct prov_error *err)
{
	struct httpc_req req = { 0 };
	const char *headers[2] = { auth, NULL };
	char *url;
	enum prov_status st;

	if (c->ph == PH_PAGES && page_id != NULL)
		url = prov_url(s, "/v1/pages/%s", page_id);
	else if (c->ph == PH_PAGES)
		url = prov_url(s, "/v1/pages");
	else if (c->ph == PH_COMPONENTS)
		url = prov_url(s, "/v1/pages/%s/components?page=%lld&per_page=%d", c->pid,
		    (long long)c->n, SP_PER_PAGE);
	else
		url = prov_url(s, "/v1/pages/%s/subscribers?page=%lld&limit=%d", c->pid,
		    (long long)c->n, SP_PER_PAGE);
	req.url = url;
	req.headers = headers;
	st = prov_http(s, &req, resp, err);
	if (st == PROV_OK)
		st = statuspage_parse(cursor, resp, page, err);
	free(url);
	return st;
}

static enum prov_status
statuspage_fetch(struct prov_session *s, const char *cursor, struct prov_page *page,
    struct prov_error *err)
{
	struct httpc_resp resp = { 0 };
	const char *key = prov_cred(s, "api_key");
	const char *page_id = prov_cred(s, "page_id");
	struct sp_cursor c;
	char *auth, *cur = NULL;
	enum prov_status st;
	bool from_page;

	if (cursor_parse(cursor, &c) != 0)
		return prov_fail(err, PROV_FATAL, "cannot resume " SP " discovery: bad checkpoint");
	if (key == NULL)
		return prov_fail(err, PROV_AUTH, "the " SP " credentials have no usable api_key");
	if (page_id != NULL && !valid_page_id(page_id))
		return prov_fail(err, PROV_FATAL, "the " SP " page_id must be a page id (letters and "
		    "digits, as in manage.statuspage.io/pages/<page_id>)");
	if (c.ph == PH_PAGES && page_id != NULL && c.idx > 0)
		return PROV_OK; /* the one page is done */
	from_page = c.ph == PH_PAGES;
	auth = xasprintf("Authorization: OAuth %s", key);
	st = request(s, cursor, &c, auth, page_id, &resp, page, err);
	/* A page's components come with it (see the top of the file). */
	for (int k = 0; st == PROV_OK && from_page && page->next_cursor != NULL &&
	    strncmp(page->next_cursor, "components:", 11) == 0; k++) {
		if (k == SP_STEP_PAGES) {
			prov_page_warn(page, SP " page %s has more than %d components; the rest were not "
			    "imported", c.pid, SP_STEP_PAGES * SP_PER_PAGE);
			free(page->next_cursor);
			page->next_cursor = cursor_make(PH_SUBSCRIBERS, c.idx, 0, c.pid);
			break;
		}
		free(cur);
		cur = page->next_cursor;
		page->next_cursor = NULL;
		if (cursor_parse(cur, &c) != 0) {
			st = prov_fail(err, PROV_FATAL, SP ": internal cursor error");
			break;
		}
		httpc_resp_free(&resp);
		st = request(s, cur, &c, auth, page_id, &resp, page, err);
	}
	st = prov_finish(s, st, &resp, page, err);
	httpc_resp_free(&resp);
	free(cur);
	sodium_memzero(auth, strlen(auth));
	free(auth);
	return st;
}

const struct provider_ops statuspage_ops = { statuspage_fetch };
