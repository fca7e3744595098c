/*
 * mlperf_priv.h - shared by the MLPerf parsers in ingest/: the :::MLLOG
 * line reader and its strict JSON scanner (mllog.c), the submission-tree
 * layout helpers and system descriptions (mlperf_system.c), and the
 * training power computation (mlperf_power.c).  Not for use outside ingest/.
 *
 * The reader follows the official mlperf_logging parser byte for byte:
 * the file is latin-1 bytes, "\n", "\r\n" and a lone "\r" end a line, a
 * record starts at the LAST ":::MLLOG " of its line, trailing whitespace
 * (Python's str.strip set) is dropped and the rest must be one JSON object
 * as Python's json.loads accepts it (NaN/Infinity, lone surrogates, any
 * integer size, duplicated keys: last wins).  A record that fails is
 * returned with ok == 0 and a reason, never skipped silently.
 *
 * Ownership: spans and record fields point into the reader's buffer and
 * are valid until the next mllog_next() call.
 *
 * Files: mlperf_json.c (JSON scanner, record grammar), mllog.c (reader),
 * mlperf_system.c, mlperf_power.c, mlperf_train.c, mlperf_infer.c,
 * mlperf_companion.c (formats).
 */
#ifndef AB_MLPERF_PRIV_H
#define AB_MLPERF_PRIV_H

#include "ingest_priv.h"

/* ---- JSON spans (mlperf_json.c) ------------------------------------------- */

/* Raw text of one already validated JSON value. */
struct jspan {
	const char *p;
	size_t n;
};

enum jtype { JT_NONE = 0, JT_NULL, JT_BOOL, JT_NUM, JT_STR, JT_ARR, JT_OBJ };

#define MLLOG_JSON_MAX_DEPTH 256

enum jtype jspan_type(struct jspan s);
/* Number (NaN/Infinity literals too) or a numeric string; 0 or -1. */
int jspan_num(struct jspan s, double *out);
/* 1 if s is a JSON integer literal that fits in long long (*out set). */
int jspan_ll(struct jspan s, long long *out);
/* Decode a string value to UTF-8 (latin-1 bytes, \u escapes); 0 or -1. */
int jspan_str(struct jspan s, struct strbuf *out);
/* 1 if s is a string equal to lit (ASCII, no backslash). */
int jspan_str_is(struct jspan s, const char *lit);
/* The last member of object obj named key; 1 found, 0 not (or not an object). */
int jspan_get(struct jspan obj, const char *key, struct jspan *out);
/* jspan_get of n keys in one walk: found[i] and out[i] for keys[i]. */
void jspan_get_many(struct jspan obj, const char *const *keys, size_t n, struct jspan *out,
		    int *found);
/* A jansson copy: integers beyond int64 become their exact digits as a
 * string (seeds), NaN/Infinity null. */
json_t *jspan_json(struct jspan s);
/* The text of jspan_json(s) as jtext_json() writes it, appended to out
 * (scalars written directly: params without building jansson values). */
void jspan_text(struct jspan s, struct strbuf *out);
/* Validate text[0..len) as exactly one JSON value (whitespace around it
 * allowed).  Returns 0 with *val set, or -1 with why = "what at column N"
 * (columns count from col0 + 1). */
int jspan_parse(const char *text, size_t len, size_t col0, struct jspan *val,
		struct strbuf *why);

/* memmem (a GNU extension, so ours). */
const void *mlperf_memmem(const void *hay, size_t n, const char *needle, size_t m);
/* The same search, its wide loops probing needle[a] and needle[b] (a < b
 * < m; another pair means the first and last bytes): a pair of bytes
 * rarely side by side in the haystack makes a miss cheap. */
const void *mlperf_memmem_probe(const void *hay, size_t n, const char *needle, size_t m,
				size_t a, size_t b);
/* "mlperf::logging" (LoadGen's logs), probed at "f:", which text logs
 * hardly ever hold: detection looks for it twice in a training log's
 * first 64 KiB and finds it in none */
#define MLPERF_LOADGEN_MARK "mlperf::logging"
#define mlperf_has_loadgen_mark(head, len) \
	(mlperf_memmem_probe((head), (len), MLPERF_LOADGEN_MARK, 15, 5, 6) != NULL)
/* mlperf_companion.c: 1 for the path of a training power log (formats.c) */
int mlperf_companion_by_path(const char *path);

/* ---- the :::MLLOG reader (mllog.c) ----------------------------------- */

#define MLLOG_TOKEN ":::MLLOG "
#define MLLOG_TOKEN_LEN 9
/* Longest record kept in memory; a longer one is a failed record. */
#define MLLOG_MAX_RECORD (4u << 20)

struct mllog_rec {
	long line;               /* physical line (1-based, universal newlines) */
	int ok;                  /* 0: the record failed to parse, see why */
	const char *why;         /* reason when !ok (owned by the reader) */
	double time_ms;
	const char *key;         /* decoded key, not NUL-terminated; NULL if not a string */
	size_t key_len;
	struct jspan event_type, value, metadata, ns;
};

/*
 * Record templates (mlperf_json.c): a log repeats a few record shapes
 * thousands of times (train_loss, tracked_stats, power_reading), the same
 * bytes but for the digits of its numbers.  A template is such a record
 * with each byte's allowed values: the byte itself, or for a digit of a
 * number any digit ('1'-'9' for the first of an integer part of several
 * digits: JSON has no leading zeros).  A record of the same length whose
 * every byte is allowed is valid JSON of the same structure with its
 * members where the template's are: no scanning.  Anything else is parsed
 * as usual (and may become a template).
 */
#define MLLOG_TPLS 16            /* templates kept per reader */
#define MLLOG_TPL_MIN_LEN 32     /* shorter or longer records get no template */
#define MLLOG_TPL_MAX_LEN 1024
#define MLLOG_TPL_SEEN 8         /* keys of records without one, remembered */
#define MLLOG_MEMBERS 6          /* the record members with a span */

struct mllog_tpl {
	/* byte i of a matching record: (unsigned char)(b - lo[i]) <= rng[i] */
	unsigned char *lo, *rng; /* MLLOG_TPL_MAX_LEN each (one allocation) */
	size_t len;              /* 0: an empty slot */
	size_t time_off, time_len; /* time_ms as a plain integer, or time_len 0 */
	int plain_key;           /* the key is a string without escapes */
	uint32_t span_off[MLLOG_MEMBERS], span_len[MLLOG_MEMBERS];
	uint64_t used;           /* when last matched (least recent is replaced) */
	int next;                /* the template the record after this one's matched, or -1 */
};

struct mllog_tpls {
	struct mllog_tpl t[MLLOG_TPLS];
	uint64_t clock;
	int last;                /* the template the record before matched, or -1 */
	/* the keys of the last records that matched no template: a template
	 * is made for a key met twice (a log's one-off records get none) */
	uint64_t seen[MLLOG_TPL_SEEN];
	unsigned nseen;
	int avx2;                /* match 32 bytes at a time */
	/* records matched and templates made: a log whose shapes do not
	 * repeat (more made than matched after a while) gets no more */
	unsigned long hits, builds;
	int off;                 /* 1: that happened, no template is tried any more */
};

void mllog_tpls_init(struct mllog_tpls *c);
void mllog_tpls_release(struct mllog_tpls *c);
/* A record that is all of a line: text[0..avail) holds the record and
 * what follows; when a template matches text[0..n) with text[n] == '\n'
 * (n < avail), the record as mllog_parse_record() would give it (1, or 0
 * with why) and *len = n; -1 when none matches (nothing changed). */
int mllog_tpl_line(struct mllog_tpls *c, const char *text, size_t avail, struct mllog_rec *rec,
		   struct strbuf *keybuf, struct strbuf *why, size_t *len);
/* mllog_parse_record(), through c's templates first: the same result. */
int mllog_parse_record_tpl(struct mllog_tpls *c, const char *text, size_t len, size_t col0,
			   struct mllog_rec *rec, struct strbuf *keybuf, struct strbuf *tmp,
			   struct strbuf *why);

struct mllog_reader {
	FILE *fp;
	unsigned char *buf;
	size_t cap, max_cap, max_record;
	size_t start, end, scan;     /* unconsumed bytes are buf[start..end) */
	size_t tok;                  /* the current line's last token so far, or SIZE_MAX */
	int eof, pending_cr, overlong;
	int borrowed;                /* buf is the caller's whole input (mllog_init_mem) */
	int avx2;                    /* the line scan may use AVX2 */
	long lineno;                 /* lines consumed so far */
	long records, failed;        /* :::MLLOG records returned, of which failed */
	uint64_t bytes;
	struct strbuf key, why, tmp;
	struct mllog_tpls tpls;
};

/* Check one record's text (after the token, trailing blanks dropped;
 * mlperf_json.c): 1 with rec filled, 0 with why set.  keybuf holds a key
 * that needed decoding, tmp is scratch. */
int mllog_parse_record(const char *text, size_t len, size_t col0, struct mllog_rec *rec,
		       struct strbuf *keybuf, struct strbuf *tmp, struct strbuf *why);

void mllog_init(struct mllog_reader *r, FILE *fp, size_t max_record);
/* The same over a whole input already in memory (read, never written;
 * data must outlive the reader): the same records, lines and messages. */
void mllog_init_mem(struct mllog_reader *r, const unsigned char *data, size_t len,
		    size_t max_record);
void mllog_release(struct mllog_reader *r);
/* Next record: 1 (rec filled, maybe !ok), 0 at end of file, -AB_EIO. */
int mllog_next(struct mllog_reader *r, struct mllog_rec *rec, struct strbuf *err);
/* 1 if the record's key equals lit (MLLOG_KEY_IS: lit a string literal). */
int mllog_key_is(const struct mllog_rec *rec, const char *lit);
/* The record's key as UTF-8 into out (keys are latin-1 bytes unless they
 * had escapes). */
void mllog_key_utf8(struct strbuf *out, const struct mllog_rec *rec);
#define MLLOG_KEY_IS(rec, lit) \
	((rec)->key_len == sizeof(lit) - 1 && !memcmp((rec)->key, lit, sizeof(lit) - 1))

/* ---- submission layout and system descriptions (mlperf_system.c) ---- */

/* Where a result file sits in an MLPerf submission tree. */
struct mlperf_layout {
	struct strbuf root;       /* <submitter> directory */
	struct strbuf submitter;  /* folder names */
	struct strbuf system;
	struct strbuf bench;      /* benchmark / model folder */
	struct strbuf scenario;   /* inference: scenario folder */
	struct strbuf division;   /* inference: closed/open folder, if any */
	struct strbuf bench_dir;  /* directory holding the result files (absolute) */
	struct strbuf round;      /* "4.1" from ..._results_v4.1/, or empty */
	struct strbuf scaling;    /* training HPC: "strong"/"weak", or empty */
};

void mlperf_layout_init(struct mlperf_layout *l);
void mlperf_layout_release(struct mlperf_layout *l);
/* Training: .../<submitter>/results/<system>/[strong|weak/]<benchmark>/FILE.
 * Inference: .../<submitter>/results/<system>/<model>/<Scenario>/performance/run_N/FILE.
 * Returns 0, or -1 when the path does not have that shape. */
int mlperf_layout_training(struct mlperf_layout *l, const char *path);
int mlperf_layout_inference(struct mlperf_layout *l, const char *path);

/* A system description as the run records need it. */
struct mlperf_sysdesc {
	json_t *json;             /* the whole JSON object, or NULL if missing */
	struct strbuf name;       /* "<submitter>/<system folder>" */
	const char *display_name; /* system_name (borrowed from json) */
	const char *accelerator;  /* accelerator_model_name */
	const char *host_cpu;
	const char *interconnect;
	const char *framework;
	const char *division;
	const char *submitter;    /* the JSON's submitter ("CoreWeave + IBM + NVIDIA") */
	const char *status;       /* availability */
	long nodes, per_node;     /* 0 = unknown */
	const char *meta_text;    /* json as compact text (the ingest's memo), or NULL */
};

void mlperf_sysdesc_init(struct mlperf_sysdesc *d);
void mlperf_sysdesc_release(struct mlperf_sysdesc *d);
/* Load <root>/systems/<system>.json.  Returns 0 (d->json NULL when the file
 * is absent), or -AB_EDATA with why set when it exists but is unusable. */
int mlperf_sysdesc_load(struct mlperf_sysdesc *d, const struct mlperf_layout *l,
			struct ingest_file *f, struct strbuf *why);
/* The division is part of a system's identity: the same folder in closed
 * and open is two systems.  Any division but closed (or none) is appended:
 * "<submitter>/<system> (open)". */
void mlperf_sysdesc_division(struct mlperf_sysdesc *d, const char *division);
/* Fill an ingest_system from d (pointers borrowed from d). */
void mlperf_sysdesc_fill(const struct mlperf_sysdesc *d, struct ingest_system *sys);
/* A count that arrives as an int or a string ("8"); 0 when absent or bad. */
long mlperf_json_count(json_t *v);
/* The lexically absolute, normalised directory of path. */
void mlperf_abs_dirname(struct strbuf *out, const char *path);
/* The round of a path: "4.1" from a component "..._v4.1" or "v4.1"; empty if none. */
void mlperf_round_of(struct strbuf *out, const char *path);

/* ---- inference (mlperf_infer.c) ------------------------------------- */

/* 1 for LoadGen logs that are no performance result (accuracy/, compliance
 * TEST0x/, power ranging/): a directory walk passes over them. */
int mlperf_infer_aside(const char *path);
/* 1 when a summary has a readable mlperf_log_detail.txt next to it. */
int mlperf_summary_has_detail(const char *path);
/* Parse an mlperf_log_summary.txt into a run. */
int mlperf_parse_summary(struct ingest_file *f, struct strbuf *err);

/* ---- training power (mlperf_power.c) --------------------------------- */

struct mlperf_power_reading {
	double t_ms;
	double watts;
	int device;               /* index into mlperf_energy.devices */
};

struct mlperf_energy {
	double joules;            /* nodes + switches */
	double node_j, switch_j;
	int nodes, switches;      /* files read */
	struct mlperf_power_reading *r; /* every power_reading, file order */
	size_t n, alloc;
	char **devices;           /* "node_0", "sw_0", ... */
	size_t ndevices;
};

void mlperf_energy_release(struct mlperf_energy *e);
/* Energy of one run per the official formula from
 * <bench_dir>/power/<stem>/node_*.txt and sw_*.txt, rescaled to the run's
 * time to train (ms).  Returns 1 (computed), 0 (no power dir for this run)
 * or -AB_EDATA with why set ("power/result_0/node_3.txt:12: ..."). */
int mlperf_power_energy(const char *bench_dir, const char *stem, double ttt_ms,
			struct mlperf_energy *out, struct strbuf *why);
/* Store the readings as power samples of run_id (t in epoch seconds). */
int mlperf_power_emit(struct ingest_file *f, int64_t run_id, const struct mlperf_energy *e,
		      struct strbuf *err);

#endif
