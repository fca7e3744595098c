/*
 * test_validate.c - model/validate: impossible values per metric kind.
 */
#include "unit.h"
#include "model/validate.h"

#include <math.h>

static void expect(const char *name, double v, const char *unit, const char *msg)
{
	char buf[256];
	int bad = validate_metric(name, v, unit, buf, sizeof(buf));

	if (!msg) {
		assert_int_equal(bad, 0);
		return;
	}
	assert_int_equal(bad, 1);
	assert_string_equal(buf, msg);
}

static void test_metric_kinds(void **state)
{
	(void)state;
	/* times: > 0 */
	expect("time_to_train", -28808488.5, "min", "impossible value: time_to_train = -28808488.5 min (a time must be positive)");
	expect("time_to_train", 0, "min", "impossible value: time_to_train = 0 min (a time must be positive)");
	expect("time_to_train", 12.5, "min", NULL);
	expect("latency_p99", -1, "ms", "impossible value: latency_p99 = -1 ms (a time must be positive)");
	expect("latency_p50", -3, NULL, "impossible value: latency_p50 = -3 (a time must be positive)");
	expect("elapsed", -2, "s", "impossible value: elapsed = -2 s (a time must be positive)");
	/* throughputs, energy, power: >= 0 */
	expect("throughput", -109226.67, "tokens/s", "impossible value: throughput = -109226.67 tokens/s (cannot be negative)");
	expect("throughput", 0, "tokens/s", NULL);
	expect("result", -5, "samples/s", "impossible value: result = -5 samples/s (cannot be negative)");
	expect("bw", -14.8, "GB/s", "impossible value: bw = -14.8 GB/s (cannot be negative)");
	expect("energy", -1, "Wh", "impossible value: energy = -1 Wh (cannot be negative)");
	expect("avg_power", -1, "W", "impossible value: avg_power = -1 W (cannot be negative)");
	expect("throughput_per_device", -1, "", "impossible value: throughput_per_device = -1 (cannot be negative)");
	/* anything: finite and not absurd; other kinds may be negative */
	expect("bw", 1e308, "GB/s", "impossible value: bw = 1e+308 GB/s (implausibly large, above 1e30)");
	expect("delta", -1e31, "K", "impossible value: delta = -1e+31 K (implausibly large, above 1e30)");
	expect("x", NAN, "", "impossible value: x = nan (not a finite number)");
	expect("x", INFINITY, "GB/s", "impossible value: x = inf GB/s (not a finite number)");
	expect("delta", -14.8, "K", NULL);
	expect("score", -0.5, "", NULL);
	/* the edges of "positive and at most 1e30" (no rule needs the kind) */
	expect("elapsed", 1e30, "s", NULL);
	expect("elapsed", 4.9e-324, "s", NULL);
	expect("elapsed", 1.000000001e30, "s", "impossible value: elapsed = 1.000000001e+30 s (implausibly large, above 1e30)");
	expect("elapsed", -0.0, "s", "impossible value: elapsed = -0 s (a time must be positive)");
	expect("energy", -0.0, "Wh", NULL);
	expect("energy", -4.9e-324, "Wh", "impossible value: energy = -4.940656458e-324 Wh (cannot be negative)");
}

static void test_run(void **state)
{
	struct ingest_metric ms[2] = { { "throughput", 10, "images/s", NULL },
				       { "energy", -3, "Wh", NULL } };
	struct ingest_run r = { 0 };
	struct validate_run tmp;
	const struct ingest_run *v;

	(void)state;
	r.status = RUN_OK;
	r.metrics = ms;
	r.nmetrics = 1;
	assert_ptr_equal(validate_run(&r, &tmp), &r);
	r.nmetrics = 2;
	v = validate_run(&r, &tmp);
	assert_ptr_equal(v, &tmp.run);
	assert_int_equal(v->status, RUN_INVALID);
	assert_string_equal(v->excluded_reason, "impossible value: energy = -3 Wh (cannot be negative)");
	assert_int_equal(r.status, RUN_OK); /* the parser's record is untouched */
	/* a run already failed keeps its own reason */
	r.status = RUN_FAILED;
	r.excluded_reason = "oom";
	assert_ptr_equal(validate_run(&r, &tmp), &r);
	/* times out of order */
	r.status = RUN_OK;
	r.excluded_reason = NULL;
	r.nmetrics = 1;
	r.started = "2024-10-04T01:00:00Z";
	r.finished = "2024-10-04T00:59:59Z";
	v = validate_run(&r, &tmp);
	assert_int_equal(v->status, RUN_INVALID);
	assert_string_equal(v->excluded_reason, "impossible times: finished 2024-10-04T00:59:59Z "
			    "before it started 2024-10-04T01:00:00Z");
	r.finished = "2024-10-04T01:00:00Z";
	assert_ptr_equal(validate_run(&r, &tmp), &r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_kinds),
		cmocka_unit_test(test_run),
	};
	return cmocka_run_group_tests_name("validate", tests, NULL, NULL);
}
