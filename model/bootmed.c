/*
 * bootmed.c - the exact bootstrap distribution of the sample median and
 * the exact percentile CI of a ratio of two bootstrap medians (compare.h,
 * "exact bootstrap").  No random numbers: the probabilities come from the
 * order statistics of a resample.
 *
 * A resample draws n indices uniformly with replacement from the sorted
 * sample x(1) <= ... <= x(n).  With C_a = number of draws with index <= a,
 * C_a ~ Bin(n, a/n).
 *  - odd n, k = (n+1)/2: the resample median is x(i) with probability
 *    P(C_{i-1} < k <= C_i) = P(Bin(n, i/n) >= k) - P(Bin(n, (i-1)/n) >= k).
 *  - even n, k = n/2: the median (gsl_stats_median) is (X*(k) + X*(k+1))/2.
 *    For i < j the pair (X*(k), X*(k+1)) = (x(i), x(j)) means k draws at
 *    indices <= i with at least one at i, none in (i, j), and n - k at
 *    indices >= j with at least one at j; by the multinomial law
 *      P(i, j) = C(n, k) [(i/n)^k - ((i-1)/n)^k] [((n-j+1)/n)^(n-k) - ((n-j)/n)^(n-k)]
 *    and for i = j (both order statistics the same draw value)
 *      P(i, i) = P(C_{i-1} <= k-1) - P(C_i <= k) + C(n,k) ((i-1)/n)^k ((n-i)/n)^(n-k).
 *  Atoms of probability below BOOTMED_TINY (relative) are left out; the
 *  mass they carry together is far below anything a CI can resolve, and
 *  the rest is renormalised.
 * The ratio a/b of two independent medians has P(a/b <= t) = sum over the
 * atoms (v, p) of b of p * F_a(t v); its quantiles are found by bisection
 * and then snapped to the atom a_i / b_j where the CDF jumps.
 */
#include "core/compat.h"
#include "core/error.h"
#include "model/compare.h"

#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>

/* Atoms below this probability are dropped (see above). */
#define BOOTMED_TINY 1e-16

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static int cmp_atom(const void *pa, const void *pb)
{
	const double *a = pa, *b = pb;   /* (value, probability) pairs */

	return (a[0] > b[0]) - (a[0] < b[0]);
}

void compare_median_dist_release(struct compare_median_dist *d)
{
	free(d->v);
	free(d->cum);
	memset(d, 0, sizeof(*d));
}

/* log((a/n)^k - ((a-1)/n)^k) for a >= 1, k >= 1, computed without
 * cancellation: (a/n)^k (1 - (1 - 1/a)^k). */
static double log_step(double a, double n, double k)
{
	double head = k * log(a / n);

	if (a <= 1.0)
		return head;
	return head + log(-expm1(k * log1p(-1.0 / a)));
}

struct atoms {
	double *ap;      /* value, probability pairs */
	size_t n, alloc;
};

static void atom_add(struct atoms *at, double v, double p)
{
	if (!(p > 0.0))
		return;
	if (at->n == at->alloc) {
		at->alloc = at->alloc ? 2 * at->alloc : 256;
		at->ap = ab_realloc(at->ap, 2 * at->alloc * sizeof(*at->ap));
	}
	at->ap[2 * at->n] = v;
	at->ap[2 * at->n + 1] = p;
	at->n++;
}

static void odd_atoms(const double *s, size_t n, struct atoms *at)
{
	size_t i, k = (n + 1) / 2;
	double prev = 0.0;   /* P(Bin(n, (i-1)/n) >= k) */

	for (i = 1; i <= n; i++) {
		double cur = i == n ? 1.0 : gsl_cdf_binomial_Q((unsigned)(k - 1), (double)i / (double)n,
							       (unsigned)n);
		double p = cur - prev;

		if (p > BOOTMED_TINY)
			atom_add(at, s[i - 1], p);
		prev = cur;
	}
}

static void even_atoms(const double *s, size_t n, struct atoms *at)
{
	size_t k = n / 2, i, j;
	double dn = (double)n, dk = (double)k, lc = gsl_sf_lnchoose((unsigned)n, (unsigned)k);
	double *la = ab_malloc(n * sizeof(*la)), *lb = ab_malloc(n * sizeof(*lb));
	double lbmax = -INFINITY;

	/* la[i-1] = log[(i/n)^k - ((i-1)/n)^k];
	 * lb[j-1] = log[((n-j+1)/n)^(n-k) - ((n-j)/n)^(n-k)] */
	for (i = 1; i <= n; i++) {
		la[i - 1] = log_step((double)i, dn, dk);
		lb[i - 1] = log_step(dn - (double)i + 1.0, dn, dn - dk);
		if (lb[i - 1] > lbmax)
			lbmax = lb[i - 1];
	}
	for (i = 1; i <= n; i++) {
		double pii, fprev, fcur, g;

		/* the diagonal: both order statistics are x(i) */
		fprev = gsl_cdf_binomial_P((unsigned)(k - 1), (double)(i - 1) / dn, (unsigned)n);
		fcur = i == n ? 0.0 : gsl_cdf_binomial_P((unsigned)k, (double)i / dn, (unsigned)n);
		g = (i == 1) ? 0.0 : exp(lc + dk * log((double)(i - 1) / dn) +
					(dn - dk) * log((dn - (double)i) / dn));
		if (i == n)
			g = 0.0;
		pii = fprev - fcur + g;
		if (pii > BOOTMED_TINY)
			atom_add(at, s[i - 1], pii);
		if (lc + la[i - 1] + lbmax < log(BOOTMED_TINY))
			continue;
		for (j = i + 1; j <= n; j++) {
			double lp = lc + la[i - 1] + lb[j - 1];

			/* lb falls monotonically with j: nothing further is larger */
			if (lp < log(BOOTMED_TINY))
				break;
			atom_add(at, (s[i - 1] + s[j - 1]) / 2.0, exp(lp));
		}
	}
	free(la);
	free(lb);
}

int compare_median_dist(const double *x, size_t n, struct compare_median_dist *out,
			struct strbuf *err)
{
	struct atoms at = { NULL, 0, 0 };
	double *s, total = 0.0, run = 0.0;
	size_t i, m = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return ab_fail(err, AB_EDATA, "cannot bootstrap an empty sample");
	if (n > UINT_MAX / 2)
		return ab_fail(err, AB_EDATA, "sample of %zu values is too large", n);
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return ab_fail(err, AB_EDATA, "value %zu (%g) is not a finite number", i + 1,
				       x[i]);
	s = ab_malloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	if (n % 2)
		odd_atoms(s, n, &at);
	else
		even_atoms(s, n, &at);
	free(s);
	qsort(at.ap, at.n, 2 * sizeof(*at.ap), cmp_atom);
	/* merge equal values (ties in the data, coinciding midpoints) */
	out->v = ab_malloc((at.n ? at.n : 1) * sizeof(*out->v));
	out->cum = ab_malloc((at.n ? at.n : 1) * sizeof(*out->cum));
	for (i = 0; i < at.n; i++) {
		total += at.ap[2 * i + 1];
		if (m && out->v[m - 1] == at.ap[2 * i]) {
			out->cum[m - 1] += at.ap[2 * i + 1];
			continue;
		}
		out->v[m] = at.ap[2 * i];
		out->cum[m] = at.ap[2 * i + 1];
		m++;
	}
	free(at.ap);
	/* probabilities -> renormalised cumulative */
	for (i = 0; i < m; i++) {
		run += out->cum[i];
		out->cum[i] = run / total < 1.0 ? run / total : 1.0;
	}
	if (m)
		out->cum[m - 1] = 1.0;
	out->n = m;
	out->mass = total;
	return 0;
}

/* P(a / b <= t) for positive atoms, both sorted ascending: for each atom
 * b_j, the count of a atoms <= t b_j grows with j (two pointers). */
static double ratio_cdf(const struct compare_median_dist *a, const struct compare_median_dist *b,
			double t)
{
	size_t j, i = 0;
	double sum = 0.0, prevb = 0.0;

	for (j = 0; j < b->n; j++) {
		double lim = t * b->v[j], pb = b->cum[j] - prevb;

		prevb = b->cum[j];
		while (i < a->n && a->v[i] <= lim)
			i++;
		if (i)
			sum += pb * a->cum[i - 1];
	}
	return sum;
}

/* The largest atom a_i / b_j not above t. */
static double ratio_atom_below(const struct compare_median_dist *a,
			       const struct compare_median_dist *b, double t)
{
	size_t j, i = 0;
	double best = -INFINITY;

	for (j = 0; j < b->n; j++) {
		double lim = t * b->v[j];

		while (i < a->n && a->v[i] <= lim)
			i++;
		if (i && a->v[i - 1] / b->v[j] > best && a->v[i - 1] / b->v[j] <= t)
			best = a->v[i - 1] / b->v[j];
	}
	return best;
}

double compare_ratio_quantile(const struct compare_median_dist *a,
			      const struct compare_median_dist *b, double q)
{
	double lo, hi, r;
	int it;

	if (!a->n || !b->n)
		return NAN;
	lo = a->v[0] / b->v[b->n - 1];
	hi = a->v[a->n - 1] / b->v[0];
	if (ratio_cdf(a, b, lo) >= q)
		return lo;
	/* invariant: CDF(lo) < q <= CDF(hi) */
	for (it = 0; it < 200 && hi - lo > 1e-14 * fabs(hi); it++) {
		double mid = lo + (hi - lo) / 2.0;

		if (mid <= lo || mid >= hi)
			break;
		if (ratio_cdf(a, b, mid) >= q)
			hi = mid;
		else
			lo = mid;
	}
	r = ratio_atom_below(a, b, hi);
	return isfinite(r) && r > lo ? r : hi;
}
