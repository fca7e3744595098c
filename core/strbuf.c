/*
 * strbuf.c - growable string buffer; see strbuf.h.
 */
#include "compat.h"
#include "strbuf.h"

char strbuf_slopbuf[1];

static void die_oom(size_t n)
{
	fprintf(stderr, "accelbench: out of memory allocating %zu bytes\n", n);
	abort();
}

void *ab_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

void *ab_calloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die_oom(nmemb * size);
	return p;
}

void *ab_realloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom(n);
	return q;
}

char *ab_strndup(const char *s, size_t n)
{
	char *p = ab_malloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *ab_strdup(const char *s)
{
	return ab_strndup(s, strlen(s));
}

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow_slow(struct strbuf *sb, size_t extra)
{
	size_t need;

	if (extra > SIZE_MAX - sb->len - 1)
		die_oom(SIZE_MAX);
	need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return;
	if (!sb->alloc)
		sb->buf = NULL;
	if (sb->alloc < 64)
		sb->alloc = 64;
	while (sb->alloc < need)
		sb->alloc = sb->alloc < SIZE_MAX / 2 ? sb->alloc * 2 : need;
	sb->buf = ab_realloc(sb->buf, sb->alloc);
	if (sb->len == 0)
		sb->buf[0] = '\0';
}


void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	strbuf_setlen(sb, sb->len + n);
}


void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0) {
		fprintf(stderr, "accelbench: bad format string '%s'\n", fmt);
		abort();
	}
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	strbuf_setlen(sb, sb->len + (size_t)n);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

void strbuf_rtrim(struct strbuf *sb)
{
	size_t n = sb->len;

	while (n && is_space((unsigned char)sb->buf[n - 1]))
		n--;
	strbuf_setlen(sb, n);
}

void strbuf_trim(struct strbuf *sb)
{
	size_t i = 0;

	strbuf_rtrim(sb);
	while (i < sb->len && is_space((unsigned char)sb->buf[i]))
		i++;
	if (i) {
		memmove(sb->buf, sb->buf + i, sb->len - i);
		strbuf_setlen(sb, sb->len - i);
	}
}

void strbuf_add_printable(struct strbuf *sb, const char *s, size_t len, size_t max)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (max && i >= max) {
			strbuf_addstr(sb, "...");
			break;
		}
		if (c >= 0x20 && c < 0x7f)
			strbuf_addch(sb, c);
		else
			strbuf_addf(sb, "\\x%02x", c);
	}
}

size_t strbuf_add_escaped(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	for (; p && *p; p++) {
		if (*p == '\n' || *p == '\t' || *p == '\r') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r');
			n++;
		} else if (*p < 0x20 || *p == 0x7f) {
			strbuf_addf(sb, "\\x%02x", *p);
			n++;
		} else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			strbuf_addf(sb, "\\u%04x", p[1]);
			p++;
			n++;
		} else {
			strbuf_addch(sb, (char)*p);
		}
	}
	return n;
}

const char *strbuf_shown(struct strbuf *tmp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; p && *p; p++)
		if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			break;
	if (!p || !*p)
		return s;
	strbuf_reset(tmp);
	strbuf_add_escaped(tmp, s);
	return tmp->buf;
}

void ab_copy_long(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}
