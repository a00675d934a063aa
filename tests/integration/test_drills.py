"""Drills (issue 12): the runner killed again and again in the middle of a
large import, its database connection killed inside import transactions, and
a provider that answers 429s, 5xx, garbage, slowly or not at all. Each prints
its figures (docs/reliability.md keeps the latest).
"""

import os
import random
import signal
import subprocess
import sys
import time

import harness
from harness import q
from test_runner import RunnerTestCase


def contacts_and_monitors(n):
    """A run's resources: 20 contacts and n HTTP monitors, each alerting one contact."""
    items = [("contact", "c%d" % i, {"name": "C%d" % i, "type": "email", "value": "c%d@example.com" % i})
             for i in range(20)]
    return items + [("monitor", "m%05d" % i, {"name": "M%d" % i, "url": "https://m%d.example.com/" % i,
                                              "type": "http", "interval": 60, "paused": False, "port": None,
                                              "keyword": None, "contact_ids": ["c%d" % (i % 20)]})
                    for i in range(n)]


def figures(name, **values):
    sys.stdout.write("DRILL %s: %s\n" % (name, ", ".join("%s=%s" % kv for kv in values.items())))
    sys.stdout.flush()


class TestDrills(RunnerTestCase):

    def test_twenty_kill_9_during_10000_resource_imports(self):
        # Runs of 10,000 monitors, each for a new user, until 20 runners have been killed in them:
        # however fast the batched runner goes, the drill always makes its 20 kills.
        n = 10000
        rng = random.Random(12)
        t0 = time.time()
        kills, done_at_kills, started = 0, [], []
        while kills < 20:
            self.assertLess(time.time() - t0, 600, "20 kills did not land in 10 minutes (%d did)" % kills)
            user = self.user()
            rid = self.synthetic_run(user, "uptimerobot", contacts_and_monitors(n))
            self.execute(user, rid)
            started.append((user, rid))
            imported_sql = "run_id=%s AND status='imported'" % q(rid)
            while kills < 20 and self.stack.run_status(rid) == "executing":
                before = self.stack.count("migration_run_resources", imported_sql)
                cfg = self.stack.config_for_node(self.cfg, self.stack.next_node())  # galera: runner k on node k mod 3
                p = subprocess.Popen([self.stack.runner_path, "--config", cfg, "--once", "--max-seconds",
                                      "60"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env=self.stack._mariadb_env())
                # kill it while it imports: once it has imported something, at a random moment after
                deadline = time.time() + 15
                while time.time() < deadline and p.poll() is None and \
                        self.stack.count("migration_run_resources", imported_sql) == before:
                    time.sleep(0.05)
                time.sleep(rng.uniform(0.0, 0.1))
                if p.poll() is not None:
                    break  # it finished the run before the kill: the next run takes the next kills
                p.send_signal(signal.SIGKILL)
                p.wait()
                kills += 1
                # the killed runner's lease runs out (here at once, as if its 5 s had passed): its
                # job can be claimed again
                self.stack.sql("UPDATE jobs SET available_at = UTC_TIMESTAMP(6), reserved_until = UTC_TIMESTAMP(6) "
                               "WHERE run_id=%s AND reserved_until > UTC_TIMESTAMP(6)" % q(rid))
            done_at_kills.append(self.stack.count("migration_run_resources", imported_sql))
        # the leases of the killed runners run out (5 s), then one runner finishes each run
        for user, rid in started:
            self.assertEqual(self.drive(rid, ("completed", "completed_with_errors"), timeout=300), "completed")
            self.assert_imported_whole(user, rid, n)
            self.assertEqual(self.get(user, rid)["data"]["stats"]["imported"], n + 20)
        took = time.time() - t0
        figures("kill-9", kills=kills, runs=len(started), resources=len(started) * (n + 20),
                imported_before_the_last_runner="/".join(str(d) for d in done_at_kills),
                seconds=round(took, 1), lost=0, duplicated=0)

    def assert_imported_whole(self, user, rid, n):
        """Run rid of user imported 20 contacts and n monitors exactly once, every imported resource
        points at its account row and back, and its log is clear. Returns its retry warnings."""
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s AND status='imported'" % q(rid)),
                         n + 20)
        self.assertEqual(self.count("monitors", user), n, "no monitor lost or written twice")
        self.assertEqual(self.count("contacts", user), 20)
        self.assertEqual(int(self.stack.sql_value("SELECT COUNT(DISTINCT url) FROM monitors WHERE user_id=%d"
                                                  % user.id)), n)
        self.assertEqual(self.stack.count("monitor_contacts mc JOIN monitors m ON m.id = mc.monitor_id",
                                          "m.user_id=%d" % user.id), n)
        self.assertEqual(self.stack.count("import_links", "user_id=%d" % user.id), n + 20)
        self.assertNoDuplicates(user)
        for kind, table in (("monitor", "monitors"), ("contact", "contacts")):
            self.assertEqual(self.stack.count(
                "migration_run_resources r LEFT JOIN %s a ON a.id = r.target_id AND a.user_id = %d" % (table, user.id),
                "r.run_id=%s AND r.resource_type='%s' AND a.id IS NULL" % (q(rid), kind)), 0, kind)
            self.assertEqual(self.stack.count(
                "%s a LEFT JOIN migration_run_resources r ON r.target_id = a.id AND r.run_id=%s "
                "AND r.resource_type='%s' AND r.status='imported'" % (table, q(rid), kind),
                "a.user_id=%d AND r.id IS NULL" % user.id), 0, table)
        # a clear run log: no error, no failed resource, the run's end said once
        logs = self.logs(user, rid)
        self.assertEqual([l["message"] for l in logs if l["level"] == "error"], [])
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s AND status<>'imported'" % q(rid)), 0)
        self.assertEqual(len([l for l in logs if "completed" in l["message"].lower()]), 1, logs[:5])
        warnings = [l["message"] for l in logs if l["level"] == "warning"]
        for w in warnings:
            self.assertIn("temporary database error; retrying", w)
        return warnings

    def test_connections_killed_inside_import_transactions_leave_nothing_half_written(self):
        # One import of 5,000 monitors. Before the runner starts, 10 traps are set: each is a session
        # of the test holding, uncommitted, the import link of one monitor (every 500th, so each in a
        # batch of its own: RUNNER_IMPORT_TX, 500 monitors with one alert link are within
        # IMPORT_TX_ROWS), which the runner writes near the end of the transaction that imports
        # that monitor's batch. The runner waits there with the batch's rows written and not
        # committed; the test kills its connection at that moment, then lets the trap go. However
        # fast or slow the machine, 10 kills land inside 10 import transactions.
        n = 5000
        user = self.user()
        rid = self.synthetic_run(user, "uptimerobot", contacts_and_monitors(n))
        self.execute(user, rid)
        self.runner("--once", "--max-jobs", "1")  # the plan
        self.assertEqual(self.stack.run_status(rid), "executing")
        targets = [r[0] for r in self.stack.sql(
            "SELECT external_id FROM migration_run_resources WHERE run_id=%s AND resource_type='monitor' "
            "ORDER BY id" % q(rid))][250::500]
        # On a Galera cluster a row lock holds only the sessions of its own node, and a runner whose
        # connection is killed may go on on another node: each trap holds its link on every node.
        nodes = range(len(self.stack.nodes)) if self.stack.galera else (0,)
        traps = [[harness.RowLock(self.stack, "INSERT INTO import_links (user_id, provider, resource_type, "
                                  "external_id, target_model, target_id, created_at, updated_at) VALUES (%d, "
                                  "'uptimerobot', 'monitor', %s, 'monitor', 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))"
                                  % (user.id, q(ext)), node=i) for i in nodes] for ext in targets]

        def blocked(trap):
            """(node, the waiting connection, rows it wrote) of a session caught by the trap, or None."""
            for lock in trap:
                caught = lock.blocked()
                if caught is not None:
                    return (lock.node,) + caught
            return None

        stderr = open(os.path.join(self.stack.tmp, "drill-kill-connection.log"), "w+")
        t0 = time.time()
        runner = subprocess.Popen([self.stack.runner_path, "--config", self.cfg, "--once", "--max-seconds", "300"],
                                  stdout=subprocess.DEVNULL, stderr=stderr, env=self.stack._mariadb_env())
        kills = []
        try:
            for trap in traps:
                deadline = time.time() + 120
                while (caught := blocked(trap)) is None:
                    self.assertIsNone(runner.poll(), "the runner ended before reaching trap %d" % len(kills))
                    self.assertLess(time.time(), deadline, "the runner never reached trap %d" % len(kills))
                    time.sleep(0.15)
                node, victim, written = caught
                # the lease renewal is one row; the batch's monitors and contact links are more
                self.assertGreater(written, 1, "the transaction had written the batch's rows")
                self.stack.sql("KILL CONNECTION %d" % victim, node=node)
                for lock in trap:
                    lock.release()
                kills.append(written)
            self.assertEqual(runner.wait(300), 0)
        finally:
            for trap in traps:
                for lock in trap:
                    lock.release()
            if runner.poll() is None:
                runner.kill()
                runner.wait()
        self.assertEqual(self.drive(rid, ("completed", "completed_with_errors"), timeout=300), "completed")
        warnings = self.assert_imported_whole(user, rid, n)
        took = time.time() - t0
        stderr.seek(0)
        retried = stderr.read().count("transaction retried")
        stderr.close()
        self.assertEqual(len(kills), 10)
        self.assertGreaterEqual(retried, 10, "each killed transaction was retried")
        figures("kill-connection", kills=len(kills), rows_written_at_kill="/".join(str(w) for w in kills),
                transactions_retried=retried, resources_retried_later=len(warnings), resources=n + 20,
                seconds=round(took, 1), half_written=0, duplicated=0)

    def test_a_provider_that_misbehaves_in_every_way_still_gets_read(self):
        key = self.account(monitors=120, heartbeats=0, contacts=2, status_pages=0)
        self.faults({"kind": "429", "retry_after": 1, "times": 1, "match": "getMonitors"},
                    {"kind": "503", "times": 1, "match": "getMonitors", "after": 1},
                    {"kind": "bad_json", "times": 1, "match": "getMonitors", "after": 1},
                    {"kind": "truncated", "times": 1, "match": "getMonitors", "after": 1},
                    {"kind": "reset", "times": 1, "match": "getMonitors", "after": 2},
                    {"kind": "slow", "seconds": 8, "times": 1, "match": "getAlertContacts"})
        user = self.user()
        rid = self.start(user, key)
        # the test config gives each provider request 5 seconds; the slow answer takes 8
        cfg = harness.runner_config(self.stack, "patient", lease_seconds=5, max_attempts=6)
        t0 = time.time()
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed"), timeout=240, cfg=cfg), "awaiting_review")
        took = time.time() - t0
        self.assertEqual(self.get(user, rid)["data"]["stats"]["discovered"]["monitor"], 120)
        warnings = [l["message"] for l in self.logs(user, rid) if l["level"] == "warning"]
        for what in ("HTTP 503", "malformed", "did not answer in time"):
            self.assertTrue(any(what in w for w in warnings), (what, warnings))
        # the 429 was waited out (its Retry-After), never counted as a failed attempt
        reqs = self.fake_requests()
        limited = [i for i, r in enumerate(reqs) if r["status"] == 429]
        self.assertEqual(len(limited), 1, reqs)
        self.assertGreaterEqual(reqs[limited[0] + 1]["ts"] - reqs[limited[0]]["ts"], 1, reqs)
        figures("provider-faults", faults=6, retries=len(warnings), seconds=round(took, 1),
                discovered=120, outcome="awaiting_review")


class TestDatabaseDown(RunnerTestCase):
    """MariaDB stopped under a running service: every request, REST or tool
    interface, gets a clear JSON 503 at once, and the same FastCGI processes
    serve normally again when it is back."""

    def test_requests_while_the_database_is_down_and_after(self):
        user = self.user()
        secret = user.token.split("|")[1]
        self.assertStatus(user.request("GET", "/api/v1/me"), 200)
        mcp = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
               "params": {"name": "migrations-list", "arguments": {}}}
        seen = {}

        def while_down():
            t0 = time.time()
            for path in ("/api/v1/me", "/api/v1/migrations"):
                r = user.request("GET", path)
                self.assertError(r, 503, "service_unavailable")
                self.assertEqual(r.header("Retry-After"), "5", r.describe())
                self.assertNotIn(secret, r.body.decode("utf-8", "replace"))
            r = user.request("POST", "/api/v1/migrations",
                             body={"provider": "uptimerobot", "credentials": {"api_key": "down-key"}})
            self.assertError(r, 503, "service_unavailable")
            r = self.stack.request("POST", "/mcp", token=user.token, body=mcp)
            seen["mcp"] = (r.status, r.json)
            seen["mcp_retry_after"] = r.header("Retry-After")
            seen["seconds"] = time.time() - t0

        harness.restart_mariadb(self.stack, while_down=while_down)
        status, body = seen["mcp"]
        # an HTTP-level refusal (clients do not read it as a JSON-RPC answer), as for 401 and 429
        self.assertEqual(status, 503, body)
        self.assertEqual(seen["mcp_retry_after"], "5")
        self.assertEqual(body["jsonrpc"], "2.0", body)
        self.assertNotIn("result", body)
        self.assertEqual(body["error"]["data"]["code"], "service_unavailable", body)
        self.assertIn("temporarily unavailable", body["error"]["message"])
        self.assertLess(seen["seconds"], 10)
        figures("database-down", answers_in_seconds="%.2f" % seen["seconds"])
        # the same processes reconnect
        for _ in range(4):
            self.assertStatus(user.request("GET", "/api/v1/me"), 200)
        r = user.request("GET", "/api/v1/migrations")
        self.assertStatus(r, 200)
        self.assertEqual(r.json["data"], [])
