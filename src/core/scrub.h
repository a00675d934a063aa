/* Taking secrets out of texts that came from outside (provider answers),
 * before anything cuts, converts, stores or logs them.
 *
 * A text is searched in these views of it, each decoded from the text:
 *   - the text as it is;
 *   - percent-decoded (%XX, either case); that again (%252F), or that
 *     JSON-decoded (a JSON-escaped echo URL-encoded: %5Cu0073);
 *   - form-decoded ('+' as a space, %XX);
 *   - JSON-decoded (\" \\ \/ \b \f \n \r \t, and \uXXXX into UTF-8,
 *     surrogate pairs too);
 *   - HTML-decoded: &#DDD; and &#xHHH; (x in either case, any number of
 *     digits, the ';' optional) into UTF-8, and the named references of
 *     ASCII characters (&amp; &lt; &sol; &commat; ...; &amp &lt &gt &quot
 *     and &AMP &LT &GT &QUOT also without the ';').
 * In every view white space is left out and ASCII letters match in either
 * case (a secret upper- or lower-cased as a whole). The forms of a secret
 * looked for: the secret, white space left out; and its base64, standard
 * and URL-safe, at each of the three byte alignments: the characters only
 * the secret decides, and, for a secret that ends the data, those with the
 * last character and its padding (so an echo wrapped on lines, padded or
 * not, is found, its tail too). A match is any SCRUB_RUN-character run of
 * a form, or a whole form shorter than that, in any view; the bytes of the
 * text behind each match become "[redacted]", and the text is searched
 * again (cutting out a match can make a new one) until nothing more is
 * found; a text that still yields matches after a few passes, or of 4 GiB
 * or more, is redacted whole.
 * Not found: other compositions of these encodings (an HTML-escaped JSON
 * string), named references of other characters (&eacute;), case mappings
 * beyond ASCII's. */
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
