/*
 * compare.c - the comparison table: which configuration of each system is
 * paired with which of the baseline (same shape, or best against best,
 * flagged when they differ), the ratio of medians with its bootstrap CI,
 * Mann-Whitney p, Holm over the whole table, the verdicts, and across
 * benchmarks each system's composite (geometric mean of speedups over the
 * benchmarks every compared system ran, never an arithmetic mean).
 */
#include "core/compat.h"
#include "views/views.h"

#include <math.h>

static int is_system(const struct db_config *c, const char *name)
{
	return !strcmp(c->system, name) || (c->display_name && !strcmp(c->display_name, name));
}

static int kept(const struct views_compare_opts *o, const struct db_config *c)
{
	return !o->keep || o->keep(c, o->keep_ctx);
}

static void pair_best(struct views_compare *v, const char *baseline,
		      const struct views_compare_opts *o)
{
	const struct db_configs *cs = &v->configs;
	const struct db_config **pick = ab_calloc(cs->n + 1, sizeof(*pick));
	size_t i, j;

	for (i = 0; i < cs->n; i++) {
		const struct db_config *b = NULL;
		size_t nb;
		if (i && !strcmp(cs->v[i - 1].benchmark, cs->v[i].benchmark))
			continue; /* one pass per benchmark */
		nb = db_configs_best(cs, cs->v[i].benchmark, o->keep, o->keep_ctx, pick);
		for (j = 0; j < nb; j++)
			if (is_system(pick[j], baseline))
				b = pick[j];
		for (j = 0; b && j < nb; j++) {
			struct views_pair *p;
			if (pick[j] == b)
				continue;
			p = &v->pairs[v->n++];
			p->sys = pick[j];
			p->base = b;
			p->same_shape = db_config_same_shape(pick[j], b);
		}
	}
	free(pick);
}

static void pair_same_shape(struct views_compare *v, const char *baseline,
			    const struct views_compare_opts *o)
{
	const struct db_configs *cs = &v->configs;
	size_t i, j;

	for (i = 0; i < cs->n; i++) {
		const struct db_config *s = &cs->v[i];
		if (is_system(s, baseline) || !s->n || !kept(o, s))
			continue;
		for (j = 0; j < cs->n; j++) {
			if (is_system(&cs->v[j], baseline) && cs->v[j].n && kept(o, &cs->v[j]) &&
			    db_config_same_shape(s, &cs->v[j])) {
				struct views_pair *p = &v->pairs[v->n++];
				p->sys = s;
				p->base = &cs->v[j];
				p->same_shape = 1;
				break;
			}
		}
	}
}

static const struct views_pair *pair_of(const struct views_compare *v, const char *system,
					const char *benchmark)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (!strcmp(v->pairs[i].sys->system, system) &&
		    !strcmp(v->pairs[i].sys->benchmark, benchmark))
			return &v->pairs[i];
	return NULL;
}

/* A pair's runs as the comparison takes them. */
static void pair_sample(const struct views_pair *p, struct compare_sample *s)
{
	s->x = p->sys->values;
	s->n = p->sys->n;
	s->base = p->base->values;
	s->nbase = p->base->n;
	s->better = p->sys->lower_is_better ? STATS_LOWER_IS_BETTER : STATS_HIGHER_IS_BETTER;
}

/* The benchmarks every compared system ran, and each system's composite. */
static int composite(struct views_compare *v, struct strbuf *err)
{
	const char **bench = ab_calloc(v->n + 1, sizeof(*bench));
	const char **systems = ab_calloc(v->n + 1, sizeof(*systems));
	size_t nb = 0, ns = 0, i, k;
	int rc = 0;

	for (i = 0; i < v->n; i++) {
		for (k = 0; k < nb && strcmp(bench[k], v->pairs[i].sys->benchmark); k++)
			;
		if (k == nb)
			bench[nb++] = v->pairs[i].sys->benchmark;
		for (k = 0; k < ns && strcmp(systems[k], v->pairs[i].sys->system); k++)
			;
		if (k == ns)
			systems[ns++] = v->pairs[i].sys->system;
	}
	v->common = ab_calloc(nb + 1, sizeof(*v->common));
	for (k = 0; k < nb; k++) {
		for (i = 0; i < ns && pair_of(v, systems[i], bench[k]); i++)
			;
		if (i == ns)
			v->common[v->n_common++] = bench[k];
	}
	if (v->n_common)
		v->composite = ab_calloc(ns, sizeof(*v->composite));
	for (i = 0; v->n_common && i < ns; i++) {
		struct compare_sample *cs = ab_calloc(v->n_common, sizeof(*cs));
		struct views_composite *c = &v->composite[i];
		for (k = 0; k < v->n_common; k++)
			pair_sample(pair_of(v, systems[i], v->common[k]), &cs[k]);
		rc = compare_geomean_boot(cs, v->n_common, &v->copts, &c->gm, err);
		free(cs);
		if (rc < 0)
			break;
		c->system = systems[i];
		c->verdict = c->gm.boot_ci_low > 1   ? COMPARE_FASTER
			     : c->gm.boot_ci_high < 1 ? COMPARE_SLOWER
						      : COMPARE_INDISTINGUISHABLE;
		v->n_composite++;
	}
	free(bench);
	free(systems);
	return rc;
}

int views_compare_build(struct db *db, const struct db_config_query *q,
			const struct views_compare_opts *o, struct views_compare *out,
			struct strbuf *err)
{
	struct compare_result *res;
	struct compare_task *tasks;
	size_t i, nbase = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (o->copts)
		out->copts = *o->copts;
	else
		compare_opts_init(&out->copts);
	out->across = !q->benchmark;
	out->best = o->best || out->across;
	rc = db_load_configs(db, q, &out->configs, err);
	if (rc < 0)
		return rc;
	for (i = 0; i < out->configs.n; i++)
		if (is_system(&out->configs.v[i], o->baseline))
			nbase++;
	if (!out->configs.n) {
		out->failure = VIEWS_COMPARE_NO_RUNS;
		rc = ab_fail(err, AB_EDATA, "compare: no runs of benchmark '%s'",
			     q->benchmark ? q->benchmark : "(any)");
		goto fail;
	}
	if (!nbase) {
		out->failure = VIEWS_COMPARE_NO_BASELINE;
		rc = ab_fail(err, AB_EDATA, "compare: baseline '%s' has no runs of '%s'", o->baseline,
			     q->benchmark ? q->benchmark : "any benchmark");
		goto fail;
	}
	out->baseline = ab_strdup(o->baseline);
	out->pairs = ab_calloc(out->configs.n + 1, sizeof(*out->pairs));
	if (out->best)
		pair_best(out, o->baseline, o);
	else
		pair_same_shape(out, o->baseline, o);
	if (!out->n) {
		out->failure = VIEWS_COMPARE_NO_MATCH;
		rc = ab_fail(err, AB_EDATA,
			     "compare: no configuration of another system matches one of '%s' "
			     "(same nodes, devices, batch, precision)",
			     o->baseline);
		goto fail;
	}
	/* the pairs of a table mostly have the same sample sizes: a set of
	 * bootstrap draws serves them all (the same CIs, compare.h), on two
	 * threads */
	tasks = ab_calloc(out->n, sizeof(*tasks));
	for (i = 0; i < out->n; i++)
		pair_sample(&out->pairs[i], &tasks[i].s);
	rc = compare_pairs(tasks, out->n, &out->copts, err);
	for (i = 0; rc == 0 && i < out->n; i++)
		out->pairs[i].res = tasks[i].res;
	free(tasks);
	if (rc < 0)
		goto fail;
	/* one family: every comparison in this table */
	res = ab_calloc(out->n, sizeof(*res));
	for (i = 0; i < out->n; i++)
		res[i] = out->pairs[i].res;
	compare_adjust(res, out->n);
	for (i = 0; i < out->n; i++)
		out->pairs[i].res = res[i];
	free(res);
	if (out->across && (rc = composite(out, err)) < 0)
		goto fail;
	return 0;
fail:
	{
		enum views_compare_failure why = out->failure;
		views_compare_release(out);
		out->failure = why;
	}
	return rc;
}

void views_compare_release(struct views_compare *v)
{
	db_configs_release(&v->configs);
	free(v->baseline);
	free(v->pairs);
	free(v->common);
	free(v->composite);
	memset(v, 0, sizeof(*v));
}

void views_compare_pair_record(const struct views_compare *v, const struct views_pair *p,
			       struct views_record *r)
{
	const struct compare_result *x = &p->res;

	views_rec_str(r, "kind", "comparison");
	views_rec_str(r, "benchmark", p->sys->benchmark);
	views_rec_str(r, "system", p->sys->system);
	views_rec_str(r, "baseline", v->baseline);
	views_rec_str(r, "metric", p->sys->metric);
	views_rec_str(r, "unit", p->sys->unit);
	views_rec_str(r, "better", p->sys->lower_is_better ? "lower" : "higher");
	views_rec_pos(r, "nodes", p->sys->nodes);
	views_rec_pos(r, "devices", p->sys->devices);
	views_rec_pos(r, "global_batch", p->sys->global_batch);
	views_rec_str(r, "precision", p->sys->precision);
	views_rec_pos(r, "baseline_nodes", p->base->nodes);
	views_rec_pos(r, "baseline_devices", p->base->devices);
	views_rec_pos(r, "baseline_global_batch", p->base->global_batch);
	views_rec_str(r, "baseline_precision", p->base->precision);
	views_rec_bool(r, "comparable", p->same_shape);
	views_rec_int(r, "n", (long long)x->n);
	views_rec_int(r, "n_baseline", (long long)x->n_baseline);
	views_rec_num(r, "median", x->median);
	views_rec_num(r, "median_baseline", x->median_baseline);
	views_rec_num(r, "ratio", x->ratio);
	views_rec_num(r, "ratio_ci_low", x->ratio_ci_low);
	views_rec_num(r, "ratio_ci_high", x->ratio_ci_high);
	views_rec_num(r, "speedup", x->speedup);
	views_rec_num(r, "speedup_ci_low", x->speedup_ci_low);
	views_rec_num(r, "speedup_ci_high", x->speedup_ci_high);
	views_rec_num(r, "p_value", x->p_value);
	views_rec_num(r, "p_adjusted", x->p_adjusted);
	views_rec_str(r, "test", compare_mw_method_name(x->mw.method));
	views_rec_str(r, "verdict", compare_verdict_name(x->verdict));
	views_rec_str(r, "bootstrap", compare_boot_method_name(x->boot));
	views_rec_int(r, "seed", (long long)x->seed);
	views_rec_int(r, "resamples", (long long)x->resamples);
	views_rec_num(r, "ci_level", x->level);
}

void views_compare_composite_record(const struct views_compare *v,
				    const struct views_composite *c, struct views_record *r)
{
	views_rec_str(r, "kind", "composite");
	views_rec_str(r, "system", c->system);
	views_rec_str(r, "baseline", v->baseline);
	views_rec_strs(r, "benchmarks", v->common, v->n_common);
	views_rec_int(r, "k", (long long)c->gm.k);
	views_rec_num(r, "geomean_speedup", c->gm.gm);
	views_rec_num(r, "ci_low", c->gm.boot_ci_low);
	views_rec_num(r, "ci_high", c->gm.boot_ci_high);
	views_rec_num(r, "t_ci_low", c->gm.t_ci_low);
	views_rec_num(r, "t_ci_high", c->gm.t_ci_high);
	views_rec_str(r, "verdict", compare_verdict_name(c->verdict));
	views_rec_int(r, "seed", (long long)c->gm.seed);
	views_rec_int(r, "resamples", (long long)c->gm.resamples);
}
