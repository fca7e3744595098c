/*
 * mlperf_score.c - official MLPerf training scores from the database; see
 * mlperf_score.h.  The ingest stored per run: status (ok = valid per the
 * compliance rule), metric time_to_train (minutes, valid runs only) and in
 * params round, scaling_factor, has_power, energy_j, run_index,
 * run_start_ms / run_stop_ms.  Grouping is by system, benchmark, round and
 * HPC scaling kind and result directory (the same names in two copies of
 * a tree stay apart); runs come in result-file order so that ties are broken
 * as the official code's stable sort does.
 */
#include "core/compat.h"
#include "db_priv.h"
#include "mlperf_score.h"
#include "stats.h"

#include <math.h>

static const struct {
	const char *name;
	int runs;
} required[] = {
	{ "bert", 10 }, { "dlrm", 5 }, { "dlrm_dcnv2", 10 }, { "gnn", 10 }, { "rgat", 10 },
	{ "gpt3", 3 }, { "llama2_70b_lora", 10 }, { "llama31_405b", 3 }, { "llama31_8b", 10 },
	{ "flux1", 10 }, { "stable_diffusion", 10 }, { "ssd", 5 }, { "retinanet", 5 },
	{ "resnet", 5 }, { "maskrcnn", 5 }, { "unet3d", 40 }, { "rnnt", 10 }, { "minigo", 10 },
	{ "gnmt", 10 }, { "transformer", 10 }, { "ncf", 10 }, { "gpt_oss_20b", 10 },
	{ "deepseekv3_671b", 3 }, { "qwen35_397b_grpo", 3 },
};

int mlperf_required_runs(const char *benchmark)
{
	size_t i;

	for (i = 0; benchmark && i < AB_ARRAY_SIZE(required); i++)
		if (!strcmp(required[i].name, benchmark))
			return required[i].runs;
	return 0;
}

/* run.params is computed (the run view joins the interned parameter
 * pairs): the CTE computes it once per run, not once per json_extract
 * (eight times faster on a 1,300-log round) */
static const char sql_runs[] =
	"WITH rp AS MATERIALIZED (SELECT r.id AS id, r.params AS params"
	"  FROM run r JOIN benchmark b ON b.id = r.benchmark_id"
	"  WHERE b.suite = 'mlperf-training' AND (?1 IS NULL OR b.name = ?1))"
	" SELECT y.name, y.display_name, y.vendor, y.accelerator, y.host_cpu, b.name,"
	" json_extract(rp.params, '$.round'), json_extract(rp.params, '$.scaling'),"
	" json_extract(rp.params, '$.submitter'), json_extract(rp.params, '$.division'),"
	" json_extract(rp.params, '$.availability'), r.status, r.nodes, r.devices, r.framework,"
	" (SELECT m.value FROM metric m WHERE m.run_id = r.id AND m.name = 'time_to_train'),"
	" json_extract(rp.params, '$.energy_j'), json_extract(rp.params, '$.scaling_factor'),"
	" json_extract(rp.params, '$.has_power'), json_extract(rp.params, '$.run_start_ms'),"
	" json_extract(rp.params, '$.run_stop_ms'), r.id,"
	" json_extract(y.meta, '$.accelerator_model_name'),"
	" json_extract(rp.params, '$.result_dir')"
	" FROM rp JOIN run r ON r.id = rp.id JOIN benchmark b ON b.id = r.benchmark_id"
	" JOIN system y ON y.id = r.system_id"
	" WHERE (?2 IS NULL OR y.name = ?2 OR y.display_name = ?2)"
	" ORDER BY y.name, b.name, coalesce(json_extract(rp.params, '$.round'), ''),"
	"  coalesce(json_extract(rp.params, '$.scaling'), ''),"
	"  coalesce(json_extract(rp.params, '$.result_dir'), ''),"
	"  coalesce(json_extract(rp.params, '$.run_index'), 9e18), r.id";

enum {
	C_SYSTEM, C_DISPLAY, C_VENDOR, C_ACCEL, C_CPU, C_BENCH, C_ROUND, C_SCALING, C_SUBMITTER,
	C_DIVISION, C_AVAIL, C_STATUS, C_NODES, C_DEVICES, C_FRAMEWORK, C_MINUTES, C_ENERGY,
	C_FACTOR, C_POWER, C_START, C_STOP, C_ID, C_ACCEL_MODEL, C_DIR
};

/* The runs of one group. */
struct group {
	json_t *obj;             /* the descriptive fields, from the first run */
	json_t *ids;
	double *minutes, *energy, *start, *stop;
	size_t n_valid, cap;
	size_t runs, failed;
	int has_power, energy_missing;
	double factor;
	int weak;
};

static const char *col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static json_t *col_str(sqlite3_stmt *st, int i)
{
	const char *s = col_text(st, i);
	return s ? json_string(s) : json_null();
}

static json_t *col_pos(sqlite3_stmt *st, int i)
{
	sqlite3_int64 v = sqlite3_column_int64(st, i);
	return sqlite3_column_type(st, i) == SQLITE_NULL || v <= 0 ? json_null() : json_integer(v);
}

static int same_text(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* 1 when the row belongs to another group than the one started by key. */
static int new_group(sqlite3_stmt *st, struct strbuf *key)
{
	struct strbuf k = STRBUF_INIT;
	int differs;
	const char *parts[5];
	size_t i;

	parts[0] = col_text(st, C_SYSTEM);
	parts[1] = col_text(st, C_BENCH);
	parts[2] = col_text(st, C_ROUND);
	parts[3] = col_text(st, C_SCALING);
	parts[4] = col_text(st, C_DIR);
	for (i = 0; i < 5; i++) {
		strbuf_addstr(&k, parts[i] ? parts[i] : "");
		strbuf_addch(&k, '\n');
	}
	differs = !same_text(k.buf, key->buf);
	if (differs) {
		strbuf_reset(key);
		strbuf_addbuf(key, &k);
	}
	strbuf_release(&k);
	return differs;
}

static void group_start(struct group *g, sqlite3_stmt *st)
{
	json_t *o = json_object();
	const char *scaling = col_text(st, C_SCALING);

	memset(g, 0, sizeof(*g));
	g->factor = 1.0;
	g->weak = scaling && !strcmp(scaling, "weak");
	json_object_set_new(o, "submitter", col_str(st, C_SUBMITTER));
	json_object_set_new(o, "system", col_str(st, C_SYSTEM));
	json_object_set_new(o, "system_name", col_str(st, C_DISPLAY));
	json_object_set_new(o, "benchmark", col_str(st, C_BENCH));
	json_object_set_new(o, "round", col_str(st, C_ROUND));
	if (scaling)
		json_object_set_new(o, "scaling", json_string(scaling));
	json_object_set_new(o, "result_dir", col_str(st, C_DIR));
	json_object_set_new(o, "division", col_str(st, C_DIVISION));
	json_object_set_new(o, "availability", col_str(st, C_AVAIL));
	json_object_set_new(o, "vendor", col_str(st, C_VENDOR));
	json_object_set_new(o, "accelerator", col_str(st, C_ACCEL));
	json_object_set_new(o, "accelerator_model_name", col_str(st, C_ACCEL_MODEL));
	json_object_set_new(o, "host_cpu", col_str(st, C_CPU));
	json_object_set_new(o, "nodes", col_pos(st, C_NODES));
	json_object_set_new(o, "devices", col_pos(st, C_DEVICES));
	json_object_set_new(o, "framework", col_str(st, C_FRAMEWORK));
	g->obj = o;
	g->ids = json_array();
}

static void group_add(struct group *g, sqlite3_stmt *st)
{
	const char *status = col_text(st, C_STATUS);
	int valid = status && !strcmp(status, "ok") &&
		    sqlite3_column_type(st, C_MINUTES) != SQLITE_NULL;

	g->runs++;
	json_array_append_new(g->ids, json_integer(sqlite3_column_int64(st, C_ID)));
	if (sqlite3_column_type(st, C_FACTOR) != SQLITE_NULL)
		g->factor = sqlite3_column_double(st, C_FACTOR);
	if (sqlite3_column_int(st, C_POWER))
		g->has_power = 1;
	if (!valid) {
		g->failed++;
		return;
	}
	if (g->n_valid == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->minutes = ab_realloc(g->minutes, g->cap * sizeof(double));
		g->energy = ab_realloc(g->energy, g->cap * sizeof(double));
		g->start = ab_realloc(g->start, g->cap * sizeof(double));
		g->stop = ab_realloc(g->stop, g->cap * sizeof(double));
	}
	g->minutes[g->n_valid] = sqlite3_column_double(st, C_MINUTES);
	if (sqlite3_column_type(st, C_ENERGY) == SQLITE_NULL) {
		g->energy[g->n_valid] = NAN;
		g->energy_missing = 1;
	} else {
		g->energy[g->n_valid] = sqlite3_column_double(st, C_ENERGY);
	}
	g->start[g->n_valid] = sqlite3_column_type(st, C_START) == SQLITE_NULL ?
				       NAN : sqlite3_column_double(st, C_START);
	g->stop[g->n_valid] = sqlite3_column_type(st, C_STOP) == SQLITE_NULL ?
				      NAN : sqlite3_column_double(st, C_STOP);
	g->n_valid++;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* HPC weak scaling: the time to train all models, no olympic mean. */
static void finish_weak(struct group *g, json_t *o)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i;

	for (i = 0; i < g->n_valid; i++) {
		if (g->start[i] < lo)
			lo = g->start[i];
		if (g->stop[i] > hi)
			hi = g->stop[i];
	}
	json_object_set_new(o, "status", json_string(g->n_valid ? "ok" : "no runs left"));
	json_object_set_new(o, "official_score",
			    g->n_valid ? num_or_null((hi - lo) / 60 / 1000) : json_null());
	json_object_set_new(o, "number_of_models", json_integer((json_int_t)g->n_valid));
	json_object_set_new(o, "official_energy_j", json_null());
}

static void group_finish(struct group *g, json_t *arr, struct strbuf *err)
{
	json_t *o = g->obj;
	const char *bench = json_string_value(json_object_get(o, "benchmark"));
	struct stats_olympic ol;
	unsigned char *kept = NULL;
	size_t i, k = stats_mlperf_max_dropped(bench);
	int req = mlperf_required_runs(bench);

	json_object_set_new(o, "runs", json_integer((json_int_t)g->runs));
	json_object_set_new(o, "valid", json_integer((json_int_t)g->n_valid));
	json_object_set_new(o, "failed", json_integer((json_int_t)g->failed));
	json_object_set_new(o, "required_runs", req ? json_integer(req) : json_null());
	json_object_set_new(o, "max_dropped", json_integer((json_int_t)k));
	json_object_set_new(o, "unit", json_string("min"));
	json_object_set_new(o, "scaling_factor", json_real(g->factor));
	json_object_set_new(o, "median", num_or_null(stats_median(g->minutes, g->n_valid)));
	if (g->weak) {
		finish_weak(g, o);
		goto done;
	}
	kept = ab_calloc(g->n_valid ? g->n_valid : 1, 1);
	if (stats_olympic_mean(g->minutes, g->n_valid, g->failed, k, g->factor, &ol, kept, err) < 0) {
		/* a bad scaling factor or time: say so in the row, keep going */
		json_object_set_new(o, "status", json_string(err->buf));
		json_object_set_new(o, "official_score", json_null());
		json_object_set_new(o, "official_energy_j", json_null());
		strbuf_reset(err);
		goto done;
	}
	json_object_set_new(o, "status", json_string(stats_olympic_status_name(ol.status)));
	json_object_set_new(o, "official_score",
			    ol.status == STATS_OLYMPIC_OK ? num_or_null(ol.score) : json_null());
	if (!g->has_power) {
		json_object_set_new(o, "official_energy_j", json_null());
	} else if (ol.status != STATS_OLYMPIC_OK) {
		json_object_set_new(o, "official_energy_j", json_null());
		json_object_set_new(o, "energy_note", json_string("no time score"));
	} else if (g->energy_missing) {
		json_object_set_new(o, "official_energy_j", json_null());
		json_object_set_new(o, "energy_note",
				    json_string("a valid run has no energy (power logs missing "
						"or unreadable)"));
	} else {
		/* _index_olympic_average: the energies of the runs kept by time */
		double sum = 0;
		for (i = 0; i < g->n_valid; i++)
			if (kept[i])
				sum += g->energy[i];
		json_object_set_new(o, "official_energy_j",
				    num_or_null(sum * 1.0 / (double)ol.n_kept * g->factor));
	}
done:
	if (req && g->runs != (size_t)req)
		json_object_set_new(o, "note", json_sprintf("%zu result files, %d required",
							    g->runs, req));
	json_object_set_new(o, "run_ids", g->ids);
	g->ids = NULL;
	json_array_append_new(arr, o);
	g->obj = NULL;
	free(kept);
	free(g->minutes);
	free(g->energy);
	free(g->start);
	free(g->stop);
}

int mlperf_score(struct db *db, const struct db_filter *f, json_t **out, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT;
	struct group g;
	sqlite3_stmt *st = NULL;
	json_t *arr = json_array();
	int rc, in_group = 0;

	*out = NULL;
	memset(&g, 0, sizeof(g));
	if (f && f->suite && strcmp(f->suite, "mlperf-training")) {
		*out = arr;
		return 0;
	}
	rc = db_prepare(db, &st, sql_runs, err);
	if (rc < 0) {
		json_decref(arr);
		return rc;
	}
	db_bind_text(st, 1, f ? f->benchmark : NULL);
	db_bind_text(st, 2, f ? f->system : NULL);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (new_group(st, &key)) {
			if (in_group)
				group_finish(&g, arr, err);
			group_start(&g, st);
			in_group = 1;
		}
		group_add(&g, st);
	}
	if (rc != SQLITE_DONE) {
		rc = db_fail(db, err, "cannot read the mlperf-training runs");
		if (in_group) {
			json_decref(g.obj);
			json_decref(g.ids);
			free(g.minutes);
			free(g.energy);
			free(g.start);
			free(g.stop);
		}
		sqlite3_finalize(st);
		strbuf_release(&key);
		json_decref(arr);
		return rc;
	}
	if (in_group)
		group_finish(&g, arr, err);
	sqlite3_finalize(st);
	strbuf_release(&key);
	*out = arr;
	return 0;
}
