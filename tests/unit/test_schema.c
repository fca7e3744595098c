/*
 * test_schema.c - a new database's schema (model/schema_now.c) is the one
 * the migrations leave (model/schema.c), statement for statement.
 */
#include "unit.h"

#include "model/db.h"
#include "model/db_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* sqlite_master as text, one "type|name|tbl_name|sql" line per entry in
 * rowid order, user_version last. */
static void read_schema(sqlite3 *sql, struct strbuf *out)
{
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_prepare_v2(sql, "SELECT type, name, tbl_name, coalesce(sql, '')"
					    " FROM sqlite_master ORDER BY rowid", -1, &st, NULL),
			 SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		strbuf_addf(out, "%s|%s|%s|%s\n", (const char *)sqlite3_column_text(st, 0),
			    (const char *)sqlite3_column_text(st, 1),
			    (const char *)sqlite3_column_text(st, 2),
			    (const char *)sqlite3_column_text(st, 3));
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(sql, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	strbuf_addf(out, "user_version %d\n", sqlite3_column_int(st, 0));
	sqlite3_finalize(st);
}

/* The schema of an empty in-memory database given the current schema one
 * way (replay: every migration) or the other (schema_now.c). */
static void schema_text(int replay, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	sqlite3 *sql;

	assert_int_equal(sqlite3_open(":memory:", &sql), SQLITE_OK);
	assert_int_equal(db_register_functions(sql), SQLITE_OK);
	assert_int_equal(db_exec_sql(sql, "BEGIN", &err), 0);
	if (db_schema_create(sql, replay, &err) < 0)
		fail_msg("schema (%s): %s", replay ? "migrations" : "schema_now.c", err.buf);
	assert_int_equal(db_exec_sql(sql, "COMMIT", &err), 0);
	read_schema(sql, out);
	sqlite3_close(sql);
	strbuf_release(&err);
}

/* What schema_now.c should hold: the migrated statements as C strings. */
static void print_expected(const char *migrated)
{
	const char *p = migrated;

	fprintf(stderr, "# model/schema_now.c is out of date; the migrations leave:\n");
	while (*p) {
		const char *nl = strchr(p, '\n');
		const char *sqlp = p;
		int bars = 0;

		while (sqlp < nl && bars < 3)
			bars += *sqlp++ == '|';
		if (bars == 3 && sqlp < nl) {
			fputs("#\t\"", stderr);
			for (; sqlp < nl; sqlp++) {
				if (*sqlp == '"' || *sqlp == '\\')
					fputc('\\', stderr);
				fputc(*sqlp, stderr);
			}
			fputs("\",\n", stderr);
		}
		p = nl + 1;
	}
}

static void test_new_schema_is_the_migrated_one(void **state)
{
	struct strbuf migrated = STRBUF_INIT, now = STRBUF_INIT;

	(void)state;
	schema_text(1, &migrated);
	schema_text(0, &now);
	if (strcmp(migrated.buf, now.buf)) {
		print_expected(migrated.buf);
		fprintf(stderr, "# migrations:\n%s# schema_now.c:\n%s", migrated.buf, now.buf);
		fail_msg("a new database's schema differs from the migrated one");
	}
	/* the comparison sees the real schema: every table and view is there */
	assert_non_null(strstr(now.buf, "table|run_data|run_data|CREATE TABLE \"run_data\"("));
	assert_non_null(strstr(now.buf, "view|runs|runs|CREATE VIEW runs AS SELECT"));
	assert_non_null(strstr(now.buf, "index|sqlite_autoindex_source_1|source|\n"));
	strbuf_release(&migrated);
	strbuf_release(&now);
}

/* A new file through db_open (the CLI's path) gets the migrated schema
 * too, and opens again as it is. */
static void test_new_file_opens_current(void **state)
{
	char path[] = "/tmp/ab-schema-XXXXXX";
	struct strbuf err = STRBUF_INIT, wal = STRBUF_INIT, shm = STRBUF_INIT;
	struct strbuf migrated = STRBUF_INIT, got = STRBUF_INIT;
	struct db *db;
	int fd = mkstemp(path), i;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	schema_text(1, &migrated);
	for (i = 0; i < 2; i++) {
		assert_int_equal(db_open(&db, path, 0, &err), 0);
		strbuf_reset(&got);
		read_schema(db_sqlite(db), &got);
		assert_string_equal(got.buf, migrated.buf);
		db_free(db);
	}
	strbuf_addf(&wal, "%s-wal", path);
	strbuf_addf(&shm, "%s-shm", path);
	unlink(wal.buf);
	unlink(shm.buf);
	unlink(path);
	strbuf_release(&wal);
	strbuf_release(&shm);
	strbuf_release(&migrated);
	strbuf_release(&got);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_schema_is_the_migrated_one),
		cmocka_unit_test(test_new_file_opens_current),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
