/*
 * plot.h - the chart kit: cross-vendor comparison figures drawn with cairo
 * and pango from plain arrays (plots/ never touches SQLite or model/).
 *
 * A chart is a spec struct (title, subtitle, axis titles with units and the
 * data) wrapped in a struct plot_chart; views/views.h defines them (views/
 * decides what a chart shows, plots/ only draws it).  It is drawn either
 *   - into a region of any cairo context (plot_draw: the PDF report), or
 *   - into a file (plot_write_file: PNG, SVG or PDF, written atomically).
 *
 * Sizes.  Layout happens in "units": fonts are 10-15 units high and the
 * default chart is 800 x 500 units.  A PNG is rendered at `scale` pixels per
 * unit, so the default `-o x.png` is 1600 x 1000 pixels drawn at 2x.  SVG and
 * PDF files get the same layout at width/scale x height/scale (800 x 500 by
 * default; points in PDF, px in SVG), so a chart looks the same in every
 * format.  plot_draw lays the chart out in whatever area it is given, in the
 * cairo context's user units, with the same font sizes; an area smaller
 * than 520 x 340 gets the 520 x 340 layout scaled down to fit (text
 * included), so small report figures stay readable rather than cramped.
 * Fonts: DejaVu Sans, or the sans font fontconfig substitutes.
 *
 * Colours.  Every system gets a colour and a marker from a fixed,
 * colour-blind-safe palette keyed by vendor (see plot_palette_style).  Pass
 * one struct plot_palette holding every system of a report to every chart so
 * that a system looks the same everywhere; with palette NULL a chart builds
 * one from its own systems.
 *
 * Ownership: specs and everything they point to are borrowed for the call
 * only; nothing is retained.  Strings are UTF-8.  Functions returning int
 * return 0 or -AB_EDATA (nothing to plot, a value the axis cannot show),
 * -AB_EUSAGE (bad file type or size, or a chart whose labels leave no room
 * for its data), -AB_EIO (file output) or -AB_EINTERNAL (cairo failure),
 * with the message in err.
 */
#ifndef AB_PLOT_H
#define AB_PLOT_H

#include "core/compat.h"
#include "core/strbuf.h"
#include "views/views.h" /* the chart specs and the palette */

#include <cairo.h>

/* ---- output --------------------------------------------------------- */

enum plot_format {
	PLOT_FMT_AUTO = 0, /* from the file name's extension */
	PLOT_FMT_PNG,
	PLOT_FMT_SVG,
	PLOT_FMT_PDF
};

#define PLOT_DEFAULT_WIDTH 1600  /* PNG pixels */
#define PLOT_DEFAULT_HEIGHT 1000
#define PLOT_DEFAULT_SCALE 2.0   /* PNG pixels per layout unit */

/* --width/--height are PNG pixels for every format: an SVG or PDF of
 * width x height at scale s is width/s x height/s px or pt, with the same
 * layout as the PNG.  Up to 20000 pixels a side; at least 240 x 160 units
 * (480 x 320 pixels at scale 2); scale 0.25 to 16. */
struct plot_file_opts {
	enum plot_format format; /* PLOT_FMT_AUTO: from the extension of path */
	int width, height;       /* PNG pixels; 0: PLOT_DEFAULT_WIDTH/HEIGHT */
	double scale;            /* pixels per unit; 0: PLOT_DEFAULT_SCALE */
};

/* ".png", ".svg" or ".pdf" (any case) -> *out; else -AB_EUSAGE. */
int plot_format_from_path(const char *path, enum plot_format *out, struct strbuf *err);

struct plot_rect {
	double x, y, w, h;
};

/*
 * Draw chart into area of cr (user units; at least 240 x 160), clipped to
 * it.  Paints no background; the cairo state is restored afterwards.
 * Checks cairo_status before and after.
 */
int plot_draw(cairo_t *cr, const struct plot_rect *area, const struct plot_chart *chart,
	      struct strbuf *err);

/*
 * Render chart to path as PNG, SVG or PDF on a white background, atomically
 * (core/atomic: unique temporary file, then rename).  opts may be NULL.  Path "-" is standard output
 * (written directly; opts->format must say which format).
 * PDF: Title/Creator metadata and a creation date from SOURCE_DATE_EPOCH
 * (0, i.e. 1970-01-01, when unset) so output is reproducible.  SVG: text is
 * drawn as glyph outlines, so the title and every label are also written
 * into <title>/<desc>, and cairo's surface ids are renumbered: the same
 * chart gives the same bytes.
 */
int plot_write_file(const char *path, const struct plot_file_opts *opts,
		    const struct plot_chart *chart, struct strbuf *err);

/* Free pango's font caches at exit, after the last chart (any later pango
 * use starts them again); sanitizer builds also free cairo's and
 * fontconfig's static data, so leak checkers see no leaks. */
void plot_shutdown(void);

#endif
