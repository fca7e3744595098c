/*
 * pg_libpq.c - the libpq function table, filled at first use; see
 * pg_libpq.h.
 */
#include "core/compat.h"
#define PG_LIBPQ_NO_REDIRECT
#include "pg_libpq.h"
#include "core/dynlib.h"

#include <pthread.h>

struct pg_libpq pg_libpq_fn;

#define PG_LIBPQ_SYM(f) { #f, offsetof(struct pg_libpq, f) },
static const struct dynlib_sym libpq_syms[] = { PG_LIBPQ_SYMS(PG_LIBPQ_SYM) };
static const struct dynlib libpq_lib[] = {
	{ "libpq.so.5", "libpq5", libpq_syms, sizeof(libpq_syms) / sizeof(libpq_syms[0]) },
};

/* the outcome of the one load, written under load_once only */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_rc;
static struct strbuf load_err = STRBUF_INIT;

static void load(void)
{
	load_rc = dynlib_load(libpq_lib, 1, &pg_libpq_fn, "needed to talk to PostgreSQL",
			      &load_err);
}

int pg_libpq_load(struct strbuf *err)
{
	pthread_once(&load_once, load);
	if (load_rc) {
		strbuf_reset(err);
		strbuf_addbuf(err, &load_err);
	}
	return load_rc;
}
