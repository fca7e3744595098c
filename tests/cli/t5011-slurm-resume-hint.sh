#!/bin/sh
# t5011-slurm-resume-hint: Ctrl-C without a terminal while following a
# --slurm job leaves the job running and prints the command that ingests
# what it wrote once it ended (`accelbench --db DB run ingest FOLDER`: the
# run.json and the result files it names, with the runner's provenance);
# for every runner that command, run verbatim, must land the same runs,
# under the same names, as the runner's own ingest without --slurm.  A
# stand-in sbatch (which only takes the job) and squeue (the job always
# runs) make this independent of a Slurm installation; the test runs the
# job script itself, as the node would.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T_BASE/slurm" "$T_BASE/nosys"
printf '#!/bin/sh\necho 4242\n' >"$T_BASE/slurm/sbatch"
printf '#!/bin/sh\necho RUNNING\n' >"$T_BASE/slurm/squeue"
printf '#!/bin/sh\n' >"$T_BASE/slurm/scancel"
chmod +x "$T_BASE/slurm/sbatch" "$T_BASE/slurm/squeue" "$T_BASE/slurm/scancel"
ACCELBENCH_SYSFS_ROOT="$T_BASE/nosys"; export ACCELBENCH_SYSFS_ROOT
DB_ABS="$(cd "$(dirname "$ACCELBENCH_DB")" && pwd)/$(basename "$ACCELBENCH_DB")"

# interrupt RUNNER ARG...: run `accelbench run RUNNER --slurm ARG...` with
# stdin not a terminal, Ctrl-C once the job is submitted; out holds what it
# printed, hint the command it says to run.  --timeout: should the Ctrl-C
# go astray, the following ends anyway (and the test fails).
interrupt() {
	r=$1; shift
	rm -f out pid rc hint
	( env PATH="$T_BASE/slurm:$PATH" "$AB" run "$r" --slurm --timeout 120 "$@" </dev/null >out 2>&1 & echo $! >pid
	  wait $!; echo $? >rc ) &
	i=0; until grep -q "^submitted Slurm job 4242 " out 2>/dev/null && test -s pid; do
		i=$((i + 1)); [ $i -lt 300 ] || break; sleep 0.1
	done
	kill -INT "$(cat pid)"; wait
	cat out
	test "$(cat rc)" = 130 &&
	sed -n "s/^Slurm job 4242 keeps running: follow it with .squeue -j 4242., cancel it with .scancel 4242.; when it ends, ingest what it wrote with: \(.*\)$/\1/p" out >hint &&
	test -s hint && cat hint &&
	grep -q "^accelbench --db $DB_ABS run ingest $TRASH/runs/[^ ]*/[0-9T]*Z$" hint
}

# the node's part: the job script as Slurm would run it
run_job() {
	f=$(dirname "$(sed -n "s/^submitted Slurm job 4242 (script \(.*\))$/\1/p" out)") &&
	test -f "$f/job.sbatch" && sh "$f/job.sbatch" >"$f/job.out" 2>&1
	cat "$f/job.out"
	test -f "$f/run.json"
}

# the hint, verbatim (accelbench in PATH, as installed)
run_hint() {
	PATH="$(dirname "$AB"):$PATH" sh -c "$(cat hint)"
}

# rows DB: the runs and their metrics (not the measured wall times)
rows() {
	"$AB" --db "$1" sql "SELECT b.name, r.status, r.nodes, r.global_batch, m.name, m.value FROM run r JOIN benchmark b ON b.id = r.benchmark_id LEFT JOIN metric m ON m.run_id = r.id AND m.name <> 'wall_time' ORDER BY 1, 2, 3, 4, 5, 6"
}

test_expect_success 'exec: the hint lands the runs of run.json' '
	interrupt exec -b hx --power none --metric "v=value: ([0-9]+)" -- sh -c "echo value: 5" &&
	grep -q "/runs/hx/[0-9T]*Z$" hint &&
	test "$(ab sql "SELECT count(*) FROM run" | tail -1)" = 0 &&
	run_job && run_hint &&
	"$AB" --db own.db run exec -b hx --power none --metric "v=value: ([0-9]+)" -- sh -c "echo value: 5" >/dev/null &&
	rows "$ACCELBENCH_DB" >got && rows own.db >want && cat got && test_cmp want got &&
	grep -q "^hx  *ok  *.*  *v  *5" got
'

test_expect_success 'mlperf: the hint lands the result logs run.json names' '
	rm -f "$ACCELBENCH_DB" own.db &&
	printf "%s\n" "{\"submitter\": \"Acme\", \"division\": \"closed\", \"status\": \"Available on-premise\", \"system_name\": \"Box One\", \"number_of_nodes\": \"1\", \"accelerators_per_node\": \"8\", \"accelerator_model_name\": \"NVIDIA H100-SXM5-80GB\", \"framework\": \"PyTorch\"}" >box1.json &&
	interrupt mlperf -b resnet --system-json box1.json --submitter Acme --power none -- "$ROOT/tests/runners/fake_mlperf_train.sh" &&
	grep -q "/runs/resnet/[0-9T]*Z$" hint &&
	run_job && run_hint >ing && cat ing && grep -q "^ingested: 6 files, 0 rejected; added 5 runs" ing &&
	"$AB" --db own.db run mlperf -b resnet --system-json box1.json --submitter Acme --power none -- "$ROOT/tests/runners/fake_mlperf_train.sh" >/dev/null &&
	rows "$ACCELBENCH_DB" >got && rows own.db >want && cat got && test_cmp want got &&
	test "$(grep -c "^resnet  *ok  *1 .* time_to_train" got)" = 5 &&
	# run.json alone (what the hint named before) holds none of them
	f=$(sed -n "s/.* run ingest //p" hint) &&
	rm -f old.db && "$AB" --db old.db ingest "$f/run.json" >/dev/null &&
	test "$("$AB" --db old.db sql "SELECT count(*) FROM run" | tail -1)" = 0
'

test_expect_success 'reframe: the hint lands the report and perflogs' '
	rm -f "$ACCELBENCH_DB" own.db &&
	interrupt reframe --reframe "$ROOT/tests/runners/fake_reframe.sh" -- -c checks.py &&
	grep -q "/runs/reframe/[0-9T]*Z$" hint &&
	{ run_job; true; } && run_hint &&
	{ "$AB" --db own.db run reframe --reframe "$ROOT/tests/runners/fake_reframe.sh" -- -c checks.py >/dev/null 2>&1; true; } &&
	rows "$ACCELBENCH_DB" >got && rows own.db >want && cat got && test_cmp want got &&
	grep -q "^StreamTest  *ok" got && grep -q "^BrokenTest  *failed" got
'

test_expect_success 'jube: the hint lands the result tables, named as the runner names them' '
	rm -f "$ACCELBENCH_DB" own.db &&
	cp "$ROOT"/tests/jube/* . && mkdir -p newjube &&
	printf "#!/bin/sh\nexec /usr/bin/python3 \"%s/tests/jube/fake_jube_new.py\" \"\$@\"\n" "$ROOT" >newjube/jube &&
	chmod +x newjube/jube &&
	PATH="$TRASH/newjube:$PATH" && export PATH &&
	interrupt jube site_derived.xml --poll 0.2 &&
	grep -q "/runs/site_derived/[0-9T]*Z$" hint &&
	{ run_job; true; } && { run_hint; true; } &&
	rm -rf derived_run &&
	{ "$AB" --db own.db run jube site_derived.xml --poll 0.2 >/dev/null 2>&1; true; } &&
	rows "$ACCELBENCH_DB" >got && rows own.db >want && cat got && test_cmp want got &&
	test "$(grep -c "^mysite_derived-gpt  *ok " got)" = 4 && grep -Eq "^mysite_derived-gpt +failed +16( |$)" got
'

test_expect_success 'run ingest: a folder without a manifest, or a node part, says so' '
	mkdir -p empty part &&
	expect_code 3 ab run ingest empty 2>err && cat err &&
	grep -q "^accelbench: empty/run.json: No such file or directory$" err &&
	echo "{\"accelbench_node_part\": 1}" >part/run.json &&
	expect_code 1 ab run ingest part 2>err && cat err &&
	grep -q "^accelbench: part/run.json: not a run manifest (no \"accelbench_run\"); the job may not have ended yet$" err &&
	echo "{" >part/run.json &&
	expect_code 1 ab run ingest part 2>err && cat err &&
	grep -q "^accelbench: part/run.json:[0-9]*: " err &&
	expect_code 2 ab run ingest 2>err && grep -q "give one run folder" err &&
	ab run -h | grep -q "^  accelbench run ingest \[-v\] FOLDER$"
'

test_done
