/*
 * cmd_pareto.c - `accelbench pareto -b BENCH`: each configuration's median
 * throughput (the headline metric, or -x) against its median energy
 * efficiency (-y, default energy_efficiency), and the Pareto front:
 * configurations no other one beats on both.
 */
#include "core/compat.h"
#include "commands.h"
#include "model/dataset.h"
#include "model/pareto.h"

#include <math.h>

int cmd_pareto(int argc, char **argv, struct ctx *ctx)
{
	struct db_config_query qx = { 0 }, qy = { 0 };
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
	struct db_configs xs = { 0 }, ys = { 0 };
	const struct db_config **cfg = NULL;
	double *x = NULL, *y = NULL;
	struct pareto_item *items = NULL;
	size_t i, n = 0, nfront = 0, *front = NULL;
	int rc;

	if (cli_parse_options("pareto", opts, argc, argv, &rc))
		return rc;
	if (!qx.benchmark)
		return cli_error(AB_EUSAGE, "pareto: -b BENCH is required");
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	qy = qx;
	qy.metric = ymetric;
	cli_note_invalid(ctx, qx.suite, qx.benchmark, NULL);
	rc = db_load_configs(ctx->db, &qx, &xs, &err);
	if (rc == 0)
		rc = db_load_configs(ctx->db, &qy, &ys, &err);
	if (rc < 0)
		goto fail;
	cfg = ab_calloc(xs.n + 1, sizeof(*cfg));
	x = ab_calloc(xs.n + 1, sizeof(*x));
	y = ab_calloc(xs.n + 1, sizeof(*y));
	for (i = 0; i < xs.n; i++) {
		const struct db_config *yc = db_configs_find(&ys, &xs.v[i]);
		if (!xs.v[i].n || !yc || !yc->n)
			continue;
		cfg[n] = &xs.v[i];
		x[n] = stats_median(xs.v[i].values, xs.v[i].n);
		y[n] = stats_median(yc->values, yc->n);
		n++;
	}
	if (!n) {
		rc = ab_fail(&err, AB_EDATA, "pareto: no configuration of '%s' has both %s and %s",
			     qx.benchmark, xs.n ? xs.v[0].metric : "its headline metric", ymetric);
		goto fail;
	}
	items = ab_calloc(n, sizeof(*items));
	front = ab_calloc(n, sizeof(*front));
	nfront = pareto_front(x, y, n,
			      cfg[0]->lower_is_better ? STATS_LOWER_IS_BETTER : STATS_HIGHER_IS_BETTER,
			      db_metric_lower_is_better(ymetric, ys.n ? ys.v[0].unit : NULL)
				      ? STATS_LOWER_IS_BETTER
				      : STATS_HIGHER_IS_BETTER,
			      items, front);
	if (json) {
		json_t *arr = json_array();
		for (i = 0; i < n; i++) {
			json_t *o = json_object();
			const struct db_config *yc = db_configs_find(&ys, cfg[i]);
			json_object_set_new(o, "benchmark", json_string(cfg[i]->benchmark));
			json_object_set_new(o, "system", json_string(cfg[i]->system));
			json_object_set_new(o, "vendor", cli_json_str(cfg[i]->vendor));
			json_object_set_new(o, "nodes", cli_json_pos(cfg[i]->nodes));
			json_object_set_new(o, "devices", cli_json_pos(cfg[i]->devices));
			json_object_set_new(o, "global_batch", cli_json_pos(cfg[i]->global_batch));
			json_object_set_new(o, "precision", cli_json_str(cfg[i]->precision));
			json_object_set_new(o, "x_metric", json_string(cfg[i]->metric));
			json_object_set_new(o, "x_unit", json_string(cfg[i]->unit));
			json_object_set_new(o, "x", json_real(x[i]));
			json_object_set_new(o, "y_metric", json_string(ymetric));
			json_object_set_new(o, "y_unit", json_string(yc->unit));
			json_object_set_new(o, "y", json_real(y[i]));
			json_object_set_new(o, "state", json_string(pareto_state_name(items[i].state)));
			json_array_append_new(arr, o);
		}
		rc = cli_output_json(NULL, arr);
		json_decref(arr);
	} else {
		struct table *t = table_new();
		struct strbuf v = STRBUF_INIT;
		table_add_column(t, "system", TABLE_LEFT);
		table_add_column(t, "nodes", TABLE_RIGHT);
		table_add_column(t, "devices", TABLE_RIGHT);
		table_add_column(t, "batch", TABLE_RIGHT);
		strbuf_addf(&v, "%s [%s]", cfg[0]->metric, cfg[0]->unit);
		table_add_column(t, v.buf, TABLE_RIGHT);
		strbuf_reset(&v);
		strbuf_addf(&v, "%s [%s]", ymetric, db_configs_find(&ys, cfg[0])->unit);
		table_add_column(t, v.buf, TABLE_RIGHT);
		table_add_column(t, "front", TABLE_LEFT);
		for (i = 0; i < n; i++) {
			table_add_row(t);
			table_set(t, 0, cfg[i]->system);
			if (cfg[i]->nodes > 0)
				table_setf(t, 1, "%ld", cfg[i]->nodes);
			if (cfg[i]->devices > 0)
				table_setf(t, 2, "%ld", cfg[i]->devices);
			if (cfg[i]->global_batch > 0)
				table_setf(t, 3, "%ld", cfg[i]->global_batch);
			strbuf_reset(&v);
			views_fmt_value(&v, x[i]);
			table_set(t, 4, v.buf);
			strbuf_reset(&v);
			views_fmt_value(&v, y[i]);
			table_set(t, 5, v.buf);
			table_set(t, 6, items[i].state == PARETO_FRONT ? "yes" : "");
		}
		if (csv)
			table_render_csv(t, &out);
		else
			table_render_text(t, &out);
		if (!csv)
			strbuf_addf(&out, "%zu of %zu configurations on the front (medians)\n", nfront, n);
		table_free(t);
		strbuf_release(&v);
		rc = cli_output(NULL, &out);
	}
	goto done;
fail:
	rc = cli_status(rc, &err);
done:
	free(cfg);
	free(x);
	free(y);
	free(items);
	free(front);
	db_configs_release(&xs);
	db_configs_release(&ys);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}
