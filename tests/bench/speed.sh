#!/bin/sh
# speed.sh - the figures of issue 13's "Speed and size": ReFrame perflog
# trees at 1x/4x/16x (lines/s end to end, peak RSS, database size against
# the input), a whole MLPerf training round, CARAML tables.  Corpora are
# generated deterministically under $SPEED_DIR (default $AB_BUILD/bench)
# and reused while the generator is unchanged; each ingest gets a fresh
# database.  Wall-clock figures depend on what else the machine runs; the
# two goals (4x, MLPerf) are run SPEED_REPEAT times more (default 5) for
# their best and median.
#   AB_BIN=... AB_BUILD=... sh tests/bench/speed.sh
set -u
: "${AB_BIN:?}" "${AB_BUILD:?}"
DIR=${SPEED_DIR:-$AB_BUILD/bench}
BASE=${SPEED_LINES:-75000}   # 1x; 4x is the 300,000-line tree of the issue
mkdir -p "$DIR"
export LC_ALL=C
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "speed: /usr/bin/time is missing (apt-get install time)"; exit 2; }
. "$(dirname "$0")/lib.sh"
bench_need gen_reframe gen_mlperf gen_caraml || exit 2
bench_calibrate

# gen NAME GENERATOR ARG -> $DIR/NAME, regenerated when the generator changed
gen() {
	d="$DIR/$1"; stamp="$d.stamp"
	if [ ! -f "$stamp" ] || [ "$2" -nt "$stamp" ] || [ "$(cat "$stamp")" != "$3" ]; then
		rm -rf "$d"
		"$2" "$d" "$3" >"$d.gen" || { echo "speed: $2 failed"; return 1; }
		echo "$3" >"$stamp"
	fi
}

# run NAME [ingest options]: ingest $DIR/NAME into a fresh database; sets
# secs, rss_mb, cpu (user+sys), db_bytes, in_bytes
run() {
	n=$1; shift
	db="$DIR/$n.db"
	rm -f "$db" "$db-wal" "$db-shm"
	$TIME -f "%e %M %U %S" -o "$DIR/$n.time" "$AB_BIN" --db "$db" ingest "$@" "$DIR/$n" \
		>"$DIR/$n.out" 2>"$DIR/$n.err"
	set -- $(cat "$DIR/$n.time" | tail -1)
	secs=$1; rss_mb=$(awk -v k="$2" 'BEGIN { printf "%.1f", k / 1024 }'); cpu=$(awk -v u="$3" -v s="$4" 'BEGIN { printf "%.2f", u + s }')
	db_bytes=$(stat -c %s "$db" 2>/dev/null || echo 0)
	in_bytes=$(du -sb "$DIR/$n" | cut -f1)
}

# repeat NAME N: run NAME N times (fresh database each), print the best and
# the median wall time: one run on these VMs swings by tens of percent
repeat() {
	rp_all=""
	for rp_i in $(seq 1 "$2"); do
		run "$1"
		rp_all="$rp_all $secs"
	done
	echo "$rp_all" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk -v n="$2" -v what="$3" '
		{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "  %s, %d runs: best %.2f s, median %.2f s (all:", what, NR, v[1], m
		for (i = 1; i <= NR; i++) printf " %.2f", v[i]
		printf ")\n" }'
}
REPEAT=${SPEED_REPEAT:-5}

echo "ReFrame perflog trees (generated; $BASE lines = 1x)"
printf '  %-5s %9s %8s %8s %8s %11s %8s %8s %9s\n' size lines MB wall_s cpu_s lines/s RSS_MB DB_MB DB/input
for k in 1 4 16; do
	name=rf$k; lines=$((BASE * k))
	gen "$name" "$AB_BUILD/helpers/gen_reframe" "$lines" || continue
	run "$name"
	printf '  %-5s %9d %8.1f %8.2f %8s %11.0f %8s %8.1f %9.2f\n' "${k}x" "$lines" \
		"$(echo "$in_bytes" | awk '{ print $1 / 1e6 }')" "$secs" "$cpu" \
		"$(awk -v l="$lines" -v s="$secs" 'BEGIN { print l / (s > 0 ? s : 0.001) }')" "$rss_mb" \
		"$(echo "$db_bytes" | awk '{ print $1 / 1e6 }')" \
		"$(awk -v d="$db_bytes" -v i="$in_bytes" 'BEGIN { print d / i }')"
	eval "t$k=$secs c$k=$cpu r$k=$rss_mb"
done
awk -v a="${t1:-0}" -v b="${t4:-0}" -v c="${t16:-0}" -v ca="${c1:-0}" -v cb="${c4:-0}" -v cc="${c16:-0}" 'BEGIN {
	if (a > 0) printf "  linearity: 4x took %.2fx the 1x wall time, 16x %.2fx; CPU %.2fx and %.2fx (linear: 4, 16)\n", b / a, c / a, cb / ca, cc / ca }'
echo "  peak RSS 1x/4x/16x: ${r1:-?} / ${r4:-?} / ${r16:-?} MB"
tail -1 "$DIR/rf4.out" | sed 's/^/  4x: /'
[ -d "$DIR/rf4" ] && [ "$REPEAT" -gt 1 ] &&
	repeat rf4 "$REPEAT" "4x again (goal 300,000 lines/s: $(awk -v l="$((BASE * 4))" 'BEGIN { printf "%.2f", l / 300000 }') s)"
# the writer's share: the same 4x tree on one thread, and parsed only
if [ -d "$DIR/rf4" ]; then
	export AB_INGEST_THREADS=1; run rf4; one=$cpu; one_s=$secs; unset AB_INGEST_THREADS
	run rf4 --dry-run; parse=$cpu
	awk -v o="$one" -v p="$parse" -v w="$one_s" -v l="$((BASE * 4))" 'BEGIN {
		printf "  4x on one thread: %.2f s wall, %.2f s CPU = parse %.2f s (--dry-run) + store %.2f s (%.0f lines/s stored)\n",
			w, o, p, o - p, (o - p > 0 ? l / (o - p) : 0) }'
fi

echo "MLPerf training round (generated, 1300 logs; goal <= 0.5 s)"
if gen mlperf "$AB_BUILD/helpers/gen_mlperf" 1300; then
	name=mlperf; run mlperf
	printf '  %.1f MB in %.2f s wall (%.2f s CPU), %s MB RSS\n' \
		"$(echo "$in_bytes" | awk '{ print $1 / 1e6 }')" "$secs" "$cpu" "$rss_mb"
	tail -1 "$DIR/mlperf.out" | sed 's/^/  /'
	[ "$REPEAT" -gt 1 ] && repeat mlperf "$REPEAT" "again (goal: <= 0.5 s)"
	# where the time goes: parsed only, and everything on one thread
	run mlperf --dry-run; p_cpu=$cpu; p_s=$secs
	export AB_INGEST_THREADS=1; run mlperf; o_cpu=$cpu; o_s=$secs; unset AB_INGEST_THREADS
	printf '  parse only (--dry-run): %.2f s wall, %.2f s CPU; one thread: %.2f s wall, %.2f s CPU\n' \
		"$p_s" "$p_cpu" "$o_s" "$o_cpu"
	# SHA-256 of every byte: SHA extensions, else AVX-512/AVX2 lanes, else portable
	printf '  CPU: %s; load average %s\n' \
		"$( (grep -o -w 'sha_ni\|avx512f\|avx2' /proc/cpuinfo 2>/dev/null || echo unknown) | sort -u | tr '\n' ' ')" \
		"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
fi

echo "CARAML JUBE tables (generated, factor 40)"
if gen caraml "$AB_BUILD/helpers/gen_caraml" 40; then
	name=caraml; run caraml
	recs=$(sed -n 's/.*; added \([^;]*\).*$/\1/p' "$DIR/caraml.out" | tr ',' '\n' | awk '{ s += $1 } END { print s + 0 }')
	printf '  %.1f MB in %.2f s wall (%.2f s CPU): %.0f records/s, %s MB RSS\n' \
		"$(echo "$in_bytes" | awk '{ print $1 / 1e6 }')" "$secs" "$cpu" \
		"$(awk -v r="$recs" -v s="$secs" 'BEGIN { print r / (s > 0 ? s : 0.001) }')" "$rss_mb"
	tail -1 "$DIR/caraml.out" | sed 's/^/  /'
fi
