/*
 * db_rm.c - remove ingested sources with everything derived from them:
 * their runs (with their metrics, run_data.metrics) and power samples, the systems and
 * benchmarks that only those runs used, and the interned rows (param
 * sets, metric kinds, power devices) no run uses any more.  `accelbench rm
 * source` and `ingest --replace` both come through here.
 */
#include "core/compat.h"
#include "db_priv.h"

struct id_set {
	int64_t *v;
	size_t n, cap;
};

static void ids_add(struct id_set *s, int64_t id)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == id)
			return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = ab_realloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = id;
}

/* Run one statement bound to a single id; returns its changes() or < 0. */
static int exec_id(struct db *db, const char *sql, int64_t id, long *changes, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc = db_prepare(db, &st, sql, err);

	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "cannot remove source");
	if (changes)
		*changes += sqlite3_changes(db->sql);
	return 0;
}

/* Delete the rows of an interned table among ids (a JSON array) that no
 * row of the user table refers to any more: one pass over the user. */
static int drop_unused(struct db *db, const char *sql, const struct id_set *ids,
		       struct strbuf *err)
{
	struct strbuf list = STRBUF_INIT;
	sqlite3_stmt *st;
	size_t i;
	int rc;

	if (!ids->n)
		return 0;
	strbuf_addch(&list, '[');
	for (i = 0; i < ids->n; i++)
		strbuf_addf(&list, "%s%lld", i ? "," : "", (long long)ids->v[i]);
	strbuf_addch(&list, ']');
	rc = db_prepare(db, &st, sql, err);
	if (rc == 0) {
		sqlite3_bind_text(st, 1, list.buf, (int)list.len, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_fail(db, err, "cannot remove source");
		sqlite3_finalize(st);
	}
	strbuf_release(&list);
	return rc;
}

/* Collect the distinct values of column 0 of sql bound to id. */
static int collect(struct db *db, const char *sql, int64_t id, struct id_set *out,
		   struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc = db_prepare(db, &st, sql, err);

	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		ids_add(out, sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "cannot read the runs of a source");
	return 0;
}

/* A sorted set of ids (metric kinds: met once per metric). */
static size_t sorted_find(const struct id_set *s, int64_t id)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->v[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void sorted_add(struct id_set *s, int64_t id)
{
	size_t at = sorted_find(s, id);

	if (at < s->n && s->v[at] == id)
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = ab_realloc(s->v, s->cap * sizeof(*s->v));
	}
	memmove(s->v + at + 1, s->v + at, (s->n - at) * sizeof(*s->v));
	s->v[at] = id;
	s->n++;
}

/*
 * The metric kinds of packed metrics (run_data.metrics, docs/schema.md)
 * of the rows sql gives (column 0, bound to id unless id is 0): each into
 * kinds (sorted), with their number added to *count.  With only (not
 * NULL), just the kinds in only are kept, and the pass stops once all of
 * them were met.
 */
static int packed_kinds(struct db *db, const char *sql, int64_t id, struct id_set *kinds,
			const struct id_set *only, long *count, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc = db_prepare(db, &st, sql, err);

	if (rc < 0)
		return rc;
	if (id)
		sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(st, 0);
		int64_t kind;
		double v;
		int more;

		while ((more = db_metrics_next(&p, &kind, &v)) > 0) {
			size_t at;

			if (count)
				(*count)++;
			if (only && ((at = sorted_find(only, kind)) == only->n || only->v[at] != kind))
				continue;
			sorted_add(kinds, kind);
		}
		if (more < 0) {
			sqlite3_finalize(st);
			return ab_fail(err, AB_EIO, "database '%s': a run's metrics are not in the "
						     "packed form", db_path(db));
		}
		if (only && kinds->n == only->n)
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_fail(db, err, "cannot read the runs of a source");
	return 0;
}

/* Delete the metric kinds among ids that no run's metrics name any more. */
static int drop_unused_kinds(struct db *db, const struct id_set *ids, struct strbuf *err)
{
	struct id_set used = { 0 }, unused = { 0 };
	size_t i;
	int rc;

	if (!ids->n)
		return 0;
	rc = packed_kinds(db, "SELECT metrics FROM run_data WHERE metrics IS NOT NULL", 0, &used, ids,
			  NULL, err);
	for (i = 0; rc == 0 && i < ids->n; i++) {
		size_t at = sorted_find(&used, ids->v[i]);
		if (at == used.n || used.v[at] != ids->v[i])
			ids_add(&unused, ids->v[i]);
	}
	if (rc == 0)
		rc = drop_unused(db, "DELETE FROM metric_kind WHERE id IN"
				     " (SELECT value FROM json_each(?1))", &unused, err);
	free(used.v);
	free(unused.v);
	return rc;
}

int db_source_remove(struct db *db, int64_t source_id, struct db_rm_counts *c, struct strbuf *err)
{
	struct id_set systems = { 0 }, benches = { 0 }, sets = { 0 }, kinds = { 0 }, devices = { 0 };
	size_t i;
	long n = 0;
	int rc;

	rc = collect(db, "SELECT DISTINCT system_id FROM run_data r WHERE" DB_SOURCE_RUNS("r", "?1"),
		     source_id, &systems, err);
	if (rc == 0)
		rc = collect(db, "SELECT DISTINCT benchmark_id FROM run_data r WHERE" DB_SOURCE_RUNS("r", "?1"),
			     source_id, &benches, err);
	if (rc == 0)
		rc = collect(db, "SELECT DISTINCT set_id FROM run_data r WHERE" DB_SOURCE_RUNS("r", "?1")
				 "AND set_id IS NOT NULL", source_id, &sets, err);
	if (rc == 0)
		rc = packed_kinds(db, "SELECT metrics FROM run_data r WHERE" DB_SOURCE_RUNS("r", "?1")
				      "AND metrics IS NOT NULL", source_id, &kinds, NULL, &c->metrics,
				  err);
	if (rc == 0)
		rc = collect(db, "SELECT DISTINCT device_id FROM power_data WHERE run_id IN"
				 " (SELECT id FROM run_data r WHERE" DB_SOURCE_RUNS("r", "?1") ")",
			     source_id, &devices, err);
	/* children first: the sink's own order, whatever the foreign keys say */
	if (rc == 0)
		rc = exec_id(db, "DELETE FROM power_data WHERE run_id IN"
				 " (SELECT id FROM run_data r WHERE" DB_SOURCE_RUNS("r", "?1") ")",
			     source_id, &c->power_samples, err);
	if (rc == 0)
		rc = exec_id(db, "DELETE FROM run_data AS r WHERE" DB_SOURCE_RUNS("r", "?1"), source_id,
			     &c->runs, err);
	if (rc == 0)
		rc = exec_id(db, "DELETE FROM source WHERE id = ?1", source_id, &n, err);
	if (rc == 0 && n == 0)
		rc = ab_fail(err, AB_EDATA, "no source with id %lld", (long long)source_id);
	c->sources += n;
	/* a system a user described (systems file) stays; one that only these
	 * runs named goes with them */
	for (i = 0; rc == 0 && i < systems.n; i++)
		rc = exec_id(db, "DELETE FROM system WHERE id = ?1"
				 " AND json_extract(meta, '$.described') IS NULL"
				 " AND NOT EXISTS (SELECT 1 FROM run_data WHERE benchmark_id IN"
				 "  (SELECT id FROM benchmark) AND system_id = ?1)",
			     systems.v[i], &c->systems, err);
	for (i = 0; rc == 0 && i < benches.n; i++)
		rc = exec_id(db, "DELETE FROM benchmark WHERE id = ?1"
				 " AND NOT EXISTS (SELECT 1 FROM run_data WHERE benchmark_id = ?1)",
			     benches.v[i], &c->benchmarks, err);
	/* interned rows only these runs used; the sink's caches may name them */
	if (rc == 0)
		rc = drop_unused(db, "DELETE FROM param_set WHERE id IN (SELECT value FROM json_each(?1))"
				     " AND id NOT IN (SELECT set_id FROM run_data WHERE set_id IS NOT NULL)",
				 &sets, err);
	if (rc == 0)
		rc = drop_unused_kinds(db, &kinds, err);
	if (rc == 0)
		rc = drop_unused(db, "DELETE FROM power_device WHERE id IN"
				     " (SELECT value FROM json_each(?1))"
				     " AND id NOT IN (SELECT device_id FROM power_data)", &devices, err);
	db_sink_forget_interned(db);
	free(systems.v);
	free(benches.v);
	free(sets.v);
	free(kinds.v);
	free(devices.v);
	return rc;
}

/* All-digits: an id, not a path. */
static int is_id(const char *s)
{
	if (!*s || strlen(s) > 18)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

int db_rm_sources(struct db *db, const char *const *specs, size_t nspecs,
		  struct db_rm_counts *c, struct strbuf *err)
{
	struct id_set ids = { 0 };
	sqlite3_stmt *st = NULL;
	size_t i, j;
	int rc;

	memset(c, 0, sizeof(*c));
	rc = db_exec(db, "BEGIN IMMEDIATE", err);
	if (rc < 0)
		return rc;
	for (i = 0; i < nspecs && rc == 0; i++) {
		size_t before = ids.n;

		/* an all-digit name is an id unless a source has that path */
		rc = db_prepare(db, &st,
				"SELECT id FROM source WHERE path = ?1 OR (?2 AND id = CAST(?1 AS INTEGER))"
				" ORDER BY id",
				err);
		if (rc < 0)
			break;
		db_bind_text(st, 1, specs[i]);
		sqlite3_bind_int(st, 2, is_id(specs[i]));
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			ids_add(&ids, sqlite3_column_int64(st, 0));
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE) {
			rc = db_fail(db, err, "cannot look up sources");
			break;
		}
		rc = 0;
		if (ids.n == before)
			rc = ab_fail(err, AB_EDATA,
				     "no source '%s' (see 'accelbench ls sources' for ids and paths)",
				     specs[i]);
	}
	for (j = 0; j < ids.n && rc == 0; j++)
		rc = db_source_remove(db, ids.v[j], c, err);
	free(ids.v);
	if (rc < 0) {
		db_exec(db, "ROLLBACK", NULL);
		return rc;
	}
	rc = db_exec(db, "COMMIT", err);
	if (rc < 0)
		db_exec(db, "ROLLBACK", NULL);
	return rc;
}
