#!/bin/sh
# demo.sh - how long `make demo`'s steps take (accelbench demo, then
# runners/demo_outputs.sh): wall and CPU seconds (user + sys) of each step
# and the 1-minute load average when it ended.  A figure, never a limit:
# t4506 checks what the demo writes, not how fast (a busy machine is no
# failure).  Output goes to $BENCH_DIR/demo (default /tmp/accelbench-bench).
#   AB_BIN=... sh tests/bench/demo.sh
set -u
: "${AB_BIN:?AB_BIN not set}"
BENCH_DIR=${BENCH_DIR:-/tmp/accelbench-bench}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "demo bench: /usr/bin/time is missing (apt-get install time)"; exit 2; }
out=$BENCH_DIR/demo
rm -rf "$out"
mkdir -p "$BENCH_DIR"
export LC_ALL=C

# step NAME CMD...: run it, print wall, CPU and load
step() {
	name=$1; shift
	"$TIME" -f '%e %U %S' -o "$BENCH_DIR/demo-time" "$@" >"$BENCH_DIR/demo-$name.out" 2>&1 ||
		{ echo "demo bench: $name failed (see $BENCH_DIR/demo-$name.out)"; return 1; }
	awk -v n="$name" -v l="$(cut -d' ' -f1 /proc/loadavg)" '{
		printf "%-10s %9.2f %9.2f %6s\n", n, $1, $2 + $3, l }' "$BENCH_DIR/demo-time"
}

printf '%-10s %9s %9s %6s\n' demo wall_s cpu_s load1
step campaign env ACCELBENCH_DB= "$AB_BIN" demo -o "$out" &&
	step outputs sh "$ROOT/runners/demo_outputs.sh" "$AB_BIN" "$out"
