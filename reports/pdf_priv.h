/*
 * pdf_priv.h - a small document engine on cairo's PDF surface and pango,
 * used by the report (report_pdf.c).  Internal to reports/.
 *
 * A document is laid out top to bottom: headings, paragraphs, tables and
 * figures flow onto pages of a fixed size with margins, a running header
 * and page numbers.  Tables continue across pages with their header row
 * repeated and never run off the page (columns shrink and wrap).
 * Headings become PDF outline entries (bookmarks) and named destinations
 * that internal links and the table of contents point to.
 *
 * Two passes.  The caller builds the whole document twice with the same
 * calls: first with pdf_doc_new(..., NULL fp) (a dry run: layout only,
 * nothing drawn or written) to learn the page of every heading and the
 * page count, then for real, passing the dry run's pdf_doc to the second
 * (pdf_doc_pages_from) so the table of contents and "page N of M" show
 * the right numbers.  The calls must not depend on the pass.
 *
 * Units are PDF points.  Text arguments are UTF-8; "markup" arguments are
 * pango markup (escape data with pdf_esc).  Ownership: a pdf_doc owns its
 * surface and everything it allocates; strings passed in are copied or
 * borrowed for the call only.
 */
#ifndef AB_PDF_PRIV_H
#define AB_PDF_PRIV_H

#include "core/core.h"
#include "plots/gfx.h" /* cairo/pango headers; calls through the loaded table */

struct pdf_doc;

struct pdf_doc_opts {
	double page_w, page_h;        /* points: A4 595.28 x 841.89, Letter 612 x 792 */
	const char *title, *author, *subject, *creator, *keywords;
	long long date;               /* seconds since the epoch for the metadata dates */
	const char *header;           /* running header text (left) */
	const char *footer;           /* footer text (left), page number right */
};

/* Write the PDF to fp (borrowed; the caller checks and closes it), or
 * with fp NULL make a dry run (layout only).  0 or -AB_EINTERNAL. */
int pdf_doc_new(struct pdf_doc **out, FILE *fp, const struct pdf_doc_opts *o,
		struct strbuf *err);
/* Page numbers of headings and the page count, from a finished dry run. */
void pdf_doc_pages_from(struct pdf_doc *d, struct pdf_doc *dry);
/* Finish: the last page, and for a real document flush and check the
 * surface.  Returns 0 or a negative status with err. */
int pdf_doc_finish(struct pdf_doc *d, struct strbuf *err);
/* Stop writing to the output (before the caller closes it after a
 * failure); the document can then only be freed. */
void pdf_doc_end_output(struct pdf_doc *d);
void pdf_doc_free(struct pdf_doc *d);
/* Whether d laid out its headings on the pages prev did, with as many pages. */
int pdf_doc_same_pages(const struct pdf_doc *d, const struct pdf_doc *prev);
int pdf_doc_is_dry(const struct pdf_doc *d);
int pdf_doc_page(const struct pdf_doc *d);        /* current page, 1-based */
int pdf_doc_pages(const struct pdf_doc *d);       /* known page count (0 in a dry run) */

/* Escape text for pango markup, appended to sb. */
void pdf_esc(struct strbuf *sb, const char *text);

/* Start a new page (no-op when the current page is still empty). */
void pdf_new_page(struct pdf_doc *d);
/* The running header's section text from now on (NULL: none). */
void pdf_set_section(struct pdf_doc *d, const char *text);

/*
 * A heading: level 1 starts a new page; levels 1-2 get an outline entry
 * (level 2 under the last level 1) and a named destination dest (NULL:
 * none).  in_toc adds it to the table of contents.  Returns the heading's
 * index.
 */
int pdf_heading(struct pdf_doc *d, int level, const char *text, const char *dest, int in_toc);
/* The table of contents: one clickable line per heading added with
 * in_toc, with its page number (known in the second pass).  Takes
 * pdf_toc_lines() lines of space; call it where the TOC goes. */
void pdf_toc(struct pdf_doc *d);
/* A named destination at the current position (for links to a row). */
void pdf_dest(struct pdf_doc *d, const char *dest);

enum pdf_style {
	PDF_BODY = 0,     /* 9.5 pt */
	PDF_SMALL,        /* 7.5 pt, grey: notes, captions */
	PDF_TITLE,        /* cover title */
	PDF_SUBTITLE,     /* cover lines */
	PDF_MONO          /* small monospace */
};

/* A paragraph of pango markup, wrapped to the text width, split across
 * pages between lines when it does not fit. */
void pdf_para(struct pdf_doc *d, enum pdf_style style, const char *markup);
/* Same with a bullet. */
void pdf_bullet(struct pdf_doc *d, const char *markup);
/* Move the cursor down to y points from the page top (cover layout). */
void pdf_goto(struct pdf_doc *d, double y);
/* Vertical space in points (dropped at the top of a page). */
void pdf_space(struct pdf_doc *d, double pt);
/* Make sure pt points remain on the page, else start a new one. */
void pdf_need(struct pdf_doc *d, double pt);
double pdf_text_width(const struct pdf_doc *d);

/* A figure of the given height (clamped to the page) drawn by a callback
 * into (x, y, w, h) of cr; not called in a dry run. */
typedef int (*pdf_draw_fn)(cairo_t *cr, double x, double y, double w, double h, void *ctx,
			   struct strbuf *err);
int pdf_figure(struct pdf_doc *d, double height, pdf_draw_fn fn, void *ctx, struct strbuf *err);

/* ---- tables ---------------------------------------------------------- */

enum pdf_align {
	PDF_LEFT = 0,
	PDF_RIGHT = 1
};

struct pdf_table;

/* A table with ncols columns; font size in points (0: 8). */
struct pdf_table *pdf_table_new(size_t ncols, double font_size);
void pdf_table_free(struct pdf_table *t);
/* Column title (pango markup) and alignment. */
void pdf_table_col(struct pdf_table *t, size_t col, const char *title, enum pdf_align align);
/* Column col wraps its cells rather than take more than share (0..1) of
 * the text width, leaving the room to the other columns. */
void pdf_table_col_max(struct pdf_table *t, size_t col, double share);
/* Start a row; link_dest (NULL: none) makes the row's first cell a link,
 * dest (NULL: none) puts a named destination on it. */
void pdf_table_row(struct pdf_table *t, const char *link_dest, const char *dest);
/* Set a cell of the last row (pango markup; NULL: empty). */
void pdf_table_cell(struct pdf_table *t, size_t col, const char *markup);
void pdf_table_cellf(struct pdf_table *t, size_t col, const char *fmt, ...) AB_PRINTF(3, 4);
/* Less space above and below cells (long one-line-per-row tables). */
void pdf_table_dense(struct pdf_table *t);
/* Shade the last row (e.g. the baseline). */
void pdf_table_emph(struct pdf_table *t);
/* Lay out and draw the table at the cursor, continuing on new pages with
 * the header repeated. */
void pdf_table_draw(struct pdf_doc *d, struct pdf_table *t);

#endif
