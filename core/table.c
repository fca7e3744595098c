/*
 * table.c - string grid rendering as aligned text or CSV; see table.h.
 */
#include "compat.h"
#include "table.h"

struct table {
	size_t ncols, nrows, cap_rows;
	char **titles;
	enum table_align *align;
	unsigned char *hidden; /* per column: left out of the text rendering */
	char **cells; /* nrows * ncols */
};

struct table *table_new(void)
{
	return ab_calloc(1, sizeof(struct table));
}

void table_free(struct table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->ncols; i++)
		free(t->titles[i]);
	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->titles);
	free(t->align);
	free(t->hidden);
	free(t->cells);
	free(t);
}

void table_add_column(struct table *t, const char *title, enum table_align align)
{
	/* columns must all exist before the first row */
	if (t->nrows)
		abort();
	t->titles = ab_realloc(t->titles, (t->ncols + 1) * sizeof(*t->titles));
	t->align = ab_realloc(t->align, (t->ncols + 1) * sizeof(*t->align));
	t->titles[t->ncols] = ab_strdup(title);
	t->align[t->ncols] = align;
	t->ncols++;
}

size_t table_columns(const struct table *t) { return t->ncols; }
size_t table_rows(const struct table *t) { return t->nrows; }

void table_add_row(struct table *t)
{
	if (t->nrows == t->cap_rows) {
		t->cap_rows = t->cap_rows ? 2 * t->cap_rows : 16;
		t->cells = ab_realloc(t->cells, t->cap_rows * t->ncols * sizeof(*t->cells));
	}
	memset(t->cells + t->nrows * t->ncols, 0, t->ncols * sizeof(*t->cells));
	t->nrows++;
}

void table_set(struct table *t, size_t col, const char *value)
{
	char **cell;

	if (!t->nrows || col >= t->ncols)
		abort();
	cell = &t->cells[(t->nrows - 1) * t->ncols + col];
	free(*cell);
	*cell = value ? ab_strdup(value) : NULL;
}

void table_setf(struct table *t, size_t col, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	table_set(t, col, sb.buf);
	strbuf_release(&sb);
}

const char *table_get(const struct table *t, size_t row, size_t col)
{
	if (row >= t->nrows || col >= t->ncols)
		return NULL;
	return t->cells[row * t->ncols + col];
}

const char *table_title(const struct table *t, size_t col)
{
	return col < t->ncols ? t->titles[col] : NULL;
}

/* Display width in code points (UTF-8 continuation bytes do not count). */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; s && *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

static void pad_cell(struct strbuf *out, const char *s, size_t w, enum table_align a, int last)
{
	size_t sw = width(s);
	size_t pad = w > sw ? w - sw : 0;

	if (a == TABLE_RIGHT)
		strbuf_addchars(out, ' ', pad);
	strbuf_addstr(out, s ? s : "");
	if (a == TABLE_LEFT && !last)
		strbuf_addchars(out, ' ', pad);
}

static size_t *col_widths(const struct table *t)
{
	size_t *w = ab_calloc(t->ncols ? t->ncols : 1, sizeof(size_t));
	struct strbuf tmp = STRBUF_INIT;
	size_t r, c;

	/* human output: control characters in a cell (a file name with ESC
	 * sequences or newlines) are shown escaped, never sent raw */
	for (c = 0; c < t->ncols; c++) {
		w[c] = width(strbuf_shown(&tmp, t->titles[c]));
		for (r = 0; r < t->nrows; r++) {
			size_t cw = width(strbuf_shown(&tmp, table_get(t, r, c)));
			if (cw > w[c])
				w[c] = cw;
		}
	}
	strbuf_release(&tmp);
	return w;
}

static int shown(const struct table *t, size_t c)
{
	return !t->hidden || !t->hidden[c];
}

void table_hide_column(struct table *t, size_t col)
{
	if (col >= t->ncols)
		return;
	if (!t->hidden)
		t->hidden = ab_calloc(t->ncols, 1);
	t->hidden[col] = 1;
}

size_t table_text_width(const struct table *t)
{
	size_t *w = col_widths(t), c, total = 0, n = 0;

	for (c = 0; c < t->ncols; c++) {
		if (!shown(t, c))
			continue;
		total += w[c] + (n++ ? 2 : 0);
	}
	free(w);
	return total;
}

void table_render_text(const struct table *t, struct strbuf *out)
{
	size_t *w = col_widths(t);
	struct strbuf tmp = STRBUF_INIT;
	size_t r, c, last = 0;
	int first;

	for (c = 0; c < t->ncols; c++)
		if (shown(t, c))
			last = c;
	first = 1;
	for (c = 0; c < t->ncols; c++) {
		if (!shown(t, c))
			continue;
		if (!first)
			strbuf_addstr(out, "  ");
		first = 0;
		pad_cell(out, strbuf_shown(&tmp, t->titles[c]), w[c], t->align[c], c == last);
	}
	strbuf_addch(out, '\n');
	first = 1;
	for (c = 0; c < t->ncols; c++) {
		if (!shown(t, c))
			continue;
		if (!first)
			strbuf_addstr(out, "  ");
		first = 0;
		strbuf_addchars(out, '-', w[c]);
	}
	strbuf_addch(out, '\n');
	for (r = 0; r < t->nrows; r++) {
		first = 1;
		for (c = 0; c < t->ncols; c++) {
			if (!shown(t, c))
				continue;
			if (!first)
				strbuf_addstr(out, "  ");
			first = 0;
			pad_cell(out, strbuf_shown(&tmp, table_get(t, r, c)), w[c], t->align[c],
				 c == last);
		}
		strbuf_rtrim(out);
		strbuf_addch(out, '\n');
	}
	free(w);
	strbuf_release(&tmp);
}

void csv_add_field(struct strbuf *out, const char *s)
{
	const char *p;

	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '"');
	for (p = s; *p; p++) {
		if (*p == '"')
			strbuf_addch(out, '"');
		strbuf_addch(out, *p);
	}
	strbuf_addch(out, '"');
}

void table_render_csv(const struct table *t, struct strbuf *out)
{
	size_t r, c;

	for (c = 0; c < t->ncols; c++) {
		if (c)
			strbuf_addch(out, ',');
		csv_add_field(out, t->titles[c]);
	}
	strbuf_addch(out, '\n');
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			if (c)
				strbuf_addch(out, ',');
			csv_add_field(out, table_get(t, r, c));
		}
		strbuf_addch(out, '\n');
	}
}
