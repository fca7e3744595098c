/*
 * util.c - small helpers shared by the format parsers.
 */
#include "core/compat.h"
#include "ingest_priv.h"

#include <ctype.h>
#include <math.h>
#include <time.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define BINARY_AVX2 1 /* chosen at run time */
#endif

#ifdef BINARY_AVX2
/* ingest_looks_binary's loop 32 bytes at a time, the NUL test in the same
 * pass (one NUL anywhere: binary, so stopping at the first gives the same
 * answer): -1 for a NUL, else the control bytes of head[0, *at) with *at
 * where the narrower loops go on.  Every file's first 64 KiB comes here;
 * most 32-byte blocks of a text file hold no byte below 0x20 at all. */
__attribute__((target("avx2,popcnt"))) static long binary32(const unsigned char *head,
							     size_t len, size_t *at)
{
	const __m256i lim = _mm256_set1_epi8(0x1f), zero = _mm256_setzero_si256(),
		      tab = _mm256_set1_epi8('\t'), nl = _mm256_set1_epi8('\n'),
		      ff = _mm256_set1_epi8('\f'), cr = _mm256_set1_epi8('\r'),
		      esc = _mm256_set1_epi8(0x1b);
	size_t i = 0;
	long ctrl = 0;

	for (; i + 32 <= len; i += 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(head + i));
		__m256i low = _mm256_cmpeq_epi8(_mm256_min_epu8(v, lim), v); /* v <= 0x1f */
		uint32_t m = (uint32_t)_mm256_movemask_epi8(low);

		if (!m)
			continue;
		if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, zero)))
			return -1;
		low = _mm256_andnot_si256(
			_mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, tab), _mm256_cmpeq_epi8(v, nl)),
					_mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, ff),
									_mm256_cmpeq_epi8(v, cr)),
							_mm256_cmpeq_epi8(v, esc))),
			low);
		ctrl += __builtin_popcount((uint32_t)_mm256_movemask_epi8(low));
	}
	*at = i;
	return ctrl;
}
#endif

int ingest_looks_binary(const unsigned char *head, size_t len)
{
	const uint64_t ones = 0x0101010101010101ULL;
	size_t i = 0, ctrl = 0;

#ifdef BINARY_AVX2
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")) {
		long c = binary32(head, len, &i);
		/* the NUL test of the tail the loop left (under 32 bytes) */
		if (c < 0 || memchr(head + i, 0, len - i))
			return 1;
		ctrl = (size_t)c;
	} else
#endif
	if (memchr(head, 0, len))
		return 1;
#ifdef __SSE2__
	/* every file's first 64 KiB goes through here: 16 bytes at a time,
	 * counting the bytes below 0x20 that are not \t \n \f \r ESC */
	{
		const __m128i lim = _mm_set1_epi8(0x1f), tab = _mm_set1_epi8('\t'),
			      nl = _mm_set1_epi8('\n'), ff = _mm_set1_epi8('\f'),
			      cr = _mm_set1_epi8('\r'), esc = _mm_set1_epi8(0x1b);

		for (; i + 16 <= len; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(head + i));
			__m128i low = _mm_cmpeq_epi8(_mm_min_epu8(v, lim), v); /* v <= 0x1f */
			unsigned m = (unsigned)_mm_movemask_epi8(low);

			if (!m)
				continue;
			low = _mm_andnot_si128(
				_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, nl)),
					     _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, ff),
								       _mm_cmpeq_epi8(v, cr)),
							  _mm_cmpeq_epi8(v, esc))),
				low);
			ctrl += (size_t)__builtin_popcount((unsigned)_mm_movemask_epi8(low));
		}
	}
#endif
	/* 8 bytes at a time, and only a word holding a byte below 0x20 ('\n'
	 * included) bytewise */
	for (; i + 8 <= len; i += 8) {
		uint64_t w, low;
		size_t k;

		memcpy(&w, head + i, 8);
		/* high bit of each byte >= 0x20 (no carries between bytes) */
		low = ~((((w & (0x7f * ones)) + 0x60 * ones) | w)) & (0x80 * ones);
		if (!low)
			continue;
		for (k = i; k < i + 8; k++) {
			unsigned char c = head[k];
			if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != 0x1b)
				ctrl++;
		}
	}
	for (; i < len; i++) {
		unsigned char c = head[i];
		if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != 0x1b)
			ctrl++;
	}
	return len && ctrl * 20 > len; /* more than 5 % control bytes */
}

const char *ingest_basename(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

void ingest_dirname(struct strbuf *out, const char *path)
{
	const char *s = strrchr(path, '/');

	strbuf_reset(out);
	if (!s)
		strbuf_addch(out, '.');
	else if (s == path)
		strbuf_addch(out, '/');
	else
		strbuf_add(out, path, (size_t)(s - path));
}

int ingest_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !memcmp(s + n - m, suffix, m);
}

void ingest_param_str(json_t *params, const char *key, const char *value)
{
	if (params && value)
		json_object_set_new(params, key, json_string(value));
}

void ingest_param_num(json_t *params, const char *key, double value)
{
	if (params && isfinite(value))
		json_object_set_new(params, key, json_real(value));
}

void ingest_param_int(json_t *params, const char *key, long long value)
{
	if (params)
		json_object_set_new(params, key, json_integer(value));
}

void ingest_iso8601(struct strbuf *out, double epoch)
{
	time_t secs = (time_t)floor(epoch);
	double frac = epoch - (double)secs;
	struct tm tm;
	char buf[64];
	int ms = (int)lround(frac * 1000.0);

	if (ms == 1000) {
		secs++;
		ms = 0;
	}
	if (secs >= 0 && secs < 253402300800) {
		/* years 1970-9999 without gmtime/strftime (a hot path when
		 * ingesting perflogs): Hinnant's civil_from_days */
		long days = (long)(secs / 86400), sod = (long)(secs % 86400);
		long z = days + 719468, era = z / 146097, doe = z - era * 146097;
		long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
		long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
		long d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
		long y = yoe + era * 400 + (m <= 2);
		long v[6] = { y, m, d, sod / 3600, sod / 60 % 60, sod % 60 };
		static const char sep[] = "--T::";
		char *w = buf;
		int k;

		for (k = 0; k < 6; k++) {
			if (k == 0) {
				*w++ = (char)('0' + v[0] / 1000);
				*w++ = (char)('0' + v[0] / 100 % 10);
			}
			*w++ = (char)('0' + v[k] / 10 % 10);
			*w++ = (char)('0' + v[k] % 10);
			if (k < 5)
				*w++ = sep[k];
		}
		if (ms) {
			*w++ = '.';
			*w++ = (char)('0' + ms / 100);
			*w++ = (char)('0' + ms / 10 % 10);
			*w++ = (char)('0' + ms % 10);
		}
		*w++ = 'Z';
		strbuf_add(out, buf, (size_t)(w - buf));
		return;
	}
	if (!gmtime_r(&secs, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm)) {
		strbuf_addstr(out, "?");
		return;
	}
	strbuf_addstr(out, buf);
	if (ms)
		strbuf_addf(out, ".%03d", ms);
	strbuf_addch(out, 'Z');
}

/* Howard Hinnant's days_from_civil: exact for every proleptic Gregorian date. */
long ingest_days_from_civil(long y, long m, long d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Brand words of accelerator makers, matched as whole words, case-insensitive.
 * A CPU named as the accelerator gives no vendor: the model's table calls it "CPU". */
static const struct {
	const char *word, *vendor;
} vendor_words[] = {
	{ "NVIDIA", "NVIDIA" }, { "GeForce", "NVIDIA" }, { "Quadro", "NVIDIA" },
	{ "Tesla", "NVIDIA" }, { "RTX", "NVIDIA" }, { "Jetson", "NVIDIA" },
	{ "AMD", "AMD" }, { "Radeon", "AMD" }, { "Instinct", "AMD" },
	{ "Intel", "Intel" }, { "Gaudi", "Intel" }, { "Gaudi2", "Intel" }, { "Gaudi3", "Intel" },
	{ "Habana", "Intel" }, { "Graphcore", "Graphcore" }, { "IPU", "Graphcore" },
	{ "Cerebras", "Cerebras" }, { "Google", "Google" }, { "TPU", "Google" },
	{ "Qualcomm", "Qualcomm" }, { "Huawei", "Huawei" }, { "Ascend", "Huawei" },
	{ "SambaNova", "SambaNova" }, { "Groq", "Groq" }, { "UntetherAI", "UntetherAI" },
};

static const char *const cpu_words[] = { "Xeon", "EPYC", "Grace", "Core", "Ryzen", "CPU" };

static int has_word(const char *s, const char *w)
{
	size_t n = strlen(w), i, k;

	for (i = 0; s[i]; i++) {
		if (i && isalnum((unsigned char)s[i - 1]))
			continue;
		for (k = 0; k < n; k++)
			if (!s[i + k] || tolower((unsigned char)s[i + k]) != tolower((unsigned char)w[k]))
				break;
		if (k == n && !isalnum((unsigned char)s[i + n]))
			return 1;
	}
	return 0;
}

const char *ingest_vendor_of(const char *accelerator)
{
	size_t i;

	if (!accelerator || !*accelerator)
		return NULL;
	for (i = 0; i < AB_ARRAY_SIZE(cpu_words); i++)
		if (has_word(accelerator, cpu_words[i]))
			return NULL;
	for (i = 0; i < AB_ARRAY_SIZE(vendor_words); i++)
		if (has_word(accelerator, vendor_words[i].word))
			return vendor_words[i].vendor;
	return NULL;
}

/*
 * num_parse_double() with a fast path for the plain decimals result files
 * are made of ("14.8", "-0.1", "1579688119.6235445"): up to 15 significant
 * digits and a power of ten up to 22 give the correctly rounded double by
 * one exact multiplication or division (Clinger), the same as strtod.
 * Anything else goes to num_parse_double.
 */
enum num_kind ingest_parse_double(const char *s, size_t len, double *out)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
				      1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
				      1e20, 1e21, 1e22 };
	size_t i = 0, digits = 0, frac = 0;
	uint64_t mant = 0;
	int neg = 0, seen_dot = 0;
	double v;

	/* the blanks num_parse_double() trims (" 232.58" in a JUBE list) */
	num_trim(&s, &len);
	if (len && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i >= len)
		return num_parse_double(s, len, out);
	for (; i < len; i++) {
		char ch = s[i];
		if (ch >= '0' && ch <= '9') {
			if (digits || ch != '0')
				digits++;
			if (digits > 15)
				return num_parse_double(s, len, out);
			mant = mant * 10 + (uint64_t)(ch - '0');
			frac += seen_dot;
		} else if (ch == '.' && !seen_dot) {
			seen_dot = 1;
		} else {
			return num_parse_double(s, len, out);
		}
	}
	/* "." alone, "-", "5." and ".5" are strtod's call */
	if ((seen_dot && (s[len - 1] == '.' || s[neg || s[0] == '+' ? 1 : 0] == '.')) ||
	    frac > 22)
		return num_parse_double(s, len, out);
	v = (double)mant / p10[frac];
	*out = neg ? -v : v;
	return NUM_OK;
}
