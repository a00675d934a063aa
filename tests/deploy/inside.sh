#!/bin/sh
# The deploy-docs check, inside the clean root (tests/deploy/run.sh sets it up
# and explains it). Runs docs/deploy.md's marked blocks literally.
set -eu
d=/tmp/deploy
host=http://127.0.0.1
say() { echo "deploy: $*"; }
fail() {
	echo "deploy: FAIL: $*" >&2
	for f in /var/log/apache2/error.log /var/log/lighttpd/error.log "$d/syslog"; do
		[ -s "$f" ] && { echo "---- $f" >&2; tail -30 "$f" >&2; }
	done
	exit 1
}

step="the root's setup"
trap 'rc=$?; [ $rc -eq 0 ] || echo "deploy: FAIL: exit status $rc in $step" >&2' EXIT

# block NAME: the ```sh block after <!-- deploy-check: NAME --> in docs/deploy.md
block() {
	awk -v name="$1" '
		$0 == "<!-- deploy-check: " name " -->" { want = 1; next }
		want == 1 && /^```sh$/ { want = 2; next }
		want == 2 && /^```$/ { exit }
		want == 2 { print }' "$d/deploy.md"
}
# run NAME: run that block in this shell (its variables stay set), showing it
# as written (no `set -x`: it would print the password and the token)
run() {
	text=$(block "$1")
	[ -n "$text" ] || fail "docs/deploy.md has no block <!-- deploy-check: $1 -->"
	say "docs/deploy.md block '$1':"
	printf '%s\n' "$text" | sed 's/^/    /'
	step="docs/deploy.md block '$1'"
	eval "$text"
	step="the checks after block '$1'"
}

# -- the root is clean: no trace of migrator before the package
getent passwd migrator >/dev/null && fail "this root already has a user migrator"
[ -e /etc/migrator ] && fail "this root already has /etc/migrator"
command -v migratorctl >/dev/null && fail "this root already has migratorctl"

# -- what a booted Debian machine would have: a service manager stand-in,
# syslog (the cron line pipes to logger), MariaDB running
cat >/usr/local/sbin/systemctl <<'SHIM'
#!/bin/sh
# tests/deploy: no service manager in this root; the package's init script instead
case ${1:-} in
start|stop|restart|reload) exec service "$2" "$1" ;;
*) echo "systemctl stand-in: only start|stop|restart|reload NAME" >&2; exit 1 ;;
esac
SHIM
chmod 0755 /usr/local/sbin/systemctl
python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("/dev/log")
os.chmod("/dev/log", 0o666)
with open(sys.argv[1], "ab", buffering=0) as f:
    while True:
        f.write(s.recv(65536) + b"\n")
' "$d/syslog" &
service mariadb start >/dev/null || fail "mariadb did not start"

# -- the package (apt-get must find every dependency installed: no prompt, no download)
cd "$d"
run package </dev/null
id migrator || fail "the package created no user migrator"

# -- first-time setup
run setup
[ -n "${TOKEN:-}" ] || fail "the setup block left no \$TOKEN"
case $TOKEN in *"|"*) ;; *) fail "\$TOKEN does not look like a token" ;; esac

# -- the one change the docs do not make: the provider lives on this machine
python3 "$d/fakes/fakeprov.py" --demo --port 0 --port-file "$d/fake.port" >"$d/fake.log" 2>&1 &
i=0
while [ ! -s "$d/fake.port" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "fake provider did not start: $(cat "$d/fake.log")"
	sleep 0.1
done
sed -i "s|^;base_url = https://api.uptimerobot.com|base_url = http://127.0.0.1:$(cat "$d/fake.port")/uptimerobot|" \
	/etc/migrator/migrator.conf
grep -q "^base_url = http://127.0.0.1" /etc/migrator/migrator.conf || fail "no [provider.uptimerobot] base_url to point"
# the fake provider is plain http on loopback
sed -i 's/^allow_http_urls = false/allow_http_urls = true/; s/^allow_private_urls = false/allow_private_urls = true/' \
	/etc/migrator/migrator.conf

# call URL [curl args]: print the body; fail unless the status is 2xx
call() {
	url=$1
	shift
	code=$(curl -sS -o "$d/body" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "$@" "$host$url") ||
		fail "curl $url failed"
	case $code in 2??) ;; *) fail "$url answered $code: $(cat "$d/body")" ;; esac
	cat "$d/body"
}
# api_checks SERVER: the doc's check block (its host replaced), then the module through SERVER
api_checks() {
	say "checks through $1"
	text=$(block check | sed "s|https://panel.example.com|$host|g")
	printf '%s\n' "$text" | sed 's/^/    /'
	eval "$text" >"$d/check.out" || fail "the doc's check block failed through $1"
	grep -q '"email": *"admin@example.com"' "$d/check.out" || fail "GET /api/v1/me through $1: $(cat "$d/check.out")"
	call /api/v1/migrations | grep -q '"data"' || fail "GET /api/v1/migrations through $1"
	curl -sS -D "$d/headers" -o "$d/page" "$host/migrator/" || fail "GET /migrator/ through $1"
	grep -q '^HTTP/1.1 200' "$d/headers" || fail "review page through $1: $(head -1 "$d/headers")"
	grep -qi '^Content-Security-Policy:' "$d/headers" || fail "review page through $1 has no Content-Security-Policy"
	grep -q '<html' "$d/page" || fail "review page through $1 is not the page"
	# a run started: migrator.fcgi (www-data) seals the credentials with the key file
	run_id=$(call /api/v1/migrations -X POST -H 'Content-Type: application/json' \
		-d '{"provider":"uptimerobot","credentials":{"api_key":"demo-key"}}' |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])') ||
		fail "POST /api/v1/migrations through $1"
	say "started run $run_id through $1"
	runs="$runs $run_id"
}
runs=""

# -- Apache with mod_fcgid
run apache-fcgid
api_checks "Apache (mod_fcgid)"

# -- Apache with mod_proxy_fcgi, the processes kept by spawn-fcgi
run spawn-fcgi
run apache-proxy-fcgi
api_checks "Apache (mod_proxy_fcgi, spawn-fcgi)"
service apache2 stop >/dev/null

# -- lighttpd (port 80 again: an operator picks one of the two)
run lighttpd
api_checks "lighttpd"

# -- the runner: cron reads /etc/cron.d/migrator and starts it as user migrator;
# it must carry every run through discovery (opening the credentials with the key)
service cron start >/dev/null || fail "cron did not start"
say "waiting for cron's next minute and the runner's discovery of runs$runs"
i=0
for run_id in $runs; do
	while :; do
		status=$(call "/api/v1/migrations/$run_id" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["status"])')
		case $status in
		awaiting_review) break ;;
		failed | cancelled) fail "run $run_id $status: $(call "/api/v1/migrations/$run_id/logs")" ;;
		esac
		i=$((i + 1))
		[ $i -lt 150 ] || fail "run $run_id still $status after 150 s (cron or the runner did not run)"
		sleep 1
	done
	call "/api/v1/migrations/$run_id" | python3 -c '
import json, sys
d = json.load(sys.stdin)["data"]
print("deploy: run %s %s, discovered %s" % (d["id"], d["status"], json.dumps(d["stats"].get("discovered"))))'
done
# cron's own line: it ran the installed cron file's command as user migrator
grep -F '(migrator) CMD (/usr/libexec/migrator/migrator-runner-cron' "$d/syslog" ||
	fail "cron did not run /etc/cron.d/migrator's command as user migrator"
say "OK"
