/*
 * num.c - strict number parsing and formatting; see num.h.
 *
 * strtod honours LC_NUMERIC, so the CLI never calls setlocale() for numbers
 * (it stays in the "C" locale) and these helpers add the strictness strtod
 * lacks: no trailing garbage, no hex floats, no silently accepted blanks.
 */
#include "compat.h"
#include "num.h"

#include <math.h>

/* s[0..len) is word (n letters, lowercase) in any case */
static int ieq_n(const char *s, size_t len, const char *word, size_t n)
{
	size_t i;

	if (len != n)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != word[i])
			return 0;
	}
	return 1;
}
#define ieq(s, len, word) ieq_n(s, len, word, sizeof(word) - 1)

/*
 * A plain decimal, [+-]digits[.digits] with at most 19 significant digits
 * and at most 27 after the point, read exactly (what strtod gives, without
 * its slow path for more than 15 digits: ReFrame's 17-digit unix times).
 * The value is m / 10^k = m / 5^k / 2^k with m < 10^19 < 2^64 and
 * 5^k < 2^63: (m * 2^(64 + z)) / 5^k in 128 bits (z normalises m), its top
 * 53 bits rounded to nearest, ties to even, with the remainder and the
 * lower bits as sticky bits, then scaled by a power of two (exact: the
 * value is between 1e-27 and 1e19, a normal double).  Returns 0 when the
 * text is anything else (strtod decides) or there are no 128-bit integers.
 */
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 num_u128;

static int exact_decimal(const char *s, size_t len, double *out)
{
	static const uint64_t p5[28] = {
		1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL, 390625ULL,
		1953125ULL, 9765625ULL, 48828125ULL, 244140625ULL, 1220703125ULL,
		6103515625ULL, 30517578125ULL, 152587890625ULL, 762939453125ULL,
		3814697265625ULL, 19073486328125ULL, 95367431640625ULL, 476837158203125ULL,
		2384185791015625ULL, 11920928955078125ULL, 59604644775390625ULL,
		298023223876953125ULL, 1490116119384765625ULL, 7450580596923828125ULL
	};
	uint64_t m = 0, top, bits;
	num_u128 num, q, rest, half;
	size_t i = 0, start, intd, frac = 0, lz;
	int neg = 0, z, drop, e;
	double v;

	if (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-';
		i = 1;
	}
	/* digits [. digits], m wrapping harmlessly when there are too many
	 * (then refused below) */
	start = i;
	for (; i < len && (unsigned char)(s[i] - '0') < 10; i++)
		m = m * 10 + (uint64_t)(s[i] - '0');
	intd = i - start;
	if (i < len && s[i] == '.') {
		size_t f0 = ++i;
		for (; i < len && (unsigned char)(s[i] - '0') < 10; i++)
			m = m * 10 + (uint64_t)(s[i] - '0');
		frac = i - f0;
		if (!frac)
			return 0; /* "5.": strtod's */
	}
	if (i != len || !intd || frac > 27)
		return 0; /* an exponent, a second point, a sign inside; ".5" */
	/* significant digits: all but the leading zeros (through the point) */
	for (lz = start; lz < len && (s[lz] == '0' || s[lz] == '.'); lz++)
		;
	if (intd + frac - (lz - start - (lz > start + intd ? 1 : 0)) > 19)
		return 0;
	if (!m || !frac) {
		v = (double)m; /* an integer below 2^64: correctly rounded */
	} else {
		z = __builtin_clzll(m);
		num = (num_u128)(m << z) << 64;
		q = num / p5[frac];
		/* q >= 2^127 / 5^27 > 2^64: at least 12 bits below the top 53 */
		drop = 64 - __builtin_clzll((uint64_t)(q >> 64)) + 64 - 53;
		top = (uint64_t)(q >> drop);
		rest = q & ((((num_u128)1) << drop) - 1);
		half = ((num_u128)1) << (drop - 1);
		if (rest > half || (rest == half && (num != q * p5[frac] || (top & 1))))
			top++;
		/* top * 2^e, exact: the value is a normal double (see above) */
		e = drop - z - 64 - (int)frac;
		bits = (uint64_t)(1023 + e) << 52;
		memcpy(&v, &bits, sizeof(v));
		v *= (double)top;
	}
	*out = neg ? -v : v;
	return 1;
}
#else
static int exact_decimal(const char *s, size_t len, double *out)
{
	(void)s;
	(void)len;
	(void)out;
	return 0;
}
#endif

enum num_kind num_parse_double(const char *s, size_t len, double *out)
{
	char buf[128];
	char *end;
	size_t i;
	int sign = 0;

	num_trim(&s, &len);
	if (!len)
		return NUM_EMPTY;
	if (exact_decimal(s, len, out)) /* a plain decimal is none of the words */
		return NUM_OK;
	if (ieq(s, len, "nan") || ieq(s, len, "null") || ieq(s, len, "none") ||
	    ieq(s, len, "-nan"))
		return NUM_NAN;
	if (*s == '+' || *s == '-')
		sign = *s == '-' ? -1 : 1;
	if (sign && (ieq(s + 1, len - 1, "inf") || ieq(s + 1, len - 1, "infinity"))) {
		*out = sign < 0 ? -HUGE_VAL : HUGE_VAL;
		return NUM_INF;
	}
	if (ieq(s, len, "inf") || ieq(s, len, "infinity")) {
		*out = HUGE_VAL;
		return NUM_INF;
	}
	if (len >= sizeof(buf))
		return NUM_BAD;
	/* only digits, sign, '.', exponent: refuse hex, spaces, "1,5" */
	for (i = 0; i < len; i++) {
		char c = s[i];
		if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' ||
		      c == '-'))
			return NUM_BAD;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtod(buf, &end);
	if (end != buf + len || end == buf)
		return NUM_BAD;
	if (errno == ERANGE && isinf(*out))
		return NUM_INF;
	return NUM_OK;
}

int num_underflows(const char *s, size_t len)
{
	double v;
	size_t i;

	if (num_parse_double(s, len, &v) != NUM_OK)
		return 0;
	if (fpclassify(v) == FP_SUBNORMAL)
		return 1;
	if (v != 0)
		return 0;
	/* 0 read from a mantissa with a non-zero digit: "1e-400", not "0e5" */
	for (i = 0; i < len && s[i] != 'e' && s[i] != 'E'; i++)
		if (s[i] >= '1' && s[i] <= '9')
			return 1;
	return 0;
}

enum num_kind num_parse_ll(const char *s, size_t len, long long *out)
{
	char buf[32];
	char *end;

	num_trim(&s, &len);
	if (!len)
		return NUM_EMPTY;
	if (ieq(s, len, "nan") || ieq(s, len, "null") || ieq(s, len, "none"))
		return NUM_NAN;
	if (len >= sizeof(buf))
		return NUM_BAD;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!((buf[0] >= '0' && buf[0] <= '9') || buf[0] == '-' || buf[0] == '+'))
		return NUM_BAD;
	errno = 0;
	*out = strtoll(buf, &end, 10);
	if (errno || end != buf + len)
		return NUM_BAD;
	return NUM_OK;
}

void num_format(struct strbuf *sb, double v)
{
	char buf[64];
	int prec;

	if (isnan(v)) {
		strbuf_addstr(sb, "nan");
		return;
	}
	if (isinf(v)) {
		strbuf_addstr(sb, v < 0 ? "-inf" : "inf");
		return;
	}
	for (prec = 6; prec <= 17; prec++) {
		int n = snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (n < 0 || (size_t)n >= sizeof(buf))
			break;
		if (strtod(buf, NULL) == v)
			break;
	}
	strbuf_addstr(sb, buf);
}

void num_format_fixed(struct strbuf *sb, double v, int decimals, int thousands)
{
	char buf[128];
	int n;
	const char *p, *dot;
	size_t intlen, i;

	if (!isfinite(v)) {
		num_format(sb, v);
		return;
	}
	n = snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		num_format(sb, v);
		return;
	}
	if (!thousands) {
		strbuf_addstr(sb, buf);
		return;
	}
	p = buf;
	if (*p == '-')
		strbuf_addch(sb, *p++);
	dot = strchr(p, '.');
	intlen = dot ? (size_t)(dot - p) : strlen(p);
	for (i = 0; i < intlen; i++) {
		if (i && (intlen - i) % 3 == 0)
			strbuf_addch(sb, ',');
		strbuf_addch(sb, p[i]);
	}
	if (dot)
		strbuf_addstr(sb, dot);
}
