#!/bin/sh
# t5004-run-jube: `accelbench run jube` runs the real JUBE on a small
# CARAML-shaped benchmark (tests/jube/llm_fake.xml: fake Megatron trainer,
# jpwr-style energy files, asynchronous step followed with `jube continue`),
# ingests the result table with its energy, and stores the failed
# workpackage as failed, also with Debian's JUBE 2.5.1 whose `jube result`
# aborts on it; a site's own smaller table (tests/jube/site_bench.xml) too.  Ctrl-C leaves JUBE's state intact and says how to resume.
. "$(dirname "$0")/lib.sh"

if ! command -v jube >/dev/null 2>&1; then
	test_skip 'run jube' 'JUBE is not installed (Debian package jube)'
	test_done
fi
cp "$ROOT"/tests/jube/* "$TRASH"/

test_expect_success 'a CARAML-like JUBE benchmark is run, followed and ingested' '
	expect_code 1 ab run jube llm_fake.xml --tag A100 800M --poll 0.3 >out 2>err &&
	cat out err &&
	grep -q "^run jube llm_fake.xml in runs/llm_fake/[0-9T]*Z$" out &&
	grep -q "^  JUBE benchmark llm_benchmark_nvidia_amd, id 0, outpath llm_benchmark_nvidia_amd_run$" out &&
	grep -q "^  JUBE status: ERROR$" out &&
	grep -q "^  failed: 000002_benchmark: ended in error$" out &&
	grep -q "^ingested: 3 files, 0 rejected; added 3 runs, 20 metrics, 40 power samples$" out &&
	grep -q "torch.OutOfMemoryError: CUDA out of memory" err &&
	ab sql "SELECT b.name, y.name, r.status, r.global_batch, r.job_id, m.value FROM run r JOIN benchmark b ON b.id = r.benchmark_id JOIN system y ON y.id = r.system_id LEFT JOIN metric m ON m.run_id = r.id AND m.name = \"throughput\" ORDER BY r.global_batch" >rows &&
	cat rows &&
	grep -Eq "^llm-gpt-800M +A100 +ok +32 +4032 +655360(\.0)?$" rows &&
	grep -q "^llm-gpt-800M  *A100  *ok  *64  *4064  *873813.33$" rows &&
	grep -q "^llm-gpt-800M  *A100  *failed  *4096 *$" rows
'

test_expect_success 'energy comes from the combined jpwr energy files' '
	ab sql "SELECT r.global_batch, round(m.value, 6) FROM run r JOIN metric m ON m.run_id = r.id AND m.name = \"energy\" ORDER BY 1" >e &&
	cat e &&
	test $(grep -c "^[36][24]  *0.955555$" e) = 2
'

test_expect_success 'the failed workpackage keeps its name, reason and provenance' '
	ab sql "SELECT params FROM run WHERE status = \"failed\"" | tail -1 >p.json &&
	$PY - <<-\PYEOF
	import json
	p = json.load(open("p.json"))
	assert p["JUBEWorkpackage"] == "000002_benchmark", p
	assert "ended in error" in p["Failure"] and "out of memory" in p["Failure"], p
	v = p["provenance"]
	assert v["runner"] == "jube" and v["jube"]["benchmark"] == "llm_benchmark_nvidia_amd", v
	assert v["jube_version"].startswith("JUBE, version"), v
	assert v["command"] == "jube run --hide-animation llm_fake.xml --tag A100 800M", v
	assert v["started"].endswith("Z") and v["finished"].endswith("Z")
	PYEOF
'

test_expect_success 'a site'"'"'s own JUBE table (System + Tokens/second, no JobID) is read by its header' '
	rm -f "$ACCELBENCH_DB" &&
	ab run jube site_bench.xml --poll 0.2 >out 2>err &&
	grep -q "^  JUBE status: FINISHED$" out &&
	grep -q "^ingested: 2 files, 0 rejected; added 2 runs, 4 metrics$" out &&
	ab sql "SELECT b.name, y.name, r.nodes, r.devices, m.value, m.unit FROM run r JOIN benchmark b ON b.id = r.benchmark_id JOIN system y ON y.id = r.system_id JOIN metric m ON m.run_id = r.id AND m.name = \"throughput\" ORDER BY r.nodes" >rows &&
	cat rows &&
	grep -Eq "^mysite_llm-gpt +ACME1 +1 +8 +1500(\.0)? +tokens/s$" rows &&
	grep -Eq "^mysite_llm-gpt +ACME1 +2 +16 +3000(\.0)? +tokens/s$" rows
'

test_expect_success 'a broken config lands as a failed run with the tail of JUBE output' '
	rm -f "$ACCELBENCH_DB" &&
	printf "<jube><benchmark name=\"b\" outpath=\"o\"><step name=\"s\"><do>true</do></step>\n" >broken.xml &&
	expect_code 1 ab run jube broken.xml >out 2>err &&
	grep -q "^accelbench: jube run exited with status" err &&
	ab sql "SELECT b.name, r.status FROM run r JOIN benchmark b ON b.id = r.benchmark_id" | tail -1 | grep -q "^broken  *failed$"
'

test_expect_success 'usage: missing config, --dry-run' '
	expect_code 2 ab run jube nosuch.xml 2>err && grep -q "cannot read the JUBE config .nosuch.xml." err &&
	ab run jube llm_fake.xml --tag H100 --dry-run --runs-dir dry >out && test ! -e dry &&
	grep -q "^  jube run --hide-animation llm_fake.xml --tag H100$" out
'

test_expect_success 'Ctrl-C while following: JUBE state intact, how to resume, exit 130' '
	rm -rf llm_benchmark_nvidia_amd_run &&
	( "$AB" run jube llm_fake.xml --tag H100 800M slow --poll 0.3 >out 2>&1 & echo $! >pid; wait $!; echo $? >rc ) &
	# Ctrl-C once accelbench follows JUBE (it names the benchmark then), not
	# after a fixed delay that a loaded machine may not have reached
	i=0; until grep -q "^  JUBE benchmark .*, id 0, outpath " out 2>/dev/null; do
		i=$((i + 1)); [ $i -lt 600 ] || break; sleep 0.1
	done &&
	kill -INT $(cat pid) && wait &&
	cat out &&
	test "$(cat rc)" = 130 &&
	grep -q "^interrupted: JUBE.s state is intact; resume with .jube continue llm_benchmark_nvidia_amd_run --id 0." out &&
	test -f llm_benchmark_nvidia_amd_run/000000/workpackages.xml &&
	jube status llm_benchmark_nvidia_amd_run -i 0 | grep -q RUNNING
'

test_done
