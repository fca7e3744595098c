#!/bin/sh
# t0020-snapshots: golden text, CSV and JSON of the reading commands (stats,
# compare with and without -b, scaling, pareto, cost) on the seeded demo
# database, byte for byte.  They freeze what views/ computes and how cli/
# renders it, so code can move between layers without changing a byte.
# Only the CARAML suite is read, so other suites added to the demo do not
# disturb them.  AB_UPDATE_GOLDEN=1 rewrites tests/golden/ instead of
# comparing (review the diff before committing it).
. "$(dirname "$0")/lib.sh"
GOLDEN=$ROOT/tests/golden

# name|arguments (run with --db demo/accelbench.db, cwd $TRASH)
CASES='stats-llm|stats --suite caraml -b llm-gpt-800M
stats-resnet|stats --suite caraml -b resnet50
stats-jedi-energy|stats --suite caraml -b llm-gpt-800M --system JEDI -m energy
compare-resnet|compare --suite caraml -b resnet50 --baseline A100
compare-llm-best|compare --suite caraml -b llm-gpt-800M --baseline H100 --best
compare-all|compare --suite caraml --baseline A100
scaling-llm|scaling --suite caraml -b llm-gpt-800M
scaling-resnet-devices|scaling --suite caraml -b resnet50 --by devices
pareto-llm|pareto --suite caraml -b llm-gpt-800M
pareto-resnet|pareto --suite caraml -b resnet50
cost-llm|cost --suite caraml -b llm-gpt-800M --prices prices.json'

test_expect_success 'the seeded demo database' '
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	cp "$FIXTURES/cost/prices.json" prices.json
'

echo "$CASES" | while IFS='|' read -r name args; do
	for fmt in txt csv json; do
		case $fmt in txt) flag= ;; *) flag=--$fmt ;; esac
		echo "$name.$fmt|$args $flag"
	done
done >"$T_BASE/cases"

while IFS='|' read -r file args; do
	if [ "${AB_UPDATE_GOLDEN:-}" = 1 ]; then
		test_expect_success "update $file" "
			ab --db demo/accelbench.db $args >'$GOLDEN/$file'
		"
	else
		test_expect_success "$file: $args" "
			ab --db demo/accelbench.db $args >actual.$file &&
			test_cmp '$GOLDEN/$file' actual.$file
		"
	fi
done <"$T_BASE/cases"

test_expect_success 'every golden file is used by a case' '
	(cd "$GOLDEN" && ls) >present &&
	cut -d"|" -f1 "$T_BASE/cases" | sort >used &&
	test_cmp used present
'

test_done
