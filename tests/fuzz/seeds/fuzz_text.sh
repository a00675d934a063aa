#!/bin/sh
# Seed of fuzz_text's config half: the example config.
# Usage: fuzz_text.sh TOP CORPUS
set -eu
{ printf '\000'; cat "$1/migrator.conf.example.in"; } >"$2/conf"
