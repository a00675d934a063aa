"""Atlassian Statuspage end to end (issue 10): a rich account on the fake provider
(tests/fakes/prov_statuspage.py) is discovered and imported by the real runner over HTTP, then the
account tables are read back and compared with what the provider holds: status pages with their
public address (own domain or statuspage.io subdomain, never the company website in `url`), time
zone and audience; their components as entries without a monitor, in order, each in the section of
its component group, with the first page of components kept (the base of `page` is undocumented:
every reading is tried); subscribers in `status_page_subscribers` (every mode, every state, their
components), never in `contacts`, and no monitors at all. A run with the subscribers and component
groups refused (403) completes with a warning naming each kind; a bad key fails the run on the
first call.

The expected values follow the fake's formulas (tests/fakes/README.md, statuspage quirks).
"""

import json
import time

import harness
from harness import q
from fidelity import FidelityTestCase

P = "statuspage"
BASE_TS = 1700000000
N_SP, N_GROUPS, N_COMP, N_SUBS = 3, 3, 20, 16
TIMEZONES = ("America/New_York", "Europe/Berlin", "Etc/UTC", "Asia/Tokyo")
GROUPS = ("Core API", "Web apps", "Infrastructure", "Third-party services")
MODES = ("email", "sms", "webhook", "slack", "integration_partner")
KINDS = {"email": "email", "sms": "sms", "webhook": "webhook", "slack": "slack", "integration_partner": "other"}


def sub_state(j):
    return "quarantined" if j % 7 == 6 else "unconfirmed" if j % 3 == 2 else "active"


def sub_address(p, j):
    mode = MODES[j % 5]
    return {"email": "reader%d@customer%d.example" % (j + 1, p + 1),
            "sms": "+1 (202) 555-%04d" % j,
            "webhook": "https://hooks.customer%d.example/statuspage/%d" % (p + 1, j + 1),
            "slack": "Customer %d/#*****-%d" % (p + 1, j + 1),
            "integration_partner": None}[mode]


def section(i, groups=N_GROUPS):
    return None if groups == 0 or i % 4 == 3 else GROUPS[i % groups]


class TestStatuspageFidelity(FidelityTestCase):
    P = P

    def setup_account(self, counts=None, **options):
        key = self.stack.unique("sp-")
        return key, self.load_account({"api_key": key}, counts or {
            "status_pages": N_SP, "component_groups": N_GROUPS, "components": N_COMP, "subscribers": N_SUBS},
            options)

    def page_row(self, user, p):
        return self.one("status_pages", user, "Fid Status Page %d" % (p + 1))

    def entries(self, sp_id):
        return [(e["name"], e["section"], e["monitor_id"], e["heartbeat_id"]) for e in self.rows(
            "SELECT name, section, monitor_id, heartbeat_id FROM status_page_monitors "
            "WHERE status_page_id = %d ORDER BY position" % sp_id)]

    def test_what_does_not_carry_over_is_listed_beside_each_page(self):
        """Issue 24 item 2: each resource's dropped fields, computed from the provider's field table
        (src/providers/statuspage.c) and the page as stored (with its component groups and
        components), unknown fields included; the run's summary counts them before execute; values
        never show (a component's automation e-mail, which sets its state, least)."""
        user = self.user()
        key, _ = self.setup_account(new_fields={"escalate_after": 600, "flags": {"beta": True}})
        rid = self.start_run(user, {"api_key": key})
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed"), timeout=180), "awaiting_review")
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=status_page&per_page=100" % rid)
        self.assertStatus(r, 200)
        self.assertNotIn("notifications.statuspage.io", r.text, "a value never shows, only the field's name")
        self.assertNotIn(key, r.text)
        unknown = "Not known to this importer (the provider may have added it since); it is not imported."
        self.assertEqual(len(r.json["data"]), N_SP)
        for item in r.json["data"]:
            p = int(item["name"].rsplit(" ", 1)[1]) - 1
            got = {d["field"]: d["reason"] for d in item["dropped"]}
            want = {"created_at", "updated_at", "page_description", "headline", "branding", "url", "support_url",
                    "allow_page_subscribers", "allow_incident_subscribers", "allow_email_subscribers",
                    "allow_sms_subscribers", "allow_rss_atom_feeds", "allow_webhook_subscribers",
                    "escalate_after", "flags.beta"}
            want |= {"css_" + c for c in ("body_background_color", "font_color", "light_font_color", "greens",
                                          "yellows", "oranges", "blues", "reds", "border_color", "graph_color",
                                          "link_color", "no_data")}
            if p % 2 == 1:
                want.add("hidden_from_search")
            # (a component's id lands: it names its entry for the subscribers and incidents)
            want |= {"components[]." + f for f in ("page_id", "created_at", "updated_at", "position", "status",
                                                   "description", "showcase", "only_show_if_degraded",
                                                   "start_date", "automation_email")}
            want |= {"component_groups[]." + f for f in ("page_id", "description", "position", "created_at",
                                                         "updated_at")}
            self.assertEqual(set(got), want, (p, got))
            self.assertEqual(got["escalate_after"], unknown)
            self.assertEqual(got["flags.beta"], unknown)
            self.assertTrue(got["url"].startswith("The company's own website"), got["url"])
            self.assertIn("works only at Statuspage", got["components[].automation_email"])
        # subscribers lose only a quarantined one's purge date (a webhook's failure address never shows)
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=status_page_subscriber"
                         "&per_page=100" % rid)
        self.assertNotIn("ops3@customer1.example", r.text)
        # a webhook's endpoint may carry a token: its resource is named by the endpoint's origin only
        self.assertNotIn("/statuspage/", r.text)
        self.assertIn("https://hooks.customer1.example/…", [x["name"] for x in r.json["data"]])
        self.assertEqual(len(r.json["data"]), N_SP * N_SUBS)
        dropped = sorted(json.dumps(x["dropped"]) for x in r.json["data"])
        purge = json.dumps([{"field": "purge_at", "reason": "When Statuspage would delete the quarantined "
                                                             "subscriber: state at Statuspage, not kept."}])
        quarantined = N_SP * sum(1 for j in range(N_SUBS) if sub_state(j) == "quarantined")
        self.assertEqual(dropped, ["[]"] * (N_SP * N_SUBS - quarantined) + [purge] * quarantined)
        # before execute: which fields will not carry over, for how many resources
        summary = {(d["resource_type"], d["field"]): d["resources"] for d in self.get(user, rid)["meta"]["dropped"]}
        self.assertEqual(summary[("status_page", "css_greens")], N_SP)
        self.assertEqual(summary[("status_page", "escalate_after")], N_SP)
        self.assertEqual(summary[("status_page", "hidden_from_search")], 1)
        self.assertEqual(summary[("status_page", "components[].automation_email")], N_SP)
        self.assertEqual(summary[("status_page_subscriber", "purge_at")], quarantined)

    def test_rich_account_arrives_as_it_was(self):
        user = self.user()
        key, summary = self.setup_account()
        rid = self.run_import(user, {"api_key": key}, timeout=180)
        pids = summary["page_ids"]

        # components are entries of their page, never monitors; subscribers are never contacts
        for table in ("monitors", "contacts", "heartbeats"):
            self.assertEqual(self.stack.count(table, "user_id=%d" % user.id), 0, table)
        self.assertEqual(self.stack.count("status_pages", "user_id=%d" % user.id), N_SP)
        for p in range(N_SP):
            with self.subTest(page=p):
                sp = self.page_row(user, p)
                url = ("https://status%d.fid.example" % (p + 1) if p % 2 == 0
                       else "https://demo-%d-%s.statuspage.io" % (p + 1, pids[p][:4]))
                self.assertEqual((sp["url"], sp["public"], sp["timezone"]),
                                 (url, int(p % 3 != 2), TIMEZONES[p % 4]))
                # every component once, in order (the first page of 100 is not skipped), in its group
                want = [("Fid Component %d" % (i + 1), section(i), None, None) for i in range(N_COMP)]
                self.assertEqual(self.entries(sp["id"]), want)

                subs = self.rows("SELECT * FROM status_page_subscribers WHERE user_id=%d AND status_page_id=%d"
                                 % (user.id, sp["id"]))
                got = sorted((s["kind"], s["address"] or "", s["state"]) for s in subs)
                want_subs = sorted((KINDS[MODES[j % 5]], sub_address(p, j) or "", sub_state(j))
                                   for j in range(N_SUBS))
                self.assertEqual(got, want_subs)
                for s in subs:
                    self.assertEqual(str(s["subscribed_on"])[:10], "2023-11-14")
                    self.assertIn(len(json.loads(s["components"] or "[]")), (0, 2))
        # the components a subscriber follows are its page's entries, by position (NULL: every component),
        # in the subscriber's order (the provider's ids sorted); component i is entry i
        first = self.page_row(user, 0)
        comp_ids = summary["ids"]["components"]["first"]
        by_addr = {s["address"]: s["components"] for s in self.rows(
            "SELECT address, components FROM status_page_subscribers WHERE status_page_id=%d" % first["id"])}
        self.assertIsNone(by_addr["reader1@customer1.example"])
        self.assertEqual(json.loads(by_addr["+1 (202) 555-0001"]), sorted((1, 2), key=lambda i: comp_ids[i]))
        self.assertEqual(json.loads(by_addr["https://hooks.customer1.example/statuspage/3"]),
                         sorted((2, 3), key=lambda i: comp_ids[i]))
        # subscriber 4 also follows a component the page does not list: left out, with a warning
        sub4 = summary["ids"]["subscribers"]["first"][4]
        warnings = self.warnings(user, rid)
        self.assertEqual(sum('(external id %s) without these components it follows, which its status page does '
                             'not list: ghost0000000.' % sub4 in w for w in warnings), 1, warnings)

        self.assertTrue(any("is an integration partner subscription, which has no equivalent" in w
                            for w in warnings), warnings)
        self.assertFalse(any("refused" in w for w in warnings), warnings)

        # requests: groups and components from page 0 (one short page each), subscribers from
        # page 0 in each state
        reqs = harness.fake_call(self.stack, "GET", "/_control/requests?provider=%s" % P)
        seen = {(r["path"].split("/")[-1], r["query"].get("page"), r["query"].get("state")) for r in reqs}
        for want in (("components", "0", None), ("component-groups", "0", None), ("subscribers", "0", "active"),
                     ("subscribers", "0", "unconfirmed"), ("subscribers", "0", "quarantined")):
            self.assertIn(want, seen)

    def discover(self, user, key):
        """Discovery only: the normalized status pages the runner stored, by external id."""
        rid = self.start_run(user, {"api_key": key})
        st = self.drive(rid, ("awaiting_review", "failed"), timeout=180)
        self.assertEqual(st, "awaiting_review", self.get(user, rid)["data"]["error_message"])
        return {r["external_id"]: json.loads(r["normalized_data"]) for r in self.stack.sql_dicts(
            "SELECT r.external_id, d.normalized_data FROM " + harness.WITH_DATA + " WHERE r.run_id=%s "
            "AND r.resource_type='status_page'" % q(rid))}

    def test_every_reading_of_the_component_page_base_keeps_the_first_page(self):
        """The base of `page` for components is undocumented: numbered from 1 with page 0 read as 1
        (the fake's default), from 0, or from 1 with page 0 empty. 230 components = 3 pages of 100
        (with the 2 group rows); checked on the stored discovery."""
        for base in ("1", "0", "strict1"):
            with self.subTest(page_base=base):
                user = self.user()
                key, summary = self.setup_account({"status_pages": 1, "component_groups": 2, "components": 230,
                                                   "subscribers": 0}, page_base=base)
                pages = self.discover(user, key)
                items = pages[summary["page_ids"][0]]["items"]
                want = [{"monitor_id": None, "name": "Fid Component %d" % (i + 1), "section": section(i, 2)}
                        for i in range(230)]
                self.assertEqual([{k: v for k, v in it.items() if k != "ref"} for it in items], want)
                # each entry names its component (for the subscribers and the history)
                self.assertEqual([it["ref"] for it in items[:5]], summary["ids"]["components"]["first"])
                self.assertEqual(len({it["ref"] for it in items}), 230)

    def test_a_page_of_230_components_imports_whole(self):
        user = self.user()
        key, summary = self.setup_account({"status_pages": 1, "component_groups": 2, "components": 230,
                                           "subscribers": 3})
        self.run_import(user, {"api_key": key}, timeout=180)
        sp = self.page_row(user, 0)
        self.assertEqual(self.entries(sp["id"]),
                         [("Fid Component %d" % (i + 1), section(i, 2), None, None) for i in range(230)])
        self.assertEqual(self.stack.count("status_page_subscribers", "status_page_id=%d" % sp["id"]), 3)

    def test_a_reimport_whose_components_are_refused_keeps_the_pages_entries(self):
        user = self.user()
        key, _ = self.setup_account()
        self.assert_reimport_keeps(user, {"api_key": key},
                                   [{"kind": "403", "match": "/components", "times": -1}],
                                   [("status_page", "its components were refused for this key: items")])

    def test_refused_lists_skip_their_kind_and_the_run_completes(self):
        user = self.user()
        key, _ = self.setup_account(refuse=["subscribers", "component_groups"])
        rid = self.run_import(user, {"api_key": key}, timeout=180)
        warnings = self.warnings(user, rid)
        for kind in ("subscribers", "component groups"):
            self.assertTrue(any("Statuspage refused the %s list for this key (HTTP 403): %s skipped" % (kind, kind)
                                in w for w in warnings), (kind, warnings))
        self.assertEqual(self.stack.count("status_page_subscribers", "user_id=%d" % user.id), 0)
        self.assertEqual(self.stack.count("status_pages", "user_id=%d" % user.id), N_SP)
        # the groups' own rows in the component list still name the sections
        sp = self.page_row(user, 1)
        self.assertEqual(self.entries(sp["id"]),
                         [("Fid Component %d" % (i + 1), section(i), None, None) for i in range(N_COMP)])

    def test_bad_key_fails_the_run_on_the_first_call(self):
        self.setup_account()
        self.assert_refused_key_fails(self.user(), {"api_key": "nope-12345"}, "nope-12345", "Statuspage rejected the API key")


# The history the fake holds (tests/fakes/prov_statuspage.py): incidents and scheduled maintenances.
INCIDENT_STATUSES = ("resolved", "resolved", "monitoring", "identified", "investigating")
IMPACTS = ("none", "minor", "major", "critical")
INCIDENT_UPDATES = (("investigating", "We are looking into errors on the API (nº %d) — “Überprüfung” läuft."),
                    ("identified", "The cause is found: a full disk ✓ (incident %d)."),
                    ("resolved", "Resolved. Every service is back to normal (incident %d)."))
N_INC, N_MAINT = 5, 3


def utc(ts):
    """A time as the account's DATETIME columns hold it, and as an update's "at"."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ts)), time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def expected_history(nc):
    """The history rows of every page, newest first: (starts_at ts, row) as the account must hold them."""
    rows = []
    for k in range(N_INC):
        start = BASE_TS - (1 + 2 * k) * 86400
        status = INCIDENT_STATUSES[k % 5]
        ups = [(start + j * 1200, st, body % (k + 1)) for j, (st, body) in enumerate(INCIDENT_UPDATES)
               if j == 0 or st != "resolved" or status == "resolved"]
        rows.append((start, {"kind": "incident", "name": "Fid Incident %d" % (k + 1), "status": status,
                             "impact": IMPACTS[k % 4], "starts_at": utc(start)[0],
                             "ends_at": utc(start + 3600)[0] if status == "resolved" else None,
                             "scheduled_until": None,
                             "updates": [{"at": utc(at)[1], "status": st, "body": b} for at, st, b in ups],
                             "components": [k % nc, (k + 1) % nc]}))
    for m in range(N_MAINT):
        upcoming = m % 2 == 0
        start = BASE_TS + (1 + 3 * m) * 86400 if upcoming else BASE_TS - (1 + 3 * m) * 86400
        ups = [(start - 86400, "scheduled", "Planned work on the database %d." % (m + 1))]
        if not upcoming:
            ups.append((start + 7200, "completed", "The work is done."))
        rows.append((start, {"kind": "maintenance", "name": "Fid Maintenance %d" % (m + 1),
                             "status": "scheduled" if upcoming else "completed", "impact": "maintenance",
                             "starts_at": utc(start)[0], "ends_at": None if upcoming else utc(start + 7200)[0],
                             "scheduled_until": utc(start + 7200)[0],
                             "updates": [{"at": utc(at)[1], "status": st, "body": b} for at, st, b in ups],
                             "components": [m % nc]}))
    return [r for _, r in sorted(rows, key=lambda x: -x[0])]


class TestStatuspageHistory(FidelityTestCase):
    """Issue 24 items 4 and 6: a page's incidents and scheduled maintenances in status_page_incidents,
    newest first, their components as the page's entries; a re-import whose history read fails keeps
    the account's; a revert puts a page's history back."""
    P = P
    setup_account = TestStatuspageFidelity.setup_account
    page_row = TestStatuspageFidelity.page_row
    entries = TestStatuspageFidelity.entries

    def setup_history(self, **options):
        return self.setup_account({"status_pages": 2, "component_groups": 2, "components": 6, "subscribers": 0,
                                   "incidents": N_INC, "maintenances": N_MAINT}, **options)

    def history(self, sp_id):
        return [{"kind": r["kind"], "name": r["name"], "status": r["status"], "impact": r["impact"],
                 "starts_at": str(r["starts_at"]) if r["starts_at"] else None,
                 "ends_at": str(r["ends_at"]) if r["ends_at"] else None,
                 "scheduled_until": str(r["scheduled_until"]) if r["scheduled_until"] else None,
                 "updates": self.js(r["updates"]), "components": self.js(r["components"])}
                for r in self.stack.sql_dicts("SELECT * FROM status_page_incidents WHERE status_page_id=%d "
                                              "ORDER BY position" % sp_id)]

    def test_incidents_and_maintenances_arrive_as_they_were(self):
        user = self.user()
        key, _ = self.setup_history()
        rid = self.run_import(user, {"api_key": key}, timeout=180)
        want = expected_history(6)
        for p in range(2):
            with self.subTest(page=p):
                sp = self.page_row(user, p)
                self.assertEqual(self.history(sp["id"]), want)
                # each component position names the entry of that component
                names = [e[0] for e in self.entries(sp["id"])]
                self.assertEqual(names[1], "Fid Component 2")
        # incident 2 names a component the page does not list (one deleted since): left out, with a warning
        warnings = self.warnings(user, rid)
        self.assertTrue(any("names 1 component(s) page" in w and "does not list" in w for w in warnings), warnings)
        # requests: both history lists from page 0, the scheduled maintenances once more than the history
        reqs = harness.fake_call(self.stack, "GET", "/_control/requests?provider=%s" % P)
        paths = {(r["path"].split("/v1/pages/")[1].split("/", 1)[1], r["query"].get("page")) for r in reqs
                 if "/incidents" in r["path"]}
        self.assertIn(("incidents", "0"), paths)
        self.assertIn(("incidents/scheduled", "0"), paths)

    def test_a_reimport_whose_incidents_fail_keeps_the_pages_history(self):
        for kind in ("500", "403"):
            with self.subTest(fault=kind):
                user = self.user()
                key, _ = self.setup_history()
                self.assert_reimport_keeps(user, {"api_key": key},
                                           [{"kind": kind, "match": "/incidents", "times": -1}],
                                           [("status_page", "its incidents could not be read (HTTP %s)" % kind)])

    def test_a_revert_puts_the_history_back(self):
        user = self.user()
        key, _ = self.setup_history()
        first = self.run_import(user, {"api_key": key}, timeout=180)
        sp = self.page_row(user, 0)
        as_first_left_it = self.history(sp["id"])
        # the provider's history changes: fewer incidents, the re-import replaces the page's
        harness.fake_call(self.stack, "POST", "/_control/%s/mutate" % P,
                          {"counts": {"incidents": 1, "maintenances": 0}})
        second = self.run_import(user, {"api_key": key}, timeout=180)
        self.assertEqual([h["name"] for h in self.history(sp["id"])], ["Fid Incident 1"])
        r = user.request("POST", "/api/v1/migrations/%s/revert" % second)
        self.assertStatus(r, 202)
        self.assertEqual(self.drive(second, ("reverted",), timeout=120), "reverted")
        self.assertEqual(self.history(sp["id"]), as_first_left_it)
        # the first run's revert deletes the pages, and their history with them
        r = user.request("POST", "/api/v1/migrations/%s/revert" % first)
        self.assertStatus(r, 202)
        self.assertEqual(self.drive(first, ("reverted",), timeout=120), "reverted")
        self.assertEqual(self.stack.count("status_pages", "user_id=%d" % user.id), 0)
        self.assertEqual(self.stack.sql_value("SELECT COUNT(*) FROM status_page_incidents WHERE status_page_id=%d"
                                              % sp["id"]), "0")
