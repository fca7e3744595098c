/*
 * inventory.h - what a report lists besides statistics: the systems with
 * the facts known about them and where each came from, the sources with
 * one provenance hash over their contents, and every run with its status,
 * headline value and position in its source file.
 *
 * Ownership: db_inventory_load() fills a caller-owned struct; every string
 * and array in it is owned by it and freed by db_inventory_release().
 */
#ifndef AB_INVENTORY_H
#define AB_INVENTORY_H

#include "model/dataset.h"

struct db_inv_system {
	char *name, *display_name, *vendor, *accelerator;
	char *host_cpu, *interconnect, *site;   /* NULL when unknown */
	char *frameworks;       /* distinct run frameworks, ", "-joined, NULL if none */
	char *described_by;     /* systems file that described it, NULL if none */
	char *first_source;     /* path of the first source with a run of it */
	/* where each fact came from (per-fact provenance); NULL when unknown */
	char *src_system;       /* vendor, accelerator, per node, host CPU and
				 * interconnect: the systems file, an MLPerf system
				 * description (systems/<name>.json beside the
				 * results), or else first_source */
	char *src_nodes;        /* the source of a run at max_nodes */
	char *src_framework;    /* the first source of a run naming a framework */
	size_t nsources;        /* distinct source files with its runs */
	long per_node;          /* accelerators per node, 0 unknown */
	long max_nodes, max_devices;  /* largest configuration run, 0 unknown */
	double tdp_w;           /* NAN when unknown */
	int simulated;          /* meta.simulated is true */
	size_t runs;
};

struct db_inv_run {
	int64_t id;
	char *suite, *benchmark, *system, *status, *job_id, *precision;
	char *source, *sha256, *excluded_reason, *unit;   /* NULL when unknown */
	long line, nodes, devices, global_batch;          /* 0 unknown */
	double value;                                     /* headline metric, NAN if none */
};

/* Runs of one configuration from one source file (the appendix of a
 * database too large to list every run). */
struct db_inv_cfgsrc {
	char *suite, *benchmark, *system, *precision;     /* precision NULL: unknown */
	long nodes, devices, global_batch;                /* 0 unknown */
	char *source, *sha256;
	size_t n, n_not_ok;
	long line_min, line_max;                          /* 0 unknown */
	int64_t id_min, id_max;
};

struct db_inv_bench {
	char *suite, *name;
};

struct db_inventory {
	struct db_inv_bench *benchmarks; /* ordered by suite, name */
	size_t nbenchmarks;
	struct db_inv_system *systems;   /* ordered by vendor, name */
	size_t nsystems;
	size_t nsources;
	char provenance[65];  /* sha256 hex over the sorted sha256s of the sources */
	struct db_inv_run *runs;         /* ordered by suite, benchmark, system, id */
	size_t nruns;
	int runs_omitted;                /* more runs than max_runs: none loaded, but: */
	struct db_inv_cfgsrc *cfgsrc;    /* configuration x source groups (by suite,
					  * benchmark, system, shape, source) */
	size_t ncfgsrc;
	struct db_inv_run *bad;          /* every run not ok, up to max_runs of them */
	size_t nbad;
	int bad_omitted;                 /* more than max_runs runs were not ok */
	size_t n_ok, n_failed, n_aborted, n_invalid, n_excluded;
	int simulated;                   /* any listed system is simulated */
};

/* Selection by lists of names; an empty list matches everything. */
struct db_inv_query {
	const char *const *suites;
	size_t nsuites;
	const char *const *benchmarks;
	size_t nbenchmarks;
	const char *const *systems;     /* name or display name */
	size_t nsystems;
};

/* Everything q selects (NULL: all).  Runs are loaded only when there are
 * at most max_runs of them (0: never); above, the configuration x source
 * groups and the runs that were not ok (again up to max_runs).  Returns 0
 * or -AB_EIO. */
int db_inventory_load(struct db *db, const struct db_inv_query *q, size_t max_runs,
		      struct db_inventory *out, struct strbuf *err);

/* Whether a system of this name (not display name) has runs in the suites
 * q selects (q->suites only; none: any): 1, 0, or a negative error.  One
 * index probe per benchmark, not an inventory. */
int db_system_has_runs(struct db *db, const struct db_inv_query *q, const char *name,
		       struct strbuf *err);
/* Whether any run is in the suites q selects: 1, 0 or a negative error. */
int db_suites_have_runs(struct db *db, const struct db_inv_query *q, struct strbuf *err);
void db_inventory_release(struct db_inventory *inv);

/* ---- ReFrame references (per run) ----------------------------------- */

/* One run's value of a metric with the reference and thresholds ReFrame
 * checked it against (the metric's meta). */
struct db_ref_run {
	int64_t id;
	char *system, *status, *job_id;   /* job_id NULL when unknown */
	double value;
	double reference, lower_bound, upper_bound;   /* NAN when not given */
	double lower_thres, upper_thres;              /* fractions, NAN when none */
	char *result;                     /* "pass", "fail"; NULL when not computed */
};

/* Runs of suite/benchmark whose metric (NULL: the headline) carries a
 * reference, by system and id.  0 or -AB_EIO; *out owned by the caller
 * (db_ref_runs_release). */
int db_ref_runs_load(struct db *db, const char *suite, const char *benchmark,
		     const char *metric, struct db_ref_run **out, size_t *n, struct strbuf *err);
void db_ref_runs_release(struct db_ref_run *v, size_t n);

/* ---- power traces against their runs (clock skew) -------------------- */

/*
 * A run with power samples, checked against its own window: a device's
 * trace is off when it starts more than the tolerance after the run
 * started or ends before the run started (or more than the tolerance
 * before it finished); the tolerance is 120 s or a tenth of the run,
 * whichever is larger.  An off trace means the power meter's clock and the
 * benchmark's disagree (often by whole hours: a time zone), so energy
 * integrated over the run window is wrong.  Runs without a start time
 * cannot be checked (checked = 0).
 */
struct db_trace_window {
	int64_t id;
	char *suite, *benchmark, *system;
	double started, finished;         /* Unix seconds, NAN when unknown */
	size_t ndev;                      /* devices with samples */
	int checked;                      /* the run has a start time */
	size_t noff;                      /* devices whose trace is off */
	char *off_device;                 /* the first of them, NULL when none */
	double offset;                    /* its offset in seconds: start of its trace
					   * minus the run's start when late, end of its
					   * trace minus the run's end (or start) when early */
};

/* Every run q selects that has power samples, in suite, benchmark,
 * system, id order.  0 or -AB_EIO. */
int db_trace_windows_load(struct db *db, const struct db_inv_query *q,
			  struct db_trace_window **out, size_t *n, struct strbuf *err);
void db_trace_windows_release(struct db_trace_window *v, size_t n);

#endif
