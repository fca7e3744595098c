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

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* devices per node when both counts are known, else 0 */
static long per_node(const struct db_config *c)
{
	return c->nodes > 0 && c->devices > 0 && c->devices % c->nodes == 0 ? c->devices / c->nodes
									  : 0;
}

/* A token of a system name that counts nodes or chips: "n64", "512", "1024x". */
static int scale_token(const char *t, size_t n)
{
	size_t i = 0, digits = 0;

	if (n && (t[0] == 'n' || t[0] == 'N'))
		i++;
	for (; i < n && t[i] >= '0' && t[i] <= '9'; i++)
		digits++;
	if (i < n && (t[i] == 'x' || t[i] == 'X') && t[0] != 'n' && t[0] != 'N')
		i++;
	return digits > 0 && i == n;
}

int series_family(const char *system, struct strbuf *out)
{
	const char *name = strrchr(system, '/'), *p, *tok;

	name = name ? name + 1 : system;
	for (tok = p = name;; p++) {
		if (*p == '_' || *p == '-' || !*p) {
			if (scale_token(tok, (size_t)(p - tok))) {
				if (tok == name)
					return 0; /* nothing before it names a family */
				strbuf_add(out, system, (size_t)(tok - 1 - system));
				return 1;
			}
			if (!*p)
				return 0;
			tok = p + 1;
		}
	}
}

static int same_group(const struct series *s, const struct db_config *c, const char *family,
		      enum series_axis a)
{
	const struct db_config *f = s->first;

	if (strcmp(f->benchmark, c->benchmark) || strcmp(f->suite, c->suite) ||
	    !same_prec(f->precision, c->precision))
		return 0;
	if (s->mode == SERIES_FAMILY && a != SERIES_BATCH)
		return !strcmp(s->family, family) && same_str(f->accelerator, c->accelerator) &&
		       per_node(f) == per_node(c);
	if (strcmp(f->system, c->system))
		return 0;
	switch (a) {
	case SERIES_BATCH:
		return f->nodes == c->nodes && f->devices == c->devices;
	case SERIES_DEVICES:
		return s->mode == SERIES_STRONG ? f->global_batch == c->global_batch
						: per_dev(f) == per_dev(c);
	case SERIES_NODES:
		return (s->mode == SERIES_STRONG ? f->global_batch == c->global_batch
						 : per_dev(f) == per_dev(c)) &&
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
	series_build_mode(cs, axis, SERIES_WEAK, out);
}

void series_build_mode(const struct db_configs *cs, enum series_axis axis, enum series_mode mode,
		       struct series_set *out)
{
	struct strbuf fam = STRBUF_INIT;
	size_t i, k, cap = 0;

	if (axis == SERIES_BATCH)
		mode = SERIES_WEAK;
	memset(out, 0, sizeof(*out));
	for (i = 0; i < cs->n; i++) {
		const struct db_config *c = &cs->v[i];
		struct series *s = NULL;
		struct series_point *p;
		double x = x_of(c, axis);

		if (!isfinite(x) || (c->n == 0 && c->n_failed == 0))
			continue;
		if (mode == SERIES_STRONG && c->global_batch <= 0)
			continue; /* strong scaling needs the global batch */
		strbuf_reset(&fam);
		if (mode == SERIES_FAMILY && !series_family(c->system, &fam))
			strbuf_addstr(&fam, c->system);
		for (k = 0; k < out->n; k++)
			if (same_group(&out->v[k], c, fam.buf, axis)) {
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
			s->mode = mode;
			s->nodes = axis == SERIES_BATCH ? c->nodes : 0;
			s->devices = axis == SERIES_BATCH ? c->devices : 0;
			s->per_device_batch = axis == SERIES_BATCH || mode != SERIES_WEAK ? 0 : per_dev(c);
			s->global_batch = mode == SERIES_STRONG ? c->global_batch : 0;
			s->family = mode == SERIES_FAMILY ? ab_strdup(fam.buf) : NULL;
			s->precision = c->precision;
		}
		for (k = 0; k < s->n; k++)
			if (s->pts[k].x == x)
				break;
		if (k < s->n) {
			/* same x through another shape: keep the first; in a family
			 * (two systems at one scale) the better median */
			double m = c->n ? stats_median(c->values, c->n) : NAN;
			p = &s->pts[k];
			if (mode == SERIES_FAMILY && isfinite(m) &&
			    (!isfinite(p->median) ||
			     (c->lower_is_better ? m < p->median : m > p->median))) {
				p->config = c;
				p->median = m;
				p->censored = 0;
			}
			continue;
		}
		s->pts = ab_realloc(s->pts, (s->n + 1) * sizeof(*s->pts));
		p = &s->pts[s->n++];
		p->x = x;
		p->config = c;
		p->median = c->n ? stats_median(c->values, c->n) : NAN;
		p->censored = c->n == 0;
	}
	strbuf_release(&fam);
	for (k = 0; k < out->n; k++)
		qsort(out->v[k].pts, out->v[k].n, sizeof(*out->v[k].pts), cmp_point);
}

void series_set_release(struct series_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].pts);
		free(s->v[i].family);
	}
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
	if (s->global_batch > 0) {
		strbuf_addf(out, "%sglobal batch %ld", sep, s->global_batch);
		sep = ", ";
	}
	if (s->precision)
		strbuf_addf(out, "%s%s", sep, s->precision);
	(void)axis;
}
