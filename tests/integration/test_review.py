"""Integration tests of the review step (issue 11) over HTTP and the tool
interface: resource items with name and reason, the paged and filtered
resource list, exclude/include before execute, progress that moves during
discovery and import, and the start option import_paused.
"""

import csv
import io
import json
import time

import harness
from harness import q
from test_runner import RunnerTestCase, PROVIDER


def monitor(i, **kw):
    norm = {"name": "Shop %d" % i, "url": "https://shop%d.example.com/health" % i, "type": "http",
            "interval": 60, "paused": False, "port": None, "keyword": None, "contact_ids": []}
    norm.update(kw)
    return norm


class ToolsTestCase(RunnerTestCase):

    def mcp(self, user, method, params):
        r = user.request("POST", "/mcp", body={"jsonrpc": "2.0", "id": 1, "method": method, "params": params},
                         headers={"Accept": "application/json, text/event-stream",
                                  "MCP-Protocol-Version": "2025-06-18"})
        self.assertStatus(r, 200)
        return r.json


class TestResourceList(ToolsTestCase):

    def run_with(self, user, n=30):
        items = [("contact", "c1", {"name": "Ops", "type": "email", "value": "ops@example.com"})]
        items += [("monitor", "m%02d" % i, monitor(i)) for i in range(n)]
        rid = self.synthetic_run(user, "uptimerobot", items)
        # names are stored at discovery; a synthetic run sets them as discovery would
        self.stack.sql("UPDATE " + harness.WITH_DATA + " SET r.name = JSON_VALUE(d.normalized_data, '$.name') "
                       "WHERE r.run_id=%s" % q(rid))
        return rid

    def test_every_resource_is_reachable_paged_and_filtered(self):
        user = self.user()
        rid = self.run_with(user)
        r = user.request("GET", "/api/v1/migrations/%s/resources" % rid)
        self.assertStatus(r, 200)
        body = r.json
        self.assertEqual(body["meta"]["total"], 31)
        self.assertEqual((body["meta"]["per_page"], body["meta"]["current_page"], body["meta"]["last_page"]),
                         (20, 1, 2))
        self.assertEqual(len(body["data"]), 20)
        self.assertEqual(body["links"]["next"], "/api/v1/migrations/%s/resources?per_page=20&page=2" % rid)
        item = body["data"][1]
        self.assertEqual(sorted(item), sorted(["id", "resource_type", "external_id", "name", "action", "status",
                                               "reason", "attempts", "error_message", "preview", "dropped"]))
        self.assertEqual((item["name"], item["reason"]), ("Shop 0", None))
        # filters: type, q (substring of the name, any case), and the page size
        r = user.request("GET", "/api/v1/migrations/%s/resources?resource_type=monitor&q=shop%%201&per_page=100"
                         % rid)
        self.assertStatus(r, 200)
        self.assertEqual(sorted(x["name"] for x in r.json["data"]),
                         ["Shop 1"] + ["Shop %d" % i for i in range(10, 20)])
        self.assertIn("resource_type=monitor&q=shop%201&", r.json["links"]["first"])
        # LIKE wildcards in q are plain text
        r = user.request("GET", "/api/v1/migrations/%s/resources?q=%%25" % rid)
        self.assertEqual(r.json["meta"]["total"], 0)
        # bad values name the allowed ones
        r = user.request("GET", "/api/v1/migrations/%s/resources?status=done&action=merge&resource_type=x"
                         "&per_page=101" % rid)
        self.assertStatus(r, 422)
        self.assertIn("pending, running, imported, skipped, conflict, failed, excluded", r.json["errors"]["status"][0])
        self.assertIn("create, update, skip, conflict", r.json["errors"]["action"][0])
        self.assertIn("monitor", r.json["errors"]["resource_type"][0])
        self.assertIn("per_page", r.json["errors"])
        # another user's run: 404, like an unknown one
        other = self.user()
        self.assertStatus(other.request("GET", "/api/v1/migrations/%s/resources" % rid), 404)
        # read scope needed
        writer = self.user(scopes=["account:write"])
        self.assertStatus(writer.request("GET", "/api/v1/migrations/%s/resources" % rid), 403)

    def test_an_unfiltered_total_is_the_kept_one_or_counted_live(self):
        """Unfiltered, a page's total is the run's kept total (sql/009) while it has
        one, and the resources counted while the run has none."""
        user = self.user()
        rid = self.run_with(user, n=4)
        path = "/api/v1/migrations/%s/resources" % rid
        # as discovery's end keeps them
        self.stack.sql("UPDATE migration_runs SET total_resources = 5, failed_resources = 0 WHERE id = %s" % q(rid))
        body = user.request("GET", path).json
        self.assertEqual((body["meta"]["total"], len(body["data"])), (5, 5))
        # discovering, as while its resources arrive: no kept total, one more resource
        self.stack.sql("UPDATE migration_runs SET status = 'discovering', total_resources = NULL, "
                       "failed_resources = NULL WHERE id = %s; "
                       "INSERT INTO migration_run_resources (run_id, resource_type, external_id, name, status, "
                       "created_at, updated_at) VALUES (%s, 'monitor', 'late', 'Late', 'pending', NOW(6), NOW(6))"
                       % (q(rid), q(rid)))
        body = user.request("GET", path).json
        self.assertEqual((body["meta"]["total"], body["data"][-1]["name"]), (6, "Late"))
        body = user.request("GET", path + "?per_page=2&page=3").json
        self.assertEqual((body["meta"]["total"], [x["name"] for x in body["data"]]), (6, ["Shop 3", "Late"]))
        self.assertStatus(self.user().request("GET", path), 404)

    def test_plan_reasons_say_why(self):
        user = self.user()
        rid = self.run_with(user, n=3)
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "paused_conflicts")), "completed")
        items = {x["external_id"]: x for x in self.get(user, rid)["data"]["resources"]}
        self.assertEqual(items["m00"]["reason"], "New: no monitor in your account has the same type and URL.")
        rid2 = self.run_with(user, n=3)
        self.execute(user, rid2)
        self.assertEqual(self.drive(rid2, ("completed", "paused_conflicts")), "completed")
        items = {x["external_id"]: x for x in self.get(user, rid2)["data"]["resources"]}
        target = self.stack.sql_value("SELECT target_id FROM migration_run_resources WHERE run_id=%s AND "
                                      "external_id='m00'" % q(rid))
        self.assertEqual(items["m00"]["reason"],
                         'Imported before from this UptimeRobot account as monitor "Shop 0" at '
                         'https://shop0.example.com/health (no. %s): it will be updated.' % target)

    def test_exclude_and_include_before_execute(self):
        user = self.user()
        rid = self.run_with(user, n=10)
        ids = {x["external_id"]: x["id"] for x in self.get(user, rid)["data"]["resources"]}
        r = user.request("POST", "/api/v1/migrations/%s/resources/exclude" % rid,
                         body={"ids": [ids["m01"], ids["m02"], ids["m03"]]})
        self.assertStatus(r, 200)
        self.assertEqual(r.json["changed"], 3)
        r = user.request("POST", "/api/v1/migrations/%s/resources/include" % rid, body={"ids": [ids["m03"]]})
        self.assertStatus(r, 200)
        self.assertEqual(r.json["changed"], 1)
        # excluding again changes nothing; an id of another run is refused, and nothing changes
        r = user.request("POST", "/api/v1/migrations/%s/resources/exclude" % rid, body={"ids": [ids["m01"]]})
        self.assertEqual(r.json["changed"], 0)
        other = self.run_with(user, n=1)
        foreign = self.get(user, other)["data"]["resources"][0]["id"]
        r = user.request("POST", "/api/v1/migrations/%s/resources/exclude" % rid, body={"ids": [ids["m04"], foreign]})
        self.assertStatus(r, 422)
        self.assertIn("ids", r.json["errors"])
        self.assertEqual(self.stack.sql_value("SELECT status FROM migration_run_resources WHERE id=%d" % ids["m04"]),
                         "pending")
        body = self.get(user, rid)
        self.assertEqual(body["meta"]["resource_counts"]["excluded"], 2)
        r = user.request("GET", "/api/v1/migrations/%s/resources?status=excluded" % rid)
        self.assertEqual(sorted(x["external_id"] for x in r.json["data"]), ["m01", "m02"])
        self.execute(user, rid)
        # not while executing
        r = user.request("POST", "/api/v1/migrations/%s/resources/include" % rid, body={"ids": [ids["m01"]]})
        self.assertStatus(r, 422)
        self.assertEqual(r.json["code"], "run_not_awaiting_review")
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors")), "completed")
        run = self.get(user, rid)["data"]
        self.assertEqual(run["stats"]["imported"], 9)
        self.assertEqual(run["stats"]["progress"], 1)
        urls = [r[0] for r in self.stack.sql("SELECT url FROM monitors WHERE user_id=%d" % user.id)]
        self.assertNotIn("https://shop1.example.com/health", urls)
        self.assertNotIn("https://shop2.example.com/health", urls)
        self.assertIn("https://shop3.example.com/health", urls)
        self.assertEqual(self.stack.sql_value("SELECT status FROM migration_run_resources WHERE id=%d" % ids["m01"]),
                         "excluded")

    def test_a_link_to_an_excluded_or_unknown_contact_is_named_in_the_log(self):
        # m00 and m01 alert c1 (excluded at review) and c9 (not at the provider); m02 alerts nobody
        user = self.user()
        items = [("contact", "c1", {"name": "Ops", "type": "email", "value": "ops@example.com"}),
                 ("contact", "c2", {"name": "Dev", "type": "email", "value": "dev@example.com"})]
        items += [("monitor", "m%02d" % i, monitor(i, contact_ids=["c1", "c2", "c9"] if i < 2 else []))
                  for i in range(3)]
        rid = self.synthetic_run(user, "uptimerobot", items)
        self.stack.sql("UPDATE " + harness.WITH_DATA + " SET r.name = JSON_VALUE(d.normalized_data, '$.name') "
                       "WHERE r.run_id=%s" % q(rid))
        c1 = self.stack.sql_value("SELECT id FROM migration_run_resources WHERE run_id=%s AND external_id='c1'"
                                  % q(rid))
        r = user.request("POST", "/api/v1/migrations/%s/resources/exclude" % rid, body={"ids": [int(c1)]})
        self.assertStatus(r, 200)
        # the review says it at once: which monitors will not alert the contact left out
        said = [e for e in self.logs(user, rid) if e["level"] == "warning"]
        self.assertEqual([e["message"] for e in said], [
            "2 alert links to contacts left out will not be imported; these monitors and heartbeats will not "
            "alert them: Shop 0 \u2192 Ops, Shop 1 \u2192 Ops."])
        self.assertEqual(said[0]["context"]["lost_alert_links"], 2)
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors")), "completed")
        warnings = [e["message"] for e in self.logs(user, rid) if e["level"] == "warning"]
        for i in range(2):
            self.assertIn('Imported monitor "Shop %d" (external id m%02d) without its alert links to these contacts, '
                          "which were not imported (not found at the provider, excluded, failed or skipped): "
                          '"Ops" (c1), c9.' % (i, i), warnings)
        self.assertFalse([w for w in warnings if "m02" in w], warnings)
        # c2 is linked, c1 and c9 are not
        linked = self.stack.sql("SELECT m.name, c.value FROM monitor_contacts l JOIN monitors m ON m.id = "
                                "l.monitor_id JOIN contacts c ON c.id = l.contact_id WHERE m.user_id=%d "
                                "ORDER BY m.name" % user.id)
        self.assertEqual([tuple(x) for x in linked], [("Shop 0", "dev@example.com"), ("Shop 1", "dev@example.com")])

    def test_the_tools_list_and_select_resources(self):
        user = self.user(scopes=["account:read", "account:write", "mcp:use"])
        rid = self.run_with(user, n=5)
        names = [t["name"] for t in self.mcp(user, "tools/list", {})["result"]["tools"]]
        for t in ("migration-resources", "migration-resources-exclude", "migration-resources-include"):
            self.assertIn(t, names)
        res = self.mcp(user, "tools/call", {"name": "migration-resources",
                                            "arguments": {"id": rid, "resource_type": "monitor", "per_page": 2}})
        sc = res["result"]["structuredContent"]
        self.assertEqual((len(sc["data"]), sc["meta"]["total"]), (2, 5))
        res = self.mcp(user, "tools/call", {"name": "migration-resources", "arguments": {"id": rid, "per_page": 51}})
        self.assertTrue(res["result"].get("isError") or "error" in res)
        first = sc["data"][0]["id"]
        res = self.mcp(user, "tools/call", {"name": "migration-resources-exclude",
                                            "arguments": {"id": rid, "ids": [first]}})
        self.assertEqual(res["result"]["structuredContent"]["changed"], 1)
        res = self.mcp(user, "tools/call", {"name": "migration-resources-include",
                                            "arguments": {"id": rid, "ids": [first]}})
        self.assertEqual(res["result"]["structuredContent"]["changed"], 1)
        # every monitor at once, by filter
        res = self.mcp(user, "tools/call", {"name": "migration-resources-exclude",
                                            "arguments": {"id": rid, "resource_type": "monitor"}})
        self.assertEqual(res["result"]["structuredContent"]["changed"], 5)

    def test_exclude_and_include_everything_a_filter_matches(self):
        # 2,500 monitors (more than one statement's thousand) and a contact; "Shop 1…" names 1,111 of them
        user = self.user()
        rid = self.run_with(user, n=2500)
        path = "/api/v1/migrations/%s/resources/" % rid
        r = user.request("POST", path + "exclude", body={"resource_type": "monitor"})
        self.assertStatus(r, 200)
        self.assertEqual(r.json["changed"], 2500)
        counts = self.get(user, rid)["meta"]["resource_counts"]
        self.assertEqual((counts["excluded"], counts["pending"]), (2500, 1))
        # filters narrow together: excluded monitors whose name contains "shop 1" (any case)
        r = user.request("POST", path + "include", body={"status": "excluded", "q": "shop 1"})
        self.assertEqual(r.json["changed"], 1 + 10 + 100 + 1000)
        r = user.request("GET", path[:-1] + "?status=pending&q=shop%201&per_page=1")
        self.assertEqual(r.json["meta"]["total"], 1111)
        # LIKE wildcards in q are plain text: nothing matches "%"
        r = user.request("POST", path + "include", body={"q": "%"})
        self.assertEqual(r.json["changed"], 0)
        # neither ids nor a filter, or both: a 422 on ids, and nothing changes
        for body in ({}, {"ids": [1], "resource_type": "monitor"}):
            r = user.request("POST", path + "exclude", body=body)
            self.assertStatus(r, 422)
            self.assertIn("ids", r.json["errors"])
        r = user.request("POST", path + "exclude", body={"status": "finished"})
        self.assertStatus(r, 422)
        self.assertIn("status", r.json["errors"])
        self.assertEqual(self.get(user, rid)["meta"]["resource_counts"]["excluded"], 2500 - 1111)
        # only while the run awaits review
        self.execute(user, rid)
        r = user.request("POST", path + "include", body={"resource_type": "monitor"})
        self.assertStatus(r, 422)
        self.assertEqual(r.json["code"], "run_not_awaiting_review")


class TestProgressMoves(RunnerTestCase):

    def steps(self, user, rid, key, until, budget, timeout=180):
        """Run the runner one step at a time, each ending after `budget`
        resources (on any machine), and read the run after each; returns the
        values of stats[key] (a function of stats) seen, in order."""
        seen = []
        deadline = time.time() + timeout
        while time.time() < deadline:
            self.runner("--once", "--max-jobs", "1", "--step-resources", str(budget))
            run = self.get(user, rid)["data"]
            v = key(run["stats"])
            if not seen or seen[-1] != v:
                seen.append(v)
            if run["status"] in until:
                break
        return seen

    def test_discovery_counts_grow_page_by_page(self):
        key = self.account(monitors=300, heartbeats=0, contacts=1, status_pages=0)
        user = self.user()
        rid = self.start(user, key)
        # a step ends after the page that reaches 50 resources: one page of monitors a step
        seen = self.steps(user, rid, lambda s: (s["discovered"].get("monitor", 0), sum(s["discovered"].values()),
                                                s.get("activity")), ("awaiting_review", "failed"), 50)
        self.assertEqual(self.stack.run_status(rid), "awaiting_review")
        rising = [v for v, _, _ in seen if v > 0]
        self.assertGreaterEqual(len(rising), 3, seen)
        self.assertEqual(rising, sorted(rising))
        self.assertEqual(rising[-1], 300)
        # stats.activity says what the runner reads and how much it found so far
        reading = [(found, a) for v, found, a in seen if 0 < v < 300]
        for found, a in reading:
            self.assertEqual((a["doing"], a["kind"], a["done"]), ("discovering", "monitor", found), a)
            self.assertNotIn("total", a)
            self.assertTrue(a["since"].endswith("Z"))
        self.assertGreaterEqual(len(reading), 3, seen)
        self.assertNotIn("activity", self.get(user, rid)["data"]["stats"], "gone once the run awaits review")

    def test_import_progress_rises_while_resources_finish(self):
        user = self.user()
        n = 6000
        items = [("monitor", "m%05d" % i, monitor(i)) for i in range(n)]
        rid = self.synthetic_run(user, "uptimerobot", items)
        self.execute(user, rid)
        seen = self.steps(user, rid, lambda s: (s["progress"], s.get("activity")),
                          ("completed", "completed_with_errors"), 1000)
        self.assertEqual(self.stack.run_status(rid), "completed")
        progress = [p for p, _ in seen]
        inside = [p for p in progress if 0 < p < 1]
        self.assertGreaterEqual(len(inside), 3, seen)
        self.assertEqual(progress, sorted(progress), "progress only rises")
        self.assertEqual(progress[-1], 1)
        # stats.activity: planning (steps of two batches of 500), then importing, each with done of total
        planning = [a for p, a in seen if a and a["doing"] == "planning"]
        self.assertGreaterEqual(len(planning), 3, seen)
        self.assertEqual({a["total"] for a in planning}, {n})
        # (a step may write the activity again with the same count and a later pace, on a slow machine)
        done = [a["done"] for a in planning]
        self.assertEqual(done, sorted(done), "the plan only moves on")
        self.assertGreaterEqual(len(set(done)), 3, done)
        self.assertTrue(0 < done[0] and done[-1] <= n, done)
        for p, a in seen:
            if a and a["doing"] == "importing":
                self.assertEqual((a["total"], a["done"]), (n, round(p * n)), a)
        self.assertGreaterEqual(len([a for p, a in seen if a and a["doing"] == "importing"]), 3, seen)
        self.assertIsNone(seen[-1][1], "gone once the run is completed")

    def test_after_a_cancel_the_counts_match_the_resources(self):
        user = self.user()
        items = [("monitor", "m%05d" % i, monitor(i)) for i in range(5000)]
        rid = self.synthetic_run(user, "uptimerobot", items)
        self.execute(user, rid)
        # steps of 1,000 resources until the import is under way, then the cancel
        imported_sql = "run_id=%s AND status='imported'" % q(rid)
        while self.stack.count("migration_run_resources", imported_sql) == 0:
            self.runner("--once", "--max-jobs", "1", "--step-resources", "1000")
        r = user.request("POST", "/api/v1/migrations/%s/cancel" % rid)
        self.assertStatus(r, 200)
        self.runner("--once")
        body = self.get(user, rid)
        counts = body["meta"]["resource_counts"]
        imported = self.stack.count("migration_run_resources", imported_sql)
        self.assertTrue(0 < imported < 5000, imported)
        self.assertEqual(counts["imported"], imported)
        self.assertEqual(self.count("monitors", user), imported)
        self.assertEqual(body["data"]["stats"]["imported"], imported)


class TestImportPaused(RunnerTestCase):

    def test_monitors_and_heartbeats_arrive_paused_and_the_run_says_so(self):
        key = self.account(monitors=4, heartbeats=2, contacts=1, status_pages=0, paused_every=0)
        user = self.user()
        r = user.request("POST", "/api/v1/migrations", body={"provider": PROVIDER, "credentials": {"api_key": key},
                                                             "options": {"import_paused": True}})
        self.assertStatus(r, 201)
        rid = r.json["data"]["id"]
        self.assertEqual(r.json["data"]["options"], {"import_paused": True})
        self.drive(rid, "awaiting_review")
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors")), "completed")
        self.assertEqual(self.stack.count("monitors", "user_id=%d AND paused=0" % user.id), 0)
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 4)
        self.assertEqual(self.stack.count("heartbeats", "user_id=%d AND paused=1" % user.id), 2)
        logs = [l for l in self.logs(user, rid) if "left paused" in l["message"]]
        self.assertEqual(len(logs), 1)
        self.assertEqual(logs[0]["context"]["left_paused"], {"heartbeat": 2, "monitor": 4})
        self.assertEqual(self.get(user, rid)["data"]["options"], {"import_paused": True})
        # without the option the provider's own paused state is kept
        rid2 = self.start(user, key)
        self.assertEqual(self.get(user, rid2)["data"]["options"], {"import_paused": False})
        r = user.request("POST", "/api/v1/migrations", body={"provider": PROVIDER, "credentials": {"api_key": key},
                                                             "options": {"import_paused": "yes", "x": 1}})
        self.assertStatus(r, 422)
        self.assertIn("options.import_paused", r.json["errors"])
        self.assertIn("options", r.json["errors"])


class TestPlanAtReview(RunnerTestCase):
    """Issue 25 item 1: when discovery ends each resource gets the action and
    reason the plan gives it, before anything is written; execute plans afresh
    and the log names each resource whose action changed in between."""

    def test_the_plan_is_shown_at_review_and_changes_are_named_on_execute(self):
        key = self.account(monitors=6, heartbeats=1, contacts=2, status_pages=1)
        user, mine = self.user_with_own_copies(key, 2, "CONCAT('Mine ', name)")
        own = {url: (mid, name) for mid, name, url in
               self.stack.sql("SELECT id, name, url FROM monitors WHERE user_id=%d" % user.id)}
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review")
        body = self.get(user, rid)
        items = body["data"]["resources"]
        n = len(items)
        # planned, nothing written: every resource has its action and reason, and is still pending
        self.assertEqual({r["status"] for r in items}, {"pending"})
        self.assertTrue(all(r["action"] and r["reason"] for r in items), items)
        self.assertEqual(body["meta"]["action_counts"], {"create": n - 2, "update": 0, "skip": 0, "conflict": 2})
        self.assertEqual(body["data"]["stats"]["planned"], {"create": n - 2, "conflict": 2})
        self.assertEqual(self.count("monitors", user), 2, "nothing imported at review")
        # a conflict names the object it meets as the user knows it: name, URL and number
        conflicts = [r for r in items if r["action"] == "conflict"]
        for c in conflicts:
            url = self.stack.sql_value("SELECT JSON_VALUE(normalized_data, '$.url') FROM migration_run_resource_data "
                                       "WHERE resource_id=%d" % c["id"])
            mid, name = own[url]
            self.assertEqual(c["reason"], 'Exists: monitor "%s" at %s (no. %s), created in your account (not by an '
                             'import), with the same type and URL. Resolve with skip, overwrite or duplicate.'
                             % (name, url, mid))
        creates = [r for r in items if r["action"] == "create" and r["resource_type"] == "monitor"]
        self.assertEqual(creates[0]["reason"], "New: no monitor in your account has the same type and URL.")
        # the list filters by the planned action
        r = user.request("GET", "/api/v1/migrations/%s/resources?action=conflict" % rid)
        self.assertEqual(sorted(x["id"] for x in r.json["data"]), sorted(c["id"] for c in conflicts))
        # excluding a resource takes it out of the counts; including it brings back its plan
        path = "/api/v1/migrations/%s/resources/" % rid
        self.assertStatus(user.request("POST", path + "exclude", body={"ids": [conflicts[0]["id"]]}), 200)
        self.assertEqual(self.get(user, rid)["meta"]["action_counts"]["conflict"], 1)
        self.assertStatus(user.request("POST", path + "include", body={"ids": [conflicts[0]["id"]]}), 200)
        after = {x["id"]: x for x in self.get(user, rid)["data"]["resources"]}
        self.assertEqual((after[conflicts[0]["id"]]["action"], after[conflicts[0]["id"]]["reason"]),
                         ("conflict", conflicts[0]["reason"]))
        self.assertEqual(self.get(user, rid)["meta"]["action_counts"]["conflict"], 2)
        # between review and execute the account changes: one conflicting monitor is deleted, and a monitor
        # planned as new now exists
        gone = conflicts[1]
        gone_url = self.stack.sql_value("SELECT JSON_VALUE(normalized_data, '$.url') FROM migration_run_resource_data "
                                        "WHERE resource_id=%d" % gone["id"])
        self.stack.sql("DELETE FROM monitors WHERE id=%s" % own[gone_url][0])
        late = creates[1]
        self.stack.sql("INSERT INTO monitors (user_id, name, type, url, interval_s, paused, created_at, updated_at) "
                       "SELECT %d, 'Made meanwhile', JSON_VALUE(normalized_data, '$.type'), "
                       "JSON_VALUE(normalized_data, '$.url'), 60, 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) "
                       "FROM migration_run_resource_data WHERE resource_id=%d" % (user.id, late["id"]))
        written = "SELECT id, updated_at FROM migration_run_resources WHERE run_id=%s" % q(rid)
        before = dict(self.stack.sql(written))
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("paused_conflicts", "completed")), "paused_conflicts")
        # execute's plan writes the decisions that changed (the remaining conflict's status goes from
        # pending to conflict) and leaves the others as the review's plan wrote them
        after = dict(self.stack.sql(written))
        self.assertEqual(sorted(int(i) for i in after if after[i] != before[i]),
                         sorted([gone["id"], late["id"], conflicts[0]["id"]]))
        changed = [l for l in self.logs(user, rid) if "at the review, now as" in l["message"]]
        self.assertEqual(sorted((l["context"]["resource_id"], l["context"]["reviewed"], l["context"]["planned"])
                                for l in changed),
                         sorted([(gone["id"], "conflict", "create"), (late["id"], "create", "conflict")]))
        by_id = {l["context"]["resource_id"]: l for l in changed}
        self.assertEqual(by_id[gone["id"]]["level"], "warning")
        self.assertTrue(by_id[gone["id"]]["message"].startswith(
            'monitor "%s" was planned as conflict at the review, now as create: New: ' % gone["name"]),
            by_id[gone["id"]]["message"])
        self.assertIn('was planned as create at the review, now as conflict: Exists: monitor "Made meanwhile"',
                      by_id[late["id"]]["message"])
        final = {x["id"]: x for x in self.get(user, rid)["data"]["resources"]}
        self.assertEqual((final[gone["id"]]["action"], final[late["id"]]["action"]), ("create", "conflict"))


class TestPreview(ToolsTestCase):
    """Issue 25 item 2: each resource item carries preview, the account fields
    it will write, with who is alerted by name and secrets named, never shown."""

    SECRETS = ("T000/B000/XOXB-1", "Bearer tok-2", "token=tok-3", "hc-ping.com/uuid-4")

    def run_of(self, user):
        items = [
            ("contact", "c1", {"name": "Ops", "type": "email", "value": "ops@example.com"}),
            ("contact", "c2", {"name": "Ops", "type": "slack",
                               "value": "https://hooks.slack.com/services/T000/B000/XOXB-1"}),
            ("contact", "c3", {"name": "Night", "type": "sms", "value": "+15550100"}),
            ("monitor", "m1", {"name": "Shop", "type": "keyword", "url": "https://shop.example.com/health?x=1",
                               "interval": 120, "timeout": 30, "keyword": "Sold out", "keyword_up_when": "absent",
                               "request_headers": {"Authorization": "Bearer tok-2", "Accept": "text/html"},
                               "request_body": "token=tok-3", "paused": False,
                               "contact_ids": ["c1", "c2", "c3", "c9"]}),
            ("monitor", "m2", {"name": "Plain", "type": "http", "url": "https://plain.example.com/"}),
            ("heartbeat", "h1", {"name": "Backup", "interval": 3600, "grace": 300,
                                 "ping_url": "https://hc-ping.com/uuid-4", "contact_ids": ["c1"]}),
            ("invoice", "i1", {"number": "INV-7", "client_id": "cl1", "status": "Unpaid", "date": "2026-11-01",
                               "total": "12.50", "tax": "2.00", "currency": "EUR",
                               "lines": [{"description": "Hosting", "amount": "10.50"},
                                         {"description": "Tax", "amount": "2.00"}]}),
            ("payment", "p1", {"gateway": "paypal", "transaction_id": "TX-1", "amount_in": "12.50",
                               "currency": "EUR", "date": "2026-11-02"}),
        ]
        rid = self.synthetic_run(user, "whmcs", items)
        self.stack.sql("UPDATE " + harness.WITH_DATA + " SET r.name = JSON_VALUE(d.normalized_data, '$.name') "
                       "WHERE r.run_id=%s" % q(rid))
        return rid

    def previews(self, user, rid):
        r = user.request("GET", "/api/v1/migrations/%s/resources?per_page=100" % rid)
        self.assertStatus(r, 200)
        for s in self.SECRETS:
            self.assertNotIn(s, r.text)
        return {x["external_id"]: x["preview"] for x in r.json["data"]}

    def test_what_each_resource_becomes_is_shown_before_execute(self):
        user = self.user(scopes=["account:read", "account:write", "mcp:use"])
        rid = self.run_of(user)
        p = self.previews(user, rid)
        self.assertEqual(p["m1"], {
            "name": "Shop", "type": "keyword", "url": "https://shop.example.com/health?x=1", "port": None,
            "interval_s": 120, "timeout_s": 30, "keyword": "Sold out", "keyword_up_when": "absent",
            "keyword_case_sensitive": None, "http_method": None, "request_headers": ["Authorization", "Accept"],
            "request_body": "(not shown)", "expected_status_codes": None, "follow_redirects": None,
            "verify_ssl": None, "ssl_expiry_days": None, "regions": None, "alert_after_checks": None,
            "alert_after_s": None, "recovery_s": None, "realert_s": None, "muted_until": None,
            "dns_record_type": None, "dns_expected": None, "dns_nameserver": None, "assertions": 0,
            "auth_username": None, "auth_password": None, "paused": False,
            # two contacts named alike are told apart by kind and address; a chat URL is not shown
            "alerts": [{"external_id": "c1", "name": "Ops", "type": "email", "address": "ops@example.com"},
                       {"external_id": "c2", "name": "Ops", "type": "slack", "address": "(not shown)"},
                       {"external_id": "c3", "name": "Night", "type": "sms", "address": "+15550100"}],
            "not_alerted": [{"external_id": "c9", "why": "The contact is not in this run."}]})
        # defaults the import writes: a monitor without interval is checked every 300 s; no keyword, no mode
        self.assertEqual((p["m2"]["interval_s"], p["m2"]["keyword_up_when"], p["m2"]["alerts"]), (300, None, []))
        self.assertEqual(p["h1"], {"name": "Backup", "interval_s": 3600, "grace_s": 300, "schedule": None,
                                   "timezone": None, "ping_url": "(not shown)", "realert_s": None, "paused": False,
                                   "alerts": [{"external_id": "c1", "name": "Ops", "type": "email",
                                               "address": "ops@example.com"}],
                                   "not_alerted": []})
        self.assertEqual(p["c2"], {"name": "Ops", "type": "slack", "value": "(not shown)", "needs_address": False})
        self.assertEqual(p["i1"], {"number": "INV-7", "status": "Unpaid", "invoice_date": "2026-11-01", "due": None,
                                   "paid_at": None, "subtotal": None, "tax": "2.00", "credit": None,
                                   "total": "12.50", "balance": None, "currency": "EUR", "lines": 2})
        self.assertEqual((p["p1"]["amount_in"], p["p1"]["currency"], p["p1"]["paid_on"], p["p1"]["transaction_id"]),
                         ("12.50", "EUR", "2026-11-02", "TX-1"))
        # a contact left out: the monitor says it will not alert it; the run's import_paused shows as paused
        c3 = self.stack.sql_value("SELECT id FROM migration_run_resources WHERE run_id=%s AND external_id='c3'"
                                  % q(rid))
        self.assertStatus(user.request("POST", "/api/v1/migrations/%s/resources/exclude" % rid,
                                       body={"ids": [int(c3)]}), 200)
        self.stack.sql("UPDATE migration_runs SET options='{\"import_paused\":true}' WHERE id=%s" % q(rid))
        p = self.previews(user, rid)
        self.assertEqual([a["address"] for a in p["m1"]["alerts"]], ["ops@example.com", "(not shown)"])
        self.assertEqual(p["m1"]["not_alerted"], [{"external_id": "c3", "name": "Night",
                                                   "why": "The contact is left out of this run."},
                                                  {"external_id": "c9", "why": "The contact is not in this run."}])
        self.assertEqual((p["m1"]["paused"], p["h1"]["paused"]), (True, True))
        # the run detail and the tool carry the same preview
        detail = self.get(user, rid)["data"]["resources"]
        self.assertEqual({x["external_id"]: x["preview"] for x in detail}, p)
        res = self.mcp(user, "tools/call", {"name": "migration-resources",
                                            "arguments": {"id": rid, "resource_type": "monitor", "per_page": 1}})
        self.assertEqual(res["result"]["structuredContent"]["data"][0]["preview"], p["m1"])
        self.assertNotIn("tok-2", json.dumps(res))


class TestReport(ToolsTestCase):
    """Issue 25 item 6: after the run, what was created, updated and skipped, and a to-do list built
    from the run, as JSON and as CSV (GET …/report, the tool migration-report)."""

    def test_the_report_says_what_happened_and_what_is_left_to_do(self):
        user = self.user(scopes=["account:read", "account:write", "mcp:use"])
        items = [
            ("contact", "c1", {"name": "Ops", "type": "email", "value": "ops@example.com"}),
            ("contact", "c2", {"name": "Pager", "type": "webhook", "value": None, "needs_address": True}),
            ("monitor", "m1", monitor(1, contact_ids=["c1"])),
            ("monitor", "m2", monitor(2, name='=HYPERLINK("http://evil.example/","x")')),
            ("heartbeat", "h1", {"name": "Backup, nightly", "interval": 3600, "grace": 300,
                                 "ping_url": "https://hc-ping.com/uuid-9", "contact_ids": ["c2"]}),
            ("incident", "i1", {"name": "Outage"}),
        ]
        rid = self.synthetic_run(user, "healthchecks", items)
        self.stack.sql("UPDATE " + harness.WITH_DATA + " SET r.name = JSON_VALUE(d.normalized_data, '$.name') "
                       "WHERE r.run_id=%s" % q(rid))
        # a monitor imported before: updated this time
        self.stack.sql("INSERT INTO monitors (user_id, name, type, url, interval_s, paused, created_at, updated_at) "
                       "VALUES (%d, 'Old', 'http', 'https://shop1.example.com/health', 60, 0, UTC_TIMESTAMP(6), "
                       "UTC_TIMESTAMP(6))" % user.id)
        old = self.stack.sql_value("SELECT id FROM monitors WHERE user_id=%d" % user.id)
        self.stack.sql("INSERT INTO import_links (user_id, provider, resource_type, external_id, target_model, "
                       "target_id, run_id, created_at, updated_at) VALUES (%d, 'healthchecks', 'monitor', 'm1', "
                       "'monitors', %s, %s, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))" % (user.id, old, q(rid)))
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts")), "completed")
        r = user.request("GET", "/api/v1/migrations/%s/report" % rid)
        self.assertStatus(r, 200)
        d = r.json["data"]
        self.assertEqual((d["id"], d["provider"], d["status"]), (rid, "healthchecks", "completed"))
        self.assertEqual(d["outcomes"], {"created": 4, "updated": 1, "skipped": 1, "failed": 0, "excluded": 0,
                                         "not_done": 0})
        todo = {(t["resource_type"], t["task"]): t for t in d["todo"]}
        self.assertEqual(sorted(todo), [("contact", "add_address"), ("heartbeat", "ping"),
                                        ("incident", "add_by_hand")])
        hb = self.stack.sql_value("SELECT id FROM heartbeats WHERE user_id=%d" % user.id)
        self.assertEqual(todo[("heartbeat", "ping")]["account_id"], int(hb))
        self.assertEqual(todo[("heartbeat", "ping")]["say"],
                         'Point the job that pings "Backup, nightly" at its new check, heartbeat no. %s in your '
                         'account; until then Healthchecks gets its pings.' % hb)
        self.assertIn('Add where "Pager" sends: Healthchecks does not show it', todo[("contact", "add_address")]["say"])
        self.assertIn("resources of type incident are not imported", todo[("incident", "add_by_hand")]["say"])
        # CSV: one row per resource, a formula in a name neutralized, commas quoted
        r = user.request("GET", "/api/v1/migrations/%s/report?format=csv" % rid)
        self.assertStatus(r, 200)
        self.assertEqual(r.header("Content-Type"), "text/csv; charset=utf-8")
        rows = list(csv.reader(io.StringIO(r.text)))
        self.assertEqual(rows[0], ["resource_id", "resource_type", "external_id", "name", "outcome", "account_id",
                                   "to_do"])
        by_ext = {row[2]: row for row in rows[1:]}
        self.assertEqual(len(by_ext), 6)
        self.assertEqual(by_ext["m1"][4:6], ["updated", str(old)])
        self.assertEqual(by_ext["m2"][3], "'" + '=HYPERLINK("http://evil.example/","x")')
        self.assertEqual((by_ext["h1"][3], by_ext["h1"][4]), ("Backup, nightly", "created"))
        self.assertTrue(by_ext["h1"][6].startswith('Point the job that pings "Backup, nightly"'))
        self.assertEqual(by_ext["i1"][4], "skipped")
        self.assertNotIn("uuid-9", r.text)
        # the tool, both forms; a bad format is a 422 naming the allowed ones
        res = self.mcp(user, "tools/call", {"name": "migration-report", "arguments": {"id": rid}})
        self.assertEqual(res["result"]["structuredContent"]["data"]["outcomes"]["created"], 4)
        res = self.mcp(user, "tools/call", {"name": "migration-report", "arguments": {"id": rid, "format": "csv"}})
        self.assertTrue(res["result"]["structuredContent"]["csv"].startswith("resource_id,"))
        r = user.request("GET", "/api/v1/migrations/%s/report?format=xml" % rid)
        self.assertStatus(r, 422)
        self.assertIn("json, csv", r.json["errors"]["format"][0])
        self.assertStatus(self.user().request("GET", "/api/v1/migrations/%s/report" % rid), 404)
