#!/usr/bin/python3
"""gen_round.py - write a deterministic MLPerf-Training-like round for tests.

    gen_round.py OUT_DIR [SEED]

Writes OUT_DIR/training_results_v4.0/<Submitter>/{systems/<system>.json,
results/<system>/<benchmark>/result_N.txt} in the real MLPerf layout and log
format (:::MLLOG records), so it goes through `accelbench ingest` like a real
round.  Shape of a real round (v4.0 had 84 systems, up to 29 per benchmark):
36 systems from 12 submitters with long real-style names
(Lambda/lambda_1cc_n4_ngc24.04_nemo), 1 to 11,616 accelerators (NVIDIA's eos
scale series n1 ... n1452 x 8), 3-10 runs per benchmark, 12+ NVIDIA systems,
a few invalid runs (no run_stop) and one system with too few result files.
Every system runs bert and llama2_70b_lora; gpt3 only the big ones.
Values are invented (simulated example data), deterministic for a seed.
"""
import json
import os
import random
import sys

BENCH = {  # name: (required runs, minutes on 8 accelerators, quality key, target)
    "bert": (10, 20.0, "eval_accuracy", 0.72),
    "llama2_70b_lora": (10, 40.0, "eval_accuracy", 0.925),
    "gpt3": (3, 3000.0, "eval_accuracy", 2.69),
}

# (submitter, system folder, nodes, accelerators per node, accelerator, software)
SYSTEMS = [
    ("NVIDIA", "eos_n1_ngc24.04_pytorch", 1, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("NVIDIA", "eos_n8_ngc24.04_pytorch", 8, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("NVIDIA", "eos_n64_ngc24.04_nemo", 64, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("NVIDIA", "eos_n128_ngc24.04_nemo", 128, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("NVIDIA", "eos_n512_ngc24.04_nemo", 512, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("NVIDIA", "eos_n1452_ngc24.04_nemo", 1452, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("NVIDIA", "hopper_n1_ngc24.04_pytorch_h200", 1, 8, "NVIDIA H200-SXM-141GB", "NGC 24.04"),
    ("Lambda", "lambda_1cc_n4_ngc24.04_nemo", 4, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Lambda", "lambda_1cc_n8_ngc24.04_nemo", 8, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Lambda", "lambda_1cc_n1_H100-SXM-80GB_ngc24.04_pytorch", 1, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Dell", "XE9680x8H100-SXM-80GB_ngc24.04_pytorch", 1, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Dell", "XE9680x8H200-SXM-141GB_ngc24.04_pytorch", 1, 8, "NVIDIA H200-SXM-141GB", "NGC 24.04"),
    ("Dell", "8xXE9680x8H100-SXM-80GB_ngc24.04_nemo", 8, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Dell", "XE8640x4H100-SXM-80GB_ngc24.04_pytorch", 1, 4, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Supermicro", "SYS-821GE-TNHR_n1_ngc24.04_pytorch", 1, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Supermicro", "AS-8125GS-TNMR2_n1_rocm6.1_pytorch", 1, 8, "AMD Instinct MI300X", "ROCm 6.1"),
    ("HPE", "hpe_cray_xd670_h100_sxm_80gb_n1_pytorch", 1, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("HPE", "hpe_cray_xd670_h100_sxm_80gb_n2_pytorch", 2, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Google", "tpu-v5p-512_jax_maxtext", 64, 4, "TPU-v5p", "JAX 0.4.26"),
    ("Google", "tpu-v5p-1024_jax_maxtext", 128, 4, "TPU-v5p", "JAX 0.4.26"),
    ("Google", "tpu-v5e-256_jax_maxtext", 64, 4, "TPU-v5e", "JAX 0.4.26"),
    ("Intel-HabanaLabs", "gaudi2_n1_8x_pt2.2", 1, 8, "Intel Gaudi 2", "SynapseAI 1.15"),
    ("Intel-HabanaLabs", "gaudi2_n128_1024x_pt2.2", 128, 8, "Intel Gaudi 2", "SynapseAI 1.15"),
    ("AMD", "MI300X_n1_rocm6.1_pytorch", 1, 8, "AMD Instinct MI300X", "ROCm 6.1"),
    ("AMD", "MI300X_n4_rocm6.1_pytorch", 4, 8, "AMD Instinct MI300X", "ROCm 6.1"),
    ("ASUSTeK", "ESC-N8-E11_H100-SXM-80GB_ngc24.04", 1, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Fujitsu", "PRIMERGY-CDI_L40S_n1_ngc24.04", 1, 8, "NVIDIA L40S", "NGC 24.04"),
    ("Fujitsu", "PRIMERGY-GX2560M7_n1_ngc24.04", 1, 4, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Quanta_Cloud_Technology", "D54U-3U_H100-PCIe-80GB_n1", 1, 4, "NVIDIA H100-PCIe-80GB", "NGC 24.04"),
    ("Quanta_Cloud_Technology", "D74H-7U_H100-SXM-80GB_n1", 1, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Oracle", "BM.GPU.H100.8_n16_ngc24.04_nemo", 16, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
    ("Oracle", "BM.GPU.A100-v2.8_n1_ngc24.04", 1, 8, "NVIDIA A100-SXM4-80GB", "NGC 24.04"),
    ("tinycorp", "tinybox_red_6xRX7900XTX", 1, 6, "AMD Radeon RX 7900 XTX", "tinygrad"),
    ("tinycorp", "tinybox_green_6x4090", 1, 6, "NVIDIA GeForce RTX 4090", "tinygrad"),
    ("CTuning", "lenovo_1xRTXA5000_pytorch", 1, 1, "NVIDIA RTX A5000", "PyTorch 2.2"),
    ("Sustainable_Metal_Cloud", "SMC_H100_SXM_n64_ngc24.04_nemo", 64, 8, "NVIDIA H100-SXM5-80GB", "NGC 24.04"),
]

SPEED = {"H100": 1.0, "H200": 1.25, "MI300X": 0.9, "TPU-v5p": 0.85, "TPU-v5e": 0.45,
         "Gaudi 2": 0.6, "L40S": 0.35, "A100": 0.45, "H100-PCIe": 0.6, "RX 7900": 0.12,
         "4090": 0.2, "RTX A5000": 0.08}


def speed_of(acc):
    for k, v in SPEED.items():
        if k in acc:
            return v
    return 1.0


def rec(t, ev, key, value, bench, meta=""):
    return (f':::MLLOG {{"namespace": "", "time_ms": {t}, "event_type": "{ev}", "key": "{key}", '
            f'"value": {json.dumps(value)}, "metadata": {{"file": "/workspace/{bench}/train.py", '
            f'"lineno": 100{meta}}}}}\n')


def log(rng, org, bench, minutes, batch, invalid):
    q, target = BENCH[bench][2], BENCH[bench][3]
    t = 1714000000000 + rng.randrange(10 ** 9)
    out = [f"Beginning trial of {bench}\n", rec(t, "POINT_IN_TIME", "cache_clear", True, bench),
           rec(t, "INTERVAL_START", "init_start", None, bench)]
    for k, v in (("submission_benchmark", bench), ("submission_org", org),
                 ("submission_division", "closed"), ("submission_status", "onprem"),
                 ("submission_platform", "PLATFORM"), ("global_batch_size", batch),
                 ("seed", rng.randrange(1 << 16))):
        out.append(rec(t, "POINT_IN_TIME", k, v, bench))
    t += 60000
    out.append(rec(t, "INTERVAL_END", "init_stop", None, bench))
    out.append(rec(t + 1, "INTERVAL_START", "run_start", None, bench))
    stop = t + 1 + int(minutes * 60000)
    for e in range(1, 4):
        te = t + (stop - t) * e // 4
        out.append(rec(te, "POINT_IN_TIME", q, round(target * (0.9 + 0.03 * e), 5), bench,
                       f', "epoch_num": {e}'))
    if not invalid:
        out.append(rec(stop, "POINT_IN_TIME", q, target + 0.001, bench, ', "epoch_num": 4'))
        out.append(rec(stop, "INTERVAL_END", "run_stop", None, bench, ', "status": "success"'))
    return "".join(out)


def main(argv):
    out = argv[1]
    rng = random.Random(int(argv[2]) if len(argv) > 2 else 20240605)
    root = os.path.join(out, "training_results_v4.0")
    for i, (org, folder, nodes, per, acc, sw) in enumerate(SYSTEMS):
        d = os.path.join(root, org, "systems")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, folder + ".json"), "w") as f:
            json.dump({"submitter": org, "division": "closed", "status": "Available on-premise",
                       "system_name": folder.replace("_", " "), "number_of_nodes": str(nodes),
                       "host_processors_per_node": "2", "host_processor_model_name": "Xeon 8480+",
                       "accelerators_per_node": str(per), "accelerator_model_name": acc,
                       "framework": sw}, f, indent=2)
        devices = nodes * per
        for bench, (req, base, _, _) in BENCH.items():
            if bench == "gpt3" and devices < 256:
                continue
            # time falls with devices, sublinearly; noise ~2 %
            minutes = base * 8 / (devices ** 0.92) / speed_of(acc) * (1 + 0.3 * rng.random())
            runs = req if i % 9 else max(3, req - 5)   # every 9th system: too few files
            if bench == "llama2_70b_lora":
                runs = min(runs, 3 + i % 8)            # 3..10 runs
            d = os.path.join(root, org, "results", folder, bench)
            os.makedirs(d, exist_ok=True)
            for r in range(runs):
                invalid = (i % 11 == 5 and r == 1)
                text = log(rng, org, bench, minutes * (0.97 + 0.06 * rng.random()),
                           max(8, devices * 4), invalid)
                with open(os.path.join(d, f"result_{r}.txt"), "w") as f:
                    f.write(text)
    print(f"gen_round: {len(SYSTEMS)} systems in {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
