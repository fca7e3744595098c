/*
 * common.c - what the runners share above the operating system: the
 * provenance object, the accelbench-run manifest (read back by
 * ingest/abrun.c), and handing a run folder's files to ingest.
 */
#include "core/compat.h"
#include "run_priv.h"

#include <unistd.h>

json_t *run_provenance_new(const struct run_common *c, const char *runner,
			   const char *const *tool_argv)
{
	json_t *p = json_object(), *hosts = json_array(), *self = json_array();
	struct strbuf sb = STRBUF_INIT;
	char cwd[4096];
	int i;

	json_object_set_new(p, "runner", json_string(runner));
	if (tool_argv) {
		run_quote_argv(&sb, tool_argv);
		json_object_set_new(p, "command", json_string(sb.buf));
		strbuf_reset(&sb);
	}
	for (i = 0; i < c->argc; i++)
		json_array_append_new(self, json_string(c->argv[i]));
	json_object_set_new(p, "accelbench_command", self);
	run_hostname(&sb);
	json_array_append_new(hosts, json_string(sb.buf));
	json_object_set_new(p, "hosts", hosts);
	json_object_set_new(p, "accelbench_version", json_string(AB_VERSION));
	if (getcwd(cwd, sizeof(cwd)))
		json_object_set_new(p, "cwd", json_string(cwd));
	strbuf_release(&sb);
	return p;
}

json_t *run_manifest_new(const char *suite, const char *benchmark, const char *system,
			 const char *metric, const char *unit, int lower_is_better,
			 json_t *provenance)
{
	json_t *m = json_object();

	json_object_set_new(m, "accelbench_run", json_integer(1));
	json_object_set_new(m, "suite", json_string(suite));
	json_object_set_new(m, "benchmark", json_string(benchmark));
	json_object_set_new(m, "system", json_string(system));
	json_object_set_new(m, "metric", json_string(metric));
	json_object_set_new(m, "unit", json_string(unit));
	json_object_set_new(m, "lower_is_better", json_boolean(lower_is_better));
	json_object_set_new(m, "provenance", provenance ? provenance : json_object());
	json_object_set_new(m, "runs", json_array());
	return m;
}

void run_manifest_add(json_t *manifest, json_t *run)
{
	json_array_append_new(json_object_get(manifest, "runs"), run);
}

json_t *run_entry_failed(long seq, const char *status, const char *reason,
			 const char *output_path, double t0, double t1)
{
	json_t *r = json_object();
	struct strbuf sb = STRBUF_INIT;

	json_object_set_new(r, "seq", json_integer(seq));
	json_object_set_new(r, "status", json_string(status));
	json_object_set_new(r, "reason", json_string(reason));
	if (t0 > 0) {
		run_iso(&sb, t0);
		json_object_set_new(r, "started", json_string(sb.buf));
		strbuf_reset(&sb);
	}
	if (t1 > 0) {
		run_iso(&sb, t1);
		json_object_set_new(r, "finished", json_string(sb.buf));
		strbuf_reset(&sb);
	}
	if (output_path) {
		const char *slash = strrchr(output_path, '/');
		json_object_set_new(r, "output", json_string(slash ? slash + 1 : output_path));
		run_output_tail(&sb, output_path, 20, 4096);
		json_object_set_new(r, "output_tail", json_string(sb.buf));
	}
	json_object_set_new(r, "metrics", json_array());
	strbuf_release(&sb);
	return r;
}

int run_manifest_write(const char *folder, json_t *manifest, struct strbuf *path,
		       struct strbuf *err)
{
	char *text = json_dumps(manifest, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	int rc;

	if (!text)
		return ab_fail(err, AB_EINTERNAL, "cannot encode the run manifest");
	strbuf_reset(path);
	strbuf_addf(path, "%s/run.json", folder);
	rc = ab_write_file(path->buf, text, strlen(text), err);
	free(text);
	return rc;
}

void run_result_release(struct run_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->paths[i]);
		if (r->path_provenance)
			json_decref(r->path_provenance[i]);
	}
	free(r->paths);
	free(r->path_provenance);
	json_decref(r->provenance);
	memset(r, 0, sizeof(*r));
}

void run_result_set(struct run_result *res, const char *folder, json_t *manifest,
		    json_t *prov)
{
	json_t *list = json_object_get(manifest, "ingest"), *v;
	json_t *per_run = json_object_get(manifest, "ingest_runs");
	struct strbuf p = STRBUF_INIT;
	size_t i;

	run_result_release(res);
	res->paths = ab_calloc(json_array_size(list) + 2, sizeof(*res->paths));
	if (json_is_object(per_run))
		res->path_provenance = ab_calloc(json_array_size(list) + 2,
						 sizeof(*res->path_provenance));
	strbuf_addf(&p, "%s/run.json", folder);
	res->paths[res->n++] = strbuf_detach(&p, NULL);
	json_array_foreach(list, i, v) {
		json_t *one;
		if (!json_is_string(v) || !*json_string_value(v))
			continue;
		if (json_string_value(v)[0] == '/')
			strbuf_addstr(&p, json_string_value(v));
		else
			strbuf_addf(&p, "%s/%s", folder, json_string_value(v));
		/* what the runner knows of the one run this file holds */
		one = json_object_get(per_run, json_string_value(v));
		if (res->path_provenance && json_is_object(one)) {
			json_t *pp = json_is_object(prov) ? json_copy(prov) : json_object();
			json_object_set(pp, "run", one);
			res->path_provenance[res->n] = pp;
		}
		res->paths[res->n++] = strbuf_detach(&p, NULL);
	}
	res->provenance = json_incref(prov);
}

int run_folder_result(const char *folder, struct run_result *res, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	json_error_t je;
	json_t *m;
	int rc = 0;

	strbuf_addf(&path, "%s/run.json", folder);
	m = json_load_file(path.buf, 0, &je);
	if (!m)
		rc = access(path.buf, R_OK) != 0
			     ? ab_fail(err, AB_EIO, "%s: %s", path.buf, strerror(errno))
			     : ab_fail(err, AB_EDATA, "%s:%d: %s", path.buf, je.line, je.text);
	else if (!json_is_object(m) || !json_is_integer(json_object_get(m, "accelbench_run")))
		rc = ab_fail(err, AB_EDATA, "%s: not a run manifest (no \"accelbench_run\"); the "
			     "job may not have ended yet", path.buf);
	else
		run_result_set(res, folder, m, json_object_get(m, "provenance"));
	json_decref(m);
	strbuf_release(&path);
	return rc;
}

int run_finish(const struct run_common *c, const char *folder, json_t *manifest,
	       struct run_result *res, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int rc;

	if (c->node_task) {
		/* one node's part of a multi-node job: not a manifest of its own
		 * (ingesting the folder must not count it), run_gather_nodes()
		 * merges the parts into run.json */
		struct strbuf node = STRBUF_INIT;
		const char *id = getenv("SLURM_NODEID");
		char *text;
		json_object_del(manifest, "accelbench_run");
		json_object_set_new(manifest, "accelbench_node_part", json_integer(1));
		run_node_name(&node);
		json_object_set_new(manifest, "node",
				    json_pack("{s:s, s:I}", "name", node.buf, "node_id",
					      (json_int_t)(id ? atol(id) : 0)));
		strbuf_release(&node);
		text = json_dumps(manifest, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
		strbuf_addf(&path, "%s/part.json", folder);
		rc = text ? ab_write_file(path.buf, text, strlen(text), err) :
			    ab_fail(err, AB_EINTERNAL, "cannot encode the node's part");
		free(text);
		if (rc == 0)
			fprintf(c->out, "node part: %s\n", path.buf);
		strbuf_release(&path);
		return rc;
	}
	rc = run_manifest_write(folder, manifest, &path, err);
	strbuf_release(&path);
	if (rc < 0 || c->dry_run)
		return rc;
	if (c->no_ingest)
		fprintf(c->out, "run folder: %s\n", folder);
	else
		run_result_set(res, folder, manifest, json_object_get(manifest, "provenance"));
	return 0;
}

int run_session_power_start(struct run_session_power *sp, const char *mode, long interval_ms,
			    const char *folder, const char *tag, FILE *out, struct strbuf *err)
{
	struct strbuf host = STRBUF_INIT, line = STRBUF_INIT;
	int rc;

	memset(sp, 0, sizeof(*sp));
	strbuf_init(&sp->csv, 0);
	strbuf_init(&sp->energy, 0);
	if (!mode || !strcmp(mode, "none"))
		return 0;
	rc = power_open(&sp->ps, mode, err);
	if (rc < 0)
		return rc;
	power_describe(sp->ps, &line);
	fprintf(out, "%s\n", line.buf);
	strbuf_release(&line);
	if (!power_ndevices(sp->ps))
		return 0;
	run_hostname(&host);
	strbuf_addf(&sp->csv, "%s/power.%s.%s.csv", folder, tag, host.buf);
	strbuf_addf(&sp->energy, "%s/energy.%s.%s.csv", folder, tag, host.buf);
	strbuf_release(&host);
	rc = power_start(sp->ps, interval_ms > 0 ? interval_ms : 100, sp->csv.buf, err);
	sp->on = rc == 0;
	return rc;
}

int run_session_power_stop(struct run_session_power *sp, json_t *prov, struct strbuf *err)
{
	struct power_result r = { 0 };
	json_t *s;
	int rc;

	if (!sp->ps)
		return 0;
	json_object_set_new(prov, "power", power_info(sp->ps));
	if (!sp->on)
		return 0;
	sp->on = 0;
	rc = power_stop(sp->ps, &r, sp->energy.buf, err);
	if (rc < 0) {
		power_result_release(&r);
		return rc;
	}
	s = json_pack("{s:s, s:s, s:I, s:s}", "power_csv", strrchr(sp->csv.buf, '/') + 1,
		      "energy_csv", strrchr(sp->energy.buf, '/') + 1, "samples", (json_int_t)r.samples,
		      "scope", "the whole session, not attributed to single tests");
	if (r.boundary && r.samples >= 2) {
		struct strbuf t = STRBUF_INIT;
		json_object_set_new(s, "energy_wh", json_real(r.wh));
		json_object_set_new(s, "avg_w", json_real(r.avg_w));
		json_object_set_new(s, "peak_w", json_real(r.peak_w));
		json_object_set_new(s, "boundary", json_string(r.boundary));
		json_object_set_new(s, "source", json_string(r.source));
		json_object_set(s, "per_device", r.per_device);
		run_iso(&t, r.t_start);
		json_object_set_new(s, "started", json_string(t.buf));
		strbuf_reset(&t);
		run_iso(&t, r.t_end);
		json_object_set_new(s, "finished", json_string(t.buf));
		strbuf_release(&t);
	}
	json_object_set_new(prov, "power_session", s);
	power_result_release(&r);
	return 0;
}

void run_session_power_release(struct run_session_power *sp)
{
	power_free(sp->ps); /* stops a sampler still running */
	sp->ps = NULL;
	sp->on = 0;
	strbuf_release(&sp->csv);
	strbuf_release(&sp->energy);
}
