/*
 * db_priv.h - internals shared by the files of model/db*.c.
 */
#ifndef AB_DB_PRIV_H
#define AB_DB_PRIV_H

#include "db.h"
#include "ingest/ingest.h"

struct db_sink_state {
	struct ingest_sink sink;
	struct db *db;
	int in_txn;
	int64_t source_id;
	long seq;
	sqlite3_stmt *st[16];
	/* small caches valid inside one transaction */
	struct strbuf last_system;
	int64_t last_system_id;
	struct strbuf last_bench;
	int64_t last_bench_id;
};

struct db {
	sqlite3 *sql;
	struct strbuf path;
	unsigned flags;
	int immutable;        /* opened read-only as an immutable snapshot */
	struct db_sink_state sink;
};

/* "sqlite says why" message helper: returns -AB_EIO. */
int db_fail(struct db *db, struct strbuf *err, const char *what);
int db_exec(struct db *db, const char *sql, struct strbuf *err);
int db_prepare(struct db *db, sqlite3_stmt **st, const char *sql, struct strbuf *err);
/* Bind text, NULL when s is NULL. */
int db_bind_text(sqlite3_stmt *st, int idx, const char *s);
/* Bind a positive long, NULL when <= 0. */
int db_bind_pos(sqlite3_stmt *st, int idx, long v);

/* db_rm.c: remove one source and what derives from it, inside the
 * caller's transaction; adds to *c. */
int db_source_remove(struct db *db, int64_t source_id, struct db_rm_counts *c,
		     struct strbuf *err);

void db_sink_init(struct db *db);
void db_sink_release(struct db *db);
int db_migrate(struct db *db, struct strbuf *err);

#endif
