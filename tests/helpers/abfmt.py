"""abfmt.py - the number formats of views/fmt.c, for the CLI tests that
recompute a value and look for it in a report or a table.

    $PY - <<-\\PYEOF
    from abfmt import fmt_value, fmt_ci
    PYEOF

lib.sh puts tests/helpers on PYTHONPATH.  Keep in step with views/fmt.c.
"""


def fmt_value(v):
    """views_fmt_value: decimals by magnitude, thousands separators."""
    if v != v or v in (float("inf"), float("-inf")):
        return "n/a"
    a = abs(v)
    if a >= 1000:
        return "{:,.0f}".format(v)
    for lim, dec in ((100, 1), (10, 2), (0.1, 3)):
        if a >= lim:
            return "{:.{}f}".format(v, dec)
    if a == 0:
        return "{:.3f}".format(v)
    return "%.3g" % v


def fmt_ci(lo, hi):
    """views_fmt_ci: "[lo, hi]"."""
    return "[%s, %s]" % (fmt_value(lo), fmt_value(hi))
