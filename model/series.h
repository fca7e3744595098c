/*
 * series.h - turn configurations into scaling series: one series per
 * system and fixed remaining shape, points along global batch, device
 * count or node count.  Shared by `accelbench scaling`, the scaling plots
 * and the reports, so they all group runs the same way.
 *
 * Grouping rules:
 *   batch:   (system, nodes, devices, precision), x = global batch
 *   devices: (system, precision, per-device batch), x = devices
 *   nodes:   (system, precision, per-device batch, devices per node), x = nodes
 * Configurations lacking the x value are left out.  The per-device batch
 * is global batch / devices when both are known (weak scaling keeps it
 * fixed), else unknown (0) and then all such configurations group together.
 *
 * Ownership: a series_set borrows the db_configs it was built from (values
 * point into them); release the set before the configs.
 */
#ifndef AB_SERIES_H
#define AB_SERIES_H

#include "dataset.h"

enum series_axis { SERIES_BATCH, SERIES_DEVICES, SERIES_NODES };

struct series_point {
	double x;
	const struct db_config *config;
	double median;          /* NAN when no run succeeded */
	int censored;           /* every run failed (e.g. out of memory) */
};

struct series {
	const struct db_config *first;   /* system, vendor, benchmark, metric, unit */
	long nodes, devices, per_device_batch; /* the fixed shape (0 = varies/unknown) */
	const char *precision;
	struct series_point *pts;        /* sorted by x */
	size_t n;
};

struct series_set {
	struct series *v;
	size_t n;
};

/* "batch", "devices", "nodes" -> axis; -1 if unknown. */
int series_axis_parse(const char *s);
const char *series_axis_name(enum series_axis a);
void series_build(const struct db_configs *cs, enum series_axis axis, struct series_set *out);
void series_set_release(struct series_set *s);
/* A short label of the fixed shape, e.g. "1 node, 4 devices, bf16". */
void series_shape_label(const struct series *s, enum series_axis axis, struct strbuf *out);

#endif
