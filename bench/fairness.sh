#!/bin/bash
# bench/fairness (issue 28 item 1): small runs of other users, and of the same
# user, started while one or three large imports execute on 2 runner slots;
# start to review and execute to completion, p50/p95/max against 2 s. Exit 1
# when a target is missed or a small run fails (bench/fairness.py says more).
#
#   bench/fairness.sh [--monitors N] [--small K] [--slots S]   (default 100000, 20, 2)
#   MIGRATOR_BUILDDIR=DIR              use an existing build (else scripts/build.sh builds build/)
set -euo pipefail
. "$(dirname "$0")/python_env.sh"
exec python3 "$top/bench/fairness.py" "$@"
