/*
 * stats.h - descriptive statistics of one sample: the successful runs of
 * one configuration (benchmark x system x nodes x devices x global batch x
 * precision) for one metric.  Also the MLPerf "olympic mean" score.
 *
 * Pure computation: no database, no printing, no global state.  Plain
 * structs in, plain structs out; every result a caller may print is a
 * field.  Values that cannot be computed are NAN (never a made-up number);
 * the caller prints them as "n/a" or JSON null.
 *
 * Conventions (DESIGN.md "Statistics"):
 *  - median with a distribution-free 95 % CI from order statistics: the
 *    ranks (l, n+1-l) of the NARROWEST SYMMETRIC pair whose exact binomial
 *    coverage 1 - 2 P(B <= l-1), B ~ Bin(n, 1/2), is >= 95 %.  Below
 *    STATS_CI_MIN_N runs no pair reaches 95 % (n = 5 gives 93.75 %), so the
 *    summary says "n too small" (has_ci = 0) rather than invent one.
 *    Known answers: n=6 -> (1,6) 96.9 %, n=10 -> (2,9) 97.9 %,
 *    n=20 -> (6,15) 95.9 %, n=100 -> (40,61) 96.5 %.
 *  - quartiles by linear interpolation between order statistics
 *    (gsl_stats_quantile_from_sorted_data, = R type 7 / numpy default).
 *  - sd is the sample sd (n - 1 denominator); cv = sd / |mean|.
 *  - mad is the RAW median absolute deviation (not scaled by 1.4826).
 *  - outliers are flagged, never dropped: Tukey fences (outside
 *    [q1 - 1.5 IQR, q3 + 1.5 IQR]) and the Iglewicz-Hoaglin modified
 *    z-score |0.6745 (x - median) / MAD| > 3.5; when MAD = 0 the modified
 *    z-score uses 1.253314 * mean absolute deviation instead (as SPSS /
 *    IBM do); when that is 0 too, every value equals the median and nothing
 *    is flagged by this rule.
 */
#ifndef AB_STATS_H
#define AB_STATS_H

#include "core/compat.h"
#include "core/strbuf.h"

/* Confidence level used by every interval in model/ unless stated. */
#define STATS_LEVEL 0.95
/* Fewest runs for which a 95 % median CI exists. */
#define STATS_CI_MIN_N 6

/* Whether a larger value of the metric is better (throughput) or worse
 * (time to train, latency).  The database stores "higher" / "lower". */
enum stats_better {
	STATS_HIGHER_IS_BETTER = 0,
	STATS_LOWER_IS_BETTER = 1
};

/* "higher" / "lower". */
const char *stats_better_name(enum stats_better b);
/* Parse "higher" / "lower"; 0 or -AB_EDATA with a message in err. */
int stats_better_parse(const char *s, enum stats_better *out, struct strbuf *err);

/* Per-value outlier flags (bit set; 0 = not an outlier). */
enum stats_outlier_flags {
	STATS_OUTLIER_TUKEY = 1 << 0, /* outside the 1.5 IQR fences */
	STATS_OUTLIER_MODZ = 1 << 1   /* |modified z-score| > 3.5 */
};

struct stats_summary {
	size_t n;              /* values summarised (successful runs) */
	size_t n_failed;       /* copied from the caller: counted, never averaged */
	double median;
	int has_ci;            /* 0: "n too small" (n < STATS_CI_MIN_N) */
	double ci_low;         /* x(ci_rank_low), NAN without a CI */
	double ci_high;        /* x(ci_rank_high) */
	size_t ci_rank_low;    /* 1-based ranks in the sorted sample, 0 without CI */
	size_t ci_rank_high;
	double ci_coverage;    /* exact coverage of the rank pair, e.g. 0.9688 */
	double mean;
	double sd;             /* NAN for n < 2 */
	double cv;             /* NAN for n < 2 or mean == 0 */
	double min, max;
	double q1, q3, iqr;
	double mad;            /* raw median absolute deviation */
	size_t n_outliers;     /* values with any flag */
	size_t n_outliers_tukey;
	size_t n_outliers_modz;
};

/*
 * Summarise x[0..n).  n may be 0 (a configuration where every run failed):
 * then every figure is NAN and has_ci = 0.  flags, when not NULL, receives
 * n entries of enum stats_outlier_flags in the order of x (so the caller
 * can name the run).  Returns 0, or -AB_EDATA if a value is not finite.
 */
int stats_summarize(const double *x, size_t n, size_t n_failed,
		    struct stats_summary *out, unsigned *flags, struct strbuf *err);

/*
 * The median CI ranks for a sample of n at the given level (e.g. 0.95):
 * the largest l with 1 - 2 P(Bin(n, 1/2) <= l - 1) >= level, *lo = l,
 * *hi = n + 1 - l, *coverage the exact coverage.  Returns 0, or -1 when no
 * symmetric pair reaches the level (n too small) or level is not in (0, 1).
 */
int stats_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi,
			  double *coverage);

/* The distribution-free CI of the median of x[0..n) at level, the same
 * order statistics stats_summarize() uses at STATS_LEVEL: 0, or -1 with
 * *lo, *hi, *coverage NAN when n is too small for the level. */
int stats_median_ci_at(const double *x, size_t n, double level, double *lo, double *hi,
		       double *coverage);

/* The smallest sample with a median CI at level (6 at STATS_LEVEL, 5 at
 * 0.9); 0 when level is not in (0, 1). */
size_t stats_ci_min_n(double level);

/* Median of x[0..n) (x is not modified); NAN for n == 0. */
double stats_median(const double *x, size_t n);

/*
 * MLPerf training official score (formats/mlperf.md section 4; mlcommons
 * logging result_summarizer): of n_valid converged run times and n_failed
 * non-converging runs, sort the valid times, drop the max_dropped fastest
 * and (max_dropped - n_failed) slowest (failed runs count as the slowest),
 * and take the mean of the rest times scaling_factor (scaling.json, 1.0
 * when absent).  More than max_dropped failures, or nothing left, gives
 * no score.  max_dropped is 4 for unet3d, 1 otherwise
 * (stats_mlperf_max_dropped).
 */
enum stats_olympic_status {
	STATS_OLYMPIC_OK = 0,
	STATS_OLYMPIC_TOO_MANY_FAILED = 1, /* n_failed > max_dropped */
	STATS_OLYMPIC_NO_RUNS = 2          /* nothing left after dropping */
};

struct stats_olympic {
	enum stats_olympic_status status;
	double score;        /* mean of the kept runs x scaling factor; NAN unless OK */
	size_t n_kept;
	size_t max_dropped;
	double scaling_factor;
};

/* "ok", "too many non-converging runs", "no runs left". */
const char *stats_olympic_status_name(enum stats_olympic_status s);
/* 4 for "unet3d", 1 for every other benchmark. */
size_t stats_mlperf_max_dropped(const char *benchmark);

/*
 * Compute the olympic mean of minutes[0..n_valid).  kept, when not NULL,
 * receives n_valid entries, 1 for the runs that entered the mean, in the
 * order of minutes: the official energy score is the mean of the energies
 * of exactly these runs (x scaling factor).  Ties are broken by input
 * order (as Python's stable sort does).  Returns 0 (see out->status), or
 * -AB_EDATA for a non-finite time or a scaling factor that is not > 0.
 */
int stats_olympic_mean(const double *minutes, size_t n_valid, size_t n_failed,
		       size_t max_dropped, double scaling_factor,
		       struct stats_olympic *out, unsigned char *kept,
		       struct strbuf *err);

#endif
