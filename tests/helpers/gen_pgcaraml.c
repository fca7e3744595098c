/*
 * gen_pgcaraml.c - write a database of N CARAML-shaped runs directly through
 * the ingest sink, for the push/pull benchmark (tests/bench/pg.sh):
 *   gen_pgcaraml DB RUNS
 * One source per JUBE result table of 8 runs (global batch 16..1024 and
 * one out-of-memory run), six systems, two benchmarks, the metrics a
 * CARAML table with its jpwr energy files gives (8 per run), a params
 * object like the parser's, and a short power trace (4 devices x 5
 * samples) per run.  gen_caraml's real tree at this size would hold two
 * hundred million power samples; this keeps the run and metric mix at a
 * size the machine can push in a benchmark.  Deterministic.
 */
#include "core/compat.h"
#include "core/core.h"
#include "ingest/ingest.h"
#include "model/db.h"

#include <jansson.h>

static const char *const systems[] = { "A100", "H100", "WAIH100", "JEDI", "MI250", "GH200" };
static const char *const benches[] = { "llm-gpt-800M", "resnet50" };
static const long batches[] = { 16, 32, 64, 128, 256, 512, 1024, 2048 };

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double urand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT, sha = STRBUF_INIT, key = STRBUF_INIT;
	struct ingest_sink *sink;
	struct db *db;
	long total, done = 0, src = 0;
	char *end;

	if (argc != 3) {
		fprintf(stderr, "usage: gen_pgcaraml DB RUNS\n");
		return 2;
	}
	total = strtol(argv[2], &end, 10);
	if (*end || total <= 0) {
		fprintf(stderr, "gen_pgcaraml: bad run count '%s'\n", argv[2]);
		return 2;
	}
	if (db_open(&db, argv[1], 0, &err) < 0) {
		fprintf(stderr, "gen_pgcaraml: %s\n", err.buf);
		return 1;
	}
	sink = db_ingest_sink(db);
	while (done < total) {
		const char *sys = systems[src % 6], *bench = benches[(src / 6) % 2];
		int llm = !strcmp(bench, "llm-gpt-800M");
		struct ingest_source s = { 0 };
		int k;

		strbuf_reset(&path);
		strbuf_addf(&path, "caraml/%s/%06ld/result/result.dat", bench, src);
		strbuf_reset(&sha);
		for (k = 0; k < 4; k++)
			strbuf_addf(&sha, "%016llx", (unsigned long long)(0x5eed0000ull + src * 4 + k) *
							     0x9e3779b97f4a7c15ull);
		s.path = path.buf;
		s.sha256 = sha.buf;
		s.format = "jube-table";
		s.size = 4096;
		if (sink->begin(sink->self, &s, &err) != 0)
			goto fail;
		for (k = 0; k < 8 && done < total; k++, done++) {
			struct ingest_run r = { 0 };
			struct ingest_metric m[8];
			json_t *params = json_object();
			double x = (llm ? 90000 : 2500) * (1 + src % 6 * 0.3) * batches[k] /
				   (batches[k] + 64.0) * (0.97 + 0.06 * urand());
			double watts = 300 + 300 * urand(), secs = 600;
			int64_t run_id;
			int i, j, rc;

			json_object_set_new(params, "jube_id", json_integer(src));
			json_object_set_new(params, "tag", json_string(sys));
			json_object_set_new(params, "queue", json_string("dc-gpu"));
			json_object_set_new(params, "model_size", json_string(llm ? "800M" : "resnet50"));
			json_object_set_new(params, "energy_file",
					    json_string("/p/project1/bench/CARAML/work/power.0.energy.csv"));
			r.line = k + 2;
			r.system.name = sys;
			r.system.accelerator = sys;
			r.suite = "caraml";
			r.benchmark = bench;
			r.bench_metric = "throughput";
			r.bench_unit = llm ? "tokens/s" : "images/s";
			strbuf_reset(&key);
			strbuf_addf(&key, "caraml:%ld:%d", src, k);
			r.dedupe_key = key.buf;
			r.job_id = "13234567";
			r.started = "2024-08-23T08:02:11Z";
			r.finished = "2024-08-23T08:12:11Z";
			r.nodes = 1;
			r.devices = 4;
			r.global_batch = batches[k];
			r.local_batch = batches[k] / 4;
			r.precision = "fp16";
			r.framework = llm ? "megatron-lm" : "pytorch";
			r.params = params;
			r.status = k == 7 ? RUN_FAILED : RUN_OK;
			r.excluded_reason = k == 7 ? "out of memory" : NULL;
			m[0] = (struct ingest_metric){ "throughput", x, r.bench_unit, NULL };
			m[1] = (struct ingest_metric){ "throughput_per_device", x / 4, r.bench_unit, NULL };
			m[2] = (struct ingest_metric){ "tflops_per_device", x * 1e-3, "TFLOP/s", NULL };
			m[3] = (struct ingest_metric){ "time_per_iteration", batches[k] / x * 1000, "ms", NULL };
			m[4] = (struct ingest_metric){ "energy", watts * 4 * secs / 3600, "Wh", NULL };
			m[5] = (struct ingest_metric){ "avg_power", watts * 4, "W", NULL };
			m[6] = (struct ingest_metric){ "energy_efficiency", x * 3600 / (watts * 4), llm ? "tokens/Wh" : "images/Wh", NULL };
			m[7] = (struct ingest_metric){ "time_to_solution", secs, "s", NULL };
			r.metrics = m;
			r.nmetrics = k == 7 ? 0 : 8;
			rc = sink->run(sink->self, &r, &run_id, &err);
			json_decref(params);
			if (rc < 0)
				goto fail;
			for (i = 0; run_id && k != 7 && i < 4; i++)
				for (j = 0; j < 5; j++) {
					char dev[16];
					snprintf(dev, sizeof(dev), "pynvml:%d", i);
					if (sink->power(sink->self, run_id, dev, 1724400131.0 + j * 0.1,
							watts * (0.95 + 0.1 * urand()), &err) < 0)
						goto fail;
				}
		}
		if (sink->end(sink->self, 1, &err) < 0)
			goto fail;
		src++;
	}
	printf("gen_pgcaraml: %ld runs in %ld sources in %s\n", total, src, argv[1]);
	db_free(db);
	return 0;
fail:
	fprintf(stderr, "gen_pgcaraml: %s\n", err.buf);
	db_free(db);
	return 1;
}
