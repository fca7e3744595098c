#!/bin/sh
# t0700-replace-rm: sources that change.  An energy file that appears after
# its table was ingested is attached by `ingest --replace` (old runs go, new
# land, in one transaction); `rm source ID|PATH` removes a source with
# everything derived from it; no orphan rows ever remain.
. "$(dirname "$0")/lib.sh"

T=$FIXTURES/caraml/tree
R=llm_benchmark_nvidia_amd_run


test_expect_success 'a table ingested before its energy file: run stored without energy' '
	cp -R "$T" tree && mv tree/$R/000000/000002_combine_energy energy.away &&
	ab ingest tree/$R >out 2>err &&
	grep -q "energy file .* not found; run stored without energy" err &&
	ab sql --csv "SELECT count(*) FROM metric WHERE name = '\''energy'\''" >actual &&
	printf "count(*)\n1\n" >expect && test_cmp expect actual
'

test_expect_success 'the energy file appears: plain ingest skips the same bytes' '
	mv energy.away tree/$R/000000/000002_combine_energy &&
	ab ingest tree/$R/000000/result/result.dat >out &&
	grep -q "^0 files ingested, 1 skipped as already ingested" out
'

test_expect_success 'ingest --replace reads it again: energy and power attached, old runs gone' '
	ab ingest --replace tree/$R/000000/result/result.dat >out 2>err &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected; added 2 runs, 10 metrics, 44 power samples; 1 source replaced$" out &&
	! grep -q "not found" err &&
	ab sql --csv "SELECT count(*) FROM metric WHERE name = '\''energy'\''" >actual &&
	printf "count(*)\n2\n" >expect && test_cmp expect actual &&
	ab sql --csv "SELECT count(*) FROM run" >actual &&
	printf "count(*)\n3\n" >expect && test_cmp expect actual &&
	ab sql --csv "SELECT count(*) FROM source WHERE path LIKE '\''%/000000/result/result.dat'\''" >actual &&
	printf "count(*)\n1\n" >expect && test_cmp expect actual &&
	orphans
'

test_expect_success 'ingest --replace of a file never ingested is a plain ingest' '
	ab ingest --replace "$T/resnet50_benchmark_run" >out 2>/dev/null &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected, 1 read with their tables; added 2 runs" out &&
	! grep -q replaced out
'

test_expect_success 'a changed file at the same path replaces what that path held' '
	sed "s/327680.00/327000.00/" tree/$R/000001/result/result.dat >new.dat &&
	! cmp -s new.dat tree/$R/000001/result/result.dat &&
	cp new.dat tree/$R/000001/result/result.dat &&
	ab ingest --replace tree/$R/000001/result/result.dat >out 2>/dev/null &&
	grep -q "; 1 source replaced$" out &&
	ab sql --csv "SELECT count(*) FROM source WHERE path = '\''tree/$R/000001/result/result.dat'\''" >actual &&
	printf "count(*)\n1\n" >expect && test_cmp expect actual && orphans
'

test_expect_success 'rm source by id: runs, metrics, power samples go; others stay' '
	id=$(ab sql --csv "SELECT id FROM source WHERE path = '\''tree/$R/000000/result/result.dat'\''" | tail -1) &&
	ab rm source "$id" >out &&
	echo "removed 1 source, 2 runs, 10 metrics, 44 power samples, 1 system" >expect && test_cmp expect out &&
	ab sql --csv "SELECT count(*) FROM power_sample" >actual &&
	printf "count(*)\n0\n" >expect && test_cmp expect actual && orphans
'

test_expect_success 'rm source by path; systems and benchmarks only it used go too' '
	ab rm source "$T/resnet50_benchmark_run/000000/result/result.dat" >out &&
	echo "removed 1 source, 2 runs, 9 metrics, 1 system, 1 benchmark" >expect && test_cmp expect out &&
	ab ls systems --json >sys.json &&
	$PY -c "import json; print(\" \".join(sorted(s[\"name\"] for s in json.load(open(\"sys.json\")))))" >actual &&
	echo "JEDI" >expect && test_cmp expect actual && orphans
'

test_expect_success 'rm source: unknown id or path is refused, nothing removed' '
	n0=$(ab sql --csv "SELECT count(*) FROM run" | tail -1) &&
	expect_code 1 ab rm source 9999 tree/$R/all_ids_stdout.txt 2>err &&
	grep -q "^accelbench: no source .9999. (see .accelbench ls sources. for ids and paths)$" err &&
	test "$(ab sql --csv "SELECT count(*) FROM run" | tail -1)" = "$n0" &&
	expect_code 2 ab rm run 1 2>err && grep -q "only .source ID|PATH" err &&
	expect_code 2 ab rm source 2>err
'

test_expect_success 'removed sources ingest again as new' '
	ab ingest "$T/resnet50_benchmark_run" >out 2>/dev/null &&
	grep -q "^1 file ingested" out && orphans
'

test_done
