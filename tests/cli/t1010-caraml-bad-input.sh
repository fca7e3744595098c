#!/bin/sh
# t1010-caraml-bad-input: broken CARAML tables and jpwr files are rejected
# with "file:line: what", exit 1, and leave the database untouched; good
# files next to them still land (unless --strict); a missing energy file
# is only a warning.
. "$(dirname "$0")/lib.sh"

B=$FIXTURES/caraml/bad

# counts of every table the ingest writes
db_counts() {
	ab sql "SELECT (SELECT count(*) FROM source), (SELECT count(*) FROM run), (SELECT count(*) FROM metric), (SELECT count(*) FROM power_sample)" --csv | tail -1
}

# expect_reject FILE MESSAGE [ingest options]: exit 1, that one line on
# stderr, and no change to the database
expect_reject() {
	file=$1 msg=$2; shift 2
	before=$(db_counts) &&
	expect_code 1 ab ingest "$@" "$file" >out 2>err &&
	echo "accelbench: $msg" >expect &&
	test_cmp expect err &&
	grep -q "^0 files ingested, 0 skipped as already ingested, 1 rejected; added 0 runs, 0 metrics$" out &&
	test "$(db_counts)" = "$before"
}

test_expect_success 'set up a database with one good table' '
	ab ingest "$FIXTURES/caraml/fno_result_csv.dat" >out &&
	test "$(db_counts)" = "1,3,16,0"
'

test_expect_success 'truncated table: the short last row is named' '
	expect_reject "$B/truncated.csv" "$B/truncated.csv:3: row has 17 fields, header has 20 (truncated row?)"
'

test_expect_success 'wrong column count: more fields and no column that may hold commas' '
	expect_reject "$B/wrong_columns.csv" "$B/wrong_columns.csv:3: row has 22 fields, header has 20 (a value contains an unquoted '"'"','"'"')"
'

test_expect_success 'text in a number column' '
	expect_reject "$B/text_in_number.csv" "$B/text_in_number.csv:3: '"'"'Tokens/second'"'"' is not a number: '"'"'fast'"'"'"
'

test_expect_success 'a row without a system' '
	expect_reject "$B/empty_system.csv" "$B/empty_system.csv:2: empty '"'"'System'"'"'"
'

test_expect_success 'a table with no throughput column' '
	expect_reject "$B/no_throughput.csv" "$B/no_throughput.csv:1: unknown CARAML table: no '"'"'Tokens/second'"'"', '"'"'Images/second'"'"' or '"'"'TrainTimesteps/second'"'"' column"
'

test_expect_success 'a truncated pretty table' '
	expect_reject "$B/pretty_truncated.dat" "$B/pretty_truncated.dat:5: row has 2 cells, header has 3 (truncated row?)"
'

test_expect_success 'an empty file, detected and forced' '
	expect_reject "$B/empty.dat" "$B/empty.dat: empty file" &&
	expect_reject "$B/empty.dat" "$B/empty.dat: no result table found" --format jube-table
'

test_expect_success 'a binary file, detected and forced' '
	printf "\177ELF\000\000\001\002JobID,System\n" >blob.dat &&
	expect_reject blob.dat "blob.dat: binary data, not a benchmark result" &&
	expect_reject blob.dat "blob.dat:1: binary data (NUL byte)" --format jube-table &&
	expect_reject blob.dat "blob.dat:1: binary data (NUL byte)" --format jpwr-combined
'

test_expect_success 'a 10 MB single line hits the 1 MiB line limit cleanly' '
	{ printf "JobID,System,Tokens/second\n1,A100,"; head -c 10485760 /dev/zero | tr "\0" 9; echo; } >long.csv &&
	expect_reject long.csv "long.csv:2: line longer than 1048576 bytes" &&
	{ printf "JobID,System,Tokens/second"; head -c 10485760 /dev/zero | tr "\0" ,; } >wide.csv &&
	expect_reject wide.csv "wide.csv:1: line longer than 1048576 bytes"
'

test_expect_success 'broken jpwr files given on their own' '
	printf ",timestamps,pynvml:0\n0,10.0,100\n1,9.0,100\n" >power.h.1.csv &&
	expect_reject power.h.1.csv "power.h.1.csv:3: timestamps go backwards" &&
	printf ",nodename,rank,,pynvml:0\n0,n1,0,0,12.5\n1,n1,1,0\n" >combined_energy.csv &&
	expect_reject combined_energy.csv "combined_energy.csv:3: row has 4 fields, header has 5" &&
	printf ",0\npynvml:0,lots\n" >A100_power.0.energy.csv &&
	expect_reject A100_power.0.energy.csv "A100_power.0.energy.csv:2: '"'"'pynvml:0'"'"' is not a number: '"'"'lots'"'"'"
'

test_expect_success 'mixed directory: the good file lands, the bad one is named, exit 1' '
	before=$(db_counts) &&
	expect_code 1 ab ingest "$B/mixed" >out 2>err &&
	echo "accelbench: $B/mixed/b_bad.csv:2: '"'"'Nodes'"'"' is not a number: '"'"'one'"'"'" >expect &&
	test_cmp expect err &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 1 rejected; added 1 run, 4 metrics$" out &&
	test "$(ab sql "SELECT count(*) FROM run WHERE job_id = '"'"'13077000'"'"'" --csv | tail -1)" = 1
'

test_expect_success '--strict stops at the first rejected file' '
	rm -f "$ACCELBENCH_DB" &&
	mkdir strict && cp "$B/mixed/b_bad.csv" strict/a_bad.csv && cp "$B/mixed/a_good.csv" strict/b_good.csv &&
	expect_code 1 ab ingest --strict strict >out 2>err &&
	echo "accelbench: strict/a_bad.csv:2: '"'"'Nodes'"'"' is not a number: '"'"'one'"'"'" >expect &&
	test_cmp expect err &&
	grep -q "^0 files ingested, 0 skipped as already ingested, 1 rejected;" out &&
	test "$(ab sql "SELECT count(*) FROM run" --csv | tail -1)" = 0
'

test_expect_success 'a missing energy file is a warning: the run lands without energy' '
	rm -f "$ACCELBENCH_DB" &&
	ab ingest "$B/missing_energy.csv" >out 2>err &&
	echo "accelbench: warning: $B/missing_energy.csv:2: energy file '"'"'/nowhere/CARAML/llm_training/llm_benchmark_nvidia_amd_run/000009/000003_combine_energy/work/combined_energy.csv'"'"' not found; run stored without energy" >expect &&
	test_cmp expect err &&
	test "$(ab sql "SELECT status, (SELECT count(*) FROM metric m WHERE m.run_id = r.id AND m.name LIKE '"'"'energy%'"'"') FROM run r" --csv | tail -1)" = "ok,0"
'

test_expect_success 'an unreadable energy file is a warning too' '
	mkdir -p t/000000/result t/000000/000001_combine_energy/work &&
	printf "JobID,System,Nodes,Devices,GlobalBatchSize,Iterations,Tokens/second,EnergyFile\n77,A100,1,4,32,10,81920.00,/far/away/000000/000001_combine_energy/work/combined_energy.csv\n" >t/000000/result/result.dat &&
	printf ",nodename,rank,pynvml:0\n0,n1,0,oops\n" >t/000000/000001_combine_energy/work/combined_energy.csv &&
	ab ingest t >out 2>err &&
	grep -q "^accelbench: warning: t/000000/result/result.dat:2: energy file not used: .*t/000000/000001_combine_energy/work/combined_energy.csv:2: '"'"'pynvml:0'"'"' is not a number: '"'"'oops'"'"'$" err &&
	test "$(ab sql "SELECT count(*) FROM run WHERE job_id = '"'"'77'"'"'" --csv | tail -1)" = 1
'

test_done
