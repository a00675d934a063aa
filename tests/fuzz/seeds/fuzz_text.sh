#!/bin/sh
# Seed of fuzz_text (the config reader): the example config.
# Usage: fuzz_text.sh TOP CORPUS
set -eu
cp "$1/migrator.conf.example.in" "$2/conf"
