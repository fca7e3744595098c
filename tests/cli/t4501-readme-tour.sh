#!/bin/sh
# t4501-readme-tour: the README's tour runs as written on the project's own
# demo data from a clone (no ../shared): every "$ accelbench ..." line, in
# the README's order, with ACCELBENCH_DB=out/accelbench.db as the tour sets
# it, exits as the README says (0, or the "$ echo $?" line after it), and the
# output lines it shows appear in what the command prints (a line ending in
# "..." begins a printed line).
. "$(dirname "$0")/lib.sh"

test_expect_success 'the tour as the README writes it, on `make demo` data' '
	ln -s "$ROOT/tests" tests &&
	ACCELBENCH_DB= ab demo -o out >demo.out &&
	grep -q "^export ACCELBENCH_DB=out/accelbench.db" "$ROOT/README.md" &&
	$PY - "$ROOT/README.md" >tour.sh <<-\PYEOF &&
	import re, shlex, sys
	lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
	steps, i = [], 0
	while i < len(lines):
	    l = lines[i]
	    if l.startswith("$ accelbench "):
	        cmd, shown, code = l[2:], [], 0
	        i += 1
	        while i < len(lines) and not lines[i].startswith("$ ") and lines[i] != "```":
	            shown.append(lines[i]); i += 1
	        if i < len(lines) and lines[i] == "$ echo $?":
	            code = int(lines[i + 1]); i += 2
	        steps.append((cmd, shown, code))
	        continue
	    i += 1
	assert len(steps) >= 15, len(steps)
	print("set -u; n=0; fail=0")
	for k, (cmd, shown, code) in enumerate(steps):
	    run = "\"$AB_BIN\"" + cmd[len("accelbench"):]
	    print(f"{run} >step{k}.out 2>&1; rc=$?")
	    msg = shlex.quote("README says exit %d: %s" % (code, cmd))
	    print(f"if [ $rc -ne {code} ]; then echo {msg}: got $rc; cat step{k}.out; fail=1; fi")
	    for s in shown:
	        if s.strip() in ("", "..."):
	            continue
	        msg = shlex.quote("not printed by %s: %s" % (cmd, s))
	        if s.endswith("..."):
	            # a line cut short: what it shows begins a printed line
	            p = shlex.quote(s[:-3].rstrip())
	            print(f"grep -F -- {p} step{k}.out | cut -c1-{len(s[:-3].rstrip().encode())} | grep -qxF -- {p} || {{ echo {msg}; fail=1; }}")
	            continue
	        print(f"grep -qxF -- {shlex.quote(s)} step{k}.out || {{ echo {msg}; fail=1; }}")
	print("exit $fail")
	PYEOF
	ACCELBENCH_DB=out/accelbench.db sh tour.sh &&
	test -s out/scaling.png && test -s out/bar.svg && test -s out/heatmap.pdf
'

test_expect_success 'the README says what is needed first and uses no ../shared data' '
	grep -q "You need .git. and .make. first" "$ROOT/README.md" &&
	sed -n "/^## A tour/,/^## Input formats/p" "$ROOT/README.md" >tour.md &&
	! grep -n "\.\./shared" tour.md
'

test_expect_success 'every path the README names is in a plain clone (none outside it)' '
	$PY - "$ROOT" <<-\PYEOF
	import glob, os, re, sys
	root = sys.argv[1]
	text = open(os.path.join(root, "README.md"), encoding="utf-8").read()
	text = re.sub(r"```.*?```", "", text, flags=re.S)  # the tour is the first test
	tops = ("cli/", "core/", "ingest/", "model/", "views/", "plots/", "reports/", "runners/",
	        "tests/", "docs/", "../")
	bad, seen = [], 0
	for tok in re.findall(r"`([^`]+)`", text):
	    for word in tok.split():
	        word = word.strip("()\",;:")
	        if not word.startswith(tops):
	            continue
	        seen += 1
	        rel = os.path.normpath(os.path.join(root, word))
	        if not rel.startswith(root + os.sep):
	            bad.append("outside the clone: " + word)
	        elif not glob.glob(rel):
	            bad.append("not in the repository: " + word)
	assert seen >= 5, seen
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PYEOF
'

test_done
