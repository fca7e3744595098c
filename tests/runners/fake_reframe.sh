#!/bin/sh
# fake_reframe.sh - stands in for `reframe` (t5003): takes the options
# accelbench passes (--prefix, --perflogdir, --report-file), records its
# arguments, and writes a ReFrame 4.x JSON report (one passing, one failing
# test) and a perflog line for the passing one, exiting 1 like ReFrame does
# when a test fails.  FAKE_RFM_NOREPORT=1: crash before writing anything.
prefix= perflogdir= report=
while [ $# -gt 0 ]; do
	case $1 in
	--prefix) prefix=$2; shift ;;
	--perflogdir) perflogdir=$2; shift ;;
	--report-file) report=$2; shift ;;
	*) echo "arg: $1" ;;
	esac
	shift
done
echo "[ReFrame Setup] prefix $prefix"
if [ -n "${FAKE_RFM_NOREPORT:-}" ]; then echo "Traceback: config error" >&2; exit 2; fi
mkdir -p "$prefix" "$perflogdir/fakesys/gpu"
printf '%s\n' \
 'job_completion_time|version|display_name|system|partition|environ|jobid|result|perf_var|perf_value|perf_unit|perf_ref|perf_lower_thres|perf_upper_thres' \
 '2026-01-02T10:00:00|4.7.0|StreamTest|fakesys|gpu|gnu|77|pass|triad|1234.5|MB/s|1000|-0.1|null' \
 >"$perflogdir/fakesys/gpu/StreamTest.log"
cat >"$report" <<'JSON'
{"session_info": {"data_version": "4.0", "uuid": "fake-1", "version": "4.7.0", "time_start": "20260102T095900+0000", "hostname": "fakehost"},
 "runs": [{"run_index": 0, "testcases": [
  {"display_name": "StreamTest", "system": "fakesys", "partition": "gpu", "environ": "gnu", "jobid": "77", "result": "pass",
   "job_completion_time": "2026-01-02T10:00:00+00:00", "job_completion_time_unix": 1767348000.0, "uuid": "fake-1:0:0",
   "perfvalues": {"fakesys:gpu:triad": [1234.5, 1000, -0.1, null, "MB/s"]}},
  {"display_name": "BrokenTest", "system": "fakesys", "partition": "gpu", "environ": "gnu", "jobid": "78", "result": "fail",
   "fail_phase": "sanity", "fail_reason": "sanity error: pattern not found", "job_completion_time": "2026-01-02T10:01:00+00:00",
   "job_completion_time_unix": 1767348060.0, "uuid": "fake-1:0:1", "perfvalues": {}}
 ]}], "restored_cases": []}
JSON
exit 1
