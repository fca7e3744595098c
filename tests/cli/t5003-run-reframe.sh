#!/bin/sh
# t5003-run-reframe: `accelbench run reframe` runs ReFrame (a stand-in
# executable here) with its report and perflogs in a run folder and ingests
# both; a clear error when ReFrame is not installed; a crash before any
# report lands as a failed run with the output tail.
. "$(dirname "$0")/lib.sh"

RFM="$ROOT/tests/runners/fake_reframe.sh"

test_expect_success 'report and perflogs go into the run folder and are ingested' '
	expect_code 1 ab run reframe --reframe "$RFM" -- -c checks.py -r >out 2>err &&
	grep -q "^run reframe: .*fake_reframe.sh in runs/reframe/[0-9T]*Z$" out &&
	grep -q "^  reframe exited with status 1 (failed tests are in its report)$" out &&
	grep -q "^ingested: 3 files, 0 rejected; added 2 runs, 1 metric; 1 duplicate run skipped$" out &&
	grep -qx "arg: -c" runs/reframe/*/reframe.out && grep -qx "arg: -r" runs/reframe/*/reframe.out &&
	ls runs/reframe/*/report.json runs/reframe/*/perflogs/fakesys/gpu/StreamTest.log &&
	ab sql "SELECT b.name, r.status, r.excluded_reason FROM run r JOIN benchmark b ON b.id = r.benchmark_id ORDER BY r.id" >rows &&
	grep -q "^StreamTest  *ok" rows && grep -q "^BrokenTest  *failed  *sanity error: pattern not found$" rows &&
	ab sql "SELECT json_extract(params, \"$.provenance.runner\") FROM run" | tail -1 | grep -qx reframe
'

test_expect_success '--power: the whole session sampled (fake NVML), in every run.s provenance' '
	rm -f "$ACCELBENCH_DB" && mkdir -p "$T_BASE/lib" &&
	${AB_CC:-cc} -shared -fPIC -O1 -o "$T_BASE/lib/libnvidia-ml.so.1" "$ROOT/tests/runners/fake_nvml.c" &&
	expect_code 1 env LD_LIBRARY_PATH="$T_BASE/lib" FAKE_NVML_POWER=40:0,10:0 "$AB" run reframe \
		--reframe "$RFM" --power nvml --interval 20 --runs-dir pw -- -r >out 2>err &&
	cat out &&
	grep -q "^power: nvml (2 GPUs)$" out &&
	ls pw/reframe/*/power.reframe.*.csv pw/reframe/*/energy.reframe.*.csv &&
	ab sql "SELECT json_extract(params, \"$.provenance.power_session\") FROM run" | tail -n +3 >ps &&
	test "$(wc -l <ps)" = 2 && test "$(sort -u ps | wc -l)" = 1 &&
	$PY - <<-\PYEOF
	import json
	s = json.loads(open("ps").readline())
	assert s["boundary"] == "gpu" and abs(s["avg_w"] - 50) < 1e-6 and s["samples"] >= 2, s
	assert s["power_csv"].startswith("power.reframe.") and "not attributed" in s["scope"], s
	assert abs(s["energy_wh"] - sum(s["per_device"].values())) < 1e-9, s
	PYEOF
'

test_expect_success 'ReFrame not installed: a clear error, nothing runs' '
	expect_code 2 env PATH=/nonexistent "$AB" run reframe -- -r 2>err &&
	grep -q "ReFrame is not installed (.reframe. is not in PATH)" err &&
	expect_code 2 ab run reframe --reframe ./nope 2>err && grep -q "is not an executable" err
'

test_expect_success 'no report at all: a failed run with the exit status and output tail' '
	rm -f "$ACCELBENCH_DB" &&
	expect_code 1 env FAKE_RFM_NOREPORT=1 "$AB" run reframe --reframe "$RFM" >out 2>err &&
	grep -q "reframe exited with status 2 and wrote no report" err &&
	ab sql "SELECT status, excluded_reason FROM run" | tail -1 | grep -q "^failed  *reframe exited with status 2 and wrote no report$" &&
	ab sql --csv "SELECT json_extract(params, \"$.output_tail\") FROM run" | grep -qx "Traceback: config error\"" &&
	! grep -q "failed tests are in its report" out
'

test_expect_success '--dry-run prints the command line' '
	ab run reframe --reframe "$RFM" --dry-run --runs-dir dry -- -r >out &&
	grep -q "^  .*fake_reframe.sh --prefix .dry/reframe/<UTC time>/rfm. --perflogdir .dry/reframe/<UTC time>/perflogs. --report-file .dry/reframe/<UTC time>/report.json. -r$" out &&
	test ! -e dry
'

test_done
