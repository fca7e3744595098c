#!/bin/sh
# t0021-csv-json: every --csv carries exactly the fields of --json, as raw
# numbers (no thousands separators, no "[lo, hi]", units in their own
# columns); compare's usage and its empty composite say what they mean.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the demo database' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	cp "$FIXTURES/cost/prices.json" prices.json
'

# The CSV of a command equals its JSON flattened the documented way: one row
# per object (per element of a nested array of objects, e.g. scaling's
# points), nested objects as dotted columns, lists joined by ";".
cat >"$T_BASE/same.py" <<'PYEOF'
import csv, json, math, sys
rows_json = json.load(open(sys.argv[1]))
rows_csv = list(csv.DictReader(open(sys.argv[2], newline="")))
def flat(o, pre="", out=None):
    out = {} if out is None else out
    for k, v in o.items():
        if isinstance(v, dict):
            flat(v, pre + k + ".", out)
        else:
            out[pre + k] = v
    return out
expect = []
for o in rows_json:
    nest = next((k for k, v in o.items() if isinstance(v, list) and v and isinstance(v[0], dict)), None)
    if nest is None:
        expect.append(flat(o))
        continue
    parent = flat({k: v for k, v in o.items() if k != nest})
    for p in o[nest]:
        clash = any(k in o for k in p)
        r = dict(parent)
        r.update(flat(p, nest + "." if clash else ""))
        expect.append(r)
assert len(expect) == len(rows_csv), (len(expect), len(rows_csv))
keys = set()
for e in expect:
    keys |= set(e)
assert keys == set(rows_csv[0].keys()), sorted(keys ^ set(rows_csv[0].keys()))
for e, c in zip(expect, rows_csv):
    for k in keys:
        v, s = e.get(k), c[k]
        if v is None:
            assert s == "", (k, s)
        elif isinstance(v, bool):
            assert s == ("true" if v else "false"), (k, v, s)
        elif isinstance(v, (int, float)):
            assert "," not in s and " " not in s, (k, s)
            assert math.isclose(float(s), v, rel_tol=1e-14), (k, v, s)
        elif isinstance(v, list):
            assert s == ";".join(map(str, v)), (k, v, s)
        else:
            assert s == v, (k, v, s)
print(len(expect), "rows,", len(keys), "columns agree")
PYEOF

n=0
while IFS='|' read -r name args; do
	n=$((n + 1))
	test_expect_success "$name: --csv has the fields and numbers of --json" "
		ab --db demo/accelbench.db $args --json >j$n &&
		ab --db demo/accelbench.db $args --csv >c$n &&
		\$PY '$T_BASE/same.py' j$n c$n
	"
done <<'EOF_CASES'
stats|stats -b llm-gpt-800M --suite caraml
stats energy|stats -b resnet50 --suite caraml -m energy
compare|compare -b resnet50 --suite caraml --baseline A100
compare across benchmarks|compare --suite caraml --baseline A100
cost|cost -b llm-gpt-800M --suite caraml --prices prices.json
pareto|pareto -b llm-gpt-800M --suite caraml
scaling by batch|scaling -b llm-gpt-800M --suite caraml
scaling by devices|scaling -b resnet50 --suite caraml --by devices
ls runs|ls runs --suite caraml
ls systems|ls systems
ls benchmarks|ls benchmarks
ls sources|ls sources
EOF_CASES

test_expect_success 'CSV numbers are raw and units have their own columns' '
	ab --db demo/accelbench.db stats -b llm-gpt-800M --suite caraml --system A100 --csv >s.csv &&
	csvsel median,unit,ci_low,ci_high global_batch=128 <s.csv >sel &&
	grep -q "^[0-9.]*,tokens/s,[0-9.]*,[0-9.]*$" sel &&
	! grep -q "\[" s.csv &&
	ab --db demo/accelbench.db cost -b llm-gpt-800M --suite caraml --prices prices.json --csv >c.csv &&
	csvsel system,cost_per_million_price_low,cost_per_million_price_high,currency,work_unit system=A100 <c.csv >sel &&
	grep -q "^A100,0.00596[0-9]*,0.00825[0-9]*,EUR,tokens$" sel &&
	ab --db demo/accelbench.db ls runs --suite caraml --csv | head -1 | tr , "\n" >cols &&
	grep -qx metrics.throughput.value cols && grep -qx metrics.throughput.unit cols &&
	! grep -qx "" cols
'

test_expect_success 'compare -h: -b is optional (every benchmark and a composite without it)' '
	ab compare -h >out &&
	grep -q "^usage: accelbench compare \[-b B\] --baseline SYS" out &&
	! grep -- "-b, --benchmark.*required" out &&
	grep -q "default: every benchmark" out
'

test_expect_success 'an empty composite says that no benchmark was run by every system' '
	H="JobID,System,Version,Queue,JobTime,Runtime(min),Model,ModelSize,Dataset,Nodes,Devices,GlobalBatchSize,PipelineParallel,TensorParallel,DataParallel,Iterations,Time/iteration(s),Tokens/second,Avg_TFLOPs/GPU,Energy/Device(Wh)" &&
	{ echo "$H"; for i in 1 2 3; do
		for s in BASE:800M:10 BASE:13B:20 XSYS:800M:30 YSYS:13B:40; do
			IFS=: read sys size v <<-EOT
			$s
			EOT
			echo "1$i$v,$sys,2024.01,q,00:15:00,30,GPT,$size,OSCAR,1,4,32,1,1,4,2000,0.60,$v$i.5,222.00,[150.5]"
		done
	done; } >llm.csv &&
	ab --db e.db ingest llm.csv >/dev/null &&
	ab --db e.db compare --baseline BASE >out &&
	grep -qx "composite: none: no benchmark was run by every compared system and the baseline, so there is no common ground to rank them on" out &&
	! grep -q "0 benchmarks" out &&
	ab --db e.db compare --baseline BASE --json >j &&
	! grep -q composite j
'

test_done
