#!/bin/sh
# t0907-pg-upgrade: a store that an older accelbench filled (schema version
# 4: text dedupe keys, params and metric meta per row) upgrades to version 5
# with every row readable as before; push then dedupes against the upgraded
# keys and says when a run it does not send measured otherwise than the
# store's copy (the store keeps the copy pushed first).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg_lib.sh"

pg_start_or_skip "PostgreSQL upgrade"

# the hash the local sink makes of a parser's key: first 16 bytes of its SHA-256
H="encode(substr(sha256(convert_to('parser key', 'UTF8')), 1, 16), 'hex')"
H2="encode(substr(sha256(convert_to('other key', 'UTF8')), 1, 16), 'hex')"

test_expect_success 'set-up: a version-4 store holding rows as version 4 pushed them' '
	cp -r "$FIXTURES/reframe/good/perflogs" . &&
	ab --db l.db ingest perflogs/sysa >/dev/null 2>&1 &&
	K1=$(ab --db l.db sql --csv "SELECT dedupe_key FROM run WHERE line = 2" | tail -1) &&
	test ${#K1} = 32 && echo "$K1" >k1 &&
	ab pg init --url "$PG_URL" --no-reader --schema-version 4 >out &&
	grep -q "^created the central schema at .* (version 4)$" out &&
	pg_sql -c "SELECT setval('\''accelbench.ids'\'', 100);
	INSERT INTO accelbench.source(id, sha256, identity, path, format, size, ingested_at, tool_version)
	 VALUES (1, repeat('\''a'\'', 64), '\'''\'', '\''site0/old.log'\'', '\''reframe-perflog'\'', 10, '\''2024-01-01T00:00:00Z'\'', '\''0.9'\'');
	INSERT INTO accelbench.system(id, name) VALUES (1, '\''sysa:part1'\'');
	INSERT INTO accelbench.benchmark(id, suite, name, metric, unit, better)
	 VALUES (1, '\''reframe'\'', '\''Bench43'\'', '\''throughput'\'', '\''images/s'\'', '\''higher'\'');
	INSERT INTO accelbench.run(id, source_id, seq, line, system_id, benchmark_id, status, started, params, dedupe_key) VALUES
	 (2, 1, 1, 7, 1, 1, '\''ok'\'', '\''2024-01-01T00:00:00Z'\'', '\''{\"a\":1}'\'', '\''$K1'\''),
	 (3, 1, 2, 8, 1, 1, '\''ok'\'', '\''2024-01-01T00:01:00Z'\'', '\''{}'\'', '\''parser key'\''),
	 (4, 1, 3, 9, 1, 1, '\''ok'\'', '\''2024-01-01T00:02:00Z'\'', '\''{}'\'', $H),
	 (5, 1, 4, 10, 1, 1, '\''failed'\'', NULL, '\''{\"b\":\"x\"}'\'', '\''other key'\''),
	 (6, 1, 5, 11, 1, 1, '\''ok'\'', NULL, '\''{}'\'', NULL);
	INSERT INTO accelbench.metric(run_id, name, value, unit, meta) VALUES
	 (2, '\''throughput'\'', 999.5, '\''images/s'\'', '\''{\"reference\":1000.0}'\''),
	 (2, '\''time'\'', 35.2, '\''s'\'', NULL),
	 (3, '\''throughput'\'', 1, '\''images/s'\'', NULL),
	 (4, '\''throughput'\'', 2, '\''images/s'\'', NULL),
	 (6, '\''energy'\'', 3.5, '\''Wh'\'', NULL)" &&
	pg_sql -c "SELECT run_id, name, value, unit, meta FROM accelbench.metric ORDER BY 1, 2" >metric.before &&
	pg_sql -c "SELECT * FROM accelbench_dash.runs ORDER BY run_id" >dash.before &&
	test "$(wc -l <dash.before)" = 5
'

test_expect_success 'pg init upgrades it to version 5; every row reads as before' '
	ab pg init --url "$PG_URL" --no-reader >out &&
	grep -q "^upgraded the central schema at .* from version 4 to 5$" out &&
	K1=$(cat k1) &&
	test "$(pg_sql -c "SELECT id FROM accelbench.run WHERE dedupe_key = '\''$K1'\''::uuid")" = 2 &&
	test "$(pg_sql -c "SELECT string_agg(id::text, '\'','\'' ORDER BY id) FROM accelbench.run WHERE dedupe_key IS NULL")" = "3,6" &&
	test "$(pg_sql -c "SELECT id FROM accelbench.run WHERE dedupe_key = ($H)::uuid")" = 4 &&
	test "$(pg_sql -c "SELECT id FROM accelbench.run WHERE dedupe_key = ($H2)::uuid")" = 5 &&
	test "$(pg_sql -c "SELECT params FROM accelbench.run WHERE id = 2 AND set_id IS NULL")" = "{\"a\":1}" &&
	pg_sql -c "SELECT run_id, name, value, unit, meta FROM accelbench.metric ORDER BY 1, 2" >metric.after &&
	test_cmp metric.before metric.after &&
	pg_sql -c "SELECT * FROM accelbench_dash.runs ORDER BY run_id" >dash.after &&
	test_cmp dash.before dash.after &&
	test "$(pg_sql -c "SELECT count(*) FROM accelbench.metric_kind")" = 4 &&
	ab pg check --url "$PG_URL" >out && grep -q "is consistent$" out &&
	ab pg init --url "$PG_URL" --no-reader >out && grep -q "is up to date (version 5)$" out
'

test_expect_success 'pull brings the upgraded rows: params, keys and metrics as they were' '
	ab --db p.db pull --from "$PG_URL" >out &&
	grep -q "^pulled 1 source .*; added 5 runs, 5 metrics" out &&
	ab --db p.db sql --csv "SELECT line, params, dedupe_key FROM run ORDER BY line" >runs &&
	K1=$(cat k1) &&
	grep -q "^7,\"{\"\"a\"\":1}\",$K1$" runs &&
	grep -q "^8,{},$" runs && grep -q "^11,{},$" runs &&
	grep -q "^10,\"{\"\"b\"\":\"\"x\"\"}\",[0-9a-f]\{32\}$" runs &&
	ab --db p.db sql --csv "SELECT name, value, coalesce(meta, '\''-'\'') FROM metric ORDER BY run_id, name" >metrics &&
	grep -q "^throughput,999.5,\"{\"\"reference\"\":1000.0}\"$" metrics &&
	grep -q "^energy,3.5,-$" metrics
'

test_expect_success 'push dedupes against the upgraded key and warns that the values differ' '
	ab --db l.db push --to "$PG_URL" >out 2>err &&
	cat out err &&
	grep -q "^pushed 1 source to .*; added 3 runs, 3 metrics; 1 run already there through another source$" out &&
	grep -q "^accelbench: warning: push: .perflogs/sysa/part1/Bench43.log.: 1 run measured otherwise than the store.s copies of the same run (by dedupe key), which stay as pushed first; line 2 here: throughput=1200.5, time=35.2; in the store through .site0/old.log.: throughput=999.5, time=35.2$" err &&
	test "$(wc -l <err)" = 1 &&
	test "$(pg_sql -c "SELECT value FROM accelbench.metric WHERE run_id = 2 AND name = '\''throughput'\''")" = 999.5 &&
	test "$(pg_sql -c "SELECT count(*) FROM accelbench.run_source WHERE run_id = 2")" = 1 &&
	ab --db l.db push --to "$PG_URL" >out 2>err && ! test -s err
'

test_expect_success 'runs that measured the same are skipped without a word' '
	mkdir -p g/part1 &&
	cp perflogs/sysa/part1/Bench43.log g/part1/ &&
	tail -1 g/part1/Bench43.log | sed "s/|104|/|105|/; s/1714568400/1714568500/" >>g/part1/Bench43.log &&
	ab --db g.db ingest g >/dev/null 2>&1 &&
	test "$(ab --db g.db sql --csv "SELECT count(*) FROM run" | tail -1)" = 5 &&
	ab --db g.db push --to "$PG_URL" >out 2>err &&
	cat out err &&
	grep -q "; added 1 run, 1 metric; 4 runs already there through another source$" out &&
	grep -q "^accelbench: warning: push: .g/part1/Bench43.log.: 1 run measured otherwise" err &&
	test "$(wc -l <err)" = 1 &&
	ab pg check --url "$PG_URL" >out && grep -q "is consistent$" out
'

test_done
