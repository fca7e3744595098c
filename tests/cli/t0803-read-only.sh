#!/bin/sh
# t0803-read-only: reading commands never write (not even to upgrade or to
# switch to WAL), foreign SQLite files are refused unchanged by every
# command, a database on a read-only share is read as a snapshot, and the
# last connection to close leaves no -wal or -shm behind.
. "$(dirname "$0")/lib.sh"

q="'"
same() { sha256sum "$1" >"$1.now" && test_cmp "$1.sum" "$1.now"; }
keep() { sha256sum "$1" >"$1.sum"; }

test_expect_success 'set up: an accelbench database and a foreign SQLite file' '
	ab --db ours.db ingest "$FIXTURES/caraml/llm_result_energy_list_2024.csv" >/dev/null 2>&1 &&
	sqlite3 foreign.db "CREATE TABLE notes(t TEXT); INSERT INTO notes VALUES (1);" &&
	test "$(sqlite3 foreign.db "PRAGMA journal_mode")" = delete && keep foreign.db
'

for c in "sql SELECT\ 1" "ls runs" "stats" "ls sources"; do
test_expect_success "$c on a foreign SQLite file: exit 3, not read, not changed" '
	expect_code 3 ab --db foreign.db '"$c"' >out 2>err &&
	echo "accelbench: ${q}foreign.db${q} is not an accelbench database (it has tables of its own); not read" >expect &&
	test_cmp expect err && same foreign.db && test ! -e foreign.db-wal && test ! -e foreign.db-shm &&
	test "$(sqlite3 foreign.db "SELECT count(*) FROM sqlite_master")" = 1
'
done

test_expect_success 'ingest --db on a foreign file refuses before changing a byte' '
	expect_code 3 ab --db foreign.db ingest "$FIXTURES/caraml/llm_result_energy_list_2024.csv" >out 2>err &&
	echo "accelbench: ${q}foreign.db${q} is not an accelbench database (it has tables of its own); not changed" >expect &&
	test_cmp expect err && same foreign.db &&
	test "$(sqlite3 foreign.db "PRAGMA journal_mode")" = delete
'

test_expect_success 'an empty file does not become a database when read' '
	: >empty.db &&
	expect_code 3 ab --db empty.db ls runs 2>err &&
	echo "accelbench: ${q}empty.db${q} is not an accelbench database (an empty file)" >expect &&
	test_cmp expect err && test ! -s empty.db &&
	expect_code 3 ab --db empty.db sql "SELECT 1" 2>err && test_cmp expect err && test ! -s empty.db
'

test_expect_success 'an SQLite file without tables is refused by readers, unchanged' '
	sqlite3 bare.db "CREATE TABLE x(a); DROP TABLE x;" && keep bare.db &&
	expect_code 3 ab --db bare.db stats 2>err &&
	echo "accelbench: ${q}bare.db${q} is not an accelbench database (an SQLite file without tables)" >expect &&
	test_cmp expect err && same bare.db
'

test_expect_success 'a FIFO or a directory given as --db is refused, nothing blocks' '
	mkfifo fifo.db && mkdir dir.db &&
	expect_code 3 timeout 20 "$AB" --db fifo.db ls runs 2>err &&
	echo "accelbench: cannot open database ${q}fifo.db${q}: not a regular file (a FIFO)" >expect &&
	test_cmp expect err &&
	expect_code 3 timeout 20 "$AB" --db fifo.db ingest "$FIXTURES/caraml/llm_result_energy_list_2024.csv" 2>err &&
	test_cmp expect err &&
	expect_code 3 ab --db dir.db ls runs 2>err &&
	echo "accelbench: cannot open database ${q}dir.db${q}: not a regular file (a directory)" >expect &&
	test_cmp expect err
'

test_expect_success 'reading commands leave an accelbench database byte-identical' '
	keep ours.db &&
	ab --db ours.db ls runs >/dev/null && ab --db ours.db stats >/dev/null 2>&1 &&
	ab --db ours.db sql "SELECT count(*) FROM run" >/dev/null &&
	ab --db ours.db plot bar -b llm-gpt-800M -o bar.svg 2>/dev/null &&
	same ours.db
'

# Every command, reader or writer, that closes the last connection leaves
# only the .db: readers open read-write (query_only) so that SQLite folds
# the WAL and removes -wal and -shm as it does for a writer.
test_expect_success 'the last connection to close leaves no -wal or -shm, whatever the command' '
	mkdir last && cp "$FIXTURES/caraml/llm_result_energy_list_2024.csv" last/ &&
	db=last/l.db && keep ours.db && cp ours.db "$db" &&
	for c in "ingest last/llm_result_energy_list_2024.csv" "ls runs" "stats" "sql SELECT(1)" \
		 "report -o last/r.pdf" "export -o last/r.csv" "export -o last/r.xlsx" \
		 "plot bar -b llm-gpt-800M -o last/b.svg" "ingest last/llm_result_energy_list_2024.csv"; do
		ab --db "$db" $c >/dev/null 2>&1 || { echo "$c failed"; exit 1; }
		ls -a last >left && ! grep -E "[-](wal|shm)$" left || { echo "after $c"; exit 1; }
	done
'

test_expect_success 'a reader that is not the last leaves the WAL to the connection still open' '
	sqlite3 last/l.db >out 2>&1 <<-EOF &&
	BEGIN; SELECT count(*) FROM source;
	.shell "$AB" --db last/l.db ls runs >/dev/null && ls last >left
	COMMIT;
	EOF
	grep -q "^l.db-wal$" left && grep -q "^l.db-shm$" left &&
	ls -a last >left2 && ! grep -E "[-](wal|shm)$" left2
'

if unshare -m true 2>/dev/null; then
test_expect_success 'a WAL database on a read-only share is read as an immutable snapshot' '
	mkdir -p share ro && cp ours.db share/ && rm -f share/ours.db-shm share/ours.db-wal &&
	test "$(sqlite3 share/ours.db "PRAGMA journal_mode")" = wal &&
	unshare -m sh -c "mount --bind share ro && mount -o remount,ro,bind ro &&
		\"$AB\" --db ro/ours.db ls runs --csv >out 2>err; echo \$? >rc" &&
	test "$(cat rc)" = 0 &&
	echo "accelbench: note: ${q}ro/ours.db${q} cannot be read in place (read-only location); reading it as an immutable snapshot" >expect &&
	test_cmp expect err && test "$(wc -l <out)" -ge 2
'
else
	test_skip 'a WAL database on a read-only share is read as an immutable snapshot' 'unshare -m unavailable'
fi

test_done
