#!/usr/bin/env python3
"""bench/tenants (issue 28 item 2): many users at once. USERS users (1,000)
each start one run through the API within one minute, of 20 to 500
resources (the fake providers hold one account each, so each size is
another provider's: ACCOUNTS, taken in turn), on SLOTS runner slots (3);
each run is executed through the API as soon as it awaits review. Real migrator-runner processes, a private MariaDB and the fake
providers (tests/integration/harness.py), as bench/fairness.

Reported:
  start to review   from its start being answered to "Discovery finished" in
                    its log (written in the same transaction as the state
                    change): p50, p95, max; goal: max <= 30 s
  runs completed    per minute, from the first start to the last completion,
                    and in the busiest minute
  /me, runs list    p99 of GET /api/v1/me and GET /api/v1/migrations (one
                    client, back to back) while it goes on, beside the same on
                    the idle stack first; goals under load: /me p99 < 15 ms,
                    list p99 < 30 ms

Runners are started as cron/migrator-runner-cron starts them (runner_scale.Cron):
each slot's next runner as the last exits, each with --max-seconds TICK.

    MIGRATOR_BUILDDIR=build python3 bench/tenants.py [--users 1000] [--slots 3] [--minute 60]
"""
import argparse
import os
import queue
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from fairness import execute, pct  # noqa: E402
from runner_scale import Cron  # noqa: E402

# (provider, credential field, resources, the fake account's counts): runs of 20 to 500 resources
ACCOUNTS = (("healthchecks", "api_key", 20, {"heartbeats": 18, "contacts": 2}),
            ("pingdom", "api_token", 50, {"monitors": 48, "contacts": 2}),
            ("cronitor", "api_key", 100, {"monitors": 98, "contacts": 2}),
            ("uptimerobot", "api_key", 200, {"monitors": 198, "contacts": 2}),
            # a third of Better Stack's monitors come with a maintenance window, and its users with
            # their on-call and policy entries: 260 monitors and 2 users make 353 resources
            ("better_stack", "api_token", 353, {"monitors": 260, "users": 2}),
            ("updown", "api_key", 500, {"monitors": 498, "contacts": 2}))
KEY = "tenants-bench-key-0123456789abcd"  # 32 characters, as a Healthchecks key is
REVIEW_GOAL_S = 30.0
ME_GOAL_MS = 15.0
LIST_GOAL_MS = 30.0
IDLE_SAMPLES = 400
TERMINAL = ("completed", "completed_with_errors", "failed", "cancelled")


def timed(user, path):
    t = time.monotonic()
    r = user.request("GET", path)
    ms = (time.monotonic() - t) * 1000.0
    assert r.status == 200, r.describe()
    return ms


class Sampler(threading.Thread):
    """GET /me and the runs list, one after the other, until stopped."""

    def __init__(self, user):
        super().__init__(daemon=True)
        self.user, self.me, self.list, self.stop = user, [], [], threading.Event()

    def run(self):
        while not self.stop.is_set():
            self.me.append(timed(self.user, "/api/v1/me"))
            self.list.append(timed(self.user, "/api/v1/migrations?per_page=20"))


def starter(st, jobs, started, errors):
    while True:
        item = jobs.get()
        if item is None:
            return
        user, (provider, field, size, _), at = item
        delay = at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        try:
            creds = {field: KEY}
            if provider == "healthchecks":  # a self-hosted instance: the fake's
                creds["base_url"] = st.fake_base + "/healthchecks"
            r = user.request("POST", "/api/v1/migrations", body={"provider": provider, "credentials": creds})
            assert r.status == 201, r.describe()
            started[r.json["data"]["id"]] = (user, provider, time.time())
        except BaseException as e:  # a thread's exception would only be printed
            errors.append(repr(e))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--users", type=int, default=1000, help="users, one run each, default 1000")
    ap.add_argument("--slots", type=int, default=3, help="runner slots, default 3")
    ap.add_argument("--minute", type=float, default=60.0, help="the starts are spread over this many s, default 60")
    ap.add_argument("--tick", type=int, default=30, help="a runner's life (--max-seconds TICK), default 30")
    ap.add_argument("--timeout", type=int, default=3600, help="give up after this many s, default 3600")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (database, logs)")
    a = ap.parse_args()
    print("bench/tenants: %d users, one run each of %s resources, started over %.0f s, %d runner slots,"
          " %d CPUs, load average %.2f" % (a.users, "/".join("%d (%s)" % (n, p) for p, _, n, _ in ACCOUNTS),
                                           a.minute, a.slots,
                                           os.cpu_count(), os.getloadavg()[0]))
    with harness.Stack(fakes=True, keep=a.keep) as st:
        conf = harness.runner_config(st, "bench")
        st.set_flag(True)
        for provider, field, _, counts in ACCOUNTS:
            harness.fake_call(st, "POST", "/_control/%s/account" % provider,
                              {"credentials": {field: KEY}, "counts": counts})
        t = time.monotonic()
        users = [st.new_user(scopes=["account:read", "account:write"]) for _ in range(a.users)]
        print("  %d users made in %.0f s" % (len(users), time.monotonic() - t))
        idle = Sampler(users[0])  # the same user's requests, idle and under load
        for _ in range(IDLE_SAMPLES):
            idle.me.append(timed(users[0], "/api/v1/me"))
            idle.list.append(timed(users[0], "/api/v1/migrations?per_page=20"))

        started, errors, jobs = {}, [], queue.Queue()
        workers = [threading.Thread(target=starter, args=(st, jobs, started, errors), daemon=True) for _ in range(16)]
        for w in workers:
            w.start()
        loaded = Sampler(users[0])
        executed = set()
        with Cron(st, conf, a.slots, a.tick) as cron:
            loaded.start()
            t0 = time.monotonic()
            for i, u in enumerate(users):
                jobs.put((u, ACCOUNTS[i % len(ACCOUNTS)], t0 + a.minute * i / len(users)))
            for _ in workers:
                jobs.put(None)
            deadline = t0 + a.timeout
            while True:
                rows = st.sql("SELECT id, status FROM migration_runs")
                status = dict(rows)
                for run, s in rows:
                    if s == "awaiting_review" and run not in executed and run in started:
                        execute(started[run][0], run)
                        executed.add(run)
                done = sum(1 for s in status.values() if s in TERMINAL)
                if (done == a.users and len(started) == a.users) or errors:
                    break
                if time.monotonic() > deadline:
                    errors.append("%d of %d runs ended after %d s" % (done, a.users, a.timeout))
                    break
                time.sleep(1.0)
            loaded.stop.set()
            loaded.join()
        for w in workers:
            w.join()
        logs = st.sql("SELECT run_id, TIMESTAMPDIFF(MICROSECOND, '1970-01-01', MIN(IF(message LIKE"
                      " 'Discovery finished%%', logged_at, NULL))) / 1e6, TIMESTAMPDIFF(MICROSECOND, '1970-01-01',"
                      " MIN(IF(message LIKE 'Run completed%%', logged_at, NULL))) / 1e6 FROM migration_run_logs"
                      " GROUP BY run_id")
        final = dict(st.sql("SELECT id, status FROM migration_runs"))
        failures = st.sql("SELECT provider, LEFT(error_message, 200), COUNT(*) FROM migration_runs"
                          " WHERE status = 'failed' GROUP BY 1, 2")
    review, ends, by_provider = [], [], {}
    for run, at_review, at_end in logs:
        if run not in started:
            continue
        if at_review is not None:
            review.append(float(at_review) - started[run][2])
            by_provider.setdefault(started[run][1], []).append(review[-1])
        if at_end is not None:
            ends.append(float(at_end))
    starts = [v[2] for v in started.values()]
    per_min = 60.0 * len(ends) / (max(ends) - min(starts)) if ends else 0.0
    busiest = max((sum(1 for x in ends if e <= x < e + 60) for e in ends), default=0)
    ok = not errors and not failures and len(review) == a.users and max(review) <= REVIEW_GOAL_S
    print("  start to review  p50 %6.2f s  p95 %6.2f s  max %6.2f s   goal: max <= %.0f s   %s" % (
        pct(review, 50), pct(review, 95), max(review), REVIEW_GOAL_S,
        "ok" if max(review) <= REVIEW_GOAL_S else "MISSED"))
    print("  by provider      " + ", ".join("%s p95 %.2f s max %.2f s" % (p, pct(v, 95), max(v))
                                            for p, v in sorted(by_provider.items())))
    print("  runs completed   %d of %d (%s); %.1f a minute from the first start to the last completion,"
          " %d in the busiest minute" % (len(ends), a.users, ", ".join(
              "%s %d" % (s, sum(1 for v in final.values() if v == s)) for s in sorted(set(final.values()))),
              per_min, busiest))
    for label, idle_v, load_v, goal in (("/me       ", idle.me, loaded.me, ME_GOAL_MS),
                                        ("runs list ", idle.list, loaded.list, LIST_GOAL_MS)):
        p = pct(load_v, 99)
        ok &= p < goal
        print("  %s p99 idle %6.2f ms (%d)   under load %6.2f ms (%d)   goal < %.0f ms   %s" % (
            label, pct(idle_v, 99), len(idle_v), p, len(load_v), goal, "ok" if p < goal else "MISSED"))
    print("  runner log: %s; exits other than 0: %s" % (cron.log, cron.failed or "none"))
    for provider, message, n in failures:
        errors.append("%s runs of %s failed: %s" % (n, provider, message))
    for e in errors[:10]:
        print("  FAILED: %s" % e)
    print("load average at the end: %.2f (other work on the box slows every figure)" % os.getloadavg()[0])
    sys.exit(0 if ok and not cron.failed else 1)


if __name__ == "__main__":
    main()
