/*
 * canvas.c - the drawing context (cairo + a pango context with unhinted
 * metrics) and plot_draw(): any chart into a region of any cairo surface.
 */
#include "plots/plot_priv.h"

static const char *const kind_names[] = {
	[PLOT_BAR] = "bar",		[PLOT_BARGROUP] = "bargroup", [PLOT_BATCH] = "batch",
	[PLOT_DEVICES] = "devices",	[PLOT_PARETO] = "pareto",     [PLOT_HEATMAP] = "heatmap",
	[PLOT_POWER] = "power",
};

const char *plot_kind_name(enum plot_kind kind)
{
	if ((size_t)kind < AB_ARRAY_SIZE(kind_names) && kind_names[kind])
		return kind_names[kind];
	return "unknown";
}

const struct plot_labels *plot_chart_labels(const struct plot_chart *chart)
{
	if (!chart || !chart->u.bar)
		return NULL;
	switch (chart->kind) {
	case PLOT_BAR:
		return &chart->u.bar->labels;
	case PLOT_BARGROUP:
		return &chart->u.bargroup->labels;
	case PLOT_BATCH:
		return &chart->u.batch->labels;
	case PLOT_DEVICES:
		return &chart->u.devices->labels;
	case PLOT_PARETO:
		return &chart->u.pareto->labels;
	case PLOT_HEATMAP:
		return &chart->u.heatmap->labels;
	case PLOT_POWER:
		return &chart->u.power->labels;
	}
	return NULL;
}

void plot_ctx_init(struct plot_ctx *c, cairo_t *cr, struct strbuf *texts)
{
	cairo_font_options_t *fo = cairo_font_options_create();

	memset(c, 0, sizeof(*c));
	c->cr = cr;
	c->texts = texts;
	c->pango = pango_cairo_create_context(cr);
	/* unhinted metrics: the same layout at every scale and in every format */
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	pango_cairo_context_set_font_options(c->pango, fo);
	cairo_font_options_destroy(fo);
#if PANGO_VERSION_CHECK(1, 44, 0)
	pango_context_set_round_glyph_positions(c->pango, FALSE);
#endif
}

void plot_ctx_release(struct plot_ctx *c)
{
	if (c->pango)
		g_object_unref(c->pango);
	plot_palette_free(c->own_palette);
	memset(c, 0, sizeof(*c));
}

const struct plot_palette *plot_ctx_palette(struct plot_ctx *c, const struct plot_palette *given,
					    const struct plot_sys *systems, size_t nsys)
{
	size_t i;

	if (given)
		return given;
	plot_palette_free(c->own_palette);
	c->own_palette = plot_palette_new();
	for (i = 0; i < nsys; i++)
		plot_palette_add(c->own_palette, systems[i].name, systems[i].vendor);
	return c->own_palette;
}

int plot_render(struct plot_ctx *c, const struct plot_rect *area, const struct plot_chart *chart,
		struct strbuf *err)
{
	struct plot_rect r = *area;
	double f;
	int rc;

	if (!(area->w >= PLOT_MIN_W && area->h >= PLOT_MIN_H))
		return ab_fail(err, AB_EUSAGE, "chart area %gx%g is too small: at least %gx%g",
			       area->w, area->h, PLOT_MIN_W, PLOT_MIN_H);
	/* below the smallest layout that fits fonts and data, lay out at that
	 * size and scale the whole chart down, text included */
	f = fmin(1.0, fmin(area->w / PLOT_LAYOUT_W, area->h / PLOT_LAYOUT_H));
	cairo_save(c->cr);
	if (f < 1.0) {
		cairo_translate(c->cr, area->x, area->y);
		cairo_scale(c->cr, f, f);
		r.x = r.y = 0;
		r.w = area->w / f;
		r.h = area->h / f;
	}
	r.x += PLOT_PAD;
	r.y += PLOT_PAD;
	r.w -= 2 * PLOT_PAD;
	r.h -= 2 * PLOT_PAD;
	switch (chart->kind) {
	case PLOT_BAR:
		rc = plot_bar_render(c, r, chart->u.bar, err);
		break;
	case PLOT_BARGROUP:
		rc = plot_bargroup_render(c, r, chart->u.bargroup, err);
		break;
	case PLOT_BATCH:
		rc = plot_batch_render(c, r, chart->u.batch, err);
		break;
	case PLOT_DEVICES:
		rc = plot_devices_render(c, r, chart->u.devices, err);
		break;
	case PLOT_PARETO:
		rc = plot_pareto_render(c, r, chart->u.pareto, err);
		break;
	case PLOT_HEATMAP:
		rc = plot_heatmap_render(c, r, chart->u.heatmap, err);
		break;
	case PLOT_POWER:
		rc = plot_power_render(c, r, chart->u.power, err);
		break;
	default:
		rc = ab_fail(err, AB_EINTERNAL, "unknown chart kind %d", (int)chart->kind);
	}
	cairo_restore(c->cr);
	return rc;
}

int plot_draw_recording(cairo_t *cr, const struct plot_rect *area, const struct plot_chart *chart,
			struct strbuf *texts, struct strbuf *err)
{
	struct plot_ctx c;
	cairo_status_t st;
	int rc;

	if (!chart || !chart->u.bar)
		return ab_fail(err, AB_EINTERNAL, "no chart to draw");
	if ((st = cairo_status(cr)) != CAIRO_STATUS_SUCCESS)
		return ab_fail(err, AB_EINTERNAL, "cannot draw %s chart: %s",
			       plot_kind_name(chart->kind), cairo_status_to_string(st));
	cairo_save(cr);
	cairo_new_path(cr);
	cairo_rectangle(cr, area->x, area->y, area->w, area->h);
	cairo_clip(cr);
	plot_ctx_init(&c, cr, texts);
	rc = plot_render(&c, area, chart, err);
	plot_ctx_release(&c);
	cairo_restore(cr);
	if (!rc && (st = cairo_status(cr)) != CAIRO_STATUS_SUCCESS)
		rc = ab_fail(err, AB_EINTERNAL, "cannot draw %s chart: %s",
			     plot_kind_name(chart->kind), cairo_status_to_string(st));
	return rc;
}

int plot_draw(cairo_t *cr, const struct plot_rect *area, const struct plot_chart *chart,
	      struct strbuf *err)
{
	/* cr may come from a caller linked with cairo itself (the unit
	 * tests): the table must be filled before anything is drawn */
	int rc = gfx_load(err);

	return rc < 0 ? rc : plot_draw_recording(cr, area, chart, NULL, err);
}

/* Leak checkers would want cairo's and fontconfig's static caches freed,
 * but the calls that do it (cairo_debug_reset_static_data(), FcFini())
 * assert when a font the PDF backend cached is still referenced: both
 * aborted sanitizer runs of "plot -o x.pdf" (FcFini: "fcCacheChains[i] ==
 * NULL", one of 8 concurrent writers in t0800).  Their caches are left to
 * the OS and suppressed in tests/lsan.supp. */
void plot_shutdown(void)
{
	/* the thread's default font map, and with it pango's caches; nothing
	 * to free (nor any library to load for it) when nothing was drawn */
	if (gfx_loaded())
		pango_cairo_font_map_set_default(NULL);
}
