/*
 * bar.c - one benchmark, one metric: a bar per system, sorted by value
 * (best first), the median as the bar, its 95 % CI as a whisker, the
 * value and the ratio to the baseline above it, n under it, the baseline
 * named in bold and drawn as a dashed reference line (named in the
 * legend, so it never covers a bar).
 */
#include "plots/plot_priv.h"

static const struct plot_font value_font = { .size = PLOT_SZ_LABEL,
					     .color = PLOT_RGB_INK,
					     .halo = 1 };
static const struct plot_font ratio_font = { .size = PLOT_SZ_SMALL,
					     .color = PLOT_RGB_INK3,
					     .halo = 1 };

#define DEFAULT_CAPTION \
	"Bars: median of n runs. Whiskers: 95 % confidence interval of the median " \
	"(none where n is too small)."

static int cmp_bar(const void *pa, const void *pb, int lower_better)
{
	const struct plot_bar *a = *(const struct plot_bar *const *)pa;
	const struct plot_bar *b = *(const struct plot_bar *const *)pb;

	if (a->value != b->value)
		return (a->value < b->value) == !lower_better ? 1 : -1;
	return strcmp(plot_str(a->system), plot_str(b->system));
}

static int cmp_desc(const void *a, const void *b)
{
	return cmp_bar(a, b, 0);
}

static int cmp_asc(const void *a, const void *b)
{
	return cmp_bar(a, b, 1);
}

static int validate(const struct plot_bar_spec *s, struct strbuf *err)
{
	size_t i;
	int rc;

	if (!s->n_bars)
		return ab_fail(err, AB_EDATA, "nothing to plot: the bar chart has no systems");
	if ((rc = plot_need_title(s->labels.y_title, "bar", "y", err)) < 0)
		return rc;
	for (i = 0; i < s->n_bars; i++) {
		const struct plot_bar *b = &s->bars[i];
		if (!isfinite(b->value))
			return ab_fail(err, AB_EDATA, "bar chart: value of '%s' is not a number",
				       plot_str(b->system));
		if (plot_scale_is_log(s->y_scale) && !(b->value > 0))
			return ab_fail(err, AB_EDATA,
				       "bar chart: value %g of '%s' cannot be shown on a log axis",
				       b->value, plot_str(b->system));
	}
	return 0;
}

/* Value label and ratio line over bar b; ratio NAN: none. */
static void labels_of(const struct plot_bar *b, double base, int lower, int compact,
		      struct strbuf *v, struct strbuf *r)
{
	strbuf_reset(v);
	strbuf_reset(r);
	if (compact) {
		views_fmt_value_short(v, b->value); /* the table's number does not fit */
	} else {
		views_fmt_value(v, b->value); /* as the tables print it */
	}
	if (isfinite(base) && base != 0)
		/* one meaning of "x": times better than the baseline */
		plot_format_ratio(r, lower ? base / b->value : b->value / base);
}

int plot_bar_render(struct plot_ctx *c, struct plot_rect area, const struct plot_bar_spec *s,
		    struct strbuf *err)
{
	const struct plot_bar **order = NULL;
	const struct plot_palette *pal;
	struct plot_sys *sys = NULL;
	const char **names = NULL, **subs = NULL;
	char **subs_own = NULL;
	int *bold = NULL, compact = 0, show_values = 1;
	struct plot_catx cx = { 0 };
	struct plot_legend leg;
	struct plot_axis y;
	struct plot_rect reg = area, p;
	struct strbuf sb = STRBUF_INIT, vb = STRBUF_INIT, rb = STRBUF_INIT, yt = STRBUF_INIT;
	double *tops, base = NAN, top = 0, left = 60, slot = 0, label_h, w, h, y0, vmin = 0,
	       vpos = HUGE_VAL;
	size_t i, n = s->n_bars, iter;
	int rc, vendors_seen[PLOT_VENDOR_COUNT] = { 0 };

	if (s->horizontal)
		return plot_hbar_render(c, area, s, err);
	if ((rc = validate(s, err)) < 0)
		return rc;
	order = ab_calloc(n, sizeof(*order));
	sys = ab_calloc(n, sizeof(*sys));
	names = ab_calloc(n, sizeof(*names));
	subs = ab_calloc(n, sizeof(*subs));
	subs_own = ab_calloc(n, sizeof(*subs_own));
	bold = ab_calloc(n, sizeof(*bold));
	for (i = 0; i < n; i++) {
		order[i] = &s->bars[i];
		sys[i].name = s->bars[i].system;
		sys[i].vendor = s->bars[i].vendor;
	}
	qsort(order, n, sizeof(*order), s->lower_is_better ? cmp_asc : cmp_desc);
	pal = plot_ctx_palette(c, s->palette, sys, n);
	for (i = 0; i < n; i++) {
		const struct plot_bar *b = order[i];
		names[i] = plot_str(b->system);
		if (s->baseline && b->system && !strcmp(s->baseline, b->system)) {
			base = b->value;
			bold[i] = 1;
		}
		top = fmax(top, fmax(b->value, isfinite(b->hi) ? b->hi : b->value));
		vpos = fmin(vpos, isfinite(b->lo) && b->lo > 0 ? fmin(b->lo, b->value) : b->value);
		vmin = fmin(vmin, fmin(b->value, isfinite(b->lo) ? b->lo : b->value));
		vendors_seen[plot_vendor_from_name(b->vendor)] = 1;
	}

	plot_frame_header(c, &s->labels, NULL, &reg);
	plot_frame_caption(c, s->labels.caption, DEFAULT_CAPTION, &reg);
	plot_legend_init(&leg);
	for (i = 0; i < PLOT_VENDOR_COUNT; i++)
		if (vendors_seen[i])
			plot_legend_add(&leg, plot_vendor_label((enum plot_vendor)i),
					PLOT_SWATCH_PATCH, plot_vendor_base((enum plot_vendor)i),
					PLOT_MARKER_CIRCLE);
	if (isfinite(base)) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "baseline: %s", s->baseline);
		plot_legend_add(&leg, sb.buf, PLOT_SWATCH_DASH, PLOT_INK2, PLOT_MARKER_CIRCLE);
	}
	if (leg.n > 1) {
		h = plot_frame_legend_top(c, &leg, reg.w);
		plot_legend_draw(c, &leg, reg.x, reg.y);
		reg.y += h + 4;
		reg.h -= h + 4;
	}
	plot_axis_title(&yt, s->labels.y_title, s->labels.y_unit, NULL, NULL);

	/* label block over a bar: value, ratio */
	plot_text_extent(c, &value_font, "0", &w, &label_h);
	plot_text_extent(c, &ratio_font, "0", &w, &h);
	if (isfinite(base))
		label_h += h;
	label_h += 4;

	for (iter = 0; iter < 3; iter++) {
		double ph, dhi;

		p.x = reg.x + left;
		p.w = reg.w - left - 4;
		slot = p.w / (double)n;
		/* n under each bar, shortened when the slot is narrow */
		for (i = 0; i < n; i++) {
			free(subs_own[i]);
			subs_own[i] = NULL;
			subs[i] = NULL;
			if (order[i]->n < 0)
				continue;
			strbuf_reset(&sb);
			strbuf_addf(&sb, "n = %d", order[i]->n);
			if (order[i]->config) {
				/* the configuration the bar stands for, when it fits */
				size_t at = sb.len;
				strbuf_addf(&sb, " · %s", order[i]->config);
				plot_text_extent(c, &ratio_font, sb.buf, &w, &h);
				if (w > slot - 4)
					strbuf_setlen(&sb, at);
			}
			plot_text_extent(c, &ratio_font, sb.buf, &w, &h);
			if (w > slot - 4) {
				strbuf_reset(&sb);
				strbuf_addf(&sb, "%d", order[i]->n);
			}
			subs_own[i] = strbuf_detach(&sb, NULL);
			subs[i] = subs_own[i];
		}
		cx.n = n;
		cx.labels = names;
		cx.sublabels = subs;
		cx.bold = bold;
		plot_catx_layout(c, &cx, slot, reg.h * 0.32, left);
		p.y = reg.y + 8;
		p.h = reg.h - 8 - cx.height;
		ph = p.h;
		/* room for the labels over the tallest whisker */
		dhi = top;
		if (show_values && ph > label_h + 20 && !plot_scale_is_log(s->y_scale))
			dhi = top + (top - fmin(vmin, 0)) * label_h / (ph - label_h);
		if (plot_scale_is_log(s->y_scale))
			plot_axis_setup(&y, s->y_scale, PLOT_AXIS_PAD | PLOT_AXIS_HEADROOM, vpos,
					top, plot_max_yticks(ph));
		else
			plot_axis_setup(&y, s->y_scale, PLOT_AXIS_ZERO, vmin, dhi,
					plot_max_yticks(ph));
		plot_axis_set_pixels(&y, p.y + p.h, p.y);
		left = plot_yaxis_margin(c, &y, yt.buf);
		/* value labels must fit their slot */
		compact = 0;
		show_values = 1;
		for (i = 0; i < n; i++) {
			labels_of(order[i], base, s->lower_is_better, 0, &vb, &rb);
			plot_text_extent(c, &value_font, vb.buf, &w, &h);
			if (w > slot - 2)
				compact = 1;
		}
		if (compact) {
			for (i = 0; i < n; i++) {
				labels_of(order[i], base, s->lower_is_better, 1, &vb, &rb);
				plot_text_extent(c, &value_font, vb.buf, &w, &h);
				if (w > slot - 2)
					show_values = 0;
			}
		}
	}

	if ((rc = plot_check_fit(p, "bar", err)) < 0)
		goto done;
	/* grid, bars, whiskers, labels */
	plot_ygrid(c, &y, p);
	y0 = plot_axis_map_clamped(&y, plot_scale_is_log(s->y_scale) ? y.lo : 0);
	tops = ab_calloc(n ? n : 1, sizeof(*tops));
	for (i = 0; i < n; i++) {
		const struct plot_bar *b = order[i];
		struct plot_style st;
		double cxp = p.x + (i + 0.5) * slot, bw = fmin(slot * 0.64, 64);
		double yv = plot_axis_map_clamped(&y, b->value), ytop;

		plot_palette_style(pal, b->system, b->vendor, &st);
		cairo_new_path(c->cr);
		cairo_rectangle(c->cr, cxp - bw / 2, fmin(yv, y0), bw, fabs(y0 - yv));
		plot_set_rgb(c->cr, st.color, 1.0);
		cairo_fill(c->cr);
		ytop = yv;
		if (isfinite(b->lo) && isfinite(b->hi)) {
			double ylo = plot_axis_map_clamped(&y, b->lo);
			double yhi = plot_axis_map_clamped(&y, b->hi);
			plot_whisker(c->cr, cxp, ylo, yhi, fmin(bw * 0.18, 6), 1.3, PLOT_INK);
			ytop = fmin(ytop, fmin(ylo, yhi));
		}
		tops[i] = ytop;
	}
	/* the baseline: a dashed line at its value, over the bars (the legend
	 * names it) and under the labels, which a halo keeps readable */
	if (isfinite(base)) {
		double yb = plot_axis_map_clamped(&y, base);
		cairo_save(c->cr);
		plot_dash(c->cr, 5, 3);
		plot_hline(c->cr, p.x, p.x + p.w, yb, 1.0, PLOT_INK2, 0.8);
		cairo_restore(c->cr);
	}
	for (i = 0; i < n && show_values; i++) {
		const struct plot_bar *b = order[i];
		double cxp = p.x + (i + 0.5) * slot;
		if (b->value >= 0) {
			double ly = tops[i] - 3;
			labels_of(b, base, s->lower_is_better, compact, &vb, &rb);
			if (rb.len && !bold[i]) {
				plot_text_draw(c, &ratio_font, rb.buf, cxp, ly, 0.5, 1, 0);
				plot_text_extent(c, &ratio_font, rb.buf, &w, &h);
				ly -= h;
			}
			plot_text_draw(c, &value_font, vb.buf, cxp, ly, 0.5, 1, 0);
		}
	}
	free(tops);
	plot_hline(c->cr, p.x, p.x + p.w, y0, 1.0, PLOT_SPINE, 1);
	plot_yaxis_draw(c, &y, p, yt.buf, 0);
	plot_catx_draw(c, &cx, p.x, slot, p.y + p.h);
done:
	plot_catx_release(&cx);
	plot_legend_release(&leg);
	for (i = 0; i < n; i++)
		free(subs_own[i]);
	free(subs_own);
	free(subs);
	free(names);
	free(bold);
	free(sys);
	free(order);
	strbuf_release(&sb);
	strbuf_release(&vb);
	strbuf_release(&rb);
	strbuf_release(&yt);
	return rc;
}
