/*
 * devices.c - scaling with devices or nodes: speedup per system with its
 * CI and the ideal (linear) line through the first point on the left, the
 * parallel efficiency on a second panel on the right.
 */
#include "plots/plot_priv.h"

#define DEFAULT_CAPTION \
	"Points: median with 95 % CI. Ideal: linear scaling from the smallest count of each " \
	"system. Efficiency = speedup / ideal speedup."
#define PANEL_GAP 34.0

/* The series' first (smallest x) point. */
static const struct plot_point *first_point(const struct plot_devices_series *se)
{
	const struct plot_point *f = NULL;
	size_t k;

	for (k = 0; k < se->n_points; k++)
		if (!f || se->points[k].x < f->x)
			f = &se->points[k];
	return f;
}

static double efficiency(const struct plot_devices_series *se, double x, double y)
{
	const struct plot_point *f = first_point(se);

	return 100.0 * y / (f->y * x / f->x);
}

static int validate(const struct plot_devices_spec *s, struct strbuf *err)
{
	size_t i, k, have = 0;
	int logx = s->x_scale == PLOT_SCALE_AUTO || plot_scale_is_log(s->x_scale);
	int logy = s->y_scale == PLOT_SCALE_AUTO || plot_scale_is_log(s->y_scale);
	int rc;

	if (!s->n_series)
		return ab_fail(err, AB_EDATA,
			       "nothing to plot: the device scaling chart has no systems");
	if ((rc = plot_need_title(s->labels.y_title, "device scaling", "y", err)) < 0)
		return rc;
	for (i = 0; i < s->n_series; i++) {
		const struct plot_devices_series *se = &s->series[i];
		for (k = 0; k < se->n_points; k++) {
			const struct plot_point *pt = &se->points[k];
			/* the ideal line needs positive counts and values */
			if (!isfinite(pt->x) || !isfinite(pt->y) || !(pt->x > 0) || !(pt->y > 0) ||
			    (logx && !(pt->x > 0)) || (logy && !(pt->y > 0)))
				return ab_fail(err, AB_EDATA,
					       "device scaling chart: point (%g, %g) of '%s' "
					       "cannot be shown",
					       pt->x, pt->y, plot_str(se->system));
			have++;
		}
	}
	if (!have)
		return ab_fail(err, AB_EDATA,
			       "nothing to plot: the device scaling chart has no points");
	return 0;
}

/* 1 when every series' ideal line is the same line (same first point). */
static int shared_ideal(const struct plot_devices_spec *s)
{
	const struct plot_point *f0 = NULL;
	size_t i;

	for (i = 0; i < s->n_series; i++) {
		const struct plot_point *f = first_point(&s->series[i]);
		if (!f)
			continue;
		if (!f0)
			f0 = f;
		else if (fabs(f->y / f->x - f0->y / f0->x) > 1e-9 * fabs(f0->y / f0->x))
			return 0;
	}
	return 1;
}

static void ideal_line(struct plot_ctx *c, const struct plot_xy *xy, const struct plot_point *f,
		       struct plot_rgb col, double alpha, struct plot_boxes *boxes)
{
	double x0 = xy->x.lo, x1 = xy->x.hi;
	double px0 = plot_xy_px(xy, x0), py0 = plot_xy_py(xy, f->y * x0 / f->x);
	double px1 = plot_xy_px(xy, x1), py1 = plot_xy_py(xy, f->y * x1 / f->x);

	if (boxes) {
		plot_boxes_add_segment(boxes, px0, py0, px1, py1, 2);
		return;
	}
	cairo_save(c->cr);
	plot_dash(c->cr, 5, 3);
	cairo_new_path(c->cr);
	cairo_move_to(c->cr, px0, py0);
	cairo_line_to(c->cr, px1, py1);
	cairo_set_line_width(c->cr, 1.3);
	plot_set_rgb(c->cr, col, alpha);
	cairo_stroke(c->cr);
	cairo_restore(c->cr);
}

static int cmp_point_x(const void *a, const void *b)
{
	const struct plot_point *p = a, *q = b;
	return (p->x > q->x) - (p->x < q->x);
}

/* Points of one panel (eff = 1: efficiency) drawn, or their boxes added. */
static void series(struct plot_ctx *c, const struct plot_devices_spec *s,
		   const struct plot_palette *pal, const struct plot_xy *xy, int eff, int shared,
		   struct plot_boxes *boxes)
{
	size_t i, k;

	if (!eff) {
		/* shared: one grey line, through the first series with points */
		for (i = 0; i < s->n_series; i++) {
			const struct plot_point *f = first_point(&s->series[i]);
			struct plot_style st;

			if (!f)
				continue;
			if (shared) {
				ideal_line(c, xy, f, PLOT_INK3, 1, boxes);
				break;
			}
			plot_palette_style(pal, s->series[i].system, s->series[i].vendor, &st);
			ideal_line(c, xy, f, st.color, 0.55, boxes);
		}
	} else if (100 >= xy->y.lo && 100 <= xy->y.hi) {
		double y = plot_xy_py(xy, 100);
		if (boxes) {
			plot_boxes_add_segment(boxes, xy->plot.x, y, xy->plot.x + xy->plot.w, y, 2);
		} else {
			cairo_save(c->cr);
			plot_dash(c->cr, 5, 3);
			plot_hline(c->cr, xy->plot.x, xy->plot.x + xy->plot.w, y, 1.3, PLOT_INK3,
				   1);
			cairo_restore(c->cr);
		}
	}
	for (i = 0; i < s->n_series; i++) {
		const struct plot_devices_series *se = &s->series[i];
		struct plot_point *pts = ab_calloc(se->n_points ? se->n_points : 1, sizeof(*pts));
		struct plot_style st;

		plot_palette_style(pal, se->system, se->vendor, &st);
		for (k = 0; k < se->n_points; k++) {
			pts[k] = se->points[k];
			if (eff) {
				pts[k].lo = isfinite(pts[k].lo)
						    ? efficiency(se, pts[k].x, pts[k].lo)
						    : NAN;
				pts[k].hi = isfinite(pts[k].hi)
						    ? efficiency(se, pts[k].x, pts[k].hi)
						    : NAN;
				pts[k].y = efficiency(se, pts[k].x, pts[k].y);
			}
		}
		qsort(pts, se->n_points, sizeof(*pts), cmp_point_x);
		/* the measured line, then whiskers and markers */
		if (!boxes && se->n_points > 1) {
			cairo_new_path(c->cr);
			for (k = 0; k < se->n_points; k++) {
				double x = plot_xy_px(xy, pts[k].x), y = plot_xy_py(xy, pts[k].y);
				if (k)
					cairo_line_to(c->cr, x, y);
				else
					cairo_move_to(c->cr, x, y);
			}
			cairo_set_line_width(c->cr, 1.7);
			cairo_set_line_join(c->cr, CAIRO_LINE_JOIN_ROUND);
			plot_set_rgb(c->cr, st.color, 0.9);
			cairo_stroke(c->cr);
		}
		for (k = 0; k < se->n_points; k++) {
			double x = plot_xy_px(xy, pts[k].x), y = plot_xy_py(xy, pts[k].y);
			double r = PLOT_MARKER_R + 1.5;
			if (boxes) {
				plot_boxes_add(boxes, plot_rect_around(x, y, r));
				if (k)
					plot_boxes_add_segment(boxes, plot_xy_px(xy, pts[k - 1].x),
							       plot_xy_py(xy, pts[k - 1].y), x, y,
							       2);
				continue;
			}
			if (isfinite(pts[k].lo) && isfinite(pts[k].hi))
				plot_whisker(c->cr, x, plot_xy_py(xy, pts[k].lo),
					     plot_xy_py(xy, pts[k].hi), 2.5, 1.0, st.color);
			plot_marker(c->cr, st.marker, x, y, PLOT_MARKER_R, st.color, 1, 0);
		}
		free(pts);
	}
}

/* Lines end at the plot's edge; markers on it may stick out a little. */
static void draw_clipped(struct plot_ctx *c, const struct plot_devices_spec *s,
			 const struct plot_palette *pal, const struct plot_xy *xy, int eff,
			 int shared)
{
	cairo_save(c->cr);
	cairo_new_path(c->cr);
	cairo_rectangle(c->cr, xy->plot.x - 8, xy->plot.y, xy->plot.w + 16, xy->plot.h + 8);
	cairo_clip(c->cr);
	series(c, s, pal, xy, eff, shared, NULL);
	cairo_restore(c->cr);
}

/* The points' labels on the speedup panel, clear of markers, lines, the
 * legend and each other; returns how many found no free spot (left out,
 * never overprinted). */
static size_t point_labels(struct plot_ctx *c, const struct plot_devices_spec *s,
			   const struct plot_palette *pal, const struct plot_xy *xy, int shared,
			   const struct plot_rect *legend)
{
	struct plot_font f = { PLOT_SZ_LABEL - 0.5, 0, 0, PLOT_INK2, 0, 0, 1 };
	struct plot_boxes b;
	size_t i, k, dropped = 0;

	plot_boxes_init(&b);
	series(c, s, pal, xy, 0, shared, &b);
	if (legend)
		plot_boxes_add(&b, *legend);
	/* the ends of the series first: the smallest and largest counts
	 * orient the reader, then the points between */
	for (i = 0; i < s->n_series; i++) {
		const struct plot_devices_series *se = &s->series[i];
		struct plot_style st;
		plot_palette_style(pal, se->system, se->vendor, &st);
		/* in the series' colour, darkened to stay legible */
		f.color = plot_mix(st.color, PLOT_INK, 0.35);
		for (k = 0; se->labels && k < se->n_points; k++) {
			const struct plot_point *p = &se->points[k];
			if (!se->labels[k] || !*se->labels[k])
				continue;
			if (!plot_place_label(c, &f, se->labels[k], plot_xy_px(xy, p->x),
					      plot_xy_py(xy, p->y), PLOT_MARKER_R + 3, xy->plot, &b))
				dropped++;
		}
	}
	if (dropped) {
		/* say so, rather than print labels over each other: in a free
		 * corner of the plot, else above it */
		struct plot_font nf = { PLOT_SZ_LABEL - 0.5, 0, 1, PLOT_INK3, 0, 0, 1 };
		struct strbuf note = STRBUF_INIT;
		struct plot_legend one;
		double nx, ny, w, h;
		strbuf_addf(&note, "%zu point label%s left out: no free room", dropped,
			    dropped == 1 ? "" : "s");
		plot_text_extent(c, &nf, note.buf, &w, &h);
		memset(&one, 0, sizeof(one));
		one.n = 1;
		one.w = w;
		one.h = h;
		if (plot_legend_place(&one, xy->plot, &b, &nx, &ny))
			plot_text_draw(c, &nf, note.buf, nx, ny, 0, 0, 0);
		else
			plot_text_draw(c, &nf, note.buf, xy->plot.x + xy->plot.w, xy->plot.y - 2, 1, 1,
				       0);
		strbuf_release(&note);
	}
	plot_boxes_release(&b);
	return dropped;
}

int plot_devices_render(struct plot_ctx *c, struct plot_rect area,
			const struct plot_devices_spec *s, struct strbuf *err)
{
	struct plot_sys *sys;
	const struct plot_palette *pal;
	struct plot_xy sp, ef;
	struct plot_legend leg;
	struct plot_boxes bs, be;
	struct plot_rect reg = area, rs, re;
	struct strbuf xt = STRBUF_INIT, yt = STRBUF_INIT, et = STRBUF_INIT;
	double xlo = HUGE_VAL, xhi = -HUGE_VAL, ylo = HUGE_VAL, yhi = -HUGE_VAL;
	double ehi = 100, lx = 0, ly = 0;
	size_t i, k;
	int rc, shared, placed, two = !s->no_efficiency, pass;

	if ((rc = validate(s, err)) < 0)
		return rc;
	shared = shared_ideal(s);
	sys = ab_calloc(s->n_series, sizeof(*sys));
	for (i = 0; i < s->n_series; i++) {
		const struct plot_devices_series *se = &s->series[i];
		sys[i].name = se->system;
		sys[i].vendor = se->vendor;
		for (k = 0; k < se->n_points; k++) {
			const struct plot_point *pt = &se->points[k];
			double e = efficiency(se, pt->x, pt->y);
			xlo = fmin(xlo, pt->x);
			xhi = fmax(xhi, pt->x);
			ylo = fmin(ylo,
				   isfinite(pt->lo) && pt->lo > 0 ? fmin(pt->lo, pt->y) : pt->y);
			yhi = fmax(yhi, isfinite(pt->hi) ? fmax(pt->hi, pt->y) : pt->y);
			ehi = fmax(ehi, isfinite(pt->hi) ? efficiency(se, pt->x, pt->hi) : e);
		}
		if (se->n_points) /* the ideal line must fit too */
			yhi = fmax(yhi, first_point(se)->y * xhi / first_point(se)->x);
	}
	pal = plot_ctx_palette(c, s->palette, sys, s->n_series);

	plot_frame_header(c, &s->labels, NULL, &reg);
	plot_frame_caption(c, s->labels.caption, DEFAULT_CAPTION, &reg);
	plot_axis_title(&xt, s->labels.x_title, s->labels.x_unit, "Devices", NULL);
	plot_axis_title(&yt, s->labels.y_title, s->labels.y_unit, NULL, NULL);
	plot_axis_title(&et, s->eff_title, "%", "Parallel efficiency", NULL);

	plot_legend_init(&leg);
	for (i = 0; i < s->n_series; i++) {
		struct plot_style st;
		plot_palette_style(pal, s->series[i].system, s->series[i].vendor, &st);
		plot_legend_add(&leg, s->series[i].system, PLOT_SWATCH_LINE_MARKER, st.color,
				st.marker);
	}
	plot_legend_add(&leg, shared ? "ideal (linear)" : "ideal (linear, per system)",
			PLOT_SWATCH_DASH, PLOT_INK3, PLOT_MARKER_CIRCLE);

	memset(&sp, 0, sizeof(sp));
	sp.xs = s->x_scale == PLOT_SCALE_AUTO ? PLOT_SCALE_LOG2 : s->x_scale;
	sp.ys = s->y_scale == PLOT_SCALE_AUTO ? PLOT_SCALE_LOG2 : s->y_scale;
	sp.x_flags = PLOT_AXIS_PAD;
	sp.y_flags = plot_scale_is_log(sp.ys) ? PLOT_AXIS_PAD : PLOT_AXIS_PAD | PLOT_AXIS_ZERO;
	sp.x_lo = xlo;
	sp.x_hi = xhi;
	sp.y_lo = ylo;
	sp.y_hi = yhi;
	sp.x_title = xt.buf;
	sp.y_title = yt.buf;
	ef = sp;
	ef.ys = PLOT_SCALE_LINEAR;
	ef.y_flags = PLOT_AXIS_ZERO;
	ef.y_lo = 0;
	ef.y_hi = fmax(ehi * 1.04, 108);
	ef.y_title = et.buf;

	plot_boxes_init(&bs);
	plot_boxes_init(&be);
	placed = 0;
	for (pass = 0; pass < 2; pass++) {
		rs = reg;
		if (two) {
			rs.w = (reg.w - PANEL_GAP) * 0.56;
			re = reg;
			re.x = reg.x + rs.w + PANEL_GAP;
			re.w = reg.w - rs.w - PANEL_GAP;
			plot_xy_layout(c, &ef, re);
		}
		plot_xy_layout(c, &sp, rs);
		if (pass)
			break;
		/* the legend in a free corner of either panel, else above both */
		series(c, s, pal, &sp, 0, shared, &bs);
		plot_legend_layout(c, &leg, sp.plot.w * 0.6, 1);
		placed = plot_legend_place(&leg, sp.plot, &bs, &lx, &ly);
		if (!placed && two) {
			series(c, s, pal, &ef, 1, shared, &be);
			placed = plot_legend_place(&leg, ef.plot, &be, &lx, &ly);
		}
		if (placed)
			break;
		{
			double h = plot_frame_legend_top(c, &leg, reg.w);
			lx = reg.x;
			ly = reg.y;
			reg.y += h + 4;
			reg.h -= h + 4;
		}
	}
	if ((rc = plot_check_fit(sp.plot, "device scaling", err)) < 0 ||
	    (two && (rc = plot_check_fit(ef.plot, "device scaling", err)) < 0))
		goto done;
	plot_xy_grid(c, &sp);
	plot_xy_axes(c, &sp);
	draw_clipped(c, s, pal, &sp, 0, shared);
	if (two) {
		plot_xy_grid(c, &ef);
		plot_xy_axes(c, &ef);
		draw_clipped(c, s, pal, &ef, 1, shared);
	}
	plot_legend_draw(c, &leg, lx, ly);
	{
		struct plot_rect lr = { lx, ly, leg.w, leg.h };
		point_labels(c, s, pal, &sp, shared, placed ? &lr : NULL);
	}
done:
	plot_boxes_release(&bs);
	plot_boxes_release(&be);
	plot_legend_release(&leg);
	strbuf_release(&xt);
	strbuf_release(&yt);
	strbuf_release(&et);
	free(sys);
	return rc;
}
