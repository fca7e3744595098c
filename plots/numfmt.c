/*
 * numfmt.c - axis tick labels: thousands separators, SI suffixes once
 * numbers get long, as many decimals as the tick step needs.  Independent
 * of the locale (always '.' and ',').  Values and ratios drawn as labels
 * use views/fmt.c's formats, as the tables do.
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

void plot_numfmt_apply(struct strbuf *sb, const struct plot_numfmt *f, double v)
{
	int e;

	if (!isfinite(v)) {
		num_format(sb, v);
		return;
	}
	if (f->per_tick == 2) {
		e = fabs(v) >= 1e6 ? si_for(fabs(v)) : 0;
		views_fmt_sig(sb, v / pow(10, e), e ? 3 : 12, 0);
		strbuf_addstr(sb, si_suffix[e / 3]);
		return;
	}
	if (f->per_tick) {
		views_fmt_value_short(sb, v); /* what a bar label too long for its bar says */
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

void plot_format_ratio(struct strbuf *sb, double r)
{
	if (!isfinite(r))
		strbuf_addstr(sb, "\xE2\x80\x94"); /* —: an empty cell */
	else
		views_fmt_ratio(sb, r);
}
