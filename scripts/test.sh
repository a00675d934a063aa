#!/bin/sh
# The full test suite (README's second command; CI runs exactly this):
# dependencies, a -Werror build with `make check` (unit + integration against
# real MariaDB and lighttpd), the same suite on an ASan+UBSan build, which
# fails on any sanitizer report, the Apache passes, the Debian package and the
# deploy docs, distcheck and fuzzing.
#
# After the checks that need nothing but the tree, three lanes run side by
# side (they share no folder, port or server; each test harness starts its
# own): the release suite then the Apache passes, the sanitizer suite, and the
# packaging checks then fuzzing then the integration pass on a Galera cluster. Each lane writes its own log; the logs are
# printed in that order when all three have ended, then one closing line.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# The Apache passes run migrator.fcgi from this checkout as www-data, which must be able to enter
# its folder: a clone into a folder made by mktemp -d (mode 0700) gets that, and only that (o+x).
[ "$(id -u)" -ne 0 ] || chmod o+x "$top"
"$top/scripts/install-deps.sh"
# The servers are installed now: a missing one is a failure here, never a skip.
MIGRATOR_IT_REQUIRED=1
export MIGRATOR_IT_REQUIRED
lanes=$top/build-lanes
rm -rf "$lanes"
mkdir -p "$lanes"
t0=$(date +%s)
stamp() { echo "== [$(($(date +%s) - t0)) s] $*"; }

status=0
# The C code follows .clang-format (a second or two).
if ! "$top/scripts/check-format.sh"; then
	status=1
fi

# The fake providers check themselves against the wire shapes they cite
# (every provider's lists, keys, paging and faults; a few seconds).
stamp "fake providers self-check (tests/fakes/selftest.py)"
if ! python3 "$top/tests/fakes/selftest.py"; then
	status=1
fi

# Both builds first: a compile error stops everything before minutes of tests.
stamp "release build (build) and sanitizer build (build-asan)"
"$top/scripts/build.sh" "$top/build"
"$top/scripts/build.sh" "$top/build-asan" --enable-sanitizers

# make check in a build folder; the log lines it prints come after it.
# (Functions share their variables in sh: each keeps its verdict in a name of
# its own, or a lane's rc would be reset by the next function it calls.)
run_suite() { # name builddir
	name=$1 dir=$2
	stamp "$name: make check"
	suite_rc=0
	make -C "$dir" -j1 check >"$dir/check.out" 2>&1 || suite_rc=1
	for log in "$dir"/tests/unit/*.log "$dir"/tests/integration/*.log; do
		[ -f "$log" ] || continue
		echo "---- $name: ${log#$dir/}"
		cat "$log"
	done
	grep -E "^(PASS|FAIL|ERROR|XFAIL|XPASS|SKIP):|^# (TOTAL|PASS|FAIL|ERROR|SKIP)" "$dir/check.out" || true
	return $suite_rc
}

# The integration suite again behind Apache: mod_fcgid configured from the
# shipped apache/migrator-fcgid.conf (REST and tool interface in full), and a
# smoke pass behind mod_proxy_fcgi with spawn-fcgi (apache/migrator-proxy-fcgi.conf).
web_pass() { # name args...
	name=$1
	shift
	stamp "release: integration behind $name"
	pass_rc=0
	MIGRATOR_BUILDDIR="$top/build" MIGRATOR_SRCDIR="$top" \
		python3 "$top/tests/integration/run.py" "$@" >"$top/build/tests/integration/$name.log" 2>&1 || pass_rc=1
	cat "$top/build/tests/integration/$name.log"
	return $pass_rc
}

# Lane 1: the release suite, which also validates every /api/v1 answer it
# receives against docs/openapi.yaml (tests/integration/run.sh), then Apache.
lane_release() {
	rc=0
	MIGRATOR_OPENAPI_CHECK=1 # (each lane is a subshell of its own)
	export MIGRATOR_OPENAPI_CHECK
	run_suite "release" "$top/build" || rc=1
	unset MIGRATOR_OPENAPI_CHECK
	web_pass apache --web apache -k test_rest -k test_mcp || rc=1
	web_pass apache-proxy --web apache-proxy -k test_rest.Endpoints_Me -k test_rest.Authentication \
		-k test_rest.Endpoints_RunDetail -k test_mcp.McpTransport -k test_mcp.McpToolsList || rc=1
	return $rc
}

# Lane 2: the sanitizer suite. It leaves out what runs no C code of ours that
# the release suite has not run already: the browser journeys of the static
# review page (test_web), the local-stack script (test_devsh) and the install
# into a DESTDIR (test_install).
lane_sanitizers() {
	san_logs="$top/build-asan/sanitizer-logs"
	rm -rf "$san_logs" && mkdir -p "$san_logs"
	rc=0
	ASAN_OPTIONS="log_path=$san_logs/asan:detect_leaks=1:abort_on_error=0"
	UBSAN_OPTIONS="log_path=$san_logs/ubsan:print_stacktrace=1:halt_on_error=1"
	MIGRATOR_IT_ARGS="--skip test_web. --skip test_devsh. --skip test_install."
	export ASAN_OPTIONS UBSAN_OPTIONS MIGRATOR_IT_ARGS
	run_suite "sanitizers" "$top/build-asan" || rc=1
	if [ -n "$(ls -A "$san_logs" 2>/dev/null)" ]; then
		echo "== sanitizer reports:"
		for f in "$san_logs"/*; do echo "---- $f"; head -60 "$f"; done
		rc=1
	fi
	return $rc
}

# The integration suite's Galera pass (run.py --galera): three MariaDB Galera
# nodes, the runner, queue, chunked-import, drill and rate-limit tests with
# runner i and web server i on node i mod 3, and tests/integration/test_galera.py.
# With the release build; its log sits beside the release suite's, so the
# closing line counts it.
galera_pass() {
	stamp "packaging: integration on a 3-node Galera cluster (run.py --galera)"
	pass_rc=0
	MIGRATOR_BUILDDIR="$top/build" MIGRATOR_SRCDIR="$top" \
		python3 "$top/tests/integration/run.py" --galera >"$top/build/tests/integration/galera.log" 2>&1 || pass_rc=1
	cat "$top/build/tests/integration/galera.log"
	return $pass_rc
}

# Lane 3: the Debian package (built without running the suite again, checked
# with dpkg-deb -c and lintian), then docs/deploy.md followed literally with it
# in a throw-away root (tests/deploy/run.sh says how); make distcheck (a smoke
# subset of the integration suite inside), the tarball's completeness and an
# in-tree build, in a build folder of its own; then every libFuzzer target for
# 30 seconds from a fixed seed (clang, ASan+UBSan; tests/fuzz/run.sh), after a
# check that a planted ASan and a planted UBSan fault each fail it; then the
# Galera pass, here because this lane ends minutes before the release lane.
lane_packaging() {
	rc=0
	stamp "Debian package (tests/deploy/package.sh)"
	if "$top/tests/deploy/package.sh" "$top/build-deb"; then
		stamp "deploy docs check (tests/deploy/run.sh)"
		"$top/tests/deploy/run.sh" "$top"/build-deb/migrator_*.deb || rc=1
	else
		rc=1
	fi
	stamp "distcheck (tests/deploy/distcheck.sh)"
	"$top/scripts/build.sh" "$top/build-dist" && "$top/tests/deploy/distcheck.sh" "$top/build-dist" || rc=1
	stamp "fuzzing"
	if ! "$top/tests/fuzz/selftest.sh" || ! MIGRATOR_FUZZ_SEED=1 "$top/tests/fuzz/run.sh" 30; then
		rc=1
	fi
	galera_pass || rc=1
	return $rc
}

stamp "three lanes side by side (logs in $lanes)"
for lane in release sanitizers packaging; do
	(
		rc=0
		"lane_$lane" >"$lanes/$lane.log" 2>&1 || rc=$?
		stamp "lane $lane ended (exit $rc)" >>"$lanes/$lane.log"
		echo "$rc" >"$lanes/$lane.status"
	) &
done
wait
for lane in release sanitizers packaging; do
	echo "==== lane $lane"
	cat "$lanes/$lane.log"
	[ "$(cat "$lanes/$lane.status" 2>/dev/null)" = 0 ] || status=1
done

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
[ "$failed" -eq 0 ] || status=1 # a failure counted in any log fails the run, whatever a lane said
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
stamp "done"
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
