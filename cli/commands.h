/*
 * commands.h - one entry point per subcommand (cli/cmd_*.c).
 */
#ifndef AB_COMMANDS_H
#define AB_COMMANDS_H

#include "cli.h"

int cmd_help(int argc, char **argv, struct ctx *ctx);
int cmd_ingest(int argc, char **argv, struct ctx *ctx);
int cmd_ls(int argc, char **argv, struct ctx *ctx);
int cmd_sql(int argc, char **argv, struct ctx *ctx);
int cmd_version(int argc, char **argv, struct ctx *ctx);
int cmd_demo(int argc, char **argv, struct ctx *ctx);
int cmd_stats(int argc, char **argv, struct ctx *ctx);
int cmd_compare(int argc, char **argv, struct ctx *ctx);
int cmd_scaling(int argc, char **argv, struct ctx *ctx);
int cmd_pareto(int argc, char **argv, struct ctx *ctx);
/* stats_mlperf.c: MLPerf training official scores (stats --suite mlperf-training) */
int stats_mlperf_print(struct ctx *ctx, const struct db_filter *f, int json, int csv);
int cmd_plot(int argc, char **argv, struct ctx *ctx);
int cmd_cost(int argc, char **argv, struct ctx *ctx);
int cmd_export(int argc, char **argv, struct ctx *ctx);
/* cmd_pg.c, cmd_push.c, cmd_pull.c: the central PostgreSQL store (model/pg.h) */
struct pg;
struct pg_totals;
int cmd_pg(int argc, char **argv, struct ctx *ctx);
int cmd_push(int argc, char **argv, struct ctx *ctx);
int cmd_pull(int argc, char **argv, struct ctx *ctx);
const char *pg_cli_url(const char *opt);
int pg_cli_connect(struct pg **pg, const char *url, const char *cmd);
void pg_cli_progress(void *ctx, const struct pg_totals *t, int final);
void pg_cli_warn(void *ctx, const char *msg);
int cmd_rm(int argc, char **argv, struct ctx *ctx);
int cmd_report(int argc, char **argv, struct ctx *ctx);
int cmd_run(int argc, char **argv, struct ctx *ctx);
/* COMMAND-DECLS */

#endif
