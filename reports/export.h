/*
 * export.h - `accelbench export`: the data of a database as a file for other
 * tools: RFC 4180 CSV, JSON with exactly the fields of the matching --json
 * output, or the managers' XLSX workbook (xlsx.c).
 *
 * What is exported:
 *   runs     every run (JSON: the objects of `ls runs --json`; CSV: one row
 *            per run and metric, with the source's sha256), streamed from
 *            one prepared statement;
 *   stats    the views/ statistics table (`stats --json`);
 *   compare  the views/ comparison table and composites (`compare --json`);
 *   scores   MLPerf training official scores (`stats --suite
 *            mlperf-training --json`).
 *
 * CSV: a header row, comma-separated, CRLF line ends, UTF-8 (invalid bytes
 * become U+FFFD), fields quoted when they hold a comma, quote, CR or LF;
 * a text cell that starts with = + - @ TAB or CR gets a leading apostrophe
 * so spreadsheets never run it as a formula (numbers are written raw).
 *
 * Ownership: options and names are borrowed for the call.  Files are
 * written atomically ("-" = stdout).  Errors are values (0 or -AB_E*, the
 * message in err); messages name data, not command-line flags.
 */
#ifndef AB_EXPORT_H
#define AB_EXPORT_H

#include "core/core.h"
#include "model/db.h"
#include "views/views.h"
#include "reports/report.h"

enum export_format { EXPORT_CSV, EXPORT_JSON, EXPORT_XLSX };
enum export_what { EXPORT_RUNS, EXPORT_STATS, EXPORT_COMPARE, EXPORT_SCORES };

struct export_opts {
	enum export_format format;
	enum export_what what;
	struct db_config_query q;   /* suite, benchmark, system, metric */
	const char *baseline;       /* compare: the reference system */
	const struct compare_opts *copts; /* compare: seed, resamples; NULL: defaults */
};

/* "csv", "json", "xlsx" from a path's extension; -1 when none fits. */
int export_format_from_path(const char *path);
/* "runs", "stats", "compare", "scores"; -1 when none fits. */
int export_what_from_name(const char *name);

/* Write the CSV or JSON export to path ("-": stdout), atomically. */
int export_write(struct db *db, const struct export_opts *o, const char *path,
		 struct strbuf *err);

/* ---- the workbook (xlsx.c) ---------------------------------------------- */

struct xlsx_opts {
	const char *suite;          /* only this suite (NULL: all) */
	const char *baseline;       /* Summary: the reference system where it ran; else
				     * each suite's first system by name */
	const char *prices_path;    /* Cost sheet (NULL: none) */
	const char *company;        /* document property (NULL: empty) */
	const char *title, *author; /* document properties (NULL: defaults) */
	int (*keep_bench)(const char *suite, const char *name, void *ctx); /* NULL: all */
	void *keep_ctx;
	/* a report spec's systems (each sheet, Raw included, keeps only
	 * them and the baseline), each benchmark's metric and normalisation
	 * (per device or node: median and CI divided by the configuration's
	 * devices or nodes, exact for a median); its confidence level goes in
	 * copts->level.  NULL: none */
	const struct report_spec *spec;
	const struct compare_opts *copts; /* seed, resamples; NULL: defaults */
};

/* Write the workbook to path atomically (not to stdout): Summary (with
 * energy efficiency), Systems, one sheet per benchmark (statistics, bars
 * of medians with their 95% CI as custom error bars referring to cells,
 * batch scaling on a log2 axis, Pareto with name labels, MLPerf official
 * scores and their bars), MLPerf scores, Cost (input cells, live
 * formulas), Raw (an Excel table of every run and metric, its rows
 * streamed: constant memory at any size), Methodology, Provenance;
 * document properties from SOURCE_DATE_EPOCH; "simulated example data" on
 * every first page when the database holds the demo. */
int xlsx_write(struct db *db, const struct xlsx_opts *o, const char *path, struct strbuf *err);

/* ---- cells (also used by the workbook) ---------------------------------- */

/* 1 if a spreadsheet would take text s as a formula: it starts with = + -
 * @ TAB or CR (OWASP's CSV injection list); a CSV writer then puts an
 * apostrophe first. */
int export_formula_like(const char *s, size_t len);
/* Append s as one CSV field: UTF-8 repaired, formula-like text neutralised
 * when text is set, quoted when needed. */
void export_csv_field(struct strbuf *out, const char *s, size_t len, int text);
/* Append s as a JSON string literal (quotes included), UTF-8 repaired. */
void export_json_string(struct strbuf *out, const char *s, size_t len);
/* Append s with invalid UTF-8 sequences replaced by U+FFFD. */
void export_utf8(struct strbuf *out, const char *s, size_t len);

#endif
