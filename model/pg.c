/*
 * pg.c - the central PostgreSQL store: connection, errors, the numbered
 * migrations of the central schema, `pg init`, and COPY text encoding.
 * Push and pull are in pg_push.c and pg_pull.c; the local SQLite side of
 * both in pg_local.c.
 */
#include "core/compat.h"
#include "pg_priv.h"

#include <math.h>

/* an arbitrary constant: the advisory lock that serialises migrations */
#define PG_MIGRATION_LOCK 0x61636362 /* "accb" */

/*
 * The central schema: the model of docs/schema.md plus push provenance.
 * Never edit a released migration: add the next one.  docs/postgres.md
 * documents the result.  Run ids are not the local ones; a run is known
 * by (source sha256, seq) and, when it has one, by its dedupe key.
 */
/* the dashboard view of one row per run (migrations 1 and 5) */
#define PG_DASH_RUNS_SELECT \
	"SELECT" \
	"  r.id AS run_id, b.suite, b.name AS benchmark, y.name AS system," \
	"  coalesce(y.display_name, y.name) AS system_display, y.vendor, y.accelerator," \
	"  y.site, r.nodes, r.devices, r.global_batch, r.precision," \
	"  concat_ws(' ', 'nodes=' || r.nodes, 'devices=' || r.devices," \
	"   'batch=' || r.global_batch, r.precision) AS configuration," \
	"  r.status," \
	"  CASE WHEN r.started ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z$'" \
	"   THEN r.started::timestamptz END AS started," \
	"  b.metric, m.value, b.unit, b.better," \
	"  e.value AS energy_wh, r.excluded_reason, s.path AS source, s.pushed_at" \
	"  FROM accelbench.run r" \
	"  JOIN accelbench.system y ON y.id = r.system_id" \
	"  JOIN accelbench.benchmark b ON b.id = r.benchmark_id" \
	"  JOIN accelbench.source s ON s.id = r.source_id" \
	"  LEFT JOIN accelbench.metric m ON m.run_id = r.id AND m.name = b.metric" \
	"  LEFT JOIN accelbench.metric e ON e.run_id = r.id AND e.name = 'energy'"

/* 1: tables, the merge function push uses, dashboard views (statements
 * in pieces: C11 promises string literals up to 4095 bytes only) */
static const char *const pg_migration_1[] = {
	"CREATE TABLE accelbench.source("
	"  id bigserial PRIMARY KEY,"
	"  sha256 text NOT NULL,"
	"  identity text NOT NULL DEFAULT '',"
	"  path text NOT NULL,"
	"  format text NOT NULL,"
	"  size bigint NOT NULL,"
	"  ingested_at text NOT NULL,"
	"  tool_version text NOT NULL,"
	"  pushed_at timestamptz NOT NULL DEFAULT now(),"
	"  pushed_by text NOT NULL DEFAULT session_user,"
	"  UNIQUE (sha256, identity));"
	"CREATE TABLE accelbench.system("
	"  id bigserial PRIMARY KEY,"
	"  name text NOT NULL UNIQUE,"
	"  display_name text,"
	"  vendor text NOT NULL DEFAULT 'other',"
	"  accelerator text,"
	"  accelerators_per_node bigint,"
	"  host_cpu text,"
	"  interconnect text,"
	"  site text,"
	"  tdp_w double precision,"
	"  meta text NOT NULL DEFAULT '{}');"
	"CREATE TABLE accelbench.benchmark("
	"  id bigserial PRIMARY KEY,"
	"  suite text NOT NULL,"
	"  name text NOT NULL,"
	"  metric text NOT NULL,"
	"  unit text NOT NULL,"
	"  better text NOT NULL CHECK (better IN ('higher','lower')),"
	"  UNIQUE (suite, name));"
	/* source_id/seq/line: the source that brought the run first */
	"CREATE TABLE accelbench.run("
	"  id bigserial PRIMARY KEY,"
	"  source_id bigint NOT NULL REFERENCES accelbench.source(id),"
	"  seq integer NOT NULL,"
	"  line bigint,"
	"  system_id bigint NOT NULL REFERENCES accelbench.system(id),"
	"  benchmark_id bigint NOT NULL REFERENCES accelbench.benchmark(id),"
	"  job_id text,"
	"  started text,"
	"  finished text,"
	"  status text NOT NULL CHECK (status IN ('ok','failed','aborted','invalid')),"
	"  nodes bigint,"
	"  devices bigint,"
	"  global_batch bigint,"
	"  local_batch bigint,"
	"  precision text,"
	"  framework text,"
	"  params text NOT NULL DEFAULT '{}',"
	"  excluded_reason text,"
	"  dedupe_key text UNIQUE,"
	"  UNIQUE (source_id, seq));"
	"CREATE INDEX run_benchmark_system ON accelbench.run(benchmark_id, system_id);"
	/* further provenances: the same run (dedupe key) through other sources */
	"CREATE TABLE accelbench.run_source("
	"  source_id bigint NOT NULL REFERENCES accelbench.source(id),"
	"  seq integer NOT NULL,"
	"  line bigint,"
	"  run_id bigint NOT NULL REFERENCES accelbench.run(id),"
	"  PRIMARY KEY (source_id, seq));"
	"CREATE INDEX run_source_run ON accelbench.run_source(run_id);",
	/* metric and power_sample rows are written only by merge_source(),
	 * in the transaction that adds their run: no per-row foreign-key
	 * trigger (a third of a large push); the test suite checks for orphans */
	"CREATE TABLE accelbench.metric("
	"  run_id bigint NOT NULL,"
	"  name text NOT NULL,"
	"  value double precision NOT NULL,"
	"  unit text NOT NULL,"
	"  meta text,"
	"  PRIMARY KEY (run_id, name));"
	"CREATE TABLE accelbench.power_sample("
	"  run_id bigint NOT NULL,"
	"  i integer NOT NULL,"
	"  device text NOT NULL,"
	"  t double precision NOT NULL,"
	"  watts double precision NOT NULL,"
	"  PRIMARY KEY (run_id, i));",
	/*
	 * merge_source(): called by push after COPYing one source into the
	 * session's staging tables (pg_temp.st_*).  Returns NULL source_id
	 * when another pusher stored the same bytes first.  Rows that others
	 * may insert at the same moment (systems, benchmarks, dedupe keys) go
	 * in in sorted order, so concurrent pushers wait for each other
	 * instead of deadlocking; ON CONFLICT makes the loser skip the row.
	 */
	"CREATE FUNCTION accelbench.merge_source(p_sha256 text, p_identity text, p_path text,"
	"  p_format text,"
	"  p_size bigint, p_ingested_at text, p_tool_version text,"
	"  OUT o_source_id bigint, OUT o_runs bigint, OUT o_deduped bigint,"
	"  OUT o_metrics bigint, OUT o_power bigint)"
	" LANGUAGE plpgsql AS $f$"
	" BEGIN"
	"  INSERT INTO accelbench.source(sha256, identity, path, format, size, ingested_at,"
	"   tool_version)"
	"  VALUES (p_sha256, p_identity, p_path, p_format, p_size, p_ingested_at, p_tool_version)"
	"  ON CONFLICT (sha256, identity) DO NOTHING RETURNING id INTO o_source_id;"
	"  IF o_source_id IS NULL THEN RETURN; END IF;"
	"  PERFORM accelbench.merge_dimensions();"
	"  INSERT INTO accelbench.run(source_id, seq, line, system_id, benchmark_id, job_id,"
	"   started, finished, status, nodes, devices, global_batch, local_batch, precision,"
	"   framework, params, excluded_reason, dedupe_key)"
	"  SELECT o_source_id, r.seq, r.line, y.id, b.id, r.job_id, r.started, r.finished,"
	"   r.status, r.nodes, r.devices, r.global_batch, r.local_batch, r.precision,"
	"   r.framework, coalesce(r.params, '{}'), r.excluded_reason, r.dedupe_key"
	"  FROM pg_temp.st_run r"
	"  JOIN pg_temp.st_system ls ON ls.lid = r.sys"
	"  JOIN accelbench.system y ON y.name = ls.name"
	"  JOIN pg_temp.st_bench lb ON lb.lid = r.bench"
	"  JOIN accelbench.benchmark b ON b.suite = lb.suite AND b.name = lb.name"
	"  ORDER BY r.dedupe_key, r.seq"
	"  ON CONFLICT (dedupe_key) DO NOTHING;"
	"  GET DIAGNOSTICS o_runs = ROW_COUNT;"
	"  INSERT INTO accelbench.run_source(source_id, seq, line, run_id)"
	"  SELECT o_source_id, r.seq, r.line, d.id FROM pg_temp.st_run r"
	"  JOIN accelbench.run d ON d.dedupe_key = r.dedupe_key"
	"  WHERE r.dedupe_key IS NOT NULL AND d.source_id <> o_source_id;"
	"  GET DIAGNOSTICS o_deduped = ROW_COUNT;"
	"  INSERT INTO accelbench.metric(run_id, name, value, unit, meta)"
	"  SELECT x.id, m.name, m.value, m.unit, m.meta FROM pg_temp.st_metric m"
	"  JOIN accelbench.run x ON x.source_id = o_source_id AND x.seq = m.seq;"
	"  GET DIAGNOSTICS o_metrics = ROW_COUNT;"
	"  INSERT INTO accelbench.power_sample(run_id, i, device, t, watts)"
	"  SELECT x.id, p.i, p.device, p.t, p.watts FROM pg_temp.st_power p"
	"  JOIN accelbench.run x ON x.source_id = o_source_id AND x.seq = p.seq;"
	"  GET DIAGNOSTICS o_power = ROW_COUNT;"
	" END $f$;",
	/*
	 * Systems and benchmarks from pg_temp.st_system/st_bench.  A row is
	 * locked only when it is new or really changes, so pushers of known
	 * systems never wait for each other.  The merge rule is the local
	 * one: a description from a user's systems file ("described" in
	 * meta) is not overridden by a parser's guess; unknown fields fill in.
	 */
	"CREATE FUNCTION accelbench.merge_dimensions() RETURNS void"
	" LANGUAGE plpgsql AS $f$"
	" BEGIN"
	"  INSERT INTO accelbench.system(name, display_name, vendor, accelerator,"
	"   accelerators_per_node, host_cpu, interconnect, site, tdp_w, meta)"
	"  SELECT s.name, s.display_name, coalesce(s.vendor, 'other'), s.accelerator,"
	"   s.per_node, s.host_cpu, s.interconnect, s.site, s.tdp_w, coalesce(s.meta, '{}')"
	"  FROM pg_temp.st_system s"
	"  WHERE NOT EXISTS (SELECT 1 FROM accelbench.system y WHERE y.name = s.name)"
	"  ORDER BY s.name ON CONFLICT (name) DO NOTHING;"
	"  UPDATE accelbench.system y SET display_name = m.display_name, vendor = m.vendor,"
	"   accelerator = m.accelerator, accelerators_per_node = m.per_node,"
	"   host_cpu = m.host_cpu, interconnect = m.interconnect, site = m.site,"
	"   tdp_w = m.tdp_w, meta = m.meta"
	"  FROM (SELECT o.id,"
	"    coalesce(s.display_name, o.display_name) AS display_name,"
	"    CASE WHEN k.keep THEN o.vendor ELSE coalesce(s.vendor, o.vendor) END AS vendor,"
	"    CASE WHEN k.keep THEN o.accelerator"
	"     ELSE coalesce(s.accelerator, o.accelerator) END AS accelerator,"
	"    CASE WHEN k.keep THEN o.accelerators_per_node"
	"     ELSE coalesce(s.per_node, o.accelerators_per_node) END AS per_node,"
	"    coalesce(s.host_cpu, o.host_cpu) AS host_cpu,"
	"    coalesce(s.interconnect, o.interconnect) AS interconnect,"
	"    coalesce(s.site, o.site) AS site, coalesce(s.tdp_w, o.tdp_w) AS tdp_w,"
	"    CASE WHEN k.keep OR coalesce(s.meta, '{}') = '{}' THEN o.meta ELSE s.meta END AS meta"
	"   FROM pg_temp.st_system s JOIN accelbench.system o ON o.name = s.name"
	"   CROSS JOIN LATERAL (SELECT (o.meta::jsonb ? 'described')"
	"    AND NOT (coalesce(s.meta, '{}')::jsonb ? 'described') AS keep) k) m"
	"  WHERE y.id = m.id AND (y.display_name, y.vendor, y.accelerator,"
	"   y.accelerators_per_node, y.host_cpu, y.interconnect, y.site, y.tdp_w, y.meta)"
	"   IS DISTINCT FROM (m.display_name, m.vendor, m.accelerator, m.per_node,"
	"   m.host_cpu, m.interconnect, m.site, m.tdp_w, m.meta);"
	"  INSERT INTO accelbench.benchmark(suite, name, metric, unit, better)"
	"  SELECT s.suite, s.name, s.metric, s.unit, s.better FROM pg_temp.st_bench s"
	"  WHERE NOT EXISTS (SELECT 1 FROM accelbench.benchmark b"
	"   WHERE b.suite = s.suite AND b.name = s.name)"
	"  ORDER BY s.suite, s.name ON CONFLICT (suite, name) DO NOTHING;"
	/* a benchmark registered without a headline ('' metric) gets one */
	"  UPDATE accelbench.benchmark b SET metric = s.metric, unit = s.unit, better = s.better"
	"  FROM pg_temp.st_bench s"
	"  WHERE b.suite = s.suite AND b.name = s.name AND b.metric = '' AND s.metric <> '';"
	" END $f$;",
	/* dashboards: one row per run, and one per configuration */
	"CREATE SCHEMA accelbench_dash;"
	"CREATE VIEW accelbench_dash.runs AS " PG_DASH_RUNS_SELECT ";",
	"CREATE VIEW accelbench_dash.configurations AS SELECT"
	"  suite, benchmark, system, vendor, accelerator, nodes, devices, global_batch,"
	"  precision, configuration, metric, unit, better,"
	"  count(value) FILTER (WHERE status = 'ok') AS n,"
	"  count(*) FILTER (WHERE status <> 'ok') AS n_failed,"
	"  percentile_cont(0.5) WITHIN GROUP (ORDER BY value)"
	"   FILTER (WHERE status = 'ok') AS median,"
	"  min(value) FILTER (WHERE status = 'ok') AS min,"
	"  max(value) FILTER (WHERE status = 'ok') AS max,"
	"  percentile_cont(0.5) WITHIN GROUP (ORDER BY energy_wh)"
	"   FILTER (WHERE status = 'ok') AS median_energy_wh,"
	"  max(started) AS last_started"
	"  FROM accelbench_dash.runs"
	"  GROUP BY suite, benchmark, system, vendor, accelerator, nodes, devices,"
	"   global_batch, precision, configuration, metric, unit, better;",
	NULL
};

/* 2: no per-row foreign-key triggers on run and run_source either: they
 * were half the time of merging a large source; merge_source() resolves
 * every reference in the statement that inserts the row, and the test
 * suite checks for orphans */
static const char *const pg_migration_2[] = {
	"ALTER TABLE accelbench.run DROP CONSTRAINT run_source_id_fkey,"
	"  DROP CONSTRAINT run_system_id_fkey, DROP CONSTRAINT run_benchmark_id_fkey;"
	"ALTER TABLE accelbench.run_source DROP CONSTRAINT run_source_source_id_fkey,"
	"  DROP CONSTRAINT run_source_run_id_fkey;",
	NULL
};

/*
 * 3: push in batches.  A COPY of many small sources, then one CALL of
 * merge_batch(), which merges them one by one and COMMITs after each: one
 * transaction per source still, without a round trip per source.  The
 * session's staging tables (created by push) carry the source's number in
 * the batch, src; pg_temp.sb_result records each source's outcome in the
 * transaction that commits it, so a CALL interrupted by a deadlock is
 * simply called again.
 */
static const char *const pg_migration_3[] = {
	"CREATE FUNCTION accelbench.merge_staged(p_src integer,"
	"  OUT o_source_id bigint, OUT o_runs bigint, OUT o_deduped bigint,"
	"  OUT o_metrics bigint, OUT o_power bigint)"
	" LANGUAGE plpgsql AS $f$"
	" DECLARE s record;"
	" BEGIN"
	"  SELECT * INTO s FROM pg_temp.sb_source WHERE src = p_src;"
	"  INSERT INTO accelbench.source(sha256, identity, path, format, size, ingested_at,"
	"   tool_version)"
	"  VALUES (s.sha256, s.identity, s.path, s.format, s.size, s.ingested_at, s.tool_version)"
	"  ON CONFLICT (sha256, identity) DO NOTHING RETURNING id INTO o_source_id;"
	"  IF o_source_id IS NULL THEN RETURN; END IF;"
	"  PERFORM accelbench.merge_dimensions();"
	"  INSERT INTO accelbench.run(source_id, seq, line, system_id, benchmark_id, job_id,"
	"   started, finished, status, nodes, devices, global_batch, local_batch, precision,"
	"   framework, params, excluded_reason, dedupe_key)"
	"  SELECT o_source_id, r.seq, r.line, y.id, b.id, r.job_id, r.started, r.finished,"
	"   r.status, r.nodes, r.devices, r.global_batch, r.local_batch, r.precision,"
	"   r.framework, coalesce(r.params, '{}'), r.excluded_reason, r.dedupe_key"
	"  FROM pg_temp.sb_run r"
	"  JOIN pg_temp.st_system ls ON ls.lid = r.sys"
	"  JOIN accelbench.system y ON y.name = ls.name"
	"  JOIN pg_temp.st_bench lb ON lb.lid = r.bench"
	"  JOIN accelbench.benchmark b ON b.suite = lb.suite AND b.name = lb.name"
	"  WHERE r.src = p_src"
	"  ORDER BY r.dedupe_key, r.seq"
	"  ON CONFLICT (dedupe_key) DO NOTHING;"
	"  GET DIAGNOSTICS o_runs = ROW_COUNT;"
	"  INSERT INTO accelbench.run_source(source_id, seq, line, run_id)"
	"  SELECT o_source_id, r.seq, r.line, d.id FROM pg_temp.sb_run r"
	"  JOIN accelbench.run d ON d.dedupe_key = r.dedupe_key"
	"  WHERE r.src = p_src AND r.dedupe_key IS NOT NULL AND d.source_id <> o_source_id;"
	"  GET DIAGNOSTICS o_deduped = ROW_COUNT;"
	"  INSERT INTO accelbench.metric(run_id, name, value, unit, meta)"
	"  SELECT x.id, m.name, m.value, m.unit, m.meta FROM pg_temp.sb_metric m"
	"  JOIN accelbench.run x ON x.source_id = o_source_id AND x.seq = m.seq"
	"  WHERE m.src = p_src;"
	"  GET DIAGNOSTICS o_metrics = ROW_COUNT;"
	"  INSERT INTO accelbench.power_sample(run_id, i, device, t, watts)"
	"  SELECT x.id, p.i, p.device, p.t, p.watts FROM pg_temp.sb_power p"
	"  JOIN accelbench.run x ON x.source_id = o_source_id AND x.seq = p.seq"
	"  WHERE p.src = p_src;"
	"  GET DIAGNOSTICS o_power = ROW_COUNT;"
	" END $f$;",
	"CREATE PROCEDURE accelbench.merge_batch()"
	" LANGUAGE plpgsql AS $f$"
	" DECLARE k integer; r record;"
	" BEGIN"
	"  FOR k IN SELECT src FROM pg_temp.sb_source"
	"   WHERE src NOT IN (SELECT src FROM pg_temp.sb_result) ORDER BY src LOOP"
	"   SELECT * INTO r FROM accelbench.merge_staged(k);"
	"   INSERT INTO pg_temp.sb_result VALUES (k, r.o_source_id, r.o_runs, r.o_deduped,"
	"    r.o_metrics, r.o_power);"
	"   COMMIT;"
	"  END LOOP;"
	" END $f$;",
	NULL
};

/*
 * 4: push COPYs straight into the central tables, with ids the client
 * assigns from a block reserve_ids() hands out (a source takes base, its
 * runs base + seq).  One sequence for both tables, its defaults dropped:
 * every id now comes from a reserved block, so none can collide.
 */
static const char *const pg_migration_4[] = {
	"CREATE SEQUENCE accelbench.ids;"
	"SELECT setval('accelbench.ids', greatest((SELECT max(id) FROM accelbench.run),"
	"  (SELECT max(id) FROM accelbench.source), 0) + 1, false);"
	"ALTER TABLE accelbench.run ALTER id DROP DEFAULT;"
	"ALTER TABLE accelbench.source ALTER id DROP DEFAULT;"
	/* n consecutive ids: the lock makes nextval + setval one step (the
	 * sequence has no other user) */
	"CREATE FUNCTION accelbench.reserve_ids(n bigint) RETURNS bigint"
	" LANGUAGE plpgsql AS $f$"
	" DECLARE first bigint;"
	" BEGIN"
	"  IF n < 1 THEN RAISE EXCEPTION 'reserve_ids: % ids', n; END IF;"
	"  PERFORM pg_advisory_xact_lock(1633903465);" /* "acci" */
	"  first := nextval('accelbench.ids');"
	"  IF n > 1 THEN PERFORM setval('accelbench.ids', first + n - 1); END IF;"
	"  RETURN first;"
	" END $f$;",
	/* which systems a user's systems file described, as the pushing site
	 * knew it (pull re-describes exactly those with that source); the
	 * sources pushed before: by the file's base name, the local rule */
	"CREATE TABLE accelbench.source_system("
	"  source_id bigint NOT NULL,"
	"  system_id bigint NOT NULL,"
	"  PRIMARY KEY (source_id, system_id));"
	"INSERT INTO accelbench.source_system(source_id, system_id)"
	" SELECT s.id, y.id FROM accelbench.source s JOIN accelbench.system y"
	"  ON y.meta::jsonb ->> 'described' = regexp_replace(s.path, '^.*/', '')"
	" WHERE s.format = 'accelbench-systems';",
	NULL
};

/* a version-4 dedupe key as the 16 bytes the local database keeps: 32
 * lowercase hex digits are those bytes; another text (a parser's key,
 * pushed by an older accelbench) is hashed as the local sink does (first
 * 16 bytes of its SHA-256) */
#define PG_KEY16(k) \
	"CASE WHEN " k " ~ '^[0-9a-f]{32}$' THEN " k "::uuid" \
	" ELSE encode(substr(sha256(convert_to(" k ", 'UTF8')), 1, 16), 'hex')::uuid END"

/* a metric kind's key: its name, unit and meta (NULL: none) */
#define PG_KIND_MD5(name, unit, meta) \
	"md5(" name " || chr(31) || " unit " || chr(31) || coalesce(" meta ", ''))::uuid"

/*
 * 5: smaller rows and keys, for push speed.  dedupe_key becomes a
 * uuid (the key's 16 bytes; a 32-hex text key was a third of a push's
 * server time through its unique index).  Params as the local database
 * keeps them: a run's shared pairs interned once in accelbench.param_set
 * (set_id) and its own pairs in params (NULL: none); a run pushed before
 * keeps all its pairs in params.  The merge functions of versions 1 and 3
 * (unused since 4) go.
 */
static const char *const pg_migration_5[] = {
	"DROP PROCEDURE accelbench.merge_batch();"
	"DROP FUNCTION accelbench.merge_staged(integer);"
	"DROP FUNCTION accelbench.merge_source(text, text, text, text, bigint, text, text);"
	/* a parser's key whose hash another run holds as hex (the same run
	 * pushed through two versions) keeps no key: it stays a run of its own */
	"UPDATE accelbench.run r SET dedupe_key = NULL"
	" WHERE r.dedupe_key !~ '^[0-9a-f]{32}$' AND EXISTS (SELECT 1 FROM accelbench.run o"
	"  WHERE o.dedupe_key = encode(substr(sha256(convert_to(r.dedupe_key, 'UTF8')), 1, 16),"
	"   'hex'));"
	"ALTER TABLE accelbench.run ALTER dedupe_key TYPE uuid USING " PG_KEY16("dedupe_key") ","
	"  ALTER params DROP NOT NULL, ALTER params DROP DEFAULT,"
	"  ADD set_id bigint;"
	"CREATE TABLE accelbench.param_set("
	"  id bigserial PRIMARY KEY,"
	"  kv text NOT NULL,"
	"  kv_md5 uuid NOT NULL UNIQUE);", /* kv may be longer than an index entry */
	/* metrics as locally: (name, unit, meta) interned once in metric_kind,
	 * a row per value in metric_data; accelbench.metric becomes a view
	 * with the columns of the table it replaces (the dashboard view reads
	 * it), meta NULL where there is none */
	"CREATE TABLE accelbench.metric_kind("
	"  id bigserial PRIMARY KEY,"
	"  name text NOT NULL,"
	"  unit text NOT NULL,"
	"  meta text,"
	"  kind_md5 uuid NOT NULL UNIQUE);"
	"INSERT INTO accelbench.metric_kind(name, unit, meta, kind_md5)"
	" SELECT name, unit, meta, " PG_KIND_MD5("name", "unit", "meta") " FROM"
	"  (SELECT name, unit, nullif(meta, '') AS meta, min(run_id) AS first"
	"   FROM accelbench.metric GROUP BY 1, 2, 3) k ORDER BY first, name;"
	"CREATE TABLE accelbench.metric_data("
	"  run_id bigint NOT NULL,"
	"  kind_id bigint NOT NULL,"
	"  value double precision NOT NULL,"
	"  PRIMARY KEY (run_id, kind_id));"
	"INSERT INTO accelbench.metric_data(run_id, kind_id, value)"
	" SELECT m.run_id, k.id, m.value FROM accelbench.metric m JOIN accelbench.metric_kind k"
	"  ON k.kind_md5 = " PG_KIND_MD5("m.name", "m.unit", "nullif(m.meta, '')")
	" ORDER BY m.run_id, k.id;"
	"ALTER TABLE accelbench.metric RENAME TO metric_before_5;"
	"CREATE VIEW accelbench.metric AS SELECT d.run_id, k.name, d.value, k.unit, k.meta"
	" FROM accelbench.metric_data d JOIN accelbench.metric_kind k ON k.id = d.kind_id;"
	"CREATE OR REPLACE VIEW accelbench_dash.runs AS " PG_DASH_RUNS_SELECT ";"
	"DROP TABLE accelbench.metric_before_5;",
	NULL
};

static const char *const *const pg_migrations[] = { pg_migration_1, pg_migration_2,
						    pg_migration_3, pg_migration_4,
						    pg_migration_5 };

int pg_schema_latest(void)
{
	return (int)AB_ARRAY_SIZE(pg_migrations);
}

/* First line of a libpq/server message, without the "ERROR:  " prefix. */
static void add_message(struct strbuf *sb, const char *msg)
{
	size_t n;

	if (!msg || !*msg) {
		strbuf_addstr(sb, "unknown error");
		return;
	}
	if (!strncmp(msg, "ERROR:  ", 8))
		msg += 8;
	n = strcspn(msg, "\n");
	strbuf_add(sb, msg, n);
}

int pg_fail(struct pg *pg, struct strbuf *err, const char *what)
{
	if (err) {
		strbuf_reset(err);
		strbuf_addf(err, "%s: ", what);
		add_message(err, pg && pg->conn ? PQerrorMessage(pg->conn) : NULL);
	}
	return -AB_EIO;
}

int pg_fail_res(PGresult *res, struct strbuf *err, const char *what, char *sqlstate)
{
	const char *st = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

	if (sqlstate) {
		memset(sqlstate, 0, 6);
		if (st)
			memcpy(sqlstate, st, strnlen(st, 5));
	}
	if (err) {
		strbuf_reset(err);
		strbuf_addf(err, "%s: ", what);
		add_message(err, res ? PQresultErrorMessage(res) : NULL);
	}
	return -AB_EIO;
}

int pg_exec(struct pg *pg, const char *sql, struct strbuf *err)
{
	PGresult *res = PQexec(pg->conn, sql);
	int rc = 0;

	if (!res)
		return pg_fail(pg, err, "PostgreSQL error");
	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = pg_fail_res(res, err, "PostgreSQL error", NULL);
	PQclear(res);
	return rc;
}

/* libpq prints notices (e.g. "relation exists, skipping") on stderr */
static void quiet_notices(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

int pg_connect(struct pg **out, const char *url, struct strbuf *err)
{
	struct pg *pg;
	PQconninfoOption *opts;
	char *perr = NULL;

	*out = NULL;
	if (!url || !*url)
		return ab_fail(err, AB_EUSAGE,
			       "no PostgreSQL connection given (--to/--from URL or $ACCELBENCH_PG)");
	/* every libpq call needs the connection made here: load libpq first */
	if (pg_libpq_load(err) < 0)
		return -AB_EIO;
	/* parse first: libpq's message for a malformed string may quote part
	 * of it, password included, so it is not repeated */
	opts = PQconninfoParse(url, &perr);
	if (!opts) {
		PQfreemem(perr);
		return ab_fail(err, AB_EUSAGE,
			       "the PostgreSQL connection string is not valid (not shown: it may "
			       "hold a password)");
	}
	PQconninfoFree(opts);
	pg = ab_calloc(1, sizeof(*pg));
	strbuf_init(&pg->url, 0);
	strbuf_addstr(&pg->url, url);
	pg->conn = PQconnectdb(url);
	if (!pg->conn || PQstatus(pg->conn) != CONNECTION_OK) {
		int rc = pg_fail(pg, err, "cannot connect to PostgreSQL");
		pg_free(pg);
		return rc;
	}
	PQsetNoticeProcessor(pg->conn, quiet_notices, NULL);
	*out = pg;
	return 0;
}

void pg_free(struct pg *pg)
{
	if (!pg)
		return;
	if (pg->conn)
		PQfinish(pg->conn);
	strbuf_release(&pg->url);
	free(pg);
}

void pg_conn_label(struct pg *pg, struct strbuf *out)
{
	const char *user = PQuser(pg->conn), *host = PQhost(pg->conn);
	const char *port = PQport(pg->conn), *db = PQdb(pg->conn);

	if (user && *user)
		strbuf_addf(out, "%s@", user);
	strbuf_addstr(out, host && *host ? host : "localhost");
	if (port && *port)
		strbuf_addf(out, ":%s", port);
	strbuf_addf(out, "/%s", db ? db : "");
}

/* The applied version, 0 when there is no accelbench schema. */
static int schema_version(struct pg *pg, int *version, struct strbuf *err)
{
	PGresult *res = PQexec(pg->conn, "SELECT CASE WHEN to_regclass('accelbench.migration')"
					 " IS NULL THEN -1 END");
	int rc = 0;

	*version = 0;
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		rc = pg_fail_res(res, err, "cannot read the central schema version", NULL);
		PQclear(res);
		return rc;
	}
	if (PQgetisnull(res, 0, 0) == 0) { /* no migration table */
		PQclear(res);
		return 0;
	}
	PQclear(res);
	res = PQexec(pg->conn, "SELECT coalesce(max(version), 0) FROM accelbench.migration");
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = pg_fail_res(res, err, "cannot read the central schema version", NULL);
	else
		*version = atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	return rc;
}

/* Apply the missing migrations in one transaction under an advisory lock. */
/* Up to version target (the latest when 0 or more). */
static int migrate(struct pg *pg, int target, int *before, int *after, struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	int version, rc, i;

	rc = pg_exec(pg, "BEGIN", err);
	if (rc < 0)
		return rc;
	strbuf_addf(&sql, "SELECT pg_advisory_xact_lock(%d);"
			  " CREATE SCHEMA IF NOT EXISTS accelbench;"
			  " CREATE TABLE IF NOT EXISTS accelbench.migration("
			  "  version integer PRIMARY KEY,"
			  "  applied_at timestamptz NOT NULL DEFAULT now())",
		    PG_MIGRATION_LOCK);
	rc = pg_exec(pg, sql.buf, err);
	if (rc < 0)
		goto fail;
	rc = schema_version(pg, &version, err);
	if (rc < 0)
		goto fail;
	*before = version;
	if (version > pg_schema_latest()) {
		rc = ab_fail(err, AB_EIO,
			     "the central schema has version %d, newer than this accelbench "
			     "understands (%d)",
			     version, pg_schema_latest());
		goto fail;
	}
	if (target <= 0 || target > pg_schema_latest())
		target = pg_schema_latest();
	for (i = version; i < target; i++) {
		const char *const *part;

		for (part = pg_migrations[i]; *part; part++) {
			rc = pg_exec(pg, *part, err);
			if (rc < 0)
				goto fail;
		}
		strbuf_reset(&sql);
		strbuf_addf(&sql, "INSERT INTO accelbench.migration(version) VALUES (%d)", i + 1);
		rc = pg_exec(pg, sql.buf, err);
		if (rc < 0)
			goto fail;
	}
	*after = version > target ? version : target;
	strbuf_release(&sql);
	return pg_exec(pg, "COMMIT", err);
fail:
	strbuf_release(&sql);
	pg_exec(pg, "ROLLBACK", NULL);
	return rc;
}

int pg_check_schema(struct pg *pg, struct strbuf *err)
{
	struct strbuf label = STRBUF_INIT;
	int version, before, after, rc;

	rc = schema_version(pg, &version, err);
	if (rc < 0)
		return rc;
	if (version == pg_schema_latest())
		return 0;
	if (version == 0) {
		pg_conn_label(pg, &label);
		rc = ab_fail(err, AB_EIO,
			     "'%s' has no accelbench schema: run 'accelbench pg init' first",
			     label.buf);
		strbuf_release(&label);
		return rc;
	}
	if (version > pg_schema_latest())
		return ab_fail(err, AB_EIO,
			       "the central schema has version %d, newer than this accelbench "
			       "understands (%d)",
			       version, pg_schema_latest());
	return migrate(pg, 0, &before, &after, err);
}

/* A role name we create: plain identifiers only (an allow-list, not quoting). */
static int valid_role(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 63 || !((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

static int reader_role(struct pg *pg, const char *role, int *created, struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	const char *params[1] = { role };
	PGresult *res;
	int rc;

	*created = 0;
	if (!valid_role(role))
		return ab_fail(err, AB_EUSAGE,
			       "reader role '%s' is not a plain lowercase identifier", role);
	res = PQexecParams(pg->conn, "SELECT 1 FROM pg_roles WHERE rolname = $1", 1, NULL, params,
			   NULL, NULL, 0);
	if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
		rc = pg_fail_res(res, err, "cannot look up roles", NULL);
		PQclear(res);
		return rc;
	}
	*created = PQntuples(res) == 0;
	PQclear(res);
	/* the role name passed valid_role(): safe to place in the statement */
	if (*created)
		strbuf_addf(&sql, "CREATE ROLE %s LOGIN;", role);
	strbuf_addf(&sql,
		    "ALTER ROLE %s SET default_transaction_read_only = on;"
		    " REVOKE ALL ON SCHEMA accelbench FROM %s;"
		    " REVOKE ALL ON ALL TABLES IN SCHEMA accelbench FROM %s;"
		    " GRANT USAGE ON SCHEMA accelbench_dash TO %s;"
		    " GRANT SELECT ON ALL TABLES IN SCHEMA accelbench_dash TO %s;",
		    role, role, role, role, role);
	rc = pg_exec(pg, sql.buf, err);
	strbuf_release(&sql);
	if (rc < 0)
		strbuf_addf(err, " (creating the reader role '%s' needs CREATEROLE)", role);
	return rc;
}

int pg_init(struct pg *pg, const struct pg_init_opts *o, struct pg_init_result *res,
	    struct strbuf *err)
{
	int rc;

	memset(res, 0, sizeof(*res));
	if (o->reader_role && !valid_role(o->reader_role))
		return ab_fail(err, AB_EUSAGE,
			       "reader role '%s' is not a plain lowercase identifier "
			       "([a-z_][a-z0-9_]*)",
			       o->reader_role);
	rc = migrate(pg, o->schema_version, &res->version_before, &res->version_after, err);
	if (rc < 0)
		return rc;
	if (o->reader_role)
		rc = reader_role(pg, o->reader_role, &res->reader_created, err);
	return rc;
}

/* ---- integrity ------------------------------------------------------- */

/* Every reference between the central tables, as anti-joins (the tables
 * carry no foreign keys: see docs/postgres.md). */
static const struct {
	const char *what, *sql;
} pg_checks[] = {
	{ "runs whose source is missing",
	  "SELECT count(*) FROM accelbench.run r WHERE NOT EXISTS"
	  " (SELECT 1 FROM accelbench.source s WHERE s.id = r.source_id)" },
	{ "runs whose system is missing",
	  "SELECT count(*) FROM accelbench.run r WHERE NOT EXISTS"
	  " (SELECT 1 FROM accelbench.system y WHERE y.id = r.system_id)" },
	{ "runs whose benchmark is missing",
	  "SELECT count(*) FROM accelbench.run r WHERE NOT EXISTS"
	  " (SELECT 1 FROM accelbench.benchmark b WHERE b.id = r.benchmark_id)" },
	{ "further provenances whose source or run is missing",
	  "SELECT count(*) FROM accelbench.run_source x WHERE NOT EXISTS"
	  " (SELECT 1 FROM accelbench.source s WHERE s.id = x.source_id) OR NOT EXISTS"
	  " (SELECT 1 FROM accelbench.run r WHERE r.id = x.run_id)" },
	{ "metrics whose run is missing",
	  "SELECT count(*) FROM accelbench.metric_data m WHERE NOT EXISTS"
	  " (SELECT 1 FROM accelbench.run r WHERE r.id = m.run_id)" },
	{ "metrics whose kind is missing",
	  "SELECT count(*) FROM accelbench.metric_data m WHERE NOT EXISTS"
	  " (SELECT 1 FROM accelbench.metric_kind k WHERE k.id = m.kind_id)" },
	{ "power samples whose run is missing",
	  "SELECT count(*) FROM accelbench.power_sample p WHERE NOT EXISTS"
	  " (SELECT 1 FROM accelbench.run r WHERE r.id = p.run_id)" },
	{ "runs whose param set is missing",
	  "SELECT count(*) FROM accelbench.run r WHERE r.set_id IS NOT NULL AND NOT EXISTS"
	  " (SELECT 1 FROM accelbench.param_set p WHERE p.id = r.set_id)" },
	{ "systems-file links whose source or system is missing",
	  "SELECT count(*) FROM accelbench.source_system l WHERE NOT EXISTS"
	  " (SELECT 1 FROM accelbench.source s WHERE s.id = l.source_id) OR NOT EXISTS"
	  " (SELECT 1 FROM accelbench.system y WHERE y.id = l.system_id)" },
};

int pg_check(struct pg *pg, void (*report)(void *ctx, const char *what, long long n), void *ctx,
	     long long *problems, struct strbuf *err)
{
	size_t i;
	int rc;

	*problems = 0;
	rc = pg_check_schema(pg, err);
	if (rc < 0)
		return rc;
	/* one snapshot for all checks */
	rc = pg_exec(pg, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", err);
	for (i = 0; rc == 0 && i < AB_ARRAY_SIZE(pg_checks); i++) {
		PGresult *res = PQexec(pg->conn, pg_checks[i].sql);
		long long n;

		if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
			rc = pg_fail_res(res, err, "cannot check the central store", NULL);
			PQclear(res);
			break;
		}
		n = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
		PQclear(res);
		*problems += n;
		if (report)
			report(ctx, pg_checks[i].what, n);
	}
	pg_exec(pg, "ROLLBACK", NULL);
	return rc;
}

/* ---- COPY text format ---------------------------------------------- */

/* Append n bytes (n small): the hot path of binary COPY, without a call
 * to grow the buffer while it has room. */
static void put_raw(struct pg_copy *cp, const void *p, size_t n)
{
	if (cp->buf.alloc - cp->buf.len <= n)
		strbuf_grow(&cp->buf, n);
	memcpy(cp->buf.buf + cp->buf.len, p, n);
	cp->buf.len += n;
	cp->buf.buf[cp->buf.len] = '\0';
}

static void sep(struct pg_copy *cp)
{
	if (cp->binary) {
		if (cp->ncols++ == 0) { /* the column count, filled in at the row's end */
			cp->row_start = cp->buf.len;
			put_raw(cp, "\0\0", 2);
		}
		return;
	}
	if (cp->ncols++)
		strbuf_addch(&cp->buf, '\t');
}

/* big-endian, as binary COPY wants */
static void put_be(struct pg_copy *cp, uint64_t v, int bytes)
{
	unsigned char b[8];
	int i;

	for (i = bytes - 1; i >= 0; i--) {
		b[i] = (unsigned char)(v & 0xFF);
		v >>= 8;
	}
	put_raw(cp, b, (size_t)bytes);
}

void pg_copy_begin(struct pg_copy *cp)
{
	/* the 11-byte signature, flags 0, no header extension */
	static const unsigned char head[19] = { 'P', 'G', 'C', 'O', 'P', 'Y', '\n', 0xFF, '\r',
						'\n', 0, 0, 0, 0, 0, 0, 0, 0, 0 };

	if (cp->binary)
		strbuf_add(&cp->buf, head, sizeof(head));
}

void pg_copy_finish(struct pg_copy *cp)
{
	if (cp->binary)
		put_be(cp, 0xFFFF, 2);
}

void pg_copy_int4(struct pg_copy *cp, int32_t v)
{
	if (!cp->binary) {
		pg_copy_int(cp, v);
		return;
	}
	sep(cp);
	put_be(cp, 4, 4);
	put_be(cp, (uint32_t)v, 4);
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if none:
 * no overlong forms, surrogates or code points past U+10FFFF, as
 * PostgreSQL checks. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];

	if (c >= 0xC2 && c <= 0xDF)
		return n >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF) {
		if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F))
			return 0;
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
		    (s[3] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] > 0x8F))
			return 0;
		return 4;
	}
	return 0;
}

/* Append the bytes s[0..n) that need no COPY escape, converting what is
 * not UTF-8; returns the bytes converted. */
static size_t add_utf8(struct strbuf *sb, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, start = 0, fixed = 0;

	while (i < n) {
		size_t k;

		/* eight bytes at a time while none is NUL or >= 0x80 (the
		 * common case: ASCII text) */
		while (n - i >= 8) {
			uint64_t w;
			memcpy(&w, u + i, 8);
			if (((w | ((w - 0x0101010101010101u) & ~w)) & 0x8080808080808080u) != 0)
				break;
			i += 8;
		}
		if (i >= n)
			break;
		if (u[i] >= 0x01 && u[i] < 0x80) {
			i++;
			continue;
		}
		if (u[i] && (k = utf8_len(u + i, n - i)) > 0) {
			i += k;
			continue;
		}
		strbuf_add(sb, s + start, i - start);
		if (u[i] == 0) {
			static const char fffd[3] = { (char)0xEF, (char)0xBF, (char)0xBD };
			strbuf_add(sb, fffd, 3); /* U+FFFD: text holds no NUL */
		} else {
			char two[2] = { (char)(0xC0 | (u[i] >> 6)), (char)(0x80 | (u[i] & 0x3F)) };
			strbuf_add(sb, two, 2);
		}
		fixed++;
		i++;
		start = i;
	}
	strbuf_add(sb, s + start, n - start);
	return fixed;
}

size_t pg_utf8_add(struct strbuf *sb, const char *s, size_t n)
{
	return add_utf8(sb, s, n);
}

void pg_copy_textn(struct pg_copy *cp, const char *s, size_t n)
{
	size_t i, start = 0;

	sep(cp);
	strbuf_grow(&cp->buf, n + 8);
	if (cp->binary) { /* the length, then the bytes as UTF-8 */
		size_t at = cp->buf.len, len;
		put_be(cp, 0, 4);
		cp->fixed += (long)add_utf8(&cp->buf, s, n);
		len = cp->buf.len - at - 4;
		for (i = 0; i < 4; i++)
			cp->buf.buf[at + i] = (char)((len >> (8 * (3 - i))) & 0xFF);
		return;
	}
	for (i = 0; i < n; i++) {
		const char *esc = NULL;

		if ((unsigned char)s[i] >= 0x80 || !s[i]) {
			/* the rare case: check and convert the rest */
			strbuf_add(&cp->buf, s + start, i - start);
			start = i;
			for (; i < n; i++) {
				switch (s[i]) {
				case '\\': esc = "\\\\"; break;
				case '\t': esc = "\\t"; break;
				case '\n': esc = "\\n"; break;
				case '\r': esc = "\\r"; break;
				default: continue;
				}
				cp->fixed += (long)add_utf8(&cp->buf, s + start, i - start);
				strbuf_addstr(&cp->buf, esc);
				start = i + 1;
			}
			cp->fixed += (long)add_utf8(&cp->buf, s + start, n - start);
			return;
		}
		switch (s[i]) {
		case '\\': esc = "\\\\"; break;
		case '\t': esc = "\\t"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		default: continue;
		}
		strbuf_add(&cp->buf, s + start, i - start);
		strbuf_addstr(&cp->buf, esc);
		start = i + 1;
	}
	strbuf_add(&cp->buf, s + start, n - start);
}

void pg_copy_text(struct pg_copy *cp, const char *s)
{
	if (!s) {
		pg_copy_null(cp);
		return;
	}
	pg_copy_textn(cp, s, strlen(s));
}

void pg_copy_int(struct pg_copy *cp, int64_t v)
{
	if (cp->binary) {
		sep(cp);
		put_be(cp, 8, 4);
		put_be(cp, (uint64_t)v, 8);
		return;
	}
	sep(cp);
	strbuf_addf(&cp->buf, "%lld", (long long)v);
}

void pg_copy_double(struct pg_copy *cp, double v)
{
	char buf[40];
	int n;

	sep(cp);
	if (cp->binary) { /* IEEE 754 bits: the exact double */
		uint64_t bits;
		memcpy(&bits, &v, sizeof(bits));
		put_be(cp, 8, 4);
		put_be(cp, bits, 8);
		return;
	}
	if (isnan(v)) {
		strbuf_addstr(&cp->buf, "NaN");
		return;
	}
	if (isinf(v)) {
		strbuf_addstr(&cp->buf, v > 0 ? "Infinity" : "-Infinity");
		return;
	}
	/* 17 significant digits: the exact double arrives */
	n = snprintf(buf, sizeof(buf), "%.17g", v);
	if (n > 0 && (size_t)n < sizeof(buf))
		strbuf_add(&cp->buf, buf, (size_t)n);
}

void pg_copy_null(struct pg_copy *cp)
{
	sep(cp);
	if (cp->binary) {
		put_be(cp, 0xFFFFFFFFu, 4);
		return;
	}
	strbuf_addstr(&cp->buf, "\\N");
}

void pg_copy_uuid(struct pg_copy *cp, const void *bytes16)
{
	sep(cp);
	put_be(cp, 16, 4);
	put_raw(cp, bytes16, 16);
}

int pg_copy_end_row(struct pg_copy *cp, struct strbuf *err)
{
	if (cp->binary) {
		cp->buf.buf[cp->row_start] = (char)((cp->ncols >> 8) & 0xFF);
		cp->buf.buf[cp->row_start + 1] = (char)(cp->ncols & 0xFF);
	} else {
		strbuf_addch(&cp->buf, '\n');
	}
	cp->ncols = 0;
	cp->rows++;
	if (cp->buf.len >= PG_COPY_CHUNK && cp->flush)
		return cp->flush(cp->ctx, cp, err);
	return 0;
}

void pg_progress_report(const struct pg_progress *prog, struct timespec *last,
			const struct pg_totals *t, int final)
{
	struct timespec now;

	if (!prog || !prog->fn)
		return;
	if (!final) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - last->tv_sec) * 1000 + (now.tv_nsec - last->tv_nsec) / 1000000 < 200)
			return;
		*last = now;
	}
	prog->fn(prog->ctx, t, final);
}
