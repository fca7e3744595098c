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

static void on_ingest_event(void *vctx, enum ingest_event ev, const char *path, const char *msg,
			    const struct ingest_totals *t)
{
	const struct run_common *c = vctx;

	(void)t;
	if (ev == INGEST_EV_REJECTED)
		fprintf(stderr, "accelbench: %s\n", msg);
	else if (ev == INGEST_EV_WARNING)
		fprintf(stderr, "accelbench: warning: %s\n", msg);
	else if (ev == INGEST_EV_INGESTED && c->verbose)
		fprintf(stderr, "ingested %s: %s\n", path, msg);
}

int run_ingest(const struct run_common *c, const char *const *paths, size_t n,
	       json_t *provenance, struct ingest_totals *totals, struct strbuf *err)
{
	struct ingest_opts io = { 0 };
	int rc;

	memset(totals, 0, sizeof(*totals));
	if (!n)
		return 0;
	io.provenance = provenance;
	io.notify = on_ingest_event;
	io.notify_ctx = (void *)c;
	io.roots = paths;
	io.nroots = n;
	rc = ingest_paths(paths, n, &io, c->sink, totals, err);
	fprintf(c->out, "ingested: %ld file%s, %ld rejected; added %ld run%s, %ld metric%s",
		totals->ingested, totals->ingested == 1 ? "" : "s", totals->rejected, totals->runs,
		totals->runs == 1 ? "" : "s", totals->metrics, totals->metrics == 1 ? "" : "s");
	if (totals->power_samples)
		fprintf(c->out, ", %ld power sample%s", totals->power_samples,
			totals->power_samples == 1 ? "" : "s");
	if (totals->duplicates)
		fprintf(c->out, "; %ld duplicate run%s skipped", totals->duplicates,
			totals->duplicates == 1 ? "" : "s");
	fputc('\n', c->out);
	if (rc == -AB_EDATA && err->len == 0)
		strbuf_addstr(err, "some files were rejected");
	return rc;
}

int run_finish(const struct run_common *c, const char *folder, json_t *manifest,
	       struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	struct ingest_totals totals;
	const char **paths;
	json_t *list = json_object_get(manifest, "ingest"), *v;
	size_t n = 0, i;
	int rc;

	rc = run_manifest_write(folder, manifest, &path, err);
	if (rc < 0 || c->no_ingest || c->dry_run) {
		if (rc == 0 && c->no_ingest)
			fprintf(c->out, "run folder: %s\n", folder);
		strbuf_release(&path);
		return rc;
	}
	paths = ab_calloc(json_array_size(list) + 2, sizeof(*paths));
	paths[n++] = ab_strdup(path.buf);
	json_array_foreach(list, i, v) {
		struct strbuf p = STRBUF_INIT;
		if (!json_is_string(v))
			continue;
		if (json_string_value(v)[0] == '/')
			strbuf_addstr(&p, json_string_value(v));
		else
			strbuf_addf(&p, "%s/%s", folder, json_string_value(v));
		paths[n++] = strbuf_detach(&p, NULL);
	}
	rc = run_ingest(c, paths, n, json_object_get(manifest, "provenance"), &totals, err);
	for (i = 0; i < n; i++)
		free((char *)paths[i]);
	free(paths);
	strbuf_release(&path);
	return rc;
}
