/*
 * pg_local.c - the local SQLite side of push and pull, and the only file
 * of model/pg*.c that touches it.  Push reads through the public table
 * names of docs/schema.md (source, system, benchmark, run, metric,
 * power_sample), inside one read transaction with prepared statements;
 * pull writes through the ingest sink, so a change of the local storage
 * layout needs no change here.
 */
#include "core/compat.h"
#include "pg_priv.h"
#include "db_priv.h"

enum {
	LS_SOURCES,
	LS_SYSTEMS_ALL,
	LS_SYSTEMS_OF,
	LS_BENCH_ALL,
	LS_BENCH_OF,
	LS_RUNS,
	LS_METRICS,
	LS_POWER,
	LS_HAS_SOURCE,
	LS_PROVENANCE,
	LS_RUN_COUNTS,
	LS_SYSTEM_IDS,
	LS_BENCH_IDS,
	LS_RUNS_BY_KEY,
	LS_KEYS,
	LS_COUNT
};

#define SYSTEM_COLS "id, name, display_name, vendor, accelerator, accelerators_per_node," \
		    " host_cpu, interconnect, site, tdp_w, meta"
#define BENCH_COLS "id, suite, name, metric, unit, better"

static const char *const local_sql[LS_COUNT] = {
	[LS_SOURCES] = "SELECT id, path, sha256, identity, format, size, ingested_at, tool_version"
		       " FROM source ORDER BY id",
	[LS_SYSTEMS_ALL] = "SELECT " SYSTEM_COLS " FROM system ORDER BY name",
	[LS_SYSTEMS_OF] = "SELECT " SYSTEM_COLS " FROM system WHERE id IN"
			  " (SELECT DISTINCT system_id FROM run WHERE source_id = ?1) ORDER BY name",
	[LS_BENCH_ALL] = "SELECT " BENCH_COLS " FROM benchmark ORDER BY suite, name",
	[LS_BENCH_OF] = "SELECT " BENCH_COLS " FROM benchmark WHERE id IN"
			" (SELECT DISTINCT benchmark_id FROM run WHERE source_id = ?1)"
			" ORDER BY suite, name",
#define RUN_COLS "seq, line, system_id, benchmark_id, job_id, started, finished, status," \
		 " nodes, devices, global_batch, local_batch, precision, framework, params," \
		 " excluded_reason, dedupe_key"
	[LS_RUNS] = "SELECT " RUN_COLS " FROM run WHERE source_id = ?1 ORDER BY seq",
	[LS_RUNS_BY_KEY] = "SELECT " RUN_COLS " FROM run WHERE source_id = ?1"
			   " ORDER BY dedupe_key, seq",
	[LS_KEYS] = "SELECT seq, line, dedupe_key FROM run WHERE source_id = ?1"
		    " AND dedupe_key <> ''",
	[LS_SYSTEM_IDS] = "SELECT id, name, json_extract(meta, '$.described') FROM system",
	[LS_BENCH_IDS] = "SELECT id, suite, name FROM benchmark",
	[LS_METRICS] = "SELECT r.seq, m.name, m.value, m.unit, m.meta FROM run r"
		       " JOIN metric m ON m.run_id = r.id WHERE r.source_id = ?1",
	/* (device, t) order: the order every reader of power samples uses */
	[LS_POWER] = "SELECT r.seq, p.device, p.t, p.watts FROM run r"
		     " JOIN power_sample p ON p.run_id = r.id WHERE r.source_id = ?1"
		     " ORDER BY r.seq, p.device, p.t",
	[LS_HAS_SOURCE] = "SELECT 1 FROM source WHERE sha256 = ?1 AND identity = ?2",
	[LS_RUN_COUNTS] = "SELECT source_id, count(*), max(seq) FROM run GROUP BY source_id"
			  " ORDER BY source_id",
	[LS_PROVENANCE] = "UPDATE source SET ingested_at = ?3, tool_version = ?4"
			  " WHERE sha256 = ?1 AND identity = ?2",
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

int pg_local_sources(struct pg_local *l, struct pg_local_source **out, size_t *n,
		     struct strbuf *err)
{
	struct pg_local_source *v = NULL;
	size_t len = 0, alloc = 0;
	sqlite3_stmt *st;
	int rc;

	*out = NULL;
	*n = 0;
	rc = stmt(l, LS_SOURCES, 0, &st, err);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pg_local_source *s;

		if (len == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			v = ab_realloc(v, alloc * sizeof(*v));
		}
		s = &v[len++];
		memset(s, 0, sizeof(*s));
		s->id = sqlite3_column_int64(st, 0);
		s->path = col_dup(st, 1);
		s->sha256 = col_dup(st, 2);
		s->identity = col_dup(st, 3);
		s->format = col_dup(st, 4);
		s->size = sqlite3_column_int64(st, 5);
		s->ingested_at = col_dup(st, 6);
		s->tool_version = col_dup(st, 7);
	}
	if (rc != SQLITE_DONE) {
		pg_local_sources_free(v, len);
		return db_fail(l->db, err, "cannot read the local sources");
	}
	/* runs per source, both lists in id order */
	rc = stmt(l, LS_RUN_COUNTS, 0, &st, err);
	if (rc < 0) {
		pg_local_sources_free(v, len);
		return rc;
	}
	{
		size_t i = 0;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t id = sqlite3_column_int64(st, 0);
			while (i < len && v[i].id < id)
				i++;
			if (i < len && v[i].id == id) {
				v[i].nruns = (long)sqlite3_column_int64(st, 1);
				v[i].max_seq = sqlite3_column_int64(st, 2);
			}
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		pg_local_sources_free(v, len);
		return db_fail(l->db, err, "cannot count the local runs");
	}
	*out = v;
	*n = len;
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

/* One column into COPY text by its SQLite type. */
static void copy_col(struct pg_copy *cp, sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		pg_copy_null(cp);
		break;
	case SQLITE_INTEGER:
		pg_copy_int(cp, sqlite3_column_int64(st, i));
		break;
	case SQLITE_FLOAT:
		pg_copy_double(cp, sqlite3_column_double(st, i));
		break;
	default:
		pg_copy_textn(cp, (const char *)sqlite3_column_text(st, i),
			      (size_t)sqlite3_column_bytes(st, i));
	}
}

/* Copy every row of a statement, columns as they are. */
static int copy_rows(struct pg_local *l, int which, int64_t source_id, struct pg_copy *cp,
		     const char *what, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc, i, ncol;

	rc = stmt(l, which, source_id, &st, err);
	if (rc < 0)
		return rc;
	ncol = sqlite3_column_count(st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cp->with_src)
			pg_copy_int(cp, cp->src);
		for (i = 0; i < ncol; i++)
			copy_col(cp, st, i);
		rc = pg_copy_end_row(cp, err);
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

int pg_local_copy_systems(struct pg_local *l, int64_t source_id, struct pg_copy *cp,
			  struct strbuf *err)
{
	return copy_rows(l, source_id ? LS_SYSTEMS_OF : LS_SYSTEMS_ALL, source_id, cp,
			 "cannot read the local systems", err);
}

int pg_local_copy_benchmarks(struct pg_local *l, int64_t source_id, struct pg_copy *cp,
			     struct strbuf *err)
{
	return copy_rows(l, source_id ? LS_BENCH_OF : LS_BENCH_ALL, source_id, cp,
			 "cannot read the local benchmarks", err);
}

int pg_local_dims(struct pg_local *l, int benchmarks,
		  int (*fn)(void *ctx, int benchmarks, int64_t id, const char *a, const char *b,
			    struct strbuf *err),
		  void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc;

	rc = stmt(l, benchmarks ? LS_BENCH_IDS : LS_SYSTEM_IDS, 0, &st, err);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *a = (const char *)sqlite3_column_text(st, 1);
		const char *b = (const char *)sqlite3_column_text(st, 2);

		rc = fn(ctx, benchmarks, sqlite3_column_int64(st, 0), a ? a : "",
			benchmarks ? (b ? b : "") : b, err);
		if (rc < 0) {
			sqlite3_reset(st);
			return rc;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(l->db, err, "cannot read the local systems and benchmarks");
	return 0;
}

static int skipped(const struct pg_local_ids *ids, int64_t seq)
{
	return ids->skip && seq >= 0 && (size_t)seq < ids->nskip && ids->skip[seq];
}

/* A local system/benchmark id as the store's. */
static int64_t mapped(const int64_t *map, size_t n, int64_t id)
{
	return id >= 0 && (size_t)id < n ? map[id] : 0;
}

/* An integer column: NULL stays NULL. */
static void copy_int_col(struct pg_copy *cp, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		pg_copy_null(cp);
	else
		pg_copy_int(cp, sqlite3_column_int64(st, i));
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

int pg_local_copy_final_runs(struct pg_local *l, int64_t source_id,
			     const struct pg_local_ids *ids, struct pg_copy *cp, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc, i;

	rc = stmt(l, ids->by_key ? LS_RUNS_BY_KEY : LS_RUNS, source_id, &st, err);
	if (rc < 0)
		return rc;
	/* columns: 0 seq, 1 line, 2 system_id, 3 benchmark_id, 4 job_id,
	 * 5 started, 6 finished, 7 status, 8-11 nodes..local_batch,
	 * 12 precision, 13 framework, 14 params, 15 excluded_reason, 16 key */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t seq = sqlite3_column_int64(st, 0);
		int64_t sys = mapped(ids->sys, ids->nsys, sqlite3_column_int64(st, 2));
		int64_t bench = mapped(ids->bench, ids->nbench, sqlite3_column_int64(st, 3));
		const char *key = (const char *)sqlite3_column_text(st, 16);

		if (skipped(ids, seq))
			continue;
		if (!sys || !bench) {
			sqlite3_reset(st);
			return ab_fail(err, AB_EINTERNAL, "run %lld: its %s is not in the store",
				       (long long)seq, sys ? "benchmark" : "system");
		}
		pg_copy_int(cp, ids->base + seq);
		pg_copy_int(cp, ids->base);
		pg_copy_int4(cp, (int32_t)seq);
		copy_int_col(cp, st, 1);
		pg_copy_int(cp, sys);
		pg_copy_int(cp, bench);
		for (i = 4; i <= 7; i++)
			copy_text_col(cp, st, i);
		for (i = 8; i <= 11; i++)
			copy_int_col(cp, st, i);
		for (i = 12; i <= 15; i++)
			copy_text_col(cp, st, i);
		if (key && *key) /* '' = no key (hex of NULL) */
			pg_copy_textn(cp, key, (size_t)sqlite3_column_bytes(st, 16));
		else
			pg_copy_null(cp);
		rc = pg_copy_end_row(cp, err);
		if (rc < 0) {
			sqlite3_reset(st);
			return rc;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(l->db, err, "cannot read the local runs");
	return 0;
}

int pg_local_copy_final_metrics(struct pg_local *l, int64_t source_id,
				const struct pg_local_ids *ids, struct pg_copy *cp,
				struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc;

	rc = stmt(l, LS_METRICS, source_id, &st, err);
	if (rc < 0)
		return rc;
	/* rows: seq, name, value, unit, meta */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t seq = sqlite3_column_int64(st, 0);

		if (skipped(ids, seq))
			continue;
		pg_copy_int(cp, ids->base + seq);
		copy_text_col(cp, st, 1);
		pg_copy_double(cp, sqlite3_column_double(st, 2));
		copy_text_col(cp, st, 3);
		copy_text_col(cp, st, 4);
		rc = pg_copy_end_row(cp, err);
		if (rc < 0) {
			sqlite3_reset(st);
			return rc;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(l->db, err, "cannot read the local metrics");
	return 0;
}

int pg_local_copy_final_power(struct pg_local *l, int64_t source_id,
			      const struct pg_local_ids *ids, struct pg_copy *cp, struct strbuf *err)
{
	sqlite3_stmt *st;
	int64_t last_seq = -1, i = 0;
	int rc;

	rc = stmt(l, LS_POWER, source_id, &st, err);
	if (rc < 0)
		return rc;
	/* rows: seq, device, t, watts; i = 0, 1, ... within a run */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t seq = sqlite3_column_int64(st, 0);

		i = seq == last_seq ? i + 1 : 0;
		last_seq = seq;
		if (skipped(ids, seq))
			continue;
		pg_copy_int(cp, ids->base + seq);
		pg_copy_int4(cp, (int32_t)i);
		copy_text_col(cp, st, 1);
		pg_copy_double(cp, sqlite3_column_double(st, 2));
		pg_copy_double(cp, sqlite3_column_double(st, 3));
		rc = pg_copy_end_row(cp, err);
		if (rc < 0) {
			sqlite3_reset(st);
			return rc;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(l->db, err, "cannot read the local power samples");
	return 0;
}

int pg_local_run_keys(struct pg_local *l, int64_t source_id,
		      int (*fn)(void *ctx, int64_t seq, int64_t line, const char *key,
				struct strbuf *err),
		      void *ctx, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc;

	rc = stmt(l, LS_KEYS, source_id, &st, err);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rc = fn(ctx, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
			(const char *)sqlite3_column_text(st, 2), err);
		if (rc < 0) {
			sqlite3_reset(st);
			return rc;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(l->db, err, "cannot read the local dedupe keys");
	return 0;
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

int pg_local_set_provenance(struct pg_local *l, const char *sha256, const char *identity,
			    const char *ingested_at, const char *tool_version, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc;

	rc = stmt(l, LS_PROVENANCE, 0, &st, err);
	if (rc < 0)
		return rc;
	db_bind_text(st, 1, sha256);
	db_bind_text(st, 2, identity ? identity : "");
	db_bind_text(st, 3, ingested_at);
	db_bind_text(st, 4, tool_version);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(l->db, err, "cannot record when a pulled source was ingested");
	return 0;
}

struct ingest_sink *pg_local_sink(struct pg_local *l)
{
	return db_ingest_sink(l->db);
}
