"""A large run's import is split into chunk jobs (docs/runner.md): several
runners import one run at once, kinds still in import order (contacts before
the monitors that link them), progress rising, nothing lost or done twice,
and cancel stops every chunk.
"""

import time

import harness
from harness import q
from test_runner import RunnerTestCase

CONTACTS = 30
MONITORS = 4500   # more than two chunks of RUNNER_IMPORT_CHUNK (2000)


class TestChunkedImport(RunnerTestCase):

    def large_run(self, user):
        items = [("contact", "c%d" % i, {"name": "C%d" % i, "type": "email", "value": "c%d@example.com" % i})
                 for i in range(CONTACTS)]
        items += [("monitor", "m%05d" % i, {"name": "M%d" % i, "url": "https://m%d.example.com/" % i,
                                            "type": "http", "interval": 60, "paused": False,
                                            "contact_ids": ["c%d" % (i % CONTACTS)]})
                  for i in range(MONITORS)]
        return self.synthetic_run(user, "uptimerobot", items)

    def runners(self, n, tag):
        return [harness.spawn_runner(self.stack, self.cfg, "--max-seconds", "120", "--verbose",
                                     "--worker-id", "%s-%d" % (tag, i)) for i in range(n)]

    def test_several_runners_import_one_large_run_in_kind_order(self):
        user = self.user()
        rid = self.large_run(user)
        self.execute(user, rid)
        procs = self.runners(3, "chunk")
        progress = []
        try:
            deadline = time.time() + 180
            while self.stack.run_status(rid) == "executing" and time.time() < deadline:
                progress.append(self.get(user, rid)["data"]["stats"]["progress"])
                time.sleep(0.3)
        finally:
            for p in procs:
                p.stop()
        self.assertEqual(self.stack.run_status(rid), "completed")
        self.assertEqual(self.count("monitors", user), MONITORS)
        self.assertEqual(int(self.stack.sql_value("SELECT COUNT(DISTINCT url) FROM monitors WHERE user_id=%d"
                                                  % user.id)), MONITORS)
        self.assertEqual(self.count("contacts", user), CONTACTS)
        self.assertEqual(self.stack.count("monitor_contacts mc JOIN monitors m ON m.id = mc.monitor_id",
                                          "m.user_id=%d" % user.id), MONITORS)
        self.assertEqual(self.stack.count("import_links", "user_id=%d" % user.id), MONITORS + CONTACTS)
        self.assertEqual(self.stack.sql("SELECT DISTINCT attempts FROM migration_run_resources WHERE run_id=%s"
                                        % q(rid)), [("1",)], "every resource imported once")
        self.assertEqual(self.get(user, rid)["data"]["stats"]["imported"], MONITORS + CONTACTS)
        # kinds in order: the last contact was imported before the first monitor
        last_contact, first_monitor = self.stack.sql(
            "SELECT (SELECT MAX(updated_at) FROM migration_run_resources WHERE run_id=%s AND resource_type='contact'),"
            " (SELECT MIN(updated_at) FROM migration_run_resources WHERE run_id=%s AND resource_type='monitor')"
            % (q(rid), q(rid)))[0]
        self.assertLessEqual(last_contact, first_monitor)
        # several runners imported monitors of this run
        importers = [p for p in procs if ("(resources, run %s) claimed" % rid) in open(p.log).read()]
        self.assertGreaterEqual(len(importers), 2, "one runner did all the work")
        # progress rose, never fell, and was seen between 0 and 1
        self.assertEqual(progress, sorted(progress))
        self.assertTrue(any(0 < p < 1 for p in progress), progress)

    def test_cancel_stops_every_chunk(self):
        user = self.user()
        rid = self.large_run(user)
        self.execute(user, rid)
        imported_sql = "run_id=%s AND status='imported'" % q(rid)
        procs = self.runners(2, "cancel")
        try:
            deadline = time.time() + 60
            while self.stack.count("migration_run_resources", imported_sql) < CONTACTS + 100 \
                    and time.time() < deadline:
                time.sleep(0.05)
            r = user.request("POST", "/api/v1/migrations/%s/cancel" % rid)
            self.assertStatus(r, 200)
            time.sleep(2)
            at_cancel = self.stack.count("migration_run_resources", imported_sql)
            time.sleep(3)
            self.assertEqual(self.stack.count("migration_run_resources", imported_sql), at_cancel,
                             "imports went on after cancel")
        finally:
            for p in procs:
                p.stop()
        self.assertEqual(self.stack.run_status(rid), "cancelled")
        self.assertLess(at_cancel, MONITORS + CONTACTS)
        self.assertEqual(self.count("monitors", user) + self.count("contacts", user), at_cancel,
                         "what was imported before the cancel stays, once")
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0, "every chunk job dropped")
