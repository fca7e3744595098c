#!/bin/sh
# t4504-xlsx: the workbook read back with openpyxl (/usr/bin/python3,
# Debian python3-openpyxl): sheets, headers, values equal to --json, the
# Cost formulas and their cached results equal to `accelbench cost`, charts
# per sheet (custom CI error bars referring to cells, Pareto labels as
# text, MLPerf official scores), the Summary's energy efficiency, the Raw
# table (also beyond 20,000 rows), document properties, injection and XML
# escapes stay text, atomic writes.
. "$(dirname "$0")/lib.sh"
DB="--db demo/accelbench.db"

if ! $PY -c "import openpyxl" 2>/dev/null; then
	test_skip "workbook checks" "python3-openpyxl is not installed (make deps installs it)"
	test_done
	exit 0
fi

test_expect_success 'set up the demo database and the workbook' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	ab $DB export -o wb.xlsx --prices demo/prices.json --baseline A100 >out &&
	test "$(cat out)" = "wrote wb.xlsx" &&
	test -z "$(find . -name ".wb.xlsx.*")"
'

test_expect_success 'sheets, the simulated notice first, headers and document properties' '
	$PY - <<-\PYEOF
	import openpyxl, datetime
	wb = openpyxl.load_workbook("wb.xlsx")
	assert wb.sheetnames == ["Summary", "Systems", "llm-gpt-800M", "resnet50", "resnet",
	    "CosmoFlowBenchmark", "DeepCAMBenchmark", "ResNet50Benchmark", "MLPerf scores", "Cost",
	    "Raw", "Methodology", "Provenance"], wb.sheetnames
	s = wb["Summary"]
	assert "simulated example data" in s["A2"].value.lower(), s["A2"].value
	assert s["A5"].value == "caraml: best configuration of each system against A100"
	assert s["B6"].value == "llm-gpt-800M [tokens/s]" and s["C6"].value == "x better than baseline"
	assert s.freeze_panes == "B1"
	b = wb["llm-gpt-800M"]
	assert [c.value for c in b[3]][:10] == ["system", "nodes", "devices", "global batch", "precision",
	    "runs ok", "failed", "median", "95% CI low", "95% CI high"], [c.value for c in b[3]]
	p = wb.properties
	assert p.created == datetime.datetime(2023, 11, 14, 22, 13, 20), p.created
	assert "simulated example data" in p.title and p.creator.startswith("accelbench")
	assert wb["Systems"].column_dimensions["A"].width >= len("archer2:compute-gpu-torch")
	PYEOF
'

test_expect_success 'benchmark sheets hold the values of stats --json, in order' '
	ab $DB stats -b llm-gpt-800M --suite caraml --json >stats.json &&
	$PY - <<-\PYEOF
	import json, openpyxl
	wb = openpyxl.load_workbook("wb.xlsx")
	b = wb["llm-gpt-800M"]
	st = json.load(open("stats.json"))
	rows = list(b.iter_rows(min_row=4, max_row=3 + len(st), values_only=True))
	assert len(st) >= 20 and len(rows) == len(st), (len(st), len(rows))
	for r, s in zip(rows, st):
	    assert r[0] == s["system"] and r[3] == s["global_batch"] and r[5] == s["n"], (r, s)
	    if s["median"] is None:
	        assert r[7] is None
	    else:
	        assert abs(r[7] - s["median"]) <= 1e-12 * abs(s["median"]), (r, s)
	    for k, i in (("ci_low", 8), ("ci_high", 9)):
	        assert (r[i] is None) == (s[k] is None) and (r[i] is None or abs(r[i] - s[k]) <= 1e-9 * abs(s[k]))
	PYEOF
'

test_expect_success 'Cost: input cells, live formulas, cached results equal accelbench cost' '
	ab $DB cost -b llm-gpt-800M --prices demo/prices.json --json >cost.json &&
	$PY - <<-\PYEOF
	import json, openpyxl
	wb = openpyxl.load_workbook("wb.xlsx")
	vals = openpyxl.load_workbook("wb.xlsx", data_only=True)["Cost"]
	c = wb["Cost"]
	assert c["A4"].value == "electricity price per kWh" and c["B4"].value == 0.25
	assert (c["B5"].value, c["B6"].value, c["B7"].value) == (1.2, 5, 0.8)
	cost = {r["system"]: r for r in json.load(open("cost.json"))}
	seen = 0
	for row in range(1, c.max_row + 1):
	    name = c.cell(row, 1).value
	    if name in cost and c.cell(row, 2).value and c.cell(row, 2).value.endswith("b" + str(cost[name]["global_batch"])):
	        if not str(c.cell(row - seen - 1, 1).value).startswith("system") and seen == 0:
	            pass
	        R = row
	        assert c.cell(R, 10).value == "=$B$4", c.cell(R, 10).value
	        assert c.cell(R, 14).value == f"=C{R}*G{R}+D{R}*(H{R}+I{R})"
	        assert c.cell(R, 18).value == f"=N{R}+Q{R}"
	        assert c.cell(R, 20).value == f"=R{R}/S{R}*1000000"
	        want = cost[name]
	        for col, key in ((14, "capex"), (16, "energy_kwh"), (17, "energy_cost"), (18, "tco"),
	                         (20, "cost_per_million"), (21, "perf_per_currency")):
	            got = vals.cell(R, col).value
	            assert abs(got - want[key]) <= 1e-9 * abs(want[key]), (name, key, got, want[key])
	        seen += 1
	        if seen == len(cost):
	            break
	assert seen == len(cost), seen
	PYEOF
'

test_expect_success 'charts per sheet: summary bars, CI bars, batch scaling (log2), Pareto, MLPerf' '
	$PY - <<-\PYEOF
	import openpyxl, zipfile, re
	wb = openpyxl.load_workbook("wb.xlsx")
	n = {ws.title: len(ws._charts) for ws in wb.worksheets}
	assert n["Summary"] == 3 and n["llm-gpt-800M"] == 3 and n["resnet50"] == 2, n
	assert n["resnet"] == 2 and n["Raw"] == 0, n
	z = zipfile.ZipFile("wb.xlsx")
	assert z.testzip() is None
	charts = [z.read(f).decode() for f in z.namelist() if f.startswith("xl/charts/chart")]
	assert any("<c:logBase val=\"2\"/>" in c for c in charts), "a log2 axis"
	# the Pareto labels are the names as text (LibreOffice shows them too)
	par = [c for c in charts if "performance against energy" in c]
	assert par and all("<c:dLbls>" in c for c in par)
	assert "<a:t>JEDI</a:t>" in par[0] and "<c:strRef>" not in par[0].split("<c:dLbls>")[1].split("</c:dLbls>")[0]
	PYEOF
'

test_expect_success 'CI bars: custom error values that refer to the whisker cells' '
	ab $DB stats -b llm-gpt-800M --suite caraml --json >st.json &&
	$PY - <<-\PYEOF
	import json, openpyxl, zipfile, re
	wb = openpyxl.load_workbook("wb.xlsx")
	z = zipfile.ZipFile("wb.xlsx")
	bars = [z.read(f).decode() for f in z.namelist() if f.startswith("xl/charts/chart")]
	bars = [c for c in bars if "<c:errBars>" in c]
	assert len(bars) >= 5, len(bars)                 # benchmark sheets with a CI
	for c in bars:
	    assert "987654" not in c, "a marker left in a chart"
	    for e in re.findall(r"<c:errBars>.*?</c:errBars>", c):
	        assert "<c:errBarType val=\"both\"/><c:errValType val=\"cust\"/>" in e, e
	        assert "<c:plus><c:numRef><c:f>" in e and "<c:minus><c:numRef><c:f>" in e, e
	c = [c for c in bars if "llm-gpt-800M: median" in c][0]
	plus = re.search(r"<c:plus><c:numRef><c:f>(.*?)</c:f>", c).group(1)
	minus = re.search(r"<c:minus><c:numRef><c:f>(.*?)</c:f>", c).group(1)
	vals = re.search(r"<c:val><c:numRef><c:f>(.*?)</c:f>", c).group(1)
	def cells(ref):
	    sheet, rng = ref.rsplit("!", 1)
	    return [r[0] for r in wb[sheet.strip("\x27")][rng.replace("$", "")]]
	P, M, V = cells(plus), cells(minus), cells(vals)
	assert P[0].column_letter == "G" and M[0].column_letter == "F" and V[0].column_letter == "C"
	best = {}
	for s in json.load(open("st.json")):
	    if s["median"] is not None and (s["system"] not in best or s["median"] > best[s["system"]]["median"]):
	        best[s["system"]] = s
	sheet = wb["llm-gpt-800M"]
	for p, m, v in zip(P, M, V):
	    s = best[sheet.cell(v.row, 1).value]
	    assert abs(v.value - s["median"]) <= 1e-9 * s["median"], (v.value, s)
	    assert abs(p.value - (s["ci_high"] - s["median"])) <= 1e-9 * s["median"], (p.value, s)
	    assert abs(m.value - (s["median"] - s["ci_low"])) <= 1e-9 * s["median"], (m.value, s)
	# the cached values in the chart are the cells'"'"' values
	cache = [float(x) for x in re.findall(r"<c:v>([^<]*)</c:v>", c.split("<c:plus>")[1].split("</c:plus>")[0])]
	assert all(abs(a - b.value) <= 1e-9 * abs(b.value) for a, b in zip(cache, P)), (cache, [p.value for p in P])
	PYEOF
'

test_expect_success 'Summary: energy efficiency per system and benchmark; MLPerf official scores per sheet' '
	ab $DB compare --suite caraml --baseline A100 --json >cmp.json &&
	ab $DB stats -b llm-gpt-800M --suite caraml -m energy_efficiency --json >eff.json &&
	ab $DB stats --suite mlperf-training --json >scores.json &&
	$PY - <<-\PYEOF
	import json, openpyxl
	wb = openpyxl.load_workbook("wb.xlsx")
	s = wb["Summary"]
	assert s["G6"].value == "energy efficiency [tokens/Wh]", s["G6"].value
	# the energy efficiency of the configuration each row compares
	eff = {(r["system"], r["nodes"], r["devices"], r["global_batch"]): r["median"]
	       for r in json.load(open("eff.json"))}
	want = {}
	for r in json.load(open("cmp.json")):
	    if r.get("kind") != "comparison" or r["benchmark"] != "llm-gpt-800M":
	        continue
	    want[r["system"]] = eff[(r["system"], r["nodes"], r["devices"], r["global_batch"])]
	    want[r["baseline"]] = eff[(r["baseline"], r["baseline_nodes"], r["baseline_devices"], r["baseline_global_batch"])]
	seen = 0
	for row in range(7, 20):
	    name = s.cell(row, 1).value
	    if name in want:
	        got = s.cell(row, 7).value
	        assert abs(got - want[name]) <= 1e-9 * want[name], (name, got, want[name])
	        seen += 1
	assert seen == len(want) == 5, (seen, want)
	m = wb["resnet"]
	rows = list(m.iter_rows(values_only=True))
	at = [i for i, r in enumerate(rows) if r[0] and str(r[0]).startswith("MLPerf official scores")][0]
	assert rows[at + 1][:8] == ("system", "division", "nodes", "devices", "runs", "valid", "failed", "official_score"), rows[at + 1]
	want = {r["system"]: r for r in json.load(open("scores.json")) if r["benchmark"] == "resnet"}
	got = {r[0]: r for r in rows[at + 2: at + 2 + len(want)]}
	assert set(got) == set(want), (got.keys(), want.keys())
	for k, r in want.items():
	    if r["official_score"] is None:
	        assert got[k][7] is None
	    else:
	        assert abs(got[k][7] - r["official_score"]) <= 1e-9 * r["official_score"], (k, got[k], r)
	PYEOF
'

test_expect_success 'Raw: one row per run and metric, as an Excel table with autofilter' '
	ab $DB export -o runs.csv >/dev/null &&
	$PY - <<-\PYEOF
	import csv, openpyxl
	wb = openpyxl.load_workbook("wb.xlsx")
	raw = wb["Raw"]
	rows = list(csv.reader(open("runs.csv", newline="", encoding="utf-8")))
	assert raw.max_row == len(rows), (raw.max_row, len(rows))
	t = raw.tables["Runs"]
	assert t.ref == "A1:P%d" % len(rows), t.ref
	assert t.autoFilter is not None
	head = [c.value for c in raw[1]]
	assert head == ["id", "suite", "benchmark", "system", "status", "nodes", "devices", "global_batch",
	    "precision", "metric", "value", "unit", "job_id", "source", "line", "sha256 prefix"], head
	col = {k: i for i, k in enumerate(rows[0])}
	for r in (2, 100, len(rows)):
	    got = [c.value for c in raw[r]]
	    want = rows[r - 1]
	    assert got[0] == int(want[col["id"]]) and got[3] == want[col["system"]], (got, want)
	    assert (got[9] or "") == want[col["metric"]], (got, want)
	    assert (got[10] is None) == (want[col["value"]] == "")
	    assert got[10] is None or abs(got[10] - float(want[col["value"]])) <= 1e-12 * abs(got[10])
	    assert got[13] == want[col["source"]] and got[15] == want[col["sha256"]][:12]
	PYEOF
'

test_expect_success 'injection: names from input files stay text, never formulas' '
	d="inj/x" && mkdir -p "$d" &&
	printf "%s\n" "JobID,System,Version,Queue,Runtime(s),Model,Dataset,Nodes,Devices,Tasks/Node,Threads/Task,GlobalBatchSize,BatchSize/Device,Images/second,EnergyFile" \
		"1,=HYPERLINK(\"http://example.com/x\"),2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,588.84," \
		"2,@SUM(1+1),2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,581.41," \
		"3,+1+2,2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,581.41," \
		"4,a<b>&c_x0041_ d,2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,581.41," >"$d/result_csv.dat" &&
	ab --db inj.db ingest inj >/dev/null &&
	ab --db inj.db export -o inj.xlsx >/dev/null &&
	$PY - <<-\PYEOF
	import openpyxl, zipfile
	wb = openpyxl.load_workbook("inj.xlsx")
	names = {wb["Systems"].cell(r, 1).value for r in range(1, wb["Systems"].max_row + 1)}
	assert {"=HYPERLINK(\"http://example.com/x\")", "@SUM(1+1)", "+1+2", "a<b>&c_x0041_ d"} <= names, names
	raw = {wb["Raw"].cell(r, 4).value for r in range(2, wb["Raw"].max_row + 1)}
	assert raw == {"=HYPERLINK(\"http://example.com/x\")", "@SUM(1+1)", "+1+2", "a<b>&c_x0041_ d"}, raw
	for ws in wb.worksheets:
	    for row in ws.iter_rows():
	        for c in row:
	            if isinstance(c.value, str) and ("HYPERLINK" in c.value or "SUM(" in c.value):
	                assert c.data_type == "s", (ws.title, c.coordinate, c.data_type)
	z = zipfile.ZipFile("inj.xlsx")
	for f in z.namelist():
	    if f.startswith("xl/worksheets/"):
	        x = z.read(f).decode()
	        assert "<f>HYPERLINK" not in x and "<f>SUM" not in x and "<f>=" not in x, f
	PYEOF
'

test_expect_success 'errors: workbook to stdout, prices for CSV, bad prices; no file left' '
	expect_code 2 ab $DB export -o - --format xlsx 2>err && grep -q "cannot go to standard output" err &&
	expect_code 2 ab $DB export -o x.csv --prices demo/prices.json 2>err && grep -q "are for the workbook" err &&
	echo "{" >bad.json &&
	expect_code 1 ab $DB export -o bad.xlsx --prices bad.json 2>err &&
	test ! -e bad.xlsx && test -z "$(find . -name ".bad.xlsx.*")"
'

test_expect_success '--spec: title, baseline, suites, benchmarks' '
	printf "%s\n" "{ \"title\": \"Procurement 2026\", \"organisation\": \"Example Centre\", \"baseline\": \"H100\"," \
		"  \"suites\": [\"caraml\"], \"benchmarks\": [\"resnet50\"] }" >spec.json &&
	ab $DB export -o spec.xlsx --spec spec.json >/dev/null &&
	$PY - <<-\PYEOF
	import openpyxl, zipfile
	wb = openpyxl.load_workbook("spec.xlsx")
	assert wb.sheetnames == ["Summary", "Systems", "resnet50", "Raw", "Methodology", "Provenance"], wb.sheetnames
	assert wb.properties.title.startswith("Procurement 2026"), wb.properties.title
	assert "<Company>Example Centre</Company>" in zipfile.ZipFile("spec.xlsx").read("docProps/app.xml").decode()
	assert wb["Summary"]["A5"].value == "caraml: best configuration of each system against H100"
	PYEOF
'

test_expect_success '--spec: systems, confidence_level, metric and normalise are honoured' '
	printf "%s\n" "{ \"baseline\": \"A100\", \"systems\": [\"H100\", \"JEDI\"], \"confidence_level\": 0.9," \
		"  \"suites\": [\"caraml\"], \"benchmarks\": [ { \"name\": \"llm-gpt-800M\", \"normalise\": \"device\" }," \
		"  { \"name\": \"resnet50\", \"metric\": \"energy_efficiency\" } ] }" >spec3.json &&
	ab $DB export -o spec3.xlsx --spec spec3.json >/dev/null &&
	ab $DB ls runs --suite caraml --json >runs3.json &&
	ab $DB compare --suite caraml --baseline A100 --json >cmp3.json &&
	$PY - <<-\PYEOF
	import json, math, openpyxl
	from collections import defaultdict
	wb = openpyxl.load_workbook("spec3.xlsx")
	def ranks(n, level):                 # the distribution-free median CI ranks
	    best = None
	    for l in range(1, n // 2 + 1):
	        tail = sum(math.comb(n, k) for k in range(l)) / 2 ** n
	        if 1 - 2 * tail >= level:
	            best = l
	    return None if best is None else (best, n + 1 - best)
	vals = defaultdict(list)
	for r in json.load(open("runs3.json")):
	    if r["status"] == "ok" and r["benchmark"] == "llm-gpt-800M" and "throughput" in r["metrics"]:
	        vals[(r["system"], r["nodes"], r["devices"], r["global_batch"])].append(r["metrics"]["throughput"]["value"])
	b = wb["llm-gpt-800M"]
	head = [c.value for c in b[3]]
	assert head[8:10] == ["90% CI low", "90% CI high"] and head[13] == "median per device", head
	seen = set()
	for row in b.iter_rows(min_row=4, values_only=True):
	    if row[0] is None:
	        break
	    seen.add(row[0])
	    v = sorted(vals[(row[0], row[1], row[2], row[3])])
	    lo, hi = ranks(len(v), 0.9)
	    assert abs(row[8] - v[lo - 1]) <= 1e-9 * v[0] and abs(row[9] - v[hi - 1]) <= 1e-9 * v[0], (row, v)
	    for i, j in ((7, 13), (8, 14), (9, 15)):
	        assert abs(row[j] - row[i] / row[2]) <= 1e-9 * row[j], (row, i, j)
	assert seen == {"H100", "JEDI"}, seen
	assert wb["resnet50"]["A1"].value.startswith("resnet50 (caraml): energy_efficiency [images/Wh]")
	s = wb["Summary"]
	assert [s.cell(r, 1).value for r in (7, 8, 9)] == ["A100", "H100", "JEDI"] and s.cell(10, 1).value is None
	assert s["D6"].value == "90% CI low"
	cmp = [r for r in json.load(open("cmp3.json")) if r.get("kind") == "comparison" and r["benchmark"] == "llm-gpt-800M"]
	assert all(r["ci_level"] == 0.95 for r in cmp)   # the command line default, not the spec
	assert {s.cell(r, 1).value for r in range(7, 10)} == {"A100", "H100", "JEDI"}
	assert {r[3] for r in wb["Raw"].iter_rows(min_row=2, values_only=True)} == {"H100", "JEDI"}
	assert wb["Raw"].tables["Runs"].ref == "A1:P%d" % wb["Raw"].max_row
	assert {r[0] for r in wb["Systems"].iter_rows(min_row=3, values_only=True)} == {"H100", "JEDI"}
	assert "CI level 0.9 " in " ".join(str(c.value) for c in wb["Methodology"]["A"])
	PYEOF
'

test_expect_success '--spec: names the database lacks are errors that list the valid ones' '
	echo "{ \"systems\": [\"H200\"] }" >bad1.json &&
	expect_code 1 ab $DB export -o b1.xlsx --spec bad1.json 2>err &&
	grep -q "the spec names system .H200., which has no runs; valid: .*A100" err &&
	echo "{ \"benchmarks\": [ { \"name\": \"resnet50\", \"metric\": \"speed\" } ] }" >bad2.json &&
	expect_code 1 ab $DB export -o b2.xlsx --spec bad2.json 2>err &&
	grep -q "the spec asks for metric .speed. of resnet50, which has none; valid: .*throughput" err &&
	test ! -e b1.xlsx && test ! -e b2.xlsx
'

test_expect_success 'a large Raw sheet (over 20,000 rows) is still an Excel table' '
	ACCELBENCH_DB= ab demo -o big --repeats 50 --suite caraml >/dev/null &&
	ab --db big/accelbench.db export -o big.xlsx >/dev/null &&
	ab --db big/accelbench.db export -o big.csv >/dev/null &&
	$PY - <<-\PYEOF
	import csv, openpyxl, zipfile, re
	rows = list(csv.reader(open("big.csv", newline="", encoding="utf-8")))
	assert len(rows) > 20001, len(rows)
	wb = openpyxl.load_workbook("big.xlsx", read_only=True)
	raw = wb["Raw"]
	got = list(raw.iter_rows(values_only=True))
	assert len(got) == len(rows), (len(got), len(rows))
	col = {k: i for i, k in enumerate(rows[0])}
	for r in (1, 20000, len(rows) - 1):
	    g, w = got[r], rows[r]
	    assert g[0] == int(w[col["id"]]) and g[3] == w[col["system"]] and g[13] == w[col["source"]], (g, w)
	    assert g[10] is None or abs(g[10] - float(w[col["value"]])) <= 1e-12 * abs(g[10])
	z = zipfile.ZipFile("big.xlsx")
	tables = [z.read(f).decode() for f in z.namelist() if f.startswith("xl/tables/")]
	assert len(tables) == 1 and "name=\"Runs\"" in tables[0], tables
	assert "ref=\"A1:P%d\"" % len(rows) in tables[0] and "<autoFilter ref=\"A1:P%d\"/>" % len(rows) in tables[0]
	PYEOF
'

test_done
