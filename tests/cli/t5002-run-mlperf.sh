#!/bin/sh
# t5002-run-mlperf: `accelbench run mlperf` runs a training command N times
# into the MLPerf submission layout, checks each log's run_start/run_stop,
# ingests, and prints the official score (olympic mean).
. "$(dirname "$0")/lib.sh"

TRAIN="$ROOT/tests/runners/fake_mlperf_train.sh"
# no power source unless a test builds one (the fake NVML below)
mkdir -p "$T_BASE/empty" "$T_BASE/lib"
ACCELBENCH_SYSFS_ROOT="$T_BASE/empty"; export ACCELBENCH_SYSFS_ROOT

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

test_expect_success 'each run carries its own exit status, status and output tail' '
	ab sql "SELECT json_extract(params, \"$.provenance.run\") FROM run ORDER BY json_extract(params, \"$.provenance.run.seq\")" | tail -n +3 >runs.txt &&
	$PY - <<-\PYEOF
	import json
	runs = [json.loads(l) for l in open("runs.txt")]
	assert [r["seq"] for r in runs] == [1, 2, 3, 4, 5], runs
	assert [r["exit_status"] for r in runs] == [0] * 5, runs
	assert [r["status"] for r in runs] == ["ok", "ok", "failed", "ok", "ok"], runs
	assert runs[2]["reason"] == "run_stop status \x27aborted\x27", runs[2]
	assert "reason" not in runs[0], runs[0]
	assert runs[2]["output"] == "result_3.txt" and "run_stop" in runs[2]["output_tail"], runs[2]
	assert all(r["started"].endswith("Z") and r["finished"].endswith("Z") for r in runs)
	PYEOF
'

test_expect_success 'a run without MLLOG records lands as failed with its output' '
	rm -f "$ACCELBENCH_DB" &&
	expect_code 1 env NOLOG_RUN=2 "$AB" run mlperf -b bert --runs 2 --system b2 -- "$TRAIN" >out 2>err &&
	grep -q "^  run 2/2: failed: the command exited with status 1 (result_2.txt)$" out &&
	grep -q "CUDA error: out of memory" err &&
	test "$(ab sql "SELECT count(*) FROM run WHERE status <> \"ok\"" | tail -1)" = 1 &&
	ab sql "SELECT json_extract(params, \"$.provenance.run.exit_status\"), json_extract(params, \"$.provenance.run.output_tail\") FROM run WHERE json_extract(params, \"$.provenance.run.seq\") = 2" | tail -1 >r2 &&
	cat r2 && grep -q "^1  *.*CUDA error: out of memory" r2
'

test_expect_success 'power sampled per run (fake NVML): MLPerf power logs, energy at the time to train' '
	rm -f "$ACCELBENCH_DB" &&
	${AB_CC:-cc} -shared -fPIC -O1 -o "$T_BASE/lib/libnvidia-ml.so.1" "$ROOT/tests/runners/fake_nvml.c" &&
	LD_LIBRARY_PATH="$T_BASE/lib" FAKE_NVML_POWER=100:0,200:0 \
		ab run mlperf -b resnet --runs 2 --system pw --power nvml --interval 50 -- "$TRAIN" >out 2>err &&
	cat out &&
	grep -q "^power: nvml (2 GPUs)$" out &&
	grep -q "^  run 1/2: ok, time to train 11.000 min (result_1.txt), [0-9.e-]* Wh, 300.0 W avg (gpu)$" out &&
	grep -Eq "^ingested: 3 files, 0 rejected; added 2 runs, 6 metrics, [0-9]+ power samples$" out &&
	log=$(echo runs/resnet/*/accelbench/results/pw/resnet/power/result_1/node_*.txt) && test -f "$log" &&
	head -1 "$log" | grep -q "^:::MLLOG {.*\"key\": \"power_measurement_start\"" &&
	tail -1 "$log" | grep -q "^:::MLLOG {.*\"key\": \"power_measurement_stop\"" &&
	grep -q "\"key\": \"power_reading\", \"value\": 300.000000," "$log" &&
	ls runs/resnet/*/power.1.*.csv runs/resnet/*/energy.2.*.csv &&
	ab sql "SELECT json_extract(r.params, \"$.provenance.run.seq\"), m.name, round(m.value, 6), m.unit FROM run r JOIN metric m ON m.run_id = r.id WHERE m.name IN (\"energy\", \"avg_power\") ORDER BY 1, 2" >e &&
	cat e &&
	grep -Eq "^1 +avg_power +300(\.0)? +W$" e && grep -Eq "^1 +energy +55(\.0)? +Wh$" e &&
	grep -Eq "^2 +avg_power +300(\.0)? +W$" e && grep -Eq "^2 +energy +60(\.0)? +Wh$" e &&
	ab sql "SELECT json_extract(params, \"$.provenance.power[0].backend\"), json_extract(params, \"$.provenance.run.power.boundary\"), round(json_extract(params, \"$.provenance.run.power.avg_w\"), 6) FROM run" | tail -n +3 | sort -u >pw &&
	test "$(wc -l <pw)" = 1 && grep -Eqx "nvml +gpu +300(\.0+)?" pw
'

test_expect_success 'an unknown benchmark needs --runs; --dry-run runs nothing' '
	expect_code 2 ab run mlperf -b nosuchbench -- "$TRAIN" 2>err &&
	grep -q "runs N is required for .nosuchbench." err &&
	ab run mlperf -b bert --dry-run --runs-dir dry -- "$TRAIN" >out && test ! -e dry &&
	grep -q "^dry run: would run 10 times, each log in dry/bert/<UTC time>/accelbench/results/.*/bert/result_<i>.txt:$" out
'

test_done
