/*
 * test_compare.c - Mann-Whitney U, Holm, bootstrap ratio of medians,
 * verdicts and the geometric-mean composite (model/compare.c) against
 * hand-computed answers.
 */
#include "unit.h"
#include <math.h>

#include "model/compare.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/*
 * Worked example with ties (normal approximation):
 *   A = 12 15 15 18 20 (n = 5), B = 10 12 14 15 16 17 (m = 6), N = 11.
 *   Sorted with ranks: 10(B)=1, 12(A) 12(B)=2.5, 14(B)=4, 15(A) 15(A)
 *   15(B)=6, 16(B)=8, 17(B)=9, 18(A)=10, 20(A)=11.
 *   R_A = 2.5 + 6 + 6 + 10 + 11 = 35.5; U_A = 35.5 - 5*6/2 = 20.5
 *   (pairs: 12 beats 10 and ties 12 -> 1.5; each 15 beats 3 and ties 1
 *   -> 3.5 x 2; 18 and 20 beat all 6 -> 1.5 + 7 + 12 = 20.5).  U_B = 9.5.
 *   Ties: blocks of 2 and 3, sum(t^3 - t) = 6 + 24 = 30.
 *   mu = 15; var = 30/12 * (12 - 30/110) = 29.3181818...
 *   z = (20.5 - 15 - 0.5) / sqrt(29.3181818) = 5 / 5.4146268 = 0.9234247
 *   p = 2 (1 - Phi(0.9234247)) = 0.3557859  (the formula of R's
 *   wilcox.test with correct = TRUE; Phi via erfc, checked in Python).
 */
static void test_mann_whitney_ties(void **state)
{
	static const double a[] = { 12, 15, 15, 18, 20 };
	static const double b[] = { 10, 12, 14, 15, 16, 17 };
	struct strbuf err = STRBUF_INIT;
	struct compare_mw mw;

	(void)state;
	assert_int_equal(compare_mann_whitney(a, 5, b, 6, &mw, &err), 0);
	assert_double_near(mw.u, 20.5, 0);
	assert_int_equal(mw.method, COMPARE_MW_NORMAL);
	assert_true(mw.has_ties);
	assert_double_near(mw.z, 0.9234247009337435, 1e-12);
	assert_double_near(mw.p, 0.3557859242354904, 1e-9);
	/* swapped: U_B = 9.5, z negative, same p */
	assert_int_equal(compare_mann_whitney(b, 6, a, 5, &mw, &err), 0);
	assert_double_near(mw.u, 9.5, 0);
	assert_double_near(mw.z, -0.9234247009337435, 1e-12);
	assert_double_near(mw.p, 0.3557859242354904, 1e-9);
	strbuf_release(&err);
}

/*
 * Exact null distribution of U for n = m = 5: the number of ways to get
 * U = u is the number of partitions of u into at most 5 parts of size at
 * most 5: 1 1 2 3 5 for u = 0..4, out of C(10,5) = 252.
 *   A = 1 2 3 4 9, B = 5 6 7 8 10: U_A = 4 (9 beats 5 6 7 8);
 *   P(U <= 4) = 12/252, p = 24/252 = 2/21 = 0.0952381.
 * n = m = 4, completely separated: p = 2/C(8,4) = 2/70 = 1/35.
 * n = 7, m = 4 (A = 3.1 1.2 5.9 4.4 7.0 2.5 8.3, B = 6.1 9.4 10.2 8.8):
 *   U_A = 2 (7.0 > 6.1, 8.3 > 6.1); counts 1 1 2 for u = 0..2 out of
 *   C(11,4) = 330: p = 2 * 4/330 = 4/165.
 * (All three checked by enumerating every subset.)
 */
static void test_mann_whitney_exact(void **state)
{
	static const double a1[] = { 1, 2, 3, 4, 9 }, b1[] = { 5, 6, 7, 8, 10 };
	static const double a2[] = { 1.1, 2.2, 3.3, 4.4 }, b2[] = { 5.5, 6.6, 7.7, 8.8 };
	static const double a3[] = { 3.1, 1.2, 5.9, 4.4, 7.0, 2.5, 8.3 };
	static const double b3[] = { 6.1, 9.4, 10.2, 8.8 };
	static const double one[] = { 1 }, two[] = { 2 };
	struct strbuf err = STRBUF_INIT;
	struct compare_mw mw;
	double big_a[50], big_b[50];
	size_t i;

	(void)state;
	assert_int_equal(compare_mann_whitney(a1, 5, b1, 5, &mw, &err), 0);
	assert_int_equal(mw.method, COMPARE_MW_EXACT);
	assert_false(mw.has_ties);
	assert_double_near(mw.u, 4, 0);
	assert_double_near(mw.p, 2.0 / 21.0, 1e-12);
	assert_true(isnan(mw.z));
	assert_int_equal(compare_mann_whitney(b1, 5, a1, 5, &mw, &err), 0);
	assert_double_near(mw.u, 21, 0);
	assert_double_near(mw.p, 2.0 / 21.0, 1e-12);

	assert_int_equal(compare_mann_whitney(a2, 4, b2, 4, &mw, &err), 0);
	assert_double_near(mw.u, 0, 0);
	assert_double_near(mw.p, 1.0 / 35.0, 1e-12);

	assert_int_equal(compare_mann_whitney(a3, 7, b3, 4, &mw, &err), 0);
	assert_double_near(mw.u, 2, 0);
	assert_double_near(mw.p, 4.0 / 165.0, 1e-12);
	assert_int_equal(compare_mann_whitney(b3, 4, a3, 7, &mw, &err), 0);
	assert_double_near(mw.u, 26, 0);
	assert_double_near(mw.p, 4.0 / 165.0, 1e-12);

	/* one run each: p = 1 whichever way */
	assert_int_equal(compare_mann_whitney(two, 1, one, 1, &mw, &err), 0);
	assert_double_near(mw.p, 1.0, 0);

	/* 49 vs 49 separated: p = 2 / C(98, 49), C(98,49) = 25477612258980856902730428600 */
	for (i = 0; i < 50; i++) {
		big_a[i] = (double)i;
		big_b[i] = 100.0 + (double)i;
	}
	assert_int_equal(compare_mann_whitney(big_a, 49, big_b, 49, &mw, &err), 0);
	assert_int_equal(mw.method, COMPARE_MW_EXACT);
	assert_double_near(mw.p, 2.0 / 25477612258980856902730428600.0, 1e-9);
	/* 50 vs 50 switches to the normal approximation:
	 * z = (0 - 1250 + 0.5) / sqrt(2500 * 101 / 12) */
	assert_int_equal(compare_mann_whitney(big_a, 50, big_b, 50, &mw, &err), 0);
	assert_int_equal(mw.method, COMPARE_MW_NORMAL);
	assert_double_near(mw.z, -1249.5 / sqrt(2500.0 * 101.0 / 12.0), 1e-12);

	assert_int_equal(compare_mann_whitney(a1, 0, b1, 5, &mw, &err), -AB_EDATA);
	strbuf_release(&err);
}

static void test_mann_whitney_all_tied(void **state)
{
	static const double a[] = { 1, 1 }, b[] = { 1, 1, 1 };
	struct compare_mw mw;

	(void)state;
	assert_int_equal(compare_mann_whitney(a, 2, b, 3, &mw, NULL), 0);
	assert_double_near(mw.u, 3, 0);
	assert_double_near(mw.p, 1.0, 0);
}

/*
 * Holm, p = (0.01, 0.04, 0.03, 0.005), m = 4:
 * sorted 0.005 0.01 0.03 0.04 -> x4 = 0.02, x3 = 0.03, x2 = 0.06, x1 = 0.04
 * -> running max 0.02 0.03 0.06 0.06 -> in input order 0.03 0.06 0.06 0.02.
 */
static void test_holm(void **state)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, adj[4];
	double q[] = { 0.01, NAN, 0.04 };
	double capped[] = { 0.6, 0.5 };

	(void)state;
	compare_holm(p, adj, 4);
	assert_double_near(adj[0], 0.03, 1e-15);
	assert_double_near(adj[1], 0.06, 1e-15);
	assert_double_near(adj[2], 0.06, 1e-15);
	assert_double_near(adj[3], 0.02, 1e-15);
	/* NAN is not in the family: m' = 2 -> 0.02, NAN, 0.04 (in place) */
	compare_holm(q, q, 3);
	assert_double_near(q[0], 0.02, 1e-15);
	assert_true(isnan(q[1]));
	assert_double_near(q[2], 0.04, 1e-15);
	/* 0.5 x 2 = 1 caps; 0.6 x 1 = 0.6 < running max 1 */
	compare_holm(capped, capped, 2);
	assert_double_near(capped[0], 1.0, 0);
	assert_double_near(capped[1], 1.0, 0);
	compare_holm(NULL, NULL, 0);
}

/*
 * System 200..205 vs baseline 100..105: medians 202.5 and 102.5, ratio
 * 1.97560975...  Every resampled median lies in [200, 205] / [100, 105],
 * so the CI lies in [200/105, 205/100].  Separated samples of 6: exact
 * p = 2 / C(12,6) = 2/924.
 */
static void test_pair(void **state)
{
	static const double x[] = { 203, 200, 205, 201, 204, 202 };
	static const double base[] = { 100, 105, 101, 104, 102, 103 };
	struct strbuf err = STRBUF_INIT;
	struct compare_result r, r2;
	struct compare_opts o;

	(void)state;
	assert_int_equal(compare_pair(x, 6, base, 6, STATS_HIGHER_IS_BETTER, NULL, &r, &err), 0);
	assert_double_near(r.median, 202.5, 0);
	assert_double_near(r.median_baseline, 102.5, 0);
	assert_double_near(r.ratio, 202.5 / 102.5, 1e-15);
	assert_true(r.ratio_ci_low >= 200.0 / 105.0 && r.ratio_ci_low < r.ratio);
	assert_true(r.ratio_ci_high <= 205.0 / 100.0 && r.ratio_ci_high > r.ratio);
	assert_int_equal(r.seed, COMPARE_DEFAULT_SEED);
	assert_int_equal(r.resamples, 10000);
	assert_int_equal(r.mw.method, COMPARE_MW_EXACT);
	assert_double_near(r.p_value, 2.0 / 924.0, 1e-12);
	assert_double_near(r.p_adjusted, r.p_value, 0);
	assert_int_equal(r.verdict, COMPARE_FASTER);
	assert_string_equal(compare_verdict_name(r.verdict), "faster");
	assert_double_near(r.speedup, r.ratio, 0);

	/* the same numbers as times (lower is better): slower, speedup 1/ratio */
	assert_int_equal(compare_pair(x, 6, base, 6, STATS_LOWER_IS_BETTER, NULL, &r2, &err), 0);
	assert_int_equal(r2.verdict, COMPARE_SLOWER);
	assert_double_near(r2.ratio_ci_low, r.ratio_ci_low, 0); /* same seed, same CI */
	assert_double_near(r2.ratio_ci_high, r.ratio_ci_high, 0);
	assert_double_near(r2.speedup, 102.5 / 202.5, 1e-15);
	assert_double_near(r2.speedup_ci_low, 1.0 / r.ratio_ci_high, 1e-15);
	assert_double_near(r2.speedup_ci_high, 1.0 / r.ratio_ci_low, 1e-15);

	/* another seed: reported, and still a valid interval (with 6 values
	 * the resampled medians are few and discrete, so it may coincide) */
	compare_opts_init(&o);
	o.seed = 1;
	assert_int_equal(compare_pair(x, 6, base, 6, STATS_HIGHER_IS_BETTER, &o, &r2, &err), 0);
	assert_int_equal(r2.seed, 1);
	assert_true(r2.ratio_ci_low >= 200.0 / 105.0 && r2.ratio_ci_high <= 205.0 / 100.0);

	o.resamples = 999;
	assert_int_equal(compare_pair(x, 6, base, 6, STATS_HIGHER_IS_BETTER, &o, &r2, &err),
			 -AB_EDATA);
	assert_string_equal(err.buf, "too few bootstrap resamples 999 (need at least 1000)");
	strbuf_release(&err);
}

/* The seed fixes the interval: the same seed twice gives identical bounds,
 * another seed other bounds (30 distinct values, so the resampled ratios
 * are nearly continuous). */
static void test_pair_seed(void **state)
{
	double x[30], base[30];
	struct compare_result r1, r2, r3;
	struct compare_opts o;
	size_t i;

	(void)state;
	for (i = 0; i < 30; i++) {
		x[i] = 110.0 + (double)((i * 7) % 30) * 0.37 + (double)i * 0.001;
		base[i] = 100.0 + (double)((i * 11) % 30) * 0.41 + (double)i * 0.002;
	}
	compare_opts_init(&o);
	assert_int_equal(compare_pair(x, 30, base, 30, STATS_HIGHER_IS_BETTER, &o, &r1, NULL), 0);
	assert_int_equal(compare_pair(x, 30, base, 30, STATS_HIGHER_IS_BETTER, &o, &r2, NULL), 0);
	assert_true(r1.ratio_ci_low == r2.ratio_ci_low && r1.ratio_ci_high == r2.ratio_ci_high);
	o.seed = 1;
	assert_int_equal(compare_pair(x, 30, base, 30, STATS_HIGHER_IS_BETTER, &o, &r3, NULL), 0);
	assert_true(r3.ratio_ci_low != r1.ratio_ci_low || r3.ratio_ci_high != r1.ratio_ci_high);
	assert_true(r1.ratio_ci_low < r1.ratio && r1.ratio < r1.ratio_ci_high);
	/* 30 vs 30 without ties stays exact; x is clearly higher */
	assert_int_equal(r1.mw.method, COMPARE_MW_EXACT);
	assert_int_equal(r1.verdict, COMPARE_FASTER);
}

/* Kept draws give the very CIs of fresh ones, whatever the order of the
 * sizes, seeds and samples the pairs come in (a set reused for another
 * sample of the same size, and sets evicted when more sizes come). */
static void test_pair_draws(void **state)
{
	struct compare_draws *d = compare_draws_new();
	double x[39], base[39];
	struct compare_opts o;
	size_t i, k;

	(void)state;
	for (i = 0; i < 39; i++) {
		x[i] = 90.0 + (double)((i * 13) % 39) * 0.53;
		base[i] = 100.0 + (double)((i * 17) % 39) * 0.29 + (double)(i % 3);
	}
	compare_opts_init(&o);
	o.resamples = 2000;
	for (k = 0; k < 60; k++) {
		size_t n = 1 + (k * 7) % 39, nb = 1 + (k * 5) % 20;
		struct compare_result a, b;

		o.seed = k % 3 == 2 ? 7UL : COMPARE_DEFAULT_SEED;
		assert_int_equal(compare_pair(x, n, base + (k % 2), nb - (k % 2 && nb > 1),
					      STATS_HIGHER_IS_BETTER, &o, &a, NULL), 0);
		assert_int_equal(compare_pair_draws(x, n, base + (k % 2), nb - (k % 2 && nb > 1),
						    STATS_HIGHER_IS_BETTER, &o, d, &b, NULL), 0);
		assert_int_equal(a.boot, COMPARE_BOOT_RESAMPLE);
		assert_memory_equal(&a.ratio_ci_low, &b.ratio_ci_low, sizeof(double));
		assert_memory_equal(&a.ratio_ci_high, &b.ratio_ci_high, sizeof(double));
		assert_int_equal(a.verdict, b.verdict);
	}
	compare_draws_free(d);
}

/* compare_pairs on two threads gives each task what compare_pair gives
 * it, and on failure the message of the first failing task in order. */
static void test_pairs_threads(void **state)
{
	static const double bad[] = { 1.0, -2.0 };
	struct compare_task t[9];
	double x[20], base[12];
	struct strbuf err = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < 20; i++)
		x[i] = 50.0 + (double)((i * 7) % 20) * 0.8;
	for (i = 0; i < 12; i++)
		base[i] = 48.0 + (double)((i * 5) % 12) * 0.9;
	memset(t, 0, sizeof(t));
	for (i = 0; i < 9; i++) {
		t[i].s.x = x + i;
		t[i].s.n = 20 - i;
		t[i].s.base = base;
		t[i].s.nbase = 12 - i % 3;
		t[i].s.better = i % 2 ? STATS_LOWER_IS_BETTER : STATS_HIGHER_IS_BETTER;
	}
	assert_int_equal(compare_pairs(t, 9, NULL, &err), 0);
	for (i = 0; i < 9; i++) {
		struct compare_result r;

		assert_int_equal(compare_pair(t[i].s.x, t[i].s.n, t[i].s.base, t[i].s.nbase,
					      t[i].s.better, NULL, &r, NULL), 0);
		assert_memory_equal(&r.ratio_ci_low, &t[i].res.ratio_ci_low, sizeof(double));
		assert_memory_equal(&r.ratio_ci_high, &t[i].res.ratio_ci_high, sizeof(double));
		assert_true(r.p_value == t[i].res.p_value);
	}
	/* tasks 3 (second thread's first) and 6 fail: 3's message */
	t[3].s.base = bad;
	t[3].s.nbase = 2;
	t[6].s.x = bad;
	t[6].s.n = 2;
	assert_int_equal(compare_pairs(t, 9, NULL, &err), -AB_EDATA);
	assert_non_null(strstr(err.buf, "baseline sample"));
	t[3].s.base = base;
	t[3].s.nbase = 12;
	assert_int_equal(compare_pairs(t, 9, NULL, &err), -AB_EDATA);
	assert_non_null(strstr(err.buf, "system sample"));
	strbuf_release(&err);
}

static void test_pair_edges(void **state)
{
	static const double same[] = { 1, 2, 3, 4, 5, 6 };
	static const double c2[] = { 4, 4, 4 }, c1[] = { 2, 2, 2 };
	static const double two[] = { 2 }, one[] = { 1 };
	static const double zero[] = { 1, 0 };
	struct strbuf err = STRBUF_INIT;
	struct compare_result r;

	(void)state;
	/* identical samples: ratio 1, CI around 1, p = 1 */
	assert_int_equal(compare_pair(same, 6, same, 6, STATS_HIGHER_IS_BETTER, NULL, &r, &err), 0);
	assert_double_near(r.ratio, 1.0, 0);
	assert_true(r.ratio_ci_low < 1.0 && r.ratio_ci_high > 1.0);
	assert_double_near(r.p_value, 1.0, 0);
	assert_int_equal(r.verdict, COMPARE_INDISTINGUISHABLE);
	/* constant samples: a zero-width CI at exactly 2 */
	assert_int_equal(compare_pair(c2, 3, c1, 3, STATS_HIGHER_IS_BETTER, NULL, &r, &err), 0);
	assert_double_near(r.ratio_ci_low, 2.0, 0);
	assert_double_near(r.ratio_ci_high, 2.0, 0);
	/* one run each: CI [2, 2] excludes 1, but p = 1 -> indistinguishable */
	assert_int_equal(compare_pair(two, 1, one, 1, STATS_HIGHER_IS_BETTER, NULL, &r, &err), 0);
	assert_double_near(r.ratio_ci_low, 2.0, 0);
	assert_int_equal(r.verdict, COMPARE_INDISTINGUISHABLE);
	assert_string_equal(compare_verdict_name(r.verdict), "indistinguishable");

	assert_int_equal(compare_pair(same, 6, zero, 2, STATS_HIGHER_IS_BETTER, NULL, &r, &err),
			 -AB_EDATA);
	assert_string_equal(err.buf, "value 2 of the baseline sample (0) is not a positive number");
	assert_int_equal(compare_pair(same, 0, one, 1, STATS_HIGHER_IS_BETTER, NULL, &r, &err),
			 -AB_EDATA);
	assert_string_equal(err.buf, "system sample is empty");

	assert_int_equal(compare_verdict_of(0.5, 0.9, 0.01, 0.05, STATS_HIGHER_IS_BETTER),
			 COMPARE_SLOWER);
	assert_int_equal(compare_verdict_of(0.5, 0.9, 0.01, 0.05, STATS_LOWER_IS_BETTER),
			 COMPARE_FASTER);
	assert_int_equal(compare_verdict_of(0.5, 1.1, 0.01, 0.05, STATS_LOWER_IS_BETTER),
			 COMPARE_INDISTINGUISHABLE);
	assert_int_equal(compare_verdict_of(1.1, 1.2, 0.06, 0.05, STATS_HIGHER_IS_BETTER),
			 COMPARE_INDISTINGUISHABLE);
	assert_int_equal(compare_verdict_of(1.1, 1.2, NAN, 0.05, STATS_HIGHER_IS_BETTER),
			 COMPARE_INDISTINGUISHABLE);
	strbuf_release(&err);
}

/*
 * Three comparisons in one report: p = 2/924 (6 vs 6 separated),
 * 2/70 (4 vs 4 separated), 1 (identical).  Holm: 3 x 2/924 = 0.0064935,
 * 2 x 2/70 = 0.0571429, 1.  The second was "faster" alone (0.0286 < .05)
 * and becomes "indistinguishable" in the family.
 */
static void test_adjust(void **state)
{
	static const double x6[] = { 200, 201, 202, 203, 204, 205 };
	static const double b6[] = { 100, 101, 102, 103, 104, 105 };
	static const double x4[] = { 10, 11, 12, 13 }, b4[] = { 1, 2, 3, 4 };
	struct compare_result r[3];

	(void)state;
	assert_int_equal(compare_pair(x6, 6, b6, 6, STATS_HIGHER_IS_BETTER, NULL, &r[0], NULL), 0);
	assert_int_equal(compare_pair(x4, 4, b4, 4, STATS_HIGHER_IS_BETTER, NULL, &r[1], NULL), 0);
	assert_int_equal(compare_pair(b6, 6, b6, 6, STATS_HIGHER_IS_BETTER, NULL, &r[2], NULL), 0);
	assert_double_near(r[1].p_value, 2.0 / 70.0, 1e-12);
	assert_int_equal(r[1].verdict, COMPARE_FASTER);
	compare_adjust(r, 3);
	assert_double_near(r[0].p_adjusted, 6.0 / 924.0, 1e-12);
	assert_double_near(r[1].p_adjusted, 4.0 / 70.0, 1e-12);
	assert_double_near(r[2].p_adjusted, 1.0, 0);
	assert_int_equal(r[0].verdict, COMPARE_FASTER);
	assert_int_equal(r[1].verdict, COMPARE_INDISTINGUISHABLE);
	assert_int_equal(r[2].verdict, COMPARE_INDISTINGUISHABLE);
}

/*
 * Geometric means by hand.
 *  (2, 8): gm = sqrt(16) = 4; logs ln2, 3 ln2: mean ln4, sd = 2 ln2 / sqrt2;
 *    t(1, .975) = tan(.475 pi) = 12.7062047 (Cauchy); half-width =
 *    t sd / sqrt2 = t ln2 -> CI = 4 exp(-+ 12.7062047 ln2).
 *  (1.2, 0.9, 1.5): gm = 1.62^(1/3) = 1.17446...; t(2, .975) =
 *    (2p-1) sqrt(2 / (4p(1-p))) = 0.95 sqrt(2 / 0.0975) = 4.30265273.
 */
static void test_geomean(void **state)
{
	static const double s2[] = { 2, 8 }, s3[] = { 1.2, 0.9, 1.5 };
	static const double one[] = { 1.7 }, neg[] = { 1, -1 };
	struct strbuf err = STRBUF_INIT;
	struct compare_geomean g;
	double t1 = tan(0.475 * M_PI), t2 = 0.95 * sqrt(2.0 / 0.0975);
	double l1 = log(1.2), l2 = log(0.9), l3 = log(1.5), m = (l1 + l2 + l3) / 3.0, sd;

	(void)state;
	assert_int_equal(compare_geomean(s2, 2, 0.95, &g, &err), 0);
	assert_double_near(g.gm, 4.0, 1e-14);
	assert_double_near(g.sd_log, 2.0 * log(2.0) / sqrt(2.0), 1e-12);
	assert_double_near(g.t_ci_low, 4.0 * exp(-t1 * log(2.0)), 1e-9);
	assert_double_near(g.t_ci_high, 4.0 * exp(t1 * log(2.0)), 1e-9);
	assert_true(isnan(g.boot_ci_low));

	sd = sqrt(((l1 - m) * (l1 - m) + (l2 - m) * (l2 - m) + (l3 - m) * (l3 - m)) / 2.0);
	assert_int_equal(compare_geomean(s3, 3, 0.95, &g, &err), 0);
	assert_double_near(g.gm, cbrt(1.62), 1e-14);
	assert_double_near(g.t_ci_low, exp(m - t2 * sd / sqrt(3.0)), 1e-9);
	assert_double_near(g.t_ci_high, exp(m + t2 * sd / sqrt(3.0)), 1e-9);

	assert_int_equal(compare_geomean(one, 1, 0.95, &g, &err), 0);
	assert_double_near(g.gm, 1.7, 1e-15);
	assert_true(isnan(g.t_ci_low) && isnan(g.sd_log));

	assert_int_equal(compare_geomean(neg, 2, 0.95, &g, &err), -AB_EDATA);
	assert_string_equal(err.buf, "speedup 2 (-1) is not a positive number");
	assert_int_equal(compare_geomean(s2, 0, 0.95, &g, &err), -AB_EDATA);
	strbuf_release(&err);
}

/*
 * Bootstrap composite on constant runs: benchmark 1 (throughput) 4 vs 2 ->
 * speedup 2; benchmark 2 (time, lower is better) 1 vs 8 -> speedup 8.
 * gm = 4 and the run-noise CI is exactly [4, 4]; the between-benchmark
 * t interval is the (2, 8) one above.
 */
static void test_geomean_boot(void **state)
{
	static const double x1[] = { 4, 4, 4 }, b1[] = { 2, 2, 2 };
	static const double x2[] = { 1, 1 }, b2[] = { 8, 8 };
	static const double x3[] = { 10, 11, 12, 13, 14 }, b3[] = { 9, 10, 11, 12, 13 };
	struct compare_sample s[2] = {
		{ x1, 3, b1, 3, STATS_HIGHER_IS_BETTER },
		{ x2, 2, b2, 2, STATS_LOWER_IS_BETTER },
	};
	struct compare_sample noisy[2] = {
		{ x1, 3, b1, 3, STATS_HIGHER_IS_BETTER },
		{ x3, 5, b3, 5, STATS_HIGHER_IS_BETTER },
	};
	struct compare_sample empty[1] = { { x1, 3, b1, 0, STATS_HIGHER_IS_BETTER } };
	struct strbuf err = STRBUF_INIT;
	struct compare_geomean g;
	double t1 = tan(0.475 * M_PI);

	(void)state;
	assert_int_equal(compare_geomean_boot(s, 2, NULL, &g, &err), 0);
	assert_double_near(g.gm, 4.0, 1e-14);
	assert_double_near(g.boot_ci_low, 4.0, 1e-14);
	assert_double_near(g.boot_ci_high, 4.0, 1e-14);
	assert_double_near(g.t_ci_high, 4.0 * exp(t1 * log(2.0)), 1e-9);
	assert_int_equal(g.seed, COMPARE_DEFAULT_SEED);
	assert_int_equal(g.resamples, COMPARE_DEFAULT_RESAMPLES);

	/* gm = sqrt(2 * 12/11); the CI must hold it and stay within the
	 * extreme resamples sqrt(2 * 10/13) .. sqrt(2 * 14/9) */
	assert_int_equal(compare_geomean_boot(noisy, 2, NULL, &g, &err), 0);
	assert_double_near(g.gm, sqrt(2.0 * 12.0 / 11.0), 1e-14);
	assert_true(g.boot_ci_low < g.gm && g.boot_ci_high > g.gm);
	assert_true(g.boot_ci_low >= sqrt(2.0 * 10.0 / 13.0));
	assert_true(g.boot_ci_high <= sqrt(2.0 * 14.0 / 9.0));

	assert_int_equal(compare_geomean_boot(empty, 1, NULL, &g, &err), -AB_EDATA);
	assert_string_equal(err.buf, "benchmark 1: baseline sample is empty");
	strbuf_release(&err);
}

/*
 * The resampling bootstrap (n < COMPARE_EXACT_MIN_N) counts draws per rank
 * and selects only the quantiles' order statistics; it must give the same
 * bits as the plain method: draw values with the seeded MT19937, take
 * gsl_stats_median, sort all ratios, read gsl_stats_quantile.  Odd and
 * even n, ties, levels, and the composite.
 */
static double naive_median(gsl_rng *rng, const double *v, size_t n, double *buf)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = v[gsl_rng_uniform_int(rng, n)];
	return gsl_stats_median(buf, 1, n);
}

static void naive_pair(const double *x, size_t n, const double *b, size_t nb,
		       const struct compare_opts *o, double *lo, double *hi)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double *r = malloc(o->resamples * sizeof(*r)), buf[64];
	size_t i;

	gsl_rng_set(rng, o->seed);
	for (i = 0; i < o->resamples; i++) {
		double a = naive_median(rng, x, n, buf);
		r[i] = a / naive_median(rng, b, nb, buf);
	}
	gsl_sort(r, 1, o->resamples);
	*lo = gsl_stats_quantile_from_sorted_data(r, 1, o->resamples, (1.0 - o->level) / 2.0);
	*hi = gsl_stats_quantile_from_sorted_data(r, 1, o->resamples, (1.0 + o->level) / 2.0);
	free(r);
	gsl_rng_free(rng);
}

static void test_pair_resample_exact_bits(void **state)
{
	static const double levels[] = { 0.95, 0.9, 0.5, 0.999, 0.0001 };
	struct strbuf err = STRBUF_INIT;
	struct compare_opts o;
	double x[39], b[39], lo, hi;
	unsigned long s = 12345;
	size_t n, nb, li, i;

	(void)state;
	for (n = 1; n < 39; n += 3)
		for (nb = 2; nb < 39; nb += 5)
			for (li = 0; li < AB_ARRAY_SIZE(levels); li++) {
				struct compare_result res;

				for (i = 0; i < n; i++) {
					s = s * 6364136223846793005UL + 1442695040888963407UL;
					/* a few distinct values: ties */
					x[i] = 100.0 + (double)((s >> 33) % (li + 3));
				}
				for (i = 0; i < nb; i++) {
					s = s * 6364136223846793005UL + 1442695040888963407UL;
					b[i] = 50.0 + (double)((s >> 29) % 1000) / 7.0;
				}
				compare_opts_init(&o);
				o.level = levels[li];
				o.resamples = 1000 + 37 * li;
				o.seed = 1 + n * 100 + nb;
				assert_int_equal(compare_pair(x, n, b, nb, STATS_HIGHER_IS_BETTER,
							      &o, &res, &err), 0);
				assert_int_equal(res.boot, COMPARE_BOOT_RESAMPLE);
				naive_pair(x, n, b, nb, &o, &lo, &hi);
				assert_true(res.ratio_ci_low == lo);
				assert_true(res.ratio_ci_high == hi);
			}
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mann_whitney_ties),
		cmocka_unit_test(test_mann_whitney_exact),
		cmocka_unit_test(test_mann_whitney_all_tied),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_pair_seed),
		cmocka_unit_test(test_pair_edges),
		cmocka_unit_test(test_adjust),
		cmocka_unit_test(test_geomean),
		cmocka_unit_test(test_geomean_boot),
		cmocka_unit_test(test_pair_resample_exact_bits),
		cmocka_unit_test(test_pair_draws),
		cmocka_unit_test(test_pairs_threads),
	};
	return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}
