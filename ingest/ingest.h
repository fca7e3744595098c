/*
 * ingest.h - the public interface of ingest/: find input files, detect
 * their format from content, stream-parse them into normalised records.
 *
 * Parsers never touch the database.  They hand records to a struct
 * ingest_sink (model/db implements one that writes SQLite, one transaction
 * per source file; --dry-run uses a counting sink).  A parser either
 * succeeds for the whole file or returns an error with "file:line: what";
 * the driver then rolls the sink back, so nothing partial lands.
 *
 * Ownership: every pointer in the record structs is borrowed for the
 * duration of the sink call only; a sink copies what it keeps.
 */
#ifndef AB_INGEST_H
#define AB_INGEST_H

#include "core/core.h"
#include <jansson.h>

/* ---- records ------------------------------------------------------- */

struct ingest_system {
	const char *name;          /* required; the tool's name for it (unique key) */
	const char *display_name;  /* optional pretty name */
	const char *vendor;        /* optional; normalised from accelerator/name when NULL */
	const char *accelerator;   /* optional raw or normalised accelerator name */
	long accelerators_per_node;/* 0 = unknown */
	const char *host_cpu;
	const char *interconnect;
	const char *site;
	double tdp_w;              /* 0 = unknown */
	json_t *meta;              /* optional JSON object (borrowed) */
	const char *meta_json;     /* or meta already as compact JSON text (the ingest
				    * pipeline sets it; a parser may, instead of meta) */
};

struct ingest_metric {
	const char *name;          /* canonical name: throughput, energy, avg_power, ... */
	double value;              /* finite */
	const char *unit;          /* canonical unit: tokens/s, samples/s, images/s, Wh, W, s, min */
	json_t *meta;              /* optional: boundary, reference, thresholds, result */
};

enum ingest_run_status {
	RUN_OK = 0,
	RUN_FAILED,
	RUN_ABORTED,
	RUN_INVALID
};

struct ingest_run {
	long line;                 /* line of the source file this run comes from */
	struct ingest_system system;
	const char *suite;         /* caraml, mlperf-training, mlperf-inference, reframe, ... */
	const char *benchmark;     /* e.g. llm-gpt-800M, resnet, ResNet50CPUCheck */
	const char *bench_metric;  /* headline metric name of the benchmark */
	const char *bench_unit;    /* its unit */
	int lower_is_better;       /* headline direction */
	const char *job_id;
	const char *started;       /* ISO 8601 UTC "2024-08-23T08:02:11Z" or NULL */
	const char *finished;
	enum ingest_run_status status;
	long nodes, devices, global_batch, local_batch; /* 0 = unknown */
	const char *precision;
	const char *framework;
	json_t *params;            /* optional JSON object: everything else the tool said */
	const char *params_json;   /* or params as compact JSON text (the pipeline's, or a
				    * parser's instead of params: the bytes json_dumps
				    * (JSON_COMPACT | JSON_ENSURE_ASCII) would give) */
	/* optional, with params_json: the offset of the ',' or the closing '}'
	 * after each of its "key":value pairs, from the writer of the text
	 * (saves the sink finding them again); NULL = not given */
	const uint32_t *params_pair_ends;
	size_t params_npairs;
	size_t params_json_len;    /* optional: strlen(params_json), 0 = not given */
	/* or params already split as the sink stores them (pull: the store's
	 * split, kept as it is): the pairs runs share and the run's own, each
	 * a compact JSON object text or NULL; used when params_presplit */
	int params_presplit;
	const char *params_shared, *params_own;
	const char *excluded_reason; /* why the run is failed/invalid, NULL if ok */
	const char *dedupe_key;    /* optional: the same key from any source is stored once */
	const struct ingest_metric *metrics;
	size_t nmetrics;
	/* or, parallel to metrics, each meta as compact JSON text or NULL (the
	 * pipeline's, or a parser's instead of metrics[i].meta) */
	const char *const *metrics_meta_json;
	/* what the sink's prepare() made of this run (NULL: nothing; the sink
	 * then works it out itself) */
	const void *prepared;
	size_t prepared_len;
};

struct ingest_source {
	const char *path;
	const char *sha256;        /* lowercase hex */
	const char *format;
	uint64_t size;
	int replace;               /* ingest --replace: drop what this source gave before */
	/* NULL: the bytes alone identify the source (the same bytes anywhere
	 * are "already ingested").  A results layout: the path inside the
	 * layout, so the same bytes at two places are two sources. */
	const char *identity;
	/* when and by which version the bytes were first ingested (a source
	 * pulled from PostgreSQL keeps them); NULL: now, this version */
	const char *ingested_at, *tool_version;
};

/* ---- the sink ------------------------------------------------------- */

struct ingest_sink {
	void *self;
	/* Start a source; returns 1 when those bytes were ingested before (skip),
	 * or, with src->replace, 2 when the earlier copy (same bytes, or the
	 * same path) was removed to be read again; 3 only for a source without
	 * its digest (see digest()). */
	int (*begin)(void *self, const struct ingest_source *src, struct strbuf *err);
	/* Add a run; *run_id identifies it for power(); returns 1 if a run with
	 * the same dedupe_key already exists (not added, *run_id = 0). */
	int (*run)(void *self, const struct ingest_run *run, int64_t *run_id, struct strbuf *err);
	/* Add one power sample to a run added in this source. */
	int (*power)(void *self, int64_t run_id, const char *device, double t, double watts,
		     struct strbuf *err);
	/* Describe a system without a run (a systems file); may be NULL in
	 * sinks that do not keep systems. */
	int (*system)(void *self, const struct ingest_system *sys, struct strbuf *err);
	/* Commit (commit != 0) or roll back everything since begin(). */
	int (*end)(void *self, int commit, struct strbuf *err);
	/* Optional: 1 when begin() would skip src as already ingested, 0 when
	 * not (or unknown).  Callable from another thread than the one that
	 * writes (its own read connection): the ingest pipeline asks before
	 * parsing a file the writer thread will store. */
	int (*known)(void *self, const struct ingest_source *src);
	/* Optional: the part of storing a run that needs nothing from the
	 * database (JSON text, key hashes...), appended to out as bytes that
	 * run() reads back from run->prepared.  The ingest pipeline calls it
	 * on the parsing thread, runs in file order, never two at once, while
	 * the writing thread stores earlier runs; so the writer, the slower
	 * side, has less to do.  Same result as run() without it. */
	void (*prepare)(void *self, const struct ingest_run *run, struct strbuf *out);
	/* Optional: run() for n runs in a row (the same result as n calls;
	 * the ingest pipeline's writer has them at hand).  ids[i] and rcs[i]
	 * (0 added, 1 duplicate) are run()'s for runs[i]; the runs must stay
	 * valid until it returns.  On an error, rcs[] of the failed run and
	 * those after it are -1. */
	int (*run_many)(void *self, const struct ingest_run *const runs[], size_t n, int64_t ids[],
			int rcs[], struct strbuf *err);
	/* Optional: hold(self, 1) before a series of sources, hold(self, 0)
	 * after the last end(); in between the sink may keep connection
	 * settings its transactions need (SQLite: foreign key checks off)
	 * instead of switching them for every source.  Called on the thread
	 * that owns the sink while no source is open. */
	void (*hold)(void *self, int on);
	/* Optional, while held (group commit): group(self, 1, err) lets the
	 * sources begun from then on share one transaction, each source in a
	 * savepoint of its own, so end(self, 0) still rolls back that source
	 * alone and end(self, 1) keeps it in the group; group(self, 0, err)
	 * commits the group (grouping goes on with the next begin());
	 * group(self, -1, err) rolls it back and stops grouping.  Nothing of a
	 * group is durable before group(self, 0) returns 0.  An error from
	 * begin, end or the commit ends the group rolled back (none of its
	 * sources is stored); after an error from run, power or system the
	 * caller rolls it back (SQLite may have already).  hold(self, 0) rolls
	 * back a group not committed by then.  Called between sources, on the
	 * thread that writes. */
	int (*group)(void *self, int op, struct strbuf *err);
	/* Optional, while held: begin() with src->sha256 NULL (not known yet)
	 * returns 3 when the sink needs the digest first (the database held a
	 * source as the series began, or src->replace); otherwise the source is
	 * begun without it, and digest() gives it before the source's end():
	 * it returns 1 when those bytes were stored before (by this series),
	 * and the caller then ends the source with end(self, 0). */
	int (*digest)(void *self, const char *sha256, uint64_t size, struct strbuf *err);
	/* Optional, with prepare(): what prepare() left of runs[0..n) for
	 * later (the dedupe keys' hashes) done for all n at once, into their
	 * prepared bytes prepared[i] (side by side in vector lanes).  The
	 * ingest pipeline calls it on the parsing thread before handing the
	 * runs on; run() does what is left undone itself. */
	void (*prepare_keys)(void *self, const struct ingest_run *const runs[],
			     void *const prepared[], size_t n);
};

/* A sink that only counts (for --dry-run and tests). */
struct ingest_count_sink {
	struct ingest_sink sink;
	long runs, metrics, power_samples, duplicates;
};
void ingest_count_sink_init(struct ingest_count_sink *cs);

/* ---- options, events, results ------------------------------------- */

enum ingest_flags {
	INGEST_STRICT = 1 << 0,   /* stop at the first rejected file */
	INGEST_DRY_RUN = 1 << 1,  /* parse only (caller passes a counting sink) */
	INGEST_REPLACE = 1 << 2   /* re-read sources ingested before, replacing their runs */
};

enum ingest_event {
	INGEST_EV_INGESTED,       /* msg: summary of what was added */
	INGEST_EV_SKIPPED,        /* already ingested */
	INGEST_EV_COMPANION,      /* read as part of another file; not a source itself */
	INGEST_EV_UNKNOWN,        /* format not recognised (directory walk: ignored) */
	INGEST_EV_REJECTED,       /* msg: "file:line: what" */
	INGEST_EV_WARNING,        /* msg: "file[:line]: what" (file still ingested) */
	INGEST_EV_PROGRESS        /* periodic; see ingest_totals */
};

struct ingest_totals {
	long files_seen, ingested, skipped, rejected, unknown, companion;
	long runs, metrics, power_samples, duplicates, warnings, systems;
	long replaced;             /* sources removed and read again (--replace) */
	uint64_t bytes_done, bytes_total;
};

struct ingest_opts {
	unsigned flags;
	const char *format;        /* force a format by name, or NULL to detect */
	const char *const *roots;  /* directories being ingested (energy-file lookup) */
	size_t nroots;
	const char *perflog_format;/* ReFrame site format option, or NULL */
	json_t *provenance;        /* runners: stored as params.provenance of every run */
	void (*notify)(void *ctx, enum ingest_event ev, const char *path, const char *msg,
		       const struct ingest_totals *totals);
	void *notify_ctx;
};

/*
 * Ingest files and directories (recursive, sorted byte-wise, hidden
 * entries skipped).  Returns 0 when every file was ingested, skipped or
 * ignored; -AB_EDATA when any file was rejected (all good files still
 * land unless INGEST_STRICT); -AB_EIO on I/O failure of the walk itself.
 */
int ingest_paths(const char *const *paths, size_t npaths, const struct ingest_opts *opts,
		 struct ingest_sink *sink, struct ingest_totals *totals, struct strbuf *err);

/*
 * The vendor an accelerator name states ("NVIDIA RTX A5000" -> NVIDIA, "AMD
 * Radeon RX 7900 XTX" -> AMD), from the maker's brand words; NULL when it
 * names none or names a CPU.  Returns a static string.  The model's
 * accelerator table falls back on it, so a record of any parser whose
 * accelerator the table does not know still gets its maker as vendor.
 */
const char *ingest_vendor_of(const char *accelerator);

/* Name of the i-th known format, NULL past the end (for --format and help). */
const char *ingest_format_name(size_t i);

#endif
