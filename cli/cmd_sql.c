/*
 * cmd_sql.c - `accelbench sql "SELECT ..."`: one read-only statement on a
 * database opened read-only; aligned text or CSV.
 */
#include "core/compat.h"
#include "commands.h"

int cmd_sql(int argc, char **argv, struct ctx *ctx)
{
	int csv = 0;
	const struct opt opts[] = {
		{ 0, "csv", OPT_FLAG, &csv, NULL, "print CSV instead of an aligned table" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct table *t;
	int n, rc;

	n = cli_parse(cli_find("sql"), opts, argc, argv);
	if (n == CLI_HELP)
		return AB_OK;
	if (n < 0)
		return AB_EUSAGE;
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	if (n != 1)
		return cli_error(AB_EUSAGE, "sql: give exactly one statement, quoted");
	rc = db_query_table(ctx->db, argv[0], &t, &err);
	if (rc < 0) {
		rc = cli_status(rc, &err);
		strbuf_release(&err);
		return rc;
	}
	if (csv)
		table_render_csv(t, &out);
	else
		table_render_text(t, &out);
	table_free(t);
	rc = cli_output(NULL, &out);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}
