# lib.sh - sourced by tests/bench/*.sh:  . "$(dirname "$0")/lib.sh"
#
# bench_need NAME...: each $AB_BUILD/helpers/NAME (a corpus generator) is
# built and not older than what it is built from (tests/helpers/NAME.c,
# gen_util.h, $AB_BUILD/libaccelbench.a); else says which and returns 1.
# Plain `make` rebuilds the library but not the helpers, and a stale
# generator writes a corpus of an older schema; `make bench` (bench-bins)
# builds both.
BENCH_ROOT=${BENCH_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}

bench_need() {
	: "${AB_BUILD:?AB_BUILD not set}"
	for bn_name in "$@"; do
		bn_h=$AB_BUILD/helpers/$bn_name
		if [ ! -x "$bn_h" ]; then
			echo "bench: no $bn_h (make bench-bins, or make bench)" >&2
			return 1
		fi
		for bn_dep in "$BENCH_ROOT/tests/helpers/$bn_name.c" \
			"$BENCH_ROOT/tests/helpers/gen_util.h" "$AB_BUILD/libaccelbench.a"; do
			if [ -e "$bn_dep" ] && [ "$bn_dep" -nt "$bn_h" ]; then
				echo "bench: $bn_h is older than $bn_dep (make bench-bins, or make bench)" >&2
				return 1
			fi
		done
	done
	return 0
}

# bench_calibrate: print how long a fixed single-core job takes here (the
# SHA-256 of 256 MiB of zeros through coreutils' sha256sum) with the load
# average.  These VMs run the same binary up to 2x slower at some hours
# with nothing else running; a figure is comparable with another only when
# this line is too.
bench_calibrate() {
	bc_t0=$(date +%s.%N)
	dd if=/dev/zero bs=1M count=256 2>/dev/null | sha256sum >/dev/null
	bc_t1=$(date +%s.%N)
	awk -v a="$bc_t0" -v b="$bc_t1" -v l="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" \
		'BEGIN { printf "machine: sha256sum of 256 MiB took %.2f s (compare figures only across equal values); load %s\n", b - a, l }'
}
