#!/bin/sh
# t0026-times-better: one meaning of "x" (times better than the baseline,
# baseline / value where lower is better) in compare's table and the bar
# chart's ratio labels; a verdict never says "indistinguishable" next to a
# CI that excludes 1 without saying why.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the demo database' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null
'

test_expect_success 'compare: "x better" is the oriented speedup, for a lower-is-better metric too' '
	ab --db demo/accelbench.db compare --suite caraml -b resnet50 --baseline A100 -m energy >t &&
	ab --db demo/accelbench.db compare --suite caraml -b resnet50 --baseline A100 -m energy --json >j &&
	grep -q "x better = times better than the baseline (median / baseline median; baseline / median where lower is better)" t &&
	$PY - <<-\PYEOF
	import json
	rows = [l.split() for l in open("t") if l.startswith("resnet50 ")]
	js = json.load(open("j"))
	assert len(rows) == len(js) > 0
	head = open("t").read().splitlines()[1]
	for r, c in zip(rows, js):
	    assert c["better"] == "lower"
	    # columns: benchmark system config... n/n_base median baseline xbetter [lo, hi] p p verdict
	    k = next(i for i, f in enumerate(r) if "/" in f and f.replace("/", "").isdigit())
	    xb = float(r[k + 3])
	    assert abs(xb - c["speedup"]) < 6e-4, (xb, c["speedup"])
	    assert abs(c["speedup"] - c["median_baseline"] / c["median"]) < 1e-9
	    if c["verdict"] == "faster":
	        assert xb > 1
	PYEOF
'

test_expect_success 'bar chart ratio labels: x better, baseline / value for a time-like metric' '
	ab --db demo/accelbench.db plot bar --suite caraml -b resnet50 -m energy --baseline A100 -o e.svg &&
	ab --db demo/accelbench.db stats --suite caraml -b resnet50 -m energy --json >s.json &&
	$PY - <<-\PYEOF
	import re, html, json
	t = open("e.svg").read()
	d = html.unescape(re.search(r"<desc>(.*?)</desc>", t, re.S).group(1))
	ratios = [float(x) for x in re.findall(r"^([0-9.]+)×$", d, re.M)]
	assert ratios, d
	# the best (lowest energy) system is better than A100 by baseline / value > 1
	assert max(ratios) > 1, ratios
	PYEOF
'

test_expect_success 'indistinguishable next to a CI excluding 1 is marked and explained (Holm)' '
	H="JobID,System,Version,Queue,JobTime,Runtime(min),Model,ModelSize,Dataset,Nodes,Devices,GlobalBatchSize,PipelineParallel,TensorParallel,DataParallel,Iterations,Time/iteration(s),Tokens/second,Avg_TFLOPs/GPU,Energy/Device(Wh)" &&
	{ echo "$H"; for i in 1 2 3; do
		echo "1$i,BASE,2024.01,q,00:15:00,30,GPT,800M,OSCAR,1,4,32,1,1,4,2000,0.60,10$i.5,222.00,[150.5]"
		echo "2$i,XSYS,2024.01,q,00:15:00,30,GPT,800M,OSCAR,1,4,32,1,1,4,2000,0.60,30$i.5,222.00,[150.5]"
	done; } >llm.csv &&
	ab --db e.db ingest llm.csv >/dev/null &&
	ab --db e.db compare -b llm-gpt-800M --baseline BASE >out &&
	grep -q "indistinguishable\*$" out &&
	grep -q "^\* the CI excludes 1, but the Holm-adjusted p is not below 0.05: too few runs for the rank test" out
'

test_expect_success 'terminal tables fit 120 columns; --wide shows every column' '
	cp "$FIXTURES/cost/prices.json" prices.json &&
	for c in "stats -b llm-gpt-800M" "compare --baseline A100" "compare -b resnet50 --baseline A100" \
		"cost -b llm-gpt-800M --prices prices.json" "scaling -b llm-gpt-800M" "pareto -b llm-gpt-800M"; do
		ab --db demo/accelbench.db $c --suite caraml >o || exit 1
		awk -v c="$c" "length(\$0) > 120 { print c \": \" length(\$0) \": \" \$0; bad = 1 } END { exit bad }" o || exit 1
	done &&
	ab --db demo/accelbench.db compare --suite caraml --baseline A100 >n &&
	grep -q "^(not shown to fit 120 columns: p, n/n_base, baseline; --wide shows every column)$" n &&
	ab --db demo/accelbench.db compare --suite caraml --baseline A100 --wide >w &&
	head -2 w | tail -1 | grep -q "n/n_base  *median  *baseline  *x better  *95% CI  *p  *p (Holm)  *verdict" &&
	ab --db demo/accelbench.db cost -b llm-gpt-800M --suite caraml --prices prices.json --wide >cw &&
	grep -q "\[0.00596, 0.00825\]" cw
'

test_done
