/*
 * cmd_scaling.c - `accelbench scaling -b BENCH [--by batch|devices|nodes]`:
 * throughput against global batch with the saturation fit and its knee,
 * or against devices/nodes with speedup, efficiency, Karp-Flatt and the
 * Amdahl fit: options and rendering of the views/ scaling rows.
 */
#include "core/compat.h"
#include "commands.h"

#include <math.h>

static json_t *series_json(const struct views_scaling *v, const struct views_scaling_series *ser,
			   struct views_record *rec)
{
	json_t *o, *pts = json_array();
	size_t i;

	views_record_reset(rec);
	views_scaling_series_record(v, ser, rec);
	o = cli_record_json(rec);
	for (i = 0; i < ser->s->n; i++) {
		views_record_reset(rec);
		views_scaling_point_record(v, ser, i, rec);
		json_array_append_new(pts, cli_record_json(rec));
	}
	json_object_set_new(o, "points", pts);
	return o;
}

static void batch_rows(const struct views_scaling_series *ser, struct table *t,
		       struct strbuf *notes)
{
	const struct series *s = ser->s;
	const struct db_config *f = s->first;
	const struct scaling_sat *fit = &ser->sat;
	struct strbuf v = STRBUF_INIT;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct series_point *p = &s->pts[i];
		table_add_row(t);
		table_set(t, 0, f->system);
		table_set(t, 1, ser->label);
		table_setf(t, 2, "%.0f", p->x);
		table_setf(t, 3, "%zu/%zu", p->config->n, p->config->n + p->config->n_failed);
		strbuf_reset(&v);
		if (p->censored)
			strbuf_addstr(&v, "failed");
		else
			views_fmt_value(&v, p->median);
		table_set(t, 4, v.buf);
		strbuf_reset(&v);
		views_fmt_value(&v, scaling_saturation_eval(fit, p->x));
		table_set(t, 5, v.buf);
		table_set(t, 6, fit->has_knee && fit->knee_b == p->x ? "knee" : "");
	}
	strbuf_addf(notes, "%s (%s): ", f->system, ser->label);
	if (fit->status == SCALING_OK) {
		strbuf_addstr(notes, "Xmax ");
		views_fmt_value(notes, fit->xmax);
		strbuf_addch(notes, ' ');
		views_fmt_ci(notes, fit->xmax_ci_low, fit->xmax_ci_high);
		strbuf_addf(notes, " %s, b1/2 ", f->unit);
		views_fmt_value(notes, fit->bhalf);
		strbuf_addch(notes, ' ');
		views_fmt_ci(notes, fit->bhalf_ci_low, fit->bhalf_ci_high);
		if (fit->has_knee)
			strbuf_addf(notes, ", knee at batch %.0f", fit->knee_b);
	} else {
		strbuf_addf(notes, "no fit (%s)", scaling_status_name(fit->status));
	}
	if (isfinite(fit->min_censored_b))
		strbuf_addf(notes, "; fails from batch %.0f", fit->min_censored_b);
	strbuf_addch(notes, '\n');
	strbuf_release(&v);
}

static void device_rows(const struct views_scaling_series *ser, struct table *t,
			struct strbuf *notes)
{
	const struct series *s = ser->s;
	const struct db_config *f = s->first;
	const struct scaling_dev_point *pts = ser->pts;
	struct strbuf v = STRBUF_INIT;
	size_t i;

	for (i = 0; i < s->n; i++) {
		table_add_row(t);
		table_set(t, 0, f->system);
		table_set(t, 1, ser->label);
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
	strbuf_addf(notes, "%s (%s): ", f->system, ser->label);
	if (ser->dev.status == SCALING_OK) {
		strbuf_addstr(notes, "Amdahl serial fraction ");
		views_fmt_value(notes, ser->dev.serial);
		strbuf_addch(notes, ' ');
		views_fmt_ci(notes, ser->dev.serial_ci_low, ser->dev.serial_ci_high);
	} else {
		strbuf_addf(notes, "no Amdahl fit (%s)", scaling_status_name(ser->dev.status));
	}
	strbuf_addch(notes, '\n');
	strbuf_release(&v);
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
	struct views_record rec = VIEWS_RECORD_INIT;
	struct views_scaling sv = { 0 };
	const struct db_config *c0;
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
	if ((rc = cli_check_names(ctx, "scaling", q.suite, q.benchmark, q.system, q.metric, NULL)) != AB_OK)
		return rc;
	cli_note_invalid(ctx, q.suite, q.benchmark, q.system);
	rc = views_scaling_build(ctx->db, &q, (enum series_axis)axis, &sv, &err);
	if (rc < 0)
		goto out;
	c0 = &sv.configs.v[0];
	if (json || csv) {
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
	for (i = 0; i < sv.n; i++) {
		if (arr)
			json_array_append_new(arr, series_json(&sv, &sv.v[i], &rec));
		else if (axis == SERIES_BATCH)
			batch_rows(&sv.v[i], t, &notes);
		else
			device_rows(&sv.v[i], t, &notes);
	}
	if (arr) {
		rc = csv ? cli_output_csv(NULL, arr) : cli_output_json(NULL, arr);
	} else {
		{
			strbuf_addf(&out, "%s, %s [%s] by %s\n", c0->benchmark, c0->metric,
				    c0->unit, axis == SERIES_BATCH ? "global batch"
								       : series_axis_name(axis));
			table_render_text(t, &out);
			strbuf_addch(&out, '\n');
			cli_wrap(&out, notes.buf, CLI_WIDTH);
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
	views_record_release(&rec);
	views_scaling_release(&sv);
	strbuf_release(&out);
	strbuf_release(&notes);
	strbuf_release(&err);
	return rc;
}
