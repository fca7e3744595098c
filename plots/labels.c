/*
 * labels.c - label strings: shortening long system names with a middle
 * ellipsis (UTF-8 aware, cutting at separators) and composing axis titles
 * with their units.  Pure string work, no cairo, so it is unit tested.
 */
#include "plots/plot_priv.h"

static int is_cont(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

size_t plot_utf8_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (!is_cont((unsigned char)*s))
			n++;
	return n;
}

/* Byte offset of code point k of s (the end of s when k is past it). */
static size_t cp_offset(const char *s, size_t k)
{
	size_t i = 0;

	while (s[i] && k) {
		i++;
		while (s[i] && is_cont((unsigned char)s[i]))
			i++;
		k--;
	}
	return i;
}

static int is_sep(char c)
{
	return c == ' ' || c == '-' || c == '_' || c == ':' || c == '/' || c == '.' || c == ',';
}

void plot_label_shorten(struct strbuf *out, const char *s, size_t max_chars)
{
	size_t len = plot_utf8_len(s), slen = strlen(s), tail_budget, tail_len = 0, tb = slen;
	size_t hb, k;

	strbuf_reset(out);
	if (len <= max_chars) {
		strbuf_addstr(out, s);
		return;
	}
	if (max_chars < 4) {
		strbuf_add(out, s, cp_offset(s, max_chars));
		return;
	}
	/* the tail: the longest run of whole words after a separator that
	 * takes at most half the room ("archer2:compute-gpu-torch" keeps
	 * "torch"); none when the last word alone is too long */
	tail_budget = (max_chars - 1) / 2;
	for (k = 0; k + 1 < slen; k++) {
		if (is_sep(s[k]) && !is_sep(s[k + 1])) {
			size_t n = plot_utf8_len(s + k + 1);
			if (n <= tail_budget) {
				tb = k + 1;
				tail_len = n;
				break;
			}
		}
	}
	/* the head: what is left, cut back to a separator when one is near */
	hb = cp_offset(s, max_chars - 1 - tail_len);
	for (k = hb; k > 0 && k + 4 > hb; k--) {
		if (is_sep(s[k - 1]) && k - 1 > 0) {
			hb = k - 1;
			break;
		}
	}
	while (hb > 0 && (s[hb - 1] == ' ' || is_sep(s[hb - 1])))
		hb--;
	if (!hb) /* a separator at the very start: keep the plain cut */
		hb = cp_offset(s, max_chars - 1 - tail_len);
	strbuf_add(out, s, hb);
	strbuf_addstr(out, "\xE2\x80\xA6"); /* … */
	if (tb < slen)
		strbuf_addstr(out, s + tb);
}

void plot_axis_title(struct strbuf *out, const char *title, const char *unit, const char *def_title,
		     const char *def_unit)
{
	strbuf_reset(out);
	if (!title || !*title)
		title = def_title;
	if (!unit || !*unit)
		unit = def_unit;
	if (title && *title)
		strbuf_addstr(out, title);
	if (unit && *unit) {
		if (out->len)
			strbuf_addch(out, ' ');
		strbuf_addf(out, "(%s)", unit);
	}
}

int plot_need_title(const char *title, const char *chart, const char *axis, struct strbuf *err)
{
	if (title && *title)
		return 0;
	return ab_fail(err, AB_EDATA, "%s chart: the %s axis needs a title with its unit", chart,
		       axis);
}
