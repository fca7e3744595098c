/*
 * atomic.c - temp file + rename; see atomic.h.
 */
#include "compat.h"
#include "atomic.h"
#include "error.h"

#include <unistd.h>

void atomic_tmp_path(struct strbuf *out, const char *path)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s.tmp", path);
}

int atomic_open(struct atomic_file *af, const char *path, struct strbuf *err)
{
	strbuf_init(&af->path, 0);
	strbuf_init(&af->tmp, 0);
	af->fp = NULL;
	strbuf_addstr(&af->path, path);
	if (!strcmp(path, "-")) {
		af->fp = stdout;
		return 0;
	}
	atomic_tmp_path(&af->tmp, path);
	af->fp = fopen(af->tmp.buf, "wb");
	if (!af->fp) {
		int rc = ab_fail(err, AB_EIO, "cannot create '%s': %s", af->tmp.buf, strerror(errno));
		strbuf_release(&af->path);
		strbuf_release(&af->tmp);
		return rc;
	}
	return 0;
}

void atomic_abort(struct atomic_file *af)
{
	if (af->fp && af->fp != stdout) {
		fclose(af->fp);
		unlink(af->tmp.buf);
	}
	af->fp = NULL;
	strbuf_release(&af->path);
	strbuf_release(&af->tmp);
}

int atomic_rename(const char *tmp, const char *path, struct strbuf *err)
{
	if (rename(tmp, path) < 0) {
		int rc = ab_fail(err, AB_EIO, "cannot rename '%s' to '%s': %s", tmp, path,
				 strerror(errno));
		unlink(tmp);
		return rc;
	}
	return 0;
}

int atomic_commit(struct atomic_file *af, struct strbuf *err)
{
	int rc = 0;

	if (af->fp == stdout) {
		if (fflush(stdout) != 0 || ferror(stdout))
			rc = ab_fail(err, AB_EIO, "cannot write to standard output: %s",
				     strerror(errno));
		af->fp = NULL;
		strbuf_release(&af->path);
		strbuf_release(&af->tmp);
		return rc;
	}
	if (fflush(af->fp) != 0 || ferror(af->fp)) {
		rc = ab_fail(err, AB_EIO, "cannot write '%s': %s", af->tmp.buf, strerror(errno));
		fclose(af->fp);
		unlink(af->tmp.buf);
	} else if (fclose(af->fp) != 0) {
		rc = ab_fail(err, AB_EIO, "cannot close '%s': %s", af->tmp.buf, strerror(errno));
		unlink(af->tmp.buf);
	} else {
		rc = atomic_rename(af->tmp.buf, af->path.buf, err);
	}
	af->fp = NULL;
	strbuf_release(&af->path);
	strbuf_release(&af->tmp);
	return rc;
}
