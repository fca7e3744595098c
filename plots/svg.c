/*
 * svg.c - finishing cairo's SVG: cairo draws text as glyph outlines, so the
 * chart's words are added as <title> and <desc> (searchable, accessible,
 * and testable), and cairo's process-wide "surfaceN" ids are renumbered
 * so the same chart always gives the same bytes.
 */
#include "plots/plot_priv.h"

static void add_escaped(struct strbuf *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '&':
			strbuf_addstr(out, "&amp;");
			break;
		case '<':
			strbuf_addstr(out, "&lt;");
			break;
		case '>':
			strbuf_addstr(out, "&gt;");
			break;
		default:
			/* XML 1.0 forbids most control characters */
			if ((unsigned char)s[i] < 0x20 && s[i] != '\n' && s[i] != '\t')
				strbuf_addch(out, ' ');
			else
				strbuf_addch(out, s[i]);
		}
	}
}

/* Each distinct line of texts once, in order of first appearance. */
static void add_unique_lines(struct strbuf *out, const char *texts)
{
	const char *p = texts, *q;

	while (*p) {
		size_t len;
		const char *seen, *found = NULL;

		q = strchr(p, '\n');
		len = q ? (size_t)(q - p) : strlen(p);
		for (seen = texts; seen < p;) {
			const char *e = strchr(seen, '\n');
			if ((size_t)(e - seen) == len && !memcmp(seen, p, len)) {
				found = seen;
				break;
			}
			seen = e + 1;
		}
		if (!found && len) {
			add_escaped(out, p, len);
			strbuf_addch(out, '\n');
		}
		p += len + (q ? 1 : 0);
	}
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Renumber "surfaceN" after '"' or '#' from 1 in order of first use. */
static void renumber(struct strbuf *out, const char *s, size_t len)
{
	long *old = NULL;
	size_t n_old = 0, alloc = 0, i = 0, k;
	static const char key[] = "surface";
	size_t kl = sizeof(key) - 1;

	while (i < len) {
		if (i > 0 && (s[i - 1] == '"' || s[i - 1] == '#') && i + kl < len &&
		    !memcmp(s + i, key, kl) && is_digit(s[i + kl])) {
			size_t j = i + kl;
			long v = 0;

			while (j < len && is_digit(s[j]) && v < 100000000L)
				v = v * 10 + (s[j++] - '0');
			for (k = 0; k < n_old && old[k] != v; k++)
				;
			if (k == n_old) {
				if (n_old == alloc) {
					alloc = alloc ? 2 * alloc : 16;
					old = ab_realloc(old, alloc * sizeof(*old));
				}
				old[n_old++] = v;
			}
			strbuf_addf(out, "%s%zu", key, k + 1);
			i = j;
			continue;
		}
		strbuf_addch(out, s[i++]);
	}
	free(old);
}

int plot_svg_finish(struct strbuf *svg, const char *title, const char *texts, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT, tmp = STRBUF_INIT;
	const char *start, *end;
	size_t at;

	/* renumber first: the inserted words must stay as they are */
	renumber(&tmp, svg->buf, svg->len);
	start = strstr(tmp.buf, "<svg");
	if (!start || !(end = strchr(start, '>'))) {
		strbuf_release(&tmp);
		return ab_fail(err, AB_EINTERNAL, "cairo wrote an SVG without an <svg> element");
	}
	at = (size_t)(end - tmp.buf) + 1;
	strbuf_add(&out, tmp.buf, at);
	strbuf_addstr(&out, "\n<title>");
	add_escaped(&out, title ? title : "", title ? strlen(title) : 0);
	strbuf_addstr(&out, "</title>\n<desc>\n");
	add_unique_lines(&out, texts ? texts : "");
	strbuf_addstr(&out, "</desc>");
	strbuf_add(&out, tmp.buf + at, tmp.len - at);
	strbuf_release(&tmp);
	strbuf_release(svg);
	*svg = out;
	return 0;
}
