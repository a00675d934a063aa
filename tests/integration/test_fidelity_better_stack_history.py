"""Better Stack status page history (issue 24 items 4 and 6): each status page's status reports and
their status updates (tests/fakes/prov_better_stack.py) are imported into status_page_incidents, newest
first, with their affected resources as the page's entries; a re-import whose reports cannot be read
keeps the account's history."""

import time

from fidelity import FidelityTestCase

P = "better_stack"
BASE_TS = 1700000000
N_REPORTS = 4
REPORT_TYPES = ("manual", "maintenance", "automatic")


def utc(ts, iso=False):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ" if iso else "%Y-%m-%d %H:%M:%S", time.gmtime(ts))


def expected_history():
    """Every page's history rows, newest first (report k = 0 is the newest); the first resource of a
    page (which every report affects) is its entry at position 4 (five monitors, shown by position
    descending)."""
    rows = []
    for k in range(N_REPORTS):
        maint = REPORT_TYPES[k % 3] == "maintenance"
        start = BASE_TS - (1 + 2 * k) * 86400
        msgs = ["We see errors on report %d — “Überprüfung” läuft." % (k + 1), "Fixed ✓ (report %d)." % (k + 1)]
        if maint:
            msgs.insert(1, "Half way through report %d." % (k + 1))
        end = utc(start + 7200) if k > 0 else None
        rows.append({"kind": "maintenance" if maint else "incident", "name": "Fid Report %d" % (k + 1),
                     "status": None, "impact": "maintenance" if maint else ("downtime" if k % 2 == 0 else "degraded"),
                     "starts_at": utc(start), "ends_at": end, "scheduled_until": end if maint else None,
                     "updates": [{"at": utc(start + u * 1800, True), "status": None, "body": m}
                                 for u, m in enumerate(msgs)],
                     "components": [4]})
    return rows


class TestBetterStackHistory(FidelityTestCase):
    P = P

    def setup_account(self, **options):
        key = self.stack.unique("bsh-")
        return key, self.load_account({"api_token": key},
                                      {"monitors": 12, "heartbeats": 1, "status_pages": 2, "users": 1, "policies": 0,
                                       "reports": N_REPORTS}, options)

    def history(self, sp_id):
        return [{"kind": r["kind"], "name": r["name"], "status": r["status"], "impact": r["impact"],
                 "starts_at": str(r["starts_at"]) if r["starts_at"] else None,
                 "ends_at": str(r["ends_at"]) if r["ends_at"] else None,
                 "scheduled_until": str(r["scheduled_until"]) if r["scheduled_until"] else None,
                 "updates": self.js(r["updates"]), "components": self.js(r["components"])}
                for r in self.stack.sql_dicts("SELECT * FROM status_page_incidents WHERE status_page_id=%d "
                                              "ORDER BY position" % sp_id)]

    def test_status_reports_arrive_as_they_were(self):
        user = self.user()
        key, _ = self.setup_account()
        rid = self.run_import(user, {"api_token": key})
        for n in (1, 2):
            with self.subTest(page=n):
                sp = self.one("status_pages", user, "Fid Status Page %d" % n)
                self.assertEqual(self.history(sp["id"]), expected_history())
                entry = self.rows("SELECT name FROM status_page_monitors WHERE status_page_id=%d AND position=4"
                                  % sp["id"])[0]["name"]
                self.assertEqual(entry, "Fid Monitor %d" % (1 if n == 1 else 6))
        # report 2 names a resource its page does not show: left out, with a warning
        warnings = self.warnings(user, rid)
        self.assertTrue(any("names 1 resource(s) status page \"Fid Status Page 1\" does not show" in w
                            for w in warnings), warnings)

    def test_a_reimport_whose_status_reports_fail_keeps_the_pages_history(self):
        for kind, match in (("500", "/status-reports"), ("403", "/status-updates")):
            with self.subTest(fault=kind):
                user = self.user()
                key, _ = self.setup_account()
                self.assert_reimport_keeps(user, {"api_token": key},
                                           [{"kind": kind, "match": match, "times": -1}],
                                           [("status_page", "its status reports could not be read (HTTP %s): "
                                                            "incidents" % kind)])
