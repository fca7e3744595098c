/*
 * gen_mlperf.c - write a deterministic MLPerf training round for `make
 * bench`: <out>/training_results_v9.9/<submitter>/{systems/<system>.json,
 * results/<system>/<benchmark>/result_N.txt[, scaling.json, power/...]}.
 *
 *   gen_mlperf OUT_DIR LOGS
 *
 * LOGS result logs of ~200 KB each (1300 is about a real round).
 * The logs look like real submissions: one :::MLLOG record per rank for
 * the init keys, rank prefixes (" 3: "), shell traces, tqdm progress bars
 * on lone carriage returns, per-step tracked_stats, evaluation blocks,
 * ~200 KB per log (a real round is ~266 MB in ~1300 logs).  About one run
 * in 25 fails (aborted, truncated, or one corrupted record), a third of
 * the benchmark directories have a scaling.json and a few carry power logs.
 * Same arguments, same bytes.
 */
#include "core/compat.h"
#include "core/core.h"
#include "gen_util.h"

#include <errno.h>
#include <sys/stat.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

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



static const char *const submitters[] = { "Alpha", "Bravo", "Charlie", "Delta", "Echo",
					  "Foxtrot", "Golf", "Hotel", "India", "Juliett",
					  "Kilo", "Lima", "Mike", "November" };
static const char *const accels[] = { "NVIDIA H100-SXM5-80GB", "NVIDIA H200-SXM-141GB",
				      "AMD Instinct MI300X", "NVIDIA B200-SXM-180GB",
				      "TPU-trillium", "Intel Gaudi 2" };
static const struct {
	const char *name;
	int runs;
	double minutes;
	const char *quality;
	double target;
} benches[] = {
	{ "bert", 10, 5.0, "eval_accuracy", 0.72 },
	{ "dlrm_dcnv2", 10, 3.0, "eval_accuracy", 0.80275 },
	{ "gpt3", 3, 50.0, "eval_accuracy", 2.69 },
	{ "llama2_70b_lora", 10, 8.0, "eval_accuracy", 0.925 },
	{ "retinanet", 5, 30.0, "eval_accuracy", 0.34 },
	{ "stable_diffusion", 10, 12.0, "eval_accuracy", 90 },
	{ "rgat", 10, 6.0, "eval_accuracy", 0.72 },
};

#define REC "%s:::MLLOG {\"namespace\": \"\", \"time_ms\": %lld, \"event_type\": \"%s\", " \
	    "\"key\": \"%s\", \"value\": %s, \"metadata\": {\"file\": \"/workspace/%s/train.py\", " \
	    "\"lineno\": %d%s}}\n"

static void rec(struct strbuf *sb, const char *prefix, long long t, const char *ev,
		const char *key, const char *value, const char *bench, const char *meta)
{
	strbuf_addf(sb, REC, prefix, t, ev, key, value, bench, (int)(rnd() % 900 + 100), meta);
}

/* One result log of about target bytes. */
static void gen_log(struct strbuf *sb, const char *bench, int ranks, long long t0,
		    double minutes, int fail_kind, size_t target, const char *org)
{
	char prefix[16], val[128], meta[128];
	long long t = t0, stop;
	int r, step = 0, epoch = 0;

	strbuf_reset(sb);
	strbuf_addf(sb, "+ echo 'Beginning trial of %s'\nBeginning trial\n", bench);
	strbuf_addstr(sb, "+ srun --ntasks=1 --container-name=mlperf bash -c 'echo :::DLPAL x'\n"
			  ":::DLPAL nvcr.io/mlperf/train:24.09 1234 8 node01 unknown\n");
	strbuf_addstr(sb, ":::SYSJSON {\"submitter\":\"UNKNOWN_MLPERF_SUBMITTER\","
			  "\"system_name\":\"UNKNOWN\"}\n");
	for (r = 0; r < ranks; r++) {
		snprintf(prefix, sizeof(prefix), "%d: ", r);
		rec(sb, prefix, t + r, "POINT_IN_TIME", "cache_clear", "true", bench, "");
	}
	t += 5000;
	for (r = 0; r < ranks; r++) {
		snprintf(prefix, sizeof(prefix), "%d: ", r);
		rec(sb, prefix, t + (long long)(rnd() % 50), "INTERVAL_START", "init_start", "null",
		    bench, "");
	}
	rec(sb, "0: ", t, "POINT_IN_TIME", "submission_benchmark", "\"bench\"", bench, "");
	snprintf(val, sizeof(val), "\"%s\"", org);
	rec(sb, "0: ", t, "POINT_IN_TIME", "submission_org", val, bench, "");
	rec(sb, "0: ", t, "POINT_IN_TIME", "submission_division", "\"closed\"", bench, "");
	rec(sb, "0: ", t, "POINT_IN_TIME", "submission_status", "\"onprem\"", bench, "");
	rec(sb, "0: ", t, "POINT_IN_TIME", "submission_platform", "\"SUBMISSION_PLATFORM_PLACEHOLDER\"",
	    bench, "");
	rec(sb, "0: ", t, "POINT_IN_TIME", "global_batch_size", "4096", bench, "");
	rec(sb, "0: ", t, "POINT_IN_TIME", "gradient_accumulation_steps", "1", bench, "");
	rec(sb, "0: ", t, "POINT_IN_TIME", "seed", "12345", bench, "");
	rec(sb, "0: ", t, "POINT_IN_TIME", "opt_base_learning_rate", "0.00035", bench, "");
	rec(sb, "0: ", t, "POINT_IN_TIME", "opt_lamb_weight_decay_rate", "0.01", bench, "");
	rec(sb, "0: ", t, "POINT_IN_TIME", "train_samples", "3000000", bench, "");
	rec(sb, "0: ", t, "POINT_IN_TIME", "eval_samples", "10000", bench, "");
	t += 60000 + (long long)(rnd() % 60000);
	rec(sb, "0: ", t, "INTERVAL_END", "init_stop", "null", bench, "");
	t += 10;
	rec(sb, "0: ", t, "INTERVAL_START", "run_start", "null", bench, "");
	stop = t + (long long)(minutes * 60000.0);
	/* training: blocks of steps, progress bars, evaluations */
	while (sb->len + 2000 < target) {
		int k;
		snprintf(meta, sizeof(meta), ", \"first_epoch_num\": %d, \"epoch_count\": 1", epoch);
		rec(sb, "0: ", t, "INTERVAL_START", "block_start", "null", bench, meta);
		for (k = 0; k < 8 && sb->len + 2000 < target; k++, step++) {
			snprintf(val, sizeof(val), "{\"throughput\": %.1f, \"step\": %d}",
				 50000 + unif() * 1000, step);
			snprintf(meta, sizeof(meta), ", \"step\": [%d, %d]", epoch, step);
			rec(sb, "0: ", t + k * 100, "POINT_IN_TIME", "tracked_stats", val, bench, meta);
			snprintf(val, sizeof(val), "%.6f", 3.0 - step * 0.001);
			rec(sb, "0: ", t + k * 100, "POINT_IN_TIME", "train_loss", val, bench, meta);
			/* tqdm on one physical line, redrawn with '\r' */
			strbuf_addf(sb, "0: Epoch %d:  %d%%|#####     | %d/800 [00:%02d<00:10, 3.1it/s]\r"
					"0: Epoch %d:  %d%%|######    | %d/800 [00:%02d<00:09, 3.2it/s]\r\n",
				    epoch, k * 12, k * 100, k, epoch, k * 12 + 6, k * 100 + 50, k);
			if (rnd() % 4 == 0)
				strbuf_addstr(sb, "0: /usr/lib/python3/dist-packages/torch/nn/modules/"
						  "module.py:1501: UserWarning: something deprecated "
						  "\xe2\x80\x94 caf\xe9 \xff\n");
		}
		t += 1000;
		snprintf(meta, sizeof(meta), ", \"epoch_num\": %d", epoch);
		rec(sb, "0: ", t, "INTERVAL_START", "eval_start", "null", bench, meta);
		snprintf(val, sizeof(val), "%.5f", 0.5 + 0.2 * (double)epoch / (epoch + 5.0));
		rec(sb, "0: ", t + 50, "POINT_IN_TIME", "eval_accuracy", val, bench, meta);
		rec(sb, "0: ", t + 60, "INTERVAL_END", "eval_stop", "null", bench, meta);
		snprintf(meta, sizeof(meta), ", \"first_epoch_num\": %d, \"epoch_count\": 1", epoch);
		rec(sb, "0: ", t + 70, "INTERVAL_END", "block_stop", "null", bench, meta);
		epoch++;
		t += 100;
	}
	if (fail_kind == 3) { /* a corrupted record in the middle, like Lambda's */
		size_t mid = sb->len / 2;
		const char *nl = memchr(sb->buf + mid, '\n', sb->len - mid);
		if (nl) {
			size_t at = (size_t)(nl - sb->buf) + 1;
			struct strbuf tail = STRBUF_INIT;
			strbuf_add(&tail, sb->buf + at, sb->len - at);
			strbuf_setlen(sb, at);
			strbuf_addstr(sb, "0: :::MLLOG {\"namespace\": \"\", \"time_ms\": 1, "
					  "\"event_type\": \"POINT_IN_TIME\", \"key\": \"x\", "
					  "\"value\": nullorkspace/ft-llm/x.py\", \"lineno\": 7}}\n");
			strbuf_addbuf(sb, &tail);
			strbuf_release(&tail);
		}
	}
	snprintf(val, sizeof(val), "%.5f", 0.7201);
	rec(sb, "0: ", stop - 100, "POINT_IN_TIME", "eval_accuracy", val, bench, ", \"epoch_num\": 99");
	if (fail_kind == 2) { /* truncated mid-record */
		strbuf_addstr(sb, "0: :::MLLOG {\"namespace\": \"\", \"time_ms\": 17");
		return;
	}
	rec(sb, "0: ", stop, "INTERVAL_END", "run_stop", "null", bench,
	    fail_kind == 1 ? ", \"status\": \"aborted\"" : ", \"status\": \"success\"");
	strbuf_addstr(sb, "ENDING TIMING RUN AT 2024-10-10 07:40:41 AM\nRESULT,bench,,1234,nvidia,"
			  "2024-10-10 07:07:08 AM\n");
}

static void gen_power(const char *dir, int nodes, long long t0, double minutes)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	long long t, end = t0 + (long long)(minutes * 60000.0) + 20000;
	int n;

	mkdirs(dir);
	for (n = 0; n < nodes; n++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, REC, "", t0 - 10000, "INTERVAL_START", "power_measurement_start",
			    "null", "power", 174, "");
		strbuf_addf(&sb, REC, "", t0 - 10000, "POINT_IN_TIME", "conversion_eff", "0.96",
			    "power", 175, ", \"measurement_type\": \"AC\"");
		for (t = t0 - 9000; t < end; t += 1000) {
			char w[32];
			snprintf(w, sizeof(w), "%.1f", 3000 + unif() * 3000);
			strbuf_addf(&sb, REC, "", t, "POINT_IN_TIME", "power_reading", w, "power", 88,
				    ", \"host\": \"0\"");
		}
		strbuf_addf(&sb, REC, "", end, "INTERVAL_END", "power_measurement_stop", "null",
			    "power", 193, "");
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/node_%d.txt", dir, n);
		write_file(path.buf, &sb);
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, REC, "", t0, "POINT_IN_TIME", "interconnect_power_est", "450.0", "power", 20,
		    "");
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/sw_0.txt", dir);
	write_file(path.buf, &sb);
	strbuf_release(&sb);
	strbuf_release(&path);
}

int main(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT, dir = STRBUF_INIT;
	long long want, written = 0, logs = 0;
	size_t per_log = 200000;
	int s = 0, sys_no = 0;

	if (argc != 3 || num_parse_ll(argv[2], strlen(argv[2]), &want) != NUM_OK || want <= 0) {
		fprintf(stderr, "usage: gen_mlperf OUT_DIR LOGS\n");
		return 2;
	}
	while (logs < want) {
		const char *org = submitters[s % AB_ARRAY_SIZE(submitters)];
		int nsys = 1 + (int)(rnd() % 3), k;

		for (k = 0; k < nsys && logs < want; k++, sys_no++) {
			char sysname[64];
			int nodes = 1 << (rnd() % 4), ranks = 8 * nodes < 64 ? 8 * nodes : 64;
			size_t b;

			snprintf(sysname, sizeof(sysname), "sys%03d_n%d_ngc24.09", sys_no, nodes);
			strbuf_reset(&dir);
			strbuf_addf(&dir, "%s/training_results_v9.9/%s/systems", argv[1], org);
			if (mkdirs(dir.buf) < 0) {
				fprintf(stderr, "gen_mlperf: cannot create %s\n", dir.buf);
				return 3;
			}
			strbuf_reset(&sb);
			strbuf_addf(&sb,
				    "{\n  \"submitter\": \"%s\",\n  \"division\": \"closed\",\n"
				    "  \"status\": \"Available on-premise\",\n"
				    "  \"system_name\": \"%s %dx\",\n  \"number_of_nodes\": \"%d\",\n"
				    "  \"host_processors_per_node\": \"2\",\n"
				    "  \"host_processor_model_name\": \"Intel(R) Xeon(R) Platinum 8480+\",\n"
				    "  \"accelerators_per_node\": \"8\",\n"
				    "  \"accelerator_model_name\": \"%s\",\n"
				    "  \"framework\": \"PyTorch NVIDIA Release 24.09\",\n"
				    "  \"other_software_stack\": {\"cuda_version\": \"12.6\"},\n"
				    "  \"hw_notes\": \"\", \"sw_notes\": \"\"\n}\n",
				    org, org, nodes, nodes, accels[sys_no % AB_ARRAY_SIZE(accels)]);
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s.json", dir.buf, sysname);
			if (write_file(path.buf, &sb) < 0)
				return 3;
			for (b = 0; b < AB_ARRAY_SIZE(benches); b++) {
				int runs = benches[b].runs, r, power = sys_no % 7 == 3 && b == 3;
				double base = benches[b].minutes * 8.0 / nodes * (0.8 + 0.4 * unif());

				if (rnd() % 3 == 0)
					continue; /* not every system runs every benchmark */
				strbuf_reset(&dir);
				strbuf_addf(&dir, "%s/training_results_v9.9/%s/results/%s/%s", argv[1],
					    org, sysname, benches[b].name);
				mkdirs(dir.buf);
				if (rnd() % 3 == 0) {
					strbuf_reset(&sb);
					strbuf_addf(&sb, "{\"scaling_factor\": %.17g}\n",
						    1.0 + unif() * 0.05);
					strbuf_reset(&path);
					strbuf_addf(&path, "%s/scaling.json", dir.buf);
					write_file(path.buf, &sb);
				}
				for (r = 0; r < runs; r++) {
					double minutes = base * (0.95 + 0.1 * unif());
					long long t0 = 1728000000000LL + (long long)(rnd() % 1000000000);
					int fail = rnd() % 25 == 0 ? 1 + (int)(rnd() % 3) : 0;
					size_t target = per_log / 2 + (size_t)(rnd() % per_log);

					gen_log(&sb, benches[b].name, ranks, t0, minutes, fail, target,
						org);
					strbuf_reset(&path);
					strbuf_addf(&path, "%s/result_%d.txt", dir.buf, r);
					if (write_file(path.buf, &sb) < 0)
						return 3;
					written += (long long)sb.len;
					logs++;
					if (power && !fail) {
						strbuf_reset(&path);
						strbuf_addf(&path, "%s/power/result_%d", dir.buf, r);
						gen_power(path.buf, nodes, t0 + 70000, minutes);
					}
				}
			}
		}
		s++;
	}
	printf("gen_mlperf: %lld logs, %.1f MB in %s/training_results_v9.9\n", logs,
	       (double)written / 1e6, argv[1]);
	strbuf_release(&sb);
	strbuf_release(&path);
	strbuf_release(&dir);
	return 0;
}
