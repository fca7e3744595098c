/*
 * cmd_ingest.c - `accelbench ingest PATH...`: options and glue around
 * ingest_paths(); progress on a TTY, one summary line at the end.
 */
#include "core/compat.h"
#include "commands.h"
#include "ingest/ingest.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct ingest_ui {
	int verbose;
	int tty;
	int progress_shown;
	struct timespec last;
};

static void clear_progress(struct ingest_ui *ui)
{
	if (ui->progress_shown) {
		fputs("\r\033[K", stderr);
		ui->progress_shown = 0;
	}
}

/* stderr is a terminal more often than not: names are shown escaped */
static const char *shown(struct strbuf *tmp, const char *s)
{
	return s ? strbuf_shown(tmp, s) : "";
}

static void on_event(void *vctx, enum ingest_event ev, const char *path, const char *msg,
		     const struct ingest_totals *t)
{
	struct ingest_ui *ui = vctx;
	struct strbuf t1 = STRBUF_INIT, t2 = STRBUF_INIT;
	struct timespec now;

	switch (ev) {
	case INGEST_EV_REJECTED:
		clear_progress(ui);
		fprintf(stderr, "accelbench: %s\n", shown(&t1, msg));
		break;
	case INGEST_EV_WARNING:
		clear_progress(ui);
		fprintf(stderr, "accelbench: warning: %s\n", shown(&t1, msg));
		break;
	case INGEST_EV_INGESTED:
		if (ui->verbose) {
			clear_progress(ui);
			fprintf(stderr, "ingested %s: %s\n", shown(&t1, path), shown(&t2, msg));
		}
		break;
	case INGEST_EV_SKIPPED:
	case INGEST_EV_COMPANION:
	case INGEST_EV_UNKNOWN:
		if (ui->verbose) {
			clear_progress(ui);
			fprintf(stderr, "%s %s: %s\n",
				ev == INGEST_EV_SKIPPED ? "skipped" :
				ev == INGEST_EV_COMPANION ? "read with its table" : "ignored",
				shown(&t1, path), shown(&t2, msg));
		}
		break;
	case INGEST_EV_PROGRESS:
		if (!ui->tty)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ui->progress_shown && (now.tv_sec - ui->last.tv_sec) * 1000 +
						  (now.tv_nsec - ui->last.tv_nsec) / 1000000 < 100)
			break;
		ui->last = now;
		fprintf(stderr, "\r\033[K%ld files, %.1f/%.1f MB, %ld runs", t->files_seen,
			(double)t->bytes_done / 1e6, (double)t->bytes_total / 1e6, t->runs);
		ui->progress_shown = 1;
		break;
	}
	strbuf_release(&t1);
	strbuf_release(&t2);
}

int cmd_ingest(int argc, char **argv, struct ctx *ctx)
{
	const char *format = NULL, *perflog_format = NULL;
	int dry_run = 0, strict = 0, verbose = 0, replace = 0;
	const struct opt opts[] = {
		{ 0, "format", OPT_STRING, &format, "F", "force the input format (see 'ls formats')" },
		{ 0, "dry-run", OPT_FLAG, &dry_run, NULL, "parse and report, write nothing" },
		{ 0, "strict", OPT_FLAG, &strict, NULL, "stop at the first rejected file" },
		{ 0, "replace", OPT_FLAG, &replace, NULL,
		  "read sources ingested before again (their runs are replaced)" },
		{ 0, "perflog-format", OPT_STRING, &perflog_format, "FMT",
		  "ReFrame site perflog format string" },
		{ 'v', "verbose", OPT_FLAG, &verbose, NULL, "say what happened to every file" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct ingest_count_sink counter;
	struct ingest_totals totals;
	struct ingest_opts io = { 0 };
	struct ingest_ui ui = { 0 };
	struct strbuf err = STRBUF_INIT;
	const char **roots = NULL;
	struct ingest_sink *sink;
	size_t nroots = 0;
	int n, i, rc;

	n = cli_parse(cli_find("ingest"), opts, argc, argv);
	if (n == CLI_HELP)
		return AB_OK;
	if (n < 0)
		return AB_EUSAGE;
	if (n == 0)
		return cli_error(AB_EUSAGE, "ingest: no PATH given (see 'accelbench ingest -h')");
	if (format) {
		size_t k;
		for (k = 0; ingest_format_name(k); k++)
			if (!strcmp(ingest_format_name(k), format))
				break;
		if (!ingest_format_name(k)) {
			struct strbuf names = STRBUF_INIT;
			for (k = 0; ingest_format_name(k); k++)
				strbuf_addf(&names, "%s%s", k ? ", " : "", ingest_format_name(k));
			rc = cli_error(AB_EUSAGE, "ingest: unknown format '%s' (known: %s)", format,
				       names.buf);
			strbuf_release(&names);
			return rc;
		}
	}
	for (i = 0; i < n; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			roots = ab_realloc(roots, (nroots + 1) * sizeof(*roots));
			roots[nroots++] = argv[i];
		}
	}
	if (dry_run) {
		ingest_count_sink_init(&counter);
		sink = &counter.sink;
	} else {
		rc = db_open(&ctx->db, ctx->db_path, 0, &err);
		if (rc < 0) {
			free(roots);
			rc = cli_status(rc, &err);
			strbuf_release(&err);
			return rc;
		}
		sink = db_ingest_sink(ctx->db);
	}
	ui.verbose = verbose;
	ui.tty = isatty(STDERR_FILENO);
	io.flags = (strict ? INGEST_STRICT : 0) | (dry_run ? INGEST_DRY_RUN : 0) |
		   (replace ? INGEST_REPLACE : 0);
	io.format = format;
	io.roots = roots;
	io.nroots = nroots;
	io.perflog_format = perflog_format;
	io.notify = on_event;
	io.notify_ctx = &ui;
	rc = ingest_paths((const char *const *)argv, (size_t)n, &io, sink, &totals, &err);
	clear_progress(&ui);
	printf("%s%ld file%s ingested, %ld skipped as already ingested, %ld rejected",
	       dry_run ? "dry run: " : "", totals.ingested, totals.ingested == 1 ? "" : "s",
	       totals.skipped, totals.rejected);
	if (totals.companion)
		printf(", %ld read with their tables", totals.companion);
	if (totals.unknown)
		printf(", %ld not recognised", totals.unknown);
	printf("; %s %ld run%s, %ld metric%s", dry_run ? "found" : "added", totals.runs,
	       totals.runs == 1 ? "" : "s", totals.metrics, totals.metrics == 1 ? "" : "s");
	if (totals.power_samples)
		printf(", %ld power sample%s", totals.power_samples,
		       totals.power_samples == 1 ? "" : "s");
	if (totals.systems)
		printf(", %ld system%s described", totals.systems, totals.systems == 1 ? "" : "s");
	if (totals.duplicates)
		printf("; %ld duplicate run%s skipped", totals.duplicates,
		       totals.duplicates == 1 ? "" : "s");
	if (totals.replaced)
		printf("; %ld source%s replaced", totals.replaced, totals.replaced == 1 ? "" : "s");
	putchar('\n');
	free(roots);
	if (rc == -AB_EDATA) {
		/* every rejection was already reported with its position */
		strbuf_release(&err);
		return AB_EDATA;
	}
	rc = cli_status(rc, &err);
	strbuf_release(&err);
	return rc;
}
