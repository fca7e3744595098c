/*
 * test_scaling.c - saturation fit and device scaling (model/scaling.c):
 * parameters recovered from data generated with known values, exact
 * Amdahl data, Karp-Flatt, censored points.
 */
#include "unit.h"
#include <math.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "model/scaling.h"

#define XMAX 1000.0
#define BHALF 64.0

static double sat(double b)
{
	return XMAX * b / (b + BHALF);
}

/*
 * Exact data on b = 16, 32, ..., 4096: the fit returns Xmax = 1000 and
 * bhalf = 64.  Knee: X(512) = 1000 * 512/576 = 888.9 < 900 and
 * X(1024) = 1000 * 1024/1088 = 941.2 >= 900, so the knee is b = 1024.
 */
static void test_saturation_exact(void **state)
{
	double b[9], x[9];
	struct strbuf err = STRBUF_INIT;
	struct scaling_sat f;
	size_t i;

	(void)state;
	for (i = 0; i < 9; i++) {
		b[i] = 16.0 * (double)(1u << i);
		x[i] = sat(b[i]);
	}
	assert_int_equal(scaling_saturation_fit(b, x, NULL, 9, &f, &err), 0);
	assert_int_equal(f.status, SCALING_OK);
	assert_int_equal(f.n_used, 9);
	assert_int_equal(f.dof, 7);
	assert_double_near(f.xmax, XMAX, 1e-8);
	assert_double_near(f.bhalf, BHALF, 1e-8);
	assert_true(f.xmax_se < 1e-6 && f.bhalf_se < 1e-6);
	assert_true(f.has_knee);
	assert_double_near(f.knee_b, 1024.0, 0);
	assert_double_near(f.knee_x, 1000.0 * 1024.0 / 1088.0, 1e-12);
	assert_double_near(scaling_saturation_eval(&f, 64.0), 500.0, 1e-8);
	assert_int_equal(f.n_censored, 0);
	assert_true(isnan(f.min_censored_b));
	assert_double_near(f.max_ok_b, 4096.0, 0);
	strbuf_release(&err);
}

/*
 * Three runs per batch size with 1 % Gaussian noise (mt19937, seed 7):
 * the fit recovers both parameters within 2 % and each 95 % CI contains
 * the true value.  Two failed (OOM) batch sizes are carried, not fitted:
 * the result does not change when they are added.
 */
static void test_saturation_noise(void **state)
{
	double b[29], x[29];
	unsigned char cen[29] = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct scaling_sat f, g;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t i, n = 0;

	(void)state;
	gsl_rng_set(rng, 7);
	for (i = 0; i < 9; i++) {
		int r;

		for (r = 0; r < 3; r++) {
			b[n] = 16.0 * (double)(1u << i);
			x[n] = sat(b[n]) * (1.0 + gsl_ran_gaussian(rng, 0.01));
			n++;
		}
	}
	gsl_rng_free(rng);
	assert_int_equal(scaling_saturation_fit(b, x, cen, n, &f, &err), 0);
	assert_int_equal(f.status, SCALING_OK);
	assert_int_equal(f.dof, 25);
	assert_double_near(f.xmax, XMAX, 0.02);
	assert_double_near(f.bhalf, BHALF, 0.02);
	assert_true(f.xmax_ci_low < XMAX && XMAX < f.xmax_ci_high);
	assert_true(f.bhalf_ci_low < BHALF && BHALF < f.bhalf_ci_high);
	assert_true(f.xmax_ci_high - f.xmax_ci_low > 0.0);
	assert_true(f.has_knee);
	assert_double_near(f.knee_b, 1024.0, 0);

	b[n] = 8192;
	x[n] = NAN;
	cen[n++] = 1;
	b[n] = 16384;
	x[n] = NAN;
	cen[n++] = 1;
	assert_int_equal(scaling_saturation_fit(b, x, cen, n, &g, &err), 0);
	assert_int_equal(g.status, SCALING_OK);
	assert_int_equal(g.n_used, 27);
	assert_int_equal(g.n_censored, 2);
	assert_double_near(g.min_censored_b, 8192.0, 0);
	assert_double_near(g.max_ok_b, 4096.0, 0);
	assert_double_near(g.xmax, f.xmax, 1e-12);
	assert_double_near(g.bhalf_ci_high, f.bhalf_ci_high, 1e-12);
	strbuf_release(&err);
}

static void test_saturation_edges(void **state)
{
	double b[] = { 64, 64, 128 }, x[] = { 500, 510, 666.6666666666666 };
	double lin_b[] = { 1, 2, 4, 8, 16 }, lin_x[] = { 5, 10, 20, 40, 80 };
	double bad_b[] = { 64, 0 };
	struct strbuf err = STRBUF_INIT;
	struct scaling_sat f;

	(void)state;
	/* one distinct b */
	assert_int_equal(scaling_saturation_fit(b, x, NULL, 2, &f, &err), 0);
	assert_int_equal(f.status, SCALING_TOO_FEW_POINTS);
	assert_true(isnan(f.xmax));
	assert_false(f.has_knee);
	/* two distinct b, exact: a fit, no CI (dof 0) */
	b[1] = 128;
	x[1] = 1000.0 * 128.0 / 192.0;
	assert_int_equal(scaling_saturation_fit(b, x, NULL, 2, &f, &err), 0);
	assert_int_equal(f.status, SCALING_OK);
	assert_double_near(f.xmax, 1000.0, 1e-8);
	assert_double_near(f.bhalf, 64.0, 1e-8);
	assert_int_equal(f.dof, 0);
	assert_true(isnan(f.xmax_ci_low) && isnan(f.bhalf_ci_high));
	assert_false(f.has_knee); /* 666.7 < 900 */
	/* a straight line never saturates: no OK fit, no knee */
	assert_int_equal(scaling_saturation_fit(lin_b, lin_x, NULL, 5, &f, &err), 0);
	assert_int_not_equal(f.status, SCALING_OK);
	assert_false(f.has_knee);
	assert_true(isnan(scaling_saturation_eval(&f, 4)));
	/* invalid input */
	assert_int_equal(scaling_saturation_fit(bad_b, x, NULL, 2, &f, &err), -AB_EDATA);
	assert_string_equal(err.buf, "batch size 0 of point 2 is not a positive number");
	x[0] = NAN;
	assert_int_equal(scaling_saturation_fit(b, x, NULL, 2, &f, &err), -AB_EDATA);
	assert_string_equal(err.buf, "throughput nan of point 1 is not a positive number"
				     " (mark failed points as censored)");
	strbuf_release(&err);
}

/*
 * Exact Amdahl data, s = 0.05, X(p) = 100 S(p) at p = 1..32:
 * Karp-Flatt equals s at every p > 1 ((1/S - 1/q)/(1 - 1/q) = s exactly);
 * efficiency at 2 = 1 / (2 (0.05 + 0.475)) = 0.952380952; S(32) =
 * 1 / (0.05 + 0.95/32) = 12.549019608; ideal line at 32 = 3200.
 */
static void test_amdahl_exact(void **state)
{
	double p[6], x[6];
	struct scaling_dev_point pt[6];
	struct strbuf err = STRBUF_INIT;
	struct scaling_dev d;
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++) {
		p[i] = (double)(1u << i);
		x[i] = 100.0 / (0.05 + 0.95 / p[i]);
	}
	assert_int_equal(scaling_devices(p, x, NULL, 6, STATS_HIGHER_IS_BETTER, &d, pt, &err), 0);
	assert_int_equal(d.status, SCALING_OK);
	assert_double_near(d.serial, 0.05, 1e-9);
	assert_true(d.serial_se < 1e-9);
	assert_int_equal(d.dof, 4);
	assert_double_near(d.count0, 1.0, 0);
	assert_double_near(d.value0, 100.0, 1e-15);
	assert_true(isnan(pt[0].karp_flatt));
	assert_double_near(pt[0].speedup, 1.0, 0);
	assert_double_near(pt[0].efficiency, 1.0, 0);
	for (i = 1; i < 6; i++)
		assert_double_near(pt[i].karp_flatt, 0.05, 1e-12);
	assert_double_near(pt[1].efficiency, 1.0 / (2.0 * 0.525), 1e-12);
	assert_double_near(pt[5].speedup, 1.0 / (0.05 + 0.95 / 32.0), 1e-12);
	assert_double_near(pt[5].amdahl, pt[5].speedup, 1e-9);
	assert_double_near(pt[5].ideal, 3200.0, 1e-12);
	assert_double_near(scaling_amdahl(0.05, 2.0), 1.0 / 0.525, 1e-15);
	strbuf_release(&err);
}

/*
 * Times (lower is better) on node counts 4, 8, 16, 64 in shuffled order,
 * T = 600 (s + (1-s)/q), s = 0.2, q = nodes / 4; a failed run at 2 nodes.
 * Base = 4 nodes (smallest that ran).  At 64 nodes q = 16: S = 1/(0.2 +
 * 0.05) = 4, efficiency 0.25, ideal time 600/16 = 37.5.
 */
static void test_amdahl_times(void **state)
{
	double p[] = { 16, 2, 64, 4, 8 }, t[5];
	unsigned char cen[] = { 0, 1, 0, 0, 0 };
	struct scaling_dev_point pt[5];
	struct strbuf err = STRBUF_INIT;
	struct scaling_dev d;
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++)
		t[i] = cen[i] ? NAN : 600.0 * (0.2 + 0.8 / (p[i] / 4.0));
	assert_int_equal(scaling_devices(p, t, cen, 5, STATS_LOWER_IS_BETTER, &d, pt, &err), 0);
	assert_int_equal(d.status, SCALING_OK);
	assert_double_near(d.serial, 0.2, 1e-9);
	assert_double_near(d.count0, 4.0, 0);
	assert_double_near(d.value0, 600.0, 1e-15);
	assert_int_equal(d.n_used, 4);
	assert_int_equal(d.n_censored, 1);
	assert_int_equal(d.dof, 2);
	assert_double_near(pt[2].q, 16.0, 0);
	assert_double_near(pt[2].speedup, 4.0, 1e-12);
	assert_double_near(pt[2].efficiency, 0.25, 1e-12);
	assert_double_near(pt[2].karp_flatt, 0.2, 1e-12);
	assert_double_near(pt[2].ideal, 37.5, 1e-12);
	/* the failed point keeps its place: no speedup, ideal 600 * 2 */
	assert_true(pt[1].censored);
	assert_true(isnan(pt[1].speedup) && isnan(pt[1].karp_flatt));
	assert_double_near(pt[1].q, 0.5, 0);
	assert_double_near(pt[1].ideal, 1200.0, 1e-12);
	strbuf_release(&err);
}

/*
 * Noisy speedups 1.9, 3.5, 6.0 at q = 2, 4, 8: Karp-Flatt values
 * (1/1.9 - 1/2)/(1/2) = 0.05263, (1/3.5 - 1/4)/(3/4) = 0.04762,
 * (1/6 - 1/8)/(7/8) = 0.04762.  The least-squares s (0.04763) lies within
 * their range, inside a CI of positive width.
 */
static void test_amdahl_edges(void **state)
{
	double p[] = { 1, 2, 4, 8 }, x[] = { 1.0, 1.9, 3.5, 6.0 };
	double p2[] = { 1, 2 }, x2[] = { 10, 19 };
	double dup[] = { 1, 1 };
	struct strbuf err = STRBUF_INIT;
	struct scaling_dev d;
	struct scaling_dev_point pt[4];

	(void)state;
	assert_int_equal(scaling_devices(p, x, NULL, 4, STATS_HIGHER_IS_BETTER, &d, pt, &err), 0);
	assert_int_equal(d.status, SCALING_OK);
	assert_double_near(pt[1].karp_flatt, (1 / 1.9 - 0.5) / 0.5, 1e-12);
	assert_true(d.serial >= pt[2].karp_flatt && d.serial <= pt[1].karp_flatt);
	assert_true(d.serial_ci_low < d.serial && d.serial < d.serial_ci_high);
	/* one point beyond the base: exact fit, s = Karp-Flatt, no CI */
	assert_int_equal(scaling_devices(p2, x2, NULL, 2, STATS_HIGHER_IS_BETTER, &d, NULL, &err), 0);
	assert_int_equal(d.status, SCALING_OK);
	assert_double_near(d.serial, (10.0 / 19.0 - 0.5) / 0.5, 1e-9);
	assert_int_equal(d.dof, 0);
	assert_true(isnan(d.serial_ci_low));
	/* only the base: nothing to fit */
	assert_int_equal(scaling_devices(p2, x2, NULL, 1, STATS_HIGHER_IS_BETTER, &d, NULL, &err), 0);
	assert_int_equal(d.status, SCALING_TOO_FEW_POINTS);
	assert_string_equal(scaling_status_name(d.status), "too few points");
	assert_int_equal(scaling_devices(dup, x2, NULL, 2, STATS_HIGHER_IS_BETTER, &d, NULL, &err),
			 -AB_EDATA);
	assert_string_equal(err.buf, "count 1 appears twice (pass one value per count)");
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saturation_exact), cmocka_unit_test(test_saturation_noise),
		cmocka_unit_test(test_saturation_edges), cmocka_unit_test(test_amdahl_exact),
		cmocka_unit_test(test_amdahl_times),     cmocka_unit_test(test_amdahl_edges),
	};
	return cmocka_run_group_tests_name("scaling", tests, NULL, NULL);
}
