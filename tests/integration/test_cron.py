"""The cron wrapper (cron/migrator-runner-cron): every slot of the host works at once, a slot still
busy from the previous minute is waited for, never doubled.

The wrapper starts processes and holds locks; what it starts here is a stand-in for migrator-runner
(a shell script that logs its start and arguments and waits for the test's word to exit), so a test
can see which runners run at the same time. The wrapper running the real runner is test_install's
(the installed crontab line, its wrapper and runner, once).
"""

import fcntl
import os
import shutil
import subprocess
import tempfile
import time
import unittest

import harness

WRAPPER = os.path.join(harness.SRCDIR, "cron", "migrator-runner-cron")

STAND_IN = """#!/bin/sh
echo "start $*" >>"$STAND_IN_DIR/log"
while [ ! -e "$STAND_IN_DIR/go" ] && [ -d "$STAND_IN_DIR" ]; do sleep 0.05; done
exit "${STAND_IN_RC:-0}"
"""


class TestCronWrapper(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="migrator-cron-", dir="/tmp")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.runner = os.path.join(self.dir, "runner")
        with open(self.runner, "w") as f:
            f.write(STAND_IN)
        os.chmod(self.runner, 0o755)
        self.procs = []
        self.addCleanup(self.finish)

    def finish(self):
        """Every stand-in told to exit, and every wrapper waited for (killed if it will not end)."""
        self.go()
        for p in self.procs:
            try:
                p.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()

    def wrapper(self, slots, lock_wait="30", args=(), rc=0):
        env = dict(os.environ, MIGRATOR_RUNNER=self.runner, MIGRATOR_LOCK_DIR=self.dir,
                   MIGRATOR_RUNNER_SLOTS=str(slots), MIGRATOR_LOCK_WAIT=lock_wait,
                   STAND_IN_DIR=self.dir, STAND_IN_RC=str(rc))
        p = subprocess.Popen([WRAPPER] + list(args), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.procs.append(p)
        return p

    def starts(self):
        try:
            with open(os.path.join(self.dir, "log")) as f:
                return f.read().splitlines()
        except FileNotFoundError:
            return []

    def wait_starts(self, n):
        """The runners started so far, once there are n of them (the wrapper starts them at once)."""
        deadline = time.monotonic() + 30
        while len(self.starts()) < n and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual(len(self.starts()), n, self.starts())
        return self.starts()

    def go(self):
        open(os.path.join(self.dir, "go"), "w").close()

    def hold(self, slot):
        """Takes slot's lock, as a runner of the previous minute still at work would."""
        f = open(os.path.join(self.dir, "migrator-runner.%d.lock" % slot), "w")
        fcntl.flock(f, fcntl.LOCK_EX)
        return f

    def exit_status(self, p):
        out, err = p.communicate(timeout=60)
        return p.returncode, out.decode() + err.decode()

    def test_every_slot_runs_at_once_with_its_minute_and_the_arguments(self):
        p = self.wrapper(3, args=["--verbose"])
        # all three run before any of them may exit
        self.assertEqual(self.wait_starts(3), ["start --max-seconds 60 --verbose"] * 3)
        self.go()
        self.assertEqual(self.exit_status(p), (0, ""))
        for slot in (1, 2, 3):
            self.assertTrue(os.path.exists(os.path.join(self.dir, "migrator-runner.%d.lock" % slot)))

    def test_a_busy_slot_is_waited_for_and_then_runs(self):
        held = self.hold(1)
        p = self.wrapper(2)
        self.wait_starts(1)        # slot 2 at once
        time.sleep(0.5)            # slot 1 is held: nothing else may start meanwhile
        self.assertEqual(len(self.starts()), 1, self.starts())
        held.close()               # the previous minute's runner exits
        self.wait_starts(2)
        self.go()
        self.assertEqual(self.exit_status(p), (0, ""))

    def test_a_slot_busy_past_the_wait_gives_the_minute_up(self):
        held = self.hold(1)
        self.addCleanup(held.close)
        p = self.wrapper(1, lock_wait="1")
        self.assertEqual(self.exit_status(p), (0, ""))
        self.assertEqual(self.starts(), [])

    def test_a_failing_runner_is_the_wrappers_status(self):
        p = self.wrapper(2, rc=1)
        self.wait_starts(2)
        self.go()
        self.assertEqual(self.exit_status(p)[0], 1)

    def test_no_slot_no_runner(self):
        p = self.wrapper(0)
        self.assertEqual(self.exit_status(p), (0, ""))
        self.assertEqual(self.starts(), [])

    def test_settings_that_are_not_numbers_are_refused(self):
        for slots, lock_wait, name in (("two", "30", "MIGRATOR_RUNNER_SLOTS"), ("2", "soon", "MIGRATOR_LOCK_WAIT"),
                                       ("2", "-1", "MIGRATOR_LOCK_WAIT")):
            rc, out = self.exit_status(self.wrapper(slots, lock_wait=lock_wait))
            self.assertEqual(rc, 2)
            self.assertIn(name + " must be a number", out)
        self.assertEqual(self.starts(), [])
