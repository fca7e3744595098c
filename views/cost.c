/*
 * cost.c - cost rows: per system (its best configuration unless a batch or
 * device count fixes one) the hardware cost, energy cost and TCO over the
 * lifetime, cost per million units of work, performance per currency unit,
 * and the sensitivity of the cost per million to +-20 % prices.
 */
#include "core/compat.h"
#include "views/views.h"

#include <math.h>

/* configurations of the asked shape, of systems the prices file knows */
static int keep_priced(const struct db_config *c, void *ctx)
{
	const struct views_cost_opts *o = ctx;

	return (o->batch <= 0 || c->global_batch == o->batch) &&
	       (o->devices <= 0 || c->devices == o->devices) && cost_prices_find(o->prices, c->system);
}

void views_fmt_money(struct strbuf *sb, double v)
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

int views_cost_build(struct db *db, const struct db_config_query *q,
		     const struct views_cost_opts *o, struct views_cost *out, struct strbuf *err)
{
	struct db_config_query qp = *q;
	const struct db_config **pick;
	struct strbuf unit = STRBUF_INIT;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	out->prices = o->prices;
	rc = db_load_configs(db, q, &out->configs, err);
	qp.metric = "avg_power";
	if (rc == 0)
		rc = db_load_configs(db, &qp, &out->power, err);
	if (rc < 0)
		goto fail;
	out->rows = ab_calloc(out->configs.n + 1, sizeof(*out->rows));
	pick = ab_calloc(out->configs.n + 1, sizeof(*pick));
	out->n = db_configs_best(&out->configs, NULL, keep_priced, (void *)o, pick);
	for (i = 0; i < out->n; i++) {
		out->rows[i].c = pick[i];
		out->rows[i].throughput = stats_median(pick[i]->values, pick[i]->n);
	}
	free(pick);
	if (!out->n) {
		rc = ab_fail(err, AB_EDATA, "cost: no system of '%s' has both runs and prices in '%s'",
			     q->benchmark ? q->benchmark : "(any)", o->prices->name);
		goto fail;
	}
	if (out->rows[0].c->lower_is_better) {
		rc = ab_fail(err, AB_EDATA, "cost: '%s' is a time (%s), not a throughput",
			     q->benchmark ? q->benchmark : out->rows[0].c->benchmark,
			     out->rows[0].c->unit);
		goto fail;
	}
	strbuf_addstr(&unit, out->rows[0].c->unit);
	if (unit.len > 2 && !strcmp(unit.buf + unit.len - 2, "/s"))
		strbuf_setlen(&unit, unit.len - 2);
	out->work_unit = strbuf_detach(&unit, NULL);
	for (i = 0; i < out->n; i++) {
		struct views_cost_row *r = &out->rows[i];
		const struct db_config *p = db_configs_find(&out->power, r->c);
		struct cost_usage u;
		r->prices = cost_prices_find(o->prices, r->c->system);
		r->power = p && p->n ? stats_median(p->values, p->n) : NAN;
		r->boundary = p ? p->boundary : NULL;
		u.nodes = r->c->nodes > 0 ? (double)r->c->nodes : 1;
		u.devices = r->c->devices > 0 ? (double)r->c->devices : 0;
		u.throughput = r->throughput;
		u.avg_power_w = r->power;
		if (energy_boundary_parse(r->boundary ? r->boundary : "unknown", &u.boundary, NULL) < 0)
			u.boundary = ENERGY_BOUNDARY_UNKNOWN;
		rc = cost_compute(r->prices, &u, &r->res, err);
		if (rc < 0)
			goto fail;
	}
	return 0;
fail:
	strbuf_release(&unit);
	views_cost_release(out);
	return rc;
}

void views_cost_release(struct views_cost *v)
{
	db_configs_release(&v->configs);
	db_configs_release(&v->power);
	free(v->work_unit);
	free(v->rows);
	memset(v, 0, sizeof(*v));
}

void views_cost_record(const struct views_cost *v, const struct views_cost_row *row,
		       struct views_record *r)
{
	const struct cost_result *x = &row->res;

	views_rec_str(r, "benchmark", row->c->benchmark);
	views_rec_str(r, "system", row->c->system);
	views_rec_pos(r, "nodes", row->c->nodes);
	views_rec_pos(r, "devices", row->c->devices);
	views_rec_pos(r, "global_batch", row->c->global_batch);
	views_rec_str(r, "precision", row->c->precision);
	views_rec_num(r, "throughput", row->throughput);
	views_rec_str(r, "throughput_unit", row->c->unit);
	views_rec_num(r, "avg_power_w", row->power);
	views_rec_str(r, "boundary", row->boundary);
	views_rec_str(r, "currency", v->prices->currency);
	views_rec_str(r, "work_unit", v->work_unit);
	views_rec_num(r, "capex", x->capex);
	views_rec_num(r, "busy_hours", x->busy_hours);
	views_rec_num(r, "energy_kwh", x->energy_kwh);
	views_rec_num(r, "energy_cost", x->energy_cost);
	views_rec_num(r, "tco", x->tco);
	views_rec_num(r, "perf_per_currency", x->perf_per_currency);
	views_rec_num(r, "cost_per_million", x->cost_per_million);
	views_rec_num(r, "energy_cost_per_million", x->energy_cost_per_million);
	views_rec_num(r, "cost_per_million_price_low", x->price_low.cost_per_million);
	views_rec_num(r, "cost_per_million_price_high", x->price_high.cost_per_million);
	views_rec_num(r, "cost_per_million_elec_low", x->elec_low.cost_per_million);
	views_rec_num(r, "cost_per_million_elec_high", x->elec_high.cost_per_million);
	views_rec_num(r, "electricity_price_per_kwh", row->prices->electricity_price_per_kwh);
	views_rec_num(r, "pue", row->prices->pue);
	views_rec_num(r, "lifetime_years", row->prices->lifetime_years);
	views_rec_num(r, "utilisation", row->prices->utilisation);
}
