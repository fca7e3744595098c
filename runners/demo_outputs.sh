#!/bin/sh
# demo_outputs.sh BIN DIR - what `make demo` writes after `accelbench demo -o
# DIR`: the workbook, a CSV of every run, the PDF report and one PNG per
# chart kind, all from DIR/accelbench.db (simulated example data, and each
# output says so).  Every command prints the path it wrote.
set -eu
AB=$1; OUT=$2
DB="--db $OUT/accelbench.db"
$AB $DB export -o "$OUT/results.xlsx" --prices "$OUT/prices.json" --baseline A100
$AB $DB export -o "$OUT/runs.csv"
$AB $DB report -o "$OUT/report.pdf" --prices "$OUT/prices.json"
$AB $DB plot bar -b llm-gpt-800M --baseline A100 -o "$OUT/bar.png"
$AB $DB plot bargroup --suite caraml --baseline A100 -o "$OUT/bargroup.png"
$AB $DB plot scaling -b llm-gpt-800M -o "$OUT/scaling.png"
$AB $DB plot devices -b resnet50 -o "$OUT/devices.png"
$AB $DB plot pareto -b llm-gpt-800M -o "$OUT/pareto.png"
$AB $DB plot heatmap --suite caraml --baseline A100 -o "$OUT/heatmap.png"
$AB $DB plot power -o "$OUT/power.png"
echo "demo: database $OUT/accelbench.db; outputs in $OUT/ (simulated example data):"
echo "  results.xlsx runs.csv report.pdf bar.png bargroup.png scaling.png devices.png pareto.png heatmap.png power.png"
