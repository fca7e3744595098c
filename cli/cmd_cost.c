/*
 * cmd_cost.c - `accelbench cost -b BENCH --prices FILE`: per system (its
 * best configuration unless --batch/--devices fix one) the hardware cost,
 * energy cost and TCO over the lifetime, cost per million units of work,
 * performance per currency unit, and the sensitivity of the cost per
 * million to +-20 % hardware and electricity prices.
 */
#include "core/compat.h"
#include "commands.h"
#include "model/cost.h"
#include "model/dataset.h"
#include "model/stats.h"

#include <math.h>

struct row {
	const struct db_config *c;
	double throughput, power;
	const char *boundary;
	const struct cost_prices *prices;
	struct cost_result res;
};

struct cost_select {
	const struct cost_prices_file *pf;
	long batch, devices;
};

/* configurations of the asked shape, of systems the prices file knows */
static int keep_priced(const struct db_config *c, void *ctx)
{
	const struct cost_select *s = ctx;

	return (s->batch <= 0 || c->global_batch == s->batch) &&
	       (s->devices <= 0 || c->devices == s->devices) && cost_prices_find(s->pf, c->system);
}

static void money(struct strbuf *sb, double v)
{
	if (!isfinite(v))
		strbuf_addstr(sb, "n/a");
	else if (fabs(v) >= 100)
		num_format_fixed(sb, v, 0, 1);
	else if (fabs(v) >= 0.01)
		num_format_fixed(sb, v, 2, 1);
	else
		strbuf_addf(sb, "%.3g", v);
}

static json_t *row_json(const struct row *r, const char *currency, const char *work_unit)
{
	json_t *o = json_object();
	const struct cost_result *x = &r->res;

	json_object_set_new(o, "benchmark", json_string(r->c->benchmark));
	json_object_set_new(o, "system", json_string(r->c->system));
	json_object_set_new(o, "nodes", cli_json_pos(r->c->nodes));
	json_object_set_new(o, "devices", cli_json_pos(r->c->devices));
	json_object_set_new(o, "global_batch", cli_json_pos(r->c->global_batch));
	json_object_set_new(o, "precision", cli_json_str(r->c->precision));
	json_object_set_new(o, "throughput", cli_json_num(r->throughput));
	json_object_set_new(o, "throughput_unit", json_string(r->c->unit));
	json_object_set_new(o, "avg_power_w", cli_json_num(r->power));
	json_object_set_new(o, "boundary", cli_json_str(r->boundary));
	json_object_set_new(o, "currency", json_string(currency));
	json_object_set_new(o, "work_unit", json_string(work_unit));
	json_object_set_new(o, "capex", cli_json_num(x->capex));
	json_object_set_new(o, "busy_hours", cli_json_num(x->busy_hours));
	json_object_set_new(o, "energy_kwh", cli_json_num(x->energy_kwh));
	json_object_set_new(o, "energy_cost", cli_json_num(x->energy_cost));
	json_object_set_new(o, "tco", cli_json_num(x->tco));
	json_object_set_new(o, "perf_per_currency", cli_json_num(x->perf_per_currency));
	json_object_set_new(o, "cost_per_million", cli_json_num(x->cost_per_million));
	json_object_set_new(o, "energy_cost_per_million", cli_json_num(x->energy_cost_per_million));
	json_object_set_new(o, "cost_per_million_price_low", cli_json_num(x->price_low.cost_per_million));
	json_object_set_new(o, "cost_per_million_price_high", cli_json_num(x->price_high.cost_per_million));
	json_object_set_new(o, "cost_per_million_elec_low", cli_json_num(x->elec_low.cost_per_million));
	json_object_set_new(o, "cost_per_million_elec_high", cli_json_num(x->elec_high.cost_per_million));
	json_object_set_new(o, "electricity_price_per_kwh", json_real(r->prices->electricity_price_per_kwh));
	json_object_set_new(o, "pue", json_real(r->prices->pue));
	json_object_set_new(o, "lifetime_years", json_real(r->prices->lifetime_years));
	json_object_set_new(o, "utilisation", json_real(r->prices->utilisation));
	return o;
}

int cmd_cost(int argc, char **argv, struct ctx *ctx)
{
	struct db_config_query q = { 0 }, qp;
	const char *prices_path = NULL;
	long batch = 0, devices = 0;
	int json = 0, csv = 0;
	const struct opt opts[] = {
		{ 'b', "benchmark", OPT_STRING, &q.benchmark, "B", "the benchmark (required)" },
		{ 0, "prices", OPT_STRING, &prices_path, "FILE", "prices file, JSON (required)" },
		{ 0, "suite", OPT_STRING, &q.suite, "S", "the suite, when two have the benchmark" },
		{ 0, "system", OPT_STRING, &q.system, "S", "only this system" },
		{ 0, "batch", OPT_INT, &batch, "N", "use the configuration with this global batch" },
		{ 0, "devices", OPT_INT, &devices, "N", "use the configuration with this many devices" },
		{ 0, "json", OPT_FLAG, &json, NULL, "print JSON" },
		{ 0, "csv", OPT_FLAG, &csv, NULL, "print CSV" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, unit = STRBUF_INIT;
	struct cost_prices_file *pf = NULL;
	struct db_configs cs = { 0 }, ps = { 0 };
	struct row *rows = NULL;
	const struct db_config **pick;
	struct cost_select sel;
	size_t i, n = 0;
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
	cli_note_invalid(ctx, q.suite, q.benchmark, q.system);
	rc = db_load_configs(ctx->db, &q, &cs, &err);
	qp = q;
	qp.metric = "avg_power";
	if (rc == 0)
		rc = db_load_configs(ctx->db, &qp, &ps, &err);
	if (rc < 0)
		goto fail;
	rows = ab_calloc(cs.n + 1, sizeof(*rows));
	pick = ab_calloc(cs.n + 1, sizeof(*pick));
	sel.pf = pf;
	sel.batch = batch;
	sel.devices = devices;
	n = db_configs_best(&cs, NULL, keep_priced, &sel, pick);
	for (i = 0; i < n; i++) {
		rows[i].c = pick[i];
		rows[i].throughput = stats_median(pick[i]->values, pick[i]->n);
	}
	free(pick);
	if (!n) {
		rc = ab_fail(&err, AB_EDATA, "cost: no system of '%s' has both runs and prices in '%s'",
			     q.benchmark, prices_path);
		goto fail;
	}
	if (rows[0].c->lower_is_better) {
		rc = ab_fail(&err, AB_EDATA, "cost: '%s' is a time (%s), not a throughput",
			     q.benchmark, rows[0].c->unit);
		goto fail;
	}
	strbuf_addstr(&unit, rows[0].c->unit);
	if (unit.len > 2 && !strcmp(unit.buf + unit.len - 2, "/s"))
		strbuf_setlen(&unit, unit.len - 2);
	for (i = 0; i < n; i++) {
		const struct db_config *p = db_configs_find(&ps, rows[i].c);
		struct cost_usage u;
		rows[i].prices = cost_prices_find(pf, rows[i].c->system);
		rows[i].power = p && p->n ? stats_median(p->values, p->n) : NAN;
		rows[i].boundary = p ? p->boundary : NULL;
		u.nodes = rows[i].c->nodes > 0 ? (double)rows[i].c->nodes : 1;
		u.devices = rows[i].c->devices > 0 ? (double)rows[i].c->devices : 0;
		u.throughput = rows[i].throughput;
		u.avg_power_w = rows[i].power;
		if (energy_boundary_parse(rows[i].boundary ? rows[i].boundary : "unknown", &u.boundary,
					  NULL) < 0)
			u.boundary = ENERGY_BOUNDARY_UNKNOWN;
		rc = cost_compute(rows[i].prices, &u, &rows[i].res, &err);
		if (rc < 0)
			goto fail;
	}
	if (json) {
		json_t *arr = json_array();
		for (i = 0; i < n; i++)
			json_array_append_new(arr, row_json(&rows[i], pf->currency, unit.buf));
		rc = cli_output_json(NULL, arr);
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
		strbuf_addf(&v, "%s per M %s", pf->currency, unit.buf);
		table_add_column(t, v.buf, TABLE_RIGHT);
		table_add_column(t, "hw +-20%", TABLE_RIGHT);
		table_add_column(t, "power price +-20%", TABLE_RIGHT);
		strbuf_reset(&v);
		strbuf_addf(&v, "%s/s per %s", unit.buf, pf->currency);
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
			money(&v, x->capex);
			table_set(t, 4, v.buf);
			strbuf_reset(&v);
			money(&v, x->tco);
			table_set(t, 5, v.buf);
			strbuf_reset(&v);
			money(&v, x->cost_per_million);
			table_set(t, 6, v.buf);
			strbuf_reset(&v);
			money(&v, x->price_low.cost_per_million);
			strbuf_addstr(&v, "..");
			money(&v, x->price_high.cost_per_million);
			table_set(t, 7, v.buf);
			strbuf_reset(&v);
			money(&v, x->elec_low.cost_per_million);
			strbuf_addstr(&v, "..");
			money(&v, x->elec_high.cost_per_million);
			table_set(t, 8, v.buf);
			strbuf_reset(&v);
			views_fmt_value(&v, x->perf_per_currency);
			table_set(t, 9, v.buf);
		}
		if (csv) {
			table_render_csv(t, &out);
		} else {
			strbuf_addf(&out, "%s: cost over %g years at %g %% utilisation, electricity %g "
					  "%s/kWh, PUE %g (prices: %s)\n",
				    q.benchmark, rows[0].prices->lifetime_years,
				    100 * rows[0].prices->utilisation,
				    rows[0].prices->electricity_price_per_kwh, pf->currency,
				    rows[0].prices->pue, prices_path);
			table_render_text(t, &out);
			strbuf_addstr(&out, "best configuration per system by median; power is the measured "
					    "average at its boundary (gpu: accelerators only, so energy cost "
					    "is a lower bound)\n");
		}
		table_free(t);
		strbuf_release(&v);
		rc = cli_output(NULL, &out);
	}
	goto done;
fail:
	rc = cli_status(rc, &err);
done:
	free(rows);
	db_configs_release(&cs);
	db_configs_release(&ps);
	cost_prices_file_free(pf);
	strbuf_release(&out);
	strbuf_release(&unit);
	strbuf_release(&err);
	return rc;
}
