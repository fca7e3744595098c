/*
 * cmd_scaling.c - `accelbench scaling -b BENCH [--by batch|devices|nodes]`:
 * throughput against global batch with the saturation fit and its knee,
 * or against devices/nodes with speedup, efficiency, Karp-Flatt and the
 * Amdahl fit.
 */
#include "core/compat.h"
#include "commands.h"
#include "model/scaling.h"
#include "model/series.h"

#include <math.h>

static int batch_series(const struct series *s, json_t *arr, struct table *t,
			struct strbuf *notes, struct strbuf *err)
{
	const struct db_config *f = s->first;
	double *b = NULL, *x = NULL;
	unsigned char *cens = NULL;
	struct scaling_sat fit;
	struct strbuf label = STRBUF_INIT, v = STRBUF_INIT;
	size_t i, k, n = 0, total = 0;
	json_t *o, *pts;
	int rc;

	for (i = 0; i < s->n; i++)
		total += s->pts[i].censored ? 1 : s->pts[i].config->n;
	b = ab_calloc(total, sizeof(*b));
	x = ab_calloc(total, sizeof(*x));
	cens = ab_calloc(total, 1);
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
	rc = scaling_saturation_fit(b, x, cens, n, &fit, err);
	free(b);
	free(x);
	free(cens);
	if (rc < 0)
		return rc;
	series_shape_label(s, SERIES_BATCH, &label);
	if (arr) {
		o = json_object();
		pts = json_array();
		json_object_set_new(o, "benchmark", json_string(f->benchmark));
		json_object_set_new(o, "system", json_string(f->system));
		json_object_set_new(o, "nodes", cli_json_pos(s->nodes));
		json_object_set_new(o, "devices", cli_json_pos(s->devices));
		json_object_set_new(o, "precision", cli_json_str(s->precision));
		json_object_set_new(o, "metric", json_string(f->metric));
		json_object_set_new(o, "unit", json_string(f->unit));
		for (i = 0; i < s->n; i++) {
			const struct series_point *p = &s->pts[i];
			json_t *po = json_object();
			json_object_set_new(po, "global_batch", json_integer((json_int_t)p->x));
			json_object_set_new(po, "n", json_integer((json_int_t)p->config->n));
			json_object_set_new(po, "n_failed", json_integer((json_int_t)p->config->n_failed));
			json_object_set_new(po, "median", cli_json_num(p->median));
			json_object_set_new(po, "censored", json_boolean(p->censored));
			json_object_set_new(po, "fitted", cli_json_num(scaling_saturation_eval(&fit, p->x)));
			json_array_append_new(pts, po);
		}
		json_object_set_new(o, "points", pts);
		json_object_set_new(o, "fit_status", json_string(scaling_status_name(fit.status)));
		json_object_set_new(o, "xmax", cli_json_num(fit.xmax));
		json_object_set_new(o, "xmax_ci_low", cli_json_num(fit.xmax_ci_low));
		json_object_set_new(o, "xmax_ci_high", cli_json_num(fit.xmax_ci_high));
		json_object_set_new(o, "bhalf", cli_json_num(fit.bhalf));
		json_object_set_new(o, "bhalf_ci_low", cli_json_num(fit.bhalf_ci_low));
		json_object_set_new(o, "bhalf_ci_high", cli_json_num(fit.bhalf_ci_high));
		json_object_set_new(o, "knee_batch", fit.has_knee ? json_integer((json_int_t)fit.knee_b)
								  : json_null());
		json_object_set_new(o, "knee_value", cli_json_num(fit.has_knee ? fit.knee_x : NAN));
		json_object_set_new(o, "min_failed_batch", cli_json_num(fit.min_censored_b));
		json_object_set_new(o, "rss", cli_json_num(fit.rss));
		json_object_set_new(o, "dof", json_integer((json_int_t)fit.dof));
		json_array_append_new(arr, o);
	} else {
		for (i = 0; i < s->n; i++) {
			const struct series_point *p = &s->pts[i];
			table_add_row(t);
			table_set(t, 0, f->system);
			table_set(t, 1, label.buf);
			table_setf(t, 2, "%.0f", p->x);
			table_setf(t, 3, "%zu/%zu", p->config->n, p->config->n + p->config->n_failed);
			strbuf_reset(&v);
			if (p->censored)
				strbuf_addstr(&v, "failed");
			else
				views_fmt_value(&v, p->median);
			table_set(t, 4, v.buf);
			strbuf_reset(&v);
			views_fmt_value(&v, scaling_saturation_eval(&fit, p->x));
			table_set(t, 5, v.buf);
			table_set(t, 6, fit.has_knee && fit.knee_b == p->x ? "knee" : "");
		}
		strbuf_addf(notes, "%s (%s): ", f->system, label.buf);
		if (fit.status == SCALING_OK) {
			strbuf_addstr(notes, "Xmax ");
			views_fmt_value(notes, fit.xmax);
			strbuf_addch(notes, ' ');
			views_fmt_ci(notes, fit.xmax_ci_low, fit.xmax_ci_high);
			strbuf_addf(notes, " %s, b1/2 ", f->unit);
			views_fmt_value(notes, fit.bhalf);
			strbuf_addch(notes, ' ');
			views_fmt_ci(notes, fit.bhalf_ci_low, fit.bhalf_ci_high);
			if (fit.has_knee)
				strbuf_addf(notes, ", knee at batch %.0f", fit.knee_b);
		} else {
			strbuf_addf(notes, "no fit (%s)", scaling_status_name(fit.status));
		}
		if (isfinite(fit.min_censored_b))
			strbuf_addf(notes, "; fails from batch %.0f", fit.min_censored_b);
		strbuf_addch(notes, '\n');
	}
	strbuf_release(&label);
	strbuf_release(&v);
	return 0;
}

static int device_series(const struct series *s, enum series_axis axis, json_t *arr,
			 struct table *t, struct strbuf *notes, struct strbuf *err)
{
	const struct db_config *f = s->first;
	double *cnt = ab_calloc(s->n, sizeof(double)), *val = ab_calloc(s->n, sizeof(double));
	unsigned char *cens = ab_calloc(s->n, 1);
	struct scaling_dev_point *pts = ab_calloc(s->n, sizeof(*pts));
	struct scaling_dev fit;
	struct strbuf label = STRBUF_INIT, v = STRBUF_INIT;
	size_t i;
	int rc;

	for (i = 0; i < s->n; i++) {
		cnt[i] = s->pts[i].x;
		val[i] = s->pts[i].median;
		cens[i] = (unsigned char)s->pts[i].censored;
	}
	rc = scaling_devices(cnt, val, cens, s->n,
			     f->lower_is_better ? STATS_LOWER_IS_BETTER : STATS_HIGHER_IS_BETTER,
			     &fit, pts, err);
	if (rc < 0)
		goto out;
	series_shape_label(s, axis, &label);
	if (arr) {
		json_t *o = json_object(), *pa = json_array();
		json_object_set_new(o, "benchmark", json_string(f->benchmark));
		json_object_set_new(o, "system", json_string(f->system));
		json_object_set_new(o, "by", json_string(series_axis_name(axis)));
		json_object_set_new(o, "per_device_batch", cli_json_pos(s->per_device_batch));
		json_object_set_new(o, "precision", cli_json_str(s->precision));
		json_object_set_new(o, "metric", json_string(f->metric));
		json_object_set_new(o, "unit", json_string(f->unit));
		for (i = 0; i < s->n; i++) {
			json_t *po = json_object();
			json_object_set_new(po, "count", json_integer((json_int_t)pts[i].count));
			json_object_set_new(po, "median", cli_json_num(s->pts[i].median));
			json_object_set_new(po, "n", json_integer((json_int_t)s->pts[i].config->n));
			json_object_set_new(po, "censored", json_boolean(pts[i].censored));
			json_object_set_new(po, "speedup", cli_json_num(pts[i].speedup));
			json_object_set_new(po, "efficiency", cli_json_num(pts[i].efficiency));
			json_object_set_new(po, "karp_flatt", cli_json_num(pts[i].karp_flatt));
			json_object_set_new(po, "ideal", cli_json_num(pts[i].ideal));
			json_object_set_new(po, "amdahl_speedup", cli_json_num(pts[i].amdahl));
			json_array_append_new(pa, po);
		}
		json_object_set_new(o, "points", pa);
		json_object_set_new(o, "fit_status", json_string(scaling_status_name(fit.status)));
		json_object_set_new(o, "serial_fraction", cli_json_num(fit.serial));
		json_object_set_new(o, "serial_ci_low", cli_json_num(fit.serial_ci_low));
		json_object_set_new(o, "serial_ci_high", cli_json_num(fit.serial_ci_high));
		json_array_append_new(arr, o);
	} else {
		for (i = 0; i < s->n; i++) {
			table_add_row(t);
			table_set(t, 0, f->system);
			table_set(t, 1, label.buf);
			table_setf(t, 2, "%.0f", pts[i].count);
			strbuf_reset(&v);
			if (pts[i].censored)
				strbuf_addstr(&v, "failed");
			else
				views_fmt_value(&v, s->pts[i].median);
			table_set(t, 3, v.buf);
			strbuf_reset(&v);
			views_fmt_value(&v, pts[i].speedup);
			table_set(t, 4, v.buf);
			strbuf_reset(&v);
			if (isfinite(pts[i].efficiency))
				strbuf_addf(&v, "%.1f", 100 * pts[i].efficiency);
			else
				strbuf_addstr(&v, "n/a");
			table_set(t, 5, v.buf);
			strbuf_reset(&v);
			views_fmt_value(&v, pts[i].karp_flatt);
			table_set(t, 6, v.buf);
		}
		strbuf_addf(notes, "%s (%s): ", f->system, label.buf);
		if (fit.status == SCALING_OK) {
			strbuf_addstr(notes, "Amdahl serial fraction ");
			views_fmt_value(notes, fit.serial);
			strbuf_addch(notes, ' ');
			views_fmt_ci(notes, fit.serial_ci_low, fit.serial_ci_high);
		} else {
			strbuf_addf(notes, "no Amdahl fit (%s)", scaling_status_name(fit.status));
		}
		strbuf_addch(notes, '\n');
	}
out:
	free(cnt);
	free(val);
	free(cens);
	free(pts);
	strbuf_release(&label);
	strbuf_release(&v);
	return rc;
}

int cmd_scaling(int argc, char **argv, struct ctx *ctx)
{
	struct db_config_query q = { 0 };
	const char *by = "batch";
	int json = 0, csv = 0, axis;
	const struct opt opts[] = {
		{ 'b', "benchmark", OPT_STRING, &q.benchmark, "B", "the benchmark (required)" },
		{ 0, "by", OPT_STRING, &by, "AXIS", "batch (default), devices or nodes" },
		{ 0, "system", OPT_STRING, &q.system, "S", "only this system" },
		{ 'm', "metric", OPT_STRING, &q.metric, "M", "metric (default: the headline metric)" },
		{ 0, "suite", OPT_STRING, &q.suite, "S", "the suite, when two have the benchmark" },
		{ 0, "json", OPT_FLAG, &json, NULL, "print JSON" },
		{ 0, "csv", OPT_FLAG, &csv, NULL, "print CSV" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, notes = STRBUF_INIT;
	struct db_configs cs = { 0 };
	struct series_set ss = { 0 };
	struct table *t = NULL;
	json_t *arr = NULL;
	size_t i;
	int rc;

	if (cli_parse_options("scaling", opts, argc, argv, &rc))
		return rc;
	if (!q.benchmark)
		return cli_error(AB_EUSAGE, "scaling: -b BENCH is required");
	axis = series_axis_parse(by);
	if (axis < 0)
		return cli_error(AB_EUSAGE, "scaling: --by must be batch, devices or nodes");
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	cli_note_invalid(ctx, q.suite, q.benchmark, q.system);
	rc = db_load_configs(ctx->db, &q, &cs, &err);
	if (rc < 0)
		goto out;
	series_build(&cs, (enum series_axis)axis, &ss);
	if (!ss.n) {
		rc = ab_fail(&err, AB_EDATA, "scaling: no runs of '%s'%s%s with a known %s", q.benchmark,
			     q.system ? " on " : "", q.system ? q.system : "",
			     axis == SERIES_BATCH ? "global batch" : series_axis_name(axis));
		goto out;
	}
	if (json) {
		arr = json_array();
	} else {
		t = table_new();
		table_add_column(t, "system", TABLE_LEFT);
		table_add_column(t, "fixed", TABLE_LEFT);
		if (axis == SERIES_BATCH) {
			table_add_column(t, "batch", TABLE_RIGHT);
			table_add_column(t, "ok/runs", TABLE_RIGHT);
			table_add_column(t, "median", TABLE_RIGHT);
			table_add_column(t, "fitted", TABLE_RIGHT);
			table_add_column(t, "", TABLE_LEFT);
		} else {
			table_add_column(t, series_axis_name(axis), TABLE_RIGHT);
			table_add_column(t, "median", TABLE_RIGHT);
			table_add_column(t, "speedup", TABLE_RIGHT);
			table_add_column(t, "efficiency %", TABLE_RIGHT);
			table_add_column(t, "Karp-Flatt", TABLE_RIGHT);
		}
	}
	for (i = 0; i < ss.n; i++) {
		if (axis == SERIES_BATCH)
			rc = batch_series(&ss.v[i], arr, t, &notes, &err);
		else if (ss.v[i].n >= 1)
			rc = device_series(&ss.v[i], (enum series_axis)axis, arr, t, &notes, &err);
		if (rc < 0)
			goto out;
	}
	if (arr) {
		rc = cli_output_json(NULL, arr);
	} else {
		if (csv) {
			table_render_csv(t, &out);
		} else {
			strbuf_addf(&out, "%s, %s [%s] by %s\n", cs.v[0].benchmark, cs.v[0].metric,
				    cs.v[0].unit, axis == SERIES_BATCH ? "global batch"
								       : series_axis_name(axis));
			table_render_text(t, &out);
			strbuf_addch(&out, '\n');
			strbuf_addbuf(&out, &notes);
			if (axis == SERIES_BATCH)
				strbuf_addstr(&out, "fit: X(b) = Xmax*b/(b + b1/2), 95% CIs; knee = smallest "
						    "measured batch reaching 90% of Xmax\n");
		}
		rc = cli_output(NULL, &out);
	}
	goto done;
out:
	rc = cli_status(rc, &err);
done:
	json_decref(arr);
	table_free(t);
	series_set_release(&ss);
	db_configs_release(&cs);
	strbuf_release(&out);
	strbuf_release(&notes);
	strbuf_release(&err);
	return rc;
}
