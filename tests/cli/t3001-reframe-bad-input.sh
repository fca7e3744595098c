#!/bin/sh
# t3001-reframe-bad-input: bad and ambiguous perflog lines and broken
# reports are rejected with file:line; good files in the same directory
# still land; nothing crashes, hangs or half-writes.
. "$(dirname "$0")/lib.sh"

F=$FIXTURES/reframe

test_expect_success 'each bad file is rejected with its position (exit 1)' '
	expect_code 1 ab ingest "$F/bad" >out 2>err &&
	grep -q "^0 files ingested, 0 skipped as already ingested, 4 rejected; added 0 runs, 0 metrics$" out &&
	sed "s|$F/||" err >actual &&
	cat >expect <<-\EOF &&
	accelbench: bad/ambiguous.log:2: ambiguous line: a '\''|'\'' inside a field could belong to '\''descr'\'' or '\''extra_info'\''
	accelbench: bad/badtime.log:2: cannot read the time '\''yesterday'\''
	accelbench: bad/short.log:3: 13 fields separated by '\''|'\'', the ReFrame 4.3+ default layout has 14 and no alignment fits the column contents
	accelbench: bad/truncated-report.json:1: truncated JSON
	EOF
	test_cmp expect actual &&
	ab sql "SELECT count(*) AS n FROM run" >n &&
	grep -q "^0 *$" n
'

test_expect_success 'a field holding the separator is aligned by content, with a warning' '
	ab ingest "$F/good" >out 2>err &&
	grep -q "^2 files ingested, 0 skipped as already ingested, 0 rejected; added 6 runs, 8 metrics$" out &&
	sed "s|$F/||" err >actual &&
	cat >expect <<-\EOF &&
	accelbench: warning: good/perflogs/sysa/part1/Bench43.log:3: field '\''descr'\'' contains '\''|'\''; columns aligned by their content
	accelbench: warning: good/perflogs/sysa/part1/Bench43.log:3: performance value of '\''time'\'' is '\''nan'\'' (not a number); not stored
	accelbench: warning: good/perflogs/sysa/part1/Bench43.log:4: performance value of '\''time'\'' is '\''inf'\'' (infinite); not stored
	accelbench: warning: good/perflogs/sysb/part2/Old3x_1.log:3: field '\''perf_var'\'' contains '\''='\''; columns aligned by their content
	EOF
	test_cmp expect actual &&
	ab sql "SELECT json_extract(params, '\''$.descr'\'') AS d FROM run WHERE job_id = '\''102'\''" >actual &&
	grep -q "^Bench | with pipe *$" actual
'

test_expect_success 'values: nan/inf (warned above)/empty missing, reference 0 with absolute thresholds' '
	ab sql "SELECT r.job_id, r.status, m.name, m.value, m.unit FROM run r JOIN metric m ON m.run_id = r.id WHERE r.job_id IN ('\''102'\'', '\''103'\'', '\''104'\'') ORDER BY r.job_id, m.name" >actual &&
	cat >expect <<-\EOF &&
	job_id  status  name        value  unit
	------  ------  ----------  -----  --------
	102     ok      throughput  2300   images/s
	103     failed  throughput  250    images/s
	104     ok      time        12     s
	EOF
	test_cmp expect actual &&
	ab sql "SELECT excluded_reason AS r FROM run WHERE job_id = '\''103'\''" >actual &&
	grep -q "^performance: throughput=250 outside \[100, 200\] *$" actual
'

test_expect_success 'a directory of good and bad files: the good ones land (exit 1)' '
	rm -f "$ACCELBENCH_DB" &&
	mkdir -p mixed/perflogs/sysa/part1 &&
	cp "$F/good/perflogs/sysa/part1/Bench43.log" mixed/perflogs/sysa/part1/ &&
	cp "$F/bad/short.log" mixed/perflogs/sysa/part1/Short.log &&
	expect_code 1 ab ingest mixed >out 2>err &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 1 rejected; added 4 runs, 5 metrics$" out &&
	grep -q "^accelbench: mixed/perflogs/sysa/part1/Short.log:3: 13 fields separated by" err
'

test_expect_success 'a 10 MB line is a clean error' '
	mkdir -p long/perflogs/s/p &&
	{ head -1 "$F/bad/short.log"; $PY -c "import sys; sys.stdout.write(\"pass|\" + \"x\" * 10000000 + \"\n\")"; } >long/perflogs/s/p/Long.log &&
	expect_code 1 ab ingest long/perflogs/s/p/Long.log >out 2>err &&
	grep -q "^accelbench: long/perflogs/s/p/Long.log:2: line longer than 1048576 bytes$" err
'

test_expect_success 'a line that is not UTF-8 is rejected with its position' '
	mkdir -p l1/perflogs/s/p &&
	{ head -1 "$F/bad/short.log"; printf "pass|2024-05-01T10:00:00|caf\351|b|gnu|1|T|p|1|s|0|None|None|s\n"; } >l1/perflogs/s/p/Latin1.log &&
	expect_code 1 ab ingest l1 >out 2>err &&
	grep -q "^accelbench: l1/perflogs/s/p/Latin1.log:2: not UTF-8 text$" err
'

test_expect_success 'empty, binary and foreign files given as perflogs' '
	: >empty.log &&
	expect_code 1 ab ingest --format reframe-perflog empty.log >out 2>err &&
	grep -q "^accelbench: empty.log: empty file$" err &&
	printf "\000\001\002garbage" >bin.log &&
	expect_code 1 ab ingest --format reframe-perflog bin.log >out 2>err &&
	grep -q "^accelbench: bin.log:1: not a ReFrame perflog layout I know" err &&
	printf "[1, 2]\n" >list.json &&
	expect_code 1 ab ingest --format reframe-report list.json >out 2>err &&
	grep -q "^accelbench: list.json:1: the run report is not a JSON object$" err &&
	printf "{\"session_info\": {}, \"runs\": [{\"testcases\": [{\"display_name\": \"T\", \"system\": \"s\", \"partition\": \"p\", \"result\": \"pass\", \"perfvalues\": {\"s:p:x\": [1, 0]}}]}]}" >short.json &&
	expect_code 1 ab ingest short.json >out 2>err &&
	grep -q "^accelbench: short.json:1: perfvalues '\''s:p:x'\'' of test case '\''T'\'' is not a list of 5 or 6$" err
'

test_done
