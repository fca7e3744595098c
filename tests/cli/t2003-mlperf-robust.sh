#!/bin/sh
# t2003-mlperf-robust: hand-made training logs with rank prefixes, records
# in mid-line, progress bars on lone CRs, latin-1 bytes, duplicated keys,
# out-of-order timestamps, 1-based and job-id file names, truncated and
# corrupted files, huge lines; power logs with a hand-computed energy.
. "$(dirname "$0")/lib.sh"

F=$FIXTURES/mlperf/training_results_v0.1

score() { # benchmark -> "score failed runs energy status"
	$PY -c "
import json, sys
for o in json.load(open('scores.json')):
    if o['benchmark'] == sys.argv[1]:
        f = lambda x: 'null' if x is None else '%.12g' % x
        print(f(o['official_score']), o['failed'], o['runs'], f(o['official_energy_j']), o['status'])
" "$1"
}

test_expect_success 'the fixture tree ingests; every quirk is handled, the odd ones said' '
	ab ingest "$F" >out 2>err &&
	echo "17 files ingested, 0 skipped as already ingested, 0 rejected, 8 read with their tables; added 17 runs, 16 metrics, 12 power samples" >expect &&
	test_cmp expect out &&
	sed "s|$F/||" err >actual &&
	cat >expect <<-\EOT &&
	accelbench: warning: Acme/results/box1/bert/result_4.txt:9: run_start again (the first is at line 8); time to train counts from this one, as the official summarizer does
	accelbench: warning: Acme/results/box1/gpt3/result_777_3.txt:10: unparsable :::MLLOG record (expecting '"'"','"'"' delimiter at column 41); the run is stored as invalid
	accelbench: warning: Acme/results/box1/unet3d/result_2.txt:9: unparsable :::MLLOG record (expecting value at column 106); the run is stored as invalid
	EOT
	test_cmp expect actual
'

test_expect_success 'times to train: rank prefixes, CRLF, mid-line records, file order' '
	ab sql "SELECT json_extract(params, '"'"'\$.file'"'"') AS file, status, (SELECT value FROM metric WHERE run_id = run.id AND name = '"'"'time_to_train'"'"') AS minutes FROM run WHERE json_extract(params, '"'"'\$.benchmark_folder'"'"') = '"'"'bert'"'"' ORDER BY 1" --csv >out &&
	cat >expect <<-\EOT &&
	file,status,minutes
	result_1.txt,ok,1
	result_2.txt,ok,1.5
	result_3.txt,aborted,
	result_4.txt,ok,1.2
	result_5.txt,ok,0.9
	EOT
	test_cmp expect out
'

test_expect_success 'invalid runs keep file:line reasons' '
	ab ls runs --suite mlperf-training --csv | csvsel benchmark,status,excluded_reason status!=ok >out &&
	cat >expect <<-\EOT &&
	benchmark,status,excluded_reason
	bert,aborted,"result_3.txt:10: run_stop status ""aborted"""
	gpt3,invalid,"result_777_3.txt:10: unparsable :::MLLOG record (expecting '"'"','"'"' delimiter at column 41); result_777_3.txt: no run_stop (log truncated?)"
	unet3d,invalid,result_1.txt: no run_stop (log truncated?)
	unet3d,invalid,result_2.txt:9: unparsable :::MLLOG record (expecting value at column 106)
	unet3d,invalid,result_3.txt:10: run_stop without a status
	unet3d,invalid,"result_4.txt:7: init took 31.0 min, over the 30 min limit"
	unet3d,invalid,result_5.txt:7: init_stop before submission_division (no init time limit)
	EOT
	test_cmp expect out
'

test_expect_success 'official scores: olympic mean, k = 4 for unet3d, scaling, energy' '
	ab stats --suite mlperf-training --json >scores.json &&
	test "$(score bert)" = "1.23333333333 1 5 null ok" &&
	test "$(score gpt3)" = "16.5 1 3 null ok" &&
	test "$(score unet3d)" = "null 5 6 null too many non-converging runs" &&
	test "$(score ssd)" = "2 0 3 8700 ok"
'

test_expect_success 'the system row: duplicated key (last wins), latin-1 text, string counts' '
	ab sql "SELECT name, display_name, vendor, accelerator, accelerators_per_node, host_cpu FROM system" --csv >out &&
	printf "%s\n" "name,display_name,vendor,accelerator,accelerators_per_node,host_cpu" \
		"Acme/box1,Acme Box 1,NVIDIA,H100,4,AMD EPYC 9454 $(printf "\303\251")dition" >expect &&
	test_cmp expect out &&
	ab sql "SELECT DISTINCT nodes, devices, json_extract(params, '"'"'\$.round'"'"') AS round FROM run" --csv >out &&
	printf "%s\n" "nodes,devices,round" "2,8,0.1" >expect &&
	test_cmp expect out
'

test_expect_success 'huge lines: 10 MB of noise is ignored, a 5 MB record fails the run' '
	mkdir -p big/Acme/results/box1/bert big/Acme/systems &&
	cp "$F/Acme/systems/box1.json" big/Acme/systems/ &&
	{ head -c 10000000 /dev/zero | tr "\0" "x"; echo; cat "$F/Acme/results/box1/bert/result_5.txt"; } >big/Acme/results/box1/bert/result_0.txt &&
	{ head -3 "$F/Acme/results/box1/bert/result_5.txt"; printf ":::MLLOG {\"value\": \""; head -c 5000000 /dev/zero | tr "\0" "y"; echo "\"}"; cat "$F/Acme/results/box1/bert/result_4.txt"; } >big/Acme/results/box1/bert/result_1.txt &&
	ab ingest big >out &&
	grep -q "^2 files ingested" out &&
	ab ls runs --system Acme/box1 -b bert --csv | grep -c ",ok," >n && test "$(cat n)" = 5 &&
	ab ls runs --csv | grep -F "result_1.txt:4: unparsable :::MLLOG record (:::MLLOG record longer than 4194304 bytes)"
'

test_expect_success 'companions given explicitly are refused with a hint' '
	expect_code 1 ab ingest "$F/Acme/systems/box1.json" >out 2>err &&
	test "$(cat err)" = "accelbench: $F/Acme/systems/box1.json: a system description, read with the results of its system; ingest the result file or its directory" &&
	expect_code 1 ab ingest "$F/Acme/results/box1/ssd/power/result_0/node_0.txt" 2>err &&
	grep -q "a power log, read with its result_N.txt; ingest the result file or its directory$" err
'

test_expect_success 'a log outside the layout uses the names in the log, or is rejected' '
	mkdir loose && { cat "$F/Acme/results/box1/bert/result_5.txt"; echo; } >loose/run.log &&
	expect_code 1 ab ingest loose/run.log 2>err &&
	test "$(cat err)" = "accelbench: loose/run.log: cannot tell submitter, system and benchmark: not in a <submitter>/results/<system>/<benchmark>/ folder and no submission_org/platform/benchmark records" &&
	echo "a README that quotes :::MLLOG {\"key\": 1}" >loose/README.txt &&
	ab ingest -v loose/README.txt 2>err; test $? = 1 && grep -q "format not recognised" err
'

test_done
