/*
 * compare.c - ratio of medians with a bootstrap CI, Mann-Whitney U, Holm,
 * verdicts and the geometric-mean composite; see compare.h for the
 * methods.  GSL supplies the RNG, medians, quantiles and distributions;
 * the rank test's exact distribution and Holm are written here because
 * GSL has neither.
 */
#include "core/compat.h"
#include "core/error.h"
#include "model/compare.h"

#include <math.h>
#include <pthread.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

const char *compare_verdict_name(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_FASTER:
		return "faster";
	case COMPARE_SLOWER:
		return "slower";
	case COMPARE_INDISTINGUISHABLE:
		break;
	}
	return "indistinguishable";
}

const char *compare_mw_method_name(enum compare_mw_method m)
{
	return m == COMPARE_MW_EXACT ? "exact" : "normal";
}

const char *compare_boot_method_name(enum compare_boot_method m)
{
	return m == COMPARE_BOOT_EXACT ? "exact" : "resample";
}

void compare_opts_init(struct compare_opts *opts)
{
	opts->seed = COMPARE_DEFAULT_SEED;
	opts->resamples = COMPARE_DEFAULT_RESAMPLES;
	opts->level = STATS_LEVEL;
	opts->alpha = COMPARE_ALPHA;
}

static int check_opts(const struct compare_opts *o, struct strbuf *err)
{
	if (o->resamples < COMPARE_MIN_RESAMPLES)
		return ab_fail(err, AB_EDATA, "too few bootstrap resamples %zu (need at least %d)",
			       o->resamples, COMPARE_MIN_RESAMPLES);
	if (!(o->level > 0.0 && o->level < 1.0))
		return ab_fail(err, AB_EDATA, "confidence level %g is not between 0 and 1", o->level);
	return 0;
}

/* ---- Mann-Whitney U -------------------------------------------------- */

struct tagged {
	double v;
	int from_x;
};

static int cmp_tagged(const void *pa, const void *pb)
{
	const struct tagged *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/*
 * Number of ways, out of C(N, m), to pick m of the ranks 1..N with U = u
 * (U = rank sum - m(m+1)/2), for u = 0..m(N-m): a subset-sum count over
 * ranks, dp[j][s] = subsets of size j with rank sum s.  Counts reach
 * C(98, 49) ~ 2.5e28: doubles hold them with relative error ~1e-16, and
 * only additions of non-negative terms happen, so nothing cancels.
 */
static double *u_distribution(size_t m, size_t N)
{
	size_t smax = m * N, j, r, s, umax = m * (N - m), base = m * (m + 1) / 2;
	double *dp = ab_calloc((m + 1) * (smax + 1), sizeof(*dp));
	double *dist = ab_calloc(umax + 1, sizeof(*dist));

	dp[0] = 1.0;
	for (r = 1; r <= N; r++)
		for (j = (r < m ? r : m); j >= 1; j--)
			for (s = smax; s >= r; s--)
				dp[j * (smax + 1) + s] += dp[(j - 1) * (smax + 1) + s - r];
	for (s = 0; s <= umax; s++)
		dist[s] = dp[m * (smax + 1) + s + base];
	free(dp);
	return dist;
}

static double exact_p(double u, size_t n, size_t m)
{
	size_t small = n < m ? n : m, N = n + m, umax = n * m, k;
	/* no ties: u is an integer; U's null distribution is the same for
	 * (n, m) and (m, n), so count with the smaller sample */
	size_t ui = (size_t)u;
	double *dist = u_distribution(small, N);
	double total = 0.0, le = 0.0, ge = 0.0, p;

	for (k = 0; k <= umax; k++) {
		total += dist[k];
		if (k <= ui)
			le += dist[k];
		if (k >= ui)
			ge += dist[k];
	}
	free(dist);
	p = 2.0 * (le < ge ? le : ge) / total;
	return p > 1.0 ? 1.0 : p;
}

int compare_mann_whitney(const double *x, size_t n, const double *y, size_t m,
			 struct compare_mw *out, struct strbuf *err)
{
	size_t N = n + m, i, j;
	struct tagged *all;
	double rank_sum = 0.0, tie_term = 0.0, mu, var, d;

	out->u = out->p = out->z = NAN;
	out->method = COMPARE_MW_NORMAL;
	out->has_ties = 0;
	if (n == 0 || m == 0)
		return ab_fail(err, AB_EDATA, "cannot test an empty sample");
	all = ab_malloc(N * sizeof(*all));
	for (i = 0; i < N; i++) {
		all[i].v = i < n ? x[i] : y[i - n];
		all[i].from_x = i < n;
		if (!isfinite(all[i].v)) {
			free(all);
			return ab_fail(err, AB_EDATA, "value %zu of the %s sample is not a finite number",
				       (i < n ? i : i - n) + 1, i < n ? "first" : "second");
		}
	}
	qsort(all, N, sizeof(*all), cmp_tagged);
	/* mid-ranks: a tie block at positions i..j-1 gets (i+1 + j) / 2 */
	for (i = 0; i < N; i = j) {
		double t, mid;

		for (j = i + 1; j < N && all[j].v == all[i].v; j++)
			;
		t = (double)(j - i);
		mid = ((double)(i + 1) + (double)j) / 2.0;
		for (size_t k = i; k < j; k++)
			if (all[k].from_x)
				rank_sum += mid;
		tie_term += t * t * t - t;
	}
	free(all);
	out->has_ties = tie_term > 0.0;
	out->u = rank_sum - (double)n * (double)(n + 1) / 2.0;

	if (!out->has_ties && n < COMPARE_MW_EXACT_MAX_N && m < COMPARE_MW_EXACT_MAX_N) {
		out->method = COMPARE_MW_EXACT;
		out->p = exact_p(out->u, n, m);
		return 0;
	}
	mu = (double)n * (double)m / 2.0;
	var = (double)n * (double)m / 12.0 *
	      ((double)N + 1.0 - tie_term / ((double)N * ((double)N - 1.0)));
	if (!(var > 0.0)) {
		/* every value tied: no evidence either way */
		out->z = 0.0;
		out->p = 1.0;
		return 0;
	}
	d = out->u - mu;
	d -= d > 0.0 ? 0.5 : (d < 0.0 ? -0.5 : 0.0);
	out->z = d / sqrt(var);
	out->p = 2.0 * gsl_cdf_ugaussian_Q(fabs(out->z));
	if (out->p > 1.0)
		out->p = 1.0;
	return 0;
}

/* ---- Holm ------------------------------------------------------------- */

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *pa, const void *pb)
{
	const struct pidx *a = pa, *b = pb;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

void compare_holm(const double *p, double *adj, size_t m)
{
	struct pidx *s = ab_malloc((m ? m : 1) * sizeof(*s));
	size_t k = 0, i;
	double run = 0.0;

	for (i = 0; i < m; i++)
		if (!isnan(p[i])) {
			s[k].p = p[i];
			s[k].i = i;
			k++;
		}
	for (i = 0; i < m; i++)
		adj[i] = NAN;
	qsort(s, k, sizeof(*s), cmp_pidx);
	for (i = 0; i < k; i++) {
		double a = (double)(k - i) * s[i].p;

		if (a > 1.0)
			a = 1.0;
		if (a > run)
			run = a;
		adj[s[i].i] = run;
	}
	free(s);
}

enum compare_verdict compare_verdict_of(double ratio_ci_low, double ratio_ci_high,
					double p_adjusted, double alpha,
					enum stats_better better)
{
	int up;

	if (!(p_adjusted < alpha))
		return COMPARE_INDISTINGUISHABLE;
	if (ratio_ci_low > 1.0)
		up = 1;
	else if (ratio_ci_high < 1.0)
		up = 0;
	else
		return COMPARE_INDISTINGUISHABLE;
	if (better == STATS_LOWER_IS_BETTER)
		up = !up;
	return up ? COMPARE_FASTER : COMPARE_SLOWER;
}

/* ---- bootstrap ratio of medians ------------------------------------- */

/* bench > 0 names the benchmark (1-based) in the message. */
static int check_positive(const double *v, size_t n, const char *what, size_t bench,
			  struct strbuf *err)
{
	struct strbuf where = STRBUF_INIT;
	size_t i;
	int rc = 0;

	if (bench)
		strbuf_addf(&where, "benchmark %zu: ", bench);
	if (n == 0)
		rc = ab_fail(err, AB_EDATA, "%s%s sample is empty", where.buf, what);
	for (i = 0; !rc && i < n; i++)
		if (!isfinite(v[i]) || !(v[i] > 0.0))
			rc = ab_fail(err, AB_EDATA,
				     "%svalue %zu of the %s sample (%g) is not a positive number",
				     where.buf, i + 1, what, v[i]);
	strbuf_release(&where);
	return rc;
}

/*
 * Resampling the median.  A resample is n draws with replacement; its
 * median depends only on how often each value was drawn, so the sample is
 * sorted once and a resample counts draws per rank and walks the counts to
 * the middle: O(n) per resample, no copy, no selection.  The draws (the
 * RNG sequence) and the medians are those of drawing values and taking
 * gsl_stats_median: same values, same arithmetic for even n.
 */
struct resampler {
	const double *sorted;   /* owned: the sample in ascending order */
	size_t *rank;           /* owned: rank[j] = position of draw j's value */
	size_t *count;          /* owned: draws per rank, zero between resamples */
	size_t *order;          /* owned: order[i] = the draw index at position i */
	size_t n;
};

struct rank_item {
	double v;
	size_t i;
};

static int rank_cmp(const void *pa, const void *pb)
{
	const struct rank_item *a = pa, *b = pb;

	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static void resampler_init(struct resampler *rs, const double *v, size_t n)
{
	struct rank_item *it = ab_malloc((n ? n : 1) * sizeof(*it));
	double *sorted = ab_malloc((n ? n : 1) * sizeof(*sorted));
	size_t i;

	for (i = 0; i < n; i++) {
		it[i].v = v[i];
		it[i].i = i;
	}
	qsort(it, n, sizeof(*it), rank_cmp);
	rs->rank = ab_malloc((n ? n : 1) * sizeof(*rs->rank));
	rs->count = ab_calloc(n ? n : 1, sizeof(*rs->count));
	rs->order = ab_malloc((n ? n : 1) * sizeof(*rs->order));
	for (i = 0; i < n; i++) {
		sorted[i] = it[i].v;
		rs->rank[it[i].i] = i;
		rs->order[i] = it[i].i;
	}
	rs->sorted = sorted;
	rs->n = n;
	free(it);
}

static void resampler_release(struct resampler *rs)
{
	free((double *)rs->sorted);
	free(rs->rank);
	free(rs->count);
	free(rs->order);
}

/* The median of the draws counted in rs->count (which it clears). */
static double counted_median(const struct resampler *rs)
{
	size_t n = rs->n, i, seen = 0, lo = (n - 1) / 2, hi = n / 2;
	double a = 0.0, m = 0.0;

	for (i = 0; i < n; i++) {
		size_t c = rs->count[i];

		if (!c)
			continue;
		rs->count[i] = 0;
		if (seen <= lo && lo < seen + c) {
			a = rs->sorted[i];
		}
		if (seen <= hi && hi < seen + c) {
			m = lo == hi ? a : (a + rs->sorted[i]) / 2.0;
			/* the rest of the counts still need clearing */
			for (i++; i < n; i++)
				rs->count[i] = 0;
			break;
		}
		seen += c;
	}
	return m;
}

/* Median of n draws with replacement (n >= 1). */
static double resample_median(const gsl_rng *rng, const struct resampler *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		rs->count[rs->rank[gsl_rng_uniform_int(rng, rs->n)]]++;
	return counted_median(rs);
}

static gsl_rng *rng_new(unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	if (!rng)
		abort(); /* allocation failure, as ab_malloc */
	gsl_rng_set(rng, seed);
	return rng;
}

/* Median of a resample given as cnt[j] = how often index j was drawn:
 * the counts read in the sample's order, up to the middle (the same
 * values and arithmetic as counted_median; nothing to clear). */
static double drawn_median(const unsigned char *cnt, const struct resampler *rs)
{
	size_t n = rs->n, i, seen = 0, lo = (n - 1) / 2, hi = n / 2;
	double a = 0.0;

	for (i = 0; i < n; i++) {
		size_t c = cnt[rs->order[i]];

		if (!c)
			continue;
		if (seen <= lo && lo < seen + c)
			a = rs->sorted[i];
		if (seen <= hi && hi < seen + c)
			return lo == hi ? a : (a + rs->sorted[i]) / 2.0;
		seen += c;
	}
	return 0.0;   /* not reached: the counts add up to n */
}

/* ---- kept draws (compare.h) ------------------------------------------ */

#define DRAWS_MAX_BYTES ((size_t)4 << 20)
#define DRAWS_MAX_SETS 16

struct draw_set {
	unsigned long seed;
	size_t resamples, n, nbase;
	unsigned char *cnt;   /* per resample: how often each of the n system values was
			       * drawn, then each of the nbase baseline values */
	double *base;         /* the last baseline sample read with them (a table's
			       * pairs share it), NULL: none */
	double *base_med;     /* its median in each resample */
};

struct compare_draws {
	struct draw_set v[DRAWS_MAX_SETS];
	size_t n, next;       /* sets kept; the one replaced when full */
};

struct compare_draws *compare_draws_new(void)
{
	return ab_calloc(1, sizeof(struct compare_draws));
}

void compare_draws_free(struct compare_draws *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n; i++) {
		free(d->v[i].cnt);
		free(d->v[i].base);
		free(d->v[i].base_med);
	}
	free(d);
}

/* The draws of a comparison of n with nbase values, drawn now if not
 * kept; NULL when they are not kept (too large). */
static struct draw_set *draws_get(struct compare_draws *d, unsigned long seed,
				  size_t resamples, size_t n, size_t nbase)
{
	struct draw_set *s;
	size_t i, r, per = n + nbase;
	unsigned char *p;
	gsl_rng *rng;

	if (!d || n > UCHAR_MAX || nbase > UCHAR_MAX || resamples > DRAWS_MAX_BYTES / per)
		return NULL;
	for (i = 0; i < d->n; i++)
		if (d->v[i].seed == seed && d->v[i].resamples == resamples && d->v[i].n == n &&
		    d->v[i].nbase == nbase)
			return &d->v[i];
	if (d->n < DRAWS_MAX_SETS) {
		s = &d->v[d->n++];
	} else {
		s = &d->v[d->next];
		d->next = (d->next + 1) % DRAWS_MAX_SETS;
		free(s->cnt);
		free(s->base);
		free(s->base_med);
	}
	s->base = s->base_med = NULL;
	s->seed = seed;
	s->resamples = resamples;
	s->n = n;
	s->nbase = nbase;
	s->cnt = p = ab_calloc(resamples, per);
	rng = rng_new(seed);
	for (r = 0; r < resamples; r++, p += per) {
		/* a count is at most n (or nbase), at most UCHAR_MAX */
		for (i = 0; i < n; i++)
			p[gsl_rng_uniform_int(rng, n)]++;
		for (i = 0; i < nbase; i++)
			p[n + gsl_rng_uniform_int(rng, nbase)]++;
	}
	gsl_rng_free(rng);
	return s;
}

/* Rearrange v[0..n) so that v[k] is its k-th smallest (0-based), nothing
 * before it larger and nothing after it smaller (Wirth's selection). */
static void select_kth(double *v, size_t n, size_t k)
{
	ptrdiff_t l = 0, r = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (l < r) {
		double x = v[kk], t;
		ptrdiff_t i = l, j = r;

		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			r = j;
	}
}

/* Put in place the two order statistics that the quantile f of v[0..n)
 * reads (its index and the next, as gsl_stats_quantile_from_sorted_data),
 * given that v[from..n) holds everything not yet placed and that the
 * positions placed before from are the ones a lower quantile needed.
 * Returns the new from. */
static size_t place_quantile(double *v, size_t from, size_t n, double f)
{
	size_t lhs = (size_t)(int)(f * (double)(n - 1)), p, i;

	for (p = lhs; p <= lhs + 1 && p < n; p++) {
		if (p < from)
			continue;   /* placed for the lower quantile */
		if (p > from) {
			select_kth(v + from, n - from, p - from);
		} else {
			size_t mi = from;

			for (i = from + 1; i < n; i++)
				if (v[i] < v[mi])
					mi = i;
			if (mi != from) {
				double t = v[mi];

				v[mi] = v[from];
				v[from] = t;
			}
		}
		from = p + 1;
	}
	return from;
}

/* The percentile interval of v (reordered): the same numbers as sorting
 * v and reading gsl_stats_quantile_from_sorted_data, which only reads the
 * two order statistics around each quantile, so only those four are
 * selected (linear instead of n log n at 10,000 resamples). */
static void percentile_ci(double *v, size_t n, double level, double *lo, double *hi)
{
	size_t from = place_quantile(v, 0, n, (1.0 - level) / 2.0);

	place_quantile(v, from, n, (1.0 + level) / 2.0);
	*lo = gsl_stats_quantile_from_sorted_data(v, 1, n, (1.0 - level) / 2.0);
	*hi = gsl_stats_quantile_from_sorted_data(v, 1, n, (1.0 + level) / 2.0);
}

static void orient(enum stats_better better, double r, double lo, double hi,
		   double *s, double *slo, double *shi)
{
	if (better == STATS_LOWER_IS_BETTER) {
		*s = 1.0 / r;
		*slo = 1.0 / hi;
		*shi = 1.0 / lo;
	} else {
		*s = r;
		*slo = lo;
		*shi = hi;
	}
}

/* The baseline's median in each resample of ds: the same numbers for the
 * same baseline values, so kept for the next pair with them. */
static const double *base_medians(struct draw_set *ds, const struct resampler *rb,
				  const double *base)
{
	size_t r, per = ds->n + ds->nbase;

	if (ds->base && !memcmp(ds->base, base, ds->nbase * sizeof(*base)))
		return ds->base_med;
	if (!ds->base) {
		ds->base = ab_malloc(ds->nbase * sizeof(*ds->base));
		ds->base_med = ab_malloc(ds->resamples * sizeof(*ds->base_med));
	}
	memcpy(ds->base, base, ds->nbase * sizeof(*base));
	for (r = 0; r < ds->resamples; r++)
		ds->base_med[r] = drawn_median(ds->cnt + r * per + ds->n, rb);
	return ds->base_med;
}

int compare_pair(const double *x, size_t n, const double *base, size_t nbase,
		 enum stats_better better, const struct compare_opts *opts,
		 struct compare_result *out, struct strbuf *err)
{
	return compare_pair_draws(x, n, base, nbase, better, opts, NULL, out, err);
}

int compare_pair_draws(const double *x, size_t n, const double *base, size_t nbase,
		       enum stats_better better, const struct compare_opts *opts,
		       struct compare_draws *d, struct compare_result *out, struct strbuf *err)
{
	struct compare_opts defaults;
	double *ratios;
	gsl_rng *rng;
	size_t r;
	int rc;

	if (!opts) {
		compare_opts_init(&defaults);
		opts = &defaults;
	}
	memset(out, 0, sizeof(*out));
	out->median = out->median_baseline = out->ratio = NAN;
	out->ratio_ci_low = out->ratio_ci_high = NAN;
	out->speedup = out->speedup_ci_low = out->speedup_ci_high = NAN;
	out->p_value = out->p_adjusted = NAN;
	out->seed = opts->seed;
	out->resamples = opts->resamples;
	out->level = opts->level;
	out->alpha = opts->alpha;
	out->better = better;
	out->n = n;
	out->n_baseline = nbase;
	if ((rc = check_opts(opts, err)) || (rc = check_positive(x, n, "system", 0, err)) ||
	    (rc = check_positive(base, nbase, "baseline", 0, err)))
		return rc;

	out->median = stats_median(x, n);
	out->median_baseline = stats_median(base, nbase);
	out->ratio = out->median / out->median_baseline;

	if (n >= COMPARE_EXACT_MIN_N || nbase >= COMPARE_EXACT_MIN_N) {
		struct compare_median_dist da, db;

		if ((rc = compare_median_dist(x, n, &da, err)))
			return rc;
		if ((rc = compare_median_dist(base, nbase, &db, err))) {
			compare_median_dist_release(&da);
			return rc;
		}
		out->boot = COMPARE_BOOT_EXACT;
		out->ratio_ci_low = compare_ratio_quantile(&da, &db, (1.0 - opts->level) / 2.0);
		out->ratio_ci_high = compare_ratio_quantile(&da, &db, (1.0 + opts->level) / 2.0);
		compare_median_dist_release(&da);
		compare_median_dist_release(&db);
	} else {
		struct draw_set *ds = draws_get(d, opts->seed, opts->resamples, n, nbase);
		const unsigned char *idx = ds ? ds->cnt : NULL;
		const double *bm = NULL;
		struct resampler ra, rb;

		rng = idx ? NULL : rng_new(opts->seed);
		ratios = ab_malloc(opts->resamples * sizeof(*ratios));
		resampler_init(&ra, x, n);
		resampler_init(&rb, base, nbase);
		if (ds)
			bm = base_medians(ds, &rb, base);
		for (r = 0; idx && r < opts->resamples; r++, idx += n + nbase)
			ratios[r] = drawn_median(idx, &ra) / bm[r];
		for (r = 0; !idx && r < opts->resamples; r++) {
			double a = resample_median(rng, &ra);
			double b = resample_median(rng, &rb);

			ratios[r] = a / b;
		}
		percentile_ci(ratios, opts->resamples, opts->level, &out->ratio_ci_low,
			      &out->ratio_ci_high);
		resampler_release(&ra);
		resampler_release(&rb);
		free(ratios);
		if (rng)
			gsl_rng_free(rng);
	}
	orient(better, out->ratio, out->ratio_ci_low, out->ratio_ci_high,
	       &out->speedup, &out->speedup_ci_low, &out->speedup_ci_high);

	if ((rc = compare_mann_whitney(x, n, base, nbase, &out->mw, err)))
		return rc;
	out->p_value = out->p_adjusted = out->mw.p;
	out->verdict = compare_verdict_of(out->ratio_ci_low, out->ratio_ci_high,
					  out->p_adjusted, out->alpha, better);
	return 0;
}

/* Every second task from the first, with its own draws; the index of
 * the first that failed (err), or SIZE_MAX. */
struct pairs_half {
	struct compare_task *t;
	size_t n, first;
	const struct compare_opts *opts;
	size_t failed;
	int rc;
	struct strbuf err;
};

static void *pairs_run(void *arg)
{
	struct pairs_half *h = arg;
	struct compare_draws *d = compare_draws_new();
	size_t i;

	h->failed = SIZE_MAX;
	h->rc = 0;
	for (i = h->first; i < h->n; i += 2) {
		struct compare_task *k = &h->t[i];

		h->rc = compare_pair_draws(k->s.x, k->s.n, k->s.base, k->s.nbase, k->s.better,
					   h->opts, d, &k->res, &h->err);
		if (h->rc < 0) {
			h->failed = i;
			break;
		}
	}
	compare_draws_free(d);
	return NULL;
}

int compare_pairs(struct compare_task *t, size_t n, const struct compare_opts *opts,
		  struct strbuf *err)
{
	struct pairs_half h[2];
	pthread_t tid;
	int two = 0, k;
	size_t i;

	for (k = 0; k < 2; k++) {
		h[k].t = t;
		h[k].n = n;
		h[k].first = (size_t)k;
		h[k].opts = opts;
		strbuf_init(&h[k].err, 0);
	}
	/* AB_THREADS=1: one thread (the same results; for comparisons) */
	if (n > 1 && !(getenv("AB_THREADS") && !strcmp(getenv("AB_THREADS"), "1")) &&
	    pthread_create(&tid, NULL, pairs_run, &h[1]) == 0)
		two = 1;
	pairs_run(&h[0]);
	if (two)
		pthread_join(tid, NULL);
	else
		pairs_run(&h[1]);
	/* the first failure in task order, as one thread would stop at */
	k = h[1].failed < h[0].failed;
	i = h[k].failed;
	if (i != SIZE_MAX && err) {
		strbuf_reset(err);
		strbuf_addbuf(err, &h[k].err);
	}
	strbuf_release(&h[0].err);
	strbuf_release(&h[1].err);
	return i == SIZE_MAX ? 0 : h[k].rc;
}

void compare_adjust(struct compare_result *res, size_t m)
{
	double *p = ab_malloc((m ? m : 1) * sizeof(*p));
	size_t i;

	for (i = 0; i < m; i++)
		p[i] = res[i].p_value;
	compare_holm(p, p, m);
	for (i = 0; i < m; i++) {
		res[i].p_adjusted = p[i];
		res[i].verdict = compare_verdict_of(res[i].ratio_ci_low, res[i].ratio_ci_high,
						    p[i], res[i].alpha, res[i].better);
	}
	free(p);
}

/* ---- geometric mean composite -------------------------------------- */

static void geomean_clear(struct compare_geomean *g, size_t k, double level)
{
	memset(g, 0, sizeof(*g));
	g->k = k;
	g->level = level;
	g->gm = g->sd_log = g->t_ci_low = g->t_ci_high = NAN;
	g->boot_ci_low = g->boot_ci_high = NAN;
}

/* gm and the t interval from the logs of the speedups. */
static void geomean_from_logs(const double *logs, size_t k, double level,
			      struct compare_geomean *out)
{
	double mean = gsl_stats_mean(logs, 1, k), half;

	out->gm = exp(mean);
	if (k < 2)
		return;
	out->sd_log = gsl_stats_sd_m(logs, 1, k, mean);
	half = gsl_cdf_tdist_Pinv((1.0 + level) / 2.0, (double)(k - 1)) * out->sd_log /
	       sqrt((double)k);
	out->t_ci_low = exp(mean - half);
	out->t_ci_high = exp(mean + half);
}

int compare_geomean(const double *s, size_t k, double level,
		    struct compare_geomean *out, struct strbuf *err)
{
	double *logs;
	size_t i;

	geomean_clear(out, k, level);
	if (k == 0)
		return ab_fail(err, AB_EDATA, "no benchmarks to summarise");
	if (!(level > 0.0 && level < 1.0))
		return ab_fail(err, AB_EDATA, "confidence level %g is not between 0 and 1", level);
	for (i = 0; i < k; i++)
		if (!isfinite(s[i]) || !(s[i] > 0.0))
			return ab_fail(err, AB_EDATA, "speedup %zu (%g) is not a positive number",
				       i + 1, s[i]);
	logs = ab_malloc(k * sizeof(*logs));
	for (i = 0; i < k; i++)
		logs[i] = log(s[i]);
	geomean_from_logs(logs, k, level, out);
	free(logs);
	return 0;
}

static double oriented(enum stats_better better, double ratio)
{
	return better == STATS_LOWER_IS_BETTER ? 1.0 / ratio : ratio;
}

int compare_geomean_boot(const struct compare_sample *b, size_t k,
			 const struct compare_opts *opts, struct compare_geomean *out,
			 struct strbuf *err)
{
	struct compare_opts defaults;
	double *logs, *gms;
	struct resampler *rs;
	size_t i, r;
	gsl_rng *rng;
	int rc;

	if (!opts) {
		compare_opts_init(&defaults);
		opts = &defaults;
	}
	geomean_clear(out, k, opts->level);
	if (k == 0)
		return ab_fail(err, AB_EDATA, "no benchmarks to summarise");
	if ((rc = check_opts(opts, err)))
		return rc;
	for (i = 0; i < k; i++) {
		if ((rc = check_positive(b[i].x, b[i].n, "system", i + 1, err)) ||
		    (rc = check_positive(b[i].base, b[i].nbase, "baseline", i + 1, err)))
			return rc;
	}
	logs = ab_malloc(k * sizeof(*logs));
	for (i = 0; i < k; i++)
		logs[i] = log(oriented(b[i].better, stats_median(b[i].x, b[i].n) /
						       stats_median(b[i].base, b[i].nbase)));
	geomean_from_logs(logs, k, opts->level, out);

	rng = rng_new(opts->seed);
	gms = ab_malloc(opts->resamples * sizeof(*gms));
	rs = ab_malloc(2 * k * sizeof(*rs));
	for (i = 0; i < k; i++) {
		resampler_init(&rs[2 * i], b[i].x, b[i].n);
		resampler_init(&rs[2 * i + 1], b[i].base, b[i].nbase);
	}
	for (r = 0; r < opts->resamples; r++) {
		double sum = 0.0;

		for (i = 0; i < k; i++) {
			double a = resample_median(rng, &rs[2 * i]);
			double c = resample_median(rng, &rs[2 * i + 1]);

			sum += log(oriented(b[i].better, a / c));
		}
		gms[r] = exp(sum / (double)k);
	}
	percentile_ci(gms, opts->resamples, opts->level, &out->boot_ci_low, &out->boot_ci_high);
	out->seed = opts->seed;
	out->resamples = opts->resamples;
	for (i = 0; i < 2 * k; i++)
		resampler_release(&rs[i]);
	free(rs);
	free(gms);
	free(logs);
	gsl_rng_free(rng);
	return 0;
}
