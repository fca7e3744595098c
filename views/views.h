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
 * "122.9", "0.00596"); "n/a" when not finite. */
void views_fmt_value(struct strbuf *sb, double v);
/* "[lo, hi]" with views_fmt_value; "n too small" when either is not finite. */
void views_fmt_ci(struct strbuf *sb, double lo, double hi);
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
	struct stats_summary s;
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

/* Every configuration of q (x = q's metric, NULL: headline) that also has
 * y_metric (NULL: energy_efficiency), and the front of the medians.  With
 * best, only each system's best configuration by x.  Returns 0 or
 * -AB_EDATA when no configuration has both. */
int views_pareto_build(struct db *db, const struct db_config_query *q, const char *y_metric,
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

#endif
