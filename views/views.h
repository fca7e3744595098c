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
#include "model/dataset.h"
#include "model/inventory.h"
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
/* ---- inventory (the report's systems, provenance and appendix) -------- */

#define VIEWS_SIMULATED_NOTE "simulated example data"

struct views_inventory {
	struct db_inventory inv;   /* owned */
	const char *data_note;     /* VIEWS_SIMULATED_NOTE when any system is
				    * simulated, else NULL */
};

/* Systems, sources and run counts q selects (NULL: all), and every run
 * when with_runs.  0, or -AB_EDATA when nothing matches. */
int views_inventory_build(struct db *db, const struct db_inv_query *q, int with_runs,
			  struct views_inventory *out, struct strbuf *err);
void views_inventory_release(struct views_inventory *v);

#endif
