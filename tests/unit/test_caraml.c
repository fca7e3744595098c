/*
 * test_caraml.c - CARAML ingest: JUBE tables (jube.c), their mapping to
 * runs (caraml.c) and jpwr energy/power files (jpwr.c).
 *
 * Runs go through ingest_paths() into a capturing sink that copies every
 * record, so the tests see exactly what the database would get.  Sample
 * files come from $AB_SAMPLES/caraml (skipped when absent); the fixtures
 * under tests/fixtures/caraml are always there.
 */
#include "unit.h"
#include "ingest/caraml_priv.h"

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIX "tests/fixtures/caraml"

struct cap_metric {
	char *name, *unit, *meta;
	double v;
};

struct cap_run {
	char *system, *vendor, *suite, *bench, *unit, *job, *reason, *precision, *framework;
	char *params, *started;
	char *raw_params;   /* params_json exactly as handed over */
	int status;
	long line, nodes, devices, gbs, lbs;
	struct cap_metric m[20];
	size_t nm;
	long power;
};

struct cap {
	struct ingest_sink sink;
	struct cap_run *runs;
	size_t n;
	char **keys;
	size_t nkeys;
	long power, dups;
	struct strbuf warnings, rejected;
	long nwarnings;
};

static char *dup_or_null(const char *s)
{
	return s ? ab_strdup(s) : NULL;
}

static char *json_or_null(json_t *j)
{
	return j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
}

/* a meta handed as JSON text, keys sorted like json_or_null() */
static char *text_sorted(const char *text)
{
	json_t *j = json_loads(text, 0, NULL);
	char *out;

	assert_non_null(j);
	out = json_or_null(j);
	json_decref(j);
	return out;
}

/* params as a parser hands them: JSON text (params_json) or a value */
static char *params_of(const struct ingest_run *r)
{
	json_t *j;
	char *s;

	if (!r->params_json)
		return json_or_null(r->params);
	j = json_loads(r->params_json, 0, NULL);
	assert_non_null(j);
	s = json_or_null(j);
	json_decref(j);
	return s;
}

static int cap_begin(void *self, const struct ingest_source *src, struct strbuf *err)
{
	return 0;
}

static int cap_run_fn(void *self, const struct ingest_run *r, int64_t *run_id, struct strbuf *err)
{
	struct cap *c = self;
	struct cap_run *x;
	size_t i;

	if (r->dedupe_key) {
		for (i = 0; i < c->nkeys; i++) {
			if (!strcmp(c->keys[i], r->dedupe_key)) {
				c->dups++;
				*run_id = 0;
				return 1;
			}
		}
		c->keys = ab_realloc(c->keys, (c->nkeys + 1) * sizeof(*c->keys));
		c->keys[c->nkeys++] = ab_strdup(r->dedupe_key);
	}
	c->runs = ab_realloc(c->runs, (c->n + 1) * sizeof(*c->runs));
	x = &c->runs[c->n++];
	memset(x, 0, sizeof(*x));
	x->system = dup_or_null(r->system.name);
	x->vendor = dup_or_null(r->system.vendor);
	x->suite = dup_or_null(r->suite);
	x->bench = dup_or_null(r->benchmark);
	x->unit = dup_or_null(r->bench_unit);
	x->job = dup_or_null(r->job_id);
	x->reason = dup_or_null(r->excluded_reason);
	x->precision = dup_or_null(r->precision);
	x->framework = dup_or_null(r->framework);
	x->started = dup_or_null(r->started);
	x->params = params_of(r);
	x->raw_params = dup_or_null(r->params_json);
	x->status = r->status;
	x->line = r->line;
	x->nodes = r->nodes;
	x->devices = r->devices;
	x->gbs = r->global_batch;
	x->lbs = r->local_batch;
	assert_true(r->nmetrics <= AB_ARRAY_SIZE(x->m));
	for (i = 0; i < r->nmetrics; i++) {
		size_t k;
		for (k = 0; k < i; k++) /* the database's primary key */
			assert_string_not_equal(r->metrics[k].name, r->metrics[i].name);
		x->m[i].name = ab_strdup(r->metrics[i].name);
		x->m[i].unit = ab_strdup(r->metrics[i].unit);
		x->m[i].meta = r->metrics_meta_json && r->metrics_meta_json[i] ?
				       text_sorted(r->metrics_meta_json[i]) :
				       json_or_null(r->metrics[i].meta);
		x->m[i].v = r->metrics[i].value;
		assert_true(isfinite(x->m[i].v));
	}
	x->nm = r->nmetrics;
	*run_id = (int64_t)c->n;
	return 0;
}

static int cap_power(void *self, int64_t run_id, const char *device, double t, double w,
		     struct strbuf *err)
{
	struct cap *c = self;

	assert_true(run_id >= 1 && (size_t)run_id <= c->n);
	assert_true(isfinite(t) && isfinite(w) && w >= 0);
	c->runs[run_id - 1].power++;
	c->power++;
	return 0;
}

static int cap_end(void *self, int commit, struct strbuf *err)
{
	return 0;
}

static void cap_notify(void *ctx, enum ingest_event ev, const char *path, const char *msg,
		       const struct ingest_totals *t)
{
	struct cap *c = ctx;

	if (ev == INGEST_EV_WARNING) {
		strbuf_addf(&c->warnings, "%s\n", msg);
		c->nwarnings++;
	} else if (ev == INGEST_EV_REJECTED) {
		strbuf_addf(&c->rejected, "%s\n", msg);
	}
}

static void cap_init(struct cap *c)
{
	memset(c, 0, sizeof(*c));
	c->sink.self = c;
	c->sink.begin = cap_begin;
	c->sink.run = cap_run_fn;
	c->sink.power = cap_power;
	c->sink.end = cap_end;
	strbuf_init(&c->warnings, 0);
	strbuf_init(&c->rejected, 0);
}

static void cap_release(struct cap *c)
{
	size_t i, k;

	for (i = 0; i < c->n; i++) {
		struct cap_run *x = &c->runs[i];
		free(x->system);
		free(x->vendor);
		free(x->suite);
		free(x->bench);
		free(x->unit);
		free(x->job);
		free(x->reason);
		free(x->precision);
		free(x->framework);
		free(x->started);
		free(x->params);
		free(x->raw_params);
		for (k = 0; k < x->nm; k++) {
			free(x->m[k].name);
			free(x->m[k].unit);
			free(x->m[k].meta);
		}
	}
	free(c->runs);
	for (i = 0; i < c->nkeys; i++)
		free(c->keys[i]);
	free(c->keys);
	strbuf_release(&c->warnings);
	strbuf_release(&c->rejected);
}

/* Ingest paths into c; returns ingest_paths()'s status. */
static int run_ingest(struct cap *c, const char *const *paths, size_t n, const char *format)
{
	struct ingest_opts o;
	struct ingest_totals t;
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	const char *roots[8];
	size_t nroots = 0, i;
	int rc;

	memset(&o, 0, sizeof(o));
	for (i = 0; i < n && nroots < AB_ARRAY_SIZE(roots); i++)
		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
			roots[nroots++] = paths[i];
	o.format = format;
	o.roots = roots;
	o.nroots = nroots;
	o.notify = cap_notify;
	o.notify_ctx = c;
	rc = ingest_paths(paths, n, &o, &c->sink, &t, &err);
	strbuf_release(&err);
	return rc;
}

static int ingest1(struct cap *c, const char *path)
{
	return run_ingest(c, &path, 1, NULL);
}

static const struct cap_metric *metric(const struct cap_run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].name, name))
			return &r->m[i];
	return NULL;
}

static double mval(const struct cap_run *r, const char *name)
{
	const struct cap_metric *m = metric(r, name);
	return m ? m->v : NAN;
}

static const char *munit(const struct cap_run *r, const char *name)
{
	const struct cap_metric *m = metric(r, name);
	return m ? m->unit : "(none)";
}

static const struct cap_run *by_job(const struct cap *c, const char *job)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->runs[i].job && !strcmp(c->runs[i].job, job))
			return &c->runs[i];
	return NULL;
}

static void sample_path(struct strbuf *sb, const char *name)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/caraml/%s", unit_samples_dir(), name);
}

#define NEED_SAMPLES() \
	do { \
		if (!unit_samples_dir()) \
			skip(); \
	} while (0)

/* ---- samples: the concrete values ------------------------------- */

static void test_sample_jedi_readme(void **state)
{
	struct cap c;
	struct strbuf p = STRBUF_INIT;
	const struct cap_run *r;

	(void)state;
	NEED_SAMPLES();
	cap_init(&c);
	sample_path(&p, "llm_result_readme_JEDI_real.csv");
	assert_int_equal(ingest1(&c, p.buf), 0);
	assert_int_equal(c.n, 1);
	r = &c.runs[0];
	assert_string_equal(r->suite, "caraml");
	assert_string_equal(r->bench, "llm-gpt-800M");
	assert_string_equal(r->system, "JEDI");
	assert_string_equal(r->job, "3914");
	assert_int_equal(r->status, RUN_OK);
	assert_int_equal(r->nodes, 1);
	assert_int_equal(r->devices, 4);
	assert_int_equal(r->gbs, 2048);
	assert_int_equal(r->lbs, 512); /* GBS / DataParallel */
	assert_int_equal(r->line, 2);
	assert_double_near(mval(r, "throughput"), 158152.80, 1e-12);
	assert_string_equal(munit(r, "throughput"), "tokens/s");
	assert_double_near(mval(r, "throughput_per_device"), 39538.2, 1e-12);
	assert_double_near(mval(r, "tflops_per_device"), 321.65, 1e-12);
	assert_string_equal(munit(r, "tflops_per_device"), "TFLOP/s");
	assert_double_near(mval(r, "time_per_iteration"), 26.52, 1e-12);
	assert_null(metric(r, "energy")); /* CARAML/... path: not on this machine */
	assert_string_equal(r->precision, "fp16");
	assert_string_equal(r->framework, "megatron-lm");
	/* Version stays text; everything unmapped lands in params */
	assert_non_null(strstr(r->params, "\"Version\":\"2024.01\""));
	assert_non_null(strstr(r->params, "\"JobTime\":\"00:34:00\""));
	assert_non_null(strstr(r->params, "\"Iterations\":25"));
	assert_non_null(strstr(r->params, "\"Queue\":\"all\""));
	assert_non_null(strstr(c.warnings.buf, "llm_result_readme_JEDI_real.csv:2: energy file "
					       "'CARAML/llm_training/llm_benchmark_nvidia_amd_run/"
					       "000025/000002_combine_energy/work/combined_energy.csv' "
					       "not found; run stored without energy"));
	strbuf_release(&p);
	cap_release(&c);
}

static void test_sample_gc200_llm(void **state)
{
	struct cap c;
	struct strbuf p = STRBUF_INIT;
	const struct cap_run *r;

	(void)state;
	NEED_SAMPLES();
	cap_init(&c);
	sample_path(&p, "llm_ipu_result_readme_GC200_real.csv");
	assert_int_equal(ingest1(&c, p.buf), 0);
	assert_int_equal(c.n, 1);
	r = &c.runs[0];
	assert_string_equal(r->bench, "llm-gpt-117M");
	assert_string_equal(r->system, "GC200");
	/* the "Tokens/second" column is sequences per second */
	assert_string_equal(r->unit, "samples/s");
	assert_double_near(mval(r, "throughput"), 183.37, 1e-12);
	assert_string_equal(munit(r, "throughput"), "samples/s");
	/* GPT-2 117M: 1024 tokens per sequence */
	assert_double_near(mval(r, "throughput_tokens"), 183.37 * 1024, 1e-12);
	assert_string_equal(munit(r, "throughput_tokens"), "tokens/s");
	assert_int_equal(r->devices, 4);
	assert_int_equal(r->gbs, 2048);
	assert_double_near(mval(r, "time_per_iteration"), 11.17, 1e-12);
	strbuf_release(&p);
	cap_release(&c);
}

/* csv, pretty and aligned renderings of one table give identical runs */
static void test_sample_three_styles(void **state)
{
	static const char *const names[] = {
		"llm_result_A100_csv_constructed.dat",
		"llm_result_A100_pretty_constructed.dat",
		"llm_result_A100_aligned_constructed.dat",
	};
	struct cap c[3];
	struct strbuf p = STRBUF_INIT;
	size_t s, i, k;

	(void)state;
	NEED_SAMPLES();
	for (s = 0; s < 3; s++) {
		cap_init(&c[s]);
		sample_path(&p, names[s]);
		assert_int_equal(ingest1(&c[s], p.buf), 0);
		assert_int_equal(c[s].n, 4);
	}
	for (i = 0; i < 4; i++) {
		const struct cap_run *a = &c[0].runs[i];
		for (s = 1; s < 3; s++) {
			const struct cap_run *b = &c[s].runs[i];
			assert_string_equal(a->job, b->job);
			assert_string_equal(a->params, b->params);
			assert_int_equal(a->status, b->status);
			assert_int_equal(a->gbs, b->gbs);
			assert_int_equal(a->nm, b->nm);
			for (k = 0; k < a->nm; k++) {
				assert_string_equal(a->m[k].name, b->m[k].name);
				assert_true(a->m[k].v == b->m[k].v);
			}
		}
	}
	/* row values */
	assert_double_near(mval(by_job(&c[0], "13077001"), "throughput"), 84005.35, 1e-12);
	assert_int_equal(by_job(&c[0], "13077001")->gbs, 32);
	/* the GBS 128 row: nan and empty cells = a failed run, with a reason */
	assert_int_equal(by_job(&c[1], "13077003")->status, RUN_FAILED);
	assert_int_equal(by_job(&c[1], "13077003")->nm, 0);
	assert_string_equal(by_job(&c[1], "13077003")->reason,
			    "'Tokens/second' is nan (nan: Iterations, Tokens/second; empty: "
			    "Time/iteration(s), Avg_TFLOPs/GPU, EnergyFile)");
	/* pretty: name line, header, rule, then the rows */
	assert_int_equal(c[1].runs[0].line, 4);
	assert_int_equal(c[0].runs[0].line, 2);
	for (s = 0; s < 3; s++)
		cap_release(&c[s]);
	strbuf_release(&p);
}

static void test_sample_all_ids(void **state)
{
	struct cap c;
	struct strbuf p = STRBUF_INIT;
	const struct cap_run *r;
	size_t i, failed = 0;

	(void)state;
	NEED_SAMPLES();
	cap_init(&c);
	sample_path(&p, "llm_result_all_ids_stdout_constructed.csv");
	assert_int_equal(ingest1(&c, p.buf), 0);
	assert_int_equal(c.n, 26);
	for (i = 0; i < c.n; i++)
		failed += c.runs[i].status == RUN_FAILED;
	assert_int_equal(failed, 2);
	r = by_job(&c, "13078902"); /* JEDI 13B on 44 nodes */
	assert_non_null(r);
	assert_string_equal(r->bench, "llm-gpt-13B");
	assert_int_equal(r->nodes, 44);
	assert_int_equal(r->devices, 176);
	assert_int_equal(r->gbs, 5632);
	assert_non_null(strstr(r->params, "\"jube_id\":6"));
	r = by_job(&c, "13079219");
	assert_string_equal(r->bench, "llm-gpt-175B");
	assert_string_equal(r->precision, "bf16");
	assert_int_equal(r->nodes, 16);
	r = by_job(&c, "13077952");
	assert_string_equal(r->system, "GH200");
	assert_int_equal(r->devices, 1);
	/* the not-found warnings are capped, then counted */
	assert_int_equal(c.nwarnings, 4);
	assert_non_null(strstr(c.warnings.buf, "llm_result_all_ids_stdout_constructed.csv: 21 more "
					       "energy files not found; those runs stored without "
					       "energy"));
	strbuf_release(&p);
	cap_release(&c);
}

static void test_sample_resnet_forced_csv(void **state)
{
	struct cap forced, pretty, csv;
	struct strbuf p = STRBUF_INIT;
	size_t i;

	(void)state;
	NEED_SAMPLES();
	cap_init(&forced);
	cap_init(&pretty);
	cap_init(&csv);
	sample_path(&p, "resnet50_tf_H100_result_forced_csv_unquoted_commas_constructed.csv");
	assert_int_equal(ingest1(&forced, p.buf), 0);
	sample_path(&p, "resnet50_tf_H100_result_pretty_constructed.dat");
	assert_int_equal(ingest1(&pretty, p.buf), 0);
	sample_path(&p, "resnet50_tf_H100_result_csv_constructed.dat");
	assert_int_equal(ingest1(&csv, p.buf), 0);
	assert_int_equal(forced.n, 6);
	assert_int_equal(pretty.n, 6);
	assert_int_equal(csv.n, 6);
	/* 20 fields for 17 columns: the surplus goes back into args_starter,
	 * every other column keeps its value - same params as the pretty table */
	for (i = 0; i < 6; i++) {
		assert_string_equal(forced.runs[i].params, pretty.runs[i].params);
		assert_true(mval(&forced.runs[i], "throughput") == mval(&csv.runs[i], "throughput"));
		assert_string_equal(forced.runs[i].bench, "resnet50");
		assert_string_equal(forced.runs[i].unit, "images/s");
	}
	assert_non_null(strstr(forced.runs[0].params,
			       "\"args_starter\":\"--cpu_bind=none,v --mpi=pspmix env "
			       "PMIX_SECURITY_MODE=native apptainer exec --bind=/p/project1/cjsc/"
			       "CARAML/resnet50,/p/project1/cjsc/CARAML/resnet50/"));
	assert_non_null(strstr(forced.runs[0].params,
			       "\"args_exec\":\"--num_gpus 1 --model resnet50_v2 --batch_size 32 "));
	assert_non_null(strstr(forced.warnings.buf,
			       "resnet50_tf_H100_result_forced_csv_unquoted_commas_constructed.csv:1: 6 "
			       "rows had more fields than the header (unquoted ','); the surplus was "
			       "joined back into 'args_starter'"));
	assert_double_near(mval(by_job(&forced, "13080505"), "throughput"), 7815.63, 1e-12);
	assert_int_equal(by_job(&forced, "13080505")->lbs, 64);
	assert_string_equal(by_job(&csv, "13080503")->framework, "tensorflow");
	/* empty EnergyFile: combine step failed, run still ok */
	assert_int_equal(by_job(&csv, "13080503")->status, RUN_OK);
	cap_release(&forced);
	cap_release(&pretty);
	cap_release(&csv);
	strbuf_release(&p);
}

static void test_sample_imgcls_and_readme_resnet(void **state)
{
	struct cap c;
	struct strbuf p = STRBUF_INIT;
	const struct cap_run *r;

	(void)state;
	NEED_SAMPLES();
	cap_init(&c);
	sample_path(&p, "image_classification_torch_MI250_result_csv_constructed.dat");
	assert_int_equal(ingest1(&c, p.buf), 0);
	assert_int_equal(c.n, 7);
	r = by_job(&c, "13250105");
	assert_string_equal(r->bench, "resnet50-torch");
	assert_string_equal(r->precision, "fp16");
	assert_string_equal(r->framework, "pytorch");
	assert_int_equal(r->devices, 8);
	assert_int_equal(r->lbs, 128);
	assert_double_near(mval(r, "throughput"), 6330.0, 1e-12);
	assert_non_null(strstr(r->params, "\"ChannelLast\":true"));
	assert_non_null(strstr(r->params, "\"Epoch\":100"));
	r = by_job(&c, "13250106");
	assert_int_equal(r->status, RUN_FAILED);
	assert_string_equal(r->reason,
			    "'Images/second' is empty (empty: Images/second, EnergyFile)");
	cap_release(&c);

	cap_init(&c);
	sample_path(&p, "resnet50_tf_result_readme_GC200_real.csv");
	assert_int_equal(ingest1(&c, p.buf), 0);
	r = &c.runs[0];
	assert_string_equal(r->system, "GC200");
	assert_double_near(mval(r, "throughput"), 3556.18, 1e-12);
	assert_null(r->precision);
	assert_non_null(strstr(r->params, "\"Runtime(s)\":1.0"));
	cap_release(&c);
	strbuf_release(&p);
}

/* ---- samples: energy files ---------------------------------------------- */

static void read_energy(const char *name, struct jpwr_energy *e)
{
	struct strbuf p = STRBUF_INIT, err = STRBUF_INIT;

	sample_path(&p, name);
	jpwr_energy_init(e);
	assert_int_equal(jpwr_energy_read(p.buf, e, &err), 0);
	strbuf_release(&p);
	strbuf_release(&err);
}

static void test_sample_combined_energy(void **state)
{
	struct jpwr_energy a, b, j, m;
	char *pa, *pb;

	(void)state;
	NEED_SAMPLES();
	/* A100, 1 node, 4 ranks: one node's 4 GPUs (rank 0's row), not 4x */
	read_energy("combined_energy_A100_1node_4ranks_constructed.csv", &a);
	assert_double_near(a.wh, 198.64889218122337 + 193.02881703101798 + 196.59885229626167 +
				  194.95771567945246, 1e-15);
	assert_double_near(a.wh, 783.2343, 1e-6);
	assert_int_equal(a.nodes, 1);
	assert_int_equal(a.rows, 4);
	assert_int_equal(a.devices, 4);
	assert_string_equal(a.boundary, "gpu");
	assert_string_equal(a.family, "pynvml");
	assert_string_equal(a.first_node, "jrc0734");
	/* the 2024 layout (no empty-named column) gives the identical result */
	read_energy("combined_energy_A100_1node_4ranks_layout2024_constructed.csv", &b);
	assert_true(a.wh == b.wh);
	assert_int_equal(a.devices, b.devices);
	assert_int_equal(a.nodes, b.nodes);
	pa = json_dumps(a.per_device, JSON_SORT_KEYS | JSON_COMPACT);
	pb = json_dumps(b.per_device, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(pa, pb);
	free(pa);
	free(pb);
	/* JEDI 2 nodes x 4 ranks, gh:* and pynvml:*: pynvml of ranks 0 and 4 */
	read_energy("combined_energy_JEDI_2nodes_8ranks_constructed.csv", &j);
	assert_double_near(j.wh, 98.49524452597691 + 99.46956585556156 + 100.42201340903122 +
				  101.36212529780481 + 98.54683688264973 + 99.43661318558554 +
				  100.29088723471351 + 101.46280399029328, 1e-14);
	assert_int_equal(j.nodes, 2);
	assert_int_equal(j.rows, 8);
	assert_int_equal(j.devices, 8);
	assert_string_equal(j.boundary, "gpu");
	/* MI250: 8 GCDs, the odd ones read 0 */
	read_energy("combined_energy_MI250_1node_constructed.csv", &m);
	assert_double_near(m.wh, 49.74241968273984 + 50.62739658292446 + 51.41675243326306 +
				  52.27966933141158, 1e-14);
	assert_int_equal(m.devices, 8);
	assert_string_equal(m.family, "rocm");
	jpwr_energy_release(&a);
	jpwr_energy_release(&b);
	jpwr_energy_release(&j);
	jpwr_energy_release(&m);
}

static void test_sample_series_files(void **state)
{
	struct jpwr_energy e;

	(void)state;
	NEED_SAMPLES();
	read_energy("jpwr_GC200_power.rank0.energy_constructed.csv", &e);
	assert_double_near(e.wh, 116.91348216124774 + 119.84989759939307 + 115.51793236192597 +
				 118.10112439336142, 1e-14);
	assert_string_equal(e.family, "gc");
	assert_string_equal(e.first_node, "jrc0410");
	assert_int_equal(e.rank, 0);
	jpwr_energy_release(&e);
	read_energy("jpwr_megatron_A100_power.rank0.energy_constructed.csv", &e);
	assert_double_near(e.wh, 783.2343, 1e-6); /* = rank 0's combined row */
	jpwr_energy_release(&e);
	read_energy("jpwr_MI250_power.rank0.energy_from_counter_constructed.csv", &e);
	assert_double_near(e.wh, 50.389071 + 51.285553 + 52.08517 + 52.959305, 1e-14);
	assert_true(e.counter);
	assert_null(e.first_node);
	jpwr_energy_release(&e);
	read_energy("jpwr_cli_energy_from_counter.jrc0850.24321_constructed.csv", &e);
	assert_double_near(e.wh, 0.061672, 1e-15);
	assert_true(e.counter);
	jpwr_energy_release(&e);
}

/* every energy file parses on its own (explicit path) as a jpwr run */
static void test_sample_energy_standalone(void **state)
{
	static const char *const files[] = {
		"combined_energy_A100_1node_4ranks_constructed.csv",
		"combined_energy_A100_1node_4ranks_layout2024_constructed.csv",
		"combined_energy_JEDI_2nodes_8ranks_constructed.csv",
		"combined_energy_MI250_1node_constructed.csv",
		"jpwr_GC200_power.rank0.energy_constructed.csv",
		"jpwr_MI250_power.rank0.energy_constructed.csv",
		"jpwr_MI250_power.rank0.energy_from_counter_constructed.csv",
		"jpwr_MI250_power.rank0_constructed.csv",
		"jpwr_cli_energy.jrc0850.24321_constructed.csv",
		"jpwr_cli_energy_from_counter.jrc0850.24321_constructed.csv",
		"jpwr_cli_power.jrc0850.24321_constructed.csv",
		"jpwr_megatron_A100_power.rank0.energy_constructed.csv",
		"jpwr_megatron_A100_power.rank0_constructed.csv",
		"jpwr_megatron_JEDI_power.rank0_constructed.csv",
	};
	struct strbuf p = STRBUF_INIT;
	size_t i;

	(void)state;
	NEED_SAMPLES();
	for (i = 0; i < AB_ARRAY_SIZE(files); i++) {
		struct cap c;
		const struct cap_run *r;

		cap_init(&c);
		sample_path(&p, files[i]);
		assert_int_equal(ingest1(&c, p.buf), 0);
		assert_int_equal(c.n, 1);
		r = &c.runs[0];
		assert_string_equal(r->suite, "jpwr");
		assert_string_equal(r->bench, "energy");
		assert_int_equal(r->status, RUN_OK);
		assert_true(mval(r, "energy") > 0);
		assert_non_null(strstr(metric(r, "energy")->meta, "\"boundary\":"));
		if (strstr(files[i], "JEDI_power")) {
			/* GH200: pynvml only, never + gh:Module; 400 rows x 4 GPUs */
			assert_string_equal(r->system, "JEDI");
			assert_int_equal(r->devices, 4);
			assert_int_equal(r->power, 1600);
			assert_non_null(strstr(metric(r, "energy")->meta, "\"boundary\":\"gpu\""));
		}
		if (strstr(files[i], "MI250_power.rank0_constructed")) {
			assert_int_equal(r->power, 400 * 8);
			assert_string_equal(r->started, "2024-08-23T09:02:11.601Z");
		}
		if (strstr(files[i], "cli_power")) {
			/* no tag in the name: the host, vendor from the rocm columns */
			assert_string_equal(r->system, "jrc0850");
			assert_string_equal(r->vendor, "AMD");
			assert_int_equal(r->power, 51);
		}
		cap_release(&c);
	}
	strbuf_release(&p);
}

/* the whole samples directory: every file lands, no rejection */
static void test_sample_directory(void **state)
{
	struct cap c;
	struct strbuf p = STRBUF_INIT;

	(void)state;
	NEED_SAMPLES();
	cap_init(&c);
	strbuf_addf(&p, "%s/caraml", unit_samples_dir());
	assert_int_equal(ingest1(&c, p.buf), 0);
	assert_string_equal(c.rejected.buf, "");
	/* energy files are read with their tables, not as runs of their own */
	assert_int_equal(c.n, 45);
	assert_int_equal(c.dups, 24);
	assert_double_near(mval(by_job(&c, "3914"), "throughput"), 158152.80, 1e-12);
	strbuf_release(&p);
	cap_release(&c);
}

/* ---- fixtures: a JUBE outpath tree with energy ----------------------------- */

static void test_tree_energy(void **state)
{
	struct cap c;
	const char *path = FIX "/tree";
	const struct cap_run *r;

	(void)state;
	cap_init(&c);
	assert_int_equal(ingest1(&c, path), 0);
	assert_string_equal(c.rejected.buf, "");
	assert_int_equal(c.n, 5);
	assert_int_equal(c.dups, 3); /* all_ids_stdout.txt repeats the result.dat rows */

	/* A100: EnergyFile from another machine, found by suffix next to the table */
	r = by_job(&c, "900001");
	assert_non_null(r);
	assert_double_near(mval(r, "energy"), (300.0 + 320 + 340 + 360) * 10 / 3600, 1e-12);
	assert_string_equal(metric(r, "energy")->meta,
			    "{\"boundary\":\"gpu\",\"source\":\"combined_energy.csv\"}");
	assert_double_near(mval(r, "energy_per_device"), 1320.0 * 10 / 3600 / 4, 1e-12);
	/* power series (rank 0 only; rank 1 is the same node): 10 s span */
	assert_double_near(mval(r, "avg_power"), 1320.0, 1e-12);
	assert_double_near(mval(r, "peak_power"), 1320.0, 1e-12);
	assert_int_equal(r->power, 11 * 4);
	assert_string_equal(r->started, "2024-08-23T08:00:00Z");
	/* tokens/Wh = iterations x GBS x 2048 / energy */
	assert_double_near(mval(r, "energy_efficiency"), 10.0 * 32 * 2048 / (1320.0 * 10 / 3600),
			   1e-12);
	assert_string_equal(munit(r, "energy_efficiency"), "tokens/Wh");
	assert_int_equal(by_job(&c, "900002")->status, RUN_FAILED);

	/* JEDI, 2 nodes x 2 ranks, gh:* before pynvml:*: pynvml of one rank per node */
	r = by_job(&c, "4001");
	assert_double_near(mval(r, "energy"), 10.0 + 20 + 30 + 40, 1e-12);
	assert_null(metric(r, "avg_power")); /* no power series, Runtime(min) is not measured */
	assert_double_near(mval(r, "energy_efficiency"), 500.0 * 256 * 2048 / 100, 1e-12);

	/* ResNet50 on GC200: EnergyFile is the per-rank Series file */
	r = by_job(&c, "700001");
	assert_double_near(mval(r, "energy"), 46.0, 1e-12);
	assert_double_near(mval(r, "avg_power"), 46.0 * 3600 / 120, 1e-12);
	assert_double_near(mval(r, "energy_efficiency"), 2000.0 * 120 / 46, 1e-12);
	assert_string_equal(munit(r, "energy_efficiency"), "images/Wh");
	/* pretty, multi-line cell joined; '|' inside the value kept */
	assert_non_null(strstr(r->params, "\"args_exec\":\"--config=resnet50_mlperf_pod4_bs20 "
					  "--num-replicas=4 --global-batch-size=256 | tee log\""));
	assert_non_null(strstr(r->params, "\"args_starter\":\"--cpu_bind=none,v --mpi=pspmix "
					  "apptainer exec --bind=/a,/b img.sif\""));
	assert_int_equal(r->line, 4);
	/* the second row starts on line 6 and its energy file is missing */
	r = by_job(&c, "700002");
	assert_int_equal(r->line, 6);
	assert_null(metric(r, "energy"));
	assert_int_equal(r->status, RUN_OK);
	assert_non_null(strstr(c.warnings.buf,
			       "resnet50_benchmark_run/000000/result/result.dat:6: energy file "
			       "'/p/project1/other/CARAML/resnet50/resnet50_benchmark_run/000000/"
			       "000009_execute/work/GC200_power.0.energy.csv' not found; run stored "
			       "without energy"));
	assert_int_equal(c.nwarnings, 1);
	assert_int_equal(c.power, 44);
	cap_release(&c);
}

/* A table given alone still finds its energy under the ingested roots. */
static void test_tree_roots(void **state)
{
	static const char *const paths[] = {
		FIX "/tree/llm_benchmark_nvidia_amd_run/all_ids_stdout.txt",
	};
	struct cap c;

	(void)state;
	cap_init(&c);
	assert_int_equal(run_ingest(&c, paths, 1, NULL), 0);
	assert_int_equal(c.n, 3);
	assert_non_null(strstr(c.runs[0].params, "\"jube_id\":0"));
	/* aligned style with an id column; energies found via <outpath>/<id>/... */
	assert_double_near(mval(by_job(&c, "900001"), "energy"), 1320.0 * 10 / 3600, 1e-12);
	assert_double_near(mval(by_job(&c, "4001"), "energy"), 100.0, 1e-12);
	assert_int_equal(c.nwarnings, 0);
	cap_release(&c);
}

static void test_fno_and_lists(void **state)
{
	struct cap c;
	const struct cap_run *r;

	(void)state;
	cap_init(&c);
	assert_int_equal(ingest1(&c, FIX "/fno_result_csv.dat"), 0);
	assert_int_equal(c.n, 3);
	r = by_job(&c, "5100001");
	assert_string_equal(r->bench, "fno-PIC2D");
	assert_string_equal(r->system, "JUPITER");
	assert_double_near(mval(r, "throughput"), 200.0, 1e-12);
	assert_string_equal(munit(r, "throughput"), "samples/s");
	assert_double_near(mval(r, "energy"), 100.0, 1e-12);
	assert_double_near(mval(r, "energy_per_device"), 25.0, 1e-12);
	assert_double_near(mval(r, "avg_power"), 100.0 * 3600 / (20.5 * 60), 1e-12);
	assert_double_near(mval(r, "energy_efficiency"), 180000.0 / 100, 1e-12);
	assert_double_near(mval(r, "train_time"), 1100.0, 1e-12);
	assert_string_equal(r->precision, "fp32");
	assert_int_equal(r->lbs, 4);
	/* "(256, 64)" has an unquoted ',': the tuple is kept whole */
	r = by_job(&c, "5100002");
	assert_string_equal(r->bench, "fno-RBC2D");
	assert_string_equal(r->precision, "amp");
	assert_non_null(strstr(r->params, "\"Grid\":\"(256, 64)\""));
	assert_non_null(strstr(r->params, "\"MixedPrecision\":true"));
	assert_double_near(mval(r, "throughput"), 300.0, 1e-12);
	r = by_job(&c, "5100003");
	assert_int_equal(r->status, RUN_FAILED);
	assert_null(metric(r, "energy"));
	cap_release(&c);

	/* eval tables (tag eval): compile time is the headline, lower is better */
	cap_init(&c);
	assert_int_equal(ingest1(&c, FIX "/fno_eval_result_csv.dat"), 0);
	assert_int_equal(c.n, 2);
	r = by_job(&c, "5200001");
	assert_string_equal(r->bench, "fno-PIC1D-compile");
	assert_string_equal(r->unit, "s");
	assert_double_near(mval(r, "compile_time"), 12.345, 1e-12);
	assert_null(metric(r, "throughput"));
	assert_non_null(strstr(r->params, "\"InputShape\":\"20 2 100000\""));
	assert_non_null(strstr(r->params, "\"TFLOPs\":3.5"));
	cap_release(&c);

	/* the Aug 2024 list column: "[a, b, c, d]" spread over 4 fields */
	cap_init(&c);
	assert_int_equal(ingest1(&c, FIX "/llm_result_energy_list_2024.csv"), 0);
	assert_int_equal(c.n, 1);
	r = &c.runs[0];
	assert_double_near(mval(r, "energy"), 600.0, 1e-12);
	assert_double_near(mval(r, "energy_efficiency"), 2000.0 * 32 * 2048 / 600, 1e-12);
	assert_non_null(strstr(r->params, "\"Energy/Device(Wh)\":[150.5,149.5,151.0,149.0]"));
	assert_non_null(strstr(c.warnings.buf, "joined back into 'Energy/Device(Wh)'"));
	cap_release(&c);
}

static void test_jpwr_cli_fixtures(void **state)
{
	struct cap c;
	const struct cap_run *r;

	(void)state;
	cap_init(&c);
	assert_int_equal(ingest1(&c, FIX "/jpwr/power.host7.4242.csv"), 0);
	r = &c.runs[0];
	/* jpwr's rule: sum P_i (t_i - t_{i-1}); the first row's power is unused */
	assert_double_near(mval(r, "energy"), (200.0 * 2 + 50 * 2) / 3600, 1e-12);
	assert_double_near(mval(r, "duration"), 2.0, 1e-12);
	assert_double_near(mval(r, "avg_power"), 250.0, 1e-12);
	assert_double_near(mval(r, "peak_power"), 250.0, 1e-12);
	assert_int_equal(r->power, 10);
	assert_string_equal(r->system, "host7");
	assert_string_equal(r->vendor, "AMD");
	assert_string_equal(r->started, "1970-01-01T00:01:40Z");
	cap_release(&c);

	cap_init(&c);
	assert_int_equal(ingest1(&c, FIX "/jpwr/energy_from_counter.host8.5151.csv"), 0);
	assert_int_equal(c.runs[0].status, RUN_INVALID);
	assert_string_equal(c.runs[0].reason,
			    "energy counters read 0 (not supported on this device)");
	cap_release(&c);

	/* companions: skipped in a directory walk, no runs */
	cap_init(&c);
	assert_int_equal(ingest1(&c, FIX "/jpwr"), 0);
	assert_int_equal(c.n, 0);
	cap_release(&c);
}

/* ---- bad input --------------------------------------------------------------- */

static void expect_rejected(const char *path, const char *format, const char *msg)
{
	struct cap c;
	struct strbuf want = STRBUF_INIT;

	cap_init(&c);
	assert_int_equal(run_ingest(&c, &path, 1, format), -AB_EDATA);
	strbuf_addf(&want, "%s\n", msg);
	assert_string_equal(c.rejected.buf, want.buf);
	strbuf_release(&want);
	cap_release(&c);
}

static void test_bad_input(void **state)
{
	(void)state;
	expect_rejected(FIX "/bad/truncated.csv", NULL,
			FIX "/bad/truncated.csv:3: row has 17 fields, header has 20 (truncated row?)");
	expect_rejected(FIX "/bad/wrong_columns.csv", NULL,
			FIX "/bad/wrong_columns.csv:3: row has 22 fields, header has 20 (a value "
			    "contains an unquoted ',')");
	expect_rejected(FIX "/bad/text_in_number.csv", NULL,
			FIX "/bad/text_in_number.csv:3: 'Tokens/second' is not a number: 'fast'");
	expect_rejected(FIX "/bad/empty_system.csv", NULL,
			FIX "/bad/empty_system.csv:2: empty 'System'");
	expect_rejected(FIX "/bad/no_throughput.csv", NULL,
			FIX "/bad/no_throughput.csv:1: unknown CARAML table: no 'Tokens/second', "
			    "'Images/second' or 'TrainTimesteps/second' column");
	expect_rejected(FIX "/bad/pretty_truncated.dat", NULL,
			FIX "/bad/pretty_truncated.dat:5: row has 2 cells, header has 3 (truncated "
			    "row?)");
	expect_rejected(FIX "/bad/empty.dat", NULL, FIX "/bad/empty.dat: empty file");
	expect_rejected(FIX "/bad/empty.dat", "jube-table",
			FIX "/bad/empty.dat: no result table found");
	expect_rejected(FIX "/jpwr/power.host7.4242.csv", "jpwr-combined",
			FIX "/jpwr/power.host7.4242.csv:1: a power series, not an energy file");
}

static void test_bad_mixed_dir(void **state)
{
	struct cap c;
	const char *path = FIX "/bad/mixed";

	(void)state;
	cap_init(&c);
	assert_int_equal(ingest1(&c, path), -AB_EDATA);
	assert_int_equal(c.n, 1); /* the good file still lands */
	assert_string_equal(c.rejected.buf,
			    FIX "/bad/mixed/b_bad.csv:2: 'Nodes' is not a number: 'one'\n");
	cap_release(&c);
}

static void write_file(const char *path, const char *head, char fill, size_t n,
		       const char *tail)
{
	FILE *fp = fopen(path, "wb");
	size_t i;

	assert_non_null(fp);
	fputs(head, fp);
	for (i = 0; i < n; i++)
		fputc(fill, fp);
	fputs(tail, fp);
	assert_int_equal(fclose(fp), 0);
}

static void test_bad_generated(void **state)
{
	char dir[] = "/tmp/ab-caraml-XXXXXX";
	struct strbuf p = STRBUF_INIT, msg = STRBUF_INIT;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* a 10 MB single line: the 1 MiB line limit, a clean error */
	strbuf_addf(&p, "%s/long.csv", dir);
	write_file(p.buf, "JobID,System,Tokens/second\n1,A100,", '9', 10u << 20, "\n");
	strbuf_addf(&msg, "%s:2: line longer than 1048576 bytes", p.buf);
	expect_rejected(p.buf, NULL, msg.buf);
	unlink(p.buf);
	strbuf_reset(&p);
	strbuf_reset(&msg);
	strbuf_addf(&p, "%s/header.csv", dir);
	write_file(p.buf, "JobID,System,Tokens/second", ',', 10u << 20, "");
	strbuf_addf(&msg, "%s:1: line longer than 1048576 bytes", p.buf);
	expect_rejected(p.buf, NULL, msg.buf);
	unlink(p.buf);
	/* binary data */
	strbuf_reset(&p);
	strbuf_reset(&msg);
	strbuf_addf(&p, "%s/blob.dat", dir);
	write_file(p.buf, "\x7f" "ELF", '\0', 4096, "");
	strbuf_addf(&msg, "%s: binary data, not a benchmark result", p.buf);
	expect_rejected(p.buf, NULL, msg.buf);
	strbuf_reset(&msg);
	strbuf_addf(&msg, "%s:1: binary data (NUL byte)", p.buf);
	expect_rejected(p.buf, "jube-table", msg.buf);
	strbuf_reset(&msg);
	strbuf_addf(&msg, "%s:1: binary data (NUL byte)", p.buf);
	expect_rejected(p.buf, "jpwr-power", msg.buf);
	unlink(p.buf);
	/* a power series going back in time */
	strbuf_reset(&p);
	strbuf_reset(&msg);
	strbuf_addf(&p, "%s/power.h.1.csv", dir);
	write_file(p.buf, ",timestamps,pynvml:0\n0,10.0,100\n1,9.0,100\n", ' ', 0, "");
	strbuf_addf(&msg, "%s:3: timestamps go backwards", p.buf);
	expect_rejected(p.buf, NULL, msg.buf);
	unlink(p.buf);
	rmdir(dir);
	strbuf_release(&p);
	strbuf_release(&msg);
}

/*
 * Params text byte for byte (the bytes json_dumps gave when params were a
 * jansson object; the stored params and their split depend on them):
 * members in column order, a key or text that is not UTF-8 left out,
 * "id" as jube_id, booleans, a "[..]" list as an array of numbers (and as
 * text when it is not one), and a key set twice keeping its first place
 * with the last value (a column named twice; an "id" beside a "jube_id").
 */
static void test_params_text(void **state)
{
	static const char *const expect[] = {
		/* all keys differ: written directly */
		"{\"jube_id\":7,\"Queue\":\"dc-gpu\",\"ChannelLast\":true,\"TrainOptim\":\"maybe\","
		"\"Runtime(min)\":60,\"Energy/Device(Wh)\":[1.5,2.5],"
		"\"ModelParam (Million)\":117.25,\"Note\":\"caf\\u00E9 \\\"x\\\"\"}",
		"{\"jube_id\":8,\"Queue\":\"q2\",\"ChannelLast\":false,\"Runtime(min)\":61,"
		"\"Energy/Device(Wh)\":\"n/a\",\"ModelParam (Million)\":1e20}",
		/* keys given twice: the last value in the first place */
		"{\"Queue\":\"second\",\"Note\":\"n\",\"jube_id\":9}",
		"{\"Queue\":\"first\",\"Note\":\"m\",\"jube_id\":\"x\"}",
	};
	char dir[] = "/tmp/ab-caraml-XXXXXX";
	struct strbuf p = STRBUF_INIT, msg = STRBUF_INIT;
	struct cap c;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	strbuf_addf(&p, "%s/params.csv", dir);
	write_file(p.buf,
		   "JobID,System,Tokens/second,id,Queue,ChannelLast,TrainOptim,Runtime(min),"
		   "Energy/Device(Wh),ModelParam (Million),Note,Bad\xff,Skip\n"
		   "1,A100,5.5,7,dc-gpu,True,maybe,60,[1.5, 2.5],117.25,caf\xc3\xa9 \"x\",v,\n"
		   "2,A100,5.5,8,q2,false,,61,n/a,1e20,bad\xff,v,\n"
		   "\n"
		   "JobID,System,Tokens/second,Queue,Note,Queue,jube_id,id\n"
		   "3,A100,5.5,first,n,second,x,9\n"
		   "4,A100,5.5,first,m,,x,\n",
		   ' ', 0, "");
	cap_init(&c);
	assert_int_equal(ingest1(&c, p.buf), 0);
	assert_int_equal(c.n, AB_ARRAY_SIZE(expect));
	for (i = 0; i < c.n; i++)
		assert_string_equal(c.runs[i].raw_params, expect[i]);
	cap_release(&c);
	unlink(p.buf);
	/* a bad number in a param column rejects the file at its line, on
	 * either path (keys all distinct, or a key given twice) */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/badparam.csv", dir);
	write_file(p.buf,
		   "JobID,System,Tokens/second,Queue,Runtime(min)\n"
		   "1,A100,5.5,q,60\n"
		   "2,A100,5.5,q,sixty\n", ' ', 0, "");
	strbuf_addf(&msg, "%s:3: 'Runtime(min)' is not a number: 'sixty'", p.buf);
	expect_rejected(p.buf, NULL, msg.buf);
	unlink(p.buf);
	strbuf_reset(&msg);
	write_file(p.buf,
		   "JobID,System,Tokens/second,Queue,Queue,Runtime(min)\n"
		   "1,A100,5.5,q,r,1.5\n", ' ', 0, "");
	strbuf_addf(&msg, "%s:2: 'Runtime(min)' is not an integer: '1.5'", p.buf);
	expect_rejected(p.buf, NULL, msg.buf);
	unlink(p.buf);
	rmdir(dir);
	strbuf_release(&p);
	strbuf_release(&msg);
}

/* ---- detection and small helpers ----------------------------------------------- */

static void test_detect(void **state)
{
	static const char csv[] = "JobID,System,Version\n1,A100,2024.01\n";
	static const char pretty[] = "result:\n| JobID | System |\n|---|---|\n";
	static const char aligned[] = "   JobID,System, Queue\n";
	static const char other[] = "name,value\n";
	int score;

	(void)state;
	assert_int_equal(jube_detect((const unsigned char *)csv, sizeof(csv) - 1), 90);
	assert_int_equal(jube_detect((const unsigned char *)pretty, sizeof(pretty) - 1), 95);
	assert_int_equal(jube_detect((const unsigned char *)aligned, sizeof(aligned) - 1), 90);
	assert_int_equal(jube_detect((const unsigned char *)other, sizeof(other) - 1), 0);
	assert_string_equal(ingest_detect("x", (const unsigned char *)",nodename,rank,,pynvml:0\n",
					  25, &score)->name, "jpwr-combined");
	assert_string_equal(ingest_detect("x", (const unsigned char *)",0\nrocm:0,1.5\n", 14,
					  &score)->name, "jpwr-energy");
	assert_string_equal(ingest_detect("x", (const unsigned char *)",timestamps,gc:0\n", 17,
					  &score)->name, "jpwr-power");
	assert_string_equal(caraml_known_tag("Jedi", 4), "JEDI");
	assert_null(caraml_known_tag("cli", 3));
	assert_string_equal(jube_style_name(JUBE_ALIGNED), "aligned");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_tree_energy),
		cmocka_unit_test(test_tree_roots),
		cmocka_unit_test(test_fno_and_lists),
		cmocka_unit_test(test_jpwr_cli_fixtures),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_bad_mixed_dir),
		cmocka_unit_test(test_bad_generated),
		cmocka_unit_test(test_params_text),
		cmocka_unit_test(test_sample_jedi_readme),
		cmocka_unit_test(test_sample_gc200_llm),
		cmocka_unit_test(test_sample_three_styles),
		cmocka_unit_test(test_sample_all_ids),
		cmocka_unit_test(test_sample_resnet_forced_csv),
		cmocka_unit_test(test_sample_imgcls_and_readme_resnet),
		cmocka_unit_test(test_sample_combined_energy),
		cmocka_unit_test(test_sample_series_files),
		cmocka_unit_test(test_sample_energy_standalone),
		cmocka_unit_test(test_sample_directory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
