/* hash.c - see hash.h. */
#include "hash.h"

#include <nettle/base16.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <string.h>

void qb_hash_sha1(uint8_t out[QB_SHA1_SIZE], const void *data, size_t len)
{
	struct sha1_ctx ctx;
	sha1_init(&ctx);
	sha1_update(&ctx, len, data);
	sha1_digest(&ctx, QB_SHA1_SIZE, out);
}

void qb_hash_sha256(uint8_t out[QB_SHA256_SIZE], const void *data, size_t len)
{
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, QB_SHA256_SIZE, out);
}

void qb_hash_sha256_strs(uint8_t out[QB_SHA256_SIZE], const char *const *strs, size_t n)
{
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	for (size_t i = 0; i < n; i++)
		sha256_update(&ctx, strlen(strs[i]), (const uint8_t *)strs[i]);
	sha256_digest(&ctx, QB_SHA256_SIZE, out);
}

void qb_hash_sha256_hex(char *out, size_t nbytes, const void *data, size_t len)
{
	uint8_t d[QB_SHA256_SIZE];
	qb_hash_sha256(d, data, len);
	qb_hash_hex(out, d, nbytes > QB_SHA256_SIZE ? QB_SHA256_SIZE : nbytes);
}

void qb_hash_hex(char *out, const uint8_t *bytes, size_t n)
{
	base16_encode_update(out, n, bytes); /* lower case */
	out[BASE16_ENCODE_LENGTH(n)] = '\0';
}

uint64_t qb_hash_u64(const uint8_t *digest)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = (v << 8) | digest[i];
	return v;
}
