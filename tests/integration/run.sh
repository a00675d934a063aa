#!/bin/sh
# make check entry point for the integration suite (see run.py). Without the
# servers it needs (MariaDB, lighttpd) it skips with exit 77 and says why;
# MIGRATOR_IT_REQUIRED=1 (scripts/test.sh) turns that skip into a failure.
for prog in mariadbd mariadb-install-db lighttpd python3; do
	if ! command -v "$prog" >/dev/null 2>&1; then
		echo "integration suite skipped: $prog not found (scripts/install-deps.sh installs the servers)" >&2
		[ -n "${MIGRATOR_IT_REQUIRED:-}" ] && exit 1
		exit 77
	fi
done
src=${MIGRATOR_SRCDIR:-$(dirname "$0")/../..}
[ -n "${MIGRATOR_OPENAPI_CHECK:-}" ] || exec python3 "$src/tests/integration/run.py" ${MIGRATOR_IT_ARGS:-}

# MIGRATOR_OPENAPI_CHECK=1 (scripts/test.sh, release suite only): the harness
# records every /api/v1 answer, then each is validated against
# docs/openapi.yaml (tests/openapi/validate.mjs); a mismatch fails the suite.
log=${MIGRATOR_BUILDDIR:-$src/build}/tests/integration/responses.jsonl
mkdir -p "$(dirname "$log")"
rm -f "$log"
status=0
MIGRATOR_RESPONSE_LOG=$log python3 "$src/tests/integration/run.py" ${MIGRATOR_IT_ARGS:-} || status=1
echo "== docs/openapi.yaml against every recorded response ($log)"
sh "$src/tests/openapi/check.sh" validate "$log" || status=1
exit $status
