/*
 * demo_priv.h - what the three halves of the simulated demo campaign
 * (demo.c: CARAML, demo_mlperf.c: MLPerf training, demo_reframe.c:
 * ReFrame) share: the generator state and small writers.
 *
 * Ownership: struct demo_gen borrows dir and err; rng is owned by the
 * caller that allocated it.
 */
#ifndef AB_RUNNERS_DEMO_PRIV_H
#define AB_RUNNERS_DEMO_PRIV_H

#include "runners.h"

#include <gsl/gsl_rng.h>

struct demo_gen {
	const char *dir;        /* root of the campaign (borrowed) */
	gsl_rng *rng;
	long files;             /* files written so far */
	long next_job;          /* next batch-system job id */
	struct strbuf *err;
};

/* Write data to dir/rel (parents created); counts the file. */
int demo_write_file(struct demo_gen *g, const char *rel, const struct strbuf *data);
/* Multiplicative log-normal noise with relative sd rel. */
double demo_noise(struct demo_gen *g, double rel);

/* The suites' halves; each draws from its own stream seeded from seed. */
int demo_write_caraml(struct demo_gen *g, const struct run_demo_opts *o);
int demo_write_mlperf(struct demo_gen *g, const struct run_demo_opts *o);
int demo_write_reframe(struct demo_gen *g, const struct run_demo_opts *o);

/* Name, vendor, accelerator, devices per node, TDP [W] of every system the
 * demo simulates, for the systems file (marked "simulated") and prices. */
struct demo_system_desc {
	const char *name, *vendor, *accelerator;
	long per_node;
	double tdp_w;
	double price_per_device;   /* EUR, 0: priced per node */
	double price_per_node;
	const char *site;
};
extern const struct demo_system_desc demo_systems[];
extern const size_t demo_nsystems;

#endif
