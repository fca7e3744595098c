#!/usr/bin/python3
"""gen_mlperf_round.py - write a small MLPerf-training-like round of real
shape for the report tests:

    gen_mlperf_round.py OUT_DIR [SYSTEMS]

SYSTEMS (default 30) systems of several submitters with long real-style
names (Lambda/lambda_1cc_n4_ngc24.04_nemo), 1 to 11,616 accelerators
(up to 1452 nodes x 8), each running bert (10 runs), llama2_70b_lora (10)
and gpt3 (3 runs; only systems of 64 nodes or more), time to train
falling with scale.  Logs hold only the MLLOG records a result needs, so
the round is small.  Same arguments, same bytes."""
import json
import os
import random
import sys

SUBMITTERS = ["Lambda", "NVIDIA", "Dell", "Supermicro", "Google", "AMD", "HPE", "Quanta_Cloud_Technology",
              "Juniper", "Lenovo"]
ACCEL = [("NVIDIA H100-SXM5-80GB", "NVIDIA"), ("NVIDIA H200-SXM-141GB", "NVIDIA"),
         ("AMD Instinct MI300X", "AMD"), ("NVIDIA B200-SXM-180GB", "NVIDIA"),
         ("NVIDIA GH200 Grace Hopper", "NVIDIA")]
NODES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 1452]
BENCH = [("bert", 10, 6.0, "eval_accuracy", 0.7205), ("llama2_70b_lora", 10, 30.0, "eval_accuracy", 0.926),
         ("gpt3", 3, 2000.0, "eval_accuracy", 2.68)]


def mllog(t, ev, key, value, meta=None):
    m = {"file": "train.py", "lineno": 1}
    if meta:
        m.update(meta)
    return ":::MLLOG " + json.dumps({"namespace": "", "time_ms": t, "event_type": ev, "key": key,
                                     "value": value, "metadata": m}) + "\n"


def main():
    if len(sys.argv) not in (2, 3):
        sys.stderr.write("usage: gen_mlperf_round.py OUT_DIR [SYSTEMS]\n")
        return 2
    out = sys.argv[1]
    nsys = int(sys.argv[2]) if len(sys.argv) == 3 else 30
    rnd = random.Random(4242)
    root = os.path.join(out, "training_results_v4.0")
    logs = 0
    for s in range(nsys):
        org = SUBMITTERS[s % len(SUBMITTERS)]
        accel, vendor = ACCEL[s % len(ACCEL)]
        nodes = NODES[s % len(NODES)]
        sysname = "%s_%dcc_n%d_ngc24.%02d_%s" % (org.lower(), 1 + s % 3, nodes, 1 + s % 12,
                                                  "nemo" if s % 2 else "pytorch")
        sdir = os.path.join(root, org, "systems")
        os.makedirs(sdir, exist_ok=True)
        with open(os.path.join(sdir, sysname + ".json"), "w") as f:
            json.dump({"submitter": org, "division": "closed", "status": "Available on-premise",
                       "system_name": "%s %s x%d" % (org, accel, nodes * 8),
                       "number_of_nodes": str(nodes), "host_processors_per_node": "2",
                       "host_processor_model_name": "Intel(R) Xeon(R) Platinum 8480C",
                       "accelerators_per_node": "8", "accelerator_model_name": accel,
                       "accelerator_interconnect": "NVLink",
                       "framework": "NeMo 24.%02d" % (1 + s % 12), "hw_notes": "", "sw_notes": ""},
                      f, indent=2)
        speed = (0.7 + 0.6 * rnd.random()) * (1.6 if "B200" in accel else 1.0)
        for name, runs, minutes, qkey, target in BENCH:
            if name == "gpt3" and nodes < 64:
                continue
            bdir = os.path.join(root, org, "results", sysname, name)
            os.makedirs(bdir, exist_ok=True)
            ttt = minutes / speed / (nodes ** 0.85)
            for r in range(runs):
                t0 = 1714000000000 + rnd.randrange(10 ** 9)
                dur = ttt * rnd.gauss(1.0, 0.03) * 60000.0
                lines = ["+ srun python train.py\n",
                         mllog(t0, "POINT_IN_TIME", "submission_division", "closed"),
                         mllog(t0, "POINT_IN_TIME", "submission_org", org),
                         mllog(t0, "POINT_IN_TIME", "submission_benchmark", name),
                         mllog(t0, "INTERVAL_START", "init_start", None),
                         mllog(t0, "POINT_IN_TIME", "global_batch_size", 16 * nodes * 8),
                         mllog(t0 + 1000, "INTERVAL_END", "init_stop", None),
                         mllog(t0 + 2000, "INTERVAL_START", "run_start", None),
                         mllog(int(t0 + 2000 + dur), "POINT_IN_TIME", qkey,
                               target + 0.001 if qkey != "eval_accuracy" or name != "gpt3" else target - 0.01,
                               {"epoch_num": 1}),
                         mllog(int(t0 + 2000 + dur), "INTERVAL_END", "run_stop", None,
                               {"status": "success"})]
                with open(os.path.join(bdir, "result_%d.txt" % r), "w") as f:
                    f.writelines(lines)
                logs += 1
    print("gen_mlperf_round: %d systems, %d logs in %s" % (nsys, logs, root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
