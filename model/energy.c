/*
 * energy.c - integrate power samples, combine devices, and derive work
 * per energy; see energy.h.  GSL has no integrator for sampled data, so
 * the trapezoid sum is written here.
 */
#include "core/compat.h"
#include "core/error.h"
#include "core/num.h"
#include "model/energy.h"

#include <math.h>

#define J_PER_WH 3600.0

static const char *const boundary_names[] = {
	[ENERGY_BOUNDARY_UNKNOWN] = "unknown",
	[ENERGY_BOUNDARY_GPU] = "gpu",
	[ENERGY_BOUNDARY_MODULE] = "module",
	[ENERGY_BOUNDARY_NODE] = "node",
	[ENERGY_BOUNDARY_NODE_SWITCH] = "node+switch",
};

const char *energy_boundary_name(enum energy_boundary b)
{
	if ((size_t)b < AB_ARRAY_SIZE(boundary_names))
		return boundary_names[b];
	return "unknown";
}

int energy_boundary_parse(const char *s, enum energy_boundary *out, struct strbuf *err)
{
	size_t i;

	if (s && !strcmp(s, "device")) {
		*out = ENERGY_BOUNDARY_GPU;
		return 0;
	}
	for (i = 0; s && i < AB_ARRAY_SIZE(boundary_names); i++)
		if (!strcmp(s, boundary_names[i])) {
			*out = (enum energy_boundary)i;
			return 0;
		}
	return ab_fail(err, AB_EDATA,
		       "unknown measurement boundary \"%s\" (want gpu, module, node or node+switch)",
		       s ? s : "");
}

static void summary_clear(struct energy_summary *s, enum energy_boundary boundary)
{
	memset(s, 0, sizeof(*s));
	s->boundary = boundary;
	s->t_start = s->t_end = s->duration_s = NAN;
	s->energy_wh = s->energy_wh_jpwr = s->avg_power_w = s->peak_power_w = NAN;
}

static int back_in_time(struct strbuf *err, size_t i, const double *t)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int rc;

	/* shortest round-trip form: epoch seconds keep their microseconds */
	num_format(&a, t[i]);
	num_format(&b, t[i - 1]);
	rc = ab_fail(err, AB_EDATA, "power sample %zu goes back in time (%s < %s)", i + 1, a.buf,
		     b.buf);
	strbuf_release(&a);
	strbuf_release(&b);
	return rc;
}

static int check_series(const double *t, const double *w, size_t n, struct strbuf *err)
{
	size_t i;

	if (n == 0)
		return ab_fail(err, AB_EDATA, "no power samples");
	for (i = 0; i < n; i++) {
		if (!isfinite(t[i]) || !isfinite(w[i]))
			return ab_fail(err, AB_EDATA, "power sample %zu is not a finite number", i + 1);
		if (w[i] < 0.0)
			return ab_fail(err, AB_EDATA, "power sample %zu is negative (%g W)", i + 1, w[i]);
		if (i && t[i] < t[i - 1])
			return back_in_time(err, i, t);
	}
	return 0;
}

int energy_from_samples(const double *t, const double *w, size_t n,
			enum energy_boundary boundary, struct energy_summary *out,
			struct strbuf *err)
{
	double trap = 0.0, jpwr = 0.0, peak;
	size_t i;
	int rc;

	summary_clear(out, boundary);
	if ((rc = check_series(t, w, n, err)))
		return rc;
	peak = w[0];
	for (i = 1; i < n; i++) {
		double dt = t[i] - t[i - 1];

		trap += 0.5 * (w[i] + w[i - 1]) * dt;
		jpwr += w[i] * dt;
		if (w[i] > peak)
			peak = w[i];
	}
	out->n_samples = n;
	out->t_start = t[0];
	out->t_end = t[n - 1];
	out->duration_s = t[n - 1] - t[0];
	out->energy_wh = trap / J_PER_WH;
	out->energy_wh_jpwr = jpwr / J_PER_WH;
	out->peak_power_w = peak;
	if (out->duration_s > 0.0)
		out->avg_power_w = trap / out->duration_s;
	return 0;
}

static int same_times(const struct energy_series *s, size_t k)
{
	size_t d;

	for (d = 1; d < k; d++)
		if (s[d].n != s[0].n || memcmp(s[d].t, s[0].t, s[0].n * sizeof(double)))
			return 0;
	return 1;
}

int energy_sum(const struct energy_series *s, size_t k, enum energy_boundary boundary,
	       struct energy_summary *out, struct strbuf *err)
{
	struct energy_summary one;
	double t0 = 0.0, t1 = 0.0, trap_wh = 0.0, jpwr_wh = 0.0, peak_sum = 0.0;
	size_t d, i, n = 0;
	int rc;

	summary_clear(out, boundary);
	if (k == 0)
		return ab_fail(err, AB_EDATA, "no power series");
	for (d = 0; d < k; d++) {
		if ((rc = energy_from_samples(s[d].t, s[d].w, s[d].n, boundary, &one, err))) {
			struct strbuf msg = STRBUF_INIT;

			if (err) {
				strbuf_addf(&msg, "device %zu: %s", d + 1, err->buf);
				strbuf_setstr(err, msg.buf);
			}
			strbuf_release(&msg);
			return rc;
		}
		if (!d || one.t_start < t0)
			t0 = one.t_start;
		if (!d || one.t_end > t1)
			t1 = one.t_end;
		trap_wh += one.energy_wh;
		jpwr_wh += one.energy_wh_jpwr;
		peak_sum += one.peak_power_w;
		n += one.n_samples;
	}
	out->n_samples = n;
	out->t_start = t0;
	out->t_end = t1;
	out->duration_s = t1 - t0;
	out->energy_wh = trap_wh;
	out->energy_wh_jpwr = jpwr_wh;
	if (out->duration_s > 0.0)
		out->avg_power_w = trap_wh * J_PER_WH / out->duration_s;
	if (same_times(s, k)) {
		out->peak_power_w = 0.0;
		for (i = 0; i < s[0].n; i++) {
			double sum = 0.0;

			for (d = 0; d < k; d++)
				sum += s[d].w[i];
			if (sum > out->peak_power_w)
				out->peak_power_w = sum;
		}
	} else {
		out->peak_power_w = peak_sum;
		out->peak_is_bound = 1;
	}
	return 0;
}

void energy_efficiency(double work, double energy_wh, enum energy_boundary boundary,
		       struct energy_eff *out)
{
	out->boundary = boundary;
	out->work_per_wh = energy_wh > 0.0 ? work / energy_wh : NAN;
	out->j_per_unit = work > 0.0 ? energy_wh * J_PER_WH / work : NAN;
}

void energy_efficiency_rate(double throughput, double avg_power_w,
			    enum energy_boundary boundary, struct energy_eff *out)
{
	out->boundary = boundary;
	out->work_per_wh = avg_power_w > 0.0 ? throughput * J_PER_WH / avg_power_w : NAN;
	out->j_per_unit = throughput > 0.0 ? avg_power_w / throughput : NAN;
}
