/*
 * names.c - a name on the command line that matches nothing (benchmark,
 * system, metric, baseline) is a usage error that lists the valid names,
 * instead of an empty table or a row of "no values" (exit 1, as data that
 * matches nothing).
 */
#include "core/compat.h"
#include "cli.h"

static int check(struct ctx *ctx, const char *cmd, enum db_name_kind kind, const char *what,
		 const struct db_filter *f, const char *name, int *rc)
{
	struct strbuf err = STRBUF_INIT, valid = STRBUF_INIT;
	bool found = false;
	int st;

	if (!name || *rc != AB_OK)
		return 0;
	st = db_name_check(ctx->db, kind, f, name, &found, &valid, &err);
	if (st < 0)
		*rc = cli_status(st, &err);
	else if (!found)
		*rc = cli_error(AB_EDATA, "%s: no %s '%s'%s%s%s; valid: %s", cmd, what, name,
				f && (f->benchmark || f->suite) ? " in " : "",
				f && f->benchmark ? f->benchmark : f && f->suite ? f->suite : "",
				f && f->system && kind == DB_NAME_METRIC ? " on that system" : "",
				valid.len ? valid.buf : "(none)");
	strbuf_release(&err);
	strbuf_release(&valid);
	return *rc != AB_OK;
}

int cli_check_names(struct ctx *ctx, const char *cmd, const char *suite, const char *benchmark,
		    const char *system, const char *metric, const char *baseline)
{
	struct db_filter f = { suite, NULL, NULL };
	int rc = AB_OK;

	if (!ctx->db)
		return AB_OK;
	if (check(ctx, cmd, DB_NAME_BENCHMARK, "benchmark", &f, benchmark, &rc))
		return rc;
	f.benchmark = benchmark;
	if (check(ctx, cmd, DB_NAME_SYSTEM, "system", &f, system, &rc))
		return rc;
	if (check(ctx, cmd, DB_NAME_SYSTEM, "baseline system", &f, baseline, &rc))
		return rc;
	f.system = system;
	check(ctx, cmd, DB_NAME_METRIC, "metric", &f, metric, &rc);
	return rc;
}
