#!/usr/bin/env python3
"""bench/fairness (issue 28 item 1): does one user's large import hold back
another's small run? Real migrator-runner processes on SLOTS runner slots (2)
against a private MariaDB (tests/integration/harness.py) and the fake
providers. In each scenario, large UptimeRobot imports (N monitors each) are
executing; meanwhile small runs (20 updown checks each) are started one every
0.5 s, each reviewed and executed as soon as it is ready. For each small run:

  to review   from its start being answered to "Discovery finished" in its log
  to complete from its execute being answered to "Run completed" in its log

(the log line is written in the same transaction as the state change), p50,
p95 and max over the small runs, beside the target (2 s at p95), and how many
small runs finished while a large import was still executing (a figure that
counts only then). Scenarios: one large import and small runs of other users;
three large imports at once; one large import and small runs of the same
user (runs of one user share the same way).

Runners are started as cron/migrator-runner-cron starts them (runner_scale.Cron):
each slot's next runner as the last exits, each with --max-seconds TICK.

    MIGRATOR_BUILDDIR=build python3 bench/fairness.py [--slots 2] [--monitors 100000] [--small 20]
"""
import argparse
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from runner_scale import Cron, logged_at  # noqa: E402

TARGET_S = 2.0        # p95 of both waits
SMALL_EVERY_S = 0.5   # a small run is started this often
BIG_KEY = "fair-big-key"
SMALL_KEY = "fair-small-key"


def wait_status(user, run, states, timeout, poll=0.1):
    """Poll the run through the API (a mariadb client a look would take CPU from what is measured)."""
    deadline = time.monotonic() + timeout
    while True:
        r = user.request("GET", "/api/v1/migrations/%s" % run)
        assert r.status == 200, r.describe()
        s = r.json["data"]["status"]
        if s in states:
            return s
        if time.monotonic() > deadline:
            raise SystemExit("run %s still %s after %d s" % (run, s, timeout))
        time.sleep(poll)


def start(user, provider, key):
    r = user.request("POST", "/api/v1/migrations", body={"provider": provider, "credentials": {"api_key": key}})
    assert r.status == 201, r.describe()
    return r.json["data"]["id"], time.time()


def execute(user, run):
    r = user.request("POST", "/api/v1/migrations/%s/execute" % run, raw_body=b"",
                     headers={"Content-Type": "application/json"})
    assert r.status == 202, r.describe()
    return time.time()


def small_run(st, user, out, bigs, errors):
    """One small run from its start to its end; appends (to_review, to_complete, under_load)."""
    try:
        small_run_timed(st, user, out, bigs)
    except BaseException as e:  # a thread's exception would only be printed
        errors.append(repr(e))


def small_run_timed(st, user, out, bigs):
    run, t0 = start(user, "updown", SMALL_KEY)
    assert wait_status(user, run, ("awaiting_review", "failed"), 600) == "awaiting_review", run
    t1 = logged_at(st, run, "Discovery finished")
    t2 = execute(user, run)
    assert wait_status(user, run, ("completed", "completed_with_errors", "failed"), 600) == "completed", run
    t3 = logged_at(st, run, "Run completed")
    loaded = any(st.run_status(b) == "executing" for b in bigs)
    out.append((t1 - t0, t3 - t2, loaded))


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def scenario(st, conf, name, big_users, small_users, slots, tick):
    bigs = []
    with Cron(st, conf, slots, tick) as cron:
        for u in big_users:
            bigs.append((u, start(u, "uptimerobot", BIG_KEY)[0]))
        for u, run in bigs:
            assert wait_status(u, run, ("awaiting_review", "failed"), 3600, poll=0.5) == "awaiting_review", run
        for u, run in bigs:
            execute(u, run)
        # the import under way: planning done, the first resources in
        for u, run in bigs:
            wait_status(u, run, ("executing",), 600, poll=0.5)
        results, threads, errors = [], [], []
        for u in small_users:
            th = threading.Thread(target=small_run, args=(st, u, results, [r for _, r in bigs], errors))
            th.start()
            threads.append(th)
            time.sleep(SMALL_EVERY_S)
        for th in threads:
            th.join()
        for u, run in bigs:  # the large imports have served their purpose
            u.request("POST", "/api/v1/migrations/%s/cancel" % run, raw_body=b"",
                      headers={"Content-Type": "application/json"})
    review = [r[0] for r in results]
    done = [r[1] for r in results]
    loaded = sum(1 for r in results if r[2])
    ok = len(results) == len(small_users) and pct(review, 95) <= TARGET_S and pct(done, 95) <= TARGET_S
    print("== %s: %d small runs, %d of them finished while a large import was executing" % (
        name, len(results), loaded))
    for label, v in (("to review  ", review), ("to complete", done)):
        print("  %s p50 %6.2f s  p95 %6.2f s  max %6.2f s   target p95 <= %.0f s   %s" % (
            label, pct(v, 50), pct(v, 95), max(v), TARGET_S, "ok" if pct(v, 95) <= TARGET_S else "MISSED"))
    print("  runner log: %s; exits other than 0: %s" % (cron.log, cron.failed or "none"))
    for e in errors:
        print("  FAILED: a small run: %s" % e)
    return ok and loaded == len(results) and not cron.failed and not errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--slots", type=int, default=2, help="runner slots, default 2")
    ap.add_argument("--monitors", type=int, default=100000, help="monitors of each large import")
    ap.add_argument("--small", type=int, default=20, help="small runs per scenario, default 20")
    ap.add_argument("--tick", type=int, default=30, help="a runner's life (--max-seconds TICK), default 30")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (database, logs)")
    a = ap.parse_args()
    print("bench/fairness: %d runner slots, large imports of %d monitors, %d small runs of 20 each per scenario,"
          " %d CPUs, load average %.2f" % (a.slots, a.monitors, a.small, os.cpu_count(), os.getloadavg()[0]))
    ok = True
    with harness.Stack(fakes=True, keep=a.keep) as st:
        conf = harness.runner_config(st, "bench")
        st.set_flag(True)
        harness.fake_call(st, "POST", "/_control/uptimerobot/account",
                          {"credentials": {"api_key": BIG_KEY},
                           "counts": {"monitors": a.monitors, "heartbeats": 0, "contacts": 5, "status_pages": 1}})
        harness.fake_call(st, "POST", "/_control/updown/account",
                          {"credentials": {"api_key": SMALL_KEY},
                           "counts": {"monitors": 20, "heartbeats": 0, "contacts": 2, "status_pages": 0}})

        def users(n):
            return [st.new_user(scopes=["account:read", "account:write"]) for _ in range(n)]

        ok &= scenario(st, conf, "one large import, small runs of other users", users(1), users(a.small),
                       a.slots, a.tick)
        ok &= scenario(st, conf, "three large imports at once, small runs of other users", users(3),
                       users(a.small), a.slots, a.tick)
        # the same user: 5 starts a minute (starts_per_minute), so the large import and 4 small runs
        same = users(1)
        ok &= scenario(st, conf, "one large import, small runs of the same user", same, same * 4,
                       a.slots, a.tick)
    print("load average at the end: %.2f (other work on the box slows every figure)" % os.getloadavg()[0])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
