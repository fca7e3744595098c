#!/bin/sh
# realdata.sh - ReFrame site perflogs read from their headers alone (no
# options): a generated tree in four site layouts (ExCALIBUR-style with
# ReFrame >= 4.6.1 and older header rules, a CSV layout with
# system:partition, a per-variable layout), timed parse-only (--dry-run)
# and end to end; prints lines/s, MB/s and peak RSS.
# Env: AB_BIN, BENCH_DIR (default /tmp/accelbench-bench), REALDATA_LINES.
set -u
BENCH_DIR=${BENCH_DIR:-/tmp/accelbench-bench}
LINES=${REALDATA_LINES:-200000}
dir="$BENCH_DIR/realdata"
TIME=/usr/bin/time
export LC_ALL=C
if [ ! -f "$dir.stamp" ] || [ "$(cat "$dir.stamp")" != "$LINES" ]; then
	rm -rf "$dir"
	/usr/bin/python3 - "$dir" "$LINES" <<-\EOP || { echo "realdata: generator failed"; exit 1; }
	import os, sys
	root, total = sys.argv[1], int(sys.argv[2])
	per = total // 4
	def out(rel, header, rows):
	    p = os.path.join(root, rel)
	    os.makedirs(os.path.dirname(p), exist_ok=True)
	    with open(p, "w") as f:
	        f.write(header + "\n")
	        for r in rows:
	            f.write(r + "\n")
	def t(i):
	    return "2024-%02d-%02dT%02d:%02d:%02d" % (1 + i // 2419200 % 12, 1 + i // 86400 % 28,
	                                               i // 3600 % 24, i // 60 % 60, i % 60)
	exc = ("job_completion_time|%s|info|jobid|num_tasks|num_cpus_per_task|num_tasks_per_node|"
	       "num_gpus_per_node|Triad_value|Triad_unit|Triad_ref|Triad_lower_thres|Triad_upper_thres|"
	       "Copy_value|Copy_unit|Copy_ref|Copy_lower_thres|Copy_upper_thres|spack_spec|display_name|"
	       "system|partition|job_nodelist|environ|extra_resources|env_vars|spack_spec_dict|tags")
	def exc_rows(n, seed):
	    for i in range(n):
	        nodes = 1 << (i % 6)
	        yield ("%s|reframe 4.6.2|StreamBench /5e1a0c3d @archer2:compute-node+gcc-12.2.0|%d|%d|1|128|"
	               "null|%.3f|MB/s|200000|-0.1|None|%.3f|MB/s|0|None|None|stream@5.10%%gcc@12.2.0 +openmp|"
	               "StreamBench|archer2|compute-node|%s|gcc-12.2.0|{}|{\"OMP_NUM_THREADS\": \"1\"}|"
	               "{\"stream\": {\"version\": \"5.10\"}}|performance,stream"
	               % (t(i + seed), 10000 + i + seed, 128 * nodes, 180000 + i % 977 * 37.5, 150000 + i % 613 * 11.25,
	                  ",".join("nid%06d" % k for k in range(nodes))))
	out("exc-new/perflogs/archer2/compute-node/StreamBench.log", exc % "reframe version",
	    exc_rows(per, 0))
	out("exc-old/perflogs/archer2/compute-node/StreamBench.log", exc % "version", exc_rows(per, per))
	out("csv/perflogs/tut/default/OsuBench.log",
	    "result,job_completion_time,system:partition,environ,jobid,num_tasks,bw_value,bw_unit,bw_ref,"
	    "bw_lower_thres,bw_upper_thres,lat_value,lat_unit,lat_ref,lat_lower_thres,lat_upper_thres",
	    ("pass,%s,tut:default,builtin-gcc-7.2.0,%d,2,%.2f,MB/s,0,None,None,%.3f,us,0,None,None"
	     % (t(i), 500 + i, 9000 + i % 100, 1.5 + i % 7 * 0.125) for i in range(per)))
	def multi(n):
	    for i in range(n // 2):
	        head = "%s+01:00|4.5.1|HaloBench %%size=%d|daint|gpu|PrgEnv-nvidia|%d|16|4|4|pass" % (
	            t(i), 1024 << (i % 4), 3300 + i)
	        yield head + "|halo_time|%.5f|s|0.013|-0.2|0.1" % (0.0125 + i % 9 * 0.0001)
	        yield head + "|gflops|%.2f|GFLOP/s|0|null|null" % (800 + i % 50)
	out("multi/perflogs/daint/gpu/HaloBench.log",
	    "job_completion_time|version|display_name|system|partition|environ|jobid|num_tasks|"
	    "num_tasks_per_node|num_gpus_per_node|result|perf_var|perf_value|perf_unit|perf_ref|"
	    "perf_lower_thres|perf_upper_thres", multi(per))
	EOP
	echo "$LINES" >"$dir.stamp"
fi
bytes=$(du -sb "$dir" | cut -f1)
db="$BENCH_DIR/realdata.db"
rm -f "$db" "$db-wal" "$db-shm"
run() { # label, args...
	label=$1; shift
	$TIME -v "$AB_BIN" "$@" >"$BENCH_DIR/realdata.out" 2>"$BENCH_DIR/realdata.time" ||
		{ echo "realdata: $label failed"; tail -3 "$BENCH_DIR/realdata.time"; return; }
	secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$BENCH_DIR/realdata.time" |
		awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$BENCH_DIR/realdata.time")
	cpu=$(sed -n 's/.*\(User\|System\) time (seconds): //p' "$BENCH_DIR/realdata.time" |
		awk '{ s += $1 } END { print s + 0 }')
	# wall time depends on what else runs; CPU seconds (user + sys) do not
	awk -v n="$label" -v b="$bytes" -v s="$secs" -v c="$cpu" -v l="$LINES" -v k="$rss" 'BEGIN {
		if (s <= 0) s = 0.001
		if (c <= 0) c = 0.001
		printf "%-22s %7.1f MB %6.2f s wall %10.0f lines/s | %6.2f s CPU %10.0f lines/CPU-s | %6.1f MB RSS\n",
			n, b / 1e6, s, l / s, c, l / c, k / 1024 }'
}
echo "ReFrame site perflogs read from their headers ($LINES lines, 4 layouts):"
run "parse only (--dry-run)" --db "$db" ingest --dry-run "$dir"
run "end to end" --db "$db" ingest "$dir"
tail -1 "$BENCH_DIR/realdata.out" | sed 's/^/  /'
