#!/bin/sh
# Install playwright-core and axe-core from npm into DIR (default $MIGRATOR_BUILDDIR/web-node)
# and Debian's chromium with apt-get when it is missing.
# Usage: tests/web/setup.sh [DIR]     prints DIR on success
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v chromium >/dev/null 2>&1; then
	echo "setup.sh: chromium missing; installing it with apt-get" >&2
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get install -y --no-install-recommends chromium >&2 ||
		{ $sudo apt-get update >&2 && $sudo apt-get install -y --no-install-recommends chromium >&2; }
fi
exec "$here/../npm-install.sh" "$here" "${1:-${MIGRATOR_BUILDDIR:-$here/../../build}/web-node}"
