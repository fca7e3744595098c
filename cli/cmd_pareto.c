/*
 * cmd_pareto.c - `accelbench pareto -b BENCH`: each configuration's median
 * throughput (the headline metric, or -x) against its median energy
 * efficiency (-y, default energy_efficiency), and the Pareto front:
 * configurations no other one beats on both (the views/ Pareto join).
 */
#include "core/compat.h"
#include "commands.h"

#include <math.h>

int cmd_pareto(int argc, char **argv, struct ctx *ctx)
{
	struct db_config_query qx = { 0 };
	const char *ymetric = "energy_efficiency";
	int json = 0, csv = 0;
	const struct opt opts[] = {
		{ 'b', "benchmark", OPT_STRING, &qx.benchmark, "B", "the benchmark (required)" },
		{ 'x', "x-metric", OPT_STRING, &qx.metric, "M", "x metric (default: headline)" },
		{ 'y', "y-metric", OPT_STRING, &ymetric, "M", "y metric (default: energy_efficiency)" },
		{ 0, "suite", OPT_STRING, &qx.suite, "S", "the suite, when two have the benchmark" },
		{ 0, "json", OPT_FLAG, &json, NULL, "print JSON" },
		{ 0, "csv", OPT_FLAG, &csv, NULL, "print CSV" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct views_pareto pv;
	size_t i;
	int rc;

	if (cli_parse_options("pareto", opts, argc, argv, &rc))
		return rc;
	if (!qx.benchmark)
		return cli_error(AB_EUSAGE, "pareto: -b BENCH is required");
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	if ((rc = cli_check_names(ctx, "pareto", qx.suite, qx.benchmark, NULL, qx.metric, NULL)) != AB_OK)
		return rc;
	cli_note_invalid(ctx, qx.suite, qx.benchmark, NULL);
	rc = views_pareto_build(ctx->db, &qx, ymetric, NULL, NULL, 0, &pv, &err);
	if (rc < 0) {
		rc = cli_status(rc, &err);
		strbuf_release(&err);
		return rc;
	}
	if (json || csv) {
		struct views_record rec = VIEWS_RECORD_INIT;
		json_t *arr = json_array();
		for (i = 0; i < pv.n; i++) {
			views_record_reset(&rec);
			views_pareto_record(&pv, &pv.rows[i], &rec);
			json_array_append_new(arr, cli_record_json(&rec));
		}
		views_record_release(&rec);
		rc = csv ? cli_output_csv(NULL, arr) : cli_output_json(NULL, arr);
		json_decref(arr);
	} else {
		struct table *t = table_new();
		struct strbuf v = STRBUF_INIT;
		const struct db_config *c0 = pv.rows[0].x;
		table_add_column(t, "system", TABLE_LEFT);
		table_add_column(t, "nodes", TABLE_RIGHT);
		table_add_column(t, "devices", TABLE_RIGHT);
		table_add_column(t, "batch", TABLE_RIGHT);
		strbuf_addf(&v, "%s [%s]", c0->metric, c0->unit);
		table_add_column(t, v.buf, TABLE_RIGHT);
		strbuf_reset(&v);
		strbuf_addf(&v, "%s [%s]", pv.y_metric, pv.y_unit);
		table_add_column(t, v.buf, TABLE_RIGHT);
		table_add_column(t, "front", TABLE_LEFT);
		for (i = 0; i < pv.n; i++) {
			const struct db_config *c = pv.rows[i].x;
			table_add_row(t);
			table_set(t, 0, c->system);
			if (c->nodes > 0)
				table_setf(t, 1, "%ld", c->nodes);
			if (c->devices > 0)
				table_setf(t, 2, "%ld", c->devices);
			if (c->global_batch > 0)
				table_setf(t, 3, "%ld", c->global_batch);
			strbuf_reset(&v);
			views_fmt_value(&v, pv.rows[i].xv);
			table_set(t, 4, v.buf);
			strbuf_reset(&v);
			views_fmt_value(&v, pv.rows[i].yv);
			table_set(t, 5, v.buf);
			table_set(t, 6, pv.rows[i].state == PARETO_FRONT ? "yes" : "");
		}
		table_render_text(t, &out);
		strbuf_addf(&out, "%zu of %zu configurations on the front (medians)\n",
				    pv.n_front, pv.n);
		table_free(t);
		strbuf_release(&v);
		rc = cli_output(NULL, &out);
	}
	views_pareto_release(&pv);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}
