/*
 * numfmt.c - numbers as people read them on charts: thousands separators,
 * SI suffixes once numbers get long, as many decimals as the tick step
 * needs.  Independent of the locale (always '.' and ',').
 */
#include "plots/plot_priv.h"

static const char *const si_suffix[] = { "", "k", "M", "G", "T", "P" };

static int si_for(double maxabs)
{
	int e = 0;

	while (maxabs >= 1e3 && e < 15) {
		maxabs /= 1e3;
		e += 3;
	}
	return e;
}

static int decimals_for(double step)
{
	int d;

	if (!(step > 0) || !isfinite(step))
		return 0;
	d = -(int)floor(log10(step) + 1e-9);
	return d < 0 ? 0 : (d > 9 ? 9 : d);
}

void plot_numfmt_ticks(struct plot_numfmt *f, enum plot_scale scale, const double *ticks, size_t n,
		       double step)
{
	double maxabs = 0;
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < n; i++) {
		if (fabs(ticks[i]) > maxabs)
			maxabs = fabs(ticks[i]);
	}
	if (scale == PLOT_SCALE_LOG10) {
		f->per_tick = 1;
		return;
	}
	if (scale == PLOT_SCALE_LOG2) {
		/* powers of two, each as short as it can be: 0.25, 1, 4096 */
		f->per_tick = 2;
		return;
	}
	f->si = maxabs >= 1e5 ? si_for(maxabs) : 0;
	f->decimals = decimals_for(step / pow(10, f->si));
	f->thousands = maxabs / pow(10, f->si) >= 1000;
}

/* v with sig significant digits, trailing zeros after the point removed. */
static void add_sig(struct strbuf *sb, double v, int sig, int thousands)
{
	int d = 0;
	double a = fabs(v);
	size_t start = sb->len;

	if (a > 0)
		d = sig - 1 - (int)floor(log10(a) + 1e-12);
	if (d < 0)
		d = 0;
	if (d > 12)
		d = 12;
	num_format_fixed(sb, v, d, thousands);
	if (d > 0) {
		while (sb->len > start && sb->buf[sb->len - 1] == '0')
			strbuf_setlen(sb, sb->len - 1);
		if (sb->len > start && sb->buf[sb->len - 1] == '.')
			strbuf_setlen(sb, sb->len - 1);
	}
}

void plot_numfmt_apply(struct strbuf *sb, const struct plot_numfmt *f, double v)
{
	int e;

	if (!isfinite(v)) {
		num_format(sb, v);
		return;
	}
	if (f->per_tick == 2) {
		e = fabs(v) >= 1e6 ? si_for(fabs(v)) : 0;
		add_sig(sb, v / pow(10, e), e ? 3 : 12, 0);
		strbuf_addstr(sb, si_suffix[e / 3]);
		return;
	}
	if (f->per_tick) {
		e = fabs(v) >= 1e4 ? si_for(fabs(v)) : 0;
		add_sig(sb, v / pow(10, e), 3, fabs(v) >= 1000 && !e);
		strbuf_addstr(sb, si_suffix[e / 3]);
		return;
	}
	v /= pow(10, f->si);
	if (fabs(v) < 0.5 * pow(10, -f->decimals)) {
		strbuf_addch(sb, '0'); /* "0", never "-0" or "0k" */
		return;
	}
	num_format_fixed(sb, v, f->decimals, f->thousands);
	strbuf_addstr(sb, si_suffix[f->si / 3]);
}

void plot_format_value(struct strbuf *sb, double v)
{
	double a = fabs(v);

	if (!isfinite(v)) {
		num_format(sb, v);
		return;
	}
	if (a >= 999999.5) {
		int e = si_for(a);
		double m = v / pow(10, e);
		if (fabs(m) >= 999.5 && e < 15) { /* 999.7k rounds up to 1.00M */
			e += 3;
			m /= 1e3;
		}
		num_format_fixed(sb, m, fabs(m) >= 99.95 ? 0 : (fabs(m) >= 9.995 ? 1 : 2), 0);
		strbuf_addstr(sb, si_suffix[e / 3]);
	} else if (a >= 999.5) {
		num_format_fixed(sb, v, 0, 1);
	} else if (a == 0) {
		strbuf_addch(sb, '0');
	} else if (a >= 0.0995) {
		/* 183, 12.3, 1.09, 0.92: at most two decimals */
		num_format_fixed(sb, v, a >= 99.95 ? 0 : (a >= 9.995 ? 1 : 2), 0);
	} else {
		int d = 2 - (int)floor(log10(a) + 1e-12); /* 0.0123 */
		num_format_fixed(sb, v, d > 12 ? 12 : d, 0);
	}
}

void plot_format_ratio(struct strbuf *sb, double r)
{
	if (!isfinite(r)) {
		strbuf_addstr(sb, "\xE2\x80\x94"); /* — */
		return;
	}
	if (r > 0 && r < 0.0995) /* 0.027x: two significant digits */
		num_format_fixed(sb, r, 1 - (int)floor(log10(r) + 1e-12), 0);
	else
		num_format_fixed(sb, r, r >= 99.5 ? 0 : (r >= 9.95 ? 1 : 2), 1);
	strbuf_addstr(sb, "\xC3\x97"); /* × */
}
