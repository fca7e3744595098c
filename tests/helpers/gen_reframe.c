/*
 * gen_reframe.c - write a deterministic ReFrame perflog tree for `make
 * bench`: <out>/perflogs/<system>/<partition>/<Test>.log.
 *
 *   gen_reframe OUT_DIR NUM_LINES
 *
 * The mix follows what a site accumulates: about 70 % of the lines in the
 * ReFrame 4.3+ default format (header + one line per test case, the 36
 * columns of check_#ALL as 4.9 writes them), 20 % in the 3.x default
 * format and 10 % in EPCC's compat site format (one line per performance
 * variable, regrouped by the parser).  Values scatter around the EPCC
 * seed numbers; about one case in 50 fails its reference, one in 200 is a
 * sanity failure (None), one in 100 has a '|' in its description (the
 * slow, content-aligned path).  Files hold at most 50000 lines.  Same
 * arguments, same bytes.  Prints "N lines, F files".
 */
#include "core/compat.h"
#include "core/core.h"
#include "gen_util.h"

#include <errno.h>
#include <sys/stat.h>
#include <time.h>

#define LINES_PER_FILE 50000

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	/* xorshift64*: deterministic, no libc state */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static double unif(void)
{
	return (double)(rnd() >> 11) / 9007199254740992.0;
}


struct test {
	const char *cls, *param, *sys, *part, *env, *descr;
	double compute, effective; /* seed numbers, inputs/s; compute 0 = none */
};

static const struct test tests[] = {
	{ "ResNet50CPUCheck", "num_nodes=4", "archer2", "compute", "PrgEnv-gnu",
	  "ResNet50 CPU Benchmark", 40.5, 40.1 },
	{ "CosmoFlowCPUCheck", "num_nodes=4", "archer2", "compute", "PrgEnv-gnu",
	  "CosmoFlow CPU Benchmark", 14.9, 14.8 },
	{ "DeepCamCPUCheck", "num_nodes=8", "archer2", "compute", "PrgEnv-gnu",
	  "DeepCam CPU Benchmark", 6.1, 6.1 },
	{ "ResNet50GPUBenchmark", "num_gpus=4", "archer2", "compute-gpu-torch",
	  "rocm-PrgEnv-gnu", "ResNet50 GPU Benchmark", 293.2, 226.6 },
	{ "CosmoFlowGPUBenchmark", "num_gpus=4", "archer2", "compute-gpu-torch",
	  "rocm-PrgEnv-gnu", "CosmoFlow GPU Benchmark", 479.9, 72.5 },
	{ "DeepCamGPUBenchmark", "num_gpus=4", "cirrus", "compute-gpu", "Default",
	  "Deepcam GPU Benchmark", 54.1, 15.4 },
	{ "ResNetGPUServiceBenchmark", "num_gpus=4", "eidf", "gpu-service", "Default",
	  "ResNet50 EIDF GPU-Service (Kubernetes) Benchmark", 226.2, 179.7 },
	{ "ResNetGPUServiceGraphCoreBenchmark", "num_ipus=8", "eidf", "graphcore", "Default",
	  "ResNet50 Graphcore Bow Pod64 Benchmark", 0, 255.6 },
	{ "ResNet50CSXBenchmark", "num_csx=1", "eidf", "cs2", "Default",
	  "ResNet50 Cerebras WSE Benchmark", 0, 452.0 },
};

static const char header43[] =
	"result|job_completion_time|descr|env_vars|environ|exclusive_access|extra_resources|"
	"job_completion_time_unix|job_exitcode|job_nodelist|job_submit_time|jobid|modules|name|"
	"num_cpus_per_task|num_gpus_per_node|num_nodes|num_tasks|num_tasks_per_core|"
	"num_tasks_per_node|num_tasks_per_socket|partition|"
	"effective_throughput_value|effective_throughput_unit|effective_throughput_ref|"
	"effective_throughput_lower_thres|effective_throughput_upper_thres|"
	"compute_throughput_value|compute_throughput_unit|compute_throughput_ref|"
	"compute_throughput_lower_thres|compute_throughput_upper_thres|"
	"short_name|system|unique_name|use_multithreading";

static const char header_epcc[] =
	"display_name|result|job_completion_time|perf_var|perf_value perf_unit|"
	"perf_ref,perf_lower_thres,perf_upper_thres)";

struct gen {
	const char *out;
	long lines, files;
	double t;                 /* completion time, advances per case */
	long jobid;
};

static void iso(char *buf, size_t n, double t)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&s, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, n, "?");
}

static FILE *open_log(struct gen *g, const struct test *t, const char *name, struct strbuf *path)
{
	struct strbuf dir = STRBUF_INIT;
	FILE *fp;

	strbuf_addf(&dir, "%s/perflogs/%s/%s", g->out, t->sys, t->part);
	if (mkdirs(dir.buf) < 0) {
		fprintf(stderr, "gen_reframe: cannot create %s: %s\n", dir.buf, strerror(errno));
		strbuf_release(&dir);
		return NULL;
	}
	strbuf_reset(path);
	strbuf_addf(path, "%s/%s.log", dir.buf, name);
	strbuf_release(&dir);
	fp = fopen(path->buf, "wb");
	if (!fp)
		fprintf(stderr, "gen_reframe: cannot write %s: %s\n", path->buf, strerror(errno));
	else
		g->files++;
	return fp;
}

/* One case's values: 0 = pass, 1 = fails its reference, 2 = sanity failure. */
static int draw(const struct test *t, double *eff, double *comp)
{
	double u = unif();

	*eff = t->effective * (0.97 + 0.06 * unif());
	*comp = t->compute * (0.97 + 0.06 * unif());
	if (u < 0.005)
		return 2;
	if (u < 0.025) {
		*eff *= 0.5;
		return 1;
	}
	return 0;
}

/* ReFrame 4.3+ default: header + one line per test case. */
static int file_43(struct gen *g, const struct test *t, long nlines, int idx)
{
	struct strbuf path = STRBUF_INIT, name = STRBUF_INIT;
	FILE *fp;
	long i;

	strbuf_addf(&name, "%s_%d", t->cls, idx);
	fp = open_log(g, t, name.buf, &path);
	if (!fp)
		goto fail;
	fprintf(fp, "%s\n", header43);
	g->lines++;
	for (i = 0; i < nlines; i++) {
		double eff, comp;
		int kind = draw(t, &eff, &comp);
		char when[32];
		const char *pipe = unif() < 0.01 ? " | nightly" : "";

		g->t += 7 + 60 * unif();
		iso(when, sizeof(when), g->t);
		fprintf(fp, "%s|%s|%s%s|{}|%s|false|{}|%.7f|0|nid%06ld|%.7f|%ld||%s %%%s|null|null|",
			kind ? "fail" : "pass", when, t->descr, pipe, t->env, g->t, g->jobid % 1000000,
			g->t - 30, g->jobid, t->cls, t->param);
		fprintf(fp, "%s|1|null|null|null|%s|", strchr(t->param, '=') + 1, t->part);
		if (kind == 2)
			fprintf(fp, "None|inputs/s|%.1f|-0.1|None|", t->effective);
		else
			fprintf(fp, "%.1f|inputs/s|%.1f|-0.1|None|", eff, t->effective);
		if (kind == 2)
			fprintf(fp, "None|inputs/s|0|None|None|");
		else
			fprintf(fp, "%.1f|inputs/s|0|None|None|", t->compute ? comp : eff);
		fprintf(fp, "%s_%08lx|%s|%s|null\n", t->cls, (unsigned long)(rnd() & 0xffffffff),
			t->sys, t->cls);
		g->jobid++;
		g->lines++;
	}
	if (fclose(fp) != 0)
		goto fail;
	strbuf_release(&path);
	strbuf_release(&name);
	return 0;
fail:
	strbuf_release(&path);
	strbuf_release(&name);
	return -1;
}

/* ReFrame 3.x default (one line per variable) or EPCC compat (+ header). */
static int file_per_var(struct gen *g, const struct test *t, long nlines, int idx, int epcc)
{
	struct strbuf path = STRBUF_INIT, name = STRBUF_INIT;
	FILE *fp;
	long i = 0;

	strbuf_addf(&name, "%s_%s_%d", t->cls, epcc ? "epcc" : "3x", idx);
	fp = open_log(g, t, name.buf, &path);
	if (!fp)
		goto fail;
	if (epcc) {
		fprintf(fp, "%s\n", header_epcc);
		g->lines++;
	}
	while (i < nlines) {
		double eff, comp;
		int kind = draw(t, &eff, &comp);
		char when[32];

		g->t += 7 + 60 * unif();
		iso(when, sizeof(when), g->t);
		if (kind == 2)
			kind = 1; /* 3.x and 4.6 do not log sanity failures */
		if (epcc) {
			fprintf(fp, "%s %%%s|%s|%s|effective_throughput|%.1f inputs/s|(%.1f, -0.1, null)|\n",
				t->cls, t->param, kind ? "fail" : "pass", when, eff, t->effective);
			fprintf(fp, "%s %%%s|%s|%s|compute_throughput|%.1f inputs/s|(0, null, null)|\n",
				t->cls, t->param, kind ? "fail" : "pass", when, t->compute ? comp : eff);
		} else {
			fprintf(fp, "%s|reframe 3.12.0|%s %%%s @%s:%s+%s|jobid=%ld|"
				    "effective_throughput=%.1f|ref=%.1f (l=-0.1, u=null)|inputs/s\n",
				when, t->cls, t->param, t->sys, t->part, t->env, g->jobid, eff, t->effective);
			fprintf(fp, "%s|reframe 3.12.0|%s %%%s @%s:%s+%s|jobid=%ld|"
				    "compute_throughput=%.1f|ref=0 (l=null, u=null)|inputs/s\n",
				when, t->cls, t->param, t->sys, t->part, t->env, g->jobid,
				t->compute ? comp : eff);
		}
		g->jobid++;
		g->lines += 2;
		i += 2;
	}
	if (fclose(fp) != 0)
		goto fail;
	strbuf_release(&path);
	strbuf_release(&name);
	return 0;
fail:
	strbuf_release(&path);
	strbuf_release(&name);
	return -1;
}

int main(int argc, char **argv)
{
	struct gen g = { 0 };
	long total, done = 0;
	int idx = 0;
	char *end;

	if (argc != 3) {
		fprintf(stderr, "usage: gen_reframe OUT_DIR NUM_LINES\n");
		return 2;
	}
	total = strtol(argv[2], &end, 10);
	if (*end || total <= 0) {
		fprintf(stderr, "gen_reframe: bad line count '%s'\n", argv[2]);
		return 2;
	}
	g.out = argv[1];
	g.t = 1577836800.0; /* 2020-01-01T00:00:00Z */
	g.jobid = 100000;
	while (done < total) {
		const struct test *t = &tests[idx % AB_ARRAY_SIZE(tests)];
		long want = total - done < LINES_PER_FILE ? total - done : LINES_PER_FILE;
		long before = g.lines;
		double u = unif();
		int rc;

		if (u < 0.7 || want < 4)
			rc = file_43(&g, t, want > 1 ? want - 1 : 1, idx);
		else if (u < 0.9)
			rc = file_per_var(&g, t, want, idx, 0);
		else
			rc = file_per_var(&g, t, want - 1, idx, 1);
		if (rc < 0)
			return 3;
		done += g.lines - before;
		idx++;
	}
	printf("%ld lines, %ld files\n", g.lines, g.files);
	return 0;
}
