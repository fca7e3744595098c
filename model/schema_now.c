/*
 * schema_now.c - the schema the migrations leave, for a new database.
 * Owner: model (schema).  Read by schema.c only.
 *
 * These are the statements sqlite_master holds after migrations 1..N
 * (schema.c) ran on an empty file, in its order (rowid), word for word:
 * a new database gets them directly, with the same text, so `.dump`,
 * `.schema` and every reader see what an upgraded database shows.
 * Replaying the migrations instead re-read the whole schema after each
 * DROP, RENAME and ALTER of the old layouts: 28M instructions, as much
 * as loading the program, on the way to a new database's first ingest.
 *
 * A new migration changes this list too.  tests/unit/test_schema.c
 * replays every migration into an empty database and fails when the
 * two differ, printing the statements the migrations left.
 */
#include "core/compat.h"
#include "db_priv.h"

static const char *const schema_now[] = {
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
	"  meta TEXT NOT NULL DEFAULT '{}')",
	"CREATE TABLE benchmark("
	"  id INTEGER PRIMARY KEY,"
	"  suite TEXT NOT NULL,"
	"  name TEXT NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  better TEXT NOT NULL CHECK (better IN ('higher','lower')),"
	"  UNIQUE (suite, name))",
	"CREATE TABLE \"source\"("
	"  id INTEGER PRIMARY KEY,"
	"  path TEXT NOT NULL,"
	"  sha256 TEXT NOT NULL,"
	"  identity TEXT NOT NULL DEFAULT '',"
	"  format TEXT NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  ingested_at TEXT NOT NULL,"
	"  tool_version TEXT NOT NULL, first_run INTEGER, last_run INTEGER,"
	"  UNIQUE (sha256, identity))",
	"CREATE INDEX source_path ON source(path)",
	"CREATE TABLE metric_kind("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  meta TEXT NOT NULL DEFAULT '',"
	"  UNIQUE (name, unit, meta))",
	"CREATE TABLE param_set("
	"  id INTEGER PRIMARY KEY,"
	"  h INTEGER NOT NULL,"
	"  kv TEXT NOT NULL)",
	"CREATE INDEX param_set_h ON param_set(h)",
	"CREATE TABLE power_device("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE)",
	"CREATE TABLE power_data("
	"  run_id INTEGER NOT NULL REFERENCES run_data(id) ON DELETE CASCADE,"
	"  i INTEGER NOT NULL,"
	"  device_id INTEGER NOT NULL REFERENCES power_device(id),"
	"  t REAL NOT NULL,"
	"  watts REAL NOT NULL,"
	"  PRIMARY KEY (run_id, i)) WITHOUT ROWID",
	"CREATE VIEW power_sample AS SELECT"
	"  p.run_id AS run_id, d.name AS device, p.t AS t, p.watts AS watts"
	"  FROM power_data p JOIN power_device d ON d.id = p.device_id",
	"CREATE TABLE \"run_data\"("
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
	"  metrics TEXT, korder INTEGER NOT NULL DEFAULT -1)",
	"CREATE VIEW run AS SELECT"
	"  d.id AS id, d.source_id AS source_id, d.seq AS seq, d.line AS line,"
	"  d.system_id AS system_id, d.benchmark_id AS benchmark_id, d.job_id AS job_id,"
	"  d.started AS started, d.finished AS finished,"
	"  CASE d.status WHEN 0 THEN 'ok' WHEN 1 THEN 'failed' WHEN 2 THEN 'aborted'"
	" "
	"  ELSE 'invalid' END AS status,"
	"  d.nodes AS nodes, d.devices AS devices, d.global_batch AS global_batch,"
	"  d.local_batch AS local_batch, d.precision AS precision, d.framework AS framework,"
	"  CASE WHEN d.set_id IS NULL THEN coalesce(d.params, '{}')"
	" "
	"  WHEN d.params IS NULL THEN (SELECT kv FROM param_set WHERE id = d.set_id)"
	" "
	"  ELSE (SELECT substr(kv, 1, length(kv) - 1) FROM param_set WHERE id = d.set_id)"
	"  "
	"  || ',' || substr(d.params, 2) END AS params,"
	"  d.excluded_reason AS excluded_reason, lower(hex(d.dedupe)) AS dedupe_key"
	"  FROM run_data d",
	"CREATE VIEW metric AS SELECT"
	"  d.id AS run_id, k.name AS name, e.value AS value, k.unit AS unit,"
	"  nullif(k.meta, '') AS meta"
	"  FROM run_data d JOIN json_each(d.metrics) e JOIN metric_kind k ON k.id = e.key",
	"CREATE VIEW runs AS SELECT"
	"  r.id AS id, s.path AS source, r.line AS line, b.suite AS suite,"
	"  b.name AS benchmark, y.name AS system, y.vendor AS vendor,"
	"  y.accelerator AS accelerator,"
	"  CASE r.status WHEN 0 THEN 'ok' WHEN 1 THEN 'failed' WHEN 2 THEN 'aborted'"
	" "
	"  ELSE 'invalid' END AS status, r.nodes AS nodes,"
	"  r.devices AS devices, r.global_batch AS global_batch,"
	"  r.precision AS precision, r.job_id AS job_id,"
	"  (SELECT e.value FROM json_each(r.metrics) e JOIN metric_kind k ON k.id = e.key"
	" "
	"  WHERE k.name = b.metric) AS value,"
	"  b.unit AS unit, r.excluded_reason AS excluded_reason"
	"  FROM run_data r JOIN source s ON s.id = r.source_id"
	"  JOIN benchmark b ON b.id = r.benchmark_id"
	"  JOIN system y ON y.id = r.system_id",
	"CREATE UNIQUE INDEX run_data_key ON run_data(benchmark_id, system_id, korder, dedupe)",
};

const char *db_schema_now(size_t i)
{
	return i < AB_ARRAY_SIZE(schema_now) ? schema_now[i] : NULL;
}
