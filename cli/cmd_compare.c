/*
 * cmd_compare.c - `accelbench compare [-b BENCH] --baseline SYS`: options
 * and rendering (text, CSV, JSON) of the views/ comparison table: every
 * other system against the baseline, ratio of medians with a bootstrap CI,
 * Mann-Whitney p with Holm, verdicts, and across benchmarks the composite.
 */
#include "core/compat.h"
#include "commands.h"

#include <math.h>

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

static void pair_row(struct table *t, const struct views_pair *p)
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
	/* one meaning of "x" everywhere: times better than the baseline */
	table_setf(t, 6, "%.3f", r->speedup);
	strbuf_reset(&v);
	if (isfinite(r->speedup_ci_low))
		strbuf_addf(&v, "[%.3f, %.3f]", r->speedup_ci_low, r->speedup_ci_high);
	else
		strbuf_addstr(&v, "n/a");
	table_set(t, 7, v.buf);
	table_setf(t, 8, "%.3g", r->p_value);
	table_setf(t, 9, "%.3g", r->p_adjusted);
	strbuf_reset(&v);
	strbuf_addstr(&v, compare_verdict_name(r->verdict));
	if (r->verdict == COMPARE_INDISTINGUISHABLE &&
	    (r->speedup_ci_low > 1 || r->speedup_ci_high < 1))
		strbuf_addch(&v, '*'); /* explained under the table */
	table_set(t, 10, v.buf);
	strbuf_release(&v);
}

static void composite_text(const struct views_compare *v, struct strbuf *out)
{
	size_t i, k;

	if (!v->n_common) {
		strbuf_addstr(out, "\ncomposite: none: no benchmark was run by every compared system "
				   "and the baseline, so there is no common ground to rank them on\n");
		return;
	}
	strbuf_addf(out, "\ncomposite: geometric mean of speedups over the %zu benchmark%s every "
			 "system ran (", v->n_common, v->n_common == 1 ? "" : "s");
	for (k = 0; k < v->n_common; k++)
		strbuf_addf(out, "%s%s", k ? ", " : "", v->common[k]);
	strbuf_addstr(out, ")\n");
	for (i = 0; i < v->n_composite; i++) {
		const struct compare_geomean *gm = &v->composite[i].gm;
		strbuf_addf(out, "  %-12s %.3fx  [%.3f, %.3f] (runs)", v->composite[i].system, gm->gm,
			    gm->boot_ci_low, gm->boot_ci_high);
		if (isfinite(gm->t_ci_low))
			strbuf_addf(out, "  [%.3f, %.3f] (across benchmarks)", gm->t_ci_low,
				    gm->t_ci_high);
		strbuf_addf(out, "  %s\n", compare_verdict_name(v->composite[i].verdict));
	}
}

static int render(const struct views_compare *v, int json, int csv, int wide, struct strbuf *out)
{
	struct views_record rec = VIEWS_RECORD_INIT;
	size_t i;
	int rc;

	if (json || csv) {
		json_t *arr = json_array();
		for (i = 0; i < v->n; i++) {
			views_record_reset(&rec);
			views_compare_pair_record(v, &v->pairs[i], &rec);
			json_array_append_new(arr, cli_record_json(&rec));
		}
		for (i = 0; i < v->n_composite; i++) {
			views_record_reset(&rec);
			views_compare_composite_record(v, &v->composite[i], &rec);
			json_array_append_new(arr, cli_record_json(&rec));
		}
		views_record_release(&rec);
		rc = csv ? cli_output_csv(NULL, arr) : cli_output_json(NULL, arr);
		json_decref(arr);
		return rc;
	} else {
		static const char *const titles[] = { "benchmark", "system", "configuration", "n/n_base",
						      "median", "baseline", "x better", NULL,
						      "p", "p (Holm)", "verdict" };
		const struct db_config *c0 = v->pairs[0].sys;
		struct table *t = table_new();
		struct strbuf ci = STRBUF_INIT;

		views_fmt_level(&ci, v->copts.level);
		strbuf_addstr(&ci, "% CI");
		for (i = 0; i < AB_ARRAY_SIZE(titles); i++)
			table_add_column(t, titles[i] ? titles[i] : ci.buf,
					 (i >= 3 && i <= 9 && i != 7) ? TABLE_RIGHT : TABLE_LEFT);
		strbuf_release(&ci);
		for (i = 0; i < v->n; i++)
			pair_row(t, &v->pairs[i]);
		{
			if (!v->across)
				strbuf_addf(out, "%s, %s [%s], %s is better; baseline %s\n",
					    c0->benchmark, c0->metric, c0->unit,
					    c0->lower_is_better ? "lower" : "higher", v->baseline);
			else
				strbuf_addf(out, "all benchmarks, headline metrics, best configuration "
						 "per system; baseline %s\n", v->baseline);
			static const size_t drop_one[] = { 0, 8, 3, 5, 4 }, drop_all[] = { 8, 3, 5, 4 };
			struct strbuf foot = STRBUF_INIT;
			cli_table_fit(t, v->across ? drop_all : drop_one,
				      v->across ? AB_ARRAY_SIZE(drop_all) : AB_ARRAY_SIZE(drop_one), wide,
				      &foot);
			table_render_text(t, out);
			size_t nexact = 0;

			for (i = 0; i < v->n; i++)
				nexact += v->pairs[i].res.boot == COMPARE_BOOT_EXACT;
			strbuf_addstr(&foot, "x better = times better than the baseline (median / "
					   "baseline median; baseline / median where lower is "
					   "better)\n");
			views_fmt_level(&foot, v->copts.level);
			strbuf_addstr(&foot, "% bootstrap percentile CI, ");
			if (nexact == v->n)
				strbuf_addf(&foot, "exact (n >= %d)", COMPARE_EXACT_MIN_N);
			else if (nexact)
				strbuf_addf(&foot, "exact where n >= %d, else %zu resamples, seed %lu",
					    COMPARE_EXACT_MIN_N, v->copts.resamples, v->copts.seed);
			else
				strbuf_addf(&foot, "%zu resamples, seed %lu", v->copts.resamples,
					    v->copts.seed);
			strbuf_addf(&foot, "; Mann-Whitney U, Holm over %zu comparisons%s\n", v->n,
				    v->best ? "; (!) = configurations differ" : "");
			for (i = 0; i < v->n; i++) {
				const struct compare_result *r = &v->pairs[i].res;
				if (r->verdict == COMPARE_INDISTINGUISHABLE &&
				    (r->speedup_ci_low > 1 || r->speedup_ci_high < 1))
					break;
			}
			if (i < v->n)
				strbuf_addf(&foot, "* the CI excludes 1, but the Holm-adjusted p is not below "
						 "%g: too few runs for the rank test to call a "
						 "difference, so no verdict\n",
					    v->copts.alpha);
			cli_wrap(out, foot.buf, CLI_WIDTH);
			strbuf_release(&foot);
			if (v->across)
				composite_text(v, out);
		}
		table_free(t);
		return cli_output(NULL, out);
	}
}

int cmd_compare(int argc, char **argv, struct ctx *ctx)
{
	struct db_config_query q = { 0 };
	struct views_compare_opts vo = { 0 };
	long seed = COMPARE_DEFAULT_SEED, resamples = COMPARE_DEFAULT_RESAMPLES;
	double level = STATS_LEVEL;
	int json = 0, csv = 0, best = 0, wide = 0;
	const char *per = NULL;
	const struct opt opts[] = {
		{ 'b', "benchmark", OPT_STRING, &q.benchmark, "B",
		  "the benchmark (default: every benchmark, with a composite per system)" },
		{ 0, "baseline", OPT_STRING, &vo.baseline, "SYS", "the reference system (required)" },
		{ 'm', "metric", OPT_STRING, &q.metric, "M", "metric (default: the headline metric)" },
		{ 0, "suite", OPT_STRING, &q.suite, "S", "the suite, when two have the benchmark" },
		{ 0, "best", OPT_FLAG, &best, NULL,
		  "pair each system's best configuration with the baseline's best (flagged)" },
		{ 0, "seed", OPT_INT, &seed, "N", "bootstrap seed (default 20240917)" },
		{ 0, "resamples", OPT_INT, &resamples, "N", "bootstrap resamples (default 10000)" },
		{ 0, "level", OPT_DOUBLE, &level, "L",
		  "confidence level of the ratio's CI, in (0, 1) (default 0.95)" },
		{ 0, "per", OPT_STRING, &per, "system|device|node",
		  "values per accelerator or node (default: system, as measured)" },
		{ 0, "json", OPT_FLAG, &json, NULL, "print JSON" },
		{ 0, "csv", OPT_FLAG, &csv, NULL, "print CSV" },
		{ 0, "wide", OPT_FLAG, &wide, NULL, "every column, however wide (default: fit 120)" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct compare_opts copts;
	struct views_compare v;
	int rc = 0;

	if (cli_parse_options("compare", opts, argc, argv, &rc))
		return rc;
	if (!vo.baseline)
		return cli_error(AB_EUSAGE, "compare: --baseline SYS is required");
	if (per && strcmp(per, "system") && strcmp(per, "device") && strcmp(per, "node"))
		return cli_error(AB_EUSAGE, "compare: --per must be system, device or node");
	if (seed < 0 || resamples < COMPARE_MIN_RESAMPLES)
		return cli_error(AB_EUSAGE, "compare: --resamples must be at least %d",
				 COMPARE_MIN_RESAMPLES);
	if (!(level > 0 && level < 1))
		return cli_error(AB_EUSAGE, "compare: --level must lie between 0 and 1 (exclusive), "
					    "e.g. 0.9, not %g", level);
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	vo.best = best;
	compare_opts_init(&copts);
	copts.seed = (unsigned long)seed;
	copts.resamples = (size_t)resamples;
	copts.level = level;
	vo.copts = &copts;
	if ((rc = cli_check_names(ctx, "compare", q.suite, q.benchmark, NULL, q.metric, vo.baseline)) != AB_OK)
		return rc;
	cli_note_invalid(ctx, q.suite, q.benchmark, NULL);
	/* the report's normalisation (model/dataset.h), so its ratios can be checked */
	if (per)
		db_configs_set_per(ctx->db, !strcmp(per, "device") ? DB_PER_DEVICE
					    : !strcmp(per, "node")  ? DB_PER_NODE
								    : DB_PER_SYSTEM);
	rc = views_compare_build(ctx->db, &q, &vo, &v, &err);
	if (rc < 0) {
		if (v.failure == VIEWS_COMPARE_NO_MATCH)
			strbuf_addstr(&err, "; try --best");
		rc = cli_status(rc, &err);
	} else {
		rc = render(&v, json, csv, wide, &out);
		views_compare_release(&v);
	}
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}
