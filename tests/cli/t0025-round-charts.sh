#!/bin/sh
# t0025-round-charts: charts on a generated MLPerf-like round of real shape
# (tests/round/gen_round.py: 36 systems per benchmark, names like
# Lambda/lambda_1cc_n4_ngc24.04_nemo, 1 to 11,616 accelerators, 3-10 runs,
# real :::MLLOG logs through ingest).  SVGs carry every drawn string in
# their <desc>, which the checks read.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the round is generated and ingested: 30+ systems per benchmark' '
	$PY "$ROOT/tests/round/gen_round.py" round >/dev/null &&
	ab ingest round >out 2>err &&
	ab ls benchmarks --csv | csvsel name,systems suite=mlperf-training >b &&
	grep -q "^bert,3[0-9]$" b && grep -q "^llama2_70b_lora,3[0-9]$" b &&
	ab ls systems --csv | csvsel name >s && grep -qx "Lambda/lambda_1cc_n4_ngc24.04_nemo" s &&
	ab stats --suite mlperf-training -b bert --json >scores.json &&
	$PY -c "import json; d=json.load(open(\"scores.json\")); ds=[g[\"devices\"] for g in d]; assert min(ds)==1 and max(ds)==11616, (min(ds), max(ds))"
'

test_expect_success 'MLPerf bars are official scores, labelled, with n; incomplete run sets hatched and footnoted' '
	ab plot bar -b bert -o bar.svg 2>err &&
	desc bar.svg >d &&
	grep -q "official MLPerf training score, time to train (lower is better)" d &&
	grep -q "olympic mean of the valid runs" d &&
	grep -q "Hatched ([0-9]*): not a complete valid run set" d &&
	grep -q "hatched: incomplete or invalid run set" d &&
	$PY - <<-\PYEOF
	import json, re
	d = open("d").read()
	shown = [(float(m.group(1).replace(",", "")), int(m.group(2)))
	         for m in re.finditer(r"^([0-9.,]+)  n=([0-9]+)$", d, re.M)]
	assert len(shown) >= 30, len(shown)  # equal labels are recorded once
	for g in json.load(open("scores.json")):
	    if g["official_score"] is None:
	        continue
	    v = g["official_score"]
	    # the value label next to the bar is the official score and n the valid runs
	    assert any(abs(x - v) <= 0.006 * v and n == g["valid"] for x, n in shown), (g["system"], v)
	PYEOF
'

test_expect_success 'the subtitle counts systems, not run sets, of the selection' '
	n=$($PY -c "import json; print(len({g[\"system\"] for g in json.load(open(\"scores.json\"))}))") &&
	grep -q "^mlperf-training · $n systems, [0-9]* result files" d &&
	sys=$($PY -c "import json; print(json.load(open(\"scores.json\"))[0][\"system\"])") &&
	ab plot bar -b bert --system "$sys" -o one.svg 2>/dev/null && desc one.svg >d1 &&
	grep -q "^mlperf-training · 1 system, [0-9]* result files" d1
'

test_expect_success 'many systems: horizontal bars, every full name once, no ellipsis, the file grows' '
	ab plot bar -b bert -o bar.png &&
	$PY -c "import struct; b=open(\"bar.png\",\"rb\").read(24); w,h=struct.unpack(\">II\", b[16:24]); assert w==1600 and h>1000, (w,h)" &&
	ab ls systems --csv | csvsel name | sed 1d | sort >names &&
	for n in $(cat names); do grep -qxF "$n" d || { echo "missing $n"; exit 1; }; done &&
	! grep -q "…" d &&
	test "$(grep -cxF -f names d)" -eq "$(wc -l <names)"
'

test_expect_success 'a log axis when values span more than 30x; --linear and --log choose' '
	grep -q "log scale (values span [0-9]*×)" d &&
	ab plot bar -b bert --linear -o lin.svg && desc lin.svg >dl && ! grep -q "log scale" dl &&
	ab plot bar -b bert --top 5 --log -o top.svg && desc top.svg >dt && grep -q "log scale" dt &&
	expect_code 2 ab plot bar -b bert --log --linear -o x.svg
'

test_expect_success '--top N keeps the best N, says so' '
	grep -q "best 5 of 36 systems" dt &&
	test "$(grep -cxF -f names dt)" -eq 5 &&
	grep -qxF "NVIDIA/eos_n1452_ngc24.04_nemo" dt
'

test_expect_success 'every bar says which configuration it stands for' '
	grep -qx "1452n × 8" d && grep -qx "4n × 8" d && grep -qx "1n × 1" d
'

test_expect_success '--per-device says which normalisation is shown' '
	ab plot bar -b bert --per-device -o pd.svg && desc pd.svg >dp &&
	grep -q "normalised: × accelerators (accelerator-time)" dp &&
	grep -q "Accelerator-time to train" dp &&
	grep -q "not normalised (whole system)" d
'

test_expect_success 'plot scaling without a batch sweep refuses and says why' '
	expect_code 1 ab plot scaling -b bert -o s.png 2>err &&
	grep -qx "accelbench: nothing to plot: no system ran .bert. at two or more global batch sizes (a batch sweep) in the selection" err &&
	test ! -e s.png
'

test_done
