#!/bin/bash
# Throughput of migrator.fcgi's read paths against a baseline measured in the
# same run: bench/bare.c (libfcgi, one prepared primary-key SELECT, no auth).
# lighttpd with 2 FastCGI processes each, a private MariaDB, wrk with 2
# threads and 32 connections over loopback. Every round measures the baseline
# and then each endpoint; the table shows each round's ratio, the median ratio
# against the target, and p99 latency of /me. Exit 1 when a target is missed.
#   bench/api.sh [SECONDS]   (default 10 per measurement; BENCH_ROUNDS, default 3)
#   MIGRATOR_BUILDDIR=DIR    use that build instead of building build/
set -euo pipefail
secs=${1:-10}
rounds=${BENCH_ROUNDS:-3}
. "$(dirname "$0")/stack.sh"
bench_build
bench_start 2 18999

cat >"$t/mcp.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"migration-get","arguments":{"id":"$big"}}}'
LUA
auth="Authorization: Bearer $tok"
# name | path | target ratio (0: the baseline itself)
endpoints=(
	"baseline|/bare|0"
	"GET /api/v1/me|/api/v1/me|0.60"
	"GET /api/v1/migrations (20 runs)|/api/v1/migrations|0.40"
	"GET /api/v1/migrations/{run} (500 resources)|/api/v1/migrations/$big|0.15"
	"GET .../resources?per_page=100|/api/v1/migrations/$big/resources?per_page=100|0.30"
	"POST /mcp tools/call migration-get (500)|/mcp|0.15"
)

# One wrk run; prints "req/s p99_ms". Fails on any non-2xx answer or socket error.
measure() { # path
	local args=(-t2 -c32 -d"${secs}s" --latency) out
	[ "$1" = /bare ] || args+=(-H "$auth")
	[ "$1" = /mcp ] && args+=(-s "$t/mcp.lua")
	out=$(wrk "${args[@]}" "$url$1")
	if grep -qE 'Non-2xx|Socket errors' <<<"$out"; then
		echo "bench/api: $1 answered errors under load:" >&2
		echo "$out" >&2
		exit 1
	fi
	awk '/Requests\/sec/ {r = $2}
	     $1 == "99%" {v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
	                  p = (u == "us") ? v / 1000 : (u == "s") ? v * 1000 : v}
	     END {printf "%s %.2f\n", r, p}' <<<"$out"
}

for e in "${endpoints[@]}"; do # check every answer once before timing anything
	IFS='|' read -r name path _ <<<"$e"
	if [ "$path" = /mcp ]; then
		body=$(curl -sf "$url$path" -H "$auth" -H 'Content-Type: application/json' \
			--data-binary "$(sed -n "s/^wrk.body = '\(.*\)'$/\1/p" "$t/mcp.lua")")
		grep -q '"structuredContent"' <<<"$body" && ! grep -q '"isError":true' <<<"$body" ||
			{ echo "bench/api: $name: $body" >&2; exit 1; }
	else
		curl -sf "$url$path" -H "$auth" >/dev/null || { echo "bench/api: $name failed" >&2; exit 1; }
	fi
done
echo "warming up..."
wrk -t2 -c16 -d2s "$url/bare" >/dev/null
wrk -t2 -c16 -d2s -H "$auth" "$url/api/v1/migrations/$big" >/dev/null

res="$t/results"
: >"$res"
for round in $(seq "$rounds"); do
	echo "round $round of $rounds..."
	for i in "${!endpoints[@]}"; do
		IFS='|' read -r _ path _ <<<"${endpoints[$i]}"
		echo "$round $i $(measure "$path")" >>"$res"
	done
done

printf '%s\n' "${endpoints[@]}" | awk -F'|' -v res="$res" -v rounds="$rounds" -v secs="$secs" '
function median(a, n,   i, j, x) { # sorts a[1..n] in place
	for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ name[NR - 1] = $1; target[NR - 1] = $3; n = NR }
END {
	while ((getline line < res) > 0) { split(line, f, " "); rps[f[1], f[2]] = f[3]; p99[f[1], f[2]] = f[4] }
	printf "wrk -t2 -c32, %d s per measurement, %d rounds; ratio = req/s of the endpoint / req/s of the\n", secs, rounds
	printf "baseline in the same round (bench/bare.c: one prepared PK SELECT, no auth, 2 processes).\n\n"
	printf "req/s and p99 (ms) are medians over the rounds.\n\n"
	printf "%-46s %7s %7s %-20s %6s %7s %s\n", "endpoint", "req/s", "p99", "ratio per round", "median", "target", "result"
	fail = 0
	for (i = 0; i < n; i++) {
		list = ""
		for (r = 1; r <= rounds; r++) {
			q[r] = rps[r, i]; ratio[r] = rps[r, i] / rps[r, 0]; lat[r] = p99[r, i]
			list = list sprintf("%s%.2f", r > 1 ? " " : "", ratio[r])
		}
		med = median(ratio, rounds); mr = median(q, rounds); ml = median(lat, rounds)
		if (target[i] == 0) { printf "%-46s %7.0f %7.2f %-20s %6s %7s %s\n", name[i], mr, ml, list, "1.00", "", ""; continue }
		ok = med >= target[i]; fail += !ok
		printf "%-46s %7.0f %7.2f %-20s %6.2f %7s %s\n", name[i], mr, ml, list, med, ">= " target[i], ok ? "pass" : "FAIL"
	}
	list = ""
	for (r = 1; r <= rounds; r++) { lat[r] = p99[r, 1]; list = list sprintf("%s%.2f", r > 1 ? " " : "", lat[r]) }
	med = median(lat, rounds); ok = med < 10; fail += !ok
	printf "%-46s %7s %7s %-20s %6.2f %7s %s\n", "p99 latency of GET /api/v1/me (ms)", "", "", list, med, "< 10", ok ? "pass" : "FAIL"
	exit fail > 0
}'
