/*
 * mlperf_json.c - a strict JSON scanner with the semantics of Python's
 * json.loads (which the official MLPerf tools use), and the :::MLLOG
 * record grammar on top of it.  See mlperf_priv.h.
 *
 * Why not jansson for the records: LoadGen writes 64-bit unsigned seeds
 * (10688027786191513374) that jansson rejects as "too big integer", Python
 * accepts NaN/Infinity and lone surrogate escapes, and the scanner has to
 * run over every record of a round (hundreds of MB) without building
 * objects.  So records are validated in place and only the few values a
 * parser asks for are decoded (jspan_*); jansson objects are built only
 * for the values that go into params.
 */
#include "core/compat.h"
#include "mlperf_priv.h"

#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TPL_AVX2 1 /* chosen at run time (mllog_tpls.avx2) */
#endif

/* ---- JSON scanning --------------------------------------------------- */

struct jscan {
	const char *base;      /* start of the text, for columns */
	size_t col0;
	const char *err_at;
	const char *err;
	int escaped;           /* the last string scanned had a backslash */
};

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline const char *skip_ws(const char *p, const char *end)
{
	/* nearly always one ' ' or none: those two without the loop */
	if (p < end && (unsigned char)*p > ' ')
		return p;
	if (p < end && *p == ' ' && (++p == end || (unsigned char)*p > ' '))
		return p;
	while (p < end && (unsigned char)*p <= ' ' && is_ws(*p))
		p++;
	return p;
}

static const char *scan_fail(struct jscan *s, const char *at, const char *what)
{
	if (!s->err) {
		s->err = what;
		s->err_at = at;
	}
	return NULL;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Bytes that end a run of plain string characters: '"', '\\', controls. */
static const unsigned char str_special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
#define SWAR_ONES 0x0101010101010101ull
#define SWAR_HIGH 0x8080808080808080ull
/* Skip 8 bytes at a time while none is special: x has a byte below 0x20,
 * or equal to '"' or '\\', where (v - 0x01..) & ~v & 0x80.. of x, x ^ '"'s,
 * x ^ '\\'s is non-zero.  Its lowest set bit is always a real hit (a
 * borrow only runs upwards from one), and the bytes are in memory order
 * on a little-endian machine, so the first special byte is found exactly. */
static const char *skip_plain(const char *q, const char *end)
{
#ifdef __SSE2__
	/* 16 bytes at a time: a byte <= 0x1f (unsigned), '"' or '\\' */
	const __m128i lim = _mm_set1_epi8(0x1f), quote = _mm_set1_epi8('"'),
		      bslash = _mm_set1_epi8('\\');

	while (end - q >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
		unsigned hit = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, lim), v),
				     _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash))));
		if (hit)
			return q + __builtin_ctz(hit);
		q += 16;
	}
#endif
	while (end - q >= 8) {
		uint64_t x, hit;
		memcpy(&x, q, 8);
		hit = ((x - 0x20 * SWAR_ONES) | ((x ^ 0x22 * SWAR_ONES) - SWAR_ONES) |
		       ((x ^ 0x5c * SWAR_ONES) - SWAR_ONES));
		hit &= ~x & SWAR_HIGH;
		if (hit)
			return q + (__builtin_ctzll(hit) >> 3);
		q += 8;
	}
	while (q < end && !str_special[(unsigned char)*q])
		q++;
	return q;
}
#else
static const char *skip_plain(const char *q, const char *end)
{
	while (q < end && !str_special[(unsigned char)*q])
		q++;
	return q;
}
#endif

/* p at the opening quote; returns the byte after the closing quote. */
static const char *scan_string(struct jscan *s, const char *p, const char *end)
{
	const char *q = p + 1;

	s->escaped = 0;
	for (;;) {
		q = skip_plain(q, end);
		if (q >= end)
			return scan_fail(s, p, "unterminated string");
		if (*q == '"')
			return q + 1;
		if (*q != '\\')
			return scan_fail(s, q, "invalid control character in string");
		s->escaped = 1;
		if (q + 1 >= end)
			return scan_fail(s, p, "unterminated string");
		switch (q[1]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
			q += 2;
			break;
		case 'u':
			if (end - q < 6 || !is_hex(q[2]) || !is_hex(q[3]) || !is_hex(q[4]) ||
			    !is_hex(q[5]))
				return scan_fail(s, q, "invalid \\uXXXX escape");
			q += 6;
			break;
		default:
			return scan_fail(s, q, "invalid \\escape");
		}
	}
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The end of the run of digits from q: 16 bytes at a time where SSE2 is
 * there and 16 bytes are left (a record's numbers are nearly always
 * followed by more than that), else bytewise. */
static inline const char *digits_end(const char *q, const char *end)
{
#ifdef __SSE2__
	while (end - q >= 16) {
		__m128i d = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)q),
					 _mm_set1_epi8('0'));
		unsigned other = ~(unsigned)_mm_movemask_epi8(
					 _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d)) &
				 0xffffu;
		if (other)
			return q + __builtin_ctz(other);
		q += 16;
	}
#endif
	while (q < end && is_digit(*q))
		q++;
	return q;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The value of 8 digit values 0..9 in the bytes of v, the first in the
 * lowest byte (SWAR: pairs, then quads, then the two halves). */
static inline uint64_t eight_values(uint64_t v)
{
	v = (v * 10) + (v >> 8);
	return (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
		(((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
	       32;
}

/* The value of the 8 digits at p (all of them '0'..'9'). */
static inline uint64_t eight_digits(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return eight_values(v - 0x3030303030303030ull);
}
#endif

/* The value of the n <= 19 digits at p (all of them '0'..'9'). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline uint64_t digits_value(const char *p, size_t n)
{
	uint64_t v = 0;
	size_t i = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	static const uint64_t pow10[9] = { 1, 10, 100, 1000, 10000, 100000, 1000000,
					   10000000, 100000000 };

	if (n >= 8) {
		for (; n - i > 16; i++)
			v = v * 10 + (uint64_t)(p[i] - '0');
		if (n - i > 8) {
			/* 8 digits, then k more: the last 8 bytes with the
			 * 8 - k digits already counted zeroed */
			size_t k = n - i - 8;
			uint64_t w;

			v = v * 100000000u + eight_digits(p + i);
			memcpy(&w, p + n - 8, 8);
			w = (w - 0x3030303030303030ull) & (~0ull << (8 * (8 - k)));
			return v * pow10[k] + eight_values(w);
		}
		return v * 100000000u + eight_digits(p + i);
	}
#endif
	for (; i < n; i++)
		v = v * 10 + (uint64_t)(p[i] - '0');
	return v;
}

static const char *scan_number(struct jscan *s, const char *p, const char *end)
{
	const char *q = p;

	if (q < end && *q == '-')
		q++;
	if (q >= end || !is_digit(*q))
		return scan_fail(s, p, "expecting value");
	if (*q == '0')
		q++;
	else
		while (q < end && is_digit(*q))
			q++;
	if (q + 1 < end && *q == '.' && is_digit(q[1])) {
		q += 2;
		while (q < end && is_digit(*q))
			q++;
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *e = q + 1;
		if (e < end && (*e == '+' || *e == '-'))
			e++;
		if (e < end && is_digit(*e)) {
			while (e < end && is_digit(*e))
				e++;
			q = e;
		}
	}
	return q;
}

static int has_word(const char *p, const char *end, const char *w, size_t n)
{
	return (size_t)(end - p) >= n && !memcmp(p, w, n);
}

static const char *scan_value(struct jscan *s, const char *p, const char *end, int depth);
static const char *scan_object(struct jscan *s, const char *p, const char *end, int depth);
static const char *scan_array(struct jscan *s, const char *p, const char *end, int depth);

/* scan_string(s, p, end), the common case (no escapes) without a call. */
static inline const char *fast_string(struct jscan *s, const char *p, const char *end)
{
	const char *q;

#ifdef __SSE2__
	/* a record's strings are nearly all shorter than 16 bytes: the first
	 * 16 looked at here, without skip_plain's call and loop */
	if (end - p >= 17) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
		unsigned hit = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			_mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v),
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
		q = hit ? p + 1 + __builtin_ctz(hit) : skip_plain(p + 17, end);
	} else {
		q = skip_plain(p + 1, end);
	}
#else
	q = skip_plain(p + 1, end);
#endif

	if (q < end && *q == '"') {
		s->escaped = 0;
		return q + 1;
	}
	return scan_string(s, p, end);
}

/* scan_value(s, p, end, depth): same end, same acceptance, same error;
 * the kinds nearly every value is are done here without a call (a string
 * without escapes, a plain integer). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline const char *fast_value(struct jscan *s, const char *p, const char *end, int depth)
{
	const char *q;

	if (depth > MLLOG_JSON_MAX_DEPTH || p >= end)
		return scan_value(s, p, end, depth);
	if (*p == '"')
		return fast_string(s, p, end);
	if (*p >= '1' && *p <= '9') {
		q = digits_end(p + 1, end);
		/* a fraction ("2.936000") as scan_number takes it */
		if (q + 1 < end && *q == '.' && is_digit(q[1]))
			q = digits_end(q + 2, end);
		/* an exponent, or a '.' without digits: the general scanner decides */
		if (q >= end || (*q != '.' && *q != 'e' && *q != 'E'))
			return q;
		return scan_value(s, p, end, depth);
	}
	/* what scan_value() would call, without its switch */
	if (*p == '{')
		return scan_object(s, p, end, depth);
	if (*p == '[')
		return scan_array(s, p, end, depth);
	return scan_value(s, p, end, depth);
}

static const char *scan_object(struct jscan *s, const char *p, const char *end, int depth)
{
	const char *q = skip_ws(p + 1, end);

	if (q < end && *q == '}')
		return q + 1;
	for (;;) {
		if (q >= end || *q != '"')
			return scan_fail(s, q, "expecting property name enclosed in double quotes");
		q = fast_string(s, q, end);
		if (!q)
			return NULL;
		/* ": " then the value, as json.dumps separates: the skip_ws
		 * calls below would land on the same byte */
		if (end - q >= 3 && q[0] == ':' && q[1] == ' ' && (unsigned char)q[2] > ' ') {
			q += 2;
		} else {
			q = skip_ws(q, end);
			if (q >= end || *q != ':')
				return scan_fail(s, q, "expecting ':' delimiter");
			q = skip_ws(q + 1, end);
		}
		q = fast_value(s, q, end, depth + 1);
		if (!q)
			return NULL;
		/* ", " then the next name */
		if (end - q >= 3 && q[0] == ',' && q[1] == ' ' && q[2] == '"') {
			q += 2;
			continue;
		}
		q = skip_ws(q, end);
		if (q < end && *q == '}')
			return q + 1;
		if (q >= end || *q != ',')
			return scan_fail(s, q, "expecting ',' delimiter");
		q = skip_ws(q + 1, end);
	}
}

static const char *scan_array(struct jscan *s, const char *p, const char *end, int depth)
{
	const char *q = skip_ws(p + 1, end);

	if (q < end && *q == ']')
		return q + 1;
	for (;;) {
		q = fast_value(s, q, end, depth + 1);
		if (!q)
			return NULL;
		/* ", " then the next value (no blank: skip_ws would stop there) */
		if (end - q >= 3 && q[0] == ',' && q[1] == ' ' && (unsigned char)q[2] > ' ') {
			q += 2;
			continue;
		}
		q = skip_ws(q, end);
		if (q < end && *q == ']')
			return q + 1;
		if (q >= end || *q != ',')
			return scan_fail(s, q, "expecting ',' delimiter");
		q = skip_ws(q + 1, end);
	}
}

static const char *scan_value(struct jscan *s, const char *p, const char *end, int depth)
{
	if (depth > MLLOG_JSON_MAX_DEPTH)
		return scan_fail(s, p, "nested too deeply");
	if (p >= end)
		return scan_fail(s, p, "expecting value");
	switch (*p) {
	case '{':
		return scan_object(s, p, end, depth);
	case '[':
		return scan_array(s, p, end, depth);
	case '"':
		return scan_string(s, p, end);
	case 'n':
		return has_word(p, end, "null", 4) ? p + 4 : scan_fail(s, p, "expecting value");
	case 't':
		return has_word(p, end, "true", 4) ? p + 4 : scan_fail(s, p, "expecting value");
	case 'f':
		return has_word(p, end, "false", 5) ? p + 5 : scan_fail(s, p, "expecting value");
	case 'N':
		return has_word(p, end, "NaN", 3) ? p + 3 : scan_fail(s, p, "expecting value");
	case 'I':
		return has_word(p, end, "Infinity", 8) ? p + 8 : scan_fail(s, p, "expecting value");
	case '-':
		if (has_word(p, end, "-Infinity", 9))
			return p + 9;
		return scan_number(s, p, end);
	default:
		return scan_number(s, p, end);
	}
}

static void scan_why(const struct jscan *s, struct strbuf *why)
{
	strbuf_reset(why);
	strbuf_addf(why, "%s at column %zu", s->err,
		    s->col0 + (size_t)(s->err_at - s->base) + 1);
}

int jspan_parse(const char *text, size_t len, size_t col0, struct jspan *val,
		struct strbuf *why)
{
	struct jscan s = { text, col0, NULL, NULL, 0 };
	const char *end = text + len, *p = skip_ws(text, end), *q;

	q = scan_value(&s, p, end, 0);
	if (!q) {
		scan_why(&s, why);
		return -1;
	}
	val->p = p;
	val->n = (size_t)(q - p);
	q = skip_ws(q, end);
	if (q < end) {
		s.err = "extra data";
		s.err_at = q;
		scan_why(&s, why);
		return -1;
	}
	return 0;
}

/* ---- decoding spans -------------------------------------------------- */

enum jtype jspan_type(struct jspan s)
{
	if (!s.p || !s.n)
		return JT_NONE;
	switch (s.p[0]) {
	case '{': return JT_OBJ;
	case '[': return JT_ARR;
	case '"': return JT_STR;
	case 'n': return JT_NULL;
	case 't': case 'f': return JT_BOOL;
	default: return JT_NUM;
	}
}

static void utf8_put(struct strbuf *out, unsigned long cp)
{
	char b[4];

	if (cp < 0x80) {
		strbuf_addch(out, (int)cp);
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(out, b, 2);
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(out, b, 3);
	} else {
		b[0] = (char)(0xf0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		strbuf_add(out, b, 4);
	}
}

static unsigned long hex4(const char *p)
{
	unsigned long v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];
		v = v * 16 + (unsigned long)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

/* Decode the validated string literal [p, p+n) (quotes included). */
static void decode_string(const char *p, size_t n, struct strbuf *out)
{
	const char *q = p + 1, *end = p + n - 1;

	while (q < end) {
		const char *run = q;
		while (q < end && *q != '\\' && !((unsigned char)*q & 0x80))
			q++;
		strbuf_add(out, run, (size_t)(q - run));
		if (q >= end)
			break;
		if ((unsigned char)*q & 0x80) { /* latin-1 byte */
			utf8_put(out, (unsigned char)*q);
			q++;
			continue;
		}
		switch (q[1]) {
		case 'b': strbuf_addch(out, '\b'); break;
		case 'f': strbuf_addch(out, '\f'); break;
		case 'n': strbuf_addch(out, '\n'); break;
		case 'r': strbuf_addch(out, '\r'); break;
		case 't': strbuf_addch(out, '\t'); break;
		case 'u': {
			unsigned long cp = hex4(q + 2);
			if (cp >= 0xd800 && cp < 0xdc00 && end - q >= 12 && q[6] == '\\' &&
			    q[7] == 'u') {
				unsigned long lo = hex4(q + 8);
				if (lo >= 0xdc00 && lo < 0xe000) {
					utf8_put(out, 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00));
					q += 12;
					continue;
				}
			}
			/* a lone surrogate (Python keeps it) has no UTF-8 form */
			utf8_put(out, (cp >= 0xd800 && cp < 0xe000) ? 0xfffd : cp);
			q += 6;
			continue;
		}
		default: strbuf_addch(out, q[1]); break;
		}
		q += 2;
	}
}

int jspan_str(struct jspan s, struct strbuf *out)
{
	if (jspan_type(s) != JT_STR)
		return -1;
	decode_string(s.p, s.n, out);
	return 0;
}

int jspan_str_is(struct jspan s, const char *lit)
{
	size_t n = strlen(lit);
	struct strbuf tmp = STRBUF_INIT;
	int eq;

	if (jspan_type(s) != JT_STR)
		return 0;
	/* the same bytes (lit has no backslash): equal, escapes or not */
	if (s.n == n + 2 && !memcmp(s.p + 1, lit, n))
		return 1;
	if (!memchr(s.p, '\\', s.n))
		return 0;
	decode_string(s.p, s.n, &tmp);
	eq = tmp.len == n && !memcmp(tmp.buf, lit, n);
	strbuf_release(&tmp);
	return eq;
}

/*
 * A validated JSON number of at most 15 significant digits and a decimal
 * exponent within +-22 (power readings: "1234.5"): digits and power of ten
 * are both exact doubles, so one multiplication or division rounds once,
 * correctly, to what strtod gives.  0 when the number is not of that kind.
 */
static int exact_decimal(const char *p, size_t n, double *out)
{
	static const double pow10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
					1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
					1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	const char *q = p, *end = p + n;
	uint64_t mant = 0;
	int digits = 0, exp10 = 0, neg = 0;

	if (q < end && *q == '-') {
		neg = 1;
		q++;
	}
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		if (mant || *q != '0')
			digits++;
		mant = mant * 10 + (uint64_t)(*q - '0');
		if (digits > 15)
			return 0;
	}
	if (q < end && *q == '.') {
		for (q++; q < end && *q >= '0' && *q <= '9'; q++) {
			if (mant || *q != '0')
				digits++;
			mant = mant * 10 + (uint64_t)(*q - '0');
			exp10--;
			if (digits > 15)
				return 0;
		}
	}
	if (q != end || exp10 < -22)
		return 0; /* an exponent part, or too many decimals: strtod */
	*out = exp10 ? (double)mant / pow10[-exp10] : (double)mant;
	if (neg)
		*out = -*out;
	return 1;
}

/* strtod on a span (spans are not NUL-terminated). */
static double span_strtod(const char *p, size_t n)
{
	char small[64];
	double v;

	if (exact_decimal(p, n, &v))
		return v;
	if (n < sizeof(small)) {
		memcpy(small, p, n);
		small[n] = 0;
		return strtod(small, NULL);
	} else {
		char *big = ab_strndup(p, n);
		v = strtod(big, NULL);
		free(big);
		return v;
	}
}

static int is_int_literal(struct jspan s)
{
	return !memchr(s.p, '.', s.n) && !memchr(s.p, 'e', s.n) && !memchr(s.p, 'E', s.n);
}

int jspan_num(struct jspan s, double *out)
{
	switch (jspan_type(s)) {
	case JT_NUM:
		if (s.p[0] == 'N') {
			*out = NAN;
		} else if (s.p[0] == 'I' || (s.n > 1 && s.p[1] == 'I')) {
			*out = s.p[0] == '-' ? -INFINITY : INFINITY;
		} else {
			*out = span_strtod(s.p, s.n);
			/* Python's float(int) raises on an integer beyond double */
			if (isinf(*out) && is_int_literal(s))
				return -1;
		}
		return 0;
	case JT_BOOL:
		*out = s.p[0] == 't' ? 1.0 : 0.0;
		return 0;
	case JT_STR: {
		struct strbuf tmp = STRBUF_INIT;
		enum num_kind k;
		decode_string(s.p, s.n, &tmp);
		k = num_parse_double(tmp.buf, tmp.len, out);
		strbuf_release(&tmp);
		if (k == NUM_NAN)
			*out = NAN;
		return (k == NUM_OK || k == NUM_NAN || k == NUM_INF) ? 0 : -1;
	}
	default:
		return -1;
	}
}

int jspan_ll(struct jspan s, long long *out)
{
	if (jspan_type(s) != JT_NUM || !is_int_literal(s) || s.p[0] == 'N' || s.p[0] == 'I' ||
	    (s.n > 1 && s.p[1] == 'I'))
		return 0;
	return num_parse_ll(s.p, s.n, out) == NUM_OK;
}

/* Walk the members of a validated object; calls back with key span (with
 * quotes) and value span.  Stops early when fn returns non-zero. */
static int walk_object(struct jspan obj, int (*fn)(void *ctx, struct jspan k, struct jspan v),
		       void *ctx)
{
	struct jscan s = { obj.p, 0, NULL, NULL, 0 };
	const char *end = obj.p + obj.n, *q;

	if (jspan_type(obj) != JT_OBJ)
		return 0;
	q = skip_ws(obj.p + 1, end);
	while (q < end && *q == '"') {
		struct jspan k, v;
		const char *ke = fast_string(&s, q, end), *ve;
		int rc;

		if (!ke)
			return 0;
		k.p = q;
		k.n = (size_t)(ke - q);
		q = skip_ws(skip_ws(ke, end) + 1, end); /* past ':' */
		ve = fast_value(&s, q, end, 0);
		if (!ve)
			return 0;
		v.p = q;
		v.n = (size_t)(ve - q);
		rc = fn(ctx, k, v);
		if (rc)
			return rc;
		q = skip_ws(ve, end);
		if (q < end && *q == ',')
			q = skip_ws(q + 1, end);
		else
			break;
	}
	return 0;
}

struct get_ctx {
	const char *key;
	int found;
	struct jspan out;
};

static int get_cb(void *vctx, struct jspan k, struct jspan v)
{
	struct get_ctx *c = vctx;

	if (jspan_str_is(k, c->key)) {
		c->found = 1;
		c->out = v; /* keep going: the last duplicate wins */
	}
	return 0;
}

int jspan_get(struct jspan obj, const char *key, struct jspan *out)
{
	struct get_ctx c = { key, 0, { NULL, 0 } };

	walk_object(obj, get_cb, &c);
	if (c.found)
		*out = c.out;
	return c.found;
}

struct get_many_ctx {
	const char *const *keys;
	size_t n;
	struct jspan *out;
	int *found;
};

static int get_many_cb(void *vctx, struct jspan k, struct jspan v)
{
	struct get_many_ctx *c = vctx;
	size_t i;
	/* a name without a backslash is the key exactly when the bytes are
	 * (what jspan_str_is finds, without its checks per key) */
	int plain = !memchr(k.p, '\\', k.n);

	for (i = 0; i < c->n; i++)
		if (plain ? k.n == strlen(c->keys[i]) + 2 && !memcmp(k.p + 1, c->keys[i], k.n - 2)
			  : jspan_str_is(k, c->keys[i])) {
			c->found[i] = 1;
			c->out[i] = v; /* the last duplicate wins */
		}
	return 0;
}

void jspan_get_many(struct jspan obj, const char *const *keys, size_t n, struct jspan *out,
		    int *found)
{
	struct get_many_ctx c = { keys, n, out, found };
	size_t i;

	for (i = 0; i < n; i++)
		found[i] = 0;
	walk_object(obj, get_many_cb, &c);
}

static json_t *span_to_json(struct jspan s);

static int json_obj_cb(void *vctx, struct jspan k, struct jspan v)
{
	json_t *o = vctx;
	struct strbuf key = STRBUF_INIT;
	json_t *val = span_to_json(v);

	decode_string(k.p, k.n, &key);
	if (val)
		json_object_setn_new(o, key.buf, key.len, val);
	strbuf_release(&key);
	return 0;
}

/* -?[0-9]+ (validated JSON, so no leading zeros to worry about) */
static int integer_literal(struct jspan s)
{
	size_t i = s.n && s.p[0] == '-';

	if (i == s.n)
		return 0;
	for (; i < s.n; i++)
		if (s.p[i] < '0' || s.p[i] > '9')
			return 0;
	return 1;
}

static json_t *span_to_json(struct jspan s)
{
	struct jscan sc = { s.p, 0, NULL, NULL, 0 };
	long long ll;
	double d;

	switch (jspan_type(s)) {
	case JT_NULL:
		return json_null();
	case JT_BOOL:
		return json_boolean(s.p[0] == 't');
	case JT_NUM:
		if (jspan_ll(s, &ll))
			return json_integer(ll);
		/* an integer beyond int64 (LoadGen's unsigned 64-bit seeds): a
		 * double would lose digits, so keep the exact digits as text */
		if (integer_literal(s))
			return json_stringn(s.p, s.n);
		if (jspan_num(s, &d) < 0 || !isfinite(d))
			return json_null();
		return json_real(d);
	case JT_STR: {
		struct strbuf t = STRBUF_INIT;
		json_t *j;
		decode_string(s.p, s.n, &t);
		j = json_stringn(t.buf, t.len);
		strbuf_release(&t);
		return j;
	}
	case JT_OBJ: {
		json_t *o = json_object();
		walk_object(s, json_obj_cb, o);
		return o;
	}
	case JT_ARR: {
		json_t *a = json_array();
		const char *end = s.p + s.n, *q = skip_ws(s.p + 1, end);
		while (q < end && *q != ']') {
			const char *ve = scan_value(&sc, q, end, 0);
			struct jspan v;
			if (!ve)
				break;
			v.p = q;
			v.n = (size_t)(ve - q);
			json_array_append_new(a, span_to_json(v));
			q = skip_ws(ve, end);
			if (q < end && *q == ',')
				q = skip_ws(q + 1, end);
		}
		return a;
	}
	default:
		return NULL;
	}
}

json_t *jspan_json(struct jspan s)
{
	return span_to_json(s);
}

/* 1 when p[0..n) has neither a backslash nor a byte >= 0x80 */
static int plain_ascii(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] == '\\' || (unsigned char)p[i] >= 0x80)
			return 0;
	return 1;
}

void jspan_text(struct jspan s, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT;
	long long ll;
	double d;
	json_t *j;

	/* the kinds a param or an eval's metadata nearly always is, written
	 * as span_to_json() then jtext_json() would write them */
	switch (jspan_type(s)) {
	case JT_NULL:
		strbuf_addstr(out, "null");
		return;
	case JT_BOOL:
		strbuf_addstr(out, s.p[0] == 't' ? "true" : "false");
		return;
	case JT_NUM:
		if (jspan_ll(s, &ll))
			jtext_int(out, ll);
		else if (integer_literal(s))
			jtext_str(out, s.p, s.n); /* digits and '-': as they are */
		else if (jspan_num(s, &d) < 0 || !isfinite(d))
			strbuf_addstr(out, "null");
		else
			jtext_real(out, d);
		return;
	case JT_STR:
		if (plain_ascii(s.p + 1, s.n - 2)) {
			jtext_str(out, s.p + 1, s.n - 2); /* its bytes are what it says */
			return;
		}
		/* escapes or latin-1 bytes: decoded first (a decoded string is
		 * always UTF-8, see decode_string) */
		decode_string(s.p, s.n, &t);
		jtext_str(out, t.buf, t.len);
		strbuf_release(&t);
		return;
	default:
		break;
	}
	/* objects and arrays (duplicate names, nesting): through jansson */
	j = span_to_json(s);
	if (j)
		jtext_json(out, j);
	json_decref(j);
}

/* ---- :::MLLOG records ------------------------------------------------ */

/* The top-level members we look at. */
enum { M_TIME, M_KEY, M_VALUE, M_META, M_EVENT, M_NS, M_COUNT };

static int member_of(const char *name, size_t len)
{
	switch (len) {
	case 3:
		return !memcmp(name, "key", 3) ? M_KEY : -1;
	case 5:
		return !memcmp(name, "value", 5) ? M_VALUE : -1;
	case 7:
		return !memcmp(name, "time_ms", 7) ? M_TIME : -1;
	case 8:
		return !memcmp(name, "metadata", 8) ? M_META : -1;
	case 9:
		return !memcmp(name, "namespace", 9) ? M_NS : -1;
	case 10:
		return !memcmp(name, "event_type", 10) ? M_EVENT : -1;
	default:
		return -1;
	}
}

static int member_index(struct strbuf *tmp, const char *p, size_t n, int escaped)
{
	if (escaped) {
		strbuf_reset(tmp);
		decode_string(p, n, tmp);
		return member_of(tmp->buf, tmp->len);
	}
	return member_of(p + 1, n - 2);
}

/* time_ms: nearly always a plain integer of 13 digits, which converts
 * exactly without strtod. */
static int time_value(struct jspan s, double *out)
{
	long long v = 0;
	size_t i;

	if (s.n && s.n <= 15 && s.p[0] >= '0' && s.p[0] <= '9') {
		for (i = 0; i < s.n && s.p[i] >= '0' && s.p[i] <= '9'; i++)
			v = v * 10 + (s.p[i] - '0');
		if (i == s.n) {
			*out = (double)v;
			return 0;
		}
	}
	return jspan_num(s, out);
}

/* The literal lit (a string constant) at q: its length is known to the
 * compiler, so the comparison is a few loads, not a call. */
#define AT_LIT(q, end, lit) \
	((size_t)((end) - (q)) >= sizeof(lit) - 1 && !memcmp((q), (lit), sizeof(lit) - 1))

/*
 * The shape mlperf_logging writes every record in: these six members in
 * this order, ", " and ": " between.  Matching the member names as text
 * spares scanning and looking up each name; the values are scanned as
 * usual.  Anything else (another order, spacing, member, a duplicate, an
 * error) returns 0 and the record goes through the general loop, which
 * gives the same spans for a record of this shape.
 */
static int fast_record(struct jscan *s, const char *q, const char *end, struct jspan *m,
		       double *time_ms, int *have_time)
{
	const char *vs;

#define FAST_MEMBER(lit, idx)                                                  \
	do {                                                                   \
		if (!AT_LIT(q, end, lit))                                      \
			return 0;                                              \
		vs = q + sizeof(lit) - 1;                                      \
		q = fast_value(s, vs, end, 1);                                 \
		if (!q) {                                                      \
			s->err = NULL;                                         \
			s->err_at = NULL;                                      \
			return 0;                                              \
		}                                                              \
		m[idx].p = vs;                                                 \
		m[idx].n = (size_t)(q - vs);                                   \
	} while (0)
	FAST_MEMBER("{\"namespace\": ", M_NS);
	/* nearly always a plain integer of 13 digits: converted as scanned
	 * (what fast_value() accepts as a plain integer, in one pass) */
	if (!AT_LIT(q, end, ", \"time_ms\": "))
		return 0;
	vs = q + sizeof(", \"time_ms\": ") - 1;
	q = vs;
	if (q < end && *q >= '1' && *q <= '9') {
		q = digits_end(q + 1, end);
		if (q < end && (*q == '.' || *q == 'e' || *q == 'E')) {
			q = vs; /* a fraction or an exponent: scanned below */
		} else if (q - vs <= 15) {
			*time_ms = (double)digits_value(vs, (size_t)(q - vs));
			*have_time = 1;
		}
	}
	if (q == vs) {
		q = fast_value(s, vs, end, 1);
		if (!q) {
			s->err = NULL;
			s->err_at = NULL;
			return 0;
		}
	}
	m[M_TIME].p = vs;
	m[M_TIME].n = (size_t)(q - vs);
	FAST_MEMBER(", \"event_type\": ", M_EVENT);
	FAST_MEMBER(", \"key\": ", M_KEY);
	FAST_MEMBER(", \"value\": ", M_VALUE);
	FAST_MEMBER(", \"metadata\": ", M_META);
#undef FAST_MEMBER
	return q < end && *q == '}' && skip_ws(q + 1, end) == end;
}

static int record_finish(const struct jspan *m, const int *have, int have_fast_time,
			 double fast_time, struct mllog_rec *rec, struct strbuf *keybuf,
			 struct strbuf *why);

/* Parse the record text (after the token) into rec; m[] gets the members'
 * spans, *fast 1 when the record has the shape fast_record() reads. */
static int parse_record(const char *text, size_t len, size_t col0, struct mllog_rec *rec,
			struct strbuf *keybuf, struct strbuf *tmp, struct strbuf *why,
			struct jspan *m, int *fast)
{
	struct jscan s = { text, col0, NULL, NULL, 0 };
	const char *end = text + len, *q = skip_ws(text, end);
	int have[M_COUNT] = { 0 }, i, have_fast_time = 0;
	double fast_time = 0;

	*fast = 0;
	memset(m, 0, M_COUNT * sizeof(*m));
	if (q >= end || *q != '{') {
		/* valid JSON that is not an object fails as well */
		const char *v = scan_value(&s, q, end, 0);
		if (v && skip_ws(v, end) == end) {
			strbuf_setstr(why, "record is not a JSON object");
			return 0;
		}
		if (v) {
			s.err = "extra data";
			s.err_at = skip_ws(v, end);
		}
		scan_why(&s, why);
		return 0;
	}
	if (fast_record(&s, q, end, m, &fast_time, &have_fast_time)) {
		for (i = 0; i < M_COUNT; i++)
			have[i] = 1;
		*fast = 1;
		return record_finish(m, have, have_fast_time, fast_time, rec, keybuf, why);
	}
	have_fast_time = 0; /* the general loop reads time_ms again */
	memset(m, 0, M_COUNT * sizeof(*m));
	q = skip_ws(q + 1, end);
	if (q < end && *q == '}') {
		q++;
	} else {
		for (;;) {
			const char *ks = q, *ke, *vs;
			int idx, kesc;

			if (q >= end || *q != '"') {
				scan_fail(&s, q, "expecting property name enclosed in double quotes");
				break;
			}
			ke = scan_string(&s, q, end);
			if (!ke)
				break;
			kesc = s.escaped;
			q = skip_ws(ke, end);
			if (q >= end || *q != ':') {
				scan_fail(&s, q, "expecting ':' delimiter");
				break;
			}
			vs = q = skip_ws(q + 1, end);
			q = scan_value(&s, q, end, 1);
			if (!q)
				break;
			idx = member_index(tmp, ks, (size_t)(ke - ks), kesc);
			if (idx >= 0) {
				m[idx].p = vs;
				m[idx].n = (size_t)(q - vs);
				have[idx] = 1;
			}
			q = skip_ws(q, end);
			if (q < end && *q == '}') {
				q++;
				break;
			}
			if (q >= end || *q != ',') {
				scan_fail(&s, q, "expecting ',' delimiter");
				break;
			}
			q = skip_ws(q + 1, end);
		}
		if (s.err) {
			scan_why(&s, why);
			return 0;
		}
	}
	q = skip_ws(q, end);
	if (q < end) {
		s.err = "extra data";
		s.err_at = q;
		scan_why(&s, why);
		return 0;
	}
	return record_finish(m, have, have_fast_time, fast_time, rec, keybuf, why);
}

/* The members found (have[i]) into rec: 1, or 0 with why set. */
static int record_finish(const struct jspan *m, const int *have, int have_fast_time,
			 double fast_time, struct mllog_rec *rec, struct strbuf *keybuf,
			 struct strbuf *why)
{
	/* the official parser reads time_ms, key, value and metadata */
	if (!have[M_TIME]) {
		strbuf_setstr(why, "no \"time_ms\" in the record");
		return 0;
	}
	if (have_fast_time) {
		rec->time_ms = fast_time;
	} else if (jspan_type(m[M_TIME]) == JT_NULL || time_value(m[M_TIME], &rec->time_ms) < 0) {
		strbuf_reset(why);
		strbuf_addstr(why, "\"time_ms\" is not a number: ");
		strbuf_add_printable(why, m[M_TIME].p, m[M_TIME].n, 40);
		return 0;
	}
	if (!have[M_KEY] || !have[M_VALUE] || !have[M_META]) {
		strbuf_reset(why);
		strbuf_addf(why, "no \"%s\" in the record",
			    !have[M_KEY] ? "key" : !have[M_VALUE] ? "value" : "metadata");
		return 0;
	}
	rec->key = NULL;
	rec->key_len = 0;
	if (jspan_type(m[M_KEY]) == JT_STR) {
		if (memchr(m[M_KEY].p, '\\', m[M_KEY].n)) {
			strbuf_reset(keybuf);
			decode_string(m[M_KEY].p, m[M_KEY].n, keybuf);
			rec->key = keybuf->buf;
			rec->key_len = keybuf->len;
		} else {
			rec->key = m[M_KEY].p + 1;
			rec->key_len = m[M_KEY].n - 2;
		}
	}
	rec->value = m[M_VALUE];
	rec->metadata = m[M_META];
	rec->event_type = m[M_EVENT];
	rec->ns = m[M_NS];
	rec->ok = 1;
	rec->why = NULL;
	return 1;
}

int mllog_parse_record(const char *text, size_t len, size_t col0, struct mllog_rec *rec,
		       struct strbuf *keybuf, struct strbuf *tmp, struct strbuf *why)
{
	struct jspan m[M_COUNT];
	int fast;

	return parse_record(text, len, col0, rec, keybuf, tmp, why, m, &fast);
}

/* ---- record templates (mlperf_priv.h) ---------------------------------- */

_Static_assert(M_COUNT == MLLOG_MEMBERS, "MLLOG_MEMBERS must be M_COUNT");

void mllog_tpls_init(struct mllog_tpls *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->last = -1;
	for (i = 0; i < MLLOG_TPLS; i++)
		c->t[i].next = -1;
#ifdef TPL_AVX2
	c->avx2 = __builtin_cpu_supports("avx2") != 0;
#endif
}

void mllog_tpls_release(struct mllog_tpls *c)
{
	int i;

	for (i = 0; i < MLLOG_TPLS; i++)
		free(c->t[i].lo);
	memset(c, 0, sizeof(*c));
	c->last = -1;
}

/* Every byte of text[0..t->len) allowed by t (len >= 16). */
static int tpl_match(const struct mllog_tpl *t, const char *text)
{
	size_t i, len = t->len;

#ifdef __SSE2__
#define TPL_BLOCK_OK(at)                                                                        \
	do {                                                                                    \
		__m128i d_ = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)(text + (at))), \
					  _mm_loadu_si128((const __m128i *)(const void *)(t->lo + (at)))); \
		__m128i r_ = _mm_loadu_si128((const __m128i *)(const void *)(t->rng + (at)));     \
		if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d_, r_), d_)) != 0xffff)         \
			return 0;                                                               \
	} while (0)
	for (i = 0; i + 16 <= len; i += 16)
		TPL_BLOCK_OK(i);
	if (i < len)
		TPL_BLOCK_OK(len - 16); /* the last bytes, overlapping */
#undef TPL_BLOCK_OK
#else
	for (i = 0; i < len; i++)
		if ((unsigned char)((unsigned char)text[i] - t->lo[i]) > t->rng[i])
			return 0;
#endif
	return 1;
}

#ifdef TPL_AVX2
/* tpl_match() 32 bytes at a time (len >= MLLOG_TPL_MIN_LEN = 32). */
__attribute__((target("avx2"))) static int tpl_match32(const struct mllog_tpl *t,
						       const char *text)
{
	size_t i, len = t->len;

#define TPL_BLOCK32_OK(at)                                                                      \
	do {                                                                                    \
		__m256i d_ = _mm256_sub_epi8(                                                   \
			_mm256_loadu_si256((const __m256i *)(const void *)(text + (at))),          \
			_mm256_loadu_si256((const __m256i *)(const void *)(t->lo + (at))));         \
		__m256i r_ = _mm256_loadu_si256((const __m256i *)(const void *)(t->rng + (at))); \
		if ((uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(d_, r_), d_)) != \
		    0xffffffffu)                                                                \
			return 0;                                                               \
	} while (0)
	for (i = 0; i + 32 <= len; i += 32)
		TPL_BLOCK32_OK(i);
	if (i < len)
		TPL_BLOCK32_OK(len - 32); /* the last bytes, overlapping */
#undef TPL_BLOCK32_OK
	return 1;
}
#endif

/* Make t the template of the record text[0..len) with members m[] (a
 * record fast_record() read, MLLOG_TPL_MIN_LEN <= len <= MLLOG_TPL_MAX_LEN). */
static void tpl_build(struct mllog_tpl *t, const char *text, size_t len, const struct jspan *m)
{
	const char *p = text, *end = text + len;
	size_t i;

	if (!t->lo)
		t->lo = ab_malloc(2 * MLLOG_TPL_MAX_LEN);
	t->rng = t->lo + MLLOG_TPL_MAX_LEN;
	memcpy(t->lo, text, len);
	memset(t->rng, 0, len);
#define TPL_DIGIT(q, first) (t->lo[(q) - text] = (first) ? '1' : '0', t->rng[(q) - text] = (first) ? 8 : 9)
	/* the numbers: a digit, or a '-' but of -Infinity, outside strings
	 * (the text is valid JSON: escapes are two bytes or \uXXXX) */
	while (p < end) {
		const char *q;

		if (*p == '"') {
			for (p = skip_plain(p + 1, end); p < end && *p != '"'; p = skip_plain(p, end))
				p += 2; /* an escape; \uXXXX's digits are plain */
			p++;
			continue;
		}
		if (*p == '-' && p + 1 < end && is_digit(p[1]))
			p++;
		if (!is_digit(*p)) {
			p++;
			continue;
		}
		/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
		for (q = p; q < end && is_digit(*q); q++)
			TPL_DIGIT(q, q == p && q + 1 < end && is_digit(q[1]));
		if (q < end && *q == '.')
			for (q++; q < end && is_digit(*q); q++)
				TPL_DIGIT(q, 0);
		if (q < end && (*q == 'e' || *q == 'E')) {
			q++;
			if (q < end && (*q == '+' || *q == '-'))
				q++;
			for (; q < end && is_digit(*q); q++)
				TPL_DIGIT(q, 0);
		}
		p = q;
	}
#undef TPL_DIGIT
	for (i = 0; i < M_COUNT; i++) {
		t->span_off[i] = (uint32_t)(m[i].p - text);
		t->span_len[i] = (uint32_t)m[i].n;
	}
	/* time_ms as fast_record() converts it: [1-9][0-9]* of <= 15 digits */
	t->time_off = (size_t)(m[M_TIME].p - text);
	t->time_len = m[M_TIME].n;
	if (!t->time_len || t->time_len > 15 || m[M_TIME].p[0] < '1' || m[M_TIME].p[0] > '9' ||
	    digits_end(m[M_TIME].p, m[M_TIME].p + m[M_TIME].n) != m[M_TIME].p + m[M_TIME].n)
		t->time_len = 0;
	t->plain_key = jspan_type(m[M_KEY]) == JT_STR && !memchr(m[M_KEY].p, '\\', m[M_KEY].n);
	t->len = len;
}

/* A key's identity for mllog_tpls.seen: its bytes hashed with the length. */
static uint64_t key_sig(struct jspan k)
{
	uint64_t h = 0xcbf29ce484222325ull ^ k.n;
	size_t i;

	for (i = 0; i < k.n; i++)
		h = (h ^ (unsigned char)k.p[i]) * 0x100000001b3ull;
	return h | 1; /* 0: an empty slot */
}

/* Template i matched text: the record it says into rec (1, or 0 with why
 * set: record_finish's checks). */
static int tpl_take(struct mllog_tpls *c, int i, const char *text, struct mllog_rec *rec,
		    struct strbuf *keybuf, struct strbuf *why)
{
	const struct mllog_tpl *t = &c->t[i];
	struct jspan m[M_COUNT];
	int have[M_COUNT], k;

	c->t[i].used = c->clock;
	c->hits++;
	if (c->last >= 0)
		c->t[c->last].next = i;
	c->last = i;
	if (t->time_len && t->plain_key) {
		/* what record_finish() makes of it, directly */
		rec->ok = 1;
		rec->why = NULL;
		rec->time_ms = (double)digits_value(text + t->time_off, t->time_len);
		rec->key = text + t->span_off[M_KEY] + 1;
		rec->key_len = t->span_len[M_KEY] - 2;
		rec->value.p = text + t->span_off[M_VALUE];
		rec->value.n = t->span_len[M_VALUE];
		rec->metadata.p = text + t->span_off[M_META];
		rec->metadata.n = t->span_len[M_META];
		rec->event_type.p = text + t->span_off[M_EVENT];
		rec->event_type.n = t->span_len[M_EVENT];
		rec->ns.p = text + t->span_off[M_NS];
		rec->ns.n = t->span_len[M_NS];
		return 1;
	}
	memset(rec, 0, sizeof(*rec));
	for (k = 0; k < M_COUNT; k++) {
		m[k].p = text + t->span_off[k];
		m[k].n = t->span_len[k];
		have[k] = 1;
	}
	return record_finish(m, have, t->time_len != 0,
			     t->time_len ? (double)digits_value(text + t->time_off, t->time_len) : 0,
			     rec, keybuf, why);
}

/* The template text[0..len) matches (len == (size_t)-1: the first that
 * matches text[0..its length) followed by a '\n' within avail bytes), or -1;
 * first the one that came after the last one's last time (train_loss,
 * tracked_stats, train_loss...), then the others. */
static int tpl_find(struct mllog_tpls *c, const char *text, size_t len, size_t avail)
{
	int first = c->last >= 0 ? c->t[c->last].next : -1, i, k;

	for (k = -1; k < MLLOG_TPLS; k++) {
		const struct mllog_tpl *t;

		i = k < 0 ? first : k;
		if (i < 0 || (k >= 0 && i == first))
			continue;
		t = &c->t[i];
		if (!t->len)
			continue;
		if (len != (size_t)-1 ? t->len != len : t->len >= avail || text[t->len] != '\n')
			continue;
#ifdef TPL_AVX2
		if (c->avx2 ? tpl_match32(t, text) : tpl_match(t, text))
			return i;
#else
		if (tpl_match(t, text))
			return i;
#endif
	}
	return -1;
}

int mllog_tpl_line(struct mllog_tpls *c, const char *text, size_t avail, struct mllog_rec *rec,
		   struct strbuf *keybuf, struct strbuf *why, size_t *len)
{
	int i;

	if (c->off)
		return -1;
	c->clock++;
	i = tpl_find(c, text, (size_t)-1, avail);
	if (i < 0)
		return -1;
	*len = c->t[i].len;
	return tpl_take(c, i, text, rec, keybuf, why);
}

int mllog_parse_record_tpl(struct mllog_tpls *c, const char *text, size_t len, size_t col0,
			   struct mllog_rec *rec, struct strbuf *keybuf, struct strbuf *tmp,
			   struct strbuf *why)
{
	struct jspan m[M_COUNT];
	int i, fast, rc, lru;
	uint64_t sig;

	if (c->off)
		return parse_record(text, len, col0, rec, keybuf, tmp, why, m, &fast);
	c->clock++;
	i = tpl_find(c, text, len, len);
	if (i >= 0)
		return tpl_take(c, i, text, rec, keybuf, why);
	c->last = -1;
	rc = parse_record(text, len, col0, rec, keybuf, tmp, why, m, &fast);
	if (!rc || !fast || len < MLLOG_TPL_MIN_LEN || len > MLLOG_TPL_MAX_LEN)
		return rc;
	if (c->builds >= 32 && 4 * c->builds > c->hits) {
		c->off = 1; /* this log's shapes do not repeat: templates cost only */
		return rc;
	}
	/* a template for a record whose key came before without one */
	sig = key_sig(m[M_KEY]);
	for (i = 0; i < MLLOG_TPL_SEEN && c->seen[i] != sig; i++)
		;
	if (i == MLLOG_TPL_SEEN) {
		c->seen[c->nseen++ % MLLOG_TPL_SEEN] = sig;
		return rc;
	}
	c->seen[i] = 0;
	for (lru = 0, i = 1; i < MLLOG_TPLS; i++)
		if (c->t[i].used < c->t[lru].used)
			lru = i;
	for (i = 0; i < MLLOG_TPLS; i++)
		if (c->t[i].next == lru)
			c->t[i].next = -1;
	tpl_build(&c->t[lru], text, len, m);
	c->builds++;
	c->t[lru].used = c->clock;
	c->t[lru].next = -1;
	c->last = lru;
	return rc;
}
