/*
 * prehash.h - the driver's file digests, hashed ahead of the parser.
 * Owner: ingest (the file read/hash primitive).  Not for use outside
 * ingest/.
 *
 * Every ingested file's SHA-256 decides whether it was ingested before.
 * On a CPU without the SHA extensions but with vector lanes (AVX-512F,
 * AVX2) the driver hashes the next files of its list side by side, one
 * file per lane, streaming each (64 KiB at a time per lane), a bounded
 * number of files ahead of the one it asks for.  A small file is read
 * whole and its bytes handed to the caller with the digest, so it is read
 * once for both; nothing else changes (same digests, order and error
 * messages: a file it cannot open or read is left to the caller).
 */
#ifndef AB_INGEST_PREHASH_H
#define AB_INGEST_PREHASH_H

#include "core/compat.h"
#include "core/sha256.h"
#include "core/strbuf.h"

struct ingest_prehash;

/* NULL when hashing ahead does not pay here (one lane: SHA extensions or
 * no vector unit, or fewer than two files).  paths[] (and skip[], n flags
 * or NULL) must outlive it; files with skip[i] set are neither read nor
 * hashed (companions the caller will likely not need); fresh is an
 * sha256_init()ed context (probing the CPU is slow). */
struct ingest_prehash *ingest_prehash_new(char *const *paths, size_t n,
					  const struct sha256 *fresh, const char *skip);
/* File i's lowercase hex digest and byte count: 0, or -1 when the caller
 * must hash it itself (not openable or readable, or out of range), or 1
 * when file i was skipped (the caller hashes it if it needs to).  With
 * 0, *data is the file's bytes, the ones hashed (the caller gives them
 * back with ingest_prehash_release), or NULL when the file was too large
 * to keep (the caller reads it).  Ask in increasing i; files before i are
 * forgotten. */
int ingest_prehash_get(struct ingest_prehash *ph, size_t i, char hex[65], uint64_t *size,
		       unsigned char **data);
/*
 * Without waiting: as ingest_prehash_get when file i's result is there,
 * else 2 (nothing taken; its hashing goes on).  The caller may then parse
 * the file without its digest and ingest_prehash_defer(i): whoever stores
 * the file takes the digest later with ingest_prehash_claim (file order;
 * from any one thread), while the caller moves on to later files.
 * Without a hashing thread it is ingest_prehash_get (never 2).  With
 * AB_INGEST_DIGEST=late in the environment it is always 2 (tests).
 */
int ingest_prehash_try(struct ingest_prehash *ph, size_t i, char hex[65], uint64_t *size,
		       unsigned char **data);
void ingest_prehash_defer(struct ingest_prehash *ph, size_t i);
/* File i's digest and byte count (deferred above, the oldest not claimed
 * yet), waiting for it (or hashing it here when the lanes could not):
 * 0, or -AB_EDATA with err when the file cannot be read. */
int ingest_prehash_claim(struct ingest_prehash *ph, size_t i, char hex[65], uint64_t *size,
			 struct strbuf *err);
/* Give back *data of ingest_prehash_get/try (for the next files). */
void ingest_prehash_release(struct ingest_prehash *ph, unsigned char *data);
void ingest_prehash_free(struct ingest_prehash *ph);

#endif
