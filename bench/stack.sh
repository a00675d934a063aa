# Sourced by bench/api.sh and bench/leak.sh: a private MariaDB, the schema,
# one user with a token and a data set, and lighttpd serving bench/bare.fcgi
# at /bare and migrator.fcgi (one pool) at every other path. Everything lives in $t and
# stops when the sourcing script exits.
#   bench_build                 build (or reuse $MIGRATOR_BUILDDIR), sets $b
#   bench_start NPROCS PORT     start it all with NPROCS FastCGI processes each
# After bench_start: $tok (token), $url (http://127.0.0.1:PORT), $big (the run
# with 500 resources), $small (a run with 20), $lpid (lighttpd).
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
t=$(mktemp -d /tmp/migrator-bench.XXXXXX)
pids=()
bench_cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	[ -f "$t/mysqld.pid" ] && kill "$(cat "$t/mysqld.pid")" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$t"
}
trap bench_cleanup EXIT

bench_build() {
	if [ -n "${MIGRATOR_BUILDDIR:-}" ]; then
		b=$(cd "$MIGRATOR_BUILDDIR" && pwd)
	else
		"$top/scripts/install-deps.sh"
		b="$top/build"
		"$top/scripts/build.sh" "$b"
	fi
	command -v wrk >/dev/null || apt-get install -y -q wrk >/dev/null
	make -C "$b" -s bench/bare.fcgi
}

sqlc() { mariadb --no-defaults -uroot --socket="$t/my.sock" migrator "$@"; }

# 25 runs for the user; $big has 500 resources and 60 log entries, the others
# 20 resources each. Like discovery, the runs are discovering while their
# resources arrive and then awaiting_review, their totals stored as discovery's
# end stores them (RUN_TOTALS_KEEP in src/db/sql_core.def).
bench_data() {
	big=00000000-0000-4000-8000-000000000500
	small=00000000-0000-4000-8000-000000000001
	sqlc <<SQL
INSERT INTO migration_runs (id, user_id, provider, status, stats, options, created_at, updated_at)
 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25)
 SELECT IF(i = 25, '$big', CONCAT('00000000-0000-4000-8000-', LPAD(i, 12, '0'))), $uid, 'uptimerobot',
  'discovering', '{"discovered":{"monitor":20},"planned":{"create":20},"imported":0,"skipped":0,"failed":0,"progress":0}',
  '{"import_paused":false}', UTC_TIMESTAMP(6) - INTERVAL (25 - i) MINUTE, UTC_TIMESTAMP(6) FROM n;
INSERT INTO migration_run_resources (run_id, resource_type, external_id, name, action, status, reason,
  created_at, updated_at)
 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
 SELECT m.id, 'monitor', CONCAT('ext-', n.i), CONCAT('Monitor ', n.i, ' https://example.com/health/', n.i),
  'create', 'pending', 'New: no monitor with this URL.', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6)
 FROM migration_runs m JOIN n ON n.i <= IF(m.id = '$big', 500, 20) WHERE m.user_id = $uid;
INSERT INTO migration_run_logs (run_id, level, message, context, logged_at)
 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
 SELECT '$big', 'info', CONCAT('Discovered page ', i, '.'), '{"page":1}', UTC_TIMESTAMP(6) FROM n;
UPDATE migration_runs m SET m.status = 'awaiting_review',
 m.total_resources = (SELECT COUNT(*) FROM migration_run_resources r WHERE r.run_id = m.id),
 m.failed_resources = (SELECT COUNT(*) FROM migration_run_resources r WHERE r.run_id = m.id AND r.status = 'failed')
 WHERE m.user_id = $uid;
SQL
}

bench_start() {
	local nprocs=$1 port=$2
	mariadb-install-db --no-defaults --user=root --datadir="$t/data" --auth-root-authentication-method=normal \
		--skip-test-db >"$t/install.log" 2>&1
	mariadbd --no-defaults --user=root --datadir="$t/data" --socket="$t/my.sock" --skip-networking \
		--pid-file="$t/mysqld.pid" --log-error="$t/mysqld.err" --innodb-buffer-pool-size=256M &
	for _ in $(seq 100); do
		mariadb --no-defaults -uroot --socket="$t/my.sock" -e 'select 1' >/dev/null 2>&1 && break
		sleep 0.2
	done
	mariadb --no-defaults -uroot --socket="$t/my.sock" -e 'CREATE DATABASE migrator'
	cat >"$t/m.conf" <<CONF
[database]
socket = $t/my.sock
user = root
name = migrator
[security]
key_file = $t/key
[limits]
requests_per_minute = 100000000
[features]
migrator = on
CONF
	export MIGRATOR_CONFIG="$t/m.conf"
	"$b/migratorctl" keygen --out "$t/key" >/dev/null
	"$b/migratorctl" db migrate --sql-dir "$top/sql" >/dev/null
	uid=$("$b/migratorctl" user add --name Bench --email bench@example.com)
	tok=$("$b/migratorctl" token create --user "$uid" --name bench --scopes account:read,account:write,mcp:use)
	bench_data
	cat >"$t/lighttpd.conf" <<CONF
server.port = $port
server.bind = "127.0.0.1"
server.document-root = "$t"
server.errorlog = "$t/lighttpd.err"
server.modules = ("mod_fastcgi")
server.max-connections = 1024
server.stream-response-body = 1
fastcgi.server = (
  "/bare" => (( "bin-path" => "$b/bench/bare.fcgi", "socket" => "$t/bare.sock", "check-local" => "disable",
                "max-procs" => $nprocs, "bin-environment" => ("BENCH_DB_SOCKET" => "$t/my.sock") )),
  "/" => (( "bin-path" => "$b/migrator.fcgi", "socket" => "$t/m.sock", "check-local" => "disable",
             "max-procs" => $nprocs, "bin-environment" => ("MIGRATOR_CONFIG" => "$t/m.conf") ))
)
CONF
	lighttpd -D -f "$t/lighttpd.conf" &
	lpid=$!
	pids+=("$lpid")
	url="http://127.0.0.1:$port"
	for _ in $(seq 50); do curl -sf "$url/bare" >/dev/null 2>&1 && break; sleep 0.2; done
	curl -sf "$url/bare" >/dev/null
	curl -sf "$url/api/v1/me" -H "Authorization: Bearer $tok" >/dev/null
}

# Resident memory (KiB) of this lighttpd's migrator.fcgi children.
bench_rss_kb() { ps --ppid "$lpid" -o rss=,comm= | awk '$2 == "migrator.fcgi" {s += $1} END {print s + 0}'; }
