/*
 * gfx.c - the cairo/pango/glib function table, filled at first use; see
 * gfx.h.
 */
#include "core/compat.h"
#define GFX_NO_REDIRECT
#include "gfx.h"
#include "core/dynlib.h"

struct gfx_api gfx_fn;

#define GFX_SYM(f) { #f, offsetof(struct gfx_api, f) },
static const struct dynlib_sym glib_syms[] = { GFX_GLIB_SYMS(GFX_SYM) };
static const struct dynlib_sym gobject_syms[] = { GFX_GOBJECT_SYMS(GFX_SYM) };
static const struct dynlib_sym cairo_syms[] = { GFX_CAIRO_SYMS(GFX_SYM) };
static const struct dynlib_sym pango_syms[] = { GFX_PANGO_SYMS(GFX_SYM) };
static const struct dynlib_sym pangocairo_syms[] = { GFX_PANGOCAIRO_SYMS(GFX_SYM) };
#define GFX_LIB(soname, package, syms) { soname, package, syms, sizeof(syms) / sizeof(syms[0]) }
/* in dependency order: a missing library is named, not one that needs it */
static const struct dynlib gfx_libs[] = {
	GFX_LIB("libglib-2.0.so.0", "libglib2.0-0", glib_syms),
	GFX_LIB("libgobject-2.0.so.0", "libglib2.0-0", gobject_syms),
	GFX_LIB("libcairo.so.2", "libcairo2", cairo_syms),
	GFX_LIB("libpango-1.0.so.0", "libpango-1.0-0", pango_syms),
	GFX_LIB("libpangocairo-1.0.so.0", "libpangocairo-1.0-0", pangocairo_syms),
};

/* the one load's outcome; loaded is also read by gfx_loaded() from any
 * thread */
static struct dynlib_once gfx_once = DYNLIB_ONCE_INIT;
static int loaded;

static void load(void)
{
	gfx_once.rc = dynlib_load(gfx_libs, sizeof(gfx_libs) / sizeof(gfx_libs[0]), &gfx_fn,
				  "needed to draw charts and PDF reports", &gfx_once.err);
	__atomic_store_n(&loaded, gfx_once.rc == 0, __ATOMIC_RELEASE);
}

int gfx_load(struct strbuf *err)
{
	return dynlib_once(&gfx_once, load, err);
}

int gfx_loaded(void)
{
	return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE);
}
