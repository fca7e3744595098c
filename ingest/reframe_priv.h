/*
 * reframe_priv.h - what the ReFrame parsers share (ingest/reframe_*.c).
 * Not for use outside ingest/ (tests excepted).
 *
 *   reframe_fmt.c      compile ReFrame logging format strings into a line
 *                      layout and match perflog lines against it
 *   reframe_case.c     one ReFrame test case -> one ingest_run (mapping,
 *                      per-variable results, dedupe key, times)
 *   reframe_perflog.c  perflog files of every version / site format
 *   reframe_report.c   JSON run reports (streamed one test case at a time)
 *   reframe_db.c       ReFrame 4.7+ results.db (read-only)
 *
 * Ownership: every struct here owns its strings; *_release frees them.
 */
#ifndef AB_REFRAME_PRIV_H
#define AB_REFRAME_PRIV_H

#include "ingest_priv.h"

/* ---- one test case (reframe_case.c) ----------------------------------- */

struct rfm_perf {
	char *name;
	size_t name_len;        /* strlen(name), set with it by rfm_case_perf() */
	int has_value;          /* value is a finite number */
	double value;
	char *raw;              /* the token when !has_value: None, null, nan, inf, text */
	char *unit;             /* NULL = not given */
	int has_ref, has_lower, has_upper;
	double ref, lower, upper;
	char *result;           /* per-variable result as ReFrame gave it, or NULL */
	/* memory kept for the next case (rfm_case_reset keeps the perf
	 * entries' names and units: a perflog's lines repeat them) */
	char *spare_unit;
};

struct rfm_case {
	struct strbuf display;  /* full display name, "Class %p=v ..." */
	struct strbuf system, partition, environ, jobid;
	struct strbuf result;   /* pass/fail/... or success/failure/...; empty = not given */
	struct strbuf fail_phase, fail_reason;
	struct strbuf time_raw; /* completion time as the source wrote it */
	double completion;      /* UTC epoch seconds; NAN = unknown */
	double submit;          /* UTC epoch seconds; NAN = unknown */
	const char *time_basis; /* static text: how completion was obtained */
	int old_era;            /* written by ReFrame < 4.7 (keyed by job id) */
	struct rfm_perf *perf;  /* nperf in use; up to perf_cap keep a spare name/unit */
	size_t nperf, perf_cap;
	json_t *params;         /* owned; everything else the source said (run reports) */
	struct jtext_obj kv;    /* the same as JSON text (perflogs); params goes first */
	struct rfm_emit_buf *eb;/* rfm_case_emit's buffers, kept for the next case */
	long line;
	struct strbuf key_extra;/* fallback identity when no time and no job id */
};

/* Value warnings printed per run report or results.db; the rest are counted. */
#define RFM_REPORT_MAX_WARN 10

/* Counts of test cases deliberately not stored, reported once per file. */
struct rfm_skips {
	long no_perf;           /* passed, no performance variables (not a benchmark) */
	long not_run;           /* skip / fail_deps: never executed */
	long warned;            /* value warnings of run reports (the first few are printed) */
};

void rfm_case_init(struct rfm_case *c);
void rfm_case_reset(struct rfm_case *c);
void rfm_case_release(struct rfm_case *c);
/* ingest_iso8601(out, epoch), the date part ("YYYY-MM-DDT") kept for the
 * next call on the same day (a perflog's runs come day by day). */
struct rfm_iso_memo {
	long long day;          /* days since 1970 of date; valid when date[0] */
	char date[12];
};
void rfm_iso8601(struct rfm_iso_memo *m, struct strbuf *out, double epoch);
/* The perf variable called name, added when missing. */
struct rfm_perf *rfm_case_perf(struct rfm_case *c, const char *name, size_t len);
/* p->unit = s[0..len), from the spare memory when it holds the same text */
void rfm_perf_set_unit(struct rfm_perf *p, const char *s, size_t len);
/* Move the values of src (a perf entry of another case) into dst's entry
 * of the same name, a new one; src keeps its name. */
void rfm_case_take_perf(struct rfm_case *dst, struct rfm_perf *src);
/* What a performance value token was (rfm_perf_set_value). */
enum rfm_value {
	RFM_VALUE_OK,       /* a finite number: stored */
	RFM_VALUE_MISSING,  /* empty, None, null: nothing was measured (silent) */
	RFM_VALUE_TEXT,     /* text that is not a number */
	RFM_VALUE_NAN,      /* nan, NaN */
	RFM_VALUE_INF,      /* inf, Infinity, -Infinity */
	RFM_VALUE_HUGE,     /* 1e400: beyond a double */
	RFM_VALUE_TINY      /* 1e-400: would read as 0 (or lose its digits) */
};
/* Set a perf value from a token; p->has_value only for RFM_VALUE_OK, else
 * the token is kept in p->raw (params.perf_missing). */
enum rfm_value rfm_perf_set_value(struct rfm_perf *p, const char *s, size_t len);
/* Why a NAN/INF/HUGE/TINY value is not stored (for the warning the caller
 * prints with file:line); NULL for the other kinds. */
const char *rfm_value_why(enum rfm_value k);
/* ref/lower/upper from a token; returns -1 when the token is not a number or missing word. */
int rfm_perf_set_num(int *has, double *out, const char *s, size_t len);
/* Map and emit; 0, 1 (duplicate or deliberately skipped) or negative error. */
int rfm_case_emit(struct ingest_file *f, struct rfm_case *c, struct rfm_skips *sk,
		  struct strbuf *err);
void rfm_skips_warn(struct ingest_file *f, const struct rfm_skips *sk);

/* Parse "%k=v %k2=v2" parameters of a display name into kv (numbers as numbers). */
void rfm_display_params(const char *display, struct jtext_obj *kv);
/* 1 when the unit is a time unit (lower is better). */
int rfm_unit_is_time(const char *unit);
/* 1 when a smaller value of variable name in unit is better: time units, time
 * per work (s/step, days/ns), space used (% inodes); without a unit, names
 * such as time, latency, elapsed. */
int rfm_lower_is_better(const char *name, const char *unit);
/* ReFrame version "3.10.0-dev.2+bf404ae1" -> 1 when older than 4.7. */
int rfm_version_old_era(const char *v, size_t len);
/* The JSON text of a ReFrame text value into out: numbers, true/false, JSON
 * {..}/[..], else a string.  Returns 0 (nothing added) for null/None/empty. */
int rfm_param_value(struct strbuf *out, const char *s, size_t len);
/* kv[key] = rfm_param_value(s) when it has one. */
void rfm_param_text(struct jtext_obj *kv, const char *key, const char *s, size_t len);

/*
 * Parse a time as ReFrame writes it: "2024-03-18T09:14:07", with optional
 * fraction (".123" or ",123"), space instead of T, and an optional offset
 * ("Z", "+01:00", "+0100").  *has_offset tells whether the text said where
 * it was; without one, assume_offset_s (seconds east of UTC) is applied.
 * Returns 0 or -1 when the text is not such a time.
 */
int rfm_parse_time(const char *s, size_t len, long assume_offset_s, double *epoch,
		   int *has_offset);

/* ---- logging formats (reframe_fmt.c) ---------------------------------- */

/* What a perflog column means. */
enum rfm_attr {
	RA_OTHER = 0,       /* params[name] */
	RA_IGNORE,          /* the empty column of a test without perf variables */
	RA_RESULT,
	RA_TIME,            /* check_job_completion_time */
	RA_TIME_UNIX,       /* check_job_completion_time_unix */
	RA_SUBMIT_UNIX,     /* check_job_submit_time */
	RA_ASCTIME,         /* the logging time (no completion time available) */
	RA_DISPLAY,
	RA_NAME,            /* check_name: display-style in 4.x, Class_p1_p2 in 3.x */
	RA_SYSTEM,
	RA_PARTITION,
	RA_ENVIRON,
	RA_JOBID,
	RA_VERSION,
	RA_INFO,            /* check_info: "display /hash @sys:part+env" and older forms */
	RA_PERF_VAR,
	RA_PERF_VALUE,
	RA_PERF_UNIT,
	RA_PERF_REF,
	RA_PERF_LOWER,
	RA_PERF_UPPER,
	RA_PERF_RESULT
};

/* What a column may contain; used to align lines whose fields hold the separator. */
enum rfm_kind {
	RK_FREE = 0,        /* anything */
	RK_NUM,             /* number, null, None, nan, inf or empty */
	RK_TIME,            /* 2024-03-18T09:14:07[+01:00] */
	RK_RESULT,          /* pass fail xfail xpass abort ... or null */
	RK_IDENT,           /* system / partition name */
	RK_ENV,             /* environment name: no blanks, no '|' (dots allowed) */
	RK_WORD,            /* no blanks, no '|' (job id, node list, module list, short names) */
	RK_BOOL,            /* true, false, null */
	RK_JSON,            /* {...} or [...] or empty/null */
	RK_DISPLAY,         /* Class[ %p=v ...] */
	RK_INFO,            /* ... @sys:part+env  |  Name on sys:part using env */
	RK_VERSION,         /* 4.9.3, 3.10.0-dev.2+bf404ae1, 3.0-dev6 (rev: 3f0c45d4) */
	RK_EMPTY            /* must be empty */
};

struct rfm_col {
	char *name;         /* header-style name: display_name, effective_throughput_value */
	enum rfm_attr attr;
	enum rfm_kind kind;
	int perf;           /* index into layout perf names, -1 = not a perf column */
};

/* One compiled format string: literal, placeholder, literal, ..., literal. */
struct rfm_fmt {
	char **lit;         /* nph + 1 literals */
	char **ph;          /* nph placeholder names as written: check_display_name */
	size_t nph;
	/* format_perfvars, without its last character (the separator) */
	char **plit;
	char **pph;
	size_t npph;
	char psep;          /* separator between perf variables; 0 = none */
	char *text;         /* the format as given (for messages) */
};

/* A concrete line layout: columns with the literal text around them. */
struct rfm_layout {
	struct rfm_col *col;
	size_t n;
	char **lit;         /* n + 1 literals */
	size_t *litlen;     /* their lengths (finish_layout; NULL before) */
	char delim;         /* every inner literal is this character (fast split), */
	int prefixed;       /* ...some followed by fixed text that starts the field */
	char **perf_names;  /* perf variables named by the header, in order */
	size_t nperf;
	int per_var;        /* one perf variable per line (3.x, compat/multiline mode) */
	const char *label;  /* which layout, for messages: "ReFrame 4.3+ default" */
};

#define RFM_KIND_MEMO 2       /* texts remembered per column */
#define RFM_KIND_MEMO_LEN 78  /* longer ones are checked every time */
struct rfm_kind_memo {
	unsigned char kind;   /* enum rfm_kind + 1; 0: empty */
	unsigned char len;
	char text[RFM_KIND_MEMO_LEN];
};

/* The match of one line: value i is line[off[i] .. off[i] + len[i]). */
struct rfm_match {
	size_t *off, *len;
	size_t cap;
	int realigned;      /* the separator occurs inside a field */
	size_t realigned_col; /* first such column */
	/* slow-path scratch */
	unsigned char *memo;
	size_t memo_cap;
	size_t *cum;        /* single-character separators: how many before each offset */
	size_t cum_cap;
	/* the last texts each column's kind accepted (rfm_kind_ok is a pure
	 * function of kind and text; a perflog repeats most columns line
	 * after line): RFM_KIND_MEMO per column */
	struct rfm_kind_memo *km;
	size_t km_cap;
};

enum rfm_match_status {
	RFM_MATCH_OK = 0,
	RFM_MATCH_NONE = -1,      /* does not fit the layout */
	RFM_MATCH_AMBIGUOUS = -2, /* fits in more than one way */
	RFM_MATCH_TOO_LONG = -3   /* too long to align (slow path bound) */
};

void rfm_fmt_init(struct rfm_fmt *f);
void rfm_fmt_release(struct rfm_fmt *f);
/* Compile format (+ format_perfvars, may be NULL).  0 or -AB_EDATA with err. */
int rfm_fmt_compile(struct rfm_fmt *f, const char *format, const char *perfvars,
		    struct strbuf *err);

void rfm_layout_init(struct rfm_layout *l);
void rfm_layout_release(struct rfm_layout *l);
/* Does the format need a header line to know its columns (perfvalues, #ALL)? */
int rfm_fmt_needs_header(const struct rfm_fmt *f);
/*
 * Build the layout of f.  header (line 1 without terminator, may be NULL)
 * names the columns of %(check_#ALL)s and the variables of
 * %(check_perfvalues)s.  Returns 0, or -AB_EDATA with err = what is wrong
 * with the header (no line position; the caller adds it).
 */
int rfm_layout_build(struct rfm_layout *l, const struct rfm_fmt *f, const char *header,
		     struct strbuf *err);
/*
 * Build a layout from a header line alone (a site format, read without
 * options): the columns ReFrame named, perf blocks X_value|X_unit|... found
 * by suffix, literal text ReFrame copied into the header ("reframe
 * version", "jobid=jobid", "system:partition") kept as literal text.
 * Returns 0, or -AB_EDATA when the line is not such a header.
 */
int rfm_layout_from_header(struct rfm_layout *l, const char *header, struct strbuf *err);
/* A header-described layout under ReFrame's pre-4.6.1 header rule: fixed
 * "name=" text that starts fields of the first data line becomes literal
 * text of the layout.  Returns how many columns had it. */
size_t rfm_layout_adopt_prefixes(struct rfm_layout *l, const char *line, size_t len);
/* 1 when line is the header ReFrame would write for f (either header rule). */
int rfm_fmt_is_header(const struct rfm_fmt *f, const char *line);

void rfm_match_init(struct rfm_match *m);
void rfm_match_release(struct rfm_match *m);
/*
 * Match one line (no terminator).  On RFM_MATCH_AMBIGUOUS, *col_a and
 * *col_b name two columns that could each hold the extra separator.
 */
int rfm_layout_match(const struct rfm_layout *l, const char *line, size_t len,
		     struct rfm_match *m, size_t *col_a, size_t *col_b);
/* 1 when s[0..len) is acceptable for kind. */
int rfm_kind_ok(enum rfm_kind kind, const char *s, size_t len);

/* Built-in formats, in the order they are tried. */
struct rfm_builtin {
	const char *label;
	const char *format;
	const char *perfvars;
};
extern const struct rfm_builtin rfm_builtins[];
extern const size_t rfm_nbuiltins;
/* The EPCC plain-file handler format (reframe_perf.out). */
extern const struct rfm_builtin rfm_perf_out_format;

/*
 * The site format for the file being ingested: --perflog-format, else the
 * nearest ".accelbench-reframe.json" in the file's directory or an
 * ancestor.  Returns 1 with fmt compiled, 0 when there is none, negative
 * with err on a bad option or config file.  *utc_offset_s (seconds east of
 * UTC, for times written without an offset) and *offset_given come from
 * the option's JSON form or the config file (the option wins).
 */
int rfm_site_format(const struct ingest_file *f, struct rfm_fmt *fmt, long *utc_offset_s,
		    int *offset_given, struct strbuf *where, struct strbuf *err);

/* ---- run reports (reframe_report.c) ----------------------------------- */

/* Parse a run report from fp (a file, or a results.db JSON blob).  label
 * names it in messages and line numbers count from 1. */
int rfm_report_parse_stream(struct ingest_file *f, FILE *fp, const char *label,
			    struct rfm_skips *sk, struct strbuf *err);

/* ---- the formats (formats.c lists them) -------------------------------- */

extern const struct ingest_format ingest_fmt_reframe_perflog;
extern const struct ingest_format ingest_fmt_reframe_perf_out;
extern const struct ingest_format ingest_fmt_reframe_report;
extern const struct ingest_format ingest_fmt_reframe_db;

#endif
