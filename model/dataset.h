/*
 * dataset.h - load the samples behind the statistics: the runs of each
 * configuration (benchmark x system x nodes x devices x global batch x
 * precision) with one metric's values.
 *
 * Ownership: db_configs_release() frees everything db_load_configs()
 * filled in; strings in the structs are owned by the set.
 */
#ifndef AB_DATASET_H
#define AB_DATASET_H

#include "db.h"

/*
 * Normalisation.  Per device (node), a rate is divided by the accelerators
 * (nodes) of its configuration and a time-like value (lower is better) is
 * multiplied by them (accelerator-time), so that smaller systems compare
 * with larger ones on what each unit delivers.  The unit says so:
 * "tokens/s per accelerator", "min x accelerators".  Metrics that are
 * already per unit (efficiency, per device, per watt, percentages) are left
 * as they are.  Within a configuration
 * the count is fixed, so medians, order-statistic CIs and ratios scale
 * exactly; rank tests between two configurations do not, and are computed
 * on the normalised values.  The normalisation is a setting of the
 * connection (db_configs_set_per), so every view built while it is set
 * (statistics, comparisons, Pareto) sees the same normalised values.
 */
enum db_per {
	DB_PER_SYSTEM = 0,
	DB_PER_DEVICE = 1,
	DB_PER_NODE = 2
};

/* "system", "accelerator", "node". */
const char *db_per_name(enum db_per per);

struct db_config {
	char *suite, *benchmark;
	char *system, *display_name, *vendor, *accelerator;
	long nodes, devices, global_batch; /* 0 = unknown */
	char *precision;                   /* NULL = unknown */
	char *metric, *unit;
	char *boundary;                    /* energy/power measurement boundary, NULL if none */
	int lower_is_better;
	double *values;                    /* metric values of the ok runs, in run order */
	int64_t *run_ids;                  /* parallel to values */
	size_t n;
	size_t n_failed;                   /* runs failed or aborted */
	size_t n_invalid;                  /* runs with impossible values: neither */
	size_t n_missing;                  /* ok runs without this metric */
	enum db_per per;                   /* how the values are normalised */
};

struct db_configs {
	struct db_config *v;
	size_t n;
	size_t n_unnormalised;             /* configurations left out: their device or
					    * node count, needed to normalise, is unknown */
};

struct db_config_query {
	const char *suite;
	const char *benchmark;
	const char *system;
	const char *metric;                /* NULL: each benchmark's headline metric */
};

int db_load_configs(struct db *db, const struct db_config_query *q, struct db_configs *out,
		    struct strbuf *err);
/*
 * Remember every db_load_configs() result on this connection from now on,
 * so a reader that asks for the same configurations many times (the report:
 * a table, a comparison, a chart of one benchmark) runs each query once and
 * gets copies.  Only for connections that do not write meanwhile.
 */
void db_configs_cache_enable(struct db *db);
/* Load what q selects into the cache (when on) without a copy for the
 * caller: a query for all benchmarks (q->benchmark NULL, any suite) then
 * serves each benchmark's query of the same system, metric and
 * normalisation, filtered.  A failure is not reported (the query it
 * stood for fails the same way when asked). */
void db_configs_prefetch(struct db *db, const struct db_config_query *q);
/* The same for q and for q with metric2 as its metric, in one pass over
 * the runs (the report: headline and energy efficiency). */
void db_configs_prefetch2(struct db *db, const struct db_config_query *q, const char *metric2);
/* Normalise what db_load_configs() returns from now on; returns the
 * previous setting (DB_PER_SYSTEM: as measured, the default). */
enum db_per db_configs_set_per(struct db *db, enum db_per per);
void db_configs_release(struct db_configs *c);

/* Whether smaller is better for a metric (by name and unit): times,
 * latencies, energy, power and cost are; throughput and efficiency not. */
int db_metric_lower_is_better(const char *name, const char *unit);

/* 1 if a and b are the same configuration apart from the system. */
int db_config_same_shape(const struct db_config *a, const struct db_config *b);
/* 1 if c's metric is already per unit (an efficiency, per device, per watt,
 * a percentage): normalising per device or node leaves it as it is. */
int db_config_per_unit(const struct db_config *c);
/*
 * Each system's best configuration (by median, the metric's direction; ties
 * keep the earlier one) among those with ok runs, of benchmark (NULL: any)
 * and accepted by keep (NULL: all).  out has room for cs->n; systems come
 * in the order of cs.  Returns how many.
 */
size_t db_configs_best(const struct db_configs *cs, const char *benchmark,
		       int (*keep)(const struct db_config *c, void *ctx), void *ctx,
		       const struct db_config **out);
/* The same, each configuration's median as if normalised per (DB_PER_DEVICE:
 * a rate divided by its accelerators, a lower-is-better value multiplied;
 * DB_PER_NODE likewise): per-accelerator bests of values loaded as
 * measured; configurations without the count are passed over. */
size_t db_configs_best_per(const struct db_configs *cs, const char *benchmark, enum db_per per,
			   int (*keep)(const struct db_config *c, void *ctx), void *ctx,
			   const struct db_config **out);
/* The configuration in cs of like's system and shape (another metric's
 * view of the same runs), or NULL. */
const struct db_config *db_configs_find(const struct db_configs *cs, const struct db_config *like);

#endif
