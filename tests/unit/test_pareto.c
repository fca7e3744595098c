/*
 * test_pareto.c - Pareto front (model/pareto.c) on a hand-drawn set.
 */
#include "unit.h"
#include <math.h>

#include "model/pareto.h"

/*
 * Throughput (x) vs tokens/Wh (y), both higher is better:
 *
 *   y 9 |   7
 *     8 |        1,5
 *     5 |           4   0
 *     4 |     2
 *     3 |                      (6: energy not measured)
 *     2 |                      3
 *       +---------------------------- x
 *         50 60  80  90 100   120
 *
 * Front: 7 (50,9), 1 and 5 (80,8, equal: neither dominates the other),
 * 0 (100,5), 3 (120,2).  2 (60,4) is dominated by 0 (first front point
 * that beats it on both axes), 4 (90,5) by 0 (more x, same y).
 */
static void test_front(void **state)
{
	static const double x[] = { 100, 80, 60, 120, 90, 80, NAN, 50 };
	static const double y[] = { 5, 8, 4, 2, 5, 8, 3, 9 };
	static const enum pareto_state want[] = {
		PARETO_FRONT, PARETO_FRONT, PARETO_DOMINATED, PARETO_FRONT,
		PARETO_DOMINATED, PARETO_FRONT, PARETO_MISSING, PARETO_FRONT,
	};
	static const size_t want_front[] = { 7, 1, 5, 0, 3 };
	struct pareto_item items[8];
	size_t front[8], i, nf;

	(void)state;
	nf = pareto_front(x, y, 8, STATS_HIGHER_IS_BETTER, STATS_HIGHER_IS_BETTER, items, front);
	assert_int_equal(nf, 5);
	for (i = 0; i < 8; i++)
		assert_int_equal(items[i].state, want[i]);
	for (i = 0; i < nf; i++)
		assert_int_equal(front[i], want_front[i]);
	assert_int_equal(items[2].dominated_by, 0);
	assert_int_equal(items[4].dominated_by, 0);
	assert_int_equal(items[0].dominated_by, (size_t)-1);
	assert_int_equal(items[6].dominated_by, (size_t)-1);
	assert_string_equal(pareto_state_name(items[6].state), "missing");

	/* y read as J/token (lower is better): 3 (120, 2) is now best on
	 * both axes and dominates every other point. */
	nf = pareto_front(x, y, 8, STATS_HIGHER_IS_BETTER, STATS_LOWER_IS_BETTER, items, front);
	assert_int_equal(nf, 1);
	assert_int_equal(front[0], 3);
	assert_int_equal(items[7].state, PARETO_DOMINATED);
	assert_int_equal(items[7].dominated_by, 3);

	assert_int_equal(pareto_front(x, y, 0, STATS_HIGHER_IS_BETTER, STATS_HIGHER_IS_BETTER,
				      items, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_front),
	};
	return cmocka_run_group_tests_name("pareto", tests, NULL, NULL);
}
