#!/bin/sh
# t0005-systems-file: a user's systems file fills what the tools do not say
# (vendor, accelerator, devices per node) and wins over later guesses.
. "$(dirname "$0")/lib.sh"

S="$FIXTURES/systems"

test_expect_success 'a systems file ingests as a source and describes systems' '
	ab ingest "$S/epcc.json" >out &&
	grep -q "^1 file ingested, .*; added 0 runs, 0 metrics, 5 systems described$" out &&
	ab ls sources --json | $PY -c "import json,sys; s=json.load(sys.stdin); assert s[0][\"format\"] == \"accelbench-systems\""
'

test_expect_samples 'ReFrame runs ingested afterwards keep what the file said' '
	ab ingest "$SAMPLES/reframe" >/dev/null 2>&1 &&
	ab ls systems --json >sys.json &&
	$PY - <<-\PYEOF
	import json
	s = {x["name"]: x for x in json.load(open("sys.json"))}
	g = s["archer2:compute-gpu-torch"]
	assert (g["vendor"], g["accelerator"], g["accelerators_per_node"], g["tdp_w"]) == ("AMD", "MI210", 4, 300), g
	assert g["meta"]["room"] == "ACF" and g["meta"]["described"] == "epcc.json"
	assert g["runs"] > 0
	c = s["cirrus:compute-gpu"]   # no vendor given: normalised from the accelerator name
	assert (c["vendor"], c["accelerator"]) == ("NVIDIA", "V100"), c
	assert s["eidf:cs2"]["vendor"] == "Cerebras" and s["archer2:compute"]["vendor"] == "CPU"
	PYEOF
'

test_expect_success 'a CARAML tag described by the file keeps the file'"'"'s word' '
	rm -f "$ACCELBENCH_DB" &&
	printf "%s\n" "{ \"accelbench_systems\": { \"A100\": { \"accelerator\": \"A100-SXM4-40GB\", \"vendor\": \"NVIDIA\", \"accelerators_per_node\": 8 } } }" >mine.json &&
	ab ingest mine.json >/dev/null &&
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	ab ingest demo/data/caraml >/dev/null &&
	test "$(ab sql "SELECT accelerator || \" \" || accelerators_per_node FROM system WHERE name = '"'"'A100'"'"'" | tail -1)" = "A100-SXM4-40GB 8"
'

test_expect_success 'a wrong type is rejected with the system named; bad JSON with its line' '
	expect_code 1 ab ingest "$S/bad-type.json" 2>err &&
	test "$(cat err)" = "accelbench: $S/bad-type.json: system '"'"'x:y'"'"': '"'"'accelerators_per_node'"'"' must be a positive integer" &&
	expect_code 1 ab ingest "$S/bad-json.json" 2>err &&
	grep -q "^accelbench: $S/bad-json.json:2: string or .}. expected near .}.$" err &&
	test "$(ab sql "SELECT count(*) FROM system WHERE name = '"'"'x:y'"'"'" | tail -1)" = 0
'

test_expect_success 'every malformed entry is rejected with its exact reason, nothing lands' '
	for case in "bad-string:system '"'"'x:y'"'"': '"'"'vendor'"'"' must be a string" \
		    "not-object:'"'"'accelbench_systems'"'"' must be an object of systems" \
		    "entry-not-object:system '"'"'x:y'"'"': expected an object" \
		    "bad-tdp:system '"'"'x:y'"'"': '"'"'tdp_w'"'"' must be a positive number"; do
		f=${case%%:*} msg=${case#*:}
		expect_code 1 ab ingest "$S/$f.json" 2>err >/dev/null || exit 1
		test "$(cat err)" = "accelbench: $S/$f.json: $msg" || { echo "$f: $(cat err)"; exit 1; }
	done &&
	test "$(ab sql "SELECT count(*) FROM system WHERE name = '"'"'x:y'"'"'" | tail -1)" = 0
'

test_done
