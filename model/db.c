/*
 * db.c - open and configure the database, small statement helpers.
 */
#include "core/compat.h"
#include "db_priv.h"

#include <sys/stat.h>
#include <unistd.h>

int db_fail(struct db *db, struct strbuf *err, const char *what)
{
	return ab_fail(err, AB_EIO, "%s: %s", what, sqlite3_errmsg(db->sql));
}

int db_exec(struct db *db, const char *sql, struct strbuf *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db->sql, sql, NULL, NULL, &msg) != SQLITE_OK) {
		/* name the statement: "database is locked" alone says too little */
		int n = (int)strcspn(sql, ";");
		int rc = ab_fail(err, AB_EIO, "database error in '%.*s%s': %s", n > 40 ? 40 : n, sql,
				 n > 40 ? "..." : "", msg ? msg : "unknown");
		sqlite3_free(msg);
		return rc;
	}
	return 0;
}

int db_prepare(struct db *db, sqlite3_stmt **st, const char *sql, struct strbuf *err)
{
	if (sqlite3_prepare_v2(db->sql, sql, -1, st, NULL) != SQLITE_OK) {
		*st = NULL;
		return db_fail(db, err, "cannot prepare statement");
	}
	return 0;
}

int db_bind_text(sqlite3_stmt *st, int idx, const char *s)
{
	if (!s)
		return sqlite3_bind_null(st, idx);
	return sqlite3_bind_text(st, idx, s, -1, SQLITE_TRANSIENT);
}

int db_bind_pos(sqlite3_stmt *st, int idx, long v)
{
	if (v <= 0)
		return sqlite3_bind_null(st, idx);
	return sqlite3_bind_int64(st, idx, v);
}

int64_t db_hash64(const char *s, size_t n)
{
	/* a lookup key only (equality is checked on the bytes): eight bytes
	 * at a time, multiply-xorshift mixing; stored, so never change it */
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n, w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (w = 0; i < n; i++)
		w = (w << 8) | (unsigned char)s[i];
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (int64_t)h;
}

void db_key16(const struct sha256 *fresh, const char *s, size_t n, unsigned char out[16])
{
	unsigned char d[32];
	struct sha256 c;

	if (fresh)
		c = *fresh;
	else
		sha256_init(&c);
	sha256_update(&c, s, n);
	sha256_final(&c, d);
	memcpy(out, d, 16);
}

/* The SQL twin of db_key16 for migrations: ab_key16(text), NULL stays NULL. */
static void sql_key16(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	unsigned char k[16];

	(void)argc;
	if (!s) {
		sqlite3_result_null(cx);
		return;
	}
	db_key16(NULL, s, (size_t)sqlite3_value_bytes(argv[0]), k);
	sqlite3_result_blob(cx, k, 16, SQLITE_TRANSIENT);
}

int db_register_functions(sqlite3 *sql)
{
	return sqlite3_create_function(sql, "ab_key16", 1,
				       SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
				       sql_key16, NULL, NULL);
}

sqlite3 *db_sqlite(struct db *db)
{
	return db->sql;
}

const char *db_path(const struct db *db)
{
	return db->path.buf;
}

/*
 * Switch a database to WAL.  Changing the journal mode needs an exclusive
 * lock and SQLite does not call the busy handler for it, so when two
 * processes open a new database at the same moment one of them sees
 * SQLITE_BUSY: retry for as long as the busy timeout would have waited.
 */
static int set_wal(struct db *db, struct strbuf *err)
{
	int tries;

	for (tries = 0; tries < 6000; tries++) {
		sqlite3_stmt *st = NULL;
		int rc = sqlite3_prepare_v2(db->sql, "PRAGMA journal_mode = WAL", -1, &st, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc == SQLITE_ROW || rc == SQLITE_DONE)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			return db_fail(db, err, "cannot switch the database to WAL mode");
		usleep(10000);
	}
	return db_fail(db, err, "cannot switch the database to WAL mode");
}

int db_open(struct db **out, const char *path, unsigned flags, struct strbuf *err)
{
	struct db *db = ab_calloc(1, sizeof(*db));
	struct stat st;
	int oflags, rc;

	*out = NULL;
	strbuf_init(&db->path, 0);
	strbuf_addstr(&db->path, path);
	db->flags = flags;
	if ((flags & (DB_READONLY | DB_MUST_EXIST)) && stat(path, &st) < 0) {
		rc = ab_fail(err, AB_EIO, "cannot open database '%s': %s%s", path, strerror(errno),
			     errno == ENOENT ? " (run 'accelbench ingest' first)" : "");
		goto fail;
	}
	/* one thread per connection: no need for SQLite's mutexes */
	oflags = SQLITE_OPEN_NOMUTEX;
	oflags |= (flags & DB_READONLY) ? SQLITE_OPEN_READONLY
				       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	if (sqlite3_open_v2(path, &db->sql, oflags, NULL) != SQLITE_OK) {
		rc = ab_fail(err, AB_EIO, "cannot open database '%s': %s", path,
			     db->sql ? sqlite3_errmsg(db->sql) : "out of memory");
		goto fail;
	}
	/* Two ingests at once wait for each other instead of failing. */
	sqlite3_busy_timeout(db->sql, 60000);
	sqlite3_extended_result_codes(db->sql, 1);
	if (db_register_functions(db->sql) != SQLITE_OK) {
		rc = db_fail(db, err, "cannot register SQL functions");
		goto fail;
	}
	rc = db_exec(db, "PRAGMA foreign_keys = ON", err);
	if (rc < 0)
		goto fail;
	if (!(flags & DB_READONLY)) {
		rc = set_wal(db, err);
		if (rc < 0)
			goto fail;
		/* a 64 MiB page cache keeps the run and metric indexes in memory
		 * during a large ingest */
		rc = db_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536;"
				 " PRAGMA temp_store = MEMORY", err);
		if (rc < 0)
			goto fail;
	}
	/* A file that is not a database fails here with a clear message. */
	rc = db_migrate(db, err);
	if (rc < 0)
		goto fail;
	db_sink_init(db);
	*out = db;
	return 0;
fail:
	if (db->sql)
		sqlite3_close(db->sql);
	strbuf_release(&db->path);
	free(db);
	return rc;
}

void db_free(struct db *db)
{
	if (!db)
		return;
	db_sink_release(db);
	sqlite3_close(db->sql);
	strbuf_release(&db->path);
	free(db);
}
