/*
 * demo.c - write a simulated CARAML campaign in JUBE's and jpwr's formats.
 *
 * Layout, as JUBE leaves it (one benchmark id per system and benchmark):
 *   DIR/llm_training/llm_benchmark_nvidia_amd_run/<id>/result/result.dat        (csv style)
 *   DIR/llm_training/llm_benchmark_nvidia_amd_run/<id>/<wp>_combine_energy/work/combined_energy.csv
 *   DIR/resnet50/resnet50_benchmark_run/<id>/result/result_csv.dat
 *   DIR/resnet50/resnet50_benchmark_run/<id>/<wp>_combine_energy/work/combined_energy.csv
 * EnergyFile cells hold the absolute path on the (fictitious) cluster,
 * /p/project1/demo/CARAML/..., which ingest resolves by suffix, exactly as
 * with real CARAML output copied off a cluster.
 *
 * Model: throughput X(b) = Xmax * b / (b + b_half) (LLM, global batch b),
 * near-linear device scaling with a serial fraction (ResNet50), 2-3 %
 * log-normal run-to-run noise, power per device that rises with load.  A
 * few configurations fail (out of memory at the largest batch) and show
 * up as JUBE renders failures: "nan" and empty cells, no energy file.
 *
 * ResNet50 is calibrated on the CARAML paper's published figures at 4
 * devices and global batch 2048 (images/s; energy per run in Wh): MI250
 * 4708 (7.33), GC200 2024 (15.02), A100 6791 (16.62), H100-PCIe 13159
 * (7.36), H100-NVLink (WAIH100) 15921 (7.96), JEDI GH200 20865 (12.87).
 * They are example values built on publications, not measurements.
 *
 * This file also holds the entry point (run_demo_write), the systems file
 * that marks every demo system "simulated", and the example prices.
 */
#include "core/compat.h"
#include "demo_priv.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

struct demo_system {
	const char *tag;        /* CARAML system tag */
	const char *queue;
	const char *method;     /* jpwr column prefix */
	int devices;            /* per node as CARAML counts them */
	double llm_xmax;        /* tokens/s per node at saturation, 800M GPT */
	double llm_bhalf;       /* global batch at half of Xmax */
	long llm_oom_batch;     /* first global batch that runs out of memory (0: none) */
	double tflops_per_tok;  /* TFLOP/s per GPU per (tokens/s per GPU) */
	double img4;            /* ResNet50 images/s at 4 devices (published) */
	double wh4;             /* ResNet50 energy per run at 4 devices [Wh] (published) */
	double serial;          /* ResNet50 serial fraction for device scaling */
	double idle_w, load_w;  /* power per device (jpwr column) */
};

/* Loosely after the CARAML paper and repository plots (tokens/s, images/s
 * per device, W); MI250 counts GCDs, whose odd members read 0 W in jpwr. */
static const struct demo_system systems[] = {
	{ "A100", "dc-gpu", "pynvml", 4, 88000, 3.0, 512, 1.0 / 122.9, 6791, 16.62, 0.030, 60, 380 },
	{ "H100", "dc-h100", "pynvml", 4, 125000, 4.0, 0, 1.0 / 122.9, 13159, 7.36, 0.035, 70, 330 },
	{ "WAIH100", "dc-wai", "pynvml", 4, 150000, 5.0, 0, 1.0 / 122.9, 15921, 7.96, 0.020, 80, 640 },
	{ "JEDI", "all", "pynvml", 4, 190000, 6.0, 0, 1.0 / 122.9, 20865, 12.87, 0.015, 90, 610 },
	{ "MI250", "dc-mi200", "rocm", 8, 95000, 4.0, 0, 1.0 / 1278.0, 4708, 7.33, 0.040, 45, 260 },
	/* Graphcore runs ResNet50 only (CARAML's LLM on IPUs is another tool) */
	{ "GC200", "dc-ipu", "gc", 4, 0, 0, 0, 0, 2024, 15.02, 0.050, 40, 150 },
};

/* Every system of the demo, for the systems file and the example prices
 * (prices are invented round figures for the cost example). */
const struct demo_system_desc demo_systems[] = {
	{ "A100", "NVIDIA", "A100", 4, 400, 12000, 0, "simulated CARAML site" },
	{ "H100", "NVIDIA", "H100-PCIe", 4, 350, 25000, 0, "simulated CARAML site" },
	{ "WAIH100", "NVIDIA", "H100", 4, 700, 30000, 0, "simulated CARAML site" },
	{ "JEDI", "NVIDIA", "GH200", 4, 680, 35000, 0, "simulated CARAML site" },
	{ "MI250", "AMD", "MI250", 8, 280, 0, 60000, "simulated CARAML site" },
	{ "GC200", "Graphcore", "GC200 IPU", 4, 300, 0, 80000, "simulated CARAML site" },
	{ "DemoHPC/a100_n1_pytorch", "NVIDIA", "A100", 4, 400, 12000, 0, "simulated MLPerf submitter" },
	{ "DemoHPC/h100_n1_pytorch", "NVIDIA", "H100", 4, 700, 30000, 0, "simulated MLPerf submitter" },
	{ "DemoHPC/gh200_n1_pytorch", "NVIDIA", "GH200", 4, 680, 35000, 0, "simulated MLPerf submitter" },
	{ "DemoHPC/gh200_n4_pytorch", "NVIDIA", "GH200", 4, 680, 35000, 0, "simulated MLPerf submitter" },
	{ "archer2:compute", "CPU", "EPYC 7742", 0, 450, 0, 15000, "simulated ReFrame site" },
	{ "archer2:compute-gpu-torch", "AMD", "MI210", 4, 300, 9000, 0, "simulated ReFrame site" },
	{ "cirrus:compute-gpu", "NVIDIA", "V100", 4, 300, 6000, 0, "simulated ReFrame site" },
	{ "eidf:gpu-service", "NVIDIA", "A100", 4, 400, 12000, 0, "simulated ReFrame site" },
};
const size_t demo_nsystems = AB_ARRAY_SIZE(demo_systems);


static const long llm_batches[] = { 4, 8, 16, 32, 64, 128, 256, 512 };
static const int resnet_devices[] = { 1, 2, 4, 8 };

int demo_write_file(struct demo_gen *g, const char *rel, const struct strbuf *data)
{
	struct strbuf path = STRBUF_INIT;
	int rc;

	strbuf_addf(&path, "%s/%s", g->dir, rel);
	rc = ab_write_file(path.buf, data->buf, data->len, g->err);
	strbuf_release(&path);
	if (rc == 0)
		g->files++;
	return rc;
}

/* multiplicative noise with the given relative sd */
double demo_noise(struct demo_gen *g, double rel)
{
	return exp(gsl_ran_gaussian(g->rng, rel));
}

/* combined_energy.csv in the 2025 layout (empty-named column), one row
 * per rank; every rank of a node repeats the node's readings, slightly
 * jittered as real per-process measurements are. */
static void energy_csv(struct demo_gen *g, struct strbuf *out, const struct demo_system *s,
		       int nodes, int ranks_per_node, double wh_per_dev, const double *wh_dev,
		       const char *host_prefix)
{
	int n, r, d, rank = 0;

	strbuf_addstr(out, ",nodename,rank,");
	for (d = 0; d < s->devices; d++)
		strbuf_addf(out, ",%s:%d", s->method, d);
	strbuf_addch(out, '\n');
	for (n = 0; n < nodes; n++) {
		for (r = 0; r < ranks_per_node; r++, rank++) {
			strbuf_addf(out, "%d,%s%02d,%d,0", rank, host_prefix, n + 1, rank);
			for (d = 0; d < s->devices; d++) {
				double v = wh_per_dev * demo_noise(g, 0.01);
				strbuf_addch(out, ',');
				if (wh_dev) {
					/* integrated from the power trace; the other ranks
					 * of the node measured the same devices */
					double x = wh_dev[d] * (r ? demo_noise(g, 0.001) : 1.0);
					if (x == 0.0)
						strbuf_addstr(out, "0.0");
					else
						num_format(out, x);
				} else if (!strcmp(s->method, "rocm") && d % 2) {
					/* the secondary GCD of an MI250 reads 0 W; the
					 * primary reports the whole card */
					strbuf_addstr(out, "0.0"); /* as pandas writes it */
				} else {
					num_format(out, !strcmp(s->method, "rocm") ? 2 * v : v);
				}
			}
			strbuf_addch(out, '\n');
		}
	}
}

/*
 * The per-rank power CSV that the CARAML Megatron patch writes through
 * jpwr (",timestamps,pynvml:0,...,nodename,rank", here at 1 s intervals),
 * in the benchmark step's work directory, with JUBE's "benchmark" link to
 * it from the combine step.  wh_dev receives jpwr's energy per column.
 */
static int power_trace(struct demo_gen *g, const struct demo_system *s, int id, int wp, long job,
		       double load, double *wh_dev)
{
	struct strbuf csv = STRBUF_INIT, rel = STRBUF_INIT, link = STRBUF_INIT;
	double t_prev = 0, t0 = 1724403731.0 + (double)(job - 13250000) * 2400.0;
	int i, d, rc, rocm = !strcmp(s->method, "rocm");

	strbuf_addstr(&csv, ",timestamps");
	for (d = 0; d < s->devices; d++)
		strbuf_addf(&csv, ",%s:%d", s->method, d);
	strbuf_addstr(&csv, ",nodename,rank\n");
	for (d = 0; d < s->devices; d++)
		wh_dev[d] = 0;
	for (i = 0; i < 30 * 60; i++) {
		double t = t0 + i + gsl_ran_flat(g->rng, 0.0, 0.004);
		strbuf_addf(&csv, "%d,", i);
		num_format(&csv, t);
		for (d = 0; d < s->devices; d++) {
			double w = (i < 60 ? s->idle_w : s->idle_w + (s->load_w - s->idle_w) * load) *
				   demo_noise(g, 0.03);
			if (rocm)
				w = d % 2 ? 0.0 : 2 * w;
			/* round as printed, so the file integrates to wh_dev exactly */
			w = round(w * 1000.0) / 1000.0;
			strbuf_addch(&csv, ',');
			if (w == 0.0)
				strbuf_addstr(&csv, "0.0");
			else
				strbuf_addf(&csv, "%.3f", w);
			/* jpwr: the current sample's power times the step before it */
			if (i > 0)
				wh_dev[d] += w * (t - t_prev) / 3600.0;
		}
		strbuf_addstr(&csv, ",jrc001,0\n");
		t_prev = t;
	}
	strbuf_addf(&rel, "llm_training/llm_benchmark_nvidia_amd_run/%06d/%06d_benchmark/work/%s_power.0.csv",
		    id, 2 * wp, s->tag);
	rc = demo_write_file(g, rel.buf, &csv);
	if (!rc) {
		/* JUBE links the previous step's work directory into each step */
		strbuf_addf(&link, "%s/llm_training/llm_benchmark_nvidia_amd_run/%06d/%06d_combine_energy/work",
			    g->dir, id, 2 * wp + 1);
		rc = ab_mkdirs(link.buf, g->err);
		strbuf_addstr(&link, "/benchmark");
		strbuf_reset(&rel);
		strbuf_addf(&rel, "../../%06d_benchmark/work", 2 * wp);
		if (!rc && symlink(rel.buf, link.buf) < 0 && errno != EEXIST)
			rc = ab_fail(g->err, AB_EIO, "cannot link '%s': %s", link.buf, strerror(errno));
	}
	strbuf_release(&csv);
	strbuf_release(&rel);
	strbuf_release(&link);
	return rc;
}

static int gen_llm(struct demo_gen *g, const struct demo_system *s, int id, const struct run_demo_opts *o)
{
	static const char base[] = "/p/project1/demo/CARAML/llm_training/llm_benchmark_nvidia_amd_run";
	struct strbuf tab = STRBUF_INIT, rel = STRBUF_INIT, csv = STRBUF_INIT;
	size_t bi;
	int rep, wp = 0, rc = 0;

	strbuf_addstr(&tab, "JobID,System,Version,Queue,JobTime,Runtime(min),Model,ModelSize,"
			    "Dataset,Nodes,Devices,GlobalBatchSize,PipelineParallel,TensorParallel,"
			    "DataParallel,Iterations,Time/iteration(s),Tokens/second,Avg_TFLOPs/GPU,"
			    "EnergyFile\n");
	for (bi = 0; bi < AB_ARRAY_SIZE(llm_batches) && !rc; bi++) {
		long b = llm_batches[bi];
		for (rep = 0; rep < o->repeats && !rc; rep++, wp++) {
			long job = g->next_job++;
			double x, t_it, tflops, wh, wh_dev[8] = { 0 };
			long iters;

			strbuf_addf(&tab, "%ld,%s,2025.01,%s,00:40:00,30,GPT,800M,OSCAR,1,%d,%ld,1,1,%d,",
				    job, s->tag, s->queue, s->devices, b, s->devices);
			if (s->llm_oom_batch && b >= s->llm_oom_batch) {
				/* killed: no iteration lines, no energy file */
				strbuf_addstr(&tab, "nan,,nan,,\n");
				continue;
			}
			x = s->llm_xmax * (double)b / ((double)b + s->llm_bhalf) * demo_noise(g, 0.025);
			t_it = (double)b * 2048.0 / x;
			iters = (long)floor((30 * 60 - 60) / t_it);
			tflops = x / s->devices * s->tflops_per_tok;
			/* energy over the whole 30-minute window, startup included */
			wh = (s->idle_w * 60 + (s->idle_w + (s->load_w - s->idle_w) *
				(double)b / ((double)b + s->llm_bhalf)) * (30 * 60 - 60)) / 3600.0;
			if (rep == 0) {
				/* the first run of each batch size keeps jpwr's trace */
				rc = power_trace(g, s, id, wp, job, (double)b / ((double)b + s->llm_bhalf),
						 wh_dev);
				if (rc)
					break;
			}
			/* JUBE prints the values it computed with format ".2f" */
			strbuf_addf(&tab, "%ld,%.2f,%.2f,%.2f,%s/%06d/%06d_combine_energy/work/combined_energy.csv\n",
				    iters, t_it, (double)b * 2048.0 / t_it, tflops, base, id, 2 * wp + 1);
			strbuf_reset(&csv);
			energy_csv(g, &csv, s, 1, s->devices, wh, rep == 0 ? wh_dev : NULL, "jrc0");
			strbuf_reset(&rel);
			strbuf_addf(&rel, "llm_training/llm_benchmark_nvidia_amd_run/%06d/%06d_combine_energy/work/combined_energy.csv",
				    id, 2 * wp + 1);
			rc = demo_write_file(g, rel.buf, &csv);
		}
	}
	if (!rc) {
		strbuf_reset(&rel);
		strbuf_addf(&rel, "llm_training/llm_benchmark_nvidia_amd_run/%06d/result/result.dat", id);
		rc = demo_write_file(g, rel.buf, &tab);
	}
	strbuf_release(&tab);
	strbuf_release(&rel);
	strbuf_release(&csv);
	return rc;
}

static int gen_resnet(struct demo_gen *g, const struct demo_system *s, int id,
		      const struct run_demo_opts *o)
{
	static const char base[] = "/p/project1/demo/CARAML/resnet50/resnet50_benchmark_run";
	struct strbuf tab = STRBUF_INIT, rel = STRBUF_INIT, csv = STRBUF_INIT;
	size_t di;
	int rep, wp = 0, rc = 0;

	strbuf_addstr(&tab, "JobID,System,Version,Queue,Runtime(s),Model,Dataset,Nodes,Devices,"
			    "Tasks/Node,Threads/Task,GlobalBatchSize,BatchSize/Device,Images/second,"
			    "EnergyFile\n");
	for (di = 0; di < AB_ARRAY_SIZE(resnet_devices) && !rc; di++) {
		int p = resnet_devices[di];
		if (p > s->devices)
			break;
		for (rep = 0; rep < o->repeats && !rc; rep++, wp++) {
			long job = g->next_job++;
			double speedup = 1.0 / (s->serial + (1.0 - s->serial) / p);
			double speedup4 = 1.0 / (s->serial + (1.0 - s->serial) / 4);
			double x0 = s->img4 / speedup4 * speedup;
			double x = x0 * demo_noise(g, 0.02);
			double runtime = 60.0 + 100.0 * 256.0 * p / x * 10.0 / p;
			/* a fixed amount of work: the energy of a run grows with the
			 * device count and falls with throughput; at 4 devices it is
			 * the published figure.  The node's devices share it. */
			double wh = s->wh4 * (p / 4.0) * (s->img4 / x0);

			strbuf_addf(&tab, "%ld,%s,2024.01,%s,%.2f,resnet50_v2,ImageNet,1,%d,%d,4,%d,512,%.2f,"
				    "%s/%06d/%06d_combine_energy/work/combined_energy.csv\n",
				    job, s->tag, s->queue, runtime, p, p, 512 * p, x, base, id, 2 * wp + 1);
			strbuf_reset(&csv);
			energy_csv(g, &csv, s, 1, p, wh / s->devices, NULL, "jrc1");
			strbuf_reset(&rel);
			strbuf_addf(&rel, "resnet50/resnet50_benchmark_run/%06d/%06d_combine_energy/work/combined_energy.csv",
				    id, 2 * wp + 1);
			rc = demo_write_file(g, rel.buf, &csv);
		}
	}
	if (!rc) {
		strbuf_reset(&rel);
		strbuf_addf(&rel, "resnet50/resnet50_benchmark_run/%06d/result/result_csv.dat", id);
		rc = demo_write_file(g, rel.buf, &tab);
	}
	strbuf_release(&tab);
	strbuf_release(&rel);
	strbuf_release(&csv);
	return rc;
}

/* The systems file: what the tools do not say, and that all of it is
 * simulated (read back by db_has_simulated() for covers and sheets). */
static int write_systems_file(struct demo_gen *g)
{
	struct strbuf js = STRBUF_INIT;
	size_t i;
	int rc;

	strbuf_addstr(&js, "{\n  \"accelbench_systems\": {\n");
	for (i = 0; i < demo_nsystems; i++) {
		const struct demo_system_desc *d = &demo_systems[i];
		strbuf_addf(&js, "    \"%s\": { \"vendor\": \"%s\", \"accelerator\": \"%s\", ",
			    d->name, d->vendor, d->accelerator);
		if (d->per_node)
			strbuf_addf(&js, "\"accelerators_per_node\": %ld, ", d->per_node);
		strbuf_addf(&js, "\"tdp_w\": %g, \"site\": \"%s\", \"simulated\": true }%s\n",
			    d->tdp_w, d->site, i + 1 < demo_nsystems ? "," : "");
	}
	strbuf_addstr(&js, "  }\n}\n");
	rc = demo_write_file(g, "systems.json", &js);
	strbuf_release(&js);
	return rc;
}

int run_demo_write_prices(const char *path, struct strbuf *err)
{
	struct strbuf js = STRBUF_INIT;
	size_t i;
	int rc;

	strbuf_addstr(&js, "{\n  \"currency\": \"EUR\",\n  \"electricity_price_per_kwh\": 0.25,\n"
			   "  \"pue\": 1.2,\n  \"lifetime_years\": 5,\n  \"utilisation\": 0.8,\n"
			   "  \"node_overhead\": 15000,\n  \"systems\": {\n");
	for (i = 0; i < demo_nsystems; i++) {
		const struct demo_system_desc *d = &demo_systems[i];
		if (d->price_per_device > 0)
			strbuf_addf(&js, "    \"%s\": { \"price_per_device\": %g }", d->name,
				    d->price_per_device);
		else
			strbuf_addf(&js, "    \"%s\": { \"price_per_node\": %g }", d->name,
				    d->price_per_node);
		strbuf_addstr(&js, i + 1 < demo_nsystems ? ",\n" : "\n");
	}
	strbuf_addstr(&js, "  }\n}\n");
	rc = ab_write_file(path, js.buf, js.len, err);
	strbuf_release(&js);
	return rc;
}

int demo_write_caraml(struct demo_gen *g, const struct run_demo_opts *o)
{
	size_t i;
	int id = 0, rc = 0, copies, c;

	copies = o->scale > 1 ? (int)o->scale : 1;
	g->next_job = 13250000;
	/* "scale" repeats the campaign, as a site with many JUBE outpaths would */
	for (c = 0; c < copies && !rc; c++)
		for (i = 0; i < AB_ARRAY_SIZE(systems) && !rc; i++) {
			if (systems[i].llm_xmax > 0)
				rc = gen_llm(g, &systems[i], id++, o);
			if (!rc)
				rc = gen_resnet(g, &systems[i], id++, o);
		}
	return rc;
}

int run_demo_write(const char *dir, const struct run_demo_opts *o, long *files,
		   struct strbuf *err)
{
	static const struct {
		unsigned flag;
		const char *sub;
		unsigned long seed_offset;
		int (*write)(struct demo_gen *, const struct run_demo_opts *);
	} suites[] = {
		{ RUN_DEMO_CARAML, "caraml", 0, demo_write_caraml },
		{ RUN_DEMO_MLPERF, "mlperf", 1, demo_write_mlperf },
		{ RUN_DEMO_REFRAME, "reframe", 2, demo_write_reframe },
	};
	struct run_demo_opts opts = *o;
	struct demo_gen g = { 0 };
	struct strbuf sub = STRBUF_INIT;
	size_t i;
	int rc;

	if (opts.repeats < 1)
		opts.repeats = 1;
	if (!opts.suites)
		opts.suites = RUN_DEMO_ALL;
	g.err = err;
	rc = ab_mkdirs(dir, err);
	g.dir = dir;
	if (!rc)
		rc = write_systems_file(&g);
	/* each suite draws from its own stream, so one suite's bytes never
	 * depend on whether another was written */
	for (i = 0; i < AB_ARRAY_SIZE(suites) && !rc; i++) {
		if (!(opts.suites & suites[i].flag))
			continue;
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", dir, suites[i].sub);
		g.dir = sub.buf;
		g.rng = gsl_rng_alloc(gsl_rng_mt19937);
		gsl_rng_set(g.rng, opts.seed + suites[i].seed_offset);
		rc = suites[i].write(&g, &opts);
		gsl_rng_free(g.rng);
		g.rng = NULL;
	}
	strbuf_release(&sub);
	*files = g.files;
	return rc;
}
