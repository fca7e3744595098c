#!/bin/sh
# t0701-source-identity: in a results layout (MLPerf) the path carries the
# result's identity.  The same bytes filed under two model folders are two
# results, each with its own source row (its provenance); ingesting the
# same path again, or the same round from another place, adds nothing.
# Outside a results layout the same bytes anywhere are one source.
. "$(dirname "$0")/lib.sh"

I=$FIXTURES/mlperf/inference_results_v0.1
B=inf/closed/Acme/results/box1

test_expect_success 'a round ingests' '
	cp -R "$I" inf &&
	ab ingest inf >out 2>/dev/null &&
	grep -q "^3 files ingested, 0 skipped as already ingested, 0 rejected" out
'

test_expect_success 'the same bytes under <model>-99.9 are three more results' '
	cp -R $B/resnet50 $B/resnet50-99.9 &&
	ab ingest inf >out 2>/dev/null &&
	grep -q "^3 files ingested, 3 skipped as already ingested, 0 rejected, 7 read with their tables; added 3 runs" out &&
	ab sql --csv "SELECT benchmark, source FROM runs ORDER BY id" >actual &&
	cat >expect <<-EOF &&
	benchmark,source
	resnet50/Server,$B/resnet50/Server/performance/run_1/mlperf_log_detail.txt
	resnet50/SingleStream,$B/resnet50/SingleStream/performance/run_1/mlperf_log_summary.txt
	resnet50/Offline,$B/resnet50/offline/performance/run_1/mlperf_log_detail.txt
	resnet50-99.9/Server,$B/resnet50-99.9/Server/performance/run_1/mlperf_log_detail.txt
	resnet50-99.9/SingleStream,$B/resnet50-99.9/SingleStream/performance/run_1/mlperf_log_summary.txt
	resnet50-99.9/Offline,$B/resnet50-99.9/offline/performance/run_1/mlperf_log_detail.txt
	EOF
	test_cmp expect actual &&
	ab sql --csv "SELECT count(DISTINCT sha256), count(*) FROM source" >actual &&
	printf "count(DISTINCT sha256),count(*)\n3,6\n" >expect && test_cmp expect actual
'

test_expect_success 'the identity is the path from the division folder down' '
	ab sql --csv "SELECT identity FROM source WHERE id = 4" >actual &&
	printf "identity\nclosed/Acme/results/box1/resnet50-99.9/Server/performance/run_1/mlperf_log_detail.txt\n" >expect &&
	test_cmp expect actual
'

test_expect_success 're-ingesting the same paths is a no-op' '
	ab ingest inf >out 2>/dev/null &&
	grep -q "^0 files ingested, 6 skipped as already ingested, 0 rejected" out
'

test_expect_success 'the same round from another place (a copy, an absolute path) too' '
	cp -R inf copy && ab ingest copy >out 2>/dev/null &&
	grep -q "^0 files ingested, 6 skipped as already ingested, 0 rejected" out &&
	ab ingest "$PWD/inf/closed" >out 2>/dev/null &&
	grep -q "^0 files ingested, 6 skipped as already ingested, 0 rejected" out
'

test_expect_success 'ingest --replace of one copy leaves the other result alone' '
	ab ingest --replace $B/resnet50-99.9/offline/performance/run_1/mlperf_log_detail.txt >out 2>/dev/null &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected; added 1 run, .*; 1 source replaced$" out &&
	ab sql --csv "SELECT count(*) FROM runs WHERE benchmark LIKE '\''%/Offline'\''" >actual &&
	printf "count(*)\n2\n" >expect && test_cmp expect actual
'

test_expect_success 'outside a results layout the same bytes at two paths are one source' '
	mkdir t1 t2 &&
	cp "$FIXTURES/caraml/tree/llm_benchmark_nvidia_amd_run/000001/result/result.dat" t1/ &&
	cp t1/result.dat t2/ &&
	ab ingest t1 t2 >out 2>/dev/null &&
	grep -q "^1 file ingested, 1 skipped as already ingested" out
'

test_done
