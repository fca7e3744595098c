/*
 * sha256.h - SHA-256 (FIPS 180-4), streaming.  Used to recognise a source
 * file that was already ingested.  No allocation; the context is the
 * caller's.
 */
#ifndef AB_SHA256_H
#define AB_SHA256_H

#include "compat.h"

struct sha256 {
	uint32_t h[8];
	uint64_t total;
	unsigned char block[64];
	size_t fill;
	int accel;     /* the CPU has the SHA extensions (set by sha256_init) */
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
void sha256_final(struct sha256 *c, unsigned char out[32]);
/* Lowercase hex of a digest into hex[65]. */
void sha256_hex(const unsigned char digest[32], char hex[65]);

#endif
