/*
 * xlsx.c - the managers' workbook (libxlsxwriter): Summary, Systems, one
 * sheet per benchmark, MLPerf scores, Cost (input cells and live
 * formulas), Raw (every run and metric as an Excel table), Methodology and
 * Provenance.  Every number comes from a views/ struct or the model's
 * streams; nothing is recomputed here except the Cost formulas, which
 * Excel evaluates from the input cells (their cached results are the
 * view's figures).
 *
 * libxlsxwriter writes the workbook without the Raw rows to a temporary
 * file; xlsx_zip.c then copies it into the final temporary file (renamed
 * over the target at the end), streaming the Raw rows from the database
 * into their sheet and giving the CI bars their custom error values (cell
 * references), which libxlsxwriter 1.1.4 cannot write.  Text from input
 * files always goes through worksheet_write_string() or is written as an
 * inline string: a system called "=HYPERLINK(...)" stays text.
 */
/* before compat.h: libxlsxwriter's headers use functions compat.h poisons */
#include <xlsxwriter.h>

#include "core/compat.h"
#include "export.h"
#include "xlsx_zip.h"
#include "core/atomic.h"
#include "model/cost.h"
#include "model/mlperf_score.h"
#include "model/stats.h"

#include <jansson.h>
#include <ctype.h>
#include <math.h>

#define MAX_COLS 64
#define XLSX_MAX_STR 32767
#define SHEET_NAME_MAX 31
#define SUM_COLS 6                  /* Summary columns per benchmark */
#define RAW_WIDTH_ROWS 200          /* Raw column widths from the first rows */

struct sheet {
	lxw_worksheet *ws;
	char name[SHEET_NAME_MAX * 4 + 1];
	double width[MAX_COLS];         /* column widths seen, in characters */
	lxw_row_t row;                  /* next row to write */
};

struct xw {
	lxw_workbook *wb;
	struct db *db;
	const struct xlsx_opts *o;
	lxw_format *bold, *title, *warn, *num, *int_fmt, *ratio, *money, *input, *wrap, *best,
		*small;
	struct strbuf tmp;
	struct strbuf err_detail;
	char **sheet_names;             /* owned, for uniqueness */
	size_t nsheet_names;
	int simulated;
	int failed;                     /* a libxlsxwriter call failed */
	double g_elec, g_pue, g_life, g_util; /* the prices file's defaults (Cost inputs) */
	long long raw_rows;             /* rows of the Raw sheet */
	int fail_rc;                    /* the status of a failure that is not I/O */
	struct xlsx_errbars *bars;      /* custom error bars (owned), patch k = bars[k] */
	size_t nbars;
	int raw_sheet;                  /* Raw is xl/worksheets/sheetN.xml; 0: none */
	size_t raw_keep[MAX_COLS];      /* Raw: which stream columns, in order */
	size_t raw_nk, raw_sha;         /* how many; the sha256 column (-1: none) */
	size_t raw_job;                 /* the job id column (-1: none) */
	size_t raw_system;              /* the stream's system column */
	char raw_dim[32];               /* Raw's <dimension> */
};

/* ---- cells ---------------------------------------------------------------- */

/* Characters of a UTF-8 string (for column widths). */
static size_t u8len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void fit(struct sheet *sh, lxw_col_t col, double w)
{
	if (col < MAX_COLS && w > sh->width[col])
		sh->width[col] = w > 80 ? 80 : w;
}

static void check(struct xw *x, lxw_error e)
{
	if (e != LXW_NO_ERROR && !x->failed) {
		x->failed = 1;
		strbuf_addstr(&x->err_detail, lxw_strerror(e));
	}
}

/* Text, always as a string (never a formula), UTF-8 repaired, capped at
 * Excel's cell limit. */
static void put_str(struct xw *x, struct sheet *sh, lxw_row_t r, lxw_col_t c, const char *s,
		    lxw_format *f)
{
	size_t len, n;

	if (!s) {
		check(x, worksheet_write_blank(sh->ws, r, c, f));
		return;
	}
	strbuf_reset(&x->tmp);
	export_utf8(&x->tmp, s, strlen(s));
	len = x->tmp.len;
	if (u8len(x->tmp.buf) > XLSX_MAX_STR) {
		/* cut at a character boundary below the limit */
		for (n = 0, len = 0; len < x->tmp.len && n < XLSX_MAX_STR - 1; len++)
			n += ((unsigned char)x->tmp.buf[len + 1] & 0xc0) != 0x80;
		strbuf_setlen(&x->tmp, len);
	}
	check(x, worksheet_write_string(sh->ws, r, c, x->tmp.buf, f));
	fit(sh, c, (double)u8len(x->tmp.buf) + 1);
}

static void put_num(struct xw *x, struct sheet *sh, lxw_row_t r, lxw_col_t c, double v,
		    lxw_format *f)
{
	if (!isfinite(v)) {
		check(x, worksheet_write_blank(sh->ws, r, c, f));
		return;
	}
	check(x, worksheet_write_number(sh->ws, r, c, v, f));
	strbuf_reset(&x->tmp);
	strbuf_addf(&x->tmp, "%.6g", v);
	fit(sh, c, (double)x->tmp.len + 3);
}

static void put_pos(struct xw *x, struct sheet *sh, lxw_row_t r, lxw_col_t c, long v)
{
	if (v > 0)
		put_num(x, sh, r, c, (double)v, x->int_fmt);
	else
		check(x, worksheet_write_blank(sh->ws, r, c, NULL));
}

static void put_formula(struct xw *x, struct sheet *sh, lxw_row_t r, lxw_col_t c,
			const char *formula, double cached, lxw_format *f)
{
	check(x, worksheet_write_formula_num(sh->ws, r, c, formula, f, isfinite(cached) ? cached : 0));
	fit(sh, c, 14);
}

static void header_row(struct xw *x, struct sheet *sh, const char *const *titles, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		put_str(x, sh, sh->row, (lxw_col_t)i, titles[i], x->bold);
	sh->row++;
}

static void finish_widths(struct xw *x, struct sheet *sh)
{
	lxw_col_t c;

	for (c = 0; c < MAX_COLS; c++)
		if (sh->width[c] > 0)
			check(x, worksheet_set_column(sh->ws, c, c, sh->width[c] < 6 ? 6 : sh->width[c],
						      NULL));
}

/* A sheet name Excel accepts: no []:*?/\, at most 31 characters, unique. */
static int add_sheet(struct xw *x, struct sheet *sh, const char *want)
{
	struct strbuf n = STRBUF_INIT;
	size_t i, chars = 0, k;
	int dup = 1;

	memset(sh, 0, sizeof(*sh));
	for (i = 0; want[i] && chars < SHEET_NAME_MAX - 3; i++) {
		char ch = want[i];
		if (strchr("[]:*?/\\", ch))
			ch = '_';
		if (((unsigned char)ch & 0xc0) != 0x80)
			chars++;
		strbuf_addch(&n, ch);
	}
	while (n.len && ((unsigned char)n.buf[n.len - 1] & 0xc0) == 0xc0)
		strbuf_setlen(&n, n.len - 1);   /* never end inside a character */
	if (!n.len || n.buf[0] == '\'') {
		struct strbuf t = STRBUF_INIT;
		strbuf_addf(&t, "S%s", n.buf);
		strbuf_release(&n);
		n = t;
	}
	for (k = 2; dup; k++) {
		dup = 0;
		for (i = 0; i < x->nsheet_names; i++)
			if (!strcasecmp(x->sheet_names[i], n.buf))
				dup = 1;
		if (dup) {
			char *dash = strrchr(n.buf, '~');
			if (dash)
				strbuf_setlen(&n, (size_t)(dash - n.buf));
			strbuf_addf(&n, "~%zu", k);
		}
	}
	x->sheet_names = ab_realloc(x->sheet_names, (x->nsheet_names + 1) * sizeof(char *));
	x->sheet_names[x->nsheet_names++] = strbuf_detach(&n, NULL);
	snprintf(sh->name, sizeof(sh->name), "%s", x->sheet_names[x->nsheet_names - 1]);
	sh->ws = workbook_add_worksheet(x->wb, sh->name);
	if (!sh->ws) {
		x->failed = 1;
		strbuf_addf(&x->err_detail, "cannot add sheet '%s'", sh->name);
		return -1;
	}
	return 0;
}

static void notice(struct xw *x, struct sheet *sh)
{
	if (x->simulated) {
		put_str(x, sh, sh->row++, 0,
			"Simulated example data: the values were generated by 'accelbench demo' "
			"(built on published figures), not measured.", x->warn);
	}
}

/* ---- a report spec: systems, confidence level, metric, normalisation ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int keep_sys(const struct xw *x, const char *system)
{
	const struct report_spec *sp = x->o->spec;

	return !sp || !sp->nsystems || report_spec_has_system(sp, system);
}

/* Every system the spec names must be in the database (like the report). */
static int spec_check(struct xw *x, struct strbuf *err)
{
	struct db_filter f = { x->o->suite, NULL, NULL };
	struct strbuf valid = STRBUF_INIT;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < x->o->spec->nbenchmarks; i++) {
		const struct report_bench *b = &x->o->spec->benchmarks[i];
		struct db_filter fb = { x->o->suite, b->name, NULL };
		bool found = false;
		if (!b->metric)
			continue;
		strbuf_reset(&valid);
		rc = db_name_check(x->db, DB_NAME_METRIC, &fb, b->metric, &found, &valid, err);
		if (rc == 0 && !found)
			rc = ab_fail(err, AB_EDATA, "the spec asks for metric '%s' of %s, which has none; "
						   "valid: %s", b->metric, b->name, valid.buf);
	}
	for (i = 0; rc == 0 && i < x->o->spec->nsystems; i++) {
		bool found = false;
		strbuf_reset(&valid);
		rc = db_name_check(x->db, DB_NAME_SYSTEM, &f, x->o->spec->systems[i], &found, &valid,
				   err);
		if (rc == 0 && !found)
			rc = ab_fail(err, AB_EDATA, "the spec names system '%s', which has no runs%s%s; "
						   "valid: %s", x->o->spec->systems[i],
				     x->o->suite ? " in " : "", x->o->suite ? x->o->suite : "", valid.buf);
	}
	strbuf_release(&valid);
	return rc;
}

static int keep_cfg(const struct db_config *c, void *ctx)
{
	return keep_sys(ctx, c->system);
}

static double ci_level(const struct xw *x)
{
	return x->o->copts && x->o->copts->level > 0 ? x->o->copts->level : 0.95;
}

/* "95% CI low" at the workbook's level */
static const char *ci_title(struct xw *x, char *buf, size_t len, const char *what)
{
	snprintf(buf, len, "%g%% CI %s", 100.0 * ci_level(x), what);
	return buf;
}

static enum report_norm bench_norm(const struct xw *x, const char *bench)
{
	const struct report_bench *b = x->o->spec ? report_spec_bench(x->o->spec, bench) : NULL;

	return b ? b->norm : REPORT_NORM_SYSTEM;
}

static const char *bench_metric(const struct xw *x, const char *bench)
{
	const struct report_bench *b = x->o->spec ? report_spec_bench(x->o->spec, bench) : NULL;

	return b ? b->metric : NULL;
}

struct fig {
	double med, lo, hi;   /* NAN when absent */
	int has_ci;
};

/* A configuration's median and its CI at the workbook's level (the view's
 * own at 95%; else the same distribution-free order statistics at the
 * spec's level), divided by its devices or nodes when normalised (exact:
 * the divisor is constant within a configuration). */
static void row_fig(const struct xw *x, const struct views_stats_row *r, enum report_norm norm,
		    struct fig *f)
{
	double lv = ci_level(x), div = 1;
	size_t lo, hi;
	double cov;

	f->med = r->s.n ? r->s.median : NAN;
	f->has_ci = r->s.has_ci;
	f->lo = r->s.has_ci ? r->s.ci_low : NAN;
	f->hi = r->s.has_ci ? r->s.ci_high : NAN;
	if (fabs(lv - 0.95) > 1e-12 && r->c->n) {
		double *v = ab_malloc(r->c->n * sizeof(*v));
		memcpy(v, r->c->values, r->c->n * sizeof(*v));
		qsort(v, r->c->n, sizeof(*v), cmp_double);
		f->has_ci = stats_median_ci_ranks(r->c->n, lv, &lo, &hi, &cov) == 0;
		f->lo = f->has_ci ? v[lo - 1] : NAN;
		f->hi = f->has_ci ? v[hi - 1] : NAN;
		free(v);
	}
	if (norm == REPORT_NORM_DEVICE)
		div = r->c->devices > 0 ? (double)r->c->devices : NAN;
	else if (norm == REPORT_NORM_NODE)
		div = r->c->nodes > 0 ? (double)r->c->nodes : NAN;
	f->med /= div;
	f->lo /= div;
	f->hi /= div;
	if (!isfinite(div))
		f->has_ci = 0;
}

/* ---- native charts ---------------------------------------------------------- */

/* Insert a chart scaled x_scale by y_scale at row *at and move *at below
 * it (a chart of y_scale 1 is 288 px, about 15 rows of 20 px). */
static void insert_chart(struct xw *x, struct sheet *sh, lxw_chart *ch, double x_scale,
			 double y_scale, lxw_row_t *at, lxw_col_t col)
{
	lxw_chart_options co = { 0 };

	co.x_scale = x_scale;
	co.y_scale = y_scale;
	check(x, worksheet_insert_chart_opt(sh->ws, *at, col, ch, &co));
	*at += (lxw_row_t)(15.0 * (y_scale > 0 ? y_scale : 1.0)) + 3;
}

/* A series of ch: categories from column cat, values from column val of
 * rows r0..r1 of the sheet. */
static lxw_chart_series *add_series(lxw_chart *ch, const struct sheet *sh, lxw_row_t r0,
				    lxw_row_t r1, lxw_col_t cat, lxw_col_t val, const char *name)
{
	lxw_chart_series *s = chart_add_series(ch, NULL, NULL);

	chart_series_set_categories(s, sh->name, r0, cat, r1, cat);
	chart_series_set_values(s, sh->name, r0, val, r1, val);
	chart_series_set_name(s, name);
	return s;
}

/* A horizontal bar chart of one series (rows r0..r1), the first row at
 * the top, no legend; the caller names it and its value axis. */
static lxw_chart *hbar_chart(struct xw *x, const struct sheet *sh, lxw_row_t r0, lxw_row_t r1,
			     lxw_col_t cat, lxw_col_t val, const char *name, lxw_chart_series **s)
{
	lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_BAR);

	*s = add_series(ch, sh, r0, r1, cat, val, name);
	chart_set_series_gap(ch, 50);
	chart_axis_set_reverse(ch->y_axis);
	chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
	return ch;
}

/* x->tmp, formatted anew: for libxlsxwriter's setters, which copy it. */
static const char *tmpf(struct xw *x, const char *fmt, ...) AB_PRINTF(2, 3);
static const char *tmpf(struct xw *x, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&x->tmp);
	va_start(ap, fmt);
	strbuf_vaddf(&x->tmp, fmt, ap);
	va_end(ap);
	return x->tmp.buf;
}

/* ---- Summary ---------------------------------------------------------------- */

struct suite_list {
	char **names;
	size_t n;
};

static void suite_list_release(struct suite_list *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
}

static int list_suites(struct xw *x, json_t *benches, struct suite_list *out)
{
	size_t i, k;
	json_t *b;

	memset(out, 0, sizeof(*out));
	json_array_foreach(benches, i, b) {
		const char *s = json_string_value(json_object_get(b, "suite"));
		if (!s)
			continue;
		for (k = 0; k < out->n && strcmp(out->names[k], s); k++)
			;
		if (k < out->n)
			continue;
		out->names = ab_realloc(out->names, (out->n + 1) * sizeof(char *));
		out->names[out->n++] = ab_strdup(s);
	}
	(void)x;
	return 0;
}

/* The baseline of a suite: the one asked for when it ran there, else the
 * first system by name. */
static char *suite_baseline(struct xw *x, const char *suite, struct strbuf *err)
{
	struct db_filter f = { suite, NULL, NULL };
	json_t *arr, *s;
	const char *best = NULL;
	char *out = NULL;
	size_t i;
	bool found = false;

	if (x->o->baseline && db_name_check(x->db, DB_NAME_SYSTEM, &f, x->o->baseline, &found,
					    NULL, err) == 0 && found)
		return ab_strdup(x->o->baseline);
	if (db_list_systems(x->db, &f, &arr, err) < 0)
		return NULL;
	json_array_foreach(arr, i, s) {
		const char *n = json_string_value(json_object_get(s, "name"));
		if (n && keep_sys(x, n) && (!best || strcmp(n, best) < 0))
			best = n;
	}
	if (best)
		out = ab_strdup(best);
	json_decref(arr);
	return out;
}

static long name_index(const char **names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return (long)i;
	return -1;
}

static void summary_suite(struct xw *x, struct sheet *sh, const char *suite, lxw_row_t *chart_row,
			  lxw_col_t chart_col)
{
	struct db_config_query q = { suite, NULL, NULL, NULL };
	struct views_compare_opts vo = { 0 };
	struct views_compare v;
	struct db_config_query qe = { suite, NULL, NULL, "energy_efficiency" };
	struct db_configs eff = { 0 };
	const char *eff_unit = NULL;
	struct strbuf err = STRBUF_INIT;
	const char **systems = NULL, **benches = NULL, **units = NULL;
	size_t ns = 0, nb = 0, i, j;
	char *baseline = suite_baseline(x, suite, &err);
	lxw_row_t first, r;
	int rc;

	sh->row++;
	if (!baseline) {
		put_str(x, sh, sh->row++, 0, "no systems", NULL);
		strbuf_release(&err);
		return;
	}
	vo.baseline = baseline;
	vo.copts = x->o->copts;
	rc = views_compare_build(x->db, &q, &vo, &v, &err);
	strbuf_reset(&x->tmp);
	strbuf_addf(&x->tmp, "%s: best configuration of each system against %s", suite, baseline);
	{
		char *t = ab_strdup(x->tmp.buf);
		put_str(x, sh, sh->row++, 0, t, x->bold);
		free(t);
	}
	if (rc < 0) {
		char *t = ab_strdup(err.buf);
		put_str(x, sh, sh->row++, 0, t, NULL);
		free(t);
		free(baseline);
		strbuf_release(&err);
		return;
	}
	/* systems (baseline first) and benchmarks in the view's order */
	systems = ab_realloc(systems, sizeof(char *));
	systems[ns++] = baseline;
	for (i = 0; i < v.n; i++) {
		const struct db_config *c = v.pairs[i].sys;
		if (keep_sys(x, c->system) && name_index(systems, ns, c->system) < 0) {
			systems = ab_realloc(systems, (ns + 1) * sizeof(char *));
			systems[ns++] = c->system;
		}
		if (name_index(benches, nb, c->benchmark) < 0) {
			benches = ab_realloc(benches, (nb + 1) * sizeof(char *));
			units = ab_realloc(units, (nb + 1) * sizeof(char *));
			units[nb] = c->unit;
			benches[nb++] = c->benchmark;
		}
	}
	if (SUM_COLS * nb + 1 >= MAX_COLS)
		nb = (MAX_COLS - 2) / SUM_COLS;
	/* energy efficiency of the same configurations (work per Wh, where
	 * the suite measured energy) */
	if (db_load_configs(x->db, &qe, &eff, &err) < 0)
		memset(&eff, 0, sizeof(eff));
	/* header: system | per benchmark: value [unit], x vs baseline, CI low, CI high, verdict,
	 * energy efficiency */
	put_str(x, sh, sh->row, 0, "system", x->bold);
	for (j = 0; j < nb; j++) {
		strbuf_reset(&err);
		strbuf_addf(&err, "%s [%s]", benches[j], units[j] ? units[j] : "");
		{
			char *t = ab_strdup(err.buf);
			put_str(x, sh, sh->row, (lxw_col_t)(1 + SUM_COLS * j), t, x->bold);
			free(t);
		}
		put_str(x, sh, sh->row, (lxw_col_t)(2 + SUM_COLS * j), "x better than baseline", x->bold);
		{
			char t[32];
			put_str(x, sh, sh->row, (lxw_col_t)(3 + SUM_COLS * j), ci_title(x, t, sizeof(t), "low"),
				x->bold);
			put_str(x, sh, sh->row, (lxw_col_t)(4 + SUM_COLS * j),
				ci_title(x, t, sizeof(t), "high"), x->bold);
		}
		put_str(x, sh, sh->row, (lxw_col_t)(5 + SUM_COLS * j), "verdict", x->bold);
		eff_unit = NULL;
		for (i = 0; i < eff.n && !eff_unit; i++)
			if (eff.v[i].n && eff.v[i].unit && *eff.v[i].unit &&
			    !strcmp(eff.v[i].benchmark, benches[j]))
				eff_unit = eff.v[i].unit;
		strbuf_reset(&err);
		strbuf_addf(&err, "energy efficiency [%s]", eff_unit ? eff_unit : "per Wh");
		{
			char *t = ab_strdup(err.buf);
			put_str(x, sh, sh->row, (lxw_col_t)(6 + SUM_COLS * j), t, x->bold);
			free(t);
		}
	}
	sh->row++;
	first = sh->row;
	for (i = 0; i < ns; i++) {
		r = sh->row++;
		put_str(x, sh, r, 0, systems[i], i == 0 ? x->bold : NULL);
		for (j = 0; j < nb; j++) {
			size_t k;
			for (k = 0; k < v.n; k++) {
				const struct views_pair *p = &v.pairs[k];
				const struct db_config *e;
				if (strcmp(p->sys->benchmark, benches[j]))
					continue;
				if (i == 0) {
					put_num(x, sh, r, (lxw_col_t)(1 + SUM_COLS * j), p->res.median_baseline,
						x->num);
					put_num(x, sh, r, (lxw_col_t)(2 + SUM_COLS * j), 1.0, x->ratio);
					put_str(x, sh, r, (lxw_col_t)(5 + SUM_COLS * j), "baseline", NULL);
					e = db_configs_find(&eff, p->base);
					put_num(x, sh, r, (lxw_col_t)(6 + SUM_COLS * j),
						e && e->n ? stats_median(e->values, e->n) : NAN, x->num);
					break;
				}
				if (strcmp(p->sys->system, systems[i]))
					continue;
				put_num(x, sh, r, (lxw_col_t)(1 + SUM_COLS * j), p->res.median, x->num);
				put_num(x, sh, r, (lxw_col_t)(2 + SUM_COLS * j), p->res.speedup, x->ratio);
				put_num(x, sh, r, (lxw_col_t)(3 + SUM_COLS * j), p->res.speedup_ci_low,
					x->ratio);
				put_num(x, sh, r, (lxw_col_t)(4 + SUM_COLS * j), p->res.speedup_ci_high,
					x->ratio);
				put_str(x, sh, r, (lxw_col_t)(5 + SUM_COLS * j),
					compare_verdict_name(p->res.verdict), NULL);
				e = db_configs_find(&eff, p->sys);
				put_num(x, sh, r, (lxw_col_t)(6 + SUM_COLS * j),
					e && e->n ? stats_median(e->values, e->n) : NAN, x->num);
				break;
			}
		}
	}
	/* colour scale around 1 and the best system per benchmark */
	for (j = 0; j < nb && ns > 1; j++) {
		lxw_conditional_format scale = { 0 }, top = { 0 };
		lxw_col_t c = (lxw_col_t)(2 + SUM_COLS * j);
		scale.type = LXW_CONDITIONAL_3_COLOR_SCALE;
		scale.min_color = 0xF8696B;
		scale.mid_rule_type = LXW_CONDITIONAL_RULE_TYPE_NUMBER;
		scale.mid_value = 1.0;
		scale.mid_color = 0xFFFFFF;
		scale.max_color = 0x63BE7B;
		check(x, worksheet_conditional_format_range(sh->ws, first, c, sh->row - 1, c, &scale));
		top.type = LXW_CONDITIONAL_TYPE_TOP;
		top.value = 1;
		top.format = x->best;
		check(x, worksheet_conditional_format_range(sh->ws, first, c, sh->row - 1, c, &top));
	}
	/* the headline comparison as a native chart: speedups per benchmark */
	if (ns > 1 && nb > 0) {
		lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_BAR);
		lxw_chart_options co = { 0 };
		for (j = 0; j < nb; j++)
			add_series(ch, sh, first, sh->row - 1, 0, (lxw_col_t)(2 + SUM_COLS * j),
				   benches[j]);
		chart_title_set_name(ch, tmpf(x, "%s: times better than %s (higher is better)", suite,
					      baseline));
		chart_axis_set_name(ch->x_axis, "x better than baseline");
		chart_axis_set_reverse(ch->y_axis);
		chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
		/* placed by rows of its own (the summary's tables are shorter) */
		co.x_scale = 1.4;
		co.y_scale = 1.0 + 0.05 * (double)ns;
		check(x, worksheet_insert_chart_opt(sh->ws, *chart_row, chart_col, ch, &co));
		*chart_row += (lxw_row_t)(18 + ns);
	}
	views_compare_release(&v);
	db_configs_release(&eff);
	free(systems);
	free(benches);
	free(units);
	free(baseline);
	strbuf_release(&err);
}

static int sheet_summary(struct xw *x, json_t *benches)
{
	struct sheet sh;
	struct suite_list sl;
	lxw_row_t chart_row = 4;
	size_t i, maxb = 0;

	if (add_sheet(x, &sh, "Summary") < 0)
		return -1;
	put_str(x, &sh, sh.row++, 0, "accelbench results", x->title);
	notice(x, &sh);
	strbuf_reset(&x->tmp);
	strbuf_addf(&x->tmp, "Database %s; accelbench %s. Medians of the best configuration per "
			     "system; %g%% bootstrap CIs of the ratio; see Methodology.",
		    db_path(x->db), AB_VERSION, 100.0 * ci_level(x));
	if (x->o->spec) {
		size_t k;
		for (k = 0; k < x->o->spec->nbenchmarks; k++)
			if (x->o->spec->benchmarks[k].metric ||
			    x->o->spec->benchmarks[k].norm != REPORT_NORM_SYSTEM)
				break;
		if (k < x->o->spec->nbenchmarks)
			strbuf_addstr(&x->tmp, " Here each benchmark's headline metric as measured; its "
					       "sheet shows the spec's metric and normalisation.");
		if (x->o->spec->nsystems)
			strbuf_addstr(&x->tmp, " Systems: the spec's selection and the baseline.");
	}
	{
		char *t = ab_strdup(x->tmp.buf);
		put_str(x, &sh, sh.row++, 0, t, x->small);
		free(t);
	}
	sh.width[0] = 0;
	list_suites(x, benches, &sl);
	/* the charts go right of the widest suite's table */
	for (i = 0; i < sl.n; i++) {
		size_t k, nb = 0;
		json_t *b;
		json_array_foreach(benches, k, b)
			nb += !strcmp(json_string_value(json_object_get(b, "suite")), sl.names[i]);
		if (nb > maxb)
			maxb = nb;
	}
	if (SUM_COLS * maxb + 1 >= MAX_COLS)
		maxb = (MAX_COLS - 2) / SUM_COLS;
	for (i = 0; i < sl.n; i++)
		summary_suite(x, &sh, sl.names[i], &chart_row, (lxw_col_t)(2 + SUM_COLS * maxb));
	suite_list_release(&sl);
	worksheet_freeze_panes(sh.ws, 0, 1);
	worksheet_set_landscape(sh.ws);
	worksheet_fit_to_pages(sh.ws, 1, 0);
	finish_widths(x, &sh);
	check(x, worksheet_set_column(sh.ws, 0, 0, 28, NULL));
	return 0;
}

/* ---- Systems ------------------------------------------------------------------- */

static int sheet_systems(struct xw *x)
{
	static const char *const titles[] = { "system", "display name", "vendor", "accelerator",
					      "devices per node", "host CPU", "interconnect", "site",
					      "TDP [W]", "runs", "simulated", "facts from" };
	struct sheet sh;
	struct strbuf err = STRBUF_INIT;
	json_t *arr, *s;
	size_t i;

	if (add_sheet(x, &sh, "Systems") < 0)
		return -1;
	notice(x, &sh);
	header_row(x, &sh, titles, AB_ARRAY_SIZE(titles));
	if (db_list_systems(x->db, NULL, &arr, &err) < 0) {
		put_str(x, &sh, sh.row++, 0, err.buf, NULL);
		strbuf_release(&err);
		return 0;
	}
	json_array_foreach(arr, i, s) {
		json_t *meta = json_object_get(s, "meta");
		const char *described = json_string_value(json_object_get(meta, "described"));
		lxw_row_t r;
		if (!keep_sys(x, json_string_value(json_object_get(s, "name"))))
			continue;
		r = sh.row++;
		put_str(x, &sh, r, 0, json_string_value(json_object_get(s, "name")), NULL);
		put_str(x, &sh, r, 1, json_string_value(json_object_get(s, "display_name")), NULL);
		put_str(x, &sh, r, 2, json_string_value(json_object_get(s, "vendor")), NULL);
		put_str(x, &sh, r, 3, json_string_value(json_object_get(s, "accelerator")), NULL);
		put_pos(x, &sh, r, 4, (long)json_integer_value(json_object_get(s, "accelerators_per_node")));
		put_str(x, &sh, r, 5, json_string_value(json_object_get(s, "host_cpu")), NULL);
		put_str(x, &sh, r, 6, json_string_value(json_object_get(s, "interconnect")), NULL);
		put_str(x, &sh, r, 7, json_string_value(json_object_get(s, "site")), NULL);
		put_num(x, &sh, r, 8, json_is_number(json_object_get(s, "tdp_w")) ?
			json_number_value(json_object_get(s, "tdp_w")) : NAN, x->num);
		put_num(x, &sh, r, 9, (double)json_integer_value(json_object_get(s, "runs")), x->int_fmt);
		put_str(x, &sh, r, 10, json_is_true(json_object_get(meta, "simulated")) ? "yes" : "no",
			NULL);
		strbuf_reset(&err);
		if (described)
			strbuf_addf(&err, "systems file %s; the rest from the result files", described);
		else
			strbuf_addstr(&err, "the result files and accelbench's accelerator name table");
		{
			char *t = ab_strdup(err.buf);
			put_str(x, &sh, r, 11, t, NULL);
			free(t);
		}
	}
	json_decref(arr);
	worksheet_freeze_panes(sh.ws, 1 + (x->simulated ? 1 : 0), 1);
	finish_widths(x, &sh);
	strbuf_release(&err);
	return 0;
}

/* ---- one sheet per benchmark ------------------------------------------------ */

/* 'Sheet name'!$C$5:$C$9, quotes doubled inside the name. */
static void range_ref(struct strbuf *sb, const char *sheet, lxw_row_t r0, lxw_col_t c,
		      lxw_row_t r1)
{
	const char *p;

	strbuf_addch(sb, '\'');
	for (p = sheet; *p; p++) {
		if (*p == '\'')
			strbuf_addch(sb, '\'');
		strbuf_addch(sb, *p);
	}
	strbuf_addf(sb, "'!$%c$%u:$%c$%u", 'A' + (int)c, (unsigned)r0 + 1, 'A' + (int)c,
		    (unsigned)r1 + 1);
}

/* Register custom error bars: plus and minus from columns pc and mc of
 * rows first..first+n-1; returns the fixed value that marks them. */
static double add_errbars(struct xw *x, const char *sheet, lxw_row_t first, size_t n,
			  lxw_col_t pc, lxw_col_t mc, const double *plus, const double *minus)
{
	struct xlsx_errbars *b;
	struct strbuf ref = STRBUF_INIT;
	double *v;

	x->bars = ab_realloc(x->bars, (x->nbars + 1) * sizeof(*x->bars));
	b = &x->bars[x->nbars];
	range_ref(&ref, sheet, first, pc, first + (lxw_row_t)n - 1);
	b->plus_ref = ab_strdup(ref.buf);
	strbuf_reset(&ref);
	range_ref(&ref, sheet, first, mc, first + (lxw_row_t)n - 1);
	b->minus_ref = ab_strdup(ref.buf);
	v = ab_calloc(2 * n + 1, sizeof(*v));
	memcpy(v, plus, n * sizeof(*v));
	memcpy(v + n, minus, n * sizeof(*v));
	b->plus = v;
	b->minus = v + n;
	b->n = n;
	strbuf_release(&ref);
	return XLSX_ZIP_ERRBAR_MARK + (double)x->nbars++;
}

/* Bars of each system's best-configuration median with its CI as custom
 * error bars (plus and minus refer to the whisker cells).  Returns the
 * column the charts go in: right of every table. */
static lxw_col_t bench_bars(struct xw *x, struct sheet *sh, const struct views_stats *v,
			    const char *bench, lxw_row_t *chart_at, lxw_col_t chart_col)
{
	const struct db_config **best = ab_calloc(v->configs.n ? v->configs.n : 1, sizeof(*best));
	size_t nb = db_configs_best(&v->configs, bench, keep_cfg, x, best), i, k;
	enum report_norm norm = bench_norm(x, bench);
	char t3[32], t4[32];
	double *plus, *minus, mark;
	int any_ci = 0;
	lxw_row_t first;
	lxw_chart *ch;
	lxw_chart_series *s;
	const struct db_config *c0;
	const char *per;

	if (!nb || nb > 200) {
		free(best);
		return chart_col;
	}
	c0 = best[0];
	plus = ab_calloc(nb, sizeof(*plus));
	minus = ab_calloc(nb, sizeof(*minus));
	sh->row++;
	put_str(x, sh, sh->row++, 0, "Best configuration per system (chart data)", x->bold);
	{
		const char *t[] = { "system", "configuration", "median", t3, t4, "minus", "plus" };
		ci_title(x, t3, sizeof(t3), "low");
		ci_title(x, t4, sizeof(t4), "high");
		if (norm != REPORT_NORM_SYSTEM)
			t[2] = norm == REPORT_NORM_DEVICE ? "median per device" : "median per node";
		header_row(x, sh, t, AB_ARRAY_SIZE(t));
	}
	first = sh->row;
	for (i = 0; i < nb; i++) {
		const struct views_stats_row *row = NULL;
		lxw_row_t r = sh->row++;
		for (k = 0; k < v->n; k++)
			if (v->rows[k].c == best[i])
				row = &v->rows[k];
		put_str(x, sh, r, 0, best[i]->system, NULL);
		strbuf_reset(&x->tmp);
		strbuf_addf(&x->tmp, "%ldn %ldd b%ld %s", best[i]->nodes, best[i]->devices,
			    best[i]->global_batch, best[i]->precision ? best[i]->precision : "");
		{
			char *t = ab_strdup(x->tmp.buf);
			put_str(x, sh, r, 1, t, NULL);
			free(t);
		}
		plus[i] = minus[i] = NAN;
		if (!row)
			continue;
		{
			struct fig f;
			row_fig(x, row, norm, &f);
			if (f.has_ci) {
				minus[i] = f.med - f.lo;
				plus[i] = f.hi - f.med;
				any_ci = 1;
			}
			put_num(x, sh, r, 2, f.med, x->num);
			put_num(x, sh, r, 3, f.lo, x->num);
			put_num(x, sh, r, 4, f.hi, x->num);
		}
		put_num(x, sh, r, 5, minus[i], x->num);
		put_num(x, sh, r, 6, plus[i], x->num);
	}
	ch = hbar_chart(x, sh, first, first + (lxw_row_t)nb - 1, 0, 2, "median", &s);
	if (any_ci) {
		/* a marked fixed value, replaced by custom plus/minus error
		 * values (the cells of columns G and F) when the zip is copied */
		mark = add_errbars(x, sh->name, first, nb, 6, 5, plus, minus);
		chart_series_set_error_bars(s->x_error_bars, LXW_CHART_ERROR_BAR_TYPE_FIXED, mark);
	}
	per = norm == REPORT_NORM_DEVICE ? " per device" : norm == REPORT_NORM_NODE ? " per node" : "";
	chart_title_set_name(ch, tmpf(x, "%s: median %s%s [%s], %s is better; whiskers: %g%% CI of "
					 "the median (none where n is too small)",
				      bench, c0->metric, per, c0->unit ? c0->unit : "",
				      c0->lower_is_better ? "lower" : "higher", 100.0 * ci_level(x)));
	chart_axis_set_name(ch->x_axis,
			    tmpf(x, "%s%s [%s]", c0->metric, per, c0->unit ? c0->unit : ""));
	insert_chart(x, sh, ch, 1.5, 1.0 + 0.08 * (double)nb, chart_at, chart_col);
	free(plus);
	free(minus);
	free(best);
	return chart_col;
}

static void bench_scaling(struct xw *x, struct sheet *sh, const char *suite, const char *bench,
			  lxw_row_t *chart_at, lxw_col_t chart_col)
{
	struct db_config_query q = { suite, bench, NULL, bench_metric(x, bench) };
	struct views_scaling v;
	struct strbuf err = STRBUF_INIT;
	lxw_chart *ch;
	size_t i, k, npts = 0;
	int rc = views_scaling_build(x->db, &q, SERIES_BATCH, &v, &err);

	strbuf_release(&err);
	if (rc < 0)
		return;
	for (i = 0; i < v.n; i++)
		if (v.v[i].s->n >= 2 && keep_sys(x, v.v[i].s->first->system))
			npts++;
	if (!npts) {
		views_scaling_release(&v);
		return;
	}
	sh->row++;
	put_str(x, sh, sh->row++, 0, "Batch scaling (chart data: median per global batch)", x->bold);
	{
		static const char *const t[] = { "system", "shape", "global batch", "median" };
		header_row(x, sh, t, AB_ARRAY_SIZE(t));
	}
	ch = workbook_add_chart(x->wb, LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS);
	for (i = 0; i < v.n; i++) {
		const struct series *s = v.v[i].s;
		lxw_row_t first = sh->row;
		if (s->n < 2 || !keep_sys(x, s->first->system))
			continue;
		for (k = 0; k < s->n; k++) {
			lxw_row_t r = sh->row++;
			put_str(x, sh, r, 0, s->first->system, NULL);
			put_str(x, sh, r, 1, v.v[i].label, NULL);
			put_num(x, sh, r, 2, s->pts[k].x, x->int_fmt);
			put_num(x, sh, r, 3, s->pts[k].median, x->num);
		}
		strbuf_reset(&x->tmp);
		strbuf_addf(&x->tmp, "%s (%s)", s->first->system, v.v[i].label);
		chart_series_set_marker_type(add_series(ch, sh, first, sh->row - 1, 2, 3, x->tmp.buf),
					     LXW_CHART_MARKER_CIRCLE);
	}
	chart_axis_set_log_base(ch->x_axis, 2);
	chart_axis_set_name(ch->x_axis, "global batch size (log2 axis)");
	chart_axis_set_name(ch->y_axis, tmpf(x, "%s [%s]", v.v[0].s->first->metric,
					     v.v[0].s->first->unit ? v.v[0].s->first->unit : ""));
	chart_title_set_name(ch, tmpf(x, "%s: batch scaling, median per batch size", bench));
	chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
	insert_chart(x, sh, ch, 1.5, 1.4, chart_at, chart_col);
	views_scaling_release(&v);
}

static void bench_pareto(struct xw *x, struct sheet *sh, const char *suite, const char *bench,
			 lxw_row_t *chart_at, lxw_col_t chart_col)
{
	struct db_config_query q = { suite, bench, NULL, bench_metric(x, bench) };
	struct views_pareto v;
	struct strbuf err = STRBUF_INIT;
	lxw_chart *ch;
	lxw_chart_data_label *labels, **lp;
	lxw_chart_series *cs;
	lxw_row_t first;
	char **texts;
	size_t i;
	int rc = views_pareto_build(x->db, &q, NULL, keep_cfg, x, 1, &v, &err);

	strbuf_release(&err);
	if (rc < 0)
		return;
	if (!v.n || v.n > 200) {
		views_pareto_release(&v);
		return;
	}
	sh->row++;
	put_str(x, sh, sh->row++, 0, "Pareto: best configuration per system (chart data)", x->bold);
	{
		const char *t[] = { "system", "x", "y", "front" };
		strbuf_reset(&x->tmp);
		header_row(x, sh, t, AB_ARRAY_SIZE(t));
	}
	first = sh->row;
	labels = ab_calloc(v.n, sizeof(*labels));
	lp = ab_calloc(v.n + 1, sizeof(*lp));
	texts = ab_calloc(v.n, sizeof(*texts));
	for (i = 0; i < v.n; i++) {
		lxw_row_t r = sh->row++;
		put_str(x, sh, r, 0, v.rows[i].x->system, NULL);
		put_num(x, sh, r, 1, v.rows[i].xv, x->num);
		put_num(x, sh, r, 2, v.rows[i].yv, x->num);
		put_str(x, sh, r, 3, pareto_state_name(v.rows[i].state), NULL);
		strbuf_reset(&x->tmp);
		/* the name as the label's own text (LibreOffice shows only
		 * that); a name libxlsxwriter would take for a formula becomes a
		 * reference to its cell instead, which shows it as inert text */
		if (v.rows[i].x->system[0] == '=') {
			strbuf_addch(&x->tmp, '=');
			range_ref(&x->tmp, sh->name, r, 0, r);
			strbuf_setlen(&x->tmp, (size_t)(strchr(x->tmp.buf, ':') - x->tmp.buf));
		} else {
			strbuf_addstr(&x->tmp, v.rows[i].x->system);
		}
		texts[i] = ab_strdup(x->tmp.buf);
		labels[i].value = texts[i];
		lp[i] = &labels[i];
	}
	ch = workbook_add_chart(x->wb, LXW_CHART_SCATTER);
	cs = add_series(ch, sh, first, sh->row - 1, 1, 2, "systems");
	chart_series_set_marker_type(cs, LXW_CHART_MARKER_CIRCLE);
	check(x, chart_series_set_labels_custom(cs, lp));
	chart_series_set_labels_position(cs, LXW_CHART_LABEL_POSITION_RIGHT);
	chart_axis_set_name(ch->x_axis, tmpf(x, "%s [%s]", v.xs.n ? v.rows[0].x->metric : "x",
					     v.rows[0].x->unit ? v.rows[0].x->unit : ""));
	chart_axis_set_name(ch->y_axis, tmpf(x, "%s [%s]", v.y_metric, v.y_unit ? v.y_unit : ""));
	chart_title_set_name(ch, tmpf(x, "%s: performance against energy efficiency (front in the "
					 "table)", bench));
	chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
	insert_chart(x, sh, ch, 1.5, 1.4, chart_at, chart_col);
	for (i = 0; i < v.n; i++)
		free(texts[i]);
	free(texts);
	free(labels);
	free(lp);
	views_pareto_release(&v);
}

/* MLPerf training: the official scores of this benchmark (the MLCommons
 * rule, model/mlperf_score.c) and bars of them, not of the medians. */
static void bench_mlperf(struct xw *x, struct sheet *sh, const char *bench, lxw_row_t *chart_at,
			 lxw_col_t chart_col)
{
	static const char *const keys[] = { "system", "division", "nodes", "devices", "runs",
					    "valid", "failed", "official_score", "unit",
					    "scaling_factor", "status" };
	struct db_filter f = { "mlperf-training", bench, NULL };
	struct strbuf err = STRBUF_INIT;
	json_t *arr = NULL, *o;
	lxw_row_t first;
	lxw_chart *ch;
	lxw_chart_series *cs;
	const char *unit = NULL;
	size_t i, k, nscore = 0;

	if (mlperf_score(x->db, &f, &arr, &err) < 0) {
		strbuf_release(&err);
		return;
	}
	strbuf_release(&err);
	if (!json_array_size(arr)) {
		json_decref(arr);
		return;
	}
	sh->row++;
	put_str(x, sh, sh->row++, 0, "MLPerf official scores (olympic mean of the runs' time to "
				     "train, failed runs as the slowest, x scaling factor)", x->bold);
	header_row(x, sh, keys, AB_ARRAY_SIZE(keys));
	first = sh->row;
	json_array_foreach(arr, i, o) {
		lxw_row_t r;
		if (!keep_sys(x, json_string_value(json_object_get(o, "system"))))
			continue;
		r = sh->row++;
		for (k = 0; k < AB_ARRAY_SIZE(keys); k++) {
			json_t *v = json_object_get(o, keys[k]);
			if (json_is_string(v))
				put_str(x, sh, r, (lxw_col_t)k, json_string_value(v), NULL);
			else if (json_is_number(v))
				put_num(x, sh, r, (lxw_col_t)k, json_number_value(v),
					json_is_integer(v) ? x->int_fmt : x->num);
		}
		if (json_is_number(json_object_get(o, "official_score")))
			nscore++;
		if (!unit)
			unit = json_string_value(json_object_get(o, "unit"));
	}
	if (nscore && sh->row > first) {
		ch = hbar_chart(x, sh, first, sh->row - 1, 0, 7, "official score", &cs);
		chart_title_set_name(ch, tmpf(x, "%s: MLPerf official score [%s], lower is better "
						 "(no bar: no official score)", bench, unit ? unit : ""));
		chart_axis_set_name(ch->x_axis, tmpf(x, "official score [%s]", unit ? unit : ""));
		insert_chart(x, sh, ch, 1.5, 1.0 + 0.08 * (double)(sh->row - first), chart_at,
			     chart_col);
	}
	json_decref(arr);
}

static int sheet_benchmark(struct xw *x, const char *suite, const char *bench)
{
	char t8[32], t9[32], t14[48], t15[48];
	const char *titles[] = { "system", "nodes", "devices", "global batch", "precision",
				 "runs ok", "failed", "median", t8, t9, "cv", "outliers", "CI note",
				 NULL, t14, t15 };
	enum report_norm norm = bench_norm(x, bench);
	const char *per = norm == REPORT_NORM_DEVICE ? "per device" : "per node";
	struct db_config_query q = { suite, bench, NULL, bench_metric(x, bench) };
	struct views_stats v;
	struct strbuf err = STRBUF_INIT;
	struct sheet sh;
	size_t i;
	lxw_row_t chart_at;
	lxw_col_t chart_col;

	strbuf_addf(&err, "%s", bench);
	if (add_sheet(x, &sh, err.buf) < 0) {
		strbuf_release(&err);
		return -1;
	}
	strbuf_reset(&err);
	if (views_stats_build(x->db, &q, &v, &err) < 0) {
		put_str(x, &sh, sh.row++, 0, err.buf, NULL);
		strbuf_release(&err);
		return 0;
	}
	strbuf_reset(&err);
	strbuf_addf(&err, "%s (%s): %s [%s], %s is better", bench, suite,
		    v.n ? v.rows[0].c->metric : "", v.n && v.rows[0].c->unit ? v.rows[0].c->unit : "",
		    v.n && v.rows[0].c->lower_is_better ? "lower" : "higher");
	put_str(x, &sh, sh.row++, 0, err.buf, x->title);
	notice(x, &sh);
	ci_title(x, t8, sizeof(t8), "low");
	ci_title(x, t9, sizeof(t9), "high");
	if (norm != REPORT_NORM_SYSTEM) {
		/* the spec's normalisation: three more columns */
		titles[13] = norm == REPORT_NORM_DEVICE ? "median per device" : "median per node";
		snprintf(t14, sizeof(t14), "%s %s", t8, per);
		snprintf(t15, sizeof(t15), "%s %s", t9, per);
	}
	header_row(x, &sh, titles, norm != REPORT_NORM_SYSTEM ? AB_ARRAY_SIZE(titles) : 13);
	chart_at = 1;
	for (i = 0; i < v.n; i++) {
		const struct views_stats_row *r = &v.rows[i];
		struct fig f;
		lxw_row_t row;
		if (!keep_sys(x, r->c->system))
			continue;
		row = sh.row++;
		row_fig(x, r, REPORT_NORM_SYSTEM, &f);
		put_str(x, &sh, row, 0, r->c->system, NULL);
		put_pos(x, &sh, row, 1, r->c->nodes);
		put_pos(x, &sh, row, 2, r->c->devices);
		put_pos(x, &sh, row, 3, r->c->global_batch);
		put_str(x, &sh, row, 4, r->c->precision, NULL);
		put_num(x, &sh, row, 5, (double)r->s.n, x->int_fmt);
		put_num(x, &sh, row, 6, (double)r->s.n_failed, x->int_fmt);
		put_num(x, &sh, row, 7, f.med, x->num);
		put_num(x, &sh, row, 8, f.lo, x->num);
		put_num(x, &sh, row, 9, f.hi, x->num);
		put_num(x, &sh, row, 10, r->s.cv, x->ratio);
		put_num(x, &sh, row, 11, (double)r->s.n_outliers, x->int_fmt);
		put_str(x, &sh, row, 12, r->s.n ? (f.has_ci ? NULL : "n too small for a CI") :
			(r->c->n_failed ? "all runs failed" : "no values"), NULL);
		if (norm != REPORT_NORM_SYSTEM) {
			row_fig(x, r, norm, &f);
			put_num(x, &sh, row, 13, f.med, x->num);
			put_num(x, &sh, row, 14, f.lo, x->num);
			put_num(x, &sh, row, 15, f.hi, x->num);
		}
	}
	chart_col = bench_bars(x, &sh, &v, bench, &chart_at, norm != REPORT_NORM_SYSTEM ? 17 : 14);
	bench_scaling(x, &sh, suite, bench, &chart_at, chart_col);
	bench_pareto(x, &sh, suite, bench, &chart_at, chart_col);
	if (!strcmp(suite, "mlperf-training"))
		bench_mlperf(x, &sh, bench, &chart_at, chart_col);
	/* printing: one page wide, landscape */
	worksheet_set_landscape(sh.ws);
	worksheet_fit_to_pages(sh.ws, 1, 0);
	worksheet_freeze_panes(sh.ws, 2 + (x->simulated ? 1 : 0), 1);
	finish_widths(x, &sh);
	check(x, worksheet_set_column(sh.ws, 0, 0, 30, NULL));
	views_stats_release(&v);
	strbuf_release(&err);
	return 0;
}

/* ---- MLPerf official scores ---------------------------------------------------- */

static int sheet_mlperf(struct xw *x)
{
	static const char *const keys[] = { "system", "system_name", "benchmark", "round",
					    "division", "availability", "accelerator", "nodes",
					    "devices", "runs", "valid", "failed", "official_score",
					    "unit", "scaling_factor", "official_energy_j", "status" };
	struct db_filter f = { "mlperf-training", NULL, NULL };
	struct strbuf err = STRBUF_INIT;
	struct sheet sh;
	json_t *arr, *o;
	size_t i, k;

	if (mlperf_score(x->db, &f, &arr, &err) < 0) {
		strbuf_release(&err);
		return 0;
	}
	/* a spec's selection of benchmarks and systems */
	for (i = json_array_size(arr); i-- > 0;) {
		o = json_array_get(arr, i);
		if ((x->o->keep_bench && !x->o->keep_bench("mlperf-training",
				json_string_value(json_object_get(o, "benchmark")), x->o->keep_ctx)) ||
		    !keep_sys(x, json_string_value(json_object_get(o, "system"))))
			json_array_remove(arr, i);
	}
	if (!json_array_size(arr)) {
		json_decref(arr);
		strbuf_release(&err);
		return 0;
	}
	if (add_sheet(x, &sh, "MLPerf scores") < 0) {
		json_decref(arr);
		strbuf_release(&err);
		return -1;
	}
	put_str(x, &sh, sh.row++, 0, "MLPerf training: official time-to-train scores (olympic mean "
				     "of the runs, failed runs counted as the slowest, x scaling)",
		x->title);
	notice(x, &sh);
	header_row(x, &sh, keys, AB_ARRAY_SIZE(keys));
	json_array_foreach(arr, i, o) {
		lxw_row_t r;
		if (!keep_sys(x, json_string_value(json_object_get(o, "system"))))
			continue;
		r = sh.row++;
		for (k = 0; k < AB_ARRAY_SIZE(keys); k++) {
			json_t *v = json_object_get(o, keys[k]);
			if (json_is_string(v))
				put_str(x, &sh, r, (lxw_col_t)k, json_string_value(v), NULL);
			else if (json_is_number(v))
				put_num(x, &sh, r, (lxw_col_t)k, json_number_value(v),
					json_is_integer(v) ? x->int_fmt : x->num);
		}
	}
	finish_widths(x, &sh);
	json_decref(arr);
	strbuf_release(&err);
	return 0;
}

/* ---- Cost: input cells and live formulas --------------------------------------- */

static void cost_benchmark(struct xw *x, struct sheet *sh, const struct cost_prices_file *pf,
			   const char *suite, const char *bench)
{
	static const char *const titles[] = {
		"system", "configuration", "devices", "nodes", "throughput", "avg power [W]",
		"price per device", "price per node", "node overhead", "electricity per kWh", "PUE",
		"lifetime [years]", "utilisation", "capex", "busy hours", "energy [kWh]",
		"energy cost", "TCO", "work units", "cost per million units", "units/s per currency"
	};
	struct db_config_query q = { suite, bench, NULL, NULL };
	struct views_cost_opts co = { pf, 0, 0 };
	struct views_cost v;
	struct strbuf err = STRBUF_INIT, f = STRBUF_INIT;
	size_t i;
	int rc = views_cost_build(x->db, &q, &co, &v, &err);

	if (rc < 0) {
		strbuf_release(&err);
		return;
	}
	sh->row++;
	strbuf_reset(&x->tmp);
	strbuf_addf(&x->tmp, "%s (%s): work unit %s, throughput in %s/s; power is the measured "
			     "boundary's (see Methodology)", bench, suite, v.work_unit, v.work_unit);
	{
		char *t = ab_strdup(x->tmp.buf);
		put_str(x, sh, sh->row++, 0, t, x->bold);
		free(t);
	}
	header_row(x, sh, titles, AB_ARRAY_SIZE(titles));
	for (i = 0; i < v.n; i++) {
		const struct views_cost_row *row = &v.rows[i];
		const struct cost_prices *p = row->prices;
		lxw_row_t r;
		unsigned R;
		if (!keep_sys(x, row->c->system))
			continue;
		r = sh->row++;
		R = (unsigned)r + 1;
		put_str(x, sh, r, 0, row->c->system, NULL);
		strbuf_reset(&x->tmp);
		strbuf_addf(&x->tmp, "%ldn %ldd b%ld", row->c->nodes, row->c->devices,
			    row->c->global_batch);
		{
			char *t = ab_strdup(x->tmp.buf);
			put_str(x, sh, r, 1, t, NULL);
			free(t);
		}
		put_num(x, sh, r, 2, row->c->devices > 0 ? (double)row->c->devices : 0, x->int_fmt);
		put_num(x, sh, r, 3, row->c->nodes > 0 ? (double)row->c->nodes : 0, x->int_fmt);
		put_num(x, sh, r, 4, row->throughput, x->num);
		put_num(x, sh, r, 5, row->power, x->num);
		put_num(x, sh, r, 6, p->price_per_device, x->input);
		put_num(x, sh, r, 7, p->price_per_node, x->input);
		put_num(x, sh, r, 8, p->node_overhead, x->input);
		/* per-system electricity, PUE, lifetime and utilisation: live
		 * references to the inputs at the top unless the prices file
		 * gives this system its own */
#define GLOBAL_OR_OWN(col, cell, val, dflt)                                                     \
	do {                                                                                   \
		if ((val) == (dflt)) {                                                         \
			put_formula(x, sh, r, col, "=" cell, val, x->num);                     \
		} else {                                                                       \
			put_num(x, sh, r, col, val, x->input);                                 \
		}                                                                              \
	} while (0)
		GLOBAL_OR_OWN(9, "$B$4", p->electricity_price_per_kwh, x->g_elec);
		GLOBAL_OR_OWN(10, "$B$5", p->pue, x->g_pue);
		GLOBAL_OR_OWN(11, "$B$6", p->lifetime_years, x->g_life);
		GLOBAL_OR_OWN(12, "$B$7", p->utilisation, x->g_util);
#undef GLOBAL_OR_OWN
		strbuf_reset(&f);
		strbuf_addf(&f, "=C%u*G%u+D%u*(H%u+I%u)", R, R, R, R, R);
		put_formula(x, sh, r, 13, f.buf, row->res.capex, x->money);
		strbuf_reset(&f);
		strbuf_addf(&f, "=L%u*%g*M%u", R, COST_HOURS_PER_YEAR, R);
		put_formula(x, sh, r, 14, f.buf, row->res.busy_hours, x->num);
		if (isfinite(row->power)) {
			strbuf_reset(&f);
			strbuf_addf(&f, "=F%u/1000*O%u*K%u", R, R, R);
			put_formula(x, sh, r, 15, f.buf, row->res.energy_kwh, x->num);
			strbuf_reset(&f);
			strbuf_addf(&f, "=P%u*J%u", R, R);
			put_formula(x, sh, r, 16, f.buf, row->res.energy_cost, x->money);
			strbuf_reset(&f);
			strbuf_addf(&f, "=N%u+Q%u", R, R);
			put_formula(x, sh, r, 17, f.buf, row->res.tco, x->money);
		} else {
			put_str(x, sh, r, 15, "no power measured", NULL);
		}
		strbuf_reset(&f);
		strbuf_addf(&f, "=E%u*3600*O%u", R, R);
		put_formula(x, sh, r, 18, f.buf, row->res.work, x->num);
		if (isfinite(row->power)) {
			strbuf_reset(&f);
			strbuf_addf(&f, "=R%u/S%u*1000000", R, R);
			put_formula(x, sh, r, 19, f.buf, row->res.cost_per_million, x->num);
		}
		strbuf_reset(&f);
		strbuf_addf(&f, "=IF(N%u>0,E%u/N%u,\"\")", R, R, R);
		put_formula(x, sh, r, 20, f.buf, row->res.perf_per_currency, x->num);
	}
	views_cost_release(&v);
	strbuf_release(&err);
	strbuf_release(&f);
}

/* The file-wide values (the input cells); a system that overrides one gets
 * its own cell.  Defaults as in model/cost.c: PUE 1, utilisation 1. */
static int prices_defaults(struct xw *x, const char *path, const struct cost_prices_file *pf,
			   struct strbuf *err)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *v;

	if (!root)
		return ab_fail(err, AB_EDATA, "%s:%d: %s", path, je.line, je.text);
	v = json_object_get(root, "electricity_price_per_kwh");
	x->g_elec = json_is_number(v) ? json_number_value(v) :
		    pf->nsystems ? pf->systems[0].electricity_price_per_kwh : 0;
	v = json_object_get(root, "pue");
	x->g_pue = json_is_number(v) ? json_number_value(v) : 1.0;
	v = json_object_get(root, "lifetime_years");
	x->g_life = json_is_number(v) ? json_number_value(v) :
		    pf->nsystems ? pf->systems[0].lifetime_years : 0;
	v = json_object_get(root, "utilisation");
	x->g_util = json_is_number(v) ? json_number_value(v) : 1.0;
	json_decref(root);
	return 0;
}

static int sheet_cost(struct xw *x, json_t *benches)
{
	struct cost_prices_file *pf = NULL;
	struct strbuf err = STRBUF_INIT;
	struct sheet sh;
	json_t *b;
	size_t i;
	int rc;

	if (!x->o->prices_path)
		return 0;
	rc = cost_prices_load(x->o->prices_path, &pf, &err);
	if (rc < 0) {
		x->failed = 1;
		x->fail_rc = rc;
		strbuf_addbuf(&x->err_detail, &err);
		strbuf_release(&err);
		return rc;
	}
	rc = prices_defaults(x, x->o->prices_path, pf, &err);
	if (rc < 0) {
		x->failed = 1;
		x->fail_rc = rc;
		strbuf_addbuf(&x->err_detail, &err);
		strbuf_release(&err);
		cost_prices_file_free(pf);
		return rc;
	}
	if (add_sheet(x, &sh, "Cost") < 0) {
		cost_prices_file_free(pf);
		return -1;
	}
	put_str(x, &sh, sh.row++, 0, "Cost: edit the yellow input cells; every figure is a live "
				     "formula (accelbench cost computes the same)", x->title);
	if (x->simulated)
		notice(x, &sh);
	else
		sh.row++;
	strbuf_addf(&err, "prices from %s, currency %s", x->o->prices_path, pf->currency);
	put_str(x, &sh, sh.row++, 0, err.buf, x->small);
	/* rows 4-7 (B4:B7): the global inputs the formulas refer to */
	sh.row = 3;
	put_str(x, &sh, sh.row, 0, "electricity price per kWh", x->bold);
	put_num(x, &sh, sh.row++, 1, x->g_elec, x->input);
	put_str(x, &sh, sh.row, 0, "PUE", x->bold);
	put_num(x, &sh, sh.row++, 1, x->g_pue, x->input);
	put_str(x, &sh, sh.row, 0, "lifetime [years]", x->bold);
	put_num(x, &sh, sh.row++, 1, x->g_life, x->input);
	put_str(x, &sh, sh.row, 0, "utilisation", x->bold);
	put_num(x, &sh, sh.row++, 1, x->g_util, x->input);
	check(x, workbook_define_name(x->wb, "electricity_price_per_kwh", "=Cost!$B$4"));
	json_array_foreach(benches, i, b)
		cost_benchmark(x, &sh, pf, json_string_value(json_object_get(b, "suite")),
			       json_string_value(json_object_get(b, "name")));
	finish_widths(x, &sh);
	check(x, worksheet_set_column(sh.ws, 0, 0, 28, NULL));
	cost_prices_file_free(pf);
	strbuf_release(&err);
	return 0;
}

/* ---- Raw: every run and metric, an Excel table --------------------------------- */

static const char *const raw_cols[] = { "id", "suite", "benchmark", "system", "status", "nodes",
					"devices", "global_batch", "precision", "metric", "value",
					"unit", "job_id", "source", "line", "sha256" };

/* Which stream columns Raw keeps: the ones a reader filters on; sha256 as a
 * 12-digit prefix (the CSV export has every field). */
static void raw_columns(struct xw *x, struct db_runs *c)
{
	const char *const *names;
	size_t n = db_runs_columns(c, &names), k, i;

	x->raw_nk = 0;
	x->raw_sha = x->raw_job = (size_t)-1;
	for (k = 0; k < AB_ARRAY_SIZE(raw_cols); k++)
		for (i = 0; i < n; i++)
			if (!strcmp(names[i], raw_cols[k])) {
				if (!strcmp(names[i], "sha256"))
					x->raw_sha = x->raw_nk;
				if (!strcmp(names[i], "job_id"))
					x->raw_job = x->raw_nk;
				if (!strcmp(names[i], "system"))
					x->raw_system = i;
				x->raw_keep[x->raw_nk++] = i;
			}
}

/* A number as Excel reads it back exactly: integers plainly, else the
 * shortest of 15-17 significant digits that round-trips. */
static void xml_number(struct strbuf *sb, double v)
{
	char buf[40];
	int prec;

	if (v == floor(v) && fabs(v) < 1e15) {
		/* integers without printf's floating-point path */
		unsigned long long u = (unsigned long long)fabs(v);
		char *p = buf + sizeof(buf);
		*--p = '\0';
		do {
			*--p = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		if (v < 0)
			*--p = '-';
		strbuf_addstr(sb, p);
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, sizeof(buf), "%.17g", v);
	strbuf_addstr(sb, buf);
}

/* Text of a Raw cell: UTF-8 repaired, cut at Excel's cell limit; *plain
 * when it needs no XML escaping. */
static const char *raw_text(struct xw *x, const char *s, size_t len, size_t *tl, int *plain)
{
	size_t i;

	*plain = 1;
	for (i = 0; i < len && *plain; i++)
		*plain = (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x80 && s[i] != '&' &&
			 s[i] != '<' && s[i] != '>' && s[i] != '_';
	if (*plain) {
		*tl = len > XLSX_MAX_STR ? XLSX_MAX_STR : len;
		return s;
	}
	strbuf_reset(&x->tmp);
	export_utf8(&x->tmp, s, len);
	if (u8len(x->tmp.buf) > XLSX_MAX_STR) {
		size_t n, l;
		for (n = 0, l = 0; l < x->tmp.len && n < XLSX_MAX_STR - 1; l++)
			n += ((unsigned char)x->tmp.buf[l + 1] & 0xc0) != 0x80;
		strbuf_setlen(&x->tmp, l);
	}
	*tl = x->tmp.len;
	return x->tmp.buf;
}

/* A text cell (after `<c r="..." `): a shared string where the workbook
 * takes one, else an inline string; never a formula. */
static void xml_text_cell(struct xw *x, struct xlsx_zip_out *o, const char *s, size_t len,
			  int share)
{
	struct strbuf *sb = xlsx_zip_buf(o);
	size_t tl;
	int plain;
	const char *t = raw_text(x, s, len, &tl, &plain);
	long long k = share ? xlsx_zip_sst(o, t, tl) : -1;

	if (k >= 0) {
		strbuf_addstr(sb, "t=\"s\"><v>");
		xml_number(sb, (double)k);
		strbuf_addstr(sb, "</v></c>");
		return;
	}
	if (tl && (isspace((unsigned char)t[0]) || isspace((unsigned char)t[tl - 1])))
		strbuf_addstr(sb, "t=\"inlineStr\"><is><t xml:space=\"preserve\">");
	else
		strbuf_addstr(sb, "t=\"inlineStr\"><is><t>");
	if (plain)
		strbuf_add(sb, t, tl);
	else
		xlsx_xml_text(sb, t, tl);
	strbuf_addstr(sb, "</t></is></c>");
}

/* Rows of Raw when a spec selects systems: one pass over the stream. */
static int raw_count_kept(struct xw *x, long long *out, struct strbuf *err)
{
	struct db_filter f = { x->o->suite, NULL, NULL };
	struct db_runs *c = NULL;
	const struct db_cell *cells;
	int rc = db_runs_open(x->db, &f, DB_RUNS_PER_METRIC, &c, err);

	*out = 0;
	if (rc < 0)
		return rc;
	raw_columns(x, c);
	while ((rc = db_runs_next(c, &cells, err)) > 0)
		if (cells[x->raw_system].type != DB_CELL_TEXT || keep_sys(x, cells[x->raw_system].s))
			(*out)++;
	db_runs_close(c);
	return rc;
}

/* The rows of Raw, streamed from the database into the sheet's XML. */
static int raw_rows(void *ctx, struct xlsx_zip_out *o, struct strbuf *err)
{
	struct xw *x = ctx;
	struct db_filter f = { x->o->suite, NULL, NULL };
	struct strbuf *sb = xlsx_zip_buf(o);
	struct db_runs *c = NULL;
	const struct db_cell *cells;
	long long row = 1;
	char rnum[24];
	size_t i;
	int rc;

	rc = db_runs_open(x->db, &f, DB_RUNS_PER_METRIC, &c, err);
	if (rc < 0)
		return rc;
	while (row <= x->raw_rows && (rc = db_runs_next(c, &cells, err)) > 0) {
		int rl;
		if (cells[x->raw_system].type == DB_CELL_TEXT && !keep_sys(x, cells[x->raw_system].s))
			continue;   /* a spec's selection of systems */
		row++;
		rl = snprintf(rnum, sizeof(rnum), "%lld", row);
		strbuf_addstr(sb, "<row r=\"");
		strbuf_add(sb, rnum, (size_t)rl);
		strbuf_addstr(sb, "\">");
		for (i = 0; i < x->raw_nk; i++) {
			const struct db_cell *v = &cells[x->raw_keep[i]];
			if (v->type != DB_CELL_INT && v->type != DB_CELL_REAL && v->type != DB_CELL_TEXT)
				continue;   /* empty: no cell */
			strbuf_addstr(sb, "<c r=\"");
			strbuf_addch(sb, 'A' + (int)i);
			strbuf_add(sb, rnum, (size_t)rl);
			strbuf_addstr(sb, "\" ");
			if (v->type == DB_CELL_TEXT) {
				/* repeated text is shared; job ids are mostly unique */
				xml_text_cell(x, o, v->s, i == x->raw_sha && v->len > 12 ? 12 : v->len,
					      i != x->raw_job);
			} else {
				strbuf_addstr(sb, "><v>");
				xml_number(sb, v->d);
				strbuf_addstr(sb, "</v></c>");
			}
		}
		strbuf_addstr(sb, "</row>");
		rc = xlsx_zip_flush(o, err);
		if (rc < 0)
			break;
		rc = 1;
	}
	db_runs_close(c);
	return rc < 0 ? rc : 0;
}

/* The Raw sheet as libxlsxwriter writes it: the header row, the column
 * widths (from the first rows) and an Excel table over every row; the
 * rows themselves are streamed in by raw_rows() when the zip is copied, so
 * any number of them stays a table at constant memory. */
static int sheet_raw(struct xw *x)
{
	struct db_filter f = { x->o->suite, NULL, NULL };
	struct strbuf err = STRBUF_INIT;
	struct db_runs *c = NULL;
	const struct db_cell *cells;
	const char *const *names;
	lxw_table_column *cols, **colp;
	lxw_table_options to = { 0 };
	struct sheet sh;
	long long rows, seen = 0;
	size_t i;
	int rc;

	if (x->raw_rows > 1048575)
		x->raw_rows = 1048575;   /* Excel's last row; the CSV export has them all */
	rows = x->raw_rows;
	rc = db_runs_open(x->db, &f, DB_RUNS_PER_METRIC, &c, &err);
	if (rc < 0)
		goto fail;
	if (add_sheet(x, &sh, "Raw") < 0) {
		db_runs_close(c);
		strbuf_release(&err);
		return -1;
	}
	x->raw_sheet = (int)x->nsheet_names;   /* libxlsxwriter numbers sheets in order */
	raw_columns(x, c);
	db_runs_columns(c, &names);
	cols = ab_calloc(x->raw_nk, sizeof(*cols));
	colp = ab_calloc(x->raw_nk + 1, sizeof(*colp));
	for (i = 0; i < x->raw_nk; i++) {
		const char *nm = names[x->raw_keep[i]];
		cols[i].header = (char *)(strcmp(nm, "sha256") ? nm : "sha256 prefix");
		colp[i] = &cols[i];
		fit(&sh, (lxw_col_t)i, (double)strlen(cols[i].header) + 3);
	}
	/* widths from the first rows */
	while (seen < RAW_WIDTH_ROWS && (rc = db_runs_next(c, &cells, &err)) > 0) {
		seen++;
		for (i = 0; i < x->raw_nk; i++) {
			const struct db_cell *v = &cells[x->raw_keep[i]];
			if (v->type == DB_CELL_TEXT)
				fit(&sh, (lxw_col_t)i, i == x->raw_sha ? 13 : (double)u8len(v->s) + 1);
			else if (v->type == DB_CELL_INT || v->type == DB_CELL_REAL)
				fit(&sh, (lxw_col_t)i, 10);
		}
	}
	db_runs_close(c);
	if (rc < 0) {
		free(cols);
		free(colp);
		goto fail_nofree;
	}
	to.name = "Runs";
	to.columns = colp;
	to.style_type = LXW_TABLE_STYLE_TYPE_LIGHT;
	to.style_type_number = 9;
	/* an Excel table (its own autofilter); its header is row 0 */
	check(x, worksheet_add_table(sh.ws, 0, 0, (lxw_row_t)(rows ? rows : 1),
				     (lxw_col_t)(x->raw_nk - 1), &to));
	snprintf(x->raw_dim, sizeof(x->raw_dim), "A1:%c%lld", 'A' + (int)(x->raw_nk - 1),
		 (rows ? rows : 1) + 1);
	free(cols);
	free(colp);
	worksheet_freeze_panes(sh.ws, 1, 0);
	if (sh.width[13] > 60)
		sh.width[13] = 60;
	finish_widths(x, &sh);
	strbuf_release(&err);
	return 0;
fail:
	db_runs_close(c);
fail_nofree:
	x->failed = 1;
	strbuf_addbuf(&x->err_detail, &err);
	strbuf_release(&err);
	return rc;
}

/* ---- Methodology and Provenance ------------------------------------------------- */

static int sheet_methodology(struct xw *x)
{
	static const char *const lines[] = {
		"Methodology",
		"Statistics per configuration (system, nodes, devices, global batch, precision): median "
		"of the successful runs with a distribution-free confidence interval (order "
		"statistics); no CI where n is too small. Failed runs are counted, never averaged in. "
		"Outliers are flagged, never dropped.",
		"Comparisons: ratio of medians against the baseline system's best configuration, "
		"shown as 'times better' (speedup for time-like metrics), with a bootstrap "
		"percentile CI (seed and resamples below); Mann-Whitney U with Holm correction over "
		"the table; the verdict follows the CI and the adjusted p-value.",
		"MLPerf training: the official score is the olympic mean of the runs' time to train "
		"(failed runs count as the slowest), times the scaling factor, as the MLCommons result "
		"summarizer computes it.",
		"Cost: capex = devices x price per device + nodes x (price per node + node overhead); "
		"busy hours = lifetime x 8760 x utilisation; energy = power / 1000 x busy hours x PUE; "
		"TCO = capex + energy x electricity price; cost per million units = TCO / (throughput "
		"x 3600 x busy hours) x 1e6. The Cost sheet holds these as live formulas.",
		"Energy: from the suites' own measurements (jpwr, MLPerf power logs); the boundary "
		"(devices only or the whole node) is carried with the figure.",
		"Everything in this workbook is rendered from accelbench's views; text from input files "
		"is always stored as text, never as a formula.",
	};
	struct sheet sh;
	size_t i;

	if (add_sheet(x, &sh, "Methodology") < 0)
		return -1;
	for (i = 0; i < AB_ARRAY_SIZE(lines); i++)
		put_str(x, &sh, sh.row++, 0, lines[i], i ? x->wrap : x->title);
	strbuf_reset(&x->tmp);
	strbuf_addf(&x->tmp, "Bootstrap seed %lu, %zu resamples, CI level %g (every interval in "
			     "this workbook).",
		    x->o->copts ? x->o->copts->seed : 0UL, x->o->copts ? x->o->copts->resamples : 0,
		    ci_level(x));
	{
		char *t = ab_strdup(x->tmp.buf);
		put_str(x, &sh, sh.row++, 0, t, x->wrap);
		free(t);
	}
	check(x, worksheet_set_column(sh.ws, 0, 0, 120, x->wrap));
	return 0;
}

static int sheet_provenance(struct xw *x)
{
	static const char *const titles[] = { "id", "path", "format", "size [bytes]", "sha256",
					      "ingested at", "tool version", "runs" };
	struct strbuf err = STRBUF_INIT;
	struct sheet sh;
	json_t *arr, *s;
	size_t i;

	if (add_sheet(x, &sh, "Provenance") < 0)
		return -1;
	put_str(x, &sh, sh.row++, 0, "Provenance: every source file, its SHA-256 and when it was read",
		x->title);
	strbuf_reset(&x->tmp);
	strbuf_addf(&x->tmp, "written by accelbench %s from %s; bootstrap seed %lu", AB_VERSION,
		    db_path(x->db), x->o->copts ? x->o->copts->seed : 0UL);
	{
		char *t = ab_strdup(x->tmp.buf);
		put_str(x, &sh, sh.row++, 0, t, x->small);
		free(t);
	}
	notice(x, &sh);
	header_row(x, &sh, titles, AB_ARRAY_SIZE(titles));
	if (db_list_sources(x->db, NULL, &arr, &err) < 0) {
		put_str(x, &sh, sh.row++, 0, err.buf, NULL);
		strbuf_release(&err);
		return 0;
	}
	json_array_foreach(arr, i, s) {
		lxw_row_t r = sh.row++;
		put_num(x, &sh, r, 0, (double)json_integer_value(json_object_get(s, "id")), x->int_fmt);
		put_str(x, &sh, r, 1, json_string_value(json_object_get(s, "path")), NULL);
		put_str(x, &sh, r, 2, json_string_value(json_object_get(s, "format")), NULL);
		put_num(x, &sh, r, 3, (double)json_integer_value(json_object_get(s, "size")), x->int_fmt);
		put_str(x, &sh, r, 4, json_string_value(json_object_get(s, "sha256")), NULL);
		put_str(x, &sh, r, 5, json_string_value(json_object_get(s, "ingested_at")), NULL);
		put_str(x, &sh, r, 6, json_string_value(json_object_get(s, "tool_version")), NULL);
		put_num(x, &sh, r, 7, (double)json_integer_value(json_object_get(s, "runs")), x->int_fmt);
	}
	json_decref(arr);
	if (sh.width[1] > 80)
		sh.width[1] = 80;
	finish_widths(x, &sh);
	strbuf_release(&err);
	return 0;
}

/* ---- the workbook --------------------------------------------------------------- */

static void formats(struct xw *x)
{
	x->bold = workbook_add_format(x->wb);
	format_set_bold(x->bold);
	x->title = workbook_add_format(x->wb);
	format_set_bold(x->title);
	format_set_font_size(x->title, 13);
	x->warn = workbook_add_format(x->wb);
	format_set_bold(x->warn);
	format_set_font_color(x->warn, 0xC00000);
	x->num = workbook_add_format(x->wb);
	format_set_num_format(x->num, "#,##0.###");
	x->int_fmt = workbook_add_format(x->wb);
	format_set_num_format(x->int_fmt, "0");
	x->ratio = workbook_add_format(x->wb);
	format_set_num_format(x->ratio, "0.000");
	x->money = workbook_add_format(x->wb);
	format_set_num_format(x->money, "#,##0.00");
	x->input = workbook_add_format(x->wb);
	format_set_bg_color(x->input, 0xFFF2CC);
	format_set_num_format(x->input, "General");
	x->wrap = workbook_add_format(x->wb);
	format_set_text_wrap(x->wrap);
	format_set_align(x->wrap, LXW_ALIGN_VERTICAL_TOP);
	x->best = workbook_add_format(x->wb);
	format_set_bold(x->best);
	format_set_bg_color(x->best, 0xC6EFCE);
	x->small = workbook_add_format(x->wb);
	format_set_italic(x->small);
}

int xlsx_write(struct db *db, const struct xlsx_opts *o, const char *path, struct strbuf *err)
{
	struct atomic_file af, lx;
	struct xw x = { 0 };
	lxw_workbook_options wo = { 0 };
	lxw_doc_properties props = { 0 };
	struct db_filter bf = { o->suite, NULL, NULL };
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	json_t *benches = NULL, *b;
	struct strbuf title = STRBUF_INIT;
	bool sim = false;
	size_t i;
	lxw_error le;
	int rc;

	if (!strcmp(path, "-"))
		return ab_fail(err, AB_EUSAGE, "a workbook cannot go to standard output; name a file");
	rc = db_list_benchmarks(db, &bf, &benches, err);
	if (rc < 0)
		return rc;
	if (o->keep_bench) {
		/* a spec's selection of suites and benchmarks */
		for (i = json_array_size(benches); i-- > 0;) {
			b = json_array_get(benches, i);
			if (!o->keep_bench(json_string_value(json_object_get(b, "suite")),
					   json_string_value(json_object_get(b, "name")), o->keep_ctx))
				json_array_remove(benches, i);
		}
	}
	if (!json_array_size(benches)) {
		json_decref(benches);
		return ab_fail(err, AB_EDATA, "nothing to export: no benchmarks%s%s", o->suite ? " in " : "",
			       o->suite ? o->suite : "");
	}
	rc = db_has_simulated(db, &sim, err);
	if (rc < 0) {
		json_decref(benches);
		return rc;
	}
	x.db = db;
	x.o = o;
	rc = o->spec ? spec_check(&x, err) : 0;
	if (rc < 0) {
		json_decref(benches);
		return rc;
	}
	if (o->spec && o->spec->nsystems) {
		rc = raw_count_kept(&x, &x.raw_rows, err);
	} else {
		rc = db_runs_count(db, &bf, DB_RUNS_PER_METRIC, &x.raw_rows, err);
	}
	if (rc < 0) {
		json_decref(benches);
		return rc;
	}
	/* libxlsxwriter's workbook (no Raw rows: it stays small) goes to a
	 * temporary file, copied with the Raw rows and error bars into af */
	rc = atomic_open_name(&lx, path, err);
	if (rc < 0) {
		json_decref(benches);
		return rc;
	}
	rc = atomic_open(&af, path, err);
	if (rc < 0) {
		atomic_abort(&lx);
		json_decref(benches);
		return rc;
	}
	wo.constant_memory = LXW_FALSE;
	x.wb = workbook_new_opt(lx.tmp.buf, &wo);
	if (!x.wb) {
		atomic_abort(&lx);
		atomic_abort(&af);
		json_decref(benches);
		return ab_fail(err, AB_EIO, "cannot create workbook '%s'", path);
	}
	x.db = db;
	/* read-only from here: each configuration set is loaded once, shared by
	 * the Summary, the benchmark sheets and Cost */
	db_configs_cache_enable(db);
	x.o = o;
	x.simulated = sim;
	strbuf_init(&x.tmp, 256);
	strbuf_init(&x.err_detail, 0);
	formats(&x);
	strbuf_addf(&title, "%s%s", o->title ? o->title : "accelbench results",
		    sim ? " (simulated example data)" : "");
	props.title = title.buf;
	props.subject = (char *)"accelerator benchmark results";
	props.author = (char *)(o->author ? o->author : "accelbench " AB_VERSION);
	props.company = (char *)(o->company ? o->company : "");
	props.comments = (char *)(sim ? "Simulated example data generated by accelbench demo" :
					"Rendered from an accelbench database");
	if (sde && *sde)
		props.created = (time_t)strtoll(sde, NULL, 10);
	check(&x, workbook_set_properties(x.wb, &props));

	sheet_summary(&x, benches);
	sheet_systems(&x);
	json_array_foreach(benches, i, b) {
		if (x.failed)
			break;
		sheet_benchmark(&x, json_string_value(json_object_get(b, "suite")),
				json_string_value(json_object_get(b, "name")));
	}
	if (!x.failed)
		sheet_mlperf(&x);
	if (!x.failed)
		sheet_cost(&x, benches);
	if (!x.failed)
		sheet_raw(&x);
	if (!x.failed)
		sheet_methodology(&x);
	if (!x.failed)
		sheet_provenance(&x);

	le = workbook_close(x.wb);
	if (le != LXW_NO_ERROR && !x.failed) {
		x.failed = 1;
		strbuf_addstr(&x.err_detail, lxw_strerror(le));
	}
	if (!x.failed) {
		struct xlsx_zip_patch zp = { 0 };
		zp.bars = x.bars;
		zp.nbars = x.nbars;
		zp.stream_sheet = x.raw_sheet;
		zp.dimension = x.raw_dim;
		zp.rows = raw_rows;
		zp.rows_ctx = &x;
		rc = xlsx_zip_rewrite(lx.tmp.buf, af.fp, &zp, &x.err_detail);
		if (rc < 0) {
			x.failed = 1;
			x.fail_rc = rc;
		}
	}
	atomic_abort(&lx);
	if (x.failed) {
		atomic_abort(&af);
		if (x.fail_rc < 0)
			rc = ab_fail(err, (enum ab_exit)-x.fail_rc, "%s", x.err_detail.buf);
		else
			rc = ab_fail(err, AB_EIO, "cannot write workbook '%s': %s", path,
				     x.err_detail.buf);
	} else {
		rc = atomic_commit(&af, err);
	}
	for (i = 0; i < x.nbars; i++) {
		free((char *)x.bars[i].plus_ref);
		free((char *)x.bars[i].minus_ref);
		free((double *)x.bars[i].plus);   /* minus shares its allocation */
	}
	free(x.bars);
	for (i = 0; i < x.nsheet_names; i++)
		free(x.sheet_names[i]);
	free(x.sheet_names);
	strbuf_release(&x.tmp);
	strbuf_release(&x.err_detail);
	strbuf_release(&title);
	json_decref(benches);
	return rc;
}
