"""The review page (web/migrator/) in a real browser: Debian's chromium driven
by playwright-core (tests/web/journeys.mjs, installed by tests/web/setup.sh
into $MIGRATOR_BUILDDIR/web-node) against this stack, one journey per
lifecycle path, with a runner working in the background, each on a desktop
(1280 px) and a phone (360 px) screen; at each main screen axe-core checks
WCAG 2.1 A/AA and, on the phone, that nothing scrolls sideways. Screenshots
are kept in $MIGRATOR_BUILDDIR/tests/web-shots/. After each journey the account
tables are read to check what the clicks did.
"""

import json
import os
import subprocess
import threading

import harness
from harness import q
from test_runner import RunnerTestCase

WEB_DIR = os.path.join(harness.SRCDIR, "tests", "web")
NODE_DIR = os.environ.get("WEB_NODE_DIR") or os.path.join(harness.BUILDDIR, "web-node")
SHOTS = os.path.join(harness.BUILDDIR, "tests", "web-shots")
SIZES = ("desktop", "phone")
_setup_done = []


def setup_browser_tools():
    if not _setup_done:
        r = subprocess.run(["sh", os.path.join(WEB_DIR, "setup.sh"), NODE_DIR], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            raise AssertionError("tests/web/setup.sh failed (%d):\n%s" % (r.returncode, r.stderr[-3000:]))
        _setup_done.append(True)


class BackgroundRunner:
    """migrator-runner --once, again and again, while a journey clicks."""

    def __init__(self, stack, cfg):
        self.stack, self.cfg = stack, cfg
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def loop(self):
        while not self.stop.is_set():
            subprocess.run([self.stack.runner_path, "--config", self.cfg, "--once", "--max-seconds", "3"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=self.stack._mariadb_env())
            self.stop.wait(0.3)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=60)


class TestReviewPageInABrowser(RunnerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        setup_browser_tools()

    def journey(self, name, token, size, runner=True, hooks=None, **env):
        """Run one journey on a screen size, with the background runner working from the start (runner) or
        only while the journey asks for it ("RUNNER on|off"); "HOOK name" calls hooks[name]() (the test's
        own step, a check or a change in the database, at that point of the journey) and goes on when it
        returns. Returns the journey's RESULT object."""
        e = dict(os.environ, WEB_NODE_DIR=NODE_DIR, BASE=self.stack.web.base, TOKEN=token, SHOTS=SHOTS,
                 VIEWPORT=size, FAKE=self.stack.fake_base, **env)
        p = subprocess.Popen(["node", os.path.join(WEB_DIR, "journeys.mjs"), name], env=e, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        watchdog = threading.Timer(300, p.kill)
        watchdog.start()
        bg = BackgroundRunner(self.stack, self.cfg).__enter__() if runner else None
        out = []
        try:
            for line in p.stdout:
                out.append(line)
                if line.startswith("RUNNER "):
                    if bg:
                        bg.__exit__()  # the runner's pass in progress ends before the journey goes on
                        bg = None
                    if line.strip() == "RUNNER on":
                        bg = BackgroundRunner(self.stack, self.cfg).__enter__()
                    p.stdin.write("ok\n")
                    p.stdin.flush()
                elif line.startswith("HOOK "):
                    (hooks or {})[line.split()[1]]()
                    p.stdin.write("ok\n")
                    p.stdin.flush()
            p.wait()
        finally:
            if p.poll() is None:  # a hook failed: the journey waits on stdin
                p.kill()
                p.wait()
            watchdog.cancel()
            if bg:
                bg.__exit__()
        stdout = "".join(out)
        result = {}
        for line in out:
            if line.startswith("RESULT "):
                result = json.loads(line[7:])
        self.assertEqual(p.returncode, 0, stdout[-4000:])
        self.assertEqual(result.get("csp"), harness.shipped_csp(), "the page is served with the strict CSP")
        return result

    def test_happy_path_with_an_exclusion(self):
        for size in SIZES:
            with self.subTest(size=size):
                key = self.account(monitors=6, heartbeats=1, contacts=2, status_pages=1, paused_every=0)
                user = self.user()
                res = self.journey("happy", user.token, size, KEY=key)
                rid = res["run"]
                self.assertEqual(self.stack.run_status(rid), "completed")
                excluded = self.stack.sql_dicts("SELECT name, status FROM migration_run_resources WHERE id=%s"
                                                % res["excluded"])[0]
                self.assertEqual(excluded, {"name": "Demo Monitor 2", "status": "excluded"})
                names = [r[0] for r in self.stack.sql("SELECT name FROM monitors WHERE user_id=%d" % user.id)]
                self.assertNotIn("Demo Monitor 2", names)
                self.assertEqual(len(names), 5)
                self.assertEqual(self.count("heartbeats", user), 1)
                self.assertEqual(res["finish"]["outcomes"]["created"], 9, "the finish counts what was created")
                self.assertEqual(res["finish"]["rows"], 10, "the CSV saved from the page has a row per resource")

    def test_preview_dropped_and_a_contact_excluded_after_naming_its_monitors(self):
        harness.fake_call(self.stack, "POST", "/_control/demo?provider=healthchecks")
        for size in SIZES:
            with self.subTest(size=size):
                key = self.account(monitors=6, heartbeats=1, contacts=2, status_pages=1, paused_every=0)
                user = self.user()
                res = self.journey("preview", user.token, size, KEY=key)
                statuses = dict(self.stack.sql("SELECT CAST(id AS CHAR), status FROM migration_run_resources WHERE run_id=%s AND "
                                               "resource_type='contact'" % q(res["run"])))
                self.assertEqual(statuses.pop(str(res["contact"])), "excluded", "the contact confirmed")
                self.assertNotIn("excluded", statuses.values(), "the other contact stays")
                self.assertEqual(self.stack.run_status(res["healthchecks"]), "completed")
                self.assertEqual(res["finish"]["rows"], self.stack.count("migration_run_resources", "run_id=%s"
                                                                         % q(res["healthchecks"])),
                                 "the CSV saved from the page has a row per resource")

    def test_states_messages_and_exclusion_by_filter(self):
        for size in SIZES:
            with self.subTest(size=size):
                key = self.account(monitors=6, heartbeats=1, contacts=2, status_pages=1, paused_every=0)
                user = self.user()
                res = self.journey("states", user.token, size, runner=False, KEY=key)
                self.assertEqual(self.stack.run_status(res["run"]), "completed")
                self.assertEqual(self.count("monitors", user), 6, "excluded and included again")
                self.assertEqual(self.count("status_pages", user), 0, "excluded by its filter")

    def test_start_form_keeps_fields_and_reaches_whmcs_and_self_hosted_healthchecks(self):
        for provider in ("whmcs", "healthchecks"):
            harness.fake_call(self.stack, "POST", "/_control/demo?provider=" + provider)
        for size in SIZES:
            with self.subTest(size=size):
                user = self.user()
                res = self.journey("startform", user.token, size)
                for rid in (res["whmcs"], res["healthchecks"]):
                    self.assertEqual(self.stack.run_status(rid), "awaiting_review")
                self.assertEqual(self.stack.count("migration_runs", "user_id=%d" % user.id), 2,
                                 "the refused starts made no run")

    def test_activity_and_waits_are_told(self):
        for size in SIZES:
            with self.subTest(size=size):
                user = self.user()
                importing = {"discovered": {"monitor": 200}, "imported": 40, "skipped": 0, "failed": 0,
                             "progress": 0.2, "activity": {"doing": "importing", "done": 40, "total": 200,
                                                           "since": "2026-01-01T00:00:00Z", "per_minute": 25,
                                                           "eta_s": 480}}
                rid = self.stack.insert_run(user.id, "executing", provider="pingdom", stats=json.dumps(importing))
                self.stack.insert_resources(rid, 3, status="pending", action="create")
                waiting = {"discovered": {"monitor": 50}, "waiting": {"reason": "rate_limit", "provider": "statuscake",
                                                                      "until": "2030-01-01T12:00:00Z"}}
                self.stack.insert_run(user.id, "discovering", provider="statuscake", stats=json.dumps(waiting))
                self.journey("activity", user.token, size, runner=False)

    def test_conflicts_resolved_with_overwrite(self):
        for size in SIZES:
            with self.subTest(size=size):
                key = self.account(monitors=3, heartbeats=0, contacts=1, status_pages=0, paused_every=0)
                user, (mine,) = self.user_with_own_copies(key, 1, "'Mine'")
                res = self.journey("conflicts", user.token, size, KEY=key)
                self.assertEqual(self.stack.run_status(res["run"]), "completed")
                self.assertEqual(self.count("monitors", user), 3)
                self.assertNotEqual(self.stack.sql_value("SELECT name FROM monitors WHERE id=%s" % mine), "Mine",
                                    "overwrite updated the user's own monitor")

    def test_failed_imports_are_retried(self):
        for size in SIZES:
            with self.subTest(size=size):
                user = self.user()
                items = [("monitor", "m%d" % i, {"name": "Retry %d" % i, "url": "https://r%d.example.com/" % i,
                                                 "type": "http", "interval": 60, "paused": False, "port": None,
                                                 "keyword": None, "contact_ids": []}) for i in range(3)]
                rid = self.synthetic_run(user, "uptimerobot", items)
                self.execute(user, rid)
                self.assertEqual(self.drive(rid, ("completed",)), "completed")
                # as if two imports had failed on a database outage
                self.stack.sql("DELETE FROM monitors WHERE user_id=%d AND name IN ('Retry 1', 'Retry 2')" % user.id)
                self.stack.sql("UPDATE migration_run_resources SET status='failed', attempts=3, error_message="
                               "'Import failed after 3 attempts: the database was busy or unreachable.' WHERE "
                               "run_id=%s AND external_id IN ('m1', 'm2')" % q(rid))
                self.stack.sql("UPDATE migration_runs SET status='completed_with_errors' WHERE id=%s" % q(rid))
                self.stack.insert_logs(rid, [("error", "Import of monitor (external id m1) failed", None,
                                              "2024-01-01 00:00:00")])
                self.journey("retry", user.token, size)
                self.assertEqual(self.stack.run_status(rid), "completed")
                self.assertEqual(self.count("monitors", user), 3)

    def test_cancel_then_delete(self):
        for size in SIZES:
            with self.subTest(size=size):
                key = self.account(monitors=200, heartbeats=0, contacts=1, status_pages=0)
                self.faults({"kind": "slow", "seconds": 2, "times": 0, "match": "getMonitors"})
                user = self.user()
                res = self.journey("cancel", user.token, size, KEY=key)
                self.assertEqual(self.stack.count("migration_runs", "id=%s" % q(res["run"])), 0, "deleted")
                self.assertEqual(self.count("monitors", user), 0)
                harness.fake_call(self.stack, "DELETE", "/_control/uptimerobot/faults")

    def test_revert_takes_the_imports_out_and_keeps_what_changed_since(self):
        for size in SIZES:
            with self.subTest(size=size):
                key = self.account(monitors=3, heartbeats=1, contacts=1, status_pages=0, paused_every=0)
                user = self.user()
                rid = self.start(user, key)
                self.drive(rid, "awaiting_review")
                self.execute(user, rid)
                self.assertEqual(self.drive(rid, "completed"), "completed")
                monitors = [int(r[0]) for r in self.stack.sql("SELECT id FROM monitors WHERE user_id=%d ORDER BY id"
                                                              % user.id)]
                self.assertEqual(len(monitors), 3)
                kept = monitors[1]
                # renamed by hand, and no longer alerting the imported contact (a contact a kept monitor
                # alerts is kept with it)
                self.stack.sql("UPDATE monitors SET name='Edited by hand' WHERE id=%d" % kept)
                self.stack.sql("DELETE FROM monitor_contacts WHERE monitor_id=%d" % kept)
                # a run that another client reverts while the page shows it: the page's own revert is refused
                other = self.stack.insert_run(user.id, "completed", provider="pingdom", stats=json.dumps(
                    {"discovered": {}, "imported": 0, "skipped": 0, "failed": 0, "progress": 1}))
                imported = {t: self.count(t, user) for t in ("monitors", "heartbeats", "contacts")}
                self.assertEqual(imported, {"monitors": 3, "heartbeats": 1, "contacts": 1})

                def untouched():
                    """After the dialog was cancelled: nothing asked, nothing changed."""
                    self.assertEqual(self.stack.run_status(rid), "completed")
                    self.assertEqual({t: self.count(t, user) for t in imported}, imported)
                    self.assertFalse([l for l in self.logs(user, rid) if l["message"].startswith("Reverting")])

                def halfway():
                    """The revert's progress as a runner writes it halfway (stats.activity): a revert of five
                    objects ends within one step, before the page could see it at work."""
                    self.assertEqual(self.stack.run_status(rid), "reverting")
                    stats = json.loads(self.stack.sql_value("SELECT stats FROM migration_runs WHERE id=%s" % q(rid)))
                    stats["activity"] = {"doing": "reverting", "done": 2, "total": 5, "since": "2026-01-01T00:00:00Z",
                                         "per_minute": 30, "eta_s": 6}
                    self.stack.sql("UPDATE migration_runs SET stats=%s WHERE id=%s" % (q(json.dumps(stats)), q(rid)))

                res = self.journey("revert", user.token, size, runner=False,
                                   hooks={"untouched": untouched, "halfway": halfway},
                                   WRITER=user.new_token(["account:read", "account:write"]))
                self.assertEqual(res["run"], rid)
                self.assertEqual(res["notice"], "Reverting: 5 objects the run wrote will be deleted or put back.")
                self.assertEqual(res["refused"], "The run is reverting already.")
                self.assertEqual(self.stack.run_status(rid), "reverted")
                self.assertEqual(self.stack.run_status(other), "reverted")
                self.assertEqual(self.get(user, rid)["data"]["stats"]["revert"],
                                 {"objects": 5, "deleted": 4, "restored": 0, "kept": 1, "left": 0, "gone": 0})
                # what the run created is gone; the monitor changed since is kept as it is
                self.assertEqual(self.stack.sql("SELECT id, name FROM monitors WHERE user_id=%d" % user.id),
                                 [(str(kept), "Edited by hand")])
                self.assertEqual(self.count("heartbeats", user), 0)
                self.assertEqual(self.count("contacts", user), 0)

    def test_flag_off_says_the_module_is_disabled(self):
        for size in SIZES:
            with self.subTest(size=size):
                user = self.user()
                self.stack.set_flag(False, user.id)
                try:
                    res = self.journey("flagoff", user.token, size)
                finally:
                    self.stack.set_flag(True, user.id)
                self.assertIn("The migrator module is disabled for this account", res["notice"])

    def test_read_only_token_reviews_but_cannot_change(self):
        for size in SIZES:
            with self.subTest(size=size):
                user = self.user()
                rid = self.stack.insert_run(user.id, status="awaiting_review", provider="updown")
                self.stack.insert_resources(rid, 3, status="pending", action=None)
                # twelve heartbeats whose fields f01…f12 will not carry over, f01 for all twelve, f12 for one
                for i in range(12):
                    self.stack.insert_resources(rid, 1, resource_type="heartbeat", dropped=json.dumps(
                        [{"field": "f%02d" % (k + 1), "reason": "Reason %d." % (k + 1)} for k in range(i + 1)]))
                ro = user.new_token(["account:read"])
                res = self.journey("readonly", ro, size)
                self.assertIn("read-only", res["notice"])
                self.assertEqual(self.stack.run_status(rid), "awaiting_review")
