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
 */
#include "core/compat.h"
#include "db_priv.h"

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
/* per metric: the tables under the run and metric views (a LEFT JOIN of
 * the metric view materialises every metric and sorts them all; this
 * reads each run's packed metrics, run_data.metrics, run by run) */
#define RUN_DATA_FROM \
	" FROM run_data r JOIN source s ON s.id = r.source_id" \
	" JOIN benchmark b ON b.id = r.benchmark_id" \
	" JOIN system y ON y.id = r.system_id" \
	" LEFT JOIN json_each(r.metrics) md" \
	" LEFT JOIN metric_kind k ON k.id = md.key"
#define RUN_WHERE \
	" WHERE (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2)" \
	"  AND (?3 IS NULL OR y.name = ?3 OR y.display_name = ?3)"

static const char sql_per_run[] =
	"SELECT " RUN_COLS ","
	" CASE WHEN json_valid(r.params) THEN r.params ELSE '{}' END,"
	" (SELECT json_group_object(m.name, json_object('value', m.value, 'unit', m.unit))"
	"   FROM (SELECT * FROM metric WHERE run_id = r.id ORDER BY name) m),"
	" b.metric, b.unit, b.better, y.display_name"
	RUN_FROM RUN_WHERE " ORDER BY r.id";

static const char sql_per_metric[] =
	"SELECT " RUN_COLS ","
	" b.metric, b.unit, b.better, y.display_name, s.sha256, k.name, md.value, k.unit"
	RUN_DATA_FROM RUN_WHERE " ORDER BY r.id, k.name";

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

struct db_runs {
	sqlite3_stmt *st;
	struct db *db;
	unsigned flags;
	struct db_cell cells[AB_ARRAY_SIZE(names_per_metric) > AB_ARRAY_SIZE(names_per_run) ?
			     AB_ARRAY_SIZE(names_per_metric) : AB_ARRAY_SIZE(names_per_run)];
};

int db_runs_open(struct db *db, const struct db_filter *f, unsigned flags, struct db_runs **out,
		 struct strbuf *err)
{
	struct db_runs *c = ab_calloc(1, sizeof(*c));
	int rc;

	c->db = db;
	c->flags = flags;
	rc = db_prepare(db, &c->st, flags & DB_RUNS_PER_METRIC ? sql_per_metric : sql_per_run, err);
	if (rc < 0) {
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

int db_runs_next(struct db_runs *c, const struct db_cell **cells, struct strbuf *err)
{
	const char *const *names;
	size_t i, n = db_runs_columns(c, &names);
	int rc = sqlite3_step(c->st);

	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return db_fail(c->db, err, "cannot read runs");
	for (i = 0; i < n; i++) {
		struct db_cell *x = &c->cells[i];
		int col = (int)i;
		memset(x, 0, sizeof(*x));
		switch (sqlite3_column_type(c->st, col)) {
		case SQLITE_INTEGER:
			x->type = DB_CELL_INT;
			x->i = sqlite3_column_int64(c->st, col);
			x->d = (double)x->i;
			break;
		case SQLITE_FLOAT:
			x->type = DB_CELL_REAL;
			x->d = sqlite3_column_double(c->st, col);
			break;
		case SQLITE_NULL:
			x->type = DB_CELL_NULL;
			break;
		default:
			x->type = DB_CELL_TEXT;
			x->s = (const char *)sqlite3_column_text(c->st, col);
			x->len = (size_t)sqlite3_column_bytes(c->st, col);
			if (!x->s)
				x->type = DB_CELL_NULL;
			break;
		}
		if (!(c->flags & DB_RUNS_PER_METRIC) && (!strcmp(names[i], "params") ||
							 !strcmp(names[i], "metrics"))) {
			if (x->type == DB_CELL_TEXT)
				x->type = DB_CELL_JSON;
			else if (x->type == DB_CELL_NULL) {
				x->type = DB_CELL_JSON;
				x->s = "{}";
				x->len = 2;
			}
		}
	}
	*cells = c->cells;
	return 1;
}

void db_runs_close(struct db_runs *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->st);
	free(c);
}

int db_runs_count(struct db *db, const struct db_filter *f, unsigned flags, long long *out,
		  struct strbuf *err)
{
	static const char sql_run[] = "SELECT count(*)" RUN_FROM RUN_WHERE;
	static const char sql_metric[] = "SELECT count(*)" RUN_DATA_FROM RUN_WHERE;
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
