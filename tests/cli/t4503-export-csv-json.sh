#!/bin/sh
# t4503-export-csv-json: `accelbench export` as RFC 4180 CSV and as JSON
# with exactly the fields (and values) of the matching --json output, to a
# file (atomically, path printed) or to stdout; spreadsheet injection and
# bad UTF-8 neutralised.
. "$(dirname "$0")/lib.sh"
DB="--db demo/accelbench.db"

test_expect_success 'set up the demo database' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null
'

test_expect_success 'JSON exports equal the --json of ls runs, stats, compare and MLPerf stats' '
	ab $DB export -o runs.json >out && test "$(cat out)" = "wrote runs.json" &&
	ab $DB ls runs --json >runs.ref &&
	ab $DB export -o stats.json --what stats -b llm-gpt-800M >/dev/null &&
	ab $DB stats -b llm-gpt-800M --json >stats.ref &&
	ab $DB export -o cmp.json --what compare --suite caraml --baseline A100 >/dev/null &&
	ab $DB compare --suite caraml --baseline A100 --json >cmp.ref &&
	ab $DB export -o scores.json --what scores >/dev/null &&
	ab $DB stats --suite mlperf-training --json >scores.ref &&
	$PY - <<-\PYEOF
	import json
	for a, b in (("runs.json", "runs.ref"), ("stats.json", "stats.ref"), ("cmp.json", "cmp.ref"),
	             ("scores.json", "scores.ref")):
	    x, y = json.load(open(a)), json.load(open(b))
	    assert len(x) == len(y) > 0, (a, len(x), len(y))
	    for p, q in zip(x, y):
	        assert list(sorted(p)) == list(sorted(q)), (a, set(p) ^ set(q))
	        assert p == q, (a, p, q)
	kinds = {r["kind"] for r in json.load(open("cmp.json"))}
	assert kinds == {"comparison", "composite"}, kinds
	PYEOF
'

test_expect_success 'CSV of runs: one row per run and metric, RFC 4180, values as in the database' '
	ab $DB export -o runs.csv >/dev/null &&
	$PY - <<-\PYEOF
	import csv, json
	raw = open("runs.csv", "rb").read()
	assert raw.count(b"\r\n") == raw.count(b"\n"), "CRLF line ends"
	rows = list(csv.DictReader(open("runs.csv", newline="", encoding="utf-8")))
	runs = json.load(open("runs.json"))
	want = sum(max(1, len(r["metrics"])) for r in runs)
	assert len(rows) == want, (len(rows), want)
	by = {(int(r["id"]), r["metric"]): r for r in rows}
	for r in runs:
	    for m, v in r["metrics"].items():
	        c = by[(r["id"], m)]
	        assert abs(float(c["value"]) - v["value"]) <= 1e-12 * abs(v["value"]), (c, v)
	        assert c["unit"] == v["unit"] and c["system"] == r["system"] and c["status"] == r["status"]
	        assert len(c["sha256"]) == 64
	PYEOF
'

test_expect_success '-o - writes to stdout (CSV unless --format json), nothing else' '
	ab $DB export -o - --what stats -b resnet50 >s.csv &&
	head -1 s.csv | grep -q "^suite,benchmark,system," &&
	ab $DB export -o - --format json --what stats -b resnet50 >s.json &&
	$PY -c "import json; assert len(json.load(open(\"s.json\"))) == 19"
'

test_expect_success 'injection: formula-like text is neutralised, quoting round-trips, UTF-8 kept or repaired' '
	d="inj/a,b \"q\"" && mkdir -p "$d" &&
	printf "%s\n" "JobID,System,Version,Queue,Runtime(s),Model,Dataset,Nodes,Devices,Tasks/Node,Threads/Task,GlobalBatchSize,BatchSize/Device,Images/second,EnergyFile" \
		"1,=HYPERLINK(\"http://example.com/x\"),2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,588.84," \
		"2,@SUM(1+1),2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,581.41," \
		"3,-2+3 ünïcode,2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,593.73," \
		"4,+cmd|x,2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,593.73," >"$d/result_csv.dat" &&
	printf "5,caf\351,2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,500.0,\n" >>"$d/result_csv.dat" &&
	ab --db inj.db ingest inj >/dev/null &&
	ab --db inj.db export -o inj.csv >/dev/null &&
	ab --db inj.db export -o inj.json >/dev/null &&
	$PY - <<-\PYEOF
	import csv, json
	rows = list(csv.DictReader(open("inj.csv", newline="", encoding="utf-8")))
	names = sorted({r["system"] for r in rows})
	assert names == ["'"'"'+cmd|x", "'"'"'-2+3 ünïcode", "'"'"'=HYPERLINK(\"http://example.com/x\")",
	                 "'"'"'@SUM(1+1)", "caf\ufffd"], names
	assert all(r["source"].endswith("inj/a,b \"q\"/result_csv.dat") for r in rows)
	assert all(not r["value"].startswith("'"'"'") for r in rows)
	js = {r["system"] for r in json.load(open("inj.json"))}
	assert js == {"=HYPERLINK(\"http://example.com/x\")", "@SUM(1+1)", "-2+3 ünïcode", "+cmd|x", "caf\ufffd"}, js
	PYEOF
'

test_expect_success 'usage errors say what is valid; a failed export leaves no file' '
	expect_code 2 ab $DB export 2>err && grep -q "export: -o FILE is required" err &&
	expect_code 2 ab $DB export -o x.csv --what everything 2>err &&
	grep -q "valid: runs, stats, compare, scores" err &&
	expect_code 2 ab $DB export -o x.csv --what compare 2>err && grep -q "needs --baseline" err &&
	expect_code 2 ab $DB export -o x.txt 2>err && grep -q "FILE.csv, FILE.json or FILE.xlsx" err &&
	expect_code 1 ab $DB export -o x.csv -b nope 2>err && grep -q "no benchmark .nope.; valid:" err &&
	expect_code 3 ab $DB export -o no/such/dir/x.csv 2>err &&
	test ! -e x.csv && test -z "$(find . -name ".x.csv.*")"
'

test_expect_success 'metrics come by name, equal names by kind id; a bad packed value is refused' '
	cp demo/accelbench.db tie.db &&
	sqlite3 tie.db "INSERT INTO metric_kind(name, unit) VALUES ('"'"'zz'"'"', '"'"'u2'"'"'), ('"'"'zz'"'"', '"'"'u1'"'"'), ('"'"'aa'"'"', '"'"'u0'"'"');" &&
	k=$(sqlite3 tie.db "SELECT max(id) FROM metric_kind") &&
	sqlite3 tie.db "UPDATE run_data SET metrics = '"'"'{\"$((k - 2))\":1.5,\"$((k - 1))\":2.5,\"$k\":7}'"'"' WHERE id = 1" &&
	ab --db tie.db export -o tie.csv >/dev/null && ab --db tie.db export -o tie.json >/dev/null &&
	ab --db tie.db ls runs --json >tie.ref &&
	$PY - <<-\PYEOF &&
	import csv, json
	rows = [(r["metric"], r["value"], r["unit"]) for r in csv.DictReader(open("tie.csv")) if r["id"] == "1"]
	assert rows == [("aa", "7", "u0"), ("zz", "1.5", "u2"), ("zz", "2.5", "u1")], rows
	text = open("tie.json").read()
	i = text.index("\"metrics\": {\"aa\":{\"value\":7,\"unit\":\"u0\"},\"zz\":{\"value\":1.5,\"unit\":\"u2\"},\"zz\":{\"value\":2.5,\"unit\":\"u1\"}}")
	assert json.load(open("tie.json")) == json.load(open("tie.ref"))
	PYEOF
	sqlite3 tie.db "UPDATE run_data SET metrics = '"'"'{\"$k\":2x}'"'"' WHERE id = 2" &&
	expect_code 3 ab --db tie.db export -o bad.csv 2>err && grep -q "run 2.s metrics are not in the packed form" err &&
	expect_code 3 ab --db tie.db export -o bad.json 2>err &&
	test ! -e bad.csv && test ! -e bad.json
'

test_done
