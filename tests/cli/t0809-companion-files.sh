#!/bin/sh
# t0809-companion-files: files read beside the one being ingested (MLPerf
# scaling.json, systems/*.json, power logs, spl.txt; a run manifest's power
# CSV) and the files named by options (prices, report spec) are opened like
# ingested files: a FIFO there is refused with a message, never waited on.
# Every command runs under `timeout`: before, each of them hung.
. "$(dirname "$0")/lib.sh"

T=$FIXTURES/mlperf/training_results_v0.1
I=$FIXTURES/mlperf/inference_results_v0.1
q="'"

# tree victim: a copy of the tree as t/ with victim replaced by a FIFO
fifo_tree() {
	rm -rf t "$ACCELBENCH_DB" && cp -r "$1" t && rm -f "t/$2" && mkfifo "t/$2"
}

test_expect_success 'MLPerf scaling.json as a FIFO: a warning per result, no hang' '
	fifo_tree "$T" Acme/results/box1/gpt3/scaling.json &&
	timeout 60 "$AB" ingest t >out 2>err &&
	grep -q "^17 files ingested, 0 skipped as already ingested, 0 rejected, 7 read with their tables; added 17 runs" out &&
	test "$(grep -c "^accelbench: warning: t/Acme/results/box1/gpt3/result_777_[123].txt: cannot read ${q}.*/t/Acme/results/box1/gpt3/scaling.json${q}: not a regular file (a FIFO)$" err)" = 3 &&
	test "$(grep -c scaling.json err)" = 3
'

test_expect_success 'MLPerf systems/<system>.json as a FIFO: a warning, the runs still land' '
	fifo_tree "$T" Acme/systems/box1.json &&
	timeout 60 "$AB" ingest t >out 2>err &&
	grep -q "^17 files ingested, .*added 17 runs" out &&
	grep -Fxq "accelbench: warning: t/Acme/results/box1/bert/result_1.txt: systems/box1.json: not a regular file (a FIFO)" err
'

test_expect_success 'an MLPerf power log as a FIFO: no energy, said why' '
	fifo_tree "$T" Acme/results/box1/ssd/power/result_0/node_0.txt &&
	timeout 60 "$AB" ingest t >out 2>err &&
	grep -q "^accelbench: warning: t/Acme/results/box1/ssd/result_0.txt: no energy: cannot read ${q}.*/t/Acme/results/box1/ssd/power/result_0/node_0.txt${q}: not a regular file (a FIFO)$" err
'

# power/<run>/node_*.txt is not hashed ahead (a power log, almost always):
# a file there that is something else is still detected, hashed and stored
test_expect_success 'a JUBE table where a power log would be: stored with its own digest' '
	rm -rf pw "$ACCELBENCH_DB" && mkdir -p pw/a/power/r pw/b &&
	cp "$FIXTURES/caraml/fno_result_csv.dat" pw/a/power/r/node_0.txt &&
	printf "hello\n" >pw/a/power/r/sw_0.txt &&
	cp -r "$T" pw/b/ &&
	timeout 60 "$AB" ingest -v pw >out 2>err &&
	grep -q "^ingested pw/a/power/r/node_0.txt: 3 runs" err &&
	grep -Fxq "ignored pw/a/power/r/sw_0.txt: format not recognised" err &&
	sha256sum pw/a/power/r/node_0.txt | cut -d" " -f1 >expect &&
	sqlite3 "$ACCELBENCH_DB" "SELECT sha256 FROM source WHERE path = ${q}pw/a/power/r/node_0.txt${q}" >actual &&
	test_cmp expect actual &&
	grep -q "^read with its table pw/b/.*/power/result_0/node_0.txt: mlperf-companion$" err &&
	grep -q "^18 files ingested, 0 skipped as already ingested, 0 rejected, 8 read with their tables, 1 not recognised; added 20 runs" out
'

test_expect_success 'an inference spl.txt as a FIFO: no power, said why' '
	fifo_tree "$I" closed/Acme/results/box1/resnet50/offline/performance/run_1/spl.txt &&
	timeout 60 "$AB" ingest t >out 2>err &&
	grep -q "^3 files ingested, .*added 3 runs" out &&
	grep -Fxq "accelbench: warning: t/closed/Acme/results/box1/resnet50/offline/performance/run_1/mlperf_log_detail.txt: no power: spl.txt: cannot read ${q}t/closed/Acme/results/box1/resnet50/offline/performance/run_1/spl.txt${q}: not a regular file (a FIFO)" err
'

test_expect_success 'the power CSV a run manifest names, as a FIFO: a warning, the run lands' '
	rm -rf ab "$ACCELBENCH_DB" && mkdir ab &&
	echo "{\"accelbench_run\": 1, \"suite\": \"exec\", \"benchmark\": \"sleep\", \"system\": \"box\", \"metric\": \"time\", \"unit\": \"s\", \"runs\": [{\"seq\": 1, \"status\": \"ok\", \"metrics\": [{\"name\": \"time\", \"value\": 1.5, \"unit\": \"s\"}], \"power_csv\": \"power.csv\"}]}" >ab/run.json &&
	mkfifo ab/power.csv &&
	timeout 60 "$AB" ingest ab >out 2>err &&
	grep -q "^1 file ingested, .*added 1 run, 1 metric$" out &&
	echo "accelbench: warning: ab/run.json: power samples not read: cannot read ${q}ab/power.csv${q}: not a regular file (a FIFO)" >expect &&
	test_cmp expect err
'

test_expect_success 'a JUBE configuration.xml as a FIFO (a name hint) is passed over' '
	rm -rf jx "$ACCELBENCH_DB" && mkdir -p jx/0/result &&
	cp "$FIXTURES/caraml/fno_result_csv.dat" jx/0/result/ && mkfifo jx/0/configuration.xml &&
	timeout 60 "$AB" ingest jx >out 2>err &&
	grep -q "^1 file ingested, .*added 3 runs" out
'

test_expect_success 'a prices file or report spec given as a FIFO is refused (exit 3)' '
	mkfifo p.json &&
	expect_code 3 timeout 60 "$AB" cost -b llm --prices p.json >out 2>err &&
	echo "accelbench: cannot read ${q}p.json${q}: not a regular file (a FIFO)" >expect &&
	test_cmp expect err &&
	expect_code 3 timeout 60 "$AB" report -o r.pdf --spec p.json >out 2>err &&
	echo "accelbench: cannot open report spec ${q}p.json${q}: not a regular file" >expect &&
	test_cmp expect err && ! test -e r.pdf
'

test_done
