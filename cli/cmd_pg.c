/*
 * cmd_pg.c - `accelbench pg init`: create or upgrade the central
 * PostgreSQL schema and its read-only dashboard role; and the connection
 * and progress glue that push and pull share.
 */
#include "core/compat.h"
#include "commands.h"
#include "model/pg.h"

#include <unistd.h>

#define PG_DEFAULT_READER "accelbench_reader"

const char *pg_cli_url(const char *opt)
{
	const char *env = getenv("ACCELBENCH_PG");

	if (opt && *opt)
		return opt;
	return env && *env ? env : NULL;
}

int pg_cli_connect(struct pg **pg, const char *url, const char *cmd)
{
	struct strbuf err = STRBUF_INIT;
	int rc;

	if (!url)
		return cli_error(AB_EUSAGE,
				 "%s: no PostgreSQL store given: use %s URL or set $ACCELBENCH_PG",
				 cmd, !strcmp(cmd, "pull") ? "--from" : !strcmp(cmd, "push") ? "--to" : "--url");
	rc = pg_connect(pg, url, &err);
	rc = cli_status(rc, &err);
	strbuf_release(&err);
	return rc;
}

/* One line on a terminal, rewritten in place; nothing elsewhere. */
void pg_cli_progress(void *ctx, const struct pg_totals *t, int final)
{
	const char *verb = ctx;

	if (!isatty(STDERR_FILENO))
		return;
	if (final) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r\033[K%s: %ld/%ld sources, %ld runs, %ld metrics, %.1f MB", verb,
		t->sources_done, t->sources_total, t->runs, t->metrics, (double)t->bytes / 1e6);
}

void pg_cli_warn(void *ctx, const char *msg)
{
	struct strbuf tmp = STRBUF_INIT;

	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	fprintf(stderr, "accelbench: warning: %s: %s\n", (const char *)ctx, strbuf_shown(&tmp, msg));
	strbuf_release(&tmp);
}

static void check_line(void *ctx, const char *what, long long n)
{
	(void)ctx;
	if (n)
		printf("FAILED: %lld %s\n", n, what);
	else
		printf("ok: no %s\n", what);
}

static int pg_check_cmd(struct pg *pg)
{
	struct strbuf err = STRBUF_INIT, label = STRBUF_INIT;
	long long problems = 0;
	int rc = pg_check(pg, check_line, NULL, &problems, &err);

	if (rc == 0) {
		pg_conn_label(pg, &label);
		if (problems)
			rc = ab_fail(&err, AB_EDATA, "the central store at %s is not consistent: "
						     "%lld row%s a reference",
				     label.buf, problems, problems == 1 ? " breaks" : "s break");
		else
			printf("the central store at %s is consistent\n", label.buf);
	}
	rc = cli_status(rc, &err);
	strbuf_release(&err);
	strbuf_release(&label);
	return rc;
}

int cmd_pg(int argc, char **argv, struct ctx *ctx)
{
	const char *url = NULL, *reader = PG_DEFAULT_READER;
	long version = 0;
	int no_reader = 0;
	const struct opt opts[] = {
		{ 0, "url", OPT_STRING, &url, "URL",
		  "libpq connection string or URI (default: $ACCELBENCH_PG)" },
		{ 0, "reader", OPT_STRING, &reader, "ROLE",
		  "read-only role for dashboards (default: " PG_DEFAULT_READER ")" },
		{ 0, "no-reader", OPT_FLAG, &no_reader, NULL, "do not create or grant a reader role" },
		{ 0, "schema-version", OPT_INT, &version, "N",
		  "init: create or upgrade only up to version N (a staged upgrade)" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, label = STRBUF_INIT;
	struct pg_init_opts io = { 0 };
	struct pg_init_result res;
	struct pg *pg = NULL;
	int n, rc;

	n = cli_parse(cli_find("pg"), opts, argc, argv);
	if (n == CLI_HELP)
		return AB_OK;
	if (n < 0)
		return AB_EUSAGE;
	if (n != 1 || (strcmp(argv[0], "init") && strcmp(argv[0], "check")))
		return cli_error(AB_EUSAGE,
				 "pg: give one action: init or check (see 'accelbench pg -h')");
	rc = pg_cli_connect(&pg, pg_cli_url(url), "pg");
	if (rc != AB_OK)
		return rc;
	if (!strcmp(argv[0], "check")) {
		rc = pg_check_cmd(pg);
		pg_free(pg);
		return rc;
	}
	if (version < 0 || version > pg_schema_latest()) {
		pg_free(pg);
		return cli_error(AB_EUSAGE, "pg: --schema-version: this accelbench knows versions 1 to %d",
				 pg_schema_latest());
	}
	io.reader_role = no_reader ? NULL : reader;
	io.schema_version = (int)version;
	rc = pg_init(pg, &io, &res, &err);
	if (rc == 0) {
		pg_conn_label(pg, &label);
		if (res.version_before == res.version_after)
			printf("central schema at %s is up to date (version %d)\n", label.buf,
			       res.version_after);
		else if (res.version_before == 0)
			printf("created the central schema at %s (version %d)\n", label.buf,
			       res.version_after);
		else
			printf("upgraded the central schema at %s from version %d to %d\n",
			       label.buf, res.version_before, res.version_after);
		if (io.reader_role)
			printf("%s role '%s': it may read the views in schema accelbench_dash "
			       "and nothing else\n",
			       res.reader_created ? "created" : "updated", io.reader_role);
	}
	rc = cli_status(rc, &err);
	pg_free(pg);
	strbuf_release(&err);
	strbuf_release(&label);
	return rc;
}
