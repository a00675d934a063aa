#!/usr/bin/env python3
"""End-to-end scale check of the runner: an UptimeRobot account of N monitors
(default 10000) on the fake provider, discovered, planned and imported by real
runner processes against a private MariaDB. Prints wall time per phase and
the runner's peak resident memory (max over its processes).

    MIGRATOR_BUILDDIR=build python3 bench/runner_scale.py [N]
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration"))
import harness  # noqa: E402


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    with harness.Stack(fakes=True) as st:
        harness.ensure_fakes(st)
        conf = harness.runner_config(st, "scale")
        harness.fake_call(st, "POST", "/_control/uptimerobot/account",
                          {"credentials": {"api_key": "scale-key"},
                           "counts": {"monitors": n, "heartbeats": 0, "contacts": 5, "status_pages": 1}})
        user = st.new_user(scopes=["account:read", "account:write"])
        st.set_flag(True)
        r = user.request("POST", "/api/v1/migrations",
                         body={"provider": "uptimerobot", "credentials": {"api_key": "scale-key"}})
        assert r.status == 201, r.describe()
        run = r.json["data"]["id"]

        peak = [0]

        def runner_pass():
            """One runner invocation; returns its exit code and records its peak RSS."""
            p = subprocess.Popen([st.runner_path, "--config", conf, "--once", "--max-seconds", "50"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env=st._mariadb_env())
            _, status, usage = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            peak[0] = max(peak[0], usage.ru_maxrss)
            return p.returncode

        def until(states):
            steps = 0
            while st.run_status(run) not in states:
                assert runner_pass() == 0
                steps += 1
            return steps

        t0 = time.monotonic()
        steps = until(("awaiting_review", "failed"))
        t1 = time.monotonic()
        assert st.run_status(run) == "awaiting_review"
        r = user.request("POST", "/api/v1/migrations/%s/execute" % run, raw_body=b"",
                         headers={"Content-Type": "application/json"})
        assert r.status == 202, r.describe()
        steps += until(("completed", "completed_with_errors", "failed"))
        t2 = time.monotonic()
        total = st.sql_value("SELECT COUNT(*) FROM migration_run_resources WHERE run_id = %s" % harness.q(run))
        monitors = st.sql_value("SELECT COUNT(*) FROM monitors WHERE user_id = %d" % user.id)
        print("resources: %s (monitors in the account: %s), final status: %s"
              % (total, monitors, st.run_status(run)))
        print("discovery: %.1f s, planning + import: %.1f s, total: %.1f s, runner invocations: %d"
              % (t1 - t0, t2 - t1, t2 - t0, steps))
        print("runner peak RSS (max over its invocations): %d KiB" % peak[0])


if __name__ == "__main__":
    main()
