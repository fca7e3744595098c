/*
 * mlperf_infer.c - MLPerf inference LoadGen results: mlperf_log_detail.txt
 * (preferred: full precision, :::MLLOG records) or mlperf_log_summary.txt
 * (fallback when a run has no detail log; values are rounded there), one
 * run per <model>/<Scenario>/performance/run_N directory, suite
 * "mlperf-inference", benchmark "<model>/<Scenario>".
 *
 * The headline is the submission checker's performance metric (formats/
 * mlperf.md 7.3): Offline samples/s, Server completed samples/s (scheduled
 * before LoadGen 4.1), SingleStream / MultiStream the early-stopping
 * latency estimate in ms, tokens/s for the LLMs.  Power comes from spl.txt
 * next to the log: samples strictly between power_begin and power_end with
 * W > 0; W for Offline/Server, mJ per query for Single/MultiStream.
 *
 * Both logs are reduced to the detail log's keys (first occurrence wins, as
 * the official log_parser does), so one function picks the metrics.
 */
#include "core/compat.h"
#include "mlperf_priv.h"

#include <sys/stat.h>

#include <ctype.h>
#include <strings.h>
#include <math.h>
#include <unistd.h>

#define MAX_KV_VALUE 4096

struct infer {
	json_t *kv;            /* detail-log key -> value (first occurrence) */
	long bad_line;         /* first unparsable record */
	struct strbuf bad_why;
	const char *source;    /* "detail" or "summary" */
};

static void infer_init(struct infer *in, const char *source)
{
	in->kv = json_object();
	in->bad_line = 0;
	strbuf_init(&in->bad_why, 0);
	in->source = source;
}

static void infer_release(struct infer *in)
{
	json_decref(in->kv);
	strbuf_release(&in->bad_why);
}

static int kv_num(json_t *kv, const char *key, double *out)
{
	json_t *v = json_object_get(kv, key);

	if (json_is_number(v)) {
		*out = json_number_value(v);
		return isfinite(*out);
	}
	if (json_is_string(v))
		return num_parse_double(json_string_value(v), json_string_length(v), out) == NUM_OK;
	return 0;
}

static const char *kv_str(json_t *kv, const char *key)
{
	return json_string_value(json_object_get(kv, key));
}

/* true / "Yes" -> 1, false / "NO" -> 0, absent -> -1 */
static int kv_bool(json_t *kv, const char *key)
{
	json_t *v = json_object_get(kv, key);
	const char *s = json_string_value(v);

	if (json_is_boolean(v))
		return json_is_true(v);
	if (s)
		return !strcasecmp(s, "yes") || !strcasecmp(s, "true");
	return -1;
}

/* ---- the headline ------------------------------------------------------ */

static int model_is(const char *model, const char *prefix)
{
	return !strncasecmp(model, prefix, strlen(prefix));
}

/* Models scored in tokens/s (submission checker, v4.1 .. v6.0 rules). */
static int token_model(const char *m)
{
	return model_is(m, "llama2-70b") || model_is(m, "mixtral-8x7b") ||
	       model_is(m, "llama3.1-405b") || model_is(m, "llama3.1-8b") ||
	       model_is(m, "deepseek-r1") || model_is(m, "gpt-oss-120b");
}

struct headline {
	const char *key;       /* detail key used */
	const char *metric;    /* throughput | latency */
	const char *unit;      /* samples/s | tokens/s | ms */
	double value;
	int lower_is_better;
};

static double round_num(const char *round)
{
	double r = 0;
	if (round && *round && num_parse_double(round, strlen(round), &r) != NUM_OK)
		r = 0;
	return r;
}

static int pick(json_t *kv, struct headline *h, const char *key, const char *metric,
		const char *unit, double scale)
{
	double v;

	if (!kv_num(kv, key, &v))
		return 0;
	h->key = key;
	h->metric = metric;
	h->unit = unit;
	h->value = v * scale;
	h->lower_is_better = !strcmp(metric, "latency");
	return 1;
}

static int headline(json_t *kv, const char *model, const char *scenario, const char *round,
		    struct headline *h)
{
	double r = round_num(round);
	int tokens = token_model(model), gptj = model_is(model, "gptj");

	memset(h, 0, sizeof(*h));
	if (!strcmp(scenario, "Offline")) {
		if (tokens && pick(kv, h, "result_tokens_per_second", "throughput", "tokens/s", 1))
			return 1;
		if (gptj && pick(kv, h, "result_inferred_tokens_per_second", "throughput",
				 "tokens/s", 1))
			return 1;
		return pick(kv, h, "result_samples_per_second", "throughput", "samples/s", 1);
	}
	if (!strcmp(scenario, "Server") || !strcmp(scenario, "Interactive")) {
		if (r > 0 && r < 4.1) /* LoadGen <= 4.0: scheduled rate (LLMs: completed samples) */
			return pick(kv, h, tokens ? "result_completed_samples_per_sec" :
					       "result_scheduled_samples_per_sec",
				    "throughput", "samples/s", 1);
		if (tokens && pick(kv, h, "result_completed_tokens_per_second", "throughput",
				   "tokens/s", 1))
			return 1;
		if (gptj && pick(kv, h, "result_inferred_completed_tokens_per_second", "throughput",
				 "tokens/s", 1))
			return 1;
		return pick(kv, h, "result_completed_samples_per_sec", "throughput", "samples/s", 1) ||
		       pick(kv, h, "result_scheduled_samples_per_sec", "throughput", "samples/s", 1);
	}
	if (!strcmp(scenario, "SingleStream")) {
		if (model_is(model, "whisper") &&
		    pick(kv, h, "result_90.00_percentile_latency_ns", "latency", "ms", 1e-6))
			return 1;
		return pick(kv, h, "early_stopping_latency_ss", "latency", "ms", 1e-6) ||
		       pick(kv, h, "result_90.00_percentile_latency_ns", "latency", "ms", 1e-6);
	}
	if (!strcmp(scenario, "MultiStream"))
		return pick(kv, h, "early_stopping_latency_ms", "latency", "ms", 1e-6) ||
		       pick(kv, h, "result_99.00_percentile_latency_ns", "latency", "ms", 1e-6);
	return 0;
}

/* "offline" -> "Offline": the log's effective_scenario wins anyway. */
static const char *canonical_scenario(const char *s)
{
	static const char *const names[] = { "Offline", "Server", "SingleStream", "MultiStream",
					     "Interactive", NULL };
	size_t i;

	for (i = 0; s && names[i]; i++)
		if (!strcasecmp(s, names[i]))
			return names[i];
	return NULL;
}

/* ---- power from spl.txt ------------------------------------------------ */

static int two(const char *p)
{
	return isdigit((unsigned char)p[0]) && isdigit((unsigned char)p[1]) ?
		       (p[0] - '0') * 10 + (p[1] - '0') : -1;
}

/* "MM-DD-YYYY HH:MM:SS.ffffff" (strptime %m-%d-%Y %H:%M:%S.%f) -> microseconds. */
static int parse_ptd_time(const char *s, size_t n, long long *us)
{
	int mo, d, y1, y2, h, mi, sec;
	long long frac = 0;
	size_t i, digits = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n < 21 || s[2] != '-' || s[5] != '-' || s[10] != ' ' || s[13] != ':' ||
	    s[16] != ':' || s[19] != '.')
		return -1;
	mo = two(s);
	d = two(s + 3);
	y1 = two(s + 6);
	y2 = two(s + 8);
	h = two(s + 11);
	mi = two(s + 14);
	sec = two(s + 17);
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || y1 < 0 || y2 < 0 || h < 0 || h > 23 ||
	    mi < 0 || mi > 59 || sec < 0 || sec > 61)
		return -1;
	for (i = 20; i < n; i++) {
		if (!isdigit((unsigned char)s[i]) || ++digits > 6)
			return -1;
		frac = frac * 10 + (s[i] - '0');
	}
	if (!digits)
		return -1;
	for (; digits < 6; digits++)
		frac *= 10;
	*us = ((long long)ingest_days_from_civil(y1 * 100 + y2, mo, d) * 86400 + h * 3600 + mi * 60 +
	       sec) * 1000000LL + frac;
	return 0;
}

struct spl_power {
	double avg_w;
	long samples;
	double duration_s;
};

/* 1 computed, 0 no spl.txt, -AB_EDATA (why) unusable.  Emitting the samples
 * needs the run id, so they are re-read by emit_spl(). */
static int read_spl(const char *dir, long long begin, long long end, struct spl_power *out,
		    struct ingest_file *f, int64_t run_id, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct fields fl;
	struct lines lr;
	double sum = 0;
	FILE *fp;
	int rc;

	memset(out, 0, sizeof(*out));
	strbuf_addf(&path, "%s/spl.txt", dir);
	fp = ab_fopen_input(path.buf, &err);
	strbuf_release(&path);
	if (!fp) {
		int absent = errno == ENOENT;
		/* a FIFO or directory named spl.txt is no power log, and says so */
		if (!absent) {
			strbuf_reset(why);
			strbuf_addf(why, "spl.txt: %s", err.buf);
		}
		strbuf_release(&err);
		return absent ? 0 : -AB_EDATA;
	}
	fields_init(&fl);
	lines_init(&lr, fp, 0, LINES_CR);
	while ((rc = lines_next(&lr, &err)) == 1) {
		long long ts;
		double w;

		if (strncmp(lr.line.buf, "Time", 4))
			continue;
		fields_split(&fl, lr.line.buf, lr.line.len, ',', 0);
		if (fl.n < 4 || parse_ptd_time(fl.v[1], fl.len[1], &ts) < 0) {
			strbuf_reset(why);
			strbuf_addf(why, "spl.txt:%ld: no time stamp \"MM-DD-YYYY HH:MM:SS.fff\"",
				    lr.lineno);
			rc = -AB_EDATA;
			break;
		}
		if (!(ts > begin && ts < end))
			continue;
		if (num_parse_double(fl.v[3], fl.len[3], &w) != NUM_OK) {
			strbuf_reset(why);
			strbuf_addf(why, "spl.txt:%ld: watts \"%.*s\" is not a number", lr.lineno,
				    (int)(fl.len[3] < 40 ? fl.len[3] : 40), fl.v[3]);
			rc = -AB_EDATA;
			break;
		}
		if (!(w > 0))
			continue;
		sum += w;
		out->samples++;
		if (f) {
			rc = ingest_emit_power(f, run_id, "spl", (double)ts / 1e6, w, why);
			if (rc < 0)
				break;
		}
	}
	if (rc < 0 && !why->len) {
		strbuf_reset(why);
		strbuf_addf(why, "spl.txt: %s", err.buf);
	}
	lines_release(&lr);
	fields_release(&fl);
	fclose(fp);
	strbuf_release(&err);
	if (rc < 0)
		return rc;
	if (!out->samples) {
		strbuf_setstr(why, "spl.txt: no power samples between power_begin and power_end");
		return -AB_EDATA;
	}
	out->avg_w = sum / (double)out->samples;
	out->duration_s = (double)(end - begin) / 1e6;
	return 1;
}

/* ---- the run ----------------------------------------------------------- */

static void add_metric(struct ingest_metric *m, size_t *n, const char *name, double v,
		       const char *unit)
{
	if (!isfinite(v))
		return;
	m[*n].name = name;
	m[*n].value = v;
	m[*n].unit = unit;
	m[*n].meta = NULL;
	(*n)++;
}

static const struct {
	const char *metric, *key;
} latency_keys[] = {
	{ "latency_mean", "result_mean_latency_ns" },
	{ "latency_p50", "result_50.00_percentile_latency_ns" },
	{ "latency_p90", "result_90.00_percentile_latency_ns" },
	{ "latency_p95", "result_95.00_percentile_latency_ns" },
	{ "latency_p97", "result_97.00_percentile_latency_ns" },
	{ "latency_p99", "result_99.00_percentile_latency_ns" },
	{ "latency_p99_9", "result_99.90_percentile_latency_ns" },
	{ "ttft_p50", "result_first_token_50.00_percentile_latency_ns" },
	{ "ttft_p99", "result_first_token_99.00_percentile_latency_ns" },
	{ "tpot_p50", "result_time_per_output_token_50.00_percentile_ns" },
	{ "tpot_p99", "result_time_per_output_token_99.00_percentile_ns" },
};

#define MAX_METRICS 24
#define MODEL_MAPPING_MAX (1u << 20)

/*
 * The official model of a model folder: an open-division submitter maps
 * its own model folders to the benchmark they are scored as in
 * <submitter>/model_mapping.json ({"Llama-2-7b-chat-hf-FP8": "llama2-70b-99.9"},
 * as the submission checker reads it).  out is empty when there is none.
 */
static void mapped_model(const struct mlperf_layout *l, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT, e = STRBUF_INIT;
	json_error_t je;
	json_t *j;
	struct stat st;
	FILE *fp;

	strbuf_reset(out);
	strbuf_addf(&path, "%s/model_mapping.json", l->root.buf);
	if (stat(path.buf, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= MODEL_MAPPING_MAX &&
	    (fp = ab_fopen_input(path.buf, &e))) {
		j = json_loadf(fp, 0, &je);
		fclose(fp);
		if (j) {
			const char *m = json_string_value(json_object_get(j, l->bench.buf));
			if (m && *m)
				strbuf_setstr(out, m);
			json_decref(j);
		}
	}
	strbuf_release(&path);
	strbuf_release(&e);
}

/* N of a .../performance/run_N/ directory; 0 when the result has no run_ folder. */
static long run_number(const struct mlperf_layout *l)
{
	const char *b = ingest_basename(l->bench_dir.buf);
	long long n;

	if (strncmp(b, "run_", 4) || num_parse_ll(b + 4, strlen(b + 4), &n) != NUM_OK || n < 1 ||
	    n > 1000000)
		return 0;
	return (long)n;
}

static int emit_infer(struct ingest_file *f, struct infer *in, struct strbuf *err)
{
	struct mlperf_layout l;
	struct mlperf_sysdesc sd;
	struct ingest_run run;
	struct ingest_metric m[MAX_METRICS];
	struct headline h;
	struct spl_power pw;
	struct strbuf why = STRBUF_INIT, reason = STRBUF_INIT, key = STRBUF_INIT,
		      bench = STRBUF_INIT, dir = STRBUF_INIT, eff_unit = STRBUF_INIT,
		      model = STRBUF_INIT, note = STRBUF_INIT;
	const char *scenario, *mode, *validity;
	long run_no;
	double v;
	long long begin = 0, end = 0;
	int rc, have_head, have_window = 0, power_rc = 0, spq;
	int64_t run_id = 0;
	size_t nm = 0, i;

	mlperf_layout_init(&l);
	mlperf_sysdesc_init(&sd);
	memset(&run, 0, sizeof(run));
	if (mlperf_layout_inference(&l, f->path) < 0) {
		rc = ingest_fail_at(f, err, 0, "cannot tell submitter, system, model and scenario: "
				    "expected <submitter>/results/<system>/<model>/<scenario>/"
				    "performance/run_N/%s", ingest_basename(f->path));
		goto out;
	}
	mode = kv_str(in->kv, "effective_test_mode");
	if (mode && strcmp(mode, "PerformanceOnly")) {
		ingest_warn(f, 0, "test mode \"%s\", not a performance run: nothing to add", mode);
		rc = 0;
		goto out;
	}
	scenario = canonical_scenario(kv_str(in->kv, "effective_scenario"));
	if (!scenario)
		scenario = canonical_scenario(l.scenario.buf);
	if (!scenario) {
		rc = ingest_fail_at(f, err, 0, "unknown scenario \"%s\" (no effective_scenario in "
				    "the log)", l.scenario.buf);
		goto out;
	}
	if (mlperf_sysdesc_load(&sd, &l, f, &why) < 0)
		ingest_warn(f, 0, "%s", why.buf);
	else if (!sd.json)
		ingest_warn(f, 0, "no system description systems/%s.json", l.system.buf);

	mapped_model(&l, &model);
	have_head = headline(in->kv, model.len ? model.buf : l.bench.buf, scenario, l.round.buf, &h);
	validity = kv_str(in->kv, "result_validity");
	run.status = RUN_OK;
	if (in->bad_line) {
		run.status = RUN_INVALID;
		strbuf_addf(&reason, "%s:%ld: unparsable :::MLLOG record (%s)",
			    ingest_basename(f->path), in->bad_line, in->bad_why.buf);
		ingest_warn(f, in->bad_line, "unparsable :::MLLOG record (%s); the run is stored "
			    "as invalid", in->bad_why.buf);
	}
	if (!have_head) {
		if (!reason.len)
			run.status = RUN_INVALID;
		strbuf_addf(&reason, "%sno performance result for %s in the log",
			    reason.len ? "; " : "", scenario);
	}
	if (!validity || strcmp(validity, "VALID")) {
		static const struct { const char *key, *what; } checks[] = {
			{ "result_perf_constraints_met", "performance constraints" },
			{ "result_min_duration_met", "min duration" },
			{ "result_min_queries_met", "min queries" },
			{ "early_stopping_met", "early stopping" },
		};
		if (!reason.len)
			run.status = RUN_INVALID;
		strbuf_addf(&reason, "%sresult_validity %s", reason.len ? "; " : "",
			    validity ? validity : "missing");
		for (i = 0; i < AB_ARRAY_SIZE(checks); i++)
			if (kv_bool(in->kv, checks[i].key) == 0)
				strbuf_addf(&reason, ", %s not met", checks[i].what);
	}

	strbuf_addf(&bench, "%s/%s", l.bench.buf, scenario);
	if (have_head)
		add_metric(m, &nm, h.metric, h.value, h.unit);
	if (have_head && !strcmp(h.unit, "tokens/s") &&
	    (kv_num(in->kv, "result_samples_per_second", &v) ||
	     kv_num(in->kv, "result_completed_samples_per_sec", &v)))
		add_metric(m, &nm, "throughput_samples", v, "samples/s");
	for (i = 0; i < AB_ARRAY_SIZE(latency_keys); i++)
		if (kv_num(in->kv, latency_keys[i].key, &v))
			add_metric(m, &nm, latency_keys[i].metric, v / 1e6, "ms");

	/* power: spl.txt between power_begin and power_end */
	ingest_dirname(&dir, f->path);
	if (kv_str(in->kv, "power_begin") && kv_str(in->kv, "power_end") &&
	    parse_ptd_time(kv_str(in->kv, "power_begin"), strlen(kv_str(in->kv, "power_begin")),
			   &begin) == 0 &&
	    parse_ptd_time(kv_str(in->kv, "power_end"), strlen(kv_str(in->kv, "power_end")),
			   &end) == 0)
		have_window = 1;
	if (have_window) {
		power_rc = read_spl(dir.buf, begin, end, &pw, NULL, 0, &why);
		if (power_rc < 0)
			ingest_warn(f, 0, "no power: %s", why.buf);
	}
	spq = !strcmp(scenario, "MultiStream") ? 8 : 1;
	if (power_rc > 0 && have_head) {
		json_object_set_new(in->kv, "power_samples", json_integer(pw.samples));
		if (!strcmp(scenario, "SingleStream") || !strcmp(scenario, "MultiStream")) {
			double q, mj;
			if (kv_num(in->kv, "result_query_count", &q) && q > 0) {
				mj = pw.avg_w * pw.duration_s * 1000 / (double)(long long)q;
				if (!strcasecmp(l.scenario.buf, "MultiStream") &&
				    !strcmp(scenario, "SingleStream"))
					mj = pw.avg_w * pw.duration_s * 8 * 1000 / (double)(long long)q;
				add_metric(m, &nm, "avg_power", pw.avg_w, "W");
				add_metric(m, &nm, "energy_per_query", mj, "mJ");
				add_metric(m, &nm, "efficiency", spq * 1000 / mj, "samples/J");
			}
		} else {
			strbuf_addf(&eff_unit, "%s/W", h.unit);
			add_metric(m, &nm, "avg_power", pw.avg_w, "W");
			add_metric(m, &nm, "efficiency", h.value / pw.avg_w, eff_unit.buf);
		}
	}

	/* params: what the log said, and where it came from */
	ingest_param_str(in->kv, "submitter", sd.submitter ? sd.submitter : l.submitter.buf);
	ingest_param_str(in->kv, "submitter_folder", l.submitter.buf);
	ingest_param_str(in->kv, "system_folder", l.system.buf);
	ingest_param_str(in->kv, "model", l.bench.buf);
	if (model.len)
		ingest_param_str(in->kv, "model_mapped", model.buf);
	/* MLPerf's official performance run is run_1; later runs some
	 * submitters keep are stored, marked, and left out of the statistics */
	run_no = run_number(&l);
	if (run_no) {
		ingest_param_int(in->kv, "run", run_no);
		json_object_set_new(in->kv, "official", json_boolean(run_no == 1));
	}
	ingest_param_str(in->kv, "scenario", scenario);
	ingest_param_str(in->kv, "division", l.division.len ? l.division.buf : sd.division);
	mlperf_sysdesc_division(&sd, l.division.len ? l.division.buf : sd.division);
	ingest_param_str(in->kv, "availability", sd.status);
	json_object_set_new(in->kv, "round", l.round.len ? json_string(l.round.buf) : json_null());
	ingest_param_str(in->kv, "result_source", in->source);
	if (have_head)
		ingest_param_str(in->kv, "metric_key", h.key);

	mlperf_sysdesc_fill(&sd, &run.system);
	run.suite = "mlperf-inference";
	run.benchmark = bench.buf;
	run.bench_metric = have_head ? h.metric :
			   (!strcmp(scenario, "SingleStream") || !strcmp(scenario, "MultiStream")) ?
						 "latency" : "throughput";
	run.bench_unit = have_head ? h.unit : !strcmp(run.bench_metric, "latency") ? "ms" :
										"samples/s";
	run.lower_is_better = !strcmp(run.bench_metric, "latency");
	run.nodes = sd.nodes;
	run.devices = sd.nodes && sd.per_node ? sd.nodes * sd.per_node : 0;
	run.framework = sd.framework;
	run.started = kv_str(in->kv, "test_datetime");
	run.params = in->kv;
	run.excluded_reason = run.status == RUN_OK ? NULL : reason.buf;
	if (run_no > 1) {
		strbuf_addf(&note, "not official: run_%ld (MLPerf scores run_1)", run_no);
		if (run.excluded_reason)
			strbuf_addf(&note, "; %s", run.excluded_reason);
		run.excluded_reason = note.buf;
	}
	/* one run per run directory: its detail and summary logs share it */
	strbuf_addf(&key, "mlperf-inference:%s", l.bench_dir.buf);
	run.dedupe_key = key.buf;
	run.metrics = m;
	run.nmetrics = run.status == RUN_OK ? nm : 0;
	rc = ingest_emit_run(f, &run, &run_id, err);
	if (rc == 0 && power_rc > 0) {
		strbuf_reset(&why);
		rc = read_spl(dir.buf, begin, end, &pw, f, run_id, &why);
		if (rc < 0)
			strbuf_addbuf(err, &why);
	}
	if (rc > 0)
		rc = 0;
out:
	mlperf_sysdesc_release(&sd);
	mlperf_layout_release(&l);
	strbuf_release(&why);
	strbuf_release(&reason);
	strbuf_release(&key);
	strbuf_release(&bench);
	strbuf_release(&dir);
	strbuf_release(&eff_unit);
	strbuf_release(&model);
	strbuf_release(&note);
	return rc;
}

/* ---- mlperf_log_detail.txt --------------------------------------------- */

static int parse_detail(struct ingest_file *f, struct strbuf *err)
{
	struct infer in;
	struct mllog_reader r;
	struct mllog_rec rec;
	struct strbuf k = STRBUF_INIT;
	int rc;

	infer_init(&in, "detail");
	if (f->data)
		mllog_init_mem(&r, f->data, (size_t)f->size, 0);
	else
		mllog_init(&r, f->fp, 0);
	while ((rc = mllog_next(&r, &rec, err)) == 1) {
		if (!rec.ok) {
			if (!in.bad_line) {
				in.bad_line = rec.line;
				strbuf_setstr(&in.bad_why, rec.why);
			}
			continue;
		}
		if (!rec.key || !rec.key_len || rec.value.n > MAX_KV_VALUE)
			continue;
		mllog_key_utf8(&k, &rec);
		if (!json_object_getn(in.kv, k.buf, k.len))
			json_object_setn_new(in.kv, k.buf, k.len, jspan_json(rec.value));
	}
	if (rc < 0)
		ab_error_prefix(err, f->path, 0);
	else if (!r.records)
		rc = ingest_fail_at(f, err, 0, "no :::MLLOG records: not a LoadGen detail log");
	else
		rc = emit_infer(f, &in, err);
	mllog_release(&r);
	infer_release(&in);
	strbuf_release(&k);
	return rc;
}

/* ---- mlperf_log_summary.txt -------------------------------------------- */

static const struct {
	const char *label, *key;
} summary_labels[] = {
	{ "sut name", "sut_name" },
	{ "scenario", "effective_scenario" },
	{ "mode", "effective_test_mode" },
	{ "samples per second", "result_samples_per_second" },
	{ "tokens per second", "result_tokens_per_second" },
	{ "completed samples per second", "result_completed_samples_per_sec" },
	{ "completed tokens per second", "result_completed_tokens_per_second" },
	{ "scheduled samples per second", "result_scheduled_samples_per_sec" },
	{ "result is", "result_validity" },
	{ "performance constraints satisfied", "result_perf_constraints_met" },
	{ "min duration satisfied", "result_min_duration_met" },
	{ "min queries satisfied", "result_min_queries_met" },
	{ "early stopping satisfied", "early_stopping_met" },
	{ "early stopping 90th percentile estimate", "early_stopping_latency_ss" },
	{ "early stopping 90.0th percentile estimate", "early_stopping_latency_ss" },
	{ "early stopping 99th percentile estimate", "early_stopping_latency_ms" },
	{ "early stopping 99.0th percentile estimate", "early_stopping_latency_ms" },
	{ "90th percentile latency (ns)", "result_90.00_percentile_latency_ns" },
	{ "90.0th percentile latency (ns)", "result_90.00_percentile_latency_ns" },
	{ "99th percentile latency (ns)", "result_99.00_percentile_latency_ns" },
	{ "99.0th percentile latency (ns)", "result_99.00_percentile_latency_ns" },
	{ "min latency (ns)", "result_min_latency_ns" },
	{ "max latency (ns)", "result_max_latency_ns" },
	{ "mean latency (ns)", "result_mean_latency_ns" },
};

/* Map a summary label (lower case, trimmed) to a detail key in out. */
static int summary_key(const char *label, int in_params, struct strbuf *out)
{
	size_t i, n = strlen(label);
	const char *pct = strstr(label, " percentile ");

	strbuf_reset(out);
	if (in_params) { /* "min_duration (ms)" -> effective_min_duration_ms */
		const char *paren = strchr(label, '(');
		strbuf_addstr(out, "effective_");
		strbuf_add(out, label, paren ? (size_t)(paren - label) : n);
		strbuf_rtrim(out);
		if (paren) {
			strbuf_addch(out, '_');
			strbuf_add(out, paren + 1, strcspn(paren + 1, ")"));
		}
		return 1;
	}
	for (i = 0; i < AB_ARRAY_SIZE(summary_labels); i++)
		if (!strcmp(label, summary_labels[i].label)) {
			strbuf_addstr(out, summary_labels[i].key);
			return 1;
		}
	/* "99.00 percentile latency (ns)", "... first token latency (ns)",
	 * "... time to output token (ns)" / "... time per output token (ns)" */
	if (pct && isdigit((unsigned char)label[0])) {
		const char *rest = pct + 12;
		size_t plen = (size_t)(pct - label);
		if (!strcmp(rest, "latency (ns)"))
			strbuf_addf(out, "result_%.*s_percentile_latency_ns", (int)plen, label);
		else if (!strcmp(rest, "first token latency (ns)"))
			strbuf_addf(out, "result_first_token_%.*s_percentile_latency_ns", (int)plen,
				    label);
		else if (!strcmp(rest, "time to output token (ns)") ||
			 !strcmp(rest, "time per output token (ns)"))
			strbuf_addf(out, "result_time_per_output_token_%.*s_percentile_ns",
				    (int)plen, label);
		return out->len > 0;
	}
	return 0;
}

int mlperf_parse_summary(struct ingest_file *f, struct strbuf *err)
{
	struct infer in;
	struct lines lr;
	struct strbuf label = STRBUF_INIT, val = STRBUF_INIT, key = STRBUF_INIT;
	int rc, in_params = 0, header = 0;
	size_t i;

	infer_init(&in, "summary");
	lines_init(&lr, f->fp, 0, LINES_CR);
	while ((rc = lines_next(&lr, err)) == 1) {
		const char *line = lr.line.buf, *colon;
		double d;

		if (strstr(line, "MLPerf Results Summary"))
			header = 1;
		if (strstr(line, "Test Parameters Used")) {
			in_params = 1;
			continue;
		}
		if (strstr(line, "Additional Stats"))
			in_params = 0;
		/* "Processed at least 64 queries (1580640)." = the query count */
		if (strstr(line, "Processed at least") && strchr(line, '(')) {
			long long q;
			const char *p = strchr(line, '(') + 1;
			if (num_parse_ll(p, strcspn(p, ")"), &q) == NUM_OK &&
			    !json_object_get(in.kv, "result_query_count"))
				json_object_set_new(in.kv, "result_query_count", json_integer(q));
			continue;
		}
		colon = strchr(line, ':');
		if (!colon)
			continue;
		strbuf_reset(&label);
		strbuf_add(&label, line, (size_t)(colon - line));
		strbuf_trim(&label);
		if (label.len && label.buf[0] == '*') { /* " * Early stopping ..." bullets */
			memmove(label.buf, label.buf + 1, label.len);
			label.len--;
			strbuf_trim(&label);
		}
		for (i = 0; i < label.len; i++)
			label.buf[i] = (char)tolower((unsigned char)label.buf[i]);
		strbuf_setstr(&val, colon + 1);
		strbuf_trim(&val);
		if (!summary_key(label.buf, in_params, &key) || json_object_get(in.kv, key.buf))
			continue;
		if (num_parse_double(val.buf, val.len, &d) == NUM_OK) {
			long long ll;
			if (num_parse_ll(val.buf, val.len, &ll) == NUM_OK)
				json_object_set_new(in.kv, key.buf, json_integer(ll));
			else if (val.len == strspn(val.buf, "0123456789"))
				/* a seed beyond int64: exact digits, not a double */
				json_object_set_new(in.kv, key.buf, json_stringn(val.buf, val.len));
			else
				json_object_set_new(in.kv, key.buf, json_real(d));
		} else {
			json_object_set_new(in.kv, key.buf, json_stringn(val.buf, val.len));
		}
	}
	if (rc < 0) {
		ab_error_prefix(err, f->path, 0);
	} else if (!header) {
		rc = ingest_fail_at(f, err, 1, "no \"MLPerf Results Summary\" header: not a "
				    "LoadGen summary");
	} else if (!json_object_get(in.kv, "effective_scenario") &&
		   !json_object_get(in.kv, "result_validity")) {
		/* accuracy-mode summaries hold only the trailer lines */
		ingest_warn(f, 0, "no results in the summary: nothing to add");
		rc = 0;
	} else {
		rc = emit_infer(f, &in, err);
	}
	lines_release(&lr);
	infer_release(&in);
	strbuf_release(&label);
	strbuf_release(&val);
	strbuf_release(&key);
	return rc;
}

/* ---- detection ----------------------------------------------------------- */

/* Logs that are not the result of a performance run: accuracy, compliance
 * audits and power ranging runs (read by nobody; the companion format
 * claims them so a directory walk passes over them). */
int mlperf_infer_aside(const char *path)
{
	return strstr(path, "/accuracy/") || strstr(path, "/compliance/") ||
	       strstr(path, "/ranging/") || strstr(path, "/TEST0");
}

/* 1 when a summary has a detail log next to it (which is preferred). */
int mlperf_summary_has_detail(const char *path)
{
	struct strbuf p = STRBUF_INIT;
	int yes;

	ingest_dirname(&p, path);
	strbuf_addstr(&p, "/mlperf_log_detail.txt");
	yes = access(p.buf, R_OK) == 0;
	strbuf_release(&p);
	return yes;
}

static int detect_detail(const char *path, const unsigned char *head, size_t len)
{
	const char *base = ingest_basename(path);
	int named = !strcmp(base, "mlperf_log_detail.txt");
	int loadgen = mlperf_has_loadgen_mark(head, len) &&
		      mlperf_memmem(head, len, MLLOG_TOKEN, MLLOG_TOKEN_LEN) != NULL;

	if (mlperf_infer_aside(path))
		return 0;
	if (named && loadgen)
		return 95;
	return named || loadgen ? 85 : 0;
}

static int detect_summary(const char *path, const unsigned char *head, size_t len)
{
	const char *base = ingest_basename(path);
	int named = !strcmp(base, "mlperf_log_summary.txt");
	int looks = mlperf_memmem(head, len < 256 ? len : 256, "MLPerf Results Summary", 22) != NULL;

	if (mlperf_infer_aside(path) || (named && mlperf_summary_has_detail(path)))
		return 0;
	if (named && looks)
		return 95;
	return looks ? 85 : 0;
}

const struct ingest_format ingest_fmt_mlperf_inference = {
	"mlperf-inference", FMT_NAME_HINT | FMT_PATH_IDENTITY, detect_detail, parse_detail
};

const struct ingest_format ingest_fmt_mlperf_inference_summary = {
	"mlperf-inference-summary", FMT_NAME_HINT | FMT_PATH_IDENTITY, detect_summary, mlperf_parse_summary
};
