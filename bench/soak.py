#!/usr/bin/env python3
"""bench/soak (issue 28 item 4; not in CI): MINUTES (30) of mixed load on one
stack (tests/integration/harness.py: a private MariaDB, lighttpd with
migrator.fcgi, the fake providers, migrator-runner processes on SLOTS slots,
3), then checks that nothing was lost:

  - tenants: a new user starts a run every TENANT_EVERY s (2) through the
    API, of 20 to 500 resources (bench/tenants.py's accounts but UptimeRobot,
    which the large imports use), executed as soon as it awaits review;
  - a 100,000-monitor UptimeRobot import by a new user every BIG_EVERY s (300);
  - kill -9 of a running runner every KILL_EVERY s (60);
  - one MariaDB restart at RESTART_AT s (the middle).

When the time is up the load stops and the runners go on until every run has
ended. Then: every run must be `completed` (a kill or the restart may delay a
run, never fail it), every resource of it `imported`, and each user's account
hold exactly one object per imported resource (none lost, none twice), one
import link each (an external object has one at most: the table's key). Memory: no process may grow by more than 2 MB after its
first 5 minutes: the FastCGI responders (their VmRSS, sampled), and the
runners (the peak RSS of those that ran in the first 5 minutes after start
against those of the last 5).

Every SAMPLE s it records the time, the objects imported so far (and a
second since the sample before), the queued jobs, the largest runner peak
RSS of the interval and the largest responder RSS into soak.csv, and bench/soak_plot.sh draws soak.png (throughput,
queue depth and RSS over time) from it.

    MIGRATOR_BUILDDIR=build python3 bench/soak.py [--minutes 30] [--out DIR]
"""
import argparse
import csv
import os
import random
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from fairness import execute  # noqa: E402
from runner_scale import Cron  # noqa: E402
from tenants import ACCOUNTS, KEY  # noqa: E402

GROWTH_KIB = 2048
WARMUP_S = 300
SAMPLE_S = 5
BIG_KEY = "soak-big-key"
ACCOUNT_TABLES = ("monitors", "heartbeats", "contacts", "status_pages", "maintenance_windows")
OBJECTS = " + ".join("(SELECT COUNT(*) FROM %s)" % t for t in ACCOUNT_TABLES)


def query(st, sql):
    """st.sql, asked again while MariaDB restarts."""
    for _ in range(120):
        try:
            return st.sql(sql)
        except harness.HarnessError:
            time.sleep(0.5)
    return st.sql(sql)


def unfinished(st):
    return int(query(st, "SELECT COUNT(*) FROM migration_runs WHERE status NOT IN ('completed',"
                         " 'completed_with_errors', 'failed', 'cancelled')")[0][0])


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def responders(st):
    """The migrator.fcgi processes lighttpd spawned (its children)."""
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(st.web.proc.p.pid)], stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    return sorted(int(p) for p in out.split())


class Load:
    def __init__(self, st, a):
        self.st, self.a = st, a
        self.started = {}          # run id -> User
        self.errors = []
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def start_run(self, provider, creds):
        """A new user's run; a start refused while MariaDB restarts (503) is asked again."""
        for _ in range(30):
            try:
                user = self.st.new_user(scopes=["account:read", "account:write"])
                r = user.request("POST", "/api/v1/migrations", body={"provider": provider, "credentials": creds})
            except (harness.HarnessError, OSError) as e:
                r = e
            if not isinstance(r, Exception) and r.status != 503:
                break
            time.sleep(1.0)
        if isinstance(r, Exception) or r.status != 201:
            self.errors.append("start: %s" % (r if isinstance(r, Exception) else r.describe()))
            return
        with self.lock:
            self.started[r.json["data"]["id"]] = user

    def tenants(self):
        i = 0
        while not self.stop.wait(self.a.tenant_every):
            provider, field, _, _ = ACCOUNTS[i % len(ACCOUNTS)]
            i += 1
            if provider == "uptimerobot":
                continue  # the large imports' provider
            creds = {field: KEY}
            if provider == "healthchecks":
                creds["base_url"] = self.st.fake_base + "/healthchecks"
            self.start_run(provider, creds)

    def bigs(self):
        while True:
            self.start_run("uptimerobot", {"api_key": BIG_KEY})
            if self.stop.wait(self.a.big_every):
                return

    def executor(self, until):
        """Execute each run that awaits review, until until() says the work is over. An
        execute refused while MariaDB restarts (503) is asked again."""
        tries = {}
        while not until():
            for (run,) in query(self.st, "SELECT id FROM migration_runs WHERE status = 'awaiting_review'"):
                with self.lock:
                    user = self.started.get(run)
                if user is None:
                    continue
                try:
                    execute(user, run)
                except (AssertionError, OSError) as e:
                    tries[run] = tries.get(run, 0) + 1
                    if tries[run] == 30:
                        self.errors.append("execute refused 30 times: %s" % e)
            time.sleep(1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="how long the load goes on, default 30")
    ap.add_argument("--slots", type=int, default=3, help="runner slots, default 3")
    ap.add_argument("--tick", type=int, default=30, help="a runner's life (--max-seconds TICK), default 30")
    ap.add_argument("--tenant-every", type=float, default=2.0, help="a new small run every S s, default 2")
    ap.add_argument("--big-every", type=float, default=300.0, help="a large import every S s, default 300")
    ap.add_argument("--big-monitors", type=int, default=100000, help="monitors of a large import, default 100000")
    ap.add_argument("--kill-every", type=float, default=60.0, help="kill -9 a runner every S s, default 60")
    ap.add_argument("--out", default=".", help="folder for soak.csv and soak.png, default .")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (database, logs)")
    a = ap.parse_args()
    length = a.minutes * 60.0
    print("bench/soak: %.0f min, %d runner slots, a small run every %g s, a %d-monitor import every %.0f s,"
          " a runner killed every %.0f s, MariaDB restarted at %.0f s; %d CPUs, load average %.2f" % (
              a.minutes, a.slots, a.tenant_every, a.big_monitors, a.big_every, a.kill_every, length / 2,
              os.cpu_count(), os.getloadavg()[0]))
    os.makedirs(a.out, exist_ok=True)
    csv_path = os.path.join(a.out, "soak.csv")
    kills, samples, problems = 0, [], []
    with harness.Stack(fakes=True, keep=a.keep) as st:
        conf = harness.runner_config(st, "soak")
        st.set_flag(True)
        harness.fake_call(st, "POST", "/_control/uptimerobot/account",
                          {"credentials": {"api_key": BIG_KEY},
                           "counts": {"monitors": a.big_monitors, "heartbeats": 0, "contacts": 5}})
        for provider, field, _, counts in ACCOUNTS:
            if provider != "uptimerobot":
                harness.fake_call(st, "POST", "/_control/%s/account" % provider,
                                  {"credentials": {field: KEY}, "counts": counts})
        load = Load(st, a)
        t0 = time.monotonic()
        load_over = threading.Event()
        with Cron(st, conf, a.slots, a.tick) as cron:
            threads = [threading.Thread(target=load.tenants, daemon=True),
                       threading.Thread(target=load.bigs, daemon=True),
                       threading.Thread(target=load.executor, daemon=True,
                                        args=(lambda: load_over.is_set() and unfinished(st) == 0,))]
            for th in threads:
                th.start()
            restarted, next_kill, next_sample = False, a.kill_every, 0.0
            rss_mark = len(cron.rss)
            while True:
                now = time.monotonic() - t0
                if now >= length and not load.stop.is_set():
                    load.stop.set()
                    for th in threads[:2]:  # no run starts after this
                        th.join()
                if load.stop.is_set() and unfinished(st) == 0:
                    break
                if now > length + 3600:
                    problems.append("runs still going an hour after the load stopped")
                    break
                if now >= next_kill and not load.stop.is_set():
                    with cron.lock:  # a slot is None again once its runner was reaped
                        live = [p for p in cron.busy if p is not None]
                    if live:
                        try:
                            os.kill(random.choice(live).pid, signal.SIGKILL)
                            kills += 1
                        except ProcessLookupError:
                            pass
                    next_kill += a.kill_every
                if not restarted and now >= length / 2:
                    harness.restart_mariadb(st)
                    restarted = True
                if now >= next_sample:
                    with cron.lock:
                        peaks = cron.rss[rss_mark:]
                        rss_mark = len(cron.rss)
                    fcgi = [rss_kib(p) for p in responders(st)]
                    samples.append((round(now, 1), int(st.sql_value("SELECT " + OBJECTS)),
                                    int(st.sql_value("SELECT COUNT(*) FROM jobs")),
                                    max(peaks) if peaks else "", max((r for r in fcgi if r), default="")))
                    next_sample += SAMPLE_S
                time.sleep(0.5)
            load_over.set()
            for th in threads:
                th.join(timeout=60)
        # the runners killed exit by the signal; a runner started while MariaDB restarts exits 1
        other_exits = [c for c in cron.failed if c != -signal.SIGKILL]
        runs = st.sql("SELECT id, user_id, status, error_message FROM migration_runs")
        not_done = [(r[0], r[2], r[3]) for r in runs if r[2] != "completed"]
        unimported = st.sql_value("SELECT COUNT(*) FROM migration_run_resources WHERE status <> 'imported'")
        per_user = st.sql(
            "SELECT m.user_id, (SELECT COUNT(*) FROM migration_run_resources r JOIN migration_runs x ON x.id ="
            " r.run_id WHERE x.user_id = m.user_id AND r.status = 'imported'),"
            " " + " + ".join("(SELECT COUNT(*) FROM %s WHERE user_id = m.user_id)" % t for t in ACCOUNT_TABLES) + ","
            " (SELECT COUNT(*) FROM import_links WHERE user_id = m.user_id) FROM migration_runs m GROUP BY m.user_id")
        imported = sum(int(r[1]) for r in per_user)
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(("t_s", "objects", "objects_per_s", "jobs", "runner_peak_kib", "fcgi_rss_kib"))
        prev = None
        for t, objects, jobs, peak, fcgi in samples:
            rate = round((objects - prev[1]) / (t - prev[0]), 1) if prev and t > prev[0] else 0
            w.writerow((t, objects, rate, jobs, peak, fcgi))
            prev = (t, objects)
    if not_done:
        problems.append("%d of %d runs did not complete: %s" % (len(not_done), len(runs), not_done[:5]))
    if unimported != "0":
        problems.append("%s resources of the runs were not imported" % unimported)
    for uid, n, objects, links in per_user:
        if not (int(n) == int(objects) == int(links)):
            problems.append("user %s: %s resources imported, %s objects, %s import links" % (uid, n, objects, links))
    # memory after the first WARMUP_S: the responders' growth, and the runners' peaks
    late = [s for s in samples if s[0] >= WARMUP_S]
    fcgi = [s[4] for s in late if s[4] != ""]
    fcgi_growth = max(fcgi) - fcgi[0] if fcgi else 0
    peaks = [s[3] for s in late if s[3] != ""]
    early = [s[3] for s in samples if s[0] < WARMUP_S and s[3] != ""]
    runner_growth = max(peaks) - max(early) if peaks and early else 0
    for what, g in (("the FastCGI responder", fcgi_growth), ("the runners' peak", runner_growth)):
        if g > GROWTH_KIB:
            problems.append("%s RSS grew by %d KiB after the first %d s" % (what, g, WARMUP_S))
    print("  runs: %d (%d completed), %d objects imported, %d runners killed, MariaDB restarted once,"
          " runner exits other than the kills: %s" % (len(runs), sum(1 for r in runs if r[2] == "completed"),
                                                       imported, kills, other_exits or "none"))
    print("  RSS growth after the first %d s: responder %d KiB, runners' peak %d KiB (limit %d KiB)" % (
        WARMUP_S, fcgi_growth, runner_growth, GROWTH_KIB))
    problems += load.errors[:10]
    subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), "soak_plot.sh"), csv_path,
                    os.path.join(a.out, "soak.png")], check=False)
    print("  samples: %s; plot: %s" % (csv_path, os.path.join(a.out, "soak.png")))
    for p in problems:
        print("  FAILED: %s" % p)
    print("load average at the end: %.2f (other work on the box slows every figure)" % os.getloadavg()[0])
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
