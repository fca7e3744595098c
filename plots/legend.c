/*
 * legend.c - legends: entries with a swatch (marker, line, patch), laid
 * out in columns, placed inside the plot only where they cover no data
 * (checked against the boxes the chart occupies), else the chart puts them
 * in a row above the plot.
 */
#include "plots/plot_priv.h"

#define SWATCH_W 20.0
#define SWATCH_GAP 5.0
#define COL_GAP 16.0
#define PAD 6.0

static const struct plot_font legend_font = { .size = PLOT_SZ_LABEL, .color = PLOT_RGB_INK };

void plot_legend_init(struct plot_legend *l)
{
	memset(l, 0, sizeof(*l));
}

void plot_legend_release(struct plot_legend *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->items[i].label);
		free(l->items[i].shown);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void plot_legend_add(struct plot_legend *l, const char *label, enum plot_swatch swatch,
		     struct plot_rgb color, enum plot_marker marker)
{
	struct plot_legend_item *it;

	if (l->n == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 8;
		l->items = ab_realloc(l->items, l->alloc * sizeof(*l->items));
	}
	it = &l->items[l->n++];
	it->label = ab_strdup(label ? label : "");
	it->shown = ab_strdup(it->label);
	it->swatch = swatch;
	it->color = color;
	it->marker = marker;
}

void plot_legend_layout(struct plot_ctx *c, struct plot_legend *l, double max_w, size_t max_cols)
{
	struct strbuf sb = STRBUF_INIT;
	double wmax = 0, hmax = 0, w, h, room = max_w - 2 * PAD - SWATCH_W - SWATCH_GAP;
	size_t i, cols;

	/* a name too long for even one column is shortened (and the legend
	 * then does not go into a corner of the plot: plot_legend_place) */
	l->shortened = 0;
	for (i = 0; i < l->n; i++) {
		plot_text_fit(c, &legend_font, l->items[i].label, fmax(room, 40), &sb);
		l->shortened |= strcmp(sb.buf, l->items[i].label) != 0;
		free(l->items[i].shown);
		l->items[i].shown = strbuf_detach(&sb, NULL);
		plot_text_extent(c, &legend_font, l->items[i].shown, &w, &h);
		wmax = fmax(wmax, w);
		hmax = fmax(hmax, h);
	}
	l->cell_w = SWATCH_W + SWATCH_GAP + wmax;
	l->cell_h = fmax(hmax, 2 * PLOT_MARKER_R + 2) + 3;
	cols = (size_t)floor((max_w - 2 * PAD + COL_GAP) / (l->cell_w + COL_GAP));
	if (cols < 1)
		cols = 1;
	if (max_cols && cols > max_cols)
		cols = max_cols;
	if (cols > l->n)
		cols = l->n ? l->n : 1;
	/* balance the rows: 5 entries in 4 columns read better as 3 + 2 */
	l->rows = (l->n + cols - 1) / cols;
	if (l->rows)
		cols = (l->n + l->rows - 1) / l->rows;
	l->cols = cols;
	l->w = 2 * PAD + cols * l->cell_w + (cols - 1) * COL_GAP;
	l->h = 2 * PAD + l->rows * l->cell_h;
	if (!l->n)
		l->w = l->h = 0;
	strbuf_release(&sb);
}

int plot_legend_place(const struct plot_legend *l, struct plot_rect plot,
		      const struct plot_boxes *b, double *x, double *y)
{
	/* fractions of the free space: corners first, then edge middles */
	static const double cand[][2] = { { 0, 0 },   { 1, 0 },   { 1, 1 },   { 0, 1 },
					  { 0.5, 0 }, { 0.5, 1 }, { 0, 0.5 }, { 1, 0.5 } };
	double inset = 4;
	size_t i;

	if (!l->n || l->shortened || l->w > plot.w - 2 * inset || l->h > plot.h - 2 * inset)
		return 0; /* above the plot, at full width, names stay whole */
	for (i = 0; i < AB_ARRAY_SIZE(cand); i++) {
		struct plot_rect r;
		r.x = plot.x + inset + cand[i][0] * (plot.w - 2 * inset - l->w);
		r.y = plot.y + inset + cand[i][1] * (plot.h - 2 * inset - l->h);
		r.w = l->w;
		r.h = l->h;
		if (!plot_boxes_hit(b, plot_rect_grow(r, 2))) {
			*x = r.x;
			*y = r.y;
			return 1;
		}
	}
	return 0;
}

static void swatch(cairo_t *cr, const struct plot_legend_item *it, double x, double cy)
{
	double mx = x + SWATCH_W / 2;

	switch (it->swatch) {
	case PLOT_SWATCH_MARKER:
		plot_marker(cr, it->marker, mx, cy, PLOT_MARKER_R, it->color, 1.0, 0);
		break;
	case PLOT_SWATCH_HOLLOW:
		plot_marker(cr, it->marker, mx, cy, PLOT_MARKER_R, it->color, 1.0, 1);
		break;
	case PLOT_SWATCH_LINE:
	case PLOT_SWATCH_LINE_MARKER:
		plot_hline(cr, x, x + SWATCH_W, cy, 1.8, it->color, 1.0);
		if (it->swatch == PLOT_SWATCH_LINE_MARKER)
			plot_marker(cr, it->marker, mx, cy, PLOT_MARKER_R, it->color, 1.0, 0);
		break;
	case PLOT_SWATCH_DASH:
		cairo_save(cr);
		plot_dash(cr, 4, 2.5);
		plot_hline(cr, x, x + SWATCH_W, cy, 1.4, it->color, 1.0);
		cairo_restore(cr);
		break;
	case PLOT_SWATCH_PATCH:
	case PLOT_SWATCH_PATCH_MARKER:
		cairo_save(cr);
		cairo_new_path(cr);
		cairo_rectangle(cr, mx - 6.5, cy - 6.5, 13, 13);
		plot_set_rgb(cr, it->color, 1.0);
		cairo_fill(cr);
		if (it->swatch == PLOT_SWATCH_PATCH_MARKER) {
			cairo_new_path(cr);
			plot_marker_path(cr, it->marker, mx, cy, 3.0);
			plot_set_rgb(cr, PLOT_WHITE, 0.95);
			cairo_fill(cr);
		}
		cairo_restore(cr);
		break;
	}
}

void plot_legend_draw(struct plot_ctx *c, const struct plot_legend *l, double x, double y)
{
	size_t i;

	if (!l->n)
		return;
	cairo_save(c->cr);
	cairo_new_path(c->cr);
	cairo_rectangle(c->cr, x, y, l->w, l->h);
	plot_set_rgb(c->cr, PLOT_WHITE, 0.85);
	cairo_fill(c->cr);
	cairo_restore(c->cr);
	for (i = 0; i < l->n; i++) {
		size_t row = i / l->cols, col = i % l->cols;
		double ix = x + PAD + col * (l->cell_w + COL_GAP);
		double cy = y + PAD + row * l->cell_h + l->cell_h / 2;

		swatch(c->cr, &l->items[i], ix, cy);
		plot_text_draw(c, &legend_font, l->items[i].shown, ix + SWATCH_W + SWATCH_GAP, cy,
			       0, 0.5, 0);
	}
}
