/* Sealing of source-provider credentials: XChaCha20-Poly1305 (libsodium AEAD)
 * under a 32-byte key from [security] key_file, with the run id as associated
 * data. The sealed blob is nonce || ciphertext; a key id (first 8 bytes of
 * BLAKE2b of the key, hex) is stored beside it for rotation. */
#ifndef MIGRATOR_SEAL_H
#define MIGRATOR_SEAL_H
#include <stddef.h>

#include "core/err.h"

#define SEAL_KEY_ID_LEN 16

struct seal_key;

/* Load a key file (64 hex characters, optional trailing newline). The key
 * lives in guarded sodium memory. NULL on failure, e set (no key material). */
struct seal_key *seal_key_load(const char *path, struct err *e);
void seal_key_free(struct seal_key *);
const char *seal_key_id(const struct seal_key *);
/* Write a new random key file with mode 0600; refuses to overwrite. 0 or -1. */
int seal_key_generate(const char *path, struct err *e);

/* Seal plaintext for run_id. *out (malloc'd) receives nonce||ciphertext. 0 or -1. */
int seal(const struct seal_key *, const char *run_id, const char *plain, size_t plain_len,
    unsigned char **out, size_t *out_len) __attribute__((warn_unused_result));
/* seal, but with the nonce derived from the key, ad and plaintext rather
 * than drawn at random (a synthetic IV): the same secret sealed again for
 * the same ad is the same blob, so that a re-import of an unchanged secret
 * leaves the account's column as it was. A blob shows only that it holds the
 * same secret as another of the same ad. unseal opens it. 0 or -1. */
int seal_same(const struct seal_key *, const char *ad, const char *plain, size_t plain_len,
    unsigned char **out, size_t *out_len) __attribute__((warn_unused_result));
/* Open a sealed blob. *plain (sodium_malloc'd, NUL-terminated, free with
 * seal_plain_free) receives the plaintext. 0, or -1 when forged or wrong key. */
int unseal(const struct seal_key *, const char *run_id, const unsigned char *blob, size_t blob_len,
    char **plain, size_t *plain_len) __attribute__((warn_unused_result));
void seal_plain_free(char *plain, size_t len);

#endif
