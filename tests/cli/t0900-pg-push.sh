#!/bin/sh
# t0900-pg-push: `pg init` and `push` against a throwaway PostgreSQL
# server: schema and reader role, idempotent push, counts that match the
# local database, passwords never printed, a reader that cannot write.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg_lib.sh"

pg_start_or_skip "PostgreSQL push"

test_expect_success 'push without a store is a usage error that says how to give one' '
	unset ACCELBENCH_PG; expect_code 2 ab push 2>err &&
	grep -q "^accelbench: push: no PostgreSQL store given: use --to URL or set \$ACCELBENCH_PG" err
'

test_expect_success 'push to an empty database says to run pg init first' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	expect_code 3 ab --db demo/accelbench.db push --to "$PG_URL" 2>err &&
	grep -q "has no accelbench schema: run .accelbench pg init. first" err
'

test_expect_success 'pg init creates the schema and the reader role; again is a no-op' '
	ab pg init --url "$PG_URL" >out &&
	grep -q "^created the central schema at ab@$PG_DIR:5432/postgres (version 5)$" out &&
	grep -q "^created role .accelbench_reader.: it may read the views in schema accelbench_dash and nothing else$" out &&
	ACCELBENCH_PG="$PG_URL" ab pg init >out2 &&
	grep -q "is up to date (version 5)$" out2 &&
	grep -q "^updated role .accelbench_reader.: " out2 &&
	test "$(pg_sql -c "SELECT max(version) FROM accelbench.migration")" = 5
'

test_expect_success 'pg init refuses a reader role name that is not a plain identifier' '
	expect_code 2 ab pg init --url "$PG_URL" --reader "x; DROP TABLE y" 2>err &&
	grep -q "is not a plain lowercase identifier" err
'

count_local() { ab --db "$1" sql --csv "$2" | tail -1; }

test_expect_success 'push sends the demo; counts match the local database' '
	ab --db demo/accelbench.db push --to "$PG_URL" >out &&
	grep -q "^pushed 48 sources to ab@.*/postgres (0 already there); added 446 runs, [0-9]* metrics, [0-9]* power samples$" out &&
	for t in run metric power_sample source; do
		l=$(count_local demo/accelbench.db "SELECT count(*) FROM $t") &&
		r=$(pg_sql -c "SELECT count(*) FROM accelbench.$t") &&
		test "$l" = "$r" || { echo "$t: local $l, central $r"; exit 1; }
	done &&
	test "$(pg_sql -c "SELECT count(*) FROM accelbench.metric m WHERE NOT EXISTS (SELECT 1 FROM accelbench.run r WHERE r.id = m.run_id)")" = 0
'

test_expect_success 'values arrive exactly (every metric, bit for bit)' '
	ab --db demo/accelbench.db sql --csv "SELECT s.sha256, r.seq, m.name, printf(\"%!.17g\", m.value) FROM metric m JOIN run r ON r.id = m.run_id JOIN source s ON s.id = r.source_id ORDER BY 1, 2, 3" | tail -n +2 >local.txt &&
	pg_sql -F, -c "SELECT s.sha256, r.seq, m.name, m.value FROM accelbench.metric m JOIN accelbench.run r ON r.id = m.run_id JOIN accelbench.source s ON s.id = r.source_id ORDER BY 1, 2, 3" >central.txt &&
	$PY - <<-\PYEOF
	a = [l.rstrip("\n").split(",") for l in open("local.txt")]
	b = [l.rstrip("\n").split(",") for l in open("central.txt")]
	assert len(a) == len(b) and len(a) > 0, (len(a), len(b))
	for x, y in zip(a, b):
	    assert x[:3] == y[:3], (x, y)
	    assert float(x[3]) == float(y[3]), (x, y)
	PYEOF
'

test_expect_success 'a second push sends nothing' '
	ab --db demo/accelbench.db push --to "$PG_URL" >out &&
	grep -q "^pushed 0 sources to .* (48 already there); added 0 runs, 0 metrics$" out
'

test_expect_success 'passwords are never printed, also when connecting fails' '
	ab --db demo/accelbench.db push --to "$PG_URL password=sekrit4711" >out 2>err &&
	! grep -q sekrit4711 out err &&
	expect_code 3 ab --db demo/accelbench.db push --to "host=$PG_DIR/nope user=ab password=sekrit4711" >out 2>err &&
	grep -q "^accelbench: cannot connect to PostgreSQL: " err && ! grep -q sekrit4711 out err &&
	expect_code 2 ab --db demo/accelbench.db push --to "host=x password sekrit4711" >out 2>err &&
	grep -q "connection string is not valid (not shown" err && ! grep -q sekrit4711 out err &&
	expect_code 3 ab --db demo/accelbench.db push --to "postgresql://ab:sekrit4711@/postgres?host=$PG_DIR/nope" >out 2>err &&
	! grep -q sekrit4711 out err
'

test_expect_success 'the reader role reads the dashboard views and cannot write' '
	reader="host=$PG_DIR user=accelbench_reader dbname=postgres" &&
	test "$(pg_sql -d "$reader" -c "SELECT count(*) FROM accelbench_dash.runs")" = 446 &&
	pg_sql -d "$reader" -c "SELECT system, median FROM accelbench_dash.configurations WHERE benchmark = '"'llm-gpt-800M'"' AND n > 0" >conf &&
	test -s conf &&
	! pg_sql -d "$reader" -c "SELECT count(*) FROM accelbench.run" 2>err &&
	grep -q "permission denied" err &&
	! pg_sql -d "$reader" -c "DELETE FROM accelbench.source" 2>err &&
	grep -q "permission denied\|read-only" err &&
	! pg_sql -d "$reader" -c "SET default_transaction_read_only = off; INSERT INTO accelbench.source(sha256, path, format, size, ingested_at, tool_version) VALUES (1,2,3,4,5,6)" 2>err &&
	grep -q "permission denied" err &&
	! pg_sql -d "$reader" -c "CREATE TABLE accelbench_dash.x(a int)" 2>err &&
	# the Grafana example of docs/postgres.md, $__timeFilter(started) expanded
	pg_sql -d "$reader" -F, -c "SELECT started AS \"time\", system AS metric, value FROM accelbench_dash.runs WHERE benchmark = '"'llm-gpt-800M'"' AND status = '"'ok'"' AND started BETWEEN '"'2000-01-01T00:00:00Z'"' AND '"'2100-01-01T00:00:00Z'"' ORDER BY started" >grafana &&
	test "$(wc -l <grafana)" -gt 10 &&
	test "$(pg_sql -c "SELECT count(*) FROM accelbench.source")" = 48
'

test_done
