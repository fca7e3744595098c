/*
 * power.c - watts over time, one line per device, with the run's start and
 * stop marked and the time outside the run shaded.  Long traces are
 * reduced to the minimum and maximum per half unit of width, which draws
 * the same picture with bounded SVG/PDF size.
 */
#include "plots/plot_priv.h"

static const struct plot_font mark_font = { .size = PLOT_SZ_SMALL,
					    .color = PLOT_RGB_INK2,
					    .halo = 1 };

static int validate(const struct plot_power_spec *s, struct strbuf *err)
{
	size_t i, k, have = 0;

	if (!s->n_series)
		return ab_fail(err, AB_EDATA, "nothing to plot: the power chart has no devices");
	for (i = 0; i < s->n_series; i++) {
		const struct plot_power_series *se = &s->series[i];
		for (k = 0; k < se->n; k++) {
			if (!isfinite(se->t[k]) || !isfinite(se->watts[k]))
				return ab_fail(err, AB_EDATA,
					       "power chart: sample %zu of '%s' is not a number",
					       k + 1, plot_str(se->device));
			if (k && se->t[k] < se->t[k - 1])
				return ab_fail(
					err, AB_EDATA,
					"power chart: time goes backwards at sample %zu of '%s'",
					k + 1, plot_str(se->device));
			have++;
		}
	}
	if (!have)
		return ab_fail(err, AB_EDATA, "nothing to plot: the power chart has no samples");
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A pause between samples longer than this is a gap in the record: the
 * line breaks there instead of drawing power nobody measured.  Five
 * times the median sampling interval; HUGE_VAL for short traces. */
static double gap_limit(const struct plot_power_series *se)
{
	double *dt, m;
	size_t k;

	if (se->n < 4)
		return HUGE_VAL;
	dt = ab_calloc(se->n - 1, sizeof(*dt));
	for (k = 1; k < se->n; k++)
		dt[k - 1] = se->t[k] - se->t[k - 1];
	qsort(dt, se->n - 1, sizeof(*dt), cmp_double);
	m = dt[(se->n - 1) / 2];
	free(dt);
	return m > 0 ? 5 * m : HUGE_VAL;
}

/* Visit the trace of se as device points: every sample when few, else the
 * first, min, max and last sample of each half-unit column in time order.
 * fn(ctx, x, y, first). */
static void trace(const struct plot_power_series *se, const struct plot_xy *xy, double t0,
		  double tdiv, void (*fn)(void *ctx, double x, double y, int first), void *ctx)
{
	size_t k, start = 0;
	int first = 1;
	double gap = gap_limit(se), last = NAN;

	if (se->n <= (size_t)(4 * xy->plot.w)) {
		for (k = 0; k < se->n; k++) {
			if (k && se->t[k] - se->t[k - 1] > gap)
				first = 1;
			fn(ctx, plot_xy_px(xy, (se->t[k] - t0) / tdiv),
			   plot_xy_py(xy, se->watts[k]), first);
			first = 0;
		}
		return;
	}
	while (start < se->n) {
		double col = floor(plot_xy_px(xy, (se->t[start] - t0) / tdiv) * 2);
		size_t end = start, lo = start, hi = start, idx[4];
		int m, j;

		while (end < se->n && floor(plot_xy_px(xy, (se->t[end] - t0) / tdiv) * 2) == col) {
			if (se->watts[end] < se->watts[lo])
				lo = end;
			if (se->watts[end] > se->watts[hi])
				hi = end;
			end++;
		}
		idx[0] = start;
		idx[1] = lo < hi ? lo : hi;
		idx[2] = lo < hi ? hi : lo;
		idx[3] = end - 1;
		for (m = 0; m < 4; m++) {
			for (j = 0; j < m; j++)
				if (idx[j] == idx[m])
					break;
			if (j < m)
				continue;
			if (isfinite(last) && se->t[idx[m]] - last > gap)
				first = 1;
			last = se->t[idx[m]];
			fn(ctx, plot_xy_px(xy, (se->t[idx[m]] - t0) / tdiv),
			   plot_xy_py(xy, se->watts[idx[m]]), first);
			first = 0;
		}
		start = end;
	}
}

struct box_ctx {
	struct plot_boxes *b;
	double px, py;
};

static void to_boxes(void *ctx, double x, double y, int first)
{
	struct box_ctx *bc = ctx;

	if (!first)
		plot_boxes_add_segment(bc->b, bc->px, bc->py, x, y, 1.5);
	bc->px = x;
	bc->py = y;
}

static void to_path(void *ctx, double x, double y, int first)
{
	cairo_t *cr = ctx;

	if (first)
		cairo_move_to(cr, x, y);
	else
		cairo_line_to(cr, x, y);
}

int plot_power_render(struct plot_ctx *c, struct plot_rect area, const struct plot_power_spec *s,
		      struct strbuf *err)
{
	struct plot_xy xy;
	struct plot_legend leg;
	struct plot_boxes boxes;
	struct plot_rect reg = area;
	struct strbuf xt = STRBUF_INIT, yt = STRBUF_INIT;
	double t0, tmin = HUGE_VAL, tmax = -HUGE_VAL, wmax = 0, tdiv = 1, lx = 0, ly = 0;
	size_t i, k;
	int rc, pass, have_mark = 0;
	struct plot_rect mark = { 0, 0, 0, 0 };

	if ((rc = validate(s, err)) < 0)
		return rc;
	for (i = 0; i < s->n_series; i++) {
		const struct plot_power_series *se = &s->series[i];
		for (k = 0; k < se->n; k++)
			wmax = fmax(wmax, se->watts[k]);
		if (se->n) {
			tmin = fmin(tmin, se->t[0]);
			tmax = fmax(tmax, se->t[se->n - 1]);
		}
	}
	if (isfinite(s->run_start)) {
		tmin = fmin(tmin, s->run_start);
		tmax = fmax(tmax, s->run_start);
	}
	if (isfinite(s->run_stop)) {
		tmin = fmin(tmin, s->run_stop);
		tmax = fmax(tmax, s->run_stop);
	}
	t0 = isfinite(s->t0) ? s->t0 : (isfinite(s->run_start) ? s->run_start : tmin);
	/* long runs read better in minutes */
	if (tmax - tmin > 1800)
		tdiv = 60;

	plot_frame_header(c, &s->labels, NULL, &reg);
	plot_frame_caption(c, s->labels.caption, "", &reg);
	plot_axis_title(&xt, s->labels.x_title, s->labels.x_unit,
			isfinite(s->run_start) && t0 == s->run_start ? "Time since run start"
								     : "Time",
			tdiv == 60 ? "min" : "s");
	plot_axis_title(&yt, s->labels.y_title, s->labels.y_unit, "Power", "W");
	plot_legend_init(&leg);
	for (i = 0; i < s->n_series; i++)
		plot_legend_add(&leg, s->series[i].device, PLOT_SWATCH_LINE, plot_qualitative(i),
				PLOT_MARKER_CIRCLE);

	memset(&xy, 0, sizeof(xy));
	xy.xs = PLOT_SCALE_LINEAR;
	xy.ys = PLOT_SCALE_LINEAR;
	xy.x_flags = 0;
	xy.y_flags = PLOT_AXIS_ZERO | PLOT_AXIS_PAD;
	xy.x_lo = (tmin - t0) / tdiv;
	xy.x_hi = (tmax - t0) / tdiv;
	xy.y_lo = 0;
	xy.y_hi = wmax;
	xy.x_title = xt.buf;
	xy.y_title = yt.buf;

	plot_boxes_init(&boxes);
	for (pass = 0; pass < 2; pass++) {
		struct box_ctx bc = { &boxes, 0, 0 };
		plot_xy_layout(c, &xy, reg);
		if (pass)
			break;
		for (i = 0; i < s->n_series; i++)
			trace(&s->series[i], &xy, t0, tdiv, to_boxes, &bc);
		for (k = 0; k < 2; k++) { /* the start/stop lines and their names */
			double t = k ? s->run_stop : s->run_start, x;
			if (!isfinite(t))
				continue;
			x = plot_xy_px(&xy, (t - t0) / tdiv);
			/* the line, and its name on either side at the top */
			plot_boxes_add_segment(&boxes, x, xy.plot.y, x, xy.plot.y + xy.plot.h, 2);
			plot_boxes_add(&boxes, (struct plot_rect){ x - 64, xy.plot.y, 128, 30 });
		}
		plot_legend_layout(c, &leg, xy.plot.w * 0.9, 4);
		if (plot_legend_place(&leg, xy.plot, &boxes, &lx, &ly))
			break;
		{
			double h = plot_frame_legend_top(c, &leg, reg.w);
			lx = reg.x;
			ly = reg.y;
			reg.y += h + 4;
			reg.h -= h + 4;
		}
	}

	if ((rc = plot_check_fit(xy.plot, "power", err)) < 0)
		goto done;
	/* outside the run: shaded */
	if (isfinite(s->run_start) || isfinite(s->run_stop)) {
		double a = isfinite(s->run_start) ? plot_xy_px(&xy, (s->run_start - t0) / tdiv)
						  : xy.plot.x;
		double b = isfinite(s->run_stop) ? plot_xy_px(&xy, (s->run_stop - t0) / tdiv)
						 : xy.plot.x + xy.plot.w;
		cairo_new_path(c->cr);
		cairo_rectangle(c->cr, xy.plot.x, xy.plot.y, a - xy.plot.x, xy.plot.h);
		cairo_rectangle(c->cr, b, xy.plot.y, xy.plot.x + xy.plot.w - b, xy.plot.h);
		plot_set_rgb(c->cr, PLOT_GRID_MINOR, 1.0);
		cairo_fill(c->cr);
	}
	plot_xy_grid(c, &xy);
	plot_xy_axes(c, &xy);
	cairo_save(c->cr);
	cairo_new_path(c->cr);
	cairo_rectangle(c->cr, xy.plot.x, xy.plot.y - 4, xy.plot.w, xy.plot.h + 4);
	cairo_clip(c->cr);
	for (i = 0; i < s->n_series; i++) {
		cairo_new_path(c->cr);
		trace(&s->series[i], &xy, t0, tdiv, to_path, c->cr);
		cairo_set_line_width(c->cr, 1.2);
		cairo_set_line_join(c->cr, CAIRO_LINE_JOIN_ROUND);
		plot_set_rgb(c->cr, plot_qualitative(i), 0.9);
		cairo_stroke(c->cr);
	}
	cairo_restore(c->cr);
	for (k = 0; k < 2; k++) {
		double t = k ? s->run_stop : s->run_start, x;
		if (!isfinite(t))
			continue;
		x = plot_xy_px(&xy, (t - t0) / tdiv);
		cairo_save(c->cr);
		plot_dash(c->cr, 4, 3);
		plot_vline(c->cr, x, xy.plot.y, xy.plot.y + xy.plot.h, 1.1, PLOT_INK2, 1);
		cairo_restore(c->cr);
		/* outside the run, next to its line, unless that leaves the plot;
		 * a second row when the run is too short for both names */
		{
			const char *name = k ? "run stop" : "run start";
			double w, h, ty = xy.plot.y + 2;
			int right = k;
			struct plot_rect r;
			plot_text_extent(c, &mark_font, name, &w, &h);
			if (right && x + 3 + w > xy.plot.x + xy.plot.w)
				right = 0;
			else if (!right && x - 3 - w < xy.plot.x)
				right = 1;
			r = plot_text_box(c, &mark_font, name, x + (right ? 3 : -3), ty, right ? 0 : 1,
					  0, 0);
			if (k && have_mark && plot_rect_overlap(plot_rect_grow(r, 2), mark)) {
				ty += h + 2;
				r.y += h + 2;
			}
			plot_text_draw(c, &mark_font, name, x + (right ? 3 : -3), ty, right ? 0 : 1,
				       0, 0);
			mark = r;
			have_mark = 1;
		}
	}
	plot_legend_draw(c, &leg, lx, ly);
done:
	plot_boxes_release(&boxes);
	plot_legend_release(&leg);
	strbuf_release(&xt);
	strbuf_release(&yt);
	return rc;
}
