/*
 * pareto.c - the Pareto join: each configuration's median of the x metric
 * (the headline, throughput-like) with its median of the y metric (energy
 * efficiency by default), and which of them are on the front (no other is
 * at least as good on both and better on one).  Charts take the front from
 * here rather than recomputing it.
 */
#include "core/compat.h"
#include "views/views.h"

#include <math.h>

int views_pareto_build(struct db *db, const struct db_config_query *q, const char *y_metric,
		       int (*keep)(const struct db_config *c, void *ctx), void *keep_ctx,
		       int best, struct views_pareto *out, struct strbuf *err)
{
	struct db_config_query qy = *q;
	const struct db_config **cand = NULL;
	double *x = NULL, *y = NULL;
	struct pareto_item *items = NULL;
	size_t *front = NULL, i, nc;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!y_metric)
		y_metric = "energy_efficiency";
	out->y_metric = ab_strdup(y_metric);
	qy.metric = y_metric;
	rc = db_load_configs(db, q, &out->xs, err);
	if (rc == 0)
		rc = db_load_configs(db, &qy, &out->ys, err);
	if (rc < 0)
		goto fail;
	cand = ab_calloc(out->xs.n + 1, sizeof(*cand));
	if (best) {
		nc = db_configs_best(&out->xs, NULL, keep, keep_ctx, cand);
	} else {
		for (i = nc = 0; i < out->xs.n; i++)
			if (!keep || keep(&out->xs.v[i], keep_ctx))
				cand[nc++] = &out->xs.v[i];
	}
	out->rows = ab_calloc(nc + 1, sizeof(*out->rows));
	for (i = 0; i < nc; i++) {
		const struct db_config *yc = db_configs_find(&out->ys, cand[i]);
		struct views_pareto_row *r = &out->rows[out->n];
		if (!cand[i]->n || !yc || !yc->n)
			continue;
		r->x = cand[i];
		r->y = yc;
		r->xv = stats_median(cand[i]->values, cand[i]->n);
		r->yv = stats_median(yc->values, yc->n);
		out->n++;
	}
	if (!out->n) {
		rc = ab_fail(err, AB_EDATA, "pareto: no configuration of '%s' has both %s and %s",
			     q->benchmark ? q->benchmark : "(any)",
			     out->xs.n ? out->xs.v[0].metric : "its headline metric", y_metric);
		goto fail;
	}
	out->y_unit = out->rows[0].y->unit;
	out->x_lower_better = out->rows[0].x->lower_is_better;
	out->y_lower_better = db_metric_lower_is_better(y_metric, out->ys.n ? out->ys.v[0].unit : NULL);
	x = ab_calloc(out->n, sizeof(*x));
	y = ab_calloc(out->n, sizeof(*y));
	items = ab_calloc(out->n, sizeof(*items));
	front = ab_calloc(out->n, sizeof(*front));
	for (i = 0; i < out->n; i++) {
		x[i] = out->rows[i].xv;
		y[i] = out->rows[i].yv;
	}
	out->n_front = pareto_front(x, y, out->n,
				    out->x_lower_better ? STATS_LOWER_IS_BETTER : STATS_HIGHER_IS_BETTER,
				    out->y_lower_better ? STATS_LOWER_IS_BETTER : STATS_HIGHER_IS_BETTER,
				    items, front);
	for (i = 0; i < out->n; i++)
		out->rows[i].state = items[i].state;
	rc = 0;
	goto done;
fail:
	views_pareto_release(out);
done:
	free(cand);
	free(x);
	free(y);
	free(items);
	free(front);
	return rc;
}

void views_pareto_release(struct views_pareto *v)
{
	db_configs_release(&v->xs);
	db_configs_release(&v->ys);
	free(v->y_metric);
	free(v->rows);
	memset(v, 0, sizeof(*v));
}

void views_pareto_record(const struct views_pareto *v, const struct views_pareto_row *row,
			 struct views_record *r)
{
	const struct db_config *c = row->x;

	views_rec_str(r, "benchmark", c->benchmark);
	views_rec_str(r, "system", c->system);
	views_rec_str(r, "vendor", c->vendor);
	views_rec_pos(r, "nodes", c->nodes);
	views_rec_pos(r, "devices", c->devices);
	views_rec_pos(r, "global_batch", c->global_batch);
	views_rec_str(r, "precision", c->precision);
	views_rec_str(r, "x_metric", c->metric);
	views_rec_str(r, "x_unit", c->unit);
	views_rec_num(r, "x", row->xv);
	views_rec_str(r, "y_metric", v->y_metric);
	views_rec_str(r, "y_unit", row->y->unit);
	views_rec_num(r, "y", row->yv);
	views_rec_str(r, "state", pareto_state_name(row->state));
}
