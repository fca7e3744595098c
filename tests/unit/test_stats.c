/*
 * test_stats.c - descriptive statistics (model/stats.c) against known
 * answers: binomial median-CI ranks, a hand-summarised sample, the outlier
 * rules and the MLPerf olympic mean.
 */
#include "unit.h"
#include <math.h>

#include "model/stats.h"

/*
 * Binomial tables, Bin(n, 1/2): coverage of (x(l), x(n+1-l)) is
 * 1 - 2 P(B <= l-1) = 1 - 2 sum_{k<l} C(n,k) / 2^n.
 *   n=6:   l=1: 1 - 2/64            = 0.96875      (l=2: 0.78125 < .95)
 *   n=10:  l=2: 1 - 2*11/1024       = 0.978515625  (l=3: 0.890625)
 *   n=20:  l=6: 1 - 2*21700/2^20    = 0.958610535  (l=7: 0.884…)
 *   n=100: l=40: 0.964799800        (l=41: 0.943…)
 *   n=5:   l=1: 1 - 2/32            = 0.9375 < .95 -> none ("n too small")
 * (checked independently with exact integer arithmetic.)
 */
static void test_median_ci_ranks(void **state)
{
	static const struct {
		size_t n, lo, hi;
		double cov;
	} want[] = {
		{ 6, 1, 6, 0.96875 },
		{ 10, 2, 9, 0.978515625 },
		{ 20, 6, 15, 0.9586105346679688 },
		{ 100, 40, 61, 0.9647997997822951 },
	};
	size_t i, lo, hi;
	double cov;

	(void)state;
	for (i = 0; i < AB_ARRAY_SIZE(want); i++) {
		assert_int_equal(stats_median_ci_ranks(want[i].n, 0.95, &lo, &hi, &cov), 0);
		assert_int_equal(lo, want[i].lo);
		assert_int_equal(hi, want[i].hi);
		assert_double_near(cov, want[i].cov, 1e-12);
	}
	assert_int_equal(stats_median_ci_ranks(5, 0.95, &lo, &hi, &cov), -1);
	assert_int_equal(stats_median_ci_ranks(1, 0.95, &lo, &hi, &cov), -1);
	assert_int_equal(stats_median_ci_ranks(0, 0.95, &lo, &hi, &cov), -1);
	assert_int_equal(stats_median_ci_ranks(10, 1.5, &lo, &hi, &cov), -1);
	/* n=8 at 95 %: l=1 gives 0.9921875, l=2 gives 1 - 18/256 = 0.9296875 */
	assert_int_equal(stats_median_ci_ranks(8, 0.95, &lo, &hi, &cov), 0);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 8);
	/* at 90 %, n=8 takes l=2 */
	assert_int_equal(stats_median_ci_ranks(8, 0.90, &lo, &hi, &cov), 0);
	assert_int_equal(lo, 2);
	assert_double_near(cov, 0.9296875, 1e-12);
	/* large n stays consistent with the walk: rank pair symmetric */
	assert_int_equal(stats_median_ci_ranks(10000, 0.95, &lo, &hi, &cov), 0);
	assert_int_equal(lo + hi, 10001);
	assert_true(cov >= 0.95 && cov < 0.96);
}

/*
 * x = 10 12 11 13 50 12 11 12, sorted 10 11 11 12 12 12 13 50.
 * median 12; mean 131/8 = 16.375; sd 13.6165602957 (n-1); cv 0.8315456669.
 * q1: h = 7*0.25 = 1.75 -> 11 + .75*(11-11) = 11;
 * q3: h = 5.25 -> 12 + .25*(13-12) = 12.25; IQR 1.25; fences 9.125, 14.125.
 * |x - 12| = 2 0 1 1 38 0 1 0 -> MAD 1.  Modified z of 50: .6745*38 = 25.6.
 * n = 8 -> ranks (1, 8): CI [10, 50], coverage 0.9921875.
 */
static void test_summary(void **state)
{
	static const double x[] = { 10, 12, 11, 13, 50, 12, 11, 12 };
	struct strbuf err = STRBUF_INIT;
	struct stats_summary s;
	unsigned flags[8];
	size_t i;

	(void)state;
	assert_int_equal(stats_summarize(x, 8, 2, &s, flags, &err), 0);
	assert_int_equal(s.n, 8);
	assert_int_equal(s.n_failed, 2);
	assert_double_near(s.median, 12.0, 1e-15);
	assert_double_near(s.mean, 16.375, 1e-15);
	assert_double_near(s.sd, 13.616560295673585, 1e-12);
	assert_double_near(s.cv, 0.831545666911364, 1e-12);
	assert_double_near(s.min, 10.0, 0);
	assert_double_near(s.max, 50.0, 0);
	assert_double_near(s.q1, 11.0, 1e-15);
	assert_double_near(s.q3, 12.25, 1e-15);
	assert_double_near(s.iqr, 1.25, 1e-15);
	assert_double_near(s.mad, 1.0, 1e-15);
	assert_true(s.has_ci);
	assert_int_equal(s.ci_rank_low, 1);
	assert_int_equal(s.ci_rank_high, 8);
	assert_double_near(s.ci_low, 10.0, 0);
	assert_double_near(s.ci_high, 50.0, 0);
	assert_double_near(s.ci_coverage, 0.9921875, 1e-12);
	for (i = 0; i < 8; i++)
		assert_int_equal(flags[i], i == 4 ? STATS_OUTLIER_TUKEY | STATS_OUTLIER_MODZ : 0);
	assert_int_equal(s.n_outliers, 1);
	assert_int_equal(s.n_outliers_tukey, 1);
	assert_int_equal(s.n_outliers_modz, 1);

	/* five runs: no CI ("n too small"), but everything else */
	assert_int_equal(stats_summarize(x, 5, 0, &s, NULL, &err), 0);
	assert_false(s.has_ci);
	assert_true(isnan(s.ci_low) && isnan(s.ci_high));
	assert_int_equal(s.ci_rank_low, 0);
	assert_double_near(s.median, 12.0, 0);
	strbuf_release(&err);
}

static void test_summary_edges(void **state)
{
	static const double one[] = { 7.5 };
	/* MAD = 0: modified z falls back to 1.253314 * mean abs dev = 4/7:
	 * (9 - 5) / (1.253314 * 4/7) = 5.585 > 3.5; Tukey fences are 5, 5. */
	static const double flat[] = { 5, 5, 5, 9, 5, 5, 5 };
	static const double same[] = { 3, 3, 3, 3, 3, 3 };
	static const double even[] = { 4, 1, 3, 2 };
	double bad[] = { 1, 2, NAN };
	struct strbuf err = STRBUF_INIT;
	struct stats_summary s;
	unsigned flags[7];
	size_t i;

	(void)state;
	assert_int_equal(stats_summarize(NULL, 0, 3, &s, NULL, &err), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.n_failed, 3);
	assert_true(isnan(s.median) && isnan(s.mean) && isnan(s.sd) && isnan(s.mad));
	assert_false(s.has_ci);

	assert_int_equal(stats_summarize(one, 1, 0, &s, NULL, &err), 0);
	assert_double_near(s.median, 7.5, 0);
	assert_double_near(s.mean, 7.5, 0);
	assert_true(isnan(s.sd) && isnan(s.cv));
	assert_double_near(s.iqr, 0.0, 0);

	assert_int_equal(stats_summarize(flat, 7, 0, &s, flags, &err), 0);
	assert_double_near(s.mad, 0.0, 0);
	for (i = 0; i < 7; i++)
		assert_int_equal(flags[i], i == 3 ? STATS_OUTLIER_TUKEY | STATS_OUTLIER_MODZ : 0);

	assert_int_equal(stats_summarize(same, 6, 0, &s, flags, &err), 0);
	assert_int_equal(s.n_outliers, 0);
	assert_true(s.has_ci);
	assert_double_near(s.ci_low, 3.0, 0);
	assert_double_near(s.sd, 0.0, 0);
	assert_double_near(s.cv, 0.0, 0);

	assert_int_equal(stats_summarize(bad, 3, 0, &s, NULL, &err), -AB_EDATA);
	assert_string_equal(err.buf, "value 3 of the sample is not a finite number");
	assert_true(isnan(s.median));

	assert_double_near(stats_median(flat, 7), 5.0, 0);
	assert_double_near(stats_median(even, 4), 2.5, 0);
	assert_true(isnan(stats_median(NULL, 0)));
	strbuf_release(&err);
}

static void test_better(void **state)
{
	struct strbuf err = STRBUF_INIT;
	enum stats_better b;

	(void)state;
	assert_int_equal(stats_better_parse("lower", &b, &err), 0);
	assert_int_equal(b, STATS_LOWER_IS_BETTER);
	assert_int_equal(stats_better_parse("higher", &b, &err), 0);
	assert_int_equal(b, STATS_HIGHER_IS_BETTER);
	assert_int_equal(stats_better_parse("up", &b, &err), -AB_EDATA);
	assert_string_equal(err.buf, "unknown direction \"up\" (want \"higher\" or \"lower\")");
	assert_string_equal(stats_better_name(STATS_LOWER_IS_BETTER), "lower");
	strbuf_release(&err);
}

/*
 * Olympic mean (mlcommons result_summarizer, formats/mlperf.md section 4):
 * 10 runs, none failed: sorted[1:9], the middle eight.
 */
static void test_olympic(void **state)
{
	static const double ten[] = { 14, 19, 11, 10, 16, 12, 18, 13, 17, 15 };
	static const double nine[] = { 14, 11, 10, 16, 12, 18, 13, 17, 15 };
	static const double three[] = { 30, 20, 25 };
	static const double tied[] = { 5, 5, 5 };
	double bad[] = { 1, INFINITY };
	struct strbuf err = STRBUF_INIT;
	struct stats_olympic o;
	unsigned char kept[10];
	size_t i;

	(void)state;
	/* (11 + ... + 18) / 8 = 116 / 8 = 14.5; 10 and 19 dropped */
	assert_int_equal(stats_olympic_mean(ten, 10, 0, 1, 1.0, &o, kept, &err), 0);
	assert_int_equal(o.status, STATS_OLYMPIC_OK);
	assert_int_equal(o.n_kept, 8);
	assert_double_near(o.score, 14.5, 1e-15);
	for (i = 0; i < 10; i++)
		assert_int_equal(kept[i], ten[i] != 10 && ten[i] != 19);

	/* one non-converging run counts as the slowest: only the fastest
	 * valid run (10) is dropped, 18 is kept: 116 / 8 again */
	assert_int_equal(stats_olympic_mean(nine, 9, 1, 1, 1.0, &o, kept, &err), 0);
	assert_int_equal(o.status, STATS_OLYMPIC_OK);
	assert_int_equal(o.n_kept, 8);
	assert_double_near(o.score, 14.5, 1e-15);
	assert_int_equal(kept[5], 1); /* 18 */
	assert_int_equal(kept[2], 0); /* 10 */

	/* scaling.json factor multiplies */
	assert_int_equal(stats_olympic_mean(ten, 10, 0, 1, 1.0033670033670032, &o, NULL, &err), 0);
	assert_double_near(o.score, 14.5 * 1.0033670033670032, 1e-15);

	/* two failures with k = 1: no score */
	assert_int_equal(stats_olympic_mean(ten, 8, 2, 1, 1.0, &o, kept, &err), 0);
	assert_int_equal(o.status, STATS_OLYMPIC_TOO_MANY_FAILED);
	assert_true(isnan(o.score));
	assert_string_equal(stats_olympic_status_name(o.status), "too many non-converging runs");

	/* gpt3 (3 runs): the median run alone; with one failed: the slower
	 * of the two valid ones */
	assert_int_equal(stats_olympic_mean(three, 3, 0, 1, 1.0, &o, kept, &err), 0);
	assert_double_near(o.score, 25.0, 0);
	assert_int_equal(kept[0] + kept[1] * 2 + kept[2] * 4, 4);
	assert_int_equal(stats_olympic_mean(three, 2, 1, 1, 1.0, &o, kept, &err), 0);
	assert_double_near(o.score, 30.0, 0);

	/* ties: stable order keeps the second of three equal runs */
	assert_int_equal(stats_olympic_mean(tied, 3, 0, 1, 1.0, &o, kept, &err), 0);
	assert_int_equal(kept[0] + kept[1] * 2 + kept[2] * 4, 2);

	/* unet3d drops 4 each side: 8 valid runs leave nothing */
	assert_int_equal(stats_mlperf_max_dropped("unet3d"), 4);
	assert_int_equal(stats_mlperf_max_dropped("bert"), 1);
	assert_int_equal(stats_olympic_mean(ten, 8, 0, 4, 1.0, &o, NULL, &err), 0);
	assert_int_equal(o.status, STATS_OLYMPIC_NO_RUNS);
	/* one valid run, k = 1: s[1:0] is empty */
	assert_int_equal(stats_olympic_mean(ten, 1, 0, 1, 1.0, &o, NULL, &err), 0);
	assert_int_equal(o.status, STATS_OLYMPIC_NO_RUNS);

	assert_int_equal(stats_olympic_mean(bad, 2, 0, 1, 1.0, &o, NULL, &err), -AB_EDATA);
	assert_string_equal(err.buf, "run time 2 is not a finite number");
	assert_int_equal(stats_olympic_mean(ten, 10, 0, 1, 0.0, &o, NULL, &err), -AB_EDATA);
	strbuf_release(&err);
}

/* The CI at another level: the same order statistics as the summary's at
 * 95 %; at 90 % for n = 10, rank 3 covers 1 - 2 P(Bin(10, 1/2) <= 2) =
 * 1 - 112/1024 = 0.891 < 0.9 and rank 2 covers 1 - 22/1024 = 0.979, so
 * [x(2), x(9)]; too small an n has none. */
static void test_median_ci_at(void **state)
{
	static const double x[] = { 9, 1, 8, 2, 7, 3, 6, 4, 5, 10 };
	struct stats_summary s;
	double lo, hi, cov;

	(void)state;
	assert_int_equal(stats_summarize(x, 10, 0, &s, NULL, NULL), 0);
	assert_int_equal(stats_median_ci_at(x, 10, STATS_LEVEL, &lo, &hi, &cov), 0);
	assert_true(lo == s.ci_low && hi == s.ci_high && cov == s.ci_coverage);
	assert_int_equal(stats_median_ci_at(x, 10, 0.9, &lo, &hi, &cov), 0);
	assert_true(lo == 2.0 && hi == 9.0);
	assert_double_near(cov, 1.0 - 22.0 / 1024.0, 1e-12);
	assert_int_equal(stats_median_ci_at(x, 3, 0.9, &lo, &hi, &cov), -1);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(stats_median_ci_at(x, 0, 0.9, &lo, &hi, &cov), -1);
}

/* The fewest runs with a median CI: 6 at 95 % (5 runs reach only
 * 93.75 %), 5 at 90 %, 8 at 99 % (7 reach 98.4 %); none outside (0, 1). */
static void test_ci_min_n(void **state)
{
	size_t lo, hi;
	double cov;

	(void)state;
	assert_int_equal(stats_ci_min_n(STATS_LEVEL), STATS_CI_MIN_N);
	assert_int_equal(stats_ci_min_n(0.9), 5);
	assert_int_equal(stats_ci_min_n(0.99), 8);
	assert_int_equal(stats_median_ci_ranks(7, 0.99, &lo, &hi, &cov), -1);
	assert_int_equal(stats_median_ci_ranks(8, 0.99, &lo, &hi, &cov), 0);
	assert_int_equal(stats_ci_min_n(0.0), 0);
	assert_int_equal(stats_ci_min_n(1.0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_ci_ranks), cmocka_unit_test(test_summary),
		cmocka_unit_test(test_summary_edges),   cmocka_unit_test(test_better),
		cmocka_unit_test(test_olympic),         cmocka_unit_test(test_median_ci_at),
		cmocka_unit_test(test_ci_min_n),
	};
	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
