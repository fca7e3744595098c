#!/bin/sh
# export.sh - issue 11's speed figures: `accelbench export` of a corpus of
# about 100,000 runs (a generated ReFrame perflog tree, tests/helpers/
# gen_reframe) to CSV, JSON and XLSX: wall seconds, peak RSS, output size.
# Targets: <= 2 s and <= 150 MB each.  The corpus and its database live in
# $EXPORT_DIR (default $AB_BUILD/bench) and are reused while the generator
# is unchanged.  Wall-clock figures depend on what else the machine runs.
#   AB_BIN=... AB_BUILD=... sh tests/bench/export.sh
set -u
: "${AB_BIN:?}" "${AB_BUILD:?}"
DIR=${EXPORT_DIR:-$AB_BUILD/bench}
LINES=${EXPORT_LINES:-120000}
mkdir -p "$DIR"
export LC_ALL=C
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "export bench: /usr/bin/time is missing (apt-get install time)"; exit 2; }
. "$(dirname "$0")/lib.sh"
bench_need gen_reframe || exit 2
gen="$AB_BUILD/helpers/gen_reframe"
corpus="$DIR/export-reframe"; db="$DIR/export.db"; stamp="$corpus.stamp"
if [ ! -f "$stamp" ] || [ "$gen" -nt "$stamp" ] || [ "$AB_BIN" -nt "$stamp" ] ||
   [ "$(cat "$stamp")" != "$LINES" ] || [ ! -f "$db" ]; then
	rm -rf "$corpus" "$db" "$db-wal" "$db-shm"
	"$gen" "$corpus" "$LINES" >/dev/null || { echo "export bench: $gen failed"; exit 1; }
	"$AB_BIN" --db "$db" ingest "$corpus" >/dev/null 2>"$DIR/export-ingest.err" ||
		{ echo "export bench: ingest failed: $(tail -3 "$DIR/export-ingest.err")"; exit 1; }
	echo "$LINES" >"$stamp"
fi
runs=$("$AB_BIN" --db "$db" sql "SELECT count(*) FROM run" | tail -1)
metrics=$("$AB_BIN" --db "$db" sql "SELECT count(*) FROM metric" | tail -1)
echo "export of $runs runs ($metrics metrics; generated ReFrame corpus, $LINES perflog lines)"
printf '%-30s %8s %8s %8s %8s  %s\n' what wall_s cpu_s RSS_MB out_MB target
for spec in "runs.csv|" "runs.json|" "stats.json|--what stats" "results.xlsx|"; do
	out=${spec%%|*}; args=${spec#*|}
	rm -f "$DIR/$out"
	# shellcheck disable=SC2086
	$TIME -f "%e %M %U %S" -o "$DIR/export.time" "$AB_BIN" --db "$db" export -o "$DIR/$out" $args \
		>/dev/null 2>"$DIR/export.err" || { echo "$out: failed: $(cat "$DIR/export.err")"; continue; }
	set -- $(tail -1 "$DIR/export.time")
	size=$(stat -c %s "$DIR/$out")
	awk -v w="-o $out $args" -v s="$1" -v k="$2" -v u="$3" -v y="$4" -v b="$size" 'BEGIN {
		ok = (s <= 2.0 && k / 1024 <= 150) ? "ok" : "MISSED"
		printf "%-30s %8.2f %8.2f %8.1f %8.1f  %s (<= 2 s, <= 150 MB)\n", w, s, u + y, k / 1024, b / 1e6, ok }'
done
