#include <string.h>

#include <sodium.h>

#include "core/util.h"
#include "crypto/token.h"

static const char base62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

void
token_secret_new(char out[TOKEN_SECRET_LEN + 1])
{
	for (int i = 0; i < TOKEN_SECRET_LEN; i++)
		out[i] = base62[randombytes_uniform(62)];
	out[TOKEN_SECRET_LEN] = '\0';
}

void
token_hash(const char *secret, size_t len, unsigned char out[TOKEN_HASH_LEN])
{
	crypto_hash_sha256(out, (const unsigned char *)secret, len);
}

int
token_parse(const char *s, uint64_t *id, const char **secret, size_t *secret_len)
{
	const char *bar = strchr(s, '|');
	char idbuf[21];
	int64_t v;
	size_t n;

	if (bar == NULL || bar == s || (size_t)(bar - s) >= sizeof idbuf)
		return -1;
	memcpy(idbuf, s, (size_t)(bar - s));
	idbuf[bar - s] = '\0';
	if (parse_i64(idbuf, 1, INT64_MAX, &v) != 0)
		return -1;
	n = strlen(bar + 1);
	if (n < 40 || n > 128)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char c = bar[1 + i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return -1;
	}
	*id = (uint64_t)v;
	*secret = bar + 1;
	*secret_len = n;
	return 0;
}

int
token_verify(const char *secret, size_t len, const unsigned char *stored, size_t stored_len)
{
	unsigned char h[TOKEN_HASH_LEN];
	int ok;

	if (stored == NULL || stored_len != TOKEN_HASH_LEN)
		return 0;
	token_hash(secret, len, h);
	ok = sodium_memcmp(h, stored, TOKEN_HASH_LEN) == 0;
	sodium_memzero(h, sizeof h);
	return ok;
}
