#!/bin/sh
# t4001-compare-exact-bootstrap: compare uses the exact bootstrap of the
# median from 40 runs per side on, resampling below, and says which (JSON
# "bootstrap", the text note); the exact CI does not depend on the seed.
. "$(dirname "$0")/lib.sh"

test_expect_success 'small samples resample and say so' '
	ACCELBENCH_DB= ab demo -o small >/dev/null &&
	ab --db small/accelbench.db compare -b llm-gpt-800M --baseline A100 --json >c.json &&
	$PY -c "import json,sys; c=json.load(open(\"c.json\")); sys.exit(0 if c and all(r[\"bootstrap\"] == \"resample\" for r in c) else 1)" &&
	ab --db small/accelbench.db compare -b llm-gpt-800M --baseline A100 >c.txt &&
	grep -q "95% bootstrap percentile CI, 10000 resamples, seed 20240917;" c.txt
'

test_expect_success '40 runs per configuration: exact bootstrap, seed-free' '
	ACCELBENCH_DB= ab demo -o big --repeats 40 >/dev/null &&
	ab --db big/accelbench.db compare -b llm-gpt-800M --baseline A100 --json >e.json &&
	ab --db big/accelbench.db compare -b llm-gpt-800M --baseline A100 --json --seed 5 >e5.json &&
	$PY - <<-\PYEOF &&
	import json
	a = json.load(open("e.json")); b = json.load(open("e5.json"))
	assert a and all(r["bootstrap"] == "exact" for r in a), a[0]
	for x, y in zip(a, b):
	    assert x["ratio_ci_low"] == y["ratio_ci_low"] and x["ratio_ci_high"] == y["ratio_ci_high"]
	    assert x["ratio_ci_low"] <= x["ratio"] <= x["ratio_ci_high"], x
	PYEOF
	ab --db big/accelbench.db compare -b llm-gpt-800M --baseline A100 >e.txt &&
	grep -q "95% bootstrap percentile CI, exact (n >= 40);" e.txt
'

test_done
