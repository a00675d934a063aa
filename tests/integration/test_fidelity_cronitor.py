"""Cronitor end to end (issue 10): a rich account on the fake provider (tests/fakes/prov_cronitor.py) is
discovered and imported by the real runner over HTTP, then the account tables are read back and
compared with what the provider holds: checks with their request URL (scheme, port, path, query),
method, body, headers, timeout, redirects, TLS, regions, tags and assertions (keyword present and
absent, expected code, certificate days); TCP checks by host and port; sites (real-user monitoring)
not imported; jobs and heartbeats with schedule, time zone, grace and tags; every target of a
notification list linked (list keys, direct email:/slack: destinations, the map form of notify, notify
omitted = the default list); alert timing (failure_tolerance, grace_seconds, realert_interval), every
other assertion in monitors.assertions and a basic-auth login from an Authorization header, sealed so
that it unseals to the fake's password and shows nowhere else; status pages with their components;
maintenance windows with the monitors and heartbeats they silence. A second run with the notification lists and maintenance
windows refused (403, a key without those scopes) completes with a warning naming each kind; a bad
key fails the run on the first call.

The expected values follow the fake's formulas (tests/fakes/README.md, cronitor quirks).
"""

import base64
import ctypes
import ctypes.util
import glob
import json

import harness
from fidelity import FidelityTestCase

P = "cronitor"
BASE_TS = 1700000000
N_MON, N_HB, N_LISTS, N_SP, N_MW = 12, 4, 5, 2, 3
REGIONS = ("us-east-1", "eu-central-1", "ap-southeast-2", "us-west-2")
METHODS = ("GET", "POST", "HEAD", "PUT")
INTERVALS = (60, 300, 30, 3600)
TIMEZONES = ("Europe/Stockholm", "America/New_York", "UTC", "Asia/Tokyo")


def iso(ts):
    import datetime
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def is_site(i):
    return i % 6 == 5


def list_targets(t):
    """(type, value) of every target of notification list t."""
    out = [("email", "contact%d@example.com" % (t + 1))]
    if t % 2 == 0:
        out.append(("email", "ops@example.com"))
    if t % 2 == 1:
        out += [("slack", "#alerts-%d" % (t + 1)), ("sms", "+1555%07d" % t)]
    if t % 3 == 2:
        out.append(("webhook", "https://hooks.example.com/cr/%d" % (t + 1)))
    if t % 4 == 3:
        out.append(("pagerduty", "pd%030d" % t))
    if t % 5 == 4:
        out += [("teams", "https://example.webhook.office.com/webhookb2/%d" % t), ("telegram", "-100%d" % (1000 + t))]
    return out


def check_recipients(i):
    """What check i alerts: its list (notify omitted: the default list) and its direct destination."""
    form = i % 4
    out = list_targets(0 if form == 3 else i % N_LISTS)
    if form == 1:
        out.append(("email", "oncall%d@example.com" % (i + 1)))
    if form == 2:
        out.append(("slack", "#mon-%d" % (i + 1)))
    return sorted(set(out))


def realert_s(i):
    """realert_interval of check i in seconds: "every 8 hours" or "<1+i%4> hours"."""
    return 8 * 3600 if i % 2 == 0 else 3600 * (1 + i % 4)


def assertion(source, comparison, target, prop=None):
    return {"source": source, "property": prop, "comparison": comparison, "target": target}


def check_assertions(i):
    """monitors.assertions of HTTP check i: the fake's assertions that have no column of their own."""
    out = []
    if i % 5 == 0:
        out.append(assertion("time", "less than", "2s"))
    if i % 4 == 2:
        out.append(assertion("json", "equals", "true", "status.ok"))
    if i % 3 == 2:
        out.append(assertion("header", "contains", "json", "Content-Type"))
    if i % 7 == 3:
        out.append(assertion("status", "less than", "400"))
    return out or None


def login(i):
    """(user, password) of check i's basic-auth login, or None."""
    return ("probe%d" % (i + 1), "pw:%d s3cret" % (i + 1)) if i % 4 == 1 else None


def unseal(stack, user_id, sealed):
    """A secret discovery sealed for user_id's account (base64 of nonce(24) || XChaCha20-Poly1305-IETF
    ciphertext and tag, associated data "monitor-auth:<user id>", the stack's key file), opened with
    libsodium itself."""
    lib = ctypes.CDLL(ctypes.util.find_library("sodium") or "libsodium.so.23")
    with open(stack.key_file) as f:
        key = bytes.fromhex(f.read().strip())
    blob = base64.b64decode(sealed)
    nonce, c = blob[:24], blob[24:]
    ad = ("monitor-auth:%d" % user_id).encode()
    m, mlen = ctypes.create_string_buffer(len(c)), ctypes.c_ulonglong()
    rc = lib.crypto_aead_xchacha20poly1305_ietf_decrypt(m, ctypes.byref(mlen), None, c, ctypes.c_ulonglong(len(c)),
                                                        ad, ctypes.c_ulonglong(len(ad)), nonce, key)
    assert rc == 0, "the sealed password does not open with the stack's key for this account"
    return m.raw[:mlen.value].decode()


def heartbeat_recipients(j):
    if j % 3 == 0:
        return sorted(set(list_targets(j % N_LISTS)))
    if j % 3 == 1:
        return [("email", "jobs%d@example.com" % (j + 1))]
    return sorted(set(list_targets(0)))


class TestCronitorFidelity(FidelityTestCase):
    P = P

    def setup_account(self, **options):
        key = self.stack.unique("cr-")
        self.load_account({"api_key": key}, {"monitors": N_MON, "heartbeats": N_HB, "contacts": N_LISTS,
                                             "status_pages": N_SP, "maintenance": N_MW},
                          options, paused_every=5)
        return key

    def assert_check(self, user, i):
        m = self.one("monitors", user, "Fid Monitor %d" % (i + 1))
        host = "m%d.example.com" % (i + 1)
        self.assertEqual(json.loads(m["regions"]), [REGIONS[i % 4], REGIONS[(i + 1) % 4]])
        self.assertEqual(json.loads(m["tags"]), ["demo", "tier-%d" % (i % 3)])
        self.assertEqual((m["interval_s"], m["paused"], m["timeout_s"]),
                         (INTERVALS[i % 4], int((i + 1) % 5 == 0), 5 + i % 10), i)
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), check_recipients(i), i)
        # alert timing: failures tolerated + 1, the grace before an alert, the repeat
        self.assertEqual((m["alert_after_checks"], m["alert_after_s"], m["realert_s"], m["recovery_s"],
                          m["muted_until"]), (i % 3 + 1, 30 * (i % 4) or None, realert_s(i), None, None), i)
        if i % 6 == 4:
            self.assertEqual((m["type"], m["url"], m["port"], m["keyword"]), ("tcp", host, 5432 + i, None))
            self.assertIsNone(m["assertions"])
            return
        https = i % 2 == 0
        port = (8443 if https else 8080) if i % 3 == 0 else None
        url = "%s://%s%s/health/%d?probe=cronitor&v=%d" % ("https" if https else "http", host,
                                                          ":%d" % port if port else "", i + 1, i % 3)
        kw = {0: ("keyword", "OK-%d" % (i + 1), "present"), 1: ("keyword", "Error %d" % (i + 1), "absent"),
              2: ("http", None, None)}[i % 3]
        self.assertEqual((m["type"], m["url"], m["port"]), (kw[0], url, port))
        self.assertEqual((m["keyword"], m["keyword_up_when"]), kw[1:])
        method = METHODS[i % 4]
        self.assertEqual((m["http_method"], m["request_body"]),
                         (method, '{"check":%d}' % (i + 1) if method in ("POST", "PUT") else None))
        headers = {"X-Check": "c%d" % (i + 1)}
        if i % 2 == 1:
            headers["Accept"] = "application/json"
        if i % 4 == 3:
            headers["Authorization"] = "Bearer cr-token-%d" % (i + 1)
        self.assertEqual(json.loads(m["request_headers"]), headers)  # a basic-auth header is the login
        self.assertEqual(self.js(m["assertions"]), check_assertions(i), i)
        if login(i):
            self.assertEqual((m["auth_username"], unseal(self.stack, user.id, m["auth_password_sealed"])), login(i))
        else:
            self.assertEqual((m["auth_username"], m["auth_password_sealed"]), (None, None))
        self.assertEqual(json.loads(m["expected_status_codes"]), ["200"])
        self.assertEqual((m["follow_redirects"], m["verify_ssl"]), (int(i % 3 != 1), int(i % 5 != 4)))
        self.assertEqual(m["ssl_expiry_days"], 7 * (1 + i % 3) if https else None)

    def test_rich_account_arrives_as_it_was(self):
        user = self.user()
        key = self.setup_account()
        rid = self.run_import(user, {"api_key": key})
        checks = [i for i in range(N_MON) if not is_site(i)]
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), len(checks))
        for i in checks:
            with self.subTest(check=i):
                self.assert_check(user, i)
        warnings = self.warnings(user, rid)
        for i in range(N_MON):
            if is_site(i):
                self.assertTrue(any('"Fid Monitor %d" is a site (real-user monitoring' % (i + 1) in w
                                    for w in warnings), warnings)
        self.assertFalse([w for w in warnings if "Monitor" in w and "assertion" in w], warnings)

        # jobs and heartbeats: schedule (cron) or interval, time zone, grace, tags, recipients
        self.assertEqual(self.stack.count("heartbeats", "user_id=%d" % user.id), N_HB)
        for j in range(N_HB):
            h = self.one("heartbeats", user, "Fid Heartbeat %d" % (j + 1))
            job = j % 2 == 0
            self.assertEqual((h["schedule"], h["interval_s"]),
                             ("%d %d * * *" % (j % 60, 2 + j % 20), 0) if job else (None, 300 * (1 + j % 4)), j)
            self.assertEqual((h["timezone"], h["grace_s"], h["paused"]),
                             (TIMEZONES[j % 4], (300, 600, 3600)[j % 3], int((j + 1) % 5 == 0)), j)
            self.assertEqual(json.loads(h["tags"]), ["demo", "batch-%d" % (j % 2)])
            self.assertIsNone(h["ping_url"])
            self.assertEqual(h["realert_s"], 3600 * (2 + j % 3), j)
            self.assertEqual(self.linked("heartbeat_contacts", "heartbeat_id", h["id"]), heartbeat_recipients(j), j)

        # contacts: every target of every list once (ops@ is in several lists), plus direct destinations
        want = set(sum((list_targets(t) for t in range(N_LISTS)), []))
        want |= {("email", "oncall%d@example.com" % (i + 1)) for i in checks if i % 4 == 1}
        want |= {("slack", "#mon-%d" % (i + 1)) for i in checks if i % 4 == 2}
        want |= {("email", "jobs%d@example.com" % (j + 1)) for j in range(N_HB) if j % 3 == 1}
        rows = self.rows("SELECT name, type, value FROM contacts WHERE user_id=%d" % user.id)
        self.assertEqual(sorted((r["type"], r["value"]) for r in rows), sorted(want))
        self.assertEqual([r["name"] for r in rows if r["value"] == "contact1@example.com"], ["Default"])
        self.assertEqual([r["name"] for r in rows if r["value"] == "#mon-3"], ["#mon-3"])

        # status pages: 5 monitor components (a site shows by name only), then the group "Production"
        total = N_MON + N_HB
        for s in range(N_SP):
            sp = self.one("status_pages", user, "Fid Status Page %d" % (s + 1))
            self.assertEqual(sp["public"], 1)
            if s % 2 == 1:
                self.assertEqual(sp["url"], "https://status%d.example.com" % (s + 1))
            else:
                self.assertTrue(sp["url"].startswith("https://demo-1-") and sp["url"].endswith(".cronitorstatus.com"))
            entries = self.rows(
                "SELECT e.name, m.name AS mon, h.name AS hb FROM status_page_monitors e "
                "LEFT JOIN monitors m ON m.id = e.monitor_id LEFT JOIN heartbeats h ON h.id = e.heartbeat_id "
                "WHERE e.status_page_id = %d ORDER BY e.position" % sp["id"])
            want_entries = []
            for k in range(5):
                g = (s * 5 + k) % total
                name = "Fid Monitor %d" % (g + 1) if g < N_MON else "Fid Heartbeat %d" % (g - N_MON + 1)
                mon = name if g < N_MON and not is_site(g) else None
                want_entries.append((name, mon, name if g >= N_MON else None))
            want_entries.append(("Production", None, None))
            self.assertEqual([(e["name"], e["mon"], e["hb"]) for e in entries], want_entries, s)

        # maintenance windows: one occurrence, start/end/duration; checks 2k, 2k+1 and heartbeat k
        wins = self.rows("SELECT * FROM maintenance_windows WHERE user_id=%d ORDER BY name" % user.id)
        self.assertEqual([w["name"] for w in wins], ["Fid Maintenance %d" % (k + 1) for k in range(N_MW)])
        for k, w in enumerate(wins):
            start = BASE_TS + 86400 * (k + 1) + 7200
            self.assertEqual((w["recurrence"], w["starts"], w["ends"], w["duration_min"]),
                             ("once", iso(start), iso(start + 3600 * (1 + k % 3)), 60 * (1 + k % 3)), w)
            got = self.rows("SELECT m.name AS mon, h.name AS hb FROM maintenance_window_monitors l "
                            "LEFT JOIN monitors m ON m.id = l.monitor_id LEFT JOIN heartbeats h ON h.id = l.heartbeat_id "
                            "WHERE l.window_id = %d ORDER BY l.position" % w["id"])
            want_mw = [("Fid Monitor %d" % (c + 1), None) for c in (2 * k, 2 * k + 1) if not is_site(c)]
            want_mw.append((None, "Fid Heartbeat %d" % (k + 1)))
            self.assertEqual([(r["mon"], r["hb"]) for r in got], want_mw, k)
        self.assertTrue(any('"Fid Maintenance 2" silences 1 monitor group' in w for w in warnings), warnings)

        # a check's password is in the account sealed only: no API answer, run log, stored resource,
        # other column or process log holds it, nor the header that carried it
        secrets = set()
        for i in checks:
            if login(i):
                secrets |= {login(i)[1], base64.b64encode(("%s:%s" % login(i)).encode()).decode()}
        self.assertTrue(secrets)
        seen = [json.dumps(self.logs(user, rid)), json.dumps(self.get(user, rid))]
        for rtype in ("monitor", "heartbeat", "contact", "status_page", "maintenance_window"):
            r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=%s&per_page=100" % (rid, rtype))
            self.assertStatus(r, 200)
            seen.append(r.text)
        seen.append(json.dumps(self.stack.sql_dicts("SELECT * FROM " + harness.WITH_DATA + " WHERE r.run_id=%s"
                                                    % harness.q(rid)), default=str))
        seen.append(json.dumps(self.stack.sql_dicts("SELECT * FROM monitors WHERE user_id=%d" % user.id), default=str))
        for path in glob.glob(self.stack.tmp + "/**/*.log", recursive=True):
            with open(path, errors="replace") as f:
                seen.append(f.read())
        for secret in secrets:
            for text in seen:
                self.assertNotIn(secret, text)
        self.assertTrue(any("[redacted]" in text for text in seen[2:]), "the stored copy marks what it left out")

        # the lists are read with the page of monitors (to link their targets) and as their own phase
        reqs = harness.fake_call(self.stack, "GET", "/_control/requests?provider=%s" % P)
        paths = [r["path"] for r in reqs]
        self.assertGreaterEqual(sum(p.endswith("/api/notifications") for p in paths), 2, paths)
        for path in ("/api/monitors", "/api/statuspages", "/api/maintenance_windows"):
            self.assertTrue(any(p.endswith(path) for p in paths), (path, paths))

    def test_what_does_not_carry_over_is_listed_beside_each_check(self):
        """Issue 24 item 2: each resource's dropped fields, computed from the provider's field table
        (src/providers/cronitor.c) and the object as sent (a check or job by its type, the notification
        list of each target, a status page with its components, a maintenance window), unknown fields
        included; the run's summary counts them before execute; values never show."""
        user = self.user()
        key = self.setup_account(new_fields={"escalation_policy": "ep-1", "probe": {"retries": 2}})
        rid = self.start_run(user, {"api_key": key})
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        unknown = "Not known to this importer (the provider may have added it since); it is not imported."
        state = "State at Cronitor, not a setting."

        def listing(kind):
            r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=%s&per_page=100" % (rid, kind))
            self.assertStatus(r, 200)
            return r.text, {x["name"]: {d["field"]: d["reason"] for d in x["dropped"]} for x in r.json["data"]}

        text, got = listing("monitor")
        self.assertNotIn("cr-token-", text, "a header's value never shows")
        self.assertNotIn('check\\":', text, "a request body never shows")
        checks = [i for i in range(N_MON) if not is_site(i)]
        self.assertEqual(set(got), {"Fid Monitor %d" % (i + 1) for i in checks})
        for i in checks:
            d = got["Fid Monitor %d" % (i + 1)]
            want = {"initialized", "environments", "next_expected_at", "created", "latest_event", "platform",
                    "consecutive_alert_threshold", "escalation_policy", "probe.retries"}
            want.add("passing" if i % 7 != 6 else "latest_issue")
            if i % 4 == 0:
                want.add("note")
            self.assertEqual(set(d), want, (i, d))
            self.assertEqual(d["escalation_policy"], unknown)
            self.assertEqual(d["probe.retries"], unknown)
            self.assertEqual(d["latest_event"], state)
            self.assertEqual(d["consecutive_alert_threshold"], "Not described in Cronitor's published reference (a "
                                                               "live answer shows 1000), so not carried.")

        got = listing("heartbeat")[1]
        for j in range(N_HB):
            d = got["Fid Heartbeat %d" % (j + 1)]
            want = {"passing", "initialized", "environments", "next_expected_at", "created", "latest_event",
                    "escalation_policy", "probe.retries"}
            if j % 2 == 0:  # a job: its assertions, platform and missed runs allowed
                want |= {"assertions", "platform", "schedule_tolerance"}
            else:           # failed runs tolerated: the account's heartbeats have no such count
                want.add("failure_tolerance")
            self.assertEqual(set(d), want, (j, d))
            if j % 2 == 0:
                self.assertEqual(d["assertions"], "Cronitor's rules on a job's runs (`metric.duration < 15min`, …); "
                                                  "the account has none (a warning names the monitor).")

        # a list target keeps its list (whose monitors and created do not carry); a direct destination
        # keeps its notify entry, a string with nothing to list
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=contact&per_page=100" % rid)
        for secret in ("hooks.example.com/cr/", "pd000", "webhook.office.com/webhookb2"):
            # nothing of a resource shows a webhook URL or an integration key: not its name, not its
            # external id (the kind and a hash of the target), not its preview or dropped fields
            self.assertNotIn(secret, r.text)
        lists = {"Default"} | {"Fid Contacts %d" % (t + 1) for t in range(1, N_LISTS)}
        direct = len([i for i in checks if i % 4 in (1, 2)]) + len([j for j in range(N_HB) if j % 3 == 1])
        self.assertEqual(len(r.json["data"]), len(set(sum((list_targets(t) for t in range(N_LISTS)), []))) + direct)
        for x in r.json["data"]:
            self.assertEqual([d["field"] for d in x["dropped"]], ["monitors", "created"] if x["name"] in lists else [],
                             x["external_id"])
        self.assertEqual({d["reason"] for x in r.json["data"] for d in x["dropped"] if d["field"] == "monitors"},
                         {"Not read: the links come from each monitor's `notify`, which names the list."})

        got = listing("status_page")[1]
        want = {"website_url", "environment", "allow_search_index", "enable_performance_metrics", "status",
                "created", "updated", "components_count", "components[].key", "components[].type",
                "components[].statuspage", "components[].autopublish", "components[].group"}
        self.assertEqual({n: set(d) for n, d in got.items()},
                         {"Fid Status Page %d" % (s + 1): want for s in range(N_SP)})
        self.assertEqual(got["Fid Status Page 1"]["components[].autopublish"],
                         "Cronitor's switch to publish the component's incidents by itself; the account has no "
                         "column for it.")

        got = listing("maintenance_window")[1]
        for k in range(N_MW):
            want = {"description", "state", "created"}
            if k % 2 == 1:
                want.add("groups")
            if k % 3 == 0:
                want.add("statuspages")
            self.assertEqual(set(got["Fid Maintenance %d" % (k + 1)]), want, k)

        # before execute: which fields will not carry over, for how many resources
        summary = {(d["resource_type"], d["field"]): d["resources"] for d in self.get(user, rid)["meta"]["dropped"]}
        self.assertEqual(summary[("monitor", "escalation_policy")], len(checks))
        self.assertEqual(summary[("heartbeat", "escalation_policy")], N_HB)
        self.assertEqual(summary[("monitor", "note")], len([i for i in checks if i % 4 == 0]))
        self.assertEqual(summary[("heartbeat", "schedule_tolerance")], N_HB // 2)
        self.assertEqual(summary[("maintenance_window", "groups")], N_MW // 2)
        self.assertNotIn(("monitor", "request.headers"), summary)
        for landed in ("realert_interval", "failure_tolerance", "grace_seconds", "assertions"):
            self.assertNotIn(("monitor", landed), summary)
        self.assertEqual(summary[("heartbeat", "failure_tolerance")], N_HB // 2)

    def test_a_reimport_whose_lists_are_refused_keeps_the_alert_links(self):
        # the second time the notification lists are refused: monitors that notify a list keep the
        # recipients the first import linked
        user = self.user()
        key = self.setup_account()
        self.assert_reimport_keeps(user, {"api_key": key},
                                   [{"kind": "403", "match": "/api/notifications", "times": -1}],
                                   [("monitor", "the notification lists were refused for this key: contact_ids"),
                                    ("heartbeat", "the notification lists were refused for this key: contact_ids")])

    def test_refused_lists_skip_their_kind_and_the_run_completes(self):
        user = self.user()
        key = self.setup_account(refuse=["notifications", "maintenance"])
        rid = self.run_import(user, {"api_key": key})
        warnings = self.warnings(user, rid)
        for kind in ("notifications", "maintenance windows"):
            self.assertTrue(any("Cronitor refused the %s list for this key (HTTP 403): %s skipped" % (kind, kind)
                                in w for w in warnings), (kind, warnings))
        self.assertTrue(any("refused the notification lists for this key (HTTP 403): monitors that notify a list"
                            in w for w in warnings), warnings)
        self.assertEqual(self.stack.count("maintenance_windows", "user_id=%d" % user.id), 0)
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), N_MON - 2)
        self.assertEqual(self.stack.count("heartbeats", "user_id=%d" % user.id), N_HB)
        self.assertEqual(self.stack.count("status_pages", "user_id=%d" % user.id), N_SP)
        # direct destinations still link; list targets do not
        m = self.one("monitors", user, "Fid Monitor 2")
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), [("email", "oncall2@example.com")])
        m = self.one("monitors", user, "Fid Monitor 1")
        self.assertEqual(self.linked("monitor_contacts", "monitor_id", m["id"]), [])

    def test_bad_key_fails_the_run_on_the_first_call(self):
        self.setup_account()
        self.assert_refused_key_fails(self.user(), {"api_key": "nope-12345"}, "nope-12345", "Cronitor rejected the API key")
