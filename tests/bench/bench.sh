#!/bin/sh
# bench.sh - time `accelbench ingest` on large generated corpora, one per
# format family, and print MB/s, records/s and peak RSS.
#
# Corpora are generated deterministically by $AB_BUILD/helpers/gen_<name>
# into $BENCH_DIR (default /tmp/accelbench-bench; never committed) and
# reused while the generator binary is unchanged.  Each corpus is ingested
# into a fresh database; a second ingest of the same tree measures the
# "already ingested" path (hashing only).
set -u
BENCH_DIR=${BENCH_DIR:-/tmp/accelbench-bench}
mkdir -p "$BENCH_DIR"
export LC_ALL=C
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench: /usr/bin/time is missing (apt-get install time)"; exit 2; }
. "$(dirname "$0")/lib.sh"
bench_need gen_caraml gen_mlperf gen_reframe || exit 2
bench_calibrate

# name  generator-args (the generator's own size knob)
CORPORA="
caraml 40
mlperf 1300
reframe 3000000
"

printf '%-8s %9s %9s %10s %12s %9s %10s\n' corpus MB seconds MB/s records/s RSS_MB rerun_s
echo "$CORPORA" | while read -r name size; do
	[ -n "$name" ] || continue
	gen="$AB_BUILD/helpers/gen_$name"
	if [ ! -x "$gen" ]; then
		printf '%-8s (no generator %s yet)\n' "$name" "$gen"
		continue
	fi
	dir="$BENCH_DIR/$name"
	stamp="$dir.stamp"
	if [ ! -f "$stamp" ] || [ "$gen" -nt "$stamp" ] || [ "$(cat "$stamp")" != "$size" ]; then
		rm -rf "$dir"
		"$gen" "$dir" "$size" >/dev/null || { echo "bench: $gen failed"; continue; }
		echo "$size" > "$stamp"
	fi
	bytes=$(du -sb "$dir" | cut -f1)
	db="$BENCH_DIR/$name.db"
	rm -f "$db" "$db-wal" "$db-shm"
	$TIME -v "$AB_BIN" --db "$db" ingest "$dir" >"$BENCH_DIR/$name.out" 2>"$BENCH_DIR/$name.time"
	secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$BENCH_DIR/$name.time" |
		awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$BENCH_DIR/$name.time")
	# records = runs + metrics + power samples, from the summary line
	recs=$(sed -n 's/.*; added \([^;]*\).*$/\1/p' "$BENCH_DIR/$name.out" |
		tr ',' '\n' | awk '{ s += $1 } END { print s + 0 }')
	$TIME -v "$AB_BIN" --db "$db" ingest "$dir" >/dev/null 2>"$BENCH_DIR/$name.time2"
	secs2=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$BENCH_DIR/$name.time2" |
		awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	awk -v n="$name" -v b="$bytes" -v s="$secs" -v r="$recs" -v k="$rss" -v s2="$secs2" 'BEGIN {
		if (s <= 0) s = 0.001
		printf "%-8s %9.1f %9.2f %10.1f %12.0f %9.1f %10.2f\n", n, b / 1e6, s, b / 1e6 / s, r / s, k / 1024, s2 }'
	tail -1 "$BENCH_DIR/$name.out" | sed 's/^/         /'
done
# issue 15: push/pull of 100,000 CARAML and 1,000,000 ReFrame runs (tests/bench/pg.sh)
sh "$(dirname "$0")/pg.sh"
sh "$(dirname "$0")/realdata.sh"
# issue 13: ReFrame 1x/4x/16x, MLPerf round, CARAML (tests/bench/speed.sh)
sh "$(dirname "$0")/speed.sh"
# issue 11: export of a 100,000-run corpus to CSV, JSON and XLSX (tests/bench/export.sh)
sh "$(dirname "$0")/export.sh"
# issue 10: report on a 100,000-run CARAML corpus and an MLPerf round (tests/bench/report.sh)
sh "$(dirname "$0")/report.sh"
# `make demo`'s steps, timed (t4506 checks what they write, not how fast)
sh "$(dirname "$0")/demo.sh"
