#!/bin/sh
# t0804-sql-bounds: sql streams CSV and JSON at constant memory, caps the
# aligned table with a note, honours --timeout, accepts trailing comments
# and setting-reading PRAGMAs, and still refuses every write.
. "$(dirname "$0")/lib.sh"

ENDLESS="WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i, 'row ' || i AS t FROM n"

test_expect_success 'set up a database' '
	ab ingest "$FIXTURES/caraml/llm_result_energy_list_2024.csv" >/dev/null 2>&1
'

test_expect_success 'the aligned table stops at 5000 rows by default and says so' '
	ab sql "$ENDLESS" >out 2>err &&
	test "$(wc -l <out)" = 5002 && test "$(tail -1 out)" = "5000  row 5000" &&
	echo "accelbench: note: only the first 5000 rows are shown; --limit N shows more, --csv and --json stream them all" >expect &&
	test_cmp expect err &&
	ab sql --limit 3 "$ENDLESS" >out 2>err && test "$(wc -l <out)" = 5 &&
	grep -q "only the first 3 rows" err &&
	ab sql --limit 3 "SELECT 1 AS x" >out 2>err && test ! -s err
'

# peak RSS in KB of an sql run (ASan's quarantine would hold every freed row)
rss() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1 \
		/usr/bin/time -f "%M" -o rss.out "$AB" sql "$@" >out 2>err; rc=$?
	tail -1 rss.out; return $rc
}
MILLION="WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) SELECT i, 'row ' || i AS t FROM n"

test_expect_success 'a million rows stream as CSV and JSON at the memory of one' '
	base=$(rss --csv "SELECT 1") &&
	big=$(rss --csv "$MILLION") && test "$(wc -l <out)" = 1000001 &&
	test "$(tail -1 out)" = "1000000,row 1000000" &&
	echo "# rss: one row $base KB, a million $big KB" &&
	test "$big" -lt $((base + 40000)) &&
	big=$(rss --json "$MILLION") && test "$(wc -l <out)" = 1000002 &&
	test "$big" -lt $((base + 40000))
'

test_expect_success 'an endless statement is interrupted by --timeout' '
	expect_code 1 "$AB" sql --csv --timeout 1 "$ENDLESS" >out 2>err &&
	echo "accelbench: sql error: interrupted after 1 s (--timeout)" >expect && test_cmp expect err &&
	test "$(head -2 out)" = "$(printf "i,t\n1,row 1")"
'

test_expect_success 'JSON streams an array of objects, types kept' '
	ab sql --json "SELECT 1 AS a, 2.5 AS b, NULL AS c, '"'"'x\"y'"'"' AS d UNION ALL SELECT 2, 1e300, 3, '"'"'\"'"'"'" >out &&
	$PY -c "import json,sys; d=json.load(open(sys.argv[1])); assert d == [{\"a\":1,\"b\":2.5,\"c\":None,\"d\":\"x\\\"y\"},{\"a\":2,\"b\":1e300,\"c\":3,\"d\":\"\\\"\"}], d" out &&
	ab sql --json "SELECT 1 WHERE 0" >out && test "$(cat out)" = "[]" &&
	expect_code 1 "$AB" sql --json --timeout 1 "$ENDLESS" >out 2>err &&
	test "$(head -1 out)" = "["
'

test_expect_success 'trailing comments and PRAGMAs that read a setting are fine' '
	ab sql --csv "SELECT 1 AS x -- why not" >out && test "$(tail -1 out)" = 1 &&
	ab sql --csv "SELECT 1 AS x; /* done */ " >out && test "$(tail -1 out)" = 1 &&
	ab sql --csv "PRAGMA journal_mode" >out && test "$(tail -1 out)" = wal
'

test_expect_success 'writes and second statements are still refused' '
	for s in "PRAGMA journal_mode = delete" "DELETE FROM source" "SELECT 1; DELETE FROM source" \
		"SELECT 1 -- x
		; SELECT 2"; do
		expect_code 1 ab sql "$s" 2>err || exit 1
		grep -Eq "^accelbench: sql error: (the statement would modify the database|only one statement is allowed)$" err || { cat err; exit 1; }
	done &&
	expect_code 1 ab sql "ATTACH '"'"'x.db'"'"' AS x" 2>err && test ! -e x.db &&
	test "$(ab sql --csv "SELECT count(*) FROM source" | tail -1)" = 1
'

test_expect_success 'bad --limit, --timeout and --csv with --json are usage errors' '
	expect_code 2 ab sql --limit -1 "SELECT 1" 2>err &&
	expect_code 2 ab sql --timeout -3 "SELECT 1" 2>err &&
	expect_code 2 ab sql --csv --json "SELECT 1" 2>err &&
	test "$(cat err)" = "accelbench: sql: --csv and --json exclude each other"
'

test_done
