"""`make install` into a DESTDIR, then the installed programs against the test
database (issue 5).

`make -C $MIGRATOR_BUILDDIR install DESTDIR=<tmp> prefix=/usr sysconfdir=/etc`
(the Debian layout, given at install time), then:
- the installed files are where a Debian admin expects them;
- the installed `migratorctl` applies the installed SQL (`db migrate` is
  idempotent on the already migrated test database) and answers `status`;
- the installed cron file (examples/cron.d/migrator) runs the installed cron
  wrapper, which runs the installed runner: its line is parsed, the DESTDIR
  put in front of the install paths, and the command run once (with --once,
  the test config and without `| logger`) - it must exit 0;
- the installed systemd units load (`systemd-analyze verify`), and their
  commands do what the units promise (there is no systemd here to start them).
"""

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile

import harness

PREFIX = "/usr"
SYSCONFDIR = "/etc"

WEB_EXAMPLES = ["migrator-fcgid.conf", "migrator-proxy-fcgi.conf", "lighttpd-migrator.conf",
                "migrator-fcgi.service", "migrator-fcgi.socket"]
ERROR_PAGES = ["400", "401", "403", "404", "405", "408", "411", "413", "500", "502", "503", "504"]


class Install(harness.ApiTestCase):
    destdir = None

    @classmethod
    def setUpClass(cls):
        cls.destdir = tempfile.mkdtemp(prefix="migrator-install-", dir="/tmp")
        r = subprocess.run(["make", "-C", harness.BUILDDIR, "install", "DESTDIR=" + cls.destdir,
                            "prefix=" + PREFIX, "sysconfdir=" + SYSCONFDIR],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        cls.install_rc = r.returncode
        cls.install_out = r.stdout.decode("utf-8", "replace")

    @classmethod
    def tearDownClass(cls):
        if cls.destdir:
            shutil.rmtree(cls.destdir, ignore_errors=True)

    def setUp(self):
        if self.install_rc != 0:
            self.fail("make install failed (%d):\n%s" % (self.install_rc, self.install_out[-3000:]))

    def d(self, path):
        return self.destdir + path

    def run_installed(self, argv, env=None, timeout=120):
        return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=timeout, env=env or self.stack._mariadb_env())

    # -- files

    def test_installed_files_are_in_the_debian_layout(self):
        problems = []
        for prog in ("/usr/bin/migratorctl", "/usr/bin/migrator-runner", "/usr/libexec/migrator.fcgi",
                     "/usr/libexec/migrator/migrator-runner-cron"):
            self.check(problems, os.access(self.d(prog), os.X_OK), "%s missing or not executable" % prog)
        sql = sorted(os.listdir(self.d("/usr/share/migrator/sql"))) if os.path.isdir(
            self.d("/usr/share/migrator/sql")) else []
        self.check(problems, sql == sorted(f for f in os.listdir(os.path.join(harness.SRCDIR, "sql"))
                                           if f.endswith(".sql")),
                   "/usr/share/migrator/sql holds %s" % sql)
        self.check(problems, os.path.isfile(self.d("/etc/migrator/migrator.conf.example")),
                   "/etc/migrator/migrator.conf.example missing")
        self.check(problems, not os.path.exists(self.d("/etc/migrator/migrator.conf")),
                   "make install must not write the real config /etc/migrator/migrator.conf")
        for name in WEB_EXAMPLES:
            self.check(problems, os.path.isfile(self.d("/usr/share/migrator/apache/" + name)),
                       "/usr/share/migrator/apache/%s missing" % name)
        for code in ERROR_PAGES:
            path = self.d("/usr/share/migrator/errors/%s.json" % code)
            try:
                with open(path) as f:
                    import json
                    body = json.load(f)
                self.check(problems, body.get("code") == "http_" + code and body.get("message"),
                           "%s: %r" % (path, body))
            except (OSError, ValueError) as e:
                problems.append("%s: %s" % (path, e))
        self.check(problems, os.path.isfile(self.d("/usr/share/migrator/examples/cron.d/migrator")),
                   "/usr/share/migrator/examples/cron.d/migrator missing")
        for name in ("index.html", "app.js", "app.css"):
            self.check(problems, os.path.isfile(self.d("/usr/share/migrator/web/migrator/" + name)),
                       "/usr/share/migrator/web/migrator/%s missing (the review page)" % name)
        self.assertNoProblems(problems)

    def test_installed_examples_name_the_install_paths(self):
        """The built-in paths are those given at install time (prefix=/usr,
        sysconfdir=/etc), and nothing is left unsubstituted."""
        problems = []
        for name in WEB_EXAMPLES:
            path = self.d("/usr/share/migrator/apache/" + name)
            with open(path) as f:
                text = f.read()
            self.check(problems, "@" not in re.sub(r"#.*", "", text).replace("@localhost", ""),
                       "%s has an unsubstituted @...@" % name)
            self.check(problems, "/usr/local" not in text, "%s names /usr/local" % name)
        with open(self.d("/usr/share/migrator/apache/migrator-fcgid.conf")) as f:
            fcgid = f.read()
        for want in ('FcgidInitialEnv MIGRATOR_CONFIG /etc/migrator/migrator.conf',
                     'ScriptAlias /api/v1 "/usr/libexec/migrator.fcgi"',
                     'ScriptAlias /mcp "/usr/libexec/migrator.fcgi"',
                     'Alias /migrator-errors "/usr/share/migrator/errors"', "CGIPassAuth On"):
            self.check(problems, want in fcgid, "migrator-fcgid.conf lacks %r" % want)
        with open(self.d("/usr/share/migrator/apache/migrator-fcgi.service")) as f:
            self.check(problems, "ExecStart=/usr/libexec/migrator.fcgi --config /etc/migrator/migrator.conf"
                       in f.read(), "migrator-fcgi.service ExecStart")
        self.assertNoProblems(problems)

    # -- programs

    def test_installed_migratorctl_migrates_with_the_installed_sql_and_reports_status(self):
        ctl = self.d("/usr/bin/migratorctl")
        sqldir = self.d("/usr/share/migrator/sql")
        before = self.stack.sql("SHOW TABLES")
        for attempt in (1, 2):
            r = self.run_installed([ctl, "--config", self.stack.config, "db", "migrate", "--sql-dir", sqldir])
            self.assertEqual(r.returncode, 0, "db migrate #%d: %s %s" % (attempt, r.stdout, r.stderr))
        self.assertEqual(self.stack.sql("SHOW TABLES"), before, "db migrate changed the table list")
        r = self.run_installed([ctl, "--config", self.stack.config, "status"])
        self.assertEqual(r.returncode, 0, "status: %s %s" % (r.stdout, r.stderr))
        self.assertTrue(r.stdout.strip(), "status printed nothing")

    def unit(self, path):
        """A systemd unit file as {key: [values]} (sections are not told apart)."""
        keys = {}
        with open(self.d(path)) as f:
            for line in f:
                m = re.match(r"^([A-Za-z]+)=(.*)$", line.strip())
                if m:
                    keys.setdefault(m.group(1), []).append(m.group(2))
        return keys

    def test_installed_systemd_units_verify_and_do_what_they_say(self):
        """systemd-analyze verify finds no fault in the four units (it reports unknown keys,
        bad timer specifications and commands that are not there); the socket is the one the
        mod_proxy_fcgi example names; migrator-fcgi.service's command answers FastCGI on that
        kind of socket given as standard input (StandardInput=socket with Accept=no); and
        migrator-runner.service's command, with its Environment, runs a pass."""
        units = {"migrator-fcgi.socket": "/usr/share/migrator/apache/",
                 "migrator-fcgi.service": "/usr/share/migrator/apache/",
                 "migrator-runner.service": "/usr/share/migrator/examples/",
                 "migrator-runner.timer": "/usr/share/migrator/examples/"}
        unitdir = tempfile.mkdtemp(prefix="units-", dir=self.destdir)
        for name, folder in units.items():
            with open(self.d(folder + name)) as f:
                text = f.read()
            # verify checks that ExecStart's program exists: the installed one, under DESTDIR
            text = re.sub(r"(?m)^ExecStart=/", "ExecStart=" + self.destdir + "/", text)
            with open(os.path.join(unitdir, name), "w") as f:
                f.write(text)
        r = subprocess.run(["systemd-analyze", "verify"] + [os.path.join(unitdir, n) for n in units],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
        faults = [l for l in r.stdout.splitlines() if "migrator" in l]
        self.assertEqual((r.returncode, faults), (0, []), r.stdout)

        sock_unit = self.unit("/usr/share/migrator/apache/migrator-fcgi.socket")
        with open(self.d("/usr/share/migrator/apache/migrator-proxy-fcgi.conf")) as f:
            proxy = f.read()
        self.assertEqual(sock_unit["ListenStream"], ["/run/migrator/fcgi.sock"])
        self.assertIn('"unix:/run/migrator/fcgi.sock|', proxy, "the proxy example names another socket")
        service = self.unit("/usr/share/migrator/apache/migrator-fcgi.service")
        self.assertEqual(service["StandardInput"], ["socket"])
        argv = shlex.split(service["ExecStart"][0])
        self.assertEqual(argv, ["/usr/libexec/migrator.fcgi", "--config", "/etc/migrator/migrator.conf"])
        argv = [self.d(argv[0]), "--config", self.stack.config]
        path = os.path.join(unitdir, "fcgi.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(16)
        proc = harness.Proc("unit-fcgi", argv, os.path.join(unitdir, "fcgi.log"),
                            env=self.stack._mariadb_env(), stdin=listener.fileno())
        listener.close()
        try:
            user = self.user()
            status, head, body = harness.fcgi_call(path, {
                "REQUEST_METHOD": "GET", "REQUEST_URI": "/api/v1/me", "REMOTE_ADDR": "127.0.0.1",
                "HTTP_AUTHORIZATION": "Bearer " + user.token})
            self.assertEqual(status, 200, body)
            self.assertEqual(json.loads(body)["data"]["email"], user.email)
        finally:
            proc.stop()

        runner = self.unit("/usr/share/migrator/examples/migrator-runner.service")
        self.assertEqual(runner["Environment"], ["MIGRATOR_CONFIG=/etc/migrator/migrator.conf"])
        argv = shlex.split(runner["ExecStart"][0])
        self.assertEqual(argv[0], "/usr/bin/migrator-runner")
        env = dict(self.stack._mariadb_env(), MIGRATOR_CONFIG=self.stack.config)
        r = self.run_installed([self.d(argv[0])] + argv[1:] + ["--once"], env=env)
        self.assertEqual(r.returncode, 0, "runner service command: %s %s" % (r.stdout, r.stderr))

    def test_installed_cron_file_runs_the_installed_runner(self):
        with open(self.d("/usr/share/migrator/examples/cron.d/migrator")) as f:
            lines = [l.strip() for l in f if l.strip() and not l.lstrip().startswith("#")]
        env = {}
        jobs = []
        for line in lines:
            m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", line)
            if m:
                env[m.group(1)] = m.group(2)
            else:
                jobs.append(line)
        self.assertEqual(len(jobs), 1, "expected one cron line, got %r" % jobs)
        fields = jobs[0].split(None, 6)
        self.assertEqual(len(fields), 7, "cron.d line needs 5 time fields, a user and a command: %r" % jobs[0])
        self.assertEqual(fields[:5], ["*"] * 5, "the runner should run every minute")
        command = fields[6]
        self.assertEqual(env.get("MIGRATOR_CONFIG"), "/etc/migrator/migrator.conf")
        # the command: "<wrapper> [args] 2>&1 | logger ..."; keep the part before the pipe
        cmd = command.split("|", 1)[0].strip()
        argv = shlex.split(cmd)
        redirect = [a for a in argv if a.startswith("2>")]
        argv = [a for a in argv if not a.startswith("2>")]
        self.assertEqual(argv[0], "/usr/libexec/migrator/migrator-runner-cron")
        self.assertEqual(env.get("MIGRATOR_RUNNER"), "/usr/bin/migrator-runner")
        argv[0] = self.d(argv[0])
        self.assertTrue(os.access(argv[0], os.X_OK), "%s not executable" % argv[0])
        run_env = dict(self.stack._mariadb_env())
        run_env.update(env)
        run_env["MIGRATOR_CONFIG"] = self.stack.config
        run_env["MIGRATOR_RUNNER"] = self.d(env["MIGRATOR_RUNNER"])
        run_env["MIGRATOR_LOCK_DIR"] = self.destdir
        # --once: one pass, exit when no job is left (the cron wrapper lets it run 60 s)
        r = self.run_installed(argv + ["--once"], env=run_env)
        self.assertEqual(r.returncode, 0, "cron command exited %d: %s %s (redirect %s)" % (
            r.returncode, r.stdout, r.stderr, redirect))
        self.assertTrue(os.path.exists(os.path.join(self.destdir, "migrator-runner.1.lock")),
                        "the wrapper took no lock in MIGRATOR_LOCK_DIR")
