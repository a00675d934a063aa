/* Taking secrets out of texts that came from outside (provider answers),
 * before anything cuts, converts, stores or logs them.
 *
 * A text is compared with each secret in a canonical form: percent-escapes
 * (any case) and JSON escapes (\", \\, \/, \uXXXX) decoded and white space
 * left out, so a secret echoed verbatim, URL-encoded, JSON-escaped or split
 * by white space is found; so is its base64 encoding (at each of the three
 * byte alignments). A match is any 12-character run of a secret, or a whole
 * secret shorter than that; the original bytes behind each match become
 * "[redacted]". */
#ifndef MIGRATOR_SCRUB_H
#define MIGRATOR_SCRUB_H
#include <stddef.h>

#define SCRUB_RUN        12 /* characters of a secret that give it away */
#define SCRUB_MIN_SECRET 4  /* shorter values are not treated as secrets */

struct scrub;

/* An empty set of secrets. */
struct scrub *scrub_new(void);
/* Add a secret (copied; wiped on scrub_free). Shorter than SCRUB_MIN_SECRET: ignored. */
void scrub_add(struct scrub *, const char *secret);
/* A new copy of text[0..len) with every form of every secret replaced by
 * "[redacted]"; *outlen gets its length (the copy is NUL-terminated). */
char *scrub_text(const struct scrub *, const char *text, size_t len, size_t *outlen);
/* Scrub a NUL-terminated text held in a buffer of size bytes, in place; the
 * result is cut on a UTF-8 character boundary to fit. */
void scrub_buf(const struct scrub *, char *text, size_t size);
void scrub_free(struct scrub *);

#endif
