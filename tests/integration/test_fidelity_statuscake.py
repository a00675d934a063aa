"""StatusCake end to end (issue 10): a rich account on the fake provider (tests/fakes/prov_statuscake.py)
is discovered and imported by the real runner over HTTP (the list, one GET /uptime/{id} per check, the
contact groups, SSL checks, maintenance windows and their tag queries), then the account tables are read
back and compared with what the provider holds: full URLs (scheme, non-default port, path, query) of
HTTP checks and the host and port of the others, keyword mode both ways, method, body, headers (with
the user agent), alert status codes, timeout, redirects, SSL expiry alerts, regions, tags, check_rate 0
as 30 s with a warning, alert timing (confirmation servers, trigger_rate), a DNS check's expected
addresses and name server, every address of a contact group linked to the checks that name the group,
heartbeats, SSL checks as monitors, and maintenance windows with their checks (named and tagged). A
second run with the maintenance window list refused (403) completes with a warning naming the kind; a
bad token fails the run on the first call.

The expected values follow the fake's formulas for entry i (tests/fakes/prov_statuscake.py).
"""

import datetime
import json
from zoneinfo import ZoneInfo

import harness
from fidelity import FidelityTestCase

P = "statuscake"
NM, NH, NC, NS, NW = 16, 2, 4, 3, 5
TYPES = ("HTTP", "HTTP", "HEAD", "PING", "TCP", "DNS", "SSH", "SMTP")
NORM = {"HTTP": "http", "HEAD": "http", "PING": "ping", "TCP": "tcp", "DNS": "dns", "SSH": "ssh", "SMTP": "smtp"}
RATES = (300, 60, 0, 1800, 30, 3600, 900, 86400)
REGIONS = ("london", "frankfurt", "newyork", "sydney")
BASE_TS = 1700000000


def url_of(i):
    t, n = TYPES[i % 8], i + 1
    if t not in ("HTTP", "HEAD"):
        return "m%d.example.com" % n
    port = (None, 8443, None, 8080)[i % 4]
    scheme = "http" if port == 8080 else "https"
    return "%s://m%d.example.com%s/health/%d?probe=%d&env=prod" % (scheme, n, ":%d" % port if port else "", n, i)


def groups_of(i):
    out = [i % NC]
    if i % 5 == 0:
        out.append((i + 1) % NC)
    return out


def members(g):
    """(type, value) of every address of contact group g."""
    n = g + 1
    out = [("email", "ops%d@example.com" % n)]
    if g % 2 == 0:
        out.append(("email", "oncall%d@example.com" % n))
    if g % 3 != 1:
        out.append(("sms", "+4477009%05d" % n))
    if g % 3 == 0:
        out.append(("webhook", "https://hooks.example.com/sc/%d" % n))
    return out


def recipients(groups):
    return sorted({m for g in groups for m in members(g)})


class TestStatusCakeFidelity(FidelityTestCase):
    P = P

    def setup_account(self, **options):
        key = self.stack.unique("sc-")
        self.summary = self.load_account(
            {"api_token": key}, {"monitors": NM, "heartbeats": NH, "contacts": NC, "ssl": NS, "maintenance": NW},
            options, paused_every=5)
        return key

    def check_monitor(self, user, i):
        m = self.one("monitors", user, "Fid Monitor %d" % (i + 1))
        t, n = TYPES[i % 8], i + 1
        http = t in ("HTTP", "HEAD")
        self.assertEqual(m["url"], url_of(i), i)
        self.assertEqual(m["interval_s"], RATES[i % 8] or 30, i)
        self.assertEqual(m["paused"], 1 if (i + 1) % 5 == 0 else 0, i)
        self.assertEqual(m["port"], {"TCP": 8000 + i, "SSH": 2222, "SMTP": 587}.get(t), i)
        self.assertEqual(m["timeout_s"], 10 + i % 21, i)
        self.assertEqual(self.js(m["regions"]), [REGIONS[(i + k) % 4] for k in range(1 + i % 3)], i)
        self.assertEqual(self.js(m["tags"]), ["demo", "team-%d" % (i % 3)] + (["prod"] if i % 2 == 0 else []), i)
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), recipients(groups_of(i)), i)
        # confirmation i % 4 servers: the failed test and each confirming one; trigger_rate i % 6 minutes
        self.assertEqual((m["alert_after_checks"], m["alert_after_s"], m["realert_s"], m["recovery_s"]),
                         (i % 4 + 1, (i % 6) * 60 or None, None, None), i)
        # a DNS check's dns_ips and dns_server; StatusCake names no record type: the addresses' family
        dns = (None, None, None)
        if t == "DNS":
            dns = (("AAAA", ["2001:db8::%x" % n, "2001:db8::1"], "1.1.1.1") if i % 16 == 13
                   else ("A", ["192.0.2.%d" % (n % 250)], "1.1.1.1"))
        self.assertEqual((m["dns_record_type"], self.js(m["dns_expected"]), m["dns_nameserver"]), dns, i)
        # basic auth is write-only at StatusCake (never in an answer): nothing to carry
        self.assertEqual((m["assertions"], m["auth_username"], m["auth_password_sealed"]), (None, None, None), i)
        if not http:
            self.assertEqual((m["type"], m["http_method"], m["keyword"], m["request_headers"]),
                             (NORM[t], None, None, None), i)
            self.assertIsNone(m["follow_redirects"])
            return
        keyword = {0: ("Welcome %d" % n, "present"), 2: ("Maintenance", "absent"),
                   8: ("Maintenance", "absent")}.get(i % 16, (None, None))
        self.assertEqual((m["keyword"], m["keyword_up_when"]), keyword, i)
        self.assertEqual(m["type"], "keyword" if keyword[0] else "http", i)
        body = {1: '{"probe":%d,"deep":true}' % i, 9: "check=deep&probe=%d" % i}.get(i % 16)
        method = "HEAD" if t == "HEAD" else "POST" if body else "GET"
        self.assertEqual((m["http_method"], m["request_body"]), (method, body), i)
        headers = {"X-Env": "prod", "X-Check": str(n)} if i % 3 != 2 else {}
        if i % 2 == 0:
            headers["User-Agent"] = "MigratorProbe/%d" % n
        self.assertEqual(self.js(m["request_headers"]), headers or None, i)
        self.assertEqual(self.js(m["alert_status_codes"]),
                         ["500", "502", "503", "504"] + (["404"] if i % 3 == 0 else []), i)
        self.assertIsNone(m["expected_status_codes"])
        self.assertEqual(m["follow_redirects"], 1 if i % 2 == 0 else 0, i)
        self.assertEqual(m["ssl_expiry_days"], 7 if i % 3 != 1 and url_of(i).startswith("https") else None, i)

    def check_window(self, user, w):
        mw = self.one("maintenance_windows", user, "Fid Window %d" % (w + 1))
        start = BASE_TS + 86400 * (w + 1) - BASE_TS % 86400 + 3600 * (1 + w % 5)
        minutes = 30 + 30 * (w % 4)
        iso = lambda ts: datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        zone = ("Europe/London", "America/New_York", "UTC", "Asia/Tokyo")[w % 4]
        rec = ("weekly", "once", "daily", "other", "monthly")[w % 5]
        local = datetime.datetime.fromtimestamp(start, ZoneInfo(zone))
        days = {"weekly": [local.isoweekday()], "other": [local.isoweekday()], "monthly": [local.day]}.get(rec)
        self.assertEqual((mw["recurrence"], mw["starts"], mw["ends"], mw["duration_min"], mw["timezone"]),
                         (rec, iso(start), iso(start + 60 * minutes), minutes, zone), w)
        self.assertEqual(self.js(mw["days"]), days, w)
        self.assertEqual(mw["paused"], 1 if w % 3 == 2 else 0, w)
        names = {r["name"] for r in self.rows(
            "SELECT m.name FROM maintenance_window_monitors x JOIN monitors m ON m.id = x.monitor_id "
            "WHERE x.window_id = %d" % mw["id"])}
        want = {"Fid Monitor %d" % (k % NM + 1) for k in (2 * w, 2 * w + 1)}
        if w % 2 == 1:  # tags: every check tagged team-<w % 3>
            want |= {"Fid Monitor %d" % (i + 1) for i in range(NM) if i % 3 == w % 3}
        self.assertEqual(names, want, w)

    def test_rich_account_arrives_as_it_was(self):
        user = self.user()
        key = self.setup_account()
        rid = self.run_import(user, {"api_token": key})
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), NM + NS)
        for i in range(NM):
            self.check_monitor(user, i)
        warnings = self.warnings(user, rid)
        for i in range(NM):
            if RATES[i % 8] == 0:
                self.assertTrue(any('uptime check "Fid Monitor %d" checks constantly (check_rate 0); imported '
                                    'with a 30 s interval' % (i + 1) in w for w in warnings), warnings)
        self.assertTrue(any('contact group "Fid Contact 3" uses 1 integration(s)' in w for w in warnings), warnings)
        self.assertFalse([w for w in warnings if "DNS answer" in w or "confirmation" in w or "trigger_rate" in w])

        # contact groups: every address, number and ping_url is a contact
        rows = self.rows("SELECT type, value FROM contacts WHERE user_id=%d" % user.id)
        self.assertEqual(sorted((r["type"], r["value"]) for r in rows), recipients(range(NC)))

        for j in range(NH):
            h = self.one("heartbeats", user, "Fid Heartbeat %d" % (j + 1))
            self.assertEqual((h["interval_s"], h["grace_s"], h["paused"]), ((1800, 300)[j], 0, 0))
            self.assertIn("https://push.statuscake.com/?PK=", h["ping_url"])
            self.assertEqual(self.js(h["tags"]), ["demo", "cron"] + (["nightly"] if j % 2 == 0 else []))
            self.assertEqual(self.linked("heartbeat_contacts", "heartbeat_id", h["id"]), recipients(groups_of(j + 1)))

        for k in range(NS):
            n = k + 1
            m = self.one("monitors", user, "SSL https://secure%d.example.com" % n)
            self.assertEqual((m["type"], m["url"], m["interval_s"]),
                             ("http", "https://secure%d.example.com" % n, (86400, 3600, 2073600)[k % 3]))
            self.assertEqual(m["ssl_expiry_days"], (30 if k % 2 == 0 else 60) if k % 4 != 3 else None)
            self.assertEqual((m["verify_ssl"], m["follow_redirects"]), (1 if k % 2 == 0 else 0, k % 2))
            self.assertEqual(self.js(m["request_headers"]), {"User-Agent": "CertProbe/%d" % n} if k % 2 == 0 else None)
            self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), recipients(groups_of(k + 2)))
            self.assertEqual((m["alert_after_checks"], m["alert_after_s"], m["dns_expected"]), (None, None, None))

        self.assertEqual(self.stack.count("maintenance_windows", "user_id=%d" % user.id), NW)
        for w in range(NW):
            self.check_window(user, w)
        self.assertTrue(any('maintenance window "Fid Window 4" repeats every two weeks' in w for w in warnings),
                        warnings)

    def test_what_does_not_carry_over_is_listed_beside_each_check(self):
        """Issue 24 item 2: each resource's dropped fields, computed from the provider's field table
        (src/providers/statuscake.c) and the object as kept (an uptime check's detail, an SSL check, a
        heartbeat, the contact group of each contact), unknown fields included; the run's summary
        counts them before execute; values never show."""
        user = self.user()
        key = self.setup_account(new_fields={"alert_delay": 600, "escalation": {"after": 2}})
        rid = self.start_run(user, {"api_token": key})
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        unknown = "Not known to this importer (the provider may have added it since); it is not imported."
        state = "State at StatusCake, not a setting."
        cert = "State at StatusCake (what it found of the certificate), not a setting."

        def dropped(kind):
            r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=%s&per_page=100" % (rid, kind))
            self.assertStatus(r, 200)
            return r.text, {x["name"]: {d["field"]: d["reason"] for d in x["dropped"]} for x in r.json["data"]}

        text, got = dropped("monitor")
        self.assertEqual(len(got), NM + NS)
        self.assertNotIn("check=deep", text, "a request body never shows")
        self.assertNotIn('deep\\":true', text, "a request body never shows")
        for i in range(NM):
            d = got["Fid Monitor %d" % (i + 1)]
            # confirmation, trigger_rate, dns_ips and dns_server land now
            want = {"status", "uptime", "servers[].status", "last_tested_at", "alert_delay", "escalation.after"}
            if i % 16 == 8:
                want.add("include_header")
            self.assertEqual(set(d), want, (i, d))
            self.assertEqual(d["alert_delay"], unknown)
            self.assertEqual(d["escalation.after"], unknown)
            self.assertEqual(d["servers[].status"], state)
        for k in range(NS):
            d = got["SSL https://secure%d.example.com" % (k + 1)]
            want = {"alert_reminder", "certificate_score", "certificate_status", "cipher", "cipher_score",
                    "issuer_common_name", "flags.has_pfs", "hostname", "updated_at", "valid_from", "valid_until"}
            if k % 3 == 0:
                want.add("alert_mixed")
            if k % 2 == 1:
                want.add("flags.follow_redirects")
            self.assertEqual(set(d), want, (k, d))
            self.assertEqual(d["cipher"], cert)
            self.assertEqual(d["alert_reminder"], "An SSL check's reminders after its first expiry alert; the "
                                                  "account has no column for them.")

        text, got = dropped("heartbeat")
        self.assertNotIn("push.statuscake.com/?PK=", text, "a push URL (its key) never shows")
        self.assertEqual(got, {"Fid Heartbeat %d" % (j + 1): {"status": state, "uptime": state} for j in range(NH)})

        # each contact keeps its whole group: the group's integrations are listed beside each one
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=contact&per_page=100" % rid)
        self.assertNotIn("hooks.example.com/sc/", r.text, "a webhook URL never shows")
        self.assertEqual(len(r.json["data"]), len(recipients(range(NC))))
        for x in r.json["data"]:
            g = int(x["name"].rsplit(" ", 1)[1]) - 1
            self.assertEqual([d["field"] for d in x["dropped"]], ["integrations"] if g % 3 == 2 else [], g)
        self.assertEqual({d["reason"] for x in r.json["data"] for d in x["dropped"]},
                         {"Ids only: no v1 call describes an integration, so none is imported (a warning names "
                          "the group); add them again by hand."})
        # the maintenance windows carry everything they hold
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=maintenance_window" % rid)
        self.assertEqual([json.dumps(x["dropped"]) for x in r.json["data"]], ["[]"] * NW)

        # before execute: which fields will not carry over, for how many resources
        summary = {(d["resource_type"], d["field"]): d["resources"] for d in self.get(user, rid)["meta"]["dropped"]}
        self.assertEqual(summary[("monitor", "alert_delay")], NM)
        for landed in ("confirmation", "trigger_rate", "dns_ips", "dns_server"):
            self.assertNotIn(("monitor", landed), summary)
        self.assertEqual(summary[("monitor", "hostname")], NS)
        self.assertEqual(summary[("heartbeat", "uptime")], NH)
        self.assertEqual(summary[("contact", "integrations")], len(members(2)))
        self.assertNotIn(("monitor", "basic_password"), summary)

    def test_a_tight_rate_limit_is_honoured_inside_the_check_list(self):
        user = self.user()
        key = self.setup_account(rate_limit=7, rate_window=2)
        fifth = self.summary["ids"]["monitors"]["first"][4]
        harness.fake_call(self.stack, "POST", "/_control/%s/faults" % P, {"faults": [
            {"kind": "429", "retry_after": 1, "match": "/v1/uptime/%s" % fifth}]})
        harness.fake_call(self.stack, "DELETE", "/_control/requests")
        rid = self.run_import(user, {"api_token": key})
        log = harness.fake_call(self.stack, "GET", "/_control/requests?provider=%s" % P)
        log = log.get("requests", log) if isinstance(log, dict) else log
        details = [e for e in log if e["path"].startswith("/%s/v1/uptime/" % P) and e["status"] == 200]
        self.assertEqual(len({e["path"] for e in details}), NM)
        # a detail was refused for the rate limit and asked again after its Retry-After; every
        # answer saying the quota was used up (x-ratelimit-remaining: 0) held the next request until
        # the window's reset, so the fake's own limit of 7 requests in 2 s never refused one
        refused = [i for i, e in enumerate(log) if e["status"] == 429]
        self.assertEqual([log[i]["path"] for i in refused], ["/%s/v1/uptime/%s" % (P, fifth)])
        self.assertGreaterEqual(log[refused[0] + 1]["ts"] - log[refused[0]]["ts"], 1)
        self.assertEqual([e for e in log if e["fault"] == "rate_limit"], [])
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), NM + NS)
        for i in range(NM):
            self.check_monitor(user, i)
        self.assertFalse([w for w in self.warnings(user, rid) if "could not be read" in w])

    def test_a_reimport_whose_detail_read_fails_leaves_the_account_as_it_was(self):
        # the details (GET /v1/uptime/{id}: request settings, alert timing, DNS expectations) of uptime
        # checks 2 and 6 (DNS) fail the second time
        user = self.user()
        key = self.setup_account()
        first = int(self.summary["ids"]["monitors"]["first"][0])
        rid = self.assert_reimport_keeps(
            user, {"api_token": key},
            [{"kind": "500", "match": "/v1/uptime/%d" % (first + i), "times": -1} for i in (1, 5)],
            [("monitor", "its details could not be read (GET /v1/uptime/{id}): port, keyword, keyword_up_when"),
             ("monitor", "regions, alert_after_checks, alert_after_s, dns_record_type")])
        # the resource's reason is cut to its column; the run log names every key kept
        kept = "regions, alert_after_checks, alert_after_s, dns_record_type, dns_expected, dns_nameserver"
        self.assertTrue(any('"Fid Monitor 6"' in w and kept in w for w in self.warnings(user, rid)), kept)
        for i in (1, 5):
            self.check_monitor(user, i)

    def test_refused_maintenance_windows_skip_their_kind_and_the_run_completes(self):
        user = self.user()
        key = self.setup_account(refuse=["maintenance"])
        rid = self.run_import(user, {"api_token": key})
        warnings = self.warnings(user, rid)
        self.assertTrue(any("StatusCake refused the maintenance windows list for this key (HTTP 403): "
                            "maintenance windows skipped" in w for w in warnings), warnings)
        self.assertEqual(self.stack.count("maintenance_windows", "user_id=%d" % user.id), 0)
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), NM + NS)
        self.assertEqual(self.stack.count("heartbeats", "user_id=%d" % user.id), NH)
        self.assertEqual(self.stack.count("contacts", "user_id=%d" % user.id), len(recipients(range(NC))))

    def test_bad_token_fails_the_run_on_the_first_call(self):
        self.setup_account()
        self.assert_refused_key_fails(self.user(), {"api_token": "nope-123"}, "nope-123", "StatusCake rejected the API token")
