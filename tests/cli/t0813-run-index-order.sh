#!/bin/sh
# t0813-run-index-order: the run index is UNIQUE (benchmark_id, system_id,
# korder, dedupe) (schema 11).  korder is the number a dedupe key's text
# ends with (a ReFrame key's completion time or job id), so a perflog's
# runs go to the end of the index; it is a function of the key, so the
# same run read again still meets its copy.  Rows whose key came without
# its text (stored before schema 11, pulled from a store) have -1, and a
# (benchmark, system) with such a row gives -1 to every run it gets.
. "$(dirname "$0")/lib.sh"

G=$FIXTURES/reframe/good/perflogs

# korders ab.db: benchmark, korder of every keyed run, in id order
korders() {
	sqlite3 "$1" "SELECT b.name, r.korder FROM run_data r JOIN benchmark b ON b.id = r.benchmark_id
		WHERE r.dedupe IS NOT NULL ORDER BY r.id"
}

test_expect_success 'setup: a perflog, and the same perflog grown by two runs' '
	mkdir -p first/perflogs/sysa/part1 grown/perflogs/sysa/part1 &&
	head -n 3 "$G/sysa/part1/Bench43.log" >first/perflogs/sysa/part1/Bench43.log &&
	cp "$G/sysa/part1/Bench43.log" grown/perflogs/sysa/part1/Bench43.log &&
	test "$(wc -l <grown/perflogs/sysa/part1/Bench43.log)" -eq 5
'

test_expect_success 'a new database stores each run at its completion time or job id' '
	ab --db new.db ingest first "$G/sysb" >out 2>&1 &&
	grep -q "added 4 runs" out &&
	korders new.db >actual &&
	cat >expect <<-\EOF &&
	Bench43|1714557600
	Bench43|1714561200
	Old3x_1|77
	Old3x_1|78
	EOF
	test_cmp expect actual
'

test_expect_success 'the grown perflog adds its two new runs only' '
	ab --db new.db ingest grown >out 2>&1 &&
	grep -q "added 2 runs, .*; 2 duplicate runs skipped$" out &&
	korders new.db >actual &&
	cat >expect <<-\EOF &&
	Bench43|1714557600
	Bench43|1714561200
	Old3x_1|77
	Old3x_1|78
	Bench43|1714564800
	Bench43|1714568400
	EOF
	test_cmp expect actual &&
	orphans new.db
'

test_expect_success 'rows from before schema 11 (-1) still meet their copies; their part stays -1' '
	ab --db old.db ingest first "$G/sysb" >/dev/null 2>&1 &&
	sqlite3 old.db "UPDATE run_data SET korder = -1" &&
	ab --db old.db ingest grown >out 2>&1 &&
	grep -q "added 2 runs, .*; 2 duplicate runs skipped$" out &&
	korders old.db >actual &&
	cat >expect <<-\EOF &&
	Bench43|-1
	Bench43|-1
	Old3x_1|-1
	Old3x_1|-1
	Bench43|-1
	Bench43|-1
	EOF
	test_cmp expect actual &&
	# the same runs as the new database, whatever the index order
	ab --db new.db sql --csv "SELECT benchmark, system, status, value FROM runs ORDER BY id" >new.csv &&
	ab --db old.db sql --csv "SELECT benchmark, system, status, value FROM runs ORDER BY id" >old.csv &&
	test_cmp new.csv old.csv
'

test_expect_success 'a schema-10 database upgrades to -1 for its keyed rows' '
	sqlite3 v1.db <"$FIXTURES/db/v1.sql" &&
	ab --db v1.db ingest first >/dev/null 2>&1 &&
	test "$(sqlite3 v1.db "SELECT count(*) FROM run_data WHERE source_id <= 2 AND korder = -1")" = 2 &&
	sqlite3 v1.db "SELECT name FROM sqlite_master WHERE type = '\''index'\'' AND tbl_name = '\''run_data'\''" >actual &&
	echo run_data_key >expect && test_cmp expect actual
'

test_expect_success 'one thread or two: the same database' '
	AB_INGEST_THREADS=1 ab --db one.db ingest first "$G/sysb" grown >/dev/null 2>&1 &&
	AB_INGEST_THREADS=2 ab --db two.db ingest first "$G/sysb" grown >/dev/null 2>&1 &&
	content one.db >one.txt && content two.db >two.txt && test_cmp one.txt two.txt &&
	korders one.db >k1 && korders two.db >k2 && test_cmp k1 k2
'

test_done
