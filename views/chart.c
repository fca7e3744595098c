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
	struct views_compare cmp;     /* heatmap, bargroup across benchmarks */
	json_t *json;                 /* MLPerf scores (model/mlperf_score.c) */
	struct plot_palette *own_palette;
	void **allocs;
	size_t nallocs;
	int ci_min_n;                 /* fewest runs with a CI at the chart's level */
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
	views_compare_release(&f->cmp);
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

/* Whether a bar chart of c's metric is normalised: asked for, and the
 * metric not already per unit (as the statistics leave it, dataset.c). */
static int per_applies(const struct views_chart_opts *o, const struct db_config *c)
{
	return (o->per_device || o->per_node) && !db_config_per_unit(c);
}

/* What a per-accelerator (per-node) bar chart divides or multiplies by:
 * the count, 0 when unknown; 1 when the chart is not normalised. */
static long per_count(const struct views_chart_opts *o, long nodes, long devices)
{
	if (o->per_device)
		return devices > 0 ? devices : 0;
	if (o->per_node)
		return nodes > 0 ? nodes : 0;
	return 1;
}

static const char *per_unit(const struct views_chart_opts *o)
{
	return o->per_device ? "accelerator" : "node";
}

/* A bar chart's configurations: wanted, and with the count it normalises by. */
static int keep_bar(const struct db_config *c, void *ctx)
{
	const struct views_chart_opts *o = ctx;

	return wanted(o, c) && (!per_applies(o, c) || per_count(o, c->nodes, c->devices) > 0);
}

/* Per system (in cs order) the wanted configuration with the best median;
 * normalised per accelerator (node): only configurations with that count,
 * best by the normalised median as `compare --best --per` picks them (a
 * system's 4-device runs can have the most images/s, the fewest per
 * device). */
static size_t pick_best(const struct db_configs *cs, const struct views_chart_opts *o,
			const char *benchmark, const struct db_config **out)
{
	enum db_per per = !cs->n || !per_applies(o, &cs->v[0]) ? DB_PER_SYSTEM
			  : o->per_device			  ? DB_PER_DEVICE
								  : DB_PER_NODE;

	return db_configs_best_per(cs, benchmark, per, keep_bar, (void *)o, out);
}

/* The systems a normalised bar chart leaves out: of cand[0..ncand) (names,
 * repeats allowed: systems with a result but no count), those without a bar.
 * Returns how many; *names lists them ("A, B"; "" if none). */
static size_t left_out(struct views_chart *f, const char *const *cand, size_t ncand,
		       const struct plot_bar *bars, size_t nbars, const char **names)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, j, n = 0;

	for (i = 0; i < ncand; i++) {
		for (j = 0; j < nbars && strcmp(bars[j].system, cand[i]); j++)
			;
		if (j < nbars)
			continue; /* charted from another configuration */
		for (j = 0; j < i && strcmp(cand[j], cand[i]); j++)
			;
		if (j < i)
			continue; /* named already */
		strbuf_addf(&sb, "%s%s", n ? ", " : "", cand[i]);
		n++;
	}
	*names = keep(f, strbuf_detach(&sb, NULL));
	return n;
}

/* The candidates of left_out() among the configurations of a bar chart. */
static size_t left_out_configs(struct views_chart *f, const struct views_chart_opts *o,
			       const struct db_configs *cs, const struct plot_bar *bars,
			       size_t nbars, const char **names)
{
	const char **cand = kalloc(f, cs->n + 1, sizeof(*cand));
	size_t i, k = 0;

	for (i = 0; i < cs->n; i++)
		if (cs->v[i].n && wanted(o, &cs->v[i]) && !keep_bar(&cs->v[i], (void *)o))
			cand[k++] = cs->v[i].system;
	return left_out(f, cand, k, bars, nbars, names);
}

/* "nothing to plot per node: the node count of A, B is not known" */
static int refuse_uncounted(const struct views_chart_opts *o, const char *names,
			    struct strbuf *err)
{
	return ab_fail(err, AB_EDATA, "nothing to plot per %s: the %s count of %s is not known",
		       per_unit(o), per_unit(o), names);
}

/* The value axis of a normalised bar chart: throughput per accelerator
 * (node); a time or another lower-is-better value is multiplied by the
 * count (accelerator-time), "… × accelerators", never "… per accelerator". */
static const char *per_axis_title(struct views_chart *f, const struct views_chart_opts *o,
				  const char *title, const struct db_config *c0)
{
	if (!per_applies(o, c0))
		return title;
	return c0->lower_is_better ? kstr(f, "%s × %ss", title, per_unit(o))
				   : kstr(f, "%s per %s", title, per_unit(o));
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

/* The confidence level of the whiskers: o->level, or STATS_LEVEL. */
static double ci_level(const struct views_chart_opts *o)
{
	return o->level > 0 && o->level < 1 ? o->level : STATS_LEVEL;
}

/* "95 % CI" (one decimal when the level needs it), what a subtitle says */
static const char *ci_what(struct views_chart *f, const struct views_chart_opts *o,
			   const char *what)
{
	double pct = 100.0 * ci_level(o);

	if (fabs(pct - floor(pct + 0.5)) < 1e-9)
		return kstr(f, "%.0f %% %s", pct, what);
	return kstr(f, "%.1f %% %s", pct, what);
}

/* Median and the distribution-free CI of the median at the chart's level
 * (the interval the statistics tables print at that level). */
static void summary_ci(const struct views_chart_opts *o, const struct db_config *c, double *med,
		       double *lo, double *hi)
{
	struct stats_summary s;
	double cov;

	if (stats_summarize(c->values, c->n, c->n_failed, &s, NULL, NULL) < 0 || !c->n) {
		*med = *lo = *hi = NAN;
		return;
	}
	*med = s.median;
	*lo = s.has_ci ? s.ci_low : NAN;
	*hi = s.has_ci ? s.ci_high : NAN;
	if (ci_level(o) != STATS_LEVEL &&
	    stats_median_ci_at(c->values, c->n, ci_level(o), lo, hi, &cov) < 0)
		*lo = *hi = NAN;
}

static const char *shape_note(struct views_chart *f, const struct views_chart_opts *o)
{
	if (o->batch > 0 && o->devices > 0)
		return kstr(f, "global batch %ld, %ld device%s", o->batch, o->devices,
			    o->devices == 1 ? "" : "s");
	if (o->batch > 0)
		return kstr(f, "global batch %ld", o->batch);
	if (o->devices > 0)
		return kstr(f, "%ld device%s", o->devices, o->devices == 1 ? "" : "s");
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

/* What a subtitle may say about intervals: only what is drawn. */
static const char *ci_note(struct views_chart *f, size_t with_ci, size_t total, const char *what)
{
	if (!with_ci)
		return kstr(f, "no CI (fewer than %d runs)", f->ci_min_n);
	if (with_ci == total)
		return kstr(f, "%s", what);
	return kstr(f, "%s where n ≥ %d", what, f->ci_min_n);
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
 * long names; returns the note for the subtitle.  The bars have the count
 * they are normalised by; uncounted names the systems left out for the
 * lack of one ("" if none). */
static const char *bars_finish(struct views_chart *f, const struct views_chart_opts *o,
			       struct plot_bar_spec *sp, struct plot_bar *bars, size_t *n,
			       const struct db_config *c0, const char *uncounted,
			       struct strbuf *err)
{
	struct strbuf note = STRBUF_INIT;
	double lo = HUGE_VAL, hi = 0;
	size_t i, total = *n, longest = 0;

	if (per_applies(o, c0)) {
		const char *unit = per_unit(o);

		for (i = 0; i < *n; i++) {
			double d = (double)per_count(o, bars[i].nodes, bars[i].devices);
			if (!(d > 0)) { /* the builders keep only counted bars */
				ab_fail(err, AB_EDATA, "per %s: the %s count of '%s' is not known",
					unit, unit, bars[i].system);
				strbuf_release(&note);
				return NULL;
			}
			/* throughput per accelerator (node); a time becomes
			 * accelerator-time (node-time) */
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
		if (c0->lower_is_better)
			strbuf_addf(&note, "normalised: × %ss (%s-time)", unit, unit);
		else
			strbuf_addf(&note, "normalised: per %s", unit);
		if (uncounted && *uncounted)
			strbuf_addf(&note, " · not shown, %s count not known: %s", unit, uncounted);
	} else if (o->per_device || o->per_node) {
		strbuf_addf(&note, "not normalised per %s: %s is per unit already", per_unit(o),
			    c0->metric);
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
	/* one meaning of "x" on every chart: times better than the baseline */
	if (o->baseline && !sp->horizontal)
		strbuf_addf(&note, " · ratios: × better than %s (%s)", o->baseline,
			    c0->lower_is_better ? "speedup" : "throughput ratio");
	return keep(f, strbuf_detach(&note, NULL));
}

/* mlperf_score() of mlperf-training's benchmark (NULL: all) into *out:
 * the objects of the whole suite's o->mlperf_scores for it when given (the
 * same objects, in the same order: each run set is scored alone). */
static int chart_scores(struct db *db, const struct views_chart_opts *o, const char *benchmark,
			json_t **out, struct strbuf *err)
{
	struct db_filter flt = { "mlperf-training", benchmark, NULL };
	json_t *all = (json_t *)o->mlperf_scores, *g;
	size_t i;

	if (!all)
		return mlperf_score(db, &flt, out, err);
	*out = json_array();
	json_array_foreach(all, i, g) {
		const char *b = json_string_value(json_object_get(g, "benchmark"));

		if (!benchmark || (b && !strcmp(b, benchmark)))
			json_array_append(*out, g);
	}
	return 0;
}

/* MLPerf training: the official score of each system's run set. */
static int bar_mlperf(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
		      struct plot_bar_spec *sp, struct strbuf *err)
{
	struct plot_bar *bars;
	struct strbuf cap = STRBUF_INIT;
	const char *note, *uncounted = "", **cand;
	size_t i, n = 0, nhatched = 0, runs = 0, ncand = 0, nsets = 0, nsys;
	int rc;
	json_t *g;

	rc = chart_scores(db, o, o->benchmark, &f->json, err);
	if (rc < 0)
		return rc;
	bars = kalloc(f, json_array_size(f->json), sizeof(*bars));
	cand = kalloc(f, json_array_size(f->json) + 1, sizeof(*cand));
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
		like.system = (char *)sys;
		if (!wanted(o, &like))
			continue;
		nsets++; /* a run set of the selection, charted or not */
		for (k = 0; k < n && strcmp(bars[k].system, sys); k++)
			;
		if (k < n)
			continue; /* one run set per system: the first (by round) */
		if (per_applies(o, &f->cs.v[0]) && per_count(o, nodes, devices) <= 0) {
			cand[ncand++] = sys; /* normalised: a run set without the count */
			continue;
		}
		bars[n].system = sys;
		bars[n].vendor = json_string_value(json_object_get(g, "vendor"));
		bars[n].value = json_is_number(score) ? json_number_value(score)
						      : json_number_value(med);
		bars[n].lo = bars[n].hi = NAN; /* an official score has no CI */
		bars[n].n = (int)json_integer_value(json_object_get(g, "valid"));
		bars[n].incomplete = !json_is_number(score) || (status && strcmp(status, "ok")) ||
				     (req > 0 && nruns < req);
		bars[n].devices = devices;
		bars[n].nodes = nodes;
		like.nodes = nodes;
		like.devices = devices;
		like.global_batch = 0;
		bars[n].config = config_label(f, &like);
		nhatched += bars[n].incomplete;
		runs += (size_t)nruns;
		n++;
	}
	if (left_out(f, cand, ncand, bars, n, &uncounted) && !n)
		return refuse_uncounted(o, uncounted, err);
	if (!n)
		return ab_fail(err, AB_EDATA, "nothing to plot: no MLPerf training run set of '%s' "
					      "matches the selection", o->benchmark);
	nsys = n; /* before --top keeps the best (the note says "best k of n systems") */
	note = bars_finish(f, o, sp, bars, &n, &f->cs.v[0], uncounted, err);
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
	/* systems are systems: a system with run sets in several rounds is one
	 * bar (its first run set), and the run sets are counted as such */
	if (nsets > nsys)
		sp->labels.subtitle = kstr(f, "mlperf-training · %zu system%s (each one's first of "
					      "%zu run sets by round), %zu result file%s · %s",
					   nsys, nsys == 1 ? "" : "s", nsets, runs,
					   runs == 1 ? "" : "s", note);
	else
		sp->labels.subtitle = kstr(f, "mlperf-training · %zu system%s, %zu result file%s · %s",
					   nsys, nsys == 1 ? "" : "s", runs, runs == 1 ? "" : "s",
					   note);
	strbuf_addstr(&cap, "Bars: official score = olympic mean of the valid runs (a failed run "
			    "counts as the slowest) × the RCP scaling factor, as MLCommons scores "
			    "it; n = valid runs; no CI: a score is one number per run set.");
	if (nhatched)
		strbuf_addf(&cap, " Hatched (%zu): not a complete valid run set (fewer result files "
				  "than required, or too many failed runs); the bar shows the "
				  "median of its valid runs instead, not an official score.",
			    nhatched);
	sp->labels.caption = keep(f, strbuf_detach(&cap, NULL));
	sp->labels.y_title = o->per_device ? "Accelerator-time to train"
			     : o->per_node ? "Node-time to train"
					   : "Time to train";
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
	const char *what = inference_metric(scenario, c0->unit), *note, *uncounted = "";
	const struct db_config **pick = kalloc(f, f->cs.n, sizeof(*pick));
	struct strbuf cap = STRBUF_INIT, model = STRBUF_INIT, inv = STRBUF_INIT;
	struct plot_bar *bars;
	size_t i, n, nmulti = 0, ninvalid = 0;

	n = pick_best(&f->cs, o, NULL, pick);
	strbuf_add(&model, c0->benchmark, slash ? (size_t)(slash - c0->benchmark) : strlen(c0->benchmark));
	/* results LoadGen marked INVALID (or with impossible values) have no
	 * value to draw: named under the chart, never dropped silently */
	for (i = 0; i < f->cs.n; i++) {
		const struct db_config *c = &f->cs.v[i];
		size_t k;
		if (!wanted(o, c) || c->n || !(c->n_invalid || c->n_failed))
			continue;
		for (k = 0; k < f->cs.n && (strcmp(f->cs.v[k].system, c->system) ||
					    !f->cs.v[k].n || !wanted(o, &f->cs.v[k]));
		     k++)
			;
		if (k < f->cs.n)
			continue; /* it has a valid result too (drawn, or left out uncounted) */
		strbuf_addf(&inv, "%s%s", ninvalid ? ", " : "", c->system);
		ninvalid++;
	}
	if (!n && ninvalid == 0 && left_out_configs(f, o, &f->cs, NULL, 0, &uncounted)) {
		strbuf_release(&model);
		strbuf_release(&inv);
		return refuse_uncounted(o, uncounted, err);
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
		bars[i].nodes = pick[i]->nodes;
		bars[i].config = config_label(f, pick[i]);
	}
	if (nmulti)
		strbuf_addf(&cap, " Hatched (%zu): more than one performance run stored; the bar is "
				  "their median, not one official result.", nmulti);
	left_out_configs(f, o, &f->cs, bars, n, &uncounted);
	note = bars_finish(f, o, sp, bars, &n, c0, uncounted, err);
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
	sp->labels.y_title = per_axis_title(f, o,
					    what ? (c0->lower_is_better ? "Latency"
									: pretty_metric(f, c0->metric))
						 : pretty_metric(f, c0->metric),
					    c0);
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
	const char *note, *uncounted = "";
	size_t i, n, runs = 0, nci = 0;
	int rc = load(f, db, o, o->metric, &f->cs, err), differ = 0;

	if (rc < 0)
		return rc;
	if (!o->metric && !strcmp(f->cs.v[0].suite, "mlperf-training") && o->batch <= 0 &&
	    o->devices <= 0)
		return bar_mlperf(f, db, o, sp, err);
	if (!o->metric && !strcmp(f->cs.v[0].suite, "mlperf-inference"))
		return bar_inference(f, o, sp, err);
	pick = kalloc(f, f->cs.n, sizeof(*pick));
	n = pick_best(&f->cs, o, NULL, pick);
	if (!n && left_out_configs(f, o, &f->cs, NULL, 0, &uncounted))
		return refuse_uncounted(o, uncounted, err);
	if (!n)
		return ab_fail(err, AB_EDATA, "nothing to plot: no successful run of '%s' matches "
					      "the selection", o->benchmark);
	bars = kalloc(f, n, sizeof(*bars));
	for (i = 0; i < n; i++) {
		bars[i].system = pick[i]->system;
		bars[i].vendor = pick[i]->vendor;
		summary_ci(o, pick[i], &bars[i].value, &bars[i].lo, &bars[i].hi);
		if ((int)pick[i]->n < f->ci_min_n)
			bars[i].lo = bars[i].hi = NAN; /* no whisker where n is too small */
		bars[i].n = (int)pick[i]->n;
		bars[i].devices = pick[i]->devices;
		bars[i].nodes = pick[i]->nodes;
		bars[i].config = config_label(f, pick[i]);
		differ |= i && !db_config_same_shape(pick[i], pick[0]);
		runs += pick[i]->n;
	}
	left_out_configs(f, o, &f->cs, bars, n, &uncounted);
	note = bars_finish(f, o, sp, bars, &n, pick[0], uncounted, err);
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
	for (i = 0; i < n; i++)
		nci += isfinite(bars[i].lo) && isfinite(bars[i].hi);
	sp->labels.subtitle = kstr(f, "%s · %s%s · median, %s · %zu run%s · %s",
				   pick[0]->suite, shape_note(f, o),
				   differ ? " (configurations differ: labels say which)" : "",
				   ci_note(f, nci, n, ci_what(f, o, "CI")), runs, runs == 1 ? "" : "s",
				   note);
	sp->labels.y_title = per_axis_title(f, o, pretty_metric(f, pick[0]->metric), pick[0]);
	sp->labels.y_unit = pick[0]->unit;
	/* the drawing's default note says 95 %: another level says its own */
	if (ci_level(o) != STATS_LEVEL)
		sp->labels.caption = kstr(f, "Bars: median of n runs. Whiskers: %s of the median "
					     "(none where n is too small).",
					  ci_what(f, o, "confidence interval"));
	f->chart.kind = PLOT_BAR;
	f->chart.u.bar = sp;
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* The official score of an MLPerf training system's run set of benchmark
 * (NULL: any; the first one in f->json), NAN when it has none; *complete
 * (if not NULL) 0 when the run set has fewer result files than required or
 * too many failed runs (the bar chart hatches those). */
static double official_score_c(const struct views_chart *f, const char *system,
			       const char *benchmark, int *complete)
{
	size_t i;
	json_t *g;

	json_array_foreach(f->json, i, g) {
		const char *sys = json_string_value(json_object_get(g, "system"));
		const char *b = json_string_value(json_object_get(g, "benchmark"));
		const char *status = json_string_value(json_object_get(g, "status"));
		json_t *score = json_object_get(g, "official_score");
		long req = (long)json_integer_value(json_object_get(g, "required_runs"));
		long runs = (long)json_integer_value(json_object_get(g, "runs"));
		if (sys && !strcmp(sys, system) && (!benchmark || (b && !strcmp(b, benchmark)))) {
			if (complete)
				*complete = json_is_number(score) && !(status && strcmp(status, "ok")) &&
					    !(req > 0 && runs < req);
			return json_is_number(score) ? json_number_value(score) : NAN;
		}
	}
	if (complete)
		*complete = 0;
	return NAN;
}

static double official_score(const struct views_chart *f, const char *system,
			     const char *benchmark)
{
	return official_score_c(f, system, benchmark, NULL);
}

/* MLPerf training on its headline metric: a pair is drawn as the ratio of
 * the two official scores (oriented: > 1 is better); 0 when either side has
 * none (the caller keeps the median ratio and marks it). */
static int official_ratio(const struct views_chart *f, const struct views_pair *p, double *r,
			  int *complete)
{
	double a, b;
	int ca, cb;

	if (!f->json || strcmp(p->sys->suite, "mlperf-training"))
		return 0;
	a = official_score_c(f, p->sys->system, p->sys->benchmark, &ca);
	b = official_score_c(f, p->base->system, p->base->benchmark, &cb);
	if (!(a > 0) || !(b > 0))
		return 0;
	*r = p->sys->lower_is_better ? b / a : a / b;
	*complete = ca && cb;
	return 1;
}

/* What the heatmap and the bargroup across benchmarks say about MLPerf
 * training pairs: how many were drawn as official ratios, how many of
 * those have a run set that is not complete (marked "†"), how many kept
 * the ratio of medians (no official score on one side, marked "*"). */
struct official_marks {
	size_t official, incomplete, median;
};

/* A pair drawn as official_ratio() says (*value then holds the ratio of
 * official scores; returns 1), its configuration label *config marked and
 * counted in m. */
static int mark_official(struct views_chart *f, const struct views_pair *p, double *value,
			 const char **config, struct official_marks *m)
{
	int complete;

	if (official_ratio(f, p, value, &complete)) {
		m->official++;
		if (!complete) {
			*config = kstr(f, "† %s", *config);
			m->incomplete++;
		}
		return 1;
	}
	if (f->json && !strcmp(p->sys->suite, "mlperf-training")) {
		*config = kstr(f, "* %s", *config);
		m->median++;
	}
	return 0;
}

/* The subtitle's word on what the n ratios are. */
static const char *ratio_note(const struct official_marks *m, size_t n)
{
	if (m->official == n)
		return "ratio of official MLPerf scores";
	return m->official ? "ratio of official MLPerf scores (MLPerf training), of medians (others)"
			   : "ratio of medians";
}

/* The caption's footnotes for the marks: official (what an official cell
 * or bar is, when there are any), "*" and "†". */
static const char *official_footnotes(struct views_chart *f, const struct official_marks *m,
				      const char *official)
{
	return kstr(f, "%s%s%s", m->official ? official : "",
		    m->median ? " *: no official score on one side: ratio of medians instead." : "",
		    m->incomplete ? " †: a run set that is not complete or valid (fewer result "
				    "files than required): not an official result."
				  : "");
}

/* The chart's selection for the comparison view: the baseline always
 * (shape filters still apply), other systems when wanted. */
struct cmp_keep {
	const struct views_chart_opts *o;
};

static int keep_cmp(const struct db_config *c, void *ctx)
{
	const struct views_chart_opts *o = ((const struct cmp_keep *)ctx)->o;
	struct views_chart_opts shape = *o;

	if (o->baseline && (!strcmp(c->system, o->baseline) ||
			    (c->display_name && !strcmp(c->display_name, o->baseline)))) {
		shape.systems = NULL;
		shape.nsystems = 0;
		return wanted(&shape, c);
	}
	return wanted(o, c);
}

/* Every system's best configuration against the baseline's, per benchmark,
 * as `compare --baseline` pairs them (views/compare.c): the heatmap and the
 * bargroup across benchmarks draw these pairs, never pair on their own. */
static int compare_across(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
			  struct strbuf *err)
{
	struct db_config_query q = { o->suite, NULL, NULL, o->metric };
	struct views_compare_opts vo;
	struct cmp_keep *k = kalloc(f, 1, sizeof(*k));
	int rc;

	memset(&vo, 0, sizeof(vo));
	k->o = o;
	vo.baseline = o->baseline;
	vo.best = 1;
	vo.keep = keep_cmp;
	vo.keep_ctx = k;
	rc = views_compare_build(db, &q, &vo, &f->cmp, err);
	if (rc == 0 && !o->metric) {
		size_t i;
		for (i = 0; i < f->cmp.configs.n; i++)
			if (!strcmp(f->cmp.configs.v[i].suite, "mlperf-training"))
				break;
		if (i < f->cmp.configs.n)
			rc = chart_scores(db, o, NULL, &f->json, err);
	}
	if (rc == -AB_EDATA) {
		strbuf_reset(err);
		return ab_fail(err, AB_EDATA, "nothing to plot: %s",
			       f->cmp.failure == VIEWS_COMPARE_NO_BASELINE
				       ? kstr(f, "baseline '%s' has no successful runs%s%s",
					      o->baseline, o->suite ? " in suite " : "",
					      o->suite ? o->suite : "")
				       : kstr(f, "no benchmark has runs of both the baseline '%s' "
						 "and another system", o->baseline));
	}
	return rc;
}

/* "64n × 8, b2048 vs 1452n × 8, b46464" when a pair's shapes differ, else the
 * shared configuration. */
static const char *pair_config(struct views_chart *f, const struct views_pair *p)
{
	const char *a = config_label(f, p->sys);

	return a ? a : "configuration unknown";
}

/* c's system among the first *n of sys (in order of appearance), added
 * when new. */
static void add_system(struct plot_sys *sys, size_t *n, const struct db_config *c)
{
	size_t k;

	for (k = 0; k < *n && strcmp(sys[k].name, c->system); k++)
		;
	if (k == *n) {
		sys[k].name = c->system;
		sys[k].vendor = c->vendor;
		++*n;
	}
}

/* Bars grouped by benchmark: each system's speedup over the baseline (best
 * configurations, paired by the comparison view), with the bootstrap CI of
 * the ratio; reference line at 1. */
static int build_bargroup_bench(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
				struct strbuf *err)
{
	struct plot_bargroup_spec *sp = kalloc(f, 1, sizeof(*sp));
	const struct views_compare *v = &f->cmp;
	const char **groups, **configs;
	struct plot_sys *sys;
	struct plot_cell *cells;
	size_t i, k, g, ng = 0, ns = 0, ndiffer = 0, nci = 0;
	struct official_marks m = { 0 };
	double lo = HUGE_VAL, hi = 0;
	int rc, small;

	if (!o->baseline)
		return ab_fail(err, AB_EUSAGE, "a bargroup across benchmarks needs a baseline system");
	rc = compare_across(f, db, o, err);
	if (rc < 0)
		return rc;
	groups = kalloc(f, v->n, sizeof(*groups));
	sys = kalloc(f, v->n, sizeof(*sys));
	for (i = 0; i < v->n; i++) {
		const struct db_config *c = v->pairs[i].sys;
		for (k = 0; k < ng && strcmp(groups[k], c->benchmark); k++)
			;
		if (k == ng)
			groups[ng++] = c->benchmark;
		add_system(sys, &ns, c);
	}
	cells = kalloc(f, ng * ns, sizeof(*cells));
	configs = kalloc(f, ng * ns, sizeof(*configs));
	for (i = 0; i < ng * ns; i++) {
		cells[i].value = cells[i].lo = cells[i].hi = NAN;
		cells[i].n = -1;
	}
	for (i = 0; i < v->n; i++) {
		const struct views_pair *p = &v->pairs[i];
		struct plot_cell *cell;
		for (g = 0; strcmp(groups[g], p->sys->benchmark); g++)
			;
		for (k = 0; strcmp(sys[k].name, p->sys->system); k++)
			;
		cell = &cells[g * ns + k];
		cell->value = p->res.speedup;
		/* a bootstrap CI of one or a few runs is not drawn */
		small = p->sys->n < STATS_CI_MIN_N || p->base->n < STATS_CI_MIN_N;
		cell->lo = small ? NAN : p->res.speedup_ci_low;
		cell->hi = small ? NAN : p->res.speedup_ci_high;
		cell->n = (int)p->res.n;
		configs[g * ns + k] = pair_config(f, p);
		/* MLPerf training: the ratio of official scores, one number */
		if (mark_official(f, p, &cell->value, &configs[g * ns + k], &m)) {
			cell->lo = cell->hi = NAN;
			small = 1;
		}
		nci += !small;
		ndiffer += !p->same_shape;
		if (isfinite(cell->value) && cell->value > 0) {
			lo = fmin(lo, cell->value);
			hi = fmax(hi, cell->value);
		}
	}
	sp->groups = groups;
	sp->n_groups = ng;
	sp->systems = sys;
	sp->n_systems = ns;
	sp->cells = cells;
	sp->configs = configs;
	sp->reference = 1.0;
	sp->reference_label = kstr(f, "%s = 1", o->baseline);
	sp->palette = palette(f, o, &v->configs);
	/* many systems, or configurations that differ (each bar then names
	 * its own): one row per system with the configuration beside each bar */
	sp->horizontal = ns > 10 || ndiffer;
	/* ratios: a log axis when they span more than 30x (or cross 1 widely) */
	sp->y_scale = o->scale != PLOT_SCALE_AUTO ? o->scale
		      : hi / lo > 30 ? PLOT_SCALE_LOG10 : PLOT_SCALE_AUTO;
	sp->labels.title = o->title ? o->title : kstr(f, "Speedup over %s by benchmark", o->baseline);
	sp->labels.subtitle = kstr(f, "%s · best configuration per system%s · %s (× better than "
				      "the baseline: > 1 is better), %s%s",
				   o->suite ? o->suite : "all suites",
				   ndiffer ? " (configurations differ: labels say which)" : "",
				   ratio_note(&m, v->n),
				   m.official == v->n ? "no CI: an official score is one number per run set"
						     : ci_note(f, nci, v->n, "95 % bootstrap CI"),
				   (sp->y_scale == PLOT_SCALE_LOG10 || sp->y_scale == PLOT_SCALE_LOG2) ? kstr(f, " · log scale (ratios "
									     "span %.0f×)", hi / lo)
								       : "");
	sp->labels.caption = kstr(f, "Bars: ratio of medians to %s, oriented so that > 1 is better "
				     "(speedup for times, ratio for throughputs), paired as "
				     "'accelbench compare --baseline' pairs them. Whiskers: 95 %% "
				     "bootstrap CI of the ratio (%zu resamples, seed %lu); none where "
				     "either side has fewer than %d runs. Missing bars: not measured.%s",
				  o->baseline, v->copts.resamples, v->copts.seed, STATS_CI_MIN_N,
				  official_footnotes(f, &m, " MLPerf training: ratio of the official "
							    "scores (olympic mean × RCP scaling), one "
							    "number per run set, no CI."));
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
	size_t i, k, nb = 0, ns = 0, nci = 0, ncell = 0;
	double span = 1;
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
		add_system(sys, &ns, c);
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
				summary_ci(o, c, &m, &lo, &hi);
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
		strbuf_addf(&note, "Bars: median. Whiskers: %s of the median "
				   "(none with fewer than %d runs).",
			    ci_what(f, o, "confidence interval"), f->ci_min_n);
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
	/* many systems: one row per system, full names (the file grows) */
	sp->horizontal = ns > 10;
	{
		double lo = HUGE_VAL, hi = 0;
		for (i = 0; i < nb * ns; i++)
			if (isfinite(cells[i].value) && cells[i].value > 0) {
				lo = fmin(lo, cells[i].value);
				hi = fmax(hi, cells[i].value);
			}
		sp->y_scale = o->scale != PLOT_SCALE_AUTO ? o->scale
			      : hi / lo > 30 ? PLOT_SCALE_LOG10 : PLOT_SCALE_AUTO;
		span = hi / lo;
	}
	sp->palette = palette(f, o, &f->cs);
	sp->labels.title = o->title ? o->title : kstr(f, "%s: %s by global batch (%s is better)",
						       f->cs.v[0].benchmark,
						       pretty_metric(f, f->cs.v[0].metric),
						       f->cs.v[0].lower_is_better ? "lower" : "higher");
	for (i = 0; i < nb * ns; i++) {
		ncell += isfinite(cells[i].value);
		nci += isfinite(cells[i].value) && isfinite(cells[i].lo) && isfinite(cells[i].hi);
	}
	sp->labels.subtitle = kstr(f, "%s · median per system and batch size, %s%s",
				   f->cs.v[0].suite, ci_note(f, nci, ncell, ci_what(f, o, "CI")),
				   sp->y_scale == PLOT_SCALE_LOG10 || sp->y_scale == PLOT_SCALE_LOG2
					   ? kstr(f, " · log scale (values span %.0f×)", span)
					   : "");
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
	size_t i, k, n = 0, runs = 0, npts = 0, nci = 0;
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
			summary_ci(o, p->config, &pts[np].y, &pts[np].lo, &pts[np].hi);
			np++;
			runs += p->config->n;
		}
		/* the same fit as `accelbench scaling`: one place assembles it */
		rc = views_scaling_sat_fit(s, &fit, err);
		if (rc < 0)
			return rc;
		ps->system = series_name(f, s, SERIES_BATCH);
		{
			/* the legend says which configuration the curve stands for */
			struct strbuf shape = STRBUF_INIT;
			series_shape_label(s, SERIES_BATCH, &shape);
			ps->label = shape.len ? kstr(f, "%s (%s)", s->first->system, shape.buf) : NULL;
			strbuf_release(&shape);
		}
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
	sp->labels.title = o->title ? o->title : kstr(f, "%s: %s vs global batch size (%s is better)",
						       f->cs.v[0].benchmark, f->cs.v[0].metric,
						       f->cs.v[0].lower_is_better ? "lower" : "higher");
	for (i = 0; i < n; i++)
		for (k = 0; k < ser[i].n_points; k++) {
			npts++;
			nci += isfinite(ser[i].points[k].lo) && isfinite(ser[i].points[k].hi);
		}
	sp->labels.subtitle = kstr(f, "%s · %zu run%s · points: median, %s · curves: "
				      "fit X(b) = Xmax·b/(b + b½)", f->cs.v[0].suite, runs,
				   runs == 1 ? "" : "s",
				   ci_note(f, nci, npts, ci_what(f, o, "CI")));
	sp->labels.caption = kstr(f, "Points: median%s. Lines: saturation fit X(b) = Xmax·b/(b + "
				     "b½). Ring: knee (90 %% of Xmax). Hollow markers on the axis: "
				     "failed or out of memory.",
				  nci ? kstr(f, ", whiskers: %s (none with fewer than %d runs)",
					     ci_what(f, o, "CI"), f->ci_min_n)
				      : kstr(f, " (no CI: fewer than %d runs)", f->ci_min_n));
	sp->labels.x_title = "Global batch size";
	sp->labels.y_title = pretty_metric(f, f->cs.v[0].metric);
	sp->labels.y_unit = f->cs.v[0].unit;
	f->chart.kind = PLOT_BATCH;
	f->chart.u.batch = sp;
	return 0;
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
				   ? official_score(f, s->pts[k].config->system, NULL)
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
					    official && !isfinite(official_score(f, c->system, NULL)) ? " *" : "")
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
		series_build_mode(&f->cs, axis, SERIES_FAMILY, &f->ss);
		if (!o->metric && !strcmp(f->cs.v[0].suite, "mlperf-training")) {
			rc = chart_scores(db, o, o->benchmark, &f->json, err);
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
	const char *ym = o->y_metric ? o->y_metric : "energy_efficiency";
	size_t i;
	int rc = load(f, db, o, o->metric, &f->cs, err);

	if (rc < 0)
		return rc;
	/* the front is the pareto view's (best configuration per system) */
	rc = views_pareto_build(db, &q, ym, keep_wanted, (void *)o, 1, &f->pareto, err);
	if (rc < 0)
		return rc == -AB_EDATA ? ab_fail(err, AB_EDATA, "nothing to plot: no configuration "
								 "of '%s' has both %s and %s",
						 o->benchmark, f->cs.v[0].metric, ym)
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
		/* which configuration the point stands for */
		pts[i].label = config_label(f, r->x) ? kstr(f, "%s (%s)", r->x->system,
							    config_label(f, r->x))
						     : r->x->system;
	}
	sp->points = pts;
	sp->n_points = pv->n;
	sp->x_lower_better = pv->y_lower_better;
	sp->y_lower_better = pv->x_lower_better;
	sp->palette = palette(f, o, &f->cs);
	sp->labels.title = o->title ? o->title
				    : kstr(f, "%s: %s vs %s (%s is better on both)",
					   c0->benchmark, c0->metric,
					   o->y_metric ? o->y_metric : "energy efficiency",
					   pv->x_lower_better || pv->y_lower_better ? "the front"
										    : "higher");
	sp->labels.subtitle = kstr(f, "%s · %s (labels say which) · medians, no CI", c0->suite,
				   shape_note(f, o));
	sp->labels.x_title = o->y_metric ? pretty_metric(f, o->y_metric) : "Energy efficiency";
	sp->labels.x_unit = pv->y_unit;
	sp->labels.y_title = pretty_metric(f, c0->metric);
	sp->labels.y_unit = c0->unit;
	f->chart.kind = PLOT_PARETO;
	f->chart.u.pareto = sp;
	return 0;
}

struct hm_row {
	size_t idx;
	double key;
	const char *name;
};

static int hm_row_cmp(const void *a, const void *b)
{
	const struct hm_row *p = a, *q = b;

	if (p->key != q->key)
		return p->key < q->key ? 1 : -1;
	return strcmp(p->name, q->name);
}

static int build_heatmap(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
			 struct strbuf *err)
{
	struct plot_heatmap_spec *sp = kalloc(f, 1, sizeof(*sp));
	const struct views_compare *v = &f->cmp;
	const char **rows, **cols, **configs;
	double *ratios, *gm = NULL;
	size_t i, r, c, nr = 1, nc = 0, ndiffer = 0;
	struct official_marks m = { 0 };
	int rc;

	if (!o->baseline)
		return ab_fail(err, AB_EUSAGE, "a heatmap needs a baseline system");
	rc = compare_across(f, db, o, err);
	if (rc < 0)
		return rc;
	rows = kalloc(f, v->n + 1, sizeof(*rows));
	cols = kalloc(f, v->n + 1, sizeof(*cols));
	rows[0] = v->pairs[0].base->system; /* the baseline's own row: 1 everywhere */
	for (i = 0; i < v->n; i++) {
		const struct views_pair *p = &v->pairs[i];
		for (r = 0; r < nr && strcmp(rows[r], p->sys->system); r++)
			;
		if (r == nr)
			rows[nr++] = p->sys->system;
		for (c = 0; c < nc && strcmp(cols[c], p->sys->benchmark); c++)
			;
		if (c == nc)
			cols[nc++] = p->sys->benchmark;
	}
	ratios = kalloc(f, nr * nc, sizeof(double));
	configs = kalloc(f, nr * nc, sizeof(*configs));
	for (i = 0; i < nr * nc; i++)
		ratios[i] = NAN;
	for (i = 0; i < v->n; i++) {
		const struct views_pair *p = &v->pairs[i];
		for (r = 0; strcmp(rows[r], p->sys->system); r++)
			;
		for (c = 0; strcmp(cols[c], p->sys->benchmark); c++)
			;
		/* > 1 is better in every cell, whatever the metric's direction;
		 * MLPerf training: the ratio of official scores */
		ratios[r * nc + c] = p->res.speedup;
		configs[r * nc + c] = pair_config(f, p);
		mark_official(f, p, &ratios[r * nc + c], &configs[r * nc + c], &m);
		ndiffer += !p->same_shape;
		if (!isfinite(ratios[0 * nc + c])) {
			int cb = 1;
			ratios[0 * nc + c] = 1;
			configs[0 * nc + c] = config_label(f, p->base);
			if (f->json && !strcmp(p->base->suite, "mlperf-training") &&
			    isfinite(official_score_c(f, p->base->system, p->base->benchmark, &cb)) &&
			    !cb)
				configs[0 * nc + c] = kstr(f, "† %s", configs[0 * nc + c]);
		}
	}
	/* the geometric mean is the comparison's composite: over the
	 * benchmarks every system ran, so only when that is every column */
	if (v->n_common == nc && v->n_composite) {
		gm = kalloc(f, nr, sizeof(double));
		gm[0] = 1;
		for (r = 1; r < nr; r++) {
			gm[r] = NAN;
			for (i = 0; i < v->n_composite && !m.official; i++)
				if (!strcmp(v->composite[i].system, rows[r]))
					gm[r] = v->composite[i].gm.gm;
			if (m.official) {
				/* official scores: the geometric mean of the cells shown */
				double sum = 0;
				for (c = 0; c < nc; c++)
					sum += log(ratios[r * nc + c]);
				gm[r] = exp(sum / (double)nc);
			}
		}
	} else {
		sp->no_geomean = 1;
		sp->labels.caption = kstr(f, "Cells: ratio %sto the baseline (× better: > 1 "
					     "is better), each system's best configuration (small "
					     "print); hatched: not measured. No geometric-mean column: "
					     "not every system ran every benchmark%s.",
					  m.official ? "" : "of medians ",
					  v->n_common ? " ('accelbench compare --baseline' gives the "
							"composite over the common ones)"
						      : "");
	}
	/* rows best first, by the geometric mean of each row's cells (the
	 * order only; the column shows the comparison's composite) */
	{
		struct hm_row *hr = kalloc(f, nr, sizeof(*hr));
		double *r2 = kalloc(f, nr * nc, sizeof(double));
		const char **rows2 = kalloc(f, nr, sizeof(*rows2)), **conf2 = kalloc(f, nr * nc, sizeof(*conf2));
		for (r = 0; r < nr; r++) {
			double sum = 0;
			size_t n = 0;
			for (c = 0; c < nc; c++)
				if (isfinite(ratios[r * nc + c])) {
					sum += log(ratios[r * nc + c]);
					n++;
				}
			hr[r].idx = r;
			hr[r].key = gm && isfinite(gm[r]) ? log(gm[r]) : n ? sum / (double)n : -HUGE_VAL;
			hr[r].name = rows[r];
		}
		qsort(hr, nr, sizeof(*hr), hm_row_cmp);
		for (r = 0; r < nr; r++) {
			rows2[r] = rows[hr[r].idx];
			memcpy(r2 + r * nc, ratios + hr[r].idx * nc, nc * sizeof(double));
			memcpy(conf2 + r * nc, configs + hr[r].idx * nc, nc * sizeof(*conf2));
		}
		sp->baseline = rows[0];
		rows = rows2;
		ratios = r2;
		configs = conf2;
		if (gm) {
			double *gm2 = kalloc(f, nr, sizeof(double));
			for (r = 0; r < nr; r++)
				gm2[r] = gm[hr[r].idx];
			gm = gm2;
		}
	}
	sp->rows = rows;
	sp->n_rows = nr;
	sp->cols = cols;
	sp->n_cols = nc;
	sp->ratios = ratios;
	sp->configs = configs;
	sp->keep_order = 1;
	sp->geomeans = gm;
	if (!sp->labels.caption)
		sp->labels.caption = m.official
			? "Cells: ratio to the baseline (× better: > 1 is better), each system's "
			  "best configuration (small print); hatched: not measured. Geometric mean: "
			  "of the cells shown, over all the benchmarks."
			: "Cells: ratio of medians to the baseline (× better: > 1 is "
			  "better), each system's best configuration (small print); "
			  "hatched: not measured. Geometric mean: the composite of "
			  "'accelbench compare --baseline' over all the benchmarks.";
	sp->labels.title = o->title ? o->title : kstr(f, "Performance relative to %s", o->baseline);
	sp->labels.subtitle = kstr(f, "%s%s · %s, best configuration per system%s · "
				      "× better than the baseline (higher is better)",
				   o->suite ? o->suite : "all suites",
				   o->metric ? "" : " · headline metric of each benchmark",
				   ratio_note(&m, v->n),
				   ndiffer ? " (configurations differ: cells say which)" : "");
	if (m.official || m.median)
		sp->labels.caption = kstr(f, "%s%s", sp->labels.caption,
					  official_footnotes(f, &m, " MLPerf training cells: ratio of "
								    "the official scores (olympic mean "
								    "× RCP scaling)."));
	sp->labels.x_title = "Benchmark";
	sp->labels.y_title = "System";
	f->chart.kind = PLOT_HEATMAP;
	f->chart.u.heatmap = sp;
	return 0;
}

/* The run's energy as measured (the "energy" metric), NAN when missing. */
static double run_energy(struct views_chart *f, struct db *db, int64_t id, const char **unit,
			 struct strbuf *err)
{
	struct db_config_query q = { NULL, f->power.benchmark, f->power.system, "energy" };
	size_t i, k;
	double v = NAN;

	if (db_load_configs(db, &q, &f->cs2, err) < 0) {
		strbuf_reset(err);
		return NAN;
	}
	for (i = 0; i < f->cs2.n; i++)
		for (k = 0; k < f->cs2.v[i].n; k++)
			if (f->cs2.v[i].run_ids[k] == id) {
				v = f->cs2.v[i].values[k];
				*unit = f->cs2.v[i].unit;
			}
	return v;
}

/* "5 h", "30 min", "90 s" */
static const char *span_text(struct views_chart *f, double sec)
{
	sec = fabs(sec);
	if (sec >= 3600 && fmod(sec, 3600) < 1)
		return kstr(f, "%.0f h", sec / 3600);
	if (sec >= 3600)
		return kstr(f, "%.1f h", sec / 3600);
	if (sec >= 120)
		return kstr(f, "%.0f min", sec / 60);
	return kstr(f, "%.0f s", sec);
}

static int build_power(struct views_chart *f, struct db *db, const struct views_chart_opts *o,
		       struct strbuf *err)
{
	struct plot_power_spec *sp = kalloc(f, 1, sizeof(*sp));
	struct plot_power_series *ser;
	struct db_filter flt = { o->suite, o->benchmark, o->nsystems ? o->systems[0] : NULL };
	struct strbuf cap = STRBUF_INIT, sub = STRBUF_INIT;
	int64_t id = o->run_id;
	size_t i, k, n = 0, samples = 0, shifted = 0, dropped = 0, trimmed = 0;
	double start, stop, margin, energy;
	const char *eunit = "Wh";
	int rc, window, known;

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
	start = f->power.started;
	stop = f->power.finished;
	window = isfinite(start) && isfinite(stop) && stop > start;
	/* a little before and after the run shows idle power around it; with
	 * one end of the run known, samples must begin near it */
	margin = window ? fmax(60, 0.1 * (stop - start)) : 600;
	known = isfinite(start) || isfinite(stop);
	if (!isfinite(start))
		start = stop;
	if (!isfinite(stop) || stop < start)
		stop = start;
	ser = kalloc(f, f->power.ndev, sizeof(*ser));
	for (i = 0; i < f->power.ndev; i++) {
		const struct db_power_device *d = &f->power.dev[i];
		double shift = 0, *t;
		size_t a = 0, z = d->n;

		if (!d->n)
			continue;
		/* clocks: a sampler whose samples miss the run entirely but land
		 * on it when moved by whole hours (a time-zone error, as in an
		 * MLPerf switch log) is aligned and said so; one that does not
		 * land on it is left out and said so: the axis is never
		 * stretched over hours of nothing */
		if (known && (d->t[d->n - 1] < start - margin || d->t[0] > stop + margin)) {
			double h = round((start - d->t[0]) / 1800) * 1800;
			if (h != 0 && d->t[0] + h <= stop + margin && d->t[d->n - 1] + h >= start - margin) {
				shift = h;
				strbuf_addf(&cap, "%s%s: clock %s %s the run's, shifted by %s%s.",
					    cap.len ? " " : "", d->device, span_text(f, h),
					    h > 0 ? "behind" : "ahead of", h > 0 ? "+" : "−",
					    span_text(f, h));
				shifted++;
			} else {
				strbuf_addf(&cap, "%s%s: samples %s %s the run and no whole-hour "
						  "clock offset explains it: not drawn.",
					    cap.len ? " " : "", d->device,
					    span_text(f, d->t[d->n - 1] < start ? start - d->t[d->n - 1]
										: d->t[0] - stop),
					    d->t[d->n - 1] < start ? "before" : "after");
				dropped++;
				continue;
			}
		}
		/* only the run and its margin */
		if (window) {
			while (a < z && d->t[a] + shift < start - margin)
				a++;
			while (z > a && d->t[z - 1] + shift > stop + margin)
				z--;
			trimmed += d->n - (z - a);
		}
		if (z == a)
			continue;
		t = kalloc(f, z - a, sizeof(double));
		for (k = a; k < z; k++)
			t[k - a] = d->t[k] + shift;
		ser[n].device = shift != 0 ? kstr(f, "%s (clock shifted %s%s)", d->device,
						  shift > 0 ? "+" : "−", span_text(f, shift))
					   : d->device;
		ser[n].t = t;
		ser[n].watts = d->watts + a;
		ser[n].n = z - a;
		samples += z - a;
		n++;
	}
	if (!n)
		return ab_fail(err, AB_EDATA, "nothing to plot: no power sample of run %lld lies in "
					      "or near the run (%s)", (long long)id, cap.buf);
	if (trimmed)
		strbuf_addf(&cap, "%s%zu samples more than %s before or after the run are not drawn.",
			    cap.len ? " " : "", trimmed, span_text(f, margin));
	energy = run_energy(f, db, id, &eunit, err);
	strbuf_addf(&sub, "%zu samples from %zu device%s, as recorded", samples, n,
		    n == 1 ? "" : "s");
	if (shifted)
		strbuf_addf(&sub, " · clocks aligned: %zu shifted", shifted);
	if (dropped)
		strbuf_addf(&sub, " · %zu device%s not aligned, left out", dropped,
			    dropped == 1 ? "" : "s");
	if (isfinite(energy)) {
		struct strbuf v = STRBUF_INIT;
		views_fmt_value(&v, energy);
		strbuf_addf(&sub, " · energy of the run: %s %s", v.buf, eunit);
		strbuf_release(&v);
	} else {
		strbuf_addstr(&sub, " · energy of the run: missing (not measured)");
	}
	sp->series = ser;
	sp->n_series = n;
	sp->run_start = f->power.started;
	sp->run_stop = f->power.finished;
	sp->t0 = NAN;
	sp->labels.title = o->title ? o->title : kstr(f, "Power of run %lld: %s on %s", (long long)id,
						       f->power.benchmark, f->power.system);
	sp->labels.subtitle = keep(f, strbuf_detach(&sub, NULL));
	sp->labels.caption = cap.len ? keep(f, strbuf_detach(&cap, NULL)) : "";
	strbuf_release(&cap);
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
	if (o->level != 0 && !(o->level > 0 && o->level < 1)) {
		free(f);
		return ab_fail(err, AB_EUSAGE, "the confidence level must lie between 0 and 1 "
					       "(exclusive), not %g", o->level);
	}
	/* the whiskers of medians follow the level; the bootstrap CIs of
	 * ratios (heatmap, bargroup across benchmarks) need STATS_CI_MIN_N */
	f->ci_min_n = kind == VIEWS_CHART_HEATMAP || (kind == VIEWS_CHART_BARGROUP && !o->benchmark)
			      ? STATS_CI_MIN_N
			      : (int)stats_ci_min_n(ci_level(o));
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
