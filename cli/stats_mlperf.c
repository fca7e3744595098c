/*
 * stats_mlperf.c - `accelbench stats --suite mlperf-training`: the
 * official MLPerf training scores (model/mlperf_score.c) as JSON, CSV, or
 * text laid out like the MLCommons results summary (one row per system,
 * one column per benchmark, minutes), followed by the per-benchmark
 * details: runs, failures, scaling factor, our median, energy.  The text
 * renders the shared view (views/mlperf.c, also the report's); JSON and
 * CSV carry the model's records unchanged.
 */
#include "core/compat.h"
#include "commands.h"
#include "model/mlperf_score.h"

#include <math.h>

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* The summary: systems down, benchmarks across, like summarize_results. */
static void render_summary(const struct views_mlperf *v, struct strbuf *out)
{
	static const char *const fixed[] = { "Division", "Availability", "Submitter", "System",
					     "Nodes", "Processor", "Accelerator", "# Acc",
					     "Framework" };
	struct table *t = table_new();
	struct strbuf num = STRBUF_INIT;
	const struct views_mlperf_row *last = NULL;
	size_t i, j;

	for (i = 0; i < AB_ARRAY_SIZE(fixed); i++)
		table_add_column(t, fixed[i], i == 4 || i == 7 ? TABLE_RIGHT : TABLE_LEFT);
	for (j = 0; j < v->nbenchmarks; j++)
		table_add_column(t, v->benchmarks[j], TABLE_RIGHT);
	/* groups arrive sorted by system, benchmark, round: one row per system+round */
	for (i = 0; i < v->n; i++) {
		const struct views_mlperf_row *o = &v->rows[i];

		if (!last || !views_mlperf_same_entry(last, o)) {
			last = o;
			table_add_row(t);
			table_set(t, 0, or_empty(o->division));
			table_set(t, 1, or_empty(o->availability));
			table_set(t, 2, or_empty(o->submitter));
			table_set(t, 3, o->system_name && *o->system_name ? o->system_name
									   : or_empty(o->system));
			if (o->nodes > 0)
				table_setf(t, 4, "%ld", o->nodes);
			table_set(t, 5, or_empty(o->host_cpu));
			table_set(t, 6, o->accelerator_model_name && *o->accelerator_model_name
						? o->accelerator_model_name
						: or_empty(o->accelerator));
			if (o->devices > 0)
				table_setf(t, 7, "%ld", o->devices);
			table_set(t, 8, or_empty(o->framework));
		}
		j = views_mlperf_bench_index(v, o->benchmark);
		if (isfinite(o->official_score)) {
			strbuf_reset(&num);
			views_fmt_value(&num, o->official_score);
			table_set(t, AB_ARRAY_SIZE(fixed) + j, num.buf);
		} else {
			table_set(t, AB_ARRAY_SIZE(fixed) + j, "no score");
		}
	}
	strbuf_addstr(out, "MLPerf training, official time-to-train scores (minutes)\n\n");
	table_render_text(t, out);
	table_free(t);
	strbuf_release(&num);
}

static void render_details(const struct views_mlperf *v, struct strbuf *out)
{
	static const char *const titles[] = { "system", "benchmark", "round", "runs", "valid",
					      "failed", "score (min)", "scaling", "median (min)",
					      "energy (kJ)", "status" };
	struct table *t = table_new();
	struct strbuf s = STRBUF_INIT;
	size_t i, c;

	for (c = 0; c < AB_ARRAY_SIZE(titles); c++)
		table_add_column(t, titles[c], c >= 3 && c <= 9 ? TABLE_RIGHT : TABLE_LEFT);
	for (i = 0; i < v->n; i++) {
		const struct views_mlperf_row *o = &v->rows[i];

		table_add_row(t);
		table_set(t, 0, or_empty(o->system));
		table_set(t, 1, or_empty(o->benchmark));
		table_set(t, 2, or_empty(o->round));
		table_setf(t, 3, "%zu", o->runs);
		table_setf(t, 4, "%zu", o->valid);
		table_setf(t, 5, "%zu", o->failed);
		strbuf_reset(&s);
		if (isfinite(o->official_score))
			views_fmt_value(&s, o->official_score);
		table_set(t, 6, s.buf);
		strbuf_reset(&s);
		if (isfinite(o->scaling_factor))
			num_format_fixed(&s, o->scaling_factor, 4, 0);
		table_set(t, 7, s.buf);
		strbuf_reset(&s);
		if (isfinite(o->median))
			views_fmt_value(&s, o->median);
		table_set(t, 8, s.buf);
		strbuf_reset(&s);
		if (isfinite(o->official_energy_j))
			views_fmt_value(&s, o->official_energy_j / 1000.0);
		table_set(t, 9, s.buf);
		strbuf_reset(&s);
		strbuf_addstr(&s, or_empty(o->status));
		if (o->note)
			strbuf_addf(&s, "%s%s", s.len ? "; " : "", o->note);
		table_set(t, 10, s.buf);
	}
	strbuf_addstr(out, "\nPer benchmark (failed runs count as the slowest; energy = "
			   "nodes + switches, x scaling)\n\n");
	table_render_text(t, out);
	table_free(t);
	strbuf_release(&s);
}

int stats_mlperf_print(struct ctx *ctx, const struct db_filter *f, int json, int csv)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	int rc;

	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	if (json || csv) {
		/* the model's records as they are: every field, raw numbers */
		json_t *arr = NULL;

		rc = mlperf_score(ctx->db, f, &arr, &err);
		if (rc < 0)
			rc = cli_status(rc, &err);
		else if (json || json_array_size(arr))
			rc = csv ? cli_output_csv(NULL, arr) : cli_output_json(NULL, arr);
		else
			rc = cli_error(AB_EDATA, "stats: no mlperf-training runs match");
		json_decref(arr);
	} else {
		struct views_mlperf v;

		rc = views_mlperf_build(ctx->db, f, &v, &err);
		if (rc < 0) {
			rc = cli_status(rc, &err);
		} else if (!v.n) {
			rc = cli_error(AB_EDATA, "stats: no mlperf-training runs match");
			views_mlperf_release(&v);
		} else {
			render_summary(&v, &out);
			render_details(&v, &out);
			rc = cli_output(NULL, &out);
			views_mlperf_release(&v);
		}
	}
	strbuf_release(&err);
	strbuf_release(&out);
	return rc;
}
