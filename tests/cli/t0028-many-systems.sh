#!/bin/sh
# t0028-many-systems: bargroup and heatmap on the generated 36-system round
# stay legible (every full name once, never ellipsized, every value and the
# configuration it stands for, the file grows), take their pairs from the
# comparison view (the same speedups as `compare --baseline`), a ratio means
# "x better" everywhere; configuration labels on pareto and scaling points;
# subtitles mention a CI only where one is drawn; power traces align clocks,
# never overprint their marks, and say when energy is missing.
. "$(dirname "$0")/lib.sh"

pngsize() {
	$PY -c 'import struct,sys; b=open(sys.argv[1],"rb").read(24); print(*struct.unpack(">II", b[16:24]))' "$1"
}
BASE=NVIDIA/eos_n1452_ngc24.04_nemo

test_expect_success 'the 36-system round' '
	$PY "$ROOT/tests/round/gen_round.py" round >/dev/null &&
	ab ingest round >/dev/null 2>&1 &&
	ab ls systems --csv | csvsel name | sed 1d | sort >names && test "$(wc -l <names)" -eq 36
'

test_expect_success 'heatmap: every full name once, no ellipsis, the file grows' '
	ab plot heatmap --baseline $BASE -o h.svg 2>/dev/null && desc h.svg >dh &&
	for n in $(cat names); do grep -qxF "$n" dh || { echo "missing $n"; exit 1; }; done &&
	test "$(grep -cxF -f names dh)" -eq 36 && ! grep -q "…" dh &&
	ab plot heatmap --baseline $BASE -o h.png 2>/dev/null && set -- $(pngsize h.png) &&
	test "$1" -eq 1600 && test "$2" -gt 1800
'

test_expect_success 'heatmap cells: the comparison view'"'"'s pairs as official-score ratios, each with its configuration' '
	ab compare --baseline $BASE --json >cmp.json 2>/dev/null &&
	ab stats --suite mlperf-training --json >scores.json 2>/dev/null &&
	$PY - <<-\PYEOF
	import json, math
	d = open("dh").read().split("\n")
	def ratio(r):
	    if 0 < r < 0.0995:
	        digits = 1 - math.floor(math.log10(r) + 1e-12)
	        return "%.*f×" % (digits, r)
	    return "%.*f×" % (0 if r >= 99.5 else 1 if r >= 9.95 else 2, r)
	score = {(g["system"], g["benchmark"]): g["official_score"] for g in json.load(open("scores.json"))}
	pairs = [p for p in json.load(open("cmp.json")) if p.get("kind") == "comparison"]
	assert len(pairs) > 60, len(pairs)
	for p in pairs:
	    # the pair is the one compare makes (same systems and benchmarks); MLPerf training cells
	    # show the ratio of the official scores: time of the baseline / time of the system
	    want = score[(p["baseline"], p["benchmark"])] / score[(p["system"], p["benchmark"])]
	    assert ratio(want) in d, (p["system"], p["benchmark"], ratio(want))
	# configurations in the cells, and the baseline row at 1
	assert "1452n × 8, b46464" in d and "1.00×" in d and "64n × 8, b2048" in d
	PYEOF
	grep -q "configurations differ: cells say which" dh &&
	grep -q "ratio of official MLPerf scores" dh &&
	grep -q "× better than the baseline (higher is better)" dh &&
	grep -q "†: a run set that is not complete or valid" dh
'

test_expect_success 'heatmap colours reach the data on each side of 1: ticks down to 10^-5' '
	grep -qx "10⁻⁵×" dh && grep -qx "1×" dh
'

test_expect_success 'bargroup across benchmarks: one row per system, full names, values, configurations, log axis' '
	ab plot bargroup --baseline $BASE -o g.svg 2>/dev/null && desc g.svg >dg &&
	for n in $(grep -vxF $BASE names); do grep -qxF "$n" dg || { echo "missing $n"; exit 1; }; done &&
	! grep -q "…" dg &&
	grep -q "log scale (ratios span [0-9]*×)" dg &&
	grep -q "Speedup over $BASE (×), log scale" dg &&
	grep -q "ratio of official MLPerf scores" dg && grep -qx "512n × 8, b16384" dg &&
	grep -qx "$BASE = 1" dg &&
	ab plot bargroup --baseline $BASE -o g.png 2>/dev/null && set -- $(pngsize g.png) && test "$2" -gt 1800
'

test_expect_success 'bargroup by batch with 36 systems: horizontal, log when values span > 30x' '
	ab plot bargroup -b bert -o gb.svg 2>/dev/null && desc gb.svg >dgb &&
	test "$(grep -cxF -f names dgb)" -eq 36 && ! grep -q "…" dgb &&
	grep -q "bert: Time to train by global batch (lower is better)" dgb &&
	grep -q "log scale (values span [0-9]*×)" dgb
'

test_expect_success 'a too small area refuses with a message that says what to pass' '
	expect_code 2 ab plot heatmap --baseline $BASE --height 600 -o small.png 2>err &&
	grep -q "heatmap: 36 systems x 3 benchmarks do not fit in .*give it more room or fewer systems" err &&
	expect_code 2 ab plot bargroup --baseline $BASE --height 600 -o small.png 2>err &&
	grep -q "grouped bar chart: 35 systems x 3 groups do not fit in .*give it more room or fewer systems" err
'

test_expect_success 'demo: the heatmap and bargroup pair like compare (A100 baseline)' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	ab --db demo/accelbench.db compare --suite caraml --baseline A100 --json >dc.json &&
	ab --db demo/accelbench.db plot heatmap --suite caraml --baseline A100 -o dh.svg &&
	ab --db demo/accelbench.db plot bargroup --suite caraml --baseline A100 -o db.svg &&
	desc dh.svg >ddh && desc db.svg >ddb &&
	$PY - <<-\PYEOF
	import json
	dh = open("ddh").read().split("\n"); db = open("ddb").read().split("\n")
	n = 0
	for p in json.load(open("dc.json")):
	    if p.get("kind") != "comparison":
	        continue
	    r = "%.2f×" % p["speedup"]
	    assert r in dh, (p["system"], r)
	    n += 1
	assert n >= 5, n
	PYEOF
	grep -q "95 % bootstrap CI" ddb
'

test_expect_success 'pareto and scaling points say which configuration they stand for' '
	ab --db demo/accelbench.db plot pareto --suite caraml -b llm-gpt-800M -o p.svg &&
	desc p.svg >dp && grep -q "^JEDI (1n × 4, b512, fp16)$" dp &&
	grep -q "(higher is better on both)" dp &&
	ab --db demo/accelbench.db plot scaling --suite caraml -b llm-gpt-800M -o s.svg &&
	desc s.svg >ds && grep -qx "MI250 (1 node, 8 devices, fp16)" ds
'

test_expect_success 'CI wording: a subtitle names a CI only where one is drawn' '
	mkdir -p one && cat >one/llm_result_X.csv <<-\EOF &&
	JobID,System,Version,Queue,JobTime,Runtime(min),Model,ModelSize,Dataset,Nodes,Devices,GlobalBatchSize,PipelineParallel,TensorParallel,DataParallel,Iterations,Time/iteration(s),Tokens/second,Avg_TFLOPs/GPU,Energy/Device(Wh)
	1,A100,2024.01,q,01:00:00,60,GPT,800M,OSCAR,1,4,16,1,1,4,100,1.0,1000,1,[1.0]
	2,A100,2024.01,q,01:00:00,60,GPT,800M,OSCAR,1,4,32,1,1,4,100,1.0,1500,1,[1.0]
	3,H100,2024.01,q,01:00:00,60,GPT,800M,OSCAR,1,4,16,1,1,4,100,1.0,2000,1,[1.0]
	4,H100,2024.01,q,01:00:00,60,GPT,800M,OSCAR,1,4,32,1,1,4,100,1.0,2600,1,[1.0]
	EOF
	ACCELBENCH_DB=one.db ab ingest one >/dev/null &&
	for k in bar scaling bargroup; do
		ACCELBENCH_DB=one.db ab plot $k -b llm-gpt-800M -o one-$k.svg && desc one-$k.svg >d1 &&
		sed -n 3p d1 >sub &&
		grep -q "no CI (fewer than 6 runs)" sub && ! grep -q "95 %" sub || { cat sub; exit 1; }
	done &&
	ACCELBENCH_DB=one.db ab plot bargroup --baseline A100 -o one-g.svg && desc one-g.svg >d1 &&
	sed -n 3p d1 | grep -q "no CI (fewer than 6 runs)"
'

test_expect_success 'power: the demo trace names the run energy' '
	ab --db demo/accelbench.db plot power -o pw.svg && desc pw.svg >dpw &&
	grep -q "energy of the run: [0-9,.]* Wh" dpw &&
	grep -qx "run start" dpw && grep -qx "run stop" dpw
'

test_expect_samples 'power (shared samples): a switch log 5 h off is aligned and said so; missing energy said' '
	ACCELBENCH_DB=s.db ab ingest "$SAMPLES/mlperf" >/dev/null 2>&1 &&
	id=$(ACCELBENCH_DB=s.db ab ls runs --csv | csvsel id,benchmark,system benchmark=llama2_70b_lora | grep Dell | sed -n 1p | cut -d, -f1) &&
	ACCELBENCH_DB=s.db ab plot power --run "$id" -o sw.svg && desc sw.svg >dsw &&
	grep -qx "sw_0 (clock shifted +5 h)" dsw &&
	grep -q "sw_0: clock 5 h behind the run.s, shifted by +5 h." dsw &&
	grep -q "energy of the run: 4,484 Wh" dsw &&
	grep -q "Time since run start (s)" dsw &&
	id=$(ACCELBENCH_DB=s.db ab ls runs --csv | csvsel id,benchmark benchmark=resnet50/Offline | sed -n 2p | cut -d, -f1) &&
	ACCELBENCH_DB=s.db ab plot power -b resnet50/Offline -o in.svg && desc in.svg >din &&
	grep -q "energy of the run: missing (not measured)" din &&
	! grep -q "Time since run start (min)" din
'

test_done
