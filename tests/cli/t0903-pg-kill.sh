#!/bin/sh
# t0903-pg-kill: a pusher killed with SIGKILL in the middle of sending a
# large source (while the server COPYs its runs) leaves nothing half-pushed (every source in the store is
# complete, the interrupted one absent) and a re-run completes the push.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg_lib.sh"

GEN=${AB_BUILD:-}/helpers/gen_reframe
# every test below needs the server and the set-up's database: skip them all
if [ ! -x "$GEN" ]; then
	test_skip "PostgreSQL killed pusher" "no $GEN (make unit-bins builds it)"
	test_done
fi
pg_start_or_skip "PostgreSQL killed pusher"
export GEN

# per source: sha256, runs (local and central, in the same form)
local_runs() { ab --db "$1" sql --csv "SELECT s.sha256, count(r.id) FROM source s LEFT JOIN run r ON r.source_id = s.id GROUP BY 1 ORDER BY 1" | tail -n +2; }
central_runs() { pg_sql -F, -c "SELECT s.sha256, count(r.id) FROM accelbench.source s LEFT JOIN accelbench.run r ON r.source_id = s.id GROUP BY 1 ORDER BY 1"; }

test_expect_success 'set-up: the demo, then one large ReFrame perflog' '
	ACCELBENCH_DB= ab demo -o d --repeats 3 >/dev/null &&
	"$GEN" big 40000 >/dev/null &&
	ab --db l.db ingest d/data >/dev/null 2>&1 &&
	ab --db l.db ingest big >/dev/null 2>&1 &&
	ab pg init --url "$PG_URL" --no-reader >/dev/null
'

test_expect_success 'SIGKILL during the COPY of the large source: nothing half-pushed' '
	"$AB" --db l.db push --to "$PG_URL" >out 2>err & pid=$! &&
	n=0 && while [ $n -lt 1500 ]; do
		test "$(pg_sql -c "SELECT count(*) FROM pg_stat_progress_copy WHERE relid::regclass::text = '"'accelbench.run'"' AND tuples_processed > 1000")" = 0 || break
		kill -0 $pid 2>/dev/null || break
		n=$((n + 1)); sleep 0.02
	done &&
	kill -9 $pid && { wait $pid; test $? = 137; } &&
	local_runs l.db >want &&
	central_runs >got &&
	test "$(wc -l <got)" -lt "$(wc -l <want)" &&
	test "$(comm -13 want got | wc -l)" = 0 &&
	big=$(ab --db l.db sql --csv "SELECT sha256 FROM source WHERE path LIKE '"'big/%'"'" | tail -1) &&
	! grep -q "^$big," got
'

test_expect_success 'the server rolled the interrupted transaction back: no stray rows' '
	n=0; while [ $n -lt 250 ] && [ "$(pg_sql -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = '"'client backend'"' AND pid <> pg_backend_pid()")" != 0 ]; do n=$((n + 1)); sleep 0.02; done &&
	test "$(pg_sql -c "SELECT count(*) FROM accelbench.run WHERE source_id NOT IN (SELECT id FROM accelbench.source)")" = 0 &&
	test "$(pg_sql -c "SELECT count(*) FROM accelbench.metric m WHERE NOT EXISTS (SELECT 1 FROM accelbench.run r WHERE r.id = m.run_id)")" = 0
'

test_expect_success 'a re-run completes the push' '
	ab --db l.db push --to "$PG_URL" >out &&
	grep -q "^pushed [0-9]* sources\{0,1\} to .* ([0-9]* already there); added [0-9]* runs, " out &&
	local_runs l.db >want && central_runs >got && test_cmp want got &&
	for t in metric power_sample; do
		test "$(ab --db l.db sql --csv "SELECT count(*) FROM $t" | tail -1)" = \
			"$(pg_sql -c "SELECT count(*) FROM accelbench.$t")" || exit 1
	done
'

test_expect_success 'two lanes keep the local order of the sources in the store' '
	pg_sql -c "CREATE DATABASE ord" &&
	ord="host=$PG_DIR user=ab dbname=ord" &&
	ab pg init --url "$ord" --no-reader >/dev/null &&
	ab --db l.db push --to "$ord" >/dev/null &&
	ab --db l.db sql --csv "SELECT sha256 FROM source ORDER BY id" | tail -n +2 >want &&
	pg_sql -d "$ord" -c "SELECT sha256 FROM accelbench.source ORDER BY id" >got &&
	test "$(wc -l <want)" -gt 2 && test_cmp want got
'

test_done
