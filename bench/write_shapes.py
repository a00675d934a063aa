"""bench/write_shapes (issue 28 item 3): what each way of writing an import's rows costs the same
MariaDB, against the baseline of bench/runner.sh measured in the same run. Every shape writes N rows,
500 to a durable transaction, from a script through the mariadb client on the server's socket, so
the runner's own work is left out: these are the server's costs alone.

  baseline         the account's monitors as single-row INSERTs (bench/runner.sh's baseline)
  monitors x500    the same monitors as the import inserts a batch's new ones: 500 rows to one
                   INSERT ... SELECT FROM JSON_TABLE (ST_ACC_MONITOR_INSERT_ROWS), one a transaction
  record, wide     the import's record of its resources, ST_RN_RES_IMPORTED_ROWS as the runner
                   sends it (read from src/db/sql_runner.def), on resources as wide as a discovered
                   run's were before sql/021 (the provider's data, the normalized data and the
                   dropped ledger inline)
  record, narrow   the same statement on the same rows without their data (as built: sql/021 keeps
                   it in a table of its own)
  status in place  a design not built: the wide rows' status alone in a fixed-width column (an
                   update in place), the rest of the record inserted into a narrow table of its own
  links            the import links of a batch, ST_RN_LINK_UPSERT_ROWS
  contact links    the monitors' alert contacts, ST_ACC_MONITOR_CONTACT_ROWS, 1.25 a monitor (as
                   bench/runner.sh's accounts have them)

Then what the import's writes for one resource cost together (one of each, 1.25 contact links),
as built and as the designs above would make them: the most the import could reach against the
baseline if it did nothing else.

The resources of the three record shapes are copies of migration_run_resources (CREATE TABLE ... LIKE:
the same indexes), filled before the clock starts."""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import runner_scale as rs  # noqa: E402

TX = rs.BASELINE_TX
# The sizes of a discovered UptimeRobot monitor's columns (bench/runner.sh's accounts, stop 37):
# the provider's data, the normalized data, the dropped ledger, in bytes.
WIDE = (576, 723, 133)


def statement(name):
    """A statement of src/db/*.def as the runner prepares it (its macros expanded)."""
    sql = harness.sql_statements().get(name)
    assert sql, "no statement %s in src/db/*.def" % name
    return sql


def literal(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def bind(sql, *values):
    """sql with its placeholders replaced by values in order (numbers as they are, text quoted)."""
    parts = sql.split("?")
    assert len(parts) == len(values) + 1, sql
    return parts[0] + "".join((str(v) if isinstance(v, int) else literal(v)) + p for v, p in zip(values, parts[1:]))


def batches_script(path, sql, batches):
    """One durable transaction a batch: sql bound to each batch's values."""
    with open(path, "w") as f:
        for values in batches:
            f.write("START TRANSACTION;\n%s;\nCOMMIT;\n" % bind(sql, *values))


def run_script(st, path, n):
    t = time.monotonic()
    with open(path) as f:
        rs.mariadb(st, stdin=f, stdout=subprocess.DEVNULL)  # the ids the monitors' INSERT returns
    return n / (time.monotonic() - t)


def fill(st, table, n, wide):
    """n pending resources of one run, with their data inline as before sql/021 (wide) or without
    it; their ids."""
    st.sql("CREATE TABLE %s LIKE migration_run_resources" % table)
    cols, data = "", ""
    if wide:
        st.sql("ALTER TABLE %s ADD COLUMN external_data LONGTEXT NULL, ADD COLUMN normalized_data LONGTEXT NULL,"
               " ADD COLUMN dropped JSON NULL" % table)
        cols = " external_data, normalized_data, dropped,"
        data = (" REPEAT('e', %d), REPEAT('n', %d), CONCAT('[', REPEAT('\"d\",', %d), '\"d\"]'),"
                % (WIDE[0], WIDE[1], (WIDE[2] - 5) // 4))
    st.sql("INSERT INTO %s (run_id, resource_type, external_id, name, status, action,%s created_at, updated_at)"
           " SELECT 'shape', 'monitor', seq, CONCAT('Monitor ', seq), 'pending', 'create',%s UTC_TIMESTAMP(6),"
           " UTC_TIMESTAMP(6) FROM seq_1_to_%d" % (table, cols, data, n))
    return [int(x) for (x,) in st.sql("SELECT id FROM %s ORDER BY id" % table)]


def record_rows(ids):
    """The runner's rows of ST_RN_RES_IMPORTED_ROWS for created monitors: [id, model, target,
    written, image before, link before, after hash]."""
    return [[i, "monitor", i, "created", None, None, hashlib.sha256(b"%d" % i).hexdigest()] for i in ids]


def record_script(st, path, table, ids):
    batches_script(path, statement("ST_RN_RES_IMPORTED_ROWS").replace("migration_run_resources", table),
                   ((json.dumps(record_rows(ids[k:k + TX])),) for k in range(0, len(ids), TX)))


def links_script(path, user, ids):
    """The links of created monitors ids, as the import writes them for user."""
    batches_script(path, statement("ST_RN_LINK_UPSERT_ROWS"),
                   ((user, "uptimerobot", "shape", json.dumps([["monitor", "m%d" % i, "monitor", i] for i in ids[k:k + TX]]))
                    for k in range(0, len(ids), TX)))


def contacts_script(st, path, user, ids):
    """1.25 contact links a monitor of ids (to user's 5 contacts), TX monitors a transaction; their number."""
    for c in range(5):
        st.sql("INSERT INTO contacts (user_id, name, type, value, created_at, updated_at) VALUES (%d, 'c%d',"
               " 'email', 'c%d@example.test', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))" % (user, c, c))
    cs = [int(x) for (x,) in st.sql("SELECT id FROM contacts WHERE user_id = %d ORDER BY id" % user)]
    rows = [[[i, cs[i % 5], None, None]] + ([[i, cs[(i + 1) % 5], 300, None]] if i % 4 == 0 else []) for i in ids]
    batches_script(path, statement("ST_ACC_MONITOR_CONTACT_ROWS"),
                   ((json.dumps([r for m in rows[k:k + TX] for r in m]),) for k in range(0, len(ids), TX)))
    return sum(len(m) for m in rows)


def in_place_script(st, path, table, ids):
    st.sql("ALTER TABLE %s MODIFY status CHAR(8) CHARACTER SET ascii NOT NULL DEFAULT 'pending'" % table)
    st.sql("CREATE TABLE %s_record (run_id CHAR(36) CHARACTER SET ascii NOT NULL, resource_id BIGINT UNSIGNED"
           " NOT NULL, target_model VARCHAR(64) CHARACTER SET ascii, target_id BIGINT UNSIGNED, written"
           " VARCHAR(8) CHARACTER SET ascii, written_at DATETIME(6), after_hash CHAR(64) CHARACTER SET ascii,"
           " PRIMARY KEY (run_id, resource_id))" % table)
    cols = ("id BIGINT UNSIGNED PATH '$[0]', model VARCHAR(64) CHARACTER SET ascii PATH '$[1]', target BIGINT"
            " UNSIGNED PATH '$[2]', written VARCHAR(8) CHARACTER SET ascii PATH '$[3]', after_hash CHAR(64)"
            " CHARACTER SET ascii PATH '$[6]'")
    with open(path, "w") as f:
        for k in range(0, len(ids), TX):
            js = literal(json.dumps(record_rows(ids[k:k + TX])))
            f.write("START TRANSACTION;\nUPDATE %s r JOIN JSON_TABLE(%s, '$[*]' COLUMNS (%s)) j ON r.id = j.id"
                    " SET r.status = 'imported', r.attempts = r.attempts + 1, r.updated_at = UTC_TIMESTAMP(6)"
                    " WHERE r.status = 'pending';\n" % (table, js, cols))
            f.write("INSERT INTO %s_record SELECT 'shape', j.id, j.model, j.target, j.written, UTC_TIMESTAMP(6),"
                    " j.after_hash FROM JSON_TABLE(%s, '$[*]' COLUMNS (%s)) j;\nCOMMIT;\n" % (table, js, cols))


def monitors_rows_script(st, path, user_from, user_to):
    """user_from's monitors again for user_to as the import inserts a batch's new monitors:
    ST_ACC_MONITOR_INSERT_ROWS, TX rows (its JSON array, 31 values a row) to one statement."""
    rows = [[name, kind, url, interval, paused, None, keyword] + [None] * 24 for name, kind, url, interval, paused, keyword
            in st.sql("SELECT name, type, url, interval_s, paused, keyword FROM monitors WHERE user_id = %d ORDER BY id"
                      % user_from)]
    for r in rows:
        r[3], r[4] = int(r[3]), int(r[4])
    batches_script(path, statement("ST_ACC_MONITOR_INSERT_ROWS"),
                   ((user_to, json.dumps(rows[k:k + TX])) for k in range(0, len(rows), TX)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="?", default=100000)
    n = ap.parse_args().n
    with harness.Stack(fakes=False, keep=False, mysqld_args=rs.DURABLE) as st:
        src, b1, b2 = (st.new_user(scopes=["account:read"]).id for _ in range(3))
        st.sql("INSERT INTO monitors (user_id, name, type, url, interval_s, paused, keyword, created_at,"
               " updated_at) SELECT %d, CONCAT('Monitor ', seq), 'http', CONCAT('https://example.com/m/', seq),"
               " 300, 0, IF(seq %% 5 = 0, 'ok', NULL), UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM seq_1_to_%d"
               % (src, n))
        single, _ = rs.baseline_script(st, src, b1)
        multi = os.path.join(st.tmp, "multi.sql")
        monitors_rows_script(st, multi, src, b2)
        scripts = []
        for table, wide, make in (("shape_wide", True, record_script), ("shape_narrow", False, record_script),
                                  ("shape_in_place", True, in_place_script)):
            path = os.path.join(st.tmp, table + ".sql")
            make(st, path, table, fill(st, table, n, wide))
            scripts.append(path)
        print("bench/write_shapes: %d rows, %d to a durable transaction, through the mariadb client; %d CPUs,"
              " load average %.2f" % (n, TX, os.cpu_count(), os.getloadavg()[0]))
        base = run_script(st, single, n)
        ids = [int(x) for (x,) in st.sql("SELECT id FROM monitors WHERE user_id = %d ORDER BY id" % b1)]
        links = os.path.join(st.tmp, "links.sql")
        links_script(links, b1, ids)
        contacts = os.path.join(st.tmp, "contacts.sql")
        ncontacts = contacts_script(st, contacts, b1, ids)
        shapes = (("multi", "monitors, %d-row INSERTs" % TX, multi, n),
                  ("wide", "the import's record, wide resources (before sql/021)", scripts[0], n),
                  ("narrow", "the import's record, resources without their data", scripts[1], n),
                  ("in_place", "status in place + record in a table of its own", scripts[2], n),
                  ("links", "links", links, n),
                  ("contacts", "contact links", contacts, ncontacts))
        print("  %-50s %9.0f rows/s   1.00" % ("baseline: monitors, single-row INSERTs", base))
        rate = {"single": base}
        for key, label, path, rows in shapes:
            rate[key] = run_script(st, path, rows)
            print("  %-50s %9.0f rows/s   %.2f" % (label, rate[key], rate[key] / base))
        # A resource's writes together: its monitor, its record, its link, 1.25 contact links.
        per = ncontacts / n
        for label, monitor, record in (("as built (%d-row INSERTs, narrow record)" % TX, "multi", "narrow"),
                                       ("before sql/021 (wide record)", "multi", "wide"),
                                       ("%d-row INSERTs, status in place" % TX, "multi", "in_place")):
            whole = 1 / (1 / rate[monitor] + 1 / rate[record] + 1 / rate["links"] + per / rate["contacts"])
            print("  the import's writes a resource, %-41s %6.0f/s   %.2f" % (label, whole, whole / base))
        # Every shape wrote every row: the counts the statements above left behind.
        got = (st.sql_value("SELECT COUNT(*) FROM monitors WHERE user_id = %d" % b2),
               st.sql_value("SELECT COUNT(*) FROM shape_wide WHERE status = 'imported' AND after_hash IS NOT NULL"),
               st.sql_value("SELECT COUNT(*) FROM shape_narrow WHERE status = 'imported' AND after_hash IS NOT NULL"),
               st.sql_value("SELECT COUNT(*) FROM shape_in_place_record"),
               st.sql_value("SELECT COUNT(*) FROM import_links WHERE user_id = %d" % b1))
        linked = int(st.sql_value("SELECT COUNT(*) FROM monitor_contacts mc JOIN monitors m ON m.id = mc.monitor_id"
                                  " WHERE m.user_id = %d" % b1))
        if any(int(g) != n for g in got) or linked != ncontacts:
            sys.exit("bench/write_shapes: rows written %s and %d contact links, expected %d each and %d"
                     % (got, linked, n, ncontacts))


if __name__ == "__main__":
    main()
