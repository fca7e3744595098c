#!/bin/sh
# t2000-mlperf-training: ingest of the MLPerf training samples (a whole
# round's layout: <submitter>/results/<system>/<benchmark>/result_*.txt with
# systems/*.json, scaling.json, power/), invalid runs kept with their
# reasons, re-ingest as a no-op.
. "$(dirname "$0")/lib.sh"

T=$SAMPLES/mlperf/training

test_expect_samples 'the training tree ingests: one run per result file' '
	ab ingest "$T" >out &&
	echo "58 files ingested, 0 skipped as already ingested, 0 rejected, 100 read with their tables; added 58 runs, 75 metrics, 26972 power samples" >expect &&
	test_cmp expect out
'

test_expect_samples 'the same tree again is a no-op' '
	ab ingest "$T" >out &&
	grep -q "^0 files ingested, 58 skipped as already ingested, 0 rejected" out
'

test_expect_samples 'invalid runs are kept and shown with their reasons' '
	ab ls runs --suite mlperf-training --csv | csvsel benchmark,system,status,excluded_reason status!=ok >notes &&
	cat >expect <<-\EOT &&
	benchmark,system,status,excluded_reason
	llama2_70b_lora,Lambda/lambda_1cc_n4_H100-SXM-80GB_ngc24.04_nemo,invalid,"result_240928173116824495865_1.txt:779: unparsable :::MLLOG record (expecting '"'"','"'"' delimiter at column 124)"
	bert,NVIDIA/eos_n8_ngc23.04_pytorch,aborted,"result_4.txt:517: run_stop status ""aborted"""
	bert,tinycorp/tinybox_green,invalid,result_2.txt: no run_stop (log truncated?)
	EOT
	test_cmp expect notes
'

test_expect_samples 'systems: <submitter>/<folder>, display name and vendor from the JSON' '
	ab sql "SELECT name, display_name, vendor, accelerator, accelerators_per_node FROM system ORDER BY name" >out &&
	grep -q "^Dell/8xXE9680x8H100-SXM-80GB-POWER  *8xXE9680x8H100-SXM-80GB  *NVIDIA  *H100  *8$" out &&
	grep -q "^Google/cloud-tpu-trillium-1024-maxtext  *tpu-trillium-1024  *Google  *TPU  *4$" out &&
	grep -q "^tinycorp/tinybox_green " out
'

test_expect_samples 'runs carry the time to train, the round and the energy in joules' '
	ab sql "SELECT json_extract(params, '"'"'\$.run_index'"'"'), json_extract(params, '"'"'\$.energy_j'"'"'), json_extract(params, '"'"'\$.scaling_factor'"'"') FROM run WHERE json_extract(params, '"'"'\$.submitter'"'"') = '"'"'Dell'"'"' AND json_extract(params, '"'"'\$.run_index'"'"') = 0" --csv >out &&
	grep -q "^0,16143281.6436" out && grep -q ",1.00336700336700" out &&
	ab ls runs --suite mlperf-training --json >runs.json &&
	$PY - <<-\EOP
	import json
	runs = json.load(open("runs.json"))
	assert len(runs) == 58, len(runs)
	lenovo = [r for r in runs if r["system"].startswith("Lenovo/")]
	assert sorted(r["params"]["run_index"] for r in lenovo) == [1, 2, 3, 4, 5]
	assert all(r["params"]["round"] is None for r in runs)
	ok = [r for r in runs if r["status"] == "ok"]
	assert all(r["metrics"]["time_to_train"]["unit"] == "min" for r in ok)
	lam = [r for r in runs if r["system"].startswith("Lambda/")]
	assert sorted(r["job_id"] for r in lam) == ["240928173116824495865"] * 10
	EOP
'

test_done
