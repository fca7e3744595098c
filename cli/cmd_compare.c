/*
 * cmd_compare.c - `accelbench compare -b BENCH --baseline SYS`: every
 * other system's configurations against the baseline's configuration of
 * the same shape (nodes, devices, global batch, precision): ratio of
 * medians with a bootstrap CI, Mann-Whitney p, Holm-adjusted over the
 * whole table, and a verdict.  --best pairs each system's best
 * configuration with the baseline's best instead, flagged as such.
 */
#include "core/compat.h"
#include "commands.h"
#include "model/compare.h"
#include "model/dataset.h"

#include <math.h>

struct pairing {
	const struct db_config *sys, *base;
	int same_shape;
	struct compare_result res;
};

static int is_system(const struct db_config *c, const char *name)
{
	return !strcmp(c->system, name) || (c->display_name && !strcmp(c->display_name, name));
}

static void shape(struct strbuf *sb, const struct db_config *c)
{
	const char *sep = "";

	if (c->nodes > 0) {
		strbuf_addf(sb, "%ldn", c->nodes);
		sep = " ";
	}
	if (c->devices > 0) {
		strbuf_addf(sb, "%s%ldd", sep, c->devices);
		sep = " ";
	}
	if (c->global_batch > 0) {
		strbuf_addf(sb, "%sb%ld", sep, c->global_batch);
		sep = " ";
	}
	if (c->precision)
		strbuf_addf(sb, "%s%s", sep, c->precision);
}

static json_t *pair_json(const struct pairing *p, const char *baseline)
{
	const struct compare_result *r = &p->res;
	json_t *o = json_object();

	json_object_set_new(o, "kind", json_string("comparison"));
	json_object_set_new(o, "benchmark", json_string(p->sys->benchmark));
	json_object_set_new(o, "system", json_string(p->sys->system));
	json_object_set_new(o, "baseline", json_string(baseline));
	json_object_set_new(o, "metric", json_string(p->sys->metric));
	json_object_set_new(o, "unit", json_string(p->sys->unit));
	json_object_set_new(o, "better", json_string(p->sys->lower_is_better ? "lower" : "higher"));
	json_object_set_new(o, "nodes", cli_json_pos(p->sys->nodes));
	json_object_set_new(o, "devices", cli_json_pos(p->sys->devices));
	json_object_set_new(o, "global_batch", cli_json_pos(p->sys->global_batch));
	json_object_set_new(o, "precision", cli_json_str(p->sys->precision));
	json_object_set_new(o, "baseline_nodes", cli_json_pos(p->base->nodes));
	json_object_set_new(o, "baseline_devices", cli_json_pos(p->base->devices));
	json_object_set_new(o, "baseline_global_batch", cli_json_pos(p->base->global_batch));
	json_object_set_new(o, "baseline_precision", cli_json_str(p->base->precision));
	json_object_set_new(o, "comparable", json_boolean(p->same_shape));
	json_object_set_new(o, "n", json_integer((json_int_t)r->n));
	json_object_set_new(o, "n_baseline", json_integer((json_int_t)r->n_baseline));
	json_object_set_new(o, "median", cli_json_num(r->median));
	json_object_set_new(o, "median_baseline", cli_json_num(r->median_baseline));
	json_object_set_new(o, "ratio", cli_json_num(r->ratio));
	json_object_set_new(o, "ratio_ci_low", cli_json_num(r->ratio_ci_low));
	json_object_set_new(o, "ratio_ci_high", cli_json_num(r->ratio_ci_high));
	json_object_set_new(o, "speedup", cli_json_num(r->speedup));
	json_object_set_new(o, "speedup_ci_low", cli_json_num(r->speedup_ci_low));
	json_object_set_new(o, "speedup_ci_high", cli_json_num(r->speedup_ci_high));
	json_object_set_new(o, "p_value", cli_json_num(r->p_value));
	json_object_set_new(o, "p_adjusted", cli_json_num(r->p_adjusted));
	json_object_set_new(o, "test", json_string(compare_mw_method_name(r->mw.method)));
	json_object_set_new(o, "verdict", json_string(compare_verdict_name(r->verdict)));
	json_object_set_new(o, "bootstrap", json_string(compare_boot_method_name(r->boot)));
	json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
	json_object_set_new(o, "resamples", json_integer((json_int_t)r->resamples));
	json_object_set_new(o, "ci_level", json_real(r->level));
	return o;
}

static void pair_row(struct table *t, const struct pairing *p)
{
	const struct compare_result *r = &p->res;
	struct strbuf v = STRBUF_INIT;

	table_add_row(t);
	table_set(t, 0, p->sys->benchmark);
	table_set(t, 1, p->sys->system);
	shape(&v, p->sys);
	if (!p->same_shape) {
		strbuf_addstr(&v, " vs ");
		shape(&v, p->base);
		strbuf_addstr(&v, " (!)");
	}
	table_set(t, 2, v.buf);
	table_setf(t, 3, "%zu/%zu", r->n, r->n_baseline);
	strbuf_reset(&v);
	views_fmt_value(&v, r->median);
	table_set(t, 4, v.buf);
	strbuf_reset(&v);
	views_fmt_value(&v, r->median_baseline);
	table_set(t, 5, v.buf);
	table_setf(t, 6, "%.3f", r->ratio);
	strbuf_reset(&v);
	if (isfinite(r->ratio_ci_low))
		strbuf_addf(&v, "[%.3f, %.3f]", r->ratio_ci_low, r->ratio_ci_high);
	else
		strbuf_addstr(&v, "n/a");
	table_set(t, 7, v.buf);
	table_setf(t, 8, "%.3g", r->p_value);
	table_setf(t, 9, "%.3g", r->p_adjusted);
	table_set(t, 10, compare_verdict_name(r->verdict));
	strbuf_release(&v);
}

/* Benchmarks (distinct, in configuration order) of the pairs. */
static size_t pair_benchmarks(const struct pairing *pairs, size_t np, const char **out)
{
	size_t i, k, n = 0;

	for (i = 0; i < np; i++) {
		for (k = 0; k < n && strcmp(out[k], pairs[i].sys->benchmark); k++)
			;
		if (k == n)
			out[n++] = pairs[i].sys->benchmark;
	}
	return n;
}

static const struct pairing *pair_of(const struct pairing *pairs, size_t np, const char *system,
				     const char *benchmark)
{
	size_t i;

	for (i = 0; i < np; i++)
		if (!strcmp(pairs[i].sys->system, system) && !strcmp(pairs[i].sys->benchmark, benchmark))
			return &pairs[i];
	return NULL;
}

/*
 * The composite of each system: geometric mean of its per-benchmark
 * speedups over the benchmarks that EVERY compared system ran with the
 * baseline (so systems are ranked on the same workloads), with a joint
 * bootstrap CI over the runs and the t interval across benchmarks.
 */
static int composite(const struct pairing *pairs, size_t np, const char *baseline,
		     const struct compare_opts *copts, json_t *arr, struct strbuf *text,
		     struct strbuf *err)
{
	const char **bench = ab_calloc(np + 1, sizeof(*bench)), **common;
	const char **systems = ab_calloc(np + 1, sizeof(*systems));
	size_t nb = pair_benchmarks(pairs, np, bench), ns = 0, nc = 0, i, k;
	int rc = 0;

	for (i = 0; i < np; i++) {
		for (k = 0; k < ns && strcmp(systems[k], pairs[i].sys->system); k++)
			;
		if (k == ns)
			systems[ns++] = pairs[i].sys->system;
	}
	common = ab_calloc(nb + 1, sizeof(*common));
	for (k = 0; k < nb; k++) {
		for (i = 0; i < ns && pair_of(pairs, np, systems[i], bench[k]); i++)
			;
		if (i == ns)
			common[nc++] = bench[k];
	}
	if (text) {
		strbuf_addf(text, "\ncomposite: geometric mean of speedups over the %zu benchmark%s every "
				  "system ran (", nc, nc == 1 ? "" : "s");
		for (k = 0; k < nc; k++)
			strbuf_addf(text, "%s%s", k ? ", " : "", common[k]);
		strbuf_addstr(text, ")\n");
	}
	for (i = 0; nc && i < ns && rc == 0; i++) {
		struct compare_sample *cs = ab_calloc(nc, sizeof(*cs));
		struct compare_geomean gm;
		json_t *names;
		const char *verdict;

		for (k = 0; k < nc; k++) {
			const struct pairing *p = pair_of(pairs, np, systems[i], common[k]);
			cs[k].x = p->sys->values;
			cs[k].n = p->sys->n;
			cs[k].base = p->base->values;
			cs[k].nbase = p->base->n;
			cs[k].better = p->sys->lower_is_better ? STATS_LOWER_IS_BETTER
							       : STATS_HIGHER_IS_BETTER;
		}
		rc = compare_geomean_boot(cs, nc, copts, &gm, err);
		free(cs);
		if (rc < 0)
			break;
		verdict = gm.boot_ci_low > 1 ? "faster" : gm.boot_ci_high < 1 ? "slower"
									    : "indistinguishable";
		if (arr) {
			json_t *o = json_object();
			names = json_array();
			for (k = 0; k < nc; k++)
				json_array_append_new(names, json_string(common[k]));
			json_object_set_new(o, "kind", json_string("composite"));
			json_object_set_new(o, "system", json_string(systems[i]));
			json_object_set_new(o, "baseline", json_string(baseline));
			json_object_set_new(o, "benchmarks", names);
			json_object_set_new(o, "k", json_integer((json_int_t)gm.k));
			json_object_set_new(o, "geomean_speedup", cli_json_num(gm.gm));
			json_object_set_new(o, "ci_low", cli_json_num(gm.boot_ci_low));
			json_object_set_new(o, "ci_high", cli_json_num(gm.boot_ci_high));
			json_object_set_new(o, "t_ci_low", cli_json_num(gm.t_ci_low));
			json_object_set_new(o, "t_ci_high", cli_json_num(gm.t_ci_high));
			json_object_set_new(o, "verdict", json_string(verdict));
			json_object_set_new(o, "seed", json_integer((json_int_t)gm.seed));
			json_object_set_new(o, "resamples", json_integer((json_int_t)gm.resamples));
			json_array_append_new(arr, o);
		} else {
			strbuf_addf(text, "  %-12s %.3fx  [%.3f, %.3f] (runs)", systems[i], gm.gm,
				    gm.boot_ci_low, gm.boot_ci_high);
			if (isfinite(gm.t_ci_low))
				strbuf_addf(text, "  [%.3f, %.3f] (across benchmarks)", gm.t_ci_low,
					    gm.t_ci_high);
			strbuf_addf(text, "  %s\n", verdict);
		}
	}
	free(bench);
	free(systems);
	free(common);
	return rc;
}

int cmd_compare(int argc, char **argv, struct ctx *ctx)
{
	struct db_config_query q = { 0 };
	const char *baseline = NULL;
	long seed = COMPARE_DEFAULT_SEED, resamples = COMPARE_DEFAULT_RESAMPLES;
	int json = 0, csv = 0, best = 0;
	const struct opt opts[] = {
		{ 'b', "benchmark", OPT_STRING, &q.benchmark, "B", "the benchmark (required)" },
		{ 0, "baseline", OPT_STRING, &baseline, "SYS", "the reference system (required)" },
		{ 'm', "metric", OPT_STRING, &q.metric, "M", "metric (default: the headline metric)" },
		{ 0, "suite", OPT_STRING, &q.suite, "S", "the suite, when two have the benchmark" },
		{ 0, "best", OPT_FLAG, &best, NULL,
		  "pair each system's best configuration with the baseline's best (flagged)" },
		{ 0, "seed", OPT_INT, &seed, "N", "bootstrap seed (default 20240917)" },
		{ 0, "resamples", OPT_INT, &resamples, "N", "bootstrap resamples (default 10000)" },
		{ 0, "json", OPT_FLAG, &json, NULL, "print JSON" },
		{ 0, "csv", OPT_FLAG, &csv, NULL, "print CSV" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct db_configs cs = { 0 };
	struct pairing *pairs = NULL;
	struct compare_opts copts;
	size_t i, j, np = 0, nbase = 0;
	int rc = 0;

	if (cli_parse_options("compare", opts, argc, argv, &rc))
		return rc;
	if (!baseline)
		return cli_error(AB_EUSAGE, "compare: --baseline SYS is required");
	/* across benchmarks only best configurations can be paired */
	if (!q.benchmark)
		best = 1;
	if (seed < 0 || resamples < COMPARE_MIN_RESAMPLES)
		return cli_error(AB_EUSAGE, "compare: --resamples must be at least %d",
				 COMPARE_MIN_RESAMPLES);
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	compare_opts_init(&copts);
	copts.seed = (unsigned long)seed;
	copts.resamples = (size_t)resamples;
	cli_note_invalid(ctx, q.suite, q.benchmark, NULL);
	rc = db_load_configs(ctx->db, &q, &cs, &err);
	if (rc < 0)
		goto fail;
	for (i = 0; i < cs.n; i++)
		if (is_system(&cs.v[i], baseline))
			nbase++;
	if (!cs.n) {
		rc = ab_fail(&err, AB_EDATA, "compare: no runs of benchmark '%s'",
			     q.benchmark ? q.benchmark : "(any)");
		goto fail;
	}
	if (!nbase) {
		rc = ab_fail(&err, AB_EDATA, "compare: baseline '%s' has no runs of '%s'", baseline,
			     q.benchmark ? q.benchmark : "any benchmark");
		goto fail;
	}
	pairs = ab_calloc(cs.n, sizeof(*pairs));
	if (best) {
		/* per benchmark: each system's best against the baseline's best */
		const struct db_config **pick = ab_calloc(cs.n + 1, sizeof(*pick));
		for (i = 0; i < cs.n; i++) {
			const struct db_config *b = NULL;
			size_t nb;
			if (i && !strcmp(cs.v[i - 1].benchmark, cs.v[i].benchmark))
				continue; /* one pass per benchmark */
			nb = db_configs_best(&cs, cs.v[i].benchmark, NULL, NULL, pick);
			for (j = 0; j < nb; j++)
				if (is_system(pick[j], baseline))
					b = pick[j];
			for (j = 0; b && j < nb; j++) {
				if (pick[j] == b)
					continue;
				pairs[np].sys = pick[j];
				pairs[np].base = b;
				pairs[np].same_shape = db_config_same_shape(pick[j], b);
				np++;
			}
		}
		free(pick);
	} else {
		for (i = 0; i < cs.n; i++) {
			const struct db_config *s = &cs.v[i];
			if (is_system(s, baseline) || !s->n)
				continue;
			for (j = 0; j < cs.n; j++) {
				if (is_system(&cs.v[j], baseline) && cs.v[j].n &&
				    db_config_same_shape(s, &cs.v[j])) {
					pairs[np].sys = s;
					pairs[np].base = &cs.v[j];
					pairs[np].same_shape = 1;
					np++;
					break;
				}
			}
		}
	}
	if (!np) {
		rc = ab_fail(&err, AB_EDATA,
			     "compare: no configuration of another system matches one of '%s' "
			     "(same nodes, devices, batch, precision); try --best",
			     baseline);
		goto fail;
	}
	for (i = 0; i < np; i++) {
		rc = compare_pair(pairs[i].sys->values, pairs[i].sys->n, pairs[i].base->values,
				  pairs[i].base->n,
				  pairs[i].sys->lower_is_better ? STATS_LOWER_IS_BETTER
								: STATS_HIGHER_IS_BETTER,
				  &copts, &pairs[i].res, &err);
		if (rc < 0)
			goto fail;
	}
	/* one family: every comparison in this table */
	{
		struct compare_result *res = ab_calloc(np, sizeof(*res));
		for (i = 0; i < np; i++)
			res[i] = pairs[i].res;
		compare_adjust(res, np);
		for (i = 0; i < np; i++)
			pairs[i].res = res[i];
		free(res);
	}
	if (json) {
		json_t *arr = json_array();
		for (i = 0; i < np; i++)
			json_array_append_new(arr, pair_json(&pairs[i], baseline));
		rc = q.benchmark ? 0 : composite(pairs, np, baseline, &copts, arr, NULL, &err);
		if (rc < 0) {
			json_decref(arr);
			goto fail;
		}
		rc = cli_output_json(NULL, arr);
		json_decref(arr);
	} else {
		static const char *const titles[] = { "benchmark", "system", "configuration", "n/n_base",
						      "median", "baseline", "ratio", "95% CI",
						      "p", "p (Holm)", "verdict" };
		struct table *t = table_new();
		for (i = 0; i < AB_ARRAY_SIZE(titles); i++)
			table_add_column(t, titles[i], (i >= 3 && i <= 9 && i != 7) ? TABLE_RIGHT
										    : TABLE_LEFT);
		for (i = 0; i < np; i++)
			pair_row(t, &pairs[i]);
		if (csv) {
			table_render_csv(t, &out);
		} else {
			if (q.benchmark)
				strbuf_addf(&out, "%s, %s [%s], %s is better; baseline %s\n",
					    cs.v[0].benchmark, cs.v[0].metric, cs.v[0].unit,
					    cs.v[0].lower_is_better ? "lower" : "higher", baseline);
			else
				strbuf_addf(&out, "all benchmarks, headline metrics, best configuration "
						  "per system; baseline %s\n", baseline);
			table_render_text(t, &out);
			size_t nexact = 0;

			for (i = 0; i < np; i++)
				nexact += pairs[i].res.boot == COMPARE_BOOT_EXACT;
			strbuf_addf(&out, "ratio = median / baseline median; %.0f%% bootstrap percentile CI, ",
				    100 * copts.level);
			if (nexact == np)
				strbuf_addf(&out, "exact (n >= %d)", COMPARE_EXACT_MIN_N);
			else if (nexact)
				strbuf_addf(&out, "exact where n >= %d, else %zu resamples, seed %lu",
					    COMPARE_EXACT_MIN_N, copts.resamples, copts.seed);
			else
				strbuf_addf(&out, "%zu resamples, seed %lu", copts.resamples, copts.seed);
			strbuf_addf(&out, "; Mann-Whitney U, Holm over %zu comparisons%s\n", np,
				    best ? "; (!) = configurations differ" : "");
			if (!q.benchmark) {
				rc = composite(pairs, np, baseline, &copts, NULL, &out, &err);
				if (rc < 0) {
					table_free(t);
					goto fail;
				}
			}
		}
		table_free(t);
		rc = cli_output(NULL, &out);
	}
	free(pairs);
	db_configs_release(&cs);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
fail:
	free(pairs);
	db_configs_release(&cs);
	strbuf_release(&out);
	rc = cli_status(rc, &err);
	strbuf_release(&err);
	return rc;
}
