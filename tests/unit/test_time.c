/* Unit tests of the one date and time parser (src/core/datetime.c): every
 * provider's published format (examples from providers.md, section cited),
 * time zones across their DST changes, every field out of range, trailing
 * garbage, hostile zone names and zone files, several threads at once, and
 * a scan of src/ for the libc time calls the project does not use. Expected
 * times were computed with Python's zoneinfo over the same tzdata. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/datetime.h"
#include "core/util.h"

/* s read with forms in zone name (NULL: UTC): the time, or -1 when refused
 * (no valid time here is -1: none is 1969-12-31T23:59:59Z). */
static int64_t
parse_in(const char *s, unsigned forms, const char *zone)
{
	struct tz *z = NULL;
	int64_t t;
	int r;

	if (zone != NULL)
		assert_non_null(z = tz_load(zone));
	r = time_parse(s, forms, z, &t);
	tz_free(z);
	assert_true(r == 0 || r == -1);
	return r == 0 ? t : -1;
}

static int64_t
parse(const char *s, unsigned forms)
{
	return parse_in(s, forms, NULL);
}

/* t as "YYYY-MM-DDTHH:MM:SS" wall clock in zone, and its ISO weekday. */
static const char *
wall_of(int64_t t, const char *zone, char buf[32])
{
	struct tz *z = zone != NULL ? tz_load(zone) : NULL;
	struct time_civil c;

	time_civil_of(t, z, &c);
	tz_free(z);
	snprintf(buf, 32, "%04d-%02d-%02dT%02d:%02d:%02d %d", c.year, c.month, c.day, c.hour, c.minute,
	    c.second, c.weekday);
	return buf;
}

static void
test_provider_formats(void **state)
{
	int secs;

	(void)state;
	/* RFC 3339 with Z: StatusCake maintenance window and last_tested_at (§3.2),
	 * Statuspage subscriber created_at (§8.2), Cronitor window start (§7.2). */
	assert_int_equal(parse("2026-12-01T01:00:00Z", TIME_OFFSET), 1796086800);
	assert_int_equal(parse("2026-11-20T10:00:00Z", TIME_OFFSET), 1795168800);
	assert_int_equal(parse("2024-01-23T04:56:07Z", TIME_OFFSET), 1705985767);
	assert_int_equal(parse("2023-12-01T02:00:00Z", TIME_OFFSET), 1701396000);
	/* RFC 3339 §5.6 allows lower case t and z */
	assert_int_equal(parse("2023-12-01t02:00:00z", TIME_OFFSET), 1701396000);
	/* ±hh:mm: Healthchecks last_ping (§6.2), Cronitor's fixture window */
	assert_int_equal(parse("2020-03-24T14:02:03+00:00", TIME_OFFSET), 1585058523);
	assert_int_equal(parse("2023-12-02T22:30:00+01:00", TIME_OFFSET), 1701552600);
	assert_int_equal(parse("2023-12-02T22:30:00-05:45", TIME_OFFSET), 1701576900);
	/* ±hhmm and fractions (StatusCake's fixture window 14) */
	assert_int_equal(parse("2026-12-07T07:45:00+0100", TIME_OFFSET), 1796625900);
	assert_int_equal(parse("2026-12-07T07:00:00.000+01:00", TIME_OFFSET), 1796623200);
	assert_int_equal(parse("2026-12-07T06:00:00.123456789Z", TIME_OFFSET), 1796623200);
	/* date only: Statuspage component start_date (§8.2), WHMCS datecreated,
	 * duedate (§9.2) */
	assert_int_equal(parse("2024-01-01", TIME_DATE), 1704067200);
	assert_int_equal(parse("2016-01-15", TIME_DATE), 1452816000);
	assert_int_equal(parse("2020-12-30", TIME_ISO), 1609286400);
	/* WHMCS "Y-m-d H:i:s" and its "no date" (§9.2 GetInvoice datepaid) */
	assert_int_equal(parse("2016-01-15 10:20:30", TIME_WALL), 1452853230);
	assert_int_equal(time_parse("0000-00-00 00:00:00", TIME_ISO | TIME_ZERO, NULL, &(int64_t){ 0 }), 1);
	assert_int_equal(time_parse("0000-00-00", TIME_ISO | TIME_ZERO, NULL, &(int64_t){ 0 }), 1);
	assert_int_equal(parse("0000-00-00", TIME_ISO), -1); /* only when asked for */
	assert_int_equal(parse("0000-00-00 00:00:01", TIME_ISO | TIME_ZERO), -1);
	/* MySQL DATETIME(6), as the database layer reads it */
	assert_int_equal(parse("2026-11-21 18:04:05.123456", TIME_WALL), 1795284245);
	/* Unix seconds: UptimeRobot create_datetime (§1.2), Pingdom created and
	 * maintenance from (§2.2), UptimeRobot X-RateLimit-Reset (§1.4) */
	assert_int_equal(parse("1462565497", TIME_EPOCH), 1462565497);
	assert_int_equal(parse("1297446423", TIME_EPOCH), 1297446423);
	assert_int_equal(parse("1497520800", TIME_EPOCH), 1497520800);
	assert_int_equal(parse("0", TIME_EPOCH), 0);
	assert_int_equal(parse("253402300799", TIME_EPOCH), TIME_MAX);
	assert_int_equal(parse("253402300800", TIME_EPOCH), -1);
	assert_int_equal(parse("0000000000001", TIME_EPOCH), -1); /* 13 digits */
	/* HTTP-date (RFC 9110 §5.6.7's examples), Retry-After of every provider (§12) */
	assert_int_equal(parse("Sun, 06 Nov 1994 08:49:37 GMT", TIME_HTTP), 784111777);
	assert_int_equal(parse("Sunday, 06-Nov-94 08:49:37 GMT", TIME_HTTP), 784111777);
	assert_int_equal(parse("Sun Nov  6 08:49:37 1994", TIME_HTTP), 784111777);
	assert_int_equal(parse("Wed, 21 Oct 2015 07:28:00 GMT", TIME_HTTP), 1445412480);
	assert_int_equal(parse("Thu, 01 Jan 2065 00:00:00 GMT", TIME_HTTP), 2997993600);
	assert_int_equal(parse("Thursday, 01-Jan-65 00:00:00 GMT", TIME_HTTP), 2997993600);
	assert_int_equal(parse("Thu Dec 24 23:59:60 2026", TIME_HTTP), 1798156800);
	/* clocks: UptimeRobot getMWindows start_time and v3 time "03:30" (§1.2,
	 * §1.3), Better Stack maintenance_from "01:00:00" (§4.2) */
	assert_int_equal(time_parse_clock("03:30", &secs), 0);
	assert_int_equal(secs, 12600);
	assert_int_equal(time_parse_clock("01:00:00", &secs), 0);
	assert_int_equal(secs, 3600);
	assert_int_equal(time_parse_clock("3:30", &secs), 0);
	assert_int_equal(secs, 12600);
	assert_int_equal(time_parse_clock("23:59:59", &secs), 0);
	assert_int_equal(secs, 86399);
}

static void
test_forms_are_asked_for(void **state)
{
	(void)state;
	/* each form only where the caller accepts it */
	assert_int_equal(parse("2026-12-01T01:00:00Z", TIME_WALL | TIME_DATE), -1);
	assert_int_equal(parse("2026-12-01T01:00:00", TIME_OFFSET), -1);
	assert_int_equal(parse("2026-12-01", TIME_WALL | TIME_OFFSET), -1);
	assert_int_equal(parse("1462565497", TIME_ISO | TIME_HTTP), -1);
	assert_int_equal(parse("Sun, 06 Nov 1994 08:49:37 GMT", TIME_ISO | TIME_EPOCH), -1);
	assert_int_equal(parse(NULL, TIME_ISO), -1);
	assert_int_equal(parse("", TIME_ISO | TIME_EPOCH | TIME_HTTP), -1);
	/* an offset wins over the zone given */
	assert_int_equal(parse_in("2026-12-01T01:00:00Z", TIME_OFFSET, "Europe/Berlin"), 1796086800);
	/* a date alone is midnight in the zone */
	assert_int_equal(parse_in("2026-12-01", TIME_DATE, "Europe/Berlin"), 1796079600);
}

static void
test_fields_in_range(void **state)
{
	static const char *const bad[] = {
		"0000-01-01T00:00:00Z", /* year 0 */
		"2026-00-10T00:00:00Z", "2026-13-10T00:00:00Z", "2026-01-00T00:00:00Z",
		"2026-01-32T00:00:00Z", "2026-04-31T00:00:00Z", "2026-06-31T00:00:00Z",
		"2026-09-31T00:00:00Z", "2026-11-31T00:00:00Z", "2023-02-29T00:00:00Z",
		"1900-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2024-02-30T00:00:00Z",
		"2026-01-10T24:00:00Z", "2026-01-10T23:60:00Z", "2026-01-10T23:59:61Z",
		"2026-01-10T23:59:00+24:00", "2026-01-10T23:59:00+01:60", "2026-01-10T23:59:00+1",
		"2026-01-10T23:59:00+01:0", "2026-01-10T23:59:00.1234567890Z", /* ten digits of fraction */
		"2026-01-10T23:59:00.Z", "2026-1-10T23:59:00Z", "26-01-10T23:59:00Z", "2026-01-10T2:59:00Z",
		"2026-01-10T23:5:00Z", "2026-01-10T23:59:0Z", "2026-01-10X23:59:00Z", "2026/01/10T23:59:00Z",
		"-2026-01-10T23:59:00Z", "+2026-01-10T23:59:00Z", "20260110T235900Z", "2026-01-10T",
		"9999-12-31T23:59:59-00:01", /* past TIME_MAX */
		"0001-01-01T00:00:00+00:01", /* before TIME_MIN */
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int64_t t = 42;

		if (time_parse(bad[i], TIME_ISO, NULL, &t) != -1)
			fail_msg("accepted %s", bad[i]);
		assert_int_equal(t, 42); /* untouched */
	}
	/* the limits themselves */
	assert_int_equal(parse("2024-02-29T00:00:00Z", TIME_OFFSET), 1709164800);
	assert_int_equal(parse("2000-02-29", TIME_DATE), 951782400);
	assert_int_equal(parse("2026-12-31T23:59:60Z", TIME_OFFSET), 1798761600);
	assert_int_equal(parse("2026-01-31T23:59:59+23:59", TIME_OFFSET), 1769817659);
	assert_int_equal(parse("0001-01-01T00:00:00Z", TIME_OFFSET), TIME_MIN);
	assert_int_equal(parse("9999-12-31T23:59:59Z", TIME_OFFSET), TIME_MAX);
	assert_int_equal(parse("1969-12-31T23:59:58Z", TIME_OFFSET), -2);

	/* HTTP dates: the weekday is the date's, case matters, GMT only */
	assert_int_equal(parse("Mon, 06 Nov 1994 08:49:37 GMT", TIME_HTTP), -1);
	assert_int_equal(parse("sun, 06 Nov 1994 08:49:37 GMT", TIME_HTTP), -1);
	assert_int_equal(parse("Sun, 06 nov 1994 08:49:37 GMT", TIME_HTTP), -1);
	assert_int_equal(parse("Sun, 06 Nov 1994 08:49:37 gmt", TIME_HTTP), -1);
	assert_int_equal(parse("Sun, 06 Nov 1994 08:49:37 UTC", TIME_HTTP), -1);
	assert_int_equal(parse("Sun, 6 Nov 1994 08:49:37 GMT", TIME_HTTP), -1);
	assert_int_equal(parse("Sun, 31 Nov 1994 08:49:37 GMT", TIME_HTTP), -1);
	assert_int_equal(parse("Sun, 06 Nov 1994 24:49:37 GMT", TIME_HTTP), -1);
	assert_int_equal(parse("Sun, 06 Nov 1994 08:49:61 GMT", TIME_HTTP), -1);
	assert_int_equal(parse("Sund, 06 Nov 1994 08:49:37 GMT", TIME_HTTP), -1);
	assert_int_equal(parse("Sun, 06-Nov-94 08:49:37 GMT", TIME_HTTP), -1);
	assert_int_equal(parse("Sun Nov 06 08:49:37 1994", TIME_HTTP), 784111777);
	assert_int_equal(parse("Sun Nov 6 08:49:37 1994", TIME_HTTP), -1);

	/* clocks */
	static const char *const bad_clocks[] = { "24:00", "23:60", "23:59:60", "123:00", "03:3", "03:30:5",
		"03", "03:", ":30", "-1:30", "03h30", "" };
	for (size_t i = 0; i < sizeof bad_clocks / sizeof bad_clocks[0]; i++) {
		int secs = 42;

		if (time_parse_clock(bad_clocks[i], &secs) != -1)
			fail_msg("accepted the clock %s", bad_clocks[i]);
		assert_int_equal(secs, 42);
	}
	assert_int_equal(time_parse_clock(NULL, &(int){ 0 }), -1);
}

static void
test_trailing_garbage(void **state)
{
	static const char *const bad[] = {
		"2026-12-01T01:00:00Zx",
		"2026-12-01T01:00:00Z ",
		" 2026-12-01T01:00:00Z",
		"2026-12-01T01:00:00+01:00x",
		"2026-12-01T01:00:00+01:00:00",
		"2026-12-01 ",
		"2026-12-01x",
		"2026-12-01T01:00:00.5.5Z",
		"2026-12-01 01:00:00\n",
		"1462565497 ",
		" 1462565497",
		"1462565497x",
		"1462565497.5",
		"-1462565497",
		"+1462565497",
		"Sun, 06 Nov 1994 08:49:37 GMT ",
		"Sun, 06 Nov 1994 08:49:37 GMTx",
		"Sun Nov  6 08:49:37 19945",
		"0000-00-00x",
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (time_parse(bad[i], TIME_ISO | TIME_EPOCH | TIME_HTTP | TIME_ZERO, NULL,
		        &(int64_t){ 0 }) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
	assert_int_equal(time_parse_clock("03:30 ", &(int){ 0 }), -1);
	assert_int_equal(time_parse_clock("03:30:00Z", &(int){ 0 }), -1);
}

static void
test_zones_and_dst(void **state)
{
	char b[32];

	(void)state;
	/* Europe/Berlin: summer time from the last Sunday of March, 02:00 CET,
	 * to the last Sunday of October, 03:00 CEST (2026-03-29, 2026-10-25) */
	assert_int_equal(parse_in("2026-03-29T01:59:59", TIME_WALL, "Europe/Berlin"), 1774745999);
	assert_int_equal(parse_in("2026-03-29T03:00:00", TIME_WALL, "Europe/Berlin"), 1774746000);
	/* 02:30 does not exist: read with the offset before the gap (= 03:30 CEST) */
	assert_int_equal(parse_in("2026-03-29T02:30:00", TIME_WALL, "Europe/Berlin"), 1774747800);
	/* 02:30 happens twice: the first one (CEST) */
	assert_int_equal(parse_in("2026-10-25T02:30:00", TIME_WALL, "Europe/Berlin"), 1792888200);
	assert_int_equal(parse_in("2026-10-25T01:59:59", TIME_WALL, "Europe/Berlin"), 1792886399);
	assert_int_equal(parse_in("2026-10-25T03:00:00", TIME_WALL, "Europe/Berlin"), 1792893600);
	assert_string_equal(wall_of(1774745999, "Europe/Berlin", b), "2026-03-29T01:59:59 7");
	assert_string_equal(wall_of(1774746000, "Europe/Berlin", b), "2026-03-29T03:00:00 7");
	assert_string_equal(wall_of(1792889999, "Europe/Berlin", b), "2026-10-25T02:59:59 7");
	assert_string_equal(wall_of(1792890000, "Europe/Berlin", b), "2026-10-25T02:00:00 7");
	/* the zone's older rules (transitions, not the footer) */
	assert_int_equal(parse_in("1980-07-01 12:00:00", TIME_WALL, "Europe/Berlin"), 331293600);
	assert_int_equal(parse_in("1985-07-01 12:00:00", TIME_WALL, "Europe/Berlin"), 489060000);

	/* America/New_York: second Sunday of March, first Sunday of November */
	assert_int_equal(parse_in("2026-03-08T01:59:59", TIME_WALL, "America/New_York"), 1772953199);
	assert_int_equal(parse_in("2026-03-08T02:30:00", TIME_WALL, "America/New_York"), 1772955000);
	assert_int_equal(parse_in("2026-03-08T03:00:00", TIME_WALL, "America/New_York"), 1772953200);
	assert_int_equal(parse_in("2026-11-01T01:30:00", TIME_WALL, "America/New_York"), 1793511000);
	assert_int_equal(parse_in("2026-11-01T02:00:00", TIME_WALL, "America/New_York"), 1793516400);
	/* past the last transition of the file: its POSIX TZ footer */
	assert_int_equal(parse_in("2100-07-04T12:00:00", TIME_WALL, "America/New_York"), 4118400000);
	assert_int_equal(parse_in("2100-12-25T12:00:00", TIME_WALL, "America/New_York"), 4133437200);
	assert_string_equal(wall_of(4118400000, "America/New_York", b), "2100-07-04T12:00:00 7");
	assert_string_equal(wall_of(4133437200, "America/New_York", b), "2100-12-25T12:00:00 6");

	/* Australia/Lord_Howe: +10:30, and +11 (30 minutes of DST) from the first
	 * Sunday of October, 02:00, to the first Sunday of April, 02:00 */
	assert_int_equal(parse_in("2026-04-05T01:45:00", TIME_WALL, "Australia/Lord_Howe"), 1775313900);
	assert_int_equal(parse_in("2026-04-05T02:00:00", TIME_WALL, "Australia/Lord_Howe"), 1775316600);
	assert_int_equal(parse_in("2026-10-04T02:15:00", TIME_WALL, "Australia/Lord_Howe"), 1791042300);
	assert_int_equal(parse_in("2026-10-04T02:30:00", TIME_WALL, "Australia/Lord_Howe"), 1791041400);
	assert_int_equal(parse_in("2026-07-01T12:00:00", TIME_WALL, "Australia/Lord_Howe"), 1782869400);
	assert_int_equal(parse_in("2026-12-25T12:00:00", TIME_WALL, "Australia/Lord_Howe"), 1798160400);
	assert_string_equal(wall_of(1775314799, "Australia/Lord_Howe", b), "2026-04-05T01:59:59 7");
	assert_string_equal(wall_of(1775314800, "Australia/Lord_Howe", b), "2026-04-05T01:30:00 7");

	/* Asia/Kathmandu: +05:45 (and +05:30 before 1986) */
	assert_int_equal(parse_in("2026-01-01 00:00", TIME_WALL, "Asia/Kathmandu"), 1767204900);
	assert_int_equal(parse_in("1985-06-01 00:00", TIME_WALL, "Asia/Kathmandu"), 486412200);
	assert_string_equal(wall_of(1767204900, "Asia/Kathmandu", b), "2026-01-01T00:00:00 4");

	/* UTC, under its names, and as no zone */
	assert_int_equal(parse_in("2026-12-01T01:00:00", TIME_WALL, "UTC"), 1796086800);
	assert_int_equal(parse_in("2026-12-01T01:00:00", TIME_WALL, "Etc/UTC"), 1796086800);
	assert_int_equal(parse_in("2026-12-01T01:00:00", TIME_WALL, NULL), 1796086800);
	assert_string_equal(wall_of(1796086800, NULL, b), "2026-12-01T01:00:00 2");
	assert_string_equal(wall_of(-1, NULL, b), "1969-12-31T23:59:59 3");
	assert_string_equal(wall_of(TIME_MIN, NULL, b), "0001-01-01T00:00:00 1");
	assert_string_equal(wall_of(TIME_MAX, NULL, b), "9999-12-31T23:59:59 5");
}

static void
test_zone_names(void **state)
{
	static const char *const hostile[] = { "../../etc/passwd", "/etc/localtime",
		"Europe/../../../etc/passwd", "..", ".", "Europe/Berlin\n", "Europe/Berlin ",
		"Europe\\Berlin", "Europe/Berlin;rm", "", NULL };
	struct tz *z;
	char longname[300];

	(void)state;
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		assert_false(tz_name_valid(hostile[i]));
		assert_null(tz_load(hostile[i]));
	}
	memset(longname, 'A', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	assert_false(tz_name_valid(longname));
	/* names that pass the check but are no zone */
	assert_true(tz_name_valid("Mars/Olympus_Mons"));
	assert_null(tz_load("Mars/Olympus_Mons"));
	assert_null(tz_load("Europe"));   /* a folder */
	assert_null(tz_load("zone.tab")); /* not TZif */
	assert_true(tz_name_valid("Etc/GMT+5"));
	assert_non_null(z = tz_load("Etc/GMT+5"));
	assert_int_equal(tz_offset_at(z, 0), -5 * 3600);
	tz_free(z);
	assert_true(tz_name_valid("America/Port-au-Prince"));
}

/* A version 1 TZif file: two transitions (the second one to type 1), two types. */
static size_t
tzif_v1(unsigned char *b, uint32_t leapcnt, int32_t second_at)
{
	static const unsigned char hdr[] = { 'T', 'Z', 'i', 'f', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0 };
	uint32_t counts[6] = { 0, 0, leapcnt, 2, 2, 8 };
	int32_t at[2] = { 1000, second_at };
	size_t n = 0;

	memcpy(b, hdr, sizeof hdr);
	n = sizeof hdr;
	for (int i = 0; i < 6; i++, n += 4)
		b[n] = (unsigned char)(counts[i] >> 24), b[n + 1] = (unsigned char)(counts[i] >> 16),
		b[n + 2] = (unsigned char)(counts[i] >> 8), b[n + 3] = (unsigned char)counts[i];
	for (int i = 0; i < 2; i++, n += 4)
		b[n] = (unsigned char)((uint32_t)at[i] >> 24),
		b[n + 1] = (unsigned char)((uint32_t)at[i] >> 16),
		b[n + 2] = (unsigned char)((uint32_t)at[i] >> 8), b[n + 3] = (unsigned char)at[i];
	b[n++] = 0;
	b[n++] = 1;
	/* type 0: +1 h, type 1: +2 h (dst) */
	memcpy(b + n, "\0\0\x0e\x10\0\0\0\0\x1c\x20\1\4", 12);
	n += 12;
	memcpy(b + n, "AAA\0BBB\0", 8);
	n += 8;
	memset(b + n, 0, 8 * leapcnt);
	return n + 8 * leapcnt;
}

static void
test_zone_files(void **state)
{
	unsigned char b[256], file[8192];
	size_t n, nl;
	struct tz *z;
	FILE *f;

	(void)state;
	/* version 1 data alone */
	n = tzif_v1(b, 0, 2000);
	assert_non_null(z = tz_parse(b, n));
	assert_int_equal(tz_offset_at(z, 999), 3600); /* before the first: type 0 */
	assert_int_equal(tz_offset_at(z, 1000), 3600);
	assert_int_equal(tz_offset_at(z, 1999), 3600);
	assert_int_equal(tz_offset_at(z, 2000), 7200);
	assert_int_equal(tz_offset_at(z, TIME_MAX), 7200);
	tz_free(z);
	/* leap seconds, transitions out of order, bad magic: refused */
	n = tzif_v1(b, 1, 2000);
	assert_null(tz_parse(b, n));
	n = tzif_v1(b, 0, 1000);
	assert_null(tz_parse(b, n));
	n = tzif_v1(b, 0, 2000);
	b[3] = 'F';
	assert_null(tz_parse(b, n));
	/* a type index out of range */
	n = tzif_v1(b, 0, 2000);
	b[44 + 9] = 2;
	assert_null(tz_parse(b, n));

	/* every cut of a real file is refused or read, never read past */
	assert_non_null(f = fopen(ZONEINFO_DIR "/Europe/Berlin", "rb"));
	n = fread(file, 1, sizeof file, f);
	fclose(f);
	assert_true(n > 100 && n < sizeof file);
	assert_non_null(z = tz_parse(file, n));
	assert_int_equal(tz_offset_at(z, 1774746000), 7200);
	tz_free(z);
	for (size_t cut = 0; cut < n; cut++) {
		unsigned char *copy = malloc(cut ? cut : 1);

		memcpy(copy, file, cut);
		z = tz_parse(copy, cut);
		assert_null(z);
		free(copy);
	}
	/* the footer rules past the last transition (2037 in this file) */
	for (nl = n - 2; file[nl] != '\n'; nl--)
		;
	memcpy(file + nl, "\nCET-1\n", 7);
	assert_non_null(z = tz_parse(file, nl + 7));
	assert_int_equal(tz_offset_at(z, 4118400000), 3600); /* July 2100: no more summer time */
	tz_free(z);
	/* a footer that is not a POSIX TZ rule */
	memcpy(file + nl, "\nXX-1\n", 6);
	assert_null(tz_parse(file, nl + 6));
}

/* ---- several threads at once ---- */

static const struct {
	const char *text, *zone;
} mt_cases[] = {
	{ "2026-03-29T02:30:00", "Europe/Berlin" },
	{ "2026-10-25T02:30:00", "Europe/Berlin" },
	{ "2026-11-01T01:30:00", "America/New_York" },
	{ "2100-07-04T12:00:00", "America/New_York" },
	{ "2026-04-05T01:45:00", "Australia/Lord_Howe" },
	{ "2026-10-04T02:15:00", "Australia/Lord_Howe" },
	{ "2026-01-01 00:00", "Asia/Kathmandu" },
	{ "2026-12-01T01:00:00", "UTC" },
	{ "2026-12-07T07:00:00.000+01:00", "Europe/London" },
	{ "1985-07-01 12:00:00", "Europe/Berlin" },
};
#define MT_N       (sizeof mt_cases / sizeof mt_cases[0])
#define MT_THREADS 4
#define MT_ROUNDS  200

struct mt_result {
	int64_t t[MT_N];
	struct time_civil c[MT_N];
};

static void
mt_run(struct mt_result *r)
{
	for (size_t i = 0; i < MT_N; i++) {
		struct tz *z = tz_load(mt_cases[i].zone);

		if (z == NULL || time_parse(mt_cases[i].text, TIME_WALL | TIME_OFFSET, z, &r->t[i]) != 0)
			r->t[i] = -1;
		time_civil_of(r->t[i] + 12345, z, &r->c[i]);
		tz_free(z);
	}
}

struct mt_arg {
	const struct mt_result *want;
	int differ;
};

static void *
mt_main(void *p)
{
	struct mt_arg *a = p;
	struct mt_result got;

	for (int round = 0; round < MT_ROUNDS; round++) {
		mt_run(&got);
		a->differ += memcmp(&got, a->want, sizeof got) != 0;
	}
	return NULL;
}

static void
test_threads(void **state)
{
	struct mt_result want;
	struct mt_arg args[MT_THREADS];
	pthread_t th[MT_THREADS];

	(void)state;
	memset(&want, 0, sizeof want);
	mt_run(&want);
	for (size_t i = 0; i < MT_N; i++)
		assert_true(want.t[i] > 0);
	for (int i = 0; i < MT_THREADS; i++) {
		args[i] = (struct mt_arg){ &want, 0 };
		assert_int_equal(pthread_create(&th[i], NULL, mt_main, &args[i]), 0);
	}
	for (int i = 0; i < MT_THREADS; i++) {
		assert_int_equal(pthread_join(th[i], NULL), 0);
		assert_int_equal(args[i].differ, 0);
	}
}

/* ---- writing ---- */

static void
test_format_and_mysql(void **state)
{
	char iso[21], date[11];

	(void)state;
	assert_int_equal(time_format_iso(1462565497, true, iso), 0);
	assert_string_equal(iso, "2016-05-06T20:11:37Z");
	assert_int_equal(time_format_iso(1462565497, false, iso), 0);
	assert_string_equal(iso, "2016-05-06T20:11:37");
	assert_int_equal(time_format_iso(TIME_MIN, true, iso), 0);
	assert_string_equal(iso, "0001-01-01T00:00:00Z");
	assert_int_equal(time_format_iso(TIME_MAX + 1, true, iso), -1);
	assert_string_equal(iso, "");
	assert_int_equal(time_format_date(1705985767, date), 0);
	assert_string_equal(date, "2024-01-23");
	assert_int_equal(time_format_date(TIME_MIN - 1, date), -1);

	/* the database layer's DATETIME text, every digit checked */
	assert_int_equal(time_mysql_to_iso("2026-11-21 18:04:05.123456", iso), 0);
	assert_string_equal(iso, "2026-11-21T18:04:05Z");
	assert_int_equal(time_mysql_to_iso("2026-11-21 18:04:05", iso), 0);
	assert_string_equal(iso, "2026-11-21T18:04:05Z");
	assert_int_equal(time_mysql_to_iso("2026-11-21", iso), -1);
	assert_int_equal(time_mysql_to_iso("2026-1x-21 18:04:05", iso), -1);
	assert_int_equal(time_mysql_to_iso("2026-13-21 18:04:05", iso), -1);
	assert_int_equal(time_mysql_to_iso("2026-11-21 18:04:05+01:00", iso), -1);
	assert_int_equal(time_mysql_to_iso("2026-11-21 18:04:05 trailing", iso), -1);
	assert_int_equal(time_mysql_to_iso("\"},{\"x\":\"2026-11-21 1", iso), -1);
	assert_int_equal(time_mysql_to_iso(NULL, iso), -1);
}

/* ---- no libc time zone machinery in src/ ---- */

static const char *const forbidden[] = { "setenv", "unsetenv", "putenv", "tzset", "localtime", "localtime_r",
	"mktime", "timegm", "strptime", "getdate", "curl_getdate" };

static bool
ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The forbidden function text calls (a name, then '(' after any blanks), or NULL. */
static const char *
forbidden_call(const char *text)
{
	for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++) {
		size_t n = strlen(forbidden[i]);

		for (const char *p = strstr(text, forbidden[i]); p != NULL; p = strstr(p + 1, forbidden[i])) {
			const char *q = p + n;

			if ((p > text && ident_char(p[-1])) || ident_char(*q))
				continue;
			while (*q == ' ' || *q == '\t' || *q == '\n')
				q++;
			if (*q == '(')
				return forbidden[i];
		}
	}
	return NULL;
}

static char offenders[4096];
static int files_seen;

static int
scan_file(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	size_t len = strlen(path);
	const char *hit;
	char *text;
	FILE *f;

	(void)ftw;
	if (flag != FTW_F || len < 2 || path[len - 2] != '.' ||
	    (path[len - 1] != 'c' && path[len - 1] != 'h'))
		return 0;
	if ((f = fopen(path, "rb")) == NULL)
		return 1;
	text = calloc(1, (size_t)st->st_size + 1);
	if (fread(text, 1, (size_t)st->st_size, f) != (size_t)st->st_size)
		snprintf(text, 2, "?");
	fclose(f);
	files_seen++;
	if ((hit = forbidden_call(text)) != NULL)
		snprintf(offenders + strlen(offenders), sizeof offenders - strlen(offenders), " %s (%s)",
		    path, hit);
	free(text);
	return 0;
}

static void
test_no_libc_time_zones_in_src(void **state)
{
	(void)state;
	/* the check can fail */
	assert_string_equal(forbidden_call("\tsetenv(\"TZ\", tz, 1);\n\ttzset();"), "setenv");
	assert_string_equal(forbidden_call("x = mktime (&tm);"), "mktime");
	assert_string_equal(forbidden_call("unsetenv(\"TZ\")"), "unsetenv");
	assert_string_equal(forbidden_call("t = curl_getdate(buf, NULL);"), "curl_getdate");
	assert_string_equal(forbidden_call("localtime_r(&t, &tm)"), "localtime_r");
	assert_null(forbidden_call("/* no localtime here */ gmtime_r(&t, &tm); my_mktime_helper(1);"));

	assert_int_equal(nftw(TEST_SRCDIR "/src", scan_file, 16, FTW_PHYS), 0);
	assert_true(files_seen > 50);
	if (offenders[0] != '\0')
		fail_msg("libc time zone or date parsing calls in:%s", offenders);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_provider_formats),
		cmocka_unit_test(test_forms_are_asked_for),
		cmocka_unit_test(test_fields_in_range),
		cmocka_unit_test(test_trailing_garbage),
		cmocka_unit_test(test_zones_and_dst),
		cmocka_unit_test(test_zone_names),
		cmocka_unit_test(test_zone_files),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_format_and_mysql),
		cmocka_unit_test(test_no_libc_time_zones_in_src),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
