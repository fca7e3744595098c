/*
 * compare.h - comparing a system against a baseline system on one
 * benchmark and metric, and summarising such comparisons across
 * benchmarks.  Pure computation (no database, no printing).
 *
 * Methods (DESIGN.md "Statistics"):
 *  - ratio = median(system) / median(baseline) of the metric as measured;
 *    speedup = the same ratio oriented so that > 1 is better (ratio for
 *    higher-is-better metrics, 1 / ratio for lower-is-better ones).
 *  - 95 % CI of the ratio: percentile bootstrap.  Each resample draws
 *    n values with replacement from the system runs, then nbase values
 *    from the baseline runs (gsl_rng_mt19937, seeded with opts.seed for
 *    EVERY comparison, so a comparison's CI does not depend on which other
 *    comparisons ran before it), and takes the ratio of the two medians;
 *    the CI is the 2.5 % and 97.5 % quantiles (linear interpolation) of
 *    opts.resamples such ratios.  The seed and count are in the result and
 *    must be printed with it.
 *    EXACT BOOTSTRAP: when either sample has COMPARE_EXACT_MIN_N values or
 *    more, no resampling: the bootstrap distribution of each median is
 *    computed exactly from order-statistic probabilities (bootmed.c), and
 *    the CI is the (1 -+ level)/2 quantiles (inverse CDF, the limit of the
 *    percentile bootstrap as resamples grow) of the exact distribution of
 *    the ratio of the two independent medians.  Deterministic, and fast at
 *    large n where resampling costs resamples x n.  boot says which.
 *  - Mann-Whitney U (two-sided), U = the system's rank sum minus
 *    n(n+1)/2 with mid-ranks for ties = #(x > y) + #(x == y)/2 over all
 *    pairs.  Exact p (complete null distribution of U, p = min(1, 2 min(
 *    P(U <= u), P(U >= u)))) when there are no ties and both samples have
 *    fewer than 50 values; otherwise the normal approximation with the tie
 *    correction of the variance, n m / 12 (N + 1 - sum(t^3 - t) / (N (N-1))),
 *    and a continuity correction of 0.5 towards the mean (as R's
 *    wilcox.test with correct = TRUE).  method says which was used.
 *  - Holm step-down adjustment over all comparisons of a report.
 *  - verdict: "faster" or "slower" only when the ratio CI excludes 1 AND
 *    the Holm-adjusted p is below COMPARE_ALPHA; otherwise
 *    "indistinguishable".  Requiring both keeps a single run per side (a
 *    zero-width bootstrap CI, p = 1) from being called a difference.
 *    "faster" means better in the metric's own direction.
 *  - composite: geometric mean of per-benchmark speedups, only over
 *    benchmarks every compared system ran (the caller selects them), never
 *    an arithmetic mean of ratios.  Two CIs, because they answer different
 *    questions: t_ci = exp(mean(log s) +- t(k-1) sd(log s) / sqrt(k)), the
 *    between-benchmark spread (how much the advantage varies by workload;
 *    needs k >= 2); boot_ci = percentile bootstrap of the run-to-run noise,
 *    resampling the runs of every benchmark jointly and recomputing the
 *    geometric mean (how sure we are on THIS set of benchmarks).
 */
#ifndef AB_COMPARE_H
#define AB_COMPARE_H

#include "core/compat.h"
#include "core/strbuf.h"
#include "model/stats.h"

#define COMPARE_DEFAULT_SEED 20240917UL
#define COMPARE_DEFAULT_RESAMPLES 10000
#define COMPARE_MIN_RESAMPLES 1000
#define COMPARE_ALPHA 0.05
/* Exact Mann-Whitney p when there are no ties and both n < this. */
#define COMPARE_MW_EXACT_MAX_N 50

/* Exact bootstrap (no resampling) when either sample has this many values. */
#define COMPARE_EXACT_MIN_N 40

enum compare_boot_method {
	COMPARE_BOOT_RESAMPLE = 0,
	COMPARE_BOOT_EXACT = 1
};

/* "resample", "exact" (the JSON values of "bootstrap"). */
const char *compare_boot_method_name(enum compare_boot_method m);

enum compare_verdict {
	COMPARE_INDISTINGUISHABLE = 0,
	COMPARE_FASTER = 1,
	COMPARE_SLOWER = 2
};

/* "indistinguishable", "faster", "slower" (the JSON values). */
const char *compare_verdict_name(enum compare_verdict v);

struct compare_opts {
	unsigned long seed;   /* COMPARE_DEFAULT_SEED */
	size_t resamples;     /* COMPARE_DEFAULT_RESAMPLES; at least COMPARE_MIN_RESAMPLES */
	double level;         /* STATS_LEVEL */
	double alpha;         /* COMPARE_ALPHA, for the verdict */
};

void compare_opts_init(struct compare_opts *opts);

enum compare_mw_method {
	COMPARE_MW_EXACT = 0,
	COMPARE_MW_NORMAL = 1   /* normal approximation, tie + continuity corrected */
};

/* "exact", "normal". */
const char *compare_mw_method_name(enum compare_mw_method m);

struct compare_mw {
	double u;       /* U of the first sample; the second's is n1 n2 - u */
	double p;       /* two-sided */
	double z;       /* corrected z (normal method), NAN for exact */
	enum compare_mw_method method;
	int has_ties;
};

/* Mann-Whitney U test of x[0..n) vs y[0..m), n, m >= 1.  0 or -AB_EDATA. */
int compare_mann_whitney(const double *x, size_t n, const double *y, size_t m,
			 struct compare_mw *out, struct strbuf *err);

/*
 * Holm adjustment: adj[i] = max over j <= rank(i) of min(1, (m' - j + 1)
 * p_(j)), with p_(j) the sorted p-values and m' the number of non-NAN ones.
 * NAN entries are left out of the family and come back NAN.  p and adj may
 * be the same array.
 */
void compare_holm(const double *p, double *adj, size_t m);

/* The verdict rule above from a ratio CI and an adjusted p-value. */
enum compare_verdict compare_verdict_of(double ratio_ci_low, double ratio_ci_high,
					double p_adjusted, double alpha,
					enum stats_better better);

struct compare_result {
	size_t n, n_baseline;
	double median, median_baseline;
	double ratio, ratio_ci_low, ratio_ci_high;
	double speedup, speedup_ci_low, speedup_ci_high;  /* oriented: > 1 is better */
	enum compare_boot_method boot;   /* how the ratio CI was found */
	unsigned long seed;   /* seed and resamples apply to COMPARE_BOOT_RESAMPLE */
	size_t resamples;
	double level;
	double alpha;
	enum stats_better better;
	struct compare_mw mw;
	double p_value;      /* mw.p */
	double p_adjusted;   /* p_value until compare_adjust() */
	enum compare_verdict verdict;
};

/*
 * Compare x[0..n) (the system) with base[0..nbase) (the baseline).  All
 * values must be finite and > 0 (ratios of medians).  opts may be NULL for
 * the defaults.  The verdict uses the unadjusted p; compare_adjust() redoes
 * it after Holm.  Returns 0 or -AB_EDATA (empty sample, value <= 0, too few
 * resamples).
 */
int compare_pair(const double *x, size_t n, const double *base, size_t nbase,
		 enum stats_better better, const struct compare_opts *opts,
		 struct compare_result *out, struct strbuf *err);

/*
 * The resampling bootstrap's draws, kept for the comparisons that follow.
 * Every comparison seeds its own generator with opts->seed, so all pairs
 * with the same seed, resamples and sample sizes draw the same indices:
 * they are drawn once (gsl_rng_uniform_int, in the same order) and kept
 * as counts per value index; each such pair reads a resample's counts in
 * its own sorted order up to the median.  The CIs are the
 * numbers compare_pair computes without it.  Owned by the caller; one
 * thread at a time.  Bounded: draw sets over 4 MiB are not kept.
 */
struct compare_draws;

struct compare_draws *compare_draws_new(void);
void compare_draws_free(struct compare_draws *d);
/* compare_pair with the draws kept in d (NULL: drawn afresh). */
int compare_pair_draws(const double *x, size_t n, const double *base, size_t nbase,
		       enum stats_better better, const struct compare_opts *opts,
		       struct compare_draws *d, struct compare_result *out, struct strbuf *err);

/* The runs of one comparison: a system's and its baseline's (borrowed). */
struct compare_sample {
	const double *x;       /* system runs */
	size_t n;
	const double *base;    /* baseline runs */
	size_t nbase;
	enum stats_better better;
};

/* One comparison of compare_pairs(). */
struct compare_task {
	struct compare_sample s;    /* in */
	struct compare_result res;  /* out */
};

/*
 * compare_pair() for each of t[0..n), on two threads when there are
 * several (each with its own kept draws): the same results as one after
 * the other.  Returns 0, or the error of the first task (in order) that
 * failed, with err.
 */
int compare_pairs(struct compare_task *t, size_t n, const struct compare_opts *opts,
		  struct strbuf *err);

/* Holm-adjust the p-values of res[0..m) as one family; set p_adjusted
 * and the verdicts. */
void compare_adjust(struct compare_result *res, size_t m);

/*
 * The exact bootstrap distribution of the median of x[0..n) (finite
 * values, n >= 1): atoms v[0..n) ascending with cumulative probabilities
 * cum[] (cum[n-1] = 1); mass is the probability kept before atoms below
 * 1e-16 were dropped and the rest renormalised.  Release with
 * compare_median_dist_release().  Returns 0 or -AB_EDATA.
 */
struct compare_median_dist {
	size_t n;
	double *v;
	double *cum;
	double mass;
};

int compare_median_dist(const double *x, size_t n, struct compare_median_dist *out,
			struct strbuf *err);
void compare_median_dist_release(struct compare_median_dist *d);
/* The q-quantile (inf { t : P(a/b <= t) >= q }) of the ratio of two
 * independent medians with these distributions; values must be > 0. */
double compare_ratio_quantile(const struct compare_median_dist *a,
			      const struct compare_median_dist *b, double q);

struct compare_geomean {
	size_t k;                       /* benchmarks */
	double gm;                      /* geometric mean of the speedups */
	double sd_log;                  /* sd of log speedups, NAN for k < 2 */
	double t_ci_low, t_ci_high;     /* between benchmarks, NAN for k < 2 */
	double boot_ci_low, boot_ci_high; /* run noise, NAN unless bootstrapped */
	unsigned long seed;             /* 0 / 0 unless bootstrapped */
	size_t resamples;
	double level;
};

/*
 * Geometric mean of speedups s[0..k) (each > 0, already oriented so that
 * > 1 is better) with the t interval on the log scale.  k >= 1.  Returns 0
 * or -AB_EDATA.
 */
int compare_geomean(const double *s, size_t k, double level,
		    struct compare_geomean *out, struct strbuf *err);

/* compare_geomean_boot takes the runs of each benchmark as a
 * compare_sample (above). */
/*
 * Geometric mean of the per-benchmark median speedups of b[0..k) with both
 * CIs; boot_ci resamples each benchmark's system then baseline runs, in
 * order, from one generator seeded with opts->seed.  opts may be NULL.
 * Returns 0 or -AB_EDATA.
 */
int compare_geomean_boot(const struct compare_sample *b, size_t k,
			 const struct compare_opts *opts, struct compare_geomean *out,
			 struct strbuf *err);

#endif
