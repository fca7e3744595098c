#!/bin/sh
# t1000-caraml-ingest: CARAML JUBE tables and jpwr energy files through the
# CLI - the samples' concrete values, re-ingest adding nothing, and a JUBE
# outpath tree whose EnergyFile paths come from another machine.
. "$(dirname "$0")/lib.sh"

C=$FIXTURES/caraml


test_expect_samples 'the samples directory ingests (exit 0), energy files read with their tables' '
	ab ingest "$SAMPLES/caraml" >out 2>err &&
	grep -q "^14 files ingested, 0 skipped as already ingested, 0 rejected, 14 read with their tables, 3 not recognised; added 45 runs, 138 metrics; 24 duplicate runs skipped$" out &&
	grep -q "^accelbench: warning: .*llm_result_readme_JEDI_real.csv:2: energy file .CARAML/llm_training/llm_benchmark_nvidia_amd_run/000025/000002_combine_energy/work/combined_energy.csv. not found; run stored without energy$" err &&
	! grep -v "^accelbench: warning: " err
'

test_expect_samples 'ls runs --json: the JEDI README row' '
	ab ls runs --json >runs.json &&
	runq job_id=3914 -- suite benchmark system vendor accelerator status nodes devices global_batch m.throughput m.throughput_per_device m.tflops_per_device m.time_per_iteration p.Version p.Iterations <runs.json >actual &&
	cat >expect <<-\EOF &&
	suite=caraml
	benchmark=llm-gpt-800M
	system=JEDI
	vendor=NVIDIA
	accelerator=GH200
	status=ok
	nodes=1
	devices=4
	global_batch=2048
	m.throughput=158152.8 tokens/s
	m.throughput_per_device=39538.2 tokens/s
	m.tflops_per_device=321.65 TFLOP/s
	m.time_per_iteration=26.52 s
	p.Version="2024.01"
	p.Iterations=25
	EOF
	test_cmp expect actual
'

test_expect_samples 'the GC200 LLM row is in samples/s; tokens/s derived from seq 1024' '
	runq job_id=13011841 -- benchmark vendor m.throughput m.throughput_tokens <runs.json >actual &&
	cat >expect <<-\EOF &&
	benchmark=llm-gpt-117M
	vendor=Graphcore
	m.throughput=183.37 samples/s
	m.throughput_tokens=187770.88 tokens/s
	EOF
	test_cmp expect actual
'

test_expect_samples 'failed rows are failed, with the missing columns named' '
	runq job_id=13077003 -- status excluded_reason m.throughput <runs.json >actual &&
	cat >expect <<-\EOF &&
	status=failed
	excluded_reason='"'"'Tokens/second'"'"' is nan (nan: Iterations, Tokens/second; empty: Time/iteration(s), Avg_TFLOPs/GPU, EnergyFile)
	m.throughput=none
	EOF
	test_cmp expect actual &&
	test "$(ab sql "SELECT count(*) FROM run WHERE status = '"'"'failed'"'"'" --csv | tail -1)" = 3
'

test_expect_samples 'the forced-csv file: args_starter rejoined, no column shifted' '
	ab --db forced.db ingest "$SAMPLES/caraml/resnet50_tf_H100_result_forced_csv_unquoted_commas_constructed.csv" >out 2>err &&
	grep -q "forced_csv_unquoted_commas_constructed.csv:1: 6 rows had more fields than the header (unquoted .,.); the surplus was joined back into .args_starter.$" err &&
	ab --db forced.db ls runs --json | runq job_id=13080502 -- m.throughput p.EnergyFile p.args_exec >actual &&
	cat >expect <<-\EOF &&
	m.throughput=1927.89 images/s
	p.EnergyFile=null
	p.args_exec="--num_gpus 1 --model resnet50_v2 --batch_size 16 --data_dir=/p/project1/cjsc/benchmark/imagenet-processed/ --variable_update horovod --use_fp16=True"
	EOF
	test_cmp expect actual &&
	ab --db forced.db sql "SELECT json_extract(params, '"'"'$.args_starter'"'"') FROM run WHERE job_id = '"'"'13080505'"'"'" --csv | tail -1 >actual &&
	echo "--cpu_bind=none,v --mpi=pspmix env PMIX_SECURITY_MODE=native apptainer exec --bind=/p/project1/cjsc/CARAML/resnet50,/p/project1/cjsc/CARAML/resnet50/resnet50_benchmark_run/000000/000005_execute/work/benchmarks/scripts/tf_cnn_benchmarks,/p/project1/cjsc/benchmark/imagenet-processed/ --nv /p/project1/cjsc/CARAML/resnet50/../containers/ngc2301_tf115_cuda1201_nccl2165_py38.sif /p/project1/cjsc/CARAML/resnet50/resnet50_benchmark_run/000000/000005_execute/work/nvidia_x86_tensorflow_wrap.sh" | sed "s/.*/\"&\"/" >expect &&
	test_cmp expect actual
'

test_expect_samples 're-ingesting the samples adds nothing' '
	ab sql "SELECT count(*) FROM run" --csv >before &&
	ab ingest "$SAMPLES/caraml" >out 2>err &&
	grep -q "^0 files ingested, 14 skipped as already ingested, 0 rejected, 14 read with their tables, 3 not recognised; added 0 runs, 0 metrics$" out &&
	ab sql "SELECT count(*) FROM run" --csv >after &&
	test_cmp before after
'

test_expect_samples 'every data file of the samples ingests on its own (exit 0)' '
	rm -f "$ACCELBENCH_DB" &&
	for f in "$SAMPLES"/caraml/*; do
		case $f in
		*/README.txt|*.txt) continue ;;
		esac
		ab ingest "$f" >/dev/null 2>err || { echo "failed: $f"; cat err; exit 1; }
	done &&
	test "$(ab sql "SELECT count(*) FROM run r JOIN benchmark b ON b.id = r.benchmark_id WHERE b.suite = '"'"'jpwr'"'"'" --csv | tail -1)" = 14
'

test_expect_samples 'combined energy on its own: one node counted once; 2024 = 2025 layout' '
	ab sql "SELECT s.path, round(m.value, 6) FROM metric m JOIN run r ON r.id = m.run_id JOIN source s ON s.id = r.source_id WHERE m.name = '"'"'energy'"'"' AND s.path LIKE '"'"'%combined_energy_%'"'"' ORDER BY s.path" --csv | tail -n +2 | sed "s|.*/||" >actual &&
	cat >expect <<-\EOF &&
	combined_energy_A100_1node_4ranks_constructed.csv,783.234277
	combined_energy_A100_1node_4ranks_layout2024_constructed.csv,783.234277
	combined_energy_JEDI_2nodes_8ranks_constructed.csv,799.48609
	combined_energy_MI250_1node_constructed.csv,204.066238
	EOF
	test_cmp expect actual
'

test_expect_success 'a JUBE outpath tree: energy resolved by suffix, power series attached' '
	rm -f "$ACCELBENCH_DB" &&
	ab ingest "$C/tree" >out 2>err &&
	grep -q "^4 files ingested, 0 skipped as already ingested, 0 rejected, 7 read with their tables; added 5 runs, 27 metrics, 44 power samples; 3 duplicate runs skipped$" out &&
	ab ls runs --json >runs.json &&
	runq job_id=900001 -- started finished m.energy m.avg_power m.peak_power m.energy_efficiency <runs.json >actual &&
	cat >expect <<-\EOF &&
	started=2024-08-23T08:00:00Z
	finished=2024-08-23T08:00:10Z
	m.energy=3.666666667 Wh
	m.avg_power=1320 W
	m.peak_power=1320 W
	m.energy_efficiency=178734.5455 tokens/Wh
	EOF
	test_cmp expect actual &&
	runq job_id=4001 -- nodes m.energy m.energy_per_device m.avg_power <runs.json >actual &&
	cat >expect <<-\EOF &&
	nodes=2
	m.energy=100 Wh
	m.energy_per_device=25 Wh
	m.avg_power=none
	EOF
	test_cmp expect actual &&
	test "$(ab sql "SELECT json_extract(meta, '"'"'$.boundary'"'"') || '"'"' '"'"' || json_extract(meta, '"'"'$.source'"'"') FROM metric WHERE name = '"'"'energy'"'"' AND run_id = 1" --csv | tail -1)" = "gpu combined_energy.csv" &&
	ab sql "SELECT device, count(*), min(watts), max(watts) FROM power_sample GROUP BY device ORDER BY device" --csv >actual &&
	cat >expect <<-\EOF &&
	device,count(*),min(watts),max(watts)
	jrc0001/pynvml:0,11,60,300
	jrc0001/pynvml:1,11,60,320
	jrc0001/pynvml:2,11,60,340
	jrc0001/pynvml:3,11,60,360
	EOF
	test_cmp expect actual
'

test_expect_success 'the missing energy file of the tree is a warning, not an error' '
	grep -q "^accelbench: warning: .*/tree/resnet50_benchmark_run/000000/result/result.dat:6: energy file ./p/project1/other/CARAML/resnet50/resnet50_benchmark_run/000000/000009_execute/work/GC200_power.0.energy.csv. not found; run stored without energy$" err &&
	test "$(wc -l <err)" = 1
'

test_expect_success 're-ingesting the tree adds nothing' '
	ab ingest "$C/tree" >out 2>err &&
	grep -q "^0 files ingested, 4 skipped as already ingested, 0 rejected, 7 read with their tables; added 0 runs, 0 metrics$" out &&
	test "$(ab sql "SELECT count(*) FROM power_sample" --csv | tail -1)" = 44
'

test_expect_success 'dry run parses everything and writes nothing' '
	rm -f "$ACCELBENCH_DB" &&
	ab ingest --dry-run "$C/tree" >out 2>/dev/null &&
	grep -q "^dry run: 4 files ingested, 0 skipped as already ingested, 0 rejected, 7 read with their tables; found 8 runs, 45 metrics, 88 power samples$" out &&
	test ! -f "$ACCELBENCH_DB"
'

test_expect_success 'FNO table: energy columns in the table, tuple cell kept whole' '
	rm -f "$ACCELBENCH_DB" &&
	ab ingest "$C/fno_result_csv.dat" >out 2>err &&
	ab ls runs --json >runs.json &&
	runq job_id=5100002 -- benchmark precision p.Grid m.throughput m.energy m.energy_efficiency <runs.json >actual &&
	cat >expect <<-\EOF &&
	benchmark=fno-RBC2D
	precision=amp
	p.Grid="(256, 64)"
	m.throughput=300 samples/s
	m.energy=50 Wh
	m.energy_efficiency=1800 samples/Wh
	EOF
	test_cmp expect actual
'

test_expect_success 'params store a real in its shortest form that reads back equal (issue 13)' '
	ab --db fno.db ingest "$C/fno_result_csv.dat" "$C/fno_eval_result_csv.dat" >/dev/null 2>&1 &&
	ab --db fno.db sql --csv "SELECT params FROM run" >params.csv &&
	grep -q "\"\"ModelParam (Million)\"\":3.1," params.csv &&
	grep -q "\"\"TFLOPs\"\":3.4}" params.csv &&
	grep -q "\"\"TrainTime/Epoch (min)\"\":0.9[,}]" params.csv &&
	! grep -E "[0-9]\.[0-9]*(0000000000|9999999999)[0-9]" params.csv
'

test_expect_success 'jpwr CLI files on their own: a jpwr run per file, companions skipped in a walk' '
	rm -f "$ACCELBENCH_DB" &&
	ab ingest "$C/jpwr" >out &&
	grep -q "^0 files ingested, 0 skipped as already ingested, 0 rejected, 4 read with their tables; added 0 runs, 0 metrics$" out &&
	ab ingest "$C/jpwr/power.host7.4242.csv" "$C/jpwr/energy_from_counter.host8.5151.csv" >out &&
	ab ls runs --json >runs.json &&
	$PY -c "
import json
for r in json.load(open(\"runs.json\")):
    m = {k: round(v[\"value\"], 6) for k, v in sorted(r[\"metrics\"].items())}
    print(r[\"suite\"], r[\"benchmark\"], r[\"system\"], r[\"vendor\"], r[\"status\"], r[\"excluded_reason\"], m)
" >actual &&
	cat >expect <<-\EOF &&
	jpwr energy host7 AMD ok None {'"'"'avg_power'"'"': 250.0, '"'"'duration'"'"': 2.0, '"'"'energy'"'"': 0.138889, '"'"'energy_per_device'"'"': 0.069444, '"'"'peak_power'"'"': 250.0}
	jpwr energy host8 AMD invalid energy counters read 0 (not supported on this device) {}
	EOF
	test_cmp expect actual &&
	test "$(ab sql "SELECT count(*) FROM power_sample" --csv | tail -1)" = 10
'

test_expect_success 'ls formats lists the CARAML formats' '
	ab ls formats >out &&
	grep -q "jube-table" out && grep -q "jpwr-combined" out &&
	grep -q "jpwr-energy" out && grep -q "jpwr-power" out
'

test_done
