/*
 * pareto.c - throughput vs energy efficiency: one labelled point per
 * system, the Pareto front (points no other point beats on both axes)
 * drawn as the staircase that bounds what it dominates, dominated points
 * muted.  Labels are placed around their point where they cover no other
 * point, line or label.
 */
#include "plots/plot_priv.h"

#define DEFAULT_CAPTION \
	"Front: systems that no other system beats on both axes. Muted: dominated systems."
#define LABEL_OFF 7.0

static const struct plot_font front_font = {
	.size = PLOT_SZ_LABEL, .bold = 1, .color = PLOT_RGB_INK, .halo = 1
};
static const struct plot_font muted_font = { .size = PLOT_SZ_LABEL,
					     .color = PLOT_RGB_INK3,
					     .halo = 1 };

struct pt {
	const struct plot_pareto_point *p;
	double u, v; /* both "more is better" */
	int front;
};

static int validate(const struct plot_pareto_spec *s, struct strbuf *err)
{
	size_t i;
	int rc;

	if (!s->n_points)
		return ab_fail(err, AB_EDATA, "nothing to plot: the Pareto chart has no systems");
	if ((rc = plot_need_title(s->labels.x_title, "Pareto", "x", err)) < 0 ||
	    (rc = plot_need_title(s->labels.y_title, "Pareto", "y", err)) < 0)
		return rc;
	for (i = 0; i < s->n_points; i++) {
		const struct plot_pareto_point *p = &s->points[i];
		if (!isfinite(p->x) || !isfinite(p->y) ||
		    (plot_scale_is_log(s->x_scale) && !(p->x > 0)) ||
		    (plot_scale_is_log(s->y_scale) && !(p->y > 0)))
			return ab_fail(err, AB_EDATA,
				       "Pareto chart: point (%g, %g) of '%s' cannot be shown", p->x,
				       p->y, plot_str(p->system));
	}
	return 0;
}

static int cmp_u(const void *a, const void *b)
{
	const struct pt *p = *(const struct pt *const *)a, *q = *(const struct pt *const *)b;

	if (p->u != q->u)
		return p->u < q->u ? -1 : 1;
	return (p->v < q->v) - (p->v > q->v);
}

/* Mark the points no other point dominates (>= on both, > on one). */
static void find_front(struct pt *pts, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		pts[i].front = 1;
		for (j = 0; j < n && pts[i].front; j++)
			if (j != i && pts[j].u >= pts[i].u && pts[j].v >= pts[i].v &&
			    (pts[j].u > pts[i].u || pts[j].v > pts[i].v))
				pts[i].front = 0;
	}
}

static const char *label_of(const struct plot_pareto_point *p)
{
	return p->label && *p->label ? p->label : (plot_str(p->system));
}

/* The staircase through the front points (sorted by u): from each point
 * straight towards the worse v, then along to the next point. */
static void front_path(const struct plot_xy *xy, struct pt **fr, size_t nf, double *xs, double *ys,
		       size_t *n)
{
	size_t i;

	*n = 0;
	for (i = 0; i < nf; i++) {
		double x = plot_xy_px(xy, fr[i]->p->x), y = plot_xy_py(xy, fr[i]->p->y);
		if (i) {
			/* corner: this point's v-level at the previous point's u */
			xs[*n] = plot_xy_px(xy, fr[i - 1]->p->x);
			ys[*n] = y;
			(*n)++;
		}
		xs[*n] = x;
		ys[*n] = y;
		(*n)++;
	}
}

int plot_pareto_render(struct plot_ctx *c, struct plot_rect area, const struct plot_pareto_spec *s,
		       struct strbuf *err)
{
	struct plot_sys *sys;
	const struct plot_palette *pal;
	struct pt *pts, **fr;
	struct plot_xy xy;
	struct plot_legend leg;
	struct plot_boxes boxes;
	struct plot_rect reg = area;
	struct strbuf xt = STRBUF_INIT, yt = STRBUF_INIT;
	double xlo = HUGE_VAL, xhi = -HUGE_VAL, ylo = HUGE_VAL, yhi = -HUGE_VAL, lx = 0, ly = 0;
	double *xs, *ys;
	size_t i, k, n = s->n_points, nf = 0, np = 0, dropped = 0;
	int rc, pass, any_dominated = 0;

	if ((rc = validate(s, err)) < 0)
		return rc;
	sys = ab_calloc(n, sizeof(*sys));
	pts = ab_calloc(n, sizeof(*pts));
	fr = ab_calloc(n, sizeof(*fr));
	xs = ab_calloc(2 * n, sizeof(*xs));
	ys = ab_calloc(2 * n, sizeof(*ys));
	for (i = 0; i < n; i++) {
		const struct plot_pareto_point *p = &s->points[i];
		sys[i].name = p->system;
		sys[i].vendor = p->vendor;
		pts[i].p = p;
		pts[i].u = s->x_lower_better ? -p->x : p->x;
		pts[i].v = s->y_lower_better ? -p->y : p->y;
		xlo = fmin(xlo, p->x);
		xhi = fmax(xhi, p->x);
		ylo = fmin(ylo, p->y);
		yhi = fmax(yhi, p->y);
	}
	find_front(pts, n);
	/* the view decided the front (views/pareto.c): draw that one */
	for (i = 0; i < n; i++)
		if (s->points[i].front != PLOT_FRONT_AUTO)
			pts[i].front = s->points[i].front == PLOT_FRONT_ON;
	for (i = 0; i < n; i++) {
		if (pts[i].front)
			fr[nf++] = &pts[i];
		else
			any_dominated = 1;
	}
	qsort(fr, nf, sizeof(*fr), cmp_u);
	pal = plot_ctx_palette(c, s->palette, sys, n);

	plot_frame_header(c, &s->labels, NULL, &reg);
	plot_frame_caption(c, s->labels.caption, DEFAULT_CAPTION, &reg);
	plot_axis_title(&xt, s->labels.x_title, s->labels.x_unit, NULL, NULL);
	plot_axis_title(&yt, s->labels.y_title, s->labels.y_unit, NULL, NULL);
	plot_legend_init(&leg);
	plot_legend_add(&leg, "Pareto front", PLOT_SWATCH_LINE, PLOT_INK2, PLOT_MARKER_CIRCLE);
	if (any_dominated)
		plot_legend_add(&leg, "dominated", PLOT_SWATCH_MARKER, PLOT_MUTED,
				PLOT_MARKER_CIRCLE);

	memset(&xy, 0, sizeof(xy));
	xy.xs = s->x_scale == PLOT_SCALE_AUTO ? PLOT_SCALE_LINEAR : s->x_scale;
	xy.ys = s->y_scale == PLOT_SCALE_AUTO ? PLOT_SCALE_LINEAR : s->y_scale;
	xy.x_flags = xy.y_flags = PLOT_AXIS_PAD;
	xy.x_lo = xlo;
	xy.x_hi = xhi;
	xy.y_lo = ylo;
	xy.y_hi = yhi;
	xy.x_title = xt.buf;
	xy.y_title = yt.buf;

	plot_boxes_init(&boxes);
	for (pass = 0; pass < 2; pass++) {
		plot_xy_layout(c, &xy, reg);
		plot_boxes_release(&boxes);
		plot_boxes_init(&boxes);
		for (i = 0; i < n; i++) {
			double x = plot_xy_px(&xy, pts[i].p->x), y = plot_xy_py(&xy, pts[i].p->y);
			plot_boxes_add(&boxes, plot_rect_around(x, y, 7));
		}
		front_path(&xy, fr, nf, xs, ys, &np);
		for (k = 1; k < np; k++)
			plot_boxes_add_segment(&boxes, xs[k - 1], ys[k - 1], xs[k], ys[k], 2);

		if (pass)
			break;
		plot_legend_layout(c, &leg, xy.plot.w * 0.5, 1);
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
	plot_boxes_add(&boxes, (struct plot_rect){ lx, ly, leg.w, leg.h });

	if ((rc = plot_check_fit(xy.plot, "Pareto", err)) < 0)
		goto done;
	plot_xy_grid(c, &xy);
	plot_xy_axes(c, &xy);
	/* the front under the points */
	if (np > 1) {
		cairo_new_path(c->cr);
		for (k = 0; k < np; k++) {
			if (k)
				cairo_line_to(c->cr, xs[k], ys[k]);
			else
				cairo_move_to(c->cr, xs[k], ys[k]);
		}
		cairo_set_line_width(c->cr, 1.6);
		cairo_set_line_join(c->cr, CAIRO_LINE_JOIN_MITER);
		plot_set_rgb(c->cr, PLOT_INK2, 0.85);
		cairo_stroke(c->cr);
	}
	/* dominated first, so the front is on top */
	for (k = 0; k < 2; k++) {
		for (i = 0; i < n; i++) {
			struct plot_style st;
			double x = plot_xy_px(&xy, pts[i].p->x), y = plot_xy_py(&xy, pts[i].p->y);
			if (pts[i].front != (int)k)
				continue;
			plot_palette_style(pal, pts[i].p->system, pts[i].p->vendor, &st);
			if (!pts[i].front)
				st.color = plot_mix(st.color, PLOT_MUTED, 0.5);
			plot_marker(c->cr, st.marker, x, y, PLOT_MARKER_R + 0.8, st.color, 1, 0);
		}
	}
	/* labels: the front's first, so they get the best spots; one with no
	 * free spot is left out (the legend names every system), never
	 * printed over another */
	plot_boxes_add(&boxes, (struct plot_rect){ lx, ly, leg.w, leg.h });
	for (k = 0; k < 2; k++)
		for (i = 0; i < n; i++)
			if (pts[i].front == !k &&
			    !plot_place_label(c, pts[i].front ? &front_font : &muted_font,
					      label_of(pts[i].p), plot_xy_px(&xy, pts[i].p->x),
					      plot_xy_py(&xy, pts[i].p->y), LABEL_OFF,
					      plot_rect_grow(xy.plot, 4), &boxes))
				dropped++;
	plot_legend_draw(c, &leg, lx, ly);
	if (dropped) {
		struct plot_font notef = muted_font;
		struct strbuf note = STRBUF_INIT;
		notef.italic = 1;
		strbuf_addf(&note, "%zu label%s left out: no free room", dropped,
			    dropped == 1 ? "" : "s");
		plot_text_draw(c, &notef, note.buf, xy.plot.x + xy.plot.w, xy.plot.y - 2, 1, 1, 0);
		strbuf_release(&note);
	}
done:
	plot_boxes_release(&boxes);
	plot_legend_release(&leg);
	strbuf_release(&xt);
	strbuf_release(&yt);
	free(xs);
	free(ys);
	free(fr);
	free(pts);
	free(sys);
	return rc;
}
