/*
 * schema.c - numbered migrations; PRAGMA user_version is the number of the
 * last one applied.  Never edit a released migration: add the next one.
 * The resulting schema is documented in docs/schema.md; a new database
 * gets it directly (schema_now.c, which a new migration updates too).
 */
#include "core/compat.h"
#include "db_priv.h"

/* Each migration: up to MIGRATION_PARTS statements strings (C limits one
 * string literal's length), run in order in one transaction. */
#define MIGRATION_PARTS 4
static const char *const migrations[][MIGRATION_PARTS] = {
	/* 1: the initial schema */
	{
	"CREATE TABLE source("
	"  id INTEGER PRIMARY KEY,"
	"  path TEXT NOT NULL,"
	"  sha256 TEXT NOT NULL UNIQUE,"
	"  format TEXT NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  ingested_at TEXT NOT NULL,"
	"  tool_version TEXT NOT NULL);"
	"CREATE TABLE system("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  display_name TEXT,"
	"  vendor TEXT NOT NULL DEFAULT 'other',"
	"  accelerator TEXT,"
	"  accelerators_per_node INTEGER,"
	"  host_cpu TEXT,"
	"  interconnect TEXT,"
	"  site TEXT,"
	"  tdp_w REAL,"
	"  meta TEXT NOT NULL DEFAULT '{}');"
	"CREATE TABLE benchmark("
	"  id INTEGER PRIMARY KEY,"
	"  suite TEXT NOT NULL,"
	"  name TEXT NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  better TEXT NOT NULL CHECK (better IN ('higher','lower')),"
	"  UNIQUE (suite, name));"
	"CREATE TABLE run("
	"  id INTEGER PRIMARY KEY,"
	"  source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  line INTEGER,"
	"  system_id INTEGER NOT NULL REFERENCES system(id),"
	"  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),"
	"  job_id TEXT,"
	"  started TEXT,"
	"  finished TEXT,"
	"  status TEXT NOT NULL CHECK (status IN ('ok','failed','aborted','invalid')),"
	"  nodes INTEGER,"
	"  devices INTEGER,"
	"  global_batch INTEGER,"
	"  local_batch INTEGER,"
	"  precision TEXT,"
	"  framework TEXT,"
	"  params TEXT NOT NULL DEFAULT '{}',"
	"  excluded_reason TEXT,"
	"  dedupe_key TEXT UNIQUE,"
	"  UNIQUE (source_id, seq));"
	"CREATE INDEX run_benchmark_system ON run(benchmark_id, system_id);"
	"CREATE INDEX run_system ON run(system_id);"
	"CREATE TABLE metric("
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  value REAL NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  meta TEXT,"
	"  PRIMARY KEY (run_id, name)) WITHOUT ROWID;"
	"CREATE INDEX metric_name ON metric(name, run_id);"
	"CREATE TABLE power_sample("
	"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  device TEXT NOT NULL,"
	"  t REAL NOT NULL,"
	"  watts REAL NOT NULL);"
	"CREATE INDEX power_sample_run ON power_sample(run_id, device, t);"
	"CREATE VIEW runs AS SELECT"
	"  r.id AS id, s.path AS source, r.line AS line, b.suite AS suite,"
	"  b.name AS benchmark, y.name AS system, y.vendor AS vendor,"
	"  y.accelerator AS accelerator, r.status AS status, r.nodes AS nodes,"
	"  r.devices AS devices, r.global_batch AS global_batch,"
	"  r.precision AS precision, r.job_id AS job_id,"
	"  (SELECT m.value FROM metric m WHERE m.run_id = r.id AND m.name = b.metric) AS value,"
	"  b.unit AS unit, r.excluded_reason AS excluded_reason"
	"  FROM run r JOIN source s ON s.id = r.source_id"
	"  JOIN benchmark b ON b.id = r.benchmark_id"
	"  JOIN system y ON y.id = r.system_id;" },
	/* 2: every metric lookup goes through the (run_id, name) key; the
	 * name index only cost a B-tree insert per metric (a fifth of a large
	 * ReFrame ingest) */
	{ "DROP INDEX metric_name;" },
	/* 3: a source is identified by its bytes plus, in a results layout
	 * (MLPerf), its place in the layout: the same bytes filed under two
	 * model folders are two results.  SQLite cannot drop a UNIQUE
	 * constraint, so the table is rebuilt (foreign keys are off while
	 * migrations run; see db_migrate) */
	{ "DROP VIEW runs;"
	"CREATE TABLE source_new("
	"  id INTEGER PRIMARY KEY,"
	"  path TEXT NOT NULL,"
	"  sha256 TEXT NOT NULL,"
	"  identity TEXT NOT NULL DEFAULT '',"
	"  format TEXT NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  ingested_at TEXT NOT NULL,"
	"  tool_version TEXT NOT NULL,"
	"  UNIQUE (sha256, identity));"
	"INSERT INTO source_new(id, path, sha256, format, size, ingested_at, tool_version)"
	"  SELECT id, path, sha256, format, size, ingested_at, tool_version FROM source;"
	"DROP TABLE source;"
	"ALTER TABLE source_new RENAME TO source;"
	/* rm source PATH and ingest --replace look sources up by path */
	"CREATE INDEX source_path ON source(path);"
	"CREATE VIEW runs AS SELECT"
	"  r.id AS id, s.path AS source, r.line AS line, b.suite AS suite,"
	"  b.name AS benchmark, y.name AS system, y.vendor AS vendor,"
	"  y.accelerator AS accelerator, r.status AS status, r.nodes AS nodes,"
	"  r.devices AS devices, r.global_batch AS global_batch,"
	"  r.precision AS precision, r.job_id AS job_id,"
	"  (SELECT m.value FROM metric m WHERE m.run_id = r.id AND m.name = b.metric) AS value,"
	"  b.unit AS unit, r.excluded_reason AS excluded_reason"
	"  FROM run r JOIN source s ON s.id = r.source_id"
	"  JOIN benchmark b ON b.id = r.benchmark_id"
	"  JOIN system y ON y.id = r.system_id;" },
	/* 4: compact storage (docs/schema.md, "Storage").  run and metric
	 * become views with the columns they had, over run_data (params as a
	 * list of interned key:value pairs, a 16-byte dedupe hash) and
	 * metric_data (run, interned name+unit+meta, value).  Rows move with
	 * their ids; a migrated run keeps its params text inline. */
	{ "DROP VIEW runs;"
	"CREATE TABLE param_pair("
	"  id INTEGER PRIMARY KEY,"
	"  h INTEGER NOT NULL,"
	"  kv TEXT NOT NULL);"
	"CREATE INDEX param_pair_h ON param_pair(h);"
	"CREATE TABLE metric_kind("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  meta TEXT NOT NULL DEFAULT '',"
	"  UNIQUE (name, unit, meta));"
	"CREATE TABLE run_data("
	"  id INTEGER PRIMARY KEY,"
	"  source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  line INTEGER,"
	"  system_id INTEGER NOT NULL REFERENCES system(id),"
	"  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),"
	"  job_id TEXT,"
	"  started TEXT,"
	"  finished TEXT,"
	"  status TEXT NOT NULL CHECK (status IN ('ok','failed','aborted','invalid')),"
	"  nodes INTEGER,"
	"  devices INTEGER,"
	"  global_batch INTEGER,"
	"  local_batch INTEGER,"
	"  precision TEXT,"
	"  framework TEXT,"
	"  params TEXT NOT NULL DEFAULT '',"
	"  excluded_reason TEXT,"
	"  dedupe BLOB UNIQUE,"
	"  UNIQUE (source_id, seq));"
	,
	"INSERT INTO run_data(id, source_id, seq, line, system_id, benchmark_id, job_id, started,"
	"  finished, status, nodes, devices, global_batch, local_batch, precision, framework,"
	"  params, excluded_reason, dedupe)"
	"  SELECT r.id, r.source_id, r.seq, r.line, r.system_id, r.benchmark_id, r.job_id,"
	"  r.started, r.finished, r.status, r.nodes, r.devices, r.global_batch, r.local_batch,"
	"  r.precision, r.framework,"
	"  CASE WHEN length(r.params) > 2"
	"   THEN json_quote(substr(r.params, 2, length(r.params) - 2)) ELSE '' END,"
	"  r.excluded_reason, ab_key16(r.dedupe_key) FROM run r ORDER BY r.id;"
	"INSERT INTO metric_kind(name, unit, meta)"
	"  SELECT name, unit, meta FROM (SELECT name, unit, coalesce(meta, '') AS meta,"
	"   min(run_id) AS first FROM metric GROUP BY 1, 2, 3) ORDER BY first, name;"
	"CREATE TABLE metric_data("
	"  run_id INTEGER NOT NULL REFERENCES run_data(id) ON DELETE CASCADE,"
	"  kind_id INTEGER NOT NULL REFERENCES metric_kind(id),"
	"  value REAL NOT NULL,"
	"  PRIMARY KEY (run_id, kind_id)) WITHOUT ROWID;"
	"INSERT INTO metric_data(run_id, kind_id, value)"
	"  SELECT m.run_id, k.id, m.value FROM metric m JOIN metric_kind k"
	"  ON k.name = m.name AND k.unit = m.unit AND k.meta = coalesce(m.meta, '');"
	,
	"CREATE TABLE power_sample_new("
	"  run_id INTEGER NOT NULL REFERENCES run_data(id) ON DELETE CASCADE,"
	"  device TEXT NOT NULL,"
	"  t REAL NOT NULL,"
	"  watts REAL NOT NULL);"
	"INSERT INTO power_sample_new SELECT run_id, device, t, watts FROM power_sample"
	"  ORDER BY rowid;"
	"DROP TABLE power_sample;"
	"DROP TABLE metric;"
	"DROP TABLE run;"
	"ALTER TABLE power_sample_new RENAME TO power_sample;"
	"CREATE INDEX power_sample_run ON power_sample(run_id, device, t);"
	/* stats and listings select by benchmark and system */
	"CREATE INDEX run_data_benchmark_system ON run_data(benchmark_id, system_id);"
	"CREATE INDEX run_data_system ON run_data(system_id);"
	"CREATE VIEW run AS SELECT"
	"  d.id AS id, d.source_id AS source_id, d.seq AS seq, d.line AS line,"
	"  d.system_id AS system_id, d.benchmark_id AS benchmark_id, d.job_id AS job_id,"
	"  d.started AS started, d.finished AS finished, d.status AS status, d.nodes AS nodes,"
	"  d.devices AS devices, d.global_batch AS global_batch, d.local_batch AS local_batch,"
	"  d.precision AS precision, d.framework AS framework,"
	/* the pairs in the parser's order (a LEFT JOIN keeps json_each outer):
	 * an id names an interned pair, a string holds pairs stored inline */
	"  (SELECT '{' || coalesce(group_concat(CASE WHEN e.type = 'integer' THEN p.kv"
	"   ELSE e.value END, ','), '') || '}'"
	"   FROM json_each('[' || d.params || ']') e LEFT JOIN param_pair p"
	"   ON e.type = 'integer' AND p.id = e.value) AS params,"
	"  d.excluded_reason AS excluded_reason, lower(hex(d.dedupe)) AS dedupe_key"
	"  FROM run_data d;"
	"CREATE VIEW metric AS SELECT"
	"  d.run_id AS run_id, k.name AS name, d.value AS value, k.unit AS unit,"
	"  nullif(k.meta, '') AS meta"
	"  FROM metric_data d JOIN metric_kind k ON k.id = d.kind_id;"
	"CREATE VIEW runs AS SELECT"
	"  r.id AS id, s.path AS source, r.line AS line, b.suite AS suite,"
	"  b.name AS benchmark, y.name AS system, y.vendor AS vendor,"
	"  y.accelerator AS accelerator, r.status AS status, r.nodes AS nodes,"
	"  r.devices AS devices, r.global_batch AS global_batch,"
	"  r.precision AS precision, r.job_id AS job_id,"
	"  (SELECT m.value FROM metric_data m JOIN metric_kind k ON k.id = m.kind_id"
	"   WHERE m.run_id = r.id AND k.name = b.metric) AS value,"
	"  b.unit AS unit, r.excluded_reason AS excluded_reason"
	"  FROM run_data r JOIN source s ON s.id = r.source_id"
	"  JOIN benchmark b ON b.id = r.benchmark_id"
	"  JOIN system y ON y.id = r.system_id;" },
	/* 5: power samples are found by run (plots sort a run's few thousand
	 * in memory); an index over (run_id, device, t) copied every sample */
	{ "DROP INDEX power_sample_run;"
	  "CREATE INDEX power_sample_run ON power_sample(run_id);" },
	/* 6: a cheaper row per run and per power sample (docs/schema.md,
	 * "Storage").  run_data.status becomes a code 0-3 (SQLite built a
	 * temporary table per inserted row to check "status IN (...)"); params
	 * become an interned set of the pairs runs share plus the run's own
	 * pairs as JSON object text (the view concatenates the two, no json_each
	 * per read); (source_id, seq) is indexed but not checked for
	 * uniqueness (the sink numbers seq itself).  power_sample becomes a view
	 * over power_data, keyed (run_id, i) with the device interned in
	 * power_device: no separate index, no device text per sample.  Rows keep
	 * their ids; a migrated run's params are its own pairs. */
	{ "DROP VIEW runs;"
	"DROP VIEW run;"
	"CREATE TABLE param_set("
	"  id INTEGER PRIMARY KEY,"
	"  h INTEGER NOT NULL,"
	"  kv TEXT NOT NULL);"
	"CREATE INDEX param_set_h ON param_set(h);"
	"CREATE TABLE run_data_new("
	"  id INTEGER PRIMARY KEY,"
	"  source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  line INTEGER,"
	"  system_id INTEGER NOT NULL REFERENCES system(id),"
	"  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),"
	"  job_id TEXT,"
	"  started TEXT,"
	"  finished TEXT,"
	"  status INTEGER NOT NULL CHECK (status BETWEEN 0 AND 3),"
	"  nodes INTEGER,"
	"  devices INTEGER,"
	"  global_batch INTEGER,"
	"  local_batch INTEGER,"
	"  precision TEXT,"
	"  framework TEXT,"
	"  set_id INTEGER REFERENCES param_set(id),"
	"  params TEXT,"
	"  excluded_reason TEXT,"
	"  dedupe BLOB UNIQUE);"
	"INSERT INTO run_data_new(id, source_id, seq, line, system_id, benchmark_id, job_id,"
	"  started, finished, status, nodes, devices, global_batch, local_batch, precision,"
	"  framework, set_id, params, excluded_reason, dedupe)"
	"  SELECT d.id, d.source_id, d.seq, d.line, d.system_id, d.benchmark_id, d.job_id,"
	"  d.started, d.finished, CASE d.status WHEN 'ok' THEN 0 WHEN 'failed' THEN 1"
	"  WHEN 'aborted' THEN 2 ELSE 3 END, d.nodes, d.devices, d.global_batch, d.local_batch,"
	"  d.precision, d.framework, NULL,"
	"  nullif((SELECT '{' || coalesce(group_concat(CASE WHEN e.type = 'integer' THEN p.kv"
	"   ELSE e.value END, ','), '') || '}'"
	"   FROM json_each('[' || d.params || ']') e LEFT JOIN param_pair p"
	"   ON e.type = 'integer' AND p.id = e.value), '{}'),"
	"  d.excluded_reason, d.dedupe FROM run_data d ORDER BY d.id;"
	"DROP TABLE run_data;"
	"DROP TABLE param_pair;"
	"ALTER TABLE run_data_new RENAME TO run_data;"
	/* removing a source; stats and listings select by benchmark and system */
	"CREATE INDEX run_data_source ON run_data(source_id, seq);"
	"CREATE INDEX run_data_benchmark_system ON run_data(benchmark_id, system_id);"
	"CREATE INDEX run_data_system ON run_data(system_id);"
	,
	"CREATE TABLE power_device("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE);"
	"INSERT INTO power_device(name) SELECT device FROM power_sample GROUP BY device"
	"  ORDER BY min(rowid);"
	"CREATE TABLE power_data("
	"  run_id INTEGER NOT NULL REFERENCES run_data(id) ON DELETE CASCADE,"
	"  i INTEGER NOT NULL,"
	"  device_id INTEGER NOT NULL REFERENCES power_device(id),"
	"  t REAL NOT NULL,"
	"  watts REAL NOT NULL,"
	"  PRIMARY KEY (run_id, i)) WITHOUT ROWID;"
	"INSERT INTO power_data(run_id, i, device_id, t, watts)"
	"  SELECT p.run_id, p.rowid, d.id, p.t, p.watts FROM power_sample p"
	"  JOIN power_device d ON d.name = p.device ORDER BY p.run_id, p.rowid;"
	"DROP TABLE power_sample;"
	"CREATE VIEW power_sample AS SELECT"
	"  p.run_id AS run_id, d.name AS device, p.t AS t, p.watts AS watts"
	"  FROM power_data p JOIN power_device d ON d.id = p.device_id;"
	"CREATE VIEW run AS SELECT"
	"  d.id AS id, d.source_id AS source_id, d.seq AS seq, d.line AS line,"
	"  d.system_id AS system_id, d.benchmark_id AS benchmark_id, d.job_id AS job_id,"
	"  d.started AS started, d.finished AS finished,"
	"  CASE d.status WHEN 0 THEN 'ok' WHEN 1 THEN 'failed' WHEN 2 THEN 'aborted'"
	"   ELSE 'invalid' END AS status,"
	"  d.nodes AS nodes, d.devices AS devices, d.global_batch AS global_batch,"
	"  d.local_batch AS local_batch, d.precision AS precision, d.framework AS framework,"
	/* the shared set's pairs, then the run's own */
	"  CASE WHEN d.set_id IS NULL THEN coalesce(d.params, '{}')"
	"   WHEN d.params IS NULL THEN (SELECT kv FROM param_set WHERE id = d.set_id)"
	"   ELSE (SELECT substr(kv, 1, length(kv) - 1) FROM param_set WHERE id = d.set_id)"
	"    || ',' || substr(d.params, 2) END AS params,"
	"  d.excluded_reason AS excluded_reason, lower(hex(d.dedupe)) AS dedupe_key"
	"  FROM run_data d;"
	"CREATE VIEW runs AS SELECT"
	"  r.id AS id, s.path AS source, r.line AS line, b.suite AS suite,"
	"  b.name AS benchmark, y.name AS system, y.vendor AS vendor,"
	"  y.accelerator AS accelerator,"
	"  CASE r.status WHEN 0 THEN 'ok' WHEN 1 THEN 'failed' WHEN 2 THEN 'aborted'"
	"   ELSE 'invalid' END AS status, r.nodes AS nodes,"
	"  r.devices AS devices, r.global_batch AS global_batch,"
	"  r.precision AS precision, r.job_id AS job_id,"
	"  (SELECT m.value FROM metric_data m JOIN metric_kind k ON k.id = m.kind_id"
	"   WHERE m.run_id = r.id AND k.name = b.metric) AS value,"
	"  b.unit AS unit, r.excluded_reason AS excluded_reason"
	"  FROM run_data r JOIN source s ON s.id = r.source_id"
	"  JOIN benchmark b ON b.id = r.benchmark_id"
	"  JOIN system y ON y.id = r.system_id;" },
	/* 7: no index on run_data(system_id) alone: inserting into it was ~12%
	 * of the writer's instructions; the few readers that select by system
	 * without a benchmark probe run_data(benchmark_id, system_id) once per
	 * benchmark ("benchmark_id IN (SELECT id FROM benchmark)") */
	{ "DROP INDEX run_data_system;" },
	/* 8: the runs of a source are one range of run ids (the sink stores
	 * them in the source's one transaction, each new rowid the largest + 1):
	 * source.first_run/last_run name it, and readers select a source's
	 * runs by that rowid range instead of an index on
	 * run_data(source_id, seq), whose upkeep was ~9% of the writer's
	 * instructions (docs/schema.md, "Storage").  Old databases get the
	 * range from their runs (min, max): readers still check source_id, so
	 * a range that held another source's runs would stay correct. */
	{ "ALTER TABLE source ADD COLUMN first_run INTEGER;"
	  "ALTER TABLE source ADD COLUMN last_run INTEGER;"
	  "UPDATE source SET"
	  " first_run = (SELECT min(id) FROM run_data WHERE source_id = source.id),"
	  " last_run = (SELECT max(id) FROM run_data WHERE source_id = source.id);"
	  "DROP INDEX run_data_source;" },
	/* 9: a run's metrics are one column of its row, run_data.metrics:
	 * JSON object text {"<metric_kind id>":<value>,...}, keys ascending,
	 * values in the shortest form that reads back as the same double
	 * (db_metrics.c), NULL for none.  One B-tree entry per run instead of
	 * one per metric (metric_data's rows were half of a large ingest's
	 * writing).  The view `metric` keeps its columns (json_each); the
	 * migration packs every value exactly (ab_pack_metrics, in C: SQLite's
	 * own JSON functions print 15 digits). */
	{ "DROP VIEW runs;"
	  "DROP VIEW metric;"
	  "ALTER TABLE run_data ADD COLUMN metrics TEXT;"
	  "UPDATE run_data SET metrics = (SELECT ab_pack_metrics(m.kind_id, m.value)"
	  " FROM metric_data m WHERE m.run_id = run_data.id);"
	  "DROP TABLE metric_data;"
	  "CREATE VIEW metric AS SELECT"
	  "  d.id AS run_id, k.name AS name, e.value AS value, k.unit AS unit,"
	  "  nullif(k.meta, '') AS meta"
	  "  FROM run_data d JOIN json_each(d.metrics) e JOIN metric_kind k ON k.id = e.key;"
	  "CREATE VIEW runs AS SELECT"
	  "  r.id AS id, s.path AS source, r.line AS line, b.suite AS suite,"
	  "  b.name AS benchmark, y.name AS system, y.vendor AS vendor,"
	  "  y.accelerator AS accelerator,"
	  "  CASE r.status WHEN 0 THEN 'ok' WHEN 1 THEN 'failed' WHEN 2 THEN 'aborted'"
	  "   ELSE 'invalid' END AS status, r.nodes AS nodes,"
	  "  r.devices AS devices, r.global_batch AS global_batch,"
	  "  r.precision AS precision, r.job_id AS job_id,"
	  "  (SELECT e.value FROM json_each(r.metrics) e JOIN metric_kind k ON k.id = e.key"
	  "   WHERE k.name = b.metric) AS value,"
	  "  b.unit AS unit, r.excluded_reason AS excluded_reason"
	  "  FROM run_data r JOIN source s ON s.id = r.source_id"
	  "  JOIN benchmark b ON b.id = r.benchmark_id"
	  "  JOIN system y ON y.id = r.system_id;" },
	/* 10: one index for both benchmark-and-system selection and dedupe
	 * uniqueness, UNIQUE (benchmark_id, system_id, dedupe), instead of an
	 * index on (benchmark_id, system_id) and one on dedupe: a dedupe key
	 * names its run's benchmark and system (docs/schema.md, "Storage"), so
	 * the same key never comes with another pair.  SQLite cannot drop a
	 * UNIQUE column constraint: run_data is rebuilt, rows keep their ids. */
	{ "DROP VIEW runs;"
	  "DROP VIEW metric;"
	  "DROP VIEW run;"
	  "CREATE TABLE run_data_new("
	  "  id INTEGER PRIMARY KEY,"
	  "  source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,"
	  "  seq INTEGER NOT NULL,"
	  "  line INTEGER,"
	  "  system_id INTEGER NOT NULL REFERENCES system(id),"
	  "  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),"
	  "  job_id TEXT,"
	  "  started TEXT,"
	  "  finished TEXT,"
	  "  status INTEGER NOT NULL CHECK (status BETWEEN 0 AND 3),"
	  "  nodes INTEGER,"
	  "  devices INTEGER,"
	  "  global_batch INTEGER,"
	  "  local_batch INTEGER,"
	  "  precision TEXT,"
	  "  framework TEXT,"
	  "  set_id INTEGER REFERENCES param_set(id),"
	  "  params TEXT,"
	  "  excluded_reason TEXT,"
	  "  dedupe BLOB,"
	  "  metrics TEXT);"
	  "INSERT INTO run_data_new SELECT * FROM run_data ORDER BY id;"
	  "DROP TABLE run_data;"
	  "ALTER TABLE run_data_new RENAME TO run_data;"
	  "CREATE UNIQUE INDEX run_data_benchmark_system ON run_data(benchmark_id, system_id, dedupe);"
	  ,
	  "CREATE VIEW run AS SELECT"
	  "  d.id AS id, d.source_id AS source_id, d.seq AS seq, d.line AS line,"
	  "  d.system_id AS system_id, d.benchmark_id AS benchmark_id, d.job_id AS job_id,"
	  "  d.started AS started, d.finished AS finished,"
	  "  CASE d.status WHEN 0 THEN 'ok' WHEN 1 THEN 'failed' WHEN 2 THEN 'aborted'"
	  "   ELSE 'invalid' END AS status,"
	  "  d.nodes AS nodes, d.devices AS devices, d.global_batch AS global_batch,"
	  "  d.local_batch AS local_batch, d.precision AS precision, d.framework AS framework,"
	  "  CASE WHEN d.set_id IS NULL THEN coalesce(d.params, '{}')"
	  "   WHEN d.params IS NULL THEN (SELECT kv FROM param_set WHERE id = d.set_id)"
	  "   ELSE (SELECT substr(kv, 1, length(kv) - 1) FROM param_set WHERE id = d.set_id)"
	  "    || ',' || substr(d.params, 2) END AS params,"
	  "  d.excluded_reason AS excluded_reason, lower(hex(d.dedupe)) AS dedupe_key"
	  "  FROM run_data d;"
	  "CREATE VIEW metric AS SELECT"
	  "  d.id AS run_id, k.name AS name, e.value AS value, k.unit AS unit,"
	  "  nullif(k.meta, '') AS meta"
	  "  FROM run_data d JOIN json_each(d.metrics) e JOIN metric_kind k ON k.id = e.key;"
	  "CREATE VIEW runs AS SELECT"
	  "  r.id AS id, s.path AS source, r.line AS line, b.suite AS suite,"
	  "  b.name AS benchmark, y.name AS system, y.vendor AS vendor,"
	  "  y.accelerator AS accelerator,"
	  "  CASE r.status WHEN 0 THEN 'ok' WHEN 1 THEN 'failed' WHEN 2 THEN 'aborted'"
	  "   ELSE 'invalid' END AS status, r.nodes AS nodes,"
	  "  r.devices AS devices, r.global_batch AS global_batch,"
	  "  r.precision AS precision, r.job_id AS job_id,"
	  "  (SELECT e.value FROM json_each(r.metrics) e JOIN metric_kind k ON k.id = e.key"
	  "   WHERE k.name = b.metric) AS value,"
	  "  b.unit AS unit, r.excluded_reason AS excluded_reason"
	  "  FROM run_data r JOIN source s ON s.id = r.source_id"
	  "  JOIN benchmark b ON b.id = r.benchmark_id"
	  "  JOIN system y ON y.id = r.system_id;" },
	/* 11: the run index in the order runs come: UNIQUE (benchmark_id,
	 * system_id, korder, dedupe).  korder is a number the dedupe key's
	 * text ends with (a ReFrame key's completion time or job id), so a
	 * (benchmark, system)'s new runs go to the end of its part of the
	 * index instead of a random place in it: the writer of a 300,000-line
	 * perflog tree spent a fifth of its time on that index's cache misses.
	 * A function of the key's text, it adds nothing to what is unique.
	 * Rows stored before have no text to take it from: -1, "unknown", and
	 * a (benchmark, system) with such a row keeps -1 for every run it
	 * gets (docs/schema.md, "Storage"). */
	{ "ALTER TABLE run_data ADD COLUMN korder INTEGER NOT NULL DEFAULT -1;"
	  "DROP INDEX run_data_benchmark_system;"
	  "CREATE UNIQUE INDEX run_data_key ON run_data(benchmark_id, system_id, korder, dedupe);" },
};

/* PRAGMA takes no bound parameters; the number is ours, not input */
static int set_version(sqlite3 *sql, size_t v, struct strbuf *err)
{
	struct strbuf pragma = STRBUF_INIT;
	int rc;

	strbuf_addf(&pragma, "PRAGMA user_version = %zu", v);
	rc = db_exec_sql(sql, pragma.buf, err);
	strbuf_release(&pragma);
	return rc;
}

/* Migration i + 1 (migrations[i]), and the version it leaves. */
static int migrate(sqlite3 *sql, size_t i, struct strbuf *err)
{
	size_t j;
	int rc = 0;

	for (j = 0; j < MIGRATION_PARTS && migrations[i][j] && rc == 0; j++)
		rc = db_exec_sql(sql, migrations[i][j], err);
	return rc < 0 ? rc : set_version(sql, i + 1, err);
}

int db_schema_create(sqlite3 *sql, int replay, struct strbuf *err)
{
	const char *q;
	size_t i;
	int rc = 0;

	for (i = 0; replay && rc == 0 && i < AB_ARRAY_SIZE(migrations); i++)
		rc = migrate(sql, i, err);
	if (replay)
		return rc;
	for (i = 0; rc == 0 && (q = db_schema_now(i)); i++)
		rc = db_exec_sql(sql, q, err);
	return rc < 0 ? rc : set_version(sql, AB_ARRAY_SIZE(migrations), err);
}

int db_migrate(struct db *db, struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int version, rc;
	size_t i;

	rc = db_prepare(db, &st, "PRAGMA user_version", err);
	if (rc < 0)
		return rc;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return db_fail(db, err, "cannot read the schema version");
	}
	version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version > (int)AB_ARRAY_SIZE(migrations))
		return ab_fail(err, AB_EIO,
			       "database '%s' has schema version %d, newer than this accelbench "
			       "understands (%d)",
			       db_path(db), version, (int)AB_ARRAY_SIZE(migrations));
	if (version == (int)AB_ARRAY_SIZE(migrations))
		return 0;
	if (db->flags & DB_READONLY)
		/* reading commands never write, not even an upgrade */
		return ab_fail(err, AB_EIO,
			       "database '%s' has schema version %d, older than this accelbench "
			       "reads (%d): a writing command such as 'accelbench ingest' upgrades it",
			       db_path(db), version, (int)AB_ARRAY_SIZE(migrations));
	/* a migration may rebuild a table (drop, rename): foreign keys must not
	 * cascade or check meanwhile; PRAGMA foreign_key_check runs before the
	 * commit instead.  The pragma is a no-op inside a transaction. */
	rc = db_exec(db, "PRAGMA foreign_keys = OFF", err);
	if (rc < 0)
		return rc;
	rc = db_exec(db, "BEGIN IMMEDIATE", err);
	if (rc < 0)
		goto fk_on;
	/* re-read inside the lock: another process may have migrated meanwhile */
	rc = db_prepare(db, &st, "PRAGMA user_version", err);
	if (rc < 0)
		goto fail;
	version = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	/* a new file gets the current schema at once (schema_now.c) */
	if (version == 0)
		rc = db_schema_create(db->sql, 0, err);
	else
		for (i = (size_t)version; rc == 0 && i < AB_ARRAY_SIZE(migrations); i++)
			rc = migrate(db->sql, i, err);
	if (rc < 0)
		goto fail;
	rc = db_prepare(db, &st, "PRAGMA foreign_key_check", err);
	if (rc < 0)
		goto fail;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		rc = ab_fail(err, AB_EIO, "database '%s': the upgrade would leave rows without "
					  "their parent; not upgraded", db_path(db));
		goto fail;
	}
	rc = db_exec(db, "COMMIT", err);
	if (rc < 0)
		goto fail;
	return db_exec(db, "PRAGMA foreign_keys = ON", err);
fail:
	db_exec(db, "ROLLBACK", NULL);
fk_on:
	db_exec(db, "PRAGMA foreign_keys = ON", NULL);
	return rc;
}
