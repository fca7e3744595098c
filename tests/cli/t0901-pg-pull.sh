#!/bin/sh
# t0901-pg-pull: push the demo and the shared samples to a throwaway
# PostgreSQL server, pull them into a new SQLite file: `stats --json`,
# `compare --json` and the listings are byte-identical to the originals.
# Filtered pulls; a run that came through two sites' sources stored once.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg_lib.sh"

pg_start_or_skip "PostgreSQL pull"

test_expect_success 'set-up: the demo and the samples in one database, pushed' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	if [ -n "$SAMPLES" ]; then set -- "$SAMPLES"; else set --; fi &&
	ab --db orig.db ingest demo/data "$@" >/dev/null 2>&1 &&
	ab pg init --url "$PG_URL" >/dev/null &&
	ab --db orig.db push --to "$PG_URL" >out &&
	grep -q "^pushed [0-9]* sources" out
'

# every output that must survive the round trip
snapshot() {
	ab --db "$1" stats --json >"$2.stats" 2>/dev/null &&
	{ ab --db "$1" compare --baseline A100 --json >"$2.compare" 2>/dev/null || :; } &&
	{ ab --db "$1" compare -b llm-gpt-800M --baseline JEDI --json >"$2.compare2" 2>/dev/null || :; } &&
	ab --db "$1" ls runs --json >"$2.runs" &&
	ab --db "$1" ls systems --json >"$2.systems" &&
	ab --db "$1" ls benchmarks --json >"$2.benchmarks" &&
	ab --db "$1" ls sources --json >"$2.sources" &&
	ab --db "$1" sql --csv "SELECT r.seq, s.sha256, p.device, p.t, p.watts FROM power_sample p JOIN run r ON r.id = p.run_id JOIN source s ON s.id = r.source_id ORDER BY 2, 1, 3, 4" >"$2.power"
}

test_expect_success 'pull into a new file: stats, compare and listings byte-identical' '
	ab --db new.db pull --from "$PG_URL" >out &&
	n=$(ab --db orig.db sql --csv "SELECT count(*) FROM source" | tail -1) &&
	r=$(ab --db orig.db sql --csv "SELECT count(*) FROM run" | tail -1) &&
	grep -q "^pulled $n sources from ab@.* into new.db (0 already there); added $r runs, " out &&
	snapshot orig.db a && snapshot new.db b &&
	for k in stats compare compare2 runs systems benchmarks sources power; do
		test -s a.$k && test_cmp a.$k b.$k || exit 1
	done
'

test_expect_success 'pulled sources keep when and by which version they were first ingested' '
	q="SELECT sha256, identity, ingested_at, tool_version FROM source ORDER BY 1, 2" &&
	SOURCE_DATE_EPOCH=1900000000 ab --db when.db pull --from "$PG_URL" >/dev/null &&
	ab --db orig.db sql --csv "$q" >a.when && ab --db when.db sql --csv "$q" >b.when &&
	test "$(wc -l <a.when)" -gt 2 && test_cmp a.when b.when
'

# pull hands the sink the store's split of params (the pairs runs share,
# the run's own): the run view and the param sets come back as pushed,
# not re-split (a re-split moved pairs first seen later to the front)
test_expect_success 'pull keeps the params text of each run and the param sets as pushed' '
	q="SELECT s.sha256, r.params, k.kv FROM run r JOIN run_data d ON d.id = r.id JOIN source s ON s.id = r.source_id LEFT JOIN param_set k ON k.id = d.set_id ORDER BY s.sha256, r.seq" &&
	ab --db orig.db sql --csv "$q" >a.params &&
	ab --db new.db sql --csv "$q" >b.params &&
	test "$(wc -l <a.params)" -gt 100 &&
	test_cmp a.params b.params
'

test_expect_success 'a second pull adds nothing' '
	ab --db new.db pull --from "$PG_URL" >out &&
	grep -q "^pulled 0 sources from .* ([0-9]* already there); added 0 runs, 0 metrics$" out
'

test_expect_success 'filtered pulls bring the sources with matching runs, whole' '
	ab --db f1.db pull --from "$PG_URL" -b resnet50 --system JEDI >out &&
	ab --db f1.db sql --csv "SELECT DISTINCT benchmark, system FROM runs ORDER BY 1, 2" >got &&
	grep -q "^resnet50,JEDI$" got &&
	! grep -q "^llm-gpt-800M,JEDI$" got &&
	ab --db orig.db stats -b resnet50 --system JEDI --json >want.json &&
	ab --db f1.db stats -b resnet50 --system JEDI --json >got.json &&
	test_cmp want.json got.json &&
	ACCELBENCH_PG="$PG_URL" ab --db f2.db pull --since 2099-01-01 >out &&
	grep -q "^pulled 0 sources" out &&
	expect_code 2 ab --db f3.db pull --from "$PG_URL" --since yesterday 2>err &&
	grep -q "^accelbench: pull: --since wants a date YYYY-MM-DD, not .yesterday.$" err &&
	test ! -f f3.db
'

test_expect_samples 'filtered pull by suite: the mlperf-training sources only' '
	ab --db f4.db pull --from "$PG_URL" --suite mlperf-training >out &&
	test "$(ab --db f4.db sql --csv "SELECT DISTINCT suite FROM runs" | tail -n +2)" = mlperf-training &&
	ab --db orig.db stats --suite mlperf-training --json >want.json &&
	ab --db f4.db stats --suite mlperf-training --json >got.json &&
	$PY - <<-\PYEOF
	import json
	# run ids are local to each database; everything else must agree
	def strip(x):
	    if isinstance(x, dict):
	        return {k: strip(v) for k, v in x.items() if k != "run_ids"}
	    if isinstance(x, list):
	        return [strip(v) for v in x]
	    return x
	a, b = strip(json.load(open("want.json"))), strip(json.load(open("got.json")))
	assert a == b and len(a) > 0
	PYEOF
'

test_expect_samples 'a run from two sites'"'"' sources is stored once, with both provenances' '
	pg_sql -c "CREATE DATABASE two" &&
	two="host=$PG_DIR user=ab dbname=two" &&
	ab pg init --url "$two" --no-reader >/dev/null &&
	rf=$SAMPLES/reframe/constructed_reframe-3.12.0 &&
	ab --db site1.db ingest "$rf/perflogs" >/dev/null &&
	ab --db site2.db ingest "$rf/reports" >/dev/null &&
	ab --db both.db ingest "$rf/perflogs" "$rf/reports" >/dev/null &&
	ab --db site1.db push --to "$two" >out1 &&
	ab --db site2.db push --to "$two" >out2 2>err2 &&
	cat out2 err2 &&
	! test -s err2 &&
	d=$(pg_sql -d "$two" -c "SELECT count(*) FROM accelbench.run_source") &&
	test "$d" -gt 0 &&
	grep -q "; $d runs\? already there through another source$" out2 &&
	test "$(pg_sql -d "$two" -c "SELECT count(*) FROM accelbench.run")" = \
		"$(ab --db both.db sql --csv "SELECT count(*) FROM run" | tail -1)" &&
	ab --db pulled.db pull --from "$two" >out &&
	snapshot both.db c && snapshot pulled.db d &&
	for k in stats runs systems power; do test_cmp c.$k d.$k || exit 1; done &&
	ab --db only2.db pull --from "$two" --system "$(ab --db site2.db sql --csv "SELECT name FROM system ORDER BY name LIMIT 1" | tail -1)" >/dev/null &&
	test "$(ab --db only2.db sql --csv "SELECT count(*) FROM run" | tail -1)" -gt 0
'

# a pulled run's key comes as the hash, without the text its index order
# (run_data.korder, schema 11) is taken from: pulled into a database that
# read the same runs itself, or read by it after the pull, each meets its
# copy, and that (benchmark, system) part of the index becomes -1
test_expect_success 'pulled runs meet the copies a database read itself, in either order' '
	pg_sql -c "CREATE DATABASE korder" &&
	store="host=$PG_DIR user=ab dbname=korder" &&
	ab pg init --url "$store" --no-reader >/dev/null &&
	G=$FIXTURES/reframe/good/perflogs &&
	ab --db site.db ingest "$G" >/dev/null 2>&1 &&
	ab --db site.db push --to "$store" >/dev/null &&
	mkdir -p part/perflogs/sysa/part1 &&
	head -n 3 "$G/sysa/part1/Bench43.log" >part/perflogs/sysa/part1/Bench43.log &&
	ab --db first.db ingest part >/dev/null 2>&1 &&
	test "$(sqlite3 first.db "SELECT count(*) FROM run_data WHERE korder > 0")" = 2 &&
	ab --db first.db pull --from "$store" >out &&
	ab --db later.db pull --from "$store" >/dev/null &&
	ab --db later.db ingest part >out2 2>&1 &&
	grep -q "added 0 runs, 0 metrics; 2 duplicate runs skipped$" out2 &&
	q="SELECT benchmark, system, status, value FROM runs ORDER BY 1, 2, 4" &&
	ab --db site.db sql --csv "$q" >a.k && ab --db first.db sql --csv "$q" >b.k &&
	ab --db later.db sql --csv "$q" >c.k &&
	test "$(wc -l <a.k)" -gt 4 && test_cmp a.k b.k && test_cmp a.k c.k &&
	for db in first.db later.db; do
		test "$(sqlite3 $db "SELECT count(*) FROM run_data WHERE dedupe IS NOT NULL AND korder <> -1")" = 0 || exit 1
	done
'

test_expect_success 'push and pull show a progress line on a terminal only' '
	pg_sql -c "CREATE DATABASE tty" &&
	tty="host=$PG_DIR user=ab dbname=tty" &&
	ab pg init --url "$tty" --no-reader >/dev/null &&
	script -qec "$AB --db orig.db push --to \"$tty\" >/dev/null" /dev/null >tty.out </dev/null &&
	grep -q "push: [0-9]*/[0-9]* sources, [0-9]* runs, [0-9]* metrics, [0-9.]* MB" tty.out &&
	script -qec "$AB --db tty.db pull --from \"$tty\" >/dev/null" /dev/null >tty2.out </dev/null &&
	grep -q "pull: [0-9]*/[0-9]* sources, [0-9]* runs" tty2.out &&
	ab --db orig.db push --to "$tty" >/dev/null 2>err && ! grep -q "sources," err &&
	ab --db tty2.db pull --from "$tty" >/dev/null 2>err && ! grep -q "sources," err
'

test_expect_success 'no orphan rows in the store' '
	test "$(pg_sql -c "SELECT (SELECT count(*) FROM accelbench.metric m WHERE NOT EXISTS (SELECT 1 FROM accelbench.run r WHERE r.id = m.run_id)) + (SELECT count(*) FROM accelbench.power_sample p WHERE NOT EXISTS (SELECT 1 FROM accelbench.run r WHERE r.id = p.run_id))")" = 0
'

test_done
