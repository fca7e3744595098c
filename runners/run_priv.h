/*
 * run_priv.h - what the runners share (runners/ only): Ctrl-C handling,
 * run folders, child processes with captured output, provenance, the
 * accelbench-run manifest, handing files to ingest, Slurm, and the power
 * sampler.
 *
 * Ownership: json_t results are new references (json_decref); strbufs are
 * the caller's; a struct power_sampler is released with power_free().
 */
#ifndef AB_RUN_PRIV_H
#define AB_RUN_PRIV_H

#include "runners.h"
#include <jansson.h>
#include <sys/types.h>

/* ---- Ctrl-C (proc.c) ------------------------------------------------ */

/* run_signals_install() (runners.h) sets a flag the runners poll;
 * children get the signal forwarded. */
int run_interrupted(void);
/* Sleep up to ms milliseconds, returning early on an interrupt. */
void run_sleep_ms(long ms);

/* ---- time and places (proc.c) -------------------------------------- */

double run_now(void);                        /* Unix epoch seconds */
void run_iso(struct strbuf *out, double t);  /* "2026-11-25T14:22:53Z" */
void run_hostname(struct strbuf *out);       /* short host name */
/* Create c->runs_dir/<name>/<UTC timestamp>[-N]/ (never an existing one). */
int run_folder_create(const struct run_common *c, const char *name, struct strbuf *out,
		      struct strbuf *err);
/* This node's name inside a Slurm job (SLURMD_NODENAME), else the short
 * host name. */
void run_node_name(struct strbuf *out);
/* c->folder when set (created if missing; with c->node_task its
 * nodes/<node>/ subfolder), else run_folder_create(). */
int run_folder_use(const struct run_common *c, const char *name, struct strbuf *out,
		   struct strbuf *err);
/* The last lines (at most max_bytes) of a file, "" if unreadable. */
void run_output_tail(struct strbuf *out, const char *path, int lines, size_t max_bytes);
/* Print argv shell-quoted on fp (for --dry-run and messages). */
void run_print_argv(FILE *fp, const char *const *argv);
void run_quote_argv(struct strbuf *out, const char *const *argv);
/* Find an executable in PATH (or a path with '/'); 1 found, 0 not. */
int run_which(const char *name, struct strbuf *out);

/* ---- child processes (proc.c) --------------------------------------- */

struct run_proc_opts {
	const char *const *argv;     /* NULL-terminated */
	const char *cwd;             /* NULL = ours */
	const char *out_path;        /* stdout+stderr go here (appended); NULL = ours */
	const char *const *env;      /* "K=V" to add, NULL-terminated, or NULL */
	int tee;                     /* also echo the output on our stderr */
	int no_forward;              /* let it finish on Ctrl-C (short bookkeeping
				      * commands: jube status/continue/result) */
	double timeout_s;            /* 0 = none */
};

struct run_proc_result {
	int exit_status;             /* exit code, or 128+signal */
	int signaled;
	int interrupted;             /* we forwarded Ctrl-C */
	int timed_out;
	int not_started;             /* exec failed (exit 127, reason in output) */
	double t_start, t_end;
};

/* Run one command in its own process group.  Returns 0 whatever the exit
 * status (see res), <0 when it could not be started at all. */
int run_proc(const struct run_proc_opts *o, struct run_proc_result *res, struct strbuf *err);
/* A one-line reason for a result that is not a clean exit 0. */
void run_proc_reason(struct strbuf *out, const struct run_proc_result *r, const char *what);

/* ---- provenance, manifest, ingest (common.c) ----------------------- */

/* {"runner", "command", "accelbench_command", "hosts", "started", "finished",
 *  "accelbench_version", ...}; started/finished/exit set by the caller. */
json_t *run_provenance_new(const struct run_common *c, const char *runner,
			   const char *const *tool_argv);

/*
 * The manifest: {"accelbench_run": 1, "suite", "benchmark", "system",
 * "metric", "unit", "lower_is_better", "provenance", "runs": [...]}.
 * Each run: {"seq", "status", "reason", "job_id", "started", "finished",
 * "exit_status", "metrics": [{"name","value","unit","meta"}], "params",
 * "power_csv", "output", "output_tail"}.
 */
json_t *run_manifest_new(const char *suite, const char *benchmark, const char *system,
			 const char *metric, const char *unit, int lower_is_better,
			 json_t *provenance /* stolen */);
/* Append a run entry (stolen) to the manifest. */
void run_manifest_add(json_t *manifest, json_t *run);
/* A failed/aborted run entry with its reason and output tail. */
json_t *run_entry_failed(long seq, const char *status, const char *reason,
			 const char *output_path, double t0, double t1);
/* Write folder/run.json atomically. */
int run_manifest_write(const char *folder, json_t *manifest, struct strbuf *path,
		       struct strbuf *err);

/* Fill res from a manifest written into folder: run.json, then what its
 * "ingest" list names (relative to folder), and prov (new reference). */
void run_result_set(struct run_result *res, const char *folder, json_t *manifest,
		    json_t *prov);

/* ---- Slurm (slurm.c) ------------------------------------------------ */

struct run_slurm_job {
	char *job_id;
	char *state;                 /* final sacct/squeue state: COMPLETED, FAILED, ... */
	int exit_status;             /* from sacct ExitCode, -1 unknown */
	double t_start, t_end;
	char *nodes;                 /* NodeList, or NULL */
	const char *state_from;      /* "sacct", "sacct --completion", "scontrol" or NULL */
	int interrupted;             /* Ctrl-C while following */
	int cancelled;               /* we ran scancel */
};

void run_slurm_job_release(struct run_slurm_job *j);
/*
 * Write folder/job.sbatch running body (shell text) with #SBATCH lines
 * from c->slurm, output to folder/job.out, submit it with sbatch
 * --parsable, follow it with squeue/sacct until it ends (or the timeout,
 * or Ctrl-C: asks whether to scancel when stdin is a terminal; a job left
 * running is named with how to follow it and the `accelbench run ingest
 * FOLDER` that ingests it later).  Returns 0 when it was followed to the
 * end (any state), <0 when it could not be submitted (err holds sbatch's
 * message).  With c->dry_run, prints the script and the sbatch command
 * instead.
 */
int run_slurm(const struct run_common *c, const char *folder, const char *body,
	      struct run_slurm_job *job, struct strbuf *err);
/* The sbatch script (for --dry-run and tests). */
void run_slurm_script(struct strbuf *out, const struct run_common *c, const char *folder,
		      const char *body);

/*
 * --slurm for any runner: the job runs this same accelbench on the node
 * (c->job_argv with --folder F --no-ingest), we follow it, then ingest
 * what F/run.json lists.  A job that died before writing run.json, or
 * that sbatch refused, lands as a failed run of suite/benchmark with the
 * job id, its state and the tail of its output.
 */
int run_via_slurm(const struct run_common *c, const char *suite, const char *benchmark,
		  const char *metric, const char *unit, int lower_is_better,
		  struct run_result *res, struct strbuf *err);
/* After a local run: write run.json and fill res (unless c->no_ingest,
 * which prints the folder instead). */
int run_finish(const struct run_common *c, const char *folder, json_t *manifest,
	       struct run_result *res, struct strbuf *err);

/* ---- power sampler (power.c + backends) ---------------------------- */

struct power_sampler;

/*
 * Open the backends mode asks for (auto = every one present).  Returns 0,
 * or -AB_EUSAGE when an explicitly asked backend is unavailable (err says
 * why).  With "none" (or nothing found in auto) the sampler has no device
 * and start/stop do nothing.
 */
int power_open(struct power_sampler **out, const char *mode, struct strbuf *err);
void power_free(struct power_sampler *s);
size_t power_ndevices(const struct power_sampler *s);
/* What the sampler learned: backends, driver versions, devices (new ref). */
json_t *power_info(const struct power_sampler *s);
/* One line for the user: "power: nvml (2 GPUs), rapl (1 package)" */
void power_describe(const struct power_sampler *s, struct strbuf *out);
/* Also write the next power_start..power_stop's readings (the boundary's
 * sum, W) as an MLPerf training power log at path: :::MLLOG
 * power_measurement_start, power_reading..., power_measurement_stop, the
 * power/result_N/node_<node>.txt the MLPerf parser reads.  NULL = none. */
void power_set_mllog(struct power_sampler *s, const char *path);
/* Start sampling every interval_ms into csv_path (jpwr layout). */
int power_start(struct power_sampler *s, long interval_ms, const char *csv_path,
		struct strbuf *err);

struct power_result {
	long samples;                /* rows */
	double t_start, t_end;
	double wh;                   /* energy at the boundary */
	double avg_w, peak_w;
	const char *boundary;        /* "gpu", "module", "cpu", "node" or NULL */
	const char *source;          /* "counter" or "integrated" */
	json_t *per_device;          /* {"column": Wh} (new ref) */
};

/* Stop, finish the CSV (atomic rename) and the energy file next to it. */
int power_stop(struct power_sampler *s, struct power_result *r, const char *energy_path,
	       struct strbuf *err);
void power_result_release(struct power_result *r);

/* ---- sampling a whole tool session (common.c) ---------------------- */

/*
 * run reframe and run jube with --power: their tools run many tests, so
 * the sampler covers the session as a whole (power.<tag>.<host>.csv and
 * energy.<tag>.<host>.csv in the run folder), recorded in the provenance
 * of every run it ingests (provenance.power_session); it is not
 * attributed to single tests.
 */
struct run_session_power {
	struct power_sampler *ps;
	struct strbuf csv, energy;
	int on;
};

/* mode NULL or "none": nothing.  Prints the "power: ..." line on out. */
int run_session_power_start(struct run_session_power *sp, const char *mode, long interval_ms,
			    const char *folder, const char *tag, FILE *out, struct strbuf *err);
/* Stop; add provenance.power (devices) and provenance.power_session. */
int run_session_power_stop(struct run_session_power *sp, json_t *prov, struct strbuf *err);
void run_session_power_release(struct run_session_power *sp);

#endif
