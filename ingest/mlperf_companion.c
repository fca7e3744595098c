/*
 * mlperf_companion.c - files of an MLPerf submission tree that are read
 * by the result parsers, not ingested on their own: system descriptions
 * (systems/<system>.json), scaling.json, training power logs (power/result_N/
 * node_*.txt, sw_*.txt), inference spl.txt, a summary that has a detail
 * log next to it, and LoadGen logs of accuracy, compliance and power
 * ranging runs.  A directory walk reports them as companions; given
 * explicitly they are refused with a hint, except a summary, which is
 * then parsed (the run's dedupe key keeps it from counting twice).
 */
#include "core/compat.h"
#include "mlperf_priv.h"

enum kind { K_NONE, K_SYSTEM, K_SCALING, K_POWER, K_SPL, K_SUMMARY, K_ASIDE };

static enum kind kind_of(const char *path, const unsigned char *head, size_t len)
{
	const char *base = ingest_basename(path);

	if (!strcmp(base, "scaling.json") && mlperf_memmem(head, len, "scaling_factor", 14))
		return K_SCALING;
	if (ingest_ends_with(base, ".json") && strstr(path, "/systems/") &&
	    mlperf_memmem(head, len, "\"system_name\"", 13) &&
	    mlperf_memmem(head, len, "\"accelerator", 12))
		return K_SYSTEM;
	if (strstr(path, "/power/") && ingest_ends_with(base, ".txt") &&
	    (!strncmp(base, "node_", 5) || !strncmp(base, "sw_", 3)) &&
	    mlperf_memmem(head, len, MLLOG_TOKEN, MLLOG_TOKEN_LEN))
		return K_POWER;
	if (!strcmp(base, "spl.txt") && len >= 5 && !memcmp(head, "Time,", 5))
		return K_SPL;
	if (!strcmp(base, "mlperf_log_detail.txt") || !strcmp(base, "mlperf_log_summary.txt")) {
		if (mlperf_infer_aside(path))
			return K_ASIDE;
		if (!strcmp(base, "mlperf_log_summary.txt") && mlperf_summary_has_detail(path))
			return K_SUMMARY;
	}
	return K_NONE;
}

/* The path of a training power log (K_POWER without looking inside):
 * formats.c's ingest_maybe_companion. */
int mlperf_companion_by_path(const char *path)
{
	const char *base = ingest_basename(path);

	return strstr(path, "/power/") && ingest_ends_with(base, ".txt") &&
	       (!strncmp(base, "node_", 5) || !strncmp(base, "sw_", 3));
}

static int detect_companion(const char *path, const unsigned char *head, size_t len)
{
	return kind_of(path, head, len) != K_NONE ? 96 : 0;
}

static int parse_companion(struct ingest_file *f, struct strbuf *err)
{
	static const char *const what[] = {
		[K_NONE] = "not an MLPerf companion file",
		[K_SYSTEM] = "a system description, read with the results of its system",
		[K_SCALING] = "a scaling factor, read with the results next to it",
		[K_POWER] = "a power log, read with its result_N.txt",
		[K_SPL] = "a power log, read with the mlperf_log_detail.txt next to it",
		[K_SUMMARY] = "",
		[K_ASIDE] = ("the log of an accuracy, compliance or ranging run, not a "
			     "performance result"),
	};
	enum kind k = kind_of(f->path, f->head, f->head_len);

	if (k == K_SUMMARY)
		return mlperf_parse_summary(f, err);
	return ingest_fail_at(f, err, 0, "%s; ingest the result file or its directory", what[k]);
}

const struct ingest_format ingest_fmt_mlperf_companion = {
	"mlperf-companion", FMT_COMPANION | FMT_NAME_HINT, detect_companion, parse_companion
};
