#!/bin/sh
# t0812-dedupe-order: a dedupe key names a run; the same run read again
# (other bytes, same values) is a duplicate, but another measurement under
# the same key is kept as a run of its own, so the database no longer
# depends on which file was ingested first.
. "$(dirname "$0")/lib.sh"

C=$FIXTURES/caraml/llm_result_energy_list_2024.csv


test_expect_success 'two tables, one job id, different values: both kept, in either order' '
	mkdir a b && cp "$C" a/run.csv && sed "s/,109226.67,/,99999.5,/" "$C" >b/run.csv &&
	! cmp -s a/run.csv b/run.csv &&
	ab --db ab.db ingest a/run.csv b/run.csv >out1 2>&1 &&
	ab --db ba.db ingest b/run.csv a/run.csv >out2 2>&1 &&
	grep -q "added 2 runs" out1 && grep -q "added 2 runs" out2 &&
	content ab.db >ab.txt && content ba.db >ba.txt && test_cmp ab.txt ba.txt &&
	test "$(grep -c "^H100,13000001,[^,]*,ok," ab.txt)" = 2
'

test_expect_success 'the same values in other bytes are a duplicate, whichever came first' '
	mkdir c && sed "s/\$/\r/; s/,0.60,/,0.6,/" "$C" >c/run.csv && ! cmp -s a/run.csv c/run.csv &&
	ab --db ab.db ingest c/run.csv >out 2>&1 &&
	grep -q "added 0 runs, 0 metrics; 1 duplicate run skipped$" out &&
	ab --db ca.db ingest c/run.csv b/run.csv a/run.csv >out 2>&1 &&
	grep -q "added 2 runs, .*; 1 duplicate run skipped$" out &&
	content ca.db >ca.txt && test_cmp ab.txt ca.txt
'

test_expect_success 'a third copy of either measurement adds nothing' '
	mkdir d && sed "s/OSCAR/OSCAR/; s/\$/ /" b/run.csv >d/run.csv &&
	ab --db ab.db ingest d/run.csv >out 2>&1 &&
	grep -q "added 0 runs, 0 metrics; 1 duplicate run skipped$" out
'

test_done
