"""Integration tests of the review step (issue 11) over HTTP and the tool
interface: resource items with name and reason, the paged and filtered
resource list, exclude/include before execute, progress that moves during
discovery and import, and the start option import_paused.
"""

import json
import time

from harness import q
from test_runner import RunnerTestCase, PROVIDER


def monitor(i, **kw):
    norm = {"name": "Shop %d" % i, "url": "https://shop%d.example.com/health" % i, "type": "http",
            "interval": 60, "paused": False, "port": None, "keyword": None, "contact_ids": []}
    norm.update(kw)
    return norm


class TestResourceList(RunnerTestCase):

    def run_with(self, user, n=30):
        items = [("contact", "c1", {"name": "Ops", "type": "email", "value": "ops@example.com"})]
        items += [("monitor", "m%02d" % i, monitor(i)) for i in range(n)]
        rid = self.synthetic_run(user, "uptimerobot", items)
        # names are stored at discovery; a synthetic run sets them as discovery would
        self.stack.sql("UPDATE migration_run_resources SET name = JSON_VALUE(normalized_data, '$.name') "
                       "WHERE run_id=%s" % q(rid))
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
                                               "reason", "attempts", "error_message"]))
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
                         "Imported before from this uptimerobot account as monitor %s: it will be updated." % target)

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
        self.stack.sql("UPDATE migration_run_resources SET name = JSON_VALUE(normalized_data, '$.name') "
                       "WHERE run_id=%s" % q(rid))
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
                          "c1, c9." % (i, i), warnings)
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

    def mcp(self, user, method, params):
        r = user.request("POST", "/mcp", body={"jsonrpc": "2.0", "id": 1, "method": method, "params": params},
                         headers={"Accept": "application/json, text/event-stream",
                                  "MCP-Protocol-Version": "2025-06-18"})
        self.assertStatus(r, 200)
        return r.json


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
        seen = self.steps(user, rid, lambda s: s["discovered"].get("monitor", 0), ("awaiting_review", "failed"), 50)
        self.assertEqual(self.stack.run_status(rid), "awaiting_review")
        rising = [v for v in seen if v > 0]
        self.assertGreaterEqual(len(rising), 3, seen)
        self.assertEqual(rising, sorted(rising))
        self.assertEqual(rising[-1], 300)

    def test_import_progress_rises_while_resources_finish(self):
        user = self.user()
        n = 6000
        items = [("monitor", "m%05d" % i, monitor(i)) for i in range(n)]
        rid = self.synthetic_run(user, "uptimerobot", items)
        self.execute(user, rid)
        seen = self.steps(user, rid, lambda s: s["progress"], ("completed", "completed_with_errors"), 1000)
        self.assertEqual(self.stack.run_status(rid), "completed")
        inside = [p for p in seen if 0 < p < 1]
        self.assertGreaterEqual(len(inside), 3, seen)
        self.assertEqual(seen, sorted(seen), "progress only rises")
        self.assertEqual(seen[-1], 1)

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
