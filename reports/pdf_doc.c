/*
 * pdf_doc.c - the document engine of the PDF report (pdf_priv.h): pages,
 * running header and footer, wrapped pango text, headings with outline
 * entries and destinations, a clickable table of contents, tables that
 * continue across pages, and figures drawn by callbacks.
 *
 * Metrics are made independent of the surface (hinting off, 72 dpi), so
 * the dry run on a 1x1 image surface breaks lines and pages exactly as the
 * PDF surface does.
 */
#include "core/compat.h"
#include "core/error.h"
#include "reports/pdf_priv.h"

#include <math.h>
#include <pthread.h>
#include <time.h>

#define MARGIN_L 56.0
#define MARGIN_R 56.0
#define MARGIN_T 62.0
#define MARGIN_B 58.0
#define PARA_GAP 5.0
#define CELL_PAD_X 3.0
#define CELL_PAD_Y 2.2
#define CELL_MAX_LINES 8
#define FONT "DejaVu Sans"
#define FONT_MONO "DejaVu Sans Mono"

struct heading {
	char *text, *dest;
	int level, page, in_toc;
};

/* A table's column widths, kept so the real pass need not measure every
 * cell again (the calls are the same in both passes, so table k of the
 * real pass is table k of the dry run).  A long table's rows are laid out
 * once, in the dry run: lay and heights pass to the real pass, which draws
 * those layouts (made on either thread; a layout draws the same glyphs
 * whichever thread's context made it). */
struct tmeasure {
	size_t ncols, nrows;
	double *w;
	PangoLayout **lay;        /* nrows x ncols, NULL: none (or taken) */
	double *heights;          /* per row, with lay */
};

struct pdf_doc {
	cairo_surface_t *surf;
	cairo_t *cr;
	PangoContext *pc;
	int dry;
	struct pdf_doc_opts o;
	char *title, *header, *footer, *section;
	double y;                 /* cursor, from the page top */
	int page;                 /* pages begun */
	int in_page;              /* the current page has been begun */
	int outline_l1;           /* outline id of the last level-1 heading */
	struct heading *h;
	size_t nh, ah;
	const struct heading *known;  /* from the dry run */
	size_t nknown;
	int total_pages;          /* from the dry run, 0 unknown */
	struct tmeasure *tm;      /* owned: widths of the tables drawn so far */
	size_t ntm, atm;
	struct tmeasure *ktm;     /* borrowed from the dry run (its layouts are taken) */
	size_t nktm;
};

static const struct {
	double size;
	int bold;
	const char *family;
	double grey;
} styles[] = {
	[PDF_BODY] = { 9.5, 0, FONT, 0.13 },
	[PDF_SMALL] = { 7.5, 0, FONT, 0.35 },
	[PDF_TITLE] = { 24.0, 1, FONT, 0.10 },
	[PDF_SUBTITLE] = { 12.0, 0, FONT, 0.20 },
	[PDF_MONO] = { 7.5, 0, FONT_MONO, 0.13 },
};

static double bottom(const struct pdf_doc *d)
{
	return d->o.page_h - MARGIN_B;
}

double pdf_text_width(const struct pdf_doc *d)
{
	return d->o.page_w - MARGIN_L - MARGIN_R;
}

int pdf_doc_same_pages(const struct pdf_doc *d, const struct pdf_doc *prev)
{
	size_t i;

	if (d->nh != prev->nh || d->page != prev->page)
		return 0;
	for (i = 0; i < d->nh; i++)
		if (d->h[i].page != prev->h[i].page)
			return 0;
	return 1;
}

int pdf_doc_is_dry(const struct pdf_doc *d)
{
	return d->dry;
}

int pdf_doc_page(const struct pdf_doc *d)
{
	return d->page;
}

int pdf_doc_pages(const struct pdf_doc *d)
{
	return d->total_pages;
}

void pdf_esc(struct strbuf *sb, const char *text)
{
	const char *p;

	for (p = text ? text : ""; *p; p++) {
		switch (*p) {
		case '&':
			strbuf_addstr(sb, "&amp;");
			break;
		case '<':
			strbuf_addstr(sb, "&lt;");
			break;
		case '>':
			strbuf_addstr(sb, "&gt;");
			break;
		case '"':
			strbuf_addstr(sb, "&quot;");
			break;
		case '\'':
			strbuf_addstr(sb, "&#39;");
			break;
		default:
			/* control characters would make the markup invalid */
			if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')
				strbuf_addch(sb, ' ');
			else
				strbuf_addch(sb, *p);
		}
	}
}

/* "YYYY-MM-DDThh:mm:ssZ" for the PDF metadata. */
static void iso_date(char *buf, size_t len, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

static cairo_status_t write_fp(void *closure, const unsigned char *data, unsigned int len)
{
	FILE *fp = closure;

	return fwrite(data, 1, len, fp) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* A pango context on this thread's font map (pango's default font map is
 * one per thread) with the document's metrics: hinting off, 72 dpi. */
static PangoContext *context_new(void)
{
	PangoContext *pc = pango_font_map_create_context(pango_cairo_font_map_get_default());
	cairo_font_options_t *fo = cairo_font_options_create();

	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	pango_cairo_context_set_font_options(pc, fo);
	cairo_font_options_destroy(fo);
	pango_cairo_context_set_resolution(pc, 72.0);
	return pc;
}

int pdf_doc_new(struct pdf_doc **out, FILE *fp, const struct pdf_doc_opts *o,
		struct strbuf *err)
{
	struct pdf_doc *d = ab_calloc(1, sizeof(*d));
	char date[40];

	*out = NULL;
	d->o = *o;
	d->dry = fp == NULL;
	d->title = ab_strdup(o->title ? o->title : "");
	d->header = ab_strdup(o->header ? o->header : "");
	d->footer = ab_strdup(o->footer ? o->footer : "");
	if (d->dry)
		d->surf = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	else
		d->surf = cairo_pdf_surface_create_for_stream(write_fp, fp, o->page_w, o->page_h);
	if (cairo_surface_status(d->surf)) {
		int rc = ab_fail(err, AB_EINTERNAL, "cannot create a PDF surface: %s",
				 cairo_status_to_string(cairo_surface_status(d->surf)));
		pdf_doc_free(d);
		return rc;
	}
	if (!d->dry) {
		cairo_pdf_surface_restrict_to_version(d->surf, CAIRO_PDF_VERSION_1_5);
		cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_TITLE, d->title);
		if (o->author)
			cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_AUTHOR, o->author);
		if (o->subject)
			cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_SUBJECT, o->subject);
		if (o->keywords)
			cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_KEYWORDS,
						       o->keywords);
		if (o->creator)
			cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_CREATOR, o->creator);
		iso_date(date, sizeof(date), o->date);
		cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_CREATE_DATE, date);
		cairo_pdf_surface_set_metadata(d->surf, CAIRO_PDF_METADATA_MOD_DATE, date);
	}
	d->cr = cairo_create(d->surf);
	d->pc = context_new();
	d->y = MARGIN_T;
	*out = d;
	return 0;
}

void pdf_doc_pages_from(struct pdf_doc *d, struct pdf_doc *dry)
{
	d->known = dry->h;
	d->nknown = dry->nh;
	d->total_pages = dry->page;
	d->ktm = dry->tm;
	d->nktm = dry->ntm;
}

static void unref_all(PangoLayout **ls, size_t n);

static void tmeasure_release(struct tmeasure *m)
{
	size_t i;

	if (m->lay)
		for (i = 0; i < m->nrows; i++)
			unref_all(&m->lay[i * m->ncols], m->ncols);
	free(m->lay);
	free(m->heights);
	free(m->w);
	memset(m, 0, sizeof(*m));
}

void pdf_doc_free(struct pdf_doc *d)
{
	size_t i;

	if (!d)
		return;
	if (d->pc)
		g_object_unref(d->pc);
	if (d->cr)
		cairo_destroy(d->cr);
	if (d->surf)
		cairo_surface_destroy(d->surf);
	for (i = 0; i < d->nh; i++) {
		free(d->h[i].text);
		free(d->h[i].dest);
	}
	free(d->h);
	for (i = 0; i < d->ntm; i++)
		tmeasure_release(&d->tm[i]);
	free(d->tm);
	free(d->title);
	free(d->header);
	free(d->footer);
	free(d->section);
	free(d);
}

/* ---- text ------------------------------------------------------------ */

static PangoLayout *layout_new_pc(PangoContext *pc, const char *family, double size, int bold,
				  const char *markup, double width)
{
	PangoLayout *l = pango_layout_new(pc);
	PangoFontDescription *fd = pango_font_description_new();

	pango_font_description_set_family(fd, family);
	pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
	if (bold)
		pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
	pango_layout_set_font_description(l, fd);
	pango_font_description_free(fd);
	if (width > 0) {
		pango_layout_set_width(l, (int)(width * PANGO_SCALE));
		pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
	}
	{
		PangoAttrList *attrs = NULL;
		char *text = NULL;

		/* text without markup needs no parsing; bad markup (a bug) must
		 * not lose the text: show it as plain text */
		if (!strpbrk(markup, "<&")) {
			pango_layout_set_text(l, markup, -1);
		} else if (pango_parse_markup(markup, -1, 0, &attrs, &text, NULL, NULL)) {
			pango_layout_set_text(l, text, -1);
			pango_layout_set_attributes(l, attrs);
			pango_attr_list_unref(attrs);
			g_free(text);
		} else {
			pango_layout_set_text(l, markup, -1);
		}
	}
	return l;
}

static PangoLayout *layout_new(struct pdf_doc *d, const char *family, double size, int bold,
			       const char *markup, double width)
{
	return layout_new_pc(d->pc, family, size, bold, markup, width);
}

static void set_grey(cairo_t *cr, double g)
{
	cairo_set_source_rgb(cr, g, g, g);
}

static void show_at(struct pdf_doc *d, PangoLayout *l, double x, double y)
{
	if (d->dry)
		return;   /* a dry run lays out, draws nothing */
	cairo_move_to(d->cr, x, y);
	pango_cairo_show_layout(d->cr, l);
}

static void draw_decor(struct pdf_doc *d)
{
	struct strbuf sb = STRBUF_INIT;
	double w = pdf_text_width(d);
	PangoLayout *l;
	int lw, lh;

	if (d->page == 1 || d->dry)
		return;   /* the cover has no running header; a dry run draws nothing */
	cairo_save(d->cr);
	set_grey(d->cr, 0.45);
	pdf_esc(&sb, d->header);
	l = layout_new(d, FONT, 7.5, 0, sb.buf, -1);
	show_at(d, l, MARGIN_L, MARGIN_T - 30);
	g_object_unref(l);
	if (d->section) {
		strbuf_reset(&sb);
		pdf_esc(&sb, d->section);
		l = layout_new(d, FONT, 7.5, 0, sb.buf, -1);
		pango_layout_get_size(l, &lw, &lh);
		show_at(d, l, MARGIN_L + w - (double)lw / PANGO_SCALE, MARGIN_T - 30);
		g_object_unref(l);
	}
	cairo_set_line_width(d->cr, 0.5);
	cairo_move_to(d->cr, MARGIN_L, MARGIN_T - 18);
	cairo_line_to(d->cr, MARGIN_L + w, MARGIN_T - 18);
	cairo_stroke(d->cr);
	strbuf_reset(&sb);
	pdf_esc(&sb, d->footer);
	l = layout_new(d, FONT, 7.5, 0, sb.buf, -1);
	show_at(d, l, MARGIN_L, d->o.page_h - MARGIN_B + 22);
	g_object_unref(l);
	strbuf_reset(&sb);
	if (d->total_pages)
		strbuf_addf(&sb, "page %d of %d", d->page, d->total_pages);
	else
		strbuf_addf(&sb, "page %d", d->page);
	l = layout_new(d, FONT, 7.5, 0, sb.buf, -1);
	pango_layout_get_size(l, &lw, &lh);
	show_at(d, l, MARGIN_L + w - (double)lw / PANGO_SCALE, d->o.page_h - MARGIN_B + 22);
	g_object_unref(l);
	cairo_restore(d->cr);
	strbuf_release(&sb);
}

/* Begin the current page if it has not been begun. */
static void ensure_page(struct pdf_doc *d)
{
	if (d->in_page)
		return;
	if (d->page > 0)
		cairo_show_page(d->cr);
	d->page++;
	d->in_page = 1;
	d->y = MARGIN_T;
	draw_decor(d);
}

void pdf_new_page(struct pdf_doc *d)
{
	if (d->in_page && d->y > MARGIN_T)
		d->in_page = 0;
}

void pdf_set_section(struct pdf_doc *d, const char *text)
{
	free(d->section);
	d->section = text ? ab_strdup(text) : NULL;
}

void pdf_goto(struct pdf_doc *d, double y)
{
	ensure_page(d);
	if (y > d->y && y < bottom(d))
		d->y = y;
}

void pdf_space(struct pdf_doc *d, double pt)
{
	if (d->in_page && d->y > MARGIN_T)
		d->y += pt;
}

void pdf_need(struct pdf_doc *d, double pt)
{
	ensure_page(d);
	if (d->y + pt > bottom(d) && d->y > MARGIN_T) {
		d->in_page = 0;
		ensure_page(d);
	}
}

/* Draw a layout at x, breaking between lines across pages. */
static void flow_layout(struct pdf_doc *d, PangoLayout *l, double x)
{
	PangoLayoutIter *it = pango_layout_get_iter(l);
	double offset = 0.0;   /* layout y that maps to the cursor */

	ensure_page(d);
	do {
		PangoRectangle ink, logical;
		double top, bot, base;

		pango_layout_iter_get_line_extents(it, &ink, &logical);
		top = (double)logical.y / PANGO_SCALE;
		bot = (double)(logical.y + logical.height) / PANGO_SCALE;
		base = (double)pango_layout_iter_get_baseline(it) / PANGO_SCALE;
		if (d->y + (bot - offset) > bottom(d) && top > offset) {
			/* the rest goes on the next page */
			d->y += top - offset;
			d->in_page = 0;
			ensure_page(d);
			offset = top;
		}
		if (!d->dry) {
			cairo_move_to(d->cr, x, d->y + base - offset);
			pango_cairo_show_layout_line(d->cr, pango_layout_iter_get_line_readonly(it));
		}
	} while (pango_layout_iter_next_line(it));
	{
		int w, h;

		pango_layout_get_size(l, &w, &h);
		d->y += (double)h / PANGO_SCALE - offset;
	}
	pango_layout_iter_free(it);
}

void pdf_para(struct pdf_doc *d, enum pdf_style style, const char *markup)
{
	PangoLayout *l = layout_new(d, styles[style].family, styles[style].size, styles[style].bold,
				    markup, pdf_text_width(d));

	if (style == PDF_BODY || style == PDF_SMALL)
		pango_layout_set_spacing(l, (int)(1.2 * PANGO_SCALE));
	cairo_save(d->cr);
	set_grey(d->cr, styles[style].grey);
	flow_layout(d, l, MARGIN_L);
	cairo_restore(d->cr);
	g_object_unref(l);
	d->y += PARA_GAP;
}

void pdf_bullet(struct pdf_doc *d, const char *markup)
{
	PangoLayout *l = layout_new(d, FONT, styles[PDF_BODY].size, 0, markup,
				    pdf_text_width(d) - 14);
	PangoLayout *b = layout_new(d, FONT, styles[PDF_BODY].size, 0, "\xe2\x80\xa2", -1);

	pango_layout_set_spacing(l, (int)(1.2 * PANGO_SCALE));
	pdf_need(d, 14);
	cairo_save(d->cr);
	set_grey(d->cr, styles[PDF_BODY].grey);
	show_at(d, b, MARGIN_L + 3, d->y);
	flow_layout(d, l, MARGIN_L + 14);
	cairo_restore(d->cr);
	g_object_unref(l);
	g_object_unref(b);
	d->y += 3.0;
}

/* ---- headings, outline, TOC ------------------------------------------ */

static void tag_attr(struct strbuf *sb, const char *key, const char *value)
{
	const char *p;

	strbuf_addf(sb, "%s='", key);
	for (p = value; *p; p++) {
		if (*p == '\'' || *p == '\\')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

void pdf_dest(struct pdf_doc *d, const char *dest)
{
	struct strbuf a = STRBUF_INIT;

	ensure_page(d);
	if (d->dry)
		return;
	tag_attr(&a, "name", dest);
	cairo_tag_begin(d->cr, CAIRO_TAG_DEST, a.buf);
	/* an invisible mark gives the destination its position */
	cairo_save(d->cr);
	cairo_set_source_rgba(d->cr, 1, 1, 1, 0);
	cairo_rectangle(d->cr, MARGIN_L, d->y, 1, 1);
	cairo_fill(d->cr);
	cairo_restore(d->cr);
	cairo_tag_end(d->cr, CAIRO_TAG_DEST);
	strbuf_release(&a);
}

int pdf_heading(struct pdf_doc *d, int level, const char *text, const char *dest, int in_toc)
{
	static const double size[] = { 0, 16.0, 12.0, 10.0 };
	struct strbuf sb = STRBUF_INIT, a = STRBUF_INIT;
	struct heading *h;
	PangoLayout *l;
	int idx;

	if (level < 1)
		level = 1;
	if (level > 3)
		level = 3;
	if (level == 1) {
		pdf_new_page(d);
		pdf_set_section(d, text);
	} else {
		pdf_space(d, level == 2 ? 10.0 : 6.0);
		pdf_need(d, level == 2 ? 90.0 : 50.0);
	}
	ensure_page(d);
	if (d->nh == d->ah) {
		d->ah = d->ah ? 2 * d->ah : 32;
		d->h = ab_realloc(d->h, d->ah * sizeof(*d->h));
	}
	idx = (int)d->nh;
	h = &d->h[d->nh++];
	h->text = ab_strdup(text);
	h->dest = dest ? ab_strdup(dest) : NULL;
	h->level = level;
	h->page = d->page;
	h->in_toc = in_toc;

	if (dest && !d->dry) {
		tag_attr(&a, "name", dest);
		cairo_tag_begin(d->cr, CAIRO_TAG_DEST, a.buf);
	}
	pdf_esc(&sb, text);
	l = layout_new(d, FONT, size[level], 1, sb.buf, pdf_text_width(d));
	cairo_save(d->cr);
	cairo_set_source_rgb(d->cr, 0.12, 0.23, 0.37);
	flow_layout(d, l, MARGIN_L);
	cairo_restore(d->cr);
	g_object_unref(l);
	if (dest && !d->dry)
		cairo_tag_end(d->cr, CAIRO_TAG_DEST);
	if (dest && !d->dry && level <= 2) {
		strbuf_reset(&a);
		tag_attr(&a, "dest", dest);
		if (level == 1)
			d->outline_l1 = cairo_pdf_surface_add_outline(d->surf, CAIRO_PDF_OUTLINE_ROOT,
								      text, a.buf, 0);
		else
			cairo_pdf_surface_add_outline(d->surf, d->outline_l1, text, a.buf, 0);
	}
	if (level == 1) {
		cairo_save(d->cr);
		cairo_set_source_rgb(d->cr, 0.12, 0.23, 0.37);
		cairo_set_line_width(d->cr, 1.0);
		cairo_move_to(d->cr, MARGIN_L, d->y + 3);
		cairo_line_to(d->cr, MARGIN_L + pdf_text_width(d), d->y + 3);
		cairo_stroke(d->cr);
		cairo_restore(d->cr);
		d->y += 12.0;
	} else {
		d->y += 4.0;
	}
	strbuf_release(&sb);
	strbuf_release(&a);
	return idx;
}

void pdf_toc(struct pdf_doc *d)
{
	const struct heading *hs = d->known ? d->known : d->h;
	size_t n = d->known ? d->nknown : 0, i;
	struct strbuf sb = STRBUF_INIT, a = STRBUF_INIT;

	/* In the dry run the headings are not known yet: the caller puts the
	 * TOC on pages of its own (a level-1 heading follows), so the space it
	 * takes cannot move anything after it. */
	for (i = 0; i < n; i++) {
		PangoLayout *l, *pl;
		int lw, lh, pw, ph;
		double indent = hs[i].level == 1 ? 0.0 : 14.0, rowh;

		if (!hs[i].in_toc)
			continue;
		strbuf_reset(&sb);
		if (hs[i].level == 1)
			strbuf_addstr(&sb, "<b>");
		pdf_esc(&sb, hs[i].text);
		if (hs[i].level == 1)
			strbuf_addstr(&sb, "</b>");
		l = layout_new(d, FONT, hs[i].level == 1 ? 10.0 : 9.0, 0, sb.buf,
			       pdf_text_width(d) - indent - 40);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%d", hs[i].page);
		pl = layout_new(d, FONT, 9.0, 0, sb.buf, -1);
		pango_layout_get_size(l, &lw, &lh);
		pango_layout_get_size(pl, &pw, &ph);
		rowh = (double)lh / PANGO_SCALE + (hs[i].level == 1 ? 5.0 : 2.5);
		if (hs[i].level == 1)
			pdf_need(d, rowh + 20);
		else
			pdf_need(d, rowh);
		cairo_save(d->cr);
		set_grey(d->cr, 0.13);
		if (hs[i].dest && !d->dry) {
			strbuf_reset(&a);
			tag_attr(&a, "dest", hs[i].dest);
			strbuf_addf(&a, " rect=[%.2f %.2f %.2f %.2f]", MARGIN_L + indent, d->y,
				    pdf_text_width(d) - indent, (double)lh / PANGO_SCALE);
			cairo_tag_begin(d->cr, CAIRO_TAG_LINK, a.buf);
		}
		show_at(d, l, MARGIN_L + indent, d->y);
		show_at(d, pl, MARGIN_L + pdf_text_width(d) - (double)pw / PANGO_SCALE, d->y);
		if (hs[i].dest && !d->dry)
			cairo_tag_end(d->cr, CAIRO_TAG_LINK);
		cairo_restore(d->cr);
		g_object_unref(l);
		g_object_unref(pl);
		d->y += rowh;
	}
	strbuf_release(&sb);
	strbuf_release(&a);
}

/* ---- figures --------------------------------------------------------- */

int pdf_figure(struct pdf_doc *d, double height, pdf_draw_fn fn, void *ctx, struct strbuf *err)
{
	double maxh = bottom(d) - MARGIN_T;
	int rc = 0;

	if (height > maxh)
		height = maxh;
	pdf_need(d, height);
	if (!d->dry) {
		cairo_save(d->cr);
		cairo_rectangle(d->cr, MARGIN_L, d->y, pdf_text_width(d), height);
		cairo_clip(d->cr);
		rc = fn(d->cr, MARGIN_L, d->y, pdf_text_width(d), height, ctx, err);
		cairo_restore(d->cr);
		/* a drawing that failed because the output could not be written
		 * (a full disk) is an I/O error, said as such */
		if (rc && cairo_surface_status(d->surf) == CAIRO_STATUS_WRITE_ERROR) {
			strbuf_reset(err);
			rc = ab_fail(err, AB_EIO, "cannot write the PDF: %s",
				     cairo_status_to_string(CAIRO_STATUS_WRITE_ERROR));
		}
	}
	d->y += height + PARA_GAP;
	return rc;
}

/* ---- tables ---------------------------------------------------------- */

struct trow {
	char **cells;
	char *link, *dest;
	int emph;
};

struct pdf_table {
	size_t ncols;
	double font;
	double pad_y;             /* above and below each cell's text */
	char **titles;
	enum pdf_align *align;
	double *maxw;             /* per column: a share of the text width it may
				   * take at most before it wraps (0: any) */
	struct trow *rows;
	size_t nrows, arows;
};

struct pdf_table *pdf_table_new(size_t ncols, double font_size)
{
	struct pdf_table *t = ab_calloc(1, sizeof(*t));

	t->ncols = ncols ? ncols : 1;
	t->font = font_size > 0 ? font_size : 8.0;
	t->pad_y = CELL_PAD_Y;
	t->titles = ab_calloc(t->ncols, sizeof(*t->titles));
	t->align = ab_calloc(t->ncols, sizeof(*t->align));
	t->maxw = ab_calloc(t->ncols, sizeof(*t->maxw));
	return t;
}

void pdf_table_col_max(struct pdf_table *t, size_t col, double share)
{
	if (col < t->ncols)
		t->maxw[col] = share;
}

void pdf_table_free(struct pdf_table *t)
{
	size_t i, c;

	if (!t)
		return;
	for (i = 0; i < t->nrows; i++) {
		for (c = 0; c < t->ncols; c++)
			free(t->rows[i].cells[c]);
		free(t->rows[i].cells);
		free(t->rows[i].link);
		free(t->rows[i].dest);
	}
	for (c = 0; c < t->ncols; c++)
		free(t->titles[c]);
	free(t->rows);
	free(t->titles);
	free(t->align);
	free(t->maxw);
	free(t);
}

void pdf_table_col(struct pdf_table *t, size_t col, const char *title, enum pdf_align align)
{
	if (col >= t->ncols)
		return;
	free(t->titles[col]);
	t->titles[col] = ab_strdup(title ? title : "");
	t->align[col] = align;
}

void pdf_table_row(struct pdf_table *t, const char *link_dest, const char *dest)
{
	struct trow *r;

	if (t->nrows == t->arows) {
		t->arows = t->arows ? 2 * t->arows : 16;
		t->rows = ab_realloc(t->rows, t->arows * sizeof(*t->rows));
	}
	r = &t->rows[t->nrows++];
	r->cells = ab_calloc(t->ncols, sizeof(*r->cells));
	r->link = link_dest ? ab_strdup(link_dest) : NULL;
	r->dest = dest ? ab_strdup(dest) : NULL;
	r->emph = 0;
}

void pdf_table_cell(struct pdf_table *t, size_t col, const char *markup)
{
	struct trow *r;

	if (!t->nrows || col >= t->ncols)
		return;
	r = &t->rows[t->nrows - 1];
	free(r->cells[col]);
	r->cells[col] = markup ? ab_strdup(markup) : NULL;
}

void pdf_table_cellf(struct pdf_table *t, size_t col, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	pdf_table_cell(t, col, sb.buf);
	strbuf_release(&sb);
}

void pdf_table_dense(struct pdf_table *t)
{
	t->pad_y = 1.0;
}

void pdf_table_emph(struct pdf_table *t)
{
	if (t->nrows)
		t->rows[t->nrows - 1].emph = 1;
}

/* Widest line without wrapping (max) and widest word (min, capped so a
 * long path can still break anywhere). */
#define MIN_CONTENT_CAP 90.0

/* one: when not NULL, the cell's height if it fits its column on one line
 * (-1: unknown) and its natural width in pango units */
struct cell_one {
	double h;
	int width;
};

/* keep: when not NULL, gets the unwrapped layout of a one-line text
 * (else NULL): a left-aligned cell that fits its column draws it as the
 * layout in the column's width would be drawn (one line, the same glyphs
 * at the same place). */
static void content_widths(PangoContext *pc, const char *markup, double font, int bold,
			   double *mn, double *mx, struct cell_one *one, PangoLayout **keep)
{
	PangoLayout *l;
	PangoRectangle ink, logical;

	*mn = *mx = 0.0;
	if (one)
		one->h = -1.0;
	if (keep)
		*keep = NULL;
	if (!markup || !*markup)
		return;
	l = layout_new_pc(pc, FONT, font, bold, markup, -1);
	pango_layout_get_extents(l, &ink, &logical);
	*mx = (double)logical.width / PANGO_SCALE;
	if (one && pango_layout_get_line_count(l) == 1) {
		one->h = (double)logical.height / PANGO_SCALE;
		one->width = logical.width;
		if (keep)
			*keep = g_object_ref(l);
	}
	if (strchr(markup, ' ') || strchr(markup, '\n')) {
		if (keep && *keep) {
			/* the kept layout stays unwrapped: measure a copy */
			g_object_unref(l);
			l = layout_new_pc(pc, FONT, font, bold, markup, -1);
		}
		pango_layout_set_width(l, 1);
		pango_layout_set_wrap(l, PANGO_WRAP_WORD);
		pango_layout_get_extents(l, &ink, &logical);
		*mn = (double)logical.width / PANGO_SCALE;
	} else {
		*mn = *mx;
	}
	if (*mn > MIN_CONTENT_CAP)
		*mn = MIN_CONTENT_CAP;
	if (*mn > *mx)
		*mn = *mx;
	g_object_unref(l);
}

/*
 * Column widths as HTML tables do: max-content widths when they fit;
 * else min-content plus the room left shared in proportion to what each
 * column would still like (max - min); else min-content scaled down.
 */
static void column_widths(const double *mn, const double *mx, size_t n, double avail, double *w)
{
	double smin = 0.0, smax = 0.0;
	size_t i;

	for (i = 0; i < n; i++) {
		smin += mn[i];
		smax += mx[i];
	}
	for (i = 0; i < n; i++) {
		if (smax <= avail)
			w[i] = mx[i];
		else if (smin <= avail)
			w[i] = mn[i] + (mx[i] - mn[i]) * (avail - smin) / (smax - smin);
		else
			w[i] = mn[i] * avail / smin;
	}
}

/* Cells of one table by column and text: a text that repeats in a
 * column (a system, a status, a configuration) is measured and laid out
 * once, and its layout drawn again (the same glyphs where a fresh layout
 * would put them).  Texts are borrowed from the table. */
struct cell_slot {
	const char *text;              /* NULL: empty slot */
	size_t col;
	PangoLayout *l;                /* laid out in the column's width, NULL: not yet */
	int lh;
	PangoLayout *l0;               /* a left-aligned one-line text unwrapped, NULL: none */
	int measured;                  /* lo, hi and one are known */
	double lo, hi;
	struct cell_one one;
};

struct cell_cache {
	struct cell_slot *slot;
	size_t cap, n;                 /* cap: a power of two, 0 before the first */
};

static size_t cell_hash(size_t col, const char *text)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)col;

	for (; *text; text++)
		h = (h ^ (unsigned char)*text) * 1099511628211ULL;
	return (size_t)h;
}

/* The slot of (col, text), made when missing. */
static struct cell_slot *cell_slot(struct cell_cache *cc, size_t col, const char *text)
{
	size_t i, j;

	if (2 * (cc->n + 1) > cc->cap) {
		struct cell_slot *old = cc->slot;
		size_t oc = cc->cap;

		cc->cap = oc ? 2 * oc : 256;
		cc->slot = ab_calloc(cc->cap, sizeof(*cc->slot));
		for (i = 0; i < oc; i++)
			if (old[i].text) {
				j = cell_hash(old[i].col, old[i].text) & (cc->cap - 1);
				while (cc->slot[j].text)
					j = (j + 1) & (cc->cap - 1);
				cc->slot[j] = old[i];
			}
		free(old);
	}
	i = cell_hash(col, text) & (cc->cap - 1);
	while (cc->slot[i].text) {
		if (cc->slot[i].col == col && !strcmp(cc->slot[i].text, text))
			return &cc->slot[i];
		i = (i + 1) & (cc->cap - 1);
	}
	cc->slot[i].text = text;
	cc->slot[i].col = col;
	cc->n++;
	return &cc->slot[i];
}

static void cell_cache_release(struct cell_cache *cc)
{
	size_t i;

	for (i = 0; i < cc->cap; i++) {
		if (cc->slot[i].l)
			g_object_unref(cc->slot[i].l);
		if (cc->slot[i].l0)
			g_object_unref(cc->slot[i].l0);
	}
	free(cc->slot);
	memset(cc, 0, sizeof(*cc));
}

/* Lay out the cells of one row in their widths; returns the row height.
 * With one (a dry run), a cell known to fit on one line is not laid out
 * again: its height is the measured one and out[c] is NULL. */
static double row_layouts(PangoContext *pc, const struct pdf_table *t, char *const *cells,
			  int bold, const double *w, const struct cell_one *one, PangoLayout **out,
			  struct cell_cache *cc)
{
	double h = 0.0, maxh = t->font * 1.25 * CELL_MAX_LINES;
	size_t c;

	for (c = 0; c < t->ncols; c++) {
		struct cell_slot *sl = NULL;
		int lw, lh;

		if (one && one[c].h >= 0.0 &&
		    one[c].width <= (int)((w[c] - 2 * CELL_PAD_X) * PANGO_SCALE)) {
			out[c] = NULL;
			if (one[c].h > h)
				h = one[c].h;
			continue;
		}
		if (cc && (sl = cell_slot(cc, c, cells[c] ? cells[c] : ""))->l) {
			out[c] = g_object_ref(sl->l);
			lh = sl->lh;
		} else if (sl && sl->l0 &&
			   sl->one.width <= (int)((w[c] - 2 * CELL_PAD_X) * PANGO_SCALE)) {
			/* measured on one line and it fits: that layout */
			out[c] = g_object_ref(sl->l0);
			pango_layout_get_size(out[c], &lw, &lh);
			sl->l = g_object_ref(out[c]);
			sl->lh = lh;
		} else {
			out[c] = layout_new_pc(pc, FONT, t->font, bold, cells[c] ? cells[c] : "",
					       w[c] - 2 * CELL_PAD_X);
			pango_layout_set_height(out[c], (int)(maxh * PANGO_SCALE));
			pango_layout_set_ellipsize(out[c], PANGO_ELLIPSIZE_END);
			if (t->align[c] == PDF_RIGHT)
				pango_layout_set_alignment(out[c], PANGO_ALIGN_RIGHT);
			pango_layout_get_size(out[c], &lw, &lh);
			if (sl) {
				sl->l = g_object_ref(out[c]);
				sl->lh = lh;
			}
		}
		if ((double)lh / PANGO_SCALE > h)
			h = (double)lh / PANGO_SCALE;
	}
	return h + 2 * t->pad_y;
}

static void row_draw(struct pdf_doc *d, struct pdf_table *t, PangoLayout **ls, const double *w,
		     double h, double shade)
{
	double x = MARGIN_L, tw = 0.0;
	size_t c;

	for (c = 0; c < t->ncols; c++)
		tw += w[c];
	if (shade < 1.0) {
		cairo_save(d->cr);
		set_grey(d->cr, shade);
		cairo_rectangle(d->cr, MARGIN_L, d->y, tw, h);
		cairo_fill(d->cr);
		cairo_restore(d->cr);
	}
	cairo_save(d->cr);
	set_grey(d->cr, 0.13);
	for (c = 0; c < t->ncols; c++) {
		show_at(d, ls[c], x + CELL_PAD_X, d->y + t->pad_y);
		x += w[c];
	}
	cairo_restore(d->cr);
}

static void rule(struct pdf_doc *d, double width, double lw)
{
	cairo_save(d->cr);
	set_grey(d->cr, 0.3);
	cairo_set_line_width(d->cr, lw);
	cairo_move_to(d->cr, MARGIN_L, d->y);
	cairo_line_to(d->cr, MARGIN_L + width, d->y);
	cairo_stroke(d->cr);
	cairo_restore(d->cr);
}

static void unref_all(PangoLayout **ls, size_t n)
{
	size_t c;

	for (c = 0; c < n; c++)
		if (ls[c]) {
			g_object_unref(ls[c]);
			ls[c] = NULL;
		}
}

/* The header row, laid out once per table (hl, height h) and drawn on
 * each of its pages. */
static void header_draw(struct pdf_doc *d, struct pdf_table *t, const double *w, double tw,
			PangoLayout **hl, double h)
{
	if (!d->dry)
		row_draw(d, t, hl, w, h, 0.90);
	d->y += h;
	if (!d->dry)
		rule(d, tw, 0.6);
}

/* ---- measuring long tables on two threads ---------------------------- */

/* Tables with this many rows are measured by two threads: this one and a
 * helper with its own pango context (pango's font maps are per thread).
 * Measuring is a function of the text and font alone, so both give the
 * numbers one thread would; maxima and per-row heights combine in any
 * order. */
#define PAR_MIN_ROWS 128

struct measure_part {
	const struct pdf_table *t;
	size_t from, to;               /* rows */
	struct cell_one *one;          /* NULL: none wanted */
	const double *w;               /* widths: lay out the rows; NULL: contents */
	double *mn, *nat;              /* contents: per column, maxima of the rows */
	double *heights;               /* with w: per row */
	PangoLayout **lay;             /* with w: the rows' layouts (row x col) */
	PangoContext *pc;              /* NULL: make one (the helper thread) */
	struct cell_cache *cc;         /* kept from the contents to the layouts, NULL: none */
};

static void measure_part_run(struct measure_part *p)
{
	const struct pdf_table *t = p->t;
	PangoContext *pc = p->pc ? p->pc : context_new();
	struct cell_cache own = { NULL, 0, 0 }, *cc = p->cc ? p->cc : &own;
	size_t i, c;

	for (i = p->from; i < p->to; i++) {
		if (p->w) {
			p->heights[i] = row_layouts(pc, t, t->rows[i].cells, 0, p->w, NULL,
						    &p->lay[i * t->ncols], cc);
			continue;
		}
		for (c = 0; c < t->ncols; c++) {
			const char *text = t->rows[i].cells[c];
			struct cell_slot *sl = cell_slot(cc, c, text ? text : "");
			double lo, hi;

			if (!sl->measured) {
				content_widths(pc, text, t->font, 0, &sl->lo, &sl->hi, &sl->one,
					       p->cc && t->align[c] == PDF_LEFT ? &sl->l0 : NULL);
				sl->measured = 1;
			}
			lo = sl->lo;
			hi = sl->hi;
			if (p->one)
				p->one[i * t->ncols + c] = sl->one;
			if (lo > p->mn[c])
				p->mn[c] = lo;
			if (hi > p->nat[c])
				p->nat[c] = hi;
		}
	}
	cell_cache_release(&own);
	if (!p->pc)
		g_object_unref(pc);
}

static void *measure_main(void *arg)
{
	measure_part_run(arg);
	return NULL;
}

/* Run part[0] here and part[1] on a helper thread (here too when no
 * thread can be had). */
static void measure_both(struct pdf_doc *d, struct measure_part *part)
{
	pthread_t tid;
	/* AB_THREADS=1: one thread (the same numbers; for comparisons) */
	int two = !(getenv("AB_THREADS") && !strcmp(getenv("AB_THREADS"), "1")) &&
		  pthread_create(&tid, NULL, measure_main, &part[1]) == 0;

	part[0].pc = d->pc;
	measure_part_run(&part[0]);
	if (two)
		pthread_join(tid, NULL);
	else
		measure_part_run(&part[1]);
}

/* The contents' widths of t's rows into mn and nat (maxima with what they
 * hold), and with one the one-line heights. */
static void measure_rows(struct pdf_doc *d, const struct pdf_table *t, struct cell_one *one,
			 double *mn, double *nat, struct cell_cache *cc)
{
	struct measure_part part[2];
	size_t c, k, half = t->nrows >= PAR_MIN_ROWS ? t->nrows / 2 : t->nrows;

	memset(part, 0, sizeof(part));
	for (k = 0; k < 2; k++) {
		part[k].t = t;
		part[k].from = k ? half : 0;
		part[k].to = k ? t->nrows : half;
		part[k].one = one;
		part[k].cc = cc ? &cc[k] : NULL;
		part[k].mn = ab_calloc(t->ncols, sizeof(double));
		part[k].nat = ab_calloc(t->ncols, sizeof(double));
	}
	if (half < t->nrows) {
		measure_both(d, part);
	} else {
		part[0].pc = d->pc;
		measure_part_run(&part[0]);
	}
	for (k = 0; k < 2; k++) {
		for (c = 0; c < t->ncols; c++) {
			if (part[k].mn[c] > mn[c])
				mn[c] = part[k].mn[c];
			if (part[k].nat[c] > nat[c])
				nat[c] = part[k].nat[c];
		}
		free(part[k].mn);
		free(part[k].nat);
	}
}

/* Each row's layouts in widths w into lay (row x col) and its height,
 * returned. */
static double *row_heights(struct pdf_doc *d, const struct pdf_table *t, const double *w,
			   PangoLayout **lay, struct cell_cache *cc)
{
	struct measure_part part[2];
	double *h = ab_calloc(t->nrows, sizeof(*h));
	size_t k;

	memset(part, 0, sizeof(part));
	for (k = 0; k < 2; k++) {
		part[k].t = t;
		part[k].from = k ? t->nrows / 2 : 0;
		part[k].to = k ? t->nrows : t->nrows / 2;
		part[k].w = w;
		part[k].heights = h;
		part[k].lay = lay;
		part[k].cc = cc ? &cc[k] : NULL;
	}
	measure_both(d, part);
	return h;
}

/* Column widths of t: the dry run's when it drew the same table, else
 * measured (and then, in a dry run, one[] gets each cell's one-line
 * height).  Recorded for the passes that follow.  Returns whether it
 * measured. */
static int table_widths(struct pdf_doc *d, struct pdf_table *t, double *w, struct cell_one *one,
			struct cell_cache *cc)
{
	size_t k = d->ntm, c;
	struct tmeasure *m;
	int measured = 0;

	if (k < d->nktm && d->ktm[k].ncols == t->ncols && d->ktm[k].nrows == t->nrows) {
		memcpy(w, d->ktm[k].w, t->ncols * sizeof(*w));
	} else {
		measured = 1;
		double *nat = ab_calloc(t->ncols, sizeof(*nat));
		double *mn = ab_calloc(t->ncols, sizeof(*mn));

		for (c = 0; c < t->ncols; c++)
			content_widths(d->pc, t->titles[c], t->font, 1, &mn[c], &nat[c], NULL, NULL);
		measure_rows(d, t, one, mn, nat, cc);
		for (c = 0; c < t->ncols; c++) {
			nat[c] += 2 * CELL_PAD_X + 0.5;
			mn[c] += 2 * CELL_PAD_X + 0.5;
			/* a capped column wraps before the others do */
			if (t->maxw[c] > 0 && nat[c] > t->maxw[c] * pdf_text_width(d))
				nat[c] = fmax(mn[c], t->maxw[c] * pdf_text_width(d));
		}
		column_widths(mn, nat, t->ncols, pdf_text_width(d), w);
		free(nat);
		free(mn);
	}
	if (d->ntm == d->atm) {
		d->atm = d->atm ? 2 * d->atm : 16;
		d->tm = ab_realloc(d->tm, d->atm * sizeof(*d->tm));
	}
	m = &d->tm[d->ntm++];
	memset(m, 0, sizeof(*m));
	m->ncols = t->ncols;
	m->nrows = t->nrows;
	m->w = ab_malloc(t->ncols * sizeof(*m->w));
	memcpy(m->w, w, t->ncols * sizeof(*w));
	return measured;
}

void pdf_table_draw(struct pdf_doc *d, struct pdf_table *t)
{
	double *w = ab_calloc(t->ncols, sizeof(*w));
	PangoLayout **ls = ab_calloc(t->ncols, sizeof(*ls));
	struct cell_one *one = NULL;
	struct strbuf a = STRBUF_INIT;
	double tw = 0.0, hh, *heights = NULL;
	PangoLayout **lay = NULL, **rl, **hl;
	struct cell_cache cc = { NULL, 0, 0 }, *pcc = NULL;
	size_t i, c, k;
	int kept = 0;

	/* a dry run only needs row heights: cells that fit on one line are
	 * not laid out a second time */
	if (d->dry && t->nrows && t->nrows < PAR_MIN_ROWS)
		one = ab_malloc(t->nrows * t->ncols * sizeof(*one));
	k = d->ntm;
	/* a long table measured in a dry run keeps each part's cells from
	 * measuring to laying out (a one-line text's layout) */
	if (d->dry && t->nrows >= PAR_MIN_ROWS)
		pcc = ab_calloc(2, sizeof(*pcc));
	if (!table_widths(d, t, w, one, pcc)) {
		free(one);   /* widths from an earlier pass: no heights measured */
		one = NULL;
		if (k < d->nktm && d->ktm[k].lay) {
			/* the dry run laid out the rows: take them */
			lay = d->ktm[k].lay;
			heights = d->ktm[k].heights;
			d->ktm[k].lay = NULL;
			d->ktm[k].heights = NULL;
		}
	}
	for (c = 0; c < t->ncols; c++)
		tw += w[c];
	/* the header and at least one row together */
	hl = ab_calloc(t->ncols, sizeof(*hl));
	hh = row_layouts(d->pc, t, t->titles, 1, w, NULL, hl, NULL);
	pdf_need(d, hh + t->font * 3);
	header_draw(d, t, w, tw, hl, hh);
	/* a long table's rows are laid out on both cores, once: in the dry
	 * run, which keeps them for the real pass (or here when there are
	 * none to take) */
	if (!lay && t->nrows >= PAR_MIN_ROWS) {
		lay = ab_calloc(t->nrows * t->ncols, sizeof(*lay));
		heights = row_heights(d, t, w, lay, pcc);
		if (d->dry) {
			d->tm[k].lay = lay;
			d->tm[k].heights = heights;
			kept = 1;
		}
	}
	for (i = 0; i < t->nrows; i++) {
		struct trow *r = &t->rows[i];
		double h;

		rl = lay ? &lay[i * t->ncols] : ls;
		h = heights ? heights[i]
			    : row_layouts(d->pc, t, r->cells, 0, w,
					  one ? &one[i * t->ncols] : NULL, ls, &cc);

		if (d->y + h > bottom(d)) {
			if (!d->dry)
				rule(d, tw, 0.6);
			d->in_page = 0;
			ensure_page(d);
			header_draw(d, t, w, tw, hl, hh);
		}
		if (r->dest)
			pdf_dest(d, r->dest);
		if (!d->dry) {
			if (r->link) {
				strbuf_reset(&a);
				tag_attr(&a, "dest", r->link);
				strbuf_addf(&a, " rect=[%.2f %.2f %.2f %.2f]", MARGIN_L, d->y, w[0],
					    h);
				cairo_tag_begin(d->cr, CAIRO_TAG_LINK, a.buf);
			}
			row_draw(d, t, rl, w, h, r->emph ? 0.86 : (i % 2 ? 0.965 : 1.0));
			if (r->link)
				cairo_tag_end(d->cr, CAIRO_TAG_LINK);
		}
		d->y += h;
		if (!kept)
			unref_all(rl, t->ncols);
	}
	if (!d->dry)
		rule(d, tw, 0.6);
	d->y += PARA_GAP + 3;
	strbuf_release(&a);
	cell_cache_release(&cc);
	unref_all(hl, t->ncols);
	free(hl);
	if (pcc) {
		cell_cache_release(&pcc[0]);
		cell_cache_release(&pcc[1]);
		free(pcc);
	}
	if (!kept) {
		free(heights);
		free(lay);
	}
	free(one);
	free(ls);
	free(w);
}

/* ---- finishing ------------------------------------------------------- */

void pdf_doc_end_output(struct pdf_doc *d)
{
	if (!d->dry)
		cairo_surface_finish(d->surf);
}

int pdf_doc_finish(struct pdf_doc *d, struct strbuf *err)
{
	cairo_status_t st;

	ensure_page(d);
	cairo_show_page(d->cr);
	st = cairo_status(d->cr);
	if (!st && !d->dry) {
		cairo_surface_finish(d->surf);
		st = cairo_surface_status(d->surf);
	}
	if (st)
		return ab_fail(err, st == CAIRO_STATUS_WRITE_ERROR ? AB_EIO : AB_EINTERNAL,
			       "cannot write the PDF: %s", cairo_status_to_string(st));
	return 0;
}
