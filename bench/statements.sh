#!/bin/bash
# bench/statements (issue 28 item 3): where the server's reads go over an import of N monitors,
# statement by statement (the performance schema's prepared statements; bench/statements.py says how).
#
#   bench/statements.sh [N]            (default: 20000 monitors)
#   MIGRATOR_BUILDDIR=DIR              use an existing build (else scripts/build.sh builds build/)
set -euo pipefail
. "$(dirname "$0")/python_env.sh"
exec python3 "$top/bench/statements.py" "$@"
