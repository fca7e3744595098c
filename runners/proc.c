/*
 * proc.c - what every runner needs from the operating system: Ctrl-C,
 * clocks, host names, run folders that are never reused, and child
 * processes whose output is captured to a file while we watch for an
 * interrupt or a timeout.
 */
#include "core/compat.h"
#include "run_priv.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * The one piece of mutable process state in runners/: a signal handler can
 * only talk to the program through a static sig_atomic_t.
 */
static volatile sig_atomic_t run_sig_count;

static void on_signal(int sig)
{
	(void)sig;
	run_sig_count++;
}

void run_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int run_interrupted(void)
{
	return run_sig_count > 0;
}

void run_sleep_ms(long ms)
{
	while (ms > 0 && !run_interrupted()) {
		long step = ms < 50 ? ms : 50;
		struct timespec ts = { 0, step * 1000000L };
		nanosleep(&ts, NULL);
		ms -= step;
	}
}

double run_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void run_iso(struct strbuf *out, double t)
{
	time_t s = (time_t)t;
	struct tm tm;
	char buf[32];

	gmtime_r(&s, &tm);
	if (strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm) > 0)
		strbuf_addstr(out, buf);
}

void run_hostname(struct strbuf *out)
{
	char buf[256];
	char *dot;

	if (gethostname(buf, sizeof(buf)) < 0) {
		strbuf_addstr(out, "localhost");
		return;
	}
	buf[sizeof(buf) - 1] = '\0';
	dot = strchr(buf, '.');
	if (dot)
		*dot = '\0';
	strbuf_addstr(out, buf[0] ? buf : "localhost");
}

/* A folder name from a benchmark name: no '/', no leading dot. */
static void safe_name(struct strbuf *out, const char *name)
{
	const char *p;

	for (p = name; *p; p++) {
		unsigned char ch = (unsigned char)*p;
		strbuf_addch(out, (ch == '/' || ch < 0x20 || (p == name && ch == '.')) ? '_' : ch);
	}
	if (!out->len)
		strbuf_addstr(out, "run");
}

int run_folder_create(const struct run_common *c, const char *name, struct strbuf *out,
		      struct strbuf *err)
{
	struct strbuf parent = STRBUF_INIT;
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];
	int i, rc;

	gmtime_r(&now, &tm);
	if (!strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm))
		return ab_fail(err, AB_EINTERNAL, "cannot format the time");
	strbuf_addf(&parent, "%s/", c->runs_dir ? c->runs_dir : "runs");
	safe_name(&parent, name);
	rc = ab_mkdirs(parent.buf, err);
	if (rc < 0)
		goto out;
	/* mkdir() is the test-and-set: an existing folder is never reused */
	for (i = 1; i < 10000; i++) {
		strbuf_reset(out);
		strbuf_addf(out, "%s/%s", parent.buf, stamp);
		if (i > 1)
			strbuf_addf(out, "-%d", i);
		if (mkdir(out->buf, 0777) == 0)
			goto out;
		if (errno != EEXIST) {
			rc = ab_fail(err, AB_EIO, "cannot create run folder '%s': %s", out->buf,
				     strerror(errno));
			goto out;
		}
	}
	rc = ab_fail(err, AB_EIO, "too many run folders named '%s/%s*'", parent.buf, stamp);
out:
	strbuf_release(&parent);
	return rc;
}

void run_output_tail(struct strbuf *out, const char *path, int lines, size_t max_bytes)
{
	FILE *fp = path ? fopen(path, "rb") : NULL;
	struct strbuf buf = STRBUF_INIT;
	long size, from;
	size_t i, start;
	int n = 0;

	if (!fp)
		return;
	if (fseek(fp, 0, SEEK_END) == 0 && (size = ftell(fp)) > 0) {
		from = size > (long)max_bytes ? size - (long)max_bytes : 0;
		if (fseek(fp, from, SEEK_SET) == 0) {
			strbuf_grow(&buf, (size_t)(size - from));
			strbuf_setlen(&buf, fread(buf.buf, 1, (size_t)(size - from), fp));
		}
	}
	fclose(fp);
	while (buf.len && (buf.buf[buf.len - 1] == '\n' || buf.buf[buf.len - 1] == '\r'))
		strbuf_setlen(&buf, buf.len - 1);
	start = 0;
	for (i = buf.len; i > 0; i--) {
		if (buf.buf[i - 1] == '\n' && ++n >= lines) {
			start = i;
			break;
		}
	}
	/* keep it printable: the tail goes into JSON and onto terminals */
	for (i = start; i < buf.len; i++) {
		unsigned char ch = (unsigned char)buf.buf[i];
		strbuf_addch(out, (ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f ? '?' : ch);
	}
	strbuf_release(&buf);
}

static int needs_quotes(const char *s)
{
	if (!*s)
		return 1;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "-_./=:,+%@", *s))
			return 1;
	return 0;
}

void run_quote_argv(struct strbuf *out, const char *const *argv)
{
	size_t i;
	const char *p;

	for (i = 0; argv[i]; i++) {
		if (i)
			strbuf_addch(out, ' ');
		if (!needs_quotes(argv[i])) {
			strbuf_addstr(out, argv[i]);
			continue;
		}
		strbuf_addch(out, '\'');
		for (p = argv[i]; *p; p++) {
			if (*p == '\'')
				strbuf_addstr(out, "'\\''");
			else
				strbuf_addch(out, *p);
		}
		strbuf_addch(out, '\'');
	}
}

void run_print_argv(FILE *fp, const char *const *argv)
{
	struct strbuf sb = STRBUF_INIT;

	run_quote_argv(&sb, argv);
	fprintf(fp, "%s\n", sb.buf);
	strbuf_release(&sb);
}

int run_which(const char *name, struct strbuf *out)
{
	const char *path = getenv("PATH"), *p, *colon;

	strbuf_reset(out);
	if (strchr(name, '/')) {
		strbuf_addstr(out, name);
		return access(name, X_OK) == 0;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = colon + 1) {
		colon = strchr(p, ':');
		strbuf_reset(out);
		if (colon == p || !*p)
			strbuf_addch(out, '.');
		else
			strbuf_add(out, p, colon ? (size_t)(colon - p) : strlen(p));
		strbuf_addf(out, "/%s", name);
		if (access(out->buf, X_OK) == 0)
			return 1;
		if (!colon)
			break;
	}
	strbuf_reset(out);
	return 0;
}

/* ---- child processes ------------------------------------------------ */

static void child_exec(const struct run_proc_opts *o, int out_fd)
{
	int devnull = open("/dev/null", O_RDONLY);
	size_t i;

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (devnull >= 0) {
		dup2(devnull, 0);
		close(devnull);
	}
	if (out_fd >= 0) {
		dup2(out_fd, 1);
		dup2(out_fd, 2);
		close(out_fd);
	}
	if (o->cwd && chdir(o->cwd) < 0) {
		dprintf(2, "accelbench: cannot enter '%s': %s\n", o->cwd, strerror(errno));
		_exit(127);
	}
	for (i = 0; o->env && o->env[i]; i++)
		putenv((char *)o->env[i]);
	execvp(o->argv[0], (char *const *)o->argv);
	dprintf(2, "accelbench: cannot run '%s': %s\n", o->argv[0], strerror(errno));
	_exit(127);
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		buf += w;
		len -= (size_t)w;
	}
}

int run_proc(const struct run_proc_opts *o, struct run_proc_result *res, struct strbuf *err)
{
	int pipefd[2] = { -1, -1 }, file_fd = -1, status = 0, open_pipe;
	double stop_at = 0, kill_at = 0;
	char buf[65536];
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (o->out_path) {
		file_fd = open(o->out_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
		if (file_fd < 0)
			return ab_fail(err, AB_EIO, "cannot open '%s': %s", o->out_path,
				       strerror(errno));
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		if (file_fd >= 0)
			close(file_fd);
		return ab_fail(err, AB_EIO, "cannot create a pipe: %s", strerror(errno));
	}
	fflush(NULL);
	res->t_start = run_now();
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		if (file_fd >= 0)
			close(file_fd);
		return ab_fail(err, AB_EIO, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(pipefd[0]);
		child_exec(o, pipefd[1]);
	}
	setpgid(pid, pid); /* both sides, so no race with kill(-pid) */
	close(pipefd[1]);
	open_pipe = 1;
	for (;;) {
		struct pollfd pfd = { pipefd[0], POLLIN, 0 };
		double now;
		pid_t w;

		if (open_pipe) {
			int pr = poll(&pfd, 1, 100);
			if (pr > 0) {
				ssize_t n = read(pipefd[0], buf, sizeof(buf));
				if (n > 0) {
					if (file_fd >= 0)
						write_all(file_fd, buf, (size_t)n);
					else
						write_all(1, buf, (size_t)n);
					if (o->tee && file_fd >= 0)
						write_all(2, buf, (size_t)n);
				} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
					open_pipe = 0;
				}
			}
		} else {
			run_sleep_ms(50);
		}
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid && !open_pipe)
			break;
		if (w == pid) {
			/* drain what is left, then stop: a grandchild may hold the pipe */
			for (;;) {
				struct pollfd p2 = { pipefd[0], POLLIN, 0 };
				ssize_t n;
				if (poll(&p2, 1, 0) <= 0)
					break;
				n = read(pipefd[0], buf, sizeof(buf));
				if (n <= 0)
					break;
				if (file_fd >= 0)
					write_all(file_fd, buf, (size_t)n);
				if (o->tee && file_fd >= 0)
					write_all(2, buf, (size_t)n);
			}
			break;
		}
		now = run_now();
		if (!stop_at && !o->no_forward && run_interrupted()) {
			res->interrupted = 1;
			kill(-pid, SIGINT);
			stop_at = now;
			kill_at = now + 10;
		}
		if (!stop_at && o->timeout_s > 0 && now - res->t_start > o->timeout_s) {
			res->timed_out = 1;
			kill(-pid, SIGTERM);
			stop_at = now;
			kill_at = now + 5;
		}
		if (kill_at && now > kill_at) {
			kill(-pid, SIGKILL);
			kill_at = 0;
		}
	}
	res->t_end = run_now();
	close(pipefd[0]);
	if (file_fd >= 0)
		close(file_fd);
	if (WIFEXITED(status)) {
		res->exit_status = WEXITSTATUS(status);
		res->not_started = res->exit_status == 127;
	} else if (WIFSIGNALED(status)) {
		res->signaled = WTERMSIG(status);
		res->exit_status = 128 + res->signaled;
	}
	return 0;
}

void run_proc_reason(struct strbuf *out, const struct run_proc_result *r, const char *what)
{
	if (r->interrupted)
		strbuf_addf(out, "%s interrupted by the user (Ctrl-C)", what);
	else if (r->timed_out)
		strbuf_addf(out, "%s timed out", what);
	else if (r->signaled)
		strbuf_addf(out, "%s killed by signal %d (%s)", what, r->signaled,
			    strsignal(r->signaled));
	else if (r->not_started)
		strbuf_addf(out, "%s could not be started (exit status 127)", what);
	else
		strbuf_addf(out, "%s exited with status %d", what, r->exit_status);
}

void run_node_name(struct strbuf *out)
{
	const char *n = getenv("SLURMD_NODENAME");

	strbuf_reset(out);
	if (n && *n && !strchr(n, '/') && strcmp(n, ".") && strcmp(n, ".."))
		strbuf_addstr(out, n);
	else
		run_hostname(out);
}

int run_folder_use(const struct run_common *c, const char *name, struct strbuf *out,
		   struct strbuf *err)
{
	if (!c->folder)
		return run_folder_create(c, name, out, err);
	strbuf_setstr(out, c->folder);
	if (c->node_task) {
		struct strbuf node = STRBUF_INIT;
		run_node_name(&node);
		strbuf_addf(out, "/nodes/%s", node.buf);
		strbuf_release(&node);
	}
	return ab_mkdirs(out->buf, err);
}
