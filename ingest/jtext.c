/*
 * jtext.c - JSON text written directly, byte for byte the way jansson's
 * json_dumps(JSON_COMPACT | JSON_ENSURE_ASCII) writes the same values, but
 * for reals in the shortest form that reads back equal (see jtext.h):
 * scalars, objects under construction, and the text of a jansson value.
 *
 * Why: a parser that builds a jansson object per record, only for the
 * pipeline to dump it to text again, spends most of its time in malloc,
 * free and printf (a 300,000-line perflog: ~0.6 s of 1.7 s); and printf
 * of a double at 17 digits (glibc's exact multi-precision path) was a
 * tenth of a CARAML ingest.  Writing the text once keeps everything
 * downstream unchanged (dedupe-key hashes hold no reals).
 * tests/unit/test_jtext.c and test_json_text.c compare every writer here
 * with jansson.
 */
#include "core/compat.h"
#include "jtext.h"

#include <math.h>
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define JTEXT_SSE2 1
#endif

/* ---- scalars ----------------------------------------------------------- */

static const char hexd[] = "0123456789ABCDEF";

static void add_u4(struct strbuf *o, unsigned cp)
{
	char b[6] = { '\\', 'u', hexd[(cp >> 12) & 15], hexd[(cp >> 8) & 15],
		      hexd[(cp >> 4) & 15], hexd[cp & 15] };

	strbuf_add(o, b, 6);
}

/* 1: the byte is written as it is (printable ASCII but '"' and '\\') */
static const unsigned char plain_byte[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* Past the bytes JSON writes as they are (printable ASCII but '"' and
 * '\\'), eight at a time while none of the eight needs escaping. */
static const unsigned char *plain_run(const unsigned char *q, const unsigned char *end)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;

#ifdef JTEXT_SSE2
	/* sixteen at a time: as signed bytes, < 0x20 also catches >= 0x80 */
	const __m128i ctl = _mm_set1_epi8(0x20), qu = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');

	while (end - q >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
		int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(v, ctl),
						       _mm_or_si128(_mm_cmpeq_epi8(v, qu),
								    _mm_cmpeq_epi8(v, bs))));
		if (m)
			return q + __builtin_ctz((unsigned)m);
		q += 16;
	}
#endif
	while (end - q >= 8) {
		uint64_t w, quote, bslash;

		memcpy(&w, q, 8);
		quote = w ^ (ones * '"');
		bslash = w ^ (ones * '\\');
		/* any byte >= 0x80, < 0x20, == '"' or == '\\' (exact for "any") */
		if ((w | ((w - ones * 0x20) & ~w) | ((quote - ones) & ~quote) |
		     ((bslash - ones) & ~bslash)) & highs)
			break;
		q += 8;
	}
	while (q < end && plain_byte[*q])
		q++;
	return q;
}

void jtext_str(struct strbuf *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	/* the common case: printable ASCII without '"' or '\\', written at once */
	const unsigned char *q = plain_run(p, end);

	strbuf_grow(o, n + 2);
	if (q == end) {
		char *d = o->buf + o->len;
		d[0] = '"';
		memcpy(d + 1, s, n);
		d[n + 1] = '"';
		strbuf_setlen(o, o->len + n + 2);
		return;
	}
	strbuf_addch(o, '"');
	while (p < end) {
		const unsigned char *run = p;
		unsigned cp;
		size_t k, len;

		/* the common case: printable ASCII without '"' or '\\' */
		p = plain_run(p, end);
		if (p > run)
			strbuf_add(o, run, (size_t)(p - run));
		if (p >= end)
			break;
		cp = *p;
		if (cp == '"' || cp == '\\') {
			char e[2] = { '\\', (char)cp };
			strbuf_add(o, e, 2);
			p++;
			continue;
		}
		if (cp < 0x20) {
			const char *short_esc = NULL;
			switch (cp) {
			case '\b': short_esc = "\\b"; break;
			case '\f': short_esc = "\\f"; break;
			case '\n': short_esc = "\\n"; break;
			case '\r': short_esc = "\\r"; break;
			case '\t': short_esc = "\\t"; break;
			}
			if (short_esc)
				strbuf_add(o, short_esc, 2);
			else
				add_u4(o, cp);
			p++;
			continue;
		}
		/* UTF-8 sequence (the caller checked it is valid; a stray byte
		 * becomes U+FFFD rather than breaking the JSON) */
		if (cp >= 0xC2 && cp <= 0xDF) {
			len = 1;
			cp &= 0x1F;
		} else if (cp >= 0xE0 && cp <= 0xEF) {
			len = 2;
			cp &= 0x0F;
		} else if (cp >= 0xF0 && cp <= 0xF4) {
			len = 3;
			cp &= 0x07;
		} else {
			add_u4(o, 0xFFFD);
			p++;
			continue;
		}
		if ((size_t)(end - p) <= len) {
			add_u4(o, 0xFFFD);
			p++;
			continue;
		}
		for (k = 1; k <= len && (p[k] & 0xC0) == 0x80; k++)
			cp = (cp << 6) | (p[k] & 0x3F);
		if (k <= len) {
			add_u4(o, 0xFFFD);
			p++;
			continue;
		}
		p += len + 1;
		if (cp >= 0x10000) {
			cp -= 0x10000;
			add_u4(o, 0xD800 | ((cp >> 10) & 0x3FF));
			add_u4(o, 0xDC00 | (cp & 0x3FF));
		} else {
			add_u4(o, cp);
		}
	}
	strbuf_addch(o, '"');
}

int jtext_str_utf8(struct strbuf *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	if (plain_run(p, p + n) == p + n) {
		char *d;
		strbuf_grow(o, n + 2);
		d = o->buf + o->len;
		d[0] = '"';
		memcpy(d + 1, s, n);
		d[n + 1] = '"';
		strbuf_setlen(o, o->len + n + 2);
		return 0;
	}
	if (!jtext_utf8_valid(s, n))
		return -1;
	jtext_str(o, s, n);
	return 0;
}

/* two digits at a time from "00".."99" (dedupe keys print 17-digit
 * integers: ~175 instructions each a digit at a time) */
static const char two_digits[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

void jtext_int(struct strbuf *o, long long v)
{
	char b[24];
	size_t i = sizeof(b);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	while (u >= 100) {
		unsigned r = (unsigned)(u % 100);
		u /= 100;
		i -= 2;
		memcpy(b + i, two_digits + 2 * r, 2);
	}
	if (u >= 10) {
		i -= 2;
		memcpy(b + i, two_digits + 2 * u, 2);
	} else {
		b[--i] = (char)('0' + u);
	}
	if (v < 0)
		b[--i] = '-';
	strbuf_add(o, b + i, sizeof(b) - i);
}

/*
 * The shortest of %.15g, %.16g and %.17g of v that reads back as v (17
 * digits always do), for a finite, non-integer v with 1e-4 <= |v| < 2^53
 * (the fixed notation %g picks there), exactly as glibc prints it: the
 * significant digits of the exact binary value, rounded to nearest with
 * ties to even, trailing zeros dropped.  v = m / 2^s, so the nd digits are
 * floor(m * 10^k / 2^s) with k = nd - 1 - (decimal exponent) <= 20: at most
 * 2^53 * 10^20 < 2^120, exact in 128 bits.  Whether the digits read back as
 * v is exact too: the decimal is within v's rounding interval (half an ulp
 * either side, a quarter below a power of two; the bound itself reads back
 * as v when m is even).  Returns 0 when v is outside that range or the
 * compiler has no 128-bit integers (the caller prints with snprintf then).
 */
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 jt_u128;

static const uint64_t p10[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
	10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL
};

static jt_u128 pow10_128(int k)
{
	return k < 20 ? (jt_u128)p10[k] : (jt_u128)p10[19] * 10;
}

/* The nd significant digits of m / 2^s (scaled by 10^k) rounded to nearest,
 * even on a tie, into *q; 1 when they read back as m / 2^s (always for
 * nd == 17), else 0. */
static int digits_at(uint64_t m, int s, int k, int nd, uint64_t *q)
{
	jt_u128 scale = pow10_128(k), num = (jt_u128)m * scale;
	jt_u128 rem = num & ((((jt_u128)1) << s) - 1), half = ((jt_u128)1) << (s - 1), err;
	int up = rem > half || (rem == half && ((uint64_t)(num >> s) & 1));

	*q = (uint64_t)(num >> s) + (uint64_t)up;
	if (nd == 17)
		return 1;
	/* the distance from v, in units of 2^-s * 10^-k; half an ulp is scale/2 */
	err = up ? (((jt_u128)1) << s) - rem : rem;
	if (!up && rem && m == (1ULL << 52)) /* below a power of two: a quarter */
		return 4 * err < scale || (4 * err == scale && !(m & 1));
	return 2 * err < scale || (2 * err == scale && !(m & 1));
}

static int real_fixed_short(struct strbuf *o, double v)
{
	double a = fabs(v);
	uint64_t bits, m, q = 0;
	int s, x, k, i, nd, tries;
	char d[17], b[48];
	size_t n = 0, end;

	if (!(a >= 1e-4 && a < 9007199254740992.0))
		return 0;
	memcpy(&bits, &a, sizeof(bits));
	m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52); /* a >= 1e-4: normal */
	s = 1075 - (int)(bits >> 52);                    /* a = m / 2^s */
	if (s <= 0 || s > 120)
		return 0;
	x = (int)floor(log10(a)); /* the decimal exponent, checked below */
	for (tries = 0;; tries++) {
		k = 16 - x;
		if (k < 0 || k > 20 || tries > 2)
			return 0;
		q = (uint64_t)(((jt_u128)m * pow10_128(k)) >> s);
		if (q >= p10[17])
			x++;
		else if (q < p10[16])
			x--;
		else
			break;
	}
	if (x < -4)
		return 0;
	for (nd = 15; nd <= 17; nd++) {
		if (16 - x - (17 - nd) < 0)
			continue; /* digits left of the point only: never v */
		if (digits_at(m, s, 16 - x - (17 - nd), nd, &q))
			break;
	}
	if (q == p10[nd]) { /* 9.99...95 rounded up to the next power of ten */
		q = p10[nd - 1];
		x++;
	}
	for (i = nd - 1; i >= 0; i--) {
		d[i] = (char)('0' + q % 10);
		q /= 10;
	}
	for (end = (size_t)nd; end > 0 && d[end - 1] == '0'; end--)
		;
	if (v < 0)
		b[n++] = '-';
	if (x >= 0) {
		size_t lead = (size_t)x + 1;
		for (i = 0; (size_t)i < lead; i++) /* digits beyond nd are zeros */
			b[n++] = (size_t)i < end ? d[i] : '0';
		if (end > lead) {
			b[n++] = '.';
			memcpy(b + n, d + lead, end - lead);
			n += end - lead;
		} else {
			b[n++] = '.'; /* jansson: a real always shows it is one */
			b[n++] = '0';
		}
	} else {
		b[n++] = '0';
		b[n++] = '.';
		for (i = 0; i < -x - 1; i++)
			b[n++] = '0';
		memcpy(b + n, d, end);
		n += end;
	}
	strbuf_add(o, b, n);
	return 1;
}
#else
static int real_fixed_short(struct strbuf *o, double v)
{
	(void)o;
	(void)v;
	return 0;
}
#endif

/* %.<prec>g of v as jansson lays it out (".0" on a bare integer, no '+'
 * and no leading zeros in the exponent) into b; its length, or -1. */
static int real_g(char *b, size_t size, int prec, double v)
{
	int n = snprintf(b, size, "%.*g", prec, v);
	char *e;

	if (n < 0 || (size_t)n >= size - 3)
		return -1;
	if (!strchr(b, '.') && !strchr(b, 'e')) {
		b[n++] = '.';
		b[n++] = '0';
		b[n] = '\0';
	}
	e = strchr(b, 'e');
	if (e) {
		char *start = e + 1, *end = e + 2;
		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start) {
			memmove(start, end, (size_t)(b + n - end) + 1);
			n -= (int)(end - start);
		}
	}
	return n;
}

void jtext_real(struct strbuf *o, double v)
{
	char b[64], best[64];
	int n, nbest = -1, prec;

	/* integers below 10^15 print as their digits with ".0", as %.15g does
	 * (from 10^15 on, %.15g may take an exponent: 2.5e15) */
	if (v == floor(v) && fabs(v) < 1e15 && !(v == 0 && signbit(v))) {
		jtext_int(o, (long long)v);
		strbuf_add(o, ".0", 2);
		return;
	}
	if (!isfinite(v)) {
		/* jansson refuses these; a parser never gets here (callers check) */
		strbuf_addstr(o, "null");
		return;
	}
	if (v != floor(v) && real_fixed_short(o, v))
		return;
	/* the shortest text of 15, 16, 17 digits that reads back equal (issue
	 * 13); with an exponent, 16 digits can be longer than 17 without */
	for (prec = 15; prec <= 17; prec++) {
		n = real_g(b, sizeof(b), prec, v);
		if (n > 0 && (nbest < 0 || n < nbest) && (prec == 17 || strtod(b, NULL) == v)) {
			memcpy(best, b, (size_t)n + 1);
			nbest = n;
		}
	}
	if (nbest < 0)
		strbuf_addstr(o, "null");
	else
		strbuf_add(o, best, (size_t)nbest);
}

void jtext_real_cached(struct jtext_obj *j, struct strbuf *o, double v)
{
	uint64_t bits;
	struct jtext_real_memo *r;
	size_t mark;

	memcpy(&bits, &v, sizeof(bits));
	if (!j->memo)
		j->memo = ab_calloc(JTEXT_MEMO, sizeof(*j->memo));
	r = &j->memo[(bits ^ (bits >> 29) ^ (bits >> 47)) % JTEXT_MEMO];
	if (r->len && r->bits == bits) {
		strbuf_add(o, r->text, r->len);
		return;
	}
	mark = o->len;
	jtext_real(o, v);
	if (o->len - mark < sizeof(r->text)) {
		r->bits = bits;
		r->len = (unsigned char)(o->len - mark);
		memcpy(r->text, o->buf + mark, r->len);
	}
}

static int add_value(struct ingest_jtext *c, struct strbuf *out, const json_t *v, int depth);

int jtext_json(struct strbuf *o, json_t *v)
{
	size_t mark = o->len;

	/* json_dumps(JSON_ENCODE_ANY) with the reals in their shortest form */
	if (!v || add_value(NULL, o, v, 0) < 0) {
		strbuf_setlen(o, mark);
		return -1;
	}
	return 0;
}

/* ---- objects -----------------------------------------------------------
 * The keys are a dictionary kept across clear(): a record of a perflog
 * sets the same keys as the one before, so a key is hashed, copied and
 * escaped once, not once per record, and dump() copies each member's
 * ready "key": text.  The dictionary is dropped at a clear() once it holds
 * JTEXT_KEYS_MAX keys (memory stays bounded whatever the keys). */

#define JTEXT_KEYS_MAX 4096

/* struct jtext_ent and jtext_key: in jtext.h (the inline fast paths) */

void jtext_obj_init(struct jtext_obj *j)
{
	memset(j, 0, sizeof(*j));
	strbuf_init(&j->keys, 0);
	strbuf_init(&j->vals, 0);
	j->gen = 1;
}

void jtext_obj_release(struct jtext_obj *j)
{
	free(j->e);
	free(j->k);
	free(j->slot);
	free(j->memo);
	strbuf_release(&j->keys);
	strbuf_release(&j->vals);
	jtext_obj_init(j);
}

static void keys_drop(struct jtext_obj *j)
{
	j->nk = 0;
	j->epoch++;
	strbuf_reset(&j->keys);
	if (j->nslot)
		memset(j->slot, 0, j->nslot * sizeof(*j->slot));
}

void jtext_obj_clear(struct jtext_obj *j)
{
	j->n = 0;
	j->qsum = 0;
	strbuf_reset(&j->vals);
	if (j->nk >= JTEXT_KEYS_MAX)
		keys_drop(j);
	if (++j->gen == 0) { /* wrapped: no key may look as if it were in this record */
		size_t i;
		for (i = 0; i < j->nk; i++)
			j->k[i].gen = 0;
		j->gen = 1;
	}
}

/* FNV-1a over 8-byte words (keys are short: a byte loop was ~4 instructions a byte) */
static uint32_t key_hash(const char *k, size_t n)
{
	uint64_t h = 14695981039346656037ull, w;

	while (n >= 8) {
		memcpy(&w, k, 8);
		h = (h ^ w) * 1099511628211ull;
		h ^= h >> 29;
		k += 8;
		n -= 8;
	}
	w = 0;
	if (n)
		memcpy(&w, k, n);
	h = (h ^ w ^ ((uint64_t)n << 59)) * 1099511628211ull;
	h ^= h >> 32;
	return (uint32_t)h;
}

static void reindex(struct jtext_obj *j)
{
	size_t i;

	free(j->slot);
	j->nslot = j->nslot ? 2 * j->nslot : 64;
	j->slot = ab_calloc(j->nslot, sizeof(*j->slot));
	for (i = 0; i < j->nk; i++) {
		size_t s = j->k[i].hash & (j->nslot - 1);
		while (j->slot[s])
			s = (s + 1) & (j->nslot - 1);
		j->slot[s] = (uint32_t)(i + 1);
	}
}

/* The key's index, or -1 (then *slot is where it would go). */
static long key_find(const struct jtext_obj *j, const char *key, size_t n, uint32_t h,
		     size_t *slot)
{
	size_t s;

	if (!j->nslot) {
		*slot = 0;
		return -1;
	}
	for (s = h & (j->nslot - 1); j->slot[s]; s = (s + 1) & (j->nslot - 1)) {
		const struct jtext_key *k = &j->k[j->slot[s] - 1];
		if (k->hash == h && k->klen == n && ab_memeq(j->keys.buf + k->off, key, n))
			return (long)j->slot[s] - 1;
	}
	*slot = s;
	return -1;
}

static uint32_t key_add(struct jtext_obj *j, const char *key, size_t n, uint32_t h)
{
	struct jtext_key *k;
	size_t s = 0;

	if ((j->nk + 1) * 2 > j->nslot)
		reindex(j);
	(void)key_find(j, key, n, h, &s);
	if (j->nk == j->kcap) {
		j->kcap = j->kcap ? 2 * j->kcap : 32;
		j->k = ab_realloc(j->k, j->kcap * sizeof(*j->k));
	}
	k = &j->k[j->nk];
	k->hash = h;
	k->gen = 0;
	k->pos = 0;
	k->off = j->keys.len;
	k->klen = n;
	strbuf_add(&j->keys, key, n);
	k->qoff = j->keys.len;
	jtext_str(&j->keys, key, n);
	strbuf_addch(&j->keys, ':');
	k->qlen = j->keys.len - k->qoff;
	j->slot[s] = (uint32_t)(j->nk + 1);
	return (uint32_t)j->nk++;
}

void jtext_obj_put_slow(struct jtext_obj *j, const char *key, size_t klen, size_t mark)
{
	struct jtext_key *k = NULL;
	struct jtext_ent *e;
	uint32_t id;

	/* the record before had this key here: no hashing (e[n] is still its) */
	if (j->n < j->cap && j->e[j->n].key < j->nk) {
		k = &j->k[j->e[j->n].key];
		if (k->klen != klen || !ab_memeq(j->keys.buf + k->off, key, klen))
			k = NULL;
	}
	if (k) {
		id = (uint32_t)(k - j->k);
	} else {
		uint32_t h = key_hash(key, klen);
		size_t s;
		long f = key_find(j, key, klen, h, &s);
		id = f >= 0 ? (uint32_t)f : key_add(j, key, klen, h);
		k = &j->k[id];
	}
	if (k->gen == j->gen) {
		/* set again: the new value in the old place, as jansson does */
		e = &j->e[k->pos];
		e->val = mark;
		e->vlen = j->vals.len - mark;
		return;
	}
	if (j->n == j->cap) {
		size_t i, old = j->cap;
		j->cap = j->cap ? 2 * j->cap : 32;
		j->e = ab_realloc(j->e, j->cap * sizeof(*j->e));
		for (i = old; i < j->cap; i++)
			j->e[i].key = UINT32_MAX;
	}
	k->gen = j->gen;
	k->pos = j->n;
	j->qsum += k->qlen;
	e = &j->e[j->n++];
	e->key = id;
	e->val = mark;
	e->vlen = j->vals.len - mark;
}

void jtext_obj_set_str(struct jtext_obj *j, const char *key, const char *s, size_t n)
{
	size_t mark = j->vals.len;

	jtext_str(&j->vals, s, n);
	jtext_obj_put(j, key, strlen(key), mark);
}

void jtext_obj_set_raw(struct jtext_obj *j, const char *key, const char *text, size_t n)
{
	size_t mark = j->vals.len;

	strbuf_add(&j->vals, text, n);
	jtext_obj_put(j, key, strlen(key), mark);
}

void jtext_obj_set_int(struct jtext_obj *j, const char *key, long long v)
{
	size_t mark = j->vals.len;

	jtext_int(&j->vals, v);
	jtext_obj_put(j, key, strlen(key), mark);
}

void jtext_obj_set_real(struct jtext_obj *j, const char *key, double v)
{
	size_t mark = j->vals.len;

	jtext_real(&j->vals, v);
	jtext_obj_put(j, key, strlen(key), mark);
}

void jtext_obj_set_json(struct jtext_obj *j, const char *key, json_t *v)
{
	size_t mark = j->vals.len;

	if (jtext_json(&j->vals, v) == 0)
		jtext_obj_put(j, key, strlen(key), mark);
}

static const char *obj_geth(const struct jtext_obj *j, const char *key, size_t klen, uint32_t hash,
			   size_t *len)
{
	size_t s;
	long f = key_find(j, key, klen, hash, &s);
	const struct jtext_ent *e;

	if (f < 0 || j->k[f].gen != j->gen)
		return NULL;
	e = &j->e[j->k[f].pos];
	*len = e->vlen;
	return j->vals.buf + e->val;
}

const char *jtext_obj_get_ref_slow(const struct jtext_obj *j, struct jtext_keyref *r,
				   size_t *len)
{
	const struct jtext_ent *e;

	if (!r->looked || r->epoch != j->epoch || (r->id < 0 && r->nk != j->nk)) {
		size_t s;
		if (!r->looked)
			r->hash = key_hash(r->key, r->klen);
		r->id = key_find(j, r->key, r->klen, r->hash, &s);
		r->nk = j->nk;
		r->epoch = j->epoch;
		r->looked = 1;
	}
	if (r->id < 0 || j->k[r->id].gen != j->gen)
		return NULL;
	e = &j->e[j->k[r->id].pos];
	*len = e->vlen;
	return j->vals.buf + e->val;
}

const char *jtext_obj_get(const struct jtext_obj *j, const char *key, size_t *len)
{
	size_t n = strlen(key);

	return obj_geth(j, key, n, key_hash(key, n), len);
}

static size_t obj_size(const struct jtext_obj *j)
{
	size_t i, total = 2;

	for (i = 0; i < j->n; i++)
		total += j->k[j->e[i].key].qlen + j->e[i].vlen + 1;
	return total;
}

static void obj_dump(const struct jtext_obj *j, struct strbuf *out, size_t total, uint32_t *ends)
{
	size_t i;
	char *d, *start;

	strbuf_grow(out, total);
	start = d = out->buf + out->len;
	*d++ = '{';
	for (i = 0; i < j->n; i++) {
		const struct jtext_ent *e = &j->e[i];
		const struct jtext_key *k = &j->k[e->key];
		if (i) {
			if (ends)
				ends[i - 1] = (uint32_t)(d - start);
			*d++ = ',';
		}
		/* ab_copy: the short pieces without a call for each */
		ab_copy(d, j->keys.buf + k->qoff, k->qlen);
		d += k->qlen;
		ab_copy(d, j->vals.buf + e->val, e->vlen);
		d += e->vlen;
	}
	if (ends && j->n)
		ends[j->n - 1] = (uint32_t)(d - start);
	*d++ = '}';
	strbuf_setlen(out, (size_t)(d - out->buf));
}

/* At least obj_size(j) without walking the members (the values' text
 * is at most vals' length), or obj_size(j) itself when that is past
 * 32 bits (dump_ends decides on it). */
static size_t obj_room(const struct jtext_obj *j)
{
	size_t room = 2 + j->qsum + j->vals.len + j->n;

	return room > UINT32_MAX ? obj_size(j) : room;
}

void jtext_obj_dump(const struct jtext_obj *j, struct strbuf *out)
{
	obj_dump(j, out, obj_room(j), NULL);
}

int jtext_obj_dump_ends(const struct jtext_obj *j, struct strbuf *out, uint32_t *ends)
{
	size_t total = obj_room(j);

	if (total > UINT32_MAX) {
		obj_dump(j, out, total, NULL);
		return -1;
	}
	obj_dump(j, out, total, ends);
	return 0;
}

void jtext_obj_add_json(struct jtext_obj *j, json_t *obj)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v)
		jtext_obj_set_json(j, key, v);
}

json_t *jtext_obj_value(const struct jtext_obj *j, const char *key)
{
	size_t n;
	const char *v = jtext_obj_get(j, key, &n);

	return v ? json_loadb(v, n, JSON_DECODE_ANY, NULL) : NULL;
}

/* ---- validity ---------------------------------------------------------- */

int jtext_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		unsigned c = *p, cp;
		size_t len, k;

		if (c < 0x80) {
			p++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF) {
			len = 1;
			cp = c & 0x1F;
		} else if (c >= 0xE0 && c <= 0xEF) {
			len = 2;
			cp = c & 0x0F;
		} else if (c >= 0xF0 && c <= 0xF4) {
			len = 3;
			cp = c & 0x07;
		} else {
			return 0;
		}
		if ((size_t)(end - p) <= len)
			return 0;
		for (k = 1; k <= len; k++) {
			if ((p[k] & 0xC0) != 0x80)
				return 0;
			cp = (cp << 6) | (p[k] & 0x3F);
		}
		if ((len == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
		    (len == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
			return 0;
		p += len + 1;
	}
	return 1;
}

/* ---- the text of a jansson value ---------------------------------------- */

#define JTEXT_MAX_DEPTH 2048 /* jansson's parser allows no deeper nesting */

void ingest_jtext_init(struct ingest_jtext *c)
{
	memset(c, 0, sizeof(*c));
}

static void add_real(struct ingest_jtext *c, struct strbuf *out, double d)
{
	uint64_t bits;
	size_t slot, before = out->len, n;

	if (!c) { /* jtext_json: no cache */
		jtext_real(out, d);
		return;
	}
	memcpy(&bits, &d, sizeof(bits));
	slot = (size_t)((bits * 0x9e3779b97f4a7c15ull) >> 56) % INGEST_JTEXT_REALS;
	if (c->real[slot].len && c->real[slot].bits == bits) {
		strbuf_add(out, c->real[slot].s, c->real[slot].len);
		return;
	}
	jtext_real(out, d);
	n = out->len - before;
	if (n > 0 && n < sizeof(c->real[slot].s)) {
		c->real[slot].bits = bits;
		c->real[slot].len = (unsigned char)n;
		memcpy(c->real[slot].s, out->buf + before, n);
	}
}

/* jansson fails on a string that is not UTF-8 (json_stringn_nocheck can
 * hold one); so does this */
static int add_string(struct strbuf *out, const char *s, size_t len)
{
	if (!jtext_utf8_valid(s, len))
		return -1;
	jtext_str(out, s, len);
	return 0;
}

static int add_value(struct ingest_jtext *c, struct strbuf *out, const json_t *v, int depth)
{
	size_t i;

	if (depth > JTEXT_MAX_DEPTH)
		return -1;
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		void *it = json_object_iter((json_t *)v);

		strbuf_addch(out, '{');
		for (i = 0; it; i++, it = json_object_iter_next((json_t *)v, it)) {
			if (i)
				strbuf_addch(out, ',');
			if (add_string(out, json_object_iter_key(it), json_object_iter_key_len(it)) < 0)
				return -1;
			strbuf_addch(out, ':');
			if (add_value(c, out, json_object_iter_value(it), depth + 1) < 0)
				return -1;
		}
		strbuf_addch(out, '}');
		return 0;
	}
	case JSON_ARRAY:
		strbuf_addch(out, '[');
		for (i = 0; i < json_array_size(v); i++) {
			if (i)
				strbuf_addch(out, ',');
			if (add_value(c, out, json_array_get(v, i), depth + 1) < 0)
				return -1;
		}
		strbuf_addch(out, ']');
		return 0;
	case JSON_STRING:
		return add_string(out, json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		jtext_int(out, (long long)json_integer_value(v));
		return 0;
	case JSON_REAL:
		if (!isfinite(json_real_value(v)))
			return -1;
		add_real(c, out, json_real_value(v));
		return 0;
	case JSON_TRUE:
		strbuf_addstr(out, "true");
		return 0;
	case JSON_FALSE:
		strbuf_addstr(out, "false");
		return 0;
	case JSON_NULL:
		strbuf_addstr(out, "null");
		return 0;
	}
	return -1;
}

int ingest_jtext_add(struct ingest_jtext *c, struct strbuf *out, const json_t *v)
{
	/* json_dumps without JSON_ENCODE_ANY prints objects and arrays only */
	if (!v || (!json_is_object(v) && !json_is_array(v)))
		return -1;
	return add_value(c, out, v, 0);
}

char *ingest_jtext_dup(struct ingest_jtext *c, const json_t *v)
{
	struct strbuf sb = STRBUF_INIT;

	if (ingest_jtext_add(c, &sb, v) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}
