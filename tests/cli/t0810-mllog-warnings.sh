#!/bin/sh
# t0810-mllog-warnings: an MLPerf log with two run_start, and corrupted
# :::MLLOG records, are said on stderr with file:line (they were silent:
# the run was kept invalid or timed from the second run_start without a
# word); a corrupted record in a power log means no energy, said why,
# rather than an energy summed over the readings that happened to parse.
. "$(dirname "$0")/lib.sh"

T=$FIXTURES/mlperf/training_results_v0.1
I=$FIXTURES/mlperf/inference_results_v0.1
q="'"

# a tree holding one bert result: tree/Acme/results/box1/bert/result_0.txt
one_result() {
	rm -rf tree "$ACCELBENCH_DB" && mkdir -p tree/Acme/results/box1/bert tree/Acme/systems &&
	cp "$T/Acme/systems/box1.json" tree/Acme/systems/ &&
	cat >tree/Acme/results/box1/bert/result_0.txt
}
R5=$T/Acme/results/box1/bert/result_5.txt   # a valid log: run_start line 8, run_stop line 10
minutes() { "$AB" sql --csv "SELECT value FROM metric WHERE name = 'time_to_train'" | tail -n +2; }

test_expect_success 'a second run_start before run_stop: warned, timed from it (the summarizer rule)' '
	{ head -8 "$R5"; sed -n 8p "$R5" | sed "s/1728000002000/1728000008000/"; tail -n +9 "$R5"; } | one_result &&
	ab ingest tree >out 2>err &&
	echo "accelbench: warning: tree/Acme/results/box1/bert/result_0.txt:9: run_start again (the first is at line 8); time to train counts from this one, as the official summarizer does" >expect &&
	test_cmp expect err &&
	test "$(minutes)" = 0.8
'

test_expect_success 'a run_start after run_stop: warned, ignored' '
	{ cat "$R5"; sed -n 8p "$R5" | sed "s/1728000002000/1728000090000/"; } | one_result &&
	ab ingest tree >out 2>err &&
	echo "accelbench: warning: tree/Acme/results/box1/bert/result_0.txt:11: run_start again (the first is at line 8); after run_stop: ignored, as the official summarizer does" >expect &&
	test_cmp expect err &&
	test "$(minutes)" = 0.9
'

test_expect_success 'corrupted records: warned with the first line and the count; the run is invalid' '
	{ head -3 "$R5"; echo ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1, \"key\": "; sed -n 4,6p "$R5"; echo ":::MLLOG {broken"; tail -n +7 "$R5"; } | one_result &&
	ab ingest tree >out 2>err &&
	grep -q "^1 file ingested, .*added 1 run, 0 metrics" out &&
	echo "accelbench: warning: tree/Acme/results/box1/bert/result_0.txt:4: unparsable :::MLLOG record (expecting value at column 48), and 1 more; the run is stored as invalid" >expect &&
	test_cmp expect err &&
	ab sql --csv "SELECT status, excluded_reason FROM run" >actual &&
	printf "%s\n" "status,excluded_reason" "invalid,result_0.txt:4: unparsable :::MLLOG record (expecting value at column 48)" >expect &&
	test_cmp expect actual
'

test_expect_success 'a corrupted record in a power log: no energy, and why' '
	rm -rf p "$ACCELBENCH_DB" && cp -r "$T" p &&
	n=p/Acme/results/box1/ssd/power/result_0/node_0.txt &&
	{ head -2 "$n"; echo ":::MLLOG {\"key\": \"power_reading\", \"value\": 12"; tail -n +3 "$n"; } >n.tmp && mv n.tmp "$n" &&
	ab ingest p >out 2>err &&
	grep -Fxq "accelbench: warning: p/Acme/results/box1/ssd/result_0.txt: no energy: power/result_0/node_0.txt:3: unparsable :::MLLOG record (expecting ${q},${q} delimiter at column 46)" err &&
	ab sql --csv "SELECT json_extract(params, '\''\$.energy_j'\'') AS e FROM run WHERE json_extract(params, '\''\$.file'\'') = '\''result_0.txt'\'' AND json_extract(params, '\''\$.benchmark_folder'\'') = '\''ssd'\''" >actual &&
	printf "e\n\n" >expect && test_cmp expect actual
'

test_expect_success 'a corrupted record in a LoadGen detail log: warned, the run invalid' '
	rm -rf i "$ACCELBENCH_DB" && cp -r "$I" i &&
	d=i/closed/Acme/results/box1/resnet50/Server/performance/run_1/mlperf_log_detail.txt &&
	{ head -2 "$d"; echo ":::MLLOG {\"key\": \"x\" \"value\": 1}"; tail -n +3 "$d"; } >d.tmp && mv d.tmp "$d" &&
	ab ingest i >out 2>err &&
	grep -Fxq "accelbench: warning: $d:3: unparsable :::MLLOG record (expecting ${q},${q} delimiter at column 22); the run is stored as invalid" err
'

test_done
