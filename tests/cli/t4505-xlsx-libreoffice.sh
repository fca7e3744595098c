#!/bin/sh
# t4505-xlsx-libreoffice: a real spreadsheet application opens the workbook.
# LibreOffice headless (Debian libreoffice-calc-nogui, installed by `make
# deps`) converts it to CSV (every sheet) and PDF without errors; after the
# electricity price input is changed with openpyxl, LibreOffice recalculates
# and the TCO it reads back equals `accelbench cost` with that price.
# A private profile and output dirs per run, so concurrent runs never meet.
. "$(dirname "$0")/lib.sh"
DB="--db demo/accelbench.db"
SOFFICE=$(command -v soffice || command -v libreoffice || true)

if [ -z "$SOFFICE" ] || ! $PY -c "import openpyxl" 2>/dev/null; then
	test_skip "LibreOffice round trip" "libreoffice-calc-nogui or python3-openpyxl not installed (make deps)"
	test_done
	exit 0
fi
lo() {
	HOME="$T_BASE/home" "$SOFFICE" -env:UserInstallation=file://$T_BASE/lo-profile --headless \
		--norestore --nolockcheck "$@"
}

test_expect_success 'set up the workbook of the demo' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	ab $DB export -o wb.xlsx --prices demo/prices.json >/dev/null
'

test_expect_success 'LibreOffice converts every sheet to CSV and the workbook to PDF' '
	lo --convert-to "csv:Text - txt - csv (StarCalc):44,34,UTF8,1,,0,false,true,false,false,false,-1" \
		--outdir csv wb.xlsx >lo.out 2>&1 &&
	test -s csv/wb-Summary.csv && test -s csv/wb-Cost.csv && test -s csv/wb-Raw.csv &&
	grep -q "Simulated example data" csv/wb-Summary.csv &&
	test "$(wc -l <csv/wb-Raw.csv)" -gt 2000 &&
	lo --convert-to pdf --outdir pdf wb.xlsx >lo2.out 2>&1 &&
	head -c 5 pdf/wb.pdf | grep -q "%PDF-" &&
	! grep -qi "error" lo.out lo2.out
'

test_expect_success 'a new electricity price, recalculated by LibreOffice, gives accelbench cost'"'"'s TCO' '
	$PY - <<-\PYEOF &&
	import openpyxl, json
	wb = openpyxl.load_workbook("wb.xlsx")
	wb["Cost"]["B4"] = 0.40
	wb.save("changed.xlsx")
	p = json.load(open("demo/prices.json"))
	p["electricity_price_per_kwh"] = 0.40
	json.dump(p, open("prices40.json", "w"))
	PYEOF
	lo --convert-to xlsx --outdir recalc changed.xlsx >lo3.out 2>&1 &&
	ab $DB cost -b llm-gpt-800M --prices prices40.json --json >c40.json &&
	ab $DB cost -b resnet50 --prices prices40.json --json >r40.json &&
	$PY - <<-\PYEOF
	import openpyxl, json
	ws = openpyxl.load_workbook("recalc/changed.xlsx", data_only=True)["Cost"]
	want = {}
	for f in ("c40.json", "r40.json"):
	    for r in json.load(open(f)):
	        want[(r["benchmark"], r["system"])] = r
	bench, got = None, 0
	for row in ws.iter_rows(values_only=True):
	    if isinstance(row[0], str) and " (caraml): work unit" in row[0]:
	        bench = row[0].split(" ")[0]
	    k = (bench, row[0])
	    if k in want and row[1] != "configuration":
	        w = want[k]
	        assert row[9] == 0.40, row
	        for col, key in ((13, "capex"), (16, "energy_cost"), (17, "tco"), (19, "cost_per_million")):
	            assert abs(row[col] - w[key]) <= 1e-9 * abs(w[key]), (k, key, row[col], w[key])
	        got += 1
	assert got == len(want), (got, len(want))
	PYEOF
'

test_done
