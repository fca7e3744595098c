/*
 * atomic.c - unique temporary file + rename; see atomic.h for the contract.
 */
#include "compat.h"
#include "atomic.h"
#include "error.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { ATOMIC_TRIES = 100 };

static void release(struct atomic_file *af)
{
	af->fp = NULL;
	strbuf_release(&af->path);
	strbuf_release(&af->tmp);
}

/* Six letters no other process can predict (collisions are caught by O_EXCL). */
static void random_suffix(char out[7], unsigned attempt)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	struct timespec ts;
	size_t i;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		/* no entropy yet: still unique enough, O_EXCL decides */
		uint64_t x;

		clock_gettime(CLOCK_REALTIME, &ts);
		x = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20) ^ ((uint64_t)attempt << 40);
		for (i = 0; i < sizeof(r); i++, x >>= 7)
			r[i] = (unsigned char)x;
	}
	for (i = 0; i < 6; i++)
		out[i] = set[r[i] % (sizeof(set) - 1)];
	out[6] = '\0';
}

/* Mode for the new file: the replaced regular file's, else 0666 & ~umask. */
static mode_t target_mode(const char *path)
{
	struct stat st;
	mode_t mask;

	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	mask = umask(022);
	umask(mask);
	return 0666 & ~mask;
}

/* Create DIR/.BASE.XXXXXX.tmp exclusively; return its fd or a negative status. */
static int create_tmp(struct atomic_file *af, const char *path, struct strbuf *err)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	mode_t mode = target_mode(path);
	unsigned i;
	int fd = -1;

	strbuf_init(&af->path, 0);
	strbuf_init(&af->tmp, 0);
	af->fp = NULL;
	strbuf_addstr(&af->path, path);
	if (!*base) {
		ab_fail(err, AB_EIO, "cannot write '%s': not a file name", path);
		release(af);
		return -AB_EIO;
	}
	for (i = 0; i < ATOMIC_TRIES; i++) {
		char suf[7];

		random_suffix(suf, i);
		strbuf_reset(&af->tmp);
		strbuf_add(&af->tmp, path, dirlen);
		strbuf_addf(&af->tmp, ".%s.%s.tmp", base, suf);
		fd = open(af->tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		ab_fail(err, AB_EIO, "cannot create a temporary file for '%s': %s", path,
			strerror(errno));
		release(af);
		return -AB_EIO;
	}
	if (fchmod(fd, mode) < 0) {
		ab_fail(err, AB_EIO, "cannot set the mode of '%s': %s", af->tmp.buf,
			strerror(errno));
		close(fd);
		unlink(af->tmp.buf);
		release(af);
		return -AB_EIO;
	}
	return fd;
}

int atomic_open(struct atomic_file *af, const char *path, struct strbuf *err)
{
	int fd;

	if (!strcmp(path, "-")) {
		strbuf_init(&af->path, 0);
		strbuf_init(&af->tmp, 0);
		strbuf_addstr(&af->path, path);
		af->fp = stdout;
		return 0;
	}
	if ((fd = create_tmp(af, path, err)) < 0)
		return fd;
	af->fp = fdopen(fd, "wb");
	if (!af->fp) {
		int rc = ab_fail(err, AB_EIO, "cannot open '%s': %s", af->tmp.buf,
				 strerror(errno));
		close(fd);
		unlink(af->tmp.buf);
		release(af);
		return rc;
	}
	return 0;
}

int atomic_open_name(struct atomic_file *af, const char *path, struct strbuf *err)
{
	int fd;

	if (!strcmp(path, "-"))
		return ab_fail(err, AB_EUSAGE, "cannot write this file to standard output: "
			       "give a file name");
	if ((fd = create_tmp(af, path, err)) < 0)
		return fd;
	if (close(fd) < 0) {
		int rc = ab_fail(err, AB_EIO, "cannot close '%s': %s", af->tmp.buf,
				 strerror(errno));
		unlink(af->tmp.buf);
		release(af);
		return rc;
	}
	return 0;
}

void atomic_abort(struct atomic_file *af)
{
	if (af->fp && af->fp != stdout)
		fclose(af->fp);
	if (af->fp != stdout && af->tmp.len)
		unlink(af->tmp.buf);
	release(af);
}

int atomic_commit(struct atomic_file *af, struct strbuf *err)
{
	int rc = 0;

	if (af->fp == stdout) {
		if (fflush(stdout) != 0 || ferror(stdout))
			rc = ab_fail(err, AB_EIO, "cannot write to standard output: %s",
				     strerror(errno));
		release(af);
		return rc;
	}
	if (af->fp) {
		if (fflush(af->fp) != 0 || ferror(af->fp)) {
			rc = ab_fail(err, AB_EIO, "cannot write '%s': %s", af->path.buf,
				     strerror(errno ? errno : EIO));
			fclose(af->fp);
		} else if (fclose(af->fp) != 0) {
			rc = ab_fail(err, AB_EIO, "cannot close '%s': %s", af->path.buf,
				     strerror(errno));
		}
		af->fp = NULL;
	}
	if (!rc && rename(af->tmp.buf, af->path.buf) < 0)
		rc = ab_fail(err, AB_EIO, "cannot replace '%s': %s", af->path.buf,
			     strerror(errno));
	if (rc)
		unlink(af->tmp.buf);
	release(af);
	return rc;
}
