/*
 * cmd_plot.c - `accelbench plot KIND -b BENCH -o FILE.{png,svg,pdf}`:
 * options and glue: views/ decides what the chart shows, plots/ draws it.
 */
#include "core/compat.h"
#include "commands.h"
#include "plots/plot.h"

int cmd_plot(int argc, char **argv, struct ctx *ctx)
{
	struct views_chart_opts fo = { 0 };
	struct opt_list systems = { 0 };
	const char *output = NULL;
	long width = 0, height = 0, run = 0;
	int by_nodes = 0, log_axis = 0, linear_axis = 0;
	double level = STATS_LEVEL;
	const struct opt opts[] = {
		{ 'b', "benchmark", OPT_STRING, &fo.benchmark, "B", "the benchmark" },
		{ 'm', "metric", OPT_STRING, &fo.metric, "M", "metric (default: the headline metric)" },
		{ 0, "suite", OPT_STRING, &fo.suite, "S", "only this suite" },
		{ 0, "system", OPT_LIST, &systems, "S", "only this system (repeatable)" },
		{ 0, "baseline", OPT_STRING, &fo.baseline, "SYS", "reference system (bar, heatmap)" },
		{ 0, "batch", OPT_INT, &fo.batch, "N", "only configurations with this global batch" },
		{ 0, "devices", OPT_INT, &fo.devices, "N", "only configurations with this many devices" },
		{ 0, "nodes", OPT_FLAG, &by_nodes, NULL, "devices chart: scale along nodes" },
		{ 0, "run", OPT_INT, &run, "ID", "power chart: this run (default: first with samples)" },
		{ 'o', "output", OPT_STRING, &output, "FILE", "FILE.png, FILE.svg or FILE.pdf (required)" },
		{ 0, "width", OPT_INT, &width, "W", "width in pixels (default 1600)" },
		{ 0, "height", OPT_INT, &height, "H", "height in pixels (default 1000)" },
		{ 0, "title", OPT_STRING, &fo.title, "T", "chart title" },
		{ 0, "top", OPT_INT, &fo.top, "N", "bar: only the best N systems" },
		{ 0, "log", OPT_FLAG, &log_axis, NULL, "bar: log value axis (default: when values span > 30x)" },
		{ 0, "linear", OPT_FLAG, &linear_axis, NULL, "bar: linear value axis" },
		{ 0, "per-device", OPT_FLAG, &fo.per_device, NULL,
		  "bar: the value per accelerator (a time: times accelerators)" },
		{ 0, "per-node", OPT_FLAG, &fo.per_node, NULL,
		  "bar: the value per node (a time: times nodes)" },
		{ 0, "level", OPT_DOUBLE, &level, "L",
		  "confidence level of the whiskers, in (0, 1) (default 0.95)" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT;
	struct plot_file_opts po = { 0 };
	struct views_chart *fig = NULL;
	int n, kind, rc;

	n = cli_parse(cli_find("plot"), opts, argc, argv);
	if (n == CLI_HELP)
		return AB_OK;
	if (n < 0)
		return AB_EUSAGE;
	if (n != 1 || (kind = views_chart_kind_parse(argv[0])) < 0) {
		struct strbuf kinds = STRBUF_INIT;
		views_chart_kind_list(&kinds, ", ", " or ");
		cli_free_list(&systems);
		rc = cli_error(AB_EUSAGE, "plot: say which chart: %s", kinds.buf);
		strbuf_release(&kinds);
		return rc;
	}
	if (log_axis && linear_axis) {
		cli_free_list(&systems);
		return cli_error(AB_EUSAGE, "plot: --log and --linear exclude each other");
	}
	if (fo.per_device && fo.per_node) {
		cli_free_list(&systems);
		return cli_error(AB_EUSAGE, "plot: --per-device and --per-node exclude each other");
	}
	if (!(level > 0 && level < 1)) {
		cli_free_list(&systems);
		return cli_error(AB_EUSAGE, "plot: --level must lie between 0 and 1 (exclusive), "
					    "e.g. 0.9, not %g", level);
	}
	fo.level = level;
	if (fo.top < 0) {
		cli_free_list(&systems);
		return cli_error(AB_EUSAGE, "plot: --top must be a positive number of systems");
	}
	fo.scale = log_axis ? PLOT_SCALE_LOG10 : linear_axis ? PLOT_SCALE_LINEAR : PLOT_SCALE_AUTO;
	if (!output) {
		cli_free_list(&systems);
		return cli_error(AB_EUSAGE, "plot: -o FILE.png|svg|pdf is required");
	}
	if (width < 0 || height < 0 || width > 20000 || height > 20000) {
		cli_free_list(&systems);
		return cli_error(AB_EUSAGE, "plot: --width and --height must be 1..20000 pixels");
	}
	rc = plot_format_from_path(output, &po.format, &err);
	if (rc < 0)
		goto out;
	if ((rc = cli_need_db(ctx)) != AB_OK) {
		cli_free_list(&systems);
		strbuf_release(&err);
		return rc;
	}
	fo.systems = systems.v;
	fo.nsystems = systems.n;
	fo.by_nodes = by_nodes;
	fo.run_id = run;
	if ((rc = cli_check_names(ctx, "plot", fo.suite, fo.benchmark, NULL, fo.metric, fo.baseline)) != AB_OK) {
		cli_free_list(&systems);
		strbuf_release(&err);
		return rc;
	}
	cli_note_invalid(ctx, fo.suite, fo.benchmark, NULL);
	rc = views_chart_build(ctx->db, (enum views_chart_kind)kind, &fo, &fig, &err);
	if (rc == -AB_EUSAGE) {
		/* the view says what is missing; the flags are the CLI's to name */
		size_t nk, i;
		const struct views_chart_kind_info *k = views_chart_kinds(&nk);
		for (i = 0; i < nk; i++)
			if ((int)k[i].kind == kind)
				strbuf_addstr(&err, k[i].needs & VIEWS_NEEDS_BENCHMARK ? " (-b BENCH)"
						    : k[i].needs & VIEWS_NEEDS_BASELINE
							    ? " (--baseline SYS)"
							    : " (-b BENCH or --baseline SYS)");
	}
	if (rc < 0)
		goto out;
	po.width = (int)width;
	po.height = (int)height;
	rc = plot_write_file(output, &po, views_chart_spec(fig), &err);
	if (rc == 0)
		printf("wrote %s\n", output);
out:
	views_chart_free(fig);
	cli_free_list(&systems);
	plot_shutdown();
	rc = cli_status(rc, &err);
	strbuf_release(&err);
	return rc;
}
