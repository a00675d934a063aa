#!/bin/bash
# The whole service on this machine (README's first command): a private
# MariaDB under var/, lighttpd on 127.0.0.1:8080 running migrator.fcgi, the
# fake providers with demo accounts on 127.0.0.1:8090, and the runner every
# few seconds in place of cron. Prints a token and curl examples. Ctrl-C (or
# SIGTERM) stops everything it started. State (database, key, token) persists
# in var/.
#   MIGRATOR_PORT       the API's port (default 8080)
#   MIGRATOR_FAKE_PORT  the fake providers' port (default 8090)
#   MIGRATOR_VAR        the state folder (default var/ at the top of the tree)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
var=${MIGRATOR_VAR:-$top/var}
build="$top/build"
port=${MIGRATOR_PORT:-8080}
fake_port=${MIGRATOR_FAKE_PORT:-8090}

# A taken port would leave a half-started service: refuse it before starting anything.
for p in "$port" "$fake_port"; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		echo "dev.sh: port $p on 127.0.0.1 is taken; choose others, e.g. MIGRATOR_PORT=8081 MIGRATOR_FAKE_PORT=8091 $0" >&2
		exit 1
	fi
done

"$top/scripts/install-deps.sh"
echo "building..."
"$top/scripts/build.sh" "$build"
mkdir -p "$var/run" "$var/log"

pids=()
# Each started process and its children (FastCGI processes, a runner pass)
# are stopped, and the wait ends only when they are gone.
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	echo
	echo "stopping..."
	for p in "${pids[@]}"; do
		kids=$(pgrep -P "$p" || true)
		kill "$p" 2>/dev/null || true
		[ -z "$kids" ] || kill $kids 2>/dev/null || true
	done
	[ -f "$var/run/mysqld.pid" ] && kill "$(cat "$var/run/mysqld.pid")" 2>/dev/null || true
	wait 2>/dev/null || true
	exit "$rc"
}
trap cleanup EXIT INT TERM

# --- MariaDB, data under var/mariadb
sock="$var/run/mysqld.sock"
if [ ! -d "$var/mariadb/mysql" ]; then
	echo "initialising MariaDB in var/mariadb..."
	mariadb-install-db --no-defaults --user="$(id -un)" --datadir="$var/mariadb" \
		--auth-root-authentication-method=normal --skip-test-db >"$var/log/mariadb-install.log" 2>&1
fi
mariadbd --no-defaults --user="$(id -un)" --datadir="$var/mariadb" --socket="$sock" \
	--skip-networking --pid-file="$var/run/mysqld.pid" --log-error="$var/log/mariadbd.err" \
	--innodb-buffer-pool-size=128M &
for _ in $(seq 1 100); do
	mariadb --no-defaults -uroot --socket="$sock" -e 'SELECT 1' >/dev/null 2>&1 && break
	sleep 0.2
done
mariadb --no-defaults -uroot --socket="$sock" -e 'CREATE DATABASE IF NOT EXISTS migrator'

# --- fake providers with demo accounts
python3 "$top/tests/fakes/fakeprov.py" --port "$fake_port" --demo >"$var/log/fakeprov.log" 2>&1 &
pids+=($!)

# --- config, key, schema
conf="$var/migrator.conf"
[ -f "$var/credentials.key" ] || "$build/migratorctl" keygen --out "$var/credentials.key" >/dev/null
{
	printf '[database]\nsocket = %s\nuser = root\npassword =\nname = migrator\n\n' "$sock"
	printf '[security]\nkey_file = %s\ncredentials_retention = 3600\n' "$var/credentials.key"
	printf '; the demo providers run on 127.0.0.1 over http\nallow_http_urls = true\nallow_private_urls = true\n\n'
	printf '[runner]\nlease_seconds = 30\n\n[features]\nmigrator = on\n\n'
	# whmcs and healthchecks take their address from the user (credentials url, base_url), as in
	# production: an administrator's base_url here would refuse those fields
	for p in uptimerobot pingdom statuscake better_stack updown cronitor statuspage; do
		printf '[provider.%s]\nbase_url = http://127.0.0.1:%s/%s\ntimeout = 10\n\n' "$p" "$fake_port" "$p"
	done
	printf '[provider.whmcs]\ntimeout = 10\n\n[provider.healthchecks]\ntimeout = 10\n\n'
} >"$conf"
export MIGRATOR_CONFIG="$conf"
"$build/migratorctl" db migrate --sql-dir "$top/sql"

# --- demo user and token (created once)
if [ ! -s "$var/demo-token" ]; then
	uid=$("$build/migratorctl" user add --name "Demo User" --email demo@example.com)
	"$build/migratorctl" flag set migrator on >/dev/null
	"$build/migratorctl" token create --user "$uid" --name demo \
		--scopes monitoring:read,monitoring:write,monitoring:delete,alerting:read,alerting:write,alerting:delete,infra:read,infra:write,infra:delete,account:read,account:write,account:delete,mcp:use \
		>"$var/demo-token"
fi
token=$(cat "$var/demo-token")

# --- lighttpd with migrator.fcgi and the review page (its CSP as the shipped snippet sets it)
csp=$(sed -n 's/.*"Content-Security-Policy" => "\([^"]*\)".*/\1/p' "$top/apache/lighttpd-migrator.conf.in")
cat >"$var/lighttpd.conf" <<CONF
server.port = $port
server.bind = "127.0.0.1"
server.document-root = "$var"
server.errorlog = "$var/log/lighttpd-error.log"
server.pid-file = "$var/run/lighttpd.pid"
server.modules = ("mod_fastcgi", "mod_alias", "mod_setenv", "mod_indexfile")
mimetype.assign = ( ".html" => "text/html; charset=utf-8", ".js" => "text/javascript; charset=utf-8",
                    ".css" => "text/css; charset=utf-8", ".png" => "image/png" )
alias.url = ( "/migrator/" => "$top/web/migrator/" )
\$HTTP["url"] =~ "^/migrator/" {
  index-file.names = ( "index.html" )
  setenv.add-response-header = ( "Content-Security-Policy" => "$csp", "X-Content-Type-Options" => "nosniff" )
}
server.stream-response-body = 1
fastcgi.server = (
  "/api/v1" => (( "bin-path" => "$build/migrator.fcgi", "socket" => "$var/run/fcgi.sock",
                  "check-local" => "disable", "max-procs" => 2,
                  "bin-environment" => ( "MIGRATOR_CONFIG" => "$conf" ) )),
  "/mcp" => (( "bin-path" => "$build/migrator.fcgi", "socket" => "$var/run/fcgi-mcp.sock",
               "check-local" => "disable", "max-procs" => 1,
               "bin-environment" => ( "MIGRATOR_CONFIG" => "$conf" ) ))
)
CONF
lighttpd -D -f "$var/lighttpd.conf" &
pids+=($!)

# --- the runner, every few seconds in place of cron
(
	while :; do
		"$build/migrator-runner" --once >>"$var/log/runner.log" 2>&1 || true
		sleep 3
	done
) &
pids+=($!)

sleep 1
base="http://127.0.0.1:$port"
fake_base="http://127.0.0.1:$fake_port"
cat <<MSG

migrator is running at $base  (logs in var/log/, Ctrl-C stops everything)

  review page: $base/migrator/   (paste the token below)

  export TOKEN='$token'
  curl -s $base/api/v1/me -H "Authorization: Bearer \$TOKEN"
  # start a migration from the demo UptimeRobot account (any of the nine providers works; see tests/fakes/README.md)
  curl -s -X POST $base/api/v1/migrations -H "Authorization: Bearer \$TOKEN" \\
       -H 'Content-Type: application/json' -d '{"provider":"uptimerobot","credentials":{"api_key":"demo-key"}}'
  curl -s $base/api/v1/migrations -H "Authorization: Bearer \$TOKEN"
  curl -s $base/api/v1/migrations/RUN_ID -H "Authorization: Bearer \$TOKEN"            # awaiting_review after discovery
  curl -s -X POST -d '' $base/api/v1/migrations/RUN_ID/execute -H "Authorization: Bearer \$TOKEN"   # -d '': lighttpd wants a Content-Length
  # tool interface (MCP), same token:
  curl -s $base/mcp -H "Authorization: Bearer \$TOKEN" -H 'Content-Type: application/json' \\
       -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
  # WHMCS and self-hosted Healthchecks: the address is a credential (the fakes listen on $fake_base)
  curl -s -X POST $base/api/v1/migrations -H "Authorization: Bearer \$TOKEN" -H 'Content-Type: application/json' \\
       -d '{"provider":"whmcs","credentials":{"url":"$fake_base/whmcs","api_identifier":"demo-id","api_secret":"demo-secret"}}'
  curl -s -X POST $base/api/v1/migrations -H "Authorization: Bearer \$TOKEN" -H 'Content-Type: application/json' \\
       -d '{"provider":"healthchecks","credentials":{"api_key":"demo-key-00000000000000000000000","base_url":"$fake_base/healthchecks"}}'
  # on the review page: WHMCS URL $fake_base/whmcs, Healthchecks address $fake_base/healthchecks
  # other providers' demo credentials: tests/fakes/README.md

MSG
wait
