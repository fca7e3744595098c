/*
 * atomic.h - write a file atomically and safely: a fresh temporary file in
 * the target's directory, then rename() over the target.
 *
 * Every writer of an output file (charts, reports, workbooks, exports, -o
 * of any command) goes through this module.  The temporary file
 *   - has a unique, unpredictable name ("DIR/.NAME.XXXXXX.tmp") and is
 *     created with O_CREAT|O_EXCL|O_NOFOLLOW: a symlink or file planted at
 *     any name is never followed, overwritten or deleted, and concurrent
 *     writers of the same target never share a temporary file;
 *   - gets the mode of the file it replaces (or 0666 & ~umask for a new
 *     file), so replacing a report never changes its permissions;
 *   - is renamed over the target last, after every write, flush and close
 *     succeeded; on any failure it is removed and the target is untouched.
 * Readers therefore see the old file or the complete new one, never a part.
 *
 * Usage, writing through a FILE *:
 *     struct atomic_file af;
 *     if (atomic_open(&af, path, err) < 0) return -1;    ("-" = stdout)
 *     ... fwrite(..., af.fp) ...;   on error: atomic_abort(&af);
 *     return atomic_commit(&af, err);
 * Usage, for a library that insists on a file name (libxlsxwriter):
 *     if (atomic_open_name(&af, path, err) < 0) return -1;
 *     ... library writes to af.tmp.buf (an empty file we created) ...
 *     return atomic_commit(&af, err);          or atomic_abort(&af)
 *
 * Ownership: the struct is the caller's; exactly one of atomic_commit() or
 * atomic_abort() must follow a successful open, and releases everything.
 * Errors are -AB_EIO (or -AB_EUSAGE for "-" given to atomic_open_name).
 */
#ifndef AB_ATOMIC_H
#define AB_ATOMIC_H

#include "compat.h"
#include "strbuf.h"

struct atomic_file {
	struct strbuf path;  /* the target */
	struct strbuf tmp;   /* the temporary file's name (empty for stdout) */
	FILE *fp;            /* open for writing; NULL after atomic_open_name */
};

/* Create the temporary file for PATH and open it ("-" means stdout). */
int atomic_open(struct atomic_file *af, const char *path, struct strbuf *err);
/* Same, but the temporary file is created empty and closed: write to af->tmp.buf. */
int atomic_open_name(struct atomic_file *af, const char *path, struct strbuf *err);
/* Flush, check, close and rename over the target; on failure remove the temporary file. */
int atomic_commit(struct atomic_file *af, struct strbuf *err);
/* Close and remove the temporary file; the target is left as it was. */
void atomic_abort(struct atomic_file *af);

#endif
