/*
 * runners.h - the public header of runners/: things that produce raw
 * result files on disk in the tools' own formats, for ingest/ to read.
 *
 * demo: a simulated campaign of three suites in their native formats,
 * generated deterministically from a seed: CARAML (JUBE result tables +
 * jpwr/CARAML energy files, batch and device sweeps; demo.c), MLPerf
 * training (:::MLLOG result_N.txt, system JSONs, power logs;
 * demo_mlperf.c) and ReFrame (a 4.x perflog tree and a JSON run report;
 * demo_reframe.c), plus a systems file that marks every system
 * "simulated".  It exercises every step of the pipeline without a GPU and
 * without copying anyone's data.  The numbers are built on published
 * figures (CARAML, the EPCC ReFrame study; see each file) but are
 * synthetic example data.
 */
#ifndef AB_RUNNERS_H
#define AB_RUNNERS_H

#include "core/core.h"

enum run_demo_suites {
	RUN_DEMO_CARAML = 1 << 0,
	RUN_DEMO_MLPERF = 1 << 1,
	RUN_DEMO_REFRAME = 1 << 2,
	RUN_DEMO_ALL = RUN_DEMO_CARAML | RUN_DEMO_MLPERF | RUN_DEMO_REFRAME
};

struct run_demo_opts {
	unsigned long seed;     /* RNG seed; the same seed gives the same bytes */
	int repeats;            /* runs per configuration (>= 1) */
	double scale;           /* repeat the CARAML campaign this many times (bench) */
	unsigned suites;        /* enum run_demo_suites; 0 = all */
};

/* Write the demo campaign under dir (created if missing): dir/systems.json
 * and dir/caraml, dir/mlperf, dir/reframe.  *files gets the number of
 * files written. */
int run_demo_write(const char *dir, const struct run_demo_opts *o, long *files,
		   struct strbuf *err);

/* Write the example prices file (the format of `accelbench cost --prices`)
 * for every demo system to path, atomically. */
int run_demo_write_prices(const char *path, struct strbuf *err);

#endif
