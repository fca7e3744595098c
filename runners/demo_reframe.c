/*
 * demo_reframe.c - simulated ReFrame 4.x output of an ML benchmark
 * campaign, as ReFrame leaves it on disk:
 *
 *   DIR/perflogs/<system>/<partition>/<Test>.log   default 4.3+ perflog
 *        (header line, "|"-separated, every perf variable as
 *        value|unit|ref|lower_thres|upper_thres), one line per run
 *   DIR/reports/run-report-<n>.json                 the last session's JSON
 *        run report (data_version 4.2), one per system invocation
 *
 * Values are built on the EPCC ReFrame study's figures (global batch 32,
 * inputs/s, compute / effective throughput): ResNet-50 CPU 40.5/40.1,
 * MI210 293.2/226.6, V100 138.0/134.3, A100 226.2/179.7; CosmoFlow CPU
 * 14.9/14.8, MI210 479.9/72.5, V100 112.2/78.1, A100 117.9/58.1; DeepCAM
 * CPU 6.1/6.1, MI210 26.4/14.5, V100 54.1/15.4, A100 101.7/13.7 — with
 * 2 % run-to-run noise.  One run in the report fails its sanity check, as
 * happens.  Example data, not measurements.
 */
#include "core/compat.h"
#include "demo_priv.h"

#include <math.h>
#include <time.h>

struct rf_part {
	const char *system, *partition, *environ, *host;
	int gpus;                        /* 0: CPU partition */
	double compute[3], effective[3]; /* ResNet-50, CosmoFlow, DeepCAM */
};

static const struct rf_part parts[] = {
	{ "archer2", "compute", "PrgEnv-gnu", "nid001024", 0,
	  { 40.5, 14.9, 6.1 }, { 40.1, 14.8, 6.1 } },
	{ "archer2", "compute-gpu-torch", "rocm-PrgEnv-gnu", "nid200001", 4,
	  { 293.2, 479.9, 26.4 }, { 226.6, 72.5, 14.5 } },
	{ "cirrus", "compute-gpu", "Default", "r2i4n1", 4,
	  { 138.0, 112.2, 54.1 }, { 134.3, 78.1, 15.4 } },
	{ "eidf", "gpu-service", "Default", "gpu-a100-0", 4,
	  { 226.2, 117.9, 101.7 }, { 179.7, 58.1, 13.7 } },
};

static const struct {
	const char *cls, *descr;
} tests[] = {
	{ "ResNet50Benchmark", "ResNet50 training throughput (MLCommons HPC)" },
	{ "CosmoFlowBenchmark", "CosmoFlow training throughput (MLCommons HPC)" },
	{ "DeepCAMBenchmark", "DeepCAM training throughput (MLCommons HPC)" },
};

static const char perflog_header[] =
	"result|job_completion_time|descr|env_vars|environ|exclusive_access|extra_resources|"
	"job_completion_time_unix|job_exitcode|job_nodelist|job_submit_time|jobid|modules|name|"
	"num_cpus_per_task|num_gpus|num_gpus_per_node|num_tasks|num_tasks_per_core|"
	"num_tasks_per_node|num_tasks_per_socket|partition|"
	"effective_throughput_value|effective_throughput_unit|effective_throughput_ref|"
	"effective_throughput_lower_thres|effective_throughput_upper_thres|"
	"compute_throughput_value|compute_throughput_unit|compute_throughput_ref|"
	"compute_throughput_lower_thres|compute_throughput_upper_thres|short_name|system|"
	"unique_name|use_multithreading\n";

/* ReFrame's display name of a parameterised test */
static void display_name(struct strbuf *o, const struct rf_part *p, size_t t)
{
	if (p->gpus)
		strbuf_addf(o, "%s %%num_gpus=%d %%gbs=32", tests[t].cls, p->gpus);
	else
		strbuf_addf(o, "%s %%num_nodes=1 %%gbs=32", tests[t].cls);
}

/* ISO time the way ReFrame prints job_completion_time in perflogs */
static void iso_time(struct strbuf *o, double t, int offset)
{
	time_t s = (time_t)t;
	struct tm tm;
	char buf[64];

	gmtime_r(&s, &tm);
	if (strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm))
		strbuf_addstr(o, buf);
	if (offset)
		strbuf_addstr(o, "+00:00");
}

struct rf_run {
	double compute, effective;
	double submit, done;
	long jobid;
};

static void perflog_line(struct strbuf *o, const struct rf_part *p, size_t t,
			 const struct rf_run *r)
{
	strbuf_addstr(o, "pass|");
	iso_time(o, r->done, 0);
	strbuf_addf(o, "|%s|{}|%s|false|{}|%.4f|0|%s|%.4f|%ld||", tests[t].descr, p->environ, r->done,
		    p->host, r->submit, r->jobid);
	display_name(o, p, t);
	if (p->gpus)
		strbuf_addf(o, "|null|%d|null|1|null|null|null|", p->gpus);
	else
		strbuf_addstr(o, "|1|null|null|128|null|128|null|");
	strbuf_addf(o, "%s|%.1f|inputs/s|0|None|None|%.1f|inputs/s|0|None|None|%s_%08lx|%s|%s|null\n",
		    p->partition, r->effective, r->compute, tests[t].cls,
		    (unsigned long)(0x4647c8f0u + t * 0x1111u), p->system, tests[t].cls);
}

static void report_case(struct strbuf *o, const struct rf_part *p, size_t t,
			const struct rf_run *r, int fail, const char *uuid, int idx)
{
	strbuf_addf(o, "        {\n          \"build_jobid\": null,\n"
		       "          \"descr\": \"%s\",\n          \"display_name\": \"",
		    tests[t].descr);
	display_name(o, p, t);
	strbuf_addf(o, "\",\n          \"environ\": \"%s\",\n", p->environ);
	if (fail)
		strbuf_addstr(o, "          \"fail_phase\": \"sanity\",\n"
				 "          \"fail_reason\": \"sanity error: pattern 'Effective "
				 "Throughput' not found in 'rfm_job.out'\",\n");
	else
		strbuf_addstr(o, "          \"fail_phase\": null,\n          \"fail_reason\": null,\n");
	strbuf_addstr(o, "          \"job_completion_time\": \"");
	iso_time(o, r->done, 1);
	strbuf_addf(o, "\",\n          \"job_completion_time_unix\": %.4f,\n"
		       "          \"job_exitcode\": %d,\n          \"job_nodelist\": [\"%s\"],\n"
		       "          \"job_submit_time\": %.4f,\n          \"jobid\": \"%ld\",\n"
		       "          \"name\": \"",
		    r->done, fail ? 1 : 0, p->host, r->submit, r->jobid);
	display_name(o, p, t);
	strbuf_addf(o, "\",\n          \"num_gpus\": %s,\n          \"num_tasks\": %d,\n"
		       "          \"partition\": \"%s\",\n          \"perfvalues\": {",
		    p->gpus ? "4" : "null", p->gpus ? 1 : 128, p->partition);
	if (!fail)
		strbuf_addf(o, "\n            \"%s:%s:effective_throughput\": [%.1f, 0, null, null, "
			       "\"inputs/s\", \"pass\"],\n"
			       "            \"%s:%s:compute_throughput\": [%.1f, 0, null, null, "
			       "\"inputs/s\", \"pass\"]\n          ",
			    p->system, p->partition, r->effective, p->system, p->partition, r->compute);
	strbuf_addf(o, "},\n          \"result\": \"%s\",\n          \"run_index\": 0,\n"
		       "          \"scheduler\": \"slurm\",\n          \"session_uuid\": \"%s\",\n"
		       "          \"system\": \"%s\",\n          \"unique_name\": \"%s\",\n"
		       "          \"uuid\": \"%s:0:%d\"\n        }",
		    fail ? "fail" : "pass", uuid, p->system, tests[t].cls, uuid, idx);
}

int demo_write_reframe(struct demo_gen *g, const struct run_demo_opts *o)
{
	struct strbuf logs[AB_ARRAY_SIZE(parts)][AB_ARRAY_SIZE(tests)];
	struct strbuf rep = STRBUF_INIT, rel = STRBUF_INIT, uuid = STRBUF_INIT;
	size_t p, t;
	int s, rc = 0, nfail = 0;
	long jobid = 4810000;
	double t0 = 1710752400.0;   /* 18 March 2024 09:00 UTC */

	for (p = 0; p < AB_ARRAY_SIZE(parts); p++)
		for (t = 0; t < AB_ARRAY_SIZE(tests); t++) {
			strbuf_init(&logs[p][t], 0);
			strbuf_addstr(&logs[p][t], perflog_header);
		}
	/* one session a day per system; all but the last go to the perflogs,
	 * the last one to the JSON run reports */
	for (s = 0; s < o->repeats && !rc; s++) {
		int last = s == o->repeats - 1;
		for (p = 0; p < AB_ARRAY_SIZE(parts) && !rc; p++) {
			double clock = t0 + 86400.0 * s + 3600.0 * (double)p;
			if (last) {
				strbuf_reset(&rep);
				strbuf_reset(&uuid);
				strbuf_addf(&uuid, "5e55%04x-0000-4000-8000-%012lx", (unsigned)s,
					    (unsigned long)p + 1);
				nfail = 0;
			}
			for (t = 0; t < AB_ARRAY_SIZE(tests); t++) {
				struct rf_run r;
				/* the GPU service's DeepCAM fails once (sanity) */
				int fail = last && p == 3 && t == 2;

				r.compute = round(parts[p].compute[t] * demo_noise(g, 0.02) * 10) / 10;
				r.effective = round(parts[p].effective[t] * demo_noise(g, 0.02) * 10) / 10;
				if (r.effective > r.compute)
					r.effective = r.compute;
				r.submit = clock + 0.25;
				r.done = clock + 900.0 + 300.0 * demo_noise(g, 0.1);
				r.jobid = jobid++;
				clock = r.done + 60.0;
				if (!last) {
					perflog_line(&logs[p][t], &parts[p], t, &r);
					continue;
				}
				strbuf_addstr(&rep, t ? ",\n" : "");
				report_case(&rep, &parts[p], t, &r, fail, uuid.buf, (int)t);
				nfail += fail;
			}
			if (!last)
				continue;
			/* wrap the cases in the session and run of a report */
			{
				struct strbuf doc = STRBUF_INIT;
				double start = t0 + 86400.0 * s + 3600.0 * (double)p;
				strbuf_addstr(&doc, "{\n  \"session_info\": {\n    \"data_version\": \"4.2\",\n"
						    "    \"hostname\": \"");
				strbuf_addf(&doc, "%s\",\n    \"uuid\": \"%s\",\n    \"time_start\": \"",
					    parts[p].host, uuid.buf);
				iso_time(&doc, start, 1);
				strbuf_addf(&doc, "\",\n    \"time_start_unix\": %.4f,\n"
						  "    \"cmdline\": \"reframe -C config/demo.py --system %s "
						  "-c tests/ml_benchmarks.py -r\",\n"
						  "    \"user\": \"demo\",\n    \"version\": \"4.6.3\",\n"
						  "    \"num_cases\": %zu,\n    \"num_failures\": %d\n  },\n"
						  "  \"runs\": [\n    {\n      \"num_cases\": %zu,\n"
						  "      \"num_failures\": %d,\n      \"run_index\": 0,\n"
						  "      \"testcases\": [\n",
					    start, parts[p].system, AB_ARRAY_SIZE(tests), nfail,
					    AB_ARRAY_SIZE(tests), nfail);
				strbuf_addbuf(&doc, &rep);
				strbuf_addstr(&doc, "\n      ]\n    }\n  ],\n  \"restored_cases\": []\n}\n");
				strbuf_reset(&rel);
				strbuf_addf(&rel, "reports/run-report-%zu.json", p);
				rc = demo_write_file(g, rel.buf, &doc);
				strbuf_release(&doc);
			}
		}
	}
	for (p = 0; p < AB_ARRAY_SIZE(parts); p++)
		for (t = 0; t < AB_ARRAY_SIZE(tests); t++) {
			if (!rc && o->repeats > 1) {
				strbuf_reset(&rel);
				strbuf_addf(&rel, "perflogs/%s/%s/%s.log", parts[p].system,
					    parts[p].partition, tests[t].cls);
				rc = demo_write_file(g, rel.buf, &logs[p][t]);
			}
			strbuf_release(&logs[p][t]);
		}
	strbuf_release(&rep);
	strbuf_release(&rel);
	strbuf_release(&uuid);
	return rc;
}
