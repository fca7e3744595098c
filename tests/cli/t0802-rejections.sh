#!/bin/sh
# t0802-rejections: hostile inputs are refused with their exact message and
# exit code, nothing hangs, and the database is byte-identical afterwards.
. "$(dirname "$0")/lib.sh"

H=$FIXTURES/hostile
DB=$ACCELBENCH_DB


# reject CODE MESSAGE ab-args... : exit code, the exact stderr line, same bytes
reject() {
	code=$1; msg=$2; shift 2
	dbsum >before
	expect_code "$code" timeout 60 "$AB" "$@" >out 2>err || { cat err; return 1; }
	grep -Fxq "$msg" err || { echo "# want: $msg"; sed "s/^/# got: /" err; return 1; }
	dbsum >after
	test_cmp before after
}

test_expect_success 'a database with data to protect' '
	ab ingest "$FIXTURES/caraml/llm_result_energy_list_2024.csv" >/dev/null 2>&1 &&
	test -s "$DB"
'

test_expect_success 'explicit FIFO, /dev/zero and a link to it are refused at once' '
	mkfifo fifo && ln -s /dev/zero zero &&
	reject 3 "accelbench: cannot ingest '"'"'fifo'"'"': not a regular file (a FIFO)" ingest fifo &&
	reject 3 "accelbench: cannot ingest '"'"'zero'"'"': not a regular file (a character device)" ingest zero &&
	reject 3 "accelbench: cannot ingest '"'"'/dev/zero'"'"': not a regular file (a character device)" ingest /dev/zero &&
	reject 3 "accelbench: cannot ingest '"'"'fifo'"'"': not a regular file (a FIFO)" ingest --format reframe-db fifo
'

test_expect_success 'a results.db whose sessions is an endless VIEW is refused, alone or in a walk' '
	$PY "$H/make_results_db.py" view view.db &&
	reject 1 "accelbench: view.db: not a ReFrame results database: '"'"'sessions'"'"' is not a table" ingest view.db &&
	mkdir -p walk/deep && cp view.db walk/deep/results.db &&
	reject 1 "accelbench: walk/deep/results.db: not a ReFrame results database: '"'"'sessions'"'"' is not a table" ingest walk
'

if $PY -c "import sqlite3; sqlite3.connect(\":memory:\").execute(\"CREATE VIRTUAL TABLE t USING fts5(a)\")" 2>/dev/null; then
test_expect_success 'a results.db whose sessions is a virtual table is refused' '
	$PY "$H/make_results_db.py" virtual virt.db &&
	reject 1 "accelbench: virt.db: not a ReFrame results database: '"'"'sessions'"'"' is a virtual table" ingest --format reframe-db virt.db
'
else
	test_skip 'a results.db whose sessions is a virtual table is refused' 'python3 sqlite3 without FTS5'
fi

if unshare -m true 2>/dev/null; then
for threads in 1 2; do
test_expect_success "a full disk: exit 3, and the summary counts only what was stored (threads $threads)" '
	rm -rf full big && mkdir full &&
	ACCELBENCH_DB= ab demo -o big --repeats 30 >/dev/null &&
	AB_INGEST_THREADS='$threads' unshare -m sh -c "mount -t tmpfs -o size=1200k none full &&
		\"$AB\" --db full/x.db ingest big/data >out 2>err; echo \$? >rc;
		\"$AB\" --db full/x.db sql --csv \"SELECT count(*) FROM run\" >stored 2>&1; true" &&
	test "$(cat rc)" = 3 && grep -q "database or disk is full" err &&
	n=$(sed -n "s/.*; added \([0-9]*\) runs\{0,1\},.*/\1/p" out) &&
	test "$n" = "$(tail -1 stored)" || { cat out err stored; exit 1; }
'
done
fi

test_done
