#!/bin/sh
# t5005-run-jube-versions: `accelbench run jube` with JUBE >= 2.6, whose
# `jube result` prints a failed run as a row with nan in its derived
# columns (tests/jube/fake_jube_new.py stands in for it: it runs the steps
# and prints the tables the way JUBE 2.7.1 does), and with Debian's JUBE
# 2.5.1, which aborts on the same benchmark: both report the failed
# workpackage by name and land the same runs.  --timeout bounds `jube run`
# itself; without JUBE in PATH the error says how to install it.
. "$(dirname "$0")/lib.sh"

cp "$ROOT"/tests/jube/* "$TRASH"/
mkdir -p "$TRASH/newjube"
printf '#!/bin/sh\nexec /usr/bin/python3 "%s/tests/jube/fake_jube_new.py" "$@"\n' "$ROOT" >"$TRASH/newjube/jube"
chmod +x "$TRASH/newjube/jube"

test_expect_success 'JUBE >= 2.6: the nan row lands as a failed run, the workpackage named' '
	expect_code 1 env PATH="$TRASH/newjube:$PATH" "$AB" run jube site_derived.xml --poll 0.2 >out 2>err &&
	cat out err &&
	grep -q "^  JUBE status: ERROR$" out &&
	! grep -q "jube result aborted" out &&
	grep -q "^  failed: 000002_train: ended in error (a nan row of the result table)$" out &&
	grep -q "^ingested: 2 files, 0 rejected; added 3 runs, 4 metrics$" out &&
	grep -q "^RuntimeError: NCCL timeout on 16 nodes$" err &&
	grep -q "^accelbench: run jube: some workpackages failed (stored as failed)$" err &&
	grep -q "^ACME2,GPT,16,64,,nan$" derived_run/000000/result/summary.dat &&
	ab sql "SELECT r.status, r.nodes, r.devices, m.value, r.excluded_reason FROM run r LEFT JOIN metric m ON m.run_id = r.id AND m.name = \"throughput\" ORDER BY r.nodes" >rows &&
	cat rows &&
	grep -Eq "^ok +1 +4 +3000(\.0)? *$" rows &&
	grep -Eq "^ok +2 +8 +6000(\.0)? *$" rows &&
	grep -Eq "^failed +16 +64 +.Tokens/second. is nan" rows &&
	test "$(ab sql "SELECT DISTINCT json_extract(params, \"$.provenance.jube_version\") FROM run" | tail -1)" = "JUBE, version 2.7.1"
'

if command -v jube >/dev/null 2>&1; then
test_expect_success 'JUBE 2.5.1 (Debian) on the same benchmark: aborts, handled, the same runs' '
	rm -rf derived_run && mv "$ACCELBENCH_DB" new.db &&
	expect_code 1 ab run jube site_derived.xml --poll 0.2 >out 2>err &&
	cat out err &&
	grep -q "^  jube result aborted" out &&
	grep -q "^  failed: 000002_train: ended in error$" out &&
	ab sql "SELECT r.status, r.nodes, r.devices, m.value FROM run r LEFT JOIN metric m ON m.run_id = r.id AND m.name = \"throughput\" ORDER BY r.nodes" >rows251 &&
	ACCELBENCH_DB=new.db "$AB" sql "SELECT r.status, r.nodes, r.devices, m.value FROM run r LEFT JOIN metric m ON m.run_id = r.id AND m.name = \"throughput\" ORDER BY r.nodes" >rows26 &&
	test_cmp rows26 rows251
'
else
	test_skip 'JUBE 2.5.1 (Debian) on the same benchmark: aborts, handled, the same runs' 'jube not installed'
fi

# The hanging step runs this test's own sleep ($T_BASE/bin/sleep), so the
# check that it was stopped looks at this test's processes only, never at
# a "sleep 47" that anything else on the machine may be running.
test_expect_success '--timeout bounds jube run itself (a synchronous step that hangs)' '
	rm -f "$ACCELBENCH_DB" &&
	mkdir -p "$T_BASE/bin" && ln -sf "$(command -v sleep)" "$T_BASE/bin/sleep" &&
	sed -e "s/outpath=\"derived_run\"/outpath=\"hang_run\"/" -e "s/name=\"mysite_derived\"/name=\"hang\"/" \
		-e "s#<do>.*</do>#<do>$T_BASE/bin/sleep 120; echo tokens: 1 elapsed: 1</do>#" site_derived.xml >hang.xml &&
	start=$(date +%s) &&
	expect_code 1 ab run jube hang.xml --timeout 2 >out 2>err &&
	end=$(date +%s) &&
	cat out err &&
	test $((end - start)) -lt 60 &&
	grep -q "^accelbench: jube run timed out after 2 s (--timeout); JUBE was stopped$" err &&
	grep -q "^accelbench: run jube: timed out (what finished is stored)$" err &&
	ab sql "SELECT r.status, r.excluded_reason FROM run r" | tail -1 | grep -q "^failed  *jube run timed out after 2 s" &&
	i=0 && while pgrep -f "$T_BASE/bin/sleep 120" >/dev/null; do
		i=$((i + 1)); [ $i -lt 50 ] || { echo "# the step still runs:"; pgrep -af "$T_BASE/bin/sleep 120"; exit 1; }
		sleep 0.2
	done
'

test_expect_success '--power: the JUBE session sampled as a whole (fake NVML)' '
	rm -f "$ACCELBENCH_DB" && rm -rf derived_run && mkdir -p "$T_BASE/lib" &&
	${AB_CC:-cc} -shared -fPIC -O1 -o "$T_BASE/lib/libnvidia-ml.so.1" "$ROOT/tests/runners/fake_nvml.c" &&
	expect_code 1 env PATH="$TRASH/newjube:$PATH" LD_LIBRARY_PATH="$T_BASE/lib" FAKE_NVML_POWER=75:0 \
		"$AB" run jube site_derived.xml --poll 0.2 --power nvml --interval 20 >out 2>err &&
	cat out &&
	grep -q "^power: nvml (1 GPU)$" out &&
	ab sql "SELECT DISTINCT json_extract(params, \"$.provenance.power_session.boundary\"), round(json_extract(params, \"$.provenance.power_session.avg_w\"), 6), json_extract(params, \"$.provenance.power[0].backend\") FROM run" | tail -n +3 >ps &&
	cat ps && test "$(wc -l <ps)" = 1 && grep -Eqx "gpu +75(\.0)? +nvml" ps
'

test_expect_success 'without JUBE in PATH: a clear error, nothing run' '
	mkdir -p nojube && ln -sf "$(command -v sh)" nojube/sh &&
	expect_code 2 env PATH="$TRASH/nojube" "$AB" run jube site_derived.xml --runs-dir nj >out 2>err &&
	cat err &&
	grep -q "JUBE is not installed (.jube. is not in PATH); install it (Debian: apt-get install jube)" err &&
	test ! -e nj
'

test_done
