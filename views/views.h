/*
 * views.h - what each table and figure shows, decided once for every
 * renderer (cli/ text, CSV and JSON; plots/ cairo; reports/ PDF and XLSX).
 *
 * Data flows model/ -> views/ -> renderers.  A view is a plain struct built
 * from the database by views_X_build(): which configurations are shown,
 * pairings and verdicts, fits, the rows and their numbers.  Renderers only
 * lay it out; they never recompute or re-decide.  Each row also flattens to
 * a record (an ordered list of named, typed fields, see struct
 * views_record): the one source of the JSON objects and the CSV columns, so
 * the two always carry the same fields, raw numbers, units in their own
 * fields.
 *
 * views/ includes only core/ and model/ (tests/layers.py checks it): no
 * cairo, no jansson, no argv.  Errors are values (0 or -AB_E*, message in a
 * caller-owned strbuf); messages name data (benchmarks, systems), never
 * command-line flags.
 *
 * Ownership, one rule for the whole module: a view owns everything its rows
 * point to (the configurations loaded from the database included) until
 * views_X_release(); rows and records only borrow from their view, so a
 * record must not outlive the view it was made from.  Strings passed in
 * (queries, names) are borrowed for the call only.
 */
#ifndef AB_VIEWS_H
#define AB_VIEWS_H

#include "core/core.h"

#include <stdint.h>
#include "model/compare.h"
#include "model/cost.h"
#include "model/dataset.h"
#include "model/inventory.h"
#include "model/pareto.h"
#include "model/scaling.h"
#include "model/series.h"
#include "model/stats.h"

/* ---- number formats (text tables, chart labels) ----------------------- */

/* Significant digits by magnitude with thousands separators ("87,257",
 * "122.9", "0.0293", "0.00596"); "n/a" when not finite.  Tables and the
 * value labels of charts (bar, horizontal bar, grouped bar) alike. */
void views_fmt_value(struct strbuf *sb, double v);
/* v with sig significant digits (at most 12 decimals; never fewer digits
 * than the integer part has), trailing zeros after the point dropped; ','
 * between thousands when asked. */
void views_fmt_sig(struct strbuf *sb, double v, int sig, int thousands);
/* Chart labels where views_fmt_value does not fit (and log-axis ticks):
 * 3 significant digits, a k/M/G suffix from 10,000 ("585", "18.5k");
 * "n/a" when not finite. */
void views_fmt_value_short(struct strbuf *sb, double v);
/* A ratio, "1.21×", "12.3×", "1,500×", "0.027×" (two significant digits
 * below 0.1), in tables and on charts alike; "n/a" when not finite. */
void views_fmt_ratio(struct strbuf *sb, double r);
/* "[lo, hi]" with views_fmt_value; "n too small" when either is not finite. */
void views_fmt_ci(struct strbuf *sb, double lo, double hi);
/* A confidence level as a percentage without the sign: "95", "97.5". */
void views_fmt_level(struct strbuf *sb, double level);
/* Raw number for machine-readable output, 15 significant digits (as the
 * JSON output writes them), "" when not finite. */
void views_fmt_raw(struct strbuf *sb, double v);

/* ---- records: one row as named, typed fields -------------------------- */

enum views_type {
	VIEWS_STR,   /* s; NULL: missing */
	VIEWS_INT,   /* i, always present */
	VIEWS_POS,   /* i; <= 0: missing (unknown nodes, devices, batch) */
	VIEWS_NUM,   /* num; not finite: missing */
	VIEWS_BOOL,  /* i: 0 or 1 */
	VIEWS_STRS   /* strs[0..nstrs): a list of names */
};

struct views_field {
	const char *key;           /* static string, e.g. "median" */
	enum views_type type;
	const char *s;             /* borrowed */
	const char *const *strs;   /* borrowed */
	size_t nstrs;
	long long i;
	double num;
};

/* Fields in output order; the array is the record's, the strings are
 * borrowed (see the ownership rule above). */
struct views_record {
	struct views_field *v;
	size_t n, alloc;
};

#define VIEWS_RECORD_INIT { NULL, 0, 0 }
void views_record_reset(struct views_record *r);   /* n = 0, keeps the array */
void views_record_release(struct views_record *r);
void views_rec_str(struct views_record *r, const char *key, const char *s);
void views_rec_int(struct views_record *r, const char *key, long long i);
void views_rec_pos(struct views_record *r, const char *key, long i);
void views_rec_num(struct views_record *r, const char *key, double v);
void views_rec_bool(struct views_record *r, const char *key, int b);
void views_rec_strs(struct views_record *r, const char *key, const char *const *strs, size_t n);
/* Whether field f holds no value (JSON null, an empty CSV cell). */
int views_field_missing(const struct views_field *f);

/* ---- inventory (the report's systems, provenance and appendix) -------- */

#define VIEWS_SIMULATED_NOTE "simulated example data"

struct views_inventory {
	struct db_inventory inv;   /* owned */
	const char *data_note;     /* VIEWS_SIMULATED_NOTE when any system is
				    * simulated, else NULL */
};

/* Systems, benchmarks, sources and run counts q selects (NULL: all), and
 * every run when there are at most max_runs.  0, or -AB_EDATA when nothing
 * matches. */
int views_inventory_build(struct db *db, const struct db_inv_query *q, size_t max_runs,
			  struct views_inventory *out, struct strbuf *err);
void views_inventory_release(struct views_inventory *v);

/* ---- statistics table (`stats`) -------------------------------------- */

/* One configuration and the summary of its metric values. */
struct views_stats_row {
	const struct db_config *c;   /* borrowed from the view */
	struct stats_summary s;      /* its CI at level */
	double level;                /* STATS_LEVEL unless views_stats_set_level() */
};

struct views_stats {
	struct db_configs configs;   /* owned */
	struct views_stats_row *rows; /* owned, configs.n rows in configuration order */
	size_t n;
};

/* The statistics of every configuration matching q (metric NULL: each
 * benchmark's headline).  Returns 0, -AB_EDATA when nothing matches. */
int views_stats_build(struct db *db, const struct db_config_query *q, struct views_stats *out,
		      struct strbuf *err);
void views_stats_release(struct views_stats *v);
/* The median CIs at another confidence level in (0, 1): each row's ci_low,
 * ci_high, ranks, coverage and has_ci (a CI exists when the level's ranks
 * do: from 5 runs at 0.9, 6 at 0.95). */
void views_stats_set_level(struct views_stats *v, double level);
/* suite, benchmark, system, vendor, accelerator, nodes, devices,
 * global_batch, precision, metric, unit, better, boundary, n, n_failed,
 * n_missing, median, ci_low, ci_high, ci_level, ci_coverage, ci_note, mean,
 * sd, cv, min, max, q1, q3, iqr, mad, n_outliers. */
void views_stats_record(const struct views_stats_row *row, struct views_record *rec);

/* ---- comparison table (`compare`) ------------------------------------ */

struct views_compare_opts {
	const char *baseline;     /* the reference system (name or display name); required */
	int best;                 /* pair each system's best configuration with the
				   * baseline's best; always on across benchmarks */
	const struct compare_opts *copts; /* seed, resamples; NULL: compare_opts_init()'s */
	/* NULL, or only configurations for which keep() returns nonzero are
	 * compared (a chart's --system/--batch/--devices selection) */
	int (*keep)(const struct db_config *c, void *ctx);
	void *keep_ctx;
};

/* One system configuration against the baseline's. */
struct views_pair {
	const struct db_config *sys, *base;  /* borrowed from the view */
	int same_shape;                      /* 0: configurations differ (only with best) */
	struct compare_result res;           /* Holm-adjusted over the whole table */
};

/* A system's geometric mean of speedups over the common benchmarks. */
struct views_composite {
	const char *system;                  /* borrowed from the view */
	struct compare_geomean gm;
	enum compare_verdict verdict;        /* from the run-noise (bootstrap) CI */
};

enum views_compare_failure {
	VIEWS_COMPARE_OK = 0,
	VIEWS_COMPARE_NO_RUNS,        /* nothing of the benchmark */
	VIEWS_COMPARE_NO_BASELINE,    /* the baseline has no runs of it */
	VIEWS_COMPARE_NO_MATCH        /* no other configuration of the baseline's shape */
};

struct views_compare {
	struct db_configs configs;    /* owned */
	char *baseline;               /* owned copy */
	int across;                   /* no benchmark given: every benchmark, best
				       * configurations, and the composite */
	int best;                     /* best configurations were paired */
	struct compare_opts copts;    /* seed, resamples and level used */
	struct views_pair *pairs;     /* owned, n of them, in configuration order */
	size_t n;
	const char **common;          /* owned array of borrowed names: benchmarks
				       * every compared system ran (across only) */
	size_t n_common;
	struct views_composite *composite; /* owned, one per compared system when
					    * n_common > 0 (across only) */
	size_t n_composite;
	enum views_compare_failure failure; /* why the build failed with -AB_EDATA */
};

/* Pair and compare (ratio of medians with a bootstrap CI, Mann-Whitney,
 * Holm over the table, verdicts) every configuration of q's benchmark
 * (NULL: every benchmark) against the baseline.  Returns 0, or -AB_EDATA
 * with out->failure saying why (out needs no release then). */
int views_compare_build(struct db *db, const struct db_config_query *q,
			const struct views_compare_opts *o, struct views_compare *out,
			struct strbuf *err);
void views_compare_release(struct views_compare *v);
/* kind "comparison", benchmark, system, baseline, metric, unit, better,
 * nodes, devices, global_batch, precision, baseline_nodes, baseline_devices,
 * baseline_global_batch, baseline_precision, comparable, n, n_baseline,
 * median, median_baseline, ratio, ratio_ci_low, ratio_ci_high, speedup,
 * speedup_ci_low, speedup_ci_high, p_value, p_adjusted, test, verdict,
 * bootstrap, seed, resamples, ci_level. */
void views_compare_pair_record(const struct views_compare *v, const struct views_pair *p,
			       struct views_record *rec);
/* kind "composite", system, baseline, benchmarks (list), k,
 * geomean_speedup, ci_low, ci_high, t_ci_low, t_ci_high, verdict, seed,
 * resamples. */
void views_compare_composite_record(const struct views_compare *v,
				    const struct views_composite *c, struct views_record *rec);

/* ---- cost rows (`cost`) ---------------------------------------------- */

struct views_cost_opts {
	const struct cost_prices_file *prices; /* required; borrowed for the view's life */
	long batch, devices;      /* > 0: only configurations of this shape */
};

/* One system: its best configuration (by median) and what it costs. */
struct views_cost_row {
	const struct db_config *c;            /* borrowed from the view */
	double throughput;                    /* median of the headline metric */
	double power;                         /* median avg_power [W]; NAN: not measured */
	const char *boundary;                 /* of the power measurement; NULL: unknown */
	const struct cost_prices *prices;     /* borrowed from opts.prices */
	struct cost_result res;
};

struct views_cost {
	struct db_configs configs, power;     /* owned */
	const struct cost_prices_file *prices; /* borrowed */
	char *work_unit;                      /* owned: the unit without "/s" ("tokens") */
	struct views_cost_row *rows;          /* owned, one per priced system */
	size_t n;
};

/* Cost of each system of q's benchmark that the prices file knows.
 * Returns 0, or -AB_EDATA when no system has runs and prices or the
 * metric is a time, not a throughput. */
int views_cost_build(struct db *db, const struct db_config_query *q,
		     const struct views_cost_opts *o, struct views_cost *out, struct strbuf *err);
void views_cost_release(struct views_cost *v);
/* benchmark, system, nodes, devices, global_batch, precision, throughput,
 * throughput_unit, avg_power_w, boundary, currency, work_unit, capex,
 * busy_hours, energy_kwh, energy_cost, tco, perf_per_currency,
 * cost_per_million, energy_cost_per_million, cost_per_million_price_low,
 * cost_per_million_price_high, cost_per_million_elec_low,
 * cost_per_million_elec_high, electricity_price_per_kwh, pue,
 * lifetime_years, utilisation. */
void views_cost_record(const struct views_cost *v, const struct views_cost_row *row,
		       struct views_record *rec);
/* Money: no decimals from 100, two from 0.01, else 3 significant digits. */
void views_fmt_money(struct strbuf *sb, double v);

/* ---- the Pareto join (`pareto`) -------------------------------------- */

/* One configuration with both metrics. */
struct views_pareto_row {
	const struct db_config *x, *y;        /* borrowed from the view */
	double xv, yv;                        /* medians */
	enum pareto_state state;
};

struct views_pareto {
	struct db_configs xs, ys;             /* owned */
	char *y_metric;                       /* owned copy */
	const char *y_unit;                   /* borrowed from ys */
	int x_lower_better, y_lower_better;
	struct views_pareto_row *rows;        /* owned, in configuration order */
	size_t n, n_front;
};

/* Every configuration of q (x = q's metric, NULL: headline) accepted by
 * keep (NULL: all) that also has y_metric (NULL: energy_efficiency), and
 * the front of the medians.  With best, only each system's best accepted
 * configuration by x.  Returns 0 or -AB_EDATA when no configuration has
 * both. */
int views_pareto_build(struct db *db, const struct db_config_query *q, const char *y_metric,
		       int (*keep)(const struct db_config *c, void *ctx), void *keep_ctx,
		       int best, struct views_pareto *out, struct strbuf *err);
void views_pareto_release(struct views_pareto *v);
/* benchmark, system, vendor, nodes, devices, global_batch, precision,
 * x_metric, x_unit, x, y_metric, y_unit, y, state. */
void views_pareto_record(const struct views_pareto *v, const struct views_pareto_row *row,
			 struct views_record *rec);

/* ---- scaling rows and fits (`scaling`) ------------------------------- */

/* One series (a system and the fixed rest of its shape) along the axis. */
struct views_scaling_series {
	const struct series *s;               /* borrowed from the view */
	char *label;                          /* owned: the fixed shape, "1 node, 4 devices, fp16" */
	struct scaling_sat sat;               /* batch axis: saturation fit */
	struct scaling_dev dev;               /* devices/nodes: Amdahl fit */
	struct scaling_dev_point *pts;        /* devices/nodes: owned, s->n points */
};

struct views_scaling {
	struct db_configs configs;            /* owned */
	struct series_set set;                /* owned, borrows configs */
	enum series_axis axis;
	struct views_scaling_series *v;       /* owned, set.n of them */
	size_t n;
};

/* The saturation fit of one batch series: every run is a point, a batch
 * size where every run failed one censored point (the fit never runs past
 * it).  The one place the fit's inputs are assembled. */
int views_scaling_sat_fit(const struct series *s, struct scaling_sat *fit, struct strbuf *err);
/* Series and fits of q along axis.  Returns 0, -AB_EDATA when no run has
 * the axis value. */
int views_scaling_build(struct db *db, const struct db_config_query *q, enum series_axis axis,
			struct views_scaling *out, struct strbuf *err);
void views_scaling_release(struct views_scaling *v);
/* batch: benchmark, system, nodes, devices, precision, metric, unit,
 * fit_status, xmax, xmax_ci_low, xmax_ci_high, bhalf, bhalf_ci_low,
 * bhalf_ci_high, knee_batch, knee_value, min_failed_batch, rss, dof;
 * devices/nodes: benchmark, system, by, per_device_batch, precision,
 * metric, unit, fit_status, serial_fraction, serial_ci_low, serial_ci_high. */
void views_scaling_series_record(const struct views_scaling *v,
				 const struct views_scaling_series *ser, struct views_record *rec);
/* Point i of the series: batch: global_batch, n, n_failed, median,
 * censored, fitted; devices/nodes: count, median, n, censored, speedup,
 * efficiency, karp_flatt, ideal, amdahl_speedup. */
void views_scaling_point_record(const struct views_scaling *v,
				const struct views_scaling_series *ser, size_t i,
				struct views_record *rec);

/* ==== chart specs (cairo-free) ==========================================
 *
 * What a chart shows, as plain structs: views_chart_build() fills them from
 * the database, plots/ draws them (PNG, SVG, PDF, report pages).  These
 * types and the palette keep their plot_ names: they are the contract
 * plots/ draws from (see plots/plot.h for sizes and drawing).
 * Colours.  Every system gets a colour and a marker from a fixed,
 * colour-blind-safe palette keyed by vendor (see plot_palette_style).  Pass
 * one struct plot_palette holding every system of a report to every chart so
 * that a system looks the same everywhere; with palette NULL a chart builds
 * one from its own systems.
 */

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
/* 32-bit FNV-1a of s (the preferred shade and marker of a name). */
uint32_t plot_hash(const char *s);
/* Number of shades per vendor family. */
#define PLOT_SHADES 6
/* Shade 0 (lightest) to PLOT_SHADES - 1 (darkest) of a vendor's family. */
struct plot_rgb plot_vendor_shade(enum plot_vendor v, int shade);
/* The family's pure hue (vendor legends). */
struct plot_rgb plot_vendor_base(enum plot_vendor v);

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
	double value;  /* median (or the official score) */
	double lo, hi; /* CI of the median (the chart's level); NAN: none ("n too small") */
	int n;         /* runs behind the value, shown under the bar; < 0: not shown */
	const char *config; /* the configuration it stands for ("8n x 8, b4096"); NULL: none */
	int incomplete;     /* hatched: not a complete or valid run set (footnoted) */
	long devices;       /* accelerators behind the value; 0: unknown */
	long nodes;         /* nodes behind the value; 0: unknown */
};

struct plot_bar_spec {
	struct plot_labels labels;  /* y title required; x title unused (names) */
	const struct plot_bar *bars;
	size_t n_bars;
	const char *baseline;       /* system to mark; ratios are shown against it */
	int lower_is_better;        /* sort ascending instead of descending */
	enum plot_scale y_scale;    /* AUTO: linear from 0; the value axis */
	const struct plot_palette *palette;
	int horizontal;             /* names (and configurations) down the left, one
				     * row per system, values along x; a file grows
				     * in height to give every row its line */
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
	const char *const *configs;     /* configs[g * n_systems + s]: the
					 * configuration a bar stands for
					 * (horizontal layout); NULL: none */
	double reference;               /* horizontal reference line (e.g. 1 for
					 * ratios); NAN: none */
	const char *reference_label;
	enum plot_scale y_scale;        /* AUTO: linear from 0 */
	const struct plot_palette *palette;
	int horizontal;                 /* one row per system (full names down the
					 * left), a bar per group in it, values
					 * along x; the file grows in height */
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
	const char *label;               /* legend: the system and the configuration
					  * the series stands for; NULL: system */
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
	const char *const *labels;       /* per point, what it stands for ("b256",
					  * "n64 nemo"); NULL or a NULL entry: none */
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

enum plot_front {
	PLOT_FRONT_AUTO = 0, /* the chart classifies the point itself */
	PLOT_FRONT_ON,       /* on the Pareto front (as views/ decided) */
	PLOT_FRONT_OFF       /* dominated */
};

struct plot_pareto_point {
	const char *system, *vendor;
	const char *label;  /* NULL: the system name */
	double x, y;        /* x = energy efficiency, y = throughput */
	enum plot_front front; /* views_chart_build() sets ON/OFF for every point */
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
	const char *const *configs; /* configs[r * n_cols + c]: the configuration a
				     * cell stands for (small print); NULL: none */
	const char *baseline;       /* named in the colour bar */
	int no_geomean;             /* 1: no geometric-mean column */
	const double *geomeans;     /* per row, the column's values; NULL: the chart
				     * takes the geometric mean of the row's cells */
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

/* "bar", "bargroup", "batch", "devices", "pareto", "heatmap", "power": the
 * drawing kinds (views_chart_kind_name() names what a user asks for). */
const char *plot_kind_name(enum plot_kind kind);


/* ---- charts: what each figure shows ---------------------------------- */

enum views_chart_kind {
	VIEWS_CHART_BAR = 1,   /* one bar per system (best configuration, or batch/devices) */
	VIEWS_CHART_BARGROUP,  /* systems grouped by global batch; without a benchmark,
				* speedups over the baseline grouped by benchmark */
	VIEWS_CHART_SCALING,   /* throughput vs global batch with the saturation fit */
	VIEWS_CHART_DEVICES,   /* speedup and efficiency vs devices (or nodes) */
	VIEWS_CHART_PARETO,    /* throughput vs energy efficiency, one point per system */
	VIEWS_CHART_HEATMAP,   /* systems x benchmarks, ratio to the baseline */
	VIEWS_CHART_POWER      /* watts over time of one run */
};

enum views_chart_needs {
	VIEWS_NEEDS_BENCHMARK = 1 << 0,
	VIEWS_NEEDS_BASELINE = 1 << 1,
	VIEWS_NEEDS_EITHER = 1 << 2   /* a benchmark or a baseline (bargroup) */
};

/* One row of the table of chart kinds (the only place they are spelled). */
struct views_chart_kind_info {
	enum views_chart_kind kind;
	const char *name;       /* what a user asks for: "scaling" */
	enum plot_kind draw;    /* what plots/ draws: PLOT_BATCH */
	const char *summary;
	unsigned needs;         /* enum views_chart_needs */
};

/* The table (static storage), *n rows in the order charts are listed. */
const struct views_chart_kind_info *views_chart_kinds(size_t *n);
/* "bar", ...; -1 when name is no chart kind. */
int views_chart_kind_parse(const char *name);
const char *views_chart_kind_name(enum views_chart_kind kind);
/* "bar, bargroup, ... or power" with these separators. */
void views_chart_kind_list(struct strbuf *sb, const char *sep, const char *last);

struct views_chart_opts {
	const char *suite;
	const char *benchmark;        /* see the kind's needs */
	const char *metric;           /* NULL: headline */
	const char *const *systems;   /* NULL/0: all systems */
	size_t nsystems;
	const char *baseline;         /* bar: marked; heatmap, bargroup across benchmarks: required */
	long batch, devices;          /* > 0: use only configurations with this shape */
	int by_nodes;                 /* devices chart along nodes */
	int64_t run_id;               /* power: the run (0: first run with samples) */
	const char *title;            /* NULL: a title from the data */
	const struct plot_palette *palette; /* NULL: the chart's own */
	enum plot_scale scale;        /* bar: the value axis; AUTO: log when values
				       * span more than 30x, else linear */
	long top;                     /* bar: > 0: only the best N systems */
	int per_device;               /* bar: throughput per accelerator (a time:
				       * times accelerators) */
	int per_node;                 /* bar: the same per node (per_device wins) */
	double level;                 /* confidence level of the whiskers (bar,
				       * bargroup by batch, scaling); 0: STATS_LEVEL */
	const char *y_metric;         /* pareto: the energy axis (NULL:
				       * energy_efficiency; MLPerf training: energy) */
	const struct json_t *mlperf_scores; /* borrowed: mlperf_score() of the whole
				       * mlperf-training suite (no benchmark or system
				       * filter) when known; NULL: computed as needed */
};

/* A built chart: owns every array and string its spec points to. */
struct views_chart;

/* Returns 0, -AB_EUSAGE when the kind needs a benchmark or baseline that o
 * lacks, -AB_EDATA when the selection matches nothing (err says what). */
int views_chart_build(struct db *db, enum views_chart_kind kind, const struct views_chart_opts *o,
		      struct views_chart **out, struct strbuf *err);
/* The spec to draw (borrowed from c). */
const struct plot_chart *views_chart_spec(const struct views_chart *c);
void views_chart_free(struct views_chart *c); /* NULL-safe */


/* ==== MLPerf training official scores (`stats --suite mlperf-training`) ====
 * model/mlperf_score's groups as typed rows, shared by the CLI's results
 * summary and the report's MLPerf sections.  (Appended by the report
 * helper; views/mlperf.c.)
 */

/* One (system, benchmark, round, HPC scaling, result directory) group.
 * Strings owned by the view, NULL when unknown; counts 0 and numbers NAN
 * when unknown. */
struct views_mlperf_row {
	char *submitter, *system, *system_name, *benchmark, *round, *scaling;
	char *division, *availability, *accelerator, *accelerator_model_name;
	char *host_cpu, *framework;
	char *status;                 /* "ok", "too many non-converging runs", "no runs left" */
	char *note;                   /* result files against the rules' count; NULL: as required */
	char *energy_note;            /* why there is no energy score; NULL */
	long nodes, devices;
	size_t runs, valid, failed;   /* result files; converged; not converged or failed */
	size_t required_runs;         /* the rules' count, 0: unknown benchmark */
	size_t max_dropped;           /* olympic mean: fastest and slowest dropped */
	double official_score;        /* minutes; NAN: no score */
	double scaling_factor;        /* scaling.json, 1 when none */
	double median;                /* of the valid runs, minutes */
	double official_energy_j;     /* NAN: no energy score */
	int weak;                     /* HPC weak scaling: time_to_train_all */
};

struct views_mlperf {
	struct views_mlperf_row *rows;    /* owned; by system, benchmark, round */
	size_t n;
	struct json_t *scores;            /* owned: mlperf_score()'s array, one object per row */
	const char **benchmarks;          /* owned array of names borrowed from rows, sorted */
	size_t nbenchmarks;
};

/* The groups of the mlperf-training runs f selects (another suite: none).
 * Returns 0 (possibly with n == 0) or -AB_EIO. */
int views_mlperf_build(struct db *db, const struct db_filter *f, struct views_mlperf *out,
		       struct strbuf *err);
void views_mlperf_release(struct views_mlperf *v);
/* Column of benchmark in v->benchmarks (nbenchmarks when absent). */
size_t views_mlperf_bench_index(const struct views_mlperf *v, const char *benchmark);
/* Whether two rows belong to the same line of the results summary (system,
 * round, HPC scaling). */
int views_mlperf_same_entry(const struct views_mlperf_row *a, const struct views_mlperf_row *b);

#endif
