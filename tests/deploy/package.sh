#!/bin/sh
# Build the Debian package and check it: tests/deploy/package.sh [OUTDIR]
# (default build-deb). Run by scripts/test.sh; needs the packages of
# scripts/install-deps.sh. It
# - checks that debian/control's Build-Depends are scripts/install-deps.sh's
#   BUILD_DEPS (one list may not grow without the other);
# - builds with `dpkg-buildpackage -us -uc -b` from a copy of the source tree
#   (the checkout stays as it was), DEB_BUILD_OPTIONS="nocheck parallel=2":
#   the suite has run already, so the package build does not run it again;
# - checks that `dpkg-deb -c` lists every file the package must install;
# - runs lintian and fails on any error (E:) tag; warnings are printed and
#   listed in docs/deploy.md.
# The .deb is left in OUTDIR for tests/deploy/run.sh.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/build-deb}
fail() { echo "package: FAIL: $*" >&2; exit 1; }

# -- Build-Depends == install-deps.sh's BUILD_DEPS
rm -rf "$out"
mkdir -p "$out/src"
sed -n '/^BUILD_DEPS="/,/"$/p' "$top/scripts/install-deps.sh" | sed 's/^BUILD_DEPS="//; s/"$//' |
	tr ' ' '\n' | sed '/^$/d' | sort >"$out/build-deps.install-deps"
sed -n '/^Build-Depends:/,/^$/p' "$top/debian/control" | sed 's/^Build-Depends://' | tr ',' '\n' |
	sed 's/([^)]*)//; s/^[[:space:]]*//; s/[[:space:]]*$//' | sed '/^$/d; /^debhelper-compat$/d' |
	sort >"$out/build-deps.control"
[ -s "$out/build-deps.install-deps" ] || fail "no BUILD_DEPS in scripts/install-deps.sh"
if ! diff "$out/build-deps.install-deps" "$out/build-deps.control" >&2; then
	fail "scripts/install-deps.sh BUILD_DEPS (<) and debian/control Build-Depends (>) differ"
fi
echo "package: Build-Depends match scripts/install-deps.sh ($(wc -l <"$out/build-deps.control") packages)"

# -- build from a copy of the tree
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$out/src"
else
	(cd "$top" && tar -cf - --exclude='./build' --exclude='./build-*' --exclude='./var' .) | tar -xf - -C "$out/src"
fi
echo "package: dpkg-buildpackage -us -uc -b (log: $out/build.log)"
start=$(date +%s)
if ! (cd "$out/src" && DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	tail -40 "$out/build.log" >&2
	fail "dpkg-buildpackage failed"
fi
rm -rf "$out/src"
deb=$(ls "$out"/migrator_*.deb)
echo "package: built $(basename "$deb") in $(($(date +%s) - start)) s"

# -- contents
dpkg-deb -c "$deb" | awk '{ sub(/^\./, "", $6); print $6 }' >"$out/contents"
expected() {
	for f in /usr/bin/migratorctl /usr/bin/migrator-runner /usr/libexec/migrator.fcgi \
		/usr/libexec/migrator/migrator-runner-cron /etc/migrator/migrator.conf.example \
		/usr/share/migrator/apache/migrator-fcgid.conf /usr/share/migrator/apache/migrator-proxy-fcgi.conf \
		/usr/share/migrator/apache/lighttpd-migrator.conf /usr/share/migrator/apache/migrator-fcgi.socket \
		/usr/share/migrator/apache/migrator-fcgi.service /usr/share/migrator/examples/cron.d/migrator \
		/usr/share/migrator/examples/migrator-runner.service /usr/share/migrator/examples/migrator-runner.timer \
		/usr/share/doc/migrator/copyright /usr/share/doc/migrator/changelog.gz; do
		echo "$f"
	done
	for f in "$top"/sql/*.sql; do echo "/usr/share/migrator/sql/${f##*/}"; done
	for f in "$top"/apache/errors/*.json; do echo "/usr/share/migrator/errors/${f##*/}"; done
	for f in "$top"/web/migrator/*; do echo "/usr/share/migrator/web/migrator/${f##*/}"; done
	for f in "$top"/man/*.[1-8]; do
		n=${f##*/}
		echo "/usr/share/man/man${n##*.}/$n.gz"
	done
}
missing=$(expected | while read -r f; do grep -qxF "$f" "$out/contents" || echo "$f"; done)
[ -z "$missing" ] || fail "dpkg-deb -c lacks: $missing"
echo "package: dpkg-deb -c lists all $(expected | wc -l) expected files"
dpkg-deb -I "$deb" postinst | grep -q 'adduser --system' || fail "postinst does not create the migrator user"

# -- lintian: no errors
lintian --tag-display-limit 0 "$out"/migrator_*.changes >"$out/lintian.out" 2>&1 || true
sed '/^running with root privileges/d' "$out/lintian.out"
if grep -q '^E: ' "$out/lintian.out"; then
	fail "lintian reports errors"
fi
if grep -q '^W: ' "$out/lintian.out"; then
	echo "package: lintian: no errors, $(grep -c '^W: ' "$out/lintian.out") warning(s) above"
else
	echo "package: lintian: no errors, no warnings"
fi
echo "package: OK"
