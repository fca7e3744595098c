#!/bin/sh
# t0002-demo-stats: the simulated campaign end to end (demo -> ingest ->
# stats/compare/scaling/pareto), with the statistics cross-checked by an
# independent computation in Python from `ls runs --json`.
. "$(dirname "$0")/lib.sh"

test_expect_success 'demo writes, ingests and lists a campaign' '
	ACCELBENCH_DB= ab demo -o demo >out &&
	grep -q "^wrote [0-9]* files of a simulated campaign (CARAML, MLPerf training, ReFrame; seed 20240913; simulated example data)" out &&
	grep -q "^wrote example prices to demo/prices.json" out &&
	grep -q "^ingested into demo/accelbench.db: 48 files (0 already there), 446 runs" out &&
	grep -q "^JEDI .* NVIDIA .* GH200 .* 4 .* 66$" out &&
	grep -q "^caraml .* llm-gpt-800M .* throughput .* tokens/s .* higher .* 5 .* 240$" out
'

test_expect_success 'the demo is deterministic: same seed, same bytes' '
	ACCELBENCH_DB= ab demo -o demo2 >/dev/null &&
	(cd demo/data && find . -type f | sort | xargs cat | sha256sum) >a &&
	(cd demo2/data && find . -type f | sort | xargs cat | sha256sum) >b &&
	test_cmp a b &&
	ACCELBENCH_DB= ab demo -o demo3 --seed 7 >/dev/null &&
	(cd demo3/data && find . -type f | sort | xargs cat | sha256sum) >c &&
	! cmp -s a c
'

test_expect_success 'running demo again ingests nothing new' '
	ACCELBENCH_DB= ab demo -o demo >out &&
	grep -q "^ingested into demo/accelbench.db: 0 files (48 already there), 0 runs" out
'

test_expect_success 'stats --json agrees with medians computed independently' '
	ab --db demo/accelbench.db stats -b llm-gpt-800M --json >stats.json &&
	ab --db demo/accelbench.db ls runs -b llm-gpt-800M --json >runs.json &&
	$PY - <<-\PYEOF
	import json, statistics, math
	stats = json.load(open("stats.json")); runs = json.load(open("runs.json"))
	groups = {}
	for r in runs:
	    k = (r["system"], r["nodes"], r["devices"], r["global_batch"], r["precision"])
	    g = groups.setdefault(k, {"ok": [], "failed": 0})
	    if r["status"] == "ok":
	        g["ok"].append(r["metrics"]["throughput"]["value"])
	    else:
	        g["failed"] += 1
	assert len(stats) == len(groups), (len(stats), len(groups))
	for s in stats:
	    g = groups[(s["system"], s["nodes"], s["devices"], s["global_batch"], s["precision"])]
	    assert s["n"] == len(g["ok"]) and s["n_failed"] == g["failed"]
	    if g["ok"]:
	        xs = sorted(g["ok"])
	        assert math.isclose(s["median"], statistics.median(xs), rel_tol=1e-12)
	        assert math.isclose(s["sd"], statistics.stdev(xs), rel_tol=1e-9)
	        # n = 6: the 95 % CI of the median spans the extreme order statistics
	        assert s["ci_low"] == xs[0] and s["ci_high"] == xs[-1], s
	    else:
	        assert s["median"] is None and s["ci_note"] == "n too small"
	a100 = [s for s in stats if s["system"] == "A100" and s["global_batch"] == 512][0]
	assert a100["n"] == 0 and a100["n_failed"] == 6
	PYEOF
'

test_expect_success 'stats text has units and CIs, and says when all runs failed' '
	ab --db demo/accelbench.db stats -b llm-gpt-800M --system A100 >out &&
	head -1 out | grep -q "95% CI of median" &&
	grep -q "^llm-gpt-800M  A100 .* 6 .* 0 .* tokens/s  \[[0-9,]*, [0-9,]*\]" out &&
	grep -q " 512 .* n/a .*all runs failed" out
'

test_expect_success 'compare: ratios equal the ratio of medians, Holm never lowers p' '
	ab --db demo/accelbench.db compare -b llm-gpt-800M --baseline A100 --json >cmp.json &&
	$PY - <<-\PYEOF
	import json
	cmp = json.load(open("cmp.json")); stats = json.load(open("stats.json"))
	med = {(s["system"], s["global_batch"]): s["median"] for s in stats}
	# H100, WAIH100, JEDI x the 7 batches A100 completed; MI250 has 8 devices
	assert len(cmp) == 3 * 7, len(cmp)
	for c in cmp:
	    assert c["baseline"] == "A100" and c["comparable"] is True
	    r = med[(c["system"], c["global_batch"])] / med[("A100", c["global_batch"])]
	    assert abs(c["ratio"] - r) < 1e-12 * r
	    assert c["ratio_ci_low"] <= c["ratio"] <= c["ratio_ci_high"]
	    assert c["p_adjusted"] >= c["p_value"]
	    assert c["seed"] == 20240917 and c["resamples"] == 10000
	    assert c["verdict"] in ("faster", "slower", "indistinguishable")
	    if c["ratio_ci_low"] > 1 and c["p_adjusted"] < 0.05:
	        assert c["verdict"] == "faster"
	jedi = [c for c in cmp if c["system"] == "JEDI" and c["global_batch"] == 256][0]
	assert jedi["verdict"] == "faster" and jedi["ratio"] > 2
	PYEOF
'

test_expect_success 'compare is reproducible and the seed changes only the CI' '
	ab --db demo/accelbench.db compare -b llm-gpt-800M --baseline A100 --json >again.json &&
	test_cmp cmp.json again.json &&
	ab --db demo/accelbench.db compare -b llm-gpt-800M --baseline A100 --json --seed 1 >s1.json &&
	! cmp -s cmp.json s1.json
'

test_expect_success 'compare errors: missing baseline, no matching shape' '
	expect_code 2 ab --db demo/accelbench.db compare -b llm-gpt-800M 2>err &&
	expect_code 1 ab --db demo/accelbench.db compare -b llm-gpt-800M --baseline TPU 2>err &&
	test "$(cat err)" = "accelbench: compare: no baseline system '"'"'TPU'"'"' in llm-gpt-800M; valid: A100, H100, JEDI, MI250, WAIH100"
'

test_expect_success 'compare without -b: best against best per benchmark, and a composite geometric mean' '
	ab --db demo/accelbench.db compare --suite caraml --baseline A100 --json >all.json &&
	$PY - <<-\PYEOF
	import json, math
	rows = json.load(open("all.json"))
	comps = [r for r in rows if r["kind"] == "comparison"]
	geo = {r["system"]: r for r in rows if r["kind"] == "composite"}
	# GC200 ran ResNet50 only, so the composite covers resnet50 alone
	assert len(comps) == 9 and sorted(geo) == ["GC200", "H100", "JEDI", "MI250", "WAIH100"]
	for s, g in geo.items():
	    assert g["benchmarks"] == ["resnet50"] and g["k"] == 1
	    sp = [c["speedup"] for c in comps if c["system"] == s and c["benchmark"] == "resnet50"]
	    assert math.isclose(g["geomean_speedup"], sp[0], rel_tol=1e-12)
	    assert g["ci_low"] <= g["geomean_speedup"] <= g["ci_high"]
	assert geo["JEDI"]["verdict"] == "faster" and geo["GC200"]["verdict"] == "slower"
	mi = [c for c in comps if c["system"] == "MI250"]
	assert all(c["comparable"] is False for c in mi)   # 8 GCDs vs 4 GPUs: flagged
	PYEOF
'

test_expect_success 'scaling by batch: saturation fit, knee, failed batch censored' '
	ab --db demo/accelbench.db scaling -b llm-gpt-800M --json >sc.json &&
	$PY - <<-\PYEOF
	import json
	sc = {s["system"]: s for s in json.load(open("sc.json"))}
	a = sc["A100"]
	# the simulated A100 has Xmax = 88000 tokens/s, b1/2 = 3 (runners/demo.c)
	assert a["fit_status"] == "ok"
	assert a["xmax_ci_low"] < 88000 * 1.01 and a["xmax_ci_high"] > 88000 * 0.99, a
	assert 2.4 < a["bhalf"] < 3.6, a
	assert a["min_failed_batch"] == 512
	assert [p["censored"] for p in a["points"]][-1] is True
	kb = a["knee_batch"]
	meds = {p["global_batch"]: p["median"] for p in a["points"] if not p["censored"]}
	assert meds[kb] >= 0.9 * a["xmax"]
	assert all(meds[b] < 0.9 * a["xmax"] for b in meds if b < kb)
	PYEOF
'

test_expect_success 'scaling by devices: speedup, efficiency and Amdahl near the simulated serial fraction' '
	ab --db demo/accelbench.db scaling -b resnet50 --by devices --json >dev.json &&
	$PY - <<-\PYEOF
	import json
	d = {s["system"]: s for s in json.load(open("dev.json"))}
	j = d["JEDI"]   # simulated serial fraction 0.015
	assert j["points"][0]["count"] == 1 and j["points"][0]["speedup"] == 1
	assert j["fit_status"] == "ok" and 0.005 < j["serial_fraction"] < 0.03, j
	for p in j["points"]:
	    assert abs(p["efficiency"] - p["speedup"] / p["count"]) < 1e-12
	assert [p["count"] for p in d["MI250"]["points"]] == [1, 2, 4, 8]
	PYEOF
'

test_expect_success 'pareto marks a front of throughput vs energy efficiency' '
	ab --db demo/accelbench.db pareto -b llm-gpt-800M --json >p.json &&
	$PY - <<-\PYEOF
	import json
	pts = json.load(open("p.json"))
	front = [p for p in pts if p["state"] == "front"]
	assert front and len(front) < len(pts)
	for p in pts:
	    dominated = any(q["x"] >= p["x"] and q["y"] >= p["y"] and (q["x"] > p["x"] or q["y"] > p["y"]) for q in pts)
	    assert dominated == (p["state"] != "front"), p
	assert pts[0]["y_unit"] == "tokens/Wh"
	PYEOF
'

test_expect_success 'a progress line on a terminal only' '
	script -qec "$AB --db tty.db ingest demo/data >/dev/null" /dev/null >tty.out </dev/null &&
	grep -q "files, [0-9.]*/[0-9.]* MB, [0-9]* runs" tty.out &&
	ab --db notty.db ingest demo/data >/dev/null 2>err &&
	! grep -q "MB," err
'

test_expect_success 'two ingests into one database at the same time both succeed' '
	ab --db conc.db ingest demo/data/caraml/llm_training >o1 2>e1 &
	ab --db conc.db ingest demo/data/caraml/resnet50 >o2 2>e2 &
	wait &&
	grep -q " 0 rejected" o1 && grep -q " 0 rejected" o2 &&
	test "$(ab --db conc.db sql "SELECT count(*) FROM run" | tail -1)" = 354
'

test_done
