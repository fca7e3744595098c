/*
 * ingest_priv.h - what a format parser sees.  Not for use outside ingest/.
 *
 * A parser is a struct ingest_format in the table in formats.c: detect()
 * scores the first bytes of a file (0 = not mine, 100 = certain) and parse()
 * streams the whole file (f->fp is at offset 0), emitting runs through
 * ingest_emit_run()/ingest_emit_power().  On any error parse() returns a
 * negative status with err = "what" and *f->err_line set, or an already
 * positioned "file:line: what" message (ingest_fail_at); the driver rolls
 * back the file.
 */
#ifndef AB_INGEST_PRIV_H
#define AB_INGEST_PRIV_H

#include "ingest.h"
/* JSON text without jansson objects, bytes identical to json_dumps: a
 * parser hands the sink params_json / metrics_meta_json directly */
#include "jtext.h"

struct ingest_file {
	const char *path;                 /* as walked (relative or absolute) */
	FILE *fp;                         /* read-only, binary, at offset 0 */
	uint64_t size;
	/* the file's size bytes, the ones hashed, when the driver read it
	 * whole (then a parser may read them instead of fp), else NULL */
	const unsigned char *data;
	const unsigned char *head;        /* first head_len bytes */
	size_t head_len;
	const struct ingest_opts *opts;
	struct ingest_sink *sink;
	struct ingest_totals *totals;
	/* ingest.c: events held back while the pipeline's writer finishes the
	 * previous file (NULL: reported at once); counts come from the writer */
	struct ingest_events *events;
	int deferred;
	/* ingest.c: what parsers keep across the files of one ingest (NULL:
	 * nothing is kept) */
	struct ingest_memo *memo;
};

/*
 * A JSON file a parser loaded before in this ingest (an MLPerf system
 * description, read again for every log of that system), when the file is
 * unchanged since (device, inode, size, mtime, ctime): a new reference,
 * *text its compact text as json_dumps gives it (owned by the memo, NULL
 * if it has none).  NULL when not known (or f->memo is NULL).
 */
struct ingest_memo *ingest_memo_new(void);
void ingest_memo_free(struct ingest_memo *m);
json_t *ingest_memo_json(struct ingest_file *f, const char *path, const char **text);
/* Remember j (loaded from path, an object nothing modifies) for the rest
 * of the ingest; returns its compact text as above, or NULL. */
const char *ingest_memo_json_put(struct ingest_file *f, const char *path, json_t *j);

enum ingest_format_flags {
	/* Files of this format are read by another parser (energy files of a
	 * result table, power logs of an MLPerf result); a directory walk does
	 * not ingest them as sources of their own. */
	FMT_COMPANION = 1 << 0,
	/* Detection needs the file name too (no reliable content signature). */
	FMT_NAME_HINT = 1 << 1,
	/* Asked to detect empty files and files whose first bytes look binary,
	 * which every other format is spared: binary formats (results.db), and
	 * MLPerf result logs (a log with a NUL in it is still a failed run). */
	FMT_BINARY_OK = 1 << 2,
	/* A results layout (MLPerf): the path carries the result's identity,
	 * so the same bytes at another place in the layout are another result
	 * (a source of its own), identified by the path from the submitter
	 * folder (and its division folder) down; see ingest_identity(). */
	FMT_PATH_IDENTITY = 1 << 3
};

struct ingest_format {
	const char *name;
	unsigned flags;
	int (*detect)(const char *path, const unsigned char *head, size_t len);
	int (*parse)(struct ingest_file *f, struct strbuf *err);
};

#define INGEST_HEAD_MAX 65536

/* formats.c: the table of all formats, NULL-terminated. */
extern const struct ingest_format *const ingest_formats[];
const struct ingest_format *ingest_format_find(const char *name);
/* 1 when the path alone says the file is most likely a companion that a
 * directory walk does not ingest (a training power log): the driver does
 * not hash it ahead; detection still decides. */
int ingest_maybe_companion(const char *path);
const struct ingest_format *ingest_detect(const char *path, const unsigned char *head,
					  size_t len, int *score);

/* ---- the pipeline (pipeline.c): parse the next file while a writer
 * thread stores the previous one ---------------------------------------- */

enum ingest_out_status {
	INGEST_OUT_INGESTED = 0,
	INGEST_OUT_SKIPPED = 1,       /* the writer found the bytes ingested before */
	INGEST_OUT_ROLLED_BACK = 2,   /* the parser rejected it, or an earlier write failed */
	INGEST_OUT_REJECTED = 3       /* its late digest could not be taken (err) */
	/* < 0: this file's write failed (err) */
};

/* What the writer did with one file. */
struct ingest_outcome {
	int status;
	long runs, metrics, power_samples, duplicates, systems, replaced;
	char *err;                    /* status < 0 or REJECTED; the caller frees it */
	/* this file and every one before it are durable (the writer commits
	 * files in groups: an INGESTED outcome without it is stored once its
	 * group is, and lost with it when that fails) */
	int committed;
};

struct ingest_pipe;
struct ingest_prehash;
/* Start the writer thread over sink; NULL when no thread can be made.
 * Late digests are claimed from ph. */
struct ingest_pipe *ingest_pipe_start(struct ingest_sink *sink, struct ingest_prehash *ph);
/* The sink a parser writes to while the pipeline runs. */
struct ingest_sink *ingest_pipe_sink(struct ingest_pipe *p);
/* A file's records: begin, the parser's, then end (commit or roll back).
 * late: SIZE_MAX, or the file's index in the prehash when src has no
 * digest yet (the writer waits for it, the parser does not). */
int ingest_pipe_begin(struct ingest_pipe *p, const struct ingest_source *src, size_t late,
		      struct strbuf *err);
/* 1 when the writer found the late file being parsed ingested before: the
 * parse may stop, its outcome is INGEST_OUT_SKIPPED. */
int ingest_pipe_skipped(struct ingest_pipe *p);
int ingest_pipe_end(struct ingest_pipe *p, int commit);
/* Wait for the next file's outcome (file order). */
void ingest_pipe_outcome(struct ingest_pipe *p, struct ingest_outcome *o);
/* Stop the writer (after every outcome was taken) and free everything.
 * Returns 0, or -AB_EIO with err when the writer's last group of files
 * could not be committed (none of them is stored). */
int ingest_pipe_finish(struct ingest_pipe *p, struct strbuf *err);

/* Forward a run / power sample to the sink and count it. */
int ingest_emit_run(struct ingest_file *f, const struct ingest_run *run, int64_t *run_id,
		    struct strbuf *err);
int ingest_emit_system(struct ingest_file *f, const struct ingest_system *sys, struct strbuf *err);
int ingest_emit_power(struct ingest_file *f, int64_t run_id, const char *device, double t,
		      double watts, struct strbuf *err);
/* A warning about the file being parsed ("path:line: msg"; line 0 = none). */
void ingest_warn(struct ingest_file *f, long line, const char *fmt, ...) AB_PRINTF(3, 4);
/* Error "path:line: msg" (line 0 = none); returns -AB_EDATA. */
int ingest_fail_at(struct ingest_file *f, struct strbuf *err, long line, const char *fmt, ...)
	AB_PRINTF(4, 5);

/* ---- field splitting (fields.c) ------------------------------------ */

enum fields_flags {
	FIELDS_TRIM = 1 << 0,   /* strip blanks around each field */
	FIELDS_QUOTED = 1 << 1  /* honour "..." quoting with "" escapes (RFC 4180) */
};

/* Fields of one line; v[i] are NUL-terminated views into an owned copy. */
struct fields {
	size_t n;
	char **v;
	size_t *len;
	size_t cap;
	struct strbuf copy;
};

void fields_init(struct fields *fl);
void fields_release(struct fields *fl);
/* Split line[0..len) at sep.  Returns 0, or -AB_EDATA for an unterminated quote. */
int fields_split(struct fields *fl, const char *line, size_t len, char sep, unsigned flags);

/* ---- small helpers (util.c) ----------------------------------------- */

/* num_parse_double(), without strtod for plain decimals of up to 15
 * significant digits (the same double: Clinger's exact fast path). */
enum num_kind ingest_parse_double(const char *s, size_t len, double *out);

/* 1 if the first len bytes contain a NUL or look like binary data. */
int ingest_looks_binary(const unsigned char *head, size_t len);
/* Last path component. */
const char *ingest_basename(const char *path);
/* Directory part of path into out ("." when none). */
void ingest_dirname(struct strbuf *out, const char *path);
/* 1 if s ends with suffix. */
int ingest_ends_with(const char *s, const char *suffix);
/* Set params[key] to a string / number / integer (NULL value: not set). */
void ingest_param_str(json_t *params, const char *key, const char *value);
void ingest_param_num(json_t *params, const char *key, double value);
void ingest_param_int(json_t *params, const char *key, long long value);
/* Days since 1970-01-01 of a proleptic Gregorian date (no time zone, no
 * libc: timegm() is not standard C). */
long ingest_days_from_civil(long y, long m, long d);
/* Convert Unix epoch seconds to ISO 8601 UTC ("2024-08-23T08:02:11.600Z" with ms when fractional). */
void ingest_iso8601(struct strbuf *out, double epoch);

#endif
