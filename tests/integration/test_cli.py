"""The three programs' command lines as an operator meets them (issue 13):
--help and --version, usage errors, migratorctl's user list, flag get,
config check, status on an empty database and db migrate from the build tree.
"""

import os
import re
import subprocess

import harness
from harness import ApiTestCase


def run(argv, env=None):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


class TestCommandLines(ApiTestCase):

    def programs(self):
        return [self.stack.ctl_path, self.stack.runner_path, os.path.join(harness.BUILDDIR, "migrator.fcgi")]

    def test_help_version_and_usage_errors(self):
        with open(os.path.join(harness.BUILDDIR, "config.h")) as f:
            version = re.search(r'#define PACKAGE_VERSION "([^"]+)"', f.read()).group(1)
        for prog in self.programs():
            name = os.path.basename(prog)
            with self.subTest(program=name):
                r = run([prog, "--help"])
                self.assertEqual((r.returncode, r.stderr), (0, ""))
                self.assertTrue(r.stdout.startswith("usage: " + name), r.stdout)
                r = run([prog, "--version"])
                self.assertEqual(r.returncode, 0)
                self.assertEqual(r.stdout, "%s (migrator) %s\n" % (name, version))
                r = run([prog, "--no-such-option"])
                self.assertEqual(r.returncode, 2)
                self.assertEqual(r.stdout, "")
                self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
                self.assertIn("see %s --help" % name, r.stderr)

    def test_user_list_and_flag_get(self):
        u = self.stack.new_user(["account:read"])
        out = self.stack.ctl("user", "list")
        self.assertTrue(out.startswith("id\tname\temail\tcreated\tactive_tokens\n"), out)
        row = [l for l in out.splitlines() if l.startswith("%d\t" % u.id)][0].split("\t")
        self.assertEqual((row[1], row[2], row[4]), (u.name, u.email, "1"))
        self.assertNotIn(u.token.split("|")[1], out)
        self.stack.set_flag(False, u.id)
        self.assertEqual(self.stack.ctl("flag", "get", "migrator", "--user", u.id),
                         "features:migrator off for user %d (per-user override)" % u.id)
        self.stack.set_flag(True, u.id)
        self.assertIn("features:migrator on (global setting)", self.stack.ctl("flag", "get", "migrator"))
        rc, out, err = self.stack.ctl("flag", "get", "nope", check=False)
        self.assertEqual(rc, 2)

    def test_config_check_prints_the_effective_values(self):
        out = self.stack.ctl("config", "check")
        lines = out.splitlines()
        self.assertIn("limits.max_resources = 200000", lines)
        self.assertIn("database.socket = " + self.stack.sock, lines)
        self.assertTrue(all(" = " in l for l in lines), out)
        bad = os.path.join(self.stack.tmp, "bad.conf")
        with open(bad, "w") as f:
            f.write("[limits]\nmax_body = lots ; a comment\n")
        rc, out, err = self.stack.ctl("config", "check", "--config", bad, check=False)
        self.assertEqual(rc, 1)
        self.assertIn("bad.conf:2: limits.max_body must be an integer", err)
        # the shipped example passes unchanged (but for the placeholders make fills in)
        rc, out, err = self.stack.ctl("config", "check", "--config",
                                      os.path.join(harness.SRCDIR, "migrator.conf.example.in"), check=False)
        self.assertEqual(rc, 0, err)
        self.assertIn("database.password = (set)", out.splitlines())

    def test_status_on_an_empty_database_and_migrate_from_the_build_tree(self):
        self.stack.sql("DROP DATABASE IF EXISTS empty_cli; CREATE DATABASE empty_cli", db="")
        conf = os.path.join(self.stack.tmp, "empty.conf")
        with open(self.stack.config) as f:
            text = f.read().replace("name = migrator", "name = empty_cli")
        with open(conf, "w") as f:
            f.write(text)
        rc, out, err = self.stack.ctl("status", config=conf, check=False)
        self.assertEqual(rc, 1)
        self.assertIn("run migratorctl db migrate", err)
        env = dict(os.environ)
        env.pop("MIGRATOR_SQL_DIR", None)
        r = run([self.stack.ctl_path, "--config", conf, "db", "migrate"], env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("applied 001_core.sql", r.stdout)
        rc, out, err = self.stack.ctl("status", config=conf, check=False)
        self.assertEqual(rc, 0, err)
        self.stack.sql("DROP DATABASE empty_cli", db="")
