/*
 * stats.c - descriptive statistics of one sample and the MLPerf olympic
 * mean; see stats.h for the conventions.  GSL does the sorting, quantiles
 * and the binomial distribution; only the rank search, the outlier rules
 * and the olympic selection are written here.
 */
#include "core/compat.h"
#include "core/error.h"
#include "model/stats.h"

#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* Iglewicz & Hoaglin (1993): M = 0.6745 (x - median) / MAD, |M| > 3.5. */
#define MODZ_SCALE 0.6745
#define MODZ_LIMIT 3.5
/* Fallback when MAD = 0: M = (x - median) / (1.253314 * mean abs. dev.). */
#define MEANAD_SCALE 1.253314
#define TUKEY_K 1.5

const char *stats_better_name(enum stats_better b)
{
	return b == STATS_LOWER_IS_BETTER ? "lower" : "higher";
}

int stats_better_parse(const char *s, enum stats_better *out, struct strbuf *err)
{
	if (s && !strcmp(s, "higher")) {
		*out = STATS_HIGHER_IS_BETTER;
		return 0;
	}
	if (s && !strcmp(s, "lower")) {
		*out = STATS_LOWER_IS_BETTER;
		return 0;
	}
	return ab_fail(err, AB_EDATA, "unknown direction \"%s\" (want \"higher\" or \"lower\")",
		       s ? s : "");
}

/* Exact coverage of the order-statistic pair (l, n+1-l) for the median. */
static double rank_coverage(size_t n, size_t l)
{
	return 1.0 - 2.0 * gsl_cdf_binomial_P((unsigned)(l - 1), 0.5, (unsigned)n);
}

int stats_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi, double *coverage)
{
	double guess;
	size_t l;

	if (!(level > 0.0 && level < 1.0) || n < 2 || n > UINT_MAX)
		return -1;
	/*
	 * Coverage falls as l grows, so we want the largest l that still
	 * reaches the level.  Start near the normal approximation
	 * n/2 - z sqrt(n)/2 and walk; this stays O(1) cdf calls for large n.
	 */
	guess = (double)n / 2.0 - 2.6 * sqrt((double)n) / 2.0;
	l = guess < 1.0 ? 1 : (size_t)guess;
	if (2 * l > n)
		l = n / 2;
	while (l > 1 && rank_coverage(n, l) < level)
		l--;
	if (rank_coverage(n, l) < level)
		return -1;
	/* l < n+1-l keeps the pair distinct (2l <= n). */
	while (2 * (l + 1) <= n && rank_coverage(n, l + 1) >= level)
		l++;
	*lo = l;
	*hi = n + 1 - l;
	*coverage = rank_coverage(n, l);
	return 0;
}

double stats_median(const double *x, size_t n)
{
	double *tmp, m;

	if (n == 0)
		return NAN;
	tmp = ab_malloc(n * sizeof(*tmp));
	memcpy(tmp, x, n * sizeof(*tmp));
	m = gsl_stats_median(tmp, 1, n);
	free(tmp);
	return m;
}

static void summary_clear(struct stats_summary *s, size_t n_failed)
{
	memset(s, 0, sizeof(*s));
	s->n_failed = n_failed;
	s->median = s->ci_low = s->ci_high = s->ci_coverage = NAN;
	s->mean = s->sd = s->cv = s->min = s->max = NAN;
	s->q1 = s->q3 = s->iqr = s->mad = NAN;
}

/* Flag outliers by both rules, in the order of x; s holds the quartiles,
 * median and MAD already. */
static void flag_outliers(const double *x, size_t n, struct stats_summary *s, unsigned *flags)
{
	double lo_fence = s->q1 - TUKEY_K * s->iqr, hi_fence = s->q3 + TUKEY_K * s->iqr;
	double scale = 0.0, meanad = 0.0;
	size_t i;

	if (s->mad > 0.0) {
		scale = s->mad / MODZ_SCALE;
	} else {
		for (i = 0; i < n; i++)
			meanad += fabs(x[i] - s->median);
		meanad /= (double)n;
		scale = MEANAD_SCALE * meanad;
	}
	for (i = 0; i < n; i++) {
		unsigned f = 0;

		if (x[i] < lo_fence || x[i] > hi_fence)
			f |= STATS_OUTLIER_TUKEY;
		if (scale > 0.0 && fabs(x[i] - s->median) / scale > MODZ_LIMIT)
			f |= STATS_OUTLIER_MODZ;
		if (f & STATS_OUTLIER_TUKEY)
			s->n_outliers_tukey++;
		if (f & STATS_OUTLIER_MODZ)
			s->n_outliers_modz++;
		if (f)
			s->n_outliers++;
		if (flags)
			flags[i] = f;
	}
}

int stats_summarize(const double *x, size_t n, size_t n_failed,
		    struct stats_summary *out, unsigned *flags, struct strbuf *err)
{
	double *sorted, *work;
	size_t i, lo, hi;
	double cov;

	summary_clear(out, n_failed);
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return ab_fail(err, AB_EDATA, "value %zu of the sample is not a finite number",
				       i + 1);
	if (n == 0)
		return 0;

	sorted = ab_malloc(n * sizeof(*sorted));
	work = ab_malloc(n * sizeof(*work));
	memcpy(sorted, x, n * sizeof(*sorted));
	gsl_sort(sorted, 1, n);

	out->n = n;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	out->mean = gsl_stats_mean(sorted, 1, n);
	if (n >= 2) {
		out->sd = gsl_stats_sd_m(sorted, 1, n, out->mean);
		if (out->mean != 0.0)
			out->cv = out->sd / fabs(out->mean);
	}
	out->q1 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.25);
	out->q3 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.75);
	out->iqr = out->q3 - out->q1;
	out->mad = gsl_stats_mad0(sorted, 1, n, work);

	if (!stats_median_ci_ranks(n, STATS_LEVEL, &lo, &hi, &cov)) {
		out->has_ci = 1;
		out->ci_rank_low = lo;
		out->ci_rank_high = hi;
		out->ci_low = sorted[lo - 1];
		out->ci_high = sorted[hi - 1];
		out->ci_coverage = cov;
	}
	flag_outliers(x, n, out, flags);
	free(work);
	free(sorted);
	return 0;
}

size_t stats_ci_min_n(double level)
{
	size_t n, lo, hi;
	double cov;

	if (!(level > 0.0 && level < 1.0))
		return 0;
	/* coverage of the widest pair, 1 - 2^(1-n), grows with n */
	for (n = 2; n < 64; n++)
		if (!stats_median_ci_ranks(n, level, &lo, &hi, &cov))
			return n;
	return 64;
}

int stats_median_ci_at(const double *x, size_t n, double level, double *lo, double *hi,
		       double *coverage)
{
	size_t rl, rh;
	double cov, *sorted;

	*lo = *hi = *coverage = NAN;
	if (n == 0 || stats_median_ci_ranks(n, level, &rl, &rh, &cov))
		return -1;
	sorted = ab_malloc(n * sizeof(*sorted));
	memcpy(sorted, x, n * sizeof(*sorted));
	gsl_sort(sorted, 1, n);
	*lo = sorted[rl - 1];
	*hi = sorted[rh - 1];
	*coverage = cov;
	free(sorted);
	return 0;
}

/* ---- MLPerf olympic mean --------------------------------------------- */

const char *stats_olympic_status_name(enum stats_olympic_status s)
{
	switch (s) {
	case STATS_OLYMPIC_OK:
		return "ok";
	case STATS_OLYMPIC_TOO_MANY_FAILED:
		return "too many non-converging runs";
	case STATS_OLYMPIC_NO_RUNS:
		return "no runs left";
	}
	return "unknown";
}

size_t stats_mlperf_max_dropped(const char *benchmark)
{
	return benchmark && !strcmp(benchmark, "unet3d") ? 4 : 1;
}

struct ranked {
	double v;
	size_t i;
};

/* Order by value, then by input position: a stable sort's result. */
static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->v < b->v)
		return -1;
	if (a->v > b->v)
		return 1;
	return (a->i > b->i) - (a->i < b->i);
}

int stats_olympic_mean(const double *minutes, size_t n_valid, size_t n_failed,
		       size_t max_dropped, double scaling_factor,
		       struct stats_olympic *out, unsigned char *kept,
		       struct strbuf *err)
{
	struct ranked *r;
	size_t i, first, end;
	double sum = 0.0;

	memset(out, 0, sizeof(*out));
	out->score = NAN;
	out->max_dropped = max_dropped;
	out->scaling_factor = scaling_factor;
	if (!(scaling_factor > 0.0) || !isfinite(scaling_factor))
		return ab_fail(err, AB_EDATA, "scaling factor %g is not a positive number",
			       scaling_factor);
	for (i = 0; i < n_valid; i++)
		if (!isfinite(minutes[i]))
			return ab_fail(err, AB_EDATA, "run time %zu is not a finite number", i + 1);
	if (kept)
		memset(kept, 0, n_valid);
	if (n_failed > max_dropped) {
		out->status = STATS_OLYMPIC_TOO_MANY_FAILED;
		return 0;
	}
	/* kept = sorted[k : n - (k - dropped)], empty when end <= start */
	first = max_dropped;
	end = n_valid >= max_dropped - n_failed ? n_valid - (max_dropped - n_failed) : 0;
	if (end <= first) {
		out->status = STATS_OLYMPIC_NO_RUNS;
		return 0;
	}
	r = ab_malloc(n_valid * sizeof(*r));
	for (i = 0; i < n_valid; i++) {
		r[i].v = minutes[i];
		r[i].i = i;
	}
	qsort(r, n_valid, sizeof(*r), cmp_ranked);
	for (i = first; i < end; i++) {
		sum += r[i].v;
		if (kept)
			kept[r[i].i] = 1;
	}
	out->n_kept = end - first;
	out->score = sum / (double)out->n_kept * scaling_factor;
	out->status = STATS_OLYMPIC_OK;
	free(r);
	return 0;
}
