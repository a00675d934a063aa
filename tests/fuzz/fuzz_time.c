/* libFuzzer target: the one date and time parser (src/core/datetime.c) on
 * any bytes. Input: a byte, then the rest. Byte 0xff: the rest is a TZif
 * file for tz_parse. Else the rest is text for time_parse, its low 6 bits
 * the forms and its top 2 bits a zone, and for time_parse_clock. Besides
 * the sanitizers, an oracle: what is read is in range, and a time read is
 * written and read back to itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/datetime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const zones[4] = { NULL, "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu" };

/* A loaded zone that reads its offsets in range and converts wall clocks
 * to times within a day of them. */
static void
check_zone(const struct tz *z)
{
	static const int64_t at[] = { TIME_MIN, -1, 0, 1774746000, 2147483648, 4118400000, TIME_MAX };
	static const char *const walls[] = { "2026-03-29T02:30:00", "2026-10-25T02:30:00", "0001-01-01",
		"9999-12-31T23:59:59" };
	int64_t t, l;
	struct time_civil c;

	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		int32_t off = tz_offset_at(z, at[i]);

		if (off < -89999 || off > 93599)
			abort();
		time_civil_of(at[i], z, &c);
		if (c.month < 1 || c.month > 12 || c.day < 1 || c.day > 31 || c.hour > 23 || c.weekday < 1 ||
		    c.weekday > 7)
			abort();
	}
	for (size_t i = 0; i < sizeof walls / sizeof walls[0]; i++)
		if (time_parse(walls[i], TIME_ISO, z, &t) == 0 &&
		    time_parse(walls[i], TIME_ISO, NULL, &l) == 0 && (t < l - 93600 || t > l + 93600))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tz *loaded[4];
	static int ready;
	char *text, iso[21];
	int64_t t, back;
	int secs;

	if (size < 1)
		return 0;
	if (!ready) { /* the zones once: the target reads no file per input */
		for (int i = 1; i < 4; i++)
			loaded[i] = tz_load(zones[i]);
		ready = 1;
	}
	if (data[0] == 0xff) {
		struct tz *z = tz_parse(data + 1, size - 1);

		if (z != NULL)
			check_zone(z);
		tz_free(z);
		return 0;
	}
	text = strndup((const char *)data + 1, size - 1);
	if (time_parse(text, data[0] & 0x3f, loaded[data[0] >> 6], &t) == 0) {
		if (t < TIME_MIN || t > TIME_MAX || time_format_iso(t, true, iso) != 0 ||
		    time_parse(iso, TIME_OFFSET, NULL, &back) != 0 || back != t)
			abort();
	}
	if (time_parse_clock(text, &secs) == 0 && (secs < 0 || secs > 86399))
		abort();
	free(text);
	return 0;
}
