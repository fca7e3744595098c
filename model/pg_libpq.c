/*
 * pg_libpq.c - the libpq function table, filled at first use; see
 * pg_libpq.h.
 */
#include "core/compat.h"
#define PG_LIBPQ_NO_REDIRECT
#include "pg_libpq.h"
#include "core/dynlib.h"

struct pg_libpq pg_libpq_fn;

#define PG_LIBPQ_SYM(f) { #f, offsetof(struct pg_libpq, f) },
static const struct dynlib_sym libpq_syms[] = { PG_LIBPQ_SYMS(PG_LIBPQ_SYM) };
static const struct dynlib libpq_lib[] = {
	{ "libpq.so.5", "libpq5", libpq_syms, sizeof(libpq_syms) / sizeof(libpq_syms[0]) },
};

static struct dynlib_once libpq_once = DYNLIB_ONCE_INIT;

static void load(void)
{
	libpq_once.rc = dynlib_load(libpq_lib, 1, &pg_libpq_fn, "needed to talk to PostgreSQL",
				    &libpq_once.err);
}

int pg_libpq_load(struct strbuf *err)
{
	return dynlib_once(&libpq_once, load, err);
}
