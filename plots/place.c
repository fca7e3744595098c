/*
 * place.c - rectangles that data occupies, so legends and point labels
 * can be put where they cover nothing.
 */
#include "plots/plot_priv.h"

void plot_boxes_init(struct plot_boxes *b)
{
	memset(b, 0, sizeof(*b));
}

void plot_boxes_release(struct plot_boxes *b)
{
	free(b->r);
	memset(b, 0, sizeof(*b));
}

void plot_boxes_add(struct plot_boxes *b, struct plot_rect r)
{
	if (b->n == b->alloc) {
		b->alloc = b->alloc ? 2 * b->alloc : 64;
		b->r = ab_realloc(b->r, b->alloc * sizeof(*b->r));
	}
	b->r[b->n++] = r;
}

void plot_boxes_add_segment(struct plot_boxes *b, double x0, double y0, double x1, double y1,
			    double hw)
{
	double len = hypot(x1 - x0, y1 - y0);
	int i, steps = (int)ceil(len / 4.0);

	if (steps < 1)
		steps = 1;
	if (steps > 2000)
		steps = 2000;
	for (i = 0; i <= steps; i++) {
		double t = (double)i / steps;
		struct plot_rect r = { x0 + (x1 - x0) * t - hw, y0 + (y1 - y0) * t - hw, 2 * hw,
				       2 * hw };
		plot_boxes_add(b, r);
	}
}

int plot_rect_overlap(struct plot_rect a, struct plot_rect b)
{
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

int plot_rect_contains(struct plot_rect outer, struct plot_rect inner)
{
	return inner.x >= outer.x - 1e-9 && inner.y >= outer.y - 1e-9 &&
	       inner.x + inner.w <= outer.x + outer.w + 1e-9 &&
	       inner.y + inner.h <= outer.y + outer.h + 1e-9;
}

struct plot_rect plot_rect_around(double x, double y, double r)
{
	struct plot_rect b = { x - r, y - r, 2 * r, 2 * r };
	return b;
}

struct plot_rect plot_rect_grow(struct plot_rect r, double by)
{
	r.x -= by;
	r.y -= by;
	r.w += 2 * by;
	r.h += 2 * by;
	return r;
}

int plot_boxes_hit(const struct plot_boxes *b, struct plot_rect r)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (plot_rect_overlap(b->r[i], r))
			return 1;
	return 0;
}

int plot_place_label(struct plot_ctx *c, const struct plot_font *f, const char *s, double x,
		     double y, double off, struct plot_rect bounds, struct plot_boxes *boxes)
{
	static const double cand[][4] = {
		/* direction x, y; anchor x, y */
		{ 1, 0, 0, 0.5 },    { -1, 0, 1, 0.5 },  { 0, -1, 0.5, 1 },    { 0, 1, 0.5, 0 },
		{ 0.8, -0.8, 0, 1 }, { 0.8, 0.8, 0, 0 }, { -0.8, -0.8, 1, 1 }, { -0.8, 0.8, 1, 0 },
	};
	double d;
	size_t j;

	for (d = off; d <= 3 * off; d += off) {
		for (j = 0; j < AB_ARRAY_SIZE(cand); j++) {
			double tx = x + cand[j][0] * d, ty = y + cand[j][1] * d;
			struct plot_rect r = plot_text_box(c, f, s, tx, ty, cand[j][2], cand[j][3], 0);
			if (plot_rect_contains(bounds, r) &&
			    !plot_boxes_hit(boxes, plot_rect_grow(r, 1))) {
				plot_text_draw(c, f, s, tx, ty, cand[j][2], cand[j][3], 0);
				plot_boxes_add(boxes, r);
				return 1;
			}
		}
	}
	return 0;
}
