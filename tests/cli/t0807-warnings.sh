#!/bin/sh
# t0807-warnings: what used to be accepted silently now says so on stderr
# with file:line (or is rejected): a run report's data_version from the
# future, a key given twice in a test case, a column named twice in a JUBE
# table.
. "$(dirname "$0")/lib.sh"

R=$FIXTURES/reframe/reports
C=$FIXTURES/caraml
q="'"

test_expect_success 'data_version 99 is read with a warning naming file and line' '
	sed "s/\"data_version\": \"4.0\"/\"data_version\": \"99.1\"/" "$R/dv40-perfvalues5.json" >dv99.json &&
	grep -q 99.1 dv99.json &&
	ab ingest dv99.json >out 2>err &&
	echo "accelbench: warning: dv99.json:2: data_version ${q}99.1${q} is newer than the newest this accelbench knows (4.x); read as 4.x" >expect &&
	test_cmp expect err
'

test_expect_success 'a key given twice in a test case rejects the report at its line' '
	sed "0,/\"display_name\": \"FiveTest %x=1\",/s//\"display_name\": \"FiveTest %x=1\", \"system\": \"other\",/" "$R/dv40-perfvalues5.json" >dup.json &&
	! cmp -s dup.json "$R/dv40-perfvalues5.json" &&
	sha256sum <"$ACCELBENCH_DB" >before &&
	expect_code 1 ab ingest dup.json >out 2>err &&
	grep -q "^accelbench: dup.json:[0-9]*: bad JSON: duplicate object key" err &&
	sha256sum <"$ACCELBENCH_DB" >after && test_cmp before after
'

test_expect_success 'a JUBE column named twice: a warning, the first is read' '
	head -1 "$C/fno_result_csv.dat" | sed "s/,Nodes,/,Nodes,Nodes,/" >dupcol.dat &&
	tail -n +2 "$C/fno_result_csv.dat" | sed "s/^\([^,]*,[^,]*,[^,]*,[^,]*\),\([^,]*\),/\1,\2,99,/" >>dupcol.dat &&
	ab ingest dupcol.dat >out 2>err;
	grep -q "^accelbench: warning: dupcol.dat:1: 1 column name is given more than once in the header (e.g. ${q}Nodes${q}); only the first of each is read$" err
'

test_done
