/*
 * mllog.c - the streaming :::MLLOG line reader: latin-1 bytes, "\n",
 * "\r\n" and a lone "\r" end a line, a record starts at the line's last
 * ":::MLLOG ".  It keeps at most one line in memory, and of a long line
 * only the part after its last token (up to max_record bytes).  The record
 * text is checked by mllog_parse_record() (mlperf_json.c).
 */
#include "core/compat.h"
#include "mlperf_priv.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define LINE_SCAN_AVX2 1 /* chosen at run time (cpu_avx2) */
#endif

/* ---- the reader ------------------------------------------------------ */

#define CHUNK (256u << 10)
#define NOT_FOUND SIZE_MAX

/* The line scan's 32-byte loop: libgcc asked the CPU once, at start. */
static int cpu_avx2(void)
{
#ifdef LINE_SCAN_AVX2
	return __builtin_cpu_supports("avx2") != 0;
#else
	return 0;
#endif
}

void mllog_init(struct mllog_reader *r, FILE *fp, size_t max_record)
{
	memset(r, 0, sizeof(*r));
	r->fp = fp;
	r->max_record = max_record ? max_record : MLLOG_MAX_RECORD;
	r->max_cap = r->max_record + CHUNK;
	r->cap = 2 * CHUNK < r->max_cap ? 2 * CHUNK : r->max_cap;
	r->buf = ab_malloc(r->cap);
	r->tok = NOT_FOUND;
	r->avx2 = cpu_avx2();
	strbuf_init(&r->key, 64);
	strbuf_init(&r->why, 64);
	strbuf_init(&r->tmp, 64);
	mllog_tpls_init(&r->tpls);
}

void mllog_init_mem(struct mllog_reader *r, const unsigned char *data, size_t len,
		    size_t max_record)
{
	memset(r, 0, sizeof(*r));
	r->max_record = max_record ? max_record : MLLOG_MAX_RECORD;
	/* read only: with the whole input there and eof set, nothing moves
	 * bytes (refill, trimming) */
	r->buf = (unsigned char *)(uintptr_t)data;
	r->borrowed = 1;
	r->cap = r->max_cap = r->end = len;
	r->bytes = len;
	r->eof = 1;
	r->tok = NOT_FOUND;
	r->avx2 = cpu_avx2();
	strbuf_init(&r->key, 64);
	strbuf_init(&r->why, 64);
	strbuf_init(&r->tmp, 64);
	mllog_tpls_init(&r->tpls);
}

void mllog_release(struct mllog_reader *r)
{
	if (!r->borrowed)
		free(r->buf);
	r->buf = NULL;
	strbuf_release(&r->key);
	strbuf_release(&r->why);
	strbuf_release(&r->tmp);
	mllog_tpls_release(&r->tpls);
}

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int is_token_at(const unsigned char *buf, size_t start, size_t end, size_t m)
{
	/* the 'M' of ":::MLLOG " at m, all of it in [start, end) */
	return m >= start + 3 && m + (MLLOG_TOKEN_LEN - 3) <= end && buf[m - 1] == ':' &&
	       buf[m - 2] == ':' && buf[m - 3] == ':' && buf[m + 1] == 'L' && buf[m + 2] == 'L' &&
	       buf[m + 3] == 'O' && buf[m + 4] == 'G' && buf[m + 5] == ' ';
}

/*
 * One pass over the line from r->scan: the end of the line ('\n' or '\r')
 * and the line's last token (r->tok, the index of its first ':') found
 * together, 16 bytes at a time where SSE2 is there.  Returns the index of
 * the line end, or NOT_FOUND with r->scan where to go on after a refill
 * (the last bytes again: a token may be cut by the buffer's end).
 */
#ifdef LINE_SCAN_AVX2
/* line_scan's loop 32 bytes at a time: the bytes before the next 32 from
 * r->scan.  Returns the line end, or NOT_FOUND with *at where to go on. */
__attribute__((target("avx2"))) static size_t line_scan32(struct mllog_reader *r, size_t *at)
{
	const unsigned char *b = r->buf;
	size_t i = *at, end = r->end, start = r->start;
	const __m256i nl = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r'),
		      em = _mm256_set1_epi8('M');

	for (; i + 32 <= end; i += 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(b + i));
		uint32_t eol = (uint32_t)_mm256_movemask_epi8(
			_mm256_or_si256(_mm256_cmpeq_epi8(v, nl), _mm256_cmpeq_epi8(v, cr)));
		uint32_t ms = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, em));

		if (eol)
			ms &= (uint32_t)(((uint64_t)1 << __builtin_ctz(eol)) - 1);
		while (ms) {
			size_t m = i + (unsigned)__builtin_ctz(ms);
			if (is_token_at(b, start, end, m))
				r->tok = m - 3;
			ms &= ms - 1;
		}
		if (eol)
			return i + (unsigned)__builtin_ctz(eol);
	}
	*at = i;
	return NOT_FOUND;
}
#endif

static size_t line_scan(struct mllog_reader *r)
{
	const unsigned char *b = r->buf;
	size_t i = r->scan, end = r->end, start = r->start;

#ifdef LINE_SCAN_AVX2
	if (r->avx2) {
		size_t eol = line_scan32(r, &i);
		if (eol != NOT_FOUND)
			return eol;
	}
#endif
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'), em = _mm_set1_epi8('M');

	for (; i + 16 <= end; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
		unsigned eol = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, cr)));
		unsigned ms = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, em));

		if (eol)
			ms &= (1u << __builtin_ctz(eol)) - 1;
		while (ms) {
			size_t m = i + (unsigned)__builtin_ctz(ms);
			if (is_token_at(b, start, end, m))
				r->tok = m - 3;
			ms &= ms - 1;
		}
		if (eol)
			return i + (unsigned)__builtin_ctz(eol);
	}
#endif
	for (; i < end; i++) {
		if (b[i] == '\n' || b[i] == '\r')
			return i;
		if (b[i] == 'M' && is_token_at(b, start, end, i))
			r->tok = i - 3;
	}
	r->scan = end - start > MLLOG_TOKEN_LEN - 1 ? end - (MLLOG_TOKEN_LEN - 1) : start;
	return NOT_FOUND;
}

#ifdef LINE_SCAN_AVX2
/* The first candidate of hit (bit k: position p + k) that is the needle,
 * or NULL.  Out of line: the scan loop keeps its vectors in registers. */
static __attribute__((noinline)) const unsigned char *
memmem_verify(const unsigned char *p, uint64_t hit, const char *needle, size_t m)
{
	while (hit) {
		const unsigned char *q = p + __builtin_ctzll(hit);
		if (!memcmp(q, needle, m))
			return q;
		hit &= hit - 1;
	}
	return NULL;
}

/* mlperf_memmem_probe's loop 64 positions at a time (a < b < m): the
 * hit, or NULL with *at where the narrower loops go on. */
__attribute__((target("avx2"))) static const unsigned char *
memmem32(const unsigned char **at, const unsigned char *end, const char *needle, size_t m,
	 size_t a, size_t b)
{
	const __m256i f = _mm256_set1_epi8(needle[a]), l = _mm256_set1_epi8(needle[b]);
	const unsigned char *p = *at;

	for (; (size_t)(end - p) >= m - 1 + 64; p += 64) {
		__m256i h0 = _mm256_and_si256(
			_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(p + a)), f),
			_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(p + b)), l));
		__m256i h1 = _mm256_and_si256(
			_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(p + a + 32)), f),
			_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(p + b + 32)), l));

		if (_mm256_testz_si256(_mm256_or_si256(h0, h1), _mm256_or_si256(h0, h1)))
			continue;
		{
			uint64_t hit = (uint32_t)_mm256_movemask_epi8(h0) |
				       (uint64_t)(uint32_t)_mm256_movemask_epi8(h1) << 32;
			const unsigned char *q = memmem_verify(p, hit, needle, m);
			if (q)
				return q;
		}
	}
	*at = p;
	return NULL;
}
#endif

const void *mlperf_memmem(const void *hay, size_t n, const char *needle, size_t m)
{
	return mlperf_memmem_probe(hay, n, needle, m, 0, m ? m - 1 : 0);
}

const void *mlperf_memmem_probe(const void *hay, size_t n, const char *needle, size_t m,
				size_t a, size_t b)
{
	const unsigned char *p = hay, *end = p + n;

	if (!m)
		return hay;
	if (a >= b || b >= m) { /* no usable pair: the first and last bytes */
		a = 0;
		b = m - 1;
	}
#ifdef LINE_SCAN_AVX2
	/* detection looks through every file's first 64 KiB, twice for a
	 * training log ("mlperf::logging" is in none) */
	if (m >= 2 && cpu_avx2()) {
		const unsigned char *q = memmem32(&p, end, needle, m, a, b);
		if (q)
			return q;
	}
#endif
#ifdef __SSE2__
	/* detection looks through every file's first 64 KiB: 16 positions at
	 * a time where the needle's two probe bytes both match */
	if (m >= 2) {
		const __m128i f = _mm_set1_epi8(needle[a]), l = _mm_set1_epi8(needle[b]);

		for (; (size_t)(end - p) >= m - 1 + 16; p += 16) {
			__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + a));
			__m128i y = _mm_loadu_si128((const __m128i *)(const void *)(p + b));
			unsigned hit = (unsigned)_mm_movemask_epi8(
				_mm_and_si128(_mm_cmpeq_epi8(x, f), _mm_cmpeq_epi8(y, l)));

			while (hit) {
				const unsigned char *q = p + __builtin_ctz(hit);
				if (!memcmp(q, needle, m))
					return q;
				hit &= hit - 1;
			}
		}
	}
#endif
	while ((size_t)(end - p) >= m) {
		const unsigned char *q = memchr(p, needle[0], (size_t)(end - p) - m + 1);
		if (!q)
			return NULL;
		if (!memcmp(q, needle, m))
			return q;
		p = q + 1;
	}
	return NULL;
}

/* The last ":::MLLOG " of p[0..n).  Searching for its 'M' is fast: JSON
 * records have many ':' but few 'M'. */
static const unsigned char *last_token(const unsigned char *p, size_t n)
{
	const unsigned char *hit = NULL, *q = p + 3, *end = p + n;

	while (q + (MLLOG_TOKEN_LEN - 3) <= end) {
		q = memchr(q, 'M', (size_t)(end - q) - (MLLOG_TOKEN_LEN - 3) + 1);
		if (!q)
			break;
		if (q[-1] == ':' && q[-2] == ':' && q[-3] == ':' && q[1] == 'L' && q[2] == 'L' &&
		    q[3] == 'O' && q[4] == 'G' && q[5] == ' ') {
			hit = q - 3;
			q += MLLOG_TOKEN_LEN - 3;
		} else {
			q++;
		}
	}
	return hit;
}

/* The buffer is full with one unfinished line: keep only what can still
 * become the record, i.e. from the line's last token on. */
static void trim_long_line(struct mllog_reader *r)
{
	size_t len = r->end - r->start, keep;
	const unsigned char *t = last_token(r->buf + r->start, len);

	if (t && t != r->buf + r->start) {
		keep = (size_t)(r->buf + r->end - t);
		memmove(r->buf, t, keep);
		r->overlong = 0;
	} else {
		/* no token, or the record alone fills the buffer (too long):
		 * keep the tail a token could start in */
		if (t)
			r->overlong = 1;
		keep = MLLOG_TOKEN_LEN - 1 < len ? MLLOG_TOKEN_LEN - 1 : len;
		memmove(r->buf, r->buf + r->end - keep, keep);
	}
	r->start = 0;
	r->end = keep;
	r->scan = 0; /* the kept bytes are scanned again: a token may be in them */
	r->tok = NOT_FOUND;
}

static int refill(struct mllog_reader *r, struct strbuf *err)
{
	size_t n, want;

	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->scan -= r->start;
		if (r->tok != NOT_FOUND)
			r->tok -= r->start;
		r->start = 0;
	}
	if (r->end == r->cap) {
		if (r->cap < r->max_cap) {
			r->cap = 2 * r->cap < r->max_cap ? 2 * r->cap : r->max_cap;
			r->buf = ab_realloc(r->buf, r->cap);
		} else {
			trim_long_line(r);
		}
	}
	want = r->cap - r->end < CHUNK ? r->cap - r->end : CHUNK;
	n = fread(r->buf + r->end, 1, want, r->fp);
	if (n == 0) {
		if (ferror(r->fp))
			return ab_fail(err, AB_EIO, "read error: %s", strerror(errno));
		r->eof = 1;
		return 0;
	}
	r->bytes += n;
	if (r->pending_cr) {
		r->pending_cr = 0;
		if (r->buf[r->end] == '\n') { /* the "\n" of a "\r\n" split by a read */
			memmove(r->buf + r->end, r->buf + r->end + 1, n - 1);
			n--;
		}
	}
	r->end += n;
	return 0;
}

/* Python's str.strip() whitespace within latin-1. */
static int py_space(unsigned char c)
{
	return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0;
}

static int rec_fail(struct mllog_reader *r, struct mllog_rec *rec)
{
	rec->ok = 0;
	rec->why = r->why.buf;
	r->failed++;
	return 1;
}

/* One line without its terminator: 1 with a record, 0 when it has none. */
static int process_line(struct mllog_reader *r, const unsigned char *line, size_t len,
			const unsigned char *t, struct mllog_rec *rec)
{
	int overlong = r->overlong;
	size_t n;

	r->overlong = 0;
	if (!t && !overlong)
		return 0; /* no record (rec is only read after a 1) */
	memset(rec, 0, sizeof(*rec));
	rec->line = r->lineno;
	if (!t) {
		r->records++;
		strbuf_reset(&r->why);
		strbuf_addf(&r->why, ":::MLLOG record longer than %zu bytes", r->max_record);
		return rec_fail(r, rec);
	}
	r->records++;
	t += MLLOG_TOKEN_LEN;
	n = (size_t)(line + len - t);
	if (n > r->max_record) {
		strbuf_reset(&r->why);
		strbuf_addf(&r->why, ":::MLLOG record longer than %zu bytes", r->max_record);
		return rec_fail(r, rec);
	}
	while (n && py_space(t[n - 1]))
		n--;
	if (!mllog_parse_record_tpl(&r->tpls, (const char *)t, n, (size_t)(t - line), rec, &r->key,
				    &r->tmp, &r->why))
		return rec_fail(r, rec);
	return 1;
}

/*
 * A line that is a short prefix, one token and a record of a template of
 * r's (mlperf_json.c) up to a '\n': the record without scanning the line
 * (1), else 0 with nothing changed.  The token is the line's last: the
 * record's bytes (a template's or digits) hold none.
 */
#define LINE_PREFIX_MAX 24
static int template_line(struct mllog_reader *r, struct mllog_rec *rec)
{
	const unsigned char *b = r->buf + r->start;
	size_t avail = r->end - r->start, i, len = 0;
	int rc;

	if (r->tpls.off || r->overlong || r->pending_cr || r->tok != NOT_FOUND ||
	    r->scan != r->start)
		return 0;
#ifdef __SSE2__
	if (avail >= 32) {
		/* the 'M's of the first LINE_PREFIX_MAX + 3 bytes before the
		 * line's end, 32 bytes at a time (a third of a log's lines
		 * are no record: they leave here) */
		const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
			      em = _mm_set1_epi8('M');
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)b),
			y = _mm_loadu_si128((const __m128i *)(const void *)(b + 16));
		uint32_t eol = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, nl),
									 _mm_cmpeq_epi8(x, cr))) |
			       (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(y, nl),
									 _mm_cmpeq_epi8(y, cr)))
				       << 16;
		uint32_t ms = ((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, em)) |
			       (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(y, em)) << 16) &
			      ((1u << (LINE_PREFIX_MAX + 3)) - 1);

		if (eol)
			ms &= (1u << __builtin_ctz(eol)) - 1;
		for (; ms; ms &= ms - 1)
			if (is_token_at(b, 0, avail, (size_t)__builtin_ctz(ms)))
				break;
		if (!ms)
			return 0;
		i = (size_t)__builtin_ctz(ms);
	} else
#endif
	{
		for (i = 0; i < avail && i < LINE_PREFIX_MAX + 3; i++) {
			if (b[i] == '\n' || b[i] == '\r')
				return 0;
			if (b[i] == 'M' && is_token_at(b, 0, avail, i))
				break;
		}
		if (i >= avail || i >= LINE_PREFIX_MAX + 3)
			return 0;
	}
	i += MLLOG_TOKEN_LEN - 3; /* the record */
	rc = mllog_tpl_line(&r->tpls, (const char *)b + i, avail - i, rec, &r->key, &r->why, &len);
	if (rc < 0)
		return 0;
	r->lineno++;
	rec->line = r->lineno;
	r->records++;
	r->start = r->scan = r->start + i + len + 1;
	if (!rc)
		rec_fail(r, rec);
	return 1;
}

int mllog_next(struct mllog_reader *r, struct mllog_rec *rec, struct strbuf *err)
{
	for (;;) {
		size_t eol, start;

		if (template_line(r, rec))
			return 1;
		eol = line_scan(r);
		start = r->start;
		const unsigned char *t = r->tok != NOT_FOUND ? r->buf + r->tok : NULL;
		int rc;

		if (eol != NOT_FOUND) {
			size_t next = eol + 1;
			if (r->buf[eol] == '\r') {
				if (next < r->end) {
					if (r->buf[next] == '\n')
						next++;
				} else if (!r->eof) {
					r->pending_cr = 1;
				}
			}
			r->start = r->scan = next;
			r->tok = NOT_FOUND;
			r->lineno++;
			if (process_line(r, r->buf + start, eol - start, t, rec))
				return 1;
			continue;
		}
		if (!r->eof) {
			rc = refill(r, err);
			if (rc < 0)
				return rc;
			continue;
		}
		if (r->start < r->end) {
			r->start = r->scan = r->end;
			r->tok = NOT_FOUND;
			r->lineno++;
			if (process_line(r, r->buf + start, r->end - start, t, rec))
				return 1;
			continue;
		}
		if (r->overlong) { /* an over-long last line without terminator */
			r->lineno++;
			if (process_line(r, r->buf, 0, NULL, rec))
				return 1;
		}
		return 0;
	}
}

int mllog_key_is(const struct mllog_rec *rec, const char *lit)
{
	size_t n = strlen(lit);
	return rec->key && rec->key_len == n && !memcmp(rec->key, lit, n);
}

void mllog_key_utf8(struct strbuf *out, const struct mllog_rec *rec)
{
	size_t i;

	strbuf_reset(out);
	for (i = 0; i < rec->key_len; i++) {
		unsigned char c = (unsigned char)rec->key[i];
		if (c < 0x80) {
			strbuf_addch(out, c);
		} else {
			strbuf_addch(out, 0xc0 | (c >> 6));
			strbuf_addch(out, 0x80 | (c & 0x3f));
		}
	}
}
