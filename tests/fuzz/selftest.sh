#!/bin/sh
# run.sh fails on a sanitizer report: each planted fault of tests/fuzz/planted/
# (a heap overflow for ASan, a signed overflow for UBSan) must make a short
# run.sh fail and leave a crash input. Exit 0 when both did.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${MIGRATOR_FUZZ_DIR:-$top/build-fuzz}
mkdir -p "$dir/crashes"
status=0
for plant in plant_overflow plant_ub; do
	rm -f "$dir/crashes/$plant-"*
	if "$top/tests/fuzz/run.sh" 20 "$top/tests/fuzz/planted/$plant.c" >"$dir/selftest-$plant.out" 2>&1; then
		echo "fuzz self-test: run.sh passed with the planted fault $plant" >&2
		status=1
	elif ! ls "$dir/crashes/$plant-"* >/dev/null 2>&1; then
		echo "fuzz self-test: run.sh failed on $plant, but left no crash input" >&2
		tail -20 "$dir/selftest-$plant.out" >&2
		status=1
	else
		echo "fuzz self-test: $plant failed run.sh as it must"
	fi
done
exit $status
