#!/bin/sh
# t4002-report-corpora: the report on the shared samples of all three
# suites, on a generated 30-system MLPerf-like round and on a generated
# CARAML corpus: the right sections, names and numbers, an outline entry
# per benchmark, the official-score path through the comparison, and
# stable bytes.
. "$(dirname "$0")/lib.sh"

outline() {
	$PY - "$1" <<-\PYEOF
	import re, sys
	data = open(sys.argv[1], "rb").read()
	for m in re.finditer(rb"/Title (\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f]*>)", data):
	    t = m.group(1)
	    if t.startswith(b"<"):
	        print(bytes.fromhex(t[1:-1].decode()).decode("utf-16-be").lstrip("\ufeff"))
	    else:
	        print(t[1:-1].decode("latin-1"))
	PYEOF
}

test_expect_samples 'report from the shared samples of all three suites' '
	ab --db s.db ingest "$SAMPLES" >/dev/null 2>&1;
	SOURCE_DATE_EPOCH=1767225600 ab --db s.db report -o s.pdf 2>err &&
	pdfinfo s.pdf >info && grep -q "^Pages: " info &&
	pdftotext -layout s.pdf s.txt &&
	for sec in "Executive summary" "Systems under test" "Methodology" "Threats to validity" \
		"Appendix: every run"; do grep -q "$sec" s.txt || { echo "no $sec"; exit 1; }; done &&
	ab --db s.db ls benchmarks --json >b.json &&
	outline s.pdf >outline &&
	$PY - <<-\PYEOF
	import json
	out = open("outline").read().split("\n")
	bs = json.load(open("b.json"))
	assert len(bs) >= 20, len(bs)
	for b in bs:
	    t = "%s (%s)" % (b["name"], b["suite"])
	    assert t in out, t
	PYEOF
'

test_expect_success 'a generated 30-system MLPerf-like round' '
	$PY "$ROOT/tests/helpers/gen_mlperf_round.py" round 30 >/dev/null &&
	ab --db r.db ingest round >/dev/null 2>&1 &&
	SOURCE_DATE_EPOCH=1767225600 ab --db r.db report -o r.pdf 2>/dev/null &&
	pdftotext -layout r.pdf r.txt &&
	outline r.pdf >outline &&
	grep -qx "bert (mlperf-training)" outline &&
	grep -qx "gpt3 (mlperf-training)" outline &&
	grep -qx "llama2_70b_lora (mlperf-training)" outline &&
	ab --db r.db ls systems --json >sys.json &&
	ab --db r.db stats -b bert --json >st.json &&
	$PY - <<-\PYEOF
	import json
	text = open("r.txt").read()
	flat = " ".join(text.split())
	systems = json.load(open("sys.json"))
	assert len(systems) == 30, len(systems)
	for y in systems:
	    # long names wrap in tables but are never cut
	    assert y["name"].split("/")[-1][:12] in flat, y["name"]
	for c in json.load(open("st.json")):
	    m = c["median"]
	    s = "%.2f" % m if m < 10 else "%.1f" % m if m < 100 else "{:,.0f}".format(m)
	    assert s in text, (c["system"], s)
	PYEOF
	SOURCE_DATE_EPOCH=1767225600 ab --db r.db report -o r2.pdf 2>/dev/null &&
	cmp r.pdf r2.pdf
'

test_expect_success 'a generated CARAML corpus (1,000 runs), exact bootstrap, run cap' '
	$PY "$ROOT/tests/helpers/gen_caraml_runs.py" cc 5 4 50 >/dev/null &&
	ab --db c.db ingest cc >/dev/null 2>&1 &&
	ab --db c.db report -o c.pdf 2>/dev/null &&
	pdftotext -layout c.pdf c.txt &&
	grep -q "exact, n" c.txt &&
	grep -q "resample\|exact" c.txt &&
	ab --db c.db ls runs --json >runs.json &&
	$PY - <<-\PYEOF
	import json
	runs = json.load(open("runs.json"))
	text = open("c.txt").read()
	assert len(runs) == 1000, len(runs)
	# every run id is in the appendix (1000 <= the cap)
	ids = set(text.split())
	missing = [r["id"] for r in runs if str(r["id"]) not in ids]
	assert not missing, missing[:5]
	PYEOF
'

test_done
