/* hash.h - content hashes through nettle: stable identifiers, Anki's
 * checksums, content-addressed media names and revision records. */
#ifndef QB_HASH_H
#define QB_HASH_H

#include <stdint.h>

#include "qb.h"

#define QB_SHA1_SIZE 20
#define QB_SHA256_SIZE 32

void qb_hash_sha1(uint8_t out[QB_SHA1_SIZE], const void *data, size_t len);
void qb_hash_sha256(uint8_t out[QB_SHA256_SIZE], const void *data, size_t len);
/* The SHA-256 of the n strings one after the other (no copy joins them). */
void qb_hash_sha256_strs(uint8_t out[QB_SHA256_SIZE], const char *const *strs, size_t n);
/* Lower-case hex of the first nbytes of the SHA-256 of data into out,
 * which must hold 2*nbytes+1 bytes (nbytes <= 32). */
void qb_hash_sha256_hex(char *out, size_t nbytes, const void *data, size_t len);
/* Lower-case hex of n bytes into out, which must hold 2*n+1 bytes. */
void qb_hash_hex(char *out, const uint8_t *bytes, size_t n);
/* The first 8 bytes of a digest as a big-endian unsigned integer. */
uint64_t qb_hash_u64(const uint8_t *digest);

#endif
