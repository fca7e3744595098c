/*
 * test_energy.c - energy from power samples (model/energy.c) against a
 * hand computation.
 */
#include "unit.h"
#include <math.h>

#include "model/energy.h"

/*
 * t = 0 1 3 4 s, P = 100 300 200 100 W.
 * trapezoid: (100+300)/2*1 + (300+200)/2*2 + (200+100)/2*1
 *          = 200 + 500 + 150 = 850 J = 0.2361111 Wh
 * jpwr:      300*1 + 200*2 + 100*1 = 800 J = 0.2222222 Wh
 * average 850 J / 4 s = 212.5 W, peak 300 W.
 */
static void test_samples(void **state)
{
	static const double t[] = { 0, 1, 3, 4 }, w[] = { 100, 300, 200, 100 };
	struct strbuf err = STRBUF_INIT;
	struct energy_summary e;

	(void)state;
	assert_int_equal(energy_from_samples(t, w, 4, ENERGY_BOUNDARY_GPU, &e, &err), 0);
	assert_int_equal(e.n_samples, 4);
	assert_double_near(e.duration_s, 4.0, 0);
	assert_double_near(e.energy_wh, 850.0 / 3600.0, 1e-15);
	assert_double_near(e.energy_wh_jpwr, 800.0 / 3600.0, 1e-15);
	assert_double_near(e.avg_power_w, 212.5, 1e-15);
	assert_double_near(e.peak_power_w, 300.0, 0);
	assert_false(e.peak_is_bound);
	assert_int_equal(e.boundary, ENERGY_BOUNDARY_GPU);

	/* one sample: no duration, no energy, no average */
	assert_int_equal(energy_from_samples(t, w, 1, ENERGY_BOUNDARY_NODE, &e, &err), 0);
	assert_double_near(e.energy_wh, 0.0, 0);
	assert_true(isnan(e.avg_power_w));
	strbuf_release(&err);
}

static void test_samples_errors(void **state)
{
	static const double t[] = { 0, 2, 1 }, w[] = { 1, 2, 3 };
	static const double t2[] = { 0, 1, 1, 2 }, wneg[] = { 1, -2, 3, 4 };
	static const double epoch[] = { 1724403731.600882, 1724403731.500882 };
	double tn[] = { 0, NAN };
	struct strbuf err = STRBUF_INIT;
	struct energy_summary e;

	(void)state;
	assert_int_equal(energy_from_samples(t, w, 3, ENERGY_BOUNDARY_GPU, &e, &err), -AB_EDATA);
	assert_string_equal(err.buf, "power sample 3 goes back in time (1 < 2)");
	assert_int_equal(energy_from_samples(epoch, w, 2, ENERGY_BOUNDARY_GPU, &e, &err), -AB_EDATA);
	assert_string_equal(err.buf, "power sample 2 goes back in time"
				     " (1724403731.500882 < 1724403731.600882)");
	assert_int_equal(energy_from_samples(t2, wneg, 4, ENERGY_BOUNDARY_GPU, &e, &err), -AB_EDATA);
	assert_string_equal(err.buf, "power sample 2 is negative (-2 W)");
	assert_int_equal(energy_from_samples(tn, w, 2, ENERGY_BOUNDARY_GPU, &e, &err), -AB_EDATA);
	assert_string_equal(err.buf, "power sample 2 is not a finite number");
	assert_int_equal(energy_from_samples(t, w, 0, ENERGY_BOUNDARY_GPU, &e, &err), -AB_EDATA);
	/* a repeated timestamp adds nothing: t = 0 1 1, P = 1 2 3 ->
	 * 0.5*(1+2)*1 + 0.5*(2+3)*0 = 1.5 J */
	assert_int_equal(energy_from_samples(t2, w, 3, ENERGY_BOUNDARY_GPU, &e, &err), 0);
	assert_double_near(e.energy_wh, 1.5 / 3600.0, 1e-15);
	strbuf_release(&err);
}

/*
 * Two GPUs on one clock: second P = 50 50 150 50 W ->
 * 0.5*100*1 + 0.5*200*2 + 0.5*200*1 = 350 J.  Total 1200 J over 4 s =
 * 300 W; peak of the sum = max(150, 350, 350, 150) = 350 W (not 300+150).
 * On different clocks the peak is the bound 300 + 150 = 450 W.
 */
static void test_sum(void **state)
{
	static const double t[] = { 0, 1, 3, 4 }, w1[] = { 100, 300, 200, 100 };
	static const double w2[] = { 50, 50, 150, 50 }, t2[] = { 0.5, 1, 3, 4.5 };
	struct energy_series s[2] = { { t, w1, 4 }, { t, w2, 4 } };
	struct strbuf err = STRBUF_INIT;
	struct energy_summary e;

	(void)state;
	assert_int_equal(energy_sum(s, 2, ENERGY_BOUNDARY_GPU, &e, &err), 0);
	assert_double_near(e.energy_wh, 1200.0 / 3600.0, 1e-15);
	assert_double_near(e.avg_power_w, 300.0, 1e-13);
	assert_double_near(e.peak_power_w, 350.0, 0);
	assert_false(e.peak_is_bound);
	s[1].t = t2;
	assert_int_equal(energy_sum(s, 2, ENERGY_BOUNDARY_GPU, &e, &err), 0);
	assert_double_near(e.peak_power_w, 450.0, 0);
	assert_true(e.peak_is_bound);
	assert_double_near(e.duration_s, 4.5, 0);
	s[1].n = 0;
	assert_int_equal(energy_sum(s, 2, ENERGY_BOUNDARY_GPU, &e, &err), -AB_EDATA);
	assert_string_equal(err.buf, "device 2: no power samples");
	strbuf_release(&err);
}

/*
 * 1e6 tokens in 0.5 Wh: 2e6 tokens/Wh, 0.5*3600/1e6 = 0.0018 J/token.
 * 1000 tokens/s at 500 W: 1000*3600/500 = 7200 tokens/Wh, 0.5 J/token.
 */
static void test_efficiency(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct energy_eff f;
	enum energy_boundary b;

	(void)state;
	energy_efficiency(1e6, 0.5, ENERGY_BOUNDARY_NODE, &f);
	assert_double_near(f.work_per_wh, 2e6, 1e-15);
	assert_double_near(f.j_per_unit, 0.0018, 1e-15);
	assert_int_equal(f.boundary, ENERGY_BOUNDARY_NODE);
	energy_efficiency_rate(1000, 500, ENERGY_BOUNDARY_GPU, &f);
	assert_double_near(f.work_per_wh, 7200, 1e-15);
	assert_double_near(f.j_per_unit, 0.5, 1e-15);
	energy_efficiency(1e6, 0, ENERGY_BOUNDARY_NODE, &f);
	assert_true(isnan(f.work_per_wh));

	assert_string_equal(energy_boundary_name(ENERGY_BOUNDARY_NODE_SWITCH), "node+switch");
	assert_int_equal(energy_boundary_parse("module", &b, &err), 0);
	assert_int_equal(b, ENERGY_BOUNDARY_MODULE);
	assert_int_equal(energy_boundary_parse("device", &b, &err), 0);
	assert_int_equal(b, ENERGY_BOUNDARY_GPU);
	assert_int_equal(energy_boundary_parse("rack", &b, &err), -AB_EDATA);
	assert_string_equal(err.buf, "unknown measurement boundary \"rack\""
				     " (want gpu, module, node or node+switch)");
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples), cmocka_unit_test(test_samples_errors),
		cmocka_unit_test(test_sum),     cmocka_unit_test(test_efficiency),
	};
	return cmocka_run_group_tests_name("energy", tests, NULL, NULL);
}
