#!/bin/bash
# bench/soak (issue 28 item 4; not in CI, not in `make bench`: it takes 30
# minutes and more): mixed load (small runs of new users every 2 s, a
# 100,000-monitor import every 5 minutes, kill -9 of a runner every minute,
# one MariaDB restart), then every run must have completed with every
# resource imported once, and no process grown by more than 2 MB after its
# first 5 minutes. Writes soak.csv and soak.png (bench/soak_plot.sh) into
# --out. Exit 1 on any of these (bench/soak.py says more).
#
#   bench/soak.sh [--minutes 30] [--out DIR]
#   MIGRATOR_BUILDDIR=DIR              use an existing build (else scripts/build.sh builds build/)
set -euo pipefail
. "$(dirname "$0")/python_env.sh"
exec python3 "$top/bench/soak.py" "$@"
