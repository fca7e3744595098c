/*
 * scaling.h - batch-size and device/node scaling models.  Pure
 * computation (no database, no printing).
 *
 * Batch size (DESIGN.md "Statistics"): throughput X against global batch b
 * is fitted, unweighted least squares with gsl_multifit_nlinear
 * (Levenberg-Marquardt, geodesic acceleration off), to the saturation
 * curve X(b) = Xmax b / (b + bhalf).  Start values come from the
 * Lineweaver-Burk line 1/X = 1/Xmax + (bhalf/Xmax) (1/b).  Parameter CIs:
 * estimate +- t(dof, 0.975) se, se from the covariance (J'J)^-1 scaled by
 * rss / dof, dof = points - 2 (so 3 points are needed for a CI).  The knee
 * is the smallest MEASURED batch whose throughput (median of its points)
 * reaches 0.9 Xmax; none when the data never get there.  Failed or
 * out-of-memory batch sizes are censored: they do not enter the fit but
 * are counted and the smallest one is reported (the largest batch that
 * fits is a result too).  A fit with bhalf beyond the largest measured
 * batch is "not saturating": the data never reach half of Xmax, so Xmax
 * would be an extrapolation; nothing is reported for it.
 *
 * Devices/nodes: one value per count (the caller passes the configuration
 * medians).  With p0 the smallest uncensored count and q = p / p0:
 *   speedup S = X(p) / X(p0) for throughput (higher is better),
 *             = T(p0) / T(p) for times (lower is better);
 *   efficiency E = S / q;
 *   Karp-Flatt serial fraction e = (1/S - 1/q) / (1 - 1/q)  (q > 1);
 *   Amdahl fit S(q) = 1 / (s + (1 - s) / q), s by gsl_multifit_nlinear on
 *   the points with q > 1 (the base point fits any s exactly and would only
 *   inflate dof), CI = s +- t(dof) se with dof = those points - 1;
 *   ideal line through the first point: X(p0) q for throughput,
 *   T(p0) / q for times.
 * s is not clamped to [0, 1]: a negative s reports superlinear scaling.
 */
#ifndef AB_SCALING_H
#define AB_SCALING_H

#include "core/compat.h"
#include "core/strbuf.h"
#include "model/stats.h"

/* Fraction of Xmax that defines the knee. */
#define SCALING_KNEE_FRACTION 0.9

enum scaling_status {
	SCALING_OK = 0,
	SCALING_TOO_FEW_POINTS = 1,  /* saturation: < 2 distinct b; Amdahl: no q > 1 */
	SCALING_NO_CONVERGENCE = 2,  /* the solver gave up */
	SCALING_NOT_SATURATING = 3   /* Xmax or bhalf <= 0, or bhalf > largest b */
};

/* "ok", "too few points", "fit did not converge", "not saturating". */
const char *scaling_status_name(enum scaling_status s);

struct scaling_sat {
	enum scaling_status status;
	size_t n_used;          /* points in the fit */
	size_t n_censored;      /* failed / OOM points carried, not fitted */
	double min_censored_b;  /* smallest failed batch, NAN if none */
	double max_ok_b;        /* largest batch that ran, NAN if none */
	/* The fit: NAN unless status == SCALING_OK; CIs NAN when dof == 0. */
	double xmax, xmax_se, xmax_ci_low, xmax_ci_high;
	double bhalf, bhalf_se, bhalf_ci_low, bhalf_ci_high;
	double rss;
	size_t dof;
	size_t iterations;
	double level;
	int has_knee;
	double knee_b;          /* smallest measured b with X >= 0.9 Xmax */
	double knee_x;          /* its (median) measured throughput */
};

/*
 * Fit b[0..n), x[0..n); censored (may be NULL) marks failed points, whose
 * x is ignored (may be NAN).  Repeated b values are allowed (all points
 * are fitted; the knee uses the median per b).  Returns 0 with the outcome
 * in out->status, or -AB_EDATA for a b or an uncensored x that is not a
 * positive finite number (a zero throughput is a failure: censor it).
 */
int scaling_saturation_fit(const double *b, const double *x, const unsigned char *censored,
			   size_t n, struct scaling_sat *out, struct strbuf *err);

/* X(b) on the fitted curve; NAN unless the fit is OK. */
double scaling_saturation_eval(const struct scaling_sat *fit, double b);

/* One device/node count, in the caller's order. */
struct scaling_dev_point {
	double count;       /* as given */
	double value;       /* as given */
	int censored;       /* as given (failed configuration) */
	double q;           /* count / p0 */
	double speedup;     /* NAN if censored */
	double efficiency;
	double karp_flatt;  /* NAN at q == 1 or censored */
	double ideal;       /* value on the ideal line at this count */
	double amdahl;      /* speedup predicted by the Amdahl fit, NAN if none */
};

struct scaling_dev {
	enum scaling_status status;    /* of the Amdahl fit */
	enum stats_better better;
	double count0, value0;         /* the base point; NAN if every point failed */
	size_t n_used;                 /* uncensored points, base included */
	size_t n_censored;
	double serial, serial_se, serial_ci_low, serial_ci_high;  /* Amdahl s */
	double rss;
	size_t dof;
	size_t iterations;
	double level;
};

/*
 * Device or node scaling of value[i] at count[i] (i < n); censored may be
 * NULL.  points (may be NULL) receives n entries in input order.  Counts
 * must be positive and distinct; values of uncensored points positive.
 * Returns 0 (the Amdahl outcome in out->status) or -AB_EDATA.
 */
int scaling_devices(const double *count, const double *value, const unsigned char *censored,
		    size_t n, enum stats_better better, struct scaling_dev *out,
		    struct scaling_dev_point *points, struct strbuf *err);

/* Amdahl speedup at relative count q for serial fraction s. */
double scaling_amdahl(double s, double q);

#endif
