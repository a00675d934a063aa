/* Small helpers over json-c. */
#ifndef MIGRATOR_JSONX_H
#define MIGRATOR_JSONX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define JSONX_MAX_DEPTH 16

/* Parse exactly len bytes as one JSON value (UTF-8 checked, the grammar of
 * RFC 8259, depth-limited, nothing but whitespace after it, no \u0000 in a
 * key). A number is never clamped: one that no int64_t holds (an integer:
 * 99999999999999999999, -9223372036854775809, 9223372036854775808) or no
 * finite double (a fraction or exponent: 1e400) is read as null, a value
 * the provider did not give in a form we can read. Returns a new value
 * (NULL is returned for refused input; the JSON literal null yields *ok = 1
 * and NULL). */
json_object *jx_parse(const char *buf, size_t len, int *ok);
/* jx_parse for a request, which refuses such a number naming its field: it
 * is read as a marker (NaN, a double, which JSON cannot carry) that
 * jx_out_of_range tells apart and no reader of a number takes. */
json_object *jx_parse_input(const char *buf, size_t len, int *ok);
/* True when v is the marker of a number out of range (jx_parse_input). */
bool jx_out_of_range(json_object *v);
/* The path of the first marker in o into path[size] (keys and array
 * positions joined by '.': "resource_ids.3", "credentials.api_key"; cut on a
 * character boundary), or false when o holds none. */
bool jx_find_out_of_range(json_object *o, char *path, size_t size);

/* Add key with a string value, or JSON null when val is NULL. */
void jx_add_str(json_object *o, const char *key, const char *val);
void jx_add_int(json_object *o, const char *key, int64_t val);
void jx_add_bool(json_object *o, const char *key, int val);
/* A number v >= 0 rounded half up to places (1-9) decimals, written with as
 * few as that needs but one: 0.3 and 1.0, not json-c's 0.29999999999999999. */
json_object *jx_new_rounded(double v, int places);
/* Overwrite, in place, every string in o, however deep (credentials that
 * must not linger in freed memory). NULL is a no-op. */
void jx_wipe_strings(json_object *o);
/* The string value of key when it is a string, else NULL. Borrowed. */
const char *jx_str(json_object *o, const char *key);
/* Compact text of o (borrowed, lives as long as o). */
const char *jx_text(json_object *o);

/* Writing JSON text straight into a buffer, for lists of hundreds of items
 * where a json-c object per value costs more than the answer itself. */
/* Append s[0..n) as a JSON string, escaped as json-c escapes it
 * (JSON_C_TO_STRING_NOSLASHESCAPE), or null when s is NULL. s must be valid
 * UTF-8 (database text is). */
void jx_put_str(struct printbuf *pb, const char *s, size_t n);
/* Room for need more bytes and the NUL at pb's end, for writing in place at
 * pb->buf + pb->bpos: the buffer grows as printbuf's appends grow it (to twice
 * its size, or to what is needed when that is more). 0, or -1 when it cannot
 * grow. */
int jx_reserve(struct printbuf *pb, size_t need);
/* Append a string literal (its length known when compiled: a few moves,
 * where printbuf_strappend is a call for each key of each item). */
#define jx_put_lit(pb, lit) printbuf_memappend_fast((pb), (lit), (int)sizeof(lit) - 1)
/* Append a signed integer as json-c writes it. */
void jx_put_int(struct printbuf *pb, int64_t v);
/* Append a MySQL DATETIME as an ISO 8601 string with Z, or null when NULL or
 * unparseable. */
void jx_put_time(struct printbuf *pb, const char *mysql_datetime);
/* 1 when text[0..len) is one JSON value: UTF-8, the grammar of RFC 8259
 * (no single quotes, NaN or trailing commas), containers nested fewer than
 * JSONX_MAX_DEPTH deep (as jx_parse), no number out of range (which
 * jx_parse would read as null). Whatever it accepts, jx_parse reads as it
 * is written. */
bool jx_valid(const char *text, size_t len);
/* Append a stored JSON object (a run's stats, a log entry's context) as it
 * is when it is one and jx_valid; else, or for NULL, {}. */
void jx_put_object(struct printbuf *pb, const char *text);
/* jx_put_str of a C string (null for NULL). */
void jx_put_cstr(struct printbuf *pb, const char *s);
/* A value whose text is pb's (one complete JSON value, written with the
 * jx_put_* helpers): added to a json-c tree, it is written as that text.
 * Takes pb. */
json_object *jx_splice(struct printbuf *pb);
/* The text of o and its length when o is a splice, else NULL. Borrowed. */
const char *jx_splice_text(json_object *o, size_t *len);
/* Append o as the compact text jx_text gives, each splice in it as its text:
 * a tree with large splices is written without a copy of its own. */
void jx_put_json(struct printbuf *pb, json_object *o);
/* jx_put_str of pb's own text pb->buf[at..at+n) (a value written just before,
 * and its copy as a string): the text is read where it is as the buffer grows. */
void jx_put_own_str(struct printbuf *pb, size_t at, size_t n);

#endif
