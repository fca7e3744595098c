/*
 * pg_push.c - `accelbench push`: send the local sources the central store
 * lacks, each in its own PostgreSQL transaction, straight into the central
 * tables.
 *
 * Systems, benchmarks, param sets and metric kinds go first (all of them,
 * merged server-side); their store ids map the local ones.  One block of
 * ids is reserved for every source to send (accelbench.reserve_ids(), one
 * round trip), in local order: a source takes base, its runs base + seq,
 * so every row can go straight into its final table with binary COPY.
 * Then sources in batches (many small ones, or one large one), one query
 * per batch:
 *   BEGIN; INSERT INTO source ...; COPY run; COPY metric_data; COPY power_sample; COMMIT;
 *   BEGIN; ... COMMIT; ...
 * one transaction per source, committed in local order, with no round
 * trip per source beyond COPY's own.  Two lanes (threads), each with its
 * own connection and local read transaction, take batches in turn: two
 * server backends work at once and one lane's round trips overlap the
 * other's work.  Everything the lanes share is in struct shared, under
 * its mutex.
 *
 * A unique violation stops the query at the source that caused it (the
 * ones before are committed): on (sha256, identity) another pusher stored
 * the source first (counted as there); on a dedupe key the store holds
 * some of its runs through another source, so it is sent again "keyed":
 * the runs the store has (looked up by key) become further provenances in
 * accelbench.run_source and the rest go in dedupe-key order, the order
 * every keyed sender locks keys in, so pushers wait for each other rather
 * than deadlock.  A deadlock or serialization failure sends the source
 * keyed again.  A killed pusher leaves nothing half-sent: the open
 * transaction is rolled back by the server; the next push sends the rest.
 */
#include "core/compat.h"
#include "pg_priv.h"

#include <pthread.h>
#include <time.h>

#define PUSH_RETRIES 20
#define PRESENT_BATCH 2000

/* a batch: up to this many sources, or runs (a larger source goes alone) */
#define BATCH_SOURCES 500
#define BATCH_RUNS 20000

static const char stage_ddl[] =
	"SET synchronous_commit = off;"
	"CREATE TEMP TABLE IF NOT EXISTS st_system(lid bigint, name text, display_name text,"
	" vendor text, accelerator text, per_node bigint, host_cpu text, interconnect text,"
	" site text, tdp_w float8, meta text);"
	"CREATE TEMP TABLE IF NOT EXISTS st_bench(lid bigint, suite text, name text,"
	" metric text, unit text, better text);"
	"CREATE TEMP TABLE IF NOT EXISTS st_set(lid bigint, kv text);"
	"CREATE TEMP TABLE IF NOT EXISTS st_kind(lid bigint, name text, unit text, meta text)";

/* the COPYs of one source, in order (run_source only when keyed) */
enum stage { STAGE_RUN, STAGE_RUN_SOURCE, STAGE_METRIC, STAGE_POWER };

/* one source of a batch */
struct job {
	const struct pg_local_source *s;
	int64_t base;              /* its store id; its runs base + seq */
	int keyed;                 /* sent again: runs the store has skipped, key order */
	unsigned char *skip;       /* keyed: skip[seq] = the store has that run */
	int64_t *dup_id, *dup_line; /* keyed: the store's run id, and line, per skipped seq */
	long tries;
	long runs, deduped, metrics, power; /* rows COPYed (counted once committed) */
	long fixed;                /* bytes converted to UTF-8 */
	char *differs;             /* keyed: the warning about runs that measured otherwise */
};

/* the store's systems (b NULL) and benchmarks by name */
struct dim {
	char *a, *b;
	int64_t id;
};

/* What the two lanes share: taken under mu (when there are two). */
struct shared {
	pthread_mutex_t mu;
	int threads;               /* the second lane runs: lock mu */
	const struct pg_local_source *v;
	const unsigned char *present;
	const int64_t *base;       /* each source's reserved store id */
	size_t n, next;            /* sources; the first not yet taken into a batch */
	int failed;                /* a lane failed: take no more batches */
	struct timespec last;
};

/* One lane: a PostgreSQL connection and a local read transaction of its
 * own, sending the batches it takes (lane 0 in the calling thread). */
struct push {
	struct pg *pg;
	struct shared *sh;
	PGconn *conn;
	struct pg_local *local;
	const struct pg_progress *prog;
	struct pg_totals *t;
	struct pg_copy cp;
	int64_t *sys, *bench, *set, *kind; /* local id -> store id */
	size_t nsys, nbench, nset, nkind;
	struct dim *dims;
	size_t ndims;
	struct dim *described;     /* a = systems file base name, id = the store's system */
	size_t ndescribed;
	/* the query being served: its jobs, and which COPY comes next */
	struct job *jobs;
	size_t njobs, cur;
	int next_stage;            /* the next COPY of the job (enum stage) */
	enum stage last_stage;     /* the COPY sent last, for its row count */
	int in_dims;               /* serving push_dimensions(): systems, benchmarks, sets, kinds */
	int send_sets;             /* push_dimensions(): param sets and metric kinds too */
	struct db *db2;            /* the second lane's own handle of the local database */
	struct strbuf err;         /* the lane's error */
	int rc;
};

static void lock(struct push *p)
{
	if (p->sh->threads)
		pthread_mutex_lock(&p->sh->mu);
}

static void unlock(struct push *p)
{
	if (p->sh->threads)
		pthread_mutex_unlock(&p->sh->mu);
}

/* with the lock held */
static void progress(struct push *p, int final)
{
	pg_progress_report(p->prog, &p->sh->last, p->t, final);
}

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
	lock(p);
	p->prog->warn(p->prog->ctx, msg.buf);
	unlock(p);
	strbuf_release(&msg);
}

/* libpq prints notices (e.g. "relation exists, skipping") on stderr */
static void quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
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
	lock(p);
	p->t->bytes += cp->buf.len;
	progress(p, 0);
	unlock(p);
	strbuf_reset(&cp->buf);
	return 0;
}

static void job_clear(struct job *j)
{
	free(j->skip);
	free(j->dup_id);
	free(j->dup_line);
	free(j->differs);
	j->skip = NULL;
	j->dup_id = j->dup_line = NULL;
	j->differs = NULL;
}

/* The rows of one COPY of a job. */
static int copy_job_stage(struct push *p, struct job *j, enum stage which, struct strbuf *err)
{
	struct pg_local_ids ids = { 0 };
	int64_t seq;
	int rc = 0;

	ids.base = j->base;
	ids.sys = p->sys;
	ids.nsys = p->nsys;
	ids.bench = p->bench;
	ids.nbench = p->nbench;
	ids.set = p->set;
	ids.nset = p->nset;
	ids.kind = p->kind;
	ids.nkind = p->nkind;
	ids.skip = j->skip;
	ids.nskip = j->skip ? (size_t)j->s->max_seq + 1 : 0;
	ids.by_key = j->keyed;
	switch (which) {
	case STAGE_RUN:
		rc = pg_local_copy_final_runs(p->local, j->s->id, &ids, &p->cp, err);
		break;
	case STAGE_RUN_SOURCE: /* source_id, seq, line, run_id */
		for (seq = 0; rc == 0 && seq <= j->s->max_seq; seq++) {
			if (!j->skip[seq])
				continue;
			pg_copy_int(&p->cp, j->base);
			pg_copy_int4(&p->cp, (int32_t)seq);
			if (j->dup_line[seq] > 0)
				pg_copy_int(&p->cp, j->dup_line[seq]);
			else
				pg_copy_null(&p->cp);
			pg_copy_int(&p->cp, j->dup_id[seq]);
			rc = pg_copy_end_row(&p->cp, err);
		}
		break;
	case STAGE_METRIC:
		rc = pg_local_copy_final_metrics(p->local, j->s->id, &ids, &p->cp, err);
		break;
	default:
		rc = pg_local_copy_final_power(p->local, j->s->id, &ids, &p->cp, err);
		break;
	}
	return rc;
}

/* Serve the COPY the server asks for next. */
static int send_copy(struct push *p, struct strbuf *err)
{
	struct job *j = NULL;
	enum stage which;
	long before;
	int rc;

	strbuf_reset(&p->cp.buf);
	p->cp.ncols = 0;
	p->cp.rows = 0;
	before = p->cp.fixed;
	if (p->in_dims) { /* systems, benchmarks, param sets: text COPY into staging */
		int stage = p->next_stage++;
		p->cp.binary = 0;
		rc = stage == 0	  ? pg_local_copy_systems(p->local, &p->cp, err)
		     : stage == 1 ? pg_local_copy_benchmarks(p->local, &p->cp, err)
		     : !p->send_sets ? 0
		     : stage == 2 ? pg_local_copy_param_sets(p->local, &p->cp, err)
				  : pg_local_copy_metric_kinds(p->local, &p->cp, err);
		if (rc == 0 && p->cp.fixed > before)
			warn(p, "system or benchmark names or descriptions or params hold %ld byte%s "
				"that %s not UTF-8: sent with each read as Latin-1",
			     p->cp.fixed - before, p->cp.fixed - before == 1 ? "" : "s",
			     p->cp.fixed - before == 1 ? "is" : "are");
	} else {
		if (p->cur >= p->njobs) {
			PQputCopyEnd(p->conn, "accelbench: unexpected COPY");
			return ab_fail(err, AB_EINTERNAL, "the server asked for an unexpected COPY");
		}
		j = &p->jobs[p->cur];
		which = (enum stage)p->next_stage;
		p->cp.binary = 1;
		pg_copy_begin(&p->cp);
		rc = copy_job_stage(p, j, which, err);
		if (rc == 0)
			pg_copy_finish(&p->cp);
		j->fixed += p->cp.fixed - before;
		p->last_stage = which;
		/* the next COPY of this job (run_source only when keyed) */
		p->next_stage++;
		if (p->next_stage == STAGE_RUN_SOURCE && !j->keyed)
			p->next_stage++;
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

/* A finished COPY's row count, to the job being sent. */
static void count_copy(struct push *p, PGresult *res)
{
	struct job *j;
	long n;

	if (p->in_dims || p->cur >= p->njobs || strncmp(PQcmdStatus(res), "COPY ", 5))
		return;
	j = &p->jobs[p->cur];
	n = atol(PQcmdTuples(res));
	switch (p->last_stage) {
	case STAGE_RUN: j->runs = n; break;
	case STAGE_RUN_SOURCE: j->deduped = n; break;
	case STAGE_METRIC: j->metrics = n; break;
	default: j->power = n; break;
	}
}

/* A job committed: count it, warn about converted text, go to the next. */
static void job_done(struct push *p)
{
	struct job *j = &p->jobs[p->cur];

	lock(p);
	p->t->sources_sent++;
	p->t->sources_done++;
	p->t->runs += j->runs;
	p->t->runs_deduped += j->deduped;
	p->t->metrics += j->metrics;
	p->t->power_samples += j->power;
	if (j->fixed)
		p->t->sources_converted++;
	progress(p, 0);
	unlock(p);
	if (j->fixed) {
		warn(p, "'%s': %ld byte%s that %s not UTF-8 sent with each read as Latin-1 "
			"(NUL as U+FFFD); the store holds UTF-8 text",
		     j->s->path, j->fixed, j->fixed == 1 ? "" : "s", j->fixed == 1 ? "is" : "are");
	}
	if (j->differs)
		warn(p, "%s", j->differs);
	job_clear(j);
	p->cur++;
	p->next_stage = STAGE_RUN;
}

/*
 * Send one query and serve its COPYs.  Returns 0, or negative with
 * *sqlstate (and the violated constraint) set when the server failed a
 * statement; an open transaction is rolled back.
 */
static int run_query(struct push *p, const char *sql, char *sqlstate, struct strbuf *constraint,
		     struct strbuf *err)
{
	PGconn *c = p->conn;
	PGresult *res;
	int rc = 0;

	memset(sqlstate, 0, 6);
	strbuf_reset(constraint);
	if (!PQsendQuery(c, sql))
		return conn_fail(c, err, "cannot send to PostgreSQL");
	while ((res = PQgetResult(c)) != NULL) {
		switch (PQresultStatus(res)) {
		case PGRES_COPY_IN:
			if (rc == 0)
				rc = send_copy(p, err);
			else
				PQputCopyEnd(c, "accelbench: stopped");
			break;
		case PGRES_TUPLES_OK:
			break;
		case PGRES_COMMAND_OK:
			if (rc == 0 && !p->in_dims && !strcmp(PQcmdStatus(res), "COMMIT"))
				job_done(p);
			else if (rc == 0)
				count_copy(p, res);
			break;
		default:
			if (rc == 0) {
				const char *con = PQresultErrorField(res, PG_DIAG_CONSTRAINT_NAME);
				rc = pg_fail_res(res, err, "PostgreSQL error", sqlstate);
				if (con)
					strbuf_addstr(constraint, con);
			}
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

static int retryable(const char *sqlstate)
{
	return !strcmp(sqlstate, "40P01") || !strcmp(sqlstate, "40001");
}

/* ---- systems and benchmarks ------------------------------------------- */

static int dim_cmp(const void *x, const void *y)
{
	const struct dim *a = x, *b = y;
	int c = strcmp(a->a, b->a);

	if (c || (!a->b && !b->b))
		return c;
	return strcmp(a->b ? a->b : "", b->b ? b->b : "");
}

static void free_dims(struct push *p)
{
	size_t i;

	for (i = 0; i < p->ndims; i++) {
		free(p->dims[i].a);
		free(p->dims[i].b);
	}
	free(p->dims);
	p->dims = NULL;
	p->ndims = 0;
}

static int load_store_dims(struct push *p, int benchmarks, struct strbuf *err)
{
	PGresult *res = PQexec(p->conn, benchmarks ? "SELECT id, suite, name FROM accelbench.benchmark"
						   : "SELECT id, name FROM accelbench.system");
	int r;

	free_dims(p);
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		int rc = pg_fail_res(res, err, "cannot read the central systems and benchmarks", NULL);
		PQclear(res);
		return rc;
	}
	p->ndims = (size_t)PQntuples(res);
	p->dims = ab_calloc(p->ndims ? p->ndims : 1, sizeof(*p->dims));
	for (r = 0; r < PQntuples(res); r++) {
		p->dims[r].id = strtoll(PQgetvalue(res, r, 0), NULL, 10);
		p->dims[r].a = ab_strdup(PQgetvalue(res, r, 1));
		p->dims[r].b = benchmarks ? ab_strdup(PQgetvalue(res, r, 2)) : NULL;
	}
	PQclear(res);
	qsort(p->dims, p->ndims, sizeof(*p->dims), dim_cmp);
	return 0;
}

/* One local system/benchmark: its store id into the map. */
static int map_dim(void *ctx, int benchmarks, int64_t id, const char *a, const char *b,
		   struct strbuf *err)
{
	struct push *p = ctx;
	struct strbuf ua = STRBUF_INIT, ub = STRBUF_INIT;
	struct dim key, *hit;
	int64_t **map = benchmarks ? &p->bench : &p->sys;
	size_t *n = benchmarks ? &p->nbench : &p->nsys;
	const char *described = benchmarks ? NULL : b;

	if (id < 0 || id > INT32_MAX)
		return ab_fail(err, AB_EINTERNAL, "local id %lld out of range", (long long)id);
	/* the store has the names as UTF-8 */
	if (!benchmarks)
		b = NULL;
	pg_utf8_add(&ua, a, strlen(a));
	if (b)
		pg_utf8_add(&ub, b, strlen(b));
	key.a = ua.buf;
	key.b = b ? ub.buf : NULL;
	hit = bsearch(&key, p->dims, p->ndims, sizeof(*p->dims), dim_cmp);
	strbuf_release(&ua);
	strbuf_release(&ub);
	if (described && hit) { /* for the systems file's link */
		p->described = ab_realloc(p->described, (p->ndescribed + 1) * sizeof(*p->described));
		p->described[p->ndescribed].a = ab_strdup(described);
		p->described[p->ndescribed].b = NULL;
		p->described[p->ndescribed].id = hit->id;
		p->ndescribed++;
	}
	if ((size_t)id >= *n) {
		size_t m = (size_t)id + 1 > 2 * *n ? (size_t)id + 1 : 2 * *n;
		*map = ab_realloc(*map, m * sizeof(**map));
		memset(*map + *n, 0, (m - *n) * sizeof(**map));
		*n = m;
	}
	(*map)[id] = hit ? hit->id : 0;
	return 0;
}

/* a staged metric kind's key in the store (s: the staging row) */
#define KIND_MD5 "md5(s.name || chr(31) || s.unit || chr(31) || coalesce(s.meta, ''))::uuid"

/* map[lid] = the store's id, for every row (lid, id) of a query over what
 * push_dimensions() staged. */
static int map_staged(struct push *p, const char *sql, int64_t **map, size_t *n,
		      struct strbuf *err)
{
	PGresult *res = PQexec(p->conn, sql);
	int r;

	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		int rc = pg_fail_res(res, err, "cannot read the central param sets and metric kinds",
				     NULL);
		PQclear(res);
		return rc;
	}
	for (r = 0; r < PQntuples(res); r++) {
		long long lid = strtoll(PQgetvalue(res, r, 0), NULL, 10);

		if (lid < 0 || lid > INT32_MAX)
			continue;
		if ((size_t)lid >= *n) {
			size_t m = (size_t)lid + 1 > 2 * *n ? (size_t)lid + 1 : 2 * *n;
			*map = ab_realloc(*map, m * sizeof(**map));
			memset(*map + *n, 0, (m - *n) * sizeof(**map));
			*n = m;
		}
		(*map)[lid] = strtoll(PQgetvalue(res, r, 1), NULL, 10);
	}
	PQclear(res);
	return 0;
}

static int push_dimensions(struct push *p, struct strbuf *err)
{
	struct strbuf constraint = STRBUF_INIT;
	char sqlstate[6];
	int tries, rc;

	for (tries = 0;; tries++) {
		p->in_dims = 1;
		p->next_stage = 0;
		/* param sets and metric kinds: new ones in key order, the order
		 * concurrent pushers lock them in */
		rc = run_query(p,
			       "BEGIN; TRUNCATE pg_temp.st_system, pg_temp.st_bench, pg_temp.st_set,"
			       "  pg_temp.st_kind;"
			       " COPY pg_temp.st_system FROM STDIN;"
			       " COPY pg_temp.st_bench FROM STDIN;"
			       " COPY pg_temp.st_set FROM STDIN;"
			       " COPY pg_temp.st_kind FROM STDIN;"
			       " SELECT accelbench.merge_dimensions();"
			       " INSERT INTO accelbench.param_set(kv, kv_md5)"
			       "  SELECT s.kv, md5(s.kv)::uuid FROM pg_temp.st_set s"
			       "  WHERE NOT EXISTS (SELECT 1 FROM accelbench.param_set x"
			       "   WHERE x.kv_md5 = md5(s.kv)::uuid)"
			       "  ORDER BY 2 ON CONFLICT (kv_md5) DO NOTHING;"
			       " INSERT INTO accelbench.metric_kind(name, unit, meta, kind_md5)"
			       "  SELECT s.name, s.unit, s.meta, " KIND_MD5 " FROM pg_temp.st_kind s"
			       "  WHERE NOT EXISTS (SELECT 1 FROM accelbench.metric_kind x"
			       "   WHERE x.kind_md5 = " KIND_MD5 ")"
			       "  ORDER BY 4 ON CONFLICT (kind_md5) DO NOTHING; COMMIT",
			       sqlstate, &constraint, err);
		if (rc == 0 || !retryable(sqlstate) || tries >= PUSH_RETRIES)
			break;
		lock(p);
		p->t->retries++;
		unlock(p);
	}
	p->in_dims = 0;
	p->next_stage = 0;
	strbuf_release(&constraint);
	if (rc < 0)
		return rc;
	rc = load_store_dims(p, 0, err);
	if (rc == 0)
		rc = pg_local_dims(p->local, 0, map_dim, p, err);
	if (rc == 0)
		rc = load_store_dims(p, 1, err);
	if (rc == 0)
		rc = pg_local_dims(p->local, 1, map_dim, p, err);
	free_dims(p);
	if (rc == 0 && p->send_sets)
		rc = map_staged(p, "SELECT s.lid, x.id FROM pg_temp.st_set s"
				   " JOIN accelbench.param_set x ON x.kv_md5 = md5(s.kv)::uuid",
				&p->set, &p->nset, err);
	if (rc == 0 && p->send_sets)
		rc = map_staged(p, "SELECT s.lid, x.id FROM pg_temp.st_kind s"
				   " JOIN accelbench.metric_kind x ON x.kind_md5 = " KIND_MD5,
				&p->kind, &p->nkind, err);
	return rc;
}

/* ---- sources ------------------------------------------------------------ */

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
		res = PQexecParams(p->conn,
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

/* A text value as an SQL literal, UTF-8 (the caller counts conversions). */
static void add_literal(struct push *p, struct strbuf *sql, const char *s, long *fixed)
{
	struct strbuf u = STRBUF_INIT;
	char *lit;

	*fixed += (long)pg_utf8_add(&u, s ? s : "", s ? strlen(s) : 0);
	lit = PQescapeLiteral(p->conn, u.buf, u.len);
	strbuf_addstr(sql, lit ? lit : "''");
	PQfreemem(lit);
	strbuf_release(&u);
}

static void add_job_sql(struct push *p, struct strbuf *sql, struct job *j)
{
	const struct pg_local_source *s = j->s;

	strbuf_addf(sql, "BEGIN; INSERT INTO accelbench.source(id, sha256, identity, path, format,"
			 " size, ingested_at, tool_version) VALUES (%lld, ",
		    (long long)j->base);
	add_literal(p, sql, s->sha256, &j->fixed);
	strbuf_addstr(sql, ", ");
	add_literal(p, sql, s->identity, &j->fixed);
	strbuf_addstr(sql, ", ");
	add_literal(p, sql, s->path, &j->fixed);
	strbuf_addstr(sql, ", ");
	add_literal(p, sql, s->format, &j->fixed);
	strbuf_addf(sql, ", %lld, ", (long long)s->size);
	add_literal(p, sql, s->ingested_at, &j->fixed);
	strbuf_addstr(sql, ", ");
	add_literal(p, sql, s->tool_version, &j->fixed);
	strbuf_addstr(sql, ");");
	/* a systems file: the systems it described (the local rule: meta.described
	 * is the file's base name), linked for pull */
	if (!strcmp(s->format, "accelbench-systems")) {
		const char *slash = strrchr(s->path, '/'), *base = slash ? slash + 1 : s->path;
		size_t i;
		int first = 1;

		for (i = 0; i < p->ndescribed; i++) {
			if (strcmp(p->described[i].a, base))
				continue;
			strbuf_addf(sql, "%s(%lld, %lld)",
				    first ? " INSERT INTO accelbench.source_system(source_id, system_id)"
					    " VALUES " : ", ",
				    (long long)j->base, (long long)p->described[i].id);
			first = 0;
		}
		if (!first)
			strbuf_addstr(sql, " ON CONFLICT DO NOTHING;");
	}
	strbuf_addstr(sql, " COPY accelbench.run(id, source_id, seq, line, system_id, benchmark_id,"
			   " job_id, started, finished, status, nodes, devices, global_batch,"
			   " local_batch, precision, framework, set_id, params, excluded_reason,"
			   " dedupe_key)"
			   " FROM STDIN (FORMAT binary);");
	if (j->keyed)
		strbuf_addstr(sql, " COPY accelbench.run_source(source_id, seq, line, run_id)"
				   " FROM STDIN (FORMAT binary);");
	strbuf_addstr(sql, " COPY accelbench.metric_data(run_id, kind_id, value)"
			   " FROM STDIN (FORMAT binary);"
			   " COPY accelbench.power_sample(run_id, i, device, t, watts)"
			   " FROM STDIN (FORMAT binary); COMMIT;");
}

/* keyed: collect the source's dedupe keys */
struct keys {
	struct strbuf arr;
	struct job *j;
	int64_t nkeys;
	/* key -> (seq, line), sorted by key to match the store's answer */
	struct key_seq {
		char *key;
		int64_t seq, line;
	} *v;
	size_t n, alloc;
};

static int add_key(void *ctx, int64_t seq, int64_t line, const char *key, struct strbuf *err)
{
	struct keys *k = ctx;

	(void)err;
	if (!key || !*key || seq < 0 || seq > k->j->s->max_seq)
		return 0;
	if (k->n == k->alloc) {
		k->alloc = k->alloc ? 2 * k->alloc : 256;
		k->v = ab_realloc(k->v, k->alloc * sizeof(*k->v));
	}
	k->v[k->n].key = ab_strdup(key);
	k->v[k->n].seq = seq;
	k->v[k->n].line = line;
	k->n++;
	return 0;
}

static int key_cmp(const void *x, const void *y)
{
	return strcmp(((const struct key_seq *)x)->key, ((const struct key_seq *)y)->key);
}

/*
 * A run the store holds already (by dedupe key) keeps the store's copy,
 * the first pushed.  When the local copy measured something else (the
 * local sink would have kept both: see dedupe_variant() in model/sink.c),
 * the job carries a warning naming both sources.  What a run measured is
 * compared as the sink does: its metrics as "name=value" with 12
 * significant digits, sorted by name.
 */
struct item {
	int64_t seq;
	char *s;                   /* "name=value" */
};

struct items {
	struct item *v;
	size_t n, alloc;
};

static void items_add(struct items *it, int64_t seq, const char *name, double v)
{
	struct strbuf sb = STRBUF_INIT;

	if (it->n == it->alloc) {
		it->alloc = it->alloc ? 2 * it->alloc : 64;
		it->v = ab_realloc(it->v, it->alloc * sizeof(*it->v));
	}
	strbuf_addf(&sb, "%s=%.12g", name, v);
	it->v[it->n].seq = seq;
	it->v[it->n++].s = strbuf_detach(&sb, NULL);
}

static int item_cmp(const void *x, const void *y)
{
	const struct item *a = x, *b = y;

	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return strcmp(a->s, b->s);
}

/* The items of seq (sorted; *i moves past them) joined by ", ". */
static void items_text(const struct items *it, size_t *i, int64_t seq, struct strbuf *out)
{
	strbuf_reset(out);
	while (*i < it->n && it->v[*i].seq < seq)
		(*i)++;
	for (; *i < it->n && it->v[*i].seq == seq; (*i)++) {
		if (out->len)
			strbuf_addstr(out, ", ");
		strbuf_addstr(out, it->v[*i].s);
	}
}

static void items_free(struct items *it)
{
	size_t i;

	for (i = 0; i < it->n; i++)
		free(it->v[i].s);
	free(it->v);
}

static int local_item(void *ctx, int64_t seq, const char *name, double value, struct strbuf *err)
{
	struct job *j = ((void **)ctx)[0];
	struct items *it = ((void **)ctx)[1];
	struct strbuf u = STRBUF_INIT;

	(void)err;
	if (seq < 0 || seq > j->s->max_seq || !j->skip[seq])
		return 0;
	pg_utf8_add(&u, name, strlen(name)); /* as the store has the name */
	items_add(it, seq, u.buf, value);
	strbuf_release(&u);
	return 0;
}

/* (store run id, seq) of the skipped runs, by id */
struct id_seq {
	int64_t id, seq;
};

static int id_seq_cmp(const void *x, const void *y)
{
	int64_t a = ((const struct id_seq *)x)->id, b = ((const struct id_seq *)y)->id;

	return a < b ? -1 : a > b;
}

static int compare_measured(struct push *p, struct job *j, struct strbuf *err)
{
	struct items mine = { NULL, 0, 0 }, theirs = { NULL, 0, 0 };
	struct strbuf arr = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	struct id_seq *ids = NULL;
	char **where = NULL;       /* per skipped seq: the store's source path */
	void *ctx[2] = { j, &mine };
	size_t n = 0, i, ia = 0, ib = 0;
	const char *params[1];
	PGresult *res;
	long differ = 0;
	int64_t seq, first = -1;
	int r, rc;

	for (seq = 0; seq <= j->s->max_seq; seq++)
		n += j->skip[seq];
	if (n == 0)
		return 0;
	ids = ab_calloc(n, sizeof(*ids));
	where = ab_calloc((size_t)j->s->max_seq + 1, sizeof(*where));
	strbuf_addch(&arr, '{');
	for (seq = 0, i = 0; seq <= j->s->max_seq; seq++) {
		if (!j->skip[seq])
			continue;
		ids[i].id = j->dup_id[seq];
		ids[i++].seq = seq;
		strbuf_addf(&arr, "%s%lld", i > 1 ? "," : "", (long long)j->dup_id[seq]);
	}
	strbuf_addch(&arr, '}');
	qsort(ids, n, sizeof(*ids), id_seq_cmp);
	rc = pg_local_metrics(p->local, j->s->id, local_item, ctx, err);
	if (rc < 0)
		goto out;
	params[0] = arr.buf;
	res = PQexecParams(p->conn,
			   "SELECT r.id, s.path, m.name, m.value FROM accelbench.run r"
			   " JOIN accelbench.source s ON s.id = r.source_id"
			   " LEFT JOIN accelbench.metric m ON m.run_id = r.id"
			   " WHERE r.id = ANY($1::bigint[])",
			   1, NULL, params, NULL, NULL, 0);
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		rc = pg_fail_res(res, err, "cannot read the store's copies of the runs", NULL);
		PQclear(res);
		goto out;
	}
	for (r = 0; r < PQntuples(res); r++) {
		struct id_seq key, *hit;
		double v = 0;

		key.id = strtoll(PQgetvalue(res, r, 0), NULL, 10);
		hit = bsearch(&key, ids, n, sizeof(*ids), id_seq_cmp);
		if (!hit)
			continue;
		if (!where[hit->seq])
			where[hit->seq] = ab_strdup(PQgetvalue(res, r, 1));
		if (PQgetisnull(res, r, 2) ||
		    num_parse_double(PQgetvalue(res, r, 3), strlen(PQgetvalue(res, r, 3)), &v) != NUM_OK)
			continue;
		items_add(&theirs, hit->seq, PQgetvalue(res, r, 2), v);
	}
	PQclear(res);
	if (mine.n > 1)
		qsort(mine.v, mine.n, sizeof(*mine.v), item_cmp);
	if (theirs.n > 1)
		qsort(theirs.v, theirs.n, sizeof(*theirs.v), item_cmp);
	for (seq = 0; seq <= j->s->max_seq; seq++) {
		if (!j->skip[seq])
			continue;
		items_text(&mine, &ia, seq, &a);
		items_text(&theirs, &ib, seq, &b);
		if (strcmp(a.buf, b.buf) && differ++ == 0)
			first = seq;
	}
	if (differ) {
		struct strbuf msg = STRBUF_INIT;

		ia = ib = 0;
		items_text(&mine, &ia, first, &a);
		items_text(&theirs, &ib, first, &b);
		strbuf_addf(&msg, "'%s': %ld run%s measured otherwise than the store's copies of the "
				  "same run%s (by dedupe key), which stay as pushed first; ",
			    j->s->path, differ, differ == 1 ? "" : "s", differ == 1 ? "" : "s");
		if (j->dup_line[first] > 0)
			strbuf_addf(&msg, "line %lld ", (long long)j->dup_line[first]);
		else
			strbuf_addf(&msg, "run %lld ", (long long)first);
		strbuf_addf(&msg, "here: %s; in the store through '%s': %s",
			    a.len ? a.buf : "no metrics", where[first] ? where[first] : "?",
			    b.len ? b.buf : "no metrics");
		j->differs = strbuf_detach(&msg, NULL);
	}
out:
	for (seq = 0; where && seq <= j->s->max_seq; seq++)
		free(where[seq]);
	free(where);
	free(ids);
	items_free(&mine);
	items_free(&theirs);
	strbuf_release(&arr);
	strbuf_release(&a);
	strbuf_release(&b);
	return rc;
}

/* Make j keyed: which of its runs does the store hold (by dedupe key)? */
static int prepare_keyed(struct push *p, struct job *j, struct strbuf *err)
{
	struct keys k = { STRBUF_INIT, j, 0, NULL, 0, 0 };
	const char *params[1];
	PGresult *res;
	size_t i, m = (size_t)j->s->max_seq + 1;
	int rc, r;

	job_clear(j);
	j->keyed = 1;
	j->skip = ab_calloc(m, 1);
	j->dup_id = ab_calloc(m, sizeof(*j->dup_id));
	j->dup_line = ab_calloc(m, sizeof(*j->dup_line));
	rc = pg_local_run_keys(p->local, j->s->id, add_key, &k, err);
	if (rc < 0 || k.n == 0)
		goto out;
	qsort(k.v, k.n, sizeof(*k.v), key_cmp);
	/* keys are 32 lowercase hex digits: no quoting needed in the array literal */
	strbuf_addch(&k.arr, '{');
	for (i = 0; i < k.n; i++) {
		if (i)
			strbuf_addch(&k.arr, ',');
		strbuf_addstr(&k.arr, k.v[i].key);
	}
	strbuf_addch(&k.arr, '}');
	params[0] = k.arr.buf;
	res = PQexecParams(p->conn,
			   "SELECT replace(dedupe_key::text, '-', ''), id FROM accelbench.run"
			   " WHERE dedupe_key = ANY($1::uuid[])",
			   1, NULL, params, NULL, NULL, 0);
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		rc = pg_fail_res(res, err, "cannot look up dedupe keys in the store", NULL);
		PQclear(res);
		goto out;
	}
	for (r = 0; r < PQntuples(res); r++) {
		struct key_seq probe, *hit;

		probe.key = PQgetvalue(res, r, 0);
		hit = bsearch(&probe, k.v, k.n, sizeof(*k.v), key_cmp);
		if (!hit)
			continue;
		j->skip[hit->seq] = 1;
		j->dup_id[hit->seq] = strtoll(PQgetvalue(res, r, 1), NULL, 10);
		j->dup_line[hit->seq] = hit->line;
	}
	PQclear(res);
	rc = compare_measured(p, j, err);
out:
	for (i = 0; i < k.n; i++)
		free(k.v[i].key);
	free(k.v);
	strbuf_release(&k.arr);
	return rc;
}

/* Send the jobs of a batch, from the first not yet done, until all are. */
static int send_jobs(struct push *p, struct job *jobs, size_t n, struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT, constraint = STRBUF_INIT;
	char sqlstate[6];
	size_t i;
	int rc = 0;

	p->jobs = jobs;
	p->njobs = n;
	p->cur = 0;
	while (p->cur < n) {
		struct job *j;

		strbuf_reset(&sql);
		for (i = p->cur; i < n; i++) {
			jobs[i].fixed = 0; /* conversions are counted again as sent */
			add_job_sql(p, &sql, &jobs[i]);
		}
		p->next_stage = STAGE_RUN;
		rc = run_query(p, sql.buf, sqlstate, &constraint, err);
		if (rc == 0)
			break;
		if (p->cur >= n || !sqlstate[0]) /* not the server's refusal of a source */
			break;
		j = &jobs[p->cur];
		if (!strcmp(sqlstate, "23505") && !strcmp(constraint.buf, "source_sha256_identity_key")) {
			/* another pusher stored these bytes first */
			lock(p);
			p->t->sources_present++;
			p->t->sources_done++;
			unlock(p);
			job_clear(j);
			p->cur++;
			rc = 0;
			continue;
		}
		if ((!strcmp(sqlstate, "23505") && !strcmp(constraint.buf, "run_dedupe_key_key")) ||
		    retryable(sqlstate)) {
			if (++j->tries > PUSH_RETRIES)
				break;
			if (retryable(sqlstate) || j->keyed) {
				lock(p);
				p->t->retries++;
				unlock(p);
			}
			rc = prepare_keyed(p, j, err);
			if (rc < 0)
				break;
			continue;
		}
		break;
	}
	if (rc < 0 && p->cur < n) {
		struct strbuf msg = STRBUF_INIT;
		strbuf_addf(&msg, "cannot push '%s': %s", jobs[p->cur].s->path, err->buf);
		strbuf_reset(err);
		strbuf_addbuf(err, &msg);
		strbuf_release(&msg);
	}
	for (i = 0; i < n; i++)
		job_clear(&jobs[i]);
	p->jobs = NULL;
	p->njobs = p->cur = 0;
	strbuf_release(&sql);
	strbuf_release(&constraint);
	return rc;
}

/*
 * Reserve the ids of every source to send, in one block and in local
 * order, before the lanes start: a source takes base, its runs base + seq.
 * The store's ids then follow the local order whichever lane commits
 * first, and pull (in store order) gives the pushing site's order back.
 */
static int reserve_ids(struct push *p, const struct pg_local_source *v, const unsigned char *present,
		       size_t n, int64_t *base, struct strbuf *err)
{
	char num[32];
	const char *params[1] = { num };
	PGresult *res;
	int64_t need = 0, first;
	size_t i;

	for (i = 0; i < n; i++)
		if (!present[i])
			need += v[i].max_seq + 1;
	if (need == 0)
		return 0;
	snprintf(num, sizeof(num), "%lld", (long long)need);
	res = PQexecParams(p->conn, "SELECT accelbench.reserve_ids($1::bigint)", 1, NULL, params,
			   NULL, NULL, 0);
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		int rc = pg_fail_res(res, err, "cannot reserve ids in the store", NULL);
		PQclear(res);
		return rc;
	}
	first = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	for (i = 0; i < n; i++) {
		if (present[i])
			continue;
		base[i] = first;
		first += v[i].max_seq + 1;
	}
	return 0;
}

/* The next batch: a contiguous run of missing sources, bounded in count
 * and runs (a larger source alone); 0 when none is left. */
static size_t take_batch(struct push *p, size_t *start)
{
	struct shared *sh = p->sh;
	size_t i, j, runs = 0;

	lock(p);
	i = sh->next;
	while (!sh->failed && i < sh->n && sh->present[i]) {
		p->t->sources_present++;
		p->t->sources_done++;
		i++;
	}
	j = i;
	while (!sh->failed && j < sh->n && !sh->present[j] && j - i < BATCH_SOURCES &&
	       (j == i || runs + (size_t)sh->v[j].nruns <= BATCH_RUNS)) {
		runs += (size_t)sh->v[j].nruns;
		j++;
	}
	sh->next = j;
	unlock(p);
	*start = i;
	return j - i;
}

/* Take batches until none is left (or a lane failed). */
static int lane_run(struct push *p)
{
	struct job *jobs = ab_calloc(BATCH_SOURCES, sizeof(*jobs));
	size_t start, n, k;
	int rc = 0;

	while ((n = take_batch(p, &start)) > 0) {
		memset(jobs, 0, n * sizeof(*jobs));
		for (k = 0; k < n; k++) {
			jobs[k].s = &p->sh->v[start + k];
			jobs[k].base = p->sh->base[start + k];
		}
		rc = send_jobs(p, jobs, n, &p->err);
		if (rc < 0) {
			lock(p);
			p->sh->failed = 1;
			unlock(p);
			break;
		}
	}
	free(jobs);
	return rc;
}

static void *lane_main(void *arg)
{
	struct push *p = arg;

	p->rc = lane_run(p);
	return NULL;
}

/* A second lane: its own connection and local read transaction; 0 when
 * it cannot have them (then one lane does everything). */
static int open_lane(struct push *q, const struct push *p, struct db *db)
{
	struct strbuf ignore = STRBUF_INIT;
	PGresult *res;
	int ok = 0;

	*q = *p;
	q->conn = NULL;
	q->local = NULL;
	q->db2 = NULL;
	strbuf_init(&q->err, 0);
	memset(&q->cp, 0, sizeof(q->cp));
	q->conn = PQconnectdb(p->pg->url.buf);
	if (!q->conn || PQstatus(q->conn) != CONNECTION_OK)
		goto out;
	PQsetNoticeProcessor(q->conn, quiet, NULL);
	res = PQexec(q->conn, stage_ddl);
	ok = res && PQresultStatus(res) == PGRES_COMMAND_OK;
	PQclear(res);
	if (!ok)
		goto out;
	ok = db_open(&q->db2, db_path(db), DB_READONLY | DB_MUST_EXIST, &ignore) == 0 &&
	     pg_local_open(&q->local, q->db2, &ignore) == 0 &&
	     pg_local_read_begin(q->local, &ignore) == 0;
out:
	strbuf_release(&ignore);
	if (ok) {
		strbuf_init(&q->cp.buf, PG_COPY_CHUNK + 65536);
		q->cp.flush = flush_copy;
		q->cp.ctx = q;
	}
	return ok;
}

static void close_lane(struct push *q)
{
	pg_local_free(q->local);
	db_free(q->db2);
	if (q->conn)
		PQfinish(q->conn);
	strbuf_release(&q->cp.buf);
	strbuf_release(&q->err);
}

int pg_push(struct pg *pg, struct db *db, const struct pg_progress *prog,
	    struct pg_totals *totals, struct strbuf *err)
{
	struct shared sh;
	struct push p = { 0 }, q;
	struct pg_local_source *v = NULL;
	unsigned char *present = NULL;
	int64_t *base = NULL;
	pthread_t tid;
	size_t n = 0, i, k;
	int rc, two = 0;

	memset(&sh, 0, sizeof(sh));
	memset(totals, 0, sizeof(*totals));
	p.pg = pg;
	p.sh = &sh;
	p.conn = pg->conn;
	p.prog = prog;
	p.t = totals;
	strbuf_init(&p.err, 0);
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
	for (i = 0, k = 0; i < n; i++)
		k += !present[i];
	/* every system and benchmark first, also those without runs (a
	 * systems file): descriptions are shared, not data of one source;
	 * the param sets when a source is to be sent */
	p.send_sets = k > 0;
	rc = push_dimensions(&p, err);
	if (rc < 0)
		goto out;
	base = ab_calloc(n ? n : 1, sizeof(*base));
	rc = reserve_ids(&p, v, present, n, base, err);
	if (rc < 0)
		goto out;
	sh.v = v;
	sh.n = n;
	sh.present = present;
	sh.base = base;
	/* two lanes when there is more than one batch to send: two server
	 * backends and the client's reads in parallel; each lane commits its
	 * sources in local order */
	if (k > 1 && !open_lane(&q, &p, db)) {
		close_lane(&q); /* what it opened before it could not */
	} else if (k > 1) {
		pthread_mutex_init(&sh.mu, NULL);
		sh.threads = 1;
		if (pthread_create(&tid, NULL, lane_main, &q) == 0) {
			two = 1;
		} else {
			sh.threads = 0;
			pthread_mutex_destroy(&sh.mu);
			close_lane(&q);
		}
	}
	rc = lane_run(&p);
	if (two) {
		pthread_join(tid, NULL);
		pthread_mutex_destroy(&sh.mu);
		sh.threads = 0;
		if (rc == 0 && q.rc < 0) {
			rc = q.rc;
			strbuf_reset(&p.err);
			strbuf_addbuf(&p.err, &q.err);
		}
		close_lane(&q);
	}
	if (rc < 0) {
		strbuf_reset(err);
		strbuf_addbuf(err, &p.err);
	}
out:
	progress(&p, 1);
	free(p.sys);
	free(p.bench);
	free(p.set);
	free(p.kind);
	free_dims(&p);
	for (i = 0; i < p.ndescribed; i++)
		free(p.described[i].a);
	free(p.described);
	pg_local_sources_free(v, n);
	free(present);
	free(base);
	pg_local_free(p.local);
	strbuf_release(&p.cp.buf);
	strbuf_release(&p.err);
	return rc;
}
