#!/bin/sh
# t0904-pg-text: text that is not UTF-8 in the local database (a file name
# in Latin-1, bytes an older version or another tool stored) is pushed
# converted, deterministically, with a warning naming the source; it never
# fails the push nor blocks the sources after it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg_lib.sh"

pg_start_or_skip "PostgreSQL text conversion"

E9=$(printf '\351')

test_expect_success 'set-up: a perflog named in Latin-1, a job id with Latin-1 and NUL bytes' '
	cp -r "$FIXTURES/reframe/good/perflogs" . &&
	mv perflogs/sysa/part1/Bench43.log "perflogs/sysa/part1/Bench$E9.log" &&
	ab --db u.db ingest perflogs/sysa >/dev/null 2>&1 &&
	ab --db u.db ingest perflogs/sysb >/dev/null 2>&1 &&
	$PY - <<-\PYEOF &&
	import sqlite3
	c = sqlite3.connect("u.db")
	c.execute("UPDATE run_data SET job_id = CAST(? AS TEXT)"
	          " WHERE id = (SELECT max(id) FROM run_data)", (b"J\xe9\x00K",))
	c.commit()
	PYEOF
	test "$(ab --db u.db sql --csv "SELECT count(*) FROM source" | tail -1)" = 2 &&
	pg_sql -c "CREATE DATABASE t" && ab pg init --url "host=$PG_DIR user=ab dbname=t" >/dev/null
'

test_expect_success 'push sends both sources, converted, and warns about each' '
	ab --db u.db push --to "host=$PG_DIR user=ab dbname=t" >out 2>err &&
	grep -q "^pushed 2 sources to .* (0 already there); added 6 runs, 8 metrics$" out &&
	grep -q "^accelbench: warning: push: .perflogs/sysa/part1/Bench.*\.log.: 1 byte that is not UTF-8 sent with each read as Latin-1 (NUL as U+FFFD); the store holds UTF-8 text$" err &&
	grep -q "^accelbench: warning: push: .perflogs/sysb/part2/Old3x_1.log.: 2 bytes that are not UTF-8 sent" err &&
	test $(wc -l <err) = 2
'

test_expect_success 'the store holds the text as UTF-8: Latin-1 bytes as their characters, NUL as U+FFFD' '
	test "$(pg_sql -d "host=$PG_DIR user=ab dbname=t" -c "SELECT count(*) FROM accelbench.source WHERE path = '\''perflogs/sysa/part1/Bench'\'' || U&'\''\\00e9'\'' || '\''.log'\''")" = 1 &&
	test "$(pg_sql -d "host=$PG_DIR user=ab dbname=t" -c "SELECT count(*) FROM accelbench.run WHERE job_id = '\''J'\'' || U&'\''\\00e9\\fffd'\'' || '\''K'\''")" = 1
'

test_expect_success 'a second push finds both sources there and says nothing more' '
	ab --db u.db push --to "host=$PG_DIR user=ab dbname=t" >out 2>err &&
	grep -q "^pushed 0 sources to .* (2 already there); added 0 runs, 0 metrics$" out &&
	! test -s err
'

test_expect_success 'pull brings the converted text; everything else is the same' '
	ab --db p.db pull --from "host=$PG_DIR user=ab dbname=t" >out 2>err &&
	grep -q "^pulled 2 sources .* added 6 runs, 8 metrics$" out &&
	ab --db u.db stats --json >a.json && ab --db p.db stats --json >b.json && cmp a.json b.json &&
	ab --db p.db sql --csv "SELECT path FROM source ORDER BY path" >paths &&
	grep -q "^perflogs/sysa/part1/Bench$(printf "\303\251").log$" paths
'

test_done
