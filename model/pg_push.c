/*
 * pg_push.c - `accelbench push`: send the local sources the central store
 * lacks, one PostgreSQL transaction per source.
 *
 * Per source, one round trip: a multi-statement query
 *   BEGIN; COPY st_system; COPY st_bench; COPY st_run; COPY st_metric;
 *   COPY st_power; SELECT accelbench.merge_source(...); COMMIT
 * whose COPY data is streamed from SQLite in 1 MiB PQputCopyData chunks
 * into session-local staging tables (temporary, emptied at each commit),
 * then merged server-side with INSERT ... SELECT ... ON CONFLICT.  A
 * killed pusher leaves an open transaction the server rolls back; the
 * next push sends that source again.  A deadlock or serialization failure
 * (possible only between pushers of the same new rows) retries the source.
 */
#include "core/compat.h"
#include "pg_priv.h"

#include <time.h>

#define PUSH_RETRIES 20
#define PRESENT_BATCH 2000

static const char stage_ddl[] =
	"SET synchronous_commit = off; SET work_mem = '64MB';"
	"CREATE TEMP TABLE IF NOT EXISTS st_system(lid bigint, name text, display_name text,"
	" vendor text, accelerator text, per_node bigint, host_cpu text, interconnect text,"
	" site text, tdp_w float8, meta text) ON COMMIT DELETE ROWS;"
	"CREATE TEMP TABLE IF NOT EXISTS st_bench(lid bigint, suite text, name text,"
	" metric text, unit text, better text) ON COMMIT DELETE ROWS;"
	"CREATE TEMP TABLE IF NOT EXISTS st_run(seq integer, line bigint, sys bigint,"
	" bench bigint, job_id text, started text, finished text, status text, nodes bigint,"
	" devices bigint, global_batch bigint, local_batch bigint, precision text,"
	" framework text, params text, excluded_reason text, dedupe_key text)"
	" ON COMMIT DELETE ROWS;"
	"CREATE TEMP TABLE IF NOT EXISTS st_metric(seq integer, name text, value float8,"
	" unit text, meta text) ON COMMIT DELETE ROWS;"
	"CREATE TEMP TABLE IF NOT EXISTS st_power(seq integer, i integer, device text,"
	" t float8, watts float8) ON COMMIT DELETE ROWS";

enum stage { STAGE_SYSTEM, STAGE_BENCH, STAGE_RUN, STAGE_METRIC, STAGE_POWER, STAGE_COUNT };

struct push {
	struct pg *pg;
	struct pg_local *local;
	const struct pg_progress *prog;
	struct pg_totals *t;
	struct pg_copy cp;
	struct timespec last;
	uint64_t copied;           /* bytes of the current source */
};

static void progress(struct push *p, int final)
{
	struct timespec now;

	if (!p->prog || !p->prog->fn)
		return;
	if (!final) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - p->last.tv_sec) * 1000 + (now.tv_nsec - p->last.tv_nsec) / 1000000 <
		    200)
			return;
		p->last = now;
	}
	p->prog->fn(p->prog->ctx, p->t, final);
}

static int flush_copy(void *ctx, struct pg_copy *cp, struct strbuf *err)
{
	struct push *p = ctx;

	if (!cp->buf.len)
		return 0;
	if (PQputCopyData(p->pg->conn, cp->buf.buf, (int)cp->buf.len) != 1)
		return pg_fail(p->pg, err, "cannot send data to PostgreSQL");
	p->copied += cp->buf.len;
	p->t->bytes += cp->buf.len;
	strbuf_reset(&cp->buf);
	progress(p, 0);
	return 0;
}

/* Stream one staging table's rows for a source (0: all systems/benchmarks). */
static int send_stage(struct push *p, enum stage which, int64_t source_id, struct strbuf *err)
{
	int rc;

	strbuf_reset(&p->cp.buf);
	p->cp.ncols = 0;
	p->cp.rows = 0;
	switch (which) {
	case STAGE_SYSTEM:
		rc = pg_local_copy_systems(p->local, source_id, &p->cp, err);
		break;
	case STAGE_BENCH:
		rc = pg_local_copy_benchmarks(p->local, source_id, &p->cp, err);
		break;
	case STAGE_RUN:
		rc = pg_local_copy_runs(p->local, source_id, &p->cp, err);
		break;
	case STAGE_METRIC:
		rc = pg_local_copy_metrics(p->local, source_id, &p->cp, err);
		break;
	default:
		rc = pg_local_copy_power(p->local, source_id, &p->cp, err);
		break;
	}
	if (rc == 0)
		rc = flush_copy(p, &p->cp, err);
	if (rc < 0) {
		/* abort the COPY: the server fails the statement, the rest of
		 * the query is skipped and the transaction rolled back */
		PQputCopyEnd(p->pg->conn, "accelbench: local read failed");
		return rc;
	}
	if (PQputCopyEnd(p->pg->conn, NULL) != 1)
		return pg_fail(p->pg, err, "cannot end COPY");
	return 0;
}

struct merged {
	int have;                  /* merge_source() returned a row */
	int present;               /* another pusher stored the source first */
	long runs, deduped, metrics, power;
};

/*
 * Send one multi-statement query and serve its COPYs in order; fills *m
 * from merge_source()'s row.  Returns 0, or negative with *sqlstate set
 * when the server failed a statement (the transaction is rolled back).
 */
static int run_query(struct push *p, const char *sql, const enum stage *stages, size_t nstages,
		     int64_t source_id, struct merged *m, char *sqlstate, struct strbuf *err)
{
	PGconn *c = p->pg->conn;
	PGresult *res;
	size_t k = 0;
	int rc = 0;

	memset(sqlstate, 0, 6);
	memset(m, 0, sizeof(*m));
	if (!PQsendQuery(c, sql))
		return pg_fail(p->pg, err, "cannot send to PostgreSQL");
	while ((res = PQgetResult(c)) != NULL) {
		switch (PQresultStatus(res)) {
		case PGRES_COPY_IN:
			if (rc == 0 && k < nstages)
				rc = send_stage(p, stages[k++], source_id, err);
			else
				PQputCopyEnd(c, "accelbench: unexpected COPY");
			break;
		case PGRES_TUPLES_OK:
			if (PQntuples(res) == 1 && PQnfields(res) >= 5) {
				m->have = 1;
				m->present = PQgetisnull(res, 0, 0);
				m->runs = atol(PQgetvalue(res, 0, 1));
				m->deduped = atol(PQgetvalue(res, 0, 2));
				m->metrics = atol(PQgetvalue(res, 0, 3));
				m->power = atol(PQgetvalue(res, 0, 4));
			}
			break;
		case PGRES_COMMAND_OK:
			break;
		default:
			if (rc == 0)
				rc = pg_fail_res(res, err, "PostgreSQL error", sqlstate);
			break;
		}
		PQclear(res);
		if (PQstatus(c) != CONNECTION_OK) {
			if (rc == 0)
				rc = pg_fail(p->pg, err, "lost the PostgreSQL connection");
			break;
		}
	}
	if (rc < 0 && PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
		pg_exec(p->pg, "ROLLBACK", NULL);
	return rc;
}

static int retryable(const char *sqlstate)
{
	return !strcmp(sqlstate, "40P01") || !strcmp(sqlstate, "40001");
}

static int push_dimensions(struct push *p, struct strbuf *err)
{
	static const enum stage stages[] = { STAGE_SYSTEM, STAGE_BENCH };
	struct merged m;
	char sqlstate[6];
	int tries, rc;

	for (tries = 0;; tries++) {
		rc = run_query(p,
			       "BEGIN; COPY pg_temp.st_system FROM STDIN;"
			       " COPY pg_temp.st_bench FROM STDIN;"
			       " SELECT accelbench.merge_dimensions(); COMMIT",
			       stages, 2, 0, &m, sqlstate, err);
		if (rc == 0 || !retryable(sqlstate) || tries >= PUSH_RETRIES)
			return rc;
		p->t->retries++;
	}
}

static int push_source(struct push *p, const struct pg_local_source *s, struct strbuf *err)
{
	static const enum stage stages[] = { STAGE_SYSTEM, STAGE_BENCH, STAGE_RUN, STAGE_METRIC,
					     STAGE_POWER };
	PGconn *c = p->pg->conn;
	struct strbuf sql = STRBUF_INIT;
	char *lit[6];
	const char *vals[6] = { s->sha256, s->identity, s->path, s->format, s->ingested_at,
				s->tool_version };
	struct merged m;
	char sqlstate[6];
	int tries, rc = 0, i;

	for (i = 0; i < 6; i++) {
		lit[i] = PQescapeLiteral(c, vals[i], strlen(vals[i]));
		if (!lit[i]) {
			while (i-- > 0)
				PQfreemem(lit[i]);
			return pg_fail(p->pg, err, "cannot quote a source field");
		}
	}
	strbuf_addf(&sql,
		    "BEGIN; COPY pg_temp.st_system FROM STDIN; COPY pg_temp.st_bench FROM STDIN;"
		    " COPY pg_temp.st_run FROM STDIN; COPY pg_temp.st_metric FROM STDIN;"
		    " COPY pg_temp.st_power FROM STDIN;"
		    " SELECT * FROM accelbench.merge_source(%s, %s, %s, %s, %lld, %s, %s); COMMIT",
		    lit[0], lit[1], lit[2], lit[3], (long long)s->size, lit[4], lit[5]);
	for (i = 0; i < 6; i++)
		PQfreemem(lit[i]);
	for (tries = 0;; tries++) {
		uint64_t before = p->t->bytes;

		p->copied = 0;
		rc = run_query(p, sql.buf, stages, STAGE_COUNT, s->id, &m, sqlstate, err);
		if (rc == 0 || !retryable(sqlstate) || tries >= PUSH_RETRIES)
			break;
		p->t->retries++;
		p->t->bytes = before;
	}
	strbuf_release(&sql);
	if (rc < 0) {
		struct strbuf msg = STRBUF_INIT;
		strbuf_addf(&msg, "cannot push '%s': %s", s->path, err->buf);
		strbuf_reset(err);
		strbuf_addbuf(err, &msg);
		strbuf_release(&msg);
		return rc;
	}
	if (!m.have)
		return ab_fail(err, AB_EINTERNAL, "merge_source() returned no row for '%s'",
			       s->path);
	if (m.present) {
		p->t->sources_present++;
	} else {
		p->t->sources_sent++;
		p->t->runs += m.runs;
		p->t->runs_deduped += m.deduped;
		p->t->metrics += m.metrics;
		p->t->power_samples += m.power;
	}
	return 0;
}

/* Mark the sources the store has already (one query per batch of hashes). */
static int find_present(struct push *p, const struct pg_local_source *v, size_t n,
			unsigned char *present, struct strbuf *err)
{
	struct strbuf arr = STRBUF_INIT;
	size_t i, j, start;
	int rc = 0;

	for (start = 0; start < n && rc == 0; start += PRESENT_BATCH) {
		size_t end = start + PRESENT_BATCH < n ? start + PRESENT_BATCH : n;
		const char *params[1];
		PGresult *res;
		int r;

		strbuf_reset(&arr);
		strbuf_addch(&arr, '{');
		for (i = start; i < end; i++) {
			const char *h = v[i].sha256;
			strbuf_addstr(&arr, i > start ? ",\"" : "\"");
			for (j = 0; h[j]; j++) {
				if (h[j] == '"' || h[j] == '\\')
					strbuf_addch(&arr, '\\');
				strbuf_addch(&arr, h[j]);
			}
			strbuf_addch(&arr, '"');
		}
		strbuf_addch(&arr, '}');
		params[0] = arr.buf;
		res = PQexecParams(p->pg->conn,
				   "SELECT sha256, identity FROM accelbench.source"
				   " WHERE sha256 = ANY($1::text[])",
				   1, NULL, params, NULL, NULL, 0);
		if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
			rc = pg_fail_res(res, err, "cannot list the central sources", NULL);
			PQclear(res);
			break;
		}
		/* small batches: a nested loop is fine */
		for (r = 0; r < PQntuples(res); r++)
			for (i = start; i < end; i++)
				if (!present[i] && !strcmp(v[i].sha256, PQgetvalue(res, r, 0)) &&
				    !strcmp(v[i].identity, PQgetvalue(res, r, 1))) {
					present[i] = 1;
					break;
				}
		PQclear(res);
	}
	strbuf_release(&arr);
	return rc;
}

int pg_push(struct pg *pg, struct db *db, const struct pg_progress *prog,
	    struct pg_totals *totals, struct strbuf *err)
{
	struct push p = { 0 };
	struct pg_local_source *v = NULL;
	unsigned char *present = NULL;
	size_t n = 0, i;
	int rc;

	memset(totals, 0, sizeof(*totals));
	p.pg = pg;
	p.prog = prog;
	p.t = totals;
	strbuf_init(&p.cp.buf, PG_COPY_CHUNK + 65536);
	p.cp.flush = flush_copy;
	p.cp.ctx = &p;
	rc = pg_check_schema(pg, err);
	if (rc < 0)
		goto out;
	rc = pg_exec(pg, stage_ddl, err);
	if (rc < 0)
		goto out;
	rc = pg_local_open(&p.local, db, err);
	if (rc < 0)
		goto out;
	rc = pg_local_read_begin(p.local, err);
	if (rc < 0)
		goto out;
	rc = pg_local_sources(p.local, &v, &n, err);
	if (rc < 0)
		goto out;
	totals->sources_total = (long)n;
	present = ab_calloc(n ? n : 1, 1);
	rc = find_present(&p, v, n, present, err);
	if (rc < 0)
		goto out;
	/* every system and benchmark first, also those without runs (a
	 * systems file): descriptions are shared, not data of one source */
	rc = push_dimensions(&p, err);
	if (rc < 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (present[i]) {
			totals->sources_present++;
		} else {
			rc = push_source(&p, &v[i], err);
			if (rc < 0)
				goto out;
		}
		totals->sources_done++;
		progress(&p, 0);
	}
out:
	progress(&p, 1);
	pg_local_sources_free(v, n);
	free(present);
	pg_local_free(p.local);
	strbuf_release(&p.cp.buf);
	return rc;
}
