#!/bin/bash
# bench/write_shapes (issue 28 item 3): what each way of writing an import's rows costs the same
# MariaDB (durable commits), as rows/s and as a ratio to bench/runner.sh's baseline measured in the
# same run: monitors as single-row and as 500-row INSERTs, the import's record of its resources
# on wide and on narrow resources, and a status written in place (bench/write_shapes.py says how).
#
#   bench/write_shapes.sh [N]          (default: 100000 rows a shape)
#   MIGRATOR_BUILDDIR=DIR              use an existing build (else scripts/build.sh builds build/)
set -euo pipefail
. "$(dirname "$0")/python_env.sh"
exec python3 "$top/bench/write_shapes.py" "$@"
