#!/bin/sh
# t0004-cost-energy: cost figures from a prices file checked against the
# formulas by hand, energy efficiency consistent with energy and work,
# the measurement boundary carried with energy figures.
. "$(dirname "$0")/lib.sh"

test_expect_success 'set up the demo database' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null && test -f demo/accelbench.db
'
DB="--db demo/accelbench.db"

test_expect_success 'cost --json matches the TCO formulas computed by hand' '
	ab $DB cost -b llm-gpt-800M --prices "$FIXTURES/cost/prices.json" --json >cost.json &&
	$PY - <<-\PYEOF
	import json, math
	rows = {r["system"]: r for r in json.load(open("cost.json"))}
	assert sorted(rows) == ["A100", "H100", "JEDI", "MI250", "WAIH100"], sorted(rows)
	price = {"A100": (12000, 0, 15000), "H100": (25000, 0, 15000), "WAIH100": (30000, 0, 15000),
	         "JEDI": (35000, 0, 25000), "MI250": (0, 60000, 15000)}
	for s, r in rows.items():
	    dev, node, over = price[s]
	    capex = r["devices"] * dev + r["nodes"] * (node + over)
	    hours = 5 * 8760 * 0.8
	    energy_cost = r["avg_power_w"] / 1000 * hours * 1.2 * 0.25
	    tco = capex + energy_cost
	    work = r["throughput"] * 3600 * hours
	    assert math.isclose(r["capex"], capex, rel_tol=1e-12), (s, r["capex"], capex)
	    assert math.isclose(r["tco"], tco, rel_tol=1e-12), (s, r["tco"], tco)
	    assert math.isclose(r["cost_per_million"], tco / work * 1e6, rel_tol=1e-12)
	    assert math.isclose(r["perf_per_currency"], r["throughput"] / capex, rel_tol=1e-12)
	    lo = (0.8 * capex + energy_cost) / work * 1e6
	    assert math.isclose(r["cost_per_million_price_low"], lo, rel_tol=1e-12)
	    assert r["cost_per_million_elec_low"] < r["cost_per_million"] < r["cost_per_million_elec_high"]
	    assert r["boundary"] == "gpu" and r["work_unit"] == "tokens" and r["currency"] == "EUR"
	PYEOF
'

test_expect_success 'cost text shows currency and units in the headers' '
	ab $DB cost -b llm-gpt-800M --prices "$FIXTURES/cost/prices.json" >out &&
	grep -q "capex \[EUR\]" out && grep -q "EUR per M tokens" out && grep -q "(gpu)" out
'

test_expect_success 'a prices file with a misspelt key is refused with its position' '
	expect_code 1 ab $DB cost -b llm-gpt-800M --prices "$FIXTURES/cost/bad-key.json" 2>err &&
	grep -q "bad-key.json" err && grep -q "price_per_devise" err
'

test_expect_success 'cost needs a benchmark and prices; a missing prices file is an I/O error' '
	expect_code 2 ab $DB cost -b llm-gpt-800M 2>err &&
	expect_code 3 ab $DB cost -b llm-gpt-800M --prices nope.json 2>err
'

test_expect_success 'energy efficiency = work / energy, with the boundary on energy metrics' '
	ab $DB ls runs -b llm-gpt-800M --json >runs.json &&
	ab $DB sql "SELECT DISTINCT json_extract(meta, '"'"'\$.boundary'"'"') FROM metric WHERE name = '"'"'energy'"'"'" >b &&
	grep -qx gpu b &&
	$PY - <<-\PYEOF
	import json, math
	n = 0
	for r in json.load(open("runs.json")):
	    m = r["metrics"]
	    if r["status"] != "ok" or "energy" not in m: continue
	    tokens = r["params"]["Iterations"] * r["global_batch"] * 2048
	    assert m["energy"]["unit"] == "Wh" and m["energy_efficiency"]["unit"] == "tokens/Wh"
	    assert math.isclose(m["energy_efficiency"]["value"], tokens / m["energy"]["value"], rel_tol=1e-9)
	    assert m["energy_per_unit"]["unit"] == "J/token"
	    assert math.isclose(m["energy_per_unit"]["value"], 3600 * m["energy"]["value"] / tokens, rel_tol=1e-9)
	    n += 1
	assert n == 234, n
	PYEOF
'

test_expect_success 'stats of the energy metric carry the boundary' '
	ab $DB stats -b llm-gpt-800M -m energy --json >e.json &&
	$PY -c "import json; d = json.load(open(\"e.json\")); assert d and all(x[\"boundary\"] == \"gpu\" and x[\"unit\"] == \"Wh\" for x in d if x[\"n\"])"
'

test_expect_success 'power traces integrate to the energy the files report (jpwr rule)' '
	ab $DB sql --csv "SELECT r.id, m.value FROM run r JOIN metric m ON m.run_id = r.id AND m.name = '"'"'energy'"'"' WHERE EXISTS (SELECT 1 FROM power_sample p WHERE p.run_id = r.id) ORDER BY r.id LIMIT 3" >e.csv &&
	ab $DB sql --csv "SELECT run_id, device, t, watts FROM power_sample WHERE run_id IN (SELECT id FROM run WHERE EXISTS (SELECT 1 FROM power_sample p WHERE p.run_id = run.id) ORDER BY id LIMIT 3) ORDER BY run_id, device, t" >p.csv &&
	$PY - <<-\PYEOF
	import csv, math, collections
	e = {int(r["id"]): float(r["value"]) for r in csv.DictReader(open("e.csv"))}
	tr = collections.defaultdict(list)
	for r in csv.DictReader(open("p.csv")):
	    tr[(int(r["run_id"]), r["device"])].append((float(r["t"]), float(r["watts"])))
	tot = collections.Counter()
	for (rid, dev), pts in tr.items():
	    tot[rid] += sum(w * (t - pts[i][0]) for i, (t, w) in enumerate(pts[1:])) / 3600
	assert len(e) == 3
	for rid, wh in e.items():
	    assert math.isclose(tot[rid], wh, rel_tol=1e-6), (rid, tot[rid], wh)
	PYEOF
'

test_done
