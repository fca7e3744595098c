/*
 * demo_mlperf.c - a simulated MLPerf training submission in the
 * MLCommons results layout, as a submitter's tree looks after a round:
 *
 *   DIR/DemoHPC/systems/<system>.json                 system description
 *   DIR/DemoHPC/results/<system>/resnet/result_N.txt  :::MLLOG logs, 5 runs
 *   DIR/DemoHPC/results/<system>/resnet/power/result_N/node_0.txt
 *                                                     (one system: power logs)
 *
 * Benchmark: ResNet-50 v1.5 to 75.9 % top-1 (MLPerf "resnet", five runs,
 * olympic mean).  Throughput is built on the published CARAML figures at 4
 * devices (images/s: A100 6791, H100-NVLink 15921, GH200 20865); time to
 * train = epochs to converge x 1,281,167 images / throughput + evaluation
 * and a small start-up cost.  One run of the A100 system aborts (does not
 * converge), as happens in real rounds; the score then drops it as the
 * slowest.  A four-node GH200 system makes a scale series.  Example data,
 * not measurements.
 */
#include "core/compat.h"
#include "demo_priv.h"

#include <gsl/gsl_randist.h>
#include <math.h>

#define TRAIN_SAMPLES 1281167.0
#define EVAL_SAMPLES 50000.0

struct mlperf_system {
	const char *name;          /* folder name (system description file stem) */
	const char *display;       /* system_name inside the JSON */
	const char *accel;         /* accelerator_model_name */
	const char *cpu;
	int nodes, per_node;
	double img_s;              /* images/s of the whole system */
	double node_w;             /* node power under load [W] (power logs) */
	int power;                 /* write power logs */
	int abort_run;             /* index of a run that does not converge, -1: none */
};

/* 4-device figures from the CARAML paper (see the file banner); the
 * 4-node system scales the GH200 node with 90 % efficiency. */
static const struct mlperf_system msys[] = {
	{ "a100_n1_pytorch", "Demo A100 node", "NVIDIA A100-SXM4-40GB", "AMD EPYC 7742 64-Core Processor",
	  1, 4, 6791, 0, 0, 2 },
	{ "h100_n1_pytorch", "Demo H100 node", "NVIDIA H100-SXM5-80GB", "Intel(R) Xeon(R) Platinum 8462Y+",
	  1, 4, 15921, 3400, 1, -1 },
	{ "gh200_n1_pytorch", "Demo GH200 node", "NVIDIA GH200 Grace Hopper Superchip", "NVIDIA Grace",
	  1, 4, 20865, 0, 0, -1 },
	{ "gh200_n4_pytorch", "Demo GH200 4 nodes", "NVIDIA GH200 Grace Hopper Superchip", "NVIDIA Grace",
	  4, 4, 20865 * 4 * 0.9, 0, 0, -1 },
};

#define RUNS 5

static void mllog(struct strbuf *o, double t_ms, const char *type, const char *key,
		  const char *value, const char *meta)
{
	strbuf_addf(o, ":::MLLOG {\"namespace\": \"\", \"time_ms\": %.0f, \"event_type\": \"%s\", "
		       "\"key\": \"%s\", \"value\": %s, \"metadata\": {\"file\": "
		       "\"/workspace/image_classification/train.py\", \"lineno\": 1%s}}\n",
		    t_ms, type, key, value, meta ? meta : "");
}

static int write_system_json(struct demo_gen *g, const struct mlperf_system *s)
{
	struct strbuf js = STRBUF_INIT, rel = STRBUF_INIT;
	int rc;

	strbuf_addf(&js, "{\n    \"submitter\": \"DemoHPC\",\n    \"division\": \"closed\",\n"
			 "    \"status\": \"Available on-premise\",\n    \"system_name\": \"%s\",\n"
			 "    \"number_of_nodes\": \"%d\",\n    \"host_processors_per_node\": \"2\",\n"
			 "    \"host_processor_model_name\": \"%s\",\n"
			 "    \"accelerators_per_node\": \"%d\",\n"
			 "    \"accelerator_model_name\": \"%s\",\n"
			 "    \"framework\": \"PyTorch 24.04\",\n"
			 "    \"operating_system\": \"Ubuntu 22.04\",\n"
			 "    \"sw_notes\": \"simulated example system of accelbench demo\"\n}\n",
		    s->display, s->nodes, s->cpu, s->per_node, s->accel);
	strbuf_addf(&rel, "DemoHPC/systems/%s.json", s->name);
	rc = demo_write_file(g, rel.buf, &js);
	strbuf_release(&js);
	strbuf_release(&rel);
	return rc;
}

/* The power log of one node over [t0, t1] ms, one reading every 5 s. */
static int write_power(struct demo_gen *g, const struct mlperf_system *s, int run, double t0,
		       double t1)
{
	struct strbuf log = STRBUF_INIT, rel = STRBUF_INIT;
	static const char pf[] = "/workspace/mlperf-logging/mlperf_logging/mllog/examples/power/"
				 "power_measurement.py";
	double t;
	int n, rc = 0;

	for (n = 0; n < s->nodes && !rc; n++) {
		strbuf_reset(&log);
		strbuf_addf(&log, ":::MLLOG {\"namespace\": \"\", \"time_ms\": %.0f, \"event_type\": "
				  "\"INTERVAL_START\", \"key\": \"power_measurement_start\", \"value\": null, "
				  "\"metadata\": {\"file\": \"%s\", \"lineno\": 174}}\n", t0, pf);
		strbuf_addf(&log, ":::MLLOG {\"namespace\": \"\", \"time_ms\": %.0f, \"event_type\": "
				  "\"POINT_IN_TIME\", \"key\": \"conversion_eff\", \"value\": 0.96, "
				  "\"metadata\": {\"file\": \"%s\", \"lineno\": 175, \"measurement_type\": "
				  "\"AC\"}}\n", t0, pf);
		for (t = t0 + 5000; t <= t1; t += 5000) {
			double w = round(s->node_w * demo_noise(g, 0.04));
			strbuf_addf(&log, ":::MLLOG {\"namespace\": \"\", \"time_ms\": %.0f, \"event_type\": "
					  "\"POINT_IN_TIME\", \"key\": \"power_reading\", \"value\": %.1f, "
					  "\"metadata\": {\"file\": \"%s\", \"lineno\": 88, \"host\": \"%d\"}}\n",
				    t, w, pf, n);
		}
		strbuf_addf(&log, ":::MLLOG {\"namespace\": \"\", \"time_ms\": %.0f, \"event_type\": "
				  "\"INTERVAL_END\", \"key\": \"power_measurement_stop\", \"value\": null, "
				  "\"metadata\": {\"file\": \"%s\", \"lineno\": 193}}\n", t1, pf);
		strbuf_reset(&rel);
		strbuf_addf(&rel, "DemoHPC/results/%s/resnet/power/result_%d/node_%d.txt", s->name, run, n);
		rc = demo_write_file(g, rel.buf, &log);
	}
	strbuf_release(&log);
	strbuf_release(&rel);
	return rc;
}

static int write_run(struct demo_gen *g, const struct mlperf_system *s, int run, double *clock)
{
	struct strbuf log = STRBUF_INIT, rel = STRBUF_INIT, v = STRBUF_INIT, m = STRBUF_INIT;
	int devices = s->nodes * s->per_node, gbs = 3264 * (devices > 8 ? 4 : 1);
	int epochs = 33 + 4 * (int)gsl_rng_uniform_int(g->rng, 3), e, aborted = run == s->abort_run;
	double x = s->img_s * demo_noise(g, 0.015), t = *clock, start, acc = 0.60;
	int rc;

	/* the log as mlperf_logging's mllog writes it */
	mllog(&log, t, "POINT_IN_TIME", "cache_clear", "true", NULL);
	mllog(&log, t += 20, "INTERVAL_START", "init_start", "null", NULL);
	mllog(&log, t += 5, "POINT_IN_TIME", "submission_benchmark", "\"resnet\"", NULL);
	mllog(&log, t, "POINT_IN_TIME", "submission_org", "\"DemoHPC\"", NULL);
	mllog(&log, t, "POINT_IN_TIME", "submission_division", "\"closed\"", NULL);
	mllog(&log, t, "POINT_IN_TIME", "submission_status", "\"onprem\"", NULL);
	strbuf_addf(&v, "\"%dxDEMO\"", s->nodes);
	mllog(&log, t, "POINT_IN_TIME", "submission_platform", v.buf, NULL);
	strbuf_reset(&v);
	strbuf_addf(&v, "%d", gbs);
	mllog(&log, t, "POINT_IN_TIME", "global_batch_size", v.buf, NULL);
	mllog(&log, t, "POINT_IN_TIME", "opt_name", "\"lars\"", NULL);
	mllog(&log, t, "POINT_IN_TIME", "lars_opt_base_learning_rate", "10.5", NULL);
	mllog(&log, t, "POINT_IN_TIME", "train_samples", "1281167", NULL);
	mllog(&log, t, "POINT_IN_TIME", "eval_samples", "50000", NULL);
	strbuf_reset(&v);
	strbuf_addf(&v, "%lu", (unsigned long)gsl_rng_uniform_int(g->rng, 100000));
	mllog(&log, t, "POINT_IN_TIME", "seed", v.buf, NULL);
	t += 60000 + 30000 * gsl_rng_uniform(g->rng);   /* initialisation */
	mllog(&log, t, "INTERVAL_END", "init_stop", "null", NULL);
	mllog(&log, t, "INTERVAL_START", "run_start", "null", NULL);
	start = t;
	for (e = 1; e <= epochs + 4; e++) {
		strbuf_reset(&m);
		strbuf_addf(&m, ", \"epoch_num\": %d", e);
		mllog(&log, t, "INTERVAL_START", "epoch_start", "null", m.buf);
		t += TRAIN_SAMPLES / x * 1000.0 * demo_noise(g, 0.005);
		mllog(&log, t, "INTERVAL_END", "epoch_stop", "null", m.buf);
		if (e % 4 == 2) {
			/* evaluation every four epochs, the rule's offset */
			t += 2 * EVAL_SAMPLES / x * 1000.0;
			/* reaches the target at the first evaluation after
			 * "epochs"; an aborted run stays below it */
			acc = 0.763 - 0.16 * exp(-4.0 * e / epochs) - 0.004 * (e < epochs) -
			      (aborted ? 0.01 : 0.0);
			strbuf_reset(&v);
			strbuf_addf(&v, "%.5f", acc);
			mllog(&log, t, "POINT_IN_TIME", "eval_accuracy", v.buf, m.buf);
			if (acc >= 0.759)
				break;
		}
	}
	strbuf_reset(&m);
	strbuf_addf(&m, ", \"epoch_num\": %d, \"status\": \"%s\"", e > epochs + 4 ? epochs + 4 : e,
		    acc >= 0.759 ? "success" : "aborted");
	mllog(&log, t, "INTERVAL_END", "run_stop", "null", m.buf);
	strbuf_addf(&rel, "DemoHPC/results/%s/resnet/result_%d.txt", s->name, run);
	rc = demo_write_file(g, rel.buf, &log);
	if (!rc && s->power)
		rc = write_power(g, s, run, start - 10000, t + 10000);
	*clock = t + 3600e3;   /* the next job starts an hour later */
	strbuf_release(&log);
	strbuf_release(&rel);
	strbuf_release(&v);
	strbuf_release(&m);
	return rc;
}

int demo_write_mlperf(struct demo_gen *g, const struct run_demo_opts *o)
{
	size_t i;
	int r, rc = 0;
	double clock = 1717200000000.0;   /* June 2024 */

	for (i = 0; i < AB_ARRAY_SIZE(msys) && !rc; i++) {
		rc = write_system_json(g, &msys[i]);
		for (r = 0; r < RUNS && !rc; r++)
			rc = write_run(g, &msys[i], r, &clock);
	}
	return rc;
}
