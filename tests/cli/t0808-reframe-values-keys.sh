#!/bin/sh
# t0808-reframe-values-keys: ReFrame performance values a double cannot
# hold (nan, inf, 1e400, 1e-400) are said with file:line and not stored,
# while None/null/empty stay silent; a key the run report reader acts on
# ("runs", "testcases", "session_info", "restored_cases") given twice
# rejects the report with its line and leaves the database unchanged.
. "$(dirname "$0")/lib.sh"

H=$FIXTURES/hostile/reframe-values
R=$FIXTURES/reframe/reports
q="'"


test_expect_success 'perflog: nan, inf, 1e400, 1e-400 warned with file:line; None/null/empty silent' '
	cp "$H/Vals.log" . &&
	ab ingest Vals.log >out 2>err &&
	echo "1 file ingested, 0 skipped as already ingested, 0 rejected; added 12 runs, 14 metrics" >expect &&
	test_cmp expect out &&
	cat >expect <<-EOF &&
	accelbench: warning: Vals.log:2: performance value of ${q}throughput${q} is ${q}nan${q} (not a number); not stored
	accelbench: warning: Vals.log:3: performance value of ${q}throughput${q} is ${q}inf${q} (infinite); not stored
	accelbench: warning: Vals.log:4: performance value of ${q}throughput${q} is ${q}1e400${q} (too large for a double); not stored
	accelbench: warning: Vals.log:5: performance value of ${q}throughput${q} is ${q}-1e400${q} (too large for a double); not stored
	accelbench: warning: Vals.log:6: performance value of ${q}throughput${q} is ${q}1e-400${q} (too small for a double: underflow); not stored
	accelbench: warning: Vals.log:11: performance value of ${q}throughput${q} is ${q}-NaN${q} (not a number); not stored
	accelbench: warning: Vals.log:12: performance value of ${q}throughput${q} is ${q}4.9e-324${q} (too small for a double: underflow); not stored
	EOF
	test_cmp expect err
'

test_expect_success 'perflog: nothing became 0 or a huge number; the token is kept in perf_missing' '
	ab sql --csv "SELECT r.job_id, (SELECT value FROM metric m WHERE m.run_id = r.id AND m.name = '\''throughput'\'') AS tput, json_extract(r.params, '\''\$.perf_missing.throughput'\'') AS missing FROM run r ORDER BY r.job_id" >actual &&
	cat >expect <<-\EOF &&
	job_id,tput,missing
	201,,nan
	202,,inf
	203,,1e400
	204,,-1e400
	205,,1e-400
	206,,None
	207,,null
	208,,
	209,12.5,
	210,,-NaN
	211,,4.9e-324
	212,2.5e-300,
	EOF
	test_cmp expect actual
'

test_expect_success 'a run whose only value is nan: failed, and said' '
	printf "%s\n" "2020-09-08T18:01:05+01:00|reframe 3.0-dev6 (rev: 3f0c45d4)|Stream on sysh:part1 using gnu|jobid=1|bw=nan|ref=0 (l=None, u=None)|GB/s" \
		"2020-09-08T18:02:05+01:00|reframe 3.0-dev6 (rev: 3f0c45d4)|Stream on sysh:part1 using gnu|jobid=2|bw=None|ref=0 (l=None, u=None)|GB/s" >Stream.log &&
	ab ingest Stream.log >out 2>err &&
	echo "accelbench: warning: Stream.log:1: performance value of ${q}bw${q} is ${q}nan${q} (not a number); not stored" >expect &&
	test_cmp expect err &&
	ab sql --csv "SELECT job_id, status, excluded_reason FROM run WHERE job_id IN ('\''1'\'', '\''2'\'') ORDER BY job_id" >actual &&
	cat >expect <<-\EOF &&
	job_id,status,excluded_reason
	1,failed,no performance values
	2,failed,no performance values
	EOF
	test_cmp expect actual
'

test_expect_success 'more than 10 such values: the rest are counted' '
	rm -f "$ACCELBENCH_DB" &&
	i=0; : >Many.log; while [ $i -lt 13 ]; do i=$((i + 1));
		echo "2020-09-08T18:$((10 + i)):05+01:00|reframe 3.0-dev6 (rev: 3f0c45d4)|Many on sysh:part1 using gnu|jobid=$i|bw=inf|ref=0 (l=None, u=None)|GB/s" >>Many.log; done &&
	ab ingest Many.log >out 2>err &&
	test "$(grep -c "is ${q}inf${q} (infinite); not stored$" err)" = 10 &&
	test "$(tail -1 err)" = "accelbench: warning: Many.log: 3 more warnings like the above"
'

test_expect_success 'run report: 1e400 no longer rejects the report, 1e-400 no longer reads as 0' '
	rm -f "$ACCELBENCH_DB" &&
	cp "$H/report.json" . &&
	ab ingest report.json >out 2>err &&
	echo "1 file ingested, 0 skipped as already ingested, 0 rejected; added 1 run, 1 metric" >expect &&
	test_cmp expect out &&
	cat >expect <<-EOF &&
	accelbench: warning: report.json:6: performance value of ${q}a${q} is ${q}1e400${q} (too large for a double); not stored
	accelbench: warning: report.json:6: performance value of ${q}b${q} is ${q}1e-400${q} (too small for a double: underflow); not stored
	accelbench: warning: report.json:6: performance value of ${q}c${q} is ${q}NaN${q} (not a number); not stored
	accelbench: warning: report.json:6: performance value of ${q}d${q} is ${q}-Infinity${q} (infinite); not stored
	EOF
	test_cmp expect err &&
	ab sql --csv "SELECT name, value FROM metric" >actual &&
	printf "name,value\nf,2.5\n" >expect && test_cmp expect actual &&
	ab sql --csv "SELECT json_extract(params, '\''\$.perf_missing'\'') AS m FROM run" >actual &&
	printf "%s\n" m "\"{\"\"a\"\":\"\"1e400\"\",\"\"b\"\":\"\"1e-400\"\",\"\"c\"\":\"\"NaN\"\",\"\"d\"\":\"\"-Infinity\"\",\"\"e\"\":\"\"null\"\"}\"" >expect &&
	test_cmp expect actual
'

test_expect_success 'results.db: the same warnings name the session and line' '
	rm -f "$ACCELBENCH_DB" &&
	sqlite3 results.db "CREATE TABLE sessions(uuid TEXT PRIMARY KEY, session_start_unix REAL, session_end_unix REAL, json_blob TEXT, report_file TEXT); CREATE TABLE metadata(schema_version TEXT); INSERT INTO metadata VALUES ('\''1.0'\''); INSERT INTO sessions VALUES ('\''sess-vals'\'', 1, 2, readfile('\''report.json'\''), '\''r'\'');" &&
	ab ingest --format reframe-db results.db >out 2>err &&
	grep -Fxq "accelbench: warning: results.db: session ${q}sess-vals${q}, line 6: performance value of ${q}a${q} is ${q}1e400${q} (too large for a double); not stored" err &&
	test "$(wc -l <err)" = 4
'

dup_reject() { # file, expected message
	dbsum >before &&
	expect_code 1 ab ingest "$1" >out 2>err &&
	echo "$2" >expect && test_cmp expect err &&
	dbsum >after && test_cmp before after
}

test_expect_success 'a second top-level "runs" list rejects the report (no case read twice)' '
	ab ingest "$R/site-dv31.json" >/dev/null 2>&1 &&
	$PY -c "
import sys
s = open(sys.argv[1]).read()
i = s.index(\"  \\\"restored_cases\\\"\")
runs = s[s.index(\"  \\\"runs\\\"\"):i]
open(\"dupruns.json\", \"w\").write(s[:i] + runs + s[i:])
" "$R/dv40-perfvalues5.json" &&
	test "$(grep -c "\"runs\"" dupruns.json)" = 2 &&
	dup_reject dupruns.json "accelbench: dupruns.json:29: ${q}runs${q} given twice in the run report (first at line 8)"
'

test_expect_success '"testcases" twice in a run, "session_info" or "restored_cases" twice: rejected' '
	sed "s/\"testcases\": \[/\"testcases\": [], \"testcases\": [/" "$R/dv40-perfvalues5.json" >dupcases.json &&
	dup_reject dupcases.json "accelbench: dupcases.json:11: ${q}testcases${q} given twice in a run (first at line 11)" &&
	sed "s/\"runs\": \[/\"session_info\": {}, \"runs\": [/" "$R/dv40-perfvalues5.json" >dupsess.json &&
	dup_reject dupsess.json "accelbench: dupsess.json:8: ${q}session_info${q} given twice in the run report (first at line 2)" &&
	sed "s/\"restored_cases\": \[\]/\"restored_cases\": [], \"restored_cases\": []/" "$R/dv40-perfvalues5.json" >duprest.json &&
	dup_reject duprest.json "accelbench: duprest.json:29: ${q}restored_cases${q} given twice in the run report (first at line 29)"
'

test_expect_success 'the same report inside a results.db is rejected with the session named' '
	sqlite3 dup.db "CREATE TABLE sessions(uuid TEXT PRIMARY KEY, session_start_unix REAL, session_end_unix REAL, json_blob TEXT, report_file TEXT); CREATE TABLE metadata(schema_version TEXT); INSERT INTO metadata VALUES ('\''1.0'\''); INSERT INTO sessions VALUES ('\''sess-dup'\'', 1, 2, readfile('\''dupruns.json'\''), '\''r'\'');" &&
	dup_reject dup.db "accelbench: dup.db: session ${q}sess-dup${q}, line 29: ${q}runs${q} given twice in the run report (first at line 8)"
'

test_done
