# lib.sh - sourced by tests/cli/tNNNN-*.sh (after git's test-lib, in TAP).
#
#   . "$(dirname "$0")/lib.sh"
#   test_expect_success 'what it checks' '
#       ab ingest x && ab ls runs >actual && test_cmp expected actual
#   '
#   test_done
#
# Each test runs in a fresh scratch dir $TRASH (cwd) with its own database;
# ab runs the binary under test.  test_skip_no_samples skips a test when
# ../shared/samples is absent.
set -u
AB=${AB_BIN:?AB_BIN not set}
SAMPLES=${AB_SAMPLES:-}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIXTURES=${AB_FIXTURES:-$ROOT/tests/fixtures}
T_NAME=$(basename "$0" .sh)
# this checkout's own scratch space, never one that a test of another
# checkout (or CI's clone) running at the same time would remove
T_BASE=${AB_BUILD:-$ROOT/build}/trash/$T_NAME
# the environment tests/run.sh gives every test, also when one runs on its
# own: C locale, UTC, a fixed SOURCE_DATE_EPOCH (ingested_at, PDF and XLSX
# dates), so that nothing depends on the caller's locale, time zone or clock
LC_ALL=C; TZ=UTC; SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000}
export LC_ALL TZ SOURCE_DATE_EPOCH
rm -rf "$T_BASE"; mkdir -p "$T_BASE"
T_N=0; T_FAIL=0
ACCELBENCH_DB="$T_BASE/test.db"; export ACCELBENCH_DB
TRASH="$T_BASE/work"; mkdir -p "$TRASH"
PY=/usr/bin/python3
# the Python modules the tests share (abfmt.py: the number formats of views/)
PYTHONPATH="$ROOT/tests/helpers${PYTHONPATH:+:$PYTHONPATH}"; export PYTHONPATH

ab() { "$AB" "$@"; }
# dbsum, orphans, content, runq: what the tests ask of a database
. "$ROOT/tests/helpers/db.sh"

# desc FILE.svg: the strings drawn into an SVG (plots put each one into the
# file's <desc>), one per line
desc() {
	"$PY" -c 'import re,sys,html; t=open(sys.argv[1]).read(); m=re.search(r"<desc>(.*?)</desc>", t, re.S); print(html.unescape(m.group(1)) if m else "")' "$1"
}

# csvsel COL,COL [COL=V|COL!=V...]: named columns of the CSV on stdin
csvsel() { "$PY" "$ROOT/tests/csvsel.py" "$@"; }

test_cmp() {
	if ! cmp -s "$1" "$2"; then
		echo "# files differ: $1 $2"; diff -u "$1" "$2" | head -40 | sed 's/^/# /'
		return 1
	fi
}

# expect_code N cmd... : the command exits with status N
expect_code() {
	want=$1; shift
	"$@"; got=$?
	if [ "$got" -ne "$want" ]; then echo "# expected exit $want, got $got: $*"; return 1; fi
	return 0
}

test_expect_success() {
	T_N=$((T_N + 1))
	( cd "$TRASH" && eval "$2" ) >"$T_BASE/out.$T_N" 2>&1
	if [ $? -eq 0 ]; then
		echo "ok $T_N - $1"
	else
		echo "not ok $T_N - $1"; T_FAIL=$((T_FAIL + 1))
		sed 's/^/#   /' "$T_BASE/out.$T_N" | tail -30
	fi
}

test_skip() {
	T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP $2"
}

# Run the test only when ../shared/samples exists.
test_expect_samples() {
	if [ -z "$SAMPLES" ]; then test_skip "$1" "../shared/samples absent"; return; fi
	test_expect_success "$1" "$2"
}

test_done() {
	echo "1..$T_N"
	[ "$T_FAIL" -eq 0 ] && rm -rf "$T_BASE"
	exit "$T_FAIL"
}
