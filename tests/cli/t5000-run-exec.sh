#!/bin/sh
# t5000-run-exec: `accelbench run exec` repeats a command, extracts metrics
# by regex, stores failed runs with their reason and output tail, never
# reuses a run folder, prints what it would do with --dry-run, records
# provenance and stops cleanly on Ctrl-C (what finished is stored).
. "$(dirname "$0")/lib.sh"

# no real power sensors in these tests: an empty fake sysfs, no GPU libs
mkdir -p "$T_BASE/nosys"
ACCELBENCH_SYSFS_ROOT="$T_BASE/nosys"; export ACCELBENCH_SYSFS_ROOT

test_expect_success 'metrics are extracted per repetition and ingested' '
	ab run exec -b toy --system box1 --repeat 3 --interval 20 \
		--metric "throughput=throughput: ([0-9.]+):samples/s" \
		--metric "loss=loss ([0-9.]+)" -- \
		sh -c "echo throughput: 10.5; echo loss 2; echo throughput: 12.25; echo loss 1.5" >out &&
	grep -q "^run exec toy: 3 repetitions on box1 in runs/toy/[0-9T]*Z$" out &&
	grep -q "^power: not sampled (no power source found)$" out &&
	test $(grep -c "^  run [123]/3: ok, [0-9.]* s, throughput 12.25 samples/s, loss 1.5$" out) = 3 &&
	grep -q "^ingested: 1 file, 0 rejected; added 3 runs, 9 metrics$" out &&
	ab sql "SELECT b.suite, b.name, b.metric, b.unit, y.name, r.status, m.value FROM run r JOIN benchmark b ON b.id = r.benchmark_id JOIN system y ON y.id = r.system_id JOIN metric m ON m.run_id = r.id AND m.name = \"throughput\" ORDER BY r.id" >rows &&
	test $(grep -c "^exec  *toy  *throughput  *samples/s  *box1  *ok  *12.25$" rows) = 3 &&
	ls runs/toy/*/output.3.txt runs/toy/*/run.json
'

test_expect_success 'provenance: command, hosts, times, exit status, version' '
	ab sql "SELECT params FROM run ORDER BY id LIMIT 1" | tail -1 >p.json &&
	$PY - <<-\PYEOF
	import json
	p = json.load(open("p.json"))
	v = p["provenance"]
	assert v["runner"] == "exec", v
	assert v["command"].startswith("sh -c "), v
	assert v["accelbench_command"][:4] == ["run", "exec", "-b", "toy"], v
	assert len(v["hosts"]) == 1 and v["hosts"][0], v
	assert v["accelbench_version"] and v["started"].endswith("Z") and v["finished"].endswith("Z")
	assert v["power"] == []
	assert p["exit_status"] == 0 and p["seq"] == 1 and p["output"] == "output.1.txt", p
	PYEOF
'

test_expect_success 'a failing command lands as failed with its reason and output tail' '
	expect_code 1 ab run exec -b toy --power none -- sh -c "echo starting; echo boom >&2; exit 3" >out 2>err &&
	grep -q "^  run 1/1: failed: the command exited with status 3$" out &&
	grep -q "^accelbench: run 1 of toy: the command exited with status 3; output ends:$" err &&
	grep -q "^boom$" err &&
	ab sql "SELECT status, excluded_reason, json_extract(params, \"$.output_tail\"), json_extract(params, \"$.exit_status\") FROM run WHERE status <> \"ok\"" >rows &&
	grep -q "failed  *the command exited with status 3  *starting" rows &&
	ab sql "SELECT json_extract(params, \"$.output_tail\") FROM run WHERE status = \"failed\"" | tail -1 | grep -q boom
'

test_expect_success 'a metric missing from the output fails the run, naming the metric' '
	expect_code 1 ab run exec -b toy2 --power none --metric "tps=tokens/s: ([0-9]+)" -- echo nothing here >out 2>&1 &&
	grep -q "^  run 1/1: failed: metric .tps. not found in the output$" out &&
	expect_code 1 ab run exec -b toy2 --power none --metric "tps=tokens/s: ([a-z]+)" -- echo tokens/s: fast >out 2>&1 &&
	grep -q "failed: metric .tps. is not a number: .fast.$" out
'

test_expect_success 'run folders are never reused' '
	ab run exec -b same --power none -- true >/dev/null &&
	ab run exec -b same --power none -- true >/dev/null &&
	ab run exec -b same --power none -- true >/dev/null &&
	test $(ls runs/same | wc -l) = 3 &&
	test $(ls runs/same/*/run.json | wc -l) = 3
'

test_expect_success '--dry-run prints what would run and runs nothing' '
	ab run exec -b dry --dry-run --repeat 2 --metric "x=x=([0-9]+):ms" -- touch should-not-exist >out &&
	test ! -e should-not-exist && test ! -e runs/dry &&
	grep -q "^dry run: would run 2 times on .*, output in runs/dry/<UTC time>/:$" out &&
	grep -q "^  touch should-not-exist$" out &&
	grep -q "^metric x \[ms\]: /x=(\[0-9\]+)/$" out
'

test_expect_success 'usage errors: bad regex, no command, bad power source, bad timeout' '
	expect_code 2 ab run exec -b x --metric "x=([0-9]" -- true 2>err &&
	grep -q "bad regular expression" err &&
	expect_code 2 ab run exec -b x 2>err && grep -q "no command given" err &&
	expect_code 2 ab run exec -b x --power volts -- true 2>err && grep -q "unknown power source .volts." err &&
	expect_code 2 ab run exec -b x --power nvml -- true 2>err && grep -q "power source .nvml. is not available" err &&
	expect_code 2 ab run exec -b x --timeout soon -- true 2>err && grep -q "timeout wants" err &&
	expect_code 2 ab run nosuch 2>err && grep -q "no runner .nosuch." err &&
	expect_code 2 ab run exec --metric noequals -b x -- true 2>err && grep -q "NAME=REGEX" err
'

test_expect_success 'a timeout stops the command and stores the run as failed' '
	expect_code 1 ab run exec -b slow --power none --timeout 1 -- sleep 30 >out 2>&1 &&
	grep -q "failed: the command timed out" out
'

test_expect_success 'Ctrl-C stops cleanly: the interrupted run is stored as aborted' '
	rm -f "$ACCELBENCH_DB" &&
	( "$AB" run exec -b ctrlc --power none --repeat 5 -- sh -c "echo started; sleep 30; : $T_BASE" >out 2>&1 & echo $! >pid; wait $!; echo $? >rc ) &
	# Ctrl-C once the first repetition runs (not after a fixed delay: a
	# loaded machine may not have started it yet)
	i=0; until cat runs/ctrlc/*/output.1.txt 2>/dev/null | grep -q "^started$"; do
		i=$((i + 1)); [ $i -lt 300 ] || break; sleep 0.1
	done &&
	kill -INT $(cat pid) && wait &&
	test "$(cat rc)" = 130 &&
	grep -q "^  run 1/5: aborted: the command interrupted by the user (Ctrl-C)$" out &&
	grep -q "^interrupted: 1 of 5 repetitions ran; what finished is stored$" out &&
	test "$(ab sql "SELECT count(*) || \" \" || min(status) FROM run" | tail -1)" = "1 aborted" &&
	! pgrep -f "echo started; sleep 30; : $T_BASE" >/dev/null
'

test_done
