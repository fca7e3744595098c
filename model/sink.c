/*
 * sink.c - the ingest sink that writes SQLite: one IMMEDIATE transaction
 * per source file, prepared statements bound and reset per record.
 */
#include "core/compat.h"
#include "db_priv.h"
#include "validate.h"

#include <math.h>
#include <time.h>

enum {
	ST_FIND_SOURCE,
	ST_ADD_SOURCE,
	ST_UPSERT_SYSTEM,
	ST_UPSERT_BENCH,
	ST_ADD_RUN,
	ST_ADD_METRIC,
	ST_ADD_POWER,
	ST_FIND_REPLACED,
	ST_COUNT
};

static const char *const sink_sql[ST_COUNT] = {
	[ST_FIND_SOURCE] = "SELECT id FROM source WHERE sha256 = ?1 AND identity = coalesce(?2, '')",
	[ST_ADD_SOURCE] = "INSERT INTO source(path, sha256, identity, format, size, ingested_at,"
			  " tool_version) VALUES (?1, ?2, coalesce(?7, ''), ?3, ?4, ?5, ?6)",
	[ST_UPSERT_SYSTEM] =
		"INSERT INTO system(name, display_name, vendor, accelerator, accelerators_per_node,"
		" host_cpu, interconnect, site, tdp_w, meta)"
		" VALUES (?1, ?2, coalesce(?3, 'other'), ?4, ?5, ?6, ?7, ?8, ?9, coalesce(?10, '{}'))"
		/* what a user's systems file said ("described") wins over what a
		 * parser or the built-in table guessed later */
		" ON CONFLICT(name) DO UPDATE SET"
		" display_name = coalesce(excluded.display_name, display_name),"
		" vendor = CASE WHEN json_extract(meta, '$.described') IS NOT NULL"
		"  AND json_extract(excluded.meta, '$.described') IS NULL THEN vendor"
		"  WHEN ?3 IS NOT NULL THEN excluded.vendor ELSE vendor END,"
		" accelerator = CASE WHEN json_extract(meta, '$.described') IS NOT NULL"
		"  AND json_extract(excluded.meta, '$.described') IS NULL THEN accelerator"
		"  ELSE coalesce(excluded.accelerator, accelerator) END,"
		" accelerators_per_node = CASE WHEN json_extract(meta, '$.described') IS NOT NULL"
		"  AND json_extract(excluded.meta, '$.described') IS NULL THEN accelerators_per_node"
		"  ELSE coalesce(excluded.accelerators_per_node, accelerators_per_node) END,"
		" host_cpu = coalesce(excluded.host_cpu, host_cpu),"
		" interconnect = coalesce(excluded.interconnect, interconnect),"
		" site = coalesce(excluded.site, site),"
		" tdp_w = coalesce(excluded.tdp_w, tdp_w),"
		" meta = json_patch(meta, excluded.meta)"
		" RETURNING id",
	[ST_UPSERT_BENCH] = "INSERT INTO benchmark(suite, name, metric, unit, better)"
			    " VALUES (?1, ?2, ?3, ?4, ?5)"
			    /* a run without values registers its benchmark with no
			     * headline ("" metric); a later run supplies it */
			    " ON CONFLICT(suite, name) DO UPDATE SET"
			    " metric = CASE WHEN metric = '' THEN excluded.metric ELSE metric END,"
			    " unit = CASE WHEN metric = '' THEN excluded.unit ELSE unit END,"
			    " better = CASE WHEN metric = '' THEN excluded.better ELSE better END"
			    " RETURNING id",
	[ST_ADD_RUN] = "INSERT INTO run(source_id, seq, line, system_id, benchmark_id, job_id,"
		       " started, finished, status, nodes, devices, global_batch, local_batch,"
		       " precision, framework, params, excluded_reason, dedupe_key)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
		       " coalesce(?16, '{}'), ?17, ?18)"
		       /* no RETURNING: it materialises a result table per row,
		        * a tenth of a large ingest; changes()/rowid say the same */
		       " ON CONFLICT(dedupe_key) DO NOTHING",
	[ST_ADD_METRIC] = "INSERT INTO metric(run_id, name, value, unit, meta)"
			  " VALUES (?1, ?2, ?3, ?4, ?5)",
	[ST_ADD_POWER] = "INSERT INTO power_sample(run_id, device, t, watts) VALUES (?1, ?2, ?3, ?4)",
	/* what --replace removes: the same bytes, or whatever the same path held */
	[ST_FIND_REPLACED] = "SELECT id FROM source WHERE (sha256 = ?1 AND identity = coalesce(?3, ''))"
			     " OR path = ?2 ORDER BY id",
};

static const char *const status_names[] = {
	[RUN_OK] = "ok", [RUN_FAILED] = "failed", [RUN_ABORTED] = "aborted",
	[RUN_INVALID] = "invalid",
};

static int stmt(struct db_sink_state *s, int which, sqlite3_stmt **out, struct strbuf *err)
{
	if (!s->st[which]) {
		int rc = db_prepare(s->db, &s->st[which], sink_sql[which], err);
		if (rc < 0)
			return rc;
	}
	sqlite3_reset(s->st[which]);
	sqlite3_clear_bindings(s->st[which]);
	*out = s->st[which];
	return 0;
}

/* Step a statement expected to finish (SQLITE_DONE) or give one row. */
static int step(struct db_sink_state *s, sqlite3_stmt *st, int64_t *id, struct strbuf *err,
		const char *what)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW) {
		if (id)
			*id = sqlite3_column_int64(st, 0);
		rc = sqlite3_step(st);
		if (rc == SQLITE_DONE)
			return 1;
	}
	if (rc == SQLITE_DONE)
		return 0;
	return db_fail(s->db, err, what);
}

static char *json_text(json_t *j)
{
	if (!j)
		return NULL;
	/* insertion order is the parser's, deterministic; outputs sort keys again */
	return json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
}

static void now_iso(struct strbuf *out)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;
	char buf[32];

	if (gmtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		strbuf_addstr(out, buf);
}

/* --replace: remove the sources this one replaces, inside the source's
 * transaction, so the old runs go exactly when the new ones land.
 * Returns 1 when something was removed. */
static int replace_source(struct db_sink_state *s, const struct ingest_source *src,
			  struct strbuf *err)
{
	struct db_rm_counts c = { 0 };
	int64_t *ids = NULL;
	size_t n = 0, i;
	sqlite3_stmt *st;
	int rc;

	rc = stmt(s, ST_FIND_REPLACED, &st, err);
	if (rc < 0)
		return rc;
	db_bind_text(st, 1, src->sha256);
	db_bind_text(st, 2, src->path);
	db_bind_text(st, 3, src->identity);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ids = ab_realloc(ids, (n + 1) * sizeof(*ids));
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		free(ids);
		return db_fail(s->db, err, "cannot look up the source to replace");
	}
	for (i = 0, rc = 0; i < n && rc == 0; i++)
		rc = db_source_remove(s->db, ids[i], &c, err);
	free(ids);
	return rc < 0 ? rc : n > 0;
}

static int sink_begin(void *self, const struct ingest_source *src, struct strbuf *err)
{
	struct db_sink_state *s = self;
	struct strbuf when = STRBUF_INIT;
	sqlite3_stmt *st;
	int64_t id;
	int rc, replaced = 0;

	rc = db_exec(s->db, "BEGIN IMMEDIATE", err);
	if (rc < 0)
		return rc;
	s->in_txn = 1;
	strbuf_reset(&s->last_system);
	strbuf_reset(&s->last_bench);
	rc = stmt(s, ST_FIND_SOURCE, &st, err);
	if (rc < 0)
		goto fail;
	db_bind_text(st, 1, src->sha256);
	db_bind_text(st, 2, src->identity);
	rc = step(s, st, &id, err, "cannot look up source");
	if (rc < 0)
		goto fail;
	if (rc == 1 && !src->replace) {
		db_exec(s->db, "ROLLBACK", NULL);
		s->in_txn = 0;
		return 1;
	}
	if (src->replace) {
		rc = replace_source(s, src, err);
		if (rc < 0)
			goto fail;
		replaced = rc;
	}
	rc = stmt(s, ST_ADD_SOURCE, &st, err);
	if (rc < 0)
		goto fail;
	now_iso(&when);
	db_bind_text(st, 1, src->path);
	db_bind_text(st, 2, src->sha256);
	db_bind_text(st, 3, src->format);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)src->size);
	db_bind_text(st, 5, when.buf);
	db_bind_text(st, 6, AB_VERSION);
	db_bind_text(st, 7, src->identity);
	strbuf_release(&when);
	rc = step(s, st, NULL, err, "cannot add source");
	if (rc < 0)
		goto fail;
	s->source_id = sqlite3_last_insert_rowid(s->db->sql);
	s->seq = 0;
	return replaced ? 2 : 0;
fail:
	db_exec(s->db, "ROLLBACK", NULL);
	s->in_txn = 0;
	return rc;
}

static int system_id(struct db_sink_state *s, const struct ingest_system *sys, int64_t *id,
		     struct strbuf *err)
{
	struct db_accel acc;
	const char *vendor = sys->vendor, *accel = sys->accelerator;
	long per_node = sys->accelerators_per_node;
	sqlite3_stmt *st;
	char *meta;
	int rc;

	if (!sys->name || !*sys->name)
		return ab_fail(err, AB_EDATA, "run without a system name");
	if (s->last_system.len && !strcmp(s->last_system.buf, sys->name)) {
		*id = s->last_system_id;
		return 0;
	}
	/* the accelerator the tool named, else the system's name, else (for a
	 * CPU-only system whose accelerator is "N/A") its host CPU */
	if (!vendor && (db_normalize_accel(accel, &acc) == 0 ||
			db_normalize_accel(sys->name, &acc) == 0 ||
			db_normalize_accel(sys->host_cpu, &acc) == 0)) {
		vendor = acc.vendor;
		accel = acc.accelerator;
		if (!per_node)
			per_node = acc.per_node;
	}
	rc = stmt(s, ST_UPSERT_SYSTEM, &st, err);
	if (rc < 0)
		return rc;
	db_bind_text(st, 1, sys->name);
	db_bind_text(st, 2, sys->display_name);
	db_bind_text(st, 3, vendor);
	db_bind_text(st, 4, accel);
	db_bind_pos(st, 5, per_node);
	db_bind_text(st, 6, sys->host_cpu);
	db_bind_text(st, 7, sys->interconnect);
	db_bind_text(st, 8, sys->site);
	if (sys->tdp_w > 0)
		sqlite3_bind_double(st, 9, sys->tdp_w);
	meta = json_text(sys->meta);
	db_bind_text(st, 10, meta);
	free(meta);
	rc = step(s, st, id, err, "cannot add system");
	if (rc < 0)
		return rc;
	strbuf_setstr(&s->last_system, sys->name);
	s->last_system_id = *id;
	return 0;
}

static int bench_id(struct db_sink_state *s, const struct ingest_run *r, int64_t *id,
		    struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc;

	if (!r->suite || !r->benchmark || !r->bench_metric || !r->bench_unit)
		return ab_fail(err, AB_EINTERNAL, "run without suite, benchmark or headline metric");
	if (s->last_bench.len && !strncmp(s->last_bench.buf, r->suite, strlen(r->suite)) &&
	    s->last_bench.buf[strlen(r->suite)] == '\n' &&
	    !strcmp(s->last_bench.buf + strlen(r->suite) + 1, r->benchmark)) {
		*id = s->last_bench_id;
		return 0;
	}
	rc = stmt(s, ST_UPSERT_BENCH, &st, err);
	if (rc < 0)
		return rc;
	db_bind_text(st, 1, r->suite);
	db_bind_text(st, 2, r->benchmark);
	db_bind_text(st, 3, r->bench_metric);
	db_bind_text(st, 4, r->bench_unit);
	db_bind_text(st, 5, r->lower_is_better ? "lower" : "higher");
	rc = step(s, st, id, err, "cannot add benchmark");
	if (rc < 0)
		return rc;
	strbuf_reset(&s->last_bench);
	strbuf_addf(&s->last_bench, "%s\n%s", r->suite, r->benchmark);
	s->last_bench_id = *id;
	return 0;
}

static int sink_run(void *self, const struct ingest_run *r, int64_t *run_id, struct strbuf *err)
{
	struct db_sink_state *s = self;
	struct validate_run vr;
	int64_t sys_id, b_id;
	sqlite3_stmt *st;
	char *params;
	size_t i;
	int rc;

	*run_id = 0;
	if (!s->in_txn)
		return ab_fail(err, AB_EINTERNAL, "run outside a source transaction");
	r = validate_run(r, &vr); /* impossible values: stored `invalid` with the reason */
	rc = system_id(s, &r->system, &sys_id, err);
	if (rc < 0)
		return rc;
	rc = bench_id(s, r, &b_id, err);
	if (rc < 0)
		return rc;
	rc = stmt(s, ST_ADD_RUN, &st, err);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, s->source_id);
	sqlite3_bind_int64(st, 2, ++s->seq);
	db_bind_pos(st, 3, r->line);
	sqlite3_bind_int64(st, 4, sys_id);
	sqlite3_bind_int64(st, 5, b_id);
	db_bind_text(st, 6, r->job_id);
	db_bind_text(st, 7, r->started);
	db_bind_text(st, 8, r->finished);
	db_bind_text(st, 9, status_names[r->status <= RUN_INVALID ? r->status : RUN_INVALID]);
	db_bind_pos(st, 10, r->nodes);
	db_bind_pos(st, 11, r->devices);
	db_bind_pos(st, 12, r->global_batch);
	db_bind_pos(st, 13, r->local_batch);
	db_bind_text(st, 14, r->precision);
	db_bind_text(st, 15, r->framework);
	params = json_text(r->params);
	db_bind_text(st, 16, params);
	free(params);
	db_bind_text(st, 17, r->excluded_reason);
	db_bind_text(st, 18, r->dedupe_key);
	rc = step(s, st, NULL, err, "cannot add run");
	if (rc < 0)
		return rc;
	if (sqlite3_changes(s->db->sql) == 0) /* dedupe_key conflict: stored before */
		return 1;
	*run_id = sqlite3_last_insert_rowid(s->db->sql);
	for (i = 0; i < r->nmetrics; i++) {
		const struct ingest_metric *m = &r->metrics[i];
		char *meta;

		if (!isfinite(m->value)) /* no REAL for it; validate_run() said why */
			continue;
		rc = stmt(s, ST_ADD_METRIC, &st, err);
		if (rc < 0)
			return rc;
		sqlite3_bind_int64(st, 1, *run_id);
		db_bind_text(st, 2, m->name);
		sqlite3_bind_double(st, 3, m->value);
		db_bind_text(st, 4, m->unit);
		meta = json_text(m->meta);
		db_bind_text(st, 5, meta);
		free(meta);
		if (sqlite3_step(st) != SQLITE_DONE) {
			if (sqlite3_extended_errcode(s->db->sql) == SQLITE_CONSTRAINT_PRIMARYKEY)
				return ab_fail(err, AB_EINTERNAL, "metric '%s' given twice for one run",
					       m->name);
			return db_fail(s->db, err, "cannot add metric");
		}
	}
	return 0;
}

static int sink_system(void *self, const struct ingest_system *sys, struct strbuf *err)
{
	struct db_sink_state *s = self;
	int64_t id;

	if (!s->in_txn)
		return ab_fail(err, AB_EINTERNAL, "system outside a source transaction");
	strbuf_reset(&s->last_system); /* the row changes: no cached id */
	return system_id(s, sys, &id, err);
}

static int sink_power(void *self, int64_t run_id, const char *device, double t, double watts,
		      struct strbuf *err)
{
	struct db_sink_state *s = self;
	sqlite3_stmt *st;
	int rc = stmt(s, ST_ADD_POWER, &st, err);

	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, run_id);
	db_bind_text(st, 2, device);
	sqlite3_bind_double(st, 3, t);
	sqlite3_bind_double(st, 4, watts);
	if (sqlite3_step(st) != SQLITE_DONE)
		return db_fail(s->db, err, "cannot add power sample");
	return 0;
}

static int sink_end(void *self, int commit, struct strbuf *err)
{
	struct db_sink_state *s = self;
	int rc;

	if (!s->in_txn)
		return 0;
	s->in_txn = 0;
	strbuf_reset(&s->last_system);
	strbuf_reset(&s->last_bench);
	if (!commit)
		return db_exec(s->db, "ROLLBACK", err);
	rc = db_exec(s->db, "COMMIT", err);
	if (rc < 0)
		db_exec(s->db, "ROLLBACK", NULL);
	return rc;
}

void db_sink_init(struct db *db)
{
	struct db_sink_state *s = &db->sink;

	memset(s, 0, sizeof(*s));
	s->db = db;
	strbuf_init(&s->last_system, 0);
	strbuf_init(&s->last_bench, 0);
	s->sink.self = s;
	s->sink.begin = sink_begin;
	s->sink.run = sink_run;
	s->sink.power = sink_power;
	s->sink.system = sink_system;
	s->sink.end = sink_end;
}

void db_sink_release(struct db *db)
{
	struct db_sink_state *s = &db->sink;
	size_t i;

	if (s->in_txn)
		db_exec(db, "ROLLBACK", NULL);
	for (i = 0; i < AB_ARRAY_SIZE(s->st); i++)
		sqlite3_finalize(s->st[i]);
	strbuf_release(&s->last_system);
	strbuf_release(&s->last_bench);
}

struct ingest_sink *db_ingest_sink(struct db *db)
{
	return &db->sink.sink;
}
