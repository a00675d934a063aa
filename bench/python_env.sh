# Sourced by the benches written in Python (bench/runner.sh, bench/natural_key.sh,
# bench/fairness.sh): $top, and MIGRATOR_BUILDDIR (built here when unset) and
# MIGRATOR_SRCDIR for tests/integration/harness.py.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${MIGRATOR_BUILDDIR:-}" ]; then
	"$top/scripts/install-deps.sh"
	"$top/scripts/build.sh" "$top/build"
	export MIGRATOR_BUILDDIR="$top/build"
fi
export MIGRATOR_SRCDIR="$top"
