#!/bin/sh
# make check entry point for the integration suite (see run.py).
exec python3 "${MIGRATOR_SRCDIR:-$(dirname "$0")/../..}/tests/integration/run.py" ${MIGRATOR_IT_ARGS:-}
