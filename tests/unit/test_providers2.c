/* Unit tests of the healthchecks, cronitor, statuspage and whmcs adapters:
 * their parse functions on recorded-shape fixtures (tests/unit/fixtures/<id>/,
 * quirks, bad-key bodies and truncated answers included), whole fetches
 * against a local server (the request each provider expects, secrets kept
 * out of messages), and the URL guard on the user-supplied URLs of WHMCS and
 * self-hosted Healthchecks. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/config.h"
#include "core/xalloc.h"
#include "providers/adapters.h"
#include "providers/common.h"
#include "providers/httpc.h"
#include "providers/provider.h"

#define HC_KEY "hc-test-key-0123456789abcdefghij" /* 32 characters, like a real key */

#include "provtest.h"

/* ------------------------------------------- a local server of N answers */

struct mini {
	pid_t pid;
	int port;
	int rd; /* the requests the server received, "\n=====\n" after each */
};

/* Serve the answers in order, one connection each. */
static void
mini_start(struct mini *m, const char *const *answers)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof a;
	int fd, p[2];

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true((fd = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(fd, 8), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &alen), 0);
	m->port = ntohs(a.sin_port);
	assert_int_equal(pipe(p), 0);
	m->pid = fork();
	assert_true(m->pid >= 0);
	if (m->pid == 0) {
		static char buf[65536];

		close(p[0]);
		alarm(20);
		for (size_t i = 0; answers[i] != NULL; i++) {
			size_t n = 0, off = 0, len = strlen(answers[i]);
			ssize_t k;
			int c;

			if ((c = accept(fd, NULL, NULL)) < 0)
				_exit(1);
			for (;;) {
				char *end, *cl;
				size_t need;

				k = read(c, buf + n, sizeof buf - 1 - n);
				if (k <= 0)
					break;
				n += (size_t)k;
				buf[n] = '\0';
				if ((end = strstr(buf, "\r\n\r\n")) == NULL)
					continue;
				need = (size_t)(end + 4 - buf);
				if ((cl = strcasestr(buf, "\ncontent-length:")) != NULL && cl < end)
					need += (size_t)strtoul(cl + 16, NULL, 10);
				if (n >= need || n == sizeof buf - 1)
					break;
			}
			if (write(p[1], buf, n) < 0 || write(p[1], "\n=====\n", 7) < 0)
				_exit(1);
			while (off < len && (k = write(c, answers[i] + off, len - off)) > 0)
				off += (size_t)k;
			shutdown(c, SHUT_RDWR);
			close(c);
		}
		_exit(0);
	}
	close(fd);
	close(p[1]);
	m->rd = p[0];
}

/* Stop the server (it may still wait for a request that never came) and
 * return the requests it saw (static buffer). */
static const char *
mini_finish(struct mini *m)
{
	static char req[262144];
	size_t n = 0;
	ssize_t k;
	int status;

	kill(m->pid, SIGTERM);
	while (n < sizeof req - 1 && (k = read(m->rd, req + n, sizeof req - 1 - n)) > 0)
		n += (size_t)k;
	req[n] = '\0';
	close(m->rd);
	waitpid(m->pid, &status, 0);
	return req;
}

/* An HTTP answer around a body (malloc'd). */
static char *
answer(const char *status_line, const char *extra_headers, const char *body)
{
	return xasprintf("HTTP/1.1 %s\r\nContent-Type: application/json\r\n%sContent-Length: %zu\r\n"
	    "Connection: close\r\n\r\n%s", status_line, extra_headers, strlen(body), body);
}

static char *
answer_fixture(const char *status_line, const char *rel)
{
	char *body = fixture_text(rel, NULL), *a = answer(status_line, "", body);

	free(body);
	return a;
}

static struct config_kv test_kv[4];

/* A config with [provider.<id>] base_url = base (NULL: none). */
static void
cfg_init(struct config *c, const char *id, const char *base)
{
	static char section[64];

	memset(c, 0, sizeof *c);
	snprintf(section, sizeof section, "provider.%s", id);
	c->kv = test_kv;
	c->nkv = 0;
	if (base != NULL) {
		test_kv[0] = (struct config_kv){ section, "base_url", (char *)base };
		c->nkv = 1;
	}
}

/* ------------------------------------------------------------ Healthchecks */

static void
test_healthchecks_checks(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(healthchecks_parse, NULL, 200, "healthchecks/checks.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 5);
	assert_int_equal(page_count(&p, "heartbeat"), 5);
	assert_string_equal(p.next_cursor, "channels:0");
	assert_true(has_warning(&p, "without a usable uuid; skipped"));

	/* A simple check: the period is its timeout. */
	it = page_find(&p, "heartbeat", "31365bce-8b8a-4bd0-9b7a-5c2e2a2d2f10");
	assert_string_equal(nstr(it, "name"), "Filesystem Backup");
	assert_int_equal(nint(it, "interval"), 3600);
	assert_int_equal(nint(it, "grace"), 600);
	assert_false(nbool(it, "paused"));
	assert_string_equal(nstr(it, "ping_url"), "https://hc-ping.com/31365bce-8b8a-4bd0-9b7a-5c2e2a2d2f10");
	assert_true(nnull(it, "schedule"));
	assert_string_equal(nids(it, "contact_ids"),
	    "1bdea468-03e5-4ab4-a0b3-96b2a0c2a8f1,51c6eb2b-5c4d-4f2c-9a5c-7f3e6b7a9d02");
	assert_non_null(json_object_object_get(it->raw, "badge_url"));

	/* A cron check: interval 0 and the schedule; paused from its status;
	 * a time zone other than UTC is warned about. */
	it = page_find(&p, "heartbeat", "5a1f0c1e-4ac2-4f61-8a2f-0c3b8e1d7e22");
	assert_int_equal(nint(it, "interval"), 0);
	assert_string_equal(nstr(it, "schedule"), "0 3 * * *");
	assert_int_equal(nint(it, "grace"), 300);           /* "grace":"300" */
	assert_true(nbool(it, "paused"));                   /* status paused */
	assert_string_equal(nids(it, "contact_ids"), "");   /* "channels":"" */
	assert_true(has_warning(&p, "\"Nightly report\" runs on its schedule in time zone Europe/Riga"));

	/* No name: the slug; a UTC schedule is not warned about. */
	it = page_find(&p, "heartbeat", "7c2d0e9f-1b3a-4c5d-8e6f-9a0b1c2d3e33");
	assert_string_equal(nstr(it, "name"), "queue-worker");
	assert_string_equal(nstr(it, "schedule"), "*/5 * * * *");
	assert_false(nbool(it, "paused"));                  /* status grace */
	assert_false(has_warning(&p, "queue-worker"));

	it = page_find(&p, "heartbeat", "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b44");
	assert_int_equal(nint(it, "interval"), 86400);      /* "timeout":"86400" */

	/* Neither timeout nor schedule: one day, with a warning. */
	it = page_find(&p, "heartbeat", "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a55");
	assert_int_equal(nint(it, "interval"), 86400);
	assert_true(has_warning(&p, "\"Odd\" has neither a period nor a schedule"));
	prov_page_free(&p);

	/* A project without checks goes on to the integrations. */
	assert_int_equal(run_parse(healthchecks_parse, "checks:0", 200, "healthchecks/checks_empty.json", &p,
	    &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "channels:0");
	prov_page_free(&p);
}

static void
test_healthchecks_readonly_key(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(healthchecks_parse, NULL, 200, "healthchecks/checks_readonly.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 1);
	it = page_find(&p, "heartbeat", "a6c7b0a8a66bed0df66abfdab3c77736861703ee");
	assert_string_equal(nstr(it, "name"), "Filesystem Backup");
	assert_true(nnull(it, "ping_url"));
	assert_string_equal(nids(it, "contact_ids"), "");
	/* The integrations cannot be listed with this key: discovery ends here
	 * with a warning rather than failing the whole run. */
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "API key is read-only"));
	prov_page_free(&p);
}

static void
test_healthchecks_channels(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(healthchecks_parse, "channels:0", 200, "healthchecks/channels.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 6);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "integration without a usable id; skipped"));

	it = page_find(&p, "contact", "1bdea468-03e5-4ab4-a0b3-96b2a0c2a8f1");
	assert_string_equal(nstr(it, "name"), "My Work Email");
	assert_string_equal(nstr(it, "type"), "email");
	assert_true(nnull(it, "value"));  /* the API does not show the address */
	assert_string_equal(nstr(page_find(&p, "contact", "51c6eb2b-5c4d-4f2c-9a5c-7f3e6b7a9d02"), "type"),
	    "slack");
	it = page_find(&p, "contact", "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c03");
	assert_string_equal(nstr(it, "type"), "pagerduty");
	assert_string_equal(nstr(it, "name"), "PagerDuty"); /* "name":"" */
	assert_string_equal(nstr(page_find(&p, "contact", "7b8c9d0e-1f2a-4b3c-9d4e-5f6a7b8c9d04"), "type"),
	    "pushover");
	/* Known without equivalent, and unknown: other, each with a warning. */
	assert_string_equal(nstr(page_find(&p, "contact", "8c9d0e1f-2a3b-4c4d-8e5f-6a7b8c9d0e05"), "type"),
	    "other");
	assert_true(has_warning(&p, "\"Dev chat\" is a Zulip integration, which has no equivalent"));
	assert_string_equal(nstr(page_find(&p, "contact", "9d0e1f2a-3b4c-4d5e-9f6a-7b8c9d0e1f06"), "type"),
	    "other");
	assert_true(has_warning(&p, "\"Future thing\" has an unknown kind hologram; kept as other"));
	prov_page_free(&p);
}

static void
test_healthchecks_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	const char *msg;

	(void)state;
	msg = parse_fails(healthchecks_parse, NULL, 401, "healthchecks/unauthorized.json", PROV_AUTH);
	assert_string_equal(msg, "Healthchecks rejected the API key (wrong api key)");
	msg = parse_fails(healthchecks_parse, NULL, 401, "healthchecks/missing_key.json", PROV_AUTH);
	assert_string_equal(msg, "Healthchecks rejected the API key (missing api key)");
	/* A read-only key on the integrations: say what to do. */
	msg = parse_fails(healthchecks_parse, "channels:0", 401, "healthchecks/unauthorized.json", PROV_AUTH);
	assert_non_null(strstr(msg, "use the project's read-write API key"));
	parse_fails(healthchecks_parse, NULL, 200, "healthchecks/truncated.json", PROV_TRANSIENT);
	parse_fails(healthchecks_parse, NULL, 503, "healthchecks/unauthorized.json", PROV_TRANSIENT);
	parse_fails(healthchecks_parse, NULL, 404, "healthchecks/unauthorized.json", PROV_FATAL);
	parse_fails(healthchecks_parse, "checks:x", 200, "healthchecks/checks.json", PROV_FATAL);
	parse_fails(healthchecks_parse, "monitors:0", 200, "healthchecks/checks.json", PROV_FATAL);
	/* An answer without the list (a proxy's page, another API) is not "no checks". */
	assert_int_equal(run_parse_text(healthchecks_parse, NULL, 200, "{\"detail\":\"maintenance\"}", &p, &e),
	    PROV_TRANSIENT);
	assert_non_null(strstr(e.message, "without a \"checks\" list: maintenance"));
	prov_page_free(&p);

	resp_text(&r, 429, "{\"error\":\"rate limited\"}");
	httpc_resp_set_header(&r, "Retry-After", "30");
	memset(&p, 0, sizeof p);
	assert_int_equal(healthchecks_parse(NULL, &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 30);
	httpc_resp_free(&r);
	prov_page_free(&p);
}

/* ---------------------------------------------------------------- Cronitor */

static void
test_cronitor_monitors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(cronitor_parse, NULL, 200, "cronitor/monitors_page1.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 4);
	/* page "1" (a string) * page_size 4 < 8 monitors: another page */
	assert_string_equal(p.next_cursor, "monitors:2");

	/* A cron job: a heartbeat with the schedule and no period. */
	it = page_find(&p, "heartbeat", "key1");
	assert_string_equal(nstr(it, "name"), "Nightly restore");
	assert_int_equal(nint(it, "interval"), 0);
	assert_string_equal(nstr(it, "schedule"), "0 3 * * *");
	assert_int_equal(nint(it, "grace"), 3600);
	assert_false(nbool(it, "paused"));
	assert_true(nnull(it, "ping_url"));
	assert_string_equal(nids(it, "contact_ids"), "default");

	/* A heartbeat "every 1 hour": a period, no schedule; disabled = paused. */
	it = page_find(&p, "heartbeat", "hb2");
	assert_int_equal(nint(it, "interval"), 3600);
	assert_true(nnull(it, "schedule"));
	assert_int_equal(nint(it, "grace"), 300);            /* "300" */
	assert_true(nbool(it, "paused"));
	assert_string_equal(nids(it, "contact_ids"), "default,contacts-2");

	/* A check with a body assertion: a keyword monitor. */
	it = page_find(&p, "monitor", "chk3");
	assert_string_equal(nstr(it, "type"), "keyword");
	assert_string_equal(nstr(it, "keyword"), "Add to cart");
	assert_string_equal(nstr(it, "url"), "https://shop.example.com/");
	assert_int_equal(nint(it, "interval"), 300);
	assert_true(nbool(it, "paused"));
	assert_true(nnull(it, "port"));

	it = page_find(&p, "heartbeat", "hb4");
	assert_int_equal(nint(it, "interval"), 0);
	assert_true(nnull(it, "schedule"));
	assert_int_equal(p.nwarnings, 0);
	prov_page_free(&p);

	assert_int_equal(run_parse(cronitor_parse, "monitors:2", 200, "cronitor/monitors_page2.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.next_cursor, "notifications:1"); /* 2 * 4 >= 8 */
	it = page_find(&p, "monitor", "site4");
	assert_string_equal(nstr(it, "type"), "http");
	assert_string_equal(nstr(it, "url"), "http://www.example.com/");
	assert_int_equal(nint(it, "interval"), 60);
	assert_true(nnull(it, "keyword"));
	/* Unknown type: a monitor of type other, warned. */
	it = page_find(&p, "monitor", "syn5");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "\"Login flow\" is of type synthetic, which is unknown"));
	assert_true(has_warning(&p, "\"Login flow\" runs on the schedule \"hourly on weekdays\""));
	/* Not a web address: other, warned; a cron-run check gets 60 s. */
	it = page_find(&p, "monitor", "tcp6");
	assert_string_equal(nstr(it, "type"), "other");
	assert_int_equal(nint(it, "interval"), 60);
	assert_true(has_warning(&p, "check monitor \"Mail port\" has no web address"));
	assert_true(has_warning(&p, "without a usable key; skipped"));
	prov_page_free(&p);

	/* The CLI's page_info shape; "@weekly" is cron, free text is kept but warned. */
	assert_int_equal(run_parse(cronitor_parse, "monitors:1", 200, "cronitor/monitors_page_info.json", &p,
	    &e), PROV_OK);
	assert_string_equal(p.next_cursor, "monitors:2"); /* 1 * 2 < 3 */
	assert_string_equal(nstr(page_find(&p, "heartbeat", "job7"), "schedule"), "@weekly");
	assert_false(has_warning(&p, "Weekly cleanup"));
	assert_string_equal(nstr(page_find(&p, "heartbeat", "job8"), "schedule"), "at 10:00 on weekdays");
	assert_true(has_warning(&p, "\"Odd schedule\" has the schedule \"at 10:00 on weekdays\", which is "
	    "neither a cron expression nor an interval"));
	prov_page_free(&p);

	/* The API ignored the page asked for: stop rather than loop. */
	assert_int_equal(run_parse(cronitor_parse, "monitors:3", 200, "cronitor/monitors_wrong_page.json", &p,
	    &e), PROV_OK);
	assert_string_equal(p.next_cursor, "notifications:1");
	assert_true(has_warning(&p, "answered page 1 when asked for page 3"));
	prov_page_free(&p);

	/* The last allowed page ends the phase. */
	assert_int_equal(run_parse_text(cronitor_parse, "monitors:10000", 200, "{\"monitors\":[{\"key\":\"a\","
	    "\"name\":\"A\",\"type\":\"job\"}],\"page_size\":1,\"total_monitor_count\":20000}", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "notifications:1");
	assert_true(has_warning(&p, "stopped after 10000 pages"));
	prov_page_free(&p);
}

static void
test_cronitor_notification_lists(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(cronitor_parse, "notifications:1", 200, "cronitor/notifications.json", &p, &e),
	    PROV_OK);
	assert_string_equal(p.next_cursor, "statuspages:1");
	/* One contact per target; the first keeps the list's key. */
	it = page_find(&p, "contact", "default");
	assert_string_equal(nstr(it, "name"), "Default");
	assert_string_equal(nstr(it, "type"), "email");
	assert_string_equal(nstr(it, "value"), "ops@example.com");
	it = page_find(&p, "contact", "default:emails:1");
	assert_string_equal(nstr(it, "value"), "cto@example.com");
	it = page_find(&p, "contact", "default:slack:0");
	assert_string_equal(nstr(it, "type"), "slack");
	assert_string_equal(nstr(it, "value"), "https://hooks.slack.com/services/T0/B0/abc");
	assert_true(has_warning(&p, "\"Default\" has 3 targets: each became a contact"));

	it = page_find(&p, "contact", "contacts-2");
	assert_string_equal(nstr(it, "type"), "sms");
	assert_string_equal(nstr(it, "value"), "+15555550100");
	assert_string_equal(nstr(page_find(&p, "contact", "contacts-2:pagerduty:0"), "type"), "pagerduty");
	assert_string_equal(nstr(page_find(&p, "contact", "contacts-2:microsoft-teams:0"), "type"), "teams");
	assert_string_equal(nstr(page_find(&p, "contact", "contacts-2:victorops:0"), "type"), "other");
	assert_true(has_warning(&p, "has Splunk On-Call (VictorOps) targets, which have no equivalent"));
	it = page_find(&p, "contact", "contacts-2:carrier-pigeon:0");
	assert_string_equal(nstr(it, "type"), "other");
	assert_string_equal(nstr(it, "value"), "loft 7");
	assert_true(has_warning(&p, "has carrier-pigeon targets, which have no equivalent"));

	/* A list without targets: one contact of type other. */
	it = page_find(&p, "contact", "empty");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(nnull(it, "value"));
	assert_true(has_warning(&p, "\"Nobody\" has no targets"));
	assert_int_equal(p.n, 9);
	prov_page_free(&p);

	/* An empty page ends the phase even when the total says more. */
	assert_int_equal(run_parse(cronitor_parse, "notifications:2", 200, "cronitor/notifications_empty.json",
	    &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "statuspages:1");
	prov_page_free(&p);
}

static void
test_cronitor_status_pages(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(cronitor_parse, "statuspages:1", 200, "cronitor/statuspages.json", &p, &e),
	    PROV_OK);
	assert_int_equal(p.n, 2);
	assert_null(p.next_cursor);
	it = page_find(&p, "status_page", "sp_public1");
	assert_string_equal(nstr(it, "name"), "Acme Status");
	assert_string_equal(nstr(it, "url"), "https://acme.cronitorstatus.com");
	assert_string_equal(nids(it, "monitor_ids"), "chk3,hb2"); /* the components' monitors */
	assert_true(nbool(it, "public"));
	it = page_find(&p, "status_page", "sp_internal");
	assert_false(nbool(it, "public"));
	assert_string_equal(nids(it, "monitor_ids"), "");
	prov_page_free(&p);
}

static void
test_cronitor_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	const char *msg;

	(void)state;
	msg = parse_fails(cronitor_parse, NULL, 403, "cronitor/invalid_key.json", PROV_AUTH);
	assert_string_equal(msg, "Cronitor rejected the API key (Invalid API key)");
	msg = parse_fails(cronitor_parse, "statuspages:1", 401, "cronitor/invalid_key.json", PROV_AUTH);
	assert_string_equal(msg, "Cronitor rejected the API key (Invalid API key)");
	parse_fails(cronitor_parse, NULL, 200, "cronitor/truncated.json", PROV_TRANSIENT);
	parse_fails(cronitor_parse, NULL, 502, "cronitor/invalid_key.json", PROV_TRANSIENT);
	parse_fails(cronitor_parse, "monitors:0", 200, "cronitor/monitors_page1.json", PROV_FATAL);
	parse_fails(cronitor_parse, "templates:1", 200, "cronitor/notifications.json", PROV_FATAL);
	/* The monitors list where the templates were expected. */
	parse_fails(cronitor_parse, "notifications:1", 200, "cronitor/monitors_page1.json", PROV_TRANSIENT);

	resp_text(&r, 429, "{\"detail\":\"Request was throttled.\"}");
	httpc_resp_set_header(&r, "Retry-After", "12");
	memset(&p, 0, sizeof p);
	assert_int_equal(cronitor_parse("monitors:3", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 12);
	httpc_resp_free(&r);
	prov_page_free(&p);
}

/* -------------------------------------------------------------- Statuspage */

static void
test_statuspage_pages(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "components:0:1:gytm4qzbx9t6");
	it = page_find(&p, "status_page", "gytm4qzbx9t6");
	assert_string_equal(nstr(it, "name"), "Acme Status");
	assert_string_equal(nstr(it, "url"), "https://status.acme.example"); /* its own domain */
	assert_true(nbool(it, "public"));
	assert_string_equal(nids(it, "monitor_ids"), "");
	prov_page_free(&p);

	assert_int_equal(run_parse(statuspage_parse, "pages:1", 200, "statuspage/pages.json", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "components:1:1:k8w2rd0q7n3m");
	it = page_find(&p, "status_page", "k8w2rd0q7n3m");
	assert_string_equal(nstr(it, "url"), "https://acme-internal.statuspage.io");
	assert_false(nbool(it, "public")); /* viewers must be team members */
	prov_page_free(&p);

	/* Past the last page: the end. */
	assert_int_equal(run_parse(statuspage_parse, "pages:2", 200, "statuspage/pages.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);

	/* GET /v1/pages/<page_id> answers one object. */
	assert_int_equal(run_parse(statuspage_parse, "pages:0", 200, "statuspage/page_one.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.next_cursor, "components:0:1:gytm4qzbx9t6");
	prov_page_free(&p);

	assert_int_equal(run_parse_text(statuspage_parse, NULL, 200, "[]", &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	assert_true(has_warning(&p, "has no pages"));
	prov_page_free(&p);
}

static void
test_statuspage_components_fill_the_page(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it, *sp;

	(void)state;
	/* As in one fetch: the page, then its components into the same page. */
	assert_int_equal(run_parse(statuspage_parse, NULL, 200, "statuspage/pages.json", &p, &e), PROV_OK);
	assert_int_equal(run_parse_more(statuspage_parse, "components:0:1:gytm4qzbx9t6", 200,
	    "statuspage/components_page1.json", &p, &e), PROV_OK);
	/* 100 answered = per_page: another page. */
	assert_string_equal(p.next_cursor, "components:0:2:gytm4qzbx9t6");
	assert_int_equal(page_count(&p, "monitor"), 99); /* the group is not a monitor */
	assert_true(has_warning(&p, "1 component group(s) were not imported"));

	it = page_find(&p, "monitor", "c00000000002");
	assert_string_equal(nstr(it, "name"), "API");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(nnull(it, "url"));
	assert_int_equal(nint(it, "interval"), 0);
	assert_true(nbool(it, "paused"));                   /* under_maintenance */
	assert_true(nnull(it, "port"));
	assert_string_equal(nids(it, "contact_ids"), "");
	assert_false(nbool(page_find(&p, "monitor", "c00000000003"), "paused")); /* degraded */
	it = page_find(&p, "monitor", "c00000000004");
	assert_false(nbool(it, "paused"));
	assert_true(has_warning(&p, "\"Webhooks\" has an unknown status on_fire"));

	assert_int_equal(run_parse_more(statuspage_parse, "components:0:2:gytm4qzbx9t6", 200,
	    "statuspage/components_last.json", &p, &e), PROV_OK);
	assert_string_equal(p.next_cursor, "subscribers:0:0:gytm4qzbx9t6");
	assert_int_equal(page_count(&p, "monitor"), 101);
	/* The status page lists every component, in order. */
	sp = page_find(&p, "status_page", "gytm4qzbx9t6");
	assert_int_equal(nids_len(sp, "monitor_ids"), 101);
	assert_int_equal(strncmp(nids(sp, "monitor_ids"), "c00000000002,c00000000003,", 26), 0);
	assert_non_null(strstr(nids(sp, "monitor_ids"), ",c00000000101,c00000000102"));
	assert_null(strstr(nids(sp, "monitor_ids"), "c00000000001,"));
	prov_page_free(&p);

	/* Components read on their own (a resumed checkpoint) still parse. */
	assert_int_equal(run_parse(statuspage_parse, "components:1:3:k8w2rd0q7n3m", 200,
	    "statuspage/components_last.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "subscribers:1:0:k8w2rd0q7n3m");
	prov_page_free(&p);
}

static void
test_statuspage_subscribers(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(statuspage_parse, "subscribers:0:0:gytm4qzbx9t6", 200,
	    "statuspage/subscribers_page0.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 100);
	assert_string_equal(p.next_cursor, "subscribers:0:1:gytm4qzbx9t6"); /* pages from 0 */
	prov_page_free(&p);

	assert_int_equal(run_parse(statuspage_parse, "subscribers:0:1:gytm4qzbx9t6", 200,
	    "statuspage/subscribers_last.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 6);
	assert_string_equal(p.next_cursor, "pages:1"); /* on to the next page */
	it = page_find(&p, "contact", "s00000000100");
	assert_string_equal(nstr(it, "type"), "email");
	assert_string_equal(nstr(it, "value"), "ann@example.com");
	assert_string_equal(nstr(it, "name"), "ann@example.com");
	it = page_find(&p, "contact", "s00000000101");
	assert_string_equal(nstr(it, "type"), "sms");
	assert_string_equal(nstr(it, "value"), "+1 555-555-0101");
	it = page_find(&p, "contact", "s00000000102");
	assert_string_equal(nstr(it, "type"), "webhook");
	assert_string_equal(nstr(it, "value"), "https://hooks.example.com/sp/1");
	it = page_find(&p, "contact", "s00000000103");
	assert_string_equal(nstr(it, "type"), "slack");
	assert_string_equal(nstr(it, "name"), "Slack #o***s in Acme");
	assert_true(nnull(it, "value"));
	assert_string_equal(nstr(page_find(&p, "contact", "s00000000104"), "type"), "other");
	assert_true(has_warning(&p, "is an integration partner subscription, which has no equivalent"));
	it = page_find(&p, "contact", "s00000000105");
	assert_string_equal(nstr(it, "type"), "other");
	assert_true(has_warning(&p, "\"pigeon@example.com\" has an unknown mode carrier_pigeon"));
	assert_true(has_warning(&p, "entry of subscribers without a usable id; skipped"));
	prov_page_free(&p);
}

static void
test_statuspage_errors(void **state)
{
	static const char *const bad_cursors[] = {
		"pages", "pages:-1", "pages:1:2", "components:0:0:gytm4qzbx9t6", "components:0:1:",
		"components:0:1:../../v1/x", "components:0:1", "subscribers:0:0:a:b", "incidents:0",
		"subscribers:0:0:https://evil.example/x", "subscribers:0:x:gytm4qzbx9t6",
	};
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	const char *msg;

	(void)state;
	msg = parse_fails(statuspage_parse, NULL, 401, "statuspage/unauthorized.json", PROV_AUTH);
	assert_string_equal(msg, "Statuspage rejected the API key (Could not authenticate)");
	msg = parse_fails(statuspage_parse, NULL, 404, "statuspage/not_found.json", PROV_FATAL);
	assert_non_null(strstr(msg, "check the page_id credential"));
	parse_fails(statuspage_parse, "components:0:1:gytm4qzbx9t6", 200, "statuspage/truncated.json",
	    PROV_TRANSIENT);
	parse_fails(statuspage_parse, "components:0:1:gytm4qzbx9t6", 200, "statuspage/page_one.json",
	    PROV_TRANSIENT);
	for (size_t i = 0; i < sizeof bad_cursors / sizeof bad_cursors[0]; i++) {
		if (run_parse(statuspage_parse, bad_cursors[i], 200, "statuspage/pages.json", &p, &e) != PROV_FATAL)
			fail_msg("cursor %s accepted", bad_cursors[i]);
		prov_page_free(&p);
	}

	/* HTTP 420 "Enhance Your Calm" is Statuspage's rate limit. */
	resp_fixture(&r, 420, "statuspage/rate_limited.json");
	httpc_resp_set_header(&r, "Retry-After", "7");
	memset(&p, 0, sizeof p);
	assert_int_equal(statuspage_parse("subscribers:0:3:gytm4qzbx9t6", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 7);
	httpc_resp_free(&r);
	prov_page_free(&p);
	parse_fails(statuspage_parse, NULL, 420, "statuspage/rate_limited.json", PROV_RATE_LIMITED);
	parse_fails(statuspage_parse, NULL, 429, "statuspage/rate_limited.json", PROV_RATE_LIMITED);
}

/* ------------------------------------------------------------------- WHMCS */

static void
test_whmcs_clients(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(whmcs_parse, NULL, 200, "whmcs/clients.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "clients:2"); /* limitstart += numreturned */
	it = page_find(&p, "hosting_client", "2");
	assert_string_equal(nstr(it, "email"), "price.ima@example.com");
	assert_string_equal(nstr(it, "first_name"), "Angelica");
	assert_string_equal(nstr(it, "last_name"), "Mohr");
	assert_true(nnull(it, "company"));                 /* "" */
	assert_string_equal(nstr(it, "status"), "active");
	assert_string_equal(nstr(it, "created"), "2016-01-15");
	it = page_find(&p, "hosting_client", "3");           /* "id":"3" */
	assert_string_equal(nstr(it, "company"), "Tran Hosting Ltd");
	assert_true(nnull(it, "created"));                 /* "0000-00-00" */
	assert_string_equal(nstr(it, "status"), "other");
	assert_true(has_warning(&p, "client \"bo@example.net\" has an unknown status \"Archived\""));
	prov_page_free(&p);

	/* Numbers as strings; 2 + 1 >= 3: the next list. */
	assert_int_equal(run_parse(whmcs_parse, "clients:2", 200, "whmcs/clients_last.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(nstr(page_find(&p, "hosting_client", "7"), "status"), "closed");
	assert_string_equal(p.next_cursor, "services:0");
	prov_page_free(&p);

	/* One client, not wrapped in a list. */
	assert_int_equal(run_parse(whmcs_parse, NULL, 200, "whmcs/clients_single.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(nstr(page_find(&p, "hosting_client", "9"), "status"), "inactive");
	assert_string_equal(nstr(page_find(&p, "hosting_client", "9"), "created"), "2020-02-29");
	assert_string_equal(p.next_cursor, "services:0");
	prov_page_free(&p);

	/* No clients: the key is missing altogether. */
	assert_int_equal(run_parse(whmcs_parse, NULL, 200, "whmcs/clients_empty.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "services:0");
	prov_page_free(&p);
}

static void
test_whmcs_services_and_domains(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(whmcs_parse, "services:0", 200, "whmcs/products.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_true(has_warning(&p, "entry of products without a usable id; skipped"));
	assert_string_equal(p.next_cursor, "domains:0");
	it = page_find(&p, "hosting_service", "101");
	assert_string_equal(nstr(it, "client_id"), "2");
	assert_string_equal(nstr(it, "product"), "Shared Hosting Plan 1");
	assert_string_equal(nstr(it, "domain"), "svc1.client1.example.com");
	assert_string_equal(nstr(it, "status"), "active");
	assert_string_equal(nstr(it, "billing_cycle"), "monthly");
	assert_string_equal(nstr(it, "amount"), "12.95");
	assert_string_equal(nstr(it, "next_due"), "2024-02-18");
	it = page_find(&p, "hosting_service", "102");
	assert_true(nnull(it, "domain"));
	assert_string_equal(nstr(it, "status"), "suspended");
	assert_string_equal(nstr(it, "billing_cycle"), "free");
	assert_string_equal(nstr(it, "amount"), "129.50");
	assert_true(nnull(it, "next_due"));               /* "0000-00-00" */
	prov_page_free(&p);

	/* No services: "products":"". */
	assert_int_equal(run_parse(whmcs_parse, "services:0", 200, "whmcs/products_empty.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "domains:0");
	prov_page_free(&p);

	assert_int_equal(run_parse(whmcs_parse, "domains:0", 200, "whmcs/domains.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "invoices:0");
	it = page_find(&p, "hosting_domain", "201");
	assert_string_equal(nstr(it, "client_id"), "2");
	assert_string_equal(nstr(it, "domain"), "example-shop.com");
	assert_string_equal(nstr(it, "registrar"), "enom");
	assert_string_equal(nstr(it, "status"), "active");
	assert_string_equal(nstr(it, "expiry"), "2024-05-01");
	assert_string_equal(nstr(it, "next_due"), "2024-04-17");
	assert_string_equal(nstr(it, "amount"), "12.95");
	it = page_find(&p, "hosting_domain", "202");
	assert_true(nnull(it, "client_id"));              /* "userid":"0" */
	assert_true(nnull(it, "registrar"));
	assert_true(nnull(it, "amount"));                 /* "abc" */
	assert_string_equal(nstr(it, "status"), "transferred_away");
	prov_page_free(&p);

	/* No domains: "domains":"". */
	assert_int_equal(run_parse(whmcs_parse, "domains:0", 200, "whmcs/domains_empty.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.next_cursor, "invoices:0");
	prov_page_free(&p);
}

static void
test_whmcs_invoices(void **state)
{
	struct prov_page p;
	struct prov_error e;
	const struct prov_item *it;

	(void)state;
	assert_int_equal(run_parse(whmcs_parse, "invoices:100", 200, "whmcs/invoices.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	/* Only 2 came although 100 were asked for (a capped limitnum): go on
	 * from 102, never from 200. */
	assert_string_equal(p.next_cursor, "invoices:102");
	it = page_find(&p, "invoice", "301");
	assert_string_equal(nstr(it, "client_id"), "2");
	assert_string_equal(nstr(it, "number"), "INV-2024-0301");
	assert_string_equal(nstr(it, "date"), "2024-01-01");
	assert_string_equal(nstr(it, "due"), "2024-01-15");
	assert_string_equal(nstr(it, "paid_at"), "2024-01-03");
	assert_string_equal(nstr(it, "total"), "12.95");
	assert_string_equal(nstr(it, "currency"), "USD");
	assert_string_equal(nstr(it, "status"), "paid");
	it = page_find(&p, "invoice", "302");
	assert_string_equal(nstr(it, "number"), "302");   /* no invoicenum: the id */
	assert_true(nnull(it, "paid_at"));                /* "0000-00-00 00:00:00" */
	assert_string_equal(nstr(it, "total"), "129.50"); /* a JSON number */
	assert_string_equal(nstr(it, "currency"), "EUR");
	assert_string_equal(nstr(it, "status"), "payment_pending");
	prov_page_free(&p);

	/* No invoices: "invoices":[]; the last list ends discovery. */
	assert_int_equal(run_parse(whmcs_parse, "invoices:0", 200, "whmcs/invoices_empty.json", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);

	/* numreturned > 0 with nothing in the list: stop, do not loop. */
	assert_int_equal(run_parse_text(whmcs_parse, "invoices:0", 200, "{\"result\":\"success\","
	    "\"totalresults\":\"500\",\"numreturned\":\"25\",\"invoices\":{\"invoice\":[]}}", &p, &e), PROV_OK);
	assert_null(p.next_cursor);
	prov_page_free(&p);
}

static void
test_whmcs_errors(void **state)
{
	struct prov_page p;
	struct prov_error e;
	struct httpc_resp r;
	const char *msg;

	(void)state;
	msg = parse_fails(whmcs_parse, NULL, 403, "whmcs/auth_failed.json", PROV_AUTH);
	assert_string_equal(msg, "WHMCS rejected the API credentials (Authentication Failed)");
	/* The same error sent with HTTP 200 by some installations. */
	msg = parse_fails(whmcs_parse, NULL, 200, "whmcs/auth_failed.json", PROV_AUTH);
	assert_string_equal(msg, "WHMCS rejected the API credentials (Authentication Failed)");
	msg = parse_fails(whmcs_parse, NULL, 403, "whmcs/invalid_ip.json", PROV_AUTH);
	assert_non_null(strstr(msg, "refused this server's address (Invalid IP 203.0.113.9)"));
	assert_non_null(strstr(msg, "access_key"));
	msg = parse_fails(whmcs_parse, "invoices:0", 403, "whmcs/invalid_permissions.json", PROV_AUTH);
	assert_non_null(strstr(msg, "does not allow these API credentials to call GetInvoices"));
	msg = parse_fails(whmcs_parse, NULL, 200, "whmcs/command_not_found.json", PROV_FATAL);
	assert_string_equal(msg, "WHMCS answered GetClients with an error: Command Not Found");
	parse_fails(whmcs_parse, NULL, 200, "whmcs/truncated.json", PROV_TRANSIENT);
	parse_fails(whmcs_parse, NULL, 503, "whmcs/rate_limited.html", PROV_TRANSIENT);
	parse_fails(whmcs_parse, NULL, 404, "whmcs/rate_limited.html", PROV_FATAL);
	parse_fails(whmcs_parse, "products:0", 200, "whmcs/products.json", PROV_FATAL);
	assert_int_equal(run_parse_text(whmcs_parse, NULL, 200, "{\"result\":\"success\",\"clients\":5}", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	assert_int_equal(run_parse_text(whmcs_parse, NULL, 200, "{\"clients\":{\"client\":[]}}", &p, &e),
	    PROV_TRANSIENT);
	prov_page_free(&p);
	/* A 403 without a body still says what happened. */
	assert_int_equal(run_parse_text(whmcs_parse, NULL, 403, "", &p, &e), PROV_AUTH);
	assert_string_equal(e.message, "WHMCS rejected the API credentials (HTTP 403, no details)");
	prov_page_free(&p);

	/* A web firewall's HTML 429 in front of WHMCS. */
	resp_fixture(&r, 429, "whmcs/rate_limited.html");
	httpc_resp_set_header(&r, "Retry-After", "60");
	memset(&p, 0, sizeof p);
	assert_int_equal(whmcs_parse("domains:200", &r, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 60);
	httpc_resp_free(&r);
	prov_page_free(&p);
}

/* ------------------------------------------- whole fetches against a local server */

static void
test_fetch_healthchecks_request(void **state)
{
	const struct provider_def *def = provider_find("healthchecks");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[2] = { answer_fixture("200 OK", "healthchecks/checks.json"), NULL };
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"" HC_KEY "\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	snprintf(base, sizeof base, "http://127.0.0.1:%d/hc", m.port);
	cfg_init(&cfg, "healthchecks", base);
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_false(s.base_url_untrusted); /* the admin's URL */
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /hc/api/v3/checks/ HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "X-Api-Key: " HC_KEY "\r\n"));
	assert_int_equal(p.n, 5);
	assert_string_equal(p.next_cursor, "channels:0");
	prov_page_free(&p);
	free(a[0]);
	json_object_put(creds);
}

static void
test_fetch_cronitor_request_and_scrubbed_error(void **state)
{
	const struct provider_def *def = provider_find("cronitor");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[3] = { answer_fixture("200 OK", "cronitor/statuspages.json"),
		answer("403 Forbidden", "", "{\"error\":\"Invalid API key: cr-key-123456\"}"), NULL };
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"cr-key-123456\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	snprintf(base, sizeof base, "http://127.0.0.1:%d/cr", m.port);
	cfg_init(&cfg, "cronitor", base);
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_int_equal(def->ops->fetch(&s, "statuspages:1", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	/* A bad key: fatal, and the key the provider echoed is not repeated. */
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_AUTH);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /cr/api/statuspages?page=1&withComponents=true HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /cr/api/monitors?page=1 HTTP/1.1\r\n"));
	/* HTTP Basic: the key as user, an empty password ("cr-key-123456:"). */
	assert_non_null(strstr(seen, "Authorization: Basic Y3Ita2V5LTEyMzQ1Njo=\r\n"));
	assert_non_null(strstr(seen, "Cronitor-Version: 2020-10-01\r\n"));
	assert_non_null(strstr(e.message, "Cronitor rejected the API key"));
	assert_null(strstr(e.message, "cr-key-123456"));
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	free(a[0]);
	free(a[1]);
	json_object_put(creds);
}

static void
test_fetch_statuspage_page_with_its_components(void **state)
{
	const struct provider_def *def = provider_find("statuspage");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[4] = { answer_fixture("200 OK", "statuspage/pages.json"),
		answer_fixture("200 OK", "statuspage/components_page1.json"),
		answer_fixture("200 OK", "statuspage/components_last.json"), NULL };
	const char *seen;
	const struct prov_item *sp;
	json_object *creds = json_tokener_parse("{\"api_key\":\"sp-key-abcdef\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	snprintf(base, sizeof base, "http://127.0.0.1:%d/sp", m.port);
	cfg_init(&cfg, "statuspage", base);
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_OK);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /sp/v1/pages HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /sp/v1/pages/gytm4qzbx9t6/components?page=1&per_page=100 HTTP/1.1"));
	assert_non_null(strstr(seen, "GET /sp/v1/pages/gytm4qzbx9t6/components?page=2&per_page=100 HTTP/1.1"));
	assert_non_null(strstr(seen, "Authorization: OAuth sp-key-abcdef\r\n"));
	/* One stored page: the status page with its complete monitor list. */
	assert_int_equal(page_count(&p, "status_page"), 1);
	assert_int_equal(page_count(&p, "monitor"), 101);
	sp = page_find(&p, "status_page", "gytm4qzbx9t6");
	assert_int_equal(nids_len(sp, "monitor_ids"), 101);
	assert_string_equal(p.next_cursor, "subscribers:0:0:gytm4qzbx9t6");
	prov_page_free(&p);
	for (int i = 0; i < 3; i++)
		free(a[i]);
	json_object_put(creds);
}

static void
test_fetch_statuspage_rate_limit_and_page_id(void **state)
{
	const struct provider_def *def = provider_find("statuspage");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char base[96];
	char *a[4] = { answer_fixture("200 OK", "statuspage/page_one.json"),
		answer("420 Enhance Your Calm", "Retry-After: 3\r\n", "{\"error\":\"Rate limit exceeded\"}"),
		answer_fixture("200 OK", "statuspage/subscribers_last.json"), NULL };
	const char *seen;
	json_object *creds = json_tokener_parse("{\"api_key\":\"sp-key-abcdef\",\"page_id\":\"gytm4qzbx9t6\"}");
	json_object *bad = json_tokener_parse("{\"api_key\":\"sp-key-abcdef\",\"page_id\":\"../../x\"}");

	(void)state;
	mini_start(&m, (const char *const *)a);
	snprintf(base, sizeof base, "http://127.0.0.1:%d/sp", m.port);
	cfg_init(&cfg, "statuspage", base);
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	/* The one page, then a rate limit on its components: nothing of the
	 * step is kept, and the runner is told how long to wait. */
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_RATE_LIMITED);
	assert_int_equal(e.retry_after, 3);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	assert_int_equal(def->ops->fetch(&s, "subscribers:0:1:gytm4qzbx9t6", &p, &e), PROV_OK);
	assert_int_equal(p.n, 6);
	assert_string_equal(p.next_cursor, "pages:1");
	prov_page_free(&p);
	/* With page_id, the page after it is the end: no request needed. */
	assert_int_equal(def->ops->fetch(&s, "pages:1", &p, &e), PROV_OK);
	assert_int_equal(p.n, 0);
	assert_null(p.next_cursor);
	prov_page_free(&p);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "GET /sp/v1/pages/gytm4qzbx9t6 HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "GET /sp/v1/pages/gytm4qzbx9t6/subscribers?page=1&limit=100 HTTP/1.1"));
	assert_null(strstr(seen, "GET /sp/v1/pages HTTP"));

	/* A page_id that is not an id never reaches a URL. */
	assert_int_equal(prov_session_init(&s, def, &cfg, bad, &e), 0);
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "page_id must be a page id"));
	prov_page_free(&p);
	for (int i = 0; i < 3; i++)
		free(a[i]);
	json_object_put(creds);
	json_object_put(bad);
}

static void
test_fetch_whmcs_request_and_scrubbed_error(void **state)
{
	const struct provider_def *def = provider_find("whmcs");
	struct config cfg;
	struct prov_session s;
	struct prov_page p = { 0 };
	struct prov_error e = { 0 };
	struct mini m;
	char credtext[256];
	char *a[3] = { answer_fixture("200 OK", "whmcs/invoices.json"),
		answer("403 Forbidden", "", "{\"result\":\"error\",\"message\":\"Authentication Failed for "
		    "wh-secret-98765\"}"), NULL };
	const char *seen;
	json_object *creds;

	(void)state;
	mini_start(&m, (const char *const *)a);
	snprintf(credtext, sizeof credtext, "{\"url\":\"http://127.0.0.1:%d/billing/\",\"api_identifier\":"
	    "\"wh-ident-1\",\"api_secret\":\"wh-secret-98765\",\"access_key\":\"ak & 1\"}", m.port);
	creds = json_tokener_parse(credtext);
	/* The test config allows http and private addresses (the fakes run on 127.0.0.1). */
	cfg_init(&cfg, "whmcs", NULL);
	cfg.allow_http_urls = true;
	cfg.allow_private_urls = true;
	assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
	assert_true(s.base_url_untrusted);
	assert_int_equal(def->ops->fetch(&s, "invoices:100", &p, &e), PROV_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.next_cursor, "invoices:102");
	prov_page_free(&p);
	assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_AUTH);
	seen = mini_finish(&m);
	assert_non_null(strstr(seen, "POST /billing/includes/api.php HTTP/1.1\r\n"));
	assert_non_null(strstr(seen, "Content-Type: application/x-www-form-urlencoded\r\n"));
	assert_non_null(strstr(seen, "\r\n\r\naction=GetInvoices&responsetype=json&identifier=wh-ident-1&"
	    "secret=wh-secret-98765&accesskey=ak%20%26%201&limitstart=100&limitnum=100"));
	assert_non_null(strstr(seen, "\r\n\r\naction=GetClients&responsetype=json&"));
	assert_non_null(strstr(seen, "&limitstart=0&limitnum=100"));
	assert_non_null(strstr(e.message, "WHMCS rejected the API credentials"));
	assert_null(strstr(e.message, "wh-secret-98765"));
	prov_page_free(&p);
	free(a[0]);
	free(a[1]);
	json_object_put(creds);
}

/* ----------------------------------------------- user-supplied URLs (§12) */

/* Fetch with creds under cfg; returns the status and leaves err in e. */
static enum prov_status
fetch_with(const char *id, const struct config *cfg, const char *credtext, struct prov_error *e)
{
	const struct provider_def *def = provider_find(id);
	struct prov_session s;
	struct prov_page p = { 0 };
	json_object *creds = json_tokener_parse(credtext);
	enum prov_status st;

	assert_non_null(creds);
	memset(e, 0, sizeof *e);
	if (prov_session_init(&s, def, cfg, creds, e) != 0) {
		json_object_put(creds);
		return e->status;
	}
	assert_true(s.base_url_untrusted);
	st = def->ops->fetch(&s, NULL, &p, e);
	assert_int_equal(p.n, 0);
	prov_page_free(&p);
	json_object_put(creds);
	return st;
}

static void
test_user_urls_are_guarded(void **state)
{
	struct config cfg;
	struct prov_error e;

	(void)state;
	cfg_init(&cfg, "whmcs", NULL);
	cfg.allow_http_urls = true;  /* only private addresses are refused here */

	/* Loopback (no server needed: the address is refused before connecting). */
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"http://127.0.0.1:9/billing\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "loopback address, which is not allowed"));
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"http://localhost:9/billing\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "loopback"));
	/* The cloud metadata address. */
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"https://169.254.169.254/\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "link-local address, which is not allowed"));
	assert_int_equal(fetch_with("healthchecks", &cfg, "{\"api_key\":\"" HC_KEY "\","
	    "\"base_url\":\"https://169.254.169.254/\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "link-local address, which is not allowed"));
	assert_int_equal(fetch_with("healthchecks", &cfg, "{\"api_key\":\"" HC_KEY "\","
	    "\"base_url\":\"http://10.1.2.3:8000\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "private address, which is not allowed"));

	/* http only when the admin allows it. */
	cfg.allow_http_urls = false;
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"http://billing.example.com\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "The url URL is not allowed: only https"));
	assert_int_equal(fetch_with("healthchecks", &cfg, "{\"api_key\":\"" HC_KEY "\","
	    "\"base_url\":\"http://127.0.0.1:8000\"}", &e), PROV_FATAL);
	assert_non_null(strstr(e.message, "The base_url URL is not allowed: only https"));
	/* Nor user names, queries or fragments in a URL. */
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"https://admin:pw@billing.example.com\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
	assert_int_equal(fetch_with("whmcs", &cfg, "{\"url\":\"https://billing.example.com/?x=1\","
	    "\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}", &e), PROV_FATAL);
}

static void
test_sessions_without_user_urls(void **state)
{
	struct config cfg;
	struct prov_session s;
	struct prov_error e;
	json_object *hc = json_tokener_parse("{\"api_key\":\"" HC_KEY "\"}");
	json_object *wh = json_tokener_parse("{\"api_identifier\":\"id-1\",\"api_secret\":\"secret-1\"}");

	(void)state;
	/* Healthchecks without base_url: the SaaS, trusted. */
	cfg_init(&cfg, "healthchecks", NULL);
	assert_int_equal(prov_session_init(&s, provider_find("healthchecks"), &cfg, hc, &e), 0);
	assert_string_equal(s.base_url, "https://healthchecks.io");
	assert_false(s.base_url_untrusted);
	/* WHMCS has no default: the url credential is needed. */
	cfg_init(&cfg, "whmcs", NULL);
	assert_int_equal(prov_session_init(&s, provider_find("whmcs"), &cfg, wh, &e), -1);
	assert_int_equal(e.status, PROV_FATAL);
	assert_non_null(strstr(e.message, "needs the url credential field"));
	/* Unless the admin set one (an intranet installation): trusted. */
	cfg_init(&cfg, "whmcs", "http://10.0.0.5/whmcs/");
	assert_int_equal(prov_session_init(&s, provider_find("whmcs"), &cfg, wh, &e), 0);
	assert_string_equal(s.base_url, "http://10.0.0.5/whmcs");
	assert_false(s.base_url_untrusted);
	json_object_put(hc);
	json_object_put(wh);
}

static void
test_fetch_refuses_missing_credentials(void **state)
{
	static const struct {
		const char *id, *creds, *needle;
	} cases[] = {
		{ "healthchecks", "{\"api_key\":\"\"}", "no usable api_key" },
		{ "cronitor", "{\"api_key\":\"bad\\nkey\"}", "no usable api_key" },
		{ "statuspage", "{}", "no usable api_key" },
		{ "whmcs", "{\"url\":\"https://billing.example.com\",\"api_identifier\":\"id-1\"}",
		  "no usable api_identifier and api_secret" },
	};
	struct config cfg;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct provider_def *def = provider_find(cases[i].id);
		struct prov_session s;
		struct prov_page p = { 0 };
		struct prov_error e = { 0 };
		json_object *creds = json_tokener_parse(cases[i].creds);

		cfg_init(&cfg, cases[i].id, NULL);
		assert_int_equal(prov_session_init(&s, def, &cfg, creds, &e), 0);
		assert_int_equal(def->ops->fetch(&s, NULL, &p, &e), PROV_AUTH);
		if (strstr(e.message, cases[i].needle) == NULL)
			fail_msg("%s: \"%s\"", cases[i].id, e.message);
		/* A checkpoint from another adapter is refused, not misread. */
		assert_int_equal(def->ops->fetch(&s, "psps:0", &p, &e), PROV_FATAL);
		prov_page_free(&p);
		json_object_put(creds);
	}
}

static void
test_registry_wires_all_adapters(void **state)
{
	(void)state;
	for (size_t i = 0; provider_list[i] != NULL; i++)
		if (provider_list[i]->ops == NULL || provider_list[i]->ops->fetch == NULL)
			fail_msg("%s has no discovery ops", provider_list[i]->id);
	assert_ptr_equal(provider_find("healthchecks")->ops, &healthchecks_ops);
	assert_ptr_equal(provider_find("cronitor")->ops, &cronitor_ops);
	assert_ptr_equal(provider_find("statuspage")->ops, &statuspage_ops);
	assert_ptr_equal(provider_find("whmcs")->ops, &whmcs_ops);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthchecks_checks),
		cmocka_unit_test(test_healthchecks_readonly_key),
		cmocka_unit_test(test_healthchecks_channels),
		cmocka_unit_test(test_healthchecks_errors),
		cmocka_unit_test(test_cronitor_monitors),
		cmocka_unit_test(test_cronitor_notification_lists),
		cmocka_unit_test(test_cronitor_status_pages),
		cmocka_unit_test(test_cronitor_errors),
		cmocka_unit_test(test_statuspage_pages),
		cmocka_unit_test(test_statuspage_components_fill_the_page),
		cmocka_unit_test(test_statuspage_subscribers),
		cmocka_unit_test(test_statuspage_errors),
		cmocka_unit_test(test_whmcs_clients),
		cmocka_unit_test(test_whmcs_services_and_domains),
		cmocka_unit_test(test_whmcs_invoices),
		cmocka_unit_test(test_whmcs_errors),
		cmocka_unit_test(test_fetch_healthchecks_request),
		cmocka_unit_test(test_fetch_cronitor_request_and_scrubbed_error),
		cmocka_unit_test(test_fetch_statuspage_page_with_its_components),
		cmocka_unit_test(test_fetch_statuspage_rate_limit_and_page_id),
		cmocka_unit_test(test_fetch_whmcs_request_and_scrubbed_error),
		cmocka_unit_test(test_user_urls_are_guarded),
		cmocka_unit_test(test_sessions_without_user_urls),
		cmocka_unit_test(test_fetch_refuses_missing_credentials),
		cmocka_unit_test(test_registry_wires_all_adapters),
	};

	/* Requests in these tests go to 127.0.0.1 directly, never via a proxy. */
	unsetenv("http_proxy");
	unsetenv("HTTP_PROXY");
	unsetenv("https_proxy");
	unsetenv("HTTPS_PROXY");
	unsetenv("all_proxy");
	unsetenv("ALL_PROXY");
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
