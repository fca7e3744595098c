/*
 * cmd_run.c - `accelbench run jube|reframe|mlperf|exec ...`: options and
 * glue around runners/ (run_exec, run_mlperf, run_reframe, run_jube).
 *
 * Options common to every runner: --system, --runs-dir, --dry-run, -v,
 * --timeout, and the Slurm set (--slurm --nodes --gpus-per-node --time
 * --partition --account --sbatch-arg).  With --slurm the job runs this same
 * command on the node without the Slurm options (see runners/slurm.c);
 * --folder and --no-ingest are what it adds for that.
 */
#include "core/compat.h"
#include "commands.h"
#include "ingest/ingest.h"
#include "model/mlperf_score.h"
#include "runners/runners.h"

#include <unistd.h>

static void on_ingest_event(void *vctx, enum ingest_event ev, const char *path, const char *msg,
			    const struct ingest_totals *t)
{
	const int *verbose = vctx;

	(void)t;
	if (ev == INGEST_EV_REJECTED)
		fprintf(stderr, "accelbench: %s\n", msg);
	else if (ev == INGEST_EV_WARNING)
		fprintf(stderr, "accelbench: warning: %s\n", msg);
	else if (ev == INGEST_EV_INGESTED && *verbose)
		fprintf(stderr, "ingested %s: %s\n", path, msg);
}

/* Ingest what the runner names, provenance on every run (the per-file one
 * where the runner has it); one summary line. */
static int ingest_result(struct ctx *ctx, const struct run_result *res, int verbose)
{
	struct ingest_opts io = { 0 };
	struct ingest_totals t, sum;
	struct strbuf err = STRBUF_INIT, one = STRBUF_INIT;
	size_t i, j;
	int rc = 0, r, rejected = 0;

	memset(&sum, 0, sizeof(sum));
	/* cmd_run() opened it before running (to fail early); opening again
	 * would drop that handle */
	if (!ctx->db)
		rc = db_open(&ctx->db, ctx->db_path, 0, &err);
	for (i = 0; rc == 0 && i < res->n; i = j) {
		json_t *prov = res->path_provenance && res->path_provenance[i] ?
			       res->path_provenance[i] : res->provenance;
		/* consecutive files with the same provenance go in one call */
		for (j = i + 1; j < res->n; j++)
			if ((res->path_provenance && res->path_provenance[j] ?
			     res->path_provenance[j] : res->provenance) != prov)
				break;
		io.provenance = prov;
		io.notify = on_ingest_event;
		io.notify_ctx = &verbose;
		memset(&t, 0, sizeof(t));
		strbuf_reset(&one);
		r = ingest_paths((const char *const *)res->paths + i, j - i, &io,
				 db_ingest_sink(ctx->db), &t, &one);
		sum.ingested += t.ingested;
		sum.rejected += t.rejected;
		sum.runs += t.runs;
		sum.metrics += t.metrics;
		sum.power_samples += t.power_samples;
		sum.duplicates += t.duplicates;
		if (r == -AB_EDATA) {
			/* some files rejected: the rest still land */
			if (!err.len)
				strbuf_addbuf(&err, &one);
			rejected = 1;
		} else if (r < 0) {
			strbuf_reset(&err);
			strbuf_addbuf(&err, &one);
			rc = r;
		}
	}
	if (rc == 0 && rejected)
		rc = -AB_EDATA;
	if (rc == 0 || rc == -AB_EDATA) {
		t = sum;
		printf("ingested: %ld file%s, %ld rejected; added %ld run%s, %ld metric%s", t.ingested,
		       t.ingested == 1 ? "" : "s", t.rejected, t.runs, t.runs == 1 ? "" : "s",
		       t.metrics, t.metrics == 1 ? "" : "s");
		if (t.power_samples)
			printf(", %ld power sample%s", t.power_samples, t.power_samples == 1 ? "" : "s");
		if (t.duplicates)
			printf("; %ld duplicate run%s skipped", t.duplicates, t.duplicates == 1 ? "" : "s");
		putchar('\n');
		if (rc == -AB_EDATA && !err.len)
			strbuf_addstr(&err, "some files were rejected");
	}
	rc = cli_status(rc, &err);
	strbuf_release(&err);
	strbuf_release(&one);
	return rc;
}

#define RUN_COMMON_SYNOPSIS                                                              \
	"[--system S] [--runs-dir DIR] [--timeout D] [--dry-run] [-v] [--slurm [--nodes N] " \
	"[--gpus-per-node G] [--time HH:MM:SS] [--partition P] [--account A] [--sbatch-arg ARG]...]"

static const struct cmd run_cmds[] = {
	{ "run exec", NULL, 0,
	  "-b NAME [--metric NAME=REGEX[:UNIT]]... [--repeat N] [--power auto|nvml|rocm|hwmon|rapl|none] "
	  "[--interval MS] " RUN_COMMON_SYNOPSIS " -- CMD...",
	  "Run a command N times, extract metrics, sample power, ingest." },
	{ "run mlperf", NULL, 0,
	  "-b BENCHMARK [--runs N] [--system-json F] [--submitter S] " RUN_COMMON_SYNOPSIS
	  " -- CMD...",
	  "Run an MLPerf training command N times into the submission layout, ingest." },
	{ "run reframe", NULL, 0, "[--reframe PATH] " RUN_COMMON_SYNOPSIS " [-- REFRAME_ARGS...]",
	  "Run ReFrame with its report and perflogs in a run folder, ingest both." },
	{ "run jube", NULL, 0, "CONFIG [--tag T]... [--outpath DIR] [--poll S] " RUN_COMMON_SYNOPSIS,
	  "Run a JUBE benchmark, follow it to the end, ingest its result tables." },
	{ NULL, NULL, 0, NULL, NULL }
};

static const struct cmd run_ingest_cmd = {
	"run ingest", NULL, 0, "[-v] FOLDER",
	"Ingest a run folder as its runner would have: run.json and the result files it names, "
	"with the runner's provenance (a --slurm job that Ctrl-C left running, once it ended)."
};

/* `accelbench run ingest FOLDER` */
static int run_ingest(int argc, char **argv, struct ctx *ctx)
{
	int verbose = 0, n, rc;
	struct opt opts[] = {
		{ 'v', "verbose", OPT_FLAG, &verbose, NULL, "name each file as it is ingested" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct run_result res = { 0 };
	struct strbuf err = STRBUF_INIT;

	n = cli_parse(&run_ingest_cmd, opts, argc - 1, argv + 1);
	if (n == CLI_HELP)
		return AB_OK;
	if (n < 0)
		return AB_EUSAGE;
	if (n != 1)
		return cli_error(AB_EUSAGE, "run ingest: give one run folder (see 'accelbench run "
			       "ingest -h')");
	rc = run_folder_result(argv[1], &res, &err);
	rc = rc < 0 ? cli_status(rc, &err) : ingest_result(ctx, &res, verbose);
	run_result_release(&res);
	strbuf_release(&err);
	return rc;
}

/* The official score of the runs just ingested (the group whose result
 * directory is under the submission tree sub). */
static void print_mlperf_score(struct ctx *ctx, const char *bench, const char *sub)
{
	struct db_filter f = { "mlperf-training", bench, NULL };
	struct strbuf err = STRBUF_INIT;
	json_t *arr = NULL, *g;
	char *abs = realpath(sub, NULL);
	size_t i, len;

	if (abs)
		sub = abs; /* the parser records absolute result directories */
	len = strlen(sub);
	if (mlperf_score(ctx->db, &f, &arr, &err) < 0) {
		fprintf(stderr, "accelbench: no official score: %s\n", err.buf);
		strbuf_release(&err);
		free(abs);
		return;
	}
	json_array_foreach(arr, i, g) {
		const char *dir = json_string_value(json_object_get(g, "result_dir"));
		json_t *sc = json_object_get(g, "official_score");
		if (!dir || strncmp(dir, sub, len) || (dir[len] && dir[len] != '/'))
			continue;
		if (json_is_number(sc))
			printf("official score: %.3f min (%s), %lld valid of %lld runs, %lld required\n",
			       json_number_value(sc), "olympic mean",
			       (long long)json_integer_value(json_object_get(g, "valid")),
			       (long long)json_integer_value(json_object_get(g, "runs")),
			       (long long)json_integer_value(json_object_get(g, "required_runs")));
		else
			printf("no official score: %s\n",
			       json_string_value(json_object_get(g, "status")) ?
				       json_string_value(json_object_get(g, "status")) : "unknown");
	}
	json_decref(arr);
	strbuf_release(&err);
	free(abs);
}

/* "90", "90s", "15m", "2h", "1d", "HH:MM:SS" or "MM:SS" -> seconds; -1 if bad. */
static double parse_duration(const char *s)
{
	double v = 0, part;
	char *end;
	int colons = 0;
	const char *p;

	for (p = s; *p; p++)
		colons += *p == ':';
	if (colons) {
		for (p = s;;) {
			errno = 0;
			part = strtod(p, &end);
			if (end == p || errno || part < 0)
				return -1;
			v = v * 60 + part;
			if (!*end)
				return v;
			if (*end != ':')
				return -1;
			p = end + 1;
		}
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		return v;
	if (!strcmp(end, "m") || !strcmp(end, "min"))
		return v * 60;
	if (!strcmp(end, "h"))
		return v * 3600;
	if (!strcmp(end, "d"))
		return v * 86400;
	return -1;
}

/* NAME=REGEX[:UNIT]; UNIT is what follows the last ':' when it looks like
 * one (letters, digits, '/', '%', '.', '_', '-'); a trailing ':' means none. */
static int parse_metric(const char *spec, struct run_metric_spec *m, char **owned)
{
	const char *eq = strchr(spec, '='), *colon;
	char *copy;

	if (!eq || eq == spec || !eq[1])
		return -1;
	copy = ab_strdup(spec);
	*owned = copy;
	copy[eq - spec] = '\0';
	m->name = copy;
	m->regex = copy + (eq - spec) + 1;
	m->unit = NULL;
	colon = strrchr(m->regex, ':');
	if (colon) {
		const char *u = colon + 1;
		size_t n = strspn(u, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/%._-");
		if (!u[n]) {
			((char *)colon)[0] = '\0';
			m->unit = *u ? u : NULL;
		}
	}
	return *m->regex ? 0 : -1;
}

/* Whether a runner-specific option's help ("exec,mlperf: ...") names runner. */
static int runner_owns(const char *help, const char *runner)
{
	size_t len = strlen(runner);
	const char *p = help;

	for (;;) {
		size_t n = strcspn(p, ",:");
		if (n == len && !strncmp(p, runner, len))
			return 1;
		if (p[n] != ',')
			return 0;
		p += n + 1;
	}
}

/* argv without the Slurm options (before "--"): what the job runs. */
static char **job_argv(int argc, char **argv)
{
	static const char *const with_arg[] = { "--nodes", "--gpus-per-node", "--time",
						"--partition", "--account", "--sbatch-arg" };
	char **out = ab_calloc((size_t)argc + 1, sizeof(*out));
	int i, n = 0, rest = 0;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		size_t k;
		int skip = 0;

		if (!rest && !strcmp(a, "--"))
			rest = 1;
		if (!rest) {
			if (!strcmp(a, "--slurm") || !strcmp(a, "--dry-run"))
				continue;
			for (k = 0; k < AB_ARRAY_SIZE(with_arg); k++) {
				size_t len = strlen(with_arg[k]);
				if (!strcmp(a, with_arg[k])) {
					skip = 2;
				} else if (!strncmp(a, with_arg[k], len) && a[len] == '=') {
					skip = 1;
				}
			}
		}
		if (skip) {
			i += skip - 1;
			continue;
		}
		out[n++] = argv[i];
	}
	out[n] = NULL;
	return out;
}

int cmd_run(int argc, char **argv, struct ctx *ctx)
{
	const char *runner = argc >= 2 ? argv[1] : NULL;
	const char *system = NULL, *runs_dir = NULL, *timeout = NULL, *folder = NULL;
	const char *benchmark = NULL, *power = NULL, *system_json = NULL, *submitter = NULL;
	const char *reframe = NULL, *outpath = NULL, *stime = NULL, *partition = NULL,
		   *account = NULL;
	int dry_run = 0, verbose = 0, slurm = 0, no_ingest = 0, node_task = 0, gather = 0;
	long repeat = 1, interval = 100, runs = 0, nodes = 0, gpn = 0;
	double poll = 5;
	struct opt_list metrics = { 0 }, tags = { 0 }, sbatch = { 0 };
	struct opt common[] = {
		{ 0, "system", OPT_STRING, &system, "S", "system name (default: this host's name)" },
		{ 0, "runs-dir", OPT_STRING, &runs_dir, "DIR", "where run folders go (default: runs)" },
		{ 0, "timeout", OPT_STRING, &timeout, "D", "give up after D (90, 15m, 2h, HH:MM:SS)" },
		{ 0, "dry-run", OPT_FLAG, &dry_run, NULL, "print what would run, run nothing" },
		{ 'v', "verbose", OPT_FLAG, &verbose, NULL, "echo the tool's output on stderr" },
		{ 0, "slurm", OPT_FLAG, &slurm, NULL, "submit through Slurm (sbatch) and follow the job" },
		{ 0, "nodes", OPT_INT, &nodes, "N", "Slurm: nodes" },
		{ 0, "gpus-per-node", OPT_INT, &gpn, "G", "Slurm: GPUs per node" },
		{ 0, "time", OPT_STRING, &stime, "HH:MM:SS", "Slurm: time limit" },
		{ 0, "partition", OPT_STRING, &partition, "P", "Slurm: partition" },
		{ 0, "account", OPT_STRING, &account, "A", "Slurm: account" },
		{ 0, "sbatch-arg", OPT_LIST, &sbatch, "ARG", "Slurm: extra sbatch argument (repeatable)" },
		{ 0, "folder", OPT_STRING, &folder, "DIR", "use this run folder (set inside Slurm jobs)" },
		{ 0, "node-task", OPT_FLAG, &node_task, NULL, "one node's task of a multi-node job (set by --slurm)" },
		{ 0, "gather", OPT_FLAG, &gather, NULL, "merge the nodes' parts of a multi-node job (set by --slurm)" },
		{ 0, "no-ingest", OPT_FLAG, &no_ingest, NULL, "leave the run folder, ingest nothing" },
		/* runner-specific options follow, each help saying "runner[,runner]: ..." */
		{ 'b', "benchmark", OPT_STRING, &benchmark, "NAME", "exec,mlperf: benchmark name" },
		{ 0, "metric", OPT_LIST, &metrics, "NAME=REGEX[:UNIT]", "exec: a metric to extract" },
		{ 0, "repeat", OPT_INT, &repeat, "N", "exec: repetitions (default 1)" },
		{ 0, "power", OPT_STRING, &power, "SRC", "exec,mlperf,reframe,jube: auto|nvml|rocm|hwmon|rapl|none (reframe, jube: default none)" },
		{ 0, "interval", OPT_INT, &interval, "MS", "exec,mlperf,reframe,jube: power sampling period (default 100)" },
		{ 0, "runs", OPT_INT, &runs, "N", "mlperf: runs (default: the benchmark's count)" },
		{ 0, "system-json", OPT_STRING, &system_json, "F", "mlperf: the system description" },
		{ 0, "submitter", OPT_STRING, &submitter, "S", "mlperf: submitter name" },
		{ 0, "reframe", OPT_STRING, &reframe, "PATH", "reframe: the executable" },
		{ 0, "tag", OPT_LIST, &tags, "T", "jube: a tag (repeatable)" },
		{ 0, "outpath", OPT_STRING, &outpath, "DIR", "jube: the benchmark's outpath" },
		{ 0, "poll", OPT_DOUBLE, &poll, "S", "jube: first polling interval in seconds" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	const struct cmd *rc_cmd = NULL;
	struct opt sel[AB_ARRAY_SIZE(common)];
	struct run_common c = { 0 };
	struct run_result res = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct run_metric_spec *ms = NULL;
	char **owned = NULL, **orig = NULL, **jargv = NULL, *db_abs = NULL;
	const char **cmdv = NULL;
	size_t k, nsel;
	int n, i, specific, rc = AB_OK;

	if (!runner || !strcmp(runner, "-h") || !strcmp(runner, "--help")) {
		FILE *fp = runner ? stdout : stderr;
		cli_usage(fp, cli_find("run"), NULL);
		fputs("\nrunners:\n", fp);
		for (k = 0; run_cmds[k].name; k++)
			fprintf(fp, "  accelbench %s %s\n      %s\n", run_cmds[k].name, run_cmds[k].synopsis,
				run_cmds[k].summary);
		fprintf(fp, "\n'accelbench run RUNNER -h' lists a runner's options.\n"
			"\n  accelbench %s %s\n      %s\n", run_ingest_cmd.name,
			run_ingest_cmd.synopsis, run_ingest_cmd.summary);
		return runner ? AB_OK : AB_EUSAGE;
	}
	if (!strcmp(runner, "ingest"))
		return run_ingest(argc, argv, ctx);
	for (k = 0; run_cmds[k].name; k++)
		if (!strcmp(run_cmds[k].name + 4, runner))
			rc_cmd = &run_cmds[k];
	if (!rc_cmd)
		return cli_error(AB_EUSAGE, "run: no runner '%s' (known: jube, reframe, mlperf, exec)",
				 runner);
	orig = ab_calloc((size_t)argc + 1, sizeof(*orig));
	for (i = 0; i < argc; i++)
		orig[i] = argv[i];
	/* the common options, then only this runner's own */
	memset(sel, 0, sizeof(sel));
	for (k = 0, nsel = 0, specific = 0; common[k].long_name; k++) {
		if (specific) {
			if (!runner_owns(common[k].help, runner))
				continue;
			sel[nsel] = common[k];
			sel[nsel].help = strchr(common[k].help, ':') + 2;
		} else {
			sel[nsel] = common[k];
		}
		nsel++;
		specific |= !strcmp(common[k].long_name, "no-ingest");
	}
	n = cli_parse(rc_cmd, sel, argc - 1, argv + 1);
	if (n == CLI_HELP)
		goto out;
	if (n < 0) {
		rc = AB_EUSAGE;
		goto out;
	}
	/* argv[2..n+1] are the positional arguments, in order */
	if (timeout && (c.timeout_s = parse_duration(timeout)) < 0) {
		rc = cli_error(AB_EUSAGE, "run: --timeout wants 90, 15m, 2h or HH:MM:SS, not '%s'",
			       timeout);
		goto out;
	}
	if (!slurm && (nodes || gpn || stime || partition || account || sbatch.n)) {
		rc = cli_error(AB_EUSAGE, "run: Slurm options need --slurm");
		goto out;
	}
	c.runs_dir = runs_dir;
	c.system = system;
	c.dry_run = dry_run;
	c.verbose = verbose;
	c.slurm.enabled = slurm;
	c.slurm.nodes = nodes;
	c.slurm.gpus_per_node = gpn;
	c.slurm.time = stime;
	c.slurm.partition = partition;
	c.slurm.account = account;
	c.slurm.sbatch_args = sbatch.v;
	c.slurm.nsbatch_args = sbatch.n;
	c.argc = argc;
	c.argv = orig;
	c.folder = folder;
	c.no_ingest = no_ingest;
	c.node_task = node_task;
	c.gather = gather;
	if ((node_task || gather) && (!folder || slurm)) {
		rc = cli_error(AB_EUSAGE, "run: --node-task and --gather are for the job --slurm writes");
		goto out;
	}
	c.out = stdout;
	if (slurm) {
		/* the job runs: <this binary> run RUNNER <options without Slurm's> */
		jargv = job_argv(argc, orig);
		c.job_argv = jargv;
	}
	cmdv = ab_calloc((size_t)n + 1, sizeof(*cmdv));
	for (i = 0; i < n; i++)
		cmdv[i] = argv[1 + i];
	if (!dry_run && !no_ingest) {
		/* fail early on an unusable database, before anything runs */
		rc = db_open(&ctx->db, ctx->db_path, 0, &err);
		if (rc < 0) {
			rc = cli_status(rc, &err);
			goto out;
		}
		/* named in the hint a --slurm job left running prints */
		db_abs = realpath(ctx->db_path, NULL);
		c.db_path = db_abs ? db_abs : ctx->db_path;
	}
	run_signals_install();
	if (gather) {
		rc = run_gather_nodes(&c, &res, &err);
	} else if (!strcmp(runner, "exec")) {
		struct run_exec_opts o = { 0 };
		ms = ab_calloc(metrics.n + 1, sizeof(*ms));
		owned = ab_calloc(metrics.n + 1, sizeof(*owned));
		for (k = 0; k < metrics.n; k++)
			if (parse_metric(metrics.v[k], &ms[k], &owned[k]) < 0) {
				rc = cli_error(AB_EUSAGE, "run exec: --metric wants NAME=REGEX[:UNIT], not '%s'",
					       metrics.v[k]);
				goto out;
			}
		o.benchmark = benchmark;
		o.metrics = ms;
		o.nmetrics = metrics.n;
		o.repeat = repeat;
		o.interval_ms = interval;
		o.power = power ? power : "auto";
		o.cmd = cmdv;
		rc = run_exec(&c, &o, &res, &err);
	} else if (!strcmp(runner, "mlperf")) {
		struct run_mlperf_opts o = { 0 };
		o.benchmark = benchmark;
		o.runs = runs ? runs : benchmark ? mlperf_required_runs(benchmark) : 0;
		if (runs < 0) {
			rc = cli_error(AB_EUSAGE, "run mlperf: --runs must be positive");
			goto out;
		}
		o.system_json = system_json;
		o.submitter = submitter;
		o.power = power ? power : "auto";
		o.interval_ms = interval;
		o.cmd = cmdv;
		rc = run_mlperf(&c, &o, &res, &err);
	} else if (!strcmp(runner, "reframe")) {
		struct run_reframe_opts o = { 0 };
		o.reframe = reframe;
		o.args = cmdv;
		o.nargs = (size_t)n;
		o.power = power;
		o.interval_ms = interval;
		rc = run_reframe(&c, &o, &res, &err);
	} else {
		struct run_jube_opts o = { 0 };
		/* like jube's own --tag A B: words after the CONFIG are more tags */
		if (n < 1 || (n > 1 && !tags.n)) {
			rc = cli_error(AB_EUSAGE, "run jube: give exactly one CONFIG (see 'accelbench run jube -h')");
			goto out;
		}
		for (i = 1; i < n; i++) {
			tags.v = ab_realloc(tags.v, (tags.n + 1) * sizeof(*tags.v));
			tags.v[tags.n++] = cmdv[i];
		}
		o.config = cmdv[0];
		o.tags = tags.v;
		o.ntags = tags.n;
		o.outpath = outpath;
		o.poll_s = poll;
		o.power = power;
		o.interval_ms = interval;
		rc = run_jube(&c, &o, &res, &err);
	}
	/* what finished is stored, whatever happened to the rest */
	if (res.n) {
		int irc = ingest_result(ctx, &res, verbose);
		if (rc == 0 && irc != AB_OK) {
			rc = -irc;
			strbuf_reset(&err);
		}
		if (irc == AB_OK && !strcmp(runner, "mlperf") && res.n > 1) {
			/* the result directory: where result_1.txt is */
			char *dir = ab_strdup(res.paths[1]), *slash = strrchr(dir, '/');
			if (slash && strncmp(slash, "/result_", 8) == 0)
				*slash = '\0';
			print_mlperf_score(ctx, benchmark, dir);
			free(dir);
		}
	}
	if (rc == -RUN_INTERRUPTED)
		rc = RUN_INTERRUPTED;
	else if (rc < 0 && !err.len)
		rc = ab_exit_code(rc);
	else
		rc = cli_status(rc, &err);
out:
	for (k = 0; owned && k < metrics.n; k++)
		free(owned[k]);
	free(owned);
	free(ms);
	free(cmdv);
	free(orig);
	free(jargv);
	free(db_abs);
	cli_free_list(&metrics);
	cli_free_list(&tags);
	cli_free_list(&sbatch);
	run_result_release(&res);
	strbuf_release(&err);
	return rc;
}
