/*
 * mlperf.c - `accelbench run mlperf`: run an MLPerf training command N
 * times (N defaults to the benchmark's required count, which cli/ looks
 * up), each run's output stored as
 *   <folder>/<submitter>/results/<system>/<benchmark>/result_<i>.txt
 * in the MLPerf submission layout (with systems/<system>.json when given),
 * check each log for a valid run_start/run_stop pair, and name the
 * submission tree for ingest (ingest/mlperf_train.c scores it the
 * official way).  The command sees ACCELBENCH_RUN_INDEX (1..N) and
 * ACCELBENCH_RUN_DIR in its environment.
 *
 * Power (--power, as `run exec`): sampled while each run's command runs,
 * into power.<i>.<host>.csv (jpwr layout) and, as the MLPerf training
 * power log the parser reads (and sums the official way: energy at TTT,
 * samples stored), <results>/<benchmark>/power/result_<i>/node_<node>.txt.
 * Each run's exit status, verdict, output tail and power summary are
 * stored with that run in provenance.run (manifest "ingest_runs").
 */
#include "core/compat.h"
#include "run_priv.h"

#include <math.h>
#include <unistd.h>

/* What one result log says about its run. */
struct mllog_check {
	int records;
	double start_ms, stop_ms;     /* NAN when absent */
	char status[32];              /* run_stop's metadata status */
};

/* The number after "key" in a :::MLLOG line, NAN if absent. */
static double json_num_after(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	if (!p)
		return NAN;
	p += strlen(key);
	while (*p == ' ' || *p == ':')
		p++;
	return strtod(p, NULL);
}

static void check_log(const char *path, struct mllog_check *c)
{
	FILE *fp = fopen(path, "rb");
	struct strbuf err = STRBUF_INIT;
	struct lines lr;
	int rc;

	memset(c, 0, sizeof(*c));
	c->start_ms = c->stop_ms = NAN;
	if (!fp)
		return;
	lines_init(&lr, fp, LINES_DEFAULT_MAX, LINES_CR);
	while ((rc = lines_next(&lr, &err)) != 0) {
		const char *l, *st;
		if (rc < 0) {
			strbuf_reset(&err);
			continue;
		}
		l = strstr(lr.line.buf, ":::MLLOG");
		if (!l || memchr(lr.line.buf, '\0', lr.line.len))
			continue;
		c->records++;
		if (strstr(l, "\"key\": \"run_start\"") && isnan(c->start_ms)) {
			c->start_ms = json_num_after(l, "\"time_ms\"");
		} else if (strstr(l, "\"key\": \"run_stop\"") && isnan(c->stop_ms)) {
			c->stop_ms = json_num_after(l, "\"time_ms\"");
			st = strstr(l, "\"status\"");
			if (st && (st = strchr(st + 8, '"'))) {
				size_t n = strcspn(st + 1, "\"");
				if (n >= sizeof(c->status))
					n = sizeof(c->status) - 1;
				memcpy(c->status, st + 1, n);
				c->status[n] = '\0';
			}
		}
	}
	lines_release(&lr);
	fclose(fp);
	strbuf_release(&err);
}

static int copy_file(const char *from, const char *to, struct strbuf *err)
{
	FILE *fp = fopen(from, "rb");
	struct strbuf data = STRBUF_INIT;
	char buf[8192];
	size_t n;
	int rc;

	if (!fp)
		return ab_fail(err, AB_EUSAGE, "cannot read '%s': %s", from, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0 && data.len < (16u << 20))
		strbuf_add(&data, buf, n);
	fclose(fp);
	rc = ab_write_file(to, data.buf, data.len, err);
	strbuf_release(&data);
	return rc;
}

/* The system name: --system, else the system JSON's file stem, else host. */
static void system_name(const struct run_common *c, const struct run_mlperf_opts *o,
			struct strbuf *out)
{
	if (c->system) {
		strbuf_addstr(out, c->system);
	} else if (o->system_json) {
		const char *base = strrchr(o->system_json, '/');
		base = base ? base + 1 : o->system_json;
		strbuf_add(out, base, strcspn(base, "."));
	}
	if (!out->len)
		run_hostname(out);
}

int run_mlperf(const struct run_common *c, const struct run_mlperf_opts *o,
	       struct run_result *res, struct strbuf *err)
{
	struct strbuf folder = STRBUF_INIT, sys = STRBUF_INIT, dir = STRBUF_INIT,
		      log = STRBUF_INIT, sb = STRBUF_INIT, env1 = STRBUF_INIT, env2 = STRBUF_INIT;
	const char *submitter = o->submitter && *o->submitter ? o->submitter : "accelbench";
	json_t *manifest = NULL, *prov;
	struct power_sampler *ps = NULL;
	struct strbuf host = STRBUF_INIT, node = STRBUF_INIT, pline = STRBUF_INIT,
		      csv = STRBUF_INIT, en = STRBUF_INIT, ml = STRBUF_INIT, mlrel = STRBUF_INIT;
	double t_first = 0, t_last = 0;
	int rc = 0, failed = 0, interrupted = 0;
	int leader = !c->node_task || !getenv("SLURM_NODEID") || atol(getenv("SLURM_NODEID")) == 0;
	long i;

	if (!o->benchmark || !*o->benchmark || strchr(o->benchmark, '/'))
		return ab_fail(err, AB_EUSAGE, "run mlperf: --benchmark NAME is required (resnet, bert, ...)");
	if (!o->cmd || !o->cmd[0])
		return ab_fail(err, AB_EUSAGE, "run mlperf: no command given (after '--')");
	if (o->runs < 1 || o->runs > 1000)
		return ab_fail(err, AB_EUSAGE,
			       "run mlperf: --runs N is required for '%s' (its required count is not known)",
			       o->benchmark);
	if (strchr(submitter, '/'))
		return ab_fail(err, AB_EUSAGE, "run mlperf: --submitter must not contain '/'");
	system_name(c, o, &sys);
	if (strchr(sys.buf, '/') || sys.buf[0] == '.') {
		rc = ab_fail(err, AB_EUSAGE, "run mlperf: system name '%s' cannot be a folder name",
			     sys.buf);
		goto out;
	}
	if (o->system_json && access(o->system_json, R_OK) != 0) {
		rc = ab_fail(err, AB_EUSAGE, "run mlperf: cannot read --system-json '%s': %s",
			     o->system_json, strerror(errno));
		goto out;
	}
	if (c->slurm.enabled) {
		rc = run_via_slurm(c, "mlperf-training", o->benchmark, "time_to_train", "min", 1, res,
				   err);
		goto out;
	}
	rc = power_open(&ps, o->power ? o->power : "auto", err);
	if (rc < 0)
		goto out;
	power_describe(ps, &pline);
	run_hostname(&host);
	run_node_name(&node);
	if (c->dry_run) {
		fprintf(c->out, "dry run: would run %ld time%s, each log in "
			"%s/%s/<UTC time>/%s/results/%s/%s/result_<i>.txt:\n  ",
			o->runs, o->runs == 1 ? "" : "s", c->runs_dir ? c->runs_dir : "runs",
			o->benchmark, submitter, sys.buf, o->benchmark);
		run_print_argv(c->out, o->cmd);
		if (o->system_json)
			fprintf(c->out, "system description: %s -> systems/%s.json\n", o->system_json,
				sys.buf);
		fprintf(c->out, "%s\n", pline.buf);
		goto out;
	}
	rc = run_folder_use(c, o->benchmark, &folder, err);
	if (rc < 0)
		goto out;
	strbuf_addf(&dir, "%s/%s/results/%s/%s", folder.buf, submitter, sys.buf, o->benchmark);
	rc = ab_mkdirs(dir.buf, err);
	if (rc == 0 && o->system_json) {
		strbuf_addf(&sb, "%s/%s/systems/%s.json", folder.buf, submitter, sys.buf);
		rc = copy_file(o->system_json, sb.buf, err);
	}
	if (rc < 0)
		goto out;
	fprintf(c->out, "run mlperf %s: %ld run%s of %s/%s in %s\n%s\n", o->benchmark, o->runs,
		o->runs == 1 ? "" : "s", submitter, sys.buf, folder.buf, pline.buf);
	fflush(c->out);
	prov = run_provenance_new(c, "mlperf", o->cmd);
	json_object_set_new(prov, "power", power_info(ps));
	if (getenv("SLURM_JOB_ID"))
		json_object_set_new(prov, "slurm_job_id", json_string(getenv("SLURM_JOB_ID")));
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/%s", submitter, sys.buf);
	manifest = run_manifest_new("mlperf-training", o->benchmark, sb.buf, "time_to_train", "min",
				    1, prov);
	/* each result file on its own, with what we know of its run */
	json_object_set_new(manifest, "ingest", json_array());
	json_object_set_new(manifest, "ingest_runs", json_object());
	strbuf_reset(&env2);
	strbuf_addf(&env2, "ACCELBENCH_RUN_DIR=%s", folder.buf);
	for (i = 1; i <= o->runs && !run_interrupted(); i++) {
		struct run_proc_opts po = { 0 };
		struct run_proc_result pr;
		struct mllog_check ck;
		struct power_result pwr = { 0 };
		struct strbuf reason = STRBUF_INIT;
		const char *env[3];
		int have_power;

		strbuf_reset(&log);
		strbuf_addf(&log, "%s/result_%ld.txt", dir.buf, i);
		strbuf_reset(&env1);
		strbuf_addf(&env1, "ACCELBENCH_RUN_INDEX=%ld", i);
		env[0] = env1.buf;
		env[1] = env2.buf;
		env[2] = NULL;
		po.argv = o->cmd;
		po.out_path = log.buf;
		po.env = env;
		po.tee = c->verbose;
		po.timeout_s = c->timeout_s;
		have_power = power_ndevices(ps) > 0;
		if (have_power) {
			strbuf_reset(&csv);
			strbuf_addf(&csv, "%s/power.%ld.%s.csv", folder.buf, i, host.buf);
			strbuf_reset(&en);
			strbuf_addf(&en, "%s/energy.%ld.%s.csv", folder.buf, i, host.buf);
			strbuf_reset(&mlrel);
			strbuf_addf(&mlrel, "%s/results/%s/%s/power/result_%ld", submitter, sys.buf,
				    o->benchmark, i);
			strbuf_reset(&ml);
			strbuf_addf(&ml, "%s/%s", folder.buf, mlrel.buf);
			rc = ab_mkdirs(ml.buf, err);
			strbuf_addf(&ml, "/node_%s.txt", node.buf);
			strbuf_addf(&mlrel, "/node_%s.txt", node.buf);
			power_set_mllog(ps, ml.buf);
			if (rc == 0)
				rc = power_start(ps, o->interval_ms, csv.buf, err);
			if (rc < 0)
				goto out;
		}
		rc = run_proc(&po, &pr, err);
		if (have_power) {
			int prc = power_stop(ps, &pwr, en.buf, err);
			if (rc == 0 && prc < 0)
				rc = prc;
		}
		if (rc < 0) {
			power_result_release(&pwr);
			goto out;
		}
		if (i == 1)
			t_first = pr.t_start;
		t_last = pr.t_end;
		check_log(log.buf, &ck);
		if (pr.interrupted || pr.timed_out || pr.signaled || pr.exit_status)
			run_proc_reason(&reason, &pr, "the command");
		else if (!leader)
			; /* another node of a multi-node job: rank 0 writes the log */
		else if (!ck.records)
			strbuf_addstr(&reason, "no :::MLLOG records in the output");
		else if (isnan(ck.start_ms))
			strbuf_addstr(&reason, "no run_start in the log");
		else if (isnan(ck.stop_ms))
			strbuf_addstr(&reason, "no run_stop in the log");
		else if (ck.stop_ms < ck.start_ms)
			strbuf_addstr(&reason, "run_stop before run_start");
		else if (strcmp(ck.status, "success"))
			strbuf_addf(&reason, "run_stop status '%s'", ck.status[0] ? ck.status : "none");
		strbuf_reset(&sb);
		if (reason.len) {
			struct strbuf tail = STRBUF_INIT;
			failed = 1;
			strbuf_addf(&sb, "  run %ld/%ld: %s: %s (result_%ld.txt)", i, o->runs,
				    pr.interrupted ? "aborted" : "failed", reason.buf, i);
			run_output_tail(&tail, log.buf, 5, 1024);
			if (!pr.interrupted && tail.len)
				fprintf(stderr, "accelbench: run %ld of %s: %s; output ends:\n%s\n", i,
					o->benchmark, reason.buf, tail.buf);
			strbuf_release(&tail);
		} else {
			strbuf_addf(&sb, "  run %ld/%ld: ok, time to train %.3f min (result_%ld.txt)", i,
				    o->runs, (ck.stop_ms - ck.start_ms) / 60000.0, i);
		}
		if (have_power && pwr.boundary && pwr.samples >= 2)
			strbuf_addf(&sb, ", %.4g Wh, %.1f W avg (%s)", pwr.wh, pwr.avg_w, pwr.boundary);
		fprintf(c->out, "%s\n", sb.buf);
		fflush(c->out);
		{
			/* stored with this run's provenance: provenance.run */
			json_t *one = run_entry_failed(i, reason.len ? (pr.interrupted ? "aborted" : "failed") :
						       "ok", reason.len ? reason.buf : NULL, log.buf,
						       pr.t_start, pr.t_end);
			json_object_del(one, "metrics");
			json_object_set_new(one, "exit_status", json_integer(pr.exit_status));
			if (pr.signaled)
				json_object_set_new(one, "signal", json_integer(pr.signaled));
			if (have_power) {
				json_t *pj = json_pack("{s:s, s:s, s:I}", "power_csv",
						       strrchr(csv.buf, '/') + 1, "mllog", mlrel.buf,
						       "samples", (json_int_t)pwr.samples);
				if (pwr.boundary && pwr.samples >= 2) {
					json_object_set_new(pj, "energy_wh", json_real(pwr.wh));
					json_object_set_new(pj, "avg_w", json_real(pwr.avg_w));
					json_object_set_new(pj, "peak_w", json_real(pwr.peak_w));
					json_object_set_new(pj, "boundary", json_string(pwr.boundary));
				}
				json_object_set_new(one, "power", pj);
				/* a multi-node job copies every node's log beside node 0's */
				if (c->node_task) {
					if (!json_object_get(manifest, "node_files"))
						json_object_set_new(manifest, "node_files", json_array());
					json_array_append_new(json_object_get(manifest, "node_files"),
							      json_string(mlrel.buf));
				}
			}
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s/results/%s/%s/result_%ld.txt", submitter, sys.buf, o->benchmark, i);
			json_array_append_new(json_object_get(manifest, "ingest"), json_string(sb.buf));
			json_object_set_new(json_object_get(manifest, "ingest_runs"), sb.buf, one);
		}
		if (pr.interrupted)
			interrupted = 1;
		power_result_release(&pwr);
		strbuf_release(&reason);
	}
	if (run_interrupted())
		interrupted = 1;
	prov = json_object_get(manifest, "provenance");
	strbuf_reset(&sb);
	run_iso(&sb, t_first);
	json_object_set_new(prov, "started", json_string(sb.buf));
	strbuf_reset(&sb);
	run_iso(&sb, t_last);
	json_object_set_new(prov, "finished", json_string(sb.buf));
	rc = run_finish(c, folder.buf, manifest, res, err);
	if (rc == 0 && interrupted)
		rc = -RUN_INTERRUPTED;
	else if (rc == 0 && failed)
		rc = ab_fail(err, AB_EDATA, "run mlperf %s: some runs failed (stored as failed)",
			     o->benchmark);
out:
	json_decref(manifest);
	power_free(ps);
	strbuf_release(&host);
	strbuf_release(&node);
	strbuf_release(&pline);
	strbuf_release(&csv);
	strbuf_release(&en);
	strbuf_release(&ml);
	strbuf_release(&mlrel);
	strbuf_release(&folder);
	strbuf_release(&sys);
	strbuf_release(&dir);
	strbuf_release(&log);
	strbuf_release(&sb);
	strbuf_release(&env1);
	strbuf_release(&env2);
	return rc;
}
