/*
 * catx.c - the categorical x axis of bar charts and the heatmap's column
 * heads: names are written straight when they fit, else on two lines,
 * else turned (as little as keeps turned neighbours apart, 30 to 90 degrees),
 * and shortened with a middle ellipsis when even that is too long.  Names
 * never overlap.
 */
#include "plots/plot_priv.h"

static const struct plot_font name_font = { .size = PLOT_SZ_TICK, .color = PLOT_RGB_INK };
static const struct plot_font sub_font = { .size = PLOT_SZ_SMALL, .color = PLOT_RGB_INK3 };

#define SUB_GAP 2.0
#define AXIS_GAP 5.0

static struct plot_font font_of(const struct plot_catx *x, size_t i)
{
	struct plot_font f = name_font;

	f.bold = x->bold && x->bold[i];
	return f;
}

static double sub_height(struct plot_ctx *c, const struct plot_catx *x)
{
	double w, h, hmax = 0;
	size_t i;

	for (i = 0; x->sublabels && i < x->n; i++) {
		if (!x->sublabels[i])
			continue;
		plot_text_extent(c, &sub_font, x->sublabels[i], &w, &h);
		hmax = fmax(hmax, h);
	}
	return hmax > 0 ? hmax + SUB_GAP : 0;
}

void plot_catx_release(struct plot_catx *x)
{
	size_t i;

	for (i = 0; x->shown && i < x->n; i++)
		free(x->shown[i]);
	free(x->shown);
	x->shown = NULL;
}

void plot_catx_layout(struct plot_ctx *c, struct plot_catx *x, double slot_w, double max_h,
		      double left_room)
{
	static const double angles[] = { 30, 35, 45, 55, 70, 90 };
	struct strbuf sb = STRBUF_INIT;
	double w, h, line_h, wmax = 0, hmax = 0, avail = slot_w - 6, s, maxlen;
	size_t i, a;

	plot_catx_release(x);
	x->shown = ab_calloc(x->n ? x->n : 1, sizeof(char *));
	x->angle = 0;
	x->wrapped = 0;
	plot_text_extent(c, &name_font, "Mg", &w, &line_h);
	for (i = 0; i < x->n; i++) {
		struct plot_font f = font_of(x, i);
		plot_text_extent(c, &f, plot_str(x->labels[i]), &w, &h);
		wmax = fmax(wmax, w);
	}
	if (wmax <= avail) {
		for (i = 0; i < x->n; i++)
			x->shown[i] = ab_strdup(plot_str(x->labels[i]));
		x->height = sub_height(c, x) + AXIS_GAP + line_h;
		return;
	}
	/* two centred lines, broken between words only */
	for (i = 0; i < x->n; i++) {
		struct plot_font f = font_of(x, i);
		f.wrap = avail;
		f.center = 1;
		plot_text_extent(c, &f, plot_str(x->labels[i]), &w, &h);
		if (w > avail + 0.5 || h > 2.2 * line_h)
			break;
		hmax = fmax(hmax, h);
	}
	if (i == x->n && avail > 0) {
		for (i = 0; i < x->n; i++)
			x->shown[i] = ab_strdup(plot_str(x->labels[i]));
		x->wrapped = 1;
		x->height = sub_height(c, x) + AXIS_GAP + hmax;
		return;
	}
	/* turned: as little as keeps turned neighbours apart */
	x->angle = 90;
	for (a = 0; a < AB_ARRAY_SIZE(angles); a++) {
		if (slot_w * sin(angles[a] * PLOT_PI / 180) >= line_h + 3) {
			x->angle = angles[a];
			break;
		}
	}
	s = sin(x->angle * PLOT_PI / 180);
	maxlen = (max_h - sub_height(c, x) - AXIS_GAP - line_h * cos(x->angle * PLOT_PI / 180)) / s;
	if (maxlen < 30)
		maxlen = 30;
	hmax = 0;
	for (i = 0; i < x->n; i++) {
		struct plot_font f = font_of(x, i);
		double len = maxlen, cs = cos(x->angle * PLOT_PI / 180);
		/* turned names reach left: the first ones must stay in the chart */
		if (cs > 0.01)
			len = fmin(len, ((double)i * slot_w + slot_w / 2 + 3 + left_room) / cs);
		plot_text_fit(c, &f, plot_str(x->labels[i]), len, &sb);
		x->shown[i] = strbuf_detach(&sb, NULL);
		plot_text_extent(c, &f, x->shown[i], &w, &h);
		hmax = fmax(hmax, w * s + h * cos(x->angle * PLOT_PI / 180));
	}
	x->height = sub_height(c, x) + AXIS_GAP + hmax;
	strbuf_release(&sb);
}

void plot_catx_draw(struct plot_ctx *c, const struct plot_catx *x, double x0, double slot_w,
		    double y0)
{
	double sub_h = sub_height(c, x), y = y0 + AXIS_GAP;
	size_t i;

	for (i = 0; i < x->n; i++) {
		double cx = x0 + (i + 0.5) * slot_w;
		struct plot_font f = font_of(x, i);

		if (x->sublabels && x->sublabels[i])
			plot_text_draw(c, &sub_font, x->sublabels[i], cx, y0 + 3, 0.5, 0, 0);
		if (x->angle == 0) {
			if (x->wrapped) {
				f.wrap = slot_w - 6;
				f.center = 1;
			}
			plot_text_draw(c, &f, x->shown[i], cx, y + sub_h, 0.5, 0, 0);
		} else {
			/* the end of the name at the slot centre, text rising to
			 * it; its upper corner stays under the axis */
			double w, h;
			plot_text_extent(c, &f, x->shown[i], &w, &h);
			plot_text_draw(c, &f, x->shown[i], cx + 3,
				       y + sub_h + 0.5 * h * cos(x->angle * PLOT_PI / 180), 1, 0.5,
				       -x->angle);
		}
	}
}
