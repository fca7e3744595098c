#!/bin/sh
# t0022-layers: includes go one way (tests/layers.py):
# core < runners < ingest < model < views < plots < reports < cli, views/
# only on core and model, plots/ never on model, `plot` not via reports/.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the source tree keeps the include direction' '
	$PY "$ROOT/tests/layers.py" "$ROOT" >out; rc=$?; cat out; test $rc -eq 0 && test ! -s out
'

test_expect_success 'the check catches each kind of violation' '
	mkdir -p t/core t/model t/views t/plots t/cli &&
	echo "#include \"views/views.h\"" >t/model/m.c &&
	echo "#include \"plots/plot.h\"" >t/views/v.c &&
	echo "#include <cairo.h>" >t/views/w.c &&
	echo "#include \"model/db.h\"" >t/plots/p.c &&
	echo "#include \"reports/figures.h\"" >t/cli/cmd_plot.c &&
	echo "#include \"model/db.h\"" >t/views/ok.c &&
	echo "#include \"views/views.h\"" >t/plots/ok.c &&
	! $PY "$ROOT/tests/layers.py" t >out &&
	cat out &&
	grep -q "^model/m.c:1: includes \"views/views.h\": model/ is upstream of views/" out &&
	grep -q "^views/v.c:1: includes \"plots/plot.h\": views/ is upstream of plots/" out &&
	grep -q "^views/w.c:1: views/ must not include <cairo.h>" out &&
	grep -q "^plots/p.c:1: includes \"model/db.h\": plots/ may include only core, plots, views" out &&
	grep -q "^cli/cmd_plot.c:1: includes \"reports/figures.h\": cli/cmd_plot.c must not go through reports/" out &&
	! grep -q "ok.c" out
'

test_expect_success 'chart kinds: one table; the usage line and the man page list the same' '
	expect_code 2 ab plot nonsense -o x.png 2>err &&
	sed -n "s/^accelbench: plot: say which chart: //p" err | sed "s/ or /, /" | tr -d " " | tr , "\n" >table &&
	test "$(wc -l <table)" -ge 7 &&
	ab plot -h | sed -n "s/^usage: accelbench plot \([a-z|]*\) .*/\1/p" | tr "|" "\n" >usage &&
	test_cmp table usage &&
	grep "^accelbench plot " "$ROOT/docs/accelbench.1" | sed "s/^accelbench plot \([a-z|]*\) .*/\1/" | tr "|" "\n" >man &&
	test_cmp table man
'

# A scratch file committed at the top level (an empty "out" once broke `make
# demo` on every fresh clone: "cannot create directory out/data") fails here.
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
test_expect_success 'the top level of the repository holds only the project layout' '
	git -C "$ROOT" ls-files | sed "s|/.*||" | sort -u >top &&
	printf "%s\n" .ci .gitignore Makefile README.md cli core docs ingest model plots \
		reports runners tests views | sort >allowed &&
	comm -23 top allowed >stray; cat stray; test ! -s stray
'
else
	test_skip 'the top level of the repository holds only the project layout' "not a git checkout"
fi

test_done
