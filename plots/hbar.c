/*
 * hbar.c - the bar chart laid out for many systems: one row per system,
 * sorted best first, the full name (and the configuration the bar stands
 * for) down the left, values along x on a linear or log axis, the CI as a
 * whisker, n and the value at the bar's end, hatching for run sets that
 * are not complete or not valid.  Names are never shortened: the label
 * column takes what the longest needs, so two systems never share a label.
 */
#include "plots/plot_priv.h"

static const struct plot_font name_font = { .size = PLOT_SZ_TICK, .color = PLOT_RGB_INK };
static const struct plot_font base_font = { .size = PLOT_SZ_TICK, .color = PLOT_RGB_INK,
					    .bold = 1 };
static const struct plot_font conf_font = { .size = PLOT_SZ_SMALL, .color = PLOT_RGB_INK3 };
static const struct plot_font value_font = { .size = PLOT_SZ_SMALL, .color = PLOT_RGB_INK2,
					     .halo = 1 };
static const struct plot_font tick_font = { .size = PLOT_SZ_TICK, .color = PLOT_RGB_INK2 };

#define ROW_H 17.0

double plot_hbar_height(const struct plot_bar_spec *s)
{
	/* header, legend, axis, caption and one line per system */
	return 170.0 + ROW_H * (double)s->n_bars;
}

/* As the tables print it (views_fmt_value keeps 3 significant digits at
 * least: an official score of 0.0293 min is not "0.03"). */
static void value_label(struct strbuf *sb, double v)
{
	views_fmt_value(sb, v);
}

static int cmp_row(const void *pa, const void *pb, int lower_better)
{
	const struct plot_bar *a = *(const struct plot_bar *const *)pa;
	const struct plot_bar *b = *(const struct plot_bar *const *)pb;

	if (a->value != b->value)
		return (a->value < b->value) == !lower_better ? 1 : -1;
	return strcmp(plot_str(a->system), plot_str(b->system));
}

static int cmp_desc(const void *a, const void *b)
{
	return cmp_row(a, b, 0);
}

static int cmp_asc(const void *a, const void *b)
{
	return cmp_row(a, b, 1);
}

static void hatch(cairo_t *cr, double x, double y, double w, double h)
{
	double k;

	cairo_save(cr);
	cairo_rectangle(cr, x, y, w, h);
	cairo_clip(cr);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_set_line_width(cr, 1.2);
	for (k = -h; k < w; k += 5) {
		cairo_move_to(cr, x + k, y + h);
		cairo_line_to(cr, x + k + h, y);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

int plot_hbar_render(struct plot_ctx *c, struct plot_rect area, const struct plot_bar_spec *s,
		     struct strbuf *err)
{
	const struct plot_bar **order;
	const struct plot_palette *pal;
	struct plot_sys *sys;
	struct plot_legend leg;
	struct plot_axis x;
	struct plot_rect reg = area, p;
	struct strbuf sb = STRBUF_INIT;
	double namew = 0, confw = 0, valw = 0, w, h, lo = HUGE_VAL, hi = 0, rowh, base = NAN, k;
	struct plot_font nf = name_font, bf = base_font;
	size_t i, n = s->n_bars;
	int rc = 0, log = plot_scale_is_log(s->y_scale), any_incomplete = 0;
	int vendors_seen[PLOT_VENDOR_COUNT] = { 0 };

	plot_legend_init(&leg);
	if (!n || !s->labels.y_title)
		return ab_fail(err, AB_EDATA, "nothing to plot: the bar chart has no systems or no "
					      "value title");
	order = ab_calloc(n, sizeof(*order));
	sys = ab_calloc(n, sizeof(*sys));
	for (i = 0; i < n; i++) {
		const struct plot_bar *b = &s->bars[i];
		order[i] = b;
		sys[i].name = b->system;
		sys[i].vendor = b->vendor;
		if (!isfinite(b->value) || (log && !(b->value > 0))) {
			rc = ab_fail(err, AB_EDATA, "bar chart: value of '%s' cannot be shown%s",
				     plot_str(b->system), log ? " on a log axis" : "");
			goto done;
		}
		lo = fmin(lo, isfinite(b->lo) && b->lo > 0 ? fmin(b->lo, b->value) : b->value);
		hi = fmax(hi, isfinite(b->hi) ? fmax(b->hi, b->value) : b->value);
		vendors_seen[plot_vendor_from_name(b->vendor)] = 1;
		any_incomplete |= b->incomplete;
		if (s->baseline && b->system && !strcmp(s->baseline, b->system))
			base = b->value;
	}
	qsort(order, n, sizeof(*order), s->lower_is_better ? cmp_asc : cmp_desc);
	pal = plot_ctx_palette(c, s->palette, sys, n);

	plot_frame_header(c, &s->labels, NULL, &reg);
	plot_frame_caption(c, s->labels.caption,
			   "Bars: median of n runs. Whiskers: 95 % confidence interval of the "
			   "median (none where n is too small).", &reg);
	for (i = 0; i < PLOT_VENDOR_COUNT; i++)
		if (vendors_seen[i])
			plot_legend_add(&leg, plot_vendor_label((enum plot_vendor)i),
					PLOT_SWATCH_PATCH, plot_vendor_base((enum plot_vendor)i),
					PLOT_MARKER_CIRCLE);
	if (any_incomplete)
		plot_legend_add(&leg, "hatched: incomplete or invalid run set", PLOT_SWATCH_PATCH,
				PLOT_MUTED, PLOT_MARKER_CIRCLE);
	if (isfinite(base)) {
		strbuf_addf(&sb, "baseline: %s", s->baseline);
		plot_legend_add(&leg, sb.buf, PLOT_SWATCH_DASH, PLOT_INK2, PLOT_MARKER_CIRCLE);
	}
	h = plot_frame_legend_top(c, &leg, reg.w);
	plot_legend_draw(c, &leg, reg.x, reg.y);
	reg.y += h + 4;
	reg.h -= h + 4;

	/* the label column: full names, configurations beside them */
	for (i = 0; i < n; i++) {
		plot_text_extent(c, &base_font, plot_str(order[i]->system), &w, &h);
		namew = fmax(namew, w);
		if (order[i]->config) {
			plot_text_extent(c, &conf_font, order[i]->config, &w, &h);
			confw = fmax(confw, w);
		}
		strbuf_reset(&sb);
		value_label(&sb, order[i]->value);
		if (order[i]->n >= 0)
			strbuf_addf(&sb, "  n=%d", order[i]->n);
		plot_text_extent(c, &value_font, sb.buf, &w, &h);
		valw = fmax(valw, w);
	}
	/* narrow areas (report pages): configurations go, then the names get a
	 * smaller font, never shortened */
	if (namew + confw + valw + 120 > reg.w)
		confw = 0;
	if (namew + valw + 100 > reg.w && namew > 0) {
		k = fmax(0.45, (reg.w - valw - 100) / namew);
		nf.size *= k;
		bf.size *= k;
		namew *= k;
	}
	p.x = reg.x + namew + (confw > 0 ? confw + 10 : 0) + 10;
	p.w = reg.x + reg.w - p.x - valw - 8;
	plot_text_extent(c, &tick_font, "0", &w, &h);
	p.y = reg.y + 2;
	p.h = reg.h - 2 * h - 12;
	rowh = p.h / (double)n;
	if (rowh < 9 || p.w < 60) {
		rc = ab_fail(err, AB_EUSAGE, "bar chart: %zu systems with names up to %.0f units do "
					     "not fit in %.0f x %.0f; give it more room or fewer "
					     "systems", n, namew, area.w, area.h);
		goto done;
	}
	plot_haxis_bottom(c, &x, p, s->y_scale, log, 0, lo, hi, h, s->labels.y_title,
			  s->labels.y_unit);

	/* the baseline under the bars and labels: it never crosses a label
	 * (value labels carry a halo) */
	if (isfinite(base)) {
		double xb = plot_axis_map_clamped(&x, base);
		cairo_save(c->cr);
		plot_dash(c->cr, 5, 3);
		plot_vline(c->cr, xb, p.y, p.y + p.h, 1.0, PLOT_INK2, 0.8);
		cairo_restore(c->cr);
	}
	for (i = 0; i < n; i++) {
		const struct plot_bar *b = order[i];
		struct plot_style st;
		double yc = p.y + (i + 0.5) * rowh, bh = fmin(rowh * 0.7, 14);
		double x0 = log ? p.x : plot_axis_map_clamped(&x, 0);
		double xv = plot_axis_map_clamped(&x, b->value), xe = xv;
		int is_base = s->baseline && b->system && !strcmp(s->baseline, b->system);

		plot_palette_style(pal, b->system, b->vendor, &st);
		plot_text_draw(c, is_base ? &bf : &nf, plot_str(b->system),
			       reg.x + namew, yc, 1, 0.5, 0);
		if (b->config && confw > 0)
			plot_text_draw(c, &conf_font, b->config, reg.x + namew + 10, yc, 0, 0.5, 0);
		cairo_new_path(c->cr);
		cairo_rectangle(c->cr, x0, yc - bh / 2, xv - x0, bh);
		plot_set_rgb(c->cr, b->incomplete ? plot_mix(st.color, PLOT_WHITE, 0.45) : st.color,
			     1.0);
		cairo_fill(c->cr);
		if (b->incomplete)
			hatch(c->cr, x0, yc - bh / 2, xv - x0, bh);
		if (isfinite(b->lo) && isfinite(b->hi)) {
			double a = plot_axis_map_clamped(&x, b->lo), z = plot_axis_map_clamped(&x, b->hi);
			plot_hline(c->cr, a, z, yc, 1.2, PLOT_INK, 1);
			plot_vline(c->cr, a, yc - 3, yc + 3, 1.2, PLOT_INK, 1);
			plot_vline(c->cr, z, yc - 3, yc + 3, 1.2, PLOT_INK, 1);
			xe = fmax(xe, z);
		}
		strbuf_reset(&sb);
		value_label(&sb, b->value);
		if (b->n >= 0)
			strbuf_addf(&sb, "  n=%d", b->n);
		plot_text_draw(c, &value_font, sb.buf, xe + 4, yc, 0, 0.5, 0);
	}
	plot_vline(c->cr, log ? p.x : plot_axis_map_clamped(&x, 0), p.y, p.y + p.h, 1.0,
		   PLOT_SPINE, 1);
done:
	plot_legend_release(&leg);
	free(order);
	free(sys);
	strbuf_release(&sb);
	return rc;
}
