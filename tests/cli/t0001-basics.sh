#!/bin/sh
# t0001-basics: command table, usage errors, exit codes, database opening,
# read-only sql, files no parser recognises.
. "$(dirname "$0")/lib.sh"

test_expect_success 'version prints the version and exits 0' '
	ab --version >out && grep -q "^accelbench [0-9][0-9.]* (sqlite " out &&
	ab version >out2 && test_cmp out out2
'

test_expect_success 'no command is a usage error (exit 2)' '
	expect_code 2 ab 2>err && grep -q "^usage: accelbench" err
'

test_expect_success 'unknown command and unknown option are usage errors' '
	expect_code 2 ab frobnicate 2>err &&
	test "$(cat err)" = "accelbench: '"'"'frobnicate'"'"' is not a command (see '"'"'accelbench -h'"'"')" &&
	expect_code 2 ab ls --bogus runs 2>err &&
	grep -q "^accelbench: ls: unknown option '"'"'--bogus'"'"'" err
'

test_expect_success 'every command has -h usage from its table, and help CMD shows it' '
	ab help >list &&
	sed -n "s/^  \([a-z]*\)  .*/\1/p" list >cmds && test -s cmds &&
	for c in $(cat cmds); do
		ab $c -h >h.$c || { echo "$c -h failed"; exit 1; }
		head -1 h.$c | grep -q "^usage: accelbench $c" || { echo "bad usage for $c"; exit 1; }
		ab help $c >g.$c && test_cmp h.$c g.$c || exit 1
	done
'

test_expect_success 'the man page SYNOPSIS matches every command usage line' '
	man=$ROOT/docs/accelbench.1 &&
	test -f "$man" &&
	sed -n "/^\.SH SYNOPSIS/,/^\.SH /p" "$man" | sed "s/\\\\-/-/g" >synopsis &&
	for c in $(ab help | sed -n "s/^  \([a-z]*\)  .*/\1/p"); do
		line=$(ab $c -h | head -1 | sed "s/^usage: //")
		grep -qxF "$line" synopsis || { echo "man page lacks: $line"; exit 1; }
	done
'

test_expect_success 'exit codes are documented in the man page' '
	man=$ROOT/docs/accelbench.1 &&
	for code in 0 1 2 3 4; do grep -q "^\.B $code\$" "$man" || exit 1; done
'

test_expect_success 'reading a missing database is an I/O error (exit 3)' '
	expect_code 3 ab --db nonexistent.db ls runs 2>err &&
	grep -q "^accelbench: cannot open database .nonexistent.db.: No such file" err &&
	test ! -f nonexistent.db
'

test_expect_success 'a file that is not a database is refused clearly (exit 3)' '
	echo "hello" >notadb.db &&
	expect_code 3 ab --db notadb.db ls runs 2>err &&
	test "$(cat err)" = "accelbench: '"'"'notadb.db'"'"' is not an accelbench database (not an SQLite file)" &&
	test "$(cat notadb.db)" = hello
'

test_expect_success 'ingest without a path, or with an unknown format, is a usage error' '
	expect_code 2 ab ingest 2>err &&
	expect_code 2 ab ingest --format nope x 2>err &&
	grep -q "unknown format .nope. (known: " err
'

test_expect_success 'an empty file given by name is rejected with exit 1' '
	: >empty.txt &&
	expect_code 1 ab ingest empty.txt >out 2>err &&
	test "$(cat err)" = "accelbench: empty.txt: empty file" &&
	grep -q "^0 files ingested, 0 skipped as already ingested, 1 rejected" out
'

test_expect_success 'a binary file is rejected, not parsed' '
	printf "\000\001\002\003binary\000" >blob.bin &&
	expect_code 1 ab ingest blob.bin 2>err &&
	test "$(cat err)" = "accelbench: blob.bin: binary data, not a benchmark result"
'

test_expect_success 'an unknown text file given by name is rejected; in a directory it is ignored' '
	mkdir -p d && echo "just some notes" >d/notes.txt &&
	expect_code 1 ab ingest d/notes.txt 2>err &&
	test "$(cat err)" = "accelbench: d/notes.txt: format not recognised (use --format)" &&
	ab ingest d >out 2>err &&
	grep -q "1 not recognised" out
'

test_expect_success 'a missing path is an I/O error' '
	expect_code 3 ab ingest does/not/exist 2>err &&
	grep -q "cannot access .does/not/exist." err
'

test_expect_success 'sql is read-only and runs one statement' '
	ab sql "SELECT 1 AS one, 0.5 AS half" >out &&
	printf "one  half\n---  ----\n1    0.5\n" >want && test_cmp want out &&
	expect_code 1 ab sql "DELETE FROM source" 2>err &&
	test "$(cat err)" = "accelbench: sql error: the statement would modify the database" &&
	expect_code 1 ab sql "SELECT 1; SELECT 2" 2>err &&
	expect_code 1 ab sql "SELEC nonsense" 2>err && grep -q "^accelbench: sql error: " err
'

test_expect_success 'sql --csv quotes like RFC 4180' '
	ab sql --csv "SELECT '"'"'a,b'"'"' AS x, '"'"'say \"hi\"'"'"' AS y" >out &&
	printf "x,y\n\"a,b\",\"say \"\"hi\"\"\"\n" >want && test_cmp want out
'

test_expect_success 'the schema is at its latest migration, with foreign keys' '
	n=$(ab sql "PRAGMA user_version" | tail -1) && test "$n" -ge 1 &&
	ab sql "SELECT name FROM sqlite_master WHERE type IN ('"'"'table'"'"','"'"'view'"'"') ORDER BY name" >t &&
	for x in benchmark metric power_sample run runs source system; do grep -qx "$x" t || exit 1; done
'

test_expect_success 'an older database: reading commands refuse it unchanged, a writing one upgrades it' '
	sqlite3 old.db <"$FIXTURES/db/v1.sql" &&
	sha256sum old.db >before &&
	expect_code 3 ab --db old.db ls runs 2>err &&
	echo "accelbench: database '"'"'old.db'"'"' has schema version 1, older than this accelbench reads ($(ab sql "PRAGMA user_version" | tail -1)): a writing command such as '"'"'accelbench ingest'"'"' upgrades it" >expect &&
	test_cmp expect err && sha256sum old.db >after && test_cmp before after &&
	ab --db old.db ingest d >/dev/null &&
	test "$(sqlite3 old.db "PRAGMA user_version")" -ge 2 &&
	test "$(sqlite3 old.db "SELECT count(*) FROM sqlite_master WHERE name = '"'"'metric_name'"'"'")" = 0 &&
	ab --db old.db ls runs >/dev/null
'

test_expect_success 'a database from a newer accelbench is refused, not misread' '
	ab --db new.db ingest d >/dev/null &&
	sqlite3 new.db "PRAGMA user_version = 99" &&
	expect_code 3 ab --db new.db ls runs 2>err &&
	grep -q "has schema version 99, newer than this accelbench understands" err
'

test_expect_success 'ls of an empty database prints headers only; --json prints []' '
	ab ls systems >out && test "$(wc -l <out)" -eq 2 &&
	ab ls runs --json >out && test "$(cat out)" = "[]" &&
	expect_code 2 ab ls everything 2>err
'

test_expect_success 'ls formats lists the parsers' '
	ab ls formats >out && test -s out
'

test_done
