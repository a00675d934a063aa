"""No transaction writes more than a few thousand rows (issue 27, item 6).

On MariaDB Galera a transaction's write set is certified and replicated whole:
one of 100,000 rows stalls the cluster (flow control) and can exceed
wsrep_max_ws_rows. These tests drive each write path whose rows grow with a
run's size (retry-failed, cancel, delete and its cleanup) with more rows than
one batch, check what the user sees at the end, and measure every
transaction's rows from the server itself.

How the rows are measured: this file runs its own Stack whose MariaDB writes a
binary log in ROW format (everything else is as the shared stack). A mark
(FLUSH BINARY LOGS) starts a new log file; after the work, `mariadb-binlog -v`
prints each row a transaction changed as one `### INSERT INTO` / `### UPDATE` /
`### DELETE FROM` line between its GTID event and its commit, so counting them
per GTID gives each transaction's rows exactly, whoever wrote them (the API,
the runner) and however fast: no polling, nothing racy. What the binary log
cannot show is a foreign key's cascade (InnoDB deletes a run's resources, logs
and jobs with it, outside the log; a Galera applier does the same work again);
so the delete test also checks that every row of the run was deleted by a
statement of its own: the log's deletions add up to what the run had, none left
to a cascade.
"""

import json
import os
import re
import signal
import subprocess
import time
import unittest

import harness
from harness import q

TX_ROWS_MAX = 5000  # DB_TX_ROWS_MAX (src/db/db.h): the most rows a transaction may write
FAILED = 12000      # failed resources to retry: more than a dozen batches of the retry


class BinlogStack(harness.Stack):
    """A Stack whose MariaDB keeps a binary log in ROW format (only the
    server's options differ; harness.py starts it with --skip-log-bin)."""

    def _spawn(self, name, argv, env=None):
        if name == "mysqld":
            argv = [a for a in argv if a != "--skip-log-bin"] + [
                "--log-bin=" + os.path.join(self.tmp, "binlog"), "--binlog-format=ROW",
                "--binlog-row-image=FULL", "--server-id=1", "--max-binlog-size=1G"]
        return harness.Stack._spawn(self, name, argv, env)


GTID_LINE = re.compile(r"\sGTID \d+-\d+-\d+")
ROW_LINE = re.compile(r"^### (INSERT INTO|UPDATE|DELETE FROM) `[^`]*`\.`([^`]*)`")


class TestBoundedTransactions(harness.ApiTestCase):

    @classmethod
    def setUpClass(cls):
        cls.stack = BinlogStack(fakes=True)
        cls.stack.start()
        cls.cfg = harness.runner_config(cls.stack, "runner", lease_seconds=30, max_attempts=3)

    @classmethod
    def tearDownClass(cls):
        cls.stack.stop()

    # -- the binary log

    def mark(self):
        """Start a new binary log file; transactions() reads from it on."""
        self.stack.sql("FLUSH BINARY LOGS")
        self.first_log = self.stack.sql("SHOW MASTER STATUS")[0][0]

    def transactions(self):
        """Each transaction since mark(): a dict (operation, table) -> rows."""
        logs = [r[0] for r in self.stack.sql("SHOW BINARY LOGS")]
        logs = logs[logs.index(self.first_log):]
        out = subprocess.run(["mariadb-binlog", "--no-defaults", "-v", "--base64-output=DECODE-ROWS"]
                             + [os.path.join(self.stack.tmp, f) for f in logs],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True).stdout.decode("utf-8", "replace")
        txs, cur = [], None
        for line in out.splitlines():
            if line.startswith("#") and GTID_LINE.search(line):
                cur = {}
                txs.append(cur)
                continue
            m = ROW_LINE.match(line)
            if m and cur is not None:
                key = (m.group(1).split()[0], m.group(2))
                cur[key] = cur.get(key, 0) + 1
        return [t for t in txs if t]

    def assertBounded(self, txs, what):
        self.assertTrue(txs, "the binary log shows no transaction of %s" % what)
        biggest = max(txs, key=lambda t: sum(t.values()))
        self.assertLessEqual(sum(biggest.values()), TX_ROWS_MAX,
                             "%s: a transaction wrote %d rows: %s" % (what, sum(biggest.values()), biggest))

    @staticmethod
    def total(txs, op, table):
        return sum(t.get((op, table), 0) for t in txs)

    # -- runs written straight into the database

    def run_with(self, user, status, failed=0, pending=0, logs=0, jobs=0):
        """A run of user in status with failed monitors (valid data: they import), pending ones,
        log entries and per-resource jobs (as retry-failed queued them before), written in bulk."""
        rid = self.stack.insert_run(user.id, status=status,
                                    stats='{"discovered":{},"planned":{},"imported":0,"skipped":0,'
                                          '"failed":%d,"progress":1}' % failed)
        for n, st, err in ((failed, "failed", "'Import failed: the account was busy.'"), (pending, "pending", "NULL")):
            if n:
                self.stack.sql(
                    "INSERT INTO migration_run_resources (run_id, resource_type, external_id, name, action, status,"
                    " attempts, error_message, created_at, updated_at)"
                    " SELECT %s, 'monitor', CONCAT('%s', seq), CONCAT('M', seq), 'create', '%s', %d, %s,"
                    " UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM seq_1_to_%d"
                    % (q(rid), st[0], st, 1 if st == "failed" else 0, err, n))
        self.stack.sql(
            "INSERT INTO migration_run_resource_data (run_id, resource_id, normalized_data)"
            " SELECT run_id, id, JSON_OBJECT('name', name, 'url', CONCAT('https://', external_id, '.example.com/'),"
            " 'type', 'http', 'interval', 60, 'paused', false) FROM migration_run_resources WHERE run_id = %s" % q(rid))
        if logs:
            self.stack.sql("INSERT INTO migration_run_logs (run_id, level, message, logged_at)"
                           " SELECT %s, 'info', CONCAT('entry ', seq), UTC_TIMESTAMP(6) FROM seq_1_to_%d"
                           % (q(rid), logs))
        if jobs:
            self.stack.sql("INSERT INTO jobs (queue, run_id, resource_id, available_at, created_at)"
                           " SELECT 'resources', run_id, id, UTC_TIMESTAMP(6) + INTERVAL 1 DAY, UTC_TIMESTAMP(6)"
                           " FROM migration_run_resources WHERE run_id = %s ORDER BY id LIMIT %d" % (q(rid), jobs))
        return rid

    def runner_until(self, pred, what, timeout=300):
        deadline = time.time() + timeout
        while not pred():
            p = harness.run_runner_config(self.stack, self.cfg, "--once", timeout=timeout)
            self.assertEqual(p.returncode, 0, "runner exited %d:\n%s" % (p.returncode, p.stderr[-3000:]))
            if time.time() > deadline:
                self.fail("timed out waiting for %s" % what)

    def messages(self, rid):
        return [r[0] for r in self.stack.sql("SELECT message FROM migration_run_logs WHERE run_id=%s ORDER BY id"
                                             % q(rid))]

    # -- the paths

    def test_retry_failed_resets_and_imports_in_bounded_transactions(self):
        user = self.user()
        rid = self.run_with(user, "completed_with_errors", failed=FAILED)
        self.stack.sql("DELETE FROM jobs")
        self.mark()
        r = user.request("POST", "/api/v1/migrations/%s/retry-failed" % rid)
        self.assertStatus(r, 202)
        self.assertEqual(r.json["retried"], FAILED)
        self.assertEqual(r.json["message"], "Retrying %d failed resources." % FAILED)
        self.assertEqual(r.json["data"]["status"], "executing")
        self.assertEqual(self.stack.run_status(rid), "executing", "the work is under way")
        # a second request while the first is under way finds the same failed resources still to do
        self.runner_until(lambda: self.stack.run_status(rid) != "executing", "the retried run to finish")
        self.assertEqual(self.stack.run_status(rid), "completed")
        self.assertEqual(self.stack.sql("SELECT status, attempts, COUNT(*) FROM migration_run_resources"
                                        " WHERE run_id=%s GROUP BY status, attempts" % q(rid)),
                         [("imported", "2", str(FAILED))], "every failed resource retried exactly once")
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), FAILED)
        self.assertEqual(self.stack.count("import_links", "user_id=%d" % user.id), FAILED)
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0)
        run = user.request("GET", "/api/v1/migrations/" + rid).json["data"]
        self.assertEqual((run["total_resources"], run["failed_resources"], run["stats"]["failed"],
                          run["stats"]["imported"]), (FAILED, 0, 0, FAILED))
        msgs = self.messages(rid)
        self.assertIn("Retrying %d failed resources." % FAILED, msgs)
        self.assertIn("%d failed resources are pending again; importing." % FAILED, msgs)
        self.assertIn("Run completed.", msgs)
        txs = self.transactions()
        self.assertBounded(txs, "retry-failed and its import")
        self.assertEqual(self.total(txs, "INSERT", "monitors"), FAILED)

    def test_retry_failed_resumes_after_a_runner_killed_between_batches(self):
        """At-least-once: a runner killed between two batches of the retry leaves the batches it
        committed (and its position); the next one goes on from there, and each failed resource is
        retried once."""
        user = self.user()
        rid = self.run_with(user, "completed_with_errors", failed=3500)
        self.stack.sql("DELETE FROM jobs")
        ids = [int(r[0]) for r in self.stack.sql("SELECT id FROM migration_run_resources WHERE run_id=%s ORDER BY id"
                                                 % q(rid))]
        self.assertStatus(user.request("POST", "/api/v1/migrations/%s/retry-failed" % rid), 202)
        cfg = harness.runner_config(self.stack, "short-lease", lease_seconds=5, max_attempts=3)
        # the third batch (ids 2001-3000 of the run) waits for a row held here: the runner is killed there
        with harness.RowLock(self.stack, "SELECT id FROM migration_run_resources WHERE run_id=%s AND id=%d FOR UPDATE"
                             % (q(rid), ids[2500])) as trap:
            proc = harness.spawn_runner(self.stack, cfg, "--once")
            deadline = time.time() + 60
            while trap.blocked() is None:
                self.assertLess(time.time(), deadline, "the runner never reached the third batch")
                time.sleep(0.1)
            os.kill(proc.p.pid, signal.SIGKILL)
            proc.p.wait(30)
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s AND status='pending'" % q(rid)), 2000,
                         "two batches committed")
        self.assertEqual(self.stack.sql_value("SELECT payload FROM jobs WHERE run_id=%s" % q(rid)),
                         '{"retry":{"after":%d,"last":%d,"done":2000}}' % (ids[1999], ids[-1]))
        time.sleep(5.5)  # the killed runner's lease runs out
        deadline = time.time() + 300
        while self.stack.run_status(rid) == "executing":
            self.assertLess(time.time(), deadline, "the run never finished")
            p = harness.run_runner_config(self.stack, cfg, "--once")
            self.assertEqual(p.returncode, 0, p.stderr[-3000:])
        self.assertEqual(self.stack.run_status(rid), "completed")
        self.assertEqual(self.stack.sql("SELECT status, attempts, COUNT(*) FROM migration_run_resources"
                                        " WHERE run_id=%s GROUP BY status, attempts" % q(rid)),
                         [("imported", "2", "3500")], "every failed resource retried once")
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 3500)
        self.assertEqual(self.messages(rid).count("3500 failed resources are pending again; importing."), 1)

    def test_retry_failed_while_executing_is_not_lost_to_a_finishing_import(self):
        """A retry while the run's import is finishing: the import's end must not complete the run
        (completed_with_errors) before the retry has set the failed resources pending again."""
        user = self.user()
        rid = self.run_with(user, "executing", failed=1500)
        self.stack.sql("DELETE FROM jobs")
        # the run's import chain, about to find nothing left to do
        self.stack.insert_job(rid, queue="resources")
        r = user.request("POST", "/api/v1/migrations/%s/retry-failed" % rid)
        self.assertStatus(r, 202)
        self.assertEqual(r.json["retried"], 1500)
        self.runner_until(lambda: self.stack.run_status(rid) != "executing", "the run to finish")
        self.assertEqual(self.stack.run_status(rid), "completed")
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s AND status='imported'" % q(rid)),
                         1500)

    def test_an_import_of_monitors_with_many_alert_links_in_bounded_transactions(self):
        # 2,000 monitors that alert 20 contacts each: 23 rows a monitor (the monitor, its 20 links,
        # its import link and resource), so that a transaction of RUNNER_IMPORT_TX (500) of them
        # would write 11,500; the import ends each transaction after the monitor that brings it to
        # IMPORT_TX_ROWS (2,500, src/db/bounds.h)
        user = self.user()
        contacts = ["c%d" % i for i in range(1, 21)]
        rid = self.stack.insert_run(user.id, status="awaiting_review",
                                    stats='{"discovered":{},"planned":{},"imported":0,"skipped":0,'
                                          '"failed":0,"progress":0}')
        self.stack.insert_resource_rows(rid, [("contact", "c%d" % i, {
            "name": "C%d" % i, "type": "email", "value": "c%d@example.com" % i}) for i in range(1, 21)] + [
            ("monitor", "m%d" % i, {"name": "M%d" % i, "url": "https://m%d.example.com/" % i, "type": "http",
                                    "interval": 60, "paused": False, "contact_ids": contacts})
            for i in range(1, 2001)])
        self.stack.drop_leftover_jobs()
        self.mark()
        self.assertStatus(user.request("POST", "/api/v1/migrations/%s/execute" % rid), 202)
        self.runner_until(lambda: self.stack.run_status(rid) != "executing", "the import to finish")
        self.assertEqual(self.stack.run_status(rid), "completed", self.messages(rid))
        # every monitor arrived once, with its 20 alert recipients
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 2000)
        self.assertEqual(self.stack.sql(
            "SELECT COUNT(*), COUNT(DISTINCT m.id), COUNT(DISTINCT c.value) FROM monitor_contacts mc"
            " JOIN monitors m ON m.id = mc.monitor_id JOIN contacts c ON c.id = mc.contact_id"
            " WHERE m.user_id = %d AND c.user_id = %d" % (user.id, user.id)), [("40000", "2000", "20")])
        txs = self.transactions()
        self.assertBounded(txs, "an import of monitors with 20 alert links each")
        imports = [t for t in txs if ("INSERT", "monitors") in t]
        self.assertEqual(self.total(imports, "INSERT", "monitors"), 2000)
        biggest = max(sum(t.values()) for t in imports)
        self.assertLessEqual(biggest, 2500 + 30, "one monitor past IMPORT_TX_ROWS, its job and run rows")

    def test_cancel_drops_a_large_queue_in_bounded_transactions(self):
        user = self.user()
        rid = self.run_with(user, "executing", pending=6000, jobs=6000)
        self.mark()
        r = user.request("POST", "/api/v1/migrations/%s/cancel" % rid)
        self.assertStatus(r, 200)
        self.assertEqual(r.json["data"]["status"], "cancelled")
        self.assertIn("Run cancelled; queued work dropped.", self.messages(rid))
        self.stack.sql("UPDATE jobs SET available_at = UTC_TIMESTAMP(6) WHERE run_id=%s" % q(rid))
        self.runner_until(lambda: self.stack.count("jobs", "run_id=%s" % q(rid)) == 0, "the jobs to go")
        self.assertEqual(self.stack.run_status(rid), "cancelled")
        self.assertEqual(self.stack.count("monitors", "user_id=%d" % user.id), 0, "nothing imported")
        txs = self.transactions()
        self.assertBounded(txs, "cancel")
        self.assertEqual(self.total(txs, "DELETE", "jobs"), 6000)

    def test_resolve_every_conflict_in_bounded_transactions(self):
        user = self.user()
        rid = self.stack.insert_run(user.id, status="paused_conflicts")
        self.stack.sql("INSERT INTO migration_run_resources (run_id, resource_type, external_id, name, action, status,"
                       " created_at, updated_at) SELECT %s, 'monitor', CONCAT('c', seq), CONCAT('C', seq), 'conflict',"
                       " 'conflict', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM seq_1_to_%d" % (q(rid), FAILED))
        self.stack.sql("DELETE FROM jobs")
        self.mark()
        r = user.request("POST", "/api/v1/migrations/%s/resolve-conflicts" % rid, body={"strategy": "overwrite"})
        self.assertStatus(r, 200)
        self.assertEqual((r.json["resolved"], r.json["message"], r.json["data"]["status"]),
                         (FAILED, "Resolving %d conflicts with strategy overwrite." % FAILED, "paused_conflicts"))
        self.assertError(user.request("POST", "/api/v1/migrations/%s/execute" % rid), 422, "run_not_awaiting_review")
        self.runner_until(lambda: self.stack.run_status(rid) != "paused_conflicts", "the conflicts to be resolved")
        self.assertEqual(self.stack.run_status(rid), "awaiting_review")
        self.assertEqual(self.stack.sql("SELECT status, action, resolution, COUNT(*) FROM migration_run_resources"
                                        " WHERE run_id=%s GROUP BY 1, 2, 3" % q(rid)),
                         [("pending", "update", "overwrite", str(FAILED))])
        self.assertIn("Resolved %d conflicts with strategy overwrite." % FAILED, self.messages(rid))
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0)
        self.assertBounded(self.transactions(), "resolve-conflicts")

    def test_exclude_and_include_by_filter_in_bounded_transactions(self):
        user = self.user()
        rid = self.run_with(user, "awaiting_review", pending=FAILED)
        self.stack.sql("DELETE FROM jobs")
        self.mark()
        path = "/api/v1/migrations/%s/resources/" % rid
        r = user.request("POST", path + "exclude", body={"resource_type": "monitor"})
        self.assertStatus(r, 200)
        self.assertEqual((r.json["changed"], r.json["message"], r.json["data"]["status"]),
                         (FAILED, "Excluding %d resources." % FAILED, "awaiting_review"))
        # execute waits for it, and so does another selection (which it could undo)
        r = user.request("POST", "/api/v1/migrations/%s/execute" % rid)
        self.assertError(r, 409, "conflict")
        self.assertIn("still being excluded or included", r.json["message"])
        first = self.stack.sql_value("SELECT MIN(id) FROM migration_run_resources WHERE run_id=%s" % q(rid))
        self.assertError(user.request("POST", path + "include", body={"ids": [int(first)]}), 409, "conflict")
        self.runner_until(lambda: self.stack.count("jobs", "run_id=%s" % q(rid)) == 0, "the exclusion")
        self.assertEqual(self.stack.sql("SELECT status, COUNT(*) FROM migration_run_resources WHERE run_id=%s"
                                        " GROUP BY status" % q(rid)), [("excluded", str(FAILED))])
        self.assertIn("Excluded %d resources." % FAILED, self.messages(rid))
        r = user.request("POST", path + "include", body={"status": "excluded"})
        self.assertEqual((r.status, r.json["changed"]), (200, FAILED))
        self.runner_until(lambda: self.stack.count("jobs", "run_id=%s" % q(rid)) == 0, "the inclusion")
        self.assertEqual(self.stack.sql("SELECT status, COUNT(*) FROM migration_run_resources WHERE run_id=%s"
                                        " GROUP BY status" % q(rid)), [("pending", str(FAILED))])
        self.assertIn("Included %d resources." % FAILED, self.messages(rid))
        self.assertEqual(self.stack.run_status(rid), "awaiting_review")
        self.assertStatus(user.request("POST", "/api/v1/migrations/%s/execute" % rid), 202)
        self.assertBounded(self.transactions(), "exclude and include")

    def test_discovery_of_one_large_page_in_bounded_transactions(self):
        """Healthchecks lists every check on one page (PROV_MAX_ITEMS allows 10,000 items a page):
        discovery saves it in slices, the last with the checkpoint."""
        key = "bnd-hc-key-" + "1" * 21
        harness.fake_call(self.stack, "POST", "/_control/healthchecks/account",
                          {"credentials": {"api_key": key}, "name_prefix": "Bnd",
                           "counts": {"heartbeats": 6000, "contacts": 2}, "options": {}})
        user = self.user()
        self.stack.sql("DELETE FROM jobs")
        self.mark()
        r = user.request("POST", "/api/v1/migrations", body={
            "provider": "healthchecks", "credentials": {"api_key": key, "base_url": self.stack.fake_base + "/healthchecks"}})
        self.assertStatus(r, 201)
        rid = r.json["data"]["id"]
        self.runner_until(lambda: self.stack.run_status(rid) not in ("pending", "discovering"), "discovery")
        self.assertEqual(self.stack.run_status(rid), "awaiting_review")
        self.assertEqual(self.stack.sql("SELECT resource_type, COUNT(*) FROM migration_run_resources WHERE run_id=%s"
                                        " GROUP BY resource_type ORDER BY 1" % q(rid)),
                         [("contact", "2"), ("heartbeat", "6000")])
        txs = self.transactions()
        self.assertBounded(txs, "discovery")
        self.assertEqual(self.total(txs, "INSERT", "migration_run_resources"), 6002, "each resource saved once")
        self.assertEqual(self.total(txs, "INSERT", "migration_run_resource_data"), 6002, "and its data once")

    def _delete_and_measure(self, resources, logs, jobs, inline=False):
        user = self.user()
        rid = self.run_with(user, "completed_with_errors", failed=resources, logs=logs, jobs=jobs)
        self.mark()
        r = user.request("DELETE", "/api/v1/migrations/" + rid)
        self.assertStatus(r, (200, 204))
        self.assertStatus(user.request("GET", "/api/v1/migrations/" + rid), 404)
        self.runner_until(lambda: self.stack.count("migration_runs", "id=%s" % q(rid)) == 0,
                          "the run to be deleted")
        for table in ("migration_run_resources", "migration_run_resource_data", "migration_run_logs", "jobs"):
            self.assertEqual(self.stack.count(table, "run_id=%s" % q(rid)), 0, table)
        txs = self.transactions()
        self.assertBounded(txs, "delete")
        cleanup = self.total(txs, "INSERT", "jobs")  # the cleanup job of a larger run, deleted at its end
        self.assertEqual(cleanup, 0 if inline else 1, "deleted in the request" if inline else "left to the runner")
        self.assertEqual((self.total(txs, "DELETE", "migration_run_resources"),
                          self.total(txs, "DELETE", "migration_run_resource_data"),
                          self.total(txs, "DELETE", "migration_run_logs"), self.total(txs, "DELETE", "jobs"),
                          self.total(txs, "DELETE", "migration_runs")), (resources, resources, logs, jobs + cleanup, 1),
                         "every row deleted by a statement of its own, none by a cascade")

    def test_delete_of_a_large_run_in_bounded_transactions(self):
        self._delete_and_measure(resources=12000, logs=7000, jobs=6000)

    def test_delete_of_a_small_run_with_a_long_log_in_bounded_transactions(self):
        """Few resources, but log entries and queued jobs many: the request may not delete them all."""
        self._delete_and_measure(resources=3000, logs=4000, jobs=3000)

    def test_delete_of_a_small_run_in_its_request(self):
        """A run small enough to go in the request (its 700 resources and their 700 data rows among
        DELETE_INLINE_MAX): its rows go by statements of their own too."""
        self._delete_and_measure(resources=700, logs=2000, jobs=500, inline=True)


if __name__ == "__main__":
    unittest.main()
