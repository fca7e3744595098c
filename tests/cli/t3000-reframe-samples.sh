#!/bin/sh
# t3000-reframe-samples: every file of ../shared/samples/reframe through the
# CLI - the EPCC table (seed numbers, per system and test class), one test
# case stored once across perflogs, run reports and results.db, the failing
# CosmoFlow run with its retry, the sanity failure without values.
. "$(dirname "$0")/lib.sh"

R=${SAMPLES:+$SAMPLES/reframe}


test_expect_samples 'the reframe samples ingest (exit 0), duplicates stored once' '
	ab ingest "$R" >out 2>err &&
	grep -q "^[0-9]* files ingested, 0 skipped as already ingested, 0 rejected, [12] not recognised; added 59 runs, 114 metrics; [0-9]* duplicate runs skipped$" out &&
	sed "s|$R/||" err >actual &&
	cat >expect <<-\EOF &&
	accelbench: warning: constructed_reframe-4.6.0_epcc-site-format/reframe_perf.out: not read: perflogs/ beside it holds the same records (ingest this file on its own to read it)
	accelbench: warning: real/epcc-archer2_reframe-4.8.2_run-report_dv4.1_truncated.json: 38 passing test cases without performance variables not stored
	EOF
	test_cmp expect actual
'

test_expect_samples 'ls runs --suite reframe --json: the EPCC table (compute/effective inputs/s)' '
	ab ls runs --suite reframe --json >runs.json &&
	$PY -c "
import json, sys
rows = {}
for r in json.load(open(\"runs.json\")):
    if \"/real/\" in r[\"source\"]:
        continue
    m = r[\"metrics\"]
    v = lambda n: \"%g\" % m[n][\"value\"] if n in m else \"-\"
    rows.setdefault((r[\"benchmark\"], r[\"system\"]), []).append(
        \"%s:%s/%s\" % (r[\"status\"], v(\"compute_throughput\"), v(\"effective_throughput\")))
for k in sorted(rows):
    print(k[0], k[1], \" \".join(sorted(rows[k])))
" >actual &&
	cat >expect <<-\EOF &&
	CosmoFlowCPUCheck archer2:compute ok:14.9/14.8 ok:14.9/14.8 ok:14.9/14.8
	CosmoFlowGPUBenchmark archer2:compute-gpu-torch failed:479.9/72.5 failed:479.9/72.5 failed:479.9/72.5 failed:479.9/72.5
	CosmoFlowGPUBenchmark cirrus:compute-gpu ok:112.2/78.1 ok:112.2/78.1 ok:112.2/78.1
	CosmoFlowGPUServiceBenchmark eidf:gpu-service ok:117.9/58.1 ok:117.9/58.1 ok:117.9/58.1
	CosmoFlowGraphcoreBenchmark eidf:graphcore ok:-/14.5 ok:-/14.5 ok:-/14.5
	DeepCAMGPUServiceBenchmark eidf:gpu-service ok:101.7/13.7 ok:101.7/13.7 ok:101.7/13.7
	DeepCAMGraphcoreBenchmark eidf:graphcore failed:-/- failed:-/-
	DeepCamCPUCheck archer2:compute ok:6.1/6.1 ok:6.1/6.1 ok:6.1/6.1
	DeepCamGPUBenchmark archer2:compute-gpu-torch ok:26.4/14.5 ok:26.4/14.5 ok:26.4/14.5
	DeepCamGPUBenchmark cirrus:compute-gpu ok:54.1/15.4 ok:54.1/15.4 ok:54.1/15.4
	ResNet50CPUCheck archer2:compute ok:40.5/40.1 ok:40.5/40.1 ok:40.5/40.1
	ResNet50CSXBenchmark eidf:cs2 ok:-/452 ok:-/452 ok:-/452
	ResNet50GPUBenchmark archer2:compute-gpu-torch ok:293.2/226.6 ok:293.2/226.6 ok:293.2/226.6
	ResNet50GPUBenchmark cirrus:compute-gpu ok:138/134.3 ok:138/134.3 ok:138/134.3
	ResNetGPUServiceBenchmark eidf:gpu-service ok:-/179.7 ok:226.2/179.7 ok:226.2/179.7 ok:226.2/179.7
	ResNetGPUServiceGraphCoreBenchmark eidf:graphcore ok:-/255.6 ok:-/255.6 ok:-/255.6
	EOF
	test_cmp expect actual
'

test_expect_samples 'ResNet50CPUCheck on archer2:compute (ReFrame 4.9.3 perflog)' '
	runq source~4.9.3/perflogs benchmark=ResNet50CPUCheck system=archer2:compute nth=0 -- suite status nodes job_id finished m.effective_throughput m.compute_throughput headline_metric better p.num_nodes p.environ p.time_basis <runs.json >actual &&
	cat >expect <<-\EOF &&
	suite=reframe
	status=ok
	nodes=4
	job_id=13128
	finished=2024-03-18T09:14:07.182Z
	m.effective_throughput=40.1 inputs/s
	m.compute_throughput=40.5 inputs/s
	headline_metric=effective_throughput
	better=higher
	p.num_nodes=4
	p.environ="PrgEnv-gnu"
	p.time_basis="job_completion_time_unix"
	EOF
	test_cmp expect actual &&
	ab sql "SELECT m.meta FROM metric m JOIN run r ON r.id = m.run_id WHERE r.job_id = '\''13128'\'' AND m.name = '\''effective_throughput'\''" >meta &&
	grep -q "\"reference\":40.0" meta && grep -q "\"lower_bound\":38.0" meta &&
	grep -q "\"upper_bound\":44.0" meta && grep -q "\"result\":\"pass\"" meta
'

test_expect_samples 'the failing CosmoFlow run and its retry are two failed runs' '
	runq source~4.9.3/perflogs benchmark=CosmoFlowGPUBenchmark system=archer2:compute-gpu-torch nth=0 -- status job_id excluded_reason m.effective_throughput <runs.json >actual &&
	runq source~4.9.3/perflogs benchmark=CosmoFlowGPUBenchmark system=archer2:compute-gpu-torch nth=1 -- status job_id excluded_reason m.effective_throughput <runs.json >>actual &&
	cat >expect <<-\EOF &&
	status=failed
	job_id=13199
	excluded_reason=performance: effective_throughput=72.5 outside [360, inf]
	m.effective_throughput=72.5 inputs/s
	status=failed
	job_id=13658
	excluded_reason=performance: effective_throughput=72.5 outside [360, inf]
	m.effective_throughput=72.5 inputs/s
	EOF
	test_cmp expect actual
'

test_expect_samples 'the sanity failure: stored as failed, without values' '
	runq source~3.12.0/reports benchmark=DeepCAMGraphcoreBenchmark system=eidf:graphcore nth=0 -- status excluded_reason metrics p.fail_phase <runs.json >actual &&
	runq source~4.9.3/perflogs benchmark=DeepCAMGraphcoreBenchmark system=eidf:graphcore nth=0 -- status metrics p.perf_missing <runs.json >>actual &&
	cat >expect <<-\EOF &&
	status=failed
	excluded_reason=sanity error: pattern '\''Effective Throughput'\'' not found in '\''rfm_DeepCAMGraphcoreBenchmark_8_job.out'\''
	metrics={}
	p.fail_phase="sanity"
	status=failed
	metrics={}
	p.perf_missing={"effective_throughput": "None"}
	EOF
	test_cmp expect actual
'

test_expect_samples 'results.db is read read-only and adds nothing new' '
	db="$R/constructed_reframe-4.9.3/reports/results.db" &&
	sum1=$(sha256sum "$db") &&
	ab --db perflogs-only.db ingest "$R/constructed_reframe-4.9.3/perflogs" >/dev/null 2>&1 &&
	ab --db perflogs-only.db ingest "$db" >out &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected; added 0 runs, 0 metrics; 18 duplicate runs skipped$" out &&
	test "$(sha256sum "$db")" = "$sum1" &&
	! test -e "$db-journal"
'

test_expect_samples 'ingesting again adds nothing' '
	ab ingest "$R" >out 2>err &&
	grep -q "^0 files ingested, [0-9]* skipped as already ingested, 0 rejected, [12] not recognised; added 0 runs, 0 metrics$" out
'

test_expect_samples 'reframe_perf.out on its own: 27 lines, 15 test cases' '
	rm -f "$ACCELBENCH_DB" &&
	ab ingest "$R/constructed_reframe-4.6.0_epcc-site-format/reframe_perf.out" >out &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected; added 15 runs, 27 metrics$" out &&
	ab ls runs --json >runs.json &&
	runq source~reframe_perf.out benchmark=ResNet50CPUCheck system=archer2:compute nth=0 -- status line m.effective_throughput m.compute_throughput p.hashcode p.environ <runs.json >actual &&
	cat >expect <<-\EOF &&
	status=ok
	line=11
	m.effective_throughput=40.1 inputs/s
	m.compute_throughput=40.5 inputs/s
	p.hashcode="091ea76f"
	p.environ="PrgEnv-gnu"
	EOF
	test_cmp expect actual
'

test_done
