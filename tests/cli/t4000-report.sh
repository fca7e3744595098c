#!/bin/sh
# t4000-report: `accelbench report` on the demo database: pages and
# metadata (pdfinfo), section titles, system names and independently
# computed medians in the text (pdftotext), an outline entry per benchmark,
# the same bytes twice with SOURCE_DATE_EPOCH, atomic output, bad specs.
. "$(dirname "$0")/lib.sh"

# outline titles of a PDF (cairo writes them as literal or UTF-16BE hex strings)
cat >"$T_BASE/outline.py" <<\PYEOF
import re, sys
data = open(sys.argv[1], "rb").read()
i = data.find(b"/Type /Outlines")
assert i >= 0, "no outline"
for m in re.finditer(rb"/Title (\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f]*>)", data):
    t = m.group(1)
    if t.startswith(b"<"):
        s = bytes.fromhex(t[1:-1].decode()).decode("utf-16-be").lstrip("\ufeff")
    else:
        s = t[1:-1].decode("latin-1")
    print(s)
PYEOF

test_expect_success 'report from the demo database' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	SOURCE_DATE_EPOCH=1767225600 ab --db demo/accelbench.db report -o r.pdf >out 2>err &&
	grep -qx "wrote r.pdf" out && test ! -s err &&
	pdfinfo r.pdf >info &&
	grep -q "^Title: *Accelerator benchmark report$" info &&
	grep -q "^Creator: *accelbench " info &&
	grep -q "^CreationDate: *Thu Jan  1 00:00:00 2026 UTC$" info &&
	grep -q "^ModDate: *Thu Jan  1 00:00:00 2026 UTC$" info &&
	grep -q "^Page size: *595.28 x 841.89 pts (A4)$" info &&
	pages=$(sed -n "s/^Pages: *//p" info) && test "$pages" -ge 8 &&
	! ls .*.tmp *.tmp 2>/dev/null
'

test_expect_success 'the text holds the sections, systems and page numbers' '
	pdftotext -layout r.pdf r.txt &&
	for s in "Contents" "Executive summary" "Trade-offs" "Systems under test" "Methodology" "llm-gpt-800M (caraml)" \
		"resnet50 (caraml)" "Threats to validity" "Appendix: every run" \
		"Statistics per configuration" "Source files"; do
		grep -q "$s" r.txt || { echo "missing section $s"; exit 1; }
	done &&
	for y in A100 H100 JEDI MI250 WAIH100; do grep -q "$y" r.txt || exit 1; done &&
	grep -q "1 January 2026" r.txt &&
	pages=$(pdfinfo r.pdf | sed -n "s/^Pages: *//p") &&
	grep -q "page 2 of $pages" r.txt
'

test_expect_success 'medians computed independently appear in the statistics tables' '
	ab --db demo/accelbench.db ls runs --json >runs.json &&
	$PY - <<-\PYEOF
	import json, statistics
	runs = json.load(open("runs.json"))
	text = open("r.txt").read()
	groups = {}
	for r in runs:
	    v = r["metrics"].get(r["headline_metric"], {}).get("value")
	    if r["status"] != "ok" or v is None:
	        continue
	    k = (r["benchmark"], r["system"], r["nodes"], r["devices"], r["global_batch"], r["precision"])
	    groups.setdefault(k, []).append(v)
	checked = 0
	for k, v in sorted(groups.items()):
	    m = statistics.median(v)
	    # views_fmt_value: integers with thousands separators above 1000
	    s = "{:,.0f}".format(m) if m >= 1000 else None
	    if s is None:
	        continue
	    assert s in text, (k, s)
	    checked += 1
	assert checked >= 30, checked
	PYEOF
'

test_expect_success 'the summary states the comparisons of compare --json' '
	ab --db demo/accelbench.db compare --suite caraml -b llm-gpt-800M --baseline MI250 --best \
		--json >cmp.json &&
	$PY - <<-\PYEOF
	import json
	text = " ".join(open("r.txt").read().split())
	cmp = [c for c in json.load(open("cmp.json")) if c.get("kind") == "comparison"]
	best = max((c for c in cmp if c["verdict"] == "faster"), key=lambda c: c["speedup"])
	want = "On llm-gpt-800M, %s (%d\u00d7 " % (best["system"], best["devices"])
	assert want in text, want
	assert "delivered %.2f\u00d7 the MI250 baseline" % best["speedup"] in text, best["speedup"]
	ci = "95 %% CI %.2f\u2013%.2f" % (best["ratio_ci_low"], best["ratio_ci_high"])
	assert ci in text, ci
	# an indistinguishable pair is never called better or worse
	for c in cmp:
	    if c["verdict"] == "indistinguishable":
	        assert "%s delivered" % c["system"] not in text
	assert "simulated example data" in text
	PYEOF
'

test_expect_success 'with prices the trade-offs hold a cost table' '
	ab --db demo/accelbench.db report -o c.pdf --prices "$FIXTURES/cost/prices.json" 2>/dev/null &&
	pdftotext -layout c.pdf c.txt &&
	grep -q "EUR per million" c.txt &&
	ab --db demo/accelbench.db cost --suite caraml -b llm-gpt-800M \
		--prices "$FIXTURES/cost/prices.json" --json >cost.json &&
	$PY - <<-\PYEOF
	import json
	t = open("c.txt").read()
	n = 0
	for r in json.load(open("cost.json")):
	    v = r["cost_per_million"]
	    s = "{:,.0f}".format(v) if v >= 100 else "{:.2f}".format(v) if v >= 0.01 else "{:.3g}".format(v)
	    assert s in t, (r["system"], s)
	    n += 1
	assert n >= 4
	PYEOF
'

test_expect_success 'an outline entry per section and benchmark' '
	$PY "$T_BASE/outline.py" r.pdf >outline &&
	grep -qx "llm-gpt-800M (caraml)" outline &&
	grep -qx "resnet50 (caraml)" outline &&
	grep -qx "Systems under test" outline &&
	grep -qx "Appendix: every run" outline
'

test_expect_success 'same database, same SOURCE_DATE_EPOCH: the same bytes' '
	SOURCE_DATE_EPOCH=1767225600 ab --db demo/accelbench.db report -o r2.pdf 2>/dev/null &&
	cmp r.pdf r2.pdf &&
	SOURCE_DATE_EPOCH=1767312000 ab --db demo/accelbench.db report -o r3.pdf 2>/dev/null &&
	! cmp -s r.pdf r3.pdf
'

test_expect_success 'a spec selects, titles and sizes the report' '
	cat >spec.json <<-\EOF &&
	{ "title": "Procurement 2026", "author": "Bench team", "organisation": "Example Centre",
	  "page_size": "Letter", "baseline": "A100", "systems": ["A100", "JEDI"],
	  "benchmarks": ["resnet50"] }
	EOF
	ab --db demo/accelbench.db report --spec spec.json -o s.pdf 2>/dev/null &&
	pdfinfo s.pdf >info &&
	grep -q "^Title: *Procurement 2026$" info &&
	grep -q "^Author: *Bench team$" info &&
	grep -q "^Page size: *612 x 792 pts (letter)$" info &&
	pdftotext s.pdf s.txt &&
	grep -q "Example Centre" s.txt &&
	grep -q "JEDI" s.txt && ! grep -q "MI250" s.txt &&
	! grep -q "llm-gpt-800M" s.txt
'

test_expect_success 'the shipped example spec is valid' '
	ab --db demo/accelbench.db report --spec "$ROOT/docs/report-spec.json" -o ex.pdf 2>/dev/null &&
	pdfinfo ex.pdf | grep -q "^Title: *Accelerator procurement 2026"
'

test_expect_success 'bad specs give their messages and write nothing' '
	echo "{\"benchmarks\": [\"resnet50\", {\"name\": \"x\", \"normalise\": \"gpu\"}]}" >b1.json &&
	expect_code 1 ab --db demo/accelbench.db report --spec b1.json -o bad.pdf 2>e1 &&
	grep -qx "accelbench: b1.json: benchmarks\[1\].normalise: expected one of system, device, node" e1 &&
	echo "{\"tilte\": \"x\"}" >b2.json &&
	expect_code 1 ab --db demo/accelbench.db report --spec b2.json -o bad.pdf 2>e2 &&
	grep -q "^accelbench: b2.json: tilte: unknown field" e2 &&
	echo "{\"systems\": [\"NOPE\"]}" >b3.json &&
	expect_code 1 ab --db demo/accelbench.db report --spec b3.json -o bad.pdf 2>e3 &&
	grep -qx "accelbench: report: system '"'"'NOPE'"'"' has no runs in the database" e3 &&
	echo "{\"title\": " >b4.json &&
	expect_code 1 ab --db demo/accelbench.db report --spec b4.json -o bad.pdf 2>e4 &&
	grep -q "^accelbench: b4.json:2:0: " e4 &&
	expect_code 3 ab --db demo/accelbench.db report --spec nonexistent.json -o bad.pdf 2>e5 &&
	grep -q "cannot open report spec '"'"'nonexistent.json'"'"'" e5 &&
	expect_code 2 ab --db demo/accelbench.db report 2>e6 &&
	grep -q "report: -o FILE is required" e6 &&
	test ! -e bad.pdf
'

test_expect_success 'a target that cannot be written is an I/O error' '
	expect_code 3 ab --db demo/accelbench.db report -o nodir/r.pdf 2>e7 &&
	grep -q "^accelbench: .*nodir" e7 && test ! -e nodir
'

test_done
