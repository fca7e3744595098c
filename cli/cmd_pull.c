/*
 * cmd_pull.c - `accelbench pull [--from URL] [filters]`: bring the central
 * PostgreSQL store's data (or the sources holding matching runs) into the
 * local database (model/pg_pull.c), so every command works offline.
 */
#include "core/compat.h"
#include "commands.h"
#include "model/pg.h"

/* YYYY-MM-DD, optionally followed by a time: compared as ISO 8601 text */
static int valid_date(const char *s)
{
	static const char pat[] = "dddd-dd-dd";
	size_t i;

	for (i = 0; pat[i]; i++)
		if (pat[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != pat[i])
			return 0;
	return s[i] == '\0' || s[i] == 'T';
}

int cmd_pull(int argc, char **argv, struct ctx *ctx)
{
	const char *url = NULL;
	struct pg_filter f = { 0 };
	const struct opt opts[] = {
		{ 0, "from", OPT_STRING, &url, "URL",
		  "libpq connection string or URI (default: $ACCELBENCH_PG)" },
		{ 0, "suite", OPT_STRING, &f.suite, "S", "only sources with runs of this suite" },
		{ 'b', "benchmark", OPT_STRING, &f.benchmark, "B",
		  "only sources with runs of this benchmark" },
		{ 0, "system", OPT_STRING, &f.system, "S", "only sources with runs on this system" },
		{ 0, "since", OPT_STRING, &f.since, "DATE",
		  "only sources with runs started on or after DATE (YYYY-MM-DD)" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct pg_progress prog = { pg_cli_progress, (void *)"pull", pg_cli_warn };
	struct strbuf err = STRBUF_INIT, label = STRBUF_INIT;
	struct pg_totals t;
	struct pg *pg = NULL;
	int rc;

	if (cli_parse_options("pull", opts, argc, argv, &rc))
		return rc;
	if (f.since && !valid_date(f.since))
		return cli_error(AB_EUSAGE, "pull: --since wants a date YYYY-MM-DD, not '%s'",
				 f.since);
	rc = pg_cli_connect(&pg, pg_cli_url(url), "pull");
	if (rc != AB_OK)
		return rc;
	if ((rc = cli_need_db(ctx)) != AB_OK) {
		pg_free(pg);
		return rc;
	}
	rc = pg_pull(pg, ctx->db, &f, &prog, &t, &err);
	pg_conn_label(pg, &label);
	printf("pulled %ld source%s from %s into %s (%ld already there); added %ld run%s, "
	       "%ld metric%s",
	       t.sources_sent, t.sources_sent == 1 ? "" : "s", label.buf, db_path(ctx->db),
	       t.sources_present, t.runs, t.runs == 1 ? "" : "s", t.metrics,
	       t.metrics == 1 ? "" : "s");
	if (t.power_samples)
		printf(", %ld power sample%s", t.power_samples, t.power_samples == 1 ? "" : "s");
	if (t.systems)
		printf(", %ld system%s described", t.systems, t.systems == 1 ? "" : "s");
	if (t.runs_deduped)
		printf("; %ld duplicate run%s skipped", t.runs_deduped,
		       t.runs_deduped == 1 ? "" : "s");
	putchar('\n');
	rc = cli_status(rc, &err);
	pg_free(pg);
	strbuf_release(&err);
	strbuf_release(&label);
	return rc;
}
