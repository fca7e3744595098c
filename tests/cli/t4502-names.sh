#!/bin/sh
# t4502-names: what a new user hits with a wrong name or a misplaced --db:
# the message lists what is valid and the exit status is not 0.
. "$(dirname "$0")/lib.sh"
DB="--db demo/accelbench.db"

test_expect_success 'set up the demo database' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null
'

test_expect_success 'an unknown metric lists the valid ones and exits 1 (no "no values" rows)' '
	expect_code 1 ab $DB stats -b resnet50 -m speed >out 2>err &&
	test ! -s out &&
	test "$(cat err)" = "accelbench: stats: no metric '"'"'speed'"'"' in resnet50; valid: avg_power, energy, energy_efficiency, energy_per_device, energy_per_unit, throughput, throughput_per_device"
'

test_expect_success 'an unknown benchmark lists the benchmarks (of the suite when given)' '
	expect_code 1 ab $DB stats -b resnet5 2>err &&
	test "$(cat err)" = "accelbench: stats: no benchmark '"'"'resnet5'"'"'; valid: CosmoFlowBenchmark, DeepCAMBenchmark, ResNet50Benchmark, llm-gpt-800M, resnet, resnet50" &&
	expect_code 1 ab $DB scaling --suite caraml -b resnet 2>err &&
	test "$(cat err)" = "accelbench: scaling: no benchmark '"'"'resnet'"'"' in caraml; valid: llm-gpt-800M, resnet50"
'

test_expect_success 'an unknown system or baseline lists the systems that ran the benchmark' '
	expect_code 1 ab $DB compare -b llm-gpt-800M --baseline B200 2>err &&
	test "$(cat err)" = "accelbench: compare: no baseline system '"'"'B200'"'"' in llm-gpt-800M; valid: A100, H100, JEDI, MI250, WAIH100" &&
	expect_code 1 ab $DB cost -b resnet50 --prices demo/prices.json --system TPU 2>err &&
	grep -q "^accelbench: cost: no system '"'"'TPU'"'"' in resnet50; valid: A100, GC200, H100, JEDI, MI250, WAIH100$" err &&
	expect_code 1 ab $DB plot bar -b resnet50 --baseline TPU -o x.png 2>err &&
	grep -q "no baseline system" err && test ! -f x.png
'

test_expect_success 'a display name is a valid system name' '
	ab $DB stats -b resnet --system "Demo H100 node" >out &&
	grep -q "Demo H100 node\|h100_n1" out
'

test_expect_success '--db after the command says it goes first' '
	expect_code 2 ab stats --db demo/accelbench.db 2>err &&
	test "$(cat err)" = "accelbench: stats: --db is a global option and goes before the command: accelbench --db PATH stats ..."
'

test_expect_success 'plot prints the path it wrote' '
	ab $DB plot bar -b resnet50 --baseline A100 -o bar.svg >out &&
	test "$(cat out)" = "wrote bar.svg" && test -s bar.svg
'

test_done
