#!/bin/sh
# t0702-storage-integrity: the compact storage (run/metric/power_sample are
# views over run_data (metrics packed in its row)/power_data with interned param sets,
# metric kinds and power devices) keeps every value; an old database
# upgrades with all its rows; no orphan rows and no unused interned rows
# after ingest, rm, --replace, and an ingest killed mid-way; each source's
# first_run..last_run is exactly the id range of its runs (schema 8).
. "$(dirname "$0")/lib.sh"

GEN=${AB_BUILD:-}/helpers/gen_reframe


test_expect_success 'a schema-1 database upgrades with every row and value kept' '
	sqlite3 old.db <"$FIXTURES/db/v1.sql" &&
	ab --db old.db ingest "$FIXTURES/caraml/tree/resnet50_benchmark_run" >/dev/null 2>&1 &&
	ab --db new.db ingest "$FIXTURES/caraml/tree/resnet50_benchmark_run" >/dev/null 2>&1 &&
	test "$(sqlite3 old.db "PRAGMA user_version")" = "$(sqlite3 new.db "PRAGMA user_version")" &&
	# a new file gets the schema directly (model/schema_now.c): word for
	# word what the upgrade left
	sqlite3 old.db .schema >schema.old && sqlite3 new.db .schema >schema.new &&
	test_cmp schema.old schema.new &&
	ab --db old.db sql --csv "SELECT id, source_id, seq, line, job_id, status, params, excluded_reason FROM run WHERE id <= 2" >actual &&
	cat >expect <<-\EOF &&
	id,source_id,seq,line,job_id,status,params,excluded_reason
	1,1,1,2,900001,ok,"{""Version"":""2025.01"",""Iterations"":10,""x"":{""a"":[1,""b\u00e9""]}}",
	2,2,1,3,900002,failed,{},nan
	EOF
	test_cmp expect actual &&
	ab --db old.db sql --csv "SELECT run_id, name, value, unit, meta FROM metric WHERE run_id = 1 ORDER BY name" >actual &&
	cat >expect <<-\EOF &&
	run_id,name,value,unit,meta
	1,energy,3.6666666666666665,Wh,"{""boundary"":""gpu""}"
	1,throughput,81920,tokens/s,
	EOF
	test_cmp expect actual &&
	ab --db old.db sql --csv "SELECT count(*), sum(watts) FROM power_sample WHERE run_id = 1" >actual &&
	printf "count(*),sum(watts)\n2,661.25\n" >expect && test_cmp expect actual &&
	ab --db old.db sql --csv "SELECT dedupe_key FROM run WHERE id = 1" >actual &&
	printf "dedupe_key\n5f47a157fb078286c9174317ac089145\n" >expect && test_cmp expect actual &&
	orphans old.db
'

# params as JSON with sorted keys (the view gives the shared set's pairs first)
params_of() {
	ab --db "$1" sql --json "SELECT job_id, params FROM run WHERE job_id IN ('900001', '900002') ORDER BY job_id" |
	"$PY" -c 'import json, sys
for r in json.load(sys.stdin):
    p = r["params"]
    p = json.loads(p) if isinstance(p, str) else p
    print(r["job_id"], json.dumps(p, sort_keys=True))'
}

test_expect_success 'params are the same whether their pairs were met before or not' '
	T=$FIXTURES/caraml/tree/llm_benchmark_nvidia_amd_run &&
	ab --db a.db ingest "$T/000000/result/result.dat" >/dev/null 2>&1 &&
	ab --db b.db ingest "$T/000001/result/result.dat" "$T/000000/result/result.dat" >/dev/null 2>&1 &&
	params_of a.db >a.out && params_of b.db >b.out &&
	test_cmp a.out b.out && test "$(wc -l <a.out)" = 2 &&
	grep -q "^900001 {.*\"Version\": \"2025.01\"" a.out &&
	test "$(sqlite3 b.db "SELECT count(*) FROM param_set")" -gt 0 &&
	test "$(sqlite3 b.db "SELECT count(*) FROM run_data WHERE set_id IS NOT NULL")" -gt 0
'

test_expect_success 'a metric kind (name, unit, meta) is stored once' '
	test "$(sqlite3 b.db "SELECT count(*) FROM metric_kind")" -lt "$(sqlite3 b.db "SELECT count(*) FROM metric")" &&
	orphans a.db && orphans b.db
'

test_expect_success 'power samples keep device names and values; rm and --replace leave no unused interned rows' '
	T=$FIXTURES/caraml/tree &&
	ab --db p.db ingest "$T" >/dev/null 2>&1 &&
	n=$(sqlite3 p.db "SELECT count(*) FROM power_sample") && test "$n" -gt 0 &&
	test "$(sqlite3 p.db "SELECT count(*) FROM power_device")" -lt "$n" &&
	ab --db p.db sql --csv "SELECT device, count(*), sum(watts) FROM power_sample GROUP BY device ORDER BY device" >before &&
	cp p.db q.db && orphans p.db &&
	for id in $(sqlite3 p.db "SELECT id FROM source WHERE id IN (SELECT source_id FROM run_data) ORDER BY id"); do
		ab --db p.db rm source "$id" >/dev/null || exit 1
		orphans p.db || exit 1
	done &&
	test "$(sqlite3 p.db "SELECT count(*) FROM param_set") $(sqlite3 p.db "SELECT count(*) FROM metric_kind") $(sqlite3 p.db "SELECT count(*) FROM power_device")" = "0 0 0" &&
	ab --db q.db ingest --replace "$T" >/dev/null 2>&1 && orphans q.db &&
	ab --db q.db sql --csv "SELECT device, count(*), sum(watts) FROM power_sample GROUP BY device ORDER BY device" >after &&
	test_cmp before after
'

# readers select a source's runs by its id range and check source_id too:
# a range that also spans other sources' runs (as an upgraded old database
# could hold) still selects only its own
test_expect_success 'a source range spanning other sources: ls and rm see only its runs' '
	ab --db w.db ingest "$FIXTURES/caraml/tree" >/dev/null 2>&1 &&
	first=$(sqlite3 w.db "SELECT min(source_id) FROM run_data") &&
	test "$(sqlite3 w.db "SELECT count(DISTINCT source_id) FROM run_data")" -ge 3 &&
	ab --db w.db ls sources --json >ls.before &&
	sqlite3 w.db "SELECT id FROM run_data WHERE source_id <> $first ORDER BY id" >others.before &&
	own=$(sqlite3 w.db "SELECT count(*) FROM run_data WHERE source_id = $first") &&
	sqlite3 w.db "UPDATE source SET first_run = (SELECT min(id) FROM run_data),
	 last_run = (SELECT max(id) FROM run_data) WHERE id = $first" &&
	ab --db w.db ls sources --json >ls.after && test_cmp ls.before ls.after &&
	ab --db w.db rm source "$first" >rm.out &&
	grep -q "^removed 1 source, $own runs" rm.out &&
	sqlite3 w.db "SELECT id FROM run_data ORDER BY id" >others.after &&
	test_cmp others.before others.after && orphans w.db
'

test_expect_success 'the shared checks (tests/helpers/db.sh) notice what they look for' '
	ab --db h.db ingest "$FIXTURES/caraml/tree/resnet50_benchmark_run" >/dev/null 2>&1 &&
	orphans h.db && dbsum h.db >s1 && cp h.db g.db &&
	sqlite3 g.db "DELETE FROM source WHERE id = (SELECT min(source_id) FROM run_data)" &&
	! orphans g.db >/dev/null 2>&1 && dbsum g.db >s2 && ! cmp -s s1 s2 &&
	test "$(dbsum nothing.db)" = none &&
	cp h.db k.db && sqlite3 k.db "UPDATE run_data SET metrics = (SELECT json_group_object(e.key,
	 e.value * 2) FROM json_each(run_data.metrics) e) WHERE metrics IS NOT NULL" &&
	cp h.db o.db && sqlite3 o.db "UPDATE run_data SET metrics = '\''{\"999999\":1.0,'\'' || substr(metrics, 2)
	 WHERE id = (SELECT min(id) FROM run_data WHERE metrics IS NOT NULL)" &&
	! orphans o.db >/dev/null 2>&1 &&
	cp h.db u.db && sqlite3 u.db "INSERT INTO metric_kind(name, unit) VALUES ('\''unused'\'', '\''s'\'')" &&
	! orphans u.db >/dev/null 2>&1 &&
	cp h.db v.db && sqlite3 v.db "UPDATE run_data SET metrics = '\''{\"1\":2}'\''
	 WHERE id = (SELECT min(id) FROM run_data WHERE metrics IS NOT NULL)" &&
	! orphans v.db >/dev/null 2>&1 &&
	content h.db >c1 && test -s c1 && content k.db >c2 && ! cmp -s c1 c2 &&
	ab --db h.db ls runs --json >runs.json &&
	! runq status=ok -- job_id <runs.json 2>/dev/null &&
	runq status=ok nth=0 -- status <runs.json >one && echo status=ok >one.expect && test_cmp one.expect one
'

if [ -x "$GEN" ]; then
test_expect_success 'no orphans after ingest and rm of a generated perflog tree' '
	"$GEN" rf 60000 >/dev/null &&
	ab --db clean.db ingest rf >/dev/null 2>&1 &&
	orphans clean.db &&
	ab --db clean.db sql --csv "SELECT path, (SELECT count(*) FROM run WHERE source_id = s.id) FROM source s ORDER BY path" >clean.counts &&
	cp clean.db rm.db && ab --db rm.db rm source 1 >/dev/null && orphans rm.db
'

# (two files to a commit, so that it commits before the end: the writer
# commits files in groups, a group of them at once)
test_expect_success 'an ingest killed mid-way leaves whole files and no orphans' '
	AB_INGEST_GROUP=2 "$AB" --db killed.db ingest rf >/dev/null 2>&1 &
	pid=$! && n=0 &&
	while [ "$n" -lt 200 ]; do
		c=$(sqlite3 killed.db "SELECT count(*) FROM source" 2>/dev/null || echo 0) &&
		[ "${c:-0}" -ge 1 ] && break
		n=$((n + 1)); sleep 0.05
	done &&
	kill -9 $pid; wait $pid 2>/dev/null
	orphans killed.db &&
	ab --db killed.db sql --csv "SELECT path, (SELECT count(*) FROM run WHERE source_id = s.id) FROM source s ORDER BY path" >killed.counts &&
	test "$(wc -l <killed.counts)" -ge 2 &&
	# every file that landed landed whole
	while IFS= read -r line; do grep -qxF "$line" clean.counts || { echo "partial: $line"; exit 1; }; done <killed.counts &&
	ab --db killed.db ingest rf >/dev/null 2>&1 &&
	ab --db killed.db sql --csv "SELECT path, (SELECT count(*) FROM run WHERE source_id = s.id) FROM source s ORDER BY path" >after.counts &&
	test_cmp clean.counts after.counts && orphans killed.db
'
else
test_skip 'no orphans after ingest and rm of a generated perflog tree' "no $GEN"
test_skip 'an ingest killed mid-way leaves whole files and no orphans' "no $GEN"
fi

test_done
