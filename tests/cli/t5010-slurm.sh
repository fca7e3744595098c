#!/bin/sh
# t5010-slurm: --slurm against a real Slurm cluster started here
# (tests/slurm/cluster.sh; two nodes abn1 and abn2, one slurmd each, on this
# host): an exec run and a JUBE run submitted, followed to the end and
# ingested; a failing job and a refused submission stored as failed with
# the job id, state and output tail; the final state from sacct (the job
# completion log); Ctrl-C on a terminal (scancel or not) and without one;
# --nodes 2: exec and mlperf under srun, one task per node, each node's
# power (a fake NVML) sampled and summed; daemons stopped afterwards.
# Skips, saying why, when not root or Slurm is not installed.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/slurm/cluster.sh"

# the cluster's state lives in a short /tmp path (Unix socket length limits)
SDIR=$(mktemp -d /tmp/ab-slurm.XXXXXX)
if ! slurm_start "$SDIR" 2; then
	test_skip 'Slurm runs' "$SLURM_WHY"
	slurm_stop; rm -rf "$SDIR"
	test_done
fi
mkdir -p "$T_BASE/nosys" "$T_BASE/lib"
ACCELBENCH_SYSFS_ROOT="$T_BASE/nosys"; export ACCELBENCH_SYSFS_ROOT
${AB_CC:-cc} -shared -fPIC -O1 -o "$T_BASE/lib/libnvidia-ml.so.1" "$ROOT/tests/runners/fake_nvml.c"

test_expect_success 'exec --slurm: submitted, followed, ingested with the job id' '
	ab run exec -b sl --slurm --time 00:05:00 --power none --metric "v=value: ([0-9.]+)" -- \
		sh -c "echo value: 42; hostname" >out 2>err &&
	cat out err &&
	grep -q "^submitted Slurm job [0-9][0-9]* (script .*/runs/sl/[0-9T]*Z/job.sbatch)$" out &&
	grep -q "^Slurm job [0-9]*: COMPLETED$" out &&
	grep -q "^ingested: 1 file, 0 rejected; added 1 run, 2 metrics$" out &&
	id=$(sed -n "s/^submitted Slurm job \([0-9]*\) .*/\1/p" out) &&
	grep -q "^#SBATCH --time=00:05:00$" runs/sl/*/job.sbatch &&
	! grep -q -- "--slurm" runs/sl/*/job.sbatch && ! grep -q -- "--no-ingest.*--time" runs/sl/*/job.sbatch &&
	grep -q "run exec --folder .* --no-ingest -b sl --power none" runs/sl/*/job.sbatch &&
	ab sql "SELECT r.job_id, r.status, m.value, json_extract(r.params, \"$.provenance.slurm.state\"), json_extract(r.params, \"$.provenance.slurm.job_id\") FROM run r JOIN metric m ON m.run_id = r.id AND m.name = \"v\"" | tail -1 >row &&
	cat row &&
	grep -q "^$id  *ok  *42.0*  *COMPLETED  *$id$" row
'

test_expect_success 'a failing job: stored as failed, job id, state and output tail reported' '
	expect_code 1 ab run exec -b slfail --slurm --power none -- sh -c "echo about to fail; exit 7" >out 2>err &&
	cat out err &&
	id=$(sed -n "s/^submitted Slurm job \([0-9]*\) .*/\1/p" out) &&
	grep -q "^accelbench: Slurm job $id ended FAILED (exit status 1); job output ends:$" err &&
	grep -q "failed: the command exited with status 7" err &&
	ab sql "SELECT r.status, r.excluded_reason FROM run r JOIN benchmark b ON b.id = r.benchmark_id WHERE b.name = \"slfail\"" | tail -1 | grep -q "^failed  *the command exited with status 7$"
'

test_expect_success 'a refused submission (no such partition) lands as failed with the reason' '
	expect_code 1 ab run exec -b slpart --slurm --partition nosuchpart --power none -- true >out 2>err &&
	cat out err &&
	grep -q "sbatch refused the job (exit 1): .*[Ii]nvalid partition" err &&
	ab sql "SELECT r.status, r.excluded_reason FROM run r JOIN benchmark b ON b.id = r.benchmark_id WHERE b.name = \"slpart\"" | tail -1 | grep -q "^failed  *sbatch refused the job"
'

if command -v jube >/dev/null 2>&1; then
test_expect_success 'jube --slurm: the job runs and follows JUBE on the node; results ingested' '
	cp "$ROOT"/tests/jube/* . &&
	expect_code 1 ab run jube llm_fake.xml --tag A100 800M --poll 0.3 --slurm >out 2>err &&
	cat out err &&
	grep -q "^ingested: 3 files, 0 rejected; added 3 runs, 20 metrics, 40 power samples$" out &&
	grep -q "FAILED" err &&
	test "$(ab sql "SELECT count(*) FROM run r JOIN benchmark b ON b.id = r.benchmark_id WHERE b.name = \"llm-gpt-800M\" AND r.status = \"ok\"" | tail -1)" = 2 &&
	ab sql "SELECT json_extract(params, \"$.provenance.slurm.state\") FROM run WHERE global_batch = 32" | tail -1 | grep -qx FAILED
'
else
	test_skip 'jube --slurm: the job runs and follows JUBE on the node; results ingested' 'jube not installed'
fi

test_expect_success 'the final state comes from sacct (the job completion log)' '
	ab sql "SELECT DISTINCT json_extract(params, \"$.provenance.slurm.state_from\") FROM run" | tail -n +3 >from &&
	cat from && test "$(sort -u from)" = "sacct --completion" &&
	grep -q "JobState=COMPLETED" "$SDIR/jobcomp.txt" && grep -q "JobState=FAILED" "$SDIR/jobcomp.txt"
'

test_expect_success 'Ctrl-C on a terminal: asks whether to scancel; yes cancels the job, exit 130' '
	rm -f "$ACCELBENCH_DB" &&
	expect_code 130 $PY "$ROOT/tests/slurm/ctrl_c_tty.py" y tty.log -- "$AB" run exec -b sltty --slurm --power none -- sleep 40 &&
	cat tty.log &&
	id=$(sed -n "s/^submitted Slurm job \([0-9]*\) .*/\1/p" tty.log) && test -n "$id" &&
	grep -q "^cancel Slurm job $id? \[y/N\] y$" tty.log &&
	grep -q "^cancelled Slurm job $id$" tty.log &&
	grep -q "Slurm job $id ended CANCELLED" tty.log &&
	# a cancelled job may stay listed (COMPLETING) a moment on a loaded
	# machine; a job not cancelled would run on for 40 s
	i=0 && while [ -n "$(squeue -h -j $id 2>/dev/null)" ]; do
		i=$((i + 1)); [ $i -lt 100 ] || break; sleep 0.1
	done &&
	test -z "$(squeue -h -j $id 2>/dev/null)" &&
	ab sql "SELECT r.status, json_extract(r.params, \"$.provenance.slurm.state\") FROM run r" | tail -1 | grep -Eq "^(failed|aborted) +CANCELLED$"
'

test_expect_success 'Ctrl-C on a terminal, answer no: the job keeps running' '
	expect_code 130 $PY "$ROOT/tests/slurm/ctrl_c_tty.py" n tty2.log -- "$AB" run exec -b sltty2 --slurm --power none -- sleep 40 &&
	cat tty2.log &&
	id=$(sed -n "s/^submitted Slurm job \([0-9]*\) .*/\1/p" tty2.log) && test -n "$id" &&
	grep -q "^Slurm job $id keeps running: follow it with .squeue -j $id., cancel it with .scancel $id." tty2.log &&
	squeue -h -j $id -o %T | grep -Eq "RUNNING|PENDING|CONFIGURING" &&
	scancel $id
'

test_expect_success 'Ctrl-C without a terminal: no question, the job keeps running; ingest later' '
	rm -f "$ACCELBENCH_DB" &&
	( "$AB" run exec -b slbg --slurm --power none --metric "v=value: ([0-9]+)" -- sh -c "sleep 3; echo value: 5" </dev/null >bg.out 2>&1 & echo $! >pid; wait $!; echo $? >rc ) &
	i=0; until grep -q "^submitted Slurm job" bg.out 2>/dev/null; do i=$((i + 1)); [ $i -lt 100 ] || break; sleep 0.1; done &&
	sleep 0.5 && kill -INT $(cat pid) && wait &&
	cat bg.out &&
	test "$(cat rc)" = 130 &&
	id=$(sed -n "s/^submitted Slurm job \([0-9]*\) .*/\1/p" bg.out) &&
	! grep -q "y/N" bg.out &&
	grep -q "^Slurm job $id keeps running: follow it with .squeue -j $id., cancel it with .scancel $id.; when it ends, ingest what it wrote with: accelbench --db [^ ]*/test.db run ingest .*/runs/slbg/[0-9T]*Z$" bg.out &&
	test "$(ab sql "SELECT count(*) FROM run" | tail -1)" = 0 &&
	f=$(sed -n "s/.* run ingest \(.*\)$/\1/p" bg.out)/run.json &&
	i=0 && while [ -n "$(squeue -h -j $id 2>/dev/null)" ] || [ ! -s "$f" ]; do i=$((i + 1)); [ $i -lt 600 ] || break; sleep 0.1; done &&
	PATH="$(dirname "$AB"):$PATH" sh -c "$(sed -n "s/.* ingest what it wrote with: //p" bg.out)" >ing && cat ing &&
	ab sql "SELECT r.status, m.value FROM run r JOIN metric m ON m.run_id = r.id AND m.name = \"v\"" | tail -1 | grep -Eq "^ok +5(\.0)?$"
'

test_expect_success 'exec --slurm --nodes 2: one task per node under srun, both nodes sampled and summed' '
	rm -f "$ACCELBENCH_DB" &&
	LD_LIBRARY_PATH="$T_BASE/lib" FAKE_NVML_POWER=100:0,200:0 ab run exec -b mn --slurm --nodes 2 \
		--power nvml --interval 50 --repeat 2 --metric "v=value: ([0-9]+)" -- \
		sh -c "echo node \$SLURM_NODEID on \$SLURMD_NODENAME; [ \$SLURM_NODEID = 0 ] && echo value: 7; sleep 0.6" >out 2>err &&
	cat out err && f=$(echo runs/mn/*) &&
	grep -q "^srun --nodes=2 --ntasks=2 --ntasks-per-node=1 --kill-on-bad-exit=0 .*/accelbench run exec --folder $PWD/$f --no-ingest --node-task -b mn " $f/job.sbatch &&
	grep -q "^exec .*/accelbench run exec --folder $PWD/$f --no-ingest --gather -b mn " $f/job.sbatch &&
	grep -q "^gathered 2 nodes into $PWD/$f/run.json$" $f/job.out &&
	grep -q "^node 0 on abn1$" $f/nodes/abn1/output.2.txt && grep -q "^node 1 on abn2$" $f/nodes/abn2/output.2.txt &&
	! test -e $f/nodes/abn1/run.json && test -f $f/nodes/abn2/part.json &&
	grep -Eq "^ingested: 1 file, 0 rejected; added 2 runs, 10 metrics, [0-9]+ power samples$" out &&
	ab sql "SELECT r.status, r.nodes, m.value FROM run r JOIN metric m ON m.run_id = r.id AND m.name = \"v\"" | tail -n +3 >v &&
	cat v && test "$(grep -Ec "^ok +2 +7(\.0)?$" v)" = 2 &&
	ab sql "SELECT round(m.value, 6) FROM metric m WHERE m.name = \"avg_power\"" | tail -n +3 | sort -u >avg &&
	cat avg && grep -Eqx "600(\.0)?" avg &&
	ab sql "SELECT DISTINCT device FROM power_sample ORDER BY 1" | tail -n +3 >dev &&
	printf "abn1/pynvml:0\nabn1/pynvml:1\nabn2/pynvml:0\nabn2/pynvml:1\n" >dev.want && test_cmp dev.want dev &&
	ab sql "SELECT m.meta, r.params FROM run r JOIN metric m ON m.run_id = r.id AND m.name = \"energy\"" | tail -1 >meta &&
	$PY - <<-\PYEOF
	import json, re
	line = open("meta").read()
	meta = json.loads(line[:line.index("}  ") + 1] if "}  " in line else line.split("  ")[0])
	assert sorted(meta["per_node"]) == ["abn1", "abn2"] and meta["nodes_measured"] == 2, meta
	params = json.loads(line[line.index("  {") + 2:])
	prov = params["provenance"]
	assert prov["hosts"] == ["abn1", "abn2"], prov["hosts"]
	assert [n["name"] for n in prov["nodes"]] == ["abn1", "abn2"], prov["nodes"]
	assert prov["slurm"]["nodes"] == "abn[1-2]", prov["slurm"]
	PYEOF
'

test_expect_success 'exec --nodes 2: a run that fails on the second node fails, the node named' '
	rm -f "$ACCELBENCH_DB" &&
	expect_code 1 ab run exec -b mnfail --slurm --nodes 2 --power none -- \
		sh -c "if [ \$SLURM_NODEID = 1 ]; then echo boom on node 1 >&2; exit 3; fi; echo fine" >out 2>err &&
	cat out err &&
	grep -q "ended FAILED" err &&
	ab sql "SELECT r.status, r.nodes, r.excluded_reason, json_extract(r.params, \"$.exit_status\"), json_extract(r.params, \"$.output_tail\") FROM run r" | tail -1 >row &&
	cat row && grep -q "^failed  *2  *node abn2: the command exited with status 3  *3  *boom on node 1" row
'

test_expect_success 'mlperf --slurm --nodes 2: every node.s power log beside the result, summed by the parser' '
	rm -f "$ACCELBENCH_DB" &&
	LD_LIBRARY_PATH="$T_BASE/lib" FAKE_NVML_POWER=100:0,200:0 ab run mlperf -b resnet --runs 1 --system mnbox \
		--slurm --nodes 2 --power nvml --interval 50 -- "$ROOT/tests/runners/fake_mlperf_train.sh" >out 2>err &&
	cat out err && f=$(echo runs/resnet/*) &&
	ls $f/nodes/abn1/accelbench/results/mnbox/resnet/power/result_1/node_abn1.txt \
		$f/nodes/abn1/accelbench/results/mnbox/resnet/power/result_1/node_abn2.txt &&
	ab sql "SELECT m.name, round(m.value, 6), m.unit FROM metric m ORDER BY 1" | tail -n +3 >m &&
	cat m &&
	grep -Eq "^avg_power +600(\.0)? +W$" m && grep -Eq "^energy +110(\.0)? +Wh$" m &&
	grep -Eq "^time_to_train +11(\.0)? +min$" m &&
	test "$(ab sql "SELECT json_extract(params, \"$.power_node_logs\"), json_extract(params, \"$.provenance.run.nodes\") FROM run" | tail -1 | tr -s " ")" = "2 2"
'

test_expect_success '--slurm --dry-run prints the script and the sbatch command' '
	ab run exec -b dry --slurm --nodes 2 --gpus-per-node 4 --account proj --sbatch-arg=--exclusive --dry-run -- hostname >out &&
	cat out &&
	grep -q "^#SBATCH --nodes=2$" out && grep -q "^#SBATCH --gpus-per-node=4$" out &&
	grep -q "^#SBATCH --account=proj$" out &&
	grep -q "^and submit it with: sbatch --parsable --exclusive .runs/dry/<UTC time>/job.sbatch.$" out &&
	grep -q "^srun --nodes=2 --ntasks=2 --ntasks-per-node=1 --kill-on-bad-exit=0 .*/accelbench run exec --folder .runs/dry/<UTC time>. --no-ingest --node-task -b dry -- hostname$" out &&
	grep -q "^exec .*/accelbench run exec --folder .runs/dry/<UTC time>. --no-ingest --gather -b dry -- hostname$" out &&
	ab run reframe --reframe "$ROOT/tests/runners/fake_reframe.sh" --slurm --nodes 2 --dry-run -- -c x.py >out2 && cat out2 &&
	! grep -q "^srun" out2 && grep -q "^exec .*/accelbench run reframe --folder .* --no-ingest --reframe .*fake_reframe.sh -- -c x.py$" out2
'

slurm_stop
rm -rf "$SDIR"
test_expect_success 'the daemons are stopped' '
	! pgrep -f "slurmctld -f $SDIR" >/dev/null && ! pgrep -f "slurmd -f $SDIR" >/dev/null
'

test_done
