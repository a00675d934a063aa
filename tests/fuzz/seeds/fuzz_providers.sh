#!/bin/sh
# Seeds of fuzz_providers: every recorded provider answer of the unit tests'
# fixtures, each behind a byte choosing one of the nine parsers.
# Usage: fuzz_providers.sh TOP CORPUS
set -eu
top=$1 corpus=$2
i=0
for f in "$top"/tests/unit/fixtures/*/*.json; do
	printf '%b\n' "\\0$(printf '%03o' $((i % 9)))" | head -c1 >"$corpus/seed$i"
	printf '\n' >>"$corpus/seed$i"
	cat "$f" >>"$corpus/seed$i"
	i=$((i + 1))
done
