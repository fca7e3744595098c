/*
 * pareto.h - the Pareto front of systems for one benchmark: throughput
 * (higher is better) against energy efficiency, e.g. tokens/Wh (higher is
 * better).  Either axis may be declared lower-is-better (e.g. J/sample).
 *
 * Point j dominates point i when j is at least as good on both axes and
 * strictly better on one.  Non-dominated points form the front; equal
 * points do not dominate each other, so duplicates are all on the front.
 * Points with a NAN coordinate (no energy measured) are "missing": neither
 * on the front nor dominated, and they dominate nothing.
 */
#ifndef AB_PARETO_H
#define AB_PARETO_H

#include "core/compat.h"
#include "model/stats.h"

enum pareto_state {
	PARETO_FRONT = 0,
	PARETO_DOMINATED = 1,
	PARETO_MISSING = 2
};

/* "front", "dominated", "missing". */
const char *pareto_state_name(enum pareto_state s);

struct pareto_item {
	enum pareto_state state;
	size_t dominated_by;   /* for PARETO_DOMINATED: the lowest-index FRONT
	                        * point that dominates it; else (size_t)-1 */
};

/*
 * Classify the n points (x[i], y[i]); items receives n entries in input
 * order.  front (may be NULL, room for n) receives the indices of the
 * front points sorted by x from worst to best (then by input order), the
 * order a chart draws the front line in.  Returns the number of front
 * points.
 */
size_t pareto_front(const double *x, const double *y, size_t n,
		    enum stats_better xb, enum stats_better yb,
		    struct pareto_item *items, size_t *front);

#endif
