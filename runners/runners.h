/*
 * runners.h - the public header of runners/: things that produce raw
 * result files on disk in the tools' own formats, for ingest/ to read.
 *
 * demo: a simulated campaign of three suites in their native formats,
 * generated deterministically from a seed: CARAML (JUBE result tables +
 * jpwr/CARAML energy files, batch and device sweeps; demo.c), MLPerf
 * training (:::MLLOG result_N.txt, system JSONs, power logs;
 * demo_mlperf.c) and ReFrame (a 4.x perflog tree and a JSON run report;
 * demo_reframe.c), plus a systems file that marks every system
 * "simulated".  It exercises every step of the pipeline without a GPU and
 * without copying anyone's data.  The numbers are built on published
 * figures (CARAML, the EPCC ReFrame study; see each file) but are
 * synthetic example data.
 *
 * run_*: execute a suite's own tool (JUBE, ReFrame, an MLPerf training
 * command, any command), locally or through Slurm, into a run folder
 * runs/<benchmark>/<UTC timestamp>/ that is never overwritten, sample
 * power while a local command runs, and name the files the caller should
 * ingest (struct run_result): data flows runners -> files -> ingest, so
 * runners/ never includes ingest/.  What a runner itself knows (the
 * command line, hosts, times, exit status, the sampler's devices, a
 * failure's reason and output tail) goes into an "accelbench-run"
 * manifest (run.json) that ingest/abrun.c reads.
 *
 * Ownership: options are borrowed for the duration of the call; a
 * struct run_result is the caller's, freed with run_result_release().
 * Runners print progress and results on c->out (stdout) and diagnostics
 * on stderr; they never exit().
 */
#ifndef AB_RUNNERS_H
#define AB_RUNNERS_H

#include "core/core.h"
#include <jansson.h>

enum run_demo_suites {
	RUN_DEMO_CARAML = 1 << 0,
	RUN_DEMO_MLPERF = 1 << 1,
	RUN_DEMO_REFRAME = 1 << 2,
	RUN_DEMO_ALL = RUN_DEMO_CARAML | RUN_DEMO_MLPERF | RUN_DEMO_REFRAME
};

struct run_demo_opts {
	unsigned long seed;     /* RNG seed; the same seed gives the same bytes */
	int repeats;            /* runs per configuration (>= 1) */
	double scale;           /* repeat the CARAML campaign this many times (bench) */
	unsigned suites;        /* enum run_demo_suites; 0 = all */
};

/* Write the demo campaign under dir (created if missing): dir/systems.json
 * and dir/caraml, dir/mlperf, dir/reframe.  *files gets the number of
 * files written. */
int run_demo_write(const char *dir, const struct run_demo_opts *o, long *files,
		   struct strbuf *err);

/* Write the example prices file (the format of `accelbench cost --prices`)
 * for every demo system to path, atomically. */
int run_demo_write_prices(const char *path, struct strbuf *err);

/* ---- running suites ------------------------------------------------- */

/* Extra return status of the run_* functions: the user pressed Ctrl-C
 * (what had finished was ingested).  The CLI exits with 130. */
#define RUN_INTERRUPTED 130

struct run_slurm {
	int enabled;            /* --slurm */
	long nodes;             /* 0 = let Slurm decide (1) */
	long gpus_per_node;     /* 0 = no --gpus-per-node */
	const char *time;       /* HH:MM:SS or NULL */
	const char *partition;
	const char *account;
	const char *const *sbatch_args; /* passed to sbatch as given */
	size_t nsbatch_args;
};

struct run_common {
	const char *runs_dir;   /* root of run folders; NULL = "runs" */
	const char *system;     /* system name; NULL = the short host name */
	int dry_run;            /* print what would run, run nothing */
	int verbose;            /* echo the tool's output live on stderr */
	double timeout_s;       /* per command (or Slurm job / JUBE follow); 0 = none */
	struct run_slurm slurm;
	int argc;               /* accelbench's own command line, for provenance */
	char *const *argv;
	char *const *job_argv;  /* --slurm: this command line without the Slurm
				 * options, run by the job on the node */
	const char *folder;     /* use this (existing) run folder; NULL = create one */
	int no_ingest;          /* only say where the folder is (inside a job) */
	int node_task;          /* one node's task of a multi-node --slurm job (srun):
				 * work in folder/nodes/<node>/, write part.json */
	int gather;             /* the end of a multi-node job: merge the nodes'
				 * part.json into folder/run.json (run_gather_nodes) */
	FILE *out;              /* what the user reads (stdout) */
	const char *db_path;    /* the database runs go to (named in hints), or NULL */
};

struct run_metric_spec {
	const char *name;
	const char *regex;      /* POSIX extended; the first subexpression (or the
				 * whole match) is the value; the last match wins */
	const char *unit;       /* may be NULL */
};

struct run_exec_opts {
	const char *benchmark;
	const struct run_metric_spec *metrics;
	size_t nmetrics;
	long repeat;            /* >= 1 */
	const char *power;      /* auto|nvml|rocm|hwmon|rapl|none */
	long interval_ms;       /* sampler period */
	const char *const *cmd; /* NULL-terminated */
};

struct run_mlperf_opts {
	const char *benchmark;  /* MLPerf benchmark name (resnet, bert, llama2_70b_lora, ...) */
	long runs;              /* 0 = the benchmark's required count */
	const char *power;      /* auto|nvml|rocm|hwmon|rapl|none (NULL = auto) */
	long interval_ms;       /* sampler period (0 = 100) */
	const char *system_json;/* copied into the submission layout, or NULL */
	const char *submitter;
	const char *const *cmd;
};

struct run_reframe_opts {
	const char *reframe;    /* executable; NULL = "reframe" from PATH */
	const char *const *args;/* passed through */
	size_t nargs;
	const char *power;      /* session sampling: auto|nvml|...; NULL/"none" = off */
	long interval_ms;
};

struct run_jube_opts {
	const char *config;
	const char *const *tags;
	size_t ntags;
	const char *outpath;    /* NULL = the config's own outpath */
	double poll_s;          /* first polling interval (back-off doubles it up to 30 s) */
	const char *power;      /* session sampling: auto|nvml|...; NULL/"none" = off */
	long interval_ms;
};

/* What to ingest after a run: run.json first, then the tool's own files. */
struct run_result {
	char **paths;
	size_t n;
	json_t *provenance;     /* store as params.provenance of every run */
	json_t **path_provenance; /* NULL, or per path: the provenance for the
				 * runs of that file (provenance plus "run": what the
				 * runner knows of that one run), NULL = provenance */
};

void run_result_release(struct run_result *r);

/* Catch Ctrl-C (SIGINT) and SIGTERM for the rest of the process: runners
 * then stop their children cleanly and store what finished. */
void run_signals_install(void);

/*
 * Each returns 0 when every run succeeded, -AB_EDATA when a run failed (it
 * is in run.json as failed, with its reason), -AB_EUSAGE for unusable
 * options, -AB_EIO for file system trouble, or -RUN_INTERRUPTED.  res
 * names what to ingest whatever the status (empty with --dry-run and
 * --no-ingest).  err says why (parts already printed are not repeated).
 */
int run_exec(const struct run_common *c, const struct run_exec_opts *o, struct run_result *res,
	     struct strbuf *err);
int run_mlperf(const struct run_common *c, const struct run_mlperf_opts *o,
	       struct run_result *res, struct strbuf *err);
int run_reframe(const struct run_common *c, const struct run_reframe_opts *o,
		struct run_result *res, struct strbuf *err);
int run_jube(const struct run_common *c, const struct run_jube_opts *o, struct run_result *res,
	     struct strbuf *err);
/*
 * The last step of a multi-node --slurm job (c->folder, c->gather): merge
 * what each node's task wrote (folder/nodes/<node>/part.json) into
 * folder/run.json: node 0's runs and metrics, a run failed when it failed
 * on any node, energy and average power summed over the nodes, every
 * node's power samples, the node list in the provenance.
 */
int run_gather_nodes(const struct run_common *c, struct run_result *res, struct strbuf *err);
/*
 * What a run folder holds, to ingest as the runner would have: its
 * run.json and the result files that manifest names, with its provenance
 * (`accelbench run ingest FOLDER`, for a --slurm job left running).
 * -AB_EIO when folder/run.json cannot be read, -AB_EDATA when it is not a
 * runner's manifest (a node's part.json is not one).
 */
int run_folder_result(const char *folder, struct run_result *res, struct strbuf *err);

#endif
