/*
 * gen_util.h - shared by the corpus generators (gen_*.c): core/fsutil.c's
 * mkdir -p and atomic writes, reporting failures on stderr the way a small
 * command-line program does.
 */
#ifndef AB_GEN_UTIL_H
#define AB_GEN_UTIL_H

#include "core/core.h"

static inline int gen_report(int rc, struct strbuf *err)
{
	if (rc)
		fprintf(stderr, "%s\n", err->buf);
	strbuf_release(err);
	return rc ? -1 : 0;
}

/* mkdir -p; 0 or -1 after a message */
static inline int mkdirs(const char *path)
{
	struct strbuf err = STRBUF_INIT;
	return gen_report(ab_mkdirs(path, &err), &err);
}

/* core/atomic temporary file + rename, parents created; 0 or -1 after a message */
static inline int write_file(const char *path, const struct strbuf *sb)
{
	struct strbuf err = STRBUF_INIT;
	return gen_report(ab_write_file(path, sb->buf, sb->len, &err), &err);
}

#endif
