/*
 * sink.c - the ingest sink that writes SQLite: one IMMEDIATE transaction
 * per source file, prepared statements bound and reset per record.
 */
#include "core/compat.h"
#include "db_priv.h"
#include "validate.h"
#include "ingest/jtext.h"

#include <math.h>
#include <time.h>

/* cache_only: a lookup the caches cannot answer */
#define SINK_NEEDS_DB 3

enum {
	ST_FIND_SOURCE,
	ST_ADD_SOURCE,
	ST_NEXT_SOURCE,
	ST_ANY_SOURCE,
	ST_UPSERT_SYSTEM,
	ST_UPSERT_BENCH,
	ST_ADD_RUN,
	ST_ADD_POWER,
	ST_FIND_REPLACED,
	ST_FIND_SET,
	ST_ADD_SET,
	ST_FIND_KIND,
	ST_ADD_KIND,
	ST_FIND_DEVICE,
	ST_ADD_DEVICE,
	ST_DATA_VERSION,
	ST_DROP_SET,
	ST_ADD_POWER_BATCH,
	ST_FK_OFF,
	ST_FK_ON,
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_FIND_MEASURED,
	ST_KIND_NAME,
	ST_DROP_KIND,
	ST_SAVEPOINT,
	ST_RELEASE,
	ST_ROLLBACK_TO,
	ST_GROUP_UNORDERED,
	ST_UNORDER_GROUP,
	ST_COUNT
};
_Static_assert(ST_COUNT <= DB_SINK_STMTS, "db_sink_state.st holds every fixed statement");

static const char *const sink_sql[ST_COUNT] = {
	[ST_FIND_SOURCE] = "SELECT id FROM source WHERE sha256 = ?1 AND identity = coalesce(?2, '')",
	/* at the source's end, under the id reserved at its begin: the row and
	 * its index entries are written after the runs whether the digest
	 * came early or late, so the pages fall the same way */
	[ST_ADD_SOURCE] = "INSERT INTO source(id, path, sha256, identity, format, size, ingested_at,"
			  " tool_version, first_run, last_run)"
			  " VALUES (?8, ?1, ?2, coalesce(?7, ''), ?3, ?4, ?5, ?6, ?9, ?10)",
	[ST_NEXT_SOURCE] = "SELECT coalesce(max(id), 0) + 1 FROM source",
	[ST_ANY_SOURCE] = "SELECT 1 FROM source LIMIT 1",
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
	/* the columns in run_cols[]'s order (run_many's statements) */
	[ST_ADD_RUN] = "INSERT INTO run_data(source_id, seq, line, system_id, benchmark_id, job_id,"
		       " started, finished, status, nodes, devices, global_batch, local_batch,"
		       " precision, framework, set_id, params, excluded_reason, dedupe, metrics,"
		       " korder)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
		       " ?16, ?17, ?18, ?19, ?20, ?21)"
		       /* no RETURNING: it materialises a result table per row,
		        * a tenth of a large ingest; changes()/rowid say the same */
		       " ON CONFLICT(benchmark_id, system_id, korder, dedupe) DO NOTHING",
	[ST_ADD_POWER] = "INSERT INTO power_data(run_id, i, device_id, t, watts)"
			 " VALUES (?1, ?2, ?3, ?4, ?5)",
	/* what --replace removes: the same bytes, or whatever the same path held */
	[ST_FIND_REPLACED] = "SELECT id FROM source WHERE (sha256 = ?1 AND identity = coalesce(?3, ''))"
			     " OR path = ?2 ORDER BY id",
	[ST_FIND_SET] = "SELECT id FROM param_set WHERE h = ?1 AND kv = ?2",
	[ST_ADD_SET] = "INSERT INTO param_set(h, kv) VALUES (?1, ?2)",
	[ST_FIND_KIND] = "SELECT id FROM metric_kind WHERE name = ?1 AND unit = ?2 AND meta = ?3",
	[ST_ADD_KIND] = "INSERT INTO metric_kind(name, unit, meta) VALUES (?1, ?2, ?3)",
	[ST_FIND_DEVICE] = "SELECT id FROM power_device WHERE name = ?1",
	[ST_ADD_DEVICE] = "INSERT INTO power_device(name) VALUES (?1)",
	[ST_DATA_VERSION] = "PRAGMA data_version",
	[ST_DROP_SET] = "DELETE FROM param_set WHERE id = ?1",
	/* [ST_ADD_POWER_BATCH]: DB_POWER_BATCH rows of ST_ADD_POWER, built in stmt() */
	/* per source: prepared once (parsing them was a cost with many small files) */
	[ST_FK_OFF] = "PRAGMA foreign_keys = OFF",
	[ST_FK_ON] = "PRAGMA foreign_keys = ON",
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
	/* the metrics of the run stored under a dedupe key */
	[ST_FIND_MEASURED] = "SELECT metrics FROM run_data WHERE benchmark_id = ?2"
			     " AND system_id = ?3 AND korder = ?4 AND dedupe = ?1",
	[ST_KIND_NAME] = "SELECT name FROM metric_kind WHERE id = ?1",
	/* a kind made for a run that turned out a duplicate */
	[ST_DROP_KIND] = "DELETE FROM metric_kind WHERE id = ?1",
	/* a source inside a group (sink_group) */
	[ST_SAVEPOINT] = "SAVEPOINT source",
	[ST_RELEASE] = "RELEASE source",
	[ST_ROLLBACK_TO] = "ROLLBACK TO source",
	/* group_korder(): is a (benchmark, system) unordered, and make it so */
	[ST_GROUP_UNORDERED] = "SELECT 1 FROM run_data WHERE benchmark_id = ?1 AND system_id = ?2"
			       " AND korder = -1 AND dedupe IS NOT NULL LIMIT 1",
	[ST_UNORDER_GROUP] = "UPDATE run_data SET korder = -1 WHERE benchmark_id = ?1"
			     " AND system_id = ?2 AND korder <> -1 AND dedupe IS NOT NULL",
};

static void memo_clear(struct db_upsert_memo *m);

/* Ids interned in a transaction that rolled back are gone with it. */
static void forget_interned(struct db_sink_state *s)
{
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(s->recent_dev); i++)
		s->recent_dev[i].id = 0;
	for (i = 0; i < AB_ARRAY_SIZE(s->prev_kind); i++)
		s->prev_kind[i].id = 0;
	s->prev_set_id = 0;
	/* not prepare()'s pairs: which pairs are shared is the split's
	 * choice, valid with any database, and prepare() may be running on
	 * the other thread */
	db_intern_clear(&s->sets);
	db_intern_clear(&s->kinds);
	db_intern_clear(&s->devices);
	db_intern_clear(&s->groups);
	s->last_group.mode = 0;
	memo_clear(s->sys_memo);
	memo_clear(s->bench_memo);
}

static int stmt(struct db_sink_state *s, int which, sqlite3_stmt **out, struct strbuf *err)
{
	if (!s->st[which] && which == ST_ADD_POWER_BATCH) {
		/* one statement for many rows: a statement's own cost (start,
		 * finish, cursors) was most of a sample's */
		struct strbuf sql = STRBUF_INIT;
		int i, rc;

		/* OR FAIL: no statement journal (a copy of every page the statement
		 * touches, kept to undo it); a failed row fails the source anyway,
		 * and its transaction is rolled back */
		strbuf_addstr(&sql, "INSERT OR FAIL INTO power_data(run_id, i, device_id, t, watts)"
				    " VALUES");
		for (i = 0; i < DB_POWER_BATCH; i++)
			strbuf_addstr(&sql, i ? ",(?,?,?,?,?)" : "(?,?,?,?,?)");
		rc = db_prepare(s->db, &s->st[which], sql.buf, err);
		strbuf_release(&sql);
		if (rc < 0)
			return rc;
	} else if (!s->st[which]) {
		int rc = db_prepare(s->db, &s->st[which], sink_sql[which], err);
		if (rc < 0)
			return rc;
	}
	sqlite3_reset(s->st[which]);
	/* the batch statement gets every parameter bound again (clearing
	 * its hundreds first cost more than a row's own binds) */
	if (which != ST_ADD_POWER_BATCH)
		sqlite3_clear_bindings(s->st[which]);
	*out = s->st[which];
	return 0;
}

/* Run one of the fixed statements (transaction control, pragmas). */
static int fixed(struct db_sink_state *s, int which, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc = stmt(s, which, &st, err);

	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	if (rc != SQLITE_DONE) /* worded as db_exec() words it */
		rc = ab_fail(err, AB_EIO, "database error in '%s': %s", sink_sql[which],
			     sqlite3_errmsg(s->db->sql));
	else
		rc = 0;
	sqlite3_reset(st);
	return rc;
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

/* One value from a statement that binds nothing: 1 (*id set), 0 (no
 * row) or -AB_EIO naming what failed. */
static int ask(struct db_sink_state *s, int which, int64_t *id, const char *what,
	       struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc = stmt(s, which, &st, err);

	return rc < 0 ? rc : step(s, st, id, err, what);
}

static char *json_text(struct db_sink_state *s, json_t *j)
{
	if (!j)
		return NULL;
	/* json_dumps' compact text; insertion order is the parser's,
	 * deterministic; outputs sort keys again */
	return ingest_jtext_dup(&s->jt, j);
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

/* Foreign key checks on again after the sink's transaction, unless the
 * caller holds the sink for more sources. */
static void fk_restore(struct db_sink_state *s)
{
	if (s->fk_off && !s->fk_held && !s->in_txn && !s->group_open) {
		fixed(s, ST_FK_ON, NULL);
		s->fk_off = 0;
	}
}

static int sink_begin(void *self, const struct ingest_source *src, struct strbuf *err)
{
	struct db_sink_state *s = self;
	sqlite3_stmt *st;
	int64_t id;
	int rc, replaced = 0;

	/* The sink keeps referential integrity itself (docs/schema.md): every
	 * id it writes it has just looked up or inserted in this transaction,
	 * or holds in a cache that is emptied whenever rows may have gone, and
	 * removing deletes children first.  SQLite's per-row foreign key checks
	 * (a parent lookup per column per row) are off for its transactions;
	 * the pragma is a no-op inside a transaction, so it is set before.
	 * Switching it expires every prepared statement (SQLite recompiles
	 * them), so while the caller holds the sink (sink_hold) it stays off
	 * from one transaction to the next. */
	if (!s->fk_off) {
		rc = fixed(s, ST_FK_OFF, err);
		if (rc < 0)
			return rc;
		s->fk_off = 1;
	}
	if (s->group_open && sqlite3_get_autocommit(s->db->sql)) {
		/* SQLite rolled the group back itself (an I/O error, a full
		 * disk): a savepoint now would begin a new transaction and the
		 * group's end would commit only what came after */
		s->group_open = 0;
		forget_interned(s);
		return ab_fail(err, AB_EIO, "the transaction of the files stored before this one "
			       "was rolled back");
	}
	if (!s->group_open) {
		rc = fixed(s, ST_BEGIN, err);
		if (rc < 0) {
			fk_restore(s);
			return rc;
		}
		s->group_open = s->grouping;
		/* another connection committed since our last transaction (an
		 * rm may have deleted interned rows we hold ids of): forget
		 * them.  Inside a group nobody else writes. */
		rc = ask(s, ST_DATA_VERSION, &id, "cannot read the data version", err);
		if (rc < 0)
			goto fail;
		if (id != s->data_version)
			forget_interned(s);
		s->data_version = id;
	}
	s->in_txn = 1;
	strbuf_reset(&s->last_system);
	strbuf_reset(&s->last_bench);
	if (s->empty_at_hold < 0 && s->fk_held) {
		/* the series' first source: nothing of it is stored yet */
		rc = ask(s, ST_ANY_SOURCE, NULL, "cannot look up sources", err);
		if (rc < 0)
			goto fail;
		s->empty_at_hold = rc == 0;
	}
	if (!src->sha256 && (src->replace || s->empty_at_hold != 1)) {
		/* the digest decides before anything is written: ask for it */
		if (!s->group_open)
			fixed(s, ST_ROLLBACK, NULL);
		s->in_txn = 0;
		fk_restore(s);
		return 3;
	}
	rc = src->sha256 ? stmt(s, ST_FIND_SOURCE, &st, err) : 0;
	if (rc < 0)
		goto fail;
	if (src->sha256) {
		db_bind_text(st, 1, src->sha256);
		db_bind_text(st, 2, src->identity);
		rc = step(s, st, &id, err, "cannot look up source");
		if (rc < 0)
			goto fail;
	}
	if (rc == 1 && !src->replace) {
		/* nothing written: in a group, the group goes on */
		if (!s->group_open)
			fixed(s, ST_ROLLBACK, NULL);
		s->in_txn = 0;
		fk_restore(s);
		return 1;
	}
	if (s->group_open) {
		/* this source alone can be rolled back (sink_end) */
		rc = fixed(s, ST_SAVEPOINT, err);
		if (rc < 0)
			goto fail;
	}
	if (src->replace) {
		rc = replace_source(s, src, err);
		if (rc < 0)
			goto fail;
		replaced = rc;
	}
	/* the id the row gets at end(): the largest + 1, as an INSERT now
	 * would give it (nothing else writes source meanwhile) */
	rc = ask(s, ST_NEXT_SOURCE, &id, "cannot look up source ids", err);
	if (rc < 0)
		goto fail;
	s->source_id = id;
	strbuf_setstr(&s->src_path, src->path);
	strbuf_setstr(&s->src_sha, src->sha256 ? src->sha256 : "");
	strbuf_setstr(&s->src_format, src->format);
	strbuf_setstr(&s->src_identity, src->identity ? src->identity : "");
	s->src_has_identity = src->identity != NULL;
	s->src_size = src->size;
	strbuf_reset(&s->src_when);
	if (src->ingested_at)
		strbuf_addstr(&s->src_when, src->ingested_at);
	else
		now_iso(&s->src_when);
	strbuf_setstr(&s->src_version, src->tool_version ? src->tool_version : AB_VERSION);
	s->seq = 0;
	s->first_run = s->last_run = 0;
	s->power_i = 0;
	return replaced ? 2 : 0;
fail:
	/* an error in a group ends it: the caller reports its files as not
	 * stored (SQLite may have rolled it all back already) */
	fixed(s, ST_ROLLBACK, NULL);
	s->in_txn = 0;
	s->group_open = 0;
	fk_restore(s);
	forget_interned(s);
	return rc;
}

/*
 * The upsert memos (struct db_upsert_memo): a system's or benchmark's
 * upsert (INSERT ... ON CONFLICT DO UPDATE) is a function of the row and
 * the input.  Applied twice in a row with the same input, the row is a
 * fixed point of it (json_patch is idempotent, and the CASEs that look at
 * the old meta see the patched one from the second time on; the first
 * time may be an INSERT that stores meta as given), so a third upsert of
 * that input changes nothing and is skipped: an MLPerf round upserts the
 * same system JSON for every file.  Another input for the name starts
 * over; a rollback, a removal or another connection's commit empties the
 * memos (forget_interned).
 */
static struct db_upsert_memo *memo_find(struct db_upsert_memo *m, uint64_t h, const char *key,
					size_t len)
{
	size_t i;

	for (i = 0; i < DB_UPSERT_MEMO; i++)
		if (m[i].h == h && m[i].key.len == len && !memcmp(m[i].key.buf, key, len))
			return &m[i];
	return NULL;
}

/* e (memo_find's) holds input as a fixed point: skip the upsert */
static int memo_fixed(const struct db_upsert_memo *e, const struct strbuf *input)
{
	return e && e->times >= 2 && e->input.len == input->len &&
	       !memcmp(e->input.buf, input->buf, input->len);
}

/* The upsert of input for key ran and gave id. */
static void memo_note(struct db_upsert_memo *m, unsigned *next, struct db_upsert_memo *e,
		      uint64_t h, const char *key, size_t len, const struct strbuf *input, int64_t id)
{
	if (e && e->input.len == input->len && !memcmp(e->input.buf, input->buf, input->len)) {
		if (e->times < 2)
			e->times++;
		e->id = id;
		return;
	}
	if (!e) { /* a new name: the oldest entry goes */
		e = &m[*next % DB_UPSERT_MEMO];
		*next += 1;
		e->h = h;
		strbuf_reset(&e->key);
		strbuf_add(&e->key, key, len);
	}
	strbuf_reset(&e->input);
	strbuf_addbuf(&e->input, input);
	e->times = 1;
	e->id = id;
}

static void memo_clear(struct db_upsert_memo *m)
{
	size_t i;

	for (i = 0; i < DB_UPSERT_MEMO; i++) {
		m[i].h = 0;
		m[i].times = 0;
	}
}

static uint64_t memo_hash(const char *key, size_t len)
{
	return (uint64_t)db_hash64(key, len) | 1; /* 0: a free entry */
}

/* One upsert parameter into the memo input: text, or none. */
static void upin_text(struct strbuf *in, const char *t)
{
	if (t) {
		strbuf_addstr(in, t);
		strbuf_addch(in, '\x1f');
	} else {
		strbuf_addch(in, '\x1e');
	}
}

static int system_id(struct db_sink_state *s, const struct ingest_system *sys, int64_t *id,
		     struct strbuf *err)
{
	struct db_accel acc;
	struct db_upsert_memo *memo;
	const char *vendor = sys->vendor, *accel = sys->accelerator;
	long per_node = sys->accelerators_per_node;
	double tdp = sys->tdp_w > 0 ? sys->tdp_w : 0;
	size_t name_len;
	uint64_t h;
	sqlite3_stmt *st;
	char *meta;
	int rc;

	if (!sys->name || !*sys->name)
		return s->cache_only ? SINK_NEEDS_DB :
				       ab_fail(err, AB_EDATA, "run without a system name");
	if (s->last_system.len && !strcmp(s->last_system.buf, sys->name)) {
		*id = s->last_system_id;
		return 0;
	}
	/* the accelerator the tool named, else the system's name, else (for a
	 * CPU-only system whose accelerator is "N/A") its host CPU */
	if (!vendor && (db_normalize_accelerator(accel, &acc) == 0 ||
			db_normalize_accel(sys->name, &acc) == 0 ||
			db_normalize_accel(sys->host_cpu, &acc) == 0)) {
		vendor = acc.vendor;
		accel = acc.accelerator;
		if (!per_node)
			per_node = acc.per_node;
	}
	meta = sys->meta_json ? NULL : json_text(s, sys->meta);
	strbuf_reset(&s->upin);
	upin_text(&s->upin, sys->display_name);
	upin_text(&s->upin, vendor);
	upin_text(&s->upin, accel);
	strbuf_add(&s->upin, &per_node, sizeof(per_node));
	upin_text(&s->upin, sys->host_cpu);
	upin_text(&s->upin, sys->interconnect);
	upin_text(&s->upin, sys->site);
	strbuf_add(&s->upin, &tdp, sizeof(tdp));
	upin_text(&s->upin, sys->meta_json ? sys->meta_json : meta);
	name_len = strlen(sys->name);
	h = memo_hash(sys->name, name_len);
	memo = memo_find(s->sys_memo, h, sys->name, name_len);
	if (memo_fixed(memo, &s->upin)) {
		*id = memo->id;
		free(meta);
		goto done;
	}
	if (s->cache_only) {
		free(meta);
		return SINK_NEEDS_DB;
	}
	rc = stmt(s, ST_UPSERT_SYSTEM, &st, err);
	if (rc < 0) {
		free(meta);
		return rc;
	}
	db_bind_text(st, 1, sys->name);
	db_bind_text(st, 2, sys->display_name);
	db_bind_text(st, 3, vendor);
	db_bind_text(st, 4, accel);
	db_bind_pos(st, 5, per_node);
	db_bind_text(st, 6, sys->host_cpu);
	db_bind_text(st, 7, sys->interconnect);
	db_bind_text(st, 8, sys->site);
	if (tdp > 0)
		sqlite3_bind_double(st, 9, tdp);
	db_bind_text(st, 10, sys->meta_json ? sys->meta_json : meta);
	rc = step(s, st, id, err, "cannot add system");
	free(meta);
	if (rc < 0)
		return rc;
	memo_note(s->sys_memo, &s->sys_memo_next, memo, h, sys->name, name_len, &s->upin, *id);
done:
	strbuf_setstr(&s->last_system, sys->name);
	s->last_system_id = *id;
	return 0;
}

static int bench_id(struct db_sink_state *s, const struct ingest_run *r, int64_t *id,
		    struct strbuf *err)
{
	struct db_upsert_memo *memo;
	sqlite3_stmt *st;
	uint64_t h;
	int rc;

	if (!r->suite || !r->benchmark || !r->bench_metric || !r->bench_unit)
		return s->cache_only ? SINK_NEEDS_DB :
				       ab_fail(err, AB_EINTERNAL,
					       "run without suite, benchmark or headline metric");
	if (s->last_bench.len && !strncmp(s->last_bench.buf, r->suite, strlen(r->suite)) &&
	    s->last_bench.buf[strlen(r->suite)] == '\n' &&
	    !strcmp(s->last_bench.buf + strlen(r->suite) + 1, r->benchmark)) {
		*id = s->last_bench_id;
		return 0;
	}
	strbuf_reset(&s->last_bench);
	strbuf_addstr(&s->last_bench, r->suite);
	strbuf_addch(&s->last_bench, '\n');
	strbuf_addstr(&s->last_bench, r->benchmark);
	strbuf_reset(&s->upin);
	upin_text(&s->upin, r->bench_metric);
	upin_text(&s->upin, r->bench_unit);
	upin_text(&s->upin, r->lower_is_better ? "lower" : "higher");
	h = memo_hash(s->last_bench.buf, s->last_bench.len);
	memo = memo_find(s->bench_memo, h, s->last_bench.buf, s->last_bench.len);
	if (memo_fixed(memo, &s->upin)) {
		*id = s->last_bench_id = memo->id;
		return 0;
	}
	/* last_bench names this benchmark once its id is known */
	strbuf_reset(&s->last_bench);
	if (s->cache_only)
		return SINK_NEEDS_DB;
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
	strbuf_addstr(&s->last_bench, r->suite);
	strbuf_addch(&s->last_bench, '\n');
	strbuf_addstr(&s->last_bench, r->benchmark);
	memo_note(s->bench_memo, &s->bench_memo_next, memo, h, s->last_bench.buf, s->last_bench.len,
		  &s->upin, *id);
	s->last_bench_id = *id;
	return 0;
}

/* The id of an interned row: from the cache, else found or added with the
 * find/add statements, whose parameters bind() sets. */
static int intern_id(struct db_sink_state *s, struct db_intern *cache, const char *key,
		     size_t len, int find, int add,
		     void (*bind)(sqlite3_stmt *st, const void *arg), const void *arg,
		     int inline_first, int64_t *id, struct strbuf *err)
{
	uint64_t h = (uint64_t)db_hash64(key, len);
	sqlite3_stmt *st;
	int rc;

	*id = db_intern_get(cache, h, key, len);
	if (*id > 0)
		return 0;
	if (*id == 0 && inline_first) {
		/* met for the first time: stored inline; interned when it comes back */
		db_intern_set(cache, h, key, len, DB_INTERN_SEEN);
		*id = 0;
		return 0;
	}
	if (s->cache_only)
		return SINK_NEEDS_DB;
	rc = stmt(s, find, &st, err);
	if (rc < 0)
		return rc;
	bind(st, arg);
	rc = step(s, st, id, err, "cannot look up an interned value");
	if (rc < 0)
		return rc;
	if (rc == 0) {
		rc = stmt(s, add, &st, err);
		if (rc < 0)
			return rc;
		bind(st, arg);
		rc = step(s, st, NULL, err, "cannot add an interned value");
		if (rc < 0)
			return rc;
		*id = sqlite3_last_insert_rowid(s->db->sql);
		s->interned_new = 1;
	}
	db_intern_set(cache, h, key, len, *id);
	return 0;
}

struct text_arg {
	const char *text;
	size_t len;
};

static void bind_set(sqlite3_stmt *st, const void *arg)
{
	const struct text_arg *p = arg;

	sqlite3_bind_int64(st, 1, db_hash64(p->text, p->len));
	sqlite3_bind_text(st, 2, p->text, (int)p->len, SQLITE_STATIC);
}

static void bind_device(sqlite3_stmt *st, const void *arg)
{
	const struct text_arg *p = arg;

	sqlite3_bind_text(st, 1, p->text, (int)p->len, SQLITE_STATIC);
}

struct kind_arg {
	const char *name, *unit, *meta;
};

static void bind_kind(sqlite3_stmt *st, const void *arg)
{
	const struct kind_arg *k = arg;

	sqlite3_bind_text(st, 1, k->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, k->unit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, k->meta, -1, SQLITE_STATIC);
}

/* Append one "key":value pair to an object text being built ("{" so far). */
static void add_pair(struct strbuf *obj, const char *kv, size_t len)
{
	if (obj->len > 1)
		strbuf_addch(obj, ',');
	strbuf_add(obj, kv, len);
}

/* Where the pair that starts at json[i] ends: the ',' after it outside
 * strings and nested values, or n - 1 (the closing brace).  Strings are
 * skipped with memchr: most of params is string bytes. */
static size_t pair_end(const char *json, size_t i, size_t n)
{
	int depth = 0;

	while (i < n - 1) {
		char c = json[i];

		if (c == '"') {
			for (;;) { /* to the quote that is not escaped */
				const char *q = memchr(json + i + 1, '"', n - 2 - i);
				size_t b = 0;

				if (!q)
					return n - 1;
				i = (size_t)(q - json);
				while (json[i - 1 - b] == '\\')
					b++;
				if (!(b & 1))
					break;
			}
		} else if (c == '{' || c == '[') {
			depth++;
		} else if ((c == '}' || c == ']') && depth > 0) {
			depth--;
		} else if (c == ',' && depth == 0) {
			return i;
		}
		i++;
	}
	return n - 1;
}

/*
 * params as stored: the pairs runs share, interned as one object text in
 * param_set (run_data.set_id), and the run's own pairs as object text
 * (run_data.params, NULL when none).  A "key":value pair is the run's own
 * the first time the sink meets it and shared when it comes back, so
 * values unique to one run (a node list, a job's hash) never make a set
 * of their own, while the test's description, its parameters and the
 * like are stored once.  The view `run` concatenates the set's pairs and
 * the run's.  Pairs are split from the compact JSON at the commas outside
 * strings and nested values.  This half needs no database: prepare()
 * does it (on the parsing thread when the ingest pipeline runs); the
 * pairs met so far are prepare()'s alone and are never forgotten, so the
 * split is the same whichever thread makes it.  Fills p->own and
 * p->shared ("" when none); -1 when json is not an object.  ends (NULL: not
 * given) are where the writer of json says its nends pairs end
 * (ingest_run.params_pair_ends): used when they fit, else found here.
 */
static int params_split(struct db_sink_prep *p, const char *json, size_t n, const uint32_t *ends,
			size_t nends)
{
	size_t i, start, np = 0, k;

	strbuf_setstr(&p->own, "{");
	strbuf_setstr(&p->shared, "{");
	if (n < 2 || json[0] != '{' || json[n - 1] != '}')
		return -1;
	/* first the pairs, and where the cache will look for those that are
	 * not as in the run before (the lookups' cache misses overlap).  The
	 * ends given are checked on the way (each after its pair's first
	 * byte, at a ',', the last at the closing '}' that ends json, as many
	 * as the pairs):
	 * at the first that is not, the pairs are found here instead */
again:
	for (start = 1; start < n - 1; start = i + 1) {
		struct db_pair_pos *cp;
		const char *kv;
		size_t len;

		if (ends) {
			i = np < nends ? ends[np] : 0;
			if (i <= start || i >= n ||
			    (np + 1 == nends ? i != n - 1 : json[i] != ',')) {
				ends = NULL;
				np = 0;
				goto again;
			}
		} else {
			i = pair_end(json, start, n);
		}
		kv = json + start;
		len = i - start;
		if (np == p->cap_pairs) {
			p->cap_pairs = p->cap_pairs ? 2 * p->cap_pairs : 32;
			p->cur_pair = ab_realloc(p->cur_pair, p->cap_pairs * sizeof(*p->cur_pair));
			p->prev_pair = ab_realloc(p->prev_pair, p->cap_pairs * sizeof(*p->prev_pair));
		}
		cp = &p->cur_pair[np];
		cp->off = start;
		cp->len = len;
		/* as in the run before (a test's runs come together): met
		 * before, no need to ask the cache */
		cp->same = np < p->nprev && p->prev_pair[np].len == len &&
			   ab_memeq(p->prev.buf + p->prev_pair[np].off, kv, len);
		cp->h = 0;
		if (!cp->same) {
			cp->h = (uint64_t)db_hash64(kv, len);
			db_intern_prefetch(&p->pairs, cp->h);
		}
		np++;
	}
	if (ends && np != nends) { /* "{}" with ends of pairs, or pairs left over */
		ends = NULL;
		np = 0;
		goto again;
	}
	for (k = 0; k < np; k++) {
		struct db_pair_pos *cp = &p->cur_pair[k];
		const char *kv = json + cp->off;

		if (!cp->same &&
		    !db_intern_get_or_set(&p->pairs, cp->h, kv, cp->len, DB_INTERN_SEEN)) {
			cp->own = 1;
		} else {
			cp->own = 0;
		}
	}
	/* pairs next to each other in json and on the same side are one piece
	 * of text there (with their commas): copied at once (an empty pair,
	 * only in text that is not JSON, goes alone as add_pair has it) */
	for (k = 0; k < np;) {
		const struct db_pair_pos *cp = &p->cur_pair[k];
		size_t j = k + 1;

		while (j < np && cp->len && p->cur_pair[j].len && p->cur_pair[j].own == cp->own)
			j++;
		add_pair(cp->own ? &p->own : &p->shared, json + cp->off,
			 p->cur_pair[j - 1].off + p->cur_pair[j - 1].len - cp->off);
		k = j;
	}
	{	/* this run's pairs are the next run's "before" */
		struct db_pair_pos *t = p->prev_pair;
		p->prev_pair = p->cur_pair;
		p->cur_pair = t;
		p->nprev = np;
		strbuf_reset(&p->prev);
		strbuf_add(&p->prev, json, n);
	}
	if (p->shared.len > 1)
		strbuf_addch(&p->shared, '}');
	else
		strbuf_reset(&p->shared);
	if (p->own.len > 1)
		strbuf_addch(&p->own, '}');
	else
		strbuf_reset(&p->own);
	return 0;
}

/* The param set of shared pairs (text[0..len), len 0: none): the run
 * before's, else interned.  Sets *set_id (0: none). */
static int params_set(struct db_sink_state *s, const char *text, size_t len, int64_t *set_id,
		      struct strbuf *err)
{
	struct text_arg t;
	int rc;

	*set_id = 0;
	if (!len)
		return 0;
	t.text = text;
	t.len = len;
	if (s->prev_set_id > 0 && s->prev_shared.len == t.len &&
	    !memcmp(s->prev_shared.buf, t.text, t.len)) {
		*set_id = s->prev_set_id;
		return 0;
	}
	rc = intern_id(s, &s->sets, t.text, t.len, ST_FIND_SET, ST_ADD_SET, bind_set, &t, 0, set_id,
		       err);
	if (rc != 0)
		return rc;
	s->prev_set_id = *set_id;
	strbuf_reset(&s->prev_shared);
	strbuf_add(&s->prev_shared, t.text, t.len);
	return 0;
}

/* k is the kind whose key (name \0 unit \0 meta, as kind_id() builds it)
 * is key, its unit at unit_at and its meta at meta_at: each part compared
 * in place to its NUL (most metrics are the run before's) */
static int kind_key_is(const char *key, size_t unit_at, size_t meta_at, const struct kind_arg *k)
{
	return !strcmp(key, k->name) && !strcmp(key + unit_at, k->unit) &&
	       !strcmp(key + meta_at, k->meta);
}

static int kind_id(struct db_sink_state *s, size_t i, const struct ingest_metric *m,
		   const char *meta_json, int64_t *id, struct strbuf *err)
{
	struct kind_arg k;
	char *meta = meta_json ? NULL : json_text(s, m->meta);
	size_t unit_at, meta_at;
	int rc;

	k.name = m->name;
	k.unit = m->unit ? m->unit : "";
	k.meta = meta_json ? meta_json : meta ? meta : "";
	if (i < AB_ARRAY_SIZE(s->prev_kind) && s->prev_kind[i].id > 0 &&
	    kind_key_is(s->prev_kind[i].key.buf, s->prev_kind[i].unit_at, s->prev_kind[i].meta_at,
			&k)) {
		/* the same kind as the run before's metric i */
		*id = s->prev_kind[i].id;
		free(meta);
		return 0;
	}
	strbuf_reset(&s->kbuf);
	strbuf_add(&s->kbuf, k.name, strlen(k.name) + 1);
	unit_at = s->kbuf.len;
	strbuf_add(&s->kbuf, k.unit, strlen(k.unit) + 1);
	meta_at = s->kbuf.len;
	strbuf_addstr(&s->kbuf, k.meta);
	{	/* a kind added here goes again if its run is a duplicate
		 * (drop_new_kinds); interned_new is the param set's */
		int was_new = s->interned_new;

		s->interned_new = 0;
		rc = intern_id(s, &s->kinds, s->kbuf.buf, s->kbuf.len, ST_FIND_KIND, ST_ADD_KIND,
			       bind_kind, &k, 0, id, err);
		if (rc == 0 && s->interned_new) {
			if (s->nnew_kinds == s->cap_new_kinds) {
				s->cap_new_kinds = 2 * s->cap_new_kinds + 8;
				s->new_kinds = ab_realloc(s->new_kinds,
							  s->cap_new_kinds * sizeof(*s->new_kinds));
			}
			s->new_kinds[s->nnew_kinds++] = *id;
		}
		s->interned_new = was_new;
	}
	if (rc == 0 && i < AB_ARRAY_SIZE(s->prev_kind)) {
		strbuf_reset(&s->prev_kind[i].key);
		strbuf_addbuf(&s->prev_kind[i].key, &s->kbuf);
		s->prev_kind[i].unit_at = unit_at;
		s->prev_kind[i].meta_at = meta_at;
		s->prev_kind[i].id = *id;
	}
	free(meta);
	return rc;
}

/* 32 lowercase hex digits (what the view `run` shows as dedupe_key) into
 * the 16 bytes they spell; 0 when s is anything else (a parser's key). */
static int key_from_hex(const char *s, unsigned char out[16])
{
	size_t i;

	if (strlen(s) != 32)
		return 0;
	for (i = 0; i < 32; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	for (i = 0; i < 16; i++) {
		int hi = s[2 * i] <= '9' ? s[2 * i] - '0' : s[2 * i] - 'a' + 10;
		int lo = s[2 * i + 1] <= '9' ? s[2 * i + 1] - '0' : s[2 * i + 1] - 'a' + 10;
		out[i] = (unsigned char)(hi * 16 + lo);
	}
	return 1;
}

/* A run turned out a duplicate (not stored): the param set made for it
 * alone goes again, so no unused set stays. */
static int drop_new_set(struct db_sink_state *s, int64_t set_id, const char *shared, size_t len,
			struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc;

	if (set_id <= 0 || !s->interned_new)
		return 0;
	rc = stmt(s, ST_DROP_SET, &st, err);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, set_id);
	if (sqlite3_step(st) != SQLITE_DONE)
		return db_fail(s->db, err, "cannot drop an unused param set");
	db_intern_set(&s->sets, (uint64_t)db_hash64(shared, len), shared, len, 0);
	s->prev_set_id = 0;
	return 0;
}

/*
 * What a run measured, for telling two runs of one dedupe key apart: its
 * metrics as "name=value" with 12 significant digits, sorted by name.
 * Twelve digits absorb a value written as text by one tool and as JSON by
 * another; a different measurement differs far earlier.
 */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void measured_text(struct strbuf *out, char **items, size_t n)
{
	size_t i;

	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(items, n, sizeof(*items), cmp_str);
	strbuf_reset(out);
	for (i = 0; i < n; i++) {
		strbuf_addstr(out, items[i]);
		strbuf_addch(out, '\x1f');
		free(items[i]);
	}
}

static char *measured_item(const char *name, double v)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s=%.12g", name, v);
	return strbuf_detach(&sb, NULL);
}

/* The name of metric kind id ("" when none). */
static int kind_name(struct db_sink_state *s, int64_t id, struct strbuf *out, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc = stmt(s, ST_KIND_NAME, &st, err);

	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	strbuf_reset(out);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_text(st, 0))
		strbuf_addstr(out, (const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(s->db, err, "cannot look up a metric kind");
	return 0;
}

static int stored_measured(struct db_sink_state *s, const unsigned char key[16], int64_t b_id,
			   int64_t sys_id, int64_t korder, struct strbuf *out, struct strbuf *err)
{
	struct strbuf packed = STRBUF_INIT, name = STRBUF_INIT;
	sqlite3_stmt *st;
	char **items = NULL;
	size_t n = 0, cap = 0;
	const char *p;
	int64_t kind;
	double v;
	int rc = stmt(s, ST_FIND_MEASURED, &st, err);

	if (rc < 0)
		return rc;
	sqlite3_bind_blob(st, 1, key, 16, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, b_id);
	sqlite3_bind_int64(st, 3, sys_id);
	sqlite3_bind_int64(st, 4, korder);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_text(st, 0))
		strbuf_addstr(&packed, (const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		strbuf_release(&packed);
		return db_fail(s->db, err, "cannot look up a stored run");
	}
	rc = 0;
	for (p = packed.len ? packed.buf : NULL; rc == 0 && db_metrics_next(&p, &kind, &v) > 0;) {
		rc = kind_name(s, kind, &name, err);
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			items = ab_realloc(items, cap * sizeof(*items));
		}
		items[n++] = measured_item(name.buf, v);
	}
	measured_text(out, items, n);
	free(items);
	strbuf_release(&packed);
	strbuf_release(&name);
	return rc;
}

/*
 * A dedupe key names a run (test, system, time or job, ...); the same run
 * read again (a grown perflog, its report, results.db, a pull) measured the
 * same and is a duplicate.  Another measurement under the same key (two
 * simulated campaigns, a hand-edited table) is another run: keeping
 * whichever came first would make the database depend on ingest order, so
 * it is stored under a key of its own, derived from the key and what it
 * measured.  0: try that key (now in key), 1: a duplicate.
 */
static int dedupe_variant(struct db_sink_state *s, const struct ingest_run *r, unsigned char key[16],
			  int64_t b_id, int64_t sys_id, int64_t korder, struct strbuf *err)
{
	struct strbuf stored = STRBUF_INIT, mine = STRBUF_INIT;
	char **items = ab_calloc(r->nmetrics + 1, sizeof(*items));
	size_t i, n = 0;
	int rc;
	char hex[33];

	for (i = 0; i < r->nmetrics; i++)
		if (isfinite(r->metrics[i].value)) /* what the sink stores */
			items[n++] = measured_item(r->metrics[i].name, r->metrics[i].value);
	measured_text(&mine, items, n);
	free(items);
	rc = stored_measured(s, key, b_id, sys_id, korder, &stored, err);
	if (rc == 0 && !strcmp(stored.buf, mine.buf))
		rc = 1;
	if (rc == 0) {
		for (i = 0; i < 16; i++)
			snprintf(hex + 2 * i, 3, "%02x", key[i]);
		strbuf_reset(&stored);
		strbuf_addf(&stored, "%s\x1fmeasured\x1f%s", hex, mine.buf);
		db_key16(&s->fresh, stored.buf, stored.len, key);
	}
	strbuf_release(&stored);
	strbuf_release(&mine);
	return rc;
}

/*
 * What prepare() hands run(): a header, then the run's own params text and
 * the shared pairs' text (params_split), without their NULs, the reason
 * when invalid, then each metric's value as run_data.metrics writes it
 * (db_metrics_number: formatting numbers is the parsing thread's work),
 * a length byte and the text, an empty text for a value not stored.
 */
enum { PREP_OK = 0, PREP_NOT_OBJECT = 1, PREP_NOT_ENCODED = 2 };
struct prep_head {
	uint32_t own_len, shared_len;
	uint32_t reason_len;    /* validate_run() found it impossible: why (after shared) */
	unsigned char invalid;
	unsigned char status;   /* PREP_* */
	unsigned char has_key;  /* PREP_KEY: key is the run's dedupe key, hashed */
	unsigned char key[16];
	int64_t korder;         /* db_key_order() of the key's text; -1: came hashed */
};
enum { PREP_NO_KEY = 0, PREP_KEY = 1, PREP_KEY_PENDING = 2 /* not hashed yet */ };

/* a call meets at most SHA256_LANES_MAX new first blocks: none may
 * replace another of the same call, and a bit each marks them */
_Static_assert(DB_KEY16_MEMO >= SHA256_LANES_MAX && DB_KEY16_MEMO <= 32,
	       "db_key16_memo: one entry per lane, a bit each");

/* The memo entry whose first block is s[0..64), or DB_KEY16_MEMO. */
static unsigned key16_memo_find(struct db_key16_memo *m, const char *s)
{
	unsigned e;

	if (m->last < m->n && !memcmp(m->first[m->last], s, 64))
		return m->last;
	for (e = 0; e < m->n; e++)
		if (e != m->last && !memcmp(m->first[e], s, 64))
			return m->last = e;
	return DB_KEY16_MEMO;
}

void db_key16_many(const struct sha256 *fresh, const char *const s[], const size_t len[],
		   size_t n, unsigned char (*out)[16], struct strbuf *pad,
		   struct db_key16_memo *memo)
{
	struct sha256 c[SHA256_LANES_MAX], *cp[SHA256_LANES_MAX];
	const unsigned char *dp[SHA256_LANES_MAX];
	size_t nb[SHA256_LANES_MAX], off[SHA256_LANES_MAX], ord[SHA256_LANES_MAX];
	size_t skip[SHA256_LANES_MAX];
	size_t i, k, done, first, at;

	while (n > SHA256_LANES_MAX) {
		db_key16_many(fresh, s, len, SHA256_LANES_MAX, out, pad, memo);
		s += SHA256_LANES_MAX;
		len += SHA256_LANES_MAX;
		out += SHA256_LANES_MAX;
		n -= SHA256_LANES_MAX;
	}
	if (n < 2 || sha256_lanes(fresh) < 2) {
		for (i = 0; i < n; i++)
			db_key16(fresh, s[i], len[i], out[i]);
		return;
	}
	for (i = 0; i < n; i++) {
		c[i] = *fresh;
		skip[i] = 0;
	}
	if (memo) {
		/* a first block met before starts from its state; the new ones
		 * are hashed first, side by side, and remembered (at most
		 * SHA256_LANES_MAX new ones here: none replaces another) */
		struct sha256 *np[SHA256_LANES_MAX];
		const unsigned char *nd[SHA256_LANES_MAX];
		unsigned pend[SHA256_LANES_MAX], e;
		uint32_t pending = 0;
		size_t nnew = 0;

		for (i = 0; i < n; i++) {
			pend[i] = DB_KEY16_MEMO;
			if (len[i] < 64)
				continue;
			e = key16_memo_find(memo, s[i]);
			if (e == DB_KEY16_MEMO) {
				e = memo->next;
				memo->next = (memo->next + 1) % DB_KEY16_MEMO;
				if (memo->n < DB_KEY16_MEMO)
					memo->n++;
				memcpy(memo->first[e], s[i], 64);
				memo->mid[e] = *fresh;
				np[nnew] = &memo->mid[e];
				nd[nnew++] = (const unsigned char *)s[i];
				pending |= (uint32_t)1 << e;
				memo->last = e;
			}
			if (pending & ((uint32_t)1 << e))
				pend[i] = e;
			else
				c[i] = memo->mid[e];
			skip[i] = 64;
		}
		sha256_update_blocks(np, nd, nnew, 1);
		for (i = 0; i < n; i++)
			if (pend[i] != DB_KEY16_MEMO)
				c[i] = memo->mid[pend[i]];
	}
	/* each message padded as sha256_final pads it: 0x80, zeros, its
	 * length in bits (big-endian) at the end of its last block; the
	 * blocks from skip[i] on */
	strbuf_reset(pad);
	for (i = 0; i < n; i++) {
		uint64_t bits = (uint64_t)len[i] * 8;
		size_t rest = len[i] - skip[i];
		unsigned char *b;

		nb[i] = (rest + 9 + 63) / 64;
		off[i] = pad->len;
		strbuf_grow(pad, 64 * nb[i]);
		b = (unsigned char *)pad->buf + pad->len;
		memcpy(b, s[i] + skip[i], rest);
		b[rest] = 0x80;
		memset(b + rest + 1, 0, 64 * nb[i] - rest - 1);
		for (k = 0; k < 8; k++)
			b[64 * nb[i] - 1 - k] = (unsigned char)(bits >> (8 * k));
		strbuf_setlen(pad, pad->len + 64 * nb[i]);
	}
	/* shortest first: the blocks all still running have in common go
	 * through the lanes together, then the finished ones drop out */
	for (i = 0; i < n; i++) {
		for (k = i; k > 0 && nb[ord[k - 1]] > nb[i]; k--)
			ord[k] = ord[k - 1];
		ord[k] = i;
	}
	for (done = 0, first = 0; first < n;) {
		size_t m = nb[ord[first]] - done;

		for (k = first, at = 0; k < n; k++, at++) {
			cp[at] = &c[ord[k]];
			dp[at] = (const unsigned char *)pad->buf + off[ord[k]] + 64 * done;
		}
		sha256_update_blocks(cp, dp, at, m);
		done += m;
		while (first < n && nb[ord[first]] == done)
			first++;
	}
	/* the first 16 bytes of each digest: four words, big-endian (a loop
	 * of shifts per byte cost ~200 instructions a key) */
	for (i = 0; i < n; i++) {
		for (k = 0; k < 4; k++) {
			uint32_t w = c[i].h[k];
			out[i][4 * k] = (unsigned char)(w >> 24);
			out[i][4 * k + 1] = (unsigned char)(w >> 16);
			out[i][4 * k + 2] = (unsigned char)(w >> 8);
			out[i][4 * k + 3] = (unsigned char)w;
		}
	}
}

/* The dedupe keys prepare() left pending, hashed side by side. */
static void sink_prepare_keys(void *self, const struct ingest_run *const runs[],
			      void *const prepared[], size_t n)
{
	struct db_sink_prep *p = &((struct db_sink_state *)self)->prep;
	const char *keys[SHA256_LANES_MAX];
	size_t lens[SHA256_LANES_MAX], at[SHA256_LANES_MAX], i, m = 0, k;
	unsigned char out[SHA256_LANES_MAX][16];
	struct prep_head h;

	for (i = 0; i <= n; i++) {
		if (i < n) {
			memcpy(&h, prepared[i], sizeof(h));
			if (h.has_key != PREP_KEY_PENDING)
				continue;
			keys[m] = runs[i]->dedupe_key;
			lens[m] = strlen(keys[m]);
			at[m++] = i;
		}
		if (m == SHA256_LANES_MAX || (i == n && m)) {
			db_key16_many(&p->fresh, keys, lens, m, out, &p->kpad, &p->kmemo);
			for (k = 0; k < m; k++) {
				unsigned char *d = prepared[at[k]];
				memcpy(&h, d, sizeof(h));
				h.has_key = PREP_KEY;
				memcpy(h.key, out[k], sizeof(h.key));
				memcpy(d, &h, sizeof(h));
			}
			m = 0;
		}
	}
}

/* A pre-split half of params into sb: nothing when NULL or "{}"; -1 when
 * not an object text. */
static int presplit_add(struct strbuf *sb, const char *obj)
{
	size_t n = obj ? strlen(obj) : 0;

	if (n <= 2 && (!n || !strcmp(obj, "{}")))
		return 0;
	if (n < 2 || obj[0] != '{' || obj[n - 1] != '}')
		return -1;
	strbuf_add(sb, obj, n);
	return 0;
}

static void sink_prepare(void *self, const struct ingest_run *r, struct strbuf *out)
{
	struct db_sink_prep *p = &((struct db_sink_state *)self)->prep;
	const struct ingest_run *vr;
	struct prep_head h;

	memset(&h, 0, sizeof(h));
	strbuf_reset(&p->own);
	strbuf_reset(&p->shared);
	if (r->params_presplit) {
		/* the split made elsewhere (pull: the store's): stored as it is,
		 * so the view `run` shows the store's params text exactly */
		if (presplit_add(&p->shared, r->params_shared) < 0 ||
		    presplit_add(&p->own, r->params_own) < 0)
			h.status = PREP_NOT_OBJECT;
	} else if (r->params_json) {
		size_t n = r->params_json_len ? r->params_json_len : strlen(r->params_json);

		if (params_split(p, r->params_json, n, r->params_pair_ends, r->params_npairs) < 0)
			h.status = PREP_NOT_OBJECT;
	} else if (r->params) {
		strbuf_reset(&p->text);
		if (ingest_jtext_add(&p->jt, &p->text, r->params) < 0)
			h.status = PREP_NOT_ENCODED;
		else if (params_split(p, p->text.buf, p->text.len, NULL, 0) < 0)
			h.status = PREP_NOT_OBJECT;
	}
	if (h.status != PREP_OK) {
		strbuf_reset(&p->own);
		strbuf_reset(&p->shared);
	}
	if (r->dedupe_key) {
		/* a key read back from the view `run` (pull) is the hash itself;
		 * else its hash is left to prepare_keys() (many at once), or to
		 * run_resolve() when nobody calls that */
		h.has_key = key_from_hex(r->dedupe_key, h.key) ? PREP_KEY : PREP_KEY_PENDING;
		h.korder = h.has_key == PREP_KEY ? -1 :
			   db_key_order(r->dedupe_key, strlen(r->dedupe_key));
	}
	/* impossible values: stored `invalid` with the reason */
	vr = validate_run(r, &p->vr);
	if (vr != r) {
		h.invalid = 1;
		h.reason_len = (uint32_t)strlen(vr->excluded_reason);
	}
	h.own_len = (uint32_t)p->own.len;
	h.shared_len = (uint32_t)p->shared.len;
	strbuf_add(out, &h, sizeof(h));
	strbuf_addbuf(out, &p->own);
	strbuf_addbuf(out, &p->shared);
	if (h.invalid)
		strbuf_add(out, vr->excluded_reason, h.reason_len);
	{
		size_t i;

		for (i = 0; i < r->nmetrics; i++) {
			size_t at = out->len;

			strbuf_addch(out, '\0');
			if (isfinite(r->metrics[i].value)) {
				double v = r->metrics[i].value;
				uint64_t bits;
				struct db_num_memo *e;

				memcpy(&bits, &v, sizeof(bits));
				e = &p->num[(bits * 0x9e3779b97f4a7c15ull) >> 58];
				if (e->len && e->bits == bits) {
					strbuf_add(out, e->text, e->len);
				} else {
					db_metrics_number(out, v);
					if (out->len - at - 1 <= sizeof(e->text)) {
						e->bits = bits;
						e->len = (unsigned char)(out->len - at - 1);
						memcpy(e->text, out->buf + at + 1, e->len);
					}
				}
				out->buf[at] = (char)(unsigned char)(out->len - at - 1);
			}
		}
	}
}

/*
 * Binding a parameter costs as much as a row's own work in SQLite; the
 * batch statements (st_runs, ST_ADD_POWER_BATCH) are reset and never
 * cleared, and sqlite3_reset() keeps what is bound, so an integer, a real
 * or NULL bound at the same place the time before (the source's id, the
 * system, a column a parser never fills) is not bound again.  b (NULL: no
 * memory, bind everything) says what each parameter holds (struct
 * db_bound); text and blobs are always bound: the bytes bound before may
 * be gone.
 */
static void bind_i64(sqlite3_stmt *st, struct db_bound *b, int idx, int64_t v)
{
	if (b) {
		struct db_bound *e = &b[idx - 1];

		if (e->kind == DB_BOUND_INT && e->v == v)
			return;
		e->kind = DB_BOUND_INT;
		e->v = v;
	}
	sqlite3_bind_int64(st, idx, v);
}

static void bind_real(sqlite3_stmt *st, struct db_bound *b, int idx, double v)
{
	if (b) {
		struct db_bound *e = &b[idx - 1];
		int64_t bits;

		memcpy(&bits, &v, sizeof(bits)); /* the same bits: -0.0 is not 0.0 */
		if (e->kind == DB_BOUND_REAL && e->v == bits)
			return;
		e->kind = DB_BOUND_REAL;
		e->v = bits;
	}
	sqlite3_bind_double(st, idx, v);
}

static void bind_null(sqlite3_stmt *st, struct db_bound *b, int idx)
{
	if (b) {
		if (b[idx - 1].kind == DB_BOUND_NULL)
			return;
		b[idx - 1].kind = DB_BOUND_NULL;
	}
	sqlite3_bind_null(st, idx);
}

/* Text that stays put until the statement has run (no copy), NULL when s
 * is NULL. */
static void bind_static(sqlite3_stmt *st, struct db_bound *b, int idx, const char *s)
{
	if (!s) {
		bind_null(st, b, idx);
		return;
	}
	if (b)
		b[idx - 1].kind = DB_BOUND_OTHER;
	sqlite3_bind_text(st, idx, s, -1, SQLITE_STATIC);
}

static void bind_static_len(sqlite3_stmt *st, struct db_bound *b, int idx, const char *s,
			    size_t len)
{
	if (b)
		b[idx - 1].kind = DB_BOUND_OTHER;
	sqlite3_bind_text(st, idx, s, (int)len, SQLITE_STATIC);
}

/* A positive long, NULL when <= 0 (db_bind_pos). */
static void bind_pos(sqlite3_stmt *st, struct db_bound *b, int idx, long v)
{
	if (v <= 0)
		bind_null(st, b, idx);
	else
		bind_i64(st, b, idx, v);
}

/*
 * Everything of run *rp up to its INSERT: the ids of its system, benchmark
 * and param set, its seq, its own params and key, into row.  An impossible
 * value makes *rp point to a copy marked invalid (in vr).  With
 * s->cache_only, a run the caches cannot resolve (or that would fail)
 * returns SINK_NEEDS_DB having changed only what resolving it through
 * run() would change the same way (cache hits): run() then does it all.
 */
/*
 * The korder a keyed run of (b_id, sys_id) is stored with (schema 11),
 * korder being its key's (-1: unknown, a key that came hashed, as a pull
 * brings them).  Two rows with the same key must have the same korder for
 * the index to find the second: a (benchmark, system) is "ordered" while
 * none of its keyed rows has -1 (each has its key's own korder), else
 * "unordered" (all have -1, as rows from before schema 11 do).  A run of
 * unknown korder makes an ordered one unordered: its rows get -1 first.
 * The mode is remembered (groups; forget_interned() empties it when rows
 * may have changed under us); a miss needs the database.
 */
enum { GROUP_ORDERED = 1, GROUP_UNORDERED = 2 };

/* (b_id, sys_id) as the groups memo's key */
static uint64_t group_key(int64_t gk[2], int64_t b_id, int64_t sys_id)
{
	gk[0] = b_id;
	gk[1] = sys_id;
	return (uint64_t)db_hash64((const char *)gk, 2 * sizeof(*gk));
}

/* Remember (b_id, sys_id)'s mode. */
static void group_note(struct db_sink_state *s, int64_t b_id, int64_t sys_id, int mode)
{
	int64_t gk[2];
	uint64_t h = group_key(gk, b_id, sys_id);

	db_intern_set(&s->groups, h, (const char *)gk, sizeof(gk), mode);
	s->last_group.b_id = b_id;
	s->last_group.sys_id = sys_id;
	s->last_group.mode = mode;
}

/* One of group_korder()'s statements for (b_id, sys_id): 1 a row, 0 none. */
static int group_step(struct db_sink_state *s, int which, int64_t b_id, int64_t sys_id,
		      const char *what, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc = stmt(s, which, &st, err);

	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, b_id);
	sqlite3_bind_int64(st, 2, sys_id);
	return step(s, st, NULL, err, what);
}

static int group_korder(struct db_sink_state *s, int64_t b_id, int64_t sys_id, int64_t korder,
			int64_t *out, struct strbuf *err)
{
	int64_t gk[2], mode;
	int rc;

	if (s->last_group.mode && s->last_group.b_id == b_id && s->last_group.sys_id == sys_id) {
		mode = s->last_group.mode;
	} else {
		uint64_t h = group_key(gk, b_id, sys_id);

		mode = db_intern_get(&s->groups, h, (const char *)gk, sizeof(gk));
		if (mode != GROUP_ORDERED && mode != GROUP_UNORDERED) {
			if (s->cache_only)
				return SINK_NEEDS_DB;
			rc = group_step(s, ST_GROUP_UNORDERED, b_id, sys_id,
					"cannot look up the run index", err);
			if (rc < 0)
				return rc;
			mode = rc == 1 ? GROUP_UNORDERED : GROUP_ORDERED;
		}
		group_note(s, b_id, sys_id, (int)mode);
	}
	if (mode == GROUP_ORDERED && korder < 0) {
		/* run_many stored the runs waiting before it asks run() */
		if (s->cache_only)
			return SINK_NEEDS_DB;
		rc = group_step(s, ST_UNORDER_GROUP, b_id, sys_id, "cannot reorder the run index",
				err);
		if (rc < 0)
			return rc;
		mode = GROUP_UNORDERED;
		group_note(s, b_id, sys_id, (int)mode);
	}
	*out = mode == GROUP_UNORDERED ? -1 : korder;
	return 0;
}

static int run_resolve(struct db_sink_state *s, const struct ingest_run **rp,
		       struct validate_run *vr, struct db_run_row *row, struct strbuf *err)
{
	const struct ingest_run *r = *rp;
	struct prep_head h;
	const char *prep, *shared;
	size_t i;
	int rc;

	if (r->prepared && r->prepared_len >= sizeof(h)) {
		prep = r->prepared;
	} else { /* nobody prepared it: do it here */
		if (s->cache_only)
			return SINK_NEEDS_DB;
		strbuf_reset(&s->prep.buf);
		sink_prepare(s, r, &s->prep.buf);
		prep = s->prep.buf.buf;
	}
	memcpy(&h, prep, sizeof(h));
	if (h.has_key == PREP_KEY_PENDING) { /* nobody hashed it (prepare_keys) */
		db_key16(&s->fresh, r->dedupe_key, strlen(r->dedupe_key), h.key);
		h.has_key = PREP_KEY;
	}
	row->own = prep + sizeof(h);
	row->own_len = h.own_len;
	shared = row->own + h.own_len;
	row->mtexts = shared + h.shared_len + h.reason_len;
	row->has_key = h.has_key;
	memcpy(row->key, h.key, sizeof(row->key));
	if (h.invalid) { /* prepare() found an impossible value */
		if (s->cache_only)
			return SINK_NEEDS_DB;
		vr->run = *r;
		vr->run.status = RUN_INVALID;
		strbuf_reset(&s->reason);
		strbuf_add(&s->reason, shared + h.shared_len, h.reason_len);
		vr->run.excluded_reason = s->reason.buf;
		r = *rp = &vr->run;
	}
	rc = system_id(s, &r->system, &row->sys_id, err);
	if (rc != 0)
		return rc;
	rc = bench_id(s, r, &row->b_id, err);
	if (rc != 0)
		return rc;
	row->korder = 0;
	if (row->has_key) {
		rc = group_korder(s, row->b_id, row->sys_id, h.korder, &row->korder, err);
		if (rc != 0)
			return rc;
	}
	/* a metric named twice is the parser's bug: say so before writing */
	for (i = 0; i < r->nmetrics; i++) {
		size_t j;
		if (!r->metrics[i].name)
			return s->cache_only ? SINK_NEEDS_DB :
					       ab_fail(err, AB_EINTERNAL, "metric without a name");
		for (j = 0; j < i; j++)
			if (!strcmp(r->metrics[i].name, r->metrics[j].name))
				return s->cache_only ? SINK_NEEDS_DB :
					ab_fail(err, AB_EINTERNAL, "metric '%s' given twice for one run",
						r->metrics[i].name);
	}
	s->interned_new = 0;
	if (h.status == PREP_NOT_ENCODED)
		return s->cache_only ? SINK_NEEDS_DB :
				       ab_fail(err, AB_EINTERNAL, "cannot encode params");
	if (h.status == PREP_NOT_OBJECT)
		return s->cache_only ? SINK_NEEDS_DB :
				       ab_fail(err, AB_EINTERNAL, "params is not a JSON object");
	row->set_id = 0;
	rc = params_set(s, shared, h.shared_len, &row->set_id, err);
	if (rc != 0)
		return rc;
	row->r = r;
	return 0;
}

/* run_data's columns in ST_ADD_RUN's order; run_many may leave out the
 * nullable ones (bit c of struct db_run_shape's omit) */
static const char *const run_cols[DB_RUN_COLS] = {
	"source_id", "seq", "line", "system_id", "benchmark_id", "job_id", "started", "finished",
	"status", "nodes", "devices", "global_batch", "local_batch", "precision", "framework",
	"set_id", "params", "excluded_reason", "dedupe", "metrics", "korder",
};
enum { RC_LINE = 2, RC_JOB = 5, RC_STARTED, RC_FINISHED, RC_NODES = 9, RC_DEVICES,
       RC_GLOBAL_BATCH, RC_LOCAL_BATCH, RC_PRECISION, RC_FRAMEWORK, RC_SET, RC_PARAMS,
       RC_REASON, RC_DEDUPE, RC_METRICS, RC_KORDER };
/* every column, parameter c + 1 (ST_ADD_RUN) */
static const unsigned char all_cols[DB_RUN_COLS] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
};

/* The columns bind_run() binds NULL for row (bits as in omit). */
static uint32_t row_nulls(const struct db_run_row *row)
{
	const struct ingest_run *r = row->r;

	return (uint32_t)(r->line <= 0) << RC_LINE | (uint32_t)!r->job_id << RC_JOB |
	       (uint32_t)!r->started << RC_STARTED | (uint32_t)!r->finished << RC_FINISHED |
	       (uint32_t)(r->nodes <= 0) << RC_NODES | (uint32_t)(r->devices <= 0) << RC_DEVICES |
	       (uint32_t)(r->global_batch <= 0) << RC_GLOBAL_BATCH |
	       (uint32_t)(r->local_batch <= 0) << RC_LOCAL_BATCH |
	       (uint32_t)!r->precision << RC_PRECISION | (uint32_t)!r->framework << RC_FRAMEWORK |
	       (uint32_t)(row->set_id <= 0) << RC_SET | (uint32_t)!row->own_len << RC_PARAMS |
	       (uint32_t)!r->excluded_reason << RC_REASON | (uint32_t)!row->has_key << RC_DEDUPE |
	       (uint32_t)!row->mlen << RC_METRICS;
}

/* Run row's parameters at at + pos[c] of st, column c left out where
 * pos[c] is 0 (all_cols: all 20); b: what st has bound (NULL: bind all). */
static void bind_run(sqlite3_stmt *st, struct db_bound *b, int at, struct db_sink_state *s,
		     const struct db_run_row *row, const unsigned char *pos)
{
	const struct ingest_run *r = row->r;

	/* never left out: NOT NULL */
	bind_i64(st, b, at + pos[0], s->source_id);
	bind_i64(st, b, at + pos[1], row->seq);
	if (pos[RC_LINE])
		bind_pos(st, b, at + pos[RC_LINE], r->line);
	bind_i64(st, b, at + pos[3], row->sys_id);
	bind_i64(st, b, at + pos[4], row->b_id);
	if (pos[RC_JOB])
		bind_static(st, b, at + pos[RC_JOB], r->job_id);
	if (pos[RC_STARTED])
		bind_static(st, b, at + pos[RC_STARTED], r->started);
	if (pos[RC_FINISHED])
		bind_static(st, b, at + pos[RC_FINISHED], r->finished);
	bind_i64(st, b, at + pos[8], r->status <= RUN_INVALID ? (int)r->status : (int)RUN_INVALID);
	if (pos[RC_NODES])
		bind_pos(st, b, at + pos[RC_NODES], r->nodes);
	if (pos[RC_DEVICES])
		bind_pos(st, b, at + pos[RC_DEVICES], r->devices);
	if (pos[RC_GLOBAL_BATCH])
		bind_pos(st, b, at + pos[RC_GLOBAL_BATCH], r->global_batch);
	if (pos[RC_LOCAL_BATCH])
		bind_pos(st, b, at + pos[RC_LOCAL_BATCH], r->local_batch);
	if (pos[RC_PRECISION])
		bind_static(st, b, at + pos[RC_PRECISION], r->precision);
	if (pos[RC_FRAMEWORK])
		bind_static(st, b, at + pos[RC_FRAMEWORK], r->framework);
	if (pos[RC_SET]) {
		if (row->set_id > 0)
			bind_i64(st, b, at + pos[RC_SET], row->set_id);
		else
			bind_null(st, b, at + pos[RC_SET]);
	}
	if (pos[RC_PARAMS]) {
		if (row->own_len)
			bind_static_len(st, b, at + pos[RC_PARAMS], row->own, row->own_len);
		else
			bind_null(st, b, at + pos[RC_PARAMS]);
	}
	if (pos[RC_REASON])
		bind_static(st, b, at + pos[RC_REASON], r->excluded_reason);
	if (pos[RC_DEDUPE]) {
		if (row->has_key) {
			if (b)
				b[at + pos[RC_DEDUPE] - 1].kind = DB_BOUND_OTHER;
			sqlite3_bind_blob(st, at + pos[RC_DEDUPE], row->key, 16, SQLITE_STATIC);
		} else {
			bind_null(st, b, at + pos[RC_DEDUPE]);
		}
	}
	if (pos[RC_METRICS]) {
		if (row->mlen)
			bind_static_len(st, b, at + pos[RC_METRICS], row->mbuf->buf + row->moff,
					row->mlen);
		else
			bind_null(st, b, at + pos[RC_METRICS]);
	}
	bind_i64(st, b, at + pos[RC_KORDER], row->korder); /* NOT NULL: never left out */
}

/*
 * The packed metrics of run r (run_data.metrics) appended to out, from its
 * metrics' kind ids kinds[] (0: not stored, a value SQLite has no REAL
 * for); row says where.
 */
static void pack_metrics(struct db_sink_state *s, const struct ingest_run *r, const int64_t *kinds,
			 struct strbuf *out, struct db_run_row *row)
{
	const unsigned char *t = (const unsigned char *)row->mtexts;
	size_t i, n = 0;

	if (r->nmetrics > s->cap_mitems) {
		s->cap_mitems = 2 * r->nmetrics + 8;
		s->mitems = ab_realloc(s->mitems, s->cap_mitems * sizeof(*s->mitems));
	}
	for (i = 0; i < r->nmetrics; i++) {
		struct db_metric_item *it = &s->mitems[n];
		size_t len = *t++;

		t += len;
		if (!kinds[i])
			continue;
		it->kind = kinds[i];
		it->value = r->metrics[i].value;
		it->text = (const char *)t - len; /* prepare()'s text of the value */
		it->text_len = len;
		n++;
	}
	row->mbuf = out;
	row->moff = out->len;
	db_metrics_pack(out, s->mitems, n);
	row->mlen = out->len - row->moff;
}

/* The kind ids of r's metrics into s->kind_ids (0: none stored). */
static int resolve_kinds(struct db_sink_state *s, const struct ingest_run *r, struct strbuf *err)
{
	size_t k;
	int rc = 0;

	if (r->nmetrics > s->cap_kind_ids) {
		s->cap_kind_ids = 2 * r->nmetrics + 8;
		s->kind_ids = ab_realloc(s->kind_ids, s->cap_kind_ids * sizeof(*s->kind_ids));
	}
	for (k = 0; k < r->nmetrics && rc == 0; k++) {
		const struct ingest_metric *m = &r->metrics[k];

		s->kind_ids[k] = 0;
		if (!isfinite(m->value)) /* no REAL for it; validate_run() said why */
			continue;
		rc = kind_id(s, k, m, r->metrics_meta_json ? r->metrics_meta_json[k] : NULL,
			     &s->kind_ids[k], err);
	}
	return rc;
}

/* The run the kinds were added for was a duplicate: they go again (their
 * ids were the largest: the next kind gets the same id again). */
static int drop_new_kinds(struct db_sink_state *s, struct strbuf *err)
{
	size_t i, n = s->nnew_kinds;

	s->nnew_kinds = 0;
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		sqlite3_stmt *st;
		int rc = stmt(s, ST_DROP_KIND, &st, err);

		if (rc < 0)
			return rc;
		sqlite3_bind_int64(st, 1, s->new_kinds[i]);
		if (sqlite3_step(st) != SQLITE_DONE)
			return db_fail(s->db, err, "cannot drop an unused metric kind");
	}
	/* the caches knew them */
	db_intern_clear(&s->kinds);
	for (i = 0; i < AB_ARRAY_SIZE(s->prev_kind); i++)
		s->prev_kind[i].id = 0;
	return 0;
}

/* A run of the source was stored under id: the source's run id range
 * grows (one range: each new rowid is the largest + 1 and nothing else
 * writes run_data inside the source's transaction). */
static void run_stored(struct db_sink_state *s, int64_t id)
{
	if (!s->first_run || id < s->first_run)
		s->first_run = id;
	if (id > s->last_run)
		s->last_run = id;
}

/* The INSERT of one resolved run, another key for another measurement
 * under the same key (dedupe_variant): 0 stored (*run_id), 1 a duplicate. */
static int run_insert(struct db_sink_state *s, struct db_run_row *row, int64_t *run_id,
		      struct strbuf *err)
{
	const char *shared = row->own + row->own_len;
	struct prep_head h;
	sqlite3_stmt *st;
	int rc;

	*run_id = 0;
	memcpy(&h, row->own - sizeof(h), sizeof(h));
	rc = stmt(s, ST_ADD_RUN, &st, err);
	if (rc < 0)
		return rc;
	bind_run(st, NULL, 0, s, row, all_cols);
	rc = step(s, st, NULL, err, "cannot add run");
	if (rc < 0)
		return rc;
	if (sqlite3_changes(s->db->sql) == 0) { /* dedupe_key conflict: stored before */
		rc = dedupe_variant(s, row->r, row->key, row->b_id, row->sys_id, row->korder, err);
		if (rc == 1) { /* a duplicate: no set made for it alone stays */
			rc = drop_new_set(s, row->set_id, shared, h.shared_len, err);
			return rc < 0 ? rc : 1;
		}
		if (rc < 0)
			return rc;
		sqlite3_reset(st);
		sqlite3_bind_blob(st, 19, row->key, 16, SQLITE_STATIC);
		rc = step(s, st, NULL, err, "cannot add run");
		if (rc < 0)
			return rc;
		if (sqlite3_changes(s->db->sql) == 0) { /* this measurement is stored too */
			rc = drop_new_set(s, row->set_id, shared, h.shared_len, err);
			return rc < 0 ? rc : 1;
		}
	}
	*run_id = sqlite3_last_insert_rowid(s->db->sql);
	run_stored(s, *run_id);
	return 0;
}

static int sink_run(void *self, const struct ingest_run *r, int64_t *run_id, struct strbuf *err)
{
	struct db_sink_state *s = self;
	struct validate_run vr;
	struct db_run_row row;
	int rc;

	*run_id = 0;
	if (!s->in_txn)
		return ab_fail(err, AB_EINTERNAL, "run outside a source transaction");
	rc = run_resolve(s, &r, &vr, &row, err);
	if (rc < 0)
		return rc;
	/* the metrics are part of the row: their kinds first */
	s->nnew_kinds = 0;
	rc = resolve_kinds(s, r, err);
	if (rc < 0)
		return rc;
	strbuf_reset(&s->one_mtext);
	pack_metrics(s, r, s->kind_ids, &s->one_mtext, &row);
	row.seq = ++s->seq;
	rc = run_insert(s, &row, run_id, err);
	if (rc == 1) {
		int drc = drop_new_kinds(s, err);
		if (drc < 0)
			return drc;
	}
	s->nnew_kinds = 0;
	return rc;
}

/*
 * The shape for n rows whose NULL columns are nulls: of those made, the
 * one leaving out most columns, all of them NULL here ([0] leaves out
 * none).  A full statement (the bulk of a large source) makes a shape
 * for the columns NULL in every full statement so far, while there is
 * room and none made leaves them all out: the shapes settle on what a
 * source never fills, whatever else a statement's rows leave NULL (a
 * shape's statements cost as much to prepare as some 10,000 rows save).
 */
static struct db_run_shape *runs_shape(struct db_sink_state *s, size_t n, uint32_t nulls)
{
	struct db_run_shape *best = &s->shapes[0], *sh;
	uint32_t want = 0;
	int i, c;

	for (i = 1; i < s->nshapes; i++) {
		sh = &s->shapes[i];
		if (!(sh->omit & ~nulls) && sh->width < best->width)
			best = sh;
	}
	if (n == DB_RUN_BATCH && nulls) {
		s->nulls_seen &= nulls;
		want = s->nulls_seen;
	}
	if (!want || !(want & ~best->omit) || s->nshapes >= DB_RUN_SHAPES)
		return best;
	sh = &s->shapes[s->nshapes++];
	sh->omit = want;
	sh->width = 0;
	for (c = 0; c < DB_RUN_COLS; c++)
		sh->pos[c] = want >> c & 1 ? 0 : (unsigned char)++sh->width;
	return sh;
}

/* INSERT OR FAIL INTO run_data ... VALUES (...) n times: a run stored
 * before stops the statement there, the runs before it stay stored.  (OR
 * FAIL, unlike the default ABORT, needs no statement journal: no copy of
 * every page the statement touches.) */
static int runs_stmt(struct db_sink_state *s, struct db_run_shape *sh, size_t n,
		     sqlite3_stmt **out, struct strbuf *err)
{
	if (!sh->st[n]) {
		struct strbuf sql = STRBUF_INIT;
		size_t i;
		int c, rc;

		strbuf_addstr(&sql, "INSERT OR FAIL INTO run_data(");
		for (c = 0; c < DB_RUN_COLS; c++) {
			if (!sh->pos[c])
				continue;
			if (sh->pos[c] > 1)
				strbuf_addstr(&sql, ", ");
			strbuf_addstr(&sql, run_cols[c]);
		}
		strbuf_addstr(&sql, ") VALUES ");
		for (i = 0; i < n; i++) {
			strbuf_addstr(&sql, i ? ",(?" : "(?");
			for (c = 1; c < sh->width; c++)
				strbuf_add(&sql, ",?", 2);
			strbuf_addch(&sql, ')');
		}
		rc = db_prepare(s->db, &sh->st[n], sql.buf, err);
		strbuf_release(&sql);
		if (rc < 0)
			return rc;
		free(sh->bound[n]); /* nothing bound yet */
		sh->bound[n] = ab_calloc((size_t)sh->width * n, sizeof(*sh->bound[n]));
	}
	sqlite3_reset(sh->st[n]);
	*out = sh->st[n];
	return 0;
}

/*
 * Store the waiting runs, in order, with as few statements as there are
 * powers of two in their number (at most DB_RUN_BATCH rows each: only
 * those sizes are ever prepared).  When a statement stops at a run (one
 * stored before: a duplicate or another measurement; it checks before it
 * writes, so that run changed nothing), the runs before it are stored,
 * and it and all the rest go one by one through run()'s INSERT.
 */
static int pend_flush(struct db_sink_state *s, int64_t ids[], int rcs[], struct strbuf *err)
{
	size_t n = s->npend, i = 0, k, m, stored;
	int one_by_one = 0;
	sqlite3_stmt *st;
	int rc = 0;

	s->npend = 0;
	while (i < n) {
		struct db_run_row *row = &s->pend[i];
		int64_t id;

		for (m = DB_RUN_BATCH; m > n - i; m /= 2)
			;
		if (m >= 2 && !one_by_one) {
			struct db_run_shape *sh;
			uint32_t nulls = ~(uint32_t)0;
			int64_t first = 0;

			for (k = 0; k < m; k++)
				nulls &= row_nulls(&s->pend[i + k]);
			sh = runs_shape(s, m, nulls);
			rc = runs_stmt(s, sh, m, &st, err);
			if (rc < 0)
				goto fail;
			for (k = 0; k < m; k++)
				bind_run(st, sh->bound[m], sh->width * (int)k, s, &s->pend[i + k],
					 sh->pos);
			rc = sqlite3_step(st);
			if (rc != SQLITE_DONE && (rc & 0xff) != SQLITE_CONSTRAINT) {
				rc = db_fail(s->db, err, "cannot add run");
				sqlite3_reset(st);
				goto fail;
			}
			stored = (size_t)sqlite3_changes(s->db->sql);
			if (stored > m)
				stored = 0;
			/* new rowids are max + 1, one after the other */
			if (stored)
				first = sqlite3_last_insert_rowid(s->db->sql) - (int64_t)stored + 1;
			sqlite3_reset(st);
			for (k = 0; k < stored; k++, i++) {
				rcs[s->pend[i].at] = 0;
				ids[s->pend[i].at] = first + (int64_t)k;
				run_stored(s, first + (int64_t)k);
			}
			one_by_one = stored < m;
			rc = 0;
			continue;
		}
		s->interned_new = 0; /* the set came from the cache */
		rc = run_insert(s, row, &id, err);
		if (rc < 0)
			goto fail;
		rcs[row->at] = rc;
		ids[row->at] = id;
		i++;
	}
	return 0;
fail:
	for (k = i; k < n; k++)
		rcs[s->pend[k].at] = -1;
	return rc;
}

/* run() for runs in a row: those the caches resolve wait and are stored
 * DB_RUN_BATCH to a statement; any other goes through run() itself, after
 * the waiting ones. */
static int sink_run_many(void *self, const struct ingest_run *const runs[], size_t n,
			 int64_t ids[], int rcs[], struct strbuf *err)
{
	struct db_sink_state *s = self;
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		ids[i] = 0;
		rcs[i] = -1;
	}
	if (!s->in_txn)
		return ab_fail(err, AB_EINTERNAL, "run outside a source transaction");
	for (i = 0; i < n; i++) {
		struct db_run_row *row = &s->pend[s->npend];
		const struct ingest_run *r = runs[i];

		s->cache_only = 1;
		rc = run_resolve(s, &r, NULL, row, err);
		if (rc == 0)
			rc = resolve_kinds(s, r, err);
		s->cache_only = 0;
		if (rc == 0) { /* resolved: it waits */
			if (!s->npend)
				strbuf_reset(&s->pend_mtext);
			pack_metrics(s, r, s->kind_ids, &s->pend_mtext, row);
			row->seq = ++s->seq;
			row->at = i;
			s->npend++;
			if (s->npend == DB_RUN_BATCH) {
				rc = pend_flush(s, ids, rcs, err);
				if (rc < 0)
					return rc;
			}
			continue;
		}
		if (rc < 0)
			return rc;
		/* the database is needed: the waiting runs first, then this one */
		rc = pend_flush(s, ids, rcs, err);
		if (rc < 0)
			return rc;
		rc = sink_run(s, runs[i], &ids[i], err);
		if (rc < 0)
			return rc;
		rcs[i] = rc;
	}
	return pend_flush(s, ids, rcs, err);
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

/* Store the buffered power samples: DB_POWER_BATCH at once, or one by one. */
static int flush_power(struct db_sink_state *s, struct strbuf *err)
{
	int batch = s->npw == DB_POWER_BATCH, n = batch ? 1 : s->npw, i, k, rc;
	struct db_bound *b = batch ? s->pw_bound : NULL; /* ST_ADD_POWER is cleared */
	sqlite3_stmt *st;

	for (i = 0; i < n; i++) {
		const struct db_power_row *p = s->pw + i;
		int per = batch ? DB_POWER_BATCH : 1;

		rc = stmt(s, batch ? ST_ADD_POWER_BATCH : ST_ADD_POWER, &st, err);
		if (rc < 0)
			return rc;
		for (k = 0; k < per; k++, p++) {
			bind_i64(st, b, 5 * k + 1, p->run_id);
			bind_i64(st, b, 5 * k + 2, p->i);
			bind_i64(st, b, 5 * k + 3, p->device_id);
			bind_real(st, b, 5 * k + 4, p->t);
			bind_real(st, b, 5 * k + 5, p->watts);
		}
		if (sqlite3_step(st) != SQLITE_DONE) {
			s->npw = 0;
			return db_fail(s->db, err, "cannot add power sample");
		}
	}
	s->npw = 0;
	return 0;
}

/* The id of a power device: the last few names are compared first (a
 * sampler's rows name the same few devices over and over). */
static int device_id(struct db_sink_state *s, const char *device, int64_t *id,
		     struct strbuf *err)
{
	struct text_arg d;
	size_t i;
	int rc;

	for (i = 0; i < AB_ARRAY_SIZE(s->recent_dev); i++)
		if (s->recent_dev[i].id > 0 && !strcmp(s->recent_dev[i].name.buf, device)) {
			*id = s->recent_dev[i].id;
			return 0;
		}
	d.text = device;
	d.len = strlen(device);
	rc = intern_id(s, &s->devices, d.text, d.len, ST_FIND_DEVICE, ST_ADD_DEVICE, bind_device,
		       &d, 0, id, err);
	if (rc < 0)
		return rc;
	i = s->recent_next++ % AB_ARRAY_SIZE(s->recent_dev);
	strbuf_setstr(&s->recent_dev[i].name, device);
	s->recent_dev[i].id = *id;
	return 0;
}

static int sink_power(void *self, int64_t run_id, const char *device, double t, double watts,
		      struct strbuf *err)
{
	struct db_sink_state *s = self;
	struct db_power_row *p;
	int64_t dev_id;
	int rc;

	if (!s->in_txn)
		return ab_fail(err, AB_EINTERNAL, "power sample outside a source transaction");
	if (!device)
		return ab_fail(err, AB_EINTERNAL, "power sample without a device");
	rc = device_id(s, device, &dev_id, err);
	if (rc < 0)
		return rc;
	p = &s->pw[s->npw++];
	p->run_id = run_id;
	p->i = ++s->power_i;
	p->device_id = dev_id;
	p->t = t;
	p->watts = watts;
	return s->npw == DB_POWER_BATCH ? flush_power(s, err) : 0;
}

/* The source's row, at its end: its run ids are one range (docs/schema.md,
 * "Storage"), first_run..last_run, which readers select a source's runs by
 * (there is no index on run_data.source_id); NULL when it has no run. */
static int add_source(struct db_sink_state *s, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc = stmt(s, ST_ADD_SOURCE, &st, err);

	if (rc < 0)
		return rc;
	if (!s->src_sha.len)
		return ab_fail(err, AB_EIO, "%s: no digest was given for the source", s->src_path.buf);
	db_bind_text(st, 1, s->src_path.buf);
	db_bind_text(st, 2, s->src_sha.buf);
	db_bind_text(st, 3, s->src_format.buf);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)s->src_size);
	db_bind_text(st, 5, s->src_when.buf);
	db_bind_text(st, 6, s->src_version.buf);
	db_bind_text(st, 7, s->src_has_identity ? s->src_identity.buf : NULL);
	sqlite3_bind_int64(st, 8, s->source_id);
	if (s->first_run) {
		sqlite3_bind_int64(st, 9, s->first_run);
		sqlite3_bind_int64(st, 10, s->last_run);
	} else {
		sqlite3_bind_null(st, 9);
		sqlite3_bind_null(st, 10);
	}
	rc = step(s, st, NULL, err, "cannot add source");
	return rc < 0 ? rc : 0;
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
	if (!commit) {
		s->npw = 0;
		forget_interned(s);
		if (!s->group_open)
			rc = fixed(s, ST_ROLLBACK, err);
		else if ((rc = fixed(s, ST_ROLLBACK_TO, err)) == 0)
			rc = fixed(s, ST_RELEASE, err); /* the group goes on */
	} else {
		rc = s->npw ? flush_power(s, err) : 0;
		if (rc == 0)
			rc = add_source(s, err);
		if (rc == 0)
			rc = fixed(s, s->group_open ? ST_RELEASE : ST_COMMIT, err);
		if (rc < 0)
			forget_interned(s);
	}
	if (rc < 0) {
		/* in a group, the group ends with the error (sink_group) */
		fixed(s, ST_ROLLBACK, NULL);
		s->group_open = 0;
	}
	fk_restore(s);
	return rc;
}

/* sink->digest(): the digest of the source begun without one.  1 when
 * those bytes were stored before (by this series: the database held no
 * source as it began); the caller then rolls the source back. */
static int sink_digest(void *self, const char *sha256, uint64_t size, struct strbuf *err)
{
	struct db_sink_state *s = self;
	sqlite3_stmt *st;
	int64_t id;
	int rc;

	if (!s->in_txn)
		return ab_fail(err, AB_EIO, "no source is begun");
	rc = stmt(s, ST_FIND_SOURCE, &st, err);
	if (rc < 0)
		return rc;
	db_bind_text(st, 1, sha256);
	db_bind_text(st, 2, s->src_has_identity ? s->src_identity.buf : NULL);
	rc = step(s, st, &id, err, "cannot look up source");
	if (rc < 0)
		return rc;
	if (rc == 1)
		return 1;
	strbuf_setstr(&s->src_sha, sha256);
	s->src_size = size;
	return 0;
}

/* sink->group(): op 1 lets the sources begun from now on share one
 * transaction, op 0 commits it (grouping goes on), op -1 rolls it back
 * and stops grouping.  A failed commit rolls the group back. */
static int sink_group(void *self, int op, struct strbuf *err)
{
	struct db_sink_state *s = self;
	int rc = 0;

	if (op > 0) {
		s->grouping = 1;
		return 0;
	}
	if (op == 0 && s->in_txn) /* a source is open: not a whole group */
		return ab_fail(err, AB_EIO, "cannot commit a group while a source is open");
	if (s->group_open) {
		s->group_open = 0;
		s->in_txn = 0;
		if (op == 0)
			rc = fixed(s, ST_COMMIT, err);
		if (op < 0 || rc < 0) {
			fixed(s, ST_ROLLBACK, NULL);
			forget_interned(s);
		}
	}
	if (op < 0)
		s->grouping = 0;
	fk_restore(s);
	return rc;
}

/* A series of sources (ingest_paths): foreign key checks stay off from
 * one transaction to the next, and are switched on again at the end. */
static void sink_hold(void *self, int on)
{
	struct db_sink_state *s = self;

	s->fk_held = on;
	s->empty_at_hold = -1;
	if (!on) /* a group not committed by now is not wanted */
		sink_group(s, -1, NULL);
	/* known() looks at the database afresh for each series; held
	 * before the pipeline's writer starts, on the thread that asks */
	s->ro_empty = on ? -1 : 0;
	if (!on)
		fk_restore(s);
}

/* Asked from the ingest pipeline's parsing thread: a read-only connection
 * of its own sees what the writer committed. */
/* 1 when the database holds a source, 0 when none (or it cannot say:
 * the caller then asks row by row as before) */
static int source_exists(sqlite3 *ro)
{
	sqlite3_stmt *st = NULL;
	int rc = 1;

	if (sqlite3_prepare_v2(ro, "SELECT 1 FROM source LIMIT 1", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_DONE)
		rc = 0;
	sqlite3_finalize(st);
	return rc;
}

static int sink_known(void *self, const struct ingest_source *src)
{
	struct db_sink_state *s = self;
	int rc;

	if (!s->ro) {
		if (sqlite3_open_v2(db_path(s->db), &s->ro, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
				    NULL) != SQLITE_OK ||
		    sqlite3_prepare_v2(s->ro, sink_sql[ST_FIND_SOURCE], -1, &s->ro_find, NULL) !=
			    SQLITE_OK) {
			sqlite3_finalize(s->ro_find);
			sqlite3_close(s->ro);
			s->ro = NULL;
			s->ro_find = NULL;
			return 0;
		}
		sqlite3_busy_timeout(s->ro, 60000);
	}
	/* A database with no source when the ingest starts knows none
	 * of its files, but for what this ingest commits itself (the
	 * same bytes twice in a tree) or another process commits
	 * meanwhile: the writer's begin() decides those, and a file it
	 * skips is reported as if never parsed.  One read transaction
	 * per file (the WAL index re-read each time) was ~3 % of the
	 * parsing thread on a 1,300-log MLPerf round into a fresh DB. */
	if (s->ro_empty < 0)
		s->ro_empty = !source_exists(s->ro);
	if (s->ro_empty)
		return 0;
	sqlite3_reset(s->ro_find);
	db_bind_text(s->ro_find, 1, src->sha256);
	db_bind_text(s->ro_find, 2, src->identity);
	rc = sqlite3_step(s->ro_find) == SQLITE_ROW;
	sqlite3_reset(s->ro_find);
	return rc;
}

void db_sink_forget_interned(struct db *db)
{
	forget_interned(&db->sink);
}

void db_sink_init(struct db *db)
{
	struct db_sink_state *s = &db->sink;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->db = db;
	s->data_version = -1;
	s->shapes[0].width = DB_RUN_COLS;
	memcpy(s->shapes[0].pos, all_cols, sizeof(all_cols));
	s->nshapes = 1;
	s->nulls_seen = ~(uint32_t)0;
	strbuf_init(&s->last_system, 0);
	strbuf_init(&s->last_bench, 0);
	strbuf_init(&s->kbuf, 0);
	strbuf_init(&s->reason, 0);
	for (i = 0; i < AB_ARRAY_SIZE(s->recent_dev); i++)
		strbuf_init(&s->recent_dev[i].name, 0);
	for (i = 0; i < AB_ARRAY_SIZE(s->prev_kind); i++)
		strbuf_init(&s->prev_kind[i].key, 0);
	strbuf_init(&s->prev_shared, 0);
	strbuf_init(&s->pend_mtext, 0);
	strbuf_init(&s->one_mtext, 0);
	strbuf_init(&s->upin, 0);
	strbuf_init(&s->src_path, 0);
	strbuf_init(&s->src_sha, 0);
	strbuf_init(&s->src_format, 0);
	strbuf_init(&s->src_identity, 0);
	strbuf_init(&s->src_when, 0);
	strbuf_init(&s->src_version, 0);
	s->empty_at_hold = -1;
	for (i = 0; i < DB_UPSERT_MEMO; i++) {
		strbuf_init(&s->sys_memo[i].key, 0);
		strbuf_init(&s->sys_memo[i].input, 0);
		strbuf_init(&s->bench_memo[i].key, 0);
		strbuf_init(&s->bench_memo[i].input, 0);
	}
	db_intern_init(&s->sets);
	db_intern_init(&s->kinds);
	db_intern_init(&s->devices);
	db_intern_init(&s->groups);
	sha256_init(&s->fresh);
	ingest_jtext_init(&s->jt);
	db_intern_init(&s->prep.pairs);
	strbuf_init(&s->prep.own, 0);
	strbuf_init(&s->prep.shared, 0);
	strbuf_init(&s->prep.text, 0);
	strbuf_init(&s->prep.prev, 0);
	strbuf_init(&s->prep.buf, 0);
	strbuf_init(&s->prep.kpad, 0);
	s->prep.fresh = s->fresh;
	ingest_jtext_init(&s->prep.jt);
	s->sink.self = s;
	s->sink.begin = sink_begin;
	s->sink.run = sink_run;
	s->sink.power = sink_power;
	s->sink.system = sink_system;
	s->sink.end = sink_end;
	s->sink.known = sink_known;
	s->sink.prepare = sink_prepare;
	s->sink.run_many = sink_run_many;
	s->sink.hold = sink_hold;
	s->sink.group = sink_group;
	s->sink.digest = sink_digest;
	s->sink.prepare_keys = sink_prepare_keys;
}

void db_sink_release(struct db *db)
{
	struct db_sink_state *s = &db->sink;
	size_t i;

	if (s->in_txn || s->group_open)
		db_exec(db, "ROLLBACK", NULL);
	for (i = 0; i < AB_ARRAY_SIZE(s->st); i++)
		sqlite3_finalize(s->st[i]);
	for (i = 0; i < (size_t)s->nshapes; i++) {
		size_t n;

		for (n = 0; n <= DB_RUN_BATCH; n++) {
			sqlite3_finalize(s->shapes[i].st[n]);
			free(s->shapes[i].bound[n]);
		}
	}
	free(s->mitems);
	free(s->kind_ids);
	free(s->new_kinds);
	strbuf_release(&s->pend_mtext);
	strbuf_release(&s->one_mtext);
	sqlite3_finalize(s->ro_find);
	sqlite3_close(s->ro);
	strbuf_release(&s->last_system);
	strbuf_release(&s->last_bench);
	strbuf_release(&s->kbuf);
	strbuf_release(&s->reason);
	for (i = 0; i < AB_ARRAY_SIZE(s->recent_dev); i++)
		strbuf_release(&s->recent_dev[i].name);
	for (i = 0; i < AB_ARRAY_SIZE(s->prev_kind); i++)
		strbuf_release(&s->prev_kind[i].key);
	strbuf_release(&s->prev_shared);
	strbuf_release(&s->upin);
	strbuf_release(&s->src_path);
	strbuf_release(&s->src_sha);
	strbuf_release(&s->src_format);
	strbuf_release(&s->src_identity);
	strbuf_release(&s->src_when);
	strbuf_release(&s->src_version);
	for (i = 0; i < DB_UPSERT_MEMO; i++) {
		strbuf_release(&s->sys_memo[i].key);
		strbuf_release(&s->sys_memo[i].input);
		strbuf_release(&s->bench_memo[i].key);
		strbuf_release(&s->bench_memo[i].input);
	}
	db_intern_release(&s->prep.pairs);
	strbuf_release(&s->prep.own);
	strbuf_release(&s->prep.shared);
	strbuf_release(&s->prep.text);
	strbuf_release(&s->prep.prev);
	strbuf_release(&s->prep.buf);
	strbuf_release(&s->prep.kpad);
	free(s->prep.prev_pair);
	free(s->prep.cur_pair);
	db_intern_release(&s->sets);
	db_intern_release(&s->kinds);
	db_intern_release(&s->devices);
	db_intern_release(&s->groups);
}

struct ingest_sink *db_ingest_sink(struct db *db)
{
	return &db->sink.sink;
}
