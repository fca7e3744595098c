/*
 * output.c - charts into files: PNG (image surface at `scale` pixels per
 * unit), SVG and PDF (vector surfaces at the layout size), always through
 * core/atomic (unique temporary file, rename last), with every cairo status checked.  PDF metadata
 * carries a creation date from SOURCE_DATE_EPOCH so builds are
 * reproducible.
 */
#include "plots/plot_priv.h"

#include <time.h>

#define MAX_PIXELS 20000

struct sink {
	FILE *fp;           /* write here, or */
	struct strbuf *mem; /* collect here */
	int failed;
	int errnum;
};

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct sink *s = closure;

	if (s->mem) {
		strbuf_add(s->mem, data, len);
		return CAIRO_STATUS_SUCCESS;
	}
	if (fwrite(data, 1, len, s->fp) != len) {
		s->failed = 1;
		s->errnum = errno;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

static int ends_with_ci(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix), i;

	if (n < m)
		return 0;
	for (i = 0; i < m; i++) {
		int c = (unsigned char)s[n - m + i];
		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (c != suffix[i])
			return 0;
	}
	return 1;
}

int plot_format_from_path(const char *path, enum plot_format *out, struct strbuf *err)
{
	if (ends_with_ci(path, ".png"))
		*out = PLOT_FMT_PNG;
	else if (ends_with_ci(path, ".svg"))
		*out = PLOT_FMT_SVG;
	else if (ends_with_ci(path, ".pdf"))
		*out = PLOT_FMT_PDF;
	else
		return ab_fail(err, AB_EUSAGE,
			       "unknown chart file type '%s': name it .png, .svg or .pdf", path);
	return 0;
}

/* "YYYY-MM-DDThh:mm:ssZ" of SOURCE_DATE_EPOCH, or of 0 when unset/bad. */
static void pdf_date(char *buf, size_t size)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	long long epoch = 0;
	time_t t;
	struct tm tm;

	if (!env || num_parse_ll(env, strlen(env), &epoch) != NUM_OK || epoch < 0)
		epoch = 0;
	t = (time_t)epoch;
	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "1970-01-01T00:00:00Z");
}

static int cairo_fail(struct strbuf *err, const char *what, const char *path, cairo_status_t st,
		      const struct sink *s)
{
	if (s && s->failed)
		return ab_fail(err, AB_EIO, "cannot write '%s': %s", path, strerror(s->errnum));
	if (st == CAIRO_STATUS_WRITE_ERROR)
		return ab_fail(err, AB_EIO, "cannot write '%s': %s", path,
			       cairo_status_to_string(st));
	return ab_fail(err, AB_EINTERNAL, "cannot %s '%s': %s", what, path,
		       cairo_status_to_string(st));
}

static int check_size(int w, int h, double scale, struct strbuf *err)
{
	if (w < 1 || h < 1 || w > MAX_PIXELS || h > MAX_PIXELS)
		return ab_fail(err, AB_EUSAGE, "chart size %dx%d is out of range: 1 to %d pixels",
			       w, h, MAX_PIXELS);
	if (!(scale >= 0.25 && scale <= 16))
		return ab_fail(err, AB_EUSAGE, "chart scale %g is out of range: 0.25 to 16", scale);
	if (w / scale < PLOT_MIN_W || h / scale < PLOT_MIN_H)
		return ab_fail(err, AB_EUSAGE,
			       "chart size %dx%d is too small at scale %g: at least %gx%g pixels",
			       w, h, scale, PLOT_MIN_W * scale, PLOT_MIN_H * scale);
	return 0;
}

static cairo_surface_t *make_surface(enum plot_format fmt, int w, int h, double scale,
				     struct sink *s, const char *title)
{
	cairo_surface_t *sf;
	char date[64];

	switch (fmt) {
	case PLOT_FMT_PNG:
		return cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	case PLOT_FMT_SVG:
		sf = cairo_svg_surface_create_for_stream(sink_write, s, w / scale, h / scale);
		if (cairo_surface_status(sf) == CAIRO_STATUS_SUCCESS)
			cairo_svg_surface_set_document_unit(sf, CAIRO_SVG_UNIT_PX);
		return sf;
	default:
		sf = cairo_pdf_surface_create_for_stream(sink_write, s, w / scale, h / scale);
		if (cairo_surface_status(sf) == CAIRO_STATUS_SUCCESS) {
			pdf_date(date, sizeof(date));
			cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_CREATE_DATE, date);
			cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_CREATOR,
						       "accelbench " AB_VERSION);
			if (title && *title)
				cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_TITLE, title);
		}
		return sf;
	}
}

/* Draw the chart on a white page of sf. */
static int paint(cairo_surface_t *sf, enum plot_format fmt, double scale, struct plot_rect area,
		 const struct plot_chart *chart, struct strbuf *texts, const char *path,
		 struct strbuf *err)
{
	cairo_t *cr = cairo_create(sf);
	cairo_status_t st = cairo_status(cr);
	int rc = 0;

	if (st != CAIRO_STATUS_SUCCESS) {
		cairo_destroy(cr);
		return cairo_fail(err, "draw", path, st, NULL);
	}
	if (fmt == PLOT_FMT_PNG)
		cairo_scale(cr, scale, scale);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	rc = plot_draw_recording(cr, &area, chart, texts, err);
	if (!rc && (st = cairo_status(cr)) != CAIRO_STATUS_SUCCESS)
		rc = cairo_fail(err, "draw", path, st, NULL);
	cairo_destroy(cr);
	return rc;
}

int plot_write_file(const char *path, const struct plot_file_opts *opts,
		    const struct plot_chart *chart, struct strbuf *err)
{
	struct plot_file_opts o = { 0 };
	struct atomic_file af;
	struct strbuf texts = STRBUF_INIT, svg = STRBUF_INIT;
	struct sink s = { 0 };
	const struct plot_labels *lb = plot_chart_labels(chart);
	const char *title = lb && lb->title ? lb->title : "";
	cairo_surface_t *sf = NULL;
	cairo_status_t st;
	struct plot_rect area;
	int rc;

	if (opts)
		o = *opts;
	if (!lb)
		return ab_fail(err, AB_EINTERNAL, "no chart to write to '%s'", path);
	if (!o.format && (rc = plot_format_from_path(path, &o.format, err)) < 0)
		return rc;
	if (o.format != PLOT_FMT_PNG && o.format != PLOT_FMT_SVG && o.format != PLOT_FMT_PDF)
		return ab_fail(err, AB_EUSAGE, "unknown chart format %d for '%s'", (int)o.format,
			       path);
	if ((rc = gfx_load(err)) < 0)
		return rc;
	if (!o.width)
		o.width = PLOT_DEFAULT_WIDTH;
	if (!(o.scale > 0))
		o.scale = PLOT_DEFAULT_SCALE;
	if (!o.height) {
		o.height = PLOT_DEFAULT_HEIGHT;
		/* many systems: the file grows so every one keeps its row */
		double need = chart->kind == PLOT_BAR && chart->u.bar->horizontal
				      ? plot_hbar_height(chart->u.bar)
			      : chart->kind == PLOT_HEATMAP ? plot_heatmap_height(chart->u.heatmap)
			      : chart->kind == PLOT_BARGROUP && chart->u.bargroup->horizontal
				      ? plot_hbargroup_height(chart->u.bargroup)
				      : 0;
		if (need * o.scale > o.height)
			o.height = (int)ceil(need * o.scale);
	}
	if ((rc = check_size(o.width, o.height, o.scale, err)) < 0)
		return rc;
	area.x = area.y = 0;
	area.w = o.width / o.scale;
	area.h = o.height / o.scale;

	if ((rc = atomic_open(&af, path, err)) < 0)
		return rc;
	s.fp = af.fp;
	if (o.format == PLOT_FMT_SVG)
		s.mem = &svg;
	sf = make_surface(o.format, o.width, o.height, o.scale, &s, title);
	if ((st = cairo_surface_status(sf)) != CAIRO_STATUS_SUCCESS) {
		rc = cairo_fail(err, "create", path, st, &s);
		goto fail;
	}
	if ((rc = paint(sf, o.format, o.scale, area, chart, &texts, path, err)) < 0)
		goto fail;
	if (o.format == PLOT_FMT_PNG)
		st = cairo_surface_write_to_png_stream(sf, sink_write, &s);
	else {
		cairo_surface_finish(sf);
		st = cairo_surface_status(sf);
	}
	if (st != CAIRO_STATUS_SUCCESS || s.failed) {
		rc = cairo_fail(err, "write", path, st, &s);
		goto fail;
	}
	cairo_surface_destroy(sf);
	sf = NULL;
	if (o.format == PLOT_FMT_SVG) {
		if ((rc = plot_svg_finish(&svg, title, texts.buf, err)) < 0)
			goto fail;
		if (fwrite(svg.buf, 1, svg.len, af.fp) != svg.len) {
			rc = ab_fail(err, AB_EIO, "cannot write '%s': %s", path, strerror(errno));
			goto fail;
		}
	}
	rc = atomic_commit(&af, err);
	strbuf_release(&texts);
	strbuf_release(&svg);
	return rc;
fail:
	if (sf)
		cairo_surface_destroy(sf);
	atomic_abort(&af);
	strbuf_release(&texts);
	strbuf_release(&svg);
	return rc;
}
