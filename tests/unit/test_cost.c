/*
 * test_cost.c - prices file parsing and the cost formulas (model/cost.c)
 * against a hand computation.
 */
#include "unit.h"
#include <math.h>
#include <unistd.h>

#include "model/cost.h"

static const char prices_json[] =
	"{\n"
	"  \"currency\": \"EUR\",\n"
	"  \"_note\": \"list prices 2024, made up\",\n"
	"  \"electricity_price_per_kwh\": 0.30,\n"
	"  \"pue\": 1.25,\n"
	"  \"lifetime_years\": 5,\n"
	"  \"utilisation\": 0.8,\n"
	"  \"node_overhead\": 15000,\n"
	"  \"systems\": {\n"
	"    \"JEDI\": { \"price_per_device\": 25000 },\n"
	"    \"MI250\": { \"price_per_node\": 150000, \"node_overhead\": 0, \"pue\": 1.4,\n"
	"                 \"electricity_price_per_kwh\": 0.2 }\n"
	"  }\n"
	"}\n";

static struct cost_prices_file *parse_ok(const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct cost_prices_file *f = NULL;

	assert_int_equal(cost_prices_parse(text, strlen(text), "prices.json", &f, &err), 0);
	assert_non_null(f);
	strbuf_release(&err);
	return f;
}

static void test_parse(void **state)
{
	struct cost_prices_file *f = parse_ok(prices_json);
	const struct cost_prices *p;

	(void)state;
	assert_string_equal(f->currency, "EUR");
	assert_int_equal(f->nsystems, 2);
	assert_string_equal(f->systems[0].system, "JEDI");
	p = cost_prices_find(f, "JEDI");
	assert_non_null(p);
	assert_double_near(p->price_per_device, 25000, 0);
	assert_double_near(p->price_per_node, 0, 0);
	assert_double_near(p->node_overhead, 15000, 0);     /* inherited */
	assert_double_near(p->electricity_price_per_kwh, 0.30, 0);
	assert_double_near(p->pue, 1.25, 0);
	assert_double_near(p->lifetime_years, 5, 0);
	assert_double_near(p->utilisation, 0.8, 0);
	p = cost_prices_find(f, "MI250");
	assert_non_null(p);
	assert_double_near(p->price_per_node, 150000, 0);
	assert_double_near(p->node_overhead, 0, 0);          /* overridden */
	assert_double_near(p->pue, 1.4, 0);
	assert_double_near(p->electricity_price_per_kwh, 0.2, 0);
	assert_null(cost_prices_find(f, "A100"));
	assert_null(cost_prices_find(NULL, "JEDI"));
	cost_prices_file_free(f);
	cost_prices_file_free(NULL);

	/* built-in defaults: pue 1, utilisation 1, overhead 0, currency EUR */
	f = parse_ok("{\"electricity_price_per_kwh\":0.1,\"lifetime_years\":4,"
		     "\"systems\":{\"X\":{\"price_per_node\":1000}}}");
	assert_string_equal(f->currency, "EUR");
	assert_double_near(f->systems[0].pue, 1.0, 0);
	assert_double_near(f->systems[0].utilisation, 1.0, 0);
	assert_double_near(f->systems[0].node_overhead, 0.0, 0);
	cost_prices_file_free(f);
}

static void expect_error(const char *text, const char *want)
{
	struct strbuf err = STRBUF_INIT;
	struct cost_prices_file *f = (struct cost_prices_file *)1;

	assert_int_equal(cost_prices_parse(text, strlen(text), "prices.json", &f, &err), -AB_EDATA);
	assert_null(f);
	assert_string_equal(err.buf, want);
	strbuf_release(&err);
}

#define BASE "\"electricity_price_per_kwh\":0.1,\"lifetime_years\":4,"

static void test_parse_errors(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cost_prices_file *f = NULL;
	static const char broken[] = "{\n  \"pue\": 1.2,\n  \"systems\": {\n";

	(void)state;
	expect_error("{" BASE "\"systems\":{\"JEDI\":{\"price_per_gpu\":1}}}",
		     "prices.json: system \"JEDI\": unknown key \"price_per_gpu\"");
	expect_error("{" BASE "\"systems\":{\"JEDI\":{\"node_overhead\":1}}}",
		     "prices.json: system \"JEDI\": no \"price_per_device\" or \"price_per_node\"");
	expect_error("{\"lifetime_years\":4,\"systems\":{\"JEDI\":{\"price_per_node\":1}}}",
		     "prices.json: system \"JEDI\": no \"electricity_price_per_kwh\"");
	expect_error("{" BASE "\"pue\":0.9,\"systems\":{\"J\":{\"price_per_node\":1}}}",
		     "prices.json: \"pue\" must be at least 1 (got 0.9)");
	expect_error("{" BASE "\"systems\":{\"J\":{\"price_per_node\":1,\"utilisation\":1.5}}}",
		     "prices.json: system \"J\": \"utilisation\" must be in (0, 1] (got 1.5)");
	expect_error("{" BASE "\"systems\":{\"J\":{\"price_per_node\":-5}}}",
		     "prices.json: system \"J\": \"price_per_node\" must not be negative (got -5)");
	expect_error("{" BASE "\"systems\":{\"J\":{\"price_per_node\":\"1000\"}}}",
		     "prices.json: system \"J\": \"price_per_node\" is not a number");
	expect_error("{" BASE "\"price_per_device\":5,\"systems\":{\"J\":{\"price_per_node\":1}}}",
		     "prices.json: \"price_per_device\" belongs in a system entry");
	expect_error("{" BASE "\"systems\":{}}", "prices.json: no \"systems\" object with prices");
	expect_error("[1]", "prices.json: not a JSON object");
	expect_error("{" BASE "\"currency\":3,\"systems\":{\"J\":{\"price_per_node\":1}}}",
		     "prices.json: \"currency\" is not a string");

	/* JSON syntax errors carry line and column */
	assert_int_equal(cost_prices_parse(broken, strlen(broken), "prices.json", &f, &err),
			 -AB_EDATA);
	assert_true(!strncmp(err.buf, "prices.json:4:", 14));
	assert_int_equal(cost_prices_parse("{\"pue\":1,\"pue\":2}", 17, "p.json", &f, &err),
			 -AB_EDATA);
	assert_true(!strncmp(err.buf, "p.json:1:", 9));
	assert_non_null(strstr(err.buf, "duplicate"));
	strbuf_release(&err);
}

static void test_load(void **state)
{
	char path[] = "/tmp/ab-test-cost-XXXXXX";
	struct strbuf err = STRBUF_INIT;
	struct cost_prices_file *f = NULL;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, prices_json, sizeof(prices_json) - 1),
			 (ssize_t)(sizeof(prices_json) - 1));
	close(fd);
	assert_int_equal(cost_prices_load(path, &f, &err), 0);
	assert_string_equal(f->name, path);
	assert_non_null(cost_prices_find(f, "MI250"));
	cost_prices_file_free(f);
	unlink(path);
	assert_int_equal(cost_prices_load(path, &f, &err), -AB_EIO);
	assert_null(f);
	assert_non_null(strstr(err.buf, "cannot open"));
	strbuf_release(&err);
}

/*
 * Hand computation, JEDI prices above, 2 nodes x 4 devices, 100 000
 * tokens/s at 4000 W (node boundary):
 *   capex       = 8 x 25 000 + 2 x (0 + 15 000)        = 230 000
 *   busy hours  = 5 x 8760 x 0.8                       = 35 040
 *   energy      = 4.0 kW x 35 040 h x 1.25             = 175 200 kWh
 *   energy cost = 175 200 x 0.30                       = 52 560
 *   TCO         = 230 000 + 52 560                     = 282 560
 *   work        = 100 000 x 3600 x 35 040              = 1.26144e13 tokens
 *   cost / M    = 282 560 / 1.26144e13 x 1e6           = 0.0223998 EUR
 *   energy / M  = 52 560 / 1.26144e13 x 1e6            = 0.0041667 EUR
 *                 (= 0.04 J/token x 1e6 / 3.6e6 x 1.25 x 0.30)
 *   perf / EUR  = 100 000 / 230 000                    = 0.4347826 tokens/s
 *   price -20 %: 184 000 + 52 560 = 236 560 -> 0.0187532 / M
 *   price +20 %: 276 000 + 52 560 = 328 560 -> 0.0260464 / M
 *   elec  -20 %: 230 000 + 42 048 = 272 048 -> 0.0215665 / M
 *   elec  +20 %: 230 000 + 63 072 = 293 072 -> 0.0232331 / M
 */
static void test_compute(void **state)
{
	struct cost_prices_file *f = parse_ok(prices_json);
	struct cost_usage u = { 2, 8, 100000, 4000, ENERGY_BOUNDARY_NODE };
	struct strbuf err = STRBUF_INIT;
	struct cost_result r;

	(void)state;
	assert_int_equal(cost_compute(cost_prices_find(f, "JEDI"), &u, &r, &err), 0);
	assert_int_equal(r.boundary, ENERGY_BOUNDARY_NODE);
	assert_double_near(r.capex, 230000, 1e-15);
	assert_double_near(r.busy_hours, 35040, 1e-15);
	assert_double_near(r.energy_kwh, 175200, 1e-14);
	assert_double_near(r.energy_cost, 52560, 1e-14);
	assert_double_near(r.tco, 282560, 1e-14);
	assert_double_near(r.work, 1.26144e13, 1e-14);
	assert_double_near(r.cost_per_million, 282560.0 / 1.26144e7, 1e-13);
	assert_double_near(r.energy_cost_per_million, 0.04 / 3.6 * 1.25 * 0.30, 1e-12);
	assert_double_near(r.perf_per_currency, 100000.0 / 230000.0, 1e-15);
	assert_double_near(r.price_low.tco, 236560, 1e-14);
	assert_double_near(r.price_high.tco, 328560, 1e-14);
	assert_double_near(r.elec_low.tco, 272048, 1e-14);
	assert_double_near(r.elec_high.tco, 293072, 1e-14);
	assert_double_near(r.price_low.cost_per_million, 236560.0 / 1.26144e7, 1e-13);
	assert_double_near(r.price_high.cost_per_million, 328560.0 / 1.26144e7, 1e-13);
	assert_double_near(r.elec_low.cost_per_million, 272048.0 / 1.26144e7, 1e-13);
	assert_double_near(r.elec_high.cost_per_million, 293072.0 / 1.26144e7, 1e-13);

	/* per-node price (MI250): 1 node of 8 GCDs, 3000 W:
	 * capex 150 000; energy 3 x 5 x 8760 x 0.8 x 1.4 x 0.2 = 29 433.6 */
	u.nodes = 1;
	u.avg_power_w = 3000;
	assert_int_equal(cost_compute(cost_prices_find(f, "MI250"), &u, &r, &err), 0);
	assert_double_near(r.capex, 150000, 1e-15);
	assert_double_near(r.energy_cost, 29433.6, 1e-12);

	/* no power measured: capex and perf/EUR only */
	u.avg_power_w = NAN;
	assert_int_equal(cost_compute(cost_prices_find(f, "MI250"), &u, &r, &err), 0);
	assert_double_near(r.perf_per_currency, 100000.0 / 150000.0, 1e-15);
	assert_true(isnan(r.tco) && isnan(r.cost_per_million) && isnan(r.elec_high.tco));

	u.throughput = 0;
	assert_int_equal(cost_compute(cost_prices_find(f, "MI250"), &u, &r, &err), -AB_EDATA);
	assert_string_equal(err.buf, "throughput 0 is not positive");
	cost_prices_file_free(f);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse), cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_load),  cmocka_unit_test(test_compute),
	};
	return cmocka_run_group_tests_name("cost", tests, NULL, NULL);
}
