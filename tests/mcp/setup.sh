#!/bin/sh
# Install the MCP test tools (official SDK client, conformance suite, a Node 22
# binary for it) from npm into DIR (default $MIGRATOR_BUILDDIR/mcp-node).
# Usage: tests/mcp/setup.sh [DIR]     prints DIR on success
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../npm-install.sh" "$here" "${1:-${MIGRATOR_BUILDDIR:-$here/../../build}/mcp-node}"
