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
	ST_FIND_PAIR,
	ST_ADD_PAIR,
	ST_FIND_KIND,
	ST_ADD_KIND,
	ST_FIND_MEASURED,
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
	[ST_ADD_RUN] = "INSERT INTO run_data(source_id, seq, line, system_id, benchmark_id, job_id,"
		       " started, finished, status, nodes, devices, global_batch, local_batch,"
		       " precision, framework, params, excluded_reason, dedupe)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
		       " ?16, ?17, ?18)"
		       /* no RETURNING: it materialises a result table per row,
		        * a tenth of a large ingest; changes()/rowid say the same */
		       " ON CONFLICT(dedupe) DO NOTHING",
	[ST_ADD_METRIC] = "INSERT INTO metric_data(run_id, kind_id, value) VALUES (?1, ?2, ?3)",
	[ST_ADD_POWER] = "INSERT INTO power_sample(run_id, device, t, watts) VALUES (?1, ?2, ?3, ?4)",
	/* what --replace removes: the same bytes, or whatever the same path held */
	[ST_FIND_REPLACED] = "SELECT id FROM source WHERE (sha256 = ?1 AND identity = coalesce(?3, ''))"
			     " OR path = ?2 ORDER BY id",
	[ST_FIND_PAIR] = "SELECT id FROM param_pair WHERE h = ?1 AND kv = ?2",
	[ST_ADD_PAIR] = "INSERT INTO param_pair(h, kv) VALUES (?1, ?2)",
	[ST_FIND_KIND] = "SELECT id FROM metric_kind WHERE name = ?1 AND unit = ?2 AND meta = ?3",
	[ST_ADD_KIND] = "INSERT INTO metric_kind(name, unit, meta) VALUES (?1, ?2, ?3)",
	/* the metrics of the run stored under a dedupe key */
	[ST_FIND_MEASURED] = "SELECT k.name, m.value FROM run_data d JOIN metric_data m"
			     " ON m.run_id = d.id JOIN metric_kind k ON k.id = m.kind_id"
			     " WHERE d.dedupe = ?1",
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
	db_intern_clear(&s->pairs);
	db_intern_clear(&s->kinds);
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
	if (!vendor && (db_normalize_accelerator(accel, &acc) == 0 ||
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
	meta = sys->meta_json ? ab_strdup(sys->meta_json) : json_text(sys->meta);
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
	}
	db_intern_set(cache, h, key, len, *id);
	return 0;
}

struct pair_arg {
	const char *kv;
	size_t len;
};

static void bind_pair(sqlite3_stmt *st, const void *arg)
{
	const struct pair_arg *p = arg;

	sqlite3_bind_int64(st, 1, db_hash64(p->kv, p->len));
	sqlite3_bind_text(st, 2, p->kv, (int)p->len, SQLITE_STATIC);
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

/* Append ",id" (or "id" first): printf per pair was a tenth of the sink. */
static void add_id(struct strbuf *ids, int64_t id)
{
	char buf[24];
	size_t n = sizeof(buf);
	uint64_t v = (uint64_t)id;

	do {
		buf[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (ids->len)
		strbuf_addch(ids, ',');
	strbuf_add(ids, buf + n, sizeof(buf) - n);
}

/* Append a "key":value fragment to the inline string being built. */
static void add_inline(struct strbuf *ids, int *open, const char *kv, size_t len)
{
	size_t i;

	if (*open) {
		strbuf_addch(ids, ',');
	} else {
		if (ids->len)
			strbuf_addch(ids, ',');
		strbuf_addch(ids, '"');
		*open = 1;
	}
	for (i = 0; i < len;) {
		size_t run = strcspn(kv + i, "\"\\");

		if (run > len - i)
			run = len - i;
		strbuf_add(ids, kv + i, run);
		i += run;
		if (i < len) {
			strbuf_addch(ids, '\\');
			strbuf_addch(ids, kv[i++]);
		}
	}
}

/*
 * params as stored (run_data.params): the elements of a JSON array, one
 * per top-level "key":value pair in the parser's order: the id of an
 * interned pair (param_pair), or a string holding pairs stored inline
 * (consecutive ones joined with commas).  A pair is stored inline the
 * first time it is met and interned when it comes back, so values unique
 * to one run cost no lookup.  The view `run` joins the elements back into
 * the same text.  Pairs are split from the compact JSON at the commas
 * outside strings and nested values.
 */
static int params_ids(struct db_sink_state *s, const char *json, struct strbuf *err)
{
	size_t n = strlen(json), i, start;
	int depth = 0, in_str = 0, open = 0, rc;

	strbuf_reset(&s->ids);
	if (n < 2 || json[0] != '{' || json[n - 1] != '}')
		return ab_fail(err, AB_EINTERNAL, "params is not a JSON object");
	for (i = start = 1; i < n; i++) {
		char c = json[i];
		struct pair_arg p;
		int64_t id;

		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"') {
			in_str = 1;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if ((c == '}' || c == ']') && depth > 0) {
			depth--;
		} else if ((c == ',' && depth == 0) || i == n - 1) {
			if (i == start) /* "{}" */
				break;
			p.kv = json + start;
			p.len = i - start;
			rc = intern_id(s, &s->pairs, p.kv, p.len, ST_FIND_PAIR, ST_ADD_PAIR, bind_pair,
				       &p, 1, &id, err);
			if (rc < 0)
				return rc;
			if (id > 0) {
				if (open)
					strbuf_addch(&s->ids, '"');
				open = 0;
				add_id(&s->ids, id);
			} else {
				add_inline(&s->ids, &open, p.kv, p.len);
			}
			start = i + 1;
		}
	}
	if (open)
		strbuf_addch(&s->ids, '"');
	return 0;
}

static int kind_id(struct db_sink_state *s, const struct ingest_metric *m, const char *meta_json,
		   int64_t *id, struct strbuf *err)
{
	struct kind_arg k;
	char *meta = meta_json ? ab_strdup(meta_json) : json_text(m->meta);
	int rc;

	k.name = m->name;
	k.unit = m->unit ? m->unit : "";
	k.meta = meta ? meta : "";
	strbuf_reset(&s->kbuf);
	strbuf_add(&s->kbuf, k.name, strlen(k.name) + 1);
	strbuf_add(&s->kbuf, k.unit, strlen(k.unit) + 1);
	strbuf_addstr(&s->kbuf, k.meta);
	rc = intern_id(s, &s->kinds, s->kbuf.buf, s->kbuf.len, ST_FIND_KIND, ST_ADD_KIND, bind_kind,
		       &k, 0, id, err);
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

static int stored_measured(struct db_sink_state *s, const unsigned char key[16], struct strbuf *out,
			   struct strbuf *err)
{
	sqlite3_stmt *st;
	char **items = NULL;
	size_t n = 0, cap = 0;
	int rc = stmt(s, ST_FIND_MEASURED, &st, err);

	if (rc < 0)
		return rc;
	sqlite3_bind_blob(st, 1, key, 16, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			items = ab_realloc(items, cap * sizeof(*items));
		}
		items[n++] = measured_item(name ? name : "", sqlite3_column_double(st, 1));
	}
	sqlite3_reset(st);
	measured_text(out, items, n);
	free(items);
	if (rc != SQLITE_DONE)
		return db_fail(s->db, err, "cannot look up a stored run");
	return 0;
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
			  struct strbuf *err)
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
	rc = stored_measured(s, key, &stored, err);
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

static int sink_run(void *self, const struct ingest_run *r, int64_t *run_id, struct strbuf *err)
{
	struct db_sink_state *s = self;
	struct validate_run vr;
	int64_t sys_id, b_id;
	sqlite3_stmt *st;
	unsigned char key[16];
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
	/* a metric named twice is the parser's bug: say so before writing */
	for (i = 0; i < r->nmetrics; i++) {
		size_t j;
		if (!r->metrics[i].name)
			return ab_fail(err, AB_EINTERNAL, "metric without a name");
		for (j = 0; j < i; j++)
			if (!strcmp(r->metrics[i].name, r->metrics[j].name))
				return ab_fail(err, AB_EINTERNAL, "metric '%s' given twice for one run",
					       r->metrics[i].name);
	}
	if (r->params_json || r->params) {
		params = r->params_json ? ab_strdup(r->params_json) : json_text(r->params);
		rc = params ? params_ids(s, params, err) : ab_fail(err, AB_EINTERNAL,
								   "cannot encode params");
		free(params);
		if (rc < 0)
			return rc;
	} else {
		strbuf_reset(&s->ids);
	}
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
	sqlite3_bind_text(st, 16, s->ids.buf, (int)s->ids.len, SQLITE_STATIC);
	db_bind_text(st, 17, r->excluded_reason);
	if (r->dedupe_key) {
		/* a key read back from the view `run` (pull) is the hash itself */
		if (!key_from_hex(r->dedupe_key, key))
			db_key16(&s->fresh, r->dedupe_key, strlen(r->dedupe_key), key);
		sqlite3_bind_blob(st, 18, key, 16, SQLITE_TRANSIENT);
	}
	rc = step(s, st, NULL, err, "cannot add run");
	if (rc < 0)
		return rc;
	if (sqlite3_changes(s->db->sql) == 0) { /* dedupe_key conflict: stored before */
		rc = dedupe_variant(s, r, key, err);
		if (rc != 0)
			return rc;
		sqlite3_reset(st);
		sqlite3_bind_blob(st, 18, key, 16, SQLITE_TRANSIENT);
		rc = step(s, st, NULL, err, "cannot add run");
		if (rc < 0)
			return rc;
		if (sqlite3_changes(s->db->sql) == 0) /* this measurement is stored too */
			return 1;
	}
	*run_id = sqlite3_last_insert_rowid(s->db->sql);
	for (i = 0; i < r->nmetrics; i++) {
		const struct ingest_metric *m = &r->metrics[i];
		int64_t kid;

		if (!isfinite(m->value)) /* no REAL for it; validate_run() said why */
			continue;
		rc = kind_id(s, m, r->metrics_meta_json ? r->metrics_meta_json[i] : NULL, &kid, err);
		if (rc < 0)
			return rc;
		rc = stmt(s, ST_ADD_METRIC, &st, err);
		if (rc < 0)
			return rc;
		sqlite3_bind_int64(st, 1, *run_id);
		sqlite3_bind_int64(st, 2, kid);
		sqlite3_bind_double(st, 3, m->value);
		if (sqlite3_step(st) != SQLITE_DONE)
			return db_fail(s->db, err, "cannot add metric");
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
	if (!commit) {
		/* ids interned in this transaction are gone with it */
		db_intern_clear(&s->pairs);
		db_intern_clear(&s->kinds);
		return db_exec(s->db, "ROLLBACK", err);
	}
	rc = db_exec(s->db, "COMMIT", err);
	if (rc < 0) {
		db_exec(s->db, "ROLLBACK", NULL);
		db_intern_clear(&s->pairs);
		db_intern_clear(&s->kinds);
	}
	return rc;
}

/* Asked from the ingest pipeline's parsing thread: a read-only connection
 * of its own sees what the writer committed. */
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
	sqlite3_reset(s->ro_find);
	db_bind_text(s->ro_find, 1, src->sha256);
	db_bind_text(s->ro_find, 2, src->identity);
	rc = sqlite3_step(s->ro_find) == SQLITE_ROW;
	sqlite3_reset(s->ro_find);
	return rc;
}

void db_sink_init(struct db *db)
{
	struct db_sink_state *s = &db->sink;

	memset(s, 0, sizeof(*s));
	s->db = db;
	strbuf_init(&s->last_system, 0);
	strbuf_init(&s->last_bench, 0);
	strbuf_init(&s->ids, 0);
	strbuf_init(&s->kbuf, 0);
	db_intern_init(&s->pairs);
	db_intern_init(&s->kinds);
	sha256_init(&s->fresh);
	s->sink.self = s;
	s->sink.begin = sink_begin;
	s->sink.run = sink_run;
	s->sink.power = sink_power;
	s->sink.system = sink_system;
	s->sink.end = sink_end;
	s->sink.known = sink_known;
}

void db_sink_release(struct db *db)
{
	struct db_sink_state *s = &db->sink;
	size_t i;

	if (s->in_txn)
		db_exec(db, "ROLLBACK", NULL);
	for (i = 0; i < AB_ARRAY_SIZE(s->st); i++)
		sqlite3_finalize(s->st[i]);
	sqlite3_finalize(s->ro_find);
	sqlite3_close(s->ro);
	strbuf_release(&s->last_system);
	strbuf_release(&s->last_bench);
	strbuf_release(&s->ids);
	strbuf_release(&s->kbuf);
	db_intern_release(&s->pairs);
	db_intern_release(&s->kinds);
}

struct ingest_sink *db_ingest_sink(struct db *db)
{
	return &db->sink.sink;
}
