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
	int runs_omitted;                /* more runs than max_runs: none loaded */
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
 * at most max_runs of them (0: never).  Returns 0 or -AB_EIO. */
int db_inventory_load(struct db *db, const struct db_inv_query *q, size_t max_runs,
		      struct db_inventory *out, struct strbuf *err);
void db_inventory_release(struct db_inventory *inv);

#endif
