/*
 * runners.h - the public header of runners/: things that produce raw
 * result files on disk in the tools' own formats, for ingest/ to read.
 *
 * demo: a simulated CARAML campaign (JUBE result tables + jpwr/CARAML
 * energy files) with repeated runs, batch sweeps and device sweeps on
 * several systems, generated deterministically from a seed.  It exercises
 * every step of the pipeline without a GPU and without copying anyone's
 * data.  The numbers are modelled on published CARAML figures (see the
 * table in demo.c) but are synthetic.
 */
#ifndef AB_RUNNERS_H
#define AB_RUNNERS_H

#include "core/core.h"

struct run_demo_opts {
	unsigned long seed;     /* RNG seed; the same seed gives the same bytes */
	int repeats;            /* runs per configuration (>= 1) */
	double scale;           /* multiply the number of batch sizes / systems (bench) */
};

/* Write the demo campaign under dir (created if missing).  *files gets the
 * number of files written. */
int run_demo_write(const char *dir, const struct run_demo_opts *o, long *files,
		   struct strbuf *err);

#endif
