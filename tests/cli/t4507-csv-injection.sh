#!/bin/sh
# t4507-csv-injection: every views --csv (stats, ls runs, ls systems,
# compare, pareto: all through cli_output_csv) neutralises text a
# spreadsheet would run as a formula (OWASP CSV injection: cells starting
# with = + - @ TAB CR get an apostrophe first), while numbers - negative
# ones included - stay raw and --json keeps the text unchanged.  `sql
# --csv` is the raw query tool and prints values as they are.
. "$(dirname "$0")/lib.sh"

test_expect_success 'set up systems whose names are formulas' '
	mkdir -p inj &&
	printf "%s\n" "JobID,System,Version,Queue,Runtime(s),Model,Dataset,Nodes,Devices,Tasks/Node,Threads/Task,GlobalBatchSize,BatchSize/Device,Images/second,EnergyFile" \
		"1,=HYPERLINK(\"http://example.com/x\"),2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,588.84," \
		"2,=HYPERLINK(\"http://example.com/x\"),2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,590.10," \
		"3,@SUM(1+1),2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,581.41," \
		"4,@SUM(1+1),2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,583.00," \
		"5,-2+3,2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,593.73," \
		"6,-2+3,2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,594.00," \
		"7,plain,2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,400.00," \
		"8,plain,2024.01,q,1.0,resnet50_v2,ImageNet,1,1,1,4,512,512,401.00," >inj/result_csv.dat &&
	ab --db inj.db ingest inj >/dev/null
'

# check FILE: every system cell is neutralised, the numbers are raw
check_csv() {
	$PY - "$1" <<-\PYEOF
	import csv, sys
	rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
	assert len(rows) > 1, rows
	bad, seen = [], 0
	for row in rows[1:]:
	    for cell in row:
	        if cell[:1] in ("=", "+", "@", "\t", "\r"):
	            bad.append(cell)
	        if cell[:1] == "-":
	            float(cell)           # a negative number, never text
	        if cell.startswith("'"):
	            seen += 1
	            assert cell[1:2] in ("=", "+", "-", "@", "\t", "\r"), cell
	assert not bad, bad
	assert seen, "no neutralised cell in " + sys.argv[1]
	PYEOF
}

test_expect_success 'stats, ls runs, ls systems --csv: formula-like names get an apostrophe' '
	ab --db inj.db stats --csv >stats.csv && check_csv stats.csv &&
	grep -q "'"'"'@SUM(1+1)" stats.csv &&
	ab --db inj.db ls runs --csv >runs.csv && check_csv runs.csv &&
	ab --db inj.db ls systems --csv >sys.csv && check_csv sys.csv &&
	grep -q "\"'"'"'=HYPERLINK(\"\"http://example.com/x\"\")\"" sys.csv
'

test_expect_success 'compare and pareto --csv: the same; negative numbers stay numbers; sql --csv is raw' '
	ab --db inj.db compare -b resnet50 --baseline plain --csv >cmp.csv && check_csv cmp.csv &&
	ab --db inj.db pareto -b resnet50 -y throughput --csv >par.csv && check_csv par.csv &&
	ab --db inj.db sql --csv "SELECT name FROM system ORDER BY name" >sql.csv &&
	grep -q "^-2+3$" sql.csv
'

test_expect_success '--json keeps the text as it is' '
	ab --db inj.db ls systems --json >sys.json &&
	$PY -c "import json; n = {s[\"name\"] for s in json.load(open(\"sys.json\"))}; assert {\"=HYPERLINK(\\\"http://example.com/x\\\")\", \"@SUM(1+1)\", \"-2+3\", \"plain\"} <= n, n"
'

test_done
