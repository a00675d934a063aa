"""A large run's import is split into chunk jobs (docs/runner.md): several
runners import one run at once, kinds still in import order (contacts before
the monitors that link them), progress rising, nothing lost or done twice,
and cancel stops every chunk.
"""


import json

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

    def step(self, worker, budget=200):
        """One step of one runner process named worker, ending after `budget` resources."""
        self.runner("--once", "--max-jobs", "1", "--step-resources", str(budget), "--worker-id", worker)

    def imported(self, rid):
        return self.stack.count("migration_run_resources", "run_id=%s AND status='imported'" % q(rid))

    def test_several_runners_import_one_large_run_in_kind_order(self):
        user = self.user()
        rid = self.large_run(user)
        self.execute(user, rid)
        self.runner("--once", "--max-jobs", "1")  # planning splits the run into chunk jobs
        # each chunk carries the run's size, counted once by the split (a step's progress report
        # counted it at each step, a second or two of a short step on a busy box)
        total = self.stack.count("migration_run_resources", "run_id=%s" % q(rid))
        payloads = [json.loads(r[0]) for r in self.stack.sql("SELECT payload FROM jobs WHERE run_id=%s" % q(rid))]
        self.assertGreater(len(payloads), 1)
        self.assertEqual({p.get("total") for p in payloads}, {total})
        while self.stack.count("jobs", "run_id=%s AND queue='planning'" % q(rid)):
            self.step("plan", 500)  # each step ends with its chunk's payload, total and all
            payloads = [json.loads(r[0]) for r in self.stack.sql(
                "SELECT payload FROM jobs WHERE run_id=%s AND queue='planning'" % q(rid))]
            self.assertEqual({p.get("total") for p in payloads} - {total}, set())
            # the plan's progress: every resource but those the chunks left still have to plan, also
            # after a step that ended its chunk (its job's end says it)
            activity = self.get(user, rid)["data"]["stats"]["activity"]
            left = sum(self.stack.count("migration_run_resources", "run_id=%s AND id > %d%s" % (
                q(rid), p["after"], " AND id <= %d" % p["last"] if p.get("last") else "")) for p in payloads)
            if payloads:
                self.assertEqual((activity["doing"], activity["done"], activity["total"]),
                                 ("planning", total - left, total), activity)
        self.assertEqual(activity["doing"], "importing", activity)
        # two runner processes take a step of the import each (steps end after 200 resources,
        # on any machine), then three finish it side by side
        progress = []
        for worker in ("chunk-a", "chunk-b"):
            self.step(worker)
            progress.append(self.get(user, rid)["data"]["stats"]["progress"])
        procs = [harness.spawn_runner(self.stack, self.cfg, "--once", "--step-resources", "500", "--verbose",
                                      "--worker-id", "chunk-%d" % i) for i in range(3)]
        for p in procs:
            p.p.wait(180)
        while self.stack.run_status(rid) == "executing":  # a chunk released behind a gate
            self.step("chunk-z", 5000)
        progress.append(self.get(user, rid)["data"]["stats"]["progress"])
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
        # progress rose, never fell, and was seen between 0 and 1
        self.assertEqual(progress, sorted(progress))
        self.assertTrue(0 < progress[0] < progress[1] < 1, progress)
        self.assertEqual(progress[-1], 1)

    def assertStatsCounted(self, user, rid):
        """With no runner at work, the run's stats say what its resources say: every job's counts
        (sql/020) are in them, none left in a job."""
        stats = self.get(user, rid)["data"]["stats"]
        counts = dict(self.stack.sql("SELECT status, COUNT(*) FROM migration_run_resources WHERE run_id=%s"
                                     " GROUP BY status" % q(rid)))
        self.assertEqual((stats["imported"], stats["failed"]),
                         (int(counts.get("imported", 0)), int(counts.get("failed", 0))), stats)
        self.assertEqual(self.stack.sql_value("SELECT COALESCE(SUM(imported + failed), 0) FROM jobs WHERE run_id=%s"
                                              % q(rid)), "0")

    def test_progress_adds_each_jobs_counts_and_a_retry_while_importing_counts_afresh(self):
        user = self.user()
        rid = self.large_run(user)
        self.execute(user, rid)
        while self.stack.run_status(rid) == "executing" and not self.stack.count(
                "jobs", "run_id=%s AND queue='resources'" % q(rid)):
            self.step("plan", 5000)
        # the plan's end begins the import's activity from the count it made: nothing done yet
        activity = self.get(user, rid)["data"]["stats"]["activity"]
        self.assertEqual((activity["doing"], activity["done"], activity["total"]),
                         ("importing", 0, MONITORS + CONTACTS), activity)
        self.assertStatsCounted(user, rid)
        # three monitors of the first chunk turn unusable between planning and import
        victims = [r["id"] for r in self.resources(rid, "resource_type='monitor'")[:3]]
        good = {v: self.stack.sql_value("SELECT normalized_data FROM migration_run_resource_data WHERE resource_id=%s"
                                        % v) for v in victims}
        self.stack.sql("UPDATE migration_run_resource_data SET normalized_data='{\"name\":\"\",\"url\":null}'"
                       " WHERE resource_id IN (%s)" % ",".join(victims))
        # steps of 200 resources (on any machine), one runner at a time: after each, the stats
        # are the run's counts, though no step counted the run's resources
        while self.stack.count("migration_run_resources", "run_id=%s AND status='failed'" % q(rid)) < 3:
            self.step("chunk-a")
            self.assertStatsCounted(user, rid)
        self.step("chunk-b")
        self.assertStatsCounted(user, rid)
        self.assertEqual(self.get(user, rid)["data"]["stats"]["failed"], 3)
        # repaired and retried while the import goes on: the next report counts afresh
        for v, data in good.items():
            self.stack.sql("UPDATE migration_run_resource_data SET normalized_data=%s WHERE resource_id=%s"
                           % (q(data), v))
        r = user.request("POST", "/api/v1/migrations/%s/retry-failed" % rid)
        self.assertStatus(r, 202)
        steps = 0
        while self.stack.run_status(rid) == "executing":
            self.step("chunk-c", 500)
            steps += 1
            self.assertLess(steps, 100)
            if (self.get(user, rid)["data"]["stats"].get("activity") or {}).get("doing") == "importing":
                self.assertStatsCounted(user, rid)
        self.assertEqual(self.stack.run_status(rid), "completed")
        stats = self.get(user, rid)["data"]["stats"]
        self.assertEqual((stats["imported"], stats["failed"], stats["progress"]), (MONITORS + CONTACTS, 0, 1))
        self.assertEqual(self.count("monitors", user), MONITORS)

    def test_cancel_stops_every_chunk(self):
        user = self.user()
        rid = self.large_run(user)
        self.execute(user, rid)
        while self.imported(rid) < CONTACTS + 100:
            self.step("cancel-steps")
        self.assertGreater(self.stack.count("jobs", "run_id=%s AND queue='resources'" % q(rid)), 1,
                           "chunk jobs are queued")
        r = user.request("POST", "/api/v1/migrations/%s/cancel" % rid)
        self.assertStatus(r, 200)
        at_cancel = self.imported(rid)
        # two runners find the chunk jobs of a cancelled run: they drop every one, import nothing
        procs = [harness.spawn_runner(self.stack, self.cfg, "--once", "--worker-id", "cancel-%d" % i)
                 for i in range(2)]
        for p in procs:
            p.p.wait(60)
        self.runner("--once")
        self.assertEqual(self.imported(rid), at_cancel, "imports went on after cancel")
        self.assertEqual(self.stack.run_status(rid), "cancelled")
        self.assertLess(at_cancel, MONITORS + CONTACTS)
        self.assertEqual(self.count("monitors", user) + self.count("contacts", user), at_cancel,
                         "what was imported before the cancel stays, once")
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0, "every chunk job dropped")
