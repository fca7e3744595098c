/*
 * chart.c - what each chart shows, from the database: pick configurations,
 * take statistics, fits, the Pareto front and pairings from the other
 * views, write titles and labels with units, into the cairo-free specs
 * that plots/ draws.  One table of chart kinds.
 *
 * Selection rules (stated in each chart's subtitle):
 *  - bar, pareto, heatmap: one configuration per system, its best by
 *    median (highest throughput, lowest time) unless --batch/--devices
 *    fix the shape;
 *  - bargroup, scaling, devices: every configuration, grouped as in
 *    model/series.c.
 */
#include "core/compat.h"
#include "model/mlperf_score.h"
#include "model/power.h"
#include "views/views.h"

#include <ctype.h>
#include <math.h>

struct views_chart {
	struct plot_chart chart;
	struct db_configs cs, cs2;
	struct series_set ss, ss2;
	struct db_power power;
	struct views_pareto pareto;
	json_t *json;                 /* MLPerf scores (model/mlperf_score.c) */
	struct plot_palette *own_palette;
	void **allocs;
	size_t nallocs;
};

static void *keep(struct views_chart *f, void *p)
{
	f->allocs = ab_realloc(f->allocs, (f->nallocs + 1) * sizeof(*f->allocs));
	f->allocs[f->nallocs++] = p;
	return p;
}

static void *kalloc(struct views_chart *f, size_t n, size_t size)
{
	return keep(f, ab_calloc(n ? n : 1, size));
}

static const char *kstr(struct views_chart *f, const char *fmt, ...) AB_PRINTF(2, 3);
static const char *kstr(struct views_chart *f, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return keep(f, strbuf_detach(&sb, NULL));
}

/* "energy_efficiency" -> "Energy efficiency" */
static const char *pretty_metric(struct views_chart *f, const char *m)
{
	char *s = keep(f, ab_strdup(m));
	size_t i;

	for (i = 0; s[i]; i++)
		if (s[i] == '_')
			s[i] = ' ';
	s[0] = (char)toupper((unsigned char)s[0]);
	return s;
}

/* The one table of chart kinds: every list of them is made from it. */
static const struct views_chart_kind_info kinds[] = {
	{ VIEWS_CHART_BAR, "bar", PLOT_BAR, "one bar per system (its best configuration)",
	  VIEWS_NEEDS_BENCHMARK },
	{ VIEWS_CHART_BARGROUP, "bargroup", PLOT_BARGROUP,
	  "systems by global batch; without a benchmark, speedups by benchmark",
	  VIEWS_NEEDS_EITHER },
	{ VIEWS_CHART_SCALING, "scaling", PLOT_BATCH, "throughput vs global batch with the fit",
	  VIEWS_NEEDS_BENCHMARK },
	{ VIEWS_CHART_DEVICES, "devices", PLOT_DEVICES, "speedup and efficiency vs devices or nodes",
	  VIEWS_NEEDS_BENCHMARK },
	{ VIEWS_CHART_PARETO, "pareto", PLOT_PARETO, "throughput vs energy efficiency, the front",
	  VIEWS_NEEDS_BENCHMARK },
	{ VIEWS_CHART_HEATMAP, "heatmap", PLOT_HEATMAP, "systems x benchmarks, ratio to a baseline",
	  VIEWS_NEEDS_BASELINE },
	{ VIEWS_CHART_POWER, "power", PLOT_POWER, "watts over time of one run", 0 },
};

const struct views_chart_kind_info *views_chart_kinds(size_t *n)
{
	*n = AB_ARRAY_SIZE(kinds);
	return kinds;
}

int views_chart_kind_parse(const char *name)
{
	size_t i;

	for (i = 0; name && i < AB_ARRAY_SIZE(kinds); i++)
		if (!strcmp(name, kinds[i].name))
			return (int)kinds[i].kind;
	return -1;
}

const char *views_chart_kind_name(enum views_chart_kind kind)
{
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(kinds); i++)
		if (kinds[i].kind == kind)
			return kinds[i].name;
	return "unknown";
}

void views_chart_kind_list(struct strbuf *sb, const char *sep, const char *last)
{
	size_t i, n = AB_ARRAY_SIZE(kinds);

	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i == 0 ? "" : i + 1 == n ? last : sep, kinds[i].name);
}

const struct plot_chart *views_chart_spec(const struct views_chart *f)
{
	return &f->chart;
}

void views_chart_free(struct views_chart *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nallocs; i++)
		free(f->allocs[i]);
	free(f->allocs);
	series_set_release(&f->ss);
	series_set_release(&f->ss2);
	db_configs_release(&f->cs);
	db_configs_release(&f->cs2);
	db_power_release(&f->power);
	views_pareto_release(&f->pareto);
	json_decref(f->json);
	plot_palette_free(f->own_palette);
	free(f);
}

static int wanted(const struct views_chart_opts *o, const struct db_config *c)
{
	size_t i;

	if (o->batch > 0 && c->global_batch != o->batch)
		return 0;
	if (o->devices > 0 && c->devices != o->devices)
		return 0;
	if (!o->nsystems)
		return 1;
	for (i = 0; i < o->nsystems; i++)
		if (!strcmp(o->systems[i], c->system) ||
		    (c->display_name && !strcmp(o->systems[i], c->display_name)))
			return 1;
	return 0;
}

static int better(const struct db_config *c, double a, double b)
{
	return c->lower_is_better ? a < b : a > b;
}

static int keep_wanted(const struct db_config *c, void *ctx)
{
	return wanted(ctx, c);
}

/* Per system (in cs order) the wanted configuration with the best median. */
static size_t pick_best(const struct db_configs *cs, const struct views_chart_opts *o,
			const char *benchmark, const struct db_config **out)
{
	return db_configs_best(cs, benchmark, keep_wanted, (void *)o, out);
}

static const struct plot_palette *palette(struct views_chart *f, const struct views_chart_opts *o,
					  const struct db_configs *cs)
{
	size_t i;

	if (o->palette)
		return o->palette;
	f->own_palette = plot_palette_new();
	for (i = 0; i < cs->n; i++)
		plot_palette_add(f->own_palette, cs->v[i].system, cs->v[i].vendor);
	return f->own_palette;
}

static void summary_ci(const struct db_config *c, double *med, double *lo, double *hi)
{
	struct stats_summary s;

	if (stats_summarize(c->values, c->n, c->n_failed, &s, NULL, NULL) < 0 || !c->n) {
		*med = *lo = *hi = NAN;
		return;
	}
	*med = s.median;
	*lo = s.has_ci ? s.ci_low : NAN;
	*hi = s.has_ci ? s.ci_high : NAN;
}

static const char *shape_note(struct views_chart *f, const struct views_chart_opts *o)
{
	if (o->batch > 0 && o->devices > 0)
		return kstr(f, "global batch %ld, %ld devices", o->batch, o->devices);
	if (o->batch > 0)
		return kstr(f, "global batch %ld", o->batch);
	if (o->devices > 0)
		return kstr(f, "%ld devices", o->devices);
	return "best configuration per system";
}

static int load(struct views_chart *f, struct db *db, const struct views_chart_opts *o, const char *metric,
		struct db_configs *cs, struct strbuf *err)
{
	struct db_config_query q = { o->suite, o->benchmark, NULL, metric };
	int rc = db_load_configs(db, &q, cs, err);

	if (rc < 0)
		return rc;
	if (!cs->n)
		return ab_fail(err, AB_EDATA, "nothing to plot: no runs of benchmark '%s'%s%s",
			       o->benchmark ? o->benchmark : "(any)", o->suite ? " in suite " : "",
			       o->suite ? o->suite : "");
	(void)f;
	return 0;
}

/* "1n x 8, b4096, fp16": the configuration a bar or point stands for */
static const char *config_label(struct views_chart *f, const struct db_config *c)
{
	struct strbuf sb = STRBUF_INIT;

	if (c->nodes > 0 && c->devices > 0)
		strbuf_addf(&sb, "%ldn × %ld", c->nodes, c->devices / (c->nodes ? c->nodes : 1));
	else if (c->devices > 0)
		strbuf_addf(&sb, "%ld dev", c->devices);
	if (c->global_batch > 0)
		strbuf_addf(&sb, "%sb%ld", sb.len ? ", " : "", c->global_batch);
	if (c->precision)
		strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", c->precision);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return keep(f, strbuf_detach(&sb, NULL));
}

static int bar_cmp(const void *pa, const void *pb, int lower)
{
	const struct plot_bar *a = pa, *b = pb;

	if (a->value != b->value)
		return (a->value < b->value) == !lower ? 1 : -1;
	return strcmp(a->system, b->system);
}

static int bar_desc(const void *a, const void *b)
{
	return bar_cmp(a, b, 0);
}

static int bar_asc(const void *a, const void *b)
{
	return bar_cmp(a, b, 1);
}

/* What every bar chart decides the same way: normalisation, the best N,
 * the scale (log when values span more than 30x), the layout for many or
 * long names; returns the note for the subtitle. */
static const char *bars_finish(struct views_chart *f, const struct views_chart_opts *o,
			       struct plot_bar_spec *sp, struct plot_bar *bars, size_t *n,
			       const struct db_config *c0, int *per_device_refused,
			       struct strbuf *err)
{
	struct strbuf note = STRBUF_INIT;
	double lo = HUGE_VAL, hi = 0;
	size_t i, total = *n, longest = 0;

	*per_device_refused = 0;
	if (o->per_device) {
		for (i = 0; i < *n; i++) {
			double d = (double)bars[i].devices;
			if (!(d > 0)) {
				*per_device_refused = 1;
				ab_fail(err, AB_EDATA, "per accelerator: the accelerator count of '%s' is "
						       "not known", bars[i].system);
				strbuf_release(&note);
				return NULL;
			}
			/* throughput per accelerator; a time becomes accelerator-time */
			if (c0->lower_is_better) {
				bars[i].value *= d;
				bars[i].lo *= d;
				bars[i].hi *= d;
			} else {
				bars[i].value /= d;
				bars[i].lo /= d;
				bars[i].hi /= d;
			}
		}
		strbuf_addstr(&note, c0->lower_is_better ? "normalised: × accelerators "
							   "(accelerator-time)"
							 : "normalised: per accelerator");
	} else {
		strbuf_addstr(&note, "not normalised (whole system)");
	}
	qsort(bars, *n, sizeof(*bars), c0->lower_is_better ? bar_asc : bar_desc);
	if (o->top > 0 && (size_t)o->top < *n) {
		*n = (size_t)o->top;
		strbuf_addf(&note, " · best %zu of %zu systems", *n, total);
	}
	for (i = 0; i < *n; i++) {
		lo = fmin(lo, bars[i].value);
		hi = fmax(hi, bars[i].value);
		longest = strlen(bars[i].system) > longest ? strlen(bars[i].system) : longest;
	}
	sp->y_scale = o->scale;
	if (o->scale == PLOT_SCALE_AUTO && lo > 0 && hi / lo > 30)
		sp->y_scale = PLOT_SCALE_LOG10;
	if ((sp->y_scale == PLOT_SCALE_LOG10 || sp->y_scale == PLOT_SCALE_LOG2))
		strbuf_addf(&note, " · log scale (values span %.0f×)", hi / lo);
	sp->horizontal = *n > 10 || longest > 16;
	return keep(f, strbuf_detach(&note, NULL));
}

/* MLPerf training: the official score of each system's run set. */
static int bar_mlperf(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
		      struct plot_bar_spec *sp, struct strbuf *err)
{
	struct db_filter flt = { "mlperf-training", o->benchmark, NULL };
	struct plot_bar *bars;
	struct strbuf cap = STRBUF_INIT;
	const char *note;
	size_t i, n = 0, nhatched = 0, runs = 0;
	int rc, refused;
	json_t *g;

	rc = mlperf_score(db, &flt, &f->json, err);
	if (rc < 0)
		return rc;
	bars = kalloc(f, json_array_size(f->json), sizeof(*bars));
	json_array_foreach(f->json, i, g) {
		const char *sys = json_string_value(json_object_get(g, "system"));
		json_t *score = json_object_get(g, "official_score");
		json_t *med = json_object_get(g, "median");
		long req = (long)json_integer_value(json_object_get(g, "required_runs"));
		long nruns = (long)json_integer_value(json_object_get(g, "runs"));
		long nodes = (long)json_integer_value(json_object_get(g, "nodes"));
		long devices = (long)json_integer_value(json_object_get(g, "devices"));
		const char *status = json_string_value(json_object_get(g, "status"));
		struct db_config like = { 0 };
		size_t k;

		if (!sys || (!json_is_number(score) && !json_is_number(med)))
			continue;
		for (k = 0; k < n && strcmp(bars[k].system, sys); k++)
			;
		if (k < n)
			continue; /* one run set per system: the first (by round) */
		like.system = (char *)sys;
		if (!wanted(o, &like))
			continue;
		bars[n].system = sys;
		bars[n].vendor = json_string_value(json_object_get(g, "vendor"));
		bars[n].value = json_is_number(score) ? json_number_value(score)
						      : json_number_value(med);
		bars[n].lo = bars[n].hi = NAN; /* an official score has no CI */
		bars[n].n = (int)json_integer_value(json_object_get(g, "valid"));
		bars[n].incomplete = !json_is_number(score) || (status && strcmp(status, "ok")) ||
				     (req > 0 && nruns < req);
		bars[n].devices = devices;
		like.nodes = nodes;
		like.devices = devices;
		like.global_batch = 0;
		bars[n].config = config_label(f, &like);
		nhatched += bars[n].incomplete;
		runs += (size_t)nruns;
		n++;
	}
	if (!n)
		return ab_fail(err, AB_EDATA, "nothing to plot: no MLPerf training run set of '%s' "
					      "matches the selection", o->benchmark);
	note = bars_finish(f, o, sp, bars, &n, &f->cs.v[0], &refused, err);
	if (!note)
		return -AB_EDATA;
	sp->bars = bars;
	sp->n_bars = n;
	sp->baseline = o->baseline;
	sp->lower_is_better = 1;
	sp->palette = palette(f, o, &f->cs);
	sp->labels.title = o->title ? o->title
				    : kstr(f, "%s: official MLPerf training score, time to train "
					      "(lower is better)", o->benchmark);
	sp->labels.subtitle = kstr(f, "mlperf-training · %zu systems, %zu result files · %s",
				   json_array_size(f->json), runs, note);
	strbuf_addstr(&cap, "Bars: official score = olympic mean of the valid runs (a failed run "
			    "counts as the slowest) × the RCP scaling factor, as MLCommons scores "
			    "it; n = valid runs; no CI: a score is one number per run set.");
	if (nhatched)
		strbuf_addf(&cap, " Hatched (%zu): not a complete valid run set (fewer result files "
				  "than required, or too many failed runs); the bar shows the "
				  "median of its valid runs instead, not an official score.",
			    nhatched);
	sp->labels.caption = keep(f, strbuf_detach(&cap, NULL));
	sp->labels.y_title = o->per_device ? "Accelerator-time to train" : "Time to train";
	sp->labels.y_unit = "min";
	f->chart.kind = PLOT_BAR;
	f->chart.u.bar = sp;
	return 0;
}

/* MLPerf inference: the official metric of each scenario, as the v4.1
 * submission checker takes it from mlperf_log_detail.txt (ingest stores it
 * as the benchmark's headline metric). */
static const char *inference_metric(const char *scenario, const char *unit)
{
	int tokens = unit && strstr(unit, "token");

	if (!strcmp(scenario, "Offline"))
		return tokens ? "Offline: tokens per second" : "Offline: samples per second";
	if (!strcmp(scenario, "Server"))
		return tokens ? "Server: completed tokens per second within the latency bound"
			      : "Server: completed samples per second within the latency bound";
	if (!strcmp(scenario, "SingleStream"))
		return "SingleStream: 90th-percentile latency (early-stopping estimate)";
	if (!strcmp(scenario, "MultiStream"))
		return "MultiStream: 99th-percentile latency (early-stopping estimate)";
	return NULL;
}

/* MLPerf inference: one official result per system (its LoadGen
 * performance run), never a median with a CI; invalid results named. */
static int bar_inference(struct views_chart *f, const struct views_chart_opts *o,
			 struct plot_bar_spec *sp, struct strbuf *err)
{
	const struct db_config *c0 = &f->cs.v[0];
	const char *slash = strrchr(c0->benchmark, '/');
	const char *scenario = slash ? slash + 1 : c0->benchmark;
	const char *what = inference_metric(scenario, c0->unit), *note;
	const struct db_config **pick = kalloc(f, f->cs.n, sizeof(*pick));
	struct strbuf cap = STRBUF_INIT, model = STRBUF_INIT, inv = STRBUF_INIT;
	struct plot_bar *bars;
	size_t i, n, nmulti = 0, ninvalid = 0;
	int refused;

	n = pick_best(&f->cs, o, NULL, pick);
	strbuf_add(&model, c0->benchmark, slash ? (size_t)(slash - c0->benchmark) : strlen(c0->benchmark));
	/* results LoadGen marked INVALID (or with impossible values) have no
	 * value to draw: named under the chart, never dropped silently */
	for (i = 0; i < f->cs.n; i++) {
		const struct db_config *c = &f->cs.v[i];
		size_t k;
		if (!wanted(o, c) || c->n || !(c->n_invalid || c->n_failed))
			continue;
		for (k = 0; k < n && strcmp(pick[k]->system, c->system); k++)
			;
		if (k < n)
			continue; /* it has a valid result too */
		strbuf_addf(&inv, "%s%s", ninvalid ? ", " : "", c->system);
		ninvalid++;
	}
	if (!n) {
		strbuf_release(&model);
		ab_fail(err, AB_EDATA, "nothing to plot: no valid MLPerf inference result of '%s' "
				       "matches the selection%s%s%s", o->benchmark,
			ninvalid ? " (INVALID or failed: " : "", inv.buf, ninvalid ? ")" : "");
		strbuf_release(&inv);
		return -AB_EDATA;
	}
	strbuf_addstr(&cap, "Bars: the official result of each system's performance run "
			    "(one number, no CI).");
	if (ninvalid)
		strbuf_addf(&cap, " Not shown, result INVALID or failed: %s.", inv.buf);
	strbuf_release(&inv);
	bars = kalloc(f, n, sizeof(*bars));
	for (i = 0; i < n; i++) {
		bars[i].system = pick[i]->system;
		bars[i].vendor = pick[i]->vendor;
		/* one performance run is the result; several (re-runs, rounds):
		 * their median, flagged */
		bars[i].value = stats_median(pick[i]->values, pick[i]->n);
		bars[i].lo = bars[i].hi = NAN;
		bars[i].n = (int)pick[i]->n;
		bars[i].incomplete = pick[i]->n > 1;
		nmulti += pick[i]->n > 1;
		bars[i].devices = pick[i]->devices;
		bars[i].config = config_label(f, pick[i]);
	}
	if (nmulti)
		strbuf_addf(&cap, " Hatched (%zu): more than one performance run stored; the bar is "
				  "their median, not one official result.", nmulti);
	note = bars_finish(f, o, sp, bars, &n, c0, &refused, err);
	if (!note) {
		strbuf_release(&cap);
		strbuf_release(&model);
		return -AB_EDATA;
	}
	sp->bars = bars;
	sp->n_bars = n;
	sp->baseline = o->baseline;
	sp->lower_is_better = c0->lower_is_better;
	sp->palette = palette(f, o, &f->cs);
	sp->labels.title = o->title ? o->title
				    : kstr(f, "%s %s: official MLPerf inference result (%s is better)",
					   model.buf, scenario, c0->lower_is_better ? "lower" : "higher");
	sp->labels.subtitle = kstr(f, "%s · %s · one result per system · %s", c0->suite,
				   what ? what : kstr(f, "%s (%s)", c0->metric, c0->unit), note);
	sp->labels.caption = keep(f, strbuf_detach(&cap, NULL));
	sp->labels.y_title = what ? (c0->lower_is_better ? "Latency" : pretty_metric(f, c0->metric))
				  : pretty_metric(f, c0->metric);
	if (o->per_device)
		sp->labels.y_title = kstr(f, "%s per accelerator", sp->labels.y_title);
	sp->labels.y_unit = c0->unit;
	f->chart.kind = PLOT_BAR;
	f->chart.u.bar = sp;
	strbuf_release(&model);
	return 0;
}

static int build_bar(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
		     struct strbuf *err)
{
	const struct db_config **pick;
	struct plot_bar_spec *sp = kalloc(f, 1, sizeof(*sp));
	struct plot_bar *bars;
	const char *note;
	size_t i, n, runs = 0;
	int rc = load(f, db, o, o->metric, &f->cs, err), refused, differ = 0;

	if (rc < 0)
		return rc;
	if (!o->metric && !strcmp(f->cs.v[0].suite, "mlperf-training") && o->batch <= 0 &&
	    o->devices <= 0)
		return bar_mlperf(f, db, o, sp, err);
	if (!o->metric && !strcmp(f->cs.v[0].suite, "mlperf-inference"))
		return bar_inference(f, o, sp, err);
	pick = kalloc(f, f->cs.n, sizeof(*pick));
	n = pick_best(&f->cs, o, NULL, pick);
	if (!n)
		return ab_fail(err, AB_EDATA, "nothing to plot: no successful run of '%s' matches "
					      "the selection", o->benchmark);
	bars = kalloc(f, n, sizeof(*bars));
	for (i = 0; i < n; i++) {
		bars[i].system = pick[i]->system;
		bars[i].vendor = pick[i]->vendor;
		summary_ci(pick[i], &bars[i].value, &bars[i].lo, &bars[i].hi);
		if (pick[i]->n < STATS_CI_MIN_N)
			bars[i].lo = bars[i].hi = NAN; /* no whisker where n is too small */
		bars[i].n = (int)pick[i]->n;
		bars[i].devices = pick[i]->devices;
		bars[i].config = config_label(f, pick[i]);
		differ |= i && !db_config_same_shape(pick[i], pick[0]);
		runs += pick[i]->n;
	}
	note = bars_finish(f, o, sp, bars, &n, pick[0], &refused, err);
	if (!note)
		return -AB_EDATA;
	sp->bars = bars;
	sp->n_bars = n;
	sp->baseline = o->baseline;
	sp->lower_is_better = pick[0]->lower_is_better;
	sp->palette = palette(f, o, &f->cs);
	sp->labels.title = o->title ? o->title
				    : kstr(f, "%s: %s by system (%s is better)", pick[0]->benchmark,
					   pretty_metric(f, pick[0]->metric),
					   pick[0]->lower_is_better ? "lower" : "higher");
	sp->labels.subtitle = kstr(f, "%s · %s%s · median and 95 %% CI · %zu runs · %s",
				   pick[0]->suite, shape_note(f, o),
				   differ ? " (configurations differ: labels say which)" : "", runs,
				   note);
	sp->labels.y_title = o->per_device ? kstr(f, "%s per accelerator",
						   pretty_metric(f, pick[0]->metric))
					   : pretty_metric(f, pick[0]->metric);
	sp->labels.y_unit = pick[0]->unit;
	f->chart.kind = PLOT_BAR;
	f->chart.u.bar = sp;
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* Bars grouped by benchmark: each system's speedup over the baseline (best
 * configurations), with the bootstrap CI of the ratio; reference line at 1. */
static int build_bargroup_bench(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
				struct strbuf *err)
{
	struct plot_bargroup_spec *sp = kalloc(f, 1, sizeof(*sp));
	struct db_config_query q = { o->suite, NULL, NULL, o->metric };
	const struct db_config **pick;
	const char **groups;
	struct plot_sys *sys;
	struct plot_cell *cells;
	size_t i, k, g, ng = 0, ns = 0;
	int rc;

	if (!o->baseline)
		return ab_fail(err, AB_EUSAGE, "a bargroup across benchmarks needs a baseline system");
	rc = db_load_configs(db, &q, &f->cs, err);
	if (rc < 0)
		return rc;
	groups = kalloc(f, f->cs.n, sizeof(*groups));
	sys = kalloc(f, f->cs.n, sizeof(*sys));
	for (i = 0; i < f->cs.n; i++) {
		const struct db_config *c = &f->cs.v[i];
		if (!c->n || !wanted(o, c))
			continue;
		if (!strcmp(c->system, o->baseline)) {
			for (k = 0; k < ng && strcmp(groups[k], c->benchmark); k++)
				;
			if (k == ng)
				groups[ng++] = c->benchmark;
		} else {
			for (k = 0; k < ns && strcmp(sys[k].name, c->system); k++)
				;
			if (k == ns) {
				sys[ns].name = c->system;
				sys[ns++].vendor = c->vendor;
			}
		}
	}
	if (!ng || !ns)
		return ab_fail(err, AB_EDATA, "nothing to plot: no benchmark has runs of both the "
					      "baseline '%s' and another system", o->baseline);
	cells = kalloc(f, ng * ns, sizeof(*cells));
	pick = kalloc(f, f->cs.n, sizeof(*pick));
	for (g = 0; g < ng; g++) {
		size_t np = pick_best(&f->cs, o, groups[g], pick);
		const struct db_config *base = NULL;
		for (k = 0; k < np; k++)
			if (!strcmp(pick[k]->system, o->baseline))
				base = pick[k];
		for (i = 0; i < ns; i++) {
			struct plot_cell *cell = &cells[g * ns + i];
			cell->value = cell->lo = cell->hi = NAN;
			cell->n = -1;
			for (k = 0; base && k < np; k++) {
				struct compare_result r;
				if (strcmp(pick[k]->system, sys[i].name))
					continue;
				rc = compare_pair(pick[k]->values, pick[k]->n, base->values, base->n,
						  base->lower_is_better ? STATS_LOWER_IS_BETTER
									: STATS_HIGHER_IS_BETTER,
						  NULL, &r, err);
				if (rc < 0)
					return rc;
				cell->value = r.speedup;
				cell->lo = r.speedup_ci_low;
				cell->hi = r.speedup_ci_high;
				cell->n = (int)r.n;
			}
		}
	}
	sp->groups = groups;
	sp->n_groups = ng;
	sp->systems = sys;
	sp->n_systems = ns;
	sp->cells = cells;
	sp->reference = 1.0;
	sp->reference_label = kstr(f, "%s = 1", o->baseline);
	sp->palette = palette(f, o, &f->cs);
	sp->labels.title = o->title ? o->title : kstr(f, "Speedup over %s by benchmark", o->baseline);
	sp->labels.subtitle = kstr(f, "%s · best configuration per system · ratio of medians with "
				      "95 %% bootstrap CI (> 1 is better)",
				   o->suite ? o->suite : "all suites");
	sp->labels.caption = kstr(f, "Bars: ratio of medians to %s, oriented so that > 1 is better. "
				     "Whiskers: 95 %% bootstrap CI of the ratio (%d resamples, seed "
				     "%lu). Missing bars: not measured.", o->baseline,
				  COMPARE_DEFAULT_RESAMPLES, COMPARE_DEFAULT_SEED);
	sp->labels.x_title = "Benchmark";
	sp->labels.y_title = kstr(f, "Speedup over %s", o->baseline);
	sp->labels.y_unit = "×";
	f->chart.kind = PLOT_BARGROUP;
	f->chart.u.bargroup = sp;
	return 0;
}

static int build_bargroup(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
			  struct strbuf *err)
{
	struct plot_bargroup_spec *sp = kalloc(f, 1, sizeof(*sp));
	long *batches;
	struct plot_sys *sys;
	struct plot_cell *cells;
	const char **groups;
	size_t i, k, nb = 0, ns = 0;
	int rc = load(f, db, o, o->metric, &f->cs, err);

	if (rc < 0)
		return rc;
	batches = kalloc(f, f->cs.n, sizeof(*batches));
	sys = kalloc(f, f->cs.n, sizeof(*sys));
	for (i = 0; i < f->cs.n; i++) {
		const struct db_config *c = &f->cs.v[i];
		if (!wanted(o, c) || c->global_batch <= 0)
			continue;
		for (k = 0; k < nb && batches[k] != c->global_batch; k++)
			;
		if (k == nb)
			batches[nb++] = c->global_batch;
		for (k = 0; k < ns && strcmp(sys[k].name, c->system); k++)
			;
		if (k == ns) {
			sys[ns].name = c->system;
			sys[ns++].vendor = c->vendor;
		}
	}
	if (!nb)
		return ab_fail(err, AB_EDATA, "nothing to plot: no run of '%s' with a known global "
					      "batch matches the selection", o->benchmark);
	qsort(batches, nb, sizeof(*batches), cmp_long);
	groups = kalloc(f, nb, sizeof(*groups));
	cells = kalloc(f, nb * ns, sizeof(*cells));
	for (i = 0; i < nb; i++) {
		groups[i] = kstr(f, "%ld", batches[i]);
		for (k = 0; k < ns; k++) {
			struct plot_cell *cell = &cells[i * ns + k];
			size_t j;
			cell->value = cell->lo = cell->hi = NAN;
			for (j = 0; j < f->cs.n; j++) {
				const struct db_config *c = &f->cs.v[j];
				double m, lo, hi;
				if (!wanted(o, c) || c->global_batch != batches[i] ||
				    strcmp(c->system, sys[k].name) || !c->n)
					continue;
				summary_ci(c, &m, &lo, &hi);
				if (isnan(cell->value) || better(c, m, cell->value)) {
					cell->value = m;
					cell->lo = lo;
					cell->hi = hi;
					cell->n = (int)c->n;
				}
			}
		}
	}
	{
		/* a batch size where every run failed is not "not measured": say so */
		struct strbuf note = STRBUF_INIT;
		size_t j, nfail = 0;
		strbuf_addstr(&note, "Bars: median. Whiskers: 95 % confidence interval of the median.");
		for (j = 0; j < f->cs.n; j++) {
			const struct db_config *c = &f->cs.v[j];
			if (!wanted(o, c) || c->n || !c->n_failed || c->global_batch <= 0)
				continue;
			strbuf_addf(&note, "%s %s at %ld", nfail ? "," : " All runs failed:", c->system,
				    c->global_batch);
			nfail++;
		}
		strbuf_addstr(&note, nfail ? ". Other missing bars: not measured."
					   : " Missing bars: not measured.");
		sp->labels.caption = keep(f, strbuf_detach(&note, NULL));
	}
	sp->groups = groups;
	sp->n_groups = nb;
	sp->systems = sys;
	sp->n_systems = ns;
	sp->cells = cells;
	sp->reference = NAN;
	sp->palette = palette(f, o, &f->cs);
	sp->labels.title = o->title ? o->title : kstr(f, "%s: %s by global batch",
						       f->cs.v[0].benchmark, f->cs.v[0].metric);
	sp->labels.subtitle = kstr(f, "%s · median and 95 %% CI per system and batch size",
				   f->cs.v[0].suite);
	sp->labels.x_title = "Global batch size";
	sp->labels.y_title = pretty_metric(f, f->cs.v[0].metric);
	sp->labels.y_unit = f->cs.v[0].unit;
	f->chart.kind = PLOT_BARGROUP;
	f->chart.u.bargroup = sp;
	return 0;
}

/* The system's label in a multi-series chart: the name, plus the shape
 * when the system has several series. */
static const char *series_name(struct views_chart *f, const struct series *s, enum series_axis axis)
{
	size_t i, same = 0;
	struct strbuf sb = STRBUF_INIT;

	for (i = 0; i < f->ss.n; i++)
		if (!strcmp(f->ss.v[i].first->system, s->first->system))
			same++;
	if (same < 2)
		return s->first->system;
	strbuf_addf(&sb, "%s (", s->first->system);
	series_shape_label(s, axis, &sb);
	strbuf_addch(&sb, ')');
	return keep(f, strbuf_detach(&sb, NULL));
}

static int series_wanted(const struct views_chart_opts *o, const struct series *s)
{
	struct views_chart_opts any = *o;

	any.batch = any.devices = 0; /* the shape varies along the axis */
	return wanted(&any, s->first);
}

static int build_scaling(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
			 struct strbuf *err)
{
	struct plot_batch_spec *sp = kalloc(f, 1, sizeof(*sp));
	struct plot_batch_series *ser;
	size_t i, k, n = 0, runs = 0;
	int rc = load(f, db, o, o->metric, &f->cs, err);

	if (rc < 0)
		return rc;
	series_build(&f->cs, SERIES_BATCH, &f->ss);
	ser = kalloc(f, f->ss.n, sizeof(*ser));
	for (i = 0; i < f->ss.n; i++) {
		const struct series *s = &f->ss.v[i];
		struct plot_batch_series *ps = &ser[n];
		struct plot_point *pts = kalloc(f, s->n, sizeof(*pts));
		double *failed = kalloc(f, s->n, sizeof(double));
		struct scaling_sat fit;
		size_t np = 0, nf = 0;

		if (!series_wanted(o, s) || (o->devices > 0 && s->devices != o->devices))
			continue;
		if (s->n < 2)
			continue; /* one batch size is no sweep: nothing to fit or to draw */
		for (k = 0; k < s->n; k++) {
			const struct series_point *p = &s->pts[k];
			if (p->censored) {
				failed[nf++] = p->x;
				continue;
			}
			pts[np].x = p->x;
			summary_ci(p->config, &pts[np].y, &pts[np].lo, &pts[np].hi);
			np++;
			runs += p->config->n;
		}
		/* the same fit as `accelbench scaling`: one place assembles it */
		rc = views_scaling_sat_fit(s, &fit, err);
		if (rc < 0)
			return rc;
		ps->system = series_name(f, s, SERIES_BATCH);
		ps->vendor = s->first->vendor;
		ps->points = pts;
		ps->n_points = np;
		ps->failed = failed;
		ps->n_failed = nf;
		ps->xmax = fit.status == SCALING_OK ? fit.xmax : NAN;
		ps->bhalf = fit.status == SCALING_OK ? fit.bhalf : NAN;
		ps->knee = fit.status == SCALING_OK && fit.has_knee ? fit.knee_b : NAN;
		n++;
	}
	if (!n)
		return ab_fail(err, AB_EDATA, "nothing to plot: no system ran '%s' at two or more "
					      "global batch sizes (a batch sweep) in the selection",
			       o->benchmark);
	sp->series = ser;
	sp->n_series = n;
	sp->palette = palette(f, o, &f->cs);
	sp->labels.title = o->title ? o->title : kstr(f, "%s: %s vs global batch size",
						       f->cs.v[0].benchmark, f->cs.v[0].metric);
	sp->labels.subtitle = kstr(f, "%s · %zu runs · points: median with 95 %% CI · curves: "
				      "fit X(b) = Xmax·b/(b + b½)", f->cs.v[0].suite, runs);
	sp->labels.x_title = "Global batch size";
	sp->labels.y_title = pretty_metric(f, f->cs.v[0].metric);
	sp->labels.y_unit = f->cs.v[0].unit;
	f->chart.kind = PLOT_BATCH;
	f->chart.u.batch = sp;
	return 0;
}

/* The official score of an MLPerf training system (the first run set of
 * it in f->json), NAN when it has none. */
static double official_score(const struct views_chart *f, const char *system)
{
	size_t i;
	json_t *g;

	json_array_foreach(f->json, i, g) {
		const char *sys = json_string_value(json_object_get(g, "system"));
		json_t *score = json_object_get(g, "official_score");
		if (sys && !strcmp(sys, system))
			return json_is_number(score) ? json_number_value(score) : NAN;
	}
	return NAN;
}

/* How many series of the chart show system (weak and strong together). */
static size_t series_of_system(const struct series_set *a, const struct series_set *b,
			       const char *system)
{
	size_t i, n = 0;

	for (i = 0; i < a->n; i++)
		n += a->v[i].n > 1 && !strcmp(a->v[i].first->system, system);
	for (i = 0; b && i < b->n; i++)
		n += b->v[i].n > 1 && !strcmp(b->v[i].first->system, system);
	return n;
}

/* The legend name of one devices series. */
static const char *devices_series_name(struct views_chart *f, const struct series *s,
				       size_t nsys, int both)
{
	const struct db_config *c = s->first;
	size_t k, nnames = 0;

	if (s->mode == SERIES_FAMILY) {
		for (k = 0; k < s->n; k++)
			nnames += !k || strcmp(s->pts[k].config->system, s->pts[k - 1].config->system);
		if (nnames < 2)
			return c->system;
		return kstr(f, "%s (%zu systems, %s%s%s)", s->family, nnames,
			    c->accelerator ? c->accelerator : "accelerator unknown",
			    c->nodes > 0 && c->devices > 0 ? kstr(f, " × %ld per node",
								   c->devices / c->nodes)
							   : "",
			    c->precision ? kstr(f, ", %s", c->precision) : "");
	}
	if (s->mode == SERIES_STRONG)
		return kstr(f, "%s (strong: global batch %ld%s%s)", c->system, s->global_batch,
			    c->precision ? ", " : "", c->precision ? c->precision : "");
	if (nsys < 2 && !both)
		return c->system;
	if (s->per_device_batch > 0)
		return kstr(f, "%s (weak: %ld per device%s%s)", c->system, s->per_device_batch,
			    c->precision ? ", " : "", c->precision ? c->precision : "");
	return kstr(f, "%s (weak%s%s)", c->system, c->precision ? ", " : "",
		    c->precision ? c->precision : "");
}

/* Whether token t (length n) is one of the '_'/'-' separated tokens of s. */
static int has_token(const char *s, const char *t, size_t n)
{
	const char *p = s, *q;

	for (;;) {
		q = p + strcspn(p, "_-");
		if ((size_t)(q - p) == n && !memcmp(p, t, n))
			return 1;
		if (!*q)
			return 0;
		p = q + 1;
	}
}

/* What sets a family's system apart from the others of its series: its
 * name after the family, without the tokens every one of them shares
 * ("eos_n64_ngc24.04_nemo" among eos_n1_ngc24.04_pytorch ... -> "n64 nemo"). */
static const char *family_point_label(struct views_chart *f, const struct series *s, size_t k)
{
	const char *sys = s->pts[k].config->system, *rest, *p, *q;
	size_t flen = strlen(s->family), j;
	struct strbuf sb = STRBUF_INIT;
	int first = 1;

	if (strncmp(sys, s->family, flen) || !sys[flen])
		return keep(f, ab_strdup(strrchr(sys, '/') ? strrchr(sys, '/') + 1 : sys));
	rest = sys + flen + 1;
	for (p = rest;; p = q + 1) {
		int common = !first;
		q = p + strcspn(p, "_-");
		for (j = 0; common && j < s->n; j++) {
			const char *o = s->pts[j].config->system;
			common = strlen(o) > flen && !strncmp(o, s->family, flen) &&
				 has_token(o + flen + 1, p, (size_t)(q - p));
		}
		if (!common && q > p) {
			if (sb.len)
				strbuf_addch(&sb, ' ');
			strbuf_add(&sb, p, (size_t)(q - p));
		}
		first = 0;
		if (!*q)
			break;
	}
	return keep(f, strbuf_detach(&sb, NULL));
}

/* One series of a devices chart into ser (0: added, 1: too few points). */
static int devices_series(struct views_chart *f, const struct views_chart_opts *o,
			  const struct series *s, const char *name, int official,
			  struct plot_devices_series *ser, size_t *nlab, size_t *nmedian,
			  struct strbuf *err)
{
	struct scaling_dev_point *dp;
	struct scaling_dev fit;
	struct plot_point *pts;
	const char **labels;
	double *cnt, *val;
	unsigned char *cens;
	size_t k, np = 0, nm = 0;
	int rc;

	cnt = kalloc(f, s->n, sizeof(double));
	val = kalloc(f, s->n, sizeof(double));
	cens = kalloc(f, s->n, 1);
	dp = kalloc(f, s->n, sizeof(*dp));
	pts = kalloc(f, s->n, sizeof(*pts));
	labels = kalloc(f, s->n, sizeof(*labels));
	for (k = 0; k < s->n; k++) {
		double v = official && !s->pts[k].censored
				   ? official_score(f, s->pts[k].config->system)
				   : NAN;
		cnt[k] = s->pts[k].x;
		val[k] = isfinite(v) ? v : s->pts[k].median;
		nm += official && !s->pts[k].censored && !isfinite(v);
		cens[k] = (unsigned char)s->pts[k].censored;
	}
	rc = scaling_devices(cnt, val, cens, s->n,
			     s->first->lower_is_better ? STATS_LOWER_IS_BETTER : STATS_HIGHER_IS_BETTER,
			     &fit, dp, err);
	if (rc < 0)
		return rc;
	for (k = 0; k < s->n; k++) {
		const struct db_config *c = s->pts[k].config;
		if (dp[k].censored || !isfinite(dp[k].speedup))
			continue;
		pts[np].x = dp[k].count;
		pts[np].y = dp[k].speedup;
		pts[np].lo = pts[np].hi = NAN;
		/* which configuration each point stands for: the shape that
		 * varies along the series (the system, in a family) */
		labels[np] = s->mode == SERIES_FAMILY
				     ? kstr(f, "%s%s", family_point_label(f, s, k),
					    official && !isfinite(official_score(f, c->system)) ? " *" : "")
			     : s->mode == SERIES_STRONG
				     ? kstr(f, "%ld per device", c->devices > 0 ? c->global_batch / c->devices : 0)
				     : c->global_batch > 0 ? kstr(f, "b%ld", c->global_batch) : NULL;
		np++;
	}
	(void)o;
	if (np < 2)
		return 1;
	ser->system = name;
	ser->vendor = s->first->vendor;
	ser->points = pts;
	ser->labels = labels;
	ser->n_points = np;
	*nlab += np;
	*nmedian += nm;
	return 0;
}

static int build_devices(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
			 struct strbuf *err)
{
	enum series_axis axis = o->by_nodes ? SERIES_NODES : SERIES_DEVICES;
	struct plot_devices_spec *sp = kalloc(f, 1, sizeof(*sp));
	struct plot_devices_series *ser;
	const struct series_set *sets[2];
	struct strbuf cap = STRBUF_INIT;
	const char *unit = o->by_nodes ? "node" : "device", *metric;
	size_t i, j, n = 0, nlab = 0, nmedian = 0, nweak = 0, nstrong = 0;
	int rc = load(f, db, o, o->metric, &f->cs, err), mlperf, official = 0;

	if (rc < 0)
		return rc;
	metric = f->cs.v[0].metric;
	/* MLPerf submits each scale as a system of its own: series are
	 * families of systems; elsewhere one system at several counts, with
	 * the same per-device batch (weak) or the same global batch (strong) */
	mlperf = !strncmp(f->cs.v[0].suite, "mlperf", 6);
	if (mlperf) {
		struct db_filter flt = { "mlperf-training", o->benchmark, NULL };
		series_build_mode(&f->cs, axis, SERIES_FAMILY, &f->ss);
		if (!o->metric && !strcmp(f->cs.v[0].suite, "mlperf-training")) {
			rc = mlperf_score(db, &flt, &f->json, err);
			if (rc < 0)
				return rc;
			official = 1;
		}
	} else {
		series_build_mode(&f->cs, axis, SERIES_WEAK, &f->ss);
		series_build_mode(&f->cs, axis, SERIES_STRONG, &f->ss2);
	}
	sets[0] = &f->ss;
	sets[1] = mlperf ? NULL : &f->ss2;
	ser = kalloc(f, f->ss.n + f->ss2.n, sizeof(*ser));
	for (j = 0; j < 2; j++) {
		for (i = 0; sets[j] && i < sets[j]->n; i++) {
			const struct series *s = &sets[j]->v[i];
			struct series_set none = { NULL, 0 };
			size_t nsys;
			if (!series_wanted(o, s) || s->n < 2)
				continue;
			/* a strong series of one global batch that is also a weak
			 * series (one device count each) cannot happen: both need
			 * two counts; keep both kinds */
			nsys = series_of_system(&f->ss, mlperf ? &none : &f->ss2, s->first->system);
			rc = devices_series(f, o, s, devices_series_name(f, s, nsys, 0), official,
					    &ser[n], &nlab, &nmedian, err);
			if (rc < 0)
				return rc;
			if (rc == 0) {
				nweak += s->mode == SERIES_WEAK;
				nstrong += s->mode == SERIES_STRONG;
				n++;
			}
		}
	}
	if (!n)
		return ab_fail(err, AB_EDATA, "nothing to plot: '%s' has no system measured at two or "
					      "more %s counts%s", o->benchmark, unit,
			       mlperf ? " (nor a family of systems, e.g. NAME_n8 and NAME_n64, at "
					"two or more sizes)"
				      : " with the same global batch (strong scaling) or the same "
					"batch per device (weak scaling)");
	sp->series = ser;
	sp->n_series = n;
	if (o->palette) {
		sp->palette = o->palette;
	} else {
		/* every series its own style, the systems' first */
		f->own_palette = plot_palette_new();
		for (i = 0; i < f->cs.n; i++)
			plot_palette_add(f->own_palette, f->cs.v[i].system, f->cs.v[i].vendor);
		for (i = 0; i < n; i++)
			plot_palette_add(f->own_palette, ser[i].system, ser[i].vendor);
		sp->palette = f->own_palette;
	}
	sp->labels.title = o->title ? o->title
				    : kstr(f, "%s: %s with %s (higher speedup is better)",
					   f->cs.v[0].benchmark,
					   mlperf ? "scaling of time to train" : "scaling",
					   o->by_nodes ? "nodes" : "devices");
	if (mlperf) {
		sp->labels.subtitle =
			kstr(f, "%s · %s · speedup over the smallest size of each family · "
				"not normalised (whole system)", f->cs.v[0].suite,
			     official ? "official scores" : kstr(f, "median %s", metric));
		strbuf_addf(&cap, "Series: one system family (submitter, name up to its scale, "
				  "accelerator, %ss per node) submitted at several sizes, each "
				  "with its own batch; points name the system. Speedup = %s at the "
				  "smallest size / %s. Ideal: linear scaling. Efficiency = speedup "
				  "/ ideal speedup.", "device", official ? "official score" : metric,
			    official ? "official score" : metric);
		if (nmedian)
			strbuf_addf(&cap, " *: no official score (not a complete valid run set): "
					  "the median of its valid runs (%zu point%s).", nmedian,
				    nmedian == 1 ? "" : "s");
	} else {
		sp->labels.subtitle =
			kstr(f, "%s · speedup of the median %s over the smallest %s count · %s",
			     f->cs.v[0].suite, metric, unit,
			     nstrong && nweak ? "strong (same global batch) and weak (same batch "
						"per device) scaling"
			     : nstrong ? "strong scaling (same global batch)"
				       : "weak scaling (same batch per device)");
		strbuf_addf(&cap, "Points: speedup of the median %s over the smallest %s count of "
				  "each series; labels: %s. Strong scaling: the same global batch "
				  "on more %ss; weak: the same batch per %s. Ideal: linear scaling. "
				  "Efficiency = speedup / ideal speedup.", metric, unit,
			    nstrong && nweak ? "the batch per device (strong) or the global batch (weak)"
			    : nstrong	     ? "the batch per device"
					     : "the global batch", unit, unit);
	}
	sp->labels.caption = keep(f, strbuf_detach(&cap, NULL));
	sp->labels.x_title = o->by_nodes ? "Nodes" : "Devices";
	sp->labels.y_title = "Speedup";
	sp->labels.y_unit = "×";
	(void)nlab;
	f->chart.kind = PLOT_DEVICES;
	f->chart.u.devices = sp;
	return 0;
}

static int build_pareto(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
			struct strbuf *err)
{
	struct plot_pareto_spec *sp = kalloc(f, 1, sizeof(*sp));
	struct db_config_query q = { o->suite, o->benchmark, NULL, o->metric };
	struct plot_pareto_point *pts;
	const struct views_pareto *pv = &f->pareto;
	const struct db_config *c0;
	size_t i;
	int rc = load(f, db, o, o->metric, &f->cs, err);

	if (rc < 0)
		return rc;
	/* the front is the pareto view's (best configuration per system) */
	rc = views_pareto_build(db, &q, "energy_efficiency", keep_wanted, (void *)o, 1, &f->pareto,
				err);
	if (rc < 0)
		return rc == -AB_EDATA ? ab_fail(err, AB_EDATA, "nothing to plot: no configuration "
								 "of '%s' has both %s and energy_efficiency",
						 o->benchmark, f->cs.v[0].metric)
				       : rc;
	c0 = pv->rows[0].x;
	pts = kalloc(f, pv->n, sizeof(*pts));
	for (i = 0; i < pv->n; i++) {
		const struct views_pareto_row *r = &pv->rows[i];
		pts[i].system = r->x->system;
		pts[i].vendor = r->x->vendor;
		pts[i].x = r->yv;
		pts[i].y = r->xv;
		pts[i].front = r->state == PARETO_FRONT ? PLOT_FRONT_ON : PLOT_FRONT_OFF;
		if (r->x->global_batch > 0 && !(o->batch > 0))
			pts[i].label = kstr(f, "%s (b=%ld)", r->x->system, r->x->global_batch);
	}
	sp->points = pts;
	sp->n_points = pv->n;
	sp->x_lower_better = pv->y_lower_better;
	sp->y_lower_better = pv->x_lower_better;
	sp->palette = palette(f, o, &f->cs);
	sp->labels.title = o->title ? o->title : kstr(f, "%s: %s vs energy efficiency",
						       c0->benchmark, c0->metric);
	sp->labels.subtitle = kstr(f, "%s · %s · medians", c0->suite, shape_note(f, o));
	sp->labels.x_title = "Energy efficiency";
	sp->labels.x_unit = pv->y_unit;
	sp->labels.y_title = pretty_metric(f, c0->metric);
	sp->labels.y_unit = c0->unit;
	f->chart.kind = PLOT_PARETO;
	f->chart.u.pareto = sp;
	return 0;
}

static int build_heatmap(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
			 struct strbuf *err)
{
	struct plot_heatmap_spec *sp = kalloc(f, 1, sizeof(*sp));
	const char **rows, **cols;
	const struct db_config **pick;
	double *ratios;
	size_t i, r, c, nr = 0, nc = 0;
	struct db_config_query q = { o->suite, o->benchmark, NULL, o->metric };
	int rc;

	if (!o->baseline)
		return ab_fail(err, AB_EUSAGE, "a heatmap needs a baseline system");
	rc = db_load_configs(db, &q, &f->cs, err);
	if (rc < 0)
		return rc;
	rows = kalloc(f, f->cs.n, sizeof(*rows));
	cols = kalloc(f, f->cs.n, sizeof(*cols));
	for (i = 0; i < f->cs.n; i++) {
		const struct db_config *x = &f->cs.v[i];
		if (!x->n || !wanted(o, x))
			continue;
		for (r = 0; r < nr && strcmp(rows[r], x->system); r++)
			;
		if (r == nr)
			rows[nr++] = x->system;
		if (strcmp(x->system, o->baseline))
			continue; /* columns: the benchmarks the baseline ran */
		for (c = 0; c < nc && strcmp(cols[c], x->benchmark); c++)
			;
		if (c == nc)
			cols[nc++] = x->benchmark;
	}
	if (!nc)
		return ab_fail(err, AB_EDATA, "nothing to plot: baseline '%s' has no successful runs%s%s",
			       o->baseline, o->suite ? " in suite " : "", o->suite ? o->suite : "");
	ratios = kalloc(f, nr * nc, sizeof(double));
	pick = kalloc(f, f->cs.n, sizeof(*pick));
	for (c = 0; c < nc; c++) {
		size_t np = pick_best(&f->cs, o, cols[c], pick), k;
		const struct db_config *base = NULL;
		for (k = 0; k < np; k++)
			if (!strcmp(pick[k]->system, o->baseline))
				base = pick[k];
		for (r = 0; r < nr; r++) {
			ratios[r * nc + c] = NAN;
			for (k = 0; base && k < np; k++) {
				double m, mb;
				if (strcmp(pick[k]->system, rows[r]))
					continue;
				m = stats_median(pick[k]->values, pick[k]->n);
				mb = stats_median(base->values, base->n);
				/* > 1 is better in every cell, whatever the metric's direction */
				ratios[r * nc + c] = base->lower_is_better ? mb / m : m / mb;
			}
		}
	}
	/* drop systems with nothing measured on the baseline's benchmarks */
	for (r = 0, i = 0; r < nr; r++) {
		for (c = 0; c < nc && isnan(ratios[r * nc + c]); c++)
			;
		if (c == nc)
			continue;
		rows[i] = rows[r];
		memmove(ratios + i * nc, ratios + r * nc, nc * sizeof(*ratios));
		i++;
	}
	nr = i;
	sp->rows = rows;
	sp->n_rows = nr;
	sp->cols = cols;
	sp->n_cols = nc;
	sp->ratios = ratios;
	sp->baseline = o->baseline;
	/* a composite is only fair over the same workloads for every system
	 * (as compare's): with holes in the matrix, leave the column out */
	for (i = 0; i < nr * nc && !isnan(ratios[i]); i++)
		;
	if (i == nr * nc) {
		/* the geometric mean of each row, decided here, not by the painter */
		double *gm = kalloc(f, nr, sizeof(double));
		for (r = 0; r < nr; r++) {
			double sum = 0;
			for (c = 0; c < nc; c++)
				sum += log(ratios[r * nc + c]);
			gm[r] = exp(sum / (double)nc);
		}
		sp->geomeans = gm;
	} else {
		sp->no_geomean = 1;
		sp->labels.caption = "Cells: ratio of medians to the baseline; hatched: not measured. "
				     "No geometric-mean column: not every system ran every benchmark "
				     "('accelbench compare --baseline' gives the composite over the "
				     "common ones).";
	}
	sp->labels.title = o->title ? o->title : kstr(f, "Performance relative to %s", o->baseline);
	sp->labels.subtitle = kstr(f, "%s%s · ratio of medians, best configuration per system "
				      "(higher is better)", o->suite ? o->suite : "all suites",
				   o->metric ? "" : " · headline metric of each benchmark");
	sp->labels.x_title = "Benchmark";
	sp->labels.y_title = "System";
	f->chart.kind = PLOT_HEATMAP;
	f->chart.u.heatmap = sp;
	return 0;
}

static int build_power(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
		       struct strbuf *err)
{
	struct plot_power_spec *sp = kalloc(f, 1, sizeof(*sp));
	struct plot_power_series *ser;
	struct db_filter flt = { o->suite, o->benchmark, o->nsystems ? o->systems[0] : NULL };
	int64_t id = o->run_id;
	size_t i, samples = 0;
	int rc;

	if (!id) {
		rc = db_power_find_run(db, &flt, &id, err);
		if (rc < 0)
			return rc;
		if (!id)
			return ab_fail(err, AB_EDATA, "nothing to plot: no run%s%s%s%s has power samples",
				       o->benchmark ? " of " : "", o->benchmark ? o->benchmark : "",
				       flt.system ? " on " : "", flt.system ? flt.system : "");
	}
	rc = db_power_load(db, id, &f->power, err);
	if (rc < 0)
		return rc;
	if (!f->power.ndev)
		return ab_fail(err, AB_EDATA, "nothing to plot: run %lld has no power samples",
			       (long long)id);
	ser = kalloc(f, f->power.ndev, sizeof(*ser));
	for (i = 0; i < f->power.ndev; i++) {
		ser[i].device = f->power.dev[i].device;
		ser[i].t = f->power.dev[i].t;
		ser[i].watts = f->power.dev[i].watts;
		ser[i].n = f->power.dev[i].n;
		samples += ser[i].n;
	}
	sp->series = ser;
	sp->n_series = f->power.ndev;
	sp->run_start = f->power.started;
	sp->run_stop = f->power.finished;
	sp->t0 = NAN;
	sp->labels.title = o->title ? o->title : kstr(f, "Power of run %lld: %s on %s", (long long)id,
						       f->power.benchmark, f->power.system);
	sp->labels.subtitle = kstr(f, "%zu samples from %zu devices, as recorded by the sampler",
				   samples, f->power.ndev);
	f->chart.kind = PLOT_POWER;
	f->chart.u.power = sp;
	return 0;
}

int views_chart_build(struct db *db, enum views_chart_kind kind, const struct views_chart_opts *o,
		 struct views_chart **out, struct strbuf *err)
{
	struct views_chart *f = ab_calloc(1, sizeof(*f));
	unsigned needs;
	size_t i;
	int rc;

	*out = NULL;
	for (i = 0; i < AB_ARRAY_SIZE(kinds) && kinds[i].kind != kind; i++)
		;
	needs = i < AB_ARRAY_SIZE(kinds) ? kinds[i].needs : 0;
	if (((needs & VIEWS_NEEDS_BENCHMARK) && !o->benchmark) ||
	    ((needs & VIEWS_NEEDS_BASELINE) && !o->baseline) ||
	    ((needs & VIEWS_NEEDS_EITHER) && !o->benchmark && !o->baseline)) {
		free(f);
		return ab_fail(err, AB_EUSAGE, "a %s chart needs %s", views_chart_kind_name(kind),
			       needs & VIEWS_NEEDS_BENCHMARK ? "a benchmark"
			       : needs & VIEWS_NEEDS_BASELINE ? "a baseline system"
							      : "a benchmark or a baseline system");
	}
	switch (kind) {
	case VIEWS_CHART_BAR: rc = build_bar(f, db, o, err); break;
	case VIEWS_CHART_BARGROUP:
		rc = o->benchmark ? build_bargroup(f, db, o, err) : build_bargroup_bench(f, db, o, err);
		break;
	case VIEWS_CHART_SCALING: rc = build_scaling(f, db, o, err); break;
	case VIEWS_CHART_DEVICES: rc = build_devices(f, db, o, err); break;
	case VIEWS_CHART_PARETO: rc = build_pareto(f, db, o, err); break;
	case VIEWS_CHART_HEATMAP: rc = build_heatmap(f, db, o, err); break;
	case VIEWS_CHART_POWER: rc = build_power(f, db, o, err); break;
	default: rc = ab_fail(err, AB_EINTERNAL, "unknown chart kind %d", (int)kind); break;
	}
	if (rc < 0) {
		views_chart_free(f);
		return rc;
	}
	*out = f;
	return 0;
}
