/*
 * axis.c - scales and ticks: nice 1-2-5 steps on linear axes, powers of two
 * or ten on log axes, limits padded so that no point sits on the frame,
 * and the mapping from data to device coordinates.
 */
#include "plots/plot_priv.h"

#define EPS 1e-9

int plot_scale_is_log(enum plot_scale s)
{
	return s == PLOT_SCALE_LOG2 || s == PLOT_SCALE_LOG10;
}

size_t plot_max_yticks(double h)
{
	/* about one per 38 units, never fewer than 4 (short report panels)
	 * nor more than 10 */
	double n = floor(h / 38);
	return (size_t)(n < 4 ? 4 : (n > 10 ? 10 : n));
}

/* 0 for values that are zero up to rounding noise of the step. */
static double clean(double v, double step)
{
	return fabs(v) < step * 1e-9 ? 0.0 : v;
}

/* inside = 0: ticks cover [lo, hi] (the first at or below lo, the last at
 * or above hi); inside = 1: only ticks within [lo, hi] count and are kept. */
static size_t ticks_linear(double lo, double hi, size_t max_ticks, double *ticks, size_t cap,
			   double *step, int inside)
{
	static const double mult[] = { 1, 2, 5 };
	double range, mag, s = 1;
	long long k0 = 0, k1 = 0, k;
	size_t n = 0;
	int e, found = 0;
	unsigned i;

	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (hi < lo) {
		double t = lo;
		lo = hi;
		hi = t;
	}
	if (hi == lo) {
		double d = lo == 0 ? 1 : fabs(lo) * 0.1;
		lo -= d;
		hi += d;
	}
	if (max_ticks > cap)
		max_ticks = cap;
	if (max_ticks < 2)
		max_ticks = 2;
	range = hi - lo;
	mag = floor(log10(range / (double)max_ticks)) - 1;
	for (e = (int)mag; e <= (int)mag + 4 && !found; e++) {
		for (i = 0; i < AB_ARRAY_SIZE(mult) && !found; i++) {
			s = mult[i] * pow(10, e);
			if (inside) {
				k0 = (long long)ceil(lo / s - EPS);
				k1 = (long long)floor(hi / s + EPS);
			} else {
				k0 = (long long)floor(lo / s + EPS);
				k1 = (long long)ceil(hi / s - EPS);
			}
			if (k1 - k0 + 1 <= (long long)max_ticks)
				found = 1;
		}
	}
	for (k = k0; k <= k1 && n < cap; k++)
		ticks[n++] = clean((double)k * s, s);
	if (step)
		*step = s;
	return n;
}

size_t plot_ticks_linear(double lo, double hi, size_t max_ticks, double *ticks, size_t cap,
			 double *step)
{
	return ticks_linear(lo, hi, max_ticks, ticks, cap, step, 0);
}

size_t plot_ticks_linear_inside(double lo, double hi, size_t max_ticks, double *ticks, size_t cap,
				double *step)
{
	return ticks_linear(lo, hi, max_ticks, ticks, cap, step, 1);
}

static double logb_(double v, int base)
{
	return base == 2 ? log2(v) : log10(v);
}

size_t plot_ticks_log(double lo, double hi, int base, size_t max_ticks, double *ticks, size_t cap)
{
	long e0, e1, e, stride;
	size_t n = 0;
	double step;

	if (!(lo > 0) || !(hi > lo))
		return 0;
	if (max_ticks > cap)
		max_ticks = cap;
	if (max_ticks < 2)
		max_ticks = 2;
	e0 = (long)ceil(logb_(lo, base) - EPS);
	e1 = (long)floor(logb_(hi, base) + EPS);
	if (e1 - e0 + 1 >= 2) {
		stride = (e1 - e0 + (long)max_ticks) / (long)max_ticks; /* ceil(count / max) */
		for (e = e0; e <= e1 && n < cap; e++) {
			/* align to multiples of the stride so 4^k reads 1, 4, 16 */
			if (((e % stride) + stride) % stride)
				continue;
			ticks[n++] = pow(base, (double)e);
		}
		if (n >= 2)
			return n;
		n = 0;
		for (e = e0; e <= e1 && n < cap; e += stride)
			ticks[n++] = pow(base, (double)e);
		if (n >= 2)
			return n;
	}
	if (base == 10) {
		static const double m[] = { 1, 2, 5 };
		unsigned i;
		n = 0;
		for (e = e0 - 1; e <= e1 && n < cap; e++)
			for (i = 0; i < AB_ARRAY_SIZE(m) && n < cap; i++) {
				double t = m[i] * pow(10, (double)e);
				if (t >= lo * (1 - EPS) && t <= hi * (1 + EPS))
					ticks[n++] = t;
			}
		if (n >= 2 && n <= max_ticks)
			return n;
	}
	/* less than two powers inside: plain linear ticks inside the range */
	{
		double tmp[PLOT_MAX_TICKS];
		size_t m = plot_ticks_linear_inside(lo, hi, max_ticks, tmp, AB_ARRAY_SIZE(tmp),
						    &step),
		       i;
		n = 0;
		for (i = 0; i < m && n < cap; i++)
			if (tmp[i] >= lo * (1 - EPS) && tmp[i] <= hi * (1 + EPS) && tmp[i] > 0)
				ticks[n++] = tmp[i];
	}
	return n;
}

void plot_axis_setup(struct plot_axis *a, enum plot_scale scale, unsigned flags, double dlo,
		     double dhi, size_t max_ticks)
{
	double lo = dlo, hi = dhi;
	size_t n;

	a->scale = scale == PLOT_SCALE_AUTO ? PLOT_SCALE_LINEAR : scale;
	a->flags = flags;
	a->dlo = dlo;
	a->dhi = dhi;
	a->n_ticks = a->n_minor = 0;
	a->step = 0;
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (plot_scale_is_log(a->scale)) {
		int base = a->scale == PLOT_SCALE_LOG2 ? 2 : 10;
		double span, pad;

		if (!(lo > 0))
			lo = hi > 0 ? hi / 10 : 1;
		if (!(hi > 0))
			hi = lo * 10;
		if (hi <= lo) {
			lo /= base;
			hi *= base;
		}
		span = log(hi / lo);
		if (flags & PLOT_AXIS_PAD) {
			pad = 0.05 * span;
			if (pad < 0.2 * log(base))
				pad = 0.2 * log(base);
			lo /= exp(pad);
			hi *= exp(pad);
		}
		if (flags & PLOT_AXIS_HEADROOM)
			hi *= exp(0.1 * log(hi / lo));
		a->lo = lo;
		a->hi = hi;
		a->n_ticks = plot_ticks_log(lo, hi, base, max_ticks, a->ticks, PLOT_MAX_TICKS);
		if (base == 10 && log10(hi / lo) <= 6) {
			long e;
			int m;
			for (e = (long)floor(log10(lo)); e <= (long)ceil(log10(hi)); e++)
				for (m = 2; m <= 9 && a->n_minor < PLOT_MAX_MINOR; m++) {
					double t = m * pow(10, (double)e);
					if (t > lo && t < hi)
						a->minor[a->n_minor++] = t;
				}
		}
		plot_numfmt_ticks(&a->fmt, a->scale, a->ticks, a->n_ticks, 0);
		return;
	}
	if (flags & PLOT_AXIS_ZERO) {
		if (lo > 0)
			lo = 0;
		if (hi < 0)
			hi = 0;
	}
	if (hi <= lo) {
		double d = lo == 0 ? 1 : fabs(lo) * 0.1;
		if (lo == 0 && (flags & PLOT_AXIS_ZERO))
			hi = lo + d;
		else {
			lo -= d;
			hi += d;
		}
	}
	if (flags & PLOT_AXIS_HEADROOM)
		hi += 0.08 * (hi - lo);
	if (flags & PLOT_AXIS_PAD) {
		double d = 0.05 * (hi - lo);
		if (!((flags & PLOT_AXIS_ZERO) && lo == 0))
			lo -= d;
		if (!((flags & PLOT_AXIS_ZERO) && hi == 0))
			hi += d;
	}
	if (flags & PLOT_AXIS_NICE) {
		n = plot_ticks_linear(lo, hi, max_ticks, a->ticks, PLOT_MAX_TICKS, &a->step);
		lo = a->ticks[0];
		hi = a->ticks[n - 1];
	} else {
		n = plot_ticks_linear_inside(lo, hi, max_ticks, a->ticks, PLOT_MAX_TICKS, &a->step);
	}
	a->n_ticks = n;
	a->lo = lo;
	a->hi = hi;
	plot_numfmt_ticks(&a->fmt, a->scale, a->ticks, a->n_ticks, a->step);
}

void plot_axis_set_pixels(struct plot_axis *a, double p0, double p1)
{
	a->p0 = p0;
	a->p1 = p1;
}

double plot_axis_map(const struct plot_axis *a, double v)
{
	double t;

	if (plot_scale_is_log(a->scale)) {
		if (!(v > 0))
			return a->p0;
		t = log(v / a->lo) / log(a->hi / a->lo);
	} else {
		t = (v - a->lo) / (a->hi - a->lo);
	}
	return a->p0 + t * (a->p1 - a->p0);
}

double plot_axis_map_clamped(const struct plot_axis *a, double v)
{
	if (v < a->lo)
		v = a->lo;
	if (v > a->hi)
		v = a->hi;
	return plot_axis_map(a, v);
}

void plot_axis_tick_label(const struct plot_axis *a, size_t i, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (i < a->n_ticks)
		plot_numfmt_apply(sb, &a->fmt, a->ticks[i]);
}

void plot_haxis_bottom(struct plot_ctx *c, struct plot_axis *x, struct plot_rect p,
		       enum plot_scale scale, int log, double lin_lo, double lo, double hi,
		       double h, const char *title, const char *unit)
{
	static const struct plot_font tick = { .size = PLOT_SZ_TICK, .color = PLOT_RGB_INK2 };
	static const struct plot_font axis = { .size = PLOT_SZ_AXIS, .color = PLOT_RGB_INK2 };
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (log)
		plot_axis_setup(x, scale, PLOT_AXIS_PAD, lo, hi, (size_t)fmax(2, p.w / 70));
	else
		plot_axis_setup(x, scale, PLOT_AXIS_ZERO | PLOT_AXIS_NICE, lin_lo, hi,
				(size_t)fmax(2, p.w / 70));
	plot_axis_set_pixels(x, p.x, p.x + p.w);
	/* grid and tick labels under the rows */
	for (i = 0; i < x->n_ticks; i++) {
		double px = plot_axis_map(x, x->ticks[i]);
		if (px < p.x - 0.5 || px > p.x + p.w + 0.5)
			continue;
		plot_vline(c->cr, px, p.y, p.y + p.h, 0.8, PLOT_GRID, 1);
		plot_axis_tick_label(x, i, &sb);
		plot_text_draw(c, &tick, sb.buf, px, p.y + p.h + 3, 0.5, 0, 0);
	}
	strbuf_reset(&sb);
	plot_axis_title(&sb, title, unit, NULL, NULL);
	if (log)
		strbuf_addstr(&sb, ", log scale");
	plot_text_draw(c, &axis, sb.buf, p.x + p.w / 2, p.y + p.h + h + 6, 0.5, 0, 0);
	strbuf_release(&sb);
}
