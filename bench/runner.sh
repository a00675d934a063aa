#!/bin/bash
# bench/runner (issue 14, item 2): UptimeRobot-shaped accounts of 10,000 and
# 100,000 monitors from the fake provider, discovered, planned and imported
# by real migrator-runner processes started like cron (several slots, each
# started again every minute-equivalent when free) against a private MariaDB.
# Prints each figure beside its target and whether every monitor arrived
# exactly once; the peak-RSS comparison of the two sizes is also the runner
# half of bench/leak. Exit status 0 only when every run completed without
# loss or duplicates (a missed speed target is printed, not failed: the
# figures depend on the box).
#
#   bench/runner.sh [N ...]            (default: 10000 100000)
#   BENCH_SLOTS=3 BENCH_TICK=6         runner slots and seconds per minute-equivalent
#   BENCH_GALERA=1                     then on a 3-node Galera cluster, one runner per node, beside
#                                      the one server's figures (issue 27)
#   MIGRATOR_BUILDDIR=DIR              use an existing build (else scripts/build.sh builds build/)
set -euo pipefail
. "$(dirname "$0")/python_env.sh"
[ $# -gt 0 ] || set -- 10000 100000
exec python3 "$top/bench/runner_scale.py" --slots "${BENCH_SLOTS:-3}" --tick "${BENCH_TICK:-6}" \
	${BENCH_GALERA:+--galera} "$@"
