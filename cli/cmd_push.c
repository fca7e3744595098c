/*
 * cmd_push.c - `accelbench push [--to URL]`: send every local source the
 * central PostgreSQL store lacks (model/pg_push.c); progress on a TTY,
 * one summary line at the end.
 */
#include "core/compat.h"
#include "commands.h"
#include "model/pg.h"

int cmd_push(int argc, char **argv, struct ctx *ctx)
{
	const char *url = NULL;
	const struct opt opts[] = {
		{ 0, "to", OPT_STRING, &url, "URL",
		  "libpq connection string or URI (default: $ACCELBENCH_PG)" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct pg_progress prog = { pg_cli_progress, (void *)"push", pg_cli_warn };
	struct strbuf err = STRBUF_INIT, label = STRBUF_INIT;
	struct pg_totals t;
	struct pg *pg = NULL;
	int rc;

	if (cli_parse_options("push", opts, argc, argv, &rc))
		return rc;
	rc = pg_cli_connect(&pg, pg_cli_url(url), "push");
	if (rc != AB_OK)
		return rc;
	if ((rc = cli_need_db(ctx)) != AB_OK) {
		pg_free(pg);
		return rc;
	}
	rc = pg_push(pg, ctx->db, &prog, &t, &err);
	pg_conn_label(pg, &label);
	printf("pushed %ld source%s to %s (%ld already there); added %ld run%s, %ld metric%s",
	       t.sources_sent, t.sources_sent == 1 ? "" : "s", label.buf, t.sources_present,
	       t.runs, t.runs == 1 ? "" : "s", t.metrics, t.metrics == 1 ? "" : "s");
	if (t.power_samples)
		printf(", %ld power sample%s", t.power_samples, t.power_samples == 1 ? "" : "s");
	if (t.runs_deduped)
		printf("; %ld run%s already there through another source", t.runs_deduped,
		       t.runs_deduped == 1 ? "" : "s");
	putchar('\n');
	rc = cli_status(rc, &err);
	pg_free(pg);
	strbuf_release(&err);
	strbuf_release(&label);
	return rc;
}
