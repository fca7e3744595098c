#!/bin/sh
# t4506-make-demo: what `make demo` runs (accelbench demo, then
# runners/demo_outputs.sh) writes the database, the workbook, a CSV, the
# PDF report and one PNG per chart kind, says where, marks them simulated,
# and leaves no -wal/-shm files beside the database.  How long it takes is
# a figure of tests/bench/demo.sh (make bench), not a limit here: a test
# must not fail because the machine is busy or slow.
. "$(dirname "$0")/lib.sh"

test_expect_success 'make demo'"'"'s steps: every output, its path printed' '
	env ACCELBENCH_DB= "$AB" demo -o out >demo.out &&
	sh "$ROOT/runners/demo_outputs.sh" "$AB" out >outputs.out 2>&1 &&
	for f in accelbench.db prices.json results.xlsx runs.csv report.pdf bar.png bargroup.png \
		scaling.png devices.png pareto.png heatmap.png power.png; do
		test -s "out/$f" || { echo "missing out/$f"; exit 1; }
	done &&
	for f in results.xlsx runs.csv report.pdf bar.png power.png; do
		grep -q "^wrote out/$f$" outputs.out || { echo "no path printed for $f"; exit 1; }
	done &&
	grep -q "simulated example data" outputs.out &&
	grep -q "simulated example data" demo.out
'

test_expect_success 'make demo leaves only the database: no -wal or -shm beside it' '
	ls -a out >left && ! grep -E "[-](wal|shm)$" left
'

if $PY -c "import openpyxl" 2>/dev/null; then
test_expect_success 'the workbook'"'"'s first sheet says simulated example data' '
	$PY -c "import openpyxl; ws = openpyxl.load_workbook(\"out/results.xlsx\").worksheets[0]; assert \"simulated example data\" in ws[\"A2\"].value.lower()"
'
else
	test_skip 'the workbook'"'"'s first sheet says simulated example data' 'python3-openpyxl not installed'
fi

test_done
