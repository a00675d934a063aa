#!/bin/sh
# Build the libFuzzer targets of tests/fuzz/ with clang (ASan + UBSan, the
# library instrumented too, every report fatal) into build-fuzz/ and run each
# for SECONDS (default 30), as many at once as the machine has cores. Each
# target starts from its seed corpus: the files of tests/fuzz/seeds/<name>/,
# plus what tests/fuzz/seeds/<name>.sh writes into the corpus folder it is
# given (seeds made from the recorded provider answers). A crash or any
# sanitizer report fails the run and leaves its input in build-fuzz/crashes/;
# turn it into a unit test.
# A target may name extra link flags in a line "// fuzz-ldflags: ..." (for
# example -Wl,--wrap=httpc_do for a fake transport).
# MIGRATOR_FUZZ_SEED=N fixes libFuzzer's seed, so a run makes the same inputs
# in the same order on any machine (a faster one only gets further); the suite
# uses it. Unset, each run draws its own seed (for long exploring runs).
# Usage: tests/fuzz/run.sh [SECONDS] [TARGET.c ...]   (make fuzz: 300 seconds each;
#        without targets: every tests/fuzz/fuzz_*.c)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-30}
[ $# -gt 0 ] && shift
dir=${MIGRATOR_FUZZ_DIR:-$top/build-fuzz}
command -v clang >/dev/null 2>&1 || {
	echo "run.sh: clang missing; installing clang with apt-get" >&2
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q clang >&2
}
# -fno-sanitize-recover: a UBSan report aborts the input like an ASan one
# (without it UBSan prints and goes on, and the run passes).
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
# (clang warns where gcc does not: -Werror is gcc's check, not this build's)
"$top/scripts/build.sh" "$dir" --disable-werror CC=clang CFLAGS="$flags -fsanitize=fuzzer-no-link"
libs="$(pkg-config --libs json-c libsodium libcurl uuid fcgi) $(mariadb_config --libs 2>/dev/null || mysql_config --libs)"
mkdir -p "$dir/fuzz" "$dir/crashes"
# Reports go to the log (stderr); halt_on_error makes the first one final.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

[ $# -gt 0 ] || set -- "$top"/tests/fuzz/fuzz_*.c

# Build every target first (a build error fails the run before any fuzzing).
for src in "$@"; do
	name=$(basename "$src" .c)
	extra=$(sed -n 's|^// fuzz-ldflags: ||p' "$src" | head -1)
	# shellcheck disable=SC2086
	clang $flags -fsanitize=fuzzer -I"$top/src" -I"$dir" -D_GNU_SOURCE "$src" "$dir/libmigrator.a" \
		$extra $libs -o "$dir/fuzz/$name"
	corpus=$dir/corpus/$name
	mkdir -p "$corpus"
	if [ -d "$top/tests/fuzz/seeds/$name" ]; then
		cp "$top/tests/fuzz/seeds/$name"/* "$corpus"/ 2>/dev/null || true
	fi
	if [ -f "$top/tests/fuzz/seeds/$name.sh" ]; then
		sh "$top/tests/fuzz/seeds/$name.sh" "$top" "$corpus"
	fi
done

# One target: run it, and keep its verdict in $dir/<name>.status.
fuzz_one() { # name
	name=$1
	rm -f "$dir/$name.status"
	if "$dir/fuzz/$name" -max_total_time="$secs" -seed="${MIGRATOR_FUZZ_SEED:-0}" -timeout=10 -rss_limit_mb=1024 \
		-artifact_prefix="$dir/crashes/$name-" "$dir/corpus/$name" >"$dir/$name.log" 2>&1; then
		echo 0 >"$dir/$name.status"
	else
		echo 1 >"$dir/$name.status"
	fi
}

jobs=$(nproc 2>/dev/null || echo 1)
running=0
for src in "$@"; do
	name=$(basename "$src" .c)
	fuzz_one "$name" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait

status=0
for src in "$@"; do
	name=$(basename "$src" .c)
	echo "== $name: ${secs}s"
	if [ "$(cat "$dir/$name.status" 2>/dev/null)" != 0 ]; then
		status=1
		tail -40 "$dir/$name.log"
	fi
	grep -E '^(#[0-9]+ +DONE|Done [0-9]+ runs)' "$dir/$name.log" | tail -1 || true
done
exit $status
