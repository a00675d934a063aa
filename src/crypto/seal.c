#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "core/xalloc.h"
#include "crypto/seal.h"

#define KEYLEN   crypto_aead_xchacha20poly1305_ietf_KEYBYTES
#define NONCELEN crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
#define ABYTES   crypto_aead_xchacha20poly1305_ietf_ABYTES

struct seal_key {
	unsigned char *key; /* sodium_malloc'd */
	char id[SEAL_KEY_ID_LEN + 1];
};

struct seal_key *
seal_key_load(const char *path, struct err *e)
{
	char hex[2 * KEYLEN + 8];
	unsigned char idraw[SEAL_KEY_ID_LEN / 2];
	struct seal_key *k;
	size_t n, binlen;
	int fd;
	ssize_t got;

	struct stat st;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		err_set(e, ERR_INTERNAL, "cannot open key file %s: %s", path, strerror(errno));
		return NULL;
	}
	/* Owner and group (the web server's and the runner's) only: a key others
	 * can read, or the group can change, is refused. */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & (S_IRWXO | S_IWGRP)) != 0) {
		close(fd);
		err_set(e, ERR_INTERNAL,
		    "key file %s must be a file that only its owner and group can read "
		    "(chmod 0640 or 0600)",
		    path);
		return NULL;
	}
	got = read(fd, hex, sizeof hex - 1);
	close(fd);
	if (got < 0) {
		err_set(e, ERR_INTERNAL, "cannot read key file %s", path);
		return NULL;
	}
	n = (size_t)got;
	while (n > 0 && (hex[n - 1] == '\n' || hex[n - 1] == '\r' || hex[n - 1] == ' '))
		n--;
	hex[n] = '\0';
	k = xcalloc(1, sizeof *k);
	if ((k->key = sodium_malloc(KEYLEN)) == NULL) {
		free(k);
		err_set(e, ERR_INTERNAL, "out of secure memory");
		return NULL;
	}
	if (n != 2 * KEYLEN || sodium_hex2bin(k->key, KEYLEN, hex, n, NULL, &binlen, NULL) != 0 ||
	    binlen != KEYLEN) {
		sodium_memzero(hex, sizeof hex);
		seal_key_free(k);
		err_set(e, ERR_INTERNAL, "key file %s must hold 64 hex characters (migratorctl keygen)",
		    path);
		return NULL;
	}
	sodium_memzero(hex, sizeof hex);
	crypto_generichash(idraw, sizeof idraw, k->key, KEYLEN, NULL, 0);
	sodium_bin2hex(k->id, sizeof k->id, idraw, sizeof idraw);
	return k;
}

void
seal_key_free(struct seal_key *k)
{
	if (k == NULL)
		return;
	sodium_free(k->key);
	free(k);
}

const char *
seal_key_id(const struct seal_key *k)
{
	return k->id;
}

int
seal_key_generate(const char *path, struct err *e)
{
	unsigned char key[KEYLEN];
	char hex[2 * KEYLEN + 2];
	int fd;
	size_t len;
	int rc = 0;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
		return err_set(e, ERR_INTERNAL, "cannot create %s: %s", path, strerror(errno));
	randombytes_buf(key, sizeof key);
	sodium_bin2hex(hex, sizeof hex, key, sizeof key);
	len = strlen(hex);
	hex[len++] = '\n';
	if (write(fd, hex, len) != (ssize_t)len || fsync(fd) != 0)
		rc = err_set(e, ERR_INTERNAL, "cannot write %s: %s", path, strerror(errno));
	close(fd);
	sodium_memzero(key, sizeof key);
	sodium_memzero(hex, sizeof hex);
	return rc;
}

/* plain sealed under the nonce buf[0..NONCELEN) into buf (NONCELEN +
 * plain_len + ABYTES bytes, malloc'd), given to *out. 0 or -1. */
static int
seal_into(const struct seal_key *k, const char *run_id, const char *plain, size_t plain_len,
    unsigned char *buf, unsigned char **out, size_t *out_len)
{
	unsigned long long clen;

	if (crypto_aead_xchacha20poly1305_ietf_encrypt(buf + NONCELEN, &clen, (const unsigned char *)plain,
	        plain_len, (const unsigned char *)run_id, strlen(run_id), NULL, buf, k->key) != 0) {
		free(buf);
		*out = NULL;
		*out_len = 0;
		return -1;
	}
	*out = buf;
	*out_len = NONCELEN + (size_t)clen;
	return 0;
}

int
seal(const struct seal_key *k, const char *run_id, const char *plain, size_t plain_len, unsigned char **out,
    size_t *out_len)
{
	unsigned char *buf = xmalloc(NONCELEN + plain_len + ABYTES);

	randombytes_buf(buf, NONCELEN);
	return seal_into(k, run_id, plain, plain_len, buf, out, out_len);
}

int
seal_same(const struct seal_key *k, const char *ad, const char *plain, size_t plain_len, unsigned char **out,
    size_t *out_len)
{
	unsigned char *buf = xmalloc(NONCELEN + plain_len + ABYTES), sub[crypto_generichash_KEYBYTES];
	crypto_generichash_state st;

	/* the nonce: a keyed BLAKE2b of (ad, plain) under a subkey of its own (synthetic IV) */
	crypto_kdf_derive_from_key(sub, sizeof sub, 1, "sealsame", k->key);
	crypto_generichash_init(&st, sub, sizeof sub, NONCELEN);
	crypto_generichash_update(&st, (const unsigned char *)ad, strlen(ad) + 1);
	crypto_generichash_update(&st, (const unsigned char *)plain, plain_len);
	crypto_generichash_final(&st, buf, NONCELEN);
	sodium_memzero(sub, sizeof sub);
	sodium_memzero(&st, sizeof st);
	return seal_into(k, ad, plain, plain_len, buf, out, out_len);
}

int
unseal(const struct seal_key *k, const char *run_id, const unsigned char *blob, size_t blob_len, char **plain,
    size_t *plain_len)
{
	unsigned long long mlen;
	char *m;

	*plain = NULL;
	*plain_len = 0;
	if (blob_len < NONCELEN + ABYTES)
		return -1;
	if ((m = sodium_malloc(blob_len - NONCELEN - ABYTES + 1)) == NULL)
		return -1;
	if (crypto_aead_xchacha20poly1305_ietf_decrypt((unsigned char *)m, &mlen, NULL, blob + NONCELEN,
	        blob_len - NONCELEN, (const unsigned char *)run_id, strlen(run_id), blob, k->key) != 0) {
		sodium_free(m);
		return -1;
	}
	m[mlen] = '\0';
	*plain = m;
	*plain_len = (size_t)mlen;
	return 0;
}

void
seal_plain_free(char *plain, size_t len)
{
	(void)len;
	if (plain != NULL)
		sodium_free(plain); /* sodium_free wipes the memory */
}
