#!/bin/sh
# t0811-results-db-limit: a ReFrame results.db made of real tables can
# still be slow to its first row (a generated column that costs 0.1 ms a
# row, sorted by the reader); the progress handler gives up after
# ACCELBENCH_RESULTS_DB_TIMEOUT seconds without a row (default 30), with a
# message, and the database is left as it was.
. "$(dirname "$0")/lib.sh"

H=$FIXTURES/hostile


test_expect_success 'a slow results.db of real tables (generated)' '
	$PY "$H/make_results_db.py" slow slow.db &&
	test "$(sqlite3 slow.db "SELECT type FROM sqlite_master WHERE name = '\''sessions'\''")" = table &&
	ab ingest "$FIXTURES/reframe/reports/site-dv31.json" >/dev/null 2>&1 && test -s "$ACCELBENCH_DB"
'

test_expect_success 'no row within the limit: given up with a message, database unchanged' '
	dbsum >before &&
	ACCELBENCH_RESULTS_DB_TIMEOUT=0.5 expect_code 1 "$AB" ingest slow.db >out 2>err &&
	echo "accelbench: slow.db: cannot read sessions: no row in 0.5 s; given up (ACCELBENCH_RESULTS_DB_TIMEOUT)" >expect &&
	test_cmp expect err &&
	grep -q "^0 files ingested, 0 skipped as already ingested, 1 rejected" out &&
	dbsum >after && test_cmp before after
'

# a few seconds of CPU to the first row, many more on a loaded machine or
# under the sanitizers: a generous limit, not the default 30 s (the default
# itself is named by the next test's warning)
test_expect_success 'within a generous limit the same file is read to its (bad) first blob' '
	ACCELBENCH_RESULTS_DB_TIMEOUT=600 expect_code 1 "$AB" ingest slow.db >out 2>err &&
	echo "accelbench: slow.db: session '\''u1'\'', line 1: not a ReFrame run report: no '\''session_info'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'a limit that is not a number of seconds: a warning, the default' '
	$PY "$H/make_results_db.py" valid valid.db &&
	rm -f "$ACCELBENCH_DB" &&
	ACCELBENCH_RESULTS_DB_TIMEOUT=soon ab ingest valid.db >out 2>err &&
	echo "accelbench: warning: valid.db: ACCELBENCH_RESULTS_DB_TIMEOUT '\''soon'\'' is not a number of seconds; using 30" >expect &&
	test_cmp expect err &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected; added [1-9]" out
'

test_done
