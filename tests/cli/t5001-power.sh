#!/bin/sh
# t5001-power: the power sampler of `run exec` against a fake
# libnvidia-ml.so.1 and librocm_smi64.so built here (scripted readings) and
# a fake sysfs tree (ACCELBENCH_SYSFS_ROOT) with GH200 hwmon sensors and a
# RAPL package counter that wraps: the CSV is jpwr's layout, the energy
# stored matches the scripted readings, provenance names the devices.
. "$(dirname "$0")/lib.sh"

CC=${AB_CC:-cc}
LIB="$T_BASE/lib"; SYS="$T_BASE/sys"; EMPTY="$T_BASE/empty"
mkdir -p "$LIB" "$EMPTY"
RAPL="$SYS/sys/class/powercap/intel-rapl:0"

make_fakes() {
	$CC -shared -fPIC -O1 -o "$LIB/libnvidia-ml.so.1" "$ROOT/tests/runners/fake_nvml.c" &&
	$CC -shared -fPIC -O1 -o "$LIB/librocm_smi64.so" "$ROOT/tests/runners/fake_rocm.c" &&
	mkdir -p "$SYS/sys/class/hwmon/hwmon0/device" "$SYS/sys/class/hwmon/hwmon1/device" \
		"$SYS/sys/class/hwmon/hwmon2" "$RAPL" "$SYS/sys/class/powercap/intel-rapl:0:0" &&
	echo 250000000 >"$SYS/sys/class/hwmon/hwmon0/device/power1_average" &&
	echo "Module Power Socket 0" >"$SYS/sys/class/hwmon/hwmon0/device/power1_oem_info" &&
	echo 100000000 >"$SYS/sys/class/hwmon/hwmon1/device/power1_average" &&
	echo "Grace Power Socket 0" >"$SYS/sys/class/hwmon/hwmon1/device/power1_oem_info" &&
	echo nvme >"$SYS/sys/class/hwmon/hwmon2/name" &&
	echo 0 >"$RAPL/energy_uj" && echo 1000000 >"$RAPL/max_energy_range_uj" &&
	echo package-0 >"$RAPL/name" && echo 7 >"$SYS/sys/class/powercap/intel-rapl:0:0/energy_uj"
}

# jpwr's rule over the CSV: E = sum_{i>=1} P_i (t_i - t_{i-1}) / 3600, per column
cat >"$T_BASE/jpwr.py" <<-\PYEOF
import csv, glob, json, sys
path = glob.glob(sys.argv[1])[0]
rows = list(csv.reader(open(path)))
head, body = rows[0], rows[1:]
assert head[0] == "" and head[1] == "timestamps", head
assert [r[0] for r in body] == [str(i) for i in range(len(body))]
t = [float(r[1]) for r in body]
assert all(b > a for a, b in zip(t, t[1:]))
out = {"rows": len(body), "cols": head[2:], "values": {}, "wh": {}}
for j, c in enumerate(head[2:], 2):
    v = [float(r[j]) if r[j] else None for r in body]
    out["values"][c] = v
    out["wh"][c] = sum(v[i] * (t[i] - t[i - 1]) for i in range(1, len(v)) if v[i] is not None) / 3600
print(json.dumps(out))
PYEOF

test_expect_success 'build the fake NVML and ROCm SMI libraries and sysfs tree' 'make_fakes'

test_expect_success 'NVML without energy counters: the jpwr integral of the scripted readings' '
	LD_LIBRARY_PATH="$LIB" FAKE_NVML_POWER=100:10,200:0 ACCELBENCH_SYSFS_ROOT="$EMPTY" \
		ab run exec -b pw --system fakegpu --power nvml --interval 50 -- sleep 0.6 >out &&
	grep -q "^power: nvml (2 GPUs)$" out &&
	grep -q "^  run 1/1: ok, [0-9.]* s, [0-9.e-]* Wh, [0-9.]* W avg (gpu)$" out &&
	$PY "$T_BASE/jpwr.py" "runs/pw/*/power.1.*.csv" >csv.json &&
	ab sql "SELECT name, value FROM metric ORDER BY name" >m &&
	ab sql "SELECT count(*) FROM power_sample" | tail -1 >n &&
	ab sql "SELECT params FROM run" | tail -1 >p.json &&
	$PY - <<-\PYEOF
	import json
	c = json.load(open("csv.json"))
	assert c["cols"] == ["pynvml:0", "pynvml:1"], c["cols"]
	n = c["rows"]
	assert n >= 5, n
	assert c["values"]["pynvml:0"] == [100.0 + 10 * k for k in range(n)], c["values"]["pynvml:0"]
	assert c["values"]["pynvml:1"] == [200.0] * n
	m = dict(l.split() for l in open("m").read().splitlines()[2:])
	want = c["wh"]["pynvml:0"] + c["wh"]["pynvml:1"]
	assert abs(float(m["energy"]) - want) < 1e-9 * want, (m, want)
	assert float(m["peak_power"]) == 100 + 10 * (n - 1) + 200, m
	assert int(open("n").read()) == 2 * n
	p = json.load(open("p.json"))["provenance"]["power"][0]
	assert p["backend"] == "nvml" and p["driver_version"] == "535.00-fake", p
	d = p["devices"]
	assert [x["uuid"] for x in d] == ["GPU-fake-0000", "GPU-fake-0001"], d
	assert d[0]["serial"] == "FAKE0000" and d[0]["name"] == "NVIDIA A100-SXM4-40GB" and not d[0]["energy_counter"]
	PYEOF
	ab sql "SELECT accelerator, accelerators_per_node FROM system WHERE name = \"fakegpu\"" | tail -1 | grep -q "A100.* 2$" &&
	ls runs/pw/*/energy.1.*.csv && head -1 runs/pw/*/energy.1.*.csv | grep -qx ",0"
'

test_expect_success 'NVML and ROCm energy counters: the counter difference is the energy' '
	rm -f "$ACCELBENCH_DB" && rm -rf runs &&
	LD_LIBRARY_PATH="$LIB" FAKE_NVML_POWER=100:0,100:0 FAKE_NVML_ENERGY=50 \
		FAKE_ROCM_POWER=300:5 FAKE_ROCM_ENERGY=2 ACCELBENCH_SYSFS_ROOT="$EMPTY" \
		ab run exec -b pc --interval 50 -- sleep 0.5 >out &&
	grep -q "^power: nvml (2 GPUs), rocm (1 GPU)$" out &&
	$PY "$T_BASE/jpwr.py" "runs/pc/*/power.1.*.csv" >csv.json &&
	ab sql "SELECT value FROM metric WHERE name = \"energy\"" | tail -1 >e &&
	ab sql "SELECT json_extract(meta, \"$.source\") FROM metric WHERE name = \"energy\"" | tail -1 >src &&
	$PY - <<-\PYEOF
	import json
	c = json.load(open("csv.json"))
	n = c["rows"]
	assert c["cols"] == ["pynvml:0", "pynvml:1", "rocm:0"], c["cols"]
	assert c["values"]["rocm:0"] == [300.0 + 5 * k for k in range(n)]
	want = ((n - 1) * 50 * 2 + (n - 1) * 2) / 3600.0
	got = float(open("e").read())
	assert abs(got - want) < 1e-5 * want, (got, want, n)
	assert open("src").read().strip() == "counter"
	PYEOF
'

test_expect_success 'GH200 hwmon: the module is the boundary, Grace is recorded beside it' '
	rm -f "$ACCELBENCH_DB" && rm -rf runs &&
	ACCELBENCH_SYSFS_ROOT="$SYS" ab run exec -b gh --power hwmon --interval 50 -- sleep 0.4 >out &&
	grep -q "^power: hwmon (2 sensors)$" out &&
	$PY "$T_BASE/jpwr.py" "runs/gh/*/power.1.*.csv" >csv.json &&
	ab sql "SELECT value, json_extract(meta, \"$.boundary\") FROM metric WHERE name = \"energy\"" | tail -1 >e &&
	$PY - <<-\PYEOF
	import json
	c = json.load(open("csv.json"))
	assert c["cols"] == ["gh:Module Power Socket 0", "gh:Grace Power Socket 0"], c["cols"]
	v, b = open("e").read().split()
	want = c["wh"]["gh:Module Power Socket 0"]
	assert b == "module" and abs(float(v) - want) < 1e-9 * want, (v, b, want)
	PYEOF
'

test_expect_success 'RAPL: the package counter is unwrapped at max_energy_range_uj' '
	rm -f "$ACCELBENCH_DB" && rm -rf runs && echo 0 >"$RAPL/energy_uj" &&
	ACCELBENCH_SYSFS_ROOT="$SYS" ab run exec -b rapl --power rapl --interval 40 -- \
		sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do echo \$(( (i * 300000) % 1000000 )) >\"$RAPL/energy_uj\"; sleep 0.25; done" >out &&
	grep -q "^power: rapl (1 package)$" out &&
	ab sql "SELECT value, json_extract(meta, \"$.boundary\"), json_extract(meta, \"$.source\") FROM metric WHERE name = \"energy\"" | tail -1 >e &&
	$PY -c "
v, b, s = open(\"e\").read().split()
assert b == \"cpu\" and s == \"counter\", (b, s)
assert abs(float(v) - 3.0 / 3600) < 1e-12, v   # 10 x 0.3 J across three wraps
"
'

test_expect_success 'auto uses every source present and says so; GPUs are the boundary' '
	rm -f "$ACCELBENCH_DB" && rm -rf runs &&
	LD_LIBRARY_PATH="$LIB" FAKE_NVML_POWER=100:0 ACCELBENCH_SYSFS_ROOT="$SYS" \
		ab run exec -b all --interval 50 -- sleep 0.3 >out &&
	grep -q "^power: nvml (1 GPU), hwmon (2 sensors), rapl (1 package)$" out &&
	head -1 runs/all/*/power.1.*.csv | grep -qx ",timestamps,pynvml:0,gh:Module Power Socket 0,gh:Grace Power Socket 0,rapl:package-0" &&
	ab sql "SELECT json_extract(meta, \"$.boundary\") FROM metric WHERE name = \"energy\"" | tail -1 | grep -qx gpu
'

test_expect_success 'ingest the run folder again: nothing new (same bytes)' '
	ab ingest runs >out && grep -q "^0 files ingested, 1 skipped as already ingested" out
'

test_done
