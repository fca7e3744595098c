/*
 * plot_priv.h - internals shared by the files of plots/: the drawing
 * context, theme, text, number formatting, axes, legends, placement.
 *
 * Coordinates are cairo user units with y growing downwards.  Nothing here
 * is part of the public API; unit tests include it to check ticks,
 * formatting, label shortening and the palette.
 */
#ifndef AB_PLOT_PRIV_H
#define AB_PLOT_PRIV_H

#include "core/core.h"
#include "plots/plot.h"

#include "plots/gfx.h" /* cairo/pango headers; calls through the loaded table */

#include <math.h>

#define PLOT_PI 3.14159265358979323846

/* Names in specs may be NULL: they read as "". */
static inline const char *plot_str(const char *s)
{
	return s ? s : "";
}

/* ---- theme: sizes in units (a default chart is 800 x 500) ------------- */

#define PLOT_FONT_FAMILY "DejaVu Sans, Bitstream Vera Sans, Noto Sans, sans-serif"
#define PLOT_SZ_TITLE 15.0
#define PLOT_SZ_SUBTITLE 10.5
#define PLOT_SZ_AXIS 10.5   /* axis titles */
#define PLOT_SZ_TICK 9.5    /* tick labels, category names */
#define PLOT_SZ_LABEL 9.0   /* legend, data labels */
#define PLOT_SZ_SMALL 8.0   /* n = , caption */
#define PLOT_PAD 14.0       /* outer margin */
#define PLOT_GAP 6.0        /* between a text and what it labels */
#define PLOT_MARKER_R 4.2   /* marker "radius" */
#define PLOT_MIN_W 240.0   /* smallest area accepted */
#define PLOT_MIN_H 160.0
#define PLOT_LAYOUT_W 520.0 /* smaller areas get this layout, scaled down */
#define PLOT_LAYOUT_H 340.0

/* Greys of the chrome (colour-blind safe by construction: no hue). */
#define PLOT_RGB_INK { 0.13, 0.13, 0.13 }     /* titles */
#define PLOT_RGB_INK2 { 0.33, 0.33, 0.33 }    /* labels */
#define PLOT_RGB_INK3 { 0.50, 0.50, 0.50 }    /* small print */
#define PLOT_RGB_SPINE { 0.55, 0.55, 0.55 }
#define PLOT_RGB_GRID { 0.88, 0.88, 0.88 }
#define PLOT_RGB_GRID_MINOR { 0.945, 0.945, 0.945 }
#define PLOT_RGB_WHITE { 1.0, 1.0, 1.0 }
#define PLOT_RGB_MUTED { 0.72, 0.72, 0.72 }
#define PLOT_INK ((struct plot_rgb)PLOT_RGB_INK)
#define PLOT_INK2 ((struct plot_rgb)PLOT_RGB_INK2)
#define PLOT_INK3 ((struct plot_rgb)PLOT_RGB_INK3)
#define PLOT_SPINE ((struct plot_rgb)PLOT_RGB_SPINE)
#define PLOT_GRID ((struct plot_rgb)PLOT_RGB_GRID)
#define PLOT_GRID_MINOR ((struct plot_rgb)PLOT_RGB_GRID_MINOR)
#define PLOT_WHITE ((struct plot_rgb)PLOT_RGB_WHITE)
#define PLOT_MUTED ((struct plot_rgb)PLOT_RGB_MUTED)

/* ---- drawing context (canvas.c) --------------------------------------- */

struct plot_ctx {
	cairo_t *cr;
	PangoContext *pango;
	struct strbuf *texts; /* every string drawn, one per line; NULL: off */
	struct plot_palette *own_palette; /* built by plot_ctx_palette() */
};

void plot_ctx_init(struct plot_ctx *c, cairo_t *cr, struct strbuf *texts);
void plot_ctx_release(struct plot_ctx *c);
/* The palette to use: the spec's, else one built from systems (nsys
 * name/vendor pairs) and owned by the context. */
const struct plot_palette *plot_ctx_palette(struct plot_ctx *c, const struct plot_palette *given,
					    const struct plot_sys *systems, size_t nsys);
/* The labels of any chart (NULL for an unknown kind). */
const struct plot_labels *plot_chart_labels(const struct plot_chart *chart);
/* plot_draw, also appending every string drawn to texts (one per line). */
int plot_draw_recording(cairo_t *cr, const struct plot_rect *area, const struct plot_chart *chart,
			struct strbuf *texts, struct strbuf *err);
/* Render chart into area of c (dispatch on kind). */
int plot_render(struct plot_ctx *c, const struct plot_rect *area, const struct plot_chart *chart,
		struct strbuf *err);

/* ---- text (text.c) ---------------------------------------------------- */

struct plot_font {
	double size;
	int bold;
	int italic;
	struct plot_rgb color;
	double wrap;   /* > 0: wrap lines between words at this width (a longer
			* word overflows: check the measured width) */
	int center;    /* centre wrapped lines */
	int halo;      /* a white outline keeps it readable over lines */
};

/* Size of the text's logical box. */
void plot_text_extent(struct plot_ctx *c, const struct plot_font *f, const char *s, double *w,
		      double *h);
/* Draw s so that point (ax, ay) of its box (fractions of width and height)
 * lands on (x, y); angle rotates the box about that point, in degrees,
 * negative = counter-clockwise (rising text). */
void plot_text_draw(struct plot_ctx *c, const struct plot_font *f, const char *s, double x,
		    double y, double ax, double ay, double angle);
/* Axis-aligned box of that drawn text. */
struct plot_rect plot_text_box(struct plot_ctx *c, const struct plot_font *f, const char *s,
			       double x, double y, double ax, double ay, double angle);
/* s shortened (plot_label_shorten) until it is at most max_w wide. */
void plot_text_fit(struct plot_ctx *c, const struct plot_font *f, const char *s, double max_w,
		   struct strbuf *out);

/* ---- labels (labels.c): pure string helpers ---------------------------- */

/* Number of UTF-8 code points. */
size_t plot_utf8_len(const char *s);
/* s with at most max_chars code points, "…" marking what was cut: the
 * last words are kept when they take at most half the room
 * ("archer2…torch"), else the end goes ("GH200 Grace…"); cuts snap to
 * separators (space - _ : / . ,) nearby.  max_chars < 4 keeps the first
 * code points only. */
void plot_label_shorten(struct strbuf *out, const char *s, size_t max_chars);
/* "title (unit)", title or def_title, unit or def_unit; empty when none. */
void plot_axis_title(struct strbuf *out, const char *title, const char *unit, const char *def_title,
		     const char *def_unit);

/* 0 when title is set; else an error naming the chart and axis. */
int plot_need_title(const char *title, const char *chart, const char *axis, struct strbuf *err);

/* ---- numbers (numfmt.c) ------------------------------------------------ */

struct plot_numfmt {
	int decimals;  /* after the point, after SI scaling */
	int thousands; /* ',' every three digits */
	int si;        /* power of ten of the shared suffix: 0, 3 (k), 6 (M), 9 (G), 12 (T) */
	int per_tick;  /* 1: log10 axes, each tick picks its own suffix;
			* 2: log2 axes, each tick as short as it can be */
};

/* Decide how to print the ticks of an axis.  Linear: an SI suffix shared
 * by the axis when its largest tick reaches 100,000, thousands separators
 * from 1,000, decimals from step.  log10: each tick with its own suffix
 * from 10,000 ("10k", "1M").  log2: plain shortest numbers, no separators
 * (batch sizes read 4096). */
void plot_numfmt_ticks(struct plot_numfmt *f, enum plot_scale scale, const double *ticks, size_t n,
		       double step);
void plot_numfmt_apply(struct strbuf *sb, const struct plot_numfmt *f, double v);
/* A data label: >= 1e6 as 3 significant digits with SI ("1.23M"), >= 1000
 * as an integer with separators ("98,288"), >= 0.1 with 3 significant
 * digits but at most two decimals ("183", "12.3", "0.92"), below that 3
 * significant digits ("0.0123"). */
/* "1.21×", "0.85×", "12.3×", "0.027×" */
void plot_format_ratio(struct strbuf *sb, double r);

/* ---- axes and ticks (axis.c) ---------------------------------------- */

#define PLOT_MAX_TICKS 40
#define PLOT_MAX_MINOR 160

/* Nice 1-2-5 ticks covering [lo, hi] (widened to whole steps), at most
 * max_ticks of them (at least 2).  Returns the count; *step the spacing. */
size_t plot_ticks_linear(double lo, double hi, size_t max_ticks, double *ticks, size_t cap,
			 double *step);
/* The same, but only ticks within [lo, hi] count and are returned (axes
 * whose limits are not widened to whole steps). */
size_t plot_ticks_linear_inside(double lo, double hi, size_t max_ticks, double *ticks, size_t cap,
				double *step);
/* Ticks on a log axis inside [lo, hi] (lo > 0): powers of base, every k-th
 * power if there are too many; when fewer than two powers fall inside,
 * 1-2-5 (base 10) or linear ticks.  Returns the count. */
size_t plot_ticks_log(double lo, double hi, int base, size_t max_ticks, double *ticks, size_t cap);

enum plot_axis_flags {
	PLOT_AXIS_ZERO = 1 << 0,  /* linear: the range includes 0 */
	PLOT_AXIS_NICE = 1 << 1,  /* linear: limits widened to whole tick steps */
	PLOT_AXIS_PAD = 1 << 2,   /* pad the range by 5 % (log: a fraction of a step) */
	PLOT_AXIS_HEADROOM = 1 << 3 /* linear: 8 % extra above the data (labels) */
};

struct plot_axis {
	enum plot_scale scale;
	unsigned flags;
	double dlo, dhi;  /* data range asked for */
	double lo, hi;    /* limits */
	double p0, p1;    /* device positions of lo and hi */
	size_t n_ticks, n_minor;
	double ticks[PLOT_MAX_TICKS];
	double minor[PLOT_MAX_MINOR];
	double step;
	struct plot_numfmt fmt;
};

/* Limits, ticks and format for data in [dlo, dhi] with at most max_ticks
 * labelled ticks.  Log scales need dlo > 0. */
void plot_axis_setup(struct plot_axis *a, enum plot_scale scale, unsigned flags, double dlo,
		     double dhi, size_t max_ticks);
void plot_axis_set_pixels(struct plot_axis *a, double p0, double p1);
double plot_axis_map(const struct plot_axis *a, double v);
/* v clamped into the limits, then mapped. */
double plot_axis_map_clamped(const struct plot_axis *a, double v);
/* Label of tick i. */
void plot_axis_tick_label(const struct plot_axis *a, size_t i, struct strbuf *sb);
int plot_scale_is_log(enum plot_scale s);
/* The value axis along the bottom of plot area p of a horizontal bar chart:
 * limits (log: padded [lo, hi]; linear: zero-based, nice [lin_lo, hi]), grid
 * lines, tick labels (h: their height) and the title, which says ", log scale". */
void plot_haxis_bottom(struct plot_ctx *c, struct plot_axis *x, struct plot_rect p,
		       enum plot_scale scale, int log, double lin_lo, double lo, double hi,
		       double h, const char *title, const char *unit);
/* How many labelled ticks a vertical axis of height h should have at most. */
size_t plot_max_yticks(double h);

/* ---- rectangles and placement (place.c) ---------------------------------- */

struct plot_boxes {
	struct plot_rect *r;
	size_t n, alloc;
};

void plot_boxes_init(struct plot_boxes *b);
void plot_boxes_release(struct plot_boxes *b);
void plot_boxes_add(struct plot_boxes *b, struct plot_rect r);
/* Cover the segment with small boxes, half-width hw around it. */
void plot_boxes_add_segment(struct plot_boxes *b, double x0, double y0, double x1, double y1,
			    double hw);
/* 1 when r overlaps any box. */
int plot_boxes_hit(const struct plot_boxes *b, struct plot_rect r);
int plot_rect_overlap(struct plot_rect a, struct plot_rect b);
int plot_rect_contains(struct plot_rect outer, struct plot_rect inner);
struct plot_rect plot_rect_grow(struct plot_rect r, double by);
/* The square of half-side r centred on (x, y). */
struct plot_rect plot_rect_around(double x, double y, double r);
/* Draw the label s at the first spot around (x, y), off and up to 3 * off
 * away (right, left, above, below, then the diagonals), that lies inside
 * bounds and clear of boxes, and add its box; 0 (nothing drawn) when no
 * spot is free: labels never overprint. */
int plot_place_label(struct plot_ctx *c, const struct plot_font *f, const char *s, double x,
		     double y, double off, struct plot_rect bounds, struct plot_boxes *boxes);

/* ---- primitives (draw.c) ------------------------------------------------ */

void plot_set_rgb(cairo_t *cr, struct plot_rgb c, double alpha);
/* t = 0: a; t = 1: b. */
struct plot_rgb plot_mix(struct plot_rgb a, struct plot_rgb b, double t);
/* Relative luminance (WCAG) of c. */
double plot_luminance(struct plot_rgb c);
void plot_marker_path(cairo_t *cr, enum plot_marker m, double x, double y, double r);
/* Filled marker with a white rim, or hollow (white inside, coloured ring). */
void plot_marker(cairo_t *cr, enum plot_marker m, double x, double y, double r, struct plot_rgb c,
		 double alpha, int hollow);
/* The system's marker in white at the foot of a bar (x centre, y0 the
 * bar's base, bw its width, bh its height); nothing if the bar is too small. */
void plot_bar_glyph(cairo_t *cr, enum plot_marker m, double x, double y0, double bw, double bh);
void plot_hline(cairo_t *cr, double x0, double x1, double y, double width, struct plot_rgb c,
		double alpha);
void plot_vline(cairo_t *cr, double x, double y0, double y1, double width, struct plot_rgb c,
		double alpha);
void plot_dash(cairo_t *cr, double on, double off); /* 0, 0: solid */
/* Vertical error bar from y0 to y1 with caps of half-width cap. */
void plot_whisker(cairo_t *cr, double x, double y0, double y1, double cap, double width,
		  struct plot_rgb c);

/* ---- drawing colours (palette.c) ---------------------------------------------- */

/* (the system palette itself is in views/palette.c) */
/* Diverging colour of a ratio on a log scale: 1 -> near white, lim or more
 * (or 1/lim or less) -> the saturated end; purple > 1, orange < 1. */
struct plot_rgb plot_diverging(double ratio, double lim);
/* Qualitative colour i (devices of one run): Okabe-Ito order. */
struct plot_rgb plot_qualitative(size_t i);

/* ---- legend (legend.c) -------------------------------------------------- */

enum plot_swatch {
	PLOT_SWATCH_MARKER,      /* a filled marker */
	PLOT_SWATCH_HOLLOW,      /* a hollow marker */
	PLOT_SWATCH_LINE,        /* a solid line */
	PLOT_SWATCH_LINE_MARKER, /* a line through a marker */
	PLOT_SWATCH_DASH,        /* a dashed line */
	PLOT_SWATCH_PATCH,       /* a filled square */
	PLOT_SWATCH_PATCH_MARKER /* a filled square with the marker in white (bars) */
};

struct plot_legend_item {
	char *label;
	char *shown; /* label as laid out (shortened to fit); owned */
	enum plot_swatch swatch;
	struct plot_rgb color;
	enum plot_marker marker;
};

struct plot_legend {
	struct plot_legend_item *items;
	size_t n, alloc;
	/* layout (plot_legend_layout) */
	size_t cols, rows;
	double cell_w, cell_h, w, h;
	int shortened; /* a label had to be shortened to fit */
};

void plot_legend_init(struct plot_legend *l);
void plot_legend_release(struct plot_legend *l);
void plot_legend_add(struct plot_legend *l, const char *label, enum plot_swatch swatch,
		     struct plot_rgb color, enum plot_marker marker);
/* Arrange in as many columns as fit in max_w, at most max_cols (0: any). */
void plot_legend_layout(struct plot_ctx *c, struct plot_legend *l, double max_w, size_t max_cols);
/* A spot inside plot, clear of the boxes, preferring the corners; 1 when found. */
int plot_legend_place(const struct plot_legend *l, struct plot_rect plot,
		      const struct plot_boxes *b, double *x, double *y);
void plot_legend_draw(struct plot_ctx *c, const struct plot_legend *l, double x, double y);

/* ---- categorical x axis (catx.c) --------------------------------------- */

struct plot_catx {
	size_t n;
	const char *const *labels;     /* category names (borrowed) */
	const char *const *sublabels;  /* small grey line under the axis, e.g. "n = 5";
					* NULL or NULL entries: none */
	const int *bold;               /* emphasised names (the baseline); may be NULL */
	/* plot_catx_layout() */
	double angle;                  /* 0, or degrees the names are turned */
	int wrapped;                   /* names wrapped on two lines */
	char **shown;                  /* the names as drawn (shortened) */
	double height;                 /* room needed under the axis */
};

/* Fit the names into slots of width slot_w: straight, on two lines, or
 * turned 30 to 90 degrees, shortened so they take at most max_h and reach
 * at most left_room left of the first slot. */
void plot_catx_layout(struct plot_ctx *c, struct plot_catx *x, double slot_w, double max_h,
		      double left_room);
/* Draw names under the axis at y0; slot i is centred at x0 + (i + 0.5) * slot_w. */
void plot_catx_draw(struct plot_ctx *c, const struct plot_catx *x, double x0, double slot_w,
		    double y0);
void plot_catx_release(struct plot_catx *x);

/* ---- chart frame (frame.c) -------------------------------------------- */

/* Draw title and subtitle at the top of *r and take that space off. */
void plot_frame_header(struct plot_ctx *c, const struct plot_labels *lb, const char *def_title,
		       struct plot_rect *r);
/* Draw the caption (NULL: def_caption) at the bottom of *r and take that
 * space off. */
void plot_frame_caption(struct plot_ctx *c, const char *caption, const char *def_caption,
			struct plot_rect *r);
/* Room left of a plot for y tick labels and the turned y title. */
double plot_yaxis_margin(struct plot_ctx *c, const struct plot_axis *y, const char *title);
/* Horizontal grid lines at the ticks of y across p. */
void plot_ygrid(struct plot_ctx *c, const struct plot_axis *y, struct plot_rect p);
/* Tick labels and title of y left of p; spine: the axis line and ticks. */
void plot_yaxis_draw(struct plot_ctx *c, const struct plot_axis *y, struct plot_rect p,
		     const char *title, int spine);
/* 0 when the data area p is big enough to show anything; else an error
 * saying that the chart does not fit. */
int plot_check_fit(struct plot_rect p, const char *chart, struct strbuf *err);
/* Height a legend row takes above the plot; lays l out for width w. */
double plot_frame_legend_top(struct plot_ctx *c, struct plot_legend *l, double w);

/* An x-y panel: two numeric axes. */
struct plot_xy {
	struct plot_axis x, y;
	enum plot_scale xs, ys;
	unsigned x_flags, y_flags;
	double x_lo, x_hi, y_lo, y_hi; /* data ranges */
	const char *x_title, *y_title; /* composed, borrowed */
	struct plot_rect plot;         /* the data area */
};

/* Choose ticks and the data area inside region (room for tick labels and
 * axis titles). */
void plot_xy_layout(struct plot_ctx *c, struct plot_xy *xy, struct plot_rect region);
void plot_xy_grid(struct plot_ctx *c, const struct plot_xy *xy);
void plot_xy_axes(struct plot_ctx *c, const struct plot_xy *xy);
static inline double plot_xy_px(const struct plot_xy *xy, double x)
{
	return plot_axis_map(&xy->x, x);
}

static inline double plot_xy_py(const struct plot_xy *xy, double y)
{
	return plot_axis_map(&xy->y, y);
}

/* ---- charts ---------------------------------------------------------- */

/* hbar.c: the horizontal layout of a bar spec (s->horizontal), and the
 * height in units it needs to give every system its row. */
int plot_hbar_render(struct plot_ctx *c, struct plot_rect area, const struct plot_bar_spec *s,
		     struct strbuf *err);
double plot_hbar_height(const struct plot_bar_spec *s);
/* The height in units a heatmap or a horizontal bargroup needs to give
 * every system a legible row. */
double plot_heatmap_height(const struct plot_heatmap_spec *s);
double plot_hbargroup_height(const struct plot_bargroup_spec *s);
int plot_bar_render(struct plot_ctx *c, struct plot_rect area, const struct plot_bar_spec *s,
		    struct strbuf *err);
int plot_bargroup_render(struct plot_ctx *c, struct plot_rect area,
			 const struct plot_bargroup_spec *s, struct strbuf *err);
int plot_batch_render(struct plot_ctx *c, struct plot_rect area, const struct plot_batch_spec *s,
		      struct strbuf *err);
int plot_devices_render(struct plot_ctx *c, struct plot_rect area,
			const struct plot_devices_spec *s, struct strbuf *err);
int plot_pareto_render(struct plot_ctx *c, struct plot_rect area, const struct plot_pareto_spec *s,
		       struct strbuf *err);
int plot_heatmap_render(struct plot_ctx *c, struct plot_rect area,
			const struct plot_heatmap_spec *s, struct strbuf *err);
int plot_power_render(struct plot_ctx *c, struct plot_rect area, const struct plot_power_spec *s,
		      struct strbuf *err);

/* ---- SVG post-processing (svg.c) ---------------------------------------- */

/* Insert <title>title</title><desc>texts</desc> after the <svg> tag and
 * renumber cairo's "surfaceN" ids from 1 in order of appearance. */
int plot_svg_finish(struct strbuf *svg, const char *title, const char *texts, struct strbuf *err);

#endif
