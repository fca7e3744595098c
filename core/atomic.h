/*
 * atomic.h - write a file atomically: NAME.tmp, then rename() over NAME.
 *
 * Ownership: the struct is the caller's; atomic_commit() or atomic_abort()
 * releases everything it holds (one of them must be called).  Libraries that
 * write by file name (cairo, libxlsxwriter) use atomic_tmp_path() and
 * atomic_rename().
 */
#ifndef AB_ATOMIC_H
#define AB_ATOMIC_H

#include "compat.h"
#include "strbuf.h"

struct atomic_file {
	struct strbuf path;
	struct strbuf tmp;
	FILE *fp;
};

/* Open PATH.tmp for writing ("-" means stdout, written directly). */
int atomic_open(struct atomic_file *af, const char *path, struct strbuf *err);
/* Flush, check, close and rename; on failure the temporary file is removed. */
int atomic_commit(struct atomic_file *af, struct strbuf *err);
void atomic_abort(struct atomic_file *af);

/* "PATH.tmp" into out; for writers that take a file name. */
void atomic_tmp_path(struct strbuf *out, const char *path);
/* rename(tmp, path) with an error message; removes tmp on failure. */
int atomic_rename(const char *tmp, const char *path, struct strbuf *err);

#endif
