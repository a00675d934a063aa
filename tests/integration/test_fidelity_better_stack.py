"""Better Stack end to end (issue 10): a rich account on the fake provider (tests/fakes/prov_better_stack.py)
is discovered and imported by the real runner over HTTP, then the account tables are read back and
compared with what the provider holds: full URLs with port, path and query, keyword mode both ways,
methods, bodies, headers, expected codes, timeouts, regions, alert recipients (on-call users by the
monitor's flags, escalation policy members), maintenance windows, status page sections and entries.
A second run with lists refused (403) completes with a warning naming each kind.
"""

import json

from fidelity import FidelityTestCase

P = "better_stack"


class TestBetterStackFidelity(FidelityTestCase):
    P = P

    def setup_account(self, **options):
        key = self.stack.unique("bs-")
        return key, self.load_account({"api_token": key},
                                      {"monitors": 12, "heartbeats": 3, "status_pages": 2, "users": 4, "policies": 2},
                                      dict({"on_call": 2}, **options), paused_every=5)

    def test_rich_account_arrives_as_it_was(self):
        user = self.user()
        key, acct = self.setup_account()
        rid = self.run_import(user, {"api_token": key})
        ann = ("user1@example.com", "+420600000001")   # user 0: on call, has a phone
        bob = "user2@example.com"                       # user 1: on call, no phone

        # monitor 1 (index 0): status check, no policy, flags email+sms+call+critical_alert
        m = self.one("monitors", user, "Fid Monitor 1")
        self.assertEqual((m["type"], m["url"]), ("http", "https://m1.example.com/health/1?probe=migrator&n=0"))
        self.assertEqual((m["http_method"], m["interval_s"], m["timeout_s"]), ("GET", 30, 2))
        self.assertEqual(json.loads(m["request_headers"]), {"X-Probe": "m1", "Accept": "application/json"})
        self.assertEqual(json.loads(m["regions"]), ["us", "eu"])
        self.assertEqual((m["follow_redirects"], m["verify_ssl"], m["ssl_expiry_days"]), (1, 1, 7))
        self.assertIsNone(m["keyword_up_when"])
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), sorted([
            ("email", ann[0]), ("sms", ann[1]), ("voice", ann[1]), ("push", ann[0]), ("email", bob),
            ("push", bob)]))
        # its maintenance window: Saturday and Sunday 01:00-03:00 Amsterdam time
        w = self.rows("SELECT w.* FROM maintenance_windows w JOIN maintenance_window_monitors l "
                                 "ON l.window_id = w.id WHERE l.monitor_id = %d" % m["id"])
        self.assertEqual(len(w), 1)
        self.assertEqual((w[0]["name"], w[0]["recurrence"], w[0]["starts"], w[0]["duration_min"],
                          json.loads(w[0]["days"]), w[0]["timezone"]),
                         ("Fid Monitor 1 maintenance", "weekly", "01:00", 120, [6, 7], "Europe/Amsterdam"))

        # monitor 2: expected codes (sent as strings), non-default port, HEAD, no redirects
        m = self.one("monitors", user, "Fid Monitor 2")
        self.assertEqual(m["url"], "https://m2.example.com:8443/health/2?probe=migrator&n=1")
        self.assertEqual((m["http_method"], m["follow_redirects"]), ("HEAD", 0))
        self.assertEqual(json.loads(m["expected_status_codes"]), ["200", "301"])
        # monitor 3: keyword, present; POST with a body
        m = self.one("monitors", user, "Fid Monitor 3")
        self.assertEqual((m["type"], m["keyword"], m["keyword_up_when"]), ("keyword", "All systems go 3", "present"))
        self.assertEqual((m["http_method"], m["request_body"], m["verify_ssl"]), ("POST", '{"probe":2}', 0))
        # monitor 4: keyword_absence -> absent; escalation policy 1 -> its user members (by id, by e-mail)
        m = self.one("monitors", user, "Fid Monitor 4")
        self.assertEqual((m["type"], m["keyword"], m["keyword_up_when"]), ("keyword", "Error 4", "absent"))
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]),
                         [("email", ann[0]), ("email", bob)])
        # server and port checks: host only, first port, timeout from milliseconds
        m = self.one("monitors", user, "Fid Monitor 6")
        self.assertEqual((m["type"], m["url"], m["port"], m["timeout_s"]), ("tcp", "m6.example.com", 5432, 1))
        m = self.one("monitors", user, "Fid Monitor 8")
        self.assertEqual((m["type"], m["url"], m["port"]), ("smtp", "m8.example.com", 25))
        m = self.one("monitors", user, "Fid Monitor 11")
        self.assertEqual((m["type"], m["url"], m["request_body"]), ("dns", "ns11.example.com", "example.com"))
        self.assertEqual(self.one("monitors", user, "Fid Monitor 5")["paused"], 1)
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 12)

        # contacts are people: 2 on call x (email, push) + Ann's SMS and call, and the policy member
        # given by e-mail who is not on call; nothing from integrations
        rows = self.rows("SELECT name, type, value, needs_address FROM contacts WHERE user_id=%d "
                                    "ORDER BY name, type" % user.id)
        self.assertEqual(sorted((r["name"], r["type"], r["value"]) for r in rows), sorted([
            ("Ann Lee", "email", ann[0]), ("Ann Lee (push)", "push", ann[0]), ("Ann Lee (SMS)", "sms", ann[1]),
            ("Ann Lee (call)", "voice", ann[1]), ("Bob Novak", "email", bob), ("Bob Novak (push)", "push", bob),
            ("user3@example.com", "email", "user3@example.com")]))

        # heartbeat 1: period/grace, ping URL, email+push to the on-call users
        hb = self.rows("SELECT * FROM heartbeats WHERE user_id=%d AND name='Fid Heartbeat 1'" % user.id)[0]
        self.assertEqual((hb["interval_s"], hb["grace_s"]), (300, 60))
        self.assertTrue(hb["ping_url"].startswith("https://uptime.betterstack.com/api/v1/heartbeat/"))
        self.assertEqual(self.linked("heartbeat_contacts", "heartbeat_id", hb["id"]),
                         sorted([("email", ann[0]), ("push", ann[0]), ("email", bob), ("push", bob)]))
        # heartbeat 2: Saturday and Sunday 01:00-03:00 (Rails "Eastern Time (US & Canada)")
        hb2 = self.rows("SELECT id FROM heartbeats WHERE user_id=%d AND name='Fid Heartbeat 2'"
                                   % user.id)[0]
        w = self.rows("SELECT w.recurrence, w.starts, w.duration_min FROM maintenance_windows w JOIN "
                                 "maintenance_window_monitors l ON l.window_id = w.id WHERE l.heartbeat_id = %d"
                                 % hb2["id"])
        self.assertEqual([(x["recurrence"], x["starts"], x["duration_min"]) for x in w], [("weekly", "01:00", 120)])

        # status page 1: sections in position order, resources in position order within them
        sp = self.rows("SELECT * FROM status_pages WHERE user_id=%d AND name='Fid Status Page 1'"
                                  % user.id)[0]
        self.assertEqual((sp["timezone"], sp["public"]), ("Europe/Prague", 1))
        self.assertTrue(sp["url"].startswith("https://demo-status-1-") and sp["url"].endswith(".betteruptime.com"))
        entries = self.rows(
            "SELECT e.position, e.name, e.section, m.name AS monitor, h.name AS heartbeat FROM status_page_monitors e "
            "LEFT JOIN monitors m ON m.id = e.monitor_id LEFT JOIN heartbeats h ON h.id = e.heartbeat_id "
            "WHERE e.status_page_id = %d ORDER BY e.position" % sp["id"])
        self.assertEqual([(e["section"], e["name"], e["monitor"], e["heartbeat"]) for e in entries], [
            ("Services", "Fid Monitor %d" % n, "Fid Monitor %d" % n, None) for n in (5, 4, 3, 2, 1)] + [
            ("Background jobs", "Office network", None, None),
            ("Background jobs", "Fid Heartbeat 1", None, "Fid Heartbeat 1")])
        sp2 = self.rows("SELECT * FROM status_pages WHERE user_id=%d AND name='Fid Status Page 2'"
                                   % user.id)[0]
        self.assertEqual((sp2["url"], sp2["timezone"]), ("https://status2.example.com", "America/New_York"))

        # what does not carry over is said: the whole team after team_wait (monitor 2: 180 s, no policy),
        # the target's basic-auth login (monitor 6)
        warnings = self.warnings(user, rid)
        self.assertIn('Better Stack monitor "Fid Monitor 2" alerts the entire team after 180 s (team_wait); only '
                      'the on-call person is linked: add the team to its alerts', warnings)
        self.assertIn('Better Stack monitor "Fid Monitor 6" logs in to its target (basic auth); the user name and '
                      'password were not imported: enter them again, or the moved monitor will report the site '
                      'down', warnings)

    def test_what_does_not_carry_over_is_listed_beside_each_monitor(self):
        """Issue 24 item 2: each resource's dropped fields, computed from the provider's field table
        (src/providers/better_stack.c) and the object as stored, unknown fields included; the run's
        summary counts them before execute; values never show."""
        user = self.user()
        key, _ = self.setup_account(new_fields={"escalation_delay": 600, "checks": {"dns_over_https": True}})
        rid = self.start_run(user, {"api_token": key})
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        unknown = "Not known to this importer (the provider may have added it since); it is not imported."
        state = "State at Better Stack, not a setting."

        def dropped(kind):
            r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=%s&per_page=100" % (rid, kind))
            self.assertStatus(r, 200)
            self.assertNotIn("s3cret-", r.text, "a value never shows, only the field's name")
            self.assertNotIn(key, r.text)
            return {int(x["name"].rsplit(" ", 1)[1]) - 1: {d["field"]: d["reason"] for d in x["dropped"]}
                    for x in r.json["data"]}

        monitors = dropped("monitor")
        self.assertEqual(len(monitors), 12)
        for i, got in monitors.items():
            want = {"attributes.team_name", "attributes.last_checked_at", "attributes.created_at",
                    "attributes.updated_at", "attributes.recovery_period", "attributes.remember_cookies",
                    "attributes.escalation_delay", "attributes.checks.dns_over_https"}
            if i % 3 != 0:      # team_wait 180 or 300 s (the fake's alerting: None, 180, 300)
                want.add("attributes.team_wait")
            if i % 7 == 5:      # logs in to its target
                want |= {"attributes.auth_username", "attributes.auth_password"}
            if i == 11:         # the playwright monitor
                want |= {"attributes.playwright_script", "attributes.scenario_name"}
            self.assertEqual(set(got), want, (i, got))
            self.assertEqual(got["attributes.escalation_delay"], unknown)
            self.assertEqual(got["attributes.checks.dns_over_https"], unknown)
            self.assertEqual(got["attributes.last_checked_at"], state)
            self.assertNotIn("attributes.url", got)
            self.assertNotIn("attributes.request_headers", got)
        self.assertEqual(monitors[1]["attributes.team_wait"],
                         "The alert to the entire team after this wait is not carried: the team is not imported.")
        self.assertIn("enter it again, or the moved monitor will report the site down",
                      monitors[5]["attributes.auth_password"])

        heartbeats = dropped("heartbeat")
        self.assertEqual(len(heartbeats), 3)
        for i, got in heartbeats.items():
            want = {"attributes.team_name", "attributes.created_at", "attributes.updated_at"}
            if (i + 1) % 3 != 0:   # the fake's alerting of heartbeat i is that of index i + 1
                want.add("attributes.team_wait")
            self.assertEqual(set(got), want, (i, got))

        pages = dropped("status_page")
        self.assertEqual(len(pages), 2)
        for i, got in pages.items():
            want = {"attributes.company_url", "attributes.contact_url", "attributes.history",
                    "attributes.aggregate_state", "attributes.design", "attributes.theme", "attributes.layout",
                    "attributes.team_name", "attributes.created_at", "attributes.updated_at"}
            if i % 2 == 0:
                want.add("attributes.subscribable")
            self.assertEqual(set(got), want, (i, got))
            self.assertEqual(got["attributes.company_url"], "The link to the company's site has no place in the account.")

        # people and maintenance windows carry everything they hold
        for kind in ("contact", "maintenance_window"):
            r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=%s&per_page=100" % (rid, kind))
            self.assertStatus(r, 200)
            self.assertTrue(r.json["data"], kind)
            self.assertEqual({json.dumps(x["dropped"]) for x in r.json["data"]}, {"[]"}, kind)

        # before execute: which fields will not carry over, for how many objects
        summary = {(d["resource_type"], d["field"]): d["resources"] for d in self.get(user, rid)["meta"]["dropped"]}
        self.assertEqual(summary[("monitor", "attributes.team_name")], 12)
        self.assertEqual(summary[("monitor", "attributes.escalation_delay")], 12)
        self.assertEqual(summary[("monitor", "attributes.team_wait")], 8)
        self.assertEqual(summary[("monitor", "attributes.auth_password")], 1)
        self.assertEqual(summary[("heartbeat", "attributes.team_wait")], 2)
        self.assertEqual(summary[("status_page", "attributes.subscribable")], 1)
        self.assertNotIn(("monitor", "attributes.url"), summary)

        # the login of the monitor that had one is to be entered again: after the run, the report says so
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts")), "completed")
        r = user.request("GET", "/api/v1/migrations/%s/report" % rid)
        self.assertStatus(r, 200)
        again = [t for t in r.json["data"]["todo"] if t["task"] == "enter_again"]
        self.assertEqual(sorted(t["say"].split(" of ")[0] for t in again),
                         ["Enter attributes.auth_password", "Enter attributes.auth_username"])
        self.assertEqual({t["name"] for t in again}, {self.stack.sql_value(
            "SELECT name FROM monitors WHERE user_id=%d AND id=%d" % (user.id, again[0]["account_id"]))})
        self.assertNotIn("s3cret-", r.text)

    def test_a_reimport_whose_policies_are_refused_keeps_the_alert_links(self):
        # the second time the escalation policies and on-call calendars are refused
        user = self.user()
        key, _ = self.setup_account()
        self.assert_reimport_keeps(user, {"api_token": key},
                                   [{"kind": "403", "match": "/api/v3/policies", "times": -1},
                                    {"kind": "403", "match": "/api/v2/on-calls", "times": -1}],
                                   [("monitor", "the escalation policies or on-call calendars could not be read: "
                                                "contact_ids")])

    def test_refused_lists_skip_their_kind_and_the_run_completes(self):
        user = self.user()
        key, _ = self.setup_account(refuse=["heartbeats", "policies", "sections"])
        rid = self.run_import(user, {"api_token": key})
        warnings = self.warnings(user, rid)
        for kind in ("heartbeats", "escalation policies"):
            self.assertTrue(any("Better Stack refused the %s list for this key (HTTP 403)" % kind in w
                                for w in warnings), (kind, warnings))
        self.assertTrue(any("refused the sections and resources of status page" in w for w in warnings), warnings)
        self.assertEqual(self.stack.count("heartbeats", "user_id=%d" % user.id), 0)
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 12)
        # on-call links still arrive; a policy monitor is imported without links
        m = self.one("monitors", user, "Fid Monitor 1")
        self.assertEqual(len(self.linked("monitor_contacts", "monitor_id", m["id"])), 6)
        m = self.one("monitors", user, "Fid Monitor 4")
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), [])
        self.assertEqual(self.stack.count("status_pages", "user_id=%d" % user.id), 2)

    def test_bad_token_fails_the_run_on_the_first_call(self):
        self.setup_account()
        self.assert_refused_key_fails(self.user(), {"api_token": "nope-123"}, "nope-123",
                                      "Better Stack rejected the API token")
