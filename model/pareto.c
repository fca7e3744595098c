/*
 * pareto.c - non-dominated points of a 2-D set; see pareto.h.  O(n^2):
 * a benchmark has tens of systems, not millions.
 */
#include "core/compat.h"
#include "core/strbuf.h"
#include "model/pareto.h"

#include <math.h>

const char *pareto_state_name(enum pareto_state s)
{
	switch (s) {
	case PARETO_FRONT:
		return "front";
	case PARETO_DOMINATED:
		return "dominated";
	case PARETO_MISSING:
		return "missing";
	}
	return "unknown";
}

/* Flip lower-is-better axes so that larger is always better below. */
static double good(double v, enum stats_better b)
{
	return b == STATS_LOWER_IS_BETTER ? -v : v;
}

static int dominates(const double *x, const double *y, size_t j, size_t i,
		     enum stats_better xb, enum stats_better yb)
{
	double xj = good(x[j], xb), xi = good(x[i], xb);
	double yj = good(y[j], yb), yi = good(y[i], yb);

	return xj >= xi && yj >= yi && (xj > xi || yj > yi);
}

struct front_key {
	double x;
	size_t i;
};

static int cmp_front(const void *pa, const void *pb)
{
	const struct front_key *a = pa, *b = pb;

	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

size_t pareto_front(const double *x, const double *y, size_t n,
		    enum stats_better xb, enum stats_better yb,
		    struct pareto_item *items, size_t *front)
{
	struct front_key *keys;
	size_t i, j, nf = 0;

	for (i = 0; i < n; i++) {
		items[i].dominated_by = (size_t)-1;
		items[i].state = isnan(x[i]) || isnan(y[i]) ? PARETO_MISSING : PARETO_FRONT;
	}
	for (i = 0; i < n; i++) {
		if (items[i].state == PARETO_MISSING)
			continue;
		for (j = 0; j < n; j++)
			if (j != i && items[j].state != PARETO_MISSING &&
			    dominates(x, y, j, i, xb, yb)) {
				items[i].state = PARETO_DOMINATED;
				break;
			}
	}
	/* A dominated point is always dominated by some front point (the
	 * relation is transitive and the set finite): name the first one. */
	for (i = 0; i < n; i++) {
		if (items[i].state != PARETO_DOMINATED)
			continue;
		for (j = 0; j < n; j++)
			if (items[j].state == PARETO_FRONT && dominates(x, y, j, i, xb, yb)) {
				items[i].dominated_by = j;
				break;
			}
	}
	keys = ab_malloc((n ? n : 1) * sizeof(*keys));
	for (i = 0; i < n; i++)
		if (items[i].state == PARETO_FRONT) {
			keys[nf].x = good(x[i], xb);
			keys[nf].i = i;
			nf++;
		}
	qsort(keys, nf, sizeof(*keys), cmp_front);
	if (front)
		for (i = 0; i < nf; i++)
			front[i] = keys[i].i;
	free(keys);
	return nf;
}
