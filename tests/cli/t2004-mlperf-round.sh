#!/bin/sh
# t2004-mlperf-round: what a whole published round needs beyond single
# results: the submitter as the system JSON names it (the folder stays in
# the system id), the vendor from the accelerator name, the division as
# part of the system, open-division model_mapping.json, run_1 as the only
# official run, seeds beyond 2^63 exact, doubles printed so they read back
# equal.  The tree is generated here in the real layouts.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a generated inference round and training tree' '
	$PY - <<-\EOP
	import json, os
	R = "inference_results_v4.1"
	def mllog(path, kv):
	    os.makedirs(os.path.dirname(path), exist_ok=True)
	    with open(path, "w") as f:
	        for k, v in kv:
	            f.write(":::MLLOG " + json.dumps({"key": k, "value": v, "time_ms": 1.5,
	                    "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME",
	                    "metadata": {"is_error": False, "is_warning": False, "file": "results.cc",
	                                 "line_no": 1, "pid": 1, "tid": 1}}) + "\n")
	def system(div, folder, name, sysname, accel, host):
	    d = "%s/%s/%s/systems" % (R, div, folder)
	    os.makedirs(d, exist_ok=True)
	    json.dump({"submitter": sysname, "division": div, "status": "Available on-premise",
	               "system_name": name, "number_of_nodes": "1", "accelerators_per_node": "2",
	               "accelerator_model_name": accel, "host_processor_model_name": host,
	               "framework": "TensorRT"}, open(d + "/" + name.replace(" ", "_") + ".json", "w"))
	def offline(div, folder, sysf, model, run, kv):
	    mllog("%s/%s/%s/results/%s/%s/Offline/performance/run_%d/mlperf_log_detail.txt"
	          % (R, div, folder, sysf, model, run),
	          [("effective_scenario", "Offline"), ("effective_test_mode", "PerformanceOnly"),
	           ("result_validity", "VALID")] + kv)
	system("closed", "Clemson", "rtx", "Clemson University Research Computing and Data",
	       "NVIDIA RTX A5000", "Intel Xeon Gold 6338")
	offline("closed", "Clemson", "rtx", "resnet50", 1,
	        [("result_samples_per_second", 9.112610416666666),
	         ("effective_sample_index_rng_seed", 18446744073709551615)])
	offline("closed", "Clemson", "rtx", "resnet50", 2, [("result_samples_per_second", 9.5)])
	offline("closed", "Clemson", "rtx", "resnet50", 3, [("result_samples_per_second", 8.25)])
	for div in ("closed", "open"):
	    system(div, "IBM+CoreWeave+NVIDIA", "rx", "CoreWeave + IBM + NVIDIA",
	           "AMD Radeon RX 7900 XTX", "AMD EPYC 7763")
	offline("closed", "IBM+CoreWeave+NVIDIA", "rx", "resnet50", 1, [("result_samples_per_second", 100.0)])
	offline("open", "IBM+CoreWeave+NVIDIA", "rx", "resnet50", 1, [("result_samples_per_second", 300.0)])
	offline("open", "IBM+CoreWeave+NVIDIA", "rx", "Llama-2-7b-chat-hf-FP8", 1,
	        [("result_samples_per_second", 3.5), ("result_tokens_per_second", 1200.5)])
	json.dump({"Llama-2-7b-chat-hf-FP8": "llama2-70b-99.9"},
	          open(R + "/open/IBM+CoreWeave+NVIDIA/model_mapping.json", "w"))
	# a summary-only result: its seed is text too
	d = R + "/closed/Clemson/results/rtx/resnet50/Server/performance/run_1"
	os.makedirs(d)
	open(d + "/mlperf_log_summary.txt", "w").write(
	    "================================================\nMLPerf Results Summary\n"
	    "================================================\nSUT name : x\nScenario : Server\n"
	    "Mode     : PerformanceOnly\nCompleted samples per second    : 50.25\n"
	    "Result is : VALID\n================================================\n"
	    "Test Parameters Used\n================================================\n"
	    "qsl_rng_seed : 13281865557512327830\n")
	EOP
	cp -R "$FIXTURES/mlperf/training_results_v0.1" train &&
	sed "s/\"submitter\": \"Acme\"/\"submitter\": \"Acme Research Labs\"/" train/Acme/systems/box1.json >t.json &&
	mv t.json train/Acme/systems/box1.json &&
	ab ingest inference_results_v4.1 >out 2>err &&
	grep -q "^7 files ingested, 0 skipped as already ingested, 0 rejected, .*; added 7 runs, 8 metrics$" out &&
	ab ingest train >out 2>err
'

test_expect_success 'submitter from the system JSON, folder in the system id, division apart' '
	ab ls runs --suite mlperf-inference --json >runs.json &&
	$PY -c "
import json
for r in json.load(open(\"runs.json\")):
    p = r[\"params\"]
    print(r[\"system\"], r[\"benchmark\"], p[\"submitter\"], p[\"submitter_folder\"], p[\"division\"], p.get(\"run\"), p.get(\"official\"), r[\"status\"])
" | sort >actual &&
	cat >expect <<-\EOF &&
	Clemson/rtx resnet50/Offline Clemson University Research Computing and Data Clemson closed 1 True ok
	Clemson/rtx resnet50/Offline Clemson University Research Computing and Data Clemson closed 2 False ok
	Clemson/rtx resnet50/Offline Clemson University Research Computing and Data Clemson closed 3 False ok
	Clemson/rtx resnet50/Server Clemson University Research Computing and Data Clemson closed 1 True ok
	IBM+CoreWeave+NVIDIA/rx (open) Llama-2-7b-chat-hf-FP8/Offline CoreWeave + IBM + NVIDIA IBM+CoreWeave+NVIDIA open 1 True ok
	IBM+CoreWeave+NVIDIA/rx (open) resnet50/Offline CoreWeave + IBM + NVIDIA IBM+CoreWeave+NVIDIA open 1 True ok
	IBM+CoreWeave+NVIDIA/rx resnet50/Offline CoreWeave + IBM + NVIDIA IBM+CoreWeave+NVIDIA closed 1 True ok
	EOF
	test_cmp expect actual &&
	ab stats --suite mlperf-training >actual &&
	grep -q "Acme Research Labs" actual
'

test_expect_success 'vendor from the accelerator name' '
	ab ls systems --json >sys.json &&
	$PY -c "
import json
for s in json.load(open(\"sys.json\")):
    if \"rtx\" in s[\"name\"] or \"/rx\" in s[\"name\"]:
        print(s[\"name\"], \"|\", s[\"vendor\"], \"|\", s[\"accelerator\"])
" | sort >actual &&
	cat >expect <<-\EOF &&
	Clemson/rtx | NVIDIA | NVIDIA RTX A5000
	IBM+CoreWeave+NVIDIA/rx (open) | AMD | AMD Radeon RX 7900 XTX
	IBM+CoreWeave+NVIDIA/rx | AMD | AMD Radeon RX 7900 XTX
	EOF
	test_cmp expect actual
'

test_expect_success 'run_2 and later are kept, marked, and left out of the statistics' '
	ab ls runs -b resnet50/Offline --system Clemson/rtx >actual &&
	test $(grep -c "not official: run_[23] (MLPerf scores run_1)" actual) = 2 &&
	ab stats -b resnet50/Offline --system Clemson/rtx --json >st.json &&
	$PY -c "
import json
s = json.load(open(\"st.json\"))
s = s[0] if isinstance(s, list) else s
print(s[\"n\"], s[\"median\"])
" >actual &&
	echo "1 9.112610416666666" >expect &&
	test_cmp expect actual
'

test_expect_success 'doubles in JSON read back equal' '
	ab ls runs -b resnet50/Offline --system Clemson/rtx --json >runs.json &&
	grep -q "9.112610416666666[^0-9]" runs.json &&
	! grep -q "9.11261041666667[^0-9]" runs.json
'

test_expect_success 'open division: model_mapping.json picks the official metric' '
	ab ls runs -b Llama-2-7b-chat-hf-FP8/Offline --json >runs.json &&
	$PY -c "
import json
r = json.load(open(\"runs.json\"))[0]
print(r[\"params\"][\"model_mapped\"], r[\"metrics\"][\"throughput\"][\"value\"], r[\"metrics\"][\"throughput\"][\"unit\"])
" >actual &&
	echo "llama2-70b-99.9 1200.5 tokens/s" >expect &&
	test_cmp expect actual
'

test_expect_success 'seeds beyond 2^63 keep every digit (detail and summary logs)' '
	ab ls runs --system Clemson/rtx --json >runs.json &&
	$PY -c "
import json
for r in json.load(open(\"runs.json\")):
    p = r[\"params\"]
    for k in (\"effective_sample_index_rng_seed\", \"effective_qsl_rng_seed\"):
        if k in p:
            print(k, json.dumps(p[k]))
" | sort >actual &&
	cat >expect <<-\EOF &&
	effective_qsl_rng_seed "13281865557512327830"
	effective_sample_index_rng_seed "18446744073709551615"
	EOF
	test_cmp expect actual
'

test_expect_success 'a system named after a maker but with no accelerator keeps its CPU' '
	rm -f "$ACCELBENCH_DB" &&
	mkdir -p cpu/closed/Intel/systems &&
	printf "%s\n" "{\"submitter\": \"Intel\", \"division\": \"closed\", \"system_name\": \"2S\", \"number_of_nodes\": 1, \"accelerators_per_node\": 0, \"accelerator_model_name\": \"N/A\", \"host_processor_model_name\": \"INTEL(R) XEON(R) PLATINUM 8592+\"}" >cpu/closed/Intel/systems/Intel-2S.json &&
	mkdir -p cpu/closed/Intel/results/Intel-2S/resnet50/Offline/performance/run_1 &&
	cp inference_results_v4.1/closed/Clemson/results/rtx/resnet50/Offline/performance/run_1/mlperf_log_detail.txt cpu/closed/Intel/results/Intel-2S/resnet50/Offline/performance/run_1/ &&
	ab ingest cpu >out &&
	ab ls systems >actual &&
	grep -q "^Intel/Intel-2S  *CPU  *Xeon " actual
'

test_expect_samples 'the sample round: every system has its vendor, submitters as the JSONs say' '
	rm -f "$ACCELBENCH_DB" &&
	ab ingest "$SAMPLES/mlperf" >out 2>err &&
	ab ls systems --json >sys.json &&
	$PY -c "
import json
for s in json.load(open(\"sys.json\")):
    print(s[\"name\"], s[\"vendor\"], s[\"accelerator\"])
" | sort >actual &&
	grep -q "^Intel/1-node-2S-EMR-PyTorch CPU Xeon$" actual &&
	grep -q "^tinycorp/tinybox_green NVIDIA RTX 4090$" actual &&
	grep -q "^Google/cloud-tpu-trillium-1024-maxtext Google TPU$" actual &&
	! grep -q " None " actual &&
	ab ls runs --suite mlperf-inference --json >runs.json &&
	$PY -c "
import json
for r in json.load(open(\"runs.json\")):
    p = r[\"params\"]
    assert p[\"submitter\"] == p[\"submitter_folder\"], p
    assert p[\"run\"] == 1 and p[\"official\"] is True, p
    assert r[\"excluded_reason\"] is None or r[\"status\"] != \"ok\", r
"
'

test_done
