/*
 * cmd_export.c - `accelbench export -o FILE`: runs, statistics, comparisons
 * or MLPerf scores as RFC 4180 CSV or as JSON with the fields of --json
 * (reports/export.c); the format comes from the file's extension or
 * --format ("-o -" writes to stdout).  Prints the path it wrote.
 */
#include "core/compat.h"
#include "commands.h"
#include "reports/export.h"

int cmd_export(int argc, char **argv, struct ctx *ctx)
{
	struct export_opts eo = { 0 };
	const char *output = NULL, *format = NULL, *what = "runs";
	long seed = COMPARE_DEFAULT_SEED, resamples = COMPARE_DEFAULT_RESAMPLES;
	const struct opt opts[] = {
		{ 'o', "output", OPT_STRING, &output, "FILE",
		  "FILE.csv or FILE.json, or - for stdout (required)" },
		{ 0, "format", OPT_STRING, &format, "F", "csv or json (default: from FILE)" },
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
		f = !strcmp(format, "csv") ? EXPORT_CSV : !strcmp(format, "json") ? EXPORT_JSON : -1;
		if (f < 0)
			return cli_error(AB_EUSAGE, "export: unknown format '%s' (valid: csv, json)",
					 format);
	} else if (!strcmp(output, "-")) {
		f = EXPORT_CSV;
	} else {
		f = export_format_from_path(output);
		if (f < 0 || f == EXPORT_XLSX)
			return cli_error(AB_EUSAGE, "export: cannot tell the format of '%s': name it "
					 "FILE.csv or FILE.json, or give --format", output);
	}
	w = export_what_from_name(what);
	if (w < 0)
		return cli_error(AB_EUSAGE, "export: unknown --what '%s' (valid: runs, stats, compare, "
				 "scores)", what);
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
