/*
 * formats.c - the table of input formats and content-based detection.
 *
 * Each format family adds its entries in its own block below.  Detection
 * asks every format to score the file's first bytes; the highest score
 * wins, ties go to the earlier entry.
 */
#include "core/compat.h"
#include "ingest_priv.h"

/* systems_file.c */
extern const struct ingest_format ingest_fmt_systems_file;
/* caraml.c, jpwr.c */
extern const struct ingest_format ingest_fmt_jube_table;
extern const struct ingest_format ingest_fmt_jpwr_combined;
extern const struct ingest_format ingest_fmt_jpwr_energy;
extern const struct ingest_format ingest_fmt_jpwr_power;
/* CARAML-FORMATS */
/* mlperf_train.c, mlperf_infer.c, mlperf_companion.c */
extern const struct ingest_format ingest_fmt_mlperf_training;
extern const struct ingest_format ingest_fmt_mlperf_inference;
extern const struct ingest_format ingest_fmt_mlperf_inference_summary;
extern const struct ingest_format ingest_fmt_mlperf_companion;
int mlperf_companion_by_path(const char *path);
/* MLPERF-FORMATS */
/* reframe_perflog.c, reframe_report.c, reframe_db.c */
extern const struct ingest_format ingest_fmt_reframe_perflog;
extern const struct ingest_format ingest_fmt_reframe_perf_out;
extern const struct ingest_format ingest_fmt_reframe_report;
extern const struct ingest_format ingest_fmt_reframe_db;
/* REFRAME-FORMATS */
/* abrun.c: run.json of runners/ */
extern const struct ingest_format ingest_fmt_abrun;

const struct ingest_format *const ingest_formats[] = {
	&ingest_fmt_systems_file,
	&ingest_fmt_jube_table,
	&ingest_fmt_jpwr_combined,
	&ingest_fmt_jpwr_energy,
	&ingest_fmt_jpwr_power,
	/* CARAML-ENTRIES */
	&ingest_fmt_mlperf_training,
	&ingest_fmt_mlperf_inference,
	&ingest_fmt_mlperf_inference_summary,
	&ingest_fmt_mlperf_companion,
	/* MLPERF-ENTRIES */
	&ingest_fmt_reframe_perflog,
	&ingest_fmt_reframe_perf_out,
	&ingest_fmt_reframe_report,
	&ingest_fmt_reframe_db,
	/* REFRAME-ENTRIES */
	&ingest_fmt_abrun,
	NULL
};

const struct ingest_format *ingest_format_find(const char *name)
{
	size_t i;

	for (i = 0; ingest_formats[i]; i++)
		if (!strcmp(ingest_formats[i]->name, name))
			return ingest_formats[i];
	return NULL;
}

const struct ingest_format *ingest_detect(const char *path, const unsigned char *head,
					  size_t len, int *score)
{
	const struct ingest_format *best = NULL;
	size_t i;
	int binary;

	*score = 0;
	/* empty or binary-looking: only formats that want such files are asked */
	binary = !len || ingest_looks_binary(head, len);
	for (i = 0; ingest_formats[i]; i++) {
		int s;

		if (binary && !(ingest_formats[i]->flags & FMT_BINARY_OK))
			continue;
		s = ingest_formats[i]->detect(path, head, len);
		if (s > *score) {
			*score = s;
			best = ingest_formats[i];
		}
	}
	return best;
}

int ingest_maybe_companion(const char *path)
{
	return mlperf_companion_by_path(path);
}

const char *ingest_format_name(size_t i)
{
	size_t k;

	for (k = 0; k < i && ingest_formats[k]; k++)
		;
	return ingest_formats[k] ? ingest_formats[k]->name : NULL;
}
