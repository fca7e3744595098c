#!/bin/sh
# t2001-mlperf-stats: `accelbench stats --suite mlperf-training` gives the
# official score of every sample benchmark (README numbers, 1e-9 relative),
# the energy score of the power submission, and a text summary table.
. "$(dirname "$0")/lib.sh"

test_expect_samples 'official scores and the energy score of the samples' '
	ab ingest "$SAMPLES/mlperf/training" >/dev/null &&
	ab stats --suite mlperf-training --json >scores.json &&
	$PY - <<-\EOP
	import json
	want = {
	    ("NVIDIA/eos_n8_ngc23.04_pytorch", "bert"): (0.89813125, 10, 1, 1.0),
	    ("NVIDIA/h200_ngc24.09_nemo", "llama2_70b_lora"): (24.115704349046013, 10, 0, 1.0033670033670032),
	    ("Google/cloud-tpu-trillium-1024-maxtext", "gpt3"): (50.62810434782609, 3, 0, 1.0173913043478262),
	    ("Dell/8xXE9680x8H100-SXM-80GB-POWER", "llama2_70b_lora"): (5.051522250280583, 10, 0, 1.0033670033670032),
	    ("tinycorp/tinybox_green", "bert"): (360.51649791666665, 10, 1, 1.0),
	    ("Lenovo/SR685aV3-8xH200_SXM_141GB_700W", "ssd"): (33.71481666666667, 5, 0, 1.0),
	    ("Lambda/lambda_1cc_n4_H100-SXM-80GB_ngc24.04_nemo", "llama2_70b_lora"): (8.222960416666666, 10, 1, 1.0),
	}
	got = {(o["system"], o["benchmark"]): o for o in json.load(open("scores.json"))}
	assert set(got) == set(want), sorted(got)
	for k, (score, runs, failed, factor) in want.items():
	    o = got[k]
	    assert abs(o["official_score"] - score) <= 1e-9 * score, (k, o["official_score"])
	    assert (o["runs"], o["failed"], o["unit"]) == (runs, failed, "min"), (k, o)
	    assert abs(o["scaling_factor"] - factor) <= 1e-12 * factor, (k, o["scaling_factor"])
	    assert o["submitter"] == k[0].split("/")[0]
	dell = got[("Dell/8xXE9680x8H100-SXM-80GB-POWER", "llama2_70b_lora")]
	assert abs(dell["official_energy_j"] - 16384267.9502019) <= 1e-9 * 16384267.9502019
	assert all(o["official_energy_j"] is None for k, o in got.items() if k[0] != dell["system"])
	EOP
'

test_expect_samples 'the text form is the MLCommons summary table plus details' '
	ab stats --suite mlperf-training >out &&
	grep -q "^MLPerf training, official time-to-train scores (minutes)" out &&
	grep -q "^Division .*Submitter .*System .*bert .*gpt3 .*llama2_70b_lora .*ssd" out &&
	grep -q "^closed .*tinycorp .*tinybox green .*360.5" out &&
	grep -q "^Dell/8xXE9680x8H100-SXM-80GB-POWER  *llama2_70b_lora  *10  *10  *0  *5.052  *1.0034  *4.932  *16,384  *ok$" out &&
	grep -q "^closed .*Dell .*NVIDIA H100-SXM5-80GB  *64 " out
'

test_expect_samples 'filters: one benchmark, one system' '
	ab stats --suite mlperf-training -b gpt3 --json >one.json &&
	$PY -c "import json; a = json.load(open(\"one.json\")); assert [o[\"benchmark\"] for o in a] == [\"gpt3\"], a" &&
	ab stats --suite mlperf-training --system tinycorp/tinybox_green --json >two.json &&
	$PY -c "import json; a = json.load(open(\"two.json\")); assert [o[\"system\"] for o in a] == [\"tinycorp/tinybox_green\"], a"
'

test_done
