"""Healthchecks.io end to end (issue 10): a rich project on the fake provider
(tests/fakes/prov_healthchecks.py) is discovered and imported by the real runner over HTTP, then the
account tables are read back and compared with what the provider holds: checks as heartbeats with
their period or cron/OnCalendar schedule AND its time zone, grace, tags, paused state and ping URL;
integrations as contacts by name and kind that need an address (the API never shows it), linked to
their checks. A self-hosted instance that moved (a 301 on every path) imports the same; a read-only
key imports the checks without ping URLs and links, and its 401 on /channels/ skips the integrations
with a warning while the run completes; a wrong key fails the run on the first call.

The expected values follow the fake's formulas for check i (tests/fakes/README.md, healthchecks quirks).
"""

import json

import harness
from fidelity import FidelityTestCase

P = "healthchecks"
KEY = "fid-hc-key-" + "1" * 21
RO_KEY = "fid-hc-ro-" + "2" * 22
TAGS = (["prod", "backup"], ["prod"], ["batch", "nightly", "ops"], None)
CRON = {2: ("*/5 * * * *", "Europe/Riga"), 5: ("15 3 * * 1-5", "America/New_York"),
        8: ("Mon..Fri *-*-* 09:00:00", "UTC")}
TYPES = ("email", "slack", "webhook", "sms", "telegram", "pagerduty", "teams", "other")


class TestHealthchecksFidelity(FidelityTestCase):
    P = P

    def setup_account(self, **options):
        return self.load_account({"api_key": KEY, "api_key_readonly": RO_KEY}, {"heartbeats": 9, "contacts": 8},
                                 options, paused_every=5)

    def creds(self, key, path=""):
        """A key and the base URL of the fake instance (path: where it moved to)."""
        return {"api_key": key, "base_url": self.stack.fake_base + "/healthchecks" + path}

    @staticmethod
    def alerted(i):
        out = ["Fid Contact %d" % (i % 8 + 1)]
        if i % 3 == 0:
            out.append("Fid Contact %d" % ((i + 1) % 8 + 1))
        return sorted(out)

    def assert_checks(self, user, acct, readonly=False):
        uuids = acct["ids"]["heartbeats"]["first"]     # the first 5 check uuids
        self.assertEqual(self.stack.count("heartbeats", "user_id=%d" % user.id), 9)
        for i in range(9):
            h = self.one("heartbeats", user, "Fid Heartbeat %d" % (i + 1))
            self.assertEqual(h["grace_s"], (300, 60, 3600)[i % 3], i)
            self.assertEqual(h["paused"], 1 if i == 4 else 0, i)
            self.assertEqual(json.loads(h["tags"]) if h["tags"] else None, TAGS[i % 4], i)
            if i in CRON:
                self.assertEqual((h["schedule"], h["timezone"], h["interval_s"]), CRON[i] + (0,), i)
            else:
                self.assertEqual((h["schedule"], h["timezone"], h["interval_s"]),
                                 (None, None, (3600, 86400)[i % 2]), i)
            if readonly:
                self.assertIsNone(h["ping_url"])
                self.assertEqual(self.linked("heartbeat_contacts", "heartbeat_id", h["id"], ("name",)), [])
            else:
                self.assertRegex(h["ping_url"], r"^https://hc-ping\.com/[0-9a-f-]{36}$")
                if i < len(uuids):
                    self.assertEqual(h["ping_url"], "https://hc-ping.com/%s" % uuids[i])
                self.assertEqual(self.linked("heartbeat_contacts", "heartbeat_id", h["id"], ("name",)), self.alerted(i), i)

    def test_what_does_not_carry_over_is_listed_beside_each_check(self):
        """Issue 24 item 2: each resource's dropped fields, computed from the provider's field table
        (src/providers/healthchecks.c) and the check as sent, unknown fields included; the run's
        summary counts them before execute; values never show."""
        user = self.user()
        self.setup_account(new_fields={"escalate_after": 600, "flags": {"beta": True}})
        rid = self.start_run(user, self.creds(KEY))
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=heartbeat&per_page=100" % rid)
        self.assertStatus(r, 200)
        self.assertNotIn("healthchecks.io/b/2/", r.text, "a value never shows, only the field's name")
        unknown = "Not known to this importer (the provider may have added it since); it is not imported."
        for item in r.json["data"]:
            i = int(item["name"].rsplit(" ", 1)[1]) - 1
            got = {d["field"]: d["reason"] for d in item["dropped"]}
            want = {"badge_url", "update_url", "pause_url", "resume_url", "escalate_after", "flags.beta"}
            if i == 4:      # paused: pinged before, no next ping due
                want |= {"last_ping", "n_pings"}
            elif i % 5 != 3:  # not new (never pinged: 0 pings, no times, nothing lost)
                want |= {"last_ping", "next_ping", "n_pings"}
            if i % 4 == 1:
                want.add("last_duration")
            if i % 4 == 2:
                want.add("desc")
            self.assertEqual(set(got), want, (i, got))
            self.assertEqual(got["escalate_after"], unknown)
            self.assertEqual(got["flags.beta"], unknown)
            self.assertEqual(got["badge_url"], "A Healthchecks badge; the account makes its own.")
            self.assertNotIn("name", got)
            self.assertNotIn("ping_url", got)
        # the integrations carry everything the API shows
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=contact" % rid)
        self.assertEqual({json.dumps(x["dropped"]) for x in r.json["data"]}, {"[]"})
        # before execute: which fields will not carry over, for how many checks
        summary = {(d["resource_type"], d["field"]): d["resources"] for d in self.get(user, rid)["meta"]["dropped"]}
        self.assertEqual(summary[("heartbeat", "badge_url")], 9)
        self.assertEqual(summary[("heartbeat", "escalate_after")], 9)
        self.assertEqual(summary[("heartbeat", "desc")], 2)
        self.assertEqual(summary[("heartbeat", "last_duration")], 2)

    def test_rich_project_arrives_as_it_was(self):
        user = self.user()
        acct = self.setup_account()
        rid = self.run_import(user, self.creds(KEY))
        self.assert_checks(user, acct)
        rows = self.rows("SELECT name, type, value, needs_address FROM contacts WHERE user_id=%d ORDER BY name"
                         % user.id)
        self.assertEqual([(r["name"], r["type"], r["value"], r["needs_address"]) for r in rows],
                         [("Fid Contact %d" % (j + 1), TYPES[j], None, 1) for j in range(8)])
        warnings = self.warnings(user, rid)
        self.assertTrue(any("never shows where an integration sends: 8 contacts were imported by name and kind "
                            "only" in w for w in warnings), warnings)
        self.assertTrue(any('"Fid Contact 8" is a Signal integration' in w for w in warnings), warnings)
        self.assertFalse(any("refused" in w or "read-only" in w for w in warnings), warnings)

    def test_a_moved_self_hosted_instance_is_followed(self):
        user = self.user()
        acct = self.setup_account(moved_from="/old", append_slash=True)
        self.run_import(user, self.creds(KEY, "/old"))
        self.assert_checks(user, acct)
        self.assertEqual(self.stack.count("contacts", "user_id=%d" % user.id), 8)
        reqs = harness.fake_call(self.stack, "GET", "/_control/requests?provider=%s" % P)
        paths = [(r["path"], r["status"]) for r in reqs]
        self.assertIn(("/healthchecks/old/api/v3/checks/", 301), paths)
        self.assertIn(("/healthchecks/api/v3/checks/", 200), paths)
        self.assertIn(("/healthchecks/api/v3/channels/", 200), paths)

    def test_read_only_key_skips_the_integrations_and_the_run_completes(self):
        user = self.user()
        acct = self.setup_account()
        rid = self.run_import(user, self.creds(RO_KEY))
        self.assert_checks(user, acct, readonly=True)
        self.assertEqual(self.stack.count("contacts", "user_id=%d" % user.id), 0)
        warnings = self.warnings(user, rid)
        self.assertTrue(any("Healthchecks refused the integrations list for this key (HTTP 401): integrations "
                            "skipped" in w for w in warnings), warnings)
        self.assertTrue(any("API key is read-only: the checks were imported without their ping URLs" in w
                            for w in warnings), warnings)

    def test_wrong_key_fails_the_run_on_the_first_call(self):
        self.setup_account()
        bad = "x" * 32
        self.assert_refused_key_fails(self.user(), self.creds(bad), bad,
                                      "Healthchecks rejected the API key (wrong api key)")
