/*
 * simulated.c - whether a database holds simulated example data (the demo's
 * systems file marks each system "simulated": true, stored in its meta), so
 * that covers and first sheets can say so.
 */
#include "core/compat.h"
#include "db_priv.h"

int db_has_simulated(struct db *db, bool *out, struct strbuf *err)
{
	static const char sql[] = "SELECT EXISTS (SELECT 1 FROM system WHERE json_valid(meta)"
				  " AND json_extract(meta, '$.simulated') = 1)";
	sqlite3_stmt *st = NULL;
	int rc;

	*out = false;
	if (sqlite3_prepare_v2(db_sqlite(db), sql, -1, &st, NULL) != SQLITE_OK)
		return ab_fail(err, AB_EINTERNAL, "cannot read systems: %s",
			       sqlite3_errmsg(db_sqlite(db)));
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0) != 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return ab_fail(err, AB_EIO, "cannot read systems: %s", sqlite3_errmsg(db_sqlite(db)));
	return 0;
}
