"""UptimeRobot end to end (issue 10): a rich account on the fake provider (tests/fakes/prov_uptimerobot.py)
is discovered and imported by the real runner over HTTP, then the account tables are read back and
compared with what the provider holds, once through API v3 (a key v3 accepts) and once through API v2
(a legacy key that v3 refuses, so the run falls back): URLs with path, port and query, keyword mode both
ways, case sensitivity, method and body, headers, status codes, TLS, timeouts, regions, tags and groups
(v3), the port of port monitors (v2 reports sub_type 1 for all of them), heartbeats, alert recipients of
several kinds (v3: personal contacts and integrations), maintenance windows with the monitors and
heartbeats they silence, and status pages. Refused lists complete the run with a warning naming the kind;
a key both APIs refuse fails the run. Issue 24 item 4: each alert link's threshold and recurrence (minutes)
as its delay_s and repeat_s, DNS monitors' expected records, API monitors' assertions, the team and
organization contacts of /v3/user/all-alert-contacts, the monitors a v3 window names (monitorIds), and a
monitor's basic-auth login with its password sealed and shown nowhere.

Expected values follow the fake's formulas for monitor g (tests/fakes/README.md, uptimerobot quirks).
"""

import base64
import ctypes
import ctypes.util
import json
import os

import harness
from harness import q
from fidelity import FidelityTestCase, contact_order

P = "uptimerobot"
BASE_TS = 1700000000
COUNTS = {"monitors": 15, "heartbeats": 2, "contacts": 6, "status_pages": 2, "maintenance": 3}

# contact j: (type, value) by the fake's CONTACT_TYPES (2, 11, 5, 1, 16, 7)
EMAIL = ("email", "contact1@example.com")
WEBHOOK = ("webhook", "https://hooks.example.com/ur/3?")
SMS = ("sms", "+15550000003")
PAGERDUTY = ("pagerduty", None)
ZAPIER = ("other", None)


PASSWORD = "s3cret-probe"   # the fake's password of monitor g = 7 (g % 10 == 7)


def unseal(stack, sealed, user_id):
    """A monitor's auth_password_sealed opened as sql/017_alerting.sql says: base64 of nonce(24) ||
    XChaCha20-Poly1305 ciphertext, associated data "monitor-auth:<user id>", key = the stack's key file
    (64 hex characters). None when it does not open."""
    sodium = ctypes.CDLL(ctypes.util.find_library("sodium"))
    if sodium.sodium_init() < 0:
        raise RuntimeError("sodium_init failed")
    with open(stack.key_file, encoding="ascii") as f:
        key = bytes.fromhex(f.read().strip())
    blob = base64.b64decode(sealed)
    nonce, ct = blob[:24], blob[24:]
    ad = ("monitor-auth:%d" % user_id).encode()
    out, n = ctypes.create_string_buffer(max(1, len(ct))), ctypes.c_ulonglong(0)
    rc = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(out, ctypes.byref(n), None, ct, ctypes.c_ulonglong(len(ct)),
                                                           ad, ctypes.c_ulonglong(len(ad)), nonce, key)
    return out.raw[:n.value].decode() if rc == 0 else None


class TestUptimeRobotFidelity(FidelityTestCase):
    P = P

    def account_state(self, user):
        """FidelityTestCase's, with each sealed password opened: a seal draws a new nonce, so an import writes
        the same password under another ciphertext each time."""
        out = super().account_state(user)
        for r in out["monitors"]:
            if r.get("auth_password_sealed"):
                r["auth_password_sealed"] = unseal(self.stack, r["auth_password_sealed"], user.id)
        return out

    def link_timing(self, user, table="monitor"):
        """name → sorted [(contact name, delay_s, repeat_s)] of every monitor (or heartbeat) of user."""
        out = {}
        for r in self.rows("SELECT o.name AS o, c.name AS c, l.delay_s AS d, l.repeat_s AS r FROM {t}_contacts l "
                           "JOIN {t}s o ON o.id = l.{t}_id JOIN contacts c ON c.id = l.contact_id "
                           "WHERE o.user_id = {u}".format(t=table, u=user.id)):
            out.setdefault(r["o"], []).append((r["c"], r["d"], r["r"]))
        return {k: sorted(v, key=contact_order) for k, v in out.items()}

    def expected_timing(self, g, team=0):
        """The alert links of monitor g by the fake's formulas (prov_uptimerobot.py spec): contact g % 6 at once,
        once; when g % 4 == 0 also contact (g + 1) % 6 after 5 minutes, every 30; with team contacts, when
        g % 5 == 3, team contact (g // 5) % team after 2 minutes, every 10 (threshold and recurrence × 60)."""
        want = [("Fid Contact %d" % (g % 6 + 1), None, None)]
        if g % 4 == 0:
            want.append(("Fid Contact %d" % ((g + 1) % 6 + 1), 300, 1800))
        if team and g % 5 == 3:
            want.append(("Fid Team Contact %d" % ((g // 5) % team + 1), 120, 600))
        return sorted(want, key=contact_order)

    def check_timing_and_login(self, user):
        """Every alert link's delay and repeat by the formulas; the login of monitor 8 (g = 7) sealed, the
        others without one."""
        timing = self.link_timing(user)
        for g in range(15):
            self.assertEqual(timing.get("Fid Monitor %d" % (g + 1)), self.expected_timing(g), g)
        self.assertEqual(self.link_timing(user, "heartbeat")["Fid Heartbeat 2"],          # g = 16
                         [("Fid Contact 5", None, None), ("Fid Contact 6", 300, 1800)])
        logins = {r["name"]: (r["auth_username"], r["auth_password_sealed"]) for r in self.rows(
            "SELECT name, auth_username, auth_password_sealed FROM monitors WHERE user_id=%d" % user.id)}
        user_name, sealed = logins.pop("Fid Monitor 8")
        self.assertEqual(user_name, "probe")
        self.assertEqual(unseal(self.stack, sealed, user.id), PASSWORD)
        self.assertIsNone(unseal(self.stack, sealed, user.id + 1), "sealed for this user only")
        self.assertEqual(set(logins.values()), {(None, None)})

    def assert_password_nowhere(self, user, rid):
        """The monitor's password in no API answer about the run, no run log, no stored resource, nowhere in
        the database and no file of the stack."""
        texts = [user.request("GET", "/api/v1/migrations/%s" % rid).text,
                 user.request("GET", "/api/v1/migrations/%s/report" % rid).text, json.dumps(self.logs(user, rid))]
        for rtype in ("monitor", "heartbeat", "contact", "maintenance_window", "status_page"):
            texts.append(user.request("GET", "/api/v1/migrations/%s/resources?resource_type=%s&per_page=100"
                                      % (rid, rtype)).text)
        for text in texts:
            self.assertNotIn(PASSWORD, text)
        raw = self.stack.sql_value("SELECT d.external_data FROM " + harness.WITH_DATA + " WHERE r.run_id=%s AND "
                                   "r.name='Fid Monitor 8'" % q(rid))
        self.assertIn('"[redacted]"', raw)
        self.assertNotIn(PASSWORD.encode(), self.stack.dump_db())
        for top, _, files in os.walk(self.stack.tmp):
            for name in files:
                path = os.path.join(top, name)
                if os.path.isfile(path) and not os.path.islink(path):
                    with open(path, "rb") as f:
                        self.assertNotIn(PASSWORD.encode(), f.read(), path)

    def setup_account(self, api, **options):
        key = self.stack.unique("ur-")
        return key, self.load_account({"api_key": key}, COUNTS, dict(options, api=api), paused_every=5)

    def check_common(self, user, v3):
        """What both APIs carry: URLs, keyword modes, method, body, headers, timeouts, ports, TLS,
        recipients, heartbeats, windows and status pages."""
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 15)
        m = self.one("monitors", user, "Fid Monitor 1")       # g=0: https, GET, contacts 0 and 1
        self.assertEqual((m["type"], m["url"], m["http_method"], m["timeout_s"]),
                         ("http", "https://m1.example.com/", "GET", 30))
        self.assertEqual((m["keyword"], m["keyword_up_when"], m["verify_ssl"], m["paused"]), (None, None, 1, 0))
        self.assertEqual(self.js(m["request_headers"]) if m["request_headers"] else {}, {})
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]),
                         sorted([EMAIL, ("slack", self.slack)], key=contact_order))

        m = self.one("monitors", user, "Fid Monitor 2")       # g=1: http with a path, headers
        self.assertEqual((m["url"], m["timeout_s"]), ("http://m2.example.com/health", 15))
        self.assertEqual(self.js(m["request_headers"]), {"X-Env": "prod", "X-Probe": "1"})
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), [("slack", self.slack)])

        m = self.one("monitors", user, "Fid Monitor 3")       # g=2: keyword present, case-sensitive, port 8443
        self.assertEqual((m["type"], m["url"]), ("keyword", "https://m3.example.com:8443/status?probe=1"))
        self.assertEqual((m["keyword"], m["keyword_up_when"], m["keyword_case_sensitive"]),
                         ("All systems go", "present", 1))
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), [WEBHOOK])

        m = self.one("monitors", user, "Fid Monitor 8")       # g=7: keyword absent, POST with JSON, query
        self.assertEqual((m["type"], m["url"]), ("keyword", "https://m8.example.com/api/v1/ping?token=public&n=7"))
        self.assertEqual((m["keyword"], m["keyword_up_when"], m["keyword_case_sensitive"]), ("Error", "absent", 1))
        self.assertEqual((m["http_method"], m["request_body"]), ("POST", '{"check":7}'))
        self.assertEqual(self.js(m["request_headers"]), {"X-Env": "prod", "X-Probe": "7",
                                                         "Content-Type": "application/json"})
        m = self.one("monitors", user, "Fid Monitor 13")      # g=12: keyword present, case-insensitive, HEAD
        self.assertEqual((m["keyword_up_when"], m["keyword_case_sensitive"], m["http_method"]), ("present", 0, "HEAD"))
        m = self.one("monitors", user, "Fid Monitor 7")       # g=6: TLS errors ignored, POST
        self.assertEqual((m["verify_ssl"], m["http_method"], m["url"]),
                         (0, "POST", "https://m7.example.com:8443/status?probe=1"))

        # ping and port monitors: the host; the real port (v2 says sub_type 1 for each)
        m = self.one("monitors", user, "Fid Monitor 4")
        self.assertEqual((m["type"], m["url"], m["port"]), ("ping", "m4.example.com", None))
        for name, port, paused in (("Fid Monitor 5", 5432, 1), ("Fid Monitor 10", 8009, 1), ("Fid Monitor 15", 443, 1)):
            m = self.one("monitors", user, name)
            self.assertEqual((m["type"], m["port"], m["paused"]), ("port", port, paused), name)

        # heartbeats and their recipients (g=15: contact 3; g=16: contacts 4 and 5)
        hb = self.one("heartbeats", user, "Fid Heartbeat 1")
        self.assertEqual(hb["interval_s"], 300)
        self.assertTrue(hb["ping_url"].startswith("https://heartbeat.uptimerobot.com/m"), hb)
        self.assertEqual(self.linked("heartbeat_contacts", "heartbeat_id", hb["id"]), [SMS])
        hb2 = self.one("heartbeats", user, "Fid Heartbeat 2")
        self.assertEqual(hb2["interval_s"], 3600)
        self.assertEqual(self.linked("heartbeat_contacts", "heartbeat_id", hb2["id"]),
                         sorted([PAGERDUTY, ZAPIER], key=contact_order))

        # contacts: every kind, the ones without an address flagged
        rows = self.rows("SELECT name, type, value, needs_address FROM contacts WHERE user_id=%d" % user.id)
        self.assertEqual(sorted(((r["type"], r["value"]) for r in rows if r["type"] != "slack"), key=str),
                         sorted([EMAIL, WEBHOOK, SMS, PAGERDUTY, ZAPIER], key=str))
        self.assertEqual({r["name"] for r in rows}, {"Fid Contact %d" % (j + 1) for j in range(6)})
        self.assertEqual(sorted(r["type"] for r in rows if r["needs_address"]), ["other", "pagerduty"])

        # maintenance windows with the monitors and heartbeats that list them
        wins = {w["name"]: w for w in self.rows("SELECT * FROM maintenance_windows WHERE user_id=%d" % user.id)}
        self.assertEqual(sorted(wins), ["Fid Window 1", "Fid Window 2", "Fid Window 3"])
        w = wins["Fid Window 1"]
        self.assertEqual((w["recurrence"], w["starts"], w["duration_min"], self.js(w["days"], []), w["paused"]),
                         ("weekly", "02:00", 30, [1, 3], 0))
        w = wins["Fid Window 2"]
        start = "2023-12-15T22:13:20" + ("" if v3 else "Z")
        end = "2023-12-15T23:13:20" + ("" if v3 else "Z")
        self.assertEqual((w["recurrence"], w["starts"], w["ends"], w["duration_min"]), ("once", start, end, 60))
        self.assertEqual((wins["Fid Window 3"]["recurrence"], wins["Fid Window 3"]["starts"]), ("daily", "04:30"))
        for name, monitors, heartbeats in (("Fid Window 1", [1, 4, 7, 10, 13], ["Fid Heartbeat 1"]),
                                           ("Fid Window 2", [1, 7, 13], ["Fid Heartbeat 2"]),
                                           ("Fid Window 3", [], [])):
            got = self.rows("SELECT m.name AS m, h.name AS h FROM maintenance_window_monitors l "
                            "LEFT JOIN monitors m ON m.id = l.monitor_id LEFT JOIN heartbeats h ON h.id = l.heartbeat_id "
                            "WHERE l.window_id = %d" % wins[name]["id"])
            self.assertEqual(sorted(r["m"] for r in got if r["m"]), sorted("Fid Monitor %d" % g for g in monitors), name)
            self.assertEqual(sorted(r["h"] for r in got if r["h"]), heartbeats, name)

        # status pages: the first lists monitors 1..5
        pages = {p["name"]: p for p in self.rows("SELECT * FROM status_pages WHERE user_id=%d" % user.id)}
        self.assertEqual(sorted(pages), ["Fid Status Page 1", "Fid Status Page 2"])
        sp = pages["Fid Status Page 1"]
        self.assertTrue(sp["url"].startswith("https://stats.uptimerobot.com/"), sp)
        got = self.rows("SELECT m.name FROM status_page_monitors l JOIN monitors m ON m.id = l.monitor_id "
                        "WHERE l.status_page_id = %d ORDER BY l.position" % sp["id"])
        self.assertEqual([r["name"] for r in got], ["Fid Monitor %d" % g for g in range(1, 6)])
        return pages

    def test_v3_account_arrives_as_it_was(self):
        user = self.user()
        key, _ = self.setup_account("both")
        rid = self.run_import(user, {"api_key": key})
        self.slack = self.stack.sql_value("SELECT value FROM contacts WHERE user_id=%d AND type='slack'" % user.id)
        self.assertTrue(self.slack.startswith("https://hooks.slack.com/services/T000/B000/"), self.slack)
        pages = self.check_common(user, v3=True)

        # what only v3 has: expected codes, redirects, certificate reminders, regions, tags, groups, grace
        m = self.one("monitors", user, "Fid Monitor 1")
        self.assertEqual((self.js(m["expected_status_codes"]), m["follow_redirects"], m["ssl_expiry_days"]),
                         (["2xx", "3xx"], 1, 30))
        self.assertEqual((self.js(m["regions"]), self.js(m["tags"])), (["eu"], ["prod", "web"]))
        m = self.one("monitors", user, "Fid Monitor 2")
        self.assertEqual((self.js(m["expected_status_codes"]), m["follow_redirects"], self.js(m["regions"])),
                         (["2xx", "3xx", "404"], 0, ["na", "eu"]))
        self.assertEqual(self.js(self.one("monitors", user, "Fid Monitor 4")["tags"]), ["web", "group:Production"])
        self.assertEqual(self.js(self.one("monitors", user, "Fid Monitor 8")["tags"]), ["group:Production"])
        self.assertEqual(self.one("heartbeats", user, "Fid Heartbeat 2")["grace_s"], 300)
        self.assertEqual(self.js(self.one("heartbeats", user, "Fid Heartbeat 1")["tags"]), ["cron", "group:Production"])
        self.assertEqual(pages["Fid Status Page 2"]["url"], "https://status2.example.com")

        # the run stayed on v3: no v2 request at all
        reqs = harness.fake_call(self.stack, "GET", "/_control/requests?provider=%s" % P)
        self.assertFalse([r for r in reqs if "/v2/" in r["path"]], reqs[:3])
        self.assertTrue(any(r["path"].endswith("/v3/integrations") for r in reqs))
        # the windows name their monitors (monitorIds): the monitors are not paged again for them
        self.assertEqual(len([r for r in reqs if r["path"].endswith("/v3/monitors")]), 1, reqs)
        self.assertFalse([w for w in self.warnings(user, rid) if "logs in" in w])

        self.check_timing_and_login(user)
        self.assert_password_nowhere(user, rid)

    UNKNOWN = "Not known to this importer (the provider may have added it since); it is not imported."
    NEW_FIELDS = {"escalationPolicyId": 42, "flags": {"beta": True}}

    def dropped(self, user, rid, rtype):
        """name → {field: reason} of the run's resources of rtype (the response text besides)."""
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=%s&per_page=100" % (rid, rtype))
        self.assertStatus(r, 200)
        return {x["name"]: {d["field"]: d["reason"] for d in x["dropped"]} for x in r.json["data"]}, r.text

    def test_what_does_not_carry_over_is_listed_beside_each_monitor(self):
        """Issue 24 item 2: each resource's dropped fields, computed from the provider's field tables
        (src/providers/uptimerobot.c) and the object as sent, unknown fields included; the run's
        summary counts them before execute; values never show. v3, then v2 (other names)."""
        user = self.user()
        key, _ = self.setup_account("both", new_fields=self.NEW_FIELDS)
        rid = self.start_run(user, {"api_key": key})
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        got, text = self.dropped(user, rid, "monitor")
        self.assertEqual(len(got), 15)
        for g in range(15):
            d = got["Fid Monitor %d" % (g + 1)]
            # the alert timing and the login (g = 7) land: not listed
            want = {"createDateTime", "escalationPolicyId", "flags.beta"}
            if g % 3 == 1:     # regionData with MANUAL_SELECTED
                want.add("regionData.MANUAL_SELECTED")
            if g % 5 == 1:     # http monitors with a response time alert
                want.add("responseTimeThreshold")
            self.assertEqual(set(d), want, (g, d))
            self.assertEqual(d["escalationPolicyId"], self.UNKNOWN)
            self.assertEqual(d["flags.beta"], self.UNKNOWN)
        # the basic-auth login lands (sealed): nothing to enter again
        again = {x["name"]: [d["field"] for d in x["dropped"] if d.get("enter_again")] for x in json.loads(text)["data"]}
        self.assertEqual({n: f for n, f in again.items() if f}, {})
        self.assertNotIn("s3cret-probe", text, "a value never shows, only the field's name")
        self.assertNotIn(key, text)

        # heartbeats: the monitor settings UptimeRobot sends them too do not apply
        got, _ = self.dropped(user, rid, "heartbeat")
        common = {"authType", "createDateTime", "timeout", "successHttpResponseCodes", "checkSSLErrors",
                  "escalationPolicyId", "flags.beta"}
        self.assertEqual(set(got["Fid Heartbeat 1"]), common | {"regionalData"})      # g=15
        self.assertEqual(set(got["Fid Heartbeat 2"]), common | {                      # g=16 (its timing lands)
            "followRedirections", "sslExpirationReminder", "regionData", "config"})
        self.assertEqual(got["Fid Heartbeat 1"]["timeout"], "A monitor's setting; a heartbeat does not use it.")

        # contacts (personal and integrations): their state and event choice
        got, _ = self.dropped(user, rid, "contact")
        self.assertEqual({n: set(d) for n, d in got.items()},
                         {"Fid Contact %d" % (j + 1): {"status", "enableNotificationsFor"} for j in range(6)})
        # windows: their creation time and owner (none of 3 is added to every new monitor: j % 5 == 4)
        got, _ = self.dropped(user, rid, "maintenance_window")
        self.assertEqual({n: set(d) for n, d in got.items()},
                         {"Fid Window %d" % (j + 1): {"created", "userId"} for j in range(3)})
        # status pages: the sort order and the bare count of monitors
        got, _ = self.dropped(user, rid, "status_page")
        self.assertEqual({n: set(d) for n, d in got.items()},
                         {"Fid Status Page 1": {"sort", "monitorsCount"}, "Fid Status Page 2": {"sort", "monitorsCount"}})

        # before execute: which fields will not carry over, for how many resources
        summary = {(d["resource_type"], d["field"]): d["resources"] for d in self.get(user, rid)["meta"]["dropped"]}
        self.assertEqual(summary[("monitor", "escalationPolicyId")], 15)
        self.assertEqual(summary[("heartbeat", "escalationPolicyId")], 2)
        for field in ("authType", "httpUsername", "assignedAlertContacts[].threshold"):
            self.assertNotIn(("monitor", field), summary)
        self.assertEqual(summary[("monitor", "regionData.MANUAL_SELECTED")], 5)
        self.assertEqual(summary[("monitor", "responseTimeThreshold")], 3)
        self.assertEqual(summary[("contact", "enableNotificationsFor")], 6)

        # v2: the same monitors under v2 names
        user = self.user()
        key, _ = self.setup_account("v2", new_fields=self.NEW_FIELDS)
        rid = self.start_run(user, {"api_key": key})
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        got, text = self.dropped(user, rid, "monitor")
        for g in range(15):
            want = {"create_datetime", "escalationPolicyId", "flags.beta"}
            if g in (5, 6, 7):  # POST with a raw body (post_type 2)
                want.add("post_type")
            self.assertEqual(set(got["Fid Monitor %d" % (g + 1)]), want, g)
        again = {x["name"]: [d["field"] for d in x["dropped"] if d.get("enter_again")] for x in json.loads(text)["data"]}
        self.assertEqual({n: f for n, f in again.items() if f}, {})
        self.assertNotIn("s3cret-probe", text)
        self.assertNotIn(key, text)
        summary = {(d["resource_type"], d["field"]): d["resources"] for d in self.get(user, rid)["meta"]["dropped"]}
        self.assertEqual((summary[("monitor", "create_datetime")], summary[("monitor", "post_type")]), (15, 3))

    def test_legacy_key_falls_back_to_v2(self):
        user = self.user()
        key, _ = self.setup_account("v2")
        rid = self.run_import(user, {"api_key": key})
        self.slack = self.stack.sql_value("SELECT value FROM contacts WHERE user_id=%d AND type='slack'" % user.id)
        pages = self.check_common(user, v3=False)

        # v2: status overrides (404 counts as up, 500 as down); no tags or regions
        m = self.one("monitors", user, "Fid Monitor 2")
        self.assertEqual((self.js(m["expected_status_codes"]), self.js(m["alert_status_codes"])), (["404"], ["500"]))
        self.assertEqual((self.js(m["tags"], []), self.js(m["regions"], []), m["follow_redirects"]), ([], [], None))
        self.assertEqual(pages["Fid Status Page 2"]["url"].startswith("https://stats.uptimerobot.com/"), True)
        # page 2 shows all monitors ("monitors": 0): every monitor and heartbeat of the run, in the order
        # they were found
        got = self.rows("SELECT COALESCE(m.name, h.name) AS name FROM status_page_monitors e LEFT JOIN monitors m "
                        "ON m.id = e.monitor_id LEFT JOIN heartbeats h ON h.id = e.heartbeat_id "
                        "WHERE e.status_page_id = %d ORDER BY e.position" % pages["Fid Status Page 2"]["id"])
        want = self.rows("SELECT name FROM migration_run_resources WHERE run_id=%s AND resource_type IN "
                         "('monitor', 'heartbeat') ORDER BY id" % q(rid))
        self.assertEqual(len(want), COUNTS["monitors"] + COUNTS["heartbeats"])
        self.assertEqual([r["name"] for r in got], [r["name"] for r in want])
        self.assertTrue(any('"Fid Status Page 2" shows all monitors: it was imported with every monitor of this '
                            'run' in w for w in self.warnings(user, rid)))

        # one refused v3 call, then v2 only (getMonitors with every flag)
        reqs = harness.fake_call(self.stack, "GET", "/_control/requests?provider=%s" % P)
        v3 = [r for r in reqs if "/v3/" in r["path"]]
        self.assertEqual([(r["path"], r["status"]) for r in v3], [("/uptimerobot/v3/monitors", 401)])
        first = [r for r in reqs if r["path"].endswith("/getMonitors")][0]
        for flag in ("alert_contacts", "ssl", "custom_http_headers", "custom_http_statuses", "mwindows"):
            self.assertEqual(str(first["params"].get(flag)), "1", first)
        warnings = self.warnings(user, rid)
        self.assertTrue(any("API v3 refused this key (HTTP 401); the import uses API v2" in w for w in warnings),
                        warnings)
        self.assertFalse([w for w in warnings if "logs in" in w])
        dump = json.dumps(self.logs(user, rid))
        self.assertNotIn(key, dump)
        self.check_timing_and_login(user)
        self.assert_password_nowhere(user, rid)

    def test_dns_records_and_api_assertions_arrive(self):
        """A v3-only account adds API (g % 15 == 5), UDP (9) and DNS (13) monitors (prov_uptimerobot.py)."""
        user = self.user()
        key, _ = self.setup_account("v3")
        rid = self.run_import(user, {"api_key": key})
        m = self.one("monitors", user, "Fid Monitor 14")      # g = 13: A and MX records, CNAME not checked
        self.assertEqual((m["type"], m["url"], m["dns_record_type"], self.js(m["dns_expected"]), m["dns_nameserver"]),
                         ("dns", "m14.example.com", "A", ["192.0.2.14", "192.0.2.15"], None))
        self.assertTrue(any('DNS monitor "Fid Monitor 14" also expects records of 1 other type(s) (MX); the account '
                            'checks one type, A' in w for w in self.warnings(user, rid)))
        m = self.one("monitors", user, "Fid Monitor 6")       # g = 5: logic AND
        self.assertEqual(m["type"], "api")
        self.assertEqual(self.js(m["assertions"]), [
            {"source": "json", "property": "$.data.status", "comparison": "equals", "target": "active"},
            {"source": "json", "property": "$.data.count", "comparison": "greater_than", "target": "5"},
            {"source": "json", "property": "$.error", "comparison": "is_null", "target": None}])
        self.assertEqual((m["dns_record_type"], m["dns_expected"]), (None, None))
        others = self.rows("SELECT name FROM monitors WHERE user_id=%d AND (assertions IS NOT NULL OR "
                           "dns_record_type IS NOT NULL)" % user.id)
        self.assertEqual(sorted(r["name"] for r in others), ["Fid Monitor 14", "Fid Monitor 6"])
        got, _ = self.dropped(user, rid, "monitor")
        for name in ("Fid Monitor 14", "Fid Monitor 6"):
            self.assertFalse([f for f in got[name] if f.startswith("config")], got[name])

    def test_team_contacts_are_read_and_a_reimport_without_them_keeps_the_links(self):
        """/v3/user/all-alert-contacts: the contacts of the team and organization (two groups, one notify-only)
        become contacts, and the monitors that alert them are linked with their own timing. A re-import whose
        read of them is refused keeps every contact, link and timing as they are."""
        user = self.user()
        key, _ = self.setup_account("both", team_contacts=3)
        creds = {"api_key": key}
        self.run_import(user, creds)
        team = self.rows("SELECT name, type, value, needs_address FROM contacts WHERE user_id=%d AND name LIKE "
                         "'Fid Team Contact %%' ORDER BY name" % user.id)
        self.assertEqual([(r["name"], r["type"], r["value"]) for r in team],
                         [("Fid Team Contact 1", "email", "team1@example.com"),
                          ("Fid Team Contact 2", "sms", "+17770000001"),
                          ("Fid Team Contact 3", "voice", "+18880000002")])
        self.assertEqual(self.stack.count("contacts", "user_id=%d" % user.id), 9)   # not the personal ones twice
        timing = self.link_timing(user)
        for g in range(15):
            self.assertEqual(timing.get("Fid Monitor %d" % (g + 1)), self.expected_timing(g, team=3), g)

        rid = self.assert_reimport_keeps(user, creds, [{"kind": "403", "match": "all-alert-contacts", "times": -1}],
                                         [])
        self.assertTrue(any("refused the team and organization alert contacts for this key (HTTP 403)" in w
                            for w in self.warnings(user, rid)))
        self.assertEqual(self.link_timing(user), timing)

    def test_windows_without_monitor_ids_are_linked_from_the_monitors(self):
        """Older v3 answers name no monitors in a window (the official Terraform client before 64857f5): each
        window's monitors are read from the monitors that list it, with the same result."""
        user = self.user()
        key, _ = self.setup_account("both", window_monitor_ids=False)
        self.run_import(user, {"api_key": key})
        self.slack = self.stack.sql_value("SELECT value FROM contacts WHERE user_id=%d AND type='slack'" % user.id)
        self.check_common(user, v3=True)
        reqs = harness.fake_call(self.stack, "GET", "/_control/requests?provider=%s" % P)
        self.assertEqual(len([r for r in reqs if r["path"].endswith("/v3/monitors")]), 2, reqs)

    def test_refused_lists_skip_their_kind_and_the_run_completes(self):
        user = self.user()
        key, _ = self.setup_account("both", refuse=["integrations", "maintenance"])
        rid = self.run_import(user, {"api_key": key})
        warnings = self.warnings(user, rid)
        for kind in ("integrations", "maintenance windows"):
            self.assertTrue(any("UptimeRobot refused the %s list for this key (HTTP 403): %s skipped" % (kind, kind)
                                in w for w in warnings), (kind, warnings))
        self.assertEqual(self.stack.count("maintenance_windows", "user_id=%d" % user.id), 0)
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 15)
        # personal contacts only (e-mail, SMS); monitor 1 keeps its e-mail recipient
        self.assertEqual(self.stack.count("contacts", "user_id=%d" % user.id), 2)
        m = self.one("monitors", user, "Fid Monitor 1")
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), [EMAIL])

        # v2: the refusal is in the body (not_authorized)
        user2 = self.user()
        key, _ = self.setup_account("v2", refuse=["contacts"])
        rid = self.run_import(user2, {"api_key": key})
        self.assertTrue(any("UptimeRobot refused the alert contacts list for this key (not_authorized): alert "
                            "contacts skipped" in w for w in self.warnings(user2, rid)))
        self.assertEqual(self.stack.count("contacts", "user_id=%d" % user2.id), 0)
        self.assertEqual(self.stack.count("maintenance_windows", "user_id=%d" % user2.id), 3)

    def test_a_key_both_apis_refuse_fails_the_run(self):
        self.setup_account("both")
        bad = "nope-SECRET-%s" % self.stack.unique("k")
        self.assert_refused_key_fails(self.user(), {"api_key": bad}, bad,
                                      "UptimeRobot rejected the API key", "API v3 answered HTTP 401")
