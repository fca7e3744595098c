#!/bin/sh
# t0906-pg-check: `pg check` finds every broken reference between the
# central tables (they carry no foreign keys), and pull re-describes the
# systems a systems file described by the links push recorded, not by the
# file's base name.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg_lib.sh"

pg_start_or_skip "PostgreSQL check"

SITES="host=$PG_DIR user=ab dbname=sites"

test_expect_success 'set-up: two sites with a systems file of the same name, and the demo' '
	mkdir a b &&
	cp "$FIXTURES/systems/epcc.json" a/systems.json &&
	printf "{\"accelbench_systems\": {\"zeta:gpu\": {\"vendor\": \"NVIDIA\", \"accelerator\": \"H100\", \"site\": \"B\"}}}\n" >b/systems.json &&
	ab --db a.db ingest a/systems.json >/dev/null &&
	ab --db b.db ingest b/systems.json >/dev/null &&
	ab --db both.db ingest a/systems.json >/dev/null && ab --db both.db ingest b/systems.json >/dev/null &&
	ACCELBENCH_DB= ab demo -o demo >/dev/null &&
	ab pg init --url "$PG_URL" --no-reader >/dev/null &&
	ab --db demo/accelbench.db push --to "$PG_URL" >/dev/null &&
	pg_sql -c "CREATE DATABASE sites" &&
	ab pg init --url "$SITES" --no-reader >/dev/null &&
	ab --db a.db push --to "$SITES" >/dev/null && ab --db b.db push --to "$SITES" >/dev/null
'

test_expect_success 'pg check: every reference holds' '
	ab pg check --url "$PG_URL" >out 2>err &&
	test "$(grep -c "^ok: no " out)" = 9 &&
	grep -q "^the central store at ab@.* is consistent$" out && ! test -s err &&
	ab pg check --url "$SITES" >out &&
	grep -q "^the central store at ab@.*/sites is consistent$" out
'

test_expect_success 'push linked each systems file to the systems it described' '
	test "$(pg_sql -d "$SITES" -c "SELECT string_agg(y.name, '\'','\'' ORDER BY y.name) FROM accelbench.source_system l JOIN accelbench.system y ON y.id = l.system_id JOIN accelbench.source s ON s.id = l.source_id WHERE s.path = '\''b/systems.json'\''")" = "zeta:gpu" &&
	test "$(pg_sql -d "$SITES" -c "SELECT count(*) FROM accelbench.source_system l JOIN accelbench.source s ON s.id = l.source_id WHERE s.path = '\''a/systems.json'\''")" = 5
'

test_expect_success 'pull re-describes by those links: each file its own systems, once' '
	ab --db p.db pull --from "$SITES" >out &&
	grep -q "^pulled 2 sources .*, 6 systems described$" out &&
	ab --db p.db ls systems --json >p.json &&
	ab --db both.db ls systems --json >both.json &&
	test_cmp both.json p.json
'

test_expect_success 'pg check names what a broken store lacks, and exits 1' '
	pg_sql -c "DELETE FROM accelbench.run WHERE id = (SELECT min(run_id) FROM accelbench.power_sample)" &&
	pg_sql -c "DELETE FROM accelbench.param_set WHERE id = (SELECT max(set_id) FROM accelbench.run)" &&
	pg_sql -c "DELETE FROM accelbench.metric_kind WHERE id = (SELECT max(kind_id) FROM accelbench.metric_data)" &&
	expect_code 1 ab pg check --url "$PG_URL" >out 2>err &&
	grep -q "^FAILED: [1-9][0-9]* metrics whose run is missing$" out &&
	grep -q "^FAILED: [1-9][0-9]* power samples whose run is missing$" out &&
	grep -q "^FAILED: [1-9][0-9]* runs whose param set is missing$" out &&
	grep -q "^FAILED: [1-9][0-9]* metrics whose kind is missing$" out &&
	test "$(grep -c "^ok: no " out)" = 5 &&
	grep -q "^accelbench: the central store at .*/postgres is not consistent: [0-9]* rows break a reference$" err &&
	pg_sql -d "$SITES" -c "DELETE FROM accelbench.system WHERE name = '\''zeta:gpu'\''" &&
	expect_code 1 ab pg check --url "$SITES" >out 2>err &&
	grep -q "^FAILED: 1 systems-file links whose source or system is missing$" out &&
	test "$(grep -c "^ok: no " out)" = 8 &&
	grep -q "^accelbench: the central store at .*/sites is not consistent: 1 row breaks a reference$" err
'

test_done
