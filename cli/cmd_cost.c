/*
 * cmd_cost.c - `accelbench cost -b BENCH --prices FILE`: options and
 * rendering of the views/ cost rows: per system (its
 * best configuration unless --batch/--devices fix one) the hardware cost,
 * energy cost and TCO over the lifetime, cost per million units of work,
 * performance per currency unit, and the sensitivity of the cost per
 * million to +-20 % hardware and electricity prices.
 */
#include "core/compat.h"
#include "commands.h"

#include <math.h>

int cmd_cost(int argc, char **argv, struct ctx *ctx)
{
	struct db_config_query q = { 0 };
	const char *prices_path = NULL;
	long batch = 0, devices = 0;
	int json = 0, csv = 0, wide = 0;
	const struct opt opts[] = {
		{ 'b', "benchmark", OPT_STRING, &q.benchmark, "B", "the benchmark (required)" },
		{ 0, "prices", OPT_STRING, &prices_path, "FILE", "prices file, JSON (required)" },
		{ 0, "suite", OPT_STRING, &q.suite, "S", "the suite, when two have the benchmark" },
		{ 0, "system", OPT_STRING, &q.system, "S", "only this system" },
		{ 0, "batch", OPT_INT, &batch, "N", "use the configuration with this global batch" },
		{ 0, "devices", OPT_INT, &devices, "N", "use the configuration with this many devices" },
		{ 0, "json", OPT_FLAG, &json, NULL, "print JSON" },
		{ 0, "csv", OPT_FLAG, &csv, NULL, "print CSV" },
		{ 0, "wide", OPT_FLAG, &wide, NULL, "every column, however wide (default: fit 120)" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct cost_prices_file *pf = NULL;
	struct views_cost_opts vo = { 0 };
	struct views_cost cv = { 0 };
	struct views_cost_row *rows;
	size_t i, n;
	int rc;

	if (cli_parse_options("cost", opts, argc, argv, &rc))
		return rc;
	if (!q.benchmark || !prices_path)
		return cli_error(AB_EUSAGE, "cost: -b BENCH and --prices FILE are required");
	rc = cost_prices_load(prices_path, &pf, &err);
	if (rc < 0)
		goto fail;
	if ((rc = cli_need_db(ctx)) != AB_OK) {
		cost_prices_file_free(pf);
		strbuf_release(&err);
		return rc;
	}
	if ((rc = cli_check_names(ctx, "cost", q.suite, q.benchmark, q.system, NULL, NULL)) != AB_OK)
		return rc;
	cli_note_invalid(ctx, q.suite, q.benchmark, q.system);
	vo.prices = pf;
	vo.batch = batch;
	vo.devices = devices;
	rc = views_cost_build(ctx->db, &q, &vo, &cv, &err);
	if (rc < 0)
		goto fail;
	rows = cv.rows;
	n = cv.n;
	if (json || csv) {
		struct views_record rec = VIEWS_RECORD_INIT;
		json_t *arr = json_array();
		for (i = 0; i < n; i++) {
			views_record_reset(&rec);
			views_cost_record(&cv, &rows[i], &rec);
			json_array_append_new(arr, cli_record_json(&rec));
		}
		views_record_release(&rec);
		rc = csv ? cli_output_csv(NULL, arr) : cli_output_json(NULL, arr);
		json_decref(arr);
	} else {
		struct table *t = table_new();
		struct strbuf v = STRBUF_INIT;
		table_add_column(t, "system", TABLE_LEFT);
		table_add_column(t, "configuration", TABLE_LEFT);
		strbuf_addf(&v, "median [%s]", rows[0].c->unit);
		table_add_column(t, v.buf, TABLE_RIGHT);
		table_add_column(t, "power [W]", TABLE_RIGHT);
		strbuf_reset(&v);
		strbuf_addf(&v, "capex [%s]", pf->currency);
		table_add_column(t, v.buf, TABLE_RIGHT);
		strbuf_reset(&v);
		strbuf_addf(&v, "TCO [%s]", pf->currency);
		table_add_column(t, v.buf, TABLE_RIGHT);
		strbuf_reset(&v);
		strbuf_addf(&v, "%s per M %s", pf->currency, cv.work_unit);
		table_add_column(t, v.buf, TABLE_RIGHT);
		table_add_column(t, "hw +-20%", TABLE_RIGHT);
		table_add_column(t, "power price +-20%", TABLE_RIGHT);
		strbuf_reset(&v);
		strbuf_addf(&v, "%s/s per %s", cv.work_unit, pf->currency);
		table_add_column(t, v.buf, TABLE_RIGHT);
		for (i = 0; i < n; i++) {
			const struct cost_result *x = &rows[i].res;
			table_add_row(t);
			table_set(t, 0, rows[i].c->system);
			strbuf_reset(&v);
			if (rows[i].c->nodes > 0)
				strbuf_addf(&v, "%ldn ", rows[i].c->nodes);
			if (rows[i].c->devices > 0)
				strbuf_addf(&v, "%ldd ", rows[i].c->devices);
			if (rows[i].c->global_batch > 0)
				strbuf_addf(&v, "b%ld", rows[i].c->global_batch);
			table_set(t, 1, v.buf);
			strbuf_reset(&v);
			views_fmt_value(&v, rows[i].throughput);
			table_set(t, 2, v.buf);
			strbuf_reset(&v);
			views_fmt_value(&v, rows[i].power);
			if (rows[i].boundary)
				strbuf_addf(&v, " (%s)", rows[i].boundary);
			table_set(t, 3, v.buf);
			strbuf_reset(&v);
			views_fmt_money(&v, x->capex);
			table_set(t, 4, v.buf);
			strbuf_reset(&v);
			views_fmt_money(&v, x->tco);
			table_set(t, 5, v.buf);
			strbuf_reset(&v);
			views_fmt_money(&v, x->cost_per_million);
			table_set(t, 6, v.buf);
			strbuf_reset(&v);
			/* one format for ranges: [lo, hi], as for CIs */
			strbuf_addch(&v, '[');
			views_fmt_money(&v, x->price_low.cost_per_million);
			strbuf_addstr(&v, ", ");
			views_fmt_money(&v, x->price_high.cost_per_million);
			strbuf_addch(&v, ']');
			table_set(t, 7, v.buf);
			strbuf_reset(&v);
			strbuf_addch(&v, '[');
			views_fmt_money(&v, x->elec_low.cost_per_million);
			strbuf_addstr(&v, ", ");
			views_fmt_money(&v, x->elec_high.cost_per_million);
			strbuf_addch(&v, ']');
			table_set(t, 8, v.buf);
			strbuf_reset(&v);
			views_fmt_value(&v, x->perf_per_currency);
			table_set(t, 9, v.buf);
		}
		{
			struct strbuf head = STRBUF_INIT;

			strbuf_addf(&head, "%s: cost over %g years at %g %% utilisation, electricity %g "
					  "%s/kWh, PUE %g (prices: %s)\n",
				    q.benchmark, rows[0].prices->lifetime_years,
				    100 * rows[0].prices->utilisation,
				    rows[0].prices->electricity_price_per_kwh, pf->currency,
				    rows[0].prices->pue, prices_path);
			cli_wrap(&out, head.buf, CLI_WIDTH);
			strbuf_release(&head);
			static const size_t drop[] = { 8, 7, 4 };
			struct strbuf foot = STRBUF_INIT;
			cli_table_fit(t, drop, AB_ARRAY_SIZE(drop), wide, &foot);
			table_render_text(t, &out);
			strbuf_addstr(&foot, "best configuration per system by median; power is the measured "
					     "average at its boundary (gpu: accelerators only, so energy cost "
					     "is a lower bound)\n");
			cli_wrap(&out, foot.buf, CLI_WIDTH);
			strbuf_release(&foot);
		}
		table_free(t);
		strbuf_release(&v);
		rc = cli_output(NULL, &out);
	}
	goto done;
fail:
	rc = cli_status(rc, &err);
done:
	views_cost_release(&cv);
	cost_prices_file_free(pf);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}
