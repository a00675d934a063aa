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
exec python3 "${MIGRATOR_SRCDIR:-$(dirname "$0")/../..}/tests/integration/run.py" ${MIGRATOR_IT_ARGS:-}
