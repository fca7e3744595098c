/*
 * names.c - the names a selection can use (benchmarks, systems, metrics),
 * for messages that say what is valid when a name matches nothing.
 */
#include "core/compat.h"
#include "db_priv.h"

static const char *const names_sql[] = {
	[DB_NAME_BENCHMARK] = "SELECT DISTINCT b.name FROM benchmark b"
			      " WHERE (?1 IS NULL OR b.suite = ?1) ORDER BY 1",
	[DB_NAME_SYSTEM] = "SELECT DISTINCT y.name FROM system y JOIN run r ON r.system_id = y.id"
			   " JOIN benchmark b ON b.id = r.benchmark_id"
			   " WHERE (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2)"
			   " ORDER BY 1",
	[DB_NAME_METRIC] = "SELECT DISTINCT m.name FROM metric m JOIN run r ON r.id = m.run_id"
			   " JOIN benchmark b ON b.id = r.benchmark_id"
			   " JOIN system y ON y.id = r.system_id"
			   " WHERE (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2)"
			   " AND (?3 IS NULL OR y.name = ?3 OR y.display_name = ?3) ORDER BY 1",
};

/* Whether name is one of them (systems also by display name). */
static const char *const match_sql[] = {
	[DB_NAME_BENCHMARK] = "SELECT EXISTS (SELECT 1 FROM benchmark b WHERE b.name = ?4"
			      " AND (?1 IS NULL OR b.suite = ?1))",
	[DB_NAME_SYSTEM] = "SELECT EXISTS (SELECT 1 FROM system y JOIN run r ON r.system_id = y.id"
			   " JOIN benchmark b ON b.id = r.benchmark_id"
			   " WHERE (y.name = ?4 OR y.display_name = ?4)"
			   " AND (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2))",
	[DB_NAME_METRIC] = "SELECT EXISTS (SELECT 1 FROM metric m JOIN run r ON r.id = m.run_id"
			   " JOIN benchmark b ON b.id = r.benchmark_id"
			   " JOIN system y ON y.id = r.system_id WHERE m.name = ?4"
			   " AND (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2)"
			   " AND (?3 IS NULL OR y.name = ?3 OR y.display_name = ?3))",
};

int db_name_check(struct db *db, enum db_name_kind kind, const struct db_filter *f,
		  const char *name, bool *found, struct strbuf *valid, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc;
	size_t n = 0;

	*found = false;
	rc = db_prepare(db, &st, match_sql[kind], err);
	if (rc < 0)
		return rc;
	db_bind_text(st, 1, f ? f->suite : NULL);
	db_bind_text(st, 2, f ? f->benchmark : NULL);
	db_bind_text(st, 3, f ? f->system : NULL);
	db_bind_text(st, 4, name);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*found = sqlite3_column_int(st, 0) != 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, err, "query failed");
	if (*found || !valid)
		return 0;
	rc = db_prepare(db, &st, names_sql[kind], err);
	if (rc < 0)
		return rc;
	db_bind_text(st, 1, f ? f->suite : NULL);
	db_bind_text(st, 2, f ? f->benchmark : NULL);
	db_bind_text(st, 3, f ? f->system : NULL);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);
		if (n++)
			strbuf_addstr(valid, ", ");
		strbuf_addstr(valid, s ? s : "");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "query failed");
	return 0;
}
