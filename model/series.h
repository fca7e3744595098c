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
 * series_build_mode() groups the devices and nodes axes other ways too:
 *   SERIES_STRONG: (system, precision, global batch) - strong scaling, the
 *     same problem on more devices;
 *   SERIES_FAMILY: (system family, accelerator, devices per node, precision),
 *     any batch - MLPerf-style scale series, where each scale is submitted
 *     as a system of its own (NVIDIA/eos_n64_..., NVIDIA/eos_n1452_...) and
 *     picks its own batch.  The family is the name up to its first scale
 *     token (series_family()); a name without one is a family of its own.
 *
 * Ownership: a series_set borrows the db_configs it was built from (values
 * point into them); release the set before the configs.
 */
#ifndef AB_SERIES_H
#define AB_SERIES_H

#include "dataset.h"

enum series_axis { SERIES_BATCH, SERIES_DEVICES, SERIES_NODES };
enum series_mode { SERIES_WEAK, SERIES_STRONG, SERIES_FAMILY };

struct series_point {
	double x;
	const struct db_config *config;
	double median;          /* NAN when no run succeeded */
	int censored;           /* every run failed (e.g. out of memory) */
};

struct series {
	const struct db_config *first;   /* system, vendor, benchmark, metric, unit */
	long nodes, devices, per_device_batch; /* the fixed shape (0 = varies/unknown) */
	long global_batch;               /* SERIES_STRONG: the fixed global batch */
	enum series_mode mode;
	char *family;                    /* SERIES_FAMILY: series_family() of the
					  * systems (owned); NULL otherwise */
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
/* series_build_mode(cs, axis, SERIES_WEAK, out) */
void series_build(const struct db_configs *cs, enum series_axis axis, struct series_set *out);
/* mode applies to the devices and nodes axes; batch series are always weak. */
void series_build_mode(const struct db_configs *cs, enum series_axis axis, enum series_mode mode,
		       struct series_set *out);
/*
 * The scale family of a system name: the name up to (not including) its
 * first scale token, a '_' or '-' separated token that is a count of
 * nodes or chips ("n64", "512", "1024x"): "NVIDIA/eos_n1452_ngc24.04_nemo"
 * -> "NVIDIA/eos", "Google/tpu-v5p-512_jax" -> "Google/tpu-v5p".  Returns 0
 * and leaves out untouched when the name has no scale token (or nothing
 * before it).
 */
int series_family(const char *system, struct strbuf *out);
void series_set_release(struct series_set *s);
/* A short label of the fixed shape, e.g. "1 node, 4 devices, bf16". */
void series_shape_label(const struct series *s, enum series_axis axis, struct strbuf *out);

#endif
