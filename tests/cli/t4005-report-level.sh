#!/bin/sh
# t4005-report-level: the spec's confidence level and normalisation reach
# everything the report prints, and the CLI reproduces them: the report's
# 90 % CIs equal `stats --level 0.9` and `compare --level 0.9`, the bar
# chart is per node when the spec normalises per node and draws 90 %
# whiskers (as `plot --per-node --level 0.9` does), --level outside (0, 1)
# is refused; MLPerf training power has its measurement boundary; generated
# sentences agree in number; the device scaling chart appears where the
# chart view finds a sweep.
. "$(dirname "$0")/lib.sh"

test_expect_success 'demo database, a spec with level 0.9 and normalise node/device' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	cat >spec.json <<-\EOF &&
	{ "confidence_level": 0.9, "baseline": "MI250",
	  "benchmarks": [ { "name": "llm-gpt-800M", "normalise": "device" },
	                  { "name": "resnet50", "normalise": "node" },
	                  { "name": "DeepCAMBenchmark" } ] }
	EOF
	ab --db demo/accelbench.db report --spec spec.json -o n.pdf 2>err && test ! -s err &&
	pdftotext -layout n.pdf n.txt && tr -s " \n" "  " <n.txt >flat.txt
'

test_expect_success 'the 90 % CIs of the statistics tables equal stats --level 0.9' '
	ab --db demo/accelbench.db stats -b resnet50 --per node --level 0.9 --json >s90.json &&
	ab --db demo/accelbench.db stats -b resnet50 --per node --json >s95.json &&
	ab --db demo/accelbench.db stats -b llm-gpt-800M --per device --level 0.9 --json >d90.json &&
	ab --db demo/accelbench.db stats -b DeepCAMBenchmark --level 0.9 --json >e90.json &&
	ab --db demo/accelbench.db stats -b DeepCAMBenchmark --json >e95.json &&
	$PY - <<-\PYEOF
	import json
	from abfmt import fmt_ci
	text = open("n.txt").read()
	def load(f): return json.load(open(f))
	s90 = load("s90.json") + load("e90.json") + load("d90.json")
	s95 = load("s95.json") + load("e95.json") + [None] * 1000
	checked = differ = 0
	for r90, r95 in zip(s90, s95):
	    assert r90["ci_level"] == 0.9, r90
	    if r90["ci_low"] is None:
	        continue
	    ci = fmt_ci(r90["ci_low"], r90["ci_high"])
	    # the report keeps a CI on one line with a no-break space
	    assert ci in text or ci.replace(", ", ",\u00a0") in text, (r90["system"], ci)
	    checked += 1
	    # n = 5: a 90 % CI exists (93.75 % coverage), a 95 % one does not
	    differ += r95 is not None and r95["ci_low"] is None
	assert checked >= 20 and differ >= 1, (checked, differ)
	PYEOF
'

test_expect_success 'the 90 % ratio CIs of the comparison table equal compare --level 0.9' '
	ab --db demo/accelbench.db compare -b resnet50 --baseline MI250 --best --per node \
		--level 0.9 --json >c90.json &&
	ab --db demo/accelbench.db compare -b resnet50 --baseline MI250 --best --per node \
		--level 0.9 >c90.txt &&
	grep -q "90% CI" c90.txt && grep -q "^90% bootstrap percentile CI" c90.txt &&
	$PY - <<-\PYEOF
	import json
	flat = open("flat.txt").read().replace("\u2060", "")
	rows = [c for c in json.load(open("c90.json")) if c.get("kind") == "comparison"]
	assert rows
	def r(v):  # fmt_ratio_ci
	    if v < 0.1: return "%.2g" % v
	    return "%.*f" % (1 if v >= 10 else 2, v)
	for c in rows:
	    assert c["ci_level"] == 0.9, c
	    ci = "%s\u2013%s" % (r(c["speedup_ci_low"]), r(c["speedup_ci_high"]))
	    assert ci in flat, (c["system"], ci)
	PYEOF
'

test_expect_success 'the bar chart: per node and 90 % whiskers, as plot draws it' '
	grep -q "median, 90 % CI .* normalised: per node" flat.txt &&
	grep -q "median, 90 % CI .* normalised: per accelerator" flat.txt &&
	grep -q "Throughput per node" n.txt &&
	! grep -q "normalises per accelerator only" flat.txt &&
	grep -q "90 % confidence interval from order statistics" flat.txt &&
	ab --db demo/accelbench.db plot bar -b resnet50 --per-node --level 0.9 -o b.svg >/dev/null &&
	grep -q "90 % CI" b.svg && grep -q "normalised: per node" b.svg &&
	ab --db demo/accelbench.db plot bar -b resnet50 -o b95.svg >/dev/null &&
	grep -q "95 % CI" b95.svg && grep -q "not normalised" b95.svg
'

test_expect_success 'methodology: comparisons at the level, bootstrap seed and resamples' '
	grep -q "Comparisons Each system.s best configuration .* with a 90 % percentile bootstrap CI (exact, .* 40 runs or more; else 10000 resamples with seed 20240917)" flat.txt &&
	grep -q "Whiskers: 90 % confidence interval of the median" flat.txt
'

test_expect_success 'a level outside (0, 1) is refused, with the reason' '
	for cmd in "stats -b resnet50" "compare -b resnet50 --baseline MI250" \
		   "plot bar -b resnet50 -o x.svg"; do
		for l in 0 1 1.5 -0.2 abc; do
			rc=0; ab --db demo/accelbench.db $cmd --level $l >out 2>err || rc=$?
			test "$rc" = 2 && grep -q "level" err && test ! -s out ||
				{ echo "$cmd --level $l: $rc"; cat err; exit 1; }
		done
	done &&
	rc=0; ab --db demo/accelbench.db plot bar -b resnet50 --per-node --per-device -o x.svg \
		2>err || rc=$?
	test "$rc" = 2 && grep -q "exclude each other" err && test ! -e x.svg
'

test_expect_success 'sentences agree in number' '
	SOURCE_DATE_EPOCH=1767225600 ab --db demo/accelbench.db report -o d.pdf 2>/dev/null &&
	pdftotext -layout d.pdf d.txt && tr -s " \n" "  " <d.txt >dflat.txt &&
	! grep -oE "[ (]1 (runs|configurations|systems|comparisons|run sets|result files|source files)[ .,;)]" dflat.txt &&
	! grep -oE "[ (]1 of 1 " dflat.txt &&
	grep -q "1 run failed, aborted or was invalid" dflat.txt &&
	grep -q "1 run is flagged as an outlier" dflat.txt &&
	grep -q "Whiskers: 95 % confidence interval of the median" dflat.txt &&
	! grep -q "no front to draw" dflat.txt
'

test_expect_success 'threats: systems whose every result comes from one file' '
	ab --db demo/accelbench.db ls runs --json >runs.json &&
	$PY - <<-\PYEOF
	import json
	flat = open("dflat.txt").read()
	src = {}
	for r in json.load(open("runs.json")):
	    src.setdefault(r["system"], set()).add(r["source"])
	one = sorted(y for y, s in src.items() if len(s) == 1)
	assert one, src
	lead = "%d of %d systems %s every result from one file (" % (
	    len(one), len(src), "has" if len(one) == 1 else "have")
	assert lead in flat, lead
	assert one[0] in flat[flat.index(lead):][:200], one
	PYEOF
'

test_expect_samples 'samples: MLPerf training power has its boundary; device scaling' '
	ab --db s.db ingest "$SAMPLES" >/dev/null 2>&1;
	SOURCE_DATE_EPOCH=1767225600 ab --db s.db report -o s.pdf 2>err && test ! -s err &&
	pdftotext -layout s.pdf s.txt && tr -s " \n" "  " <s.txt >sflat.txt &&
	! grep -q "llama2_70b_lora: no energy was measured" sflat.txt &&
	grep -Eq "^llama2_70b_lora +mlperf-training .* node\+switch *$" s.txt &&
	grep -q "mlperf-training measured at the node+switch boundary" sflat.txt &&
	grep -q "No benchmark has energy measurements of two or more systems" sflat.txt &&
	ab --db s.db stats -b llama2_70b_lora -m energy --json >e.json &&
	$PY - <<-\PYEOF
	import json
	flat = open("sflat.txt").read()
	rows = [r for r in json.load(open("e.json")) if r["median"] is not None]
	assert rows and all(r["boundary"] == "node+switch" for r in rows), rows
	for r in rows:
	    assert "{:,.0f}".format(r["median"]) in flat, r["median"]
	PYEOF
	n=0; for b in $(ab --db s.db ls benchmarks --json | $PY -c "import json,sys; print(\" \".join(x[\"name\"] for x in json.load(sys.stdin) if \"/\" not in x[\"name\"]))"); do
		if ab --db s.db plot devices -b "$b" -o dev.svg >/dev/null 2>&1; then n=$((n + 1)); fi
	done &&
	test "$(grep -c "^Device scaling$" s.txt)" = "$n" && test "$n" -ge 1
'

test_done
