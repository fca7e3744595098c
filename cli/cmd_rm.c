/*
 * cmd_rm.c - `accelbench rm source ID|PATH...`: remove ingested sources
 * with everything derived from them, in one transaction.
 */
#include "core/compat.h"
#include "commands.h"

static void count(struct strbuf *sb, long n, const char *what)
{
	strbuf_addf(sb, ", %ld %s%s", n, what, n == 1 ? "" : "s");
}

int cmd_rm(int argc, char **argv, struct ctx *ctx)
{
	struct strbuf err = STRBUF_INIT, msg = STRBUF_INIT;
	struct db_rm_counts c;
	int n, rc;

	n = cli_parse(cli_find("rm"), NULL, argc, argv);
	if (n == CLI_HELP)
		return AB_OK;
	if (n < 0)
		return AB_EUSAGE;
	if (n == 0)
		return cli_error(AB_EUSAGE, "rm: say what to remove: 'rm source ID|PATH...'");
	if (strcmp(argv[0], "source") && strcmp(argv[0], "sources"))
		return cli_error(AB_EUSAGE, "rm: cannot remove '%s' (only 'source ID|PATH...')",
				 argv[0]);
	if (n == 1)
		return cli_error(AB_EUSAGE, "rm source: give a source id or path "
					    "(see 'accelbench ls sources')");
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	rc = db_rm_sources(ctx->db, (const char *const *)argv + 1, (size_t)n - 1, &c, &err);
	if (rc < 0) {
		rc = cli_status(rc, &err);
		strbuf_release(&err);
		return rc;
	}
	strbuf_addf(&msg, "removed %ld source%s", c.sources, c.sources == 1 ? "" : "s");
	count(&msg, c.runs, "run");
	count(&msg, c.metrics, "metric");
	if (c.power_samples)
		count(&msg, c.power_samples, "power sample");
	if (c.systems)
		count(&msg, c.systems, "system");
	if (c.benchmarks)
		count(&msg, c.benchmarks, "benchmark");
	printf("%s\n", msg.buf);
	strbuf_release(&msg);
	strbuf_release(&err);
	return AB_OK;
}
