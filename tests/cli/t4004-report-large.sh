#!/bin/sh
# t4004-report-large: the report of large data stays usable and honest:
# a 36-system MLPerf round keeps its executive summary on one page; a
# database above the appendix's run limit lists every configuration with
# the ids, files and lines of its runs and every run that was not ok.
. "$(dirname "$0")/lib.sh"

# page of a line of the table of contents ("Executive summary ..... 3")
toc_page() { sed -n "s/^$1  *\([0-9][0-9]*\)\$/\1/p" "$2" | head -1; }

test_expect_success 'a 36-system round: the summary fits one page' '
	$PY "$ROOT/tests/round/gen_round.py" round >/dev/null &&
	ab --db r.db ingest round >/dev/null 2>&1 &&
	SOURCE_DATE_EPOCH=1767225600 ab --db r.db report -o r.pdf 2>err && test ! -s err &&
	pdftotext -layout r.pdf r.txt &&
	s=$(toc_page "Executive summary" r.txt) && y=$(toc_page "Systems under test" r.txt) &&
	test -n "$s" && test -n "$y" && test $((y - s)) -eq 1 &&
	grep -q "36 systems: one line each" r.txt &&
	ab --db r.db ls systems --json >sys.json &&
	$PY - <<-\PYEOF
	import json
	text = open("r.txt").read()
	pages = text.split("\f")
	summary = [p for p in pages if "36 systems: one line each" in p]
	assert len(summary) == 1
	flat = " ".join(summary[0].split())
	for y in json.load(open("sys.json")):
	    # each system on the summary page (long names may wrap at / or _)
	    assert y["name"].split("/")[-1][:10] in flat, y["name"]
	PYEOF
'

test_expect_success 'above the run limit: configurations with ids, files and lines' '
	$PY "$ROOT/tests/helpers/gen_caraml_runs.py" cc 4 8 100 >/dev/null &&
	ab --db c.db ingest cc >/dev/null 2>&1 &&
	ab --db c.db report -o c.pdf 2>err && test ! -s err &&
	pdftotext -layout c.pdf c.txt &&
	grep -q "The database holds 3,\{0,1\}200 runs" c.txt &&
	grep -q "Runs of llm-gpt-800M (caraml) by configuration" c.txt &&
	grep -q "Runs that were not ok" c.txt &&
	ab --db c.db ls runs --json >runs.json &&
	$PY - <<-\PYEOF
	import json, re
	runs = json.load(open("runs.json"))
	assert len(runs) == 3200, len(runs)
	text = open("c.txt").read()
	app = text[text.index("Runs of llm-gpt-800M (caraml) by configuration"):]
	# one row per configuration: its runs counted, its id range right
	groups = {}
	for r in runs:
	    k = (r["system"], r["global_batch"])
	    groups.setdefault(k, []).append(r)
	for (sysname, batch), rs in groups.items():
	    ids = sorted(r["id"] for r in rs)
	    bad = sum(r["status"] != "ok" for r in rs)
	    pat = r"%s .*b%d\b.*\s%d / %d\s+%d\u2013%d\s+S\d+:%d\u2013%d \(%d\)" % (
	        re.escape(sysname), batch, len(rs), bad, ids[0], ids[-1],
	        min(r["line"] for r in rs), max(r["line"] for r in rs), len(rs))
	    assert re.search(pat, app), pat
	# every run that was not ok is listed with its id
	notok = text[text.index("Runs that were not ok"):]
	words = set(notok.split())
	bad = [r["id"] for r in runs if r["status"] != "ok"]
	assert bad and all(str(i) in words for i in bad), bad[:5]
	PYEOF
'

test_expect_success 'an empty database: a clear message, no file' '
	ab --db e.db ingest /dev/null >/dev/null 2>&1;
	expect_code 1 ab --db e.db report -o e.pdf 2>err &&
	grep -qx "accelbench: report: the database holds no runs" err && test ! -e e.pdf
'

test_done
