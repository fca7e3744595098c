#!/bin/sh
# t0027-official-scaling: MLPerf inference charts show each scenario's
# official metric (never a median with a CI; INVALID results named), and
# `plot devices` draws strong scaling (one system, the same global batch on
# more devices) and MLPerf scale series (one system family submitted at
# several sizes, eos_n1 ... eos_n1452, as one series) with every point
# labelled by what it stands for.  SVGs carry every drawn string in <desc>.
. "$(dirname "$0")/lib.sh"

# inference round: three systems' Offline and SingleStream results, one INVALID
mkinf() { # submitter system scenario key value validity
	d=inf/closed/$1/results/$2/resnet50/$3/performance/run_1
	mkdir -p "$d" inf/closed/$1/systems
	printf '{"submitter": "%s", "division": "closed", "status": "available", "system_name": "%s", "number_of_nodes": 1, "accelerators_per_node": 8, "accelerator_model_name": "NVIDIA H100-SXM5-80GB", "framework": "TensorRT 10"}\n' "$1" "$2" >inf/closed/$1/systems/$2.json
	for kv in "effective_scenario \"$3\"" "effective_test_mode \"PerformanceOnly\"" \
		  "result_validity \"$6\"" "result_min_duration_met true" "result_min_queries_met true" \
		  "early_stopping_met true" "$4 $5"; do
		set -- "$@" # keep positional args
		k=${kv%% *}; v=${kv#* }
		printf ':::MLLOG {"key": "%s", "value": %s, "time_ms": 1.5, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME", "metadata": {"is_error": false, "is_warning": false, "file": "results.cc", "line_no": 1, "pid": 1, "tid": 1}}\n' "$k" "$v" >>"$d/mlperf_log_detail.txt"
	done
}

test_expect_success 'an inference round with an INVALID result is ingested' '
	mkinf Acme acme_h100x8_TRT Offline result_samples_per_second 91234.5 VALID &&
	mkinf Bolt bolt_h100x8_TRT Offline result_samples_per_second 45678.25 VALID &&
	mkinf Crux crux_h100x8_TRT Offline result_samples_per_second 99999 INVALID &&
	mkinf Acme acme_h100x8_TRT SingleStream early_stopping_latency_ss 412345 VALID &&
	ab ingest inf >out 2>err &&
	ab ls runs --csv | csvsel benchmark,system,status >runs &&
	grep -q "^resnet50/Offline,Crux/crux_h100x8_TRT,invalid$" runs
'

test_expect_success 'inference bars: the scenario official metric, one result, no CI, INVALID named' '
	ab plot bar -b resnet50/Offline -o off.svg 2>err && desc off.svg >d &&
	grep -qx "resnet50 Offline: official MLPerf inference result (higher is better)" d &&
	grep -q "Offline: samples per second · one result per system" d &&
	grep -q "Not shown, result INVALID or failed: Crux/crux_h100x8_TRT" d &&
	grep -q "^91,234" d && grep -q "^45,678" d &&
	! grep -q "median" d && ! grep -q "CI ·\\|95 %" d
'

test_expect_success 'SingleStream: the early-stopping latency, lower is better' '
	ab plot bar -b resnet50/SingleStream -o ss.svg && desc ss.svg >d &&
	grep -qx "resnet50 SingleStream: official MLPerf inference result (lower is better)" d &&
	grep -q "SingleStream: 90th-percentile latency (early-stopping estimate)" d &&
	grep -q "^0.412" d
'

test_expect_success 'every result INVALID: refuses and names the systems' '
	expect_code 1 ab plot bar -b resnet50/Offline --system Crux/crux_h100x8_TRT -o x.svg 2>err &&
	grep -q "no valid MLPerf inference result of .resnet50/Offline.*INVALID or failed: Crux/crux_h100x8_TRT" err
'

test_expect_samples 'shared samples: the official values of the v4.1 files' '
	ACCELBENCH_DB=s.db ab ingest "$SAMPLES/mlperf/inference" >/dev/null 2>&1 &&
	ACCELBENCH_DB=s.db ab plot bar -b resnet50/Offline -o so.svg && desc so.svg >d &&
	grep -q "^556,234" d && grep -q "^25,600" d && grep -q "^25,204" d &&
	ACCELBENCH_DB=s.db ab plot bar -b llama2-70b-99/Server -o sv.svg && desc sv.svg >d &&
	grep -q "Server: completed tokens per second within the latency bound" d &&
	grep -q "^21,606" d
'

# CARAML-style: one system at 1, 2 and 4 devices with the same global batch
test_expect_success 'strong scaling: the same global batch on more devices is one series' '
	mkdir -p sc &&
	{ echo "JobID,System,Version,Queue,JobTime,Runtime(min),Model,ModelSize,Dataset,Nodes,Devices,GlobalBatchSize,PipelineParallel,TensorParallel,DataParallel,Iterations,Time/iteration(s),Tokens/second,Avg_TFLOPs/GPU,Energy/Device(Wh)"
	  j=1; for dev in 1 2 4; do for r in 1 2 3; do
		echo "$j,H100,2024.01,q,01:00:00,60,GPT,800M,OSCAR,1,$dev,64,1,1,$dev,100,1.0,$((10000 * dev * 7 / (6 + dev) + r)),1,[1.0]"; j=$((j + 1)); done; done; } >sc/llm_result_H100.csv &&
	ACCELBENCH_DB=sc.db ab ingest sc >/dev/null &&
	ACCELBENCH_DB=sc.db ab plot devices -b llm-gpt-800M -o sd.svg && desc sd.svg >d &&
	grep -qx "H100 (strong: global batch 64, fp16)" d &&
	grep -q "strong scaling (same global batch)" d &&
	grep -qx "16 per device" d && grep -qx "64 per device" d
'

test_expect_success 'MLPerf without a family at two sizes refuses, saying what a series needs' '
	ab ingest "$FIXTURES/mlperf/training_results_v0.1" >/dev/null 2>&1;
	b=$(ab ls benchmarks --csv | csvsel name suite=mlperf-training | sed -n 2p) &&
	test -n "$b" &&
	expect_code 1 ab plot devices -b "$b" -o x.svg 2>err &&
	grep -q "nor a family of systems, e.g. NAME_n8 and NAME_n64, at two or more sizes" err
'

test_expect_success 'MLPerf scale series: eos_n1 ... eos_n1452 are one family series of official scores' '
	$PY "$ROOT/tests/round/gen_round.py" round >/dev/null &&
	ACCELBENCH_DB=r.db ab ingest round >/dev/null 2>&1 &&
	ACCELBENCH_DB=r.db ab plot devices -b bert -o rd.svg 2>/dev/null && desc rd.svg >d &&
	grep -qx "NVIDIA/eos (6 systems, H100 × 8 per node)" d &&
	grep -qx "Google/tpu-v5p (2 systems, TPU × 4 per node)" d &&
	grep -q "mlperf-training · official scores · speedup over the smallest size of each family" d &&
	grep -qx "n1452 nemo" d && grep -qx "n64 nemo" d &&
	! grep -q "…" d
'

test_expect_success 'the family points are official scores, said in the caption' '
	grep -q "Speedup = official score at the smallest size / official score" d
'

test_done
