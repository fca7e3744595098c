#!/bin/sh
# t0800-output-files: every output writer goes through core/atomic: a link
# planted at the old fixed temporary name (NAME.tmp) is neither followed nor
# deleted, the replaced file keeps its mode, concurrent writers of the same
# file all succeed and leave one well-formed file, failures leave nothing.
. "$(dirname "$0")/lib.sh"

test_expect_success 'set up the demo database' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null && test -f demo/accelbench.db
'
DB="--db demo/accelbench.db"

# no temporary file of ours is left in a directory
no_tmp() { test -z "$(find "${1:-.}" -name ".*.tmp" | head -1)"; }

for ext in png svg pdf; do
test_expect_success "plot -o chart.$ext: a link planted at chart.$ext.tmp is not followed" '
	echo precious >victim && ln -s "$PWD/victim" chart.'$ext'.tmp &&
	echo mine >mine.'$ext'.tmp &&
	ab $DB plot bar -b llm-gpt-800M -o chart.'$ext' &&
	test "$(cat victim)" = precious && test -L chart.'$ext'.tmp &&
	test "$(cat mine.'$ext'.tmp)" = mine &&
	test -f chart.'$ext' && ! test -L chart.'$ext' && no_tmp &&
	rm -f victim chart.'$ext'.tmp mine.'$ext'.tmp
'

test_expect_success "plot -o chart.$ext over a link replaces the link, not its target" '
	echo precious >victim && rm -f chart.'$ext' && ln -s "$PWD/victim" chart.'$ext' &&
	ab $DB plot bar -b llm-gpt-800M -o chart.'$ext' &&
	test "$(cat victim)" = precious && ! test -L chart.'$ext' && rm -f victim
'

test_expect_success "plot -o chart.$ext keeps the mode of the file it replaces" '
	chmod 640 chart.'$ext' && (umask 077 && ab $DB plot bar -b llm-gpt-800M -o chart.'$ext') &&
	test "$(stat -c %a chart.'$ext')" = 640 &&
	rm chart.'$ext' && (umask 022 && ab $DB plot bar -b llm-gpt-800M -o chart.'$ext') &&
	test "$(stat -c %a chart.'$ext')" = 644
'

test_expect_success "8 concurrent plot -o same.$ext all succeed; the result is whole" '
	i=0; pids=""
	while [ $i -lt 8 ]; do
		ab $DB plot bar -b llm-gpt-800M -o same.'$ext' 2>err.$i & pids="$pids $!"; i=$((i + 1))
	done
	for p in $pids; do wait $p || { echo "writer $p failed"; cat err.*; exit 1; }; done
	ab $DB plot bar -b llm-gpt-800M -o ref.'$ext' && test_cmp ref.'$ext' same.'$ext' &&
	no_tmp && ! test -s err.0
'
done

test_expect_success 'the concurrent SVG is well-formed XML' '
	$PY -c "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" same.svg
'

test_expect_success 'a failing plot leaves neither the file nor a temporary file' '
	expect_code 3 ab $DB plot bar -b llm-gpt-800M -o no/such/dir/x.svg 2>err &&
	test "$(cat err)" = "accelbench: cannot create a temporary file for '"'"'no/such/dir/x.svg'"'"': No such file or directory" &&
	mkdir adir.svg &&
	expect_code 3 ab $DB plot bar -b llm-gpt-800M -o adir.svg 2>err &&
	test "$(cat err)" = "accelbench: cannot replace '"'"'adir.svg'"'"': Is a directory" &&
	no_tmp
'

test_expect_success 'demo -o DIR: links planted at DATA.tmp names are not followed' '
	f=caraml/llm_training/llm_benchmark_nvidia_amd_run/000004/000037_combine_energy/work/combined_energy.csv
	ACCELBENCH_DB= ab demo -o d1 >/dev/null && test -f d1/data/$f &&
	echo precious >victim && ln -s "$PWD/victim" d1/data/$f.tmp &&
	chmod 600 d1/data/$f &&
	ACCELBENCH_DB= ab demo -o d1 >/dev/null &&
	test "$(cat victim)" = precious && test -L d1/data/$f.tmp &&
	test "$(stat -c %a d1/data/$f)" = 600 && no_tmp d1
'

# the report and the exports: the same cases, 4 writers at once
for spec in "report r.pdf" "export b.xlsx" "export b.csv" "export b.json"; do
set -- $spec; cmd=$1; f=$2
test_expect_success "$cmd -o $f: planted link ignored, mode kept, concurrent writers whole" '
	echo precious >victim && ln -s "$PWD/victim" '$f'.tmp &&
	ab $DB '$cmd' -o '$f' >/dev/null &&
	test "$(cat victim)" = precious && test -L '$f'.tmp && ! test -L '$f' && no_tmp &&
	chmod 604 '$f' && (umask 077 && ab $DB '$cmd' -o '$f' >/dev/null) &&
	test "$(stat -c %a '$f')" = 604 &&
	cp '$f' ref.'$f' && pids="" &&
	for i in 1 2 3 4; do ab $DB '$cmd' -o '$f' >/dev/null 2>err.$i & pids="$pids $!"; done &&
	for p in $pids; do wait $p || { cat err.*; exit 1; }; done &&
	test_cmp ref.'$f' '$f' && no_tmp && rm -f victim '$f'.tmp
'
done

test_done
