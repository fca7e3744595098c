/*
 * mlperf.c - the official MLPerf training scores as a view (views.h):
 * typed rows from model/mlperf_score's groups and the results-summary
 * grid (systems down, benchmarks across) that `stats --suite
 * mlperf-training` prints and the report's MLPerf sections show.
 */
#include "core/compat.h"
#include "model/mlperf_score.h"
#include "views/views.h"

#include <math.h>

static char *dup_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? ab_strdup(s) : NULL;
}

static long get_pos(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (long)json_integer_value(v) : 0;
}

static double get_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static size_t get_count(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (size_t)json_integer_value(v) : 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int views_mlperf_build(struct db *db, const struct db_filter *f, struct views_mlperf *out,
		       struct strbuf *err)
{
	json_t *arr = NULL, *o;
	size_t i, j;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = mlperf_score(db, f, &arr, err);
	if (rc < 0)
		return rc;
	out->n = json_array_size(arr);
	out->rows = ab_calloc(out->n ? out->n : 1, sizeof(*out->rows));
	json_array_foreach(arr, i, o) {
		struct views_mlperf_row *r = &out->rows[i];

		r->submitter = dup_str(o, "submitter");
		r->system = dup_str(o, "system");
		r->system_name = dup_str(o, "system_name");
		r->benchmark = dup_str(o, "benchmark");
		r->round = dup_str(o, "round");
		r->scaling = dup_str(o, "scaling");
		r->division = dup_str(o, "division");
		r->availability = dup_str(o, "availability");
		r->accelerator = dup_str(o, "accelerator");
		r->accelerator_model_name = dup_str(o, "accelerator_model_name");
		r->host_cpu = dup_str(o, "host_cpu");
		r->framework = dup_str(o, "framework");
		r->status = dup_str(o, "status");
		r->note = dup_str(o, "note");
		r->energy_note = dup_str(o, "energy_note");
		r->nodes = get_pos(o, "nodes");
		r->devices = get_pos(o, "devices");
		r->runs = get_count(o, "runs");
		r->valid = get_count(o, "valid");
		r->failed = get_count(o, "failed");
		r->required_runs = get_count(o, "required_runs");
		r->max_dropped = get_count(o, "max_dropped");
		r->official_score = get_num(o, "official_score");
		r->scaling_factor = get_num(o, "scaling_factor");
		r->median = get_num(o, "median");
		r->official_energy_j = get_num(o, "official_energy_j");
		r->weak = r->scaling && !strcmp(r->scaling, "weak");
		/* benchmarks in name order, once each */
		for (j = 0; j < out->nbenchmarks; j++)
			if (!strcmp(out->benchmarks[j], r->benchmark ? r->benchmark : ""))
				break;
		if (j == out->nbenchmarks) {
			out->benchmarks = ab_realloc(out->benchmarks, (out->nbenchmarks + 1) *
									      sizeof(*out->benchmarks));
			out->benchmarks[out->nbenchmarks++] = r->benchmark ? r->benchmark : "";
		}
	}
	out->scores = arr;
	if (out->nbenchmarks > 1)
		qsort(out->benchmarks, out->nbenchmarks, sizeof(*out->benchmarks), name_cmp);
	return 0;
}

void views_mlperf_release(struct views_mlperf *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		struct views_mlperf_row *r = &v->rows[i];

		free(r->submitter);
		free(r->system);
		free(r->system_name);
		free(r->benchmark);
		free(r->round);
		free(r->scaling);
		free(r->division);
		free(r->availability);
		free(r->accelerator);
		free(r->accelerator_model_name);
		free(r->host_cpu);
		free(r->framework);
		free(r->status);
		free(r->note);
		free(r->energy_note);
	}
	free(v->rows);
	free((void *)v->benchmarks);
	json_decref(v->scores);
	memset(v, 0, sizeof(*v));
}

size_t views_mlperf_bench_index(const struct views_mlperf *v, const char *benchmark)
{
	size_t j;

	for (j = 0; j < v->nbenchmarks; j++)
		if (!strcmp(v->benchmarks[j], benchmark ? benchmark : ""))
			return j;
	return v->nbenchmarks;
}

int views_mlperf_same_entry(const struct views_mlperf_row *a, const struct views_mlperf_row *b)
{
	return !strcmp(a->system ? a->system : "", b->system ? b->system : "") &&
	       !strcmp(a->round ? a->round : "", b->round ? b->round : "") &&
	       !strcmp(a->scaling ? a->scaling : "", b->scaling ? b->scaling : "");
}
