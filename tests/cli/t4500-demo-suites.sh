#!/bin/sh
# t4500-demo-suites: `accelbench demo` writes three suites in their native
# formats (CARAML/JUBE+jpwr, MLPerf training :::MLLOG with power logs,
# ReFrame 4.x perflogs + JSON run reports), every system marked simulated,
# the example prices, and values on the published figures they are built on.
. "$(dirname "$0")/lib.sh"

test_expect_success 'demo writes the three suites natively and ingests all of them' '
	ACCELBENCH_DB= ab demo -o demo >out &&
	test -f demo/data/systems.json && test -f demo/prices.json &&
	grep -q "^:::MLLOG {\"namespace\": \"\", \"time_ms\": [0-9]*, \"event_type\": \"INTERVAL_START\", \"key\": \"run_start\"" \
		demo/data/mlperf/DemoHPC/results/h100_n1_pytorch/resnet/result_0.txt &&
	test -f demo/data/mlperf/DemoHPC/systems/gh200_n4_pytorch.json &&
	ls demo/data/mlperf/DemoHPC/results/h100_n1_pytorch/resnet/power/result_4/node_0.txt &&
	head -1 demo/data/reframe/perflogs/cirrus/compute-gpu/DeepCAMBenchmark.log | grep -q "^result|job_completion_time|" &&
	test $(wc -l <demo/data/reframe/perflogs/cirrus/compute-gpu/DeepCAMBenchmark.log) = 6 &&
	$PY -c "import json; d = json.load(open(\"demo/data/reframe/reports/run-report-3.json\")); assert d[\"session_info\"][\"data_version\"] == \"4.2\"" &&
	ab --db demo/accelbench.db ls benchmarks --json >b.json &&
	$PY - <<-\PYEOF
	import json
	b = {(x["suite"], x["name"]): x for x in json.load(open("b.json"))}
	assert set(b) == {("caraml", "llm-gpt-800M"), ("caraml", "resnet50"), ("mlperf-training", "resnet"),
	                  ("reframe", "ResNet50Benchmark"), ("reframe", "CosmoFlowBenchmark"),
	                  ("reframe", "DeepCAMBenchmark")}, b
	PYEOF
	grep -q " 0 rejected\|^ingested into demo/accelbench.db: 48 files" out
'

test_expect_success 'every system is marked simulated, with the systems file as its source' '
	ab --db demo/accelbench.db sql "SELECT count(*) FROM system WHERE json_extract(meta, '"'"'\$.simulated'"'"') = 1" >n &&
	ab --db demo/accelbench.db sql "SELECT count(*) FROM system" >all &&
	test_cmp all n && test "$(tail -1 n)" = 14
'

test_expect_success 'ResNet50 at 4 devices is on the published CARAML figures (throughput, energy)' '
	ab --db demo/accelbench.db ls runs --suite caraml -b resnet50 --json >r.json &&
	ab --db demo/accelbench.db sql "SELECT s.name, m.value FROM metric m JOIN run r ON r.id = m.run_id JOIN system s ON s.id = r.system_id JOIN benchmark b ON b.id = r.benchmark_id WHERE b.name = '"'"'resnet50'"'"' AND r.devices = 4 AND m.name = '"'"'energy'"'"'" >e.txt &&
	$PY - <<-\PYEOF
	import json, statistics
	pub = {"MI250": (4708, 7.33), "GC200": (2024, 15.02), "A100": (6791, 16.62), "H100": (13159, 7.36),
	       "WAIH100": (15921, 7.96), "JEDI": (20865, 12.87)}
	runs = [r for r in json.load(open("r.json")) if r["devices"] == 4]
	for s, (x, wh) in pub.items():
	    v = statistics.median(r["metrics"]["throughput"]["value"] for r in runs if r["system"] == s)
	    assert abs(v / x - 1) < 0.05, (s, v, x)
	    e = [float(l.split()[1]) for l in open("e.txt").read().splitlines()[2:] if l.split()[0] == s]
	    assert len(e) == 6 and abs(statistics.median(e) / wh - 1) < 0.05, (s, e, wh)
	    assert all(r["global_batch"] == 2048 for r in runs if r["system"] == s)
	PYEOF
'

test_expect_success 'ReFrame values are on the EPCC study figures; one sanity failure is kept' '
	ab --db demo/accelbench.db stats --suite reframe --json >s.json &&
	$PY - <<-\PYEOF
	import json
	eff = {("ResNet50Benchmark", "archer2:compute"): 40.1, ("ResNet50Benchmark", "archer2:compute-gpu-torch"): 226.6,
	       ("ResNet50Benchmark", "cirrus:compute-gpu"): 134.3, ("ResNet50Benchmark", "eidf:gpu-service"): 179.7,
	       ("CosmoFlowBenchmark", "archer2:compute"): 14.8, ("CosmoFlowBenchmark", "archer2:compute-gpu-torch"): 72.5,
	       ("CosmoFlowBenchmark", "cirrus:compute-gpu"): 78.1, ("CosmoFlowBenchmark", "eidf:gpu-service"): 58.1,
	       ("DeepCAMBenchmark", "archer2:compute"): 6.1, ("DeepCAMBenchmark", "archer2:compute-gpu-torch"): 14.5,
	       ("DeepCAMBenchmark", "cirrus:compute-gpu"): 15.4, ("DeepCAMBenchmark", "eidf:gpu-service"): 13.7}
	rows = json.load(open("s.json"))
	seen = {}
	for r in rows:
	    k = (r["benchmark"], r["system"])
	    seen[k] = r
	    assert abs(r["median"] / eff[k] - 1) < 0.06, (k, r["median"])
	    assert r["global_batch"] == 32
	assert set(seen) == set(eff)
	assert seen[("DeepCAMBenchmark", "eidf:gpu-service")]["n_failed"] == 1
	assert sum(r["n_failed"] for r in rows) == 1
	PYEOF
'

test_expect_success 'MLPerf: official scores for four systems, one aborted run, energy from power logs' '
	ab --db demo/accelbench.db ls runs -b resnet --json >m.json &&
	ab --db demo/accelbench.db sql "SELECT count(*) FROM metric m JOIN run r ON r.id = m.run_id JOIN system s ON s.id = r.system_id WHERE s.name = '"'"'DemoHPC/h100_n1_pytorch'"'"' AND m.name = '"'"'energy'"'"'" >ne &&
	test "$(tail -1 ne)" = 5 &&
	$PY - <<-\PYEOF
	import json
	runs = json.load(open("m.json"))
	assert len(runs) == 20
	bad = [r for r in runs if r["status"] != "ok"]
	assert len(bad) == 1 and bad[0]["system"] == "DemoHPC/a100_n1_pytorch", bad
	t = {}
	for r in runs:
	    if r["status"] == "ok":
	        t.setdefault(r["system"], []).append(r["metrics"]["time_to_train"]["value"])
	# time to train falls with throughput: GH200 x4 < GH200 < H100 < A100
	m = {s: sorted(v)[len(v) // 2] for s, v in t.items()}
	assert m["DemoHPC/gh200_n4_pytorch"] < m["DemoHPC/gh200_n1_pytorch"] < m["DemoHPC/h100_n1_pytorch"] < m["DemoHPC/a100_n1_pytorch"]
	PYEOF
'

test_expect_success 'the example prices price every demo system and feed cost' '
	$PY -c "import json; p = json.load(open(\"demo/prices.json\")); assert len(p[\"systems\"]) == 14" &&
	ab --db demo/accelbench.db cost -b resnet50 --prices demo/prices.json >c.txt &&
	grep -q "^GC200 " c.txt && grep -q "^A100 " c.txt
'

test_expect_success 'demo --suite writes one suite; an unknown suite lists the valid ones' '
	ACCELBENCH_DB= ab demo -o one --suite reframe >out &&
	test -d one/data/reframe && ! test -d one/data/caraml && ! test -d one/data/mlperf &&
	expect_code 2 ab demo -o two --suite hpl 2>err &&
	grep -q "unknown suite .hpl. (valid: caraml, mlperf, reframe)" err
'

test_done
