#!/bin/sh
# t0029-bench-build: `make bench` builds every corpus generator that
# tests/bench/*.sh runs, and the scripts refuse a generator that is missing
# or older than the library (plain `make` rebuilds only the library and the
# binary; a stale generator once wrote a corpus of an older schema).
. "$(dirname "$0")/lib.sh"

test_expect_success 'make bench-run builds every helpers/NAME the bench scripts use' '
	cat "$ROOT"/tests/bench/*.sh | grep -o "helpers/gen_[a-z_]*\|bench_need [a-z_ ]*" |
		sed "s|helpers/||; s|bench_need||" | tr " " "\n" | grep -x "gen_[a-z_]*[a-z]" | sort -u >used &&
	for h in $(cat used); do test ! -f "$ROOT/tests/helpers/$h.c" || echo "$h"; done >built &&
	test "$(wc -l <built)" -ge 4 &&
	make -n -C "$ROOT" BUILD="$TRASH/b" BIN="$TRASH/b/ab" bench-run >plan 2>&1 &&
	for h in $(cat built); do
		grep -q -- "-o $TRASH/b/helpers/$h " plan || { echo "make bench-run does not build $h"; exit 1; }
	done
'

test_expect_success 'bench_need refuses a missing or stale generator and accepts a fresh one' '
	BENCH_ROOT=$ROOT; export BENCH_ROOT; mkdir -p b/helpers &&
	(AB_BUILD=$TRASH/b; . "$ROOT/tests/bench/lib.sh"; ! bench_need gen_reframe) 2>err1 &&
	grep -q "no .*/helpers/gen_reframe (make bench-bins" err1 &&
	printf "#!/bin/sh\n" >b/helpers/gen_reframe && chmod +x b/helpers/gen_reframe &&
	touch -d "@$(($(date +%s) + 3600))" b/libaccelbench.a &&
	(AB_BUILD=$TRASH/b; . "$ROOT/tests/bench/lib.sh"; ! bench_need gen_reframe) 2>err2 &&
	grep -q "gen_reframe is older than .*/b/libaccelbench.a" err2 &&
	touch -d "2000-01-01 00:00:00" b/libaccelbench.a &&
	(AB_BUILD=$TRASH/b; . "$ROOT/tests/bench/lib.sh"; bench_need gen_reframe) 2>err3 &&
	test ! -s err3 &&
	touch -d "2000-01-01 00:00:00" b/helpers/gen_reframe &&
	(AB_BUILD=$TRASH/b; . "$ROOT/tests/bench/lib.sh"; ! bench_need gen_reframe) 2>err4 &&
	grep -q "gen_reframe is older than .*tests/helpers/gen_reframe.c" err4
'

test_done
