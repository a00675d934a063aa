"""Pingdom end to end (issue 10): a rich account on the fake provider (tests/fakes/prov_pingdom.py) is
discovered and imported by the real runner over HTTP, then the account tables are read back and
compared with what the provider holds. The check list carries host names only; everything else comes
from one GET /checks/{id}?include_teams=true per check: full URLs with scheme, port, path and query,
keyword mode both ways, POST data, request headers (without Pingdom's own User-Agent), certificate
settings, regions, timeouts, tags, alert recipients (userids and the members of teams[]), alert timing
(sendnotificationwhendown, notifyagainevery), a DNS check's name server and expected address, what a
custom HTTP check tests, an http check's basic-auth login (the password sealed, and shown nowhere) and
the maintenance windows with the checks they silence. A second run with teams and maintenance refused (403)
completes with a warning naming each kind; a bad token fails the run on the first call.

The expected values follow the fake's formulas for check i (tests/fakes/README.md, pingdom quirks).
"""

import base64
import ctypes
import ctypes.util
import datetime
import json
import time

import harness
from fidelity import FidelityTestCase

P = "pingdom"
BASE_TS = 1700000000
TYPES = ("http", "http", "httpcustom", "tcp", "ping", "dns", "smtp", "http", "udp", "pop3", "imap", "http")
NOTIFY_AGAIN = (0, 3, 1, 10)
# what a custom HTTP check tests (Pingdom's "HTTP Custom Check" page): its XML's status is OK
XML_OK = [{"source": "xml", "property": "/pingdom_http_custom_check/status", "comparison": "equals", "target": "OK"}]


def unseal(stack, sealed, ad):
    """The text sealed (base64 of nonce(24) || XChaCha20-Poly1305-IETF ciphertext and tag, as discovery
    seals a monitor's password: src/runner/discovery.c seal_secrets) under the stack's key file with the
    associated data ad, by libsodium itself; None when it does not open."""
    sodium = ctypes.CDLL(ctypes.util.find_library("sodium"))
    with open(stack.key_file) as f:
        key = bytes.fromhex(f.read().strip())
    blob = base64.b64decode(sealed)
    nonce, ct = blob[:24], blob[24:]
    out = ctypes.create_string_buffer(len(ct))
    n = ctypes.c_ulonglong(0)
    rc = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(
        out, ctypes.byref(n), None, ct, ctypes.c_ulonglong(len(ct)), ad.encode(), ctypes.c_ulonglong(len(ad)),
        nonce, key)
    return out.raw[:n.value].decode() if rc == 0 else None


def iso(ts):
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class TestPingdomFidelity(FidelityTestCase):
    P = P

    def setup_account(self, **options):
        key = self.stack.unique("pd-")
        return key, self.load_account({"api_token": key},
                                      {"monitors": 12, "contacts": 5, "teams": 2, "maintenance": 4},
                                      options, paused_every=5)

    # contact j of the fake: e-mail always, SMS when j is odd, the Pingdom app when j % 4 == 3
    @staticmethod
    def contact(j):
        out = [("email", "contact%d@example.com" % (j + 1))]
        if j % 2 == 1:
            out.append(("sms", "+1555%07d" % j))
        if j % 4 == 3:
            out.append(("push", "iPhone %d" % (j + 1)))
        return out

    def check_alerting(self, user, i):
        """Check i's alert timing, DNS expectations, assertions and login as the fake's formulas give them
        (tests/fakes/prov_pingdom.py): after 1 + i % 4 down results; again every NOTIFY_AGAIN[i % 4]
        results of its resolution (0: never, NULL); check 5 (dns) asks ns1.example.com for 2001:db8::6;
        check 2 (httpcustom) reads its XML status; http checks 7 and 11 log in."""
        m = self.one("monitors", user, "Fid Monitor %d" % (i + 1))
        again = NOTIFY_AGAIN[i % 4] * (1, 5, 15)[i % 3] * 60
        self.assertEqual((m["alert_after_checks"], m["realert_s"], m["alert_after_s"], m["recovery_s"],
                          m["muted_until"]), (1 + i % 4, again or None, None, None, None), i)
        dns = ("AAAA", ["2001:db8::%x" % (i + 1)], "ns1.example.com") if TYPES[i] == "dns" else (None, None, None)
        self.assertEqual((m["dns_record_type"], self.js(m["dns_expected"]), m["dns_nameserver"]), dns, i)
        self.assertEqual(self.js(m["assertions"]), XML_OK if TYPES[i] == "httpcustom" else None, i)
        if TYPES[i] == "http" and i % 4 == 3:
            self.assertEqual(m["auth_username"], "monitor%d" % (i + 1))
            self.assertEqual(unseal(self.stack, m["auth_password_sealed"], "monitor-auth:%d" % user.id),
                             "s3cret-pd-%d" % (i + 1))
        else:
            self.assertEqual((m["auth_username"], m["auth_password_sealed"]), (None, None), i)
        links = self.rows("SELECT delay_s, repeat_s FROM monitor_contacts WHERE monitor_id=%d" % m["id"])
        self.assertEqual({(x["delay_s"], x["repeat_s"]) for x in links}, {(None, None)}, i)

    def test_a_login_password_is_sealed_and_shown_nowhere(self):
        """Issue 24 item 4: an http check's basic-auth password (type.http.password, in Pingdom's answers)
        lands sealed in auth_password_sealed for this user alone, and shows in no API answer, run log,
        stored resource, runner output or web server log."""
        user = self.user()
        key, _ = self.setup_account()
        secrets = ["s3cret-pd-8", "s3cret-pd-12"]
        rid = self.start_run(user, {"api_token": key})
        out = self.drive_output(rid, "awaiting_review")
        self.execute(user, rid)
        out += self.drive_output(rid, "completed")
        for i in (7, 11):
            m = self.one("monitors", user, "Fid Monitor %d" % (i + 1))
            self.assertEqual(unseal(self.stack, m["auth_password_sealed"], "monitor-auth:%d" % user.id),
                             "s3cret-pd-%d" % (i + 1))
            # sealed for this account: another user's associated data does not open it
            self.assertIsNone(unseal(self.stack, m["auth_password_sealed"], "monitor-auth:%d" % (user.id + 1)))
        answers = [self.get(user, rid)]
        for path in ("/resources?per_page=100", "/logs?per_page=100", "/resources?resource_type=monitor&per_page=100"):
            r = user.request("GET", "/api/v1/migrations/%s%s" % (rid, path))
            self.assertStatus(r, 200)
            answers.append(r.text)
        stored = self.stack.sql("SELECT d.external_data, d.normalized_data, r.reason, r.error_message FROM "
                                + harness.WITH_DATA + " WHERE r.run_id=%s" % harness.q(rid))
        self.assertIn("[redacted]", json.dumps(stored), "the stored copy of the check says it held one")
        logs = self.stack.sql("SELECT message FROM migration_run_logs WHERE run_id=%s" % harness.q(rid))
        web = "".join(harness.tail(path, 100000) for w in self.stack.webs.values() for path in w.log_files())
        for secret in secrets:
            for what, text in (("API answers", json.dumps(answers)), ("stored resources", json.dumps(stored)),
                               ("run logs", json.dumps(logs)), ("runner output", out), ("web logs", web)):
                self.assertNotIn(secret, text, what)

    def drive_output(self, rid, state, timeout=90):
        """drive(), keeping what the runner wrote to stdout and stderr."""
        out, deadline = "", time.time() + timeout
        while self.stack.run_status(rid) != state:
            self.assertLess(time.time(), deadline, "run %s is %s" % (rid, self.stack.run_status(rid)))
            p = self.runner("--once")
            out += p.stdout + p.stderr
            time.sleep(0.3)
        return out

    def test_what_does_not_carry_over_is_listed_beside_each_check(self):
        """Issue 24 item 2: each resource's dropped fields, computed from the provider's field table
        (src/providers/pingdom.c) and the check's detail as sent, unknown fields included; the run's
        summary counts them before execute; values never show (the targets' login password least)."""
        user = self.user()
        key, _ = self.setup_account(new_fields={"escalate_after": 600, "flags": {"beta": True}})
        rid = self.start_run(user, {"api_token": key})
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=monitor&per_page=100" % rid)
        self.assertStatus(r, 200)
        self.assertNotIn("s3cret-pd-", r.text, "a password never shows")
        self.assertNotIn("Call the on-call DBA", r.text, "a value never shows, only the field's name")
        unknown = "Not known to this importer (the provider may have added it since); it is not imported."
        types = TYPES
        self.assertEqual(len(r.json["data"]), 12)
        for item in r.json["data"]:
            i = int(item["name"].rsplit(" ", 1)[1]) - 1
            got = {d["field"]: d["reason"] for d in item["dropped"]}
            want = {"created", "lasterrortime", "lasttesttime", "lastresponsetime", "notifywhenbackup",
                    "escalate_after", "flags.beta"}
            if i % 5 == 4:
                want.add("integrationids")
            if i % 3 == 1:
                want.add("custom_message")
            # alert timing, DNS expectations and the basic-auth login all land now
            want |= {"httpcustom": {"type.httpcustom.additionalurls"},
                     "smtp": {"type.smtp.encryption"}}.get(types[i], set())
            self.assertEqual(set(got), want, (i, got))
            self.assertEqual(got["escalate_after"], unknown)
            self.assertEqual(got["flags.beta"], unknown)
            self.assertEqual(got["notifywhenbackup"],
                             "Whether to alert when the check is back up has no place in the account.")
            self.assertEqual([d for d in item["dropped"] if d.get("enter_again")], [], i)
        # contacts: one item per notification target, each with the whole contact's fields
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=contact&per_page=100" % rid)
        self.assertEqual(len(r.json["data"]), 8)
        for item in r.json["data"]:
            j = int(item["name"].rsplit(" ", 1)[1]) - 1
            got = {d["field"]: d["reason"] for d in item["dropped"]}
            want = {"type", "notification_targets.email[].severity"}
            if j == 0:
                want.add("owner")
            if j == 4:
                want.add("paused")
            if j < 4:       # team 0 has contacts 0 and 1, team 1 contacts 2 and 3
                want.add("teams")
            if j % 2 == 1:
                want |= {"notification_targets.sms[].severity", "notification_targets.sms[].provider"}
            if j % 4 == 3:
                want |= {"notification_targets.apns[].severity", "notification_targets.apns[].apns_device"}
            self.assertEqual(set(got), want, (item["external_id"], got))
        self.assertNotIn("%064x" % 4, r.text, "an app's device token never shows")
        # maintenance windows carry everything they have (no transaction checks)
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=maintenance_window" % rid)
        self.assertEqual({json.dumps(x["dropped"]) for x in r.json["data"]}, {"[]"})
        # before execute: which fields will not carry over, for how many resources
        summary = {(d["resource_type"], d["field"]): d["resources"] for d in self.get(user, rid)["meta"]["dropped"]}
        self.assertEqual(summary[("monitor", "notifywhenbackup")], 12)
        self.assertEqual(summary[("monitor", "escalate_after")], 12)
        self.assertEqual(summary[("monitor", "custom_message")], 4)
        self.assertEqual(summary[("monitor", "integrationids")], 2)
        for landed in ("sendnotificationwhendown", "notifyagainevery", "type.http.username", "type.http.password",
                       "type.dns.nameserver", "type.dns.expectedip"):
            self.assertNotIn(("monitor", landed), summary)
        self.assertEqual(summary[("contact", "notification_targets.email[].severity")], 8)
        self.assertEqual(summary[("contact", "teams")], 7)
        self.assertNotIn("maintenance_window", {t for t, _ in summary})

    def test_rich_account_arrives_as_it_was(self):
        user = self.user()
        key, acct = self.setup_account()
        rid = self.run_import(user, {"api_token": key})
        c = self.contact
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 12)

        # check 0: https on 8443 with path and query, shouldcontain -> present, Pingdom's UA dropped,
        # certificate checked 7 days ahead, region EU, 5000 ms; userids [contact 0] + team 0 (contacts 0, 1)
        m = self.one("monitors", user, "Fid Monitor 1")
        self.assertEqual((m["type"], m["url"]), ("keyword", "https://m1.example.com:8443/health/1?probe=pingdom&v=0"))
        self.assertEqual((m["keyword"], m["keyword_up_when"], m["http_method"]), ("OK-1", "present", "GET"))
        self.assertIsNone(m["request_body"])
        self.assertEqual(json.loads(m["request_headers"]), {"X-Check": "c1"})
        self.assertEqual((m["verify_ssl"], m["ssl_expiry_days"], m["timeout_s"], m["interval_s"]), (1, 7, 5, 60))
        self.assertEqual(json.loads(m["regions"]), ["EU"])
        self.assertEqual(json.loads(m["tags"]), ["demo", "tier-0"])
        self.assertEqual(m["port"], 8443)
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), sorted(c(0) + c(1)))

        # check 1: plain http on the default port, shouldnotcontain -> absent, POST data; contact 1 only
        m = self.one("monitors", user, "Fid Monitor 2")
        self.assertEqual((m["type"], m["url"]), ("keyword", "http://m2.example.com/health/2?probe=pingdom&v=1"))
        self.assertEqual((m["keyword"], m["keyword_up_when"]), ("Error 2", "absent"))
        self.assertEqual((m["http_method"], m["request_body"]), ("POST", "user=demo2&remember=1"))
        self.assertEqual((m["ssl_expiry_days"], m["timeout_s"], m["interval_s"]), (None, 7, 300))
        self.assertEqual(json.loads(m["regions"]), ["NA"])
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), sorted(c(1)))

        # check 2: httpcustom, https on 443 (left out of the URL); no probe filter; team 0 + contact 2
        m = self.one("monitors", user, "Fid Monitor 3")
        self.assertEqual((m["type"], m["url"], m["keyword"]), ("http", "https://m3.example.com/status-3.xml", None))
        self.assertIsNone(m["keyword_up_when"])
        self.assertIsNone(m["regions"])
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), sorted(c(0) + c(1) + c(2)))

        # check 7: a User-Agent the user set is kept; check 11: certificate not verified
        m = self.one("monitors", user, "Fid Monitor 8")
        self.assertEqual(m["url"], "http://m8.example.com/health/8?probe=pingdom&v=1")
        self.assertEqual(json.loads(m["request_headers"]), {"User-Agent": "DemoAgent/8", "X-Check": "c8"})
        self.assertEqual((m["type"], m["keyword"]), ("http", None))
        self.assertEqual(self.one("monitors", user, "Fid Monitor 12")["verify_ssl"], 0)

        # port checks: the host, the port, what is sent and expected; contact 3 has SMS and the app
        m = self.one("monitors", user, "Fid Monitor 4")
        self.assertEqual((m["type"], m["url"], m["port"]), ("tcp", "m4.example.com", 8003))
        self.assertEqual((m["request_body"], m["keyword"], m["keyword_up_when"]), ("PING 4", "PONG 4", "present"))
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), sorted(c(3)))
        m = self.one("monitors", user, "Fid Monitor 5")
        self.assertEqual((m["type"], m["url"], m["port"], m["paused"]), ("ping", "m5.example.com", None, 1))
        m = self.one("monitors", user, "Fid Monitor 6")
        self.assertEqual((m["type"], m["url"], m["port"], m["interval_s"]), ("dns", "m6.example.com", None, 900))
        m = self.one("monitors", user, "Fid Monitor 7")
        self.assertEqual((m["type"], m["url"], m["port"], m["keyword"]), ("smtp", "m7.example.com", 587, "220 m7"))
        self.assertEqual((self.one("monitors", user, "Fid Monitor 9")["type"], self.one("monitors", user, "Fid Monitor 9")["port"]),
                         ("udp", 8008))
        m = self.one("monitors", user, "Fid Monitor 10")
        self.assertEqual((m["type"], m["port"], m["keyword"], m["paused"]), ("pop3", 995, "+OK", 1))
        self.assertEqual(self.one("monitors", user, "Fid Monitor 11")["type"], "imap")

        # alert timing, DNS, assertions and logins of every check, by the fake's formulas
        for i in range(12):
            self.check_alerting(user, i)

        # contacts: one per notification target
        rows = self.rows("SELECT name, type, value, needs_address FROM contacts WHERE user_id=%d" % user.id)
        self.assertEqual(sorted((r["type"], r["value"]) for r in rows), sorted(sum((c(j) for j in range(5)), [])))
        self.assertEqual({r["name"] for r in rows}, {"Fid Contact %d" % (j + 1) for j in range(5)})
        self.assertEqual([r["needs_address"] for r in rows if r["type"] == "push"], [1])

        # maintenance windows: recurrence, start, end, duration, days; the checks they silence
        wins = self.rows("SELECT * FROM maintenance_windows WHERE user_id=%d ORDER BY name" % user.id)
        self.assertEqual([w["name"] for w in wins], ["Fid Maintenance %d" % (k + 1) for k in range(4)])
        for k, w in enumerate(wins):
            start = BASE_TS + 86400 * (k + 1) + 7200
            rt = ("once", "weekly", "daily", "monthly")[k]
            day = datetime.datetime.fromtimestamp(start, datetime.timezone.utc)
            days = {"weekly": [day.isoweekday()], "monthly": [day.day]}.get(rt)
            self.assertEqual((w["recurrence"], w["starts"], w["duration_min"], w["timezone"]),
                             (rt, iso(start), 60 * (1 + k % 3), "UTC"), w)
            self.assertEqual(w["ends"], iso(start + 3600) if k == 0 else iso(start + 90 * 86400))
            self.assertEqual(json.loads(w["days"]) if w["days"] else None, days)
            silenced = self.rows("SELECT m.name FROM maintenance_window_monitors l JOIN monitors m "
                                 "ON m.id = l.monitor_id WHERE l.window_id = %d ORDER BY l.position" % w["id"])
            self.assertEqual([s["name"] for s in silenced], ["Fid Monitor %d" % (3 * k + j + 1) for j in range(3)])

        # integrations cannot be listed in 3.1: kept out, with a warning (check 4 and 9 name one)
        warnings = self.warnings(user, rid)
        self.assertTrue(any('"Fid Monitor 5" alerts 1 integration' in w for w in warnings), warnings)
        self.assertFalse(any("could not be read" in w for w in warnings), warnings)

        # one detail per check, each with include_teams=true
        reqs = harness.fake_call(self.stack, "GET", "/_control/requests?provider=%s" % P)
        details = [r["path"].rsplit("/", 1)[1] for r in reqs
                   if "/api/3.1/checks/" in r["path"] and "include_teams" in json.dumps(r["query"])]
        first = acct["ids"]["monitors"]["first"][0]
        self.assertEqual(sorted(set(details)), sorted(str(first + i) for i in range(12)))

    def test_a_failed_detail_keeps_the_list_data(self):
        user = self.user()
        key, acct = self.setup_account()
        cid = acct["ids"]["monitors"]["first"][1]
        harness.fake_call(self.stack, "POST", "/_control/%s/faults" % P,
                          {"faults": [{"kind": "500", "match": "checks/%d" % cid}]})
        rid = self.run_import(user, {"api_token": key})
        m = self.one("monitors", user, "Fid Monitor 2")
        self.assertEqual((m["type"], m["url"], m["keyword"]), ("http", "m2.example.com", None))
        self.assertTrue(any('check "Fid Monitor 2": its details could not be read' in w
                            for w in self.warnings(user, rid)))
        self.assertEqual(self.one("monitors", user, "Fid Monitor 1")["url"],
                         "https://m1.example.com:8443/health/1?probe=pingdom&v=0")

    def test_a_reimport_whose_reads_fail_leaves_the_account_as_it_was(self):
        # the details of checks 2, 6 (dns), 8 and 12 (both log in) fail (full URL, keyword, headers,
        # recipients, alert timing, DNS expectations and the login come only from them), and the teams
        # list is refused (check 1 alerts team 0): the update keeps what the first run brought, the
        # sealed password included (a password read again is sealed anew, under a new nonce: its
        # column's text would differ though it opens to the same password)
        user = self.user()
        key, acct = self.setup_account()
        first = acct["ids"]["monitors"]["first"][0]
        rid = self.assert_reimport_keeps(
            user, {"api_token": key},
            [{"kind": "500", "match": "checks/%d" % (first + i), "times": -1} for i in (1, 5, 7, 11)]
            + [{"kind": "403", "match": "alerting/teams", "times": -1}],
            [("monitor", "its details could not be read (Pingdom answered HTTP 500"),
             ("monitor", "): type, url, port, keyword, keyword_up_when,"),
             ("monitor", "contact_ids, alert_after_checks"),
             ("monitor", "the contacts or teams it alerts could not be read: contact_ids")])
        # the resource's reason is cut to its column; the run log names every key kept
        kept = ("contact_ids, alert_after_checks, realert_s, dns_record_type, dns_expected, dns_nameserver, "
                "assertions, auth_username, auth_password_sealed")
        self.assertTrue(any('"Fid Monitor 8"' in w and kept in w for w in self.warnings(user, rid)), kept)
        for i in (5, 7, 11):
            self.check_alerting(user, i)

    def test_refused_lists_skip_their_kind_and_the_run_completes(self):
        user = self.user()
        key, _ = self.setup_account(refuse=["teams", "maintenance"])
        rid = self.run_import(user, {"api_token": key})
        warnings = self.warnings(user, rid)
        for kind in ("teams", "maintenance windows"):
            self.assertTrue(any("Pingdom refused the %s list for this key (HTTP 403): %s skipped" % (kind, kind)
                                in w for w in warnings), (kind, warnings))
        self.assertEqual(self.stack.count("maintenance_windows", "user_id=%d" % user.id), 0)
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 12)
        self.assertEqual(self.stack.count("contacts", "user_id=%d" % user.id), 5 + 2 + 1)
        # userids still link; team members do not (check 0: contact 0 only)
        m = self.one("monitors", user, "Fid Monitor 1")
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), sorted(self.contact(0)))
        self.assertTrue(any('"Fid Monitor 1" alerts 1 team whose members could not be read' in w
                            for w in warnings), warnings)

    def test_bad_token_fails_the_run_on_the_first_call(self):
        self.setup_account()
        self.assert_refused_key_fails(self.user(), {"api_token": "nope-123"}, "nope-123", "Pingdom rejected the API token")
