/*
 * scaling.c - saturation fit of throughput against batch size and
 * device/node scaling (speedup, efficiency, Karp-Flatt, Amdahl fit); see
 * scaling.h.  Nonlinear least squares, covariances and t quantiles are
 * GSL's; this file only states the models and their derivatives.
 */
#include "core/compat.h"
#include "core/error.h"
#include "model/scaling.h"

#include <math.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_statistics_double.h>

#define NL_MAXITER 500
#define NL_XTOL 1e-12
#define NL_GTOL 1e-12

const char *scaling_status_name(enum scaling_status s)
{
	switch (s) {
	case SCALING_OK:
		return "ok";
	case SCALING_TOO_FEW_POINTS:
		return "too few points";
	case SCALING_NO_CONVERGENCE:
		return "fit did not converge";
	case SCALING_NOT_SATURATING:
		return "not saturating";
	}
	return "unknown";
}

/* ---- a small front end to gsl_multifit_nlinear ----------------------- */

#define NL_MAXP 2

struct nl_fit {
	double par[NL_MAXP];
	double se[NL_MAXP];     /* NAN when dof == 0 */
	double rss;
	size_t dof;
	size_t iterations;
};

/* GSL's gradient test, max_i |g_i| max(|x_i|, 1) <= gtol max(|f|^2 / 2, 1),
 * with g = J' f; the fits below work on O(1) scaled parameters. */
static int stationary(const gsl_matrix *J, const gsl_vector *f, const gsl_vector *x)
{
	gsl_vector *g = gsl_vector_alloc(J->size2);
	double ff, gmax = 0.0;
	size_t i;

	if (!g)
		abort(); /* allocation failure, as ab_malloc */
	gsl_blas_dgemv(CblasTrans, 1.0, J, f, 0.0, g);
	gsl_blas_ddot(f, f, &ff);
	for (i = 0; i < g->size; i++) {
		double xi = fabs(gsl_vector_get(x, i));
		double gi = fabs(gsl_vector_get(g, i)) * (xi > 1.0 ? xi : 1.0);

		if (gi > gmax)
			gmax = gi;
	}
	gsl_vector_free(g);
	return gmax <= NL_GTOL * (ff / 2.0 > 1.0 ? ff / 2.0 : 1.0);
}

/*
 * Minimise sum f_i(par)^2 from start; n residuals, p <= NL_MAXP
 * parameters.  Returns 1 when the solver converged to finite values.
 * GSL's error handler is switched off meanwhile: a singular Jacobian must
 * become a status here, not an abort() in the middle of a report.
 */
static int nl_solve(gsl_multifit_nlinear_fdf *fdf, const double *start, struct nl_fit *out)
{
	gsl_multifit_nlinear_parameters params = gsl_multifit_nlinear_default_parameters();
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	gsl_vector_const_view x0 = gsl_vector_const_view_array(start, fdf->p);
	gsl_multifit_nlinear_workspace *w;
	gsl_matrix *covar;
	gsl_vector *f, *x;
	size_t i, p = fdf->p;
	int info = 0, status, ok = 0;
	double s2;

	w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params, fdf->n, p);
	covar = gsl_matrix_alloc(p, p);
	if (!w || !covar)
		abort(); /* allocation failure, as ab_malloc */
	status = gsl_multifit_nlinear_init(&x0.vector, fdf, w);
	if (!status)
		status = gsl_multifit_nlinear_driver(NL_MAXITER, NL_XTOL, NL_GTOL, 0.0, NULL, NULL,
						     &info, w);
	x = gsl_multifit_nlinear_position(w);
	f = gsl_multifit_nlinear_residual(w);
	/* Started on (or reached) an exact minimum, e.g. noise-free data: the
	 * solver rejects every step for want of a decrease and reports "no
	 * progress" (as GSL_EMAXITER with info GSL_ENOPROG when it is the very
	 * first step).  A vanishing gradient means we are done. */
	if ((status == GSL_ENOPROG || (status == GSL_EMAXITER && info == GSL_ENOPROG)) &&
	    stationary(gsl_multifit_nlinear_jac(w), f, x))
		status = GSL_SUCCESS;
	out->iterations = gsl_multifit_nlinear_niter(w);
	gsl_blas_ddot(f, f, &out->rss);
	out->dof = fdf->n - p;
	s2 = out->dof ? out->rss / (double)out->dof : NAN;
	if (!status)
		status = gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, covar);
	if (!status) {
		ok = 1;
		for (i = 0; i < p; i++) {
			out->par[i] = gsl_vector_get(x, i);
			out->se[i] = out->dof ? sqrt(s2 * gsl_matrix_get(covar, i, i)) : NAN;
			if (!isfinite(out->par[i]))
				ok = 0;
		}
	}
	gsl_matrix_free(covar);
	gsl_multifit_nlinear_free(w);
	gsl_set_error_handler(old);
	return ok;
}

/* Half-width multiplier of a two-sided STATS_LEVEL t interval. */
static double t_quantile(size_t dof)
{
	return gsl_cdf_tdist_Pinv((1.0 + STATS_LEVEL) / 2.0, (double)dof);
}

/* ---- saturation X(b) = Xmax b / (b + bhalf) ------------------------- */

/* Fitted on scaled data (b / bref, x / xref) so both parameters are O(1). */
struct sat_data {
	const double *b;
	const double *x;
	size_t n;
};

static int sat_f(const gsl_vector *par, void *data, gsl_vector *f)
{
	const struct sat_data *d = data;
	double xmax = gsl_vector_get(par, 0), bh = gsl_vector_get(par, 1);
	size_t i;

	for (i = 0; i < d->n; i++)
		gsl_vector_set(f, i, xmax * d->b[i] / (d->b[i] + bh) - d->x[i]);
	return GSL_SUCCESS;
}

static int sat_df(const gsl_vector *par, void *data, gsl_matrix *J)
{
	const struct sat_data *d = data;
	double xmax = gsl_vector_get(par, 0), bh = gsl_vector_get(par, 1);
	size_t i;

	for (i = 0; i < d->n; i++) {
		double den = d->b[i] + bh;

		gsl_matrix_set(J, i, 0, d->b[i] / den);
		gsl_matrix_set(J, i, 1, -xmax * d->b[i] / (den * den));
	}
	return GSL_SUCCESS;
}

static void sat_clear(struct scaling_sat *s)
{
	memset(s, 0, sizeof(*s));
	s->level = STATS_LEVEL;
	s->min_censored_b = s->max_ok_b = NAN;
	s->xmax = s->xmax_se = s->xmax_ci_low = s->xmax_ci_high = NAN;
	s->bhalf = s->bhalf_se = s->bhalf_ci_low = s->bhalf_ci_high = NAN;
	s->rss = s->knee_b = s->knee_x = NAN;
}

/* Start values from the Lineweaver-Burk line, or a rough guess. */
static void sat_start(const struct sat_data *d, double start[2])
{
	double *u = ab_malloc(d->n * sizeof(*u)), *y = ab_malloc(d->n * sizeof(*y));
	double c0, c1, c00, c01, c11, ss, xmax = 0.0;
	size_t i;

	for (i = 0; i < d->n; i++) {
		u[i] = 1.0 / d->b[i];
		y[i] = 1.0 / d->x[i];
		if (d->x[i] > xmax)
			xmax = d->x[i];
	}
	if (!gsl_fit_linear(u, 1, y, 1, d->n, &c0, &c1, &c00, &c01, &c11, &ss) && c0 > 0.0 &&
	    c1 > 0.0 && isfinite(c1 / c0)) {
		start[0] = 1.0 / c0;
		start[1] = c1 / c0;
	} else {
		start[0] = 1.2 * xmax;
		start[1] = stats_median(d->b, d->n);
	}
	free(y);
	free(u);
}

struct bx {
	double b, x;
};

static int cmp_bx(const void *pa, const void *pb)
{
	const struct bx *a = pa, *b = pb;

	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	return (a->x > b->x) - (a->x < b->x);
}

/* Smallest measured b whose median throughput reaches the knee level. */
static void sat_knee(const double *b, const double *x, size_t n, struct scaling_sat *s)
{
	struct bx *p = ab_malloc(n * sizeof(*p));
	double *vals = ab_malloc(n * sizeof(*vals));
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		p[i].b = b[i];
		p[i].x = x[i];
	}
	qsort(p, n, sizeof(*p), cmp_bx);
	for (i = 0; i < n; i = j) {
		double med;

		for (j = i, k = 0; j < n && p[j].b == p[i].b; j++)
			vals[k++] = p[j].x;
		med = stats_median(vals, k);
		if (med >= SCALING_KNEE_FRACTION * s->xmax) {
			s->has_knee = 1;
			s->knee_b = p[i].b;
			s->knee_x = med;
			break;
		}
	}
	free(vals);
	free(p);
}

int scaling_saturation_fit(const double *b, const double *x, const unsigned char *censored,
			   size_t n, struct scaling_sat *out, struct strbuf *err)
{
	double *ub = NULL, *ux = NULL, *sb = NULL, *sx = NULL;
	double bref = 0.0, xref = 0.0, start[2], t;
	struct sat_data d;
	gsl_multifit_nlinear_fdf fdf;
	struct nl_fit fit;
	size_t i, m = 0, distinct = 0;

	sat_clear(out);
	for (i = 0; i < n; i++) {
		if (!isfinite(b[i]) || !(b[i] > 0.0))
			return ab_fail(err, AB_EDATA, "batch size %g of point %zu is not a positive number",
				       b[i], i + 1);
		if (censored && censored[i]) {
			out->n_censored++;
			if (isnan(out->min_censored_b) || b[i] < out->min_censored_b)
				out->min_censored_b = b[i];
			continue;
		}
		if (!isfinite(x[i]) || !(x[i] > 0.0))
			return ab_fail(err, AB_EDATA, "throughput %g of point %zu is not a positive number"
				       " (mark failed points as censored)", x[i], i + 1);
		if (isnan(out->max_ok_b) || b[i] > out->max_ok_b)
			out->max_ok_b = b[i];
	}
	ub = ab_malloc((n ? n : 1) * sizeof(*ub));
	ux = ab_malloc((n ? n : 1) * sizeof(*ux));
	for (i = 0; i < n; i++) {
		if (censored && censored[i])
			continue;
		ub[m] = b[i];
		ux[m] = x[i];
		if (ub[m] > bref)
			bref = ub[m];
		if (ux[m] > xref)
			xref = ux[m];
		m++;
	}
	out->n_used = m;
	/* two batch sizes are enough to fit (every run is a point: counting
	 * all distinct sizes was quadratic in the runs) */
	distinct = m > 0;
	for (i = 1; i < m && distinct < 2; i++)
		distinct += ub[i] != ub[0];
	if (distinct < 2) {
		out->status = SCALING_TOO_FEW_POINTS;
		goto done;
	}

	sb = ab_malloc(m * sizeof(*sb));
	sx = ab_malloc(m * sizeof(*sx));
	for (i = 0; i < m; i++) {
		sb[i] = ub[i] / bref;
		sx[i] = ux[i] / xref;
	}
	d.b = sb;
	d.x = sx;
	d.n = m;
	sat_start(&d, start);
	memset(&fdf, 0, sizeof(fdf));
	fdf.f = sat_f;
	fdf.df = sat_df;
	fdf.n = m;
	fdf.p = 2;
	fdf.params = &d;
	if (!nl_solve(&fdf, start, &fit)) {
		out->status = SCALING_NO_CONVERGENCE;
		goto done;
	}
	out->iterations = fit.iterations;
	/* bhalf beyond the largest batch: the data never pass half of Xmax,
	 * so Xmax is an extrapolation the measurements do not support
	 * (par[1] is scaled: 1.0 is the largest batch) */
	if (!(fit.par[0] > 0.0) || !(fit.par[1] > 0.0) || fit.par[1] > 1.0) {
		out->status = SCALING_NOT_SATURATING;
		goto done;
	}
	out->status = SCALING_OK;
	out->xmax = fit.par[0] * xref;
	out->bhalf = fit.par[1] * bref;
	out->xmax_se = fit.se[0] * xref;
	out->bhalf_se = fit.se[1] * bref;
	out->rss = fit.rss * xref * xref;
	out->dof = fit.dof;
	if (fit.dof) {
		t = t_quantile(fit.dof);
		out->xmax_ci_low = out->xmax - t * out->xmax_se;
		out->xmax_ci_high = out->xmax + t * out->xmax_se;
		out->bhalf_ci_low = out->bhalf - t * out->bhalf_se;
		out->bhalf_ci_high = out->bhalf + t * out->bhalf_se;
	}
	sat_knee(ub, ux, m, out);
done:
	free(sx);
	free(sb);
	free(ux);
	free(ub);
	return 0;
}

double scaling_saturation_eval(const struct scaling_sat *fit, double b)
{
	if (fit->status != SCALING_OK)
		return NAN;
	return fit->xmax * b / (b + fit->bhalf);
}

/* ---- device / node scaling ------------------------------------------ */

double scaling_amdahl(double s, double q)
{
	return 1.0 / (s + (1.0 - s) / q);
}

struct amdahl_data {
	const double *q;
	const double *speedup;
	size_t n;
};

/* S(q) = q / (1 + s (q - 1)), the same as 1 / (s + (1 - s) / q). */
static int amdahl_f(const gsl_vector *par, void *data, gsl_vector *f)
{
	const struct amdahl_data *d = data;
	double s = gsl_vector_get(par, 0);
	size_t i;

	for (i = 0; i < d->n; i++)
		gsl_vector_set(f, i, d->q[i] / (1.0 + s * (d->q[i] - 1.0)) - d->speedup[i]);
	return GSL_SUCCESS;
}

static int amdahl_df(const gsl_vector *par, void *data, gsl_matrix *J)
{
	const struct amdahl_data *d = data;
	double s = gsl_vector_get(par, 0);
	size_t i;

	for (i = 0; i < d->n; i++) {
		double den = 1.0 + s * (d->q[i] - 1.0);

		gsl_matrix_set(J, i, 0, -d->q[i] * (d->q[i] - 1.0) / (den * den));
	}
	return GSL_SUCCESS;
}

static void dev_clear(struct scaling_dev *s, enum stats_better better)
{
	memset(s, 0, sizeof(*s));
	s->better = better;
	s->level = STATS_LEVEL;
	s->count0 = s->value0 = NAN;
	s->serial = s->serial_se = s->serial_ci_low = s->serial_ci_high = s->rss = NAN;
}

static int dev_check(const double *count, const double *value, const unsigned char *censored,
		     size_t n, struct strbuf *err)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (!isfinite(count[i]) || !(count[i] > 0.0))
			return ab_fail(err, AB_EDATA, "count %g of point %zu is not a positive number",
				       count[i], i + 1);
		for (j = 0; j < i; j++)
			if (count[j] == count[i])
				return ab_fail(err, AB_EDATA,
					       "count %g appears twice (pass one value per count)",
					       count[i]);
		if (!(censored && censored[i]) && (!isfinite(value[i]) || !(value[i] > 0.0)))
			return ab_fail(err, AB_EDATA, "value %g of point %zu is not a positive number"
				       " (mark failed points as censored)", value[i], i + 1);
	}
	return 0;
}

static void amdahl_fit(const double *q, const double *sp, const double *kf, size_t m,
		       struct scaling_dev *out)
{
	struct amdahl_data d = { q, sp, m };
	gsl_multifit_nlinear_fdf fdf;
	struct nl_fit fit;
	double start;

	if (m == 0) {
		out->status = SCALING_TOO_FEW_POINTS;
		return;
	}
	/* on exact Amdahl data every Karp-Flatt value equals s */
	start = stats_median(kf, m);
	if (!(start > -0.5))
		start = -0.5;
	if (start > 0.99)
		start = 0.99;
	memset(&fdf, 0, sizeof(fdf));
	fdf.f = amdahl_f;
	fdf.df = amdahl_df;
	fdf.n = m;
	fdf.p = 1;
	fdf.params = &d;
	if (!nl_solve(&fdf, &start, &fit)) {
		out->status = SCALING_NO_CONVERGENCE;
		return;
	}
	out->status = SCALING_OK;
	out->serial = fit.par[0];
	out->serial_se = fit.se[0];
	out->rss = fit.rss;
	out->dof = fit.dof;
	out->iterations = fit.iterations;
	if (fit.dof) {
		double t = t_quantile(fit.dof);

		out->serial_ci_low = out->serial - t * out->serial_se;
		out->serial_ci_high = out->serial + t * out->serial_se;
	}
}

int scaling_devices(const double *count, const double *value, const unsigned char *censored,
		    size_t n, enum stats_better better, struct scaling_dev *out,
		    struct scaling_dev_point *points, struct strbuf *err)
{
	double *q, *sp, *kf;
	size_t i, m = 0;
	int rc;

	dev_clear(out, better);
	if ((rc = dev_check(count, value, censored, n, err)))
		return rc;
	for (i = 0; i < n; i++) {
		if (censored && censored[i]) {
			out->n_censored++;
			continue;
		}
		out->n_used++;
		if (isnan(out->count0) || count[i] < out->count0) {
			out->count0 = count[i];
			out->value0 = value[i];
		}
	}
	q = ab_malloc((n ? n : 1) * sizeof(*q));
	sp = ab_malloc((n ? n : 1) * sizeof(*sp));
	kf = ab_malloc((n ? n : 1) * sizeof(*kf));
	for (i = 0; i < n; i++) {
		struct scaling_dev_point pt;
		int cen = censored && censored[i];

		pt.count = count[i];
		pt.value = value[i];
		pt.censored = cen;
		pt.q = count[i] / out->count0;
		pt.speedup = pt.efficiency = pt.karp_flatt = pt.amdahl = NAN;
		pt.ideal = better == STATS_LOWER_IS_BETTER ? out->value0 / pt.q : out->value0 * pt.q;
		if (!cen) {
			pt.speedup = better == STATS_LOWER_IS_BETTER ? out->value0 / value[i]
								     : value[i] / out->value0;
			pt.efficiency = pt.speedup / pt.q;
			if (pt.q > 1.0) {
				pt.karp_flatt = (1.0 / pt.speedup - 1.0 / pt.q) / (1.0 - 1.0 / pt.q);
				q[m] = pt.q;
				sp[m] = pt.speedup;
				kf[m] = pt.karp_flatt;
				m++;
			}
		}
		if (points)
			points[i] = pt;
	}
	amdahl_fit(q, sp, kf, m, out);
	if (points && out->status == SCALING_OK)
		for (i = 0; i < n; i++)
			points[i].amdahl = scaling_amdahl(out->serial, points[i].q);
	free(kf);
	free(sp);
	free(q);
	return 0;
}
