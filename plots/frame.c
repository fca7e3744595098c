/*
 * frame.c - the chart's chrome: title and subtitle on top, caption at the
 * bottom, and the x-y panel (margins measured from the real tick labels,
 * light grid, spines, tick labels, axis titles).
 */
#include "plots/plot_priv.h"

static const struct plot_font title_font = { .size = PLOT_SZ_TITLE,
					     .bold = 1,
					     .color = PLOT_RGB_INK };
static const struct plot_font subtitle_font = { .size = PLOT_SZ_SUBTITLE, .color = PLOT_RGB_INK3 };
static const struct plot_font caption_font = { .size = PLOT_SZ_SMALL, .color = PLOT_RGB_INK3 };
static const struct plot_font tick_font = { .size = PLOT_SZ_TICK, .color = PLOT_RGB_INK2 };
static const struct plot_font axis_font = { .size = PLOT_SZ_AXIS, .color = PLOT_RGB_INK };

#define TICK_LEN 4.0

void plot_frame_header(struct plot_ctx *c, const struct plot_labels *lb, const char *def_title,
		       struct plot_rect *r)
{
	const char *title = lb->title && *lb->title ? lb->title : def_title;
	struct plot_font f;
	double w, h, y = r->y;

	if (title && *title) {
		f = title_font;
		f.wrap = r->w;
		plot_text_extent(c, &f, title, &w, &h);
		plot_text_draw(c, &f, title, r->x, y, 0, 0, 0);
		y += h + 2;
	}
	if (lb->subtitle && *lb->subtitle) {
		f = subtitle_font;
		f.wrap = r->w;
		plot_text_extent(c, &f, lb->subtitle, &w, &h);
		plot_text_draw(c, &f, lb->subtitle, r->x, y, 0, 0, 0);
		y += h;
	}
	if (y > r->y)
		y += 12;
	r->h -= y - r->y;
	r->y = y;
}

void plot_frame_caption(struct plot_ctx *c, const char *caption, const char *def_caption,
			struct plot_rect *r)
{
	struct plot_font f = caption_font;
	double w, h;

	if (!caption)
		caption = def_caption;
	if (!caption || !*caption)
		return;
	f.wrap = r->w;
	plot_text_extent(c, &f, caption, &w, &h);
	plot_text_draw(c, &f, caption, r->x, r->y + r->h - h, 0, 0, 0);
	r->h -= h + 8;
}

int plot_check_fit(struct plot_rect p, const char *chart, struct strbuf *err)
{
	if (p.w >= 40 && p.h >= 30)
		return 0;
	return ab_fail(err, AB_EUSAGE,
		       "%s chart does not fit: its titles, legend and labels leave no room for the "
		       "data (make it larger)",
		       chart);
}

double plot_frame_legend_top(struct plot_ctx *c, struct plot_legend *l, double w)
{
	plot_legend_layout(c, l, w, 0);
	return l->n ? l->h + 2 : 0;
}

static double max_label_w(struct plot_ctx *c, const struct plot_axis *a, double *hout)
{
	struct strbuf sb = STRBUF_INIT;
	double wmax = 0, w, h = 0;
	size_t i;

	for (i = 0; i < a->n_ticks; i++) {
		plot_axis_tick_label(a, i, &sb);
		plot_text_extent(c, &tick_font, sb.buf, &w, &h);
		wmax = fmax(wmax, w);
	}
	if (hout)
		*hout = h;
	strbuf_release(&sb);
	return wmax;
}

static double label_w(struct plot_ctx *c, const struct plot_axis *a, size_t i)
{
	struct strbuf sb = STRBUF_INIT;
	double w, h;

	plot_axis_tick_label(a, i, &sb);
	plot_text_extent(c, &tick_font, sb.buf, &w, &h);
	strbuf_release(&sb);
	return w;
}

double plot_yaxis_margin(struct plot_ctx *c, const struct plot_axis *y, const char *title)
{
	double w, h = 0, tw;

	if (title && *title)
		plot_text_extent(c, &axis_font, title, &tw,
				 &h); /* turned: its height is our width */
	w = max_label_w(c, y, NULL);
	return (h > 0 ? h + 8 : 0) + w + TICK_LEN + 4;
}

void plot_ygrid(struct plot_ctx *c, const struct plot_axis *y, struct plot_rect p)
{
	size_t i;

	for (i = 0; i < y->n_minor; i++)
		plot_hline(c->cr, p.x, p.x + p.w, plot_axis_map(y, y->minor[i]), 0.6,
			   PLOT_GRID_MINOR, 1);
	for (i = 0; i < y->n_ticks; i++)
		plot_hline(c->cr, p.x, p.x + p.w, plot_axis_map(y, y->ticks[i]), 0.8, PLOT_GRID, 1);
}

void plot_yaxis_draw(struct plot_ctx *c, const struct plot_axis *y, struct plot_rect p,
		     const char *title, int spine)
{
	struct strbuf sb = STRBUF_INIT;
	double ylab_w = max_label_w(c, y, NULL);
	size_t i;

	if (spine)
		plot_vline(c->cr, p.x, p.y, p.y + p.h, 1.0, PLOT_SPINE, 1);
	for (i = 0; i < y->n_ticks; i++) {
		double v = plot_axis_map(y, y->ticks[i]);
		if (spine)
			plot_hline(c->cr, p.x - TICK_LEN, p.x, v, 1.0, PLOT_SPINE, 1);
		plot_axis_tick_label(y, i, &sb);
		plot_text_draw(c, &tick_font, sb.buf, p.x - TICK_LEN - 4, v, 1, 0.5, 0);
	}
	if (title && *title)
		plot_text_draw(c, &axis_font, title, p.x - TICK_LEN - 4 - ylab_w - 8, p.y + p.h / 2,
			       0.5, 1, -90);
	strbuf_release(&sb);
}

void plot_xy_layout(struct plot_ctx *c, struct plot_xy *xy, struct plot_rect region)
{
	double tw, xt_h = 0, tick_h, left = 0, right = 10, bottom, top;
	size_t maxx, iter;

	plot_text_extent(c, &tick_font, "0123456789", &tw, &tick_h);
	if (xy->x_title && *xy->x_title)
		plot_text_extent(c, &axis_font, xy->x_title, &tw, &xt_h);
	top = tick_h / 2 + 2;
	bottom = TICK_LEN + 3 + tick_h + (xt_h > 0 ? 6 + xt_h : 0);
	/* the y labels' width sets the x room, which sets the x ticks, whose
	 * last label may need room on the right: settle in a few rounds */
	for (iter = 0; iter < 3; iter++) {
		double ph = region.h - top - bottom, pw;
		size_t maxy = plot_max_yticks(ph);

		plot_axis_setup(&xy->y, xy->ys, xy->y_flags, xy->y_lo, xy->y_hi, maxy);
		left = plot_yaxis_margin(c, &xy->y, xy->y_title);
		pw = region.w - left - right;
		/* powers on log axes are short and may sit closer than 1-2-5 steps */
		maxx = (size_t)fmax(2, floor(pw / (plot_scale_is_log(xy->xs) ? 30 : 80)));
		for (;;) {
			double lw;
			plot_axis_setup(&xy->x, xy->xs, xy->x_flags, xy->x_lo, xy->x_hi, maxx);
			lw = max_label_w(c, &xy->x, NULL);
			if (maxx <= 2 || (double)xy->x.n_ticks * (lw + 14) <= pw)
				break;
			maxx = (size_t)fmax(2, fmin((double)maxx - 1, floor(pw / (lw + 14))));
		}
		/* the last x label is centred on its tick: keep it inside */
		right = 10;
		if (xy->x.n_ticks) {
			plot_axis_set_pixels(&xy->x, region.x + left, region.x + region.w - right);
			double over = plot_axis_map(&xy->x, xy->x.ticks[xy->x.n_ticks - 1]) +
				      label_w(c, &xy->x, xy->x.n_ticks - 1) / 2 -
				      (region.x + region.w);
			if (over > -2)
				right += over + 2;
		}
	}
	xy->plot.x = region.x + left;
	xy->plot.y = region.y + top;
	xy->plot.w = region.w - left - right;
	xy->plot.h = region.h - top - bottom;
	plot_axis_set_pixels(&xy->x, xy->plot.x, xy->plot.x + xy->plot.w);
	plot_axis_set_pixels(&xy->y, xy->plot.y + xy->plot.h, xy->plot.y);
}

void plot_xy_grid(struct plot_ctx *c, const struct plot_xy *xy)
{
	const struct plot_rect *p = &xy->plot;
	size_t i;

	for (i = 0; i < xy->x.n_minor; i++)
		plot_vline(c->cr, plot_xy_px(xy, xy->x.minor[i]), p->y, p->y + p->h, 0.6,
			   PLOT_GRID_MINOR, 1);
	for (i = 0; i < xy->x.n_ticks; i++)
		plot_vline(c->cr, plot_xy_px(xy, xy->x.ticks[i]), p->y, p->y + p->h, 0.8, PLOT_GRID,
			   1);
	plot_ygrid(c, &xy->y, *p);
}

void plot_xy_axes(struct plot_ctx *c, const struct plot_xy *xy)
{
	const struct plot_rect *p = &xy->plot;
	struct strbuf sb = STRBUF_INIT;
	double bottom = p->y + p->h, w, h;
	size_t i;

	plot_hline(c->cr, p->x, p->x + p->w, bottom, 1.0, PLOT_SPINE, 1);
	for (i = 0; i < xy->x.n_ticks; i++) {
		double x = plot_xy_px(xy, xy->x.ticks[i]);
		plot_vline(c->cr, x, bottom, bottom + TICK_LEN, 1.0, PLOT_SPINE, 1);
		plot_axis_tick_label(&xy->x, i, &sb);
		plot_text_draw(c, &tick_font, sb.buf, x, bottom + TICK_LEN + 3, 0.5, 0, 0);
	}
	if (xy->x_title && *xy->x_title) {
		plot_text_extent(c, &tick_font, "0", &w, &h);
		plot_text_draw(c, &axis_font, xy->x_title, p->x + p->w / 2,
			       bottom + TICK_LEN + 3 + h + 6, 0.5, 0, 0);
	}
	plot_yaxis_draw(c, &xy->y, *p, xy->y_title, 1);
	strbuf_release(&sb);
}
