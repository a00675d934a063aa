#!/bin/sh
# Build the libFuzzer targets of tests/fuzz/ with clang (ASan + UBSan, the
# library instrumented too) into build-fuzz/ and run each for SECONDS
# (default 30), starting from a seed corpus made of the recorded provider
# answers, the example config and sample requests. A crash fails the run and
# leaves its input in build-fuzz/crashes/; turn it into a unit test.
# Usage: tests/fuzz/run.sh [SECONDS]      (make fuzz: 300 seconds each)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-30}
dir=$top/build-fuzz
command -v clang >/dev/null 2>&1 || {
	echo "run.sh: clang missing; installing clang with apt-get" >&2
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q clang >&2
}
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined"
# (clang warns where gcc does not: -Werror is gcc's check, not this build's)
"$top/scripts/build.sh" "$dir" --disable-werror CC=clang CFLAGS="$flags -fsanitize=fuzzer-no-link"
libs="$(pkg-config --libs json-c libsodium libcurl uuid) $(mariadb_config --libs 2>/dev/null || mysql_config --libs)"
mkdir -p "$dir/fuzz" "$dir/crashes"
status=0
for src in "$top"/tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	bin=$dir/fuzz/$name
	# shellcheck disable=SC2086
	clang $flags -fsanitize=fuzzer -I"$top/src" -I"$dir" -D_GNU_SOURCE "$src" "$dir/libmigrator.a" $libs -o "$bin"
	corpus=$dir/corpus/$name
	mkdir -p "$corpus"
	case $name in
	fuzz_providers)
		i=0
		for f in "$top"/tests/unit/fixtures/*/*.json; do
			printf '%b\n' "\\0$(printf '%03o' $((i % 9)))" | head -c1 >"$corpus/seed$i"
			printf '\n' >>"$corpus/seed$i"
			cat "$f" >>"$corpus/seed$i"
			i=$((i + 1))
		done ;;
	fuzz_requests)
		printf '\000status=failed&provider=uptimerobot&per_page=100&page=2&q=%%C3%%A9' >"$corpus/query"
		printf '\001{"provider":"whmcs","credentials":{"url":"https://b.example","api_secret":"s"},"ids":[1,2]}' >"$corpus/body"
		printf '\002{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"migrations-list"}}' >"$corpus/rpc" ;;
	fuzz_text)
		{ printf '\000'; cat "$top/migrator.conf.example.in"; } >"$corpus/conf"
		printf '\001key sk_live%%2f4eC39HqLyjWDarjtT1zdp7dc in a "\\u0073k_live" body' >"$corpus/scrub" ;;
	esac
	echo "== $name: ${secs}s"
	if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 -artifact_prefix="$dir/crashes/$name-" \
		"$corpus" >"$dir/$name.log" 2>&1; then
		status=1
		tail -40 "$dir/$name.log"
	fi
	grep -E '^(#[0-9]+ +DONE|Done [0-9]+ runs)' "$dir/$name.log" | tail -1
done
exit $status
