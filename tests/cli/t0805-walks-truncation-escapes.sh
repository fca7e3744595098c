#!/bin/sh
# t0805-walks-truncation-escapes: a row cut short at the end of a table is
# rejected (the database unchanged); a walk skips a subtree it cannot read
# or one nested too deeply, with a warning, and ingests the rest; an empty
# directory is fine; control characters in file names are shown escaped.
. "$(dirname "$0")/lib.sh"

C=$FIXTURES/caraml
DB=$ACCELBENCH_DB
q="'"

test_expect_success 'a database with data to protect' '
	ab ingest "$C/llm_result_energy_list_2024.csv" >/dev/null 2>&1 && dbsum >before
'

test_expect_success 'a CARAML row cut in its last field is rejected, not stored ok' '
	head -3 "$C/fno_result_csv.dat" | head -c -2 >cut.dat && tail -c 6 cut.dat | grep -q "50.0$" &&
	expect_code 1 ab ingest cut.dat >out 2>err &&
	echo "accelbench: cut.dat:3: last line has no newline: the file is cut short (truncated row?)" >expect &&
	test_cmp expect err && dbsum >after && test_cmp before after
'

test_expect_success 'a jpwr energy file cut mid-number is rejected' '
	head -c -4 "$C/jpwr/energy.host7.4242.csv" >energy.host9.1.csv &&
	expect_code 1 ab ingest energy.host9.1.csv >out 2>err &&
	echo "accelbench: energy.host9.1.csv:3: last line has no newline: the file is cut short (truncated row?)" >expect &&
	test_cmp expect err && dbsum >after && test_cmp before after
'

test_expect_success 'an empty directory: nothing to do, no crash' '
	mkdir empty && ab ingest empty >out 2>err &&
	grep -q "^0 files ingested" out && test ! -s err
'

test_expect_success 'a tree deeper than 64 levels: that subtree is skipped with a warning' '
	mkdir -p tree && cp "$C/fno_result_csv.dat" tree/ &&
	d=tree/deep; i=0; while [ $i -lt 70 ]; do d=$d/x; i=$((i + 1)); done &&
	mkdir -p $d && cp "$C/fno_eval_result_csv.dat" $d/ &&
	ab ingest tree >out 2>err &&
	grep -q "^1 file ingested" out &&
	grep -q "^accelbench: warning: tree/deep\(/x\)*: directories nested deeper than 64 levels; its files are skipped$" err
'

if unshare --user --map-user=1000 --map-group=1000 true 2>/dev/null; then
test_expect_success 'an unreadable subdirectory is skipped with a warning; the rest lands' '
	mkdir -p walk/locked walk/open && cp "$C/fno_eval_result_csv.dat" walk/open/ &&
	cp "$C/fno_result_csv.dat" walk/locked/ && chmod 000 walk/locked &&
	cp "$DB" w.db &&
	unshare --user --map-user=1000 --map-group=1000 "$AB" --db w.db ingest walk >out 2>err; rc=$?
	chmod 755 walk/locked; test $rc = 0 &&
	grep -q "^1 file ingested" out &&
	echo "accelbench: warning: walk/locked: cannot open directory: Permission denied; its files are skipped" >expect &&
	test_cmp expect err
'
else
	test_skip 'an unreadable subdirectory is skipped with a warning; the rest lands' 'no user namespaces'
fi

test_expect_success 'file names with ESC sequences and newlines are escaped in human output' '
	name=$(printf "evil\033[31m\nname.csv") &&
	cp "$C/llm_result_energy_list_2024.csv" "$name" && echo >>"$name" &&
	ab ingest -v "$name" >out 2>err &&
	! grep -q "$(printf "\033")" err && grep -q "evil\\\\x1b\[31m\\\\nname.csv" err &&
	ab ls sources >out && ! grep -q "$(printf "\033")" out &&
	grep -q "evil\\\\x1b\[31m\\\\nname.csv" out &&
	ab ls sources --csv >raw && grep -q "$(printf "\033")" raw
'

test_done
