/*
 * runs_stream.c - every run of a selection, one row at a time from one
 * prepared statement: what exports and the workbook's Raw sheet walk, so
 * that 100,000 runs never become one JSON array in memory.
 *
 * Two shapes: DB_RUNS_PER_RUN has exactly the fields of `ls runs --json`
 * (params and metrics as JSON text), DB_RUNS_PER_METRIC one row per run
 * and metric (the run's fields without params/metrics, then the source's
 * sha256, metric, value, unit); a run without metrics gives one row with
 * the metric cells NULL.
 *
 * Metrics come from run_data.metrics (schema 9, packed {"<kind id>":v})
 * parsed here with db_metrics_next_kind/db_metrics_value against the
 * metric_kind table loaded once at open: the `metric` view / json_each
 * per run cost twice the number reading.  Rows keep the view's order
 * (metric name, then kind id) and values print as SQLite's json did.
 */
#include "core/compat.h"
#include "db_priv.h"

#include <errno.h>
#include <stdlib.h>

#define RUN_COLS \
	"r.id, s.path, r.line, b.suite, b.name, y.name, y.vendor, y.accelerator," \
	/* run_data.status is a code (the view run gives the text) */ \
	" CASE r.status WHEN 0 THEN 'ok' WHEN 1 THEN 'failed' WHEN 2 THEN 'aborted'" \
	"  WHEN 3 THEN 'invalid' ELSE r.status END," \
	" r.nodes, r.devices, r.global_batch, r.local_batch, r.precision," \
	" r.framework, r.job_id, r.started, r.finished, r.excluded_reason"
#define RUN_FROM \
	" FROM run r JOIN source s ON s.id = r.source_id" \
	" JOIN benchmark b ON b.id = r.benchmark_id" \
	" JOIN system y ON y.id = r.system_id"
/* per metric: the tables under the run view (its status code is mapped
 * above), with the run's packed metrics, read in C run by run */
#define RUN_DATA_FROM \
	" FROM run_data r JOIN source s ON s.id = r.source_id" \
	" JOIN benchmark b ON b.id = r.benchmark_id" \
	" JOIN system y ON y.id = r.system_id"
#define RUN_WHERE \
	" WHERE (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2)" \
	"  AND (?3 IS NULL OR y.name = ?3 OR y.display_name = ?3)"

static const char sql_per_run[] =
	"SELECT " RUN_COLS ","
	" CASE WHEN json_valid(r.params) THEN r.params ELSE '{}' END,"
	" d.metrics, b.metric, b.unit, b.better, y.display_name"
	RUN_FROM " JOIN run_data d ON d.id = r.id" RUN_WHERE " ORDER BY r.id";

static const char sql_per_metric[] =
	"SELECT " RUN_COLS ","
	" b.metric, b.unit, b.better, y.display_name, s.sha256, r.metrics"
	RUN_DATA_FROM RUN_WHERE " ORDER BY r.id";

static const char *const names_per_run[] = {
	"id", "source", "line", "suite", "benchmark", "system", "vendor", "accelerator",
	"status", "nodes", "devices", "global_batch", "local_batch", "precision",
	"framework", "job_id", "started", "finished", "excluded_reason", "params",
	"metrics", "headline_metric", "headline_unit", "better", "system_display_name"
};
static const char *const names_per_metric[] = {
	"id", "source", "line", "suite", "benchmark", "system", "vendor", "accelerator",
	"status", "nodes", "devices", "global_batch", "local_batch", "precision",
	"framework", "job_id", "started", "finished", "excluded_reason",
	"headline_metric", "headline_unit", "better", "system_display_name", "sha256",
	"metric", "value", "unit"
};

/* a metric kind, loaded once: name order rank (the view's ORDER BY name,
 * equal names by id) and the name/unit as SQLite's json text */
struct kind {
	int64_t id;
	size_t rank;
	char *name, *unit;
	size_t name_len, unit_len;
};

/* one metric of the current run */
struct item {
	const struct kind *k;   /* NULL: id not in metric_kind */
	int64_t kind;
	struct db_cell value;
};

/* the columns the packed metrics take the place of */
#define METRICS_COL 20   /* per run: "metrics" */
#define METRIC_COL 24    /* per metric: "metric", "value", "unit" */

struct db_runs {
	sqlite3_stmt *st;
	struct db *db;
	unsigned flags;
	struct kind *kinds;     /* by id */
	size_t nkinds;
	struct item *items;     /* the current run's, in row order */
	size_t nitems, aitems, next;
	struct strbuf json;     /* per run: the metrics object */
	struct db_cell cells[AB_ARRAY_SIZE(names_per_metric) > AB_ARRAY_SIZE(names_per_run) ?
			     AB_ARRAY_SIZE(names_per_metric) : AB_ARRAY_SIZE(names_per_run)];
};

static int kind_by_id(const void *a, const void *b)
{
	const struct kind *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int load_kinds(struct db_runs *c, struct strbuf *err)
{
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc = db_prepare(c->db, &st, "SELECT id, name, unit FROM metric_kind ORDER BY name, id",
			    err);

	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct kind *k;
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *unit = (const char *)sqlite3_column_text(st, 2);

		if (c->nkinds == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			c->kinds = ab_realloc(c->kinds, alloc * sizeof(*c->kinds));
		}
		k = &c->kinds[c->nkinds];
		k->id = sqlite3_column_int64(st, 0);
		k->rank = c->nkinds++;
		k->name_len = name ? (size_t)sqlite3_column_bytes(st, 1) : 0;
		k->name = name ? ab_strndup(name, k->name_len) : NULL;
		k->unit_len = unit ? (size_t)sqlite3_column_bytes(st, 2) : 0;
		k->unit = unit ? ab_strndup(unit, k->unit_len) : NULL;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(c->db, err, "cannot read metric kinds");
	if (c->nkinds)
		qsort(c->kinds, c->nkinds, sizeof(*c->kinds), kind_by_id);
	return 0;
}

static const struct kind *find_kind(const struct db_runs *c, int64_t id)
{
	size_t lo = 0, hi = c->nkinds;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->kinds[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nkinds && c->kinds[lo].id == id ? &c->kinds[lo] : NULL;
}

static void free_kinds(struct db_runs *c)
{
	size_t i;

	for (i = 0; i < c->nkinds; i++) {
		free(c->kinds[i].name);
		free(c->kinds[i].unit);
	}
	free(c->kinds);
}

int db_runs_open(struct db *db, const struct db_filter *f, unsigned flags, struct db_runs **out,
		 struct strbuf *err)
{
	struct db_runs *c = ab_calloc(1, sizeof(*c));
	int rc;

	c->db = db;
	c->flags = flags;
	strbuf_init(&c->json, 256);
	rc = load_kinds(c, err);
	if (rc == 0)
		rc = db_prepare(db, &c->st, flags & DB_RUNS_PER_METRIC ? sql_per_metric : sql_per_run,
				err);
	if (rc < 0) {
		free_kinds(c);
		strbuf_release(&c->json);
		free(c);
		return rc;
	}
	db_bind_text(c->st, 1, f ? f->suite : NULL);
	db_bind_text(c->st, 2, f ? f->benchmark : NULL);
	db_bind_text(c->st, 3, f ? f->system : NULL);
	*out = c;
	return 0;
}

size_t db_runs_columns(const struct db_runs *c, const char *const **names)
{
	if (c->flags & DB_RUNS_PER_METRIC) {
		*names = names_per_metric;
		return AB_ARRAY_SIZE(names_per_metric);
	}
	*names = names_per_run;
	return AB_ARRAY_SIZE(names_per_run);
}

static void column_cell(sqlite3_stmt *st, int col, struct db_cell *x)
{
	memset(x, 0, sizeof(*x));
	switch (sqlite3_column_type(st, col)) {
	case SQLITE_INTEGER:
		x->type = DB_CELL_INT;
		x->i = sqlite3_column_int64(st, col);
		x->d = (double)x->i;
		break;
	case SQLITE_FLOAT:
		x->type = DB_CELL_REAL;
		x->d = sqlite3_column_double(st, col);
		break;
	case SQLITE_NULL:
		x->type = DB_CELL_NULL;
		break;
	default:
		x->type = DB_CELL_TEXT;
		x->s = (const char *)sqlite3_column_text(st, col);
		x->len = (size_t)sqlite3_column_bytes(st, col);
		if (!x->s)
			x->type = DB_CELL_NULL;
		break;
	}
}

static size_t item_rank(const struct item *it)
{
	/* a kind id missing from metric_kind has a NULL name: first */
	return it->k ? it->k->rank + 1 : 0;
}

/* The run's packed metrics into c->items, in the view's row order (name,
 * then kind id), each value the cell json_each gave: an integer for a
 * number without '.'/exponent that fits, else a real. */
static int read_items(struct db_runs *c, const char *packed, int64_t run, struct strbuf *err)
{
	const char *p = packed, *v, *end;
	int64_t kind;
	int more;
	size_t j;

	c->nitems = c->next = 0;
	while ((more = db_metrics_next_kind(&p, &kind, &v)) > 0) {
		struct item *it;
		double d = db_metrics_value(v, &end);

		if (!end || end != p) { /* not a number, or bytes after it */
			more = -1;
			break;
		}
		if (c->nitems == c->aitems) {
			c->aitems = c->aitems ? 2 * c->aitems : 8;
			c->items = ab_realloc(c->items, c->aitems * sizeof(*c->items));
		}
		it = &c->items[c->nitems++];
		it->kind = kind;
		it->k = find_kind(c, kind);
		memset(&it->value, 0, sizeof(it->value));
		it->value.type = DB_CELL_REAL;
		it->value.d = d;
		if (!memchr(v, '.', (size_t)(end - v)) && !memchr(v, 'e', (size_t)(end - v)) &&
		    !memchr(v, 'E', (size_t)(end - v))) {
			char *iend;
			long long n;

			errno = 0;
			n = strtoll(v, &iend, 10);
			if (!errno && iend == end) {
				it->value.type = DB_CELL_INT;
				it->value.i = n;
				it->value.d = (double)n;
			}
		}
		/* insertion: a run has a few metrics */
		for (j = c->nitems - 1; j > 0; j--) {
			struct item tmp;
			if (item_rank(&c->items[j - 1]) < item_rank(&c->items[j]) ||
			    (item_rank(&c->items[j - 1]) == item_rank(&c->items[j]) &&
			     c->items[j - 1].kind <= c->items[j].kind))
				break;
			tmp = c->items[j - 1];
			c->items[j - 1] = c->items[j];
			c->items[j] = tmp;
		}
	}
	if (more < 0)
		return ab_fail(err, AB_EIO, "database '%s': run %lld's metrics are not in the packed form",
			       db_path(c->db), (long long)run);
	return 0;
}

/* SQLite json's string: " and \ escaped, control bytes as \b \t \n \f \r
 * or \u00xx, the rest as is */
static void json_str(struct strbuf *out, const char *s, size_t n)
{
	static const char special[32] = { ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n',
					  ['\f'] = 'f', ['\r'] = 'r' };
	size_t i;

	strbuf_addch(out, '"');
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\') {
			strbuf_addch(out, '\\');
			strbuf_addch(out, (char)ch);
		} else if (ch < 0x20) {
			if (special[ch]) {
				strbuf_addch(out, '\\');
				strbuf_addch(out, special[ch]);
			} else {
				strbuf_addf(out, "\\u00%c%c", "0123456789abcdef"[ch >> 4],
					    "0123456789abcdef"[ch & 15]);
			}
		} else {
			strbuf_addch(out, (char)ch);
		}
	}
	strbuf_addch(out, '"');
}

/* what json_group_object(name, json_object('value', v, 'unit', unit))
 * over the run's metric view rows ordered by name gave (kinds missing from
 * metric_kind are not in the view) */
static void metrics_json(struct db_runs *c)
{
	size_t i;
	int first = 1;

	strbuf_reset(&c->json);
	strbuf_addch(&c->json, '{');
	for (i = 0; i < c->nitems; i++) {
		const struct item *it = &c->items[i];
		char num[64];

		if (!it->k)
			continue;
		if (!first)
			strbuf_addch(&c->json, ',');
		first = 0;
		json_str(&c->json, it->k->name, it->k->name_len);
		strbuf_addstr(&c->json, ":{\"value\":");
		if (it->value.type == DB_CELL_INT)
			sqlite3_snprintf((int)sizeof(num), num, "%lld", (sqlite3_int64)it->value.i);
		else
			sqlite3_snprintf((int)sizeof(num), num, "%!0.15g", it->value.d);
		strbuf_addstr(&c->json, num);
		strbuf_addstr(&c->json, ",\"unit\":");
		json_str(&c->json, it->k->unit, it->k->unit_len);
		strbuf_addch(&c->json, '}');
	}
	strbuf_addch(&c->json, '}');
}

/* per metric: the metric cells of the next item (NULL when none) */
static void item_cells(struct db_runs *c)
{
	struct db_cell *name = &c->cells[METRIC_COL], *value = name + 1, *unit = name + 2;

	memset(name, 0, 3 * sizeof(*name));
	name->type = value->type = unit->type = DB_CELL_NULL;
	if (c->next < c->nitems) {
		const struct item *it = &c->items[c->next];

		*value = it->value;
		if (it->k) {
			name->type = unit->type = DB_CELL_TEXT;
			name->s = it->k->name;
			name->len = it->k->name_len;
			unit->s = it->k->unit;
			unit->len = it->k->unit_len;
		}
	}
	c->next++;
}

int db_runs_next(struct db_runs *c, const struct db_cell **cells, struct strbuf *err)
{
	const char *const *names;
	size_t i, n = db_runs_columns(c, &names);
	int per_metric = (c->flags & DB_RUNS_PER_METRIC) != 0, rc;
	int mcol = per_metric ? METRIC_COL : METRICS_COL;

	if (per_metric && c->next < c->nitems) {
		item_cells(c);   /* the same run's next metric */
		*cells = c->cells;
		return 1;
	}
	rc = sqlite3_step(c->st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return db_fail(c->db, err, "cannot read runs");
	for (i = 0; i < n; i++) {
		if ((int)i == mcol) {
			if (per_metric)
				break;  /* the metric cells follow from the packed text */
			continue;
		}
		column_cell(c->st, (int)i, &c->cells[i]);
		if (!per_metric && !strcmp(names[i], "params")) {
			struct db_cell *x = &c->cells[i];
			if (x->type == DB_CELL_TEXT)
				x->type = DB_CELL_JSON;
			else if (x->type == DB_CELL_NULL) {
				x->type = DB_CELL_JSON;
				x->s = "{}";
				x->len = 2;
			}
		}
	}
	rc = read_items(c, (const char *)sqlite3_column_text(c->st, mcol),
			sqlite3_column_int64(c->st, 0), err);
	if (rc < 0)
		return rc;
	if (per_metric) {
		item_cells(c);
	} else {
		struct db_cell *x = &c->cells[mcol];
		metrics_json(c);
		memset(x, 0, sizeof(*x));
		x->type = DB_CELL_JSON;
		x->s = c->json.buf;
		x->len = c->json.len;
	}
	*cells = c->cells;
	return 1;
}

void db_runs_close(struct db_runs *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->st);
	free_kinds(c);
	free(c->items);
	strbuf_release(&c->json);
	free(c);
}

int db_runs_count(struct db *db, const struct db_filter *f, unsigned flags, long long *out,
		  struct strbuf *err)
{
	static const char sql_run[] = "SELECT count(*)" RUN_FROM RUN_WHERE;
	static const char sql_metric[] =
		"SELECT count(*)" RUN_DATA_FROM " LEFT JOIN json_each(r.metrics)" RUN_WHERE;
	sqlite3_stmt *st;
	int rc;

	*out = 0;
	rc = db_prepare(db, &st, flags & DB_RUNS_PER_METRIC ? sql_metric : sql_run, err);
	if (rc < 0)
		return rc;
	db_bind_text(st, 1, f ? f->suite : NULL);
	db_bind_text(st, 2, f ? f->benchmark : NULL);
	db_bind_text(st, 3, f ? f->system : NULL);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(db, err, "cannot count runs");
}
