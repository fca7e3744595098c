/*
 * fsutil.c - mkdir -p and atomic whole-file writes; see fsutil.h.
 */
#include "compat.h"
#include "fsutil.h"
#include "atomic.h"
#include "error.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int ab_mkdirs(const char *path, struct strbuf *err)
{
	struct strbuf p = STRBUF_INIT;
	size_t i;
	int rc = 0;

	strbuf_addstr(&p, path);
	for (i = 1; i <= p.len && !rc; i++) {
		if (i == p.len || p.buf[i] == '/') {
			char save = p.buf[i];
			p.buf[i] = '\0';
			if (mkdir(p.buf, 0777) < 0 && errno != EEXIST)
				rc = ab_fail(err, AB_EIO, "cannot create directory '%s': %s", p.buf,
					     strerror(errno));
			p.buf[i] = save;
		}
	}
	strbuf_release(&p);
	return rc;
}

int ab_write_file(const char *path, const void *data, size_t len, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT;
	struct atomic_file af;
	const char *slash = strrchr(path, '/');
	int rc = 0;

	if (slash && slash != path) {
		strbuf_add(&dir, path, (size_t)(slash - path));
		rc = ab_mkdirs(dir.buf, err);
	}
	strbuf_release(&dir);
	if (rc)
		return rc;
	rc = atomic_open(&af, path, err);
	if (rc)
		return rc;
	if (len && fwrite(data, 1, len, af.fp) != len) {
		atomic_abort(&af);
		return ab_fail(err, AB_EIO, "cannot write '%s': %s", path, strerror(errno));
	}
	return atomic_commit(&af, err);
}

const char *ab_file_kind(unsigned mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return S_ISREG(mode) ? "a regular file" : "not a file";
}

FILE *ab_fopen_input(const char *path, struct strbuf *err)
{
	struct stat st;
	FILE *fp;
	int fd, fl, e;

	/* O_NONBLOCK: opening a FIFO without a writer must not wait */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		ab_fail(err, AB_EIO, "cannot open '%s': %s", path, strerror(e));
		errno = e;
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		ab_fail(err, AB_EIO, "cannot read '%s': %s", path, strerror(e));
		close(fd);
		errno = e;
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		ab_fail(err, AB_EIO, "cannot read '%s': not a regular file (%s)", path,
			ab_file_kind((unsigned)st.st_mode));
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ||
	    !(fp = fdopen(fd, "rb"))) {
		e = errno;
		ab_fail(err, AB_EIO, "cannot open '%s': %s", path, strerror(e));
		close(fd);
		errno = e;
		return NULL;
	}
	return fp;
}
