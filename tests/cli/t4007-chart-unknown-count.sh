#!/bin/sh
# t4007-chart-unknown-count: a bar chart normalised per node (per
# accelerator) draws the systems whose count is known and names, in its
# subtitle, those left out and why; `plot --per-node/--per-device` and the
# report's "normalise" show the same (views/ decides it).  Only when no
# selected system has the count is there no chart, with the reason.  The
# value axis of a lower-is-better metric reads "… × nodes" (the time is
# multiplied), of a throughput "… per node".  Each bar is the system's best
# configuration by the normalised median, as `compare --best --per` picks;
# a metric already per unit (per device, an efficiency) is not divided again.
. "$(dirname "$0")/lib.sh"

test_expect_success 'set-up: the demo, and a copy where eidf:gpu-service has no node count' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	cp -r demo/data data &&
	log=data/reframe/perflogs/eidf/gpu-service/DeepCAMBenchmark.log &&
	awk -F"|" -v OFS="|" "NR > 1 { \$10 = \"\" } { print }" demo/$log >$log &&
	ab --db p.db ingest data >/dev/null 2>&1 &&
	ab --db p.db sql --csv "SELECT y.name, count(*) FROM run r JOIN system y ON y.id = r.system_id JOIN benchmark b ON b.id = r.benchmark_id WHERE b.name = '"'DeepCAMBenchmark'"' AND r.status = '"'ok'"' AND r.nodes IS NULL GROUP BY 1" >uncounted &&
	test "$(sed 1d uncounted)" = "eidf:gpu-service,5"
'

test_expect_success 'plot --per-node: the counted systems, the other named in the subtitle' '
	ab --db p.db plot bar -b DeepCAMBenchmark --per-node -o n.svg >out 2>err &&
	test ! -s err && desc n.svg >d &&
	grep -q "normalised: per node · not shown, node count not known: eidf:gpu-service$" d &&
	for y in archer2:compute archer2:compute-gpu-torch cirrus:compute-gpu; do
		grep -qx "$y" d || { echo "no bar for $y"; exit 1; }
	done &&
	! grep -qx "eidf:gpu-service" d &&
	grep -qx "Effective throughput per node (inputs/s)" d
'

test_expect_success 'plot --per-device on the demo: the CPU partition is left out, said so' '
	ab --db demo/accelbench.db plot bar -b DeepCAMBenchmark --per-device -o dv.svg 2>err &&
	test ! -s err && desc dv.svg >dd &&
	grep -q "normalised: per accelerator · not shown, accelerator count not known: archer2:compute$" dd &&
	! grep -qx "archer2:compute" dd && grep -qx "eidf:gpu-service" dd &&
	grep -qx "Effective throughput per accelerator (inputs/s)" dd &&
	ab --db demo/accelbench.db plot bar -b DeepCAMBenchmark -o all.svg && desc all.svg >da &&
	grep -qx "archer2:compute" da && ! grep -q "not shown" da
'

test_expect_success 'per accelerator, each bar is the configuration compare --best --per device picks' '
	ab --db demo/accelbench.db plot bar -b resnet50 --per-device -o r.svg && desc r.svg >dr &&
	ab --db demo/accelbench.db compare -b resnet50 --baseline A100 --best --per device \
		--json >c.json &&
	$PY - <<-\PYEOF
	import json
	from abfmt import fmt_value
	shown = open("dr").read().split("\n")
	rows = [c for c in json.load(open("c.json")) if c.get("kind") == "comparison"]
	assert len(rows) >= 4, rows
	for c in rows:
	    # the 1-device runs: the most images/s per accelerator, not the most images/s
	    assert c["devices"] == 1, c
	    # labelled as the tables print it (views_fmt_value: 585.1, not 585)
	    assert fmt_value(c["median"]) in shown, (c["system"], c["median"])
	# every bar (configuration label "n = 6 · 1n × 1, ...") is a 1-device one
	labels = [l for l in shown if l.startswith("n = ")]
	assert labels and all(" · 1n × 1, " in l for l in labels), labels
	PYEOF
'

test_expect_success 'no selected system with the count: no chart, exit 1, the reason' '
	expect_code 1 ab --db p.db plot bar -b DeepCAMBenchmark --per-node \
		--system eidf:gpu-service -o x.svg >out 2>err &&
	echo "accelbench: nothing to plot per node: the node count of eidf:gpu-service is not known" >expect &&
	test_cmp expect err && test ! -e x.svg
'

test_expect_success 'the report normalising per node draws the same chart with the same note' '
	cat >spec.json <<-\EOF &&
	{ "benchmarks": [ { "name": "DeepCAMBenchmark", "normalise": "node" } ] }
	EOF
	ab --db p.db report --spec spec.json -o r.pdf 2>err && test ! -s err &&
	pdftotext -layout r.pdf r.txt && tr -s " \n" "  " <r.txt >flat.txt &&
	! grep -q "No chart" flat.txt &&
	grep -q "normalised: per node · not shown, node count not known: eidf:gpu-service" flat.txt &&
	grep -q "Effective throughput per node (inputs/s)" flat.txt &&
	grep -q "configuration without a known node count is left out" flat.txt
'

test_expect_success 'a lower-is-better value per node/accelerator: "× nodes", not "per node"' '
	for per in node device; do
		ab --db demo/accelbench.db plot bar -b llm-gpt-800M -m time_per_iteration \
			--per-$per -o t$per.svg && desc t$per.svg >dt$per || exit 1
	done &&
	grep -qx "Time per iteration × nodes (s)" dtnode &&
	grep -qx "Time per iteration × accelerators (s)" dtdevice &&
	grep -q "normalised: × accelerators (accelerator-time)" dtdevice &&
	! grep -q "Time per iteration per" dtnode dtdevice &&
	ab --db demo/accelbench.db plot bar -b resnet -m time_to_train --per-node -o tt.svg &&
	desc tt.svg >dtt && grep -qx "Time to train × nodes (min)" dtt &&
	ab --db demo/accelbench.db plot bar -b resnet --per-node -o off.svg &&
	desc off.svg >doff && grep -qx "Node-time to train (min)" doff
'

test_expect_success 'a metric already per accelerator is not divided again, as stats leaves it' '
	ab --db demo/accelbench.db plot bar -b llm-gpt-800M -m throughput_per_device --per-device \
		-o pu.svg && desc pu.svg >dpu &&
	grep -q "not normalised per accelerator: throughput_per_device is per unit already$" dpu &&
	grep -qx "Throughput per device (tokens/s)" dpu &&
	ab --db demo/accelbench.db stats -b llm-gpt-800M -m throughput_per_device --per device \
		--json >pu.json &&
	$PY - <<-\PYEOF
	import json
	shown = open("dpu").read().split("\n")
	best = {}
	for r in json.load(open("pu.json")):
	    if r["median"] is None:
	        continue
	    assert r["unit"] == "tokens/s", r  # stats: not normalised either
	    best[r["system"]] = max(best.get(r["system"], 0), r["median"])
	assert len(best) >= 4, best
	for y, m in best.items():
	    assert "{:,.0f}".format(m) in shown, (y, m)
	PYEOF
'

test_expect_samples 'samples: MLPerf inference per accelerator leaves out the CPU system' '
	ab --db s.db ingest "$SAMPLES" >/dev/null 2>&1;
	ab --db s.db plot bar -b resnet50/Offline --per-device -o i.svg 2>err && test ! -s err &&
	desc i.svg >di &&
	grep -q "not shown, accelerator count not known: Intel/1-node-2S-EMR-PyTorch$" di &&
	! grep -qx "Intel/1-node-2S-EMR-PyTorch" di &&
	grep -qx "Throughput per accelerator (samples/s)" di &&
	ab --db s.db plot bar -b resnet50/Offline -o i2.svg && desc i2.svg >di2 &&
	grep -qx "Intel/1-node-2S-EMR-PyTorch" di2
'

test_done
