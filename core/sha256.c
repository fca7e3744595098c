/*
 * sha256.c - SHA-256 written from FIPS 180-4.
 */
#include "compat.h"
#include "sha256.h"
#include "sha256_priv.h"

const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void compress_c(uint32_t h[8], const unsigned char *p, size_t nblocks);
static void compress_one(uint32_t h[8], const unsigned char *p);

#if defined(__x86_64__) && defined(__GNUC__)
/*
 * The SHA extensions (Intel Goldmont / Ice Lake and later, AMD Zen) do
 * four rounds per two instructions: about 8x the portable code, which
 * matters because every ingested byte is hashed.  Chosen at run time.
 */
#include <cpuid.h>
#include <immintrin.h>

__attribute__((target("sha,sse4.1"))) static void compress_ni(uint32_t h[8],
							      const unsigned char *p,
							      size_t nblocks)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i st0, st1, tmp, m[4], msg, save0, save1;
	int g;

	/* h[] = A..H -> st0 = ABEF, st1 = CDGH (the instructions' layout) */
	tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xb1);
	st1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1b);
	st0 = _mm_alignr_epi8(tmp, st1, 8);
	st1 = _mm_blend_epi16(st1, tmp, 0xf0);
	for (; nblocks; nblocks--, p += 64) {
		save0 = st0;
		save1 = st1;
		for (g = 0; g < 4; g++)
			m[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), bswap);
		for (g = 0; g < 16; g++) {
			__m128i cur = m[g & 3];
			msg = _mm_add_epi32(cur, _mm_loadu_si128((const __m128i *)&sha256_k[4 * g]));
			st1 = _mm_sha256rnds2_epu32(st1, st0, msg);
			st0 = _mm_sha256rnds2_epu32(st0, st1, _mm_shuffle_epi32(msg, 0x0e));
			if (g < 12) /* W[16+4g ..] from W[4g ..] */
				m[g & 3] = _mm_sha256msg2_epu32(
					_mm_add_epi32(_mm_sha256msg1_epu32(cur, m[(g + 1) & 3]),
						      _mm_alignr_epi8(m[(g + 3) & 3], m[(g + 2) & 3], 4)),
					m[(g + 3) & 3]);
		}
		st0 = _mm_add_epi32(st0, save0);
		st1 = _mm_add_epi32(st1, save1);
	}
	tmp = _mm_shuffle_epi32(st0, 0x1b);
	st1 = _mm_shuffle_epi32(st1, 0xb1);
	st0 = _mm_blend_epi16(tmp, st1, 0xf0);
	st1 = _mm_alignr_epi8(st1, tmp, 8);
	_mm_storeu_si128((__m128i *)&h[0], st0);
	_mm_storeu_si128((__m128i *)&h[4], st1);
}

static int have_sha_ni(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 29)))
		return 0;
	return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 19)) && (c & (1u << 9));
}

static void compress_n(const struct sha256 *c, uint32_t h[8], const unsigned char *p,
		       size_t nblocks)
{
	if (c->accel)
		compress_ni(h, p, nblocks);
	else
		compress_c(h, p, nblocks);
}
#else
static int have_sha_ni(void)
{
	return 0;
}

static void compress_n(const struct sha256 *c, uint32_t h[8], const unsigned char *p,
		       size_t nblocks)
{
	(void)c;
	compress_c(h, p, nblocks);
}
#endif

static void compress_c(uint32_t h[8], const unsigned char *p, size_t nblocks)
{
	for (; nblocks; nblocks--, p += 64)
		compress_one(h, p);
}

static void compress_one(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (i = 0; i < 64; i++) {
		t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

void sha256_init(struct sha256 *c)
{
	static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	memcpy(c->h, iv, sizeof(iv));
	c->total = 0;
	c->fill = 0;
	/* once per hash: cpuid is slow under virtualisation */
	c->accel = have_sha_ni();
	c->lanes = c->accel ? 0 : sha256_mb_probe();
}

int sha256_lanes(const struct sha256 *c)
{
	return c->lanes > 1 ? c->lanes : 1;
}

void sha256_update_blocks(struct sha256 *const c[], const unsigned char *const data[], size_t n,
			  size_t nblocks)
{
	uint32_t *h[SHA256_LANES_MAX], spare[SHA256_LANES_MAX][8];
	const unsigned char *p[SHA256_LANES_MAX];
	int lanes = n ? c[0]->lanes : 0;
	size_t i;

	if (!nblocks)
		return;
	for (i = 0; i < n; i++)
		if (c[i]->fill) { /* not on a block boundary: the plain way */
			for (i = 0; i < n; i++)
				sha256_update(c[i], data[i], 64 * nblocks);
			return;
		}
	/* side by side when enough lanes carry a message: the 16-lane
	 * kernel costs about two one-message blocks, the 8-lane one three */
	if (lanes > 1 && n <= SHA256_LANES_MAX && n >= (lanes == 16 ? 2u : 3u)) {
		size_t k, from;

		for (from = 0; from < n; from += (size_t)lanes) {
			for (k = 0; k < (size_t)lanes; k++) {
				if (from + k < n) {
					h[k] = c[from + k]->h;
					p[k] = data[from + k];
				} else { /* an idle lane hashes a copy into scratch */
					memcpy(spare[k], c[from]->h, sizeof(spare[k]));
					h[k] = spare[k];
					p[k] = data[from];
				}
			}
			if (n - from == 1)
				compress_n(c[from], c[from]->h, data[from], nblocks);
			else if (sha256_mb_blocks(lanes, h, p, nblocks) < 0)
				break;
			for (k = 0; k < (size_t)lanes && from + k < n; k++)
				c[from + k]->total += 64 * (uint64_t)nblocks;
		}
		if (from >= n)
			return;
		n -= from;
		c += from;
		data += from;
	}
	for (i = 0; i < n; i++) {
		compress_n(c[i], c[i]->h, data[i], nblocks);
		c[i]->total += 64 * (uint64_t)nblocks;
	}
}

void sha256_update(struct sha256 *c, const void *data, size_t len)
{
	const unsigned char *p = data;

	c->total += len;
	if (c->fill) {
		size_t take = 64 - c->fill < len ? 64 - c->fill : len;
		memcpy(c->block + c->fill, p, take);
		c->fill += take;
		p += take;
		len -= take;
		if (c->fill < 64)
			return;
		compress_n(c, c->h, c->block, 1);
		c->fill = 0;
	}
	if (len >= 64) {
		compress_n(c, c->h, p, len / 64);
		p += len - len % 64;
		len %= 64;
	}
	memcpy(c->block, p, len);
	c->fill = len;
}

void sha256_final(struct sha256 *c, unsigned char out[32])
{
	uint64_t bits = c->total * 8;
	int i;

	c->block[c->fill++] = 0x80;
	if (c->fill > 56) {
		memset(c->block + c->fill, 0, 64 - c->fill);
		compress_n(c, c->h, c->block, 1);
		c->fill = 0;
	}
	memset(c->block + c->fill, 0, 56 - c->fill);
	for (i = 0; i < 8; i++)
		c->block[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
	compress_n(c, c->h, c->block, 1);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(c->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)c->h[i];
	}
}

void sha256_hex(const unsigned char digest[32], char hex[65])
{
	static const char xd[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		hex[2 * i] = xd[digest[i] >> 4];
		hex[2 * i + 1] = xd[digest[i] & 15];
	}
	hex[64] = '\0';
}
