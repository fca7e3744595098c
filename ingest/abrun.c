/*
 * abrun.c - the "accelbench-run" format: run.json, the manifest the
 * runners (runners/) write into each run folder.  It carries what only the
 * runner knows: per run its status (a failed run with its reason and the
 * tail of its output), exit status, times, the metrics it extracted, the
 * energy the power sampler measured, and the provenance (command line,
 * hosts, accelbench version, the sampler's devices and driver).  The power
 * samples are read from the jpwr-layout CSV the manifest names, beside it.
 *
 * Layout: {"accelbench_run": 1, "suite", "benchmark", "system", "metric",
 * "unit", "lower_is_better", "provenance": {...}, "runs": [{"seq",
 * "status", "reason", "job_id", "started", "finished", "exit_status",
 * "metrics": [{"name", "value", "unit", "meta"}], "power_csv", "output",
 * "output_tail", "nodes", "devices"}], "ingest": [...]} (runners/common.c).
 * power_csv is a file name beside run.json, or, for a multi-node job, a
 * list of {"node", "file"} with relative paths inside the run folder
 * (runners/nodes.c); the samples' device names then start with "node/".
 */
#include "core/compat.h"
#include "ingest_priv.h"

#include <math.h>

#define ABRUN_MAX_BYTES (64u << 20)

static int detect_abrun(const char *path, const unsigned char *head, size_t len)
{
	size_t i = 0;

	(void)path;
	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i >= len || head[i] != '{')
		return 0;
	return memmem(head, len, "\"accelbench_run\"", 16) ? 100 : 0;
}

static const char *str_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int status_of(const char *s, enum ingest_run_status *st)
{
	static const struct {
		const char *name;
		enum ingest_run_status st;
	} map[] = { { "ok", RUN_OK }, { "failed", RUN_FAILED }, { "aborted", RUN_ABORTED },
		    { "invalid", RUN_INVALID } };
	size_t i;

	for (i = 0; s && i < AB_ARRAY_SIZE(map); i++)
		if (!strcmp(s, map[i].name)) {
			*st = map[i].st;
			return 0;
		}
	return -1;
}

/* Emit every cell of a jpwr-layout power CSV as a sample of run_id; the
 * device is the column name, after "<node>/" when node is given. */
static int emit_power_csv(struct ingest_file *f, int64_t run_id, const char *path,
			  const char *node, struct strbuf *err)
{
	struct strbuf dev = STRBUF_INIT;
	struct strbuf lerr = STRBUF_INIT;
	FILE *fp = ab_fopen_input(path, &lerr);
	struct fields fl;
	struct lines lr;
	char **cols = NULL;
	size_t ncols = 0, i;
	int rc = 0, lrc;

	if (!fp) {
		ingest_warn(f, 0, "power samples not read: %s", lerr.buf);
		strbuf_release(&lerr);
		return 0;
	}
	lines_init(&lr, fp, LINES_DEFAULT_MAX, 0);
	fields_init(&fl);
	while ((lrc = lines_next(&lr, &lerr)) != 0) {
		double t;
		if (lrc < 0) {
			rc = ab_fail(err, AB_EDATA, "%s:%ld: %s", path, lr.lineno, lerr.buf);
			break;
		}
		if (fields_split(&fl, lr.line.buf, lr.line.len, ',', FIELDS_QUOTED | FIELDS_TRIM) < 0) {
			rc = ab_fail(err, AB_EDATA, "%s:%ld: unterminated quote", path, lr.lineno);
			break;
		}
		if (!cols) {
			if (fl.n < 3 || strcmp(fl.v[1], "timestamps")) {
				rc = ab_fail(err, AB_EDATA, "%s:1: not a jpwr power file (want ',timestamps,...')",
					     path);
				break;
			}
			ncols = fl.n;
			cols = ab_calloc(ncols, sizeof(*cols));
			for (i = 0; i < ncols; i++)
				cols[i] = ab_strdup(fl.v[i]);
			continue;
		}
		if (fl.n != ncols) {
			rc = ab_fail(err, AB_EDATA, "%s:%ld: %zu fields, the header has %zu", path,
				     lr.lineno, fl.n, ncols);
			break;
		}
		if (num_parse_double(fl.v[1], fl.len[1], &t) != NUM_OK || !isfinite(t)) {
			rc = ab_fail(err, AB_EDATA, "%s:%ld: timestamp is not a number", path, lr.lineno);
			break;
		}
		for (i = 2; i < ncols && rc == 0; i++) {
			double w;
			if (!fl.len[i])
				continue; /* NaN: no reading in this sample */
			if (num_parse_double(fl.v[i], fl.len[i], &w) != NUM_OK || !isfinite(w)) {
				rc = ab_fail(err, AB_EDATA, "%s:%ld: '%s' is not a number", path,
					     lr.lineno, cols[i]);
				break;
			}
			if (node) {
				strbuf_reset(&dev);
				strbuf_addf(&dev, "%s/%s", node, cols[i]);
			}
			rc = ingest_emit_power(f, run_id, node ? dev.buf : cols[i], t, w, err);
		}
		if (rc < 0)
			break;
	}
	for (i = 0; i < ncols; i++)
		free(cols ? cols[i] : NULL);
	free(cols);
	fields_release(&fl);
	lines_release(&lr);
	fclose(fp);
	strbuf_release(&lerr);
	strbuf_release(&dev);
	return rc;
}

/* A power file named in the manifest: relative to it, never leaving it. */
static int safe_rel(const char *p)
{
	const char *s;

	if (!p || !*p || p[0] == '/')
		return 0;
	for (s = p; *s; ) {
		size_t n = strcspn(s, "/");
		if ((n == 2 && !strncmp(s, "..", 2)) || n == 0)
			return 0;
		s += n;
		if (*s == '/')
			s++;
	}
	return 1;
}

/* The accelerator the sampler saw: the first GPU backend's first device. */
static void sampler_accel(json_t *prov, const char **name, long *count)
{
	json_t *backends = json_object_get(prov, "power"), *b;
	size_t i;

	*name = NULL;
	*count = 0;
	json_array_foreach(backends, i, b) {
		const char *be = str_of(b, "backend");
		json_t *devs = json_object_get(b, "devices");
		if (!be || (strcmp(be, "nvml") && strcmp(be, "rocm")) || !json_array_size(devs))
			continue;
		*name = str_of(json_array_get(devs, 0), "name");
		*count = (long)json_array_size(devs);
		return;
	}
}

static int parse_abrun(struct ingest_file *f, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, p = STRBUF_INIT;
	struct ingest_metric *ms = NULL;
	json_error_t je;
	json_t *root, *runs, *prov, *r;
	const char *suite, *bench, *system, *metric, *unit, *accel;
	long naccel;
	size_t i;
	int rc = 0;

	if (f->size > ABRUN_MAX_BYTES)
		return ingest_fail_at(f, err, 0, "run manifest larger than %u bytes", ABRUN_MAX_BYTES);
	root = json_loadf(f->fp, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return ingest_fail_at(f, err, je.line > 0 ? je.line : 0, "bad JSON: %s", je.text);
	suite = str_of(root, "suite");
	bench = str_of(root, "benchmark");
	system = str_of(root, "system");
	metric = str_of(root, "metric");
	unit = str_of(root, "unit");
	runs = json_object_get(root, "runs");
	prov = json_object_get(root, "provenance");
	if (!json_is_integer(json_object_get(root, "accelbench_run")) ||
	    json_integer_value(json_object_get(root, "accelbench_run")) != 1) {
		rc = ingest_fail_at(f, err, 0, "unsupported run manifest version");
		goto out;
	}
	if (!suite || !*suite || !bench || !*bench || !system || !*system || !metric || !*metric ||
	    !unit || !json_is_array(runs)) {
		rc = ingest_fail_at(f, err, 0,
				    "run manifest lacks suite, benchmark, system, metric, unit or runs");
		goto out;
	}
	sampler_accel(prov, &accel, &naccel);
	ingest_dirname(&dir, f->path);
	json_array_foreach(runs, i, r) {
		struct ingest_run run = { 0 };
		json_t *mj = json_object_get(r, "metrics"), *m, *params;
		json_t *csvs = json_object_get(r, "power_csv");
		int64_t run_id = 0;
		size_t k, nm = 0;

		if (!json_is_object(r) || status_of(str_of(r, "status"), &run.status) < 0 ||
		    (mj && !json_is_array(mj))) {
			rc = ingest_fail_at(f, err, 0, "run %zu: bad status or metrics", i + 1);
			goto out;
		}
		free(ms);
		ms = ab_calloc(json_array_size(mj) + 1, sizeof(*ms));
		json_array_foreach(mj, k, m) {
			json_t *v = json_object_get(m, "value");
			const char *name = str_of(m, "name"), *mu = str_of(m, "unit");
			if (!name || !*name || !json_is_number(v) || !isfinite(json_number_value(v))) {
				rc = ingest_fail_at(f, err, 0, "run %zu: metric %zu has no name or no finite value",
						    i + 1, k + 1);
				goto out;
			}
			ms[nm].name = name;
			ms[nm].value = json_number_value(v);
			ms[nm].unit = mu ? mu : "";
			ms[nm].meta = json_object_get(m, "meta");
			nm++;
		}
		params = json_object();
		if (prov)
			json_object_set(params, "provenance", prov);
		{
			static const char *const keys[] = { "seq", "exit_status", "output", "output_tail",
							    "power_csv", "energy_csv", "reason",
							    "tool_status" };
			size_t q;
			for (q = 0; q < AB_ARRAY_SIZE(keys); q++)
				if (json_object_get(r, keys[q]))
					json_object_set(params, keys[q], json_object_get(r, keys[q]));
			if (json_is_object(json_object_get(r, "params")))
				json_object_update(params, json_object_get(r, "params"));
		}
		run.line = 0;
		run.system.name = system;
		run.system.accelerator = accel;
		run.system.accelerators_per_node = naccel;
		run.suite = suite;
		run.benchmark = bench;
		run.bench_metric = metric;
		run.bench_unit = unit;
		run.lower_is_better = json_is_true(json_object_get(root, "lower_is_better"));
		run.job_id = str_of(r, "job_id");
		run.started = str_of(r, "started");
		run.finished = str_of(r, "finished");
		run.nodes = json_is_integer(json_object_get(r, "nodes")) ?
			    (long)json_integer_value(json_object_get(r, "nodes")) : 0;
		run.devices = json_is_integer(json_object_get(r, "devices")) ?
			      (long)json_integer_value(json_object_get(r, "devices")) : 0;
		run.params = params;
		run.excluded_reason = run.status == RUN_OK ? NULL : str_of(r, "reason");
		if (run.status != RUN_OK && !run.excluded_reason)
			run.excluded_reason = "failed";
		run.metrics = ms;
		run.nmetrics = nm;
		rc = ingest_emit_run(f, &run, &run_id, err);
		json_decref(params);
		if (rc < 0)
			goto out;
		/* "power.1.host.csv", or per node of a multi-node job
		 * [{"node": "n1", "file": "nodes/n1/power.1.host.csv"}, ...] */
		if (rc == 0 && json_is_string(csvs) && !strchr(json_string_value(csvs), '/') &&
		    safe_rel(json_string_value(csvs))) {
			strbuf_reset(&p);
			strbuf_addf(&p, "%s/%s", dir.buf, json_string_value(csvs));
			rc = emit_power_csv(f, run_id, p.buf, NULL, err);
			if (rc < 0)
				goto out;
		} else if (rc == 0 && json_is_array(csvs)) {
			json_t *one;
			size_t q;
			json_array_foreach(csvs, q, one) {
				const char *file = str_of(one, "file"), *node = str_of(one, "node");
				if (!safe_rel(file) || !node || !*node)
					continue;
				strbuf_reset(&p);
				strbuf_addf(&p, "%s/%s", dir.buf, file);
				rc = emit_power_csv(f, run_id, p.buf, node, err);
				if (rc < 0)
					goto out;
			}
		}
		rc = 0;
	}
out:
	free(ms);
	json_decref(root);
	strbuf_release(&dir);
	strbuf_release(&p);
	return rc;
}

const struct ingest_format ingest_fmt_abrun = {
	"accelbench-run", 0, detect_abrun, parse_abrun
};
