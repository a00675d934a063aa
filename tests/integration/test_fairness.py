"""Fair share among users (issue 28 items 1 and 2, docs/runner.md "Fair share"): a claim takes first
a job late on the way to its run's review (waiting FAIR_LATE_US, 5 s), then a job of a user with no
job held, then of the user that has had least runner time lately; within a user, a run with no job
held, then the run that has had least runner time lately; then the oldest job. A step gives its
runner up when a job waits of a user with nothing held who has had FAIR_MARGIN_MS (2 s) less runner
time than the step's user (or of another run of the step's user, likewise), or, unless the step is
itself on the way to a review, a late job on the way to another run's review.

bench/fairness.py measures what a user sees; this checks the rules on any machine: the runner time a
run has had is set in runner_time (the knob), and runners are stopped at known points by row locks,
never by timing.
"""

import json
import re
import time

import harness
from harness import q
from test_runner import RunnerTestCase

CLAIMED = re.compile(r"job \d+ \((\w+), run ([0-9a-f-]{36})\) claimed")


def monitors(n, prefix):
    return [("monitor", "%s%05d" % (prefix, i), {"name": "M%d" % i, "url": "https://%s%d.example.com/" % (prefix, i),
                                                  "type": "http", "interval": 60, "paused": False})
            for i in range(n)]


class FairTestCase(RunnerTestCase):

    def setUp(self):
        self.stack.drop_leftover_jobs()

    def had(self, user, rid, ms, ago_s=0):
        """Run rid of user has had ms of runner time, its last step ended ago_s seconds ago."""
        self.stack.sql("INSERT INTO runner_time (user_id, run_id, ms, at) VALUES (%d, %s, %d,"
                       " UTC_TIMESTAMP(6) - INTERVAL %d SECOND) ON DUPLICATE KEY UPDATE ms = VALUES(ms), at = VALUES(at)"
                       % (user.id, q(rid), ms, ago_s))

    def runner_ms(self, rid):
        v = self.stack.sql_value("SELECT ms FROM runner_time WHERE run_id = %s" % q(rid))
        return float(v) if v not in (None, "NULL") else None

    def claims(self, *args):
        p = self.runner("--once", "--verbose", *args)
        return [run for _, run in CLAIMED.findall(p.stderr)]

    def jobs_of(self, rid, queue=None):
        return self.stack.count("jobs", "run_id=%s%s" % (q(rid), " AND queue=%s" % q(queue) if queue else ""))

    def review_run(self, user, waited_s):
        """A run on the way to its review (discovering), its plan for the review queued waited_s
        seconds ago."""
        rid = self.stack.insert_run(user.id, status="discovering", provider="uptimerobot",
                                    stats={"discovered": {"monitor": 5}, "planned": {}, "imported": 0,
                                           "skipped": 0, "failed": 0, "progress": 0})
        self.stack.insert_resource_rows(rid, [(t, ext + rid[:8], norm) for t, ext, norm in monitors(5, "r")])
        self.job(rid, waited_s, queue="planning", payload='{"review":true}')
        return rid

    def job(self, rid, age_s, held=False, queue="discovery", payload=None):
        """A job of run rid, available since age_s seconds ago (held: another runner's, its lease
        running)."""
        self.stack.sql(
            "INSERT INTO jobs (queue, run_id, payload, available_at, reserved_by, reserved_until, created_at)"
            " VALUES (%s, %s, %s, UTC_TIMESTAMP(6) + INTERVAL %d SECOND, %s, %s,"
            " UTC_TIMESTAMP(6) - INTERVAL %d SECOND)" % (
                q(queue), q(rid), q(payload), 600 if held else -age_s, q("elsewhere") if held else "NULL",
                "UTC_TIMESTAMP(6) + INTERVAL 600 SECOND" if held else "NULL", age_s))


class TestClaimOrder(FairTestCase):
    """The order itself, on runs whose jobs a runner only drops (cancelled runs: the claim is all
    that is seen)."""

    def idle_run(self, user):
        return self.stack.insert_run(user.id, status="cancelled")

    def test_a_user_or_run_with_nothing_held_goes_before_older_work(self):
        a, b = self.user(), self.user()
        a_busy, a_other, b_run = self.idle_run(a), self.idle_run(a), self.idle_run(b)
        self.job(a_busy, 900, held=True)   # a runner elsewhere works for user a
        self.job(a_busy, 600)              # the oldest available job: that run's next chunk
        self.job(a_other, 300)             # another run of user a, nothing held
        self.job(b_run, 60)                # user b, the newest, nothing held
        # oldest first would be a_busy, a_other, b_run
        self.assertEqual(self.claims(), [b_run, a_other, a_busy])
        self.assertEqual(self.stack.count("jobs", "reserved_by IS NULL"), 0, "each claimed once")

    def test_the_user_then_the_run_that_had_least_runner_time_lately_goes_first(self):
        a, b, c = self.user(), self.user(), self.user()
        a_large, a_small, b_run, c_run = self.idle_run(a), self.idle_run(a), self.idle_run(b), self.idle_run(c)
        self.job(a_large, 900, queue="resources")   # the oldest: a large import's chunk
        self.job(a_small, 800, queue="planning")
        self.job(b_run, 700)
        self.job(c_run, 30)                         # a newcomer
        self.had(a, a_large, 60000)                 # a minute of runners
        self.had(a, a_small, 300)
        self.had(b, b_run, 5000)
        # users: c (none) before b (5 s) before a (60.3 s); within a, the small run first
        self.assertEqual(self.claims(), [c_run, b_run, a_small, a_large])

    def test_a_job_late_on_the_way_to_a_review_goes_first(self):
        a, b, c = self.user(), self.user(), self.user()
        # (early: 5 s from late, whatever the time the runner takes to reach it)
        late, early = self.review_run(a, waited_s=10), self.review_run(c, waited_s=0)
        newcomer = self.idle_run(b)
        self.job(newcomer, 1)
        self.had(a, late, 60000)    # both reviews' users have had a minute of runners lately
        self.had(c, early, 60000)
        # the review that has waited FAIR_LATE_US (5 s) first; then least runner time lately
        self.assertEqual(self.claims("--max-jobs", "3"), [late, newcomer, early])
        self.assertEqual(self.stack.run_status(late), "awaiting_review")

    def test_runner_time_fades_with_a_half_life_of_a_minute(self):
        a, b = self.user(), self.user()
        old, recent = self.idle_run(a), self.idle_run(b)
        self.job(old, 900)
        self.job(recent, 30)
        self.had(a, old, 60000, ago_s=600)   # a minute of runners ten minutes ago: 60000/1024 now
        self.had(b, recent, 1000)            # a second just now
        self.assertEqual(self.claims(), [old, recent])

    def test_housekeeping_forgets_runs_not_served_for_twenty_minutes(self):
        a = self.user()
        gone, kept = self.idle_run(a), self.idle_run(a)
        self.had(a, gone, 1000, ago_s=21 * 60)
        self.had(a, kept, 1000, ago_s=19 * 60)
        self.runner("--once")
        self.assertIsNone(self.runner_ms(gone))
        self.assertEqual(self.runner_ms(kept), 1000)


class TestSmallRunBesideLargeImport(FairTestCase):
    """A 20-resource run started while a large import executes goes through before the import's next
    chunks, whether it is another user's or the same user's."""

    def large_import(self, user):
        """A run of 4,500 monitors executing, its import queued in chunks (three of RUNNER_IMPORT_CHUNK,
        2,000), and a minute of runner time behind it."""
        big = self.synthetic_run(user, "uptimerobot", monitors(4500, "big"))
        self.execute(user, big)
        deadline = time.time() + 300
        while self.jobs_of(big, "resources") == 0:
            self.assertLess(time.time(), deadline, "the large run's plan never ended")
            self.runner("--once", "--max-jobs", "1")
        self.assertEqual(self.stack.run_status(big), "executing")
        self.had(user, big, 60000)
        return big

    def small_run(self, user):
        rid = self.stack.insert_run(user.id, status="awaiting_review", provider="uptimerobot",
                                    stats={"discovered": {}, "planned": {}, "imported": 0, "skipped": 0,
                                           "failed": 0, "progress": 0})
        self.stack.insert_resource_rows(rid, [(t, ext + rid[:8], norm) for t, ext, norm in monitors(20, "small")])
        self.execute(user, rid)
        return rid

    def check(self, big_user, small_user):
        big = self.large_import(big_user)
        chunks = self.jobs_of(big, "resources")
        imported = self.stack.count("migration_run_resources", "run_id=%s AND status='imported'" % q(big))
        small = self.small_run(small_user)
        # two steps: the small run's plan, then its import; the large run's chunks all wait
        self.assertEqual(self.claims("--max-jobs", "2"), [small, small])
        self.assertEqual(self.stack.run_status(small), "completed")
        self.assertEqual(self.jobs_of(big, "resources"), chunks)
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s AND status='imported'" % q(big)),
                         imported)
        # each step counted: the small run has had some runner time, less than the large one
        self.assertGreater(self.runner_ms(small), 0)
        self.assertLess(self.runner_ms(small), self.runner_ms(big))

    def test_another_users_small_run_goes_before_the_large_imports_chunks(self):
        self.check(self.user(), self.user())

    def test_the_same_users_small_run_goes_before_its_large_imports_chunks(self):
        user = self.user()
        self.check(user, user)


class TestYield(FairTestCase):

    def held_step(self, big, worker, max_jobs, meanwhile):
        """A runner's planning step of run big starts and waits at the run's first resource (its
        first batch locks it); meanwhile() makes other work wait. Held longer than RUNNER_YIELD_MS
        (250 ms), the step looks at once after its first transaction whether other work waits. The
        runs the runner claimed, in order."""
        lock = harness.RowLock(self.stack, "SELECT id FROM migration_run_resources WHERE run_id = %s"
                                           " ORDER BY id LIMIT 1 FOR UPDATE" % q(big))
        proc = harness.spawn_runner(self.stack, self.cfg, "--max-jobs", str(max_jobs), "--verbose",
                                    "--worker-id", worker)
        deadline = time.time() + 60
        while not lock.waiting("%migration_run_resources%"):
            self.assertLess(time.time(), deadline, "the runner never reached the run's resources")
            time.sleep(0.15)
        meanwhile()
        time.sleep(0.6)
        lock.release()
        proc.p.wait(120)
        return [run for _, run in CLAIMED.findall(open(proc.log).read())]

    def planned(self, big):
        return self.stack.count("migration_run_resources", "run_id=%s AND action IS NOT NULL" % q(big))

    def test_a_long_step_gives_its_runner_up_when_a_less_served_user_waits(self):
        a, b = self.user(), self.user()
        big = self.synthetic_run(a, "uptimerobot", monitors(1200, "y"))  # three planning transactions of 500
        self.execute(a, big)
        self.had(a, big, 60000)
        waiting = self.stack.insert_run(b.id, status="cancelled")
        claimed = self.held_step(big, "fair", 2, lambda: self.stack.insert_job(waiting))
        self.assertEqual(claimed, [big, waiting], "the big run's step, then user b's job")
        # the big run's plan was cut after its first transaction and goes on from there
        self.assertEqual(self.planned(big), 500)
        self.assertEqual(self.jobs_of(big, "planning"), 1)
        # the step's time (held at least 0.6 s) was added to the big run's minute (decayed a little)
        self.assertGreater(self.runner_ms(big), 50000)
        self.drive(big, "completed")
        self.assertEqual(self.count("monitors", a), 1200)
        self.assertEqual(self.stack.sql("SELECT DISTINCT attempts FROM migration_run_resources WHERE run_id=%s"
                                        % q(big)), [("1",)], "every resource imported once")

    def test_a_step_keeps_its_runner_when_the_waiting_user_has_had_more(self):
        a, b = self.user(), self.user()
        big = self.synthetic_run(a, "uptimerobot", monitors(1200, "k"))
        self.execute(a, big)
        waiting = self.stack.insert_run(b.id, status="cancelled")
        self.had(b, waiting, 60000)   # user b has nothing held, but has had a minute lately
        self.held_step(big, "keep", 1, lambda: self.stack.insert_job(waiting))
        self.assertEqual(self.planned(big), 1200, "the step planned the whole run in one go")

    def test_a_step_gives_its_runner_up_for_a_late_job_on_the_way_to_a_review(self):
        a, b = self.user(), self.user()
        big = self.synthetic_run(a, "uptimerobot", monitors(1200, "l"))
        self.execute(a, big)
        waiting = self.review_run(b, waited_s=-600)   # not available yet
        self.had(b, waiting, 60000)   # user b has had a minute lately: only its lateness counts
        # user b's review becomes available, late, while the big run's step waits at its first batch
        claimed = self.held_step(big, "late", 2, lambda: self.stack.sql(
            "UPDATE jobs SET available_at = UTC_TIMESTAMP(6) - INTERVAL 10 SECOND WHERE run_id = %s" % q(waiting)))
        self.assertEqual(claimed, [big, waiting], "the big run's step, then user b's late review")
        self.assertEqual(self.planned(big), 500, "the big run's plan was cut after its first transaction")
        self.assertEqual(self.stack.run_status(waiting), "awaiting_review")


class TestLeftoverJobs(FairTestCase):
    """Issue 28's first attempt: a test that drives its run one step at a time got another test's
    leftover job first. Every test now starts with none (run.py: Stack.drop_leftover_jobs)."""

    def test_a_test_starts_with_no_job_of_another_test(self):
        self.assertEqual(self.stack.count("jobs", "1"), 0)
        other = self.stack.insert_run(self.user().id, status="cancelled")
        self.stack.insert_job(other)
        self.stack.drop_leftover_jobs()
        mine = self.stack.insert_run(self.user().id, status="cancelled")
        self.stack.insert_job(mine)
        self.assertEqual(self.claims("--max-jobs", "1"), [mine])
