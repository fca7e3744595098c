#!/bin/sh
# report.sh - time `accelbench report` against the issue's targets:
#   - 100,000-run CARAML corpus (20 systems x 8 batch sizes x 625 repeats):
#     ingest + report <= 3 s together and <= 150 MB peak RSS;
#   - a whole MLPerf training round (1,300 logs, gen_mlperf): report <= 2 s.
# Corpora are generated deterministically into $BENCH_DIR (default
# /tmp/accelbench-bench) and reused.  Prints seconds and peak RSS; asserts
# nothing (figures go into the closing note, honestly).  On a loaded machine
# the CPU time (user + sys) is the fairer figure; both are printed.
set -u
BENCH_DIR=${BENCH_DIR:-/tmp/accelbench-bench}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TIME=/usr/bin/time
export LC_ALL=C
mkdir -p "$BENCH_DIR"
[ -x "$AB_BIN" ] || { echo "report.sh: no binary at AB_BIN='$AB_BIN'" >&2; exit 1; }
. "$(dirname "$0")/lib.sh"
bench_calibrate

secs() { sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1" |
	awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'; }
cpu() { awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$1"; }
rss() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1" | awk '{ printf "%.1f", $1 / 1024 }'; }

dir=$BENCH_DIR/report-caraml
if [ ! -f "$dir.stamp" ]; then
	rm -rf "$dir"
	/usr/bin/python3 "$ROOT/tests/helpers/gen_caraml_runs.py" "$dir" 20 8 625 >/dev/null &&
		touch "$dir.stamp"
fi
db=$BENCH_DIR/report-caraml.db
rm -f "$db" "$db-wal" "$db-shm"
$TIME -v "$AB_BIN" --db "$db" ingest "$dir" >/dev/null 2>"$BENCH_DIR/rc-ingest.time"
$TIME -v "$AB_BIN" --db "$db" report -o "$BENCH_DIR/report-caraml.pdf" \
	2>"$BENCH_DIR/rc-report.time"
i=$(secs "$BENCH_DIR/rc-ingest.time"); r=$(secs "$BENCH_DIR/rc-report.time")
pages=$(pdfinfo "$BENCH_DIR/report-caraml.pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
ic=$(cpu "$BENCH_DIR/rc-ingest.time"); rcpu=$(cpu "$BENCH_DIR/rc-report.time")
printf 'report   caraml 100k runs: ingest %.2f s wall, %s s CPU (%s MB) + report %.2f s wall, %s s CPU (%s MB, %s pages) = %.2f s wall, %.2f s CPU (target 3 s, 150 MB)\n' \
	"$i" "$ic" "$(rss "$BENCH_DIR/rc-ingest.time")" "$r" "$rcpu" "$(rss "$BENCH_DIR/rc-report.time")" \
	"${pages:-?}" "$(echo "$i $r" | awk '{ print $1 + $2 }')" "$(echo "$ic $rcpu" | awk '{ print $1 + $2 }')"

gen=$AB_BUILD/helpers/gen_mlperf
dir=$BENCH_DIR/report-mlperf
if bench_need gen_mlperf; then
	if [ ! -f "$dir.stamp" ] || [ "$gen" -nt "$dir.stamp" ]; then
		rm -rf "$dir"
		"$gen" "$dir" 1300 >/dev/null && touch "$dir.stamp"
	fi
	db=$BENCH_DIR/report-mlperf.db
	if [ ! -f "$db" ] || [ "$dir.stamp" -nt "$db" ]; then
		rm -f "$db" "$db-wal" "$db-shm"
		"$AB_BIN" --db "$db" ingest "$dir" >/dev/null 2>&1
	fi
	$TIME -v "$AB_BIN" --db "$db" report -o "$BENCH_DIR/report-mlperf.pdf" \
		2>"$BENCH_DIR/rm-report.time"
	pages=$(pdfinfo "$BENCH_DIR/report-mlperf.pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
	printf 'report   mlperf 1300 logs: report %.2f s wall, %s s CPU (%s MB, %s pages) (target 2 s)\n' \
		"$(secs "$BENCH_DIR/rm-report.time")" "$(cpu "$BENCH_DIR/rm-report.time")" \
		"$(rss "$BENCH_DIR/rm-report.time")" "${pages:-?}"
fi
