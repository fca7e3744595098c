/*
 * figures.h - build the charts of plots/ from the database: selection of
 * configurations, statistics and fits (model/), labels with units.  Used by
 * `accelbench plot` and by the reports, so a figure looks the same in both.
 *
 * Ownership: figure_build() returns a figure that owns every array and
 * string its chart points to; figure_free() (NULL-safe) releases it.
 */
#ifndef AB_FIGURES_H
#define AB_FIGURES_H

#include "core/core.h"
#include "model/db.h"
#include "plots/plot.h"

enum figure_kind {
	FIGURE_BAR = 1,      /* one bar per system (best configuration, or --batch/--devices) */
	FIGURE_BARGROUP,     /* systems grouped by global batch; without a benchmark,
			      * speedups over the baseline grouped by benchmark */
	FIGURE_SCALING,      /* throughput vs global batch with the saturation fit */
	FIGURE_DEVICES,      /* speedup and efficiency vs devices (or nodes) */
	FIGURE_PARETO,       /* throughput vs energy efficiency, one point per system */
	FIGURE_HEATMAP,      /* systems x benchmarks, ratio to the baseline */
	FIGURE_POWER         /* watts over time of one run */
};

struct figure_opts {
	const char *suite;
	const char *benchmark;        /* required except for heatmap (all benchmarks) and power */
	const char *metric;           /* NULL: headline */
	const char *const *systems;   /* NULL/0: all systems */
	size_t nsystems;
	const char *baseline;         /* bar: marked; heatmap: required */
	long batch, devices;          /* > 0: use only configurations with this shape */
	int by_nodes;                 /* devices figure along nodes */
	int64_t run_id;               /* power: the run (0: first run with samples) */
	const char *title;            /* NULL: a title from the data */
	const struct plot_palette *palette; /* NULL: the figure's own */
};

struct figure;

/* "bar", "bargroup", "scaling", "devices", "pareto", "heatmap", "power"; -1 unknown. */
int figure_kind_parse(const char *name);
/* Returns 0, -AB_EDATA when the selection matches nothing (err says what). */
int figure_build(struct db *db, enum figure_kind kind, const struct figure_opts *o,
		 struct figure **out, struct strbuf *err);
const struct plot_chart *figure_chart(const struct figure *f);
void figure_free(struct figure *f);

#endif
