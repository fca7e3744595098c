/*
 * test_report_spec.c - the report spec parser (reports/spec.c): defaults,
 * every field, and each rejection with the field's path.
 */
#include "unit.h"

#include "reports/report.h"

static void test_defaults(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct report_spec s;

	(void)state;
	assert_int_equal(report_spec_parse("{}", 2, "r.json", &s, &err), 0);
	assert_string_equal(s.title, REPORT_DEFAULT_TITLE);
	assert_null(s.author);
	assert_null(s.baseline);
	assert_int_equal(s.page, REPORT_PAGE_A4);
	assert_true(s.level == 0.95);
	assert_true(report_spec_has_suite(&s, "caraml"));
	assert_true(report_spec_has_system(&s, "JEDI"));
	assert_null(report_spec_bench(&s, "resnet50"));
	report_spec_release(&s);
	strbuf_release(&err);
}

static void test_full(void **state)
{
	static const char text[] =
		"{ \"_comment\": \"x\", \"title\": \"T\", \"author\": \"A\", \"organisation\": \"O\","
		"  \"page_size\": \"letter\", \"baseline\": \"A100\", \"confidence_level\": 0.9,"
		"  \"suites\": [\"caraml\"], \"systems\": [\"A100\", \"JEDI\"],"
		"  \"benchmarks\": [\"resnet50\", {\"name\": \"llm\", \"metric\": \"energy\","
		"                   \"normalise\": \"device\"}],"
		"  \"cost\": { \"prices\": \"prices.json\" } }";
	struct strbuf err = STRBUF_INIT;
	struct report_spec s;

	(void)state;
	assert_int_equal(report_spec_parse(text, sizeof(text) - 1, "dir/r.json", &s, &err), 0);
	assert_string_equal(s.title, "T");
	assert_string_equal(s.author, "A");
	assert_string_equal(s.organisation, "O");
	assert_int_equal(s.page, REPORT_PAGE_LETTER);
	assert_string_equal(s.baseline, "A100");
	assert_true(s.level == 0.9);
	assert_true(report_spec_has_suite(&s, "caraml"));
	assert_false(report_spec_has_suite(&s, "reframe"));
	assert_true(report_spec_has_system(&s, "JEDI"));
	assert_false(report_spec_has_system(&s, "MI250"));
	assert_int_equal(s.nbenchmarks, 2);
	assert_null(report_spec_bench(&s, "resnet50")->metric);
	assert_string_equal(report_spec_bench(&s, "llm")->metric, "energy");
	assert_int_equal(report_spec_bench(&s, "llm")->norm, REPORT_NORM_DEVICE);
	assert_string_equal(report_norm_name(REPORT_NORM_DEVICE), "device");
	/* relative to the spec's directory */
	assert_string_equal(s.prices, "dir/prices.json");
	report_spec_release(&s);
	strbuf_release(&err);
}

static void expect_error(const char *text, const char *msg)
{
	struct strbuf err = STRBUF_INIT;
	struct report_spec s;

	assert_int_equal(report_spec_parse(text, strlen(text), "r.json", &s, &err), -AB_EDATA);
	assert_string_equal(err.buf, msg);
	/* left initialised: releasing is safe */
	assert_string_equal(s.title, REPORT_DEFAULT_TITLE);
	report_spec_release(&s);
	strbuf_release(&err);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("[]", "r.json: expected a JSON object");
	expect_error("{\"titel\": \"x\"}",
		     "r.json: titel: unknown field (known: title, author, organisation, page_size, "
		     "baseline, confidence_level, suites, systems, benchmarks, cost)");
	expect_error("{\"title\": 5}", "r.json: title: expected a string");
	expect_error("{\"title\": \"\"}", "r.json: title: must not be empty");
	expect_error("{\"page_size\": \"A3\"}", "r.json: page_size: expected \"A4\" or \"Letter\"");
	expect_error("{\"confidence_level\": \"95\"}", "r.json: confidence_level: expected a number");
	expect_error("{\"confidence_level\": 95}",
		     "r.json: confidence_level: must be between 0.5 and 0.999");
	expect_error("{\"systems\": \"JEDI\"}", "r.json: systems: expected an array of names");
	expect_error("{\"systems\": [\"A\", 3]}", "r.json: systems[1]: expected a string");
	expect_error("{\"benchmarks\": {}}", "r.json: benchmarks: expected an array");
	expect_error("{\"benchmarks\": [\"a\", {\"name\": \"b\", \"normalise\": \"gpu\"}]}",
		     "r.json: benchmarks[1].normalise: expected one of system, device, node");
	expect_error("{\"benchmarks\": [{\"metric\": \"x\"}]}", "r.json: benchmarks[0]: missing \"name\"");
	expect_error("{\"benchmarks\": [{\"name\": \"b\", \"metrc\": \"x\"}]}",
		     "r.json: benchmarks[0].metrc: unknown field (known: name, metric, normalise)");
	expect_error("{\"benchmarks\": [7]}",
		     "r.json: benchmarks[0]: expected a benchmark name or an object with \"name\"");
	expect_error("{\"cost\": {\"price\": \"p.json\"}}",
		     "r.json: cost.price: unknown field (known: prices)");
	expect_error("{\"cost\": []}", "r.json: cost: expected an object");
	expect_error("{\"title\": \"a\", \"title\": \"b\"}",
		     "r.json:1:22: duplicate object key near '\"title\"'");
	expect_error("{\"title\": ", "r.json:1:10: unexpected token near end of file");
}

static void test_load(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct report_spec s;

	(void)state;
	assert_int_equal(report_spec_load("/nonexistent/r.json", &s, &err), -AB_EIO);
	assert_string_equal(err.buf,
			    "cannot open report spec '/nonexistent/r.json': No such file or directory");
	report_spec_release(&s);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
