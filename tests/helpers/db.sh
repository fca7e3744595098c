# db.sh - what the CLI tests ask of a database, once (sourced by
# tests/cli/lib.sh; uses its $AB, $PY and $ACCELBENCH_DB):
#
#   dbsum [DB]        the bytes of DB (default $ACCELBENCH_DB) and of its WAL
#                     when it has one, as SHA-256 lines; "none" when DB is absent
#   orphans [DB]      succeeds when every child row has its parent (each key
#                     of a run's packed metrics names a metric_kind), every
#                     interned row is used, each source's run id range is
#                     exact (schema 8 on), and SQLite's foreign key and
#                     integrity checks pass
#   content DB        what DB holds, independent of ids and ingest order: one
#                     sorted CSV line a run (system, job id, benchmark, status,
#                     global batch, devices, its metrics as name=value;...)
#   runq FILTER... -- FIELD...   (ls runs --json on stdin) one run's fields,
#                     a line each "FIELD=value".  FILTER: key=value (equal),
#                     key~text (contains), nth=N (the Nth match from 0; without
#                     it exactly one run must match).  FIELD: a run field,
#                     m.NAME (metric "value unit" or none), p.NAME (param as JSON)

dbsum() {
	ds_db=${1:-$ACCELBENCH_DB}
	if [ -e "$ds_db" ]; then sha256sum <"$ds_db"; else echo none; fi
	if [ -s "$ds_db-wal" ]; then echo wal; sha256sum <"$ds_db-wal"; fi
}

orphans() {
	or_db=${1:-$ACCELBENCH_DB}
	"$AB" --db "$or_db" sql --csv "SELECT
	 (SELECT count(*) FROM run_data WHERE source_id NOT IN (SELECT id FROM source))
	 + (SELECT count(*) FROM run_data WHERE system_id NOT IN (SELECT id FROM system))
	 + (SELECT count(*) FROM run_data WHERE benchmark_id NOT IN (SELECT id FROM benchmark))
	 + (SELECT count(*) FROM run_data WHERE metrics IS NOT NULL AND (NOT json_valid(metrics)
	    OR json_type(metrics) <> 'object' OR metrics = '{}'))
	 + (SELECT count(*) FROM run_data d, json_each(d.metrics) e
	    WHERE e.type <> 'real' OR CAST(e.key AS INTEGER) NOT IN (SELECT id FROM metric_kind))
	 + (SELECT count(*) FROM power_data WHERE run_id NOT IN (SELECT id FROM run_data))
	 + (SELECT count(*) FROM power_data WHERE device_id NOT IN (SELECT id FROM power_device))
	 + (SELECT count(*) FROM run_data WHERE set_id IS NOT NULL
	    AND set_id NOT IN (SELECT id FROM param_set)) AS n,
	 (SELECT count(*) FROM param_set
	    WHERE id NOT IN (SELECT set_id FROM run_data WHERE set_id IS NOT NULL))
	 + (SELECT count(*) FROM metric_kind WHERE id NOT IN
	    (SELECT CAST(e.key AS INTEGER) FROM run_data d, json_each(d.metrics) e))
	 + (SELECT count(*) FROM power_device WHERE id NOT IN (SELECT device_id FROM power_data))
	 AS unused" >orph &&
	printf "n,unused\n0,0\n" >orph.expect && test_cmp orph.expect orph &&
	"$AB" --db "$or_db" sql --csv "PRAGMA foreign_key_check" >fk && test "$(wc -l <fk)" -le 1 &&
	"$AB" --db "$or_db" sql --csv "PRAGMA integrity_check" >ic &&
	printf "integrity_check\nok\n" >ic.expect && test_cmp ic.expect ic &&
	or_ranges "$or_db"
}

# from schema 8 on: each source's first_run..last_run is exactly the id
# range of its runs (nothing to check in an older database)
or_ranges() {
	or_has=$("$AB" --db "$1" sql --csv "SELECT count(*) FROM pragma_table_info('source')
		WHERE name = 'first_run'" | tail -1) || return 1
	test "$or_has" = 0 && return 0
	"$AB" --db "$1" sql --csv "SELECT count(*) AS bad_ranges FROM source s
	    WHERE first_run IS NOT (SELECT min(id) FROM run_data WHERE source_id = s.id)
	    OR last_run IS NOT (SELECT max(id) FROM run_data WHERE source_id = s.id)
	    OR (SELECT count(*) FROM run_data WHERE source_id = s.id)
	       <> coalesce(last_run - first_run + 1, 0)" >ranges &&
	printf "bad_ranges\n0\n" >ranges.expect && test_cmp ranges.expect ranges
}

content() {
	"$AB" --db "$1" sql --csv "SELECT y.name, r.job_id, b.name, r.status, r.global_batch,
		r.devices, (SELECT group_concat(name || '=' || value, ';') FROM (SELECT name, value
		FROM metric m WHERE m.run_id = r.id ORDER BY name))
		FROM run r JOIN benchmark b ON b.id = r.benchmark_id
		JOIN system y ON y.id = r.system_id" | sed 1d | LC_ALL=C sort
}

runq() {
	"$PY" -c '
import json, sys
args = sys.argv[1:]
cut = args.index("--")
filters, fields = args[:cut], args[cut + 1:]
runs, nth = json.load(sys.stdin), None
for f in filters:
    if f.startswith("nth="):
        nth = int(f[4:])
    elif "=" in f:
        k, v = f.split("=", 1)
        runs = [r for r in runs if str(r[k]) == v]
    else:
        k, v = f.split("~", 1)
        runs = [r for r in runs if v in str(r[k])]
if nth is None:
    assert len(runs) == 1, "%d runs match %s" % (len(runs), " ".join(filters))
    nth = 0
r = runs[nth]
for f in fields:
    if f.startswith("m."):
        m = r["metrics"].get(f[2:])
        print("%s=%s" % (f, "none" if m is None else "%.10g %s" % (m["value"], m["unit"])))
    elif f.startswith("p."):
        print("%s=%s" % (f, json.dumps(r["params"].get(f[2:]), sort_keys=True)))
    else:
        print("%s=%s" % (f, r[f]))
' "$@"
}
