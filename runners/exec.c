/*
 * exec.c - `accelbench run exec`: the generic runner.  Repeats a command,
 * captures its output per repetition, extracts metrics with POSIX extended
 * regular expressions (last match in the output wins), records wall time
 * and exit status, and samples power in the background while the command
 * runs (power.c).  Everything goes into the run folder:
 *   output.<i>.txt, power.<i>.<host>.csv, energy.<i>.<host>.csv, run.json
 * and run.json is ingested (ingest/abrun.c).
 */
#include "core/compat.h"
#include "run_priv.h"

#include <math.h>
#include <regex.h>

struct metric_rx {
	regex_t rx;
	int compiled;
};

static int is_time_unit(const char *u)
{
	static const char *const units[] = { "s", "ms", "us", "ns", "min", "h" };
	size_t i;

	for (i = 0; u && i < AB_ARRAY_SIZE(units); i++)
		if (!strcmp(u, units[i]))
			return 1;
	return 0;
}

/* Last match of each regex in the output file; found[k] = 0 if none. */
static int extract(const char *path, const struct run_exec_opts *o, struct metric_rx *rx,
		   double *val, int *found, struct strbuf *bad)
{
	FILE *fp = fopen(path, "rb");
	struct strbuf err = STRBUF_INIT;
	struct lines lr;
	size_t k;
	int rc;

	for (k = 0; k < o->nmetrics; k++)
		found[k] = 0;
	if (!fp)
		return -1;
	lines_init(&lr, fp, LINES_DEFAULT_MAX, LINES_CR);
	while ((rc = lines_next(&lr, &err)) != 0) {
		if (rc < 0) {
			strbuf_reset(&err);
			continue; /* an over-long line: skip it */
		}
		if (memchr(lr.line.buf, '\0', lr.line.len))
			continue;
		for (k = 0; k < o->nmetrics; k++) {
			regmatch_t m[2];
			const char *s;
			size_t len;
			double v;
			if (regexec(&rx[k].rx, lr.line.buf, 2, m, 0) != 0)
				continue;
			if (m[1].rm_so >= 0) {
				s = lr.line.buf + m[1].rm_so;
				len = (size_t)(m[1].rm_eo - m[1].rm_so);
			} else {
				s = lr.line.buf + m[0].rm_so;
				len = (size_t)(m[0].rm_eo - m[0].rm_so);
			}
			while (len && (*s == ' ' || *s == '\t')) {
				s++;
				len--;
			}
			while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
				len--;
			if (num_parse_double(s, len, &v) == NUM_OK && isfinite(v)) {
				val[k] = v;
				found[k] = 1;
			} else {
				strbuf_reset(&bad[k]);
				strbuf_add_printable(&bad[k], s, len, 40);
			}
		}
	}
	lines_release(&lr);
	fclose(fp);
	strbuf_release(&err);
	return 0;
}

static json_t *metric_json(const char *name, double v, const char *unit, json_t *meta)
{
	json_t *m = json_object();

	json_object_set_new(m, "name", json_string(name));
	json_object_set_new(m, "value", json_real(v));
	json_object_set_new(m, "unit", json_string(unit ? unit : ""));
	if (meta)
		json_object_set_new(m, "meta", meta);
	return m;
}

static void energy_metrics(json_t *metrics, const struct power_result *pr)
{
	json_t *meta;

	if (!pr->boundary || pr->samples < 2)
		return;
	meta = json_pack("{s:s, s:s, s:O, s:I}", "boundary", pr->boundary, "source", pr->source,
			 "per_device", pr->per_device, "samples", (json_int_t)pr->samples);
	json_array_append_new(metrics, metric_json("energy", pr->wh, "Wh", meta));
	json_array_append_new(metrics, metric_json("avg_power", pr->avg_w, "W",
						   json_pack("{s:s}", "boundary", pr->boundary)));
	json_array_append_new(metrics, metric_json("peak_power", pr->peak_w, "W",
						   json_pack("{s:s}", "boundary", pr->boundary)));
}

int run_exec(const struct run_common *c, const struct run_exec_opts *o, struct run_result *res,
	     struct strbuf *err)
{
	struct strbuf folder = STRBUF_INIT, host = STRBUF_INIT, out = STRBUF_INIT,
		      csv = STRBUF_INIT, en = STRBUF_INIT, line = STRBUF_INIT, sb = STRBUF_INIT;
	struct power_sampler *ps = NULL;
	struct metric_rx *rx = NULL;
	struct strbuf *bad = NULL;
	json_t *manifest = NULL, *prov;
	double *val = NULL, t_first = 0, t_last = 0;
	int *found = NULL, rc = 0, failed = 0, interrupted = 0;
	int leader = !c->node_task || !getenv("SLURM_NODEID") || atol(getenv("SLURM_NODEID")) == 0;
	const char *system, *metric = "wall_time", *unit = "s";
	long i;
	size_t k;

	if (!o->benchmark || !*o->benchmark)
		return ab_fail(err, AB_EUSAGE, "run exec: --benchmark NAME is required");
	if (!o->cmd || !o->cmd[0])
		return ab_fail(err, AB_EUSAGE, "run exec: no command given (after '--')");
	if (o->repeat < 1 || o->repeat > 100000)
		return ab_fail(err, AB_EUSAGE, "run exec: --repeat must be 1..100000, not %ld",
			       o->repeat);
	if (o->interval_ms < 1 || o->interval_ms > 3600000)
		return ab_fail(err, AB_EUSAGE, "run exec: --interval must be 1..3600000 ms, not %ld",
			       o->interval_ms);
	rx = ab_calloc(o->nmetrics + 1, sizeof(*rx));
	for (k = 0; k < o->nmetrics; k++) {
		int e = regcomp(&rx[k].rx, o->metrics[k].regex, REG_EXTENDED);
		if (e != 0) {
			char msg[256];
			regerror(e, &rx[k].rx, msg, sizeof(msg));
			rc = ab_fail(err, AB_EUSAGE, "run exec: --metric %s: bad regular expression '%s': %s",
				     o->metrics[k].name, o->metrics[k].regex, msg);
			goto out;
		}
		rx[k].compiled = 1;
	}
	if (o->nmetrics) {
		metric = o->metrics[0].name;
		unit = o->metrics[0].unit ? o->metrics[0].unit : "";
	}
	if (c->slurm.enabled) {
		rc = run_via_slurm(c, "exec", o->benchmark, metric, unit,
				   !o->nmetrics || is_time_unit(unit), res, err);
		goto out;
	}
	rc = power_open(&ps, o->power, err);
	if (rc < 0)
		goto out;
	run_hostname(&host);
	system = c->system ? c->system : host.buf;
	power_describe(ps, &line);
	if (c->dry_run) {
		fprintf(c->out, "dry run: would run %ld time%s on %s, output in %s/%s/<UTC time>/:\n  ",
			o->repeat, o->repeat == 1 ? "" : "s", system,
			c->runs_dir ? c->runs_dir : "runs", o->benchmark);
		run_print_argv(c->out, o->cmd);
		fprintf(c->out, "%s\n", line.buf);
		for (k = 0; k < o->nmetrics; k++)
			fprintf(c->out, "metric %s%s%s%s: /%s/\n", o->metrics[k].name,
				o->metrics[k].unit ? " [" : "",
				o->metrics[k].unit ? o->metrics[k].unit : "",
				o->metrics[k].unit ? "]" : "", o->metrics[k].regex);
		goto out;
	}
	rc = run_folder_use(c, o->benchmark, &folder, err);
	if (rc < 0)
		goto out;
	fprintf(c->out, "run exec %s: %ld repetition%s on %s in %s\n%s\n", o->benchmark,
		o->repeat, o->repeat == 1 ? "" : "s", system, folder.buf, line.buf);
	fflush(c->out);
	prov = run_provenance_new(c, "exec", o->cmd);
	json_object_set_new(prov, "power", power_info(ps));
	if (getenv("SLURM_JOB_ID"))
		json_object_set_new(prov, "slurm_job_id", json_string(getenv("SLURM_JOB_ID")));
	manifest = run_manifest_new("exec", o->benchmark, system, metric, unit,
				    !o->nmetrics || is_time_unit(unit), prov);
	val = ab_calloc(o->nmetrics + 1, sizeof(*val));
	found = ab_calloc(o->nmetrics + 1, sizeof(*found));
	bad = ab_calloc(o->nmetrics + 1, sizeof(*bad));
	for (k = 0; k < o->nmetrics; k++)
		strbuf_init(&bad[k], 0);
	for (i = 1; i <= o->repeat && !run_interrupted(); i++) {
		struct run_proc_opts po = { 0 };
		struct run_proc_result pr;
		struct power_result pwr = { 0 };
		struct strbuf reason = STRBUF_INIT;
		json_t *entry, *metrics;
		int have_power;

		strbuf_reset(&out);
		strbuf_addf(&out, "%s/output.%ld.txt", folder.buf, i);
		strbuf_reset(&csv);
		strbuf_addf(&csv, "%s/power.%ld.%s.csv", folder.buf, i, host.buf);
		strbuf_reset(&en);
		strbuf_addf(&en, "%s/energy.%ld.%s.csv", folder.buf, i, host.buf);
		have_power = power_ndevices(ps) > 0;
		if (have_power) {
			rc = power_start(ps, o->interval_ms, csv.buf, err);
			if (rc < 0)
				goto out;
		}
		po.argv = o->cmd;
		po.out_path = out.buf;
		po.tee = c->verbose;
		po.timeout_s = c->timeout_s;
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
		extract(out.buf, o, rx, val, found, bad);
		if (pr.interrupted || pr.exit_status != 0 || pr.signaled || pr.timed_out) {
			run_proc_reason(&reason, &pr, "the command");
		} else if (leader) {
			/* the other nodes of a multi-node job need not print the
			 * metrics: rank 0 does */
			for (k = 0; k < o->nmetrics; k++) {
				if (found[k])
					continue;
				if (bad[k].len)
					strbuf_addf(&reason, "metric '%s' is not a number: '%s'",
						    o->metrics[k].name, bad[k].buf);
				else
					strbuf_addf(&reason, "metric '%s' not found in the output",
						    o->metrics[k].name);
				break;
			}
		}
		if (reason.len) {
			entry = run_entry_failed(i, pr.interrupted ? "aborted" : "failed", reason.buf,
						 out.buf, pr.t_start, pr.t_end);
			failed = 1;
		} else {
			entry = run_entry_failed(i, "ok", NULL, out.buf, pr.t_start, pr.t_end);
			json_object_del(entry, "output_tail");
		}
		json_object_set_new(entry, "exit_status", json_integer(pr.exit_status));
		metrics = json_object_get(entry, "metrics");
		json_array_append_new(metrics, metric_json("wall_time", pr.t_end - pr.t_start, "s",
							   NULL));
		for (k = 0; k < o->nmetrics; k++)
			if (found[k])
				json_array_append_new(metrics,
					metric_json(o->metrics[k].name, val[k], o->metrics[k].unit, NULL));
		if (have_power) {
			energy_metrics(metrics, &pwr);
			json_object_set_new(entry, "power_csv", json_string(strrchr(csv.buf, '/') + 1));
			json_object_set_new(entry, "energy_csv", json_string(strrchr(en.buf, '/') + 1));
		}
		if (getenv("SLURM_JOB_ID"))
			json_object_set_new(entry, "job_id", json_string(getenv("SLURM_JOB_ID")));
		run_manifest_add(manifest, entry);
		/* one line per repetition */
		strbuf_reset(&sb);
		strbuf_addf(&sb, "  run %ld/%ld: ", i, o->repeat);
		if (reason.len)
			strbuf_addf(&sb, "%s: %s", pr.interrupted ? "aborted" : "failed", reason.buf);
		else
			strbuf_addf(&sb, "ok, %.2f s", pr.t_end - pr.t_start);
		for (k = 0; k < o->nmetrics && !reason.len; k++)
			strbuf_addf(&sb, ", %s %.6g%s%s", o->metrics[k].name, val[k],
				    o->metrics[k].unit ? " " : "",
				    o->metrics[k].unit ? o->metrics[k].unit : "");
		if (have_power && pwr.boundary && pwr.samples >= 2)
			strbuf_addf(&sb, ", %.4g Wh, %.1f W avg (%s)", pwr.wh, pwr.avg_w, pwr.boundary);
		fprintf(c->out, "%s\n", sb.buf);
		if (reason.len && !pr.interrupted) {
			struct strbuf tail = STRBUF_INIT;
			run_output_tail(&tail, out.buf, 5, 1024);
			if (tail.len)
				fprintf(stderr, "accelbench: run %ld of %s: %s; output ends:\n%s\n", i,
					o->benchmark, reason.buf, tail.buf);
			strbuf_release(&tail);
		}
		fflush(c->out);
		if (pr.interrupted)
			interrupted = 1;
		power_result_release(&pwr);
		strbuf_release(&reason);
	}
	if (run_interrupted())
		interrupted = 1;
	prov = json_object_get(manifest, "provenance");
	run_iso(&sb, 0);
	strbuf_reset(&sb);
	run_iso(&sb, t_first);
	json_object_set_new(prov, "started", json_string(sb.buf));
	strbuf_reset(&sb);
	run_iso(&sb, t_last);
	json_object_set_new(prov, "finished", json_string(sb.buf));
	rc = run_finish(c, folder.buf, manifest, res, err);
	if (rc == 0 && interrupted) {
		fprintf(c->out, "interrupted: %ld of %ld repetitions ran; what finished is stored\n",
			(long)json_array_size(json_object_get(manifest, "runs")), o->repeat);
		rc = -RUN_INTERRUPTED;
	} else if (rc == 0 && failed) {
		rc = ab_fail(err, AB_EDATA, "run exec %s: some repetitions failed (stored as failed)",
			     o->benchmark);
	}
out:
	for (k = 0; rx && k < o->nmetrics; k++)
		if (rx[k].compiled)
			regfree(&rx[k].rx);
	for (k = 0; bad && k < o->nmetrics; k++)
		strbuf_release(&bad[k]);
	free(rx);
	free(bad);
	free(val);
	free(found);
	json_decref(manifest);
	power_free(ps);
	strbuf_release(&folder);
	strbuf_release(&host);
	strbuf_release(&out);
	strbuf_release(&csv);
	strbuf_release(&en);
	strbuf_release(&line);
	strbuf_release(&sb);
	return rc;
}
