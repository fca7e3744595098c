#!/bin/sh
# t0703-pipeline: ingest parses the next file while a writer thread stores
# the previous one.  Same database, same messages in the same order, same
# summary as one thread (AB_INGEST_THREADS=1), on every fixture tree;
# re-ingesting skips without parsing.
. "$(dirname "$0")/lib.sh"

# ingest_both NAME PATH...: one thread into NAME-1.db, the pipeline into NAME-2.db
ingest_both() {
	n=$1; shift
	AB_INGEST_THREADS=1 ab --db "$n-1.db" ingest -v "$@" >"$n-1.out" 2>"$n-1.err"
	echo "exit $?" >>"$n-1.out"
	ab --db "$n-2.db" ingest -v "$@" >"$n-2.out" 2>"$n-2.err"
	echo "exit $?" >>"$n-2.out"
	test_cmp "$n-1.out" "$n-2.out" && test_cmp "$n-1.err" "$n-2.err" &&
	for db in 1 2; do
		ab --db "$n-$db.db" ls runs --json >"$n-$db.runs" &&
		ab --db "$n-$db.db" ls sources --json >"$n-$db.sources" &&
		ab --db "$n-$db.db" ls systems --json >"$n-$db.systems" &&
		ab --db "$n-$db.db" sql --csv "SELECT run_id, device, t, watts FROM power_sample ORDER BY rowid" >"$n-$db.power" || return 1
	done &&
	test_cmp "$n-1.runs" "$n-2.runs" && test_cmp "$n-1.sources" "$n-2.sources" &&
	test_cmp "$n-1.systems" "$n-2.systems" && test_cmp "$n-1.power" "$n-2.power"
}

test_expect_success 'CARAML tree with energy files and duplicate runs: the same' '
	ingest_both caraml "$FIXTURES/caraml" &&
	grep -q "duplicate run" caraml-2.out && grep -q "power samples" caraml-2.out
'

test_expect_success 'MLPerf rounds: the same' '
	ingest_both mlperf "$FIXTURES/mlperf"
'

test_expect_success 'ReFrame files, rejected ones included: the same' '
	ingest_both reframe "$FIXTURES/reframe" &&
	grep -q "^exit 1$" reframe-2.out
'

test_expect_success 'systems files: the same' '
	ingest_both systems "$FIXTURES/systems"
'

test_expect_success '--strict stops at the same file' '
	ingest_both strict --strict "$FIXTURES/reframe"
'

test_expect_success 'a second ingest skips every file, as one thread does' '
	ab --db caraml-2.db ingest "$FIXTURES/caraml" >again 2>/dev/null;
	AB_INGEST_THREADS=1 ab --db caraml-1.db ingest "$FIXTURES/caraml" >again1 2>/dev/null;
	test_cmp again1 again && grep -q "^0 files ingested" again
'

test_expect_samples 'the CARAML samples: the same' '
	ingest_both samples "$SAMPLES/caraml"
'

test_done
