#!/bin/sh
# tests/deploy/distcheck.sh BUILDDIR: the release tarball and the two ways to
# build it. Run by scripts/test.sh after the suites, on the configured BUILDDIR.
# - `make distcheck` (tarball, read-only source tree, out-of-tree build with
#   -Werror, make check, install, uninstall, distclean), with the integration
#   suite cut to a smoke subset (MIGRATOR_IT_ARGS) so that it costs a couple of
#   minutes, not another full suite;
# - the tarball holds every file git tracks, but .ci/ and .gitignore
#   (EXTRA_DIST is complete);
# - from the unpacked tarball, an in-tree `./configure && make`, then
#   scripts/build.sh's out-of-tree build into build/ works (issue 13, item 4).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$(cd "${1:?usage: tests/deploy/distcheck.sh BUILDDIR}" && pwd)
fail() { echo "distcheck: FAIL: $*" >&2; exit 1; }

echo "distcheck: make distcheck (log: $b/distcheck.out)"
start=$(date +%s)
if ! MIGRATOR_IT_ARGS="-k test_rest.Endpoints_Me" make -C "$b" -j2 distcheck >"$b/distcheck.out" 2>&1; then
	grep -E "^(FAIL|ERROR):|rror" "$b/distcheck.out" | head -40 >&2
	tail -30 "$b/distcheck.out" >&2
	fail "make distcheck"
fi
grep -E "^# (TOTAL|PASS|SKIP|FAIL):" "$b/distcheck.out" | sed 's/^/distcheck:   /'
grep -q "^# SKIP: *0$" "$b/distcheck.out" || fail "make check inside distcheck skipped a suite"
echo "distcheck: passed in $(($(date +%s) - start)) s"

tarball=$(ls "$b"/migrator-*.tar.gz | tail -1)
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	tar -tzf "$tarball" | sed 's|^[^/]*/||; /\/$/d' | sort >"$b/dist.files"
	missing=$(git -C "$top" ls-files | grep -v -e '^\.ci/' -e '^\.gitignore$' | sort | comm -23 - "$b/dist.files")
	[ -z "$missing" ] || fail "the tarball lacks (add them to EXTRA_DIST): $missing"
	echo "distcheck: the tarball holds every tracked file"
fi

work=$(mktemp -d /tmp/migrator-intree.XXXXXX)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
src=$(ls -d "$work"/migrator-*)
echo "distcheck: in-tree ./configure && make, then scripts/build.sh"
(cd "$src" && ./configure >configure.out 2>&1 && make -j2 >make.out 2>&1) || fail "in-tree build: $(tail -20 "$src/make.out" "$src/configure.out" 2>/dev/null)"
"$src/scripts/build.sh" >"$work/build.out" 2>&1 || fail "scripts/build.sh after an in-tree build: $(tail -20 "$work/build.out")"
"$src/build/migratorctl" --version >/dev/null || fail "build/migratorctl --version"
echo "distcheck: OK"
