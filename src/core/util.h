/* Small, strict helpers: whole-string integer parsing, UTF-8, time. */
#ifndef MIGRATOR_UTIL_H
#define MIGRATOR_UTIL_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Parse all of s as a decimal integer in [min, max]. No sign but '-', no
 * spaces, no leading '+', no empty string. Returns 0, or -1 on any deviation. */
int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
/* The decimal text of a number (its magnitude, and a minus sign when
 * negative) into out, not NUL-terminated. Returns its length (at most 20). */
size_t int_text(char out[20], uint64_t magnitude, bool negative);
/* Parse "true|false|1|0". Returns 0 or -1. */
int parse_bool(const char *s, bool *out);
/* The one way text is shortened: the byte length of the longest prefix of
 * s[0..len) with at most max_chars characters and max_bytes bytes that ends
 * on a UTF-8 character boundary (SIZE_MAX: no limit). */
size_t utf8_cut(const char *s, size_t len, size_t max_chars, size_t max_bytes);
/* Copy src into dst[size], cut on a character boundary, each byte that is not
 * part of a well-formed UTF-8 character as '?': dst is valid UTF-8 whatever
 * src holds. Always terminated. dst may be src (the copy never grows). */
void utf8_copy(char *dst, size_t size, const char *src);
/* A malloc'd copy of s as utf8_copy leaves it, whole: valid UTF-8 to store. */
char *utf8_dup(const char *s);
/* printf into dst[size] as utf8_copy leaves a copy: whatever the arguments
 * hold and however long, dst is valid UTF-8, cut on a character boundary.
 * Returns dst. */
char *utf8_format(char *dst, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
char *utf8_vformat(char *dst, size_t size, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
/* Copy text from outside (a header, a provider's message) into dst[size] to
 * be shown: white space runs folded to one space, control characters and
 * bytes that are not UTF-8 as '?', at most max_chars characters, cut on a
 * character boundary. */
void utf8_clean(char *dst, size_t size, const char *src, size_t max_chars);
/* True when s[0..len) is well-formed UTF-8 without NUL bytes. */
bool utf8_valid(const char *s, size_t len);
/* True when s[0..len) holds a control character (C0, NUL included, or DEL). */
bool has_control(const char *s, size_t len);
/* True when s[0..len) is well-formed UTF-8 without control characters (has_control). */
bool utf8_plain(const char *s, size_t len);
/* True when s is a canonical lowercase-or-uppercase 8-4-4-4-12 hex UUID. */
bool uuid_valid(const char *s);
/* A new time-ordered UUID (version 7), lowercase, into out[37]. */
void uuid_v7(char out[37]);

/* Format a MySQL DATETIME text ("YYYY-MM-DD HH:MM:SS[.ffffff]", UTC) as
 * ISO 8601 "YYYY-MM-DDTHH:MM:SSZ" into out[21]. Returns 0, or -1 when mysql
 * is anything else (every field checked by time_parse). */
int time_mysql_to_iso(const char *mysql, char out[21]);
/* Seconds since the epoch (wall clock). */
time_t now_s(void);
/* Sleep ms milliseconds, or until a signal arrives (its handler ran). */
void sleep_ms(int64_t ms);
/* Milliseconds since the epoch (wall clock), for times kept across processes. */
int64_t wall_ms(void);
/* Monotonic milliseconds, for measuring durations. */
int64_t mono_ms(void);

/* True when s equals one of the NULL-terminated list's strings. */
bool str_in_list(const char *const *list, const char *s);
/* The value of a hexadecimal digit (either case), or -1. */
int hex_value(int c);

#endif
