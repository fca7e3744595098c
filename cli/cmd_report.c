/*
 * cmd_report.c - `accelbench report -o report.pdf [--spec FILE]
 * [--prices FILE]`: the procurement report as a PDF (reports/report.h).
 * Options and glue only.
 */
#include "core/compat.h"
#include "commands.h"
#include "reports/report.h"

#include <time.h>

/* SOURCE_DATE_EPOCH when set (reproducible builds), else now. */
static int report_date(long long *out)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long v;

	if (!sde || !*sde) {
		*out = (long long)time(NULL);
		return 0;
	}
	errno = 0;
	v = strtoll(sde, &end, 10);
	if (errno || *end || v < 0 || v > 253402300799LL)
		return -1;
	*out = v;
	return 0;
}

int cmd_report(int argc, char **argv, struct ctx *ctx)
{
	const char *out = NULL, *spec_path = NULL, *prices = NULL;
	const struct opt opts[] = {
		{ 'o', "output", OPT_STRING, &out, "FILE", "the PDF to write (required)" },
		{ 0, "spec", OPT_STRING, &spec_path, "FILE", "report spec (JSON, see the man page)" },
		{ 0, "prices", OPT_STRING, &prices, "FILE",
		  "prices file for the cost tables (overrides the spec's)" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT;
	struct report_spec spec;
	struct report_opts ro;
	int rc;

	if (cli_parse_options("report", opts, argc, argv, &rc))
		return rc;
	if (!out)
		return cli_error(AB_EUSAGE, "report: -o FILE is required");
	memset(&ro, 0, sizeof(ro));
	if (report_date(&ro.now) < 0)
		return cli_error(AB_EUSAGE, "report: SOURCE_DATE_EPOCH '%s' is not a number of "
					    "seconds", getenv("SOURCE_DATE_EPOCH"));
	if (spec_path)
		rc = report_spec_load(spec_path, &spec, &err);
	else {
		report_spec_init(&spec);
		rc = 0;
	}
	if (rc < 0) {
		rc = cli_status(rc, &err);
		report_spec_release(&spec);
		strbuf_release(&err);
		return rc;
	}
	if (prices) {
		free(spec.prices);
		spec.prices = ab_strdup(prices);
	}
	if ((rc = cli_need_db(ctx)) != AB_OK) {
		report_spec_release(&spec);
		return rc;
	}
	ro.db_path = ctx->db_path;
	ro.version = AB_VERSION;
	rc = report_write_pdf(ctx->db, &spec, &ro, out, &err);
	if (rc == 0)
		printf("wrote %s\n", out);
	rc = cli_status(rc, &err);
	report_spec_release(&spec);
	strbuf_release(&err);
	return rc;
}
