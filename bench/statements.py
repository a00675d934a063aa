#!/usr/bin/env python3
"""bench/statements (issue 28 item 3): where the server's reads go over an import, statement by
statement. An UptimeRobot-shaped account of N monitors on the fake provider is discovered by real
runners (as bench/runner.sh starts them, but living until the run's end: a prepared statement's
figures go with its connection) on a private MariaDB with durable commits and the performance schema
on; from execute being answered to the run's end it prints

  the server's Handler_read_* a resource (what bench/runner.sh adds up as rows read), and
  each prepared statement the runners executed (performance_schema.prepared_statements_instances,
  summed over the runner processes): executions, rows examined a resource, temporary tables and
  the server's time in it, the most rows examined first.

Rows examined are the rows a statement's plan read from its tables, JSON_TABLE's included; the
handler counters also count reads of internal temporary tables (GROUP BY, subqueries), so their
sum is larger.

    MIGRATOR_BUILDDIR=build python3 bench/statements.py [--slots 2] [N]      (default 20000)
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "integration"))
sys.path.insert(0, HERE)

import harness  # noqa: E402
import runner_scale as rs  # noqa: E402

PERFORMANCE_SCHEMA = ("--performance-schema=ON", "--performance-schema-consumer-events-statements-current=ON",
                      "--performance-schema-instrument=statement/%=ON",
                      "--performance-schema-max-sql-text-length=8192")
PS_TABLE = "performance_schema.prepared_statements_instances"
LIFE = 3600        # the runners' --max-seconds: longer than the run


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("size", nargs="?", type=int, default=20000, help="monitors, default 20000")
    ap.add_argument("--slots", type=int, default=2, help="runner slots, default 2")
    a = ap.parse_args()
    n = a.size
    with harness.Stack(fakes=True, mysqld_args=rs.DURABLE + PERFORMANCE_SCHEMA) as st:
        conf = harness.runner_config(st, "bench")
        st.set_flag(True)
        user = st.new_user(scopes=["account:read", "account:write"])
        key = "statements-%d-key" % n
        harness.fake_call(st, "POST", "/_control/uptimerobot/account",
                          {"credentials": {"api_key": key},
                           "counts": {"monitors": n, "heartbeats": 0, "contacts": 5, "status_pages": 1}})
        with rs.Cron(st, conf, a.slots, LIFE) as cron:
            r = user.request("POST", "/api/v1/migrations", body={"provider": "uptimerobot",
                                                                 "credentials": {"api_key": key}})
            assert r.status == 201, r.describe()
            run = r.json["data"]["id"]
            assert rs.wait_status(st, run, ("awaiting_review", "failed"), 3600) == "awaiting_review"
            st.sql("TRUNCATE " + PS_TABLE)
            before = rs.counters(st)
            r = user.request("POST", "/api/v1/migrations/%s/execute" % run, raw_body=b"",
                             headers={"Content-Type": "application/json"})
            assert r.status == 202, r.describe()
            final = rs.wait_status(st, run, ("completed", "completed_with_errors", "failed"), 3600)
            after = rs.counters(st)
            rows = st.sql("SELECT SQL_TEXT, SUM(COUNT_EXECUTE), SUM(SUM_ROWS_EXAMINED), SUM(SUM_CREATED_TMP_TABLES),"
                          " SUM(SUM_TIMER_EXECUTE) / 1e12 FROM %s WHERE COUNT_EXECUTE > 0 GROUP BY SQL_TEXT"
                          " ORDER BY 3 DESC, 2 DESC" % PS_TABLE)
            cron.end_runners()
        imported = int(st.sql_value("SELECT COUNT(*) FROM migration_run_resources WHERE run_id = %s"
                                    " AND status = 'imported'" % harness.q(run)))
    each = max(1, imported)
    print("bench/statements: %d monitors, %d runner slots, run %s, %d resources imported; load average %.2f"
          % (n, a.slots, final, imported, os.getloadavg()[0]))
    print("server's reads an imported resource, execute -> %s:" % final)
    for k in rs.HANDLER_READS:
        print("  %-22s %6.2f" % (k, (after[k] - before[k]) / each))
    print("  %-22s %6.2f" % ("all", sum(after[k] - before[k] for k in rs.HANDLER_READS) / each))
    print("prepared statements (rows examined an imported resource, executions, temporary tables, seconds):")
    examined = 0
    for text, runs, rows_examined, tmp, secs in rows:
        examined += int(rows_examined)
        print("  %6.2f %6d %5d %6.2f  %s" % (int(rows_examined) / each, int(runs), int(tmp), float(secs),
                                             " ".join(text.split())[:150]))
    print("  %6.2f rows examined in all" % (examined / each))
    print("load average at the end: %.2f (other work on the box slows every figure)" % os.getloadavg()[0])


if __name__ == "__main__":
    main()
