"""Better Stack end to end (issue 10): a rich account on the fake provider (tests/fakes/prov_better_stack.py)
is discovered and imported by the real runner over HTTP, then the account tables are read back and
compared with what the provider holds: full URLs with port, path and query, keyword mode both ways,
methods, bodies, headers, expected codes, timeouts, regions, alert recipients (on-call users by the
monitor's flags, the team after team_wait, escalation policy members step by step, each with its
delay), alert timing, DNS monitors, the sealed basic-auth login, maintenance windows, status page
sections and entries. A second run with lists refused (403) completes with a warning naming each kind.
"""

import base64
import ctypes
import ctypes.util
import http.client
import json

import harness
from fidelity import FidelityTestCase

P = "better_stack"

# The fake's account (setup_account) and its formulas (tests/fakes/prov_better_stack.py), restated.
USERS, ON_CALL, POLICIES = 4, 2, 2
MTYPES = ("status", "expected_status_code", "keyword", "keyword_absence", "ping", "tcp", "udp", "smtp", "pop",
          "imap", "dns", "playwright")
HTTP = ("status", "expected_status_code", "keyword", "keyword_absence")
CONFIRM, RECOVER, TEAM_WAIT = (0, 60, 120, 300), (180, 0, 300), (None, 180, 300)


def user(j):
    """The fake's user j: e-mail, phone (even users only)."""
    return "user%d@example.com" % (j + 1), ("+4206%08d" % (j + 1) if j % 2 == 0 else None)


def expected_links(k, policy):
    """{(type, value): delay_s} of an item whose alerting index is k (a monitor's own index, a
    heartbeat's index + 1) and which alerts escalation policy number policy (None: none), by the
    fake's alerting() and policy(): the earliest alert of each contact, 0 as None."""
    out = {}

    def add(kind, value, delay):
        if value is not None and (kind, value) not in out:
            out[(kind, value)] = delay or None

    if policy is not None:
        steps = [(0, [policy % USERS] + list(range(ON_CALL))),           # a user by id, the default calendar
                 (600, [(policy + 1) % USERS] + ([USERS - 1] if USERS > ON_CALL else [])),  # by e-mail, Secondary
                 (900, list(range(USERS)))]                                # the entire team
        for delay, users in steps:
            for j in users:
                add("email", user(j)[0], delay)
        return out
    flags = [("email", True, 0), ("sms", k % 2 == 0, 1), ("voice", k % 3 == 0, 1),
             ("push", k % 2 == 1 or k % 5 == 0, 0)]
    for kind, on, field in flags:
        for j in range(ON_CALL):
            if on:
                add(kind, user(j)[field], 0)
    if TEAM_WAIT[k % 3] is not None:
        for j in range(USERS):
            add("email", user(j)[0], TEAM_WAIT[k % 3])
    return out


def login(i):
    """The fake's basic-auth login of monitor i (its login()), or None."""
    if MTYPES[i % 12] not in HTTP or i % 4 not in (1, 2):
        return None
    return "probe-%d" % (i + 1)


def unseal(key_file, user_id, sealed):
    """The plain text of a secret discovery sealed (src/runner/discovery.c seal_secrets): base64 of
    nonce(24) || XChaCha20-Poly1305-IETF ciphertext and tag, associated data "monitor-auth:<user id>"."""
    sodium = ctypes.CDLL(ctypes.util.find_library("sodium") or "libsodium.so")
    with open(key_file) as f:
        key = bytes.fromhex(f.read().strip())
    blob = base64.b64decode(sealed)
    nonce, c = blob[:24], blob[24:]
    ad = ("monitor-auth:%d" % user_id).encode()
    m = ctypes.create_string_buffer(len(c))
    mlen = ctypes.c_ulonglong(0)
    rc = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(m, ctypes.byref(mlen), None, c,
                                                           ctypes.c_ulonglong(len(c)), ad,
                                                           ctypes.c_ulonglong(len(ad)), nonce, key)
    return m.raw[:mlen.value].decode("utf-8") if rc == 0 else None


class TestBetterStackFidelity(FidelityTestCase):
    P = P

    def setup_account(self, **options):
        key = self.stack.unique("bs-")
        return key, self.load_account({"api_token": key},
                                      {"monitors": 12, "heartbeats": 3, "status_pages": 2, "users": USERS,
                                       "policies": POLICIES},
                                      dict({"on_call": ON_CALL}, **options), paused_every=5)

    def account_state(self, user):
        """The account as fidelity.py reads it, with each sealed login as the password it unseals to:
        discovery seals with a fresh nonce each run, so the same password never reads the same twice."""
        out = super().account_state(user)
        for m in out["monitors"]:
            if m["auth_password_sealed"] is not None:
                m["auth_password_sealed"] = unseal(self.stack.key_file, user.id, m["auth_password_sealed"])
        return out

    def delays(self, link_table, col, oid):
        """{(type, value): delay_s} of the contacts linked to oid."""
        return {(r["type"], r["value"]): r["delay_s"] for r in self.rows(
            "SELECT c.type, c.value, l.delay_s FROM %s l JOIN contacts c ON c.id = l.contact_id WHERE l.%s = %d"
            % (link_table, col, int(oid)))}

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
        # monitor 4: keyword_absence -> absent; escalation policy 1: at once its user by id and the
        # default calendar's on-call users, after 600 s the Secondary calendar's, after 900 s the rest
        # of the team
        m = self.one("monitors", user, "Fid Monitor 4")
        self.assertEqual((m["type"], m["keyword"], m["keyword_up_when"]), ("keyword", "Error 4", "absent"))
        self.assertEqual(self.delays("monitor_contacts", "monitor_id", m["id"]), {
            ("email", ann[0]): None, ("email", bob): None, ("email", "user4@example.com"): 600,
            ("email", "user3@example.com"): 900})
        # server and port checks: host only, first port, timeout from milliseconds
        m = self.one("monitors", user, "Fid Monitor 6")
        self.assertEqual((m["type"], m["url"], m["port"], m["timeout_s"]), ("tcp", "m6.example.com", 5432, 1))
        m = self.one("monitors", user, "Fid Monitor 8")
        self.assertEqual((m["type"], m["url"], m["port"]), ("smtp", "m8.example.com", 25))
        # DNS as published: the server in url, the domain to query in request_body
        m = self.one("monitors", user, "Fid Monitor 11")
        self.assertEqual((m["type"], m["url"], m["dns_nameserver"], m["request_body"], m["dns_record_type"],
                          m["dns_expected"]), ("dns", "m11.example.com", "9.9.9.9", None, None, None))
        self.assertEqual(self.one("monitors", user, "Fid Monitor 5")["paused"], 1)
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 12)

        # every monitor: its alert timing, and each link with its delay, by the fake's formulas
        for i in range(12):
            m = self.one("monitors", user, "Fid Monitor %d" % (i + 1))
            self.assertEqual((m["alert_after_s"], m["recovery_s"], m["alert_after_checks"], m["realert_s"]),
                             (CONFIRM[i % 4] or None, RECOVER[i % 3] or None, None, None), i)
            self.assertEqual(m["auth_username"], login(i), i)
            self.assertEqual(m["auth_password_sealed"] is not None, login(i) is not None, i)
            policy = (i // 4) % POLICIES if i % 4 == 3 else None
            self.assertEqual(self.delays("monitor_contacts", "monitor_id", m["id"]), expected_links(i, policy), i)

        # contacts are people: 2 on call x (email, push) + Ann's SMS and call, the Secondary calendar's
        # on-call user and the rest of the team (e-mail); nothing from integrations
        rows = self.rows("SELECT name, type, value, needs_address FROM contacts WHERE user_id=%d "
                                    "ORDER BY name, type" % user.id)
        self.assertEqual(sorted((r["name"], r["type"], r["value"]) for r in rows), sorted([
            ("Ann Lee", "email", ann[0]), ("Ann Lee (push)", "push", ann[0]), ("Ann Lee (SMS)", "sms", ann[1]),
            ("Ann Lee (call)", "voice", ann[1]), ("Bob Novak", "email", bob), ("Bob Novak (push)", "push", bob),
            ("Cleo Ortiz", "email", "user3@example.com"), ("Dan Berg", "email", "user4@example.com")]))

        # heartbeat 1: period/grace, ping URL, email+push to the on-call users
        hb = self.rows("SELECT * FROM heartbeats WHERE user_id=%d AND name='Fid Heartbeat 1'" % user.id)[0]
        self.assertEqual((hb["interval_s"], hb["grace_s"]), (300, 60))
        self.assertTrue(hb["ping_url"].startswith("https://uptime.betterstack.com/api/v1/heartbeat/"))
        self.assertEqual(self.linked("heartbeat_contacts", "heartbeat_id", hb["id"]),
                         sorted([("email", ann[0]), ("push", ann[0]), ("email", bob), ("push", bob),
                                 ("email", "user3@example.com"), ("email", "user4@example.com")]))
        for i in range(3):     # heartbeat i alerts as the fake's alerting(i + 1), a policy for i % 3 == 2
            h = self.one("heartbeats", user, "Fid Heartbeat %d" % (i + 1))
            self.assertEqual(self.delays("heartbeat_contacts", "heartbeat_id", h["id"]),
                             expected_links(i + 1, ((i + 1) // 4) % POLICIES if i % 3 == 2 else None), i)
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

        # what does not carry over is said: the policy's Slack integration
        warnings = self.warnings(user, rid)
        self.assertIn('Better Stack monitor "Fid Monitor 4": escalation policy "Fid Policy 1" also notifies 1 '
                      'member(s) that are not people (e.g. slack_integration): not linked', warnings)

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
            # alert timing, team_wait, the login all land now
            want = {"attributes.team_name", "attributes.last_checked_at", "attributes.created_at",
                    "attributes.updated_at", "attributes.remember_cookies",
                    "attributes.escalation_delay", "attributes.checks.dns_over_https"}
            if i == 11:         # the playwright monitor
                want |= {"attributes.playwright_script", "attributes.scenario_name"}
            self.assertEqual(set(got), want, (i, got))
            self.assertEqual(got["attributes.escalation_delay"], unknown)
            self.assertEqual(got["attributes.checks.dns_over_https"], unknown)
            self.assertEqual(got["attributes.last_checked_at"], state)
            self.assertNotIn("attributes.url", got)
            self.assertNotIn("attributes.request_headers", got)

        heartbeats = dropped("heartbeat")
        self.assertEqual(len(heartbeats), 3)
        for i, got in heartbeats.items():
            want = {"attributes.team_name", "attributes.created_at", "attributes.updated_at"}
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
        self.assertEqual(summary[("status_page", "attributes.subscribable")], 1)
        for field in ("url", "team_wait", "auth_username", "auth_password", "confirmation_period",
                      "recovery_period"):
            self.assertNotIn(("monitor", "attributes." + field), summary)
        self.assertNotIn(("heartbeat", "attributes.team_wait"), summary)

        # the login arrives: nothing is left to enter again, and the report shows no password
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts")), "completed")
        r = user.request("GET", "/api/v1/migrations/%s/report" % rid)
        self.assertStatus(r, 200)
        self.assertEqual([t for t in r.json["data"]["todo"] if t["task"] == "enter_again"], [])
        self.assertNotIn("s3cret-", r.text)

    def test_a_reimport_whose_policies_are_refused_keeps_the_alert_links(self):
        # the second time the escalation policies, on-call calendars and team members are refused: every
        # link and its delay stays as the first import wrote it
        user = self.user()
        key, _ = self.setup_account()
        self.assert_reimport_keeps(user, {"api_token": key},
                                   [{"kind": "403", "match": "/api/v3/policies", "times": -1},
                                    {"kind": "403", "match": "/api/v2/on-calls", "times": -1},
                                    {"kind": "403", "match": "/api/v2/team-members", "times": -1}],
                                   [("monitor", "the escalation policies, on-call calendars or team members could "
                                                "not be read: contact_ids")])
        self.assertTrue(self.rows("SELECT 1 FROM monitor_contacts l JOIN monitors m ON m.id = l.monitor_id "
                                  "WHERE m.user_id=%d AND l.delay_s = 900" % user.id), "kept with their delays")

    def test_a_reimport_whose_team_is_refused_keeps_the_team_links(self):
        # only the team members fail: the team_wait links (and a policy's entire_team) are kept
        user = self.user()
        key, _ = self.setup_account()
        self.assert_reimport_keeps(user, {"api_token": key},
                                   [{"kind": "403", "match": "/api/v2/team-members", "times": -1}],
                                   [("monitor", "team members could not be read: contact_ids"),
                                    ("heartbeat", "team members could not be read: contact_ids")])

    def served(self, key):
        """The fake's monitors as it serves them: {index: attributes}."""
        conn = http.client.HTTPConnection("127.0.0.1", self.stack.fake_port, timeout=30)
        try:
            conn.request("GET", "/%s/api/v2/monitors?per_page=250" % P, headers={"Authorization": "Bearer " + key})
            data = json.loads(conn.getresponse().read().decode("utf-8"))["data"]
        finally:
            conn.close()
        return {int(m["attributes"]["pronounceable_name"].rsplit(" ", 1)[1]) - 1: m["attributes"] for m in data}

    def test_the_login_is_sealed_and_shown_nowhere(self):
        """Issue 24 item 4: the monitor's basic-auth password reaches the account sealed
        (auth_password_sealed unseals, with the stack's key and the user's associated data, to exactly
        the fake's password) and shows in no API answer, run log, runner output or stored row."""
        user = self.user()
        key, _ = self.setup_account()
        self.runner_output = []
        rid = self.start_run(user, {"api_token": key})
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        texts = self.answers(user, rid)     # the review: what each resource would write
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts")), "completed")
        texts += self.answers(user, rid)
        served = self.served(key)
        passwords = {}
        for i in range(12):
            m = self.one("monitors", user, "Fid Monitor %d" % (i + 1))
            if not served[i]["auth_password"]:
                self.assertIsNone(m["auth_password_sealed"], i)
                continue
            self.assertEqual(m["auth_username"], served[i]["auth_username"])
            passwords[i] = unseal(self.stack.key_file, user.id, m["auth_password_sealed"])
            self.assertEqual(passwords[i], served[i]["auth_password"], "monitor %d" % (i + 1))
        self.assertEqual(sorted(passwords), [1, 2])
        # not with another user's associated data
        self.assertIsNone(unseal(self.stack.key_file, user.id + 1, self.one("monitors", user, "Fid Monitor 2")
                                 ["auth_password_sealed"]))
        texts.append(("runner output", "\n".join(self.runner_output)))
        texts.append(("database", self.stack.dump_db().decode("utf-8", errors="replace")))
        for pw in passwords.values():
            for where, text in texts:
                for form in (pw, json.dumps(pw)[1:-1], pw.split("-ü")[0]):   # as is, as JSON escapes it, its start
                    self.assertFalse(form in text, "the password shows in the %s" % where)
        dump = texts[-1][1]
        self.assertIn('\\"auth_password\\":\\"[redacted]\\"', dump.replace(" ", ""))

    def answers(self, user, rid):
        """(what, text) of every answer the API gives about run rid: the run list, the run, its logs,
        its resources of each kind and its report."""
        out = []
        for what, path in (("runs", ""), ("run", "/" + rid), ("logs", "/%s/logs?per_page=100" % rid),
                           ("report", "/%s/report" % rid)) + tuple(
                ((kind, "/%s/resources?resource_type=%s&per_page=100" % (rid, kind)) for kind in
                 ("monitor", "contact", "heartbeat", "maintenance_window", "status_page"))):
            r = user.request("GET", "/api/v1/migrations" + path)
            self.assertIn(r.status, (200, 409), (what, r.status))
            out.append((what, r.text))
        return out

    def runner(self, *args, cfg=None):
        """The base runner step, keeping each step's output when a test collects it."""
        p = harness.run_runner_config(self.stack, cfg or self.cfg, *args)
        self.assertEqual(p.returncode, 0, "runner exited %d:\n%s" % (p.returncode, p.stderr[-3000:]))
        if getattr(self, "runner_output", None) is not None:
            self.runner_output.append(p.stdout + p.stderr)
        return p

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
