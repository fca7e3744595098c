/*
 * batch.c - throughput vs global batch size (log2 x): per system the
 * measured points with CI whiskers, the fitted saturation curve
 * X(b) = Xmax b / (b + b_half), its knee as a ring on the curve, and the
 * batch sizes that failed or ran out of memory as hollow markers on the
 * x axis.  The legend goes inside the plot where it covers nothing.
 */
#include "plots/plot_priv.h"

#define DEFAULT_CAPTION \
	"Points: median with 95 % CI. Lines: saturation fit X(b) = Xmax·b/(b + b½). " \
	"Ring: knee (90 % of Xmax). Hollow markers on the axis: failed or out of memory."
#define CURVE_STEPS 160
#define KNEE_R 7.5
#define FAIL_STEP 9.0

static int validate(const struct plot_batch_spec *s, struct strbuf *err)
{
	size_t i, k, have = 0;
	int logx = s->x_scale == PLOT_SCALE_AUTO || plot_scale_is_log(s->x_scale);
	int rc;

	if (!s->n_series)
		return ab_fail(err, AB_EDATA,
			       "nothing to plot: the batch scaling chart has no systems");
	if ((rc = plot_need_title(s->labels.y_title, "batch scaling", "y", err)) < 0)
		return rc;
	for (i = 0; i < s->n_series; i++) {
		const struct plot_batch_series *se = &s->series[i];
		const char *name = plot_str(se->system);
		for (k = 0; k < se->n_points; k++) {
			const struct plot_point *pt = &se->points[k];
			if (!isfinite(pt->x) || !isfinite(pt->y) || (logx && !(pt->x > 0)))
				return ab_fail(err, AB_EDATA,
					       "batch scaling chart: point (%g, %g) of '%s' cannot "
					       "be shown",
					       pt->x, pt->y, name);
			have++;
		}
		for (k = 0; k < se->n_failed; k++)
			if (!isfinite(se->failed[k]) || (logx && !(se->failed[k] > 0)))
				return ab_fail(err, AB_EDATA,
					       "batch scaling chart: failed batch size %g of '%s' "
					       "cannot be shown",
					       se->failed[k], name);
	}
	if (!have)
		return ab_fail(err, AB_EDATA, "nothing to plot: no batch size of any system ran");
	return 0;
}

static double fit_at(const struct plot_batch_series *se, double b)
{
	return se->xmax * b / (b + se->bhalf);
}

static int has_fit(const struct plot_batch_series *se)
{
	return isfinite(se->xmax) && isfinite(se->bhalf) && se->xmax > 0 && se->bhalf > 0;
}

/* How many series before i also failed at batch size b (to stack markers). */
static size_t fail_slot(const struct plot_batch_spec *s, size_t i, double b)
{
	size_t j, k, n = 0;

	for (j = 0; j < i; j++)
		for (k = 0; k < s->series[j].n_failed; k++)
			if (s->series[j].failed[k] == b) {
				n++;
				break;
			}
	return n;
}

/* The fitted curve over the whole x range, drawn or (boxes) recorded. */
static void curve(struct plot_ctx *c, const struct plot_batch_series *se, struct plot_rgb col,
		  const struct plot_xy *xy, struct plot_boxes *boxes)
{
	double lx0 = log(xy->x.lo), lx1 = log(xy->x.hi), px = 0, py = 0;
	int j;

	cairo_new_path(c->cr);
	for (j = 0; j <= CURVE_STEPS; j++) {
		double b = exp(lx0 + (lx1 - lx0) * j / CURVE_STEPS);
		double x = plot_xy_px(xy, b), y = plot_xy_py(xy, fit_at(se, b));

		if (boxes && j)
			plot_boxes_add_segment(boxes, px, py, x, y, 2);
		else if (!boxes && j)
			cairo_line_to(c->cr, x, y);
		else if (!boxes)
			cairo_move_to(c->cr, x, y);
		px = x;
		py = y;
	}
	if (boxes)
		return;
	cairo_set_line_width(c->cr, 1.7);
	cairo_set_line_join(c->cr, CAIRO_LINE_JOIN_ROUND);
	plot_set_rgb(c->cr, col, 0.9);
	cairo_stroke(c->cr);
}

/* Without a fit: the points joined by a thin dashed line, in batch order. */
static void joined(struct plot_ctx *c, const struct plot_batch_series *se, struct plot_rgb col,
		   const struct plot_xy *xy, struct plot_boxes *boxes)
{
	size_t k;

	for (k = 1; k < se->n_points; k++) {
		double x0 = plot_xy_px(xy, se->points[k - 1].x);
		double y0 = plot_xy_py(xy, se->points[k - 1].y);
		double x1 = plot_xy_px(xy, se->points[k].x), y1 = plot_xy_py(xy, se->points[k].y);

		if (boxes) {
			plot_boxes_add_segment(boxes, x0, y0, x1, y1, 2);
			continue;
		}
		cairo_save(c->cr);
		plot_dash(c->cr, 3, 2);
		cairo_new_path(c->cr);
		cairo_move_to(c->cr, x0, y0);
		cairo_line_to(c->cr, x1, y1);
		cairo_set_line_width(c->cr, 1.2);
		plot_set_rgb(c->cr, col, 0.8);
		cairo_stroke(c->cr);
		cairo_restore(c->cr);
	}
}

/* Measured points with their CI whiskers, and the knee ring. */
static void points(struct plot_ctx *c, const struct plot_batch_series *se,
		   const struct plot_style *st, const struct plot_xy *xy, struct plot_boxes *boxes)
{
	size_t k;

	for (k = 0; k < se->n_points; k++) {
		const struct plot_point *pt = &se->points[k];
		double x = plot_xy_px(xy, pt->x), y = plot_xy_py(xy, pt->y);
		double ylo = y, yhi = y, r = PLOT_MARKER_R + 1.5;

		if (isfinite(pt->lo) && isfinite(pt->hi)) {
			ylo = plot_xy_py(xy, pt->lo);
			yhi = plot_xy_py(xy, pt->hi);
		}
		if (boxes) {
			struct plot_rect box = plot_rect_around(x, y, r);
			box.y = fmin(box.y, fmin(ylo, yhi));
			box.h = fmax(2 * r, fabs(ylo - yhi) + 2 * r);
			plot_boxes_add(boxes, box);
			continue;
		}
		if (ylo != yhi)
			plot_whisker(c->cr, x, ylo, yhi, 2.5, 1.0, st->color);
		plot_marker(c->cr, st->marker, x, y, PLOT_MARKER_R, st->color, 1, 0);
	}
	if (has_fit(se) && isfinite(se->knee) && se->knee >= xy->x.lo && se->knee <= xy->x.hi) {
		double x = plot_xy_px(xy, se->knee), y = plot_xy_py(xy, fit_at(se, se->knee));

		if (boxes) {
			plot_boxes_add(boxes, plot_rect_around(x, y, KNEE_R + 1));
			return;
		}
		cairo_new_path(c->cr);
		cairo_arc(c->cr, x, y, KNEE_R, 0, 2 * PLOT_PI);
		cairo_set_line_width(c->cr, 1.4);
		plot_set_rgb(c->cr, st->color, 1);
		cairo_stroke(c->cr);
	}
}

/* Failed batch sizes: hollow markers standing on the x axis, stacked
 * when several systems failed at the same size. */
static void failures(struct plot_ctx *c, const struct plot_batch_spec *s, size_t i,
		     const struct plot_style *st, const struct plot_xy *xy,
		     struct plot_boxes *boxes)
{
	const struct plot_batch_series *se = &s->series[i];
	double bottom = xy->plot.y + xy->plot.h;
	size_t k;

	for (k = 0; k < se->n_failed; k++) {
		double x = plot_xy_px(xy, se->failed[k]);
		double y = bottom - PLOT_MARKER_R - 2 -
			   FAIL_STEP * (double)fail_slot(s, i, se->failed[k]);

		if (boxes)
			plot_boxes_add(boxes, plot_rect_around(x, y, 6));
		else
			plot_marker(c->cr, st->marker, x, y, PLOT_MARKER_R, st->color, 1, 1);
	}
}

/* Every series, drawn, or (boxes not NULL) only recorded: curves under
 * points, points under the failure markers. */
static void data(struct plot_ctx *c, const struct plot_batch_spec *s,
		 const struct plot_palette *pal, const struct plot_xy *xy, struct plot_boxes *boxes)
{
	struct plot_style st;
	size_t i;

	for (i = 0; i < s->n_series; i++) {
		plot_palette_style(pal, s->series[i].system, s->series[i].vendor, &st);
		if (has_fit(&s->series[i]))
			curve(c, &s->series[i], st.color, xy, boxes);
		else
			joined(c, &s->series[i], st.color, xy, boxes);
	}
	for (i = 0; i < s->n_series; i++) {
		plot_palette_style(pal, s->series[i].system, s->series[i].vendor, &st);
		points(c, &s->series[i], &st, xy, boxes);
	}
	for (i = 0; i < s->n_series; i++) {
		plot_palette_style(pal, s->series[i].system, s->series[i].vendor, &st);
		failures(c, s, i, &st, xy, boxes);
	}
}

int plot_batch_render(struct plot_ctx *c, struct plot_rect area, const struct plot_batch_spec *s,
		      struct strbuf *err)
{
	struct plot_sys *sys;
	const struct plot_palette *pal;
	struct plot_xy xy;
	struct plot_legend leg;
	struct plot_boxes boxes;
	struct plot_rect reg = area;
	struct strbuf xt = STRBUF_INIT, yt = STRBUF_INIT;
	double xlo = HUGE_VAL, xhi = -HUGE_VAL, ylo = HUGE_VAL, yhi = -HUGE_VAL, lx = 0, ly = 0;
	size_t i, k;
	int rc, any_fail = 0, any_knee = 0, inside;

	if ((rc = validate(s, err)) < 0)
		return rc;
	sys = ab_calloc(s->n_series, sizeof(*sys));
	for (i = 0; i < s->n_series; i++) {
		const struct plot_batch_series *se = &s->series[i];
		sys[i].name = se->system;
		sys[i].vendor = se->vendor;
		for (k = 0; k < se->n_points; k++) {
			const struct plot_point *pt = &se->points[k];
			xlo = fmin(xlo, pt->x);
			xhi = fmax(xhi, pt->x);
			ylo = fmin(ylo, isfinite(pt->lo) ? fmin(pt->lo, pt->y) : pt->y);
			yhi = fmax(yhi, isfinite(pt->hi) ? fmax(pt->hi, pt->y) : pt->y);
		}
		for (k = 0; k < se->n_failed; k++) {
			xlo = fmin(xlo, se->failed[k]);
			xhi = fmax(xhi, se->failed[k]);
			any_fail = 1;
		}
		if (has_fit(se)) {
			yhi = fmax(yhi, fmin(se->xmax, fit_at(se, xhi * 1.5)));
			any_knee |= isfinite(se->knee);
		}
	}
	pal = plot_ctx_palette(c, s->palette, sys, s->n_series);

	plot_frame_header(c, &s->labels, NULL, &reg);
	plot_frame_caption(c, s->labels.caption, DEFAULT_CAPTION, &reg);
	plot_axis_title(&xt, s->labels.x_title, s->labels.x_unit, "Global batch size", NULL);
	plot_axis_title(&yt, s->labels.y_title, s->labels.y_unit, NULL, NULL);

	plot_legend_init(&leg);
	for (i = 0; i < s->n_series; i++) {
		struct plot_style st;
		plot_palette_style(pal, s->series[i].system, s->series[i].vendor, &st);
		plot_legend_add(&leg, s->series[i].label ? s->series[i].label : s->series[i].system,
				PLOT_SWATCH_LINE_MARKER, st.color,
				st.marker);
	}
	if (any_knee)
		plot_legend_add(&leg, "knee (90 % of Xmax)", PLOT_SWATCH_HOLLOW, PLOT_INK2,
				PLOT_MARKER_CIRCLE);
	if (any_fail)
		plot_legend_add(&leg, "failed / out of memory", PLOT_SWATCH_HOLLOW, PLOT_INK2,
				PLOT_MARKER_SQUARE);

	memset(&xy, 0, sizeof(xy));
	xy.xs = s->x_scale == PLOT_SCALE_AUTO ? PLOT_SCALE_LOG2 : s->x_scale;
	xy.ys = s->y_scale == PLOT_SCALE_AUTO ? PLOT_SCALE_LINEAR : s->y_scale;
	xy.x_flags = PLOT_AXIS_PAD;
	xy.y_flags = plot_scale_is_log(xy.ys) ? PLOT_AXIS_PAD : PLOT_AXIS_ZERO | PLOT_AXIS_PAD;
	xy.x_lo = xlo;
	xy.x_hi = xhi;
	xy.y_lo = plot_scale_is_log(xy.ys) ? ylo : 0;
	xy.y_hi = yhi;
	xy.x_title = xt.buf;
	xy.y_title = yt.buf;

	plot_boxes_init(&boxes);
	plot_xy_layout(c, &xy, reg);
	data(c, s, pal, &xy, &boxes);
	plot_legend_layout(c, &leg, xy.plot.w * 0.45, 1);
	inside = plot_legend_place(&leg, xy.plot, &boxes, &lx, &ly);
	if (!inside) {
		double h = plot_frame_legend_top(c, &leg, reg.w);
		lx = reg.x;
		ly = reg.y;
		reg.y += h + 4;
		reg.h -= h + 4;
		plot_xy_layout(c, &xy, reg);
	}
	if ((rc = plot_check_fit(xy.plot, "batch scaling", err)) < 0)
		goto done;
	plot_xy_grid(c, &xy);
	plot_xy_axes(c, &xy);
	cairo_save(c->cr);
	cairo_new_path(c->cr);
	cairo_rectangle(c->cr, xy.plot.x - 8, xy.plot.y - 8, xy.plot.w + 16, xy.plot.h + 8);
	cairo_clip(c->cr);
	data(c, s, pal, &xy, NULL);
	cairo_restore(c->cr);
	plot_legend_draw(c, &leg, lx, ly);
done:
	plot_boxes_release(&boxes);
	plot_legend_release(&leg);
	strbuf_release(&xt);
	strbuf_release(&yt);
	free(sys);
	return rc;
}
