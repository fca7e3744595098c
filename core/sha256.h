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
	int lanes;     /* else messages sha256_update_blocks hashes at once: 16, 8 or 0 */
};

/* At most this many messages per sha256_update_blocks call. */
#define SHA256_LANES_MAX 16

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
/*
 * Feed nblocks whole 64-byte blocks of data[i] to c[i], for i < n (n <=
 * SHA256_LANES_MAX): the same as sha256_update on each, but a CPU without
 * the SHA extensions hashes the messages side by side in vector lanes
 * (AVX-512F: 16, AVX2: 8).  Each c[i] must hold no partial block (what it
 * was fed so far is a multiple of 64 bytes); all were set up by
 * sha256_init on this machine (or copied from one that was).
 */
void sha256_update_blocks(struct sha256 *const c[], const unsigned char *const data[], size_t n,
			  size_t nblocks);
/* How many messages it pays to hash together with sha256_update_blocks:
 * 1 with the SHA extensions or without vector lanes. */
int sha256_lanes(const struct sha256 *c);
void sha256_final(struct sha256 *c, unsigned char out[32]);
/* Lowercase hex of a digest into hex[65]. */
void sha256_hex(const unsigned char digest[32], char hex[65]);

#endif
