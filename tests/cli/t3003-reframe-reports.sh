#!/bin/sh
# t3003-reframe-reports: JSON run reports of several data versions (NaN
# tokens, compressed, retries, restored cases, session extras) and
# ReFrame's results.db, deduped against each other.
. "$(dirname "$0")/lib.sh"

F=$FIXTURES/reframe

test_expect_success 'the fixture reports ingest; skips are said once per file' '
	ab ingest "$F/reports" >out 2>err &&
	grep -q "^4 files ingested, 0 skipped as already ingested, 0 rejected; added 8 runs, 8 metrics$" out &&
	sed "s|$F/||" err >actual &&
	cat >expect <<-\EOF &&
	accelbench: warning: reports/compressed-nan.json:1: performance value of '\''tput'\'' is '\''NaN'\'' (not a number); not stored
	accelbench: warning: reports/compressed-nan.json:1: performance value of '\''lat'\'' is '\''-Infinity'\'' (infinite); not stored
	accelbench: warning: reports/compressed-nan.json: 1 passing test case without performance variables not stored
	accelbench: warning: reports/compressed-nan.json: 2 skipped test cases not stored (never ran)
	EOF
	test_cmp expect actual
'

test_expect_success 'ls runs --json: NaN/Infinity, retries, restored cases, session extras' '
	ab ls runs --json >runs.json &&
	$PY -c "
import json
for r in json.load(open(\"runs.json\")):
    p = r[\"params\"]
    print(r[\"benchmark\"], r[\"system\"], r[\"status\"], r[\"job_id\"], r[\"global_batch\"], r[\"local_batch\"],
          sorted((k, v[\"value\"], v[\"unit\"]) for k, v in r[\"metrics\"].items()),
          p.get(\"perf_missing\"), p.get(\"run_index\"), p.get(\"restored\"), p.get(\"data_version\"))
" >actual &&
	cat >expect <<-\EOF &&
	NanTest sysr:gpu ok 900 64 16 [('"'"'tput2'"'"', 512.5, '"'"'samples/s'"'"')] {'"'"'lat'"'"': '"'"'-Infinity'"'"', '"'"'tput'"'"': '"'"'NaN'"'"'} 0 None 4.2
	FailTest sysr:gpu failed 901 64 None [('"'"'tput'"'"', 10.0, '"'"'samples/s'"'"')] None 0 None 4.2
	FailTest sysr:gpu ok 905 64 None [('"'"'tput'"'"', 99.0, '"'"'samples/s'"'"')] None 1 None 4.2
	OldTest sysr:gpu ok 800 64 None [('"'"'tput'"'"', 77.0, '"'"'samples/s'"'"')] None 0 True 4.2
	OldReport_2 syso:part ok 3141 None None [('"'"'gflops'"'"', 55.5, '"'"'GFLOP/s'"'"')] {'"'"'eff'"'"': '"'"'n/a'"'"'} 0 None 1.3.0
	OldReport_2 syso:part failed 3142 None None [] None 1 None 1.3.0
	FiveTest sysq:cpu ok 42 None None [('"'"'t:sub'"'"', 2.5, '"'"'s'"'"')] None 0 None 4.0
	SiteTest sysc:gpu ok 5001 None None [('"'"'bw'"'"', 1500.0, '"'"'GB/s'"'"'), ('"'"'flops'"'"', 812.5, '"'"'GFLOP/s'"'"')] None 0 None 3.1
	EOF
	test_cmp expect actual
'

test_expect_success 'results.db: every session blob read, nothing new, file untouched' '
	sqlite3 results.db "CREATE TABLE sessions(uuid TEXT PRIMARY KEY, session_start_unix REAL, session_end_unix REAL, json_blob TEXT, report_file TEXT); CREATE TABLE metadata(schema_version TEXT); INSERT INTO metadata VALUES ('\''1.0'\''); INSERT INTO sessions VALUES ('\''sess-1'\'', 1, 2, readfile('\''$F/reports/compressed-nan.json'\''), '\''r'\''); INSERT INTO sessions VALUES ('\''sess-40'\'', 3, 4, readfile('\''$F/reports/dv40-perfvalues5.json'\''), '\''r'\'');" &&
	chmod a-w results.db &&
	sum=$(sha256sum results.db) &&
	ab ingest --format reframe-db results.db >out 2>err &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected; added 0 runs, 0 metrics; 5 duplicate runs skipped$" out &&
	test "$(sha256sum results.db)" = "$sum" &&
	rm -f "$ACCELBENCH_DB" &&
	ab ingest --format reframe-db results.db >out 2>err &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected; added 5 runs, 5 metrics$" out &&
	ab ingest "$F/reports/compressed-nan.json" >out 2>err &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected; added 0 runs, 0 metrics; 4 duplicate runs skipped$" out
'

test_expect_success 'a results.db that is not ReFrame'\''s is rejected' '
	sqlite3 other.db "CREATE TABLE t(x);" &&
	expect_code 1 ab ingest --format reframe-db other.db >out 2>err &&
	grep -q "^accelbench: other.db: not a ReFrame results database (no sessions(uuid, json_blob)): no such table: sessions$" err
'

test_done
