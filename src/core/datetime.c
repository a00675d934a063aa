/* Dates and times: the calendar (proleptic Gregorian, days counted from
 * 1970-01-01), the zone reader (RFC 8536 TZif files and their POSIX TZ
 * footer), the parsers and the writers. Everything a call needs is in its
 * arguments or in a struct tz the caller owns. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/datetime.h"
#include "core/xalloc.h"

#define DAY 86400
/* RFC 8536 §3.2: an offset is more than -25 and less than 26 hours. */
#define OFF_MIN (-89999)
#define OFF_MAX 93599
/* A zone file is a few kilobytes; anything much larger is not one. */
#define TZ_FILE_MAX   65536
#define TZ_NAME_MAX   255
#define TZ_FOOTER_MAX 128

/* ---- the calendar ---- */

static bool
leap_year(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
month_days(int64_t y, int m)
{
	static const unsigned char days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return m == 2 && leap_year(y) ? 29 : days[m - 1];
}

/* Days since 1970-01-01 of y-m-d (H. Hinnant's days_from_civil). */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/* The date of day z since 1970-01-01 (civil_from_days). */
static void
civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* floor(t / DAY): the day of a time, also before 1970. */
static int64_t
day_of(int64_t t)
{
	return t >= 0 ? t / DAY : -((-t + DAY - 1) / DAY);
}

/* t within TIME_MIN..TIME_MAX, where no arithmetic here can overflow. */
static int64_t
time_clamp(int64_t t)
{
	return t < TIME_MIN ? TIME_MIN : t > TIME_MAX ? TIME_MAX : t;
}

/* The weekday of day z since 1970-01-01 (a Thursday), 0 = Sunday. */
static int
weekday_of(int64_t z)
{
	return (int)(((z % 7) + 7 + 4) % 7);
}

/* ---- reading fields ---- */

/* From min_n to max_n decimal digits at *p as a number in [lo, hi];
 * advances *p past them. */
static bool
num(const char **p, int min_n, int max_n, int lo, int hi, int *out)
{
	int v = 0, n = 0;

	while (n < max_n && (*p)[n] >= '0' && (*p)[n] <= '9')
		v = v * 10 + ((*p)[n++] - '0');
	if (n < min_n || v < lo || v > hi)
		return false;
	*p += n;
	*out = v;
	return true;
}

/* The text want at *p; advances *p past it. */
static bool
lit(const char **p, const char *want)
{
	size_t n = strlen(want);

	if (strncmp(*p, want, n) != 0)
		return false;
	*p += n;
	return true;
}

/* "HH:MM:SS" (second 0-60). */
static bool
clock_hms(const char **p, int *h, int *mi, int *s)
{
	return num(p, 2, 2, 0, 23, h) && lit(p, ":") && num(p, 2, 2, 0, 59, mi) && lit(p, ":") &&
	    num(p, 2, 2, 0, 60, s);
}

/* What a text says, before any zone is applied. */
struct fields {
	int y, mo, d, h, mi, s;
	bool has_time, has_offset;
	int32_t offset; /* seconds east, when has_offset */
};

/* Seconds since 1970 of f's date and clock, read as UTC. */
static int64_t
fields_seconds(const struct fields *f)
{
	return days_from_civil(f->y, f->mo, f->d) * DAY + f->h * 3600 + f->mi * 60 + f->s;
}

/* "YYYY-MM-DD" (day checked once the month is known). */
static bool
iso_date(const char **p, struct fields *f)
{
	return num(p, 4, 4, 1, 9999, &f->y) && lit(p, "-") && num(p, 2, 2, 1, 12, &f->mo) && lit(p, "-") &&
	    num(p, 2, 2, 1, month_days(f->y, f->mo), &f->d);
}

/* An ISO 8601 / RFC 3339 date, with an optional clock and offset. */
static int
scan_iso(const char *p, struct fields *f)
{
	int oh, om;

	if (!iso_date(&p, f))
		return -1;
	if (*p == '\0')
		return 0;
	if (*p != 'T' && *p != 't' && *p != ' ')
		return -1;
	p++;
	if (!num(&p, 2, 2, 0, 23, &f->h) || !lit(&p, ":") || !num(&p, 2, 2, 0, 59, &f->mi))
		return -1;
	if (lit(&p, ":")) {
		if (!num(&p, 2, 2, 0, 60, &f->s))
			return -1;
		if (lit(&p, ".")) {
			size_t n = strspn(p, "0123456789");

			if (n < 1 || n > 9)
				return -1;
			p += n;
		}
	}
	f->has_time = true;
	if (*p == 'Z' || *p == 'z') {
		p++;
		f->has_offset = true;
	} else if (*p == '+' || *p == '-') {
		int sign = *p++ == '-' ? -1 : 1;

		if (!num(&p, 2, 2, 0, 23, &oh))
			return -1;
		lit(&p, ":");
		if (!num(&p, 2, 2, 0, 59, &om))
			return -1;
		f->has_offset = true;
		f->offset = sign * (oh * 3600 + om * 60);
	}
	return *p == '\0' ? 0 : -1;
}

static const char *const wday_names[7] = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
	"Saturday" };
static const char month_names[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
	"Nov", "Dec" };

static bool
month_name(const char **p, int *mo)
{
	for (int i = 0; i < 12; i++)
		if (strncmp(*p, month_names[i], 3) == 0) {
			*p += 3;
			*mo = i + 1;
			return true;
		}
	return false;
}

/* An HTTP-date (RFC 9110 §5.6.7) in any of its three forms, in UTC. */
static int
scan_http(const char *p, struct fields *f)
{
	int wd = -1, yy = 0;
	bool ok;

	for (int i = 0; i < 7 && wd < 0; i++)
		if (strncmp(p, wday_names[i], 3) == 0)
			wd = i;
	if (wd < 0)
		return -1;
	if (p[3] == ',') { /* IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT" */
		p += 3;
		ok = lit(&p, ", ") && num(&p, 2, 2, 1, 31, &f->d) && lit(&p, " ") && month_name(&p, &f->mo) &&
		    lit(&p, " ") && num(&p, 4, 4, 1, 9999, &f->y) && lit(&p, " ") &&
		    clock_hms(&p, &f->h, &f->mi, &f->s) && lit(&p, " GMT");
	} else if (p[3] == ' ') { /* asctime: "Sun Nov  6 08:49:37 1994" */
		p += 4;
		ok = month_name(&p, &f->mo) && lit(&p, " ") &&
		    (lit(&p, " ") ? num(&p, 1, 1, 1, 9, &f->d) : num(&p, 2, 2, 1, 31, &f->d)) &&
		    lit(&p, " ") && clock_hms(&p, &f->h, &f->mi, &f->s) && lit(&p, " ") &&
		    num(&p, 4, 4, 1, 9999, &f->y);
	} else { /* RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT" */
		ok = lit(&p, wday_names[wd]) && lit(&p, ", ") && num(&p, 2, 2, 1, 31, &f->d) &&
		    lit(&p, "-") && month_name(&p, &f->mo) && lit(&p, "-") && num(&p, 2, 2, 0, 99, &yy) &&
		    lit(&p, " ") && clock_hms(&p, &f->h, &f->mi, &f->s) && lit(&p, " GMT");
		f->y = yy < 70 ? 2000 + yy : 1900 + yy;
	}
	if (!ok || *p != '\0' || f->d > month_days(f->y, f->mo) ||
	    weekday_of(days_from_civil(f->y, f->mo, f->d)) != wd)
		return -1;
	f->has_time = f->has_offset = true;
	return 0;
}

/* ---- zones ---- */

/* A POSIX TZ rule's day ("Jn", "n" or "Mm.w.d") and time of day. */
struct rule {
	char kind;      /* 'J' (1-365, no 29 February), 'D' (0-365), 'M' */
	int n, m, w, d; /* n for J and D; month, week 1-5 (5 = last), weekday 0-6 for M */
	int32_t at;     /* seconds after local midnight, -167 to 167 hours */
};

struct transition {
	int64_t at;     /* from this time on */
	int32_t offset; /* seconds east */
};

struct tz {
	struct transition *tr; /* ascending */
	size_t n;
	int32_t first;    /* the offset before the first transition (time type 0) */
	bool footer;      /* the POSIX rule below holds after the last transition */
	bool has_dst;     /* the rule has a daylight saving time */
	int32_t std, dst; /* the rule's offsets, seconds east */
	struct rule start, end;
};

bool
tz_name_valid(const char *name)
{
	size_t n;

	if (name == NULL || name[0] == '/' || (n = strlen(name)) == 0 || n > TZ_NAME_MAX)
		return false;
	return name[strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+-/")] ==
	    '\0';
}

/* A zone abbreviation: "<...>" of [A-Za-z0-9+-], or 3 letters or more. */
static bool
posix_abbr(const char **p)
{
	size_t n;

	if (**p == '<') {
		n = strspn(*p + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-");
		if (n < 3 || (*p)[1 + n] != '>')
			return false;
		*p += n + 2;
		return true;
	}
	n = strspn(*p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
	*p += n;
	return n >= 3;
}

/* "[+-]h[h[h]][:mm[:ss]]" with at most max_h hours, as signed seconds. */
static bool
posix_hms(const char **p, int max_h, int32_t *out)
{
	int sign = 1, h, m = 0, s = 0;

	if (**p == '+' || **p == '-')
		sign = *(*p)++ == '-' ? -1 : 1;
	if (!num(p, 1, 3, 0, max_h, &h))
		return false;
	if (lit(p, ":") && (!num(p, 1, 2, 0, 59, &m) || (lit(p, ":") && !num(p, 1, 2, 0, 59, &s))))
		return false;
	*out = sign * (h * 3600 + m * 60 + s);
	return true;
}

/* ",date[/time]" of a POSIX TZ rule. */
static bool
posix_rule(const char **p, struct rule *r)
{
	bool ok;

	if (!lit(p, ","))
		return false;
	r->kind = **p == 'J' || **p == 'M' ? *(*p)++ : 'D';
	if (r->kind == 'J')
		ok = num(p, 1, 3, 1, 365, &r->n);
	else if (r->kind == 'D')
		ok = num(p, 1, 3, 0, 365, &r->n);
	else
		ok = num(p, 1, 2, 1, 12, &r->m) && lit(p, ".") && num(p, 1, 1, 1, 5, &r->w) && lit(p, ".") &&
		    num(p, 1, 1, 0, 6, &r->d);
	r->at = 7200;
	return ok && (!lit(p, "/") || posix_hms(p, 167, &r->at));
}

/* A TZif footer: "std offset [dst [offset] ,start[/time],end[/time]]"
 * (POSIX TZ with RFC 8536 §3.3.1's extensions). */
static bool
posix_parse(const char *p, struct tz *z)
{
	int32_t v;

	if (!posix_abbr(&p) || !posix_hms(&p, 24, &v))
		return false;
	z->std = z->dst = -v;
	if (*p != '\0') {
		if (!posix_abbr(&p))
			return false;
		z->dst = z->std + 3600;
		if (*p != ',' && *p != '\0') {
			if (!posix_hms(&p, 24, &v))
				return false;
			z->dst = -v;
		}
		/* a footer with daylight saving always says when */
		if (!posix_rule(&p, &z->start) || !posix_rule(&p, &z->end))
			return false;
		z->has_dst = true;
	}
	return *p == '\0' && z->std >= OFF_MIN && z->std <= OFF_MAX && z->dst >= OFF_MIN && z->dst <= OFF_MAX;
}

/* When rule r happens in year y, offset being the local time before it. */
static int64_t
rule_time(const struct rule *r, int64_t y, int32_t offset)
{
	int64_t jan1 = days_from_civil(y, 1, 1), day;

	if (r->kind == 'J')
		day = jan1 + r->n - 1 + (leap_year(y) && r->n >= 60);
	else if (r->kind == 'D')
		day = jan1 + r->n;
	else {
		int64_t first = days_from_civil(y, r->m, 1);
		int md = 1 + (r->d - weekday_of(first) + 7) % 7 + 7 * (r->w - 1);

		while (md > month_days(y, r->m))
			md -= 7;
		day = first + md - 1;
	}
	return day * DAY + r->at - offset;
}

/* The footer's offset at t. */
static int32_t
footer_offset(const struct tz *z, int64_t t)
{
	int64_t y, s, e;
	int m, d;

	if (!z->has_dst)
		return z->std;
	civil_from_days(day_of(t + z->std), &y, &m, &d);
	s = rule_time(&z->start, y, z->std);
	e = rule_time(&z->end, y, z->dst);
	if (s < e)
		return t >= s && t < e ? z->dst : z->std;
	return t >= e && t < s ? z->std : z->dst; /* the southern hemisphere */
}

int32_t
tz_offset_at(const struct tz *z, int64_t t)
{
	size_t lo = 0, hi;

	t = time_clamp(t);
	if (z->footer && (z->n == 0 || t > z->tr[z->n - 1].at))
		return footer_offset(z, t);
	if (z->n == 0 || t < z->tr[0].at)
		return z->first;
	/* the last transition at or before t */
	for (hi = z->n; hi - lo > 1;) {
		size_t mid = lo + (hi - lo) / 2;

		if (z->tr[mid].at <= t)
			lo = mid;
		else
			hi = mid;
	}
	return z->tr[lo].offset;
}

/* The time of wall clock l (seconds since 1970 as if l were UTC) in z. The
 * candidates are l minus each offset in force within a day of l; of those
 * the zone confirms the earliest wins, and when none does (a skipped hour)
 * the offset before the gap is used (RFC 5545 §3.3.5). */
static int64_t
wall_to_utc(const struct tz *z, int64_t l)
{
	int32_t before = tz_offset_at(z, l - OFF_MAX - 1), after = tz_offset_at(z, l - OFF_MIN + 1);
	int32_t cand[4] = { before, after, tz_offset_at(z, l - before), tz_offset_at(z, l - after) };
	int64_t best = INT64_MAX;

	for (int i = 0; i < 4; i++)
		if (tz_offset_at(z, l - cand[i]) == cand[i] && l - cand[i] < best)
			best = l - cand[i];
	return best != INT64_MAX ? best : l - before;
}

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A TZif header (RFC 8536 §3.1). */
struct tzif_hdr {
	char version;
	uint32_t isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt;
};

#define TZIF_HDR 44

static bool
tzif_hdr(const unsigned char *b, size_t len, struct tzif_hdr *h)
{
	if (len < TZIF_HDR || memcmp(b, "TZif", 4) != 0)
		return false;
	h->version = (char)b[4];
	h->isutcnt = be32(b + 20);
	h->isstdcnt = be32(b + 24);
	h->leapcnt = be32(b + 28);
	h->timecnt = be32(b + 32);
	h->typecnt = be32(b + 36);
	h->charcnt = be32(b + 40);
	return h->typecnt >= 1 && h->typecnt <= 256 && (h->isutcnt == 0 || h->isutcnt == h->typecnt) &&
	    (h->isstdcnt == 0 || h->isstdcnt == h->typecnt);
}

/* The length of the data block after h, times being tsize bytes. */
static uint64_t
tzif_len(const struct tzif_hdr *h, uint64_t tsize)
{
	return h->timecnt * (tsize + 1) + h->typecnt * UINT64_C(6) + h->charcnt + h->leapcnt * (tsize + 4) +
	    h->isstdcnt + h->isutcnt;
}

/* The transitions and first type of a data block (its length checked). No
 * leap seconds: this reader counts time as POSIX does. */
static bool
tzif_block(const unsigned char *b, const struct tzif_hdr *h, size_t tsize, struct tz *z)
{
	const unsigned char *idx = b + (size_t)h->timecnt * tsize, *types = idx + h->timecnt;
	int32_t offs[256];

	if (h->leapcnt != 0)
		return false;
	for (uint32_t i = 0; i < h->typecnt; i++) {
		offs[i] = (int32_t)be32(types + 6 * i);
		if (offs[i] < OFF_MIN || offs[i] > OFF_MAX || types[6 * i + 4] > 1)
			return false;
	}
	z->first = offs[0];
	z->n = h->timecnt;
	z->tr = xcalloc(z->n, sizeof *z->tr);
	for (size_t i = 0; i < z->n; i++) {
		const unsigned char *t = b + i * tsize;

		z->tr[i].at =
		    tsize == 8 ? (int64_t)((uint64_t)be32(t) << 32 | be32(t + 4)) : (int32_t)be32(t);
		if ((i > 0 && z->tr[i].at <= z->tr[i - 1].at) || idx[i] >= h->typecnt)
			return false;
		z->tr[i].offset = offs[idx[i]];
	}
	return true;
}

struct tz *
tz_parse(const void *data, size_t len)
{
	const unsigned char *b = data;
	struct tz *z = xcalloc(1, sizeof *z);
	struct tzif_hdr h;
	uint64_t n;
	const unsigned char *nl;
	char footer[TZ_FOOTER_MAX];

	if (!tzif_hdr(b, len, &h) || (n = tzif_len(&h, 4)) > len - TZIF_HDR)
		goto bad;
	if (h.version == '\0') {
		if (!tzif_block(b + TZIF_HDR, &h, 4, z))
			goto bad;
		return z;
	}
	b += TZIF_HDR + n;
	len -= TZIF_HDR + n;
	if (!tzif_hdr(b, len, &h) || (n = tzif_len(&h, 8)) > len - TZIF_HDR ||
	    !tzif_block(b + TZIF_HDR, &h, 8, z))
		goto bad;
	b += TZIF_HDR + n;
	len -= TZIF_HDR + n;
	/* "\n" footer "\n"; an empty footer: the last type holds on */
	if (len < 2 || b[0] != '\n' || (nl = memchr(b + 1, '\n', len - 1)) == NULL ||
	    (size_t)(nl - b - 1) >= sizeof footer)
		goto bad;
	if (nl > b + 1) {
		memcpy(footer, b + 1, (size_t)(nl - b - 1));
		footer[nl - b - 1] = '\0';
		if (!posix_parse(footer, z))
			goto bad;
		z->footer = true;
	}
	return z;
bad:
	tz_free(z);
	return NULL;
}

struct tz *
tz_load(const char *name)
{
	char path[sizeof ZONEINFO_DIR + 1 + TZ_NAME_MAX];
	unsigned char *buf;
	struct tz *z = NULL;
	struct stat st;
	size_t len = 0;
	int fd;

	if (!tz_name_valid(name))
		return NULL;
	snprintf(path, sizeof path, "%s/%s", ZONEINFO_DIR, name);
	/* O_NONBLOCK: a FIFO in the way must not hang the open */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 || st.st_size > TZ_FILE_MAX) {
		close(fd);
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size);
	while (len < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + len, (size_t)st.st_size - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (len == (size_t)st.st_size)
		z = tz_parse(buf, len);
	free(buf);
	return z;
}

void
tz_free(struct tz *z)
{
	if (z == NULL)
		return;
	free(z->tr);
	free(z);
}

/* ---- parsing and writing ---- */

int
time_parse(const char *s, unsigned forms, const struct tz *zone, int64_t *out)
{
	struct fields f = { 0 };
	size_t n;
	int64_t t = 0;

	if (s == NULL)
		return -1;
	if ((forms & TIME_ZERO) && (strcmp(s, "0000-00-00") == 0 || strcmp(s, "0000-00-00 00:00:00") == 0))
		return 1;
	n = strspn(s, "0123456789");
	if (n > 0 && s[n] == '\0') {
		if (!(forms & TIME_EPOCH) || n > 12)
			return -1;
		for (size_t i = 0; i < n; i++)
			t = t * 10 + (s[i] - '0');
	} else if ((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')) {
		if (!(forms & TIME_HTTP) || scan_http(s, &f) != 0)
			return -1;
		t = fields_seconds(&f);
	} else {
		if (scan_iso(s, &f) != 0 ||
		    !(forms &
		        (!f.has_time         ? TIME_DATE :
		                f.has_offset ? TIME_OFFSET :
		                               TIME_WALL)))
			return -1;
		t = fields_seconds(&f);
		if (f.has_offset)
			t -= f.offset;
		else if (zone != NULL)
			t = wall_to_utc(zone, t);
	}
	if (t < TIME_MIN || t > TIME_MAX)
		return -1;
	*out = t;
	return 0;
}

int
time_parse_clock(const char *s, int *secs)
{
	int h, m, sec = 0;

	if (s == NULL || !num(&s, 1, 2, 0, 23, &h) || !lit(&s, ":") || !num(&s, 2, 2, 0, 59, &m) ||
	    (lit(&s, ":") && !num(&s, 2, 2, 0, 59, &sec)) || *s != '\0')
		return -1;
	*secs = h * 3600 + m * 60 + sec;
	return 0;
}

void
time_civil_of(int64_t t, const struct tz *zone, struct time_civil *out)
{
	int64_t l, day, y;
	int32_t secs;

	t = time_clamp(t);
	l = t + (zone != NULL ? tz_offset_at(zone, t) : 0);
	day = day_of(l);
	secs = (int32_t)(l - day * DAY);
	civil_from_days(day, &y, &out->month, &out->day);
	out->year = (int)y;
	out->hour = secs / 3600;
	out->minute = secs / 60 % 60;
	out->second = secs % 60;
	out->weekday = weekday_of(day) == 0 ? 7 : weekday_of(day);
}

/* v as width digits at p (v >= 0 and below 10^width). */
static char *
put_num(char *p, int v, int width)
{
	for (int i = width - 1; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	return p + width;
}

/* "YYYY-MM-DD" of c at p; returns the end. */
static char *
put_date(char *p, const struct time_civil *c)
{
	p = put_num(p, c->year, 4);
	*p++ = '-';
	p = put_num(p, c->month, 2);
	*p++ = '-';
	return put_num(p, c->day, 2);
}

int
time_format_iso(int64_t t, bool zulu, char out[21])
{
	struct time_civil c;
	char *p = out;

	out[0] = '\0';
	if (t < TIME_MIN || t > TIME_MAX)
		return -1;
	time_civil_of(t, NULL, &c);
	p = put_date(p, &c);
	*p++ = 'T';
	p = put_num(p, c.hour, 2);
	*p++ = ':';
	p = put_num(p, c.minute, 2);
	*p++ = ':';
	p = put_num(p, c.second, 2);
	if (zulu)
		*p++ = 'Z';
	*p = '\0';
	return 0;
}

int
time_format_date(int64_t t, char out[11])
{
	struct time_civil c;

	out[0] = '\0';
	if (t < TIME_MIN || t > TIME_MAX)
		return -1;
	time_civil_of(t, NULL, &c);
	*put_date(out, &c) = '\0';
	return 0;
}
