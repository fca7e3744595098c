#!/bin/sh
# run.sh - run every test tier and print one aggregate line:
#   N passed, N failed[, N skipped]
# Tier 1: cmocka unit tests (TAP output).  Tier 2: tests/cli/t*.sh (TAP).
# Logs of each test program go to $AB_BUILD/test-logs/.
# Env: AB_BIN (binary), AB_BUILD (build dir), AB_SHARED (../shared or empty).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
logs="$AB_BUILD/test-logs"
rm -rf "$logs"; mkdir -p "$logs"
if [ -n "${AB_SHARED:-}" ] && [ -d "$AB_SHARED/samples" ]; then
	AB_SAMPLES=$(cd "$AB_SHARED/samples" && pwd)
else
	AB_SAMPLES=""
	echo "note: ../shared/samples not found; sample-based tests are skipped"
fi
export AB_BIN AB_BUILD AB_SAMPLES
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000}
export AB_FIXTURES="$root/tests/fixtures"
# fontconfig keeps caches for the life of the process (see plot_shutdown())
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
unset ACCELBENCH_DB

pass=0; fail=0; skip=0
count() { # print "ok-lines not-ok-lines skips" of a TAP log
	# a skip is "ok N # SKIP" (ours) or "not ok N # SKIP" (cmocka's TAP)
	p=$(grep -c '^ok ' "$1" 2>/dev/null); s1=$(grep -c '^ok .*# [Ss][Kk][Ii][Pp]' "$1" 2>/dev/null)
	s2=$(grep -c '^not ok .*# [Ss][Kk][Ii][Pp]' "$1" 2>/dev/null)
	f=$(( $(grep -c '^not ok ' "$1" 2>/dev/null) - s2 ))
	echo "$((p + s2)) $f $((s1 + s2))"
}
report() { # name, log, rc
	set -- "$1" "$2" "$3" $(count "$2")
	pass=$((pass + $4 - $6)); skip=$((skip + $6)); fail=$((fail + $5))
	if [ "$3" -ne 0 ] && [ "$5" -eq 0 ]; then
		# crashed or exited non-zero without a failing test line: count it
		fail=$((fail + 1)); echo "FAIL $1 (exit $3, see $2)"
		tail -5 "$2" | sed 's/^/    /'
	elif [ "$5" -ne 0 ]; then
		echo "FAIL $1: $5 failed (see $2)"
		grep -v '# [Ss][Kk][Ii][Pp]' "$2" | grep -A3 '^not ok ' | head -40 | sed 's/^/    /'
	else
		printf '  ok   %-40s %s passed%s\n' "$1" "$(( $4 - $6 ))" "$( [ "$6" -gt 0 ] && echo ", $6 skipped")"
	fi
}

echo "== headers (each compiles on its own)"
hlog="$logs/headers.log"; : >"$hlog"; hn=0
for h in $(cd "$root" && ls core/*.h model/*.h ingest/*.h views/*.h plots/*.h reports/*.h runners/*.h cli/*.h 2>/dev/null); do
	hn=$((hn + 1))
	printf '#include "%s"\n#include "%s"\n' "$h" "$h" >"$AB_BUILD/hdr-check.c"
	if (cd "$root" && $AB_CC $AB_CFLAGS -fsyntax-only "$AB_BUILD/hdr-check.c") >>"$hlog" 2>&1; then
		echo "ok $hn - $h" >>"$hlog"
	else
		echo "not ok $hn - $h" >>"$hlog"
	fi
done
report headers "$hlog" 0

echo "== unit tests"
for t in "$AB_BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	n=$(basename "$t")
	(cd "$root" && CMOCKA_MESSAGE_OUTPUT=TAP "$t") >"$logs/$n.log" 2>&1
	report "$n" "$logs/$n.log" $?
done

echo "== cli tests"
for t in "$root"/tests/cli/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	(cd "$root" && sh "$t") >"$logs/$n.log" 2>&1
	report "$n" "$logs/$n.log" $?
done

echo
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
