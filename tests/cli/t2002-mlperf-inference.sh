#!/bin/sh
# t2002-mlperf-inference: LoadGen results (detail log preferred, summary as
# fallback), the official headline per scenario, power from spl.txt.
. "$(dirname "$0")/lib.sh"

F=$FIXTURES/mlperf/inference_results_v0.1

headline() { # system benchmark metric -> "value unit"
	ab sql "SELECT m.value || ' ' || m.unit FROM metric m JOIN run r ON r.id = m.run_id
		JOIN system y ON y.id = r.system_id JOIN benchmark b ON b.id = r.benchmark_id
		WHERE y.name = '$1' AND b.name = '$2' AND m.name = '$3'" --csv | sed 1d
}

test_expect_samples 'the inference samples: one run per scenario, official metrics' '
	ab ingest "$SAMPLES/mlperf/inference" >out &&
	grep -q "^9 files ingested, 0 skipped as already ingested, 0 rejected, 15 read with their tables; added 9 runs, " out &&
	test "$(headline NVIDIA/DGX-H100_H100-SXM-80GBx8_TRT llama2-70b-99/Offline throughput)" = "24524.9 tokens/s" &&
	test "$(headline NVIDIA/DGX-H100_H100-SXM-80GBx8_TRT llama2-70b-99/Server throughput)" = "21605.8 tokens/s" &&
	test "$(headline NVIDIA/H200-SXM-141GBx8_TRT_MaxQ resnet50/Offline throughput)" = "556234.0 samples/s" &&
	test "$(headline NVIDIA/H200-SXM-141GBx8_TRT_MaxQ resnet50/Server throughput)" = "480131.0 samples/s" &&
	test "$(headline Intel/1-node-2S-EMR-PyTorch resnet50/Server throughput)" = "22501.8 samples/s" &&
	test "$(headline Lenovo/Lenovo_2xL4_TRT resnet50/SingleStream latency)" = "0.386829 ms" &&
	test "$(headline Lenovo/Lenovo_2xL4_TRT resnet50/MultiStream latency)" = "0.750563 ms" &&
	test "$(headline Lenovo/Lenovo_2xL4_TRT resnet50/Offline throughput)" = "25600.0 samples/s"
'

test_expect_samples 'power from spl.txt: average W and efficiency' '
	ab sql "SELECT printf('"'"'%.4f %.3f'"'"', (SELECT value FROM metric WHERE run_id = r.id AND name = '"'"'avg_power'"'"'), (SELECT value FROM metric WHERE run_id = r.id AND name = '"'"'efficiency'"'"')) FROM run r JOIN benchmark b ON b.id = r.benchmark_id JOIN system y ON y.id = r.system_id WHERE y.name = '"'"'NVIDIA/H200-SXM-141GBx8_TRT_MaxQ'"'"' ORDER BY b.name" --csv | sed 1d >out &&
	printf "%s\n" "4954.0315 112.279" "5013.7912 95.762" >expect &&
	test_cmp expect out
'

test_expect_success 'fixtures: detail preferred, summary fallback, accuracy logs passed over' '
	ab ingest -v "$F" >out 2>err &&
	grep -q "^3 files ingested, 0 skipped as already ingested, 0 rejected, 4 read with their tables; added 3 runs, " out &&
	grep -q "read with its table .*/offline/performance/run_1/mlperf_log_summary.txt: mlperf-companion" err &&
	grep -q "read with its table .*/offline/accuracy/mlperf_log_detail.txt: mlperf-companion" err &&
	grep -q "read with its table .*/offline/performance/run_1/spl.txt: mlperf-companion" err &&
	test "$(headline Acme/box1 resnet50/Offline throughput)" = "1234.56 samples/s" &&
	test "$(headline Acme/box1 resnet50/Offline avg_power)" = "200.0 W" &&
	test "$(headline Acme/box1 resnet50/Offline efficiency)" = "6.1728 samples/s/W" &&
	test "$(headline Acme/box1 resnet50/SingleStream latency)" = "0.386829 ms" &&
	ab sql "SELECT count(*), sum(watts) FROM power_sample p JOIN run r ON r.id = p.run_id JOIN system y ON y.id = r.system_id WHERE device = '"'"'spl'"'"' AND y.name = '"'"'Acme/box1'"'"'" --csv >p &&
	test "$(sed 1d p)" = "2,400"
'

test_expect_success 'the first occurrence of a repeated detail key wins; big seeds survive' '
	ab ls runs --suite mlperf-inference --system Acme/box1 --json >runs.json &&
	$PY - <<-\EOP
	import json
	runs = {r["benchmark"]: r for r in json.load(open("runs.json"))}
	off = runs["resnet50/Offline"]["params"]
	assert off["generic_message"] == "first", off["generic_message"]
	assert off["result_source"] == "detail" and off["round"] == "0.1"
	assert off["effective_sample_index_rng_seed"] == "10688027786191513374", off["effective_sample_index_rng_seed"]
	ss = runs["resnet50/SingleStream"]["params"]
	assert ss["result_source"] == "summary" and ss["result_query_count"] == 1580640
	assert ss["effective_min_duration_ms"] == 600000 and ss["effective_target_latency_ns"] == 0
	EOP
'

test_expect_success 'an INVALID result is kept with the failed checks' '
	ab ls runs --suite mlperf-inference -b resnet50/Server --system Acme/box1 --csv | csvsel status,excluded_reason >out &&
	printf "%s\n" "status,excluded_reason" "invalid,\"result_validity INVALID, performance constraints not met\"" >expect &&
	test_cmp expect out
'

test_expect_success 'a LoadGen log outside the results layout is rejected, the rest lands' '
	mkdir -p loose/closed/X/results/s/resnet50/Offline/performance/run_1 &&
	{ cat "$F/closed/Acme/results/box1/resnet50/offline/performance/run_1/mlperf_log_detail.txt"; echo " "; } >loose/mlperf_log_detail.txt &&
	{ cat loose/mlperf_log_detail.txt && echo; echo; } >loose/closed/X/results/s/resnet50/Offline/performance/run_1/mlperf_log_detail.txt &&
	expect_code 1 ab ingest loose >out 2>err &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 1 rejected" out &&
	grep -qxF "accelbench: loose/mlperf_log_detail.txt: cannot tell submitter, system, model and scenario: expected <submitter>/results/<system>/<model>/<scenario>/performance/run_N/mlperf_log_detail.txt" err &&
	grep -qxF "accelbench: warning: loose/closed/X/results/s/resnet50/Offline/performance/run_1/mlperf_log_detail.txt: no system description systems/s.json" err
'

test_done
