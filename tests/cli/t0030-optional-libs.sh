#!/bin/sh
# t0030-optional-libs: libpq and the cairo/pango/glib stack are loaded only
# by the commands that need them (core/dynlib.h), never at start-up: the
# binary does not name them, other commands do not load them, and a command
# that cannot load one exits 3 naming the library and its Debian package.
. "$(dirname "$0")/lib.sh"

# the loads LD_DEBUG=files reported in FILE, one soname per line
LAZY='lib(pq|cairo|pango-1\.0|pangocairo-1\.0|gobject-2\.0|glib-2\.0|harfbuzz)\.so'
loaded() { sed -n 's/.*[[:space:]]file=\([^ ]*\) \[0\];  \(needed\|dynamically loaded\) by.*/\1/p' "$1" | sort -u; }

test_expect_success 'set up the demo database' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null && test -f demo/accelbench.db
'
DB="--db demo/accelbench.db"

if command -v readelf >/dev/null 2>&1; then
test_expect_success 'the binary is not linked with libpq, cairo, pango or glib' '
	readelf -d "$AB" >dyn &&
	grep "(NEEDED)" dyn >needed &&
	grep -q "libsqlite3\.so" needed &&
	! grep -E "$LAZY" needed
'
else
	test_skip 'the binary is not linked with libpq, cairo, pango or glib' "no readelf"
fi

test_expect_success 'commands that do not draw or reach PostgreSQL load none of them' '
	mkdir empty &&
	LD_DEBUG=files ab --version >/dev/null 2>ld.version &&
	LD_DEBUG=files ab --db fresh.db ingest demo/data/reframe >/dev/null 2>ld.ingest &&
	LD_DEBUG=files ab $DB ls runs >/dev/null 2>ld.ls &&
	LD_DEBUG=files ab $DB compare -b llm-gpt-800M --baseline A100 >/dev/null 2>ld.compare &&
	LD_DEBUG=files ab $DB export -o x.xlsx >/dev/null 2>ld.xlsx &&
	for c in version ingest ls compare xlsx; do
		loaded ld.$c >libs.$c &&
		grep -q "^libsqlite3\.so" libs.$c || { echo "# no loads seen for $c"; exit 1; }
		! grep -E "$LAZY" libs.$c || { echo "# $c loaded them"; exit 1; }
	done
'

test_expect_success 'plot and report load the drawing libraries, pg loads libpq' '
	LD_DEBUG=files ab $DB plot bar -b llm-gpt-800M --baseline A100 -o bar.png >/dev/null 2>ld.plot &&
	loaded ld.plot >libs.plot &&
	grep -q "^libcairo\.so\.2$" libs.plot && grep -q "^libpangocairo-1\.0\.so\.0$" libs.plot &&
	! grep -q "^libpq" libs.plot &&
	LD_DEBUG=files ab $DB report -o r.pdf >/dev/null 2>ld.report &&
	loaded ld.report >libs.report &&
	grep -q "^libpango-1\.0\.so\.0$" libs.report &&
	mkdir nosock &&
	LD_DEBUG=files expect_code 3 ab pg check --url "host=$PWD/nosock" >/dev/null 2>ld.pg &&
	grep "^accelbench: cannot connect to PostgreSQL" ld.pg &&
	loaded ld.pg >libs.pg &&
	grep -q "^libpq\.so\.5$" libs.pg && ! grep -q "^libcairo" libs.pg
'

# AB_DLOPEN_DIR=DIR: the libraries are opened as DIR/SONAME only
test_expect_success 'a missing drawing library: exit 3, named with its package, no file' '
	msg="accelbench: cannot load libglib-2.0.so.0 (needed to draw charts and PDF reports): install the Debian package libglib2.0-0 (" &&
	AB_DLOPEN_DIR=$PWD/empty expect_code 3 ab $DB plot bar -b llm-gpt-800M -o m.png >out 2>err &&
	cat err && test ! -s out && test "$(wc -l <err)" -eq 1 &&
	grep -qF "$msg" err && grep -q "cannot open shared object file" err &&
	AB_DLOPEN_DIR=$PWD/empty expect_code 3 ab $DB report -o m.pdf >out 2>err &&
	test ! -s out && grep -qF "$msg" err &&
	ls -A >files && ! grep "^m\.\|\.tmp$" files
'

test_expect_success 'a missing libpq: pg, push and pull exit 3 naming libpq5' '
	msg="accelbench: cannot load libpq.so.5 (needed to talk to PostgreSQL): install the Debian package libpq5 (" &&
	cp demo/accelbench.db before.db &&
	AB_DLOPEN_DIR=$PWD/empty expect_code 3 ab pg init --url "host=$PWD/nosock" 2>err.init &&
	AB_DLOPEN_DIR=$PWD/empty expect_code 3 ab $DB push --to "host=$PWD/nosock" 2>err.push &&
	AB_DLOPEN_DIR=$PWD/empty expect_code 3 ab $DB pull --from "host=$PWD/nosock" 2>err.pull &&
	for c in init push pull; do
		cat err.$c; grep -qF "$msg" err.$c || exit 1
	done &&
	cmp demo/accelbench.db before.db
'

test_expect_success 'without any of them the other commands still work' '
	AB_DLOPEN_DIR=$PWD/empty ab $DB ls runs >runs.txt && test -s runs.txt &&
	AB_DLOPEN_DIR=$PWD/empty ab $DB export -o y.xlsx && test -s y.xlsx &&
	AB_DLOPEN_DIR=$PWD/empty ab --db fresh2.db ingest demo/data/reframe >/dev/null
'

# the real files, from where the dynamic linker found them for plot
libpath() { sed -n "s|.*opening file=\\(/[^ ]*/$1\\) \\[0\\].*|\\1|p" ld.plot | head -1; }

test_expect_success 'the first missing one is named; a library lacking a function too' '
	mkdir part &&
	for l in libglib-2.0.so.0 libgobject-2.0.so.0 libcairo.so.2; do
		p=$(libpath $l) && test -n "$p" || { echo "# $l not in LD_DEBUG output"; exit 1; }
		ln -s "$p" part/$l || exit 1
	done &&
	AB_DLOPEN_DIR=$PWD/part expect_code 3 ab $DB plot bar -b llm-gpt-800M -o m.png 2>err &&
	cat err &&
	grep -qF "accelbench: cannot load libpango-1.0.so.0 (needed to draw charts and PDF reports): install the Debian package libpango-1.0-0 (" err &&
	mkdir wrong && ln -s "$(libpath libglib-2.0.so.0)" wrong/libglib-2.0.so.0 &&
	ln -s "$(libpath libglib-2.0.so.0)" wrong/libgobject-2.0.so.0 &&
	AB_DLOPEN_DIR=$PWD/wrong expect_code 3 ab $DB plot bar -b llm-gpt-800M -o m.png 2>err &&
	cat err &&
	grep -qF "accelbench: libgobject-2.0.so.0 lacks g_object_ref (needed to draw charts and PDF reports): install a current libglib2.0-0" err
'

test_expect_success 'from a directory holding them all, the chart is the same' '
	for l in libpango-1.0.so.0 libpangocairo-1.0.so.0; do
		p=$(libpath $l) && test -n "$p" && ln -s "$p" part/$l || exit 1
	done &&
	AB_DLOPEN_DIR=$PWD/part ab $DB plot bar -b llm-gpt-800M --baseline A100 -o bar2.png >/dev/null &&
	cmp bar.png bar2.png
'

test_done
