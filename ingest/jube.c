/*
 * jube.c - read JUBE result tables (the .dat files of `jube result` and its
 * stdout) in all three styles, sniffed from content, one row at a time.
 *
 * A result.dat is rewritten with whatever style the last `jube result -s`
 * asked for, so the file name says nothing about its layout:
 *   csv      "JobID,System,..." then one line per row; no quoting at all
 *   aligned  the same with every cell space-padded to its column width
 *   pretty   "result:" then "| JobID | System |", a "|----|" rule and
 *            "| 3914 |   JEDI |" rows; cells right-aligned; a multi-line
 *            value continues on extra physical lines whose cells are
 *            left-aligned (those lines are joined back, with ' ')
 * Several tables (stdout with two tables) are separated by blank lines.
 * The caller maps columns by header title; this file only splits.
 *
 * Unquoted separators: JUBE writes a value containing ',' as is, so such a
 * row has more fields than the header.  The rule (formats/caraml.md 3.3):
 * the columns left of the first free-text absorbing column (args_starter
 * in CARAML) are taken from the left, the columns right of it from the
 * right, and the absorbing column gets everything in between joined with
 * ','.  A bracketed absorbing column ("[1.5, 2.5]", "(256, 64)") takes the
 * fields from its opening to its closing bracket wherever it is.  Columns
 * outside the absorbing set are assumed free of ','; if the count still
 * does not work out, the row is rejected - nothing is ever shifted.
 */
#include "core/compat.h"
#include "caraml_priv.h"

#include <ctype.h>

enum rd_state {
	RD_OUTSIDE = 0,   /* between tables */
	RD_NAMED,         /* saw "name:", the "| ... |" header must follow */
	RD_PRETTY,
	RD_CSV
};

struct reader {
	struct ingest_file *f;
	const struct jube_ops *ops;
	struct lines lr;
	struct fields fl;
	struct jube_table t;
	enum rd_state state;
	char *name;
	size_t *width;        /* pretty: code points between two '|' */
	int rule_seen;
	size_t col_cap;       /* allocated length of t.cols, cell, next, cellv, absorb */
	const struct jube_absorb **absorb; /* per column: its absorbing rule or NULL */
	size_t free_absorb;   /* the first free-text absorbing column, ncols if none */
	struct strbuf *cell;  /* ncols cells of the row being built */
	struct strbuf *next;  /* pretty: the line just split, before it is merged */
	char **cellv;
	long row_line;        /* pretty: line of the pending row, 0 = none */
	long tables;
};

const char *jube_style_name(enum jube_style s)
{
	switch (s) {
	case JUBE_CSV: return "csv";
	case JUBE_ALIGNED: return "aligned";
	case JUBE_PRETTY: return "pretty";
	}
	return "?";
}

static int is_blank_line(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* "result:" - a table name line of the pretty style */
static int is_name_line(const char *s, size_t len)
{
	size_t i = 0, start;

	while (i < len && isspace((unsigned char)s[i]))
		i++;
	start = i;
	if (i == len || !(isalpha((unsigned char)s[i]) || s[i] == '_'))
		return 0;
	while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-' ||
			   s[i] == '.'))
		i++;
	if (i == start || i == len || s[i] != ':')
		return 0;
	for (i++; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

static const char *first_nonspace(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < len ? s + i : NULL;
}

static int starts_with_pipe(const char *s, size_t len)
{
	const char *p = first_nonspace(s, len);
	return p && *p == '|';
}

/* "|----|---|" (possibly indented) */
static int is_rule_line(const char *s, size_t len)
{
	size_t i, dashes = 0;

	if (!starts_with_pipe(s, len))
		return 0;
	for (i = 0; i < len; i++) {
		if (s[i] == '-')
			dashes++;
		else if (s[i] != '|' && s[i] != ' ' && s[i] != '\t' && s[i] != '+')
			return 0;
	}
	return dashes > 0;
}

/* ---- header detection (shared by jube_detect and the reader) ---------- */

static int field_is(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	return len == n && !memcmp(s, word, n);
}

/* 1 if the separated fields of s[0..len) include System and either JobID
 * or a known metric column (a site's own CARAML-style table). */
static int has_caraml_columns(const char *s, size_t len, char sep)
{
	int job = 0, sys = 0, metric = 0;
	size_t i = 0;

	while (i <= len) {
		size_t j = i;
		while (j < len && s[j] != sep)
			j++;
		job |= field_is(s + i, j - i, "JobID");
		sys |= field_is(s + i, j - i, "System");
		metric |= field_is(s + i, j - i, "Tokens/second") ||
			  field_is(s + i, j - i, "Images/second") ||
			  field_is(s + i, j - i, "TrainTimesteps/second");
		i = j + 1;
	}
	return sys && (job || metric);
}

int jube_detect(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head, *end = s + len, *nl;
	size_t n;

	if (len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		s += 3;
	/* skip blank lines */
	for (;;) {
		nl = memchr(s, '\n', (size_t)(end - s));
		n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		if (!is_blank_line(s, n) || !nl)
			break;
		s = nl + 1;
	}
	if (is_name_line(s, n) && nl) {
		s = nl + 1;
		nl = memchr(s, '\n', (size_t)(end - s));
		n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		return starts_with_pipe(s, n) && has_caraml_columns(s, n, '|') ? 95 : 0;
	}
	if (starts_with_pipe(s, n))
		return has_caraml_columns(s, n, '|') ? 95 : 0;
	return has_caraml_columns(s, n, ',') ? 90 : 0;
}

/* ---- table lifecycle --------------------------------------------------- */

static void table_reset(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->t.ncols; i++) {
		free(r->t.cols[i]);
		strbuf_release(&r->cell[i]);
		strbuf_release(&r->next[i]);
	}
	free(r->t.cols);
	free(r->cell);
	free(r->next);
	free(r->cellv);
	free(r->absorb);
	free(r->width);
	free(r->name);
	memset(&r->t, 0, sizeof(r->t));
	r->cell = NULL;
	r->next = NULL;
	r->cellv = NULL;
	r->absorb = NULL;
	r->col_cap = 0;
	r->width = NULL;
	r->name = NULL;
	r->rule_seen = 0;
	r->row_line = 0;
}

static void add_col(struct reader *r, const char *s, size_t len)
{
	size_t i = r->t.ncols;

	/* grow geometrically: a header of 100k columns must stay linear */
	if (i == r->col_cap) {
		r->col_cap = r->col_cap ? 2 * r->col_cap : 16;
		r->t.cols = ab_realloc(r->t.cols, r->col_cap * sizeof(*r->t.cols));
		r->cell = ab_realloc(r->cell, r->col_cap * sizeof(*r->cell));
		r->next = ab_realloc(r->next, r->col_cap * sizeof(*r->next));
		r->cellv = ab_realloc(r->cellv, r->col_cap * sizeof(*r->cellv));
		r->absorb = ab_realloc(r->absorb, r->col_cap * sizeof(*r->absorb));
	}
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	r->t.cols[i] = ab_strndup(s, len);
	strbuf_init(&r->cell[i], 0);
	strbuf_init(&r->next[i], 0);
	r->t.ncols++;
}

static int cmp_col(const void *a, const void *b)
{
	return strcmp(**(char **const *)a, **(char **const *)b);
}

/* A column named twice: a lookup by name sees only the first, so say so
 * (sorted copy: a header of 100k columns stays O(n log n)). */
static void warn_duplicate_columns(struct reader *r)
{
	char ***v = ab_malloc(r->t.ncols * sizeof(*v));
	const char *first = NULL;
	size_t i, dups = 0;

	for (i = 0; i < r->t.ncols; i++)
		v[i] = &r->t.cols[i];
	qsort(v, r->t.ncols, sizeof(*v), cmp_col);
	for (i = 1; i < r->t.ncols; i++)
		if (!strcmp(*v[i], *v[i - 1]) && (i < 2 || strcmp(*v[i], *v[i - 2]))) {
			if (!dups)
				first = *v[i]; /* the smallest such name: a stable message */
			dups++;
		}
	if (dups)
		ingest_warn(r->f, r->t.line, "%zu column name%s given more than once in the header "
			    "(e.g. '%s'); only the first of each is read", dups,
			    dups == 1 ? " is" : "s are", first);
	free(v);
}

/* The absorbing rule of each column, looked up by title once per table
 * (not per row and column: strcmp against every rule was a fifth of a
 * CARAML parse). */
static void find_absorb_rules(struct reader *r)
{
	size_t c, k;

	r->free_absorb = r->t.ncols;
	for (c = 0; c < r->t.ncols; c++) {
		r->absorb[c] = NULL;
		for (k = 0; k < r->ops->nabsorb; k++)
			if (!strcmp(r->ops->absorb[k].column, r->t.cols[c])) {
				r->absorb[c] = &r->ops->absorb[k];
				break;
			}
		if (r->absorb[c] && !r->absorb[c]->open && r->free_absorb == r->t.ncols)
			r->free_absorb = c;
	}
}

static int table_begin(struct reader *r, struct strbuf *err)
{
	r->t.name = r->name;
	r->tables++;
	if (!r->t.ncols)
		return ingest_fail_at(r->f, err, r->t.line, "empty table header");
	warn_duplicate_columns(r);
	find_absorb_rules(r);
	return r->ops->begin(r->ops->ctx, &r->t, err);
}

/* pretty: the cells built in r->cell, trimmed */
static int emit_row(struct reader *r, long line, struct strbuf *err)
{
	size_t i;

	for (i = 0; i < r->t.ncols; i++) {
		strbuf_trim(&r->cell[i]);
		r->cellv[i] = r->cell[i].buf;
	}
	return r->ops->row(r->ops->ctx, &r->t, line, r->cellv, err);
}

static void table_end(struct reader *r)
{
	if (r->t.repaired)
		ingest_warn(r->f, r->t.line,
			    "%ld row%s had more fields than the header (unquoted ','); the surplus "
			    "was joined back into '%s'",
			    r->t.repaired, r->t.repaired == 1 ? "" : "s", r->t.repaired_col);
	table_reset(r);
	r->state = RD_OUTSIDE;
}

/* ---- csv and aligned --------------------------------------------------- */

static int csv_header(struct reader *r, const char *s, size_t len, struct strbuf *err)
{
	size_t i;
	int padded = 0;

	fields_split(&r->fl, s, len, ',', 0);
	for (i = 0; i < r->fl.n; i++) {
		const char *v = r->fl.v[i];
		size_t n = r->fl.len[i];
		if (n && (v[0] == ' ' || v[n - 1] == ' '))
			padded = 1;
		add_col(r, v, n);
	}
	r->t.style = padded ? JUBE_ALIGNED : JUBE_CSV;
	r->t.line = r->lr.lineno;
	r->state = RD_CSV;
	return table_begin(r, err);
}

static int is_trim_space(char c)
{
	/* strbuf_trim()'s set */
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * cellv[col] = fields [from, to) joined with ',' and trimmed.  One field
 * (every cell but a repaired one) is trimmed in place in the splitter's
 * copy, which is writable and NUL-terminated per field: no copy per cell.
 */
static void set_cell(struct reader *r, size_t col, size_t from, size_t to)
{
	struct strbuf *sb = &r->cell[col];
	size_t k;

	if (to == from + 1) {
		char *v = r->fl.v[from];
		size_t n = r->fl.len[from];
		while (n && is_trim_space(v[n - 1]))
			n--;
		v[n] = '\0';
		while (n && is_trim_space(*v)) {
			v++;
			n--;
		}
		r->cellv[col] = v;
		return;
	}
	strbuf_reset(sb);
	for (k = from; k < to; k++) {
		if (k > from)
			strbuf_addch(sb, ',');
		strbuf_add(sb, r->fl.v[k], r->fl.len[k]);
	}
	strbuf_trim(sb);
	r->cellv[col] = sb->buf;
}

static int starts_with_ch(const struct fields *fl, size_t k, char c)
{
	const char *p = first_nonspace(fl->v[k], fl->len[k]);
	return c && p && *p == c;
}

static int ends_with_ch(const struct fields *fl, size_t k, char c)
{
	size_t n = fl->len[k];
	while (n && isspace((unsigned char)fl->v[k][n - 1]))
		n--;
	return c && n && fl->v[k][n - 1] == c;
}

/*
 * Map fields [lo, hi) onto columns [clo, chi) going left to right (dir > 0)
 * or right to left (dir < 0); a bracketed absorbing column takes its whole
 * bracketed run.  Returns the number of fields used, or -1 when they run
 * out.  *joined names a column that took more than one field.
 */
static long map_run(struct reader *r, size_t lo, size_t hi, size_t clo, size_t chi, int dir,
		    const char **joined)
{
	size_t used = 0, c;

	for (c = 0; c < chi - clo; c++) {
		size_t col = dir > 0 ? clo + c : chi - 1 - c;
		const struct jube_absorb *a = r->absorb[col];
		size_t avail = hi - lo - used, take = 1;

		if (!avail)
			return -1;
		if (a && a->open) {
			size_t k, first = dir > 0 ? lo + used : hi - 1 - used;
			int open_here = dir > 0 ? starts_with_ch(&r->fl, first, a->open)
						: ends_with_ch(&r->fl, first, a->close);
			if (open_here) {
				for (k = 0; k < avail; k++) {
					size_t idx = dir > 0 ? first + k : first - k;
					if (dir > 0 ? ends_with_ch(&r->fl, idx, a->close)
						    : starts_with_ch(&r->fl, idx, a->open))
						break;
				}
				if (k < avail)
					take = k + 1;
			}
			if (take > 1)
				*joined = a->column;
		}
		if (dir > 0)
			set_cell(r, col, lo + used, lo + used + take);
		else
			set_cell(r, col, hi - used - take, hi - used);
		used += take;
	}
	return (long)used;
}

static int csv_row(struct reader *r, const char *s, size_t len, struct strbuf *err)
{
	size_t n, ncols = r->t.ncols, a = ncols;
	const char *joined = NULL;
	long left, right = 0;
	int ok = 0;

	fields_split(&r->fl, s, len, ',', 0);
	n = r->fl.n;
	if (n < ncols)
		return ingest_fail_at(r->f, err, r->lr.lineno,
				      "row has %zu field%s, header has %zu (truncated row?)", n,
				      n == 1 ? "" : "s", ncols);
	/* the first free-text absorbing column, if any */
	if (n > ncols)
		a = r->free_absorb;
	if (a < ncols) {
		left = map_run(r, 0, n, 0, a, 1, &joined);
		if (left >= 0)
			right = map_run(r, (size_t)left, n, a + 1, ncols, -1, &joined);
		if (left >= 0 && right >= 0 && (size_t)(left + right) < n) {
			set_cell(r, a, (size_t)left, n - (size_t)right);
			if (n - (size_t)right - (size_t)left > 1)
				joined = r->t.cols[a];
			ok = 1;
		}
	} else {
		left = map_run(r, 0, n, 0, ncols, 1, &joined);
		ok = left >= 0 && (size_t)left == n;
	}
	if (!ok)
		return ingest_fail_at(r->f, err, r->lr.lineno,
				      "row has %zu fields, header has %zu (a value contains an "
				      "unquoted ',')", n, ncols);
	if (n > ncols) {
		r->t.repaired++;
		r->t.repaired_col = joined;
	}
	return r->ops->row(r->ops->ctx, &r->t, r->lr.lineno, r->cellv, err);
}

/* ---- pretty ------------------------------------------------------------- */

static size_t utf8_len(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

static int pretty_header(struct reader *r, const char *s, size_t len, struct strbuf *err)
{
	const char *p = memchr(s, '|', len), *end = s + len;
	size_t ncols = 0, wcap = 0;

	r->t.style = JUBE_PRETTY;
	r->t.line = r->lr.lineno;
	r->state = RD_PRETTY;
	while (p && p < end) {
		const char *q = memchr(p + 1, '|', (size_t)(end - p - 1));
		if (!q)
			break;
		add_col(r, p + 1, (size_t)(q - p - 1));
		if (ncols == wcap) { /* geometric, like add_col() */
			wcap = wcap ? 2 * wcap : 16;
			r->width = ab_realloc(r->width, wcap * sizeof(*r->width));
		}
		r->width[ncols++] = utf8_len(p + 1, (size_t)(q - p - 1));
		p = q;
	}
	return table_begin(r, err);
}

/*
 * Split a pretty row into r->next by the header's column widths (code
 * points, as Python pads them), so a '|' inside a value does not split it.
 * *cont is set when the line continues the previous row: JUBE right-aligns
 * the first line of a row and left-aligns its continuation lines, so a
 * non-empty cell with padding on its right only marks a continuation.
 * Returns 0, or -1 when the line does not fit the layout.
 */
static int pretty_split(struct reader *r, const char *s, size_t len, int *cont)
{
	const char *p = memchr(s, '|', len);
	size_t pos, c;
	int left_votes = 0, right_votes = 0;

	if (!p)
		return -1;
	pos = (size_t)(p - s) + 1;
	for (c = 0; c < r->t.ncols; c++) {
		size_t start = pos, cps = 0, lead = 0, trail = 0, k;
		while (pos < len && cps < r->width[c]) {
			pos++;
			while (pos < len && ((unsigned char)s[pos] & 0xc0) == 0x80)
				pos++;
			cps++;
		}
		if (cps < r->width[c] || pos >= len || s[pos] != '|')
			return -1;
		/* segment = ' ' + value padded to (width - 2) + ' ' */
		strbuf_reset(&r->next[c]);
		strbuf_add(&r->next[c], s + start, pos - start);
		if (r->next[c].len >= 2) {
			const char *v = r->next[c].buf + 1;
			size_t w = r->next[c].len - 2;
			for (k = 0; k < w && v[k] == ' '; k++)
				lead++;
			for (k = w; k > lead && v[k - 1] == ' '; k--)
				trail++;
			if (lead < w) {
				if (trail > 0 && lead == 0)
					left_votes++;
				else if (trail == 0 && lead > 0)
					right_votes++;
			}
		}
		pos++;
	}
	for (; pos < len; pos++)
		if (!isspace((unsigned char)s[pos]))
			return -1;
	*cont = left_votes > 0 && right_votes == 0;
	return 0;
}

static int pretty_flush(struct reader *r, struct strbuf *err)
{
	long line = r->row_line;

	if (!line)
		return 0;
	r->row_line = 0;
	return emit_row(r, line, err);
}

static void take_next(struct reader *r)
{
	size_t c;

	for (c = 0; c < r->t.ncols; c++) {
		struct strbuf tmp = r->cell[c];
		r->cell[c] = r->next[c];
		r->next[c] = tmp;
	}
	r->row_line = r->lr.lineno;
}

static int pretty_row(struct reader *r, const char *s, size_t len, struct strbuf *err)
{
	int cont = 0, rc;
	size_t c;

	if (!r->rule_seen && !r->row_line && is_rule_line(s, len)) {
		r->rule_seen = 1;
		return 0;
	}
	if (pretty_split(r, s, len, &cont) == 0) {
		if (cont && r->row_line) {
			for (c = 0; c < r->t.ncols; c++) {
				strbuf_trim(&r->next[c]);
				if (!r->next[c].len)
					continue;
				strbuf_trim(&r->cell[c]);
				if (r->cell[c].len)
					strbuf_addch(&r->cell[c], ' ');
				strbuf_addbuf(&r->cell[c], &r->next[c]);
			}
			return 0;
		}
		rc = pretty_flush(r, err);
		if (rc == 0)
			take_next(r);
		return rc;
	}
	/* the fixed layout did not fit: fall back to splitting at every '|' */
	rc = pretty_flush(r, err);
	if (rc < 0)
		return rc;
	fields_split(&r->fl, s, len, '|', FIELDS_TRIM);
	if (r->fl.n != r->t.ncols + 2 || r->fl.len[0] || r->fl.len[r->fl.n - 1]) {
		size_t got = r->fl.n >= 2 ? r->fl.n - 2 : 0;
		return ingest_fail_at(r->f, err, r->lr.lineno,
				      "row has %zu cell%s, header has %zu (truncated row?)", got,
				      got == 1 ? "" : "s", r->t.ncols);
	}
	for (c = 0; c < r->t.ncols; c++) {
		strbuf_reset(&r->cell[c]);
		strbuf_add(&r->cell[c], r->fl.v[c + 1], r->fl.len[c + 1]);
	}
	return emit_row(r, r->lr.lineno, err);
}

/* ---- driver ------------------------------------------------------------ */

static int handle_line(struct reader *r, const char *s, size_t len, struct strbuf *err)
{
	int blank = is_blank_line(s, len);
	int rc;

	switch (r->state) {
	case RD_OUTSIDE:
		if (blank)
			return 0;
		if (is_name_line(s, len)) {
			const char *p = first_nonspace(s, len);
			const char *colon = memchr(p, ':', len - (size_t)(p - s));
			r->name = ab_strndup(p, (size_t)(colon - p));
			r->state = RD_NAMED;
			return 0;
		}
		if (starts_with_pipe(s, len))
			return pretty_header(r, s, len, err);
		return csv_header(r, s, len, err);
	case RD_NAMED:
		if (!starts_with_pipe(s, len))
			return ingest_fail_at(r->f, err, r->lr.lineno,
					      "expected the '| ... |' header of table '%s'", r->name);
		return pretty_header(r, s, len, err);
	case RD_PRETTY:
		if (blank || !starts_with_pipe(s, len)) {
			rc = pretty_flush(r, err);
			if (rc < 0)
				return rc;
			table_end(r);
			return blank ? 0 : handle_line(r, s, len, err);
		}
		return pretty_row(r, s, len, err);
	case RD_CSV:
		if (blank) {
			table_end(r);
			return 0;
		}
		return csv_row(r, s, len, err);
	}
	return 0;
}

int jube_read(struct ingest_file *f, const struct jube_ops *ops, struct strbuf *err)
{
	struct reader r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.f = f;
	r.ops = ops;
	lines_init(&r.lr, f->fp, LINES_DEFAULT_MAX, 0);
	fields_init(&r.fl);
	for (;;) {
		const char *s;
		size_t len;

		rc = lines_next(&r.lr, err);
		if (rc == -AB_EDATA) {
			rc = ingest_fail_at(f, err, r.lr.lineno, "line longer than %zu bytes",
					    (size_t)LINES_DEFAULT_MAX);
			break;
		}
		if (rc < 0) {
			ab_error_prefix(err, f->path, 0);
			break;
		}
		if (rc == 0)
			break;
		s = r.lr.line.buf;
		len = r.lr.line.len;
		if (r.lr.lineno == 1 && len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) {
			s += 3;
			len -= 3;
		}
		if (memchr(s, '\0', len)) {
			rc = ingest_fail_at(f, err, r.lr.lineno, "binary data (NUL byte)");
			break;
		}
		rc = handle_line(&r, s, len, err);
		if (rc < 0)
			break;
		/* a table row without its newline is where the file was cut */
		if (r.lr.unterminated && r.state != RD_OUTSIDE && !is_blank_line(s, len) &&
		    strspn(s, "+-=| \t") < len) {
			rc = ingest_fail_at(f, err, r.lr.lineno, "last line has no newline: "
					    "the file is cut short (truncated row?)");
			break;
		}
	}
	if (rc == 0 && r.state == RD_PRETTY)
		rc = pretty_flush(&r, err);
	if (rc == 0 && r.state == RD_NAMED)
		rc = ingest_fail_at(f, err, r.lr.lineno, "table '%s' has no header", r.name);
	if (rc == 0 && r.state != RD_OUTSIDE)
		table_end(&r);
	if (rc == 0 && !r.tables)
		rc = ingest_fail_at(f, err, 0, "no result table found");
	table_reset(&r);
	fields_release(&r.fl);
	lines_release(&r.lr);
	return rc;
}
