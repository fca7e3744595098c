/*
 * cmd_export.c - `accelbench export -o FILE`: runs, statistics, comparisons
 * or MLPerf scores as RFC 4180 CSV or as JSON with the fields of --json
 * (reports/export.c); the format comes from the file's extension or
 * --format ("-o -" writes to stdout).  Prints the path it wrote.
 */
#include "core/compat.h"
#include "commands.h"
#include "reports/export.h"
#include "reports/report.h"

/* The spec's selection of suites and benchmarks (report.h). */
static int spec_keep(const char *suite, const char *name, void *ctx)
{
	const struct report_spec *s = ctx;

	return report_spec_has_suite(s, suite) && (!s->nbenchmarks || report_spec_bench(s, name));
}

static int export_workbook(struct ctx *ctx, const char *output, const char *prices,
			   const char *spec_path, const struct export_opts *eo, long seed,
			   long resamples)
{
	struct xlsx_opts xo = { 0 };
	struct report_spec spec;
	struct compare_opts copts;
	struct strbuf err = STRBUF_INIT;
	int rc;

	if (!spec_path)
		report_spec_init(&spec);
	else {
		/* it initialises spec itself (an init before it would leak) */
		rc = report_spec_load(spec_path, &spec, &err);
		if (rc < 0) {
			rc = cli_status(rc, &err);
			goto out;
		}
		xo.spec = &spec;
		xo.title = spec.title;
		xo.author = spec.author;
		xo.company = spec.organisation;
		xo.baseline = spec.baseline;
		xo.prices_path = spec.prices;
		xo.keep_bench = spec_keep;
		xo.keep_ctx = &spec;
	}
	if (prices)
		xo.prices_path = prices;
	if (eo->baseline)
		xo.baseline = eo->baseline;
	xo.suite = eo->q.suite;
	if ((rc = cli_need_db(ctx)) != AB_OK)
		goto out;
	if ((rc = cli_check_names(ctx, "export", eo->q.suite, NULL, NULL, NULL, NULL)) != AB_OK)
		goto out;
	compare_opts_init(&copts);
	copts.seed = (unsigned long)seed;
	copts.resamples = (size_t)resamples;
	copts.level = spec.level;   /* 0.95 unless the spec says otherwise */
	xo.copts = &copts;
	rc = xlsx_write(ctx->db, &xo, output, &err);
	if (rc == 0)
		printf("wrote %s\n", output);
	rc = cli_status(rc, &err);
out:
	report_spec_release(&spec);
	strbuf_release(&err);
	return rc;
}

int cmd_export(int argc, char **argv, struct ctx *ctx)
{
	struct export_opts eo = { 0 };
	const char *output = NULL, *format = NULL, *what = "runs", *prices = NULL, *spec_path = NULL;
	long seed = COMPARE_DEFAULT_SEED, resamples = COMPARE_DEFAULT_RESAMPLES;
	const struct opt opts[] = {
		{ 'o', "output", OPT_STRING, &output, "FILE",
		  "FILE.csv, FILE.json or FILE.xlsx, or - for stdout (required)" },
		{ 0, "format", OPT_STRING, &format, "F", "csv, json or xlsx (default: from FILE)" },
		{ 0, "prices", OPT_STRING, &prices, "FILE", "xlsx: prices file for the Cost sheet" },
		{ 0, "spec", OPT_STRING, &spec_path, "FILE",
		  "xlsx: a report spec (title, author, organisation, baseline, suites, systems, "
		  "benchmarks with metric and normalise, confidence_level, cost)" },
		{ 0, "what", OPT_STRING, &what, "W", "runs (default), stats, compare or scores" },
		{ 0, "suite", OPT_STRING, &eo.q.suite, "S", "only this suite" },
		{ 'b', "benchmark", OPT_STRING, &eo.q.benchmark, "B", "only this benchmark" },
		{ 0, "system", OPT_STRING, &eo.q.system, "S", "only this system" },
		{ 'm', "metric", OPT_STRING, &eo.q.metric, "M", "stats, compare: metric (default: headline)" },
		{ 0, "baseline", OPT_STRING, &eo.baseline, "SYS", "compare: the reference system" },
		{ 0, "seed", OPT_INT, &seed, "N", "compare: bootstrap seed (default 20240917)" },
		{ 0, "resamples", OPT_INT, &resamples, "N", "compare: bootstrap resamples (default 10000)" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT;
	struct compare_opts copts;
	int rc, f, w;

	if (cli_parse_options("export", opts, argc, argv, &rc))
		return rc;
	if (!output)
		return cli_error(AB_EUSAGE, "export: -o FILE is required (FILE.csv, FILE.json or -)");
	if (format) {
		f = !strcmp(format, "csv") ? EXPORT_CSV : !strcmp(format, "json") ? EXPORT_JSON :
		    !strcmp(format, "xlsx") ? EXPORT_XLSX : -1;
		if (f < 0)
			return cli_error(AB_EUSAGE, "export: unknown format '%s' (valid: csv, json, xlsx)",
					 format);
	} else if (!strcmp(output, "-")) {
		f = EXPORT_CSV;
	} else {
		f = export_format_from_path(output);
		if (f < 0)
			return cli_error(AB_EUSAGE, "export: cannot tell the format of '%s': name it "
					 "FILE.csv, FILE.json or FILE.xlsx, or give --format", output);
	}
	if (f == EXPORT_XLSX && !strcmp(output, "-"))
		return cli_error(AB_EUSAGE, "export: a workbook cannot go to standard output; name a file");
	if (f != EXPORT_XLSX && (prices || spec_path))
		return cli_error(AB_EUSAGE, "export: --prices and --spec are for the workbook (FILE.xlsx)");
	w = export_what_from_name(what);
	if (w < 0)
		return cli_error(AB_EUSAGE, "export: unknown --what '%s' (valid: runs, stats, compare, "
				 "scores)", what);
	if (seed < 0 || resamples < COMPARE_MIN_RESAMPLES)
		return cli_error(AB_EUSAGE, "export: --resamples must be at least %d",
				 COMPARE_MIN_RESAMPLES);
	if (f == EXPORT_XLSX)
		return export_workbook(ctx, output, prices, spec_path, &eo, seed, resamples);
	if (w == EXPORT_COMPARE && !eo.baseline)
		return cli_error(AB_EUSAGE, "export: --what compare needs --baseline SYS");
	if (seed < 0 || resamples < COMPARE_MIN_RESAMPLES)
		return cli_error(AB_EUSAGE, "export: --resamples must be at least %d",
				 COMPARE_MIN_RESAMPLES);
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	if ((rc = cli_check_names(ctx, "export", eo.q.suite, eo.q.benchmark, eo.q.system,
				  eo.q.metric, eo.baseline)) != AB_OK)
		return rc;
	compare_opts_init(&copts);
	copts.seed = (unsigned long)seed;
	copts.resamples = (size_t)resamples;
	eo.copts = &copts;
	eo.format = (enum export_format)f;
	eo.what = (enum export_what)w;
	rc = export_write(ctx->db, &eo, output, &err);
	if (rc == 0 && strcmp(output, "-"))
		printf("wrote %s\n", output);
	rc = cli_status(rc, &err);
	strbuf_release(&err);
	return rc;
}
