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
# Databases are cached in $BENCH_DIR while the generators are unchanged.
set -u
BENCH_DIR=${BENCH_DIR:-/tmp/accelbench-bench}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$BENCH_DIR"
export LC_ALL=C
AB=${AB_BIN:?AB_BIN not set}
PG_EXTRA_OPTS="-c fsync=on -c shared_buffers=512MB -c max_wal_size=8GB -c checkpoint_timeout=30min"
. "$ROOT/tests/cli/pg_lib.sh"
if ! pg_start; then
	echo "pg: skipped: $PG_WHY"
	exit 0
fi

now() { date +%s.%N; }
# rows moved, from a push/pull summary line
rows() { sed -n 's/.*; added \([^;]*\).*$/\1/p' "$1" | tr ',' '\n' | awk '{ s += $1 } END { print s + 0 }'; }
line() { # corpus what rows seconds
	awk -v c="$1" -v w="$2" -v r="$3" -v s="$4" 'BEGIN {
		if (s <= 0) s = 0.001
		printf "%-12s %-8s %10d %9.2f %12.0f\n", c, w, r, s, r / s }'
}

corpus_db() { # name -> path of a cached local database
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
		if [ ! -f "$db" ] || [ "$gen" -nt "$db" ]; then
			rm -f "$db" "$db-wal" "$db-shm"
			"$gen" "$db" 100000 >/dev/null || return 1
		fi ;;
	reframe)
		gen=$AB_BUILD/helpers/gen_reframe; db=$BENCH_DIR/pg-reframe.db; dir=$BENCH_DIR/pg-reframe
		if [ ! -f "$db" ] || [ "$gen" -nt "$db" ]; then
			rm -rf "$db" "$db-wal" "$db-shm" "$dir"
			"$gen" "$dir" 1290400 >/dev/null && "$AB" --db "$db" ingest "$dir" >/dev/null 2>&1 ||
				return 1
			rm -rf "$dir"
		fi ;;
	esac
	echo "$db"
}

printf '%-12s %-8s %10s %9s %12s\n' corpus transfer rows seconds rows/s
for name in caraml caraml-small reframe; do
	db=$(corpus_db $name) || { echo "$name: cannot build the corpus"; continue; }
	"$PG_BIN/psql" -X -q -d "$PG_URL" -c "CREATE DATABASE \"bench_$name\"" || continue
	url="host=$PG_DIR user=ab dbname=bench_$name"
	"$AB" pg init --url "$url" --no-reader >/dev/null || continue
	t0=$(now); "$AB" --db "$db" push --to "$url" >"$BENCH_DIR/pg-$name.push" || continue; t1=$(now)
	line $name push "$(rows "$BENCH_DIR/pg-$name.push")" "$(awk -v a="$t0" -v b="$t1" "BEGIN { print b - a }")"
	t0=$(now); "$AB" --db "$db" push --to "$url" >/dev/null || continue; t1=$(now)
	line $name re-push 0 "$(awk -v a="$t0" -v b="$t1" "BEGIN { print b - a }")"
	new=$BENCH_DIR/pg-$name-pulled.db; rm -f "$new" "$new-wal" "$new-shm"
	t0=$(now); "$AB" --db "$new" pull --from "$url" >"$BENCH_DIR/pg-$name.pull" || continue; t1=$(now)
	line $name pull "$(rows "$BENCH_DIR/pg-$name.pull")" "$(awk -v a="$t0" -v b="$t1" "BEGIN { print b - a }")"
	sed 's/^/         /' "$BENCH_DIR/pg-$name.push" "$BENCH_DIR/pg-$name.pull"
	rm -f "$new" "$new-wal" "$new-shm"
	"$PG_BIN/psql" -X -q -d "$PG_URL" -c "DROP DATABASE \"bench_$name\""
done
