"""The three programs' command lines as an operator meets them (issue 13):
--help and --version, usage errors, migratorctl's user list, flag get,
config check, status on an empty database and db migrate from the build tree,
token list and the status tables; every statement of src/db/*.def prepared
on the migrated schema;
the manual pages: clean under man --warnings, every config key and command in them.
"""

import os
import re
import shutil
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
        self.assertIn("limits.provider_wait_min = 1", lines)
        self.assertIn("limits.provider_wait_max = 900", lines)
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

    def empty_database(self, name):
        """A new empty database and a config file naming it; returns the file's path."""
        self.stack.sql("DROP DATABASE IF EXISTS %s; CREATE DATABASE %s" % (name, name), db="")
        conf = os.path.join(self.stack.tmp, name + ".conf")
        with open(self.stack.config) as f:
            text = f.read().replace("name = migrator", "name = " + name)
        with open(conf, "w") as f:
            f.write(text)
        return conf

    def test_status_on_an_empty_database_and_migrate_from_the_build_tree(self):
        conf = self.empty_database("empty_cli")
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
        self.assertEqual(out, "queue\tjobs\treserved\toldest_age_s\n(no queued jobs)\n\nrun_status\truns")
        self.stack.sql("DROP DATABASE empty_cli", db="")

    def migrated_before(self, db, first):
        """A new database db migrated up to the migration before the one named first; its config."""
        conf = self.empty_database(db)
        old = os.path.join(self.stack.tmp, "sql-before-" + first)
        shutil.rmtree(old, ignore_errors=True)
        shutil.copytree(os.path.join(harness.SRCDIR, "sql"), old,
                        ignore=lambda d, names: [n for n in names if not n.endswith(".sql") or n >= first])
        self.stack.ctl("db", "migrate", "--sql-dir", old, config=conf)
        return conf

    def test_resource_data_moves_to_its_own_table_with_every_resource(self):
        """sql/021 moves each resource's provider data, normalized data and dropped ledger into
        migration_run_resource_data. On a database migrated to 020 with resources that have them
        (and one without), every resource keeps its row and its data, keyed by its id."""
        conf = self.migrated_before("upgrade_021", "021")
        self.stack.sql("INSERT INTO users (id, name, email) VALUES (1, 'u', 'u@example.test');"
                       "INSERT INTO migration_runs (id, user_id, provider, status, created_at, updated_at) VALUES "
                       "('r1', 1, 'updown', 'awaiting_review', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6));"
                       "INSERT INTO migration_run_resources (run_id, resource_type, external_id, name, status, "
                       "external_data, normalized_data, dropped, created_at, updated_at) VALUES "
                       "('r1', 'monitor', 'a', 'A', 'pending', '{\"token\":\"A\"}', '{\"url\":\"https://a.test/\"}',"
                       " '[{\"field\":\"ssl\",\"reason\":\"no such setting\"}]', NOW(6), NOW(6)),"
                       "('r1', 'contact', 'b', 'B', 'imported', NULL, '{\"value\":\"b@example.test\"}', NULL,"
                       " NOW(6), NOW(6));", db="upgrade_021")
        before = self.stack.sql("SELECT id, run_id, external_id, name, status, external_data, normalized_data, "
                                "dropped FROM migration_run_resources ORDER BY id", db="upgrade_021")
        r = run([self.stack.ctl_path, "--config", conf, "db", "migrate", "--sql-dir",
                 os.path.join(harness.SRCDIR, "sql")])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("applied 021_resource_data.sql", r.stdout.splitlines())
        after = self.stack.sql("SELECT r.id, r.run_id, r.external_id, r.name, r.status, d.external_data, "
                               "d.normalized_data, d.dropped FROM migration_run_resources r LEFT JOIN "
                               "migration_run_resource_data d ON d.run_id = r.run_id AND d.resource_id = r.id "
                               "ORDER BY r.id", db="upgrade_021")
        self.assertEqual(after, before)
        self.assertEqual(len(after), 2)
        self.assertEqual(self.stack.sql("SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = "
                                        "'upgrade_021' AND table_name = 'migration_run_resources' AND column_name IN "
                                        "('external_data', 'normalized_data', 'dropped')", db=""), [("0",)])
        self.stack.sql("DROP DATABASE upgrade_021", db="")

    def test_clustering_by_run_keeps_every_row_and_id(self):
        """sql/010 rebuilds the resource and log tables with (run_id, id) as
        their primary key. On a database migrated to 009 with data in them,
        every row keeps its id and columns, and the next rows get new ids."""
        conf = self.migrated_before("upgrade_010", "010")
        fill = ("INSERT INTO users (id, name, email) VALUES "
                "(1, 'u', 'u@example.test');"
                "INSERT INTO migration_runs (id, user_id, provider, status, created_at, updated_at) VALUES "
                "('r1', 1, 'updown', 'awaiting_review', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6)),"
                "('r2', 1, 'updown', 'awaiting_review', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6));"
                "INSERT INTO migration_run_resources (run_id, resource_type, external_id, name, status, "
                "created_at, updated_at) VALUES ('r1', 'monitor', 'a', 'A', 'pending', NOW(6), NOW(6)),"
                "('r2', 'monitor', 'b', 'B', 'failed', NOW(6), NOW(6)),"
                "('r1', 'monitor', 'c', 'C', 'pending', NOW(6), NOW(6));"
                "INSERT INTO migration_run_logs (run_id, level, message, logged_at) VALUES "
                "('r2', 'info', 'one', NOW(6)), ('r1', 'error', 'two', NOW(6));")
        self.stack.sql(fill, db="upgrade_010")
        rows = "SELECT id, run_id, external_id, name, status FROM migration_run_resources ORDER BY id"
        logs = "SELECT id, run_id, level, message FROM migration_run_logs ORDER BY id"
        before = (self.stack.sql(rows, db="upgrade_010"), self.stack.sql(logs, db="upgrade_010"))
        r = run([self.stack.ctl_path, "--config", conf, "db", "migrate", "--sql-dir",
                 os.path.join(harness.SRCDIR, "sql")])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("applied 010_cluster_by_run.sql", r.stdout.splitlines())
        self.assertEqual((self.stack.sql(rows, db="upgrade_010"), self.stack.sql(logs, db="upgrade_010")), before)
        self.stack.sql("INSERT INTO migration_run_resources (run_id, resource_type, external_id, status, "
                       "created_at, updated_at) VALUES ('r2', 'monitor', 'd', 'pending', NOW(6), NOW(6));"
                       "INSERT INTO migration_run_logs (run_id, level, message, logged_at) "
                       "VALUES ('r1', 'info', 'three', NOW(6))", db="upgrade_010")
        self.assertEqual(self.stack.sql("SELECT id FROM migration_run_resources WHERE external_id = 'd'",
                                        db="upgrade_010"), [(str(int(before[0][-1][0]) + 1),)])
        self.assertEqual(self.stack.sql("SELECT id FROM migration_run_logs WHERE message = 'three'",
                                        db="upgrade_010"), [(str(int(before[1][-1][0]) + 1),)])
        self.stack.sql("DROP DATABASE upgrade_010", db="")

    def test_token_list_and_status_rows(self):
        u = self.stack.new_user(["account:read"])
        second = self.stack.new_token(u.id, ["account:read", "account:write"], name="second")
        self.stack.ctl("token", "revoke", "--id", second.split("|")[0])
        lines = self.stack.ctl("token", "list", "--user", u.id).splitlines()
        self.assertEqual(lines[0], "id\tname\tscopes\tlast_used\tcreated\trevoked")
        rows = [l.split("\t") for l in lines[1:]]
        self.assertEqual([(r[0], r[2], r[3]) for r in rows],
                         [(u.token_id, "account:read", "never"), (second.split("|")[0], "account:read,account:write", "never")])
        self.assertEqual(rows[0][5], "-")
        self.assertRegex(rows[1][5], r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
        for tok in (u.token, second):
            self.assertNotIn(tok.split("|")[1], "\n".join(lines))
        lone = self.stack.ctl("user", "add", "--name", "lone", "--email", self.stack.unique("lone") + "@example.test")
        self.assertEqual(self.stack.ctl("token", "list", "--user", lone), "id\tname\tscopes\tlast_used\tcreated\trevoked")

        run_id = self.stack.insert_run(u.id, status="cancelled")
        self.stack.insert_job(run_id, queue="ctl_probe")
        self.stack.insert_job(run_id, queue="ctl_probe")
        try:
            lines = self.stack.ctl("status").splitlines()
        finally:
            self.stack.sql("DELETE FROM jobs WHERE queue = 'ctl_probe'")
            self.stack.sql("DELETE FROM migration_runs WHERE id = %s" % harness.q(run_id))
        self.assertEqual(lines[0], "queue\tjobs\treserved\toldest_age_s")
        probe = [l.split("\t") for l in lines if l.startswith("ctl_probe\t")]
        self.assertEqual(len(probe), 1, lines)
        self.assertEqual(probe[0][1:3], ["2", "0"])
        self.assertRegex(probe[0][3], r"^\d+$")
        at = lines.index("run_status\truns")
        self.assertEqual(lines[at - 1], "")
        cancelled = [l.split("\t") for l in lines[at + 1:] if l.startswith("cancelled\t")]
        self.assertEqual(len(cancelled), 1, lines)
        self.assertGreaterEqual(int(cancelled[0][1]), 1)


class TestManualPages(ApiTestCase):

    MAN = os.path.join(harness.SRCDIR, "man")

    def page(self, name):
        with open(os.path.join(self.MAN, name)) as f:
            return f.read()

    def test_pages_format_without_warnings(self):
        pages = sorted(os.listdir(self.MAN))
        self.assertEqual(pages, ["migrator-runner.8", "migrator.conf.5", "migrator.fcgi.8", "migratorctl.8"])
        env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80")
        for p in pages:
            with self.subTest(page=p):
                r = run(["man", "--warnings", "-l", "-Tutf8", os.path.join(self.MAN, p)], env=env)
                self.assertEqual((r.returncode, r.stderr), (0, ""))
                self.assertGreater(len(r.stdout), 1000)

    def test_every_config_key_and_command_is_documented(self):
        conf = self.page("migrator.conf.5")
        for line in self.stack.ctl("config", "check").splitlines():
            key = line.split(" = ")[0]
            if key.startswith("provider."):
                continue
            section, name = key.split(".")
            with self.subTest(key=key):
                part = conf.split(".SH [%s]" % section)[1].split(".SH ")[0]
                self.assertIn("\n.B %s\n" % name, part)
        for key in ("base_url", "timeout"):
            self.assertIn("\n.B %s\n" % key, conf.split(".SH [provider.ID]")[1])
        ctl = self.page("migratorctl.8")
        usage = run([self.stack.ctl_path, "--help"]).stdout.splitlines()[1:]
        commands = [" ".join(w for w in l.split()[:2] if w.isalpha()) for l in usage
                    if l.startswith("  ")]
        self.assertGreaterEqual(len(commands), 11)
        for c in commands:
            with self.subTest(command=c):
                self.assertRegex(ctl, r"\.B[R]? \"?%s" % re.escape(c))
        for opt in ("--max-seconds", "--max-jobs", "--once", "--worker-id", "--verbose"):
            self.assertIn(opt.replace("-", "\\-"), self.page("migrator-runner.8"))


class TestProviderFieldTables(ApiTestCase):

    MARK = re.compile(r"<!-- fields: generated by `migratorctl provider fields (\w+)`; edit src/providers/\w+\.c -->\n"
                      r"(.*?)<!-- end of fields -->\n", re.S)

    def test_the_docs_field_tables_are_the_providers_own(self):
        """Issue 24 item 2: docs/providers/<id>.md holds, between its markers, exactly what
        `migratorctl provider fields <id>` prints from the table discovery computes `dropped` with;
        a provider with a table has the section, one without has none."""
        docs = os.path.join(harness.SRCDIR, "docs", "providers")
        written = 0
        for name in sorted(os.listdir(docs)):
            pid = name[:-3]
            with open(os.path.join(docs, name), encoding="utf-8") as f:
                text = f.read()
            p = run([self.stack.ctl_path, "provider", "fields", pid])
            found = self.MARK.findall(text)
            with self.subTest(provider=pid):
                if p.returncode == 0:
                    self.assertEqual(len(found), 1, "docs/providers/%s lacks its generated field tables" % name)
                    self.assertEqual(found[0][0], pid)
                    self.assertEqual(found[0][1], p.stdout,
                                     "docs/providers/%s differs from `migratorctl provider fields %s`: paste its "
                                     "output between the markers" % (name, pid))
                    written += 1
                else:
                    self.assertIn("not written yet", p.stderr)
                    self.assertEqual(found, [])
        self.assertGreaterEqual(written, 1)
        p = run([self.stack.ctl_path, "provider", "fields", "nosuch"])
        self.assertEqual((p.returncode, p.stderr.strip()), (1, "migratorctl: no provider nosuch"))


class TestStatements(ApiTestCase):

    def test_every_statement_prepares_against_the_migrated_schema(self):
        """The programs prepare a statement when they first use it: one that names a column, a
        table or an index (FORCE INDEX, docs/runner.md "Named indexes") the migrations do not
        make fails only then, in a job that may be rare (a revert of invoices, say). Each of
        src/db/*.def prepares here on the suite's migrated database, by the server itself."""
        stmts = list(harness.sql_statements().items())
        self.assertGreater(len(stmts), 250)
        script = "".join("PREPARE s FROM %s;\n" % harness.q(sql) for _, sql in stmts)
        p = subprocess.run(["mariadb", "--no-defaults", "-uroot", "--socket=" + self.stack.sock, "--force",
                            "--silent", "migrator"], input=script, capture_output=True, text=True)
        failed = [(stmts[int(m.group(1)) - 1][0], line) for line in p.stderr.splitlines()
                  for m in [re.search(r"^ERROR \d+ \(\w+\) at line (\d+): ", line)] if m]
        self.assertEqual((p.returncode, failed), (0, []), p.stderr[-2000:])


class TestSuiteWithoutServers(ApiTestCase):

    def test_integration_suite_skips_with_77_and_says_why(self):
        bin_dir = os.path.join(self.stack.tmp, "bare-bin")
        os.makedirs(bin_dir, exist_ok=True)
        for prog in ("python3", "dirname"):
            dst = os.path.join(bin_dir, prog)
            if not os.path.exists(dst):
                os.symlink(shutil.which(prog), dst)
        script = os.path.join(harness.SRCDIR, "tests", "integration", "run.sh")
        env = {"PATH": bin_dir}
        r = run(["/bin/sh", script], env=env)
        self.assertEqual(r.returncode, 77, r.stderr)
        self.assertIn("integration suite skipped: mariadbd not found", r.stderr)
        r = run(["/bin/sh", script], env=dict(env, MIGRATOR_IT_REQUIRED="1"))
        self.assertEqual(r.returncode, 1, r.stderr)
