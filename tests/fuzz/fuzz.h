/* What the fuzz targets share: the fuzzer's bytes read as a stream of
 * choices. A target includes it (run.sh builds each target from its one
 * file). Reading past the end gives zeros, so a short input makes the
 * default choice everywhere instead of ending the run early. */
#ifndef MIGRATOR_FUZZ_H
#define MIGRATOR_FUZZ_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fz {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t
fz_byte(struct fz *f)
{
	if (f->n == 0)
		return 0;
	f->n--;
	return *f->p++;
}

/* n bytes (at most 8) as an unsigned integer, little end first. */
static inline uint64_t
fz_bits(struct fz *f, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)fz_byte(f) << (8 * i);
	return v;
}

/* Up to max of the next bytes (fewer when the input ends): *out points at
 * them. Returns how many. */
static inline size_t
fz_take(struct fz *f, size_t max, const uint8_t **out)
{
	size_t n = max < f->n ? max : f->n;

	*out = f->p;
	f->p += n;
	f->n -= n;
	return n;
}

/* A broken rule: say which and where, and abort (libFuzzer keeps the input). */
#define FUZZ_CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			abort(); \
		} \
	} while (0)

#endif
