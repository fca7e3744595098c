/*
 * draw.c - drawing primitives shared by the charts: colours, markers,
 * whiskers, hair lines.
 */
#include "plots/plot_priv.h"

void plot_set_rgb(cairo_t *cr, struct plot_rgb c, double alpha)
{
	if (alpha >= 1.0)
		cairo_set_source_rgb(cr, c.r, c.g, c.b);
	else
		cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

struct plot_rgb plot_mix(struct plot_rgb a, struct plot_rgb b, double t)
{
	struct plot_rgb m;

	m.r = a.r + (b.r - a.r) * t;
	m.g = a.g + (b.g - a.g) * t;
	m.b = a.b + (b.b - a.b) * t;
	return m;
}

static double lin(double u)
{
	return u <= 0.04045 ? u / 12.92 : pow((u + 0.055) / 1.055, 2.4);
}

double plot_luminance(struct plot_rgb c)
{
	return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

static void polygon(cairo_t *cr, double x, double y, double r, int n, double rot)
{
	int i;

	for (i = 0; i < n; i++) {
		double a = rot + 2 * PLOT_PI * i / n;
		if (i == 0)
			cairo_move_to(cr, x + r * cos(a), y + r * sin(a));
		else
			cairo_line_to(cr, x + r * cos(a), y + r * sin(a));
	}
	cairo_close_path(cr);
}

void plot_marker_path(cairo_t *cr, enum plot_marker m, double x, double y, double r)
{
	cairo_new_sub_path(cr);
	switch (m) {
	case PLOT_MARKER_SQUARE:
		cairo_rectangle(cr, x - 0.88 * r, y - 0.88 * r, 1.76 * r, 1.76 * r);
		break;
	case PLOT_MARKER_DIAMOND:
		polygon(cr, x, y, 1.22 * r, 4, -PLOT_PI / 2);
		break;
	case PLOT_MARKER_TRIANGLE_UP:
		/* centroid on (x, y), sized to look as heavy as the circle */
		polygon(cr, x, y + 0.15 * r, 1.32 * r, 3, -PLOT_PI / 2);
		break;
	case PLOT_MARKER_TRIANGLE_DOWN:
		polygon(cr, x, y - 0.15 * r, 1.32 * r, 3, PLOT_PI / 2);
		break;
	case PLOT_MARKER_HEXAGON:
		polygon(cr, x, y, 1.08 * r, 6, 0);
		break;
	case PLOT_MARKER_CIRCLE:
	default:
		cairo_arc(cr, x, y, r, 0, 2 * PLOT_PI);
		break;
	}
}

void plot_marker(cairo_t *cr, enum plot_marker m, double x, double y, double r, struct plot_rgb c,
		 double alpha, int hollow)
{
	cairo_save(cr);
	cairo_new_path(cr);
	plot_marker_path(cr, m, x, y, r);
	if (hollow) {
		plot_set_rgb(cr, PLOT_WHITE, 1.0);
		cairo_fill_preserve(cr);
		plot_set_rgb(cr, c, alpha);
		cairo_set_line_width(cr, 1.4);
		cairo_stroke(cr);
	} else {
		plot_set_rgb(cr, c, alpha);
		cairo_fill_preserve(cr);
		plot_set_rgb(cr, PLOT_WHITE, 1.0);
		cairo_set_line_width(cr, 0.9);
		cairo_stroke(cr);
	}
	cairo_restore(cr);
}

void plot_bar_glyph(cairo_t *cr, enum plot_marker m, double x, double y0, double bw, double bh)
{
	double r = fmin(3.4, bw * 0.22);

	if (r < 2 || fabs(bh) < 4 * r + 4)
		return;
	cairo_save(cr);
	cairo_new_path(cr);
	plot_marker_path(cr, m, x, y0 - (bh > 0 ? 1 : -1) * (r + 5), r);
	plot_set_rgb(cr, PLOT_WHITE, 0.95);
	cairo_fill(cr);
	cairo_restore(cr);
}

void plot_hline(cairo_t *cr, double x0, double x1, double y, double width, struct plot_rgb c,
		double alpha)
{
	cairo_save(cr);
	cairo_new_path(cr);
	cairo_move_to(cr, x0, y);
	cairo_line_to(cr, x1, y);
	cairo_set_line_width(cr, width);
	plot_set_rgb(cr, c, alpha);
	cairo_stroke(cr);
	cairo_restore(cr);
}

void plot_vline(cairo_t *cr, double x, double y0, double y1, double width, struct plot_rgb c,
		double alpha)
{
	cairo_save(cr);
	cairo_new_path(cr);
	cairo_move_to(cr, x, y0);
	cairo_line_to(cr, x, y1);
	cairo_set_line_width(cr, width);
	plot_set_rgb(cr, c, alpha);
	cairo_stroke(cr);
	cairo_restore(cr);
}

void plot_dash(cairo_t *cr, double on, double off)
{
	double d[2];

	d[0] = on;
	d[1] = off;
	cairo_set_dash(cr, d, on > 0 ? 2 : 0, 0);
}

void plot_whisker(cairo_t *cr, double x, double y0, double y1, double cap, double width,
		  struct plot_rgb c)
{
	cairo_save(cr);
	cairo_new_path(cr);
	cairo_move_to(cr, x, y0);
	cairo_line_to(cr, x, y1);
	cairo_move_to(cr, x - cap, y0);
	cairo_line_to(cr, x + cap, y0);
	cairo_move_to(cr, x - cap, y1);
	cairo_line_to(cr, x + cap, y1);
	cairo_set_line_width(cr, width);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	plot_set_rgb(cr, c, 1.0);
	cairo_stroke(cr);
	cairo_restore(cr);
}
