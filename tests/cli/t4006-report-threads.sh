#!/bin/sh
# t4006-report-threads: the report loads its inventory on a second
# connection, measures long tables and computes comparisons on two
# threads; with AB_THREADS=1 it uses one.  Both give the same PDF bytes and
# compare the same numbers, on corpora with a long appendix (1,000 runs),
# a 30-system round with many comparisons, and the shared samples.
. "$(dirname "$0")/lib.sh"

both() {
	SOURCE_DATE_EPOCH=1767225600 ab --db "$1" report -o "$2-2.pdf" 2>"$2-2.err" &&
	SOURCE_DATE_EPOCH=1767225600 env AB_THREADS=1 "$AB" --db "$1" report -o "$2-1.pdf" \
		2>"$2-1.err" &&
	test -s "$2-2.pdf" && cmp "$2-1.pdf" "$2-2.pdf" && cmp "$2-1.err" "$2-2.err"
}

test_expect_success 'a CARAML corpus with a long appendix: one thread or two, same bytes' '
	$PY "$ROOT/tests/helpers/gen_caraml_runs.py" cc 5 4 50 >/dev/null &&
	ab --db c.db ingest cc >/dev/null 2>&1 &&
	both c.db c &&
	pdftotext -layout c-2.pdf c.txt && grep -q "Appendix: every run" c.txt &&
	base=$(ab --db c.db ls systems --json |
		$PY -c "import json,sys; print(json.load(sys.stdin)[0][\"name\"])") &&
	ab --db c.db compare -b llm-gpt-800M --baseline "$base" --best --json >cmp2.json &&
	env AB_THREADS=1 "$AB" --db c.db compare -b llm-gpt-800M --baseline "$base" --best \
		--json >cmp1.json &&
	test -s cmp1.json && cmp cmp1.json cmp2.json
'

test_expect_success 'a 30-system MLPerf-like round: one thread or two, same bytes' '
	$PY "$ROOT/tests/helpers/gen_mlperf_round.py" round 30 >/dev/null &&
	ab --db r.db ingest round >/dev/null 2>&1 &&
	both r.db r
'

test_expect_samples 'the shared samples: one thread or two, same bytes' '
	ab --db s.db ingest "$SAMPLES" >/dev/null 2>&1;
	both s.db s
'

test_expect_success 'a spec naming a system without runs fails the same way' '
	printf "{\"systems\": [\"NOPE\"]}" >spec.json &&
	expect_code 1 ab --db c.db report --spec spec.json -o x.pdf 2>e2 &&
	expect_code 1 env AB_THREADS=1 "$AB" --db c.db report --spec spec.json -o x.pdf 2>e1 &&
	grep -q "system .NOPE. has no runs in the database" e2 && cmp e1 e2 && test ! -e x.pdf
'

test_done
