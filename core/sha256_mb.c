/*
 * sha256_mb.c - SHA-256 of several messages at once, written from FIPS
 * 180-4: message k runs in 32-bit lane k of vector registers (16 lanes
 * with AVX-512F, 8 with AVX2), every lane doing the standard compression
 * of its own block.  On a CPU without the SHA extensions this hashes an
 * ingest's many files about an order of magnitude faster per core than
 * the one-block-at-a-time code.  Chosen at run time (sha256_init); the
 * digests are those of sha256_update (tests/unit/test_core.c compares).
 */
#include "compat.h"
#include "sha256.h"
#include "sha256_priv.h"


#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

/*
 * The kernel, written once over the vector operations V_*: nblocks blocks
 * of each of the LANES messages p[k] into the states h[k].  V_LOAD_WORDS
 * loads one block of every lane and transposes them (W[t] = word t of
 * every lane), V_BSWAP makes the big-endian words native.  W[] is then
 * the schedule's ring of the last 16 words.
 */
#define MB_ROUND(a, b, c, d, e, f, g, h, t)                                                   \
	do {                                                                                \
		V t1_, t2_;                                                                 \
		if ((t) >= 16) {                                                            \
			V w2_ = W[((t) - 2) & 15], w15_ = W[((t) - 15) & 15];               \
			W[(t) & 15] = V_ADD(V_ADD(W[(t) & 15], W[((t) - 7) & 15]),          \
					    V_ADD(V_XOR3(V_ROR(w15_, 7), V_ROR(w15_, 18),           \
							 V_SHR(w15_, 3)),                           \
						  V_XOR3(V_ROR(w2_, 17), V_ROR(w2_, 19),            \
							 V_SHR(w2_, 10))));                         \
		}                                                                           \
		t1_ = V_ADD(V_ADD(h, V_XOR3(V_ROR(e, 6), V_ROR(e, 11), V_ROR(e, 25))),     \
			    V_ADD(V_CH(e, f, g), V_ADD(V_SET1((int)sha256_k[t]), W[(t) & 15])));   \
		t2_ = V_ADD(V_XOR3(V_ROR(a, 2), V_ROR(a, 13), V_ROR(a, 22)), V_MAJ(a, b, c)); \
		d = V_ADD(d, t1_);                                                          \
		h = V_ADD(t1_, t2_);                                                        \
	} while (0)

#define MB_KERNEL_BODY(LANES)                                                                 \
	V s[8], a, b, c, d, e, f, g, hh, W[16];                                             \
	uint32_t tmp[LANES];                                                                \
	size_t j;                                                                           \
	int i, k, t;                                                                        \
                                                                                            \
	for (i = 0; i < 8; i++) {                                                           \
		for (k = 0; k < (LANES); k++)                                               \
			tmp[k] = h[k][i];                                                   \
		s[i] = V_LOADU(tmp);                                                        \
	}                                                                                   \
	for (j = 0; j < nblocks; j++) {                                                     \
		V_LOAD_WORDS(W, p, 64 * j);                                                 \
		for (t = 0; t < 16; t++)                                                    \
			W[t] = V_BSWAP(W[t]);                                               \
		a = s[0]; b = s[1]; c = s[2]; d = s[3];                                     \
		e = s[4]; f = s[5]; g = s[6]; hh = s[7];                                    \
		for (t = 0; t < 64; t += 8) {                                               \
			MB_ROUND(a, b, c, d, e, f, g, hh, t);                               \
			MB_ROUND(hh, a, b, c, d, e, f, g, t + 1);                           \
			MB_ROUND(g, hh, a, b, c, d, e, f, t + 2);                           \
			MB_ROUND(f, g, hh, a, b, c, d, e, t + 3);                           \
			MB_ROUND(e, f, g, hh, a, b, c, d, t + 4);                           \
			MB_ROUND(d, e, f, g, hh, a, b, c, t + 5);                           \
			MB_ROUND(c, d, e, f, g, hh, a, b, t + 6);                           \
			MB_ROUND(b, c, d, e, f, g, hh, a, t + 7);                           \
		}                                                                           \
		s[0] = V_ADD(s[0], a); s[1] = V_ADD(s[1], b);                               \
		s[2] = V_ADD(s[2], c); s[3] = V_ADD(s[3], d);                               \
		s[4] = V_ADD(s[4], e); s[5] = V_ADD(s[5], f);                               \
		s[6] = V_ADD(s[6], g); s[7] = V_ADD(s[7], hh);                              \
	}                                                                                   \
	for (i = 0; i < 8; i++) {                                                           \
		V_STOREU(tmp, s[i]);                                                        \
		for (k = 0; k < (LANES); k++)                                               \
			h[k][i] = tmp[k];                                                   \
	}

/* AVX-512F: rotates and three-input logic (ternary truth tables) are one
 * instruction each.  0x96 = a^b^c, 0xCA = a?b:c, 0xE8 = majority,
 * 0xE4 = c?a:b (the byte swap: ror 8 where the mask is set, rol 8 else). */
#define V __m512i
#define V_ADD(x, y) _mm512_add_epi32(x, y)
#define V_ROR(x, n) _mm512_ror_epi32(x, n)
#define V_SHR(x, n) _mm512_srli_epi32(x, n)
#define V_XOR3(x, y, z) _mm512_ternarylogic_epi32(x, y, z, 0x96)
#define V_CH(x, y, z) _mm512_ternarylogic_epi32(x, y, z, 0xCA)
#define V_MAJ(x, y, z) _mm512_ternarylogic_epi32(x, y, z, 0xE8)
#define V_SET1(x) _mm512_set1_epi32(x)
#define V_LOADU(m) _mm512_loadu_si512((const void *)(m))
#define V_STOREU(m, x) _mm512_storeu_si512((void *)(m), x)
#define V_BSWAP(x)                                                                 \
	_mm512_ternarylogic_epi32(_mm512_ror_epi32(x, 8), _mm512_rol_epi32(x, 8),  \
				  _mm512_set1_epi32((int)0xff00ff00u), 0xE4)
#define V_LOAD_WORDS(w, p, off) load16(w, p, off)

/*
 * Row k = lane k's block; out[t] = word t of rows 0..15.  32-bit then
 * 64-bit interleaves leave, in 128-bit part L of b[4i + m], word 4L + m
 * of rows 4i..4i+3; two rounds of 128-bit shuffles gather the four parts
 * of each word.
 */
__attribute__((target("avx512f"))) static inline void load16(__m512i out[16],
							     const unsigned char *const p[16],
							     size_t off)
{
	__m512i r[16], a[16], b[16];
	int i, m;

	for (i = 0; i < 16; i++)
		r[i] = _mm512_loadu_si512((const void *)(p[i] + off));
	for (i = 0; i < 8; i++) {
		a[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
		a[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
	}
	for (i = 0; i < 4; i++) {
		b[4 * i] = _mm512_unpacklo_epi64(a[4 * i], a[4 * i + 2]);
		b[4 * i + 1] = _mm512_unpackhi_epi64(a[4 * i], a[4 * i + 2]);
		b[4 * i + 2] = _mm512_unpacklo_epi64(a[4 * i + 1], a[4 * i + 3]);
		b[4 * i + 3] = _mm512_unpackhi_epi64(a[4 * i + 1], a[4 * i + 3]);
	}
	for (m = 0; m < 4; m++) {
		__m512i c0 = _mm512_shuffle_i32x4(b[m], b[4 + m], 0x44);
		__m512i c1 = _mm512_shuffle_i32x4(b[m], b[4 + m], 0xEE);
		__m512i c2 = _mm512_shuffle_i32x4(b[8 + m], b[12 + m], 0x44);
		__m512i c3 = _mm512_shuffle_i32x4(b[8 + m], b[12 + m], 0xEE);
		out[m] = _mm512_shuffle_i32x4(c0, c2, 0x88);
		out[4 + m] = _mm512_shuffle_i32x4(c0, c2, 0xDD);
		out[8 + m] = _mm512_shuffle_i32x4(c1, c3, 0x88);
		out[12 + m] = _mm512_shuffle_i32x4(c1, c3, 0xDD);
	}
}

__attribute__((target("avx512f"))) static void mb16(uint32_t *const h[16],
						    const unsigned char *const p[16],
						    size_t nblocks)
{
	MB_KERNEL_BODY(16)
}

#undef V
#undef V_ADD
#undef V_ROR
#undef V_SHR
#undef V_XOR3
#undef V_CH
#undef V_MAJ
#undef V_SET1
#undef V_LOADU
#undef V_STOREU
#undef V_BSWAP
#undef V_LOAD_WORDS

/* AVX2: rotates as two shifts, logic from and/andnot/xor. */
#define V __m256i
#define V_ADD(x, y) _mm256_add_epi32(x, y)
#define V_ROR(x, n) _mm256_or_si256(_mm256_srli_epi32(x, n), _mm256_slli_epi32(x, 32 - (n)))
#define V_SHR(x, n) _mm256_srli_epi32(x, n)
#define V_XOR3(x, y, z) _mm256_xor_si256(_mm256_xor_si256(x, y), z)
#define V_CH(x, y, z) _mm256_xor_si256(_mm256_and_si256(x, y), _mm256_andnot_si256(x, z))
#define V_MAJ(x, y, z)                                                               \
	_mm256_or_si256(_mm256_and_si256(x, y), _mm256_and_si256(z, _mm256_or_si256(x, y)))
#define V_SET1(x) _mm256_set1_epi32(x)
#define V_LOADU(m) _mm256_loadu_si256((const __m256i *)(const void *)(m))
#define V_STOREU(m, x) _mm256_storeu_si256((__m256i *)(void *)(m), x)
#define V_BSWAP(x) _mm256_shuffle_epi8(x, bswap)
#define V_LOAD_WORDS(w, p, off) load8(w, p, off)

/* The same transpose for 8 rows of 8 words (two 128-bit parts). */
__attribute__((target("avx2"))) static inline void load8(__m256i out[16],
							 const unsigned char *const p[8],
							 size_t off)
{
	__m256i r[8], a[8], b[8];
	int i, m, half;

	for (half = 0; half < 2; half++) {
		for (i = 0; i < 8; i++)
			r[i] = _mm256_loadu_si256((const __m256i *)(const void *)(p[i] + off +
										  32 * half));
		for (i = 0; i < 4; i++) {
			a[2 * i] = _mm256_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
			a[2 * i + 1] = _mm256_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
		}
		for (i = 0; i < 2; i++) {
			b[4 * i] = _mm256_unpacklo_epi64(a[4 * i], a[4 * i + 2]);
			b[4 * i + 1] = _mm256_unpackhi_epi64(a[4 * i], a[4 * i + 2]);
			b[4 * i + 2] = _mm256_unpacklo_epi64(a[4 * i + 1], a[4 * i + 3]);
			b[4 * i + 3] = _mm256_unpackhi_epi64(a[4 * i + 1], a[4 * i + 3]);
		}
		for (m = 0; m < 4; m++) {
			out[8 * half + m] = _mm256_permute2x128_si256(b[m], b[4 + m], 0x20);
			out[8 * half + 4 + m] = _mm256_permute2x128_si256(b[m], b[4 + m], 0x31);
		}
	}
}

__attribute__((target("avx2"))) static void mb8(uint32_t *const h[8],
						const unsigned char *const p[8], size_t nblocks)
{
	const __m256i bswap = _mm256_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
					      12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2,
					      3);
	MB_KERNEL_BODY(8)
}

int sha256_mb_probe(void)
{
	unsigned a, b, c, d;
	unsigned long long xcr0;

	/* OSXSAVE, and the OS saves the wide registers (XGETBV) */
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)))
		return 0;
	__asm__("xgetbv" : "=a"(a), "=d"(d) : "c"(0));
	xcr0 = ((unsigned long long)d << 32) | a;
	if ((xcr0 & 6) != 6 || !__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	if ((b & (1u << 16)) && (xcr0 & 0xe6) == 0xe6)
		return 16; /* AVX-512F and the OS keeps its state */
	if (b & (1u << 5))
		return 8; /* AVX2 */
	return 0;
}

int sha256_mb_blocks(int lanes, uint32_t *const h[], const unsigned char *const p[],
		     size_t nblocks)
{
	if (lanes == 16)
		mb16(h, p, nblocks);
	else if (lanes == 8)
		mb8(h, p, nblocks);
	else
		return -1;
	return 0;
}
#else
int sha256_mb_probe(void)
{
	return 0;
}

int sha256_mb_blocks(int lanes, uint32_t *const h[], const unsigned char *const p[],
		     size_t nblocks)
{
	(void)lanes; (void)h; (void)p; (void)nblocks;
	return -1;
}
#endif
