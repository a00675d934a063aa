"""Provider rate limits are waited out (issue 24 item 5, docs/runner.md "Rate limits"): real
runner processes against the fake providers' refusals (tests/fakes/README.md, faults `429`).

A wait that fits in the runner's step is waited there; a longer one releases the discovery job
with the wait as its delay, so the next runner process (or the next cron start) asks no earlier.
Every test makes the first runner's step end before the wait it learns by giving that runner one
second in all (`--max-seconds 1`) and the refusal a longer wait: whatever the machine's speed, the
first process has to leave the rest to a second one. Waits are a few seconds at most: the refusals
name 1-3 s, and the tests of 60 refusals use `[limits] provider_wait_min = 0` (no floor) with
refusals that name no wait or `Retry-After: 0`.
"""

import calendar
import json
import time

import harness
from harness import q
from test_runner import RunnerTestCase

UR = "uptimerobot"
# The runner counts waits in whole milliseconds of its monotonic clock (mono_ms drops the rest), from
# when it read the answer: a wait may end up to that millisecond before the fake's clock, which
# stamped the request when it came in, says. The rest of each comparison is exact.
CLOCK_MS = 0.001


def epoch(iso):
    return calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))


class RateLimitTestCase(RunnerTestCase):

    @classmethod
    def setUpClass(cls):
        # a lease longer than any step, as docs/runner.md asks
        cls.cfg = harness.runner_config(cls.stack, "ratelimit", lease_seconds=30, max_attempts=3)
        cls.cfg_nofloor = harness.runner_config(cls.stack, "ratelimit-nofloor", lease_seconds=30,
                                                provider_wait_min=0)
        cls.cfg_max5 = harness.runner_config(cls.stack, "ratelimit-max5", lease_seconds=30,
                                             provider_wait_max=5)

    def requests(self, provider=UR, since=0, every=False):
        """The requests the fake saw; for UptimeRobot only the monitor lists (each step's first
        fetch also probes v3, which the fake's legacy key answers 401) unless every."""
        out = harness.fake_call(self.stack, "GET", "/_control/requests?provider=%s&since=%s" % (provider, since))
        return [r for r in out if every or provider != UR or r["path"].endswith("/getMonitors")]

    def first_runner(self, cfg=None):
        """A runner process with one second in all: its step ends before any wait longer than that."""
        self.runner("--once", "--max-seconds", "1", cfg=cfg)

    def run_stats(self, user, rid):
        return self.get(user, rid)["data"]["stats"]

    def available_at(self, rid):
        return float(self.stack.sql_value(
            "SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01', available_at) / 1e6 FROM jobs WHERE run_id=%s" % q(rid)))

    def payload(self, rid):
        return json.loads(self.stack.sql_value("SELECT payload FROM jobs WHERE run_id=%s" % q(rid)))

    def assertWaitsHonoured(self, reqs, wait_of):
        """Every request (of any path) after a refusal r came no earlier than wait_of(r) seconds
        after it."""
        every = self.requests(every=True)
        for r in self.refusals(reqs):
            later = [x for x in every if x["ts"] > r["ts"]]
            if later:
                self.assertGreaterEqual(later[0]["ts"], r["ts"] + wait_of(r) - CLOCK_MS, (r, later[0]))

    def refusals(self, reqs):
        return [r for r in reqs if r["status"] == 429]


class TestRefusalsInARow(RateLimitTestCase):

    def test_six_refusals_with_retry_after_across_two_runners(self):
        user = self.user()
        key = self.account(monitors=120, heartbeats=0, contacts=3, status_pages=0)
        self.faults({"kind": "429", "retry_after": 2, "match": "getMonitors", "times": 1},
                    {"kind": "429", "retry_after": 1, "match": "getMonitors", "times": 5})
        rid = self.start(user, key)
        self.first_runner()
        # The first process asked once, learned the wait and released the job for it.
        reqs = self.requests()
        self.assertEqual([r["status"] for r in reqs], [429], reqs)
        self.assertEqual(self.stack.run_status(rid), "discovering")
        self.assertGreaterEqual(self.available_at(rid), reqs[0]["ts"] + 2 - CLOCK_MS)
        self.assertEqual(self.payload(rid)["refusals"], 1)
        self.assertEqual(self.stack.sql_value("SELECT attempts FROM jobs WHERE run_id=%s" % q(rid)), "0",
                         "a refusal is no failed attempt")
        waiting = self.run_stats(user, rid)["waiting"]
        self.assertEqual((waiting["reason"], waiting["provider"]), ("rate_limit", UR), waiting)
        self.assertGreaterEqual(epoch(waiting["until"]), reqs[0]["ts"] + 2)
        lines = [l for l in self.logs(user, rid) if l["message"].startswith("Waiting for ")]
        self.assertEqual(len(lines), 1, lines)
        self.assertEqual(lines[0]["message"], "Waiting for UptimeRobot's rate limit until %s." % waiting["until"])
        self.assertEqual((lines[0]["level"], lines[0]["context"]["refusals"]), ("warning", 1))
        # Other processes take it from there, never earlier than each refusal asked.
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        reqs = self.requests()
        self.assertEqual(len(self.refusals(reqs)), 6)
        self.assertEqual([r["status"] for r in reqs[:6]], [429] * 6)
        self.assertWaitsHonoured(reqs, lambda r: 2 if r is reqs[0] else 1)
        stats = self.run_stats(user, rid)
        self.assertEqual(stats["discovered"]["monitor"], 120)
        self.assertNotIn("waiting", stats)

    def test_six_refusals_without_retry_after_across_two_runners(self):
        """No Retry-After: UptimeRobot's X-RateLimit-Reset (an epoch time) says when."""
        user = self.user()
        key = self.account(monitors=120, heartbeats=0, contacts=3, status_pages=0)
        self.faults({"kind": "429", "no_retry_after": True, "retry_after": 3, "match": "getMonitors", "times": 1},
                    {"kind": "429", "no_retry_after": True, "retry_after": 1, "match": "getMonitors", "times": 5})
        rid = self.start(user, key)
        self.first_runner()
        reqs = self.requests()
        self.assertEqual([r["status"] for r in reqs], [429], reqs)
        reset = int(reqs[0]["ts"] + 3)  # the fake's X-RateLimit-Reset
        self.assertGreaterEqual(self.available_at(rid), reset - CLOCK_MS)
        self.assertGreaterEqual(epoch(self.run_stats(user, rid)["waiting"]["until"]), reset)
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        reqs = self.requests()
        self.assertEqual(len(self.refusals(reqs)), 6)
        self.assertWaitsHonoured(reqs, lambda r: int(r["ts"] + (3 if r is reqs[0] else 1)) - r["ts"])
        self.assertEqual(self.run_stats(user, rid)["discovered"]["monitor"], 120)

    def sixty(self, first):
        """60 refusals in a row: 30 like first, one that names 2 s (the first runner's step ends
        there at the latest), 29 like first; then the run."""
        user = self.user()
        key = self.account(monitors=120, heartbeats=0, contacts=3, status_pages=0)
        self.faults(dict(first, kind="429", match="getMonitors", times=30),
                    {"kind": "429", "retry_after": 2, "match": "getMonitors", "times": 1},
                    dict(first, kind="429", match="getMonitors", times=29))
        rid = self.start(user, key)
        self.first_runner(cfg=self.cfg_nofloor)
        reqs = self.requests()
        self.assertEqual(self.stack.run_status(rid), "discovering")
        self.assertLessEqual(len(reqs), 31, "the first process stops at the 2 s wait at the latest")
        self.assertEqual(set(r["status"] for r in reqs), {429})
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed"), cfg=self.cfg_nofloor), "awaiting_review")
        reqs = self.requests()
        self.assertEqual([r["status"] for r in reqs[:60]], [429] * 60)
        self.assertEqual(len(self.refusals(reqs)), 60)
        self.assertGreaterEqual(reqs[31]["ts"], reqs[30]["ts"] + 2 - CLOCK_MS, "the second process honoured the 2 s")
        self.assertEqual(self.run_stats(user, rid)["discovered"]["monitor"], 120)
        self.assertEqual(self.stack.count("migration_run_resources", "run_id=%s" % q(rid)), 123)
        # every refusal is in the log: waited out within a step (counted), or the job released for it
        logs = self.logs(user, rid)
        released = [l for l in logs if l["message"].startswith("Waiting for ")]
        waited = [l for l in logs if l["context"].get("reason") == "rate_limit" and "waited_ms" in l["context"]]
        self.assertTrue(waited, logs)
        for l in waited:
            n = l["context"]["refusals"]
            self.assertEqual(l["message"], "UptimeRobot refused %d request%s for its rate limit; waited %.1f s in "
                             "all and asked again." % (n, "" if n == 1 else "s", l["context"]["waited_ms"] / 1000))
        self.assertEqual(sum(l["context"]["refusals"] for l in waited) + len(released), 60)
        return user, rid

    def test_sixty_refusals_with_retry_after_zero_across_two_runners(self):
        self.sixty({"retry_after": 0})

    def test_sixty_refusals_naming_no_wait_across_two_runners(self):
        """Neither Retry-After nor X-RateLimit-*: the session's own backoff, from
        provider_wait_min (0 here)."""
        self.sixty({"no_retry_after": True, "no_limit_headers": True})


class TestProviderWaitMax(RateLimitTestCase):

    def test_run_fails_after_provider_wait_max_of_refusals_across_runners(self):
        """provider_wait_max 5 s, each refusal naming 2 s: the third refusal in a row would make
        the row last past 5 s, so the run fails there at the latest, each refusal met by another
        process. Where it fails depends on time (the row is measured on the clock): on a loaded
        machine the runner that meets the second refusal may come more than 1 s after its wait,
        and 2 s more would pass 5 s already; so the run fails at the second or the third, and
        says how many it met."""
        user = self.user()
        key = self.account(monitors=20, heartbeats=0, contacts=1, status_pages=0)
        self.faults({"kind": "429", "retry_after": 2, "match": "getMonitors", "times": 0})
        rid = self.start(user, key)
        deadline = time.time() + 60
        while self.stack.run_status(rid) == "discovering" or self.stack.run_status(rid) == "pending":
            self.assertLess(time.time(), deadline, self.stack.sql("SELECT * FROM jobs"))
            self.first_runner(cfg=self.cfg_max5)
            time.sleep(0.2)
        run = self.get(user, rid)["data"]
        self.assertEqual(run["status"], "failed")
        reqs = self.requests()
        n = len(reqs)
        self.assertIn(n, (2, 3), reqs)
        self.assertEqual([r["status"] for r in reqs], [429] * n, reqs)
        self.assertTrue(run["error_message"].startswith(
            "Discovery failed: UptimeRobot kept refusing requests for its rate limit (%d in a row over " % n), run)
        self.assertIn("[limits] provider_wait_max (5 s)", run["error_message"])
        self.assertNotIn("waiting", run["stats"])
        self.assertWaitsHonoured(reqs, lambda r: 2)
        err = [l for l in self.logs(user, rid) if l["level"] == "error"]
        self.assertEqual((err[0]["context"]["reason"], err[0]["context"]["refusals"]), ("rate_limit", n), err)
        self.assertEqual(self.stack.count("jobs", "run_id=%s" % q(rid)), 0)
        self.assertIsNone(self.stack.sql_dicts("SELECT credentials FROM migration_runs WHERE id=%s" % q(rid))[0]
                          ["credentials"])
        harness.fake_call(self.stack, "DELETE", "/_control/%s/faults" % UR)

    def test_an_answer_between_refusals_starts_the_count_again(self):
        """Eight refusals of 1 s, never three in a row (an answer after every two): the run
        finishes under provider_wait_max 5, though its refusals span more than that. A row of two
        passes the limit only when the runner asks again more than 3 s after its wait, so a
        loaded machine does not fail it."""
        user = self.user()
        key = self.account(monitors=200, heartbeats=0, contacts=3, status_pages=0)   # 4 pages
        # each later fault lets through as many requests as the faults before it take turns
        # answering (the fake counts `after` on every fault it passes)
        self.faults(*[dict({"kind": "429", "retry_after": 1, "match": "getMonitors", "times": 2},
                           **({"after": k} if k else {})) for k in range(4)])
        rid = self.start(user, key)
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed"), cfg=self.cfg_max5), "awaiting_review")
        reqs = self.requests()
        self.assertEqual([r["status"] for r in reqs], [429, 429, 200] * 4)
        self.assertWaitsHonoured(reqs, lambda r: 1)
        self.assertGreater(reqs[10]["ts"] - reqs[0]["ts"], 5, "more than provider_wait_max of refusals in all")

    def test_cancel_while_waiting_ends_the_wait(self):
        user = self.user()
        key = self.account(monitors=5, heartbeats=0, contacts=1, status_pages=0)
        self.faults({"kind": "429", "retry_after": 30, "match": "getMonitors", "times": 1})
        rid = self.start(user, key)
        self.first_runner()
        self.assertIn("waiting", self.run_stats(user, rid))
        r = user.request("POST", "/api/v1/migrations/%s/cancel" % rid)
        self.assertStatus(r, 200)
        stats = self.run_stats(user, rid)
        self.assertNotIn("waiting", stats)
        self.assertEqual(stats["discovered"], {})
        # stats that are not JSON (never written so) do not stop a cancel
        rid2 = self.stack.insert_run(user.id, status="discovering")
        self.stack.sql("UPDATE migration_runs SET stats='not json' WHERE id=%s" % q(rid2))
        self.assertStatus(user.request("POST", "/api/v1/migrations/%s/cancel" % rid2), 200)


class TestStatuspagePacing(RateLimitTestCase):

    def test_statuspage_is_paced_to_one_request_a_second_across_runners(self):
        """The fake refuses (420) any Statuspage request within a second of the one before
        (rolling_window 1, stricter than the real 60 s window): the runner never meets it, not
        even when a second process takes over."""
        user = self.user()
        harness.fake_call(self.stack, "POST", "/_control/statuspage/account", {
            "credentials": {"api_key": "sp-pace-key"},
            "counts": {"status_pages": 1, "components": 150, "component_groups": 2, "subscribers": 120},
            "options": {"rolling_window": 1}})
        harness.fake_call(self.stack, "DELETE", "/_control/statuspage/faults")
        harness.fake_call(self.stack, "DELETE", "/_control/requests")
        self.stack.sql("DELETE FROM jobs")
        r = user.request("POST", "/api/v1/migrations",
                         body={"provider": "statuspage", "credentials": {"api_key": "sp-pace-key"}})
        self.assertStatus(r, 201)
        rid = r.json["data"]["id"]
        self.first_runner()
        # Its one fetch (the page, then its groups and components) ended the step.
        self.assertEqual(self.stack.run_status(rid), "discovering")
        first = self.requests("statuspage")
        self.assertEqual(self.drive(rid, ("awaiting_review", "failed")), "awaiting_review")
        reqs = self.requests("statuspage")
        self.assertGreater(len(reqs), len(first))
        self.assertEqual([r for r in reqs if r["status"] != 200], [])
        for a, b in zip(reqs, reqs[1:]):
            self.assertGreaterEqual(b["ts"] - a["ts"], 1.0 - CLOCK_MS, (a, b))
        stats = self.run_stats(user, rid)
        self.assertEqual(stats["discovered"]["status_page_subscriber"], 120)
