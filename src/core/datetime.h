/* The one date and time parser: the formats the providers publish (RFC 3339
 * and ISO 8601 date-times, dates, MySQL DATETIME, Unix seconds, HTTP dates,
 * the clock of a day), wall-clock times in a named IANA zone read from the
 * system's TZif files (RFC 8536), and the few ways a time is written back.
 * No global state, no environment, no libc time zone: safe on any thread. */
#ifndef MIGRATOR_DATETIME_H
#define MIGRATOR_DATETIME_H
#include <stdbool.h>
#include <stdint.h>

/* Times are seconds since 1970-01-01T00:00:00Z (leap seconds not counted),
 * from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z. */
#define TIME_MIN INT64_C(-62135596800)
#define TIME_MAX INT64_C(253402300799)

/* The forms time_parse accepts, or'ed. Every form is read whole (nothing
 * may follow it) and every field in its range: year 0001-9999, month 1-12,
 * day 1 to the length of that month (29 February in leap years only), hour
 * 0-23, minute 0-59, second 0-60, offset hours 0-23 and minutes 0-59. */
enum {
	/* "YYYY-MM-DD": midnight, wall clock in the zone. */
	TIME_DATE = 1 << 0,
	/* "YYYY-MM-DD" then 'T', 't' or ' ', "HH:MM[:SS[.f]]" (1 to 9 digits of
	 * fraction, dropped), no offset: wall clock in the zone. Holds MySQL
	 * DATETIME ("YYYY-MM-DD HH:MM:SS[.ffffff]") and WHMCS "Y-m-d H:i:s". */
	TIME_WALL = 1 << 1,
	/* The same with an offset: 'Z', 'z', "+hh:mm", "-hh:mm", "+hhmm" or
	 * "-hhmm" (RFC 3339 §5.6; the zone is not used). */
	TIME_OFFSET = 1 << 2,
	/* Unix seconds: 1 to 12 decimal digits, at most TIME_MAX. */
	TIME_EPOCH = 1 << 3,
	/* An HTTP-date (RFC 9110 §5.6.7): IMF-fixdate "Sun, 06 Nov 1994 08:49:37
	 * GMT", or the obsolete "Sunday, 06-Nov-94 08:49:37 GMT" (years 70-99
	 * are 19xx, 00-69 20xx) and asctime "Sun Nov  6 08:49:37 1994"; case
	 * sensitive, and the weekday must be the date's. */
	TIME_HTTP = 1 << 4,
	/* WHMCS's "no date": "0000-00-00" or "0000-00-00 00:00:00" (returns 1). */
	TIME_ZERO = 1 << 5,
};
#define TIME_ISO (TIME_DATE | TIME_WALL | TIME_OFFSET)

/* Where the system keeps its TZif files (tzdata). */
#ifndef ZONEINFO_DIR
#define ZONEINFO_DIR "/usr/share/zoneinfo"
#endif

/* A time zone loaded from a TZif file; its own _free. */
struct tz;

/* A time broken down as a calendar date and a clock. */
struct time_civil {
	int year, month, day;     /* 1-9999, 1-12, 1-31 */
	int hour, minute, second; /* 0-23, 0-59, 0-59 */
	int weekday;              /* ISO: 1 Monday .. 7 Sunday */
};

/* Parse all of s as one of forms into *out (seconds since 1970). A wall
 * clock is read in zone (NULL: UTC); one a DST change skips is read with the
 * offset before the gap, one it repeats as its first occurrence (RFC 5545
 * §3.3.5). Returns 0, 1 for TIME_ZERO's "no date" (*out untouched), or -1
 * when s is NULL or not exactly one of forms with every field in range. */
int time_parse(const char *s, unsigned forms, const struct tz *zone, int64_t *out);
/* Parse all of s as a clock "H:MM", "HH:MM" or "HH:MM:SS" into *secs
 * (seconds after midnight, 0-86399). Returns 0 or -1. */
int time_parse_clock(const char *s, int *secs);
/* t as wall-clock time in zone (NULL: UTC); t is taken within
 * TIME_MIN..TIME_MAX. */
void time_civil_of(int64_t t, const struct tz *zone, struct time_civil *out);
/* t as "YYYY-MM-DDTHH:MM:SSZ" in UTC into out[21]; without the 'Z' when
 * !zulu (a wall clock whose zone is said elsewhere). Returns 0, or -1 (out
 * "") when t is outside TIME_MIN..TIME_MAX. */
int time_format_iso(int64_t t, bool zulu, char out[21]);
/* The UTC date of t as "YYYY-MM-DD" into out[11]. Returns 0, or -1 (out "")
 * when t is outside TIME_MIN..TIME_MAX. */
int time_format_date(int64_t t, char out[11]);

/* True when name may be looked up as a zone: 1-255 bytes of [A-Za-z0-9_+-/],
 * not starting with '/' (no '.', so no ".."). */
bool tz_name_valid(const char *name);
/* Load the IANA zone name ("Europe/Berlin", "UTC") from the system's zone
 * files (ZONEINFO_DIR) with tz_parse: a new struct tz, or NULL when the name
 * is not valid, names no regular file, or tz_parse refuses the file. */
struct tz *tz_load(const char *name);
/* The zone in the bytes of a TZif file: version 1 data, or for version 2
 * and later the 64-bit data and the footer's POSIX TZ rule (RFC 8536).
 * NULL when malformed, or when it counts leap seconds. */
struct tz *tz_parse(const void *data, size_t len);
void tz_free(struct tz *z);
/* The offset from UTC (seconds east) of zone z at time t (taken within
 * TIME_MIN..TIME_MAX). */
int32_t tz_offset_at(const struct tz *z, int64_t t);

#endif
