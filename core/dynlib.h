/*
 * dynlib.h - optional shared libraries, loaded at first use.
 *
 * accelbench links only the libraries every command needs (SQLite,
 * jansson, GSL, zlib, libxlsxwriter).  The big optional stacks, libpq for
 * `pg`/`push`/`pull` and cairo/pango for charts and PDF reports, are opened
 * with dlopen() by SONAME when a command first needs them: loading and
 * relocating them at every start cost more than the rest of a small
 * ingest (an empty main() linked with them starts in 22 ms, without them
 * in 4 ms).
 *
 * A module that uses such a library keeps the library's own headers for
 * the types and holds its functions in a struct of pointers whose fields
 * are declared from the real prototypes (__typeof__(PQexec) *PQexec), so a
 * changed prototype is a compile error, not a silent mismatch; see
 * model/pg_libpq.h and plots/gfx.h.  dynlib_load() fills such a struct
 * from a list of {symbol name, field offset}.
 *
 * $AB_DLOPEN_DIR, when set, makes dynlib_load() open DIR/SONAME instead of
 * asking the dynamic linker's search path: the tests point it at an empty
 * directory to check the message a missing library gives.
 *
 * Ownership: the tables are the caller's (static, filled once: callers run
 * dynlib_load() under pthread_once and never write the table afterwards).
 * The libraries stay loaded until the process exits (no dlclose: the
 * table's pointers, and the objects the libraries made, must stay valid).
 */
#ifndef AB_DYNLIB_H
#define AB_DYNLIB_H

#include "compat.h"
#include "strbuf.h"

#include <pthread.h>
#include <stddef.h>

struct dynlib_sym {
	const char *name;      /* the symbol, e.g. "PQexec" */
	size_t offset;         /* offsetof(table struct, field for it) */
};

struct dynlib {
	const char *soname;    /* e.g. "libpq.so.5" (never the unversioned .so) */
	const char *package;   /* the Debian package that ships it, e.g. "libpq5" */
	const struct dynlib_sym *syms;
	size_t nsyms;
};

/*
 * Open libs[0..nlibs) in order (RTLD_NOW | RTLD_LOCAL) and store the
 * address of each one's syms into table + offset.  what says what they
 * are for, in messages.  0, or -AB_EIO with err set to
 *   cannot load libpq.so.5 (needed to talk to PostgreSQL): install the Debian
 *   package libpq5 (libpq.so.5: cannot open shared object file: ...)
 * or "libX lacks SYMBOL" when a library is too old.  Not thread-safe:
 * call it once (pthread_once) before any use of the table.
 */
int dynlib_load(const struct dynlib *libs, size_t nlibs, void *table, const char *what,
		struct strbuf *err);

/*
 * The one load of a module's table, and its outcome: a static
 * DYNLIB_ONCE_INIT per module, whose load() (no arguments, as
 * pthread_once wants) calls dynlib_load() into rc and err.  rc and err are
 * written under once only, read after it.
 */
struct dynlib_once {
	pthread_once_t once;
	int rc;
	struct strbuf err;
};
#define DYNLIB_ONCE_INIT { PTHREAD_ONCE_INIT, 0, STRBUF_INIT }

/* Run load() under o->once (the first call only), then give its outcome:
 * 0, or o->rc with err set to its message. */
int dynlib_once(struct dynlib_once *o, void (*load)(void), struct strbuf *err);

#endif
