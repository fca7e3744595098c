/*
 * inventory.c - systems, sources and runs for a report (inventory.h).
 * Filters are bound parameters, as in query.c.
 */
#include "core/compat.h"
#include "core/sha256.h"
#include "db_priv.h"
#include "model/inventory.h"

#include <math.h>

/* ?1 suites, ?2 benchmarks, ?3 systems: JSON arrays of names, NULL = all */
#define FILTER_RUN \
	" (?1 IS NULL OR b.suite IN (SELECT value FROM json_each(?1)))" \
	" AND (?2 IS NULL OR b.name IN (SELECT value FROM json_each(?2)))" \
	" AND (?3 IS NULL OR y.name IN (SELECT value FROM json_each(?3))" \
	"  OR y.display_name IN (SELECT value FROM json_each(?3)))"

/* Every system's own facts, in the order of the systems table; the ones
 * with runs in the selection are kept (load_systems). */
static const char sql_systems[] =
	"SELECT y.id, y.name, y.display_name, y.vendor, y.accelerator, y.accelerators_per_node,"
	" y.host_cpu, y.interconnect, y.site, y.tdp_w,"
	" CASE WHEN json_valid(y.meta) THEN json_extract(y.meta, '$.described') END,"
	" CASE WHEN json_valid(y.meta) THEN json_extract(y.meta, '$.simulated') END,"
	" CASE WHEN json_valid(y.meta) THEN json_extract(y.meta, '$.system_name') IS NOT NULL"
	"  AND json_extract(y.meta, '$.submitter') IS NOT NULL END"
	" FROM system y ORDER BY y.vendor, y.name";

/* Every run (of any benchmark, in or out of the selection) in id order:
 * where a system's facts came from (its first source, the source of its
 * largest run, of its first run naming a framework, its frameworks and
 * sources) is read from all its runs in one pass. */
static const char sql_system_runs[] =
	"SELECT system_id, nodes, framework, source_id FROM run_data ORDER BY id";

static const char sql_source_path[] = "SELECT path FROM source WHERE id = ?1";

static const char sql_runs[] =
	"SELECT r.id, b.suite, b.name, y.name, r.status, r.job_id, r.precision, s.path, s.sha256,"
	" r.excluded_reason, b.unit, r.line, r.nodes, r.devices, r.global_batch,"
	" (SELECT m.value FROM metric m WHERE m.run_id = r.id AND m.name = b.metric)"
	" FROM run r JOIN source s ON s.id = r.source_id"
	" JOIN benchmark b ON b.id = r.benchmark_id JOIN system y ON y.id = r.system_id"
	" WHERE" FILTER_RUN " ORDER BY b.suite, b.name, y.name, r.id";

static const char sql_bad_runs[] =
	"SELECT r.id, b.suite, b.name, y.name, r.status, r.job_id, r.precision, s.path, s.sha256,"
	" r.excluded_reason, b.unit, r.line, r.nodes, r.devices, r.global_batch,"
	" (SELECT m.value FROM metric m WHERE m.run_id = r.id AND m.name = b.metric)"
	" FROM run r JOIN source s ON s.id = r.source_id"
	" JOIN benchmark b ON b.id = r.benchmark_id JOIN system y ON y.id = r.system_id"
	" WHERE" FILTER_RUN " AND r.status <> 'ok' ORDER BY b.suite, b.name, y.name, r.id"
	" LIMIT ?4";

/* Runs grouped by configuration and source file, with counts by status:
 * one pass over run_data keyed by integer ids (the names are joined to
 * the few groups afterwards), from which the inventory takes its counts,
 * benchmarks, sources and the appendix's configuration rows. */
static const char sql_groups[] =
	"SELECT b.suite, b.name, y.name, g.nodes, g.devices, g.global_batch, g.precision,"
	" s.path, s.sha256, g.n, g.n - g.n_ok, g.line_min, g.line_max, g.id_min, g.id_max,"
	" g.n_ok, g.n_failed, g.n_aborted, g.n_excluded"
	" FROM (SELECT r.benchmark_id AS bid, r.system_id AS yid, r.source_id AS sid,"
	"  max(r.nodes) AS nodes, max(r.devices) AS devices, max(r.global_batch) AS global_batch,"
	"  max(r.precision) AS precision, count(*) AS n,"
	/* run_data.status is a code (docs/schema.md, "Storage"); NULL counts
	 * as invalid, as the run view says */
	"  sum(r.status IS 0) AS n_ok, sum(r.status IS 1) AS n_failed,"
	"  sum(r.status IS 2) AS n_aborted, sum(r.excluded_reason IS NOT NULL) AS n_excluded,"
	"  min(r.line) AS line_min, max(r.line) AS line_max, min(r.id) AS id_min,"
	"  max(r.id) AS id_max"
	"  FROM run_data r"
	"  GROUP BY r.benchmark_id, r.system_id, coalesce(r.nodes, 0), coalesce(r.devices, 0),"
	"   coalesce(r.global_batch, 0), coalesce(r.precision, ''), r.source_id) g"
	" JOIN benchmark b ON b.id = g.bid JOIN system y ON y.id = g.yid"
	" JOIN source s ON s.id = g.sid"
	" WHERE" FILTER_RUN
	" ORDER BY b.suite, b.name, y.name, coalesce(g.nodes, 0), coalesce(g.devices, 0),"
	"  coalesce(g.global_batch, 0), coalesce(g.precision, ''), g.id_min";

static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? ab_strdup((const char *)s) : NULL;
}

static long col_long(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? 0 : (long)sqlite3_column_int64(st, i);
}

static double col_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* A JSON array of the names, bound as text; NULL when there are none. */
static void bind_list(sqlite3_stmt *st, int idx, const char *const *v, size_t n)
{
	json_t *a;
	char *text;
	size_t i;

	if (!n) {
		sqlite3_bind_null(st, idx);
		return;
	}
	a = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	text = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	sqlite3_bind_text(st, idx, text ? text : "[]", -1, SQLITE_TRANSIENT);
	free(text);
}

static int prep(struct db *db, sqlite3_stmt **st, const char *sql, const struct db_inv_query *q,
		struct strbuf *err)
{
	int rc = db_prepare(db, st, sql, err);

	if (rc)
		return rc;
	bind_list(*st, 1, q ? q->suites : NULL, q ? q->nsuites : 0);
	bind_list(*st, 2, q ? q->benchmarks : NULL, q ? q->nbenchmarks : 0);
	bind_list(*st, 3, q ? q->systems : NULL, q ? q->nsystems : 0);
	return 0;
}

/* Where a system's own facts came from (inventory.h): the user's systems
 * file, the MLPerf system description of a submission (<submission>/
 * systems/<folder>.json for results under <submission>/results/<folder>/),
 * or the first file with a run of it. */
static char *system_source(const struct db_inv_system *y, int mlperf_desc)
{
	const char *res;

	if (y->described_by)
		return ab_strdup(y->described_by);
	if (!y->first_source)
		return NULL;
	if (mlperf_desc && (res = strstr(y->first_source, "/results/")) != NULL) {
		const char *folder = res + strlen("/results/");
		size_t flen = strcspn(folder, "/");
		struct strbuf sb = STRBUF_INIT;

		if (flen) {
			strbuf_add(&sb, y->first_source, (size_t)(res - y->first_source));
			strbuf_addstr(&sb, "/systems/");
			strbuf_add(&sb, folder, flen);
			strbuf_addstr(&sb, ".json");
			return strbuf_detach(&sb, NULL);
		}
		strbuf_release(&sb);
	}
	return ab_strdup(y->first_source);
}

/* Per system name: what its selected runs add up to (from the groups). */
struct sys_agg {
	char *name;
	size_t runs;
	long max_nodes, max_devices;   /* 0: none known */
	int has_nodes, has_devices;
};

struct sys_aggs {
	struct sys_agg *v;
	size_t n, last;
};

static void sys_aggs_add(struct sys_aggs *a, sqlite3_stmt *st, const char *name, size_t n)
{
	struct sys_agg *g = NULL;
	size_t i;

	if (a->last < a->n && !strcmp(a->v[a->last].name, name))
		g = &a->v[a->last];
	for (i = 0; !g && i < a->n; i++)
		if (!strcmp(a->v[i].name, name)) {
			g = &a->v[i];
			a->last = i;
		}
	if (!g) {
		a->v = ab_realloc(a->v, (a->n + 1) * sizeof(*a->v));
		a->last = a->n;
		g = &a->v[a->n++];
		memset(g, 0, sizeof(*g));
		g->name = ab_strdup(name);
	}
	g->runs += n;
	/* max(r.nodes) over the runs is the max over the groups' maxima */
	if (sqlite3_column_type(st, 3) != SQLITE_NULL &&
	    (!g->has_nodes || sqlite3_column_int64(st, 3) > g->max_nodes)) {
		g->max_nodes = (long)sqlite3_column_int64(st, 3);
		g->has_nodes = 1;
	}
	if (sqlite3_column_type(st, 4) != SQLITE_NULL &&
	    (!g->has_devices || sqlite3_column_int64(st, 4) > g->max_devices)) {
		g->max_devices = (long)sqlite3_column_int64(st, 4);
		g->has_devices = 1;
	}
}

static void sys_aggs_release(struct sys_aggs *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->v[i].name);
	free(a->v);
}

/* A kept system while its runs are read. */
struct sys_acc {
	int64_t id;
	size_t idx;                    /* in inv->systems */
	int64_t first_sid, nodes_sid, fw_sid;   /* -1: none */
	long best_nodes;
	char **fw;                     /* distinct frameworks */
	size_t nfw;
	int64_t *sids;                 /* its sources, repeated */
	size_t nsids, asids;
};

static int acc_cmp(const void *a, const void *b)
{
	const struct sys_acc *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int sid_cmp(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void acc_run(struct sys_acc *a, sqlite3_stmt *st)
{
	int64_t sid = sqlite3_column_int64(st, 3);
	size_t i;

	if (a->first_sid < 0)
		a->first_sid = sid;
	/* the run at the most nodes, the first of them */
	if (sqlite3_column_type(st, 1) != SQLITE_NULL &&
	    (a->nodes_sid < 0 || sqlite3_column_int64(st, 1) > a->best_nodes)) {
		a->best_nodes = (long)sqlite3_column_int64(st, 1);
		a->nodes_sid = sid;
	}
	if (sqlite3_column_type(st, 2) != SQLITE_NULL) {
		const char *f = (const char *)sqlite3_column_text(st, 2);

		if (a->fw_sid < 0)
			a->fw_sid = sid;
		for (i = 0; i < a->nfw && strcmp(a->fw[i], f); i++)
			;
		if (i == a->nfw) {
			a->fw = ab_realloc(a->fw, (a->nfw + 1) * sizeof(*a->fw));
			a->fw[a->nfw++] = ab_strdup(f);
		}
	}
	if (!a->nsids || a->sids[a->nsids - 1] != sid) {
		if (a->nsids == a->asids) {
			a->asids = a->asids ? 2 * a->asids : 16;
			a->sids = ab_realloc(a->sids, a->asids * sizeof(*a->sids));
		}
		a->sids[a->nsids++] = sid;
	}
}

/* The path of source sid (NULL: none), or -1 on a database error. */
static int source_path(sqlite3_stmt *st, int64_t sid, char **out)
{
	int rc;

	*out = NULL;
	if (sid < 0)
		return 0;
	sqlite3_bind_int64(st, 1, sid);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = col_str(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* The facts of each system and where they came from. */
static int system_facts(struct db *db, struct db_inventory *inv, struct sys_acc *acc,
			size_t n, struct strbuf *err)
{
	sqlite3_stmt *st = NULL, *ps = NULL;
	size_t i, k;
	int rc = db_prepare(db, &st, sql_system_runs, err);

	if (rc)
		return rc;
	qsort(acc, n, sizeof(*acc), acc_cmp);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sys_acc key, *a;

		key.id = sqlite3_column_int64(st, 0);
		a = bsearch(&key, acc, n, sizeof(*acc), acc_cmp);
		if (a)
			acc_run(a, st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "cannot list systems");
	if ((rc = db_prepare(db, &ps, sql_source_path, err)))
		return rc;
	for (i = 0; i < n; i++) {
		struct sys_acc *a = &acc[i];
		struct db_inv_system *y = &inv->systems[a->idx];
		struct strbuf fw = STRBUF_INIT;

		if (source_path(ps, a->first_sid, &y->first_source) ||
		    source_path(ps, a->nodes_sid, &y->src_nodes) ||
		    source_path(ps, a->fw_sid, &y->src_framework)) {
			sqlite3_finalize(ps);
			return db_fail(db, err, "cannot list systems");
		}
		if (a->nfw)
			qsort(a->fw, a->nfw, sizeof(*a->fw), cmp_str);
		for (k = 0; k < a->nfw; k++) {
			if (k)
				strbuf_addstr(&fw, ", ");
			strbuf_addstr(&fw, a->fw[k]);
		}
		y->frameworks = a->nfw ? strbuf_detach(&fw, NULL) : NULL;
		strbuf_release(&fw);
		if (a->nsids)
			qsort(a->sids, a->nsids, sizeof(*a->sids), sid_cmp);
		for (k = 0; k < a->nsids; k++)
			y->nsources += !k || a->sids[k] != a->sids[k - 1];
	}
	sqlite3_finalize(ps);
	return 0;
}

static void accs_release(struct sys_acc *acc, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < acc[i].nfw; k++)
			free(acc[i].fw[k]);
		free(acc[i].fw);
		free(acc[i].sids);
	}
	free(acc);
}

/* The systems with runs in the selection (their totals from the groups,
 * aggs), ordered by vendor and name. */
static int load_systems(struct db *db, struct db_inventory *inv, const struct sys_aggs *aggs,
			int *mlperf_desc, struct strbuf *err)
{
	sqlite3_stmt *st;
	size_t alloc = 0, nacc = 0, i;
	struct sys_acc *acc = ab_calloc(aggs->n + 1, sizeof(*acc));
	int rc = db_prepare(db, &st, sql_systems, err);

	if (rc) {
		free(acc);
		return rc;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const struct sys_agg *g = NULL;
		struct db_inv_system *y;

		for (i = 0; name && !g && i < aggs->n; i++)
			if (!strcmp(aggs->v[i].name, name))
				g = &aggs->v[i];
		if (!g)
			continue;
		if (inv->nsystems == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			inv->systems = ab_realloc(inv->systems, alloc * sizeof(*inv->systems));
		}
		y = &inv->systems[inv->nsystems];
		memset(y, 0, sizeof(*y));
		y->name = col_str(st, 1);
		y->display_name = col_str(st, 2);
		y->vendor = col_str(st, 3);
		y->accelerator = col_str(st, 4);
		y->per_node = col_long(st, 5);
		y->host_cpu = col_str(st, 6);
		y->interconnect = col_str(st, 7);
		y->site = col_str(st, 8);
		y->tdp_w = col_num(st, 9);
		y->described_by = sqlite3_column_type(st, 10) == SQLITE_TEXT ? col_str(st, 10) : NULL;
		y->simulated = sqlite3_column_type(st, 11) == SQLITE_INTEGER &&
			       sqlite3_column_int(st, 11) != 0;
		y->runs = g->runs;
		y->max_nodes = g->has_nodes ? g->max_nodes : 0;
		y->max_devices = g->has_devices ? g->max_devices : 0;
		mlperf_desc[inv->nsystems] = col_long(st, 12) != 0;
		acc[nacc].id = sqlite3_column_int64(st, 0);
		acc[nacc].idx = inv->nsystems;
		acc[nacc].first_sid = acc[nacc].nodes_sid = acc[nacc].fw_sid = -1;
		nacc++;
		if (y->simulated)
			inv->simulated = 1;
		inv->nsystems++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		rc = db_fail(db, err, "cannot list systems");
	else
		rc = system_facts(db, inv, acc, nacc, err);
	for (i = 0; rc == 0 && i < inv->nsystems; i++)
		inv->systems[i].src_system = system_source(&inv->systems[i], mlperf_desc[i]);
	accs_release(acc, nacc);
	return rc;
}

/* Runs by sql (sql_runs, or sql_bad_runs with ?4 = limit) into *v. */
static int load_runs(struct db *db, const struct db_inv_query *q, const char *sql, long limit,
		     struct db_inv_run **v, size_t *nv, struct strbuf *err)
{
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc = prep(db, &st, sql, q, err);

	if (rc)
		return rc;
	if (limit > 0)
		sqlite3_bind_int64(st, 4, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_inv_run *r;

		if (*nv == alloc) {
			alloc = alloc ? 2 * alloc : 256;
			*v = ab_realloc(*v, alloc * sizeof(**v));
		}
		r = &(*v)[(*nv)++];
		r->id = sqlite3_column_int64(st, 0);
		r->suite = col_str(st, 1);
		r->benchmark = col_str(st, 2);
		r->system = col_str(st, 3);
		r->status = col_str(st, 4);
		r->job_id = col_str(st, 5);
		r->precision = col_str(st, 6);
		r->source = col_str(st, 7);
		r->sha256 = col_str(st, 8);
		r->excluded_reason = col_str(st, 9);
		r->unit = col_str(st, 10);
		r->line = col_long(st, 11);
		r->nodes = col_long(st, 12);
		r->devices = col_long(st, 13);
		r->global_batch = col_long(st, 14);
		r->value = col_num(st, 15);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, err, "cannot list runs");
}

/* The run counts, benchmarks, sources (and provenance hash) and the
 * configuration rows (inventory.h) from one grouped pass. */
static int load_groups(struct db *db, const struct db_inv_query *q, struct db_inventory *inv,
		       struct sys_aggs *aggs, struct strbuf *err)
{
	sqlite3_stmt *st;
	size_t alloc = 0, balloc = 0, i, k;
	int rc = prep(db, &st, sql_groups, q, err);
	char **shas;
	struct sha256 h;
	unsigned char dig[32];

	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_inv_cfgsrc *c;
		size_t n_ok = (size_t)col_long(st, 15), n_failed = (size_t)col_long(st, 16);
		size_t n_aborted = (size_t)col_long(st, 17);

		if (inv->ncfgsrc == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			inv->cfgsrc = ab_realloc(inv->cfgsrc, alloc * sizeof(*inv->cfgsrc));
		}
		c = &inv->cfgsrc[inv->ncfgsrc++];
		c->suite = col_str(st, 0);
		c->benchmark = col_str(st, 1);
		c->system = col_str(st, 2);
		c->nodes = col_long(st, 3);
		c->devices = col_long(st, 4);
		c->global_batch = col_long(st, 5);
		c->precision = col_str(st, 6);
		c->source = col_str(st, 7);
		c->sha256 = col_str(st, 8);
		c->n = (size_t)col_long(st, 9);
		c->n_not_ok = (size_t)col_long(st, 10);
		c->line_min = col_long(st, 11);
		c->line_max = col_long(st, 12);
		c->id_min = sqlite3_column_int64(st, 13);
		c->id_max = sqlite3_column_int64(st, 14);
		sys_aggs_add(aggs, st, c->system, c->n);
		inv->n_ok += n_ok;
		inv->n_failed += n_failed;
		inv->n_aborted += n_aborted;
		inv->n_invalid += c->n - n_ok - n_failed - n_aborted;
		inv->n_excluded += (size_t)col_long(st, 18);
		/* rows come by suite and benchmark: a new pair starts a benchmark */
		if (!inv->nbenchmarks ||
		    strcmp(inv->benchmarks[inv->nbenchmarks - 1].suite, c->suite) ||
		    strcmp(inv->benchmarks[inv->nbenchmarks - 1].name, c->benchmark)) {
			if (inv->nbenchmarks == balloc) {
				balloc = balloc ? 2 * balloc : 16;
				inv->benchmarks = ab_realloc(inv->benchmarks,
							     balloc * sizeof(*inv->benchmarks));
			}
			inv->benchmarks[inv->nbenchmarks].suite = ab_strdup(c->suite);
			inv->benchmarks[inv->nbenchmarks].name = ab_strdup(c->benchmark);
			inv->nbenchmarks++;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "cannot group runs");
	/* the distinct sha256s of the sources, sorted, hashed */
	shas = ab_calloc(inv->ncfgsrc + 1, sizeof(*shas));
	for (i = k = 0; i < inv->ncfgsrc; i++)
		if (inv->cfgsrc[i].sha256)
			shas[k++] = inv->cfgsrc[i].sha256;
	qsort(shas, k, sizeof(*shas), cmp_str);
	sha256_init(&h);
	for (i = 0; i < k; i++) {
		if (i && !strcmp(shas[i], shas[i - 1]))
			continue;
		sha256_update(&h, shas[i], strlen(shas[i]));
		sha256_update(&h, "\n", 1);
		inv->nsources++;
	}
	sha256_final(&h, dig);
	sha256_hex(dig, inv->provenance);
	free(shas);
	return 0;
}

static void release_runs(struct db_inv_run *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct db_inv_run *r = &v[i];

		free(r->suite);
		free(r->benchmark);
		free(r->system);
		free(r->status);
		free(r->job_id);
		free(r->precision);
		free(r->source);
		free(r->sha256);
		free(r->excluded_reason);
		free(r->unit);
	}
}

static void release_cfgsrc(struct db_inventory *inv)
{
	size_t i;

	for (i = 0; i < inv->ncfgsrc; i++) {
		struct db_inv_cfgsrc *c = &inv->cfgsrc[i];

		free(c->suite);
		free(c->benchmark);
		free(c->system);
		free(c->precision);
		free(c->source);
		free(c->sha256);
	}
	free(inv->cfgsrc);
	inv->cfgsrc = NULL;
	inv->ncfgsrc = 0;
}

int db_inventory_load(struct db *db, const struct db_inv_query *q, size_t max_runs,
		      struct db_inventory *out, struct strbuf *err)
{
	struct sys_aggs aggs = { NULL, 0, 0 };
	size_t total;
	int rc;

	memset(out, 0, sizeof(*out));
	/* the groups first: the systems' run counts and sizes add up from them */
	rc = load_groups(db, q, out, &aggs, err);
	if (rc == 0) {
		int *mlperf_desc = ab_calloc(aggs.n + 1, sizeof(*mlperf_desc));

		rc = load_systems(db, out, &aggs, mlperf_desc, err);
		free(mlperf_desc);
	}
	sys_aggs_release(&aggs);
	if (rc) {
		db_inventory_release(out);
		return rc;
	}
	total = out->n_ok + out->n_failed + out->n_aborted + out->n_invalid;
	if (total <= max_runs || max_runs == 0)
		release_cfgsrc(out);   /* every run is listed, or nothing is */
	if (total > max_runs) {
		out->runs_omitted = total > 0;
		if (max_runs > 0 &&
		    (rc = load_runs(db, q, sql_bad_runs, (long)max_runs + 1, &out->bad, &out->nbad,
				    err))) {
			db_inventory_release(out);
			return rc;
		}
		if (out->nbad > max_runs) {
			out->bad_omitted = 1;
			out->nbad = max_runs;   /* the extra one only told there are more */
			release_runs(out->bad + max_runs, 1);
		}
	} else if ((rc = load_runs(db, q, sql_runs, 0, &out->runs, &out->nruns, err))) {
		db_inventory_release(out);
		return rc;
	}
	return 0;
}

static const char sql_system_has_runs[] =
	"SELECT EXISTS (SELECT 1 FROM system y JOIN benchmark b"
	" JOIN run_data r ON r.benchmark_id = b.id AND r.system_id = y.id"
	" WHERE y.name = ?4 AND (?1 IS NULL OR b.suite IN (SELECT value FROM json_each(?1))))";

static const char sql_suites_have_runs[] =
	"SELECT EXISTS (SELECT 1 FROM benchmark b JOIN run_data r ON r.benchmark_id = b.id"
	" WHERE ?1 IS NULL OR b.suite IN (SELECT value FROM json_each(?1)))";

/* The one-column integer answer of sql with q's suites (and ?4 = name). */
static int exists(struct db *db, const char *sql, const struct db_inv_query *q,
		  const char *name, struct strbuf *err)
{
	struct db_inv_query sq;
	sqlite3_stmt *st;
	int rc;

	memset(&sq, 0, sizeof(sq));
	sq.suites = q ? q->suites : NULL;
	sq.nsuites = q ? q->nsuites : 0;
	if ((rc = prep(db, &st, sql, &sq, err)))
		return rc;
	if (name)
		db_bind_text(st, 4, name);
	rc = sqlite3_step(st);
	rc = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) != 0 : db_fail(db, err, "cannot list systems");
	sqlite3_finalize(st);
	return rc;
}

int db_system_has_runs(struct db *db, const struct db_inv_query *q, const char *name,
		       struct strbuf *err)
{
	return exists(db, sql_system_has_runs, q, name, err);
}

int db_suites_have_runs(struct db *db, const struct db_inv_query *q, struct strbuf *err)
{
	return exists(db, sql_suites_have_runs, q, NULL, err);
}

void db_inventory_release(struct db_inventory *inv)
{
	size_t i;

	for (i = 0; i < inv->nsystems; i++) {
		struct db_inv_system *y = &inv->systems[i];

		free(y->name);
		free(y->display_name);
		free(y->vendor);
		free(y->accelerator);
		free(y->host_cpu);
		free(y->interconnect);
		free(y->site);
		free(y->frameworks);
		free(y->described_by);
		free(y->first_source);
		free(y->src_system);
		free(y->src_nodes);
		free(y->src_framework);
	}
	release_runs(inv->runs, inv->nruns);
	release_runs(inv->bad, inv->nbad);
	free(inv->bad);
	release_cfgsrc(inv);
	for (i = 0; i < inv->nbenchmarks; i++) {
		free(inv->benchmarks[i].suite);
		free(inv->benchmarks[i].name);
	}
	free(inv->benchmarks);
	free(inv->systems);
	free(inv->runs);
	memset(inv, 0, sizeof(*inv));
}

/* ---- ReFrame references ----------------------------------------------- */

static const char sql_refs[] =
	"SELECT r.id, y.name,"
	/* run_data.status is a code (docs/schema.md, "Storage") */
	" CASE r.status WHEN 0 THEN 'ok' WHEN 1 THEN 'failed' WHEN 2 THEN 'aborted'"
	"  WHEN 3 THEN 'invalid' ELSE r.status END, r.job_id, md.value,"
	" json_extract(mk.meta, '$.reference'), json_extract(mk.meta, '$.lower_bound'),"
	" json_extract(mk.meta, '$.upper_bound'), json_extract(mk.meta, '$.lower_thres'),"
	" json_extract(mk.meta, '$.upper_thres'), json_extract(mk.meta, '$.result')"
	/* the run view: the status as text whatever run_data stores */
	" FROM run r JOIN benchmark b ON b.id = r.benchmark_id"
	" JOIN system y ON y.id = r.system_id"
	/* the run's packed metrics (run_data.metrics, schema 9) */
	" JOIN run_data rd ON rd.id = r.id JOIN json_each(rd.metrics) md"
	" JOIN metric_kind mk ON mk.id = md.key"
	" WHERE b.suite = ?1 AND b.name = ?2 AND mk.name = coalesce(?3, b.metric)"
	"  AND mk.meta <> '' AND json_valid(mk.meta)"
	"  AND json_type(mk.meta, '$.reference') IN ('integer', 'real')"
	" ORDER BY y.name, r.id";

int db_ref_runs_load(struct db *db, const char *suite, const char *benchmark,
		     const char *metric, struct db_ref_run **out, size_t *n, struct strbuf *err)
{
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc = db_prepare(db, &st, sql_refs, err);

	*out = NULL;
	*n = 0;
	if (rc)
		return rc;
	db_bind_text(st, 1, suite);
	db_bind_text(st, 2, benchmark);
	db_bind_text(st, 3, metric);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_ref_run *x;
		const unsigned char *res;

		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 32;
			*out = ab_realloc(*out, alloc * sizeof(**out));
		}
		x = &(*out)[(*n)++];
		x->id = sqlite3_column_int64(st, 0);
		x->system = col_str(st, 1);
		x->status = col_str(st, 2);
		x->job_id = col_str(st, 3);
		x->value = col_num(st, 4);
		x->reference = col_num(st, 5);
		x->lower_bound = col_num(st, 6);
		x->upper_bound = col_num(st, 7);
		x->lower_thres = col_num(st, 8);
		x->upper_thres = col_num(st, 9);
		res = sqlite3_column_text(st, 10);
		x->result = res && (!strcmp((const char *)res, "pass") ||
				    !strcmp((const char *)res, "fail"))
				    ? ab_strdup((const char *)res)
				    : NULL;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_ref_runs_release(*out, *n);
		*out = NULL;
		*n = 0;
		return db_fail(db, err, "cannot list references");
	}
	return 0;
}

void db_ref_runs_release(struct db_ref_run *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].system);
		free(v[i].status);
		free(v[i].job_id);
		free(v[i].result);
	}
	free(v);
}

/* ---- power trace windows ------------------------------------------------ */

/* ISO 8601 text to Unix seconds (fractions kept); NULL when unparsable */
#define UNIX_SECONDS(x) "(julianday(" x ") - 2440587.5) * 86400.0"

static const char sql_traces[] =
	"SELECT r.id, b.suite, b.name, y.name, " UNIX_SECONDS("r.started") ","
	" " UNIX_SECONDS("r.finished") ", p.device, p.t0, p.t1"
	" FROM (SELECT run_id, device, min(t) AS t0, max(t) AS t1 FROM power_sample"
	"  GROUP BY run_id, device) p"
	" JOIN run_data r ON r.id = p.run_id JOIN benchmark b ON b.id = r.benchmark_id"
	" JOIN system y ON y.id = r.system_id"
	" WHERE" FILTER_RUN " ORDER BY b.suite, b.name, y.name, r.id, p.device";

/* Whether one device's trace [t0, t1] is off its run's window (see
 * inventory.h); *offset says by how much. */
static int trace_off(const struct db_trace_window *w, double t0, double t1, double *offset)
{
	double dur = isfinite(w->finished) ? w->finished - w->started : 0.0;
	double tol = dur / 10.0 > 120.0 ? dur / 10.0 : 120.0;

	if (t0 > w->started + tol) {
		*offset = t0 - w->started;
		return 1;
	}
	if (isfinite(w->finished) ? t1 < w->finished - tol : t1 < w->started) {
		*offset = t1 - (isfinite(w->finished) ? w->finished : w->started);
		return 1;
	}
	return 0;
}

int db_trace_windows_load(struct db *db, const struct db_inv_query *q,
			  struct db_trace_window **out, size_t *n, struct strbuf *err)
{
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc = prep(db, &st, sql_traces, q, err);

	*out = NULL;
	*n = 0;
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_trace_window *w = *n ? &(*out)[*n - 1] : NULL;
		double t0 = col_num(st, 7), t1 = col_num(st, 8), off;

		if (!w || w->id != sqlite3_column_int64(st, 0)) {
			if (*n == alloc) {
				alloc = alloc ? 2 * alloc : 32;
				*out = ab_realloc(*out, alloc * sizeof(**out));
			}
			w = &(*out)[(*n)++];
			memset(w, 0, sizeof(*w));
			w->id = sqlite3_column_int64(st, 0);
			w->suite = col_str(st, 1);
			w->benchmark = col_str(st, 2);
			w->system = col_str(st, 3);
			w->started = col_num(st, 4);
			w->finished = col_num(st, 5);
			w->checked = isfinite(w->started);
			w->offset = NAN;
		}
		w->ndev++;
		if (w->checked && isfinite(t0) && isfinite(t1) && trace_off(w, t0, t1, &off)) {
			if (!w->noff++) {
				w->off_device = col_str(st, 6);
				w->offset = off;
			}
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_trace_windows_release(*out, *n);
		*out = NULL;
		*n = 0;
		return db_fail(db, err, "cannot list power traces");
	}
	return 0;
}

void db_trace_windows_release(struct db_trace_window *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].suite);
		free(v[i].benchmark);
		free(v[i].system);
		free(v[i].off_device);
	}
	free(v);
}
