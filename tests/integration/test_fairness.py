"""Fair share among users (issue 28 item 1, docs/runner.md "Fair share"): a claim takes first a job
of a user with no job running, then one of a run with none running, each the run that has had least
runner time first; a step ends early when such work waits, its job going back as a continuation.
bench/fairness.py measures what a user sees; this checks the rules, with runners stopped at known
points (row locks held), on any machine.
"""

import re
import time

import harness
from harness import q
from test_runner import RunnerTestCase

CLAIMED = re.compile(r"job \d+ \((\w+), run ([0-9a-f-]{36})\) claimed")


class TestFairShare(RunnerTestCase):

    def setUp(self):
        self.stack.sql("DELETE FROM jobs")

    def idle_run(self, user):
        """A cancelled run: a runner claims its job and drops it (its claim is all that is seen)."""
        return self.stack.insert_run(user.id, status="cancelled")

    def job(self, rid, age_s, held=False):
        """A discovery job of run rid, available since age_s seconds ago (held: another runner's,
        its lease running)."""
        self.stack.sql(
            "INSERT INTO jobs (queue, run_id, available_at, reserved_by, reserved_until, created_at)"
            " VALUES ('discovery', %s, UTC_TIMESTAMP(6) + INTERVAL %d SECOND, %s, %s,"
            " UTC_TIMESTAMP(6) - INTERVAL %d SECOND)" % (
                q(rid), 600 if held else -age_s, q("elsewhere") if held else "NULL",
                "UTC_TIMESTAMP(6) + INTERVAL 600 SECOND" if held else "NULL", age_s))

    def runner_time(self, rid, ms):
        """Run rid's steps have taken ms of a runner so far."""
        self.stack.sql("UPDATE migration_runs SET runner_ms = %d WHERE id = %s" % (ms, q(rid)))

    def claims(self, *args):
        p = self.runner("--once", "--verbose", *args)
        return [run for _, run in CLAIMED.findall(p.stderr)]

    def test_a_user_or_run_with_nothing_running_is_claimed_before_older_work(self):
        a, b = self.user(), self.user()
        a_busy, a_other, b_run = self.idle_run(a), self.idle_run(a), self.idle_run(b)
        self.job(a_busy, 900, held=True)   # a runner elsewhere works for user a
        self.job(a_busy, 600)              # the oldest available job: that run's next chunk
        self.job(a_other, 300)             # another run of user a, nothing running
        self.job(b_run, 60)                # user b, the newest, nothing running
        # oldest first would be a_busy, a_other, b_run
        self.assertEqual(self.claims(), [b_run, a_other, a_busy])
        self.assertEqual(self.stack.count("jobs", "reserved_by IS NULL"), 0, "each claimed once")

    def test_among_users_with_nothing_running_the_run_that_had_least_runner_time_goes_first(self):
        users = [self.user() for _ in range(3)]
        large, small, new = (self.idle_run(u) for u in users)
        self.job(large, 900)        # the oldest job, of a run that has had a minute of runners
        self.runner_time(large, 60000)
        self.job(small, 600)        # a run that has had a few short steps
        self.runner_time(small, 300)
        self.job(new, 30)           # a newcomer
        self.assertEqual(self.claims(), [new, small, large])

    def test_a_long_step_gives_its_runner_up_when_another_user_waits(self):
        a, b = self.user(), self.user()
        items = [("monitor", "m%04d" % i, {"name": "M%d" % i, "url": "https://m%d.example.com/" % i,
                                           "type": "http", "interval": 60, "paused": False})
                 for i in range(1200)]   # three planning transactions of RUNNER_PLAN_BATCH (500)
        big = self.synthetic_run(a, "uptimerobot", items)
        self.execute(a, big)
        waiting = self.idle_run(b)
        # The runner's planning step starts and waits at the run's first resource (its first batch
        # locks it); meanwhile user b's job arrives. Held longer than RUNNER_YIELD_MS (500 ms), the
        # step looks at once after its first transaction whether other work waits: it does.
        lock = harness.RowLock(self.stack, "SELECT id FROM migration_run_resources WHERE run_id = %s"
                                           " ORDER BY id LIMIT 1 FOR UPDATE" % q(big))
        proc = harness.spawn_runner(self.stack, self.cfg, "--max-jobs", "2", "--verbose", "--worker-id", "fair")
        deadline = time.time() + 60
        while not lock.waiting("%migration_run_resources%"):
            self.assertLess(time.time(), deadline, "the runner never reached the run's resources")
            time.sleep(0.15)
        self.job(waiting, 1)
        time.sleep(0.6)
        lock.release()
        proc.p.wait(120)
        claimed = [run for _, run in CLAIMED.findall(open(proc.log).read())]
        self.assertEqual(claimed, [big, waiting], "the big run's step, then user b's job")
        # the step's time, held at least 0.6 s, is the big run's runner time
        self.assertGreaterEqual(int(self.stack.sql_value("SELECT runner_ms FROM migration_runs WHERE id = %s"
                                                         % q(big))), 600)
        # the big run's plan was cut after its first transaction and goes on from there
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s AND action IS NOT NULL" % q(big)),
                         500)
        self.assertEqual(self.stack.count("jobs", "run_id=%s AND queue='planning' AND reserved_by IS NULL" % q(big)),
                         1)
        self.drive(big, "completed")
        self.assertEqual(self.count("monitors", a), 1200)
        self.assertEqual(self.stack.sql("SELECT DISTINCT attempts FROM migration_run_resources WHERE run_id=%s"
                                        % q(big)), [("1",)], "every resource imported once")
