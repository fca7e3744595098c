/*
 * reframe_db.c - ReFrame's own results database (4.7+, storage.enable;
 * schema_version 1.0): every session's whole run report is in
 * sessions.json_blob, so each blob goes through the run-report parser.
 *
 * The file belongs to ReFrame: it is opened read-only through a URI with
 * immutable=1, so SQLite takes no lock and writes no journal or -shm file
 * (it works in read-only directories too).  The price is that a database
 * being written at this very moment may read inconsistently; a torn blob
 * then fails as bad JSON and the file is rejected, never modified.
 */
#include "core/compat.h"
#include "reframe_priv.h"

#include <ctype.h>
#include <sqlite3.h>
#include <time.h>

/* A crafted file must not hang ingest: sessions and metadata must be real
 * tables (a VIEW can hide an endless recursive query) and every query is
 * bounded by a progress handler: no row for this long and it is given up.
 * A real table can still be slow to the first row (a generated column
 * that costs a millisecond a row, sorted); ACCELBENCH_RESULTS_DB_TIMEOUT
 * (seconds) changes the limit. */
#define RFM_DB_ROW_SECONDS 30.0

struct rfm_db_clock {
	struct timespec last_row;
	double limit_s;
	int expired;
};

static int progress(void *arg)
{
	struct rfm_db_clock *c = arg;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((double)(now.tv_sec - c->last_row.tv_sec) +
		    (double)(now.tv_nsec - c->last_row.tv_nsec) / 1e9 > c->limit_s)
		c->expired = 1;
	return c->expired;
}

/* the limit: ACCELBENCH_RESULTS_DB_TIMEOUT seconds, else 30 */
static double row_limit(struct ingest_file *f)
{
	const char *env = getenv("ACCELBENCH_RESULTS_DB_TIMEOUT");
	double v;

	if (!env || !*env)
		return RFM_DB_ROW_SECONDS;
	if (num_parse_double(env, strlen(env), &v) == NUM_OK && v > 0 && v <= 1e6)
		return v;
	ingest_warn(f, 0, "ACCELBENCH_RESULTS_DB_TIMEOUT '%s' is not a number of seconds; "
		    "using %g", env, RFM_DB_ROW_SECONDS);
	return RFM_DB_ROW_SECONDS;
}

/* 0 when name is absent or a plain table, else the reason it is not */
static const char *not_a_table(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = NULL;
	const char *why = NULL;

	if (sqlite3_prepare_v2(db, "SELECT type, coalesce(sql, '') FROM sqlite_master"
			       " WHERE name = ?1 COLLATE NOCASE", -1, &st, NULL) != SQLITE_OK)
		return "its schema cannot be read";
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	switch (sqlite3_step(st)) {
	case SQLITE_DONE:
		break;
	case SQLITE_ROW: {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		const char *sql = (const char *)sqlite3_column_text(st, 1);
		if (!type || strcmp(type, "table"))
			why = "is not a table";
		else if (sql && !sqlite3_strnicmp(sql, "CREATE VIRTUAL", 14))
			why = "is a virtual table";
		break;
	}
	default:
		why = "cannot be looked up";
	}
	sqlite3_finalize(st);
	return why;
}

static int detect_db(const char *path, const unsigned char *head, size_t len)
{
	static const char magic[] = "SQLite format 3";
	size_t i;
	int blob = 0, start = 0;

	if (len < sizeof(magic) || memcmp(head, magic, sizeof(magic)))
		return 0;
	/* page 1 holds sqlite_schema, whose CREATE TABLE text names the columns */
	for (i = 0; i + 18 <= len; i++) {
		if (!memcmp(head + i, "json_blob", 9))
			blob = 1;
		if (!memcmp(head + i, "session_start_unix", 18))
			start = 1;
	}
	return blob && start ? 95 : 0;
}

/* file:<path>?mode=ro&immutable=1 with the path percent-encoded */
static void db_uri(struct strbuf *uri, const char *path)
{
	const unsigned char *p;

	strbuf_addstr(uri, "file:");
	for (p = (const unsigned char *)path; *p; p++) {
		if (isalnum(*p) || strchr("/-._~", *p))
			strbuf_addch(uri, *p);
		else
			strbuf_addf(uri, "%%%02X", *p);
	}
	strbuf_addstr(uri, "?mode=ro&immutable=1");
}

static int parse_db(struct ingest_file *f, struct strbuf *err)
{
	struct strbuf uri = STRBUF_INIT, label = STRBUF_INIT;
	struct rfm_skips sk = { 0, 0, 0 };
	struct rfm_db_clock clk = { { 0, 0 }, RFM_DB_ROW_SECONDS, 0 };
	const char *why;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	long sessions = 0;
	int rc, src;

	db_uri(&uri, f->path);
	src = sqlite3_open_v2(uri.buf, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	if (src != SQLITE_OK) {
		rc = ingest_fail_at(f, err, 0, "cannot open as SQLite: %s",
				    db ? sqlite3_errmsg(db) : sqlite3_errstr(src));
		goto out;
	}
	clk.limit_s = row_limit(f);
	clock_gettime(CLOCK_MONOTONIC, &clk.last_row);
	/* every 1000 VM steps: a slow row (an expensive generated column) still
	 * checks the clock often enough, and a clock read is cheap beside 1000 */
	sqlite3_progress_handler(db, 1000, progress, &clk);
	if ((why = not_a_table(db, "sessions")) || (why = not_a_table(db, "metadata"))) {
		rc = ingest_fail_at(f, err, 0, "not a ReFrame results database: '%s' %s",
				    not_a_table(db, "sessions") ? "sessions" : "metadata", why);
		goto out;
	}
	src = sqlite3_prepare_v2(db, "SELECT schema_version FROM metadata", -1, &st, NULL);
	if (src == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		if (!v || strncmp(v, "1.", 2))
			ingest_warn(f, 0, "results database schema_version '%s', read as 1.0",
				    v ? v : "");
	}
	sqlite3_finalize(st);
	st = NULL;
	src = sqlite3_prepare_v2(db,
				 "SELECT uuid, json_blob FROM sessions"
				 " ORDER BY session_start_unix, uuid",
				 -1, &st, NULL);
	if (src != SQLITE_OK) {
		rc = ingest_fail_at(f, err, 0,
				    "not a ReFrame results database (no sessions(uuid, json_blob)): %s",
				    sqlite3_errmsg(db));
		goto out;
	}
	rc = 0;
	while ((src = sqlite3_step(st)) == SQLITE_ROW) {
		const char *uuid = (const char *)sqlite3_column_text(st, 0);
		const void *blob = sqlite3_column_text(st, 1);
		int n = sqlite3_column_bytes(st, 1);
		FILE *fp;

		clock_gettime(CLOCK_MONOTONIC, &clk.last_row);
		strbuf_reset(&label);
		strbuf_addf(&label, "session '%s'", uuid ? uuid : "?");
		if (!blob || n <= 0) {
			rc = ingest_fail_at(f, err, 0, "%s: empty json_blob", label.buf);
			goto out;
		}
		/* the blob is valid until the next step: parse it now, as a stream */
		fp = fmemopen((void *)blob, (size_t)n, "r");
		if (!fp) {
			rc = ab_fail(err, AB_EIO, "%s: cannot read the blob of %s: %s", f->path,
				     label.buf, strerror(errno));
			goto out;
		}
		rc = rfm_report_parse_stream(f, fp, label.buf, &sk, err);
		fclose(fp);
		if (rc < 0)
			goto out;
		sessions++;
		/* the wait for the next row starts now, not when this one came */
		clock_gettime(CLOCK_MONOTONIC, &clk.last_row);
	}
	if (src != SQLITE_DONE) {
		if (clk.expired)
			rc = ingest_fail_at(f, err, 0, "cannot read sessions: no row in %g s; "
					    "given up (ACCELBENCH_RESULTS_DB_TIMEOUT)", clk.limit_s);
		else
			rc = ingest_fail_at(f, err, 0, "cannot read sessions: %s",
					    sqlite3_errmsg(db));
		goto out;
	}
	rfm_skips_warn(f, &sk);
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	strbuf_release(&uri);
	strbuf_release(&label);
	return rc;
}

const struct ingest_format ingest_fmt_reframe_db = {
	"reframe-db", FMT_BINARY_OK, detect_db, parse_db
};
