/*
 * dataset.c - group runs into configurations and collect metric values.
 */
#include "core/compat.h"
#include "dataset.h"
#include "db_priv.h"
#include "stats.h"

/* The runs, as integer ids and values: the names, units and boundary are
 * looked up once per configuration and metric kind (sql_names, sql_kind),
 * not carried on each of 100,000 rows. */
static const char sql_configs[] =
	"SELECT r.benchmark_id, r.system_id, r.nodes, r.devices, r.global_batch, r.precision,"
	" r.status, r.metrics, r.id"
	/* the table under the run view; the metrics are the row's packed
	 * column (docs/schema.md, "Storage"), read here in C: the metric view
	 * runs json_each per run */
	" FROM run_data r JOIN benchmark b ON b.id = r.benchmark_id"
	" JOIN system y ON y.id = r.system_id"
	" WHERE (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2)" \
	"  AND (?3 IS NULL OR y.name = ?3 OR y.display_name = ?3)" \
	/* a valid run with a reason is kept but not counted (an MLPerf \
	 * inference run_2..run_N: only run_1 is official) */ \
	"  AND (r.status <> 0 OR r.excluded_reason IS NULL)" \
	/* in run order, the table's own (no sort): load_configs() puts each \
	 * run into its configuration, then sorts the few configurations by \
	 * suite, benchmark, system and shape (sorting 100,000 rows by those \
	 * names took 0.4 s of a 0.6 s query) */ \
	" ORDER BY r.id";

/* One metric (?4; NULL: each benchmark's headline), or two (?4 and ?5:
 * load_sets).  The kinds are listed once for the query, not per run (a
 * list naming b.metric was built again for each of 100,000 runs): with ?4
 * NULL, the headlines of every benchmark ?1 and ?2 select; load_sets
 * keeps a run's values of its own benchmark's headline only. */
#define SQL_KINDS \
	"SELECT k.id FROM metric_kind k WHERE k.name = ?4 OR (?4 IS NULL AND k.name IN" \
	" (SELECT metric FROM benchmark WHERE (?1 IS NULL OR suite = ?1)" \
	" AND (?2 IS NULL OR name = ?2)))"
static const char sql_kinds[] = SQL_KINDS " ORDER BY k.id";
static const char sql_kinds2[] = SQL_KINDS " OR k.name = ?5 ORDER BY k.id";

/* A configuration's names: its benchmark's and system's. */
static const char sql_names[] =
	"SELECT b.suite, b.name, y.name, y.display_name, y.vendor, y.accelerator, b.better,"
	" b.metric, b.unit FROM benchmark b, system y WHERE b.id = ?1 AND y.id = ?2";

/* A metric kind's unit and measurement boundary. */
static const char sql_kind[] =
	"SELECT unit, json_extract(nullif(meta, ''), '$.boundary'), name FROM metric_kind"
	" WHERE id = ?1";

static const char sql_bench_metric[] = "SELECT metric FROM benchmark WHERE id = ?1";

static const char *const lower_words[] = {
	"time", "latency", "duration", "energy", "power", "cost", "joule", "_j", "seconds",
	"runtime", "wh"
};
static const char *const higher_words[] = { "throughput", "efficiency", "per_wh", "/wh",
					    "speedup", "tflops", "flops", "accuracy" };

int db_metric_lower_is_better(const char *name, const char *unit)
{
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(higher_words); i++)
		if (name && strstr(name, higher_words[i]))
			return 0;
	if (unit && strchr(unit, '/') && strcmp(unit, "J/sample"))
		return 0; /* a rate: tokens/s, images/s, tokens/Wh */
	for (i = 0; i < AB_ARRAY_SIZE(lower_words); i++)
		if (name && strstr(name, lower_words[i]))
			return 1;
	if (unit && (!strcmp(unit, "s") || !strcmp(unit, "ms") || !strcmp(unit, "us") ||
		     !strcmp(unit, "min") || !strcmp(unit, "Wh") || !strcmp(unit, "J") ||
		     !strcmp(unit, "W") || !strcmp(unit, "J/sample")))
		return 1;
	return 0;
}

static int same_text(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

int db_config_same_shape(const struct db_config *a, const struct db_config *b)
{
	return same_text(a->suite, b->suite) && same_text(a->benchmark, b->benchmark) &&
	       a->nodes == b->nodes && a->devices == b->devices &&
	       a->global_batch == b->global_batch && same_text(a->precision, b->precision);
}

const struct db_config *db_configs_find(const struct db_configs *cs, const struct db_config *like)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->v[i].system, like->system) && db_config_same_shape(&cs->v[i], like))
			return &cs->v[i];
	return NULL;
}

size_t db_configs_best(const struct db_configs *cs, const char *benchmark,
		       int (*keep)(const struct db_config *c, void *ctx), void *ctx,
		       const struct db_config **out)
{
	return db_configs_best_per(cs, benchmark, DB_PER_SYSTEM, keep, ctx, out);
}

size_t db_configs_best_per(const struct db_configs *cs, const char *benchmark, enum db_per per,
			   int (*keep)(const struct db_config *c, void *ctx), void *ctx,
			   const struct db_config **out)
{
	double *best = ab_calloc(cs->n + 1, sizeof(*best));
	size_t i, k, n = 0;

	for (i = 0; i < cs->n; i++) {
		const struct db_config *c = &cs->v[i];
		long count = per == DB_PER_DEVICE ? c->devices : per == DB_PER_NODE ? c->nodes : 1;
		double m;

		if (!c->n || count <= 0 || (benchmark && strcmp(c->benchmark, benchmark)) ||
		    (keep && !keep(c, ctx)))
			continue;
		/* a positive factor moves the median with the values */
		m = stats_median(c->values, c->n);
		m = c->lower_is_better ? m * (double)count : m / (double)count;
		for (k = 0; k < n && strcmp(out[k]->system, c->system); k++)
			;
		if (k == n)
			n++;
		else if (c->lower_is_better ? !(m < best[k]) : !(m > best[k]))
			continue;
		out[k] = c;
		best[k] = m;
	}
	free(best);
	return n;
}

static char *dup_col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? ab_strdup((const char *)t) : NULL;
}

static long long_col(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? 0 : (long)sqlite3_column_int64(st, i);
}

/* A configuration while loading: benchmark and system ids (one per name),
 * shape, its first run (for the order) and its values' capacity. */
struct cfg_key {
	int64_t bid, yid, first;
	long nodes, devices, batch;
	const char *precision;   /* the configuration's own copy; NULL: none */
	size_t vcap;
	char *bunit;             /* owned: the unit of a run without a value, or NULL */
};

/* Open addressing over out->v: slots hold index + 1 (0: empty). */
struct cfg_index {
	size_t *slot;
	size_t cap;              /* a power of two, at least twice the configurations */
};

static uint64_t key_hash(const struct cfg_key *k)
{
	const int64_t v[5] = { k->bid, k->yid, k->nodes, k->devices, k->batch };
	uint64_t h = 1469598103934665603ULL;
	const char *p;
	size_t i;

	for (i = 0; i < 5; i++)
		h = (h ^ (uint64_t)v[i]) * 1099511628211ULL;
	h = (h ^ (k->precision ? 1u : 2u)) * 1099511628211ULL;
	for (p = k->precision; p && *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return h;
}

static int key_same(const struct cfg_key *a, const struct cfg_key *b)
{
	return a->bid == b->bid && a->yid == b->yid && a->nodes == b->nodes &&
	       a->devices == b->devices && a->batch == b->batch &&
	       same_text(a->precision, b->precision);
}

/* The index of the configuration with key k, or n (not there; *at: its slot). */
static size_t cfg_find(const struct cfg_index *ix, const struct cfg_key *keys, size_t n,
		       const struct cfg_key *k, size_t *at)
{
	size_t i = (size_t)key_hash(k) & (ix->cap - 1);

	while (ix->slot[i]) {
		if (key_same(&keys[ix->slot[i] - 1], k))
			return ix->slot[i] - 1;
		i = (i + 1) & (ix->cap - 1);
	}
	*at = i;
	return n;
}

/* Put configuration idx in slot at; grow when half full. */
static void cfg_add(struct cfg_index *ix, const struct cfg_key *keys, size_t idx, size_t at)
{
	size_t i, j;

	ix->slot[at] = idx + 1;
	if (2 * (idx + 1) <= ix->cap)
		return;
	free(ix->slot);
	ix->cap *= 2;
	ix->slot = ab_calloc(ix->cap, sizeof(*ix->slot));
	for (i = 0; i <= idx; i++) {
		j = (size_t)key_hash(&keys[i]) & (ix->cap - 1);
		while (ix->slot[j])
			j = (j + 1) & (ix->cap - 1);
		ix->slot[j] = i + 1;
	}
}

struct cfg_sort {
	struct db_config c;
	int64_t first;
};

static int cmp_long_key(long a, long b)
{
	return (a > b) - (a < b);
}

/* The order the query once had: suite, benchmark, system, nodes, devices,
 * global batch, precision (unknown as 0 and ""), then the first run. */
static int config_order(const void *pa, const void *pb)
{
	const struct cfg_sort *x = pa, *y = pb;
	const struct db_config *a = &x->c, *b = &y->c;
	int c;

	if ((c = strcmp(a->suite, b->suite)) || (c = strcmp(a->benchmark, b->benchmark)) ||
	    (c = strcmp(a->system, b->system)) || (c = cmp_long_key(a->nodes, b->nodes)) ||
	    (c = cmp_long_key(a->devices, b->devices)) ||
	    (c = cmp_long_key(a->global_batch, b->global_batch)) ||
	    (c = strcmp(a->precision ? a->precision : "", b->precision ? b->precision : "")))
		return c;
	return (x->first > y->first) - (x->first < y->first);
}

static void sort_configs(struct db_configs *out, const struct cfg_key *keys)
{
	struct cfg_sort *v = ab_malloc(out->n * sizeof(*v));
	size_t i;

	for (i = 0; i < out->n; i++) {
		v[i].c = out->v[i];
		v[i].first = keys[i].first;
	}
	qsort(v, out->n, sizeof(*v), config_order);
	for (i = 0; i < out->n; i++)
		out->v[i] = v[i].c;
	free(v);
}

static void push_value(struct db_config *c, double v, int64_t id, size_t *cap)
{
	if (c->n == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		c->values = ab_realloc(c->values, *cap * sizeof(*c->values));
		c->run_ids = ab_realloc(c->run_ids, *cap * sizeof(*c->run_ids));
	}
	c->values[c->n] = v;
	c->run_ids[c->n] = id;
	c->n++;
}

struct cache_entry {
	char *suite, *benchmark, *system, *metric;   /* NULL: any / headline */
	enum db_per per;
	struct db_configs cs;
};

struct db_configs_cache {
	struct cache_entry *v;
	size_t n;
};

static char *dup_or_null(const char *s)
{
	return s ? ab_strdup(s) : NULL;
}

static int same_key(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void *dup_mem(const void *p, size_t n)
{
	void *q = ab_malloc(n ? n : 1);

	if (n)
		memcpy(q, p, n);
	return q;
}

static void configs_copy(const struct db_configs *from, struct db_configs *to)
{
	size_t i;

	to->n = from->n;
	to->n_unnormalised = from->n_unnormalised;
	to->v = ab_calloc(from->n ? from->n : 1, sizeof(*to->v));
	for (i = 0; i < from->n; i++) {
		const struct db_config *a = &from->v[i];
		struct db_config *b = &to->v[i];

		*b = *a;
		b->suite = dup_or_null(a->suite);
		b->benchmark = dup_or_null(a->benchmark);
		b->system = dup_or_null(a->system);
		b->display_name = dup_or_null(a->display_name);
		b->vendor = dup_or_null(a->vendor);
		b->accelerator = dup_or_null(a->accelerator);
		b->precision = dup_or_null(a->precision);
		b->metric = dup_or_null(a->metric);
		b->unit = dup_or_null(a->unit);
		b->boundary = dup_or_null(a->boundary);
		b->values = dup_mem(a->values, a->n * sizeof(*a->values));
		b->run_ids = dup_mem(a->run_ids, a->n * sizeof(*a->run_ids));
	}
}

/* The configurations of one benchmark, in the set's order: the rows a
 * query for it alone returns. */
static void configs_copy_benchmark(const struct db_configs *from, const char *suite,
				   const char *benchmark, struct db_configs *to)
{
	struct db_configs sub;
	size_t i;

	memset(&sub, 0, sizeof(sub));
	sub.v = ab_calloc(from->n ? from->n : 1, sizeof(*sub.v));
	for (i = 0; i < from->n; i++)
		if (!strcmp(from->v[i].benchmark, benchmark) && !strcmp(from->v[i].suite, suite))
			sub.v[sub.n++] = from->v[i];    /* borrowed; configs_copy copies deeply */
	configs_copy(&sub, to);
	free(sub.v);
}

void db_configs_cache_enable(struct db *db)
{
	if (!db->configs_cache)
		db->configs_cache = ab_calloc(1, sizeof(*db->configs_cache));
}

enum db_per db_configs_set_per(struct db *db, enum db_per per)
{
	enum db_per old = (enum db_per)db->configs_per;

	db->configs_per = (int)per;
	return old;
}

void db_configs_cache_free(struct db_configs_cache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++) {
		free(c->v[i].suite);
		free(c->v[i].benchmark);
		free(c->v[i].system);
		free(c->v[i].metric);
		db_configs_release(&c->v[i].cs);
	}
	free(c->v);
	free(c);
}

static int load_configs(struct db *db, const struct db_config_query *q, struct db_configs *out,
			struct strbuf *err);
static int load_sets(struct db *db, const struct db_config_query *q, const char *metric2,
		     struct db_configs *out, struct db_configs *out2, struct strbuf *err);

static void db_configs_release_one(struct db_configs *c);

const char *db_per_name(enum db_per per)
{
	return per == DB_PER_DEVICE ? "accelerator" : per == DB_PER_NODE ? "node" : "system";
}

/* Whether a metric is already per unit of something (efficiency, per
 * device, per watt): normalising it again would be wrong. */
static int intensive(const struct db_config *c);

int db_config_per_unit(const struct db_config *c)
{
	return intensive(c);
}

static int intensive(const struct db_config *c)
{
	return strstr(c->metric, "efficiency") || strstr(c->metric, "per_device") ||
	       strstr(c->metric, "per_node") || strstr(c->unit, "/W") || strstr(c->unit, "/J") ||
	       strstr(c->unit, " per ") || !strcmp(c->unit, "%");
}

/* Normalise every configuration's values as per asks (dataset.h);
 * configurations without the count are dropped and counted. */
static void normalise(struct db_configs *cs, enum db_per per)
{
	size_t i, j, k = 0;

	for (i = 0; i < cs->n; i++) {
		struct db_config *c = &cs->v[i];
		long count = per == DB_PER_DEVICE ? c->devices : c->nodes;
		struct strbuf u = STRBUF_INIT;

		if (intensive(c)) {
			cs->v[k++] = *c;
			continue;
		}
		if (count <= 0) {
			struct db_configs one = { c, 1, 0 };

			db_configs_release_one(&one);
			cs->n_unnormalised++;
			continue;
		}
		for (j = 0; j < c->n; j++)
			c->values[j] = c->lower_is_better ? c->values[j] * (double)count
							  : c->values[j] / (double)count;
		strbuf_addstr(&u, c->unit);
		if (c->lower_is_better)
			strbuf_addf(&u, " \xc3\x97 %ss", db_per_name(per));
		else
			strbuf_addf(&u, " per %s", db_per_name(per));
		free(c->unit);
		c->unit = strbuf_detach(&u, NULL);
		c->per = per;
		cs->v[k++] = *c;
	}
	cs->n = k;
}

/* A new cache entry for q holding cs (a copy of it, or cs itself). */
static void cache_add(struct db_configs_cache *c, const struct db_config_query *q,
		      enum db_per per, struct db_configs *cs, int copy)
{
	struct cache_entry *e;

	c->v = ab_realloc(c->v, (c->n + 1) * sizeof(*c->v));
	e = &c->v[c->n++];
	e->suite = dup_or_null(q->suite);
	e->benchmark = dup_or_null(q->benchmark);
	e->system = dup_or_null(q->system);
	e->metric = dup_or_null(q->metric);
	e->per = per;
	if (copy)
		configs_copy(cs, &e->cs);
	else
		e->cs = *cs;
}

int db_load_configs(struct db *db, const struct db_config_query *q, struct db_configs *out,
		    struct strbuf *err)
{
	struct db_configs_cache *c = db->configs_cache;
	struct cache_entry *e;
	size_t i;
	int rc;

	if (!c)
		return load_configs(db, q, out, err);
	for (i = 0; i < c->n; i++) {
		e = &c->v[i];
		if (same_key(e->suite, q->suite) && same_key(e->benchmark, q->benchmark) &&
		    same_key(e->system, q->system) && same_key(e->metric, q->metric) &&
		    (int)e->per == db->configs_per) {
			configs_copy(&e->cs, out);
			return 0;
		}
	}
	/* one benchmark of a suite (or of all) already loaded whole (the
	 * workbook's Summary, then a sheet per benchmark; the report's
	 * prefetch): the same rows, filtered */
	for (i = 0; q->benchmark && q->suite && i < c->n; i++) {
		e = &c->v[i];
		if ((!e->suite || same_key(e->suite, q->suite)) && !e->benchmark &&
		    same_key(e->system, q->system) && same_key(e->metric, q->metric) &&
		    (int)e->per == db->configs_per) {
			configs_copy_benchmark(&e->cs, q->suite, q->benchmark, out);
			return 0;
		}
	}
	rc = load_configs(db, q, out, err);
	if (rc < 0)
		return rc;
	cache_add(c, q, (enum db_per)db->configs_per, out, 1);
	return rc;
}

/* Whether the cache has q's exact entry at the current normalisation. */
static int cached(const struct db *db, const struct db_config_query *q)
{
	const struct db_configs_cache *c = db->configs_cache;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (same_key(c->v[i].suite, q->suite) && same_key(c->v[i].benchmark, q->benchmark) &&
		    same_key(c->v[i].system, q->system) && same_key(c->v[i].metric, q->metric) &&
		    (int)c->v[i].per == db->configs_per)
			return 1;
	return 0;
}

void db_configs_prefetch(struct db *db, const struct db_config_query *q)
{
	struct db_configs cs;

	if (!db->configs_cache || cached(db, q))
		return;
	if (load_configs(db, q, &cs, NULL) == 0)
		cache_add(db->configs_cache, q, (enum db_per)db->configs_per, &cs, 0);
}

void db_configs_prefetch2(struct db *db, const struct db_config_query *q, const char *metric2)
{
	struct db_config_query q2 = *q;
	struct db_configs a, b;

	q2.metric = metric2;
	if (!db->configs_cache)
		return;
	if (cached(db, q) || cached(db, &q2) || same_key(q->metric, metric2)) {
		db_configs_prefetch(db, q);
		db_configs_prefetch(db, &q2);
		return;
	}
	if (load_sets(db, q, metric2, &a, &b, NULL) == 0) {
		cache_add(db->configs_cache, q, (enum db_per)db->configs_per, &a, 0);
		cache_add(db->configs_cache, &q2, (enum db_per)db->configs_per, &b, 0);
	}
}

/* A metric kind's unit and boundary (sql_kind), looked up once. */
struct kind_info {
	int64_t id;
	char *unit, *boundary;   /* boundary NULL: none (or not text) */
	char *name;
};

/* A benchmark's headline metric (for which rows a headline set takes). */
struct bench_info {
	int64_t id;
	char *metric;
};

struct lookups {
	sqlite3_stmt *names, *kind, *bench;
	struct kind_info *k;
	size_t nk;
	struct bench_info *b;
	size_t nb;
};

static void lookups_release(struct lookups *lk)
{
	size_t i;

	sqlite3_finalize(lk->names);
	sqlite3_finalize(lk->kind);
	sqlite3_finalize(lk->bench);
	for (i = 0; i < lk->nk; i++) {
		free(lk->k[i].unit);
		free(lk->k[i].boundary);
		free(lk->k[i].name);
	}
	free(lk->k);
	for (i = 0; i < lk->nb; i++)
		free(lk->b[i].metric);
	free(lk->b);
}

/* The kind with this id, or NULL on a database error. */
static const struct kind_info *kind_of(struct db *db, struct lookups *lk, int64_t id,
				       struct strbuf *err)
{
	struct kind_info *k;
	size_t i;

	for (i = 0; i < lk->nk; i++)
		if (lk->k[i].id == id)
			return &lk->k[i];
	if (!lk->kind && db_prepare(db, &lk->kind, sql_kind, err) < 0)
		return NULL;
	sqlite3_bind_int64(lk->kind, 1, id);
	if (sqlite3_step(lk->kind) != SQLITE_ROW)
		return NULL;
	lk->k = ab_realloc(lk->k, (lk->nk + 1) * sizeof(*lk->k));
	k = &lk->k[lk->nk++];
	k->id = id;
	k->unit = dup_col(lk->kind, 0);
	k->boundary = sqlite3_column_type(lk->kind, 1) == SQLITE_TEXT ? dup_col(lk->kind, 1) : NULL;
	k->name = dup_col(lk->kind, 2);
	sqlite3_reset(lk->kind);
	return k;
}

/* A new configuration's names from its benchmark and system; *bunit: the
 * unit of its runs without a value (the benchmark's, for its headline
 * metric; NULL for another).  0, or -1 on a database error. */
static int config_names(struct db *db, struct lookups *lk, const struct db_config_query *q,
			int64_t bid, int64_t yid, struct db_config *c, char **bunit,
			struct strbuf *err)
{
	const char *bmetric, *better;
	int headline;

	if (!lk->names && db_prepare(db, &lk->names, sql_names, err) < 0)
		return -1;
	sqlite3_bind_int64(lk->names, 1, bid);
	sqlite3_bind_int64(lk->names, 2, yid);
	if (sqlite3_step(lk->names) != SQLITE_ROW) {
		sqlite3_reset(lk->names);
		return -1;
	}
	c->suite = dup_col(lk->names, 0);
	c->benchmark = dup_col(lk->names, 1);
	c->system = dup_col(lk->names, 2);
	c->display_name = dup_col(lk->names, 3);
	c->vendor = dup_col(lk->names, 4);
	c->accelerator = dup_col(lk->names, 5);
	better = (const char *)sqlite3_column_text(lk->names, 6);
	bmetric = (const char *)sqlite3_column_text(lk->names, 7);
	headline = !q->metric || !strcmp(q->metric, bmetric);
	c->metric = ab_strdup(q->metric ? q->metric : bmetric);
	c->lower_is_better = headline ? !strcmp(better, "lower") : -1;
	*bunit = headline ? dup_col(lk->names, 8) : NULL;
	sqlite3_reset(lk->names);
	return 0;
}

/* One set of configurations being loaded: its metric (NULL: each
 * benchmark's headline) and what it holds so far. */
struct cfg_set {
	const char *metric;
	struct db_configs *out;
	struct cfg_key *keys, *ck;
	struct cfg_index ix;
	size_t cap;
	int matched;                   /* the current run had a value of its metric */
};

/* The run whose rows are being read (a run's rows come together). */
struct cur_run {
	int64_t id, bid, yid;
	long nodes, devices, batch;
	int has_precision;
	struct strbuf precision;
	int status;
};

/* The headline metric of benchmark id, or NULL on a database error. */
static const char *bench_metric(struct db *db, struct lookups *lk, int64_t id, struct strbuf *err)
{
	size_t i;

	for (i = 0; i < lk->nb; i++)
		if (lk->b[i].id == id)
			return lk->b[i].metric;
	if (!lk->bench && db_prepare(db, &lk->bench, sql_bench_metric, err) < 0)
		return NULL;
	sqlite3_bind_int64(lk->bench, 1, id);
	if (sqlite3_step(lk->bench) != SQLITE_ROW) {
		sqlite3_reset(lk->bench);
		return NULL;
	}
	lk->b = ab_realloc(lk->b, (lk->nb + 1) * sizeof(*lk->b));
	lk->b[lk->nb].id = id;
	lk->b[lk->nb].metric = dup_col(lk->bench, 0);
	sqlite3_reset(lk->bench);
	return lk->b[lk->nb++].metric;
}

/* One row of run r for set s: a value of kind ki, or (ki NULL) the run
 * without one.  0, or -1 on a database error. */
static int set_row(struct db *db, struct lookups *lk, const struct db_config_query *q,
		   struct cfg_set *s, const struct cur_run *r, const struct kind_info *ki,
		   double value, struct strbuf *err)
{
	struct db_configs *out = s->out;
	struct db_config *cur;
	struct cfg_key k;
	size_t at = 0, ci;

	k.bid = r->bid;
	k.yid = r->yid;
	k.nodes = r->nodes;
	k.devices = r->devices;
	k.batch = r->batch;
	k.precision = r->has_precision ? r->precision.buf : NULL;
	ci = s->ck && key_same(s->ck, &k) ? (size_t)(s->ck - s->keys)
					  : cfg_find(&s->ix, s->keys, out->n, &k, &at);
	if (ci == out->n) {
		struct db_config_query sq = *q;

		if (out->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 16;
			out->v = ab_realloc(out->v, s->cap * sizeof(*out->v));
			s->keys = ab_realloc(s->keys, s->cap * sizeof(*s->keys));
		}
		cur = &out->v[out->n++];
		memset(cur, 0, sizeof(*cur));
		cur->nodes = k.nodes;
		cur->devices = k.devices;
		cur->global_batch = k.batch;
		cur->precision = k.precision ? ab_strdup(k.precision) : NULL;
		k.precision = cur->precision;
		k.first = r->id;
		k.vcap = 0;
		k.bunit = NULL;
		s->keys[ci] = k;
		cfg_add(&s->ix, s->keys, ci, at);
		sq.metric = s->metric;
		if (config_names(db, lk, &sq, k.bid, k.yid, cur, &s->keys[ci].bunit, err) < 0)
			return -1;
	}
	cur = &out->v[ci];
	s->ck = &s->keys[ci];
	/* the unit and boundary of the value's metric kind; without a value,
	 * the benchmark's unit for its headline metric */
	if (!cur->unit && (ki ? ki->unit : s->ck->bunit))
		cur->unit = ab_strdup(ki ? ki->unit : s->ck->bunit);
	if (!cur->boundary && ki && ki->boundary)
		cur->boundary = ab_strdup(ki->boundary);
	/* run_data.status is a code (docs/schema.md, "Storage"): 0 ok,
	 * 1 failed, 2 aborted, anything else invalid */
	if (r->status < 0 || r->status > 2)
		cur->n_invalid++;
	else if (r->status != 0)
		cur->n_failed++;
	else if (!ki)
		cur->n_missing++;
	else
		push_value(cur, value, r->id, &s->ck->vcap);
	return 0;
}

/* The end of run r: each set without a value of it gets the run as one
 * without (what the LEFT JOIN's NULL row was). */
static int run_end(struct db *db, struct lookups *lk, const struct db_config_query *q,
		   struct cfg_set *sets, size_t nsets, const struct cur_run *r, struct strbuf *err)
{
	size_t j;

	for (j = 0; j < nsets; j++) {
		if (!sets[j].matched && set_row(db, lk, q, &sets[j], r, NULL, 0.0, err) < 0)
			return -1;
		sets[j].matched = 0;
	}
	return 0;
}

/* Sorted, defaulted and normalised: the set as the caller gets it. */
static void set_finish(struct db *db, struct cfg_set *s, int ok)
{
	struct db_configs *out = s->out;
	size_t i;

	free(s->ix.slot);
	if (ok && out->n > 1)
		sort_configs(out, s->keys);
	for (i = 0; i < out->n; i++)
		free(s->keys[i].bunit);
	free(s->keys);
	if (!ok) {
		db_configs_release(out);
		return;
	}
	for (i = 0; i < out->n; i++) {
		struct db_config *c = &out->v[i];

		if (!c->unit)
			c->unit = ab_strdup("");
		if (c->lower_is_better < 0)
			c->lower_is_better = db_metric_lower_is_better(c->metric, c->unit);
	}
	if (db->configs_per != DB_PER_SYSTEM)
		normalise(out, (enum db_per)db->configs_per);
}

/* The configurations q selects for q->metric into out and, with metric2
 * (not NULL), for metric2 into out2: one pass over the runs. */
static int load_sets(struct db *db, const struct db_config_query *q, const char *metric2,
		     struct db_configs *out, struct db_configs *out2, struct strbuf *err)
{
	struct cfg_set sets[2];
	struct cur_run run;
	struct lookups lk;
	sqlite3_stmt *st;
	size_t nsets = metric2 ? 2 : 1, j, nwant = 0, capwant = 0;
	int64_t *want = NULL;
	int rc, have_run = 0;

	memset(sets, 0, sizeof(sets));
	memset(&lk, 0, sizeof(lk));
	memset(&run, 0, sizeof(run));
	strbuf_init(&run.precision, 0);
	for (j = 0; j < nsets; j++) {
		sets[j].metric = j ? metric2 : q->metric;
		sets[j].out = j ? out2 : out;
		memset(sets[j].out, 0, sizeof(*sets[j].out));
		sets[j].ix.slot = ab_calloc(64, sizeof(size_t));
		sets[j].ix.cap = 64;
	}
	/* the kinds the sets take, ascending (a run's packed metrics are too) */
	rc = db_prepare(db, &st, metric2 ? sql_kinds2 : sql_kinds, err);
	if (rc == 0) {
		db_bind_text(st, 1, q->suite);
		db_bind_text(st, 2, q->benchmark);
		db_bind_text(st, 4, q->metric);
		if (metric2)
			db_bind_text(st, 5, metric2);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (nwant == capwant) {
				capwant = capwant ? 2 * capwant : 16;
				want = ab_realloc(want, capwant * sizeof(*want));
			}
			want[nwant++] = sqlite3_column_int64(st, 0);
		}
		sqlite3_finalize(st);
		rc = rc == SQLITE_DONE ? 0 : db_fail(db, err, "cannot load runs");
	}
	if (rc == 0)
		rc = db_prepare(db, &st, sql_configs, err);
	if (rc < 0) {
		for (j = 0; j < nsets; j++)
			set_finish(db, &sets[j], 0);
		strbuf_release(&run.precision);
		free(want);
		return rc;
	}
	db_bind_text(st, 1, q->suite);
	db_bind_text(st, 2, q->benchmark);
	db_bind_text(st, 3, q->system);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *packed = nwant ? (const char *)sqlite3_column_text(st, 7) : NULL;
		const char *vtext;
		int64_t kind;
		double value;
		int more;

		/* one row per run, in id order */
		if (have_run && run_end(db, &lk, q, sets, nsets, &run, err) < 0) {
			rc = SQLITE_ERROR;
			break;
		}
		have_run = 1;
		run.id = sqlite3_column_int64(st, 8);
		run.bid = sqlite3_column_int64(st, 0);
		run.yid = sqlite3_column_int64(st, 1);
		run.nodes = long_col(st, 2);
		run.devices = long_col(st, 3);
		run.batch = long_col(st, 4);
		run.has_precision = sqlite3_column_type(st, 5) != SQLITE_NULL;
		strbuf_reset(&run.precision);
		if (run.has_precision)
			strbuf_addstr(&run.precision, (const char *)sqlite3_column_text(st, 5));
		run.status = sqlite3_column_type(st, 6) == SQLITE_INTEGER ? sqlite3_column_int(st, 6)
									   : -1;
		/* its values of the kinds wanted, in kind order */
		while ((more = db_metrics_next_kind(&packed, &kind, &vtext)) > 0) {
			const struct kind_info *ki;
			size_t lo = 0, hi = nwant;
			const char *vend;

			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (want[mid] < kind)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo == nwant || want[lo] != kind)
				continue; /* not read: most values are not the ones wanted */
			value = db_metrics_value(vtext, &vend);
			if (!vend) {
				more = -1;
				break;
			}
			if (!(ki = kind_of(db, &lk, kind, err))) {
				rc = SQLITE_ERROR;
				break;
			}
			for (j = 0; j < nsets; j++) {
				const char *wname = sets[j].metric;

				if (!wname && !(wname = bench_metric(db, &lk, run.bid, err))) {
					rc = SQLITE_ERROR;
					break;
				}
				if (strcmp(ki->name, wname))
					continue;
				if (set_row(db, &lk, q, &sets[j], &run, ki, value, err) < 0) {
					rc = SQLITE_ERROR;
					break;
				}
				sets[j].matched = 1;
			}
			if (rc == SQLITE_ERROR)
				break;
		}
		if (rc == SQLITE_ERROR)
			break;
		if (more < 0) {
			rc = SQLITE_ERROR;
			ab_fail(err, AB_EIO, "database '%s': run %lld's metrics are not in the packed form",
				db_path(db), (long long)run.id);
			break;
		}
	}
	if (rc == SQLITE_DONE && have_run && run_end(db, &lk, q, sets, nsets, &run, err) < 0)
		rc = SQLITE_ERROR;
	if (rc != SQLITE_DONE)
		rc = db_fail(db, err, "cannot load runs");
	else
		rc = 0;
	sqlite3_finalize(st);
	free(want);
	lookups_release(&lk);
	strbuf_release(&run.precision);
	for (j = 0; j < nsets; j++)
		set_finish(db, &sets[j], rc == 0);
	return rc;
}

static int load_configs(struct db *db, const struct db_config_query *q, struct db_configs *out,
			struct strbuf *err)
{
	return load_sets(db, q, NULL, out, NULL, err);
}

/* The strings and arrays of each configuration, not the array itself. */
static void db_configs_release_one(struct db_configs *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		struct db_config *x = &c->v[i];
		free(x->suite);
		free(x->benchmark);
		free(x->system);
		free(x->display_name);
		free(x->vendor);
		free(x->accelerator);
		free(x->precision);
		free(x->metric);
		free(x->unit);
		free(x->boundary);
		free(x->values);
		free(x->run_ids);
	}
}

void db_configs_release(struct db_configs *c)
{
	db_configs_release_one(c);
	free(c->v);
	c->v = NULL;
	c->n = 0;
	c->n_unnormalised = 0;
}
