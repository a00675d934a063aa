#!/bin/sh
# Every C file of the project follows .clang-format (Debian 12's clang-format 14):
#   scripts/check-format.sh          list the files that differ, exit 1 if any
#   scripts/check-format.sh --fix    reformat them in place
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
command -v clang-format >/dev/null || "$top/scripts/install-deps.sh"
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find src tests bench -name '*.[ch]')
if [ "${1:-}" = "--fix" ]; then
	# shellcheck disable=SC2086
	clang-format -i --style=file $files
	exit 0
fi
bad=""
for f in $files; do
	clang-format --style=file "$f" | cmp -s - "$f" || bad="$bad $f"
done
if [ -n "$bad" ]; then
	echo "not formatted as .clang-format says (scripts/check-format.sh --fix):$bad" >&2
	exit 1
fi
echo "format: $(echo "$files" | wc -w) C files follow .clang-format"
