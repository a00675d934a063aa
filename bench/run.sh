#!/bin/bash
# Throughput and memory of migrator.fcgi against a baseline measured in the
# same run (bench/bare.c: one PK SELECT, no auth), on a private MariaDB and
# lighttpd, loaded with wrk over loopback. Prints ratios, not absolute
# numbers you should compare across machines.
#   bench/run.sh [SECONDS]      (default 10 per measurement)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-10}
"$top/scripts/install-deps.sh"
command -v wrk >/dev/null || { apt-get install -y -q wrk >/dev/null; }
"$top/scripts/build.sh" "$top/build"
make -C "$top/build" -s bench/bare.fcgi

t=$(mktemp -d /tmp/migrator-bench.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	[ -f "$t/mysqld.pid" ] && kill "$(cat "$t/mysqld.pid")" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$t"
}
trap cleanup EXIT

mariadb-install-db --no-defaults --user=root --datadir="$t/data" --auth-root-authentication-method=normal \
	--skip-test-db >"$t/install.log" 2>&1
mariadbd --no-defaults --user=root --datadir="$t/data" --socket="$t/my.sock" --skip-networking \
	--pid-file="$t/mysqld.pid" --log-error="$t/mysqld.err" --innodb-buffer-pool-size=256M &
for _ in $(seq 100); do mariadb --no-defaults -uroot --socket="$t/my.sock" -e 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
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
b="$top/build"
"$b/migratorctl" keygen --out "$t/key" >/dev/null
"$b/migratorctl" db migrate --sql-dir "$top/sql" >/dev/null
uid=$("$b/migratorctl" user add --name Bench --email bench@example.com)
[ -n "${BENCH_SQL:-}" ] && mariadb --no-defaults -uroot --socket="$t/my.sock" migrator -e "$BENCH_SQL"
tok=$("$b/migratorctl" token create --user "$uid" --name bench --scopes account:read,account:write)

cat >"$t/lighttpd.conf" <<CONF
server.port = 18999
server.bind = "127.0.0.1"
server.document-root = "$t"
server.errorlog = "$t/lighttpd.err"
server.modules = ("mod_fastcgi")
server.max-connections = 1024
fastcgi.server = (
  "/bare" => (( "bin-path" => "$b/bench/bare.fcgi", "socket" => "$t/bare.sock", "check-local" => "disable",
                "max-procs" => 2, "bin-environment" => ("BENCH_DB_SOCKET" => "$t/my.sock") )),
  "/api/v1" => (( "bin-path" => "$b/migrator.fcgi", "socket" => "$t/m.sock", "check-local" => "disable",
                  "max-procs" => 2, "bin-environment" => ("MIGRATOR_CONFIG" => "$t/m.conf") ))
)
CONF
lighttpd -D -f "$t/lighttpd.conf" &
lpid=$!
pids+=($lpid)
sleep 1
curl -sf http://127.0.0.1:18999/bare >/dev/null
curl -sf http://127.0.0.1:18999/api/v1/me -H "Authorization: Bearer $tok" >/dev/null

rps() { # url [header]
	wrk -t2 -c32 -d"${secs}s" ${2:+-H "$2"} "$1" | awk '/Requests\/sec/ {print $2}'
}
# RSS of this lighttpd's migrator.fcgi children only (other stacks may run beside).
rss_kb() { ps --ppid "$lpid" -o rss=,comm= | awk '$2 == "migrator.fcgi" {s+=$1} END {print s+0}'; }

echo "warming up..."
wrk -t2 -c16 -d2s http://127.0.0.1:18999/bare >/dev/null
wrk -t2 -c16 -d2s -H "Authorization: Bearer $tok" http://127.0.0.1:18999/api/v1/me >/dev/null
rss0=$(rss_kb)
base=$(rps http://127.0.0.1:18999/bare)
me=$(rps http://127.0.0.1:18999/api/v1/me "Authorization: Bearer $tok")
rss1=$(rss_kb)
list=$(rps "http://127.0.0.1:18999/api/v1/migrations" "Authorization: Bearer $tok")
rss2=$(rss_kb)

awk -v b="$base" -v m="$me" -v l="$list" -v r0="$rss0" -v r1="$rss1" -v r2="$rss2" 'BEGIN {
	printf "baseline (bare FastCGI, one PK SELECT):  %8.0f req/s  (1.00)\n", b
	printf "GET /api/v1/me (token + rate limit):     %8.0f req/s  (%.2f of baseline; target >= 0.60)\n", m, m / b
	printf "GET /api/v1/migrations (empty list):     %8.0f req/s  (%.2f of baseline)\n", l, l / b
	printf "migrator.fcgi RSS, 2 processes: %d KiB after warm-up, %d KiB after /me load, %d KiB after list load\n", r0, r1, r2
}'
