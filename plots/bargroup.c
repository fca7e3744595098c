/*
 * bargroup.c - grouped bars: several benchmarks (or batch sizes) along x,
 * one bar per system inside each group, in the same system order and
 * colours everywhere, with CI whiskers, a reference line (1 for ratios)
 * and a legend of systems above the plot.
 */
#include "plots/plot_priv.h"

static const struct plot_font xtitle_font = { .size = PLOT_SZ_AXIS, .color = PLOT_RGB_INK };
static const struct plot_font value_font = { .size = PLOT_SZ_SMALL,
					     .color = PLOT_RGB_INK2,
					     .halo = 1 };

#define DEFAULT_CAPTION \
	"Bars: median. Whiskers: 95 % confidence interval of the median. Missing bars: not " \
	"measured."

static int validate(const struct plot_bargroup_spec *s, struct strbuf *err)
{
	size_t i, n = s->n_groups * s->n_systems, have = 0;
	int rc;

	if (!s->n_groups || !s->n_systems)
		return ab_fail(err, AB_EDATA, "nothing to plot: the grouped bar chart has no %s",
			       s->n_groups ? "systems" : "groups");
	if ((rc = plot_need_title(s->labels.y_title, "grouped bar", "y", err)) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		double v = s->cells[i].value;
		if (isnan(v))
			continue;
		if (!isfinite(v) || (plot_scale_is_log(s->y_scale) && !(v > 0)))
			return ab_fail(
				err, AB_EDATA,
				"grouped bar chart: value %g of '%s' in '%s' cannot be shown", v,
				plot_str(s->systems[i % s->n_systems].name),
				plot_str(s->groups[i / s->n_systems]));
		have++;
	}
	if (!have)
		return ab_fail(err, AB_EDATA,
			       "nothing to plot: every cell of the grouped bar chart is empty");
	return 0;
}

int plot_bargroup_render(struct plot_ctx *c, struct plot_rect area,
			 const struct plot_bargroup_spec *s, struct strbuf *err)
{
	const struct plot_palette *pal;
	struct plot_catx cx = { 0 };
	struct plot_legend leg;
	struct plot_axis y;
	struct plot_rect reg = area, p = { 0 };
	struct strbuf sb = STRBUF_INIT, yt = STRBUF_INIT, xt = STRBUF_INIT;
	double xt_h = 0;
	double top = -HUGE_VAL, vmin = 0, vpos = HUGE_VAL, left = 60, slot = 0, bw = 0, y0, w, h;
	double label_h;
	size_t i, g, k, ns = s->n_systems, ng = s->n_groups, iter;
	int rc, show_values = 1;

	if ((rc = validate(s, err)) < 0)
		return rc;
	pal = plot_ctx_palette(c, s->palette, s->systems, ns);
	for (i = 0; i < ng * ns; i++) {
		const struct plot_cell *v = &s->cells[i];
		if (isnan(v->value))
			continue;
		top = fmax(top, isfinite(v->hi) ? fmax(v->hi, v->value) : v->value);
		vmin = fmin(vmin, isfinite(v->lo) ? fmin(v->lo, v->value) : v->value);
		vpos = fmin(vpos, isfinite(v->lo) && v->lo > 0 ? fmin(v->lo, v->value) : v->value);
	}
	if (isfinite(s->reference))
		top = fmax(top, s->reference);

	plot_frame_header(c, &s->labels, NULL, &reg);
	plot_frame_caption(c, s->labels.caption, DEFAULT_CAPTION, &reg);
	plot_legend_init(&leg);
	for (k = 0; k < ns; k++) {
		struct plot_style st;
		plot_palette_style(pal, s->systems[k].name, s->systems[k].vendor, &st);
		plot_legend_add(&leg, s->systems[k].name, PLOT_SWATCH_PATCH_MARKER, st.color,
				st.marker);
	}
	/* the reference line is named in the legend, where it covers nothing */
	if (isfinite(s->reference) && s->reference_label && *s->reference_label)
		plot_legend_add(&leg, s->reference_label, PLOT_SWATCH_DASH, PLOT_INK2,
				PLOT_MARKER_CIRCLE);
	h = plot_frame_legend_top(c, &leg, reg.w);
	plot_legend_draw(c, &leg, reg.x, reg.y);
	reg.y += h + 4;
	reg.h -= h + 4;
	plot_axis_title(&yt, s->labels.y_title, s->labels.y_unit, NULL, NULL);
	/* the optional x title (what the groups are) sits under the group labels */
	plot_axis_title(&xt, s->labels.x_title, s->labels.x_unit, NULL, NULL);
	if (xt.len) {
		plot_text_extent(c, &xtitle_font, xt.buf, &w, &xt_h);
		reg.h -= xt_h + 6;
	}
	plot_text_extent(c, &value_font, "0", &w, &label_h);
	label_h += 4;

	for (iter = 0; iter < 3; iter++) {
		double dhi = top;

		p.x = reg.x + left;
		p.w = reg.w - left - 4;
		slot = p.w / (double)ng;
		bw = fmin(slot * 0.8 / (double)ns, 48);
		cx.n = ng;
		cx.labels = s->groups;
		plot_catx_layout(c, &cx, slot, reg.h * 0.3, left);
		p.y = reg.y + 8;
		p.h = reg.h - 8 - cx.height;
		/* value labels only when every one fits over its bar */
		show_values = 1;
		for (i = 0; i < ng * ns && show_values; i++) {
			if (isnan(s->cells[i].value))
				continue;
			strbuf_reset(&sb);
			plot_format_value(&sb, s->cells[i].value);
			plot_text_extent(c, &value_font, sb.buf, &w, &h);
			if (w > bw + 3)
				show_values = 0;
		}
		if (plot_scale_is_log(s->y_scale)) {
			plot_axis_setup(&y, s->y_scale, PLOT_AXIS_PAD | PLOT_AXIS_HEADROOM, vpos,
					top, plot_max_yticks(p.h));
		} else {
			if (show_values && p.h > label_h + 20)
				dhi = top + (top - vmin) * label_h / (p.h - label_h);
			plot_axis_setup(&y, s->y_scale, PLOT_AXIS_ZERO, vmin, dhi,
					plot_max_yticks(p.h));
		}
		plot_axis_set_pixels(&y, p.y + p.h, p.y);
		left = plot_yaxis_margin(c, &y, yt.buf);
	}

	if ((rc = plot_check_fit(p, "grouped bar", err)) < 0)
		goto done;
	plot_ygrid(c, &y, p);
	y0 = plot_axis_map_clamped(&y, plot_scale_is_log(s->y_scale) ? y.lo : 0);
	for (g = 0; g < ng; g++) {
		double gx = p.x + g * slot + (slot - bw * (double)ns) / 2;
		for (k = 0; k < ns; k++) {
			const struct plot_cell *v = &s->cells[g * ns + k];
			struct plot_style st;
			double bx = gx + (double)k * bw, yv, ytop;

			if (isnan(v->value))
				continue;
			plot_palette_style(pal, s->systems[k].name, s->systems[k].vendor, &st);
			yv = plot_axis_map_clamped(&y, v->value);
			cairo_new_path(c->cr);
			/* a hair of white between neighbours */
			cairo_rectangle(c->cr, bx + 0.5, fmin(yv, y0), bw - 1, fabs(y0 - yv));
			plot_set_rgb(c->cr, st.color, 1.0);
			cairo_fill(c->cr);
			/* the system's marker tells same-vendor shades apart */
			plot_bar_glyph(c->cr, st.marker, bx + bw / 2, y0, bw - 1, y0 - yv);
			ytop = yv;
			if (isfinite(v->lo) && isfinite(v->hi)) {
				double a = plot_axis_map_clamped(&y, v->lo);
				double b = plot_axis_map_clamped(&y, v->hi);
				plot_whisker(c->cr, bx + bw / 2, a, b, fmin(bw * 0.2, 4), 1.1,
					     PLOT_INK);
				ytop = fmin(ytop, fmin(a, b));
			}
			if (show_values) {
				strbuf_reset(&sb);
				plot_format_value(&sb, v->value);
				plot_text_draw(c, &value_font, sb.buf, bx + bw / 2, ytop - 2, 0.5,
					       1, 0);
			}
		}
	}
	if (isfinite(s->reference) && s->reference >= y.lo && s->reference <= y.hi) {
		double yr = plot_axis_map(&y, s->reference);
		cairo_save(c->cr);
		plot_dash(c->cr, 5, 3);
		plot_hline(c->cr, p.x, p.x + p.w, yr, 1.0, PLOT_INK2, 0.8);
		cairo_restore(c->cr);
	}
	plot_hline(c->cr, p.x, p.x + p.w, y0, 1.0, PLOT_SPINE, 1);
	plot_yaxis_draw(c, &y, p, yt.buf, 0);
	plot_catx_draw(c, &cx, p.x, slot, p.y + p.h);
	if (xt.len)
		plot_text_draw(c, &xtitle_font, xt.buf, p.x + p.w / 2, p.y + p.h + cx.height + 6, 0.5,
			       0, 0);
done:
	plot_catx_release(&cx);
	plot_legend_release(&leg);
	strbuf_release(&sb);
	strbuf_release(&yt);
	strbuf_release(&xt);
	return rc;
}
