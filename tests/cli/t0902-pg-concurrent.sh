#!/bin/sh
# t0902-pg-concurrent: 8 pushers at once of overlapping data (the same
# files, and the same runs through different files) lose nothing and duplicate nothing: the store ends up with what
# one database that ingested every input holds.  The demo's inputs
# include ReFrame perflogs and run reports of the same runs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg_lib.sh"

pg_start_or_skip "PostgreSQL concurrent pushers"

test_expect_success 'set-up: 8 local databases of overlapping inputs, and their union' '
	ACCELBENCH_DB= ab demo -o d --repeats 3 >/dev/null &&
	(cd d/data && ls -d caraml/*/*/* mlperf reframe/perflogs reframe/reports systems.json) >units &&
	test "$(wc -l <units)" -gt 8 &&
	for i in 1 2 3 4 5 6 7 8; do
		# pusher i: the units whose number + i is not a multiple of 3, in
		# an order rotated by i
		awk -v i=$i "(NR + i) % 3 != 0" units >sel.$i &&
		set -- $( (tail -n +$i sel.$i; head -n $((i - 1)) sel.$i) | sed "s|^|d/data/|") &&
		ab --db p$i.db ingest "$@" >/dev/null 2>&1 || exit 1
	done &&
	ab --db union.db ingest d/data >/dev/null 2>&1 &&
	ab pg init --url "$PG_URL" >/dev/null
'

test_expect_success '8 pushers at once: all succeed' '
	pids= &&
	for i in 1 2 3 4 5 6 7 8; do
		ab --db p$i.db push --to "$PG_URL" >out.$i 2>err.$i & pids="$pids $!"
	done &&
	fails=0 && for p in $pids; do wait $p || fails=$((fails + 1)); done &&
	cat err.* && test $fails = 0 && test -z "$(cat err.*)" &&
	test "$(cat out.* | grep -c "^pushed [0-9]* source")" = 8
'

test_expect_success 'nothing lost, nothing duplicated: the store holds the union' '
	for t in source run metric power_sample; do
		l=$(ab --db union.db sql --csv "SELECT count(*) FROM $t" | tail -1) &&
		r=$(pg_sql -c "SELECT count(*) FROM accelbench.$t") &&
		test "$l" = "$r" || { echo "$t: union $l, store $r"; exit 1; }
	done &&
	test "$(pg_sql -c "SELECT count(*) - count(DISTINCT (sha256, identity)) FROM accelbench.source")" = 0 &&
	test "$(pg_sql -c "SELECT count(*) FROM accelbench.run r WHERE NOT EXISTS (SELECT 1 FROM accelbench.metric m WHERE m.run_id = r.id) AND r.status = '"'ok'"'")" = \
		"$(ab --db union.db sql --csv "SELECT count(*) FROM run r WHERE NOT EXISTS (SELECT 1 FROM metric m WHERE m.run_id = r.id) AND r.status = '"'ok'"'" | tail -1)"
'

test_expect_success 'a pull of the store gives the statistics of the union' '
	ab --db pulled.db pull --from "$PG_URL" >/dev/null &&
	ab --db union.db stats --json >a.json &&
	ab --db pulled.db stats --json >b.json &&
	test_cmp a.json b.json
'

test_done
