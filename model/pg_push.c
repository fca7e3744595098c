/*
 * pg_push.c - `accelbench push`: send the local sources the central store
 * lacks, one PostgreSQL transaction per source.
 *
 * Sources go in batches (many small ones, or one large one): one query
 *   BEGIN; TRUNCATE staging; COPY sb_source; COPY st_system; COPY st_bench;
 *   COPY sb_run; COPY sb_metric; COPY sb_power; COMMIT
 * streams the batch from SQLite in 1 MiB PQputCopyData chunks into
 * session-local staging tables, then CALL accelbench.merge_batch() merges
 * the sources one by one server-side (INSERT ... SELECT ... ON CONFLICT)
 * and COMMITs after each.  A killed pusher loses at most the source being
 * merged (rolled back by the server) and the staging of its batch; the next
 * push sends what is missing.  A deadlock or serialization failure (only
 * between pushers of the same new rows) calls merge_batch() again: it
 * resumes after the last committed source.
 */
#include "core/compat.h"
#include "pg_priv.h"

#include <time.h>

#define PUSH_RETRIES 20
#define PRESENT_BATCH 2000

static const char stage_ddl[] =
	"SET synchronous_commit = off; SET work_mem = '64MB';"
	"CREATE TEMP TABLE IF NOT EXISTS sb_source(src integer, sha256 text, identity text,"
	" path text, format text, size bigint, ingested_at text, tool_version text);"
	"CREATE TEMP TABLE IF NOT EXISTS st_system(lid bigint, name text, display_name text,"
	" vendor text, accelerator text, per_node bigint, host_cpu text, interconnect text,"
	" site text, tdp_w float8, meta text);"
	"CREATE TEMP TABLE IF NOT EXISTS st_bench(lid bigint, suite text, name text,"
	" metric text, unit text, better text);"
	"CREATE TEMP TABLE IF NOT EXISTS sb_run(src integer, seq integer, line bigint, sys bigint,"
	" bench bigint, job_id text, started text, finished text, status text, nodes bigint,"
	" devices bigint, global_batch bigint, local_batch bigint, precision text,"
	" framework text, params text, excluded_reason text, dedupe_key text);"
	"CREATE INDEX IF NOT EXISTS sb_run_src ON sb_run(src);"
	"CREATE TEMP TABLE IF NOT EXISTS sb_metric(src integer, seq integer, name text,"
	" value float8, unit text, meta text);"
	"CREATE INDEX IF NOT EXISTS sb_metric_src ON sb_metric(src);"
	"CREATE TEMP TABLE IF NOT EXISTS sb_power(src integer, seq integer, i integer,"
	" device text, t float8, watts float8);"
	"CREATE INDEX IF NOT EXISTS sb_power_src ON sb_power(src);"
	"CREATE TEMP TABLE IF NOT EXISTS sb_result(src integer PRIMARY KEY, source_id bigint,"
	" runs bigint, deduped bigint, metrics bigint, power bigint)";

/* a batch: up to this many sources, or runs (a larger source goes alone) */
#define BATCH_SOURCES 500
#define BATCH_RUNS 20000

enum stage { STAGE_SOURCE, STAGE_SYSTEM, STAGE_BENCH, STAGE_RUN, STAGE_METRIC, STAGE_POWER,
	     STAGE_COUNT };

/* A connection with its staged batch: two of them overlap the COPY of one
 * batch with the merge of the previous one (the server uses both cores). */
struct lane {
	PGconn *conn;
	const struct pg_local_source *batch;
	size_t nbatch;
	int pending;               /* a CALL merge_batch() is running */
};

struct push {
	struct pg *pg;
	PGconn *conn;              /* the connection being served */
	struct pg_local *local;
	const struct pg_progress *prog;
	struct pg_totals *t;
	struct pg_copy cp;
	struct timespec last;
	const struct pg_local_source *batch;   /* the sources of the current batch */
	size_t nbatch;
	long *fixed;               /* per source of the batch: bytes converted to UTF-8 */
	size_t afixed;
	int dims_warned;
};

static void warn(struct push *p, const char *fmt, ...) AB_PRINTF(2, 3);
static void warn(struct push *p, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	if (!p->prog || !p->prog->warn)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	p->prog->warn(p->prog->ctx, msg.buf);
	strbuf_release(&msg);
}

static void progress(struct push *p, int final)
{
	pg_progress_report(p->prog, &p->last, p->t, final);
}

static int conn_fail(PGconn *c, struct strbuf *err, const char *what)
{
	const char *msg = c ? PQerrorMessage(c) : "out of memory";

	strbuf_reset(err);
	strbuf_addf(err, "%s: %.*s", what, (int)strcspn(msg, "\n"), msg);
	return -AB_EIO;
}

static int flush_copy(void *ctx, struct pg_copy *cp, struct strbuf *err)
{
	struct push *p = ctx;

	if (!cp->buf.len)
		return 0;
	if (PQputCopyData(p->conn, cp->buf.buf, (int)cp->buf.len) != 1)
		return conn_fail(p->conn, err, "cannot send data to PostgreSQL");
	p->t->bytes += cp->buf.len;
	strbuf_reset(&cp->buf);
	progress(p, 0);
	return 0;
}

static void copy_source_row(struct pg_copy *cp, size_t k, const struct pg_local_source *s)
{
	pg_copy_int(cp, (int64_t)k);
	pg_copy_text(cp, s->sha256);
	pg_copy_text(cp, s->identity);
	pg_copy_text(cp, s->path);
	pg_copy_text(cp, s->format);
	pg_copy_int(cp, s->size);
	pg_copy_text(cp, s->ingested_at);
	pg_copy_text(cp, s->tool_version);
}

/* Stream one staging table's rows for the sources of the batch. */
static int send_stage(struct push *p, enum stage which, struct strbuf *err)
{
	size_t k;
	int rc = 0;

	strbuf_reset(&p->cp.buf);
	p->cp.ncols = 0;
	p->cp.rows = 0;
	p->cp.with_src = 0;
	p->cp.fixed = 0;
	if (which == STAGE_SYSTEM) {
		rc = pg_local_copy_systems(p->local, 0, &p->cp, err);
	} else if (which == STAGE_BENCH) {
		rc = pg_local_copy_benchmarks(p->local, 0, &p->cp, err);
	} else {
		for (k = 0; rc == 0 && k < p->nbatch; k++) {
			const struct pg_local_source *s = &p->batch[k];
			long before = p->cp.fixed;

			p->cp.with_src = 1;
			p->cp.src = (int64_t)k;
			switch (which) {
			case STAGE_SOURCE:
				copy_source_row(&p->cp, k, s);
				rc = pg_copy_end_row(&p->cp, err);
				break;
			case STAGE_RUN:
				rc = pg_local_copy_runs(p->local, s->id, &p->cp, err);
				break;
			case STAGE_METRIC:
				rc = pg_local_copy_metrics(p->local, s->id, &p->cp, err);
				break;
			default:
				rc = pg_local_copy_power(p->local, s->id, &p->cp, err);
				break;
			}
			p->fixed[k] += p->cp.fixed - before;
		}
	}
	if (p->cp.fixed && (which == STAGE_SYSTEM || which == STAGE_BENCH) && !p->dims_warned) {
		p->dims_warned = 1;
		warn(p, "%s names or descriptions hold %ld bytes that are not UTF-8: sent with "
			"each read as Latin-1",
		     which == STAGE_SYSTEM ? "system" : "benchmark", p->cp.fixed);
	}
	if (rc == 0)
		rc = flush_copy(p, &p->cp, err);
	if (rc < 0) {
		/* abort the COPY: the server fails the statement, the rest of
		 * the query is skipped and the transaction rolled back */
		PQputCopyEnd(p->conn, "accelbench: local read failed");
		return rc;
	}
	if (PQputCopyEnd(p->conn, NULL) != 1)
		return conn_fail(p->conn, err, "cannot end COPY");
	return 0;
}

static int drain(struct push *p, const enum stage *stages, size_t nstages, char *sqlstate,
		 struct strbuf *err);

/*
 * Send one query and serve its COPYs in order.  Returns 0, or negative
 * with *sqlstate set when the server failed a statement (an open
 * transaction is rolled back).
 */
static int run_query(struct push *p, const char *sql, const enum stage *stages, size_t nstages,
		     char *sqlstate, struct strbuf *err)
{
	PGconn *c = p->conn;

	memset(sqlstate, 0, 6);
	if (!PQsendQuery(c, sql))
		return conn_fail(c, err, "cannot send to PostgreSQL");
	return drain(p, stages, nstages, sqlstate, err);
}

/* Collect the results of the query running on p->conn, serving its COPYs. */
static int drain(struct push *p, const enum stage *stages, size_t nstages, char *sqlstate,
		 struct strbuf *err)
{
	PGconn *c = p->conn;
	PGresult *res;
	size_t k = 0;
	int rc = 0;

	memset(sqlstate, 0, 6);
	while ((res = PQgetResult(c)) != NULL) {
		switch (PQresultStatus(res)) {
		case PGRES_COPY_IN:
			if (rc == 0 && k < nstages)
				rc = send_stage(p, stages[k++], err);
			else
				PQputCopyEnd(c, "accelbench: unexpected COPY");
			break;
		case PGRES_TUPLES_OK:
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
				rc = conn_fail(c, err, "lost the PostgreSQL connection");
			break;
		}
	}
	if (rc < 0 && PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE) {
		res = PQexec(c, "ROLLBACK");
		PQclear(res);
	}
	return rc;
}

static int finish_batch(struct push *p, struct lane *l, struct strbuf *err);

static int retryable(const char *sqlstate)
{
	return !strcmp(sqlstate, "40P01") || !strcmp(sqlstate, "40001");
}

static int push_dimensions(struct push *p, struct strbuf *err)
{
	static const enum stage stages[] = { STAGE_SYSTEM, STAGE_BENCH };
	char sqlstate[6];
	int tries, rc;

	for (tries = 0;; tries++) {
		rc = run_query(p,
			       "BEGIN; TRUNCATE pg_temp.st_system, pg_temp.st_bench;"
			       " COPY pg_temp.st_system FROM STDIN;"
			       " COPY pg_temp.st_bench FROM STDIN;"
			       " SELECT accelbench.merge_dimensions(); COMMIT",
			       stages, 2, sqlstate, err);
		if (rc == 0 || !retryable(sqlstate) || tries >= PUSH_RETRIES)
			return rc;
		p->t->retries++;
	}
}

/* Name the source a failed batch was merging (the first without a result). */
static void name_failed_source(struct push *p, struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	PGresult *res = PQexec(p->conn, "SELECT coalesce(max(src) + 1, 0) FROM pg_temp.sb_result");
	size_t k = 0;

	if (res && PQresultStatus(res) == PGRES_TUPLES_OK)
		k = (size_t)strtoul(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	if (k < p->nbatch) {
		strbuf_addf(&msg, "cannot push '%s': %s", p->batch[k].path, err->buf);
		strbuf_reset(err);
		strbuf_addbuf(err, &msg);
	}
	strbuf_release(&msg);
}

static void use_lane(struct push *p, struct lane *l)
{
	p->conn = l->conn;
	p->batch = l->batch;
	p->nbatch = l->nbatch;
}

/* Stage a lane's batch, then start merging it (CALL, not waited for). */
static int start_batch(struct push *p, struct lane *l, struct lane *other, struct strbuf *err)
{
	static const enum stage stages[] = { STAGE_SOURCE, STAGE_SYSTEM, STAGE_BENCH, STAGE_RUN,
					     STAGE_METRIC, STAGE_POWER };
	char sqlstate[6];
	size_t k;
	int rc;

	use_lane(p, l);
	if (p->afixed < l->nbatch) {
		p->afixed = l->nbatch;
		p->fixed = ab_realloc(p->fixed, p->afixed * sizeof(*p->fixed));
	}
	memset(p->fixed, 0, l->nbatch * sizeof(*p->fixed));
	rc = run_query(p,
		       "BEGIN; TRUNCATE pg_temp.sb_source, pg_temp.st_system, pg_temp.st_bench,"
		       " pg_temp.sb_run, pg_temp.sb_metric, pg_temp.sb_power, pg_temp.sb_result;"
		       " COPY pg_temp.sb_source FROM STDIN; COPY pg_temp.st_system FROM STDIN;"
		       " COPY pg_temp.st_bench FROM STDIN; COPY pg_temp.sb_run FROM STDIN;"
		       " COPY pg_temp.sb_metric FROM STDIN; COPY pg_temp.sb_power FROM STDIN;"
		       " ANALYZE pg_temp.sb_run, pg_temp.sb_metric, pg_temp.sb_power; COMMIT",
		       stages, STAGE_COUNT, sqlstate, err);
	if (rc < 0)
		return rc;
	for (k = 0; k < l->nbatch; k++)
		if (p->fixed[k]) {
			p->t->sources_converted++;
			warn(p, "'%s': %ld byte%s that %s not UTF-8 sent with each read as Latin-1 "
				"(NUL as U+FFFD); the store holds UTF-8 text",
			     l->batch[k].path, p->fixed[k], p->fixed[k] == 1 ? "" : "s",
			     p->fixed[k] == 1 ? "is" : "are");
		}
	/* sources commit in local order: this batch merges after the other's */
	if (other && other->pending) {
		rc = finish_batch(p, other, err);
		if (rc < 0)
			return rc;
	}
	use_lane(p, l);
	if (!PQsendQuery(l->conn, "CALL accelbench.merge_batch()"))
		return conn_fail(l->conn, err, "cannot send to PostgreSQL");
	l->pending = 1;
	return 0;
}

/* Wait for a lane's merge (calling it again after a deadlock), count what it did. */
static int finish_batch(struct push *p, struct lane *l, struct strbuf *err)
{
	char sqlstate[6];
	PGresult *res;
	int tries, rc, r;

	use_lane(p, l);
	l->pending = 0;
	rc = drain(p, NULL, 0, sqlstate, err);
	for (tries = 0; rc < 0 && retryable(sqlstate) && tries < PUSH_RETRIES; tries++) {
		p->t->retries++;
		rc = run_query(p, "CALL accelbench.merge_batch()", NULL, 0, sqlstate, err);
	}
	if (rc < 0) {
		name_failed_source(p, err);
		return rc;
	}
	res = PQexec(l->conn, "SELECT source_id IS NULL, runs, deduped, metrics, power"
			      " FROM pg_temp.sb_result");
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		rc = pg_fail_res(res, err, "cannot read what was merged", NULL);
		PQclear(res);
		return rc;
	}
	if ((size_t)PQntuples(res) != l->nbatch) {
		PQclear(res);
		return ab_fail(err, AB_EINTERNAL, "merge_batch() merged %d of %zu sources",
			       PQntuples(res), l->nbatch);
	}
	for (r = 0; r < PQntuples(res); r++) {
		if (!strcmp(PQgetvalue(res, r, 0), "t")) {
			p->t->sources_present++;
			continue;
		}
		p->t->sources_sent++;
		p->t->runs += atol(PQgetvalue(res, r, 1));
		p->t->runs_deduped += atol(PQgetvalue(res, r, 2));
		p->t->metrics += atol(PQgetvalue(res, r, 3));
		p->t->power_samples += atol(PQgetvalue(res, r, 4));
	}
	PQclear(res);
	p->t->sources_done += (long)l->nbatch;
	progress(p, 0);
	return 0;
}

/* Mark the sources the store has already (one query per batch of hashes). */
static int find_present(struct push *p, const struct pg_local_source *v, size_t n,
			unsigned char *present, struct strbuf *err)
{
	struct strbuf arr = STRBUF_INIT, ident = STRBUF_INIT;
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
		/* small batches: a nested loop is fine; the store's identity
		 * is the local one as UTF-8 */
		for (r = 0; r < PQntuples(res); r++)
			for (i = start; i < end; i++) {
				if (present[i] || strcmp(v[i].sha256, PQgetvalue(res, r, 0)))
					continue;
				strbuf_reset(&ident);
				pg_utf8_add(&ident, v[i].identity, strlen(v[i].identity));
				if (!strcmp(ident.buf, PQgetvalue(res, r, 1))) {
					present[i] = 1;
					break;
				}
			}
		PQclear(res);
	}
	strbuf_release(&arr);
	strbuf_release(&ident);
	return rc;
}

int pg_push(struct pg *pg, struct db *db, const struct pg_progress *prog,
	    struct pg_totals *totals, struct strbuf *err)
{
	struct push p = { 0 };
	struct lane lanes[2] = { { 0 }, { 0 } };
	struct pg_local_source *v = NULL;
	unsigned char *present = NULL;
	PGconn *second = NULL;
	size_t n = 0, i;
	int rc, cur = 0, nlanes = 1, k;

	memset(totals, 0, sizeof(*totals));
	p.pg = pg;
	p.prog = prog;
	p.t = totals;
	strbuf_init(&p.cp.buf, PG_COPY_CHUNK + 65536);
	p.cp.flush = flush_copy;
	p.cp.ctx = &p;
	p.conn = pg->conn;
	lanes[0].conn = pg->conn;
	rc = pg_check_schema(pg, err);
	if (rc < 0)
		goto out;
	rc = pg_exec(pg, stage_ddl, err);
	if (rc < 0)
		goto out;
	/* a second connection when the server grants one (else one lane) */
	second = PQconnectdb(pg->url.buf);
	if (second && PQstatus(second) == CONNECTION_OK) {
		PGresult *res = PQexec(second, stage_ddl);
		if (res && PQresultStatus(res) == PGRES_COMMAND_OK) {
			lanes[1].conn = second;
			nlanes = 2;
		}
		PQclear(res);
	}
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
	/* batches of the missing sources, in local order; with two lanes the
	 * COPY of one overlaps the merge of the previous */
	for (i = 0; i < n;) {
		size_t j = i, runs = 0;
		struct lane *l = &lanes[cur];

		if (present[i]) {
			totals->sources_present++;
			totals->sources_done++;
			i++;
			continue;
		}
		/* a contiguous run of missing sources, bounded in count and runs */
		while (j < n && !present[j] && j - i < BATCH_SOURCES &&
		       (j == i || runs + (size_t)v[j].nruns <= BATCH_RUNS)) {
			runs += (size_t)v[j].nruns;
			j++;
		}
		l->batch = &v[i];
		l->nbatch = j - i;
		rc = start_batch(&p, l, nlanes == 2 ? &lanes[1 - cur] : NULL, err);
		if (rc == 0 && nlanes == 1)
			rc = finish_batch(&p, l, err);
		if (rc < 0)
			goto out;
		cur = nlanes == 2 ? 1 - cur : 0;
		i = j;
	}
	for (k = 0; k < 2; k++) {
		struct lane *l = &lanes[(cur + k) % 2];
		if (l->pending) {
			rc = finish_batch(&p, l, err);
			if (rc < 0)
				goto out;
		}
	}
out:
	for (k = 0; k < 2; k++)
		if (lanes[k].pending) { /* after an error: let the other lane finish cleanly */
			struct strbuf ignore = STRBUF_INIT;
			finish_batch(&p, &lanes[k], &ignore);
			strbuf_release(&ignore);
		}
	if (second)
		PQfinish(second);
	progress(&p, 1);
	pg_local_sources_free(v, n);
	free(present);
	pg_local_free(p.local);
	strbuf_release(&p.cp.buf);
	free(p.fixed);
	return rc;
}
