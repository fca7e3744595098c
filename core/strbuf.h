/*
 * strbuf.h - growable, always NUL-terminated byte buffer (after git's).
 *
 * Ownership: a strbuf owns its buf.  strbuf_release() frees it and leaves
 * the strbuf empty and reusable; strbuf_detach() hands buf to the caller,
 * who must free() it.  sb->buf is never NULL, even for an empty buffer.
 * Allocation failure aborts (there is no sane recovery in a CLI).
 */
#ifndef AB_STRBUF_H
#define AB_STRBUF_H

#include "compat.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Room for extra more bytes (and the NUL).  The common cases are inline:
 * parsers call these per field; the call was a tenth of an ingest. */
void strbuf_grow_slow(struct strbuf *sb, size_t extra);
static inline void strbuf_grow(struct strbuf *sb, size_t extra)
{
	/* len + extra + 1 <= alloc, without overflow (alloc > len when not 0) */
	if (!sb->alloc || extra >= sb->alloc - sb->len)
		strbuf_grow_slow(sb, extra);
}

static inline void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc) {
		if (len == 0)
			return;
		strbuf_grow(sb, len);
	}
	sb->len = len;
	sb->buf[len] = '\0';
}

static inline void strbuf_reset(struct strbuf *sb) { strbuf_setlen(sb, 0); }

/* memcpy(d, s, n) without a call for the few-byte pieces the parsers and
 * the ingest pipeline copy (millions per large ingest): 16-byte moves
 * (the last one overlapping) for 17-64 bytes, two overlapping moves for
 * 4-16, three byte moves below (the call to memcpy cost more than the
 * copy up to 64 bytes).  Longer: memcpy in ab_copy_long, out of line so
 * that the compiler does not see a long copy from a caller's small array
 * (a path that cannot happen) and warn about it. */
void ab_copy_long(void *dst, const void *src, size_t n);
static inline void ab_copy(void *dst, const void *src, size_t n)
{
	char *d = (char *)dst;
	const char *s = (const char *)src;

	if (n > 64) {
		ab_copy_long(d, s, n);
	} else if (n > 16) {
		char t[16];
		size_t i;

		for (i = 0; i + 16 < n; i += 16) {
			memcpy(t, s + i, 16);
			memcpy(d + i, t, 16);
		}
		memcpy(t, s + n - 16, 16);
		memcpy(d + n - 16, t, 16);
	} else if (n >= 8) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

static inline void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	ab_copy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

/* inline: called per field on the ingest paths, where the call cost more
 * than the copy */
static inline void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

static inline void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}
static inline void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) AB_PRINTF(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Append n copies of c. */
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
/* Replace contents with s (inline: the sink and the parsers call it per
 * run and per line). */
static inline void strbuf_setstr(struct strbuf *sb, const char *s)
{
	strbuf_reset(sb);
	strbuf_addstr(sb, s);
}

/* !memcmp(a, b, n), inline for the short texts the parsers compare with
 * what they met before (a call to memcmp cost more than the compare).
 * Up to 64 bytes without a loop: overlapping 8- or 16-byte pieces that
 * cover the n bytes, their differences ORed (SSE2: compared 16 at once). */
static inline AB_ALWAYS_INLINE int ab_memeq(const void *a, const void *b, size_t n)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
	uint64_t p, q, r, t;
	uint32_t u, v, w, z;

	if (n > 64)
		return !memcmp(a, b, n);
	if (n > 16) {
#ifdef __SSE2__
		__m128i e = _mm_and_si128(
			_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)x),
				       _mm_loadu_si128((const __m128i *)(const void *)y)),
			_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(x + n - 16)),
				       _mm_loadu_si128((const __m128i *)(const void *)(y + n - 16))));
		if (n > 32)
			e = _mm_and_si128(
				e, _mm_and_si128(
					   _mm_cmpeq_epi8(
						   _mm_loadu_si128((const __m128i *)(const void *)(x + 16)),
						   _mm_loadu_si128((const __m128i *)(const void *)(y + 16))),
					   _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(
								  x + n - 32)),
							  _mm_loadu_si128((const __m128i *)(const void *)(
								  y + n - 32)))));
		return _mm_movemask_epi8(e) == 0xffff;
#else
		uint64_t acc = 0;
		size_t i, m = n > 32 ? 32 : 16;

		for (i = 0; i < m; i += 8) {
			memcpy(&p, x + i, 8);
			memcpy(&q, y + i, 8);
			memcpy(&r, x + n - m + i, 8);
			memcpy(&t, y + n - m + i, 8);
			acc |= (p ^ q) | (r ^ t);
		}
		return acc == 0;
#endif
	}
	if (n >= 8) {
		memcpy(&p, x, 8);
		memcpy(&q, y, 8);
		memcpy(&r, x + n - 8, 8); /* the last 8, overlapping */
		memcpy(&t, y + n - 8, 8);
		return ((p ^ q) | (r ^ t)) == 0;
	}
	if (n >= 4) {
		memcpy(&u, x, 4);
		memcpy(&v, y, 4);
		memcpy(&w, x + n - 4, 4);
		memcpy(&z, y + n - 4, 4);
		return ((u ^ v) | (w ^ z)) == 0;
	}
	/* 0-3 bytes: the first, middle and last cover them */
	return !n || (x[0] == y[0] && x[n / 2] == y[n / 2] && x[n - 1] == y[n - 1]);
}

/* Remove leading/trailing ASCII whitespace. */
void strbuf_trim(struct strbuf *sb);
void strbuf_rtrim(struct strbuf *sb);
/* Append s, replacing bytes outside printable ASCII by \xNN (for messages). */
void strbuf_add_printable(struct strbuf *sb, const char *s, size_t len, size_t max);

/* A duplicate that the caller frees; aborts on allocation failure. */
char *ab_strdup(const char *s);
char *ab_strndup(const char *s, size_t n);
/* Append s for a terminal: control characters (C0, DEL and UTF-8 encoded
 * C1, e.g. ESC sequences or newlines in a file name) become \n, \t, \r,
 * \xNN or \u00NN, so printed names cannot move the cursor or recolour the
 * screen.  Returns the number of characters escaped. */
size_t strbuf_add_escaped(struct strbuf *sb, const char *s);
/* s itself when it has no control characters, else its escaped form in tmp. */
const char *strbuf_shown(struct strbuf *tmp, const char *s);

void *ab_malloc(size_t n);
void *ab_calloc(size_t nmemb, size_t size);
void *ab_realloc(void *p, size_t n);

#endif
