#!/bin/sh
# Install the npm packages of a test folder (its package.json and
# package-lock.json) into DEST, never into the source tree. Reuses an existing
# install of the same lock without touching the network. Installs node and npm
# with apt-get when they are missing.
# Usage: tests/npm-install.sh SRC_DIR DEST_DIR     prints DEST_DIR on success
set -eu
src=$(cd "$1" && pwd)
dir=$2

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "npm-install.sh: node/npm missing; installing nodejs and npm with apt-get" >&2
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get install -y nodejs npm >&2 ||
		{ $sudo apt-get update >&2 && $sudo apt-get install -y nodejs npm >&2; }
fi

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
want=$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$want" ] &&
   [ -f "$dir/node_modules/.package-lock.json" ]; then
	echo "$dir"
	exit 0
fi
rm -f "$dir/.installed"
cp "$src/package.json" "$src/package-lock.json" "$dir/"
(cd "$dir" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error >&2)
echo "$want" >"$dir/.installed"
echo "$dir"
