/*
 * cmd_stats.c - `accelbench stats`: per-configuration statistics of one
 * metric (the benchmark's headline metric unless --metric), as a table,
 * CSV or JSON, rendered from the views/ statistics table.
 */
#include "core/compat.h"
#include "commands.h"

#include <math.h>

static void add_row(struct table *t, const struct db_config *c, const struct stats_summary *s)
{
	struct strbuf v = STRBUF_INIT;

	table_add_row(t);
	table_set(t, 0, c->benchmark);
	table_set(t, 1, c->system);
	if (c->nodes > 0)
		table_setf(t, 2, "%ld", c->nodes);
	if (c->devices > 0)
		table_setf(t, 3, "%ld", c->devices);
	if (c->global_batch > 0)
		table_setf(t, 4, "%ld", c->global_batch);
	table_set(t, 5, c->precision);
	table_setf(t, 6, "%zu", s->n);
	table_setf(t, 7, "%zu", s->n_failed);
	if (s->n) {
		views_fmt_value(&v, s->median);
		strbuf_addf(&v, " %s", c->unit);
	} else {
		strbuf_addstr(&v, "n/a");
	}
	table_set(t, 8, v.buf);
	strbuf_reset(&v);
	if (!s->n)
		strbuf_addstr(&v, c->n_failed ? "all runs failed" : "no values");
	else
		views_fmt_ci(&v, s->has_ci ? s->ci_low : NAN, s->has_ci ? s->ci_high : NAN);
	table_set(t, 9, v.buf);
	strbuf_reset(&v);
	if (isfinite(s->cv))
		strbuf_addf(&v, "%.1f", 100 * s->cv);
	else
		strbuf_addstr(&v, "n/a");
	table_set(t, 10, v.buf);
	table_setf(t, 11, "%zu", s->n_outliers);
	strbuf_release(&v);
}

int cmd_stats(int argc, char **argv, struct ctx *ctx)
{
	struct db_config_query q = { 0 };
	int json = 0, csv = 0;
	const char *by = "config", *per = NULL;
	double level = STATS_LEVEL;
	const struct opt opts[] = {
		{ 0, "suite", OPT_STRING, &q.suite, "S", "only this suite" },
		{ 'b', "benchmark", OPT_STRING, &q.benchmark, "B", "only this benchmark" },
		{ 0, "system", OPT_STRING, &q.system, "S", "only this system" },
		{ 'm', "metric", OPT_STRING, &q.metric, "M", "metric (default: the headline metric)" },
		{ 0, "by", OPT_STRING, &by, "config", "grouping (only 'config')" },
		{ 0, "per", OPT_STRING, &per, "system|device|node",
		  "values per accelerator or node (default: system, as measured)" },
		{ 0, "level", OPT_DOUBLE, &level, "L",
		  "confidence level of the median's CI, in (0, 1) (default 0.95)" },
		{ 0, "json", OPT_FLAG, &json, NULL, "print JSON" },
		{ 0, "csv", OPT_FLAG, &csv, NULL, "print CSV" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct views_record rec = VIEWS_RECORD_INIT;
	struct views_stats v;
	struct table *t = NULL;
	json_t *arr = NULL;
	size_t i;
	int rc;

	if (cli_parse_options("stats", opts, argc, argv, &rc))
		return rc;
	if (strcmp(by, "config"))
		return cli_error(AB_EUSAGE, "stats: --by must be 'config'");
	if (per && strcmp(per, "system") && strcmp(per, "device") && strcmp(per, "node"))
		return cli_error(AB_EUSAGE, "stats: --per must be system, device or node");
	if (!(level > 0 && level < 1))
		return cli_error(AB_EUSAGE, "stats: --level must lie between 0 and 1 (exclusive), "
					    "e.g. 0.9, not %g", level);
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	if ((rc = cli_check_names(ctx, "stats", q.suite, q.benchmark, q.system, q.metric, NULL)) != AB_OK)
		return rc;
	if (q.suite && !strcmp(q.suite, "mlperf-training") && !q.metric) {
		/* the official way: olympic mean of the required runs per system */
		if (level != STATS_LEVEL)
			return cli_error(AB_EUSAGE, "stats: an official MLPerf training score has no "
						    "CI, so --level does not apply (-m METRIC, or -b "
						    "BENCH without --suite, gives medians with CIs)");
		struct db_filter f = { q.suite, q.benchmark, q.system };
		return stats_mlperf_print(ctx, &f, json, csv);
	}
	cli_note_invalid(ctx, q.suite, q.benchmark, q.system);
	/* the report's normalisation (model/dataset.h), so its numbers can be checked */
	if (per)
		db_configs_set_per(ctx->db, !strcmp(per, "device") ? DB_PER_DEVICE
					    : !strcmp(per, "node")  ? DB_PER_NODE
								    : DB_PER_SYSTEM);
	rc = views_stats_build(ctx->db, &q, &v, &err);
	if (rc < 0) {
		rc = cli_status(rc, &err);
		strbuf_release(&err);
		return rc;
	}
	if (level != STATS_LEVEL)
		views_stats_set_level(&v, level);
	if (json || csv) {
		arr = json_array();
	} else {
		static const char *const titles[] = { "benchmark", "system", "nodes", "devices",
						      "batch", "precision", "n", "failed", "median",
						      NULL, "cv %", "outliers" };
		struct strbuf ci = STRBUF_INIT;

		views_fmt_level(&ci, level);
		strbuf_addstr(&ci, "% CI of median");
		t = table_new();
		for (i = 0; i < AB_ARRAY_SIZE(titles); i++)
			table_add_column(t, titles[i] ? titles[i] : ci.buf,
					 (i >= 2 && i <= 4) || (i >= 6 && i != 9) ? TABLE_RIGHT
										  : TABLE_LEFT);
		strbuf_release(&ci);
	}
	for (i = 0; i < v.n; i++) {
		if (arr) {
			views_record_reset(&rec);
			views_stats_record(&v.rows[i], &rec);
			json_array_append_new(arr, cli_record_json(&rec));
		} else {
			add_row(t, v.rows[i].c, &v.rows[i].s);
		}
	}
	if (arr) {
		rc = csv ? cli_output_csv(NULL, arr) : cli_output_json(NULL, arr);
	} else {
		table_render_text(t, &out);
		rc = cli_output(NULL, &out);
	}
	json_decref(arr);
	table_free(t);
	views_record_release(&rec);
	views_stats_release(&v);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}
