/*
 * pg_local.c - the local SQLite side of push and pull, and the only file
 * of model/pg*.c that touches it.  Push reads source, system, benchmark
 * and power_sample by their public names and runs, metrics and param sets
 * from their storage tables (docs/schema.md, "Storage"), inside one read
 * transaction with prepared statements; pull writes through the ingest
 * sink.
 */
#include "core/compat.h"
#include "pg_priv.h"
#include "db_priv.h"

enum {
	LS_SOURCES,
	LS_SYSTEMS,
	LS_BENCHMARKS,
	LS_SETS,
	LS_RUNS,
	LS_RUNS_BY_KEY,
	LS_KINDS,
	LS_METRICS,
	LS_METRIC_VALUES,
	LS_KIND_NAME,
	LS_POWER,
	LS_KEYS,
	LS_HAS_SOURCE,
	LS_RUN_COUNTS,
	LS_SYSTEM_IDS,
	LS_BENCH_IDS,
	LS_COUNT
};

/*
 * Runs, metrics and param sets are read from their storage tables
 * (docs/schema.md, "Storage"), not through the views run and metric: a
 * run's params go to the store as the local database keeps them (the
 * shared set's id, the run's own pairs), its status as the code, its key
 * as the 16 bytes.
 */
#define RUN_COLS "seq, line, system_id, benchmark_id, job_id, started, finished, status," \
		 " nodes, devices, global_batch, local_batch, precision, framework, set_id," \
		 " params, excluded_reason, dedupe"
enum { /* RUN_COLS by number */
	RC_SEQ, RC_LINE, RC_SYS, RC_BENCH, RC_JOB, RC_STARTED, RC_FINISHED, RC_STATUS,
	RC_NODES, RC_DEVICES, RC_GBATCH, RC_LBATCH, RC_PRECISION, RC_FRAMEWORK, RC_SET,
	RC_PARAMS, RC_EXCLUDED, RC_KEY
};

static const char *const local_sql[LS_COUNT] = {
	[LS_SOURCES] = "SELECT id, path, sha256, identity, format, size, ingested_at, tool_version"
		       " FROM source ORDER BY id",
	[LS_SYSTEMS] = "SELECT id, name, display_name, vendor, accelerator, accelerators_per_node,"
		       " host_cpu, interconnect, site, tdp_w, meta FROM system ORDER BY name",
	[LS_BENCHMARKS] = "SELECT id, suite, name, metric, unit, better FROM benchmark"
			  " ORDER BY suite, name",
	[LS_SETS] = "SELECT id, kv FROM param_set ORDER BY id",
	/* a source's runs: its run id range (DB_SOURCE_RUNS, schema 8) */
	[LS_RUNS] = "SELECT " RUN_COLS " FROM run_data r WHERE" DB_SOURCE_RUNS("r", "?1")
		    "ORDER BY seq",
	[LS_RUNS_BY_KEY] = "SELECT " RUN_COLS " FROM run_data r WHERE" DB_SOURCE_RUNS("r", "?1")
			   "ORDER BY dedupe, seq",
	[LS_KINDS] = "SELECT id, name, unit, nullif(meta, '') FROM metric_kind ORDER BY id",
	/* a run's metrics are packed in its row (schema 9): read in C */
	[LS_METRIC_VALUES] = "SELECT r.seq, r.metrics FROM run_data r WHERE" DB_SOURCE_RUNS("r", "?1")
			     "AND r.metrics IS NOT NULL",
	[LS_METRICS] = "SELECT r.seq, r.metrics FROM run_data r WHERE" DB_SOURCE_RUNS("r", "?1")
		       "AND r.metrics IS NOT NULL",
	[LS_KIND_NAME] = "SELECT name FROM metric_kind WHERE id = ?1",
	/* (device, t) order: the order every reader of power samples uses */
	[LS_POWER] = "SELECT r.seq, p.device, p.t, p.watts FROM run_data r"
		     " JOIN power_sample p ON p.run_id = r.id WHERE" DB_SOURCE_RUNS("r", "?1")
		     "ORDER BY r.seq, p.device, p.t",
	[LS_KEYS] = "SELECT seq, line, dedupe FROM run_data r WHERE" DB_SOURCE_RUNS("r", "?1")
		    "AND dedupe IS NOT NULL",
	[LS_HAS_SOURCE] = "SELECT 1 FROM source WHERE sha256 = ?1 AND identity = ?2",
	[LS_RUN_COUNTS] = "SELECT id, n, last FROM (SELECT s.id AS id,"
			  " (SELECT count(*) FROM run_data r WHERE r.id BETWEEN s.first_run"
			  "  AND s.last_run AND r.source_id = s.id) AS n,"
			  " (SELECT max(seq) FROM run_data r WHERE r.id BETWEEN s.first_run"
			  "  AND s.last_run AND r.source_id = s.id) AS last FROM source s)"
			  " WHERE n > 0 ORDER BY id",
	[LS_SYSTEM_IDS] = "SELECT id, name, json_extract(meta, '$.described') FROM system",
	[LS_BENCH_IDS] = "SELECT id, suite, name FROM benchmark",
};

struct pg_local {
	struct db *db;
	sqlite3 *sql;
	sqlite3_stmt *st[LS_COUNT];
	int in_read;
};

int pg_local_open(struct pg_local **out, struct db *db, struct strbuf *err)
{
	struct pg_local *l = ab_calloc(1, sizeof(*l));

	(void)err;
	l->db = db;
	l->sql = db_sqlite(db);
	*out = l;
	return 0;
}

void pg_local_free(struct pg_local *l)
{
	size_t i;

	if (!l)
		return;
	pg_local_read_end(l);
	for (i = 0; i < LS_COUNT; i++)
		sqlite3_finalize(l->st[i]);
	free(l);
}

static int stmt(struct pg_local *l, int which, int64_t source_id, sqlite3_stmt **out,
		struct strbuf *err)
{
	if (!l->st[which]) {
		int rc = db_prepare(l->db, &l->st[which], local_sql[which], err);
		if (rc < 0)
			return rc;
	}
	sqlite3_reset(l->st[which]);
	sqlite3_clear_bindings(l->st[which]);
	if (source_id)
		sqlite3_bind_int64(l->st[which], 1, source_id);
	*out = l->st[which];
	return 0;
}

/* The one loop over a statement's rows (bound to source_id when not 0):
 * fn(ctx, row) per row until it returns negative; what names the read in
 * the error of a failed step. */
static int each_row(struct pg_local *l, int which, int64_t source_id,
		    int (*fn)(void *ctx, sqlite3_stmt *row, struct strbuf *err), void *ctx,
		    const char *what, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc;

	rc = stmt(l, which, source_id, &st, err);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rc = fn(ctx, st, err);
		if (rc < 0) {
			sqlite3_reset(st);
			return rc;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(l->db, err, what);
	return 0;
}

int pg_local_read_begin(struct pg_local *l, struct strbuf *err)
{
	int rc = db_exec(l->db, "BEGIN", err);

	if (rc == 0)
		l->in_read = 1;
	return rc;
}

void pg_local_read_end(struct pg_local *l)
{
	size_t i;

	if (!l->in_read)
		return;
	for (i = 0; i < LS_COUNT; i++)
		if (l->st[i])
			sqlite3_reset(l->st[i]);
	db_exec(l->db, "COMMIT", NULL);
	l->in_read = 0;
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return ab_strdup(s ? (const char *)s : "");
}

struct source_list {
	struct pg_local_source *v;
	size_t len, alloc, i;
};

static int add_source(void *ctx, sqlite3_stmt *st, struct strbuf *err)
{
	struct source_list *sl = ctx;
	struct pg_local_source *s;

	(void)err;
	if (sl->len == sl->alloc) {
		sl->alloc = sl->alloc ? sl->alloc * 2 : 64;
		sl->v = ab_realloc(sl->v, sl->alloc * sizeof(*sl->v));
	}
	s = &sl->v[sl->len++];
	memset(s, 0, sizeof(*s));
	s->id = sqlite3_column_int64(st, 0);
	s->path = col_dup(st, 1);
	s->sha256 = col_dup(st, 2);
	s->identity = col_dup(st, 3);
	s->format = col_dup(st, 4);
	s->size = sqlite3_column_int64(st, 5);
	s->ingested_at = col_dup(st, 6);
	s->tool_version = col_dup(st, 7);
	return 0;
}

/* runs per source; both lists in id order */
static int add_run_count(void *ctx, sqlite3_stmt *st, struct strbuf *err)
{
	struct source_list *sl = ctx;
	int64_t id = sqlite3_column_int64(st, 0);

	(void)err;
	while (sl->i < sl->len && sl->v[sl->i].id < id)
		sl->i++;
	if (sl->i < sl->len && sl->v[sl->i].id == id) {
		sl->v[sl->i].nruns = (long)sqlite3_column_int64(st, 1);
		sl->v[sl->i].max_seq = sqlite3_column_int64(st, 2);
	}
	return 0;
}

int pg_local_sources(struct pg_local *l, struct pg_local_source **out, size_t *n,
		     struct strbuf *err)
{
	struct source_list sl = { NULL, 0, 0, 0 };
	int rc;

	*out = NULL;
	*n = 0;
	rc = each_row(l, LS_SOURCES, 0, add_source, &sl, "cannot read the local sources", err);
	if (rc == 0)
		rc = each_row(l, LS_RUN_COUNTS, 0, add_run_count, &sl,
			      "cannot count the local runs", err);
	if (rc < 0) {
		pg_local_sources_free(sl.v, sl.len);
		return rc;
	}
	*out = sl.v;
	*n = sl.len;
	return 0;
}

void pg_local_sources_free(struct pg_local_source *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].sha256);
		free(v[i].identity);
		free(v[i].format);
		free(v[i].ingested_at);
		free(v[i].tool_version);
	}
	free(v);
}

/* A text column: NULL stays NULL; whatever type SQLite holds, as text. */
static void copy_text_col(struct pg_copy *cp, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL) {
		pg_copy_null(cp);
		return;
	}
	pg_copy_textn(cp, (const char *)sqlite3_column_text(st, i),
		      (size_t)sqlite3_column_bytes(st, i));
}

/* An integer column: NULL stays NULL. */
static void copy_int_col(struct pg_copy *cp, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		pg_copy_null(cp);
	else
		pg_copy_int(cp, sqlite3_column_int64(st, i));
}

/* One column into COPY text by its SQLite type. */
static void copy_col(struct pg_copy *cp, sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER:
		pg_copy_int(cp, sqlite3_column_int64(st, i));
		break;
	case SQLITE_FLOAT:
		pg_copy_double(cp, sqlite3_column_double(st, i));
		break;
	default:
		copy_text_col(cp, st, i);
	}
}

/* every column of a row as it is */
static int copy_row_as_is(void *ctx, sqlite3_stmt *st, struct strbuf *err)
{
	struct pg_copy *cp = ctx;
	int i, ncol = sqlite3_column_count(st);

	for (i = 0; i < ncol; i++)
		copy_col(cp, st, i);
	return pg_copy_end_row(cp, err);
}

int pg_local_copy_systems(struct pg_local *l, struct pg_copy *cp, struct strbuf *err)
{
	return each_row(l, LS_SYSTEMS, 0, copy_row_as_is, cp, "cannot read the local systems",
			err);
}

int pg_local_copy_benchmarks(struct pg_local *l, struct pg_copy *cp, struct strbuf *err)
{
	return each_row(l, LS_BENCHMARKS, 0, copy_row_as_is, cp,
			"cannot read the local benchmarks", err);
}

int pg_local_copy_param_sets(struct pg_local *l, struct pg_copy *cp, struct strbuf *err)
{
	return each_row(l, LS_SETS, 0, copy_row_as_is, cp, "cannot read the local param sets",
			err);
}

int pg_local_copy_metric_kinds(struct pg_local *l, struct pg_copy *cp, struct strbuf *err)
{
	return each_row(l, LS_KINDS, 0, copy_row_as_is, cp, "cannot read the local metric kinds",
			err);
}

struct dims_ctx {
	int benchmarks;
	int (*fn)(void *ctx, int benchmarks, int64_t id, const char *a, const char *b,
		  struct strbuf *err);
	void *ctx;
};

static int dim_row(void *ctx, sqlite3_stmt *st, struct strbuf *err)
{
	struct dims_ctx *d = ctx;
	const char *a = (const char *)sqlite3_column_text(st, 1);
	const char *b = (const char *)sqlite3_column_text(st, 2);

	return d->fn(d->ctx, d->benchmarks, sqlite3_column_int64(st, 0), a ? a : "",
		     d->benchmarks ? (b ? b : "") : b, err);
}

int pg_local_dims(struct pg_local *l, int benchmarks,
		  int (*fn)(void *ctx, int benchmarks, int64_t id, const char *a, const char *b,
			    struct strbuf *err),
		  void *ctx, struct strbuf *err)
{
	struct dims_ctx d = { benchmarks, fn, ctx };

	return each_row(l, benchmarks ? LS_BENCH_IDS : LS_SYSTEM_IDS, 0, dim_row, &d,
			"cannot read the local systems and benchmarks", err);
}

/* one source's rows into the central tables */
struct final_ctx {
	const struct pg_local_ids *ids;
	struct pg_copy *cp;
	int64_t last_seq, i;       /* power: the sample's position in its run */
};

static int skipped(const struct pg_local_ids *ids, int64_t seq)
{
	return ids->skip && seq >= 0 && (size_t)seq < ids->nskip && ids->skip[seq];
}

/* A local system/benchmark/param set id as the store's. */
static int64_t mapped(const int64_t *map, size_t n, int64_t id)
{
	return id >= 0 && (size_t)id < n ? map[id] : 0;
}

static const char *const status_names[] = { "ok", "failed", "aborted", "invalid" };

static int final_run(void *ctx, sqlite3_stmt *st, struct strbuf *err)
{
	struct final_ctx *f = ctx;
	const struct pg_local_ids *ids = f->ids;
	struct pg_copy *cp = f->cp;
	int64_t seq = sqlite3_column_int64(st, RC_SEQ);
	int64_t sys = mapped(ids->sys, ids->nsys, sqlite3_column_int64(st, RC_SYS));
	int64_t bench = mapped(ids->bench, ids->nbench, sqlite3_column_int64(st, RC_BENCH));
	int64_t status = sqlite3_column_int64(st, RC_STATUS), set = 0;
	int i;

	if (skipped(ids, seq))
		return 0;
	if (sqlite3_column_type(st, RC_SET) != SQLITE_NULL) {
		set = mapped(ids->set, ids->nset, sqlite3_column_int64(st, RC_SET));
		if (!set)
			return ab_fail(err, AB_EINTERNAL, "run %lld: its param set is not in the store",
				       (long long)seq);
	}
	if (!sys || !bench)
		return ab_fail(err, AB_EINTERNAL, "run %lld: its %s is not in the store",
			       (long long)seq, sys ? "benchmark" : "system");
	pg_copy_int(cp, ids->base + seq);
	pg_copy_int(cp, ids->base);
	pg_copy_int4(cp, (int32_t)seq);
	copy_int_col(cp, st, RC_LINE);
	pg_copy_int(cp, sys);
	pg_copy_int(cp, bench);
	for (i = RC_JOB; i <= RC_FINISHED; i++)
		copy_text_col(cp, st, i);
	pg_copy_text(cp, status_names[status >= 0 && status <= 3 ? status : 3]);
	for (i = RC_NODES; i <= RC_LBATCH; i++)
		copy_int_col(cp, st, i);
	copy_text_col(cp, st, RC_PRECISION);
	copy_text_col(cp, st, RC_FRAMEWORK);
	if (set)
		pg_copy_int(cp, set);
	else
		pg_copy_null(cp);
	copy_text_col(cp, st, RC_PARAMS);
	copy_text_col(cp, st, RC_EXCLUDED);
	if (sqlite3_column_bytes(st, RC_KEY) == 16) /* the key's 16 bytes as a uuid */
		pg_copy_uuid(cp, sqlite3_column_blob(st, RC_KEY));
	else
		pg_copy_null(cp);
	return pg_copy_end_row(cp, err);
}

int pg_local_copy_final_runs(struct pg_local *l, int64_t source_id,
			     const struct pg_local_ids *ids, struct pg_copy *cp, struct strbuf *err)
{
	struct final_ctx f = { ids, cp, -1, 0 };

	return each_row(l, ids->by_key ? LS_RUNS_BY_KEY : LS_RUNS, source_id, final_run, &f,
			"cannot read the local runs", err);
}

static int not_packed(int64_t seq, struct strbuf *err)
{
	return ab_fail(err, AB_EIO, "run %lld: its metrics are not in the packed form",
		       (long long)seq);
}

/* rows: seq, packed metrics; a row per metric, in kind order */
static int final_metric(void *ctx, sqlite3_stmt *st, struct strbuf *err)
{
	struct final_ctx *f = ctx;
	int64_t seq = sqlite3_column_int64(st, 0), local;
	const char *p = (const char *)sqlite3_column_text(st, 1);
	double v;
	int more, rc;

	if (skipped(f->ids, seq))
		return 0;
	while ((more = db_metrics_next(&p, &local, &v)) > 0) {
		int64_t kind = mapped(f->ids->kind, f->ids->nkind, local);

		if (!kind)
			return ab_fail(err, AB_EINTERNAL, "run %lld: a metric kind is not in the store",
				       (long long)seq);
		pg_copy_int(f->cp, f->ids->base + seq);
		pg_copy_int(f->cp, kind);
		pg_copy_double(f->cp, v);
		rc = pg_copy_end_row(f->cp, err);
		if (rc < 0)
			return rc;
	}
	return more < 0 ? not_packed(seq, err) : 0;
}

int pg_local_copy_final_metrics(struct pg_local *l, int64_t source_id,
				const struct pg_local_ids *ids, struct pg_copy *cp,
				struct strbuf *err)
{
	struct final_ctx f = { ids, cp, -1, 0 };

	return each_row(l, LS_METRIC_VALUES, source_id, final_metric, &f,
			"cannot read the local metrics", err);
}

/* rows: seq, device, t, watts; i = 0, 1, ... within a run */
static int final_power(void *ctx, sqlite3_stmt *st, struct strbuf *err)
{
	struct final_ctx *f = ctx;
	int64_t seq = sqlite3_column_int64(st, 0);

	f->i = seq == f->last_seq ? f->i + 1 : 0;
	f->last_seq = seq;
	if (skipped(f->ids, seq))
		return 0;
	pg_copy_int(f->cp, f->ids->base + seq);
	pg_copy_int4(f->cp, (int32_t)f->i);
	copy_text_col(f->cp, st, 1);
	pg_copy_double(f->cp, sqlite3_column_double(st, 2));
	pg_copy_double(f->cp, sqlite3_column_double(st, 3));
	return pg_copy_end_row(f->cp, err);
}

int pg_local_copy_final_power(struct pg_local *l, int64_t source_id,
			      const struct pg_local_ids *ids, struct pg_copy *cp, struct strbuf *err)
{
	struct final_ctx f = { ids, cp, -1, 0 };

	return each_row(l, LS_POWER, source_id, final_power, &f,
			"cannot read the local power samples", err);
}

struct keys_ctx {
	int (*fn)(void *ctx, int64_t seq, int64_t line, const char *key, struct strbuf *err);
	void *ctx;
};

static int key_row(void *ctx, sqlite3_stmt *st, struct strbuf *err)
{
	static const char hex[] = "0123456789abcdef";
	struct keys_ctx *k = ctx;
	const unsigned char *b = sqlite3_column_blob(st, 2);
	char key[33];
	int i;

	if (!b || sqlite3_column_bytes(st, 2) != 16)
		return 0;
	for (i = 0; i < 16; i++) {
		key[2 * i] = hex[b[i] >> 4];
		key[2 * i + 1] = hex[b[i] & 15];
	}
	key[32] = '\0';
	return k->fn(k->ctx, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), key, err);
}

int pg_local_run_keys(struct pg_local *l, int64_t source_id,
		      int (*fn)(void *ctx, int64_t seq, int64_t line, const char *key,
				struct strbuf *err),
		      void *ctx, struct strbuf *err)
{
	struct keys_ctx k = { fn, ctx };

	return each_row(l, LS_KEYS, source_id, key_row, &k, "cannot read the local dedupe keys",
			err);
}

struct metrics_ctx {
	int (*fn)(void *ctx, int64_t seq, const char *name, double value, struct strbuf *err);
	void *ctx;
	struct pg_local *l;
	struct strbuf name;
};

/* rows: seq, packed metrics; fn per metric, in kind order */
static int metric_row(void *ctx, sqlite3_stmt *st, struct strbuf *err)
{
	struct metrics_ctx *m = ctx;
	int64_t seq = sqlite3_column_int64(st, 0), kind;
	const char *p = (const char *)sqlite3_column_text(st, 1);
	double v;
	int more, rc;

	while ((more = db_metrics_next(&p, &kind, &v)) > 0) {
		sqlite3_stmt *kn;

		rc = stmt(m->l, LS_KIND_NAME, kind, &kn, err);
		if (rc < 0)
			return rc;
		rc = sqlite3_step(kn);
		strbuf_reset(&m->name);
		if (rc == SQLITE_ROW && sqlite3_column_text(kn, 0))
			strbuf_addstr(&m->name, (const char *)sqlite3_column_text(kn, 0));
		sqlite3_reset(kn);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return db_fail(m->l->db, err, "cannot read the local metric kinds");
		rc = m->fn(m->ctx, seq, m->name.buf, v, err);
		if (rc < 0)
			return rc;
	}
	return more < 0 ? not_packed(seq, err) : 0;
}

int pg_local_metrics(struct pg_local *l, int64_t source_id,
		     int (*fn)(void *ctx, int64_t seq, const char *name, double value,
			       struct strbuf *err),
		     void *ctx, struct strbuf *err)
{
	struct metrics_ctx m = { fn, ctx, l, STRBUF_INIT };
	int rc;

	rc = each_row(l, LS_METRICS, source_id, metric_row, &m, "cannot read the local metrics",
		      err);
	strbuf_release(&m.name);
	return rc;
}

int pg_local_has_source(struct pg_local *l, const char *sha256, const char *identity, int *has,
			struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc;

	rc = stmt(l, LS_HAS_SOURCE, 0, &st, err);
	if (rc < 0)
		return rc;
	db_bind_text(st, 1, sha256);
	db_bind_text(st, 2, identity ? identity : "");
	rc = sqlite3_step(st);
	*has = rc == SQLITE_ROW;
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(l->db, err, "cannot look up a local source");
	return 0;
}

/*
 * A pull commits one transaction per source, each rewriting the same top
 * pages of the tables and indexes into the WAL; with SQLite's default
 * checkpoint every 1000 WAL pages, 12,500 small sources made ~550
 * checkpoints (two fdatasyncs each, every page copied again).  During a
 * pull the WAL may grow to 16384 pages (the journal size limit cuts it
 * back at its next reset): 64 MiB.  The default comes back after.
 */
int pg_local_pull_mode(struct pg_local *l, int on, struct strbuf *err)
{
	(void)err;
	/* the connection's own setting: no statement, no schema change */
	sqlite3_wal_autocheckpoint(l->sql, on ? 16384 : 1000);
	return 0;
}

struct ingest_sink *pg_local_sink(struct pg_local *l)
{
	return db_ingest_sink(l->db);
}
