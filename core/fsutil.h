/*
 * fsutil.h - create directory paths and write whole files atomically.
 * Used by the writers of example and benchmark data.
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

#endif
