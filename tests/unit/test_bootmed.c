/*
 * test_bootmed.c - the exact bootstrap of the median (model/bootmed.c):
 * its distribution against brute-force enumeration of every resample,
 * the ratio quantile against enumeration of every pair of atoms, and
 * compare_pair's switch to it at COMPARE_EXACT_MIN_N against a large
 * resampling run.
 */
#include "unit.h"
#include <math.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "model/compare.h"

struct vp {
	double v, p;
};

static int cmp_vp(const void *pa, const void *pb)
{
	const struct vp *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/* Every one of the n^n index tuples of a resample, with gsl's median:
 * returns the distinct medians with probabilities, sorted. */
static size_t brute(const double *x, size_t n, struct vp *out)
{
	size_t total = 1, t, i, m = 0, k;
	size_t idx[8];
	double buf[8];
	struct vp *all;

	for (i = 0; i < n; i++)
		total *= n;
	all = ab_malloc(total * sizeof(*all));
	for (t = 0; t < total; t++) {
		size_t r = t;

		for (i = 0; i < n; i++) {
			idx[i] = r % n;
			r /= n;
			buf[i] = x[idx[i]];
		}
		gsl_sort(buf, 1, n);
		all[t].v = gsl_stats_median_from_sorted_data(buf, 1, n);
		all[t].p = 1.0 / (double)total;
	}
	qsort(all, total, sizeof(*all), cmp_vp);
	for (k = 0; k < total; k++) {
		if (m && out[m - 1].v == all[k].v) {
			out[m - 1].p += all[k].p;
			continue;
		}
		out[m++] = all[k];
	}
	free(all);
	return m;
}

static void check_against_brute(const double *x, size_t n)
{
	struct strbuf err = STRBUF_INIT;
	struct compare_median_dist d;
	struct vp *want = ab_malloc(46656 * sizeof(*want));
	size_t m = brute(x, n, want), i;
	double run = 0.0;

	assert_int_equal(compare_median_dist(x, n, &d, &err), 0);
	assert_int_equal(d.n, m);
	assert_true(fabs(d.mass - 1.0) < 1e-12);
	for (i = 0; i < m; i++) {
		run += want[i].p;
		assert_double_near(d.v[i], want[i].v, 1e-15);
		assert_true(fabs(d.cum[i] - run) < 1e-12);
	}
	compare_median_dist_release(&d);
	free(want);
	strbuf_release(&err);
}

static void test_dist_brute(void **state)
{
	static const double odd[] = { 7.5, 3.0, 9.25, 4.0, 12.0 };
	static const double even[] = { 5.0, 1.0, 8.0, 2.0, 13.0, 3.5 };
	static const double ties[] = { 2.0, 2.0, 3.0, 5.0, 5.0, 5.0 };
	static const double small[] = { 4.0, 1.0 };
	static const double one[] = { 3.0 };

	(void)state;
	check_against_brute(odd, 5);
	check_against_brute(even, 6);
	check_against_brute(ties, 6);
	check_against_brute(ties, 5);
	check_against_brute(small, 2);
	check_against_brute(one, 1);
}

/* The ratio quantile against the sorted product of two brute-force
 * distributions, at several q, including ones that fall on a jump. */
static void test_ratio_quantile_brute(void **state)
{
	static const double a[] = { 10.0, 12.0, 11.0, 15.0 };
	static const double b[] = { 5.0, 6.0, 5.5 };
	static const double qs[] = { 0.001, 0.025, 0.1, 0.25, 0.5, 0.75, 0.9, 0.975, 0.999 };
	struct strbuf err = STRBUF_INIT;
	struct compare_median_dist da, db;
	struct vp wa[256], wb[256], *prod;
	size_t na = brute(a, 4, wa), nb = brute(b, 3, wb), i, j, np = 0, q;

	(void)state;
	prod = ab_malloc(na * nb * sizeof(*prod));
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++) {
			prod[np].v = wa[i].v / wb[j].v;
			prod[np++].p = wa[i].p * wb[j].p;
		}
	qsort(prod, np, sizeof(*prod), cmp_vp);
	assert_int_equal(compare_median_dist(a, 4, &da, &err), 0);
	assert_int_equal(compare_median_dist(b, 3, &db, &err), 0);
	for (q = 0; q < AB_ARRAY_SIZE(qs); q++) {
		double run = 0.0, want = NAN;

		for (i = 0; i < np; i++) {
			run += prod[i].p;
			if (run >= qs[q] - 1e-12) {
				want = prod[i].v;
				break;
			}
		}
		assert_double_near(compare_ratio_quantile(&da, &db, qs[q]), want, 1e-12);
	}
	compare_median_dist_release(&da);
	compare_median_dist_release(&db);
	free(prod);
	strbuf_release(&err);
}

/* Large n: the distribution still sums to one, its mean is near the
 * sample median, and the atoms kept stay few (the point of the method). */
static void test_dist_large(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct compare_median_dist d;
	size_t sizes[] = { 40, 41, 600, 601, 5000 }, s, i;

	(void)state;
	for (s = 0; s < AB_ARRAY_SIZE(sizes); s++) {
		size_t n = sizes[s];
		double *x = ab_malloc(n * sizeof(*x)), prev = 0.0, mean = 0.0;

		for (i = 0; i < n; i++)
			x[i] = 100.0 + (double)((i * 7919) % n) / (double)n;
		assert_int_equal(compare_median_dist(x, n, &d, &err), 0);
		assert_true(d.mass > 1.0 - 1e-9 && d.mass < 1.0 + 1e-9);
		assert_true(d.cum[d.n - 1] == 1.0);
		for (i = 0; i < d.n; i++) {
			assert_true(d.cum[i] >= prev);
			mean += d.v[i] * (d.cum[i] - prev);
			prev = d.cum[i];
		}
		assert_true(fabs(mean - stats_median(x, n)) < 0.02);
		assert_true(d.n < 60 * n);
		compare_median_dist_release(&d);
		free(x);
	}
	strbuf_release(&err);
}

/* compare_pair: exact from COMPARE_EXACT_MIN_N on either side, resampling
 * below; the exact CI matches 400,000 resamples to within their noise. */
static void test_pair_exact(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct compare_result r, r2;
	size_t n = 45, m = 40, i, R = 400000;
	double x[45], y[40], *ratios = ab_malloc(R * sizeof(*ratios)), bx[45], by[40];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	(void)state;
	gsl_rng_set(rng, 7);
	for (i = 0; i < n; i++)
		x[i] = 200.0 + 20.0 * gsl_rng_uniform(rng);
	for (i = 0; i < m; i++)
		y[i] = 100.0 + 15.0 * gsl_rng_uniform(rng);
	assert_int_equal(compare_pair(x, n, y, m, STATS_HIGHER_IS_BETTER, NULL, &r, &err), 0);
	assert_int_equal(r.boot, COMPARE_BOOT_EXACT);
	assert_string_equal(compare_boot_method_name(r.boot), "exact");
	for (i = 0; i < R; i++) {
		size_t j;

		for (j = 0; j < n; j++)
			bx[j] = x[gsl_rng_uniform_int(rng, n)];
		for (j = 0; j < m; j++)
			by[j] = y[gsl_rng_uniform_int(rng, m)];
		ratios[i] = stats_median(bx, n) / stats_median(by, m);
	}
	gsl_sort(ratios, 1, R);
	assert_double_near(r.ratio_ci_low, gsl_stats_quantile_from_sorted_data(ratios, 1, R, 0.025),
			   2e-3);
	assert_double_near(r.ratio_ci_high, gsl_stats_quantile_from_sorted_data(ratios, 1, R, 0.975),
			   2e-3);
	assert_true(r.ratio_ci_low < r.ratio && r.ratio < r.ratio_ci_high);
	/* deterministic, and lower-is-better orients the same atoms */
	assert_int_equal(compare_pair(x, n, y, m, STATS_LOWER_IS_BETTER, NULL, &r2, &err), 0);
	assert_true(r2.ratio_ci_low == r.ratio_ci_low && r2.ratio_ci_high == r.ratio_ci_high);
	assert_double_near(r2.speedup_ci_high, 1.0 / r.ratio_ci_low, 1e-15);
	/* one side large is enough; both small resample */
	assert_int_equal(compare_pair(x, n, y, 5, STATS_HIGHER_IS_BETTER, NULL, &r2, &err), 0);
	assert_int_equal(r2.boot, COMPARE_BOOT_EXACT);
	assert_int_equal(compare_pair(x, 39, y, 39, STATS_HIGHER_IS_BETTER, NULL, &r2, &err), 0);
	assert_int_equal(r2.boot, COMPARE_BOOT_RESAMPLE);
	assert_string_equal(compare_boot_method_name(r2.boot), "resample");
	gsl_rng_free(rng);
	free(ratios);
	strbuf_release(&err);
}

static void test_dist_errors(void **state)
{
	static const double bad[] = { 1.0, NAN };
	struct strbuf err = STRBUF_INIT;
	struct compare_median_dist d;

	(void)state;
	assert_int_equal(compare_median_dist(bad, 0, &d, &err), -AB_EDATA);
	assert_string_equal(err.buf, "cannot bootstrap an empty sample");
	assert_int_equal(compare_median_dist(bad, 2, &d, &err), -AB_EDATA);
	assert_string_equal(err.buf, "value 2 (nan) is not a finite number");
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dist_brute),
		cmocka_unit_test(test_ratio_quantile_brute),
		cmocka_unit_test(test_dist_large),
		cmocka_unit_test(test_pair_exact),
		cmocka_unit_test(test_dist_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
