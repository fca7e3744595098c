#!/bin/sh
# t5002-run-mlperf: `accelbench run mlperf` runs a training command N times
# into the MLPerf submission layout, checks each log's run_start/run_stop,
# ingests, and prints the official score (olympic mean).
. "$(dirname "$0")/lib.sh"

TRAIN="$ROOT/tests/runners/fake_mlperf_train.sh"

test_expect_success 'resnet: the required 5 runs, one non-converging, official score' '
	printf "%s\n" "{\"submitter\": \"Acme\", \"division\": \"closed\", \"status\": \"Available on-premise\", \"system_name\": \"Box One\", \"number_of_nodes\": \"1\", \"accelerators_per_node\": \"8\", \"accelerator_model_name\": \"NVIDIA H100-SXM5-80GB\", \"host_processor_model_name\": \"AMD EPYC 9654\", \"framework\": \"PyTorch\"}" >box1.json &&
	expect_code 1 env FAIL_RUN=3 "$AB" run mlperf -b resnet --system-json box1.json --submitter Acme -- "$TRAIN" >out 2>err &&
	cat out &&
	grep -q "^run mlperf resnet: 5 runs of Acme/box1 in runs/resnet/[0-9T]*Z$" out &&
	grep -q "^  run 1/5: ok, time to train 11.000 min (result_1.txt)$" out &&
	grep -q "^  run 3/5: failed: run_stop status .aborted. (result_3.txt)$" out &&
	grep -q "^ingested: 6 files, 0 rejected; added 5 runs, 4 metrics$" out &&
	grep -q "^official score: 13.667 min (olympic mean), 4 valid of 5 runs, 5 required$" out &&
	ls runs/resnet/*/Acme/results/box1/resnet/result_5.txt runs/resnet/*/Acme/systems/box1.json &&
	ab ls systems --json | $PY -c "import json,sys; s=json.load(sys.stdin); assert s[0][\"name\"] == \"Acme/box1\" and s[0][\"accelerator\"].startswith(\"H100\"), s"
'

test_expect_success 'each run carries the provenance of the campaign' '
	ab sql "SELECT json_extract(params, \"$.provenance.runner\"), json_extract(params, \"$.provenance.command\") FROM run" >p &&
	test $(grep -c "^mlperf  *.*fake_mlperf_train.sh$" p) = 5
'

test_expect_success 'a run without MLLOG records lands as failed with its output' '
	rm -f "$ACCELBENCH_DB" &&
	expect_code 1 env NOLOG_RUN=2 "$AB" run mlperf -b bert --runs 2 --system b2 -- "$TRAIN" >out 2>err &&
	grep -q "^  run 2/2: failed: the command exited with status 1 (result_2.txt)$" out &&
	grep -q "CUDA error: out of memory" err &&
	test "$(ab sql "SELECT count(*) FROM run WHERE status <> \"ok\"" | tail -1)" = 1
'

test_expect_success 'an unknown benchmark needs --runs; --dry-run runs nothing' '
	expect_code 2 ab run mlperf -b nosuchbench -- "$TRAIN" 2>err &&
	grep -q "runs N is required for .nosuchbench." err &&
	ab run mlperf -b bert --dry-run --runs-dir dry -- "$TRAIN" >out && test ! -e dry &&
	grep -q "^dry run: would run 10 times, each log in dry/bert/<UTC time>/accelbench/results/.*/bert/result_<i>.txt:$" out
'

test_done
