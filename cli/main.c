/*
 * main.c - the command table and the dispatcher.
 *
 * Global options come before the command: --db PATH, --version, -h.
 * The dispatcher opens the database once, as the command's flags ask,
 * and closes it after the command returns.
 */
#include "core/compat.h"
#include "commands.h"

#include <gsl/gsl_errno.h>
#include <locale.h>

const struct cmd cli_commands[] = {
	{ "ingest", cmd_ingest, NO_DB, "[--format F] [--dry-run] [--strict] [--replace] [--perflog-format FMT] [-v] PATH...",
	  "Ingest result files and directories into the database." },
	{ "ls", cmd_ls, NEED_DB_READ,
	  "systems|benchmarks|runs|sources|formats [--suite S] [-b B] [--system S] [--json|--csv]",
	  "List what the database holds." },
	{ "sql", cmd_sql, NEED_DB_READ, "[--csv|--json] [--limit N] [--timeout S] \"SELECT ...\"",
	  "Run one read-only SQL statement on the database." },
	{ "stats", cmd_stats, NEED_DB_READ,
	  "[--suite S] [-b B] [--system S] [-m M] [--by config] [--per system|device|node] [--json|--csv]",
	  "Per-configuration statistics: median, 95% CI, spread, outliers." },
	{ "compare", cmd_compare, NEED_DB_READ,
	  "[-b B] --baseline SYS [-m M] [--suite S] [--best] [--seed N] [--resamples N] [--per system|device|node] [--json|--csv]",
	  "Ratios to a baseline system with bootstrap CIs, significance and verdicts." },
	{ "scaling", cmd_scaling, NEED_DB_READ,
	  "-b B [--by batch|devices|nodes] [--system S] [-m M] [--suite S] [--json|--csv]",
	  "Batch-size saturation fits, device and node scaling." },
	{ "pareto", cmd_pareto, NEED_DB_READ, "-b B [-x M] [-y M] [--suite S] [--json|--csv]",
	  "Throughput against energy efficiency: the Pareto front." },
	{ "plot", cmd_plot, NEED_DB_READ,
	  "bar|bargroup|scaling|devices|pareto|heatmap|power [-b B] [-m M] [--suite S] [--system S]... [--baseline SYS] [--batch N] [--devices N] [--nodes] [--run ID] -o FILE [--width W] [--height H] [--title T] [--top N] [--log|--linear] [--per-device]",
	  "Draw a chart (PNG, SVG or PDF)." },
	{ "cost", cmd_cost, NEED_DB_READ,
	  "-b B --prices FILE [--suite S] [--system S] [--batch N] [--devices N] [--json|--csv]",
	  "Cost per million units of work, TCO and price sensitivity." },
	{ "push", cmd_push, NEED_DB_READ, "[--to URL]",
	  "Send the local sources a central PostgreSQL store lacks." },
	{ "pull", cmd_pull, NEED_DB_WRITE,
	  "[--from URL] [--suite S] [-b B] [--system S] [--since DATE]",
	  "Bring a central PostgreSQL store's data into the local database." },
	{ "pg", cmd_pg, NO_DB, "init|check [--url URL] [--reader ROLE] [--no-reader] [--schema-version N]",
	  "Create or upgrade the central PostgreSQL schema and its reader role; check it." },
	{ "rm", cmd_rm, NEED_DB_WRITE, "source ID|PATH...",
	  "Remove ingested sources with their runs and metrics." },
	{ "report", cmd_report, NEED_DB_READ, "-o FILE [--spec FILE] [--prices FILE]",
	  "Write the procurement report (PDF)." },
	{ "run", cmd_run, NO_DB, "jube|reframe|mlperf|exec [OPTIONS] ... [-- CMD...]",
	  "Run a suite (JUBE, ReFrame, MLPerf, any command), locally or via Slurm; ingest." },
	{ "export", cmd_export, NEED_DB_READ, "-o FILE [--what runs|stats|compare|scores] [--format csv|json|xlsx] [--suite S] [-b B] [--system S] [-m M] [--baseline SYS] [--seed N] [--resamples N] [--prices FILE] [--spec FILE]",
	  "Export runs, statistics, comparisons or MLPerf scores (CSV, JSON), or the XLSX workbook." },
	/* COMMAND-ENTRIES */
	{ "demo", cmd_demo, NO_DB, "[-o DIR] [--seed N] [--repeats N] [--suite S]",
	  "Generate an example campaign, ingest it and show what it holds." },
	{ "help", cmd_help, NO_DB, "[COMMAND]", "Show help for accelbench or one command." },
	{ "version", cmd_version, NO_DB, "", "Print the version." },
	{ NULL, NULL, 0, NULL, NULL }
};

const struct cmd *cli_find(const char *name)
{
	const struct cmd *c;

	for (c = cli_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void main_usage(FILE *fp)
{
	const struct cmd *c;

	fputs("usage: accelbench [--db PATH] [--version] [-h] COMMAND [ARGS]\n\n"
	      "Turn ML accelerator benchmark results (CARAML/JUBE/jpwr, MLPerf, ReFrame)\n"
	      "into statistics, charts and procurement reports.\n\ncommands:\n",
	      fp);
	for (c = cli_commands; c->name; c++)
		fprintf(fp, "  %-10s %s\n", c->name, c->summary);
	fputs("\nThe database is --db PATH, else $ACCELBENCH_DB, else ./accelbench.db.\n"
	      "'accelbench help COMMAND' or 'accelbench COMMAND -h' shows a command's options.\n"
	      "Exit codes: 0 ok, 1 data rejected, 2 usage, 3 I/O, 4 internal error.\n",
	      fp);
}

int cmd_version(int argc, char **argv, struct ctx *ctx)
{
	static const struct cmd self = { "version", NULL, 0, "", "Print the version." };
	int n = cli_parse(&self, NULL, argc, argv);

	if (n == CLI_HELP)
		return AB_OK;
	if (n < 0)
		return AB_EUSAGE;
	printf("accelbench %s (sqlite %s, jansson %s)\n", AB_VERSION, sqlite3_libversion(),
	       JANSSON_VERSION);
	return AB_OK;
}

int cmd_help(int argc, char **argv, struct ctx *ctx)
{
	const struct cmd *c;
	char *args[3];

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		if (argc >= 2) {
			fputs("usage: accelbench help [COMMAND]\n\nShow help for accelbench or one "
			      "command.\n", stdout);
			return AB_OK;
		}
		main_usage(stdout);
		return AB_OK;
	}
	c = cli_find(argv[1]);
	if (!c)
		return cli_error(AB_EUSAGE, "help: no such command '%s'", argv[1]);
	/* every command prints its own usage, from its own option table, on -h */
	args[0] = (char *)c->name;
	args[1] = (char *)"-h";
	args[2] = NULL;
	return c->fn(2, args, ctx);
}

int cli_need_db(struct ctx *ctx)
{
	struct strbuf err = STRBUF_INIT;
	int rc;

	if (ctx->db)
		return AB_OK;
	rc = db_open(&ctx->db, ctx->db_path, (ctx->cmd_flags & NEED_DB_WRITE) ? 0 : DB_READONLY,
		     &err);
	if (rc == 0 && db_is_immutable(ctx->db))
		fprintf(stderr, "accelbench: note: '%s' cannot be read in place (read-only location);"
			" reading it as an immutable snapshot\n", ctx->db_path);
	rc = cli_status(rc, &err);
	strbuf_release(&err);
	return rc;
}

int main(int argc, char **argv)
{
	struct ctx ctx = { 0 };
	struct strbuf err = STRBUF_INIT;
	const struct cmd *c;
	int i = 1, rc;

	/* numbers are always formatted the C way; text may be UTF-8 */
	setlocale(LC_ALL, "C");
	/* GSL's default handler aborts; model/ checks every GSL status itself */
	gsl_set_error_handler_off();
	ctx.argv0 = argv[0];
	ctx.db_path = getenv("ACCELBENCH_DB");
	while (i < argc && argv[i][0] == '-') {
		const char *a = argv[i];
		if (!strcmp(a, "--db") && i + 1 < argc) {
			ctx.db_path = argv[i + 1];
			i += 2;
		} else if (!strncmp(a, "--db=", 5)) {
			ctx.db_path = a + 5;
			i++;
		} else if (!strcmp(a, "--version")) {
			return cmd_version(1, argv, &ctx);
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			main_usage(stdout);
			return AB_OK;
		} else {
			return cli_error(AB_EUSAGE, "unknown option '%s' (see 'accelbench -h')", a);
		}
	}
	ctx.db_explicit = ctx.db_path && *ctx.db_path;
	if (!ctx.db_explicit)
		ctx.db_path = "accelbench.db";
	if (i >= argc) {
		main_usage(stderr);
		return AB_EUSAGE;
	}
	c = cli_find(argv[i]);
	if (!c)
		return cli_error(AB_EUSAGE, "'%s' is not a command (see 'accelbench -h')", argv[i]);
	ctx.cmd_flags = c->flags;
	rc = c->fn(argc - i, argv + i, &ctx);
	db_free(ctx.db);
	strbuf_release(&err);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "accelbench: cannot write to standard output\n");
		return AB_EIO;
	}
	return rc;
}
