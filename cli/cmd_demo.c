/*
 * cmd_demo.c - `accelbench demo [-o DIR]`: write the simulated campaign of
 * three suites (runners/demo*.c: CARAML, MLPerf training, ReFrame) to
 * DIR/data, the example prices to DIR/prices.json, ingest the data into
 * DIR/accelbench.db (or --db), and print what the database now holds.
 */
#include "core/compat.h"
#include "commands.h"
#include "ingest/ingest.h"
#include "runners/runners.h"

static int print_listing(struct db *db, int (*list)(struct db *, const struct db_filter *,
						     json_t **, struct strbuf *),
			 const char *const *cols, const char *title)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	json_t *arr;
	struct table *t;
	int rc = list(db, NULL, &arr, &err);

	if (rc < 0) {
		rc = cli_status(rc, &err);
		strbuf_release(&err);
		return rc;
	}
	t = cli_json_table(arr, cols);
	strbuf_addf(&out, "\n%s\n", title);
	table_render_text(t, &out);
	table_free(t);
	json_decref(arr);
	rc = cli_output(NULL, &out);
	strbuf_release(&out);
	return rc;
}

int cmd_demo(int argc, char **argv, struct ctx *ctx)
{
	static const char *const cols_systems[] = { "name:system", "vendor", "accelerator",
						    "accelerators_per_node:per node:r", "runs::r",
						    NULL };
	static const char *const cols_benchmarks[] = { "suite", "name:benchmark", "metric", "unit",
						       "better", "systems::r", "runs::r", NULL };
	const char *dir = "out", *suite = NULL;
	long seed = 20240913, repeats = 6, files = 0;
	const struct opt opts[] = {
		{ 'o', "output", OPT_STRING, &dir, "DIR", "output directory (default: out)" },
		{ 0, "seed", OPT_INT, &seed, "N", "random seed of the simulated campaign" },
		{ 0, "repeats", OPT_INT, &repeats, "N", "runs per configuration (default 6)" },
		{ 0, "suite", OPT_STRING, &suite, "S", "only caraml, mlperf or reframe (default: all)" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct run_demo_opts dopts = { 0 };
	struct strbuf err = STRBUF_INIT, data = STRBUF_INIT, dbpath = STRBUF_INIT,
		      prices = STRBUF_INIT;
	struct ingest_opts io = { 0 };
	struct ingest_totals totals;
	const char *paths[1], *roots[1];
	int rc;

	if (cli_parse_options("demo", opts, argc, argv, &rc))
		return rc;
	if (repeats < 1 || repeats > 1000)
		return cli_error(AB_EUSAGE, "demo: --repeats must be between 1 and 1000");
	dopts.seed = (unsigned long)seed;
	dopts.repeats = (int)repeats;
	dopts.scale = 1;
	if (!suite)
		dopts.suites = RUN_DEMO_ALL;
	else if (!strcmp(suite, "caraml"))
		dopts.suites = RUN_DEMO_CARAML;
	else if (!strcmp(suite, "mlperf"))
		dopts.suites = RUN_DEMO_MLPERF;
	else if (!strcmp(suite, "reframe"))
		dopts.suites = RUN_DEMO_REFRAME;
	else
		return cli_error(AB_EUSAGE, "demo: unknown suite '%s' (valid: caraml, mlperf, reframe)",
				 suite);
	strbuf_addf(&data, "%s/data", dir);
	rc = run_demo_write(data.buf, &dopts, &files, &err);
	if (rc < 0)
		goto out;
	printf("wrote %ld files of a simulated campaign (%s; seed %ld; simulated example data) to %s\n",
	       files, suite ? suite : "CARAML, MLPerf training, ReFrame", seed, data.buf);
	strbuf_addf(&prices, "%s/prices.json", dir);
	rc = run_demo_write_prices(prices.buf, &err);
	if (rc < 0)
		goto out;
	printf("wrote example prices to %s\n", prices.buf);
	if (ctx->db_explicit)
		strbuf_addstr(&dbpath, ctx->db_path);
	else
		strbuf_addf(&dbpath, "%s/accelbench.db", dir);
	rc = db_open(&ctx->db, dbpath.buf, 0, &err);
	if (rc < 0)
		goto out;
	paths[0] = data.buf;
	roots[0] = data.buf;
	io.roots = roots;
	io.nroots = 1;
	rc = ingest_paths(paths, 1, &io, db_ingest_sink(ctx->db), &totals, &err);
	if (rc < 0)
		goto out;
	printf("ingested into %s: %ld files (%ld already there), %ld runs, %ld metrics\n",
	       dbpath.buf, totals.ingested, totals.skipped, totals.runs, totals.metrics);
	rc = print_listing(ctx->db, db_list_systems, cols_systems, "systems:");
	if (rc == AB_OK)
		rc = print_listing(ctx->db, db_list_benchmarks, cols_benchmarks, "benchmarks:");
	strbuf_release(&err);
	strbuf_release(&data);
	strbuf_release(&dbpath);
	strbuf_release(&prices);
	return rc;
out:
	rc = cli_status(rc, &err);
	strbuf_release(&err);
	strbuf_release(&data);
	strbuf_release(&dbpath);
	strbuf_release(&prices);
	return rc;
}
