/*
 * export.c - CSV and JSON exports of runs, statistics, comparisons and
 * MLPerf scores (see export.h for what and how).  Runs stream from one
 * prepared statement through a buffer flushed every 64 KiB; the tables
 * render the views/ records, so the fields are those of --json.
 */
#include "core/compat.h"
#include "export.h"
#include "core/atomic.h"
#include "model/mlperf_score.h"

#include <jansson.h>
#include <math.h>

#define FLUSH_AT (64u << 10)

int export_format_from_path(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return -1;
	if (!strcasecmp(dot, ".csv"))
		return EXPORT_CSV;
	if (!strcasecmp(dot, ".json"))
		return EXPORT_JSON;
	if (!strcasecmp(dot, ".xlsx"))
		return EXPORT_XLSX;
	return -1;
}

int export_what_from_name(const char *name)
{
	static const char *const names[] = { "runs", "stats", "compare", "scores" };
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -1;
}

/* ---- cells ---------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (1..4), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t len)
{
	unsigned c = s[0];
	size_t n, i;
	unsigned cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

void export_utf8(struct strbuf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, start = 0, n;

	while (i < len) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		n = utf8_seq(p + i, len - i);
		if (n) {
			i += n;
			continue;
		}
		strbuf_add(out, s + start, i - start);
		strbuf_addstr(out, "\xef\xbf\xbd");
		start = ++i;
	}
	strbuf_add(out, s + start, len - start);
}

/* Plain ASCII with nothing to escape: the common case, copied as is.
 * special: the two printable bytes that need escaping (compared inline: a
 * strchr per byte was 28% of a runs CSV export's instructions). */
static int plain_ascii(const char *s, size_t len, const char special[2])
{
	unsigned char a = (unsigned char)special[0], b = (unsigned char)special[1];
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x80 || c < 0x20 || c == a || c == b)
			return 0;
	}
	return 1;
}

int export_formula_like(const char *s, size_t len)
{
	return len && s[0] && strchr("=+-@\t\r", s[0]) != NULL;
}

void export_csv_field(struct strbuf *out, const char *s, size_t len, int text)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t i;
	int quote = 0;

	if ((!text || !export_formula_like(s, len)) && plain_ascii(s, len, ",\"")) {
		strbuf_add(out, s, len);
		return;
	}
	if (text && export_formula_like(s, len))
		strbuf_addch(&tmp, '\'');   /* never a formula in a spreadsheet */
	export_utf8(&tmp, s, len);
	for (i = 0; i < tmp.len && !quote; i++)
		quote = tmp.buf[i] == ',' || tmp.buf[i] == '"' || tmp.buf[i] == '\r' ||
			tmp.buf[i] == '\n';
	if (!quote) {
		strbuf_addbuf(out, &tmp);
	} else {
		strbuf_addch(out, '"');
		for (i = 0; i < tmp.len; i++) {
			if (tmp.buf[i] == '"')
				strbuf_addch(out, '"');
			strbuf_addch(out, tmp.buf[i]);
		}
		strbuf_addch(out, '"');
	}
	strbuf_release(&tmp);
}

void export_json_string(struct strbuf *out, const char *s, size_t len)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t i;

	if (plain_ascii(s, len, "\"\\")) {
		strbuf_addch(out, '"');
		strbuf_add(out, s, len);
		strbuf_addch(out, '"');
		return;
	}

	export_utf8(&tmp, s, len);
	strbuf_addch(out, '"');
	for (i = 0; i < tmp.len; i++) {
		unsigned char c = (unsigned char)tmp.buf[i];
		switch (c) {
		case '"':
			strbuf_addstr(out, "\\\"");
			break;
		case '\\':
			strbuf_addstr(out, "\\\\");
			break;
		case '\n':
			strbuf_addstr(out, "\\n");
			break;
		case '\r':
			strbuf_addstr(out, "\\r");
			break;
		case '\t':
			strbuf_addstr(out, "\\t");
			break;
		default:
			if (c < 0x20)
				strbuf_addf(out, "\\u%04x", c);
			else
				strbuf_addch(out, (char)c);
		}
	}
	strbuf_addch(out, '"');
	strbuf_release(&tmp);
}

/* A JSON number as jansson writes it with 17 digits: reals keep a point. */
static void jreal(struct strbuf *out, double v)
{
	size_t start = out->len;

	if (!isfinite(v)) {
		strbuf_addstr(out, "null");
		return;
	}
	strbuf_addf(out, "%.17g", v);
	if (!strpbrk(out->buf + start, ".eE"))
		strbuf_addstr(out, ".0");
}

/* ---- output --------------------------------------------------------------- */

struct sink {
	struct atomic_file af;
	struct strbuf buf;
	int failed;
};

static int sink_open(struct sink *k, const char *path, struct strbuf *err)
{
	memset(k, 0, sizeof(*k));
	strbuf_init(&k->buf, FLUSH_AT + 4096);
	return atomic_open(&k->af, path, err);
}

static void sink_flush(struct sink *k)
{
	if (k->buf.len && fwrite(k->buf.buf, 1, k->buf.len, k->af.fp) != k->buf.len)
		k->failed = 1;
	strbuf_reset(&k->buf);
}

static void sink_maybe_flush(struct sink *k)
{
	if (k->buf.len >= FLUSH_AT)
		sink_flush(k);
}

static int sink_close(struct sink *k, int rc, struct strbuf *err)
{
	if (rc == 0) {
		sink_flush(k);
		if (k->failed) {
			atomic_abort(&k->af);
			rc = ab_fail(err, AB_EIO, "cannot write '%s': %s", k->af.path.buf,
				     strerror(errno));
		} else {
			rc = atomic_commit(&k->af, err);
		}
	} else {
		atomic_abort(&k->af);
	}
	strbuf_release(&k->buf);
	return rc;
}

/* ---- runs ----------------------------------------------------------------- */

static void cell_csv(struct strbuf *out, const struct db_cell *c)
{
	switch (c->type) {
	case DB_CELL_INT:
		strbuf_addf(out, "%lld", c->i);
		break;
	case DB_CELL_REAL:
		views_fmt_raw(out, c->d);
		break;
	case DB_CELL_TEXT:
	case DB_CELL_JSON:
		export_csv_field(out, c->s, c->len, 1);
		break;
	default:
		break;
	}
}

static void cell_json(struct strbuf *out, const struct db_cell *c)
{
	switch (c->type) {
	case DB_CELL_INT:
		strbuf_addf(out, "%lld", c->i);
		break;
	case DB_CELL_REAL:
		jreal(out, c->d);
		break;
	case DB_CELL_TEXT:
		export_json_string(out, c->s, c->len);
		break;
	case DB_CELL_JSON:
		export_utf8(out, c->s, c->len);   /* SQLite's json text, as is */
		break;
	default:
		strbuf_addstr(out, "null");
	}
}

static int export_runs(struct db *db, const struct export_opts *o, struct sink *k,
		       struct strbuf *err)
{
	struct db_filter f = { o->q.suite, o->q.benchmark, o->q.system };
	struct db_runs *c;
	const struct db_cell *cells;
	const char *const *names;
	size_t i, n, rows = 0;
	int rc, csv = o->format == EXPORT_CSV;

	rc = db_runs_open(db, &f, csv ? DB_RUNS_PER_METRIC : DB_RUNS_PER_RUN, &c, err);
	if (rc < 0)
		return rc;
	n = db_runs_columns(c, &names);
	if (csv) {
		for (i = 0; i < n; i++) {
			if (i)
				strbuf_addch(&k->buf, ',');
			strbuf_addstr(&k->buf, names[i]);
		}
		strbuf_addstr(&k->buf, "\r\n");
	} else {
		strbuf_addch(&k->buf, '[');
	}
	while ((rc = db_runs_next(c, &cells, err)) > 0) {
		if (csv) {
			for (i = 0; i < n; i++) {
				if (i)
					strbuf_addch(&k->buf, ',');
				cell_csv(&k->buf, &cells[i]);
			}
			strbuf_addstr(&k->buf, "\r\n");
		} else {
			strbuf_addstr(&k->buf, rows ? ",\n{" : "\n{");
			for (i = 0; i < n; i++) {
				strbuf_addf(&k->buf, "%s\"%s\": ", i ? ", " : "", names[i]);
				cell_json(&k->buf, &cells[i]);
			}
			strbuf_addch(&k->buf, '}');
		}
		rows++;
		sink_maybe_flush(k);
	}
	if (!csv)
		strbuf_addstr(&k->buf, rows ? "\n]\n" : "]\n");
	db_runs_close(c);
	return rc < 0 ? rc : 0;
}

/* ---- records (stats, compare) --------------------------------------------- */

struct records {
	struct views_record *v;
	size_t n, alloc;
};

static struct views_record *records_add(struct records *r)
{
	struct views_record init = VIEWS_RECORD_INIT;

	if (r->n == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 16;
		r->v = ab_realloc(r->v, r->alloc * sizeof(*r->v));
	}
	r->v[r->n] = init;
	return &r->v[r->n++];
}

static void records_release(struct records *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		views_record_release(&r->v[i]);
	free(r->v);
}

static void field_json(struct strbuf *out, const struct views_field *f)
{
	size_t k;

	if (views_field_missing(f)) {
		strbuf_addstr(out, "null");
		return;
	}
	switch (f->type) {
	case VIEWS_STR:
		export_json_string(out, f->s, strlen(f->s));
		break;
	case VIEWS_INT:
	case VIEWS_POS:
		strbuf_addf(out, "%lld", f->i);
		break;
	case VIEWS_NUM:
		jreal(out, f->num);
		break;
	case VIEWS_BOOL:
		strbuf_addstr(out, f->i ? "true" : "false");
		break;
	case VIEWS_STRS:
		strbuf_addch(out, '[');
		for (k = 0; k < f->nstrs; k++) {
			if (k)
				strbuf_addstr(out, ", ");
			export_json_string(out, f->strs[k], strlen(f->strs[k]));
		}
		strbuf_addch(out, ']');
		break;
	}
}

static void field_csv(struct strbuf *out, const struct views_field *f)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t k;

	if (views_field_missing(f))
		return;
	switch (f->type) {
	case VIEWS_STR:
		export_csv_field(out, f->s, strlen(f->s), 1);
		break;
	case VIEWS_INT:
	case VIEWS_POS:
		strbuf_addf(out, "%lld", f->i);
		break;
	case VIEWS_NUM:
		views_fmt_raw(out, f->num);
		break;
	case VIEWS_BOOL:
		strbuf_addstr(out, f->i ? "true" : "false");
		break;
	case VIEWS_STRS:
		for (k = 0; k < f->nstrs; k++)
			strbuf_addf(&tmp, "%s%s", k ? ";" : "", f->strs[k]);
		export_csv_field(out, tmp.buf, tmp.len, 1);
		break;
	}
	strbuf_release(&tmp);
}

/* CSV of records with different fields (comparisons and composites): the
 * header is the union of their keys in order of first appearance. */
static void records_write(const struct records *r, enum export_format fmt, struct sink *k)
{
	const char **keys = NULL;
	size_t nkeys = 0, i, j, m;

	if (fmt == EXPORT_JSON) {
		strbuf_addch(&k->buf, '[');
		for (i = 0; i < r->n; i++) {
			strbuf_addstr(&k->buf, i ? ",\n{" : "\n{");
			for (j = 0; j < r->v[i].n; j++) {
				strbuf_addf(&k->buf, "%s\"%s\": ", j ? ", " : "", r->v[i].v[j].key);
				field_json(&k->buf, &r->v[i].v[j]);
			}
			strbuf_addch(&k->buf, '}');
		}
		strbuf_addstr(&k->buf, r->n ? "\n]\n" : "]\n");
		return;
	}
	for (i = 0; i < r->n; i++)
		for (j = 0; j < r->v[i].n; j++) {
			for (m = 0; m < nkeys && strcmp(keys[m], r->v[i].v[j].key); m++)
				;
			if (m == nkeys) {
				keys = ab_realloc(keys, (nkeys + 1) * sizeof(*keys));
				keys[nkeys++] = r->v[i].v[j].key;
			}
		}
	for (m = 0; m < nkeys; m++)
		strbuf_addf(&k->buf, "%s%s", m ? "," : "", keys[m]);
	strbuf_addstr(&k->buf, "\r\n");
	for (i = 0; i < r->n; i++) {
		for (m = 0; m < nkeys; m++) {
			if (m)
				strbuf_addch(&k->buf, ',');
			for (j = 0; j < r->v[i].n && strcmp(keys[m], r->v[i].v[j].key); j++)
				;
			if (j < r->v[i].n)
				field_csv(&k->buf, &r->v[i].v[j]);
		}
		strbuf_addstr(&k->buf, "\r\n");
		sink_maybe_flush(k);
	}
	free(keys);
}

static int export_stats(struct db *db, const struct export_opts *o, struct sink *k,
			struct strbuf *err)
{
	struct views_stats v;
	struct records r = { 0 };
	size_t i;
	int rc = views_stats_build(db, &o->q, &v, err);

	if (rc < 0)
		return rc;
	for (i = 0; i < v.n; i++)
		views_stats_record(&v.rows[i], records_add(&r));
	records_write(&r, o->format, k);
	records_release(&r);
	views_stats_release(&v);
	return 0;
}

static int export_compare(struct db *db, const struct export_opts *o, struct sink *k,
			  struct strbuf *err)
{
	struct views_compare_opts vo = { 0 };
	struct views_compare v;
	struct records r = { 0 };
	size_t i;
	int rc;

	if (!o->baseline)
		return ab_fail(err, AB_EUSAGE, "a comparison needs a baseline system");
	vo.baseline = o->baseline;
	vo.copts = o->copts;
	rc = views_compare_build(db, &o->q, &vo, &v, err);
	if (rc < 0)
		return rc;
	for (i = 0; i < v.n; i++)
		views_compare_pair_record(&v, &v.pairs[i], records_add(&r));
	for (i = 0; i < v.n_composite; i++)
		views_compare_composite_record(&v, &v.composite[i], records_add(&r));
	records_write(&r, o->format, k);
	records_release(&r);
	views_compare_release(&v);
	return 0;
}

/* ---- MLPerf scores --------------------------------------------------------- */

static void json_value_csv(struct strbuf *out, json_t *v)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t i;
	json_t *x;

	if (json_is_string(v)) {
		export_csv_field(out, json_string_value(v), json_string_length(v), 1);
	} else if (json_is_integer(v)) {
		strbuf_addf(out, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		views_fmt_raw(out, json_real_value(v));
	} else if (json_is_boolean(v)) {
		strbuf_addstr(out, json_is_true(v) ? "true" : "false");
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x) {
			if (i)
				strbuf_addch(&tmp, ';');
			if (json_is_integer(x))
				strbuf_addf(&tmp, "%lld", (long long)json_integer_value(x));
			else if (json_is_string(x))
				strbuf_addstr(&tmp, json_string_value(x));
		}
		export_csv_field(out, tmp.buf, tmp.len, 1);
	}
	strbuf_release(&tmp);
}

static int export_scores(struct db *db, const struct export_opts *o, struct sink *k,
			 struct strbuf *err)
{
	struct db_filter f = { o->q.suite ? o->q.suite : "mlperf-training", o->q.benchmark,
			       o->q.system };
	json_t *arr, *obj, *v;
	json_t *keys = json_array();
	const char *key;
	size_t i, m;
	int rc = mlperf_score(db, &f, &arr, err);

	if (rc < 0) {
		json_decref(keys);
		return rc;
	}
	if (o->format == EXPORT_JSON) {
		strbuf_addch(&k->buf, '[');
		json_array_foreach(arr, i, obj) {
			char *text = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS |
						     JSON_REAL_PRECISION(17));
			strbuf_addstr(&k->buf, i ? ",\n" : "\n");
			strbuf_addstr(&k->buf, text ? text : "null");
			free(text);
		}
		strbuf_addstr(&k->buf, json_array_size(arr) ? "\n]\n" : "]\n");
	} else {
		json_array_foreach(arr, i, obj) {
			json_object_foreach(obj, key, v) {
				for (m = 0; m < json_array_size(keys) &&
					    strcmp(json_string_value(json_array_get(keys, m)), key); m++)
					;
				if (m == json_array_size(keys))
					json_array_append_new(keys, json_string(key));
			}
		}
		for (m = 0; m < json_array_size(keys); m++)
			strbuf_addf(&k->buf, "%s%s", m ? "," : "",
				    json_string_value(json_array_get(keys, m)));
		strbuf_addstr(&k->buf, "\r\n");
		json_array_foreach(arr, i, obj) {
			for (m = 0; m < json_array_size(keys); m++) {
				if (m)
					strbuf_addch(&k->buf, ',');
				json_value_csv(&k->buf, json_object_get(obj, json_string_value(
									      json_array_get(keys, m))));
			}
			strbuf_addstr(&k->buf, "\r\n");
		}
	}
	json_decref(keys);
	json_decref(arr);
	return 0;
}

int export_write(struct db *db, const struct export_opts *o, const char *path,
		 struct strbuf *err)
{
	struct sink k;
	int rc;

	if (o->format != EXPORT_CSV && o->format != EXPORT_JSON)
		return ab_fail(err, AB_EINTERNAL, "export_write: not CSV or JSON");
	rc = sink_open(&k, path, err);
	if (rc < 0) {
		strbuf_release(&k.buf);
		return rc;
	}
	switch (o->what) {
	case EXPORT_RUNS:
		rc = export_runs(db, o, &k, err);
		break;
	case EXPORT_STATS:
		rc = export_stats(db, o, &k, err);
		break;
	case EXPORT_COMPARE:
		rc = export_compare(db, o, &k, err);
		break;
	case EXPORT_SCORES:
		rc = export_scores(db, o, &k, err);
		break;
	}
	return sink_close(&k, rc, err);
}
