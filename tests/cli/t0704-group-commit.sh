#!/bin/sh
# t0704-group-commit: with its writer thread, ingest commits files in
# groups (one SQLite transaction, a savepoint per file).  Every file still
# lands whole or not at all, the database bytes and every message are the
# same as with a commit per file and with one thread, and a group that
# cannot be committed is not counted as stored.  AB_INGEST_GROUP=N sets
# the files per commit (1: one each).
. "$(dirname "$0")/lib.sh"

# ingest_groups NAME PATH...: one thread, then the writer thread committing
# 1, 2, 3 and the default number of files at once; the same output, exit
# code and database bytes every time
ingest_groups() {
	n=$1; shift
	AB_INGEST_THREADS=1 ab --db "$n-one.db" ingest -v "$@" >"$n-one.out" 2>"$n-one.err"
	echo "exit $?" >>"$n-one.out"
	for g in 1 2 3 default; do
		if [ $g = default ]; then
			ab --db "$n-$g.db" ingest -v "$@" >"$n-$g.out" 2>"$n-$g.err"
		else
			AB_INGEST_GROUP=$g ab --db "$n-$g.db" ingest -v "$@" >"$n-$g.out" 2>"$n-$g.err"
		fi
		echo "exit $?" >>"$n-$g.out"
		test_cmp "$n-one.out" "$n-$g.out" && test_cmp "$n-one.err" "$n-$g.err" &&
		cmp "$n-one.db" "$n-$g.db" || return 1
	done
}

test_expect_success 'files committed together: the same database bytes and messages as one by one' '
	ingest_groups all "$FIXTURES/reframe" "$FIXTURES/caraml" "$FIXTURES/mlperf" "$FIXTURES/systems" &&
	grep -q "^exit 1$" all-default.out && grep -q "rejected" all-default.out
'

# AB_INGEST_DIGEST=late: no digest is there when a file's parse starts;
# into a database that held no source the writer begins the file without
# it and checks it at the file's end
test_expect_success 'digests checked at the end of each file: the same database bytes and messages' '
	AB_INGEST_DIGEST=late; export AB_INGEST_DIGEST &&
	ingest_groups late "$FIXTURES/reframe" "$FIXTURES/caraml" "$FIXTURES/mlperf" "$FIXTURES/systems"
'

test_expect_success 'two copies of a file, digests checked at the end: the copy is skipped, as one thread does' '
	mkdir -p dup/perflogs/sysa/part1 dup/perflogs/sysa/part2 &&
	cp "$FIXTURES/reframe/good/perflogs/sysa/part1/Bench43.log" dup/perflogs/sysa/part1/ &&
	cp "$FIXTURES/reframe/good/perflogs/sysa/part1/Bench43.log" dup/perflogs/sysa/part2/ &&
	AB_INGEST_DIGEST=late; export AB_INGEST_DIGEST &&
	ingest_groups dup dup && grep -q "^skipped dup/perflogs/sysa/part2/Bench43.log" dup-default.err
'

test_expect_success 'a file rejected mid-parse in a group rolls back alone; the files around it are stored' '
	mkdir -p grp/a grp/b grp/c &&
	cp -R "$FIXTURES/reframe/good/perflogs" grp/a/ &&
	cp "$FIXTURES/reframe/bad/short.log" grp/b/ &&
	cp -R "$FIXTURES/caraml/tree" grp/c/ &&
	AB_INGEST_GROUP=1000 expect_code 1 ab --db grp.db ingest grp >grp.out 2>grp.err &&
	grep -q "grp/b/short.log:3:" grp.err &&
	ab --db grp.db sql --csv "SELECT count(*) FROM source WHERE path LIKE \"%short.log\"" >actual &&
	printf "count(*)\n0\n" >expect && test_cmp expect actual &&
	ab --db grp.db sql --csv "SELECT count(*) > 0 FROM source WHERE path LIKE \"grp/a/%\"" >actual &&
	ab --db grp.db sql --csv "SELECT count(*) > 0 FROM source WHERE path LIKE \"grp/c/%\"" >>actual &&
	printf "count(*) > 0\n1\ncount(*) > 0\n1\n" >expect && test_cmp expect actual &&
	n=$(sed -n "s/^\([0-9]*\) files ingested.*/\1/p" grp.out) &&
	test "$n" = "$(sqlite3 grp.db "SELECT count(*) FROM source")" &&
	orphans grp.db &&
	AB_INGEST_THREADS=1 ab --db grp-one.db ingest grp >/dev/null 2>&1;
	cmp grp-one.db grp.db
'

if unshare -m true 2>/dev/null; then
test_expect_success 'a full disk at a group commit: that group is not counted, and the message says so' '
	rm -rf full big && mkdir full &&
	ACCELBENCH_DB= ab demo -o big --repeats 30 >/dev/null &&
	AB_INGEST_GROUP=3 unshare -m sh -c "mount -t tmpfs -o size=6m none full &&
		\"$AB\" --db full/x.db ingest big/data >out 2>err; echo \$? >rc;
		\"$AB\" --db full/x.db sql --csv \"SELECT (SELECT count(*) FROM source), (SELECT count(*) FROM run)\" >stored 2>&1; true" &&
	test "$(cat rc)" = 3 && grep -q "database or disk is full" err &&
	grep -q "lost with it" err &&
	files=$(sed -n "s/^\([0-9]*\) files ingested.*/\1/p" out) &&
	runs=$(sed -n "s/.*; added \([0-9]*\) runs\{0,1\},.*/\1/p" out) &&
	test "$files,$runs" = "$(tail -1 stored)" && test "$files" -gt 0 ||
	{ cat out err stored; exit 1; }
'
else
test_skip 'a full disk at a group commit: that group is not counted, and the message says so' 'no unshare -m'
fi

test_done
