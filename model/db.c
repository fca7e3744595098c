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

int db_exec_sql(sqlite3 *sql, const char *q, struct strbuf *err)
{
	char *msg = NULL;

	if (sqlite3_exec(sql, q, NULL, NULL, &msg) != SQLITE_OK) {
		/* name the statement: "database is locked" alone says too little */
		int n = (int)strcspn(q, ";");
		int rc = ab_fail(err, AB_EIO, "database error in '%.*s%s': %s", n > 40 ? 40 : n, q,
				 n > 40 ? "..." : "", msg ? msg : "unknown");
		sqlite3_free(msg);
		return rc;
	}
	return 0;
}

int db_exec(struct db *db, const char *sql, struct strbuf *err)
{
	return db_exec_sql(db->sql, sql, err);
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

int64_t db_key_order(const char *s, size_t n)
{
	size_t end = n, i;
	int64_t v = 0;

	/* (c - '0') < 10 unsigned: isdigit() was a call per byte */
	while (end > 0 && (unsigned char)(s[end - 1] - '0') > 9)
		end--;
	for (i = end; i > 0 && end - i < 18 && (unsigned char)(s[i - 1] - '0') <= 9; i--)
		;
	for (; i < end; i++)
		v = v * 10 + (s[i] - '0');
	return v;
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
	int rc = sqlite3_create_function(sql, "ab_key16", 1,
					 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
					 sql_key16, NULL, NULL);

	return rc == SQLITE_OK ? db_metrics_register(sql) : rc;
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

/* file:<path>?mode=ro&immutable=1, the path percent-encoded */
static void immutable_uri(struct strbuf *uri, const char *path)
{
	const unsigned char *p;

	strbuf_addstr(uri, "file:");
	for (p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/-._~", *p))
			strbuf_addch(uri, (char)*p);
		else
			strbuf_addf(uri, "%%%02X", *p);
	}
	strbuf_addstr(uri, "?mode=ro&immutable=1");
}

enum db_kind { DB_KIND_EMPTY, DB_KIND_OURS, DB_KIND_FOREIGN };

/*
 * What the file holds, read without writing anything: no schema at all
 * (a new or empty file), accelbench's tables (run and metric may be views
 * over the storage tables of a later migration), or somebody else's tables.
 * Returns 0 or the SQLite result code of the failed read.
 */
static int classify(struct db *db, enum db_kind *kind, int *version)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->sql, "SELECT (SELECT count(*) FROM sqlite_master),"
				    " (SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name IN"
				    " ('source', 'system', 'benchmark', 'run', 'metric')),"
				    " (SELECT user_version FROM pragma_user_version)", -1, &st, NULL);

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int all = sqlite3_column_int(st, 0), ours = sqlite3_column_int(st, 1);

		*version = sqlite3_column_int(st, 2);
		*kind = ours == 5 && *version > 0 ? DB_KIND_OURS
		      : all == 0 && *version == 0 ? DB_KIND_EMPTY : DB_KIND_FOREIGN;
		rc = 0;
	} else if (rc == SQLITE_OK) {
		rc = sqlite3_errcode(db->sql);
	}
	sqlite3_finalize(st);
	return rc;
}

static int open_as(struct db *db, const char *name, int oflags, struct strbuf *err)
{
	if (db->sql) {
		sqlite3_close(db->sql);
		db->sql = NULL;
	}
	/* one thread per connection: no need for SQLite's mutexes */
	if (sqlite3_open_v2(name, &db->sql, oflags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return ab_fail(err, AB_EIO, "cannot open database '%s': %s", db_path(db),
			       db->sql ? sqlite3_errmsg(db->sql) : "out of memory");
	/* Two ingests at once wait for each other instead of failing. */
	sqlite3_busy_timeout(db->sql, 60000);
	sqlite3_extended_result_codes(db->sql, 1);
	if (db_register_functions(db->sql) != SQLITE_OK)
		return db_fail(db, err, "cannot register SQL functions");
	return 0;
}

int db_open(struct db **out, const char *path, unsigned flags, struct strbuf *err)
{
	struct db *db = ab_calloc(1, sizeof(*db));
	int ro = (flags & DB_READONLY) != 0, version = 0, src, rc, exists;
	enum db_kind kind = DB_KIND_EMPTY;
	struct stat st;

	*out = NULL;
	strbuf_init(&db->path, 0);
	strbuf_addstr(&db->path, path);
	db->flags = flags;
	exists = stat(path, &st) == 0;
	if (!exists && (flags & (DB_READONLY | DB_MUST_EXIST))) {
		rc = ab_fail(err, AB_EIO, "cannot open database '%s': %s%s", path, strerror(errno),
			     errno == ENOENT ? " (run 'accelbench ingest' first)" : "");
		goto fail;
	}
	/* SQLite would block on a FIFO and read a device forever */
	if (exists && !S_ISREG(st.st_mode)) {
		rc = ab_fail(err, AB_EIO, "cannot open database '%s': not a regular file (%s)", path,
			     ab_file_kind((unsigned)st.st_mode));
		goto fail;
	}
	/* no global memory statistics: their mutex is taken on every
	 * allocation (fails harmlessly once SQLite is initialised) */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	/* A reader opens the file read-write too (never creating it) and then
	 * cannot write through the connection (query_only).  Read-write, so
	 * that when it is the last connection to close, SQLite folds the WAL
	 * back and removes -wal and -shm: a SQLITE_OPEN_READONLY connection
	 * cannot, and every `ls`, `report` or `plot` left both files behind.
	 * No checkpoint on close until the file is known to be ours: a foreign
	 * file is refused unchanged.  An unwritable file opens read-only. */
	rc = open_as(db, path, SQLITE_OPEN_READWRITE | (ro ? 0 : SQLITE_OPEN_CREATE), err);
	if (rc < 0)
		goto fail;
	if (ro) {
		sqlite3_db_config(db->sql, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
		rc = db_exec(db, "PRAGMA query_only = ON", err);
		if (rc < 0)
			goto fail;
	}
	src = classify(db, &kind, &version);
	if (ro && ((src & 0xff) == SQLITE_READONLY || (src & 0xff) == SQLITE_CANTOPEN)) {
		/* a WAL database on a read-only share: no -shm can be made, so
		 * read it as an immutable snapshot (the caller says so) */
		struct strbuf uri = STRBUF_INIT;

		immutable_uri(&uri, path);
		rc = open_as(db, uri.buf, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, err);
		strbuf_release(&uri);
		if (rc < 0)
			goto fail;
		db->immutable = 1;
		src = classify(db, &kind, &version);
	}
	if (src) {
		rc = (src & 0xff) == SQLITE_NOTADB
			? ab_fail(err, AB_EIO, "'%s' is not an accelbench database (not an SQLite "
				  "file)", path)
			: db_fail(db, err, "cannot read the database");
		goto fail;
	}
	/* Nothing below runs on a file that is not ours: not even WAL mode,
	 * which would change its bytes. */
	if (kind == DB_KIND_FOREIGN) {
		rc = ab_fail(err, AB_EIO, "'%s' is not an accelbench database (it has tables of its "
			     "own); not %s", path, ro ? "read" : "changed");
		goto fail;
	}
	if (ro && kind == DB_KIND_EMPTY) {
		rc = ab_fail(err, AB_EIO, "'%s' is not an accelbench database (%s)", path,
			     st.st_size == 0 ? "an empty file" : "an SQLite file without tables");
		goto fail;
	}
	rc = db_exec(db, "PRAGMA foreign_keys = ON", err);
	if (rc < 0)
		goto fail;
	if (!ro) {
		rc = set_wal(db, err);
		if (rc < 0)
			goto fail;
		/* A 32 MiB page cache keeps the hot part of the run index in
		 * memory during a large ingest: a file's runs go to a few
		 * (benchmark, system) parts of it, so a 950,000-run perflog tree
		 * (a 29 MiB index) reads back 3 pages more than with 64 MiB.
		 * Every page the cache grows by is a fresh page fault on the
		 * writer thread (and an mprotect of its malloc arena): a 52 MiB
		 * database grew a 64 MiB cache to ~15,000 faults, 32 MiB to ~9,000. */
		rc = db_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -32768;"
				 " PRAGMA temp_store = MEMORY;"
				 /* a WAL that grew while a long reader held it back is
				  * cut to this size at its next reset */
				 " PRAGMA journal_size_limit = 67108864", err);
		if (rc < 0)
			goto fail;
	}
	/* the schema version: a writer upgrades, a reader refuses what it cannot read */
	rc = db_migrate(db, err);
	if (rc < 0)
		goto fail;
	if (ro && !db->immutable)
		sqlite3_db_config(db->sql, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, NULL);
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

int db_is_immutable(const struct db *db)
{
	return db->immutable;
}

void db_free(struct db *db)
{
	if (!db)
		return;
	db_sink_release(db);
	db_configs_cache_free(db->configs_cache);
	/* A writer leaving: fold the WAL back into the database and cut it to
	 * nothing when no reader still needs it, so it does not stay on disk
	 * at its high-water mark while other connections keep the file open.
	 * No waiting: with a reader inside, the next writer tries again. */
	if (db->sql && !(db->flags & DB_READONLY)) {
		sqlite3_busy_timeout(db->sql, 0);
		sqlite3_wal_checkpoint_v2(db->sql, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
	}
	sqlite3_close(db->sql);
	strbuf_release(&db->path);
	free(db);
}
