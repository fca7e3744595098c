/*
 * gfx.h - cairo, pango and glib, loaded at first use (core/dynlib.h):
 * plots/ and the PDF report (reports/pdf_doc.c, report_pdf.c) call
 * cairo_*(), pango_*() and g_*() as usual, through this header.
 *
 * accelbench is not linked with the drawing stack: loading it (cairo,
 * pango, harfbuzz, fontconfig, freetype, glib and their dependencies, ~40
 * libraries) at every start costs ~6 ms, and only charts and PDF reports
 * draw.  Every public entry point that draws calls gfx_load() first and
 * returns its error: plot_write_file(), plot_draw(), report_write_pdf();
 * plot_shutdown() does nothing unless gfx_loaded().
 *
 * How: the libraries' own headers still declare every type and prototype.
 * struct gfx_api holds one pointer per function we call, each declared
 * from the real prototype (__typeof__), and below, every name is
 * redirected to its pointer: cairo_paint(cr) becomes
 * (gfx_fn.cairo_paint)(cr).  A function called without a line in a
 * GFX_*_SYMS list and a redirect fails to link (no -lcairo), a redirect
 * without the line fails to compile.  This header must come before any
 * other cairo/pango/glib header it does not include itself (it includes
 * all those we use; include guards make later includes no-ops).  gfx.c
 * defines GFX_NO_REDIRECT: it names the fields themselves.
 *
 * Libraries are opened in dependency order (glib, gobject, cairo, pango,
 * pangocairo) so that a missing one is named, not the first library that
 * needs it; RTLD_LOCAL is enough: each library finds its dependencies
 * through its own NEEDED entries.
 *
 * Ownership and threads: gfx_fn (and the load's outcome, static in gfx.c)
 * is written once, under pthread_once, by the first gfx_load(), and
 * read-only afterwards: a table of constants in all but name, so it meets
 * "no globals beyond read-only tables".  Every caller reaches it through a
 * gfx_load() (the PDF report's second thread starts after it), which orders
 * the writes before its reads.
 */
#ifndef AB_GFX_H
#define AB_GFX_H

#include "core/core.h"

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>

#define GFX_GLIB_SYMS(X)                                                       \
	X(g_free)

#define GFX_GOBJECT_SYMS(X)                                                    \
	X(g_object_ref) X(g_object_unref)

#define GFX_CAIRO_SYMS(X)                                                      \
	X(cairo_arc) X(cairo_clip) X(cairo_close_path) X(cairo_create)         \
	X(cairo_destroy) X(cairo_fill) X(cairo_fill_preserve)                  \
	X(cairo_font_options_create) X(cairo_font_options_destroy)             \
	X(cairo_font_options_set_antialias) X(cairo_font_options_set_hint_metrics) \
	X(cairo_font_options_set_hint_style) X(cairo_image_surface_create)     \
	X(cairo_line_to) X(cairo_move_to) X(cairo_new_path) X(cairo_new_sub_path) \
	X(cairo_paint) X(cairo_pdf_surface_add_outline)                        \
	X(cairo_pdf_surface_create_for_stream)                                 \
	X(cairo_pdf_surface_restrict_to_version) X(cairo_pdf_surface_set_metadata) \
	X(cairo_rectangle) X(cairo_restore) X(cairo_rotate) X(cairo_save)      \
	X(cairo_scale) X(cairo_set_dash) X(cairo_set_line_cap)                 \
	X(cairo_set_line_join) X(cairo_set_line_width) X(cairo_set_source_rgb) \
	X(cairo_set_source_rgba) X(cairo_show_page) X(cairo_status)            \
	X(cairo_status_to_string) X(cairo_stroke) X(cairo_surface_destroy)     \
	X(cairo_surface_finish) X(cairo_surface_status)                        \
	X(cairo_surface_write_to_png_stream) X(cairo_svg_surface_create_for_stream) \
	X(cairo_svg_surface_set_document_unit) X(cairo_tag_begin) X(cairo_tag_end) \
	X(cairo_translate)

#define GFX_PANGO_SYMS(X)                                                      \
	X(pango_attr_list_unref) X(pango_context_set_round_glyph_positions)    \
	X(pango_font_description_free) X(pango_font_description_from_string)   \
	X(pango_font_description_new) X(pango_font_description_set_absolute_size) \
	X(pango_font_description_set_family) X(pango_font_description_set_style) \
	X(pango_font_description_set_weight) X(pango_font_map_create_context)  \
	X(pango_layout_get_extents) X(pango_layout_get_iter)                   \
	X(pango_layout_get_line_count) X(pango_layout_get_size)                \
	X(pango_layout_iter_free) X(pango_layout_iter_get_baseline)            \
	X(pango_layout_iter_get_line_extents) X(pango_layout_iter_get_line_readonly) \
	X(pango_layout_iter_next_line) X(pango_layout_new)                     \
	X(pango_layout_set_alignment) X(pango_layout_set_attributes)           \
	X(pango_layout_set_ellipsize) X(pango_layout_set_font_description)     \
	X(pango_layout_set_height) X(pango_layout_set_spacing)                 \
	X(pango_layout_set_text) X(pango_layout_set_width) X(pango_layout_set_wrap) \
	X(pango_parse_markup)

#define GFX_PANGOCAIRO_SYMS(X)                                                 \
	X(pango_cairo_context_set_font_options)                                \
	X(pango_cairo_context_set_resolution) X(pango_cairo_create_context)    \
	X(pango_cairo_create_layout) X(pango_cairo_font_map_get_default)       \
	X(pango_cairo_font_map_set_default) X(pango_cairo_layout_path)         \
	X(pango_cairo_show_layout) X(pango_cairo_show_layout_line)             \
	X(pango_cairo_update_layout)

#define GFX_FIELD(f) __typeof__(f) *f;
struct gfx_api {
	GFX_GLIB_SYMS(GFX_FIELD)
	GFX_GOBJECT_SYMS(GFX_FIELD)
	GFX_CAIRO_SYMS(GFX_FIELD)
	GFX_PANGO_SYMS(GFX_FIELD)
	GFX_PANGOCAIRO_SYMS(GFX_FIELD)
};
#undef GFX_FIELD

extern struct gfx_api gfx_fn;

/* Load the drawing libraries (once per process; later calls return the
 * first outcome): 0, or -AB_EIO with err naming the library that failed
 * and the Debian package to install. */
int gfx_load(struct strbuf *err);
/* Whether a gfx_load() has succeeded (does not load). */
int gfx_loaded(void);

#ifndef GFX_NO_REDIRECT
/* libglib-2.0.so.0 */
#define g_free (gfx_fn.g_free)
/* libgobject-2.0.so.0 */
#undef g_object_ref /* glib's casting macro: callers assign the gpointer */
#define g_object_ref (gfx_fn.g_object_ref)
#define g_object_unref (gfx_fn.g_object_unref)
/* libcairo.so.2 */
#define cairo_arc (gfx_fn.cairo_arc)
#define cairo_clip (gfx_fn.cairo_clip)
#define cairo_close_path (gfx_fn.cairo_close_path)
#define cairo_create (gfx_fn.cairo_create)
#define cairo_destroy (gfx_fn.cairo_destroy)
#define cairo_fill (gfx_fn.cairo_fill)
#define cairo_fill_preserve (gfx_fn.cairo_fill_preserve)
#define cairo_font_options_create (gfx_fn.cairo_font_options_create)
#define cairo_font_options_destroy (gfx_fn.cairo_font_options_destroy)
#define cairo_font_options_set_antialias (gfx_fn.cairo_font_options_set_antialias)
#define cairo_font_options_set_hint_metrics (gfx_fn.cairo_font_options_set_hint_metrics)
#define cairo_font_options_set_hint_style (gfx_fn.cairo_font_options_set_hint_style)
#define cairo_image_surface_create (gfx_fn.cairo_image_surface_create)
#define cairo_line_to (gfx_fn.cairo_line_to)
#define cairo_move_to (gfx_fn.cairo_move_to)
#define cairo_new_path (gfx_fn.cairo_new_path)
#define cairo_new_sub_path (gfx_fn.cairo_new_sub_path)
#define cairo_paint (gfx_fn.cairo_paint)
#define cairo_pdf_surface_add_outline (gfx_fn.cairo_pdf_surface_add_outline)
#define cairo_pdf_surface_create_for_stream (gfx_fn.cairo_pdf_surface_create_for_stream)
#define cairo_pdf_surface_restrict_to_version (gfx_fn.cairo_pdf_surface_restrict_to_version)
#define cairo_pdf_surface_set_metadata (gfx_fn.cairo_pdf_surface_set_metadata)
#define cairo_rectangle (gfx_fn.cairo_rectangle)
#define cairo_restore (gfx_fn.cairo_restore)
#define cairo_rotate (gfx_fn.cairo_rotate)
#define cairo_save (gfx_fn.cairo_save)
#define cairo_scale (gfx_fn.cairo_scale)
#define cairo_set_dash (gfx_fn.cairo_set_dash)
#define cairo_set_line_cap (gfx_fn.cairo_set_line_cap)
#define cairo_set_line_join (gfx_fn.cairo_set_line_join)
#define cairo_set_line_width (gfx_fn.cairo_set_line_width)
#define cairo_set_source_rgb (gfx_fn.cairo_set_source_rgb)
#define cairo_set_source_rgba (gfx_fn.cairo_set_source_rgba)
#define cairo_show_page (gfx_fn.cairo_show_page)
#define cairo_status (gfx_fn.cairo_status)
#define cairo_status_to_string (gfx_fn.cairo_status_to_string)
#define cairo_stroke (gfx_fn.cairo_stroke)
#define cairo_surface_destroy (gfx_fn.cairo_surface_destroy)
#define cairo_surface_finish (gfx_fn.cairo_surface_finish)
#define cairo_surface_status (gfx_fn.cairo_surface_status)
#define cairo_surface_write_to_png_stream (gfx_fn.cairo_surface_write_to_png_stream)
#define cairo_svg_surface_create_for_stream (gfx_fn.cairo_svg_surface_create_for_stream)
#define cairo_svg_surface_set_document_unit (gfx_fn.cairo_svg_surface_set_document_unit)
#define cairo_tag_begin (gfx_fn.cairo_tag_begin)
#define cairo_tag_end (gfx_fn.cairo_tag_end)
#define cairo_translate (gfx_fn.cairo_translate)
/* libpango-1.0.so.0 */
#define pango_attr_list_unref (gfx_fn.pango_attr_list_unref)
#define pango_context_set_round_glyph_positions (gfx_fn.pango_context_set_round_glyph_positions)
#define pango_font_description_free (gfx_fn.pango_font_description_free)
#define pango_font_description_from_string (gfx_fn.pango_font_description_from_string)
#define pango_font_description_new (gfx_fn.pango_font_description_new)
#define pango_font_description_set_absolute_size (gfx_fn.pango_font_description_set_absolute_size)
#define pango_font_description_set_family (gfx_fn.pango_font_description_set_family)
#define pango_font_description_set_style (gfx_fn.pango_font_description_set_style)
#define pango_font_description_set_weight (gfx_fn.pango_font_description_set_weight)
#define pango_font_map_create_context (gfx_fn.pango_font_map_create_context)
#define pango_layout_get_extents (gfx_fn.pango_layout_get_extents)
#define pango_layout_get_iter (gfx_fn.pango_layout_get_iter)
#define pango_layout_get_line_count (gfx_fn.pango_layout_get_line_count)
#define pango_layout_get_size (gfx_fn.pango_layout_get_size)
#define pango_layout_iter_free (gfx_fn.pango_layout_iter_free)
#define pango_layout_iter_get_baseline (gfx_fn.pango_layout_iter_get_baseline)
#define pango_layout_iter_get_line_extents (gfx_fn.pango_layout_iter_get_line_extents)
#define pango_layout_iter_get_line_readonly (gfx_fn.pango_layout_iter_get_line_readonly)
#define pango_layout_iter_next_line (gfx_fn.pango_layout_iter_next_line)
#define pango_layout_new (gfx_fn.pango_layout_new)
#define pango_layout_set_alignment (gfx_fn.pango_layout_set_alignment)
#define pango_layout_set_attributes (gfx_fn.pango_layout_set_attributes)
#define pango_layout_set_ellipsize (gfx_fn.pango_layout_set_ellipsize)
#define pango_layout_set_font_description (gfx_fn.pango_layout_set_font_description)
#define pango_layout_set_height (gfx_fn.pango_layout_set_height)
#define pango_layout_set_spacing (gfx_fn.pango_layout_set_spacing)
#define pango_layout_set_text (gfx_fn.pango_layout_set_text)
#define pango_layout_set_width (gfx_fn.pango_layout_set_width)
#define pango_layout_set_wrap (gfx_fn.pango_layout_set_wrap)
#define pango_parse_markup (gfx_fn.pango_parse_markup)
/* libpangocairo-1.0.so.0 */
#define pango_cairo_context_set_font_options (gfx_fn.pango_cairo_context_set_font_options)
#define pango_cairo_context_set_resolution (gfx_fn.pango_cairo_context_set_resolution)
#define pango_cairo_create_context (gfx_fn.pango_cairo_create_context)
#define pango_cairo_create_layout (gfx_fn.pango_cairo_create_layout)
#define pango_cairo_font_map_get_default (gfx_fn.pango_cairo_font_map_get_default)
#define pango_cairo_font_map_set_default (gfx_fn.pango_cairo_font_map_set_default)
#define pango_cairo_layout_path (gfx_fn.pango_cairo_layout_path)
#define pango_cairo_show_layout (gfx_fn.pango_cairo_show_layout)
#define pango_cairo_show_layout_line (gfx_fn.pango_cairo_show_layout_line)
#define pango_cairo_update_layout (gfx_fn.pango_cairo_update_layout)
#endif

#endif
