/*
 * fsutil.h - create directory paths and write whole files atomically
 * (the writers of example and benchmark data); open input files safely.
 */
#ifndef AB_FSUTIL_H
#define AB_FSUTIL_H

#include "compat.h"
#include "strbuf.h"

/* mkdir -p; 0 or -AB_EIO with err set. */
int ab_mkdirs(const char *path, struct strbuf *err);
/* Write data to path through core/atomic (temporary file + rename), creating the parent
 * directories; 0 or -AB_EIO with err set. */
int ab_write_file(const char *path, const void *data, size_t len, struct strbuf *err);

/* Open an input file for reading, refusing anything but a regular file (a
 * FIFO would block, /dev/zero never ends) without blocking on it; the check
 * is on the opened file, so a swap after a stat() cannot slip through.
 * NULL with err set ("cannot open 'p': ...", "cannot read 'p': not a
 * regular file (a FIFO)"); errno is then open()'s (ENOENT: absent) or
 * EINVAL (not a regular file).  The FILE * is the caller's to fclose(). */
FILE *ab_fopen_input(const char *path, struct strbuf *err);
/* What kind of file mode is, for messages: "a FIFO", "a directory", ... */
const char *ab_file_kind(unsigned mode);

#endif
