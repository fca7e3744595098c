/*
 * fmt.c - number formatting shared by the statistics commands: the same
 * rules for text tables everywhere (significant digits by magnitude,
 * thousands separators) and JSON numbers that are null when not finite.
 */
#include "core/compat.h"
#include "cli.h"

#include <math.h>

void cli_fmt_value(struct strbuf *sb, double v)
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

void cli_fmt_ci(struct strbuf *sb, double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi)) {
		strbuf_addstr(sb, "n too small");
		return;
	}
	strbuf_addch(sb, '[');
	cli_fmt_value(sb, lo);
	strbuf_addstr(sb, ", ");
	cli_fmt_value(sb, hi);
	strbuf_addch(sb, ']');
}

json_t *cli_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *cli_json_pos(long v)
{
	return v > 0 ? json_integer(v) : json_null();
}

json_t *cli_json_str(const char *s)
{
	return s ? json_string(s) : json_null();
}
