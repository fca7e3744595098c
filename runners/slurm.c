/*
 * slurm.c - `--slurm` for every runner.  The job runs this same accelbench
 * on the allocated node (its own command line without the Slurm options,
 * plus --folder F --no-ingest), so the node samples its own power and
 * writes F/run.json; we write the sbatch script into F, submit it with
 * `sbatch --parsable`, follow it with squeue (then sacct, or scontrol when
 * accounting is off) until it ends, and ingest what run.json lists.
 * Ctrl-C asks whether to scancel when stdin is a terminal; otherwise the
 * job keeps running and we say how to follow and ingest it.
 *
 * --nodes N > 1: exec and mlperf run one task per node under srun and
 * gather the nodes' parts at the end of the job (runners/nodes.c); jube
 * and reframe run once, on the job's first node, as their own configs
 * launch the work across the allocation (srun in a JUBE step, ReFrame's
 * own launcher); their power is not sampled by accelbench (CARAML's jobs
 * measure with jpwr themselves).
 */
#include "core/compat.h"
#include "run_priv.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void run_slurm_job_release(struct run_slurm_job *j)
{
	free(j->job_id);
	free(j->state);
	free(j->nodes);
	memset(j, 0, sizeof(*j));
}

/* Run argv, collect stdout+stderr into out; returns the exit status or -1. */
static int capture(const char *const *argv, struct strbuf *out)
{
	int fd[2], status = 0;
	char buf[4096];
	pid_t pid;
	ssize_t n;

	strbuf_reset(out);
	if (pipe2(fd, O_CLOEXEC) < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);
		setpgid(0, 0); /* Ctrl-C is ours to handle, not squeue's */
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		execvp(argv[0], (char *const *)argv);
		dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	while ((n = read(fd[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (out->len < (1u << 20))
			strbuf_add(out, buf, (size_t)n);
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	strbuf_rtrim(out);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void sbatch_line(struct strbuf *s, const char *opt, const char *val)
{
	strbuf_addf(s, "#SBATCH --%s=%s\n", opt, val);
}

void run_slurm_script(struct strbuf *out, const struct run_common *c, const char *folder,
		      const char *body)
{
	char cwd[4096];

	strbuf_addstr(out, "#!/bin/sh\n");
	strbuf_addstr(out, "#SBATCH --job-name=accelbench\n");
	strbuf_addf(out, "#SBATCH --output=%s/job.out\n", folder);
	if (getcwd(cwd, sizeof(cwd)))
		sbatch_line(out, "chdir", cwd);
	if (c->slurm.nodes > 0)
		strbuf_addf(out, "#SBATCH --nodes=%ld\n", c->slurm.nodes);
	if (c->slurm.gpus_per_node > 0)
		strbuf_addf(out, "#SBATCH --gpus-per-node=%ld\n", c->slurm.gpus_per_node);
	if (c->slurm.time)
		sbatch_line(out, "time", c->slurm.time);
	if (c->slurm.partition)
		sbatch_line(out, "partition", c->slurm.partition);
	if (c->slurm.account)
		sbatch_line(out, "account", c->slurm.account);
	strbuf_addstr(out, "# written by accelbench " AB_VERSION "; the job runs accelbench on the node\n");
	strbuf_addstr(out, body);
	strbuf_addch(out, '\n');
}

/* First word of a state ("CANCELLED by 0" -> CANCELLED). */
static char *state_word(const char *s)
{
	size_t n = strcspn(s, " \t\n+");

	return ab_strndup(s, n);
}

/* Parse "State|ExitCode|NodeList" (sacct -P); 1 when it had all three. */
static int sacct_line(struct run_slurm_job *job, char *line)
{
	char *bar1 = strchr(line, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
	char *nl = strchr(line, '\n');

	if (nl)
		*nl = '\0';
	if (!bar1 || !bar2 || bar1 == line)
		return 0;
	*bar1 = *bar2 = '\0';
	free(job->state);
	job->state = state_word(line);
	job->exit_status = atoi(bar1 + 1);
	free(job->nodes);
	job->nodes = *(bar2 + 1) ? ab_strdup(bar2 + 1) : NULL;
	return 1;
}

/*
 * Final state: sacct from the accounting database (slurmdbd) when the site
 * has one; else `sacct --completion`, which reads the job completion log
 * (JobCompType=jobcomp/filetxt); else scontrol, which knows a job only
 * for MinJobAge after it ended.  job->state_from says which answered.
 */
static void final_state(struct run_slurm_job *job)
{
	struct strbuf out = STRBUF_INIT;
	const char *sacct[] = { "sacct", "-n", "-P", "-X", "-j", job->job_id, "-o",
				"State,ExitCode,NodeList", NULL };
	const char *sacct_c[] = { "sacct", "--completion", "-n", "-P", "-j", job->job_id, "-o",
				  "State,ExitCode,NodeList", NULL };
	const char *scontrol[] = { "scontrol", "show", "job", "-o", job->job_id, NULL };
	int i;

	if (capture(sacct, &out) == 0 && out.len && !strstr(out.buf, "disabled") &&
	    sacct_line(job, out.buf)) {
		job->state_from = "sacct";
		strbuf_release(&out);
		return;
	}
	/* the completion log is written as the job leaves the queue: a moment */
	for (i = 0; i < 8; i++) {
		int code = capture(sacct_c, &out);
		if (code == 0 && out.len && !strstr(out.buf, "disabled") && sacct_line(job, out.buf)) {
			job->state_from = "sacct --completion";
			strbuf_release(&out);
			return;
		}
		if (code != 0 || strstr(out.buf, "disabled"))
			break;
		run_sleep_ms(250);
	}
	if (capture(scontrol, &out) == 0) {
		const char *p = strstr(out.buf, "JobState="), *e = strstr(out.buf, " ExitCode="),
			   *nl = strstr(out.buf, " NodeList=");
		if (p) {
			free(job->state);
			job->state = state_word(p + 9);
			job->state_from = "scontrol";
		}
		if (e)
			job->exit_status = atoi(e + 10);
		if (nl && strncmp(nl + 10, "(null)", 6)) {
			free(job->nodes);
			job->nodes = state_word(nl + 10);
		}
	}
	strbuf_release(&out);
}

static int ask_cancel(const char *id)
{
	char line[64];

	if (!isatty(0))
		return 0;
	fprintf(stderr, "\ncancel Slurm job %s? [y/N] ", id);
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	return line[0] == 'y' || line[0] == 'Y';
}

int run_slurm(const struct run_common *c, const char *folder, const char *body,
	      struct run_slurm_job *job, struct strbuf *err)
{
	struct strbuf script = STRBUF_INIT, path = STRBUF_INIT, out = STRBUF_INIT;
	const char **argv = NULL;
	double t0, delay = 1, deadline;
	size_t i, n = 0;
	int rc = 0, code;

	memset(job, 0, sizeof(*job));
	job->exit_status = -1;
	run_slurm_script(&script, c, folder, body);
	argv = ab_calloc(c->slurm.nsbatch_args + 4, sizeof(*argv));
	argv[n++] = "sbatch";
	argv[n++] = "--parsable";
	for (i = 0; i < c->slurm.nsbatch_args; i++)
		argv[n++] = c->slurm.sbatch_args[i];
	strbuf_addf(&path, "%s/job.sbatch", folder);
	argv[n++] = path.buf;
	if (c->dry_run) {
		fprintf(c->out, "dry run: would write %s:\n%s", path.buf, script.buf);
		fputs("and submit it with: ", c->out);
		run_print_argv(c->out, argv);
		goto out;
	}
	rc = ab_write_file(path.buf, script.buf, script.len, err);
	if (rc < 0)
		goto out;
	if (!run_which("sbatch", &out)) {
		rc = ab_fail(err, AB_EUSAGE, "--slurm: sbatch not found in PATH (is Slurm installed?)");
		goto out;
	}
	code = capture(argv, &out);
	if (code != 0 || !out.len || !strchr("0123456789", out.buf[0])) {
		/* one line: it becomes a run's reason */
		for (i = 0; i < out.len; i++)
			if (out.buf[i] == '\n')
				out.buf[i] = ' ';
		rc = ab_fail(err, AB_EDATA, "sbatch refused the job (exit %d): %s", code,
			     out.len ? out.buf : "no output");
		goto out;
	}
	job->job_id = ab_strndup(out.buf, strcspn(out.buf, ";\n"));
	fprintf(c->out, "submitted Slurm job %s (script %s)\n", job->job_id, path.buf);
	fflush(c->out);
	t0 = run_now();
	job->t_start = t0;
	deadline = c->timeout_s > 0 ? t0 + c->timeout_s : 0;
	for (;;) {
		const char *sq[] = { "squeue", "-h", "-j", job->job_id, "-o", "%T", NULL };
		run_sleep_ms((long)(delay * 1000));
		if (run_interrupted()) {
			job->interrupted = 1;
			if (ask_cancel(job->job_id)) {
				const char *sc[] = { "scancel", job->job_id, NULL };
				capture(sc, &out);
				job->cancelled = 1;
				fprintf(c->out, "cancelled Slurm job %s\n", job->job_id);
			} else {
				/* what it writes is ingested as the runner would
				 * (run.json and the result files it names, with
				 * its provenance), whichever runner it is */
				struct strbuf cmd = STRBUF_INIT;
				const char *ing[7];
				size_t k = 0;
				ing[k++] = "accelbench";
				if (c->db_path) {
					ing[k++] = "--db";
					ing[k++] = c->db_path;
				}
				ing[k++] = "run";
				ing[k++] = "ingest";
				ing[k++] = folder;
				ing[k] = NULL;
				run_quote_argv(&cmd, ing);
				fprintf(c->out, "Slurm job %s keeps running: follow it with 'squeue -j %s', "
					"cancel it with 'scancel %s'; when it ends, ingest what it wrote "
					"with: %s\n", job->job_id, job->job_id, job->job_id, cmd.buf);
				strbuf_release(&cmd);
				goto out;
			}
			break;
		}
		if (deadline && run_now() > deadline) {
			const char *sc[] = { "scancel", job->job_id, NULL };
			capture(sc, &out);
			job->cancelled = 1;
			fprintf(c->out, "Slurm job %s timed out after %.0f s; cancelled\n", job->job_id,
				c->timeout_s);
			break;
		}
		code = capture(sq, &out);
		if (code != 0 || !out.len)
			break; /* no longer in the queue: it ended */
		free(job->state);
		job->state = state_word(out.buf);
		if (delay < 30)
			delay = delay * 1.5 > 30 ? 30 : delay * 1.5;
	}
	/* a cancelled job needs a moment to leave the queue */
	for (i = 0; job->cancelled && i < 20; i++) {
		const char *sq[] = { "squeue", "-h", "-j", job->job_id, "-o", "%T", NULL };
		if (capture(sq, &out) != 0 || !out.len)
			break;
		run_sleep_ms(250);
	}
	final_state(job);
	job->t_end = run_now();
	if (!job->state)
		job->state = ab_strdup("UNKNOWN");
out:
	free(argv);
	strbuf_release(&script);
	strbuf_release(&path);
	strbuf_release(&out);
	return rc;
}

int run_via_slurm(const struct run_common *c, const char *suite, const char *benchmark,
		  const char *metric, const char *unit, int lower_is_better,
		  struct run_result *res, struct strbuf *err)
{
	struct strbuf folder = STRBUF_INIT, body = STRBUF_INIT, path = STRBUF_INIT,
		      reason = STRBUF_INIT, self = STRBUF_INIT;
	struct run_slurm_job job;
	json_t *manifest = NULL, *prov, *slurm;
	const char **jargv;
	char exe[4096];
	ssize_t len;
	size_t i, n = 0, nargs = 0;
	int rc, per_node, pass;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return ab_fail(err, AB_EIO, "--slurm: cannot find accelbench's own executable");
	exe[len] = '\0';
	if (c->dry_run)
		strbuf_addf(&folder, "%s/%s/<UTC time>", c->runs_dir ? c->runs_dir : "runs",
			    benchmark);
	else if ((rc = run_folder_create(c, benchmark, &folder, err)) < 0)
		return rc;
	if (!c->dry_run) {
		char *abs = realpath(folder.buf, NULL);
		if (abs) {
			strbuf_setstr(&folder, abs);
			free(abs);
		}
	}
	/* the job's command: accelbench run RUNNER --folder F --no-ingest ...;
	 * exec and mlperf on several nodes: one task per node under srun
	 * (each runs the command and samples its node's power), then the
	 * nodes' parts are gathered into run.json (runners/nodes.c) */
	while (c->job_argv && c->job_argv[nargs])
		nargs++;
	jargv = ab_calloc(nargs + 7, sizeof(*jargv));
	per_node = c->slurm.nodes > 1 && (!strcmp(suite, "exec") || !strcmp(suite, "mlperf-training"));
	for (pass = per_node ? 0 : 1; pass < 2; pass++) {
		n = 0;
		jargv[n++] = exe;
		for (i = 0; i < nargs; i++) {
			jargv[n++] = c->job_argv[i];
			if (i == 1) {
				jargv[n++] = "--folder";
				jargv[n++] = folder.buf;
				jargv[n++] = "--no-ingest";
				if (per_node)
					jargv[n++] = pass == 0 ? "--node-task" : "--gather";
			}
		}
		jargv[n] = NULL;
		if (pass == 0) {
			strbuf_addf(&body, "srun --nodes=%ld --ntasks=%ld --ntasks-per-node=1 "
				    "--kill-on-bad-exit=0 ", c->slurm.nodes, c->slurm.nodes);
			run_quote_argv(&body, jargv);
			strbuf_addch(&body, '\n');
		} else {
			strbuf_addstr(&body, "exec ");
			run_quote_argv(&body, jargv);
		}
	}
	free(jargv);
	rc = run_slurm(c, folder.buf, body.buf, &job, err);
	if (c->dry_run)
		goto out;
	if (rc == 0 && job.interrupted && !job.cancelled) {
		/* the job runs on; nothing to ingest yet (the message says how) */
		rc = -RUN_INTERRUPTED;
		goto out;
	}
	/* what the job wrote, or a failed run saying what happened */
	strbuf_addf(&path, "%s/run.json", folder.buf);
	strbuf_addf(&self, "%s/job.out", folder.buf);
	if (rc < 0) {
		strbuf_addbuf(&reason, err);
	} else if (strcmp(job.state, "COMPLETED")) {
		strbuf_addf(&reason, "Slurm job %s ended %s", job.job_id, job.state);
		if (job.exit_status >= 0)
			strbuf_addf(&reason, " (exit status %d)", job.exit_status);
	}
	if (reason.len) {
		struct strbuf tail = STRBUF_INIT;
		run_output_tail(&tail, self.buf, 10, 2048);
		fprintf(stderr, "accelbench: %s%s%s\n", reason.buf,
			tail.len ? "; job output ends:\n" : "", tail.buf);
		strbuf_release(&tail);
	} else {
		fprintf(c->out, "Slurm job %s: COMPLETED\n", job.job_id);
	}
	manifest = access(path.buf, F_OK) == 0 ? json_load_file(path.buf, 0, NULL) : NULL;
	if (!manifest) {
		/* nothing from the node: the job itself is the failed run */
		prov = run_provenance_new(c, suite, NULL);
		manifest = run_manifest_new(suite, benchmark,
					    c->system ? c->system : "unknown", metric, unit,
					    lower_is_better, prov);
		if (!reason.len)
			strbuf_addf(&reason, "Slurm job %s wrote no results (%s missing)", job.job_id,
				    path.buf);
		run_manifest_add(manifest, run_entry_failed(1, "failed", reason.buf,
							    job.job_id ? self.buf : NULL,
							    job.t_start, job.t_end));
		if (job.job_id)
			json_object_set_new(json_array_get(json_object_get(manifest, "runs"), 0),
					    "job_id", json_string(job.job_id));
		rc = run_manifest_write(folder.buf, manifest, &path, err);
		if (rc < 0)
			goto out;
	}
	prov = json_object_get(manifest, "provenance");
	slurm = json_object();
	if (job.job_id)
		json_object_set_new(slurm, "job_id", json_string(job.job_id));
	if (job.state)
		json_object_set_new(slurm, "state", json_string(job.state));
	if (job.exit_status >= 0)
		json_object_set_new(slurm, "exit_status", json_integer(job.exit_status));
	if (job.nodes)
		json_object_set_new(slurm, "nodes", json_string(job.nodes));
	if (job.state_from)
		json_object_set_new(slurm, "state_from", json_string(job.state_from));
	if (c->slurm.partition)
		json_object_set_new(slurm, "partition", json_string(c->slurm.partition));
	json_object_set_new(slurm, "script", json_string("job.sbatch"));
	json_object_set_new(prov, "slurm", slurm);
	run_result_set(res, folder.buf, manifest, prov);
	if (rc == 0 && job.interrupted)
		rc = -RUN_INTERRUPTED;
	else if (rc == 0 && reason.len)
		rc = ab_fail(err, AB_EDATA, "%s (stored as failed)", reason.buf);
out:
	run_slurm_job_release(&job);
	json_decref(manifest);
	strbuf_release(&folder);
	strbuf_release(&body);
	strbuf_release(&path);
	strbuf_release(&reason);
	strbuf_release(&self);
	return rc;
}
