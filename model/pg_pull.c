/*
 * pg_pull.c - `accelbench pull`: bring the central store's sources (all, or
 * those holding runs that match a filter, each whole) into the local
 * database, one SQLite transaction per source through the ingest sink.
 *
 * Three binary COPY streams, each on its own connection and all in one exported
 * snapshot, so the server produces them in parallel: runs, metrics and
 * power samples, every one ordered by (source, seq).  The client merges
 * them like a sorted merge join: memory stays bounded by one run.
 * A run arrives under every source that brought it (its origin and the
 * further provenances); the sink stores it once, by its dedupe key.
 * Runs go to the sink PULL_BATCH at a time (prepared here, so its
 * run_many() can store those its caches resolve with one INSERT), then
 * each one's power samples under the id it got; the sink is held for the
 * whole series of sources.
 */
#include "core/compat.h"
#include "pg_priv.h"

#include <time.h>

#define PULL_MAX_FIELDS 24
/* runs handed to the sink at once (its run_many: one INSERT for many) */
#define PULL_BATCH 64

/*
 * A COPY ... TO STDOUT (FORMAT binary) stream: numbers arrive as their
 * bytes (no float printing on the server, no strtod here), text without
 * escapes.  Each row's fields point into libpq's buffer, NUL-terminated
 * in place (a field's NUL overwrites the next field's length, read
 * before; libpq ends the buffer with a NUL).
 */
struct stream {
	PGconn *conn;
	int own;                   /* a connection of our own, to PQfinish() */
	char *row;                 /* current row (libpq's buffer) */
	char *f[PULL_MAX_FIELDS];  /* NULL: SQL NULL */
	uint32_t len[PULL_MAX_FIELDS];
	int nf;
	int64_t src, seq;
	int done;
	int header;                /* the binary header was read */
	const char *what;
};

/* A run read, waiting to go to the sink with the others of its batch. */
struct pend {
	struct ingest_run r;
	char *row;                 /* its COPY row (libpq's buffer), r points into it */
	size_t m0;                 /* its metrics: metrics[m0 .. m0 + r.nmetrics) */
	int64_t src, seq;
	char key[33];              /* its dedupe key as 32 hex digits */
	struct strbuf prep;        /* what the sink's prepare() made of it */
};

struct psystem {
	int64_t id;
	struct ingest_system sys;
	char *strs[7];             /* owned strings of sys */
	json_t *meta;
};

struct pbench {
	int64_t id;
	char *suite, *name, *metric, *unit;
	int lower;
};

struct pset {
	int64_t id;
	char *kv;
};

struct pkind {
	int64_t id;
	char *name, *unit, *meta; /* meta: JSON text or NULL */
};

struct psource {
	int64_t id;
	char *sha256, *identity, *path, *format, *ingested_at, *tool_version;
	int64_t size;
};

struct pull {
	struct pg *pg;
	struct pg_local *local;
	struct ingest_sink *sink;
	const struct pg_progress *prog;
	struct pg_totals *t;
	struct timespec last;
	struct psystem *sys;
	size_t nsys;
	struct pbench *bench;
	size_t nbench;
	struct psource *src;
	size_t nsrc;
	int64_t (*links)[2];       /* (source, system) a systems file described, sorted */
	size_t nlinks;
	struct pset *sets;         /* the store's param sets, by id */
	size_t nsets;
	struct pkind *kinds;       /* the store's metric kinds, by id */
	size_t nkinds;
	struct stream st[3];
	struct ingest_metric *metrics; /* the batch's; names and units: the kinds' */
	const char **meta;         /* parallel to metrics: meta as JSON text or NULL */
	size_t nmetrics, ametrics;
	struct pend pend[PULL_BATCH];
	size_t npend;
	const struct ingest_run *runs[PULL_BATCH];
	int64_t ids[PULL_BATCH];
	int rcs[PULL_BATCH];
};

static void progress(struct pull *p, int final)
{
	pg_progress_report(p->prog, &p->last, p->t, final);
}

static char *dup_or_null(PGresult *res, int r, int c)
{
	return PQgetisnull(res, r, c) ? NULL : ab_strdup(PQgetvalue(res, r, c));
}

static int parse_i64(const char *s, int64_t *out)
{
	long long v;

	if (!s || num_parse_ll(s, strlen(s), &v) != NUM_OK)
		return -1;
	*out = (int64_t)v;
	return 0;
}

static long field_long(const char *s)
{
	int64_t v;

	return parse_i64(s, &v) == 0 && v > 0 && v <= LONG_MAX ? (long)v : 0;
}

static json_t *parse_json(const char *s)
{
	json_error_t e;

	if (!s || !*s)
		return NULL;
	return json_loads(s, JSON_DECODE_ANY, &e);
}

/* ---- the dimension tables, fetched once ------------------------------ */

static PGresult *query(struct pull *p, const char *sql, int n, const char *const *params,
		       const char *what, struct strbuf *err)
{
	PGresult *res = PQexecParams(p->pg->conn, sql, n, NULL, params, NULL, NULL, 0);

	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		pg_fail_res(res, err, what, NULL);
		PQclear(res);
		return NULL;
	}
	return res;
}

static int load_dimensions(struct pull *p, struct strbuf *err)
{
	PGresult *res;
	int r, k;

	res = query(p,
		    "SELECT id, name, display_name, vendor, accelerator, accelerators_per_node,"
		    " host_cpu, interconnect, site, tdp_w, meta FROM accelbench.system ORDER BY id",
		    0, NULL, "cannot read the central systems", err);
	if (!res)
		return -AB_EIO;
	p->nsys = (size_t)PQntuples(res);
	p->sys = ab_calloc(p->nsys ? p->nsys : 1, sizeof(*p->sys));
	for (r = 0; r < PQntuples(res); r++) {
		struct psystem *s = &p->sys[r];
		double tdp = 0;

		parse_i64(PQgetvalue(res, r, 0), &s->id);
		for (k = 0; k < 7; k++) /* name, display_name, vendor, accelerator, host_cpu, interconnect, site */
			s->strs[k] = dup_or_null(res, r, k < 4 ? k + 1 : k + 2);
		s->sys.name = s->strs[0];
		s->sys.display_name = s->strs[1];
		s->sys.vendor = s->strs[2];
		s->sys.accelerator = s->strs[3];
		s->sys.host_cpu = s->strs[4];
		s->sys.interconnect = s->strs[5];
		s->sys.site = s->strs[6];
		s->sys.accelerators_per_node = field_long(PQgetvalue(res, r, 5));
		if (!PQgetisnull(res, r, 9) &&
		    num_parse_double(PQgetvalue(res, r, 9), strlen(PQgetvalue(res, r, 9)), &tdp) ==
			    NUM_OK)
			s->sys.tdp_w = tdp;
		s->meta = parse_json(PQgetvalue(res, r, 10));
		if (s->meta && !json_is_object(s->meta)) {
			json_decref(s->meta);
			s->meta = NULL;
		}
		s->sys.meta = s->meta;
	}
	PQclear(res);
	res = query(p, "SELECT source_id, system_id FROM accelbench.source_system ORDER BY 1, 2", 0,
		    NULL, "cannot read which systems the systems files described", err);
	if (!res)
		return -AB_EIO;
	p->nlinks = (size_t)PQntuples(res);
	p->links = ab_calloc(p->nlinks ? p->nlinks : 1, sizeof(*p->links));
	for (r = 0; r < PQntuples(res); r++) {
		parse_i64(PQgetvalue(res, r, 0), &p->links[r][0]);
		parse_i64(PQgetvalue(res, r, 1), &p->links[r][1]);
	}
	PQclear(res);
	res = query(p, "SELECT id, kv FROM accelbench.param_set ORDER BY id", 0, NULL,
		    "cannot read the central param sets", err);
	if (!res)
		return -AB_EIO;
	p->nsets = (size_t)PQntuples(res);
	p->sets = ab_calloc(p->nsets ? p->nsets : 1, sizeof(*p->sets));
	for (r = 0; r < PQntuples(res); r++) {
		parse_i64(PQgetvalue(res, r, 0), &p->sets[r].id);
		p->sets[r].kv = ab_strdup(PQgetvalue(res, r, 1));
	}
	PQclear(res);
	res = query(p, "SELECT id, name, unit, meta FROM accelbench.metric_kind ORDER BY id", 0,
		    NULL, "cannot read the central metric kinds", err);
	if (!res)
		return -AB_EIO;
	p->nkinds = (size_t)PQntuples(res);
	p->kinds = ab_calloc(p->nkinds ? p->nkinds : 1, sizeof(*p->kinds));
	for (r = 0; r < PQntuples(res); r++) {
		parse_i64(PQgetvalue(res, r, 0), &p->kinds[r].id);
		p->kinds[r].name = ab_strdup(PQgetvalue(res, r, 1));
		p->kinds[r].unit = ab_strdup(PQgetvalue(res, r, 2));
		/* meta stays the JSON text the store holds (the local text,
		 * compact): the sink stores it without parsing */
		p->kinds[r].meta = PQgetisnull(res, r, 3) || !*PQgetvalue(res, r, 3)
					   ? NULL
					   : ab_strdup(PQgetvalue(res, r, 3));
	}
	PQclear(res);
	res = query(p, "SELECT id, suite, name, metric, unit, better FROM accelbench.benchmark"
		       " ORDER BY id",
		    0, NULL, "cannot read the central benchmarks", err);
	if (!res)
		return -AB_EIO;
	p->nbench = (size_t)PQntuples(res);
	p->bench = ab_calloc(p->nbench ? p->nbench : 1, sizeof(*p->bench));
	for (r = 0; r < PQntuples(res); r++) {
		struct pbench *b = &p->bench[r];

		parse_i64(PQgetvalue(res, r, 0), &b->id);
		b->suite = ab_strdup(PQgetvalue(res, r, 1));
		b->name = ab_strdup(PQgetvalue(res, r, 2));
		b->metric = ab_strdup(PQgetvalue(res, r, 3));
		b->unit = ab_strdup(PQgetvalue(res, r, 4));
		b->lower = !strcmp(PQgetvalue(res, r, 5), "lower");
	}
	PQclear(res);
	return 0;
}

/* The dimension tables are read ORDER BY id; each struct starts with its
 * int64_t id, so one comparison serves all three binary searches. */
static int id_cmp(const void *key, const void *elem)
{
	int64_t a = *(const int64_t *)key, b = *(const int64_t *)elem;

	return a < b ? -1 : a > b;
}

static struct psystem *find_system(struct pull *p, int64_t id)
{
	return bsearch(&id, p->sys, p->nsys, sizeof(*p->sys), id_cmp);
}

static const struct pset *find_set(struct pull *p, int64_t id)
{
	return bsearch(&id, p->sets, p->nsets, sizeof(*p->sets), id_cmp);
}

static const struct pkind *find_kind(struct pull *p, int64_t id)
{
	return bsearch(&id, p->kinds, p->nkinds, sizeof(*p->kinds), id_cmp);
}

static struct pbench *find_bench(struct pull *p, int64_t id)
{
	return bsearch(&id, p->bench, p->nbench, sizeof(*p->bench), id_cmp);
}

/* ---- which sources ----------------------------------------------------- */

static int load_sources(struct pull *p, const struct pg_filter *f, struct strbuf *err)
{
	const char *params[4] = { f ? f->suite : NULL, f ? f->benchmark : NULL,
				  f ? f->system : NULL, f ? f->since : NULL };
	int filtered = params[0] || params[1] || params[2] || params[3];
	PGresult *res;
	size_t n = 0;
	int r;

	res = query(p,
		    filtered
			    ? "SELECT s.id, s.sha256, s.identity, s.path, s.format, s.size,"
			      " s.ingested_at, s.tool_version"
			      " FROM accelbench.source s WHERE EXISTS (SELECT 1 FROM ("
			      "  SELECT r.source_id, r.system_id, r.benchmark_id, r.started"
			      "  FROM accelbench.run r UNION ALL"
			      "  SELECT x.source_id, r.system_id, r.benchmark_id, r.started"
			      "  FROM accelbench.run_source x JOIN accelbench.run r ON r.id = x.run_id) q"
			      " JOIN accelbench.system y ON y.id = q.system_id"
			      " JOIN accelbench.benchmark b ON b.id = q.benchmark_id"
			      " WHERE q.source_id = s.id"
			      "  AND ($1::text IS NULL OR b.suite = $1)"
			      "  AND ($2::text IS NULL OR b.name = $2)"
			      "  AND ($3::text IS NULL OR y.name = $3 OR y.display_name = $3)"
			      "  AND ($4::text IS NULL OR q.started >= $4))"
			      " ORDER BY s.id"
			    : "SELECT s.id, s.sha256, s.identity, s.path, s.format, s.size,"
			      " s.ingested_at, s.tool_version"
			      " FROM accelbench.source s ORDER BY s.id",
		    filtered ? 4 : 0, filtered ? params : NULL, "cannot list the central sources",
		    err);
	if (!res)
		return -AB_EIO;
	p->src = ab_calloc((size_t)PQntuples(res) + 1, sizeof(*p->src));
	for (r = 0; r < PQntuples(res); r++) {
		const char *sha = PQgetvalue(res, r, 1), *ident = PQgetvalue(res, r, 2);
		struct psource *s;
		int has, rc;

		p->t->sources_total++;
		rc = pg_local_has_source(p->local, sha, ident, &has, err);
		if (rc < 0) {
			PQclear(res);
			return rc;
		}
		if (has) {
			p->t->sources_present++;
			p->t->sources_done++;
			continue;
		}
		s = &p->src[n++];
		parse_i64(PQgetvalue(res, r, 0), &s->id);
		s->sha256 = ab_strdup(sha);
		s->identity = ab_strdup(ident);
		s->path = ab_strdup(PQgetvalue(res, r, 3));
		s->format = ab_strdup(PQgetvalue(res, r, 4));
		parse_i64(PQgetvalue(res, r, 5), &s->size);
		s->ingested_at = ab_strdup(PQgetvalue(res, r, 6));
		s->tool_version = ab_strdup(PQgetvalue(res, r, 7));
	}
	p->nsrc = n;
	PQclear(res);
	return 0;
}

/* ---- the three streams ------------------------------------------------- */

static int conn_fail(PGconn *c, struct strbuf *err, const char *what)
{
	const char *msg = c ? PQerrorMessage(c) : "out of memory";

	strbuf_reset(err);
	strbuf_addf(err, "%s: %.*s", what, (int)strcspn(msg, "\n"), msg);
	return -AB_EIO;
}

static uint64_t be(const char *p, uint32_t n)
{
	const unsigned char *u = (const unsigned char *)p;
	uint64_t v = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		v = v << 8 | u[i];
	return v;
}

/* Field i as an integer of any width the store uses (smallint, integer,
 * bigint); -1 when NULL or not one. */
static int f_int(const struct stream *s, int i, int64_t *out)
{
	uint32_t n = s->len[i];

	if (i >= s->nf || !s->f[i] || (n != 2 && n != 4 && n != 8))
		return -1;
	if (n == 2)
		*out = (int16_t)be(s->f[i], 2);
	else if (n == 4)
		*out = (int32_t)be(s->f[i], 4);
	else
		*out = (int64_t)be(s->f[i], 8);
	return 0;
}

/* A positive count or line number; 0 (stored as NULL) otherwise. */
static long f_long(const struct stream *s, int i)
{
	int64_t v;

	return f_int(s, i, &v) == 0 && v > 0 && v <= LONG_MAX ? (long)v : 0;
}

static int f_double(const struct stream *s, int i, double *out)
{
	uint64_t bits;

	if (i >= s->nf || !s->f[i] || s->len[i] != 8)
		return -1;
	bits = be(s->f[i], 8);
	memcpy(out, &bits, sizeof(*out));
	return 0;
}

/* One binary row into s->f/len: 0, 1 for the trailer, -1 when malformed. */
static int split_binary(struct stream *s, char *p, const char *end)
{
	static const char sig[11] = { 'P', 'G', 'C', 'O', 'P', 'Y', '\n', '\377', '\r', '\n', 0 };
	int i, nf;

	if (!s->header) { /* signature, flags, header extension */
		if (end - p < 19 || memcmp(p, sig, sizeof(sig)))
			return -1;
		if ((int64_t)be(p + 15, 4) > end - p - 19)
			return -1;
		p += 19 + be(p + 15, 4);
		s->header = 1;
	}
	if (end - p < 2)
		return -1;
	nf = (int16_t)be(p, 2);
	p += 2;
	if (nf == -1)
		return 1;
	if (nf < 0 || nf > PULL_MAX_FIELDS)
		return -1;
	for (i = 0; i < nf; i++) {
		int32_t n;

		if (end - p < 4)
			return -1;
		n = (int32_t)be(p, 4);
		p += 4;
		if (n == -1) {
			s->f[i] = NULL;
			s->len[i] = 0;
			continue;
		}
		if (n < 0 || n > end - p)
			return -1;
		s->f[i] = p;
		s->len[i] = (uint32_t)n;
		p += n;
	}
	if (p != end)
		return -1;
	for (i = 0; i < nf; i++) /* every length is read: terminate in place */
		if (s->f[i])
			s->f[i][s->len[i]] = '\0';
	s->nf = nf;
	return 0;
}

static int stream_next(struct pull *p, struct stream *s, struct strbuf *err)
{
	int n, rc;

	if (s->row) {
		PQfreemem(s->row);
		s->row = NULL;
	}
	if (s->done)
		return 0;
	n = PQgetCopyData(s->conn, &s->row, 0);
	if (n == -1) {
		PGresult *res = PQgetResult(s->conn);

		rc = 0;
		s->done = 1;
		if (!res || PQresultStatus(res) != PGRES_COMMAND_OK)
			rc = pg_fail_res(res, err, s->what, NULL);
		PQclear(res);
		while ((res = PQgetResult(s->conn)) != NULL)
			PQclear(res);
		return rc;
	}
	if (n < 0 || !s->row) {
		s->done = 1;
		return conn_fail(s->conn, err, s->what);
	}
	p->t->bytes += (uint64_t)n;
	rc = split_binary(s, s->row, s->row + n);
	if (rc == 1) /* the trailer: the end follows */
		return stream_next(p, s, err);
	if (rc < 0 || s->nf < 3 || f_int(s, 0, &s->src) < 0 || f_int(s, 1, &s->seq) < 0) {
		s->done = 1;
		return ab_fail(err, AB_EIO, "%s: a row the store should not send", s->what);
	}
	return 0;
}

/* a < b in (source, seq) order */
static int before(const struct stream *s, int64_t src, int64_t seq)
{
	return s->src < src || (s->src == src && s->seq < seq);
}

static int at(const struct stream *s, int64_t src, int64_t seq)
{
	return !s->done && s->src == src && s->seq == seq;
}

static const char *const status_names[] = { "ok", "failed", "aborted", "invalid" };

static int parse_status(const char *s, enum ingest_run_status *out)
{
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(status_names); i++)
		if (s && !strcmp(s, status_names[i])) {
			*out = (enum ingest_run_status)i;
			return 0;
		}
	return -1;
}

/* Metrics of run (src, seq), appended to the batch's: rows src, seq,
 * kind_id, value. */
static int collect_metrics(struct pull *p, int64_t src, int64_t seq, struct strbuf *err)
{
	struct stream *m = &p->st[1];
	int rc;

	while (!m->done && before(m, src, seq + 1)) {
		if (at(m, src, seq)) {
			const struct pkind *k;
			struct ingest_metric *x;
			int64_t kind;
			double v;

			if (m->nf != 4 || f_int(m, 2, &kind) < 0 || !(k = find_kind(p, kind)) ||
			    f_double(m, 3, &v) < 0)
				return ab_fail(err, AB_EIO, "a metric row the store should not send");
			if (p->nmetrics == p->ametrics) {
				p->ametrics = p->ametrics ? 2 * p->ametrics : 16;
				p->metrics = ab_realloc(p->metrics, p->ametrics * sizeof(*p->metrics));
				p->meta = ab_realloc(p->meta, p->ametrics * sizeof(*p->meta));
			}
			p->meta[p->nmetrics] = k->meta;
			x = &p->metrics[p->nmetrics++];
			memset(x, 0, sizeof(*x));
			x->name = k->name;
			x->value = v;
			x->unit = k->unit;
		}
		rc = stream_next(p, m, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Power samples of run (src, seq): rows src, seq, device, t, watts. */
static int add_power(struct pull *p, int64_t src, int64_t seq, int64_t run_id, struct strbuf *err)
{
	struct stream *w = &p->st[2];
	int rc;

	while (!w->done && before(w, src, seq + 1)) {
		if (run_id && at(w, src, seq)) {
			double t, watts;

			if (w->nf != 5 || !w->f[2] || f_double(w, 3, &t) < 0 ||
			    f_double(w, 4, &watts) < 0)
				return ab_fail(err, AB_EIO, "a power row the store should not send");
			rc = p->sink->power(p->sink->self, run_id, w->f[2], t, watts, err);
			if (rc < 0)
				return rc;
			p->t->power_samples++;
		}
		rc = stream_next(p, w, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* A run's params as the store keeps them: its param set's pairs (shared
 * with other runs) and its own, handed to the sink as they are. */
static int run_params(struct pull *p, const struct stream *s, struct ingest_run *r,
		      struct strbuf *err)
{
	const struct pset *set = NULL;
	int64_t id;

	if (s->f[15] && (f_int(s, 15, &id) < 0 || !(set = find_set(p, id))))
		return ab_fail(err, AB_EIO, "a run names a param set the store lacks");
	r->params_presplit = 1;
	r->params_shared = set ? set->kv : NULL;
	r->params_own = s->f[16];
	return 0;
}

/* The store's uuid (16 bytes) as the 32 hex digits the local database
 * shows, in out; NULL stays NULL. */
static const char *key_hex(const struct stream *s, int i, char out[33])
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s->f[i];
	int k;

	if (!u || s->len[i] != 16)
		return NULL;
	for (k = 0; k < 16; k++) {
		out[2 * k] = hex[u[k] >> 4];
		out[2 * k + 1] = hex[u[k] & 15];
	}
	out[32] = '\0';
	return out;
}

static void drop_pending(struct pull *p)
{
	size_t i;

	for (i = 0; i < p->npend; i++)
		PQfreemem(p->pend[i].row);
	p->npend = 0;
	p->nmetrics = 0;
}

/* The waiting runs to the sink (with run_many, a statement for many),
 * then each one's power samples under the id it got. */
static int flush_runs(struct pull *p, struct strbuf *err)
{
	size_t i, n = p->npend;
	int rc = 0;

	for (i = 0; i < n; i++) {
		struct pend *e = &p->pend[i];

		e->r.metrics = p->metrics + e->m0;
		e->r.metrics_meta_json = p->meta + e->m0;
		p->runs[i] = &e->r;
	}
	if (n && p->sink->run_many) {
		rc = p->sink->run_many(p->sink->self, p->runs, n, p->ids, p->rcs, err);
	} else {
		for (i = 0; i < n && rc >= 0; i++)
			rc = p->rcs[i] = p->sink->run(p->sink->self, p->runs[i], &p->ids[i], err);
	}
	for (i = 0; i < n && rc >= 0; i++) {
		const struct pend *e = &p->pend[i];

		if (p->rcs[i] == 1) {
			p->t->runs_deduped++;
			p->ids[i] = 0;
		} else {
			p->t->runs++;
			p->t->metrics += (long)e->r.nmetrics;
		}
		rc = add_power(p, e->src, e->seq, p->ids[i], err);
	}
	drop_pending(p);
	return rc < 0 ? rc : 0;
}

/*
 * Run row: src, seq, line, system_id, benchmark_id, job_id, started,
 * finished, status, nodes, devices, global_batch, local_batch, precision,
 * framework, set_id, params, excluded_reason, dedupe_key.
 */
static int add_run(struct pull *p, struct strbuf *err)
{
	struct stream *s = &p->st[0];
	struct pend *e = &p->pend[p->npend];
	struct ingest_run *r = &e->r;
	struct psystem *y;
	struct pbench *b;
	int64_t sys_id = 0, bench_id = 0, src = s->src, seq = s->seq;
	int rc;

	memset(r, 0, sizeof(*r));
	if (s->nf != 19 || f_int(s, 3, &sys_id) < 0 || f_int(s, 4, &bench_id) < 0 ||
	    (s->f[18] && s->len[18] != 16) ||
	    !(y = find_system(p, sys_id)) || !(b = find_bench(p, bench_id)) ||
	    parse_status(s->f[8], &r->status) < 0)
		return ab_fail(err, AB_EIO, "a run row the store should not send (source %lld, "
					    "seq %lld)", (long long)src, (long long)seq);
	e->m0 = p->nmetrics;
	rc = collect_metrics(p, src, seq, err);
	if (rc < 0)
		return rc;
	r->line = f_long(s, 2);
	r->system = y->sys;
	r->suite = b->suite;
	r->benchmark = b->name;
	r->bench_metric = b->metric;
	r->bench_unit = b->unit;
	r->lower_is_better = b->lower;
	r->job_id = s->f[5];
	r->started = s->f[6];
	r->finished = s->f[7];
	r->nodes = f_long(s, 9);
	r->devices = f_long(s, 10);
	r->global_batch = f_long(s, 11);
	r->local_batch = f_long(s, 12);
	r->precision = s->f[13];
	r->framework = s->f[14];
	/* params as the store holds them (the local compact JSON, split as
	 * the pushing database split it): the sink takes them as they are */
	rc = run_params(p, s, r, err);
	if (rc < 0)
		return rc;
	r->excluded_reason = s->f[17];
	r->dedupe_key = key_hex(s, 18, e->key);
	r->nmetrics = p->nmetrics - e->m0;
	if (p->sink->prepare) { /* what needs no database, done now: run_many()
				 * stores the runs its caches resolve together */
		r->metrics = p->metrics + e->m0;
		r->metrics_meta_json = p->meta + e->m0;
		strbuf_reset(&e->prep);
		p->sink->prepare(p->sink->self, r, &e->prep);
		r->prepared = e->prep.buf;
		r->prepared_len = e->prep.len;
	}
	/* the run's fields point into its row: it waits with it */
	e->row = s->row;
	s->row = NULL;
	e->src = src;
	e->seq = seq;
	if (++p->npend == PULL_BATCH) {
		rc = flush_runs(p, err);
		if (rc < 0)
			return rc;
	}
	return stream_next(p, s, err);
}

/* Systems a user's systems file described: re-described with its source
 * (the links push recorded in accelbench.source_system). */
static int describe_systems(struct pull *p, const struct psource *s, struct strbuf *err)
{
	size_t lo = 0, hi = p->nlinks;
	int rc;

	if (!p->sink->system)
		return 0;
	while (lo < hi) { /* the first link of this source */
		size_t mid = lo + (hi - lo) / 2;
		if (p->links[mid][0] < s->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->nlinks && p->links[lo][0] == s->id; lo++) {
		struct psystem *y = find_system(p, p->links[lo][1]);

		if (!y)
			continue;
		rc = p->sink->system(p->sink->self, &y->sys, err);
		if (rc < 0)
			return rc;
		p->t->systems++;
	}
	return 0;
}

static int pull_source(struct pull *p, const struct psource *s, struct strbuf *err)
{
	struct ingest_source is = { 0 };
	struct stream *runs = &p->st[0];
	int rc;

	/* anything before this source belongs to sources not pulled */
	while (!runs->done && runs->src < s->id) {
		rc = stream_next(p, runs, err);
		if (rc < 0)
			return rc;
	}
	is.path = s->path;
	is.sha256 = s->sha256;
	is.format = s->format;
	is.size = (uint64_t)s->size;
	is.identity = *s->identity ? s->identity : NULL;
	/* when and by which version it was first ingested, as pushed */
	is.ingested_at = s->ingested_at;
	is.tool_version = s->tool_version;
	rc = p->sink->begin(p->sink->self, &is, err);
	if (rc < 0)
		return rc;
	if (rc == 1) { /* arrived meanwhile (another pull or ingest) */
		p->t->sources_present++;
		return 0;
	}
	rc = describe_systems(p, s, err);
	while (rc == 0 && !runs->done && runs->src == s->id) {
		rc = add_run(p, err);
		progress(p, 0);
	}
	if (rc == 0)
		rc = flush_runs(p, err);
	drop_pending(p); /* after a failure: the source's transaction goes */
	if (rc < 0) {
		struct strbuf why = STRBUF_INIT;

		p->sink->end(p->sink->self, 0, NULL);
		strbuf_addf(&why, "cannot pull '%s': %s", s->path, err->buf);
		strbuf_reset(err);
		strbuf_addbuf(err, &why);
		strbuf_release(&why);
		return rc;
	}
	rc = p->sink->end(p->sink->self, 1, err);
	if (rc == 0)
		p->t->sources_sent++;
	return rc;
}

/* The source selection as SQL over column col: "col = ANY('{1,2}')". */
static void selection(struct pull *p, const char *col, int all, struct strbuf *sql)
{
	size_t i;

	if (all) {
		strbuf_addstr(sql, "true");
		return;
	}
	strbuf_addf(sql, "%s = ANY('{", col);
	for (i = 0; i < p->nsrc; i++)
		strbuf_addf(sql, "%s%lld", i ? "," : "", (long long)p->src[i].id);
	strbuf_addstr(sql, "}'::bigint[])");
}

static int start_streams(struct pull *p, int all, struct strbuf *err)
{
	static const char *const what[3] = { "cannot read the central runs",
					     "cannot read the central metrics",
					     "cannot read the central power samples" };
	struct strbuf sql = STRBUF_INIT, snap = STRBUF_INIT;
	PGresult *res;
	int i, prov, rc = 0;

	/* one snapshot for all three connections */
	res = PQexec(p->pg->conn, "SELECT pg_export_snapshot()");
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		rc = pg_fail_res(res, err, "cannot export a snapshot", NULL);
		PQclear(res);
		return rc;
	}
	strbuf_addstr(&snap, PQgetvalue(res, 0, 0));
	PQclear(res);
	/* no further provenance among the selected sources (the common case):
	 * each stream reads the tables in index order, with no sort that
	 * would hold its first row back until it has read everything */
	strbuf_addstr(&sql, "SELECT EXISTS (SELECT 1 FROM accelbench.run_source x WHERE ");
	selection(p, "x.source_id", all, &sql);
	strbuf_addstr(&sql, ")");
	res = PQexec(p->pg->conn, sql.buf);
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		rc = pg_fail_res(res, err, "cannot read the central provenances", NULL);
		PQclear(res);
		goto out;
	}
	prov = !strcmp(PQgetvalue(res, 0, 0), "t");
	PQclear(res);
	if (!prov) {
		rc = pg_exec(p->pg, "SET LOCAL enable_sort = off", err);
		if (rc < 0)
			goto out;
	}
	for (i = 0; i < 3; i++) {
		struct stream *s = &p->st[i];

		s->what = what[i];
		if (i == 0) {
			s->conn = p->pg->conn;
			continue;
		}
		s->conn = PQconnectdb(p->pg->url.buf);
		s->own = 1;
		if (!s->conn || PQstatus(s->conn) != CONNECTION_OK) {
			rc = conn_fail(s->conn, err, "cannot open a second PostgreSQL connection");
			goto out;
		}
		strbuf_reset(&sql);
		strbuf_addstr(&sql, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY;"
				    " SET LOCAL work_mem = '256MB'; SET LOCAL jit = off;"
				    " SET LOCAL max_parallel_workers_per_gather = 0;");
		if (!prov)
			strbuf_addstr(&sql, " SET LOCAL enable_sort = off;");
		strbuf_addstr(&sql, " SET TRANSACTION SNAPSHOT ");
		{
			char *lit = PQescapeLiteral(s->conn, snap.buf, snap.len);
			strbuf_addstr(&sql, lit ? lit : "''");
			PQfreemem(lit);
		}
		res = PQexec(s->conn, sql.buf);
		if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
			rc = pg_fail_res(res, err, "cannot share the snapshot", NULL);
			PQclear(res);
			goto out;
		}
		PQclear(res);
	}
	/* runs: under their origin source and under every further provenance */
	strbuf_reset(&sql);
	strbuf_addstr(&sql, "COPY (SELECT r.source_id, r.seq, r.line, r.system_id, r.benchmark_id,"
			    " r.job_id, r.started, r.finished, r.status, r.nodes, r.devices,"
			    " r.global_batch, r.local_batch, r.precision, r.framework, r.set_id,"
			    " r.params, r.excluded_reason, r.dedupe_key FROM accelbench.run r WHERE ");
	selection(p, "r.source_id", all, &sql);
	if (prov) {
		strbuf_addstr(&sql, " UNION ALL SELECT x.source_id, x.seq, x.line, r.system_id,"
				    " r.benchmark_id, r.job_id, r.started, r.finished, r.status,"
				    " r.nodes, r.devices, r.global_batch, r.local_batch, r.precision,"
				    " r.framework, r.set_id, r.params, r.excluded_reason, r.dedupe_key"
				    " FROM accelbench.run_source x JOIN accelbench.run r"
				    " ON r.id = x.run_id WHERE ");
		selection(p, "x.source_id", all, &sql);
		strbuf_addstr(&sql, " ORDER BY 1, 2) TO STDOUT (FORMAT binary)");
	} else {
		strbuf_addstr(&sql, " ORDER BY r.source_id, r.seq) TO STDOUT (FORMAT binary)");
	}
	if (!PQsendQuery(p->st[0].conn, sql.buf)) {
		rc = conn_fail(p->st[0].conn, err, what[0]);
		goto out;
	}
	strbuf_reset(&sql);
	strbuf_addstr(&sql, "COPY (SELECT r.source_id, r.seq, m.kind_id, m.value"
			    " FROM accelbench.run r JOIN accelbench.metric_data m ON m.run_id = r.id"
			    " WHERE ");
	selection(p, "r.source_id", all, &sql);
	if (prov) {
		strbuf_addstr(&sql, " UNION ALL SELECT x.source_id, x.seq, m.kind_id, m.value"
				    " FROM accelbench.run_source x JOIN accelbench.metric_data m"
				    " ON m.run_id = x.run_id WHERE ");
		selection(p, "x.source_id", all, &sql);
		strbuf_addstr(&sql, " ORDER BY 1, 2) TO STDOUT (FORMAT binary)");
	} else {
		strbuf_addstr(&sql, " ORDER BY r.source_id, r.seq) TO STDOUT (FORMAT binary)");
	}
	if (!PQsendQuery(p->st[1].conn, sql.buf)) {
		rc = conn_fail(p->st[1].conn, err, what[1]);
		goto out;
	}
	strbuf_reset(&sql);
	if (prov) {
		strbuf_addstr(&sql, "COPY (SELECT source_id, seq, device, t, watts FROM ("
				    " SELECT r.source_id, r.seq, p.i, p.device, p.t, p.watts"
				    " FROM accelbench.run r JOIN accelbench.power_sample p"
				    " ON p.run_id = r.id WHERE ");
		selection(p, "r.source_id", all, &sql);
		strbuf_addstr(&sql, " UNION ALL SELECT x.source_id, x.seq, p.i, p.device, p.t,"
				    " p.watts FROM accelbench.run_source x"
				    " JOIN accelbench.power_sample p ON p.run_id = x.run_id WHERE ");
		selection(p, "x.source_id", all, &sql);
		strbuf_addstr(&sql, ") q ORDER BY source_id, seq, i) TO STDOUT (FORMAT binary)");
	} else {
		strbuf_addstr(&sql, "COPY (SELECT r.source_id, r.seq, p.device, p.t, p.watts"
				    " FROM accelbench.run r JOIN accelbench.power_sample p"
				    " ON p.run_id = r.id WHERE ");
		selection(p, "r.source_id", all, &sql);
		strbuf_addstr(&sql, " ORDER BY r.source_id, r.seq, p.i) TO STDOUT (FORMAT binary)");
	}
	if (!PQsendQuery(p->st[2].conn, sql.buf)) {
		rc = conn_fail(p->st[2].conn, err, what[2]);
		goto out;
	}
	for (i = 0; i < 3; i++) {
		res = PQgetResult(p->st[i].conn);
		if (!res || PQresultStatus(res) != PGRES_COPY_OUT) {
			rc = pg_fail_res(res, err, what[i], NULL);
			PQclear(res);
			p->st[i].done = 1;
			goto out;
		}
		PQclear(res);
		rc = stream_next(p, &p->st[i], err);
		if (rc < 0)
			goto out;
	}
out:
	strbuf_release(&sql);
	strbuf_release(&snap);
	return rc;
}

static void stop_streams(struct pull *p)
{
	int i;

	for (i = 0; i < 3; i++) {
		struct stream *s = &p->st[i];

		if (s->row)
			PQfreemem(s->row);
		s->row = NULL;
		if (s->own && s->conn)
			PQfinish(s->conn);
		s->conn = NULL;
	}
}

static void pull_release(struct pull *p)
{
	size_t i;
	int k;

	drop_pending(p);
	for (i = 0; i < PULL_BATCH; i++)
		strbuf_release(&p->pend[i].prep);
	stop_streams(p);
	free(p->metrics);
	free(p->meta);
	for (i = 0; i < p->nsys; i++) {
		for (k = 0; k < 7; k++)
			free(p->sys[i].strs[k]);
		json_decref(p->sys[i].meta);
	}
	free(p->sys);
	free(p->links);
	for (i = 0; i < p->nsets; i++)
		free(p->sets[i].kv);
	free(p->sets);
	for (i = 0; i < p->nkinds; i++) {
		free(p->kinds[i].name);
		free(p->kinds[i].unit);
		free(p->kinds[i].meta);
	}
	free(p->kinds);
	for (i = 0; i < p->nbench; i++) {
		free(p->bench[i].suite);
		free(p->bench[i].name);
		free(p->bench[i].metric);
		free(p->bench[i].unit);
	}
	free(p->bench);
	for (i = 0; i < p->nsrc; i++) {
		free(p->src[i].sha256);
		free(p->src[i].identity);
		free(p->src[i].path);
		free(p->src[i].format);
		free(p->src[i].ingested_at);
		free(p->src[i].tool_version);
	}
	free(p->src);
	pg_local_free(p->local);
}

int pg_pull(struct pg *pg, struct db *db, const struct pg_filter *f,
	    const struct pg_progress *prog, struct pg_totals *totals, struct strbuf *err)
{
	struct pull p;
	PGresult *res;
	size_t i;
	int rc, all;

	memset(&p, 0, sizeof(p));
	memset(totals, 0, sizeof(*totals));
	for (i = 0; i < PULL_BATCH; i++)
		strbuf_init(&p.pend[i].prep, 0);
	p.pg = pg;
	p.prog = prog;
	p.t = totals;
	rc = pg_check_schema(pg, err);
	if (rc < 0)
		return rc;
	rc = pg_local_open(&p.local, db, err);
	if (rc < 0)
		return rc;
	p.sink = pg_local_sink(p.local);
	rc = pg_local_pull_mode(p.local, 1, err);
	if (rc < 0)
		goto out;
	rc = pg_exec(pg, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY;"
			 " SET LOCAL work_mem = '256MB'; SET LOCAL jit = off;"
			 " SET LOCAL max_parallel_workers_per_gather = 0",
		     err);
	if (rc < 0)
		goto out;
	rc = load_dimensions(&p, err);
	if (rc == 0)
		rc = load_sources(&p, f, err);
	if (rc < 0 || p.nsrc == 0)
		goto out;
	/* every source of the store selected: no list to send */
	res = PQexec(pg->conn, "SELECT count(*) FROM accelbench.source");
	all = res && PQresultStatus(res) == PGRES_TUPLES_OK &&
	      strtoll(PQgetvalue(res, 0, 0), NULL, 10) == (long long)p.nsrc;
	PQclear(res);
	rc = start_streams(&p, all, err);
	/* a series of sources: the sink keeps its connection settings from
	 * one transaction to the next (SQLite: foreign key checks off; each
	 * switch made every prepared statement compile again) */
	if (p.sink->hold)
		p.sink->hold(p.sink->self, 1);
	for (i = 0; rc == 0 && i < p.nsrc; i++) {
		rc = pull_source(&p, &p.src[i], err);
		totals->sources_done++;
		progress(&p, 0);
	}
	if (p.sink->hold)
		p.sink->hold(p.sink->self, 0);
out:
	progress(&p, 1);
	pg_local_pull_mode(p.local, 0, NULL);
	pull_release(&p);
	if (PQstatus(pg->conn) == CONNECTION_OK && PQtransactionStatus(pg->conn) != PQTRANS_IDLE) {
		/* a COPY left unfinished: a fresh connection state is simplest */
		if (PQtransactionStatus(pg->conn) == PQTRANS_ACTIVE)
			PQreset(pg->conn);
		else
			pg_exec(pg, "ROLLBACK", NULL);
	}
	return rc;
}
