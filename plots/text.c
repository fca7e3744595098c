/*
 * text.c - all text goes through pango, so it is measured before it is
 * placed, wraps, and uses DejaVu Sans (or the system sans font that
 * fontconfig substitutes).  Metrics are unhinted so that the PNG, SVG and
 * PDF of a chart have the same layout.
 */
#include "plots/plot_priv.h"

static PangoLayout *make_layout(struct plot_ctx *c, const struct plot_font *f, const char *s)
{
	PangoLayout *l = pango_layout_new(c->pango);
	PangoFontDescription *fd = pango_font_description_from_string(PLOT_FONT_FAMILY);

	pango_font_description_set_absolute_size(fd, f->size * PANGO_SCALE);
	pango_font_description_set_weight(fd, f->bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
	pango_font_description_set_style(fd, f->italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
	pango_layout_set_font_description(l, fd);
	pango_font_description_free(fd);
	if (f->wrap > 0) {
		pango_layout_set_width(l, (int)(f->wrap * PANGO_SCALE));
		pango_layout_set_wrap(l, PANGO_WRAP_WORD);
	}
	if (f->center)
		pango_layout_set_alignment(l, PANGO_ALIGN_CENTER);
	pango_layout_set_text(l, s ? s : "", -1);
	return l;
}

/* Logical box of l in units: offset (x, y) and size. */
static void extents(PangoLayout *l, double *x, double *y, double *w, double *h)
{
	PangoRectangle log;

	pango_layout_get_extents(l, NULL, &log);
	*x = (double)log.x / PANGO_SCALE;
	*y = (double)log.y / PANGO_SCALE;
	*w = (double)log.width / PANGO_SCALE;
	*h = (double)log.height / PANGO_SCALE;
}

void plot_text_extent(struct plot_ctx *c, const struct plot_font *f, const char *s, double *w,
		      double *h)
{
	PangoLayout *l;
	double x, y;

	if (!s || !*s) {
		*w = *h = 0;
		return;
	}
	l = make_layout(c, f, s);
	extents(l, &x, &y, w, h);
	g_object_unref(l);
}

void plot_text_draw(struct plot_ctx *c, const struct plot_font *f, const char *s, double x,
		    double y, double ax, double ay, double angle)
{
	PangoLayout *l;
	double lx, ly, w, h;

	if (!s || !*s)
		return;
	l = make_layout(c, f, s);
	extents(l, &lx, &ly, &w, &h);
	cairo_save(c->cr);
	cairo_translate(c->cr, x, y);
	if (angle != 0)
		cairo_rotate(c->cr, angle * PLOT_PI / 180.0);
	pango_cairo_update_layout(c->cr, l);
	if (f->halo) {
		cairo_new_path(c->cr);
		cairo_move_to(c->cr, -ax * w - lx, -ay * h - ly);
		pango_cairo_layout_path(c->cr, l);
		cairo_set_line_width(c->cr, 2.6);
		cairo_set_line_join(c->cr, CAIRO_LINE_JOIN_ROUND);
		plot_set_rgb(c->cr, PLOT_WHITE, 0.9);
		cairo_stroke(c->cr);
	}
	cairo_move_to(c->cr, -ax * w - lx, -ay * h - ly);
	plot_set_rgb(c->cr, f->color, 1.0);
	pango_cairo_show_layout(c->cr, l);
	cairo_restore(c->cr);
	g_object_unref(l);
	if (c->texts) {
		strbuf_addstr(c->texts, s);
		strbuf_addch(c->texts, '\n');
	}
}

struct plot_rect plot_text_box(struct plot_ctx *c, const struct plot_font *f, const char *s,
			       double x, double y, double ax, double ay, double angle)
{
	double w, h, cs, sn, xs[4], ys[4], minx, maxx, miny, maxy;
	int i;
	struct plot_rect r;

	plot_text_extent(c, f, s, &w, &h);
	cs = cos(angle * PLOT_PI / 180.0);
	sn = sin(angle * PLOT_PI / 180.0);
	xs[0] = -ax * w;
	ys[0] = -ay * h;
	xs[1] = xs[0] + w;
	ys[1] = ys[0];
	xs[2] = xs[0] + w;
	ys[2] = ys[0] + h;
	xs[3] = xs[0];
	ys[3] = ys[0] + h;
	minx = miny = HUGE_VAL;
	maxx = maxy = -HUGE_VAL;
	for (i = 0; i < 4; i++) {
		double px = x + xs[i] * cs - ys[i] * sn;
		double py = y + xs[i] * sn + ys[i] * cs;
		minx = fmin(minx, px);
		maxx = fmax(maxx, px);
		miny = fmin(miny, py);
		maxy = fmax(maxy, py);
	}
	r.x = minx;
	r.y = miny;
	r.w = maxx - minx;
	r.h = maxy - miny;
	return r;
}

void plot_text_fit(struct plot_ctx *c, const struct plot_font *f, const char *s, double max_w,
		   struct strbuf *out)
{
	size_t n = plot_utf8_len(s);
	double w, h;

	strbuf_setstr(out, s);
	plot_text_extent(c, f, out->buf, &w, &h);
	while (w > max_w && n > 3) {
		n--;
		plot_label_shorten(out, s, n);
		plot_text_extent(c, f, out->buf, &w, &h);
	}
}
