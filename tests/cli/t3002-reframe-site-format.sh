#!/bin/sh
# t3002-reframe-site-format: a site's ReFrame format strings, from
# .accelbench-reframe.json or --perflog-format; times without a UTC offset
# read in the configured offset, and the assumption kept in params.
. "$(dirname "$0")/lib.sh"

F=$FIXTURES/reframe

test_expect_success 'the config file in an ancestor directory gives format and utc_offset' '
	ab ingest "$F/site" >out 2>err &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected; added 2 runs, 4 metrics$" out &&
	ab ls runs --json >runs.json &&
	$PY -c "
import json
for r in json.load(open(\"runs.json\")):
    print(r[\"benchmark\"], r[\"system\"], r[\"job_id\"], r[\"finished\"], r[\"metrics\"][\"flops\"][\"value\"],
          r[\"metrics\"][\"bw\"][\"unit\"], r[\"params\"][\"n\"], r[\"params\"][\"utc_offset_assumed\"], r[\"params\"][\"time_basis\"])
" >actual &&
	cat >expect <<-\EOF &&
	SiteTest sysc:gpu 5001 2024-06-01T08:00:00Z 812.5 GB/s 2 +01:00 job_completion_time without UTC offset: assumed the configured utc_offset
	SiteTest sysc:gpu 5002 2024-06-01T09:00:00Z 1590.0 GB/s 4 +01:00 job_completion_time without UTC offset: assumed the configured utc_offset
	EOF
	test_cmp expect actual
'

test_expect_success 'the same test case from a run report of the session is stored once' '
	ab ingest "$F/reports/site-dv31.json" >out &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected; added 0 runs, 0 metrics; 1 duplicate run skipped$" out
'

test_expect_success 'a header-less unknown layout says how to give the format (exit 1)' '
	expect_code 1 ab ingest "$F/headerless" >out 2>err &&
	sed "s|$F/||" err >actual &&
	cat >expect <<-\EOF &&
	accelbench: headerless/perflogs/sysd/cpu/CsvTest.log:1: not a ReFrame perflog layout I know (no header naming its columns; not the 3.x, 4.0-4.2 or 4.3+ default or EPCC compat); give the site format with --perflog-format or in .accelbench-reframe.json
	EOF
	test_cmp expect actual
'

test_expect_success '--perflog-format: a per-variable CSV format, lines regrouped' '
	ab ingest --perflog-format "%(check_display_name)s,%(check_system)s,%(check_partition)s,%(check_environ)s,%(check_job_completion_time)s,%(check_perf_var)s,%(check_perf_value)s,%(check_perf_unit)s" "$F/headerless" >out &&
	grep -q "^1 file ingested, 0 skipped as already ingested, 0 rejected; added 2 runs, 4 metrics$" out &&
	ab ls benchmarks --suite reframe >actual &&
	grep -q "^reframe  *CsvTest  *latency  *us  *lower " actual &&
	ab sql "SELECT r.job_id, r.finished, m.name, m.value, m.unit FROM run r JOIN metric m ON m.run_id = r.id JOIN benchmark b ON b.id = r.benchmark_id WHERE b.name = '\''CsvTest'\'' ORDER BY r.finished, m.name" >actual &&
	cat >expect <<-\EOF &&
	job_id  finished              name       value  unit
	------  --------------------  ---------  -----  ----
	        2024-07-01T12:00:00Z  bandwidth  9.75   GB/s
	        2024-07-01T12:00:00Z  latency    3.5    us
	        2024-07-01T12:05:00Z  bandwidth  19.5   GB/s
	        2024-07-01T12:05:00Z  latency    4.25   us
	EOF
	test_cmp expect actual
'

test_expect_success 'bad --perflog-format values are reported' '
	rm -f "$ACCELBENCH_DB" &&
	expect_code 1 ab ingest --perflog-format "%(check_x" "$F/headerless" >out 2>err &&
	grep -q "CsvTest.log: --perflog-format: bad placeholder in the perflog format at offset 0$" err &&
	expect_code 1 ab ingest --perflog-format "{\"utc_offset\": \"+25:00\"}" "$F/headerless" >out 2>err &&
	grep -q "CsvTest.log: --perflog-format: bad utc_offset '\''+25:00'\'' (want +HH:MM, -HH:MM or UTC)$" err &&
	expect_code 1 ab ingest --perflog-format "{\"fromat\": \"x\"}" "$F/headerless" >out 2>err &&
	grep -q "CsvTest.log: --perflog-format: unknown key '\''fromat'\'' (format, format_perfvars, utc_offset)$" err
'

test_expect_success 'a broken config file rejects the files under it' '
	mkdir -p cfg/perflogs/s/p &&
	cp "$F/good/perflogs/sysa/part1/Bench43.log" cfg/perflogs/s/p/ &&
	printf "{\"format\": \n" >cfg/.accelbench-reframe.json &&
	expect_code 1 ab ingest cfg >out 2>err &&
	grep -q "^accelbench: cfg/perflogs/s/p/Bench43.log: .*cfg/.accelbench-reframe.json:2: bad JSON: " err
'

test_done
