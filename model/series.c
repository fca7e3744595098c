/*
 * series.c - group configurations into scaling series; see series.h.
 */
#include "core/compat.h"
#include "series.h"
#include "stats.h"

#include <math.h>

int series_axis_parse(const char *s)
{
	if (!strcmp(s, "batch"))
		return SERIES_BATCH;
	if (!strcmp(s, "devices"))
		return SERIES_DEVICES;
	if (!strcmp(s, "nodes"))
		return SERIES_NODES;
	return -1;
}

const char *series_axis_name(enum series_axis a)
{
	return a == SERIES_BATCH ? "batch" : a == SERIES_DEVICES ? "devices" : "nodes";
}

static long per_dev(const struct db_config *c)
{
	return c->global_batch > 0 && c->devices > 0 && c->global_batch % c->devices == 0
		       ? c->global_batch / c->devices
		       : 0;
}

static double x_of(const struct db_config *c, enum series_axis a)
{
	long v = a == SERIES_BATCH ? c->global_batch : a == SERIES_DEVICES ? c->devices : c->nodes;
	return v > 0 ? (double)v : NAN;
}

static int same_prec(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_group(const struct series *s, const struct db_config *c, enum series_axis a)
{
	const struct db_config *f = s->first;

	if (strcmp(f->system, c->system) || strcmp(f->benchmark, c->benchmark) ||
	    strcmp(f->suite, c->suite) || !same_prec(f->precision, c->precision))
		return 0;
	switch (a) {
	case SERIES_BATCH:
		return f->nodes == c->nodes && f->devices == c->devices;
	case SERIES_DEVICES:
		return per_dev(f) == per_dev(c);
	case SERIES_NODES:
		return per_dev(f) == per_dev(c) &&
		       (f->nodes > 0 && c->nodes > 0 ? f->devices * c->nodes == c->devices * f->nodes
						     : 1);
	}
	return 0;
}

static int cmp_point(const void *a, const void *b)
{
	double x = ((const struct series_point *)a)->x, y = ((const struct series_point *)b)->x;
	return (x > y) - (x < y);
}

void series_build(const struct db_configs *cs, enum series_axis axis, struct series_set *out)
{
	size_t i, k, cap = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < cs->n; i++) {
		const struct db_config *c = &cs->v[i];
		struct series *s = NULL;
		struct series_point *p;
		double x = x_of(c, axis);

		if (!isfinite(x) || (c->n == 0 && c->n_failed == 0))
			continue;
		for (k = 0; k < out->n; k++)
			if (same_group(&out->v[k], c, axis)) {
				s = &out->v[k];
				break;
			}
		if (!s) {
			if (out->n == cap) {
				cap = cap ? 2 * cap : 8;
				out->v = ab_realloc(out->v, cap * sizeof(*out->v));
			}
			s = &out->v[out->n++];
			memset(s, 0, sizeof(*s));
			s->first = c;
			s->nodes = axis == SERIES_BATCH ? c->nodes : 0;
			s->devices = axis == SERIES_BATCH ? c->devices : 0;
			s->per_device_batch = axis == SERIES_BATCH ? 0 : per_dev(c);
			s->precision = c->precision;
		}
		for (k = 0; k < s->n; k++)
			if (s->pts[k].x == x)
				break;
		if (k < s->n)
			continue; /* same x through another shape: keep the first */
		s->pts = ab_realloc(s->pts, (s->n + 1) * sizeof(*s->pts));
		p = &s->pts[s->n++];
		p->x = x;
		p->config = c;
		p->median = c->n ? stats_median(c->values, c->n) : NAN;
		p->censored = c->n == 0;
	}
	for (k = 0; k < out->n; k++)
		qsort(out->v[k].pts, out->v[k].n, sizeof(*out->v[k].pts), cmp_point);
}

void series_set_release(struct series_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].pts);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

void series_shape_label(const struct series *s, enum series_axis axis, struct strbuf *out)
{
	const char *sep = "";

	if (s->nodes > 0) {
		strbuf_addf(out, "%ld node%s", s->nodes, s->nodes == 1 ? "" : "s");
		sep = ", ";
	}
	if (s->devices > 0) {
		strbuf_addf(out, "%s%ld device%s", sep, s->devices, s->devices == 1 ? "" : "s");
		sep = ", ";
	}
	if (s->per_device_batch > 0) {
		strbuf_addf(out, "%s%ld per device", sep, s->per_device_batch);
		sep = ", ";
	}
	if (s->precision)
		strbuf_addf(out, "%s%s", sep, s->precision);
	(void)axis;
}
