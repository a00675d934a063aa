#!/bin/bash
# Memory of ONE long-lived migrator.fcgi process: 1,000,000 requests (a mix of
# GET /me, the run list, a run's detail, a 422 and a 404) through lighttpd
# with max-procs 1, resident memory (RSS) read before and after a warm-up of
# 20,000 requests and again at the end. The growth after the warm-up must stay
# under 1 MB (1024 KiB); exit 1 when it does not.
#   bench/leak.sh [REQUESTS]  (default 1000000)
#   MIGRATOR_BUILDDIR=DIR     use that build instead of building build/
set -euo pipefail
total=${1:-1000000}
warm=20000
. "$(dirname "$0")/stack.sh"
bench_build
bench_start 1 18998
auth="Authorization: Bearer $tok"
paths=(/api/v1/me /api/v1/migrations "/api/v1/migrations/$small"
	"/api/v1/migrations?per_page=0" /api/v1/migrations/00000000-0000-4000-8000-00000000ffff)
want=(200 200 200 422 404)
for i in "${!paths[@]}"; do
	got=$(curl -s -o /dev/null -w '%{http_code}' "$url${paths[$i]}" -H "$auth")
	[ "$got" = "${want[$i]}" ] || { echo "bench/leak: ${paths[$i]} answered $got, not ${want[$i]}" >&2; exit 1; }
done
{
	echo 'local paths = {'
	printf '  "%s",\n' "${paths[@]}"
	echo '}'
	cat <<'LUA'
-- Each thread sends max requests, then stops and notes it in the file
-- args[2]; wrk itself only stops on time or SIGINT.
local i, n, max, note = 0, 0, 0, nil
function init(args) max = tonumber(args[1]); note = args[2] end
function request()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
function response(status, headers, body)
  n = n + 1
  if n == max then
    local f = io.open(note, "a"); f:write("done\n"); f:close()
    wrk.thread:stop()
  end
end
LUA
} >"$t/mix.lua"

# Send n requests (2 threads x n/2) of the mix; prints how many were answered.
drive() {
	local note="$t/done.$1" w
	: >"$note"
	wrk -t2 -c8 -d24h --timeout 10s -H "$auth" -s "$t/mix.lua" "$url/" -- $(($1 / 2)) "$note" >"$t/wrk.out" &
	w=$!
	while [ "$(wc -l <"$note")" -lt 2 ]; do
		kill -0 "$w" 2>/dev/null || { cat "$t/wrk.out" >&2; exit 1; }
		sleep 0.5
	done
	kill -INT "$w"
	wait "$w" || true
	awk '/requests in/ {print $1}' "$t/wrk.out"
}
fcgi_pid() { ps --ppid "$lpid" -o pid=,comm= | awk '$2 == "migrator.fcgi" {print $1}'; }
pid=$(fcgi_pid)
rss() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status"; }
rss0=$(rss)
echo "migrator.fcgi pid $pid; warming up with $warm requests..."
drive "$warm" >/dev/null
rss1=$(rss)
echo "sending $total requests..."
start=$(date +%s)
sent=$(drive "$total")
secs=$(($(date +%s) - start))
rss2=$(rss)
[ "$(fcgi_pid)" = "$pid" ] || { echo "bench/leak: migrator.fcgi was restarted" >&2; exit 1; }
growth=$((rss2 - rss1))
printf 'requests: %d in %d s (one migrator.fcgi process)\n' "$sent" "$secs"
printf 'RSS: %d KiB at start, %d KiB after warm-up, %d KiB after the run: growth %d KiB (limit 1024) %s\n' \
	"$rss0" "$rss1" "$rss2" "$growth" "$([ "$growth" -lt 1024 ] && echo pass || echo FAIL)"
[ "$growth" -lt 1024 ]
