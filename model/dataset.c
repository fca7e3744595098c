/*
 * dataset.c - group runs into configurations and collect metric values.
 */
#include "core/compat.h"
#include "dataset.h"
#include "db_priv.h"
#include "stats.h"

static const char sql_configs[] =
	"SELECT b.suite, b.name, y.name, y.display_name, y.vendor, y.accelerator,"
	" r.nodes, r.devices, r.global_batch, r.precision,"
	/* run_data.status is a code (docs/schema.md, "Storage") */
	" CASE r.status WHEN 0 THEN 'ok' WHEN 1 THEN 'failed' WHEN 2 THEN 'aborted'"
	"  ELSE 'invalid' END, md.value,"
	" coalesce(mk.unit, CASE WHEN ?4 IS NULL OR ?4 = b.metric THEN b.unit END),"
	" b.better, b.metric, r.id, json_extract(nullif(mk.meta, ''), '$.boundary'),"
	" r.benchmark_id, r.system_id"
	/* the tables under the run and metric views: a LEFT JOIN of the
	 * metric view materialises every metric of the database (0.5 s per
	 * query at 100,000 runs); this walks the primary key per run */
	" FROM run_data r JOIN benchmark b ON b.id = r.benchmark_id"
	" JOIN system y ON y.id = r.system_id"
	" LEFT JOIN metric_data md ON md.run_id = r.id AND md.kind_id IN"
	"  (SELECT k.id FROM metric_kind k WHERE k.name = coalesce(?4, b.metric))"
	" LEFT JOIN metric_kind mk ON mk.id = md.kind_id"
	" WHERE (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2)"
	"  AND (?3 IS NULL OR y.name = ?3 OR y.display_name = ?3)"
	/* a valid run with a reason is kept but not counted (an MLPerf
	 * inference run_2..run_N: only run_1 is official) */
	"  AND (r.status <> 0 OR r.excluded_reason IS NULL)"
	/* in run order, the table's own (no sort): load_configs() puts each
	 * run into its configuration, then sorts the few configurations by
	 * suite, benchmark, system and shape (sorting 100,000 rows by those
	 * names took 0.4 s of a 0.6 s query) */
	" ORDER BY r.id";

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
static void configs_copy_benchmark(const struct db_configs *from, const char *benchmark,
				   struct db_configs *to)
{
	struct db_configs sub;
	size_t i;

	sub.v = ab_calloc(from->n ? from->n : 1, sizeof(*sub.v));
	sub.n = 0;
	for (i = 0; i < from->n; i++)
		if (!strcmp(from->v[i].benchmark, benchmark))
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
	/* one benchmark of a suite already loaded whole (the workbook's
	 * Summary, then a sheet per benchmark): the same rows, filtered */
	for (i = 0; q->benchmark && q->suite && i < c->n; i++) {
		e = &c->v[i];
		if (same_key(e->suite, q->suite) && !e->benchmark && same_key(e->system, q->system) &&
		    same_key(e->metric, q->metric)) {
			configs_copy_benchmark(&e->cs, q->benchmark, out);
			return 0;
		}
	}
	rc = load_configs(db, q, out, err);
	if (rc < 0)
		return rc;
	c->v = ab_realloc(c->v, (c->n + 1) * sizeof(*c->v));
	e = &c->v[c->n++];
	e->suite = dup_or_null(q->suite);
	e->benchmark = dup_or_null(q->benchmark);
	e->system = dup_or_null(q->system);
	e->metric = dup_or_null(q->metric);
	e->per = (enum db_per)db->configs_per;
	configs_copy(out, &e->cs);
	return rc;
}

static int load_configs(struct db *db, const struct db_config_query *q, struct db_configs *out,
			struct strbuf *err)
{
	sqlite3_stmt *st;
	struct db_config *cur = NULL;
	struct cfg_key *keys = NULL, *ck = NULL;
	struct cfg_index ix = { ab_calloc(64, sizeof(size_t)), 64 };
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = db_prepare(db, &st, sql_configs, err);
	if (rc < 0) {
		free(ix.slot);
		return rc;
	}
	db_bind_text(st, 1, q->suite);
	db_bind_text(st, 2, q->benchmark);
	db_bind_text(st, 3, q->system);
	db_bind_text(st, 4, q->metric);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *status = (const char *)sqlite3_column_text(st, 10);
		struct cfg_key k;
		size_t at = 0, ci;

		/* runs come in id order: each goes into its configuration */
		k.bid = sqlite3_column_int64(st, 17);
		k.yid = sqlite3_column_int64(st, 18);
		k.nodes = long_col(st, 6);
		k.devices = long_col(st, 7);
		k.batch = long_col(st, 8);
		k.precision = (const char *)sqlite3_column_text(st, 9);
		ci = ck && key_same(ck, &k) ? (size_t)(ck - keys) : cfg_find(&ix, keys, out->n, &k, &at);
		if (ci == out->n) {
			const char *metric = q->metric ? q->metric
						       : (const char *)sqlite3_column_text(st, 14);
			const char *better = (const char *)sqlite3_column_text(st, 13);
			if (out->n == cap) {
				cap = cap ? 2 * cap : 16;
				out->v = ab_realloc(out->v, cap * sizeof(*out->v));
				keys = ab_realloc(keys, cap * sizeof(*keys));
			}
			cur = &out->v[out->n++];
			memset(cur, 0, sizeof(*cur));
			cur->suite = dup_col(st, 0);
			cur->benchmark = dup_col(st, 1);
			cur->system = dup_col(st, 2);
			cur->display_name = dup_col(st, 3);
			cur->vendor = dup_col(st, 4);
			cur->accelerator = dup_col(st, 5);
			cur->nodes = long_col(st, 6);
			cur->devices = long_col(st, 7);
			cur->global_batch = long_col(st, 8);
			cur->precision = dup_col(st, 9);
			cur->metric = ab_strdup(metric);
			cur->unit = dup_col(st, 12);
			cur->lower_is_better = (!q->metric || !strcmp(q->metric,
					(const char *)sqlite3_column_text(st, 14)))
				? !strcmp(better, "lower")
				: -1;
			k.precision = cur->precision;
			k.first = sqlite3_column_int64(st, 15);
			k.vcap = 0;
			keys[ci] = k;
			cfg_add(&ix, keys, ci, at);
		}
		cur = &out->v[ci];
		ck = &keys[ci];
		if (!cur->unit && sqlite3_column_type(st, 12) != SQLITE_NULL)
			cur->unit = dup_col(st, 12);
		if (!cur->boundary && sqlite3_column_type(st, 16) == SQLITE_TEXT)
			cur->boundary = dup_col(st, 16);
		if (!strcmp(status, "invalid"))
			cur->n_invalid++;
		else if (strcmp(status, "ok"))
			cur->n_failed++;
		else if (sqlite3_column_type(st, 11) == SQLITE_NULL)
			cur->n_missing++;
		else
			push_value(cur, sqlite3_column_double(st, 11), sqlite3_column_int64(st, 15),
				   &ck->vcap);
	}
	free(ix.slot);
	if (rc == SQLITE_DONE && out->n > 1)
		sort_configs(out, keys);
	free(keys);
	if (rc != SQLITE_DONE) {
		rc = db_fail(db, err, "cannot load runs");
		sqlite3_finalize(st);
		db_configs_release(out);
		return rc;
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < out->n; i++) {
		struct db_config *c = &out->v[i];
		if (!c->unit)
			c->unit = ab_strdup("");
		if (c->lower_is_better < 0)
			c->lower_is_better = db_metric_lower_is_better(c->metric, c->unit);
	}
	if (db->configs_per != DB_PER_SYSTEM)
		normalise(out, (enum db_per)db->configs_per);
	return 0;
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
