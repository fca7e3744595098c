#!/bin/sh
# t0806-concurrency-kill: 8 concurrent ingests with readers beside them
# equal one sequential ingest, with no "database is locked"; an ingest
# killed with -9 at several points leaves a consistent database that a
# re-run completes; a WAL grown behind a long reader is cut back when the
# last writer leaves, even while another connection keeps the file open.
. "$(dirname "$0")/lib.sh"

counts() {
	"$AB" --db "$1" sql --csv "SELECT (SELECT count(*) FROM source), (SELECT count(*) FROM run),
		(SELECT count(*) FROM metric), (SELECT count(*) FROM power_sample)" | tail -1
}

test_expect_success 'a simulated campaign and its sequential ingest' '
	for s in 1 2 3 4; do ACCELBENCH_DB= ab demo -o c$s --seed $s --repeats 8 >/dev/null || exit 1; done &&
	ACCELBENCH_DB= ab demo -o cc --seed 5 --repeats 20 >/dev/null &&
	ab --db seq.db ingest cc/data >/dev/null 2>&1 &&
	counts seq.db >seq.counts && content seq.db >seq.content && cat seq.counts
'

# campaigns of different seeds share dedupe keys (job ids, times) with other
# values: each measurement is kept whatever the order (model/sink.c)
test_expect_success 'four campaigns sharing dedupe keys: one database in any order, concurrent too' '
	ab --db fwd.db ingest c1/data c2/data c3/data c4/data >/dev/null 2>&1 &&
	ab --db rev.db ingest c4/data c3/data c2/data c1/data >/dev/null 2>&1 &&
	content fwd.db >fwd.content && content rev.db >rev.content && test_cmp fwd.content rev.content &&
	counts fwd.db | cut -d, -f2- >fwd.counts && counts rev.db | cut -d, -f2- >rev.counts &&
	test_cmp fwd.counts rev.counts &&
	pids="" && for c in c3 c1 c4 c2 c2 c4 c1 c3; do
		ab --db mix.db ingest $c/data >/dev/null 2>&1 & pids="$pids $!"; done &&
	fail=0 && for p in $pids; do wait $p || fail=1; done && test $fail = 0 &&
	content mix.db >mix.content && test_cmp fwd.content mix.content
'

# (the same campaign ingested concurrently: whole, and suite by suite)
test_expect_success '8 concurrent ingests of one campaign with readers equal it' '
	pids=""; i=0
	for part in cc/data cc/data cc/data cc/data $(ls -d cc/data/* | head -4); do
		ab --db con.db ingest $part >out.$i 2>err.$i & pids="$pids $!"
		i=$((i + 1))
	done
	( n=0; while [ $n -lt 30 ]; do
		"$AB" --db con.db sql --csv "SELECT count(*) FROM run" >/dev/null 2>>rerr || echo "sql $?" >>rerr
		"$AB" --db con.db ls runs >/dev/null 2>>rerr || echo "ls $?" >>rerr
		n=$((n + 1)); done ) & reader=$!
	fail=0; for p in $pids; do wait $p || fail=1; done; wait $reader
	cat err.* >errs; test $fail = 0 || { cat errs; exit 1; }
	! grep -q "locked" errs rerr &&
	counts con.db >con.counts && test_cmp seq.counts con.counts &&
	content con.db >con.content && test_cmp seq.content con.content &&
	test "$(sqlite3 con.db "PRAGMA integrity_check")" = ok
'

test_expect_success 'kill -9 during ingest at several points: consistent, completed by a re-run' '
	ACCELBENCH_DB= ab demo -o big --seed 9 --repeats 40 >/dev/null &&
	ab --db ref.db ingest big/data >/dev/null 2>&1 && counts ref.db >ref.counts &&
	for t in 0.1 0.4 0.9; do
		rm -f k.db k.db-wal k.db-shm
		"$AB" --db k.db ingest big/data >/dev/null 2>&1 & p=$!
		sleep $t; kill -9 $p 2>/dev/null; wait $p 2>/dev/null
		if [ -s k.db ]; then
			test "$(sqlite3 k.db "PRAGMA integrity_check")" = ok || { echo "integrity at $t"; exit 1; }
			test "$(sqlite3 k.db "PRAGMA foreign_key_check" | wc -l)" = 0 || exit 1
		fi
		ab --db k.db ingest big/data >/dev/null 2>&1 || { echo "re-run after $t"; exit 1; }
		counts k.db >k.counts && test_cmp ref.counts k.counts || { echo "counts after $t"; exit 1; }
	done
'

test_expect_success 'the WAL is cut back when the last writer leaves, despite an idle open connection' '
	rm -f w.db* && ab --db w.db ingest c1/data >/dev/null 2>&1 &&
	$PY - "$AB" <<-\PYEOF
	import os, sqlite3, subprocess, sys, time
	ab = sys.argv[1]
	idle = sqlite3.connect("w.db")          # keeps the file open, no transaction
	idle.execute("SELECT count(*) FROM source").fetchall()
	reader = sqlite3.connect("w.db", isolation_level=None)
	reader.execute("BEGIN")
	reader.execute("SELECT count(*) FROM run").fetchall()   # a snapshot held by a long reader
	procs = [subprocess.Popen([ab, "--db", "w.db", "ingest", "c%d/data" % k],
	                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for k in (2, 3, 4)]
	assert all(p.wait() == 0 for p in procs)
	grown = os.path.getsize("w.db-wal")
	assert grown > 1000000, grown            # the reader held every checkpoint back
	reader.execute("COMMIT"); reader.close()
	# one more writer, after the reader left, while idle still holds the file
	subprocess.run([ab, "--db", "w.db", "ingest", "c1/data"], check=True,
	               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
	size = os.path.getsize("w.db-wal") if os.path.exists("w.db-wal") else 0
	assert size == 0, (grown, size)
	idle.close()
	PYEOF
'

test_done
