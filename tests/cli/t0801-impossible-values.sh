#!/bin/sh
# t0801-impossible-values: impossible values (negative throughput, a
# run_stop before run_start, 1e308) make their run `invalid` with the
# reason; the analyses leave them out and say so.
. "$(dirname "$0")/lib.sh"

H=$FIXTURES/hostile/values

test_expect_success 'negative CARAML tokens/s and ReFrame -14.8 / 1e308 GB/s are stored invalid' '
	ab ingest "$H/caraml_negative_tokens.csv" "$H/reframe_impossible.log" >/dev/null 2>&1 &&
	ab sql "SELECT benchmark, status, excluded_reason FROM runs ORDER BY id" --csv >out &&
	cat >expect <<-\EOT &&
	benchmark,status,excluded_reason
	llm-gpt-800M,ok,
	llm-gpt-800M,invalid,impossible value: throughput = -109226.67 tokens/s (cannot be negative)
	Stream,ok,
	Stream,invalid,impossible value: bw = -14.8 GB/s (cannot be negative)
	Stream,invalid,"impossible value: bw = 1e+308 GB/s (implausibly large, above 1e30)"
	Stream,ok,
	EOT
	test_cmp expect out
'

test_expect_success 'stats leaves them out, counts them apart from failed runs and says so' '
	ab stats -b Stream --csv >out 2>err &&
	csvsel system,n,n_failed system=sysh:part1 <out >sel &&
	grep -q "^sysh:part1,2,0$" sel &&
	echo "accelbench: note: 2 invalid runs left out (impossible values; '"'"'accelbench ls runs'"'"' says why)" >expect &&
	test_cmp expect err &&
	ab stats -b llm-gpt-800M --json >out 2>err &&
	grep -q "\"median\": 109226.67" out &&
	grep -q "note: 1 invalid run left out" err
'

test_expect_success 'scaling and plot still work for the benchmark' '
	ab scaling -b Stream >out 2>err; grep -q "note: 2 invalid runs left out" err &&
	ab plot bar -b llm-gpt-800M -o bar.svg 2>err && test -s bar.svg &&
	grep -q "note: 1 invalid run left out" err
'

test_expect_success 'MLPerf: run_stop before run_start is an invalid run, the score ignores it' '
	cp -r "$FIXTURES/mlperf/training_results_v0.1" tr &&
	f=tr/Acme/results/box1/ssd/result_2.txt &&
	sed -i "s/\"time_ms\": [0-9]*, \"event_type\": \"INTERVAL_END\", \"key\": \"run_stop\"/\"time_ms\": 100, \"event_type\": \"INTERVAL_END\", \"key\": \"run_stop\"/" $f &&
	ab --db m.db ingest tr >/dev/null 2>err &&
	grep -q "result_2.txt:10: run_stop is not after run_start" err &&
	test "$(ab --db m.db sql "SELECT status FROM run r JOIN source s ON s.id = r.source_id WHERE s.path LIKE '"'"'%ssd/result_2.txt'"'"'" --csv | tail -1)" = invalid &&
	ab --db m.db sql "SELECT count(*) FROM runs WHERE benchmark = '"'"'ssd'"'"' AND status = '"'"'ok'"'"' AND value > 0" --csv >out &&
	test "$(tail -1 out)" = 2
'

test_done
