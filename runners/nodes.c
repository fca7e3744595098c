/*
 * nodes.c - multi-node --slurm jobs.  With --nodes N > 1, `run exec` and
 * `run mlperf` run under srun, one task per node (runners/slurm.c writes
 *   srun --nodes=N --ntasks=N --ntasks-per-node=1 accelbench ... --node-task
 *   accelbench ... --gather
 * into the job script): every node runs the command itself, samples its
 * own power and writes its part (folder/nodes/<node>/part.json, the
 * manifest under another key so that ingesting the folder never counts
 * it); then run_gather_nodes() merges the parts into folder/run.json:
 *
 * - the runs and metrics are node 0's (rank 0 prints the results);
 * - a run failed when it failed on any node (reason "node X: ...", that
 *   node's exit status and output tail), or when a node has no such run;
 * - energy and avg_power are summed over the nodes that measured
 *   (meta.per_node has each node's Wh), peak_power is the sum of the
 *   nodes' peaks (an upper bound: the peaks need not coincide);
 * - power_csv lists every node's samples ({"node", "file"}), stored with
 *   the node name before each column;
 * - MLPerf power logs (power/result_N/node_<node>.txt) of every node are
 *   copied next to node 0's results, where the MLPerf parser sums them
 *   the official way;
 * - provenance.hosts names every node, provenance.nodes has each node's
 *   id and what its sampler saw.
 */
#include "core/compat.h"
#include "run_priv.h"

#include <dirent.h>
#include <math.h>

struct part {
	char *name;
	long id;
	json_t *m;
};

static int cmp_part(const void *a, const void *b)
{
	const struct part *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->name, y->name);
}

static const char *str_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static json_t *run_with_seq(json_t *runs, json_t *seq)
{
	json_t *r;
	size_t i;

	json_array_foreach(runs, i, r)
		if (json_equal(json_object_get(r, "seq"), seq))
			return r;
	return NULL;
}

static json_t *metric_named(json_t *r, const char *name)
{
	json_t *m;
	size_t i;

	json_array_foreach(json_object_get(r, "metrics"), i, m)
		if (str_of(m, "name") && !strcmp(str_of(m, "name"), name))
			return m;
	return NULL;
}

/* "nodes/<node>/<rel>" for a relative path (absolute ones stay). */
static json_t *prefixed(const char *node, const char *rel)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *v;

	if (rel[0] == '/')
		strbuf_addstr(&sb, rel);
	else
		strbuf_addf(&sb, "nodes/%s/%s", node, rel);
	v = json_string(sb.buf);
	strbuf_release(&sb);
	return v;
}

/* Take over another node's failure into r (the merged run). */
static void take_failure(json_t *r, const char *node, json_t *other)
{
	struct strbuf sb = STRBUF_INIT;
	const char *why = str_of(other, "reason");

	strbuf_addf(&sb, "node %s: %s", node, why ? why : "failed");
	json_object_set_new(r, "status", json_string(str_of(other, "status") ?
						     str_of(other, "status") : "failed"));
	json_object_set_new(r, "reason", json_string(sb.buf));
	if (json_object_get(other, "exit_status"))
		json_object_set(r, "exit_status", json_object_get(other, "exit_status"));
	if (str_of(other, "output_tail"))
		json_object_set(r, "output_tail", json_object_get(other, "output_tail"));
	if (str_of(other, "output"))
		json_object_set_new(r, "output", prefixed(node, str_of(other, "output")));
	strbuf_release(&sb);
}

/* Merge one run (by seq) of every part into r, node 0's run. */
static void merge_run(json_t *r, struct part *p, size_t np)
{
	static const char *const summed[] = { "energy", "avg_power", "peak_power" };
	json_t *seq = json_object_get(r, "seq"), *csvs = json_array(), *per_node = json_object();
	size_t i, k;
	long measured = 0;

	for (k = 0; k < AB_ARRAY_SIZE(summed); k++) {
		json_t *m = metric_named(r, summed[k]);
		if (m)
			json_object_set_new(m, "value", json_real(0));
	}
	for (i = 0; i < np; i++) {
		json_t *o = run_with_seq(json_object_get(p[i].m, "runs"), seq);
		const char *csv;

		if (!o) {
			if (!strcmp(str_of(r, "status") ? str_of(r, "status") : "", "ok")) {
				struct strbuf sb = STRBUF_INIT;
				strbuf_addf(&sb, "node %s has no run %lld (it stopped early)", p[i].name,
					    (long long)json_integer_value(seq));
				json_object_set_new(r, "status", json_string("failed"));
				json_object_set_new(r, "reason", json_string(sb.buf));
				strbuf_release(&sb);
			}
			continue;
		}
		if (i > 0 && strcmp(str_of(o, "status") ? str_of(o, "status") : "", "ok") &&
		    !strcmp(str_of(r, "status") ? str_of(r, "status") : "", "ok"))
			take_failure(r, p[i].name, o);
		csv = str_of(o, "power_csv");
		if (csv && *csv)
			json_array_append_new(csvs, json_pack("{s:s, s:o}", "node", p[i].name, "file",
							      prefixed(p[i].name, csv)));
		if (metric_named(o, "energy")) {
			measured++;
			json_object_set(per_node, p[i].name,
					json_object_get(metric_named(o, "energy"), "value"));
		}
		for (k = 0; k < AB_ARRAY_SIZE(summed); k++) {
			json_t *mine = metric_named(r, summed[k]), *theirs = metric_named(o, summed[k]);
			if (!theirs || !json_is_number(json_object_get(theirs, "value")))
				continue;
			if (!mine) {
				/* node 0 did not measure: take the others' */
				mine = json_deep_copy(theirs);
				json_object_set_new(mine, "value", json_real(0));
				json_array_append_new(json_object_get(r, "metrics"), mine);
			}
			json_object_set_new(mine, "value",
				json_real(json_number_value(json_object_get(mine, "value")) +
					  json_number_value(json_object_get(theirs, "value"))));
		}
	}
	if (json_array_size(csvs))
		json_object_set(r, "power_csv", csvs);
	else
		json_object_del(r, "power_csv");
	if (str_of(r, "energy_csv"))
		json_object_set_new(r, "energy_csv", prefixed(p[0].name, str_of(r, "energy_csv")));
	for (k = 0; k < AB_ARRAY_SIZE(summed); k++) {
		json_t *m = metric_named(r, summed[k]), *meta;
		if (!m)
			continue;
		meta = json_object_get(m, "meta");
		if (!json_is_object(meta)) {
			meta = json_object();
			json_object_set_new(m, "meta", meta);
		}
		json_object_set_new(meta, "nodes_measured", json_integer(measured));
		if (!strcmp(summed[k], "energy")) {
			json_object_set(meta, "per_node", per_node);
			json_object_del(meta, "per_device"); /* node 0's only: misleading */
		}
		if (!strcmp(summed[k], "peak_power"))
			json_object_set_new(meta, "note",
					    json_string("sum of the nodes' peaks (an upper bound)"));
	}
	json_object_set_new(r, "nodes", json_integer((json_int_t)np));
	json_decref(csvs);
	json_decref(per_node);
}

/* Copy another node's MLPerf power logs next to node 0's results. */
static int copy_node_files(const char *folder, struct part *leader, struct part *p,
			   struct strbuf *err)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT, data = STRBUF_INIT, dir = STRBUF_INIT;
	json_t *v;
	size_t i;
	int rc = 0;

	json_array_foreach(json_object_get(p->m, "node_files"), i, v) {
		const char *rel = json_string_value(v);
		FILE *fp;
		char buf[8192], *slash;
		size_t n;
		if (!rel || rel[0] == '/' || strstr(rel, ".."))
			continue;
		strbuf_reset(&from);
		strbuf_addf(&from, "%s/nodes/%s/%s", folder, p->name, rel);
		strbuf_reset(&to);
		strbuf_addf(&to, "%s/nodes/%s/%s", folder, leader->name, rel);
		fp = fopen(from.buf, "rb");
		if (!fp)
			continue; /* that node did not get to write it */
		strbuf_reset(&data);
		while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
			strbuf_add(&data, buf, n);
		fclose(fp);
		strbuf_setstr(&dir, to.buf);
		slash = strrchr(dir.buf, '/');
		*slash = '\0';
		rc = ab_mkdirs(dir.buf, err);
		if (rc == 0)
			rc = ab_write_file(to.buf, data.buf, data.len, err);
		if (rc < 0)
			break;
	}
	strbuf_release(&from);
	strbuf_release(&to);
	strbuf_release(&data);
	strbuf_release(&dir);
	return rc;
}

int run_gather_nodes(const struct run_common *c, struct run_result *res, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	struct part *p = NULL;
	size_t np = 0, i, k;
	json_t *m = NULL, *prov, *hosts, *nodes, *r, *list, *per_run;
	const char *env = getenv("SLURM_JOB_NUM_NODES");
	long want = env ? atol(env) : 0;
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (!c->folder)
		return ab_fail(err, AB_EUSAGE, "--gather needs --folder (it is the end of a Slurm job)");
	strbuf_addf(&path, "%s/nodes", c->folder);
	d = opendir(path.buf);
	while (d && (e = readdir(d))) {
		json_t *part, *node;
		if (e->d_name[0] == '.')
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/nodes/%s/part.json", c->folder, e->d_name);
		part = json_load_file(path.buf, JSON_REJECT_DUPLICATES, NULL);
		node = json_object_get(part, "node");
		if (!json_is_object(part) || !json_is_array(json_object_get(part, "runs")) ||
		    !json_is_object(node)) {
			json_decref(part);
			continue;
		}
		p = ab_realloc(p, (np + 1) * sizeof(*p));
		p[np].name = ab_strdup(e->d_name);
		p[np].id = (long)json_integer_value(json_object_get(node, "node_id"));
		p[np].m = part;
		np++;
	}
	if (d)
		closedir(d);
	if (!np) {
		rc = ab_fail(err, AB_EDATA, "no node of the job wrote its part (%s/nodes/*/part.json)",
			     c->folder);
		goto out;
	}
	qsort(p, np, sizeof(*p), cmp_part);
	m = json_deep_copy(p[0].m);
	json_object_del(m, "accelbench_node_part");
	json_object_del(m, "node");
	json_object_del(m, "node_files");
	json_object_set_new(m, "accelbench_run", json_integer(1));
	/* node 0's paths, as seen from the job's folder */
	list = json_object_get(m, "ingest");
	json_array_foreach(list, i, r)
		if (json_is_string(r))
			json_array_set_new(list, i, prefixed(p[0].name, json_string_value(r)));
	per_run = json_object_get(m, "ingest_runs");
	if (json_is_object(per_run)) {
		json_t *moved = json_object();
		const char *key;
		json_t *v;
		json_object_foreach(per_run, key, v) {
			json_t *seq = json_object_get(v, "seq");
			strbuf_reset(&sb);
			strbuf_addf(&sb, "nodes/%s/%s", p[0].name, key);
			/* a run that failed on another node failed */
			for (k = 1; k < np; k++) {
				json_t *ov, *found = NULL;
				const char *okey;
				json_object_foreach(json_object_get(p[k].m, "ingest_runs"), okey, ov)
					if (json_equal(json_object_get(ov, "seq"), seq))
						found = ov;
				if (!found) {
					struct strbuf why = STRBUF_INIT;
					strbuf_addf(&why, "node %s has no such run (it stopped early)",
						    p[k].name);
					json_object_set_new(v, "status", json_string("failed"));
					json_object_set_new(v, "reason", json_string(why.buf));
					strbuf_release(&why);
				} else if (strcmp(str_of(found, "status") ? str_of(found, "status") : "",
						"ok") && !strcmp(str_of(v, "status") ? str_of(v, "status") : "", "ok"))
					take_failure(v, p[k].name, found);
			}
			json_object_set_new(v, "nodes", json_integer((json_int_t)np));
			json_object_set(moved, sb.buf, v);
		}
		json_object_set_new(m, "ingest_runs", moved);
	}
	json_array_foreach(json_object_get(m, "runs"), i, r) {
		if (str_of(r, "output"))
			json_object_set_new(r, "output", prefixed(p[0].name, str_of(r, "output")));
		merge_run(r, p, np);
	}
	for (k = 1; k < np; k++) {
		rc = copy_node_files(c->folder, &p[0], &p[k], err);
		if (rc < 0)
			goto out;
	}
	prov = json_object_get(m, "provenance");
	if (!json_is_object(prov)) {
		prov = json_object();
		json_object_set_new(m, "provenance", prov);
	}
	hosts = json_array();
	nodes = json_array();
	for (k = 0; k < np; k++) {
		json_t *pp = json_object_get(p[k].m, "provenance");
		json_array_append_new(hosts, json_string(p[k].name));
		json_array_append_new(nodes, json_pack("{s:s, s:I, s:O*}", "name", p[k].name, "node_id",
						       (json_int_t)p[k].id, "power",
						       json_object_get(pp, "power")));
	}
	json_object_set_new(prov, "hosts", hosts);
	json_object_set_new(prov, "nodes", nodes);
	if (want > (long)np) {
		/* a node that wrote nothing: every run is incomplete */
		strbuf_reset(&sb);
		strbuf_addf(&sb, "only %zu of %ld nodes wrote results", np, want);
		json_array_foreach(json_object_get(m, "runs"), i, r)
			if (!strcmp(str_of(r, "status") ? str_of(r, "status") : "", "ok")) {
				json_object_set_new(r, "status", json_string("failed"));
				json_object_set_new(r, "reason", json_string(sb.buf));
			}
		fprintf(stderr, "accelbench: %s\n", sb.buf);
	}
	fprintf(c->out, "gathered %zu node%s into %s/run.json\n", np, np == 1 ? "" : "s", c->folder);
	{
		struct run_common c2 = *c;
		c2.node_task = 0;
		rc = run_finish(&c2, c->folder, m, res, err);
	}
	json_array_foreach(json_object_get(m, "runs"), i, r)
		if (rc == 0 && strcmp(str_of(r, "status") ? str_of(r, "status") : "", "ok"))
			rc = ab_fail(err, AB_EDATA, "run %lld failed: %s (stored as failed)",
				     (long long)json_integer_value(json_object_get(r, "seq")),
				     str_of(r, "reason") ? str_of(r, "reason") : "failed");
out:
	for (k = 0; k < np; k++) {
		free(p[k].name);
		json_decref(p[k].m);
	}
	free(p);
	json_decref(m);
	strbuf_release(&path);
	strbuf_release(&sb);
	return rc;
}
