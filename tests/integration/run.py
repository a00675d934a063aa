#!/usr/bin/env python3
"""Integration suite entry point.

Starts one Stack (private MariaDB, schema, web server running the real
migrator.fcgi), runs every test in tests/integration/test_*.py against it,
prints one line per test, and ends with exactly one line `N passed, N failed`.
Exit status 0 only when every selected test passed.

  python3 tests/integration/run.py [--web lighttpd|apache] [-k PATTERN]... [--skip PATTERN]... [--keep] [--fakes]
                                  [--galera]

--galera: the stack's database is a 3-node MariaDB Galera cluster (harness.Stack(galera=True));
runs the tests of GALERA_TESTS only (-k narrows them further), with runner k and web server k
of a test on node k mod 3. test_galera.py runs only in this mode.

Environment: MIGRATOR_BUILDDIR (migrator.fcgi, migratorctl, migrator-runner;
default <srcdir>/build), MIGRATOR_SRCDIR (default: two levels up from here).
"""

import argparse
import fnmatch
import glob
import importlib
import os
import signal
import sys
import time
import traceback
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402


def out(line=""):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def matches(tid, patterns):
    """True when any pattern is a case-insensitive substring of tid or matches it as a glob."""
    t = tid.lower()
    return any(p.lower() in t or fnmatch.fnmatch(t, p.lower()) for p in patterns)


# What runs on the Galera cluster (--galera): the runner, queue, chunked-import, drill and rate-limit
# tests, the API's request and start limits, and the cluster's own tests.
GALERA_TESTS = ["test_runner.", "test_runner_chunks.", "test_drills.", "test_ratelimit.",
                "test_rest.Limits_RequestRate.", "test_rest.Limits_StartAttempts.", "test_galera."]


def discover(patterns, skip=(), galera=False):
    """All tests of test_*.py here, as (id, test), filtered by -k patterns
    (any may match) and then by --skip patterns (none may match). galera: only
    those of GALERA_TESTS; without it, none of test_galera.py."""
    tests = []
    loader = unittest.TestLoader()
    for path in sorted(glob.glob(os.path.join(HERE, "test_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        module = importlib.import_module(name)
        stack = [loader.loadTestsFromModule(module)]
        while stack:
            s = stack.pop(0)
            if isinstance(s, unittest.TestSuite):
                stack[0:0] = list(s)
            else:
                tests.append(s)
    if galera:
        tests = [t for t in tests if any(t.id().startswith(g) for g in GALERA_TESTS)]
    else:
        tests = [t for t in tests if not t.id().startswith("test_galera.")]
    if patterns:
        tests = [t for t in tests if matches(t.id(), patterns)]
    return [t for t in tests if not matches(t.id(), skip)]


class Result(unittest.TestResult):
    """Prints each test as it finishes; on failure the assertion, the last
    requests and what the servers logged meanwhile."""

    def __init__(self, stack, failfast=False):
        super().__init__()
        self.stack = stack
        self.failfast = failfast
        self.passed = 0
        self.failed = 0
        self._t0 = 0
        self._marks = {}
        self._bad = None

    def startTest(self, test):
        super().startTest(test)
        self._t0 = time.time()
        self._bad = None
        self.stack.history.clear()
        self.stack._node_seq = 0  # galera: the test's first runner uses node 0
        self.stack.drop_leftover_jobs()  # no test's run waits behind another test's
        self._marks = {path: harness.file_size(path) for w in self.stack.webs.values() for path in w.log_files()}
        for label, path in self._db_logs():
            self._marks[label] = harness.file_size(path)

    def _db_logs(self):
        """(label, error log) of the database server, or of each Galera node (and of the HAProxy in
        front of them, once a test started one)."""
        if self.stack.nodes:
            logs = [("node %d" % n.index, n.err) for n in self.stack.nodes]
            if self.stack.haproxy_log:
                logs.append(("haproxy", self.stack.haproxy_log))
            return logs
        return [("mysqld", getattr(self.stack, "mysqld_err", ""))]

    def _record(self, test, kind, err):
        if self._bad is None:
            self._bad = []
        self._bad.append((kind, err))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "FAIL", err)

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "ERROR", err)
        if not hasattr(test, "_testMethodName"):
            # class/module fixture errors never reach stopTest
            self._report(test, time.time())

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            kind = "FAIL" if issubclass(err[0], test.failureException) else "ERROR"
            self._record(subtest, kind, err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test, "SKIP", reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._record(test, "XFAIL", err)

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record(test, "XPASS", None)

    def stopTest(self, test):
        super().stopTest(test)
        self._report(test, time.time())

    def _report(self, test, now):
        dt = now - self._t0
        if self._bad is None:
            self.passed += 1
            out("PASS  %s (%.2fs)" % (test.id(), dt))
            return
        self.failed += 1
        out("FAIL  %s (%.2fs)" % (test.id(), dt))
        for kind, err in self._bad:
            if isinstance(err, tuple):
                etype, value, tb = err
                if issubclass(etype, AssertionError):
                    text = "%s: %s" % (kind, value)
                    # where in the test it failed
                    frames = [f for f in traceback.extract_tb(tb) if os.path.basename(f.filename).startswith("test_")]
                    if frames:
                        f = frames[-1]
                        text += "\n    at %s:%d" % (os.path.basename(f.filename), f.lineno)
                else:
                    text = kind + ": " + "".join(traceback.format_exception(etype, value, tb)).rstrip()
            else:
                text = "%s: %s" % (kind, err)
            for line in text.splitlines():
                out("      " + line)
        if self.stack.history:
            out("      last requests:")
            for r in list(self.stack.history)[-3:]:
                for line in r.describe(400).splitlines():
                    out("        " + line)
        for w in self.stack.webs.values():
            for path in w.log_files():
                logged = harness.tail(path, 25, self._marks.get(path, 0))
                if logged.strip():
                    out("      %s (%s) %s, new lines:" % (w.kind, w.label, os.path.basename(path)))
                    for line in logged.splitlines():
                        out("        " + line)
        for label, path in self._db_logs():
            logged = harness.tail(path, 10, self._marks.get(label, 0))
            if logged.strip():
                out("      %s error log, new lines:" % label)
                for line in logged.splitlines():
                    out("        " + line)
        self._bad = None
        if self.failfast:
            self.stop()


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt("signal %d" % signum)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--web", default="lighttpd", choices=sorted(harness.WEB_SERVERS))
    ap.add_argument("-k", action="append", default=[], metavar="PATTERN",
                    help="run only tests whose id contains PATTERN (or matches it as a glob); repeatable")
    ap.add_argument("--skip", action="append", default=[], metavar="PATTERN",
                    help="leave out tests whose id contains PATTERN (or matches it as a glob); repeatable")
    ap.add_argument("--keep", action="store_true", help="leave the temporary folder for debugging")
    ap.add_argument("--fakes", action="store_true", help="also start tests/fakes/fakeprov.py")
    ap.add_argument("--tz", default=harness.DEFAULT_TZ, help="time zone of the stack's processes")
    ap.add_argument("--failfast", "-x", action="store_true", help="stop at the first failure")
    ap.add_argument("--list", action="store_true", help="list the selected tests and exit")
    ap.add_argument("--galera", action="store_true",
                    help="a 3-node MariaDB Galera cluster instead of one server; runs GALERA_TESTS only")
    args = ap.parse_args()

    signal.signal(signal.SIGINT, _raise_interrupt)
    signal.signal(signal.SIGTERM, _raise_interrupt)
    signal.signal(signal.SIGHUP, _raise_interrupt)

    try:
        tests = discover(args.k, args.skip, galera=args.galera)
    except KeyboardInterrupt:
        out("# interrupted")
        out("0 passed, 1 failed")
        return 130
    if args.list:
        for t in tests:
            out(t.id())
        return 0
    if not tests:
        out("no tests selected")
        out("0 passed, 0 failed")
        return 1

    stack = harness.Stack(web=args.web, keep=args.keep, fakes=args.fakes, tz=args.tz,
                          log=lambda m: out("# " + m), galera=args.galera)
    harness.ApiTestCase.stack = stack
    result = None
    interrupted = False
    setup_failed = False
    t0 = time.time()
    try:
        try:
            stack.start()
        except harness.HarnessError as e:
            setup_failed = True
            out("FAIL  stack setup")
            for line in str(e).splitlines():
                out("      " + line)
        if not setup_failed:
            result = Result(stack, failfast=args.failfast)
            suite = unittest.TestSuite(tests)
            suite.run(result)
    except KeyboardInterrupt:
        interrupted = True
        out("# interrupted")
    finally:
        if stack.nodes:
            out("# galera: the 3 nodes hold %d MB resident at the end" % stack.galera_rss_mb())
        try:
            stack.stop()
        except KeyboardInterrupt:
            stack.stop()
    passed = result.passed if result else 0
    failed = (result.failed if result else 0) + (1 if setup_failed else 0)
    if interrupted:
        failed += 1
    out("# %d tests selected, %.1fs" % (len(tests), time.time() - t0))
    out("%d passed, %d failed" % (passed, failed))
    if interrupted:
        return 130
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
