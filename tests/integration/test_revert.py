"""Issue 26: undo a run. POST /api/v1/migrations/{id}/revert (and the tool
migration-revert) deletes what the run created and puts back what it wrote
over, as it was just before; objects changed since, or imported again by
another run, are left as they are and named in the log. Real runner, real
fake provider (tests/fakes), the account tables read back."""

import json

from harness import q
from test_review import ToolsTestCase

MONITOR_COLS = ("name, type, url, interval_s, paused, port, keyword, keyword_up_when, http_method, "
                "request_headers, timeout_s, tags")


class RevertTestCase(ToolsTestCase):

    def revert(self, user, rid, status=202):
        r = user.request("POST", "/api/v1/migrations/%s/revert" % rid)
        self.assertStatus(r, status)
        return r.json

    def imported_run(self, user, key, overwrite=False):
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review")
        self.execute(user, rid)
        st = self.drive(rid, ("paused_conflicts", "completed"))
        if st == "paused_conflicts":
            self.assertTrue(overwrite)
            r = user.request("POST", "/api/v1/migrations/%s/resolve-conflicts" % rid, body={"strategy": "overwrite"})
            self.assertStatus(r, 200)
            self.execute(user, rid)
            self.drive(rid, "completed")
        return rid

    def monitors(self, user):
        """The user's monitors as the account holds them, with their alert contacts' names."""
        rows = self.stack.sql("SELECT id, %s, (SELECT GROUP_CONCAT(c.name ORDER BY c.name) FROM monitor_contacts mc "
                              "JOIN contacts c ON c.id = mc.contact_id WHERE mc.monitor_id = m.id) "
                              "FROM monitors m WHERE user_id=%d ORDER BY id" % (MONITOR_COLS, user.id))
        return {r[0]: r[1:] for r in rows}

    def everything(self, user):
        """Every account table of the user, and the import links, as rows."""
        out = {}
        for t in ("contacts", "monitors", "heartbeats", "status_pages", "maintenance_windows"):
            out[t] = self.stack.sql("SELECT * FROM %s WHERE user_id=%d ORDER BY id" % (t, user.id))
        out["monitor_contacts"] = self.stack.sql(
            "SELECT mc.* FROM monitor_contacts mc JOIN monitors m ON m.id = mc.monitor_id WHERE m.user_id=%d "
            "ORDER BY 1, 2" % user.id)
        out["status_page_monitors"] = self.stack.sql(
            "SELECT x.* FROM status_page_monitors x JOIN status_pages p ON p.id = x.status_page_id "
            "WHERE p.user_id=%d ORDER BY 1, 2" % user.id)
        # a page's history (sql/018; test_fidelity_statuspage.TestStatuspageHistory reverts one that changed)
        out["status_page_incidents"] = self.stack.sql(
            "SELECT x.* FROM status_page_incidents x JOIN status_pages p ON p.id = x.status_page_id "
            "WHERE p.user_id=%d ORDER BY 1, 2" % user.id)
        out["import_links"] = self.stack.sql("SELECT * FROM import_links WHERE user_id=%d ORDER BY 2, 3, 4"
                                             % user.id)
        return out


class TestRevert(RevertTestCase):

    def test_created_objects_go_and_overwritten_ones_come_back_as_they_were(self):
        key = self.account(monitors=6, heartbeats=2, contacts=2, status_pages=1)
        user, mine = self.user_with_own_copies(key, 2, "CONCAT('Mine ', name)")
        # the user's own two monitors, as they are before any import: one alerts a contact of theirs
        self.stack.sql("INSERT INTO contacts (user_id, name, type, value, created_at, updated_at) VALUES "
                       "(%d, 'Desk', 'email', 'desk@example.org', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))" % user.id)
        desk = self.stack.sql_value("SELECT id FROM contacts WHERE user_id=%d" % user.id)
        self.stack.sql("INSERT INTO monitor_contacts (monitor_id, contact_id) VALUES (%s, %s)" % (mine[0], desk))
        self.stack.sql("UPDATE monitors SET keyword='still here', keyword_up_when='present', tags='[\"own\"]' "
                       "WHERE id=%s" % mine[1])
        before = self.everything(user)
        own_monitors = self.monitors(user)
        rid = self.imported_run(user, key, overwrite=True)
        after = self.monitors(user)
        self.assertEqual(len(after), 6)
        for mid in mine:  # overwritten with the provider's monitor
            self.assertNotEqual(after[mid], own_monitors[mid])
        self.assertEqual(self.count("heartbeats", user), 2)

        body = self.revert(user, rid)
        self.assertEqual(body["data"], {"id": rid, "status": "reverting"})
        self.assertIn("object", body["message"])
        self.assertEqual(self.get(user, rid)["data"]["status"], "reverting")
        self.revert(user, rid, 422)  # a second revert, while the first goes on
        self.assertEqual(self.drive(rid, "reverted"), "reverted")

        # the account is as it was before the run: same rows, same values, same links
        self.assertEqual(self.everything(user), before)
        self.assertEqual(self.monitors(user), own_monitors)
        run = self.get(user, rid)["data"]
        self.assertEqual(run["stats"]["revert"], {"objects": 11, "deleted": 9, "restored": 2, "kept": 0,
                                                  "left": 0, "gone": 0})
        self.assertNotIn("activity", run["stats"])
        self.assertIsNotNone(run["finished_at"])
        msgs = [l["message"] for l in self.logs(user, rid)]
        self.assertIn("Reverting: 11 objects the run wrote will be deleted or put back.", msgs)
        self.assertIn("Run reverted: 9 objects deleted, 2 put back as they were; 0 changed since and kept, "
                      "0 left to later runs, 0 already gone.", msgs)
        # a second revert is refused, and so is one of a run that never imported
        err = self.revert(user, rid, 422)
        self.assertEqual(err["code"], "run_not_revertible")
        self.assertEqual(err["message"], "The run is reverted already.")
        # nor can a reverted run's failed resources be imported again
        self.stack.sql("UPDATE migration_run_resources SET status='failed' WHERE run_id='%s' LIMIT 1" % rid)
        r = user.request("POST", "/api/v1/migrations/%s/retry-failed" % rid)
        self.assertStatus(r, 409)
        self.assertEqual(r.json["message"], "The run is reverted: its imports are undone, nothing can be retried.")
        self.assertEqual(self.stack.count("jobs", "run_id='%s'" % rid), 0)

    def test_an_object_changed_since_is_kept_and_named(self):
        key = self.account(monitors=4, heartbeats=1, contacts=2, status_pages=0)
        user = self.user()
        rid = self.imported_run(user, key)
        ids = sorted(int(i) for i in self.monitors(user))
        self.stack.sql("UPDATE monitors SET name='Edited by hand' WHERE id=%d" % ids[1])
        self.stack.sql("DELETE FROM monitors WHERE id=%d" % ids[2])
        # the user's own monitor, made since, alerts one of the imported contacts: that contact stays
        self.stack.sql("INSERT INTO monitors (user_id, name, type, url, interval_s, paused, created_at, updated_at) "
                       "VALUES (%d, 'Mine', 'http', 'https://mine.example/', 60, 0, UTC_TIMESTAMP(6), "
                       "UTC_TIMESTAMP(6))" % user.id)
        own = int(self.stack.sql_value("SELECT MAX(id) FROM monitors WHERE user_id=%d" % user.id))
        used = int(self.stack.sql_value("SELECT MIN(id) FROM contacts WHERE user_id=%d" % user.id))
        self.stack.sql("INSERT INTO monitor_contacts (monitor_id, contact_id) VALUES (%d, %d)" % (own, used))
        # and the contacts the edited monitor alerts stay with it
        staying = {used} | {int(r[0]) for r in self.stack.sql("SELECT contact_id FROM monitor_contacts "
                                                              "WHERE monitor_id=%d" % ids[1])}
        self.revert(user, rid)
        self.drive(rid, "reverted")
        left = self.monitors(user)
        self.assertEqual([int(i) for i in left], [ids[1], own])
        self.assertEqual(left[str(ids[1])][0], "Edited by hand")
        self.assertEqual({int(r[0]) for r in self.stack.sql("SELECT id FROM contacts WHERE user_id=%d" % user.id)},
                         staying)
        self.assertEqual(self.stack.sql("SELECT contact_id FROM monitor_contacts WHERE monitor_id=%d" % own),
                         [(str(used),)])
        self.assertEqual(self.count("heartbeats", user), 0)
        # its link stays, so a later import of the same account updates it rather than copying it
        self.assertEqual({int(r[0]) for r in self.stack.sql("SELECT target_id FROM import_links WHERE user_id=%d"
                                                            % user.id)}, staying | {ids[1]})
        warnings = [l for l in self.logs(user, rid) if l["level"] == "warning"]
        kept = [l for l in warnings if l["context"].get("reverted") == "kept"]
        self.assertEqual(len(kept), 1 + len(staying), warnings)
        monitor = [l for l in kept if l["context"]["resource_type"] == "monitor"]
        self.assertEqual([l["message"] for l in monitor], [
            'Not reverted: monitor "Edited by hand" (no. %d) was changed since the import, or something changed '
            'since uses it: it is kept as it is.' % ids[1]])
        self.assertEqual(monitor[0]["context"]["object_id"], ids[1])
        contacts = [l for l in kept if l["context"]["resource_type"] == "contact"]
        self.assertEqual({l["context"]["object_id"] for l in contacts}, staying)
        self.assertTrue(all(l["message"].startswith('Not reverted: contact "') for l in contacts), contacts)
        self.assertEqual(self.get(user, rid)["data"]["stats"]["revert"],
                         {"objects": 7, "deleted": 5 - len(staying), "restored": 0, "kept": 1 + len(staying), "left": 0,
                          "gone": 1})

    def test_a_re_import_is_undone_to_the_first_import_and_the_first_leaves_what_the_second_wrote(self):
        key = self.account(monitors=3, heartbeats=0, contacts=1, status_pages=0)
        user = self.user()
        first = self.imported_run(user, key)
        ids = sorted(int(i) for i in self.monitors(user))
        self.stack.sql("UPDATE monitors SET interval_s=61 WHERE id=%d" % ids[0])  # the user's own change
        as_first_left_it = self.everything(user)
        second = self.imported_run(user, key)  # updates every object, the changed one back to the provider's
        self.assertNotEqual(self.stack.sql_value("SELECT interval_s FROM monitors WHERE id=%d" % ids[0]), "61")
        # the first run's revert leaves to the second what it imported since
        self.revert(user, first)
        self.drive(first, "reverted")
        self.assertEqual(sorted(int(i) for i in self.monitors(user)), ids)
        left = [l for l in self.logs(user, first) if l["context"] and l["context"].get("reverted") == "left"]
        self.assertEqual(len(left), 4, left)
        self.assertIn("was imported again since, by run %s: it is left to that run." % second, left[0]["message"])
        # the second run's revert puts back what the first left, the user's change included
        self.revert(user, second)
        self.drive(second, "reverted")
        self.assertEqual(self.everything(user), as_first_left_it)

    def test_the_revert_keeps_what_it_did_in_its_job_step_after_step(self):
        """What the revert did so far is a tally its batches write into the job's payload with
        their marks, which its progress reports read (counting the run at each report read all
        of its resources once a second). Step by step (--step-resources, a batch or two a step),
        the job's tally and the run's stats say what the resources' marks say."""
        key = self.account(monitors=250, heartbeats=2, contacts=3, status_pages=1)
        user = self.user()
        rid = self.imported_run(user, key)
        changed = self.stack.sql_value("SELECT MIN(target_id) FROM migration_run_resources WHERE run_id=%s AND "
                                       "resource_type='monitor'" % q(rid))
        self.stack.sql("UPDATE monitors SET interval_s=61 WHERE id=%s" % changed)  # kept by the revert
        names = {("created", "reverted"): "deleted", ("updated", "reverted"): "restored"}

        def marks():
            out = dict.fromkeys(("deleted", "restored", "kept", "left", "gone", "todo"), 0)
            for written, reverted, n in self.stack.sql(
                    "SELECT written, reverted, COUNT(*) FROM migration_run_resources WHERE run_id=%s AND "
                    "written IS NOT NULL GROUP BY written, reverted" % q(rid)):
                out[names.get((written, reverted), reverted or "todo")] += int(n)
            return out

        self.revert(user, rid)
        steps = 0
        while self.stack.run_status(rid) == "reverting":
            self.assertLess(steps, 20)
            self.runner("--once", "--max-jobs", "1", "--step-resources", "100")
            steps += 1
            want = marks()
            payload = self.stack.sql_value("SELECT payload FROM jobs WHERE run_id=%s AND queue='revert'" % q(rid))
            if payload is None:
                break   # the job is done
            self.assertEqual(json.loads(payload), {"revert": want}, "after step %d" % steps)
            stats = self.get(user, rid)["data"]["stats"]
            self.assertEqual(stats["revert"], dict({k: v for k, v in want.items() if k != "todo"},
                                                   objects=sum(want.values())), "after step %d" % steps)
            self.assertEqual(stats["activity"]["done"], sum(want.values()) - want["todo"])
        self.assertEqual(self.stack.run_status(rid), "reverted")
        self.assertGreaterEqual(steps, 3)
        want = marks()
        self.assertEqual(want["todo"], 0)
        self.assertGreaterEqual(want["kept"], 1)   # the monitor, and the contacts it alerts
        self.assertEqual(self.get(user, rid)["data"]["stats"]["revert"],
                         dict({k: v for k, v in want.items() if k != "todo"}, objects=sum(want.values())))

    def test_only_a_finished_run_can_be_reverted(self):
        key = self.account(monitors=2, heartbeats=0, contacts=0, status_pages=0)
        user = self.user()
        rid = self.start(user, key)
        err = self.revert(user, rid, 422)
        self.assertEqual(err["code"], "run_not_revertible")
        self.assertEqual(err["message"], "The run is pending: only a completed, failed or cancelled run can be "
                         "reverted.")
        self.drive(rid, "awaiting_review")
        self.revert(user, rid, 422)
        # cancelled before execute: nothing written, the revert ends at once with nothing to do
        self.assertStatus(user.request("POST", "/api/v1/migrations/%s/cancel" % rid), 200)
        self.revert(user, rid)
        self.drive(rid, "reverted")
        self.assertEqual(self.get(user, rid)["data"]["stats"]["revert"]["objects"], 0)
        # a run that failed at discovery wrote nothing: nothing to revert
        bad = self.start(user, "wrong-key")
        self.drive(bad, "failed")
        err = self.revert(user, bad, 422)
        self.assertEqual(err["message"], "The run failed before it wrote anything into your account: there is "
                         "nothing to revert.")
        # a run imported before imports kept what an undo needs (sql/014) cannot be reverted
        old = self.imported_run(user, self.account(monitors=1, heartbeats=0, contacts=0, status_pages=0))
        self.stack.sql("UPDATE migration_run_resources SET written = NULL WHERE run_id='%s'" % old)
        err = self.revert(user, old, 422)
        self.assertEqual(err["message"], "The run imported before this version kept what an undo needs: it cannot "
                         "be reverted.")
        self.assertEqual(self.stack.run_status(old), "completed")
        # a read-only token may not revert; an unknown run is a 404
        reader = self.user(scopes=["account:read"])
        self.assertStatus(reader.request("POST", "/api/v1/migrations/%s/revert" % rid), 403)
        self.assertStatus(user.request("POST", "/api/v1/migrations/%s/revert"
                                       % "00000000-0000-4000-8000-000000000000"), 404)

    def test_the_tool_asks_for_confirmation(self):
        key = self.account(monitors=2, heartbeats=0, contacts=1, status_pages=0)
        user = self.user(scopes=["account:read", "account:write", "account:delete", "mcp:use"])
        rid = self.imported_run(user, key)
        out = self.mcp(user, "tools/call", {"name": "migration-revert", "arguments": {"id": rid}})
        self.assertTrue(out["result"]["isError"], out)
        self.assertEqual(json.loads(out["result"]["content"][0]["text"])["code"], "confirmation_required")
        self.assertEqual(self.stack.run_status(rid), "completed")
        out = self.mcp(user, "tools/call", {"name": "migration-revert", "arguments": {"id": rid, "confirm": True}})
        self.assertFalse(out["result"].get("isError"), out)
        self.assertEqual(out["result"]["structuredContent"]["data"], {"id": rid, "status": "reverting"})
        self.drive(rid, "reverted")
        self.assertEqual(self.count("monitors", user), 0)
