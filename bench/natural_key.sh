#!/bin/bash
# bench/natural_key: planning N new monitors for a user who already has M
# monitors on other hosts (made by plain SQL, as another program would):
# planning time and MariaDB's handler counters per planned resource, for this
# build's runner and, with --before DIR, another build's runner (e.g. main's)
# against the same MariaDB, schema and data in the same run. Exit status 0
# when every plan is right (N-1 create, 1 conflict); the figures are printed.
#
#   bench/natural_key.sh [--existing M] [--new N] [--before DIR]   (default 20,000 and 20,000)
#   MIGRATOR_BUILDDIR=DIR              use an existing build (else scripts/build.sh builds build/)
#
# A build of main to compare with, outside this tree:
#   mkdir -p /tmp/main && git archive main | tar -x -C /tmp/main && /tmp/main/scripts/build.sh /tmp/main/build
set -euo pipefail
. "$(dirname "$0")/python_env.sh"
exec python3 "$top/bench/natural_key.py" "$@"
