"""updown.io end to end (issue 10): a rich account on the fake provider (tests/fakes/prov_updown.py) is
discovered and imported by the real runner over HTTP, then the account tables are read back and
compared with what the provider holds: full URLs (scheme, port, path, query) of HTTP checks and the
host (and port) of TCP/ICMP ones, the keyword (always 'present'), method, body and headers, regions
(every location but the disabled ones), paused checks, alert recipients of every type linked to
their checks, pulse checks as heartbeats without a ping URL (with the warning that the job must call
the new one), and status pages with their checks and pulses in order; a check muted until a time is muted until
then (muted until it recovers, or for ever, is said in a warning: the account mutes until a time only);
updown publishes no other alert timing and never a check's basic-auth login. A second run with the
recipients list refused (401) completes with a warning naming the kind; a bad key fails the run on
the first call.

The expected values follow the fake's formulas for check i (tests/fakes/README.md, updown quirks).
"""

import json
import time

import harness
from fidelity import FidelityTestCase

P = "updown"
ALL = ["lan", "mia", "bhs", "gra", "fra", "sin", "tok", "syd"]
BASE_TS = 1700000000


def muted_until(i):
    """monitors.muted_until of check i (a fresh account: the fake's version 0): a day after its last
    check when i % 5 == 2; NULL for "recovery" (i % 5 == 3), "forever" (4) and none."""
    if i % 5 != 2:
        return None
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(BASE_TS + 30 * 86400 + i * 60 + 86400))


class TestUpdownFidelity(FidelityTestCase):
    P = P

    def setup_account(self, **options):
        key = self.stack.unique("ud-")
        self.load_account({"api_key": key}, {"monitors": 12, "heartbeats": 3, "contacts": 7, "status_pages": 2},
                          options, paused_every=5)
        return key

    @staticmethod
    def alerted(i):
        """Names of the recipients of check i (7 recipients)."""
        out = ["Fid Contact %d" % (i % 7 + 1)]
        if i % 3 == 0:
            out.append("Fid Contact %d" % ((i + 1) % 7 + 1))
        return sorted(out)

    @staticmethod
    def regions(i):
        off = {1: ["sin", "tok"], 3: ["lan"]}.get(i % 4)
        return None if off is None else [x for x in ALL if x not in off]

    def test_rich_account_arrives_as_it_was(self):
        user = self.user()
        key = self.setup_account()
        rid = self.run_import(user, {"api_key": key})
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 12)
        self.assertEqual(self.stack.count("heartbeats", "user_id=%d" % user.id), 3)

        for i in range(12):
            m = self.one("monitors", user, "Fid Monitor %d" % (i + 1))
            n, form = i + 1, i % 6
            self.assertEqual(m["paused"], 1 if i in (4, 9) else 0, i)
            self.assertEqual(m["interval_s"], (60, 300, 30, 600, 3600, 15, 120, 1800)[i % 8], i)
            self.assertEqual(json.loads(m["regions"]) if m["regions"] else None, self.regions(i), i)
            self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"], ("name",)), self.alerted(i), i)
            self.assertEqual(m["muted_until"], muted_until(i), i)
            self.assertEqual((m["alert_after_checks"], m["alert_after_s"], m["recovery_s"], m["realert_s"],
                              m["auth_username"], m["auth_password_sealed"], m["assertions"]), (None,) * 7, i)
            if form == 0:    # https, updown's default GET/HEAD
                self.assertEqual((m["type"], m["url"], m["http_method"], m["keyword"]),
                                 ("http", "https://m%d.example.com/" % n, "GET", None))
                self.assertIsNone(m["request_headers"])
                self.assertIsNone(m["keyword_up_when"])
            elif form == 1:  # keyword, POST with a body and headers, path and query
                self.assertEqual((m["type"], m["url"]), ("keyword", "https://m%d.example.com/api/health?deep=1" % n))
                self.assertEqual((m["keyword"], m["keyword_up_when"]), ("All systems go", "present"))
                self.assertEqual((m["http_method"], m["request_body"]), ("POST", '{"probe":%d}' % n))
                self.assertEqual(json.loads(m["request_headers"]), {"X-Env": "prod", "X-Check": str(n)})
            elif form == 2:  # a non-default port in the URL
                self.assertEqual((m["type"], m["url"]), ("http", "http://m%d.example.com:8080/status?full=true" % n))
                self.assertEqual(json.loads(m["request_headers"]), {"Accept-Language": "en"})
            elif form == 3:
                self.assertEqual((m["type"], m["url"], m["port"]), ("tcp", "db%d.example.com" % n, 5432))
                self.assertIsNone(m["http_method"])
            elif form == 4:
                self.assertEqual((m["type"], m["url"], m["port"]), ("ping", "router%d.example.com" % n, None))
            else:            # tcps
                self.assertEqual((m["type"], m["url"], m["port"]), ("tcp", "mail%d.example.com" % n, 993))

        # pulse checks: heartbeats, interval = period, grace 0, no ping URL; the warning says so
        warnings = self.warnings(user, rid)
        for i in range(12):
            said = {3: "until it recovers", 4: "for ever"}.get(i % 5)
            self.assertEqual(any('check "Fid Monitor %d" has its alerts muted' % (i + 1) in w for w in warnings),
                             said is not None, i)
            if said:
                self.assertTrue(any('"Fid Monitor %d" has its alerts muted %s; the account mutes only until a time'
                                    % (i + 1, said) in w for w in warnings), warnings)
        for j in range(3):
            h = self.one("heartbeats", user, "Fid Heartbeat %d" % (j + 1))
            self.assertEqual((h["interval_s"], h["grace_s"], h["paused"]), ((300, 86400, 90000)[j], 0, 0))
            self.assertIsNone(h["ping_url"])
            self.assertEqual(self.linked("heartbeat_contacts", "heartbeat_id", h["id"], ("name",)),
                             ["Fid Contact %d" % (j + 1)])
            self.assertTrue(any('pulse check "Fid Heartbeat %d" was imported as a heartbeat without its ping URL'
                                % (j + 1) in w and "call the new heartbeat's ping URL" in w for w in warnings),
                            warnings)

        # recipients: every type, the e-mail address out of "Name <address>", UI-only without address
        rows = self.rows("SELECT name, type, value, needs_address FROM contacts WHERE user_id=%d ORDER BY name"
                         % user.id)
        self.assertEqual([(r["name"], r["type"], r["value"], r["needs_address"]) for r in rows], [
            ("Fid Contact 1", "email", "contact1@example.com", 0),
            ("Fid Contact 2", "sms", "+15550000001", 0),
            ("Fid Contact 3", "webhook", "https://hooks.example.com/ud/3", 0),
            ("Fid Contact 4", "slack", "https://hooks.slack.com/services/T000/B004/xyz", 0),
            ("Fid Contact 5", "teams", "https://example.webhook.office.com/webhookb2/5", 0),
            ("Fid Contact 6", "slack", None, 1),
            ("Fid Contact 7", "telegram", None, 1)])

        # status pages: visibility -> public; checks then the pulse, in the page's order
        for j, public in ((0, 1), (1, 0)):
            sp = self.one("status_pages", user, "Fid Status Page %d" % (j + 1))
            self.assertEqual(sp["public"], public)
            self.assertTrue(sp["url"].startswith("https://updown.io/p/"), sp["url"])
            entries = self.rows(
                "SELECT m.name AS m, h.name AS h FROM status_page_monitors e LEFT JOIN monitors m ON m.id = "
                "e.monitor_id LEFT JOIN heartbeats h ON h.id = e.heartbeat_id WHERE e.status_page_id = %d "
                "ORDER BY e.position" % sp["id"])
            self.assertEqual([e["m"] or e["h"] for e in entries],
                             ["Fid Monitor %d" % ((5 * j + k) % 12 + 1) for k in range(5)]
                             + ["Fid Heartbeat %d" % (j + 1)])
            self.assertIsNone(entries[-1]["m"])

    def test_what_does_not_carry_over_is_listed_beside_each_check(self):
        """Issue 24 item 2: each resource's dropped fields, computed from the provider's field tables
        (src/providers/updown.c) and the object as sent, unknown fields included; the run's summary
        counts them before execute; values never show, and a protected page's access key is not even
        stored."""
        user = self.user()
        key = self.setup_account(new_fields={"maintenance_policy": "strict", "flags": {"beta": True}})
        rid = self.start_run(user, {"api_key": key})
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        unknown = "Not known to this importer (the provider may have added it since); it is not imported."

        def dropped(rtype):
            r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=%s&per_page=100" % (rid, rtype))
            self.assertStatus(r, 200)
            self.assertNotIn(key, r.text)
            self.assertNotIn("access_key", r.text)
            return {x["name"]: {d["field"]: d["reason"] for d in x["dropped"]} for x in r.json["data"]}

        got = dropped("monitor")
        self.assertEqual(len(got), 12)
        for i in range(12):
            d = got["Fid Monitor %d" % (i + 1)]
            want = {"last_status", "uptime", "last_check_at", "next_check_at", "created_at", "apdex_t",
                    "favicon_url", "maintenance_policy", "flags.beta"}
            want |= {"down", "down_since", "error"} if i == 6 else {"up_since"}   # i % 7 == 6 and enabled: down
            if i % 2 == 0:
                want.add("published")
            if i % 6 in (0, 1):     # https: the certificate's last test
                want.add("ssl")
            self.assertEqual(set(d), want, (i, d))
            self.assertEqual(d["maintenance_policy"], unknown)
            self.assertEqual(d["flags.beta"], unknown)

        # pulses: the redacted URL first of all
        got = dropped("heartbeat")
        self.assertEqual({n: set(d) for n, d in got.items()},
                         {"Fid Heartbeat %d" % (j + 1): {"url", "uptime", "apdex_t", "created_at", "http_verb",
                                                          "maintenance_policy", "flags.beta"} for j in range(3)})
        self.assertIn("call the new heartbeat's ping URL", got["Fid Heartbeat 1"]["url"])
        # recipients carry everything; status pages all but their description
        self.assertEqual({n: set(d) for n, d in dropped("contact").items()},
                         {"Fid Contact %d" % (j + 1): set() for j in range(7)})
        self.assertEqual({n: set(d) for n, d in dropped("status_page").items()},
                         {"Fid Status Page 1": {"description"}, "Fid Status Page 2": {"description"}})
        stored = self.rows("SELECT d.external_data FROM " + harness.WITH_DATA + " WHERE r.run_id='%s' AND "
                           "r.resource_type='status_page'" % rid)
        self.assertEqual(len(stored), 2)
        for r in stored:
            self.assertNotIn("access_key", r["external_data"])

        # before execute: which fields will not carry over, for how many resources
        summary = {(d["resource_type"], d["field"]): d["resources"] for d in self.get(user, rid)["meta"]["dropped"]}
        self.assertEqual(summary[("monitor", "apdex_t")], 12)
        self.assertEqual(summary[("monitor", "maintenance_policy")], 12)
        self.assertEqual(summary[("monitor", "published")], 6)
        self.assertEqual(summary[("monitor", "ssl")], 4)
        self.assertNotIn(("monitor", "mute_until"), summary)   # it lands (muted_until)
        self.assertEqual(summary[("heartbeat", "url")], 3)
        self.assertEqual(summary[("status_page", "description")], 2)

    def test_a_reimport_whose_recipients_or_pages_are_refused_keeps_the_account(self):
        """Issue 24 item 1: the second time the recipients and status pages lists are refused (401); every
        account table and list stays as the first import left it (checks keep their recipients and
        their mute)."""
        user = self.user()
        key = self.setup_account()
        self.assert_reimport_keeps(user, {"api_key": key},
                                   [{"kind": "401", "match": "/api/recipients", "times": -1},
                                    {"kind": "401", "match": "/api/status_pages", "times": -1}], [])

    def test_refused_recipients_skip_their_kind_and_the_run_completes(self):
        user = self.user()
        key = self.setup_account(refuse=["recipients"])
        rid = self.run_import(user, {"api_key": key})
        warnings = self.warnings(user, rid)
        self.assertTrue(any("updown.io refused the recipients list for this key (HTTP 401): recipients skipped"
                            in w for w in warnings), warnings)
        self.assertEqual(self.stack.count("contacts", "user_id=%d" % user.id), 0)
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 12)
        self.assertEqual(self.stack.count("status_pages", "user_id=%d" % user.id), 2)

    def test_bad_key_fails_the_run_on_the_first_call(self):
        self.setup_account()
        self.assert_refused_key_fails(self.user(), {"api_key": "nope-123"}, "nope-123", "updown.io rejected the API key")
