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
#define BAR_W 200.0
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

static void cell(struct plot_ctx *c, double x, double y, double w, double h, double v, double lim,
		 const struct plot_font *vf, int bold)
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
	bg = plot_diverging(v, lim);
	cairo_new_path(c->cr);
	cairo_rectangle(c->cr, x + CELL_GAP / 2, y + CELL_GAP / 2, w - CELL_GAP, h - CELL_GAP);
	plot_set_rgb(c->cr, bg, 1.0);
	cairo_fill(c->cr);
	plot_format_ratio(&sb, v);
	f.color = ink_on(bg);
	f.bold = bold;
	plot_text_extent(c, &f, sb.buf, &tw, &th);
	if (tw <= w - 4 && th <= h)
		plot_text_draw(c, &f, sb.buf, x + w / 2, y + h / 2, 0.5, 0.5, 0);
	strbuf_release(&sb);
}

/* The colour bar, right-aligned at (right, y); returns its height. */
static double colour_bar(struct plot_ctx *c, double right, double y, double lim, double maxr,
			 const char *base, int draw)
{
	struct strbuf sb = STRBUF_INIT;
	double x0 = right - BAR_W - 14, w, h, th, k;
	int i;

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
		double t = (i + 0.5) / 100.0;
		cairo_new_path(c->cr);
		cairo_rectangle(c->cr, x0 + BAR_W * i / 100.0, y, BAR_W / 100.0 + 0.3, BAR_H);
		plot_set_rgb(c->cr, plot_diverging(exp((2 * t - 1) * log(lim)), lim), 1.0);
		cairo_fill(c->cr);
	}
	/* ticks at powers of two inside [1/lim, lim] */
	for (k = 1 / lim; k <= lim * 1.0001; k *= 2) {
		double x = x0 + BAR_W * (log(k) / log(lim) + 1) / 2;
		strbuf_reset(&sb);
		/* the ends say when colours saturate: "<=1/4x", ">=4x" */
		if (maxr > lim * 1.0001 && (k < 1.0001 / lim || k > lim * 0.9999))
			strbuf_addstr(&sb, k < 1 ? "\xE2\x89\xA4" : "\xE2\x89\xA5");
		if (k < 1)
			strbuf_addf(&sb, "1/%g\xC3\x97", 1 / k);
		else
			strbuf_addf(&sb, "%g\xC3\x97", k);
		plot_vline(c->cr, x, y + BAR_H, y + BAR_H + 2, 0.8, PLOT_INK2, 1);
		plot_text_draw(c, &tick_font, sb.buf, x, y + BAR_H + 2, 0.5, 0, 0);
	}
	strbuf_release(&sb);
	return th + 3 + BAR_H + 2 + h;
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
	double lim, maxr = 1, labw = 0, w, h, gx, gw, cw, ch, gy, bar_h, geo_x, xt_h;
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
			maxr = fmax(maxr, fmax(v, 1 / v));
		}
		rows[i].idx = i;
		rows[i].geo = s->geomeans ? s->geomeans[i] : n ? exp(sum / (double)n) : NAN;
		rows[i].name = plot_str(s->rows[i]);
	}
	if (!s->keep_order)
		qsort(rows, nr, sizeof(*rows), cmp_row);
	/* symmetric limit: the power of two covering the data, 2x or 4x;
	 * beyond 4x colours saturate (the printed values still tell) so that
	 * one CPU at 0.03x does not wash out the differences that matter */
	lim = maxr > 2.001 ? 4 : 2;
	for (j = 0; j < nc; j++)
		heads[j] = s->cols[j];
	if (geo)
		heads[nc] = "Geometric mean";

	plot_frame_header(c, &s->labels, NULL, &reg);
	plot_frame_caption(c, s->labels.caption, DEFAULT_CAPTION, &reg);
	bar_h = colour_bar(c, reg.x + reg.w, reg.y, lim, maxr, s->baseline, 0);
	colour_bar(c, reg.x + reg.w, reg.y, lim, maxr, s->baseline, 1);
	reg.y += bar_h + 10;
	reg.h -= bar_h + 10;

	/* row names: as wide as the longest, at most 30 % of the width */
	for (i = 0; i < nr; i++) {
		struct plot_font rf = row_font;
		rf.bold = s->baseline && !strcmp(s->baseline, rows[i].name);
		plot_text_extent(c, &rf, rows[i].name, &w, &h);
		labw = fmax(labw, w);
	}
	labw = fmin(labw, reg.w * 0.3);
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
	if ((rc = plot_check_fit((struct plot_rect){ gx, gy, cw * 4, ch * 4 }, "heatmap", err)) < 0)
		goto done;

	for (i = 0; i < nr; i++) {
		const struct row *r = &rows[i];
		double y = gy + ch * (double)i;
		int is_base = s->baseline && !strcmp(s->baseline, r->name);
		struct plot_font rf = row_font;

		rf.bold = is_base;
		plot_text_fit(c, &rf, r->name, labw, &sb);
		plot_text_draw(c, &rf, sb.buf, gx - 8, y + ch / 2, 1, 0.5, 0);
		for (j = 0; j < nc; j++)
			cell(c, gx + cw * (double)j, y, cw, ch, s->ratios[r->idx * nc + j], lim,
			     &vf, 0);
		if (geo)
			cell(c, geo_x, y, cw, ch, r->geo, lim, &vf, 1);
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
