/*
 * query.c - the listings behind `accelbench ls` and `accelbench sql`.
 *
 * Filters are bound parameters ("?1 IS NULL OR ..."), never glued SQL.
 * Rows come back as JSON objects so the CLI renders text, CSV and JSON
 * from the same data.
 */
#include "core/compat.h"
#include "db_priv.h"

#include <time.h>

static const char sql_systems[] =
	"SELECT y.name, y.display_name, y.vendor, y.accelerator, y.accelerators_per_node,"
	" y.host_cpu, y.interconnect, y.site, y.tdp_w, y.meta,"
	/* no index on system_id alone (migration 7): a probe per benchmark */
	" (SELECT count(*) FROM run_data r WHERE r.benchmark_id IN (SELECT id FROM benchmark)"
	"  AND r.system_id = y.id) AS runs"
	" FROM system y"
	" WHERE (?3 IS NULL OR y.name = ?3 OR y.display_name = ?3)"
	"  AND (?1 IS NULL AND ?2 IS NULL OR EXISTS (SELECT 1 FROM run r JOIN benchmark b"
	"   ON b.id = r.benchmark_id WHERE r.system_id = y.id"
	"   AND (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2)))"
	" ORDER BY y.vendor, y.name";

static const char sql_benchmarks[] =
	"SELECT b.suite, b.name, b.metric, b.unit, b.better,"
	" (SELECT count(*) FROM run r WHERE r.benchmark_id = b.id) AS runs,"
	" (SELECT count(DISTINCT r.system_id) FROM run r WHERE r.benchmark_id = b.id) AS systems"
	" FROM benchmark b"
	" WHERE (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2)"
	"  AND (?3 IS NULL OR EXISTS (SELECT 1 FROM run r JOIN system y ON y.id = r.system_id"
	"   WHERE r.benchmark_id = b.id AND (y.name = ?3 OR y.display_name = ?3)))"
	" ORDER BY b.suite, b.name";

static const char sql_sources[] =
	"SELECT s.id, s.path, s.format, s.size, s.sha256, s.ingested_at, s.tool_version,"
	/* a source's runs: the run id range first_run..last_run (schema 8) */
	" (SELECT count(*) FROM run_data r WHERE r.id BETWEEN s.first_run AND s.last_run"
	"  AND r.source_id = s.id) AS runs"
	" FROM source s"
	" WHERE (?1 IS NULL AND ?2 IS NULL AND ?3 IS NULL) OR EXISTS (SELECT 1 FROM run_data r"
	"  JOIN benchmark b ON b.id = r.benchmark_id JOIN system y ON y.id = r.system_id"
	"  WHERE r.id BETWEEN s.first_run AND s.last_run AND r.source_id = s.id"
	"  AND (?1 IS NULL OR b.suite = ?1)"
	"  AND (?2 IS NULL OR b.name = ?2) AND (?3 IS NULL OR y.name = ?3 OR y.display_name = ?3))"
	" ORDER BY s.id";

/* Column value as JSON: integers stay integers, NULL is null. */
static json_t *col_json(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER:
		return json_integer(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(st, i));
	case SQLITE_NULL:
		return json_null();
	default:
		return json_string((const char *)sqlite3_column_text(st, i));
	}
}

static json_t *col_parsed(sqlite3_stmt *st, int i)
{
	const char *text = (const char *)sqlite3_column_text(st, i);
	json_t *j = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
	return j ? j : json_object();
}

static int run_listing(struct db *db, const char *sql, const struct db_filter *f,
		       const char *const *names, json_t **out, struct strbuf *err)
{
	sqlite3_stmt *st;
	json_t *arr = json_array();
	int rc;

	rc = db_prepare(db, &st, sql, err);
	if (rc < 0) {
		json_decref(arr);
		return rc;
	}
	db_bind_text(st, 1, f ? f->suite : NULL);
	db_bind_text(st, 2, f ? f->benchmark : NULL);
	db_bind_text(st, 3, f ? f->system : NULL);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_t *o = json_object();
		int i;

		for (i = 0; names[i]; i++) {
			const char *name = names[i];
			if (*name == '@') /* JSON text column */
				json_object_set_new(o, name + 1, col_parsed(st, i));
			else if (*name != '-')
				json_object_set_new(o, name, col_json(st, i));
		}
		json_array_append_new(arr, o);
	}
	if (rc != SQLITE_DONE) {
		rc = db_fail(db, err, "query failed");
		sqlite3_finalize(st);
		json_decref(arr);
		return rc;
	}
	sqlite3_finalize(st);
	*out = arr;
	return 0;
}

int db_list_systems(struct db *db, const struct db_filter *f, json_t **out, struct strbuf *err)
{
	static const char *const names[] = { "name", "display_name", "vendor", "accelerator",
					     "accelerators_per_node", "host_cpu", "interconnect",
					     "site", "tdp_w", "@meta", "runs", NULL };
	return run_listing(db, sql_systems, f, names, out, err);
}

int db_list_benchmarks(struct db *db, const struct db_filter *f, json_t **out,
		       struct strbuf *err)
{
	static const char *const names[] = { "suite", "name", "metric", "unit", "better",
					     "runs", "systems", NULL };
	return run_listing(db, sql_benchmarks, f, names, out, err);
}

/* ls runs: the rows of export's per-run cursor (runs_stream.c, which reads
 * the packed metrics in C rather than through the metric view), as JSON */
int db_list_runs(struct db *db, const struct db_filter *f, json_t **out, struct strbuf *err)
{
	struct db_runs *c;
	const struct db_cell *cells;
	const char *const *names;
	json_t *arr;
	size_t i, n;
	int rc = db_runs_open(db, f, DB_RUNS_PER_RUN, &c, err);

	if (rc < 0)
		return rc;
	n = db_runs_columns(c, &names);
	arr = json_array();
	while ((rc = db_runs_next(c, &cells, err)) > 0) {
		json_t *o = json_object();

		for (i = 0; i < n; i++) {
			const struct db_cell *x = &cells[i];
			json_t *j = NULL;

			switch (x->type) {
			case DB_CELL_INT:
				j = json_integer(x->i);
				break;
			case DB_CELL_REAL:
				j = json_real(x->d);
				break;
			case DB_CELL_TEXT:
				j = json_string(x->s);
				break;
			case DB_CELL_JSON:
				j = json_loadb(x->s, x->len, JSON_DECODE_ANY, NULL);
				if (!j)
					j = json_object();
				break;
			default:
				j = json_null();
				break;
			}
			json_object_set_new(o, names[i], j);
		}
		json_array_append_new(arr, o);
	}
	db_runs_close(c);
	if (rc < 0) {
		json_decref(arr);
		return rc;
	}
	*out = arr;
	return 0;
}

int db_list_sources(struct db *db, const struct db_filter *f, json_t **out, struct strbuf *err)
{
	static const char *const names[] = { "id", "path", "format", "size", "sha256",
					     "ingested_at", "tool_version", "runs", NULL };
	return run_listing(db, sql_sources, f, names, out, err);
}

/* Skip blanks, ';' and SQL comments after a statement: nothing else may follow. */
static const char *skip_trailing(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r' || *p == ';')
			p++;
		if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			if (!e)
				return p + strlen(p); /* SQLite accepts an unterminated comment */
			p = e + 2;
		} else {
			return p;
		}
	}
}

/* PRAGMA name (no '='): reads a setting; harmless on a read-only connection */
static int pragma_query(const char *sql)
{
	sql = skip_trailing(sql);
	return !sqlite3_strnicmp(sql, "pragma", 6) && !strchr(sql, '=');
}

struct query_clock {
	struct timespec start;
	double limit_s;
	int expired;
};

static int query_progress(void *arg)
{
	struct query_clock *c = arg;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((double)(now.tv_sec - c->start.tv_sec) + (now.tv_nsec - c->start.tv_nsec) / 1e9 >
	    c->limit_s)
		c->expired = 1;
	return c->expired;
}

int db_query_each(struct db *db, const char *sql, const struct db_query_opts *o,
		  db_row_fn fn, void *ctx, int *more, struct strbuf *err)
{
	struct query_clock clk = { { 0, 0 }, 0, 0 };
	struct strbuf *cells = NULL;
	const char **vals = NULL;
	int *types = NULL;
	sqlite3_stmt *st;
	const char *tail = NULL;
	long rows = 0;
	int rc, i, n;

	*more = 0;
	if (sqlite3_prepare_v2(db->sql, sql, -1, &st, &tail) != SQLITE_OK)
		return ab_fail(err, AB_EDATA, "sql error: %s", sqlite3_errmsg(db->sql));
	if (!st)
		return ab_fail(err, AB_EDATA, "sql error: empty statement");
	if (tail && *skip_trailing(tail)) {
		sqlite3_finalize(st);
		return ab_fail(err, AB_EDATA, "sql error: only one statement is allowed");
	}
	if (!sqlite3_stmt_readonly(st) && !pragma_query(sql)) {
		sqlite3_finalize(st);
		return ab_fail(err, AB_EDATA, "sql error: the statement would modify the database");
	}
	if (o && o->timeout_s > 0) {
		clk.limit_s = o->timeout_s;
		clock_gettime(CLOCK_MONOTONIC, &clk.start);
		sqlite3_progress_handler(db->sql, 1000, query_progress, &clk);
	}
	n = sqlite3_column_count(st);
	cells = ab_calloc((size_t)n + 1, sizeof(*cells));
	vals = ab_calloc((size_t)n + 1, sizeof(*vals));
	types = ab_calloc((size_t)n + 1, sizeof(*types));
	for (i = 0; i < n; i++) {
		strbuf_init(&cells[i], 0);
		vals[i] = sqlite3_column_name(st, i);
		types[i] = SQLITE_TEXT;
	}
	rc = fn(ctx, n, vals, types, 1);
	while (rc == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (o && o->limit > 0 && rows == o->limit) {
			*more = 1;
			rc = SQLITE_DONE;
			break;
		}
		rows++;
		for (i = 0; i < n; i++) {
			types[i] = sqlite3_column_type(st, i);
			strbuf_reset(&cells[i]);
			if (types[i] == SQLITE_FLOAT)
				num_format(&cells[i], sqlite3_column_double(st, i));
			else if (types[i] != SQLITE_NULL)
				strbuf_add(&cells[i], sqlite3_column_text(st, i),
					   (size_t)sqlite3_column_bytes(st, i));
			vals[i] = types[i] == SQLITE_NULL ? NULL : cells[i].buf;
		}
		rc = fn(ctx, n, vals, types, 0);
	}
	if (rc == SQLITE_DONE)
		rc = 0;
	else if (clk.expired)
		rc = ab_fail(err, AB_EDATA, "sql error: interrupted after %g s (--timeout)",
			     clk.limit_s);
	else if (rc > 0)
		rc = ab_fail(err, AB_EDATA, "sql error: %s", sqlite3_errmsg(db->sql));
	/* rc < 0: the callback failed and said why */
	sqlite3_progress_handler(db->sql, 0, NULL, NULL);
	sqlite3_finalize(st);
	for (i = 0; i < n; i++)
		strbuf_release(&cells[i]);
	free(cells);
	free(vals);
	free(types);
	return rc;
}

static int table_row(void *ctx, int n, const char *const *vals, const int *types, int header)
{
	struct table *t = ctx;
	int i;

	(void)types;
	if (header) {
		for (i = 0; i < n; i++)
			table_add_column(t, vals[i], TABLE_LEFT);
		return 0;
	}
	table_add_row(t);
	for (i = 0; i < n; i++)
		table_set(t, (size_t)i, vals[i]);
	return 0;
}

int db_query_table(struct db *db, const char *sql, struct table **out, struct strbuf *err)
{
	struct table *t = table_new();
	int more, rc = db_query_each(db, sql, NULL, table_row, t, &more, err);

	*out = NULL;
	if (rc < 0) {
		table_free(t);
		return rc;
	}
	*out = t;
	return 0;
}
