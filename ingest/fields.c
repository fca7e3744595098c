/*
 * fields.c - split one line into fields, with or without CSV quoting.
 *
 * JUBE writes CSV without any quoting; pandas quotes fields that contain
 * the separator; ReFrame perflogs use '|'.  One splitter serves them all:
 * the caller says whether quotes mean anything.
 */
#include "core/compat.h"
#include "ingest_priv.h"

void fields_init(struct fields *fl)
{
	memset(fl, 0, sizeof(*fl));
	strbuf_init(&fl->copy, 0);
}

void fields_release(struct fields *fl)
{
	free(fl->v);
	free(fl->len);
	strbuf_release(&fl->copy);
	memset(fl, 0, sizeof(*fl));
	strbuf_init(&fl->copy, 0);
}

static void push(struct fields *fl, size_t start, size_t end)
{
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? 2 * fl->cap : 32;
		fl->v = ab_realloc(fl->v, fl->cap * sizeof(*fl->v));
		fl->len = ab_realloc(fl->len, fl->cap * sizeof(*fl->len));
	}
	/* offsets for now; turned into pointers once copy stops growing */
	fl->v[fl->n] = (char *)(uintptr_t)start;
	fl->len[fl->n] = end - start;
	fl->n++;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int fields_split(struct fields *fl, const char *line, size_t len, char sep, unsigned flags)
{
	size_t i = 0, k;
	char *d;
	int rc = 0;

	fl->n = 0;
	strbuf_reset(&fl->copy);
	/* every byte once, plus a NUL per field (at most len + 1 fields): the
	 * copy never grows below, so fields are written straight into it */
	strbuf_grow(&fl->copy, 2 * len + 2);
	d = fl->copy.buf;
	for (;;) {
		size_t start = (size_t)(d - fl->copy.buf), end;

		if (flags & FIELDS_TRIM)
			while (i < len && is_blank(line[i]))
				i++;
		if ((flags & FIELDS_QUOTED) && i < len && line[i] == '"') {
			int closed = 0;
			for (i++; i < len; i++) {
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						*d++ = '"';
						i++;
						continue;
					}
					closed = 1;
					i++;
					break;
				}
				*d++ = line[i];
			}
			if (!closed)
				rc = -AB_EDATA;
			/* anything between the closing quote and sep is kept */
			while (i < len && line[i] != sep)
				*d++ = line[i++];
		} else {
			const char *q = i < len ? memchr(line + i, sep, len - i) : NULL;
			size_t n = (q ? (size_t)(q - line) : len) - i;

			memcpy(d, line + i, n);
			d += n;
			i += n;
		}
		end = (size_t)(d - fl->copy.buf);
		if (flags & FIELDS_TRIM) {
			while (end > start && is_blank(fl->copy.buf[end - 1]))
				end--;
			d = fl->copy.buf + end;
		}
		push(fl, start, end);
		*d++ = '\0';
		if (i >= len)
			break;
		i++; /* skip sep */
	}
	strbuf_setlen(&fl->copy, (size_t)(d - fl->copy.buf));
	for (k = 0; k < fl->n; k++) {
		size_t off = (size_t)(uintptr_t)fl->v[k];
		fl->v[k] = fl->copy.buf + off;
	}
	return rc;
}
