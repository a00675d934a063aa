"""Integration tests of migrator-runner (issue 3): whole runs over HTTP with
real runner processes against the fake providers (tests/fakes/fakeprov.py,
started by harness.ensure_fakes when run.py was not given --fakes).

The runner under test is the real program; any slowness needed to kill it
mid-step comes from the fake server's `slow` fault, never from the runner.
"""

import json
import os
import signal
import time

import harness
from harness import q

PROVIDER = "uptimerobot"


class RunnerTestCase(harness.ApiTestCase):
    """Shared helpers: one runner config (lease 5 s) pointing at the fakes."""

    @classmethod
    def setUpClass(cls):
        cls.cfg = harness.runner_config(cls.stack, "runner", lease_seconds=5, max_attempts=3,
                                        credentials_retention=3600)

    # -- runs written straight into the database

    def synthetic_run(self, user, provider, items):
        """items: list of (resource_type, external_id, normalized dict). Returns the run id,
        awaiting review."""
        self.stack.drop_leftover_jobs()
        rid = self.stack.insert_run(user.id, status="awaiting_review", provider=provider,
                                    stats={"discovered": {}, "planned": {}, "imported": 0, "skipped": 0,
                                           "failed": 0, "progress": 0})
        self.stack.insert_resource_rows(rid, items)
        return rid

    # -- the fake account

    def account(self, monitors=12, heartbeats=2, contacts=3, status_pages=2, paused_every=5,
                key=None, **extra):
        """Define the fake account, clear its faults and request log, and drop
        queued jobs left by other tests (their runs would call the same fake and
        use up the faults a test queues)."""
        self.stack.drop_leftover_jobs()
        key = key or self.stack.unique("key-")
        body = {"credentials": {"api_key": key},
                "counts": {"monitors": monitors, "heartbeats": heartbeats, "contacts": contacts,
                           "status_pages": status_pages},
                "paused_every": paused_every}
        body.update(extra)
        harness.fake_call(self.stack, "POST", "/_control/%s/account" % PROVIDER, body)
        harness.fake_call(self.stack, "DELETE", "/_control/%s/faults" % PROVIDER)
        harness.fake_call(self.stack, "DELETE", "/_control/requests")
        return key

    def user_with_own_copies(self, key, n, name_sql):
        """A new user who already has (not imported) monitors equal to the first
        n of the provider account's, named by name_sql (SQL over the provider's
        name); the user and the ids of those monitors."""
        # learn the provider's monitors through another user's import
        donor = self.user()
        rid0 = self.start(donor, key)
        self.drive(rid0, "awaiting_review")
        self.execute(donor, rid0)
        self.drive(rid0, "completed")
        user = self.user()
        self.stack.sql("INSERT INTO monitors (user_id, name, type, url, interval_s, paused, created_at, updated_at) "
                       "SELECT %d, %s, type, url, 60, 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) "
                       "FROM monitors WHERE user_id=%d ORDER BY id LIMIT %d" % (user.id, name_sql, donor.id, n))
        return user, [r[0] for r in self.stack.sql("SELECT id FROM monitors WHERE user_id=%d ORDER BY id" % user.id)]

    def faults(self, *faults):
        harness.fake_call(self.stack, "POST", "/_control/%s/faults" % PROVIDER, {"faults": list(faults)})

    def fake_requests(self, since=0):
        out = harness.fake_call(self.stack, "GET", "/_control/requests?provider=%s&since=%s" % (PROVIDER, since))
        if isinstance(out, dict):
            out = out.get("requests") or out.get("data") or []
        return out or []

    # -- runs

    def start(self, user, key):
        r = user.request("POST", "/api/v1/migrations", body={"provider": PROVIDER, "credentials": {"api_key": key}})
        self.assertStatus(r, 201)
        return r.json["data"]["id"]

    def get(self, user, rid):
        r = user.request("GET", "/api/v1/migrations/" + rid)
        self.assertStatus(r, 200)
        return r.json

    def listed_totals(self, user, rid):
        """The run's totals as the run list shows them, and as the run keeps them."""
        r = user.request("GET", "/api/v1/migrations?per_page=100")
        self.assertStatus(r, 200)
        row = [d for d in r.json["data"] if d["id"] == rid][0]
        kept = self.stack.sql("SELECT total_resources, failed_resources FROM migration_runs WHERE id=%s" % q(rid))
        return (row["total_resources"], row["failed_resources"]), kept[0]

    def execute(self, user, rid):
        r = user.request("POST", "/api/v1/migrations/%s/execute" % rid)
        self.assertStatus(r, 202)

    def imported(self, user, key):
        """A run of user on the account of key, started, executed and completed; its id."""
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review")
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts")), "completed")
        return rid

    def logs(self, user, rid):
        out, page = [], 1
        while True:
            r = user.request("GET", "/api/v1/migrations/%s/logs?per_page=100&page=%d" % (rid, page))
            self.assertStatus(r, 200)
            out += r.json["data"]
            if not r.json["links"]["next"]:
                return out
            page += 1

    def runner(self, *args, cfg=None):
        p = harness.run_runner_config(self.stack, cfg or self.cfg, *args)
        self.assertEqual(p.returncode, 0, "runner exited %d:\n%s" % (p.returncode, p.stderr[-3000:]))
        return p

    def drive(self, rid, states, timeout=90, cfg=None):
        """Run `migrator-runner --once` until the run is in one of states."""
        states = (states,) if isinstance(states, str) else tuple(states)
        deadline = time.time() + timeout
        while True:
            self.runner("--once", cfg=cfg)
            st = self.stack.run_status(rid)
            if st in states:
                return st
            if time.time() > deadline:
                self.fail("run %s is %s after %ds, expected %s\nlogs: %s\njobs: %s" % (
                    rid, st, timeout, "/".join(states),
                    self.stack.sql("SELECT level, message FROM migration_run_logs WHERE run_id=%s ORDER BY id" % q(rid)),
                    self.stack.sql("SELECT queue, attempts, available_at, reserved_by FROM jobs WHERE run_id=%s" % q(rid))))
            time.sleep(0.3)

    def wait_sql(self, query, pred, timeout=30, what=""):
        deadline = time.time() + timeout
        while True:
            v = self.stack.sql_value(query)
            if pred(v):
                return v
            if time.time() > deadline:
                self.fail("timed out waiting for %s (last %r)" % (what or query, v))
            time.sleep(0.05)

    def count(self, table, user):
        return self.stack.count(table, "user_id=%d" % user.id)

    def resources(self, rid, where="1"):
        return self.stack.sql_dicts("SELECT id, resource_type, external_id, name, action, status, reason, attempts, "
                                    "error_message, target_model, target_id FROM migration_run_resources WHERE run_id=%s AND %s "
                                    "ORDER BY id" % (q(rid), where))

    def assertNoDuplicates(self, user):
        checks = (("monitors", "type, url"), ("contacts", "type, value, name"), ("heartbeats", "name"),
                  ("status_pages", "name"))
        for table, key in checks:
            dup = self.stack.sql("SELECT %s, COUNT(*) FROM %s WHERE user_id=%d GROUP BY %s HAVING COUNT(*) > 1"
                                 % (key, table, user.id, key))
            self.assertEqual(dup, [], "duplicate %s" % table)

    def assertImportedExactly(self, user, rid, monitors, heartbeats, contacts, status_pages):
        self.assertEqual(self.count("monitors", user), monitors)
        self.assertEqual(self.count("heartbeats", user), heartbeats)
        self.assertEqual(self.count("contacts", user), contacts)
        self.assertEqual(self.count("status_pages", user), status_pages)
        total = monitors + heartbeats + contacts + status_pages
        self.assertEqual(self.stack.count("import_links", "user_id=%d" % user.id), total)
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s" % q(rid)), total)
        self.assertNoDuplicates(user)


class TestRunnerLifecycle(RunnerTestCase):

    def test_whole_run_from_start_to_completed_over_http(self):
        user = self.user()
        key = self.account(monitors=12, heartbeats=2, contacts=3, status_pages=2)
        rid = self.start(user, key)
        self.assertEqual(self.get(user, rid)["data"]["status"], "pending")

        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        run = self.get(user, rid)["data"]
        self.assertEqual(run["stats"]["discovered"],
                         {"monitor": 12, "heartbeat": 2, "contact": 3, "status_page": 2, "maintenance_window": 0})
        self.assertEqual(run["stats"]["progress"], 0)
        self.assertEqual(run["total_resources"], 19)
        self.assertEqual(self.listed_totals(user, rid), ((19, 0), ("19", "0")), "discovery's end kept the totals")
        self.assertIsNotNone(run["started_at"])
        purge = self.stack.sql_value("SELECT TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), credentials_purge_at) "
                                     "FROM migration_runs WHERE id=%s" % q(rid))
        self.assertTrue(3500 <= int(purge) <= 3600, purge)
        self.assertEqual(self.count("monitors", user), 0, "nothing is imported before execute")

        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts")), "completed")
        body = self.get(user, rid)
        run = body["data"]
        self.assertEqual(run["stats"]["planned"], {"create": 19})
        self.assertEqual(run["stats"]["imported"], 19)
        self.assertEqual(run["stats"]["skipped"], 0)
        self.assertEqual(run["stats"]["failed"], 0)
        self.assertEqual(run["stats"]["progress"], 1)
        self.assertIsNotNone(run["finished_at"])
        self.assertEqual(body["meta"]["resource_counts"]["imported"], 19)
        self.assertEqual(self.listed_totals(user, rid), ((19, 0), ("19", "0")), "the completion kept the totals")
        for res in run["resources"]:
            self.assertEqual((res["action"], res["status"], res["attempts"]), ("create", "imported", 1), res)
        self.assertImportedExactly(user, rid, 12, 2, 3, 2)

        # paused state kept as at the provider
        paused_src = int(self.stack.sql_value(
            "SELECT COUNT(*) FROM " + harness.WITH_DATA + " WHERE r.run_id=%s AND r.resource_type='monitor' "
            "AND JSON_VALUE(d.normalized_data, '$.paused') IN ('1', 'true')" % q(rid)))
        self.assertGreater(paused_src, 0)
        self.assertEqual(int(self.stack.sql_value("SELECT SUM(paused) FROM monitors WHERE user_id=%d" % user.id)),
                         paused_src)
        # status pages list the imported monitors, in the provider's order
        rows = self.stack.sql_dicts(
            "SELECT sp.name, spm.position, COALESCE(m.user_id, h.user_id) AS user_id FROM status_pages sp "
            "JOIN status_page_monitors spm ON spm.status_page_id = sp.id LEFT JOIN monitors m ON m.id = spm.monitor_id "
            "LEFT JOIN heartbeats h ON h.id = spm.heartbeat_id WHERE sp.user_id=%d ORDER BY sp.id, spm.position"
            % user.id)
        self.assertGreater(len(rows), 0, "a status page keeps its monitor list")
        for row in rows:
            self.assertEqual(row["user_id"], str(user.id))
        # the page's list matches the provider's monitor ids, mapped through the linkage
        sp = self.stack.sql_dicts(
            "SELECT d.normalized_data, r.target_id FROM " + harness.WITH_DATA + " WHERE r.run_id=%s "
            "AND r.resource_type='status_page' ORDER BY r.id" % q(rid))
        for page in sp:
            want = []
            norm = json.loads(page["normalized_data"])
            if norm["all_monitors"]:  # v2 "monitors": 0, every monitor: all of the run's, in the order found
                want = [r[0] for r in self.stack.sql(
                    "SELECT target_id FROM migration_run_resources WHERE run_id=%s AND resource_type IN "
                    "('monitor','heartbeat') ORDER BY id" % q(rid))]
            for ext in [it["monitor_id"] for it in norm["items"]]:
                t = self.stack.sql_value("SELECT target_id FROM migration_run_resources WHERE run_id=%s AND "
                                         "resource_type IN ('monitor','heartbeat') AND external_id=%s" % (q(rid), q(ext)))
                if t:
                    want.append(t)
            got = [r[0] for r in self.stack.sql(
                "SELECT COALESCE(monitor_id, heartbeat_id) FROM status_page_monitors WHERE status_page_id=%s "
                "ORDER BY position" % page["target_id"])]
            self.assertEqual(got, want)
        # monitors keep their contacts
        self.assertGreater(self.stack.count("monitor_contacts mc JOIN monitors m ON m.id = mc.monitor_id",
                                            "m.user_id=%d" % user.id), 0)
        # logs: one entry per phase, never a secret
        msgs = [l["message"] for l in self.logs(user, rid)]
        for phrase in ("Discovery started", "Discovery finished", "Planning started", "Plan ready", "Run completed"):
            self.assertTrue(any(phrase in m for m in msgs), "no %r log in %s" % (phrase, msgs))
        dump = json.dumps(self.logs(user, rid))
        self.assertNotIn(key, dump)
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0)

    def test_discovery_pages_through_several_pages_of_each_kind(self):
        user = self.user()
        key = self.account(monitors=130, heartbeats=3, contacts=70, status_pages=55)
        since = 0
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review")
        run = self.get(user, rid)["data"]
        self.assertEqual(run["stats"]["discovered"],
                         {"monitor": 130, "heartbeat": 3, "contact": 70, "status_page": 55, "maintenance_window": 0})
        reqs = [r for r in self.fake_requests(since) if r.get("status") == 200]
        offsets = {}
        for r in reqs:
            method = r["path"].rsplit("/", 1)[-1]
            params = dict(r.get("params") or {}, **(r.get("query") or {}))
            offsets.setdefault(method, []).append(int(params.get("offset", 0)))
        self.assertEqual(sorted(offsets.get("getMonitors", [])), [0, 50, 100], offsets)
        self.assertEqual(sorted(offsets.get("getAlertContacts", [])), [0, 50], offsets)
        self.assertEqual(sorted(offsets.get("getPSPs", [])), [0, 50], offsets)
        self.execute(user, rid)
        self.drive(rid, "completed")
        self.assertImportedExactly(user, rid, 130, 3, 70, 55)

    def test_runner_options(self):
        p = harness.run_runner_config(self.stack, self.cfg, "--bogus")
        self.assertEqual(p.returncode, 2)
        p = harness.run_runner_config(self.stack, self.cfg, "--max-seconds", "0")
        self.assertEqual(p.returncode, 2)
        p = harness.run_runner_config(self.stack, self.cfg, "--step-resources", "0")
        self.assertEqual(p.returncode, 2)
        p = harness.run_runner_config(self.stack, "/nonexistent/migrator.conf", "--once")
        self.assertEqual(p.returncode, 1)
        # --max-jobs 1 does exactly one step; --worker-id names the worker
        user = self.user()
        key = self.account(monitors=3, heartbeats=0, contacts=1, status_pages=0)
        rid = self.start(user, key)
        self.runner("--once", "--max-jobs", "1", "--worker-id", "test-worker-7")
        # discovery done; the run is planned for the review by the next job before it awaits review
        self.assertEqual(self.stack.run_status(rid), "discovering")
        self.assertEqual(self.stack.sql("SELECT queue, payload FROM jobs WHERE run_id=%s" % q(rid)),
                         [("planning", '{"review":true}')])
        self.runner("--once", "--max-jobs", "1", "--worker-id", "test-worker-7")
        self.assertEqual(self.stack.run_status(rid), "awaiting_review")
        ctx = [l["context"] for l in self.logs(user, rid) if l["message"].startswith("Discovery started")]
        self.assertEqual(ctx[0].get("worker"), "test-worker-7")
        # MIGRATOR_CONFIG is used without --config
        self.execute(user, rid)
        p = harness.subprocess.run([self.stack.runner_path, "--once"], stdout=harness.subprocess.PIPE,
                                   stderr=harness.subprocess.PIPE, text=True, timeout=60,
                                   env=dict(self.stack._mariadb_env(), MIGRATOR_CONFIG=self.cfg))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.stack.run_status(rid), "completed")
        # without --once the runner waits for work until --max-seconds, then exits 0
        t0 = time.time()
        self.runner("--max-seconds", "2")
        self.assertGreaterEqual(time.time() - t0, 1.5)


class TestRunnerFaults(RunnerTestCase):

    def test_rate_limit_mid_discovery_is_waited_out_then_discovery_finishes(self):
        user = self.user()
        key = self.account(monitors=120, heartbeats=0, contacts=3, status_pages=0)
        self.faults({"kind": "429", "retry_after": 3, "match": "getMonitors", "after": 1, "times": 1})
        since = 0
        rid = self.start(user, key)
        # first page saved, then the 429: waited out (inside the step, or by releasing the job
        # until then: test_ratelimit.py), never counted as a failed attempt
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        self.assertEqual(self.get(user, rid)["data"]["stats"]["discovered"]["monitor"], 120)
        self.assertNotIn("waiting", self.get(user, rid)["data"]["stats"])
        self.assertFalse([l for l in self.logs(user, rid) if "retrying" in l["message"]])
        # the retried request came at least Retry-After seconds after the 429
        reqs = [r for r in self.fake_requests(since) if "getMonitors" in r["path"]]
        limited = [r for r in reqs if r.get("status") == 429]
        self.assertEqual(len(limited), 1, reqs)
        after = [r for r in reqs if r["ts"] > limited[0]["ts"]]
        self.assertTrue(after and after[0]["ts"] - limited[0]["ts"] >= 3, (limited, after[:1]))
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s" % q(rid)), 123)

    def test_bad_key_fails_the_run_with_a_message_free_of_the_key(self):
        user = self.user()
        self.account(monitors=5, key="the-right-key-000")
        bad = "wrong-key-SECRET-%s" % self.stack.unique("k")
        rid = self.start(user, bad)
        self.assertEqual(self.drive(rid, ("failed", "awaiting_review")), "failed")
        run = self.get(user, rid)["data"]
        self.assertTrue(run["error_message"], run)
        self.assertIn("key", run["error_message"].lower())
        self.assertNotIn(bad, run["error_message"])
        self.assertNotIn("SECRET", run["error_message"])
        self.assertIsNotNone(run["finished_at"])
        logs = self.logs(user, rid)
        self.assertNotIn(bad, json.dumps(logs))
        self.assertTrue(any(l["level"] == "error" for l in logs))
        row = self.stack.sql_dicts("SELECT credentials, credentials_purge_at FROM migration_runs WHERE id=%s" % q(rid))[0]
        self.assertIsNone(row["credentials"], "credentials of a failed run are wiped at once")
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0)

    def test_provider_errors_exhaust_the_attempts_then_fail_the_run(self):
        cfg = harness.runner_config(self.stack, "runner-2attempts", lease_seconds=5, max_attempts=2)
        user = self.user()
        key = self.account(monitors=5)
        self.faults({"kind": "503", "match": "getMonitors", "times": 0})
        rid = self.start(user, key)
        self.assertEqual(self.drive(rid, ("failed", "awaiting_review"), timeout=60, cfg=cfg), "failed")
        run = self.get(user, rid)["data"]
        self.assertIn("after 2 attempts", run["error_message"])
        warn = [l for l in self.logs(user, rid) if l["level"] == "warning" and "retrying" in l["message"]]
        self.assertEqual(len(warn), 1)
        self.assertEqual(warn[0]["context"]["reason"], "transient")
        harness.fake_call(self.stack, "DELETE", "/_control/%s/faults" % PROVIDER)

    def test_runner_killed_mid_discovery_is_resumed_without_loss_or_duplicates(self):
        user = self.user()
        key = self.account(monitors=230, heartbeats=2, contacts=3, status_pages=1)
        # pages at offset 0 and 50 go through, the third hangs long enough to be killed in
        self.faults({"kind": "slow", "seconds": 30, "match": "getMonitors", "after": 2, "times": 1})
        since = 0
        rid = self.start(user, key)
        proc = harness.spawn_runner(self.stack, self.cfg, "--max-seconds", "60")
        self.wait_sql("SELECT checkpoint FROM migration_runs WHERE id=%s" % q(rid), lambda v: v == "monitors:100",
                      what="checkpoint monitors:100")
        time.sleep(0.5)
        os.kill(proc.pid, signal.SIGKILL)
        proc.p.wait(10)
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s" % q(rid)), 100)
        self.assertEqual(self.stack.run_status(rid), "discovering")
        # the job is still reserved by the dead runner until its lease runs out
        self.assertIsNotNone(self.stack.sql_value("SELECT reserved_by FROM jobs WHERE run_id=%s" % q(rid)))
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed"), timeout=60), "awaiting_review")
        run = self.get(user, rid)["data"]
        self.assertEqual(run["stats"]["discovered"],
                         {"monitor": 230, "heartbeat": 2, "contact": 3, "status_page": 1, "maintenance_window": 0})
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s" % q(rid)), 236)
        # resumed at the checkpoint: the first two pages were fetched once
        offs = []
        for r in self.fake_requests(since):
            if "getMonitors" in r["path"]:
                params = dict(r.get("params") or {}, **(r.get("query") or {}))
                offs.append(int(params.get("offset", 0)))
        self.assertEqual(offs.count(0), 1, offs)
        self.assertEqual(offs.count(50), 1, offs)
        self.assertGreaterEqual(offs.count(100), 1, offs)
        self.execute(user, rid)
        self.drive(rid, "completed")
        self.assertImportedExactly(user, rid, 230, 2, 3, 1)

    def test_runner_killed_mid_import_is_finished_without_loss_or_duplicates(self):
        user = self.user()
        total_monitors = 1500
        key = self.account(monitors=total_monitors, heartbeats=2, contacts=5, status_pages=3)
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review", timeout=180)
        self.execute(user, rid)
        total = total_monitors + 2 + 5 + 3
        # planning, then an import step that ends after about 300 resources: the import is under way
        self.runner("--once", "--max-jobs", "1")
        self.runner("--once", "--max-jobs", "1", "--step-resources", "300")
        imported_sql = "SELECT COUNT(*) FROM migration_run_resources WHERE run_id=%s AND status='imported'" % q(rid)
        before = int(self.stack.sql_value(imported_sql))
        self.assertTrue(300 <= before < total, before)
        # the next runner claims the import's continuation and waits for the run row, which this
        # test holds: it is killed there, holding the job's lease, with the import half done
        # (on a Galera cluster, a row lock holds only the sessions of its own node: the runner uses
        # the lock's node)
        with harness.RowLock(self.stack, "SELECT id FROM migration_runs WHERE id=%s FOR UPDATE" % q(rid)) as lock:
            proc = harness.spawn_runner(self.stack, self.cfg, "--max-seconds", "120", "--worker-id", "to-kill",
                                        node=lock.node)
            self.wait_sql("SELECT reserved_by FROM jobs WHERE run_id=%s" % q(rid), lambda v: v == "to-kill",
                          what="the import job claimed")
            deadline = time.time() + 60
            while lock.waiting("SELECT status FROM migration_runs WHERE id = ? LOCK IN SHARE MODE") == 0:
                self.assertLess(time.time(), deadline, "the runner never reached the run row")
                time.sleep(0.15)
            os.kill(proc.pid, signal.SIGKILL)
            proc.p.wait(10)
        self.assertEqual(self.stack.sql_value("SELECT reserved_by FROM jobs WHERE run_id=%s" % q(rid)), "to-kill",
                         "the killed runner's lease holds the job")
        imported = int(self.stack.sql_value(imported_sql))
        self.assertEqual(imported, before, "the killed runner wrote nothing")
        # every imported resource has exactly one target row and link, and nothing more
        rows = (self.count("monitors", user) + self.count("contacts", user) + self.count("heartbeats", user)
                + self.count("status_pages", user))
        self.assertEqual(rows, imported, "account rows == imported resources at the moment of the kill")
        self.assertEqual(self.stack.count("import_links", "user_id=%d" % user.id), imported)
        self.assertEqual(self.stack.run_status(rid), "executing")
        # once the lease has run out, another runner finishes the import
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors"), timeout=120), "completed")
        self.assertImportedExactly(user, rid, total_monitors, 2, 5, 3)
        attempts = self.stack.sql("SELECT attempts, COUNT(*) FROM migration_run_resources WHERE run_id=%s "
                                  "GROUP BY attempts" % q(rid))
        self.assertEqual(attempts, [("1", str(total))], "each resource imported by exactly one committed attempt")
        self.assertEqual(self.get(user, rid)["data"]["stats"]["imported"], total)

    def test_two_runners_in_parallel_never_do_the_same_work_twice(self):
        users = [self.user(), self.user(), self.user()]
        key = self.account(monitors=400, heartbeats=5, contacts=20, status_pages=4)
        rids = [self.start(u, key) for u in users]
        procs = [harness.spawn_runner(self.stack, self.cfg, "--max-seconds", "90", "--worker-id", "par-%d" % i)
                 for i in range(2)]
        try:
            for rid in rids:
                self.wait_sql("SELECT status FROM migration_runs WHERE id=%s" % q(rid),
                              lambda v: v in ("awaiting_review", "failed"), timeout=90)
            for u, rid in zip(users, rids):
                self.assertEqual(self.stack.run_status(rid), "awaiting_review")
                self.execute(u, rid)
            for rid in rids:
                self.wait_sql("SELECT status FROM migration_runs WHERE id=%s" % q(rid),
                              lambda v: v in ("completed", "completed_with_errors"), timeout=120)
        finally:
            for p in procs:
                p.stop()
        for u, rid in zip(users, rids):
            self.assertEqual(self.stack.run_status(rid), "completed")
            self.assertImportedExactly(u, rid, 400, 5, 20, 4)
            self.assertEqual(self.stack.sql("SELECT DISTINCT attempts FROM migration_run_resources WHERE run_id=%s"
                                            % q(rid)), [("1",)])
        workers = set(r[0] for r in self.stack.sql(
            "SELECT JSON_VALUE(context, '$.worker') FROM migration_run_logs WHERE run_id IN (%s) "
            "AND message LIKE 'Discovery started%%'" % ",".join(q(r) for r in rids)))
        self.assertTrue(workers <= {"par-0", "par-1"}, workers)


class TestRunnerPlanning(RunnerTestCase):

    def test_reimporting_the_same_account_updates_instead_of_copying(self):
        user = self.user()
        key = self.account(monitors=15, heartbeats=2, contacts=3, status_pages=2)
        first = self.imported(user, key)
        self.assertImportedExactly(user, first, 15, 2, 3, 2)
        ids_before = self.stack.sql("SELECT id FROM monitors WHERE user_id=%d ORDER BY id" % user.id)
        # the provider renames some monitors meanwhile
        harness.fake_call(self.stack, "POST", "/_control/%s/mutate" % PROVIDER,
                          {"rename_prefix": "Renamed", "rename_every": 3})
        # deleting the first run keeps what it imported
        r = user.request("DELETE", "/api/v1/migrations/" + first)
        self.assertStatus(r, (200, 204))
        self.assertEqual(self.count("monitors", user), 15)
        second = self.start(user, key)
        self.drive(second, "awaiting_review")
        self.execute(user, second)
        self.assertEqual(self.drive(second, ("completed", "completed_with_errors", "paused_conflicts")), "completed")
        run = self.get(user, second)["data"]
        self.assertEqual(run["stats"]["planned"], {"update": 22})
        self.assertEqual(set(r["action"] for r in run["resources"]), {"update"})
        self.assertImportedExactly(user, second, 15, 2, 3, 2)
        self.assertEqual(self.stack.sql("SELECT id FROM monitors WHERE user_id=%d ORDER BY id" % user.id), ids_before)
        renamed = int(self.stack.sql_value("SELECT COUNT(*) FROM monitors WHERE user_id=%d AND name LIKE 'Renamed%%'"
                                           % user.id))
        self.assertGreater(renamed, 0, "updates carry the provider's new names")
        # another user importing the same account gets their own copies
        other = self.user()
        third = self.imported(other, key)
        self.assertEqual(self.get(other, third)["data"]["stats"]["planned"], {"create": 22})
        self.assertImportedExactly(other, third, 15, 2, 3, 2)

    def test_a_reimport_with_new_monitors_among_the_updated_gives_each_its_own_values_and_contacts(self):
        # A batch inserts its new monitors together at its end (ST_ACC_MONITOR_INSERT_ROWS) while it
        # updates the others in place: each new one must get its own id, link and alert contacts.
        user = self.user()
        key = self.account(monitors=15, heartbeats=0, contacts=3, status_pages=0)
        self.imported(user, key)
        ids_before = self.stack.sql("SELECT id FROM monitors WHERE user_id=%d ORDER BY id" % user.id)
        harness.fake_call(self.stack, "POST", "/_control/%s/mutate" % PROVIDER,
                          {"counts": {"monitors": 27}, "rename_prefix": "Renamed", "rename_every": 4})
        second = self.imported(user, key)
        self.assertEqual(self.get(user, second)["data"]["stats"]["planned"], {"update": 18, "create": 12})
        self.assertEqual(self.stack.sql("SELECT id FROM monitors WHERE user_id=%d ORDER BY id LIMIT 15" % user.id),
                         ids_before)
        # the same account imported afresh by another user: every monitor a creation
        other = self.user()
        self.imported(other, key)

        def monitors(u):
            return self.stack.sql(
                "SELECT l.external_id, m.name, m.url, m.keyword, m.paused, r.target_id = m.id, "
                "(SELECT GROUP_CONCAT(c.value ORDER BY c.value) FROM monitor_contacts mc JOIN contacts c "
                "ON c.id = mc.contact_id WHERE mc.monitor_id = m.id) FROM import_links l "
                "JOIN monitors m ON m.id = l.target_id AND l.target_model = 'monitors' "
                "JOIN migration_run_resources r ON r.run_id = l.run_id AND r.resource_type = 'monitor' "
                "AND r.external_id = l.external_id WHERE l.user_id = %d ORDER BY l.external_id" % u.id)
        mine = monitors(user)
        self.assertEqual(len(mine), 27)
        self.assertEqual(mine, monitors(other))
        self.assertTrue(all(row[5] == "1" for row in mine), "each resource records the monitor it wrote")
        self.assertGreater(len(set(row[6] for row in mine if row[6])), 1, "monitors alert different contacts")
        self.assertEqual(len(set(row[2] for row in mine)), 27)

    def _conflicting_run(self):
        """A user who already has (not imported) monitors equal to the first
        three of the provider's, and a run paused on those conflicts."""
        key = self.account(monitors=8, heartbeats=0, contacts=2, status_pages=1)
        user, mine = self.user_with_own_copies(key, 3, "CONCAT('Mine ', name)")
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review")
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("paused_conflicts", "completed")), "paused_conflicts")
        return user, rid, mine

    def test_conflicts_pause_the_run_and_each_resolve_strategy_works(self):
        user, rid, mine = self._conflicting_run()
        run = self.get(user, rid)["data"]
        self.assertEqual(run["stats"]["planned"], {"create": 8, "conflict": 3})
        conflicts = [r for r in run["resources"] if r["status"] == "conflict"]
        self.assertEqual(len(conflicts), 3)
        for c in conflicts:
            self.assertEqual(c["action"], "conflict")
            self.assertTrue(c["reason"].startswith("Exists: monitor "), c["reason"])
        self.assertEqual(self.count("monitors", user), 3, "nothing imported while paused")
        self.assertTrue(any(l["level"] == "warning" and "conflict" in l["message"] for l in self.logs(user, rid)))
        # the runner leaves a paused run alone
        self.runner("--once")
        self.assertEqual(self.stack.run_status(rid), "paused_conflicts")

        by_ext = {c["external_id"]: c for c in conflicts}
        exts = sorted(by_ext)
        target_of = {}
        for ext in exts:
            url = self.stack.sql_value("SELECT JSON_VALUE(d.normalized_data, '$.url') FROM " + harness.WITH_DATA +
                                       " WHERE r.run_id=%s AND r.external_id=%s AND r.resource_type='monitor'"
                                       % (q(rid), q(ext)))
            target_of[ext] = self.stack.sql_value("SELECT id FROM monitors WHERE user_id=%d AND url=%s" % (user.id, q(url)))
        plan = [("skip", exts[0]), ("overwrite", exts[1]), ("duplicate", exts[2])]
        for strategy, ext in plan:
            r = user.request("POST", "/api/v1/migrations/%s/resolve-conflicts" % rid,
                             body={"strategy": strategy, "resource_ids": [by_ext[ext]["id"]]})
            self.assertStatus(r, 200)
        self.assertEqual(self.stack.run_status(rid), "awaiting_review")
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts")), "completed")
        res = {r["external_id"]: r for r in self.resources(rid, "resource_type='monitor'")}
        # skip: not imported, the user's own monitor untouched
        self.assertEqual((res[exts[0]]["action"], res[exts[0]]["status"]), ("skip", "skipped"))
        self.assertTrue(self.stack.sql_value("SELECT name FROM monitors WHERE id=%s" % target_of[exts[0]]).startswith("Mine "))
        # overwrite: the user's monitor now carries the provider's data, and is linked
        self.assertEqual((res[exts[1]]["action"], res[exts[1]]["status"]), ("update", "imported"))
        self.assertEqual(res[exts[1]]["target_id"], target_of[exts[1]])
        self.assertFalse(self.stack.sql_value("SELECT name FROM monitors WHERE id=%s" % target_of[exts[1]]).startswith("Mine "))
        # duplicate: a second monitor with the same URL next to the user's own
        self.assertEqual((res[exts[2]]["action"], res[exts[2]]["status"]), ("create", "imported"))
        self.assertNotEqual(res[exts[2]]["target_id"], target_of[exts[2]])
        url2 = self.stack.sql_value("SELECT url FROM monitors WHERE id=%s" % target_of[exts[2]])
        self.assertEqual(self.stack.count("monitors", "user_id=%d AND url=%s" % (user.id, q(url2))), 2)
        # 3 own + 5 created + 1 duplicate; the overwritten one is reused, the skipped one not imported
        self.assertEqual(self.count("monitors", user), 3 + 5 + 1)
        run = self.get(user, rid)["data"]
        self.assertEqual(run["stats"]["skipped"], 1)
        self.assertEqual(run["stats"]["imported"], 10)
        # the status page lists the skipped monitor as the user's own one (kept), the others as imported
        self.assertEqual(self.count("status_pages", user), 1)

    def test_resolving_all_conflicts_with_skip_completes_without_touching_the_account(self):
        user, rid, mine = self._conflicting_run()
        before = self.stack.sql("SELECT id, name, url FROM monitors WHERE user_id=%d ORDER BY id" % user.id)
        r = user.request("POST", "/api/v1/migrations/%s/resolve-conflicts" % rid, body={"strategy": "skip"})
        self.assertStatus(r, 200)
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "paused_conflicts")), "completed")
        after = self.stack.sql("SELECT id, name, url FROM monitors WHERE user_id=%d AND id IN (%s) ORDER BY id"
                               % (user.id, ",".join(mine)))
        self.assertEqual(after, before)
        self.assertEqual(self.get(user, rid)["data"]["stats"]["planned"].get("conflict"), None)

    def test_failed_import_then_retry_failed(self):
        user = self.user()
        key = self.account(monitors=6, heartbeats=0, contacts=2, status_pages=0)
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review")
        self.execute(user, rid)
        self.runner("--once", "--max-jobs", "1")  # planning only
        self.assertEqual(self.stack.count("jobs", "run_id=%s AND queue='resources'" % q(rid)), 1)
        # one resource's data turns unusable between planning and import
        victim = self.resources(rid, "resource_type='monitor'")[0]
        good = self.stack.sql_value("SELECT normalized_data FROM migration_run_resource_data WHERE resource_id=%s"
                                    % victim["id"])
        self.stack.sql("UPDATE migration_run_resource_data SET normalized_data='{\"name\":\"\",\"url\":null}' "
                       "WHERE resource_id=%s" % victim["id"])
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors")), "completed_with_errors")
        run = self.get(user, rid)["data"]
        self.assertEqual(run["failed_resources"], 1)
        self.assertEqual(run["stats"]["failed"], 1)
        failed = self.resources(rid, "status='failed'")
        self.assertEqual(len(failed), 1)
        self.assertTrue(failed[0]["error_message"].startswith("Import failed"))
        self.assertEqual(failed[0]["attempts"], "1")
        errs = self.req("GET", "/api/v1/migrations/%s/logs?errors_only=true" % rid, token=user.token).json["data"]
        self.assertTrue(any(e["context"].get("resource_id") == int(victim["id"]) for e in errs), errs)
        # repaired, then retried
        self.stack.sql("UPDATE migration_run_resource_data SET normalized_data=%s WHERE resource_id=%s"
                       % (q(good), victim["id"]))
        r = user.request("POST", "/api/v1/migrations/%s/retry-failed" % rid)
        self.assertStatus(r, 202)
        self.assertEqual(r.json["retried"], 1)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors")), "completed")
        res = self.resources(rid, "id=%s" % victim["id"])[0]
        self.assertEqual(res["status"], "imported")
        self.assertEqual(res["attempts"], "2", "attempts are cumulative")
        self.assertImportedExactly(user, rid, 6, 0, 2, 0)
        self.assertEqual(self.get(user, rid)["data"]["stats"]["failed"], 0)


class TestRunnerCancelDeletePurge(RunnerTestCase):

    def _cancel(self, user, rid):
        r = user.request("POST", "/api/v1/migrations/%s/cancel" % rid)
        self.assertStatus(r, 200)
        self.assertEqual(self.stack.run_status(rid), "cancelled")

    def test_cancel_in_every_cancellable_state_stops_the_work(self):
        key = self.account(monitors=120, heartbeats=0, contacts=2, status_pages=0)
        # pending: the runner never starts discovery
        user = self.user()
        rid = self.start(user, key)
        self._cancel(user, rid)
        self.runner("--once")
        self.assertEqual(self.stack.run_status(rid), "cancelled")
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s" % q(rid)), 0)

        # discovering: a runner mid-fetch drops its page
        self.faults({"kind": "slow", "seconds": 4, "match": "getMonitors", "after": 1, "times": 1})
        rid = self.start(user, key)
        proc = harness.spawn_runner(self.stack, self.cfg, "--once")
        self.wait_sql("SELECT checkpoint FROM migration_runs WHERE id=%s" % q(rid), lambda v: v == "monitors:50")
        self._cancel(user, rid)
        proc.p.wait(30)
        self.assertEqual(proc.p.returncode, 0)
        self.assertEqual(self.stack.run_status(rid), "cancelled")
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s" % q(rid)), 50,
                         "the page fetched after the cancel is not saved")
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0)
        cred = self.stack.sql_value("SELECT credentials IS NULL FROM migration_runs WHERE id=%s" % q(rid))
        self.assertEqual(cred, "1")

        # awaiting_review, executing (before the runner plans) and paused_conflicts
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review")
        self._cancel(user, rid)
        self.runner("--once")
        self.assertEqual(self.stack.run_status(rid), "cancelled")

        other = self.user()
        rid = self.start(other, key)
        self.drive(rid, "awaiting_review")
        self.execute(other, rid)
        self._cancel(other, rid)
        self.runner("--once")
        self.assertEqual(self.stack.run_status(rid), "cancelled")
        self.assertEqual(self.count("monitors", other), 0)

        # executing with imports under way: the runner stops at its next resource
        rid = self.start(other, key)
        self.drive(rid, "awaiting_review")
        self.execute(other, rid)
        self.runner("--once", "--max-jobs", "1")  # planning
        self._cancel(other, rid)
        self.runner("--once")
        self.assertEqual(self.stack.run_status(rid), "cancelled")
        self.assertEqual(self.count("monitors", other), 0)
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s AND status='imported'" % q(rid)), 0)

        # paused_conflicts: the user already has one of the provider's contacts
        mine = self.user()
        donor = self.user()
        d = self.start(donor, key)
        self.drive(d, "awaiting_review")
        self.execute(donor, d)
        self.drive(d, "completed")
        self.stack.sql("INSERT INTO contacts (user_id, name, type, value, created_at, updated_at) "
                       "SELECT %d, name, type, value, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM contacts "
                       "WHERE user_id=%d AND value IS NOT NULL LIMIT 1" % (mine.id, donor.id))
        rid = self.start(mine, key)
        self.drive(rid, "awaiting_review")
        self.execute(mine, rid)
        self.assertEqual(self.drive(rid, ("paused_conflicts", "completed")), "paused_conflicts")
        self._cancel(mine, rid)
        self.runner("--once")
        self.assertEqual(self.stack.run_status(rid), "cancelled")
        # a cancelled run is final
        r = mine.request("POST", "/api/v1/migrations/%s/retry-failed" % rid)
        self.assertStatus(r, 409)

    def test_delete_while_a_runner_works_on_the_run(self):
        user = self.user()
        key = self.account(monitors=160, heartbeats=0, contacts=2, status_pages=0)
        # during discovery
        self.faults({"kind": "slow", "seconds": 4, "match": "getMonitors", "after": 1, "times": 1})
        rid = self.start(user, key)
        proc = harness.spawn_runner(self.stack, self.cfg, "--once")
        self.wait_sql("SELECT checkpoint FROM migration_runs WHERE id=%s" % q(rid), lambda v: v == "monitors:50")
        r = user.request("DELETE", "/api/v1/migrations/" + rid)
        self.assertStatus(r, (200, 204))
        proc.p.wait(30)
        self.assertEqual(proc.p.returncode, 0, harness.tail(proc.log))
        for table in ("migration_runs WHERE id", "migration_run_resources WHERE run_id",
                      "migration_run_logs WHERE run_id", "jobs WHERE run_id"):
            self.assertEqual(self.stack.sql_value("SELECT COUNT(*) FROM %s=%s" % (table, q(rid))), "0", table)

        # during imports: what was imported stays in the account
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review")
        self.execute(user, rid)
        proc = harness.spawn_runner(self.stack, self.cfg, "--once")
        self.wait_sql("SELECT COUNT(*) FROM migration_run_resources WHERE run_id=%s AND status='imported'" % q(rid),
                      lambda v: v is None or int(v) > 0, timeout=30)
        r = user.request("DELETE", "/api/v1/migrations/" + rid)
        self.assertStatus(r, (200, 204))
        proc.p.wait(60)
        self.assertEqual(proc.p.returncode, 0, harness.tail(proc.log))
        kept = self.count("monitors", user) + self.count("contacts", user)
        self.assertGreater(kept, 0)
        self.assertEqual(self.stack.count("import_links", "user_id=%d" % user.id), kept)
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0)
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s" % q(rid)), 0)
        # a later run updates what the deleted one imported
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review")
        self.execute(user, rid)
        self.drive(rid, "completed")
        self.assertEqual(self.get(user, rid)["data"]["stats"]["planned"].get("update"), kept)
        self.assertImportedExactly(user, rid, 160, 0, 2, 0)

    def test_credentials_are_wiped_after_the_purge_time(self):
        cfg = harness.runner_config(self.stack, "runner-purge", lease_seconds=5, credentials_retention=1)
        user = self.user()
        key = self.account(monitors=3, heartbeats=0, contacts=1, status_pages=0)
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review", cfg=cfg)
        row = self.stack.sql_dicts("SELECT credentials IS NOT NULL AS has, credentials_purge_at FROM migration_runs "
                                   "WHERE id=%s" % q(rid))[0]
        self.assertEqual(row["has"], "1")
        self.assertIsNotNone(row["credentials_purge_at"])
        time.sleep(2.2)
        self.runner("--once", cfg=cfg)
        row = self.stack.sql_dicts("SELECT credentials, credentials_key_id, credentials_purge_at FROM migration_runs "
                                   "WHERE id=%s" % q(rid))[0]
        self.assertEqual(row, {"credentials": None, "credentials_key_id": None, "credentials_purge_at": None})
        self.assertTrue(any("wiped" in l["message"] for l in self.logs(user, rid)))
        # the run goes on without them
        self.execute(user, rid)
        self.drive(rid, "completed", cfg=cfg)


class TestRunnerSyntheticRuns(RunnerTestCase):
    """Runs whose resources are written straight into the database (as discovery
    would), for what no fake account covers yet: hosting records, and runs
    large enough to be planned and imported over several steps."""

    def hosting_items(self, clients=3):
        items = []
        for i in range(1, clients + 1):
            items.append(("hosting_client", "c%d" % i, {
                "email": "client%d@example.com" % i, "first_name": "First%d" % i, "last_name": "Last",
                "company": None, "status": "Active", "created": "2023-01-%02d" % i}))
        for i in range(1, 5):
            items.append(("hosting_service", "s%d" % i, {
                "client_id": "c%d" % ((i - 1) % clients + 1), "product": "VPS %d" % i,
                "domain": "svc%d.example.com" % i, "status": "Active", "billing_cycle": "Monthly",
                "amount": "12.50", "next_due": "2024-05-01"}))
        for i in range(1, 3):
            items.append(("hosting_domain", "d%d" % i, {
                "client_id": "c%d" % i, "domain": "example-%d.com" % i, "registrar": "enom",
                "status": "Active", "expiry": "2025-01-01", "next_due": "2024-12-01", "amount": "9.99"}))
        items.append(("invoice", "i1", {"client_id": "c1", "number": "INV-1", "date": "2024-01-01",
                                        "due": "2024-01-15", "paid_at": None, "total": "30.00",
                                        "currency": "USD", "status": "Unpaid"}))
        items.append(("invoice", "i2", {"client_id": "c9", "number": "INV-2", "date": "2023-02-30",
                                        "due": None, "paid_at": "2024-01-20T10:00:00Z", "total": "7.5",
                                        "currency": "EUR", "status": "Paid"}))
        # records that precede their client in id order: the import order sorts them out
        return items[3:] + items[:3]

    def test_hosting_records_are_imported_with_their_clients(self):
        user = self.user()
        rid = self.synthetic_run(user, "whmcs", self.hosting_items())
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts")), "completed")
        run = self.get(user, rid)["data"]
        self.assertEqual(run["stats"]["planned"], {"create": 11})
        for table, n in (("hosting_clients", 3), ("hosting_services", 4), ("hosting_domains", 2), ("invoices", 2)):
            self.assertEqual(self.count(table, user), n, table)
        rows = self.stack.sql_dicts(
            "SELECT s.product, c.email, s.amount, s.next_due FROM hosting_services s "
            "LEFT JOIN hosting_clients c ON c.id = s.client_id WHERE s.user_id=%d ORDER BY s.product" % user.id)
        self.assertEqual([(r["product"], r["email"]) for r in rows],
                         [("VPS 1", "client1@example.com"), ("VPS 2", "client2@example.com"),
                          ("VPS 3", "client3@example.com"), ("VPS 4", "client1@example.com")])
        self.assertEqual((rows[0]["amount"], rows[0]["next_due"]), ("12.50", "2024-05-01"))
        inv = {r["number"]: r for r in self.stack.sql_dicts(
            "SELECT number, client_id, invoice_date, paid_at, total, currency FROM invoices WHERE user_id=%d" % user.id)}
        self.assertIsNotNone(inv["INV-1"]["client_id"])
        self.assertIsNone(inv["INV-2"]["client_id"], "an unknown client is left empty")
        self.assertIsNone(inv["INV-2"]["invoice_date"], "an impossible date is left empty")
        self.assertEqual(inv["INV-2"]["paid_at"], "2024-01-20")
        self.assertEqual(inv["INV-2"]["total"], "7.50")
        self.assertEqual(self.stack.count("import_links", "user_id=%d AND provider='whmcs'" % user.id), 11)

        # another user who already has one of the domains and one of the clients: two conflicts
        other = self.user()
        self.stack.sql("INSERT INTO hosting_domains (user_id, domain, created_at, updated_at) VALUES "
                       "(%d, 'EXAMPLE-2.com', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))" % other.id)
        self.stack.sql("INSERT INTO hosting_clients (user_id, email, created_at, updated_at) VALUES "
                       "(%d, 'client1@example.com', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))" % other.id)
        rid2 = self.synthetic_run(other, "whmcs", self.hosting_items())
        self.execute(other, rid2)
        self.assertEqual(self.drive(rid2, ("paused_conflicts", "completed")), "paused_conflicts")
        conflicts = sorted(r["resource_type"] for r in self.resources(rid2, "status='conflict'"))
        self.assertEqual(conflicts, ["hosting_client", "hosting_domain"])
        r = other.request("POST", "/api/v1/migrations/%s/resolve-conflicts" % rid2, body={"strategy": "overwrite"})
        self.assertStatus(r, 200)
        self.execute(other, rid2)
        self.assertEqual(self.drive(rid2, ("completed", "paused_conflicts")), "completed")
        self.assertEqual(self.count("hosting_clients", other), 3)
        self.assertEqual(self.count("hosting_domains", other), 2)
        # the overwritten client is the one the services of client c1 now point at
        own = self.stack.sql_value("SELECT MIN(id) FROM hosting_clients WHERE user_id=%d" % other.id)
        self.assertEqual(self.stack.count("hosting_services", "user_id=%d AND client_id=%s" % (other.id, own)), 2)
        self.assertEqual(self.stack.sql_value("SELECT first_name FROM hosting_clients WHERE id=%s" % own), "First1")

    def test_unsupported_or_unusable_resources_are_skipped_with_a_reason(self):
        user = self.user()
        rid = self.synthetic_run(user, "uptimerobot", [
            ("monitor", "m1", {"name": "ok", "url": "https://ok.example/", "type": "http", "interval": 60,
                               "paused": False, "port": None, "keyword": None, "contact_ids": []}),
            ("monitor", "m2", {"name": "", "url": None, "type": "http"}),
            ("widget", "w1", {"name": "what"}),
        ])
        self.execute(user, rid)
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors")), "completed")
        res = {r["external_id"]: r for r in self.resources(rid)}
        self.assertEqual((res["m1"]["action"], res["m1"]["status"]), ("create", "imported"))
        for ext in ("m2", "w1"):
            self.assertEqual((res[ext]["action"], res[ext]["status"]), ("skip", "skipped"))
            self.assertTrue(res[ext]["reason"].startswith("Skipped: "), res[ext])
        stats = self.get(user, rid)["data"]["stats"]
        self.assertEqual(stats["planned"], {"create": 1, "skip": 2})
        self.assertEqual((stats["imported"], stats["skipped"], stats["failed"], stats["progress"]), (1, 2, 0, 1))

    def test_a_large_run_is_planned_and_imported_over_several_steps(self):
        user = self.user()
        n = 6000
        items = [("contact", "ct%d" % i, {"name": "C%d" % i, "type": "email", "value": "c%d@example.com" % i})
                 for i in range(20)]
        items += [("monitor", "m%05d" % i, {
            "name": "M%d" % i, "url": "https://m%d.example.com/" % i, "type": "http", "interval": 60,
            "paused": i % 10 == 0, "port": None, "keyword": None, "contact_ids": ["ct%d" % (i % 20)]})
            for i in range(n)]
        items += [("status_page", "sp1", {"name": "Big page", "url": None, "public": True,
                                          "items": [{"monitor_id": "m%05d" % i} for i in range(0, 50)]})]
        rid = self.synthetic_run(user, "uptimerobot", items)
        self.execute(user, rid)
        payloads = set()
        progress = []
        deadline = time.time() + 300
        while self.stack.run_status(rid) == "executing" and time.time() < deadline:
            # one step at a time, each ending after 1,000 resources (on any machine) and
            # queueing its continuation
            self.runner("--once", "--max-jobs", "1", "--step-resources", "1000")
            for row in self.stack.sql("SELECT queue, payload FROM jobs WHERE run_id=%s" % q(rid)):
                if row[1]:
                    payloads.add(row[0])
            progress.append(self.get(user, rid)["data"]["stats"]["progress"])
        self.assertEqual(self.stack.run_status(rid), "completed")
        # planning and imports went on over several steps, each from where the last one stopped
        self.assertIn("planning", payloads, "planning continued over several steps")
        self.assertIn("resources", payloads, "imports continued over several steps")
        self.assertGreaterEqual(len([p for p in progress if 0 < p < 1]), 3, progress)
        self.assertEqual(progress, sorted(progress), "progress only rises")
        self.assertEqual(self.count("monitors", user), n)
        self.assertEqual(self.count("contacts", user), 20)
        self.assertEqual(int(self.stack.sql_value("SELECT SUM(paused) FROM monitors WHERE user_id=%d" % user.id)), n // 10)
        self.assertEqual(self.stack.count("monitor_contacts mc JOIN monitors m ON m.id = mc.monitor_id",
                                          "m.user_id=%d" % user.id), n)
        page = self.stack.sql_value("SELECT id FROM status_pages WHERE user_id=%d" % user.id)
        self.assertEqual(self.stack.count("status_page_monitors", "status_page_id=%s" % page), 50)
        self.assertNoDuplicates(user)
        self.assertEqual(self.get(user, rid)["data"]["stats"]["imported"], n + 21)

    def test_planning_resumes_from_its_saved_position(self):
        user = self.user()
        items = [("monitor", "m%04d" % i, {"name": "M%d" % i, "url": "https://r%d.example.com/" % i, "type": "http",
                                           "interval": 60, "paused": False, "port": None, "keyword": None,
                                           "contact_ids": []}) for i in range(600)]
        rid = self.synthetic_run(user, "uptimerobot", items)
        self.execute(user, rid)
        ids = [int(r["id"]) for r in self.resources(rid)]
        mid = ids[349]
        # as if a step had planned the first 350 (here: marked skipped) and saved its
        # position before the runner died
        self.stack.sql("UPDATE jobs SET payload=%s WHERE run_id=%s AND queue='planning'"
                       % (q(json.dumps({"after": mid})), q(rid)))
        self.stack.sql("UPDATE migration_run_resources SET action='skip', status='skipped', reason='marker' "
                       "WHERE run_id=%s AND id <= %d" % (q(rid), mid))
        self.runner("--once", "--max-jobs", "1")
        self.assertEqual(self.stack.count("migration_run_resources",
                                          "run_id=%s AND reason='marker' AND action='skip'" % q(rid)), 350,
                         "what was planned before the saved position is not planned again")
        self.assertEqual(self.stack.count("migration_run_resources",
                                          "run_id=%s AND id > %d AND action='create'" % (q(rid), mid)), 250)
        logs = [l["message"] for l in self.logs(user, rid)]
        self.assertFalse(any(m.startswith("Planning started") for m in logs), "a resumed plan does not start over")
        self.assertTrue(any(m.startswith("Plan ready") for m in logs))
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors")), "completed")
        self.assertEqual(self.count("monitors", user), 250)
        stats = self.get(user, rid)["data"]["stats"]
        self.assertEqual((stats["imported"], stats["skipped"]), (250, 350))


class TestRunnerEveryProvider(RunnerTestCase):

    DEMO_CREDENTIALS = {
        "uptimerobot": {"api_key": "demo-key"},
        "pingdom": {"api_token": "demo-key"},
        "statuscake": {"api_token": "demo-key"},
        "better_stack": {"api_token": "demo-key"},
        "updown": {"api_key": "demo-key"},
        "healthchecks": {"api_key": "demo-key-" + "0" * 23},
        "cronitor": {"api_key": "demo-key"},
        "statuspage": {"api_key": "demo-key"},
        "whmcs": {"api_identifier": "demo-id", "api_secret": "demo-secret"},
    }

    def test_each_providers_demo_account_imports_completely(self):
        self.stack.sql("DELETE FROM jobs")
        harness.fake_call(self.stack, "POST", "/_control/reset", {"demo": True})
        for provider in harness.PROVIDERS:
            with self.subTest(provider=provider):
                creds = dict(self.DEMO_CREDENTIALS[provider])
                if provider == "whmcs":
                    creds["url"] = self.stack.fake_base + "/whmcs"
                if provider == "healthchecks":
                    creds["base_url"] = self.stack.fake_base + "/healthchecks"
                user = self.user()
                r = user.request("POST", "/api/v1/migrations", body={"provider": provider, "credentials": creds})
                self.assertStatus(r, 201)
                rid = r.json["data"]["id"]
                st = self.drive(rid, ("awaiting_review", "failed"))
                run = self.get(user, rid)["data"]
                self.assertEqual(st, "awaiting_review", run["error_message"])
                discovered = sum(run["stats"]["discovered"].values())
                self.assertGreater(discovered, 0)
                self.execute(user, rid)
                st = self.drive(rid, ("completed", "completed_with_errors", "paused_conflicts"))
                body = self.get(user, rid)
                self.assertEqual(st, "completed", [x for x in body["data"]["resources"] if x["status"] != "imported"])
                stats = body["data"]["stats"]
                self.assertEqual(stats["imported"] + stats["skipped"], discovered, stats)
                self.assertEqual(stats["failed"], 0)
                if provider == "whmcs":
                    for table in ("hosting_services", "hosting_domains", "invoices"):
                        self.assertEqual(self.stack.count(table, "user_id=%d AND client_id IS NULL" % user.id), 0,
                                         "%s keep their client" % table)
                links = self.stack.count("import_links", "user_id=%d" % user.id)
                self.assertEqual(links, stats["imported"])
                for s in ("Discovery finished", "Run completed"):
                    self.assertTrue(any(s in l["message"] for l in self.logs(user, rid)))


class TestRunnerDatabaseRestart(RunnerTestCase):

    def test_mariadb_restarted_mid_import_the_runner_reconnects_and_finishes(self):
        user = self.user()
        key = self.account(monitors=1500, heartbeats=0, contacts=3, status_pages=1)
        rid = self.start(user, key)
        self.drive(rid, "awaiting_review", timeout=120)
        self.execute(user, rid)
        proc = harness.spawn_runner(self.stack, self.cfg, "--max-seconds", "90")
        try:
            self.wait_sql("SELECT COUNT(*) FROM migration_run_resources WHERE run_id=%s AND status='imported'"
                          % q(rid), lambda v: int(v) >= 30, timeout=60)
            harness.restart_mariadb(self.stack, down_seconds=2)
            self.wait_sql("SELECT status FROM migration_runs WHERE id=%s" % q(rid),
                          lambda v: v in ("completed", "completed_with_errors"), timeout=90)
            self.assertTrue(proc.alive() or proc.p.returncode == 0, harness.tail(proc.log))
        finally:
            proc.stop()
        self.assertEqual(self.stack.run_status(rid), "completed")
        self.assertImportedExactly(user, rid, 1500, 0, 3, 1)
        # the API reconnects too
        self.assertEqual(self.get(user, rid)["data"]["stats"]["imported"], 1504)
