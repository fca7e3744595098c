/*
 * cmd_ls.c - `accelbench ls systems|benchmarks|runs|sources|formats`.
 */
#include "core/compat.h"
#include "commands.h"
#include "ingest/ingest.h"

#include <math.h>

static const char *const cols_systems[] = {
	"name:system", "vendor", "accelerator", "accelerators_per_node:per node:r",
	"display_name:display name", "runs::r", NULL
};
static const char *const cols_benchmarks[] = {
	"suite", "name:benchmark", "metric", "unit", "better", "systems::r", "runs::r", NULL
};
static const char *const cols_runs[] = {
	"id::r", "suite", "benchmark", "system", "status", "nodes::r", "devices::r",
	"global_batch:batch:r", "headline:value:r", "headline_unit_shown:unit", "excluded_reason:note",
	NULL
};
static const char *const cols_sources[] = {
	"id::r", "format", "runs::r", "size::r", "ingested_at:ingested", "path", NULL
};

/* For the text table: the headline metric's value per run. */
static void add_headline(json_t *runs)
{
	size_t i;
	json_t *r;

	json_array_foreach(runs, i, r) {
		const char *m = json_string_value(json_object_get(r, "headline_metric"));
		json_t *v = m ? json_object_get(json_object_get(json_object_get(r, "metrics"), m),
						"value")
			      : NULL;
		if (json_is_number(v)) {
			struct strbuf sb = STRBUF_INIT;
			double x = json_number_value(v);
			num_format_fixed(&sb, x, fabs(x) >= 100 ? 1 : 3, 1);
			json_object_set_new(r, "headline", json_string(sb.buf));
			/* a unit without a value (a failed run) only adds noise */
			json_object_set(r, "headline_unit_shown", json_object_get(r, "headline_unit"));
			strbuf_release(&sb);
		}
	}
}

int cmd_ls(int argc, char **argv, struct ctx *ctx)
{
	struct db_filter f = { 0 };
	int json = 0, csv = 0;
	const struct opt opts[] = {
		{ 0, "suite", OPT_STRING, &f.suite, "S", "only this suite (caraml, mlperf-training, ...)" },
		{ 'b', "benchmark", OPT_STRING, &f.benchmark, "B", "only this benchmark" },
		{ 0, "system", OPT_STRING, &f.system, "S", "only this system" },
		{ 0, "json", OPT_FLAG, &json, NULL, "print a JSON array" },
		{ 0, "csv", OPT_FLAG, &csv, NULL, "print CSV" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	const char *const *cols;
	const char *what;
	json_t *arr = NULL;
	struct table *t;
	int n, rc;

	n = cli_parse(cli_find("ls"), opts, argc, argv);
	if (n == CLI_HELP)
		return AB_OK;
	if (n < 0)
		return AB_EUSAGE;
	if (n != 1)
		return cli_error(AB_EUSAGE, "ls: say what to list: systems, benchmarks, runs, sources "
					    "or formats");
	what = argv[0];
	if (!strcmp(what, "formats")) {
		size_t k;
		for (k = 0; ingest_format_name(k); k++)
			printf("%s\n", ingest_format_name(k));
		return AB_OK;
	}
	if (strcmp(what, "systems") && strcmp(what, "benchmarks") && strcmp(what, "runs") &&
	    strcmp(what, "sources"))
		return cli_error(AB_EUSAGE, "ls: cannot list '%s' (systems, benchmarks, runs, "
					    "sources, formats)", what);
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	if (!strcmp(what, "systems")) {
		rc = db_list_systems(ctx->db, &f, &arr, &err);
		cols = cols_systems;
	} else if (!strcmp(what, "benchmarks")) {
		rc = db_list_benchmarks(ctx->db, &f, &arr, &err);
		cols = cols_benchmarks;
	} else if (!strcmp(what, "runs")) {
		rc = db_list_runs(ctx->db, &f, &arr, &err);
		cols = cols_runs;
	} else {
		rc = db_list_sources(ctx->db, &f, &arr, &err);
		cols = cols_sources;
	}
	if (rc < 0) {
		rc = cli_status(rc, &err);
		strbuf_release(&err);
		return rc;
	}
	if (json || csv) {
		rc = csv ? cli_output_csv(NULL, arr) : cli_output_json(NULL, arr);
		json_decref(arr);
		return rc;
	}
	if (!strcmp(what, "runs"))
		add_headline(arr);
	t = cli_json_table(arr, cols);
	table_render_text(t, &out);
	table_free(t);
	json_decref(arr);
	rc = cli_output(NULL, &out);
	strbuf_release(&out);
	return rc;
}
