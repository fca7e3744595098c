/*
 * heatmap.c - systems x benchmarks, each cell the ratio to the baseline
 * on a diverging colour scale centred on 1 (log scale: 0.5x and 2x are
 * equally strong), the value printed in the cell, a geometric-mean column
 * set apart on the right, and a colour bar saying which side is faster.
 */
#include "plots/plot_priv.h"

#define DEFAULT_CAPTION \
	"Cells: ratio of medians to the baseline; hatched: not measured. Geometric mean over " \
	"the benchmarks measured for that system."
#define GEO_GAP 10.0
#define CELL_GAP 1.5
#define BAR_W 260.0
#define BAR_H 9.0

static const struct plot_font row_font = { .size = PLOT_SZ_TICK, .color = PLOT_RGB_INK };
static const struct plot_font tick_font = { .size = PLOT_SZ_SMALL, .color = PLOT_RGB_INK2 };
static const struct plot_font axis_font = { .size = PLOT_SZ_AXIS, .color = PLOT_RGB_INK };
static const struct plot_font bar_title_font = { .size = PLOT_SZ_SMALL, .color = PLOT_RGB_INK2 };

struct row {
	size_t idx;
	double geo;
	const char *name;
};

static int validate(const struct plot_heatmap_spec *s, struct strbuf *err)
{
	size_t i, have = 0;

	if (!s->n_rows || !s->n_cols)
		return ab_fail(err, AB_EDATA, "nothing to plot: the heatmap has no %s",
			       s->n_rows ? "benchmarks" : "systems");
	for (i = 0; i < s->n_rows * s->n_cols; i++) {
		double v = s->ratios[i];
		if (isnan(v))
			continue;
		if (!isfinite(v) || !(v > 0))
			return ab_fail(err, AB_EDATA,
				       "heatmap: ratio %g of '%s' in '%s' is not positive", v,
				       plot_str(s->rows[i / s->n_cols]),
				       plot_str(s->cols[i % s->n_cols]));
		have++;
	}
	if (!have)
		return ab_fail(err, AB_EDATA,
			       "nothing to plot: every cell of the heatmap is empty");
	return 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *p = a, *q = b;
	int pn = isnan(p->geo), qn = isnan(q->geo);

	if (pn != qn)
		return pn - qn;
	if (!pn && p->geo != q->geo)
		return p->geo < q->geo ? 1 : -1;
	return strcmp(p->name, q->name);
}

/* Cell text colour with enough contrast on bg. */
static struct plot_rgb ink_on(struct plot_rgb bg)
{
	return plot_luminance(bg) < 0.33 ? PLOT_WHITE : PLOT_INK;
}

struct lims;
static struct plot_rgb colour_of(double v, const struct lims *l);

static void cell(struct plot_ctx *c, double x, double y, double w, double h, double v,
		 const struct lims *lim, const struct plot_font *vf, int bold, const char *config)
{
	struct strbuf sb = STRBUF_INIT;
	struct plot_font f = *vf;
	struct plot_rgb bg;
	double tw, th, d;

	if (isnan(v)) {
		/* not measured: hatched, so it never reads as "about 1x" */
		cairo_save(c->cr);
		cairo_new_path(c->cr);
		cairo_rectangle(c->cr, x + CELL_GAP / 2, y + CELL_GAP / 2, w - CELL_GAP,
				h - CELL_GAP);
		cairo_clip(c->cr);
		cairo_new_path(c->cr);
		for (d = -h; d < w; d += 6) {
			cairo_move_to(c->cr, x + d, y + h);
			cairo_line_to(c->cr, x + d + h, y);
		}
		cairo_set_line_width(c->cr, 0.8);
		plot_set_rgb(c->cr, PLOT_GRID, 1.0);
		cairo_stroke(c->cr);
		cairo_restore(c->cr);
		return;
	}
	bg = colour_of(v, lim);
	cairo_new_path(c->cr);
	cairo_rectangle(c->cr, x + CELL_GAP / 2, y + CELL_GAP / 2, w - CELL_GAP, h - CELL_GAP);
	plot_set_rgb(c->cr, bg, 1.0);
	cairo_fill(c->cr);
	plot_format_ratio(&sb, v);
	f.color = ink_on(bg);
	f.bold = bold;
	/* the value always: a smaller font before none */
	plot_text_extent(c, &f, sb.buf, &tw, &th);
	while ((tw > w - 3 || th > h) && f.size > 5.5) {
		f.size -= 0.5;
		plot_text_extent(c, &f, sb.buf, &tw, &th);
	}
	if (config && *config) {
		/* the configuration the cell stands for, in small print under it */
		struct plot_font cf = f;
		double cw2, chh;
		cf.size = fmin(f.size, PLOT_SZ_SMALL) - 1;
		cf.bold = 0;
		plot_text_extent(c, &cf, config, &cw2, &chh);
		while (cw2 > w - 3 && cf.size > 5) {
			cf.size -= 0.5;
			plot_text_extent(c, &cf, config, &cw2, &chh);
		}
		if (th + chh <= h - 1 && cw2 <= w - 3) {
			double top = y + (h - th - chh) / 2;
			plot_text_draw(c, &f, sb.buf, x + w / 2, top, 0.5, 0, 0);
			plot_text_draw(c, &cf, config, x + w / 2, top + th, 0.5, 0, 0);
			strbuf_release(&sb);
			return;
		}
	}
	plot_text_draw(c, &f, sb.buf, x + w / 2, y + h / 2, 0.5, 0.5, 0);
	strbuf_release(&sb);
}

/* The colour bar's ticks: powers of two, every step-th, at most 7. */
/* How far the colours reach on each side of 1, as factors: each side
 * saturates at its own extreme of the data (at least 2x), so a round far
 * from its baseline (1,452 nodes against one) still shows its differences
 * instead of one saturated colour, and an empty side takes no room. */
struct lims {
	double lo, hi; /* 1/lo .. 1 .. hi */
};

/* The limit covering a factor: 2 or 4, else the next power of ten. */
static double side_limit(double extreme)
{
	if (extreme <= 2.001)
		return 2;
	if (extreme <= 4.001)
		return 4;
	return pow(10, ceil(log10(extreme) - 1e-9));
}

static struct plot_rgb colour_of(double v, const struct lims *l)
{
	return plot_diverging(v, v < 1 ? l->lo : l->hi);
}

/* "4×", "1/100×", "10⁵×", "10⁻⁵×" */
static void factor_label(struct strbuf *sb, double k)
{
	static const char *const sup[] = { "\xE2\x81\xB0", "\xC2\xB9", "\xC2\xB2", "\xC2\xB3",
					   "\xE2\x81\xB4", "\xE2\x81\xB5", "\xE2\x81\xB6",
					   "\xE2\x81\xB7", "\xE2\x81\xB8", "\xE2\x81\xB9" };
	double f = k < 1 ? 1 / k : k;
	int e = (int)lround(log10(f));

	if (f < 1e4 - 0.5 || fabs(f - pow(10, e)) > 1e-6 * f || e > 99) {
		if (k < 1)
			strbuf_addf(sb, "1/%g\xC3\x97", f);
		else
			strbuf_addf(sb, "%g\xC3\x97", f);
		return;
	}
	strbuf_addstr(sb, "10");
	if (k < 1)
		strbuf_addstr(sb, "\xE2\x81\xBB"); /* superscript minus */
	if (e >= 10)
		strbuf_addstr(sb, sup[e / 10]);
	strbuf_addstr(sb, sup[e % 10]);
	strbuf_addstr(sb, "\xC3\x97");
}

/* The ticks of one side (factors > 1, ascending), at most 3. */
static size_t side_ticks(double lim, double *t)
{
	size_t n = 0;
	int d, nd, step;

	if (lim <= 4.001) {
		t[n++] = 2;
		if (lim > 2.001)
			t[n++] = 4;
		return n;
	}
	nd = (int)lround(log10(lim));
	step = (nd + 2) / 3;
	for (d = nd; d >= 1 && n < 3; d -= step)
		t[n++] = pow(10, d);
	/* ascending */
	for (d = 0; d < (int)n / 2; d++) {
		double x = t[d];
		t[d] = t[n - 1 - d];
		t[n - 1 - d] = x;
	}
	return n;
}

/* The colour bar, right-aligned at (right, y); returns its height.  Its
 * halves are 1/lo..1 and 1..hi, each as long as the other. */
static double colour_bar(struct plot_ctx *c, double right, double y, const struct lims *l,
			 const char *base, int draw)
{
	struct strbuf sb = STRBUF_INIT;
	double x0 = right - BAR_W - 14, xm = x0 + BAR_W / 2, w, h, th, t[8];
	struct plot_boxes taken;
	size_t n, j;
	int i, side, pass;

	strbuf_addf(&sb, "ratio to %s (log scale): slower \xE2\x97\x82 \xE2\x96\xB8 faster",
		    base && *base ? base : "baseline");
	plot_text_extent(c, &bar_title_font, sb.buf, &w, &th);
	plot_text_extent(c, &tick_font, "0", &w, &h);
	if (!draw) {
		strbuf_release(&sb);
		return th + 3 + BAR_H + 2 + h;
	}
	plot_text_draw(c, &bar_title_font, sb.buf, x0 + BAR_W, y, 1, 0, 0);
	y += th + 3;
	for (i = 0; i < 100; i++) {
		double u = (i + 0.5) / 50.0 - 1; /* -1 .. 1 */
		double v = u < 0 ? pow(l->lo, u) : pow(l->hi, u);
		cairo_new_path(c->cr);
		cairo_rectangle(c->cr, x0 + BAR_W * i / 100.0, y, BAR_W / 100.0 + 0.3, BAR_H);
		plot_set_rgb(c->cr, colour_of(v, l), 1.0);
		cairo_fill(c->cr);
	}
	/* tick labels: the ends and 1x first, the others where they do not
	 * touch a label already drawn */
	plot_boxes_init(&taken);
	for (pass = 0; pass < 2; pass++) {
		for (side = -1; side <= 1; side++) {
			double lim = side < 0 ? l->lo : l->hi;
			n = side ? side_ticks(lim, t) : (t[0] = 1, 1);
			for (j = 0; j < n; j++) {
				double x = side == 0 ? xm
						     : xm + side * (BAR_W / 2) * log(t[j]) / log(lim);
				int end = side == 0 || fabs(t[j] - lim) < 1e-9 * lim;
				double ax = end && side ? (side < 0 ? 0.15 : 0.85) : 0.5;
				struct plot_rect r;
				if (end != !pass)
					continue;
				strbuf_reset(&sb);
				factor_label(&sb, side < 0 ? 1 / t[j] : t[j]);
				r = plot_text_box(c, &tick_font, sb.buf, x, y + BAR_H + 2, ax, 0, 0);
				if (pass && plot_boxes_hit(&taken, plot_rect_grow(r, 2)))
					continue;
				plot_boxes_add(&taken, r);
				plot_vline(c->cr, x, y + BAR_H, y + BAR_H + 2, 0.8, PLOT_INK2, 1);
				plot_text_draw(c, &tick_font, sb.buf, x, y + BAR_H + 2, ax, 0, 0);
			}
		}
	}
	plot_boxes_release(&taken);
	strbuf_release(&sb);
	return th + 3 + BAR_H + 2 + h;
}

double plot_heatmap_height(const struct plot_heatmap_spec *s)
{
	/* header, colour bar, column names, caption; a row per system, tall
	 * enough for the value and the configuration under it */
	return 230.0 + (s->configs ? 27.0 : 18.0) * (double)s->n_rows;
}

int plot_heatmap_render(struct plot_ctx *c, struct plot_rect area,
			const struct plot_heatmap_spec *s, struct strbuf *err)
{
	struct row *rows;
	struct plot_catx cx = { 0 };
	const char **heads;
	struct plot_rect reg = area;
	struct strbuf sb = STRBUF_INIT;
	struct plot_font vf = { .size = PLOT_SZ_LABEL, .color = PLOT_RGB_INK };
	struct lims lim;
	double minr = 1, maxr = 1, labw = 0, w, h, gx, gw, cw, ch, gy, bar_h, geo_x, xt_h, nscale = 1;
	size_t i, j, nr = s->n_rows, nc = s->n_cols, ncol;
	int rc, geo = !s->no_geomean;

	if ((rc = validate(s, err)) < 0)
		return rc;
	rows = ab_calloc(nr, sizeof(*rows));
	ncol = nc + (geo ? 1 : 0);
	heads = ab_calloc(ncol, sizeof(*heads));
	for (i = 0; i < nr; i++) {
		double sum = 0;
		size_t n = 0;
		for (j = 0; j < nc; j++) {
			double v = s->ratios[i * nc + j];
			if (isnan(v))
				continue;
			sum += log(v);
			n++;
			maxr = fmax(maxr, v);
			minr = fmin(minr, v);
		}
		rows[i].idx = i;
		rows[i].geo = s->geomeans ? s->geomeans[i] : n ? exp(sum / (double)n) : NAN;
		rows[i].name = plot_str(s->rows[i]);
	}
	if (!s->keep_order)
		qsort(rows, nr, sizeof(*rows), cmp_row);
	lim.lo = side_limit(1 / minr);
	lim.hi = side_limit(maxr);
	for (j = 0; j < nc; j++)
		heads[j] = s->cols[j];
	if (geo)
		heads[nc] = "Geometric mean";

	plot_frame_header(c, &s->labels, NULL, &reg);
	plot_frame_caption(c, s->labels.caption, DEFAULT_CAPTION, &reg);
	bar_h = colour_bar(c, reg.x + reg.w, reg.y, &lim, s->baseline, 0);
	colour_bar(c, reg.x + reg.w, reg.y, &lim, s->baseline, 1);
	reg.y += bar_h + 10;
	reg.h -= bar_h + 10;
	if (s->labels.y_title && *s->labels.y_title) {
		/* its own line over the names, clear of the colour bar */
		plot_text_extent(c, &axis_font, s->labels.y_title, &w, &h);
		reg.y += h + 2;
		reg.h -= h + 2;
	}

	/* row names: full, as wide as the longest (a smaller font in narrow
	 * areas, never shortened: two systems never share a label) */
	for (i = 0; i < nr; i++) {
		struct plot_font rf = row_font;
		rf.bold = 1;
		plot_text_extent(c, &rf, rows[i].name, &w, &h);
		labw = fmax(labw, w);
	}
	if (labw > reg.w * 0.55) {
		nscale = fmax(0.6, reg.w * 0.55 / labw);
		labw *= nscale;
	}
	gx = reg.x + labw + 8;
	gw = reg.w - labw - 8 - (geo ? GEO_GAP : 0);
	cw = fmin(gw / (double)ncol, 120);
	cx.n = ncol;
	cx.labels = heads;
	plot_catx_layout(c, &cx, cw, reg.h * 0.4, gx - reg.x);
	xt_h = 0;
	if (s->labels.x_title && *s->labels.x_title) {
		plot_text_extent(c, &axis_font, s->labels.x_title, &w, &xt_h);
		xt_h += 6;
	}
	ch = fmin((reg.h - cx.height - xt_h) / (double)nr, 40);
	gy = reg.y;
	plot_text_extent(c, &vf, "0.00×", &w, &h);
	if (ch < h + 3 || cw < w + 4)
		vf.size = PLOT_SZ_SMALL;
	geo_x = gx + cw * (double)nc + GEO_GAP;
	if (ch < 9 || cw < 24) {
		rc = ab_fail(err, AB_EUSAGE, "heatmap: %zu systems x %zu benchmarks do not fit in "
					     "%.0f x %.0f with every name and value legible; give it "
					     "more room or fewer systems", nr, nc, area.w, area.h);
		goto done;
	}
	if ((rc = plot_check_fit((struct plot_rect){ gx, gy, cw * 4, ch * 4 }, "heatmap", err)) < 0)
		goto done;

	for (i = 0; i < nr; i++) {
		const struct row *r = &rows[i];
		double y = gy + ch * (double)i;
		int is_base = s->baseline && !strcmp(s->baseline, r->name);
		struct plot_font rf = row_font;

		rf.bold = is_base;
		rf.size *= nscale;
		plot_text_draw(c, &rf, r->name, gx - 8, y + ch / 2, 1, 0.5, 0);
		for (j = 0; j < nc; j++)
			cell(c, gx + cw * (double)j, y, cw, ch, s->ratios[r->idx * nc + j], &lim,
			     &vf, 0, s->configs ? s->configs[r->idx * nc + j] : NULL);
		if (geo)
			cell(c, geo_x, y, cw, ch, r->geo, &lim, &vf, 1, NULL);
	}
	/* the axis titles: over the system names, under the benchmark names */
	if (s->labels.y_title && *s->labels.y_title)
		plot_text_draw(c, &axis_font, s->labels.y_title, gx - 8, gy - 4, 1, 1, 0);
	if (s->labels.x_title && *s->labels.x_title)
		plot_text_draw(c, &axis_font, s->labels.x_title, gx + cw * (double)nc / 2,
			       gy + ch * (double)nr + cx.height + 6, 0.5, 0, 0);
	/* column names under the grid; the geometric mean's sits under its column */
	cx.n = nc;
	plot_catx_draw(c, &cx, gx, cw, gy + ch * (double)nr);
	if (geo) {
		struct plot_catx g = cx;
		g.n = 1;
		g.labels = heads + nc;
		g.shown = cx.shown + nc;
		plot_catx_draw(c, &g, geo_x, cw, gy + ch * (double)nr);
	}
	cx.n = ncol;
done:
	plot_catx_release(&cx);
	strbuf_release(&sb);
	free(heads);
	free(rows);
	return rc;
}
