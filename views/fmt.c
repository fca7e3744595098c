/*
 * fmt.c - number formats shared by every renderer: the same rules for text
 * tables and chart labels everywhere (significant digits by magnitude,
 * thousands separators), and exact raw numbers for CSV.
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
	else if (a >= 0.01 || a == 0)
		num_format_fixed(sb, v, 3, 1);
	else
		strbuf_addf(sb, "%.3g", v);
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
