/*
 * test_atomic.c - core/atomic: unique temporary files that never follow a
 * planted link, the replaced file's mode, concurrent writers, aborts.
 */
#include "unit.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

static const char *at(struct strbuf *sb, const char *name)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/%s", dir, name);
	return sb->buf;
}

static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static void get(const char *path, struct strbuf *out)
{
	FILE *fp = fopen(path, "rb");
	char buf[4096];
	size_t n;

	assert_non_null(fp);
	strbuf_reset(out);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(out, buf, n);
	fclose(fp);
}

static int write_text(const char *path, const char *text, struct strbuf *err)
{
	struct atomic_file af;
	int rc = atomic_open(&af, path, err);

	if (rc < 0)
		return rc;
	fputs(text, af.fp);
	return atomic_commit(&af, err);
}

static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	if (d)
		closedir(d);
	return n;
}

static int setup(void **state)
{
	(void)state;
	if (snprintf(dir, sizeof(dir), "/tmp/abatomic.XXXXXX") < 0)
		return -1;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	struct strbuf p = STRBUF_INIT;
	DIR *d = opendir(dir);
	struct dirent *e;

	(void)state;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(at(&p, e->d_name));
	if (d)
		closedir(d);
	strbuf_release(&p);
	return rmdir(dir);
}

static void test_new_file_mode(void **state)
{
	struct strbuf p = STRBUF_INIT, err = STRBUF_INIT, got = STRBUF_INIT;
	struct stat st;
	mode_t mask = umask(027);

	(void)state;
	assert_int_equal(write_text(at(&p, "new.txt"), "hello\n", &err), 0);
	umask(mask);
	get(p.buf, &got);
	assert_string_equal(got.buf, "hello\n");
	assert_int_equal(stat(p.buf, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(entries(), 1);
	/* replacing keeps the old file's mode, whatever the umask */
	assert_int_equal(chmod(p.buf, 0604), 0);
	assert_int_equal(write_text(p.buf, "again\n", &err), 0);
	assert_int_equal(stat(p.buf, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0604);
	get(p.buf, &got);
	assert_string_equal(got.buf, "again\n");
	unlink(p.buf);
	strbuf_release(&p);
	strbuf_release(&err);
	strbuf_release(&got);
}

static void test_planted_links(void **state)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT, l = STRBUF_INIT, err = STRBUF_INIT,
		      got = STRBUF_INIT;
	struct stat st;

	(void)state;
	/* a link at the old fixed temporary name is neither followed nor removed */
	put(at(&v, "victim"), "precious\n");
	assert_int_equal(symlink(v.buf, at(&l, "chart.svg.tmp")), 0);
	assert_int_equal(write_text(at(&p, "chart.svg"), "<svg/>\n", &err), 0);
	get(v.buf, &got);
	assert_string_equal(got.buf, "precious\n");
	assert_int_equal(lstat(l.buf, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(p.buf, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	get(p.buf, &got);
	assert_string_equal(got.buf, "<svg/>\n");
	/* an unrelated NAME.tmp survives */
	put(at(&l, "mine.svg.tmp"), "mine\n");
	assert_int_equal(write_text(at(&p, "mine.svg"), "<svg/>\n", &err), 0);
	get(l.buf, &got);
	assert_string_equal(got.buf, "mine\n");
	/* a target that is a link is replaced by a file; its target is untouched */
	unlink(at(&l, "out.csv"));
	assert_int_equal(symlink(v.buf, l.buf), 0);
	assert_int_equal(write_text(l.buf, "a,b\n", &err), 0);
	assert_int_equal(lstat(l.buf, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	get(v.buf, &got);
	assert_string_equal(got.buf, "precious\n");
	assert_int_equal(entries(), 6);
	teardown(NULL);
	setup(NULL);
	strbuf_release(&p);
	strbuf_release(&v);
	strbuf_release(&l);
	strbuf_release(&err);
	strbuf_release(&got);
}

static void test_abort_and_errors(void **state)
{
	struct strbuf p = STRBUF_INIT, err = STRBUF_INIT, got = STRBUF_INIT;
	struct atomic_file af;

	(void)state;
	put(at(&p, "keep.txt"), "old\n");
	assert_int_equal(atomic_open(&af, p.buf, &err), 0);
	fputs("half", af.fp);
	atomic_abort(&af);
	get(p.buf, &got);
	assert_string_equal(got.buf, "old\n");
	assert_int_equal(entries(), 1);

	assert_int_equal(write_text(at(&p, "no/such/dir/x.svg"), "x", &err), -AB_EIO);
	strbuf_reset(&got);
	strbuf_addf(&got, "cannot create a temporary file for '%s/no/such/dir/x.svg': "
		    "No such file or directory", dir);
	assert_string_equal(err.buf, got.buf);
	assert_int_equal(write_text(at(&p, ""), "x", &err), -AB_EIO);
	strbuf_reset(&got);
	strbuf_addf(&got, "cannot write '%s/': not a file name", dir);
	assert_string_equal(err.buf, got.buf);
	/* a directory in the way: the rename fails, nothing is left behind */
	assert_int_equal(mkdir(at(&p, "adir"), 0700), 0);
	assert_int_equal(write_text(p.buf, "x", &err), -AB_EIO);
	strbuf_reset(&got);
	strbuf_addf(&got, "cannot replace '%s/adir': Is a directory", dir);
	assert_string_equal(err.buf, got.buf);
	assert_int_equal(rmdir(p.buf), 0);
	assert_int_equal(entries(), 1);
	assert_int_equal(atomic_open_name(&af, "-", &err), -AB_EUSAGE);
	assert_string_equal(err.buf, "cannot write this file to standard output: give a file name");
	unlink(at(&p, "keep.txt"));
	strbuf_release(&p);
	strbuf_release(&err);
	strbuf_release(&got);
}

static void test_open_name(void **state)
{
	struct strbuf p = STRBUF_INIT, err = STRBUF_INIT, got = STRBUF_INIT;
	struct atomic_file af;

	(void)state;
	assert_int_equal(atomic_open_name(&af, at(&p, "book.xlsx"), &err), 0);
	assert_null(af.fp);
	assert_int_equal(entries(), 1); /* the empty temporary file, ours */
	put(af.tmp.buf, "by name\n");
	assert_int_equal(atomic_commit(&af, &err), 0);
	get(p.buf, &got);
	assert_string_equal(got.buf, "by name\n");
	assert_int_equal(entries(), 1);
	assert_int_equal(atomic_open_name(&af, p.buf, &err), 0);
	atomic_abort(&af);
	assert_int_equal(entries(), 1);
	unlink(p.buf);
	strbuf_release(&p);
	strbuf_release(&err);
	strbuf_release(&got);
}

/* eight processes write the same target at once: all succeed, one whole file wins */
static void test_concurrent(void **state)
{
	struct strbuf p = STRBUF_INIT, got = STRBUF_INIT;
	pid_t pids[8];
	int i, status;
	size_t j;

	(void)state;
	at(&p, "same.txt");
	for (i = 0; i < 8; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			struct strbuf err = STRBUF_INIT;
			struct atomic_file af;
			int k;

			if (atomic_open(&af, p.buf, &err) < 0)
				_exit(1);
			for (k = 0; k < 20000; k++)
				fputc('a' + i, af.fp);
			fputc('\n', af.fp);
			_exit(atomic_commit(&af, &err) < 0 ? 2 : 0);
		}
	}
	for (i = 0; i < 8; i++) {
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	get(p.buf, &got);
	assert_int_equal(got.len, 20001);
	for (j = 1; j < 20000; j++)
		assert_int_equal(got.buf[j], got.buf[0]);
	assert_int_equal(entries(), 1);
	unlink(p.buf);
	strbuf_release(&p);
	strbuf_release(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_file_mode), cmocka_unit_test(test_planted_links),
		cmocka_unit_test(test_abort_and_errors), cmocka_unit_test(test_open_name),
		cmocka_unit_test(test_concurrent),
	};
	return cmocka_run_group_tests_name("atomic", tests, setup, teardown);
}
