/*
 * scaling.c - scaling rows and fits: series along global batch (saturation
 * fit X(b) = Xmax b / (b + b1/2) with the knee; a batch size where every
 * run failed is a censored point the fit never runs past), or along
 * devices/nodes (speedup, efficiency, Karp-Flatt, Amdahl fit).
 */
#include "core/compat.h"
#include "views/views.h"

#include <math.h>

int views_scaling_sat_fit(const struct series *s, struct scaling_sat *fit, struct strbuf *err)
{
	double *b, *x;
	unsigned char *cens;
	size_t i, k, n = 0, total = 0;
	int rc;

	for (i = 0; i < s->n; i++)
		total += s->pts[i].censored ? 1 : s->pts[i].config->n;
	b = ab_calloc(total + 1, sizeof(*b));
	x = ab_calloc(total + 1, sizeof(*x));
	cens = ab_calloc(total + 1, 1);
	/* every run is a point of the fit; a failed batch size one censored point */
	for (i = 0; i < s->n; i++) {
		const struct series_point *p = &s->pts[i];
		if (p->censored) {
			b[n] = p->x;
			x[n] = NAN;
			cens[n++] = 1;
			continue;
		}
		for (k = 0; k < p->config->n; k++) {
			b[n] = p->x;
			x[n++] = p->config->values[k];
		}
	}
	rc = scaling_saturation_fit(b, x, cens, n, fit, err);
	free(b);
	free(x);
	free(cens);
	return rc;
}

static int dev_fit(struct views_scaling_series *ser, struct strbuf *err)
{
	const struct series *s = ser->s;
	double *cnt = ab_calloc(s->n + 1, sizeof(double)), *val = ab_calloc(s->n + 1, sizeof(double));
	unsigned char *cens = ab_calloc(s->n + 1, 1);
	size_t i;
	int rc;

	ser->pts = ab_calloc(s->n + 1, sizeof(*ser->pts));
	for (i = 0; i < s->n; i++) {
		cnt[i] = s->pts[i].x;
		val[i] = s->pts[i].median;
		cens[i] = (unsigned char)s->pts[i].censored;
	}
	rc = scaling_devices(cnt, val, cens, s->n,
			     s->first->lower_is_better ? STATS_LOWER_IS_BETTER : STATS_HIGHER_IS_BETTER,
			     &ser->dev, ser->pts, err);
	free(cnt);
	free(val);
	free(cens);
	return rc;
}

int views_scaling_build(struct db *db, const struct db_config_query *q, enum series_axis axis,
			struct views_scaling *out, struct strbuf *err)
{
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	out->axis = axis;
	rc = db_load_configs(db, q, &out->configs, err);
	if (rc < 0)
		return rc;
	series_build(&out->configs, axis, &out->set);
	if (!out->set.n) {
		rc = ab_fail(err, AB_EDATA, "scaling: no runs of '%s'%s%s with a known %s",
			     q->benchmark ? q->benchmark : "(any)", q->system ? " on " : "",
			     q->system ? q->system : "",
			     axis == SERIES_BATCH ? "global batch" : series_axis_name(axis));
		goto fail;
	}
	out->v = ab_calloc(out->set.n, sizeof(*out->v));
	for (i = 0; i < out->set.n; i++) {
		struct views_scaling_series *ser = &out->v[i];
		struct strbuf label = STRBUF_INIT;
		ser->s = &out->set.v[i];
		out->n++;
		series_shape_label(ser->s, axis, &label);
		ser->label = strbuf_detach(&label, NULL);
		rc = axis == SERIES_BATCH ? views_scaling_sat_fit(ser->s, &ser->sat, err)
					  : dev_fit(ser, err);
		if (rc < 0)
			goto fail;
	}
	return 0;
fail:
	views_scaling_release(out);
	return rc;
}

void views_scaling_release(struct views_scaling *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		free(v->v[i].label);
		free(v->v[i].pts);
	}
	free(v->v);
	series_set_release(&v->set);
	db_configs_release(&v->configs);
	memset(v, 0, sizeof(*v));
}

void views_scaling_series_record(const struct views_scaling *v,
				 const struct views_scaling_series *ser, struct views_record *r)
{
	const struct series *s = ser->s;
	const struct db_config *f = s->first;

	views_rec_str(r, "benchmark", f->benchmark);
	views_rec_str(r, "system", f->system);
	if (v->axis == SERIES_BATCH) {
		const struct scaling_sat *fit = &ser->sat;
		views_rec_pos(r, "nodes", s->nodes);
		views_rec_pos(r, "devices", s->devices);
		views_rec_str(r, "precision", s->precision);
		views_rec_str(r, "metric", f->metric);
		views_rec_str(r, "unit", f->unit);
		views_rec_str(r, "fit_status", scaling_status_name(fit->status));
		views_rec_num(r, "xmax", fit->xmax);
		views_rec_num(r, "xmax_ci_low", fit->xmax_ci_low);
		views_rec_num(r, "xmax_ci_high", fit->xmax_ci_high);
		views_rec_num(r, "bhalf", fit->bhalf);
		views_rec_num(r, "bhalf_ci_low", fit->bhalf_ci_low);
		views_rec_num(r, "bhalf_ci_high", fit->bhalf_ci_high);
		views_rec_pos(r, "knee_batch", fit->has_knee ? (long)fit->knee_b : 0);
		views_rec_num(r, "knee_value", fit->has_knee ? fit->knee_x : NAN);
		views_rec_num(r, "min_failed_batch", fit->min_censored_b);
		views_rec_num(r, "rss", fit->rss);
		views_rec_int(r, "dof", (long long)fit->dof);
	} else {
		views_rec_str(r, "by", series_axis_name(v->axis));
		views_rec_pos(r, "per_device_batch", s->per_device_batch);
		views_rec_str(r, "precision", s->precision);
		views_rec_str(r, "metric", f->metric);
		views_rec_str(r, "unit", f->unit);
		views_rec_str(r, "fit_status", scaling_status_name(ser->dev.status));
		views_rec_num(r, "serial_fraction", ser->dev.serial);
		views_rec_num(r, "serial_ci_low", ser->dev.serial_ci_low);
		views_rec_num(r, "serial_ci_high", ser->dev.serial_ci_high);
	}
}

void views_scaling_point_record(const struct views_scaling *v,
				const struct views_scaling_series *ser, size_t i,
				struct views_record *r)
{
	const struct series_point *p = &ser->s->pts[i];

	if (v->axis == SERIES_BATCH) {
		views_rec_int(r, "global_batch", (long long)p->x);
		views_rec_int(r, "n", (long long)p->config->n);
		views_rec_int(r, "n_failed", (long long)p->config->n_failed);
		views_rec_num(r, "median", p->median);
		views_rec_bool(r, "censored", p->censored);
		views_rec_num(r, "fitted", scaling_saturation_eval(&ser->sat, p->x));
	} else {
		const struct scaling_dev_point *d = &ser->pts[i];
		views_rec_int(r, "count", (long long)d->count);
		views_rec_num(r, "median", p->median);
		views_rec_int(r, "n", (long long)p->config->n);
		views_rec_bool(r, "censored", d->censored);
		views_rec_num(r, "speedup", d->speedup);
		views_rec_num(r, "efficiency", d->efficiency);
		views_rec_num(r, "karp_flatt", d->karp_flatt);
		views_rec_num(r, "ideal", d->ideal);
		views_rec_num(r, "amdahl_speedup", d->amdahl);
	}
}
