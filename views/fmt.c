/*
 * fmt.c - number formats shared by every renderer: the same rules for text
 * tables and chart labels everywhere (significant digits by magnitude,
 * thousands separators), and exact raw numbers for CSV.  A chart labels a
 * value with views_fmt_value, as the tables print it (585.1 on the bar and
 * in the table); only a label that does not fit its bar falls back to
 * views_fmt_value_short, and says fewer digits of the same number.
 */
#include "core/compat.h"
#include "views/views.h"

#include <math.h>

void views_fmt_value(struct strbuf *sb, double v)
{
	double a = fabs(v);

	if (!isfinite(v)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	if (a >= 1000)
		num_format_fixed(sb, v, 0, 1);
	else if (a >= 100)
		num_format_fixed(sb, v, 1, 1);
	else if (a >= 10)
		num_format_fixed(sb, v, 2, 1);
	else if (a >= 0.1 || a == 0)
		num_format_fixed(sb, v, 3, 1);
	else
		strbuf_addf(sb, "%.3g", v); /* 0.0293, never 0.029: 3 digits at least */
}

void views_fmt_sig(struct strbuf *sb, double v, int sig, int thousands)
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

void views_fmt_value_short(struct strbuf *sb, double v)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P" };
	double a = fabs(v);
	int e = 0;

	if (!isfinite(v)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	if (a >= 1e4)
		while (a >= 999.5 && e < 15) { /* 999,999.7 is 1M, not 1000k */
			a /= 1e3;
			e += 3;
		}
	views_fmt_sig(sb, v / pow(10, e), 3, fabs(v) >= 1000 && !e);
	strbuf_addstr(sb, si[e / 3]);
}

void views_fmt_ratio(struct strbuf *sb, double r)
{
	if (!isfinite(r))
		strbuf_addstr(sb, "n/a");
	else if (r > 0 && r < 0.0995) /* 0.027×: two significant digits */
		num_format_fixed(sb, r, 1 - (int)floor(log10(r) + 1e-12), 0);
	else
		num_format_fixed(sb, r, r >= 99.5 ? 0 : (r >= 9.95 ? 1 : 2), 1);
	if (isfinite(r))
		strbuf_addstr(sb, "\xC3\x97"); /* × */
}

void views_fmt_ci(struct strbuf *sb, double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi)) {
		strbuf_addstr(sb, "n too small");
		return;
	}
	strbuf_addch(sb, '[');
	views_fmt_value(sb, lo);
	strbuf_addstr(sb, ", ");
	views_fmt_value(sb, hi);
	strbuf_addch(sb, ']');
}

void views_fmt_level(struct strbuf *sb, double level)
{
	double pct = 100.0 * level;

	if (fabs(pct - floor(pct + 0.5)) < 1e-9)
		strbuf_addf(sb, "%.0f", pct);
	else
		strbuf_addf(sb, "%.1f", pct);
}

void views_fmt_raw(struct strbuf *sb, double v)
{
	/* the shortest digits that read back as the same double, as the JSON
	 * output writes them (9.112610416666666, not %.15g's 9.11261041666667) */
	if (isfinite(v))
		num_format(sb, v);
}
