#!/bin/sh
# t3004-reframe-headers: site perflogs whose header names the columns are
# read without options: ExCALIBUR-style layouts (ReFrame before and after
# 4.6.1 header rules, perf block in the middle, info, JSON fields, null vs
# None), a CSV layout with system:partition and no test name (the file
# name gives it), a per-variable layout with a header, a CSCS-style
# per-variable layout with key=value fields; environment names
# with dots; nodes/devices from the task counts, GPUs and node lists.
. "$(dirname "$0")/lib.sh"

H=$FIXTURES/reframe/headers

runs_table() {
	ab ls runs --json >runs.json &&
	$PY -c "
import json
for r in json.load(open(\"runs.json\")):
    p = r[\"params\"]
    ms = \" \".join(\"%s=%s%s\" % (k, m[\"value\"], m[\"unit\"]) for k, m in sorted(r[\"metrics\"].items()))
    print(r[\"benchmark\"], r[\"system\"], p.get(\"environ\"), r[\"job_id\"], r[\"nodes\"], r[\"devices\"],
          r[\"status\"], r[\"started\"], r[\"finished\"], ms)
"
}

test_expect_success 'five header layouts and a dotted 3.x environment, no options' '
	ab ingest "$H" >out 2>err &&
	cat >expect <<-\EOF &&
	6 files ingested, 0 skipped as already ingested, 0 rejected; added 11 runs, 20 metrics
	EOF
	test_cmp expect out &&
	test_cmp /dev/null err &&
	runs_table >actual &&
	cat >expect <<-\EOF &&
	AlltoallTest daint:mc PrgEnv-gnu 5512301 None None ok None 2024-06-03T09:02:33Z bandwidth=1480.5MB/s latency=12.75us
	AlltoallTest daint:mc PrgEnv-gnu 5512388 None None failed None 2024-06-03T09:09:10Z bandwidth=1322.0MB/s latency=15.5us
	StreamBench3 mycluster:cpu builtin-gcc-7.2.0 4711 None None ok None 2022-03-07T09:41:02Z Copy=21020.5MB/s Triad=17110.75MB/s
	StreamBench archer2:compute-node gcc-12.2.0 7101 1 None ok None 2024-05-02T10:11:12Z Copy=150250.25MB/s Triad=180512.5MB/s
	StreamBench archer2:compute-node gcc-12.2.0 7102 2 None ok None 2024-05-02T10:20:40Z Copy=299500.0MB/s Triad=358000.0MB/s
	StreamBench archer2:compute-node gcc-12.2.0 7103 4 None failed None 2024-05-02T10:31:05Z Copy=598000.0MB/s Triad=150000.0MB/s
	GmxBench csd3:pvc oneapi-2023.1 88001 2 8 ok None 2024-02-11T08:00:05Z Performance=0.0215days/ns
	GmxBench csd3:pvc oneapi-2023.1 88002 4 16 ok None 2024-02-11T09:30:00Z Performance=0.0121days/ns
	HaloBench daint:gpu PrgEnv-nvidia 3301 4 16 ok None 2024-03-01T06:00:00Z gflops=812.5GFLOP/s halo_time=0.0125s
	OsuBench tut:default builtin-gcc-7.2.0 501 None None ok None 2024-09-01T12:00:00Z bw=9870.5MB/s lat=1.75us
	OsuBench tut:default builtin-gcc-7.2.0 502 None None failed None 2024-09-01T12:05:00Z bw=9100.25MB/s lat=1.9us
	EOF
	test_cmp expect actual
'

test_expect_success 'references, thresholds and results per variable' '
	ab sql --csv "SELECT r.job_id, m.name, m.meta FROM metric m JOIN run r ON r.id = m.run_id WHERE r.job_id IN ('\''7101'\'', '\''7103'\'', '\''88001'\'', '\''502'\'') ORDER BY r.job_id, m.name" >m.csv &&
	$PY -c "
import csv, json
for x in csv.DictReader(open(\"m.csv\")):
    m = json.loads(x[\"meta\"])
    print(x[\"job_id\"], x[\"name\"], m[\"reference\"], m[\"lower_thres\"], m[\"upper_thres\"], m.get(\"lower_bound\"), m.get(\"upper_bound\"), m[\"result\"], m.get(\"result_computed\", False))
" >actual &&
	cat >expect <<-\EOF &&
	502 bw 10000.0 -0.05 None 9500.0 None fail True
	502 lat 0.0 None None None None pass True
	7101 Copy 0.0 None None None None pass True
	7101 Triad 200000.0 -0.1 None 180000.0 None pass True
	7103 Copy 0.0 None None None None pass True
	7103 Triad 200000.0 -0.1 None 180000.0 None fail True
	88001 Performance 0.02 None 0.1 None 0.022000000000000002 pass True
	EOF
	test_cmp expect actual
'

test_expect_success 'ls runs says which failed verdicts accelbench derived' '
	ab ls runs --benchmark StreamBench >actual &&
	grep -q "failed .*performance: Triad=150000 outside \[180000, inf\] (verdict derived by accelbench: the file gives no result)$" actual &&
	ab ls runs --benchmark OsuBench >actual &&
	grep -q "failed .*performance: bw=9100.25 outside \[9500, inf\]$" actual &&
	# 13 * (1 - 0.1) is 11.700000000000001 in binary: the reason rounds it
	ab ls runs --benchmark AlltoallTest >actual &&
	grep -q "failed .*performance: latency=15.5 outside \[11.7, 14.3\] (verdict derived" actual
'

test_expect_success 'info, JSON fields, spack spec and unknown columns go to params' '
	ab ls runs --benchmark StreamBench --json >runs.json &&
	$PY -c "
import json
p = json.load(open(\"runs.json\"))[2][\"params\"]
for k in (\"info\", \"hashcode\", \"reframe_version\", \"spack_spec\", \"spack_spec_dict\", \"env_vars\", \"extra_resources\", \"tags\", \"job_nodelist\", \"num_tasks\", \"num_tasks_per_node\", \"num_gpus_per_node\", \"result_computed\"):
    print(k, json.dumps(p.get(k), sort_keys=True))
" >actual &&
	cat >expect <<-\EOF &&
	info "StreamBench /5e1a0c3d @archer2:compute-node+gcc-12.2.0"
	hashcode "5e1a0c3d"
	reframe_version "4.6.2"
	spack_spec "stream@5.10%gcc@12.2.0 +openmp"
	spack_spec_dict {"stream": {"compiler": {"name": "gcc", "version": "12.2.0"}, "version": "5.10"}}
	env_vars {"OMP_NUM_THREADS": "1"}
	extra_resources {"qos": "standard"}
	tags "performance,stream"
	job_nodelist "nid001001,nid001002,nid001003,nid001004"
	num_tasks 512
	num_tasks_per_node 128
	num_gpus_per_node null
	result_computed true
	EOF
	test_cmp expect actual
'

test_expect_success 'lower is better from the unit and the name; a scaling series keeps its node counts' '
	ab ls benchmarks --suite reframe >actual &&
	grep -q "^reframe  *GmxBench  *Performance  *days/ns  *lower " actual &&
	grep -q "^reframe  *HaloBench  *halo_time  *s  *lower " actual &&
	grep -q "^reframe  *AlltoallTest  *latency  *us  *lower " actual &&
	grep -q "^reframe  *OsuBench  *bw  *MB/s  *higher " actual &&
	ab stats -b StreamBench >actual &&
	test $(grep -c "^StreamBench " actual) = 3
'

test_expect_success 'the same files again are already ingested' '
	ab ingest "$H" >out &&
	grep -q "^0 files ingested, 6 skipped as already ingested, 0 rejected" out
'

test_expect_success '--perflog-format reads a named file outside perflogs/' '
	printf "%s\n" "Bw2|mysys|p1|gnu|2024-01-02T03:04:05Z|bw|12.5|GB/s" >plain.txt &&
	ab ingest --perflog-format "%(check_display_name)s|%(check_system)s|%(check_partition)s|%(check_environ)s|%(check_job_completion_time)s|%(check_perf_var)s|%(check_perf_value)s|%(check_perf_unit)s" plain.txt >out &&
	grep -q "^1 file ingested, .*added 1 run, 1 metric$" out &&
	ab ls runs --benchmark Bw2 >actual &&
	grep -q "mysys:p1  *ok .* 12.500  *GB/s" actual
'

test_expect_success 'system and partition in the line and in check_info are stored once' '
	printf "%s\n" "2024-01-02T03:04:05Z|Bw3 /0a1b2c3d @archer2:compute-node+gnu|archer2|compute-node|bw|7.5|GB/s" >both.txt &&
	ab ingest --perflog-format "%(check_job_completion_time)s|%(check_info)s|%(check_system)s|%(check_partition)s|%(check_perf_var)s|%(check_perf_value)s|%(check_perf_unit)s" both.txt >out &&
	ab ls systems >actual &&
	grep -q "^archer2:compute-node " actual &&
	! grep -q "archer2archer2" actual
'

test_expect_success 'a pre-4.6.1 header over key=value fields: the key is read as fixed text' '
	ab --db old.db ingest "$FIXTURES/reframe/headers-old" >out 2>err &&
	test_cmp /dev/null err &&
	ab --db old.db ls runs --json >runs.json &&
	$PY -c "
import json
for r in json.load(open(\"runs.json\")):
    p = r[\"params\"]
    print(r[\"job_id\"], r[\"nodes\"], r[\"status\"], p[\"num_tasks\"], p[\"num_tasks_per_node\"], p[\"reframe_version\"])
" >actual &&
	cat >expect <<-\EOF &&
	777001 2 ok 16 8 4.5.2
	777002 4 failed 32 8 4.5.2
	EOF
	test_cmp expect actual
'

test_expect_samples 'sample perflogs read without options, anywhere; nodes and lower-is-better' '
	rm -f "$ACCELBENCH_DB" &&
	cp "$SAMPLES/reframe/constructed_reframe-4.9.3/perflogs/archer2/compute/ResNet50CPUCheck.log" resnet.txt &&
	ab ingest resnet.txt "$SAMPLES/reframe/constructed_reframe-4.6.0_epcc-site-format/perflogs" >out 2>err &&
	grep -q "^[1-9][0-9]* files ingested, 0 skipped as already ingested, 0 rejected" out &&
	ab ls runs --benchmark ResNet50CPUCheck --json >runs.json &&
	$PY -c "
import json
for r in json.load(open(\"runs.json\")):
    print(r[\"system\"], r[\"nodes\"], r[\"status\"], r[\"metrics\"][\"effective_throughput\"][\"value\"])
" >actual &&
	cat >expect <<-\EOF &&
	archer2:compute 4 ok 40.1
	archer2:compute 4 ok 40.1
	EOF
	test_cmp expect actual &&
	ab ls benchmarks --suite reframe >actual &&
	! grep " lower " actual
'

test_done
