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
	int rc = 0;

	fl->n = 0;
	strbuf_reset(&fl->copy);
	strbuf_grow(&fl->copy, len + 1);
	for (;;) {
		size_t start = fl->copy.len, end;

		if (flags & FIELDS_TRIM)
			while (i < len && is_blank(line[i]))
				i++;
		if ((flags & FIELDS_QUOTED) && i < len && line[i] == '"') {
			int closed = 0;
			for (i++; i < len; i++) {
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						strbuf_addch(&fl->copy, '"');
						i++;
						continue;
					}
					closed = 1;
					i++;
					break;
				}
				strbuf_addch(&fl->copy, line[i]);
			}
			if (!closed)
				rc = -AB_EDATA;
			/* anything between the closing quote and sep is kept */
			while (i < len && line[i] != sep)
				strbuf_addch(&fl->copy, line[i++]);
		} else {
			while (i < len && line[i] != sep)
				strbuf_addch(&fl->copy, line[i++]);
		}
		end = fl->copy.len;
		if (flags & FIELDS_TRIM) {
			while (end > start && is_blank(fl->copy.buf[end - 1]))
				end--;
			strbuf_setlen(&fl->copy, end);
		}
		push(fl, start, end);
		strbuf_addch(&fl->copy, '\0');
		if (i >= len)
			break;
		i++; /* skip sep */
	}
	for (k = 0; k < fl->n; k++) {
		size_t off = (size_t)(uintptr_t)fl->v[k];
		fl->v[k] = fl->copy.buf + off;
	}
	return rc;
}
