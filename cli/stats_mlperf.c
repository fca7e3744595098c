/*
 * stats_mlperf.c - `accelbench stats --suite mlperf-training`: the
 * official MLPerf training scores (model/mlperf_score.c) as JSON, CSV, or
 * text laid out like the MLCommons results summary (one row per system,
 * one column per benchmark, minutes), followed by the per-benchmark
 * details: runs, failures, scaling factor, our median, energy.
 */
#include "core/compat.h"
#include "commands.h"
#include "model/mlperf_score.h"

#include <math.h>

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static void fmt_num(struct strbuf *sb, json_t *v)
{
	strbuf_reset(sb);
	if (json_is_number(v))
		views_fmt_value(sb, json_number_value(v));
}

/* The summary: systems down, benchmarks across, like summarize_results. */
static void render_summary(json_t *arr, struct strbuf *out)
{
	static const char *const fixed[] = { "Division", "Availability", "Submitter", "System",
					     "Nodes", "Processor", "Accelerator", "# Acc",
					     "Framework" };
	struct table *t = table_new();
	json_t *benches = json_array(), *o;
	struct strbuf v = STRBUF_INIT, key = STRBUF_INIT, last = STRBUF_INIT;
	size_t i, j, nb;

	/* benchmark columns in name order */
	json_array_foreach(arr, i, o) {
		const char *b = str(o, "benchmark");
		int seen = 0;
		json_t *x;
		json_array_foreach(benches, j, x)
			if (!strcmp(json_string_value(x), b))
				seen = 1;
		if (!seen) {
			for (j = 0; j < json_array_size(benches); j++)
				if (strcmp(json_string_value(json_array_get(benches, j)), b) > 0)
					break;
			json_array_insert_new(benches, j, json_string(b));
		}
	}
	nb = json_array_size(benches);
	for (i = 0; i < AB_ARRAY_SIZE(fixed); i++)
		table_add_column(t, fixed[i], i == 4 || i == 7 ? TABLE_RIGHT : TABLE_LEFT);
	for (j = 0; j < nb; j++)
		table_add_column(t, json_string_value(json_array_get(benches, j)), TABLE_RIGHT);
	/* groups arrive sorted by system, benchmark, round: one row per system+round */
	json_array_foreach(arr, i, o) {
		json_t *sc = json_object_get(o, "official_score");
		strbuf_reset(&key);
		strbuf_addf(&key, "%s\n%s\n%s", str(o, "system"), str(o, "round"), str(o, "scaling"));
		if (strcmp(key.buf, last.buf)) {
			strbuf_reset(&last);
			strbuf_addbuf(&last, &key);
			table_add_row(t);
			table_set(t, 0, str(o, "division"));
			table_set(t, 1, str(o, "availability"));
			table_set(t, 2, str(o, "submitter"));
			table_set(t, 3, *str(o, "system_name") ? str(o, "system_name") :
								 str(o, "system"));
			if (json_is_integer(json_object_get(o, "nodes")))
				table_setf(t, 4, "%lld", (long long)json_integer_value(
								  json_object_get(o, "nodes")));
			table_set(t, 5, str(o, "host_cpu"));
			table_set(t, 6, *str(o, "accelerator_model_name") ?
						str(o, "accelerator_model_name") : str(o, "accelerator"));
			if (json_is_integer(json_object_get(o, "devices")))
				table_setf(t, 7, "%lld", (long long)json_integer_value(
								  json_object_get(o, "devices")));
			table_set(t, 8, str(o, "framework"));
		}
		for (j = 0; j < nb; j++)
			if (!strcmp(json_string_value(json_array_get(benches, j)),
				    str(o, "benchmark")))
				break;
		if (json_is_number(sc)) {
			fmt_num(&v, sc);
			table_set(t, AB_ARRAY_SIZE(fixed) + j, v.buf);
		} else {
			table_set(t, AB_ARRAY_SIZE(fixed) + j, "no score");
		}
	}
	strbuf_addstr(out, "MLPerf training, official time-to-train scores (minutes)\n\n");
	table_render_text(t, out);
	table_free(t);
	json_decref(benches);
	strbuf_release(&v);
	strbuf_release(&key);
	strbuf_release(&last);
}

static const char *const detail_cols[] = {
	"system", "benchmark", "round", "runs", "valid", "failed", "official_score",
	"scaling_factor", "median", "official_energy_j", "status", NULL
};

static void render_details(json_t *arr, struct strbuf *out)
{
	static const char *const titles[] = { "system", "benchmark", "round", "runs", "valid",
					      "failed", "score (min)", "scaling", "median (min)",
					      "energy (kJ)", "status" };
	struct table *t = table_new();
	struct strbuf v = STRBUF_INIT;
	json_t *o;
	size_t i, c;

	for (c = 0; detail_cols[c]; c++)
		table_add_column(t, titles[c],
				 c >= 3 && c <= 9 ? TABLE_RIGHT : TABLE_LEFT);
	json_array_foreach(arr, i, o) {
		table_add_row(t);
		for (c = 0; detail_cols[c]; c++) {
			json_t *x = json_object_get(o, detail_cols[c]);
			strbuf_reset(&v);
			if (json_is_string(x)) {
				strbuf_addstr(&v, json_string_value(x));
			} else if (json_is_integer(x)) {
				strbuf_addf(&v, "%lld", (long long)json_integer_value(x));
			} else if (json_is_number(x)) {
				double d = json_number_value(x);
				if (!strcmp(detail_cols[c], "official_energy_j"))
					views_fmt_value(&v, d / 1000.0);
				else if (!strcmp(detail_cols[c], "scaling_factor"))
					num_format_fixed(&v, d, 4, 0);
				else
					views_fmt_value(&v, d);
			}
			if (!strcmp(detail_cols[c], "status") && json_object_get(o, "note")) {
				strbuf_addf(&v, "%s%s", v.len ? "; " : "", str(o, "note"));
			}
			table_set(t, c, v.buf);
		}
	}
	strbuf_addstr(out, "\nPer benchmark (failed runs count as the slowest; energy = "
			   "nodes + switches, x scaling)\n\n");
	table_render_text(t, out);
	table_free(t);
	strbuf_release(&v);
}

int stats_mlperf_print(struct ctx *ctx, const struct db_filter *f, int json, int csv)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	json_t *arr = NULL;
	int rc;

	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	rc = mlperf_score(ctx->db, f, &arr, &err);
	if (rc < 0) {
		rc = cli_status(rc, &err);
		strbuf_release(&err);
		return rc;
	}
	if (json || (csv && json_array_size(arr))) {
		rc = csv ? cli_output_csv(NULL, arr) : cli_output_json(NULL, arr);
	} else if (!json_array_size(arr)) {
		rc = cli_error(AB_EDATA, "stats: no mlperf-training runs match");
	} else {
		render_summary(arr, &out);
		render_details(arr, &out);
		rc = cli_output(NULL, &out);
	}
	json_decref(arr);
	strbuf_release(&err);
	strbuf_release(&out);
	return rc;
}
