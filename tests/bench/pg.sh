#!/bin/sh
# pg.sh - push and pull speed against a throwaway PostgreSQL server on this
# machine (tests/cli/pg_lib.sh starts it; stopped and removed at the end):
#   caraml   the 100,000-run CARAML corpus of the report benchmark: 20 JUBE
#            result lists of 5,000 runs (gen_caraml_runs.py 20 8 625), ingested
#   caraml-small  100,000 CARAML-shaped runs in 12,500 sources of 8 runs with
#            power samples (gen_pgcaraml): the cost per source
#   reframe  1,000,000 ReFrame runs: a generated perflog tree of 1,290,400 lines
#            (gen_reframe; header and duplicate lines make no run)
# For each: push into an empty store, push again (nothing to send), pull into
# a new SQLite file.  rows = runs + metrics + power samples moved.
# The machine may be shared: next to wall seconds, each line gives the CPU
# seconds (user+sys) of accelbench and of the server's backends (their
# times as the postmaster collected them when they ended), and the 1-minute
# load average when the transfer ended.  After a pull, "order" says whether
# the pulled database lists the sources in the pushing database's order.
# Databases are cached in $BENCH_DIR while the generators' sources are
# unchanged (the binaries relink whenever the library changes).
set -u
BENCH_DIR=${BENCH_DIR:-/tmp/accelbench-bench}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$BENCH_DIR"
export LC_ALL=C
AB=${AB_BIN:?AB_BIN not set}
# autovacuum off: a worker that ends during a transfer would add its CPU
# seconds (vacuuming the tables just filled) to the transfer's cpu-pg
PG_EXTRA_OPTS="-c fsync=on -c shared_buffers=512MB -c max_wal_size=8GB -c checkpoint_timeout=30min -c autovacuum=off"
. "$ROOT/tests/cli/pg_lib.sh"
. "$ROOT/tests/bench/lib.sh"
bench_need gen_pgcaraml gen_reframe || exit 2
if ! pg_start; then
	echo "pg: skipped: $PG_WHY"
	exit 0
fi

TCK=$(getconf CLK_TCK)
# CPU seconds the postmaster collected from its ended children (the backends)
server_cpu() {
	pid=$(head -1 "$PG_DIR/data/postmaster.pid")
	awk -v t="$TCK" '{ sub(/^.*\) /, ""); printf "%.2f\n", ($14 + $15) / t }' "/proc/$pid/stat"
}
# rows moved, from a push/pull summary line
rows() { sed -n 's/.*; added \([^;]*\).*$/\1/p' "$1" | tr ',' '\n' | awk '{ s += $1 } END { print s + 0 }'; }
TF=$BENCH_DIR/pg-time
# timed CMD...: runs it, sets WALL, CPU (accelbench user+sys) and SCPU (server)
timed() {
	s0=$(server_cpu)
	/usr/bin/time -f '%e %U %S' -o "$TF" "$@" || return 1
	sleep 1 # the postmaster collects the ended backends' times
	s1=$(server_cpu)
	WALL=$(awk '{ print $1 }' "$TF"); CPU=$(awk '{ print $2 + $3 }' "$TF")
	LOAD=$(cut -d' ' -f1 /proc/loadavg)
	SCPU=$(awk -v a="$s0" -v b="$s1" 'BEGIN { print b - a }')
}
line() { # corpus what rows
	awk -v c="$1" -v w="$2" -v r="$3" -v s="$WALL" -v u="$CPU" -v v="$SCPU" -v l="$LOAD" 'BEGIN {
		if (s <= 0) s = 0.001
		printf "%-12s %-8s %10d %9.2f %12.0f %8.2f %8.2f %6.2f\n", c, w, r, s, r / s, u, v, l }'
}

corpus_db() { # name -> path of a cached local database
	# a cache this binary cannot read (an older schema) is built again
	for c in "$BENCH_DIR/pg-caraml100k.db" "$BENCH_DIR/pg-caraml.db" "$BENCH_DIR/pg-reframe.db"; do
		[ ! -f "$c" ] || "$AB" --db "$c" ls sources >/dev/null 2>&1 || rm -f "$c" "$c-wal" "$c-shm"
	done
	case $1 in
	caraml)
		dir=$BENCH_DIR/report-caraml; db=$BENCH_DIR/pg-caraml100k.db
		if [ ! -f "$dir.stamp" ]; then
			rm -rf "$dir"
			/usr/bin/python3 "$ROOT/tests/helpers/gen_caraml_runs.py" "$dir" 20 8 625 \
				>/dev/null && touch "$dir.stamp" || return 1
		fi
		if [ ! -f "$db" ] || [ "$dir.stamp" -nt "$db" ]; then
			rm -f "$db" "$db-wal" "$db-shm"
			"$AB" --db "$db" ingest "$dir" >/dev/null 2>&1 || return 1
		fi ;;
	caraml-small)
		gen=$AB_BUILD/helpers/gen_pgcaraml; db=$BENCH_DIR/pg-caraml.db
		if [ ! -f "$db" ] || [ "$ROOT/tests/helpers/gen_pgcaraml.c" -nt "$db" ]; then
			rm -f "$db" "$db-wal" "$db-shm"
			"$gen" "$db" 100000 >/dev/null || return 1
		fi ;;
	reframe)
		gen=$AB_BUILD/helpers/gen_reframe; db=$BENCH_DIR/pg-reframe.db; dir=$BENCH_DIR/pg-reframe
		if [ ! -f "$db" ] || [ "$ROOT/tests/helpers/gen_reframe.c" -nt "$db" ]; then
			rm -rf "$db" "$db-wal" "$db-shm" "$dir"
			"$gen" "$dir" 1290400 >/dev/null && "$AB" --db "$db" ingest "$dir" >/dev/null 2>&1 ||
				return 1
			rm -rf "$dir"
		fi ;;
	esac
	echo "$db"
}

printf '%-12s %-8s %10s %9s %12s %8s %8s %6s\n' corpus transfer rows seconds rows/s cpu-ab cpu-pg load1
for name in ${PG_BENCH:-caraml caraml-small reframe}; do
	db=$(corpus_db $name) || { echo "$name: cannot build the corpus"; continue; }
	"$PG_BIN/psql" -X -q -d "$PG_URL" -c "CREATE DATABASE \"bench_$name\"" || continue
	url="host=$PG_DIR user=ab dbname=bench_$name"
	"$AB" pg init --url "$url" --no-reader >/dev/null || continue
	timed sh -c '"$0" --db "$1" push --to "$2" >"$3"' "$AB" "$db" "$url" "$BENCH_DIR/pg-$name.push" || continue
	line $name push "$(rows "$BENCH_DIR/pg-$name.push")"
	timed "$AB" --db "$db" push --to "$url" >/dev/null || continue
	line $name re-push 0
	new=$BENCH_DIR/pg-$name-pulled.db; rm -f "$new" "$new-wal" "$new-shm"
	timed sh -c '"$0" --db "$1" pull --from "$2" >"$3"' "$AB" "$new" "$url" "$BENCH_DIR/pg-$name.pull" || continue
	line $name pull "$(rows "$BENCH_DIR/pg-$name.pull")"
	order() { "$AB" --db "$1" sql --csv "SELECT sha256 FROM source ORDER BY id"; }
	if [ "$(order "$db" | cksum)" = "$(order "$new" | cksum)" ]; then
		echo "         order: the pulled sources in the pushing database's order"
	else
		echo "         order: DIFFERENT from the pushing database's"
	fi
	sed 's/^/         /' "$BENCH_DIR/pg-$name.push" "$BENCH_DIR/pg-$name.pull"
	rm -f "$new" "$new-wal" "$new-shm"
	"$PG_BIN/psql" -X -q -d "$PG_URL" -c "DROP DATABASE \"bench_$name\""
done
