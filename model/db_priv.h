/*
 * db_priv.h - internals shared by the files of model/db*.c.
 */
#ifndef AB_DB_PRIV_H
#define AB_DB_PRIV_H

#include "db.h"
#include "ingest/ingest.h"

/* db_intern.c: key bytes -> id of an interned row, or DB_INTERN_SEEN for
 * a value met once and stored inline; bounded (two generations).  get
 * returns 0 on a miss; set adds or updates.  Keys are copied. */
#define DB_INTERN_SEEN (-1)
struct db_intern_slot {
	uint64_t h;
	size_t len, off;
	int64_t id;
	int used;
};
struct db_intern_gen {
	struct db_intern_slot *slot;
	size_t n;
	struct strbuf keys;
};
struct db_intern {
	struct db_intern_gen gen[2];
	int young;
};
void db_intern_init(struct db_intern *c);
void db_intern_clear(struct db_intern *c);
void db_intern_release(struct db_intern *c);
int64_t db_intern_get(struct db_intern *c, uint64_t h, const char *key, size_t len);
void db_intern_set(struct db_intern *c, uint64_t h, const char *key, size_t len, int64_t id);

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
	/* interned param pairs and metric kinds (valid across committed
	 * transactions; emptied on rollback) */
	struct db_intern pairs, kinds;
	struct strbuf ids, kbuf;
	struct sha256 fresh;       /* sha256_init()ed once, for db_key16 */
	/* known(): a read-only connection of the parsing thread */
	sqlite3 *ro;
	sqlite3_stmt *ro_find;
};

struct db {
	sqlite3 *sql;
	struct strbuf path;
	unsigned flags;
	int immutable;        /* opened read-only as an immutable snapshot */
	struct db_sink_state sink;
	struct db_configs_cache *configs_cache; /* dataset.c; NULL: off */
	int configs_per;                        /* dataset.c: enum db_per, 0: as measured */
};

struct db_configs_cache;
void db_configs_cache_free(struct db_configs_cache *c);

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

/* A 64-bit hash of s[0..n) (param_pair.h), and the first 16 bytes of its
 * SHA-256 (run_data.dedupe; also the SQL function ab_key16() registered on
 * every writing connection, for migrations). */
int64_t db_hash64(const char *s, size_t n);
/* fresh: a context just sha256_init()ed, copied per key (its CPU probe is
 * slow under virtualisation); NULL to initialise one here. */
void db_key16(const struct sha256 *fresh, const char *s, size_t n, unsigned char out[16]);
int db_register_functions(sqlite3 *sql);

void db_sink_init(struct db *db);
void db_sink_release(struct db *db);
int db_migrate(struct db *db, struct strbuf *err);

#endif
