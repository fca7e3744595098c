/*
 * cmd_stats.c - `accelbench stats`: per-configuration statistics of one
 * metric (the benchmark's headline metric unless --metric), as a table,
 * CSV or JSON.
 */
#include "core/compat.h"
#include "commands.h"
#include "model/dataset.h"
#include "model/stats.h"

#include <math.h>

static json_t *summary_json(const struct db_config *c, const struct stats_summary *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "suite", json_string(c->suite));
	json_object_set_new(o, "benchmark", json_string(c->benchmark));
	json_object_set_new(o, "system", json_string(c->system));
	json_object_set_new(o, "vendor", cli_json_str(c->vendor));
	json_object_set_new(o, "accelerator", cli_json_str(c->accelerator));
	json_object_set_new(o, "nodes", cli_json_pos(c->nodes));
	json_object_set_new(o, "devices", cli_json_pos(c->devices));
	json_object_set_new(o, "global_batch", cli_json_pos(c->global_batch));
	json_object_set_new(o, "precision", cli_json_str(c->precision));
	json_object_set_new(o, "metric", json_string(c->metric));
	json_object_set_new(o, "unit", json_string(c->unit));
	json_object_set_new(o, "better", json_string(c->lower_is_better ? "lower" : "higher"));
	json_object_set_new(o, "boundary", cli_json_str(c->boundary));
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	json_object_set_new(o, "n_failed", json_integer((json_int_t)s->n_failed));
	json_object_set_new(o, "n_missing", json_integer((json_int_t)c->n_missing));
	json_object_set_new(o, "median", cli_json_num(s->median));
	json_object_set_new(o, "ci_low", cli_json_num(s->ci_low));
	json_object_set_new(o, "ci_high", cli_json_num(s->ci_high));
	json_object_set_new(o, "ci_level", json_real(STATS_LEVEL));
	json_object_set_new(o, "ci_coverage", cli_json_num(s->has_ci ? s->ci_coverage : NAN));
	json_object_set_new(o, "ci_note", s->has_ci ? json_null() : json_string("n too small"));
	json_object_set_new(o, "mean", cli_json_num(s->mean));
	json_object_set_new(o, "sd", cli_json_num(s->sd));
	json_object_set_new(o, "cv", cli_json_num(s->cv));
	json_object_set_new(o, "min", cli_json_num(s->min));
	json_object_set_new(o, "max", cli_json_num(s->max));
	json_object_set_new(o, "q1", cli_json_num(s->q1));
	json_object_set_new(o, "q3", cli_json_num(s->q3));
	json_object_set_new(o, "iqr", cli_json_num(s->iqr));
	json_object_set_new(o, "mad", cli_json_num(s->mad));
	json_object_set_new(o, "n_outliers", json_integer((json_int_t)s->n_outliers));
	return o;
}

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
		cli_fmt_value(&v, s->median);
		strbuf_addf(&v, " %s", c->unit);
	} else {
		strbuf_addstr(&v, "n/a");
	}
	table_set(t, 8, v.buf);
	strbuf_reset(&v);
	if (!s->n)
		strbuf_addstr(&v, c->n_failed ? "all runs failed" : "no values");
	else
		cli_fmt_ci(&v, s->has_ci ? s->ci_low : NAN, s->has_ci ? s->ci_high : NAN);
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
	const char *by = "config";
	const struct opt opts[] = {
		{ 0, "suite", OPT_STRING, &q.suite, "S", "only this suite" },
		{ 'b', "benchmark", OPT_STRING, &q.benchmark, "B", "only this benchmark" },
		{ 0, "system", OPT_STRING, &q.system, "S", "only this system" },
		{ 'm', "metric", OPT_STRING, &q.metric, "M", "metric (default: the headline metric)" },
		{ 0, "by", OPT_STRING, &by, "config", "grouping (only 'config')" },
		{ 0, "json", OPT_FLAG, &json, NULL, "print JSON" },
		{ 0, "csv", OPT_FLAG, &csv, NULL, "print CSV" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct db_configs cs;
	struct table *t = NULL;
	json_t *arr = NULL;
	size_t i;
	int rc;

	if (cli_parse_options("stats", opts, argc, argv, &rc))
		return rc;
	if (strcmp(by, "config"))
		return cli_error(AB_EUSAGE, "stats: --by must be 'config'");
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	if (q.suite && !strcmp(q.suite, "mlperf-training") && !q.metric) {
		/* the official way: olympic mean of the required runs per system */
		struct db_filter f = { q.suite, q.benchmark, q.system };
		return stats_mlperf_print(ctx, &f, json, csv);
	}
	cli_note_invalid(ctx, q.suite, q.benchmark, q.system);
	rc = db_load_configs(ctx->db, &q, &cs, &err);
	if (rc < 0)
		goto done;
	if (!cs.n) {
		rc = ab_fail(&err, AB_EDATA, "stats: no runs match%s%s%s%s%s%s", q.suite ? " suite " : "",
			     q.suite ? q.suite : "", q.benchmark ? " benchmark " : "",
			     q.benchmark ? q.benchmark : "", q.system ? " system " : "",
			     q.system ? q.system : "");
		goto done;
	}
	if (json) {
		arr = json_array();
	} else {
		static const char *const titles[] = { "benchmark", "system", "nodes", "devices",
						      "batch", "precision", "n", "failed", "median",
						      "95% CI of median", "cv %", "outliers" };
		t = table_new();
		for (i = 0; i < AB_ARRAY_SIZE(titles); i++)
			table_add_column(t, titles[i],
					 (i >= 2 && i <= 4) || (i >= 6 && i != 9) ? TABLE_RIGHT
										  : TABLE_LEFT);
	}
	for (i = 0; i < cs.n; i++) {
		struct stats_summary s;
		rc = stats_summarize(cs.v[i].values, cs.v[i].n, cs.v[i].n_failed, &s, NULL, &err);
		if (rc < 0)
			goto done;
		if (arr)
			json_array_append_new(arr, summary_json(&cs.v[i], &s));
		else
			add_row(t, &cs.v[i], &s);
	}
	if (arr) {
		rc = cli_output_json(NULL, arr);
	} else {
		if (csv)
			table_render_csv(t, &out);
		else
			table_render_text(t, &out);
		rc = cli_output(NULL, &out);
	}
	json_decref(arr);
	table_free(t);
	db_configs_release(&cs);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
done:
	if (cs.n || rc < 0)
		db_configs_release(&cs);
	json_decref(arr);
	table_free(t);
	strbuf_release(&out);
	rc = cli_status(rc, &err);
	strbuf_release(&err);
	return rc;
}
