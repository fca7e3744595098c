/*
 * db.h - the accelbench SQLite database: open/create, migrations, the
 * ingest sink, and the listing queries behind `accelbench ls`.
 *
 * Ownership: db_open() returns a handle the caller releases with
 * db_free() (NULL-safe).  The sink returned by db_ingest_sink() and the
 * sqlite3 handle belong to the db.  JSON values returned by the listing
 * functions are new references the caller must json_decref().
 */
#ifndef AB_DB_H
#define AB_DB_H

#include "core/core.h"
#include <jansson.h>
#include <sqlite3.h>
#include <stdbool.h>

struct db;
struct ingest_sink; /* ingest/ingest.h: the model never needs its insides here */

enum db_open_flags {
	DB_READONLY = 1 << 0,    /* open read-only (sql, ls, reports) */
	DB_MUST_EXIST = 1 << 1   /* do not create a missing database */
};


/*
 * Open (a writer: create) the database.  DB_READONLY never writes: it opens
 * read-only, refuses a file that is not an accelbench database (empty, or
 * with tables of its own) and one whose schema is older or newer than this
 * program's; a database it cannot read in place (WAL on a read-only share)
 * is read as an immutable snapshot (db_is_immutable()).  A writer refuses
 * a foreign file before changing a byte of it and upgrades an older
 * accelbench schema by migrations.  Errors are -AB_EIO.
 */
int db_open(struct db **out, const char *path, unsigned flags, struct strbuf *err);
/* 1 when the database was opened as an immutable snapshot (see db_open). */
int db_is_immutable(const struct db *db);
void db_free(struct db *db);
sqlite3 *db_sqlite(struct db *db);
const char *db_path(const struct db *db);

/* The sink that writes ingested records (one transaction per source). */
struct ingest_sink *db_ingest_sink(struct db *db);

/* What a removal took with it. */
struct db_rm_counts {
	long sources, runs, metrics, power_samples, systems, benchmarks;
};

/* Remove sources named by id or stored path (a path names every source
 * read from it) with their runs, metrics, power samples, and the systems
 * and benchmarks nothing else uses; one transaction, all or nothing.
 * -AB_EDATA when a name matches no source. */
int db_rm_sources(struct db *db, const char *const *specs, size_t nspecs,
		  struct db_rm_counts *c, struct strbuf *err);

/* Filters for listings; NULL fields match everything. */
struct db_filter {
	const char *suite;
	const char *benchmark;   /* benchmark name */
	const char *system;      /* system name or display name */
};

/* Arrays of objects, sorted; field names are a public interface
 * (docs/accelbench.1, "JSON OUTPUT"). */
int db_list_systems(struct db *db, const struct db_filter *f, json_t **out, struct strbuf *err);
int db_list_benchmarks(struct db *db, const struct db_filter *f, json_t **out,
		       struct strbuf *err);
int db_list_runs(struct db *db, const struct db_filter *f, json_t **out, struct strbuf *err);
int db_list_sources(struct db *db, const struct db_filter *f, json_t **out, struct strbuf *err);

/* *out = whether any system is marked "simulated": true in its meta (the
 * demo's systems file does so); for "simulated example data" notices. */
int db_has_simulated(struct db *db, bool *out, struct strbuf *err);

/* ---- streaming runs (runs_stream.c) ---------------------------------- */

enum db_cell_type { DB_CELL_NULL, DB_CELL_INT, DB_CELL_REAL, DB_CELL_TEXT, DB_CELL_JSON };
struct db_cell {
	enum db_cell_type type;
	long long i;             /* INT */
	double d;                /* INT and REAL */
	const char *s;           /* TEXT, JSON (JSON text); valid until the next row */
	size_t len;
};
enum db_runs_flags {
	DB_RUNS_PER_RUN = 0,         /* the fields of `ls runs --json` */
	DB_RUNS_PER_METRIC = 1 << 0  /* one row per run and metric, with sha256 */
};
struct db_runs;
/* Open a cursor over the runs of f (NULL: all), ordered by id; release it
 * with db_runs_close() (NULL-safe).  db_runs_next() returns 1 with *cells
 * (db_runs_columns() of them, borrowed until the next call), 0 at the end,
 * or a negative status. */
int db_runs_open(struct db *db, const struct db_filter *f, unsigned flags, struct db_runs **out,
		 struct strbuf *err);
size_t db_runs_columns(const struct db_runs *c, const char *const **names);
/* The number of rows such a cursor gives. */
int db_runs_count(struct db *db, const struct db_filter *f, unsigned flags, long long *out,
		  struct strbuf *err);
int db_runs_next(struct db_runs *c, const struct db_cell **cells, struct strbuf *err);
void db_runs_close(struct db_runs *c);

enum db_name_kind { DB_NAME_BENCHMARK, DB_NAME_SYSTEM, DB_NAME_METRIC };
/* Whether name is a benchmark (of f->suite), a system (name or display name,
 * with runs of f's suite/benchmark) or a metric (of f's selection).  When it
 * is not and valid is not NULL, valid gets the valid names, ", "-separated,
 * sorted (empty when the selection has none). */
int db_name_check(struct db *db, enum db_name_kind kind, const struct db_filter *f,
		  const char *name, bool *found, struct strbuf *valid, struct strbuf *err);

/* Run a read-only statement; rows as a table of strings (NULL cells empty). */
int db_query_table(struct db *db, const char *sql, struct table **out, struct strbuf *err);

/*
 * One read-only statement, streamed: fn gets the column names first
 * (header = 1, types all SQLITE_TEXT), then each row (cells NULL for SQL
 * NULL, REAL as num_format text, types[i] the SQLite type).  o may be NULL;
 * o->limit > 0 stops after that many rows and sets *more when another row
 * was there; o->timeout_s > 0 interrupts the statement after that long.
 * fn returns 0 to go on or a negative status to stop (err its message).
 * Trailing comments are fine; a second statement, or one that would write
 * (a PRAGMA that only reads a setting is allowed), is -AB_EDATA.
 */
struct db_query_opts {
	long limit;
	double timeout_s;
};
typedef int (*db_row_fn)(void *ctx, int ncols, const char *const *cells, const int *types,
			 int header);
int db_query_each(struct db *db, const char *sql, const struct db_query_opts *o,
		  db_row_fn fn, void *ctx, int *more, struct strbuf *err);

/* ---- normalisation (normalize.c) ------------------------------------ */

struct db_accel {
	const char *vendor;        /* NVIDIA, AMD, Intel, Graphcore, Cerebras, Google, CPU, other */
	const char *accelerator;   /* A100, H100-PCIe, H100, GH200, MI250, MI300X, GC200 IPU, ... */
	long per_node;             /* devices per node as the tools count them, 0 = unknown */
};

/* Map an accelerator or system name ("NVIDIA A100-SXM4-80GB", "JEDI",
 * "MI250") to vendor + accelerator.  Returns 0 and fills *out, or -1 when
 * nothing matches. */
int db_normalize_accel(const char *name, struct db_accel *out);
/* The same for a name known to be an accelerator's: when the table does
 * not know it, the maker its name states (ingest_vendor_of) is the vendor
 * and the name stays as given. */
int db_normalize_accelerator(const char *accelerator, struct db_accel *out);

#endif
