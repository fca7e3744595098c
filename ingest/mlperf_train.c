/*
 * mlperf_train.c - MLPerf training result logs (result_*.txt, :::MLLOG)
 * into one run each, suite "mlperf-training", headline time_to_train [min].
 *
 * Validity is the rule verified against the official summarizer on every
 * log of training rounds 4.1 and 5.0 (formats/mlperf.md section 3): a run
 * is valid iff every :::MLLOG record parses, a run_start and a run_stop
 * exist, the first run_stop says status "success", and init took less than
 * the division's limit.  Invalid runs are stored with status and reason,
 * never dropped: the official score counts them as the slowest runs.
 *
 * Time to train follows the summarizer: the latest run_start and run_stop
 * at the moment both have been seen, minutes = (stop - start) / 60 / 1000.
 *
 * Companion files read from the result's directory: <submitter>/systems/
 * <system>.json (the system row), scaling.json (params.scaling_factor),
 * power/<result>/ (energy, power samples).  Submitter, system and
 * benchmark come from the folder names; the names inside logs are often
 * placeholders.  The official score per (system, benchmark) is computed
 * from the database by model/mlperf_score.c.
 */
#include "core/compat.h"
#include "mlperf_priv.h"

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PARAMS 256
#define MAX_PARAM_VALUE 4096
#define MAX_EVALS 4096

struct train {
	struct ingest_file *f;
	const char *base;            /* file name for messages */
	/* timing as the summarizer reads it */
	double run_start, run_stop;
	int have_start, have_stop, frozen;
	long start_line, stop_line;
	long first_start_line;       /* the first run_start, for the warning on a second */
	int start_warned;
	/* validity */
	int stop_seen;               /* a run_stop was read (the first decides) */
	struct strbuf stop_status;   /* its metadata.status, "" if none */
	long stop_status_line;
	double first_init_start;
	int have_init_start, have_init_stop;
	double limit_min;            /* set by submission_division */
	int limit_set;
	long init_bad_line;
	double init_bad_ms;
	double init_ms;
	long bad_line;               /* first unparsable record */
	struct strbuf bad_why;
	/* things a report needs: params written as JSON text directly (the
	 * bytes a jansson object dumped gives, without building one) */
	struct jtext_obj params;
	struct strbuf evals;         /* eval objects, comma separated */
	size_t nevals;
	size_t last_value, last_value_len; /* the last eval's "value" in evals */
	size_t nparams;
	long long global_batch;
	struct strbuf org, platform, bench, division;
	struct strbuf tmp;
};

static void train_init(struct train *t, struct ingest_file *f)
{
	memset(t, 0, sizeof(*t));
	t->f = f;
	t->base = ingest_basename(f->path);
	t->first_init_start = 9e99;
	strbuf_init(&t->stop_status, 0);
	strbuf_init(&t->bad_why, 0);
	strbuf_init(&t->org, 0);
	strbuf_init(&t->platform, 0);
	strbuf_init(&t->bench, 0);
	strbuf_init(&t->division, 0);
	strbuf_init(&t->tmp, 0);
	jtext_obj_init(&t->params);
	strbuf_init(&t->evals, 0);
}

static void train_release(struct train *t)
{
	strbuf_release(&t->stop_status);
	strbuf_release(&t->bad_why);
	strbuf_release(&t->org);
	strbuf_release(&t->platform);
	strbuf_release(&t->bench);
	strbuf_release(&t->division);
	strbuf_release(&t->tmp);
	jtext_obj_release(&t->params);
	strbuf_release(&t->evals);
}

static void str_value(struct strbuf *out, struct jspan v)
{
	strbuf_reset(out);
	jspan_str(v, out);
}

/* Keys repeated every step or stored elsewhere: not worth a param. */
static int skip_param(const struct mllog_rec *rec)
{
	return MLLOG_KEY_IS(rec, "tracked_stats") || MLLOG_KEY_IS(rec, "train_loss") ||
	       MLLOG_KEY_IS(rec, "cache_clear") || MLLOG_KEY_IS(rec, "eval_accuracy") ||
	       MLLOG_KEY_IS(rec, "throughput");
}

/* params[key] = the text of a record's value (jspan_json's value). */
static void param_span(struct jtext_obj *j, const char *key, size_t klen, struct jspan v)
{
	size_t mark = j->vals.len;

	jspan_text(v, &j->vals);
	jtext_obj_put(j, key, klen, mark);
}

/* ingest_param_str/num/int, as text: a string that is not UTF-8 (which
 * json_string refuses) and a real that is not finite are not set */
static void param_str(struct jtext_obj *j, const char *key, const char *value)
{
	size_t mark = j->vals.len;

	if (value && jtext_str_utf8(&j->vals, value, strlen(value)) == 0)
		jtext_obj_put(j, key, strlen(key), mark);
}

static void param_num(struct jtext_obj *j, const char *key, double value)
{
	if (isfinite(value))
		jtext_obj_set_real(j, key, value);
}

static void keep_param(struct train *t, const struct mllog_rec *rec)
{
	struct jtext_keyref ref;
	size_t len;

	if (!rec->key || !rec->key_len || t->nparams >= MAX_PARAMS ||
	    rec->value.n > MAX_PARAM_VALUE || skip_param(rec))
		return;
	mllog_key_utf8(&t->tmp, rec);
	memset(&ref, 0, sizeof(ref));
	ref.key = t->tmp.buf;
	ref.klen = t->tmp.len;
	if (jtext_obj_get_ref(&t->params, &ref, &len))
		return; /* first occurrence wins (ranks repeat them) */
	param_span(&t->params, t->tmp.buf, t->tmp.len, rec->value);
	t->nparams++;
}

static void keep_eval(struct train *t, const struct mllog_rec *rec)
{
	static const char *const meta_keys[] = { "epoch_num", "samples_count", "metric" };
	static const char *const meta_names[] = { ",\"epoch_num\":", ",\"samples_count\":",
						  ",\"metric\":" };
	struct jspan m[3];
	int found[3];
	struct strbuf *o = &t->evals;
	double v;
	int i;

	if (t->nevals >= MAX_EVALS)
		return;
	/* {"time_ms":..,"value":..,"epoch_num":..,"samples_count":..,"metric":..}
	 * as the jansson object of each eval dumped (json_real refuses a time
	 * that is not finite: no "time_ms" then) */
	strbuf_addstr(o, t->nevals ? ",{" : "{");
	if (isfinite(rec->time_ms)) {
		strbuf_addstr(o, "\"time_ms\":");
		jtext_real(o, rec->time_ms);
		strbuf_addch(o, ',');
	}
	strbuf_addstr(o, "\"value\":");
	t->last_value = o->len;
	if (jspan_num(rec->value, &v) == 0 && isfinite(v))
		jtext_real(o, v);
	else
		jspan_text(rec->value, o);
	t->last_value_len = o->len - t->last_value;
	jspan_get_many(rec->metadata, meta_keys, 3, m, found);
	for (i = 0; i < 3; i++)
		if (found[i] && m[i].n <= 256) {
			strbuf_addstr(o, meta_names[i]);
			jspan_text(m[i], o);
		}
	strbuf_addch(o, '}');
	t->nevals++;
}

static void on_record(struct train *t, const struct mllog_rec *rec)
{
	if (!rec->ok) {
		if (!t->bad_line) {
			t->bad_line = rec->line;
			strbuf_setstr(&t->bad_why, rec->why);
		}
		return;
	}
	if (!rec->key)
		return;
	/* the keys of every training step: nothing below keeps them */
	if (MLLOG_KEY_IS(rec, "tracked_stats") || MLLOG_KEY_IS(rec, "train_loss") ||
	    MLLOG_KEY_IS(rec, "throughput") || MLLOG_KEY_IS(rec, "cache_clear"))
		goto done;
	if (MLLOG_KEY_IS(rec, "run_start")) {
		/* one run, one run_start: a second one is said, not guessed at */
		if (t->first_start_line && !t->start_warned) {
			t->start_warned = 1;
			ingest_warn(t->f, rec->line, "run_start again (the first is at line %ld); %s",
				    t->first_start_line,
				    t->frozen ? "after run_stop: ignored, as the official summarizer does"
					      : "time to train counts from this one, as the official "
						"summarizer does");
		}
		if (!t->first_start_line)
			t->first_start_line = rec->line;
		if (!t->frozen) {
			t->run_start = rec->time_ms;
			t->have_start = 1;
			t->start_line = rec->line;
		}
	} else if (MLLOG_KEY_IS(rec, "run_stop")) {
		if (!t->frozen) {
			t->run_stop = rec->time_ms;
			t->have_stop = 1;
			t->stop_line = rec->line;
		}
		if (!t->stop_seen) {
			struct jspan st;
			t->stop_seen = 1;
			t->stop_status_line = rec->line;
			if (jspan_get(rec->metadata, "status", &st)) {
				if (jspan_type(st) == JT_STR)
					str_value(&t->stop_status, st);
				else
					strbuf_add(&t->stop_status, st.p, st.n < 40 ? st.n : 40);
			}
			if (rec->value.n && jspan_type(rec->value) != JT_NULL)
				param_span(&t->params, "run_stop_value", 14, rec->value);
		}
	} else if (MLLOG_KEY_IS(rec, "init_start")) {
		if (rec->time_ms < t->first_init_start)
			t->first_init_start = rec->time_ms;
		t->have_init_start = 1;
	} else if (MLLOG_KEY_IS(rec, "init_stop")) {
		/* compliance checker: init_stop - first init_start < limit, where
		 * the limit is 0 until submission_division has been read */
		double took = rec->time_ms - t->first_init_start;
		double limit = t->limit_set ? t->limit_min * 60 * 1e3 : 0;
		if (!(took < limit) && !t->init_bad_line) {
			t->init_bad_line = rec->line;
			t->init_bad_ms = took;
		}
		if (!t->have_init_stop && t->have_init_start)
			t->init_ms = took;
		t->have_init_stop = 1;
	} else if (MLLOG_KEY_IS(rec, "eval_accuracy")) {
		keep_eval(t, rec);
	} else if (MLLOG_KEY_IS(rec, "submission_division")) {
		str_value(&t->division, rec->value);
		t->limit_min = !strcmp(t->division.buf, "open") ? 240 : 30;
		t->limit_set = 1;
		keep_param(t, rec);
	} else if (MLLOG_KEY_IS(rec, "submission_org")) {
		if (!t->org.len)
			str_value(&t->org, rec->value);
		keep_param(t, rec);
	} else if (MLLOG_KEY_IS(rec, "submission_platform")) {
		if (!t->platform.len)
			str_value(&t->platform, rec->value);
		keep_param(t, rec);
	} else if (MLLOG_KEY_IS(rec, "submission_benchmark")) {
		if (!t->bench.len)
			str_value(&t->bench, rec->value);
		keep_param(t, rec);
	} else if (MLLOG_KEY_IS(rec, "global_batch_size")) {
		double v;
		if (!t->global_batch && jspan_num(rec->value, &v) == 0 && v > 0 && v < 1e15)
			t->global_batch = (long long)v;
		keep_param(t, rec);
	} else if (jspan_str_is(rec->event_type, "POINT_IN_TIME")) {
		keep_param(t, rec);
	}
done:
	if (t->have_start && t->have_stop)
		t->frozen = 1;
}

/* result_7.txt -> 7, result_<jobid>_07.txt -> 7 (and the job id). */
static long run_index(const char *base, struct strbuf *job)
{
	const char *p = base + 7, *end = base + strlen(base) - 4, *us;
	long long v;

	strbuf_reset(job);
	if (strncmp(base, "result_", 7) || !ingest_ends_with(base, ".txt") || end <= p)
		return -1;
	us = p;
	while (us < end && *us != '_')
		us++;
	if (us < end) { /* result_<jobid>_<n> */
		strbuf_add(job, p, (size_t)(us - p));
		p = us + 1;
		while ((us = memchr(p, '_', (size_t)(end - p))) != NULL)
			p = us + 1;
	}
	if (num_parse_ll(p, (size_t)(end - p), &v) != NUM_OK || v < 0 || v > 1000000000)
		return -1;
	return (long)v;
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* scaling.json of the benchmark directory: 1 found, 0 absent, -1 broken. */
static int read_scaling(const char *bench_dir, double *factor, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT;
	json_error_t je;
	json_t *j, *v;
	FILE *fp;
	int rc = 0;

	strbuf_addf(&path, "%s/scaling.json", bench_dir);
	fp = ab_fopen_input(path.buf, why);
	if (!fp) {
		rc = errno == ENOENT ? 0 : -1;
		goto out;
	}
	j = json_loadf(fp, 0, &je);
	fclose(fp);
	if (!j) {
		strbuf_reset(why);
		strbuf_addf(why, "scaling.json:%d: %s", je.line, je.text);
		rc = -1;
		goto out;
	}
	v = json_object_get(j, "scaling_factor");
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) <= 0) {
		strbuf_setstr(why, "scaling.json: no positive number \"scaling_factor\"");
		rc = -1;
	} else {
		*factor = json_number_value(v);
		rc = 1;
	}
	json_decref(j);
out:
	strbuf_release(&path);
	return rc;
}

/* Why the run is not valid ("" when it is), and its status. */
static enum ingest_run_status verdict(struct train *t, long records, struct strbuf *why)
{
	enum ingest_run_status st = RUN_OK;

	strbuf_reset(why);
#define REASON(status, ...)                                                                  \
	do {                                                                                 \
		if (why->len)                                                                \
			strbuf_addstr(why, "; ");                                            \
		else                                                                         \
			st = (status);                                                       \
		strbuf_addf(why, __VA_ARGS__);                                               \
	} while (0)
	if (!records)
		REASON(RUN_INVALID, "%s: no :::MLLOG records", t->base);
	if (t->bad_line)
		REASON(RUN_INVALID, "%s:%ld: unparsable :::MLLOG record (%s)", t->base, t->bad_line,
		       t->bad_why.buf);
	if (records && !t->have_start)
		REASON(RUN_INVALID, "%s: no run_start", t->base);
	if (records && !t->have_stop)
		REASON(RUN_INVALID, "%s: no run_stop (log truncated?)", t->base);
	if (t->stop_seen && strcmp(t->stop_status.buf, "success")) {
		if (!t->stop_status.len)
			REASON(RUN_INVALID, "%s:%ld: run_stop without a status", t->base,
			       t->stop_status_line);
		else
			REASON(!strcmp(t->stop_status.buf, "aborted") ? RUN_ABORTED : RUN_FAILED,
			       "%s:%ld: run_stop status \"%s\"", t->base, t->stop_status_line,
			       t->stop_status.buf);
	}
	if (t->init_bad_line) {
		if (!t->limit_set)
			REASON(RUN_INVALID, "%s:%ld: init_stop before submission_division (no init "
			       "time limit)", t->base, t->init_bad_line);
		else
			REASON(RUN_INVALID, "%s:%ld: init took %.1f min, over the %g min limit",
			       t->base, t->init_bad_line, t->init_bad_ms / 60000.0, t->limit_min);
	}
#undef REASON
	return st;
}

static void iso_ms(struct strbuf *out, double ms)
{
	strbuf_reset(out);
	if (isfinite(ms) && ms > 0 && ms < 1e15)
		ingest_iso8601(out, ms / 1000.0);
}

#define P_STR(key, value) param_str(&t.params, (key), (value))
#define P_NUM(key, value) param_num(&t.params, (key), (value))

static int parse_train(struct ingest_file *f, struct strbuf *err)
{
	struct train t;
	struct mllog_reader r;
	struct mllog_rec rec;
	struct mlperf_layout l;
	struct mlperf_sysdesc sd;
	struct mlperf_energy energy;
	struct ingest_run run;
	struct ingest_metric metrics[3];
	json_t *emeta = NULL;   /* the energy's measurement boundary */
	json_t *pjson = NULL;   /* params as jansson (a runner's provenance only) */
	uint32_t *ends = NULL;
	struct strbuf why = STRBUF_INIT, job = STRBUF_INIT, key = STRBUF_INIT,
		      started = STRBUF_INIT, finished = STRBUF_INIT, path = STRBUF_INIT,
		      reason = STRBUF_INIT, ptext = STRBUF_INIT;
	double minutes = 0, ttt_ms = 0, scaling = 1.0;
	int rc, have_layout, have_power_dir = 0, energy_rc = 0;
	int64_t run_id = 0;
	long idx;

	train_init(&t, f);
	mlperf_layout_init(&l);
	mlperf_sysdesc_init(&sd);
	memset(&energy, 0, sizeof(energy));
	if (f->data)
		mllog_init_mem(&r, f->data, (size_t)f->size, 0);
	else
		mllog_init(&r, f->fp, 0);
	while ((rc = mllog_next(&r, &rec, err)) == 1)
		on_record(&t, &rec);
	if (rc < 0) {
		ab_error_prefix(err, f->path, 0);
		goto out;
	}
	if (t.bad_line) {
		/* the run is kept as invalid (its reason says why), and that is said now */
		if (r.failed > 1)
			ingest_warn(f, t.bad_line, "unparsable :::MLLOG record (%s), and %ld more; "
				    "the run is stored as invalid", t.bad_why.buf, r.failed - 1);
		else
			ingest_warn(f, t.bad_line, "unparsable :::MLLOG record (%s); the run is "
				    "stored as invalid", t.bad_why.buf);
	}

	/* where it sits: folder names first, the log's own names as fallback */
	have_layout = mlperf_layout_training(&l, f->path) == 0;
	if (!have_layout) {
		if (!t.org.len || !t.platform.len || !t.bench.len) {
			rc = ingest_fail_at(f, err, 0, "cannot tell submitter, system and benchmark: "
					    "not in a <submitter>/results/<system>/<benchmark>/ "
					    "folder and no submission_org/platform/benchmark records");
			goto out;
		}
		ingest_warn(f, 0, "not in a <submitter>/results/<system>/<benchmark>/ folder; "
			    "using the names in the log");
		strbuf_addbuf(&l.submitter, &t.org);
		strbuf_addbuf(&l.system, &t.platform);
		strbuf_addbuf(&l.bench, &t.bench);
		mlperf_abs_dirname(&l.bench_dir, f->path);
		mlperf_round_of(&l.round, f->path);
		strbuf_reset(&sd.name);
		strbuf_addf(&sd.name, "%s/%s", l.submitter.buf, l.system.buf);
	} else if (mlperf_sysdesc_load(&sd, &l, f, &why) < 0) {
		ingest_warn(f, 0, "%s", why.buf);
	} else if (!sd.json) {
		ingest_warn(f, 0, "no system description systems/%s.json", l.system.buf);
	}

	memset(&run, 0, sizeof(run));
	run.status = verdict(&t, r.records, &reason);
	if (run.status == RUN_OK) {
		ttt_ms = t.run_stop - t.run_start;
		minutes = ttt_ms / 60 / 1000; /* the summarizer's expression */
		if (!isfinite(minutes)) {
			run.status = RUN_INVALID;
			strbuf_addf(&reason, "%s:%ld: run time is not finite", t.base, t.stop_line);
		} else if (minutes <= 0) {
			ingest_warn(f, t.stop_line, "run_stop is not after run_start (%.3f min)",
				    minutes);
		}
	}

	/* params: where it came from, then what the log said */
	/* the submitter as the official tables name it; the folder stays in the system id */
	P_STR("submitter", sd.submitter ? sd.submitter : l.submitter.buf);
	P_STR("submitter_folder", l.submitter.buf);
	P_STR("system_folder", l.system.buf);
	P_STR("benchmark_folder", l.bench.buf);
	P_STR("file", t.base);
	P_STR("result_dir", l.bench_dir.buf);
	if (!l.round.len)
		jtext_obj_set_raw(&t.params, "round", "null", 4);
	else
		P_STR("round", l.round.buf);
	if (l.scaling.len)
		P_STR("scaling", l.scaling.buf);
	P_STR("division", t.division.len ? t.division.buf : sd.division);
	mlperf_sysdesc_division(&sd, t.division.len ? t.division.buf : sd.division);
	P_STR("availability", sd.status);
	idx = run_index(t.base, &job);
	if (idx >= 0)
		jtext_obj_set_int(&t.params, "run_index", idx);
	if (t.have_start)
		P_NUM("run_start_ms", t.run_start);
	if (t.have_stop)
		P_NUM("run_stop_ms", t.run_stop);
	if (t.stop_seen)
		P_STR("run_stop_status", t.stop_status.buf);
	if (t.have_init_start && t.have_init_stop)
		P_NUM("init_time_s", t.init_ms / 1000.0);
	if (t.have_start && t.have_stop && run.status != RUN_OK)
		P_NUM("minutes", (t.run_stop - t.run_start) / 60 / 1000);
	jtext_obj_set_int(&t.params, "mllog_records", r.records);
	if (r.failed)
		jtext_obj_set_int(&t.params, "mllog_failed", r.failed);
	if (t.nevals) {
		size_t mark = t.params.vals.len;

		strbuf_add(&t.params.vals, t.evals.buf + t.last_value, t.last_value_len);
		jtext_obj_put(&t.params, "eval_accuracy_last", 18, mark);
		mark = t.params.vals.len;
		strbuf_addch(&t.params.vals, '[');
		strbuf_addbuf(&t.params.vals, &t.evals);
		strbuf_addch(&t.params.vals, ']');
		jtext_obj_put(&t.params, "eval_accuracy", 13, mark);
	}
	rc = read_scaling(l.bench_dir.buf, &scaling, &why);
	if (rc < 0)
		ingest_warn(f, 0, "%s", why.buf);
	else if (rc > 0)
		P_NUM("scaling_factor", scaling);

	/* energy, for valid runs only (the official code computes no more) */
	strbuf_addf(&path, "%s/power", l.bench_dir.buf);
	have_power_dir = is_dir(path.buf);
	if (have_power_dir)
		jtext_obj_set_raw(&t.params, "has_power", "true", 4);
	if (have_power_dir && run.status == RUN_OK) {
		struct strbuf stem = STRBUF_INIT;
		strbuf_add(&stem, t.base, strlen(t.base) - (ingest_ends_with(t.base, ".txt") ? 4 : 0));
		energy_rc = mlperf_power_energy(l.bench_dir.buf, stem.buf, ttt_ms, &energy, &why);
		if (energy_rc < 0) {
			ingest_warn(f, 0, "no energy: %s", why.buf);
			P_STR("power_error", why.buf);
		} else if (energy_rc == 0) {
			ingest_warn(f, 0, "no power logs power/%s/ for this run", stem.buf);
			P_STR("power_error", "no power logs for this run");
		} else {
			P_NUM("energy_j", energy.joules);
			P_NUM("energy_nodes_j", energy.node_j);
			P_NUM("energy_switches_j", energy.switch_j);
			jtext_obj_set_int(&t.params, "power_node_logs", energy.nodes);
			jtext_obj_set_int(&t.params, "power_switch_logs", energy.switches);
		}
		strbuf_release(&stem);
	}

	mlperf_sysdesc_fill(&sd, &run.system);
	run.line = t.have_stop ? t.stop_line : 0;
	run.suite = "mlperf-training";
	run.benchmark = l.bench.buf;
	run.bench_metric = "time_to_train";
	run.bench_unit = "min";
	run.lower_is_better = 1;
	run.job_id = job.len ? job.buf : NULL;
	if (t.have_start) {
		iso_ms(&started, t.run_start);
		run.started = started.len ? started.buf : NULL;
	}
	if (t.have_stop) {
		iso_ms(&finished, t.run_stop);
		run.finished = finished.len ? finished.buf : NULL;
	}
	run.nodes = sd.nodes;
	run.devices = sd.nodes && sd.per_node ? sd.nodes * sd.per_node : 0;
	run.global_batch = t.global_batch > 0 && t.global_batch < LONG_MAX ? (long)t.global_batch : 0;
	run.framework = sd.framework;
	/* the params text and where its pairs end (the sink splits it there) */
	ends = ab_malloc((t.params.n ? t.params.n : 1) * sizeof(*ends));
	if (jtext_obj_dump_ends(&t.params, &ptext, ends) == 0) {
		run.params_pair_ends = ends;
		run.params_npairs = t.params.n;
	}
	run.params_json = ptext.buf;
	if (f->opts && f->opts->provenance) {
		/* a runner's provenance is added to a jansson object (ingest.c):
		 * hand over that, as this text reads (\u0000 in a string too) */
		pjson = json_loadb(ptext.buf, ptext.len, JSON_ALLOW_NUL, NULL);
		if (pjson) {
			run.params = pjson;
			run.params_json = NULL;
			run.params_pair_ends = NULL;
			run.params_npairs = 0;
		}
	}
	run.excluded_reason = run.status == RUN_OK ? NULL : reason.buf;
	/* identity = where the file lives: the same log ingested twice is
	 * one run, while another round's tree with the same names is not */
	strbuf_addf(&key, "mlperf-training:%s/%s", l.bench_dir.buf, t.base);
	run.dedupe_key = key.buf;
	if (run.status == RUN_OK) {
		metrics[run.nmetrics++] = (struct ingest_metric){ "time_to_train", minutes, "min",
								  NULL };
		if (energy_rc > 0 && isfinite(energy.joules)) {
			/* MLPerf power: the nodes' power analyzers, plus the
			 * interconnect switches when their logs are there */
			emeta = json_object();
			json_object_set_new(emeta, "boundary",
					    json_string(energy.switches > 0 ? "node+switch" : "node"));
			metrics[run.nmetrics++] = (struct ingest_metric){
				"energy", energy.joules / 3600.0, "Wh", emeta
			};
			if (ttt_ms > 0)
				metrics[run.nmetrics++] = (struct ingest_metric){
					"avg_power", energy.joules / (ttt_ms / 1000.0), "W", emeta
				};
		}
	}
	run.metrics = metrics;
	rc = ingest_emit_run(f, &run, &run_id, err);
	if (rc == 0 && energy_rc > 0)
		rc = mlperf_power_emit(f, run_id, &energy, err);
	if (rc > 0)
		rc = 0;
out:
	json_decref(emeta);
	json_decref(pjson);
	free(ends);
	strbuf_release(&ptext);
	mllog_release(&r);
	mlperf_energy_release(&energy);
	mlperf_sysdesc_release(&sd);
	mlperf_layout_release(&l);
	train_release(&t);
	strbuf_release(&why);
	strbuf_release(&job);
	strbuf_release(&key);
	strbuf_release(&started);
	strbuf_release(&finished);
	strbuf_release(&path);
	strbuf_release(&reason);
	return rc;
}

static int is_power_log(const char *path)
{
	const char *base = ingest_basename(path);
	return strstr(path, "/power/") && ingest_ends_with(base, ".txt") &&
	       (!strncmp(base, "node_", 5) || !strncmp(base, "sw_", 3));
}

static int detect_train(const char *path, const unsigned char *head, size_t len)
{
	const char *base = ingest_basename(path);
	int named = !strncmp(base, "result_", 7) && ingest_ends_with(base, ".txt");
	int token = mlperf_memmem(head, len, MLLOG_TOKEN, MLLOG_TOKEN_LEN) != NULL;

	if (is_power_log(path) || !strcmp(base, "mlperf_log_detail.txt") ||
	    (token && mlperf_has_loadgen_mark(head, len)))
		return 0; /* power logs, LoadGen logs */
	if (named && token)
		return 95;
	/* shell noise can fill the first 64 KiB before the first record */
	if (named && strstr(path, "/results/"))
		return 80;
	/* elsewhere only a real record counts (a README may quote the token) */
	return mlperf_memmem(head, len, ":::MLLOG {\"namespace\": ", 23) ? 60 : 0;
}

const struct ingest_format ingest_fmt_mlperf_training = {
	"mlperf-training", FMT_NAME_HINT | FMT_BINARY_OK | FMT_PATH_IDENTITY, detect_train, parse_train
};
