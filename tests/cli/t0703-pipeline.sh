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

# AB_INGEST_DIGEST=late: no digest is there when its file's parse starts
# (as for a large file, hashed side by side with others): the writer waits
# for it, the parser does not
test_expect_success 'digests that come after the parse started: the same' '
	AB_INGEST_DIGEST=late; export AB_INGEST_DIGEST &&
	ingest_both late-rf "$FIXTURES/reframe" &&
	ingest_both late-ca "$FIXTURES/caraml" &&
	ingest_both late-ml "$FIXTURES/mlperf" &&
	ingest_both late-strict --strict "$FIXTURES/reframe"
'

test_expect_success 'late digests of files ingested before: skipped, their warnings unsaid, the database bytes unchanged' '
	expect_code 1 ab --db late.db ingest "$FIXTURES/reframe" "$FIXTURES/caraml" >/dev/null 2>first &&
	grep -q "warning" first && cp late.db late0.db &&
	AB_INGEST_DIGEST=late ab --db late.db ingest -v "$FIXTURES/reframe" "$FIXTURES/caraml" >again 2>again.err;
	AB_INGEST_THREADS=1 ab --db late.db ingest -v "$FIXTURES/reframe" "$FIXTURES/caraml" >again1 2>again1.err;
	test_cmp again1 again && test_cmp again1.err again.err &&
	! grep -q "warning" again.err && grep -q "^0 files ingested" again &&
	cmp late0.db late.db
'

test_expect_success 'a file rejected by its parse but ingested before (late digest): skipped, --strict goes on' '
	mkdir -p two/perflogs/sysd/cpu two/perflogs/sysd/gpu &&
	cp "$FIXTURES/reframe/headerless/perflogs/sysd/cpu/CsvTest.log" two/perflogs/sysd/cpu/ &&
	cp "$FIXTURES/reframe/cli-site/perflogs/sysd/cpu/CsvTest.log" two/perflogs/sysd/gpu/ &&
	expect_code 1 ab --db no.db ingest two >/dev/null 2>no.err &&
	grep -q "not a ReFrame perflog layout I know" no.err &&
	ab --db hl.db ingest --perflog-format "%(check_display_name)s,%(check_system)s,%(check_partition)s,%(check_environ)s,%(check_job_completion_time)s,%(check_perf_var)s,%(check_perf_value)s,%(check_perf_unit)s" two >/dev/null 2>&1 &&
	cp hl.db hl0.db &&
	AB_INGEST_THREADS=1 ab --db hl.db ingest --strict -v two >one 2>one.err; echo "exit $?" >>one &&
	AB_INGEST_DIGEST=late ab --db hl.db ingest --strict -v two >late 2>late.err; echo "exit $?" >>late &&
	test_cmp one late && test_cmp one.err late.err &&
	grep -q "^0 files ingested, 2 skipped" late && grep -q "^exit 0" late &&
	cmp hl0.db hl.db
'

test_expect_success 'two copies of a file with warnings in one tree: the copy is skipped without its warnings, as one thread does' '
	mkdir -p dup/perflogs/sysa/part1 dup/perflogs/sysa/part2 &&
	cp "$FIXTURES/reframe/good/perflogs/sysa/part1/Bench43.log" dup/perflogs/sysa/part1/ &&
	cp "$FIXTURES/reframe/good/perflogs/sysa/part1/Bench43.log" dup/perflogs/sysa/part2/ &&
	AB_INGEST_THREADS=1 ab --db dup-1.db ingest -v dup >dup-1.out 2>dup-1.err &&
	grep -q "^skipped dup/perflogs/sysa/part2/Bench43.log" dup-1.err &&
	grep -q "warning: dup/perflogs/sysa/part1/" dup-1.err &&
	for i in 1 2 3 4 5 late; do
		rm -f dup-2.db &&
		if [ $i = late ]; then
			AB_INGEST_DIGEST=late ab --db dup-2.db ingest -v dup >dup-2.out 2>dup-2.err
		else
			ab --db dup-2.db ingest -v dup >dup-2.out 2>dup-2.err
		fi &&
		test_cmp dup-1.out dup-2.out && test_cmp dup-1.err dup-2.err || exit 1
	done
'

# runs of every size: a run's record is cut from the rest of the parser's
# current slab (256 KiB) when it fits there, else from a new one, or
# malloc'ed when larger than a quarter slab (100 KB descriptions here)
test_expect_success 'runs of every size, up to larger than a slab quarter: the same' '
	mkdir -p sizes/perflogs/sysa/part1 &&
	{
		head -1 "$FIXTURES/reframe/good/perflogs/sysa/part1/Bench43.log" &&
		awk "BEGIN { x = \"x\"; while (length(x) < 100000) x = x x;
			for (i = 0; i < 1000; i++) {
				n = i % 250 == 7 ? 100000 : (i * 37) % 3000;
				printf \"pass|2024-05-01T10:00:00|Bench %d %s|{}|gnu|%d|%d.5|Bench43 %%%%num_gpus=4|4|part1|%d.5|images/s|1000|-0.1|None|35.2|s|0|None|None|sysa\\n\",
					i, substr(x, 1, n), 1000 + i, 1714557600 + i, 1200 + i } }"
	} >sizes/perflogs/sysa/part1/Bench43.log &&
	ingest_both sizes sizes &&
	grep -q "added 1000 runs" sizes-2.out &&
	ab --db sizes-2.db sql --csv "SELECT count(*) FROM run WHERE length(params) > 100000" >big &&
	test "$(tail -1 big)" = 4
'

# AB_INGEST_KEYS=parser|writer: the runs' dedupe keys hashed by that
# thread only (by default the parser does when the writer is behind)
test_expect_success 'dedupe keys hashed by the parser or by the writer: the same' '
	for k in parser writer; do
		(AB_INGEST_KEYS=$k; export AB_INGEST_KEYS &&
		ingest_both keys-rf-$k "$FIXTURES/reframe" &&
		ingest_both keys-ca-$k "$FIXTURES/caraml" &&
		ingest_both keys-sz-$k sizes) || exit 1
	done
'

test_expect_samples 'the CARAML samples: the same' '
	ingest_both samples "$SAMPLES/caraml"
'

test_done
