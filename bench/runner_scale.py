#!/usr/bin/env python3
"""bench/runner: UptimeRobot-shaped accounts of N monitors on the fake
provider, discovered, planned and imported by real runner processes against
a private MariaDB (tests/integration/harness.py), started the way
cron/migrator-runner-cron starts them with MIGRATOR_RUNNER_SLOTS: each of
SLOTS runner slots runs `migrator-runner --max-seconds TICK` (TICK a
minute-equivalent) and, as it exits, the next (the wrapper's next minute,
waiting for the slot's lock). Prints, beside its target (issue 14):

  discovery  start -> awaiting_review, resources/s      target >= 25,000/s (issue 28 item 3; issue 14 5,000/s)
  import     execute -> completed, resources/s          target >= 2,000/s
             and against the same MariaDB writing the same monitor rows as single-row
             INSERTs, 500 a durable transaction, through the mariadb client, measured
             after the run (issue 28 item 3: target >= 0.8), and per imported
             resource the statements, index lookups and rows read (the server's
             Handler_read_* and Questions over execute -> completed; target <= 10 rows)
  revert     revert -> reverted, objects/s, and its ratio to the import's rate in the same run;
             the server's rows read an object over it (Handler_read_*)
  CPU        per resource of discovery and of the import, in MariaDB, the runners and the fake
             provider, and the rate the machine's cores would allow if they did nothing else
  peak RSS   of every runner process (max)             target <= 32 MiB, flat in N

and checks that every monitor arrived exactly once and that the revert took
every one of them out again. The RSS comparison
between the sizes is also the runner half of bench/leak (RSS flat over a
100,000-resource run).

    MIGRATOR_BUILDDIR=build python3 bench/runner_scale.py [--slots K] [--tick S] [--galera] N [N ...]

--galera (issue 27): the same bench again on a 3-node MariaDB Galera cluster
(harness.Stack(galera=True)), runner slot k on node k mod 3, and the cluster's
discovery and import rates beside the one server's of the same run.
"""
import argparse
import http.client
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration"))
import harness  # noqa: E402

TARGET_DISCOVERY = 25000      # resources/s (issue 28 item 3)
TARGET_IMPORT = 2000          # resources/s
TARGET_RSS_KIB = 32 * 1024
FLAT_KIB = 2048               # "flat": the largest account's peak within 2 MiB of the smallest's


def proc_cpu(pid):
    """The CPU seconds (user and system) process pid has used so far; 0 once it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Cron:
    """SLOTS runner slots, each running `migrator-runner --max-seconds TICK` and, within POLL
    seconds of its exit, the next, as cron/migrator-runner-cron's slots do (its next minute's
    runner waits for the slot's lock). Records each runner's peak RSS and CPU time (wait4) once it
    exits."""
    POLL = 0.2

    def __init__(self, st, conf, slots, tick):
        self.st, self.conf, self.slots, self.tick = st, conf, slots, tick
        self.busy = [None] * slots
        self.log = os.path.join(st.tmp, "runners.log")   # their stderr (kept with --keep)
        self.rss = []              # KiB, one per finished runner
        self.cpu_done = 0.0        # CPU seconds of the finished runners
        self.failed = []           # exit codes other than 0
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def start_runner(self, slot):
        # on a Galera cluster, slot k's runner uses node k mod 3 first
        conf = self.st.config_for_node(self.conf, slot)
        with open(self.log, "a") as log:
            p = subprocess.Popen([self.st.runner_path, "--config", conf, "--max-seconds", str(self.tick),
                                  "--verbose"],
                                 stdout=subprocess.DEVNULL, stderr=log, env=self.st._mariadb_env())

        def reap():
            _, status, usage = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            with self.lock:
                self.rss.append(usage.ru_maxrss)
                self.cpu_done += usage.ru_utime + usage.ru_stime
                if p.returncode != 0:
                    self.failed.append(p.returncode)
                self.busy[slot] = None

        self.busy[slot] = p
        threading.Thread(target=reap, daemon=True).start()

    def cpu(self):
        """The CPU seconds every runner started so far has used."""
        with self.lock:
            return self.cpu_done + sum(proc_cpu(p.pid) for p in self.busy if p is not None)

    def loop(self):
        while not self.stop.is_set():
            with self.lock:
                for s in range(self.slots):
                    if self.busy[s] is None:
                        self.start_runner(s)
            self.stop.wait(self.POLL)

    def end_runners(self):
        """No runner started any more, and each one at work told to end (SIGTERM: it ends at its
        next checkpoint); leaving the block then waits for them."""
        self.stop.set()
        self.thread.join()
        with self.lock:
            for p in self.busy:
                if p is not None:
                    p.send_signal(signal.SIGTERM)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        while True:
            with self.lock:
                live = [p for p in self.busy if p is not None]
            if not live:
                break
            time.sleep(0.2)


def wait_status(st, run, states, timeout):
    """Poll the run's status every 0.25 s (each look starts a mariadb client: looking more often
    would take CPU from what is measured; the times come from the run log, see logged_at)."""
    deadline = time.monotonic() + timeout
    while True:
        s = st.run_status(run)
        if s in states:
            return s
        if time.monotonic() > deadline:
            raise SystemExit("run %s still %s after %d s" % (run, s, timeout))
        time.sleep(0.25)


def logged_at(st, run, prefix):
    """When the runner wrote the run's last log line starting with prefix, in the same
    transaction as the state change it reports: seconds since the epoch (UTC, as time.time())."""
    v = st.sql_value("SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01', MAX(logged_at)) / 1e6"
                     " FROM migration_run_logs WHERE run_id = %s AND message LIKE '%s%%'"
                     % (harness.q(run), prefix))
    return float(v)


def provider_alone(st, key, pages=40):
    """Resources/s the fake provider serves to a Python client: the first
    monitor pages the runner asks for (v2 getMonitors, 50 a page, the same
    flags), back to back, no runner. How much of discovery's time is the
    fake's own (a Python server, a thread per connection, on the same two cores)."""
    conn = http.client.HTTPConnection("127.0.0.1", st.fake_port, timeout=60)
    t = time.monotonic()
    for i in range(pages):
        form = {"api_key": key, "format": "json", "offset": 50 * i, "limit": 50, "alert_contacts": 1, "ssl": 1,
                "custom_http_headers": 1, "custom_http_statuses": 1, "mwindows": 1}
        conn.request("POST", "/uptimerobot/v2/getMonitors", urllib.parse.urlencode(form),
                     {"Content-Type": "application/x-www-form-urlencoded"})
        r = conn.getresponse()
        r.read()
        assert r.status == 200, r.status
    conn.close()
    return 50 * pages / (time.monotonic() - t)


HANDLER_READS = ("Handler_read_key", "Handler_read_next", "Handler_read_prev", "Handler_read_first",
                 "Handler_read_last", "Handler_read_rnd", "Handler_read_rnd_next")
RATIO_TARGET = 0.8            # the import's rate against the baseline's
ROWS_READ_TARGET = 10         # rows read per imported resource
BASELINE_TX = 500             # single-row INSERTs per transaction in the baseline
# MariaDB's own default, durable commits (issue 28), not the test harness's flush once a second
DURABLE = ("--innodb-flush-log-at-trx-commit=1",)


def counters(st):
    """The server's handler and statement counters (SHOW GLOBAL STATUS)."""
    names = HANDLER_READS + ("Questions",)
    rows = st.sql("SHOW GLOBAL STATUS WHERE Variable_name IN (%s)" % ", ".join(harness.q(n) for n in names))
    return {k: int(v) for k, v in rows}


def mariadb(st, *args, **kw):
    return subprocess.run(["mariadb", "--no-defaults", "-uroot", "--socket=" + st.sock, "migrator"] + list(args),
                          check=True, **kw)


def baseline_script(st, user_id, into_user):
    """The account's monitors of user_id as single-row INSERTs for into_user, BASELINE_TX to a
    transaction, into a file (written by the mariadb client: held in this process, it would be
    in the peak RSS of every runner it forks meanwhile): what the same MariaDB does with the same
    rows, without the importer. The file and its number of rows."""
    cols = [c for (c,) in st.sql("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA ="
                                 " 'migrator' AND TABLE_NAME = 'monitors' AND EXTRA NOT LIKE '%%GENERATED%%'"
                                 " AND COLUMN_NAME NOT IN ('id', 'user_id') ORDER BY ORDINAL_POSITION")]
    values = ", ".join("COALESCE(QUOTE(%s), 'NULL')" % c for c in cols)
    path = os.path.join(st.tmp, "baseline.sql")
    with open(path, "w") as f:
        mariadb(st, "-N", "-r", "-e",
                "SELECT CONCAT(IF(n %% %d = 0, 'START TRANSACTION;\\n', ''), 'INSERT INTO monitors (user_id, %s)"
                " VALUES (%d, ', v, ');', IF(n %% %d = %d OR n = cnt - 1, '\\nCOMMIT;', '')) FROM (SELECT"
                " CONCAT_WS(', ', %s) v, ROW_NUMBER() OVER (ORDER BY id) - 1 n, COUNT(*) OVER () cnt"
                " FROM monitors WHERE user_id = %d) x ORDER BY n"
                % (BASELINE_TX, ", ".join(cols), into_user, BASELINE_TX, BASELINE_TX - 1, values, user_id),
                stdout=f)
    return path, int(st.sql_value("SELECT COUNT(*) FROM monitors WHERE user_id = %d" % user_id))


def baseline_rate(st, path, n):
    """Rows/s of the baseline script through the mariadb client on the server's socket."""
    t = time.monotonic()
    with open(path) as f:
        mariadb(st, stdin=f)
    return n / (time.monotonic() - t)


def verdict(ok):
    return "ok" if ok else "MISSED"


def bench_one(st, conf, user, n, slots, tick):
    key = "bench-%d-key" % n
    harness.fake_call(st, "POST", "/_control/uptimerobot/account",
                      {"credentials": {"api_key": key},
                       "counts": {"monitors": n, "heartbeats": 0, "contacts": 5, "status_pages": 1}})
    alone = provider_alone(st, key)
    servers = [node.proc.pid for node in st.nodes] if st.nodes else [st.mysqld.pid]

    def cpu():
        """CPU seconds so far: MariaDB's (every node), the runners', the fake provider's."""
        return (sum(proc_cpu(p) for p in servers), cron.cpu(), proc_cpu(st.fakes.pid))

    with Cron(st, conf, slots, tick) as cron:
        c0 = cpu()
        r = user.request("POST", "/api/v1/migrations", body={"provider": "uptimerobot",
                                                             "credentials": {"api_key": key}})
        assert r.status == 201, r.describe()
        run = r.json["data"]["id"]
        t0 = time.time()          # the start has been answered
        assert wait_status(st, run, ("awaiting_review", "failed"), 3600) == "awaiting_review", \
            st.sql_dicts("SELECT message FROM migration_run_logs WHERE run_id = %s" % harness.q(run))
        t1 = logged_at(st, run, "Discovery finished")
        c1 = cpu()
        before = counters(st)
        r = user.request("POST", "/api/v1/migrations/%s/execute" % run, raw_body=b"",
                         headers={"Content-Type": "application/json"})
        assert r.status == 202, r.describe()
        t2 = time.time()          # execute has been answered
        final = wait_status(st, run, ("completed", "completed_with_errors", "failed"), 3600)
        t3 = logged_at(st, run, "Run completed")
        c3 = cpu()
        after = counters(st)
        script, rows = baseline_script(st, user.id, st.new_user(scopes=["account:read"]).id)
        total = int(st.sql_value("SELECT COUNT(*) FROM migration_run_resources WHERE run_id = %s" % harness.q(run)))
        monitors = int(st.sql_value("SELECT COUNT(*) FROM monitors WHERE user_id = %d" % user.id))
        # (COUNT(DISTINCT ...) leaves out a row with a NULL in any of them: most monitors have no port)
        distinct = int(st.sql_value("SELECT COUNT(DISTINCT type, url, COALESCE(port, 0)) FROM monitors"
                                    " WHERE user_id = %d" % user.id))
        imported = int(st.sql_value("SELECT COUNT(*) FROM migration_run_resources WHERE run_id = %s"
                                    " AND status = 'imported'" % harness.q(run)))
        # the whole import undone (issue 26): from the request to the run's end, both in its log
        rv0 = counters(st)
        r = user.request("POST", "/api/v1/migrations/%s/revert" % run, raw_body=b"",
                         headers={"Content-Type": "application/json"})
        assert r.status == 202, r.describe()
        t4 = logged_at(st, run, "Reverting:")
        reverted = wait_status(st, run, ("reverted",), 3600)
        t5 = logged_at(st, run, "Run reverted")
        rv_read = sum(counters(st)[k] - rv0[k] for k in HANDLER_READS) / max(1, imported)
    b0 = cpu()[0]
    base = baseline_rate(st, script, rows)
    base_cpu = 1e6 * (cpu()[0] - b0) / max(1, rows)
    left = int(st.sql_value("SELECT COUNT(*) FROM monitors WHERE user_id = %d" % user.id))
    # planning ends with the log line "Plan ready"; the import is what follows
    plan_s = st.sql_value("SELECT TIMESTAMPDIFF(MICROSECOND, MIN(logged_at), MAX(logged_at)) / 1e6"
                          " FROM migration_run_logs WHERE run_id = %s AND (message LIKE 'Planning started%%'"
                          " OR message LIKE 'Plan ready%%')" % harness.q(run))
    disc_rate = total / (t1 - t0)
    imp_rate = total / (t3 - t2)
    peak = max(cron.rss) if cron.rss else 0
    print("== %d monitors: %d resources, final status %s, %d imported; monitors in the account %d (%d distinct)"
          % (n, total, final, imported, monitors, distinct))
    print("  discovery  start -> awaiting_review %7.1f s  %7.0f resources/s   target >= %d/s   %s"
          % (t1 - t0, disc_rate, TARGET_DISCOVERY, verdict(disc_rate >= TARGET_DISCOVERY)))
    print("             (the fake provider alone, 40 pages back to back to a Python client: %.0f resources/s)"
          % alone)
    print("  import     execute -> completed     %7.1f s  %7.0f resources/s   target >= %d/s   %s"
          % (t3 - t2, imp_rate, TARGET_IMPORT, verdict(imp_rate >= TARGET_IMPORT)))
    plan_s = float(plan_s or 0)
    imp_alone = total / max(0.001, t3 - t2 - plan_s)
    print("             (of which planning %.1f s; the import alone %.0f resources/s)" % (plan_s, imp_alone))
    print("             against MariaDB alone, the same %d rows as %d single-row INSERTs a transaction: %.0f rows/s;"
          " the import %.2f of it, the import alone %.2f   target >= %.1f   %s"
          % (rows, BASELINE_TX, base, imp_rate / base, imp_alone / base, RATIO_TARGET, verdict(imp_rate / base >= RATIO_TARGET)))
    per = {k: (after[k] - before[k]) / max(1, imported) for k in after}
    read = sum(per[k] for k in HANDLER_READS)
    print("             per imported resource (planning included): %.1f statements, %.1f index lookups, %.1f rows"
          " read   target <= %d rows   %s" % (per["Questions"], per["Handler_read_key"], read, ROWS_READ_TARGET,
                                              verdict(read <= ROWS_READ_TARGET)))
    for what, a, b in (("discovery", c0, c1), ("import", c1, c3)):
        each = [1e6 * (y - x) / max(1, total) for x, y in zip(a, b)]
        print("  CPU        %-9s a resource: MariaDB %.0f us, runners %.0f us, fake provider %.0f us;"
              " the %d cores, doing nothing else, would allow %.0f resources/s"
              % (what, each[0], each[1], each[2], os.cpu_count(), os.cpu_count() * 1e6 / max(1, sum(each))))
    print("             (MariaDB's CPU a row of the baseline: %.0f us)" % base_cpu)
    rv_rate = imported / max(0.001, t5 - t4)
    print("  revert     revert -> %s        %7.1f s  %7.0f objects/s     %.2f of the import's rate; %d monitors left;"
          " %.1f rows read an object" % (reverted, t5 - t4, rv_rate, rv_rate / imp_rate, left, rv_read))
    print("  peak RSS   max over %d runner processes: %d KiB   target <= %d KiB   %s"
          % (len(cron.rss), peak, TARGET_RSS_KIB, verdict(peak <= TARGET_RSS_KIB)))
    with open(cron.log) as f:
        lines = f.read().splitlines()
    print("  runner log: %d jobs claimed, %d warnings, %d errors (%s)"
          % (sum("claimed" in x for x in lines), sum(" warning" in x.lower() for x in lines),
             sum(" error" in x.lower() for x in lines), cron.log))
    ok = final == "completed" and monitors == n and distinct == n and imported == total and left == 0 \
        and not cron.failed
    if not ok:
        print("  FAILED: lost, duplicated or unimported rows, or a runner exited non-zero %s" % cron.failed)
    return ok, peak, disc_rate, imp_rate


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sizes", nargs="*", type=int, default=[10000], help="monitors per account")
    ap.add_argument("--slots", type=int, default=3, help="runner slots (MIGRATOR_RUNNER_SLOTS), default 3")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (database, logs)")
    ap.add_argument("--tick", type=int, default=6, help="seconds per cron minute-equivalent, default 6")
    ap.add_argument("--galera", action="store_true",
                    help="then the same on a 3-node Galera cluster, runner slot k on node k mod 3")
    a = ap.parse_args()
    print("bench/runner: %d runner slots started like the cron wrapper, a minute every %d s, %d CPUs, load average"
          " %.2f; one server with durable commits (%s)"
          % (a.slots, a.tick, os.cpu_count(), os.getloadavg()[0], " ".join(DURABLE)))
    all_ok, setups = True, [("one server", False)] + ([("3-node Galera cluster", True)] if a.galera else [])
    rates = {}
    for label, galera in setups:
        peaks = []
        if a.galera:
            print("==== %s" % label)
        with harness.Stack(fakes=True, keep=a.keep, galera=galera,
                           mysqld_args=() if galera else DURABLE) as st:
            conf = harness.runner_config(st, "bench")
            st.set_flag(True)
            for n in a.sizes:
                user = st.new_user(scopes=["account:read", "account:write", "account:delete"])
                ok, peak, disc, imp = bench_one(st, conf, user, n, a.slots, a.tick)
                all_ok = all_ok and ok
                peaks.append((n, peak))
                rates[(galera, n)] = (disc, imp)
        if len(peaks) > 1:
            (n0, p0), (n1, p1) = min(peaks), max(peaks)
            flat = p1 <= p0 + FLAT_KIB
            print("== runner RSS flat in the account size (also the runner half of bench/leak): %d KiB at %d,"
                  " %d KiB at %d monitors (%+d KiB; flat means within %d KiB)   %s"
                  % (p0, n0, p1, n1, p1 - p0, FLAT_KIB, verdict(flat)))
    for n in a.sizes if a.galera else []:
        (d1, i1), (d3, i3) = rates[(False, n)], rates[(True, n)]
        print("== %d monitors, 3-node Galera cluster against one server, %d runners: discovery %.0f/s against"
              " %.0f/s (%.2f), import %.0f/s against %.0f/s (%.2f)" % (n, a.slots, d3, d1, d3 / d1, i3, i1, i3 / i1))
    print("load average at the end: %.2f (other work on the box slows every figure)" % os.getloadavg()[0])
    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()
