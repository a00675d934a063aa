#!/usr/bin/env python3
"""bench/natural_key: planning against an account that already has many
monitors. A user has EXISTING monitors of type http on distinct hosts, written
by plain SQL as another program would; a run of NEW monitors on other hosts
(and, last, one spelling of an existing one, so that the run pauses on that
conflict when the plan is ready and nothing is imported) is planned by
`migrator-runner --once`. Each planned monitor that is not linked yet is
looked up by its natural key (monitor_find, docs/resources.md).

Prints, per runner build (the build under test, and with --before DIR another
build's runner against the same MariaDB, schema and data, in the same run):
planning time ("Planning started" to "Plan ready" in the run log) and
resources/s, and MariaDB's counters over the runner's whole work divided by
the resources planned: Handler_read_key (index lookups), Handler_read_next
(rows read along an index), Handler_read_rnd_next (rows read by a table scan)
and Rows_read. Nothing else uses the database meanwhile: the counters are read
before and after each runner process, whose work is the planning. A last
plan of the same run for an account of one monitor gives the floor: what
planning reads besides the lookups.

    MIGRATOR_BUILDDIR=build python3 bench/natural_key.py [--existing M] [--new N] [--before DIR]
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration"))
import harness  # noqa: E402

COUNTERS = ("Handler_read_key", "Handler_read_next", "Handler_read_rnd_next", "Rows_read")


def counters(st):
    rows = st.sql("SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
                  " WHERE VARIABLE_NAME IN (%s)" % ", ".join(harness.q(c.upper()) for c in COUNTERS))
    got = {name.upper(): int(value) for name, value in rows}
    return {c: got[c.upper()] for c in COUNTERS}


def account(st, existing):
    """A user with `existing` http monitors on distinct hosts, inserted by plain SQL."""
    user = st.new_user(scopes=["account:read", "account:write"])
    st.sql("INSERT INTO monitors (user_id, name, type, url, interval_s, paused, created_at, updated_at)"
           " SELECT %d, CONCAT('Site ', seq), 'http', CONCAT('https://site-', seq, '.example.com/health'),"
           " 60, 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM seq_1_to_%d" % (user.id, existing))
    return user


def synthetic_run(st, user, new):
    """A run awaiting review, as discovery leaves it (tests/integration/test_runner.py
    synthetic_run): new-1 monitors on hosts the account does not have, then one
    that is the account's site 1 spelled otherwise."""
    rid = st.insert_run(user.id, status="awaiting_review", provider="pingdom",
                        stats={"discovered": {}, "planned": {}, "imported": 0, "skipped": 0, "failed": 0,
                               "progress": 0})
    seq = "SUBSTRING(external_id, 2)"
    norm = ("CONCAT('{\"name\": \"New ', %s, '\", \"url\": \"https://new-', %s, '.example.com/health\","
            " \"type\": \"http\", \"interval\": 60, \"paused\": false, \"port\": null, \"keyword\": null,"
            " \"contact_ids\": []}')" % (seq, seq))
    st.sql("INSERT INTO migration_run_resources (run_id, resource_type, external_id, status, created_at, updated_at)"
           " SELECT %s, 'monitor', CONCAT('n', seq), 'pending', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6)"
           " FROM seq_1_to_%d" % (harness.q(rid), new - 1))
    st.sql("INSERT INTO migration_run_resources (run_id, resource_type, external_id, status, created_at, updated_at)"
           " VALUES (%s, 'monitor', 'site-1', 'pending', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))" % harness.q(rid))
    st.sql("INSERT INTO migration_run_resource_data (run_id, resource_id, normalized_data) SELECT run_id, id,"
           " IF(external_id = 'site-1', %s, %s) FROM migration_run_resources WHERE run_id = %s" % (harness.q(
               '{"name": "Site 1", "url": "HTTPS://Site-1.Example.com:443/health/", "type": "http", "interval": 60,'
               ' "paused": false, "port": null, "keyword": null, "contact_ids": []}'), norm, harness.q(rid)))
    return rid


def plan(st, runner, label, existing, new):
    user = account(st, existing)
    rid = synthetic_run(st, user, new)
    st.sql("DELETE FROM jobs")
    r = user.request("POST", "/api/v1/migrations/%s/execute" % rid, raw_body=b"",
                     headers={"Content-Type": "application/json"})
    assert r.status == 202, r.describe()
    before = counters(st)
    t0 = time.monotonic()
    while st.run_status(rid) != "paused_conflicts":
        p = subprocess.run([runner, "--config", st.config, "--once", "--max-seconds", "36000"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=st._mariadb_env())
        if p.returncode != 0:
            raise SystemExit("%s exited %d: %s" % (runner, p.returncode, p.stderr[-2000:]))
        if time.monotonic() - t0 > 36000:
            raise SystemExit("run %s still %s" % (rid, st.run_status(rid)))
    wall = time.monotonic() - t0
    after = counters(st)
    plan_s = float(st.sql_value("SELECT TIMESTAMPDIFF(MICROSECOND, MIN(logged_at), MAX(logged_at)) / 1e6"
                                " FROM migration_run_logs WHERE run_id = %s AND (message LIKE 'Planning started%%'"
                                " OR message LIKE 'Plan ready%%')" % harness.q(rid)))
    actions = dict(st.sql("SELECT action, COUNT(*) FROM migration_run_resources WHERE run_id = %s GROUP BY action"
                          % harness.q(rid)))
    ok = actions == {"create": str(new - 1), "conflict": "1"}
    per = {c: (after[c] - before[c]) / new for c in COUNTERS}
    print("== %s (%s)" % (label, runner))
    print("  planning %d monitors against %d: %.2f s (%.0f resources/s; runner processes %.2f s)"
          % (new, existing, plan_s, new / max(plan_s, 1e-6), wall))
    print("  per planned resource: " + ", ".join("%s %.1f" % (c, per[c]) for c in COUNTERS))
    print("  plan: %s %s" % (actions, "ok" if ok else "WRONG (expected %d create, 1 conflict)" % (new - 1)))
    return ok, plan_s, per


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--existing", type=int, default=20000, help="monitors already in the account (default 20000)")
    ap.add_argument("--new", type=int, default=20000, help="monitors in the run (default 20000)")
    ap.add_argument("--before", metavar="DIR", help="also plan with DIR/migrator-runner first (e.g. main's build)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (database, logs)")
    a = ap.parse_args()
    print("bench/natural_key: %d CPUs, load average %.2f" % (os.cpu_count(), os.getloadavg()[0]))
    results, all_ok = [], True
    with harness.Stack(keep=a.keep) as st:
        st.set_flag(True)
        builds = ([("before", os.path.join(os.path.abspath(a.before), "migrator-runner"))] if a.before else [])
        builds.append(("this build", st.runner_path))
        for label, runner in builds:
            ok, plan_s, per = plan(st, runner, label, a.existing, a.new)
            all_ok = all_ok and ok
            results.append((label, plan_s, per))
        # what planning reads besides the lookups: the same run for an account of one monitor
        ok, _, _ = plan(st, st.runner_path, "this build, floor: 1 monitor in the account", 1, a.new)
        all_ok = all_ok and ok
    if len(results) == 2:
        (_, t0, p0), (_, t1, p1) = results
        print("== before / this build: planning time %.1f×; " % (t0 / max(t1, 1e-6))
              + ", ".join("%s %.3g×" % (c, p0[c] / p1[c]) if p1[c] else "%s %.1f / 0" % (c, p0[c])
                          for c in COUNTERS))
    print("load average at the end: %.2f (other work on the box slows every figure)" % os.getloadavg()[0])
    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()
