#!/bin/bash
# bench/tenants (issue 28 item 2): 1,000 users each start a run of 20 to 500
# resources within one minute through the API, on 3 runner slots: start to
# review p50/p95/max (goal: none over 30 s), runs completed per minute, and
# the /me and runs-list p99 under that load beside the idle stack's (goals
# 15 ms and 30 ms). Exit 1 when a goal is missed or a run fails
# (bench/tenants.py says more).
#
#   bench/tenants.sh [--users N] [--slots S] [--minute SECONDS]   (default 1000, 3, 60)
#   MIGRATOR_BUILDDIR=DIR              use an existing build (else scripts/build.sh builds build/)
set -euo pipefail
. "$(dirname "$0")/python_env.sh"
exec python3 "$top/bench/tenants.py" "$@"
