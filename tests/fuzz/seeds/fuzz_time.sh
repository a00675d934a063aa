#!/bin/sh
# Seeds of fuzz_time: every provider's published format (providers.md) with
# each forms byte, and the system's zone files for tz_parse.
# Usage: fuzz_time.sh TOP CORPUS
set -eu
i=0
for s in 2026-12-01T01:00:00Z 2020-03-24T14:02:03+00:00 2026-12-07T07:45:00+0100 \
	2026-12-07T07:00:00.000+01:00 2024-01-01 "2016-01-15 10:20:30" "2026-11-21 18:04:05.123456" \
	0000-00-00 "0000-00-00 00:00:00" 1462565497 "Sun, 06 Nov 1994 08:49:37 GMT" \
	"Sunday, 06-Nov-94 08:49:37 GMT" "Sun Nov  6 08:49:37 1994" 03:30 01:00:00 2026-03-29T02:30:00; do
	# forms 0x3f (all), zones none, Berlin, Lord Howe, Kathmandu
	for b in 077 177 277 377; do
		[ "$b" = 377 ] && b=337 # 0xff is the TZif byte: Kathmandu with all forms but TIME_ZERO
		printf "\\$b%s" "$s" >"$2/text-$i-$b"
	done
	i=$((i + 1))
done
for z in Europe/Berlin America/New_York Australia/Lord_Howe Asia/Kathmandu Etc/UTC; do
	[ -f "/usr/share/zoneinfo/$z" ] || continue
	{ printf '\377'; cat "/usr/share/zoneinfo/$z"; } >"$2/tzif-$(echo "$z" | tr / _)"
done
