#!/bin/sh
# The full test suite (README's second command; CI runs exactly this):
# dependencies, a -Werror build with `make check` (unit + integration against
# real MariaDB and lighttpd), then the same suite on an ASan+UBSan build,
# which fails on any sanitizer report.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
# The servers are installed now: a missing one is a failure here, never a skip.
MIGRATOR_IT_REQUIRED=1
export MIGRATOR_IT_REQUIRED

status=0
# The C code follows .clang-format (a second or two).
if ! "$top/scripts/check-format.sh"; then
	status=1
fi

# The fake providers check themselves against the wire shapes they cite
# (every provider's lists, keys, paging and faults; a few seconds).
echo "== fake providers self-check (tests/fakes/selftest.py)"
if ! python3 "$top/tests/fakes/selftest.py"; then
	status=1
fi

run_suite() { # name builddir [configure args]
	name=$1 dir=$2
	shift 2
	echo "== $name: build ($dir)"
	"$top/scripts/build.sh" "$dir" "$@"
	echo "== $name: make check"
	if ! make -C "$dir" -j1 check >"$dir/check.out" 2>&1; then
		status=1
	fi
	for log in "$dir"/tests/unit/*.log "$dir"/tests/integration/*.log; do
		[ -f "$log" ] || continue
		echo "---- $name: ${log#$dir/}"
		cat "$log"
	done
	grep -E "^(PASS|FAIL|ERROR|XFAIL|XPASS|SKIP):|^# (TOTAL|PASS|FAIL|ERROR|SKIP)" "$dir/check.out" || true
}

# The release suite also validates every /api/v1 answer it receives against
# docs/openapi.yaml (tests/integration/run.sh); the sanitizer suite does not.
MIGRATOR_OPENAPI_CHECK=1
export MIGRATOR_OPENAPI_CHECK
run_suite "release" "$top/build"
unset MIGRATOR_OPENAPI_CHECK

# The integration suite again behind Apache: mod_fcgid configured from the
# shipped apache/migrator-fcgid.conf (REST and tool interface in full), and a
# smoke pass behind mod_proxy_fcgi with spawn-fcgi (apache/migrator-proxy-fcgi.conf).
web_pass() { # name args...
	name=$1
	shift
	echo "== release: integration behind $name"
	if ! MIGRATOR_BUILDDIR="$top/build" MIGRATOR_SRCDIR="$top" \
		python3 "$top/tests/integration/run.py" "$@" >"$top/build/tests/integration/$name.log" 2>&1; then
		status=1
	fi
	cat "$top/build/tests/integration/$name.log"
}
web_pass apache --web apache -k test_rest -k test_mcp
web_pass apache-proxy --web apache-proxy -k test_rest.Endpoints_Me -k test_rest.Authentication \
	-k test_rest.Endpoints_RunDetail -k test_mcp.McpTransport -k test_mcp.McpToolsList

# The Debian package (built without running the suite again, checked with
# dpkg-deb -c and lintian), then docs/deploy.md followed literally with it in a
# throw-away root (tests/deploy/run.sh says how). About two minutes.
echo "== Debian package (tests/deploy/package.sh)"
if "$top/tests/deploy/package.sh" "$top/build/deb"; then
	echo "== deploy docs check (tests/deploy/run.sh)"
	"$top/tests/deploy/run.sh" "$top"/build/deb/migrator_*.deb || status=1
else
	status=1
fi

# make distcheck (a smoke subset of the integration suite inside), the
# tarball's completeness, and an in-tree build next to scripts/build.sh's.
echo "== distcheck (tests/deploy/distcheck.sh)"
"$top/tests/deploy/distcheck.sh" "$top/build" || status=1

# Every libFuzzer target for 30 seconds (clang, ASan+UBSan; tests/fuzz/run.sh),
# after a check that a planted ASan and a planted UBSan fault each fail it.
echo "== fuzzing"
if ! "$top/tests/fuzz/selftest.sh" || ! "$top/tests/fuzz/run.sh" 30; then
	status=1
fi

san_logs="$top/build-asan/sanitizer-logs"
rm -rf "$san_logs" && mkdir -p "$san_logs"
ASAN_OPTIONS="log_path=$san_logs/asan:detect_leaks=1:abort_on_error=0"
UBSAN_OPTIONS="log_path=$san_logs/ubsan:print_stacktrace=1:halt_on_error=1"
export ASAN_OPTIONS UBSAN_OPTIONS
run_suite "sanitizers" "$top/build-asan" --enable-sanitizers
unset ASAN_OPTIONS UBSAN_OPTIONS
if [ -n "$(ls -A "$san_logs" 2>/dev/null)" ]; then
	echo "== sanitizer reports:"
	for f in "$san_logs"/*; do echo "---- $f"; head -60 "$f"; done
	status=1
fi

# One closing line over every suite of both builds: cmocka's counts and the
# integration runner's "N passed, N failed".
totals=$(cat "$top"/build/tests/unit/*.log "$top"/build/tests/integration/*.log \
	"$top"/build-asan/tests/unit/*.log "$top"/build-asan/tests/integration/*.log 2>/dev/null | awk '
	/^\[  PASSED  \] [0-9]+ test/ { p += $4 }
	/^\[  FAILED  \] [0-9]+ test/ { f += $4 }
	/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3 }
	END { printf "%d %d", p, f }')
passed=${totals% *}
failed=${totals#* }
[ "$passed" -gt 0 ] || status=1
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
if [ $status -eq 0 ]; then echo "== all suites passed"; else echo "== FAILED"; fi
echo "$passed passed, $failed failed"
# What failed comes last, where a truncated CI log still shows it:
# each failing cmocka test and each failing integration test with the first
# lines of its message.
if [ "$failed" -gt 0 ]; then
	echo "== what failed"
	for log in "$top"/build/tests/unit/*.log "$top"/build/tests/integration/*.log \
		"$top"/build-asan/tests/unit/*.log "$top"/build-asan/tests/integration/*.log; do
		[ -f "$log" ] || continue
		awk -v name="${log#"$top"/}" '
		/^\[  FAILED  \] [a-z_]/ { print name ": " $0 }
		/^(PASS|SKIP)  / { n = 0 }
		/^FAIL  / { n = 12; print name ": " $0; next }
		n > 0 { print "    " $0; n-- }' "$log"
	done
fi
exit $status
