/*
 * caraml.c - CARAML result tables (formats/caraml.md section 3) to runs.
 *
 * jube.c splits the table; this file maps columns by header title, decides
 * what kind of table it is, and turns every row into one run:
 *
 *   kind          header has            suite/benchmark          headline
 *   LLM GPU       Tokens/second         caraml/llm-gpt-800M      throughput tokens/s (whole job)
 *   LLM IPU       Tokens/second +       caraml/llm-gpt-117M      throughput samples/s (the column
 *                 IPU/replica                                    is sequences/s, see parse_vals)
 *   ResNet50 TF   Images/second         caraml/resnet50          throughput images/s
 *   ImgCls torch  Images/second + Epoch caraml/resnet50-torch    throughput images/s
 *                 or Precision
 *   FNO (2026)    TrainTimesteps/second caraml/fno-PIC2D         throughput samples/s
 *                 (eval tables: none)   caraml/fno-PIC2D-compile compile_time s (lower)
 *
 * Other metrics: throughput_per_device (/ Devices), throughput_tokens
 * (IPU GPT-2 117M: x 1024), tflops_per_device (Avg_TFLOPs/GPU, TFLOP/s),
 * time_per_iteration (s), train_time (FNO, s).  The system is the System
 * tag in its canonical spelling ("Jedi" -> "JEDI"); the database maps tags
 * to vendor and accelerator.  Unknown columns are kept as strings in
 * params, known ones typed (Version stays text).  Precision comes from the
 * configs where the table lacks it: LLM --fp16 (800M, 13B) / --bf16 (175B),
 * ResNet50 TF --use_fp16=True on GPUs.  local_batch of an LLM run is GBS /
 * DataParallel.
 *
 * A site's own JUBE benchmark may write a smaller table: a System column
 * and a known metric column (Tokens/second, Images/second, ...) plus any
 * configuration columns.  Its benchmark name is the JUBE benchmark's (from
 * <id>/configuration.xml beside result/), then Model and ModelSize where
 * present; CARAML's own benchmarks keep the names above.
 *
 * A row whose headline cell is "nan" or empty is a failed run whose
 * excluded_reason names every missing measured column.  The same run
 * printed in several tables (csv, pretty, aligned, stdout of -i all) is
 * stored once: the dedupe key is system, job id, benchmark, nodes, devices
 * and global batch.
 *
 * Energy (ok runs only): the table's own columns (FNO TotalEnergy, or the
 * Aug 2024 "Energy/Device(Wh)" list on one node), else the EnergyFile the
 * row names, resolved on this machine (jpwr_resolve.c) and read by jpwr.c
 * (one row per node, one column family: never gh:Module + pynvml).  A file
 * that is missing, unreadable or covers another node count is a warning;
 * the run lands without energy.  From it:
 *   energy, energy_per_device  Wh, meta {"boundary": "gpu"|"module", "source"}
 *   avg_power  W = energy / window; the window is the span of the per-rank
 *              power series next to the energy file, else a measured
 *              runtime (ResNet/ImgCls Runtime(s), FNO Runtime (min)); the
 *              LLM Runtime(min) is the configured limit and never used;
 *              more than 2 kW per device means a bad runtime: not stored
 *   peak_power W, from the power series; their samples go to power_sample
 *   energy_per_unit    J per token / image / sample = 3600 * energy / work
 *   energy_efficiency  work / energy, where work is
 *              LLM GPU:  Iterations x GBS x 2048 (seq len)     tokens/Wh
 *              LLM IPU:  samples/s x 1024 x window             tokens/Wh
 *              ImgCls:   Epoch x 10000 synthetic images        images/Wh
 *              ResNet TF: Images/second x window (no image count in the
 *                        table; = throughput / average power)  images/Wh
 *              FNO:      TrainTimesteps                        samples/Wh
 */
#include "core/compat.h"
#include "caraml_priv.h"

#include <ctype.h>
#include <math.h>

/* Megatron's --seq-length in every CARAML LLM config (NVIDIA/AMD). */
#define LLM_SEQ_LEN 2048.0
/* GPT-2 117M on Graphcore (llm_benchmark_ipu.yaml): sequence length 1024. */
#define IPU_GPT2_SEQ_LEN 1024.0
/* PyTorch image classification: one epoch is 10000 synthetic images
 * (formats/caraml.md section 5). */
#define IMGCLS_IMAGES_PER_EPOCH 10000.0
/* No accelerator draws more than this on average: a larger figure means a
 * bad runtime (the real GC200 README row says Runtime(s) = 1.0). */
#define MAX_PLAUSIBLE_W_PER_DEVICE 2000.0
#define MAX_NOT_FOUND_WARNINGS 3

static const char *const known_tags[] = {
	"A100", "H100", "WAIH100", "GH200", "JEDI", "MI250", "MI300X", "MI300A",
	"GC200", "JUPITER", "MILA", "GB200",
};

const char *caraml_known_tag(const char *s, size_t len)
{
	size_t i, k;

	for (i = 0; i < AB_ARRAY_SIZE(known_tags); i++) {
		if (strlen(known_tags[i]) != len)
			continue;
		for (k = 0; k < len; k++)
			if (toupper((unsigned char)s[k]) != known_tags[i][k])
				break;
		if (k == len)
			return known_tags[i];
	}
	return NULL;
}

/* ---- columns -------------------------------------------------------------- */

enum col_role {
	R_PARAM = 0,        /* params only */
	R_ID,               /* JUBE benchmark id (stdout of -i all) */
	R_JOBID,
	R_SYSTEM,
	R_NODES,
	R_DEVICES,
	R_GBS,
	R_LBS,
	R_TOKENS,           /* Tokens/second */
	R_IMAGES,           /* Images/second */
	R_STEPS,            /* TrainTimesteps/second (FNO) */
	R_TFLOPS,           /* Avg_TFLOPs/GPU */
	R_TIME_ITER,        /* Time/iteration(s) */
	R_ITERS,
	R_RUNTIME_S,        /* measured Runtime(s) */
	R_RUNTIME_MIN_FNO,  /* measured Runtime (min) */
	R_ENERGY_FILE,
	R_ENERGY_LIST,      /* historic Energy/Device(Wh) "[..]" */
	R_ENERGY_GPU,       /* FNO Energy/GPU (Wh) */
	R_ENERGY_TOTAL,     /* FNO TotalEnergy (Wh) */
	R_TRAIN_STEPS,      /* FNO TrainTimesteps */
	R_TRAIN_TIME,       /* FNO TotalTrainTime (s) */
	R_COMPILE_TIME,     /* FNO MeanCompileTime (s) */
	R_EPOCH,            /* ImgCls Epoch */
	R_PRECISION,        /* ImgCls Precision */
	R_MIXED,            /* FNO MixedPrecision */
	R_MODEL,
	R_MODEL_SIZE,
	R_DATASET,
	R_PROBLEM,
	R_IPU_REPLICA,
	R_DP,
	R_COUNT
};

enum col_type {
	T_TEXT = 0,
	T_INT,
	T_NUM,
	T_BOOL
};

struct col_def {
	const char *title;
	enum col_role role;
	enum col_type type;
	int measured;       /* a value the run produced (listed when missing) */
};

static const struct col_def col_defs[] = {
	{ "id", R_ID, T_INT, 0 },
	{ "JobID", R_JOBID, T_INT, 1 },
	{ "System", R_SYSTEM, T_TEXT, 0 },
	{ "Nodes", R_NODES, T_INT, 0 },
	{ "Devices", R_DEVICES, T_INT, 0 },
	{ "TotalDevices", R_DEVICES, T_INT, 0 },
	{ "GlobalBatchSize", R_GBS, T_INT, 0 },
	{ "BatchSize/Device", R_LBS, T_INT, 0 },
	{ "LocalBatchSize", R_LBS, T_INT, 0 },
	{ "Tokens/second", R_TOKENS, T_NUM, 1 },
	{ "Images/second", R_IMAGES, T_NUM, 1 },
	{ "TrainTimesteps/second", R_STEPS, T_NUM, 1 },
	{ "Avg_TFLOPs/GPU", R_TFLOPS, T_NUM, 1 },
	{ "Time/iteration(s)", R_TIME_ITER, T_NUM, 1 },
	{ "Iterations", R_ITERS, T_INT, 1 },
	{ "Runtime(s)", R_RUNTIME_S, T_NUM, 1 },
	{ "Runtime (min)", R_RUNTIME_MIN_FNO, T_NUM, 1 },
	{ "EnergyFile", R_ENERGY_FILE, T_TEXT, 1 },
	{ "Energy/Device(Wh)", R_ENERGY_LIST, T_TEXT, 1 },
	{ "Energy/GPU (Wh)", R_ENERGY_GPU, T_NUM, 1 },
	{ "TotalEnergy (Wh)", R_ENERGY_TOTAL, T_NUM, 1 },
	{ "TrainTimesteps", R_TRAIN_STEPS, T_INT, 1 },
	{ "TotalTrainTime (s)", R_TRAIN_TIME, T_NUM, 1 },
	{ "MeanCompileTime (s)", R_COMPILE_TIME, T_NUM, 1 },
	{ "Epoch", R_EPOCH, T_INT, 0 },
	{ "Precision", R_PRECISION, T_TEXT, 0 },
	{ "MixedPrecision", R_MIXED, T_BOOL, 0 },
	{ "Model", R_MODEL, T_TEXT, 0 },
	{ "ModelSize", R_MODEL_SIZE, T_TEXT, 0 },
	{ "Dataset", R_DATASET, T_TEXT, 0 },
	{ "Problem", R_PROBLEM, T_TEXT, 0 },
	{ "IPU/replica", R_IPU_REPLICA, T_INT, 0 },
	{ "DataParallel", R_DP, T_INT, 0 },
	/* typed params */
	{ "Version", R_PARAM, T_TEXT, 0 },
	{ "Queue", R_PARAM, T_TEXT, 0 },
	{ "JobTime", R_PARAM, T_TEXT, 0 },
	{ "Runtime(min)", R_PARAM, T_INT, 0 },  /* configured exit duration, not measured */
	{ "PipelineParallel", R_PARAM, T_INT, 0 },
	{ "TensorParallel", R_PARAM, T_INT, 0 },
	{ "Tasks/Node", R_PARAM, T_INT, 0 },
	{ "Threads/Task", R_PARAM, T_INT, 0 },
	{ "Workers", R_PARAM, T_INT, 0 },
	{ "ChannelLast", R_PARAM, T_BOOL, 0 },
	{ "TrainOptim", R_PARAM, T_BOOL, 0 },
	{ "ComplexMixedPrecision", R_PARAM, T_BOOL, 0 },
	{ "ParticleShards", R_PARAM, T_INT, 0 },
	{ "ModelParam (Million)", R_PARAM, T_NUM, 0 },
	{ "ModelSize (MB)", R_PARAM, T_NUM, 0 },
	{ "Particles", R_PARAM, T_INT, 0 },
	{ "Particles/shard", R_PARAM, T_NUM, 0 },
	{ "MicroBatchSize", R_PARAM, T_INT, 0 },
	{ "GAS", R_PARAM, T_INT, 0 },
	{ "Epochs", R_PARAM, T_INT, 0 },
	{ "TrainTime/Epoch (min)", R_PARAM, T_NUM, 1 },
	{ "TotalEpochTime (s)", R_PARAM, T_NUM, 1 },
	{ "TotalComputeTime (s)", R_PARAM, T_NUM, 1 },
	{ "TotalMonitorTime (s)", R_PARAM, T_NUM, 1 },
	{ "TotalCheckpointTime (s)", R_PARAM, T_NUM, 1 },
	{ "Timesteps", R_PARAM, T_INT, 1 },
	{ "Timesteps/second", R_PARAM, T_NUM, 1 },
	{ "PeakFwdMem (MB)", R_PARAM, T_NUM, 1 },
	{ "PersistentMem (MB)", R_PARAM, T_NUM, 1 },
	{ "ActivationMem (MB)", R_PARAM, T_NUM, 1 },
	{ "TFLOPs", R_PARAM, T_NUM, 1 },  /* FNO: TFLOP per epoch, a count */
};

/* Columns that JUBE may print with unquoted ',' inside (jube.c). */
static const struct jube_absorb absorb_cols[] = {
	{ "args_starter", 0, 0 },
	{ "args_exec", 0, 0 },
	{ "Energy/Device(Wh)", '[', ']' },
	{ "Energy_counter/Device(Wh)", '[', ']' },
	{ "Grid", '(', ')' },
};

enum kind {
	K_LLM_GPU,
	K_LLM_IPU,
	K_RESNET_TF,
	K_IMGCLS_TORCH,
	K_FNO,
	K_FNO_EVAL
};

struct caraml_ctx {
	struct ingest_file *f;
	enum kind kind;
	int col[R_COUNT];                 /* column index of each role, -1 absent */
	const struct col_def **def;       /* per column, NULL = unknown */
	size_t ncols;
	struct jpwr_resolver res;
	int res_ready;
	long not_found;                   /* energy files not found in this file */
	struct strbuf jube_name;          /* a site's own JUBE benchmark, or empty */
	/* per row scratch */
	struct strbuf bench, key, reason, missing_nan, missing_empty, system, path, msg;
	/* params written as JSON text directly (jtext.h): a jansson object
	 * per row, dumped again by the sink, was a third of this parser */
	struct jtext_obj params;
	struct strbuf params_text;
	/* params_plan(): per column its param key (NULL: not a param), the
	 * key's JSON text "key": in pkeys at pkey[i], pkeylen[i] bytes */
	const char **pname;
	size_t *pkey, *pkeylen;
	struct strbuf pkeys;
	int pdirect;                      /* keys all differ: written directly */
	struct strbuf *pw;                /* where the member being built goes */
	size_t pn;                        /* members written (direct) */
	/* the row's "Energy/Device(Wh)" list summed while params were
	 * filled (list_sum() once per row, not twice) */
	double elist_sum;
	/* energy metric meta as JSON text (run.metrics_meta_json), with and
	 * without the source: a jansson object per metric, dumped again by
	 * the pipeline, was a tenth of this parser */
	struct strbuf meta_src, meta_plain;
};

/* ---- table header ------------------------------------------------------- */

static void params_plan(struct caraml_ctx *c, const struct jube_table *t);

static const struct col_def *find_def(const char *title)
{
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(col_defs); i++)
		if (!strcmp(col_defs[i].title, title))
			return &col_defs[i];
	return NULL;
}

static int table_begin(void *vctx, const struct jube_table *t, struct strbuf *err)
{
	struct caraml_ctx *c = vctx;
	size_t i;

	for (i = 0; i < R_COUNT; i++)
		c->col[i] = -1;
	free(c->def);
	c->ncols = t->ncols;
	c->def = ab_calloc(t->ncols ? t->ncols : 1, sizeof(*c->def));
	for (i = 0; i < t->ncols; i++) {
		const struct col_def *d = find_def(t->cols[i]);
		c->def[i] = d;
		if (d && d->role != R_PARAM && c->col[d->role] < 0)
			c->col[d->role] = (int)i;
	}
	if (c->col[R_SYSTEM] < 0)
		return ingest_fail_at(c->f, err, t->line,
				      "not a CARAML result table: no 'System' column");
	if (c->col[R_TOKENS] >= 0)
		c->kind = c->col[R_IPU_REPLICA] >= 0 ? K_LLM_IPU : K_LLM_GPU;
	else if (c->col[R_IMAGES] >= 0)
		c->kind = c->col[R_EPOCH] >= 0 || c->col[R_PRECISION] >= 0 ? K_IMGCLS_TORCH
									   : K_RESNET_TF;
	else if (c->col[R_STEPS] >= 0)
		c->kind = K_FNO;
	else if (c->col[R_PROBLEM] >= 0 && c->col[R_COMPILE_TIME] >= 0)
		c->kind = K_FNO_EVAL;
	else
		return ingest_fail_at(c->f, err, t->line,
				      "unknown CARAML table: no 'Tokens/second', 'Images/second' "
				      "or 'TrainTimesteps/second' column");
	params_plan(c, t);
	return 0;
}

/* ---- cell helpers --------------------------------------------------------- */

enum cell_state {
	CELL_OK = 0,
	CELL_ABSENT,   /* no such column */
	CELL_EMPTY,
	CELL_NAN
};

static const char *cell_of(struct caraml_ctx *c, char *const *cells, enum col_role role)
{
	return c->col[role] >= 0 ? cells[c->col[role]] : NULL;
}

static enum cell_state classify(const char *v)
{
	double d;
	enum num_kind k;

	if (!v)
		return CELL_ABSENT;
	if (!*v)
		return CELL_EMPTY;
	k = ingest_parse_double(v, strlen(v), &d);
	return k == NUM_NAN || k == NUM_INF ? CELL_NAN : CELL_OK;
}

static void printable(struct strbuf *sb, const char *v)
{
	strbuf_reset(sb);
	strbuf_add_printable(sb, v, strlen(v), 40);
}

/* Parse a numeric cell; *out = NAN when missing.  Fails on text. */
static int num_cell(struct caraml_ctx *c, long line, const char *title, const char *v,
		    int integer, double *out, struct strbuf *err)
{
	double d;
	enum num_kind k;

	*out = NAN;
	if (!v || !*v)
		return 0;
	k = ingest_parse_double(v, strlen(v), &d);
	if (k == NUM_NAN || k == NUM_INF || k == NUM_EMPTY)
		return 0;
	if (k != NUM_OK) {
		printable(&c->msg, v);
		return ingest_fail_at(c->f, err, line, "'%s' is not a number: '%s'", title,
				      c->msg.buf);
	}
	if (integer && d != floor(d)) {
		printable(&c->msg, v);
		return ingest_fail_at(c->f, err, line, "'%s' is not an integer: '%s'", title,
				      c->msg.buf);
	}
	*out = d;
	return 0;
}

static int num_role(struct caraml_ctx *c, long line, char *const *cells, enum col_role role,
		    double *out, struct strbuf *err)
{
	int i = c->col[role];

	*out = NAN;
	if (i < 0)
		return 0;
	return num_cell(c, line, c->def[i]->title, cells[i], c->def[i]->type == T_INT, out, err);
}

static long as_count(double d)
{
	return isfinite(d) && d > 0 && d < (double)LONG_MAX ? (long)d : 0;
}

/* Sum of a historic "[12.3, 11.9]" list; NAN when it is not one.  With
 * out, the list is also written there as a JSON array of numbers (reals
 * through memo's cache), or nothing when it is not one. */
static double list_sum(const char *v, struct strbuf *out, struct jtext_obj *memo)
{
	const char *p = v;
	double sum = 0;
	size_t mark = out ? out->len : 0, n = 0;

	while (*p == ' ')
		p++;
	if (*p != '[')
		return NAN;
	if (out)
		strbuf_addch(out, '[');
	p++;
	for (;;) {
		const char *q = p;
		double d;
		while (*q && *q != ',' && *q != ']')
			q++;
		if (!*q || ingest_parse_double(p, (size_t)(q - p), &d) != NUM_OK ||
		    !isfinite(d)) {
			if (out)
				strbuf_setlen(out, mark);
			return NAN;
		}
		if (out) {
			if (n++)
				strbuf_addch(out, ',');
			jtext_real_cached(memo, out, d);
		}
		sum += d;
		if (*q == ']')
			break;
		p = q + 1;
	}
	if (out)
		strbuf_addch(out, ']');
	return sum;
}

/*
 * Params of one row, one member at a time: param_begin(), the value's
 * text appended to c->pw, then param_end() (kept) or param_drop().
 * Where the table's param keys are all distinct (c->pdirect), members go
 * straight into c->params_text as "key":value; else through c->params
 * (a key set again replaces its value in place, as json_object_set).
 * The bytes are json_dumps' either way.
 */
static size_t param_begin(struct caraml_ctx *c, size_t col)
{
	size_t mark = c->pw->len;

	if (c->pdirect) {
		if (c->pn)
			strbuf_addch(c->pw, ',');
		strbuf_add(c->pw, c->pkeys.buf + c->pkey[col], c->pkeylen[col]);
	}
	(void)col;
	return mark;
}

static void param_end(struct caraml_ctx *c, size_t col, size_t mark)
{
	if (c->pdirect)
		c->pn++;
	else
		jtext_obj_put(&c->params, c->pname[col], strlen(c->pname[col]), mark);
}

static void param_drop(struct caraml_ctx *c, size_t mark)
{
	strbuf_setlen(c->pw, mark);
}

/* a text value, left out when it is not UTF-8 (json_string refuses it) */
static void param_str(struct caraml_ctx *c, size_t col, const char *v)
{
	size_t mark = param_begin(c, col);

	if (jtext_str_utf8(c->pw, v, strlen(v)) < 0)
		param_drop(c, mark);
	else
		param_end(c, col, mark);
}

static int param_skipped(const struct caraml_ctx *c, const struct col_def *d)
{
	return d && (d->role == R_JOBID || d->role == R_SYSTEM || d->role == R_NODES ||
		     d->role == R_DEVICES || d->role == R_GBS || d->role == R_LBS ||
		     d->role == R_TOKENS || d->role == R_IMAGES || d->role == R_STEPS ||
		     d->role == R_TFLOPS || d->role == R_TIME_ITER || d->role == R_PRECISION ||
		     d->role == R_ENERGY_GPU || d->role == R_ENERGY_TOTAL ||
		     d->role == R_TRAIN_TIME ||
		     (d->role == R_COMPILE_TIME && c->kind == K_FNO_EVAL));
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Once per table: which columns become params, under which key (a key
 * that is not UTF-8 never does: json_object_set refuses it), the key's
 * JSON text, and whether all keys differ (then members are written
 * directly, in column order).
 */
static void params_plan(struct caraml_ctx *c, const struct jube_table *t)
{
	const char **v = ab_malloc((t->ncols ? t->ncols : 1) * sizeof(*v));
	size_t i, n = 0;

	c->pname = ab_realloc(c->pname, (t->ncols ? t->ncols : 1) * sizeof(*c->pname));
	c->pkey = ab_realloc(c->pkey, (t->ncols ? t->ncols : 1) * sizeof(*c->pkey));
	c->pkeylen = ab_realloc(c->pkeylen, (t->ncols ? t->ncols : 1) * sizeof(*c->pkeylen));
	strbuf_reset(&c->pkeys);
	for (i = 0; i < t->ncols; i++) {
		const struct col_def *d = c->def[i];
		const char *key = d && d->role == R_ID ? "jube_id" : t->cols[i];

		c->pkey[i] = c->pkeys.len;
		c->pkeylen[i] = 0;
		c->pname[i] = NULL;
		if (param_skipped(c, d) || !jtext_utf8_valid(key, strlen(key)))
			continue;
		c->pname[i] = key;
		jtext_str(&c->pkeys, key, strlen(key));
		strbuf_addch(&c->pkeys, ':');
		c->pkeylen[i] = c->pkeys.len - c->pkey[i];
		v[n++] = key;
	}
	qsort(v, n, sizeof(*v), cmp_name);
	c->pdirect = 1;
	for (i = 1; i < n; i++)
		if (!strcmp(v[i], v[i - 1]))
			c->pdirect = 0;
	free(v);
}

/* Parameters: every column but the ones that became run fields. */
static int fill_params(struct caraml_ctx *c, const struct jube_table *t, long line,
		       char *const *cells, struct strbuf *err)
{
	size_t i, mark;

	c->elist_sum = NAN;
	c->pn = 0;
	c->pw = c->pdirect ? &c->params_text : &c->params.vals;
	strbuf_reset(&c->params_text);
	if (c->pdirect)
		strbuf_addch(&c->params_text, '{');
	for (i = 0; i < t->ncols; i++) {
		const struct col_def *d = c->def[i];
		const char *v = cells[i];
		double num;
		int rc;

		if (!c->pname[i] || !*v)
			continue;
		if (!d || d->type == T_TEXT) {
			if (d && d->role == R_ENERGY_LIST) {
				double sum;
				mark = param_begin(c, i);
				sum = list_sum(v, c->pw, &c->params);
				if ((int)i == c->col[R_ENERGY_LIST])
					c->elist_sum = sum;
				if (isfinite(sum)) {
					param_end(c, i, mark); /* kept as an array of numbers */
					continue;
				}
				param_drop(c, mark);
			}
			param_str(c, i, v);
			continue;
		}
		if (d->type == T_BOOL) {
			if (!strcmp(v, "True") || !strcmp(v, "true") || !strcmp(v, "False") ||
			    !strcmp(v, "false")) {
				mark = param_begin(c, i);
				strbuf_addstr(c->pw, *v == 'T' || *v == 't' ? "true" : "false");
				param_end(c, i, mark);
			} else {
				param_str(c, i, v);
			}
			continue;
		}
		rc = num_cell(c, line, d->title, v, d->type == T_INT, &num, err);
		if (rc < 0)
			return rc;
		if (isnan(num))
			continue;
		mark = param_begin(c, i);
		if (d->role == R_ID || (d->type == T_INT && fabs(num) < 9e15))
			jtext_int(c->pw, (long long)num);
		else
			jtext_real(c->pw, num);
		param_end(c, i, mark);
	}
	if (c->pdirect)
		strbuf_addch(&c->params_text, '}');
	else
		jtext_obj_dump(&c->params, &c->params_text);
	return 0;
}

/* Note every measured column that is nan or empty (for the reason). */
static void note_missing(struct caraml_ctx *c, const struct jube_table *t, char *const *cells)
{
	size_t i;

	strbuf_reset(&c->missing_nan);
	strbuf_reset(&c->missing_empty);
	for (i = 0; i < t->ncols; i++) {
		enum cell_state s;
		struct strbuf *to;

		if (!c->def[i] || !c->def[i]->measured)
			continue;
		s = classify(cells[i]);
		if (c->def[i]->type == T_TEXT && s == CELL_NAN)
			s = !strcmp(cells[i], "nan") ? CELL_NAN : CELL_OK;
		if (s != CELL_NAN && s != CELL_EMPTY)
			continue;
		to = s == CELL_NAN ? &c->missing_nan : &c->missing_empty;
		strbuf_addf(to, "%s%s", to->len ? ", " : "", t->cols[i]);
	}
}

/* "llm-gpt-800M": lower-case model, size as written; only [A-Za-z0-9._-]. */
static void add_name_part(struct strbuf *sb, const char *s, int lower)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (isalnum(ch) || ch == '.' || ch == '_' || ch == '-')
			strbuf_addch(sb, lower ? tolower(ch) : ch);
		else
			strbuf_addch(sb, '-');
	}
}

static void bench_name(struct caraml_ctx *c, char *const *cells)
{
	const char *model = cell_of(c, cells, R_MODEL), *size = cell_of(c, cells, R_MODEL_SIZE);
	const char *problem = cell_of(c, cells, R_PROBLEM);

	strbuf_reset(&c->bench);
	if (c->jube_name.len) {
		/* a site's own JUBE benchmark: its name, then Model/ModelSize */
		add_name_part(&c->bench, c->jube_name.buf, 0);
		if (model && *model) {
			strbuf_addch(&c->bench, '-');
			add_name_part(&c->bench, model, 1);
		}
		if (size && *size) {
			strbuf_addch(&c->bench, '-');
			add_name_part(&c->bench, size, 0);
		}
		return;
	}
	switch (c->kind) {
	case K_LLM_GPU:
	case K_LLM_IPU:
		strbuf_addstr(&c->bench, "llm");
		if (model && *model) {
			strbuf_addch(&c->bench, '-');
			add_name_part(&c->bench, model, 1);
		}
		if (size && *size) {
			strbuf_addch(&c->bench, '-');
			add_name_part(&c->bench, size, 0);
		}
		break;
	case K_RESNET_TF:
		strbuf_addstr(&c->bench, "resnet50");
		break;
	case K_IMGCLS_TORCH:
		if (model && *model)
			add_name_part(&c->bench, model, 1);
		else
			strbuf_addstr(&c->bench, "imgcls");
		strbuf_addstr(&c->bench, "-torch");
		break;
	case K_FNO:
	case K_FNO_EVAL:
		strbuf_addstr(&c->bench, "fno");
		if (problem && *problem) {
			strbuf_addch(&c->bench, '-');
			add_name_part(&c->bench, problem, 0);
		}
		if (c->kind == K_FNO_EVAL)
			strbuf_addstr(&c->bench, "-compile");
		break;
	}
}

/* ---- metrics -------------------------------------------------------------- */

#define MAX_METRICS 16

struct metrics {
	struct ingest_metric m[MAX_METRICS];
	const char *meta[MAX_METRICS];   /* JSON text or NULL (run.metrics_meta_json) */
	size_t n;
};

/* "tokens/Wh" -> "J/token" (a read-only table: the units work_done() uses) */
static const char *per_unit_name(const char *eff_unit)
{
	static const char *const map[][2] = {
		{ "tokens/Wh", "J/token" }, { "images/Wh", "J/image" }, { "samples/Wh", "J/sample" },
	};
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(map); i++)
		if (!strcmp(eff_unit, map[i][0]))
			return map[i][1];
	return "J/unit";
}

static void add_metric(struct metrics *ms, const char *name, double v, const char *unit,
		       const char *meta)
{
	if (!isfinite(v) || ms->n == MAX_METRICS)
		return;
	ms->m[ms->n].name = name;
	ms->m[ms->n].value = v;
	ms->m[ms->n].unit = unit;
	ms->m[ms->n].meta = NULL;
	ms->meta[ms->n] = meta;
	ms->n++;
}

/* caraml_energy_meta()'s object as json_dumps (compact, ensure-ascii)
 * writes it: members in insertion order, a text that is not UTF-8 left
 * out as json_string() refuses it */
static void energy_meta_text(struct strbuf *out, const char *boundary, const char *source)
{
	int n = 0;

	strbuf_reset(out);
	strbuf_addch(out, '{');
	if (boundary && jtext_utf8_valid(boundary, strlen(boundary))) {
		strbuf_addstr(out, "\"boundary\":");
		jtext_str(out, boundary, strlen(boundary));
		n++;
	}
	if (source && jtext_utf8_valid(source, strlen(source))) {
		strbuf_addstr(out, n ? ",\"source\":" : "\"source\":");
		jtext_str(out, source, strlen(source));
	}
	strbuf_addch(out, '}');
}

json_t *caraml_energy_meta(const char *boundary, const char *source)
{
	json_t *j = json_object();

	if (boundary)
		json_object_set_new(j, "boundary", json_string(boundary));
	if (source)
		json_object_set_new(j, "source", json_string(source));
	return j;
}

/* ---- one row ---------------------------------------------------------------- */

struct row_energy {
	struct jpwr_energy e;
	struct jpwr_power p;
	int have_e;
	double wh, per_dev, duration_s;
	const char *boundary;
	const char *source;
};

/* Resolve and read the row's energy file; warnings, never errors. */
static void load_energy(struct caraml_ctx *c, long line, const char *value, long nodes,
			struct row_energy *re)
{
	struct strbuf err = STRBUF_INIT;

	if (!c->res_ready) {
		jpwr_resolver_init(&c->res, c->f);
		c->res_ready = 1;
	}
	if (!jpwr_resolve(&c->res, value, &c->path)) {
		/* one line each for the first few, then a count at the end */
		if (++c->not_found <= MAX_NOT_FOUND_WARNINGS)
			ingest_warn(c->f, line,
				    "energy file '%s' not found; run stored without energy", value);
		return;
	}
	if (jpwr_energy_read(c->path.buf, &re->e, &err) < 0) {
		ingest_warn(c->f, line, "energy file not used: %s", err.buf);
		strbuf_release(&err);
		return;
	}
	if (!re->e.boundary) {
		ingest_warn(c->f, line, "energy file '%s' has no device columns; not used",
			    c->path.buf);
		return;
	}
	if (nodes > 0 && re->e.nodes != nodes) {
		ingest_warn(c->f, line,
			    "energy file '%s' covers %ld node%s, the run used %ld; not used",
			    c->path.buf, re->e.nodes, re->e.nodes == 1 ? "" : "s", nodes);
		return;
	}
	re->have_e = 1;
	re->wh = re->e.wh;
	re->per_dev = re->e.devices > 0 ? re->e.wh / (double)re->e.devices : NAN;
	re->boundary = re->e.boundary;
	re->source = ingest_basename(c->path.buf);
	if (jpwr_power_find(c->path.buf, &re->p, &err) < 0) {
		ingest_warn(c->f, line, "power series not used: %s", err.buf);
		jpwr_power_release(&re->p);
		jpwr_power_init(&re->p);
	} else if (re->p.n && isfinite(re->p.t_start) && re->p.t_end > re->p.t_start) {
		re->duration_s = re->p.t_end - re->p.t_start;
	}
	strbuf_release(&err);
}

/* The numbers of one row; NAN where a column is absent, empty or nan. */
struct row_vals {
	double nodes, devices, gbs, lbs, dp, thr, tflops, t_iter, iters, runtime_s;
	double runtime_fno, e_gpu, e_total, train_steps, train_time, epoch;
	enum col_role headline;     /* the column holding the headline value */
	const char *unit;           /* its unit */
	int is_117m;                /* Graphcore GPT-2 117M: sequences of 1024 */
};

static int parse_vals(struct caraml_ctx *c, long line, char *const *cells, struct row_vals *v,
		      struct strbuf *err)
{
	static const struct { enum col_role role; size_t off; } map[] = {
		{ R_NODES, offsetof(struct row_vals, nodes) },
		{ R_DEVICES, offsetof(struct row_vals, devices) },
		{ R_GBS, offsetof(struct row_vals, gbs) },
		{ R_LBS, offsetof(struct row_vals, lbs) },
		{ R_DP, offsetof(struct row_vals, dp) },
		{ R_TFLOPS, offsetof(struct row_vals, tflops) },
		{ R_TIME_ITER, offsetof(struct row_vals, t_iter) },
		{ R_ITERS, offsetof(struct row_vals, iters) },
		{ R_RUNTIME_S, offsetof(struct row_vals, runtime_s) },
		{ R_RUNTIME_MIN_FNO, offsetof(struct row_vals, runtime_fno) },
		{ R_ENERGY_GPU, offsetof(struct row_vals, e_gpu) },
		{ R_ENERGY_TOTAL, offsetof(struct row_vals, e_total) },
		{ R_TRAIN_STEPS, offsetof(struct row_vals, train_steps) },
		{ R_TRAIN_TIME, offsetof(struct row_vals, train_time) },
		{ R_EPOCH, offsetof(struct row_vals, epoch) },
	};
	const char *size = cell_of(c, cells, R_MODEL_SIZE);
	double job;
	size_t i;
	int rc;

	switch (c->kind) {
	case K_LLM_GPU: v->headline = R_TOKENS; v->unit = "tokens/s"; break;
	/* The Graphcore "Tokens/second" column is GBS / step_time, i.e.
	 * sequences per second (the GPT-2 trainer logs samples/sec). */
	case K_LLM_IPU: v->headline = R_TOKENS; v->unit = "samples/s"; break;
	case K_RESNET_TF:
	case K_IMGCLS_TORCH: v->headline = R_IMAGES; v->unit = "images/s"; break;
	case K_FNO: v->headline = R_STEPS; v->unit = "samples/s"; break;
	case K_FNO_EVAL: v->headline = R_COMPILE_TIME; v->unit = "s"; break;
	}
	v->is_117m = c->kind == K_LLM_IPU && size && !strcmp(size, "117M");
	if ((rc = num_role(c, line, cells, R_JOBID, &job, err)) < 0 ||
	    (rc = num_role(c, line, cells, v->headline, &v->thr, err)) < 0)
		return rc;
	for (i = 0; i < AB_ARRAY_SIZE(map); i++) {
		rc = num_role(c, line, cells, map[i].role, (double *)((char *)v + map[i].off), err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* System, benchmark, counts, framework, precision, dedupe key. */
static void set_identity(struct caraml_ctx *c, char *const *cells, const struct row_vals *v,
			 struct ingest_run *run)
{
	const char *sys = cell_of(c, cells, R_SYSTEM), *jobid = cell_of(c, cells, R_JOBID);
	const char *tag = caraml_known_tag(sys, strlen(sys)), *size, *mx;
	long dp = as_count(v->dp);

	strbuf_setstr(&c->system, tag ? tag : sys);
	bench_name(c, cells);
	run->system.name = c->system.buf;
	run->suite = "caraml";
	run->benchmark = c->bench.buf;
	run->bench_metric = c->kind == K_FNO_EVAL ? "compile_time" : "throughput";
	run->bench_unit = v->unit;
	run->lower_is_better = c->kind == K_FNO_EVAL;
	run->job_id = jobid && *jobid && classify(jobid) == CELL_OK ? jobid : NULL;
	run->nodes = as_count(v->nodes);
	run->devices = as_count(v->devices);
	run->global_batch = as_count(v->gbs);
	run->local_batch = as_count(v->lbs);
	switch (c->kind) {
	case K_LLM_GPU:
	case K_LLM_IPU:
		run->framework = c->kind == K_LLM_GPU ? "megatron-lm" : "poptorch";
		/* the configs' modelargs: --fp16 (800M, 13B), --bf16 (175B) */
		size = cell_of(c, cells, R_MODEL_SIZE);
		if (c->kind == K_LLM_GPU && size && *size)
			run->precision = !strcmp(size, "175B") ? "bf16" : "fp16";
		/* per data-parallel replica (the tables have no per-device batch) */
		if (!run->local_batch && run->global_batch && dp && run->global_batch % dp == 0)
			run->local_batch = run->global_batch / dp;
		break;
	case K_RESNET_TF:
		run->framework = "tensorflow";
		/* tf_cnn_benchmarks runs with --use_fp16=True on every GPU system */
		if (strcmp(c->system.buf, "GC200"))
			run->precision = "fp16";
		break;
	case K_IMGCLS_TORCH:
		run->framework = "pytorch";
		run->precision = cell_of(c, cells, R_PRECISION);
		if (run->precision && !*run->precision)
			run->precision = NULL;
		break;
	case K_FNO:
	case K_FNO_EVAL:
		run->framework = "pytorch";
		mx = cell_of(c, cells, R_MIXED);
		if (mx && *mx)
			run->precision = !strcmp(mx, "True") ? "amp" : "fp32";
		break;
	}
	if (run->job_id) {
		/* "caraml|%s|%s|%s|n%ld|d%ld|b%ld", without printf */
		strbuf_setstr(&c->key, "caraml|");
		strbuf_addbuf(&c->key, &c->system);
		strbuf_addch(&c->key, '|');
		strbuf_addstr(&c->key, run->job_id);
		strbuf_addch(&c->key, '|');
		strbuf_addbuf(&c->key, &c->bench);
		strbuf_addstr(&c->key, "|n");
		jtext_int(&c->key, run->nodes);
		strbuf_addstr(&c->key, "|d");
		jtext_int(&c->key, run->devices);
		strbuf_addstr(&c->key, "|b");
		jtext_int(&c->key, run->global_batch);
		run->dedupe_key = c->key.buf;
	}
}

/* A nan or empty headline: a failed run, every missing column named. */
static void set_status(struct caraml_ctx *c, const struct jube_table *t, char *const *cells,
		       const struct row_vals *v, struct ingest_run *run)
{
	int col = c->col[v->headline];

	if (!isnan(v->thr))
		return;
	note_missing(c, t, cells);
	strbuf_reset(&c->reason);
	strbuf_addf(&c->reason, "'%s' is %s", t->cols[col], *cells[col] ? "nan" : "empty");
	if (c->missing_nan.len || c->missing_empty.len) {
		strbuf_addstr(&c->reason, " (");
		if (c->missing_nan.len)
			strbuf_addf(&c->reason, "nan: %s", c->missing_nan.buf);
		if (c->missing_nan.len && c->missing_empty.len)
			strbuf_addstr(&c->reason, "; ");
		if (c->missing_empty.len)
			strbuf_addf(&c->reason, "empty: %s", c->missing_empty.buf);
		strbuf_addch(&c->reason, ')');
	}
	run->status = RUN_FAILED;
	run->excluded_reason = c->reason.buf;
}

static void perf_metrics(struct caraml_ctx *c, const struct row_vals *v,
			 const struct ingest_run *run, struct metrics *ms)
{
	if (c->kind == K_FNO_EVAL) {
		add_metric(ms, "compile_time", v->thr, "s", NULL);
	} else {
		add_metric(ms, "throughput", v->thr, v->unit, NULL);
		if (run->devices)
			add_metric(ms, "throughput_per_device", v->thr / (double)run->devices,
				   v->unit, NULL);
	}
	/* IPU: tokens/s only where the sequence length is known */
	if (v->is_117m)
		add_metric(ms, "throughput_tokens", v->thr * IPU_GPT2_SEQ_LEN, "tokens/s", NULL);
	add_metric(ms, "tflops_per_device", v->tflops, "TFLOP/s", NULL);
	add_metric(ms, "time_per_iteration", v->t_iter, "s", NULL);
	add_metric(ms, "train_time", v->train_time, "s", NULL);
}

/*
 * The work the run did, for units per Wh; NAN when unknown.  dur is the
 * accepted measurement window (NAN when none).
 */
static double work_done(struct caraml_ctx *c, char *const *cells, const struct row_vals *v,
			const struct ingest_run *run, double dur, const char **unit)
{
	const char *dataset = cell_of(c, cells, R_DATASET);

	switch (c->kind) {
	case K_LLM_GPU:
		/* iterations x global batch x sequence length */
		*unit = "tokens/Wh";
		return run->global_batch ? v->iters * (double)run->global_batch * LLM_SEQ_LEN : NAN;
	case K_LLM_IPU:
		/* no iteration count in the table: the steady rate over the
		 * measured window (= throughput / average power) */
		*unit = "tokens/Wh";
		return v->is_117m ? v->thr * IPU_GPT2_SEQ_LEN * dur : NAN;
	case K_IMGCLS_TORCH:
		*unit = "images/Wh";
		if (dataset && !strncmp(dataset, "Synthetic", 9) && isfinite(v->epoch))
			return v->epoch * IMGCLS_IMAGES_PER_EPOCH;
		return v->thr * dur;
	case K_RESNET_TF:
		/* no image count in the table: images/s over the measured
		 * runtime, the window jpwr integrated over */
		*unit = "images/Wh";
		return v->thr * dur;
	case K_FNO:
		*unit = "samples/Wh";
		return v->train_steps;
	case K_FNO_EVAL:
		break;
	}
	*unit = NULL;
	return NAN;
}

static void energy_metrics(struct caraml_ctx *c, long line, char *const *cells,
			   const struct row_vals *v, const struct ingest_run *run,
			   struct row_energy *re, struct metrics *ms)
{
	const char *efile = cell_of(c, cells, R_ENERGY_FILE), *unit = NULL;
	double dur, work, avg_power = NAN;

	if (run->status != RUN_OK)
		return;
	if (isfinite(v->e_total)) {
		/* FNO: the table's own columns, from the pynvml:N lines of job.out */
		re->wh = v->e_total;
		re->per_dev = v->e_gpu;
		re->boundary = JPWR_BOUNDARY_GPU;
		re->source = "table";
	} else if (efile && *efile && classify(efile) != CELL_NAN) {
		load_energy(c, line, efile, run->nodes, re);
	} else if (c->col[R_ENERGY_LIST] >= 0 && *cells[c->col[R_ENERGY_LIST]]) {
		/* the Aug 2024 list column: one rank's view of its node's GPUs
		 * (summed by fill_params()) */
		double s = c->elist_sum;
		if (isfinite(s) && run->nodes == 1) {
			re->wh = s;
			re->boundary = JPWR_BOUNDARY_GPU;
			re->source = "table";
		}
	}
	if (!isfinite(re->wh))
		return;
	/* the window: the power series' span, else a measured runtime (the
	 * LLM tables' Runtime(min) is the configured limit, not a measurement) */
	dur = re->duration_s;
	if (!isfinite(dur) && (c->kind == K_RESNET_TF || c->kind == K_IMGCLS_TORCH))
		dur = v->runtime_s;
	if (!isfinite(dur) && c->kind == K_FNO)
		dur = v->runtime_fno * 60.0;
	if (isfinite(dur) && dur > 0) {
		double w = re->wh * 3600.0 / dur;
		long ndev = re->have_e && re->e.devices ? re->e.devices : run->devices;
		if (ndev > 0 && w / (double)ndev > MAX_PLAUSIBLE_W_PER_DEVICE) {
			ingest_warn(c->f, line,
				    "average power %.0f W per device is implausible (duration %g s); "
				    "not stored", w / (double)ndev, dur);
			dur = NAN;
		} else {
			avg_power = w;
		}
	} else {
		dur = NAN;
	}
	energy_meta_text(&c->meta_src, re->boundary, re->source);
	energy_meta_text(&c->meta_plain, re->boundary, NULL);
	add_metric(ms, "energy", re->wh, "Wh", c->meta_src.buf);
	add_metric(ms, "energy_per_device", re->per_dev, "Wh", c->meta_plain.buf);
	add_metric(ms, "avg_power", avg_power, "W", c->meta_plain.buf);
	if (re->have_e && re->p.n)
		add_metric(ms, "peak_power", re->p.peak_w, "W", c->meta_plain.buf);
	work = work_done(c, cells, v, run, dur, &unit);
	if (unit && isfinite(work) && re->wh > 0) {
		add_metric(ms, "energy_efficiency", work / re->wh, unit, c->meta_plain.buf);
		/* the same figure the other way round: joules per unit of work */
		if (work > 0)
			add_metric(ms, "energy_per_unit", re->wh * 3600.0 / work,
				   per_unit_name(unit), c->meta_plain.buf);
	}
}

static int row(void *vctx, const struct jube_table *t, long line, char *const *cells,
	       struct strbuf *err)
{
	struct caraml_ctx *c = vctx;
	struct ingest_run run;
	struct row_vals v;
	struct metrics ms = { .n = 0 };
	struct row_energy re;
	struct strbuf started = STRBUF_INIT, finished = STRBUF_INIT;
	const char *sys = cell_of(c, cells, R_SYSTEM);
	int64_t run_id = 0;
	int rc;

	memset(&run, 0, sizeof(run));
	memset(&v, 0, sizeof(v));
	memset(&re, 0, sizeof(re));
	jpwr_energy_init(&re.e);
	jpwr_power_init(&re.p);
	re.wh = re.per_dev = re.duration_s = NAN;
	if (!sys || !*sys) {
		rc = ingest_fail_at(c->f, err, line, "empty 'System'");
		goto out;
	}
	if ((rc = parse_vals(c, line, cells, &v, err)) < 0 ||
	    (rc = fill_params(c, t, line, cells, err)) < 0)
		goto out;
	run.line = line;
	run.params_json = c->params_text.buf;
	set_identity(c, cells, &v, &run);
	set_status(c, t, cells, &v, &run);
	perf_metrics(c, &v, &run, &ms);
	energy_metrics(c, line, cells, &v, &run, &re, &ms);
	if (re.have_e && re.p.n && isfinite(re.p.t_start)) {
		ingest_iso8601(&started, re.p.t_start);
		ingest_iso8601(&finished, re.p.t_end);
		run.started = started.buf;
		run.finished = finished.buf;
	}
	run.metrics = ms.m;
	run.metrics_meta_json = ms.meta;
	run.nmetrics = ms.n;
	rc = ingest_emit_run(c->f, &run, &run_id, err);
	if (rc == 0 && re.have_e && re.p.n)
		rc = jpwr_power_emit(c->f, run_id, &re.p, err);
	if (rc > 0)
		rc = 0; /* the same run from another table: stored once */
out:
	jpwr_energy_release(&re.e);
	jpwr_power_release(&re.p);
	strbuf_release(&started);
	strbuf_release(&finished);
	jtext_obj_clear(&c->params);
	return rc;
}

/* ---- the format -------------------------------------------------------------- */

/*
 * The JUBE benchmark a table in <outpath>/<id>/result/ belongs to, from
 * <id>/configuration.xml, unless it is one of CARAML's own (their tables
 * keep the names above: llm-gpt-800M, resnet50, ...).
 */
static void site_jube_name(const char *path, struct strbuf *out)
{
	static const char *const caraml[] = { "llm_benchmark", "resnet50", "image_classification",
					      "fno", "operator" };
	struct strbuf dir = STRBUF_INIT, conf = STRBUF_INIT, why = STRBUF_INIT;
	char buf[65536];
	const char *p, *q;
	size_t n = 0, i;
	FILE *fp;

	ingest_dirname(&dir, path);
	if (strcmp(ingest_basename(dir.buf), "result"))
		goto out;
	ingest_dirname(&conf, dir.buf);
	strbuf_addstr(&conf, "/configuration.xml");
	fp = ab_fopen_input(conf.buf, &why);
	if (!fp)
		goto out;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	p = strstr(buf, "<benchmark ");
	p = p ? strstr(p, " name=\"") : NULL;
	if (!p || !(q = strchr(p + 7, '"')) || q == p + 7)
		goto out;
	strbuf_add(out, p + 7, (size_t)(q - p - 7));
	for (i = 0; i < AB_ARRAY_SIZE(caraml); i++)
		if (!strncmp(out->buf, caraml[i], strlen(caraml[i])))
			strbuf_reset(out);
out:
	strbuf_release(&dir);
	strbuf_release(&conf);
	strbuf_release(&why);
}

static int caraml_detect(const char *path, const unsigned char *head, size_t len)
{
	return jube_detect(head, len);
}

static int caraml_parse(struct ingest_file *f, struct strbuf *err)
{
	struct caraml_ctx c;
	struct jube_ops ops;
	int rc;

	memset(&c, 0, sizeof(c));
	c.f = f;
	strbuf_init(&c.bench, 0);
	strbuf_init(&c.key, 0);
	strbuf_init(&c.reason, 0);
	strbuf_init(&c.missing_nan, 0);
	strbuf_init(&c.missing_empty, 0);
	strbuf_init(&c.system, 0);
	strbuf_init(&c.path, 0);
	strbuf_init(&c.msg, 0);
	strbuf_init(&c.jube_name, 0);
	jtext_obj_init(&c.params);
	strbuf_init(&c.params_text, 0);
	strbuf_init(&c.meta_src, 0);
	strbuf_init(&c.meta_plain, 0);
	strbuf_init(&c.pkeys, 0);
	site_jube_name(f->path, &c.jube_name);
	ops.absorb = absorb_cols;
	ops.nabsorb = AB_ARRAY_SIZE(absorb_cols);
	ops.begin = table_begin;
	ops.row = row;
	ops.ctx = &c;
	rc = jube_read(f, &ops, err);
	if (rc == 0 && c.not_found > MAX_NOT_FOUND_WARNINGS)
		ingest_warn(f, 0, "%ld more energy files not found; those runs stored without energy",
			    c.not_found - MAX_NOT_FOUND_WARNINGS);
	if (c.res_ready)
		jpwr_resolver_release(&c.res);
	free(c.def);
	strbuf_release(&c.bench);
	strbuf_release(&c.key);
	strbuf_release(&c.reason);
	strbuf_release(&c.missing_nan);
	strbuf_release(&c.missing_empty);
	strbuf_release(&c.system);
	strbuf_release(&c.path);
	strbuf_release(&c.msg);
	strbuf_release(&c.jube_name);
	jtext_obj_release(&c.params);
	strbuf_release(&c.params_text);
	strbuf_release(&c.meta_src);
	strbuf_release(&c.meta_plain);
	strbuf_release(&c.pkeys);
	free(c.pname);
	free(c.pkey);
	free(c.pkeylen);
	return rc;
}

const struct ingest_format ingest_fmt_jube_table = {
	"jube-table", 0, caraml_detect, caraml_parse
};
