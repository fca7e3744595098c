#!/usr/bin/python3
"""gen_caraml_runs.py - write a large, deterministic CARAML corpus in the
JUBE result-list CSV format (one run per line):

    gen_caraml_runs.py OUT_DIR SYSTEMS BATCHES REPEATS

SYSTEMS systems x BATCHES global batch sizes (16, 32, ...) x REPEATS runs of
llm-gpt-800M, one CSV file per system (about 1/50 of the runs fail with an
empty throughput).  20 8 625 gives the 100,000-run corpus of the report
benchmark.  Same arguments, same bytes (a fixed-seed generator)."""
import os
import random
import sys

ACCEL = ["A100", "H100", "GH200", "MI250", "MI300X"]
HEADER = ("JobID,System,Version,Queue,JobTime,Runtime(min),Model,ModelSize,Dataset,Nodes,"
          "Devices,GlobalBatchSize,PipelineParallel,TensorParallel,DataParallel,Iterations,"
          "Time/iteration(s),Tokens/second,Avg_TFLOPs/GPU,Energy/Device(Wh)\n")


def main():
    if len(sys.argv) != 5:
        sys.stderr.write("usage: gen_caraml_runs.py OUT_DIR SYSTEMS BATCHES REPEATS\n")
        return 2
    out, nsys, nb, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    os.makedirs(out, exist_ok=True)
    rnd = random.Random(20240913)
    job = 20000000
    runs = 0
    for s in range(nsys):
        accel = ACCEL[s % len(ACCEL)]
        name = "%s-%02d" % (accel, s + 1)
        devices = 8 if accel == "MI250" else 4
        xmax = 60000.0 + 9000.0 * s
        bhalf = 24.0 + 4.0 * (s % 5)
        watts = 300.0 + 20.0 * (s % 7)
        lines = [HEADER]
        for b in range(nb):
            gbs = 16 << b
            for r in range(reps):
                job += 1
                runs += 1
                tput = xmax * gbs / (gbs + bhalf) * rnd.gauss(1.0, 0.025)
                tokens = 2000 * gbs * 2048
                secs = tokens / tput
                energy = [watts * secs / 3600.0 * rnd.gauss(1.0, 0.02) for _ in range(devices)]
                if rnd.random() < 0.02:
                    lines.append("%d,%s,2024.01,dc-gpu,01:00:00,60,GPT,800M,OSCAR,1,%d,%d,1,1,%d,"
                                 "2000,,,,\n" % (job, name, devices, gbs, devices))
                    continue
                lines.append("%d,%s,2024.01,dc-gpu,01:00:00,60,GPT,800M,OSCAR,1,%d,%d,1,1,%d,2000,"
                             "%.4f,%.2f,%.2f,[%s]\n"
                             % (job, name, devices, gbs, devices, secs / 2000, tput,
                                tput * 6 * 8e8 / devices / 1e12,
                                ", ".join("%.2f" % e for e in energy)))
        with open(os.path.join(out, "llm_result_%s.csv" % name), "w") as f:
            f.writelines(lines)
    print("gen_caraml_runs: %d runs of %d systems in %s" % (runs, nsys, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
