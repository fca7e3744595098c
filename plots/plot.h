/*
 * plot.h - the chart kit: cross-vendor comparison figures drawn with cairo
 * and pango from plain arrays (plots/ never touches SQLite or model/).
 *
 * A chart is a spec struct (title, subtitle, axis titles with units and the
 * data) wrapped in a struct plot_chart.  It is drawn either
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

/* ---- systems, colours, markers ---------------------------------------- */

enum plot_vendor {
	PLOT_VENDOR_NVIDIA,
	PLOT_VENDOR_AMD,
	PLOT_VENDOR_INTEL,
	PLOT_VENDOR_GRAPHCORE,
	PLOT_VENDOR_CEREBRAS,
	PLOT_VENDOR_GOOGLE,
	PLOT_VENDOR_OTHER, /* CPUs and anything unknown */
	PLOT_VENDOR_COUNT
};

enum plot_marker {
	PLOT_MARKER_CIRCLE,
	PLOT_MARKER_SQUARE,
	PLOT_MARKER_DIAMOND,
	PLOT_MARKER_TRIANGLE_UP,
	PLOT_MARKER_TRIANGLE_DOWN,
	PLOT_MARKER_HEXAGON,
	PLOT_MARKER_COUNT
};

struct plot_rgb {
	double r, g, b; /* 0..1, sRGB */
};

struct plot_style {
	struct plot_rgb color;
	enum plot_marker marker;
	enum plot_vendor vendor;
	int shade; /* index into the vendor's shades */
};

/* Case-insensitive vendor name ("NVIDIA", "amd", "Intel", "Graphcore",
 * "Cerebras", "Google"); NULL, "CPU" and anything else -> PLOT_VENDOR_OTHER. */
enum plot_vendor plot_vendor_from_name(const char *vendor);
/* "NVIDIA", "AMD", ..., "Other". */
const char *plot_vendor_label(enum plot_vendor v);

/*
 * A palette maps system names to styles.  Each system prefers the shade and
 * marker given by a hash (FNV-1a) of its name within its vendor's family;
 * clashes inside a vendor are resolved in byte order of the names.  So the
 * style depends only on the set of systems added, never on their order.
 */
struct plot_palette;

struct plot_palette *plot_palette_new(void);
void plot_palette_free(struct plot_palette *pal); /* NULL-safe */
/* Adding the same system twice is a no-op (the first vendor wins). */
void plot_palette_add(struct plot_palette *pal, const char *system, const char *vendor);
/* The style of system; a system never added gets its hash-preferred style
 * in the family of vendor. */
void plot_palette_style(const struct plot_palette *pal, const char *system, const char *vendor,
			struct plot_style *out);

/* ---- shared spec parts ------------------------------------------------ */

enum plot_scale {
	PLOT_SCALE_AUTO = 0, /* the chart's documented default */
	PLOT_SCALE_LINEAR,
	PLOT_SCALE_LOG2,
	PLOT_SCALE_LOG10
};

/* Text of a chart; NULL or "" leaves an element out, except that a NULL
 * caption gives the chart's default method note (every kind but power) and
 * "" none.  Axis titles are drawn as "title (unit)"; a chart missing an
 * axis title it needs is refused (-AB_EDATA) unless a default is noted. */
struct plot_labels {
	const char *title;
	const char *subtitle; /* data source and n, e.g. "CARAML 2024.01 · 5 runs each" */
	const char *x_title, *x_unit;
	const char *y_title, *y_unit;
	const char *caption;  /* small print under the chart (method notes) */
};

/* A measured point: y with its 95 % CI [lo, hi] (NAN: no CI). */
struct plot_point {
	double x, y, lo, hi;
};

/* ---- 1. bar: one metric, systems sorted by value ----------------------- */

struct plot_bar {
	const char *system, *vendor;
	double value;  /* median */
	double lo, hi; /* 95 % CI of the median; NAN: none ("n too small") */
	int n;         /* runs behind the value, shown under the bar; < 0: not shown */
};

struct plot_bar_spec {
	struct plot_labels labels;  /* y title required; x title unused (names) */
	const struct plot_bar *bars;
	size_t n_bars;
	const char *baseline;       /* system to mark; ratios are shown against it */
	int lower_is_better;        /* sort ascending instead of descending */
	enum plot_scale y_scale;    /* AUTO: linear from 0 */
	const struct plot_palette *palette;
};

/* ---- 1b. grouped bar: several benchmarks or batch sizes --------------- */

struct plot_sys {
	const char *name, *vendor;
};

struct plot_cell {
	double value, lo, hi; /* value NAN: not measured; lo/hi NAN: no CI */
	int n;                /* runs behind the value (not drawn in groups) */
};

struct plot_bargroup_spec {
	struct plot_labels labels;      /* y title required */
	const char *const *groups;      /* category labels along x */
	size_t n_groups;
	const struct plot_sys *systems; /* one bar per system in every group */
	size_t n_systems;
	const struct plot_cell *cells;  /* cells[g * n_systems + s] */
	double reference;               /* horizontal reference line (e.g. 1 for
					 * ratios); NAN: none */
	const char *reference_label;
	enum plot_scale y_scale;        /* AUTO: linear from 0 */
	const struct plot_palette *palette;
};

/* ---- 2. batch scaling ------------------------------------------------- */

struct plot_batch_series {
	const char *system, *vendor;
	const struct plot_point *points; /* x = global batch size, y = throughput */
	size_t n_points;
	const double *failed;            /* batch sizes that failed or ran out of memory */
	size_t n_failed;
	double xmax, bhalf;              /* fit X(b) = xmax * b / (b + bhalf); NAN: none */
	double knee;                     /* batch size reaching 90 % of xmax; NAN: none */
};

struct plot_batch_spec {
	struct plot_labels labels; /* y title required; x default "Global batch size" */
	const struct plot_batch_series *series;
	size_t n_series;
	enum plot_scale x_scale; /* AUTO: log2 */
	enum plot_scale y_scale; /* AUTO: linear from 0 */
	const struct plot_palette *palette;
};

/* ---- 3. device / node scaling ------------------------------------------ */

struct plot_devices_series {
	const char *system, *vendor;
	const struct plot_point *points; /* x = devices or nodes, y = speedup (or
					  * throughput); sorted by x or not */
	size_t n_points;
};

struct plot_devices_spec {
	struct plot_labels labels;  /* y (the speedup panel) required; x default "Devices" */
	const char *eff_title;      /* efficiency panel title; NULL: "Parallel efficiency" (%) */
	int no_efficiency;          /* 1: speedup panel only */
	const struct plot_devices_series *series;
	size_t n_series;
	enum plot_scale x_scale;    /* AUTO: log2 */
	enum plot_scale y_scale;    /* AUTO: log2 */
	const struct plot_palette *palette;
	/* The ideal line of a series goes through its first (smallest x)
	 * point: ideal(x) = y0 * x / x0; efficiency = y / ideal(x). */
};

/* ---- 4. Pareto: throughput vs energy efficiency ------------------------ */

struct plot_pareto_point {
	const char *system, *vendor;
	const char *label;  /* NULL: the system name */
	double x, y;        /* x = energy efficiency, y = throughput */
};

struct plot_pareto_spec {
	struct plot_labels labels;          /* x and y titles required */
	const struct plot_pareto_point *points;
	size_t n_points;
	int x_lower_better, y_lower_better; /* default: more is better on both */
	enum plot_scale x_scale, y_scale;   /* AUTO: linear, the data range padded */
	const struct plot_palette *palette;
};

/* ---- 5. heatmap: systems x benchmarks, ratio to baseline --------------- */

struct plot_heatmap_spec {
	struct plot_labels labels;  /* optional x title under the benchmark names,
				     * y title over the system names */
	const char *const *rows;    /* systems */
	size_t n_rows;
	const char *const *cols;    /* benchmarks */
	size_t n_cols;
	const double *ratios;       /* ratios[r * n_cols + c] > 0; NAN: not measured */
	const char *baseline;       /* named in the colour bar */
	int no_geomean;             /* 1: no geometric-mean column */
	int keep_order;             /* 1: rows as given; 0: by geometric mean, best first */
	/* Colours diverge around 1 on a log scale, orange below and purple
	 * above, saturating at 1/4x and 4x (2x when the data stay within);
	 * the value is printed in each cell. */
};

/* ---- 6. power timeline ----------------------------------------------- */

struct plot_power_series {
	const char *device; /* legend label, e.g. "GPU 0" */
	const double *t;    /* seconds, increasing */
	const double *watts;
	size_t n;
};

struct plot_power_spec {
	struct plot_labels labels;  /* defaults: "Time since run start" (s; min for
				     * runs over 30 minutes), "Power" (W) */
	const struct plot_power_series *series;
	size_t n_series;
	double run_start, run_stop; /* same time base as t; NAN: not marked */
	double t0;                  /* subtracted from all times; NAN: run_start if
				     * set, else the first sample */
};

/* ---- charts --------------------------------------------------------- */

enum plot_kind {
	PLOT_BAR = 1,
	PLOT_BARGROUP,
	PLOT_BATCH,
	PLOT_DEVICES,
	PLOT_PARETO,
	PLOT_HEATMAP,
	PLOT_POWER
};

struct plot_chart {
	enum plot_kind kind;
	union {
		const struct plot_bar_spec *bar;
		const struct plot_bargroup_spec *bargroup;
		const struct plot_batch_spec *batch;
		const struct plot_devices_spec *devices;
		const struct plot_pareto_spec *pareto;
		const struct plot_heatmap_spec *heatmap;
		const struct plot_power_spec *power;
	} u;
};

/* "bar", "bargroup", "batch", "devices", "pareto", "heatmap", "power". */
const char *plot_kind_name(enum plot_kind kind);

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
