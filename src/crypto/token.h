/* Personal access tokens: "<id>|<48 base62 chars>". Only SHA-256 of the
 * secret part is stored (docs/security.md: how a request's token is checked). */
#ifndef MIGRATOR_TOKEN_H
#define MIGRATOR_TOKEN_H
#include <stddef.h>
#include <stdint.h>

#define TOKEN_SECRET_LEN 48
#define TOKEN_HASH_LEN   32

/* A new random secret into out[TOKEN_SECRET_LEN + 1]. */
void token_secret_new(char out[TOKEN_SECRET_LEN + 1]);
/* SHA-256 of the secret. */
void token_hash(const char *secret, size_t len, unsigned char out[TOKEN_HASH_LEN]);
/* Split "<id>|<secret>" (the value after "Bearer "). Returns 0 with *id and
 * *secret (pointing into s) set, or -1 when malformed. */
int token_parse(const char *s, uint64_t *id, const char **secret, size_t *secret_len);
/* Constant-time check of secret against a stored hash. Returns 1 on match. */
int token_verify(const char *secret, size_t len, const unsigned char *stored, size_t stored_len);

#endif
