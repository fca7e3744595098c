/*
 * sha256_priv.h - what sha256.c and sha256_mb.c (the several-messages-
 * at-once kernels) share.  Not for use outside core/sha256*.c.
 */
#ifndef AB_SHA256_PRIV_H
#define AB_SHA256_PRIV_H

#include "compat.h"

/* FIPS 180-4 section 4.2.2: the 64 round constants */
extern const uint32_t sha256_k[64];

/* Lanes of the widest multi-message kernel this CPU runs: 16 (AVX-512F),
 * 8 (AVX2) or 0 (none, or not x86-64). */
int sha256_mb_probe(void);
/* nblocks 64-byte blocks of each of the `lanes` messages p[k] into the
 * states h[k] (lanes 16 or 8, as sha256_mb_probe allows); -1 for any
 * other lane count. */
int sha256_mb_blocks(int lanes, uint32_t *const h[], const unsigned char *const p[],
		     size_t nblocks);

#endif
