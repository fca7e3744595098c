/*
 * report.h - the procurement report (`accelbench report`): its spec and
 * the PDF writer.
 *
 * Spec (JSON; every field optional; an unknown field or a value of the
 * wrong type is an error naming the field's path, e.g.
 * "report.json: benchmarks[1].normalise: expected one of system, device,
 * node"):
 *   {
 *     "title": "Accelerator procurement 2026",   default "Accelerator benchmark report"
 *     "author": "HPC benchmarking team",         default none
 *     "organisation": "Example Computing Centre", default none
 *     "page_size": "A4",                          "A4" (default) or "Letter"
 *     "baseline": "A100",                         default: the system with most runs
 *     "confidence_level": 0.95,                   0.5 .. 0.999, default 0.95
 *     "suites": ["caraml"],                       default: all
 *     "systems": ["A100", "JEDI"],                default: all
 *     "benchmarks": [                             default: all, headline metric
 *       "resnet50",
 *       { "name": "llm-gpt-800M", "metric": "throughput", "normalise": "device" }
 *     ],
 *     "cost": { "prices": "prices.json" }         path relative to the spec file
 *   }
 * Keys starting with "_" are comments.
 *
 * Ownership: report_spec_load/parse fill a caller-owned struct whose
 * strings and arrays are released by report_spec_release().
 */
#ifndef AB_REPORT_H
#define AB_REPORT_H

#include "core/core.h"
#include "model/db.h"

enum report_page_size {
	REPORT_PAGE_A4 = 0,
	REPORT_PAGE_LETTER = 1
};

enum report_norm {
	REPORT_NORM_SYSTEM = 0,   /* the metric as measured */
	REPORT_NORM_DEVICE = 1,   /* divided by the accelerators used */
	REPORT_NORM_NODE = 2      /* divided by the nodes used */
};

/* "system", "device", "node". */
const char *report_norm_name(enum report_norm n);

struct report_bench {
	char *name;
	char *metric;             /* NULL: the headline metric */
	enum report_norm norm;
};

struct report_spec {
	char *title, *author, *organisation;
	char *baseline;           /* NULL: chosen from the data */
	enum report_page_size page;
	double level;
	char **suites;
	size_t nsuites;
	char **systems;
	size_t nsystems;
	struct report_bench *benchmarks;
	size_t nbenchmarks;
	char *prices;             /* prices file path (resolved against the spec's dir) */
};

#define REPORT_DEFAULT_TITLE "Accelerator benchmark report"

/* The defaults: everything in the database. */
void report_spec_init(struct report_spec *s);
void report_spec_release(struct report_spec *s);
/* Parse spec text; name is used in messages and to resolve relative
 * paths.  0 or -AB_EDATA (s is left initialised and empty then). */
int report_spec_parse(const char *text, size_t len, const char *name, struct report_spec *s,
		      struct strbuf *err);
/* Read and parse a spec file: 0, -AB_EIO or -AB_EDATA. */
int report_spec_load(const char *path, struct report_spec *s, struct strbuf *err);
/* Whether the spec selects name from its list (an empty list selects all). */
int report_spec_has_suite(const struct report_spec *s, const char *suite);
int report_spec_has_system(const struct report_spec *s, const char *system);
const struct report_bench *report_spec_bench(const struct report_spec *s, const char *name);

struct report_opts {
	const char *db_path;       /* printed on the cover */
	const char *version;       /* tool version for the cover and metadata */
	long long now;             /* report date, seconds since the epoch (SOURCE_DATE_EPOCH) */
};

/*
 * Write the report as PDF to path, atomically (path.tmp, then rename; no
 * partial file on any error).  Returns 0, -AB_EDATA (nothing to report,
 * a spec naming what the database lacks), -AB_EIO or -AB_EINTERNAL.
 */
int report_write_pdf(struct db *db, const struct report_spec *spec, const struct report_opts *o,
		     const char *path, struct strbuf *err);

#endif
