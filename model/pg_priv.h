/*
 * pg_priv.h - internals shared by model/pg*.c.
 *
 * pg.c        connection, errors, migrations, `pg init`, COPY text encoding
 * pg_push.c   push: reserved ids, binary COPY into the central tables, two lanes
 * pg_pull.c   pull: COPY out, decoding, handing records to pg_local.c
 * pg_local.c  the only file that reads or writes the local SQLite database
 *             for push/pull (through the public names of docs/schema.md and
 *             the ingest sink), so a change of the local schema touches it alone
 */
#ifndef AB_PG_PRIV_H
#define AB_PG_PRIV_H

#include "pg.h"
#include "ingest/ingest.h"
#include "pg_libpq.h" /* libpq-fe.h, calls through the loaded table */
#include <time.h>

struct pg {
	PGconn *conn;
	struct strbuf url;   /* kept to open more connections (pull); never printed */
};

/* "what: server message" (first line of libpq's message); returns -AB_EIO. */
int pg_fail(struct pg *pg, struct strbuf *err, const char *what);
/* Same from a failed result, with its SQLSTATE kept in *sqlstate (6 bytes). */
int pg_fail_res(PGresult *res, struct strbuf *err, const char *what, char *sqlstate);
/* Run statements without results; returns 0 or -AB_EIO. */
int pg_exec(struct pg *pg, const char *sql, struct strbuf *err);
/* Make sure the central schema exists and is one this binary knows;
 * upgrade an older one.  For push and pull. */
int pg_check_schema(struct pg *pg, struct strbuf *err);

/* ---- COPY text format ---------------------------------------------- */

/*
 * Rows built in a buffer and handed to flush() when it grows past
 * PG_COPY_CHUNK (and at the end by the caller).  Text values are escaped
 * as COPY's text format wants (backslash, tab, newline, carriage return).
 */
#define PG_COPY_CHUNK (1u << 20)

struct pg_copy {
	struct strbuf buf;
	int binary;                /* COPY ... (FORMAT binary): exact numbers, no escapes */
	int ncols;                 /* columns in the current row */
	size_t row_start;          /* binary: where the row's column count goes */
	long fixed;                /* bytes that were not UTF-8, sent converted (see pg_utf8_add) */
	int (*flush)(void *ctx, struct pg_copy *cp, struct strbuf *err);
	void *ctx;
	long rows;
};

/*
 * The store holds UTF-8 text (PostgreSQL refuses anything else), the local
 * database whatever bytes a file held.  pg_utf8_add() appends s to sb with
 * every byte that does not start a valid UTF-8 sequence read as Latin-1
 * (0xE9 -> U+00E9 "é") and NUL as U+FFFD: deterministic, valid text stays
 * byte for byte.  Returns the number of bytes converted.
 */
size_t pg_utf8_add(struct strbuf *sb, const char *s, size_t n);

/* binary: the header before the first row and the trailer after the last */
void pg_copy_begin(struct pg_copy *cp);
void pg_copy_finish(struct pg_copy *cp);
void pg_copy_text(struct pg_copy *cp, const char *s);
void pg_copy_textn(struct pg_copy *cp, const char *s, size_t n);
void pg_copy_int(struct pg_copy *cp, int64_t v);   /* bigint */
void pg_copy_int4(struct pg_copy *cp, int32_t v);  /* integer */
void pg_copy_double(struct pg_copy *cp, double v);
void pg_copy_null(struct pg_copy *cp);
void pg_copy_uuid(struct pg_copy *cp, const void *bytes16); /* binary only */
/* End a row; flushes when the buffer is large.  Returns 0 or negative. */
int pg_copy_end_row(struct pg_copy *cp, struct strbuf *err);

/* ---- the local side (pg_local.c) ----------------------------------- */

struct pg_local;

struct pg_local_source {
	int64_t id;
	char *path, *sha256, *identity, *format, *ingested_at, *tool_version;
	int64_t size;
	long nruns;
	int64_t max_seq;           /* largest run seq (0: no runs) */
};

int pg_local_open(struct pg_local **out, struct db *db, struct strbuf *err);
/* pull: fewer WAL checkpoints while on (see pg_local.c) */
int pg_local_pull_mode(struct pg_local *l, int on, struct strbuf *err);
void pg_local_free(struct pg_local *l);

/* push: one read transaction around everything read */
int pg_local_read_begin(struct pg_local *l, struct strbuf *err);
void pg_local_read_end(struct pg_local *l);
/* Every local source in id order; free with pg_local_sources_free(). */
int pg_local_sources(struct pg_local *l, struct pg_local_source **out, size_t *n,
		     struct strbuf *err);
void pg_local_sources_free(struct pg_local_source *v, size_t n);

/* COPY rows of every local system, benchmark and param set for the
 * staging tables (column order: see pg_push.c). */
int pg_local_copy_systems(struct pg_local *l, struct pg_copy *cp, struct strbuf *err);
int pg_local_copy_benchmarks(struct pg_local *l, struct pg_copy *cp, struct strbuf *err);
int pg_local_copy_param_sets(struct pg_local *l, struct pg_copy *cp, struct strbuf *err);
int pg_local_copy_metric_kinds(struct pg_local *l, struct pg_copy *cp, struct strbuf *err);
/* Every local system (a = name, b = the systems file that described it
 * (meta.described) or NULL) or benchmark (a = suite, b = name) with its
 * local id. */
int pg_local_dims(struct pg_local *l, int benchmarks,
		  int (*fn)(void *ctx, int benchmarks, int64_t id, const char *a, const char *b,
			    struct strbuf *err),
		  void *ctx, struct strbuf *err);

/* How a source's rows go straight into the central tables. */
struct pg_local_ids {
	int64_t base;              /* the source's store id; its runs are base + seq */
	const int64_t *sys, *bench, *set, *kind; /* local id -> store id (0: none) */
	size_t nsys, nbench, nset, nkind;
	const unsigned char *skip; /* skip[seq]: the store holds that run already; or NULL */
	size_t nskip;
	int by_key;                /* runs in dedupe-key order (pushers lock keys alike) */
};

/* Binary COPY rows for accelbench.run (id, source_id, seq, line, system_id,
 * benchmark_id, job_id, started, finished, status, nodes, devices,
 * global_batch, local_batch, precision, framework, set_id, params,
 * excluded_reason, dedupe_key), .metric_data (run_id, kind_id, value)
 * and .power_sample (run_id, i, device, t, watts) of one source, without
 * the runs ids->skip marks. */
int pg_local_copy_final_runs(struct pg_local *l, int64_t source_id,
			     const struct pg_local_ids *ids, struct pg_copy *cp, struct strbuf *err);
int pg_local_copy_final_metrics(struct pg_local *l, int64_t source_id,
				const struct pg_local_ids *ids, struct pg_copy *cp,
				struct strbuf *err);
int pg_local_copy_final_power(struct pg_local *l, int64_t source_id,
			      const struct pg_local_ids *ids, struct pg_copy *cp, struct strbuf *err);
/* (seq, name, value) of every metric of a source's runs. */
int pg_local_metrics(struct pg_local *l, int64_t source_id,
		     int (*fn)(void *ctx, int64_t seq, const char *name, double value,
			       struct strbuf *err),
		     void *ctx, struct strbuf *err);
/* (seq, line, dedupe key as 32 hex digits) of every run of a source that has a key. */
int pg_local_run_keys(struct pg_local *l, int64_t source_id,
		      int (*fn)(void *ctx, int64_t seq, int64_t line, const char *key,
				struct strbuf *err),
		      void *ctx, struct strbuf *err);

/* pull: records from the store, written through the ingest sink */
int pg_local_has_source(struct pg_local *l, const char *sha256, const char *identity, int *has,
			struct strbuf *err);
struct ingest_sink *pg_local_sink(struct pg_local *l);

/* Call prog (may be NULL) with t: at most every 200 ms while a transfer
 * runs (last holds the previous call's time), always when final. */
void pg_progress_report(const struct pg_progress *prog, struct timespec *last,
			const struct pg_totals *t, int final);

#endif
