/*
 * stats.c - the statistics table: every configuration matching a query
 * with the summary of its metric (median and its distribution-free CI,
 * spread, outliers, failed runs counted).
 */
#include "core/compat.h"
#include "views/views.h"

#include <math.h>

int views_stats_build(struct db *db, const struct db_config_query *q, struct views_stats *out,
		      struct strbuf *err)
{
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = db_load_configs(db, q, &out->configs, err);
	if (rc < 0)
		return rc;
	if (!out->configs.n) {
		db_configs_release(&out->configs);
		return ab_fail(err, AB_EDATA, "stats: no runs match%s%s%s%s%s%s",
			       q->suite ? " suite " : "", q->suite ? q->suite : "",
			       q->benchmark ? " benchmark " : "", q->benchmark ? q->benchmark : "",
			       q->system ? " system " : "", q->system ? q->system : "");
	}
	out->rows = ab_calloc(out->configs.n, sizeof(*out->rows));
	for (i = 0; i < out->configs.n; i++) {
		const struct db_config *c = &out->configs.v[i];
		out->rows[i].c = c;
		out->rows[i].level = STATS_LEVEL;
		rc = stats_summarize(c->values, c->n, c->n_failed, &out->rows[i].s, NULL, err);
		if (rc < 0) {
			views_stats_release(out);
			return rc;
		}
		out->n++;
	}
	return 0;
}

void views_stats_set_level(struct views_stats *v, double level)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		struct views_stats_row *row = &v->rows[i];
		struct stats_summary *s = &row->s;
		size_t lo, hi;
		double cov;

		row->level = level;
		s->has_ci = 0;
		s->ci_low = s->ci_high = s->ci_coverage = NAN;
		s->ci_rank_low = s->ci_rank_high = 0;
		if (s->n && !stats_median_ci_ranks(s->n, level, &lo, &hi, &cov) &&
		    !stats_median_ci_at(row->c->values, row->c->n, level, &s->ci_low, &s->ci_high,
					&cov)) {
			s->has_ci = 1;
			s->ci_rank_low = lo;
			s->ci_rank_high = hi;
			s->ci_coverage = cov;
		}
	}
}

void views_stats_release(struct views_stats *v)
{
	db_configs_release(&v->configs);
	free(v->rows);
	memset(v, 0, sizeof(*v));
}

void views_stats_record(const struct views_stats_row *row, struct views_record *r)
{
	const struct db_config *c = row->c;
	const struct stats_summary *s = &row->s;

	views_rec_str(r, "suite", c->suite);
	views_rec_str(r, "benchmark", c->benchmark);
	views_rec_str(r, "system", c->system);
	views_rec_str(r, "vendor", c->vendor);
	views_rec_str(r, "accelerator", c->accelerator);
	views_rec_pos(r, "nodes", c->nodes);
	views_rec_pos(r, "devices", c->devices);
	views_rec_pos(r, "global_batch", c->global_batch);
	views_rec_str(r, "precision", c->precision);
	views_rec_str(r, "metric", c->metric);
	views_rec_str(r, "unit", c->unit);
	views_rec_str(r, "better", c->lower_is_better ? "lower" : "higher");
	views_rec_str(r, "boundary", c->boundary);
	views_rec_int(r, "n", (long long)s->n);
	views_rec_int(r, "n_failed", (long long)s->n_failed);
	views_rec_int(r, "n_missing", (long long)c->n_missing);
	views_rec_num(r, "median", s->median);
	views_rec_num(r, "ci_low", s->ci_low);
	views_rec_num(r, "ci_high", s->ci_high);
	views_rec_num(r, "ci_level", row->level);
	views_rec_num(r, "ci_coverage", s->has_ci ? s->ci_coverage : NAN);
	views_rec_str(r, "ci_note", s->has_ci ? NULL : "n too small");
	views_rec_num(r, "mean", s->mean);
	views_rec_num(r, "sd", s->sd);
	views_rec_num(r, "cv", s->cv);
	views_rec_num(r, "min", s->min);
	views_rec_num(r, "max", s->max);
	views_rec_num(r, "q1", s->q1);
	views_rec_num(r, "q3", s->q3);
	views_rec_num(r, "iqr", s->iqr);
	views_rec_num(r, "mad", s->mad);
	views_rec_int(r, "n_outliers", (long long)s->n_outliers);
}
