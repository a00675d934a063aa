#!/bin/sh
# Install the OpenAPI test tools (@redocly/cli, ajv, ajv-formats, yaml, and a
# Node 22 binary for @redocly/cli) from npm into DIR (default
# $MIGRATOR_BUILDDIR/openapi-node).
# Usage: tests/openapi/setup.sh [DIR]     prints DIR on success
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../npm-install.sh" "$here" "${1:-${MIGRATOR_BUILDDIR:-$here/../../build}/openapi-node}"
